//! Sycophant messages (sycophant v0.5.0, behavior.md §4): the model, the four constructors, the
//! canonical JSON, the decoder, and how a Sycophant message is displayed.
//!
//! Every struct is read from JSON-like input through [`Json`]; strings, integers and the arbitrary
//! `arguments` / `metadata` values stay [`Json`] handles, so they go back as the very values given.
//! Each struct serializes to its canonical JSON (`Sycophant.Serializable.to_map/1`): `__type__`
//! first, then the struct's fields in declared order, leaving out fields that are nil, `[]` or `{}`
//! and keeping `false`, `""` and `0`; `Document.citations` is always present.
//!
//! ```
//! use chat_display::sycophant;
//! let part = serde_json::json!([{"type": "text", "text": "What's in this image?"}]);
//! let message = sycophant::user(&&part).unwrap();
//! assert_eq!(
//!     serde_json::to_string(&message).unwrap(),
//!     r#"{"__type__":"Message","role":"user","content":[{"__type__":"Text","type":"text","text":"What's in this image?"}]}"#
//! );
//! ```
//!
//! Nothing here recurses into arbitrary JSON: the structs nest to a fixed depth (message, part,
//! citation), and `arguments` / `metadata` are only moved, with an emptiness check.

use crate::error::text;
use crate::error::{Error, ErrorCode, Path, Result};
use crate::json::{Json, Kind, Number};
use crate::message as lc;
use crate::prelude::*;
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

/// An enum whose values are fixed strings in the JSON.
pub trait StringEnum: Copy + 'static {
    /// Every value, in declared order.
    const ALL: &'static [Self];
    /// Their texts, in the same order (for error messages too).
    const NAMES: &'static [&'static str];
    fn as_str(self) -> &'static str;
    /// The value written `s`: a search of `NAMES`, one loop for every enum (a `match` on strings
    /// is a chain of comparisons per enum, in the module).
    fn parse(s: &str) -> Option<Self> {
        let i = Self::NAMES.iter().position(|name| *name == s)?;
        Self::ALL.get(i).copied()
    }
}

macro_rules! string_enum {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $text:literal,)+ }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum $name {
            $($(#[$vdoc])* $variant,)+
        }

        impl StringEnum for $name {
            const ALL: &'static [Self] = &[$($name::$variant,)+];
            const NAMES: &'static [&'static str] = &[$($text,)+];
            fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }
    };
}

string_enum! {
    /// A Sycophant message role. `tool_result` is a role; there is no `tool` role.
    Role {
        User = "user",
        Assistant = "assistant",
        System = "system",
        /// A tool's output, answering the call named by `tool_call_id`.
        ToolResult = "tool_result",
    }
}

string_enum! {
    /// `Message.wire_protocol`: stored and serialized only (nothing in v0.5.0 reads it).
    WireProtocol {
        AnthropicMessages = "anthropic_messages",
        OpenaiCompletions = "openai_completions",
        OpenaiResponses = "openai_responses",
        BedrockConverse = "bedrock_converse",
        GoogleGemini = "google_gemini",
    }
}

string_enum! {
    /// `Citation.type`: where the cited span sits.
    CitationType {
        PageLocation = "page_location",
        CharLocation = "char_location",
        ContentBlockLocation = "content_block_location",
        WebSearchResultLocation = "web_search_result_location",
        SearchResultLocation = "search_result_location",
    }
}

string_enum! {
    /// `Citation.unit`: what `start_index` / `end_index` count.
    CitationUnit {
        Page = "page",
        Char = "char",
        Block = "block",
    }
}

string_enum! {
    /// The `__type__` names the decoder knows.
    TypeName {
        Message = "Message",
        Text = "Text",
        Image = "Image",
        Document = "Document",
        Thinking = "Thinking",
        RedactedThinking = "RedactedThinking",
        ToolCall = "ToolCall",
        Citation = "Citation",
    }
}

/// `Sycophant.Message`.
///
/// ```json
/// {"__type__": "Message", "role": "tool_result", "content": "72F and sunny",
///  "tool_call_id": "call_123", "metadata": {"tool_name": "get_weather"}}
/// ```
#[derive(Clone, Debug)]
pub struct Message<J> {
    pub role: Role,
    /// `None` is nil; an empty part list is kept and left out of the JSON.
    pub content: Option<Content<J>>,
    pub tool_call_id: Option<J>,
    /// Nil and `[]` are both empty.
    pub tool_calls: Vec<ToolCall<J>>,
    /// `None` is the default `%{}`.
    pub metadata: Option<Metadata<J>>,
    pub wire_protocol: Option<WireProtocol>,
}

