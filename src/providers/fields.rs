//! Reading provider JSON beyond typed fields (those are [`crate::json::fields`]): block types,
//! texts, tool arguments, roles, a message's list of blocks, and what a person reads of a server
//! tool's result.

use crate::error::text;
use crate::error::{Error, ErrorCode, Path, Result};
use crate::json::{compact_json, Json, Kind};
use crate::prelude::*;

use crate::json::fields::{field, object, req_str, str_of};

use super::{LcPart, Out, Parsed, ResultBody};

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

/// What a person reads of a command's run (a hosted shell's output, a code execution's result):
/// its stdout, then its stderr (each without its last newline, left out when empty), then
/// `exit code <n>` when the code is known (docs/INPUT-FORMATS.md "Server tools").
pub fn run_text(stdout: Option<String>, stderr: Option<String>, exit: Option<String>) -> String {
    let mut out = String::new();
    for stream in [stdout, stderr].into_iter().flatten() {
        let stream = stream.strip_suffix('\n').unwrap_or(&stream);
        if stream.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(stream);
    }
    if let Some(code) = exit {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str("exit code ");
        out.push_str(&code);
    }
    out
}

/// A search result or source as one line: `title — url`, the URL alone without a title, `None`
/// without a URL.
pub fn link_line<J: Json>(entry: &J) -> Option<String> {
    let url = str_of(entry, "url")?;
    Some(match str_of(entry, "title").filter(|t| !t.is_empty()) {
        Some(title) => text!(title, " — ", url),
        None => url,
    })
}

/// A server tool's result block (Anthropic's `*_tool_result`, kept as it came by LangChain.js too)
/// as the text a person reads (docs/INPUT-FORMATS.md "Server tools"), and whether it is an error:
/// a string content as it is; a list of search results as `title — url` lines (`No results` for
/// none), a list of text blocks as their texts; an error object (`type` ending in `_error`) as its
/// `error_code` with `is_error: true`; an object [`readable`] reads as that text; any other value
/// as its compact JSON text. `path` is the block's.
pub fn server_result_body<J: Json>(block: &J, path: &Path<'_>) -> Result<(ResultBody<J>, bool)> {
    let content_path = path.key("content");
    let flagged = field(block, "is_error").and_then(|e| e.as_bool()) == Some(true);
    Ok(match field(block, "content") {
        None => (ResultBody::Text(Out::Str("")), flagged),
        Some(c) if c.kind() == Kind::String => (ResultBody::Text(Out::Given(c)), flagged),
        Some(c) if c.kind() == Kind::Array => {
            let entries = c.elements().unwrap_or_default();
            if entries.iter().all(|e| field(e, "url").is_some()) {
                let lines: Vec<String> = entries.iter().filter_map(link_line).collect();
                let text = if lines.is_empty() {
                    String::from("No results")
                } else {
                    lines.join("\n")
                };
                (ResultBody::Text(Out::Text(text)), flagged)
            } else {
                let parts = entries
                    .iter()
                    .filter_map(|e| field(e, "text").filter(|t| t.kind() == Kind::String))
                    .map(LcPart::text)
                    .collect();
                (ResultBody::Parts(parts), flagged)
            }
        }
        Some(c) => {
            let error = str_of(&c, "type").is_some_and(|t| t.ends_with("_error"));
            match field(&c, "error_code").filter(|_| error) {
                Some(code) if code.kind() == Kind::String => {
                    (ResultBody::Text(Out::Given(code)), true)
                }
                _ => match readable(&c, &content_path)? {
                    Some(text) => (ResultBody::Text(Out::Text(text)), error || flagged),
                    None => (
                        ResultBody::Text(Out::Text(compact_json(&c, &content_path)?)),
                        error || flagged,
                    ),
                },
            }
        }
    })
}

/// How many characters of a fetched page its result shows.
const PAGE_START: usize = 500;

/// The text a person reads of a server tool's result object, by its `type`: a command's run
/// (`code_execution_result`, `bash_code_execution_result`) as its stdout, stderr and exit code; a
/// fetched page as its title, URL and the start of its text; a file view as its text; a file
/// created or edited as what changed; a tool search as the tools it found. `None` for a type with
/// nothing better than its JSON.
pub fn readable<J: Json>(content: &J, path: &Path<'_>) -> Result<Option<String>> {
    let ty = str_of(content, "type").unwrap_or_default();
    Ok(Some(match ty.as_str() {
        "code_execution_result" | "bash_code_execution_result" => {
            let exit = match field(content, "return_code") {
                Some(code) => Some(compact_json(&code, &path.key("return_code"))?),
                None => None,
            };
            run_text(str_of(content, "stdout"), str_of(content, "stderr"), exit)
        }
        "web_fetch_result" => {
            let document = field(content, "content");
            let mut lines = Vec::new();
            if let Some(title) = document.as_ref().and_then(|d| str_of(d, "title")) {
                lines.push(title);
            }
            if let Some(url) = str_of(content, "url") {
                lines.push(url);
            }
            let data = document
                .as_ref()
                .and_then(|d| field(d, "source"))
                .and_then(|s| str_of(&s, "data"));
            if let Some(data) = data {
                let mut start: String = data.chars().take(PAGE_START).collect();
                if start.len() < data.len() {
                    start.push('…');
                }
                lines.push(start);
            }
            lines.join("\n")
        }
        "text_editor_code_execution_view_result" | "advisor_result" => {
            match str_of(content, "content").or_else(|| str_of(content, "text")) {
                Some(text) => text,
                None => return Ok(None),
            }
        }
        "text_editor_code_execution_create_result" => {
            let update = field(content, "is_file_update").and_then(|u| u.as_bool());
            String::from(if update == Some(true) {
                "File updated"
            } else {
                "File created"
            })
        }
        "text_editor_code_execution_str_replace_result" => field(content, "lines")
            .and_then(|l| l.elements())
            .unwrap_or_default()
            .iter()
            .filter_map(|l| l.as_str().map(|s| s.into_owned()))
            .collect::<Vec<_>>()
            .join("\n"),
        "tool_search_tool_search_result" => field(content, "tool_references")
            .and_then(|l| l.elements())
            .unwrap_or_default()
            .iter()
            .filter_map(|r| str_of(r, "tool_name"))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => return Ok(None),
    }))
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
