//! Responses recorded from the real provider APIs (the AI SDK's own test fixtures, copied into
//! `tests/fixtures/recorded/<protocol>/<package>/`; see the NOTICE there): every body reads through
//! `fromProvider` and every stream through `StreamAccumulator` without an error record unless the
//! recording holds a provider error, and a stream and the body of the same name give records of the
//! same shape (content types, statuses, tool names, in order). The two halves of a pair are
//! separate calls, so their texts and ids differ; what they show must not.
#![cfg(not(target_arch = "wasm32"))]

use chat_display::providers::WireProtocol;
use chat_display::stream::{Chunk, StreamAccumulator};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

mod common;
use common::*;

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/recorded")
}

/// Every file under a protocol's directory, sorted.
fn files(protocol: WireProtocol) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let dir = root().join(protocol.as_str());
    let Ok(packages) = std::fs::read_dir(&dir) else {
        return out;
    };
    for package in packages {
        let package = package.unwrap().path();
        for file in std::fs::read_dir(&package).unwrap() {
            out.push(file.unwrap().path());
        }
    }
    out.sort();
    out
}

fn json(value: &impl serde::Serialize) -> Value {
    serde_json::to_value(value).unwrap()
}

fn name(file: &Path) -> String {
    let base = file.file_name().unwrap().to_str().unwrap();
    let stem = base
        .strip_suffix(".chunks.txt")
        .or_else(|| base.strip_suffix(".json"))
        .or_else(|| base.strip_suffix(".sse"))
        .unwrap_or(base);
    let package = file
        .parent()
        .unwrap()
        .file_name()
        .unwrap()
        .to_str()
        .unwrap();
    format!("{package}/{stem}")
}

/// A body that is a provider's error response (`{"error": ...}`, `{"type": "error"}`, a failed
/// Responses response), which has nothing to show.
fn is_error_body(body: &Value) -> bool {
    body.get("error").is_some_and(|e| !e.is_null())
        || body.get("type").and_then(Value::as_str) == Some("error")
        || body.get("status").and_then(Value::as_str) == Some("failed")
        || body.get("message").is_some()
            && body.get("content").is_none()
            && body.get("output").is_none()
}

/// An event that carries a provider error.
fn is_error_event(event: &Value) -> bool {
    let ty = event.get("type").and_then(Value::as_str).unwrap_or("");
    ty == "error" || ty == "response.failed" || event.get("error").is_some_and(|e| !e.is_null())
}

/// The records of a body, through `fromProvider` and `toDisplayMessages`.
pub fn body_records(protocol: WireProtocol, body: &Value) -> Result<Value, String> {
    let proto = Value::String(protocol.as_str().into());
    let messages = chat_display::from_provider(&&proto, &body).map_err(|e| e.to_string())?;
    let messages = json(&messages);
    let records = chat_display::to_display_messages(&&messages, None).map_err(|e| e.to_string())?;
    Ok(json(&records))
}

/// A stream recording's events: one JSON value a line (`.chunks.txt`), pushed as SSE `data:`
/// events; an `.sse` file as it is.
pub fn stream_text(file: &Path) -> (String, bool) {
    let text = std::fs::read_to_string(file).unwrap();
    if file.extension().is_some_and(|e| e == "sse") {
        let error = text.contains("\"type\":\"error\"") || text.contains("event: error");
        return (text, error);
    }
    let mut sse = String::new();
    let mut error = false;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        match serde_json::from_str::<Value>(line) {
            Ok(event) => error |= is_error_event(&event),
            // A recording cut by hand (`parallel-tool-call-wrapper.1`): its error records are right.
            Err(_) => error = true,
        }
        sse.push_str("data: ");
        sse.push_str(line);
        sse.push_str("\n\n");
    }
    (sse, error)
}

pub fn stream_records(protocol: WireProtocol, sse: &str) -> (StreamAccumulator, Value) {
    let mut acc = StreamAccumulator::new(protocol);
    acc.push(Chunk::Bytes(sse.as_bytes()));
    let records = json(&acc.records());
    (acc, records)
}

fn errors(records: &Value) -> Vec<Value> {
    records
        .as_array()
        .map(|list| {
            list.iter()
                .filter(|r| r["content_type"] == "error")
                .cloned()
                .collect()
        })
        .unwrap_or_default()
}

/// What a pair's two halves must agree on: the kinds of record they show (content type and tool
/// name; a result's name is its call's), whatever their number, since the two are separate calls.
fn shape(records: &Value) -> std::collections::BTreeSet<String> {
    records
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let name = r["content"]["name"].as_str().unwrap_or("");
            format!("{} {}", r["content_type"].as_str().unwrap(), name)
        })
        .collect()
}

