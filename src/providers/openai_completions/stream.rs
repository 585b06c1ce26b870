//! OpenAI Chat Completions streams (docs/STREAMS.md "Each provider's events"):
//! `chat.completion.chunk`s, then `[DONE]`.
//!
//! The body is a `chat.completion` with one choice, built from choice 0's deltas (other choices are
//! ignored): `content`, `refusal`, `reasoning_content` and OpenRouter's `reasoning` concatenate,
//! each a block; tool-call fragments are merged by `index`, else by `id`, each call a block whose
//! `function.arguments` string grows; `annotations` add to the message's. A `finish_reason` ends
//! the message; a later usage-only chunk (`choices: []`) still sets `usage`.

use super::OpenaiCompletions;
use crate::json::partial::Step;
use crate::prelude::*;
use crate::providers::{Parsed, ReadStream};
use crate::stream::{object, str_at, under, ArgsMode, Reader, StreamAccumulator as Acc};

/// The block keys of the message's text fields (tool calls use their `index`, which is >= 0).
/// The three reasoning fields are one block, since the reader takes only one of them
/// (`reasoning_content`, else `reasoning_details`, else `reasoning`).
const TEXT_FIELDS: [(&str, i64); 4] = [
    ("reasoning_content", REASONING),
    ("reasoning", REASONING),
    ("content", -1),
    ("refusal", -4),
];

const REASONING: i64 = -2;

/// The reasoning fields, which the reasoning block holds.
const REASONING_FIELDS: [&str; 3] = ["reasoning_content", "reasoning", "reasoning_details"];

/// Keys for tool-call fragments that carry no `index`.
const UNINDEXED: i64 = 1 << 40;

fn message_path(key: &str) -> Vec<Step> {
    vec![
        Step::Key("choices".into()),
        Step::Index(0),
        Step::Key("message".into()),
        Step::Key(key.into()),
    ]
}

/// The block of the reasoning fields: the message itself, read for those fields only.
fn reasoning_block<R: Reader>(acc: &mut Acc<R>, field: &str, empty: Parsed) -> Option<usize> {
    if let Some(b) = acc.block(REASONING) {
        let missing = acc.block_value(b).is_some_and(|m| m.get(field).is_none());
        if missing {
            acc.edit_block(b, |message| message.set(field, empty));
        }
        return Some(b);
    }
    let body = acc.body_mut()?;
    let mut at = message_path(field);
    at.pop();
    let message = crate::stream::get_path_mut(body, &at)?;
    message.set(field, empty);
    Some(acc.add_block(REASONING, at, None, true))
}

impl ReadStream for OpenaiCompletions {
    const EMPTY_BODY: &'static str = r#"{"role":"assistant","content":null}"#;

    /// The message holding only the block at `at` (a text field, the reasoning fields, or one tool
    /// call).
    fn mini_body(at: &[Step], value: Parsed) -> Parsed {
        let mut message = object(vec![
            ("role", Parsed::String("assistant".into())),
            ("content", Parsed::Null),
        ]);
        match at {
            [.., Step::Key(key), Step::Index(_)] if key == "tool_calls" => {
                message.set("tool_calls", Parsed::Array(vec![value]))
            }
            [.., Step::Key(key)] if key == "message" => {
                for field in REASONING_FIELDS {
                    if let Some(v) = value.get(field) {
                        message.set(field, v.clone());
                    }
                }
            }
            [.., Step::Key(key)] => message.set(key, value),
            _ => {}
        }
        message
    }

