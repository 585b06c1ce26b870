//! Search text for display-message records: the template's `to_text/1` (behavior.md §5.3), with
//! Elixir string interpolation ([`interpolate`]) and `Kernel.inspect/1` ([`inspect`]) rendered
//! exactly as upstream prints JSON values.
//!
//! `to_text` never fails. Where upstream would crash (a map passed to string interpolation, a
//! non-map image content, a non-list `todos`) the text is `""`. Two api.md deviations: maps of any
//! size are sorted by key, and nothing is cut short except nesting deeper than [`MAX_DEPTH`], which
//! renders as `...`. Values JSON cannot express (JavaScript functions, symbols, bigints, `NaN`,
//! `±Infinity`) read as `null`, as `JSON.stringify` writes them in arrays.

use crate::display::ContentType;
use crate::error::{text, Hex};
use crate::json::{Json, Kind, Number};
use crate::prelude::*;
use alloc::borrow::Cow;
use serde::{Serialize, Serializer};

/// How deep [`inspect`] and [`interpolate`] look into nested arrays and objects: the value itself
/// is level 1, and anything below level 128 renders as `...`.
pub const MAX_DEPTH: usize = 128;

/// Past this many bytes of output, or this many values rendered, the rest renders as `...`. JSON
/// text cannot get near either with a sane input; the guard is for JavaScript values that share
/// sub-objects (or contain themselves), whose rendering would otherwise grow exponentially, taking
/// minutes and then all memory.
const MAX_OUTPUT: usize = 1 << 27;
const MAX_VALUES: usize = 1 << 20;

/// The text being written and the values it may still render.
struct Out {
    text: String,
    /// Where this rendering began in `text` (the limits count from there).
    start: usize,
    values_left: usize,
}

impl Out {
    fn new() -> Self {
        Out::onto(String::new())
    }

    /// A rendering appended to `text`.
    fn onto(text: String) -> Self {
        Out {
            start: text.len(),
            text,
            values_left: MAX_VALUES,
        }
    }

    /// Takes one value from the budget; `false` (after writing `...`) when the value is past a
    /// limit and must not be rendered.
    fn enter(&mut self, depth: usize) -> bool {
        if depth > MAX_DEPTH || self.text.len() - self.start > MAX_OUTPUT || self.values_left == 0 {
            self.text.push_str("...");
            return false;
        }
        self.values_left -= 1;
        true
    }

    fn push(&mut self, c: char) {
        self.text.push(c);
    }

    fn push_str(&mut self, s: &str) {
        self.text.push_str(s);
    }
}

/// What `toText` returns: a value of the record handed back as is (the `"text"` of a text record,
/// an image's caption), or a string built here.
#[derive(Clone, Debug)]
pub enum Text<J> {
    Given(J),
    Built(String),
}

impl<J: Json> Text<J> {
    /// The text as a Rust string when it is one (a given non-string value gives `None`).
    pub fn as_string(&self) -> Option<String> {
        match self {
            Text::Given(j) => j.as_str().map(|s| s.into_owned()),
            Text::Built(s) => Some(s.clone()),
        }
    }
}

impl<J: Serialize> Serialize for Text<J> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Text::Given(j) => j.serialize(s),
            Text::Built(text) => s.serialize_str(text),
        }
    }
}

/// `to_text/1`: the search text of a display-message record. The first matching row of
/// behavior.md §5.3 wins; anything else gives `""`.
///
/// ```
/// use chat_display::text::to_text;
/// let record = serde_json::json!({
///     "content_type": "tool_call",
///     "content": {"call_id": "1", "name": "search", "arguments": {"q": "elixir", "limit": 5}}
/// });
/// assert_eq!(
///     to_text(&&record).as_string().unwrap(),
///     r#"Tool call: search(%{"limit" => 5, "q" => "elixir"})"#
/// );
/// ```
pub fn to_text<J: Json>(record: &J) -> Text<J> {
    render(record).unwrap_or_else(|| Text::Built(String::new()))
}