/// A message's `content`: a string (kept as given, `""` included) or a list of content parts.
#[derive(Clone, Debug)]
pub enum Content<J> {
    Text(J),
    Parts(Vec<Part<J>>),
}

/// A message's `metadata`.
#[derive(Clone, Debug)]
pub enum Metadata<J> {
    /// Any JSON value, passed through verbatim.
    Given(J),
    /// `{"tool_name": name}`, as `toolResultMessage` sets it.
    ToolName(J),
}

/// A content part; its variant is its `__type__` (and its `type` literal).
#[derive(Clone, Debug)]
pub enum Part<J> {
    /// `{"__type__": "Text", "type": "text", "text": "Hi", "citations": [...]}`
    Text(Text<J>),
    /// `{"__type__": "Image", "type": "image", "url": "https://example.com/photo.jpg"}`
    Image(Image<J>),
    /// `{"__type__": "Document", "type": "document", "data": "JVBERi0...", "citations": false}`
    Document(Document<J>),
    /// `{"__type__": "Thinking", "type": "thinking", "text": "Let me think...", "signature": "..."}`
    Thinking(Thinking<J>),
    /// `{"__type__": "RedactedThinking", "type": "redacted_thinking", "data": "..."}`
    RedactedThinking(RedactedThinking<J>),
}

/// `Content.Text`: `text` is required.
#[derive(Clone, Debug)]
pub struct Text<J> {
    pub text: J,
    /// Nil and `[]` are both empty.
    pub citations: Vec<Citation<J>>,
}

/// `Content.Image`: all optional; `data` is base64.
#[derive(Clone, Debug)]
pub struct Image<J> {
    pub url: Option<J>,
    pub data: Option<J>,
    pub media_type: Option<J>,
}

/// `Content.Document`: all optional but `citations`, a boolean that defaults to `false`.
#[derive(Clone, Debug)]
pub struct Document<J> {
    pub data: Option<J>,
    pub url: Option<J>,
    pub file_id: Option<J>,
    pub media_type: Option<J>,
    pub name: Option<J>,
    pub citations: bool,
}

/// `Content.Thinking`: all optional.
#[derive(Clone, Debug)]
pub struct Thinking<J> {
    pub id: Option<J>,
    pub text: Option<J>,
    pub summary: Option<J>,
    pub signature: Option<J>,
}

/// `Content.RedactedThinking`: `data` is required.
#[derive(Clone, Debug)]
pub struct RedactedThinking<J> {
    pub data: J,
}

/// `Sycophant.ToolCall`: `id` and `name` are required.
#[derive(Clone, Debug)]
pub struct ToolCall<J> {
    pub id: J,
    pub name: J,
    /// Any JSON; `None` is the default `%{}`.
    pub arguments: Option<J>,
    /// Any JSON; `None` is the default `%{}`.
    pub metadata: Option<J>,
}

/// `Sycophant.Citation`: all optional. The integers stay the given handles.
#[derive(Clone, Debug)]
pub struct Citation<J> {
    pub kind: Option<CitationType>,
    pub cited_text: Option<J>,
    pub document_index: Option<J>,
    pub document_title: Option<J>,
    pub file_id: Option<J>,
    pub unit: Option<CitationUnit>,
    pub start_index: Option<J>,
    pub end_index: Option<J>,
    pub url: Option<J>,
    pub title: Option<J>,
    pub source: Option<J>,
}

/// Whatever `decodeSycophant` decoded: one of the eight known types.
#[derive(Clone, Debug)]
pub enum Value<J> {
    Message(Message<J>),
    Part(Part<J>),
    ToolCall(ToolCall<J>),
    Citation(Citation<J>),
}

// ---------------------------------------------------------------------------------------------
// Constructors

/// `Message.user/1`: `{role: "user", content}`. `content` is a string, a list of content parts (each
/// with its `__type__` or its `type`), or null.
pub fn user<J: Json>(content: &J) -> Result<Message<J>> {
    built(Role::User, content)
}

