//! Helpers shared by the boundary tests (tests/boundary*.rs), which run in headless Chrome.
#![cfg(target_arch = "wasm32")]
#![allow(dead_code)]

use js_sys::{Array, Function, Reflect, JSON};
use wasm_bindgen::prelude::*;

/// Parses JSON text into a JavaScript value.
pub fn js(text: &str) -> JsValue {
    JSON::parse(text).expect("test JSON")
}

/// `JSON.stringify(value)`: compared as text, key order and `null` versus absent count.
pub fn text(value: &JsValue) -> String {
    JSON::stringify(value)
        .expect("stringify")
        .as_string()
        .unwrap_or_default()
}

/// `value[key]`.
pub fn get(value: &JsValue, key: &str) -> JsValue {
    Reflect::get(value, &key.into()).expect("get")
}

/// `key in value`.
pub fn has(value: &JsValue, key: &str) -> bool {
    Reflect::has(value, &key.into()).unwrap_or(false)
}

/// `value[index]`.
pub fn at(value: &JsValue, index: u32) -> JsValue {
    Reflect::get_u32(value, index).expect("index")
}

/// Evaluates a JavaScript expression, for values JSON cannot express.
pub fn eval(expr: &str) -> JsValue {
    Function::new_no_args(&format!("return ({expr});"))
        .call0(&JsValue::NULL)
        .expect("eval")
}

/// Calls a one-argument JavaScript function given as source.
pub fn call(source: &str, value: &JsValue) -> JsValue {
    Function::new_with_args("v", source)
        .call1(&JsValue::NULL, value)
        .expect("call")
}

/// An object whose prototype is `Object.prototype` (not a `Map`, not a class instance).
pub fn is_plain_object(value: &JsValue) -> bool {
    call(
        "return v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype",
        value,
    )
    .is_truthy()
}

/// The cases of a fixture file that is a JSON array.
pub fn cases(file: &str) -> Vec<JsValue> {
    Array::from(&js(file)).iter().collect()
}