/// The matching row's text, or `None` for the catch-all and where upstream crashes.
fn render<J: Json>(record: &J) -> Option<Text<J>> {
    let content_type = record.get("content_type")?;
    let content_type = content_type.as_str()?;
    // `get` on a non-object is `None`: the map patterns of the template do not match.
    let content = record.get("content").filter(|c| c.kind() == Kind::Object);
    let key = |name: &str| content.as_ref().and_then(|c| c.get(name));
    match ContentType::parse(&content_type)? {
        ContentType::Text
        | ContentType::Thinking
        | ContentType::Notification
        | ContentType::Error => key("text").map(Text::Given),
        ContentType::Image => {
            // `Map.get(content, "caption") || Map.get(content, "alt_text") || ""`; a content that is
            // not a map raises BadMapError upstream.
            content.as_ref()?;
            let truthy =
                |v: &J| !matches!(v.kind(), Kind::Null | Kind::Other) && v.as_bool() != Some(false);
            key("caption")
                .filter(truthy)
                .or_else(|| key("alt_text").filter(truthy))
                .map(Text::Given)
        }
        ContentType::FileReference => {
            Some(Text::Built(text!("File: ", interpolate(&key("name")?)?)))
        }
        ContentType::StructuredData => {
            content.as_ref()?;
            let format = match key("format") {
                Some(format) => interpolate(&format)?,
                None => String::new(),
            };
            Some(Text::Built(text!("Data: ", format)))
        }
        ContentType::ToolCall => {
            let name = interpolate(&key("name")?)?;
            let arguments = inspect(&key("arguments")?);
            Some(Text::Built(text!("Tool call: ", name, "(", arguments, ")")))
        }
        ContentType::ToolResult => {
            let name = interpolate(&key("name")?)?;
            let body = interpolate(&key("content")?)?;
            Some(Text::Built(text!("Tool result from ", name, ": ", body)))
        }
        ContentType::TodoSnapshot => match key("summary").filter(|s| s.kind() == Kind::Object) {
            Some(summary) => {
                let count = |name: &str| match summary.get(name) {
                    Some(v) => interpolate(&v),
                    None => Some("0".to_string()),
                };
                Some(Text::Built(text!(
                    "Todo list: ",
                    count("pending")?,
                    " pending, ",
                    count("in_progress")?,
                    " in progress, ",
                    count("completed")?,
                    " completed"
                )))
            }
            None => {
                // `length/1` of anything but a list raises ArgumentError upstream.
                let todos = key("todos")?.elements()?;
                Some(Text::Built(text!("Todo list (", todos.len(), " items)")))
            }
        },
    }
}

/// Elixir string interpolation (`"#{value}"`, `String.Chars`) of a JSON value, or `None` where
/// upstream raises: a map, or a list that is not chardata.
///
/// A string stays as is, null gives `""`, booleans `"true"` / `"false"`, integers their digits,
/// floats [`float_to_string`], and a list is chardata: strings, code points and nested lists
/// joined (`["a", 98, ["c"]]` gives `"abc"`).
pub fn interpolate<J: Json>(value: &J) -> Option<String> {
    let mut out = Out::new();
    match value.kind() {
        Kind::Array => chardata(&mut out, value, 1).then_some(out.text),
        Kind::Object => None,
        _ => {
            scalar_to_string(&mut out, value);
            Some(out.text)
        }
    }
}

/// Writes a scalar as interpolation does.
fn scalar_to_string<J: Json>(out: &mut Out, value: &J) {
    match value.kind() {
        Kind::String => out.push_str(&value.as_str().unwrap_or_default()),
        Kind::Bool => out.push_str(if value.as_bool() == Some(true) {
            "true"
        } else {
            "false"
        }),
        Kind::Number => match finite(value) {
            Some(Number::Int(i)) => out.push_str(&text!(i)),
            Some(Number::Float(f)) => out.push_str(&format_float(f, J::shortest_digits)),
            None => {}
        },
        _ => {}
    }
}

