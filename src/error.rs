//! The one error type: a stable code, the path of the offending place, and a readable sentence.

use crate::json::Kind;
use std::fmt;

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
            path: path.to_string(),
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

impl std::error::Error for Error {}

pub type Result<T, E = Error> = std::result::Result<T, E>;

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

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Path::Root(root) => f.write_str(root),
            Path::Key(parent, key) => {
                parent.fmt(f)?;
                if !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    write!(f, ".{key}")
                } else {
                    write!(f, "[{key:?}]")
                }
            }
            Path::Index(parent, index) => {
                parent.fmt(f)?;
                write!(f, "[{index}]")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_render_like_json_path() {
        let root = Path::ROOT;
        let calls = root.key("tool_calls");
        let one = calls.index(1);
        assert_eq!(one.key("call_id").to_string(), "$.tool_calls[1].call_id");
        let named = Path::Root("$.messages");
        assert_eq!(named.index(2).to_string(), "$.messages[2]");
        assert_eq!(root.key("a b").to_string(), "$[\"a b\"]");
    }
}
