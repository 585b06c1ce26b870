//! Boundary tests in a real headless browser (`wasm-pack test --headless --chrome`): what only the
//! JavaScript boundary can get wrong. The fixture cases of tests/fixtures.rs run here again through
//! the exported functions, compared as `JSON.stringify` text so key order counts too.
#![cfg(target_arch = "wasm32")]

use chat_display::wasm::{extract_display_items, is_chat_display_error, to_display_messages};
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

mod common;
use common::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn extract_display_items_fixtures_through_the_boundary() {
    for case in cases(include_str!("fixtures/extract_display_items.json")) {
        check_case(&case, "items", extract_display_items(get(&case, "message")));
    }
}

#[wasm_bindgen_test]
fn to_display_messages_fixtures_through_the_boundary() {
    for case in cases(include_str!("fixtures/to_display_messages.json")) {
        let result = to_display_messages(get(&case, "messages"), get(&case, "options"));
        check_case(&case, "records", result);
    }
}

#[wasm_bindgen_test]
fn outputs_are_plain_objects_and_arrays_never_maps() {
    let records = to_display_messages(
        js(r#"[{"role":"assistant","content":"hi","tool_calls":[{"call_id":"1","name":"t","arguments":{"a":{"b":[1,{"c":2}]}}}]}]"#),
        JsValue::UNDEFINED,
    )
    .expect("records");
    assert!(Array::is_array(&records));
    for record in Array::from(&records).iter() {
        assert!(is_plain_object(&record), "record is a plain object");
        assert!(!record.is_instance_of::<js_sys::Map>());
        assert!(
            is_plain_object(&get(&record, "content")),
            "content is a plain object"
        );
        assert!(
            is_plain_object(&get(&record, "metadata")),
            "metadata is a plain object"
        );
        assert_eq!(text(&get(&record, "metadata")), "{}");
    }
}

#[wasm_bindgen_test]
fn nil_is_null_never_undefined() {
    let items =
        extract_display_items(js(r#"{"role":"assistant","tool_calls":[{}]}"#)).expect("items");
    let content = get(&Array::from(&items).get(0), "content");
    for key in ["call_id", "name", "arguments", "display_text"] {
        assert!(
            Reflect::has(&content, &key.into()).unwrap(),
            "{key} present"
        );
        assert!(get(&content, key).is_null(), "{key} is null");
    }
    let records =
        to_display_messages(js(r#"[{"role":"user","content":"x"}]"#), JsValue::UNDEFINED).unwrap();
    let record = Array::from(&records).get(0);
    assert!(get(&record, "conversation_id").is_null());
    assert!(get(&record, "tool_call_id").is_null());
}

#[wasm_bindgen_test]
fn arguments_and_strings_pass_through_as_the_same_values() {
    let message = js(
        r#"{"role":"assistant","content":"text","tool_calls":[{"call_id":"1","name":"t","arguments":{"q":{"nested":[1,2.5,{"deep":[null,true,"x"]}]},"list":["a"]}}]}"#,
    );
    let items = Array::from(&extract_display_items(message.clone()).unwrap());
    let given = get(
        &Array::from(&get(&message, "tool_calls")).get(0),
        "arguments",
    );
    let got = get(&get(&items.get(1), "content"), "arguments");
    assert_eq!(
        text(&got),
        text(&given),
        "nested objects and arrays come back equal"
    );
    assert!(
        Object::is(&got, &given),
        "the very same object: nothing copied, nothing lost"
    );
    // A lone surrogate cannot live in a Rust String; text that is only moved keeps it.
    let lone = eval(r#"{role: "user", content: "a\uD800b"}"#);
    let items = Array::from(&extract_display_items(lone).unwrap());
    let got = get(&get(&items.get(0), "content"), "text");
    assert!(
        Object::is(&got, &eval(r#""a\uD800b""#)),
        "lone surrogate kept"
    );
}

#[wasm_bindgen_test]
fn inputs_are_not_mutated() {
    let conversation = js(
        r#"[{"role":"assistant","tool_calls":[{"call_id":"1","name":"t"}]},{"role":"tool","tool_results":[{"tool_call_id":"1","content":"x"}]}]"#,
    );
    let before = text(&conversation);
    to_display_messages(conversation.clone(), js(r#"{"conversation_id":"c"}"#)).unwrap();
    assert_eq!(text(&conversation), before);
}

/// Bad input throws a ChatDisplayError with a code and a path, and the module keeps working.
#[wasm_bindgen_test]
fn every_error_is_a_chat_display_error_and_the_next_call_works() {
    let bad_messages = [
        ("undefined", "invalid_input", "$"),
        ("null", "invalid_input", "$"),
        ("42", "invalid_input", "$"),
        ("'a string'", "invalid_input", "$"),
        ("[]", "invalid_input", "$"),
        ("() => ({role: 'user'})", "invalid_input", "$"),
        ("Symbol('x')", "invalid_input", "$"),
        ("10n", "invalid_input", "$"),
        ("new Map([['role', 'user']])", "invalid_input", "$.role"),
        ("{}", "invalid_input", "$.role"),
        ("{role: undefined}", "invalid_input", "$.role"),
        ("{role: null}", "unsupported_role", "$.role"),
        ("{role: 'function'}", "unsupported_role", "$.role"),
        ("{role: 'USER'}", "unsupported_role", "$.role"),
        ("{role: 'user', content: 42}", "invalid_input", "$.content"),
        (
            "{role: 'user', content: true}",
            "invalid_input",
            "$.content",
        ),
        (
            "{role: 'assistant', tool_calls: 'search'}",
            "invalid_input",
            "$.tool_calls",
        ),
        (
            "{role: 'assistant', tool_calls: [42]}",
            "invalid_input",
            "$.tool_calls[0]",
        ),
        (
            "{role: 'assistant', tool_calls: [{call_id: 1}]}",
            "invalid_input",
            "$.tool_calls[0].call_id",
        ),
        (
            "{role: 'user', content: [{content: 'x'}]}",
            "invalid_input",
            "$.content[0].type",
        ),
        (
            "{role: 'user', content: [null]}",
            "invalid_input",
            "$.content[0]",
        ),
        (
            "{role: 'tool', tool_results: {}}",
            "invalid_input",
            "$.tool_results",
        ),
        (
            "{get role() { throw new Error('hostile getter'); }}",
            "invalid_input",
            "$.role",
        ),
        (
            "new Proxy({}, {get() { throw new Error('trap'); }})",
            "invalid_input",
            "$.role",
        ),
    ];
    let valid = js(r#"{"role":"user","content":"still works"}"#);
    for (expr, code, path) in bad_messages {
        let error = extract_display_items(eval(expr)).expect_err(expr);
        assert!(
            error.is_instance_of::<js_sys::Error>(),
            "{expr}: instanceof Error"
        );
        assert!(is_chat_display_error(error.clone()), "{expr}");
        assert_eq!(get(&error, "name"), "ChatDisplayError", "{expr}");
        assert_eq!(get(&error, "code"), code, "{expr}");
        assert_eq!(get(&error, "path"), path, "{expr}");
        let message = get(&error, "message").as_string().unwrap_or_default();
        assert!(
            message.contains(path),
            "{expr}: the message names the path: {message}"
        );
        let items = extract_display_items(valid.clone()).expect("a valid call after the error");
        assert_eq!(Array::from(&items).length(), 1);
    }
    let bad_conversations = [
        ("'x'", "undefined", "$.messages"),
        ("7", "undefined", "$.messages"),
        ("[]", "'c'", "$.options"),
        ("[]", "{conversation_id: 1}", "$.options.conversation_id"),
    ];
    for (messages, options, path) in bad_conversations {
        let error = to_display_messages(eval(messages), eval(options)).expect_err(messages);
        assert_eq!(get(&error, "code"), "invalid_input");
        assert_eq!(get(&error, "path"), path);
        assert!(
            to_display_messages(js("[]"), JsValue::UNDEFINED).is_ok(),
            "a valid call after the error"
        );
    }
    assert!(!is_chat_display_error(eval("new Error('other')")));
    assert!(!is_chat_display_error(JsValue::NULL));
}
