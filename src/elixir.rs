//! How Elixir prints JSON values: `Kernel.inspect/2` ([`inspect`]), with options for its two uses
//! here, string interpolation ([`interpolate`]) and floats ([`float_inspect`],
//! [`float_to_string`]), exactly as upstream prints the values its JSON decodes to.
//!
//! Two uses, two sets of [`Options`]: toText's search text ([`ToText`]: nothing cut short, an
//! docs/DECISIONS.md "toText": a deviation from upstream's defaults) and the values named in error
//! messages ([`ErrorMessage`]: Elixir's default limits, as upstream's messages show them). Both
//! walk within one work [`BUDGET`] and a [`MAX_DEPTH`].

use crate::error::{text, Hex};
use crate::json::{Json, Kind, Number};
use crate::prelude::*;
use alloc::borrow::Cow;

/// How deep [`inspect`] and [`interpolate`] look into nested arrays and objects: the crate's one
/// depth limit. The value itself is level 1, and anything below level 128 renders as `...`.
pub use crate::json::MAX_DEPTH;

/// The work one rendering ([`inspect`], [`interpolate`]) may do, whatever its [`Options`].
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Values rendered: scalars, lists and maps (a map's keys and a string's characters are part
    /// of their value).
    pub values: usize,
    /// Bytes written: a value starts only while fewer have been, and one started is written
    /// whole, so a text passes this by one value's rendering at most.
    pub bytes: usize,
}

/// The work budget of every rendering, toText's and error messages' alike: 16,384 values and
/// 16 MiB.
///
/// Once either is spent, the list or map being written ends with `...` in place of its remaining
/// items, and so does each one it is inside: the text, or the error message, stops growing.
///
/// A tree of JSON values stays inside it: 16,384 values is more than a model writes in one tool
/// call's arguments (each value is a token or more), and 16 MiB of text more than a record's
/// content holds (a long string is one value, written whole). The guard is for JavaScript values
/// that share objects, which the JavaScript view reads as it goes: `v = {a: v, b: v}` twenty
/// times over is 21 objects in memory but 2^21 values written out, which took seconds and tens of
/// MB (`toText` 2.5 s and 10 MB; an `expand` error message 10 s and 20 MB; at thirty levels
/// neither ended). Within the budget both end in about 20 ms in Node, with 180 KB of text.
pub const BUDGET: Budget = Budget {
    values: 1 << 14,
    bytes: 1 << 24,
};

/// The options of `Inspect.Opts` in which the two uses differ: [`ToText`] and [`ErrorMessage`].
/// A type rather than a value, so that each use compiles to a walker of its own with its options
/// as constants, and a module with toText alone (the display module) carries no limit code.
pub trait Options: Copy {
    /// `limit`: the items shown of a list, a map or a binary before `...`, passed down one less
    /// per item shown, so that nothing deeper than this many levels is shown either (`None` is
    /// `:infinity`).
    const LIMIT: Option<usize>;
    /// `printable_limit`: the characters shown of a string before `" <> ..."` (`None` is
    /// `:infinity`).
    const PRINTABLE_LIMIT: Option<usize>;
    /// How `NaN`, `±Infinity` and values JSON has no word for (JavaScript functions, symbols,
    /// bigints) print: as `nil`, as `JSON.stringify` writes them in arrays (`false`), or by their
    /// JavaScript names, `NaN`, `Infinity` and `#JavaScript<non-JSON value>` (`true`).
    const NAME_NON_JSON: bool;
}

/// toText's options (a tool call's arguments): no limits, and what JSON cannot express is `nil`.
#[derive(Clone, Copy, Debug)]
pub struct ToText;

impl Options for ToText {
    const LIMIT: Option<usize> = None;
    const PRINTABLE_LIMIT: Option<usize> = None;
    const NAME_NON_JSON: bool = false;
}

/// Error messages' options: Elixir's defaults (`limit: 50`, `printable_limit: 4096`), as
/// upstream's messages show what they received, and what JSON cannot express by its JavaScript
/// name.
#[derive(Clone, Copy, Debug)]
pub struct ErrorMessage;

impl Options for ErrorMessage {
    const LIMIT: Option<usize> = Some(50);
    const PRINTABLE_LIMIT: Option<usize> = Some(4096);
    const NAME_NON_JSON: bool = true;
}