/// Pairs whose two halves were recorded from different requests, so that they show different
/// things; each with what differs.
const DIFFERENT_CALLS: [(&str, &str); 3] = [
    (
        "amazon-bedrock/amazon-bedrock-tool-call.1",
        "the stream calls test-tool, the body bash",
    ),
    (
        "openai/openai-reasoning-encrypted-content.1",
        "only the stream calls the calculator",
    ),
    (
        "openai/openai-shell-tool.1",
        "only the stream answers after the shell call",
    ),
];

/// The responses of a Responses stream's `response.completed` events (several when the stream
/// carries several responses), when every one has its output.
fn completed_responses(file: &Path) -> Option<Vec<Value>> {
    let text = std::fs::read_to_string(file).ok()?;
    let responses: Vec<Value> = text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|e| e["type"] == "response.completed")
        .map(|e| e["response"].clone())
        .collect();
    let whole = responses
        .iter()
        .all(|r| r["output"].as_array().is_some_and(|o| !o.is_empty()));
    (whole && !responses.is_empty()).then_some(responses)
}

#[test]
fn every_recording_reads_without_an_error_record_unless_it_holds_a_provider_error() {
    let mut failures = Vec::new();
    let mut read = 0;
    let mut own = 0;
    let mut provider_errors = 0;
    let mut bodies: BTreeMap<String, Value> = BTreeMap::new();
    let mut streams: BTreeMap<String, Value> = BTreeMap::new();
    for protocol in WireProtocol::ALL {
        for file in files(protocol) {
            let label = format!(
                "{}/{}",
                protocol.as_str(),
                file.file_name().unwrap().to_str().unwrap()
            );
            let base = file.to_str().unwrap();
            if base.ends_with(".json") {
                let body: Value =
                    serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
                let error = is_error_body(&body);
                match body_records(protocol, &body) {
                    Ok(records) if !error => {
                        if !errors(&records).is_empty() {
                            failures.push(format!("{label}: error records {:?}", errors(&records)));
                        }
                        bodies.insert(name(&file), records);
                    }
                    Ok(_) => {}
                    Err(e) if !error => failures.push(format!("{label}: {e}")),
                    // An HTTP error's body throws provider_error quoting the provider's message.
                    Err(e) if e.starts_with("The provider answered with an error") => {
                        provider_errors += 1
                    }
                    Err(e) => failures.push(format!("{label}: not a provider_error: {e}")),
                }
            } else {
                let (sse, error) = stream_text(&file);
                let (acc, records) = stream_records(protocol, &sse);
                if !error {
                    if !errors(&records).is_empty() {
                        failures.push(format!("{label}: error records {:?}", errors(&records)));
                    }
                    if let Err(e) = acc.message() {
                        failures.push(format!("{label}: message(): {e}"));
                    }
                    if protocol == WireProtocol::OpenaiResponses {
                        // The stream's own final response, which it must come out as exactly.
                        if let Some(responses) = completed_responses(&file) {
                            let mut all = Vec::new();
                            let read: Result<(), String> = responses.iter().try_for_each(|r| {
                                let list = body_records(protocol, r)?;
                                all.extend(list.as_array().unwrap().iter().cloned());
                                Ok(())
                            });
                            match read.map(|()| Value::Array(all)) {
                                Ok(body) if body == records => {}
                                Ok(body) => failures.push(format!(
                                    "{label}: the stream's records differ from its response.completed's: {records} / {body}"
                                )),
                                Err(e) => failures.push(format!("{label}: its response: {e}")),
                            }
                            own += 1;
                        }
                    }
                    streams.insert(name(&file), records);
                } else if !acc.done() && errors(&records).is_empty() {
                    failures.push(format!("{label}: a provider error that shows nothing"));
                }
            }
            read += 1;
        }
    }
    let mut pairs = 0;
    for (name, stream) in &streams {
        if let Some(body) = bodies.get(name) {
            pairs += 1;
            if DIFFERENT_CALLS.iter().any(|(n, _)| n == name) {
                continue;
            }
            if shape(stream) != shape(body) {
                failures.push(format!(
                    "{name}: the stream shows {:?}, the body {:?}",
                    shape(stream),
                    shape(body)
                ));
            }
        }
    }
    eprintln!("{read} recordings, {pairs} stream/body pairs, {own} Responses streams against their own response, {provider_errors} provider errors");
    assert!(read >= 200, "only {read} recordings");
    assert!(
        provider_errors >= 4,
        "only {provider_errors} provider error bodies"
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

// ---------------------------------------------------------------------------------------------
// Each shape the issue names (issue 31), on its recording, in the body and in the stream alike.

fn recording(path: &str) -> PathBuf {
    root().join(path)
}

fn protocol_of(path: &str) -> WireProtocol {
    let name = path.split('/').next().unwrap();
    WireProtocol::ALL
        .into_iter()
        .find(|p| p.as_str() == name)
        .unwrap()
}

/// The records of a recorded body.
fn body(path: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(recording(path)).unwrap();
    let value: Value = serde_json::from_str(&text).unwrap();
    let records = body_records(protocol_of(path), &value).unwrap();
    records.as_array().unwrap().clone()
}

/// The records a recorded stream ends with.
fn stream(path: &str) -> Vec<Value> {
    let (sse, _) = stream_text(&recording(path));
    let (acc, records) = stream_records(protocol_of(path), &sse);
    assert!(acc.done(), "{path}: not done");
    records.as_array().unwrap().clone()
}

fn of_type<'a>(records: &'a [Value], ty: &str) -> Vec<&'a Value> {
    records.iter().filter(|r| r["content_type"] == ty).collect()
}

