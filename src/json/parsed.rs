//! [`Parsed`], JSON parsed from text with its keys in order: tool arguments, and the bodies and
//! records of streams.

use super::{Json, Kind, Number};
use crate::prelude::*;
use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde::Serialize;

/// JSON parsed from text with its object keys in the text's order, as `JSON.parse` keeps them
/// (serde_json's own `Value` sorts them). A repeated key keeps its first place and its last value.
#[derive(Clone, Debug, PartialEq)]
pub enum Parsed {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(String),
    Array(Vec<Parsed>),
    Object(Vec<(String, Parsed)>),
}

impl Serialize for Parsed {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        match self {
            Parsed::Null => s.serialize_unit(),
            Parsed::Bool(b) => s.serialize_bool(*b),
            Parsed::Number(n) => n.serialize(s),
            Parsed::String(text) => s.serialize_str(text),
            Parsed::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Parsed::Object(entries) => {
                let mut map = s.serialize_map(Some(entries.len()))?;
                for (key, value) in entries {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
        }
    }
}

impl Parsed {
    /// The value under `key` when `self` is an object holding it.
    pub fn get(&self, key: &str) -> Option<&Parsed> {
        match self {
            Parsed::Object(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value under `key`, mutable, when `self` is an object holding it.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Parsed> {
        match self {
            Parsed::Object(entries) => entries.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Sets `key` of an object (in place when present, else at the end); anything else is left
    /// unchanged.
    pub fn set(&mut self, key: &str, value: Parsed) {
        if let Parsed::Object(entries) = self {
            match entries.iter_mut().find(|(k, _)| k == key) {
                Some(entry) => entry.1 = value,
                None => entries.push((key.to_string(), value)),
            }
        }
    }

    /// The string when `self` is one.
    pub fn as_string(&self) -> Option<&str> {
        match self {
            Parsed::String(s) => Some(s),
            _ => None,
        }
    }
}

/// Parsed values are read through the same view as the input, so the stream accumulator can run
/// the readers of this module on the bodies it builds.
impl Json for &Parsed {
    fn kind(&self) -> Kind {
        match self {
            Parsed::Null => Kind::Null,
            Parsed::Bool(_) => Kind::Bool,
            Parsed::Number(_) => Kind::Number,
            Parsed::String(_) => Kind::String,
            Parsed::Array(_) => Kind::Array,
            Parsed::Object(_) => Kind::Object,
        }
    }
    fn get(&self, key: &str) -> Option<Self> {
        Parsed::get(self, key)
    }
    fn elements(&self) -> Option<Vec<Self>> {
        match self {
            Parsed::Array(items) => Some(items.iter().collect()),
            _ => None,
        }
    }
    fn as_str(&self) -> Option<alloc::borrow::Cow<'_, str>> {
        self.as_string().map(alloc::borrow::Cow::Borrowed)
    }
    fn as_bool(&self) -> Option<bool> {
        match self {
            Parsed::Bool(b) => Some(*b),
            _ => None,
        }
    }
    fn as_number(&self) -> Option<Number> {
        let Parsed::Number(n) = self else { return None };
        Number::of_serde(n)
    }
    fn entries(&self) -> Option<Vec<(String, Self)>> {
        match self {
            Parsed::Object(entries) => Some(entries.iter().map(|(k, v)| (k.clone(), v)).collect()),
            _ => None,
        }
    }
    fn empty_object() -> Self {
        static EMPTY: Parsed = Parsed::Object(Vec::new());
        &EMPTY
    }
}

impl<'de> serde::Deserialize<'de> for Parsed {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> core::result::Result<Parsed, D::Error> {
        d.deserialize_any(ParsedVisitor)
    }
}

struct ParsedVisitor;

impl<'de> serde::de::Visitor<'de> for ParsedVisitor {
    type Value = Parsed;

    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_unit<E>(self) -> core::result::Result<Parsed, E> {
        Ok(Parsed::Null)
    }
    fn visit_bool<E>(self, b: bool) -> core::result::Result<Parsed, E> {
        Ok(Parsed::Bool(b))
    }
    fn visit_i64<E>(self, n: i64) -> core::result::Result<Parsed, E> {
        Ok(Parsed::Number(n.into()))
    }
    fn visit_u64<E>(self, n: u64) -> core::result::Result<Parsed, E> {
        Ok(Parsed::Number(n.into()))
    }
    fn visit_f64<E>(self, n: f64) -> core::result::Result<Parsed, E> {
        Ok(serde_json::Number::from_f64(n).map_or(Parsed::Null, Parsed::Number))
    }
    fn visit_str<E>(self, s: &str) -> core::result::Result<Parsed, E> {
        Ok(Parsed::String(s.to_string()))
    }
    fn visit_string<E>(self, s: String) -> core::result::Result<Parsed, E> {
        Ok(Parsed::String(s))
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(
        self,
        mut seq: A,
    ) -> core::result::Result<Parsed, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Parsed::Array(items))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(
        self,
        mut map: A,
    ) -> core::result::Result<Parsed, A::Error> {
        let mut entries: Vec<(String, Parsed)> = Vec::new();
        while let Some((key, value)) = map.next_entry::<String, Parsed>()? {
            match entries.iter_mut().find(|(k, _)| *k == key) {
                Some(entry) => entry.1 = value,
                None => entries.push((key, value)),
            }
        }
        Ok(Parsed::Object(entries))
    }
}
