//! Typed fields: the one reader of a field that must be a string, a boolean, an object or a list,
//! with the error a value of another kind gives (`invalid_input` at the field's path, "Expected a
//! string or null at $.messages[0].name, got a number."). Every reader of input (messages,
//! Sycophant, records, the provider formats) reads its fields through these.

use crate::error::{Error, Path, Result};
use crate::json::{Json, Kind};
use crate::prelude::*;

/// The value under `key`, with an explicit `null` folded into absent.
pub fn field<J: Json>(value: &J, key: &str) -> Option<J> {
    value.get_non_null(key)
}

/// The kind of an optional value, absent as `null`.
pub fn kind_of<J: Json>(value: Option<J>) -> Kind {
    value.map_or(Kind::Null, |v| v.kind())
}

/// `value` must be an object.
pub fn object<J: Json>(value: &J, path: &Path<'_>, what: &str) -> Result<()> {
    if value.is_object() {
        return Ok(());
    }
    Err(Error::expected(path, what, value.kind()))
}

/// An optional string field: absent or null is `None`; any other non-string is an error.
pub fn opt_str<J: Json>(value: &J, key: &str, path: &Path<'_>) -> Result<Option<J>> {
    opt_string(value.get(key), key, path)
}

/// A required string field.
pub fn req_str<J: Json>(value: &J, key: &str, path: &Path<'_>, what: &str) -> Result<J> {
    match field(value, key) {
        None => Err(Error::missing(&path.key(key), what)),
        Some(v) if v.kind() == Kind::String => Ok(v),
        Some(v) => Err(Error::expected(&path.key(key), "a string", v.kind())),
    }
}

/// An optional array field: absent or null is `None`; any other non-array is an error.
pub fn opt_list<J: Json>(value: &J, key: &str, path: &Path<'_>) -> Result<Option<Vec<J>>> {
    match field(value, key) {
        None => Ok(None),
        Some(v) => v
            .elements()
            .map(Some)
            .ok_or_else(|| Error::expected(&path.key(key), "an array or null", v.kind())),
    }
}

/// Each element of the array field `key` (none when it is absent or null), which must be an
/// object (else an error saying `what`), given to `each` with its path.
pub fn each_object<J: Json>(
    value: &J,
    key: &str,
    path: &Path<'_>,
    what: &str,
    mut each: impl FnMut(&J, &Path<'_>) -> Result<()>,
) -> Result<()> {
    let list_path = path.key(key);
    for (i, item) in opt_list(value, key, path)?
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let item_path = list_path.index(i);
        object(item, &item_path, what)?;
        each(item, &item_path)?;
    }
    Ok(())
}

/// The string under `key`, copied, when it is a string.
pub fn str_of<J: Json>(value: &J, key: &str) -> Option<String> {
    field(value, key).and_then(|v| v.as_str().map(|s| s.into_owned()))
}

/// A field's value (from [`Json::fields`]) with an explicit `null` folded into absent.
#[inline(always)]
pub fn non_null<J: Json>(value: Option<J>) -> Option<J> {
    // A `match`, not `Option::filter`: the size build makes that filter a call (issue 45).
    match value {
        Some(v) if v.kind() != Kind::Null => Some(v),
        _ => None,
    }
}

/// A field that must be a string or null.
pub fn opt_string<J: Json>(value: Option<J>, key: &str, path: &Path<'_>) -> Result<Option<J>> {
    match non_null(value) {
        None => Ok(None),
        Some(v) if v.kind() == Kind::String => Ok(Some(v)),
        Some(v) => Err(Error::expected(
            &path.key(key),
            "a string or null",
            v.kind(),
        )),
    }
}

/// A boolean field whose default is `false`: absent gives `Some(false)`, `null` gives `None`.
pub fn flag<J: Json>(value: Option<J>, key: &str, path: &Path<'_>) -> Result<Option<bool>> {
    match value {
        None => Ok(Some(false)),
        Some(v) => match v.kind() {
            Kind::Null => Ok(None),
            Kind::Bool => Ok(v.as_bool()),
            other => Err(Error::expected(&path.key(key), "a boolean or null", other)),
        },
    }
}

/// Each element of an array read with `parse` (paths `path[i]`), up to the first error; `None`
/// when `value` is not an array.
pub fn parse_each<J: Json, T>(
    value: &J,
    path: &Path<'_>,
    parse: impl Fn(&J, &Path<'_>) -> Result<T>,
) -> Option<Result<Vec<T>>> {
    let mut out = Vec::new();
    let mut error = None;
    let is_array = value.each_element(|i, element| {
        match parse(&element, &path.index(i)) {
            Ok(item) => out.push(item),
            Err(e) => error = Some(e),
        }
        error.is_none()
    });
    is_array.then(|| error.map_or(Ok(out), Err))
}

/// [`parse_each`] of an array field where `null` or absent means empty; anything else that is not
/// an array is an error (upstream would ignore it silently; a wrong shape here is a bug worth
/// surfacing).
pub fn parse_list<J: Json, T>(
    value: Option<J>,
    key: &str,
    path: &Path<'_>,
    what: &str,
    parse: impl Fn(&J, &Path<'_>) -> Result<T>,
) -> Result<Vec<T>> {
    match non_null(value) {
        None => Ok(Vec::new()),
        Some(v) => parse_each(&v, &path.key(key), parse)
            .unwrap_or_else(|| Err(Error::expected(&path.key(key), what, v.kind()))),
    }
}
