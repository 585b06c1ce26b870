//! The recorded-style stream fixtures in `tests/fixtures/streams/<protocol>/` (see the README there)
//! are well formed, and their final bodies read through `fromProvider`:
//!
//! * every `<name>.final.json` (or each element of one that is an array: several messages in one
//!   stream) reads with the protocol of its directory, without error, into at least one assistant
//!   message carrying as many tool calls as the body itself has (`tool_use` blocks, `tool_calls`
//!   entries, `function_call` items, `toolUse` blocks, `functionCall` parts);
//! * every `<name>.sse` is non-empty, ends with a newline, uses one line ending throughout, and every
//!   `data:` payload but `[DONE]` is JSON; where an `event:` line names the event, it is the
//!   payload's `type`; every `<name>.ndjson` (Ollama's framing) is non-empty lines each a JSON
//!   object, ending with a newline;
//! * every stream has either a final body or a `<name>.expect.json` (`{"messages": n, "note"}`) for
//!   streams that have no final body, and every format of the registry that has a stream has a
//!   directory here with at least 8 streams.
//!
//! The stream accumulator's own tests replay the same files; this one only guards the data.
#![cfg(not(target_arch = "wasm32"))]

use chat_display::providers::{from_provider, has_stream, WireProtocol};
use serde_json::{json, Value};
use std::fs;
use std::path::{Path, PathBuf};

/// The formats of the registry that have a stream: each has its directory of fixtures.
fn protocols() -> Vec<&'static str> {
    WireProtocol::ALL
        .into_iter()
        .filter(|p| has_stream(*p))
        .map(WireProtocol::as_str)
        .collect()
}

/// The extensions of stream files: server-sent events, and NDJSON (Ollama's).
const STREAM_FILES: [&str; 2] = [".sse", ".ndjson"];

/// A protocol's stream files.
fn streams(protocol: &str) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = STREAM_FILES
        .iter()
        .flat_map(|s| files(protocol, s))
        .collect();
    found.sort();
    found
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/streams")
}

/// The files of one protocol's directory whose names end with `suffix`, sorted.
fn files(protocol: &str, suffix: &str) -> Vec<PathBuf> {
    let dir = root().join(protocol);
    let mut found: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|p| p.to_str().is_some_and(|s| s.ends_with(suffix)))
        .collect();
    found.sort();
    found
}

fn read_json(path: &Path) -> Value {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: not JSON: {e}", path.display()))
}

fn list<'a>(value: &'a Value, pointer: &str) -> &'a [Value] {
    value
        .pointer(pointer)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

/// The tool calls a final body holds, counted in the body itself.
fn expected_calls(protocol: &str, body: &Value) -> usize {
    let typed = |items: &[Value], ty: &str| items.iter().filter(|b| b["type"] == ty).count();
    let keyed = |items: &[Value], key: &str| items.iter().filter(|b| b.get(key).is_some()).count();
    match protocol {
        "anthropic_messages" => typed(list(body, "/content"), "tool_use"),
        "openai_completions" => list(body, "/choices/0/message/tool_calls").len(),
        "openai_responses" => typed(list(body, "/output"), "function_call"),
        "bedrock_converse" => keyed(list(body, "/output/message/content"), "toolUse"),
        "ollama" => list(body, "/message/tool_calls").len(),
        "google_gemini" => {
            let parts = list(body, "/candidates/0/content/parts");
            keyed(parts, "functionCall") + keyed(parts, "toolCall")
        }
        "ai_sdk_ui" => list(body, "/parts")
            .iter()
            .filter(|p| {
                p["type"]
                    .as_str()
                    .is_some_and(|t| t.starts_with("tool-") || t == "dynamic-tool")
            })
            .count(),
        other => panic!("unknown protocol directory {other}"),
    }
}

#[test]
fn final_bodies_read_through_from_provider() {
    let mut bodies = 0;
    for protocol in protocols() {
        let protocol_json = json!(protocol);
        for path in files(protocol, ".final.json") {
            let name = path.display();
            let value = read_json(&path);
            let elements = match &value {
                Value::Array(items) => {
                    assert!(items.len() >= 2, "{name}: an array holds several bodies");
                    items.clone()
                }
                _ => vec![value.clone()],
            };
            for (i, body) in elements.iter().enumerate() {
                let want = expected_calls(protocol, body);
                let messages = from_provider(&&protocol_json, &body)
                    .unwrap_or_else(|e| panic!("{name} [{i}]: fromProvider: {}", e.message));
                let messages = serde_json::to_value(messages).expect("messages serialize");
                let assistant: Vec<&Value> = messages
                    .as_array()
                    .expect("an array of messages")
                    .iter()
                    .filter(|m| m["role"] == "assistant")
                    .collect();
                assert!(
                    !assistant.is_empty(),
                    "{name} [{i}]: no assistant message in {messages}"
                );
                let got: usize = assistant.iter().map(|m| list(m, "/tool_calls").len()).sum();
                assert_eq!(got, want, "{name} [{i}]: tool calls in {messages}");
                bodies += 1;
            }
        }
    }
    assert!(bodies >= 40, "only {bodies} final bodies found");
}

