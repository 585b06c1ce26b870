//! StreamAccumulator over the recorded-style fixtures in tests/fixtures/streams: every stream,
//! pushed whole, event by event, in small pieces and (for short ones) split at every byte, must
//! end with `message()` equal to `fromProvider(<final body>)` and `records()` equal to
//! `toDisplayMessages` of it, and the patches of every push, applied in order to an empty array,
//! must give `records()` after each push.
#![cfg(not(target_arch = "wasm32"))]

use chat_display::json::partial::{apply, Change};
use chat_display::providers::{has_stream, Parsed, WireProtocol};
use chat_display::stream::{Chunk, Patch, StreamAccumulator};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The extensions of stream fixtures: server-sent events, and NDJSON (Ollama's).
const STREAM_FILES: [&str; 2] = ["sse", "ndjson"];

fn fixtures() -> Vec<(WireProtocol, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/streams");
    let mut out = Vec::new();
    for protocol in WireProtocol::ALL.into_iter().filter(|p| has_stream(*p)) {
        let dir = root.join(protocol.as_str());
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                p.extension()
                    .is_some_and(|e| STREAM_FILES.iter().any(|s| e == *s))
            })
            .collect();
        files.sort();
        out.extend(files.into_iter().map(|f| (protocol, f)));
    }
    out
}

fn json(value: &impl serde::Serialize) -> Value {
    serde_json::to_value(value).unwrap()
}

/// The recorded streams that have a final body: (protocol, file, its name, the final body).
fn with_final_bodies() -> Vec<(WireProtocol, PathBuf, String, Value)> {
    fixtures()
        .into_iter()
        .filter_map(|(protocol, file)| {
            let final_text = std::fs::read_to_string(file.with_extension("final.json")).ok()?;
            let name = file.file_name().unwrap().to_string_lossy().to_string();
            Some((
                protocol,
                file,
                name,
                serde_json::from_str(&final_text).unwrap(),
            ))
        })
        .collect()
}

/// The content types of `records` (a JSON array), in order.
fn types_of(records: &Value) -> Vec<&str> {
    records
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["content_type"].as_str().unwrap())
        .collect()
}

/// Asserts that the stream is over and that the message it cut short is not complete.
#[track_caller]
fn assert_cut_short(acc: &StreamAccumulator, what: &str) {
    assert!(acc.done(), "{what}");
    assert_eq!(
        json(&acc.message().unwrap())["status"],
        "cancelled",
        "{what}"
    );
}

/// Applies patches to a copy of the records, as a UI would.
fn apply_patches(records: &mut Vec<Parsed>, patches: &[Patch]) {
    for patch in patches {
        match patch {
            Patch::Add(record) => records.push(record.clone()),
            Patch::Replace { index, record } => records[*index] = record.clone(),
            Patch::Append { index, field, text } => {
                let content = records[*index].get_mut("content").unwrap();
                match content.get_mut(field).unwrap() {
                    Parsed::String(s) => s.push_str(text),
                    other => panic!("append to {other:?}"),
                }
            }
            Patch::Arguments { index, changes } => {
                let arguments = records[*index]
                    .get_mut("content")
                    .and_then(|c| c.get_mut("arguments"))
                    .unwrap();
                for change in changes {
                    apply(arguments, change);
                }
            }
        }
    }
}

/// Pushes `pieces` in order, checking the patches after each push; returns the accumulator.
fn run(protocol: WireProtocol, pieces: &[&[u8]], name: &str) -> StreamAccumulator {
    let mut acc = StreamAccumulator::new(protocol);
    let mut mirror = Vec::new();
    for (i, piece) in pieces.iter().enumerate() {
        let patches = acc.push(Chunk::Bytes(piece));
        apply_patches(&mut mirror, &patches);
        // After every push of the first 2,000, then of every 97th and the last: comparing the
        // whole records after each of a long stream's pushes a byte at a time made this file most
        // of `cargo test`'s time (the comparison grows with the stream: 160 KB a byte at a time).
        if i < 2000 || i % 97 == 0 || i + 1 == pieces.len() {
            assert_eq!(
                json(&mirror),
                json(&acc.records()),
                "{name}: patches after push {i} do not give records()"
            );
        }
    }
    acc
}

/// What the stream must come out as: the records of every final body, and the last one's message.
fn expected(protocol: WireProtocol, final_body: &Value) -> (Value, Value) {
    let bodies: Vec<&Value> = match final_body {
        Value::Array(list) => list.iter().collect(),
        one => vec![one],
    };
    let proto = Value::String(protocol.as_str().into());
    let mut records = Vec::new();
    let mut message = Value::Null;
    for body in bodies {
        let messages = json(&chat_display::from_provider(&&proto, &body).unwrap());
        let list = json(&chat_display::to_display_messages(&&messages, None).unwrap());
        records.extend(list.as_array().unwrap().iter().cloned());
        message = messages[0].clone();
    }
    (Value::Array(records), message)
}

fn check_end(acc: &StreamAccumulator, protocol: WireProtocol, final_body: &Value, how: &str) {
    check_against(acc, &expected(protocol, final_body), how);
}

