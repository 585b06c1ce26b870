//! Native tests of Transcript: the cases of tests/fixtures/transcript.json (expected records from
//! the viewer's own reading of the same input, texts from toText), and every toDisplayMessages
//! fixture conversation loaded as JSON text, which must give exactly toDisplayMessages' records
//! and toText's texts.
#![cfg(not(target_arch = "wasm32"))]

use chat_display::json::doc::RustEngine;
use chat_display::text::to_text;
use chat_display::to_display_messages;
use chat_display::transcript::{Counts, Transcript};
use serde_json::{json, Value};

mod common;
use common::*;

type T = Transcript<RustEngine>;

fn records(t: &T) -> Value {
    serde_json::to_value(t.records(0, t.len())).unwrap()
}

/// `counts()` as the element counted before it existed: over the records themselves, `sequence`
/// 0 and the loader's error records (`content_type` error, `message_type` null, a string `path`).
fn tallied(t: &T) -> Counts {
    let records = records(t);
    let records = records.as_array().unwrap();
    Counts {
        messages: records.iter().filter(|r| r["sequence"] == json!(0)).count(),
        errors: records
            .iter()
            .filter(|r| {
                r["content_type"] == "error"
                    && r["message_type"].is_null()
                    && r["content"]["path"].is_string()
            })
            .count(),
    }
}

fn texts(t: &T) -> Value {
    json!((0..t.len()).map(|i| t.to_text(i)).collect::<Vec<_>>())
}

#[test]
fn transcript_fixtures() {
    let all = cases(include_str!("fixtures/transcript.json"));
    assert!(all.len() >= 10);
    for case in &all {
        let name = &case["name"];
        let text = case["text"].as_str().unwrap().to_string();
        let loaded = T::from_json(text);
        if let Some(error) = case.get("error") {
            let e = loaded
                .err()
                .unwrap_or_else(|| panic!("{name}: expected an error"));
            assert_eq!(
                json!({"code": e.code.as_str(), "path": e.path}),
                *error,
                "{name}"
            );
            assert!(e.message.contains(&e.path), "{name}: {}", e.message);
            continue;
        }
        let mut t = loaded.unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(records(&t), case["records"], "{name}");
        assert_eq!(t.counts(), tallied(&t), "{name}: counts");
        assert_eq!(texts(&t), case["texts"], "{name}");
        assert_eq!(t.to_text(t.len()), None, "{name}: past the end");
        for search in case["searches"].as_array().unwrap() {
            let limit = search
                .get("limit")
                .and_then(Value::as_u64)
                .map(|l| l as usize);
            let found = t.search(search["query"].as_str().unwrap(), limit);
            assert_eq!(json!(found), search["indices"], "{name}: {search}");
        }
        if let Some(append) = case.get("append") {
            for message in append.as_array().unwrap() {
                t.append(message.to_string()).unwrap();
            }
            assert_eq!(records(&t), case["after"], "{name}: after appending");
        }
    }
}

#[test]
fn windows_are_slices_of_the_whole() {
    let all = cases(include_str!("fixtures/transcript.json"));
    let t = T::from_json(all[0]["text"].as_str().unwrap().to_string()).unwrap();
    let whole = records(&t);
    let n = t.len();
    for start in 0..=n + 1 {
        for end in 0..=n + 2 {
            let expected: Vec<Value> = whole
                .as_array()
                .unwrap()
                .iter()
                .skip(start)
                .take(end.saturating_sub(start))
                .cloned()
                .collect();
            assert_eq!(
                serde_json::to_value(t.records(start, end)).unwrap(),
                json!(expected)
            );
        }
    }
}