#[test]
fn a_hosted_shell_output_with_untyped_entries_is_its_stdout_and_exit_code() {
    for records in [
        body("openai_responses/openai/openai-shell-container.1.json"),
        stream("openai_responses/openai/openai-shell-container.1.chunks.txt"),
    ] {
        let calls = of_type(&records, "tool_call");
        let results = of_type(&records, "tool_result");
        assert_eq!(calls.len(), 1);
        assert_eq!(results.len(), 1);
        assert_eq!(calls[0]["status"], "completed");
        assert_eq!(results[0]["tool_call_id"], calls[0]["tool_call_id"]);
        let text = results[0]["content"]["content"].as_str().unwrap();
        assert!(text.starts_with("Hello from container!\nLinux "), "{text}");
        assert!(text.ends_with("\nexit code 0"), "{text}");
        assert_eq!(of_type(&records, "text").len(), 1);
    }
}

#[test]
fn a_client_tool_search_is_a_pending_call_under_its_call_id_with_no_made_up_result() {
    let body = body("openai_responses/openai/openai-client-tool-search.1.json");
    let streamed = stream("openai_responses/openai/openai-client-tool-search.1.chunks.txt");
    // The stream's call_id changes between output_item.added and .done: the done item's wins.
    for (records, id) in [
        (&body, "call_AEvXZ1rvYpxHh8QZb7wGlTGH"),
        (&streamed, "call_RWTIIVfxsJW9fecsg6fy23Dy"),
    ] {
        assert_eq!(records.len(), 1, "{records:?}");
        assert_eq!(records[0]["content_type"], "tool_call");
        assert_eq!(records[0]["status"], "pending");
        assert_eq!(records[0]["tool_call_id"], id);
        assert_eq!(records[0]["content"]["name"], "tool_search");
        assert!(records[0]["content"]["arguments"]["goal"].is_string());
    }
}

#[test]
fn a_server_tool_search_is_answered_by_its_output_item_with_the_tools_it_found() {
    let records = body("openai_responses/openai/openai-tool-search.1.json");
    let calls = of_type(&records, "tool_call");
    assert_eq!(calls[0]["content"]["name"], "tool_search");
    assert_eq!(calls[0]["status"], "completed");
    let results = of_type(&records, "tool_result");
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["tool_call_id"], calls[0]["tool_call_id"]);
    assert_eq!(results[0]["content"]["name"], "tool_search");
    assert_eq!(
        results[0]["content"]["content"],
        "get_weather — Get the current weather at a specific location"
    );
}

#[test]
fn an_anthropic_mcp_tool_use_is_a_call_its_mcp_tool_result_answers() {
    for records in [
        body("anthropic_messages/anthropic/anthropic-mcp.1.json"),
        stream("anthropic_messages/anthropic/anthropic-mcp.1.chunks.txt"),
    ] {
        let calls = of_type(&records, "tool_call");
        let results = of_type(&records, "tool_result");
        assert_eq!(calls.len(), 1, "{records:?}");
        assert_eq!(calls[0]["content"]["name"], "echo");
        assert_eq!(calls[0]["status"], "completed");
        assert_eq!(results[0]["tool_call_id"], calls[0]["tool_call_id"]);
        assert_eq!(results[0]["content"]["name"], "echo");
        assert!(results[0]["content"]["content"]
            .as_str()
            .unwrap()
            .starts_with("Tool echo: "));
    }
}

#[test]
fn mistral_content_arrays_and_thinking_read_alike_in_the_stream_and_the_body() {
    let body = body("openai_completions/mistral/mistral-reasoning.json");
    let streamed = stream("openai_completions/mistral/mistral-reasoning.chunks.txt");
    assert_eq!(body, streamed);
    assert_eq!(body.len(), 2);
    assert_eq!(body[0]["content_type"], "thinking");
    assert_eq!(
        body[0]["content"]["text"],
        "The user is asking for 2+2. This is basic arithmetic. 2+2=4."
    );
    assert_eq!(body[1]["content"]["text"], "2 + 2 = 4");
    let text = stream("openai_completions/mistral/mistral-text.chunks.txt");
    let texts = of_type(&text, "text");
    assert_eq!(texts.len(), 1);
    assert!(!texts[0]["content"]["text"].as_str().unwrap().is_empty());
}

