//! The AI SDK UI message stream (docs/STREAMS.md "Each provider's events", the chunk table of
//! docs/formats/ai-sdk-ui.md): `data: {json}` lines ending with `data: [DONE]`.
//!
//! The body is the assistant UIMessage as `readUIMessageStream` builds it, one body per step:
//! `start-step` ends the step's body and starts the next (with the same message id), so the
//! records of each step stay in display order while it streams. Text and reasoning parts grow by
//! their deltas; a tool part is `input-streaming` while its input text arrives (kept in
//! `rawInput`, parsed as it comes), then takes the state each later chunk gives. An output for a
//! call the stream never opened (a continuation after an approval) is a part marked
//! `continuation`, whose record is the result alone; a `data-*` chunk with the id of a data part
//! replaces its data, a transient one is not kept.

use super::AiSdkUi;
use crate::error::text;
use crate::json::partial::Step;
use crate::prelude::*;
use crate::providers::{Parsed, ReadStream};
use crate::stream::{
    keys, message_body, object, str_at, under, ArgsMode, Reader, StreamAccumulator as Acc,
};

impl ReadStream for AiSdkUi {
    const EMPTY_BODY: &'static str = r#"{"id":"","role":"assistant","parts":[]}"#;

    fn mini_body(_at: &[Step], block: Parsed) -> Parsed {
        message_body("assistant", "parts", block)
    }

