//! OpenAI Responses streams (docs/STREAMS.md "Each provider's events"): `response.*` events keyed
//! by `output_index` (and `item_id`).
//!
//! The body is the `response` of `response.created`, its `output` filled item by item:
//! `output_item.added` adds an item (a block), content and summary parts are added by their
//! `*.part.added` events and grow by their `*.delta`s, function-call `arguments` grow by
//! `function_call_arguments.delta`, and `output_item.done` puts the finished item in place. The
//! `response` of `response.completed` / `.incomplete` / `.failed` is the final body. A second
//! `response.created` starts a new message.

use super::OpenaiResponses;
use crate::error::text;
use crate::json::partial::Step;
use crate::prelude::*;
use crate::providers::{Parsed, ReadStream};
use crate::stream::{
    int_at, keys, object, str_at, under, ArgsMode, Reader, StreamAccumulator as Acc,
};

impl ReadStream for OpenaiResponses {
    const EMPTY_BODY: &'static str = r#"[{"type":"message","role":"assistant","content":[]}]"#;

    fn mini_body(_at: &[Step], block: Parsed) -> Parsed {
        Parsed::Array(vec![block])
    }

    fn event<R: Reader>(acc: &mut Acc<R>, at: usize, _name: Option<&str>, event: &Parsed) {
        let Some(kind) = str_at(event, "type") else {
            return;
        };
        match kind {
            "response.created" | "response.in_progress" | "response.queued" => {
                let response = match event.get("response") {
                    Some(r @ Parsed::Object(_)) => r,
                    _ => return,
                };
                let open_same = acc.streaming()
                    && acc.current_body().and_then(|b| str_at(b, "id")) == str_at(response, "id");
                if open_same {
                    return;
                }
                let mut body = response.clone();
                body.set("output", Parsed::Array(Vec::new()));
                acc.start_response(body);
            }
            "response.output_item.added" => {
                let Some(item @ Parsed::Object(_)) = event.get("item") else {
                    return acc.error_at(at, "An output_item.added has no item.".into());
                };
                ensure_response(acc);
                let key = int_at(event, "output_index").unwrap_or(acc.block_count() as i64);
                add_item(acc, key, item.clone(), true);
            }
            "response.output_item.done" => {
                let Some(item @ Parsed::Object(_)) = event.get("item") else {
                    return acc.error_at(at, "An output_item.done has no item.".into());
                };
                match block_of(acc, event) {
                    Some(b) => {
                        let item = item.clone();
                        if acc.block_value(b) != Some(&item) {
                            acc.edit_block(b, |value| *value = item);
                        }
                        acc.stop_block(b);
                    }
                    None => {
                        ensure_response(acc);
                        let key = int_at(event, "output_index").unwrap_or(acc.block_count() as i64);
                        add_item(acc, key, item.clone(), false);
                    }
                }
            }
            "response.content_part.added" | "response.content_part.done" => {
                part_event(acc, at, event, "content", "content_index", "part")
            }
            "response.reasoning_summary_part.added" | "response.reasoning_summary_part.done" => {
                part_event(acc, at, event, "summary", "summary_index", "part")
            }
            "response.output_text.delta" => text_event(
                acc,
                at,
                event,
                "content",
                "content_index",
                "text",
                "delta",
                false,
            ),
            "response.output_text.done" => text_event(
                acc,
                at,
                event,
                "content",
                "content_index",
                "text",
                "text",
                true,
            ),
            "response.refusal.delta" => text_event(
                acc,
                at,
                event,
                "content",
                "content_index",
                "refusal",
                "delta",
                false,
            ),
            "response.refusal.done" => text_event(
                acc,
                at,
                event,
                "content",
                "content_index",
                "refusal",
                "refusal",
                true,
            ),
            "response.reasoning_summary_text.delta" => text_event(
                acc,
                at,
                event,
                "summary",
                "summary_index",
                "text",
                "delta",
                false,
            ),
            "response.reasoning_summary_text.done" => text_event(
                acc,
                at,
                event,
                "summary",
                "summary_index",
                "text",
                "text",
                true,
            ),
            "response.reasoning_text.delta" => text_event(
                acc,
                at,
                event,
                "content",
                "content_index",
                "text",
                "delta",
                false,
            ),
            "response.reasoning_text.done" => text_event(
                acc,
                at,
                event,
                "content",
                "content_index",
                "text",
                "text",
                true,
            ),
            "response.output_text.annotation.added" => {
                let Some(b) = block_of(acc, event) else {
                    return never_started(acc, at, kind);
                };
                let ci = index_at(event, "content_index");
                let annotation = event.get("annotation").cloned().unwrap_or(Parsed::Null);
                acc.edit_block(b, |item| {
                    if let Some(Parsed::Array(parts)) = item.get_mut("content") {
                        if let Some(part) = parts.get_mut(ci) {
                            match part.get_mut("annotations") {
                                Some(Parsed::Array(list)) => list.push(annotation),
                                _ => part.set("annotations", Parsed::Array(vec![annotation])),
                            }
                        }
                    }
                });
            }
            "response.function_call_arguments.delta"
            | "response.custom_tool_call_input.delta"
            | "response.mcp_call_arguments.delta" => {
                let Some(b) = block_of(acc, event) else {
                    return never_started(acc, at, kind);
                };
                let delta = str_at(event, "delta").unwrap_or_default().to_string();
                acc.args_delta(b, &delta);
            }
            "response.completed" | "response.incomplete" | "response.failed" => {
                if let Some(Parsed::Object(fields)) = event.get("response") {
                    ensure_response(acc);
                    if let Some(body) = acc.body_mut() {
                        for (key, value) in fields {
                            let empty_output = key == "output"
                                && !matches!(value, Parsed::Array(list) if !list.is_empty());
                            if !empty_output {
                                body.set(key, value.clone());
                            }
                        }
                    }
                }
                acc.finish_response();
                acc.set_done();
            }
            "error" => {
                let code = str_at(event, "code").unwrap_or("error");
                let message = str_at(event, "message").unwrap_or_default();
                acc.provider_error(at, text!(code, ": ", message));
            }
            _ => {}
        }
    }
}

