//! Events as values: a parsed event the caller gives (a JavaScript object) copied as [`Parsed`],
//! values written as [`Parsed`], and serde_json's complaint about a text, said briefly.

use crate::error::text;
use crate::error::{Error, ErrorCode, Path, Result};
use crate::json::Json;
use crate::prelude::*;
use crate::providers::Parsed;

/// What serde_json found wrong with a text, and where, without its `Display`: that is written
/// through `core::fmt`, which only it would bring into the module (2.2 KB gzipped).
pub(super) fn json_error(e: &serde_json::Error) -> String {
    use serde_json::error::Category;
    let what = match e.classify() {
        Category::Eof => "it ends inside a value",
        Category::Syntax => "a syntax error",
        Category::Data | Category::Io => "it cannot be read",
    };
    text!(what, " at line ", e.line(), ", column ", e.column())
}

/// A serializable value as [`Parsed`] (through JSON text, keys in the order written).
pub(crate) fn to_parsed<T: serde::Serialize>(value: &T) -> Result<Parsed> {
    let text = serde_json::to_string(value).map_err(|e| internal(&json_error(&e)))?;
    serde_json::from_str(&text).map_err(|e| {
        Error::new(
            ErrorCode::TooDeep,
            &Path::ROOT,
            text!(
                "A value in the stream is nested too deeply to show (",
                json_error(&e),
                ")."
            ),
        )
    })
}

fn internal(message: &str) -> Error {
    Error::new(
        ErrorCode::InvalidInput,
        &Path::ROOT,
        text!(
            "A value in the stream cannot be written as JSON (",
            message,
            ")."
        ),
    )
}

/// A parsed event given by the caller (a JavaScript object), copied as [`Parsed`]: JSON values
/// only, at most [`crate::json::crate::json::MAX_DEPTH`] levels deep. Paths start at `root`.
pub fn event_of<J: Json>(value: &J, root: &Path<'_>) -> Result<Parsed> {
    copy(value, root, 0)
}

fn copy<J: Json>(value: &J, path: &Path<'_>, depth: usize) -> Result<Parsed> {
    use crate::json::{Kind, Number};
    if depth > crate::json::MAX_DEPTH {
        return Err(Error::new(
            ErrorCode::TooDeep,
            path,
            text!(
                "Too deep at ",
                path,
                ": events are read to ",
                crate::json::MAX_DEPTH,
                " levels."
            ),
        ));
    }
    Ok(match value.kind() {
        Kind::Null => Parsed::Null,
        Kind::Bool => Parsed::Bool(value.as_bool() == Some(true)),
        Kind::Number => match value.as_number() {
            Some(Number::Int(i)) => match i64::try_from(i) {
                Ok(i) => Parsed::Number(i.into()),
                Err(_) => {
                    serde_json::Number::from_f64(i as f64).map_or(Parsed::Null, Parsed::Number)
                }
            },
            Some(Number::Float(f)) => {
                serde_json::Number::from_f64(f).map_or(Parsed::Null, Parsed::Number)
            }
            None => Parsed::Null,
        },
        Kind::String => Parsed::String(value.as_str().map(|s| s.into_owned()).unwrap_or_default()),
        Kind::Array => {
            let items = value.elements().unwrap_or_default();
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                out.push(copy(item, &path.index(i), depth + 1)?);
            }
            Parsed::Array(out)
        }
        Kind::Object => {
            let mut out = Parsed::Object(Vec::new());
            for (key, item) in value.entries().unwrap_or_default() {
                let item = copy(&item, &path.key(&key), depth + 1)?;
                out.set(&key, item);
            }
            out
        }
        Kind::Other => return Err(Error::expected(path, "a JSON value", Kind::Other)),
    })
}
