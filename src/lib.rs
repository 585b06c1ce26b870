//! chat-display: LLM conversation messages as typed display items.
//!
//! The core is plain Rust and knows nothing of JavaScript: it reads JSON-like input through the
//! [`json::Json`] view (implemented here for `&serde_json::Value`, and in src/wasm for JavaScript
//! values) and returns typed results that serialize to the JSON the upstream Elixir libraries give.
//!
//! | module | what it holds |
//! |---|---|
//! | [`json`] | every JSON concern: the read-only view of input values, typed fields, the parsed document a `Transcript` holds, partial JSON, writing, the one depth limit |
//! | [`message`] | the LangChain message model: Message, ContentPart, ToolCall, ToolResult, read from LangChain or Sycophant messages |
//! | [`display`] | display items (`extractDisplayItems`) and their records (`toDisplayMessages`) |
//! | [`expand`] | tool-result expansion (`expand`, `isExpandable`, `expandToolResults`) |
//! | [`sycophant`] | Sycophant messages: constructors, canonical JSON, decoding |
//! | [`record`] | display-message records: Ecto cast and validation (`newDisplayMessage`, `changeDisplayMessage`, `validateDisplayMessage`) |
//! | [`elixir`] | how Elixir prints values: `inspect` (for toText and for error messages, one work budget), interpolation, floats |
//! | [`text`] | search text of a record (`toText`) |
//! | [`registry`] | the wire formats, one row each: their names, and the type implementing each |
//! | [`providers`] | provider wire formats: `fromProvider`, `detectProtocol`, `toProvider`, one folder per format |
//! | [`stream`] | live provider streams: `StreamAccumulator`, SSE decoding, records kept up to date as patches |
//! | [`transcript`] | a conversation held as parsed text: record windows, search text, search, append |
//! | [`error`] | the error type: code, path, message |
//! | [`map`], [`sort`] | the core's hash table and its small stable sort |
//! | `wasm` | the JavaScript boundary, the only module that touches `wasm_bindgen` |

// The core has no unsafe code (only the wasm boundary, through wasm-bindgen's generated glue, has):
// native builds, the tests and the fuzz targets, check it. So fuzzing needs no memory sanitizer.
#![cfg_attr(not(target_arch = "wasm32"), forbid(unsafe_code))]
// The core needs only `core` and `alloc`. The shipped module is built without the `std` feature,
// so it links no standard library: its panics are a trap (there are none on input; see
// `src/wasm/`), and Rust's formatting machinery, which std's panic handler brings, stays out.
#![no_std]

extern crate alloc;
#[cfg(any(feature = "std", not(target_arch = "wasm32")))]
extern crate std;

/// What the standard prelude would bring, for a crate without std.
pub(crate) mod prelude {
    pub use alloc::boxed::Box;
    pub use alloc::string::{String, ToString};
    pub use alloc::vec::Vec;
    pub use alloc::{format, vec};
}

pub mod display;
pub mod elixir;
pub mod error;
pub mod expand;
pub mod json;
pub mod map;
pub mod message;
#[cfg(feature = "providers")]
pub mod providers;
pub mod record;
pub mod registry;
pub mod sort;
#[cfg(feature = "providers")]
pub mod stream;
pub mod sycophant;
pub mod text;
pub mod transcript;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use display::{
    extract_display_items, to_display_messages, DisplayItem, DisplayRecord, ItemContent,
};
pub use error::{Error, ErrorCode};
pub use expand::{expand, expand_tool_results, is_expandable};
#[cfg(feature = "providers")]
pub use providers::{detect_protocol, from_provider, to_provider};
pub use record::{
    change_display_message, new_display_message, validate_display_message, Changeset,
};
pub use registry::WireProtocol;
pub use text::to_text;
