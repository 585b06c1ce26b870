//! Native fixture tests of the provider wire formats. Each format of the registry has its own
//! file, `tests/fixtures/providers_<protocol>.json` (tests/registry.rs checks that every format
//! has one, or a fixture folder of its own):
//!
//! ```text
//! {"protocol": "...", "error_flag": <whether the format's requests can say a result failed>,
//!  "from": [{"name", "payload", "detect", "messages", "display"} | {"name", "payload", "detect", "error"}],
//!  "to":   [{"name", "messages", "request"} | {"name", "messages", "error"}]}
//! ```
//!
//! A `from` case checks `fromProvider` message by message, then `toDisplayMessages` of the result
//! (as one line per record, see [`display`]), then `detectProtocol` of the payload. A `to` case
//! checks `toProvider`. Every successful case also makes the round trip
//! `fromProvider(p, toProvider(p, messages))`, which must keep every displayable item, unless the
//! case says in `round_trip` why the format cannot (arguments that are not an object in a format
//! that only takes objects; calls that had no ids). The same
//! files run again through the JavaScript boundary (boundary_providers.rs) and the package
//! (js/providers.test.mjs).
#![cfg(not(target_arch = "wasm32"))]

use chat_display::providers::{detect_protocol, from_provider, to_provider, WireProtocol};
use chat_display::{to_display_messages, Error};
use serde_json::{json, Value};

mod common;
use common::*;

/// The fixture file of every format of the registry that has one.
fn files() -> Vec<Value> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let files: Vec<Value> = WireProtocol::NAMES
        .iter()
        .filter_map(|name| std::fs::read_to_string(dir.join(format!("providers_{name}.json"))).ok())
        .map(|text| serde_json::from_str(&text).expect("fixture file is JSON"))
        .collect();
    assert!(files.len() >= 7, "{} fixture files", files.len());
    files
}

/// Formats whose only error signal is text (`"error_flag": false` in their file): their round
/// trip cannot keep `is_error`.
fn flagless(protocol: &Value) -> bool {
    let name = protocol.as_str().unwrap_or_default();
    files()
        .iter()
        .any(|f| f["protocol"] == name && f["error_flag"] == json!(false))
}

/// One line per display record, the same in every runner:
/// `"<message_type> <content_type>: <text>"`,
/// `"<message_type> tool_call <status> <call_id> <name>(<arguments as JSON, keys sorted>)"`,
/// `"<message_type> tool_result <tool_call_id> <name>[ error]: <content>"`.
/// For round trips (`round`), arguments given as a JSON string of an object read as that object
/// (every format parses them), and in formats without an error flag (`flagless`) a result's error
/// flag, and the `failed` status it gives its call, are left out.
fn display(records: &Value, round: bool, flagless: bool) -> Vec<String> {
    let s = |v: &Value| match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    records
        .as_array()
        .expect("records")
        .iter()
        .map(|r| {
            let mt = s(&r["message_type"]);
            let c = &r["content"];
            match r["content_type"].as_str().unwrap_or_default() {
                "tool_call" => {
                    let status = match s(&r["status"]).as_str() {
                        "failed" if flagless => "completed".to_string(),
                        other => other.to_string(),
                    };
                    let parsed = c["arguments"]
                        .as_str()
                        .filter(|_| round)
                        .and_then(|a| serde_json::from_str::<Value>(a).ok())
                        .filter(|a| a.is_object());
                    let arguments = parsed.as_ref().unwrap_or(&c["arguments"]);
                    format!(
                        "{mt} tool_call {status} {} {}({})",
                        s(&c["call_id"]),
                        s(&c["name"]),
                        sorted(arguments)
                    )
                }
                "tool_result" => {
                    let error = if c["is_error"] == json!(true) && !flagless {
                        " error"
                    } else {
                        ""
                    };
                    format!(
                        "{mt} tool_result {} {}{error}: {}",
                        s(&c["tool_call_id"]),
                        s(&c["name"]),
                        s(&c["content"])
                    )
                }
                ct => format!("{mt} {ct}: {}", s(&c["text"])),
            }
        })
        .collect()
}

fn records(messages: &Value) -> Value {
    serde_json::to_value(to_display_messages(&messages, None).expect("displayable")).unwrap()
}

#[track_caller]
fn check_error(name: &str, got: Error, expected: &Value) {
    assert!(
        got.message.contains(&got.path),
        "{name}: message names the path: {}",
        got.message
    );
    assert_eq!(
        json!({"code": got.code.as_str(), "path": got.path}),
        *expected,
        "{name}: {}",
        got.message
    );
}

/// `fromProvider(p, toProvider(p, messages))` shows the same items as `messages`.
#[track_caller]
fn round_trip(name: &str, protocol: &Value, messages: &Value) {
    let flagless = flagless(protocol);
    let request = to_provider(&protocol, &messages)
        .unwrap_or_else(|e| panic!("{name}: toProvider: {}", e.message));
    let request = serde_json::to_value(request).unwrap();
    let back = from_provider(&protocol, &&request)
        .unwrap_or_else(|e| panic!("{name}: fromProvider of {request}: {}", e.message));
    let back = serde_json::to_value(back).unwrap();
    assert_eq!(
        display(&records(&back), true, flagless),
        display(&records(messages), true, flagless),
        "{name}: round trip through\n{}",
        serde_json::to_string_pretty(&request).unwrap()
    );
}