/// `Message.assistant/1`.
pub fn assistant<J: Json>(content: &J) -> Result<Message<J>> {
    built(Role::Assistant, content)
}

/// `Message.system/1`.
pub fn system<J: Json>(content: &J) -> Result<Message<J>> {
    built(Role::System, content)
}

fn built<J: Json>(role: Role, content: &J) -> Result<Message<J>> {
    Ok(Message {
        role,
        content: content_value(content, &Path::ROOT)?,
        tool_call_id: None,
        tool_calls: Vec::new(),
        metadata: None,
        wire_protocol: None,
    })
}

/// `Message.tool_result/2`: `{role: "tool_result", content: result, tool_call_id: call.id,
/// metadata: {"tool_name": call.name}}`. Paths start at `$.toolCall` and `$.result`.
pub fn tool_result<J: Json>(tool_call: &J, result: &J) -> Result<Message<J>> {
    let call = nested_tool_call(tool_call, &Path::Root("$.toolCall"))?;
    Ok(Message {
        role: Role::ToolResult,
        content: content_value(result, &Path::Root("$.result"))?,
        tool_call_id: Some(call.id),
        tool_calls: Vec::new(),
        metadata: Some(Metadata::ToolName(call.name)),
        wire_protocol: None,
    })
}

// ---------------------------------------------------------------------------------------------
// Decoding

/// `Serializable.Decoder.from_map/1`: the object's `__type__` names one of the eight known types,
/// whose fields are then read (unknown keys ignored, absent or null optional fields at their
/// defaults).
pub fn decode<J: Json>(json: &J) -> Result<Value<J>> {
    let path = Path::ROOT;
    object(json, &path, "a serialized Sycophant struct")?;
    let Some(name) = type_tag(json, &path)? else {
        return Err(missing_type(&path));
    };
    Ok(match name {
        TypeName::Message => Value::Message(message_fields(json, &path)?),
        TypeName::ToolCall => Value::ToolCall(tool_call_fields(json, &path)?),
        TypeName::Citation => Value::Citation(citation_fields(json, &path)?),
        part => Value::Part(part_fields(part, json, &path)?),
    })
}

/// Reads a Sycophant message (`__type__` must be `"Message"`) at `path`.
pub fn parse_message<J: Json>(json: &J, path: &Path<'_>) -> Result<Message<J>> {
    object(json, path, "a Sycophant message object")?;
    match type_tag(json, path)? {
        None => Err(missing_type(path)),
        Some(TypeName::Message) => message_fields(json, path),
        Some(other) => Err(wrong_type(path, "a Message", other)),
    }
}

/// The fields of a message, read (and so checked) in declared order.
fn message_fields<J: Json>(json: &J, path: &Path<'_>) -> Result<Message<J>> {
    Ok(Message {
        role: role(json, path)?,
        content: match field(json, "content") {
            None => None,
            Some(content) => content_value(&content, &path.key("content"))?,
        },
        tool_call_id: optional_string(json, "tool_call_id", path)?,
        tool_calls: each(
            &list(json, "tool_calls", path, "an array of tool calls or null")?,
            &path.key("tool_calls"),
            nested_tool_call,
        )?,
        metadata: field(json, "metadata").map(Metadata::Given),
        wire_protocol: optional_enum(json, "wire_protocol", path)?,
    })
}

/// A message role: absent is `invalid_input` (it is required); anything but the four names,
/// `null` included, is `unsupported_role`.
fn role<J: Json>(json: &J, path: &Path<'_>) -> Result<Role> {
    let at = path.key("role");
    let value = json
        .get("role")
        .ok_or_else(|| Error::missing(&at, "the message role"))?;
    let found = value.as_str();
    found.as_deref().and_then(Role::parse).ok_or_else(|| {
        Error::new(
            ErrorCode::UnsupportedRole,
            &at,
            text!(
                "Unsupported role ",
                shown(&value),
                " at ",
                at,
                ": a Sycophant message's role is ",
                quoted(Role::NAMES),
                "."
            ),
        )
    })
}

