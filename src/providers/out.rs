//! [`Out`], the JSON tree the conversions write: values given in the input are moved as their
//! handles (in JavaScript, the same objects), and only what a conversion makes is owned.

use crate::json::Json;
use crate::prelude::*;
use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde::Serialize;

use super::Parsed;

/// A JSON value in an output: a given value moved as its handle, or one the conversion made.
#[derive(Clone, Debug)]
pub enum Out<J> {
    /// A value from the input, returned as the same value (in JavaScript, the same object).
    Given(J),
    /// A string the conversion made.
    Text(String),
    /// A fixed string.
    Str(&'static str),
    Bool(bool),
    Null,
    /// A value parsed from a JSON string (tool arguments), keys in the text's order.
    Json(Parsed),
    List(Vec<Out<J>>),
    /// An object, with its keys in this order.
    Map(Vec<(&'static str, Out<J>)>),
}

impl<J> Out<J> {
    /// The empty object `{}`.
    pub fn empty_map() -> Out<J> {
        Out::Map(Vec::new())
    }
}

impl<J: Json> Out<J> {
    /// The string, when the value is one.
    pub fn text(&self) -> Option<String> {
        match self {
            Out::Given(j) => j.as_str().map(|s| s.into_owned()),
            Out::Text(t) => Some(t.clone()),
            Out::Str(t) => Some(t.to_string()),
            _ => None,
        }
    }
}

impl<J: Serialize> Serialize for Out<J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        match self {
            Out::Given(j) => j.serialize(s),
            Out::Text(t) => s.serialize_str(t),
            Out::Str(t) => s.serialize_str(t),
            Out::Bool(b) => s.serialize_bool(*b),
            Out::Null => s.serialize_unit(),
            Out::Json(v) => v.serialize(s),
            Out::List(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Out::Map(entries) => serialize_entries(s, entries),
        }
    }
}

fn serialize_entries<S: Serializer, J: Serialize>(
    s: S,
    entries: &[(&'static str, Out<J>)],
) -> core::result::Result<S::Ok, S::Error> {
    let mut map = s.serialize_map(Some(entries.len()))?;
    for (key, value) in entries {
        map.serialize_entry(key, value)?;
    }
    map.end()
}

/// Keyed values in order (`options`, `metadata`).
pub type Entries<J> = Vec<(&'static str, Out<J>)>;

/// Serializes entries as an object, without copying them.
pub(super) struct EntriesRef<'a, J>(pub(super) &'a [(&'static str, Out<J>)]);

impl<J: Serialize> Serialize for EntriesRef<'_, J> {
    fn serialize<S: Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        serialize_entries(s, self.0)
    }
}
