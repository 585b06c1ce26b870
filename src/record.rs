//! Display-message records: the Sagents DisplayMessage schema template (seed 004) with Ecto 3.14's
//! `cast/3` and validations (docs/API.md "Cast", "Validations, in order"), as `newDisplayMessage`,
//! `changeDisplayMessage` and `validateDisplayMessage`.
//!
//! Each returns a [`Changeset`]: `{valid, errors, record}`, where `errors` maps a field to Ecto's
//! messages (most recent first, as `traverse_errors` lists them) and `record` is what Ecto's
//! `apply_changes` gives. Bad attributes are reported in `errors`, never as an [`Error`]; only an
//! `attrs` or `record` that is not an object is one.

use crate::display::ContentType;
use crate::elixir::{self, ToText};
use crate::error::{Path, Result};
use crate::json::{fields, Json, Kind, Number};
use crate::prelude::*;
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

/// The six record statuses.
pub const STATUSES: [&str; 6] = [
    "pending",
    "executing",
    "completed",
    "failed",
    "interrupted",
    "cancelled",
];

/// The four statuses of a todo entry in a `todo_snapshot`.
pub const TODO_STATUSES: [&str; 4] = ["pending", "in_progress", "completed", "cancelled"];

/// Ecto's messages, verbatim.
const BLANK: &str = "can't be blank";
const INVALID: &str = "is invalid";
const NEGATIVE: &str = "must be greater than or equal to 0";
const BAD_TODOS: &str = "todo_snapshot has invalid todo entries";

/// A field of the schema. Declared in alphabetical order, which is the order of the keys of
/// `errors` (a small Elixir map of atoms, encoded in key order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Field {
    Content,
    ContentType,
    ConversationId,
    MessageType,
    Metadata,
    Sequence,
    Status,
    ToolCallId,
}

/// The Ecto type of a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Type {
    String,
    Integer,
    Map,
}

impl Field {
    pub fn name(self) -> &'static str {
        match self {
            Field::Content => "content",
            Field::ContentType => "content_type",
            Field::ConversationId => "conversation_id",
            Field::MessageType => "message_type",
            Field::Metadata => "metadata",
            Field::Sequence => "sequence",
            Field::Status => "status",
            Field::ToolCallId => "tool_call_id",
        }
    }

    fn ty(self) -> Type {
        match self {
            Field::Content | Field::Metadata => Type::Map,
            Field::Sequence => Type::Integer,
            _ => Type::String,
        }
    }

    /// The schema default: `sequence` 0, `status` "completed", `metadata` {}, else nil.
    fn default<J>(self) -> Value<J> {
        match self {
            Field::Sequence => Value::Int(0),
            Field::Status => Value::Str("completed"),
            Field::Metadata => Value::EmptyMap,
            _ => Value::Nil,
        }
    }
}

/// The fields `cast` reads, in the template's order.
const CAST: [Field; 7] = [
    Field::MessageType,
    Field::Content,
    Field::ToolCallId,
    Field::ContentType,
    Field::Sequence,
    Field::Status,
    Field::Metadata,
];

/// The fields `validate_required` checks.
const REQUIRED: [Field; 4] = [
    Field::ConversationId,
    Field::MessageType,
    Field::Content,
    Field::ContentType,
];

/// The fields of a record, in the order of `DisplayMessage` (docs/API.md "The record").
const RECORD_ORDER: [Field; 8] = [
    Field::ConversationId,
    Field::MessageType,
    Field::ContentType,
    Field::Content,
    Field::ToolCallId,
    Field::Sequence,
    Field::Status,
    Field::Metadata,
];

/// The value of one field.
#[derive(Clone, Debug)]
pub enum Value<J> {
    Nil,
    /// A value of the input, handed back as is (never a JSON null: that is `Nil`).
    Given(J),
    /// An integer cast from a numeric string.
    Int(i128),
    /// A default string (`"completed"`).
    Str(&'static str),
    /// The default `{}`.
    EmptyMap,
}

impl<J: Json> Value<J> {
    fn of(json: J) -> Value<J> {
        if json.kind() == Kind::Null {
            Value::Nil
        } else {
            Value::Given(json)
        }
    }

