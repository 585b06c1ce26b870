//! Writing any value as compact JSON text, exactly as `JSON.stringify` writes it.

use super::{Json, Kind, Number, MAX_DEPTH};
use crate::error::text;
use crate::error::{Error, ErrorCode, Path, Result};
use crate::prelude::*;

/// The value as compact JSON text, exactly as `JSON.stringify` writes it (key order kept); deeper
/// than [`MAX_DEPTH`] is `too_deep` at `path`.
pub fn compact_json<J: Json>(value: &J, path: &Path<'_>) -> Result<String> {
    let mut out = String::new();
    if write_json(value, &mut out, 0) {
        Ok(out)
    } else {
        Err(too_deep(path))
    }
}

pub fn too_deep(path: &Path<'_>) -> Error {
    Error::new(
        ErrorCode::TooDeep,
        path,
        text!(
            "The value at ",
            path,
            " is nested deeper than ",
            MAX_DEPTH,
            " levels."
        ),
    )
}

/// Writes `value`; false when it is nested too deep.
fn write_json<J: Json>(value: &J, out: &mut String, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    match value.kind() {
        Kind::Null | Kind::Other => out.push_str("null"),
        Kind::Bool => out.push_str(if value.as_bool() == Some(true) {
            "true"
        } else {
            "false"
        }),
        Kind::Number => match value.as_number() {
            Some(n) => out.push_str(&js_number(n, J::shortest_digits)),
            None => out.push_str("null"),
        },
        Kind::String => write_string(&value.as_str().unwrap_or_default(), out),
        Kind::Array => {
            out.push('[');
            for (i, element) in value.elements().unwrap_or_default().iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if !write_json(element, out, depth + 1) {
                    return false;
                }
            }
            out.push(']');
        }
        Kind::Object => {
            out.push('{');
            let mut first = true;
            for (key, element) in value.entries().unwrap_or_default() {
                if element.kind() == Kind::Other {
                    continue; // JSON.stringify leaves out functions and symbols
                }
                if !first {
                    out.push(',');
                }
                first = false;
                write_string(&key, out);
                out.push(':');
                if !write_json(&element, out, depth + 1) {
                    return false;
                }
            }
            out.push('}');
        }
    }
    true
}

fn write_string(s: &str, out: &mut String) {
    // serde_json escapes exactly what JSON.stringify escapes: `"`, `\` and control characters.
    match serde_json::to_string(s) {
        Ok(text) => out.push_str(&text),
        Err(_) => out.push_str("\"\""),
    }
}

/// A number as JavaScript writes it (`Number.prototype.toString`), from the shortest round-trip
/// digits that `shortest_digits` gives: the engine's in the module, so that no float formatter is
/// compiled into it.
pub fn js_number(n: Number, shortest_digits: fn(f64) -> (String, i64)) -> String {
    let x = match n {
        Number::Int(i) => return text!(i),
        Number::Float(x) => x,
    };
    if !x.is_finite() {
        return "null".into();
    }
    if x == 0.0 {
        return "0".into();
    }
    // x = 0.digits × 10^point; ECMA-262's Number::toString with k digits and n = point.
    let (digits, n) = shortest_digits(x.abs());
    let k = digits.len() as i64;
    let sign = if x < 0.0 { "-" } else { "" };
    let zeros = |count: i64| "0".repeat(usize::try_from(count).unwrap_or(0));
    let body = if k <= n && n <= 21 {
        text!(digits, zeros(n - k))
    } else if 0 < n && n <= 21 {
        let (int, frac) = digits.split_at_checked(n as usize).unwrap_or((&digits, ""));
        text!(int, ".", frac)
    } else if -6 < n && n <= 0 {
        text!("0.", zeros(-n), digits)
    } else {
        let e = n - 1;
        let (first, rest) = digits.split_at_checked(1).unwrap_or((&digits, ""));
        let e_sign = if e < 0 { "e-" } else { "e+" };
        if rest.is_empty() {
            text!(first, e_sign, e.unsigned_abs())
        } else {
            text!(first, ".", rest, e_sign, e.unsigned_abs())
        }
    };
    text!(sign, body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_are_written_as_javascript_writes_them() {
        let cases = [
            (Number::Int(42), "42"),
            (Number::Float(0.1), "0.1"),
            (Number::Float(1.5e-7), "1.5e-7"),
            (Number::Float(1e21), "1e+21"),
            (Number::Float(123.456), "123.456"),
            (Number::Float(-0.0), "0"),
            (Number::Float(2.5e300), "2.5e+300"),
            (Number::Float(1e20), "100000000000000000000"),
            (Number::Float(1e-6), "0.000001"),
            (Number::Float(1e-7), "1e-7"),
            (Number::Float(-1.5), "-1.5"),
            (Number::Float(100.0), "100"),
            (Number::Float(0.5), "0.5"),
            (
                Number::Float(123456789012345680000.0),
                "123456789012345680000",
            ),
            (Number::Float(5e-324), "5e-324"),
            (
                Number::Float(-1.7976931348623157e308),
                "-1.7976931348623157e+308",
            ),
            (Number::Float(f64::NAN), "null"),
        ];
        for (n, text) in cases {
            assert_eq!(js_number(n, crate::json::shortest_digits), text);
        }
    }

    #[test]
    fn compact_json_keeps_key_order_and_stops_at_the_depth_limit() {
        let value = json!({"b": [1, 2.5, "x\"y"], "a": null});
        assert_eq!(
            compact_json(&&value, &Path::ROOT).unwrap(),
            r#"{"b":[1,2.5,"x\"y"],"a":null}"#
        );
        let mut deep = json!(1);
        for _ in 0..200 {
            deep = json!([deep]);
        }
        let error = compact_json(&&deep, &Path::ROOT).unwrap_err();
        assert_eq!(error.code, ErrorCode::TooDeep);
    }
}
