//! The `ai_sdk_ui` format over the UIMessages and UI streams the AI SDK itself made
//! (tests/fixtures/ai_sdk_ui, docs/formats/ai-sdk-ui.md "Fixtures").
#![cfg(not(target_arch = "wasm32"))]

use chat_display::providers::{detect_protocol, from_provider, to_provider, WireProtocol};
use chat_display::stream::{Chunk, StreamAccumulator};
use chat_display::to_display_messages;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ai_sdk_ui")
}

/// Every fixture with UIMessages: its name and its messages.
fn fixtures() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    for file in files {
        let value: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        if let Some(messages) = value.get("messages") {
            let name = file.file_name().unwrap().to_string_lossy().to_string();
            out.push((name, messages.clone()));
        }
    }
    out
}

fn proto() -> Value {
    json!("ai_sdk_ui")
}

fn read(messages: &Value) -> Value {
    serde_json::to_value(from_provider(&&proto(), &messages).unwrap()).unwrap()
}

fn records(messages: &Value) -> Vec<Value> {
    let lc = read(messages);
    let records = to_display_messages(&&lc, None).unwrap();
    serde_json::to_value(records)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

/// A record as one line: `<message_type> <content_type> <status> <content as JSON>`.
fn line(r: &Value) -> String {
    format!(
        "{} {} {} {}",
        r["message_type"].as_str().unwrap_or("null"),
        r["content_type"].as_str().unwrap(),
        r["status"].as_str().unwrap(),
        r["content"]
    )
}

/// What the records of UIMessages must be, worked out from the parts as the AI SDK wrote them
/// (docs/formats/ai-sdk-ui.md): per step, its texts and reasoning, then its calls, then the
/// outputs of its calls. The call's status is issue 33's table of states: `input-available`, an
/// approved `approval-responded` and a preliminary output `executing`; a denied one and
/// `output-denied` `cancelled`; a final output `completed`; an error `failed`; else `pending`.
fn expected_lines(messages: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for message in messages.as_array().unwrap() {
        let role = message["role"].as_str().unwrap();
        let parts = message["parts"].as_array().unwrap();
        let mut steps: Vec<Vec<&Value>> = vec![Vec::new()];
        for part in parts {
            if part["type"] == "step-start" && !steps.last().unwrap().is_empty() {
                steps.push(Vec::new());
            }
            steps.last_mut().unwrap().push(part);
        }
        for step in steps {
            let mut calls = Vec::new();
            let mut results = Vec::new();
            for part in step {
                let ty = part["type"].as_str().unwrap();
                let name = if ty == "dynamic-tool" {
                    part["toolName"].clone()
                } else if let Some(name) = ty.strip_prefix("tool-") {
                    json!(name)
                } else {
                    let kind = match ty {
                        "text" => "text",
                        "reasoning" => "thinking",
                        _ => continue,
                    };
                    if part["text"] != "" {
                        let content = json!({"text": part["text"]});
                        out.push(format!("{role} {kind} completed {content}"));
                    }
                    continue;
                };
                let id = &part["toolCallId"];
                let state = part["state"].as_str().unwrap();
                let output = match state {
                    "output-available" => Some((
                        match &part["output"] {
                            Value::String(s) => json!(s),
                            Value::Null => json!(""),
                            other => json!(other.to_string()),
                        },
                        false,
                    )),
                    "output-error" => Some((part["errorText"].clone(), true)),
                    _ => None,
                };
                let status = match (state, part["preliminary"] == true) {
                    ("output-available", true) | ("input-available", _) => "executing",
                    ("approval-responded", _) if part["approval"]["approved"] == false => {
                        "cancelled"
                    }
                    ("approval-responded", _) => "executing",
                    ("output-denied", _) => "cancelled",
                    ("output-available", false) => "completed",
                    ("output-error", _) => "failed",
                    _ => "pending",
                };
                let mut arguments = part.get("input").cloned().unwrap_or(json!({}));
                if arguments.is_null() {
                    arguments = json!({});
                }
                let call = json!({"call_id": id, "name": name, "arguments": arguments, "display_text": null});
                calls.push(format!("{role} tool_call {status} {call}"));
                if let Some((content, is_error)) = output {
                    let result = json!({"tool_call_id": id, "name": name, "content": content,
                                        "is_error": is_error, "is_interrupt": false});
                    results.push(format!("tool tool_result completed {result}"));
                }
            }
            out.extend(calls);
            out.extend(results);
        }
    }
    out
}

#[test]
fn every_fixture_reads_as_its_parts_say() {
    let mut checked = 0;
    for (name, messages) in fixtures() {
        let got: Vec<String> = records(&messages).iter().map(line).collect();
        assert_eq!(got, expected_lines(&messages), "{name}");
        checked += 1;
    }
    assert!(checked >= 24, "only {checked} fixtures");
}

#[test]
fn a_tool_part_keeps_its_state_and_an_approval_request_is_marked() {
    let mut states = std::collections::BTreeSet::new();
    for (name, messages) in fixtures() {
        let lc = read(&messages);
        let parts: Vec<&Value> = messages
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|m| m["parts"].as_array().unwrap())
            .filter(|p| {
                let ty = p["type"].as_str().unwrap();
                ty == "dynamic-tool" || ty.starts_with("tool-")
            })
            .collect();
        let calls: Vec<&Value> = lc
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|m| m["tool_calls"].as_array().unwrap())
            .collect();
        assert_eq!(parts.len(), calls.len(), "{name}");
        for (part, call) in parts.iter().zip(&calls) {
            assert_eq!(call["metadata"]["state"], part["state"], "{name}");
            assert_eq!(&call["metadata"]["part"], *part, "{name}");
            let asked = part["state"] == "approval-requested";
            assert_eq!(
                call["metadata"].get("approval_request") == Some(&json!(true)),
                asked
            );
            states.insert(part["state"].as_str().unwrap().to_string());
        }
        // The first message read from each UIMessage holds its id, and so does each later
        // step's assistant message (the tool messages between them do not).
        let mut ids: Vec<&Value> = lc
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|m| m["metadata"].get("message_id"))
            .collect();
        assert!(
            lc.as_array()
                .unwrap()
                .iter()
                .all(|m| m["role"] != "tool" || m["metadata"].get("message_id").is_none()),
            "{name}"
        );
        ids.dedup();
        let given: Vec<&Value> = messages
            .as_array()
            .unwrap()
            .iter()
            .map(|m| &m["id"])
            .collect();
        assert_eq!(ids, given, "{name}");
    }
    // Every state of the issue is in the fixtures.
    for state in [
        "input-streaming",
        "input-available",
        "approval-requested",
        "approval-responded",
        "output-available",
        "output-error",
        "output-denied",
    ] {
        assert!(states.contains(state), "no fixture has {state}: {states:?}");
    }
}