/// [`check_end`] against what [`expected`] gave (made once for the many cuts of one fixture).
fn check_against(acc: &StreamAccumulator, (records, message): &(Value, Value), how: &str) {
    assert!(acc.done(), "{how}: not done");
    assert_eq!(&json(&acc.records()), records, "{how}: records");
    assert_eq!(&json(&acc.message().unwrap()), message, "{how}: message");
}

/// The text cut after each event (at each blank line; NDJSON, which has none, after each line).
fn events(text: &[u8]) -> Vec<&[u8]> {
    if !text.windows(2).any(|w| w == b"\n\n") {
        return text.split_inclusive(|b| *b == b'\n').collect();
    }
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i + 1 < text.len() {
        let end = if text[i..].starts_with(b"\n\n") {
            Some(i + 2)
        } else if text[i..].starts_with(b"\r\n\r\n") {
            Some(i + 4)
        } else {
            None
        };
        if let Some(end) = end {
            out.push(&text[start..end]);
            start = end;
            i = end;
        } else {
            i += 1;
        }
    }
    out.push(&text[start..]);
    out
}

#[test]
fn every_fixture_ends_as_its_final_body_however_it_is_cut() {
    let mut checked = 0;
    let mut failed = Vec::new();
    for (protocol, file) in fixtures() {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read(&file).unwrap();
        let final_path = file.with_extension("final.json");
        let Ok(final_text) = std::fs::read_to_string(&final_path) else {
            continue;
        };
        let final_body: Value = serde_json::from_str(&final_text).unwrap();
        let ok = std::panic::catch_unwind(|| {
            let whole = run(protocol, &[&text], &name);
            check_end(&whole, protocol, &final_body, &format!("{name} whole"));
            let by_event = run(protocol, &events(&text), &name);
            check_end(
                &by_event,
                protocol,
                &final_body,
                &format!("{name} by event"),
            );
            for size in [1, 3, 7, 64] {
                let pieces: Vec<&[u8]> = text.chunks(size).collect();
                let acc = run(protocol, &pieces, &name);
                check_end(
                    &acc,
                    protocol,
                    &final_body,
                    &format!("{name} in pieces of {size}"),
                );
            }
        });
        if ok.is_err() {
            failed.push(format!("{}/{name}", protocol.as_str()));
        }
        checked += 1;
    }
    assert!(failed.is_empty(), "failed: {failed:#?}");
    assert!(checked >= 40, "only {checked} fixtures with a final body");
}

#[test]
fn short_fixtures_split_at_every_byte() {
    for (protocol, file) in fixtures() {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read(&file).unwrap();
        let Ok(final_text) = std::fs::read_to_string(file.with_extension("final.json")) else {
            continue;
        };
        if text.len() > 2000 {
            continue;
        }
        let final_body: Value = serde_json::from_str(&final_text).unwrap();
        let want = expected(protocol, &final_body);
        for at in 0..=text.len() {
            let (a, b) = text.split_at(at);
            let acc = run(protocol, &[a, b], &name);
            check_against(&acc, &want, &format!("{name} split at {at}"));
        }
    }
}

#[test]
fn streams_without_a_final_body_end_with_their_message_count() {
    for (protocol, file) in fixtures() {
        let Ok(expect) = std::fs::read_to_string(file.with_extension("expect.json")) else {
            continue;
        };
        let expect: Value = serde_json::from_str(&expect).unwrap();
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read(&file).unwrap();
        let pieces: Vec<&[u8]> = text.chunks(5).collect();
        let acc = run(protocol, &pieces, &name);
        let records = json(&acc.records());
        let list = records.as_array().unwrap();
        assert!(!list.is_empty(), "{name}");
        let _ = expect["messages"].as_u64().unwrap();
        // Nothing is still streaming once the stream has ended or broken off with an error.
        if acc.done() {
            for record in list {
                assert_eq!(
                    record["metadata"].get("streaming"),
                    None,
                    "{name}: {record}"
                );
            }
        }
    }
}

#[test]
fn a_streaming_tool_call_shows_its_arguments_as_they_arrive() {
    let text = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/streams/anthropic_messages/parallel-tool-calls.sse"),
    )
    .unwrap();
    let mut acc = StreamAccumulator::new(WireProtocol::AnthropicMessages);
    let mut appends = 0;
    let mut partial_seen = false;
    for piece in events(&text) {
        for patch in acc.push(Chunk::Bytes(piece)) {
            if let Patch::Arguments { index, changes } = patch {
                appends += changes
                    .iter()
                    .filter(|c| matches!(c, Change::Append { .. }))
                    .count();
                let record = json(&acc.records()[index]);
                assert_eq!(
                    record["metadata"]["streaming"],
                    Value::Bool(true),
                    "{record}"
                );
                assert_eq!(record["content_type"], "tool_call");
                // The arguments so far are an object (never the raw text) while the call streams.
                assert!(record["content"]["arguments"].is_object(), "{record}");
                partial_seen |= record["content"]["arguments"]
                    .as_object()
                    .unwrap()
                    .values()
                    .any(|v| v.is_string());
            }
        }
    }
    assert!(appends > 0, "string arguments grow by appends");
    assert!(partial_seen);
    assert!(acc.done());
}

