//! Sycophant messages (sycophant v0.5.0; docs/INPUT-FORMATS.md "Sycophant messages"): the model,
//! the four constructors, the canonical JSON and the decoder. Like upstream, this knows nothing of
//! LangChain: how a Sycophant message is displayed, as the LangChain model, is
//! [`crate::message::from_sycophant`].
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

//! The eight structs are not eight Rust types but one, [`Struct`]: its type and one [`Slot`] per
//! field of its [schema](schema), so that one reader checks every field and one writer writes it
//! (one Rust type per struct compiled a reader, a writer and drop code for each: about a tenth of
//! the core's size, issue 8).

use crate::error::text;
use crate::error::{Error, ErrorCode, Path, Result};
use crate::json::fields::{field, object};
use crate::json::{Json, Kind, Number};
use crate::prelude::*;
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

/// The `__type__` names the decoder knows; a content part's type (`Text` to `RedactedThinking`)
/// also has a `type` literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeName {
    Message,
    Text,
    Image,
    Document,
    Thinking,
    RedactedThinking,
    ToolCall,
    Citation,
}

const TYPE_NAMES: [&str; 8] = [
    "Message",
    "Text",
    "Image",
    "Document",
    "Thinking",
    "RedactedThinking",
    "ToolCall",
    "Citation",
];

/// The content parts' `type` literals, in `TypeName` order from `Text`.
const PART_TYPES: [&str; 5] = ["text", "image", "document", "thinking", "redacted_thinking"];

impl TypeName {
    const ALL: [TypeName; 8] = [
        TypeName::Message,
        TypeName::Text,
        TypeName::Image,
        TypeName::Document,
        TypeName::Thinking,
        TypeName::RedactedThinking,
        TypeName::ToolCall,
        TypeName::Citation,
    ];

    pub fn as_str(self) -> &'static str {
        TYPE_NAMES[self as usize]
    }

    fn parse(s: &str) -> Option<TypeName> {
        let i = TYPE_NAMES.iter().position(|name| *name == s)?;
        Some(TypeName::ALL[i])
    }

    /// A content part's `type` literal; `None` for a message, tool call or citation.
    fn literal(self) -> Option<&'static str> {
        PART_TYPES.get((self as usize).wrapping_sub(1)).copied()
    }
}

/// Message roles. `tool_result` is a role; there is no `tool` role.
pub const ROLES: [&str; 4] = ["user", "assistant", "system", "tool_result"];
/// Sycophant's `wire_protocol` values, from the registry of formats.
use crate::registry::SYCOPHANT_NAMES as WIRE_PROTOCOLS;
const CITATION_TYPES: [&str; 5] = [
    "page_location",
    "char_location",
    "content_block_location",
    "web_search_result_location",
    "search_result_location",
];
const CITATION_UNITS: [&str; 3] = ["page", "char", "block"];

/// What one field holds, and so how it is read and written.
#[derive(Clone, Copy)]
enum Field {
    /// A string or nil.
    Str,
    /// A string, required.
    Required,
    /// An integer or nil (kept as the given value).
    Int,
    /// A boolean, `false` when absent or nil, always written (`Document.citations`).
    Bool,
    /// One of the names or nil.
    Name(&'static [&'static str]),
    /// Any JSON, only moved; left out of the JSON when `[]` or `{}`.
    Any,
    /// A list of structs of one type (their `__type__` may be left out), or nil; the text is
    /// what the error says was expected of it.
    List(TypeName, &'static str),
    /// A message's role: required, and `unsupported_role` when not one of `ROLES`.
    Role,
    /// A message's content: a string, a list of content parts, or nil.
    Content,
}

