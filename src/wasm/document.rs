//! The input path of a Transcript: [`DocValue`], a value of the JSON text a Transcript parsed
//! once and holds inside the module ([`crate::json::doc`]), read without a call out of wasm, and
//! [`JsEngine`], which leaves to the JavaScript engine what the core would otherwise compile in
//! (number parsing and printing, lowercasing). A document value reaches JavaScript as what
//! `JSON.parse` of the whole text would hold there ([`to_js`]).
//!
//! In the module with the `transcript` feature only; without it, `no_document.rs` stands in.

use super::in_place::InPlace;
use super::input::Input;
use crate::json::doc::{Engine, Node};
use crate::json::{Json, Kind};
use crate::prelude::*;
use wasm_bindgen::prelude::*;

/// A value of a parsed document.
pub type DocValue<'a> = Node<'a, JsEngine>;

/// The engine of the documents a Transcript holds in the module: numbers, float digits and
/// lowercasing as the JavaScript engine reads and prints them, and [`Input`] as the handle type.
#[derive(Debug)]
pub struct JsEngine;

#[wasm_bindgen]
extern "C" {
    /// `parseFloat(text)`: the double nearest a JSON number's text.
    #[wasm_bindgen(js_name = parseFloat)]
    fn parse_float(text: &str) -> f64;
}

impl Engine for JsEngine {
    type Value<'a> = Input<'a>;
    fn parse(text: &str) -> Option<f64> {
        Some(parse_float(text)).filter(|x| !x.is_nan())
    }
    fn shortest_digits(x: f64) -> (String, i64) {
        InPlace::shortest_digits(x)
    }
    fn lowercase(text: &str) -> String {
        // The engine's case mapping: Rust's would bring its Unicode tables into the module.
        js_sys::JsString::from(text).to_lower_case().into()
    }
    fn wrap(node: DocValue<'_>) -> Self::Value<'_> {
        Input::Doc(node)
    }
    fn node<'a>(value: &Self::Value<'a>) -> Option<DocValue<'a>> {
        match value {
            Input::Doc(node) => Some(*node),
            Input::InPlace(_) | Input::Tape(_) => None,
        }
    }
}

/// [`Json::fields_into`] of a document object, in one pass over its keys.
pub(super) fn fields_into<'a>(
    node: &DocValue<'a>,
    keys: &'static [&'static str],
    out: &mut [Option<Input<'a>>],
) {
    node.fields_with(keys, out, Input::Doc);
}

/// [`Json::elements`] of a document array, straight from the document, in a list of the right
/// size (not a list of nodes copied into another).
pub(super) fn elements<'a>(node: &DocValue<'a>) -> Option<Vec<Input<'a>>> {
    if node.kind() != Kind::Array {
        return None;
    }
    let mut out = Vec::with_capacity(node.items().count());
    out.extend(node.items().map(Input::Doc));
    Some(out)
}

/// A value of a parsed document as a JavaScript value: a plain string is made from its text, and
/// anything else (an escaped string, a number, an array or object) is `JSON.parse` of its own JSON
/// text, so it is exactly what `JSON.parse` of the whole text would have held there, lone
/// surrogates included.
pub(super) fn to_js(node: &DocValue<'_>) -> JsValue {
    match node.kind() {
        Kind::Null | Kind::Other => JsValue::NULL,
        Kind::Bool => JsValue::from_bool(node.as_bool() == Some(true)),
        Kind::String if !node.is_escaped() => JsValue::from_str(&node.as_str().unwrap_or_default()),
        _ => js_sys::JSON::parse(node.raw()).unwrap_or(JsValue::NULL),
    }
}
