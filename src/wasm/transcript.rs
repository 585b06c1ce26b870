//! `Transcript`: a conversation held inside the module as its parsed JSON text, with records
//! handed out a window at a time and search done inside (the `TranscriptSearchOptions` type is
//! in `transcript.d.ts`). Its text comes in whole ([`super::bytes`]) and is read as a document
//! ([`super::document`]); its records leave through the tape's glue when the module made them
//! and through serde when the conversation held them as records already, and an element that
//! could not be read becomes an error record made key by key ([`error_record`]).
//!
//! In the module with the `transcript` feature only (part of `core`).

use super::bytes::{given_bytes, utf8_of};
use super::document::JsEngine;
use super::error::chat_display_error;
use super::input::Input;
use super::strings::js_str;
use super::tape::write::{conversation_id, RecordWords};
use super::write::{serde_to_js, Fresh};
use crate::display::DisplayRecord;
use crate::error::{Error, ErrorCode, Path};
use crate::json::{Json, Kind};
use crate::prelude::*;
use js_sys::Array;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(typescript_custom_section)]
const TRANSCRIPT_TYPES: &str = include_str!("transcript.d.ts");

#[wasm_bindgen(module = "/src/wasm/tape.js")]
extern "C" {
    /// One record built from the words at `ptr` (the tape's glue; `tape.rs` imports the rest).
    #[wasm_bindgen(js_name = cdRecord)]
    fn cd_record(ptr: usize, extra: &JsValue, conversation_id: &JsValue) -> JsValue;
}

/// A conversation held inside the module: its JSON text parsed once, with display-message records
/// handed out a window at a time, and search done inside.
#[wasm_bindgen(js_name = Transcript)]
pub struct Transcript {
    inner: crate::transcript::Transcript<JsEngine>,
}

#[wasm_bindgen(js_class = Transcript)]
impl Transcript {
    /// Parses a conversation: an array of messages and/or records, or `{messages: [...]}`, as JSON
    /// text or UTF-8 bytes. Throws `invalid_input` only for text that is not JSON or a top level of
    /// another shape; a bad element becomes an `error` record in its place.
    #[wasm_bindgen(js_name = fromJson)]
    pub fn from_json(
        #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] text: JsValue,
    ) -> Result<Transcript, JsValue> {
        Transcript::of(crate::transcript::Transcript::from_json(json_text(text)?))
    }

    /// Opens a conversation as `fromJson` reads it, reading none of its elements yet: `length` is
    /// 0 until `read` reads them, a slice at a time, so that the first records can be shown
    /// before the last are read. A top-level array is parsed only as far as `read` reads, so text
    /// that is not JSON past its first elements is an error of the `read` that meets it; any other
    /// top level is parsed whole here, with `fromJson`'s errors.
    pub fn open(
        #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] text: JsValue,
    ) -> Result<Transcript, JsValue> {
        Transcript::of(crate::transcript::Transcript::open(json_text(text)?))
    }

    /// Reads up to `count` more elements (all that are left when omitted or null), adding their
    /// records: `{done, settled}`, `done` true once every element is read, `settled` the indices
    /// of records there before whose status the call changed (tool calls its results answered).
    /// `search`, `prepareSearch` and `append` read what is left first. Text that is not JSON past
    /// the elements read so far throws the `invalid_input` error `fromJson` throws for it, from
    /// the read after the one that read the elements before it (their records stay; a read that
    /// throws reads nothing); reading is then done.
    #[wasm_bindgen(unchecked_return_type = "TranscriptRead")]
    pub fn read(
        &mut self,
        #[wasm_bindgen(unchecked_optional_param_type = "number | null")] count: JsValue,
    ) -> Result<JsValue, JsValue> {
        let read = self.inner.read(count_of(count)?);
        if let Some(error) = &read.error {
            return Err(chat_display_error(error));
        }
        let settled = Array::from(&js_sys::Uint32Array::from(&read.settled[..]));
        Ok(plain_object(&[
            ("done", Some(&JsValue::from_bool(read.done))),
            ("settled", Some(&settled.into())),
        ]))
    }

    /// Over the records read so far: `{messages, errors}`, how many start a message (`sequence` 0)
    /// and how many are error records put in place of elements that could not be read, as a count
    /// over `records(0, length)` gives them, without making the records.
    #[wasm_bindgen(unchecked_return_type = "TranscriptCounts")]
    pub fn counts(&self) -> JsValue {
        let counts = self.inner.counts();
        plain_object(&[
            ("messages", Some(&JsValue::from_f64(counts.messages as f64))),
            ("errors", Some(&JsValue::from_f64(counts.errors as f64))),
        ])
    }

