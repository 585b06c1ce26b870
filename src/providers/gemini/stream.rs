//! Google Gemini `streamGenerateContent?alt=sse` (docs/STREAMS.md "Each provider's events"): each
//! chunk is a whole `GenerateContentResponse` whose parts are new fragments; no `[DONE]`.
//!
//! The body is a response with one candidate. A text part joins the previous part when both are
//! text with the same `thought` flag (its `thoughtSignature`, if any, goes on the joined part);
//! any other part starts a new one and ends the part before. A function call that opens with
//! `willContinue: true` gets its arguments from `partialArgs` fragments (`jsonPath` plus a typed
//! value; string values with `willContinue` concatenate) until an empty `functionCall` closes it.
//! The chunk with `finishReason` ends the message, and so does a chunk with no candidates whose
//! `promptFeedback` has a `blockReason` (a blocked prompt, before any part).

use super::Gemini;
use crate::json::partial::{Change, Step};
use crate::prelude::*;
use crate::providers::{Parsed, ReadStream};
use crate::stream::{
    message_body, object, under, ArgsMode, Reader, StreamAccumulator as Acc, Transport,
};

fn parts_path() -> Vec<Step> {
    vec![
        Step::Key("candidates".into()),
        Step::Index(0),
        Step::Key("content".into()),
        Step::Key("parts".into()),
    ]
}

/// A part is text when its only data field is `text`.
fn is_text(part: &Parsed) -> bool {
    let Parsed::Object(fields) = part else {
        return false;
    };
    matches!(part.get("text"), Some(Parsed::String(_)))
        && fields
            .iter()
            .all(|(k, _)| matches!(k.as_str(), "text" | "thought" | "thoughtSignature"))
}

fn thought(part: &Parsed) -> bool {
    matches!(part.get("thought"), Some(Parsed::Bool(true)))
}

/// `$.a.b[0]['c d']` as steps; `None` when it does not read.
pub(super) fn json_path(text: &str) -> Option<Vec<Step>> {
    let mut rest = text.strip_prefix('$')?;
    let mut steps = Vec::new();
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('.') {
            let end = after.find(['.', '[']).unwrap_or(after.len());
            let (key, tail) = (after.get(..end)?, after.get(end..)?);
            if key.is_empty() {
                return None;
            }
            steps.push(Step::Key(key.to_string()));
            rest = tail;
        } else if let Some(after) = rest.strip_prefix('[') {
            let quote = after.chars().next().filter(|c| *c == '\'' || *c == '"');
            if let Some(q) = quote {
                let inner = after.get(1..)?;
                let end = inner.find(q)?;
                let key = inner.get(..end)?;
                steps.push(Step::Key(key.to_string()));
                rest = inner.get(end + 1..)?.strip_prefix(']')?;
            } else {
                let end = after.find(']')?;
                let index: usize = after.get(..end)?.parse().ok()?;
                steps.push(Step::Index(index));
                rest = after.get(end + 1..)?;
            }
        } else {
            return None;
        }
    }
    Some(steps)
}

/// The changes that put `value` at `path` of `current`, creating missing objects and arrays on the
/// way (`Set` only adds a key or the next element). `false`, with nothing added to `out`, when an
/// index of the path skips past the end of its array: elements arrive in order, and filling the
/// gap would let one short path ask for any amount of memory.
fn set_changes(current: &Parsed, path: &[Step], value: Parsed, out: &mut Vec<Change>) -> bool {
    if path.is_empty() {
        out.push(Change::Set {
            path: Vec::new(),
            value,
        });
        return true;
    }
    let start = out.len();
    // What exists at the current step: `None` below a container this function creates.
    let mut at = Some(current);
    let mut here = Vec::new();
    for (i, step) in path.iter().enumerate() {
        if let Step::Index(n) = step {
            let len = match at {
                Some(Parsed::Array(items)) => items.len(),
                None => 0,
                Some(_) => usize::MAX,
            };
            if *n > len {
                out.truncate(start);
                return false;
            }
        }
        let next = match (at, step) {
            (Some(o @ Parsed::Object(_)), Step::Key(k)) => o.get(k),
            (Some(Parsed::Array(items)), Step::Index(n)) => items.get(*n),
            _ => None,
        };
        here.push(step.clone());
        let Some(following) = path.get(i + 1) else {
            out.push(Change::Set { path: here, value });
            return true;
        };
        at = match (next, following) {
            (Some(o @ Parsed::Object(_)), Step::Key(_)) => Some(o),
            (Some(a @ Parsed::Array(_)), Step::Index(_)) => Some(a),
            _ => {
                let empty = match following {
                    Step::Index(_) => Parsed::Array(Vec::new()),
                    Step::Key(_) => Parsed::Object(Vec::new()),
                };
                out.push(Change::Set {
                    path: here.clone(),
                    value: empty,
                });
                None
            }
        };
    }
    true
}

impl ReadStream for Gemini {
    const EMPTY_BODY: &'static str = r#"{"role":"model","parts":[]}"#;