fn records_of(protocol: WireProtocol, text: &str) -> (Vec<Value>, bool) {
    let mut acc = StreamAccumulator::new(protocol);
    let mut mirror = Vec::new();
    let patches = acc.push(Chunk::Bytes(text.as_bytes()));
    apply_patches(&mut mirror, &patches);
    assert_eq!(json(&mirror), json(&acc.records()));
    let records = json(&acc.records()).as_array().unwrap().clone();
    (records, acc.done())
}

#[test]
fn broken_streams_give_error_records_and_unknown_events_are_ignored() {
    let start = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m1\",\"role\":\"assistant\",\"content\":[]}}\n\n";
    // A delta for a block that never started.
    let (records, _) = records_of(
        WireProtocol::AnthropicMessages,
        &format!("{start}data: {{\"type\":\"content_block_delta\",\"index\":3,\"delta\":{{\"type\":\"text_delta\",\"text\":\"x\"}}}}\n\n"),
    );
    assert_eq!(records.len(), 1);
    assert_eq!(records[0]["content_type"], "error");
    assert_eq!(records[0]["content"]["path"], "$.events[1]");
    assert_eq!(records[0]["status"], "failed");
    // Invalid JSON in a data line, then the stream goes on.
    let (records, done) = records_of(
        WireProtocol::AnthropicMessages,
        &format!("{start}data: {{\"type\":\"content_blo\n\ndata: {{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{{\"type\":\"text\",\"text\":\"\"}}}}\n\ndata: {{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{{\"type\":\"text_delta\",\"text\":\"hi\"}}}}\n\ndata: {{\"type\":\"message_stop\"}}\n\n"),
    );
    assert!(done);
    let types: Vec<&str> = records
        .iter()
        .map(|r| r["content_type"].as_str().unwrap())
        .collect();
    // The message began before the bad line, so its records come first.
    assert_eq!(types, ["text", "error"]);
    assert_eq!(records[0]["content"]["text"], "hi");
    assert_eq!(
        records[1]["content"]["text"],
        "A data line is not JSON (it ends inside a value at line 1, column 20)."
    );
    // What is wrong with the line, and where: above, a text that ends early; here, one that does
    // not read.
    let (records, _) = records_of(
        WireProtocol::AnthropicMessages,
        &format!("{start}data: {{\"a\" 1}}\n\n"),
    );
    assert_eq!(
        records[0]["content"]["text"],
        "A data line is not JSON (a syntax error at line 1, column 6)."
    );
    assert_eq!(records[0]["content"]["path"], "$.events[1]");
    // Unknown events and unknown delta types change nothing.
    let (records, _) = records_of(
        WireProtocol::AnthropicMessages,
        &format!("{start}data: {{\"type\":\"something_new\",\"x\":1}}\n\ndata: {{\"type\":\"ping\"}}\n\n"),
    );
    assert!(records.is_empty());
    for protocol in WireProtocol::ALL.into_iter().filter(|p| has_stream(*p)) {
        // Not objects, wrong shapes, deltas out of nowhere: error records or nothing, never a panic.
        let junk = "data: 42\n\ndata: []\n\ndata: null\n\ndata: {\"choices\":5}\n\ndata: {\"candidates\":[{\"content\":{\"parts\":7}}]}\n\ndata: {\"contentBlockDelta\":{\"contentBlockIndex\":9,\"delta\":{\"toolUse\":{\"input\":\"{\"}}}}\n\ndata: {\"type\":\"response.output_text.delta\",\"output_index\":4,\"delta\":\"x\"}\n\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\n";
        let (records, _) = records_of(protocol, junk);
        assert!(
            records.iter().all(|r| r["content_type"] == "error"),
            "{protocol:?}: {records:?}"
        );
        assert!(records.len() >= 3, "{protocol:?}: {records:?}");
    }
}