/// Each struct's fields, in declared order (the order they are read, and so checked, and
/// written).
fn schema(name: TypeName) -> &'static [(&'static str, Field)] {
    const TOOL_CALLS: Field = Field::List(TypeName::ToolCall, "an array of tool calls or null");
    const CITATIONS: Field = Field::List(TypeName::Citation, "an array of citations or null");
    match name {
        TypeName::Message => &[
            ("role", Field::Role),
            ("content", Field::Content),
            ("tool_call_id", Field::Str),
            ("tool_calls", TOOL_CALLS),
            ("metadata", Field::Any),
            ("wire_protocol", Field::Name(&WIRE_PROTOCOLS)),
        ],
        TypeName::Text => &[("text", Field::Required), ("citations", CITATIONS)],
        TypeName::Image => &[
            ("url", Field::Str),
            ("data", Field::Str),
            ("media_type", Field::Str),
        ],
        TypeName::Document => &[
            ("data", Field::Str),
            ("url", Field::Str),
            ("file_id", Field::Str),
            ("media_type", Field::Str),
            ("name", Field::Str),
            ("citations", Field::Bool),
        ],
        TypeName::Thinking => &[
            ("id", Field::Str),
            ("text", Field::Str),
            ("summary", Field::Str),
            ("signature", Field::Str),
        ],
        TypeName::RedactedThinking => &[("data", Field::Required)],
        TypeName::ToolCall => &[
            ("id", Field::Required),
            ("name", Field::Required),
            ("arguments", Field::Any),
            ("metadata", Field::Any),
        ],
        TypeName::Citation => &[
            ("type", Field::Name(&CITATION_TYPES)),
            ("cited_text", Field::Str),
            ("document_index", Field::Int),
            ("document_title", Field::Str),
            ("file_id", Field::Str),
            ("unit", Field::Name(&CITATION_UNITS)),
            ("start_index", Field::Int),
            ("end_index", Field::Int),
            ("url", Field::Str),
            ("title", Field::Str),
            ("source", Field::Str),
        ],
    }
}

/// One of the eight Sycophant structs (`Sycophant.Message`, the five content parts,
/// `Sycophant.ToolCall`, `Sycophant.Citation`): its type and its fields' values, one slot per
/// field of its schema, in order.
///
/// ```json
/// {"__type__": "Message", "role": "tool_result", "content": "72F and sunny",
///  "tool_call_id": "call_123", "metadata": {"tool_name": "get_weather"}}
/// ```
#[derive(Clone, Debug)]
pub struct Struct<J> {
    pub type_name: TypeName,
    pub slots: Vec<Slot<J>>,
}

/// A `Sycophant.Message`: role, content, tool_call_id, tool_calls, metadata, wire_protocol.
pub type Message<J> = Struct<J>;

/// One field's value.
#[derive(Clone, Debug)]
pub enum Slot<J> {
    /// Nil: absent or `null`, or an empty list of tool calls.
    Absent,
    /// A string, an integer or any JSON, as given (a message's string content too).
    Value(J),
    Bool(bool),
    /// One of a field's names (a role, a wire protocol, a citation type or unit).
    Name(&'static str),
    /// Structs: tool calls, citations, or a message's content parts. Empty is left out of the
    /// JSON (an empty part list is kept, as given).
    List(Vec<Struct<J>>),
    /// `{"tool_name": name}`, the metadata `toolResultMessage` sets.
    ToolName(J),
}

impl<J> Slot<J> {
    /// The value of a `Value` slot.
    pub fn value(&self) -> Option<&J> {
        match self {
            Slot::Value(v) => Some(v),
            _ => None,
        }
    }
}

impl<J> Struct<J> {
    /// The value of the `i`th field, when it holds one.
    pub fn value(&self, i: usize) -> Option<&J> {
        self.slots.get(i).and_then(Slot::value)
    }

