//! Writing a request (`toProvider`).

use super::OpenaiResponses;
use crate::error::text;
use crate::error::Result;
use crate::json::Json;
use crate::message::{PartType, Role};
use crate::prelude::*;
use crate::providers::{
    media_text, role_message, typed_text, InCall, InContent, InMessage, InPart, InResult, Out,
    WriteRequest,
};

impl WriteRequest for OpenaiResponses {
    /// `toProvider("openai_responses", messages)`: the `input` item array. System messages stay
    /// messages; assistant texts are assistant messages, thinking parts are reasoning items (grouped by
    /// their `options.id`, with `encrypted_content` passed back), calls are `function_call` items
    /// (arguments as JSON text); each result is a `function_call_output` item (the format has no
    /// error flag). Items kept from a Responses payload (server-tool calls, custom and computer calls
    /// and their outputs, anything else) go back as they were.
    fn write<J: Json>(messages: &[InMessage<J>]) -> Result<Out<J>> {
        let mut out = Vec::new();
        for message in messages {
            let own = message.own;
            for result in &message.results {
                if let Some(item) = result_item(result, own) {
                    out.push(item);
                }
            }
            match message.role {
                Role::System | Role::User => {
                    let parts = message.parts.iter().filter_map(|p| input_part(p, own));
                    out.extend(role_message(message.role, parts.collect(), "input_text"));
                }
                Role::Assistant => {
                    assistant_items(message, &mut out);
                    for call in &message.calls {
                        out.push(call_item(call, own)?);
                    }
                }
                Role::Tool => {}
            }
        }
        Ok(Out::List(out))
    }
}

/// A reasoning item being gathered from consecutive thinking parts with the same `options.id`.
struct Reasoning<J> {
    id: Option<J>,
    id_text: Option<String>,
    summary: Vec<Out<J>>,
    encrypted: Option<J>,
}

impl<J: Json> Reasoning<J> {
    /// `{type: "reasoning", id?, summary, encrypted_content?}`.
    fn item(self) -> Out<J> {
        let mut item = vec![("type", Out::Str("reasoning"))];
        if let Some(id) = self.id {
            item.push(("id", Out::Given(id)));
        }
        item.push(("summary", Out::List(self.summary)));
        if let Some(encrypted) = self.encrypted {
            item.push(("encrypted_content", Out::Given(encrypted)));
        }
        Out::Map(item)
    }
}

/// The items of an assistant message's parts, in order: reasoning items, one assistant message
/// per text, items kept as they were.
fn assistant_items<J: Json>(message: &InMessage<J>, out: &mut Vec<Out<J>>) {
    let mut reasoning: Option<Reasoning<J>> = None;
    for part in &message.parts {
        if part.kind != PartType::Thinking {
            if let Some(done) = reasoning.take() {
                out.push(done.item());
            }
        }
        match part.kind {
            PartType::Thinking => {
                let id = part.option("id").filter(|_| message.own);
                let id_text = id.as_ref().and_then(|i| i.as_str()).map(|s| s.into_owned());
                let same =
                    id_text.is_some() && reasoning.as_ref().is_some_and(|r| r.id_text == id_text);
                if !same {
                    if let Some(done) = reasoning.take() {
                        out.push(done.item());
                    }
                }
                let current = reasoning.get_or_insert_with(|| Reasoning {
                    id,
                    id_text,
                    summary: Vec::new(),
                    encrypted: None,
                });
                if let Some(text) = part.nonempty_text() {
                    current.summary.push(typed_text("summary_text", text));
                }
                if message.own && current.encrypted.is_none() {
                    current.encrypted = part.option("encrypted_content");
                }
            }
            PartType::Text => {
                if let Some(text) = part.nonempty_text() {
                    out.push(Out::Map(vec![
                        ("role", Out::Str("assistant")),
                        ("content", Out::Given(text)),
                    ]));
                }
            }
            _ => {
                if let Some(item) = part.raw("item", message.own) {
                    out.push(Out::Given(item));
                }
            }
        }
    }
    if let Some(done) = reasoning.take() {
        out.push(done.item());
    }
}

