//! A read-only view of JSON-like input, so the core never copies what it only moves.
//!
//! The core reads messages through [`Json`]. Natively the input is a `&serde_json::Value`; in the
//! browser it is a JavaScript value, which the binding layer wraps. Values the core only
//! passes along (tool arguments, texts, ids) are handed back as the same `Json` handle, so in
//! JavaScript they come back as the very same objects and strings, at any nesting depth and with
//! every UTF-16 code unit intact.

use super::number::{shortest_digits, Number};
use crate::prelude::*;
use alloc::borrow::Cow;

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
    /// True when `self` is an object: `kind() == Kind::Object`, asked first where an object is
    /// expected (the JavaScript view then spends one question fewer).
    fn is_object(&self) -> bool {
        self.kind() == Kind::Object
    }
    /// The value under `key` when `self` is an object and the key is present.
    fn get(&self, key: &str) -> Option<Self>;
    /// The value under `key` when `self` is an object and the key is present and not `null`.
    fn get_non_null(&self, key: &str) -> Option<Self> {
        self.get(key).filter(|v| v.kind() != Kind::Null)
    }
    /// The values under each of `keys` (`None` where absent) into `out`, as [`Json::get`] gives
    /// them; the tape of the JavaScript view finds them all in one pass over the object.
    fn fields_into(&self, keys: &'static [&'static str], out: &mut [Option<Self>]) {
        fields_by_name(self, keys, out)
    }
    /// [`Json::fields_into`] as an array (one body for every list: only this wrapper is per length).
    fn fields<const N: usize>(&self, keys: &'static [&'static str; N]) -> [Option<Self>; N] {
        let mut out = [const { None }; N];
        self.fields_into(keys, &mut out);
        out
    }
    /// The elements when `self` is an array.
    fn elements(&self) -> Option<Vec<Self>>;
    /// Calls `f` with each element and its index in order while it returns `true`; `false` when
    /// `self` is not an array. The tape of the JavaScript view walks its slots, without a list of
    /// the elements.
    fn each_element(&self, mut f: impl FnMut(usize, Self) -> bool) -> bool {
        let Some(elements) = self.elements() else {
            return false;
        };
        for (i, element) in elements.into_iter().enumerate() {
            if !f(i, element) {
                break;
            }
        }
        true
    }
    /// The string when `self` is a string.
    fn as_str(&self) -> Option<Cow<'_, str>>;
    /// The index of the first of `candidates` equal to `self`, when `self` is a string. Cheaper
    /// than `as_str` where the engine can compare without copying the string.
    fn match_str(&self, candidates: &'static [&'static str]) -> Option<usize> {
        let s = self.as_str()?;
        candidates.iter().position(|c| *c == s.as_ref())
    }
    /// The boolean when `self` is a boolean.
    fn as_bool(&self) -> Option<bool>;
    /// The number when `self` is a number.
    fn as_number(&self) -> Option<Number>;
    /// The own enumerable entries, in the object's key order, when `self` is an object.
    fn entries(&self) -> Option<Vec<(String, Self)>>;
    /// True when `self` is the empty string (cheaper than `as_str` where the engine allows).
    fn is_empty_str(&self) -> bool {
        self.as_str().is_some_and(|s| s.is_empty())
    }
    /// An empty object, for a struct default of `{}` that must appear in an output.
    fn empty_object() -> Self;
    /// `parse_message` of `self` by a shortcut of this handle type, where it has one for this
    /// message (the tape's: `src/wasm/tape/fixed.rs`); `None` reads the message key by key. A
    /// shortcut gives what `parse_message` would, or `None`.
    fn fixed_message(&self) -> Option<crate::message::Message<Self>> {
        None
    }
    /// The shortest decimal digits that read back as `x` (finite and positive) and the point
    /// position P, with x = 0.digits × 10^P: what Elixir prints floats from. The default is Rust's
    /// own shortest formatting; the JavaScript view asks the engine instead
    /// (`Number.prototype.toExponential`), so the wasm carries no float formatter.
    fn shortest_digits(x: f64) -> (String, i64)
    where
        Self: Sized,
    {
        shortest_digits(x)
    }
}

