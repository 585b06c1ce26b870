//! Display items (Sagents v0.8.0-rc.5 `DisplayHelpers.extract_display_items/1`) and the records
//! `toDisplayMessages` makes of them (the persistence mapping of the DisplayMessage template).

use crate::error::{Error, Path, Result};
use crate::json::fields::{flag, opt_str, parse_each};
use crate::json::{Json, Kind};
use crate::map::Index;
use crate::message::{
    parse_message, Citations, Content, ContentPart, Message, PartType, ResultContent, Role, Shown,
};
use crate::prelude::*;
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

/// One displayable piece of a message: `{type, message_type, content}`.
///
/// ```
/// use chat_display::display::extract_display_items;
/// let message = serde_json::json!({
///     "role": "assistant",
///     "content": [{"type": "text", "content": "Let me search..."}],
///     "tool_calls": [{"call_id": "1", "name": "search", "arguments": {"q": "elixir"}}]
/// });
/// let items = extract_display_items(&&message).unwrap();
/// assert_eq!(
///     serde_json::to_value(&items).unwrap(),
///     serde_json::json!([
///         {"type": "text", "message_type": "assistant", "content": {"text": "Let me search..."}},
///         {"type": "tool_call", "message_type": "assistant",
///          "content": {"call_id": "1", "name": "search", "arguments": {"q": "elixir"}, "display_text": null}}
///     ])
/// );
/// ```
#[derive(Clone, Debug)]
pub struct DisplayItem<J> {
    /// The role of the message the item came from.
    pub message_type: Role,
    pub content: ItemContent<J>,
    /// What its record's `metadata` holds; display items leave it out.
    pub metadata: Meta<J>,
}

/// A record's `metadata` (docs/API.md "Rich provider content"): `{}` for everything Sagents maps,
/// so that mapping is unchanged.
#[derive(Clone, Debug)]
pub enum Meta<J> {
    /// `{}`.
    Empty,
    /// `{citations}`: a text's citations.
    Citations(Citations<J>),
    /// `{result}`: a server tool's structured result, whole.
    Result(J),
    /// `{approval_request: true}`: a call that waits for the user's approval.
    ApprovalRequest,
}

/// The typed payload of a display item; its variant is the item's `type`.
#[derive(Clone, Debug)]
pub enum ItemContent<J> {
    /// `{"text": s}` from a text part, or from a message whose content is a non-empty string.
    Text { text: J },
    /// `{"text": s}` from a thinking part.
    Thinking { text: J },
    /// `{"call_id", "name", "arguments", "display_text"}`, all four always present; `None` is null.
    ToolCall {
        call_id: Option<J>,
        name: Option<J>,
        arguments: Option<J>,
        display_text: Option<J>,
        /// The status the call's reader gave it ([`crate::message::ToolCall::status`]), not
        /// written: it is the record's `status`.
        status: Option<Status>,
    },
    /// `{"tool_call_id", "name", "content", "is_error", "is_interrupt"}`, all five always present.
    ToolResult {
        tool_call_id: Option<J>,
        name: Option<J>,
        content: ResultText<J>,
        is_error: Option<bool>,
        is_interrupt: Option<bool>,
    },
    /// `{"data", "mime_type"}`: an image the model made (records only; base64 data).
    Image {
        data: Option<J>,
        mime_type: Option<J>,
    },
    /// `{"text"}`: a compaction's summary or a model fallback (records only).
    Notification { text: J },
    /// `{"url", "file_id", "mime_type"}`: an `image_url` part, or an `image` part that names a
    /// provider's file (`options.type: "file_id"`), with `toDisplayMessages`' `media: true`
    /// (records only; an `image` part of base64 data is an [`ItemContent::Image`]).
    ImageRef {
        url: Option<J>,
        file_id: Option<J>,
        mime_type: Option<J>,
    },
    /// `{"path", "name", "mime_type"}`: a `file` or `file_url` part with `media: true` (records
    /// only): `path` the URL or the provider's file id, null for inline data (which stays in the
    /// message); `name` its `options.filename`.
    FileReference {
        path: Option<J>,
        name: Option<J>,
        mime_type: Option<J>,
    },
}