    fn is_nil(&self) -> bool {
        matches!(self, Value::Nil)
    }

    /// The string, when the value is one.
    fn string(&self) -> Option<String> {
        match self {
            Value::Given(j) => j.as_str().map(|s| s.into_owned()),
            Value::Str(s) => Some((*s).to_string()),
            _ => None,
        }
    }

    /// The integer, when the value is one.
    fn integer(&self) -> Option<i128> {
        match self {
            Value::Int(i) => Some(*i),
            Value::Given(j) => match j.as_number() {
                Some(Number::Int(i)) => Some(i),
                _ => None,
            },
            _ => None,
        }
    }

    /// The value under `key` when the value is a map holding it.
    fn key(&self, key: &str) -> Option<J> {
        match self {
            Value::Given(j) if j.kind() == Kind::Object => j.get(key),
            _ => None,
        }
    }

    fn is_map(&self) -> bool {
        match self {
            Value::Given(j) => j.kind() == Kind::Object,
            Value::EmptyMap => true,
            _ => false,
        }
    }

    /// `missing?/3` of `validate_required`: nil, or a string that is empty once left-trimmed.
    fn is_missing(&self) -> bool {
        match self {
            Value::Nil => true,
            Value::Given(j) => j.as_str().is_some_and(|s| s.trim_start().is_empty()),
            Value::Str(s) => s.trim_start().is_empty(),
            _ => false,
        }
    }

    /// The value as string interpolation shows it, for the content-structure message. A value
    /// interpolation cannot show (a map, which upstream cannot get past) is shown inspected.
    fn interpolated(&self) -> String {
        match self {
            Value::Nil => String::new(),
            Value::Given(j) => elixir::interpolate(j).unwrap_or_else(|| elixir::inspect(j, ToText)),
            Value::Int(i) => crate::error::text!(i),
            Value::Str(s) => (*s).to_string(),
            Value::EmptyMap => "%{}".to_string(),
        }
    }
}

/// Elixir's `==` on two field values (`Ecto.Type.equal?/3` for these types): `1 == 1.0`, maps
/// equal key by key.
fn same<J: Json>(a: &Value<J>, b: &Value<J>) -> bool {
    match (a, b) {
        (Value::Nil, Value::Nil) | (Value::EmptyMap, Value::EmptyMap) => true,
        (Value::Given(x), Value::Given(y)) => equal(x, y, 1),
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Str(x), Value::Str(y)) => x == y,
        (Value::Int(i), Value::Given(j)) | (Value::Given(j), Value::Int(i)) => j
            .as_number()
            .is_some_and(|n| same_number(n, Number::Int(*i))),
        (Value::Str(s), Value::Given(j)) | (Value::Given(j), Value::Str(s)) => {
            j.as_str().is_some_and(|t| t == *s)
        }
        (Value::EmptyMap, Value::Given(j)) | (Value::Given(j), Value::EmptyMap) => {
            j.entries().is_some_and(|e| e.is_empty())
        }
        _ => false,
    }
}

fn same_number(a: Number, b: Number) -> bool {
    match (a, b) {
        (Number::Int(x), Number::Int(y)) => x == y,
        _ => a.as_f64() == b.as_f64(),
    }
}

/// Deep equality of two JSON values, looking no deeper than [`crate::json::MAX_DEPTH`] levels (deeper
/// values count as different, which at worst records an equal map as a change).
fn equal<J: Json>(a: &J, b: &J, depth: usize) -> bool {
    if depth > crate::json::MAX_DEPTH {
        return false;
    }
    match (a.kind(), b.kind()) {
        (Kind::Null, Kind::Null) => true,
        (Kind::Bool, Kind::Bool) => a.as_bool() == b.as_bool(),
        (Kind::Number, Kind::Number) => match (a.as_number(), b.as_number()) {
            (Some(x), Some(y)) => same_number(x, y),
            _ => false,
        },
        (Kind::String, Kind::String) => a.as_str() == b.as_str(),
        (Kind::Array, Kind::Array) => match (a.elements(), b.elements()) {
            (Some(x), Some(y)) => {
                x.len() == y.len() && x.iter().zip(&y).all(|(p, q)| equal(p, q, depth + 1))
            }
            _ => false,
        },
        (Kind::Object, Kind::Object) => match (a.entries(), b.entries()) {
            (Some(x), Some(y)) => {
                x.len() == y.len()
                    && x.iter()
                        .all(|(k, v)| b.get(k).is_some_and(|w| equal(v, &w, depth + 1)))
            }
            _ => false,
        },
        _ => false,
    }
}