#[test]
fn server_tool_results_are_the_text_a_person_reads() {
    // Anthropic web search: `title — url` lines.
    let records = body("anthropic_messages/anthropic/anthropic-web-search-tool.1.json");
    let result = of_type(&records, "tool_result")[0]["content"]["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        result.starts_with("Latest News - Apple Developer — https://developer.apple.com/news/\n"),
        "{result}"
    );
    // Anthropic bash code execution: stdout, then the exit code.
    let records = body("anthropic_messages/anthropic/anthropic-code-execution-20250825.1.json");
    let bash: Vec<&Value> = of_type(&records, "tool_result")
        .into_iter()
        .filter(|r| r["content"]["name"] == "bash_code_execution")
        .collect();
    let text = bash[0]["content"]["content"].as_str().unwrap();
    assert!(
        text.starts_with("The 10th Fibonacci number is: 55\n"),
        "{text}"
    );
    assert!(text.ends_with("F(10) = 55\nexit code 0"), "{text}");
    // Anthropic web fetch: the title, the URL and the start of the page, not the whole document.
    let records = body("anthropic_messages/anthropic/anthropic-web-fetch-tool-20260209.1.json");
    let fetch = of_type(&records, "tool_result")[0]["content"]["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        fetch.contains("https://example.com\nExample Domain"),
        "{fetch}"
    );
    assert!(fetch.chars().count() <= 600, "{fetch}");
    // A failed fetch: its error code, as an error.
    let records = body("anthropic_messages/anthropic/anthropic-web-fetch-tool.error.json");
    let failed = of_type(&records, "tool_result")[0];
    assert_eq!(failed["content"]["content"], "unavailable");
    assert_eq!(failed["content"]["is_error"], true);
    // Responses web search: the query and its sources, a page opened, a text looked for.
    let records = body("openai_responses/openai/openai-web-search-tool.1.json");
    let results: Vec<&str> = of_type(&records, "tool_result")
        .iter()
        .map(|r| r["content"]["content"].as_str().unwrap())
        .collect();
    assert!(
        results[0]
            .starts_with("Searched: tech news today December 5 2025\nhttps://www.theverge.com/"),
        "{}",
        results[0]
    );
    assert_eq!(
        results[1],
        "Opened https://www.theverge.com/podcast/838932/openai-chatgpt-code-red-vergecast"
    );
    assert!(
        results[2].starts_with("Looked for \"Vercel\" in https://"),
        "{}",
        results[2]
    );
}

/// The server-tool outcomes a recording holds, as the provider wrote them: Anthropic's
/// `*_tool_result` blocks; the Responses items of tools the provider ran (`*_call` items of
/// server tools, which hold their outcome, and the `tool_search_output`, `program_output` and
/// hosted `shell_call_output` items that answer a call), including xAI's X search calls, which
/// stream as `custom_tool_call` items with an `xs_call_` id.
fn server_outcomes(path: &Path) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    let mut blocks: Vec<Value> = Vec::new();
    if path.extension().is_some_and(|e| e == "json") {
        let body: Value = serde_json::from_str(&text).unwrap();
        for key in ["content", "output"] {
            if let Some(list) = body.get(key).and_then(Value::as_array) {
                blocks.extend(list.iter().cloned());
            }
        }
    } else {
        for line in text.lines() {
            let line = line.trim().trim_start_matches("data:").trim();
            let Ok(event) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            match event["type"].as_str() {
                Some("content_block_start") => blocks.push(event["content_block"].clone()),
                Some("response.output_item.done") => blocks.push(event["item"].clone()),
                _ => {}
            }
        }
    }
    const CLIENT: [&str; 7] = [
        "function_call",
        "custom_tool_call",
        "computer_call",
        "local_shell_call",
        "shell_call",
        "apply_patch_call",
        "tool_search_call",
    ];
    blocks
        .iter()
        .filter(|b| {
            let ty = b["type"].as_str().unwrap_or("");
            let xai = ty == "custom_tool_call"
                && b["call_id"]
                    .as_str()
                    .is_some_and(|id| id.starts_with("xs_call_"));
            ty.ends_with("_tool_result")
                || xai
                || ty.ends_with("_call") && !CLIENT.contains(&ty)
                || ["tool_search_output", "program_output", "shell_call_output"].contains(&ty)
        })
        .count()
}

