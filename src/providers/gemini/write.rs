//! Writing a request (`toProvider`).

use super::Gemini;
use crate::error::Result;
use crate::json::Json;
use crate::message::{PartType, Role};
use crate::prelude::*;
use crate::providers::{
    media_text, split_data_url, system_texts, text_blocks, turn_list, turns, with_system, InCall,
    InMessage, InPart, InResult, Out, TurnWriter, Turns, WriteRequest,
};

impl WriteRequest for Gemini {
    /// `toProvider("google_gemini", messages)`: the `contents` array, or `{systemInstruction,
    /// contents}` when there are system messages (every one of them: Gemini has no system role).
    /// Consecutive contents of the same role are merged, `functionResponse` parts first in a user
    /// content; calls keep their ids (not synthetic ones) and thought signatures; a result goes back
    /// as the `response` it came from, else as `{content}` (and `error: true` for errors).
    fn write<J: Json>(messages: &[InMessage<J>]) -> Result<Out<J>> {
        let role = |role| {
            if role == Role::Assistant {
                "model"
            } else {
                "user"
            }
        };
        let contents = turn_list(turns::<Self, J>(messages).list, "parts", role);
        let system = system_texts(messages);
        let system = (!system.is_empty()).then(|| {
            let parts = Out::List(text_blocks(system));
            ("systemInstruction", Out::Map(vec![("parts", parts)]))
        });
        Ok(with_system(contents, "contents", system))
    }
}

impl TurnWriter for Gemini {
    /// A part: text (thoughts with `thought: true`, in model contents only) with its thought
    /// signature; images and documents as `inlineData` (bytes) or `fileData` (a URI); parts kept from
    /// a Gemini payload as they were.
    fn block<J: Json>(part: &InPart<J>, own: bool, role: Role) -> Option<Out<J>> {
        let text = part.text();
        let signature = part.option("thought_signature");
        let sign = |mut entries: Vec<(&'static str, Out<J>)>| {
            if let Some(signature) = signature.clone() {
                entries.push(("thoughtSignature", Out::Given(signature)));
            }
            Some(Out::Map(entries))
        };
        match part.kind {
            PartType::Text => {
                let text = text.filter(|t| !t.is_empty_str() || signature.is_some())?;
                sign(vec![("text", Out::Given(text))])
            }
            PartType::Thinking if role == Role::Assistant => {
                let text = text.filter(|t| !t.is_empty_str() || signature.is_some())?;
                sign(vec![
                    ("text", Out::Given(text)),
                    ("thought", Out::Bool(true)),
                ])
            }
            PartType::Unsupported if !part.is_redacted() => part.raw("part", own).map(Out::Given),
            PartType::Image | PartType::File | PartType::ImageUrl | PartType::FileUrl => {
                if part.option_str("type").as_deref() == Some("file_id") {
                    return None;
                }
                let image = matches!(part.kind, PartType::Image | PartType::ImageUrl);
                let content = text?;
                let url = matches!(part.kind, PartType::ImageUrl | PartType::FileUrl);
                let default = if image {
                    "image/png"
                } else {
                    "application/pdf"
                };
                let data_url = content
                    .as_str()
                    .filter(|_| url)
                    .and_then(|u| split_data_url(&u));
                let entry = match data_url {
                    Some((media, data)) => (
                        "inlineData",
                        Out::Map(vec![
                            ("mimeType", Out::Text(media)),
                            ("data", Out::Text(data)),
                        ]),
                    ),
                    None if url => (
                        "fileData",
                        Out::Map(vec![
                            ("mimeType", Out::Text(media_text(part, default))),
                            ("fileUri", Out::Given(content)),
                        ]),
                    ),
                    None => (
                        "inlineData",
                        Out::Map(vec![
                            ("mimeType", Out::Text(media_text(part, default))),
                            ("data", Out::Given(content)),
                        ]),
                    ),
                };
                sign(vec![entry])
            }
            _ => None,
        }
    }

    /// `{functionCall: {id?, name, args}, thoughtSignature?}`: no synthetic id. A built-in tool's
    /// call from a Gemini payload (`toolCall`) goes back as its part.
    fn call<J: Json>(call: &InCall<J>, own: bool) -> Out<J> {
        let built_in = own && call.meta_str("provider_type").as_deref() == Some("toolCall");
        if let Some(part) = call.meta("part").filter(|_| built_in) {
            return Out::Given(part);
        }
        let mut inner = Vec::new();
        if !call.synthetic {
            inner.push(("id", call.id.clone()));
        }
        inner.push(("name", call.name.clone().map_or(Out::Str(""), Out::Given)));
        inner.push(("args", call.arguments_object()));
        let mut part = vec![("functionCall", Out::Map(inner))];
        if let Some(signature) = call.meta("thought_signature") {
            part.push(("thoughtSignature", Out::Given(signature)));
        }
        Out::Map(part)
    }

    /// `{functionResponse: {id?, name, response}}`. A built-in tool's outcome from a Gemini payload
    /// (`toolResponse`) goes back as its part, in the model content before it.
    fn result<J: Json>(result: &InResult<J>, own: bool, turns: &mut Turns<J>) -> Option<Out<J>> {
        let built_in = own && result.option_str("provider_type").as_deref() == Some("toolResponse");
        if let (Some(part), true) = (result.option("part"), built_in) {
            if let Some(model) = turns.last_assistant() {
                model.blocks.push(Out::Given(part));
                return None;
            }
        }
        let response = match result.option("response").filter(|_| own) {
            Some(response) => Out::Given(response),
            None => {
                let mut response = vec![("content", result.text())];
                if result.is_error {
                    response.push(("error", Out::Bool(true)));
                }
                Out::Map(response)
            }
        };
        let mut inner = Vec::new();
        if !result.synthetic {
            inner.push(("id", result.id.clone()));
        }
        inner.push(("name", result.name.clone().unwrap_or(Out::Str(""))));
        inner.push(("response", response));
        Some(Out::Map(vec![("functionResponse", Out::Map(inner))]))
    }
}