#[test]
fn from_provider_fixtures() {
    for file in files() {
        let protocol = &file["protocol"];
        for case in file["from"].as_array().expect("from cases") {
            let name = format!("{protocol} / {}", case["name"]);
            let payload = &case["payload"];
            let detected = detect_protocol(&payload).map(|p| p.as_str());
            assert_eq!(json!(detected), case["detect"], "{name}: detectProtocol");
            let got = from_provider(&protocol, &payload);
            if let Some(expected) = case.get("error") {
                match got {
                    Ok(v) => panic!("{name}: expected an error, got {}", json!(v)),
                    Err(e) => check_error(&name, e, expected),
                }
                continue;
            }
            let got = serde_json::to_value(
                got.unwrap_or_else(|e| panic!("{name}: unexpected error: {}", e.message)),
            )
            .unwrap();
            let expected = case["messages"].as_array().expect("messages");
            let got_list = got.as_array().unwrap();
            for (i, (g, e)) in got_list.iter().zip(expected).enumerate() {
                assert!(
                    g == e,
                    "\n--- {name}: message {i}\n--- got\n{}\n--- expected\n{}\n",
                    serde_json::to_string_pretty(g).unwrap(),
                    serde_json::to_string_pretty(e).unwrap()
                );
            }
            assert_eq!(got_list.len(), expected.len(), "{name}: message count");
            let lines = display(&records(&got), false, false);
            assert_eq!(json!(lines), case["display"], "{name}: toDisplayMessages");
            if case.get("round_trip").is_none() {
                round_trip(&name, protocol, &got);
            }
        }
    }
}

#[test]
fn to_provider_fixtures() {
    for file in files() {
        let protocol = &file["protocol"];
        for case in file["to"].as_array().expect("to cases") {
            let name = format!("{protocol} / {}", case["name"]);
            let messages = &case["messages"];
            let got = to_provider(&protocol, &messages);
            if let Some(expected) = case.get("error") {
                match got {
                    Ok(v) => panic!("{name}: expected an error, got {}", json!(v)),
                    Err(e) => check_error(&name, e, expected),
                }
                continue;
            }
            let got = serde_json::to_value(
                got.unwrap_or_else(|e| panic!("{name}: unexpected error: {}", e.message)),
            )
            .unwrap();
            assert!(
                got == case["request"],
                "\n--- {name}\n--- got\n{}\n--- expected\n{}\n",
                serde_json::to_string_pretty(&got).unwrap(),
                serde_json::to_string_pretty(&case["request"]).unwrap()
            );
            if case.get("round_trip").is_none() {
                round_trip(&name, protocol, messages);
            }
        }
    }
}

#[test]
fn every_format_has_the_wire_formats_examples_and_eight_more_cases() {
    for file in files() {
        let from = file["from"].as_array().map_or(0, |c| c.len());
        let to = file["to"].as_array().map_or(0, |c| c.len());
        assert!(from >= 9, "{}: {from} fromProvider cases", file["protocol"]);
        assert!(to >= 3, "{}: {to} toProvider cases", file["protocol"]);
    }
}

#[test]
fn an_unknown_protocol_is_unsupported_protocol_at_dollar_protocol() {
    for protocol in [
        json!("openai"),
        json!(null),
        json!(3),
        json!("ANTHROPIC_MESSAGES"),
    ] {
        let error = from_provider(&&protocol, &&json!([])).unwrap_err();
        assert_eq!(error.code.as_str(), "unsupported_protocol");
        assert_eq!(error.path, "$.protocol");
        let error = to_provider(&&protocol, &&json!([])).unwrap_err();
        assert_eq!(error.code.as_str(), "unsupported_protocol");
        assert!(error.message.contains("$.protocol"), "{}", error.message);
    }
}

/// A value nested `depth` arrays deep, built without recursion. Cloning or dropping it would
/// recurse, so the tests forget it.
fn deep(depth: usize) -> Value {
    let mut value = json!("x");
    for _ in 0..depth {
        value = Value::Array(vec![value]);
    }
    value
}

#[test]
fn deep_and_hostile_payloads_give_errors_or_lenient_results_never_a_crash() {
    for file in files() {
        let protocol = &file["protocol"];
        let shallow = [
            json!(null),
            json!(1),
            json!("text"),
            json!({}),
            json!([null]),
            json!([{}]),
        ];
        for payload in shallow {
            assert!(from_provider(&protocol, &&payload).is_err(), "{payload}");
            let _ = detect_protocol(&&payload);
            let _ = to_provider(&protocol, &&payload);
        }
        for wrap in [false, true] {
            let mut payload = deep(100_000);
            if wrap {
                payload = Value::Object([("messages".to_string(), payload)].into_iter().collect());
            }
            assert!(from_provider(&protocol, &&payload).is_err());
            assert_eq!(detect_protocol(&&payload), None);
            assert!(to_provider(&protocol, &&payload).is_err());
            std::mem::forget(payload);
        }
    }
}

