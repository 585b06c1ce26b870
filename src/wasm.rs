//! The JavaScript boundary: the only module that touches `wasm_bindgen` and `JsValue`.
//!
//! Inputs arrive as plain `JsValue`s and are read in place through [`Js`], the core's [`Json`] view
//! of a JavaScript value, so strings and nested objects the core only moves go back to JavaScript
//! as the very same values. Outputs leave through one serializer, `json_compatible()`: plain
//! objects, never `Map`, and `null`, never `undefined`. Every failure becomes a real `Error` named
//! `ChatDisplayError` with `code` and `path`; nothing here can panic on input.

use crate::display::{self, DisplayItem, DisplayRecord, ItemContent, ResultText, Status};
#[cfg(feature = "transcript")]
use crate::doc::{Engine, Node};
use crate::error::{text, Error, ErrorCode, Path};
use crate::json::{Json, Kind, Number};
use crate::message::Role;
use crate::prelude::*;
#[cfg(feature = "sycophant")]
use crate::sycophant;
#[cfg(feature = "transcript")]
use crate::transcript;
use alloc::borrow::Cow;
use core::cell::{Cell, RefCell};
use js_sys::{Array, Object, Reflect};
use serde::{Serialize, Serializer};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

// The allocator: talc instead of the standard dlmalloc, for the module's size.
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// Without std (the shipped module), a panic is a trap. None is reachable from input: every
/// failure on input is a `ChatDisplayError`, and the fuzz targets hold the core to that. Not
/// reading the panic's message keeps Rust's formatting machinery out of the module.
#[cfg(not(feature = "std"))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    core::arch::wasm32::unreachable()
}

/// When the module starts: the hash key of its tables (`map.rs`), drawn from the engine's random
/// numbers, so that which tool call ids share a slot cannot be known by whoever wrote them.
/// (`Math.random()` is enough: what it protects against is a conversation's text, not code running
/// in the page.)
#[wasm_bindgen(start, private)]
fn start() {
    // Two draws of 32 bits each (a draw has 52 or 53).
    let high = (js_sys::Math::random() * 4_294_967_296.0) as u64;
    let low = (js_sys::Math::random() * 4_294_967_296.0) as u64;
    crate::map::set_key((high << 32) | low);
}

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** A message role, which is also a display item's `message_type`. */
export type MessageType = "user" | "assistant" | "tool" | "system";

/** Any value `JSON.parse` can return. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** `LangChain.Message.ContentPart`. Only `text` and `thinking` parts are displayed. */
export interface ContentPart {
  type: "text" | "image_url" | "image" | "file" | "file_url" | "thinking" | "unsupported";
  content?: string | null;
  options?: { [key: string]: JsonValue } | JsonValue[] | null;
  citations?: JsonValue[] | null;
}

/** `LangChain.Message.ToolCall`. */
export interface ToolCall {
  call_id?: string | null;
  name?: string | null;
  /** Any JSON: usually an object, or a raw JSON string while a call streams. */
  arguments?: JsonValue;
  display_text?: string | null;
  status?: "incomplete" | "complete";
  type?: "function";
  index?: number | null;
  metadata?: { [key: string]: JsonValue } | null;
}

/** `LangChain.MessageExpansion` (langchain v0.14.1). */
export interface MessageExpansion {
  messages: Message[];
  result_content?: string | ContentPart | ContentPart[] | null;
}

/** `LangChain.Message.ToolResult`. Absent keys take the upstream defaults. */
export interface ToolResult {
  type?: "function";
  tool_call_id?: string | null;
  name?: string | null;
  content?: string | ContentPart[] | null;
  processed_content?: JsonValue;
  display_text?: string | null;
  is_error?: boolean | null;
  is_interrupt?: boolean | null;
  interrupt_data?: JsonValue;
  options?: JsonValue;
  message_expansion?: MessageExpansion | null;
}

/** `LangChain.Message`. `role` is required: it is never assumed. */
export interface Message {
  role: MessageType;
  content?: string | ContentPart[] | null;
  processed_content?: JsonValue;
  status?: "complete" | "cancelled" | "length" | "content_filtered" | "stream_error";
  index?: number | null;
  name?: string | null;
  tool_calls?: ToolCall[] | null;
  tool_results?: ToolResult[] | null;
  metadata?: { [key: string]: JsonValue } | null;
}

/** One displayable piece of a message (Sagents `extract_display_items/1`). */
export type DisplayItem =
  | { type: "text" | "thinking"; message_type: MessageType; content: { text: string } }
  | { type: "tool_call"; message_type: MessageType; content: ToolCallContent }
  | { type: "tool_result"; message_type: MessageType; content: ToolResultContent };

export interface ToolCallContent {
  call_id: string | null;
  name: string | null;
  arguments: JsonValue;
  display_text: string | null;
}

export interface ToolResultContent {
  tool_call_id: string | null;
  name: string | null;
  content: string;
  is_error: boolean;
  is_interrupt: boolean;
}

/** The ten content types of a display-message record. */
export type ContentType = "text" | "thinking" | "image" | "file_reference" | "structured_data"
  | "notification" | "error" | "tool_call" | "tool_result" | "todo_snapshot";

/** The six statuses of a display-message record. */
export type DisplayStatus = "pending" | "executing" | "completed" | "failed" | "interrupted" | "cancelled";

/** A display-message record (the Sagents DisplayMessage schema, as JSON). */
export interface DisplayMessage {
  id?: string;
  conversation_id: string | null;
  message_type: string | null;
  content_type: ContentType | string | null;
  content: { [key: string]: JsonValue } | null;
  tool_call_id: string | null;
  sequence: number | null;
  status: DisplayStatus | string | null;
  metadata: { [key: string]: JsonValue } | null;
  inserted_at?: string;
}

/** A record as `toDisplayMessages` makes it from one display item. */
export type DisplayRecord = {
  conversation_id: string | null;
  message_type: MessageType;
  sequence: number;
  metadata: { [key: string]: never };
} & (
  | { content_type: "text" | "thinking"; content: { text: string }; status: "completed"; tool_call_id: null }
  | { content_type: "tool_call"; content: ToolCallContent; status: "pending" | "completed" | "failed" | "interrupted"; tool_call_id: string | null }
  | { content_type: "tool_result"; content: ToolResultContent; status: "completed"; tool_call_id: string | null }
);

export interface ToDisplayMessagesOptions {
  conversation_id?: string | null;
}

export type ErrorCode = "invalid_input" | "unsupported_role" | "empty_expansion" | "invalid_expansion"
  | "invalid_expansion_role" | "missing_type" | "unknown_type" | "too_deep" | "unsupported_protocol";

/** What every function throws on bad input: a real `Error` with a stable `code` and the `path` of
 * the offending place (`$`, `$.tool_calls[1].call_id`, `$.messages[3].content[0]`). */
export interface ChatDisplayError extends Error {
  name: "ChatDisplayError";
  code: ErrorCode;
  path: string;
}
"#;

#[wasm_bindgen]
extern "C" {
    /// `Object.keys`, with a throwing proxy trap caught.
    #[wasm_bindgen(catch, js_namespace = Object, js_name = keys)]
    fn object_keys(value: &JsValue) -> Result<Array, JsValue>;
    /// `Array.isArray`, which throws on a revoked proxy.
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn array_is_array(value: &JsValue) -> Result<bool, JsValue>;
}

/// `Array.isArray(value)`; a revoked proxy is not an array.
fn is_array(value: &JsValue) -> bool {
    array_is_array(value).unwrap_or(false)
}

/// The most elements an array read in place may have. Reading one holds a JavaScript handle per
/// element, and V8's table of handles stops at about 10 million entries (a trap, which would
/// leave the module unusable); a longer array (a sparse one, most likely) is a value this module
/// does not take, `Kind::Other`, so the functions give their `invalid_input` error. The glue
/// applies the same bound to the arrays it leaves to `JsVal`.
const ELEMENTS_MAX: u32 = 1 << 22;

/// The kind of an object: an array (of at most `ELEMENTS_MAX` elements), a longer array, or any
/// other object.
fn object_kind(value: &JsValue) -> Kind {
    if !is_array(value) {
        return Kind::Object;
    }
    if array_length(value) > f64::from(ELEMENTS_MAX) {
        Kind::Other
    } else {
        Kind::Array
    }
}

/// An array's `length`, read through Reflect so a throwing proxy trap or getter reads as 0
/// instead of escaping as a foreign exception.
fn array_length(value: &JsValue) -> f64 {
    let length = js_str("length", |key| reflect_get(value, key));
    length.ok().and_then(|l| l.as_f64()).unwrap_or(0.0)
}

/// A JavaScript value seen through the core's [`Json`] view.
///
/// Every question asked of a JavaScript value is a call out of wasm, so the view asks as few as it
/// can: a value's kind is found once and kept, keys and constant strings are JavaScript strings
/// made once and reused (see [`js_str`]), and kind tests go in the order values are met.
#[derive(Clone, Debug)]
pub struct JsVal {
    value: JsValue,
    kind: Cell<Option<Kind>>,
}

impl JsVal {
    pub fn new(value: JsValue) -> JsVal {
        JsVal {
            value,
            kind: Cell::new(None),
        }
    }

    fn with_kind(value: JsValue, kind: Kind) -> JsVal {
        JsVal {
            value,
            kind: Cell::new(Some(kind)),
        }
    }

    /// The JavaScript value itself.
    pub fn value(&self) -> &JsValue {
        &self.value
    }

    /// An array's length (at most `ELEMENTS_MAX`, which its kind ensures).
    fn length(&self) -> Option<u32> {
        (self.kind() == Kind::Array).then(|| array_length(&self.value) as u32)
    }

    fn element(&self, i: u32) -> JsVal {
        JsVal::new(Reflect::get_u32(&self.value, i).unwrap_or(JsValue::UNDEFINED))
    }
}

#[wasm_bindgen]
extern "C" {
    /// `Reflect.get`, for reading input: a throwing getter or proxy trap comes back as `Err`.
    #[wasm_bindgen(js_namespace = Reflect, js_name = get, catch)]
    fn reflect_get(target: &JsValue, key: &JsValue) -> Result<JsValue, JsValue>;

    /// `Reflect.get` where `null` and `undefined` are both absent, told apart in the same call.
    #[wasm_bindgen(js_namespace = Reflect, js_name = get, catch)]
    fn reflect_get_some(target: &JsValue, key: &JsValue) -> Result<Option<Object>, JsValue>;

    /// A JavaScript number.
    type Num;

    /// `Number.prototype.toExponential()`: the shortest round-trip digits, `d.ddde±n`.
    #[wasm_bindgen(method, structural, js_name = toExponential)]
    fn to_exponential(this: &Num) -> String;

    /// A plain object this module has just made.
    #[wasm_bindgen(extends = Object)]
    type Fresh;

    /// `{}`.
    #[wasm_bindgen(constructor, js_class = "Object")]
    fn new() -> Fresh;

    /// `target[key] = value`, for filling a fresh plain object, which cannot throw (the keys are
    /// this module's own and never `__proto__`).
    #[wasm_bindgen(method, structural, indexing_setter)]
    fn put(this: &Fresh, key: &JsValue, value: &JsValue);

    /// `target[key]`, for reading back this module's own plain objects (no getters to throw).
    #[wasm_bindgen(method, structural, indexing_getter)]
    fn take(this: &Fresh, key: &JsValue) -> JsValue;
}

impl Json for JsVal {
    fn is_object(&self) -> bool {
        if let Some(kind) = self.kind.get() {
            return kind == Kind::Object;
        }
        // Where an object is expected, ask that first: two questions instead of three.
        let v = &self.value;
        if v.is_object() {
            let kind = object_kind(v);
            self.kind.set(Some(kind));
            return kind == Kind::Object;
        }
        self.kind() == Kind::Object
    }

    fn kind(&self) -> Kind {
        if let Some(kind) = self.kind.get() {
            return kind;
        }
        let v = &self.value;
        // Strings and objects are what inputs hold most; `typeof` tests are calls, so they come first.
        let kind = if v.is_string() {
            Kind::String
        } else if v.is_object() {
            object_kind(v)
        } else if v.is_null() || v.is_undefined() {
            Kind::Null
        } else if v.as_bool().is_some() {
            Kind::Bool
        } else if v.as_f64().is_some() {
            Kind::Number
        } else {
            // Functions, symbols and bigints.
            Kind::Other
        };
        self.kind.set(Some(kind));
        kind
    }

    fn get(&self, key: &str) -> Option<Self> {
        if self.kind() != Kind::Object {
            return None;
        }
        // A throwing getter or proxy trap reads as absent rather than escaping as a foreign error.
        js_str(key, |key| reflect_get(&self.value, key))
            .ok()
            .filter(|v| !v.is_undefined())
            .map(JsVal::new)
    }

    fn get_non_null(&self, key: &str) -> Option<Self> {
        if self.kind() != Kind::Object {
            return None;
        }
        js_str(key, |key| reflect_get_some(&self.value, key))
            .ok()
            .flatten()
            .map(|v| JsVal::new(v.into()))
    }

    fn elements(&self) -> Option<Vec<Self>> {
        let length = self.length()?;
        Some((0..length).map(|i| self.element(i)).collect())
    }

    /// [`Json::each_element`] one element at a time, each handle dropped once `f` has it, so a
    /// huge array (a sparse one, say) that parsing stops at early holds no handle per element
    /// (V8's table of handles stops at about 10 million).
    fn each_element(&self, mut f: impl FnMut(usize, Self) -> bool) -> bool {
        let Some(length) = self.length() else {
            return false;
        };
        for i in 0..length {
            if !f(i as usize, self.element(i)) {
                break;
            }
        }
        true
    }

    fn as_str(&self) -> Option<Cow<'_, str>> {
        if self.kind() != Kind::String {
            return None;
        }
        self.value.as_string().map(Cow::Owned)
    }

    fn match_str(&self, candidates: &[&'static str]) -> Option<usize> {
        if self.kind() != Kind::String {
            return None;
        }
        // Comparing with a kept JavaScript string is one call; reading the string into Rust is
        // several, and a copy.
        candidates
            .iter()
            .position(|c| js_str(c, |c| *c == self.value))
    }

    fn as_bool(&self) -> Option<bool> {
        self.value.as_bool()
    }

    fn as_number(&self) -> Option<Number> {
        self.value.as_f64().map(Number::from_f64)
    }

    fn entries(&self) -> Option<Vec<(String, Self)>> {
        if self.kind() != Kind::Object {
            return None;
        }
        // A proxy whose ownKeys trap throws has no entries.
        let keys = object_keys(&self.value).ok()?;
        Some(
            keys.iter()
                .filter_map(|key| {
                    let name = key.as_string()?;
                    let value = reflect_get(&self.value, &key).ok()?;
                    Some((name, JsVal::new(value)))
                })
                .collect(),
        )
    }

    fn is_empty_str(&self) -> bool {
        js_str("", |empty| *empty == self.value)
    }

    fn empty_object() -> Self {
        JsVal::with_kind(Object::new().into(), Kind::Object)
    }

    fn shortest_digits(x: f64) -> (String, i64) {
        // `toExponential()` without an argument gives the shortest digits that read back as `x`
        // (ECMA-262 Number::toString's digits), as Rust's `{:e}` does natively.
        let number: Num = JsValue::from_f64(x).unchecked_into();
        crate::json::digits_of_exponential(&number.to_exponential())
    }
}