    fn event<R: Reader>(acc: &mut Acc<R>, at: usize, _name: Option<&str>, event: &Parsed) {
        let choice = match event.get("choices") {
            Some(Parsed::Array(choices)) => choices
                .iter()
                .find(
                    |c| matches!(c.get("index"), Some(Parsed::Number(n)) if n.as_u64() == Some(0)),
                )
                .or(choices.first()),
            _ => None,
        };
        let same_id = acc
            .current_body()
            .is_some_and(|body| str_at(body, "id") == str_at(event, "id"));
        if choice.is_some() && !acc.streaming() && !(acc.current_body().is_some() && same_id) {
            let mut body = object(vec![]);
            for key in [
                "id",
                "object",
                "created",
                "model",
                "system_fingerprint",
                "service_tier",
            ] {
                if let Some(value) = event.get(key) {
                    body.set(key, value.clone());
                }
            }
            body.set("object", Parsed::String("chat.completion".into()));
            body.set(
                "choices",
                Parsed::Array(vec![object(vec![
                    ("index", Parsed::Number(0.into())),
                    (
                        "message",
                        object(vec![
                            ("role", Parsed::String("assistant".into())),
                            ("content", Parsed::Null),
                        ]),
                    ),
                    ("finish_reason", Parsed::Null),
                ])]),
            );
            acc.start_response(body);
        }
        if let Some(usage @ Parsed::Object(_)) = event.get("usage") {
            if let Some(body) = acc.body_mut() {
                body.set("usage", usage.clone());
            }
        }
        // Perplexity sends its sources whole on every chunk: the last ones stand.
        for key in ["search_results", "citations"] {
            if let Some(sources @ Parsed::Array(_)) = event.get(key) {
                if let Some(body) = acc.body_mut() {
                    body.set(key, sources.clone());
                }
            }
        }
        let Some(choice) = choice else { return };
        if !acc.streaming() {
            return;
        }
        if let Some(delta) = choice.get("delta") {
            for (key, block_key, text) in text_pieces(delta) {
                let b = match acc.block(block_key) {
                    _ if block_key == REASONING && !text.is_empty() => {
                        match reasoning_block(acc, key, Parsed::String(String::new())) {
                            Some(b) => b,
                            None => return,
                        }
                    }
                    Some(b) => b,
                    None if text.is_empty() => continue,
                    None => {
                        let Some(body) = acc.body_mut() else { return };
                        if !crate::stream::set_path(
                            body,
                            &message_path(key),
                            Parsed::String(String::new()),
                        ) {
                            return;
                        }
                        acc.add_block(block_key, message_path(key), None, true)
                    }
                };
                acc.text_delta(b, message_path(key), text);
            }
            // `url_citation` annotations (OpenAI's search models, OpenRouter) add to the message's
            // `annotations`, which the text's record shows when the response is read whole.
            if let Some(Parsed::Array(annotations)) = delta.get("annotations") {
                let mut at = message_path("annotations");
                at.pop();
                let message = acc
                    .body_mut()
                    .and_then(|body| crate::stream::get_path_mut(body, &at));
                if let Some(message) = message {
                    match message.get_mut("annotations") {
                        Some(Parsed::Array(list)) => list.extend(annotations.iter().cloned()),
                        _ => message.set("annotations", Parsed::Array(annotations.clone())),
                    }
                }
            }
            if let Some(Parsed::Array(details)) = delta.get("reasoning_details") {
                for detail in details {
                    reasoning_detail(acc, detail);
                }
            }
            match delta.get("tool_calls") {
                Some(Parsed::Array(fragments)) => {
                    for fragment in fragments {
                        tool_fragment(acc, fragment);
                    }
                }
                Some(Parsed::Null) | None => {}
                Some(_) => {
                    return acc.error_at(at, "A delta's tool_calls is not an array.".into());
                }
            }
        }
        if let Some(reason @ Parsed::String(_)) = choice.get("finish_reason") {
            if let Some(body) = acc.body_mut() {
                crate::stream::set_path(
                    body,
                    &[
                        Step::Key("choices".into()),
                        Step::Index(0),
                        Step::Key("finish_reason".into()),
                    ],
                    reason.clone(),
                );
            }
            acc.finish_response();
            acc.set_done();
        }
    }
}

/// A delta's texts, each with the field of the body it grows and that field's block key: the
/// text fields in [`TEXT_FIELDS`] order, where a `content` that is an array of parts (Mistral's
/// `[{type: "text", text}]`, `{type: "thinking", thinking: [{type: "text", text}]}`) gives its
/// texts as `content` and its thinking as `reasoning_content`, in the parts' order.
fn text_pieces(delta: &Parsed) -> Vec<(&'static str, i64, &str)> {
    let mut pieces = Vec::new();
    for (key, block_key) in TEXT_FIELDS {
        if let Some(text) = str_at(delta, key) {
            pieces.push((key, block_key, text));
            continue;
        }
        let Some(Parsed::Array(parts)) = delta.get(key).filter(|_| key == "content") else {
            continue;
        };
        for part in parts {
            match str_at(part, "type") {
                Some("text") => {
                    if let Some(text) = str_at(part, "text") {
                        pieces.push(("content", -1, text));
                    }
                }
                Some("thinking") => match part.get("thinking") {
                    Some(Parsed::String(text)) => {
                        pieces.push(("reasoning_content", REASONING, text.as_str()))
                    }
                    Some(Parsed::Array(inner)) => {
                        for text in inner.iter().filter_map(|t| str_at(t, "text")) {
                            pieces.push(("reasoning_content", REASONING, text));
                        }
                    }
                    _ => {}
                },
                _ => {}
            }
        }
    }
    pieces
}

