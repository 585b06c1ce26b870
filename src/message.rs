//! The LangChain message model (langchain v0.9.7 structs, with v0.14.1's `message_expansion`), read
//! from JSON-like input: a LangChain message, or a Sycophant one ([`from_sycophant`]), which the
//! display functions show as this model too. The model depends on [`crate::sycophant`], never the
//! other way round: Sycophant, as upstream, knows nothing of LangChain.
//!
//! Only the fields some feature reads are parsed; everything else in a message is left where it is.
//! Values the features only move (texts, ids, arguments) stay as [`Json`] handles. Upstream, an
//! absent key means the struct default and an explicit `null` means nil; where the two differ
//! (`is_error`, `is_interrupt`) the model keeps them apart: absent gives `Some(false)`, `null`
//! gives `None`.

use crate::error::{Error, ErrorCode, Path, Result};
use crate::json::fields::{flag, non_null, object, opt_string, parse_each, parse_list};
use crate::json::{Json, Kind};
use crate::prelude::*;
use crate::sycophant::{self, Slot, Struct, TypeName};
use serde::{Serialize, Serializer};

/// A message role. `message_type` in display items and records is the same word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    System,
    User,
    Assistant,
    Tool,
}

impl Role {
    pub const fn as_str(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        match s {
            "system" => Some(Role::System),
            "user" => Some(Role::User),
            "assistant" => Some(Role::Assistant),
            "tool" => Some(Role::Tool),
            _ => None,
        }
    }

    /// The role a JSON string names, compared in place (most frequent first).
    pub fn read<J: Json>(value: &J) -> Option<Role> {
        const ROLES: [Role; 4] = [Role::Assistant, Role::User, Role::Tool, Role::System];
        let at = value.match_str(&["assistant", "user", "tool", "system"])?;
        ROLES.get(at).copied()
    }
}

impl Serialize for Role {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// `LangChain.Message`, as far as the features read it.
#[derive(Clone, Debug)]
pub struct Message<J> {
    pub role: Role,
    pub content: Content<J>,
    /// `tool_calls`; `null` or absent is empty.
    pub tool_calls: Vec<ToolCall<J>>,
    /// `tool_results`; `null` or absent is empty.
    pub tool_results: Vec<ToolResult<J>>,
}

/// A message's `content`.
#[derive(Clone, Debug)]
pub enum Content<J> {
    /// `null` or absent.
    None,
    /// A string, kept as the given handle (may be `""`).
    Text(J),
    /// An array of content parts.
    Parts(Vec<ContentPart<J>>),
}

/// The `type` of a content part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartType {
    Text,
    ImageUrl,
    Image,
    File,
    FileUrl,
    Thinking,
    /// Includes Anthropic's `redacted_thinking` (`options.type: "redacted_thinking"`).
    Unsupported,
    /// A type string this version does not know; kept out of every display, like images.
    Other,
}

impl PartType {
    /// The part type a JSON string names, compared in place; `None` when it is not a string.
    pub fn read<J: Json>(value: &J) -> Option<PartType> {
        const TYPES: [PartType; 7] = [
            PartType::Text,
            PartType::Thinking,
            PartType::Image,
            PartType::ImageUrl,
            PartType::File,
            PartType::FileUrl,
            PartType::Unsupported,
        ];
        if value.kind() != Kind::String {
            return None;
        }
        let at = value.match_str(&[
            "text",
            "thinking",
            "image",
            "image_url",
            "file",
            "file_url",
            "unsupported",
        ]);
        Some(
            at.and_then(|i| TYPES.get(i).copied())
                .unwrap_or(PartType::Other),
        )
    }

    pub fn parse(s: &str) -> PartType {
        match s {
            "text" => PartType::Text,
            "image_url" => PartType::ImageUrl,
            "image" => PartType::Image,
            "file" => PartType::File,
            "file_url" => PartType::FileUrl,
            "thinking" => PartType::Thinking,
            "unsupported" => PartType::Unsupported,
            _ => PartType::Other,
        }
    }
}

