//! AWS Bedrock Converse (`bedrock_converse`, wire-formats.md b.5).
//!
//! Reads a request body `{system?, messages}`, a response `{output: {message}, stopReason}`, one
//! message or a message array. Content blocks are one-key unions (`{text}`, `{toolUse}`,
//! `{toolResult}`, `{reasoningContent}`, ...). User messages holding `toolResult` blocks are split
//! into `tool` messages and user messages, in order; `status: "error"` is `is_error`.

use super::anthropic::unsupported_role;
use super::{
    compact_json, field, media_text, object, opt_str, str_of, Conversation, Entries, InMessage,
    InPart, LcMessage, LcPart, LcResult, Out, PartKind, ResultBody, Status, Turns, WireProtocol,
    PAYLOAD,
};
use crate::error::text;
use crate::error::{Error, ErrorCode, Path, Result};
use crate::json::{Json, Kind};
use crate::message::{PartType, Role};
use crate::prelude::*;

const PROTOCOL: WireProtocol = WireProtocol::BedrockConverse;

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

/// Document formats and their media types.
const DOCUMENT_MEDIA: [(&str, &str); 9] = [
    ("pdf", "application/pdf"),
    ("csv", "text/csv"),
    ("doc", "application/msword"),
    (
        "docx",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ),
    ("xls", "application/vnd.ms-excel"),
    (
        "xlsx",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ),
    ("html", "text/html"),
    ("txt", "text/plain"),
    ("md", "text/markdown"),
];

/// `fromProvider("bedrock_converse", payload)`.
pub fn from_provider<J: Json>(payload: &J) -> Result<Vec<LcMessage<J>>> {
    let mut conversation = Conversation::new(PROTOCOL);
    let root = PAYLOAD;
    match payload.kind() {
        Kind::Array => read_list(&mut conversation, payload, &root)?,
        Kind::Object if payload.get("output").is_some() => {
            let output_path = root.key("output");
            let output = field(payload, "output")
                .ok_or_else(|| Error::missing(&output_path, "the output"))?;
            object(&output, &output_path, "an output object")?;
            let message_path = output_path.key("message");
            let message = field(&output, "message")
                .ok_or_else(|| Error::missing(&message_path, "the output message"))?;
            read_message(&mut conversation, &message, &message_path)?;
            if let Some(reason) = field(payload, "stopReason") {
                let status = status_of(reason.as_str().as_deref().unwrap_or_default());
                conversation.stop(status, Some(reason), Vec::new());
            }
        }
        Kind::Object if payload.get("messages").is_some() => {
            if let Some(system) = field(payload, "system") {
                read_system(&mut conversation, &system, &root.key("system"))?;
            }
            let path = root.key("messages");
            match field(payload, "messages") {
                Some(list) if list.kind() == Kind::Array => {
                    read_list(&mut conversation, &list, &path)?
                }
                other => {
                    return Err(Error::expected(
                        &path,
                        "an array",
                        other.map_or(Kind::Null, |o| o.kind()),
                    ))
                }
            }
        }
        Kind::Object if payload.get("role").is_some() => {
            read_message(&mut conversation, payload, &root)?
        }
        other => {
            return Err(Error::expected(
                &root,
                "a Converse request body ({messages}), a response ({output: {message}}), a message or a message array",
                other,
            ))
        }
    }
    Ok(conversation.finish())
}

/// `stopReason` → status: `max_tokens` and `model_context_window_exceeded` are `length`,
/// `guardrail_intervened` and `content_filtered` are `content_filtered`, the rest (`end_turn`,
/// `tool_use`, `stop_sequence`, ...) `complete`.
pub fn status_of(reason: &str) -> Status {
    match reason {
        "max_tokens" | "model_context_window_exceeded" => Status::Length,
        "guardrail_intervened" | "content_filtered" => Status::ContentFiltered,
        _ => Status::Complete,
    }
}

fn read_list<J: Json>(conversation: &mut Conversation<J>, list: &J, path: &Path<'_>) -> Result<()> {
    for (i, message) in list.elements().unwrap_or_default().iter().enumerate() {
        read_message(conversation, message, &path.index(i))?;
    }
    Ok(())
}

/// The top-level `system` array: its text blocks as one system message (cache points and guard
/// content are left out).
fn read_system<J: Json>(
    conversation: &mut Conversation<J>,
    system: &J,
    path: &Path<'_>,
) -> Result<()> {
    let blocks = system
        .elements()
        .ok_or_else(|| Error::expected(path, "an array of system blocks", system.kind()))?;
    let mut parts = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        let path = path.index(i);
        object(block, &path, "a system block object")?;
        if let Some(text) = opt_str(block, "text", &path)? {
            parts.push(LcPart::text(text));
        }
    }
    if !parts.is_empty() {
        conversation.message(Role::System, parts, Vec::new());
    }
    Ok(())
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

