//! [`Input`], the one handle type the core reads in wasm, and which of the three input paths a
//! value takes:
//!
//! | variant | what it is | when |
//! |---|---|---|
//! | `InPlace` | a JavaScript value, read where it is, a call per question ([`super::in_place`]) | every argument, and what the other two leave to it |
//! | `Tape` | a value on the tape the glue wrote in one pass ([`super::tape`]) | the display functions' input |
//! | `Doc` | a value of a Transcript's parsed JSON text ([`super::document`]) | a Transcript's records and search text |
//!
//! One type, so the core is compiled once for all three (each generic function compiled for
//! three handle types would be in the module three times). Without the `transcript` feature (the
//! display module) there is no document: `Doc` holds a type without values, so the variant, and
//! with it the document's readers, which each method's `match` would otherwise keep, leave the
//! module.

use super::document::{self, DocValue};
use super::in_place::InPlace;
use super::tape::OnTape;
use crate::json::{Json, Kind, Number};
use crate::message::Message;
use crate::prelude::*;
use alloc::borrow::Cow;
use wasm_bindgen::JsValue;

/// A value the core reads: see the table above.
#[derive(Clone, Debug)]
pub enum Input<'a> {
    InPlace(InPlace),
    Tape(OnTape<'a>),
    // Without `transcript`, made nowhere: its type has no values (`no_document.rs`).
    #[allow(dead_code)]
    Doc(DocValue<'a>),
}

impl Input<'_> {
    /// A function's argument, read in place.
    pub fn in_place(value: JsValue) -> Input<'static> {
        Input::InPlace(InPlace::new(value))
    }

    /// An optional argument, read in place: `undefined` is absent.
    pub(super) fn optional(value: JsValue) -> Option<Input<'static>> {
        Some(value)
            .filter(|v| !v.is_undefined())
            .map(Input::in_place)
    }

    /// The JavaScript value: the value itself for one read in place or kept by the tape's glue;
    /// made from its text for a document's.
    pub(super) fn to_js(&self) -> Cow<'_, JsValue> {
        match self {
            Input::InPlace(v) => Cow::Borrowed(v.value()),
            Input::Tape(t) => Cow::Owned(t.to_js()),
            Input::Doc(n) => Cow::Owned(document::to_js(n)),
        }
    }
}

impl<'a> Json for Input<'a> {
    fn fields_into(&self, keys: &'static [&'static str], out: &mut [Option<Self>]) {
        match self {
            Input::InPlace(_) => crate::json::fields_by_name(self, keys, out),
            Input::Tape(t) => t.fields_into(keys, out),
            Input::Doc(n) => document::fields_into(n, keys, out),
        }
    }
    fn kind(&self) -> Kind {
        match self {
            Input::InPlace(v) => v.kind(),
            Input::Tape(t) => t.kind(),
            Input::Doc(n) => n.kind(),
        }
    }
    fn is_object(&self) -> bool {
        match self {
            Input::InPlace(v) => v.is_object(),
            Input::Tape(t) => t.kind() == Kind::Object,
            Input::Doc(n) => n.kind() == Kind::Object,
        }
    }
    fn get(&self, key: &str) -> Option<Self> {
        match self {
            Input::InPlace(v) => v.get(key).map(Input::InPlace),
            Input::Tape(t) => t.get(key),
            Input::Doc(n) => n.get(key).map(Input::Doc),
        }
    }
    fn get_non_null(&self, key: &str) -> Option<Self> {
        match self {
            Input::InPlace(v) => v.get_non_null(key).map(Input::InPlace),
            Input::Tape(t) => t.get_non_null(key),
            Input::Doc(n) => n.get_non_null(key).map(Input::Doc),
        }
    }
    fn elements(&self) -> Option<Vec<Self>> {
        match self {
            Input::InPlace(v) => Some(v.elements()?.into_iter().map(Input::InPlace).collect()),
            Input::Tape(t) => t.elements(),
            Input::Doc(n) => document::elements(n),
        }
    }
    fn each_element(&self, mut f: impl FnMut(usize, Self) -> bool) -> bool {
        match self {
            Input::InPlace(v) => v.each_element(|i, e| f(i, Input::InPlace(e))),
            Input::Tape(t) => match t.foreign() {
                Some(v) => v.each_element(|i, e| f(i, Input::InPlace(e))),
                None => t.each_element(f),
            },
            Input::Doc(_) => self.elements().is_some_and(|elements| {
                let mut elements = elements.into_iter().enumerate();
                elements.all(|(i, e)| f(i, e));
                true
            }),
        }
    }
    fn as_str(&self) -> Option<Cow<'_, str>> {
        match self {
            Input::InPlace(v) => v.as_str(),
            Input::Tape(t) => t.as_str(),
            Input::Doc(n) => n.as_str(),
        }
    }
    fn match_str(&self, candidates: &'static [&'static str]) -> Option<usize> {
        match self {
            Input::InPlace(v) => v.match_str(candidates),
            Input::Tape(t) => t.match_str(candidates),
            Input::Doc(n) => n.match_str(candidates),
        }
    }
    fn as_bool(&self) -> Option<bool> {
        match self {
            Input::InPlace(v) => v.as_bool(),
            Input::Tape(t) => t.as_bool(),
            Input::Doc(n) => n.as_bool(),
        }
    }
    fn as_number(&self) -> Option<Number> {
        match self {
            Input::InPlace(v) => v.as_number(),
            Input::Tape(t) => t.as_number(),
            Input::Doc(n) => n.as_number(),
        }
    }
    fn entries(&self) -> Option<Vec<(String, Self)>> {
        match self {
            Input::InPlace(v) => Some(
                v.entries()?
                    .into_iter()
                    .map(|(k, v)| (k, Input::InPlace(v)))
                    .collect(),
            ),
            Input::Tape(t) => t.entries(),
            Input::Doc(n) => Some(
                n.entries()?
                    .into_iter()
                    .map(|(k, v)| (k, Input::Doc(v)))
                    .collect(),
            ),
        }
    }
    fn is_empty_str(&self) -> bool {
        match self {
            Input::InPlace(v) => v.is_empty_str(),
            Input::Tape(t) => t.is_empty_str(),
            Input::Doc(n) => n.is_empty_str(),
        }
    }
    fn empty_object() -> Self {
        Input::InPlace(InPlace::empty_object())
    }
    fn fixed_message(&self) -> Option<Message<Self>> {
        match self {
            Input::Tape(t) => t.fixed_message(),
            _ => None,
        }
    }
    fn shortest_digits(x: f64) -> (String, i64) {
        InPlace::shortest_digits(x)
    }
}