impl<J> ItemContent<J> {
    /// The item's `type`, which is also the record's `content_type`: one of the four a display
    /// item has.
    pub fn content_type(&self) -> ContentType {
        match self {
            ItemContent::Text { .. } => ContentType::Text,
            ItemContent::Thinking { .. } => ContentType::Thinking,
            ItemContent::ToolCall { .. } => ContentType::ToolCall,
            ItemContent::ToolResult { .. } => ContentType::ToolResult,
            ItemContent::Image { .. } | ItemContent::ImageRef { .. } => ContentType::Image,
            ItemContent::FileReference { .. } => ContentType::FileReference,
            ItemContent::Notification { .. } => ContentType::Notification,
        }
    }
}

/// The ten content types of a display-message record (its `content_type`; the DisplayMessage
/// template's `@content_types`), and what `validate_content/2` requires of the record's `content`
/// for each (`crate::record`). Display items give the four of [`ItemContent`]; the others come only
/// in records a caller made, except `error`, which also stands in for input that cannot be read
/// ([`ErrorRecord`]).
///
/// Each serializes as its name; [`ContentType::parse`] reads one back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContentType {
    /// `"text"`: `{text}`.
    Text,
    /// `"thinking"`: `{text}`, a model's reasoning.
    Thinking,
    /// `"image"`: `{url}` or `{data, mime_type}`, with an optional `caption` or `alt_text`.
    Image,
    /// `"file_reference"`: `{path, name}`.
    FileReference,
    /// `"structured_data"`: `{format, data}`.
    StructuredData,
    /// `"notification"`: `{text}`.
    Notification,
    /// `"error"`: `{text}` (an [`ErrorRecord`] adds `path`).
    Error,
    /// `"tool_call"`: `{call_id, name, arguments}`.
    ToolCall,
    /// `"tool_result"`: `{tool_call_id, name, content}`.
    ToolResult,
    /// `"todo_snapshot"`: `{todos}` with each entry valid, or a `summary` of counts.
    TodoSnapshot,
}

impl ContentType {
    /// All ten, in the template's order.
    pub const ALL: [ContentType; 10] = [
        ContentType::Text,
        ContentType::Thinking,
        ContentType::Image,
        ContentType::FileReference,
        ContentType::StructuredData,
        ContentType::Notification,
        ContentType::Error,
        ContentType::ToolCall,
        ContentType::ToolResult,
        ContentType::TodoSnapshot,
    ];

    /// The name, as records hold it.
    pub const fn as_str(self) -> &'static str {
        match self {
            ContentType::Text => "text",
            ContentType::Thinking => "thinking",
            ContentType::Image => "image",
            ContentType::FileReference => "file_reference",
            ContentType::StructuredData => "structured_data",
            ContentType::Notification => "notification",
            ContentType::Error => "error",
            ContentType::ToolCall => "tool_call",
            ContentType::ToolResult => "tool_result",
            ContentType::TodoSnapshot => "todo_snapshot",
        }
    }

    /// The content type named `name` exactly, or `None` for any other string.
    pub fn parse(name: &str) -> Option<ContentType> {
        ContentType::ALL.into_iter().find(|t| t.as_str() == name)
    }
}

impl Serialize for ContentType {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// A tool result's display text: the given string, or the `"\n"` join of its text parts.
#[derive(Clone, Debug)]
pub enum ResultText<J> {
    Given(J),
    /// The contents of the text parts (`None` for a null one, which joins as `""`), in order. Kept
    /// as the parts' own values and joined where the text is written out, so that in wasm the
    /// texts are not copied into the module and the join back out (the glue joins them).
    Joined(Vec<Option<J>>),
}

impl<J: Json> ResultText<J> {
    /// Appends the text to `out` (the join, for `Joined`).
    pub fn push_onto(&self, out: &mut String) {
        match self {
            ResultText::Given(text) => out.push_str(&text.as_str().unwrap_or_default()),
            ResultText::Joined(parts) => {
                for (i, part) in parts.iter().enumerate() {
                    if i > 0 {
                        out.push('\n');
                    }
                    if let Some(text) = part.as_ref().and_then(|p| p.as_str()) {
                        out.push_str(&text);
                    }
                }
            }
        }
    }
}

impl<J: Json + Serialize> Serialize for ResultText<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        match self {
            ResultText::Given(j) => j.serialize(s),
            ResultText::Joined(_) => {
                let mut text = String::new();
                self.push_onto(&mut text);
                s.serialize_str(&text)
            }
        }
    }
}