#[test]
fn a_bad_appended_message_is_an_error_and_changes_nothing() {
    let mut t = T::from_json(r#"[{"role": "user", "content": "hi"}]"#.to_string()).unwrap();
    let e = t.append(r#"{"role": "robot"}"#.to_string()).unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.path.as_str()),
        ("unsupported_role", "$.message.role")
    );
    let e = t
        .append(r#"{"role": "user", "content": 5}"#.to_string())
        .unwrap_err();
    assert_eq!(e.path, "$.message.content");
    assert_eq!(t.len(), 1);
}

#[test]
fn every_display_fixture_conversation_loads_as_to_display_messages_gives_it() {
    let mut checked = 0;
    for file in [
        include_str!("fixtures/to_display_messages.json"),
        include_str!("fixtures/sycophant_display_messages.json"),
    ] {
        for case in cases(file) {
            let messages = &case["messages"];
            if case.get("error").is_some() || !messages.is_array() {
                continue;
            }
            let expected =
                serde_json::to_value(to_display_messages(&messages, None).unwrap()).unwrap();
            let t = T::from_json(messages.to_string()).unwrap();
            assert_eq!(records(&t), expected, "{}", case["name"]);
            assert_eq!(t.counts(), tallied(&t), "{}: counts", case["name"]);
            let expected_texts: Vec<Value> = expected
                .as_array()
                .unwrap()
                .iter()
                .map(|r| serde_json::to_value(to_text(&r)).unwrap())
                .collect();
            assert_eq!(texts(&t), json!(expected_texts), "{}", case["name"]);
            checked += 1;
        }
    }
    assert!(checked >= 5, "{checked}");
}

#[test]
fn calls_sharing_one_id_are_each_settled_by_the_first_later_result() {
    // Ids repeat (providers without ids, converters that number calls per turn): many calls of
    // one id, each answered some messages later, some answered in their own message too (which
    // does not count), some results of two statuses in one message, and a last call unanswered.
    let mut messages = Vec::new();
    for i in 0..200 {
        let mut call = json!({"role": "assistant", "content": "", "tool_calls": [
            {"call_id": "same", "name": "f", "arguments": {}}
        ]});
        if i % 7 == 0 {
            call["tool_results"] = json!([{"tool_call_id": "same", "name": "f", "content": "own"}]);
        }
        messages.push(call);
        if i % 3 != 2 {
            let mut results = vec![json!({"tool_call_id": "same", "name": "f", "content": "ok",
                "is_error": i % 5 == 0})];
            if i % 4 == 0 {
                results.push(
                    json!({"tool_call_id": "same", "name": "f", "content": "late",
                    "is_interrupt": true}),
                );
            }
            messages.push(json!({"role": "tool", "tool_results": results}));
        }
    }
    messages.push(json!({"role": "assistant", "content": "", "tool_calls": [
        {"call_id": "same", "name": "f", "arguments": {}}
    ]}));
    let messages = Value::Array(messages);
    let expected = serde_json::to_value(to_display_messages(&&messages, None).unwrap()).unwrap();
    let t = T::from_json(messages.to_string()).unwrap();
    assert_eq!(records(&t), expected);
    let statuses: Vec<&str> = expected
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["content_type"] == "tool_call")
        .map(|r| r["status"].as_str().unwrap())
        .collect();
    // Every status occurs, and the last call is pending.
    for status in ["completed", "failed", "pending"] {
        assert!(statuses.contains(&status), "{status}: {statuses:?}");
    }
    assert_eq!(statuses.last(), Some(&"pending"));
}

#[test]
fn deeply_nested_text_loads_and_fails_only_where_it_must() {
    // 100,000-deep arguments: parsed without recursion, passed through, shown as `...` past 128.
    let deep = "[".repeat(100_000) + &"]".repeat(100_000);
    let text = format!(
        r#"[{{"role": "assistant", "tool_calls": [{{"call_id": "d", "name": "deep", "arguments": {deep}}}]}}]"#
    );
    let t = T::from_json(text).unwrap();
    assert_eq!(t.len(), 1);
    let shown = t.to_text(0).unwrap();
    assert!(
        shown.starts_with("Tool call: deep([[[") && shown.contains("..."),
        "{}",
        &shown[..60]
    );
    let deep_object = "{\"a\":".repeat(100_000) + "1" + &"}".repeat(100_000);
    assert!(T::from_json(deep_object).is_err());
}

/// Every fixture file, and every array or object in it down to four levels, as a Transcript's
/// input: the search text of each record it loads (`Transcript::to_text`, which builds the text of
/// a message's records from its display items) is `to_text` of that record.
#[test]
fn every_record_of_every_fixture_has_the_search_text_to_text_gives_it() {
    fn inputs(value: &Value, depth: usize, out: &mut Vec<String>) {
        if value.is_array() || value.is_object() {
            out.push(value.to_string());
        }
        if depth == 4 {
            return;
        }
        match value {
            Value::Array(items) => items.iter().for_each(|v| inputs(v, depth + 1, out)),
            Value::Object(entries) => entries.values().for_each(|v| inputs(v, depth + 1, out)),
            _ => {}
        }
    }
    fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                files(&path, out);
            } else {
                out.push(path);
            }
        }
    }
    let mut paths = Vec::new();
    files(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"),
        &mut paths,
    );
    let (mut loaded, mut checked, mut kinds) = (0, 0, std::collections::BTreeSet::new());
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap();
        let mut texts = vec![text.clone()];
        if let Ok(value) = serde_json::from_str::<Value>(&text) {
            inputs(&value, 0, &mut texts);
        }
        for text in texts {
            let Ok(t) = T::from_json(text) else { continue };
            loaded += 1;
            for i in 0..t.len() {
                let record = serde_json::to_value(&t.records(i, i + 1)[0]).unwrap();
                let expected = to_text(&&record).as_string();
                assert_eq!(
                    t.to_text(i),
                    expected,
                    "{}: record {i}: {record}",
                    path.display()
                );
                kinds.insert(record["content_type"].to_string());
                checked += 1;
            }
        }
    }
    assert!(
        loaded > 1000 && checked > 3000,
        "{loaded} inputs, {checked} records"
    );
    // Records of the four kinds of display items, and error records.
    for kind in [
        "\"text\"",
        "\"thinking\"",
        "\"tool_call\"",
        "\"tool_result\"",
        "\"error\"",
    ] {
        assert!(kinds.contains(kind), "{kind} among {kinds:?}");
    }
}

