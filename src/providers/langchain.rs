//! The LangChain messages `fromProvider` makes: [`LcMessage`], [`LcPart`], [`LcCall`],
//! [`LcResult`], all LangChain JSON (docs/INPUT-FORMATS.md "LangChain messages"), holding the given
//! values as [`Out::Given`] handles and only what the conversion creates (parsed arguments,
//! synthetic ids, joined texts) as owned values.

use crate::message::Role;
use crate::prelude::*;
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

use super::out::{Entries, EntriesRef, Out};

/// A LangChain message status (docs/INPUT-FORMATS.md "Message"), mapped from the provider's stop
/// reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Complete,
    Cancelled,
    Length,
    ContentFiltered,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Complete => "complete",
            Status::Cancelled => "cancelled",
            Status::Length => "length",
            Status::ContentFiltered => "content_filtered",
        }
    }
}

/// How a format's stop reasons map to statuses: the reasons that mean `length`, those that mean
/// `content_filtered`, those that mean `cancelled` (an error cut the answer short); any other is
/// `complete`.
#[derive(Clone, Copy, Debug)]
pub struct Statuses {
    pub length: &'static [&'static str],
    pub filtered: &'static [&'static str],
    pub cancelled: &'static [&'static str],
}

impl Statuses {
    pub fn of(&self, reason: &str) -> Status {
        if self.length.contains(&reason) {
            Status::Length
        } else if self.filtered.contains(&reason) {
            Status::ContentFiltered
        } else if self.cancelled.contains(&reason) {
            Status::Cancelled
        } else {
            Status::Complete
        }
    }
}

/// The `type` of a content part fromProvider makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartKind {
    /// Text: `{"type": "text", "content": s}`.
    Text,
    /// Reasoning: `content` is the reasoning text; `options` may hold a `signature`.
    Thinking,
    /// Image bytes (base64) with `options.media`, or a provider file id with `options.type: "file_id"`.
    Image,
    /// An image by URL.
    ImageUrl,
    /// A document's bytes (base64) with `options.media`, or a file id with `options.type: "file_id"`.
    File,
    /// A document by URL.
    FileUrl,
    /// Anything else, kept but never displayed: redacted thinking (`options.type:
    /// "redacted_thinking"`, the data in `content`), or a block this version does not map, with the
    /// block itself in `options` so toProvider can pass it back unchanged.
    Unsupported,
}

impl PartKind {
    pub fn as_str(self) -> &'static str {
        match self {
            PartKind::Text => "text",
            PartKind::Thinking => "thinking",
            PartKind::Image => "image",
            PartKind::ImageUrl => "image_url",
            PartKind::File => "file",
            PartKind::FileUrl => "file_url",
            PartKind::Unsupported => "unsupported",
        }
    }
}

/// A LangChain ContentPart: `{type, content, options?, citations?}` (`options` only when there is
/// one; `citations`, LangChain's field, only on a text that has some: the [`super::Citation`]
/// objects its record shows as `metadata.citations`).
#[derive(Clone, Debug)]
pub struct LcPart<J> {
    pub kind: PartKind,
    pub content: Option<Out<J>>,
    pub options: Entries<J>,
    /// Citation objects (Sycophant's `Citation` fields, docs/formats/langchain-js.md "v1 standard
    /// blocks"), written as `citations` only when there are some.
    pub citations: Vec<Out<J>>,
}

impl<J> LcPart<J> {
    pub fn new(kind: PartKind, content: Option<Out<J>>, options: Entries<J>) -> LcPart<J> {
        LcPart {
            kind,
            content,
            options,
            citations: Vec::new(),
        }
    }

    /// The part with its citations.
    pub fn cited(mut self, citations: Vec<Out<J>>) -> LcPart<J> {
        self.citations = citations;
        self
    }

    /// A generated image (base64 `data`, its media type): `{type: "image", content, options:
    /// {media, generated: true}}`, which records show as an `image` record.
    pub fn generated_image(data: Out<J>, media: Out<J>) -> LcPart<J> {
        LcPart::new(
            PartKind::Image,
            Some(data),
            vec![("media", media), ("generated", Out::Bool(true))],
        )
    }

    /// `{"type": "text", "content": text}`.
    pub fn text(text: J) -> LcPart<J> {
        LcPart::new(PartKind::Text, Some(Out::Given(text)), Vec::new())
    }

    /// `{"type": "thinking", "content": text}`, with `options.signature` when given.
    pub fn thinking(text: Out<J>, signature: Option<J>) -> LcPart<J> {
        let options = signature
            .map(|s| vec![("signature", Out::Given(s))])
            .unwrap_or_default();
        LcPart::new(PartKind::Thinking, Some(text), options)
    }

    /// Redacted reasoning: `{"type": "unsupported", "content": data, "options": {"type": "redacted_thinking"}}`.
    pub fn redacted(data: Option<J>) -> LcPart<J> {
        LcPart::new(
            PartKind::Unsupported,
            data.map(Out::Given),
            vec![("type", Out::Str("redacted_thinking"))],
        )
    }

