//! Boundary tests of the provider wire formats in a real headless browser: every fixture of
//! tests/providers.rs runs again through the exported functions, compared as `JSON.stringify`
//! text (so key order and null-versus-absent count), and the things only the boundary can get
//! wrong: moved values are the same objects, outputs are plain objects, errors are Errors.
#![cfg(target_arch = "wasm32")]

use chat_display::wasm::{detect_protocol, from_provider, to_display_messages, to_provider};
use js_sys::{Array, Function, Object};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

mod common;
use common::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Every `tests/fixtures/providers_*.json` (a browser has no directory to list: tests/registry.rs
/// fails when this list and the files there disagree).
const FILES: [&str; 7] = [
    include_str!("fixtures/providers_anthropic_messages.json"),
    include_str!("fixtures/providers_openai_completions.json"),
    include_str!("fixtures/providers_openai_responses.json"),
    include_str!("fixtures/providers_bedrock_converse.json"),
    include_str!("fixtures/providers_google_gemini.json"),
    include_str!("fixtures/providers_langchain_js.json"),
    include_str!("fixtures/providers_ollama.json"),
];

/// The record lines of tests/providers.rs `display`, by tests/support/record-lines.js (the
/// function tests/js/providers.test.mjs runs too).
fn display(messages: &JsValue, round: bool, flagless: bool) -> String {
    let records = to_display_messages(messages.clone(), JsValue::UNDEFINED).expect("records");
    let record_lines: Function = js_sys::eval(include_str!("support/record-lines.js"))
        .expect("tests/support/record-lines.js")
        .unchecked_into();
    let lines = record_lines
        .call3(
            &JsValue::NULL,
            &records,
            &JsValue::from_bool(round),
            &JsValue::from_bool(flagless),
        )
        .expect("display");
    text(&lines)
}

fn list(value: &JsValue) -> Vec<JsValue> {
    Array::from(value).iter().collect()
}

fn check_error(name: &str, error: &JsValue, expected: &JsValue) {
    assert!(error.is_instance_of::<js_sys::Error>(), "{name}: an Error");
    assert_eq!(get(error, "name"), "ChatDisplayError", "{name}");
    assert_eq!(get(error, "code"), get(expected, "code"), "{name}");
    assert_eq!(get(error, "path"), get(expected, "path"), "{name}");
    let message = get(error, "message").as_string().unwrap_or_default();
    let path = get(error, "path").as_string().unwrap_or_default();
    assert!(message.contains(&path), "{name}: {message}");
}

/// `flagless`: the file says `"error_flag": false` (the format's requests cannot say a result
/// failed), so the round trip cannot keep `is_error`.
fn round_trip(name: &str, protocol: &JsValue, messages: &JsValue, flagless: bool) {
    let request = to_provider(protocol.clone(), messages.clone()).expect("toProvider");
    let back = from_provider(protocol.clone(), request.clone()).expect("fromProvider");
    assert_eq!(
        display(&back, true, flagless),
        display(messages, true, flagless),
        "{name}: round trip through {}",
        text(&request)
    );
}

#[wasm_bindgen_test]
fn from_provider_fixtures_through_the_boundary() {
    for file in FILES {
        let file = js(file);
        let protocol = get(&file, "protocol");
        let flagless = get(&file, "error_flag") == JsValue::FALSE;
        for case in list(&get(&file, "from")) {
            let name = get(&case, "name").as_string().unwrap_or_default();
            let payload = get(&case, "payload");
            assert_eq!(
                text(&detect_protocol(payload.clone())),
                text(&get(&case, "detect")),
                "{name}: detectProtocol"
            );
            match from_provider(protocol.clone(), payload) {
                Err(error) => {
                    assert!(
                        has(&case, "error"),
                        "{name}: unexpected {:?}",
                        get(&error, "message")
                    );
                    check_error(&name, &error, &get(&case, "error"));
                }
                Ok(messages) => {
                    assert!(!has(&case, "error"), "{name}: expected an error");
                    let expected = get(&case, "messages");
                    for (i, (got, want)) in list(&messages).iter().zip(list(&expected)).enumerate()
                    {
                        assert_eq!(text(got), text(&want), "{name}: message {i}");
                    }
                    assert_eq!(text(&messages), text(&expected), "{name}");
                    assert_eq!(
                        display(&messages, false, false),
                        text(&get(&case, "display")),
                        "{name}"
                    );
                    if !has(&case, "round_trip") {
                        round_trip(&name, &protocol, &messages, flagless);
                    }
                }
            }
        }
    }
}

#[wasm_bindgen_test]
fn to_provider_fixtures_through_the_boundary() {
    for file in FILES {
        let file = js(file);
        let protocol = get(&file, "protocol");
        let flagless = get(&file, "error_flag") == JsValue::FALSE;
        for case in list(&get(&file, "to")) {
            let name = get(&case, "name").as_string().unwrap_or_default();
            let messages = get(&case, "messages");
            match to_provider(protocol.clone(), messages.clone()) {
                Err(error) => {
                    assert!(
                        has(&case, "error"),
                        "{name}: unexpected {:?}",
                        get(&error, "message")
                    );
                    check_error(&name, &error, &get(&case, "error"));
                }
                Ok(request) => {
                    assert!(!has(&case, "error"), "{name}: expected an error");
                    assert_eq!(text(&request), text(&get(&case, "request")), "{name}");
                    if !has(&case, "round_trip") {
                        round_trip(&name, &protocol, &messages, flagless);
                    }
                }
            }
        }
    }
}

#[wasm_bindgen_test]
fn moved_values_are_the_same_objects_and_outputs_are_plain() {
    let payload = js(
        r#"{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{"deep":[{"x":1}]}}]}"#,
    );
    let messages = from_provider("anthropic_messages".into(), payload.clone()).unwrap();
    let call = Array::from(&get(&Array::from(&messages).get(0), "tool_calls")).get(0);
    let given = get(&Array::from(&get(&payload, "content")).get(0), "input");
    assert!(
        Object::is(&get(&call, "arguments"), &given),
        "input moved, not copied"
    );
    let message = Array::from(&messages).get(0);
    let proto = Object::get_prototype_of(&message);
    assert!(Object::is(
        &proto,
        &Object::get_prototype_of(&Object::new())
    ));
    assert!(get(&message, "content").is_null(), "null, never undefined");
    assert!(get(&message, "tool_results").is_null());
    let request = to_provider("anthropic_messages".into(), messages).unwrap();
    let block = Array::from(&get(&Array::from(&request).get(0), "content")).get(0);
    assert!(
        Object::is(&get(&block, "input"), &given),
        "written back as the same object"
    );
}

#[wasm_bindgen_test]
fn errors_are_chat_display_errors_and_detect_never_throws() {
    for (protocol, payload, code, path) in [
        ("'openai'", "[]", "unsupported_protocol", "$.protocol"),
        ("undefined", "[]", "unsupported_protocol", "$.protocol"),
        (
            "'anthropic_messages'",
            "undefined",
            "invalid_input",
            "$.payload",
        ),
        (
            "'anthropic_messages'",
            "[{role: 'user', content: [{}]}]",
            "invalid_input",
            "$.payload[0].content[0].type",
        ),
    ] {
        let protocol = Function::new_no_args(&format!("return {protocol};"))
            .call0(&JsValue::NULL)
            .unwrap();
        let payload = Function::new_no_args(&format!("return {payload};"))
            .call0(&JsValue::NULL)
            .unwrap();
        let error = from_provider(protocol, payload).expect_err(path);
        assert_eq!(get(&error, "code"), code);
        assert_eq!(get(&error, "path"), path);
    }
    let error = to_provider("nope".into(), js("[]")).expect_err("unsupported");
    assert_eq!(get(&error, "code"), "unsupported_protocol");
    for payload in ["null", "undefined", "42", "() => 1", "new Map()", "[1, 2]"] {
        let value = Function::new_no_args(&format!("return {payload};"))
            .call0(&JsValue::NULL)
            .unwrap();
        assert!(detect_protocol(value).is_null(), "{payload}");
    }
}
