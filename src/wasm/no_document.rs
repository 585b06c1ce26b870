//! `document.rs` in a module without the `transcript` feature (the display module): there are
//! no documents, so [`DocValue`] has no values. `Input::Doc` is then a variant that cannot be
//! made, and the compiler leaves it, with every arm that reads it, out of the module; the
//! functions below are those arms' targets and are never called.

use super::input::Input;
use crate::json::{Json, Kind, Number};
use crate::prelude::*;
use alloc::borrow::Cow;
use core::marker::PhantomData;
use wasm_bindgen::JsValue;

/// No value at all.
#[derive(Clone, Copy, Debug)]
enum Never {}

/// A value of a parsed document, of which this module has none.
#[derive(Clone, Copy, Debug)]
pub struct DocValue<'a> {
    never: Never,
    document: PhantomData<&'a ()>,
}

impl Json for DocValue<'_> {
    fn kind(&self) -> Kind {
        match self.never {}
    }
    fn get(&self, _: &str) -> Option<Self> {
        match self.never {}
    }
    fn elements(&self) -> Option<Vec<Self>> {
        match self.never {}
    }
    fn as_str(&self) -> Option<Cow<'_, str>> {
        match self.never {}
    }
    fn as_bool(&self) -> Option<bool> {
        match self.never {}
    }
    fn as_number(&self) -> Option<Number> {
        match self.never {}
    }
    fn entries(&self) -> Option<Vec<(String, Self)>> {
        match self.never {}
    }
    fn empty_object() -> Self {
        // Never asked: `Input`'s empty object is a JavaScript one.
        core::arch::wasm32::unreachable()
    }
}

pub(super) fn fields_into<'a>(
    node: &DocValue<'a>,
    _: &'static [&'static str],
    _: &mut [Option<Input<'a>>],
) {
    match node.never {}
}

pub(super) fn elements<'a>(node: &DocValue<'a>) -> Option<Vec<Input<'a>>> {
    match node.never {}
}

pub(super) fn to_js(node: &DocValue<'_>) -> JsValue {
    match node.never {}
}