#[test]
fn the_round_trip_gives_the_ui_messages_back() {
    for (name, messages) in fixtures() {
        let lc = read(&messages);
        let back = serde_json::to_value(to_provider(&&proto(), &&lc).unwrap()).unwrap();
        assert_eq!(back, messages, "{name}");
    }
}

#[test]
fn messages_of_another_format_become_ui_messages_that_read_the_same() {
    let anthropic = json!([
        {"role": "user", "content": "Weather in Paris?"},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": "One call.", "signature": "sig"},
            {"type": "text", "text": "Checking."},
            {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "content": "18 C"}]},
        {"role": "assistant", "content": "It is 18 C."}
    ]);
    let lc =
        serde_json::to_value(from_provider(&&json!("anthropic_messages"), &&anthropic).unwrap())
            .unwrap();
    let ui = serde_json::to_value(to_provider(&&proto(), &&lc).unwrap()).unwrap();
    assert_eq!(detect_protocol(&&ui), Some(WireProtocol::AiSdkUi));
    let parts = &ui[1]["parts"];
    assert_eq!(ui.as_array().unwrap().len(), 2, "{ui}");
    assert_eq!(
        parts[1],
        json!({"type": "reasoning", "text": "One call.",
        "providerMetadata": {"anthropic": {"signature": "sig"}}})
    );
    assert_eq!(parts[3]["state"], "output-available");
    assert_eq!(parts[3]["output"], "18 C");
    assert_eq!(parts[4], json!({"type": "step-start"}));
    assert_eq!(parts[5], json!({"type": "text", "text": "It is 18 C."}));
    let lines = |v: &Value| -> Vec<String> {
        let records = to_display_messages(&v, None).unwrap();
        serde_json::to_value(records)
            .unwrap()
            .as_array()
            .unwrap()
            .iter()
            .map(line)
            .collect()
    };
    assert_eq!(lines(&read(&ui)), lines(&lc));
}