#[test]
fn arguments_written_as_json_text_stop_at_the_depth_limit() {
    let mut arguments = deep(100_000);
    let messages = json!([{"role": "assistant", "tool_calls": [{"call_id": "1", "name": "t"}]}]);
    let mut messages = messages;
    messages[0]["tool_calls"][0]["arguments"] = std::mem::take(&mut arguments);
    let error = to_provider(&&json!("openai_completions"), &&messages).unwrap_err();
    assert_eq!(error.code.as_str(), "too_deep");
    assert_eq!(error.path, "$.messages[0].tool_calls[0].arguments");
    std::mem::forget(messages);
}

/// A Gemini payload with its fields under their proto names (`function_call`, `inline_data`,
/// `mime_type`...), as Google's REST API accepts them: every key [`PROTO_NAMES`] lists, except
/// inside the values passed along unread (`args`, `response`).
fn proto_names(value: &Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.iter().map(proto_names).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let key = PROTO_NAMES
                        .iter()
                        .find(|(json, _)| json == k)
                        .map_or(k.as_str(), |(_, proto)| proto);
                    let v = if k == "args" || k == "response" {
                        v.clone()
                    } else {
                        proto_names(v)
                    };
                    (key.to_string(), v)
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

const PROTO_NAMES: [(&str, &str); 22] = [
    ("systemInstruction", "system_instruction"),
    ("functionCall", "function_call"),
    ("functionResponse", "function_response"),
    ("inlineData", "inline_data"),
    ("fileData", "file_data"),
    ("mimeType", "mime_type"),
    ("fileUri", "file_uri"),
    ("displayName", "display_name"),
    ("thoughtSignature", "thought_signature"),
    ("finishReason", "finish_reason"),
    ("promptFeedback", "prompt_feedback"),
    ("blockReason", "block_reason"),
    ("groundingMetadata", "grounding_metadata"),
    ("groundingChunks", "grounding_chunks"),
    ("groundingSupports", "grounding_supports"),
    ("groundingChunkIndices", "grounding_chunk_indices"),
    ("retrievedContext", "retrieved_context"),
    ("startIndex", "start_index"),
    ("endIndex", "end_index"),
    ("toolCall", "tool_call"),
    ("toolResponse", "tool_response"),
    ("toolType", "tool_type"),
];

#[test]
fn gemini_fields_under_their_proto_names_read_as_the_json_names() {
    let file = files()
        .into_iter()
        .find(|f| f["protocol"] == "google_gemini")
        .unwrap();
    let protocol = &file["protocol"];
    let mut renamed = 0;
    for case in file["from"].as_array().unwrap() {
        let name = &case["name"];
        let payload = proto_names(&case["payload"]);
        if payload == case["payload"] {
            continue;
        }
        renamed += 1;
        let got = from_provider(&protocol, &&payload);
        match case.get("error") {
            Some(expected) => assert_eq!(
                got.map_err(|e| e.code.as_str()).unwrap_err(),
                expected["code"],
                "{name}"
            ),
            // Parts kept as they came (`options.part`) keep the names they came with.
            None => assert_eq!(
                proto_names(
                    &serde_json::to_value(got.unwrap_or_else(|e| panic!("{name}: {}", e.message)))
                        .unwrap()
                ),
                proto_names(&case["messages"]),
                "{name}: {payload}"
            ),
        }
        assert_eq!(
            detect_protocol(&&payload).map(|p| p.as_str()),
            case["detect"].as_str(),
            "{name}: detectProtocol"
        );
    }
    assert!(renamed >= 10, "only {renamed} cases had a field to rename");
}

#[test]
fn provider_error_bodies_throw_provider_error_quoting_the_providers_message() {
    let mut formats = std::collections::BTreeSet::new();
    for file in files() {
        let protocol = &file["protocol"];
        for case in file["from"].as_array().unwrap() {
            if case["error"]["code"] != "provider_error" {
                continue;
            }
            let name = &case["name"];
            let error = from_provider(&protocol, &&case["payload"]).unwrap_err();
            // The path names the provider's field, and the message quotes what it holds.
            let pointer = error
                .path
                .strip_prefix("$.payload")
                .unwrap()
                .replace('.', "/");
            let said = case["payload"].pointer(&pointer).and_then(Value::as_str);
            let said = said.unwrap_or_else(|| panic!("{name}: nothing at {}", error.path));
            assert!(
                error.message.contains(&format!("{said:?}")),
                "{name}: {}",
                error.message
            );
            formats.insert(protocol.as_str().unwrap().to_string());
        }
    }
    assert!(formats.len() >= 6, "{formats:?}");
}