fn ensure_response<R: Reader>(acc: &mut Acc<R>) {
    if !acc.streaming() {
        acc.start_response(object(vec![("output", Parsed::Array(Vec::new()))]));
    }
}

fn never_started<R: Reader>(acc: &mut Acc<R>, at: usize, kind: &str) {
    acc.error_at(
        at,
        text!("A ", kind, " event for an item that never started."),
    );
}

/// The number of parts in the item's `list` (0 when it has none, or the list is not an array).
fn part_count<R: Reader>(acc: &Acc<R>, b: usize, list: &str) -> usize {
    match acc.block_value(b).and_then(|item| item.get(list)) {
        Some(Parsed::Array(parts)) => parts.len(),
        _ => 0,
    }
}

/// A part index past the end of the item's parts: parts arrive in order, so a gap is a broken
/// stream, and the event becomes an error record (padding the gap would let one small event
/// ask for any amount of memory).
fn part_gap<R: Reader>(acc: &mut Acc<R>, at: usize, event: &Parsed, index_key: &str) {
    let kind = str_at(event, "type").unwrap_or_default();
    let index = int_at(event, index_key).unwrap_or(0);
    acc.error_at(
        at,
        text!(
            "A ",
            kind,
            " event for ",
            index_key,
            " ",
            index,
            ", past the item's parts."
        ),
    );
}

/// The block an event is about: by `output_index`, else by `item_id`.
fn block_of<R: Reader>(acc: &Acc<R>, event: &Parsed) -> Option<usize> {
    if let Some(b) = int_at(event, "output_index").and_then(|i| acc.block(i)) {
        return Some(b);
    }
    let id =
        str_at(event, "item_id").or_else(|| event.get("item").and_then(|i| str_at(i, "id")))?;
    (0..acc.block_count()).find(|&b| acc.block_value(b).and_then(|v| str_at(v, "id")) == Some(id))
}