/// A call as an item: kept items go back as they were; custom tool calls as `custom_tool_call`;
/// the rest as `function_call`.
fn call_item<J: Json>(call: &InCall<J>, own: bool) -> Result<Out<J>> {
    if let Some(item) = call.meta("item").filter(|_| own) {
        return Ok(Out::Given(item));
    }
    let custom = own && call.meta_str("provider_type").as_deref() == Some("custom_tool_call");
    let mut item = vec![(
        "type",
        Out::Str(if custom {
            "custom_tool_call"
        } else {
            "function_call"
        }),
    )];
    if let Some(id) = call.meta("item_id").filter(|_| own) {
        item.push(("id", Out::Given(id)));
    }
    item.push(("call_id", call.id.clone()));
    item.push(("name", call.name.clone().map_or(Out::Str(""), Out::Given)));
    item.push((
        if custom { "input" } else { "arguments" },
        call.arguments_text()?,
    ));
    Ok(Out::Map(item))
}

/// A result as an item: none for a server tool's result (its item is written with the call);
/// kept output items as they were; else a `function_call_output` with the result's content.
fn result_item<J: Json>(result: &InResult<J>, own: bool) -> Option<Out<J>> {
    if own {
        if let Some(provider_type) = result.option_str("provider_type") {
            if provider_type.ends_with("_call") {
                return None;
            }
            if let Some(item) = result.option("item") {
                return Some(Out::Given(item));
            }
        }
    }
    let output = match &result.content {
        InContent::Text(text) => Out::Given(text.clone()),
        InContent::Parts(parts) => {
            let items: Vec<Out<J>> = parts.iter().filter_map(|p| input_part(p, false)).collect();
            Out::List(items)
        }
        InContent::None => Out::Str(""),
    };
    Some(Out::Map(vec![
        ("type", Out::Str("function_call_output")),
        ("call_id", result.id.clone()),
        ("output", output),
    ]))
}

/// An input part: `input_text`, `input_image`, `input_file`; parts kept from a Responses payload
/// as they were.
fn input_part<J: Json>(part: &InPart<J>, own: bool) -> Option<Out<J>> {
    let text = part.text();
    let file_id = part.option_str("type").as_deref() == Some("file_id");
    match part.kind {
        PartType::Text => Some(typed_text("input_text", part.nonempty_text()?)),
        PartType::Image if file_id => Some(Out::Map(vec![
            ("type", Out::Str("input_image")),
            ("file_id", Out::Given(text?)),
        ])),
        PartType::Image => {
            let data = text?.as_str()?.into_owned();
            let media = media_text(part, "image/png");
            Some(Out::Map(vec![
                ("type", Out::Str("input_image")),
                (
                    "image_url",
                    Out::Text(text!("data:", media, ";base64,", data)),
                ),
            ]))
        }
        PartType::ImageUrl => Some(Out::Map(vec![
            ("type", Out::Str("input_image")),
            ("image_url", Out::Given(text?)),
        ])),
        PartType::File | PartType::FileUrl => {
            let content = text?;
            let entry = if part.kind == PartType::FileUrl {
                ("file_url", Out::Given(content))
            } else if file_id {
                ("file_id", Out::Given(content))
            } else if content.as_str().is_some_and(|c| c.starts_with("data:")) {
                ("file_data", Out::Given(content))
            } else {
                let media = media_text(part, "application/pdf");
                let data = content.as_str()?.into_owned();
                (
                    "file_data",
                    Out::Text(text!("data:", media, ";base64,", data)),
                )
            };
            let mut item = vec![("type", Out::Str("input_file")), entry];
            if let Some(name) = part.option("filename") {
                item.push(("filename", Out::Given(name)));
            }
            Some(Out::Map(item))
        }
        PartType::Unsupported if !part.is_redacted() => part.raw("part", own).map(Out::Given),
        _ => None,
    }
}
