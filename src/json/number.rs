//! JSON numbers: [`Number`], and the digits of floats and integers that Elixir's printing and the
//! JavaScript views read them by.

use crate::prelude::*;

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

#[cfg(test)]
mod tests {
    use super::*;

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
