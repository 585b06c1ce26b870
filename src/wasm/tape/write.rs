//! The tape's output path: display items and records written as words ([`RecordWords`]), from
//! which the glue (`tape.js`) builds the JavaScript objects in one call: one call a result
//! instead of one per property. Used for every item and record the display functions return, and
//! (through `record_from_words` in `transcript.rs`) for the records of a Transcript and of a
//! stream's reader, whichever path their values came by (a value the glue does not hold is handed
//! over in `extra`).

use super::seeds::{role_word, seed, status_word, type_word};
use super::{cd_items, cd_records, TAG_SHORT, TAG_SPECIAL};
use crate::display::{DisplayItem, DisplayRecord, ItemContent, Meta, ResultText, Status};
use crate::message::{Citations, CITATION_FIELDS};
use crate::prelude::*;
use crate::sycophant::{Slot, Struct};
use crate::wasm::input::Input;
use crate::wasm::setup::Local;
use crate::wasm::strings::js_str;
use core::cell::Cell;
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::JsValue;

/// Records or items as the numbers the glue makes them from, and the values it cannot find on its
/// own (made here, or read in place), referred to by index.
pub(in crate::wasm) struct RecordWords {
    words: Vec<u32>,
    extra: Option<Array>,
}

/// The words' list, kept from one call to the next (taken, so that records made while another
/// list is being written, from a getter say, get a list of their own): one allocation fewer a
/// call, and none regrown.
static WORDS: Local<Cell<Vec<u32>>> = Local(Cell::new(Vec::new()));

impl RecordWords {
    pub(in crate::wasm) fn new() -> RecordWords {
        seed();
        let mut words = WORDS.with(Cell::take);
        words.clear();
        RecordWords { words, extra: None }
    }

    /// A value as the glue finds it: low 2 bits 0 for null, `undefined`, false and true (0 to 3
    /// above them), 1 for one of its values, 2 for a short string, 3 for one of `extra`.
    fn value(&mut self, value: &Input<'_>) -> u32 {
        if let Input::Tape(t) = value {
            let w = t.word();
            match w & 7 {
                TAG_SPECIAL => return (w >> 3) << 2,
                TAG_SHORT => return (w >> 3) << 2 | 2,
                _ => {
                    if let Some(i) = t.index() {
                        return i << 2 | 1;
                    }
                }
            }
        }
        self.made(&value.to_js())
    }

    fn made(&mut self, value: &JsValue) -> u32 {
        let extra = self.extra.get_or_insert_with(Array::new);
        (extra.push(value) - 1) << 2 | 3
    }

    fn optional(&mut self, value: &Option<Input<'_>>) -> u32 {
        value.as_ref().map_or(0, |v| self.value(v))
    }

    fn flag(value: Option<bool>) -> u32 {
        value.map_or(0, |b| if b { 3 << 2 } else { 2 << 2 })
    }