/// A display-message record: the eight schema fields, plus `id` and `inserted_at` when the
/// record had them (they are never cast).
#[derive(Clone, Debug)]
pub struct Record<J> {
    pub id: Option<J>,
    pub conversation_id: Value<J>,
    pub message_type: Value<J>,
    pub content_type: Value<J>,
    pub content: Value<J>,
    pub tool_call_id: Value<J>,
    pub sequence: Value<J>,
    pub status: Value<J>,
    pub metadata: Value<J>,
    pub inserted_at: Option<J>,
}

impl<J: Json> Record<J> {
    /// `%DisplayMessage{}`: every field at its default.
    fn empty() -> Record<J> {
        Record {
            id: None,
            conversation_id: Field::ConversationId.default(),
            message_type: Field::MessageType.default(),
            content_type: Field::ContentType.default(),
            content: Field::Content.default(),
            tool_call_id: Field::ToolCallId.default(),
            sequence: Field::Sequence.default(),
            status: Field::Status.default(),
            metadata: Field::Metadata.default(),
            inserted_at: None,
        }
    }

    /// An existing record as given: an absent field takes its default, `null` is nil, any other
    /// value is kept as it is (a record's fields are data, not cast).
    fn load(record: &J) -> Record<J> {
        let mut loaded = Record::empty();
        for field in RECORD_ORDER {
            if let Some(value) = record.get(field.name()) {
                *loaded.field_mut(field) = Value::of(value);
            }
        }
        loaded.keep_identity(record);
        loaded
    }

    /// Keeps the record's `id` and `inserted_at` when they are present and not null.
    fn keep_identity(&mut self, record: &J) {
        let present = |key| record.get_non_null(key);
        self.id = present("id");
        self.inserted_at = present("inserted_at");
    }

    pub fn field(&self, field: Field) -> &Value<J> {
        match field {
            Field::Content => &self.content,
            Field::ContentType => &self.content_type,
            Field::ConversationId => &self.conversation_id,
            Field::MessageType => &self.message_type,
            Field::Metadata => &self.metadata,
            Field::Sequence => &self.sequence,
            Field::Status => &self.status,
            Field::ToolCallId => &self.tool_call_id,
        }
    }

    fn field_mut(&mut self, field: Field) -> &mut Value<J> {
        match field {
            Field::Content => &mut self.content,
            Field::ContentType => &mut self.content_type,
            Field::ConversationId => &mut self.conversation_id,
            Field::MessageType => &mut self.message_type,
            Field::Metadata => &mut self.metadata,
            Field::Sequence => &mut self.sequence,
            Field::Status => &mut self.status,
            Field::ToolCallId => &mut self.tool_call_id,
        }
    }
}

/// A number as JSON: integers within ±(2^53 − 1) exactly, larger ones as the nearest double
/// (JavaScript numbers cannot hold them).
fn serialize_int<S: Serializer>(i: i128, s: S) -> core::result::Result<S::Ok, S::Error> {
    const SAFE: i128 = 9_007_199_254_740_991;
    match i64::try_from(i) {
        Ok(small) if (-SAFE..=SAFE).contains(&i) => s.serialize_i64(small),
        _ => s.serialize_f64(i as f64),
    }
}

impl<J: Serialize> Serialize for Value<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        match self {
            Value::Nil => s.serialize_none(),
            Value::Given(j) => j.serialize(s),
            Value::Int(i) => serialize_int(*i, s),
            Value::Str(text) => s.serialize_str(text),
            Value::EmptyMap => s.serialize_map(Some(0))?.end(),
        }
    }
}

