//! The input path every function has: [`InPlace`], a JavaScript value read where it is, through
//! the core's [`Json`] view, one call out of wasm per question (a property, a type test, an array
//! element). Every argument is read this way, except the display functions' input while the tape
//! glue can walk it ([`super::tape`]); the tape and Transcript's documents leave to it whatever
//! they do not hold themselves. Strings and objects the core only moves go back to JavaScript as
//! the very same values.

use super::strings::js_str;
use crate::json::{Json, Kind, Number};
use crate::prelude::*;
use alloc::borrow::Cow;
use core::cell::Cell;
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    /// `Object.keys`, with a throwing proxy trap caught.
    #[wasm_bindgen(catch, js_namespace = Object, js_name = keys)]
    fn object_keys(value: &JsValue) -> Result<Array, JsValue>;
    /// `Array.isArray`, which throws on a revoked proxy.
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn array_is_array(value: &JsValue) -> Result<bool, JsValue>;

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
}

/// `Array.isArray(value)`; a revoked proxy is not an array.
pub(super) fn is_array(value: &JsValue) -> bool {
    array_is_array(value).unwrap_or(false)
}

/// The most elements an array read in place may have. Reading one holds a JavaScript handle per
/// element, and V8's table of handles stops at about 10 million entries (a trap, which would
/// leave the module unusable); a longer array (a sparse one, most likely) is a value this module
/// does not take, `Kind::Other`, so the functions give their `invalid_input` error. The tape's
/// glue applies the same bound to the arrays it leaves to `InPlace`.
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

/// A JavaScript value read in place, through the core's [`Json`] view.
///
/// Every question asked of a JavaScript value is a call out of wasm, so the view asks as few as it
/// can: a value's kind is found once and kept, keys and constant strings are JavaScript strings
/// made once and reused ([`super::strings`]), and kind tests go in the order values are met.
#[derive(Clone, Debug)]
pub struct InPlace {
    value: JsValue,
    kind: Cell<Option<Kind>>,
}

impl InPlace {
    pub fn new(value: JsValue) -> InPlace {
        InPlace {
            value,
            kind: Cell::new(None),
        }
    }

    /// A value whose kind is already known (the tape's glue tells it).
    pub(super) fn with_kind(value: JsValue, kind: Kind) -> InPlace {
        InPlace {
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

    fn element(&self, i: u32) -> InPlace {
        InPlace::new(Reflect::get_u32(&self.value, i).unwrap_or(JsValue::UNDEFINED))
    }
}

impl Json for InPlace {
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
            .map(InPlace::new)
    }

    fn get_non_null(&self, key: &str) -> Option<Self> {
        if self.kind() != Kind::Object {
            return None;
        }
        js_str(key, |key| reflect_get_some(&self.value, key))
            .ok()
            .flatten()
            .map(|v| InPlace::new(v.into()))
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

    fn match_str(&self, candidates: &'static [&'static str]) -> Option<usize> {
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
                    Some((name, InPlace::new(value)))
                })
                .collect(),
        )
    }

    fn is_empty_str(&self) -> bool {
        js_str("", |empty| *empty == self.value)
    }

    fn empty_object() -> Self {
        InPlace::with_kind(Object::new().into(), Kind::Object)
    }

    fn shortest_digits(x: f64) -> (String, i64) {
        // `toExponential()` without an argument gives the shortest digits that read back as `x`
        // (ECMA-262 Number::toString's digits), as Rust's `{:e}` does natively.
        let number: Num = JsValue::from_f64(x).unchecked_into();
        crate::json::digits_of_exponential(&number.to_exponential())
    }
}
