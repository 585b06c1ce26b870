//! Reading a payload (`fromProvider`).

use super::{Bedrock, DOCUMENT_MEDIA};
use crate::error::text;
use crate::error::{Error, ErrorCode, Path, Result};
use crate::json::{Json, Kind};
use crate::message::Role;
use crate::prelude::*;
use crate::providers::{
    arguments, blocks_of, compact_json, field, message_role, object, opt_str, parse_object,
    run_text, str_of, Citation, Conversation, Entries, LcPart, LcResult, Out, PartKind,
    ReadPayload, ResultBody, Shape, Split, Statuses,
};

/// The block keys this version reads; any other key is kept as its block.
const KNOWN: [&str; 7] = [
    "text",
    "image",
    "document",
    "toolUse",
    "toolResult",
    "reasoningContent",
    "citationsContent",
];

const ROLES: [(&str, Role); 2] = [("user", Role::User), ("assistant", Role::Assistant)];

/// `stopReason` → status: `max_tokens` and `model_context_window_exceeded` are `length`,
/// `guardrail_intervened` and `content_filtered` are `content_filtered`, the rest (`end_turn`,
/// `tool_use`, `stop_sequence`, ...) `complete`.
const STATUSES: Statuses = Statuses {
    length: &["max_tokens", "model_context_window_exceeded"],
    filtered: &["guardrail_intervened", "content_filtered"],
    cancelled: &[],
};

impl ReadPayload for Bedrock {
    const SHAPE: Shape = Shape {
        expected: "a Converse request body ({messages}), a response ({output: {message}}), a message or a message array",
        response: &["output"],
        request: "messages",
        system: &["system"],
        one: &["role"],
    };

    fn message<J: Json>(c: &mut Conversation<J>, message: &J, path: &Path<'_>) -> Result<()> {
        let role = message_role(message, path, &ROLES, "\"user\" or \"assistant\"")?;
        let content_path = path.key("content");
        let blocks = blocks_of(message, path, "an array of content blocks")?;
        let mut split = Split::new(role);
        let mut server_results = Vec::new();
        for (i, block) in blocks.iter().enumerate() {
            if split.take_string(block) {
                continue;
            }
            let path = content_path.index(i);
            let (key, value) = block_key(block, &path)?;
            let inner_path = path.key(&key);
            match key.as_str() {
                "toolResult" if role == Role::User => {
                    let result = tool_result(c, &value, &inner_path)?;
                    split.result(c, result);
                }
                "toolResult" => {
                    // A server tool's result (Nova's code interpreter), which the model's own
                    // message holds after its call: a result after the message, as Anthropic's.
                    server_results.push(server_result(c, block, &value, &inner_path)?);
                }
                "toolUse" if role == Role::Assistant => {
                    let id = tool_use_id(&value, &inner_path, "a toolUse object")?;
                    let name = opt_str(&value, "name", &inner_path)?;
                    let arguments = arguments(field(&value, "input"));
                    // `type: "server_tool_use"`: a tool the provider runs (Nova's built-in tools).
                    let metadata: Entries<J> = opt_str(&value, "type", &inner_path)?
                        .map(|ty| vec![("provider_type", Out::Given(ty))])
                        .unwrap_or_default();
                    let call = c.call(id, name.map(Out::Given), arguments, metadata);
                    split.call(c, call);
                }
                _ => {
                    let parts = block_parts(block, &key, &value, &inner_path)?;
                    split.parts(c, parts);
                }
            }
        }
        split.finish(c);
        c.results(server_results);
        Ok(())
    }

    /// A response: `output.message`, with its `stopReason`.
    fn response<J: Json>(c: &mut Conversation<J>, payload: &J, root: &Path<'_>) -> Result<()> {
        let output_path = root.key("output");
        let output =
            field(payload, "output").ok_or_else(|| Error::missing(&output_path, "the output"))?;
        object(&output, &output_path, "an output object")?;
        let message_path = output_path.key("message");
        let message = field(&output, "message")
            .ok_or_else(|| Error::missing(&message_path, "the output message"))?;
        Self::message(c, &message, &message_path)?;
        if let Some(reason) = field(payload, "stopReason") {
            c.stop_reason(reason, &STATUSES, Vec::new());
        }
        Ok(())
    }

    /// The top-level `system` array: its text blocks (cache points and guard content are left
    /// out).
    fn system<J: Json>(system: &J, path: &Path<'_>) -> Result<Vec<LcPart<J>>> {
        let blocks = system
            .elements()
            .ok_or_else(|| Error::expected(path, "an array of system blocks", system.kind()))?;
        let mut parts = Vec::new();
        for (i, block) in blocks.iter().enumerate() {
            let path = path.index(i);
            object(block, &path, "a system block object")?;
            parts.extend(opt_str(block, "text", &path)?.map(LcPart::text));
        }
        Ok(parts)
    }
}