impl<J: Serialize + Json> Serialize for Record<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        if let Some(id) = &self.id {
            map.serialize_entry("id", id)?;
        }
        for field in RECORD_ORDER {
            map.serialize_entry(field.name(), self.field(field))?;
        }
        if let Some(inserted_at) = &self.inserted_at {
            map.serialize_entry("inserted_at", inserted_at)?;
        }
        map.end()
    }
}

/// The outcome of a changeset function: `{valid, errors, record}`.
#[derive(Clone, Debug)]
pub struct Changeset<J> {
    pub valid: bool,
    /// Each field's messages, fields in key order, messages most recent first.
    pub errors: Vec<(Field, Vec<String>)>,
    /// The record with the valid changes applied.
    pub record: Record<J>,
}

/// `errors` as a JSON object.
struct Errors<'a>(&'a [(Field, Vec<String>)]);

impl Serialize for Errors<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (field, messages) in self.0 {
            map.serialize_entry(field.name(), messages)?;
        }
        map.end()
    }
}

impl<J: Serialize + Json> Serialize for Changeset<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(3))?;
        map.serialize_entry("valid", &self.valid)?;
        map.serialize_entry("errors", &Errors(&self.errors))?;
        map.serialize_entry("record", &self.record)?;
        map.end()
    }
}

/// An Ecto changeset under construction: the data, the changes and the errors (oldest first).
struct Builder<J> {
    data: Record<J>,
    changes: Vec<(Field, Value<J>)>,
    errors: Vec<(Field, String)>,
}

impl<J: Json> Builder<J> {
    fn new(data: Record<J>) -> Self {
        Builder {
            data,
            changes: Vec::new(),
            errors: Vec::new(),
        }
    }

    fn change(&self, field: Field) -> Option<&Value<J>> {
        self.changes
            .iter()
            .find(|(f, _)| *f == field)
            .map(|(_, v)| v)
    }

    /// `get_field/2`: the change, else the data.
    fn effective(&self, field: Field) -> &Value<J> {
        self.change(field).unwrap_or_else(|| self.data.field(field))
    }

    fn has_error(&self, field: Field) -> bool {
        self.errors.iter().any(|(f, _)| *f == field)
    }

    fn error(&mut self, field: Field, message: impl Into<String>) {
        self.errors.push((field, message.into()));
    }

    /// Records `value` as the change of `field`, unless it equals the current data.
    fn put(&mut self, field: Field, value: Value<J>) {
        self.changes.retain(|(f, _)| *f != field);
        if !same(self.data.field(field), &value) {
            self.changes.push((field, value));
        }
    }

    /// `cast(data, attrs, permitted)`.
    fn cast(&mut self, attrs: &J) {
        for field in CAST {
            let Some(given) = attrs.get(field.name()) else {
                continue;
            };
            match cast_value(field, given) {
                Some(value) => self.put(field, value),
                None => self.error(field, INVALID),
            }
        }
    }

    /// `put_change(:conversation_id, conversation_id)`. chat-display adds one check Ecto's
    /// `put_change` does not make: a value that is neither a string nor null is `"is invalid"`.
    fn put_conversation_id(&mut self, conversation_id: Option<J>) {
        let value = conversation_id.map_or(Value::Nil, Value::of);
        match &value {
            Value::Given(j) if j.kind() != Kind::String => {
                self.error(Field::ConversationId, INVALID)
            }
            _ => self.put(Field::ConversationId, value),
        }
    }

    /// `common_validations/1`, then the changeset's outcome.
    fn validate(mut self) -> Changeset<J> {
        // validate_required: a missing field without an earlier error gets "can't be blank", and
        // its change is dropped.
        let flagged: Vec<Field> = REQUIRED
            .into_iter()
            .filter(|f| self.effective(*f).is_missing() && !self.has_error(*f))
            .collect();
        for field in flagged {
            self.error(field, BLANK);
            self.changes.retain(|(f, _)| *f != field);
        }
        // validate_inclusion and validate_number run on non-nil changes only.
        let changed = |field| self.change(field).filter(|v| !v.is_nil());
        // (Not one closure taking the test as a function pointer: an indirect call of that type
        // keeps core's formatting code in the module, 1.3 KB gzipped.)
        let bad_content_type = changed(Field::ContentType)
            .is_some_and(|v| v.string().is_none_or(|s| ContentType::parse(&s).is_none()));
        let bad_status = changed(Field::Status)
            .is_some_and(|v| !v.string().is_some_and(|s| STATUSES.contains(&s.as_str())));
        let negative = changed(Field::Sequence)
            .and_then(|v| v.integer())
            .is_some_and(|i| i < 0);
        let bad_content = content_error(
            self.effective(Field::ContentType),
            self.effective(Field::Content),
        );
        if bad_content_type {
            self.error(Field::ContentType, INVALID);
        }
        if bad_status {
            self.error(Field::Status, INVALID);
        }
        if negative {
            self.error(Field::Sequence, NEGATIVE);
        }
        if let Some(message) = bad_content {
            self.error(Field::Content, message);
        }
        self.finish()
    }