/// `LangChain.Message.ContentPart`: its type and its `content` string (`None` for null or absent),
/// and what only display-message records show of it (docs/API.md "Rich provider content").
#[derive(Clone, Debug)]
pub struct ContentPart<J> {
    pub part_type: PartType,
    pub content: Option<J>,
    /// A text part's non-empty citations: its record's `metadata.citations`.
    pub citations: Option<Citations<J>>,
    /// A record the part gives beyond Sagents' mapping.
    pub shown: Shown<J>,
    /// What an image or file part's `options` say of it, for its record with `media: true`.
    pub attachment: Option<Attachment<J>>,
}

/// An `image`, `image_url`, `file` or `file_url` part's `options` (an object, else `None`), which
/// say what its attachment record holds (docs/API.md "Attachments"); read only for that record,
/// so that the records without attachments read nothing more.
#[derive(Clone, Debug)]
pub struct Attachment<J> {
    pub options: Option<J>,
}

impl<J: Json> Attachment<J> {
    fn string(&self, key: &str) -> Option<J> {
        let options = self.options.as_ref()?;
        options
            .get_non_null(key)
            .filter(|v| v.kind() == Kind::String)
    }

    /// `options.media`, a string.
    pub fn media(&self) -> Option<J> {
        self.string("media")
    }

    /// `options.filename`, a string.
    pub fn filename(&self) -> Option<J> {
        self.string("filename")
    }

    /// Whether `options.type` is `"file_id"`: the part's `content` is a provider's file id, not
    /// data or a URL.
    pub fn file_id(&self) -> bool {
        self.options
            .as_ref()
            .and_then(|o| o.get("type"))
            .and_then(|t| t.match_str(&["file_id"]))
            == Some(0)
    }
}

impl<J> ContentPart<J> {
    /// A part with only its type and content.
    pub fn plain(part_type: PartType, content: Option<J>) -> ContentPart<J> {
        ContentPart {
            part_type,
            content,
            citations: None,
            shown: Shown::Nothing,
            attachment: None,
        }
    }
}

/// A text part's citations, as its record's `metadata.citations` shows them (docs/API.md "Rich
/// provider content").
#[derive(Clone, Debug)]
pub enum Citations<J> {
    /// A LangChain part's `citations` array (`fromProvider` writes the record's objects), as it is.
    Given(J),
    /// A Sycophant Text part's `Citation` structs, each as the record's citation object.
    Sycophant(Vec<Struct<J>>),
}

/// The fields of a record's citation object, in order, each `null` where not given (the fields of
/// Sycophant's `Citation`, seed 003).
pub const CITATION_FIELDS: [&str; 11] = [
    "type",
    "cited_text",
    "url",
    "title",
    "source",
    "file_id",
    "document_index",
    "document_title",
    "start_index",
    "end_index",
    "unit",
];

impl<J: Json + Serialize> Serialize for Citations<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        match self {
            Citations::Given(list) => list.serialize(s),
            Citations::Sycophant(list) => {
                let mut seq = s.serialize_seq(Some(list.len()))?;
                for citation in list {
                    seq.serialize_element(&CitationObject(citation))?;
                }
                seq.end()
            }
        }
    }
}

/// A Sycophant `Citation` as a record's citation object.
struct CitationObject<'a, J>(&'a Struct<J>);

impl<J: Json + Serialize> Serialize for CitationObject<'_, J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(CITATION_FIELDS.len()))?;
        for key in CITATION_FIELDS {
            match self.0.get(key) {
                Some(Slot::Value(value)) => map.serialize_entry(key, value)?,
                Some(Slot::Name(name)) => map.serialize_entry(key, name)?,
                _ => map.serialize_entry(key, &())?,
            }
        }
        map.end()
    }
}

/// What a content part shows in records beyond Sagents' mapping, marked in its `options` by
/// `fromProvider` (docs/INPUT-FORMATS.md "LangChain messages"): an `image` part with
/// `options.generated: true` (an image the model made) is an `image` record, its `options.media`
/// the `mime_type`; an `unsupported` part with a string `options.notification` (a compaction's
/// summary, a model fallback) is a `notification` record.
#[derive(Clone, Debug)]
pub enum Shown<J> {
    Nothing,
    Image { media: Option<J> },
    Notification(J),
}

