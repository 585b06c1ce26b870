//! Anthropic Messages (`anthropic_messages`, wire-formats.md b.3).
//!
//! Reads a request body `{system?, messages}`, a response (one assistant message with
//! `stop_reason`), one message or a message array. User messages that hold `tool_result` blocks
//! are split into `tool` messages (consecutive results gathered) and user messages, in order.
//! Server tools (`server_tool_use` and the `*_tool_result` blocks) become tool calls and results,
//! the results in a `tool` message after the assistant message, each keeping its block for
//! `toProvider` to pass back unchanged.

use super::{
    block_type, compact_json, field, object, opt_str, read_text, Conversation, Entries, InMessage,
    InPart, LcMessage, LcPart, Out, PartKind, ResultBody, Status, Turns, WireProtocol, PAYLOAD,
};
use crate::error::text;
use crate::error::{Error, ErrorCode, Path, Result};
use crate::json::{Json, Kind};
use crate::message::{PartType, Role};
use crate::prelude::*;

const PROTOCOL: WireProtocol = WireProtocol::AnthropicMessages;

/// `fromProvider("anthropic_messages", payload)`.
pub fn from_provider<J: Json>(payload: &J) -> Result<Vec<LcMessage<J>>> {
    let mut conversation = Conversation::new(PROTOCOL);
    let root = PAYLOAD;
    match payload.kind() {
        Kind::Array => read_list(&mut conversation, payload, &root)?,
        Kind::Object if payload.get("messages").is_some() => {
            if let Some(system) = field(payload, "system") {
                read_system(&mut conversation, &system, &root.key("system"))?;
            }
            let path = root.key("messages");
            match field(payload, "messages") {
                Some(list) if list.kind() == Kind::Array => {
                    read_list(&mut conversation, &list, &path)?
                }
                Some(other) => return Err(Error::expected(&path, "an array", other.kind())),
                None => return Err(Error::expected(&path, "an array", Kind::Null)),
            }
        }
        Kind::Object if payload.get("role").is_some() => {
            read_message(&mut conversation, payload, &root)?;
            if let Some(reason) = field(payload, "stop_reason") {
                let status = status_of(reason.as_str().as_deref().unwrap_or_default());
                let details: Entries<J> = field(payload, "stop_details")
                    .map(|d| vec![("stop_details", Out::Given(d))])
                    .unwrap_or_default();
                conversation.stop(status, Some(reason), details);
            }
        }
        other => {
            return Err(Error::expected(
                &root,
                "an Anthropic request body ({messages}), a response or message ({role, content}), or a message array",
                other,
            ))
        }
    }
    Ok(conversation.finish())
}

/// `stop_reason` → status: `max_tokens` and `model_context_window_exceeded` are `length`,
/// `refusal` is `content_filtered`, the rest (`end_turn`, `tool_use`, `stop_sequence`,
/// `pause_turn`, ...) `complete`.
pub fn status_of(reason: &str) -> Status {
    match reason {
        "max_tokens" | "model_context_window_exceeded" => Status::Length,
        "refusal" => Status::ContentFiltered,
        _ => Status::Complete,
    }
}

fn read_list<J: Json>(conversation: &mut Conversation<J>, list: &J, path: &Path<'_>) -> Result<()> {
    for (i, message) in list.elements().unwrap_or_default().iter().enumerate() {
        read_message(conversation, message, &path.index(i))?;
    }
    Ok(())
}

/// The top-level `system`: a string or an array of text blocks, as one system message.
fn read_system<J: Json>(
    conversation: &mut Conversation<J>,
    system: &J,
    path: &Path<'_>,
) -> Result<()> {
    let parts = match system.kind() {
        Kind::String if system.is_empty_str() => Vec::new(),
        Kind::String => vec![LcPart::text(system.clone())],
        Kind::Array => {
            let mut parts = Vec::new();
            for (i, block) in system.elements().unwrap_or_default().iter().enumerate() {
                let path = path.index(i);
                let (ty, ty_value) = block_type(block, &path)?;
                parts.push(part(block, &ty, ty_value, &path)?);
            }
            parts
        }
        other => {
            return Err(Error::expected(
                path,
                "a string or an array of text blocks",
                other,
            ))
        }
    };
    if !parts.is_empty() {
        conversation.message(Role::System, parts, Vec::new());
    }
    Ok(())
}