fn read_message<J: Json>(
    conversation: &mut Conversation<J>,
    message: &J,
    path: &Path<'_>,
) -> Result<()> {
    object(message, path, "a message object")?;
    let role_value = field(message, "role");
    let role = match role_value.as_ref().and_then(|r| r.as_str()).as_deref() {
        Some("user") => Role::User,
        Some("assistant") => Role::Assistant,
        _ => {
            return Err(unsupported_role(
                role_value.as_ref(),
                &path.key("role"),
                "\"user\" or \"assistant\"",
            ))
        }
    };
    let content_path = path.key("content");
    let blocks = match field(message, "content") {
        None => Vec::new(),
        Some(c) if c.kind() == Kind::String => vec![c],
        Some(c) => c.elements().ok_or_else(|| {
            Error::expected(&content_path, "an array of content blocks", c.kind())
        })?,
    };
    let mut parts = Vec::new();
    let mut calls = Vec::new();
    let mut results = Vec::new();
    let mut pushed = false;
    for (i, block) in blocks.iter().enumerate() {
        let path = content_path.index(i);
        if block.kind() == Kind::String {
            if !block.is_empty_str() {
                parts.push(LcPart::text(block.clone()));
            }
            continue;
        }
        let (key, value) = block_key(block, &path)?;
        let inner_path = path.key(&key);
        match key.as_str() {
            "toolResult" if role == Role::User => {
                if !parts.is_empty() {
                    conversation.message(role, core::mem::take(&mut parts), Vec::new());
                    pushed = true;
                }
                results.push(tool_result(conversation, &value, &inner_path)?);
            }
            "toolUse" if role == Role::Assistant => {
                object(&value, &inner_path, "a toolUse object")?;
                let id = opt_str(&value, "toolUseId", &inner_path)?;
                let name = opt_str(&value, "name", &inner_path)?;
                let arguments = super::arguments(field(&value, "input"));
                calls.push(conversation.call(id, name.map(Out::Given), arguments, Vec::new()));
            }
            _ => {
                if !results.is_empty() {
                    conversation.results(core::mem::take(&mut results));
                    pushed = true;
                }
                parts.extend(content_parts(block, &key, &value, &inner_path)?);
            }
        }
    }
    if !results.is_empty() {
        conversation.results(results);
    } else if !parts.is_empty() || !calls.is_empty() || !pushed {
        conversation.message(role, parts, calls);
    }
    Ok(())
}

/// A `toolResult`: its content blocks (`json` as its compact JSON text), `status: "error"` as
/// `is_error`.
fn tool_result<J: Json>(
    conversation: &mut Conversation<J>,
    value: &J,
    path: &Path<'_>,
) -> Result<LcResult<J>> {
    object(value, path, "a toolResult object")?;
    let id = opt_str(value, "toolUseId", path)?;
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
                parts.extend(content_parts(block, &key, &inner, &path.key(&key))?);
            }
        }
    }
    let is_error = str_of(value, "status").as_deref() == Some("error");
    Ok(conversation.result(id, None, ResultBody::Parts(parts), is_error, Vec::new()))
}