/// The one handle type the core reads in wasm: a JavaScript value, or a value of a document a
/// Transcript holds. One type, so the core is compiled once for both (each generic function
/// compiled for two handle types would be in the module twice). Without the `transcript` feature
/// (the display module) there is no Transcript and so no document value: the variant goes, and
/// with it the document's readers, which each method's `match` would otherwise keep in the module.
#[derive(Clone, Debug)]
pub enum Value<'a> {
    Js(JsVal),
    #[cfg(feature = "transcript")]
    Doc(DocNode<'a>),
    Tape(TapeVal<'a>),
}

/// A handle on a JavaScript value.
pub type Js = Value<'static>;

impl Value<'_> {
    pub fn new(value: JsValue) -> Self {
        Value::Js(JsVal::new(value))
    }

    /// An optional argument: `undefined` is absent.
    fn optional(value: JsValue) -> Option<Self> {
        Some(value).filter(|v| !v.is_undefined()).map(Value::new)
    }

    /// The JavaScript value (made, for a document's).
    fn to_js(&self) -> Cow<'_, JsValue> {
        match self {
            Value::Js(v) => Cow::Borrowed(&v.value),
            #[cfg(feature = "transcript")]
            Value::Doc(node) => Cow::Owned(node_to_js(node)),
            Value::Tape(t) => Cow::Owned(t.to_js()),
        }
    }
}

impl<'a> Json for Value<'a> {
    fn fields_into(&self, keys: &'static [&'static str], out: &mut [Option<Self>]) {
        match self {
            Value::Tape(t) => t.fields_into(keys, out),
            #[cfg(feature = "transcript")]
            Value::Doc(n) => n.fields_with(keys, out, Value::Doc),
            Value::Js(_) => crate::json::fields_by_name(self, keys, out),
        }
    }
    fn kind(&self) -> Kind {
        match self {
            Value::Js(v) => v.kind(),
            #[cfg(feature = "transcript")]
            Value::Doc(n) => n.kind(),
            Value::Tape(t) => t.kind(),
        }
    }
    fn is_object(&self) -> bool {
        match self {
            Value::Js(v) => v.is_object(),
            #[cfg(feature = "transcript")]
            Value::Doc(n) => n.kind() == Kind::Object,
            Value::Tape(t) => t.kind() == Kind::Object,
        }
    }
    fn get(&self, key: &str) -> Option<Self> {
        match self {
            Value::Js(v) => v.get(key).map(Value::Js),
            #[cfg(feature = "transcript")]
            Value::Doc(n) => n.get(key).map(Value::Doc),
            Value::Tape(t) => t.get(key),
        }
    }
    fn get_non_null(&self, key: &str) -> Option<Self> {
        match self {
            Value::Js(v) => v.get_non_null(key).map(Value::Js),
            #[cfg(feature = "transcript")]
            Value::Doc(n) => n.get_non_null(key).map(Value::Doc),
            Value::Tape(t) => t.get_non_null(key),
        }
    }
    fn elements(&self) -> Option<Vec<Self>> {
        match self {
            Value::Js(v) => Some(v.elements()?.into_iter().map(Value::Js).collect()),
            // Straight from the document, in a list of the right size (not a list of nodes
            // copied into another).
            #[cfg(feature = "transcript")]
            Value::Doc(n) => {
                if n.kind() != Kind::Array {
                    return None;
                }
                let mut out = Vec::with_capacity(n.items().count());
                out.extend(n.items().map(Value::Doc));
                Some(out)
            }
            Value::Tape(t) => t.elements(),
        }
    }
    fn each_element(&self, mut f: impl FnMut(usize, Self) -> bool) -> bool {
        match self {
            Value::Js(v) => v.each_element(|i, e| f(i, Value::Js(e))),
            Value::Tape(t) => match t.foreign() {
                Some(v) => v.each_element(|i, e| f(i, Value::Js(e))),
                None => t.each_element(f),
            },
            #[cfg(feature = "transcript")]
            Value::Doc(_) => self.elements().is_some_and(|elements| {
                let mut elements = elements.into_iter().enumerate();
                elements.all(|(i, e)| f(i, e));
                true
            }),
        }
    }
    fn as_str(&self) -> Option<Cow<'_, str>> {
        match self {
            Value::Js(v) => v.as_str(),
            #[cfg(feature = "transcript")]
            Value::Doc(n) => n.as_str(),
            Value::Tape(t) => t.as_str(),
        }
    }
    fn match_str(&self, candidates: &[&'static str]) -> Option<usize> {
        match self {
            Value::Js(v) => v.match_str(candidates),
            #[cfg(feature = "transcript")]
            Value::Doc(n) => n.match_str(candidates),
            Value::Tape(t) => t.match_str(candidates),
        }
    }
    fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Js(v) => v.as_bool(),
            #[cfg(feature = "transcript")]
            Value::Doc(n) => n.as_bool(),
            Value::Tape(t) => t.as_bool(),
        }
    }
    fn as_number(&self) -> Option<Number> {
        match self {
            Value::Js(v) => v.as_number(),
            #[cfg(feature = "transcript")]
            Value::Doc(n) => n.as_number(),
            Value::Tape(t) => t.as_number(),
        }
    }
    fn entries(&self) -> Option<Vec<(String, Self)>> {
        match self {
            Value::Js(v) => Some(
                v.entries()?
                    .into_iter()
                    .map(|(k, v)| (k, Value::Js(v)))
                    .collect(),
            ),
            #[cfg(feature = "transcript")]
            Value::Doc(n) => Some(
                n.entries()?
                    .into_iter()
                    .map(|(k, v)| (k, Value::Doc(v)))
                    .collect(),
            ),
            Value::Tape(t) => t.entries(),
        }
    }
    fn is_empty_str(&self) -> bool {
        match self {
            Value::Js(v) => v.is_empty_str(),
            #[cfg(feature = "transcript")]
            Value::Doc(n) => n.is_empty_str(),
            Value::Tape(t) => t.is_empty_str(),
        }
    }
    fn empty_object() -> Self {
        Value::Js(JsVal::empty_object())
    }
    fn shortest_digits(x: f64) -> (String, i64) {
        JsVal::shortest_digits(x)
    }
}

/// One kept JavaScript string: the Rust string it was made from, and where that string was.
struct Kept {
    at: usize,
    text: Box<str>,
    value: JsValue,
}

/// 256 slots, indexed by the top 8 bits of a 32-bit hash.
const KEPT_SLOTS: usize = 256;
const KEPT_MAX_LEN: usize = 32;

/// A value of the module's own. The module has one thread (it is built without atomics), so a
/// `static` needs no lock: this stands in for `thread_local!`, which needs std.
struct Local<T>(T);

// SAFETY: wasm32 without the atomics feature runs on one thread, so nothing is shared.
unsafe impl<T> Sync for Local<T> {}

#[cfg(target_feature = "atomics")]
compile_error!("the module's statics (wasm::Local) assume one thread: build without atomics");

impl<T> Local<T> {
    fn with<R>(&'static self, f: impl FnOnce(&T) -> R) -> R {
        f(&self.0)
    }
}

/// JavaScript strings for the keys and constant values this module reads and writes, each made
/// once: making a JavaScript string from Rust decodes UTF-8 in JavaScript, on every use. The
/// table is indexed by the Rust string's address, so the constants in the code (always at the
/// same address) find their slot without hashing; the text is compared before a slot is used.
/// Its `KEPT_SLOTS` slots are made on first use.
static KEPT: Local<RefCell<Vec<Option<Kept>>>> = Local(RefCell::new(Vec::new()));

/// Calls `f` with the JavaScript string for `s`, made once for short strings and then reused.
/// Only this is compiled once per caller; the table's work is `kept_slot`'s, compiled once.
fn js_str<R>(s: &str, f: impl FnOnce(&JsValue) -> R) -> R {
    let slot = kept_slot(s);
    KEPT.with(|kept| {
        // While `f` runs, a call of `js_str` inside it finds the table borrowed and makes its
        // string (`kept_slot` gives `None`).
        let kept = kept.try_borrow().ok();
        let made;
        let value = match slot
            .zip(kept.as_ref())
            .and_then(|(i, k)| k.get(i)?.as_ref())
        {
            Some(entry) => &entry.value,
            None => {
                made = JsValue::from_str(s);
                &made
            }
        };
        f(value)
    })
}

/// The slot of the kept JavaScript string for `s`, made now if it is not there yet; `None` for a
/// long string, or while the table is in use.
#[inline(never)]
fn kept_slot(s: &str) -> Option<usize> {
    if s.len() > KEPT_MAX_LEN {
        return None;
    }
    let at = s.as_ptr() as usize;
    // Fibonacci hashing of the address (and length, for substrings at the same place).
    let slot = ((at ^ (s.len() << 24)) as u32).wrapping_mul(0x9E37_79B9) as usize >> 24;
    KEPT.with(|kept| {
        let mut kept = kept.try_borrow_mut().ok()?;
        if kept.is_empty() {
            kept.resize_with(KEPT_SLOTS, || None);
        }
        // Up to four slots from the hashed one: the first that holds `s`, else the first free
        // one, else the hashed one is taken over.
        let mut free = None;
        for probe in 0..4 {
            let i = (slot + probe) % KEPT_SLOTS;
            match kept.get(i) {
                Some(Some(k)) if k.at == at && *k.text == *s => return Some(i),
                Some(None) if free.is_none() => free = Some(i),
                _ => {}
            }
        }
        let i = free.unwrap_or(slot);
        *kept.get_mut(i)? = Some(Kept {
            at,
            text: s.into(),
            value: JsValue::from_str(s),
        });
        Some(i)
    })
}

/// JavaScript numbers 0 to 31, for patch paths' indices: each made once, on first use.
#[cfg(feature = "providers")]
static SMALL: Local<RefCell<Vec<JsValue>>> = Local(RefCell::new(Vec::new()));

/// The JavaScript number `n`, kept when small.
#[cfg(feature = "providers")]
fn small_number(n: usize) -> JsValue {
    SMALL
        .with(|small| {
            let mut small = small.try_borrow_mut().ok()?;
            if small.is_empty() {
                small.extend((0..32).map(|i| JsValue::from_f64(f64::from(i))));
            }
            small.get(n).cloned()
        })
        .unwrap_or_else(|| JsValue::from_f64(n as f64))
}

/// The kept JavaScript string for a constant. (This and the helpers below gated by `transcript`
/// serve `Transcript` and the streams, whose `providers` feature implies it.)
#[cfg(feature = "transcript")]
fn constant(s: &'static str) -> JsValue {
    js_str(s, JsValue::clone)
}

/// A plain object with `entries` as its properties, in order; `None` is `null`.
#[cfg(feature = "transcript")]
fn object(entries: &[(&'static str, Option<&JsValue>)]) -> JsValue {
    let object = Fresh::new();
    for (key, value) in entries {
        js_str(key, |key| object.put(key, value.unwrap_or(&JsValue::NULL)));
    }
    object.into()
}

/// The JavaScript value a [`Value`] hands to [`JsSerializer`] while it serializes itself.
static PRESERVED: Local<RefCell<Option<JsValue>>> = Local(RefCell::new(None));

/// The newtype name by which a [`Value`] tells [`JsSerializer`] to take its value as it is.
const PRESERVE: &str = "chat_display::wasm::Value";

/// A JavaScript value goes back to JavaScript as itself; a value of a parsed document as what
/// `node_to_js` makes of it. [`JsSerializer`] takes either unchanged.
impl Serialize for Value<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let value = self.to_js().into_owned();
        PRESERVED.with(|slot| slot.replace(Some(value)));
        s.serialize_newtype_struct(PRESERVE, &())
    }
}

/// The `Error` JavaScript sees: `name` "ChatDisplayError", `code`, `path`, and the message.
fn to_js_error(error: &Error) -> JsValue {
    let js = js_sys::Error::new(&error.message);
    js.set_name("ChatDisplayError");
    let object: &JsValue = js.as_ref();
    // Setting a property on a fresh Error cannot fail; if it somehow did, the message still names
    // the code and path.
    let _ = Reflect::set(object, &"code".into(), &error.code.as_str().into());
    let _ = Reflect::set(object, &"path".into(), &error.path.as_str().into());
    js.into()
}

/// Every value leaving Rust goes through this one serializer: plain objects, `null` for nil.
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value.serialize(JsSerializer).map_err(|e| {
        to_js_error(&Error::new(
            ErrorCode::InvalidInput,
            &Path::ROOT,
            text!(
                "The result could not be converted to JavaScript: ",
                e.0,
                "."
            ),
        ))
    })
}

// ---------------------------------------------------------------------------------------------
// The serializer: serde values to plain JavaScript objects, arrays and primitives
// ---------------------------------------------------------------------------------------------

/// Turns serde values into JavaScript values: maps and structs into plain objects (never `Map`),
/// sequences into arrays, nil into `null`, and a [`Js`] into itself. Object keys that come from
/// the input are defined as own properties, so a `__proto__` key stays a key instead of replacing
/// the new object's prototype (assignment, as `serde-wasm-bindgen` does, would run the setter).
struct JsSerializer;

#[derive(Debug)]
struct SerError(String);

impl core::fmt::Display for SerError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

impl core::error::Error for SerError {}

impl serde::ser::Error for SerError {
    fn custom<T: core::fmt::Display>(_: T) -> Self {
        // Writing `msg` would take Rust's formatting machinery, which the module leaves out. (The
        // one custom error, a document value nested too deep, is not reached here: the module
        // hands document values to JavaScript through `node_to_js`.)
        SerError("a value could not be written".into())
    }
}

/// Sets `object[key] = value` as an own data property, whatever the key.
fn define(object: &Object, key: &JsValue, value: &JsValue) {
    let is_proto = key
        .dyn_ref::<js_sys::JsString>()
        .is_some_and(|k| k.length() == 9)
        && *key == "__proto__";
    if is_proto {
        let descriptor = Object::new();
        let _ = Reflect::set(&descriptor, &"value".into(), value);
        for flag in ["writable", "enumerable", "configurable"] {
            let _ = Reflect::set(&descriptor, &flag.into(), &JsValue::TRUE);
        }
        let _ = Reflect::define_property(object, key, &descriptor);
    } else {
        // A plain object made here has no setters but `__proto__`; setting cannot fail.
        let _ = Reflect::set(object, key, value);
    }
}

struct SeqSerializer(Array);