impl<J: Json + Serialize> Serialize for ItemContent<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        match self {
            ItemContent::Text { text }
            | ItemContent::Thinking { text }
            | ItemContent::Notification { text } => {
                let mut map = s.serialize_map(Some(1))?;
                map.serialize_entry("text", text)?;
                map.end()
            }
            ItemContent::ToolCall {
                call_id,
                name,
                arguments,
                display_text,
                ..
            } => {
                let mut map = s.serialize_map(Some(4))?;
                map.serialize_entry("call_id", call_id)?;
                map.serialize_entry("name", name)?;
                map.serialize_entry("arguments", arguments)?;
                map.serialize_entry("display_text", display_text)?;
                map.end()
            }
            ItemContent::ToolResult {
                tool_call_id,
                name,
                content,
                is_error,
                is_interrupt,
            } => {
                let mut map = s.serialize_map(Some(5))?;
                map.serialize_entry("tool_call_id", tool_call_id)?;
                map.serialize_entry("name", name)?;
                map.serialize_entry("content", content)?;
                map.serialize_entry("is_error", is_error)?;
                map.serialize_entry("is_interrupt", is_interrupt)?;
                map.end()
            }
            ItemContent::Image { data, mime_type } => {
                let mut map = s.serialize_map(Some(2))?;
                map.serialize_entry("data", data)?;
                map.serialize_entry("mime_type", mime_type)?;
                map.end()
            }
            ItemContent::ImageRef {
                url,
                file_id,
                mime_type,
            } => {
                let mut map = s.serialize_map(Some(3))?;
                map.serialize_entry("url", url)?;
                map.serialize_entry("file_id", file_id)?;
                map.serialize_entry("mime_type", mime_type)?;
                map.end()
            }
            ItemContent::FileReference {
                path,
                name,
                mime_type,
            } => {
                let mut map = s.serialize_map(Some(3))?;
                map.serialize_entry("path", path)?;
                map.serialize_entry("name", name)?;
                map.serialize_entry("mime_type", mime_type)?;
                map.end()
            }
        }
    }
}

impl<J: Json + Serialize> Serialize for DisplayItem<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(3))?;
        map.serialize_entry("type", &self.content.content_type())?;
        map.serialize_entry("message_type", &self.message_type)?;
        map.serialize_entry("content", &self.content)?;
        map.end()
    }
}

/// The display items of one parsed message, in display order: content items, then tool calls, then
/// tool results (docs/API.md "extractDisplayItems").
pub fn display_items<J: Json>(message: &Message<J>) -> Vec<DisplayItem<J>> {
    let mut items = Vec::new();
    display_items_into(message, &mut items);
    items
}

/// [`display_items`] appended to `items`.
pub fn display_items_into<J: Json>(message: &Message<J>, items: &mut Vec<DisplayItem<J>>) {
    items_into(message, items, Mode::ITEMS);
}

/// Which items [`items_into`] gives: display items only, or the records' (`records`), with the
/// attachments' records (`media`, `toDisplayMessages`' option).
#[derive(Clone, Copy, Debug)]
struct Mode {
    records: bool,
    media: bool,
}

impl Mode {
    const ITEMS: Mode = Mode {
        records: false,
        media: false,
    };
    const RECORDS: Mode = Mode {
        records: true,
        media: false,
    };
}

/// The items a message's display-message records are made of: its display items, with what the
/// records show beyond them (docs/API.md "Rich provider content"): `metadata` (citations, a
/// server tool's result, an approval request), generated images (among the content items, and
/// after the tool result that holds them) and notifications.
pub fn record_items<J: Json>(message: &Message<J>) -> Vec<DisplayItem<J>> {
    let mut items = Vec::new();
    items_into(message, &mut items, Mode::RECORDS);
    items
}