#[test]
fn a_part_index_past_the_end_is_an_error_record_not_an_allocation() {
    // Found by the stream fuzz target: a summary_index of 13 billion once padded the part list
    // with that many nulls (an allocation failure, so an abort in wasm). Parts arrive in order:
    // the next one may start with its first delta, a later one is an error record.
    let start = concat!(
        "data: {\"type\":\"response.created\",\"response\":{\"id\":\"r\",\"output\":[]}}\n\n",
        "data: {\"type\":\"response.output_item.added\",\"output_index\":0,",
        "\"item\":{\"id\":\"rs\",\"type\":\"reasoning\",\"summary\":[]}}\n\n",
    );
    for (event, index) in [
        ("response.reasoning_summary_text.delta", "summary_index"),
        ("response.reasoning_summary_part.added", "summary_index"),
        ("response.reasoning_text.delta", "content_index"),
    ] {
        let line = |i: u64| {
            format!("data: {{\"type\":\"{event}\",\"output_index\":0,\"{index}\":{i},\"delta\":\"d{i}\",\"part\":{{\"type\":\"summary_text\",\"text\":\"p{i}\"}}}}\n\n")
        };
        let text = format!("{start}{}{}{}", line(0), line(13_333_333_320), line(1));
        let (records, _) = records_of(WireProtocol::OpenaiResponses, &text);
        let types: Vec<&str> = records
            .iter()
            .map(|r| r["content_type"].as_str().unwrap())
            .collect();
        // Each part is a thinking record, the parts before and after the bad event both there;
        // the error record follows the message's records.
        assert_eq!(
            types,
            ["thinking", "thinking", "error"],
            "{event}: {records:?}"
        );
        let texts: Vec<&str> = records[..2]
            .iter()
            .map(|r| r["content"]["text"].as_str().unwrap())
            .collect();
        assert!(
            texts[0].ends_with('0') && texts[1].ends_with('1'),
            "{event}: {texts:?}"
        );
        assert_eq!(
            records[2]["content"]["text"],
            format!("A {event} event for {index} 13333333320, past the item's parts."),
        );
        assert_eq!(records[2]["content"]["path"], "$.events[3]");
    }
}

#[test]
fn a_gemini_json_path_past_the_end_of_an_array_is_an_error_record() {
    // The same memory request as above, through Gemini's streamed arguments: `$.tags[N]` once
    // filled the gap with N nulls, one change (and one patch) each.
    let chunk = |part: &str| {
        format!("data: {{\"candidates\":[{{\"content\":{{\"role\":\"model\",\"parts\":[{part}]}}}}]}}\n\n")
    };
    let fragment = |path: &str, value: &str| {
        chunk(&format!("{{\"functionCall\":{{\"partialArgs\":[{{\"jsonPath\":\"{path}\",\"stringValue\":\"{value}\"}}],\"willContinue\":true}}}}"))
    };
    let text = [
        chunk("{\"functionCall\":{\"name\":\"tag\",\"willContinue\":true}}"),
        fragment("$.tags[0]", "a"),
        fragment("$.tags[2000000000]", "lost"),
        fragment("$.tags[1]", "b"),
        chunk("{\"functionCall\":{}}"),
    ]
    .concat();
    let (records, _) = records_of(WireProtocol::GoogleGemini, &text);
    let types: Vec<&str> = records
        .iter()
        .map(|r| r["content_type"].as_str().unwrap())
        .collect();
    assert_eq!(types, ["tool_call", "error"], "{records:?}");
    assert_eq!(
        records[0]["content"]["arguments"],
        serde_json::json!({"tags": ["a", "b"]})
    );
    assert_eq!(
        records[1]["content"]["text"],
        "A partialArgs fragment's jsonPath skips past the end of an array."
    );
    assert_eq!(records[1]["content"]["path"], "$.events[2]");
}

#[test]
fn a_body_with_one_bad_block_keeps_the_good_blocks_records_at_the_end() {
    // Found by the seeded mutation test of tests/js/stream.test.mjs: a block of the wrong shape
    // made the body the events built one `fromProvider` rejects, and at `message_stop` the
    // message's records were replaced by that one error, the good text before it gone.
    let text = concat!(
        "data: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"role\":\"assistant\",\"content\":[]}}\n\n",
        "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
        "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"kept\"}}\n\n",
        "data: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
        "data: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":true}}\n\n",
        "data: {\"type\":\"content_block_stop\",\"index\":1}\n\n",
        "data: {\"type\":\"message_stop\"}\n\n",
    );
    let (records, done) = records_of(WireProtocol::AnthropicMessages, text);
    assert!(done);
    let types: Vec<&str> = records
        .iter()
        .map(|r| r["content_type"].as_str().unwrap())
        .collect();
    // The text, the bad block's own error (read alone, it is its body's block 0), then the body's.
    assert_eq!(types, ["text", "error", "error"], "{records:?}");
    assert_eq!(records[0]["content"]["text"], "kept");
    assert_eq!(records[1]["content"]["path"], "$.payload.content[0].type");
    assert_eq!(records[2]["content"]["path"], "$.payload.content[1].type");
    // `message()` is `fromProvider` of that body, which throws: so does `message()`, the same error.
    let mut acc = StreamAccumulator::new(WireProtocol::AnthropicMessages);
    acc.push(Chunk::Bytes(text.as_bytes()));
    let error = acc.message().unwrap_err();
    assert_eq!(error.path, "$.payload.content[1].type");
    assert_eq!(
        error.message,
        "Expected a string at $.payload.content[1].type, got a boolean."
    );
}

#[test]
fn an_error_event_ends_the_stream_with_an_error_record() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/streams/anthropic_messages/error-mid-text.sse");
    let text = std::fs::read_to_string(file).unwrap();
    let (records, done) = records_of(WireProtocol::AnthropicMessages, &text);
    assert!(done);
    let last = records.last().unwrap();
    assert_eq!(last["content_type"], "error");
    assert!(last["content"]["text"]
        .as_str()
        .unwrap()
        .starts_with("overloaded_error"));
    assert!(records
        .iter()
        .all(|r| r["metadata"].get("streaming").is_none()));
}