    /// The number of display-message records.
    #[wasm_bindgen(getter)]
    pub fn length(&self) -> u32 {
        self.inner.len() as u32
    }

    /// The records `start` to `end` (exclusive, clamped): those made from messages as
    /// `toDisplayMessages` gives them, the held ones as validated, and error records in place of
    /// elements that could not be read (the `TranscriptRecord` union of `transcript.d.ts`).
    #[wasm_bindgen(unchecked_return_type = "TranscriptRecord[]")]
    pub fn records(&self, start: f64, end: f64) -> Result<JsValue, JsValue> {
        let index = |x: f64| if x.is_nan() || x < 0.0 { 0 } else { x as usize };
        let out = self.inner.records(index(start), index(end));
        let array = Array::new_with_length(out.len() as u32);
        for (i, record) in out.iter().enumerate() {
            let value = match record {
                crate::transcript::Out::Item(record) => record_from_words(record),
                crate::transcript::Out::Given(record) => serde_to_js(record.as_ref())?,
                crate::transcript::Out::Error { text, path } => error_record(text, path),
            };
            array.set(i as u32, value);
        }
        Ok(array.into())
    }

    /// `toText` of record `index`; `null` past the end.
    #[wasm_bindgen(js_name = toText, unchecked_return_type = "string | null")]
    pub fn to_text(&self, index: f64) -> JsValue {
        if index.is_nan() || index < 0.0 || !crate::json::is_whole(index) {
            return JsValue::NULL;
        }
        // A text record's text is the string itself, lone surrogates included.
        match self.inner.text(index as usize) {
            Some(crate::text::Text::Given(text)) => text.to_js().into_owned(),
            Some(crate::text::Text::Built(text)) => JsValue::from_str(&text),
            None => JsValue::NULL,
        }
    }

    /// The indices of the records whose `toText` contains `query`, ignoring case. The first search
    /// makes every record's search text not made yet (`prepareSearch`); later ones scan it.
    #[wasm_bindgen(unchecked_return_type = "number[]")]
    pub fn search(
        &mut self,
        query: &str,
        #[wasm_bindgen(unchecked_optional_param_type = "TranscriptSearchOptions | null")]
        options: JsValue,
    ) -> Result<JsValue, JsValue> {
        let root = Path::Root("$.options");
        let options = Input::in_place(options);
        let limit = match options.kind() {
            Kind::Null => None,
            Kind::Object => match options.get_non_null("limit") {
                None => None,
                Some(limit) => match limit.as_number() {
                    Some(n) if n.as_f64() >= 0.0 => Some(n.as_f64() as usize),
                    _ => {
                        return Err(chat_display_error(&Error::expected(
                            &root.key("limit"),
                            "a number at least 0, or null",
                            limit.kind(),
                        )))
                    }
                },
            },
            other => {
                return Err(chat_display_error(&Error::expected(
                    &root,
                    "an options object",
                    other,
                )))
            }
        };
        let found = self.inner.search(query, limit);
        // One copy out of the module and one `Array.from`, not a call per hit.
        Ok(Array::from(&js_sys::Uint32Array::from(&found[..])).into())
    }

    /// Makes the search text of up to `count` more records (every record's when `count` is
    /// omitted or null), so that `search` finds it made; true once every record has it. Call it a
    /// slice at a time after loading to spread the work that the first search would do at once.
    #[wasm_bindgen(js_name = prepareSearch)]
    pub fn prepare_search(
        &mut self,
        #[wasm_bindgen(unchecked_optional_param_type = "number | null")] count: JsValue,
    ) -> Result<bool, JsValue> {
        Ok(self.inner.prepare_search(count_of(count)?))
    }

    /// Adds a message at the end, settling earlier pending tool calls its results answer. A message
    /// that cannot be read throws (paths from `$.message`) and changes nothing.
    pub fn append(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Message | SycophantMessage")] message: JsValue,
    ) -> Result<(), JsValue> {
        let root = Path::Root("$.message");
        let message = Input::in_place(message);
        if message.kind() != Kind::Object {
            return Err(chat_display_error(&Error::expected(
                &root,
                "a message object",
                message.kind(),
            )));
        }
        let text = js_sys::JSON::stringify(&message.to_js())
            .ok()
            .and_then(|t| t.as_string())
            .ok_or_else(|| {
                chat_display_error(&Error::new(
                    ErrorCode::InvalidInput,
                    &root,
                    "Expected a message that JSON can hold at $.message.",
                ))
            })?;
        self.inner.append(text).map_err(|e| chat_display_error(&e))
    }
}