fn items_into<J: Json>(message: &Message<J>, items: &mut Vec<DisplayItem<J>>, mode: Mode) {
    let records = mode.records;
    let message_type = message.role;
    let item = |content, metadata| DisplayItem {
        message_type,
        content,
        metadata,
    };
    content_items_into(message, items, mode);
    for call in &message.tool_calls {
        let metadata = if records && call.approval_request {
            Meta::ApprovalRequest
        } else {
            Meta::Empty
        };
        items.push(item(
            ItemContent::ToolCall {
                call_id: call.call_id.clone(),
                name: call.name.clone(),
                arguments: call.arguments.clone(),
                display_text: call.display_text.clone(),
                status: call.status.as_ref().and_then(Status::of_name),
            },
            metadata,
        ));
    }
    for result in &message.tool_results {
        let content = match &result.content {
            ResultContent::Text(text) => ResultText::Given(text.clone()),
            ResultContent::Parts(parts) => ResultText::Joined(join_text_parts(parts)),
            ResultContent::Other => ResultText::Joined(Vec::new()),
        };
        let metadata = match result.result.as_ref().filter(|_| records) {
            Some(structured) => Meta::Result(structured.clone()),
            None => Meta::Empty,
        };
        items.push(item(
            ItemContent::ToolResult {
                tool_call_id: result.tool_call_id.clone(),
                name: result.name.clone(),
                content,
                is_error: result.is_error,
                is_interrupt: result.is_interrupt,
            },
            metadata,
        ));
        if let (true, ResultContent::Parts(parts)) = (records, &result.content) {
            for part in parts {
                if let Some(image) = shown_item(part) {
                    items.push(item(image, Meta::Empty));
                }
            }
        }
    }
}

/// The record item a part marks beyond Sagents' mapping (a generated image, a notification).
fn shown_item<J: Json>(part: &ContentPart<J>) -> Option<ItemContent<J>> {
    match &part.shown {
        Shown::Nothing => None,
        Shown::Image { media } => Some(ItemContent::Image {
            data: part.content.clone(),
            mime_type: media.clone(),
        }),
        Shown::Notification(text) => Some(ItemContent::Notification { text: text.clone() }),
    }
}

/// The text and thinking items of a message, which come first among its display items (then
/// one per tool call, then one per tool result).
pub fn text_items<J: Json>(message: &Message<J>) -> Vec<DisplayItem<J>> {
    let mut items = Vec::new();
    text_items_into(message, &mut items);
    items
}

/// [`text_items`] appended to `items`.
fn text_items_into<J: Json>(message: &Message<J>, items: &mut Vec<DisplayItem<J>>) {
    content_items_into(message, items, Mode::ITEMS);
}

/// The record of an attachment part (`media: true`): an `image` for `image` and `image_url`
/// parts, a `file_reference` for `file` and `file_url` parts (docs/API.md "Attachments").
fn attachment_item<J: Json>(part: &ContentPart<J>) -> Option<ItemContent<J>> {
    let attachment = part.attachment.as_ref()?;
    let content = part.content.clone();
    let mime_type = attachment.media();
    let file_id = attachment.file_id();
    Some(match part.part_type {
        PartType::Image if !file_id => ItemContent::Image {
            data: content,
            mime_type,
        },
        PartType::Image => ItemContent::ImageRef {
            url: None,
            file_id: content,
            mime_type,
        },
        PartType::ImageUrl => ItemContent::ImageRef {
            url: content,
            file_id: None,
            mime_type,
        },
        PartType::File | PartType::FileUrl => ItemContent::FileReference {
            // Inline data is not a path: the reference names the file, the message keeps it.
            path: content.filter(|_| part.part_type == PartType::FileUrl || file_id),
            name: attachment.filename(),
            mime_type,
        },
        _ => return None,
    })
}

/// The content items; for records, with their metadata and the parts that mark a record.
fn content_items_into<J: Json>(message: &Message<J>, items: &mut Vec<DisplayItem<J>>, mode: Mode) {
    let records = mode.records;
    let message_type = message.role;
    let mut push = |content, metadata| {
        items.push(DisplayItem {
            message_type,
            content,
            metadata,
        })
    };
    match &message.content {
        Content::Text(text) if !text.is_empty_str() => {
            push(ItemContent::Text { text: text.clone() }, Meta::Empty)
        }
        Content::Parts(parts) => {
            for part in parts {
                if records {
                    if let Some(shown) = shown_item(part) {
                        push(shown, Meta::Empty);
                        continue;
                    }
                    if mode.media {
                        if let Some(attachment) = attachment_item(part) {
                            push(attachment, Meta::Empty);
                            continue;
                        }
                    }
                }
                let Some(text) = part.content.as_ref().filter(|t| !t.is_empty_str()) else {
                    continue;
                };
                let text = text.clone();
                match part.part_type {
                    PartType::Text => {
                        let metadata = match part.citations.as_ref().filter(|_| records) {
                            Some(citations) => Meta::Citations(citations.clone()),
                            None => Meta::Empty,
                        };
                        push(ItemContent::Text { text }, metadata)
                    }
                    PartType::Thinking => push(ItemContent::Thinking { text }, Meta::Empty),
                    _ => {}
                }
            }
        }
        Content::Text(_) | Content::None => {}
    }
}

