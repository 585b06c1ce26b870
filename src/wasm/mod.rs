//! The JavaScript boundary: the only module that touches `wasm_bindgen` and `JsValue`.
//!
//! A value comes in by one of three paths, all read through `Input`, the one handle type the
//! core is compiled for in wasm:
//! - read in place (`InPlace`, `in_place.rs`): a JavaScript value asked one question at a time,
//!   a call out of wasm each. Every argument, and whatever the other two paths leave to it.
//! - on the tape (`OnTape`, `tape.rs`): the display functions' input, walked once in
//!   JavaScript (`tape.js`) into numbers copied into the module in one call.
//! - in a document (`DocValue`, `document.rs`): a value of the JSON text a Transcript parsed and holds.
//!
//! and leaves by one of four:
//! - through serde (`write.rs`, `serde_to_js`): every result but those below, as plain objects,
//!   never `Map`, and `null`, never `undefined`.
//! - as words (`tape/write.rs`, `items_from_words` and the record ones): the display functions'
//!   items and records, and every record the module makes, built from numbers by `tape.js`.
//! - key by key (`transcript.rs`, `error_record`): the record of an element a Transcript could not
//!   read.
//! - as patches (`stream/patches.rs`, `PatchWriter`): what a stream's chunk changed, sharing
//!   unchanged objects with the records handed out before.
//!
//! Every failure becomes a real `Error` named `ChatDisplayError` with `code` and `path`
//! (`error.rs`); nothing here can panic on input.
//!
//! | file | what it holds |
//! |---|---|
//! | `setup.rs` | the allocator, the panic handler, the start function, `Local` (the one-thread statics) |
//! | `error.rs` | the `ChatDisplayError` a core error becomes |
//! | `strings.rs` | the one cache of JavaScript strings (keys and constant words, a stream's argument keys) |
//! | `input.rs` | `Input`: the one handle type, and which path a value takes |
//! | `in_place.rs` | `InPlace`: a JavaScript value read where it is |
//! | `tape.rs`, `tape/`, `tape.js` | the display functions' fast path: its format, seeds, reader and writer, and its JavaScript |
//! | `document.rs` (`no_document.rs` without `transcript`) | a Transcript's document values, and the engine they are read with |
//! | `bytes.rs` | text and bytes handed in whole: a Transcript's JSON text, a stream's chunks |
//! | `write.rs` | serde values to JavaScript (`JsSerializer`), and `Fresh`, the plain objects made key by key |
//! | `display.rs` | `extractDisplayItems`, `toDisplayMessages`, `isChatDisplayError`, `toText` (every build) |
//! | `expansion.rs` | `expand`, `isExpandable`, `expandToolResults` |
//! | `records.rs` | `newDisplayMessage`, `changeDisplayMessage`, `validateDisplayMessage` |
//! | `sycophant.rs` | the Sycophant constructors and `decodeSycophant` |
//! | `transcript.rs` | the `Transcript` class |
//! | `providers.rs` | `fromProvider`, `detectProtocol`, `toProvider` |
//! | `stream.rs`, `stream/patches.rs` | the `StreamAccumulator` class, and its patches |
//! | `*.d.ts` | each group's TypeScript, included into the module's declarations |
//!
//! Which exports a module has is its features' (Cargo.toml), gated on the `mod` lines below and
//! nowhere else: `display.rs` is in every build (the `chat-display/display` entry), `core` adds
//! the next four groups, `providers` the last two (the `chat-display` entry).

mod setup;

mod error;
mod strings;

mod in_place;
mod input;
mod tape;
// A Transcript's documents: without `transcript`, a stand-in whose value type has no values, so
// that `Input`'s document variant and its readers leave the module.
#[cfg_attr(feature = "transcript", path = "document.rs")]
#[cfg_attr(not(feature = "transcript"), path = "no_document.rs")]
mod document;
// Transcript's text and, with `providers` (which implies `transcript`), a stream's chunks.
#[cfg(feature = "transcript")]
mod bytes;

mod write;

// The export groups, each with its TypeScript (`*.d.ts`), re-exported here as the Rust API of
// the boundary (the wasm-bindgen tests call them).
mod display;
pub use display::*;
#[cfg(feature = "expansion")]
mod expansion;
#[cfg(feature = "expansion")]
pub use expansion::*;
#[cfg(feature = "records")]
mod records;
#[cfg(feature = "records")]
pub use records::*;
#[cfg(feature = "sycophant")]
mod sycophant;
#[cfg(feature = "sycophant")]
pub use sycophant::*;
#[cfg(feature = "transcript")]
mod transcript;
#[cfg(feature = "transcript")]
pub use transcript::*;
#[cfg(feature = "providers")]
mod providers;
#[cfg(feature = "providers")]
pub use providers::*;
#[cfg(feature = "providers")]
mod stream;
#[cfg(feature = "providers")]
pub use stream::*;
