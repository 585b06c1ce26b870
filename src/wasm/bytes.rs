//! Text and bytes handed in whole, to be parsed inside the module rather than read in place: a
//! Transcript's JSON text ([`utf8_of`], [`given_bytes`]) and a stream's byte chunks
//! ([`given_bytes`]). Copied into the module's memory by the engine, in one step each.
//!
//! In the module with the `transcript` feature only (which `providers`, the streams' feature,
//! implies).

use crate::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    /// `TextEncoder`, for JSON text given as a string.
    type TextEncoder;

    #[wasm_bindgen(constructor)]
    fn new() -> TextEncoder;

    /// The UTF-8 bytes of a string (lone surrogates as U+FFFD).
    #[wasm_bindgen(method)]
    fn encode(this: &TextEncoder, text: &JsValue) -> js_sys::Uint8Array;

    /// `encodeInto(text, into)`: as much of `text` as fits, whole characters only.
    #[wasm_bindgen(method, js_name = encodeInto)]
    fn encode_into(this: &TextEncoder, text: &JsValue, into: &js_sys::Uint8Array) -> Encoded;

    /// What `encodeInto` did.
    type Encoded;

    /// UTF-16 units read.
    #[wasm_bindgen(method, getter)]
    fn read(this: &Encoded) -> u32;

    /// Bytes written.
    #[wasm_bindgen(method, getter)]
    fn written(this: &Encoded) -> u32;
}

/// The UTF-8 bytes of a string, written by the engine straight into the module's memory, in a
/// buffer of about their size.
///
/// wasm-bindgen's own copy of a string reserves three bytes per character from the first
/// non-ASCII one on, and `TextEncoder.encode` makes a JavaScript buffer that is then copied in
/// (about a third of loading a Transcript in Node). Here one byte per UTF-16 unit is reserved and
/// filled with `encodeInto`, which stops before a character that does not fit; the rest, which
/// is what the non-ASCII characters made too long, is encoded on its own and appended.
pub(super) fn utf8_of(text: &JsValue) -> Vec<u8> {
    let string: &js_sys::JsString = text.unchecked_ref();
    let units = string.length() as usize;
    let encoder = TextEncoder::new();
    let mut bytes: Vec<u8> = Vec::with_capacity(units);
    // SAFETY: the view covers the vector's spare capacity, and nothing allocates in the module
    // (which could move its memory) while it is in use.
    let done = unsafe {
        let view = js_sys::Uint8Array::view_mut_raw(bytes.as_mut_ptr(), units);
        encoder.encode_into(text, &view)
    };
    // SAFETY: `encodeInto` wrote this many bytes, never more than the view holds.
    unsafe { bytes.set_len((done.written() as usize).min(units)) };
    let read = done.read() as usize;
    if read < units {
        append_bytes(
            &mut bytes,
            &encoder.encode(&string.slice(read as u32, units as u32)),
        );
    }
    bytes
}

/// The bytes a caller gave. Bytes that view the module's own memory are copied out of it first:
/// making room for them may grow the memory, which detaches every view of it (the engine then
/// threw a TypeError from inside the copy).
pub(super) fn given_bytes(given: &js_sys::Uint8Array) -> Vec<u8> {
    let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
    let mut bytes = Vec::new();
    if JsValue::from(given.buffer()) == memory.buffer() {
        append_bytes(&mut bytes, &given.slice(0, given.length()));
    } else {
        append_bytes(&mut bytes, given);
    }
    bytes
}

/// Appends a typed array's bytes to `bytes`, copied by the engine (`set` on a view of the
/// vector's new room); `from` must not view the module's memory. js-sys's `copy_to` and `to_vec`
/// do the same behind a length assertion, whose panic message the module would otherwise carry.
fn append_bytes(bytes: &mut Vec<u8>, from: &js_sys::Uint8Array) {
    let len = from.length() as usize;
    if len == 0 {
        // Nothing to copy (`set` would throw for a view whose buffer was detached before the call).
        return;
    }
    bytes.reserve_exact(len);
    let start = bytes.len();
    // SAFETY: the view covers `len` bytes of the room just reserved, and nothing allocates in the
    // module (which could move its memory) while it is in use; `set` writes exactly `len` bytes
    // (the source is outside the module's memory, and no JavaScript runs between reading its
    // length and copying it).
    unsafe {
        js_sys::Uint8Array::view_mut_raw(bytes.as_mut_ptr().add(start), len).set(from, 0);
        bytes.set_len(start + len);
    }
}
