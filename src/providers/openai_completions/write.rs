//! Writing a request (`toProvider`).

use super::OpenaiCompletions;
use crate::error::text;
use crate::error::Result;
use crate::json::Json;
use crate::message::{PartType, Role};
use crate::prelude::*;
use crate::providers::{
    content_value, media_text, role_message, typed_text, InMessage, InPart, Out, WriteRequest,
};

impl WriteRequest for OpenaiCompletions {
    /// `toProvider("openai_completions", messages)`: the `messages` array. Each result is its own
    /// `tool` message (its text; the format has no error flag). Thinking goes into `reasoning_content`
    /// (one plain text) or `reasoning_details` (several, signed or redacted), the fields
    /// OpenAI-compatible servers read.
    fn write<J: Json>(messages: &[InMessage<J>]) -> Result<Out<J>> {
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
                    let parts = message.parts.iter();
                    let parts = parts.filter_map(|p| content_part(p, message.own, message.role));
                    out.extend(role_message(message.role, parts.collect(), "text"));
                }
                Role::Assistant => {
                    let texts: Vec<Out<J>> = message
                        .parts
                        .iter()
                        .filter_map(|p| content_part(p, message.own, Role::Assistant))
                        .collect();
                    let mut entries = vec![
                        ("role", Out::Str("assistant")),
                        (
                            "content",
                            content_value(texts, Some("text")).unwrap_or(Out::Null),
                        ),
                    ];
                    let had_content = !matches!(entries.last(), Some((_, Out::Null)));
                    let reasoning = reasoning_field(&message.parts);
                    let had_reasoning = reasoning.is_some();
                    entries.extend(reasoning);
                    let mut calls = Vec::new();
                    for call in &message.calls {
                        let name = call.name.clone().map_or(Out::Str(""), Out::Given);
                        let custom = message.own
                            && call.meta_str("provider_type").as_deref() == Some("custom");
                        calls.push(Out::Map(if custom {
                            vec![
                                ("id", call.id.clone()),
                                ("type", Out::Str("custom")),
                                (
                                    "custom",
                                    Out::Map(vec![
                                        ("name", name),
                                        ("input", call.arguments_text()?),
                                    ]),
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
        PartType::Text => Some(typed_text("text", part.nonempty_text()?)),
        PartType::Unsupported if !part.is_redacted() => part.raw("part", own).map(Out::Given),
        _ if role != Role::User => None,
        PartType::Image if part.option_str("type").as_deref() != Some("file_id") => {
            let data = text?.as_str()?.into_owned();
            let media = media_text(part, "image/png");
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
                let media = media_text(part, "application/pdf");
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