    /// `[shape, type, role, sequence, status, ...content, metadata?]`; shape 0 is a text,
    /// thinking or notification item, 1 a tool call, 2 a tool result, 3 a tool result whose text
    /// the glue joins: its `content` word is the number of parts, whose values follow the
    /// result's; 4 an image (`data`, `mime_type`); 5 an image by URL or file id (`url`, `file_id`,
    /// `mime_type`); 6 a file reference (`path`, `name`, `mime_type`). Bit 4 of the shape word says that a last word
    /// refers to the record's `metadata` object (made here), which is `{}` without it.
    pub(in crate::wasm) fn item(
        &mut self,
        item: &DisplayItem<Input<'_>>,
        sequence: usize,
        status: Status,
    ) {
        let shape = match item.content {
            ItemContent::Text { .. }
            | ItemContent::Thinking { .. }
            | ItemContent::Notification { .. } => 0,
            ItemContent::ToolCall { .. } => 1,
            ItemContent::ToolResult {
                content: ResultText::Given(_),
                ..
            } => 2,
            ItemContent::ToolResult { .. } => 3,
            ItemContent::Image { .. } => 4,
            ItemContent::ImageRef { .. } => 5,
            ItemContent::FileReference { .. } => 6,
        };
        let has_metadata = !matches!(item.metadata, Meta::Empty);
        let head = [
            shape | u32::from(has_metadata) << 4,
            type_word(&item.content),
            role_word(item.message_type),
            sequence as u32,
            status_word(status),
        ];
        self.words.extend_from_slice(&head);
        match &item.content {
            ItemContent::Text { text }
            | ItemContent::Thinking { text }
            | ItemContent::Notification { text } => {
                let text = self.value(text);
                self.words.push(text);
            }
            ItemContent::Image { data, mime_type } => {
                let values = [self.optional(data), self.optional(mime_type)];
                self.words.extend_from_slice(&values);
            }
            ItemContent::ImageRef {
                url: a,
                file_id: b,
                mime_type: c,
            }
            | ItemContent::FileReference {
                path: a,
                name: b,
                mime_type: c,
            } => {
                let values = [self.optional(a), self.optional(b), self.optional(c)];
                self.words.extend_from_slice(&values);
            }
            ItemContent::ToolCall {
                call_id,
                name,
                arguments,
                display_text,
                ..
            } => {
                let values = [
                    self.optional(call_id),
                    self.optional(name),
                    self.optional(arguments),
                    self.optional(display_text),
                ];
                self.words.extend_from_slice(&values);
            }
            ItemContent::ToolResult {
                tool_call_id,
                name,
                content,
                is_error,
                is_interrupt,
            } => {
                let id = self.optional(tool_call_id);
                let name = self.optional(name);
                let text = match content {
                    ResultText::Given(text) => self.value(text),
                    ResultText::Joined(parts) => parts.len() as u32,
                };
                let values = [
                    id,
                    name,
                    text,
                    RecordWords::flag(*is_error),
                    RecordWords::flag(*is_interrupt),
                ];
                self.words.extend_from_slice(&values);
                if let ResultText::Joined(parts) = content {
                    for part in parts {
                        let part = self.optional(part);
                        self.words.push(part);
                    }
                }
            }
        }
        if has_metadata {
            let metadata = Object::new();
            let (key, value) = match &item.metadata {
                Meta::Citations(Citations::Given(citations)) => {
                    ("citations", citations.to_js().into_owned())
                }
                Meta::Citations(Citations::Sycophant(list)) => {
                    ("citations", citation_objects(list))
                }
                Meta::Result(result) => ("result", result.to_js().into_owned()),
                Meta::ApprovalRequest | Meta::Empty => ("approval_request", JsValue::TRUE),
            };
            // A fresh object, so a plain property set cannot fail.
            let _ = js_str(key, |key| Reflect::set(&metadata, key, &value));
            let word = self.made(&metadata.into());
            self.words.push(word);
        }
    }

    /// Where the words are in the module's memory, and how many there are.
    pub(in crate::wasm) fn words(&self) -> (usize, usize) {
        (self.words.as_ptr() as usize, self.words.len())
    }

    pub(in crate::wasm) fn extra(&self) -> JsValue {
        self.extra
            .as_ref()
            .map_or(JsValue::UNDEFINED, |a| a.clone().into())
    }
}

/// A Sycophant Text part's citations as the record's citation objects (each with every field of
/// [`CITATION_FIELDS`], `null` where not given), as `Citations`' serde form writes them.
fn citation_objects(list: &[Struct<Input<'_>>]) -> JsValue {
    let out = Array::new();
    for citation in list {
        let object = Object::new();
        for key in CITATION_FIELDS {
            let value = match citation.get(key) {
                Some(Slot::Value(value)) => value.to_js().into_owned(),
                Some(Slot::Name(name)) => JsValue::from_str(name),
                _ => JsValue::NULL,
            };
            // A fresh object, so a plain property set cannot fail.
            let _ = js_str(key, |key| Reflect::set(&object, key, &value));
        }
        out.push(&object);
    }
    out.into()
}

impl Drop for RecordWords {
    /// Leaves the list for the next call, unless it grew huge (the module's memory does not shrink
    /// anyway; 10,000 messages take about 150,000 words, which a bound of 65,536 had regrown from
    /// nothing on every call).
    fn drop(&mut self) {
        if self.words.capacity() <= 1 << 20 {
            let words = core::mem::take(&mut self.words);
            WORDS.with(|kept| kept.set(words));
        }
    }
}

/// Display items as JavaScript objects, made by the glue.
pub(in crate::wasm) fn items_from_words(items: &[DisplayItem<Input<'_>>]) -> JsValue {
    let mut words = RecordWords::new();
    for item in items {
        words.item(item, 0, Status::Completed);
    }
    let (ptr, len) = words.words();
    cd_items(ptr, len, &words.extra())
}

/// The `conversation_id` of a record as a JavaScript value.
pub(in crate::wasm) fn conversation_id(record: Option<&DisplayRecord<Input<'_>>>) -> JsValue {
    record
        .and_then(|r| r.conversation_id.as_ref())
        .map_or(JsValue::NULL, |id| id.to_js().into_owned())
}

/// Records of one conversation (one `conversation_id`) as JavaScript objects, made by the glue.
pub(in crate::wasm) fn records_from_words(records: &[DisplayRecord<Input<'_>>]) -> JsValue {
    let mut words = RecordWords::new();
    for record in records {
        words.item(&record.item, record.sequence, record.status);
    }
    let id = conversation_id(records.first());
    let (ptr, len) = words.words();
    cd_records(ptr, len, &words.extra(), &id)
}
