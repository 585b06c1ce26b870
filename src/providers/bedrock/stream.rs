//! AWS Bedrock ConverseStream (docs/STREAMS.md "Each provider's events"): the decoded event
//! payloads, one union object each (`{contentBlockDelta: {...}}`), as a proxy re-encodes them in
//! SSE `data:` lines or as parsed objects. A payload without its union key, named by an SSE
//! `event:` line instead, is read as that event.
//!
//! The body is a Converse response, `{output: {message}, stopReason, usage, metrics}`. Text and
//! reasoning blocks may start with a delta (no `contentBlockStart`); a block with a `citation`
//! delta is a `citationsContent` block, as the body gives cited text; tool input fragments become
//! the `input` object when the block stops; `metadata` may come before or after `messageStop`.

use super::Bedrock;
use crate::error::text;
use crate::json::partial::Step;
use crate::prelude::*;
use crate::providers::{Parsed, ReadStream};
use crate::stream::{
    int_at, keys, message_body, object, str_at, under, ArgsMode, Reader, StreamAccumulator as Acc,
    Transport,
};

const EVENTS: [&str; 6] = [
    "messageStart",
    "contentBlockStart",
    "contentBlockDelta",
    "contentBlockStop",
    "messageStop",
    "metadata",
];

fn content_path() -> Vec<Step> {
    keys(&["output", "message", "content"])
}

impl ReadStream for Bedrock {
    const EMPTY_BODY: &'static str = r#"{"role":"assistant","content":[]}"#;

    /// AWS event-stream frames, as Bedrock sends them; server-sent events from a proxy that
    /// re-encodes them (the decoded events, one `data:` line each).
    const TRANSPORTS: &'static [Transport] = &[Transport::EventStream, Transport::Sse];

    fn mini_body(_at: &[Step], block: Parsed) -> Parsed {
        message_body("assistant", "content", block)
    }

    fn event<R: Reader>(acc: &mut Acc<R>, at: usize, name: Option<&str>, event: &Parsed) {
        let Parsed::Object(entries) = event else {
            return;
        };
        let found = entries
            .iter()
            .find(|(key, _)| EVENTS.contains(&key.as_str()) || key.ends_with("Exception"));
        let (kind, payload) = match (found, name) {
            (Some((key, payload)), _) => (key.clone(), payload.clone()),
            (None, Some(name)) => (name.to_string(), event.clone()),
            (None, None) => return,
        };
        match kind.as_str() {
            "messageStart" => {
                let role = payload
                    .get("role")
                    .cloned()
                    .unwrap_or(Parsed::String("assistant".into()));
                acc.start_response(object(vec![(
                    "output",
                    object(vec![(
                        "message",
                        object(vec![("role", role), ("content", Parsed::Array(Vec::new()))]),
                    )]),
                )]));
            }
            "contentBlockStart" => {
                let Some(index) = int_at(&payload, "contentBlockIndex") else {
                    return acc
                        .error_at(at, "A contentBlockStart has no contentBlockIndex.".into());
                };
                ensure_response(acc);
                let start = payload.get("start").cloned().unwrap_or(Parsed::Null);
                let block = match start.get("toolUse") {
                    Some(Parsed::Object(fields)) => {
                        let mut tool = Parsed::Object(fields.clone());
                        if tool.get("input").is_none() {
                            tool.set("input", Parsed::Object(Vec::new()));
                        }
                        object(vec![("toolUse", tool)])
                    }
                    _ => start,
                };
                push_block(acc, index, block);
            }
            "contentBlockDelta" => {
                let Some(index) = int_at(&payload, "contentBlockIndex") else {
                    return acc
                        .error_at(at, "A contentBlockDelta has no contentBlockIndex.".into());
                };
                let Some(delta @ Parsed::Object(_)) = payload.get("delta") else {
                    return acc.error_at(at, "A contentBlockDelta has no delta.".into());
                };
                ensure_response(acc);
                let b = match acc.block(index) {
                    Some(b) => b,
                    None => {
                        // Text and reasoning blocks start with their first delta.
                        let block = if delta.get("text").is_some() {
                            object(vec![("text", Parsed::String(String::new()))])
                        } else if delta.get("citation").is_some() {
                            cited_text(String::new(), Vec::new())
                        } else if let Some(reasoning) = delta.get("reasoningContent") {
                            if reasoning.get("redactedContent").is_some() {
                                object(vec![(
                                    "reasoningContent",
                                    object(vec![(
                                        "redactedContent",
                                        Parsed::String(String::new()),
                                    )]),
                                )])
                            } else {
                                object(vec![(
                                    "reasoningContent",
                                    object(vec![(
                                        "reasoningText",
                                        object(vec![("text", Parsed::String(String::new()))]),
                                    )]),
                                )])
                            }
                        } else {
                            return acc.error_at(
                                at,
                                text!(
                                    "A contentBlockDelta for block ",
                                    index,
                                    ", which never started."
                                ),
                            );
                        };
                        push_block(acc, index, block)
                    }
                };
                let field = |keys: &[&str]| under(&acc.block_at(b), keys);
                if let Some(text) = str_at(delta, "text") {
                    let path = match acc.block_value(b) {
                        Some(block) if block.get("citationsContent").is_some() => {
                            let mut path = field(&["citationsContent", "content"]);
                            path.extend([Step::Index(0), Step::Key("text".into())]);
                            path
                        }
                        _ => field(&["text"]),
                    };
                    acc.text_delta(b, path, text);
                } else if let Some(citation @ Parsed::Object(_)) = delta.get("citation") {
                    let citation = citation.clone();
                    acc.edit_block(b, |block| cite(block, citation));
                } else if let Some(reasoning) = delta.get("reasoningContent") {
                    if let Some(text) = str_at(reasoning, "text") {
                        let path = field(&["reasoningContent", "reasoningText", "text"]);
                        acc.text_delta(b, path, text);
                    }
                    if let Some(signature) = reasoning.get("signature").cloned() {
                        acc.edit_block(b, |block| {
                            if let Some(text) = block
                                .get_mut("reasoningContent")
                                .and_then(|r| r.get_mut("reasoningText"))
                            {
                                text.set("signature", signature);
                            }
                        });
                    }
                    if let Some(redacted) = str_at(reasoning, "redactedContent") {
                        let redacted = redacted.to_string();
                        acc.edit_block(b, |block| {
                            let joined = block
                                .get("reasoningContent")
                                .and_then(|r| str_at(r, "redactedContent"))
                                .map_or(redacted.clone(), |before| text!(before, redacted));
                            block.set(
                                "reasoningContent",
                                object(vec![("redactedContent", Parsed::String(joined))]),
                            );
                        });
                    }
                } else if let Some(tool) = delta.get("toolUse") {
                    let input = str_at(tool, "input").unwrap_or_default().to_string();
                    acc.args_delta(b, &input);
                } else if let Some(Parsed::Array(pieces)) = delta.get("toolResult") {
                    let pieces = pieces.clone();
                    acc.edit_block(b, |block| add_result(block, pieces));
                }
            }
            "contentBlockStop" => {
                match int_at(&payload, "contentBlockIndex").and_then(|i| acc.block(i)) {
                    Some(b) => acc.stop_block(b),
                    None => acc.error_at(
                        at,
                        "A contentBlockStop for a block that never started.".into(),
                    ),
                }
            }
            "messageStop" => {
                ensure_response(acc);
                if let Some(body) = acc.body_mut() {
                    for key in ["stopReason", "additionalModelResponseFields"] {
                        if let Some(value) = payload.get(key) {
                            body.set(key, value.clone());
                        }
                    }
                }
                acc.finish_response();
                acc.set_done();
            }
            "metadata" => {
                if let (Some(body), Parsed::Object(fields)) = (acc.body_mut(), &payload) {
                    for (key, value) in fields {
                        body.set(key, value.clone());
                    }
                }
            }
            exception if exception.ends_with("Exception") => {
                let message = str_at(&payload, "message").unwrap_or_default();
                acc.provider_error(at, text!(exception, ": ", message));
            }
            _ => {}
        }
    }
}