#[test]
fn detect_tells_ui_messages_from_gemini_contents() {
    for (name, messages) in fixtures() {
        assert_eq!(
            detect_protocol(&&messages),
            Some(WireProtocol::AiSdkUi),
            "{name}"
        );
        let last = messages.as_array().unwrap().last().unwrap();
        assert_eq!(
            detect_protocol(&last),
            Some(WireProtocol::AiSdkUi),
            "{name}"
        );
        let body = json!({"id": "chat-1", "messages": messages, "trigger": "submit-message"});
        assert_eq!(
            detect_protocol(&&body),
            Some(WireProtocol::AiSdkUi),
            "{name}"
        );
    }
    let gemini = json!([{"role": "user", "parts": [{"text": "hi"}]},
                        {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]}]);
    assert_eq!(detect_protocol(&&gemini), Some(WireProtocol::GoogleGemini));
    assert_eq!(
        detect_protocol(&&json!({"contents": gemini})),
        Some(WireProtocol::GoogleGemini)
    );
    assert_eq!(
        detect_protocol(&&json!([{"id": "a", "role": "assistant", "parts": []}])),
        Some(WireProtocol::AiSdkUi)
    );
}

#[test]
fn bad_messages_are_errors_with_a_path() {
    let cases = [
        (
            json!([{"id": "1", "role": "user", "parts": [{"type": "text", "text": 5}]}]),
            "$.payload[0].parts[0].text",
        ),
        (
            json!([{"id": "1", "role": "robot", "parts": []}]),
            "$.payload[0].role",
        ),
        (json!([{"id": "1", "role": "user"}]), "$.payload[0].parts"),
        (
            json!([{"id": "1", "role": "user", "parts": 3}]),
            "$.payload[0].parts",
        ),
        (
            json!([{"id": "1", "role": "user", "parts": [7]}]),
            "$.payload[0].parts[0]",
        ),
        (
            json!([{"id": "1", "role": "assistant", "content": "x", "toolInvocations": []}]),
            "$.payload[0].toolInvocations",
        ),
        (
            json!([{"id": "1", "role": "assistant", "parts": [{"type": "tool-invocation"}]}]),
            "$.payload[0].parts[0].type",
        ),
        (
            json!([{"id": "1", "role": "assistant", "parts": [{"type": "tool-x", "toolCallId": 1}]}]),
            "$.payload[0].parts[0].toolCallId",
        ),
    ];
    for (payload, path) in cases {
        let e = from_provider(&&proto(), &&payload).unwrap_err();
        assert_eq!(e.path, path, "{payload}: {}", e.message);
    }
    let e = from_provider(
        &&proto(),
        &&json!([{"id": "1", "role": "assistant", "content": "x", "toolInvocations": []}]),
    )
    .unwrap_err();
    assert!(e.message.contains("AI SDK 4"), "{}", e.message);
}

