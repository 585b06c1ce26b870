//! The general output path: any serde value (a core result, a Changeset, a stream's records) to
//! plain JavaScript objects, arrays and primitives through [`JsSerializer`] ([`serde_to_js`],
//! and [`serde_result`] for a core result or its error). Maps and structs become plain objects
//! (never `Map`), nil `null` (never `undefined`), and an [`Input`] goes back as the JavaScript
//! value it is. Every function's result leaves this way, but the display functions' items and
//! records (made by the tape's glue, [`super::tape`]), Transcript's error records and a stream's
//! patches (objects made key by key, on [`Fresh`]).

use super::error::chat_display_error;
use super::input::Input;
use super::setup::Local;
use crate::error::{text, Error, ErrorCode, Path};
use crate::prelude::*;
use core::cell::RefCell;
use js_sys::{Array, Object, Reflect};
use serde::{Serialize, Serializer};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    /// A plain object this module has just made.
    #[wasm_bindgen(extends = Object)]
    pub(super) type Fresh;

    /// `{}`.
    #[wasm_bindgen(constructor, js_class = "Object")]
    pub(super) fn new() -> Fresh;

    /// `target[key] = value`, for filling a fresh plain object, which cannot throw (the keys are
    /// this module's own and never `__proto__`).
    #[wasm_bindgen(method, structural, indexing_setter)]
    pub(super) fn put(this: &Fresh, key: &JsValue, value: &JsValue);

    /// `target[key]`, for reading back this module's own plain objects (no getters to throw).
    #[wasm_bindgen(method, structural, indexing_getter)]
    pub(super) fn take(this: &Fresh, key: &JsValue) -> JsValue;
}

/// A core result as a function's return: the value through [`serde_to_js`], the error as a
/// ChatDisplayError.
pub(super) fn serde_result<T: Serialize>(
    result: crate::error::Result<T>,
) -> Result<JsValue, JsValue> {
    match result {
        Ok(value) => serde_to_js(&value),
        Err(error) => Err(chat_display_error(&error)),
    }
}

/// `value` as JavaScript, through [`JsSerializer`]: plain objects, `null` for nil.
pub(super) fn serde_to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value.serialize(JsSerializer).map_err(|e| {
        chat_display_error(&Error::new(
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

/// The JavaScript value an [`Input`] hands to [`JsSerializer`] while it serializes itself.
static PRESERVED: Local<RefCell<Option<JsValue>>> = Local(RefCell::new(None));

/// The newtype name by which an [`Input`] tells [`JsSerializer`] to take its value as it is.
const PRESERVE: &str = "chat_display::wasm::Input";

/// A value read in place or kept by the tape's glue goes back to JavaScript as itself; a value of
/// a parsed document as what `document::to_js` makes of it. [`JsSerializer`] takes either
/// unchanged.
impl Serialize for Input<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let value = self.to_js().into_owned();
        PRESERVED.with(|slot| slot.replace(Some(value)));
        s.serialize_newtype_struct(PRESERVE, &())
    }
}

/// Turns serde values into JavaScript values: maps and structs into plain objects (never `Map`),
/// sequences into arrays, nil into `null`, and an [`Input`] into itself. Object keys that come from
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
        // hands document values to JavaScript through `document::to_js`.)
        SerError("a value could not be written".into())
    }
}

/// Sets `object[key] = value` as an own data property, whatever the key.
pub(super) fn define(object: &Object, key: &JsValue, value: &JsValue) {
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
