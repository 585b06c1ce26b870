//! Live provider streams: the `StreamAccumulator` class, with its types in `stream.d.ts`. A chunk
//! comes in as text, bytes ([`super::bytes`]) or an event object read in place; what it changed
//! leaves as patches ([`patches`]); the message and records so far leave through serde. The
//! accumulator's bodies are read by the provider readers through JavaScript values
//! ([`ReaderThroughJs`]).
//!
//! In the module with the `providers` feature only (the `chat-display` entry; not `core`).

mod patches;

use super::bytes::given_bytes;
use super::error::chat_display_error;
use super::input::Input;
use super::transcript::record_from_words;
use super::write::{serde_result, serde_to_js};
use crate::error::{Error, ErrorCode, Path};
use crate::json::{Json, Kind};
use crate::prelude::*;
use core::sync::atomic::{AtomicU32, Ordering};
use js_sys::Array;
use patches::PatchWriter;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(typescript_custom_section)]
const STREAM_TYPES: &str = include_str!("stream.d.ts");

/// A provider's streaming response, read as it arrives.
#[wasm_bindgen(js_name = StreamAccumulator)]
pub struct StreamAccumulator {
    inner: crate::stream::StreamAccumulator<ReaderThroughJs>,
    /// A high surrogate that ended the last string chunk: the rest of its character comes next.
    high: Option<u16>,
    /// What writes the patches, and the records it handed out that the next ones may share.
    writer: PatchWriter,
    /// This accumulator's number, the `stream` of every array `push` returns: it tells an element
    /// that shows several replies which one a patch's `index` counts in (docs/ELEMENT.md, Streams).
    id: u32,
}

/// The number the next accumulator gets (1 up; wraps after four billion, long after any page).
static NEXT_ID: AtomicU32 = AtomicU32::new(1);

#[wasm_bindgen(js_class = StreamAccumulator)]
impl StreamAccumulator {
    /// A new accumulator for a wire protocol that has a stream (`unsupported_protocol` otherwise,
    /// `langchain_js` included).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "WireProtocol")] protocol: JsValue,
    ) -> Result<StreamAccumulator, JsValue> {
        let protocol = crate::providers::stream_protocol(&Input::in_place(protocol))
            .map_err(|e| chat_display_error(&e))?;
        Ok(StreamAccumulator {
            inner: crate::stream::StreamAccumulator::<ReaderThroughJs>::with_reader(protocol),
            high: None,
            writer: PatchWriter::new(),
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        })
    }

    /// Reads a chunk: the stream's text or bytes (in a transport its format names: SSE, AWS
    /// event-stream frames, NDJSON or a growing JSON array) cut anywhere (inside a line, a UTF-8 character or a surrogate pair), or
    /// one parsed event object. Returns what changed in the records.
    #[wasm_bindgen(unchecked_return_type = "Patches")]
    pub fn push(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string | Uint8Array | object")] chunk: JsValue,
    ) -> Result<JsValue, JsValue> {
        let root = Path::Root("$.chunk");
        // `as_string` copies the UTF-16 text into wasm as UTF-8 in one step (lone surrogates
        // become U+FFFD, as TextEncoder does).
        let patches = if let Some(mut text) = chunk.as_string() {
            let mut js: js_sys::JsString = chunk.unchecked_into();
            if let Some(high) = self.high.take() {
                // The character cut at the end of the last chunk: read again with its rest.
                js = js_sys::JsString::from_char_code1(u32::from(high)).concat(&js);
                text = JsValue::from(js.clone()).as_string().unwrap_or_default();
            }
            // A chunk that ends inside a surrogate pair ends in U+FFFD here: the high surrogate
            // waits for the next chunk instead.
            if text.ends_with('\u{FFFD}') {
                let length = js.length();
                let last = js.char_code_at(length.saturating_sub(1)) as u32;
                if length > 0 && (0xD800..0xDC00).contains(&last) {
                    self.high = Some(last as u16);
                    text.truncate(text.len() - '\u{FFFD}'.len_utf8());
                }
            }
            self.inner
                .push(crate::stream::Chunk::Bytes(text.as_bytes()))
        } else if let Some(given) = chunk.dyn_ref::<js_sys::Uint8Array>() {
            let bytes = given_bytes(given);
            self.inner.push(crate::stream::Chunk::Bytes(&bytes))
        } else {
            let event = Input::in_place(chunk);
            if event.kind() != Kind::Object {
                return Err(chat_display_error(&Error::expected(
                    &root,
                    "the stream's text, bytes (a Uint8Array) or an event object",
                    event.kind(),
                )));
            }
            let event =
                crate::stream::event_of(&event, &root).map_err(|e| chat_display_error(&e))?;
            self.inner.push(crate::stream::Chunk::Event(event))
        };
        let out = Array::new_with_length(patches.len() as u32);
        for (i, patch) in patches.iter().enumerate() {
            out.set(i as u32, self.writer.write(patch, self.inner.records())?);
        }
        // Not enumerable: the array stays the patches to JSON.stringify, spreads and deep equality.
        let descriptor = js_sys::Object::new();
        js_sys::Reflect::set(
            &descriptor,
            &JsValue::from_str("value"),
            &JsValue::from(self.id),
        )?;
        js_sys::Object::define_property(&out, &JsValue::from_str("stream"), &descriptor);
        Ok(out.into())
    }

    /// The message so far, as `fromProvider` reads the response body built from the stream.
    /// Throws the ChatDisplayError `fromProvider` throws when the events built a body it cannot
    /// read (a block of the wrong shape, say).
    #[wasm_bindgen(unchecked_return_type = "ProviderMessage")]
    pub fn message(&self) -> Result<JsValue, JsValue> {
        serde_result(self.inner.message())
    }

    /// The display-message records so far.
    #[wasm_bindgen(unchecked_return_type = "StreamRecord[]")]
    pub fn records(&self) -> Result<JsValue, JsValue> {
        serde_to_js(&self.inner.records())
    }

    /// True once the stream has said it is over.
    #[wasm_bindgen(getter)]
    pub fn done(&self) -> bool {
        self.inner.done()
    }
}

/// The stream accumulator's reader in the module: the bodies it builds go to the provider readers
/// as JavaScript values, read in place (the module holds the readers for those already; reading
/// `Parsed` values directly would add a second copy of every reader to the `.wasm`), and what
/// they give is read back the same way.
struct ReaderThroughJs;

impl crate::stream::Reader for ReaderThroughJs {
    fn read(
        protocol: crate::providers::WireProtocol,
        body: &crate::json::Parsed,
        records: bool,
    ) -> crate::error::Result<(crate::json::Parsed, Vec<(usize, crate::json::Parsed)>)> {
        let unwritable = |_| {
            Error::new(
                ErrorCode::InvalidInput,
                &Path::ROOT,
                "A value in the stream cannot be written as JavaScript.",
            )
        };
        let body = Input::in_place(serde_to_js(body).map_err(unwritable)?);
        let messages = crate::providers::read_payload(protocol, &body)?;
        let messages = Input::in_place(serde_to_js(&messages).map_err(unwritable)?);
        let parsed = crate::stream::event_of(&messages, &Path::ROOT)?;
        if !records {
            return Ok((parsed, Vec::new()));
        }
        let mut out = Vec::new();
        for (owner, record) in crate::stream::records_with_owners(&messages)? {
            let record = Input::in_place(record_from_words(&record));
            out.push((owner, crate::stream::event_of(&record, &Path::ROOT)?));
        }
        Ok((parsed, out))
    }
}
