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
    pub fn new(code: ErrorCode, path: &Path<'_>, message: impl Into<String>) -> Self {
        Error {
            code,
            path: path.render(),
            message: message.into(),
        }
    }

    /// `invalid_input`: the value at `path` is of kind `got` where `expected` was needed.
    pub fn expected(path: &Path<'_>, expected: &str, got: Kind) -> Self {
        Error::new(
            ErrorCode::InvalidInput,
            path,
            format!("Expected {expected} at {path}, got {}.", got.name()),
        )
    }

    /// `invalid_input`: a required key is absent at `path`.
    pub fn missing(path: &Path<'_>, what: &str) -> Self {
        Error::new(
            ErrorCode::InvalidInput,
            path,
            format!("Missing {what} at {path}."),
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
                push_decimal(out, *index as u64);
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
                let hex = c as u32;
                let digits = (32 - hex.leading_zeros()).div_ceil(4).max(1);
                for shift in (0..digits).rev() {
                    let digit = (hex >> (shift * 4)) & 0xf;
                    out.push(char::from_digit(digit, 16).unwrap_or('0'));
                }
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

/// The decimal digits of `n`.
pub fn push_decimal(out: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
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
