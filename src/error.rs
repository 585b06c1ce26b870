//! The one error type: a stable code, the path of the offending place, and a readable sentence.

use crate::json::Kind;
use crate::prelude::*;
use core::fmt;

/// Why a call failed. The string form (`as_str`) is the `code` JavaScript sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorCode {
    /// A value of the wrong type or shape.
    InvalidInput,
    /// A message role outside the four LangChain roles (or the Sycophant ones where they apply).
    UnsupportedRole,
    EmptyExpansion,
    InvalidExpansion,
    InvalidExpansionRole,
    MissingType,
    UnknownType,
    /// Nesting past a documented limit.
    TooDeep,
    UnsupportedProtocol,
    /// A provider's error body (the JSON of an HTTP error, or an error event): the message quotes
    /// the provider's own.
    ProviderError,
}

impl ErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidInput => "invalid_input",
            ErrorCode::UnsupportedRole => "unsupported_role",
            ErrorCode::EmptyExpansion => "empty_expansion",
            ErrorCode::InvalidExpansion => "invalid_expansion",
            ErrorCode::InvalidExpansionRole => "invalid_expansion_role",
            ErrorCode::MissingType => "missing_type",
            ErrorCode::UnknownType => "unknown_type",
            ErrorCode::TooDeep => "too_deep",
            ErrorCode::UnsupportedProtocol => "unsupported_protocol",
            ErrorCode::ProviderError => "provider_error",
        }
    }
}

/// A failure: `code`, `path` (`$`, `$.tool_calls[1].call_id`, `$[3].content[0]`) and a message that
/// is one sentence naming the path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub code: ErrorCode,
    pub path: String,
    pub message: String,
}

impl Error {
    #[inline(never)]
    pub fn new(code: ErrorCode, path: &Path<'_>, message: impl Into<String>) -> Self {
        Error {
            code,
            path: path.render(),
            message: message.into(),
        }
    }

    /// `invalid_input`: the value at `path` is of kind `got` where `expected` was needed.
    #[inline(never)]
    pub fn expected(path: &Path<'_>, expected: &str, got: Kind) -> Self {
        Error::new(
            ErrorCode::InvalidInput,
            path,
            text!(
                "Expected ",
                expected,
                " at ",
                path,
                ", got ",
                got.name(),
                "."
            ),
        )
    }