    /// Server-sent events (`alt=sse`); without `alt=sse`, one JSON array that grows.
    const TRANSPORTS: &'static [Transport] = &[Transport::Sse, Transport::JsonArray];

    fn mini_body(_at: &[Step], block: Parsed) -> Parsed {
        message_body("model", "parts", block)
    }

    fn event<R: Reader>(acc: &mut Acc<R>, at: usize, _name: Option<&str>, event: &Parsed) {
        let candidate = match event.get("candidates") {
            Some(Parsed::Array(list)) => list.first(),
            _ => None,
        };
        if !acc.streaming() {
            if candidate.is_none() && acc.current_body().is_some() {
                // A late chunk (usage only) after the end.
                top_fields(acc, event);
                return;
            }
            acc.start_response(object(vec![(
                "candidates",
                Parsed::Array(vec![object(vec![
                    (
                        "content",
                        object(vec![
                            ("role", Parsed::String("model".into())),
                            ("parts", Parsed::Array(Vec::new())),
                        ]),
                    ),
                    ("index", Parsed::Number(0.into())),
                ])]),
            )]));
        }
        top_fields(acc, event);
        let Some(candidate) = candidate else {
            let blocked = event
                .get("promptFeedback")
                .is_some_and(|f| matches!(f.get("blockReason"), Some(Parsed::String(_))));
            if blocked && acc.block_count() == 0 {
                // A blocked prompt: the body is a response with no candidates, as the
                // non-streaming one is, which reads as the block reason.
                if let Some(body) = acc.body_mut() {
                    body.set("candidates", Parsed::Array(Vec::new()));
                }
                acc.finish_response();
                acc.set_done();
            }
            return;
        };
        match candidate.get("content").and_then(|c| c.get("parts")) {
            Some(Parsed::Array(parts)) => {
                for part in parts {
                    read_part(acc, at, part);
                }
            }
            None | Some(Parsed::Null) => {}
            Some(_) => return acc.error_at(at, "A candidate's parts is not an array.".into()),
        }
        if let (Some(body), Parsed::Object(fields)) = (acc.body_mut(), candidate) {
            if let Some(target) =
                crate::stream::get_path_mut(body, &[Step::Key("candidates".into()), Step::Index(0)])
            {
                for (key, value) in fields {
                    if key != "content" {
                        target.set(key, value.clone());
                    }
                }
            }
        }
        if matches!(candidate.get("finishReason"), Some(Parsed::String(_))) {
            acc.finish_response();
            acc.set_done();
        }
    }
}

/// The chunk's top-level fields other than `candidates` (usage, model version, response id).
fn top_fields<R: Reader>(acc: &mut Acc<R>, event: &Parsed) {
    if let (Some(body), Parsed::Object(fields)) = (acc.body_mut(), event) {
        for (key, value) in fields {
            if key != "candidates" {
                body.set(key, value.clone());
            }
        }
    }
}

fn read_part<R: Reader>(acc: &mut Acc<R>, at: usize, part: &Parsed) {
    let last = acc.block_count().checked_sub(1);
    let open_call = last.filter(|&b| {
        acc.block_streaming(b)
            && acc
                .block_value(b)
                .is_some_and(|v| v.get("functionCall").is_some())
    });
    if let Some(call) = part.get("functionCall") {
        let has = |key: &str| call.get(key).is_some();
        if let (Some(b), true) = (open_call, has("partialArgs") || !has("name")) {
            if let Some(Parsed::Array(fragments)) = call.get("partialArgs") {
                partial_args(acc, at, b, fragments);
            }
            let closes = !has("partialArgs")
                && !matches!(call.get("willContinue"), Some(Parsed::Bool(true)));
            if closes {
                acc.pending_path = None;
                acc.stop_block(b);
            }
            return;
        }
        if let Some(b) = last {
            acc.stop_block(b);
        }
        let streamed = matches!(call.get("willContinue"), Some(Parsed::Bool(true)));
        let mut value = part.clone();
        if streamed {
            if let Some(f) = value.get_mut("functionCall") {
                if let Parsed::Object(fields) = f {
                    fields.retain(|(k, _)| k != "willContinue" && k != "partialArgs");
                }
                if f.get("args").is_none() {
                    f.set("args", Parsed::Object(Vec::new()));
                }
            }
        }
        let b = push_part(acc, value, streamed, streamed);
        if streamed {
            acc.pending_path = None;
            if let Some(Parsed::Array(fragments)) = call.get("partialArgs") {
                partial_args(acc, at, b, fragments);
            }
        }
        return;
    }
    if is_text(part) {
        let joins = last.filter(|&b| {
            acc.block_streaming(b)
                && acc
                    .block_value(b)
                    .is_some_and(|v| is_text(v) && thought(v) == thought(part))
        });
        if let Some(b) = joins {
            let field = under(&acc.block_at(b), &["text"]);
            let text = part
                .get("text")
                .and_then(Parsed::as_string)
                .unwrap_or_default()
                .to_string();
            acc.text_delta(b, field, &text);
            if let Some(signature) = part.get("thoughtSignature").cloned() {
                acc.edit_block(b, |v| v.set("thoughtSignature", signature));
            }
            return;
        }
        if let Some(b) = last {
            acc.stop_block(b);
        }
        push_part(acc, part.clone(), true, false);
        return;
    }
    if let Some(b) = last {
        acc.stop_block(b);
    }
    push_part(acc, part.clone(), false, false);
}