#[test]
fn every_server_tool_outcome_a_recording_holds_is_a_result_record() {
    // Issue 46 class 11: 4 of 51 were missing; xAI's X search calls (custom tool calls it runs
    // itself, `xs_call_` ids, no output item) stayed pending calls with no result.
    let (mut present, mut shown) = (0, 0);
    let mut missing = Vec::new();
    for protocol in [
        WireProtocol::AnthropicMessages,
        WireProtocol::OpenaiResponses,
    ] {
        for file in files(protocol) {
            let want = server_outcomes(&file);
            let records = if file.extension().is_some_and(|e| e == "json") {
                let body: Value =
                    serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
                if is_error_body(&body) {
                    continue;
                }
                body_records(protocol, &body).unwrap()
            } else {
                stream_records(protocol, &stream_text(&file).0).1
            };
            let got = of_type(records.as_array().unwrap(), "tool_result").len();
            present += want;
            shown += got;
            if got != want {
                missing.push(format!("{}: {got} of {want}", name(&file)));
            }
        }
    }
    assert!(missing.is_empty(), "{missing:#?}");
    assert!(present > 150, "{present}");
    assert_eq!(shown, present);
}

#[test]
fn apply_patch_shows_its_operation() {
    for records in [
        body("openai_responses/openai/openai-apply-patch-tool.1.json"),
        stream("openai_responses/openai/openai-apply-patch-tool.1.chunks.txt"),
    ] {
        let call = of_type(&records, "tool_call")[0];
        assert_eq!(call["content"]["name"], "apply_patch");
        let arguments = &call["content"]["arguments"];
        assert_eq!(arguments["type"], "create_file", "{arguments}");
        assert!(arguments["path"].is_string());
        assert!(arguments["diff"].is_string());
    }
}

#[test]
fn an_mcp_approval_request_is_a_pending_call_its_answer_pairs_with() {
    let records = body("openai_responses/openai/openai-mcp-tool-approval.1.json");
    let calls = of_type(&records, "tool_call");
    assert_eq!(calls.len(), 1, "{records:?}");
    assert_eq!(calls[0]["content"]["name"], "create_short_url");
    assert_eq!(
        calls[0]["content"]["arguments"]["url"],
        "https://ai-sdk.dev/"
    );
    assert_eq!(calls[0]["status"], "pending");
    // The next request sends the request back with the user's answer.
    let text = std::fs::read_to_string(recording(
        "openai_responses/openai/openai-mcp-tool-approval.1.json",
    ))
    .unwrap();
    let response: Value = serde_json::from_str(&text).unwrap();
    let request = response["output"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["type"] == "mcp_approval_request")
        .unwrap()
        .clone();
    let input = serde_json::json!({"input": [
        request,
        {"type": "mcp_approval_response", "approval_request_id": request["id"], "approve": true}
    ]});
    let records = body_records(WireProtocol::OpenaiResponses, &input).unwrap();
    let records = records.as_array().unwrap();
    assert_eq!(records[0]["status"], "completed");
    assert_eq!(records[1]["content_type"], "tool_result");
    assert_eq!(records[1]["tool_call_id"], request["id"]);
    assert_eq!(records[1]["content"]["name"], "create_short_url");
    assert_eq!(records[1]["content"]["content"], "approved");
}

#[test]
fn a_program_and_its_output_in_a_later_response_pair_by_call_id() {
    let read = |path: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(recording(path)).unwrap()).unwrap()
    };
    let first = read("openai_responses/openai/programmatic-tool-calling.1.json");
    let last = read("openai_responses/openai/programmatic-tool-calling.3.json");
    let mut items = first["output"].as_array().unwrap().clone();
    items.extend(last["output"].as_array().unwrap().iter().cloned());
    let records = body_records(
        WireProtocol::OpenaiResponses,
        &serde_json::json!({"input": items}),
    )
    .unwrap();
    let records = records.as_array().unwrap();
    let program = records
        .iter()
        .find(|r| r["content"]["name"] == "program")
        .unwrap();
    assert_eq!(program["status"], "completed");
    assert!(program["content"]["arguments"]["code"].is_string());
    let output = of_type(records, "tool_result");
    assert_eq!(output[0]["tool_call_id"], program["tool_call_id"]);
    assert_eq!(output[0]["content"]["name"], "program");
    assert!(output[0]["content"]["content"]
        .as_str()
        .unwrap()
        .contains("\"availableUnits\":42"));
}

#[test]
fn a_server_tool_result_in_a_later_message_of_the_stream_answers_its_call() {
    let records =
        stream("anthropic_messages/anthropic/anthropic-programmatic-tool-calling.1.chunks.txt");
    let call = records
        .iter()
        .find(|r| r["content"]["name"] == "code_execution")
        .unwrap();
    assert_eq!(call["status"], "completed");
    let result = of_type(&records, "tool_result")
        .into_iter()
        .find(|r| r["tool_call_id"] == call["tool_call_id"])
        .unwrap();
    assert_eq!(result["content"]["name"], "code_execution");
    assert!(result["content"]["content"]
        .as_str()
        .unwrap()
        .ends_with("exit code 0"));
}