/// The text parts' contents, to be joined with `"\n"`; empty and null parts stay (null gives `""`).
fn join_text_parts<J: Json>(parts: &[ContentPart<J>]) -> Vec<Option<J>> {
    parts
        .iter()
        .filter(|p| p.part_type == PartType::Text)
        .map(|p| p.content.clone())
        .collect()
}

/// `extract_display_items/1`: reads `message` (path `$`) and returns its display items.
pub fn extract_display_items<J: Json>(message: &J) -> Result<Vec<DisplayItem<J>>> {
    Ok(display_items(&parse_message(message, &Path::ROOT)?))
}

/// A tool call record's `status`, and the statuses records can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Pending,
    Executing,
    Completed,
    Failed,
    Interrupted,
    Cancelled,
}

impl Status {
    /// The status a tool result gives the call it answers: `failed` when `is_error` is `true`,
    /// else `interrupted` when `is_interrupt` is `true`, else `completed`.
    pub fn of_result<J>(result: &crate::message::ToolResult<J>) -> Status {
        if result.is_error == Some(true) {
            Status::Failed
        } else if result.is_interrupt == Some(true) {
            Status::Interrupted
        } else {
            Status::Completed
        }
    }

    /// The status named `name` (a JSON string), if it names one.
    pub fn of_name<J: Json>(name: &J) -> Option<Status> {
        const ALL: [Status; 6] = [
            Status::Pending,
            Status::Executing,
            Status::Completed,
            Status::Failed,
            Status::Interrupted,
            Status::Cancelled,
        ];
        const NAMES: [&str; 6] = [
            Status::Pending.as_str(),
            Status::Executing.as_str(),
            Status::Completed.as_str(),
            Status::Failed.as_str(),
            Status::Interrupted.as_str(),
            Status::Cancelled.as_str(),
        ];
        name.match_str(&NAMES).and_then(|i| ALL.get(i).copied())
    }

    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::Executing => "executing",
            Status::Completed => "completed",
            Status::Failed => "failed",
            Status::Interrupted => "interrupted",
            Status::Cancelled => "cancelled",
        }
    }
}

/// One display-message record as `toDisplayMessages` makes it:
/// `{conversation_id, message_type, content_type, content, sequence, status, tool_call_id, metadata: {}}`.
#[derive(Clone, Debug)]
pub struct DisplayRecord<J> {
    pub conversation_id: Option<J>,
    pub item: DisplayItem<J>,
    /// The item's index within its message.
    pub sequence: usize,
    pub status: Status,
}

impl<J: Clone> DisplayRecord<J> {
    /// `content.call_id` for tool calls, `content.tool_call_id` for tool results, else null.
    pub fn tool_call_id(&self) -> Option<J> {
        match &self.item.content {
            ItemContent::ToolCall { call_id, .. } => call_id.clone(),
            ItemContent::ToolResult { tool_call_id, .. } => tool_call_id.clone(),
            _ => None,
        }
    }
}

impl<J: Json + Serialize> Serialize for Meta<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        match self {
            Meta::Empty => s.serialize_map(Some(0))?.end(),
            Meta::Citations(citations) => {
                let mut map = s.serialize_map(Some(1))?;
                map.serialize_entry("citations", citations)?;
                map.end()
            }
            Meta::Result(result) => {
                let mut map = s.serialize_map(Some(1))?;
                map.serialize_entry("result", result)?;
                map.end()
            }
            Meta::ApprovalRequest => {
                let mut map = s.serialize_map(Some(1))?;
                map.serialize_entry("approval_request", &true)?;
                map.end()
            }
        }
    }
}