/// `LangChain.Message.ToolCall`. `None` is null (the default of every field read here).
#[derive(Clone, Debug)]
pub struct ToolCall<J> {
    pub call_id: Option<J>,
    pub name: Option<J>,
    /// Any JSON: a map, a raw JSON string, or null. Passed through verbatim.
    pub arguments: Option<J>,
    pub display_text: Option<J>,
    /// `metadata.approval_request: true`: the call waits for the user's approval (its record's
    /// `metadata.approval_request`).
    pub approval_request: bool,
    /// `metadata.status`: the status a reader of another format gives the call (an AI SDK tool
    /// part's state: `executing`, `cancelled`...), which its record shows whatever results say.
    /// A status name as a string, else `None`.
    pub status: Option<J>,
}

/// `LangChain.Message.ToolResult`.
#[derive(Clone, Debug)]
pub struct ToolResult<J> {
    pub tool_call_id: Option<J>,
    pub name: Option<J>,
    pub content: ResultContent<J>,
    /// Absent is the default `Some(false)`; an explicit `null` is `None`.
    pub is_error: Option<bool>,
    /// Absent is the default `Some(false)`; an explicit `null` is `None`.
    pub is_interrupt: Option<bool>,
    pub message_expansion: Option<MessageExpansion<J>>,
    /// `options.result`: a server tool's structured result, its record's `metadata.result`.
    pub result: Option<J>,
}

/// A tool result's `content`.
#[derive(Clone, Debug)]
pub enum ResultContent<J> {
    Text(J),
    Parts(Vec<ContentPart<J>>),
    /// `null`, absent, or any other value (upstream displays it as `""`).
    Other,
}

/// `LangChain.MessageExpansion` (v0.14.1): messages to insert after the tool message, and what the
/// result's content becomes once they are inserted (`None`: keep the result's own content).
#[derive(Clone, Debug)]
pub struct MessageExpansion<J> {
    /// The `messages` value as given; the expansion feature checks it.
    pub messages: Option<J>,
    pub result_content: Option<J>,
}

/// A message of another format where a LangChain message is expected (docs/INPUT-FORMATS.md
/// "Messages of another format"): the error naming the format and the call that reads it. Looked
/// for only where the message lacks what a LangChain message has (a role; content, or a tool
/// message's results: `with_role`), so a valid message is read as before at no cost.
fn other_format<J: Json>(message: &J, path: &Path<'_>, with_role: bool) -> Option<Error> {
    let has = |key: &str| message.get_non_null(key).is_some();
    let format = if let Some(parts) = message.get_non_null("parts").and_then(|p| p.elements()) {
        match parts.first() {
            Some(first) if first.get("type").is_none() => GEMINI,
            _ => AI_SDK,
        }
    } else if with_role {
        if !has("tool_call_id") {
            return None;
        }
        OPENAI
    } else if has("lc") || has("kwargs") || has("data") || has("type") {
        LANGCHAIN_JS
    } else {
        return None;
    };
    Some(wrong_shape(path, format))
}

/// The formats a message of another format is recognized as: what the error calls it, and its
/// protocol.
const OTHER_FORMATS: [(&str, &str); 4] = [
    ("OpenAI Chat Completions", "openai_completions"),
    ("an AI SDK UIMessage", "ai_sdk_ui"),
    ("Gemini", "google_gemini"),
    ("LangChain.js", "langchain_js"),
];
const OPENAI: usize = 0;
const AI_SDK: usize = 1;
const GEMINI: usize = 2;
const LANGCHAIN_JS: usize = 3;

/// `invalid_input` at `path`: the message (or tool call) there looks like one of another format.
fn wrong_shape(path: &Path<'_>, format: usize) -> Error {
    let (what, protocol) = OTHER_FORMATS[format % OTHER_FORMATS.len()];
    Error::new(
        ErrorCode::InvalidInput,
        path,
        crate::error::text!(
            "The value at ",
            path,
            " looks like ",
            what,
            ", not Elixir LangChain: convert the messages with fromProvider(\"",
            protocol,
            "\", messages) from \"chat-display\" first."
        ),
    )
}