/// `IO.chardata_to_string/1` of a list; `false` where it raises.
fn chardata<J: Json>(out: &mut Out, list: &J, depth: usize) -> bool {
    if !out.enter(depth) {
        return true;
    }
    for element in list.elements().unwrap_or_default() {
        if element.kind() != Kind::Array && !out.enter(depth + 1) {
            return true;
        }
        let ok = match element.kind() {
            Kind::String => {
                out.push_str(&element.as_str().unwrap_or_default());
                true
            }
            Kind::Number => match finite(&element) {
                Some(Number::Int(code)) => {
                    match u32::try_from(code).ok().and_then(char::from_u32) {
                        Some(c) => {
                            out.push(c);
                            true
                        }
                        None => false,
                    }
                }
                _ => false,
            },
            Kind::Array => chardata(out, &element, depth + 1),
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    true
}

/// The number of a JSON number, with `NaN` and `±Infinity` read as null (`None`).
fn finite<J: Json>(value: &J) -> Option<Number> {
    match value.as_number()? {
        Number::Float(f) if !f.is_finite() => None,
        n => Some(n),
    }
}

/// `Kernel.inspect/1` of a JSON value, with the defaults (no line breaks) and without truncation.
///
/// * objects: `%{"k" => v, ...}`, keys in UTF-8 byte order, `%{}` when empty;
/// * arrays: `[a, b]`; an array of integers that are all ASCII-printable (7..=13, 27, 32..=126) is a
///   charlist, `~c"hi"`;
/// * strings: double-quoted with Elixir's escapes (`\"`, `\\`, `\n`, `\#{`, ...), or as a binary
///   (`<<97, 0>>`) when they hold a non-printable character;
/// * null, true, false: `nil`, `true`, `false`; integers: their digits; floats: [`float_inspect`].
///
/// ```
/// use chat_display::text::inspect;
/// let value = serde_json::json!({"b": [104, 105], "a": "say \"#{hi}\"\n", "c": [1.5e-5, null]});
/// assert_eq!(
///     inspect(&&value),
///     r#"%{"a" => "say \"\#{hi}\"\n", "b" => ~c"hi", "c" => [1.5e-5, nil]}"#
/// );
/// ```
pub fn inspect<J: Json>(value: &J) -> String {
    let mut text = String::new();
    inspect_onto(&mut text, value);
    text
}

/// [`inspect`], appended to `text`.
pub fn inspect_onto<J: Json>(text: &mut String, value: &J) {
    let mut out = Out::onto(core::mem::take(text));
    inspect_into(&mut out, value, 1);
    *text = out.text;
}

fn inspect_into<J: Json>(out: &mut Out, value: &J, depth: usize) {
    if !out.enter(depth) {
        return;
    }
    match value.kind() {
        Kind::Null | Kind::Other => out.push_str("nil"),
        Kind::Bool => out.push_str(if value.as_bool() == Some(true) {
            "true"
        } else {
            "false"
        }),
        Kind::Number => match finite(value) {
            Some(Number::Int(i)) => out.push_str(&text!(i)),
            Some(Number::Float(f)) => out.push_str(&inspect_float(f, J::shortest_digits)),
            None => out.push_str("nil"),
        },
        Kind::String => inspect_string(out, &value.as_str().unwrap_or_default()),
        Kind::Array => {
            let elements = value.elements().unwrap_or_default();
            if let Some(text) = as_charlist(&elements) {
                out.push_str("~c\"");
                escape(out, &text);
                out.push('"');
                return;
            }
            out.push('[');
            for (i, element) in elements.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                inspect_into(out, element, depth + 1);
            }
            out.push(']');
        }
        Kind::Object => {
            let mut entries = value.entries().unwrap_or_default();
            crate::json::sort_by(&mut entries, |a, b| a.0.as_bytes() < b.0.as_bytes());
            out.push_str("%{");
            for (i, (key, element)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                inspect_string(out, key);
                out.push_str(" => ");
                inspect_into(out, element, depth + 1);
            }
            out.push('}');
        }
    }
}

/// The text of a non-empty list that `List.ascii_printable?/1` accepts.
pub(crate) fn as_charlist<J: Json>(elements: &[J]) -> Option<String> {
    if elements.is_empty() {
        return None;
    }
    elements
        .iter()
        .map(|e| match finite(e) {
            Some(Number::Int(c)) if matches!(c, 7..=13 | 27 | 32..=126) => {
                u8::try_from(c).ok().map(char::from)
            }
            _ => None,
        })
        .collect()
}

/// `Inspect.BitString`: a printable string quoted and escaped, any other as its bytes.
fn inspect_string(out: &mut Out, s: &str) {
    if printable_str(s) {
        out.push('"');
        escape(out, s);
        out.push('"');
    } else {
        out.push_str("<<");
        for (i, byte) in s.bytes().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(&text!(byte));
        }
        out.push_str(">>");
    }
}