// ---------------------------------------------------------------------------------------------
// What the records show beyond Sagents' mapping (docs/API.md "Rich provider content").

/// The citations of every text record, in order; each citation must have exactly the eleven
/// fields, in Sycophant's order.
fn citations(records: &[Value]) -> Vec<Value> {
    let mut out = Vec::new();
    for record in of_type(records, "text") {
        if let Some(list) = record["metadata"]["citations"].as_array() {
            for c in list {
                let keys: Vec<&str> = c.as_object().unwrap().keys().map(String::as_str).collect();
                let mut sorted = CITATION_FIELDS.to_vec();
                sorted.sort();
                let mut got = keys.clone();
                got.sort();
                assert_eq!(got, sorted, "{c}");
                out.push(c.clone());
            }
        } else {
            assert_eq!(record["metadata"], serde_json::json!({}), "{record}");
        }
    }
    out
}

#[test]
fn citations_ride_on_their_text_record_in_the_body_and_the_stream() {
    // Anthropic: block citations, and citations_delta in the stream.
    let body_cites = citations(&body(
        "anthropic_messages/anthropic/anthropic-web-search-tool.1.json",
    ));
    let stream_cites = citations(&stream(
        "anthropic_messages/anthropic/anthropic-web-search-tool.1.chunks.txt",
    ));
    for list in [&body_cites, &stream_cites] {
        assert!(!list.is_empty());
        assert!(list
            .iter()
            .all(|c| c["type"] == "web_search_result_location"
                && c["url"].is_string()
                && c["cited_text"].is_string()
                && c["file_id"].is_null()));
    }
    // Responses: url_citation annotations, and response.output_text.annotation.added.
    let body_cites = citations(&body(
        "openai_responses/openai/openai-web-search-tool.1.json",
    ));
    let stream_cites = citations(&stream(
        "openai_responses/openai/openai-web-search-tool.1.chunks.txt",
    ));
    assert_eq!(
        body_cites[0]["url"],
        "https://www.theverge.com/podcast/838932/openai-chatgpt-code-red-vergecast"
    );
    assert_eq!(body_cites[0]["start_index"], 426);
    assert_eq!(body_cites[0]["end_index"], 517);
    assert_eq!(body_cites[0]["unit"], "char");
    assert!(body_cites[0]["type"].is_null());
    assert!(!stream_cites.is_empty());
    assert!(stream_cites
        .iter()
        .all(|c| c["url"].is_string() && c["unit"] == "char"));
    // Responses: a container file citation.
    let cites = citations(&body(
        "openai_responses/openai/openai-code-interpreter-tool.1.json",
    ));
    assert_eq!(
        cites[0]["file_id"],
        "cfile_6903bf45e3288191af3d56e6d23c3a4d"
    );
    assert_eq!(cites[0]["document_title"], "two_dice_sums_10000.txt");
    assert_eq!(cites[0]["start_index"], 195);
    // Perplexity: the top-level citations, in order, on the body's and the stream's text.
    let body_cites = citations(&body(
        "openai_completions/perplexity/perplexity-citations.json",
    ));
    let stream_cites = citations(&stream(
        "openai_completions/perplexity/perplexity-citations.chunks.txt",
    ));
    assert_eq!(
        body_cites[0]["url"],
        "https://populationstat.com/united-states/san-francisco"
    );
    assert_eq!(stream_cites.len(), 7);
    assert_eq!(
        stream_cites[2]["url"],
        "https://fred.stlouisfed.org/graph/?g=4K5j"
    );
    // A text without citations keeps `metadata: {}` (checked inside `citations`).
    assert!(citations(&body("anthropic_messages/anthropic/anthropic-text.json")).is_empty());
}

#[test]
fn a_server_tool_result_keeps_its_structured_result_in_metadata() {
    let records = body("anthropic_messages/anthropic/anthropic-web-search-tool.1.json");
    let result = of_type(&records, "tool_result")[0];
    let structured = result["metadata"]["result"].as_array().unwrap();
    assert_eq!(structured[0]["type"], "web_search_result");
    assert_eq!(structured[0]["title"], "Latest News - Apple Developer");
    let records = body("openai_responses/openai/openai-web-search-tool.1.json");
    let result = of_type(&records, "tool_result")[0];
    assert_eq!(result["metadata"]["result"]["type"], "web_search_call");
    assert!(result["metadata"]["result"]["action"]["sources"].is_array());
    // A client tool's result stays as Sagents maps it.
    let records = body("openai_responses/openai/openai-shell-container.1.json");
    let shell = of_type(&records, "tool_result")[0];
    assert_eq!(shell["metadata"]["result"][0]["outcome"]["exit_code"], 0);
}