/// Reads a message's `role`. A missing role is `invalid_input` (the struct default `user` is not
/// assumed, so nothing is shown as said by the wrong party); `null` or any other value is
/// `unsupported_role`.
pub fn parse_role<J: Json>(message: &J, path: &Path<'_>) -> Result<Role> {
    read_role(message.get("role"), path)
}

/// [`parse_role`] of the value under `role`.
fn read_role<J: Json>(role: Option<J>, path: &Path<'_>) -> Result<Role> {
    let role = role.ok_or_else(|| Error::missing(&path.key("role"), "the message role"))?;
    Role::read(&role).ok_or_else(|| {
        let shown = match role.as_str() {
            Some(s) => crate::error::quoted(&s),
            None => role.kind().name().to_string(),
        };
        Error::new(
            ErrorCode::UnsupportedRole,
            &path.key("role"),
            crate::error::text!(
                "Unsupported role ",
                shown,
                " at ",
                path.key("role"),
                ": expected \"system\", \"user\", \"assistant\" or \"tool\"."
            ),
        )
    })
}

/// Reads a content part: an object with a `type`, and a `content` that is a string or null.
pub fn parse_part<J: Json>(part: &J, path: &Path<'_>) -> Result<ContentPart<J>> {
    object(part, path, "a content part object")?;
    let [part_type, content, citations, options] =
        part.fields(&["type", "content", "citations", "options"]);
    let part_type = match non_null(part_type) {
        None => return Err(Error::missing(&path.key("type"), "the content part type")),
        Some(t) => match PartType::read(&t) {
            Some(part_type) => part_type,
            None => return Err(Error::expected(&path.key("type"), "a string", t.kind())),
        },
    };
    let content = opt_string(content, "content", path)?;
    let citations = match part_type {
        PartType::Text => non_null(citations)
            .filter(non_empty_array)
            .map(Citations::Given),
        _ => None,
    };
    // `options` is read only for the part types that may mark a record or hold an attachment.
    let options = match part_type {
        PartType::Image
        | PartType::ImageUrl
        | PartType::File
        | PartType::FileUrl
        | PartType::Unsupported => non_null(options).filter(|o| o.is_object()),
        _ => None,
    };
    let string = |o: &J, key| o.get_non_null(key).filter(|v| v.kind() == Kind::String);
    // Only kept here: read when `toDisplayMessages` is asked for attachments.
    let attachment = match part_type {
        PartType::Image | PartType::ImageUrl | PartType::File | PartType::FileUrl => {
            Some(Attachment {
                options: options.clone(),
            })
        }
        _ => None,
    };
    let shown = match (part_type, options) {
        (PartType::Image, Some(o))
            if o.get("generated").and_then(|g| g.as_bool()) == Some(true) =>
        {
            Shown::Image {
                media: string(&o, "media"),
            }
        }
        (PartType::Unsupported, Some(o)) => match o.get_non_null("notification") {
            Some(text) if text.kind() == Kind::String => Shown::Notification(text),
            _ => Shown::Nothing,
        },
        _ => Shown::Nothing,
    };
    Ok(ContentPart {
        part_type,
        content,
        citations,
        shown,
        attachment,
    })
}

/// Whether a value is an array with at least one element.
fn non_empty_array<J: Json>(value: &J) -> bool {
    let mut any = false;
    value.each_element(|_, _| {
        any = true;
        false
    });
    any
}