/// The text being written and the work left of its [`BUDGET`].
struct Out {
    text: String,
    /// Where this rendering began in `text` (the budget counts from there).
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
            values_left: BUDGET.values,
        }
    }

    /// True once the budget is spent.
    fn spent(&self) -> bool {
        self.values_left == 0 || self.text.len() - self.start > BUDGET.bytes
    }

    /// Takes one value from the budget; `false` (after writing `...`) when the value is past the
    /// depth limit or the budget and must not be rendered.
    fn enter(&mut self, depth: usize) -> bool {
        if depth > MAX_DEPTH || self.spent() {
            self.text.push_str("...");
            return false;
        }
        self.values_left -= 1;
        true
    }

    /// Elixir's `container_doc`, before item `i` of a list, a map or a binary: the `", "` that
    /// separates it from the one before, then `false` after `...` when the item limit (`left`,
    /// passed down to the item) is zero or, for a `budgeted` container, the budget is spent.
    fn item<O: Options>(&mut self, i: usize, left: &mut Option<usize>, budgeted: bool) -> bool {
        if i > 0 {
            self.text.push_str(", ");
        }
        // (`O::LIMIT` first: without a limit, as for toText, the limit's code goes.)
        let limited = O::LIMIT.is_some() && *left == Some(0);
        if limited || (budgeted && self.spent()) {
            self.text.push_str("...");
            return false;
        }
        if O::LIMIT.is_some() {
            *left = left.map(|l| l - 1);
        }
        true
    }

    fn push(&mut self, c: char) {
        self.text.push(c);
    }

    fn push_str(&mut self, s: &str) {
        self.text.push_str(s);
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

/// `Kernel.inspect/2` of a JSON value, without line breaks:
///
/// * objects: `%{"k" => v, ...}`, keys in UTF-8 byte order, `%{}` when empty;
/// * arrays: `[a, b]`; an array of integers that are all ASCII-printable (7..=13, 27, 32..=126) is a
///   charlist, `~c"hi"`;
/// * strings: double-quoted with Elixir's escapes (`\"`, `\\`, `\n`, `\#{`, ...), or as a binary
///   (`<<97, 0>>`) when they hold a non-printable character;
/// * null, true, false: `nil`, `true`, `false`; integers: their digits; floats: [`float_inspect`].
///
/// With `options`' limits, and within the [`BUDGET`] and [`MAX_DEPTH`], past which `...` stands
/// for the rest.
///
/// ```
/// use chat_display::elixir::{inspect, ErrorMessage, ToText};
/// let value = serde_json::json!({"b": [104, 105], "a": "say \"#{hi}\"\n", "c": [1.5e-5, null]});
/// assert_eq!(
///     inspect(&&value, ToText),
///     r#"%{"a" => "say \"\#{hi}\"\n", "b" => ~c"hi", "c" => [1.5e-5, nil]}"#
/// );
/// let long: Vec<u32> = (1000..1060).collect();
/// assert!(inspect(&&serde_json::json!(long), ErrorMessage).ends_with(", 1049, ...]"));
/// ```
pub fn inspect<J: Json, O: Options>(value: &J, options: O) -> String {
    let mut text = String::new();
    inspect_onto(&mut text, value, options);
    text
}

/// [`inspect`], appended to `text` (the budget counts what this appends).
pub fn inspect_onto<J: Json, O: Options>(text: &mut String, value: &J, _options: O) {
    let mut out = Out::onto(core::mem::take(text));
    inspect_into::<J, O>(&mut out, value, O::LIMIT, 1);
    *text = out.text;
}

/// Writes `value` at nesting level `depth`, with `limit` items left to show (Elixir passes the
/// limit left down to each item).
fn inspect_into<J: Json, O: Options>(out: &mut Out, value: &J, limit: Option<usize>, depth: usize) {
    if !out.enter(depth) {
        return;
    }
    match value.kind() {
        Kind::Null => out.push_str("nil"),
        Kind::Other if O::NAME_NON_JSON => out.push_str("#JavaScript<non-JSON value>"),
        Kind::Other => out.push_str("nil"),
        Kind::Bool => out.push_str(if value.as_bool() == Some(true) {
            "true"
        } else {
            "false"
        }),
        Kind::Number => match value.as_number() {
            Some(Number::Int(i)) => out.push_str(&text!(i)),
            Some(Number::Float(f)) if f.is_finite() => {
                out.push_str(&inspect_float(f, J::shortest_digits))
            }
            Some(Number::Float(f)) if O::NAME_NON_JSON && f.is_nan() => out.push_str("NaN"),
            Some(Number::Float(f)) if O::NAME_NON_JSON => {
                out.push_str(if f < 0.0 { "-Infinity" } else { "Infinity" })
            }
            _ => out.push_str("nil"),
        },
        Kind::String => inspect_string::<O>(out, &value.as_str().unwrap_or_default(), limit),
        Kind::Array => {
            let elements = value.elements().unwrap_or_default();
            if let Some(text) = as_charlist(&elements) {
                out.push_str("~c\"");
                escape_onto(&mut out.text, &text);
                out.push('"');
                return;
            }
            out.push('[');
            let mut left = limit;
            for (i, element) in elements.iter().enumerate() {
                if !out.item::<O>(i, &mut left, true) {
                    break;
                }
                inspect_into::<J, O>(out, element, left, depth + 1);
            }
            out.push(']');
        }
        Kind::Object => {
            let mut entries = value.entries().unwrap_or_default();
            crate::sort::sort_by(&mut entries, |a, b| a.0.as_bytes() < b.0.as_bytes());
            out.push_str("%{");
            let mut left = limit;
            for (i, (key, element)) in entries.iter().enumerate() {
                if !out.item::<O>(i, &mut left, true) {
                    break;
                }
                inspect_string::<O>(out, key, left);
                out.push_str(" => ");
                inspect_into::<J, O>(out, element, left, depth + 1);
            }
            out.push('}');
        }
    }
}

/// `Inspect.BitString`: a printable string quoted and escaped (cut after `printable_limit`
/// characters), any other as its bytes (under the item limit).
fn inspect_string<O: Options>(out: &mut Out, s: &str, limit: Option<usize>) {
    if !printable_str(s) {
        out.push_str("<<");
        // One value: its bytes are not counted against the budget.
        let mut left = limit;
        for (i, byte) in s.bytes().enumerate() {
            if !out.item::<O>(i, &mut left, false) {
                break;
            }
            out.push_str(&text!(byte));
        }
        out.push_str(">>");
        return;
    }
    out.push('"');
    let cut = O::PRINTABLE_LIMIT
        .and_then(|limit| s.char_indices().nth(limit))
        .map(|(at, _)| at);
    let shown = cut.and_then(|at| s.get(..at)).unwrap_or(s);
    escape_onto(&mut out.text, shown);
    out.push('"');
    if cut.is_some() {
        out.push_str(" <> ...");
    }
}

/// An atom as `inspect` shows it: `:name` when the name needs no quotes (`:system`, `:ok?`), else
/// quoted and escaped (`:"Bad role"`).
pub fn inspect_atom(name: &str) -> String {
    let mut chars = name.chars();
    let starts_well = chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c == '_');
    // One trailing `?` or `!` at most (a second is not in the body's characters below).
    let body = match name.as_bytes().last() {
        Some(b'?' | b'!') => name.get(..name.len() - 1).unwrap_or(name),
        _ => name,
    };
    let plain = starts_well
        && body
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '@');
    if plain {
        text!(":", name)
    } else {
        let mut out = String::from(":\"");
        escape_onto(&mut out, name);
        out.push('"');
        out
    }
}

