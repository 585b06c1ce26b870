//! Provider wire formats: read into LangChain messages (`fromProvider`), recognized by shape
//! (`detectProtocol`), written back as request arrays (`toProvider`) and read live
//! (`StreamAccumulator`, in [`crate::stream`]).
//!
//! Each format has its folder (one per row of the registry, `src/registry.rs`), whose type
//! implements [`Format`] in its files: `read.rs` ([`ReadPayload`], and the format's signs for
//! `detectProtocol` in [`ReadPayload::claims`]), `write.rs` ([`WriteRequest`]) and, for a format
//! with a stream, `stream.rs` ([`ReadStream`], naming the framings it comes in). Adding a format
//! is its folder and its row in the registry, which declares the folder's module here
//! (DEVELOPING.md "Adding a format"). The files here hold what the formats share, one concern each:
//!
//! | file | what it holds |
//! |---|---|
//! | `mod.rs` | the entry points: `fromProvider`, `toProvider`, the `protocol` argument |
//! | `format.rs` | [`Format`], what a format implements, and [`Visit`], work done with one |
//! | `payload.rs` | the one payload reader, which tells a payload's shapes apart |
//! | `conversation.rs` | [`Conversation`], which builds a payload's messages |
//! | `pairing.rs` | [`Pairing`], results paired with the calls they answer |
//! | `langchain.rs` | the LangChain messages `fromProvider` makes ([`LcMessage`] ...) |
//! | `fields.rs` | provider JSON beyond typed fields: block types, texts, tool arguments, roles |
//! | `out.rs` | [`Out`], the JSON tree the conversions write |
//! | `messages.rs` | [`read_messages`], the LangChain messages `toProvider` reads |
//! | `turns.rs` | block-based requests: [`TurnWriter`], [`Turns`] |
//! | `write.rs` | the pieces of requests the writers share: contents, system prompts, media |
//! | `detect.rs` | [`detect_protocol`] |
//! | `failure.rs` | [`failure`]: a provider's error body, which `fromProvider` throws as `provider_error` |
//! | `citation.rs` | the citation object of `metadata.citations` |
//!
//! The rules of every format are tabled in docs/INPUT-FORMATS.md ("Provider formats").

use crate::error::text;
use crate::prelude::*;

// One module per row of the registry: `pub mod <module>;` for each, from the rows themselves.
crate::registry::format_modules!();

pub mod citation;
mod conversation;
mod detect;
mod failure;
mod fields;
mod format;
mod langchain;
mod messages;
mod out;
mod pairing;
mod payload;
mod turns;
mod write;

pub use crate::registry::WireProtocol;
pub use citation::Citation;
pub use conversation::{Conversation, Run, Split};
pub use detect::detect_protocol;
pub use failure::{failure, Failure};
// The typed field readers are the core's one (`crate::json::fields`); the formats take them from
// here with the rest of what they share, as JSON's `Parsed` and `compact_json`.
pub use crate::json::fields::{
    each_object, field, kind_of, object, opt_list, opt_str, req_str, str_of,
};
pub use crate::json::{compact_json, js_number, too_deep, Parsed, MAX_DEPTH};
pub use fields::{
    arguments, block_type, blocks_of, content_parts, link_line, message_role, parse_object,
    parts_of, read_text, readable, role_in, run_text, server_result_body, unsupported_role,
};
pub use format::{Format, ReadPayload, ReadStream, Shape, Visit, VisitStream, WriteRequest};
pub use langchain::{LcCall, LcMessage, LcPart, LcResult, PartKind, ResultBody, Status, Statuses};
pub use messages::{read_messages, InCall, InContent, InMessage, InPart, InResult};
pub use out::{Entries, Out};
pub use pairing::Pairing;
pub use payload::list as read_list;
pub use turns::{blocks, turn_list, turns, Turn, TurnWriter, Turns};
pub use write::{
    content_value, media, media_text, role_message, split_data_url, system_texts, text_blocks,
    typed_text, with_system,
};

