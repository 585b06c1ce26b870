//! Live provider streams: [`StreamAccumulator`] reads a provider's streaming response (text or
//! bytes cut anywhere, in any [`Transport`] its format names, or parsed event objects) and keeps
//! its display-message records up to date, telling the UI what changed as [`Patch`]es.
//!
//! How it stays proportional to each chunk:
//!
//! * The accumulator builds the provider's own final response body as the events arrive (an
//!   Anthropic message, a Chat Completions `choices[0].message`, a Responses `response`, a Gemini
//!   candidate, a Bedrock `output.message`), so at the end `message()` is `fromProvider` of exactly
//!   that body. Each content block (part, item, tool call) of the body is tracked as a [`Block`].
//! * A block's records come from the provider reader itself, run on a body holding that block alone
//!   (O(block)). This happens when a block starts, changes shape, or stops, not on every delta.
//! * A text delta appends to the block's string in the body and, once the accumulator has checked
//!   which record's `content.text` that string becomes (by reading the block with a probe character
//!   appended), to that record: an `append` patch carrying only the delta.
//! * A tool call's argument text goes through the incremental partial-JSON parser
//!   ([`crate::json::partial`]); its changes update the record's `content.arguments` and travel as
//!   they are, so the JavaScript side can copy only the changed path ([`Patch::Arguments`]).
//! * When a response ends, its records are read once more from the whole body with `fromProvider`
//!   and `toDisplayMessages` (statuses from server-tool results included), and any difference is
//!   patched, so the end state is exact by construction.
//!
//! Records of one response sit together, in `toDisplayMessages` order: the assistant message's
//! content items (by block), its tool calls (by block), then the items of any later messages the
//! body gives (server-tool results).

//!
//! The files, one concern each:
//!
//! | file | what it holds |
//! |---|---|
//! | `mod.rs` | [`Patch`], [`Chunk`], [`Reader`]: what goes in and comes out |
//! | `accumulator.rs` | [`StreamAccumulator`]'s state, and a chunk's way to the format's reader |
//! | `blocks.rs` | the operations the formats' stream readers use: responses, blocks, deltas, errors |
//! | `records.rs` | which records each block has, where they sit, the patches that move them |
//! | `format.rs` | the format's stream half, reached through the registry |
//! | `transport.rs` | [`Transport`]: the framings, and which one a stream is in |
//! | `sse.rs`, `eventstream.rs`, `ndjson.rs`, `json_array.rs` | one decoder per transport |
//! | `paths.rs` | values and paths in the bodies being built |
//! | `json.rs` | events given as values, copied; serde_json's errors said briefly |
//!
//! Each format's reader of its own events is its `stream.rs`, in its folder under
//! `src/providers/`.

use crate::prelude::*;
mod accumulator;
mod blocks;
pub mod eventstream;
mod format;
pub mod json;
pub mod json_array;
pub mod ndjson;
mod paths;
mod records;
pub mod sse;
pub mod transport;

use crate::display::{record_items, records_of, DisplayRecord, MESSAGES};
use crate::error::Result;
use crate::json::partial::Change;
use crate::json::Json;
use crate::message::parse_message;
use crate::providers::{self, LcMessage, Parsed, WireProtocol};

pub(crate) use accumulator::ArgsMode;
pub use accumulator::StreamAccumulator;
pub use json::event_of;
pub(crate) use json::to_parsed;
pub(crate) use paths::{
    get_path, get_path_mut, int_at, keys, message_body, object, set_path, str_at, under,
};
pub use transport::Transport;

/// What changed in the records, in order. Applying every patch of every push, in order, to an
/// empty array gives exactly [`StreamAccumulator::records`].
#[derive(Clone, Debug, PartialEq)]
pub enum Patch {
    /// A record appended at the end.
    Add(Parsed),
    /// `content[field]` of the record at `index` grew by `text`.
    Append {
        index: usize,
        field: &'static str,
        text: String,
    },
    /// The record at `index` is now `record`.
    Replace { index: usize, record: Parsed },
    /// The record at `index` changed only in `content.arguments`, by these changes (JavaScript
    /// receives it as a `replace` whose record shares every unchanged part with the previous one).
    Arguments { index: usize, changes: Vec<Change> },
}

/// One chunk given to [`StreamAccumulator::push`].
pub enum Chunk<'a> {
    /// Stream bytes (in a transport the format names: SSE, AWS frames, NDJSON, a JSON array), cut
    /// anywhere.
    Bytes(&'a [u8]),
    /// One event already parsed (an SSE `data:` value).
    Event(Parsed),
}

/// How the accumulator runs the provider readers on the bodies it builds. The native reader runs
/// them on the [`Parsed`] values themselves; the JavaScript boundary passes its own, which runs the
/// readers the module already holds for JavaScript values, so the module does not carry a second
/// copy of every reader.
pub trait Reader {
    /// `fromProvider(protocol, body)` as JSON and, when `records` is true, the records of its
    /// messages as `toDisplayMessages` makes them, each with the index of its message.
    fn read(
        protocol: WireProtocol,
        body: &Parsed,
        records: bool,
    ) -> Result<(Parsed, Vec<(usize, Parsed)>)>;
}

/// The reader of [`Parsed`] bodies.
pub struct Native;

impl Reader for Native {
    fn read(
        protocol: WireProtocol,
        body: &Parsed,
        records: bool,
    ) -> Result<(Parsed, Vec<(usize, Parsed)>)> {
        let messages: Vec<LcMessage<&Parsed>> = providers::read_payload(protocol, &body)?;
        let messages = to_parsed(&messages)?;
        if !records {
            return Ok((messages, Vec::new()));
        }
        let mut out = Vec::new();
        for (owner, record) in records_with_owners(&&messages)? {
            out.push((owner, to_parsed(&record)?));
        }
        Ok((messages, out))
    }
}

/// `toDisplayMessages` of the messages `fromProvider` gave (as JSON), each record with the index of
/// the message it comes from: what both readers return, in their own value types.
pub fn records_with_owners<J: Json>(messages: &J) -> Result<Vec<(usize, DisplayRecord<J>)>> {
    let mut parsed = Vec::new();
    let mut owners = Vec::new();
    for (i, message) in messages.elements().unwrap_or_default().iter().enumerate() {
        let message = parse_message(message, &MESSAGES.index(i))?;
        owners.extend(core::iter::repeat_n(i, record_items(&message).len()));
        parsed.push(message);
    }
    Ok(owners.into_iter().zip(records_of(&parsed, None)).collect())
}
