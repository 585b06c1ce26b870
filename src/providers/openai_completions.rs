//! OpenAI Chat Completions (`openai_completions`, wire-formats.md b.1).
//!
//! Reads a request body `{messages}`, a response `{choices}` (the first choice's message, with its
//! `finish_reason`), one message or a message array. `developer` messages are system messages;
//! consecutive `tool` messages are gathered into one LangChain `tool` message; reasoning from
//! OpenAI-compatible servers (`reasoning_content`, `reasoning_details`, `reasoning`) becomes
//! thinking parts. There is no error flag: results are `is_error: false`.

use super::anthropic::unsupported_role;
use super::{
    block_type, field, object, opt_list, opt_str, read_text, Conversation, Entries, InMessage,
    InPart, LcMessage, LcPart, Out, PartKind, ResultBody, Status, WireProtocol, PAYLOAD,
};
use crate::error::text;
use crate::error::{Error, ErrorCode, Path, Result};
use crate::json::{Json, Kind};
use crate::message::{PartType, Role};
use crate::prelude::*;

const PROTOCOL: WireProtocol = WireProtocol::OpenaiCompletions;

/// `fromProvider("openai_completions", payload)`.
pub fn from_provider<J: Json>(payload: &J) -> Result<Vec<LcMessage<J>>> {
    let mut conversation = Conversation::new(PROTOCOL);
    let root = PAYLOAD;
    match payload.kind() {
        Kind::Array => read_list(&mut conversation, payload, &root)?,
        Kind::Object if payload.get("choices").is_some() => {
            let path = root.key("choices");
            let choices = opt_list(payload, "choices", &root)?.unwrap_or_default();
            let Some(choice) = choices.first() else {
                return Err(Error::new(
                    ErrorCode::InvalidInput,
                    &path,
                    text!("Expected at least one choice at ", path, "."),
                ));
            };
            let choice_path = path.index(0);
            object(choice, &choice_path, "a choice object")?;
            let message_path = choice_path.key("message");
            let message = field(choice, "message")
                .ok_or_else(|| Error::missing(&message_path, "the choice's message"))?;
            read_message(&mut conversation, &message, &message_path)?;
            if let Some(reason) = field(choice, "finish_reason") {
                let status = status_of(reason.as_str().as_deref().unwrap_or_default());
                conversation.stop(status, Some(reason), Vec::new());
            }
        }
        Kind::Object if payload.get("messages").is_some() => {
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
                "a Chat Completions request body ({messages}), a response ({choices}), a message or a message array",
                other,
            ))
        }
    }
    Ok(conversation.finish())
}

/// `finish_reason` → status: `length` is `length`, `content_filter` is `content_filtered`, the
/// rest (`stop`, `tool_calls`, `function_call`) `complete`.
pub fn status_of(reason: &str) -> Status {
    match reason {
        "length" => Status::Length,
        "content_filter" => Status::ContentFiltered,
        _ => Status::Complete,
    }
}

fn read_list<J: Json>(conversation: &mut Conversation<J>, list: &J, path: &Path<'_>) -> Result<()> {
    for (i, message) in list.elements().unwrap_or_default().iter().enumerate() {
        read_message(conversation, message, &path.index(i))?;
    }
    Ok(())
}

fn read_message<J: Json>(
    conversation: &mut Conversation<J>,
    message: &J,
    path: &Path<'_>,
) -> Result<()> {
    object(message, path, "a message object")?;
    let role = field(message, "role");
    match role.as_ref().and_then(|r| r.as_str()).as_deref() {
        Some("system" | "developer") => {
            let parts = content_parts(message, path)?;
            conversation.message(Role::System, parts, Vec::new());
        }
        Some("user") => {
            let parts = content_parts(message, path)?;
            conversation.message(Role::User, parts, Vec::new());
        }
        Some("assistant") => read_assistant(conversation, message, path)?,
        Some("tool") => {
            let id = opt_str(message, "tool_call_id", path)?;
            let content = result_content(message, path)?;
            let result = conversation.result(id, None, content, false, Vec::new());
            conversation.results(vec![result]);
        }
        Some("function") => {
            let name = opt_str(message, "name", path)?;
            let content = result_content(message, path)?;
            let result = conversation.result(None, name, content, false, Vec::new());
            conversation.results(vec![result]);
        }
        _ => {
            return Err(unsupported_role(
                role.as_ref(),
                &path.key("role"),
                "\"system\", \"developer\", \"user\", \"assistant\", \"tool\" or \"function\"",
            ))
        }
    }
    Ok(())
}

