//! Native tests of the `langchain_js` format over the messages `@langchain/core` 1.4.0 made
//! (`tests/fixtures/langchain_js/`, written by `tests/tools/js-inputs.mjs`): each conversation,
//! serialized and stored, reads to the records LangChain's own view of the messages gives (the
//! `original` of its `read-back.json`: `contentBlocks`, `tool_calls`, `text`, `status`), and
//! `toProvider("langchain_js")` writes `content`, never `content_blocks` alone. The same shapes
//! are read through the packed package against the live library in `js/langchain_js.test.mjs`.
#![cfg(not(target_arch = "wasm32"))]

use chat_display::providers::{detect_protocol, from_provider, stream_protocol, to_provider};
use chat_display::to_display_messages;
use serde_json::{json, Value};

mod common;
use common::*;

fn fixture(name: &str) -> Value {
    let path = format!(
        "{}/tests/fixtures/langchain_js/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn s(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The records as lines: `<type> text: …`, `<type> tool_call <status> <id> <name>(<args>)`,
/// `tool tool_result <id> <name>[ error]: <content>` (a server tool's result without its content,
/// which LangChain's translation shortens).
fn lines(records: &Value) -> Vec<String> {
    records
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let mt = s(&r["message_type"]);
            let c = &r["content"];
            match r["content_type"].as_str().unwrap() {
                "tool_call" => format!(
                    "{mt} tool_call {} {} {}({})",
                    s(&r["status"]),
                    s(&c["call_id"]),
                    s(&c["name"]),
                    sorted(&c["arguments"])
                ),
                "tool_result" => format!(
                    "tool tool_result {} {}{}: {}",
                    s(&c["tool_call_id"]),
                    s(&c["name"]),
                    if c["is_error"] == json!(true) {
                        " error"
                    } else {
                        ""
                    },
                    if c["tool_call_id"]
                        .as_str()
                        .is_some_and(|id| id.starts_with("srvtoolu"))
                    {
                        String::new()
                    } else {
                        s(&c["content"])
                    }
                ),
                ct => format!("{mt} {ct}: {}", s(&c["text"])),
            }
        })
        .collect()
}

/// The lines LangChain's own view of the messages gives: per message its `contentBlocks` (text,
/// reasoning; tool calls after the content, `tool_calls` first, then server tool calls, then the
/// `invalid_tool_calls` of `kwargs`), its tool result (`text`, `status`); a call's status from
/// the ToolMessage answering it.
fn expected(originals: &[Value], kwargs: &[Value]) -> Vec<String> {
    let status_of = |id: &Value| {
        for o in originals {
            if o["type"] == "tool" && o["tool_call_id"] == *id {
                return if o["status"] == "error" {
                    "failed"
                } else {
                    "completed"
                };
            }
            for b in o["contentBlocks"].as_array().into_iter().flatten() {
                if b["type"] == "server_tool_call_result" && b["toolCallId"] == *id {
                    return "completed";
                }
            }
        }
        "pending"
    };
    let mut out = Vec::new();
    for (o, k) in originals.iter().zip(kwargs) {
        let blocks = o["contentBlocks"].as_array().cloned().unwrap_or_default();
        match o["type"].as_str().unwrap() {
            "tool" => out.push(format!(
                "tool tool_result {} {}{}: {}",
                s(&o["tool_call_id"]),
                // A ToolMessage without a name takes its call's.
                s(originals
                    .iter()
                    .flat_map(|m| m["tool_calls"].as_array().into_iter().flatten())
                    .find(|c| c["id"] == o["tool_call_id"] && o["name"].is_null())
                    .map_or(&o["name"], |c| &c["name"])),
                if o["status"] == "error" { " error" } else { "" },
                s(&o["text"])
            )),
            ty => {
                let mt = match ty {
                    "human" => "user",
                    "ai" => "assistant",
                    other => other,
                };
                for b in &blocks {
                    match b["type"].as_str() {
                        Some("text") if b["text"] != "" => {
                            out.push(format!("{mt} text: {}", s(&b["text"])))
                        }
                        Some("reasoning") => {
                            out.push(format!("{mt} thinking: {}", s(&b["reasoning"])))
                        }
                        _ => {}
                    }
                }
                let call = |c: &Value, args: &Value| {
                    format!(
                        "{mt} tool_call {} {} {}({})",
                        status_of(&c["id"]),
                        s(&c["id"]),
                        s(&c["name"]),
                        sorted(args)
                    )
                };
                for c in o["tool_calls"].as_array().into_iter().flatten() {
                    out.push(call(c, &c["args"]));
                }
                let server: Vec<&Value> = blocks
                    .iter()
                    .filter(|b| b["type"] == "server_tool_call")
                    .collect();
                for c in &server {
                    out.push(call(c, &c["args"]));
                }
                // An invalid call (its args did not parse) never runs: failed.
                for c in k["invalid_tool_calls"].as_array().into_iter().flatten() {
                    out.push(call(c, &c["args"]).replacen(" pending ", " failed ", 1));
                }
                for b in blocks
                    .iter()
                    .filter(|b| b["type"] == "server_tool_call_result")
                {
                    let name = server
                        .iter()
                        .find(|c| c["id"] == b["toolCallId"])
                        .map(|c| s(&c["name"]));
                    let error = if b["status"] == "error" { " error" } else { "" };
                    out.push(format!(
                        "tool tool_result {} {}{error}: ",
                        s(&b["toolCallId"]),
                        name.unwrap_or_default()
                    ));
                }
            }
        }
    }
    out
}