impl SeqSerializer {
    /// Out of line, as `MapSerializer`'s `define_value`.
    #[inline(never)]
    fn push(&mut self, value: JsValue) {
        self.0.push(&value);
    }
}

struct MapSerializer {
    object: Object,
    key: Option<JsValue>,
}

// What every field and map value does once it is a JavaScript value, out of line: each
// `serialize_field` and `serialize_value` is compiled once per type of value.
impl MapSerializer {
    #[inline(never)]
    fn define_value(&mut self, value: JsValue) -> Result<(), SerError> {
        let key = self
            .key
            .take()
            .ok_or_else(|| SerError("a map value came before its key".into()))?;
        define(&self.object, &key, &value);
        Ok(())
    }

    #[inline(never)]
    fn define_field(&mut self, key: &'static str, value: JsValue) {
        define(&self.object, &JsValue::from_str(key), &value);
    }
}

impl serde::ser::SerializeSeq for SeqSerializer {
    type Ok = JsValue;
    type Error = SerError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), SerError> {
        let value = value.serialize(JsSerializer)?;
        self.push(value);
        Ok(())
    }
    fn end(self) -> Result<JsValue, SerError> {
        Ok(self.0.into())
    }
}

impl serde::ser::SerializeTuple for SeqSerializer {
    type Ok = JsValue;
    type Error = SerError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), SerError> {
        serde::ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<JsValue, SerError> {
        Ok(self.0.into())
    }
}

impl serde::ser::SerializeTupleStruct for SeqSerializer {
    type Ok = JsValue;
    type Error = SerError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), SerError> {
        serde::ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<JsValue, SerError> {
        Ok(self.0.into())
    }
}

impl serde::ser::SerializeMap for MapSerializer {
    type Ok = JsValue;
    type Error = SerError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), SerError> {
        // JSON object keys are strings; a number key becomes its text as JavaScript prints it
        // (the property key `Reflect.set` makes of it), so no float formatter is compiled in.
        self.key = Some(key.serialize(JsSerializer)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), SerError> {
        let value = value.serialize(JsSerializer)?;
        self.define_value(value)
    }
    fn end(self) -> Result<JsValue, SerError> {
        Ok(self.object.into())
    }
}

impl serde::ser::SerializeStruct for MapSerializer {
    type Ok = JsValue;
    type Error = SerError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), SerError> {
        let value = value.serialize(JsSerializer)?;
        self.define_field(key, value);
        Ok(())
    }
    fn end(self) -> Result<JsValue, SerError> {
        Ok(self.object.into())
    }
}

impl Serializer for JsSerializer {
    type Ok = JsValue;
    type Error = SerError;
    type SerializeSeq = SeqSerializer;
    type SerializeTuple = SeqSerializer;
    type SerializeTupleStruct = SeqSerializer;
    type SerializeTupleVariant = serde::ser::Impossible<JsValue, SerError>;
    type SerializeMap = MapSerializer;
    type SerializeStruct = MapSerializer;
    type SerializeStructVariant = serde::ser::Impossible<JsValue, SerError>;