use crate::error::{Error, ErrorCode, Path, Result};
use crate::json::Json;

/// The root of the `protocol` argument's path.
pub const PROTOCOL: Path<'static> = Path::Root("$.protocol");
/// The root of `fromProvider`'s payload paths (`$.payload.messages[2].content[0]`).
pub const PAYLOAD: Path<'static> = Path::Root("$.payload");
/// The root of `toProvider`'s message paths (`$.messages[3]`).
pub const MESSAGES: Path<'static> = Path::Root("$.messages");

/// Reads the `protocol` argument: one of the registry's names, else `unsupported_protocol`.
pub fn parse_protocol<J: Json>(protocol: &J) -> Result<WireProtocol> {
    let found = protocol.as_str();
    found
        .as_deref()
        .and_then(WireProtocol::parse)
        .ok_or_else(|| {
            let shown = match found {
                Some(s) => crate::error::quoted(&s),
                None => protocol.kind().name().to_string(),
            };
            Error::new(
                ErrorCode::UnsupportedProtocol,
                &PROTOCOL,
                text!(
                    "Unsupported protocol ",
                    shown,
                    " at ",
                    PROTOCOL,
                    ": expected ",
                    names(),
                    "."
                ),
            )
        })
}

/// Reads the `protocol` argument of `StreamAccumulator`: a format that has a stream, else
/// `unsupported_protocol` (a read-only format, as LangChain.js messages are: docs/INPUT-FORMATS.md
/// "LangChain.js messages").
pub fn stream_protocol<J: Json>(protocol: &J) -> Result<WireProtocol> {
    let parsed = parse_protocol(protocol)?;
    if has_stream(parsed) {
        return Ok(parsed);
    }
    Err(Error::new(
        ErrorCode::UnsupportedProtocol,
        &PROTOCOL,
        text!(
            "The protocol \"",
            parsed.as_str(),
            "\" at ",
            PROTOCOL,
            " has no stream: read its messages with fromProvider(\"",
            parsed.as_str(),
            "\", messages)."
        ),
    ))
}

/// Whether the format has a stream that `StreamAccumulator` reads (its registry row says
/// `(streams)`).
pub fn has_stream(protocol: WireProtocol) -> bool {
    protocol.streams()
}

/// The registry's names, quoted: `"a", "b" or "c"`.
fn names() -> String {
    let mut out = String::new();
    for (i, name) in WireProtocol::NAMES.iter().enumerate() {
        if i > 0 {
            out.push_str(if i + 1 == WireProtocol::NAMES.len() {
                " or "
            } else {
                ", "
            });
        }
        out.push('"');
        out.push_str(name);
        out.push('"');
    }
    out
}

/// `fromProvider(protocol, payload)`: a request body, a response body, a bare message (or item)
/// array, or one message, as LangChain messages carrying `metadata.wire_protocol`.
pub fn from_provider<J: Json>(protocol: &J, payload: &J) -> Result<Vec<LcMessage<J>>> {
    read_payload(parse_protocol(protocol)?, payload)
}

/// `fromProvider` for a protocol already read.
pub fn read_payload<J: Json>(protocol: WireProtocol, payload: &J) -> Result<Vec<LcMessage<J>>> {
    payload::read(protocol, payload)
}

/// `toProvider(protocol, messages)`: LangChain messages as the format's request array. Anthropic,
/// Bedrock and Gemini carry the system prompt outside the array, so for them a conversation with
/// system messages gives the request-body object `{system, messages}` /
/// `{systemInstruction, contents}` instead.
pub fn to_provider<J: Json>(protocol: &J, messages: &J) -> Result<Out<J>> {
    struct Write<'a, J>(&'a [InMessage<J>]);
    impl<J: Json> Visit for Write<'_, J> {
        type Output = Result<Out<J>>;
        fn visit<F: Format>(self, _: WireProtocol) -> Self::Output {
            F::write(self.0)
        }
    }
    let protocol = parse_protocol(protocol)?;
    let messages = read_messages(messages, protocol)?;
    protocol.visit(Write(&messages))
}
