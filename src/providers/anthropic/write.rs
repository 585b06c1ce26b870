//! Writing a request (`toProvider`).

use super::Anthropic;
use crate::error::Result;
use crate::json::Json;
use crate::message::{PartType, Role};
use crate::prelude::*;
use crate::providers::{
    media, split_data_url, InContent, InMessage, InPart, InResult, Out, Turns, WriteRequest,
};

impl WriteRequest for Anthropic {
    /// `toProvider("anthropic_messages", messages)`: the `messages` array, or `{system, messages}`
    /// when there are system messages.
    fn write<J: Json>(messages: &[InMessage<J>]) -> Result<Out<J>> {
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
                        let server = own
                            && call.meta_str("provider_type").as_deref() == Some("server_tool_use");
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
fn tool_result_block<J: Json>(result: &InResult<J>) -> Out<J> {
    let mut block = vec![
        ("type", Out::Str("tool_result")),
        ("tool_use_id", result.id.clone()),
    ];
    match &result.content {
        InContent::Text(text) => block.push(("content", Out::Given(text.clone()))),
        InContent::Parts(parts) => {
            block.push(("content", Out::List(blocks(parts, false, Role::User))))
        }
        InContent::None => {}
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
                    ("media_type", media(part, "image/png")),
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
            let source = match url.as_str().as_deref().and_then(split_data_url) {
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
                match data.as_str().as_deref().and_then(split_data_url) {
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
                    ("media_type", media(part, "application/pdf")),
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