fn read_assistant<J: Json>(
    conversation: &mut Conversation<J>,
    message: &J,
    path: &Path<'_>,
) -> Result<()> {
    let mut parts = reasoning(message, path)?;
    parts.extend(content_parts(message, path)?);
    if let Some(refusal) = opt_str(message, "refusal", path)?.filter(|r| !r.is_empty_str()) {
        parts.push(LcPart::text(refusal));
    }
    let mut calls = Vec::new();
    let calls_path = path.key("tool_calls");
    for (i, call) in opt_list(message, "tool_calls", path)?
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let call_path = calls_path.index(i);
        object(call, &call_path, "a tool call object")?;
        let id = opt_str(call, "id", &call_path)?;
        let custom = super::str_of(call, "type").as_deref() == Some("custom");
        let (key, arguments_key) = if custom {
            ("custom", "input")
        } else {
            ("function", "arguments")
        };
        let inner_path = call_path.key(key);
        let inner = field(call, key).ok_or_else(|| Error::missing(&inner_path, "the call"))?;
        object(&inner, &inner_path, "an object")?;
        let name = opt_str(&inner, "name", &inner_path)?;
        let arguments = super::arguments(field(&inner, arguments_key));
        let metadata: Entries<J> = if custom {
            vec![("provider_type", Out::Str("custom"))]
        } else {
            Vec::new()
        };
        calls.push(conversation.call(id, name.map(Out::Given), arguments, metadata));
    }
    if let Some(function_call) = field(message, "function_call") {
        let call_path = path.key("function_call");
        object(&function_call, &call_path, "an object")?;
        let name = opt_str(&function_call, "name", &call_path)?;
        let arguments = super::arguments(field(&function_call, "arguments"));
        calls.push(conversation.call(None, name.map(Out::Given), arguments, Vec::new()));
    }
    conversation.message(Role::Assistant, parts, calls);
    Ok(())
}

/// Reasoning from OpenAI-compatible servers: `reasoning_content` (DeepSeek, vLLM), else
/// `reasoning_details` (OpenRouter: text and summary entries as thinking, encrypted ones as
/// redacted thinking), else `reasoning` (OpenRouter's plain string).
fn reasoning<J: Json>(message: &J, path: &Path<'_>) -> Result<Vec<LcPart<J>>> {
    if let Some(text) = opt_str(message, "reasoning_content", path)?.filter(|t| !t.is_empty_str()) {
        return Ok(vec![LcPart::thinking(Out::Given(text), None)]);
    }
    let details_path = path.key("reasoning_details");
    let details = opt_list(message, "reasoning_details", path)?.unwrap_or_default();
    if !details.is_empty() {
        let mut parts = Vec::new();
        for (i, detail) in details.iter().enumerate() {
            let detail_path = details_path.index(i);
            let (ty, _) = block_type(detail, &detail_path)?;
            match ty.as_str() {
                "reasoning.text" => parts.push(LcPart::thinking(
                    Out::Given(read_text(detail, "text", &detail_path)?),
                    opt_str(detail, "signature", &detail_path)?,
                )),
                "reasoning.summary" => parts.push(LcPart::thinking(
                    Out::Given(read_text(detail, "summary", &detail_path)?),
                    None,
                )),
                "reasoning.encrypted" => {
                    parts.push(LcPart::redacted(opt_str(detail, "data", &detail_path)?))
                }
                _ => {}
            }
        }
        return Ok(parts);
    }
    Ok(opt_str(message, "reasoning", path)?
        .filter(|t| !t.is_empty_str())
        .map(|text| vec![LcPart::thinking(Out::Given(text), None)])
        .unwrap_or_default())
}

/// A message's `content`: a string (one text part, none when empty), an array of parts, or null.
fn content_parts<J: Json>(message: &J, path: &Path<'_>) -> Result<Vec<LcPart<J>>> {
    let content_path = path.key("content");
    match field(message, "content") {
        None => Ok(Vec::new()),
        Some(c) if c.kind() == Kind::String => Ok(if c.is_empty_str() {
            Vec::new()
        } else {
            vec![LcPart::text(c)]
        }),
        Some(c) => match c.elements() {
            Some(list) => list
                .iter()
                .enumerate()
                .map(|(i, p)| part(p, &content_path.index(i)))
                .collect(),
            None => Err(Error::expected(
                &content_path,
                "a string, an array of content parts, or null",
                c.kind(),
            )),
        },
    }
}