#[test]
fn a_generated_image_is_an_image_record() {
    for records in [
        body("openai_responses/openai/openai-image-generation-tool.1.json"),
        stream("openai_responses/openai/openai-image-generation-tool.1.chunks.txt"),
    ] {
        let images = of_type(&records, "image");
        assert_eq!(
            images.len(),
            1,
            "{:?}",
            shape(&Value::Array(records.clone()))
        );
        // The recordings keep only the start of the base64 (the AI SDK cut them).
        assert!(images[0]["content"]["data"]
            .as_str()
            .unwrap()
            .starts_with("UklGR"));
        assert!(images[0]["content"]["mime_type"]
            .as_str()
            .unwrap()
            .starts_with("image/"));
        assert_eq!(images[0]["status"], "completed");
        assert!(images[0]["tool_call_id"].is_null());
        // Right after the result of the call that made it, whose text is the revised prompt.
        let at = records
            .iter()
            .position(|r| r["content_type"] == "image")
            .unwrap();
        assert_eq!(records[at - 1]["content_type"], "tool_result");
        assert_eq!(records[at - 1]["content"]["name"], "image_generation");
    }
    let body = body("openai_responses/openai/openai-image-generation-tool.1.json");
    assert_eq!(
        of_type(&body, "image")[0]["content"]["mime_type"],
        "image/webp"
    );
}

#[test]
fn an_approval_request_record_says_so_in_its_metadata() {
    for records in [
        body("openai_responses/openai/openai-mcp-tool-approval.1.json"),
        stream("openai_responses/openai/openai-mcp-tool-approval.1.chunks.txt"),
    ] {
        let call = of_type(&records, "tool_call")[0];
        assert_eq!(call["status"], "pending");
        assert_eq!(
            call["metadata"],
            serde_json::json!({"approval_request": true})
        );
    }
}

#[test]
fn compaction_and_fallback_are_notifications_with_their_summary() {
    for records in [
        body("anthropic_messages/anthropic/anthropic-compaction.1.json"),
        stream("anthropic_messages/anthropic/anthropic-compaction.1.chunks.txt"),
    ] {
        let notes = of_type(&records, "notification");
        assert_eq!(notes.len(), 1);
        assert!(notes[0]["content"]["text"]
            .as_str()
            .unwrap()
            .starts_with("## Summary of Conversation"));
        assert_eq!(records[0]["content_type"], "notification");
    }
    for records in [
        body("anthropic_messages/anthropic/anthropic-fallback.json"),
        stream("anthropic_messages/anthropic/anthropic-fallback.chunks.txt"),
    ] {
        let notes = of_type(&records, "notification");
        assert_eq!(
            notes[0]["content"]["text"],
            "Model fallback: claude-fable-5 → claude-opus-4-8"
        );
    }
    let records = body("openai_responses/openai/openai-compaction.1.json");
    assert_eq!(of_type(&records, "notification").len(), 1);
}

#[test]
fn to_provider_sends_the_new_blocks_back_as_they_came() {
    let read = |path: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(recording(path)).unwrap()).unwrap()
    };
    let round = |protocol: &str, body: &Value| -> Value {
        let proto = Value::String(protocol.into());
        let messages = json(&chat_display::from_provider(&&proto, &body).unwrap());
        json(&chat_display::to_provider(&&proto, &&messages).unwrap())
    };
    // Anthropic: the mcp_tool_use block, with its server_name, and its result.
    let body = read("anthropic_messages/anthropic/anthropic-mcp.1.json");
    let request = round("anthropic_messages", &body);
    let blocks = request[0]["content"].as_array().unwrap();
    let sent = blocks.iter().find(|b| b["type"] == "mcp_tool_use").unwrap();
    let given = body["content"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["type"] == "mcp_tool_use")
        .unwrap();
    assert_eq!(sent, given);
    assert!(blocks.iter().any(|b| b["type"] == "mcp_tool_result"));
    // Anthropic: compaction and fallback blocks go back as they were.
    let body = read("anthropic_messages/anthropic/anthropic-compaction.1.json");
    let request = round("anthropic_messages", &body);
    assert_eq!(request[0]["content"][0], body["content"][0]);
    // Responses: the approval request and the shell output items.
    for path in [
        "openai_responses/openai/openai-mcp-tool-approval.1.json",
        "openai_responses/openai/openai-shell-container.1.json",
    ] {
        let body = read(path);
        let request = round("openai_responses", &body);
        for item in body["output"].as_array().unwrap() {
            if ["mcp_approval_request", "shell_call_output"]
                .contains(&item["type"].as_str().unwrap())
            {
                assert!(request.as_array().unwrap().contains(item), "{path}: {item}");
            }
        }
    }
}

