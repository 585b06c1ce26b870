//! Provider wire formats: Sycophant's five `wire_protocol` values, read into LangChain messages
//! (`fromProvider`), recognized by shape (`detectProtocol`) and written back as request arrays
//! (`toProvider`).
//!
//! Each format has its own file; this one holds what they share:
//!
//! * [`WireProtocol`], the five names, and the dispatch of the three functions;
//! * the output model of `fromProvider`: [`LcMessage`], [`LcPart`], [`LcCall`], [`LcResult`], all
//!   LangChain JSON (behavior.md §1), holding the given values as [`Out::Given`] handles and only
//!   what the conversion creates (parsed arguments, synthetic ids, joined texts) as owned values;
//! * [`Conversation`], which builds those messages: it gathers consecutive tool results into one
//!   `tool` message, pairs results with calls (by id, or by order and name when ids are missing),
//!   and gives results the name of the call they answer;
//! * the reader of LangChain messages for `toProvider` ([`read_messages`]) and [`Out`], the JSON
//!   tree it writes.
//!
//! The rules of every format are tabled in the README ("Provider wire formats").

use crate::error::text;
use crate::prelude::*;
pub mod anthropic;
pub mod bedrock;
pub mod gemini;
pub mod openai_completions;
pub mod openai_responses;

use crate::error::{Error, ErrorCode, Path, Result};
use crate::json::{Json, Kind, Number};
use crate::message::{parse_message, PartType, Role};
use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde::Serialize;

/// How deep the functions here look into arbitrary JSON (writing a value as JSON text, reading a
/// JSON string): deeper input is `too_deep`, never a stack overflow.
pub const MAX_DEPTH: usize = 128;

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

// ---------------------------------------------------------------------------------------------
// Output values