#[test]
fn sources_become_the_citations_of_the_text_before_them_and_v7_citations_are_not_repeated() {
    let message = json!({"id": "m", "role": "assistant", "parts": [
        {"type": "step-start"},
        {"type": "text", "text": "Paris is large."},
        {"type": "source-url", "sourceId": "s1", "url": "https://a.example", "title": "A"},
        {"type": "source-document", "sourceId": "s2", "mediaType": "application/pdf", "title": "Report", "filename": "r.pdf"}]});
    let lc = read(&message);
    let citations = &lc[0]["content"][1]["citations"];
    assert_eq!(
        citations,
        &json!([
        {"type": null, "cited_text": null, "url": "https://a.example", "title": "A", "source": null,
         "file_id": null, "document_index": null, "document_title": null, "start_index": null,
         "end_index": null, "unit": null},
        {"type": null, "cited_text": null, "url": null, "title": "Report", "source": null,
         "file_id": null, "document_index": null, "document_title": "Report", "start_index": null,
         "end_index": null, "unit": null}])
    );
    // ...which the text's record carries as its metadata.
    let text_record = records(&message)
        .into_iter()
        .find(|r| r["content_type"] == "text")
        .unwrap();
    assert_eq!(&text_record["metadata"]["citations"], citations);
    // The recorded file search: the text's own v7 citations, and the sources, which repeat them
    // (the same file), left out.
    let (_, messages) = fixtures()
        .into_iter()
        .find(|(n, _)| n == "openai-file-search-citations.json")
        .unwrap();
    let lc = read(&messages);
    let text = lc[1]["content"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["type"] == "text")
        .unwrap();
    let list = text["citations"].as_array().unwrap();
    let given = messages[1]["parts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["type"] == "text")
        .unwrap()["citations"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(list.len(), given);
    assert!(
        list.iter()
            .all(|c| c.as_object().unwrap().len() == 11 && c["file_id"].is_string()),
        "{list:?}"
    );
}

/// Issue 46 class 11: the AI SDK's UIMessage of an Anthropic web search (the recorded stream,
/// `anthropic-web-search`): the search results come as `source-url` parts after the tool part,
/// before any text, and the texts carry v7 citations of their own, which name 4 of the 10. The
/// other 6 were kept as parts that no record showed; now every source is a citation of a text
/// record, and none twice.
#[test]
fn every_source_of_an_anthropic_web_search_is_a_citation_of_its_texts_once() {
    let (_, messages) = fixtures()
        .into_iter()
        .find(|(n, _)| n == "anthropic-web-search.json")
        .unwrap();
    let parts = messages.as_array().unwrap().last().unwrap()["parts"]
        .as_array()
        .unwrap()
        .clone();
    let sources: Vec<&str> = parts
        .iter()
        .filter(|p| p["type"] == "source-url")
        .map(|p| p["url"].as_str().unwrap())
        .collect();
    let own: std::collections::BTreeSet<&str> = parts
        .iter()
        .filter_map(|p| p["citations"].as_array())
        .flatten()
        .map(|c| c["source"]["url"].as_str().unwrap())
        .collect();
    assert_eq!(sources.len(), 10, "the recording's search results");
    assert!(
        sources.iter().filter(|u| !own.contains(*u)).count() >= 6,
        "sources no text cites: {own:?}"
    );
    let records = records(&messages);
    let cited: Vec<String> = records
        .iter()
        .filter(|r| r["content_type"] == "text")
        .filter_map(|r| r["metadata"]["citations"].as_array())
        .flatten()
        .map(|c| c["url"].as_str().unwrap().to_string())
        .collect();
    for url in &sources {
        assert!(
            cited.iter().any(|c| c == url),
            "{url} is no text's citation"
        );
    }
    // The texts' own citations are all there, and a source is added only where no citation of
    // the step names it already.
    let own_count = parts
        .iter()
        .filter_map(|p| p["citations"].as_array())
        .map(Vec::len)
        .sum::<usize>();
    let uncited = sources.iter().filter(|u| !own.contains(*u)).count();
    assert_eq!(cited.len(), own_count + uncited);
}

// ---------------------------------------------------------------------------------------------
// The UI message stream

fn stream_dir() -> PathBuf {
    dir().join("../streams/ai_sdk_ui")
}

fn accumulate(text: &[u8], size: usize) -> StreamAccumulator {
    let mut acc = StreamAccumulator::new(WireProtocol::AiSdkUi);
    let mut mirror: Vec<Value> = Vec::new();
    let pieces = text.chunks(size).count();
    for (i, piece) in text.chunks(size).enumerate() {
        for patch in acc.push(Chunk::Bytes(piece)) {
            match patch {
                chat_display::stream::Patch::Add(r) => {
                    mirror.push(serde_json::to_value(r).unwrap())
                }
                chat_display::stream::Patch::Replace { index, record } => {
                    mirror[index] = serde_json::to_value(record).unwrap()
                }
                chat_display::stream::Patch::Append { index, field, text } => {
                    match &mut mirror[index]["content"][field] {
                        Value::String(s) => s.push_str(&text),
                        other => panic!("an append to {other}"),
                    }
                }
                chat_display::stream::Patch::Arguments { index, changes } => {
                    let mut arguments: chat_display::providers::Parsed =
                        serde_json::from_value(mirror[index]["content"]["arguments"].clone())
                            .unwrap();
                    for change in &changes {
                        chat_display::json::partial::apply(&mut arguments, change);
                    }
                    mirror[index]["content"]["arguments"] =
                        serde_json::to_value(arguments).unwrap();
                }
            }
        }
        // After every piece of the first 2,000, then of every 97th and the last (as tests/stream.rs
        // does: the whole comparison after each byte of a long stream grew with the stream).
        if i < 2000 || i % 97 == 0 || i + 1 == pieces {
            assert_eq!(json!(mirror), serde_json::to_value(acc.records()).unwrap());
        }
    }
    acc
}

/// Every UI stream the AI SDK made gives, pushed whole or in pieces, the records of the final
/// UIMessage the AI SDK built from it (`readUIMessageStream`, the chat's messages): the error
/// chunk's record aside, and, for a stream that continues an earlier response, the records that
/// response already gave.
#[test]
fn every_ui_stream_gives_the_records_of_the_message_the_ai_sdk_built() {
    let mut checked = 0;
    for (name, messages) in fixtures() {
        let stem = name.trim_end_matches(".json");
        let Ok(text) = std::fs::read(dir().join(format!("{stem}.sse"))) else {
            continue;
        };
        let last = messages.as_array().unwrap().last().unwrap().clone();
        let final_lines: Vec<String> = records(&json!([last])).iter().map(line).collect();
        let before: Vec<String> =
            match std::fs::read_to_string(dir().join(format!("{stem}.before.json"))) {
                Ok(t) => {
                    let v: Value = serde_json::from_str(&t).unwrap();
                    let last = v["messages"].as_array().unwrap().last().unwrap().clone();
                    records(&json!([last])).iter().map(line).collect()
                }
                Err(_) => Vec::new(),
            };
        let continued: Vec<String> = before
            .iter()
            .filter_map(|l| {
                l.split_once("\"call_id\":\"")
                    .map(|(_, r)| r.split('"').next().unwrap().to_string())
            })
            .collect();
        // A continued call's result: the stream does not name the call's tool (the app's
        // earlier message does).
        let unnamed = |l: &String| -> String {
            let Some(at) = l.find(" {") else {
                return l.clone();
            };
            let (head, body) = l.split_at(at + 1);
            let mut content: Value = serde_json::from_str(body).unwrap();
            let id = content["tool_call_id"].clone();
            if head.contains(" tool_result ") && continued.iter().any(|c| id == c.as_str()) {
                content["name"] = Value::Null;
            }
            format!("{head}{content}")
        };
        let expected: Vec<String> = final_lines
            .iter()
            .filter(|l| !before.contains(l))
            .filter(|l| {
                !(l.contains(" tool_call ") && continued.iter().any(|id| l.contains(id.as_str())))
            })
            .map(unnamed)
            .collect();
        let expected: Vec<&String> = expected.iter().collect();
        let has_error = String::from_utf8_lossy(&text).contains("data: {\"type\":\"error\"");
        for size in [usize::MAX, 1, 7, 64] {
            let acc = accumulate(&text, size.min(text.len().max(1)));
            assert!(acc.done(), "{name}");
            let got: Vec<Value> = serde_json::to_value(acc.records())
                .unwrap()
                .as_array()
                .unwrap()
                .clone();
            let errors = got.iter().filter(|r| r["content_type"] == "error").count();
            assert_eq!(errors, usize::from(has_error), "{name}: {got:?}");
            let lines: Vec<String> = got
                .iter()
                .filter(|r| r["content_type"] != "error")
                .map(line)
                .collect();
            let lines: Vec<&String> = lines.iter().collect();
            assert_eq!(lines, expected, "{name} in pieces of {size}");
            assert!(
                got.iter().all(|r| r["metadata"].get("streaming").is_none()),
                "{name}"
            );
        }
        checked += 1;
    }
    assert!(checked >= 16, "only {checked} streams");
}

#[test]
fn a_streaming_tool_call_shows_its_arguments_and_texts_grow_by_appends() {
    let text = std::fs::read(dir().join("anthropic-parallel-tools.sse")).unwrap();
    let mut acc = StreamAccumulator::new(WireProtocol::AiSdkUi);
    let (mut appends, mut arguments, mut partial) = (0, 0, false);
    for event in String::from_utf8(text).unwrap().split_inclusive("\n\n") {
        for patch in acc.push(Chunk::Bytes(event.as_bytes())) {
            match patch {
                chat_display::stream::Patch::Append { .. } => appends += 1,
                chat_display::stream::Patch::Arguments { index, .. } => {
                    arguments += 1;
                    let record = serde_json::to_value(&acc.records()[index]).unwrap();
                    assert_eq!(record["metadata"]["streaming"], true);
                    partial |= record["content"]["arguments"] == json!({"city": "Pa"});
                }
                _ => {}
            }
        }
    }
    assert!(appends >= 8, "{appends}");
    assert!(arguments >= 3, "{arguments}");
    assert!(partial);
}

#[test]
fn bad_and_unknown_chunks_are_error_records_or_nothing_never_a_panic() {
    let run = |text: &str| -> Vec<Value> {
        let mut acc = StreamAccumulator::new(WireProtocol::AiSdkUi);
        acc.push(Chunk::Bytes(text.as_bytes()));
        serde_json::to_value(acc.records())
            .unwrap()
            .as_array()
            .unwrap()
            .clone()
    };
    // Deltas for parts that never started, chunks without their ids, not JSON, not objects.
    let junk = concat!(
        "data: {\"type\":\"text-delta\",\"id\":\"9\",\"delta\":\"x\"}\n\n",
        "data: {\"type\":\"reasoning-end\",\"id\":\"9\"}\n\n",
        "data: {\"type\":\"tool-input-delta\",\"toolCallId\":\"c\",\"inputTextDelta\":\"{\"}\n\n",
        "data: {\"type\":\"tool-approval-request\",\"toolCallId\":\"c\",\"approvalId\":\"a\"}\n\n",
        "data: {\"type\":\"text-start\"}\n\n",
        "data: {\"nope\":1}\n\n",
        "data: {\"a\" 1}\n\n",
        "data: 42\n\n",
    );
    let records = run(junk);
    assert_eq!(records.len(), 8, "{records:?}");
    assert!(records.iter().all(|r| r["content_type"] == "error"));
    assert_eq!(records[0]["content"]["path"], "$.events[0]");
    // Unknown chunk types change nothing; the text around them still shows.
    let records = run(concat!(
        "data: {\"type\":\"start\",\"messageId\":\"m\"}\n\n",
        "data: {\"type\":\"text-start\",\"id\":\"0\"}\n\n",
        "data: {\"type\":\"something-new\",\"x\":1}\n\n",
        "data: {\"type\":\"text-delta\",\"id\":\"0\",\"delta\":\"Hi\"}\n\n",
    ));
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["content"]["text"], "Hi");
    assert_eq!(records[0]["metadata"]["streaming"], true);
    // Interleaved tool parts: two calls streaming at once, each its own arguments.
    let records = run(concat!(
        "data: {\"type\":\"start\"}\n\n",
        "data: {\"type\":\"tool-input-start\",\"toolCallId\":\"a\",\"toolName\":\"f\"}\n\n",
        "data: {\"type\":\"tool-input-start\",\"toolCallId\":\"b\",\"toolName\":\"g\",\"dynamic\":true}\n\n",
        "data: {\"type\":\"tool-input-delta\",\"toolCallId\":\"b\",\"inputTextDelta\":\"{\\\"y\\\":\"}\n\n",
        "data: {\"type\":\"tool-input-delta\",\"toolCallId\":\"a\",\"inputTextDelta\":\"{\\\"x\\\":1}\"}\n\n",
        "data: {\"type\":\"tool-input-delta\",\"toolCallId\":\"b\",\"inputTextDelta\":\"2}\"}\n\n",
        "data: {\"type\":\"tool-output-available\",\"toolCallId\":\"a\",\"output\":\"ok\"}\n\n",
        "data: {\"type\":\"tool-output-available\",\"toolCallId\":\"zz\",\"output\":{\"n\":1}}\n\n",
        "data: {\"type\":\"finish\"}\n\n",
        "data: [DONE]\n\n",
    ));
    let lines: Vec<String> = records.iter().map(line).collect();
    assert_eq!(
        lines,
        [
            r#"assistant tool_call completed {"call_id":"a","name":"f","arguments":{"x":1},"display_text":null}"#,
            r#"assistant tool_call pending {"call_id":"b","name":"g","arguments":{"y":2},"display_text":null}"#,
            r#"tool tool_result completed {"tool_call_id":"a","name":"f","content":"ok","is_error":false,"is_interrupt":false}"#,
            r#"tool tool_result completed {"tool_call_id":"zz","name":null,"content":"{\"n\":1}","is_error":false,"is_interrupt":false}"#,
        ]
    );
    // A stream cut anywhere: no panic, and the patches still give records() (checked inside).
    let text = std::fs::read(dir().join("openai-mcp-approval.4.sse")).unwrap();
    for cut in (0..text.len()).step_by(97) {
        let acc = accumulate(&text[..cut], 13);
        let _ = acc.message().unwrap();
    }
}

/// The message of a stream is, as JSON text, the one the AI SDK's final UIMessage gives: the
/// parts' keys in the SDK's order too (tests/js compare JSON text).
#[test]
fn a_stream_message_is_the_final_message_key_for_key() {
    let mut checked = 0;
    for entry in std::fs::read_dir(stream_dir()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let Some(stem) = name.strip_suffix(".final.json") else {
            continue;
        };
        let last: Value =
            match serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap() {
                Value::Array(list) => list.last().unwrap().clone(),
                one => one,
            };
        let text = std::fs::read(stream_dir().join(format!("{stem}.sse"))).unwrap();
        let acc = accumulate(&text, 64);
        let got = serde_json::to_string(&acc.message().unwrap()).unwrap();
        let want = serde_json::to_string(&read(&last)[0]).unwrap();
        assert_eq!(got, want, "{stem}");
        checked += 1;
    }
    assert!(checked >= 11, "only {checked}");
}

/// The message of a stream names the message `fromProvider` reads from the final UIMessage the
/// AI SDK built (the chat's last message, whole, every step in it): the last step's assistant
/// message, with the same provider ids (`metadata.message_id`, the calls' ids). Issue 46 class
/// 11: over an agent run of two steps (`anthropic-agent`), only the first step's message held the
/// UIMessage's id.
#[test]
fn a_stream_message_is_the_last_step_of_the_final_ui_message_with_its_ids() {
    let mut checked = Vec::new();
    for (name, messages) in fixtures() {
        let Some(stem) = name.strip_suffix(".json") else {
            continue;
        };
        let Ok(text) = std::fs::read(dir().join(format!("{stem}.sse"))) else {
            continue;
        };
        let last = messages.as_array().unwrap().last().unwrap().clone();
        if last["role"] != "assistant" || stem.contains('.') && !stem.ends_with(".1") {
            // A continuation's stream (after an approval) carries only the steps it added.
            continue;
        }
        let acc = accumulate(&text, 64);
        if !acc.done()
            || acc
                .records()
                .iter()
                .any(|r| serde_json::to_value(r).unwrap()["content_type"] == "error")
        {
            continue;
        }
        let got = serde_json::to_value(acc.message().unwrap()).unwrap();
        let read = read(&json!([last]));
        let want = read
            .as_array()
            .unwrap()
            .iter()
            .rev()
            .find(|m| m["role"] == "assistant")
            .unwrap()
            .clone();
        assert_eq!(got["metadata"], want["metadata"], "{stem}");
        let ids = |m: &Value| -> Vec<Value> {
            m["tool_calls"]
                .as_array()
                .map(|c| c.iter().map(|c| c["call_id"].clone()).collect())
                .unwrap_or_default()
        };
        assert_eq!(ids(&got), ids(&want), "{stem}");
        assert_eq!(got, want, "{stem}");
        checked.push(stem.to_string());
    }
    assert!(
        checked.iter().any(|s| s == "anthropic-agent"),
        "{checked:?}"
    );
    assert!(checked.len() >= 6, "{checked:?}");
}

/// A Transcript of the LangChain messages read from UIMessages gives the same records, statuses
/// included, as toDisplayMessages: loaded whole, and appended one message at a time (where a
/// status the reader gave a call must stand as results arrive).
#[test]
fn a_transcript_of_the_messages_gives_the_same_records_and_statuses() {
    use chat_display::json::doc::RustEngine;
    use chat_display::transcript::Transcript;
    let mut checked = 0;
    for (name, messages) in fixtures() {
        let lc = read(&messages);
        let expected = Value::Array(records(&messages));
        let whole = Transcript::<RustEngine>::from_json(lc.to_string()).unwrap();
        let got = serde_json::to_value(whole.records(0, whole.len())).unwrap();
        assert_eq!(got, expected, "{name}: loaded whole");
        let mut grown = Transcript::<RustEngine>::from_json("[]".to_string()).unwrap();
        for message in lc.as_array().unwrap() {
            grown.append(message.to_string()).unwrap();
        }
        let got = serde_json::to_value(grown.records(0, grown.len())).unwrap();
        assert_eq!(got, expected, "{name}: appended");
        checked += 1;
    }
    assert!(checked >= 24, "only {checked} fixtures");
    // The states the issue names, each seen with the status it gives.
    let all: Vec<Value> = fixtures().iter().flat_map(|(_, m)| records(m)).collect();
    let calls = all.iter().filter(|r| r["content_type"] == "tool_call");
    let statuses: std::collections::BTreeSet<&str> =
        calls.map(|r| r["status"].as_str().unwrap()).collect();
    for status in ["pending", "executing", "completed", "failed", "cancelled"] {
        assert!(
            statuses.contains(status),
            "no call is {status}: {statuses:?}"
        );
    }
}