/// A `content` value: null, a string, or an array of content parts.
fn content_value<J: Json>(value: &J, path: &Path<'_>) -> Result<Option<Content<J>>> {
    match value.kind() {
        Kind::Null => Ok(None),
        Kind::String => Ok(Some(Content::Text(value.clone()))),
        Kind::Array => Ok(Some(Content::Parts(each(
            &value.elements().unwrap_or_default(),
            path,
            content_part,
        )?))),
        other => Err(Error::expected(
            path,
            "a string, an array of content parts, or null",
            other,
        )),
    }
}

/// A content part in a list, told apart by its `__type__`, or, when that is absent (it defaults
/// upstream), by its `type` literal.
fn content_part<J: Json>(part: &J, path: &Path<'_>) -> Result<Part<J>> {
    object(part, path, "a content part object")?;
    let name = match type_tag(part, path)? {
        Some(name) if part_literal(name).is_some() => name,
        Some(other) => return Err(wrong_type(path, "a content part", other)),
        None => match field(part, "type") {
            None => return Err(missing_type(path)),
            Some(literal) => {
                let found = literal.as_str();
                found
                    .as_deref()
                    .and_then(|s| PART_TYPES.iter().find(|(_, l)| *l == s))
                    .map(|(name, _)| *name)
                    .ok_or_else(|| {
                        let names: Vec<&str> = PART_TYPES.iter().map(|(_, l)| *l).collect();
                        Error::new(
                            ErrorCode::InvalidInput,
                            &path.key("type"),
                            text!(
                                "Expected a content part type (",
                                quoted(&names),
                                ") at ",
                                path.key("type"),
                                ", got ",
                                shown(&literal),
                                "."
                            ),
                        )
                    })?
            }
        },
    };
    part_fields(name, part, path)
}

/// The content part types and their `type` literals.
const PART_TYPES: [(TypeName, &str); 5] = [
    (TypeName::Text, "text"),
    (TypeName::Image, "image"),
    (TypeName::Document, "document"),
    (TypeName::Thinking, "thinking"),
    (TypeName::RedactedThinking, "redacted_thinking"),
];

fn part_literal(name: TypeName) -> Option<&'static str> {
    PART_TYPES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, literal)| *literal)
}

/// The fields of a content part whose type is known. Its `type`, when given, must be the type's
/// literal.
fn part_fields<J: Json>(name: TypeName, json: &J, path: &Path<'_>) -> Result<Part<J>> {
    if let (Some(literal), Some(given)) = (part_literal(name), field(json, "type")) {
        if given.as_str().as_deref() != Some(literal) {
            let at = path.key("type");
            return Err(Error::new(
                ErrorCode::InvalidInput,
                &at,
                text!(
                    "Expected \"",
                    literal,
                    "\" at ",
                    at,
                    " (the type of a ",
                    name.as_str(),
                    "), got ",
                    shown(&given),
                    "."
                ),
            ));
        }
    }
    Ok(match name {
        TypeName::Text => Part::Text(Text {
            text: required_string(json, "text", path)?,
            citations: each(
                &list(json, "citations", path, "an array of citations or null")?,
                &path.key("citations"),
                nested_citation,
            )?,
        }),
        TypeName::Image => Part::Image(Image {
            url: optional_string(json, "url", path)?,
            data: optional_string(json, "data", path)?,
            media_type: optional_string(json, "media_type", path)?,
        }),
        TypeName::Document => Part::Document(Document {
            data: optional_string(json, "data", path)?,
            url: optional_string(json, "url", path)?,
            file_id: optional_string(json, "file_id", path)?,
            media_type: optional_string(json, "media_type", path)?,
            name: optional_string(json, "name", path)?,
            citations: optional_bool(json, "citations", path)?.unwrap_or(false),
        }),
        TypeName::Thinking => Part::Thinking(Thinking {
            id: optional_string(json, "id", path)?,
            text: optional_string(json, "text", path)?,
            summary: optional_string(json, "summary", path)?,
            signature: optional_string(json, "signature", path)?,
        }),
        TypeName::RedactedThinking => Part::RedactedThinking(RedactedThinking {
            data: required_string(json, "data", path)?,
        }),
        other => return Err(wrong_type(path, "a content part", other)),
    })
}

/// A tool call nested in a message (or given to `toolResultMessage`): its `__type__` may be left
/// out (it defaults upstream), but when given it must be `"ToolCall"`.
fn nested_tool_call<J: Json>(json: &J, path: &Path<'_>) -> Result<ToolCall<J>> {
    object(json, path, "a tool call object")?;
    match type_tag(json, path)? {
        None | Some(TypeName::ToolCall) => tool_call_fields(json, path),
        Some(other) => Err(wrong_type(path, "a ToolCall", other)),
    }
}