/// The text of a non-empty list that `List.ascii_printable?/1` accepts.
fn as_charlist<J: Json>(elements: &[J]) -> Option<String> {
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
fn inspect_float(x: f64, digits: fn(f64) -> (String, i64)) -> String {
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
pub(crate) mod tests {
    use super::{inspect, short_decimal, ErrorMessage, Options, ToText, BUDGET};
    use crate::json::{shortest_digits, Json, Kind, Number};
    use crate::prelude::*;
    use alloc::borrow::Cow;
    use core::cell::Cell;

    std::thread_local! {
        /// The objects and arrays read so far (their `entries` or `elements`).
        static READS: Cell<usize> = const { Cell::new(0) };
    }

    /// JSON made on demand, as the JavaScript view reads it: [`Lazy::Shared`] is what
    /// `let v = {}; for (let i = 0; i < n; i++) v = {a: v, b: v};` makes, `n + 1` objects in
    /// memory and 2^(n+1) - 1 values written out.
    #[derive(Clone, Debug)]
    pub(crate) enum Lazy {
        Shared(usize),
        Map(Vec<(&'static str, Lazy)>),
        List(Vec<Lazy>),
        Str(&'static str),
    }

    impl Json for Lazy {
        fn kind(&self) -> Kind {
            match self {
                Lazy::Shared(_) | Lazy::Map(_) => Kind::Object,
                Lazy::List(_) => Kind::Array,
                Lazy::Str(_) => Kind::String,
            }
        }
        fn get(&self, key: &str) -> Option<Self> {
            self.entries()?
                .into_iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v)
        }
        fn elements(&self) -> Option<Vec<Self>> {
            let Lazy::List(list) = self else { return None };
            READS.with(|r| r.set(r.get() + 1));
            Some(list.clone())
        }
        fn as_str(&self) -> Option<Cow<'_, str>> {
            match self {
                Lazy::Str(s) => Some(Cow::Borrowed(s)),
                _ => None,
            }
        }
        fn as_bool(&self) -> Option<bool> {
            None
        }
        fn as_number(&self) -> Option<Number> {
            None
        }
        fn entries(&self) -> Option<Vec<(String, Self)>> {
            let entries = match self {
                Lazy::Shared(0) => Vec::new(),
                Lazy::Shared(n) => vec![("a", Lazy::Shared(n - 1)), ("b", Lazy::Shared(n - 1))],
                Lazy::Map(entries) => entries.clone(),
                _ => return None,
            };
            READS.with(|r| r.set(r.get() + 1));
            Some(
                entries
                    .into_iter()
                    .map(|(k, v)| (k.to_string(), v))
                    .collect(),
            )
        }
        fn empty_object() -> Self {
            Lazy::Map(Vec::new())
        }
    }

    /// Runs `render`, returning its text and the objects and arrays it read.
    pub(crate) fn reading(render: impl FnOnce() -> String) -> (String, usize) {
        READS.with(|r| r.set(0));
        let text = render();
        (text, READS.with(Cell::get))
    }

    fn within_the_budget<O: Options>(levels: usize, options: O) {
        let (text, reads) = reading(|| inspect(&Lazy::Shared(levels), options));
        assert!(reads <= BUDGET.values, "{levels} levels: {reads} reads");
        assert!(
            text.len() < BUDGET.bytes,
            "{levels} levels: {} bytes",
            text.len()
        );
        assert!(
            text.starts_with("%{\"a\" => %{\"a\" => %{"),
            "{}",
            &text[..40]
        );
        assert!(text.contains(", ...}"), "{levels} levels: cut short");
        // Every map that was opened is closed.
        assert_eq!(text.matches("%{").count(), text.matches('}').count());
    }

    #[test]
    fn objects_shared_at_every_level_render_within_the_budget() {
        // Twenty levels wrote 2^21 values (20 MB) and thirty would not end; both stop at the budget
        // now, with either options (toText and expand, which use them, are tested beside them).
        for levels in [20, 30] {
            within_the_budget(levels, ToText);
            within_the_budget(levels, ErrorMessage);
        }
    }

    #[test]
    fn a_tree_within_the_budget_renders_whole() {
        // The list itself is one value: its `BUDGET.values - 1` items fill the budget exactly.
        let fits: Vec<u32> = (0..BUDGET.values as u32 - 1).collect();
        let text = inspect(&&serde_json::json!(fits), ToText);
        assert!(!text.contains("..."));
        assert!(text.ends_with(&format!(", {}]", BUDGET.values - 2)));
        let past: Vec<u32> = (0..BUDGET.values as u32).collect();
        let text = inspect(&&serde_json::json!(past), ToText);
        assert!(
            text.ends_with(&format!(", {}, ...]", BUDGET.values - 2)),
            "{}",
            &text[text.len() - 30..]
        );
        // A long string is one value, written whole.
        let long = "x".repeat(BUDGET.bytes + 10);
        let text = inspect(&&serde_json::json!([long, long, 1]), ToText);
        assert_eq!(text.len(), 1 + (BUDGET.bytes + 12) + 2 + 3 + 1);
        assert!(text.ends_with("\", ...]"));
    }

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
            inspect(&&value, ToText),
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