    fn event<R: Reader>(acc: &mut Acc<R>, at: usize, _name: Option<&str>, event: &Parsed) {
        let Some(ty) = str_at(event, "type") else {
            return acc.error_at(at, "A chunk has no type.".into());
        };
        match ty {
            "start" => {
                let id = str_at(event, "messageId");
                let open = acc.current_body().filter(|_| acc.streaming());
                let same = match (open.and_then(|b| str_at(b, "id")), id) {
                    (Some(""), _) | (_, None) => true,
                    (Some(a), Some(b)) => a == b,
                    (None, _) => false,
                };
                if open.is_none() || !same {
                    acc.start_response(body(id.unwrap_or_default()));
                }
                if let (Some(id), Some(body)) = (id, acc.body_mut()) {
                    body.set("id", Parsed::String(id.into()));
                }
                merge_metadata(acc, event);
            }
            "start-step" => {
                let has_parts = acc
                    .current_body()
                    .filter(|_| acc.streaming())
                    .and_then(|b| b.get("parts"))
                    .is_some_and(|p| matches!(p, Parsed::Array(list) if !list.is_empty()));
                if has_parts || !acc.streaming() {
                    next_body(acc);
                }
                let step = object(vec![("type", Parsed::String("step-start".into()))]);
                push_part(acc, step);
            }
            "finish-step" => {}
            "text-start" | "reasoning-start" => {
                let Some(id) = str_at(event, "id") else {
                    return acc.error_at(at, text!("A ", ty, " chunk has no id."));
                };
                let kind = if ty == "text-start" {
                    "text"
                } else {
                    "reasoning"
                };
                let mut part = vec![
                    ("type", Parsed::String(kind.into())),
                    ("text", Parsed::String(String::new())),
                    ("state", Parsed::String("streaming".into())),
                ];
                if kind == "reasoning" {
                    part.insert(1, ("id", Parsed::String(id.into())));
                }
                let mut part = object(part);
                if let Some(metadata) = event.get("providerMetadata") {
                    set_metadata(&mut part, metadata.clone());
                }
                let Some(place) = push_part(acc, part) else {
                    return;
                };
                acc.add_block(key(kind, id), place, None, true);
            }
            "text-delta" | "reasoning-delta" => {
                let kind = if ty == "text-delta" {
                    "text"
                } else {
                    "reasoning"
                };
                let Some(b) = str_at(event, "id").and_then(|id| live(acc, key(kind, id))) else {
                    return acc
                        .error_at(at, text!("A ", ty, " chunk for a part that never started."));
                };
                let delta = str_at(event, "delta").unwrap_or_default().to_string();
                acc.text_delta(b, under(&acc.block_at(b), &["text"]), &delta);
                if let Some(metadata) = event.get("providerMetadata") {
                    let metadata = metadata.clone();
                    acc.edit_block(b, |part| set_metadata(part, metadata));
                }
            }
            "text-end" | "reasoning-end" => {
                let kind = if ty == "text-end" {
                    "text"
                } else {
                    "reasoning"
                };
                let Some(b) = str_at(event, "id").and_then(|id| live(acc, key(kind, id))) else {
                    return acc
                        .error_at(at, text!("A ", ty, " chunk for a part that never started."));
                };
                acc.stop_block(b);
                let citations = event.get("citations").cloned();
                let metadata = event.get("providerMetadata").cloned();
                acc.edit_block(b, |part| {
                    part.set("state", Parsed::String("done".into()));
                    if let Some(citations) = citations {
                        part.set("citations", citations);
                    }
                    if let Some(metadata) = metadata {
                        set_metadata(part, metadata);
                    }
                });
            }
            "tool-input-start" | "tool-input-available" | "tool-input-error" => {
                let Some(id) = str_at(event, "toolCallId") else {
                    return acc.error_at(at, text!("A ", ty, " chunk has no toolCallId."));
                };
                let existing = acc.block(key("tool", id));
                if ty == "tool-input-start" && existing.is_some() {
                    return acc.error_at(
                        at,
                        text!(
                            "A tool-input-start for the call ",
                            id,
                            ", which has started already."
                        ),
                    );
                }
                let state = match ty {
                    "tool-input-start" => "input-streaming",
                    "tool-input-available" => "input-available",
                    _ => "output-error",
                };
                match existing {
                    Some(b) => {
                        acc.stop_block(b);
                        acc.edit_block(b, |part| {
                            part.set("state", Parsed::String(state.into()));
                            if let Some(input) = event.get("input") {
                                part.set("input", input.clone());
                                strip(part, &["rawInput"]);
                            }
                            copy(part, event, &["errorText", "providerExecuted", "title"]);
                            if let Some(metadata) = event.get("providerMetadata") {
                                part.set("callProviderMetadata", metadata.clone());
                            }
                            in_order(part);
                        });
                    }
                    None => {
                        let Some(name) = str_at(event, "toolName") else {
                            return acc.error_at(at, text!("A ", ty, " chunk has no toolName."));
                        };
                        let dynamic = event.get("dynamic") == Some(&Parsed::Bool(true));
                        let mut part = if dynamic {
                            object(vec![
                                ("type", Parsed::String("dynamic-tool".into())),
                                ("toolName", Parsed::String(name.into())),
                            ])
                        } else {
                            object(vec![("type", Parsed::String(text!("tool-", name)))])
                        };
                        part.set("toolCallId", Parsed::String(id.into()));
                        part.set("state", Parsed::String(state.into()));
                        if let Some(input) = event.get("input") {
                            part.set("input", input.clone());
                        }
                        copy(
                            &mut part,
                            event,
                            &["errorText", "providerExecuted", "title", "toolMetadata"],
                        );
                        in_order(&mut part);
                        if let Some(metadata) = event.get("providerMetadata") {
                            part.set("callProviderMetadata", metadata.clone());
                        }
                        let streaming = ty == "tool-input-start";
                        let Some(place) = push_part(acc, part) else {
                            return;
                        };
                        let args =
                            streaming.then(|| (under(&place, &["rawInput"]), ArgsMode::Text));
                        acc.add_block(key("tool", id), place, args, streaming);
                    }
                }
            }
            "tool-input-delta" => {
                let Some(b) = str_at(event, "toolCallId").and_then(|id| live(acc, key("tool", id)))
                else {
                    return acc.error_at(
                        at,
                        "A tool-input-delta for a call that never started.".into(),
                    );
                };
                let delta = str_at(event, "inputTextDelta")
                    .unwrap_or_default()
                    .to_string();
                acc.args_delta(b, &delta);
            }
            "tool-approval-request"
            | "tool-approval-response"
            | "tool-output-available"
            | "tool-output-error"
            | "tool-output-denied" => {
                let Some(id) = str_at(event, "toolCallId")
                    .map(str::to_string)
                    .or_else(|| approval_call(acc, event))
                else {
                    return acc.error_at(at, text!("A ", ty, " chunk has no toolCallId."));
                };
                tool_state(acc, at, ty, &id, event);
            }
            "source-url" | "source-document" | "custom" | "file" | "reasoning-file" => {
                let mut part = event.clone();
                if ty == "source-url" || ty == "source-document" || ty == "file" {
                    strip(&mut part, &["providerExecuted"]);
                }
                let Some(place) = push_part(acc, part) else {
                    return;
                };
                if ty == "file" {
                    acc.add_block(
                        key("file", &text!(place.len(), ":", at)),
                        place,
                        None,
                        false,
                    );
                }
            }
            "steering-message" => {
                let Some(place) = push_part(acc, event.clone()) else {
                    return;
                };
                acc.add_block(key("steer", &text!(at)), place, None, false);
            }
            "message-metadata" => merge_metadata(acc, event),
            "finish" => {
                merge_metadata(acc, event);
                acc.finish_response();
                acc.set_done();
            }
            "abort" => {
                acc.finish_response();
                acc.set_done();
            }
            "error" => {
                let message = str_at(event, "errorText").unwrap_or_default().to_string();
                acc.provider_error(at, message);
            }
            // A retried step: the records of the step so far stay (patches remove nothing), and
            // the retry streams into a new body.
            "reset-step" if acc.streaming() => next_body(acc),
            t if t.starts_with("data-") => data(acc, event),
            _ => {}
        }
    }
}