    fn serialize_bool(self, v: bool) -> Result<JsValue, SerError> {
        Ok(JsValue::from_bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<JsValue, SerError> {
        Ok(JsValue::from_f64(v.into()))
    }
    fn serialize_i16(self, v: i16) -> Result<JsValue, SerError> {
        Ok(JsValue::from_f64(v.into()))
    }
    fn serialize_i32(self, v: i32) -> Result<JsValue, SerError> {
        Ok(JsValue::from_f64(v.into()))
    }
    fn serialize_i64(self, v: i64) -> Result<JsValue, SerError> {
        Ok(JsValue::from_f64(v as f64))
    }
    fn serialize_i128(self, v: i128) -> Result<JsValue, SerError> {
        Ok(JsValue::from_f64(v as f64))
    }
    fn serialize_u8(self, v: u8) -> Result<JsValue, SerError> {
        Ok(JsValue::from_f64(v.into()))
    }
    fn serialize_u16(self, v: u16) -> Result<JsValue, SerError> {
        Ok(JsValue::from_f64(v.into()))
    }
    fn serialize_u32(self, v: u32) -> Result<JsValue, SerError> {
        Ok(JsValue::from_f64(v.into()))
    }
    fn serialize_u64(self, v: u64) -> Result<JsValue, SerError> {
        Ok(JsValue::from_f64(v as f64))
    }
    fn serialize_u128(self, v: u128) -> Result<JsValue, SerError> {
        Ok(JsValue::from_f64(v as f64))
    }
    fn serialize_f32(self, v: f32) -> Result<JsValue, SerError> {
        Ok(JsValue::from_f64(v.into()))
    }
    fn serialize_f64(self, v: f64) -> Result<JsValue, SerError> {
        Ok(JsValue::from_f64(v))
    }
    fn serialize_char(self, v: char) -> Result<JsValue, SerError> {
        Ok(JsValue::from_str(v.encode_utf8(&mut [0; 4])))
    }
    fn serialize_str(self, v: &str) -> Result<JsValue, SerError> {
        Ok(JsValue::from_str(v))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<JsValue, SerError> {
        Ok(v.iter()
            .map(|b| JsValue::from_f64((*b).into()))
            .collect::<Array>()
            .into())
    }
    fn serialize_none(self) -> Result<JsValue, SerError> {
        Ok(JsValue::NULL)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<JsValue, SerError> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<JsValue, SerError> {
        Ok(JsValue::NULL)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<JsValue, SerError> {
        Ok(JsValue::NULL)
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<JsValue, SerError> {
        Ok(JsValue::from_str(variant))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<JsValue, SerError> {
        if name == PRESERVE {
            if let Some(preserved) = PRESERVED.with(|slot| slot.take()) {
                return Ok(preserved);
            }
        }
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<JsValue, SerError> {
        let object = Object::new();
        define(
            &object,
            &JsValue::from_str(variant),
            &value.serialize(self)?,
        );
        Ok(object.into())
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqSerializer, SerError> {
        let _ = len;
        Ok(SeqSerializer(Array::new()))
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqSerializer, SerError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<SeqSerializer, SerError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, SerError> {
        Err(SerError(text!(
            name,
            ": tuple variants have no JSON form here"
        )))
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<MapSerializer, SerError> {
        Ok(MapSerializer {
            object: Object::new(),
            key: None,
        })
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<MapSerializer, SerError> {
        self.serialize_map(None)
    }
    fn serialize_struct_variant(
        self,
        name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, SerError> {
        Err(SerError(text!(
            name,
            ": struct variants have no JSON form here"
        )))
    }
}

fn run<T: Serialize>(result: crate::error::Result<T>) -> Result<JsValue, JsValue> {
    match result {
        Ok(value) => to_js(&value),
        Err(error) => Err(to_js_error(&error)),
    }
}

/// Sagents `extract_display_items/1`: the display items of one message, in display order.
#[wasm_bindgen(js_name = extractDisplayItems, unchecked_return_type = "DisplayItem[]")]
pub fn extract_display_items(
    #[wasm_bindgen(unchecked_param_type = "Message | SycophantMessage")] message: JsValue,
) -> Result<JsValue, JsValue> {
    let tape = Tape::read(&message, false);
    let root = tape.as_ref().map_or_else(|| Js::new(message), Tape::root);
    let result = display::extract_display_items(&root);
    let result = result
        .map(|items| items_to_js(&items))
        .map_err(|e| to_js_error(&e));
    Tape::done(tape);
    result
}

/// Display-message records for a message or a whole conversation, with tool call statuses derived
/// from the results that follow.
#[wasm_bindgen(js_name = toDisplayMessages, unchecked_return_type = "DisplayRecord[]")]
pub fn to_display_messages(
    #[wasm_bindgen(
        unchecked_param_type = "Message | SycophantMessage | (Message | SycophantMessage)[]"
    )]
    messages: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ToDisplayMessagesOptions | null")]
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let options = Js::optional(options);
    let tape = Tape::read(&messages, true);
    let root = tape.as_ref().map_or_else(|| Js::new(messages), Tape::root);
    let result = display::to_display_messages(&root, options.as_ref());
    let result = result
        .map(|records| records_to_js(&records))
        .map_err(|e| to_js_error(&e));
    Tape::done(tape);
    result
}

// ---------------------------------------------------------------------------------------------
// The display functions' fast path: the input read once in JavaScript into a tape of numbers
// ---------------------------------------------------------------------------------------------
//
// Reading a JavaScript value from wasm is a call per property, type test and array element, and
// making an object is a call per property: 67 calls a message, most of `toDisplayMessages`' time
// (issue 8). So the two display functions hand their input to the glue below, which walks it once
// in JavaScript and writes what it finds into one `Int32Array`, copied into the module in one
// call; the core reads that tape through the same `Json` view, and the records come back as one
// array of numbers the glue turns into objects. Strings are not copied, except the short ones
// (keys, roles, ids; one joined string a call); every other value stays in a JavaScript array
// and is referred to by its index, so moved values come back as the very same values.
//
// A slot is one 32-bit word, its kind in the low 3 bits:
//
// | tag | value | payload (word >> 3) |
// |---|---|---|
// | 0 | null, `undefined`, false, true | 0, 1, 2, 3 |
// | 1 | a short string (up to 32 UTF-16 units) | its index among the call's short strings |
// | 2 | any other string | its index among the call's values |
// | 3 | a number | its index among the call's values |
// | 4 | an array | the element count; then the slot after the whole array, the array's own index among the call's values, and the elements |
// | 5 | an object | bit 3 set for a partial object (below), the key count above it (word >> 4); then the slot after the whole object, its own index, and the key and value slots |
// | 6 | a value read in place (below) | its kind in 3 bits (4 array, 5 object, 7 other), then its index among the call's values |
//
// A LangChain message is read by what the core asks of it. Its objects (the message, its content
// parts, tool calls and tool results) are read by property access of the keys `parse_message`
// reads, as `JsVal` would read them, and written partial: every one of those keys, `undefined`
// where absent. Any other key the core asks for, of any object on the tape, is read in place, so
// the display functions see what every other function sees. Strings the core compares
// (roles, part types, and in `toDisplayMessages` tool call ids) are short strings; texts, names
// and moved values (`arguments`) are values, not walked. Arrays are read by index.
//
// A Sycophant message (one with a non-null `__type__`) is walked whole: plain objects (prototype
// `Object.prototype` or `null`) by their own enumerable keys (`Object.keys`, as `JsVal` lists an
// object's entries), arrays by index. Values it only moves (under
// the `MOVED` keys), objects deeper than five levels below a message, and every other object
// (class instances, functions, symbols, bigints) are not walked: they are tag 6 and read through
// `JsVal` if the core asks.
//
// Anything unusual (a getter or proxy that throws, a huge array, a call made from inside a getter
// while the glue is walking) makes the glue give up, and the function reads the input through
// `JsVal` instead.
#[wasm_bindgen(inline_js = r#"
let base = 0, moved = 0, busy = false, K = {}, mem = null, M = new Int32Array(0);
// `cap` is t.length, kept in a variable: the walk asks for it at every object, and reading it
// from the array measured slower.
let t = new Int32Array(1 << 14), cap = t.length, n = 0, h = [], hn = 0, strs = [], ids = new Map(), idw = word;
// Objects deeper than DEPTH are read in place; past MAX slots or values, or an array of more than
// LONG elements (a sparse one, most likely), the whole input is.
const DEPTH = 5, MAX = 1 << 24, LONG = 1 << 20;
export function cdSeed(joined, movedCount, memory) {
  mem = memory;
  strs = joined.split("\n");
  ids = new Map(strs.map((s, i) => [s, i]));
  base = strs.length;
  moved = movedCount;
  // The key slots the walk writes, as one object of a fixed shape (its reads stay monomorphic).
  const slot = (key) => (ids.get(key) << 3) | 1;
  K = {
    __type__: slot("__type__"), role: slot("role"), content: slot("content"),
    tool_calls: slot("tool_calls"), tool_results: slot("tool_results"), type: slot("type"),
    call_id: slot("call_id"), name: slot("name"), arguments: slot("arguments"),
    display_text: slot("display_text"), message_expansion: slot("message_expansion"),
    tool_call_id: slot("tool_call_id"), is_error: slot("is_error"), is_interrupt: slot("is_interrupt"),
  };
}
// The module's memory, as 32-bit words: one view, made again only when the memory has grown
// (which detaches the old one), so that no call makes a view of its own.
function view() {
  if (M.length === 0) M = new Int32Array(mem.buffer);
  return M;
}
// The tape's first `len` words into the module's memory at byte address `ptr`.
function copy(ptr, len) {
  const m = view(), at = ptr >>> 2;
  if (len > 64) m.set(t.subarray(0, len), at);
  else for (let i = 0; i < len; i++) m[at + i] = t[i];
}
function room(k) {
  if (n + k <= cap) return;
  if (n + k > MAX) throw new RangeError("tape");
  let len = cap * 2;
  while (len < n + k) len *= 2;
  const u = new Int32Array(len);
  u.set(t.subarray(0, n));
  t = u;
  cap = len;
}
function handle(v) {
  if (hn >= MAX) throw new RangeError("tape");
  h[hn] = v;
  return hn++;
}
function str(v) {
  if (v.length <= 32) {
    let id = ids.get(v);
    if (id === undefined) {
      // A string ending in a high surrogate could pair with the next one in the joined text.
      const c = v.charCodeAt(v.length - 1);
      if (c >= 0xd800 && c < 0xdc00) return (handle(v) << 3) | 2;
      id = strs.length;
      strs.push(v);
      ids.set(v, id);
    }
    return (id << 3) | 1;
  }
  return (handle(v) << 3) | 2;
}
// A value left to JsVal, with its kind: an array longer than ELEMENTS_MAX is not one it takes.
function foreign(v) {
  const kind = typeof v === "object" ? (Array.isArray(v) ? (v.length > 1 << 22 ? 7 : 4) : 5) : 7;
  return (handle(v) << 6) | (kind << 3) | 6;
}
function enc(v, d) {
  room(4);
  switch (typeof v) {
    case "string": t[n++] = str(v); return;
    case "object": {
      if (v === null) { t[n++] = 0; return; }
      if (d >= DEPTH) { t[n++] = foreign(v); return; }
      const at = n;
      let len = 0;
      if (Array.isArray(v)) {
        len = v.length;
        if (len > LONG) throw new RangeError("tape");
        n += 3;
        for (let i = 0; i < len; i++) enc(v[i], d + 1);
        t[at] = (len << 3) | 4;
      } else {
        const p = Object.getPrototypeOf(v);
        if (p !== Object.prototype && p !== null) { t[n++] = foreign(v); return; }
        n += 3;
        const keys = Object.keys(v);
        len = keys.length;
        for (let i = 0; i < len; i++) {
          room(4);
          const k = keys[i], key = str(k);
          t[n++] = key;
          const x = v[k];
          if ((key & 7) === 1 && key < moved << 3 && typeof x === "object" && x !== null) t[n++] = foreign(x);
          else enc(x, d + 1);
        }
        t[at] = (len << 4) | 5;
      }
      t[at + 1] = n;
      t[at + 2] = handle(v);
      return;
    }
    case "undefined": t[n++] = 8; return;
    case "boolean": t[n++] = v ? 24 : 16; return;
    case "number": t[n++] = (handle(v) << 3) | 3; return;
    default: t[n++] = foreign(v);
  }
}
// The messages themselves are read by what the core asks of them: each object of a LangChain
// message (the message, its content parts, tool calls and tool results) by property access of
// the keys the core reads, written in this order whether present or not, with the object marked
// partial (the core reads any other key of it in place); strings the core compares (roles, types,
// and for the statuses ids) numbered; the rest (texts, names, arguments) kept as values, read in
// place if ever asked.
// A Sycophant message (one with a `__type__`) is walked whole, as above.
function put(w) {
  if (n >= cap) room(1);
  t[n++] = w;
}
// A value the core only moves, or reads by its kind: not walked.
function val(v) {
  switch (typeof v) {
    case "string": return v === "" ? str(v) : (handle(v) << 3) | 2;
    case "object": return v === null ? 0 : foreign(v);
    case "undefined": return 8;
    case "boolean": return v ? 24 : 16;
    case "number": return (handle(v) << 3) | 3;
    default: return foreign(v);
  }
}
// A value the core compares as a string.
function word(v) { return typeof v === "string" ? str(v) : val(v); }
function object(v) { return typeof v === "object" && v !== null && !Array.isArray(v); }
function open(v, count) {
  room(3 + 2 * count);
  const at = n;
  t[at] = (count << 4) | 13;
  t[at + 2] = handle(v);
  n += 3;
  return at;
}
// An array's head, with its elements written as `of` says (a loop each, so that every call of
// part, call, result and message has one target).
const PARTS = 0, CALLS = 1, RESULTS = 2, MESSAGES = 3;
function list(v, of) {
  if (!Array.isArray(v)) return put(val(v));
  const len = v.length;
  if (len > LONG) throw new RangeError("tape");
  room(3);
  const at = n;
  n += 3;
  switch (of) {
    case PARTS: for (let i = 0; i < len; i++) part(v[i]); break;
    case CALLS: for (let i = 0; i < len; i++) call(v[i]); break;
    case RESULTS: for (let i = 0; i < len; i++) result(v[i]); break;
    default: for (let i = 0; i < len; i++) message(v[i]);
  }
  t[at] = (len << 3) | 4;
  t[at + 1] = n;
  t[at + 2] = handle(v);
}
function part(p) {
  if (!object(p)) return put(val(p));
  const at = open(p, 2);
  t[n] = K.type; t[n + 1] = word(p.type);
  t[n + 2] = K.content; t[n + 3] = val(p.content);
  t[at + 1] = n += 4;
}
function call(c) {
  if (!object(c)) return put(val(c));
  const at = open(c, 4);
  t[n] = K.call_id; t[n + 1] = idw(c.call_id);
  t[n + 2] = K.name; t[n + 3] = val(c.name);
  t[n + 4] = K.arguments; t[n + 5] = val(c.arguments);
  t[n + 6] = K.display_text; t[n + 7] = val(c.display_text);
  t[at + 1] = n += 8;
}
function result(r) {
  if (!object(r)) return put(val(r));
  const at = open(r, 6);
  put(K.content); list(r.content, PARTS);
  room(10);
  t[n] = K.message_expansion; t[n + 1] = val(r.message_expansion);
  t[n + 2] = K.tool_call_id; t[n + 3] = idw(r.tool_call_id);
  t[n + 4] = K.name; t[n + 5] = val(r.name);
  t[n + 6] = K.is_error; t[n + 7] = val(r.is_error);
  t[n + 8] = K.is_interrupt; t[n + 9] = val(r.is_interrupt);
  t[at + 1] = n += 10;
}
function message(m) {
  if (!object(m)) return put(val(m));
  const type = m.__type__;
  if (type !== undefined && type !== null) return enc(m, 0);
  const at = open(m, 5);
  t[n] = K.__type__; t[n + 1] = val(type);
  t[n + 2] = K.role; t[n + 3] = word(m.role);
  t[n + 4] = K.content;
  n += 5;
  list(m.content, PARTS);
  put(K.tool_calls); list(m.tool_calls, CALLS);
  put(K.tool_results); list(m.tool_results, RESULTS);
  t[at + 1] = n;
}
// Writes the tape of `v` into the module's memory at byte address `ptr` when it fits in `cap`
// words: returns its length when it is there, minus its length when it is to be fetched with
// cdWords, -1 when the glue gave up. Tool call ids are numbered (`compare`, for the statuses) or
// kept as values (an item only moves them, and numbering costs a Map entry and their text).
export function cdEncode(v, ptr, cap, compare) {
  if (busy) return -1;
  busy = true;
  try {
    n = 1; hn = 0; idw = compare ? word : val;
    if (Array.isArray(v)) list(v, MESSAGES);
    else message(v);
    const count = strs.length - base;
    room(count);
    for (let i = 0; i < count; i++) t[n + i] = strs[base + i].length;
    t[0] = count;
    n += count;
    if (n > cap) return -n;
    copy(ptr, n);
    return n;
  } catch {
    cdDone();
    return -1;
  }
}
export function cdWords(ptr, len) { copy(ptr, len); }
export function cdText() { return base === strs.length ? "" : strs.slice(base).join(""); }
export function cdHandle(i) { return h[i]; }
export function cdString(i) { return strs[i]; }
export function cdDone() {
  if (strs.length > base) {
    for (let i = base; i < strs.length; i++) ids.delete(strs[i]);
    strs.length = base;
  }
  // The values are let go; the array keeps its room for the next call (truncating it gave the
  // room up, to be grown again), unless it grew large.
  if (hn > 1 << 14) h = [];
  else h.fill(undefined, 0, hn);
  hn = 0; busy = false;
  if (cap > 1 << 20) cap = (t = new Int32Array(1 << 14)).length;
}
function ref(r, x) {
  switch (r & 3) {
    case 0: return r === 0 ? null : r === 4 ? undefined : r === 8 ? false : true;
    case 1: return h[r >>> 2];
    case 2: return strs[r >>> 2];
    default: return x[r >>> 2];
  }
}
function content(o, i, x) {
  switch (o[i]) {
    case 0: return { text: ref(o[i + 5], x) };
    case 1: return { call_id: ref(o[i + 5], x), name: ref(o[i + 6], x), arguments: ref(o[i + 7], x), display_text: ref(o[i + 8], x) };
    case 2: return { tool_call_id: ref(o[i + 5], x), name: ref(o[i + 6], x), content: ref(o[i + 7], x), is_error: ref(o[i + 8], x), is_interrupt: ref(o[i + 9], x) };
    default: return { tool_call_id: ref(o[i + 5], x), name: ref(o[i + 6], x), content: joined(o, i + 10, o[i + 7], x), is_error: ref(o[i + 8], x), is_interrupt: ref(o[i + 9], x) };
  }
}
// The "\n" join of text parts the core named (null joins as "").
function joined(o, at, count, x) {
  const parts = new Array(count);
  for (let k = 0; k < count; k++) parts[k] = ref(o[at + k], x);
  return parts.join("\n");
}
const WIDTH = [6, 9, 10, 10];
function width(o, i) { return o[i] === 3 ? 10 + o[i + 7] : WIDTH[o[i]]; }
function record(o, i, x, cid) {
  return {
    conversation_id: cid, message_type: strs[o[i + 2]], content_type: strs[o[i + 1]],
    content: content(o, i, x), sequence: o[i + 3], status: strs[o[i + 4]],
    tool_call_id: o[i] === 0 ? null : ref(o[i + 5], x), metadata: {},
  };
}
// The builders read the `len` numbers at byte address `ptr` of the module's memory, the seeds,
// `extra` and (for a tape's values) the values of the tape being read, so they serve every call,
// and cdDone stays the caller's.
export function cdItems(ptr, len, x) {
  const o = view(), out = [], end = (ptr >>> 2) + len;
  for (let i = ptr >>> 2; i < end; i += width(o, i)) {
    out.push({ type: strs[o[i + 1]], message_type: strs[o[i + 2]], content: content(o, i, x) });
  }
  return out;
}
export function cdRecords(ptr, len, x, cid) {
  const o = view(), out = [], end = (ptr >>> 2) + len;
  for (let i = ptr >>> 2; i < end; i += width(o, i)) out.push(record(o, i, x, cid));
  return out;
}
export function cdRecord(ptr, x, cid) { return record(view(), ptr >>> 2, x, cid); }
"#)]
extern "C" {
    #[wasm_bindgen(js_name = cdSeed)]
    fn cd_seed(joined: &str, moved: u32, memory: &JsValue);
    #[wasm_bindgen(js_name = cdEncode)]
    fn cd_encode(value: &JsValue, ptr: usize, cap: usize, compare: bool) -> i32;
    #[wasm_bindgen(js_name = cdWords)]
    fn cd_words(ptr: usize, len: usize);
    #[wasm_bindgen(js_name = cdText)]
    fn cd_text() -> String;
    #[wasm_bindgen(js_name = cdHandle)]
    fn cd_handle(i: u32) -> JsValue;
    #[wasm_bindgen(js_name = cdString)]
    fn cd_string(i: u32) -> JsValue;
    #[wasm_bindgen(js_name = cdDone)]
    fn cd_done();
    #[wasm_bindgen(js_name = cdItems)]
    fn cd_items(ptr: usize, len: usize, extra: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = cdRecords)]
    fn cd_records(ptr: usize, len: usize, extra: &JsValue, conversation_id: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = cdRecord)]
    fn cd_record(ptr: usize, extra: &JsValue, conversation_id: &JsValue) -> JsValue;
}

/// The glue's first short strings, the same every call: the keys whose values the display
/// functions only move (the first `MOVED`, which the glue hands over unread), the words records
/// are made of, and the keys the core reads, so that a key is found on the tape by its index.
const SEEDS: [&str; 41] = [
    "arguments",
    "metadata",
    "processed_content",
    "options",
    "interrupt_data",
    "system",
    "user",
    "assistant",
    "tool",
    "text",
    "thinking",
    "tool_call",
    "tool_result",
    "pending",
    "executing",
    "completed",
    "failed",
    "interrupted",
    "cancelled",
    "__type__",
    "role",
    "content",
    "tool_calls",
    "tool_results",
    "type",
    "call_id",
    "name",
    "display_text",
    "tool_call_id",
    "is_error",
    "is_interrupt",
    "message_expansion",
    "messages",
    "result_content",
    "citations",
    "tool_name",
    "id",
    "summary",
    "signature",
    "data",
    "source",
];
const MOVED: u32 = 5;

/// Whether the glue has its table of short strings.
static SEEDED: Local<Cell<bool>> = Local(Cell::new(false));

/// Gives the glue `SEEDS`, on first use.
fn seed() {
    SEEDED.with(|seeded| {
        if !seeded.get() {
            let mut joined = String::new();
            for (i, word) in SEEDS.iter().enumerate() {
                if i > 0 {
                    joined.push('\n');
                }
                joined.push_str(word);
            }
            cd_seed(&joined, MOVED, &wasm_bindgen::memory());
            seeded.set(true);
        }
    });
}

/// Which of `SEEDS` a string at an address is, for the constants the code asks for (always at the
/// same address): 256 slots of (address, length, seed + 1 or 0), checked against the seed's text.
static SEED_AT: Local<[Cell<(usize, usize, u32)>; 256]> =
    Local([const { Cell::new((0, 0, 0)) }; 256]);

/// The index of `s` among `SEEDS`.
fn seed_of(s: &str) -> Option<u32> {
    let at = s.as_ptr() as usize;
    let slot = ((at ^ (s.len() << 24)) as u32).wrapping_mul(0x9E37_79B9) as usize >> 24;
    SEED_AT.with(|table| {
        let cell = table.get(slot)?;
        let (cached_at, len, seed) = cell.get();
        let known = |seed: u32| {
            seed.checked_sub(1)
                .filter(|&i| SEEDS.get(i as usize) == Some(&s))
        };
        if cached_at == at && len == s.len() {
            if let Some(i) = known(seed) {
                return Some(i);
            }
        }
        let seed = SEEDS
            .iter()
            .position(|w| *w == s)
            .map_or(0, |i| i as u32 + 1);
        cell.set((at, s.len(), seed));
        known(seed)
    })
}

/// Calls `f` with the key slots of `keys` that are seeds (0, which no key slot is, for one that
/// is not), found once for each list: a list's address names it, as a `'static` list never
/// changes.
fn seed_slots(keys: &'static [&'static str], f: impl FnOnce(&[u32])) {
    /// Each list's address and its key slots.
    type Lists = RefCell<Vec<(usize, Vec<u32>)>>;
    static LISTS: Local<Lists> = Local(RefCell::new(Vec::new()));
    let at = keys.as_ptr() as usize;
    LISTS.with(|lists| {
        let Ok(mut lists) = lists.try_borrow_mut() else {
            return f(&[]);
        };
        let i = match lists.iter().position(|(a, _)| *a == at) {
            Some(i) => i,
            None => {
                let slots = keys
                    .iter()
                    .map(|key| seed_of(key).map_or(0, |seed| seed << 3 | TAG_SHORT));
                lists.push((at, slots.collect()));
                lists.len() - 1
            }
        };
        f(lists.get(i).map_or(&[][..], |(_, slots)| slots))
    })
}

/// The index of `word` among `SEEDS`, found at compile time: a word that is not one fails the build.
const fn seed_index(word: &str) -> u32 {
    let mut i = 0;
    while i < SEEDS.len() {
        let seed = SEEDS[i].as_bytes();
        let word = word.as_bytes();
        if seed.len() == word.len() {
            let mut j = 0;
            while j < seed.len() && seed[j] == word[j] {
                j += 1;
            }
            if j == seed.len() {
                return i as u32;
            }
        }
        i += 1;
    }
    panic!("not a seed")
}

/// The glue's index of the words a record is made of: its role, item type and status.
fn role_word(role: Role) -> u32 {
    match role {
        Role::System => const { seed_index(Role::System.as_str()) },
        Role::User => const { seed_index(Role::User.as_str()) },
        Role::Assistant => const { seed_index(Role::Assistant.as_str()) },
        Role::Tool => const { seed_index(Role::Tool.as_str()) },
    }
}

fn type_word<J>(content: &ItemContent<J>) -> u32 {
    match content {
        ItemContent::Text { .. } => const { seed_index("text") },
        ItemContent::Thinking { .. } => const { seed_index("thinking") },
        ItemContent::ToolCall { .. } => const { seed_index("tool_call") },
        ItemContent::ToolResult { .. } => const { seed_index("tool_result") },
    }
}

fn status_word(status: Status) -> u32 {
    match status {
        Status::Pending => const { seed_index(Status::Pending.as_str()) },
        Status::Executing => const { seed_index(Status::Executing.as_str()) },
        Status::Completed => const { seed_index(Status::Completed.as_str()) },
        Status::Failed => const { seed_index(Status::Failed.as_str()) },
        Status::Interrupted => const { seed_index(Status::Interrupted.as_str()) },
        Status::Cancelled => const { seed_index(Status::Cancelled.as_str()) },
    }
}

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
/// The slot of `undefined`.
const UNDEFINED: u32 = 1 << 3;

/// The words a tape is written into, kept from one call to the next.
static SCRATCH: Local<Cell<Vec<u32>>> = Local(Cell::new(Vec::new()));
/// The least the buffer holds: a message or a short conversation fits in one call.
const SCRATCH_WORDS: usize = 4096;

/// A conversation as the glue read it: the slots, and the text of the short strings it found
/// (after the seeds, which it knows from the start).
#[derive(Debug)]
pub struct Tape {
    /// The slots are `words[..end]` (the rest is the buffer's, left from earlier tapes).
    words: Vec<u32>,
    end: usize,
    text: String,
    /// Each short string's byte range in `text`.
    spans: Vec<(u32, u32)>,
}

impl Tape {
    /// Has the glue read `value`; `None` when it gave up (and the input is read in place).
    /// `compare`: the core compares tool call ids (for the statuses), so the glue numbers them as
    /// short strings; otherwise they are values, only moved.
    fn read(value: &JsValue, compare: bool) -> Option<Tape> {
        seed();
        // The words go into the buffer the last tape left (taken, so a call made while this one
        // runs has a buffer of its own), in one call when they fit.
        let mut words = SCRATCH.with(|s| s.take());
        if words.len() < SCRATCH_WORDS {
            words.resize(SCRATCH_WORDS, 0);
        }
        // The glue writes into the buffer through its address (a pointer's address is a number in
        // wasm32): no view of the memory is made per call.
        let len = match cd_encode(value, words.as_mut_ptr() as usize, words.len(), compare) {
            -1 => {
                Tape::keep(words);
                return None;
            }
            len if len < 0 => {
                let len = len.unsigned_abs() as usize;
                words.resize(len.max(words.len()), 0);
                cd_words(words.as_mut_ptr() as usize, len);
                len
            }
            len => len as usize,
        };
        if len < 2 {
            Tape::keep(words);
            cd_done();
            return None;
        }
        // Only the call's own short strings are sent (none, often, for one message).
        let count = (words.first().copied().unwrap_or(0) as usize).min(len - 1);
        let text = if count > 0 { cd_text() } else { String::new() };
        let mut spans = Vec::with_capacity(count);
        let bytes = text.as_bytes();
        let mut at = 0;
        for &units in words.get(len - count..len).unwrap_or_default() {
            let start = at;
            let mut left = units as usize;
            // UTF-16 units to UTF-8 bytes: four bytes are two units, one to three bytes one.
            while left > 0 {
                let Some(&lead) = bytes.get(at) else { break };
                let (size, counted) = match lead {
                    0..=0x7f => (1, 1),
                    0x80..=0xdf => (2, 1),
                    0xe0..=0xef => (3, 1),
                    _ => (4, 2),
                };
                at += size;
                left = left.saturating_sub(counted);
            }
            spans.push((start as u32, at as u32));
        }
        Some(Tape {
            words,
            end: len - count,
            text,
            spans,
        })
    }

    /// Lets the glue drop what it kept for a tape, once the records are made.
    fn done(tape: Option<Tape>) {
        if let Some(tape) = tape {
            cd_done();
            Tape::keep(tape.words);
        }
    }

    /// Leaves `words` for the next tape, unless it is huge (the glue's own tape shrinks too).
    fn keep(words: Vec<u32>) {
        if words.len() <= 1 << 20 {
            SCRATCH.with(|s| s.set(words));
        }
    }

    fn word(&self, at: u32) -> u32 {
        let at = at as usize;
        (at < self.end)
            .then(|| self.words.get(at))
            .flatten()
            .copied()
            .unwrap_or(0)
    }

    /// The read value: its slot follows the short strings' count.
    fn root(&self) -> Value<'_> {
        Value::Tape(TapeVal { tape: self, at: 1 })
    }

    /// The text of short string `id`: a seed, or one of this call's.
    fn short(&self, id: u32) -> &str {
        let id = id as usize;
        if let Some(seed) = SEEDS.get(id) {
            return seed;
        }
        self.spans
            .get(id - SEEDS.len())
            .and_then(|&(start, end)| self.text.get(start as usize..end as usize))
            .unwrap_or("")
    }

    /// The slot after the value at `at`.
    fn next(&self, at: u32) -> u32 {
        match self.word(at) & 7 {
            TAG_ARRAY | TAG_OBJECT => self.word(at + 1).max(at + 3),
            _ => at + 1,
        }
    }

    /// Whether key slot `key` holds `name`.
    fn key_is(&self, key: u32, name: &str) -> bool {
        match key & 7 {
            TAG_SHORT => self.short(key >> 3) == name,
            TAG_STRING => cd_handle(key >> 3).as_string().is_some_and(|k| k == name),
            _ => false,
        }
    }
}

/// A value on a [`Tape`].
#[derive(Clone, Copy, Debug)]
pub struct TapeVal<'a> {
    tape: &'a Tape,
    at: u32,
}

impl<'a> TapeVal<'a> {
    fn word(&self) -> u32 {
        self.tape.word(self.at)
    }

    fn slot(&self, at: u32) -> Value<'a> {
        Value::Tape(TapeVal {
            tape: self.tape,
            at,
        })
    }

    /// A value the glue did not walk, read in place.
    fn foreign(&self) -> Option<JsVal> {
        let w = self.word();
        (w & 7 == TAG_FOREIGN).then(|| JsVal::with_kind(cd_handle(w >> 6), self.kind()))
    }

    fn kind(&self) -> Kind {
        let w = self.word();
        match w & 7 {
            TAG_SPECIAL if w >> 3 >= 2 => Kind::Bool,
            TAG_SPECIAL => Kind::Null,
            TAG_SHORT | TAG_STRING => Kind::String,
            TAG_NUMBER => Kind::Number,
            TAG_ARRAY => Kind::Array,
            TAG_OBJECT => Kind::Object,
            _ => match (w >> 3) & 7 {
                4 => Kind::Array,
                5 => Kind::Object,
                _ => Kind::Other,
            },
        }
    }

    /// The key and value slots of an object.
    fn pairs(&self) -> impl Iterator<Item = (u32, u32)> + 'a {
        let tape = self.tape;
        let w = self.word();
        let count = if w & 7 == TAG_OBJECT { w >> 4 } else { 0 };
        let mut at = self.at + 3;
        (0..count).map(move |_| {
            let pair = (tape.word(at), at + 1);
            at = tape.next(at + 1);
            pair
        })
    }

    /// An object on the tape, to read in place what the glue did not write: a key not on the tape
    /// (which `JsVal` would find where `for...in` does not: a non-enumerable or inherited key), and
    /// a partial object's entries.
    fn in_place(&self) -> Option<JsVal> {
        (self.word() & 7 == TAG_OBJECT)
            .then(|| JsVal::with_kind(cd_handle(self.tape.word(self.at + 2)), Kind::Object))
    }

    fn get(&self, key: &str) -> Option<Value<'a>> {
        if let Some(v) = self.foreign() {
            return v.get(key).map(Value::Js);
        }
        // A seeded key is always that short string: found by its slot, without reading text.
        let found = match seed_of(key) {
            Some(seed) => self.pairs().find(|&(k, _)| k == seed << 3 | TAG_SHORT),
            None => self.pairs().find(|&(k, _)| self.tape.key_is(k, key)),
        };
        match found {
            Some((_, at)) => (self.tape.word(at) != UNDEFINED).then(|| self.slot(at)),
            None => self.in_place()?.get(key).map(Value::Js),
        }
    }

    /// [`Json::fields_into`] in one pass over the object's keys, each compared as the index of
    /// the seed it is (found once per list of keys: a `'static` list is always the same list).
    fn fields_into(&self, keys: &'static [&'static str], out: &mut [Option<Value<'a>>]) {
        // Bit i: key i is read by `get` (not a seed, not on the tape, or not an object on the
        // tape).
        let mut by_name = u64::MAX;
        if self.word() & 7 == TAG_OBJECT {
            seed_slots(keys, |slots| {
                if slots.len() != keys.len() {
                    return;
                }
                let mut written = 0u64;
                for (n, (key, at)) in self.pairs().enumerate() {
                    // The glue writes a message's objects in the order of the core's lists.
                    let found = match slots.get(n) {
                        Some(&slot) if slot == key => Some(n),
                        _ => slots.iter().position(|&s| s == key),
                    };
                    let Some(i) = found else {
                        continue;
                    };
                    written |= 1 << (i % 64);
                    if let Some(slot) = out.get_mut(i) {
                        if self.tape.word(at) != UNDEFINED {
                            *slot = Some(self.slot(at));
                        }
                    }
                }
                by_name = slots.iter().enumerate().fold(0, |bits, (i, &s)| {
                    let bit = 1 << (i % 64);
                    if s == 0 || written & bit == 0 {
                        bits | bit
                    } else {
                        bits
                    }
                });
            });
        }
        for (i, (slot, key)) in out.iter_mut().zip(keys).enumerate() {
            if by_name & 1 << (i % 64) != 0 {
                *slot = self.get(key);
            }
        }
    }

    fn get_non_null(&self, key: &str) -> Option<Value<'a>> {
        if let Some(v) = self.foreign() {
            return v.get_non_null(key).map(Value::Js);
        }
        self.get(key).filter(|v| v.kind() != Kind::Null)
    }

    fn elements(&self) -> Option<Vec<Value<'a>>> {
        if let Some(v) = self.foreign() {
            return Some(v.elements()?.into_iter().map(Value::Js).collect());
        }
        let w = self.word();
        if w & 7 != TAG_ARRAY {
            return None;
        }
        let mut out = Vec::with_capacity(((w >> 3) as usize).min(self.tape.end));
        self.each_element(|_, v| {
            out.push(v);
            true
        });
        Some(out)
    }

    /// [`Json::each_element`] of an array on the tape (not one read in place).
    fn each_element(&self, mut f: impl FnMut(usize, Value<'a>) -> bool) -> bool {
        let w = self.word();
        if w & 7 != TAG_ARRAY {
            return false;
        }
        let mut at = self.at + 3;
        for i in 0..(w >> 3) as usize {
            if !f(i, self.slot(at)) {
                break;
            }
            at = self.tape.next(at);
        }
        true
    }

    fn as_str(&self) -> Option<Cow<'a, str>> {
        let w = self.word();
        match w & 7 {
            TAG_SHORT => Some(Cow::Borrowed(self.tape.short(w >> 3))),
            TAG_STRING => cd_handle(w >> 3).as_string().map(Cow::Owned),
            _ => None,
        }
    }

    fn match_str(&self, candidates: &[&'static str]) -> Option<usize> {
        let s = self.as_str()?;
        candidates.iter().position(|c| *c == s.as_ref())
    }

    fn as_bool(&self) -> Option<bool> {
        let w = self.word();
        (w & 7 == TAG_SPECIAL && w >> 3 >= 2).then_some(w >> 3 == 3)
    }

    fn as_number(&self) -> Option<Number> {
        let w = self.word();
        (w & 7 == TAG_NUMBER)
            .then(|| cd_handle(w >> 3).as_f64().map(Number::from_f64))
            .flatten()
    }

    fn entries(&self) -> Option<Vec<(String, Value<'a>)>> {
        if let Some(v) = self.foreign() {
            let entries = v.entries()?.into_iter();
            return Some(entries.map(|(k, v)| (k, Value::Js(v))).collect());
        }
        if self.word() & 15 == PARTIAL | TAG_OBJECT {
            let entries = self.in_place()?.entries()?.into_iter();
            return Some(entries.map(|(k, v)| (k, Value::Js(v))).collect());
        }
        if self.word() & 7 != TAG_OBJECT {
            return None;
        }
        let key = |k: u32| match k & 7 {
            TAG_SHORT => Some(self.tape.short(k >> 3).to_string()),
            _ => cd_handle(k >> 3).as_string(),
        };
        Some(
            self.pairs()
                .filter_map(|(k, at)| Some((key(k)?, self.slot(at))))
                .collect(),
        )
    }

    fn is_empty_str(&self) -> bool {
        let w = self.word();
        w & 7 == TAG_SHORT && self.tape.short(w >> 3).is_empty()
    }

    /// The value's index among the glue's values, where it has one.
    fn index(&self) -> Option<u32> {
        let w = self.word();
        match w & 7 {
            TAG_STRING | TAG_NUMBER => Some(w >> 3),
            TAG_ARRAY | TAG_OBJECT => Some(self.tape.word(self.at + 2)),
            TAG_FOREIGN => Some(w >> 6),
            _ => None,
        }
    }

    fn to_js(self) -> JsValue {
        let w = self.word();
        match (w & 7, w >> 3) {
            (TAG_SHORT, id) => cd_string(id),
            (TAG_SPECIAL, 1) => JsValue::UNDEFINED,
            (TAG_SPECIAL, special) if special >= 2 => JsValue::from_bool(special == 3),
            (TAG_SPECIAL, _) => JsValue::NULL,
            _ => self.index().map_or(JsValue::NULL, cd_handle),
        }
    }
}

/// Records or items as the numbers the glue makes them from, and the values it cannot find on its
/// own (made here, or read in place), referred to by index.
struct Ops {
    ops: Vec<u32>,
    extra: Option<Array>,
}

/// The numbers' list, kept from one call to the next (taken, so that records made while another
/// list is being written, from a getter say, get a list of their own): one allocation fewer a
/// call, and none regrown.
static OPS: Local<Cell<Vec<u32>>> = Local(Cell::new(Vec::new()));

impl Ops {
    fn new() -> Ops {
        seed();
        let mut ops = OPS.with(Cell::take);
        ops.clear();
        Ops { ops, extra: None }
    }

    /// A value as the glue finds it: low 2 bits 0 for null, `undefined`, false and true (0 to 3
    /// above them), 1 for one of its values, 2 for a short string, 3 for one of `extra`.
    fn value(&mut self, value: &Value<'_>) -> u32 {
        if let Value::Tape(t) = value {
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

    fn optional(&mut self, value: &Option<Value<'_>>) -> u32 {
        value.as_ref().map_or(0, |v| self.value(v))
    }

    fn flag(value: Option<bool>) -> u32 {
        value.map_or(0, |b| if b { 3 << 2 } else { 2 << 2 })
    }

    /// `[shape, type, role, sequence, status, ...content]`; shape 0 is a text or thinking item,
    /// 1 a tool call, 2 a tool result, 3 a tool result whose text the glue joins: its `content`
    /// word is the number of parts, whose values follow the result's.
    fn item(&mut self, item: &DisplayItem<Value<'_>>, sequence: usize, status: Status) {
        let shape = match item.content {
            ItemContent::Text { .. } | ItemContent::Thinking { .. } => 0,
            ItemContent::ToolCall { .. } => 1,
            ItemContent::ToolResult {
                content: ResultText::Given(_),
                ..
            } => 2,
            ItemContent::ToolResult { .. } => 3,
        };
        let head = [
            shape,
            type_word(&item.content),
            role_word(item.message_type),
            sequence as u32,
            status_word(status),
        ];
        self.ops.extend_from_slice(&head);
        match &item.content {
            ItemContent::Text { text } | ItemContent::Thinking { text } => {
                let text = self.value(text);
                self.ops.push(text);
            }
            ItemContent::ToolCall {
                call_id,
                name,
                arguments,
                display_text,
            } => {
                let values = [
                    self.optional(call_id),
                    self.optional(name),
                    self.optional(arguments),
                    self.optional(display_text),
                ];
                self.ops.extend_from_slice(&values);
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
                    Ops::flag(*is_error),
                    Ops::flag(*is_interrupt),
                ];
                self.ops.extend_from_slice(&values);
                if let ResultText::Joined(parts) = content {
                    for part in parts {
                        let part = self.optional(part);
                        self.ops.push(part);
                    }
                }
            }
        }
    }

    fn extra(&self) -> JsValue {
        self.extra
            .as_ref()
            .map_or(JsValue::UNDEFINED, |a| a.clone().into())
    }
}

impl Drop for Ops {
    /// Leaves the list for the next call, unless it grew large (a long conversation's).
    fn drop(&mut self) {
        if self.ops.capacity() <= 1 << 16 {
            let ops = core::mem::take(&mut self.ops);
            OPS.with(|kept| kept.set(ops));
        }
    }
}

/// Display items as JavaScript objects, made by the glue.
fn items_to_js(items: &[DisplayItem<Value<'_>>]) -> JsValue {
    let mut ops = Ops::new();
    for item in items {
        ops.item(item, 0, Status::Completed);
    }
    cd_items(ops.ops.as_ptr() as usize, ops.ops.len(), &ops.extra())
}

/// The `conversation_id` of a record as a JavaScript value.
fn conversation_id(record: Option<&DisplayRecord<Value<'_>>>) -> JsValue {
    record
        .and_then(|r| r.conversation_id.as_ref())
        .map_or(JsValue::NULL, |id| id.to_js().into_owned())
}

/// Records of one conversation (one `conversation_id`) as JavaScript objects, made by the glue.
fn records_to_js(records: &[DisplayRecord<Value<'_>>]) -> JsValue {
    let mut ops = Ops::new();
    for record in records {
        ops.item(&record.item, record.sequence, record.status);
    }
    let id = conversation_id(records.first());
    cd_records(ops.ops.as_ptr() as usize, ops.ops.len(), &ops.extra(), &id)
}

/// One record as a JavaScript object, made by the glue.
#[cfg(feature = "transcript")]
fn record_to_js(record: &DisplayRecord<Value<'_>>) -> JsValue {
    let mut ops = Ops::new();
    ops.item(&record.item, record.sequence, record.status);
    let id = conversation_id(Some(record));
    cd_record(ops.ops.as_ptr() as usize, &ops.extra(), &id)
}

/// True when `error` is an error this module threw.
#[wasm_bindgen(js_name = isChatDisplayError, unchecked_return_type = "error is ChatDisplayError")]
pub fn is_chat_display_error(
    #[wasm_bindgen(unchecked_param_type = "unknown")] error: JsValue,
) -> bool {
    error
        .dyn_ref::<js_sys::Error>()
        .is_some_and(|e| e.name() == "ChatDisplayError")
}

// ---------------------------------------------------------------------------------------------
// Tool-result expansion (langchain v0.14.1 MessageExpansion and Steps.expand_tool_results/2)
// ---------------------------------------------------------------------------------------------
// This section's exports, like the Sycophant constructors', the record functions' and
// Transcript's below, are in a build with their own feature only (`expansion`, `sycophant`,
// `records`, `transcript`; `core` is all four): without them (the `chat-display/display` entry)
// the module has the display functions alone.

#[cfg(feature = "expansion")]
#[wasm_bindgen(typescript_custom_section)]
const EXPAND_TYPES: &'static str = r#"
/** The options of `expand`. A `result_content` that is present, even `null` (keep the fallback),
 * is used as given; absent or `undefined`, it is the default sentence. */
export interface ExpandOptions {
  result_content?: string | ContentPart | ContentPart[] | null;
}

/** The tool result `expand` returns: all eleven ToolResult keys, `content` a part list and the
 * expansion set. `tool_call_id`, `name` and `display_text` are null for the caller to fill in. */
export type ExpandingToolResult = Required<ToolResult> & {
  content: ContentPart[];
  message_expansion: Required<MessageExpansion>;
};

/** A tool result `expandToolResults` applies: an expansion, and not interrupted. */
export type ExpandableToolResult = ToolResult & {
  message_expansion: MessageExpansion;
  is_interrupt?: false;
};

/** An LLMChain as far as `expandToolResults` reads it. A missing `last_message` is the last
 * element of `messages`, a missing `exchanged_messages` is `[]`, a missing `needs_response` is
 * `true`. Any other keys are passed along as given. */
export interface Chain {
  messages: Message[];
  exchanged_messages?: Message[] | null;
  last_message?: Message | null;
  needs_response?: boolean;
}

/** `Steps.expand_tool_results/2` on a bare array of messages: the new array. */
export function expandToolResults(messages: Message[]): Message[];
/** `Steps.expand_tool_results/2` on a chain: all four chain keys, plus the chain's other keys. */
export function expandToolResults<C extends Chain>(chain: C): Omit<C, keyof Chain> & Required<Chain>;
export function expandToolResults(input: Chain | Message[]): Required<Chain> | Message[];
"#;

/// `MessageExpansion.expand/3`: a tool result that expands into `messages`, its content the
/// normalized `fallbackContent`.
#[cfg(feature = "expansion")]
#[wasm_bindgen(js_name = expand, unchecked_return_type = "ExpandingToolResult")]
pub fn expand(
    #[wasm_bindgen(
        js_name = fallbackContent,
        unchecked_param_type = "string | ContentPart | ContentPart[]"
    )]
    fallback_content: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Message[]")] messages: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ExpandOptions | null")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let options = Js::optional(options);
    run(crate::expand::expand(
        &Js::new(fallback_content),
        &Js::new(messages),
        options.as_ref(),
    ))
}

/// `MessageExpansion.expandable?/1`: an expansion, and `is_interrupt` exactly false (or absent).
#[cfg(feature = "expansion")]
#[wasm_bindgen(
    js_name = isExpandable,
    unchecked_return_type = "toolResult is ExpandableToolResult"
)]
pub fn is_expandable(
    #[wasm_bindgen(js_name = toolResult, unchecked_param_type = "ToolResult")] tool_result: JsValue,
) -> Result<JsValue, JsValue> {
    run(crate::expand::is_expandable(&Js::new(tool_result)))
}