fn read(payload: &Value) -> Value {
    let protocol = json!("langchain_js");
    let messages = from_provider(&&protocol, &payload).unwrap_or_else(|e| panic!("{}", e.message));
    serde_json::to_value(messages).unwrap()
}

fn records(messages: &Value) -> Value {
    serde_json::to_value(to_display_messages(&messages, None).unwrap()).unwrap()
}

#[test]
fn serialized_and_stored_conversations_read_as_langchain_itself_sees_them() {
    for name in ["weather", "content-blocks"] {
        let originals = fixture(&format!("{name}.read-back.json"))["original"]
            .as_array()
            .unwrap()
            .clone();
        let serialized = fixture(&format!("{name}.serialized.json"))["messages"].clone();
        let stored = fixture(&format!("{name}.stored.json"))["messages"].clone();
        let kwargs: Vec<Value> = serialized
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["kwargs"].clone())
            .collect();
        let want = expected(&originals, &kwargs);
        assert!(want.len() >= 8, "{name}: {want:?}");
        for (form, payload) in [("serialized", &serialized), ("stored", &stored)] {
            assert_eq!(
                detect_protocol(&payload).map(|p| p.as_str()),
                Some("langchain_js"),
                "{name}.{form}"
            );
            let got = lines(&records(&read(payload)));
            assert_eq!(got, want, "{name}.{form}");
        }
    }
}

#[test]
fn citations_of_v1_annotations_anthropic_and_openai_blocks_ride_on_their_text_part() {
    let messages = read(&fixture("content-blocks.serialized.json")["messages"]);
    let cited: Vec<&Value> = messages
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["content"].as_array().into_iter().flatten())
        .filter(|p| p.get("citations").is_some())
        .collect();
    assert_eq!(cited.len(), 3, "{cited:?}");
    for part in &cited {
        for c in part["citations"].as_array().unwrap() {
            let keys: Vec<&String> = c.as_object().unwrap().keys().collect();
            assert_eq!(
                keys, CITATION_FIELDS,
                "exactly Sycophant's Citation fields, in its order"
            );
        }
    }
    // A v1 `citation` with a URL, Anthropic's page_location, OpenAI's url_citation.
    assert_eq!(
        cited[0]["citations"][0]["cited_text"],
        "revenue grew by 12%"
    );
    assert_eq!(
        cited[0]["citations"][0]["url"],
        "https://example.com/report.pdf"
    );
    assert_eq!(
        (
            cited[0]["citations"][0]["start_index"].clone(),
            cited[0]["citations"][0]["end_index"].clone()
        ),
        (json!(0), json!(20))
    );
    assert_eq!(cited[1]["citations"][0]["type"], "page_location");
    assert_eq!(cited[1]["citations"][0]["document_title"], "Report");
    assert_eq!(cited[1]["citations"][0]["unit"], "page");
    assert_eq!(cited[1]["citations"][0]["start_index"], 3);
    // OpenAI's url_citation reads as the Responses format reads it: Sycophant has no type for it.
    assert_eq!(cited[2]["citations"][0]["type"], json!(null));
    assert_eq!(cited[2]["citations"][0]["unit"], "char");
    assert_eq!(cited[2]["citations"][0]["title"], "Paris weather");
    // A text without annotations has no citations key at all.
    assert!(messages[0]["content"][0].get("citations").is_none());
}

#[test]
fn the_content_blocks_trap_reads_from_content_blocks_and_writes_content() {
    let trap = fixture("content-blocks-trap.json");
    for form in ["serialized", "stored"] {
        let payload = &trap[form];
        let got = lines(&records(&read(payload)));
        assert_eq!(
            got,
            [
                "assistant text: Made with contentBlocks.",
                "assistant tool_call pending call_t noop({})"
            ],
            "{form}"
        );
        let protocol = json!("langchain_js");
        let messages = read(payload);
        let written = serde_json::to_value(to_provider(&&protocol, &&messages).unwrap()).unwrap();
        let data = &written[0]["data"];
        assert_eq!(
            data["content"], "Made with contentBlocks.",
            "{form}: {written}"
        );
        assert!(data.get("content_blocks").is_none());
        assert_eq!(data["tool_calls"][0]["id"], "call_t");
        // What LangChain's mapStoredMessagesToChatMessages reads back of the trap: content [].
        assert_eq!(
            trap["stored_read_back"]["content"],
            json!([]),
            "the trap is real"
        );
    }
}