fn tool_call_fields<J: Json>(json: &J, path: &Path<'_>) -> Result<ToolCall<J>> {
    Ok(ToolCall {
        id: required_string(json, "id", path)?,
        name: required_string(json, "name", path)?,
        arguments: field(json, "arguments"),
        metadata: field(json, "metadata"),
    })
}

/// A citation nested in a Text part: like a nested tool call, `__type__` may be left out.
fn nested_citation<J: Json>(json: &J, path: &Path<'_>) -> Result<Citation<J>> {
    object(json, path, "a citation object")?;
    match type_tag(json, path)? {
        None | Some(TypeName::Citation) => citation_fields(json, path),
        Some(other) => Err(wrong_type(path, "a Citation", other)),
    }
}

fn citation_fields<J: Json>(json: &J, path: &Path<'_>) -> Result<Citation<J>> {
    Ok(Citation {
        kind: optional_enum(json, "type", path)?,
        cited_text: optional_string(json, "cited_text", path)?,
        document_index: optional_integer(json, "document_index", path)?,
        document_title: optional_string(json, "document_title", path)?,
        file_id: optional_string(json, "file_id", path)?,
        unit: optional_enum(json, "unit", path)?,
        start_index: optional_integer(json, "start_index", path)?,
        end_index: optional_integer(json, "end_index", path)?,
        url: optional_string(json, "url", path)?,
        title: optional_string(json, "title", path)?,
        source: optional_string(json, "source", path)?,
    })
}

// ---------------------------------------------------------------------------------------------
// Field readers. An explicit `null` on an optional field counts as absent (api.md).

/// The value under `key`, with `null` folded into absent.
fn field<J: Json>(json: &J, key: &str) -> Option<J> {
    json.get_non_null(key)
}

fn object<J: Json>(json: &J, path: &Path<'_>, what: &str) -> Result<()> {
    match json.kind() {
        Kind::Object => Ok(()),
        other => Err(Error::expected(path, what, other)),
    }
}

fn required_string<J: Json>(json: &J, key: &str, path: &Path<'_>) -> Result<J> {
    let at = path.key(key);
    match field(json, key) {
        None => Err(Error::missing(
            &at,
            &text!("the required string ", crate::error::quoted(key)),
        )),
        Some(v) if v.kind() == Kind::String => Ok(v),
        Some(v) => Err(Error::expected(&at, "a string", v.kind())),
    }
}

fn optional_string<J: Json>(json: &J, key: &str, path: &Path<'_>) -> Result<Option<J>> {
    match field(json, key) {
        None => Ok(None),
        Some(v) if v.kind() == Kind::String => Ok(Some(v)),
        Some(v) => Err(Error::expected(
            &path.key(key),
            "a string or null",
            v.kind(),
        )),
    }
}

fn optional_integer<J: Json>(json: &J, key: &str, path: &Path<'_>) -> Result<Option<J>> {
    match field(json, key) {
        None => Ok(None),
        Some(v) if matches!(v.as_number(), Some(Number::Int(_))) => Ok(Some(v)),
        Some(v) => {
            let at = path.key(key);
            let got = if v.kind() == Kind::Number {
                "a number that is not an integer"
            } else {
                v.kind().name()
            };
            Err(Error::new(
                ErrorCode::InvalidInput,
                &at,
                text!("Expected an integer or null at ", at, ", got ", got, "."),
            ))
        }
    }
}

fn optional_bool<J: Json>(json: &J, key: &str, path: &Path<'_>) -> Result<Option<bool>> {
    match field(json, key) {
        None => Ok(None),
        Some(v) => v
            .as_bool()
            .map(Some)
            .ok_or_else(|| Error::expected(&path.key(key), "a boolean or null", v.kind())),
    }
}

fn optional_enum<J: Json, E: StringEnum>(
    json: &J,
    key: &str,
    path: &Path<'_>,
) -> Result<Option<E>> {
    let Some(value) = field(json, key) else {
        return Ok(None);
    };
    let found = value.as_str();
    match found.as_deref().and_then(E::parse) {
        Some(e) => Ok(Some(e)),
        None => Err(not_one_of(E::NAMES, &value, key, path)),
    }
}

