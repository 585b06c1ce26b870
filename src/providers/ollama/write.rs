//! Writing a request (`toProvider`).

use super::Ollama;
use crate::error::Result;
use crate::json::Json;
use crate::message::{PartType, Role};
use crate::prelude::*;
use crate::providers::{split_data_url, InMessage, InPart, Out, WriteRequest};

impl WriteRequest for Ollama {
    /// `toProvider("ollama", messages)`: the `messages` array of a `/api/chat` request. A
    /// message's texts are joined into its `content` string (`"\n"` between them); its base64
    /// images (and `data:` URLs) go in `images`; an assistant's thinking in `thinking`, its calls in
    /// `tool_calls` with their arguments as an object and their ids unless made up. Each result is
    /// a `tool` message with its text, `tool_name` and `tool_call_id` (the format has no error
    /// flag).
    fn write<J: Json>(messages: &[InMessage<J>]) -> Result<Out<J>> {
        let mut out = Vec::new();
        for message in messages {
            for result in &message.results {
                let mut entries = vec![("role", Out::Str("tool")), ("content", result.text())];
                if let Some(name) = result.name.clone() {
                    entries.push(("tool_name", name));
                }
                if !result.synthetic {
                    entries.push(("tool_call_id", result.id.clone()));
                }
                out.push(Out::Map(entries));
            }
            let role = match message.role {
                Role::System => "system",
                Role::User => "user",
                Role::Assistant => "assistant",
                Role::Tool => continue,
            };
            let content = joined(&message.parts, PartType::Text);
            let images: Vec<Out<J>> = message.parts.iter().filter_map(image).collect();
            let mut entries = vec![("role", Out::Str(role)), ("content", Out::Text(content))];
            let mut said =
                !images.is_empty() || message.parts.iter().any(|p| p.kind == PartType::Text);
            if message.role == Role::Assistant {
                let thinking = joined(&message.parts, PartType::Thinking);
                if !thinking.is_empty() {
                    entries.push(("thinking", Out::Text(thinking)));
                    said = true;
                }
            }
            if !images.is_empty() {
                entries.push(("images", Out::List(images)));
            }
            if message.role == Role::Assistant && !message.calls.is_empty() {
                let calls = message.calls.iter().map(|call| {
                    let name = call.name.clone().map_or(Out::Str(""), Out::Given);
                    let function =
                        Out::Map(vec![("name", name), ("arguments", call.arguments_object())]);
                    if call.synthetic {
                        Out::Map(vec![("function", function)])
                    } else {
                        Out::Map(vec![("id", call.id.clone()), ("function", function)])
                    }
                });
                entries.push(("tool_calls", Out::List(calls.collect())));
                said = true;
            }
            if said || message.role != Role::Assistant {
                out.push(Out::Map(entries));
            }
        }
        Ok(Out::List(out))
    }
}

/// The texts of the parts of `kind`, joined with `"\n"`.
fn joined<J: Json>(parts: &[InPart<J>], kind: PartType) -> String {
    let mut out = String::new();
    for part in parts.iter().filter(|p| p.kind == kind) {
        let Some(text) = part
            .nonempty_text()
            .and_then(|t| t.as_str().map(|s| s.into_owned()))
        else {
            continue;
        };
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&text);
    }
    out
}

/// An image part as Ollama's base64 string: an `image` part's data, or the data of a `data:` URL.
fn image<J: Json>(part: &InPart<J>) -> Option<Out<J>> {
    let text = part.text()?;
    match part.kind {
        PartType::Image if part.option_str("type").as_deref() != Some("file_id") => {
            Some(Out::Given(text))
        }
        PartType::ImageUrl => {
            let (_, data) = split_data_url(&text.as_str()?)?;
            Some(Out::Text(data))
        }
        _ => None,
    }
}