/// Adds an output item.
fn add_item<R: Reader>(acc: &mut Acc<R>, key: i64, item: Parsed, streaming: bool) {
    let args_key = match str_at(&item, "type") {
        Some("function_call" | "mcp_call") => Some("arguments"),
        Some("custom_tool_call") => Some("input"),
        _ => None,
    };
    let Some(at) = acc.push_value(&keys(&["output"]), item, true) else {
        return;
    };
    let args = args_key.map(|key| (under(&at, &[key]), ArgsMode::Text));
    acc.add_block(key, at, args, streaming);
}

/// `*.part.added` / `*.part.done`: the part at `index_key` of the item's `list`.
fn part_event<R: Reader>(
    acc: &mut Acc<R>,
    at: usize,
    event: &Parsed,
    list: &str,
    index_key: &str,
    part_key: &str,
) {
    let Some(b) = block_of(acc, event) else {
        return never_started(acc, at, str_at(event, "type").unwrap_or_default());
    };
    let index = index_at(event, index_key);
    let Some(part) = event.get(part_key).cloned() else {
        return;
    };
    if index > part_count(acc, b, list) {
        return part_gap(acc, at, event, index_key);
    }
    let same = acc
        .block_value(b)
        .and_then(|item| item.get(list))
        .and_then(|l| match l {
            Parsed::Array(parts) => parts.get(index),
            _ => None,
        })
        == Some(&part);
    if same {
        return;
    }
    acc.edit_block(b, |item| match item.get_mut(list) {
        Some(Parsed::Array(parts)) => match parts.get_mut(index) {
            Some(slot) => *slot = part,
            None => parts.push(part),
        },
        _ => item.set(list, Parsed::Array(vec![part])),
    });
}

/// A text delta (or `.done` with the whole text) for `list[index].field` of an item.
#[allow(clippy::too_many_arguments)]
fn text_event<R: Reader>(
    acc: &mut Acc<R>,
    at: usize,
    event: &Parsed,
    list: &str,
    index_key: &str,
    field: &str,
    value_key: &str,
    whole: bool,
) {
    let Some(b) = block_of(acc, event) else {
        return never_started(acc, at, str_at(event, "type").unwrap_or_default());
    };
    let index = index_at(event, index_key);
    let text = str_at(event, value_key).unwrap_or_default().to_string();
    // The part must exist (reasoning text may arrive with no part event before it): the next
    // part may start here, a later one may not.
    let count = part_count(acc, b, list);
    if index > count {
        return part_gap(acc, at, event, index_key);
    }
    if index == count {
        let kind = match (list, field) {
            ("summary", _) => "summary_text",
            (_, "refusal") => "refusal",
            _ if acc.block_value(b).and_then(|i| str_at(i, "type")) == Some("reasoning") => {
                "reasoning_text"
            }
            _ => "output_text",
        };
        let mut part = object(vec![("type", Parsed::String(kind.into()))]);
        part.set(field, Parsed::String(String::new()));
        let list = list.to_string();
        acc.edit_block(b, move |item| match item.get_mut(&list) {
            Some(Parsed::Array(parts)) => parts.push(part),
            _ => item.set(&list, Parsed::Array(vec![part])),
        });
    }
    let mut path = acc.block_at(b);
    path.extend([
        Step::Key(list.into()),
        Step::Index(index),
        Step::Key(field.into()),
    ]);
    if whole {
        acc.text_done(b, path, &text);
    } else {
        acc.text_delta(b, path, &text);
    }
}
/// A part index (`content_index`, `summary_index`): 0 when absent or negative, and past any list
/// when it does not fit in `usize` (wasm32's is 32 bits: a cast would wrap 2^32 to part 0).
fn index_at(event: &Parsed, key: &str) -> usize {
    usize::try_from(int_at(event, key).unwrap_or(0).max(0)).unwrap_or(usize::MAX)
}
