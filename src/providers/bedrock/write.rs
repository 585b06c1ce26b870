//! Writing a request (`toProvider`).

use super::{Bedrock, DOCUMENT_MEDIA};
use crate::error::Result;
use crate::json::Json;
use crate::message::{PartType, Role};
use crate::prelude::*;
use crate::providers::{
    blocks, media_text, split_data_url, system_texts, text_blocks, turn_list, turns, with_system,
    InCall, InContent, InMessage, InPart, InResult, Out, TurnWriter, Turns, WriteRequest,
};

impl WriteRequest for Bedrock {
    /// `toProvider("bedrock_converse", messages)`: the `messages` array, or `{system, messages}` when
    /// there are system messages (all of them go to the top-level `system`: Converse has no system
    /// role). Consecutive messages of the same role are merged (Converse requires the roles to
    /// alternate), `toolResult` blocks first in a user message.
    fn write<J: Json>(messages: &[InMessage<J>]) -> Result<Out<J>> {
        let list = turn_list(turns::<Self, J>(messages).list, "content", Role::as_str);
        let system = system_texts(messages);
        let system = (!system.is_empty()).then(|| ("system", Out::List(text_blocks(system))));
        Ok(with_system(list, "messages", system))
    }
}

impl TurnWriter for Bedrock {
    /// A content block for a part. Reasoning goes back as `reasoningContent` (with its signature) in
    /// assistant messages; images and documents need their bytes or an `s3://` location; blocks kept
    /// from a Converse payload go back as they were.
    fn block<J: Json>(part: &InPart<J>, own: bool, role: Role) -> Option<Out<J>> {
        let text = part.text();
        let one = |key: &'static str, value: Out<J>| Some(Out::Map(vec![(key, value)]));
        match part.kind {
            PartType::Text => one("text", Out::Given(part.nonempty_text()?)),
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

    /// `{toolUse: {toolUseId, name, input}}`, with its `type` for a server tool's call from a
    /// Converse payload (`server_tool_use`).
    fn call<J: Json>(call: &InCall<J>, own: bool) -> Out<J> {
        let mut tool_use = vec![
            ("toolUseId", call.id.clone()),
            ("name", call.name.clone().map_or(Out::Str(""), Out::Given)),
            ("input", call.arguments_object()),
        ];
        if let Some(ty) = call.meta("provider_type").filter(|_| own) {
            tool_use.push(("type", Out::Given(ty)));
        }
        Out::Map(vec![("toolUse", Out::Map(tool_use))])
    }

    /// A `toolResult` block: `{toolResult: {toolUseId, content, status?}}` (`status: "error"`
    /// only for errors; the field is optional and only some models take it). A server tool's
    /// result from a Converse payload goes back as its block, in the assistant message before it.
    fn result<J: Json>(result: &InResult<J>, own: bool, turns: &mut Turns<J>) -> Option<Out<J>> {
        let raw = result
            .option("block")
            .filter(|_| own && result.option("provider_type").is_some());
        if let (Some(raw), Some(assistant)) = (raw, turns.last_assistant()) {
            assistant.blocks.push(Out::Given(raw));
            return None;
        }
        let content = match &result.content {
            InContent::Text(text) => text_blocks(vec![text.clone()]),
            InContent::Parts(parts) => blocks::<Self, J>(parts, false, Role::User),
            InContent::None => Vec::new(),
        };
        let mut inner = vec![
            ("toolUseId", result.id.clone()),
            ("content", Out::List(content)),
        ];
        if result.is_error {
            inner.push(("status", Out::Str("error")));
        }
        Some(Out::Map(vec![("toolResult", Out::Map(inner))]))
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
        if let Some((media, data)) = split_data_url(&url) {
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
