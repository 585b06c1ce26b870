//! The boundary tests' kit (tests/boundary*.rs, which run in a headless browser): JavaScript
//! values read and written, and the one way a fixture case is checked through the boundary.

use chat_display::wasm::is_chat_display_error;
use js_sys::{Array, Function, Reflect, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

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

/// Asserts `result` matches the case: its `output_key` (as JSON text, so key order and `null`
/// versus absent count), or a ChatDisplayError (a real `Error`) with the case's code and path,
/// whose message holds the case's wording when it gives one (`error.message` or
/// `message_contains`).
pub fn check_case(case: &JsValue, output_key: &str, result: Result<JsValue, JsValue>) {
    check_output(case, &get(case, output_key), result);
}

/// [`check_case`] with the output given: for cases whose output through JavaScript differs from
/// the native one (a `*_js` key).
pub fn check_output(case: &JsValue, output: &JsValue, result: Result<JsValue, JsValue>) {
    let name = get(case, "name").as_string().unwrap_or_default();
    let expected_error = get(case, "error");
    match result {
        Ok(got) => {
            assert!(
                expected_error.is_undefined(),
                "{name}: expected an error, got {}",
                text(&got)
            );
            assert_eq!(text(&got), text(output), "{name}");
        }
        Err(error) => {
            assert!(
                !expected_error.is_undefined(),
                "{name}: unexpected error {:?}",
                get(&error, "message")
            );
            assert!(error.is_instance_of::<js_sys::Error>(), "{name}: an Error");
            assert_eq!(get(&error, "name"), "ChatDisplayError", "{name}");
            assert!(is_chat_display_error(error.clone()), "{name}");
            assert_eq!(get(&error, "code"), get(&expected_error, "code"), "{name}");
            assert_eq!(get(&error, "path"), get(&expected_error, "path"), "{name}");
            let message = get(&error, "message").as_string().unwrap_or_default();
            let wording = get(&expected_error, "message").as_string();
            if let Some(part) = wording.or(get(case, "message_contains").as_string()) {
                assert!(message.contains(&part), "{name}: {message:?} has {part:?}");
            }
        }
    }
}
