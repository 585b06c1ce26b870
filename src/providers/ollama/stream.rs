//! Ollama's stream (docs/STREAMS.md "Each provider's events"): NDJSON, each line a response
//! object `{model, created_at, message: {role, content, thinking?, tool_calls?}, done}` whose
//! `content` and `thinking` are new fragments and whose `tool_calls` arrive whole; the last line
//! has `done: true`, `done_reason` and the durations and counts. A line `{"error": "..."}` is an
//! error record (the accumulator reads error bodies in every format).
//!
//! The body is the non-streaming response: the top-level fields as the last line gave them, and
//! one message whose `thinking` and `content` are each a block that grows, and each tool call a
//! block of its own.

use super::Ollama;
use crate::json::partial::Step;
use crate::prelude::*;
use crate::providers::{Parsed, ReadStream};
use crate::stream::{keys, object, str_at, Reader, StreamAccumulator as Acc, Transport};

/// Block keys of the message's two texts; tool calls are keyed by their position (>= 0).
const THINKING: i64 = -2;
const CONTENT: i64 = -1;

fn message_path(key: &str) -> Vec<Step> {
    keys(&["message", key])
}

fn empty_message() -> Parsed {
    object(vec![
        ("role", Parsed::String("assistant".into())),
        ("content", Parsed::String(String::new())),
    ])
}

impl ReadStream for Ollama {
    const EMPTY_BODY: &'static str = r#"{"message":{"role":"assistant","content":""}}"#;

    /// NDJSON as Ollama sends it; server-sent events from a proxy that re-encodes the lines.
    const TRANSPORTS: &'static [Transport] = &[Transport::Ndjson, Transport::Sse];

    /// The response whose message holds only the block at `at`: its thinking, its content, or
    /// one tool call.
    fn mini_body(at: &[Step], value: Parsed) -> Parsed {
        let mut message = empty_message();
        match at {
            [.., Step::Key(key), Step::Index(_)] if key == "tool_calls" => {
                message.set("tool_calls", Parsed::Array(vec![value]))
            }
            [.., Step::Key(key)] => message.set(key, value),
            _ => {}
        }
        object(vec![("message", message)])
    }

    fn event<R: Reader>(acc: &mut Acc<R>, at: usize, _name: Option<&str>, event: &Parsed) {
        if !acc.streaming() {
            acc.start_response(object(vec![("message", empty_message())]));
        }
        if let (Some(body), Parsed::Object(fields)) = (acc.body_mut(), event) {
            for (key, value) in fields {
                if key != "message" {
                    body.set(key, value.clone());
                }
            }
        }
        match event.get("message") {
            Some(message @ Parsed::Object(_)) => {
                for (key, block_key) in [("thinking", THINKING), ("content", CONTENT)] {
                    let Some(text) = str_at(message, key).filter(|t| !t.is_empty()) else {
                        continue;
                    };
                    let b = match acc.block(block_key) {
                        Some(b) => b,
                        None => {
                            let Some(body) = acc.body_mut() else { return };
                            crate::stream::set_path(
                                body,
                                &message_path(key),
                                Parsed::String(String::new()),
                            );
                            acc.add_block(block_key, message_path(key), None, true)
                        }
                    };
                    acc.text_delta(b, message_path(key), text);
                }
                match message.get("tool_calls") {
                    Some(Parsed::Array(calls)) => {
                        for call in calls {
                            let Some(place) =
                                acc.push_value(&message_path("tool_calls"), call.clone(), true)
                            else {
                                return;
                            };
                            let key = acc.block_count() as i64;
                            acc.add_block(key, place, None, false);
                        }
                    }
                    None | Some(Parsed::Null) => {}
                    Some(_) => {
                        return acc.error_at(at, "A message's tool_calls is not an array.".into())
                    }
                }
            }
            None | Some(Parsed::Null) => {}
            Some(_) => return acc.error_at(at, "A chunk's message is not an object.".into()),
        }
        if matches!(event.get("done"), Some(Parsed::Bool(true))) {
            acc.finish_response();
            acc.set_done();
        }
    }
}