/// Reading a conversation a slice at a time (`open`, then `read(k)`) ends with the records
/// `from_json` gives, and each read names exactly the records shown before it whose status it
/// changed.
#[test]
fn reading_in_slices_gives_the_whole_and_names_what_it_settled() {
    let mut inputs: Vec<(String, String)> = Vec::new();
    for case in cases(include_str!("fixtures/transcript.json")) {
        if case.get("error").is_none() {
            inputs.push((
                case["name"].to_string(),
                case["text"].as_str().unwrap().into(),
            ));
        }
    }
    for file in [
        include_str!("fixtures/to_display_messages.json"),
        include_str!("fixtures/sycophant_display_messages.json"),
    ] {
        for case in cases(file) {
            if case.get("error").is_none() && case["messages"].is_array() {
                inputs.push((case["name"].to_string(), case["messages"].to_string()));
            }
        }
    }
    let mut settled_somewhere = 0;
    let mut parsed_in_part = 0;
    for (name, text) in &inputs {
        let whole = records(&T::from_json(text.clone()).unwrap());
        // A top-level array is parsed as it is read: the text is parsed no further than the
        // elements read, and each read that is not the last stops short of its end.
        let array = text.trim_start().starts_with('[');
        for k in [1, 2, 3, 5] {
            let mut t = T::open(text.clone()).unwrap();
            assert_eq!(t.len(), 0, "{name}: nothing read at open");
            if array {
                assert!(
                    t.parsed_to().unwrap() <= 1,
                    "{name}: nothing parsed at open"
                );
            }
            loop {
                let before = records(&t);
                let read = t.read(k);
                assert_eq!(read.error, None, "{name}");
                if array && !read.done {
                    assert!(t.parsed_to().unwrap() < text.len(), "{name}");
                    parsed_in_part += 1;
                }
                let after = records(&t);
                let mut changed: Vec<u32> = (0..before.as_array().unwrap().len())
                    .filter(|&i| before[i]["status"] != after[i]["status"])
                    .map(|i| i as u32)
                    .collect();
                let mut settled = read.settled.clone();
                settled.sort_unstable();
                changed.sort_unstable();
                assert_eq!(settled, changed, "{name}, slices of {k}");
                settled_somewhere += settled.len();
                if read.done {
                    break;
                }
            }
            assert_eq!(records(&t), whole, "{name}, slices of {k}");
            assert!(t.read(k).done, "{name}: a read after the end");
        }
    }
    assert!(settled_somewhere > 10, "{settled_somewhere}");
    assert!(parsed_in_part > 50, "{parsed_in_part}");
}

/// The records of a conversation's elements read in slices of `k` until a read says done, and
/// the errors the reads gave (each read after an error must add nothing).
fn read_in_slices(text: &str, k: usize) -> (Value, Vec<String>) {
    let mut t = T::open(text.into()).unwrap();
    let mut errors = Vec::new();
    for _ in 0..=text.len() {
        let len = t.len();
        let read = t.read(k);
        if let Some(e) = read.error {
            assert!(read.done, "an error ends reading");
            assert!(
                read.settled.is_empty() && t.len() == len,
                "a read that errs reads nothing"
            );
            errors.push(e.message);
        }
        if read.done {
            break;
        }
    }
    let got = records(&t);
    // Later reads: done, no error, nothing added.
    let len = t.len();
    assert_eq!(
        t.read(k),
        chat_display::transcript::Read {
            done: true,
            ..Default::default()
        }
    );
    assert_eq!(t.len(), len);
    (got, errors)
}