/// A `citationsContent` block (the Converse body's form of cited text) holding `text` and
/// `citations`.
fn cited_text(text: String, citations: Vec<Parsed>) -> Parsed {
    object(vec![(
        "citationsContent",
        object(vec![
            ("citations", Parsed::Array(citations)),
            (
                "content",
                Parsed::Array(vec![object(vec![("text", Parsed::String(text))])]),
            ),
        ]),
    )])
}

/// A `toolResult` delta (a server tool's result, Nova's code interpreter: `[{text} | {json}]`)
/// added to its block's `content`: text that follows text continues it.
fn add_result(block: &mut Parsed, pieces: Vec<Parsed>) {
    let Some(result @ Parsed::Object(_)) = block.get_mut("toolResult") else {
        return;
    };
    if !matches!(result.get("content"), Some(Parsed::Array(_))) {
        result.set("content", Parsed::Array(Vec::new()));
    }
    let Some(Parsed::Array(content)) = result.get_mut("content") else {
        return;
    };
    for piece in pieces {
        let last = content
            .last_mut()
            .and_then(|last| match last.get_mut("text") {
                Some(Parsed::String(text)) => Some(text),
                _ => None,
            });
        match (last, piece.get("text")) {
            (Some(text), Some(Parsed::String(more))) => text.push_str(more),
            _ => content.push(piece),
        }
    }
}

/// A `citation` delta (AWS `CitationsDelta`: `title`, `source`, `sourceContent`, `location`, the
/// fields of the body's `Citation`) added to its block: a text block becomes a `citationsContent`
/// block holding its text, as the Converse body gives cited text. Each delta is one citation.
fn cite(block: &mut Parsed, citation: Parsed) {
    if let Some(Parsed::Array(citations)) = block
        .get_mut("citationsContent")
        .and_then(|c| c.get_mut("citations"))
    {
        citations.push(citation);
        return;
    }
    if let Some(text) = str_at(block, "text") {
        *block = cited_text(text.to_string(), vec![citation]);
    }
}

fn ensure_response<R: Reader>(acc: &mut Acc<R>) {
    if !acc.streaming() {
        acc.start_response(object(vec![(
            "output",
            object(vec![(
                "message",
                object(vec![
                    ("role", Parsed::String("assistant".into())),
                    ("content", Parsed::Array(Vec::new())),
                ]),
            )]),
        )]));
    }
}

/// Adds a block to the message's content.
fn push_block<R: Reader>(acc: &mut Acc<R>, index: i64, block: Parsed) -> usize {
    let tool = block.get("toolUse").is_some();
    let Some(at) = acc.push_value(&content_path(), block, false) else {
        return 0;
    };
    let args = tool.then(|| (under(&at, &["toolUse", "input"]), ArgsMode::Object));
    acc.add_block(index, at, args, true)
}
