//! Reading a payload (`fromProvider`).

use super::Anthropic;
use crate::error::{Error, Path, Result};
use crate::json::{Json, Kind};
use crate::message::Role;
use crate::prelude::*;
use crate::providers::citation;
use crate::providers::{
    arguments, block_type, blocks_of, field, message_role, object, opt_str, parts_of, read_text,
    server_result_body, str_of, Conversation, Entries, LcPart, LcResult, Out, PartKind,
    ReadPayload, ResultBody, Shape, Split, Statuses,
};

const ROLES: [(&str, Role); 3] = [
    ("user", Role::User),
    ("assistant", Role::Assistant),
    ("system", Role::System),
];

/// `stop_reason` → status: `max_tokens` and `model_context_window_exceeded` are `length`,
/// `refusal` is `content_filtered`, the rest (`end_turn`, `tool_use`, `stop_sequence`,
/// `pause_turn`, ...) `complete`.
const STATUSES: Statuses = Statuses {
    length: &["max_tokens", "model_context_window_exceeded"],
    filtered: &["refusal"],
    cancelled: &[],
};

impl ReadPayload for Anthropic {
    const SHAPE: Shape = Shape {
        expected: "an Anthropic request body ({messages}), a response or message ({role, content}), or a message array",
        response: &[],
        request: "messages",
        system: &["system"],
        one: &["role"],
    };

    fn message<J: Json>(c: &mut Conversation<J>, message: &J, path: &Path<'_>) -> Result<()> {
        let expected = "\"user\", \"assistant\" or \"system\"";
        let role = message_role(message, path, &ROLES, expected)?;
        let content_path = path.key("content");
        let blocks = blocks_of(message, path, "a string or an array of content blocks")?;
        let mut split = Split::new(role);
        let mut server_results = Vec::new();
        for (i, block) in blocks.iter().enumerate() {
            if split.take_string(block) {
                continue;
            }
            let path = content_path.index(i);
            let (ty, ty_value) = block_type(block, &path)?;
            match ty.as_str() {
                "tool_result" if role != Role::Assistant => {
                    let result = tool_result(c, block, &path)?;
                    split.result(c, result);
                }
                "tool_use" | "server_tool_use" if role == Role::Assistant => {
                    let id = opt_str(block, "id", &path)?;
                    let name = opt_str(block, "name", &path)?;
                    let metadata: Entries<J> = if ty == "server_tool_use" {
                        vec![("provider_type", Out::Given(ty_value))]
                    } else {
                        Vec::new()
                    };
                    let arguments = arguments(field(block, "input"));
                    let call = c.call(id, name.map(Out::Given), arguments, metadata);
                    split.call(c, call);
                }
                "mcp_tool_use" if role == Role::Assistant => {
                    // A call to a remote MCP server's tool, which the provider makes; kept whole
                    // (with its `server_name`) so that toProvider sends it back as it came.
                    let id = opt_str(block, "id", &path)?;
                    let name = opt_str(block, "name", &path)?;
                    let metadata: Entries<J> = vec![
                        ("provider_type", Out::Given(ty_value)),
                        ("block", Out::Given(block.clone())),
                    ];
                    let arguments = arguments(field(block, "input"));
                    let call = c.call(id, name.map(Out::Given), arguments, metadata);
                    split.call(c, call);
                }
                t if role == Role::Assistant && t.ends_with("_tool_result") => {
                    server_results.push(server_result(c, block, ty_value, &path)?);
                }
                _ => {
                    let part = part(block, &ty, ty_value, &path)?;
                    split.parts(c, [part]);
                }
            }
        }
        split.finish(c);
        c.results(server_results);
        Ok(())
    }

    /// A message, or a response: one assistant message, with its `stop_reason`.
    fn one<J: Json>(c: &mut Conversation<J>, payload: &J, root: &Path<'_>) -> Result<()> {
        Self::message(c, payload, root)?;
        if let Some(reason) = field(payload, "stop_reason") {
            let details: Entries<J> = field(payload, "stop_details")
                .map(|d| vec![("stop_details", Out::Given(d))])
                .unwrap_or_default();
            c.stop_reason(reason, &STATUSES, details);
        }
        Ok(())
    }

    /// The top-level `system`: a string or an array of text blocks.
    fn system<J: Json>(system: &J, path: &Path<'_>) -> Result<Vec<LcPart<J>>> {
        let expected = "a string or an array of text blocks";
        parts_of(Some(system.clone()), path, expected, typed_part)
    }
}

/// A `tool_result` block.
fn tool_result<J: Json>(
    c: &mut Conversation<J>,
    block: &J,
    path: &Path<'_>,
) -> Result<LcResult<J>> {
    let id = opt_str(block, "tool_use_id", path)?;
    let content_path = path.key("content");
    let content = match field(block, "content") {
        None => ResultBody::Parts(Vec::new()),
        Some(c) if c.kind() == Kind::String => ResultBody::Text(Out::Given(c)),
        Some(c) => match c.elements() {
            Some(blocks) => {
                let mut parts = Vec::new();
                for (i, inner) in blocks.iter().enumerate() {
                    let path = content_path.index(i);
                    let (ty, ty_value) = block_type(inner, &path)?;
                    parts.push(part(inner, &ty, ty_value, &path)?);
                }
                ResultBody::Parts(parts)
            }
            None => {
                return Err(Error::expected(
                    &content_path,
                    "a string or an array of content blocks",
                    c.kind(),
                ))
            }
        },
    };
    let is_error = field(block, "is_error").and_then(|e| e.as_bool()) == Some(true);
    Ok(c.result(id, None, content, is_error, Vec::new()))
}