/// The error of `optional_enum`, made once for every enum.
fn not_one_of<J: Json>(names: &[&str], value: &J, key: &str, path: &Path<'_>) -> Error {
    let at = path.key(key);
    Error::new(
        ErrorCode::InvalidInput,
        &at,
        text!(
            "Expected ",
            quoted(names),
            " or null at ",
            at,
            ", got ",
            shown(value),
            "."
        ),
    )
}

/// A list where `null` or absent is empty; anything else that is not an array is an error.
fn list<J: Json>(json: &J, key: &str, path: &Path<'_>, what: &str) -> Result<Vec<J>> {
    match field(json, key) {
        None => Ok(Vec::new()),
        Some(v) => v
            .elements()
            .ok_or_else(|| Error::expected(&path.key(key), what, v.kind())),
    }
}

/// Reads each element of a list with `read`, at `path[i]`.
fn each<J: Json, T>(
    items: &[J],
    path: &Path<'_>,
    read: fn(&J, &Path<'_>) -> Result<T>,
) -> Result<Vec<T>> {
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        out.push(read(item, &path.index(i))?);
    }
    Ok(out)
}

/// The `__type__` of an object: `None` when absent or null, else a known name (`unknown_type`
/// otherwise).
fn type_tag<J: Json>(json: &J, path: &Path<'_>) -> Result<Option<TypeName>> {
    let Some(tag) = field(json, "__type__") else {
        return Ok(None);
    };
    let found = tag.as_str();
    match found.as_deref().and_then(TypeName::parse) {
        Some(name) => Ok(Some(name)),
        None => {
            let at = path.key("__type__");
            Err(Error::new(
                ErrorCode::UnknownType,
                &at,
                text!("unknown serializable type: ", shown(&tag), " at ", at, "."),
            ))
        }
    }
}

fn missing_type(path: &Path<'_>) -> Error {
    let at = path.key("__type__");
    Error::new(
        ErrorCode::MissingType,
        &at,
        text!("missing __type__ key in serialized data at ", at, "."),
    )
}

/// A known `__type__` where another was needed.
fn wrong_type(path: &Path<'_>, expected: &str, got: TypeName) -> Error {
    let at = path.key("__type__");
    Error::new(
        ErrorCode::InvalidInput,
        &at,
        text!(
            "Expected ",
            expected,
            " at ",
            at,
            ", got \"",
            got.as_str(),
            "\"."
        ),
    )
}

/// A scalar as Elixir's `inspect` would show it, for error messages: strings quoted, `nil`,
/// booleans and integers as written, and the kind of anything else. (Floats are not printed:
/// float formatting would add about 25 KB to the wasm for one error message.)
fn shown<J: Json>(value: &J) -> String {
    match value.kind() {
        Kind::String => crate::error::quoted(&value.as_str().unwrap_or_default()),
        Kind::Null => "nil".to_string(),
        Kind::Bool => if value.as_bool() == Some(true) {
            "true"
        } else {
            "false"
        }
        .into(),
        Kind::Number => match value.as_number() {
            Some(Number::Int(i)) => {
                i64::try_from(i).map_or_else(|_| "a number".into(), |i| text!(i))
            }
            _ => "a number".to_string(),
        },
        other => other.name().to_string(),
    }
}