impl Transcript {
    /// The class around a Transcript the core made, or its error as a ChatDisplayError.
    fn of(
        made: crate::error::Result<crate::transcript::Transcript<JsEngine>>,
    ) -> Result<Transcript, JsValue> {
        made.map(|inner| Transcript { inner })
            .map_err(|e| chat_display_error(&e))
    }
}

/// A conversation's JSON text, given as a string or UTF-8 bytes.
fn json_text(text: JsValue) -> Result<String, JsValue> {
    make_room(&text);
    if text.is_string() {
        // SAFETY: what TextEncoder writes is UTF-8 (the Encoding standard's UTF-8 encoder,
        // lone surrogates as U+FFFD), and `utf8_of` joins two whole outputs of it: the trust
        // wasm-bindgen places in it for every string argument. Checking again cost about a
        // twentieth of loading.
        Ok(unsafe { String::from_utf8_unchecked(utf8_of(&text)) })
    } else if let Some(given) = text.dyn_ref::<js_sys::Uint8Array>() {
        let mut bytes = given_bytes(given);
        // A byte order mark is not JSON, but file readers drop it; so does this.
        if bytes.starts_with(b"\xEF\xBB\xBF") {
            bytes.drain(..3);
        }
        String::from_utf8(bytes).map_err(|_| {
            chat_display_error(&Error::new(
                ErrorCode::InvalidInput,
                &Path::ROOT,
                "Expected UTF-8 text at $.",
            ))
        })
    } else {
        Err(chat_display_error(&Error::expected(
            &Path::ROOT,
            "JSON text (a string or a Uint8Array)",
            Input::in_place(text).kind(),
        )))
    }
}

/// Claims from the engine, in one growth of the module's memory, about what a Transcript of `text`
/// will hold (twice its length: the text, its tree and its records; docs/API.md, "Memory") and hands
/// it back to the allocator, which grows the memory only by what each allocation lacks. Grown a few
/// pages at a time instead, Node 20 collected garbage after each growth: 35 of the 42 s that opening
/// 100,000 messages (53 MB) took in a fresh process. A reservation that fails changes nothing.
fn make_room(text: &JsValue) {
    let length = if text.is_string() {
        text.unchecked_ref::<js_sys::JsString>().length() as usize
    } else {
        text.dyn_ref::<js_sys::Uint8Array>()
            .map_or(0, |bytes| bytes.length() as usize)
    };
    let _ = Vec::<u8>::new().try_reserve_exact(length.saturating_mul(2));
}

/// A count of things to do: a number at least 0, or null (or omitted) for all of them.
fn count_of(count: JsValue) -> Result<usize, JsValue> {
    let count = Input::in_place(count);
    match (count.kind(), count.as_number()) {
        (Kind::Null, _) => Ok(usize::MAX),
        // (`as` saturates: Infinity is all of them.)
        (_, Some(n)) if n.as_f64() >= 0.0 => Ok(n.as_f64() as usize),
        (kind, _) => Err(chat_display_error(&Error::expected(
            &Path::ROOT,
            "a number at least 0, or null",
            kind,
        ))),
    }
}

/// The record in place of an element that could not be read: a failed `error` record whose
/// content is the error's text and path, made key by key, in the order of every record's keys.
fn error_record(text: &str, path: &str) -> JsValue {
    let content = plain_object(&[
        ("text", Some(&JsValue::from_str(text))),
        ("path", Some(&JsValue::from_str(path))),
    ]);
    plain_object(&[
        ("conversation_id", None),
        ("message_type", None),
        ("content_type", Some(&js_str("error", JsValue::clone))),
        ("content", Some(&content)),
        ("sequence", Some(&JsValue::from_f64(0.0))),
        ("status", Some(&js_str("failed", JsValue::clone))),
        ("tool_call_id", None),
        ("metadata", Some(&Fresh::new().into())),
    ])
}

/// A plain object with `entries` as its properties, in order; `None` is `null`.
fn plain_object(entries: &[(&'static str, Option<&JsValue>)]) -> JsValue {
    let object = Fresh::new();
    for (key, value) in entries {
        js_str(key, |key| object.put(key, value.unwrap_or(&JsValue::NULL)));
    }
    object.into()
}

/// One record as a JavaScript object, built by the tape's glue from words: a Transcript's records
/// one at a time, and those of a stream's reader (`stream.rs`).
pub(super) fn record_from_words(record: &DisplayRecord<Input<'_>>) -> JsValue {
    let mut words = RecordWords::new();
    words.item(&record.item, record.sequence, record.status);
    let (ptr, _) = words.words();
    cd_record(ptr, &words.extra(), &conversation_id(Some(record)))
}