#[test]
fn plain_messages_and_chunks_read_like_their_classes() {
    let plain = fixture("plain.json");
    let got = lines(&records(&read(&plain["messages"])));
    assert_eq!(got.len(), 6, "{got:?}");
    assert!(got.contains(
        &"assistant tool_call completed call_paris get_weather({\"city\":\"Paris\"})".to_string()
    ));
    // Every plain input LangChain coerced to a message, and its toJSON(), reads to the texts and
    // calls LangChain made of it; the ones it rejected give messages or an error, never a panic.
    let protocol = json!("langchain_js");
    let mut accepted = 0;
    for case in plain["coerced"].as_array().unwrap() {
        if case["accepted"] != true {
            let _ = from_provider(&&protocol, &&json!([case["input"]]));
            continue;
        }
        accepted += 1;
        let result = &case["result"];
        let mut want: Vec<String> = result["contentBlocks"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|b| b["type"] == "text" && b["text"] != "")
            .map(|b| s(&b["text"]))
            .collect();
        if result["type"] == "tool" {
            want = vec![s(&result["text"])];
        }
        let want_calls: Vec<String> = result["tool_calls"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| format!("{} {}", s(&c["id"]), sorted(&c["args"])))
            .collect();
        for input in [&case["input"], &case["serialized"]] {
            let records = records(&read(&json!([input])));
            let texts: Vec<String> = records
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|r| match r["content_type"].as_str() {
                    Some("text") => Some(s(&r["content"]["text"])),
                    Some("tool_result") => Some(s(&r["content"]["content"])),
                    _ => None,
                })
                .collect();
            let calls: Vec<String> = records
                .as_array()
                .unwrap()
                .iter()
                .filter(|r| r["content_type"] == "tool_call")
                .map(|r| {
                    format!(
                        "{} {}",
                        s(&r["content"]["call_id"]),
                        sorted(&r["content"]["arguments"])
                    )
                })
                .collect();
            assert_eq!((&texts, &calls), (&want, &want_calls), "{input}");
        }
    }
    assert!(accepted >= 12, "{accepted} accepted inputs");
    let chunks = fixture("chunks.serialized.json");
    let got = lines(&records(&read(&chunks["concat"])));
    assert_eq!(
        got,
        [
            "assistant text: The chart shows growth.",
            "assistant tool_call pending call_zoom zoom({\"factor\":2})"
        ]
    );
}

#[test]
fn stream_accumulator_refuses_langchain_js_with_the_call_to_make() {
    let e = stream_protocol(&&json!("langchain_js")).unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.path.as_str()),
        ("unsupported_protocol", "$.protocol")
    );
    assert!(
        e.message
            .contains("fromProvider(\"langchain_js\", messages)"),
        "{}",
        e.message
    );
    assert!(stream_protocol(&&json!("anthropic_messages")).is_ok());
}

#[test]
fn a_message_of_another_format_names_it_and_the_call_that_reads_it() {
    // The cases of issue 33 item 4 in the display fixtures: each name ends with the protocol.
    let path = format!(
        "{}/tests/fixtures/to_display_messages.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let cases: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut seen = 0;
    for case in cases
        .iter()
        .filter(|c| s(&c["rule"]).starts_with("issue 33 item 4"))
    {
        seen += 1;
        let name = s(&case["name"]);
        let protocol = name.rsplit(' ').next().unwrap();
        let e = to_display_messages(&&case["messages"], None).unwrap_err();
        assert_eq!(e.code.as_str(), "invalid_input", "{name}");
        let call = format!("fromProvider(\"{protocol}\", messages)");
        assert!(e.message.contains(&call), "{name}: {}", e.message);
        assert!(e.message.contains(&e.path), "{name}: {}", e.message);
        // And fromProvider with that protocol reads it (ai_sdk_ui is another branch's reader).
        if protocol != "ai_sdk_ui" {
            let p = json!(protocol);
            let read = from_provider(&&p, &&case["messages"]);
            assert!(read.is_ok(), "{name}: {:?}", read.err());
        }
    }
    assert_eq!(seen, 7);
}

#[test]
fn tuples_detect_as_langchain_js_alone_or_among_message_objects() {
    let plain = fixture("plain.json");
    let tuples: Vec<Value> = plain["coerced"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["input"].is_array() && c["accepted"] == true)
        .map(|c| c["input"].clone())
        .collect();
    assert_eq!(tuples.len(), 2, "{tuples:?}");
    let detected = |v: Value| detect_protocol(&&v).map(|p| p.as_str());
    assert_eq!(detected(json!(tuples)), Some("langchain_js"));
    let mixed = json!([{"role": "user", "content": "hi"}, tuples[1]]);
    assert_eq!(detected(mixed), Some("langchain_js"));
    // Not a message type, or not a pair: no format.
    assert_eq!(detected(json!([["bogus", "x"]])), None);
    assert_eq!(detected(json!([["human", "x", "y"]])), None);
    assert_eq!(detected(json!([["human"]])), None);
}