/// A `tool` message's content: a string, or text parts.
fn result_content<J: Json>(message: &J, path: &Path<'_>) -> Result<ResultBody<J>> {
    Ok(match field(message, "content") {
        Some(c) if c.kind() == Kind::String => ResultBody::Text(Out::Given(c)),
        _ => ResultBody::Parts(content_parts(message, path)?),
    })
}

/// A content part: `text`, `refusal`, `image_url`, `file`; anything else is kept as its part.
fn part<J: Json>(part: &J, path: &Path<'_>) -> Result<LcPart<J>> {
    let (ty, ty_value) = block_type(part, path)?;
    Ok(match ty.as_str() {
        "text" => LcPart::text(read_text(part, "text", path)?),
        "refusal" => LcPart::text(read_text(part, "refusal", path)?),
        "image_url" => {
            let url = match field(part, "image_url") {
                Some(u) if u.kind() == Kind::String => Some(u),
                Some(u) => opt_str(&u, "url", &path.key("image_url"))?,
                None => None,
            };
            LcPart::new(PartKind::ImageUrl, url.map(Out::Given), Vec::new())
        }
        "file" => {
            let file_path = path.key("file");
            let file = field(part, "file").ok_or_else(|| Error::missing(&file_path, "the file"))?;
            object(&file, &file_path, "a file object")?;
            let mut options: Entries<J> = Vec::new();
            let content = match opt_str(&file, "file_data", &file_path)? {
                Some(data) => Some(data),
                None => {
                    let id = opt_str(&file, "file_id", &file_path)?;
                    if id.is_some() {
                        options.push(("type", Out::Str("file_id")));
                    }
                    id
                }
            };
            if let Some(name) = opt_str(&file, "filename", &file_path)? {
                options.push(("filename", Out::Given(name)));
            }
            LcPart::new(PartKind::File, content.map(Out::Given), options)
        }
        _ => LcPart::raw(Out::Given(ty_value), "part", part.clone()),
    })
}

// ---------------------------------------------------------------------------------------------
// toProvider

/// `toProvider("openai_completions", messages)`: the `messages` array. Each result is its own
/// `tool` message (its text; the format has no error flag). Thinking goes into `reasoning_content`
/// (one plain text) or `reasoning_details` (several, signed or redacted), the fields
/// OpenAI-compatible servers read.
pub fn to_provider<J: Json>(messages: &[InMessage<J>]) -> Result<Out<J>> {
    let mut out = Vec::new();
    for message in messages {
        for result in &message.results {
            out.push(Out::Map(vec![
                ("role", Out::Str("tool")),
                ("tool_call_id", result.id.clone()),
                ("content", result.text()),
            ]));
        }
        match message.role {
            Role::System | Role::User => {
                let role = if message.role == Role::System {
                    "system"
                } else {
                    "user"
                };
                let parts: Vec<Out<J>> = message
                    .parts
                    .iter()
                    .filter_map(|p| content_part(p, message.own, message.role))
                    .collect();
                if let Some(content) = content_value(parts) {
                    out.push(Out::Map(vec![
                        ("role", Out::Str(role)),
                        ("content", content),
                    ]));
                }
            }
            Role::Assistant => {
                let texts: Vec<Out<J>> = message
                    .parts
                    .iter()
                    .filter_map(|p| content_part(p, message.own, Role::Assistant))
                    .collect();
                let mut entries = vec![
                    ("role", Out::Str("assistant")),
                    ("content", content_value(texts).unwrap_or(Out::Null)),
                ];
                let had_content = !matches!(entries.last(), Some((_, Out::Null)));
                let reasoning = reasoning_field(&message.parts);
                let had_reasoning = reasoning.is_some();
                entries.extend(reasoning);
                let mut calls = Vec::new();
                for call in &message.calls {
                    let name = call.name.clone().map_or(Out::Str(""), Out::Given);
                    let custom =
                        message.own && call.meta_str("provider_type").as_deref() == Some("custom");
                    calls.push(Out::Map(if custom {
                        vec![
                            ("id", call.id.clone()),
                            ("type", Out::Str("custom")),
                            (
                                "custom",
                                Out::Map(vec![("name", name), ("input", call.arguments_text()?)]),
                            ),
                        ]
                    } else {
                        vec![
                            ("id", call.id.clone()),
                            ("type", Out::Str("function")),
                            (
                                "function",
                                Out::Map(vec![
                                    ("name", name),
                                    ("arguments", call.arguments_text()?),
                                ]),
                            ),
                        ]
                    }));
                }
                let had_calls = !calls.is_empty();
                if had_calls {
                    entries.push(("tool_calls", Out::List(calls)));
                }
                if had_content || had_reasoning || had_calls {
                    out.push(Out::Map(entries));
                }
            }
            Role::Tool => {}
        }
    }
    Ok(Out::List(out))
}