/// A server tool's result block (`web_search_tool_result`, `code_execution_tool_result`,
/// `mcp_tool_result`, ...): its content as the text a person reads ([`server_result_body`]), the
/// block kept whole in `options.block`, and the structured result in `options.result`.
fn server_result<J: Json>(
    c: &mut Conversation<J>,
    block: &J,
    ty: J,
    path: &Path<'_>,
) -> Result<LcResult<J>> {
    let id = opt_str(block, "tool_use_id", path)?;
    let (content, is_error) = server_result_body(block, path)?;
    let mut options = vec![
        ("provider_type", Out::Given(ty)),
        ("block", Out::Given(block.clone())),
    ];
    // The structured result, whole: its record's `metadata.result`.
    if let Some(structured) = field(block, "content").filter(|c| c.kind() != Kind::String) {
        options.push(("result", Out::Given(structured)));
    }
    Ok(c.result(id, None, content, is_error, options))
}

/// A content block as a LangChain part.
fn typed_part<J: Json>(block: &J, path: &Path<'_>) -> Result<LcPart<J>> {
    let (ty, ty_value) = block_type(block, path)?;
    part(block, &ty, ty_value, path)
}

/// A content block as a LangChain part. `ty` is the block's type (already read).
fn part<J: Json>(block: &J, ty: &str, ty_value: J, path: &Path<'_>) -> Result<LcPart<J>> {
    Ok(match ty {
        "text" => {
            let citations = field(block, "citations")
                .and_then(|c| c.elements())
                .unwrap_or_default()
                .iter()
                .map(|c| citation::anthropic(c).into_out())
                .collect();
            LcPart::text(read_text(block, "text", path)?).cited(citations)
        }
        // A compaction's summary and a model fallback: notifications, the block kept to send back.
        "compaction" => {
            let summary = str_of(block, "content").unwrap_or_default();
            LcPart::notice(Out::Given(ty_value), "block", block.clone(), summary)
        }
        "fallback" => {
            let model = |key: &str| {
                field(block, key)
                    .and_then(|m| str_of(&m, "model"))
                    .unwrap_or_default()
            };
            let text = crate::error::text!("Model fallback: ", model("from"), " → ", model("to"));
            LcPart::notice(Out::Given(ty_value), "block", block.clone(), text)
        }
        "thinking" => {
            let text = match opt_str(block, "thinking", path)? {
                Some(t) => Out::Given(t),
                None => Out::Str(""),
            };
            LcPart::thinking(text, opt_str(block, "signature", path)?)
        }
        "redacted_thinking" => LcPart::redacted(opt_str(block, "data", path)?),
        "image" => match source(block, path)?.as_deref() {
            Some("base64") => base64_part(PartKind::Image, block, Vec::new()),
            Some("url") => url_part(PartKind::ImageUrl, block),
            Some("file") => file_ref(PartKind::Image, block),
            _ => LcPart::raw(Out::Given(ty_value), "block", block.clone()),
        },
        "document" => match source(block, path)?.as_deref() {
            Some("base64") => {
                let title: Entries<J> = field(block, "title")
                    .map(|t| vec![("filename", Out::Given(t))])
                    .unwrap_or_default();
                base64_part(PartKind::File, block, title)
            }
            Some("url") => url_part(PartKind::FileUrl, block),
            Some("file") => file_ref(PartKind::File, block),
            _ => LcPart::raw(Out::Given(ty_value), "block", block.clone()),
        },
        _ => LcPart::raw(Out::Given(ty_value), "block", block.clone()),
    })
}

/// The `source.type` of an image or document block.
fn source<J: Json>(block: &J, path: &Path<'_>) -> Result<Option<String>> {
    let Some(source) = field(block, "source") else {
        return Ok(None);
    };
    object(&source, &path.key("source"), "a source object")?;
    Ok(str_of(&source, "type"))
}

/// A base64 source: `{type, content: data, options: {media, ...}}`.
fn base64_part<J: Json>(kind: PartKind, block: &J, extra: Entries<J>) -> LcPart<J> {
    let source = field(block, "source");
    let mut options: Entries<J> = source
        .as_ref()
        .and_then(|s| field(s, "media_type"))
        .map(|m| vec![("media", Out::Given(m))])
        .unwrap_or_default();
    options.extend(extra);
    LcPart::new(
        kind,
        source
            .as_ref()
            .and_then(|s| field(s, "data"))
            .map(Out::Given),
        options,
    )
}

/// A URL source: `{type, content: url}`.
fn url_part<J: Json>(kind: PartKind, block: &J) -> LcPart<J> {
    LcPart::new(
        kind,
        field(block, "source")
            .and_then(|s| field(&s, "url"))
            .map(Out::Given),
        Vec::new(),
    )
}

/// A file-id source: `{type, content: file_id, options: {type: "file_id"}}`.
fn file_ref<J: Json>(kind: PartKind, block: &J) -> LcPart<J> {
    LcPart::new(
        kind,
        field(block, "source")
            .and_then(|s| field(&s, "file_id"))
            .map(Out::Given),
        vec![("type", Out::Str("file_id"))],
    )
}