/// `Steps.expand_tool_results/2` without pipeline tags, on a chain or a bare array of messages.
/// Its overloads are declared in `EXPAND_TYPES`, which one generated signature cannot express.
#[cfg(feature = "expansion")]
#[wasm_bindgen(js_name = expandToolResults, skip_typescript)]
pub fn expand_tool_results(input: JsValue) -> Result<JsValue, JsValue> {
    run(crate::expand::expand_tool_results(&Js::new(input)))
}

// ---------------------------------------------------------------------------------------------
// Sycophant messages (seed 003; behavior.md §4)

#[wasm_bindgen(typescript_custom_section)]
const SYCOPHANT_TYPES: &'static str = r#"
/** A Sycophant message role. `tool_result` is a role; there is no `tool` role. */
export type SycophantRole = "user" | "assistant" | "system" | "tool_result";

/** `Sycophant.Message` as canonical JSON: nil, `[]` and `{}` fields are left out. */
export interface SycophantMessage {
  __type__: "Message";
  role: SycophantRole;
  content?: string | SycophantContentPart[];
  tool_call_id?: string;
  tool_calls?: SycophantToolCall[];
  /** Any JSON; `toolResultMessage` sets `{ tool_name }`. */
  metadata?: JsonValue;
  wire_protocol?: "anthropic_messages" | "openai_completions" | "openai_responses" | "bedrock_converse" | "google_gemini";
}