/// A lone text part as its string, several parts as the array, none as `None`.
fn content_value<J: Json>(mut parts: Vec<Out<J>>) -> Option<Out<J>> {
    if parts.len() == 1 {
        if let Some(Out::Map(entries)) = parts.first() {
            let is_text = entries
                .iter()
                .any(|(k, v)| *k == "type" && matches!(v, Out::Str("text")));
            if let Some((_, text)) = entries
                .iter()
                .find(|(k, _)| *k == "text")
                .filter(|_| is_text)
            {
                return Some(text.clone());
            }
        }
    }
    (!parts.is_empty()).then(|| Out::List(core::mem::take(&mut parts)))
}

/// `reasoning_content` for one plain thinking text; `reasoning_details` when there are several,
/// signed ones or redacted ones.
fn reasoning_field<J: Json>(parts: &[InPart<J>]) -> Option<(&'static str, Out<J>)> {
    let reasoning: Vec<&InPart<J>> = parts
        .iter()
        .filter(|p| {
            (p.kind == PartType::Thinking && p.text().is_some_and(|t| !t.is_empty_str()))
                || p.is_redacted()
        })
        .collect();
    match reasoning.as_slice() {
        [] => None,
        [one] if one.kind == PartType::Thinking && one.option("signature").is_none() => {
            one.text().map(|t| ("reasoning_content", Out::Given(t)))
        }
        many => Some((
            "reasoning_details",
            Out::List(
                many.iter()
                    .map(|p| {
                        if p.kind == PartType::Thinking {
                            let mut entry = vec![
                                ("type", Out::Str("reasoning.text")),
                                ("text", p.text().map_or(Out::Str(""), Out::Given)),
                            ];
                            if let Some(signature) = p.option("signature") {
                                entry.push(("signature", Out::Given(signature)));
                            }
                            Out::Map(entry)
                        } else {
                            Out::Map(vec![
                                ("type", Out::Str("reasoning.encrypted")),
                                ("data", p.text().map_or(Out::Str(""), Out::Given)),
                            ])
                        }
                    })
                    .collect(),
            ),
        )),
    }
}

/// A content part for a message: text for every role; images and files for user messages; parts
/// kept from a Chat Completions payload as they were.
fn content_part<J: Json>(part: &InPart<J>, own: bool, role: Role) -> Option<Out<J>> {
    let text = part.text();
    match part.kind {
        PartType::Text => {
            let text = text.filter(|t| !t.is_empty_str())?;
            Some(Out::Map(vec![
                ("type", Out::Str("text")),
                ("text", Out::Given(text)),
            ]))
        }
        PartType::Unsupported if !part.is_redacted() => part.raw("part", own).map(Out::Given),
        _ if role != Role::User => None,
        PartType::Image if part.option_str("type").as_deref() != Some("file_id") => {
            let data = text?.as_str()?.into_owned();
            let media = super::media_text(part, "image/png");
            Some(image_url(Out::Text(text!(
                "data:", media, ";base64,", data
            ))))
        }
        PartType::ImageUrl => Some(image_url(Out::Given(text?))),
        PartType::File => {
            let data = text?;
            let mut file = Vec::new();
            if part.option_str("type").as_deref() == Some("file_id") {
                file.push(("file_id", Out::Given(data)));
            } else if data.as_str().is_some_and(|d| d.starts_with("data:")) {
                file.push(("file_data", Out::Given(data)));
            } else {
                let media = super::media_text(part, "application/pdf");
                let bytes = data.as_str()?.into_owned();
                file.push((
                    "file_data",
                    Out::Text(text!("data:", media, ";base64,", bytes)),
                ));
            }
            if let Some(name) = part.option("filename") {
                file.push(("filename", Out::Given(name)));
            }
            Some(Out::Map(vec![
                ("type", Out::Str("file")),
                ("file", Out::Map(file)),
            ]))
        }
        _ => None,
    }
}

fn image_url<J>(url: Out<J>) -> Out<J> {
    Out::Map(vec![
        ("type", Out::Str("image_url")),
        ("image_url", Out::Map(vec![("url", url)])),
    ])
}
