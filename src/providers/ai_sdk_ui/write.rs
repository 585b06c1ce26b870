//! Writing `UIMessage[]` (`toProvider`).

use super::AiSdkUi;
use crate::error::{text, Result};
use crate::json::Json;
use crate::message::{PartType, Role};
use crate::prelude::*;
use crate::providers::{field, media, str_of, InCall, InMessage, InPart, Out, WriteRequest};

/// One UIMessage being written.
struct Ui<J> {
    id: Out<J>,
    role: Role,
    metadata: Option<J>,
    parts: Vec<UiPart<J>>,
}

enum UiPart<J> {
    Done(Out<J>),
    Tool(Tool<J>),
}

/// A tool part: its call, the part it was read from (a message of this format), its output.
struct Tool<J> {
    id: Out<J>,
    name: Option<Out<J>>,
    arguments: Option<J>,
    part: Option<J>,
    /// `(is_error, text)` of the result that answers it.
    result: Option<(bool, Out<J>)>,
}

/// The keys of a tool part kept from the part it was read from.
const KEPT: [&str; 10] = [
    "title",
    "providerExecuted",
    "toolMetadata",
    "callProviderMetadata",
    "resultProviderMetadata",
    "preliminary",
    "approval",
    "rawInput",
    "inputEncoding",
    "dynamic",
];

impl WriteRequest for AiSdkUi {
    /// `toProvider("ai_sdk_ui", messages)`: the `UIMessage[]`. A run of assistant and `tool`
    /// messages is one assistant UIMessage (its steps), each result the output of the tool part
    /// of its call; a message read from a UIMessage gets back its id, metadata and parts.
    fn write<J: Json>(messages: &[InMessage<J>]) -> Result<Out<J>> {
        let mut out: Vec<Ui<J>> = Vec::new();
        for (i, message) in messages.iter().enumerate() {
            let own = message.own;
            let meta = |key: &str| {
                own.then(|| message.metadata.as_ref().and_then(|m| field(m, key)))
                    .flatten()
            };
            let id = meta("message_id");
            // A later step of the same UIMessage holds its id too.
            let same_id = |u: &Ui<J>| {
                id.as_ref()
                    .and_then(|id| id.as_str())
                    .is_some_and(|id| u.id.text().as_deref() == Some(&*id))
            };
            let continues = match message.role {
                Role::Tool => true,
                Role::Assistant => id.is_none() || out.last().is_some_and(same_id),
                _ => false,
            } && out.last().is_some_and(|u| u.role == Role::Assistant);
            if !continues {
                out.push(Ui {
                    id: id.map_or_else(|| Out::Text(text!("message-", i)), Out::Given),
                    role: match message.role {
                        Role::Tool => Role::Assistant,
                        role => role,
                    },
                    metadata: meta("message_metadata"),
                    parts: Vec::new(),
                });
            }
            let Some(ui) = out.last_mut() else { continue };
            if message.role == Role::Assistant && !own {
                ui.parts.push(UiPart::Done(Out::Map(vec![(
                    "type",
                    Out::Str("step-start"),
                )])));
            }
            // Calls read from a UIMessage go back between the parts they sat between.
            let calls: &[InCall<J>] = if message.role == Role::Assistant {
                &message.calls
            } else {
                &[]
            };
            let place = |call: &InCall<J>| {
                own.then(|| call.meta("parts_before"))
                    .flatten()
                    .and_then(|n| n.as_number())
                    .map_or(usize::MAX, |n| n.as_f64() as usize)
            };
            let mut next = 0;
            for (k, part) in message.parts.iter().enumerate() {
                while let Some(call) = calls.get(next).filter(|c| place(c) <= k) {
                    ui.parts.push(UiPart::Tool(tool_of(call, own)));
                    next += 1;
                }
                if let Some(p) = part_of(part, own) {
                    ui.parts.push(UiPart::Done(p));
                }
            }
            for call in calls.get(next..).unwrap_or_default() {
                ui.parts.push(UiPart::Tool(tool_of(call, own)));
            }
            for result in &message.results {
                let id = result.id.text();
                let found = ui.parts.iter_mut().rev().find_map(|p| match p {
                    UiPart::Tool(t) if t.result.is_none() && t.id.text() == id => Some(t),
                    _ => None,
                });
                let answer = (result.is_error, result.text());
                match found {
                    Some(tool) => tool.result = Some(answer),
                    None => ui.parts.push(UiPart::Tool(Tool {
                        id: result.id.clone(),
                        name: result.name.clone(),
                        arguments: None,
                        part: None,
                        result: Some(answer),
                    })),
                }
            }
        }
        Ok(Out::List(out.into_iter().map(ui_message).collect()))
    }
}

fn ui_message<J: Json>(ui: Ui<J>) -> Out<J> {
    let mut entries = vec![("id", ui.id), ("role", Out::Str(ui.role.as_str()))];
    if let Some(metadata) = ui.metadata {
        entries.push(("metadata", Out::Given(metadata)));
    }
    let parts = ui
        .parts
        .into_iter()
        .map(|p| match p {
            UiPart::Done(out) => out,
            UiPart::Tool(tool) => tool_part(tool),
        })
        .collect();
    entries.push(("parts", Out::List(parts)));
    Out::Map(entries)
}