/// `"a", "b" or "c"`.
fn quoted(names: &[&str]) -> String {
    let mut out = String::new();
    for (i, name) in names.iter().enumerate() {
        if i > 0 {
            out.push_str(if i + 1 == names.len() { " or " } else { ", " });
        }
        out.push('"');
        out.push_str(name);
        out.push('"');
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Display: a Sycophant message as the LangChain model the display items are extracted from.

/// Reads a Sycophant message at `path` and maps it to the LangChain model (api.md): role
/// `tool_result` becomes a `tool` message holding one result `{tool_call_id, name:
/// metadata.tool_name, content, is_error: false, is_interrupt: false}` whose content is the string
/// content or the Text parts (joined with `"\n"` when displayed); for the other roles, Text parts
/// become text parts and Thinking parts thinking parts (their `text`, else their `summary`), while
/// RedactedThinking, Image and Document parts give nothing. Tool calls become calls
/// `{call_id: id, name, arguments (default {}), display_text: null}`.
pub fn display_message<J: Json>(json: &J, path: &Path<'_>) -> Result<lc::Message<J>> {
    let message = parse_message(json, path)?;
    let tool_calls = message
        .tool_calls
        .into_iter()
        .map(|call| lc::ToolCall {
            call_id: Some(call.id),
            name: Some(call.name),
            arguments: Some(call.arguments.unwrap_or_else(J::empty_object)),
            display_text: None,
        })
        .collect();
    let text_part = |text: &J| lc::ContentPart {
        part_type: lc::PartType::Text,
        content: Some(text.clone()),
    };
    let role = match message.role {
        Role::User => lc::Role::User,
        Role::Assistant => lc::Role::Assistant,
        Role::System => lc::Role::System,
        Role::ToolResult => lc::Role::Tool,
    };
    if message.role == Role::ToolResult {
        let content = match &message.content {
            None => lc::ResultContent::Other,
            Some(Content::Text(text)) => lc::ResultContent::Text(text.clone()),
            Some(Content::Parts(parts)) => lc::ResultContent::Parts(
                parts
                    .iter()
                    .filter_map(|part| match part {
                        Part::Text(t) => Some(text_part(&t.text)),
                        _ => None,
                    })
                    .collect(),
            ),
        };
        let name = match &message.metadata {
            Some(Metadata::Given(metadata)) => metadata
                .get("tool_name")
                .filter(|name| name.kind() == Kind::String),
            Some(Metadata::ToolName(name)) => Some(name.clone()),
            None => None,
        };
        let result = lc::ToolResult {
            tool_call_id: message.tool_call_id,
            name,
            content,
            is_error: Some(false),
            is_interrupt: Some(false),
            message_expansion: None,
        };
        return Ok(lc::Message {
            role,
            content: lc::Content::None,
            tool_calls,
            tool_results: vec![result],
        });
    }
    let content = match message.content {
        None => lc::Content::None,
        Some(Content::Text(text)) => lc::Content::Text(text),
        Some(Content::Parts(parts)) => lc::Content::Parts(
            parts
                .iter()
                .filter_map(|part| match part {
                    Part::Text(t) => Some(text_part(&t.text)),
                    Part::Thinking(t) => Some(lc::ContentPart {
                        part_type: lc::PartType::Thinking,
                        content: t
                            .text
                            .clone()
                            .filter(|text| !text.is_empty_str())
                            .or_else(|| t.summary.clone()),
                    }),
                    Part::Image(_) | Part::Document(_) | Part::RedactedThinking(_) => None,
                })
                .collect(),
        ),
    };
    Ok(lc::Message {
        role,
        content,
        tool_calls,
        tool_results: Vec::new(),
    })
}

// ---------------------------------------------------------------------------------------------
// Canonical JSON

/// True for the values `to_map` leaves out besides nil: `[]` and `{}` (an emptiness check only).
fn is_empty_collection<J: Json>(value: &J) -> bool {
    match value.kind() {
        Kind::Array => value.elements().is_some_and(|e| e.is_empty()),
        Kind::Object => value.entries().is_some_and(|e| e.is_empty()),
        _ => false,
    }
}

/// An object being written: `__type__` first, then fields, leaving out nil, `[]` and `{}`.
struct Fields<M>(M);

/// Starts writing a struct: `__type__` first.
fn start<S: Serializer>(
    s: S,
    type_name: TypeName,
) -> core::result::Result<Fields<S::SerializeMap>, S::Error> {
    let mut map = s.serialize_map(None)?;
    map.serialize_entry("__type__", type_name.as_str())?;
    Ok(Fields(map))
}

impl<M: SerializeMap> Fields<M> {
    fn put<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), M::Error> {
        self.0.serialize_entry(key, value)
    }

    fn opt<T: Serialize>(&mut self, key: &str, value: &Option<T>) -> Result<(), M::Error> {
        match value {
            Some(v) => self.0.serialize_entry(key, v),
            None => Ok(()),
        }
    }

    fn list<T: Serialize>(&mut self, key: &str, value: &[T]) -> Result<(), M::Error> {
        if value.is_empty() {
            Ok(())
        } else {
            self.0.serialize_entry(key, value)
        }
    }

    /// An arbitrary value passed through verbatim unless it is `[]` or `{}`.
    fn any<J: Json + Serialize>(&mut self, key: &str, value: Option<&J>) -> Result<(), M::Error> {
        match value {
            Some(v) if !is_empty_collection(v) => self.0.serialize_entry(key, v),
            _ => Ok(()),
        }
    }

    fn end(self) -> Result<M::Ok, M::Error> {
        self.0.end()
    }
}

impl<J: Json + Serialize> Serialize for Message<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        let mut map = start(s, TypeName::Message)?;
        map.put("role", self.role.as_str())?;
        match &self.content {
            Some(Content::Text(text)) => map.put("content", text)?,
            Some(Content::Parts(parts)) => map.list("content", parts)?,
            None => {}
        }
        map.opt("tool_call_id", &self.tool_call_id)?;
        map.list("tool_calls", &self.tool_calls)?;
        match &self.metadata {
            Some(Metadata::Given(metadata)) => map.any("metadata", Some(metadata))?,
            Some(Metadata::ToolName(name)) => map.put("metadata", &ToolNameMap(name))?,
            None => {}
        }
        map.opt("wire_protocol", &self.wire_protocol.map(StringEnum::as_str))?;
        map.end()
    }
}