/// A block's one key: the first key this version reads, else its first key.
fn block_key<J: Json>(block: &J, path: &Path<'_>) -> Result<(String, J)> {
    object(block, path, "a content block object")?;
    if let Some((key, value)) = KNOWN
        .iter()
        .find_map(|k| field(block, k).map(|v| (k.to_string(), v)))
    {
        return Ok((key, value));
    }
    block
        .entries()
        .unwrap_or_default()
        .into_iter()
        .next()
        .ok_or_else(|| {
            Error::new(
                ErrorCode::InvalidInput,
                path,
                text!(
                    "Expected a content block with one key at ",
                    path,
                    ", got an empty object."
                ),
            )
        })
}

/// The `toolUseId` of a `toolUse` or `toolResult`, which must be an object (else an error saying
/// `what`).
fn tool_use_id<J: Json>(value: &J, path: &Path<'_>, what: &str) -> Result<Option<J>> {
    object(value, path, what)?;
    opt_str(value, "toolUseId", path)
}

/// A `toolResult`: its content blocks (`json` as its compact JSON text), `status: "error"` as
/// `is_error`.
fn tool_result<J: Json>(
    c: &mut Conversation<J>,
    value: &J,
    path: &Path<'_>,
) -> Result<LcResult<J>> {
    let id = tool_use_id(value, path, "a toolResult object")?;
    let content_path = path.key("content");
    let mut parts = Vec::new();
    match field(value, "content") {
        None => {}
        Some(c) => {
            let blocks = c.elements().ok_or_else(|| {
                Error::expected(&content_path, "an array of content blocks", c.kind())
            })?;
            for (i, block) in blocks.iter().enumerate() {
                let path = content_path.index(i);
                if let Some(json) = field(block, "json") {
                    let text = compact_json(&json, &path.key("json"))?;
                    parts.push(LcPart::new(
                        PartKind::Text,
                        Some(Out::Text(text)),
                        Vec::new(),
                    ));
                    continue;
                }
                let (key, inner) = block_key(block, &path)?;
                parts.extend(block_parts(block, &key, &inner, &path.key(&key))?);
            }
        }
    }
    let is_error = str_of(value, "status").as_deref() == Some("error");
    Ok(c.result(id, None, ResultBody::Parts(parts), is_error, Vec::new()))
}

/// A server tool's `toolResult` in the model's message (Nova's `nova_code_interpreter_result`):
/// its content as the text a person reads, a run (`{stdOut, stdErr, exitCode, isError}`, as a
/// `json` block or as the JSON text of a `text` block) as its output and exit code, other text as
/// it is; `status: "error"` or `isError` as `is_error`. The block is kept whole in
/// `options.block` (`toProvider` writes it back in its place), its `type` in
/// `options.provider_type` and its content in `options.result`.
fn server_result<J: Json>(
    c: &mut Conversation<J>,
    block: &J,
    value: &J,
    path: &Path<'_>,
) -> Result<LcResult<J>> {
    let id = tool_use_id(value, path, "a toolResult object")?;
    let ty = opt_str(value, "type", path)?;
    let mut is_error = str_of(value, "status").as_deref() == Some("error");
    let mut texts = Vec::new();
    let content = field(value, "content");
    if let Some(content) = &content {
        let content_path = path.key("content");
        let entries = content.elements().ok_or_else(|| {
            Error::expected(&content_path, "an array of content blocks", content.kind())
        })?;
        for (i, entry) in entries.iter().enumerate() {
            let entry_path = content_path.index(i);
            if let Some(json) = field(entry, "json") {
                match run(&json, &entry_path.key("json"))? {
                    Some((text, failed)) => {
                        texts.push(text);
                        is_error |= failed;
                    }
                    None => texts.push(compact_json(&json, &entry_path.key("json"))?),
                }
            } else if let Some(text) = opt_str(entry, "text", &entry_path)? {
                let text = text.as_str().map(|t| t.into_owned()).unwrap_or_default();
                match parse_object(&text) {
                    Some(parsed) => match run(&&parsed, &entry_path.key("text"))? {
                        Some((run, failed)) => {
                            texts.push(run);
                            is_error |= failed;
                        }
                        None => texts.push(text),
                    },
                    None => texts.push(text),
                }
            }
        }
    }
    let mut options: Entries<J> = vec![
        (
            "provider_type",
            ty.map_or(Out::Str("toolResult"), Out::Given),
        ),
        ("block", Out::Given(block.clone())),
    ];
    if let Some(content) = content {
        options.push(("result", Out::Given(content)));
    }
    let content = ResultBody::Text(Out::Text(texts.join("\n")));
    Ok(c.result(id, None, content, is_error, options))
}

/// A code run's result `{stdOut, stdErr, exitCode, isError}` as the text a person reads (its
/// output, then `exit code <n>`) and whether it failed; `None` for anything else.
fn run<J: Json>(value: &J, path: &Path<'_>) -> Result<Option<(String, bool)>> {
    if !["stdOut", "stdErr", "exitCode"]
        .iter()
        .any(|key| field(value, key).is_some())
    {
        return Ok(None);
    }
    let exit = match field(value, "exitCode") {
        Some(code) => Some(compact_json(&code, &path.key("exitCode"))?),
        None => None,
    };
    let text = run_text(str_of(value, "stdOut"), str_of(value, "stdErr"), exit);
    let failed = field(value, "isError").and_then(|e| e.as_bool()) == Some(true);
    Ok(Some((text, failed)))
}