#[test]
fn a_spliced_message_start_starts_a_second_message() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/streams/anthropic_messages/spliced-mid-tool.sse");
    let text = std::fs::read_to_string(file).unwrap();
    let mut acc = StreamAccumulator::new(WireProtocol::AnthropicMessages);
    acc.push(Chunk::Bytes(text.as_bytes()));
    let records = json(&acc.records());
    // The first message's records have sequence 0.., and so do the second's.
    let sequences: Vec<u64> = records
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["sequence"].as_u64().unwrap())
        .collect();
    assert_eq!(
        sequences.iter().filter(|&&s| s == 0).count(),
        2,
        "{records}"
    );
    // The half-streamed tool input of the first message ends as its raw text.
    assert!(records
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["content"]["arguments"].is_string()));
}

/// An AWS event-stream frame (checksums zero: the decoder does not verify them).
fn frame(event_type: &str, payload: &str) -> Vec<u8> {
    let mut headers = Vec::new();
    for (name, value) in [
        (":event-type", event_type),
        (":content-type", "application/json"),
        (":message-type", "event"),
    ] {
        headers.push(name.len() as u8);
        headers.extend_from_slice(name.as_bytes());
        headers.push(7);
        headers.extend_from_slice(&(value.len() as u16).to_be_bytes());
        headers.extend_from_slice(value.as_bytes());
    }
    let total = 16 + headers.len() + payload.len();
    let mut out = (total as u32).to_be_bytes().to_vec();
    out.extend_from_slice(&(headers.len() as u32).to_be_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend(headers);
    out.extend_from_slice(payload.as_bytes());
    out.extend_from_slice(&[0; 4]);
    out
}

#[test]
fn bedrock_streams_in_their_binary_framing_end_as_their_final_bodies() {
    let mut checked = 0;
    for (protocol, file, name, final_body) in with_final_bodies() {
        if protocol != WireProtocol::BedrockConverse {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        // The proxy's SSE back to the binary frames it was made from.
        let mut bytes = Vec::new();
        for line in text.lines().filter_map(|l| l.strip_prefix("data: ")) {
            let event: serde_json::Map<String, Value> = serde_json::from_str(line).unwrap();
            let (name, payload) = event.into_iter().next().unwrap();
            bytes.extend(frame(&name, &payload.to_string()));
        }
        for size in [1, 5, 64, bytes.len()] {
            let pieces: Vec<&[u8]> = bytes.chunks(size).collect();
            let acc = run(protocol, &pieces, &name);
            check_end(
                &acc,
                protocol,
                &final_body,
                &format!("{name} framed, pieces of {size}"),
            );
        }
        checked += 1;
    }
    assert!(checked >= 6);
}

#[test]
fn streamed_chat_completions_annotations_are_the_citations_of_the_text() {
    // The documented delta shape (OpenAI's search models, OpenRouter): no recorded stream with
    // annotations exists among the AI SDK's fixtures.
    let dir =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/streams/openai_completions");
    let text = std::fs::read_to_string(dir.join("url-citations.sse")).unwrap();
    let (records, done) = records_of(WireProtocol::OpenaiCompletions, &text);
    assert!(done);
    assert_eq!(records.len(), 1);
    let citations = records[0]["metadata"]["citations"].as_array().unwrap();
    assert_eq!(citations.len(), 2);
    assert_eq!(
        citations[0]["url"],
        "https://www.lemonde.fr/en/environment/seine-water.html"
    );
    assert_eq!(
        citations[0]["title"],
        "Seine water quality during the Games"
    );
    assert_eq!(citations[0]["start_index"], 69);
    assert_eq!(citations[0]["end_index"], 139);
    assert_eq!(citations[0]["unit"], "char");
    assert_eq!(
        citations[1]["url"],
        "https://apnews.com/article/seine-bacteria-rain"
    );
    assert!(citations[1]["type"].is_null());
}

/// Provider error bodies (the JSON of an HTTP error), as recorded or documented: each with the
/// message its error record must quote.
fn error_bodies() -> Vec<(Value, &'static str)> {
    let recorded = |path: &str| -> Value {
        let file = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/recorded")
            .join(path);
        serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap()
    };
    vec![
        (
            recorded("openai_responses/openai/openai-error.1.json"),
            "insufficient_quota: You exceeded your current quota",
        ),
        (
            recorded("google_gemini/google/google-429-retry-info.json"),
            "RESOURCE_EXHAUSTED, code 429: You exceeded your current quota, please check your plan.",
        ),
        (
            serde_json::json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
            "overloaded_error: Overloaded",
        ),
        (
            serde_json::json!({"message": "The security token included in the request is invalid."}),
            "error: The security token included in the request is invalid.",
        ),
    ]
}

#[test]
fn a_provider_error_body_pushed_as_an_object_or_as_its_text_is_an_error_record_in_every_format() {
    for protocol in WireProtocol::ALL.into_iter().filter(|p| has_stream(*p)) {
        for (body, said) in error_bodies() {
            let pretty = serde_json::to_string_pretty(&body).unwrap();
            let compact = body.to_string();
            let as_text = |text: &str, size: usize| {
                let mut acc = StreamAccumulator::new(protocol);
                let mut mirror = Vec::new();
                for piece in text.as_bytes().chunks(size) {
                    apply_patches(&mut mirror, &acc.push(Chunk::Bytes(piece)));
                }
                assert_eq!(json(&mirror), json(&acc.records()));
                acc
            };
            let mut as_object = StreamAccumulator::new(protocol);
            as_object.push(Chunk::Event(serde_json::from_value(body.clone()).unwrap()));
            let ways = [
                ("object", as_object),
                ("pretty text", as_text(&format!("\n{pretty}\n"), 7)),
                ("compact text", as_text(&compact, 1)),
                (
                    "an SSE data line",
                    as_text(&format!("data: {compact}\n\n"), 5),
                ),
            ];
            for (how, acc) in ways {
                let records = json(&acc.records());
                let what = format!("{protocol:?}, {how}: {records}");
                assert_eq!(records.as_array().unwrap().len(), 1, "{what}");
                assert_eq!(records[0]["content_type"], "error", "{what}");
                assert_eq!(records[0]["content"]["path"], "$.events[0]", "{what}");
                let text = records[0]["content"]["text"].as_str().unwrap();
                assert!(text.starts_with(said), "{what}");
                assert_cut_short(&acc, &what);
            }
        }
    }
}

#[test]
fn an_error_event_cuts_the_message_short_it_is_not_complete() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/streams/anthropic_messages/error-mid-text.sse");
    let mut acc = StreamAccumulator::new(WireProtocol::AnthropicMessages);
    acc.push(Chunk::Bytes(&std::fs::read(file).unwrap()));
    let message = json(&acc.message().unwrap());
    assert_eq!(message["status"], "cancelled");
    assert!(message["content"][0]["content"]
        .as_str()
        .unwrap()
        .ends_with("a cooking class,"));
    // A new message after it starts complete again.
    acc.push(Chunk::Bytes(concat!(
        "data: {\"type\":\"message_start\",\"message\":{\"id\":\"m2\",\"role\":\"assistant\",\"content\":[]}}\n\n",
        "data: {\"type\":\"message_stop\"}\n\n"
    ).as_bytes()));
    assert_eq!(json(&acc.message().unwrap())["status"], "complete");
}

#[test]
fn chat_completions_stream_errors_give_an_error_record_and_leave_the_answer_cancelled() {
    // Groq's SSE `event: error`, and OpenRouter's chunk with an `error` key (its documented
    // mid-stream error): the partial text stays, an error record follows it, and the message the
    // error cut short is not complete.
    let dir =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/streams/openai_completions");
    for (file, text, said) in [
        (
            "groq-error-event.sse",
            "I'll look up the weather in Paris for you.",
            "invalid_request_error, code tool_use_failed: Failed to call a function.",
        ),
        (
            "openrouter-error-chunk.sse",
            "The Seine runs through",
            "server_error: Provider disconnected unexpectedly",
        ),
    ] {
        let bytes = std::fs::read(dir.join(file)).unwrap();
        for size in [1, 9, bytes.len()] {
            let pieces: Vec<&[u8]> = bytes.chunks(size).collect();
            let acc = run(WireProtocol::OpenaiCompletions, &pieces, file);
            let records = json(&acc.records());
            let types = types_of(&records);
            assert_eq!(types, ["text", "error"], "{file}: {records}");
            assert_eq!(records[0]["content"]["text"], text, "{file}");
            assert_eq!(records[0]["metadata"], serde_json::json!({}), "{file}");
            let error = records[1]["content"]["text"].as_str().unwrap();
            assert!(error.starts_with(said), "{file}: {error}");
            assert_cut_short(&acc, &file);
        }
    }
}

#[test]
fn a_bedrock_server_tools_result_streamed_in_the_assistants_content_answers_its_call() {
    // Nova's code interpreter: a toolUse with `type: "server_tool_use"`, then a toolResult block
    // (start, text deltas, stop) in the same message. The result's deltas are kept: the call is
    // completed by it and its record reads the run.
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/streams/bedrock_converse/server-tool-code-interpreter.sse");
    let (records, done) = records_of(
        WireProtocol::BedrockConverse,
        &std::fs::read_to_string(file).unwrap(),
    );
    assert!(done);
    let call = records
        .iter()
        .find(|r| r["content_type"] == "tool_call")
        .unwrap();
    let result = records
        .iter()
        .find(|r| r["content_type"] == "tool_result")
        .unwrap();
    assert_eq!(call["status"], "completed", "{records:?}");
    assert_eq!(result["tool_call_id"], call["tool_call_id"]);
    assert_eq!(result["content"]["name"], "nova_code_interpreter");
    assert_eq!(
        result["content"]["content"],
        "(1212, 12, 101.0)\nexit code 0"
    );
}

/// Standard base64 with padding (what AWS writes in a chunk's `bytes`).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for group in bytes.chunks(3) {
        let n = group
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= group.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The `data:` values of an SSE fixture.
fn data_values(text: &str) -> Vec<Value> {
    text.lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter(|l| l.trim() != "[DONE]")
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn gemini_streams_without_alt_sse_one_json_array_growing_end_as_their_final_bodies() {
    // `streamGenerateContent` without `alt=sse` answers one JSON array, each element a response
    // chunk, pretty-printed and separated by `\n,\r\n` as Google writes it.
    let mut checked = 0;
    for (protocol, file, name, final_body) in with_final_bodies() {
        if protocol != WireProtocol::GoogleGemini {
            continue;
        }
        let chunks: Vec<String> = data_values(&std::fs::read_to_string(&file).unwrap())
            .iter()
            .map(|c| serde_json::to_string_pretty(c).unwrap())
            .collect();
        let text = format!("[{}\n]", chunks.join("\n,\r\n"));
        for size in [1, 7, 64, text.len()] {
            let pieces: Vec<&[u8]> = text.as_bytes().chunks(size).collect();
            let acc = run(protocol, &pieces, &name);
            check_end(
                &acc,
                protocol,
                &final_body,
                &format!("{name} as a JSON array, pieces of {size}"),
            );
        }
        checked += 1;
    }
    assert!(checked >= 8, "{checked}");
}

#[test]
fn anthropic_streams_through_bedrock_invoke_model_end_as_their_final_bodies() {
    // InvokeModelWithResponseStream: AWS event-stream frames named `chunk`, each payload
    // `{bytes: <base64 of one Anthropic event>, p: <padding>}`; and the same chunks as the
    // objects AWS clients give (`{chunk: {bytes}}`).
    let mut checked = 0;
    for (protocol, file, name, final_body) in with_final_bodies() {
        if protocol != WireProtocol::AnthropicMessages {
            continue;
        }
        let events = data_values(&std::fs::read_to_string(&file).unwrap());
        let mut bytes = Vec::new();
        for event in &events {
            let payload = serde_json::json!({"bytes": base64(event.to_string().as_bytes()), "p": "abcdefghij"});
            bytes.extend(frame("chunk", &payload.to_string()));
        }
        for size in [1, 9, 64, bytes.len()] {
            let pieces: Vec<&[u8]> = bytes.chunks(size).collect();
            let acc = run(protocol, &pieces, &name);
            check_end(
                &acc,
                protocol,
                &final_body,
                &format!("{name} through InvokeModel frames, pieces of {size}"),
            );
        }
        let mut acc = StreamAccumulator::new(protocol);
        for event in &events {
            let chunk =
                serde_json::json!({"chunk": {"bytes": base64(event.to_string().as_bytes())}});
            acc.push(Chunk::Event(serde_json::from_value(chunk).unwrap()));
        }
        check_end(
            &acc,
            protocol,
            &final_body,
            &format!("{name} as chunk objects"),
        );
        checked += 1;
    }
    assert!(checked >= 8, "{checked}");
    // An exception frame of that stream (no JSON `error` of its own: its type is the frame's name).
    let mut acc = StreamAccumulator::new(WireProtocol::AnthropicMessages);
    let mut bytes = frame(
        "chunk",
        &format!(
            "{{\"bytes\":\"{}\"}}",
            base64(
                br#"{"type":"message_start","message":{"id":"m","role":"assistant","content":[]}}"#
            )
        ),
    );
    bytes.extend(frame(
        "throttlingException",
        r#"{"message":"Too many requests, please wait before trying again."}"#,
    ));
    bytes.extend(frame("chunk", r#"{"bytes":"not base64!"}"#));
    acc.push(Chunk::Bytes(&bytes));
    let records = json(&acc.records());
    assert_eq!(records.as_array().unwrap().len(), 2, "{records}");
    assert_eq!(
        records[0]["content"]["text"],
        "throttlingException: Too many requests, please wait before trying again."
    );
    assert_eq!(
        records[1]["content"]["text"],
        "A chunk's bytes are not base64 UTF-8 text."
    );
    assert!(acc.done());
}

#[test]
fn a_stream_in_no_framing_it_reads_is_one_error_record_never_silence() {
    for protocol in WireProtocol::ALL.into_iter().filter(|p| has_stream(*p)) {
        let text = "\n<!DOCTYPE html><html><body>502 Bad Gateway</body></html>\n\ndata: {}\n\n";
        for size in [1, text.len()] {
            let pieces: Vec<&[u8]> = text.as_bytes().chunks(size).collect();
            let acc = run(protocol, &pieces, "html");
            let records = json(&acc.records());
            assert_eq!(
                records.as_array().unwrap().len(),
                1,
                "{protocol:?}: {records}"
            );
            let said = records[0]["content"]["text"].as_str().unwrap();
            // The message names the transports the format's streams come in.
            assert!(
                said.starts_with("The stream is not ") && said.contains(" (it begins with \"<"),
                "{said}"
            );
            assert!(acc.done());
        }
    }
}

#[test]
fn an_ollama_error_line_is_an_error_record_and_the_answer_is_not_complete() {
    // Ollama's documented mid-stream error (docs/api/errors.mdx): the status stays 200 and a line
    // `{"error": "..."}` follows the text, cut anywhere, even inside a character.
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/streams/ollama/error-mid-text.ndjson");
    let bytes = std::fs::read(file).unwrap();
    for size in [1, 2, 5, bytes.len()] {
        let pieces: Vec<&[u8]> = bytes.chunks(size).collect();
        let acc = run(WireProtocol::Ollama, &pieces, "error-mid-text");
        let records = json(&acc.records());
        let types = types_of(&records);
        assert_eq!(types, ["text", "error"], "{records}");
        assert_eq!(records[0]["content"]["text"], " Yes.Ican");
        assert_eq!(
            records[1]["content"]["text"],
            "error: an error was encountered while running the model"
        );
        assert_eq!(records[1]["content"]["path"], "$.events[4]");
        assert_cut_short(&acc, "");
    }
}

#[test]
fn an_ollama_stream_streams_its_texts_and_takes_its_calls_whole() {
    // While the thinking and the text stream, their records say so and grow by `append`s; a call
    // arrives whole and is pending until its result; the last line ends the message.
    let lines = [
        r#"{"model":"qwen3","created_at":"t0","message":{"role":"assistant","content":"","thinking":"Two "},"done":false}"#,
        r#"{"model":"qwen3","created_at":"t1","message":{"role":"assistant","content":"","thinking":"cities."},"done":false}"#,
        r#"{"model":"qwen3","created_at":"t2","message":{"role":"assistant","content":"Chec"},"done":false}"#,
        r#"{"model":"qwen3","created_at":"t3","message":{"role":"assistant","content":"king."},"done":false}"#,
        r#"{"model":"qwen3","created_at":"t4","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"get_weather","arguments":{"city":"Paris"}}}]},"done":false}"#,
        r#"{"model":"qwen3","created_at":"t5","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}"#,
    ];
    let mut acc = StreamAccumulator::new(WireProtocol::Ollama);
    let mut patches = Vec::new();
    for line in &lines[..4] {
        patches.extend(acc.push(Chunk::Bytes(format!("{line}\n").as_bytes())));
    }
    let records = json(&acc.records());
    assert_eq!(records[0]["content"]["text"], "Two cities.");
    assert_eq!(records[0]["metadata"]["streaming"], true);
    assert_eq!(records[1]["content"]["text"], "Checking.");
    assert!(patches
        .iter()
        .any(|p| matches!(p, Patch::Append { text, .. } if text == "king.")));
    acc.push(Chunk::Bytes(format!("{}\n", lines[4]).as_bytes()));
    let records = json(&acc.records());
    assert_eq!(records[2]["content_type"], "tool_call");
    assert_eq!(records[2]["content"]["arguments"]["city"], "Paris");
    assert!(!acc.done());
    // The last line without its newline: the value closes, so it is read.
    acc.push(Chunk::Bytes(lines[5].as_bytes()));
    assert!(acc.done());
    let records = json(&acc.records());
    assert!(records
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["metadata"].get("streaming").is_none()));
    assert_eq!(records[2]["content"]["call_id"], "synthetic-1");
    let message = json(&acc.message().unwrap());
    assert_eq!(message["metadata"]["stop_reason"], "stop");
    assert_eq!(message["metadata"]["wire_protocol"], "ollama");
}

#[test]
fn a_stream_in_a_framing_its_format_does_not_name_is_an_error_record() {
    // Ollama's stream is NDJSON (or SSE from a proxy): AWS frames and a JSON array are not its
    // framings, and say so; an error body pushed as text is read in every format.
    for text in [
        "[{\"message\":{\"role\":\"assistant\",\"content\":\"x\"}}]",
        "\u{0}\u{0}\u{0}\u{10}",
    ] {
        let acc = run(WireProtocol::Ollama, &[text.as_bytes()], "framing");
        let records = json(&acc.records());
        assert_eq!(records.as_array().unwrap().len(), 1, "{records}");
        let said = records[0]["content"]["text"].as_str().unwrap();
        assert!(
            said.starts_with("The stream is not NDJSON or server-sent events (it begins with "),
            "{said}"
        );
    }
    let acc = run(
        WireProtocol::Ollama,
        &[b"data: {\"message\":{\"role\":\"assistant\",\"content\":\"via a proxy\"},\"done\":true}\n\n"],
        "sse",
    );
    assert_eq!(json(&acc.records())[0]["content"]["text"], "via a proxy");
    let acc = run(
        WireProtocol::OpenaiCompletions,
        &[b"[{\"choices\":[]}]"],
        "array",
    );
    let said = json(&acc.records())[0]["content"]["text"].clone();
    assert_eq!(
        said,
        "The stream is not server-sent events or JSON (it begins with \"[{\\\"choices\\\":[]}]\")."
    );
}