impl<J: Json + Serialize> Serialize for DisplayRecord<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(8))?;
        map.serialize_entry("conversation_id", &self.conversation_id)?;
        map.serialize_entry("message_type", &self.item.message_type)?;
        map.serialize_entry("content_type", &self.item.content.content_type())?;
        map.serialize_entry("content", &self.item.content)?;
        map.serialize_entry("sequence", &self.sequence)?;
        map.serialize_entry("status", self.status.as_str())?;
        map.serialize_entry("tool_call_id", &self.tool_call_id())?;
        map.serialize_entry("metadata", &self.item.metadata)?;
        map.end()
    }
}

/// The record that stands in for what cannot be read (an element of a Transcript's input, an event
/// or a body of a stream): what went wrong and where, and nothing else.
///
/// ```json
/// {"conversation_id": null, "message_type": null, "content_type": "error",
///  "content": {"text": "...", "path": "$[3]"}, "sequence": 0, "status": "failed",
///  "tool_call_id": null, "metadata": {}}
/// ```
///
/// Its fields are listed once, in [`ErrorRecord::fields`]: it serializes from them, and a stream,
/// which holds its records as values of its own, builds them from them.
#[derive(Clone, Copy, Debug)]
pub struct ErrorRecord<'a> {
    /// `content`: `{text, path}`.
    content: [(&'static str, &'a str); 2],
}