/// One `reasoning_details` entry (OpenRouter), merged by `index`: `text` and `summary`
/// concatenate, other fields take the value sent. All entries are one block.
fn reasoning_detail<R: Reader>(acc: &mut Acc<R>, detail: &Parsed) {
    let Parsed::Object(fields) = detail else {
        return;
    };
    let path = message_path("reasoning_details");
    let Some(b) = reasoning_block(acc, "reasoning_details", Parsed::Array(Vec::new())) else {
        return;
    };
    let index = detail.get("index");
    let found = match acc.block_value(b).and_then(|m| m.get("reasoning_details")) {
        Some(Parsed::Array(entries)) => entries
            .iter()
            .position(|e| index.is_some() && e.get("index") == index),
        _ => None,
    };
    let Some(k) = found else {
        let entry = detail.clone();
        acc.edit_block(b, |message| {
            if let Some(Parsed::Array(entries)) = message.get_mut("reasoning_details") {
                entries.push(entry);
            }
        });
        return;
    };
    let mut others = Vec::new();
    for (key, value) in fields {
        match (key.as_str(), value) {
            ("text" | "summary", Parsed::String(text)) => {
                let mut field = path.clone();
                field.extend([Step::Index(k), Step::Key(key.clone())]);
                acc.text_delta(b, field, text);
            }
            ("index" | "type", _) => {}
            _ => others.push((key.clone(), value.clone())),
        }
    }
    if !others.is_empty() {
        acc.edit_block(b, |message| {
            if let Some(Parsed::Array(entries)) = message.get_mut("reasoning_details") {
                if let Some(entry) = entries.get_mut(k) {
                    for (key, value) in others {
                        entry.set(&key, value);
                    }
                }
            }
        });
    }
}

/// One tool-call fragment `{index, id?, type?, function: {name?, arguments?}}`.
fn tool_fragment<R: Reader>(acc: &mut Acc<R>, fragment: &Parsed) {
    let index = crate::stream::int_at(fragment, "index");
    let id = str_at(fragment, "id").filter(|id| !id.is_empty());
    let function = fragment.get("function");
    let name = function
        .and_then(|f| str_at(f, "name"))
        .filter(|n| !n.is_empty());
    let arguments = function
        .and_then(|f| str_at(f, "arguments"))
        .unwrap_or_default();
    let by_id = || {
        let id = id?;
        (0..acc.block_count())
            .rev()
            .find(|&b| acc.block_value(b).and_then(|v| str_at(v, "id")) == Some(id))
    };
    let found = match index {
        Some(i) => acc.block(i),
        None => by_id().or_else(|| {
            (0..acc.block_count()).rev().find(|&b| {
                acc.block_value(b)
                    .is_some_and(|v| v.get("function").is_some())
            })
        }),
    };
    let b = match found {
        Some(b) => {
            let value = acc.block_value(b);
            let new_id = id.filter(|id| value.and_then(|v| str_at(v, "id")) != Some(*id));
            let new_name = name.filter(|_| {
                value
                    .and_then(|v| v.get("function"))
                    .and_then(|f| str_at(f, "name"))
                    .unwrap_or_default()
                    .is_empty()
            });
            if new_id.is_some() || new_name.is_some() {
                let (new_id, new_name) = (new_id.map(str::to_string), new_name.map(str::to_string));
                acc.edit_block(b, |call| {
                    if let Some(id) = new_id {
                        call.set("id", Parsed::String(id));
                    }
                    if let (Some(name), Some(f)) = (new_name, call.get_mut("function")) {
                        f.set("name", Parsed::String(name));
                    }
                });
            }
            b
        }
        None => {
            let call = object(vec![
                (
                    "id",
                    id.map_or(Parsed::Null, |id| Parsed::String(id.into())),
                ),
                (
                    "type",
                    Parsed::String(str_at(fragment, "type").unwrap_or("function").into()),
                ),
                (
                    "function",
                    object(vec![
                        ("name", Parsed::String(name.unwrap_or_default().into())),
                        ("arguments", Parsed::String(String::new())),
                    ]),
                ),
            ]);
            let Some(at) = acc.push_value(&message_path("tool_calls"), call, true) else {
                return;
            };
            let position = match at.last() {
                Some(Step::Index(position)) => *position,
                _ => 0,
            };
            let field = under(&at, &["function", "arguments"]);
            let key = index.unwrap_or(UNINDEXED + position as i64);
            acc.add_block(key, at, Some((field, ArgsMode::Text)), true)
        }
    };
    acc.args_delta(b, arguments);
}