/// `String.printable?/1`: whether inspect shows `s` as a quoted string rather than its bytes.
pub(crate) fn printable_str(s: &str) -> bool {
    // (ASCII text checked bytewise: most strings in tool arguments are.)
    if s.is_ascii() {
        s.bytes().all(|b| printable(char::from(b)))
    } else {
        s.chars().all(printable)
    }
}

/// `String.printable?/1` for one character.
fn printable(c: char) -> bool {
    matches!(
        c as u32,
        0x20..=0x7E | 0x07..=0x0D | 0x1B | 0x7F | 0xA0..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10FFFF
    )
}

/// [`escape_onto`] into a rendering.
fn escape(out: &mut Out, s: &str) {
    escape_onto(&mut out.text, s);
}

/// `Code.Identifier.escape/2` with `"` as the delimiter, appended to `out`: what inspect writes
/// for a string or a quoted atom. Runs of characters kept as they are are copied whole, and
/// printable ASCII is told apart bytewise (a tool call's arguments are mostly that, and
/// `Transcript.search` renders them for every record).
pub(crate) fn escape_onto(out: &mut String, s: &str) {
    let bytes = s.as_bytes();
    let mut kept_from = 0;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let ascii_kept = (0x20..0x7F).contains(&b)
            && b != b'"'
            && b != b'\\'
            && !(b == b'#' && bytes.get(i + 1) == Some(&b'{'));
        if ascii_kept {
            i += 1;
            continue;
        }
        let Some(c) = s.get(i..).and_then(|rest| rest.chars().next()) else {
            break;
        };
        let mut len = c.len_utf8();
        let escaped: Option<Cow<'static, str>> = match c {
            '"' => Some("\\\"".into()),
            '#' => {
                len = 2;
                Some("\\#{".into())
            }
            '\u{07}' => Some("\\a".into()),
            '\u{08}' => Some("\\b".into()),
            '\u{7F}' => Some("\\d".into()),
            '\u{1B}' => Some("\\e".into()),
            '\u{0C}' => Some("\\f".into()),
            '\n' => Some("\\n".into()),
            '\r' => Some("\\r".into()),
            '\t' => Some("\\t".into()),
            '\u{0B}' => Some("\\v".into()),
            '\\' => Some("\\\\".into()),
            '\0' => Some("\\0".into()),
            // Invisible and direction-changing characters are shown by their code.
            '\u{FEFF}'
            | '\u{2061}'..='\u{2064}'
            | '\u{061C}'
            | '\u{200E}'
            | '\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2066}'..='\u{2069}'
            | '\u{FFF9}'..='\u{FFFC}'
            | '\u{200C}'
            | '\u{200D}'
            | '\u{034F}'
            | '\u{00A0}'
            | '\u{200B}'
            | '\u{2060}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{2000}'..='\u{200A}'
            | '\u{205F}' => Some(text!("\\u", Hex(c as u32, 4)).into()),
            c if matches!(c as u32, 0x20..=0x7E | 0xA0..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10FFFF) => {
                None
            }
            c if (c as u32) < 0x100 => Some(text!("\\x", Hex(c as u32, 2)).into()),
            c if (c as u32) < 0x10000 => Some(text!("\\x{", Hex(c as u32, 4), "}").into()),
            c => Some(text!("\\x{", Hex(c as u32, 6), "}").into()),
        };
        if let Some(escaped) = escaped {
            out.push_str(s.get(kept_from..i).unwrap_or_default());
            out.push_str(&escaped);
            kept_from = i + len;
        }
        i += len;
    }
    out.push_str(s.get(kept_from..).unwrap_or_default());
}