/// The parts of a content block (`key` is its one key, `value` what it holds).
fn block_parts<J: Json>(
    block: &J,
    key: &str,
    value: &J,
    path: &Path<'_>,
) -> Result<Vec<LcPart<J>>> {
    let raw = || {
        vec![LcPart::raw(
            Out::Text(key.to_string()),
            "block",
            block.clone(),
        )]
    };
    Ok(match key {
        "text" => match value.kind() {
            Kind::String => vec![LcPart::text(value.clone())],
            other => return Err(Error::expected(path, "a string", other)),
        },
        "reasoningContent" => {
            object(value, path, "a reasoningContent object")?;
            if let Some(text) = field(value, "reasoningText") {
                let text_path = path.key("reasoningText");
                object(&text, &text_path, "a reasoningText object")?;
                let content = opt_str(&text, "text", &text_path)?.map_or(Out::Str(""), Out::Given);
                vec![LcPart::thinking(
                    content,
                    opt_str(&text, "signature", &text_path)?,
                )]
            } else if let Some(data) = field(value, "redactedContent") {
                vec![LcPart::redacted(Some(data))]
            } else {
                raw()
            }
        }
        "citationsContent" => {
            let mut parts = Vec::new();
            let content = field(value, "content")
                .and_then(|c| c.elements())
                .unwrap_or_default();
            for (i, item) in content.iter().enumerate() {
                if let Some(text) = opt_str(item, "text", &path.key("content").index(i))? {
                    parts.push(LcPart::text(text));
                }
            }
            // The citations cite the generated text: on its last part.
            let citations: Vec<Out<J>> = field(value, "citations")
                .and_then(|c| c.elements())
                .unwrap_or_default()
                .iter()
                .map(|c| bedrock_citation(c).into_out())
                .collect();
            if let Some(last) = parts.last_mut() {
                last.citations = citations;
            }
            parts
        }
        "image" | "document" => {
            object(value, path, "an object")?;
            let format = str_of(value, "format").unwrap_or_default();
            let source = field(value, "source");
            let bytes = source.as_ref().and_then(|s| field(s, "bytes"));
            let uri = source
                .as_ref()
                .and_then(|s| field(s, "s3Location"))
                .and_then(|l| field(&l, "uri"));
            let image = key == "image";
            let media = if image {
                text!("image/", format)
            } else {
                DOCUMENT_MEDIA
                    .iter()
                    .find(|(f, _)| *f == format)
                    .map_or_else(|| text!("application/", format), |(_, m)| m.to_string())
            };
            let mut options: Entries<J> = vec![("media", Out::Text(media))];
            if let Some(name) = field(value, "name") {
                options.push(("filename", Out::Given(name)));
            }
            match (bytes, uri) {
                (Some(bytes), _) => {
                    let kind = if image {
                        PartKind::Image
                    } else {
                        PartKind::File
                    };
                    vec![LcPart::new(kind, Some(Out::Given(bytes)), options)]
                }
                (None, Some(uri)) => {
                    let kind = if image {
                        PartKind::ImageUrl
                    } else {
                        PartKind::FileUrl
                    };
                    vec![LcPart::new(kind, Some(Out::Given(uri)), options)]
                }
                _ => raw(),
            }
        }
        _ => raw(),
    })
}

/// A Bedrock citation: `title`, the first `sourceContent` text as `cited_text`, and its
/// `location`: `documentChar` (`char`), `documentPage` (`page`) or `documentChunk` (`block`) with
/// its `documentIndex`, `start` and `end`, or `web` with its `url`.
fn bedrock_citation<J: Json>(c: &J) -> Citation<J> {
    let cited_text = field(c, "sourceContent")
        .and_then(|s| s.elements())
        .and_then(|list| list.first().and_then(|t| field(t, "text")))
        .map(Out::Given);
    let mut citation = Citation {
        cited_text,
        title: field(c, "title").map(Out::Given),
        source: field(c, "source").map(Out::Given),
        ..Citation::default()
    };
    let location = field(c, "location");
    for (key, unit) in [
        ("documentChar", "char"),
        ("documentPage", "page"),
        ("documentChunk", "block"),
    ] {
        if let Some(at) = location.as_ref().and_then(|l| field(l, key)) {
            citation.document_index = field(&at, "documentIndex").map(Out::Given);
            citation.start_index = field(&at, "start").map(Out::Given);
            citation.end_index = field(&at, "end").map(Out::Given);
            citation.unit = Some(Out::Str(unit));
        }
    }
    if let Some(web) = location.as_ref().and_then(|l| field(l, "web")) {
        citation.url = field(&web, "url").map(Out::Given);
    }
    citation
}