/// A JSON value in an output: a given value moved as its handle, or one the conversion made.
#[derive(Clone, Debug)]
pub enum Out<J> {
    /// A value from the input, returned as the same value (in JavaScript, the same object).
    Given(J),
    /// A string the conversion made.
    Text(String),
    /// A fixed string.
    Str(&'static str),
    Bool(bool),
    Null,
    /// A value parsed from a JSON string (tool arguments), keys in the text's order.
    Json(Parsed),
    List(Vec<Out<J>>),
    /// An object, with its keys in this order.
    Map(Vec<(&'static str, Out<J>)>),
}

impl<J> Out<J> {
    /// The empty object `{}`.
    pub fn empty_map() -> Out<J> {
        Out::Map(Vec::new())
    }
}

impl<J: Json> Out<J> {
    /// The string, when the value is one.
    pub fn text(&self) -> Option<String> {
        match self {
            Out::Given(j) => j.as_str().map(|s| s.into_owned()),
            Out::Text(t) => Some(t.clone()),
            Out::Str(t) => Some(t.to_string()),
            _ => None,
        }
    }
}

impl<J: Serialize> Serialize for Out<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        match self {
            Out::Given(j) => j.serialize(s),
            Out::Text(t) => s.serialize_str(t),
            Out::Str(t) => s.serialize_str(t),
            Out::Bool(b) => s.serialize_bool(*b),
            Out::Null => s.serialize_unit(),
            Out::Json(v) => v.serialize(s),
            Out::List(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Out::Map(entries) => serialize_entries(s, entries),
        }
    }
}

fn serialize_entries<S: Serializer, J: Serialize>(
    s: S,
    entries: &[(&'static str, Out<J>)],
) -> core::result::Result<S::Ok, S::Error> {
    let mut map = s.serialize_map(Some(entries.len()))?;
    for (key, value) in entries {
        map.serialize_entry(key, value)?;
    }
    map.end()
}

/// Keyed values in order (`options`, `metadata`).
pub type Entries<J> = Vec<(&'static str, Out<J>)>;

/// Serializes entries as an object, without copying them.
struct EntriesRef<'a, J>(&'a [(&'static str, Out<J>)]);

impl<J: Serialize> Serialize for EntriesRef<'_, J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        serialize_entries(s, self.0)
    }
}

// ---------------------------------------------------------------------------------------------
// The LangChain messages fromProvider makes

/// A LangChain message status (behavior.md §1.1), mapped from the provider's stop reason.
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

/// A LangChain ContentPart: `{type, content, options?}` (`options` only when there is one).
#[derive(Clone, Debug)]
pub struct LcPart<J> {
    pub kind: PartKind,
    pub content: Option<Out<J>>,
    pub options: Entries<J>,
}

impl<J> LcPart<J> {
    pub fn new(kind: PartKind, content: Option<Out<J>>, options: Entries<J>) -> LcPart<J> {
        LcPart {
            kind,
            content,
            options,
        }
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

impl<J: Serialize> Serialize for LcPart<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("type", self.kind.as_str())?;
        map.serialize_entry("content", &self.content)?;
        if !self.options.is_empty() {
            map.serialize_entry("options", &EntriesRef(&self.options))?;
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

// ---------------------------------------------------------------------------------------------
// Pairing results with calls

/// The calls of a conversation in order, for pairing results with them: by id, or, where the
/// result has no id, with the first unanswered call of the same name (of any name when the result
/// has none either). A call without an id gets `synthetic-<n>`.
#[derive(Debug)]
pub struct Pairing<T> {
    calls: Vec<PairedCall<T>>,
    synthetic: usize,
}

#[derive(Debug)]
struct PairedCall<T> {
    id: String,
    name: Option<String>,
    answered: bool,
    data: T,
}

impl<T> Default for Pairing<T> {
    fn default() -> Self {
        Pairing {
            calls: Vec::new(),
            synthetic: 0,
        }
    }
}

impl<T> Pairing<T> {
    /// Registers a call; returns its id and whether it was made up here.
    pub fn add(&mut self, id: Option<String>, name: Option<String>, data: T) -> (String, bool) {
        let (id, synthetic) = match id {
            Some(id) => (id, false),
            None => {
                self.synthetic += 1;
                (text!("synthetic-", self.synthetic), true)
            }
        };
        self.calls.push(PairedCall {
            id: id.clone(),
            name,
            answered: false,
            data,
        });
        (id, synthetic)
    }

    /// The call a result answers, marked answered.
    pub fn answer(&mut self, id: Option<&str>, name: Option<&str>) -> Option<&T> {
        let position = match id {
            Some(id) => self
                .calls
                .iter()
                .position(|c| !c.answered && c.id == id)
                .or_else(|| self.calls.iter().position(|c| c.id == id)),
            None => self
                .calls
                .iter()
                .position(|c| !c.answered && (name.is_none() || c.name.as_deref() == name)),
        }?;
        let call = self.calls.get_mut(position)?;
        call.answered = true;
        Some(&call.data)
    }
}

// ---------------------------------------------------------------------------------------------
// Building a conversation

/// Builds the LangChain messages of one payload, in order.
#[derive(Debug)]
pub struct Conversation<J> {
    protocol: WireProtocol,
    messages: Vec<LcMessage<J>>,
    /// Per call: its id as output, and its name.
    pairing: Pairing<(Out<J>, Option<Out<J>>)>,
}

impl<J: Json> Conversation<J> {
    pub fn new(protocol: WireProtocol) -> Conversation<J> {
        Conversation {
            protocol,
            messages: Vec::new(),
            pairing: Pairing::default(),
        }
    }

    fn metadata(&self) -> Entries<J> {
        vec![("wire_protocol", Out::Str(self.protocol.as_str()))]
    }

    /// Adds a user, assistant or system message.
    pub fn message(&mut self, role: Role, content: Vec<LcPart<J>>, tool_calls: Vec<LcCall<J>>) {
        let metadata = self.metadata();
        self.messages.push(LcMessage {
            role,
            content,
            status: Status::Complete,
            tool_calls,
            tool_results: Vec::new(),
            metadata,
        });
    }

    /// Adds tool results: to the previous message when it is a `tool` message (consecutive results
    /// are gathered into one), else as a new `tool` message. Nothing happens for an empty list.
    pub fn results(&mut self, mut results: Vec<LcResult<J>>) {
        if results.is_empty() {
            return;
        }
        if let Some(last) = self.messages.last_mut().filter(|m| m.role == Role::Tool) {
            last.tool_results.append(&mut results);
            return;
        }
        let metadata = self.metadata();
        self.messages.push(LcMessage {
            role: Role::Tool,
            content: Vec::new(),
            status: Status::Complete,
            tool_calls: Vec::new(),
            tool_results: results,
            metadata,
        });
    }

    /// Makes a tool call, registering it for pairing. `id` and `name` must be strings (or absent).
    pub fn call(
        &mut self,
        id: Option<J>,
        name: Option<Out<J>>,
        arguments: Out<J>,
        mut metadata: Entries<J>,
    ) -> LcCall<J> {
        let given = id.as_ref().and_then(|i| i.as_str().map(|s| s.into_owned()));
        let name_text = name.as_ref().and_then(Out::text);
        let call_id = match (&id, &given) {
            (Some(id), Some(_)) => Out::Given(id.clone()),
            _ => Out::Null,
        };
        let (made, synthetic) = self
            .pairing
            .add(given, name_text, (call_id.clone(), name.clone()));
        let call_id = if synthetic {
            metadata.insert(0, ("synthetic_id", Out::Bool(true)));
            Out::Text(made.clone())
        } else {
            call_id
        };
        if synthetic {
            if let Some(last) = self.pairing.calls.last_mut() {
                last.data.0 = Out::Text(made);
            }
        }
        LcCall {
            call_id,
            name,
            arguments,
            metadata,
        }
    }

    /// Makes a tool result, paired with the call it answers: a missing id is taken from the call
    /// (paired by order and name) and a missing name from the call (paired by id or order).
    pub fn result(
        &mut self,
        id: Option<J>,
        name: Option<J>,
        content: ResultBody<J>,
        is_error: bool,
        options: Entries<J>,
    ) -> LcResult<J> {
        let id_text = id.as_ref().and_then(|i| i.as_str().map(|s| s.into_owned()));
        let name_text = name
            .as_ref()
            .and_then(|n| n.as_str().map(|s| s.into_owned()));
        let paired = self
            .pairing
            .answer(id_text.as_deref(), name_text.as_deref())
            .cloned();
        let tool_call_id = match id {
            Some(id) => Some(Out::Given(id)),
            None => paired.as_ref().map(|(call_id, _)| call_id.clone()),
        };
        let name = match name {
            Some(name) => Some(Out::Given(name)),
            None => paired.and_then(|(_, name)| name),
        };
        LcResult {
            tool_call_id,
            name,
            content,
            is_error,
            options,
        }
    }

    /// Applies a response's stop reason to its (last) assistant message, adding an empty one when
    /// the response has none: `status` from the mapping, the raw reason as `metadata.stop_reason`,
    /// then any details.
    pub fn stop(&mut self, status: Status, reason: Option<J>, details: Entries<J>) {
        if !self.messages.iter().any(|m| m.role == Role::Assistant) {
            self.message(Role::Assistant, Vec::new(), Vec::new());
        }
        if let Some(message) = self
            .messages
            .iter_mut()
            .rev()
            .find(|m| m.role == Role::Assistant)
        {
            message.status = status;
            if let Some(reason) = reason {
                message.metadata.push(("stop_reason", Out::Given(reason)));
            }
            message.metadata.extend(details);
        }
    }

    pub fn finish(self) -> Vec<LcMessage<J>> {
        self.messages
    }
}

// ---------------------------------------------------------------------------------------------
// Reading provider JSON

/// The value under `key`, with an explicit `null` folded into absent.
pub fn field<J: Json>(value: &J, key: &str) -> Option<J> {
    value.get_non_null(key)
}

/// `value` must be an object.
pub fn object<J: Json>(value: &J, path: &Path<'_>, what: &str) -> Result<()> {
    match value.kind() {
        Kind::Object => Ok(()),
        other => Err(Error::expected(path, what, other)),
    }
}

/// An optional string field: absent or null is `None`; any other non-string is an error.
pub fn opt_str<J: Json>(value: &J, key: &str, path: &Path<'_>) -> Result<Option<J>> {
    match field(value, key) {
        None => Ok(None),
        Some(v) if v.kind() == Kind::String => Ok(Some(v)),
        Some(v) => Err(Error::expected(
            &path.key(key),
            "a string or null",
            v.kind(),
        )),
    }
}

/// A required string field.
pub fn req_str<J: Json>(value: &J, key: &str, path: &Path<'_>, what: &str) -> Result<J> {
    match field(value, key) {
        None => Err(Error::missing(&path.key(key), what)),
        Some(v) if v.kind() == Kind::String => Ok(v),
        Some(v) => Err(Error::expected(&path.key(key), "a string", v.kind())),
    }
}

/// An optional array field: absent or null is `None`; any other non-array is an error.
pub fn opt_list<J: Json>(value: &J, key: &str, path: &Path<'_>) -> Result<Option<Vec<J>>> {
    match field(value, key) {
        None => Ok(None),
        Some(v) => v
            .elements()
            .map(Some)
            .ok_or_else(|| Error::expected(&path.key(key), "an array or null", v.kind())),
    }
}

/// The string under `key`, copied, when it is a string.
pub fn str_of<J: Json>(value: &J, key: &str) -> Option<String> {
    field(value, key).and_then(|v| v.as_str().map(|s| s.into_owned()))
}

/// A required string field read as a text part's content.
pub fn read_text<J: Json>(block: &J, key: &str, path: &Path<'_>) -> Result<J> {
    req_str(block, key, path, "the text")
}

/// A block's `type`: the block must be an object with a string `type`.
pub fn block_type<J: Json>(block: &J, path: &Path<'_>) -> Result<(String, J)> {
    object(block, path, "a content block object")?;
    let ty = match field(block, "type") {
        None => return Err(Error::missing(&path.key("type"), "the block type")),
        Some(t) => t,
    };
    match ty.as_str() {
        Some(s) => Ok((s.into_owned(), ty.clone())),
        None => Err(Error::expected(&path.key("type"), "a string", ty.kind())),
    }
}

/// Tool arguments: a JSON string that parses to an object becomes that object; any other string
/// (invalid JSON, or JSON that is not an object) is kept as the raw string; any other value is
/// moved as it is; absent or null is `{}`.
pub fn arguments<J: Json>(value: Option<J>) -> Out<J> {
    match value {
        None => Out::empty_map(),
        Some(v) => match v.as_str().map(|s| parse_object(&s)) {
            Some(Some(parsed)) => Out::Json(parsed),
            _ => Out::Given(v),
        },
    }
}

/// A JSON text that is an object, parsed; `None` for anything else. serde_json stops at 128 levels,
/// so deeper text is "invalid" here too.
pub fn parse_object(text: &str) -> Option<Parsed> {
    match serde_json::from_str::<Parsed>(text) {
        Ok(value @ Parsed::Object(_)) => Some(value),
        _ => None,
    }
}

/// JSON parsed from text with its object keys in the text's order, as `JSON.parse` keeps them
/// (serde_json's own `Value` sorts them). A repeated key keeps its first place and its last value.
#[derive(Clone, Debug, PartialEq)]
pub enum Parsed {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(String),
    Array(Vec<Parsed>),
    Object(Vec<(String, Parsed)>),
}

impl Serialize for Parsed {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        match self {
            Parsed::Null => s.serialize_unit(),
            Parsed::Bool(b) => s.serialize_bool(*b),
            Parsed::Number(n) => n.serialize(s),
            Parsed::String(text) => s.serialize_str(text),
            Parsed::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Parsed::Object(entries) => {
                let mut map = s.serialize_map(Some(entries.len()))?;
                for (key, value) in entries {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
        }
    }
}

impl Parsed {
    /// The value under `key` when `self` is an object holding it.
    pub fn get(&self, key: &str) -> Option<&Parsed> {
        match self {
            Parsed::Object(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value under `key`, mutable, when `self` is an object holding it.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Parsed> {
        match self {
            Parsed::Object(entries) => entries.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Sets `key` of an object (in place when present, else at the end); anything else is left
    /// unchanged.
    pub fn set(&mut self, key: &str, value: Parsed) {
        if let Parsed::Object(entries) = self {
            match entries.iter_mut().find(|(k, _)| k == key) {
                Some(entry) => entry.1 = value,
                None => entries.push((key.to_string(), value)),
            }
        }
    }

    /// The string when `self` is one.
    pub fn as_string(&self) -> Option<&str> {
        match self {
            Parsed::String(s) => Some(s),
            _ => None,
        }
    }
}

/// Parsed values are read through the same view as the input, so the stream accumulator can run
/// the readers of this module on the bodies it builds.
impl Json for &Parsed {
    fn kind(&self) -> Kind {
        match self {
            Parsed::Null => Kind::Null,
            Parsed::Bool(_) => Kind::Bool,
            Parsed::Number(_) => Kind::Number,
            Parsed::String(_) => Kind::String,
            Parsed::Array(_) => Kind::Array,
            Parsed::Object(_) => Kind::Object,
        }
    }
    fn get(&self, key: &str) -> Option<Self> {
        Parsed::get(self, key)
    }
    fn elements(&self) -> Option<Vec<Self>> {
        match self {
            Parsed::Array(items) => Some(items.iter().collect()),
            _ => None,
        }
    }
    fn as_str(&self) -> Option<alloc::borrow::Cow<'_, str>> {
        self.as_string().map(alloc::borrow::Cow::Borrowed)
    }
    fn as_bool(&self) -> Option<bool> {
        match self {
            Parsed::Bool(b) => Some(*b),
            _ => None,
        }
    }
    fn as_number(&self) -> Option<Number> {
        let Parsed::Number(n) = self else { return None };
        Number::of_serde(n)
    }
    fn entries(&self) -> Option<Vec<(String, Self)>> {
        match self {
            Parsed::Object(entries) => Some(entries.iter().map(|(k, v)| (k.clone(), v)).collect()),
            _ => None,
        }
    }
    fn empty_object() -> Self {
        static EMPTY: Parsed = Parsed::Object(Vec::new());
        &EMPTY
    }
}

impl<'de> serde::Deserialize<'de> for Parsed {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> core::result::Result<Parsed, D::Error> {
        d.deserialize_any(ParsedVisitor)
    }
}

struct ParsedVisitor;

impl<'de> serde::de::Visitor<'de> for ParsedVisitor {
    type Value = Parsed;

    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_unit<E>(self) -> core::result::Result<Parsed, E> {
        Ok(Parsed::Null)
    }
    fn visit_bool<E>(self, b: bool) -> core::result::Result<Parsed, E> {
        Ok(Parsed::Bool(b))
    }
    fn visit_i64<E>(self, n: i64) -> core::result::Result<Parsed, E> {
        Ok(Parsed::Number(n.into()))
    }
    fn visit_u64<E>(self, n: u64) -> core::result::Result<Parsed, E> {
        Ok(Parsed::Number(n.into()))
    }
    fn visit_f64<E>(self, n: f64) -> core::result::Result<Parsed, E> {
        Ok(serde_json::Number::from_f64(n).map_or(Parsed::Null, Parsed::Number))
    }
    fn visit_str<E>(self, s: &str) -> core::result::Result<Parsed, E> {
        Ok(Parsed::String(s.to_string()))
    }
    fn visit_string<E>(self, s: String) -> core::result::Result<Parsed, E> {
        Ok(Parsed::String(s))
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(
        self,
        mut seq: A,
    ) -> core::result::Result<Parsed, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Parsed::Array(items))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(
        self,
        mut map: A,
    ) -> core::result::Result<Parsed, A::Error> {
        let mut entries: Vec<(String, Parsed)> = Vec::new();
        while let Some((key, value)) = map.next_entry::<String, Parsed>()? {
            match entries.iter_mut().find(|(k, _)| *k == key) {
                Some(entry) => entry.1 = value,
                None => entries.push((key, value)),
            }
        }
        Ok(Parsed::Object(entries))
    }
}

/// The value as compact JSON text, exactly as `JSON.stringify` writes it (key order kept); deeper
/// than [`MAX_DEPTH`] is `too_deep` at `path`.
pub fn compact_json<J: Json>(value: &J, path: &Path<'_>) -> Result<String> {
    let mut out = String::new();
    if write_json(value, &mut out, 0) {
        Ok(out)
    } else {
        Err(too_deep(path))
    }
}

pub fn too_deep(path: &Path<'_>) -> Error {
    Error::new(
        ErrorCode::TooDeep,
        path,
        text!(
            "The value at ",
            path,
            " is nested deeper than ",
            MAX_DEPTH,
            " levels."
        ),
    )
}

/// Writes `value`; false when it is nested too deep.
fn write_json<J: Json>(value: &J, out: &mut String, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    match value.kind() {
        Kind::Null | Kind::Other => out.push_str("null"),
        Kind::Bool => out.push_str(if value.as_bool() == Some(true) {
            "true"
        } else {
            "false"
        }),
        Kind::Number => match value.as_number() {
            Some(n) => out.push_str(&js_number(n, J::shortest_digits)),
            None => out.push_str("null"),
        },
        Kind::String => write_string(&value.as_str().unwrap_or_default(), out),
        Kind::Array => {
            out.push('[');
            for (i, element) in value.elements().unwrap_or_default().iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if !write_json(element, out, depth + 1) {
                    return false;
                }
            }
            out.push(']');
        }
        Kind::Object => {
            out.push('{');
            let mut first = true;
            for (key, element) in value.entries().unwrap_or_default() {
                if element.kind() == Kind::Other {
                    continue; // JSON.stringify leaves out functions and symbols
                }
                if !first {
                    out.push(',');
                }
                first = false;
                write_string(&key, out);
                out.push(':');
                if !write_json(&element, out, depth + 1) {
                    return false;
                }
            }
            out.push('}');
        }
    }
    true
}

fn write_string(s: &str, out: &mut String) {
    // serde_json escapes exactly what JSON.stringify escapes: `"`, `\` and control characters.
    match serde_json::to_string(s) {
        Ok(text) => out.push_str(&text),
        Err(_) => out.push_str("\"\""),
    }
}

/// A number as JavaScript writes it (`Number.prototype.toString`), from the shortest round-trip
/// digits that `shortest_digits` gives: the engine's in the module, so that no float formatter is
/// compiled into it.
pub fn js_number(n: Number, shortest_digits: fn(f64) -> (String, i64)) -> String {
    let x = match n {
        Number::Int(i) => return text!(i),
        Number::Float(x) => x,
    };
    if !x.is_finite() {
        return "null".into();
    }
    if x == 0.0 {
        return "0".into();
    }
    // x = 0.digits × 10^point; ECMA-262's Number::toString with k digits and n = point.
    let (digits, n) = shortest_digits(x.abs());
    let k = digits.len() as i64;
    let sign = if x < 0.0 { "-" } else { "" };
    let zeros = |count: i64| "0".repeat(usize::try_from(count).unwrap_or(0));
    let body = if k <= n && n <= 21 {
        text!(digits, zeros(n - k))
    } else if 0 < n && n <= 21 {
        let (int, frac) = digits.split_at_checked(n as usize).unwrap_or((&digits, ""));
        text!(int, ".", frac)
    } else if -6 < n && n <= 0 {
        text!("0.", zeros(-n), digits)
    } else {
        let e = n - 1;
        let (first, rest) = digits.split_at_checked(1).unwrap_or((&digits, ""));
        let e_sign = if e < 0 { "e-" } else { "e+" };
        if rest.is_empty() {
            text!(first, e_sign, e.unsigned_abs())
        } else {
            text!(first, ".", rest, e_sign, e.unsigned_abs())
        }
    };
    text!(sign, body)
}

// ---------------------------------------------------------------------------------------------
// Reading LangChain messages for toProvider

/// A LangChain message as toProvider reads it.
#[derive(Clone, Debug)]
pub struct InMessage<J> {
    pub role: Role,
    pub parts: Vec<InPart<J>>,
    pub calls: Vec<InCall<J>>,
    pub results: Vec<InResult<J>>,
    /// True when `metadata.wire_protocol` names the format being written, so provider blocks kept
    /// in `unsupported` parts (and server-tool items) can be passed back unchanged.
    pub own: bool,
}

/// A content part: its type, its `content`, and its `options` object.
#[derive(Clone, Debug)]
pub struct InPart<J> {
    pub kind: PartType,
    pub content: Option<J>,
    pub options: Option<J>,
}

impl<J: Json> InPart<J> {
    /// An option's value (non-null).
    pub fn option(&self, key: &str) -> Option<J> {
        self.options.as_ref().and_then(|o| field(o, key))
    }

    /// An option's string value.
    pub fn option_str(&self, key: &str) -> Option<String> {
        self.options.as_ref().and_then(|o| str_of(o, key))
    }

    /// The content when it is a string.
    pub fn text(&self) -> Option<J> {
        self.content.clone().filter(|c| c.kind() == Kind::String)
    }

    /// True for redacted reasoning (`unsupported` with `options.type: "redacted_thinking"`).
    pub fn is_redacted(&self) -> bool {
        self.kind == PartType::Unsupported
            && self.option_str("type").as_deref() == Some("redacted_thinking")
    }

    /// The provider block kept under `key` (`block`, `item`, `part`) when the message came from
    /// the format being written.
    pub fn raw(&self, key: &str, own: bool) -> Option<J> {
        if own && self.kind == PartType::Unsupported {
            self.option(key)
        } else {
            None
        }
    }
}

/// A tool call, with its id (a synthetic one when it had none).
#[derive(Clone, Debug)]
pub struct InCall<J> {
    pub id: Out<J>,
    /// True when the id was made up (here, or by fromProvider: `metadata.synthetic_id`).
    pub synthetic: bool,
    pub name: Option<J>,
    pub arguments: Option<J>,
    pub metadata: Option<J>,
    /// Where the call sits: its message's index (`None` for a lone message) and its own.
    pub at: (Option<usize>, usize),
}

impl<J: Json> InCall<J> {
    pub fn meta_str(&self, key: &str) -> Option<String> {
        self.metadata.as_ref().and_then(|m| str_of(m, key))
    }

    pub fn meta(&self, key: &str) -> Option<J> {
        self.metadata.as_ref().and_then(|m| field(m, key))
    }

    /// The arguments as an object for formats that need one: an object is moved, a JSON string of
    /// an object is parsed, anything else becomes `{}`.
    pub fn arguments_object(&self) -> Out<J> {
        match &self.arguments {
            Some(a) if a.kind() == Kind::Object => Out::Given(a.clone()),
            Some(a) => match a.as_str().and_then(|s| parse_object(&s)) {
                Some(parsed) => Out::Json(parsed),
                None => Out::empty_map(),
            },
            None => Out::empty_map(),
        }
    }

    /// The arguments as a JSON string for formats that need one: a string is moved, anything else
    /// is written as compact JSON (`{}` when absent).
    pub fn arguments_text(&self) -> Result<Out<J>> {
        match &self.arguments {
            Some(a) if a.kind() == Kind::String => Ok(Out::Given(a.clone())),
            Some(a) if a.kind() != Kind::Null => {
                let root = MESSAGES;
                let message = match self.at.0 {
                    Some(i) => root.index(i),
                    None => root,
                };
                let calls = message.key("tool_calls");
                let call = calls.index(self.at.1);
                Ok(Out::Text(compact_json(a, &call.key("arguments"))?))
            }
            _ => Ok(Out::Str("{}")),
        }
    }
}

/// A tool result, with its id and name completed from the call it answers where missing.
#[derive(Clone, Debug)]
pub struct InResult<J> {
    pub id: Out<J>,
    /// True when the call it answers has a synthetic id.
    pub synthetic: bool,
    pub name: Option<Out<J>>,
    pub content: InContent<J>,
    pub is_error: bool,
    pub options: Option<J>,
}

impl<J: Json> InResult<J> {
    pub fn option_str(&self, key: &str) -> Option<String> {
        self.options.as_ref().and_then(|o| str_of(o, key))
    }

    pub fn option(&self, key: &str) -> Option<J> {
        self.options.as_ref().and_then(|o| field(o, key))
    }

    /// The display text of the content: a string as it is, parts as their texts joined with "\n"
    /// (as extract_display_items joins them).
    pub fn text(&self) -> Out<J> {
        match &self.content {
            InContent::Text(t) => Out::Given(t.clone()),
            InContent::Parts(parts) => {
                let texts: Vec<String> = parts
                    .iter()
                    .filter(|p| p.kind == PartType::Text)
                    .map(|p| {
                        p.text()
                            .and_then(|t| t.as_str().map(|s| s.into_owned()))
                            .unwrap_or_default()
                    })
                    .collect();
                Out::Text(texts.join("\n"))
            }
            InContent::None => Out::Str(""),
        }
    }
}

/// A tool result's `content`.
#[derive(Clone, Debug)]
pub enum InContent<J> {
    Text(J),
    Parts(Vec<InPart<J>>),
    None,
}

fn read_parts<J: Json>(value: Option<J>) -> Vec<InPart<J>> {
    let Some(parts) = value.and_then(|v| v.elements()) else {
        return Vec::new();
    };
    parts
        .iter()
        .map(|p| InPart {
            kind: field(p, "type")
                .and_then(|t| t.as_str().map(|s| PartType::parse(&s)))
                .unwrap_or(PartType::Other),
            content: field(p, "content"),
            options: field(p, "options").filter(|o| o.kind() == Kind::Object),
        })
        .collect()
}

/// Reads LangChain messages (an array, or one message) for `toProvider`, checking each as
/// `extractDisplayItems` does (paths `$.messages[i]...`), and pairs results with calls: calls
/// without an id get a synthetic one, results without an id take the id of the call they answer
/// (by order and name), results without a name take the call's name.
pub fn read_messages<J: Json>(messages: &J, protocol: WireProtocol) -> Result<Vec<InMessage<J>>> {
    let list = match messages.kind() {
        Kind::Array => messages.elements().unwrap_or_default(),
        Kind::Object => vec![messages.clone()],
        other => return Err(Error::expected(&MESSAGES, "an array of messages", other)),
    };
    let single = messages.kind() == Kind::Object;
    let root = MESSAGES;
    // Per call: its id, its name, and whether the id is synthetic.
    let mut pairing: Pairing<(Out<J>, Option<J>, bool)> = Pairing::default();
    let mut out = Vec::with_capacity(list.len());
    for (i, raw) in list.iter().enumerate() {
        let path = if single { root } else { root.index(i) };
        let parsed = parse_message(raw, &path)?;
        let own = field(raw, "metadata")
            .and_then(|m| str_of(&m, "wire_protocol"))
            .is_some_and(|p| p == protocol.as_str());
        let parts = match field(raw, "content") {
            Some(c) if c.kind() == Kind::String => vec![InPart {
                kind: PartType::Text,
                content: Some(c),
                options: None,
            }],
            other => read_parts(other),
        };
        let mut calls = Vec::new();
        let calls_given = field(raw, "tool_calls")
            .and_then(|c| c.elements())
            .unwrap_or_default();
        for (c, call) in calls_given.into_iter().enumerate() {
            let given = field(&call, "call_id").filter(|c| c.kind() == Kind::String);
            let name = field(&call, "name").filter(|n| n.kind() == Kind::String);
            let metadata = field(&call, "metadata").filter(|m| m.kind() == Kind::Object);
            let marked = metadata
                .as_ref()
                .and_then(|m| field(m, "synthetic_id"))
                .and_then(|s| s.as_bool())
                == Some(true);
            let (made, synthetic) = pairing.add(
                given
                    .as_ref()
                    .and_then(|g| g.as_str().map(|s| s.into_owned())),
                name.as_ref()
                    .and_then(|n| n.as_str().map(|s| s.into_owned())),
                (Out::Null, name.clone(), false),
            );
            let id = match given {
                Some(g) => Out::Given(g),
                None => Out::Text(made),
            };
            if let Some(last) = pairing.calls.last_mut() {
                last.data.0 = id.clone();
                last.data.2 = synthetic || marked;
            }
            calls.push(InCall {
                id,
                synthetic: synthetic || marked,
                name,
                arguments: field(&call, "arguments"),
                metadata,
                at: ((!single).then_some(i), c),
            });
        }
        let mut results = Vec::new();
        for result in field(raw, "tool_results")
            .and_then(|r| r.elements())
            .unwrap_or_default()
        {
            let given = field(&result, "tool_call_id").filter(|c| c.kind() == Kind::String);
            let name = field(&result, "name").filter(|n| n.kind() == Kind::String);
            let paired = pairing
                .answer(
                    given
                        .as_ref()
                        .and_then(|g| g.as_str().map(|s| s.into_owned()))
                        .as_deref(),
                    name.as_ref()
                        .and_then(|n| n.as_str().map(|s| s.into_owned()))
                        .as_deref(),
                )
                .cloned();
            let synthetic = paired.as_ref().is_some_and(|(_, _, s)| *s);
            let id = match (given, &paired) {
                (Some(g), _) => Out::Given(g),
                (None, Some((id, _, _))) => id.clone(),
                (None, None) => Out::Null,
            };
            let name = match name {
                Some(n) => Some(Out::Given(n)),
                None => paired.and_then(|(_, n, _)| n.map(Out::Given)),
            };
            let content = match field(&result, "content") {
                Some(c) if c.kind() == Kind::String => InContent::Text(c),
                Some(c) if c.kind() == Kind::Array => InContent::Parts(read_parts(Some(c))),
                _ => InContent::None,
            };
            results.push(InResult {
                id,
                synthetic,
                name,
                content,
                is_error: field(&result, "is_error").and_then(|e| e.as_bool()) == Some(true),
                options: field(&result, "options").filter(|o| o.kind() == Kind::Object),
            });
        }
        out.push(InMessage {
            role: parsed.role,
            parts,
            calls,
            results,
            own,
        });
    }
    Ok(out)
}

/// A provider message being written: tool results first, then the other blocks.
#[derive(Debug)]
pub struct Turn<J> {
    pub role: Role,
    pub results: Vec<Out<J>>,
    pub blocks: Vec<Out<J>>,
}

impl<J> Turn<J> {
    /// The results, then the other blocks.
    pub fn content(self) -> Vec<Out<J>> {
        let mut content = self.results;
        content.extend(self.blocks);
        content
    }
}

/// The messages of a block-based request (Anthropic, Bedrock, Gemini) as they are written.
/// User-role content (user messages and tool results) is merged into a previous user turn, tool
/// results first; with `merge_all`, consecutive assistant (and system) messages merge too, for
/// formats that require the roles to alternate. Empty turns are never added.
#[derive(Debug)]
pub struct Turns<J> {
    pub list: Vec<Turn<J>>,
    merge_all: bool,
}

impl<J> Turns<J> {
    pub fn new(merge_all: bool) -> Turns<J> {
        Turns {
            list: Vec::new(),
            merge_all,
        }
    }

    /// Adds user-role content: tool results and other blocks.
    pub fn user(&mut self, results: Vec<Out<J>>, blocks: Vec<Out<J>>) {
        if results.is_empty() && blocks.is_empty() {
            return;
        }
        if let Some(last) = self.list.last_mut().filter(|t| t.role == Role::User) {
            last.results.extend(results);
            last.blocks.extend(blocks);
        } else {
            self.list.push(Turn {
                role: Role::User,
                results,
                blocks,
            });
        }
    }

    /// Adds an assistant or system message.
    pub fn push(&mut self, role: Role, blocks: Vec<Out<J>>) {
        if blocks.is_empty() {
            return;
        }
        if self.merge_all {
            if let Some(last) = self.list.last_mut().filter(|t| t.role == role) {
                last.blocks.extend(blocks);
                return;
            }
        }
        self.list.push(Turn {
            role,
            results: Vec::new(),
            blocks,
        });
    }

    /// The last turn, when it is the assistant's.
    pub fn last_assistant(&mut self) -> Option<&mut Turn<J>> {
        self.list.last_mut().filter(|t| t.role == Role::Assistant)
    }
}

/// The text of the system messages' text parts, in order (empty texts left out).
pub fn system_texts<J: Json>(messages: &[InMessage<J>]) -> Vec<J> {
    messages
        .iter()
        .filter(|m| m.role == Role::System)
        .flat_map(|m| m.parts.iter())
        .filter(|p| p.kind == PartType::Text)
        .filter_map(|p| p.text())
        .filter(|t| !t.is_empty_str())
        .collect()
}

/// A part's media type: `options.media` (`"png"` read as `"image/png"`), else `default`.
pub fn media<J: Json>(part: &InPart<J>, default: &'static str) -> Out<J> {
    match part.option("media") {
        Some(m) if m.as_str().is_some_and(|s| s.contains('/')) => Out::Given(m),
        Some(m) => match m.as_str() {
            Some(short) if !short.is_empty() => {
                let prefix = default.split('/').next().unwrap_or("application");
                Out::Text(text!(prefix, "/", short))
            }
            _ => Out::Str(default),
        },
        None => Out::Str(default),
    }
}

/// The media type of a part as text (see [`media`]).
pub fn media_text<J: Json>(part: &InPart<J>, default: &'static str) -> String {
    match media(part, default) {
        Out::Given(m) => m.as_str().map(|s| s.into_owned()).unwrap_or_default(),
        Out::Text(t) => t,
        _ => default.to_string(),
    }
}

/// `data:<media>;base64,<data>` split into media type and data.
pub fn split_data_url(url: &str) -> Option<(String, String)> {
    let rest = url.strip_prefix("data:")?;
    // The first ";base64,", found bytewise: `split_once` with a string pattern brings core's
    // two-way string search into the module (3 KB).
    const MARK: &[u8] = b";base64,";
    let at = rest
        .as_bytes()
        .windows(MARK.len())
        .position(|w| w == MARK)?;
    Some((
        rest.get(..at)?.to_string(),
        rest.get(at + MARK.len()..)?.to_string(),
    ))
}

// ---------------------------------------------------------------------------------------------
// detectProtocol

/// `detectProtocol(payload)`: the format a payload is in, from its shape, or `None` when it is not
/// one of them (LangChain messages, Sycophant messages, anything else). A conversation of plain
/// `{role, content: string}` messages reads the same in every role-based format and is reported as
/// `openai_completions`.
pub fn detect_protocol<J: Json>(payload: &J) -> Option<WireProtocol> {
    match payload.kind() {
        Kind::Object => detect_object(payload),
        Kind::Array => detect_list(&payload.elements().unwrap_or_default()),
        _ => None,
    }
}

fn has<J: Json>(value: &J, key: &str) -> bool {
    field(value, key).is_some()
}

fn is_list<J: Json>(value: &J, key: &str) -> bool {
    field(value, key).is_some_and(|v| v.kind() == Kind::Array)
}

fn detect_object<J: Json>(payload: &J) -> Option<WireProtocol> {
    if has(payload, "__type__") || has(payload, "lc") {
        return None;
    }
    if is_list(payload, "candidates")
        || is_list(payload, "contents")
        || has(payload, "systemInstruction")
    {
        return Some(WireProtocol::GoogleGemini);
    }
    if is_list(payload, "choices") {
        return Some(WireProtocol::OpenaiCompletions);
    }
    if field(payload, "output").is_some_and(|o| has(&o, "message")) || has(payload, "stopReason") {
        return Some(WireProtocol::BedrockConverse);
    }
    if is_list(payload, "output")
        || str_of(payload, "object").as_deref() == Some("response")
        || (has(payload, "input") && !has(payload, "messages"))
    {
        return Some(WireProtocol::OpenaiResponses);
    }
    if str_of(payload, "type").as_deref() == Some("message") && has(payload, "role") {
        // An Anthropic response and a Responses message item share `type: "message"`: their
        // parts tell them apart, and only the Anthropic response has `stop_reason`.
        return match detect_content(payload) {
            Some(Sign::Format(p)) => Some(p),
            _ if payload.get("stop_reason").is_some() => Some(WireProtocol::AnthropicMessages),
            _ => Some(WireProtocol::OpenaiResponses),
        };
    }
    if has(payload, "stop_reason") && has(payload, "content") {
        return Some(WireProtocol::AnthropicMessages);
    }
    if let Some(messages) = field(payload, "messages").and_then(|m| m.elements()) {
        if let Some(system) = field(payload, "system") {
            match system.kind() {
                Kind::String => return Some(WireProtocol::AnthropicMessages),
                Kind::Array => {
                    let blocks = system.elements().unwrap_or_default();
                    if blocks.iter().any(|b| has(b, "type")) {
                        return Some(WireProtocol::AnthropicMessages);
                    }
                    if !blocks.is_empty() {
                        return Some(WireProtocol::BedrockConverse);
                    }
                }
                _ => {}
            }
        }
        return detect_list(&messages);
    }
    if has(payload, "parts") {
        return Some(WireProtocol::GoogleGemini);
    }
    if has(payload, "role") || has(payload, "type") {
        return detect_list(core::slice::from_ref(payload));
    }
    None
}

/// Each element votes; the first decisive sign wins. Any LangChain or Sycophant sign gives `None`.
fn detect_list<J: Json>(items: &[J]) -> Option<WireProtocol> {
    if items.is_empty() {
        return None;
    }
    let mut plain = true;
    let mut found = None;
    for item in items {
        if item.kind() != Kind::Object {
            return None;
        }
        match detect_item(item) {
            Sign::Foreign => return None,
            Sign::Format(p) => {
                if found.is_none() {
                    found = Some(p);
                }
            }
            Sign::Plain => {}
            Sign::Unknown => plain = false,
        }
    }
    match found {
        Some(p) => Some(p),
        None if plain => Some(WireProtocol::OpenaiCompletions),
        None => None,
    }
}

enum Sign {
    /// Decisively this format.
    Format(WireProtocol),
    /// `{role, content: string}` that every role-based format shares.
    Plain,
    /// LangChain, Sycophant or LangGraph: not a provider format.
    Foreign,
    /// Nothing recognizable.
    Unknown,
}

const RESPONSES_ITEMS: [&str; 6] = [
    "function_call",
    "function_call_output",
    "reasoning",
    "custom_tool_call",
    "custom_tool_call_output",
    "item_reference",
];

const BEDROCK_KEYS: [&str; 9] = [
    "toolUse",
    "toolResult",
    "reasoningContent",
    "cachePoint",
    "guardContent",
    "citationsContent",
    "searchResult",
    "document",
    "video",
];

const ANTHROPIC_BLOCKS: [&str; 8] = [
    "tool_use",
    "tool_result",
    "thinking",
    "redacted_thinking",
    "server_tool_use",
    "document",
    "search_result",
    "container_upload",
];

fn detect_item<J: Json>(item: &J) -> Sign {
    if has(item, "__type__")
        || has(item, "lc")
        || has(item, "tool_results")
        || has(item, "kwargs")
        || matches!(
            str_of(item, "type").as_deref(),
            Some("human" | "ai" | "tool" | "system" | "remove")
        )
    {
        return Sign::Foreign;
    }
    if has(item, "parts") {
        return Sign::Format(WireProtocol::GoogleGemini);
    }
    if let Some(ty) = str_of(item, "type") {
        if RESPONSES_ITEMS.contains(&ty.as_str()) || ty.ends_with("_call") || ty == "message" {
            return Sign::Format(WireProtocol::OpenaiResponses);
        }
    }
    let role = str_of(item, "role");
    match role.as_deref() {
        Some("model") => return Sign::Format(WireProtocol::GoogleGemini),
        Some("tool" | "function") => return Sign::Format(WireProtocol::OpenaiCompletions),
        Some("developer") => {
            return match field(item, "content").map(|c| c.kind()) {
                Some(Kind::String) => Sign::Plain,
                _ => detect_content(item).unwrap_or(Sign::Unknown),
            }
        }
        _ => {}
    }
    if let Some(calls) = field(item, "tool_calls").and_then(|c| c.elements()) {
        if calls.iter().any(|c| has(c, "function") || has(c, "custom")) {
            return Sign::Format(WireProtocol::OpenaiCompletions);
        }
        if !calls.is_empty() {
            return Sign::Foreign;
        }
    }
    if has(item, "reasoning_content") || has(item, "refusal") || has(item, "function_call") {
        return Sign::Format(WireProtocol::OpenaiCompletions);
    }
    if role.is_none() {
        return Sign::Unknown;
    }
    match field(item, "content") {
        None => {
            if matches!(role.as_deref(), Some("assistant")) {
                Sign::Format(WireProtocol::OpenaiCompletions)
            } else {
                Sign::Unknown
            }
        }
        Some(c) if c.kind() == Kind::String => Sign::Plain,
        Some(_) => detect_content(item).unwrap_or(Sign::Unknown),
    }
}

/// The sign of a message's content array.
fn detect_content<J: Json>(item: &J) -> Option<Sign> {
    let blocks = field(item, "content")?.elements()?;
    let mut plain = !blocks.is_empty();
    for block in &blocks {
        if block.kind() != Kind::Object {
            return Some(Sign::Unknown);
        }
        match str_of(block, "type") {
            None => {
                if BEDROCK_KEYS.iter().any(|k| has(block, k))
                    || has(block, "text")
                    || field(block, "image").is_some_and(|i| has(&i, "format"))
                {
                    return Some(Sign::Format(WireProtocol::BedrockConverse));
                }
                return Some(Sign::Unknown);
            }
            Some(ty) => {
                let ty = ty.as_str();
                if matches!(
                    ty,
                    "input_text" | "output_text" | "input_image" | "input_file" | "summary_text"
                ) {
                    return Some(Sign::Format(WireProtocol::OpenaiResponses));
                }
                if matches!(ty, "image_url" | "input_audio" | "refusal")
                    || (ty == "file" && has(block, "file"))
                {
                    return Some(Sign::Format(WireProtocol::OpenaiCompletions));
                }
                if ANTHROPIC_BLOCKS.contains(&ty)
                    || ty.ends_with("_tool_result")
                    || (ty == "image" && has(block, "source"))
                {
                    return Some(Sign::Format(WireProtocol::AnthropicMessages));
                }
                if ty == "text" {
                    if has(block, "content") && !has(block, "text") {
                        return Some(Sign::Foreign);
                    }
                    if has(block, "citations") || has(block, "cache_control") {
                        return Some(Sign::Format(WireProtocol::AnthropicMessages));
                    }
                } else {
                    plain = false;
                    if matches!(
                        ty,
                        "thinking" | "image" | "file" | "unsupported" | "file_url"
                    ) {
                        return Some(Sign::Foreign);
                    }
                }
            }
        }
    }
    // Text blocks only: `{type: "text", text}` is shared by OpenAI and Anthropic.
    plain.then_some(Sign::Plain)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_data_url_splits_at_its_first_base64_mark() {
        let split = |url: &str| split_data_url(url);
        let pair = |a: &str, b: &str| Some((a.to_string(), b.to_string()));
        assert_eq!(
            split("data:image/png;base64,iVBOR"),
            pair("image/png", "iVBOR")
        );
        assert_eq!(split("data:a;base64,b;base64,c"), pair("a", "b;base64,c"));
        assert_eq!(split("data:;base64,"), pair("", ""));
        assert_eq!(split("data:éè;base64,ü"), pair("éè", "ü"));
        assert_eq!(split("data:image/png,plain"), None);
        assert_eq!(split("data:;base64"), None);
        assert_eq!(split("https://example.com/a;base64,b"), None);
    }

    #[test]
    fn numbers_are_written_as_javascript_writes_them() {
        let cases = [
            (Number::Int(42), "42"),
            (Number::Float(0.1), "0.1"),
            (Number::Float(1.5e-7), "1.5e-7"),
            (Number::Float(1e21), "1e+21"),
            (Number::Float(123.456), "123.456"),
            (Number::Float(-0.0), "0"),
            (Number::Float(2.5e300), "2.5e+300"),
            (Number::Float(1e20), "100000000000000000000"),
            (Number::Float(1e-6), "0.000001"),
            (Number::Float(1e-7), "1e-7"),
            (Number::Float(-1.5), "-1.5"),
            (Number::Float(100.0), "100"),
            (Number::Float(0.5), "0.5"),
            (
                Number::Float(123456789012345680000.0),
                "123456789012345680000",
            ),
            (Number::Float(5e-324), "5e-324"),
            (
                Number::Float(-1.7976931348623157e308),
                "-1.7976931348623157e+308",
            ),
            (Number::Float(f64::NAN), "null"),
        ];
        for (n, text) in cases {
            assert_eq!(js_number(n, crate::json::shortest_digits), text);
        }
    }

    #[test]
    fn compact_json_keeps_key_order_and_stops_at_the_depth_limit() {
        let value = json!({"b": [1, 2.5, "x\"y"], "a": null});
        assert_eq!(
            compact_json(&&value, &Path::ROOT).unwrap(),
            r#"{"b":[1,2.5,"x\"y"],"a":null}"#
        );
        let mut deep = json!(1);
        for _ in 0..200 {
            deep = json!([deep]);
        }
        let error = compact_json(&&deep, &Path::ROOT).unwrap_err();
        assert_eq!(error.code, ErrorCode::TooDeep);
    }

    #[test]
    fn parsed_json_keeps_the_text_key_order_and_stops_at_serde_json_depth_limit() {
        let parsed = parse_object(r#"{"b":1,"a":[true,null,"x"],"b":2}"#).unwrap();
        assert_eq!(
            serde_json::to_string(&parsed).unwrap(),
            r#"{"b":2,"a":[true,null,"x"]}"#
        );
        assert!(parse_object("[1]").is_none());
        assert!(parse_object("{").is_none());
        let deep = format!("{}{}", "{\"a\":".repeat(300), "}".repeat(300));
        assert!(parse_object(&deep).is_none());
    }

    #[test]
    fn pairing_uses_ids_then_order_and_name() {
        let mut pairing: Pairing<u8> = Pairing::default();
        pairing.add(Some("a".into()), Some("f".into()), 1);
        let (id, synthetic) = pairing.add(None, Some("g".into()), 2);
        assert_eq!((id.as_str(), synthetic), ("synthetic-1", true));
        pairing.add(None, Some("f".into()), 3);
        assert_eq!(pairing.answer(None, Some("f")), Some(&1));
        assert_eq!(pairing.answer(None, Some("f")), Some(&3));
        assert_eq!(pairing.answer(None, Some("f")), None);
        assert_eq!(pairing.answer(Some("synthetic-1"), None), Some(&2));
    }
}