/// An empty assistant UIMessage with this id.
fn body(id: &str) -> Parsed {
    object(vec![
        ("id", Parsed::String(id.into())),
        ("role", Parsed::String("assistant".into())),
        ("parts", Parsed::Array(Vec::new())),
    ])
}

/// Starts the body of the next step: the message's id and metadata, no parts yet.
fn next_body<R: Reader>(acc: &mut Acc<R>) {
    let current = acc.current_body();
    let id = current
        .and_then(|b| str_at(b, "id"))
        .unwrap_or_default()
        .to_string();
    let metadata = current.and_then(|b| b.get("metadata")).cloned();
    let mut next = body(&id);
    if let Some(metadata) = metadata {
        next.set("metadata", metadata);
    }
    acc.start_response(next);
}

/// Starts a body if none is open (parts that come before `start`).
fn open<R: Reader>(acc: &mut Acc<R>) {
    if !acc.streaming() {
        acc.start_response(body(""));
    }
}

/// Adds `part` to the body's parts, starting a body if none is open; the part's place.
fn push_part<R: Reader>(acc: &mut Acc<R>, part: Parsed) -> Option<Vec<Step>> {
    open(acc);
    acc.push_value(&keys(&["parts"]), part, true)
}

/// A block key from a part's kind and its id in the stream (FNV-1a): ids are strings, keys
/// numbers, and a later part with the same id (Anthropic's block indices recur in every step)
/// is the one found.
fn key(kind: &str, id: &str) -> i64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in kind.bytes().chain([0]).chain(id.bytes()) {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash as i64
}

/// The block under `key`, when it is still streaming.
fn live<R: Reader>(acc: &Acc<R>, key: i64) -> Option<usize> {
    acc.block(key).filter(|&b| acc.block_streaming(b))
}