/// A field's value in an [`ErrorRecord`].
#[derive(Clone, Copy, Debug)]
pub enum ErrorField<'a> {
    Null,
    String(&'a str),
    /// The number `0`.
    Zero,
    /// An object of strings, in order (`{}` when empty).
    Strings(&'a [(&'static str, &'a str)]),
}

impl<'a> ErrorRecord<'a> {
    /// The error record for `text` (what went wrong) at `path` (where, as a JSON path).
    pub fn new(text: &'a str, path: &'a str) -> Self {
        ErrorRecord {
            content: [("text", text), ("path", path)],
        }
    }

    /// The record's fields, in the order of `toDisplayMessages`' records.
    pub fn fields(&self) -> [(&'static str, ErrorField<'_>); 8] {
        [
            ("conversation_id", ErrorField::Null),
            ("message_type", ErrorField::Null),
            (
                "content_type",
                ErrorField::String(ContentType::Error.as_str()),
            ),
            ("content", ErrorField::Strings(&self.content)),
            ("sequence", ErrorField::Zero),
            ("status", ErrorField::String(Status::Failed.as_str())),
            ("tool_call_id", ErrorField::Null),
            ("metadata", ErrorField::Strings(&[])),
        ]
    }
}

impl Serialize for ErrorField<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        match self {
            ErrorField::Null => s.serialize_unit(),
            ErrorField::String(text) => s.serialize_str(text),
            ErrorField::Zero => s.serialize_i32(0),
            ErrorField::Strings(entries) => {
                let mut map = s.serialize_map(Some(entries.len()))?;
                for (key, value) in entries.iter() {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
        }
    }
}

impl Serialize for ErrorRecord<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        let fields = self.fields();
        let mut map = s.serialize_map(Some(fields.len()))?;
        for (key, value) in &fields {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

/// The root of `toDisplayMessages`' paths: it takes several arguments, so `$` is followed by the
/// parameter's name (`$.messages[3].content[0]`).
pub const MESSAGES: Path<'static> = Path::Root("$.messages");

/// Reads one message (paths from `root`) or an array of them (paths `root[i]`).
pub fn parse_messages<J: Json>(messages: &J, root: &Path<'_>) -> Result<Vec<Message<J>>> {
    match messages.kind() {
        Kind::Array => parse_each(messages, root, parse_message).unwrap_or(Ok(Vec::new())),
        Kind::Object => Ok(vec![parse_message(messages, root)?]),
        other => Err(Error::expected(
            root,
            "a message or an array of messages",
            other,
        )),
    }
}

/// `toDisplayMessages`: every message's items as records, with tool call statuses derived from the
/// results in later messages (the earliest later result wins; `is_error: true` gives failed, else
/// `is_interrupt: true` gives interrupted, else completed; no later result leaves it pending).
///
/// `options` is `{conversation_id?: string | null, media?: boolean | null}`, or `None`
/// (JavaScript `undefined`). `media: true` adds the records of image and file parts, in place
/// (docs/API.md "Attachments"); without it the records are Sagents' mapping.
pub fn to_display_messages<J: Json>(
    messages: &J,
    options: Option<&J>,
) -> Result<Vec<DisplayRecord<J>>> {
    let root = Path::Root("$.options");
    let (conversation_id, media) = match options {
        None => (None, false),
        Some(options) => match options.kind() {
            Kind::Null => (None, false),
            Kind::Object => (
                opt_str(options, "conversation_id", &root)?,
                flag(options.get("media"), "media", &root)?.unwrap_or(false),
            ),
            other => return Err(Error::expected(&root, "an options object", other)),
        },
    };
    Ok(records_with(
        &parse_messages(messages, &MESSAGES)?,
        conversation_id,
        media,
    ))
}

/// The records of parsed messages (see [`to_display_messages`]). (`transcript` applies the same
/// rule while it streams through a text; the tests hold both to the same records.)
pub fn records_of<J: Json>(
    messages: &[Message<J>],
    conversation_id: Option<J>,
) -> Vec<DisplayRecord<J>> {
    records_with(messages, conversation_id, false)
}

/// [`records_of`], with the attachments' records when `media` is true.
pub fn records_with<J: Json>(
    messages: &[Message<J>],
    conversation_id: Option<J>,
    media: bool,
) -> Vec<DisplayRecord<J>> {
    let mode = Mode {
        records: true,
        media,
    };
    // Each tool call's status, found walking back from the last message with, for every
    // tool_call_id, the status its earliest result so far gives: for a call, that is the
    // earliest result in a later message (results of the call's own message are added after).
    let mut ids = Index::new();
    let mut earliest: Vec<Status> = Vec::new();
    // In reverse order of the calls, so that the forward pass below pops them in order.
    let mut statuses = Vec::new();
    for message in messages.iter().rev() {
        for call in message.tool_calls.iter().rev() {
            let id = call.call_id.as_ref().and_then(|id| id.as_str());
            let status = id.and_then(|id| earliest.get(ids.find(&id)?).copied());
            statuses.push(status.unwrap_or(Status::Pending));
        }
        // Backwards, so that the message's first result for an id is the one kept.
        for result in message.tool_results.iter().rev() {
            if let Some(id) = result.tool_call_id.as_ref().and_then(|id| id.as_str()) {
                let at = ids.add(id);
                earliest.resize(ids.len(), Status::Pending);
                if let Some(status) = earliest.get_mut(at) {
                    *status = Status::of_result(result);
                }
            }
        }
    }
    let mut records = Vec::new();
    let mut items = Vec::new();
    for message in messages {
        items_into(message, &mut items, mode);
        for (sequence, item) in items.drain(..).enumerate() {
            let status = match &item.content {
                ItemContent::ToolCall { status, .. } => {
                    let found = statuses.pop().unwrap_or(Status::Pending);
                    status.unwrap_or(found)
                }
                _ => Status::Completed,
            };
            records.push(DisplayRecord {
                conversation_id: conversation_id.clone(),
                item,
                sequence,
                status,
            });
        }
    }
    records
}

#[cfg(test)]
mod tests {
    use super::{ContentType, ErrorRecord};

    #[test]
    fn an_error_record_is_the_failed_record_of_its_text_and_path() {
        assert_eq!(
            serde_json::to_string(&ErrorRecord::new("Bad \"x\".", "$[3]")).unwrap(),
            r#"{"conversation_id":null,"message_type":null,"content_type":"error","content":{"text":"Bad \"x\".","path":"$[3]"},"sequence":0,"status":"failed","tool_call_id":null,"metadata":{}}"#
        );
    }

    #[test]
    fn content_types_read_back_as_themselves_and_nothing_else() {
        for t in ContentType::ALL {
            assert_eq!(ContentType::parse(t.as_str()), Some(t));
            assert_eq!(serde_json::to_value(t).unwrap(), t.as_str());
        }
        for other in ["", "Text", "text ", "tool", "todo", "files"] {
            assert_eq!(ContentType::parse(other), None, "{other}");
        }
    }
}