/** A Sycophant content part, told apart by `__type__` (or by its `type` literal). */
export type SycophantContentPart =
  | SycophantText
  | SycophantImage
  | SycophantDocument
  | SycophantThinking
  | SycophantRedactedThinking;

export interface SycophantText {
  __type__: "Text";
  type: "text";
  text: string;
  citations?: SycophantCitation[];
}

export interface SycophantImage {
  __type__: "Image";
  type: "image";
  url?: string;
  /** Base64. */
  data?: string;
  media_type?: string;
}

export interface SycophantDocument {
  __type__: "Document";
  type: "document";
  data?: string;
  url?: string;
  file_id?: string;
  media_type?: string;
  name?: string;
  /** Always present: `false` unless citations were requested. */
  citations: boolean;
}

export interface SycophantThinking {
  __type__: "Thinking";
  type: "thinking";
  id?: string;
  text?: string;
  summary?: string;
  signature?: string;
}

export interface SycophantRedactedThinking {
  __type__: "RedactedThinking";
  type: "redacted_thinking";
  data: string;
}

export interface SycophantToolCall {
  __type__: "ToolCall";
  id: string;
  name: string;
  /** Any JSON; left out when `{}` (the default). */
  arguments?: JsonValue;
  metadata?: JsonValue;
}

export interface SycophantCitation {
  __type__: "Citation";
  type?: "page_location" | "char_location" | "content_block_location" | "web_search_result_location" | "search_result_location";
  cited_text?: string;
  document_index?: number;
  document_title?: string;
  file_id?: string;
  unit?: "page" | "char" | "block";
  start_index?: number;
  end_index?: number;
  url?: string;
  title?: string;
  source?: string;
}

"#;

/// What only the constructors and the decoder take or give.
#[cfg(feature = "sycophant")]
#[wasm_bindgen(typescript_custom_section)]
const SYCOPHANT_INPUT_TYPES: &'static str = r#"
/** Any of the eight types `decodeSycophant` knows. */
export type SycophantValue = SycophantMessage | SycophantContentPart | SycophantToolCall | SycophantCitation;

/** Names a struct given to a constructor: its `__type__`, its `type` literal, or both. */
export type SycophantTag<T extends string, L extends string> = { __type__: T; type?: L } | { __type__?: T; type: L };

/** A content part given to a constructor: the canonical shape, with `__type__` or `type` enough
 * to name it and `null` allowed for absent fields. */
export type SycophantPartInput =
  | (SycophantTag<"Text", "text"> & { text: string; citations?: SycophantCitationInput[] | null })
  | (SycophantTag<"Image", "image"> & { url?: string | null; data?: string | null; media_type?: string | null })
  | (SycophantTag<"Document", "document"> & {
      data?: string | null; url?: string | null; file_id?: string | null; media_type?: string | null;
      name?: string | null; citations?: boolean | null })
  | (SycophantTag<"Thinking", "thinking"> & {
      id?: string | null; text?: string | null; summary?: string | null; signature?: string | null })
  | (SycophantTag<"RedactedThinking", "redacted_thinking"> & { data: string });

export type SycophantCitationInput = { [K in keyof SycophantCitation]?: SycophantCitation[K] | null };

/** A tool call given to `toolResultMessage`; `__type__` may be left out. */
export interface SycophantToolCallInput {
  __type__?: "ToolCall";
  id: string;
  name: string;
  arguments?: JsonValue;
  metadata?: JsonValue;
}

/** What the constructors accept as content (`null`: no content). */
export type SycophantContentInput = string | SycophantPartInput[] | null;
"#;

/// `Sycophant.Message.user/1`: `{__type__: "Message", role: "user", content}` as canonical JSON.
#[cfg(feature = "sycophant")]
#[wasm_bindgen(
    js_name = userMessage,
    unchecked_return_type = "SycophantMessage & { role: \"user\" }"
)]
pub fn user_message(
    #[wasm_bindgen(unchecked_param_type = "SycophantContentInput")] content: JsValue,
) -> Result<JsValue, JsValue> {
    run(sycophant::user(&Js::new(content)))
}

/// `Sycophant.Message.assistant/1`.
#[cfg(feature = "sycophant")]
#[wasm_bindgen(
    js_name = assistantMessage,
    unchecked_return_type = "SycophantMessage & { role: \"assistant\" }"
)]
pub fn assistant_message(
    #[wasm_bindgen(unchecked_param_type = "SycophantContentInput")] content: JsValue,
) -> Result<JsValue, JsValue> {
    run(sycophant::assistant(&Js::new(content)))
}

/// `Sycophant.Message.system/1`.
#[cfg(feature = "sycophant")]
#[wasm_bindgen(
    js_name = systemMessage,
    unchecked_return_type = "SycophantMessage & { role: \"system\" }"
)]
pub fn system_message(
    #[wasm_bindgen(unchecked_param_type = "SycophantContentInput")] content: JsValue,
) -> Result<JsValue, JsValue> {
    run(sycophant::system(&Js::new(content)))
}

/// `Sycophant.Message.tool_result/2`: the result of `toolCall`, with `tool_call_id` and
/// `metadata.tool_name` set from it.
#[cfg(feature = "sycophant")]
#[wasm_bindgen(
    js_name = toolResultMessage,
    unchecked_return_type = "SycophantMessage & { role: \"tool_result\"; tool_call_id: string; metadata: { tool_name: string } }"
)]
pub fn tool_result_message(
    #[wasm_bindgen(js_name = toolCall, unchecked_param_type = "SycophantToolCallInput")]
    tool_call: JsValue,
    #[wasm_bindgen(unchecked_param_type = "SycophantContentInput")] result: JsValue,
) -> Result<JsValue, JsValue> {
    run(sycophant::tool_result(
        &Js::new(tool_call),
        &Js::new(result),
    ))
}

/// `Sycophant.Serializable.Decoder.from_map/1`, returning the canonical JSON again.
#[cfg(feature = "sycophant")]
#[wasm_bindgen(js_name = decodeSycophant, unchecked_return_type = "SycophantMessage")]
pub fn decode_sycophant(
    #[wasm_bindgen(unchecked_param_type = "object")] json: JsValue,
) -> Result<JsValue, JsValue> {
    run(sycophant::decode(&Js::new(json)))
}

// Display-message records and their search text (behavior.md §5): newDisplayMessage,
// changeDisplayMessage, validateDisplayMessage, toText.

