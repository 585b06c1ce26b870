//! A read-only view of JSON-like input, so the core never copies what it only moves.
//!
//! The core reads messages through [`Json`]. Natively the input is a `&serde_json::Value`; in the
//! browser it is a JavaScript value, which the binding layer wraps. Values the core only
//! passes along (tool arguments, texts, ids) are handed back as the same `Json` handle, so in
//! JavaScript they come back as the very same objects and strings, at any nesting depth and with
//! every UTF-16 code unit intact.

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
    fn match_str(&self, candidates: &[&'static str]) -> Option<usize> {
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

/// The shortest round-trip digits of `x` (finite and positive) and the point position P, with
/// x = 0.digits × 10^P, from Rust's `{:e}` (`d.ddde±n`).
pub fn shortest_digits(x: f64) -> (String, i64) {
    digits_of_exponential(&format!("{x:e}"))
}

/// The digits and point position of a number in exponential notation, Rust's (`1.5e-7`) or
/// JavaScript's (`1.5e-7`, `1e+21`).
pub fn digits_of_exponential(text: &str) -> (String, i64) {
    // (A byte search: `split_once` with a char pattern brought core's memchr in.)
    let (mantissa, exponent) = match text.bytes().position(|b| b == b'e') {
        Some(at) => (
            text.get(..at).unwrap_or(text),
            text.get(at + 1..).unwrap_or("0"),
        ),
        None => (text, "0"),
    };
    let mut digits = String::with_capacity(mantissa.len());
    for b in mantissa.bytes().filter(u8::is_ascii_digit) {
        digits.push(char::from(b));
    }
    let exponent = parse_integer(exponent).and_then(|e| i64::try_from(e).ok());
    (digits, exponent.unwrap_or(0) + 1)
}

/// `Integer.parse/1` that must consume the whole string: an optional sign, then ASCII digits.
/// Integers past the 128-bit range (Elixir has no limit) are a cast error here. Also what a JSON
/// number or exponent is read with: one integer parser in the module (`str::parse::<i64>` brought
/// core's own, 0.6 KB, in).
pub fn parse_integer(s: &str) -> Option<i128> {
    let (negative, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, s.get(1..)?),
        Some(b'+') => (false, s.get(1..)?),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut value: i128 = 0;
    for b in digits.bytes() {
        let digit = i128::from(b - b'0');
        value = value.checked_mul(10)?;
        value = if negative {
            value.checked_sub(digit)?
        } else {
            value.checked_add(digit)?
        };
    }
    Some(value)
}

/// Whether `x` is a finite whole number (`x.fract() == 0.0`, which `core` alone does not have).
pub fn is_whole(x: f64) -> bool {
    // Every double of magnitude 2^53 or more is whole; below that the cast to i64 is exact.
    x.is_finite() && (x.abs() >= 9_007_199_254_740_992.0 || x as i64 as f64 == x)
}

/// A JSON number. JavaScript cannot tell `1` from `1.0`, so there a whole number within ±2^53 is
/// an [`Number::Int`]; natively, serde_json's integers are.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    Int(i128),
    Float(f64),
}

impl Number {
    /// A serde_json number: an integer when it is one, else a float.
    pub fn of_serde(n: &serde_json::Number) -> Option<Number> {
        if let Some(i) = n.as_i64() {
            Some(Number::Int(i.into()))
        } else if let Some(u) = n.as_u64() {
            Some(Number::Int(u.into()))
        } else {
            n.as_f64().map(Number::Float)
        }
    }

    /// The number for a JavaScript double.
    pub fn from_f64(x: f64) -> Number {
        const LIMIT: f64 = 9_007_199_254_740_992.0; // 2^53
        if is_whole(x) && x.abs() <= LIMIT && !(x == 0.0 && x.is_sign_negative()) {
            // Within ±2^53: exact as an `i64` (a direct cast to `i128` brought in a 0.2 KB helper).
            Number::Int((x as i64).into())
        } else {
            Number::Float(x)
        }
    }

    pub fn as_f64(self) -> f64 {
        match self {
            Number::Int(i) => i as f64,
            Number::Float(f) => f,
        }
    }
}

/// Sorts `items` stably by `less`: a plain bottom-up merge sort of positions, much smaller in the
/// wasm than the standard library's sorts (which are tuned for speed on large inputs; the lists
/// sorted here are object keys and error fields).
pub fn sort_by<T>(items: &mut Vec<T>, less: impl Fn(&T, &T) -> bool) {
    let n = items.len();
    let mut order: Vec<usize> = (0..n).collect();
    let mut merged: Vec<usize> = Vec::with_capacity(n);
    let mut width = 1;
    while width < n {
        merged.clear();
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut a, mut b) = (start, mid);
            while a < mid || b < end {
                let item = |k: usize| order.get(k).and_then(|&i| items.get(i));
                // The right run's head goes first only when strictly less: stable.
                let take_right = a >= mid
                    || (b < end && matches!((item(b), item(a)), (Some(y), Some(x)) if less(y, x)));
                let from = if take_right { &mut b } else { &mut a };
                merged.extend(order.get(*from).copied());
                *from += 1;
            }
            start = end;
        }
        core::mem::swap(&mut order, &mut merged);
        width *= 2;
    }
    let mut slots: Vec<Option<T>> = items.drain(..).map(Some).collect();
    items.extend(
        order
            .iter()
            .filter_map(|&i| slots.get_mut(i).and_then(Option::take)),
    );
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

    #[test]
    fn sort_by_is_a_stable_sort() {
        let mut items: Vec<(u32, usize)> = [5, 3, 9, 3, 1, 5, 0, 7, 3, 2, 8]
            .iter()
            .enumerate()
            .map(|(i, &k)| (k, i))
            .collect();
        let mut expected = items.clone();
        expected.sort_by_key(|(k, _)| *k);
        sort_by(&mut items, |a, b| a.0 < b.0);
        assert_eq!(items, expected);
        for n in 0..40 {
            let mut v: Vec<u32> = (0..n).map(|i| (i * 7919 + 13) % 23).collect();
            let mut w = v.clone();
            w.sort();
            sort_by(&mut v, |a, b| a < b);
            assert_eq!(v, w);
        }
    }

    #[test]
    fn shortest_digits_and_point() {
        assert_eq!(shortest_digits(123.456), ("123456".to_string(), 3));
        assert_eq!(shortest_digits(0.001), ("1".to_string(), -2));
        assert_eq!(shortest_digits(5e-324), ("5".to_string(), -323));
        assert_eq!(shortest_digits(1e16), ("1".to_string(), 17));
        // JavaScript's toExponential() spelling of the same numbers.
        assert_eq!(
            digits_of_exponential("1.23456e+2"),
            ("123456".to_string(), 3)
        );
        assert_eq!(digits_of_exponential("1e+16"), ("1".to_string(), 17));
        assert_eq!(digits_of_exponential("5e-324"), ("5".to_string(), -323));
    }

    #[test]
    fn javascript_numbers_are_integers_only_when_whole_and_safe() {
        assert_eq!(Number::from_f64(3.0), Number::Int(3));
        assert_eq!(Number::from_f64(1.5), Number::Float(1.5));
        assert_eq!(Number::from_f64(1e300), Number::Float(1e300));
        assert!(matches!(Number::from_f64(-0.0), Number::Float(_)));
    }
}
