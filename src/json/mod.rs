//! Every JSON concern of the core, one file each:
//!
//! | file | what it holds |
//! |---|---|
//! | `view.rs` | [`Json`], the read-only view the core reads every input through (natively a `&serde_json::Value`; in the browser a JavaScript value, `src/wasm/`), [`Kind`], [`deep_equal`] |
//! | `number.rs` | [`Number`], and the digits of floats and integers |
//! | `fields.rs` | [`fields`]: the one typed reader of fields, with the error a wrong kind gives |
//! | `doc.rs` | [`doc`]: JSON text parsed once into a compact tree, what a `Transcript` holds |
//! | `parsed.rs` | [`Parsed`]: JSON parsed from text with its keys in order (tool arguments, stream bodies) |
//! | `partial.rs` | [`partial`]: JSON text streamed in fragments, parsed incrementally into changes |
//! | `write.rs` | [`compact_json`]: any value as `JSON.stringify` writes it |
//!
//! And the one depth limit, [`MAX_DEPTH`].

pub mod doc;
pub mod fields;
mod number;
mod view;

#[cfg(feature = "providers")]
mod parsed;
#[cfg(feature = "providers")]
pub mod partial;
#[cfg(feature = "providers")]
mod write;

pub use number::{digits_of_exponential, is_whole, parse_integer, shortest_digits, Number};
#[cfg(feature = "providers")]
pub use parsed::Parsed;
pub use view::{deep_equal, fields_by_name, Json, Kind};
#[cfg(feature = "providers")]
pub use write::{compact_json, js_number, too_deep};

/// How deep the core looks into any JSON value: writing it as JSON text, parsing it from a stream
/// or a document, comparing it, printing it as Elixir does. One level more is `too_deep` (or, in
/// Elixir's printing, `...`), never a stack overflow. serde_json's parser stops at the same 128.
pub const MAX_DEPTH: usize = 128;
