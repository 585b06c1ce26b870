//! Writing messages (`toProvider`): `StoredMessage`s, what `mapChatMessagesToStoredMessages`
//! writes and `mapStoredMessagesToChatMessages` reads (docs/formats/langchain-js.md, "2.
//! StoredMessage"), always with `content` (never `content_blocks` alone: "The trap").

use super::LangchainJs;
use crate::error::Result;
use crate::json::Json;
use crate::message::{PartType, Role};
use crate::prelude::*;
use crate::providers::{content_value, media, InMessage, InPart, Out, WriteRequest};

impl WriteRequest for LangchainJs {
    /// `toProvider("langchain_js", messages)`: `[{type, data}]`. A lone text is a string
    /// `content`, anything else v1 content blocks (with `response_metadata.output_version: "v1"`);
    /// calls are `tool_calls` (`{id, name, args, type: "tool_call"}`); each result is its own
    /// `ToolMessage` with `status` `"error"` or `"success"`.
    fn write<J: Json>(messages: &[InMessage<J>]) -> Result<Out<J>> {
        let mut out = Vec::new();
        for message in messages {
            for result in &message.results {
                let mut data = vec![
                    ("content", result.text()),
                    ("tool_call_id", result.id.clone()),
                ];
                if let Some(name) = &result.name {
                    data.push(("name", name.clone()));
                }
                let status = if result.is_error { "error" } else { "success" };
                data.push(("status", Out::Str(status)));
                out.push(stored("tool", data, false));
            }
            let blocks: Vec<Out<J>> = message
                .parts
                .iter()
                .filter_map(|p| block(p, message.own))
                .collect();
            let content = content_value(blocks, Some("text"));
            let v1 = matches!(content, Some(Out::List(_)));
            let content = content.unwrap_or(Out::Str(""));
            match message.role {
                Role::System | Role::User => {
                    let ty = if message.role == Role::System {
                        "system"
                    } else {
                        "human"
                    };
                    out.push(stored(ty, vec![("content", content)], v1));
                }
                Role::Assistant => {
                    let (mut calls, mut invalid) = (Vec::new(), Vec::new());
                    for call in &message.calls {
                        let name = call.name.clone().map_or(Out::Str(""), Out::Given);
                        // A call read from `invalid_tool_calls` goes back there, its args text kept.
                        if call.meta("invalid").and_then(|i| i.as_bool()) == Some(true) {
                            let mut entries = vec![
                                ("id", call.id.clone()),
                                ("name", name),
                                ("args", call.arguments_text()?),
                            ];
                            if let Some(error) = call.meta("error") {
                                entries.push(("error", Out::Given(error)));
                            }
                            entries.push(("type", Out::Str("invalid_tool_call")));
                            invalid.push(Out::Map(entries));
                            continue;
                        }
                        calls.push(Out::Map(vec![
                            ("id", call.id.clone()),
                            ("name", name),
                            ("args", call.arguments_object()),
                            ("type", Out::Str("tool_call")),
                        ]));
                    }
                    let data = vec![
                        ("content", content),
                        ("tool_calls", Out::List(calls)),
                        ("invalid_tool_calls", Out::List(invalid)),
                    ];
                    out.push(stored("ai", data, v1));
                }
                Role::Tool => {}
            }
        }
        Ok(Out::List(out))
    }
}

/// `{type, data: {...data, additional_kwargs: {}, response_metadata: {}}}`, the metadata saying
/// `output_version: "v1"` when the content is v1 blocks.
fn stored<J>(ty: &'static str, mut data: Vec<(&'static str, Out<J>)>, v1: bool) -> Out<J> {
    data.push(("additional_kwargs", Out::empty_map()));
    let metadata = if v1 {
        Out::Map(vec![("output_version", Out::Str("v1"))])
    } else {
        Out::empty_map()
    };
    data.push(("response_metadata", metadata));
    Out::Map(vec![("type", Out::Str(ty)), ("data", Out::Map(data))])
}

/// A part as a v1 content block: text, reasoning, images and files by URL, data or file id;
/// a block kept from a LangChain.js payload as it was.
fn block<J: Json>(part: &InPart<J>, own: bool) -> Option<Out<J>> {
    let by_id = part.option_str("type").as_deref() == Some("file_id");
    let given = |key: &'static str| part.option(key).map(|v| (key, Out::Given(v)));
    let source = |ty: &'static str, key: &'static str| {
        let mut entries = vec![("type", Out::Str(ty)), (key, Out::Given(part.text()?))];
        if key == "data" {
            let default = if ty == "image" {
                "image/png"
            } else {
                "application/pdf"
            };
            entries.push(("mimeType", media(part, default)));
        }
        if ty == "file" {
            if let Some((_, name)) = given("filename") {
                entries.push(("metadata", Out::Map(vec![("filename", name)])));
            }
        }
        Some(Out::Map(entries))
    };
    match part.kind {
        PartType::Text => Some(Out::Map(vec![
            ("type", Out::Str("text")),
            ("text", Out::Given(part.nonempty_text()?)),
        ])),
        PartType::Thinking => {
            let mut entries = vec![
                ("type", Out::Str("reasoning")),
                ("reasoning", Out::Given(part.nonempty_text()?)),
            ];
            entries.extend(given("signature"));
            Some(Out::Map(entries))
        }
        PartType::Image if by_id => source("image", "fileId"),
        PartType::Image => source("image", "data"),
        PartType::ImageUrl => source("image", "url"),
        PartType::File if by_id => source("file", "fileId"),
        PartType::File => source("file", "data"),
        PartType::FileUrl => source("file", "url"),
        PartType::Unsupported => part.raw("block", own).map(Out::Given),
        PartType::Other => None,
    }
}
