//! Reading provider JSON beyond typed fields (those are [`crate::json::fields`]): block types,
//! texts, tool arguments, roles, a message's list of blocks.

use crate::error::text;
use crate::error::{Error, ErrorCode, Path, Result};
use crate::json::{Json, Kind};
use crate::prelude::*;

use crate::json::fields::{field, object, req_str};

use super::{LcPart, Out, Parsed};

/// A required string field read as a text part's content.
pub fn read_text<J: Json>(block: &J, key: &str, path: &Path<'_>) -> Result<J> {
    req_str(block, key, path, "the text")
}

/// A block's `type`: the block must be an object with a string `type`.
pub fn block_type<J: Json>(block: &J, path: &Path<'_>) -> Result<(String, J)> {
    object(block, path, "a content block object")?;
    let ty = match field(block, "type") {
        None => return Err(Error::missing(&path.key("type"), "the block type")),
        Some(t) => t,
    };
    match ty.as_str() {
        Some(s) => Ok((s.into_owned(), ty.clone())),
        None => Err(Error::expected(&path.key("type"), "a string", ty.kind())),
    }
}

/// Tool arguments: a JSON string that parses to an object becomes that object; any other string
/// (invalid JSON, or JSON that is not an object) is kept as the raw string; any other value is
/// moved as it is; absent or null is `{}`.
pub fn arguments<J: Json>(value: Option<J>) -> Out<J> {
    match value {
        None => Out::empty_map(),
        Some(v) => match v.as_str().map(|s| parse_object(&s)) {
            Some(Some(parsed)) => Out::Json(parsed),
            _ => Out::Given(v),
        },
    }
}

/// A JSON text that is an object, parsed; `None` for anything else. serde_json stops at 128 levels,
/// so deeper text is "invalid" here too.
pub fn parse_object(text: &str) -> Option<Parsed> {
    match serde_json::from_str::<Parsed>(text) {
        Ok(value @ Parsed::Object(_)) => Some(value),
        _ => None,
    }
}

/// A message's role, one of `roles` (each as the format names it), else `unsupported_role`
/// saying `expected`. `role` is the message's `role` field; `path` the message's.
pub fn role_in<J: Json, R: Copy>(
    role: Option<J>,
    path: &Path<'_>,
    roles: &[(&str, R)],
    expected: &str,
) -> Result<R> {
    let found = role.as_ref().and_then(|r| r.as_str());
    match roles
        .iter()
        .find(|(name, _)| found.as_deref() == Some(*name))
    {
        Some((_, role)) => Ok(*role),
        None => Err(unsupported_role(role.as_ref(), &path.key("role"), expected)),
    }
}

/// The role of a message, which must be an object: see [`role_in`].
pub fn message_role<J: Json, R: Copy>(
    message: &J,
    path: &Path<'_>,
    roles: &[(&str, R)],
    expected: &str,
) -> Result<R> {
    object(message, path, "a message object")?;
    role_in(field(message, "role"), path, roles, expected)
}

/// A message's `content` as a list of blocks: none when absent (or null), a string as one block,
/// an array's elements; anything else is an error saying `expected`.
pub fn blocks_of<J: Json>(message: &J, path: &Path<'_>, expected: &str) -> Result<Vec<J>> {
    match field(message, "content") {
        None => Ok(Vec::new()),
        Some(c) if c.kind() == Kind::String => Ok(vec![c]),
        Some(c) => c
            .elements()
            .ok_or_else(|| Error::expected(&path.key("content"), expected, c.kind())),
    }
}

/// A value read as parts: a string is one text part (none when empty), an array is read element
/// by element with `part`, absent (or null) is none; anything else is an error saying `expected`.
/// `path` is the value's.
pub fn parts_of<J: Json>(
    value: Option<J>,
    path: &Path<'_>,
    expected: &str,
    part: impl Fn(&J, &Path<'_>) -> Result<LcPart<J>>,
) -> Result<Vec<LcPart<J>>> {
    match value {
        None => Ok(Vec::new()),
        Some(v) if v.kind() == Kind::String => Ok(LcPart::texts(v)),
        Some(v) => match v.elements() {
            Some(list) => list
                .iter()
                .enumerate()
                .map(|(i, p)| part(p, &path.index(i)))
                .collect(),
            None => Err(Error::expected(path, expected, v.kind())),
        },
    }
}

/// A message's `content` as parts (see [`parts_of`]).
pub fn content_parts<J: Json>(
    message: &J,
    path: &Path<'_>,
    expected: &str,
    part: impl Fn(&J, &Path<'_>) -> Result<LcPart<J>>,
) -> Result<Vec<LcPart<J>>> {
    parts_of(
        field(message, "content"),
        &path.key("content"),
        expected,
        part,
    )
}

/// `unsupported_role` for a role outside a format's roles.
pub fn unsupported_role<J: Json>(role: Option<&J>, path: &Path<'_>, expected: &str) -> Error {
    let shown = match role {
        None => "(missing)".to_string(),
        Some(r) => match r.as_str() {
            Some(s) => crate::error::quoted(&s),
            None => r.kind().name().to_string(),
        },
    };
    Error::new(
        ErrorCode::UnsupportedRole,
        path,
        text!(
            "Unsupported role ",
            shown,
            " at ",
            path,
            ": expected ",
            expected,
            "."
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parsed_json_keeps_the_text_key_order_and_stops_at_serde_json_depth_limit() {
        let parsed = parse_object(r#"{"b":1,"a":[true,null,"x"],"b":2}"#).unwrap();
        assert_eq!(
            serde_json::to_string(&parsed).unwrap(),
            r#"{"b":2,"a":[true,null,"x"]}"#
        );
        assert!(parse_object("[1]").is_none());
        assert!(parse_object("{").is_none());
        let deep = format!("{}{}", "{\"a\":".repeat(300), "}".repeat(300));
        assert!(parse_object(&deep).is_none());
    }
}