    /// `invalid_input`: a required key is absent at `path`.
    #[inline(never)]
    pub fn missing(path: &Path<'_>, what: &str) -> Self {
        Error::new(
            ErrorCode::InvalidInput,
            path,
            text!("Missing ", what, " at ", path, "."),
        )
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl core::error::Error for Error {}

pub type Result<T, E = Error> = core::result::Result<T, E>;

/// Where a value sits in the input, built on the stack as the core descends and rendered only
/// when an error needs it.
#[derive(Clone, Copy, Debug)]
pub enum Path<'a> {
    /// `$`, or `$.name` for a named parameter of a function with several.
    Root(&'a str),
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl<'a> Path<'a> {
    pub const ROOT: Path<'static> = Path::Root("$");

    pub fn key(&'a self, key: &'a str) -> Path<'a> {
        Path::Key(self, key)
    }

    pub fn index(&'a self, index: usize) -> Path<'a> {
        Path::Index(self, index)
    }
}

impl Path<'_> {
    /// The path as text: `$.tool_calls[1].call_id`, `$["a b"]`. (Written without `core::fmt`,
    /// which the module leaves out.)
    pub fn render(&self) -> String {
        let mut out = String::new();
        self.push_onto(&mut out);
        out
    }

    fn push_onto(&self, out: &mut String) {
        match self {
            Path::Root(root) => out.push_str(root),
            Path::Key(parent, key) => {
                parent.push_onto(out);
                if !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    out.push('.');
                    out.push_str(key);
                } else {
                    out.push('[');
                    push_quoted(out, key);
                    out.push(']');
                }
            }
            Path::Index(parent, index) => {
                parent.push_onto(out);
                out.push('[');
                push_decimal(out, *index as u128);
                out.push(']');
            }
        }
    }
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

/// `s` in double quotes, escaped as Rust's `{:?}` escapes it (`\"`, `\\`, `\n`, `\r`, `\t`,
/// `\0`, other control characters as `\u{1b}`); every other character is written as itself.
/// (Rust's own also escapes unprintable and combining characters, from Unicode tables the module
/// leaves out.)
pub fn push_quoted(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\0' => out.push_str("\\0"),
            c if c.is_control() => {
                out.push_str("\\u{");
                push_hex(out, c as u32, 1, false);
                out.push('}');
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `s` quoted as [`push_quoted`] quotes it.
pub fn quoted(s: &str) -> String {
    let mut out = String::new();
    push_quoted(&mut out, s);
    out
}

/// Text made of pieces (strings, characters, integers, paths, [`Hex`]), as `format!` would make it
/// from `{}`s, without `core::fmt`: the module leaves Rust's formatting machinery out, and every
/// message it writes is made this way.
macro_rules! text {
    ($($piece:expr),* $(,)?) => {{
        let mut out = ::alloc::string::String::new();
        $( $crate::error::Piece::push_onto(&$piece, &mut out); )*
        out
    }};
}
pub(crate) use text;

/// A piece of [`text!`].
pub trait Piece {
    fn push_onto(&self, out: &mut String);
}

impl Piece for str {
    fn push_onto(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl Piece for String {
    fn push_onto(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl Piece for alloc::borrow::Cow<'_, str> {
    fn push_onto(&self, out: &mut String) {
        out.push_str(self);
    }
}

impl Piece for char {
    fn push_onto(&self, out: &mut String) {
        out.push(*self);
    }
}

impl<T: Piece + ?Sized> Piece for &T {
    fn push_onto(&self, out: &mut String) {
        (**self).push_onto(out);
    }
}

impl Piece for Path<'_> {
    fn push_onto(&self, out: &mut String) {
        Path::push_onto(self, out);
    }
}

macro_rules! unsigned_pieces {
    ($($t:ty),*) => {$(
        impl Piece for $t {
            fn push_onto(&self, out: &mut String) {
                push_decimal(out, *self as u128);
            }
        }
    )*};
}
unsigned_pieces!(u8, u32, u64, usize);

macro_rules! signed_pieces {
    ($($t:ty),*) => {$(
        impl Piece for $t {
            fn push_onto(&self, out: &mut String) {
                if *self < 0 {
                    out.push('-');
                }
                push_decimal(out, (*self as i128).unsigned_abs());
            }
        }
    )*};
}
signed_pieces!(i32, i64, i128);

/// `value` in upper-case hexadecimal, zero-padded to `width` digits (`{:04X}`).
pub struct Hex(pub u32, pub usize);

impl Piece for Hex {
    fn push_onto(&self, out: &mut String) {
        push_hex(out, self.0, self.1, true);
    }
}

/// The hexadecimal digits of `value`, zero-padded to `width`, in upper or lower case.
fn push_hex(out: &mut String, value: u32, width: usize, upper: bool) {
    let digits = ((32 - value.leading_zeros()).div_ceil(4) as usize).max(1);
    for _ in digits..width {
        out.push('0');
    }
    for shift in (0..digits).rev() {
        let digit = char::from_digit((value >> (shift * 4)) & 0xf, 16).unwrap_or('0');
        out.push(if upper {
            digit.to_ascii_uppercase()
        } else {
            digit
        });
    }
}

/// The decimal digits of `n`.
pub fn push_decimal(out: &mut String, mut n: u128) {
    let mut digits = [0u8; 39];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[at..] {
        out.push(char::from(d));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_is_rusts_debug_for_ascii_control_and_letters() {
        let chars = (0u32..0xa0).chain([0xe9, 0x4e2d, 0x1f600]);
        for c in chars.filter_map(char::from_u32) {
            let s = format!("x{c}y");
            assert_eq!(quoted(&s), format!("{s:?}"), "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn text_is_what_format_makes() {
        let path = Path::ROOT.key("a b");
        for n in [
            0i128,
            7,
            -7,
            10,
            99,
            i128::from(i64::MIN),
            i128::MAX,
            i128::MIN,
        ] {
            assert_eq!(text!("n=", n, "."), format!("n={n}."));
        }
        assert_eq!(
            text!(u64::MAX, ' ', usize::MAX, ' ', 0u8),
            format!("{} {} 0", u64::MAX, usize::MAX)
        );
        assert_eq!(
            text!("at ", path, ": ", String::from("x")),
            format!("at {path}: x")
        );
        for c in [0u32, 0x7, 0xab, 0x205f, 0x1f600, 0x10ffff] {
            assert_eq!(
                text!(Hex(c, 2), Hex(c, 4), Hex(c, 6)),
                format!("{c:02X}{c:04X}{c:06X}")
            );
        }
    }

    #[test]
    fn paths_render_like_json_path() {
        let root = Path::ROOT;
        let calls = root.key("tool_calls");
        let one = calls.index(1);
        assert_eq!(one.key("call_id").to_string(), "$.tool_calls[1].call_id");
        assert_eq!(root.key("a b\u{1b}é").to_string(), "$[\"a b\\u{1b}é\"]");
        assert_eq!(calls.index(0).to_string(), "$.tool_calls[0]");
        assert_eq!(
            calls.index(usize::MAX).to_string(),
            format!("$.tool_calls[{}]", usize::MAX)
        );
        let named = Path::Root("$.messages");
        assert_eq!(named.index(2).to_string(), "$.messages[2]");
        assert_eq!(root.key("a b").to_string(), "$[\"a b\"]");
    }
}