/// Reads a tool call object.
pub fn parse_tool_call<J: Json>(call: &J, path: &Path<'_>) -> Result<ToolCall<J>> {
    object(call, path, "a tool call object")?;
    let [call_id, name, arguments, display_text, metadata] =
        call.fields(&["call_id", "name", "arguments", "display_text", "metadata"]);
    if non_null(call_id.clone()).is_none() {
        let sign = if call.get("function").is_some() {
            Some(OPENAI)
        } else if call.get("args").is_some() {
            Some(LANGCHAIN_JS)
        } else {
            None
        };
        if let Some(format) = sign {
            return Err(wrong_shape(path, format));
        }
    }
    let metadata = non_null(metadata).filter(|m| m.is_object());
    let approval_request = metadata
        .as_ref()
        .and_then(|m| m.get("approval_request"))
        .and_then(|a| a.as_bool())
        == Some(true);
    let status = metadata
        .as_ref()
        .and_then(|m| m.get_non_null("status"))
        .filter(|s| s.kind() == Kind::String);
    Ok(ToolCall {
        call_id: opt_string(call_id, "call_id", path)?,
        name: opt_string(name, "name", path)?,
        arguments: non_null(arguments),
        display_text: opt_string(display_text, "display_text", path)?,
        approval_request,
        status,
    })
}

/// Reads a tool result object.
pub fn parse_tool_result<J: Json>(result: &J, path: &Path<'_>) -> Result<ToolResult<J>> {
    object(result, path, "a tool result object")?;
    let [content, expansion, tool_call_id, name, is_error, is_interrupt, options] =
        result.fields(&[
            "content",
            "message_expansion",
            "tool_call_id",
            "name",
            "is_error",
            "is_interrupt",
            "options",
        ]);
    let structured = non_null(options)
        .filter(|o| o.is_object())
        .and_then(|o| o.get_non_null("result"));
    let content_path = path.key("content");
    let content = match non_null(content) {
        Some(c) if c.kind() == Kind::String => ResultContent::Text(c),
        Some(c) => match parse_each(&c, &content_path, parse_part) {
            Some(parts) => ResultContent::Parts(parts?),
            None => ResultContent::Other,
        },
        None => ResultContent::Other,
    };
    let message_expansion = non_null(expansion)
        .filter(|e| e.kind() == Kind::Object)
        .map(|e| MessageExpansion {
            messages: e.get_non_null("messages"),
            result_content: e.get_non_null("result_content"),
        });
    Ok(ToolResult {
        tool_call_id: opt_string(tool_call_id, "tool_call_id", path)?,
        name: opt_string(name, "name", path)?,
        content,
        is_error: flag(is_error, "is_error", path)?,
        is_interrupt: flag(is_interrupt, "is_interrupt", path)?,
        message_expansion,
        result: structured,
    })
}

/// Reads a LangChain message, or a Sycophant one (an object with a `__type__`), into this model.
/// `path` names the message itself (`$`, `$[3]`).
pub fn parse_message<J: Json>(message: &J, path: &Path<'_>) -> Result<Message<J>> {
    if let Some(message) = message.fixed_message() {
        return Ok(message);
    }
    object(message, path, "a message object")?;
    let [sycophant, role, content, tool_calls, tool_results] =
        message.fields(&["__type__", "role", "content", "tool_calls", "tool_results"]);
    if non_null(sycophant).is_some() {
        return from_sycophant(message, path);
    }
    if role.is_none() {
        if let Some(e) = other_format(message, path, false) {
            return Err(e);
        }
    }
    let role = read_role(role, path)?;
    // A message with a role but no content or no results: maybe an AI SDK UIMessage (`parts`)
    // or an OpenAI tool message (`tool_call_id`).
    if non_null(content.clone()).is_none()
        || (role == Role::Tool && non_null(tool_results.clone()).is_none())
    {
        if let Some(e) = other_format(message, path, true) {
            return Err(e);
        }
    }
    let content_path = path.key("content");
    let content = match non_null(content) {
        None => Content::None,
        Some(c) => match c.kind() {
            Kind::String => Content::Text(c),
            Kind::Array => {
                Content::Parts(parse_each(&c, &content_path, parse_part).unwrap_or(Ok(Vec::new()))?)
            }
            other => {
                return Err(Error::expected(
                    &content_path,
                    "a string, an array of content parts, or null",
                    other,
                ))
            }
        },
    };
    let tool_calls = parse_list(
        tool_calls,
        "tool_calls",
        path,
        "an array of tool calls or null",
        parse_tool_call,
    )?;
    let tool_results = parse_list(
        tool_results,
        "tool_results",
        path,
        "an array of tool results or null",
        parse_tool_result,
    )?;
    Ok(Message {
        role,
        content,
        tool_calls,
        tool_results,
    })
}