/// Sets a text or reasoning part's `providerMetadata`, which the AI SDK's parts hold before
/// `state` (JSON text of the body then reads as the SDK's does).
fn set_metadata(part: &mut Parsed, metadata: Parsed) {
    if let Parsed::Object(entries) = part {
        if let Some(slot) = entries.iter_mut().find(|(k, _)| k == "providerMetadata") {
            slot.1 = metadata;
            return;
        }
        let at = entries
            .iter()
            .position(|(k, _)| k == "state")
            .unwrap_or(entries.len());
        entries.insert(at, ("providerMetadata".into(), metadata));
    }
}

/// Copies the fields of `event` named in `keys` onto `part`.
fn copy(part: &mut Parsed, event: &Parsed, keys: &[&str]) {
    for key in keys {
        if let Some(value) = event.get(key) {
            part.set(key, value.clone());
        }
    }
}

/// Removes the fields named in `keys` from `part`.
fn strip(part: &mut Parsed, keys: &[&str]) {
    if let Parsed::Object(entries) = part {
        entries.retain(|(k, _)| !keys.contains(&k.as_str()));
    }
}

/// The call a `tool-approval-response` answers, by its approval id.
fn approval_call<R: Reader>(acc: &Acc<R>, event: &Parsed) -> Option<String> {
    let approval = str_at(event, "approvalId")?;
    let Some(Parsed::Array(parts)) = acc.current_body()?.get("parts") else {
        return None;
    };
    parts.iter().rev().find_map(|p| {
        let id = p.get("approval").and_then(|a| str_at(a, "id"))?;
        (id == approval)
            .then(|| str_at(p, "toolCallId").map(str::to_string))
            .flatten()
    })
}

/// A chunk that moves a tool part to a later state; for a call the stream never opened (an
/// approval answered in an earlier response), a `continuation` part holding the output, which
/// gives the result's record alone (none for a denial). Only an approval request needs its call.
fn tool_state<R: Reader>(acc: &mut Acc<R>, at: usize, ty: &str, id: &str, event: &Parsed) {
    let Some(b) = acc.block(key("tool", id)) else {
        if ty == "tool-approval-request" {
            return acc.error_at(
                at,
                text!(
                    "A ",
                    ty,
                    " chunk for the call ",
                    id,
                    ", which this stream never opened."
                ),
            );
        }
        let mut part = object(vec![
            ("type", Parsed::String("dynamic-tool".into())),
            ("toolCallId", Parsed::String(id.into())),
            ("continuation", Parsed::Bool(true)),
        ]);
        apply_state(&mut part, ty, event);
        let Some(place) = push_part(acc, part) else {
            return;
        };
        acc.add_block(key("tool", id), place, None, false);
        return;
    };
    acc.stop_block(b);
    acc.edit_block(b, |part| apply_state(part, ty, event));
}

fn apply_state(part: &mut Parsed, ty: &str, event: &Parsed) {
    let state = match ty {
        "tool-approval-request" => {
            let mut fields = vec![(
                "id",
                event.get("approvalId").cloned().unwrap_or(Parsed::Null),
            )];
            for (from, to) in [
                ("approvalDescriptor", "descriptor"),
                ("inputSchemaInput", "inputSchemaInput"),
                ("reason", "requestReason"),
                ("isAutomatic", "isAutomatic"),
                ("signature", "signature"),
            ] {
                if let Some(value) = event.get(from) {
                    fields.push((to, value.clone()));
                }
            }
            part.set("approval", object(fields));
            "approval-requested"
        }
        "tool-approval-response" => {
            let mut fields = match part.get("approval") {
                Some(Parsed::Object(entries)) => entries.clone(),
                _ => Vec::new(),
            };
            let mut set = |k: &str, v: Parsed| match fields.iter_mut().find(|(key, _)| key == k) {
                Some(slot) => slot.1 = v,
                None => fields.push((k.to_string(), v)),
            };
            set(
                "approved",
                event
                    .get("approved")
                    .cloned()
                    .unwrap_or(Parsed::Bool(false)),
            );
            if let Some(reason) = event.get("reason") {
                set("reason", reason.clone());
            }
            part.set("approval", Parsed::Object(fields));
            "approval-responded"
        }
        "tool-output-available" => {
            part.set(
                "output",
                event.get("output").cloned().unwrap_or(Parsed::Null),
            );
            strip(part, &["preliminary", "errorText"]);
            copy(part, event, &["preliminary"]);
            "output-available"
        }
        "tool-output-error" => {
            strip(part, &["output", "preliminary"]);
            copy(part, event, &["errorText"]);
            "output-error"
        }
        _ => "output-denied",
    };
    if let Some(metadata) = event.get("providerMetadata") {
        if ty.starts_with("tool-output") {
            part.set("resultProviderMetadata", metadata.clone());
        }
    }
    copy(part, event, &["providerExecuted"]);
    part.set("state", Parsed::String(state.into()));
    in_order(part);
}