#[test]
fn sse_files_are_well_formed() {
    for protocol in protocols() {
        for path in files(protocol, ".sse") {
            let name = path.display();
            let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(!text.is_empty(), "{name}: empty");
            assert!(text.ends_with('\n'), "{name}: no newline at the end");
            let crlf = text.contains("\r\n");
            if crlf {
                assert_eq!(
                    text.matches("\r\n").count(),
                    text.matches('\n').count(),
                    "{name}: mixed line endings"
                );
            }
            let mut data_lines = 0;
            let mut event: Option<String> = None;
            for (n, line) in text.split('\n').enumerate() {
                let line = line.strip_suffix('\r').unwrap_or(line);
                let at = format!("{name}:{}", n + 1);
                assert!(!line.contains('\r'), "{at}: a lone carriage return");
                if line.is_empty() {
                    event = None;
                } else if let Some(name) = line.strip_prefix("event:") {
                    event = Some(name.trim_start().to_string());
                } else if let Some(payload) = line.strip_prefix("data:") {
                    let payload = payload.strip_prefix(' ').unwrap_or(payload);
                    data_lines += 1;
                    if payload == "[DONE]" {
                        continue;
                    }
                    let value: Value = serde_json::from_str(payload)
                        .unwrap_or_else(|e| panic!("{at}: data is not JSON: {e}"));
                    // An `error` event may carry an error body without a `type` (Groq's
                    // `{error: {...}}`); any other event's name is its payload's type.
                    let untyped_error =
                        event.as_deref() == Some("error") && value["type"].is_null();
                    if let Some(event) = event.as_ref().filter(|_| !untyped_error) {
                        assert_eq!(value["type"], json!(event), "{at}: event name and type");
                    }
                } else {
                    assert!(line.starts_with(':'), "{at}: not an SSE line: {line:?}");
                }
            }
            assert!(data_lines > 0, "{name}: no data lines");
        }
    }
}

#[test]
fn every_stream_has_a_final_body_or_an_expectation() {
    for protocol in protocols() {
        let streams = streams(protocol);
        assert!(
            streams.len() >= 8,
            "{protocol}: {} streams, at least 8 wanted",
            streams.len()
        );
        for path in &streams {
            let path_text = path.to_str().expect("UTF-8 path");
            let stem = STREAM_FILES
                .iter()
                .find_map(|s| path_text.strip_suffix(s))
                .unwrap_or(path_text);
            let final_body = Path::new(&format!("{stem}.final.json")).exists();
            let expect = PathBuf::from(format!("{stem}.expect.json"));
            assert!(
                final_body != expect.exists(),
                "{}: wants exactly one of .final.json and .expect.json",
                path.display()
            );
            if expect.exists() {
                let value = read_json(&expect);
                assert!(
                    value["messages"].as_u64().is_some_and(|n| n >= 1),
                    "{}: \"messages\" is a count",
                    expect.display()
                );
                assert!(value["note"].is_string(), "{}: a note", expect.display());
            }
        }
        for path in files(protocol, ".json") {
            let stem = path.to_str().expect("UTF-8 path");
            let stem = stem
                .strip_suffix(".final.json")
                .or_else(|| stem.strip_suffix(".expect.json"))
                .unwrap_or_else(|| panic!("{stem}: unexpected file name"));
            assert!(
                STREAM_FILES
                    .iter()
                    .any(|s| Path::new(&format!("{stem}{s}")).exists()),
                "{}: no stream next to it",
                path.display()
            );
        }
    }
}

#[test]
fn ndjson_files_are_well_formed() {
    let mut checked = 0;
    for protocol in protocols() {
        for path in files(protocol, ".ndjson") {
            let name = path.display();
            let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(text.ends_with('\n'), "{name}: no newline at the end");
            for (n, line) in text.lines().enumerate() {
                let value: Value = serde_json::from_str(line)
                    .unwrap_or_else(|e| panic!("{name}:{}: not JSON: {e}", n + 1));
                assert!(value.is_object(), "{name}:{}: not an object", n + 1);
            }
            checked += 1;
        }
    }
    assert!(checked >= 8, "{checked} NDJSON streams");
}
