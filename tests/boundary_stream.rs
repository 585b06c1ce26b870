//! StreamAccumulator in a real headless browser: recorded streams pushed as strings cut inside
//! surrogate pairs and as bytes, compared as `JSON.stringify` text with fromProvider and
//! toDisplayMessages of their final bodies.
#![cfg(target_arch = "wasm32")]

use chat_display::wasm::{from_provider, to_display_messages, StreamAccumulator};
use js_sys::{Array, Reflect, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn text(value: &JsValue) -> String {
    JSON::stringify(value)
        .expect("stringify")
        .as_string()
        .unwrap_or_default()
}

/// One stream per format that streams (tests/registry.rs fails when one is missing).
const CASES: [(&str, &str, &str); 7] = [
    (
        "anthropic_messages",
        include_str!("fixtures/streams/anthropic_messages/long-text-nested-args.sse"),
        include_str!("fixtures/streams/anthropic_messages/long-text-nested-args.final.json"),
    ),
    (
        "openai_completions",
        include_str!("fixtures/streams/openai_completions/parallel-tool-calls.sse"),
        include_str!("fixtures/streams/openai_completions/parallel-tool-calls.final.json"),
    ),
    (
        "openai_responses",
        include_str!("fixtures/streams/openai_responses/reasoning-summary-then-text.sse"),
        include_str!("fixtures/streams/openai_responses/reasoning-summary-then-text.final.json"),
    ),
    (
        "bedrock_converse",
        include_str!("fixtures/streams/bedrock_converse/reasoning-then-text.sse"),
        include_str!("fixtures/streams/bedrock_converse/reasoning-then-text.final.json"),
    ),
    (
        "google_gemini",
        include_str!("fixtures/streams/google_gemini/vertex-quirks-partial-args.sse"),
        include_str!("fixtures/streams/google_gemini/vertex-quirks-partial-args.final.json"),
    ),
    (
        "ai_sdk_ui",
        include_str!("fixtures/streams/ai_sdk_ui/anthropic-parallel-tools.sse"),
        include_str!("fixtures/streams/ai_sdk_ui/anthropic-parallel-tools.final.json"),
    ),
    (
        "ollama",
        include_str!("fixtures/streams/ollama/long-text-nested-args.ndjson"),
        include_str!("fixtures/streams/ollama/long-text-nested-args.final.json"),
    ),
];

#[wasm_bindgen_test]
fn recorded_streams_end_as_their_final_bodies() {
    for (protocol, sse, final_body) in CASES {
        let final_body = JSON::parse(final_body).expect("final body");
        let messages = from_provider(protocol.into(), final_body).expect("fromProvider");
        let want_records =
            to_display_messages(messages.clone(), JsValue::UNDEFINED).expect("records");
        let want_message = Reflect::get(&messages, &0.into()).expect("first");
        let whole: Vec<JsValue> = vec![sse.into()];
        // UTF-16 pieces of 3 units: some end between the halves of a surrogate pair.
        let units: Vec<u16> = sse.encode_utf16().collect();
        let pieces: Vec<JsValue> = units
            .chunks(3)
            .map(|c| js_sys::JsString::from_char_code(c).into())
            .collect();
        for chunks in [whole, pieces] {
            let mut acc = StreamAccumulator::new(protocol.into()).expect("new");
            let mirror = Array::new();
            for chunk in chunks {
                let patches = acc.push(chunk).expect("push");
                for patch in Array::from(&patches).iter() {
                    let op = Reflect::get(&patch, &"op".into())
                        .unwrap()
                        .as_string()
                        .unwrap();
                    let record = Reflect::get(&patch, &"record".into()).unwrap();
                    match op.as_str() {
                        "add" => {
                            mirror.push(&record);
                        }
                        "replace" => {
                            let index = Reflect::get(&patch, &"index".into())
                                .unwrap()
                                .as_f64()
                                .unwrap() as u32;
                            mirror.set(index, record);
                        }
                        _ => {
                            let index = Reflect::get(&patch, &"index".into())
                                .unwrap()
                                .as_f64()
                                .unwrap() as u32;
                            let field = Reflect::get(&patch, &"field".into()).unwrap();
                            let grown = Reflect::get(&patch, &"text".into())
                                .unwrap()
                                .as_string()
                                .unwrap();
                            let copy = JSON::parse(&text(&mirror.get(index))).unwrap();
                            let content = Reflect::get(&copy, &"content".into()).unwrap();
                            let before =
                                Reflect::get(&content, &field).unwrap().as_string().unwrap();
                            Reflect::set(&content, &field, &format!("{before}{grown}").into())
                                .unwrap();
                            mirror.set(index, copy);
                        }
                    }
                }
            }
            assert!(acc.done(), "{protocol}");
            let records = acc.records().expect("records");
            assert_eq!(text(&mirror), text(&records), "{protocol}: patches");
            assert_eq!(text(&records), text(&want_records), "{protocol}: records");
            assert_eq!(
                text(&acc.message().expect("message")),
                text(&want_message),
                "{protocol}: message"
            );
        }
    }
}