/// Puts a tool part's keys in the order the AI SDK creates them (`updateToolPart` and
/// `updateDynamicToolPart` of `ai@7.0.173 src/ui/process-ui-message-stream.ts`), keys it adds
/// later after them, so that the body's JSON text reads as the SDK's message.
fn in_order(part: &mut Parsed) {
    const STATIC: [&str; 12] = [
        "type",
        "toolCallId",
        "state",
        "title",
        "toolMetadata",
        "input",
        "inputEncoding",
        "output",
        "rawInput",
        "errorText",
        "providerExecuted",
        "preliminary",
    ];
    const DYNAMIC: [&str; 13] = [
        "type",
        "toolName",
        "toolCallId",
        "state",
        "input",
        "inputEncoding",
        "output",
        "errorText",
        "preliminary",
        "providerExecuted",
        "title",
        "toolMetadata",
        "continuation",
    ];
    let order: &[&str] = if str_at(part, "type") == Some("dynamic-tool") {
        &DYNAMIC
    } else {
        &STATIC
    };
    if let Parsed::Object(entries) = part {
        let rank = |k: &str| order.iter().position(|o| *o == k).unwrap_or(order.len());
        // A stable sort: keys outside the list keep their order, after the listed ones.
        crate::sort::sort_by(entries, |a, b| rank(&a.0) < rank(&b.0));
    }
}

/// Merges a chunk's `messageMetadata` into the body's `metadata`, key by key.
fn merge_metadata<R: Reader>(acc: &mut Acc<R>, event: &Parsed) {
    let Some(Parsed::Object(given)) = event.get("messageMetadata") else {
        return;
    };
    let given = given.clone();
    if acc.current_body().is_none() {
        open(acc);
    }
    let Some(body) = acc.body_mut() else { return };
    match body.get_mut("metadata") {
        Some(metadata @ Parsed::Object(_)) => {
            for (key, value) in given {
                metadata.set(&key, value);
            }
        }
        _ => body.set("metadata", Parsed::Object(given)),
    }
}

/// A `data-*` chunk: replaces the data of the part of its type and id, else is added; a
/// transient one is not kept.
fn data<R: Reader>(acc: &mut Acc<R>, event: &Parsed) {
    if event.get("transient") == Some(&Parsed::Bool(true)) {
        return;
    }
    let mut part = event.clone();
    strip(&mut part, &["transient"]);
    open(acc);
    let ty = str_at(event, "type").unwrap_or_default().to_string();
    let id = str_at(event, "id").map(str::to_string);
    if let Some(id) = id {
        let Some(body) = acc.body_mut() else { return };
        if let Some(Parsed::Array(parts)) = body.get_mut("parts") {
            if let Some(existing) = parts.iter_mut().find(|p| {
                str_at(p, "type") == Some(ty.as_str()) && str_at(p, "id") == Some(id.as_str())
            }) {
                existing.set("data", event.get("data").cloned().unwrap_or(Parsed::Null));
                return;
            }
        }
    }
    push_part(acc, part);
}