/// Text that is JSON for its first elements and not after them: the reads give the records of
/// the elements before the break, then the error `from_json` gives the text (the same as before
/// parsing became lazy: "Expected JSON text at $: ... at byte N."), then done.
#[test]
fn text_broken_after_its_first_elements_gives_their_records_then_the_error() {
    // Calls answered two messages later, so that statuses settle across slices and across the
    // break.
    let mut elements = Vec::new();
    for i in 0..12 {
        elements.push(json!({"role": "assistant", "content": format!("step \"{i}\" é"), "tool_calls": [{"call_id": format!("c{i}"), "name": "f", "arguments": {"i": i, "deep": [[{}], []]}}]}).to_string());
        elements.push(json!({"role": "tool", "tool_results": [{"tool_call_id": format!("c{}", i.max(1) - 1), "name": "f", "content": "ok", "is_error": i % 3 == 0}]}).to_string());
    }
    let text = format!("[{}]", elements.join(",\n "));
    // The records of the first `n` elements alone.
    let first =
        |n: usize| records(&T::from_json(format!("[{}]", elements[..n].join(","))).unwrap());
    // Where each element's comma is: element i is complete once the text holds its comma.
    let mut commas = Vec::new();
    let mut at = 1;
    for e in &elements {
        at += e.len();
        commas.push(at);
        at += 3;
    }
    let complete = |cut: usize| {
        commas
            .iter()
            .filter(|&&c| c < cut)
            .count()
            .min(elements.len() - 1)
    };
    let mut cases: Vec<(String, usize, &str)> = Vec::new();
    // Truncated at several offsets: inside a string, a number, a key, between elements, right
    // after a comma, just before the closing bracket.
    for cut in [
        1,
        2,
        40,
        commas[2],
        commas[2] + 1,
        commas[2] + 2,
        commas[9] - 1,
        text.len() / 2,
        text.len() - 30,
        text.len() - 1,
    ] {
        cases.push((text[..cut].to_string(), complete(cut), ""));
    }
    // A bad token in the middle (element 7), and text after the end.
    let bad = elements[7]
        .replacen("false", "flase", 1)
        .replacen("true", "ture", 1);
    assert_ne!(bad, elements[7]);
    let mut broken = elements.clone();
    broken[7] = bad;
    cases.push((
        format!("[{}]", broken.join(",\n ")),
        7,
        "unexpected character",
    ));
    cases.push((
        format!("{text} x"),
        elements.len(),
        "unexpected text after the value",
    ));
    cases.push((
        format!("{text}\n]"),
        elements.len(),
        "unexpected text after the value",
    ));
    cases.push((
        format!("[{},\n 1 2]", elements[..4].join(",\n ")),
        4,
        "expected a comma or a closing bracket",
    ));
    for (broken, n, message) in &cases {
        let error = T::from_json(broken.clone())
            .err()
            .expect("not JSON")
            .message;
        assert!(
            error.starts_with("Expected JSON text at $: ") && error.ends_with('.'),
            "{error}"
        );
        assert!(error.contains(message), "{error}");
        let want = first(*n);
        for k in [1, 2, 3, 5, 100, usize::MAX] {
            let (got, errors) = read_in_slices(broken, k);
            assert_eq!(
                errors,
                std::slice::from_ref(&error),
                "{n} elements, slices of {k}"
            );
            assert_eq!(got, want, "{n} elements, slices of {k}: {error}");
        }
    }
    // The errors are those of a whole parse, at the offsets a whole parse stops at.
    let end = text.len();
    for (cut, want) in [
        (
            1,
            "Expected JSON text at $: unexpected end of text at byte 1.".to_string(),
        ),
        (
            commas[2] + 1,
            format!(
                "Expected JSON text at $: unexpected end of text at byte {}.",
                commas[2] + 1
            ),
        ),
        (
            end - 1,
            format!(
                "Expected JSON text at $: expected a comma or a closing bracket at byte {}.",
                end - 1
            ),
        ),
    ] {
        assert_eq!(
            T::from_json(text[..cut].to_string()).err().unwrap().message,
            want
        );
    }
    let garbage = format!("{text} x");
    assert_eq!(
        T::from_json(garbage).err().unwrap().message,
        format!(
            "Expected JSON text at $: unexpected text after the value at byte {}.",
            end + 1
        )
    );
    // The first elements of a broken text are read before the break is met.
    let broken = &cases.last().unwrap().0;
    let mut t = T::open(broken.clone()).unwrap();
    let read = t.read(2);
    assert_eq!((read.done, read.error), (false, None));
    assert_eq!(records(&t), first(2));
    // A top-level object is parsed whole in `open`: its error comes from there, as before.
    let object = format!("{{\"messages\": {text}}} x");
    assert_eq!(
        T::open(object).err().unwrap().message,
        format!(
            "Expected JSON text at $: unexpected text after the value at byte {}.",
            end + 15
        )
    );
}