/// `Inspect.Float`: an integral float with 1 <= |x| < 1e16 as its integer digits and `.0`
/// (`1000000000000000.0`), any other as [`float_to_string`].
pub fn float_inspect(x: f64) -> String {
    inspect_float(x, crate::json::shortest_digits)
}

/// [`float_inspect`] with the digits from `digits`.
pub(crate) fn inspect_float(x: f64, digits: fn(f64) -> (String, i64)) -> String {
    if crate::json::is_whole(x) && (1.0..1e16).contains(&x.abs()) {
        // Exact: an integral double below 1e16 fits an i64.
        text!(x as i64, ".0")
    } else {
        format_float(x, digits)
    }
}

/// Erlang's `io_lib_format:fwrite_g/1` on OTP 25, which `Float.to_string/1` and string
/// interpolation use: the shortest round-trip digits, in decimal or scientific form, whichever
/// the rule below finds shorter.
///
/// With the digits S (L of them) and the point position P (x = 0.S × 10^P), E = P − 1 and
/// cost = len(E as text) + 1 + (2 if L = 1 else 1):
/// * P = 0: `0.S`; 0 < P < L: the point after P digits;
/// * P < 0: `0.`, −P zeros, S when 2 − P <= cost, else scientific;
/// * P >= L: S, P − L zeros, `.0` when P − L + 2 <= cost and |x| < 2^53, else scientific
///   (`1000.0` prints `1.0e3`; `Inspect.Float` keeps such integers in decimal).
///
/// Scientific is the first digit, `.`, the other digits (or `0`), `e`, E.
pub fn float_to_string(x: f64) -> String {
    format_float(x, crate::json::shortest_digits)
}

/// The shortest round-trip digits and point position of `x` (positive and finite, as in
/// [`Json::shortest_digits`]) when `x` is the double nearest a decimal m / 10^k of at most 15
/// digits and 1 to 22 places, as most floats in messages are; `None` otherwise.
///
/// Found without a float formatter or a call to the engine: m and 10^k are exact doubles, so
/// `m / 10^k`, rounded once, is the double the decimal reads as. A decimal of at most 15 digits
/// is the only one of its length that reads as its double (DBL_DIG; such doubles are far from
/// subnormal), and the fewest places give the fewest digits: so these are the shortest digits.
fn short_decimal(x: f64) -> Option<(String, i64)> {
    let mut scale = 1.0_f64;
    for places in 1..=22 {
        scale *= 10.0;
        let scaled = x * scale;
        if scaled >= 1e15 {
            return None;
        }
        let m = (scaled + 0.5) as u64;
        if m > 0 && m as f64 / scale == x {
            let mut digits = text!(m);
            let point = i64::try_from(digits.len()).unwrap_or(0) - places;
            digits.truncate(digits.bytes().rposition(|b| b != b'0').map_or(0, |i| i + 1));
            return Some((digits, point));
        }
    }
    None
}

/// `n` zeros (none for a negative `n`): a float's padding. (`str::repeat` brought in a generic
/// slice repeat of its own.)
fn zeros(n: i64) -> String {
    let n = usize::try_from(n).unwrap_or(0);
    let mut out = String::with_capacity(n);
    for _ in 0..n {
        out.push('0');
    }
    out
}