fn role_of<J: Json>(message: &J, path: &Path<'_>) -> Result<Role> {
    object(message, path, "a message object")?;
    let role = field(message, "role");
    match role.as_ref().and_then(|r| r.as_str()).as_deref() {
        Some("user") => Ok(Role::User),
        Some("assistant") => Ok(Role::Assistant),
        Some("system") => Ok(Role::System),
        _ => Err(unsupported_role(
            role.as_ref(),
            &path.key("role"),
            "\"user\", \"assistant\" or \"system\"",
        )),
    }
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

/// A message's `content`: a string, an array of blocks, or null.
fn blocks_of<J: Json>(message: &J, path: &Path<'_>) -> Result<Vec<J>> {
    match field(message, "content") {
        None => Ok(Vec::new()),
        Some(c) if c.kind() == Kind::String => Ok(vec![c]),
        Some(c) => c.elements().ok_or_else(|| {
            Error::expected(
                &path.key("content"),
                "a string or an array of content blocks",
                c.kind(),
            )
        }),
    }
}

fn read_message<J: Json>(
    conversation: &mut Conversation<J>,
    message: &J,
    path: &Path<'_>,
) -> Result<()> {
    let role = role_of(message, path)?;
    let content_path = path.key("content");
    let blocks = blocks_of(message, path)?;
    let mut parts = Vec::new();
    let mut calls = Vec::new();
    let mut results = Vec::new();
    let mut server_results = Vec::new();
    let mut pushed = false;
    for (i, block) in blocks.iter().enumerate() {
        let path = content_path.index(i);
        if block.kind() == Kind::String {
            if !block.is_empty_str() {
                parts.push(LcPart::text(block.clone()));
            }
            continue;
        }
        let (ty, ty_value) = block_type(block, &path)?;
        match ty.as_str() {
            "tool_result" if role != Role::Assistant => {
                if !parts.is_empty() {
                    conversation.message(role, core::mem::take(&mut parts), Vec::new());
                    pushed = true;
                }
                results.push(tool_result(conversation, block, &path)?);
            }
            "tool_use" | "server_tool_use" if role == Role::Assistant => {
                let id = opt_str(block, "id", &path)?;
                let name = opt_str(block, "name", &path)?;
                let metadata: Entries<J> = if ty == "server_tool_use" {
                    vec![("provider_type", Out::Given(ty_value))]
                } else {
                    Vec::new()
                };
                let arguments = super::arguments(field(block, "input"));
                calls.push(conversation.call(id, name.map(Out::Given), arguments, metadata));
            }
            t if role == Role::Assistant && t.ends_with("_tool_result") => {
                server_results.push(server_result(conversation, block, ty_value, &path)?);
            }
            _ => {
                if !results.is_empty() {
                    conversation.results(core::mem::take(&mut results));
                    pushed = true;
                }
                parts.push(part(block, &ty, ty_value, &path)?);
            }
        }
    }
    if !results.is_empty() {
        conversation.results(results);
    } else if !parts.is_empty() || !calls.is_empty() || !pushed {
        conversation.message(role, parts, calls);
    }
    conversation.results(server_results);
    Ok(())
}

/// A `tool_result` block.
fn tool_result<J: Json>(
    conversation: &mut Conversation<J>,
    block: &J,
    path: &Path<'_>,
) -> Result<super::LcResult<J>> {
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
    Ok(conversation.result(id, None, content, is_error, Vec::new()))
}

/// A server tool's result block (`web_search_tool_result`, `code_execution_tool_result`, ...):
/// a string content as it is; a list as one text part per element (its `text`, else its `url`);
/// an error object (`type` ending in `_error`) as its `error_code` with `is_error: true`; any other
/// value as its compact JSON text.
fn server_result<J: Json>(
    conversation: &mut Conversation<J>,
    block: &J,
    ty: J,
    path: &Path<'_>,
) -> Result<super::LcResult<J>> {
    let id = opt_str(block, "tool_use_id", path)?;
    let content_path = path.key("content");
    let (content, is_error) = match field(block, "content") {
        None => (ResultBody::Text(Out::Str("")), false),
        Some(c) if c.kind() == Kind::String => (ResultBody::Text(Out::Given(c)), false),
        Some(c) if c.kind() == Kind::Array => {
            let parts = c
                .elements()
                .unwrap_or_default()
                .iter()
                .filter_map(|e| {
                    field(e, "text")
                        .or_else(|| field(e, "url"))
                        .filter(|t| t.kind() == Kind::String)
                })
                .map(LcPart::text)
                .collect();
            (ResultBody::Parts(parts), false)
        }
        Some(c) => {
            let error = super::str_of(&c, "type").is_some_and(|t| t.ends_with("_error"));
            match field(&c, "error_code").filter(|_| error) {
                Some(code) if code.kind() == Kind::String => {
                    (ResultBody::Text(Out::Given(code)), true)
                }
                _ => (
                    ResultBody::Text(Out::Text(compact_json(&c, &content_path)?)),
                    error,
                ),
            }
        }
    };
    let options = vec![
        ("provider_type", Out::Given(ty)),
        ("block", Out::Given(block.clone())),
    ];
    Ok(conversation.result(id, None, content, is_error, options))
}

/// A content block as a LangChain part. `ty` is the block's type (already read).
fn part<J: Json>(block: &J, ty: &str, ty_value: J, path: &Path<'_>) -> Result<LcPart<J>> {
    Ok(match ty {
        "text" => LcPart::text(read_text(block, "text", path)?),
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
    Ok(super::str_of(&source, "type"))
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

// ---------------------------------------------------------------------------------------------
// toProvider

/// `toProvider("anthropic_messages", messages)`: the `messages` array, or `{system, messages}`
/// when there are system messages.
pub fn to_provider<J: Json>(messages: &[InMessage<J>]) -> Result<Out<J>> {
    let mut turns = Turns::new(false);
    for message in messages {
        let own = message.own;
        let mut results = Vec::new();
        for result in &message.results {
            let raw = result.option("block").filter(|_| {
                own && result
                    .option_str("provider_type")
                    .is_some_and(|t| t.ends_with("_tool_result"))
            });
            match (raw, turns.last_assistant()) {
                (Some(raw), Some(assistant)) => assistant.blocks.push(Out::Given(raw)),
                _ => results.push(tool_result_block(result)),
            }
        }
        match message.role {
            Role::System => {
                turns.push(Role::System, blocks(&message.parts, own, Role::System));
            }
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
                    let server =
                        own && call.meta_str("provider_type").as_deref() == Some("server_tool_use");
                    content.push(Out::Map(vec![
                        (
                            "type",
                            Out::Str(if server {
                                "server_tool_use"
                            } else {
                                "tool_use"
                            }),
                        ),
                        ("id", call.id.clone()),
                        ("name", call.name.clone().map_or(Out::Str(""), Out::Given)),
                        ("input", call.arguments_object()),
                    ]));
                }
                turns.push(Role::Assistant, content);
                turns.user(results, Vec::new());
            }
        }
    }
    let mut system = Vec::new();
    let mut list = Vec::new();
    for turn in turns.list {
        match turn.role {
            // Leading system messages become the top-level `system`; later ones stay in place as
            // `system` messages (mid-conversation system blocks, SDK 0.120).
            Role::System if list.is_empty() => system.extend(turn.blocks),
            role => list.push(Out::Map(vec![
                ("role", Out::Str(role.as_str())),
                ("content", Out::List(turn.content())),
            ])),
        }
    }
    let list = Out::List(list);
    Ok(match system.len() {
        0 => list,
        _ => Out::Map(vec![("system", system_value(system)), ("messages", list)]),
    })
}

/// The top-level `system`: a lone text block as its string, several as the block array.
fn system_value<J: Json>(mut blocks: Vec<Out<J>>) -> Out<J> {
    if blocks.len() == 1 {
        if let Some(Out::Map(entries)) = blocks.first() {
            if let Some((_, text)) = entries.iter().find(|(k, _)| *k == "text") {
                return text.clone();
            }
        }
    }
    Out::List(core::mem::take(&mut blocks))
}

/// A `tool_result` block: `{type, tool_use_id, content?, is_error?}` (`is_error` only when true).
fn tool_result_block<J: Json>(result: &super::InResult<J>) -> Out<J> {
    let mut block = vec![
        ("type", Out::Str("tool_result")),
        ("tool_use_id", result.id.clone()),
    ];
    match &result.content {
        super::InContent::Text(text) => block.push(("content", Out::Given(text.clone()))),
        super::InContent::Parts(parts) => {
            block.push(("content", Out::List(blocks(parts, false, Role::User))))
        }
        super::InContent::None => {}
    }
    if result.is_error {
        block.push(("is_error", Out::Bool(true)));
    }
    Out::Map(block)
}

/// Content blocks for parts. Thinking goes back unchanged (`thinking` + `signature`) and redacted
/// thinking as `redacted_thinking`, in assistant messages only; empty texts are left out (the API
/// rejects them); blocks kept from an Anthropic payload go back as they were.
fn blocks<J: Json>(parts: &[InPart<J>], own: bool, role: Role) -> Vec<Out<J>> {
    parts
        .iter()
        .filter_map(|part| block(part, own, role))
        .collect()
}

fn block<J: Json>(part: &InPart<J>, own: bool, role: Role) -> Option<Out<J>> {
    let text = part.text();
    match part.kind {
        PartType::Text => {
            let text = text.filter(|t| !t.is_empty_str())?;
            Some(Out::Map(vec![
                ("type", Out::Str("text")),
                ("text", Out::Given(text)),
            ]))
        }
        PartType::Thinking if role == Role::Assistant => {
            let signature = part.option("signature");
            let text = text.filter(|t| !t.is_empty_str() || signature.is_some());
            if text.is_none() && signature.is_none() {
                return None;
            }
            let mut block = vec![
                ("type", Out::Str("thinking")),
                ("thinking", text.map_or(Out::Str(""), Out::Given)),
            ];
            if let Some(signature) = signature {
                block.push(("signature", Out::Given(signature)));
            }
            Some(Out::Map(block))
        }
        PartType::Unsupported if part.is_redacted() => (role == Role::Assistant).then(|| {
            Out::Map(vec![
                ("type", Out::Str("redacted_thinking")),
                ("data", text.map_or(Out::Str(""), Out::Given)),
            ])
        }),
        PartType::Unsupported => part.raw("block", own).map(Out::Given),
        PartType::Image => {
            let data = text?;
            let source = if part.option_str("type").as_deref() == Some("file_id") {
                vec![("type", Out::Str("file")), ("file_id", Out::Given(data))]
            } else {
                vec![
                    ("type", Out::Str("base64")),
                    ("media_type", super::media(part, "image/png")),
                    ("data", Out::Given(data)),
                ]
            };
            Some(Out::Map(vec![
                ("type", Out::Str("image")),
                ("source", Out::Map(source)),
            ]))
        }
        PartType::ImageUrl => {
            let url = text?;
            let source = match url.as_str().as_deref().and_then(super::split_data_url) {
                Some((media, data)) => vec![
                    ("type", Out::Str("base64")),
                    ("media_type", Out::Text(media)),
                    ("data", Out::Text(data)),
                ],
                None => vec![("type", Out::Str("url")), ("url", Out::Given(url))],
            };
            Some(Out::Map(vec![
                ("type", Out::Str("image")),
                ("source", Out::Map(source)),
            ]))
        }
        PartType::File | PartType::FileUrl => {
            let data = text?;
            let source = if part.kind == PartType::FileUrl {
                match data.as_str().as_deref().and_then(super::split_data_url) {
                    Some((media, bytes)) => vec![
                        ("type", Out::Str("base64")),
                        ("media_type", Out::Text(media)),
                        ("data", Out::Text(bytes)),
                    ],
                    None => vec![("type", Out::Str("url")), ("url", Out::Given(data))],
                }
            } else if part.option_str("type").as_deref() == Some("file_id") {
                vec![("type", Out::Str("file")), ("file_id", Out::Given(data))]
            } else {
                vec![
                    ("type", Out::Str("base64")),
                    ("media_type", super::media(part, "application/pdf")),
                    ("data", Out::Given(data)),
                ]
            };
            let mut block = vec![("type", Out::Str("document")), ("source", Out::Map(source))];
            if let Some(title) = part.option("filename") {
                block.push(("title", Out::Given(title)));
            }
            Some(Out::Map(block))
        }
        _ => None,
    }
}