/// Search, prepareSearch and append read the rest first: a syntax error met there ends reading
/// (the records before it stay) and is what the next read returns.
#[test]
fn a_syntax_error_met_by_search_is_returned_by_the_next_read() {
    let text = r#"[{"role": "user", "content": "one"}, {"role": "user", "content": "two"}, {"role": "user", "content": tw]"#;
    let want = T::from_json(text.into()).err().unwrap().message;
    for call in 0..3 {
        let mut t = T::open(text.into()).unwrap();
        assert!(t.read(1).error.is_none());
        match call {
            0 => assert_eq!(t.search("two", None), [1]),
            1 => assert!(t.prepare_search(usize::MAX)),
            _ => t
                .append(json!({"role": "user", "content": "three"}).to_string())
                .unwrap(),
        }
        let read = t.read(1);
        assert!(read.done);
        assert_eq!(
            read.error.map(|e| e.message),
            Some(want.clone()),
            "call {call}"
        );
        assert_eq!(
            t.read(1),
            chat_display::transcript::Read {
                done: true,
                ..Default::default()
            }
        );
        assert_eq!(t.len(), if call == 2 { 3 } else { 2 });
    }
}

/// A search, and an append, read what is not read yet first.
#[test]
fn search_and_append_read_the_rest_first() {
    let text = json!([
        {"role": "user", "content": "first"},
        {"role": "assistant", "content": "", "tool_calls": [{"call_id": "a", "name": "f", "arguments": {}}]},
        {"role": "tool", "tool_results": [{"tool_call_id": "a", "name": "f", "content": "later"}]},
    ])
    .to_string();
    let mut t = T::open(text.clone()).unwrap();
    t.read(1);
    assert_eq!(t.search("later", None), vec![2]);
    assert!(t.read(1).done);
    let mut t = T::open(text.clone()).unwrap();
    t.read(2);
    assert_eq!(records(&t)[1]["status"], "pending");
    t.append(json!({"role": "user", "content": "next"}).to_string())
        .unwrap();
    let mut messages: Vec<Value> = serde_json::from_str(&text).unwrap();
    messages.push(json!({"role": "user", "content": "next"}));
    let messages = Value::Array(messages);
    let want = to_display_messages(&&messages, None).unwrap();
    assert_eq!(records(&t), serde_json::to_value(want).unwrap());
}

#[test]
fn counts_are_those_of_the_records_given_made_and_put_in_place() {
    // Messages of several records, given records (sequence 0, 2 and "0"; an error record given as
    // a record, with a message type), elements that cannot be read, and a record that is invalid.
    let text = json!([
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": "Let me look.", "tool_calls": [{"call_id": "c1", "name": "f", "arguments": {}}]},
        {"role": "tool", "tool_results": [{"type": "tool_result", "tool_call_id": "c1", "content": "ok"}]},
        {"conversation_id": "c", "content_type": "text", "message_type": "assistant", "content": {"text": "given"}, "sequence": 0},
        {"conversation_id": "c", "content_type": "text", "message_type": "assistant", "content": {"text": "second"}, "sequence": 2},
        {"conversation_id": "c", "content_type": "text", "message_type": "assistant", "content": {"text": "cast"}, "sequence": "0"},
        {"conversation_id": "c", "content_type": "error", "message_type": "assistant", "content": {"text": "x", "path": "$"}, "sequence": 0},
        {"conversation_id": "c", "content_type": "text", "message_type": "assistant", "content": {"no": "text"}},
        42,
        {"role": "nobody"}
    ])
    .to_string();
    let t = T::from_json(text).unwrap();
    let counts = t.counts();
    assert_eq!(counts, tallied(&t));
    assert_eq!(
        counts.errors, 3,
        "the invalid record and the two elements that are not messages"
    );
    // User, assistant and tool messages' first records; the given ones of sequence 0 and "0",
    // and the error given as a record; the three in place of what could not be read.
    assert_eq!(counts.messages, 9, "{counts:?}");
}