/// [`Json::fields_into`] by one [`Json::get`] per key.
pub fn fields_by_name<J: Json>(value: &J, keys: &[&str], out: &mut [Option<J>]) {
    for (slot, key) in out.iter_mut().zip(keys) {
        *slot = value.get(key);
    }
}

/// Deep equality of two JSON values: same kinds, equal scalars (numbers by value, so `1 == 1.0`),
/// equal arrays element by element, and objects with the same keys (in any order) and equal values.
/// Walked with an explicit stack, so values nested arbitrarily deep compare without exhausting the
/// call stack and without a depth limit.
pub fn deep_equal<J: Json>(a: &J, b: &J) -> bool {
    let mut pending = vec![(a.clone(), b.clone())];
    while let Some((x, y)) = pending.pop() {
        let same = match (x.kind(), y.kind()) {
            (Kind::Null, Kind::Null) => true,
            (Kind::Bool, Kind::Bool) => x.as_bool() == y.as_bool(),
            (Kind::Number, Kind::Number) => match (x.as_number(), y.as_number()) {
                (Some(p), Some(q)) => p.as_f64() == q.as_f64(),
                _ => false,
            },
            (Kind::String, Kind::String) => x.as_str() == y.as_str(),
            (Kind::Array, Kind::Array) => match (x.elements(), y.elements()) {
                (Some(xs), Some(ys)) if xs.len() == ys.len() => {
                    pending.extend(xs.into_iter().zip(ys));
                    true
                }
                _ => false,
            },
            (Kind::Object, Kind::Object) => match (x.entries(), y.entries()) {
                (Some(xs), Some(ys)) if xs.len() == ys.len() => {
                    xs.into_iter().all(|(key, value)| match y.get(&key) {
                        Some(other) => {
                            pending.push((value, other));
                            true
                        }
                        None => false,
                    })
                }
                _ => false,
            },
            _ => false,
        };
        if !same {
            return false;
        }
    }
    true
}

#[cfg(any(feature = "std", not(target_arch = "wasm32")))]
impl Json for &serde_json::Value {
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
    fn as_number(&self) -> Option<Number> {
        Number::of_serde(self.as_number_ref()?)
    }
    fn entries(&self) -> Option<Vec<(String, Self)>> {
        Some(
            self.as_object()?
                .iter()
                .map(|(k, v)| (k.clone(), v))
                .collect(),
        )
    }
    fn empty_object() -> Self {
        static EMPTY: std::sync::OnceLock<serde_json::Value> = std::sync::OnceLock::new();
        EMPTY.get_or_init(|| serde_json::Value::Object(serde_json::Map::new()))
    }
}

#[cfg(any(feature = "std", not(target_arch = "wasm32")))]
trait NumberRef {
    fn as_number_ref(&self) -> Option<&serde_json::Number>;
}

#[cfg(any(feature = "std", not(target_arch = "wasm32")))]
impl NumberRef for serde_json::Value {
    fn as_number_ref(&self) -> Option<&serde_json::Number> {
        match self {
            serde_json::Value::Number(n) => Some(n),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn deep_equal_ignores_key_order_but_not_values() {
        let a = json!({"a": [1, {"b": null}], "c": "x"});
        let b = json!({"c": "x", "a": [1, {"b": null}]});
        let c = json!({"c": "x", "a": [1, {"b": false}]});
        assert!(deep_equal(&&a, &&b));
        assert!(!deep_equal(&&a, &&c));
        assert!(!deep_equal(&&json!({"a": 1}), &&json!({"a": 1, "b": 2})));
        assert!(deep_equal(&&json!(1), &&json!(1.0)));
    }
}
