//! A read-only view of JSON-like input, so the core never copies what it only moves.
//!
//! The core reads messages through [`Json`]. Natively the input is a `&serde_json::Value`; in the
//! browser it is a JavaScript value, which the binding layer (`wasm.rs`) wraps. Values the core only
//! passes along (tool arguments, texts, ids) are handed back as the same `Json` handle, so in
//! JavaScript they come back as the very same objects and strings, at any nesting depth and with
//! every UTF-16 code unit intact.

use std::borrow::Cow;

/// What kind of JSON value a handle holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
    /// Anything JSON has no word for (a JavaScript function, symbol or bigint).
    Other,
}

impl Kind {
    /// The word used for this kind in error messages.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Bool => "a boolean",
            Kind::Number => "a number",
            Kind::String => "a string",
            Kind::Array => "an array",
            Kind::Object => "an object",
            Kind::Other => "a non-JSON value",
        }
    }
}

/// A handle on one JSON-like value.
///
/// `get` returns `None` for an absent key (and, in JavaScript, for `undefined`), which the core
/// keeps apart from an explicit `null`: upstream, an absent key means the struct default while
/// `null` means nil.
pub trait Json: Clone {
    fn kind(&self) -> Kind;
    /// The value under `key` when `self` is an object and the key is present.
    fn get(&self, key: &str) -> Option<Self>;
    /// The elements when `self` is an array.
    fn elements(&self) -> Option<Vec<Self>>;
    /// The string when `self` is a string.
    fn as_str(&self) -> Option<Cow<'_, str>>;
    /// The boolean when `self` is a boolean.
    fn as_bool(&self) -> Option<bool>;
    /// True when `self` is the empty string (cheaper than `as_str` where the engine allows).
    fn is_empty_str(&self) -> bool {
        self.as_str().is_some_and(|s| s.is_empty())
    }
}

impl<'a> Json for &'a serde_json::Value {
    fn kind(&self) -> Kind {
        use serde_json::Value as V;
        match self {
            V::Null => Kind::Null,
            V::Bool(_) => Kind::Bool,
            V::Number(_) => Kind::Number,
            V::String(_) => Kind::String,
            V::Array(_) => Kind::Array,
            V::Object(_) => Kind::Object,
        }
    }
    fn get(&self, key: &str) -> Option<Self> {
        self.as_object()?.get(key)
    }
    fn elements(&self) -> Option<Vec<Self>> {
        Some(self.as_array()?.iter().collect())
    }
    fn as_str(&self) -> Option<Cow<'_, str>> {
        serde_json::Value::as_str(self).map(Cow::Borrowed)
    }
    fn as_bool(&self) -> Option<bool> {
        serde_json::Value::as_bool(self)
    }
}