/// A content part as a UIMessage part: the part it was read from when it came from this format
/// (and, for a text, still has that text), else one made from it.
fn part_of<J: Json>(part: &InPart<J>, own: bool) -> Option<Out<J>> {
    let kept = part.option("part").filter(|_| own);
    let text = part.text();
    match part.kind {
        PartType::Text => {
            let text = part.nonempty_text()?;
            if let Some(kept) = kept.filter(|k| {
                field(k, "text").and_then(|t| t.as_str().map(|s| s.into_owned()))
                    == text.as_str().map(|s| s.into_owned())
            }) {
                return Some(Out::Given(kept));
            }
            Some(Out::Map(vec![
                ("type", Out::Str("text")),
                ("text", Out::Given(text)),
            ]))
        }
        PartType::Thinking => {
            if let Some(kept) = kept {
                return Some(Out::Given(kept));
            }
            let mut entries = vec![
                ("type", Out::Str("reasoning")),
                ("text", text.map_or(Out::Str(""), Out::Given)),
            ];
            if let Some(signature) = part.option("signature") {
                entries.push(anthropic("signature", signature));
            }
            Some(Out::Map(entries))
        }
        PartType::Unsupported if part.is_redacted() => {
            if let Some(kept) = kept {
                return Some(Out::Given(kept));
            }
            let data = text?;
            Some(Out::Map(vec![
                ("type", Out::Str("reasoning")),
                ("text", Out::Str("")),
                anthropic("redactedData", data),
            ]))
        }
        PartType::Unsupported => part.raw("part", own).map(Out::Given),
        PartType::Image | PartType::File | PartType::ImageUrl | PartType::FileUrl => {
            if let Some(kept) = kept {
                return Some(Out::Given(kept));
            }
            let content = text?;
            if part.option_str("type").as_deref() == Some("file_id") {
                return None;
            }
            let (default, inline) = match part.kind {
                PartType::Image => ("image/png", true),
                PartType::File => ("application/pdf", true),
                PartType::ImageUrl => ("image/png", false),
                _ => ("application/octet-stream", false),
            };
            let media_type = media(part, default);
            let url = if inline {
                let media = media_type.text().unwrap_or_default();
                let data = content.as_str().map(|s| s.into_owned()).unwrap_or_default();
                Out::Text(text!("data:", media, ";base64,", data))
            } else {
                Out::Given(content)
            };
            let mut entries = vec![("type", Out::Str("file")), ("mediaType", media_type)];
            if let Some(name) = part.option("filename") {
                entries.push(("filename", Out::Given(name)));
            }
            entries.push(("url", url));
            Some(Out::Map(entries))
        }
        _ => None,
    }
}

/// `providerMetadata: {anthropic: {<key>: value}}`.
fn anthropic<J>(key: &'static str, value: J) -> (&'static str, Out<J>) {
    (
        "providerMetadata",
        Out::Map(vec![(
            "anthropic",
            Out::Map(vec![(key, Out::Given(value))]),
        )]),
    )
}

fn tool_of<J: Json>(call: &InCall<J>, own: bool) -> Tool<J> {
    Tool {
        id: call.id.clone(),
        name: call.name.clone().map(Out::Given),
        arguments: call.arguments.clone(),
        part: call.meta("part").filter(|_| own),
        result: None,
    }
}

/// A tool part: the type of the part it was read from (else `dynamic-tool`), the state its
/// result gives (`output-available`, `output-error`) or, without one, the state it was read in
/// (else `input-available`), and the fields kept from that part.
fn tool_part<J: Json>(tool: Tool<J>) -> Out<J> {
    let part = tool.part.as_ref();
    let get = |key: &str| part.and_then(|p| field(p, key));
    let ty = get("type").filter(|t| t.as_str().is_some());
    let dynamic = ty
        .as_ref()
        .is_none_or(|t| t.as_str().as_deref() == Some("dynamic-tool"));
    let mut entries = vec![("type", ty.map_or(Out::Str("dynamic-tool"), Out::Given))];
    if dynamic {
        let name = tool.name.or_else(|| get("toolName").map(Out::Given));
        entries.push(("toolName", name.unwrap_or(Out::Str(""))));
    }
    entries.push(("toolCallId", tool.id));
    let was = part.and_then(|p| str_of(p, "state"));
    let state: Out<J> = match (&tool.result, &was) {
        (Some((true, _)), _) => Out::Str("output-error"),
        (Some((false, _)), _) => Out::Str("output-available"),
        (None, Some(s)) if !s.starts_with("output-") || s == "output-denied" => {
            Out::Given(get("state").unwrap_or_else(J::empty_object))
        }
        (None, _) => Out::Str("input-available"),
    };
    let state_text = state.text().unwrap_or_default();
    entries.push(("state", state));
    if part.is_none() || get("input").is_some() {
        let input = match tool.arguments {
            Some(a) => Out::Given(a),
            None => Out::empty_map(),
        };
        entries.push(("input", input));
    }
    match tool.result {
        Some((true, text)) => entries.push(("errorText", text)),
        Some((false, text)) => {
            let output = get("output")
                .filter(|_| was.as_deref() == Some("output-available"))
                .map_or(text, Out::Given);
            entries.push(("output", output));
        }
        None => {}
    }
    for key in KEPT {
        let fits = match key {
            "preliminary" => state_text == "output-available",
            "rawInput" | "inputEncoding" => state_text == "input-streaming" || get(key).is_some(),
            _ => true,
        };
        if let Some(value) = get(key).filter(|_| fits) {
            entries.push((key, Out::Given(value)));
        }
    }
    Out::Map(entries)
}