/// The parts of a content block (`key` is its one key, `value` what it holds).
fn content_parts<J: Json>(
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

// ---------------------------------------------------------------------------------------------
// toProvider

/// `toProvider("bedrock_converse", messages)`: the `messages` array, or `{system, messages}` when
/// there are system messages (all of them go to the top-level `system`: Converse has no system
/// role). Consecutive messages of the same role are merged (Converse requires the roles to
/// alternate), `toolResult` blocks first in a user message.
pub fn to_provider<J: Json>(messages: &[InMessage<J>]) -> Result<Out<J>> {
    let mut turns = Turns::new(true);
    for message in messages {
        let own = message.own;
        let results: Vec<Out<J>> = message.results.iter().map(tool_result_block).collect();
        match message.role {
            Role::System => {}
            Role::User | Role::Tool => {
                let blocks = if message.role == Role::User {
                    blocks(&message.parts, own, Role::User)
                } else {
                    Vec::new()
                };
                turns.user(results, blocks);
            }
            Role::Assistant => {
                let mut content = blocks(&message.parts, own, Role::Assistant);
                for call in &message.calls {
                    content.push(Out::Map(vec![(
                        "toolUse",
                        Out::Map(vec![
                            ("toolUseId", call.id.clone()),
                            ("name", call.name.clone().map_or(Out::Str(""), Out::Given)),
                            ("input", call.arguments_object()),
                        ]),
                    )]));
                }
                turns.push(Role::Assistant, content);
                turns.user(results, Vec::new());
            }
        }
    }
    let list = Out::List(
        turns
            .list
            .into_iter()
            .map(|turn| {
                Out::Map(vec![
                    ("role", Out::Str(turn.role.as_str())),
                    ("content", Out::List(turn.content())),
                ])
            })
            .collect(),
    );
    let system = super::system_texts(messages);
    Ok(if system.is_empty() {
        list
    } else {
        Out::Map(vec![
            (
                "system",
                Out::List(
                    system
                        .into_iter()
                        .map(|t| Out::Map(vec![("text", Out::Given(t))]))
                        .collect(),
                ),
            ),
            ("messages", list),
        ])
    })
}

/// A `toolResult` block: `{toolResult: {toolUseId, content, status?}}` (`status: "error"` only
/// for errors; the field is optional and only some models take it).
fn tool_result_block<J: Json>(result: &super::InResult<J>) -> Out<J> {
    let content = match &result.content {
        super::InContent::Text(text) => vec![Out::Map(vec![("text", Out::Given(text.clone()))])],
        super::InContent::Parts(parts) => blocks(parts, false, Role::User),
        super::InContent::None => Vec::new(),
    };
    let mut inner = vec![
        ("toolUseId", result.id.clone()),
        ("content", Out::List(content)),
    ];
    if result.is_error {
        inner.push(("status", Out::Str("error")));
    }
    Out::Map(vec![("toolResult", Out::Map(inner))])
}

fn blocks<J: Json>(parts: &[InPart<J>], own: bool, role: Role) -> Vec<Out<J>> {
    parts
        .iter()
        .filter_map(|part| block(part, own, role))
        .collect()
}

/// A content block for a part. Reasoning goes back as `reasoningContent` (with its signature) in
/// assistant messages; images and documents need their bytes or an `s3://` location; blocks kept
/// from a Converse payload go back as they were.
fn block<J: Json>(part: &InPart<J>, own: bool, role: Role) -> Option<Out<J>> {
    let text = part.text();
    let one = |key: &'static str, value: Out<J>| Some(Out::Map(vec![(key, value)]));
    match part.kind {
        PartType::Text => one("text", Out::Given(text.filter(|t| !t.is_empty_str())?)),
        PartType::Thinking if role == Role::Assistant => {
            let signature = part.option("signature");
            if text.as_ref().is_none_or(|t| t.is_empty_str()) && signature.is_none() {
                return None;
            }
            let mut reasoning = vec![("text", text.map_or(Out::Str(""), Out::Given))];
            if let Some(signature) = signature {
                reasoning.push(("signature", Out::Given(signature)));
            }
            one(
                "reasoningContent",
                Out::Map(vec![("reasoningText", Out::Map(reasoning))]),
            )
        }
        PartType::Unsupported if part.is_redacted() => (role == Role::Assistant).then(|| {
            Out::Map(vec![(
                "reasoningContent",
                Out::Map(vec![(
                    "redactedContent",
                    text.map_or(Out::Str(""), Out::Given),
                )]),
            )])
        }),
        PartType::Unsupported => part.raw("block", own).map(Out::Given),
        PartType::Image | PartType::ImageUrl | PartType::File | PartType::FileUrl => {
            media_block(part, text?)
        }
        _ => None,
    }
}

/// An `image` or `document` block: base64 bytes (a data URL is split), or an `s3://` location.
fn media_block<J: Json>(part: &InPart<J>, content: J) -> Option<Out<J>> {
    if part.option_str("type").as_deref() == Some("file_id") {
        return None;
    }
    let is_url = matches!(part.kind, PartType::ImageUrl | PartType::FileUrl);
    let image = matches!(part.kind, PartType::Image | PartType::ImageUrl);
    let url = content.as_str().map(|s| s.into_owned()).unwrap_or_default();
    let (media, source) = if is_url {
        if let Some((media, data)) = super::split_data_url(&url) {
            (media, Out::Map(vec![("bytes", Out::Text(data))]))
        } else if url.starts_with("s3://") {
            (
                media_text(
                    part,
                    if image {
                        "image/png"
                    } else {
                        "application/pdf"
                    },
                ),
                Out::Map(vec![(
                    "s3Location",
                    Out::Map(vec![("uri", Out::Given(content))]),
                )]),
            )
        } else {
            return None;
        }
    } else {
        (
            media_text(
                part,
                if image {
                    "image/png"
                } else {
                    "application/pdf"
                },
            ),
            Out::Map(vec![("bytes", Out::Given(content))]),
        )
    };
    let format = format_of(&media, image);
    Some(if image {
        Out::Map(vec![(
            "image",
            Out::Map(vec![("format", Out::Text(format)), ("source", source)]),
        )])
    } else {
        let name = part
            .option("filename")
            .map_or(Out::Str("document"), Out::Given);
        Out::Map(vec![(
            "document",
            Out::Map(vec![
                ("format", Out::Text(format)),
                ("name", name),
                ("source", source),
            ]),
        )])
    })
}

/// A Converse `format` for a media type: `image/png` → `png`, `application/pdf` → `pdf`.
fn format_of(media: &str, image: bool) -> String {
    if image {
        return media.strip_prefix("image/").unwrap_or(media).to_string();
    }
    DOCUMENT_MEDIA
        .iter()
        .find(|(_, m)| *m == media)
        .map(|(f, _)| f.to_string())
        .unwrap_or_else(|| media.rsplit('/').next().unwrap_or(media).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_and_media_types_map_both_ways() {
        for (format, media) in DOCUMENT_MEDIA {
            assert_eq!(format_of(media, false), format);
        }
        assert_eq!(format_of("image/jpeg", true), "jpeg");
        assert_eq!(format_of("application/x-thing", false), "x-thing");
    }
}