    fn finish(self) -> Changeset<J> {
        let mut record = self.data;
        for (field, value) in self.changes {
            *record.field_mut(field) = value;
        }
        let mut errors: Vec<(Field, Vec<String>)> = Vec::new();
        for (field, message) in self.errors.into_iter().rev() {
            match errors.iter_mut().find(|(f, _)| *f == field) {
                Some((_, messages)) => messages.push(message),
                None => errors.push((field, vec![message])),
            }
        }
        crate::sort::sort_by(&mut errors, |a, b| a.0 < b.0);
        Changeset {
            valid: errors.is_empty(),
            errors,
            record,
        }
    }
}

/// `Ecto.Type.cast/2` of one attribute, after the empty-value rule: a string that is empty once
/// left-trimmed becomes the field's default. `None` is a cast error.
fn cast_value<J: Json>(field: Field, given: J) -> Option<Value<J>> {
    if given.as_str().is_some_and(|s| s.trim_start().is_empty()) {
        return Some(field.default());
    }
    let kind = given.kind();
    if kind == Kind::Null {
        return Some(Value::Nil);
    }
    match (field.ty(), kind) {
        (Type::String, Kind::String) | (Type::Map, Kind::Object) => Some(Value::Given(given)),
        (Type::Integer, Kind::Number) => match given.as_number() {
            Some(Number::Int(_)) => Some(Value::Given(given)),
            _ => None,
        },
        (Type::Integer, Kind::String) => given
            .as_str()
            .and_then(|s| crate::json::parse_integer(&s))
            .map(Value::Int),
        _ => None,
    }
}

/// `validate_content/2` on the effective content type and content: `None` when it passes.
fn content_error<J: Json>(content_type: &Value<J>, content: &Value<J>) -> Option<String> {
    if content_type.is_nil() {
        return None;
    }
    let has = |keys: &[&str]| content.is_map() && keys.iter().all(|k| content.key(k).is_some());
    let ok = match content_type
        .string()
        .as_deref()
        .and_then(ContentType::parse)
    {
        Some(
            ContentType::Text
            | ContentType::Thinking
            | ContentType::Notification
            | ContentType::Error,
        ) => has(&["text"]),
        Some(ContentType::Image) => has(&["url"]) || has(&["data", "mime_type"]),
        Some(ContentType::FileReference) => has(&["path", "name"]),
        Some(ContentType::StructuredData) => has(&["format", "data"]),
        Some(ContentType::ToolCall) => has(&["call_id", "name", "arguments"]),
        Some(ContentType::ToolResult) => has(&["tool_call_id", "name", "content"]),
        Some(ContentType::TodoSnapshot) => {
            if let Some(todos) = content.key("todos").and_then(|t| t.elements()) {
                return (!todos.iter().all(valid_todo)).then(|| BAD_TODOS.to_string());
            }
            false
        }
        None => false,
    };
    (!ok).then(|| {
        crate::error::text!(
            "invalid structure for content_type ",
            content_type.interpolated()
        )
    })
}

/// `valid_todo_entry?/1`: an object with an integer `id`, a string `content` and one of the four
/// todo statuses.
fn valid_todo<J: Json>(entry: &J) -> bool {
    let id = entry.get("id").and_then(|id| id.as_number());
    let content = entry.get("content").map(|c| c.kind());
    let status = entry
        .get("status")
        .and_then(|s| s.as_str().map(|s| s.into_owned()));
    entry.kind() == Kind::Object
        && matches!(id, Some(Number::Int(_)))
        && content == Some(Kind::String)
        && status.is_some_and(|s| TODO_STATUSES.contains(&s.as_str()))
}