    /// The slot of the field named `key`; `None` if the struct has no such field.
    pub fn get(&self, key: &str) -> Option<&Slot<J>> {
        let i = schema(self.type_name).iter().position(|(k, _)| *k == key)?;
        self.slots.get(i)
    }
}

// ---------------------------------------------------------------------------------------------
// Constructors

/// `Message.user/1`: `{role: "user", content}`. `content` is a string, a list of content parts (each
/// with its `__type__` or its `type`), or null.
pub fn user<J: Json>(content: &J) -> Result<Message<J>> {
    built(0, content)
}

/// `Message.assistant/1`.
pub fn assistant<J: Json>(content: &J) -> Result<Message<J>> {
    built(1, content)
}

/// `Message.system/1`.
pub fn system<J: Json>(content: &J) -> Result<Message<J>> {
    built(2, content)
}

/// A message of role `ROLES[role]` and `content`, with no other field set.
fn built<J: Json>(role: usize, content: &J) -> Result<Message<J>> {
    let content = content_value(content, &Path::ROOT)?;
    Ok(message(role, content, Slot::Absent, Slot::Absent))
}

fn message<J>(role: usize, content: Slot<J>, id: Slot<J>, metadata: Slot<J>) -> Message<J> {
    Struct {
        type_name: TypeName::Message,
        slots: vec![
            Slot::Name(ROLES[role]),
            content,
            id,
            Slot::Absent,
            metadata,
            Slot::Absent,
        ],
    }
}

/// `Message.tool_result/2`: `{role: "tool_result", content: result, tool_call_id: call.id,
/// metadata: {"tool_name": call.name}}`. Paths start at `$.toolCall` and `$.result`.
pub fn tool_result<J: Json>(tool_call: &J, result: &J) -> Result<Message<J>> {
    let call = nested(TypeName::ToolCall, tool_call, &Path::Root("$.toolCall"))?;
    let content = content_value(result, &Path::Root("$.result"))?;
    // The call's first two fields, its id and name (required, so both are values).
    let mut fields = call.slots.into_iter();
    let id = fields.next().unwrap_or(Slot::Absent);
    let name = match fields.next() {
        Some(Slot::Value(name)) => Slot::ToolName(name),
        _ => Slot::Absent,
    };
    Ok(message(3, content, id, name))
}

// ---------------------------------------------------------------------------------------------
// Decoding

/// `Serializable.Decoder.from_map/1`: the object's `__type__` names one of the eight known types,
/// whose fields are then read (unknown keys ignored, absent or null optional fields at their
/// defaults).
pub fn decode<J: Json>(json: &J) -> Result<Struct<J>> {
    let path = Path::ROOT;
    object(json, &path, "a serialized Sycophant struct")?;
    let Some(name) = type_tag(json, &path)? else {
        return Err(missing_type(&path));
    };
    fields(name, json, &path)
}

/// Reads a Sycophant message (`__type__` must be `"Message"`) at `path`.
pub fn parse_message<J: Json>(json: &J, path: &Path<'_>) -> Result<Message<J>> {
    object(json, path, "a Sycophant message object")?;
    match type_tag(json, path)? {
        None => Err(missing_type(path)),
        Some(TypeName::Message) => fields(TypeName::Message, json, path),
        Some(other) => Err(wrong_type(path, "a Message", other)),
    }
}

/// A tool call or citation in a list (or a tool call given to `toolResultMessage`): its
/// `__type__` may be left out (it defaults upstream), but when given it must be its type.
fn nested<J: Json>(name: TypeName, json: &J, path: &Path<'_>) -> Result<Struct<J>> {
    let (object_of, type_of) = match name {
        TypeName::ToolCall => ("a tool call object", "a ToolCall"),
        _ => ("a citation object", "a Citation"),
    };
    object(json, path, object_of)?;
    match type_tag(json, path)? {
        Some(other) if other != name => Err(wrong_type(path, type_of, other)),
        _ => fields(name, json, path),
    }
}

/// The fields of a struct whose type is known, read (and so checked) in declared order. A content
/// part's `type`, when given, must be the type's literal.
fn fields<J: Json>(name: TypeName, json: &J, path: &Path<'_>) -> Result<Struct<J>> {
    if let (Some(literal), Some(given)) = (name.literal(), field(json, "type")) {
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
    let schema = schema(name);
    let mut slots = Vec::with_capacity(schema.len());
    for &(key, kind) in schema {
        slots.push(read(json, key, kind, path)?);
    }
    Ok(Struct {
        type_name: name,
        slots,
    })
}

/// One field. An explicit `null` on an optional field counts as absent (docs/INPUT-FORMATS.md
/// "Reading").
fn read<J: Json>(json: &J, key: &str, kind: Field, path: &Path<'_>) -> Result<Slot<J>> {
    if let Field::Role = kind {
        return role(json, path);
    }
    let Some(v) = field(json, key) else {
        return match kind {
            Field::Required => Err(Error::missing(
                &path.key(key),
                &text!("the required string ", crate::error::quoted(key)),
            )),
            Field::Bool => Ok(Slot::Bool(false)),
            _ => Ok(Slot::Absent),
        };
    };
    let at = path.key(key);
    let expected = match kind {
        Field::Str | Field::Required if v.kind() == Kind::String => return Ok(Slot::Value(v)),
        Field::Str => "a string or null",
        Field::Required => "a string",
        Field::Int => {
            if let Some(Number::Int(_)) = v.as_number() {
                return Ok(Slot::Value(v));
            }
            let got = if v.kind() == Kind::Number {
                "a number that is not an integer"
            } else {
                v.kind().name()
            };
            return Err(Error::new(
                ErrorCode::InvalidInput,
                &at,
                text!("Expected an integer or null at ", at, ", got ", got, "."),
            ));
        }
        Field::Bool => match v.as_bool() {
            Some(b) => return Ok(Slot::Bool(b)),
            None => "a boolean or null",
        },
        Field::Name(names) => {
            let found = v.as_str();
            return match names.iter().find(|name| Some(**name) == found.as_deref()) {
                Some(name) => Ok(Slot::Name(name)),
                None => Err(Error::new(
                    ErrorCode::InvalidInput,
                    &at,
                    text!(
                        "Expected ",
                        quoted(names),
                        " or null at ",
                        at,
                        ", got ",
                        shown(&v),
                        "."
                    ),
                )),
            };
        }
        // (A role was read above.)
        Field::Any | Field::Role => return Ok(Slot::Value(v)),
        Field::List(name, what) => match v.elements() {
            Some(items) => {
                return each(&items, &at, |item, path| nested(name, item, path)).map(Slot::List)
            }
            None => what,
        },
        Field::Content => return content_value(&v, &at),
    };
    Err(Error::expected(&at, expected, v.kind()))
}

/// A message role: absent is `invalid_input` (it is required); anything but the four names,
/// `null` included, is `unsupported_role`.
fn role<J: Json>(json: &J, path: &Path<'_>) -> Result<Slot<J>> {
    let at = path.key("role");
    let value = json
        .get("role")
        .ok_or_else(|| Error::missing(&at, "the message role"))?;
    let found = value.as_str();
    match ROLES.iter().find(|role| Some(**role) == found.as_deref()) {
        Some(role) => Ok(Slot::Name(role)),
        None => Err(Error::new(
            ErrorCode::UnsupportedRole,
            &at,
            text!(
                "Unsupported role ",
                shown(&value),
                " at ",
                at,
                ": a Sycophant message's role is ",
                quoted(&ROLES),
                "."
            ),
        )),
    }
}

/// A `content` value: null, a string, or an array of content parts.
fn content_value<J: Json>(value: &J, path: &Path<'_>) -> Result<Slot<J>> {
    match value.kind() {
        Kind::Null => Ok(Slot::Absent),
        Kind::String => Ok(Slot::Value(value.clone())),
        Kind::Array => {
            each(&value.elements().unwrap_or_default(), path, content_part).map(Slot::List)
        }
        other => Err(Error::expected(
            path,
            "a string, an array of content parts, or null",
            other,
        )),
    }
}

/// A content part in a list, told apart by its `__type__`, or, when that is absent (it defaults
/// upstream), by its `type` literal.
fn content_part<J: Json>(part: &J, path: &Path<'_>) -> Result<Struct<J>> {
    object(part, path, "a content part object")?;
    let name = match type_tag(part, path)? {
        Some(name) if name.literal().is_some() => name,
        Some(other) => return Err(wrong_type(path, "a content part", other)),
        None => match field(part, "type") {
            None => return Err(missing_type(path)),
            Some(literal) => {
                let found = literal.as_str();
                match PART_TYPES.iter().position(|l| Some(*l) == found.as_deref()) {
                    Some(i) => TypeName::ALL[i + 1],
                    None => {
                        let at = path.key("type");
                        return Err(Error::new(
                            ErrorCode::InvalidInput,
                            &at,
                            text!(
                                "Expected a content part type (",
                                quoted(&PART_TYPES),
                                ") at ",
                                at,
                                ", got ",
                                shown(&literal),
                                "."
                            ),
                        ));
                    }
                }
            }
        },
    };
    fields(name, part, path)
}

/// Reads each element of a list with `read`, at `path[i]`.
fn each<J: Json, T>(
    items: &[J],
    path: &Path<'_>,
    read: impl Fn(&J, &Path<'_>) -> Result<T>,
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
// Canonical JSON

/// True for the values `to_map` leaves out besides nil: `[]` and `{}` (an emptiness check only).
fn is_empty_collection<J: Json>(value: &J) -> bool {
    match value.kind() {
        Kind::Array => value.elements().is_some_and(|e| e.is_empty()),
        Kind::Object => value.entries().is_some_and(|e| e.is_empty()),
        _ => false,
    }
}

/// `__type__` first, a content part's `type` literal, then the fields in declared order, leaving
/// out nil, empty lists, and `[]` and `{}` where any JSON is allowed.
impl<J: Json + Serialize> Serialize for Struct<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("__type__", self.type_name.as_str())?;
        if let Some(literal) = self.type_name.literal() {
            map.serialize_entry("type", literal)?;
        }
        for ((key, kind), slot) in schema(self.type_name).iter().zip(&self.slots) {
            match slot {
                Slot::Absent => {}
                Slot::Value(v) if matches!(kind, Field::Any) && is_empty_collection(v) => {}
                Slot::Value(v) => map.serialize_entry(key, v)?,
                Slot::Bool(b) => map.serialize_entry(key, b)?,
                Slot::Name(name) => map.serialize_entry(key, name)?,
                Slot::List(list) if list.is_empty() => {}
                Slot::List(list) => map.serialize_entry(key, list)?,
                Slot::ToolName(name) => map.serialize_entry(key, &ToolNameMap(name))?,
            }
        }
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