#[cfg(feature = "records")]
#[wasm_bindgen(typescript_custom_section)]
const RECORDS_TYPES: &'static str = r#"
/** What the record functions return: Ecto's `valid?`, its errors (field to messages, most recent
 * first) and the record with the valid changes applied (`apply_changes`). */
export interface Changeset {
  valid: boolean;
  errors: { [field: string]: string[] };
  record: DisplayMessage;
}
"#;

/// `create_changeset(conversation_id, attrs)`: casts and validates `attrs` into a new record.
#[cfg(feature = "records")]
#[wasm_bindgen(js_name = newDisplayMessage, unchecked_return_type = "Changeset")]
pub fn new_display_message(
    #[wasm_bindgen(js_name = conversationId, unchecked_param_type = "string | null")]
    conversation_id: JsValue,
    #[wasm_bindgen(unchecked_param_type = "object")] attrs: JsValue,
) -> Result<JsValue, JsValue> {
    let conversation_id = Js::optional(conversation_id);
    run(crate::record::new_display_message(
        conversation_id.as_ref(),
        &Js::new(attrs),
    ))
}

/// `changeset(record, attrs)`: casts and validates `attrs` over an existing record.
#[cfg(feature = "records")]
#[wasm_bindgen(js_name = changeDisplayMessage, unchecked_return_type = "Changeset")]
pub fn change_display_message(
    #[wasm_bindgen(unchecked_param_type = "DisplayMessage | DisplayRecord")] record: JsValue,
    #[wasm_bindgen(unchecked_param_type = "object")] attrs: JsValue,
) -> Result<JsValue, JsValue> {
    run(crate::record::change_display_message(
        &Js::new(record),
        &Js::new(attrs),
    ))
}

/// Validates a complete record, keeping its `id` and `inserted_at`.
#[cfg(feature = "records")]
#[wasm_bindgen(js_name = validateDisplayMessage, unchecked_return_type = "Changeset")]
pub fn validate_display_message(
    #[wasm_bindgen(unchecked_param_type = "DisplayMessage | DisplayRecord")] record: JsValue,
) -> Result<JsValue, JsValue> {
    run(crate::record::validate_display_message(&Js::new(record)))
}

/// `to_text/1`: a record's search text. Never throws.
#[wasm_bindgen(js_name = toText, unchecked_return_type = "string | null")]
pub fn to_text(
    #[wasm_bindgen(unchecked_param_type = "DisplayMessage | DisplayRecord")] record: JsValue,
) -> Result<JsValue, JsValue> {
    run(Ok(crate::text::to_text(&Js::new(record))))
}

// ---------------------------------------------------------------------------------------------
// Transcript: a conversation held inside the module (api.md "Transcript")

#[cfg(feature = "transcript")]
#[wasm_bindgen(typescript_custom_section)]
const TRANSCRIPT_TYPES: &'static str = r#"
/** The options of `Transcript.search`: at most `limit` indices (all when absent). */
export interface TranscriptSearchOptions {
  limit?: number | null;
}
"#;

/// Engine as the JavaScript engine reads and prints them, for values of a parsed document.
#[cfg(feature = "transcript")]
#[derive(Debug)]
pub struct JsEngine;

#[cfg(feature = "transcript")]
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

    /// `parseFloat(text)`: the double nearest a JSON number's text.
    #[wasm_bindgen(js_name = parseFloat)]
    fn parse_float(text: &str) -> f64;
}

