//! Anthropic Messages streams (docs/STREAMS.md "Each provider's events"): `message_start`,
//! `content_block_start` / `_delta` / `_stop`, `message_delta`, `message_stop`, `ping`, `error`.
//!
//! The body is the message of `message_start`, its `content` filled block by block as the SDK's
//! own accumulator does: text and thinking grow by their deltas, a `signature_delta` sets the
//! signature, `input_json_delta` text becomes the tool's `input` object when the block stops,
//! `citations_delta` adds to `citations`, and `message_delta` sets the stop fields and usage.
//! A second `message_start` with the same id is a duplicate and is skipped; one with another id
//! starts a new message (the first one ends where it stood).

use super::Anthropic;
use crate::error::text;
use crate::json::partial::Step;
use crate::prelude::*;
use crate::providers::{Parsed, ReadStream};
use crate::stream::{
    int_at, keys, message_body, object, str_at, under, ArgsMode, Reader, StreamAccumulator as Acc,
    Transport,
};

impl ReadStream for Anthropic {
    const EMPTY_BODY: &'static str = r#"{"role":"assistant","content":[]}"#;

    /// Server-sent events; AWS event-stream frames named `chunk` whose `bytes` hold the events,
    /// base64 (Anthropic models through Bedrock's InvokeModelWithResponseStream).
    const TRANSPORTS: &'static [Transport] = &[Transport::Sse, Transport::EventStream];

    fn mini_body(_at: &[Step], block: Parsed) -> Parsed {
        message_body("assistant", "content", block)
    }

    fn event<R: Reader>(acc: &mut Acc<R>, at: usize, _name: Option<&str>, event: &Parsed) {
        match str_at(event, "type") {
            Some("message_start") => {
                let Some(message @ Parsed::Object(_)) = event.get("message") else {
                    return acc.error_at(at, "A message_start has no message object.".into());
                };
                if let Some(open) = open_body(acc) {
                    let id = str_at(message, "id");
                    if id.is_some() && str_at(open, "id") == id {
                        return;
                    }
                }
                let mut body = message.clone();
                let given = match body.get("content") {
                    Some(Parsed::Array(blocks)) => blocks.clone(),
                    _ => Vec::new(),
                };
                body.set("content", Parsed::Array(Vec::new()));
                acc.start_response(body);
                for (i, block) in given.into_iter().enumerate() {
                    push_block(acc, i as i64, block, false);
                }
            }
            Some("content_block_start") => {
                let (Some(index), Some(block @ Parsed::Object(_))) =
                    (int_at(event, "index"), event.get("content_block"))
                else {
                    return acc.error_at(
                        at,
                        "A content_block_start has no index or content_block.".into(),
                    );
                };
                if !acc.streaming() {
                    acc.start_response(object(vec![
                        ("role", Parsed::String("assistant".into())),
                        ("content", Parsed::Array(Vec::new())),
                    ]));
                }
                if acc.block(index).is_some() {
                    return acc.error_at(
                        at,
                        text!(
                            "A content_block_start for block ",
                            index,
                            ", which has started already."
                        ),
                    );
                }
                push_block(acc, index, block.clone(), true);
            }
            Some("content_block_delta") => {
                let Some(b) = int_at(event, "index").and_then(|i| acc.block(i)) else {
                    return acc.error_at(
                        at,
                        "A content_block_delta for a block that never started.".into(),
                    );
                };
                let Some(delta) = event.get("delta") else {
                    return acc.error_at(at, "A content_block_delta has no delta.".into());
                };
                let field = |key: &str| under(&acc.block_at(b), &[key]);
                match str_at(delta, "type") {
                    Some("text_delta") => {
                        let text = str_at(delta, "text").unwrap_or_default().to_string();
                        acc.text_delta(b, field("text"), &text);
                    }
                    Some("thinking_delta") => {
                        let text = str_at(delta, "thinking").unwrap_or_default().to_string();
                        acc.text_delta(b, field("thinking"), &text);
                    }
                    Some("signature_delta") => {
                        let signature = delta.get("signature").cloned().unwrap_or(Parsed::Null);
                        acc.edit_block(b, |block| block.set("signature", signature));
                    }
                    Some("input_json_delta") => {
                        let text = str_at(delta, "partial_json")
                            .unwrap_or_default()
                            .to_string();
                        acc.args_delta(b, &text);
                    }
                    Some("compaction_delta") => {
                        // The summary, whole in one delta as recorded; kept appending all the same.
                        let text = str_at(delta, "content").unwrap_or_default().to_string();
                        acc.edit_block(b, |block| {
                            let mut content =
                                str_at(block, "content").unwrap_or_default().to_string();
                            content.push_str(&text);
                            block.set("content", Parsed::String(content));
                        });
                    }
                    Some("citations_delta") => {
                        let citation = delta.get("citation").cloned().unwrap_or(Parsed::Null);
                        acc.edit_block(b, |block| match block.get_mut("citations") {
                            Some(Parsed::Array(list)) => list.push(citation),
                            _ => block.set("citations", Parsed::Array(vec![citation])),
                        });
                    }
                    _ => {}
                }
            }
            Some("content_block_stop") => match int_at(event, "index").and_then(|i| acc.block(i)) {
                Some(b) => acc.stop_block(b),
                None => acc.error_at(
                    at,
                    "A content_block_stop for a block that never started.".into(),
                ),
            },
            Some("message_delta") => {
                let Some(body) = acc.body_mut() else { return };
                if let Some(Parsed::Object(fields)) = event.get("delta") {
                    for (key, value) in fields {
                        body.set(key, value.clone());
                    }
                }
                if let Some(Parsed::Object(usage)) = event.get("usage") {
                    match body.get_mut("usage") {
                        Some(total @ Parsed::Object(_)) => {
                            for (key, value) in usage {
                                total.set(key, value.clone());
                            }
                        }
                        _ => body.set("usage", Parsed::Object(usage.clone())),
                    }
                }
            }
            Some("message_stop") => {
                acc.finish_response();
                acc.set_done();
            }
            Some("error") => {
                let error = event.get("error");
                let kind = error.and_then(|e| str_at(e, "type")).unwrap_or("error");
                let message = error.and_then(|e| str_at(e, "message")).unwrap_or_default();
                acc.provider_error(at, text!(kind, ": ", message));
            }
            _ => {}
        }
    }
}

/// Adds a block to the message's content.
fn push_block<R: Reader>(acc: &mut Acc<R>, index: i64, block: Parsed, streaming: bool) {
    let tool = matches!(
        str_at(&block, "type"),
        Some("tool_use" | "server_tool_use" | "mcp_tool_use")
    );
    let Some(at) = acc.push_value(&keys(&["content"]), block, false) else {
        return;
    };
    let args = tool.then(|| (under(&at, &["input"]), ArgsMode::Object));
    acc.add_block(index, at, args, streaming);
}

fn open_body<R: Reader>(acc: &Acc<R>) -> Option<&Parsed> {
    acc.streaming().then_some(())?;
    acc.current_body()
}
