//! Writing a request (`toProvider`).

use super::Anthropic;
use crate::error::Result;
use crate::json::Json;
use crate::message::{PartType, Role};
use crate::prelude::*;
use crate::providers::{
    blocks, content_value, media, split_data_url, turn_list, turns, typed_text, with_system,
    InCall, InContent, InMessage, InPart, InResult, Out, TurnWriter, Turns, WriteRequest,
};

impl WriteRequest for Anthropic {
    /// `toProvider("anthropic_messages", messages)`: the `messages` array, or `{system, messages}`
    /// when there are system messages.
    fn write<J: Json>(messages: &[InMessage<J>]) -> Result<Out<J>> {
        let mut turns = turns::<Self, J>(messages).list;
        // Leading system messages become the top-level `system` (a lone text block as its
        // string); later ones stay in place as `system` messages (mid-conversation system blocks,
        // SDK 0.120).
        let leading = turns.iter().take_while(|t| t.role == Role::System).count();
        let system: Vec<Out<J>> = turns.drain(..leading).flat_map(|t| t.blocks).collect();
        let list = turn_list(turns, "content", Role::as_str);
        let system = content_value(system, None).map(|s| ("system", s));
        Ok(with_system(list, "messages", system))
    }
}

impl TurnWriter for Anthropic {
    const MERGE_ALL: bool = false;
    const SYSTEM_TURNS: bool = true;

    /// A part's content block. Thinking goes back unchanged (`thinking` + `signature`) and redacted
    /// thinking as `redacted_thinking`, in assistant messages only; empty texts are left out (the API
    /// rejects them); blocks kept from an Anthropic payload go back as they were.
    fn block<J: Json>(part: &InPart<J>, own: bool, role: Role) -> Option<Out<J>> {
        let text = part.text();
        match part.kind {
            PartType::Text => Some(typed_text("text", part.nonempty_text()?)),
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

    /// `tool_use`, or `server_tool_use` for a server tool's call from an Anthropic payload.
    fn call<J: Json>(call: &InCall<J>, own: bool) -> Out<J> {
        // An MCP call from an Anthropic payload goes back as its block (`mcp_tool_use`, with its
        // `server_name`).
        if let Some(block) = call
            .meta("block")
            .filter(|_| own && call.meta_str("provider_type").as_deref() == Some("mcp_tool_use"))
        {
            return Out::Given(block);
        }
        let server = own && call.meta_str("provider_type").as_deref() == Some("server_tool_use");
        let ty = if server {
            "server_tool_use"
        } else {
            "tool_use"
        };
        Out::Map(vec![
            ("type", Out::Str(ty)),
            ("id", call.id.clone()),
            ("name", call.name.clone().map_or(Out::Str(""), Out::Given)),
            ("input", call.arguments_object()),
        ])
    }

    /// A `tool_result` block: `{type, tool_use_id, content?, is_error?}` (`is_error` only when
    /// true). A server tool's result from an Anthropic payload goes back as its block, in the
    /// assistant message before it.
    fn result<J: Json>(result: &InResult<J>, own: bool, turns: &mut Turns<J>) -> Option<Out<J>> {
        let raw = result.option("block").filter(|_| {
            own && result
                .option_str("provider_type")
                .is_some_and(|t| t.ends_with("_tool_result"))
        });
        if let (Some(raw), Some(assistant)) = (raw, turns.last_assistant()) {
            assistant.blocks.push(Out::Given(raw));
            return None;
        }
        let mut block = vec![
            ("type", Out::Str("tool_result")),
            ("tool_use_id", result.id.clone()),
        ];
        match &result.content {
            InContent::Text(text) => block.push(("content", Out::Given(text.clone()))),
            InContent::Parts(parts) => block.push((
                "content",
                Out::List(blocks::<Self, J>(parts, false, Role::User)),
            )),
            InContent::None => {}
        }
        if result.is_error {
            block.push(("is_error", Out::Bool(true)));
        }
        Some(Out::Map(block))
    }
}