/// The UTF-8 bytes of a string, written by the engine straight into the module's memory, in a
/// buffer of about their size.
///
/// wasm-bindgen's own copy of a string reserves three bytes per character from the first
/// non-ASCII one on, and `TextEncoder.encode` makes a JavaScript buffer that is then copied in
/// (about a third of loading a Transcript in Node). Here one byte per UTF-16 unit is reserved and
/// filled with `encodeInto`, which stops before a character that does not fit; the rest, which
/// is what the non-ASCII characters made too long, is encoded on its own and appended.
#[cfg(feature = "transcript")]
fn utf8_of(text: &JsValue) -> Vec<u8> {
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
#[cfg(feature = "transcript")]
fn given_bytes(given: &js_sys::Uint8Array) -> Vec<u8> {
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
#[cfg(feature = "transcript")]
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

#[cfg(feature = "transcript")]
impl Engine for JsEngine {
    type Value<'a> = Value<'a>;
    fn parse(text: &str) -> Option<f64> {
        Some(parse_float(text)).filter(|x| !x.is_nan())
    }
    fn shortest_digits(x: f64) -> (String, i64) {
        JsVal::shortest_digits(x)
    }
    fn lowercase(text: &str) -> String {
        // The engine's case mapping: Rust's would bring its Unicode tables into the module.
        js_sys::JsString::from(text).to_lower_case().into()
    }
    fn wrap(node: DocNode<'_>) -> Self::Value<'_> {
        Value::Doc(node)
    }
    fn node<'a>(value: &Self::Value<'a>) -> Option<DocNode<'a>> {
        match value {
            #[cfg(feature = "transcript")]
            Value::Doc(node) => Some(*node),
            Value::Js(_) | Value::Tape(_) => None,
        }
    }
}

#[cfg(feature = "transcript")]
type DocNode<'a> = Node<'a, JsEngine>;

/// A value of a parsed document as a JavaScript value: a plain string is made from its text, and
/// anything else (an escaped string, a number, an array or object) is `JSON.parse` of its own JSON
/// text, so it is exactly what `JSON.parse` of the whole text would have held there, lone
/// surrogates included.
#[cfg(feature = "transcript")]
fn node_to_js(node: &DocNode<'_>) -> JsValue {
    match node.kind() {
        Kind::Null | Kind::Other => JsValue::NULL,
        Kind::Bool => JsValue::from_bool(node.as_bool() == Some(true)),
        Kind::String if !node.is_escaped() => JsValue::from_str(&node.as_str().unwrap_or_default()),
        _ => js_sys::JSON::parse(node.raw()).unwrap_or(JsValue::NULL),
    }
}

/// A conversation held inside the module: its JSON text parsed once, with display-message records
/// handed out a window at a time, and search done inside.
#[cfg(feature = "transcript")]
#[wasm_bindgen(js_name = Transcript)]
pub struct Transcript {
    inner: transcript::Transcript<JsEngine>,
}

#[cfg(feature = "transcript")]
#[wasm_bindgen(js_class = Transcript)]
impl Transcript {
    /// Parses a conversation: an array of messages and/or records, or `{messages: [...]}`, as JSON
    /// text or UTF-8 bytes. Throws `invalid_input` only for text that is not JSON or a top level of
    /// another shape; a bad element becomes an `error` record in its place.
    #[wasm_bindgen(js_name = fromJson)]
    pub fn from_json(
        #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] text: JsValue,
    ) -> Result<Transcript, JsValue> {
        let text = if text.is_string() {
            // SAFETY: what TextEncoder writes is UTF-8 (the Encoding standard's UTF-8 encoder,
            // lone surrogates as U+FFFD), and `utf8_of` joins two whole outputs of it: the trust
            // wasm-bindgen places in it for every string argument. Checking again cost about a
            // twentieth of loading.
            unsafe { String::from_utf8_unchecked(utf8_of(&text)) }
        } else if let Some(given) = text.dyn_ref::<js_sys::Uint8Array>() {
            let mut bytes = given_bytes(given);
            // A byte order mark is not JSON, but file readers drop it; so does this.
            if bytes.starts_with(b"\xEF\xBB\xBF") {
                bytes.drain(..3);
            }
            String::from_utf8(bytes).map_err(|_| {
                to_js_error(&Error::new(
                    ErrorCode::InvalidInput,
                    &Path::ROOT,
                    "Expected UTF-8 text at $.",
                ))
            })?
        } else {
            return Err(to_js_error(&Error::expected(
                &Path::ROOT,
                "JSON text (a string or a Uint8Array)",
                Js::new(text).kind(),
            )));
        };
        transcript::Transcript::from_json(text)
            .map(|inner| Transcript { inner })
            .map_err(|e| to_js_error(&e))
    }

    /// The number of display-message records.
    #[wasm_bindgen(getter)]
    pub fn length(&self) -> u32 {
        self.inner.len() as u32
    }

    /// The records `start` to `end` (exclusive, clamped), as `toDisplayMessages` gives them.
    #[wasm_bindgen(unchecked_return_type = "DisplayMessage[]")]
    pub fn records(&self, start: f64, end: f64) -> Result<JsValue, JsValue> {
        let index = |x: f64| if x.is_nan() || x < 0.0 { 0 } else { x as usize };
        let out = self.inner.records(index(start), index(end));
        let array = Array::new_with_length(out.len() as u32);
        for (i, record) in out.iter().enumerate() {
            let value = match record {
                transcript::Out::Item(record) => record_to_js(record),
                transcript::Out::Given(record) => to_js(record.as_ref())?,
                transcript::Out::Error { text, path } => {
                    let content = object(&[
                        ("text", Some(&JsValue::from_str(text))),
                        ("path", Some(&JsValue::from_str(path))),
                    ]);
                    object(&[
                        ("conversation_id", None),
                        ("message_type", None),
                        ("content_type", Some(&constant("error"))),
                        ("content", Some(&content)),
                        ("sequence", Some(&JsValue::from_f64(0.0))),
                        ("status", Some(&constant("failed"))),
                        ("tool_call_id", None),
                        ("metadata", Some(&Fresh::new().into())),
                    ])
                }
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

    /// The indices of the records whose `toText` contains `query`, ignoring case.
    #[wasm_bindgen(unchecked_return_type = "number[]")]
    pub fn search(
        &self,
        query: &str,
        #[wasm_bindgen(unchecked_optional_param_type = "TranscriptSearchOptions | null")]
        options: JsValue,
    ) -> Result<JsValue, JsValue> {
        let root = Path::Root("$.options");
        let options = Js::new(options);
        let limit = match options.kind() {
            Kind::Null => None,
            Kind::Object => match options.get_non_null("limit") {
                None => None,
                Some(limit) => match limit.as_number() {
                    Some(n) if n.as_f64() >= 0.0 => Some(n.as_f64() as usize),
                    _ => {
                        return Err(to_js_error(&Error::expected(
                            &root.key("limit"),
                            "a number at least 0, or null",
                            limit.kind(),
                        )))
                    }
                },
            },
            other => {
                return Err(to_js_error(&Error::expected(
                    &root,
                    "an options object",
                    other,
                )))
            }
        };
        let found = self.inner.search(query, limit);
        let array = Array::new_with_length(found.len() as u32);
        for (i, index) in found.iter().enumerate() {
            array.set(i as u32, JsValue::from_f64(f64::from(*index)));
        }
        Ok(array.into())
    }

    /// Adds a message at the end, settling earlier pending tool calls its results answer. A message
    /// that cannot be read throws (paths from `$.message`) and changes nothing.
    pub fn append(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Message | SycophantMessage")] message: JsValue,
    ) -> Result<(), JsValue> {
        let root = Path::Root("$.message");
        let message = Js::new(message);
        if message.kind() != Kind::Object {
            return Err(to_js_error(&Error::expected(
                &root,
                "a message object",
                message.kind(),
            )));
        }
        let text = js_sys::JSON::stringify(&message.to_js())
            .ok()
            .and_then(|t| t.as_string())
            .ok_or_else(|| {
                to_js_error(&Error::new(
                    ErrorCode::InvalidInput,
                    &root,
                    "Expected a message that JSON can hold at $.message.",
                ))
            })?;
        self.inner.append(text).map_err(|e| to_js_error(&e))
    }
}

// The provider wire formats and live streams, left out of a build without the `providers` feature
// (the core alone, which is what the size budget measures).
#[cfg(feature = "providers")]
pub use wire::*;

#[cfg(feature = "providers")]
mod wire {
    use super::*;

    // Provider wire formats (issue 9): fromProvider, detectProtocol, toProvider

    #[wasm_bindgen(typescript_custom_section)]
    const PROVIDERS_TYPES: &'static str = r#"
/** A provider wire format, named as Sycophant's `wire_protocol` names it. */
export type WireProtocol = "anthropic_messages" | "openai_completions" | "openai_responses"
  | "bedrock_converse" | "google_gemini";

/** `metadata` of a message read from a provider payload. `stop_reason` is the provider's raw stop
 * reason (response bodies only); `stop_details` is Anthropic's refusal detail. */
export type ProviderMetadata = {
  wire_protocol: WireProtocol;
  stop_reason?: JsonValue;
  stop_details?: JsonValue;
};

/** A LangChain message made by `fromProvider`: every key present. */
export interface ProviderMessage extends Message {
  role: MessageType;
  content: ContentPart[] | null;
  status: "complete" | "cancelled" | "length" | "content_filtered";
  tool_calls: ToolCall[];
  tool_results: ToolResult[] | null;
  metadata: ProviderMetadata;
}

/** A provider JSON object (a message, block, part or item). */
export type ProviderObject = { [key: string]: JsonValue };

/** What `toProvider` returns: the format's request array (`messages`, `input` or `contents`), or,
 * for Anthropic, Bedrock and Gemini when there are system messages, the request-body fields
 * `{system, messages}` / `{systemInstruction, contents}`. */
export type ProviderRequest =
  | ProviderObject[]
  | { system: string | ProviderObject[]; messages: ProviderObject[] }
  | { systemInstruction: ProviderObject; contents: ProviderObject[] };
"#;

    /// `fromProvider`: a provider request body, response body or message array as LangChain messages.
    #[wasm_bindgen(js_name = fromProvider, unchecked_return_type = "ProviderMessage[]")]
    pub fn from_provider(
        #[wasm_bindgen(unchecked_param_type = "WireProtocol")] protocol: JsValue,
        #[wasm_bindgen(unchecked_param_type = "unknown")] payload: JsValue,
    ) -> Result<JsValue, JsValue> {
        run(crate::providers::from_provider(
            &Js::new(protocol),
            &Js::new(payload),
        ))
    }

    /// `detectProtocol`: the wire format of a payload, from its shape, or `null`.
    #[wasm_bindgen(js_name = detectProtocol, unchecked_return_type = "WireProtocol | null")]
    pub fn detect_protocol(
        #[wasm_bindgen(unchecked_param_type = "unknown")] payload: JsValue,
    ) -> JsValue {
        match crate::providers::detect_protocol(&Js::new(payload)) {
            Some(protocol) => JsValue::from_str(protocol.as_str()),
            None => JsValue::NULL,
        }
    }

    /// `toProvider`: LangChain messages as a provider's request array.
    #[wasm_bindgen(js_name = toProvider, unchecked_return_type = "ProviderRequest")]
    pub fn to_provider(
        #[wasm_bindgen(unchecked_param_type = "WireProtocol")] protocol: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Message[]")] messages: JsValue,
    ) -> Result<JsValue, JsValue> {
        run(crate::providers::to_provider(
            &Js::new(protocol),
            &Js::new(messages),
        ))
    }

    // ---------------------------------------------------------------------------------------------
    // Live streams (issue 10): StreamAccumulator

    #[wasm_bindgen(typescript_custom_section)]
    const STREAM_TYPES: &'static str = r#"
/** A display-message record while its block streams: `metadata.streaming` is `true` until the
 * block ends, and a tool call's `content.arguments` holds the fields parsed so far. */
export type StreamRecord = DisplayRecord | StreamingRecord<DisplayRecord>
  | (DisplayMessage & { content_type: "error"; content: { text: string; path: string }; status: "failed" });

/** A record of a block that is still streaming (one for each kind of `DisplayRecord`). */
export type StreamingRecord<T> = T extends unknown ? Omit<T, "metadata"> & { metadata: { streaming: true } } : never;

/** What one `StreamAccumulator.push` changed. Applied in order to an array that started empty,
 * the patches of every push give exactly `records()`. Records are never removed; a `replace`
 * record shares every unchanged object with the record it replaces. */
export type Patch =
  | { op: "add"; record: StreamRecord }
  | { op: "append"; index: number; field: "text" | "content"; text: string }
  | { op: "replace"; index: number; record: StreamRecord };
"#;

    /// A provider's streaming response, read as it arrives.
    #[wasm_bindgen(js_name = StreamAccumulator)]
    pub struct StreamAccumulator {
        inner: crate::stream::StreamAccumulator<JsReader>,
        /// A high surrogate that ended the last string chunk: the rest of its character comes next.
        high: Option<u16>,
        /// The JavaScript record last handed out for each tool-call record, by index, so an arguments
        /// change copies only the path it changes.
        calls: Vec<Option<JsValue>>,
        /// Argument keys met so far as JavaScript strings, so a key on a changed path is made once.
        keys: Vec<(String, JsValue)>,
        names: PatchNames,
    }

    /// The JavaScript strings a stream's patches are made of, made once an accumulator.
    struct PatchNames {
        op: JsValue,
        index: JsValue,
        field: JsValue,
        text: JsValue,
        record: JsValue,
        content: JsValue,
        arguments: JsValue,
        add: JsValue,
        append: JsValue,
        replace: JsValue,
    }

    impl PatchNames {
        fn new() -> PatchNames {
            PatchNames {
                op: constant("op"),
                index: constant("index"),
                field: constant("field"),
                text: constant("text"),
                record: constant("record"),
                content: constant("content"),
                arguments: constant("arguments"),
                add: constant("add"),
                append: constant("append"),
                replace: constant("replace"),
            }
        }
    }

    /// How many argument keys an accumulator keeps as JavaScript strings, and how long each may be.
    const STREAM_KEYS: usize = 64;
    const STREAM_KEY_MAX_LEN: usize = 64;

    /// `key` as a JavaScript string, from `keys` when it is there (kept there when there is room).
    fn stream_key(keys: &mut Vec<(String, JsValue)>, key: &str) -> JsValue {
        if let Some((_, value)) = keys.iter().find(|(k, _)| k == key) {
            return value.clone();
        }
        let value = JsValue::from_str(key);
        if keys.len() < STREAM_KEYS && key.len() <= STREAM_KEY_MAX_LEN {
            keys.push((key.to_string(), value.clone()));
        }
        value
    }

    #[wasm_bindgen(js_class = StreamAccumulator)]
    impl StreamAccumulator {
        /// A new accumulator for one of the five wire protocols (`unsupported_protocol` otherwise).
        #[wasm_bindgen(constructor)]
        pub fn new(
            #[wasm_bindgen(unchecked_param_type = "WireProtocol")] protocol: JsValue,
        ) -> Result<StreamAccumulator, JsValue> {
            let protocol = crate::providers::parse_protocol(&Js::new(protocol))
                .map_err(|e| to_js_error(&e))?;
            Ok(StreamAccumulator {
                inner: crate::stream::StreamAccumulator::<JsReader>::with_reader(protocol),
                high: None,
                calls: Vec::new(),
                keys: Vec::new(),
                names: PatchNames::new(),
            })
        }

        /// Reads a chunk: SSE text or bytes cut anywhere (inside a line, a UTF-8 character or a
        /// surrogate pair), or one parsed event object. Returns what changed in the records.
        #[wasm_bindgen(unchecked_return_type = "Patch[]")]
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
                let event = Js::new(chunk);
                if event.kind() != Kind::Object {
                    return Err(to_js_error(&Error::expected(
                        &root,
                        "SSE text, bytes (a Uint8Array) or an event object",
                        event.kind(),
                    )));
                }
                let event = crate::stream::event_of(&event, &root).map_err(|e| to_js_error(&e))?;
                self.inner.push(crate::stream::Chunk::Event(event))
            };
            let out = Array::new_with_length(patches.len() as u32);
            for (i, patch) in patches.iter().enumerate() {
                out.set(i as u32, self.patch_to_js(patch)?);
            }
            Ok(out.into())
        }

        /// The message so far, as `fromProvider` reads the response body built from the stream.
        /// Throws the ChatDisplayError `fromProvider` throws when the events built a body it cannot
        /// read (a block of the wrong shape, say).
        #[wasm_bindgen(unchecked_return_type = "ProviderMessage")]
        pub fn message(&self) -> Result<JsValue, JsValue> {
            run(self.inner.message())
        }

        /// The display-message records so far.
        #[wasm_bindgen(unchecked_return_type = "StreamRecord[]")]
        pub fn records(&self) -> Result<JsValue, JsValue> {
            to_js(&self.inner.records())
        }

        /// True once the stream has said it is over.
        #[wasm_bindgen(getter)]
        pub fn done(&self) -> bool {
            self.inner.done()
        }
    }

    impl StreamAccumulator {
        fn patch_to_js(&mut self, patch: &crate::stream::Patch) -> Result<JsValue, JsValue> {
            use crate::stream::Patch;
            let names = &self.names;
            let out = Fresh::new();
            let (index, record) = match patch {
                Patch::Add(record) => {
                    out.put(&names.op, &names.add);
                    (self.calls.len(), to_js(record)?)
                }
                Patch::Replace { index, record } => {
                    out.put(&names.op, &names.replace);
                    out.put(&names.index, &small_number(*index));
                    (*index, to_js(record)?)
                }
                Patch::Append { index, field, text } => {
                    out.put(&names.op, &names.append);
                    out.put(&names.index, &small_number(*index));
                    out.put(&names.field, &constant(field));
                    out.put(&names.text, &JsValue::from_str(text));
                    return Ok(out.into());
                }
                Patch::Arguments { index, changes } => {
                    out.put(&names.op, &names.replace);
                    out.put(&names.index, &small_number(*index));
                    let previous = self.calls.get(*index).cloned().flatten();
                    // The arguments as they now are in Rust: they say which objects on a changed path
                    // have no `__proto__` key, so can be copied with `Object.assign`.
                    let now = self
                        .inner
                        .records()
                        .get(*index)
                        .and_then(|r| r.get("content"))
                        .and_then(|c| c.get("arguments"));
                    let record = match previous {
                        Some(previous) => {
                            // The record and its content are this module's own objects, whose keys
                            // are known (never `__proto__`), so `Object.assign` copies them safely;
                            // everything but the new arguments is shared.
                            let previous: Fresh = previous.unchecked_into();
                            let content: Fresh = previous.take(&names.content).unchecked_into();
                            let arguments = apply_changes(
                                &mut self.keys,
                                &content.take(&names.arguments),
                                changes,
                                now,
                            )?;
                            let new_content: Fresh =
                                Object::assign(&Object::new(), content.unchecked_ref())
                                    .unchecked_into();
                            new_content.put(&names.arguments, &arguments);
                            let record: Fresh =
                                Object::assign(&Object::new(), previous.unchecked_ref())
                                    .unchecked_into();
                            record.put(&names.content, &new_content);
                            JsValue::from(record)
                        }
                        None => match self.inner.records().get(*index) {
                            Some(record) => to_js(record)?,
                            None => JsValue::NULL,
                        },
                    };
                    (*index, record)
                }
            };
            out.put(&self.names.record, &record);
            let call = match patch {
                Patch::Add(r) | Patch::Replace { record: r, .. } => {
                    r.get("content_type")
                        .and_then(crate::providers::Parsed::as_string)
                        == Some("tool_call")
                }
                _ => true,
            };
            if self.calls.len() <= index {
                self.calls.resize(index + 1, None);
            }
            if let Some(slot) = self.calls.get_mut(index) {
                *slot = call.then_some(record);
            }
            Ok(out.into())
        }
    }

    /// The stream accumulator's reader in the module: the bodies it builds go to the provider readers
    /// as JavaScript values (the module holds the readers for those already; reading `Parsed` values
    /// directly would add a second copy of every reader to the `.wasm`), and what they give is read
    /// back.
    struct JsReader;

    impl crate::stream::Reader for JsReader {
        fn read(
            protocol: crate::providers::WireProtocol,
            body: &crate::providers::Parsed,
            records: bool,
        ) -> crate::error::Result<(
            crate::providers::Parsed,
            Vec<(usize, crate::providers::Parsed)>,
        )> {
            let unwritable = |_| {
                Error::new(
                    ErrorCode::InvalidInput,
                    &Path::ROOT,
                    "A value in the stream cannot be written as JavaScript.",
                )
            };
            let body = Js::new(to_js(body).map_err(unwritable)?);
            let messages = crate::providers::read_payload(protocol, &body)?;
            let messages = Js::new(to_js(&messages).map_err(unwritable)?);
            let parsed = crate::stream::event_of(&messages, &Path::ROOT)?;
            if !records {
                return Ok((parsed, Vec::new()));
            }
            let mut out = Vec::new();
            for (owner, record) in crate::stream::records_with_owners(&messages)? {
                let record = crate::stream::event_of(&Js::new(record_to_js(&record)), &Path::ROOT)?;
                out.push((owner, record));
            }
            Ok((parsed, out))
        }
    }

    /// A copy of `target` (an array when `array`, else an object); its values are shared. An object
    /// that (as Rust holds it, `now`) has no `__proto__` key is copied with `Object.assign`; any
    /// other through `fromEntries`, which defines each key as an own property, `__proto__` included.
    fn shallow_copy(
        target: &JsValue,
        array: bool,
        now: Option<&crate::providers::Parsed>,
    ) -> JsValue {
        if array {
            Array::from(target).slice(0, u32::MAX).into()
        } else if plain(now) {
            Object::assign(&Object::new(), target.unchecked_ref()).into()
        } else {
            Object::from_entries(&Object::entries(&Object::from(target.clone())))
                .map(JsValue::from)
                .unwrap_or_else(|_| Object::new().into())
        }
    }

    /// Whether `now` is an object without a `__proto__` key, so that setting any of its keys by
    /// assignment defines an own property.
    fn plain(now: Option<&crate::providers::Parsed>) -> bool {
        matches!(now, Some(crate::providers::Parsed::Object(entries))
            if !entries.iter().any(|(k, _)| k == "__proto__"))
    }

    /// `container[key] = value` as an own property, for a container this module has just made.
    fn set_in(
        container: &JsValue,
        step: &crate::partial_json::Step,
        key: &JsValue,
        value: &JsValue,
        now: Option<&crate::providers::Parsed>,
    ) {
        if matches!(step, crate::partial_json::Step::Index(_)) {
            let _ = Reflect::set(container, key, value);
        } else if plain(now) {
            container.unchecked_ref::<Fresh>().put(key, value);
        } else {
            define(container.unchecked_ref(), key, value);
        }
    }

    /// The arguments a UI holds (`root`) with one patch's partial-JSON changes applied, as
    /// [`crate::partial_json::apply`] applies them in Rust: every object or array on a changed path is
    /// copied once per patch (later changes under it change the copy), and everything else is
    /// shared. `now` is the arguments as Rust holds them after the changes.
    fn apply_changes(
        keys: &mut Vec<(String, JsValue)>,
        root: &JsValue,
        changes: &[crate::partial_json::Change],
        now: Option<&crate::providers::Parsed>,
    ) -> Result<JsValue, JsValue> {
        use crate::partial_json::{Change, Step};
        let mut root = root.clone();
        let mut root_fresh = false;
        // The containers copied or made during this patch, by path.
        let mut fresh: Vec<(&[Step], JsValue)> = Vec::new();
        for change in changes {
            let path = change.path();
            let Some((last, parents)) = path.split_last() else {
                root = match change {
                    Change::Set { value, .. } => to_js(value)?,
                    Change::Append { text, .. } => match root.dyn_ref::<js_sys::JsString>() {
                        Some(old) => old.concat(&JsValue::from_str(text)).into(),
                        None => continue,
                    },
                };
                root_fresh = true;
                fresh.clear();
                continue;
            };
            if !root_fresh {
                if !root.is_object() {
                    continue;
                }
                root = shallow_copy(&root, is_array(&root), now);
                root_fresh = true;
            }
            // Down to the container of the changed value, copying what this patch has not yet.
            let mut node = root.clone();
            let mut node_now = now;
            let mut reached = true;
            for (depth, step) in parents.iter().enumerate() {
                let key = step_key(keys, step);
                let child_now =
                    node_now.and_then(|n| crate::stream::get_path(n, core::slice::from_ref(step)));
                let prefix = &path[..=depth];
                if let Some((_, copy)) = fresh.iter().find(|(p, _)| *p == prefix) {
                    node = copy.clone();
                } else {
                    let child = Reflect::get(&node, &key).unwrap_or(JsValue::UNDEFINED);
                    if !child.is_object() {
                        reached = false;
                        break;
                    }
                    let copy = shallow_copy(&child, is_array(&child), child_now);
                    set_in(&node, step, &key, &copy, node_now);
                    fresh.push((prefix, copy.clone()));
                    node = copy;
                }
                node_now = child_now;
            }
            if !reached {
                continue;
            }
            let key = step_key(keys, last);
            match change {
                Change::Set { value, .. } => {
                    let value = to_js(value)?;
                    set_in(&node, last, &key, &value, node_now);
                    // What was made under this path before is gone; a new container is this
                    // patch's own.
                    fresh.retain(|(p, _)| !p.starts_with(path));
                    if value.is_object() {
                        fresh.push((path, value));
                    }
                }
                Change::Append { text, .. } => {
                    let old = Reflect::get(&node, &key).unwrap_or(JsValue::UNDEFINED);
                    if let Some(old) = old.dyn_ref::<js_sys::JsString>() {
                        set_in(
                            &node,
                            last,
                            &key,
                            &old.concat(&JsValue::from_str(text)),
                            node_now,
                        );
                    }
                }
            }
        }
        Ok(root)
    }

    /// A path step as the JavaScript key it stands for.
    fn step_key(keys: &mut Vec<(String, JsValue)>, step: &crate::partial_json::Step) -> JsValue {
        match step {
            crate::partial_json::Step::Key(k) => stream_key(keys, k),
            crate::partial_json::Step::Index(i) => small_number(*i),
        }
    }
}
