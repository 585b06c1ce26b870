//! The display functions' fast path, both ways: their input read once in JavaScript into a tape
//! of numbers ([`read`]: [`Tape`], [`OnTape`]), and their items and records written back as
//! numbers the same JavaScript builds the objects from ([`write`]: `RecordWords`). The
//! JavaScript half is `tape.js`, beside this file; the words both halves know by number are
//! [`seeds`].
//!
//! Reading a JavaScript value from wasm is a call per property, type test and array element, and
//! making an object is a call per property: 67 calls a message, most of `toDisplayMessages`' time
//! (issue 8). So `extractDisplayItems` and `toDisplayMessages` hand their input to the glue, which
//! walks it once in JavaScript and writes what it finds into one `Int32Array`, copied into the
//! module in one call; the core reads that tape through the same `Json` view, and the records
//! come back as one array of numbers the glue turns into objects. Strings are not copied, except
//! the short ones (keys, roles, ids; one joined string a call); every other value stays in a
//! JavaScript array and is referred to by its index, so moved values come back as the very same
//! values.
//!
//! A slot is one 32-bit word, its kind in the low 3 bits:
//!
//! | tag | value | payload (word >> 3) |
//! |---|---|---|
//! | 0 | null, `undefined`, false, true | 0, 1, 2, 3 |
//! | 1 | a short string (up to 32 UTF-16 units) | its index among the call's short strings |
//! | 2 | any other string | its index among the call's values |
//! | 3 | a number | its index among the call's values |
//! | 4 | an array | the element count; then the slot after the whole array, the array's own index among the call's values, and the elements |
//! | 5 | an object | bit 3 set for a partial object (below), the key count above it (word >> 4); then the slot after the whole object, its own index, and the key and value slots |
//! | 6 | a value read in place (below) | its kind in 3 bits (4 array, 5 object, 7 other), then its index among the call's values |
//!
//! A LangChain message is read by what the core asks of it. Its objects (the message, its content
//! parts, tool calls and tool results, and below them an image or unsupported part's `options`, a
//! call's `metadata` and a result's `options`) are read by property access of the keys
//! `parse_message` reads, as [`InPlace`](super::in_place::InPlace) would read them, and written
//! partial: every one of those keys, `undefined` where absent. Any other key the core asks for, of
//! any object on the tape, is read in place, so the display functions see what every other
//! function sees, at a few calls out of wasm each: a key the message readers start to read must be
//! added to the glue too, or every part, call or result of a conversation pays for it (issue 45;
//! `tests/js/tape.test.mjs` fails on a key read in place). Strings
//! the core compares (roles, part types, and in `toDisplayMessages` tool call ids) are short
//! strings; texts, names and moved values (`arguments`) are values, not walked. Arrays are read by
//! index.
//!
//! Since the glue writes those keys in one fixed order, the usual message (text and thinking
//! parts, calls with an id, results without options) is read back by position ([`fixed`]), not
//! key by key through the `Json` view; `parse_message` reads every other one. The glue's order and
//! `fixed.rs`'s lists of keys must agree: where they do not, every message takes the slower way,
//! with the same records.
//!
//! A Sycophant message (one with a non-null `__type__`) is walked whole: plain objects (prototype
//! `Object.prototype` or `null`) by their own enumerable keys (`Object.keys`, as `InPlace` lists an
//! object's entries), arrays by index. Values it only moves (under the [`seeds::MOVED`] keys),
//! objects deeper than five levels below a message, and every other object (class instances,
//! functions, symbols, bigints) are not walked: they are tag 6 and read in place if the core asks.
//!
//! Anything unusual (a getter or proxy that throws, a huge array, a call made from inside a getter
//! while the glue is walking) makes the glue give up, and the function reads its input in place
//! instead.

mod fixed;
mod read;
mod seeds;
pub(super) mod write;

pub use read::{OnTape, Tape};
pub(super) use write::{items_from_words, records_from_words};

use crate::prelude::*;
use wasm_bindgen::prelude::*;

/// The glue, `tape.js`: what each function does is said there. (`cdRecord`, one record at a
/// time, is imported by its one user, `transcript.rs`.)
#[wasm_bindgen(module = "/src/wasm/tape.js")]
extern "C" {
    /// Gives the glue the seeds (joined by "\n"), how many of them are keys whose values it only
    /// moves, and the module's memory.
    #[wasm_bindgen(js_name = cdSeed)]
    fn cd_seed(joined: &str, moved: u32, memory: &JsValue);
    /// Writes the tape of `value` into the module's memory at `ptr` when it fits in `cap` words:
    /// its length; minus its length when it is to be fetched with `cd_words`; -1 when the glue
    /// gave up.
    #[wasm_bindgen(js_name = cdEncode)]
    fn cd_encode(value: &JsValue, ptr: usize, cap: usize, compare: bool) -> i32;
    /// The tape's first `len` words, into the module's memory at `ptr`.
    #[wasm_bindgen(js_name = cdWords)]
    fn cd_words(ptr: usize, len: usize);
    /// The text of this call's own short strings, joined.
    #[wasm_bindgen(js_name = cdText)]
    fn cd_text() -> String;
    /// Value `i` of this call.
    #[wasm_bindgen(js_name = cdHandle)]
    fn cd_handle(i: u32) -> JsValue;
    /// Short string `i`, as a JavaScript string.
    #[wasm_bindgen(js_name = cdString)]
    fn cd_string(i: u32) -> JsValue;
    /// Lets go of this call's values and short strings.
    #[wasm_bindgen(js_name = cdDone)]
    fn cd_done();
    /// Display items built from the `len` words at `ptr`.
    #[wasm_bindgen(js_name = cdItems)]
    fn cd_items(ptr: usize, len: usize, extra: &JsValue) -> JsValue;
    /// Records of one conversation built from the `len` words at `ptr`.
    #[wasm_bindgen(js_name = cdRecords)]
    fn cd_records(ptr: usize, len: usize, extra: &JsValue, conversation_id: &JsValue) -> JsValue;
}

/// A slot's tag, its low 3 bits (the table above).
const TAG_SPECIAL: u32 = 0;
const TAG_SHORT: u32 = 1;
const TAG_STRING: u32 = 2;
const TAG_NUMBER: u32 = 3;
const TAG_ARRAY: u32 = 4;
const TAG_OBJECT: u32 = 5;
const TAG_FOREIGN: u32 = 6;
/// The flag of an object's head word (above its tag) that marks it partial: only the keys the core
/// reads are on the tape (see the table above).
const PARTIAL: u32 = 8;
/// The special slots: `null`, `undefined`, `false` and `true` (the table above).
const NULL: u32 = TAG_SPECIAL;
const UNDEFINED: u32 = 1 << 3;
const FALSE: u32 = 2 << 3 | TAG_SPECIAL;
const TRUE: u32 = 3 << 3 | TAG_SPECIAL;