fn object<'a, J: Json>(value: &'a J, path: &Path<'_>) -> Result<&'a J> {
    fields::object(value, path, "an object").map(|()| value)
}

/// `create_changeset(conversation_id, attrs)`: casts `attrs` into a new record, sets
/// `conversation_id` (even to nil) and validates. `conversation_id` `None` is JavaScript
/// `undefined`, the same as null. Paths: `$.attrs`.
///
/// ```
/// use chat_display::record::new_display_message;
/// let attrs = serde_json::json!({"message_type": "user", "content_type": "text",
///                                "content": {"text": "hi"}, "sequence": "2"});
/// let id = serde_json::json!("c-1");
/// let changeset = new_display_message(Some(&&id), &&attrs).unwrap();
/// assert_eq!(
///     serde_json::to_value(&changeset).unwrap(),
///     serde_json::json!({"valid": true, "errors": {}, "record": {
///         "conversation_id": "c-1", "message_type": "user", "content_type": "text",
///         "content": {"text": "hi"}, "tool_call_id": null, "sequence": 2,
///         "status": "completed", "metadata": {}}})
/// );
/// ```
pub fn new_display_message<J: Json>(
    conversation_id: Option<&J>,
    attrs: &J,
) -> Result<Changeset<J>> {
    let attrs = object(attrs, &Path::Root("$.attrs"))?;
    let mut builder = Builder::new(Record::empty());
    builder.cast(attrs);
    builder.put_conversation_id(conversation_id.cloned());
    Ok(builder.validate())
}

/// `changeset(record, attrs)`: casts `attrs` over an existing record and validates. A field the
/// record lacks takes its default. Paths: `$.record`, `$.attrs`.
pub fn change_display_message<J: Json>(record: &J, attrs: &J) -> Result<Changeset<J>> {
    let record = object(record, &Path::Root("$.record"))?;
    let attrs = object(attrs, &Path::Root("$.attrs"))?;
    let mut builder = Builder::new(Record::load(record));
    builder.cast(attrs);
    Ok(builder.validate())
}

/// What an invalid record's error says it got in `field`, for a reader to see the value refused:
/// `(got "done")` for a short printable-ASCII string, else its kind (`(got a string)`, `(got a
/// number)`, `(got true)`, `(got null)`, `(got an array)`); nothing for an object (a `content`
/// map, whose structure the error already names) or an absent field. The element's loader
/// (js/element/input.js) words a parsed record's error the same way.
pub fn refused<J: Json>(record: &J, field: &str) -> Option<String> {
    let value = record.get(field)?;
    Some(match value.kind() {
        Kind::String => {
            let s = value.as_str().unwrap_or_default();
            if s.len() <= 60 && s.bytes().all(|b| (0x20..0x7f).contains(&b)) {
                let mut out = String::from(" (got \"");
                for c in s.chars() {
                    if c == '"' || c == '\\' {
                        out.push('\\');
                    }
                    out.push(c);
                }
                out.push_str("\")");
                out
            } else {
                String::from(" (got a string)")
            }
        }
        Kind::Number => String::from(" (got a number)"),
        Kind::Bool => String::from(if value.as_bool() == Some(true) {
            " (got true)"
        } else {
            " (got false)"
        }),
        Kind::Null => String::from(" (got null)"),
        Kind::Array => String::from(" (got an array)"),
        Kind::Other => String::from(" (got a value that is not JSON)"),
        Kind::Object => return None,
    })
}

/// Validates a complete record: `create_changeset(record.conversation_id, record)`, keeping the
/// record's `id` and `inserted_at`. Path: `$`.
pub fn validate_display_message<J: Json>(record: &J) -> Result<Changeset<J>> {
    let record = object(record, &Path::ROOT)?;
    let mut data = Record::empty();
    data.keep_identity(record);
    let mut builder = Builder::new(data);
    builder.cast(record);
    builder.put_conversation_id(record.get("conversation_id"));
    Ok(builder.validate())
}