// ---------------------------------------------------------------------------------------------
// Sycophant: a Sycophant message as this model, which the display items are extracted from.

/// The LangChain roles of [`sycophant::ROLES`].
const SYCOPHANT_ROLES: [Role; 4] = [Role::User, Role::Assistant, Role::System, Role::Tool];

/// Reads a Sycophant message at `path` and maps it to the LangChain model (docs/INPUT-FORMATS.md
/// "How a Sycophant message is displayed"): role `tool_result` becomes a `tool` message holding one
/// result `{tool_call_id, name: metadata.tool_name, content, is_error: false, is_interrupt: false}`
/// whose content is the string content or the Text parts (joined with `"\n"` when displayed); for
/// the other roles, Text parts become text parts (with their non-empty `citations`) and Thinking
/// parts thinking parts (their `text`, else their `summary`), while RedactedThinking, Image and
/// Document parts give nothing. Tool calls become calls `{call_id: id, name, arguments (default
/// {}), display_text: null}`.
pub fn from_sycophant<J: Json>(json: &J, path: &Path<'_>) -> Result<Message<J>> {
    let message = sycophant::parse_message(json, path)?;
    let slot = |i: usize| message.slots.get(i).unwrap_or(&Slot::Absent);
    let (content, tool_call_id, metadata) = (slot(1), slot(2), slot(4));
    let role = match slot(0) {
        Slot::Name(name) => sycophant::ROLES.iter().position(|r| r == name).unwrap_or(0),
        _ => 0,
    };
    let calls: &[Struct<J>] = match slot(3) {
        Slot::List(calls) => calls,
        _ => &[],
    };
    let tool_calls = calls
        .iter()
        .map(|call| ToolCall {
            call_id: call.value(0).cloned(),
            name: call.value(1).cloned(),
            arguments: Some(call.value(2).cloned().unwrap_or_else(J::empty_object)),
            display_text: None,
            approval_request: false,
            status: None,
        })
        .collect();
    let parts: &[Struct<J>] = match content {
        Slot::List(parts) => parts,
        _ => &[],
    };
    // Text parts, and for a message that is not a tool result, Thinking parts.
    let shown_parts = |thinking: bool| {
        parts
            .iter()
            .filter_map(|part| match part.type_name {
                TypeName::Text => {
                    let mut text = ContentPart::plain(PartType::Text, part.value(0).cloned());
                    if let Some(Slot::List(citations)) = part.get("citations") {
                        if !citations.is_empty() {
                            text.citations = Some(Citations::Sycophant(citations.clone()));
                        }
                    }
                    Some(text)
                }
                TypeName::Thinking if thinking => Some(ContentPart::plain(
                    PartType::Thinking,
                    part.value(1)
                        .filter(|text| !text.is_empty_str())
                        .or_else(|| part.value(2))
                        .cloned(),
                )),
                _ => None,
            })
            .collect()
    };
    if role == 3 {
        let content = match content {
            Slot::Value(text) => ResultContent::Text(text.clone()),
            Slot::List(_) => ResultContent::Parts(shown_parts(false)),
            _ => ResultContent::Other,
        };
        let name = match metadata {
            Slot::Value(metadata) => metadata
                .get("tool_name")
                .filter(|name| name.kind() == Kind::String),
            Slot::ToolName(name) => Some(name.clone()),
            _ => None,
        };
        let result = ToolResult {
            tool_call_id: tool_call_id.value().cloned(),
            name,
            content,
            is_error: Some(false),
            is_interrupt: Some(false),
            message_expansion: None,
            result: None,
        };
        return Ok(Message {
            role: SYCOPHANT_ROLES[role],
            content: Content::None,
            tool_calls,
            tool_results: vec![result],
        });
    }
    let content = match content {
        Slot::Value(text) => Content::Text(text.clone()),
        Slot::List(_) => Content::Parts(shown_parts(true)),
        _ => Content::None,
    };
    Ok(Message {
        role: SYCOPHANT_ROLES[role],
        content,
        tool_calls,
        tool_results: Vec::new(),
    })
}