/// The Converse body a ConverseStream recording stands for, built from its events as the Converse
/// API documents the two (docs/STREAMS.md "Each provider's events"): each block's text deltas
/// joined; a block with `citation` deltas is a `citationsContent` block holding its text and the
/// citations; the stop reason of `messageStop`.
fn converse_body(path: &str) -> Value {
    let text = std::fs::read_to_string(recording(path)).unwrap();
    let mut blocks: BTreeMap<u64, (String, Vec<Value>)> = BTreeMap::new();
    let mut stop = Value::Null;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let event: Value = serde_json::from_str(line).unwrap();
        if let Some(delta) = event.get("contentBlockDelta") {
            let index = delta["contentBlockIndex"].as_u64().unwrap();
            let block = blocks.entry(index).or_default();
            if let Some(text) = delta["delta"]["text"].as_str() {
                block.0.push_str(text);
            }
            if let Some(citation) = delta["delta"].get("citation") {
                block.1.push(citation.clone());
            }
        }
        if let Some(reason) = event.pointer("/messageStop/stopReason") {
            stop = reason.clone();
        }
    }
    let content: Vec<Value> = blocks
        .into_values()
        .map(|(text, citations)| {
            if citations.is_empty() {
                serde_json::json!({"text": text})
            } else {
                serde_json::json!({"citationsContent": {"citations": citations, "content": [{"text": text}]}})
            }
        })
        .collect();
    serde_json::json!({"output": {"message": {"role": "assistant", "content": content}}, "stopReason": stop})
}

#[test]
fn bedrock_stream_citation_deltas_give_the_records_of_its_citations_content_body() {
    let path = "bedrock_converse/amazon-bedrock/amazon-bedrock-document-citations.chunks.txt";
    let streamed = stream(path);
    let body = body_records(WireProtocol::BedrockConverse, &converse_body(path)).unwrap();
    assert_eq!(Value::Array(streamed.clone()), body);
    // Six citation deltas, each on the text of its block: a page of the document.
    let cites = citations(&streamed);
    assert_eq!(cites.len(), 6);
    let cited: Vec<&Value> = of_type(&streamed, "text")
        .into_iter()
        .filter(|r| r["metadata"]["citations"].is_array())
        .collect();
    assert_eq!(cited.len(), 6);
    assert!(cited[0]["content"]["text"]
        .as_str()
        .unwrap()
        .starts_with("generative artificial intelligence refers to"));
    assert_eq!(cites[0]["title"], "document");
    assert!(cites[0]["cited_text"]
        .as_str()
        .unwrap()
        .starts_with("AI 1\r\nAI\r\nGenerative artificial intelligence"));
    assert_eq!(cites[0]["document_index"], 0);
    assert_eq!(cites[0]["start_index"], 1);
    assert_eq!(cites[0]["end_index"], 2);
    assert_eq!(cites[0]["unit"], "page");
    assert!(cites[0]["type"].is_null() && cites[0]["url"].is_null());
}

#[test]
fn langchain_js_holding_anthropic_server_tool_blocks_shows_the_results_anthropic_shows() {
    // LangChain.js keeps an Anthropic response's content blocks as they came (an AIMessage with
    // model_provider "anthropic"): the same server tool result blocks give the same records.
    let mut compared = 0;
    for path in [
        "anthropic_messages/anthropic/anthropic-web-search-tool.1.json",
        "anthropic_messages/anthropic/anthropic-code-execution-20250825.1.json",
        "anthropic_messages/anthropic/anthropic-web-fetch-tool-20260209.1.json",
        "anthropic_messages/anthropic/anthropic-web-fetch-tool.error.json",
    ] {
        let body: Value =
            serde_json::from_str(&std::fs::read_to_string(recording(path)).unwrap()).unwrap();
        let anthropic = body_records(WireProtocol::AnthropicMessages, &body).unwrap();
        let message = serde_json::json!({
            "type": "ai",
            "content": body["content"],
            "response_metadata": {"model_provider": "anthropic"}
        });
        let langchain = body_records(WireProtocol::LangchainJs, &message).unwrap();
        let results = |records: &Value| -> Vec<Value> {
            of_type(records.as_array().unwrap(), "tool_result")
                .into_iter()
                .cloned()
                .collect()
        };
        let (want, got) = (results(&anthropic), results(&langchain));
        assert!(!want.is_empty(), "{path}");
        assert_eq!(got, want, "{path}");
        for record in &want {
            // The text a person reads, not the compact JSON of the result it keeps.
            let result = &record["metadata"]["result"];
            assert!(!result.is_null(), "{path}: {record}");
            assert_ne!(
                record["content"]["content"].as_str(),
                Some(serde_json::to_string(result).unwrap().as_str()),
                "{path}"
            );
        }
        compared += want.len();
    }
    assert!(compared >= 5, "{compared}");
}