/// [`float_to_string`] with the digits from `digits` (see [`Json::shortest_digits`]).
fn format_float(x: f64, shortest_digits: fn(f64) -> (String, i64)) -> String {
    if x == 0.0 {
        return if x.is_sign_negative() { "-0.0" } else { "0.0" }.to_string();
    }
    if !x.is_finite() {
        // Not reachable from JSON; no Elixir float has this value.
        return String::new();
    }
    let (digits, point) = short_decimal(x.abs()).unwrap_or_else(|| shortest_digits(x.abs()));
    let len = i64::try_from(digits.len()).unwrap_or(i64::MAX);
    let exponent = text!(point - 1);
    let cost = i64::try_from(exponent.len()).unwrap_or(i64::MAX) + 1 + if len == 1 { 2 } else { 1 };
    let (first, rest) = digits.split_at_checked(1).unwrap_or((&digits, ""));
    let scientific = || {
        text!(
            first,
            ".",
            if rest.is_empty() { "0" } else { rest },
            "e",
            exponent
        )
    };
    let body = if point == 0 {
        text!("0.", digits)
    } else if 0 < point && point < len {
        let at = usize::try_from(point).unwrap_or(0);
        let (int, frac) = digits.split_at_checked(at).unwrap_or((&digits, ""));
        text!(int, ".", frac)
    } else if point < 0 {
        if 2 - point <= cost {
            text!("0.", zeros(-point), digits)
        } else {
            scientific()
        }
    } else if point - len + 2 <= cost && x.abs() < 9_007_199_254_740_992.0 {
        text!(digits, zeros(point - len), ".0")
    } else {
        scientific()
    };
    if x < 0.0 {
        text!("-", body)
    } else {
        body
    }
}

#[cfg(test)]
mod tests {
    use super::{inspect, short_decimal};
    use crate::json::shortest_digits;

    #[test]
    fn escapes_between_runs_of_kept_characters() {
        // Kept runs of ASCII and of other scripts, each kind of escape between them, and at both
        // ends.
        let value = serde_json::json!([
            "\"a\u{200B}b\\c#{d}#e\u{7}fé→\u{10FFFF}\n",
            "#",
            "#{",
            "plain"
        ]);
        assert_eq!(
            inspect(&&value),
            "[\"\\\"a\\u200Bb\\\\c\\#{d}#e\\afé→\u{10FFFF}\\n\", \"#\", \"\\#{\", \"plain\"]"
        );
    }

    #[test]
    fn short_decimal_is_the_shortest_round_trip_or_nothing() {
        // Decimals of every length and scale, doubles from arbitrary bits, and neighbours of both.
        let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut found = 0;
        for i in 0..200_000 {
            let x = if i % 2 == 0 {
                let digits = next() % 18 + 1;
                let m = next() % 10_u64.pow(digits as u32);
                let places = (next() % 24) as i32;
                m as f64 / 10_f64.powi(places)
            } else {
                f64::from_bits(next() >> 2)
            };
            for x in [
                x,
                f64::from_bits(x.to_bits() + 1),
                f64::from_bits(x.to_bits().saturating_sub(1)),
            ] {
                if !(x.is_finite() && x > 0.0) {
                    continue;
                }
                if let Some(short) = short_decimal(x) {
                    found += 1;
                    assert_eq!(short, shortest_digits(x), "{x:e}");
                }
            }
        }
        assert!(found > 50_000, "{found}");
        for (x, digits, point) in [
            (0.1, "1", 0),
            (3.25, "325", 1),
            (1234.5678, "12345678", 4),
            (1.5e-10, "15", -9),
            (0.30000000000000004, "", 0),
        ] {
            let got = short_decimal(x);
            if digits.is_empty() {
                assert_eq!(got, None);
            } else {
                assert_eq!(got, Some((digits.into(), point)));
            }
        }
    }
}