/// `{"tool_name": name}`.
struct ToolNameMap<'a, J>(&'a J);

impl<J: Serialize> Serialize for ToolNameMap<'_, J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(1))?;
        map.serialize_entry("tool_name", self.0)?;
        map.end()
    }
}

impl<J: Json + Serialize> Serialize for Part<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        match self {
            Part::Text(p) => {
                let mut map = start(s, TypeName::Text)?;
                map.put("type", "text")?;
                map.put("text", &p.text)?;
                map.list("citations", &p.citations)?;
                map.end()
            }
            Part::Image(p) => {
                let mut map = start(s, TypeName::Image)?;
                map.put("type", "image")?;
                map.opt("url", &p.url)?;
                map.opt("data", &p.data)?;
                map.opt("media_type", &p.media_type)?;
                map.end()
            }
            Part::Document(p) => {
                let mut map = start(s, TypeName::Document)?;
                map.put("type", "document")?;
                map.opt("data", &p.data)?;
                map.opt("url", &p.url)?;
                map.opt("file_id", &p.file_id)?;
                map.opt("media_type", &p.media_type)?;
                map.opt("name", &p.name)?;
                map.put("citations", &p.citations)?;
                map.end()
            }
            Part::Thinking(p) => {
                let mut map = start(s, TypeName::Thinking)?;
                map.put("type", "thinking")?;
                map.opt("id", &p.id)?;
                map.opt("text", &p.text)?;
                map.opt("summary", &p.summary)?;
                map.opt("signature", &p.signature)?;
                map.end()
            }
            Part::RedactedThinking(p) => {
                let mut map = start(s, TypeName::RedactedThinking)?;
                map.put("type", "redacted_thinking")?;
                map.put("data", &p.data)?;
                map.end()
            }
        }
    }
}

impl<J: Json + Serialize> Serialize for ToolCall<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        let mut map = start(s, TypeName::ToolCall)?;
        map.put("id", &self.id)?;
        map.put("name", &self.name)?;
        map.any("arguments", self.arguments.as_ref())?;
        map.any("metadata", self.metadata.as_ref())?;
        map.end()
    }
}

impl<J: Json + Serialize> Serialize for Citation<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        let mut map = start(s, TypeName::Citation)?;
        map.opt("type", &self.kind.map(StringEnum::as_str))?;
        map.opt("cited_text", &self.cited_text)?;
        map.opt("document_index", &self.document_index)?;
        map.opt("document_title", &self.document_title)?;
        map.opt("file_id", &self.file_id)?;
        map.opt("unit", &self.unit.map(StringEnum::as_str))?;
        map.opt("start_index", &self.start_index)?;
        map.opt("end_index", &self.end_index)?;
        map.opt("url", &self.url)?;
        map.opt("title", &self.title)?;
        map.opt("source", &self.source)?;
        map.end()
    }
}

impl<J: Json + Serialize> Serialize for Value<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        match self {
            Value::Message(m) => m.serialize(s),
            Value::Part(p) => p.serialize(s),
            Value::ToolCall(c) => c.serialize(s),
            Value::Citation(c) => c.serialize(s),
        }
    }
}