    /// A provider block kept as it is that records show as a notification with `text`: as
    /// [`LcPart::raw`], with `options.notification`.
    pub fn notice(provider_type: Out<J>, key: &'static str, block: J, text: String) -> LcPart<J> {
        let mut part = LcPart::raw(provider_type, key, block);
        part.options.push(("notification", Out::Text(text)));
        part
    }

    /// A provider block kept as it is: `{"type": "unsupported", "content": null, "options":
    /// {"type": <its type>, <key>: <the block>}}`.
    pub fn raw(provider_type: Out<J>, key: &'static str, block: J) -> LcPart<J> {
        LcPart::new(
            PartKind::Unsupported,
            None,
            vec![("type", provider_type), (key, Out::Given(block))],
        )
    }
}

impl<J: crate::json::Json> LcPart<J> {
    /// A text as parts: one text part, none when the text is empty.
    pub fn texts(text: J) -> Vec<LcPart<J>> {
        if text.is_empty_str() {
            Vec::new()
        } else {
            vec![LcPart::text(text)]
        }
    }
}

impl<J: Serialize> Serialize for LcPart<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("type", self.kind.as_str())?;
        map.serialize_entry("content", &self.content)?;
        if !self.options.is_empty() {
            map.serialize_entry("options", &EntriesRef(&self.options))?;
        }
        if !self.citations.is_empty() {
            map.serialize_entry("citations", &self.citations)?;
        }
        map.end()
    }
}

/// A LangChain ToolCall: `{status: "complete", type: "function", call_id, name, arguments, metadata?}`.
#[derive(Clone, Debug)]
pub struct LcCall<J> {
    pub call_id: Out<J>,
    /// The given name, or one the conversion made (a Responses server tool's type).
    pub name: Option<Out<J>>,
    /// An object, a value parsed from a JSON string, or the raw string when it did not parse to one.
    pub arguments: Out<J>,
    /// `synthetic_id: true` when the provider gave no id; `provider_type` for server tools and other
    /// non-function calls; `thought_signature` for Gemini; `item_id` for Responses.
    pub metadata: Entries<J>,
}

impl<J: Serialize + Clone> Serialize for LcCall<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("status", "complete")?;
        map.serialize_entry("type", "function")?;
        map.serialize_entry("call_id", &self.call_id)?;
        map.serialize_entry("name", &self.name)?;
        map.serialize_entry("arguments", &self.arguments)?;
        if !self.metadata.is_empty() {
            map.serialize_entry("metadata", &EntriesRef(&self.metadata))?;
        }
        map.end()
    }
}

/// A tool result's `content`: a string, or parts.
#[derive(Clone, Debug)]
pub enum ResultBody<J> {
    Text(Out<J>),
    Parts(Vec<LcPart<J>>),
}

impl<J: Serialize> Serialize for ResultBody<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        match self {
            ResultBody::Text(text) => text.serialize(s),
            ResultBody::Parts(parts) => parts.serialize(s),
        }
    }
}

/// A LangChain ToolResult: `{type: "function", tool_call_id, name, content, is_error,
/// is_interrupt: false, options?}`.
#[derive(Clone, Debug)]
pub struct LcResult<J> {
    pub tool_call_id: Option<Out<J>>,
    pub name: Option<Out<J>>,
    pub content: ResultBody<J>,
    pub is_error: bool,
    /// `provider_type` (and the provider's block or item) for server-tool results.
    pub options: Entries<J>,
}

impl<J: Serialize + Clone> Serialize for LcResult<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("type", "function")?;
        map.serialize_entry("tool_call_id", &self.tool_call_id)?;
        map.serialize_entry("name", &self.name)?;
        map.serialize_entry("content", &self.content)?;
        map.serialize_entry("is_error", &self.is_error)?;
        map.serialize_entry("is_interrupt", &false)?;
        if !self.options.is_empty() {
            map.serialize_entry("options", &EntriesRef(&self.options))?;
        }
        map.end()
    }
}

/// A LangChain Message: `{role, content, status, tool_calls, tool_results, metadata}`.
/// `content` is `null` when there are no parts; `tool_results` is `null` except on `tool` messages;
/// `metadata` starts with `wire_protocol`, then `stop_reason` (and the provider's details) when the
/// payload was a response.
#[derive(Clone, Debug)]
pub struct LcMessage<J> {
    pub role: Role,
    pub content: Vec<LcPart<J>>,
    pub status: Status,
    pub tool_calls: Vec<LcCall<J>>,
    pub tool_results: Vec<LcResult<J>>,
    pub metadata: Entries<J>,
}

impl<J: Serialize + Clone> Serialize for LcMessage<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(6))?;
        map.serialize_entry("role", &self.role)?;
        if self.content.is_empty() {
            map.serialize_entry("content", &())?;
        } else {
            map.serialize_entry("content", &self.content)?;
        }
        map.serialize_entry("status", self.status.as_str())?;
        map.serialize_entry("tool_calls", &self.tool_calls)?;
        if self.role == Role::Tool {
            map.serialize_entry("tool_results", &self.tool_results)?;
        } else {
            map.serialize_entry("tool_results", &())?;
        }
        map.serialize_entry("metadata", &EntriesRef(&self.metadata))?;
        map.end()
    }
}
