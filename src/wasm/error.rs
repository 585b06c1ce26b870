//! The error JavaScript sees: every failure leaves the module as a real `Error` named
//! `ChatDisplayError`, with the core's stable `code` and the `path` of the offending place.

use crate::error::Error;
use wasm_bindgen::JsValue;

/// The `Error` JavaScript sees for `error`: `name` "ChatDisplayError", `code`, `path`, and the
/// message.
pub(super) fn chat_display_error(error: &Error) -> JsValue {
    let js = js_sys::Error::new(&error.message);
    js.set_name("ChatDisplayError");
    let object: &JsValue = js.as_ref();
    // Setting a property on a fresh Error cannot fail; if it somehow did, the message still names
    // the code and path.
    let _ = js_sys::Reflect::set(object, &"code".into(), &error.code.as_str().into());
    let _ = js_sys::Reflect::set(object, &"path".into(), &error.path.as_str().into());
    js.into()
}
