//! Provider wire formats: Sycophant's five `wire_protocol` values, read into LangChain messages
//! (`fromProvider`), recognized by shape (`detectProtocol`) and written back as request arrays
//! (`toProvider`).
//!
//! Each format has its own file; the files beside them hold what they share, one concern each:
//!
//! | file | what it holds |
//! |---|---|
//! | `mod.rs` | [`WireProtocol`], the five names, and the dispatch of the three functions |
//! | `out.rs` | [`Out`], the JSON tree the conversions write |
//! | `langchain.rs` | the LangChain messages `fromProvider` makes ([`LcMessage`] ...) |
//! | `pairing.rs` | [`Pairing`], results paired with the calls they answer |
//! | `conversation.rs` | [`Conversation`], which builds a payload's messages |
//! | `fields.rs` | typed readers of provider JSON fields |
//! | `parsed.rs` | [`Parsed`], JSON parsed from text with its keys in order |
//! | `json_text.rs` | [`compact_json`], any value as `JSON.stringify` writes it |
//! | `messages.rs` | [`read_messages`], the LangChain messages `toProvider` reads |
//! | `write.rs` | what the request writers share: [`Turns`], media types |
//! | `detect.rs` | [`detect_protocol`] |
//!
//! The rules of every format are tabled in the README ("Provider wire formats").

use crate::error::text;
use crate::prelude::*;
pub mod anthropic;
pub mod bedrock;
pub mod gemini;
pub mod openai_completions;
pub mod openai_responses;

mod conversation;
mod detect;
mod fields;
mod json_text;
mod langchain;
mod messages;
mod out;
mod pairing;
mod parsed;
mod write;

pub use conversation::Conversation;
pub use detect::detect_protocol;
pub use fields::{
    arguments, block_type, field, object, opt_list, opt_str, parse_object, read_text, req_str,
    str_of,
};
pub use json_text::{compact_json, js_number, too_deep, MAX_DEPTH};
pub use langchain::{LcCall, LcMessage, LcPart, LcResult, PartKind, ResultBody, Status};
pub use messages::{read_messages, InCall, InContent, InMessage, InPart, InResult};
pub use out::{Entries, Out};
pub use pairing::Pairing;
pub use parsed::Parsed;
pub use write::{media, media_text, split_data_url, system_texts, Turn, Turns};

use crate::error::{Error, ErrorCode, Path, Result};
use crate::json::Json;
use serde::ser::Serializer;
use serde::Serialize;

/// The root of the `protocol` argument's path.
pub const PROTOCOL: Path<'static> = Path::Root("$.protocol");
/// The root of `fromProvider`'s payload paths (`$.payload.messages[2].content[0]`).
pub const PAYLOAD: Path<'static> = Path::Root("$.payload");
/// The root of `toProvider`'s message paths (`$.messages[3]`).
pub const MESSAGES: Path<'static> = Path::Root("$.messages");

/// A provider wire format, named as Sycophant names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WireProtocol {
    /// Anthropic Messages (`messages`, top-level `system`, content blocks with `type`).
    AnthropicMessages,
    /// OpenAI Chat Completions (`messages` with `tool_calls` and `tool` messages; `choices`).
    OpenaiCompletions,
    /// OpenAI Responses (`input` / `output` item arrays).
    OpenaiResponses,
    /// AWS Bedrock Converse (`messages` of one-key union blocks; `output.message`).
    BedrockConverse,
    /// Google Gemini generateContent (`contents` of `parts`; `candidates`).
    GoogleGemini,
}

impl WireProtocol {
    pub const ALL: [WireProtocol; 5] = [
        WireProtocol::AnthropicMessages,
        WireProtocol::OpenaiCompletions,
        WireProtocol::OpenaiResponses,
        WireProtocol::BedrockConverse,
        WireProtocol::GoogleGemini,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            WireProtocol::AnthropicMessages => "anthropic_messages",
            WireProtocol::OpenaiCompletions => "openai_completions",
            WireProtocol::OpenaiResponses => "openai_responses",
            WireProtocol::BedrockConverse => "bedrock_converse",
            WireProtocol::GoogleGemini => "google_gemini",
        }
    }

    pub fn parse(s: &str) -> Option<WireProtocol> {
        WireProtocol::ALL.into_iter().find(|p| p.as_str() == s)
    }
}

impl Serialize for WireProtocol {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// Reads the `protocol` argument: one of the five names, else `unsupported_protocol`.
pub fn parse_protocol<J: Json>(protocol: &J) -> Result<WireProtocol> {
    let found = protocol.as_str();
    found.as_deref().and_then(WireProtocol::parse).ok_or_else(|| {
        let shown = match found {
            Some(s) => crate::error::quoted(&s),
            None => protocol.kind().name().to_string(),
        };
        Error::new(
            ErrorCode::UnsupportedProtocol,
            &PROTOCOL,
            text!("Unsupported protocol ", shown, " at ", PROTOCOL, ": expected \"anthropic_messages\", \"openai_completions\", \"openai_responses\", \"bedrock_converse\" or \"google_gemini\"."),
        )
    })
}

/// `fromProvider(protocol, payload)`: a request body, a response body, a bare message (or item)
/// array, or one message, as LangChain messages carrying `metadata.wire_protocol`.
pub fn from_provider<J: Json>(protocol: &J, payload: &J) -> Result<Vec<LcMessage<J>>> {
    match parse_protocol(protocol)? {
        WireProtocol::AnthropicMessages => anthropic::from_provider(payload),
        WireProtocol::OpenaiCompletions => openai_completions::from_provider(payload),
        WireProtocol::OpenaiResponses => openai_responses::from_provider(payload),
        WireProtocol::BedrockConverse => bedrock::from_provider(payload),
        WireProtocol::GoogleGemini => gemini::from_provider(payload),
    }
}

/// `toProvider(protocol, messages)`: LangChain messages as the format's request array. Anthropic,
/// Bedrock and Gemini carry the system prompt outside the array, so for them a conversation with
/// system messages gives the request-body object `{system, messages}` /
/// `{systemInstruction, contents}` instead.
pub fn to_provider<J: Json>(protocol: &J, messages: &J) -> Result<Out<J>> {
    let protocol = parse_protocol(protocol)?;
    let messages = read_messages(messages, protocol)?;
    match protocol {
        WireProtocol::AnthropicMessages => anthropic::to_provider(&messages),
        WireProtocol::OpenaiCompletions => openai_completions::to_provider(&messages),
        WireProtocol::OpenaiResponses => openai_responses::to_provider(&messages),
        WireProtocol::BedrockConverse => bedrock::to_provider(&messages),
        WireProtocol::GoogleGemini => gemini::to_provider(&messages),
    }
}