/// Adds a part to the candidate's content; `streamed_args`: its arguments come as `partialArgs`.
fn push_part<R: Reader>(
    acc: &mut Acc<R>,
    part: Parsed,
    streaming: bool,
    streamed_args: bool,
) -> usize {
    let Some(at) = acc.push_value(&parts_path(), part, false) else {
        return 0;
    };
    let args = streamed_args.then(|| (under(&at, &["functionCall", "args"]), ArgsMode::Changes));
    let key = acc.block_count() as i64;
    acc.add_block(key, at, args, streaming)
}

fn skips_an_element<R: Reader>(acc: &mut Acc<R>, at: usize) {
    acc.error_at(
        at,
        "A partialArgs fragment's jsonPath skips past the end of an array.".into(),
    );
}

/// `partialArgs: [{jsonPath, stringValue | numberValue | boolValue | nullValue | ..., willContinue}]`.
fn partial_args<R: Reader>(acc: &mut Acc<R>, at: usize, b: usize, fragments: &[Parsed]) {
    let mut current = acc
        .block_value(b)
        .and_then(|v| v.get("functionCall"))
        .and_then(|f| f.get("args"))
        .cloned()
        .unwrap_or(Parsed::Object(Vec::new()));
    let mut changes = Vec::new();
    for fragment in fragments {
        let Some(path) = crate::stream::str_at(fragment, "jsonPath").and_then(json_path) else {
            acc.error_at(
                at,
                "A partialArgs fragment has no readable jsonPath.".into(),
            );
            continue;
        };
        let continues = matches!(fragment.get("willContinue"), Some(Parsed::Bool(true)));
        let mut made = Vec::new();
        if let Some(text) = crate::stream::str_at(fragment, "stringValue") {
            let appending = acc.pending_path.as_ref() == Some(&path)
                && matches!(
                    crate::stream::get_path(&current, &path),
                    Some(Parsed::String(_))
                );
            if appending {
                if !text.is_empty() {
                    made.push(Change::Append {
                        path: path.clone(),
                        text: text.to_string(),
                    });
                }
            } else if !set_changes(&current, &path, Parsed::String(text.to_string()), &mut made) {
                skips_an_element(acc, at);
                continue;
            }
        } else {
            let value = ["numberValue", "boolValue", "structValue", "listValue"]
                .iter()
                .find_map(|k| fragment.get(k).cloned())
                .unwrap_or(Parsed::Null);
            if !set_changes(&current, &path, value, &mut made) {
                skips_an_element(acc, at);
                continue;
            }
        }
        acc.pending_path = continues.then_some(path);
        for change in &made {
            crate::json::partial::apply(&mut current, change);
        }
        changes.extend(made);
    }
    acc.args_changes(b, changes);
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::partial::apply;

    #[test]
    fn a_json_path_into_nothing_creates_its_containers() {
        let mut value = Parsed::Object(Vec::new());
        let mut changes = Vec::new();
        let path = json_path("$.a.b[0].c").unwrap();
        assert!(set_changes(&value, &path, Parsed::Bool(true), &mut changes));
        assert_eq!(changes.len(), 4);
        for change in &changes {
            apply(&mut value, change);
        }
        let expected: Parsed = serde_json::from_str(r#"{"a":{"b":[{"c":true}]}}"#).unwrap();
        assert_eq!(value, expected);
        // Into what exists: only the next element.
        let mut more = Vec::new();
        assert!(set_changes(
            &value,
            &json_path("$.a.b[1]").unwrap(),
            Parsed::Null,
            &mut more,
        ));
        assert_eq!(more.len(), 1);
    }

    #[test]
    fn a_json_path_past_the_end_of_an_array_changes_nothing() {
        // Found by fuzzing the Responses part lists: filling a gap let one short path ask for any
        // amount of memory (here four billion changes).
        let value: Parsed = serde_json::from_str(r#"{"a":{"b":[1]}}"#).unwrap();
        for path in ["$.a.b[2]", "$.a.b[4000000000]", "$.x.y[1]", "$.x[0].y[3].z"] {
            let mut out = vec![Change::Append {
                path: Vec::new(),
                text: "kept".into(),
            }];
            assert!(
                !set_changes(&value, &json_path(path).unwrap(), Parsed::Null, &mut out),
                "{path}"
            );
            assert_eq!(
                out.len(),
                1,
                "{path}: what was there before stays, nothing more"
            );
        }
    }
}
