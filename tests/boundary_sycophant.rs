//! Boundary tests of the Sycophant exports in a real headless browser
//! (`wasm-pack test --headless --chrome`). The fixture cases of tests/sycophant.rs run here again
//! through the exported functions, compared as `JSON.stringify` text so key order counts too.
#![cfg(target_arch = "wasm32")]

use chat_display::wasm::{
    assistant_message, decode_sycophant, extract_display_items, is_chat_display_error,
    system_message, to_display_messages, tool_result_message, user_message,
};
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

mod common;
use common::*;

wasm_bindgen_test_configure!(run_in_browser);

fn construct(case: &JsValue) -> Result<JsValue, JsValue> {
    let args = Array::from(&get(case, "args"));
    match get(case, "call").as_string().unwrap_or_default().as_str() {
        "userMessage" => user_message(args.get(0)),
        "assistantMessage" => assistant_message(args.get(0)),
        "systemMessage" => system_message(args.get(0)),
        "toolResultMessage" => tool_result_message(args.get(0), args.get(1)),
        other => panic!("unknown call {other}"),
    }
}

#[wasm_bindgen_test]
fn constructor_fixtures_through_the_boundary() {
    for case in cases(include_str!("fixtures/sycophant_constructors.json")) {
        check_case(&case, "message", construct(&case));
    }
}

#[wasm_bindgen_test]
fn decode_fixtures_through_the_boundary() {
    for case in cases(include_str!("fixtures/sycophant_decode.json")) {
        check_case(&case, "decoded", decode_sycophant(get(&case, "json")));
    }
}

#[wasm_bindgen_test]
fn display_fixtures_through_the_boundary() {
    for case in cases(include_str!("fixtures/sycophant_display.json")) {
        check_case(&case, "items", extract_display_items(get(&case, "message")));
    }
    for case in cases(include_str!("fixtures/sycophant_display_messages.json")) {
        let result = to_display_messages(get(&case, "messages"), get(&case, "options"));
        check_case(&case, "records", result);
    }
}

#[wasm_bindgen_test]
fn decode_of_canonical_output_is_the_same_text() {
    let mut outputs: Vec<JsValue> = cases(include_str!("fixtures/sycophant_constructors.json"))
        .iter()
        .filter(|c| get(c, "error").is_undefined())
        .map(|c| construct(c).expect("constructs"))
        .collect();
    outputs.extend(
        cases(include_str!("fixtures/sycophant_decode.json"))
            .iter()
            .filter(|c| get(c, "error").is_undefined())
            .map(|c| get(c, "decoded")),
    );
    assert!(outputs.len() > 40);
    for canonical in outputs {
        let once = decode_sycophant(canonical.clone()).expect("decodes");
        assert_eq!(text(&once), text(&canonical));
        let twice = decode_sycophant(once.clone()).expect("decodes again");
        assert_eq!(text(&twice), text(&once));
    }
}

#[wasm_bindgen_test]
fn outputs_are_plain_objects_and_moved_values_are_the_same_values() {
    let call = js(
        r#"{"__type__":"ToolCall","id":"c","name":"n","arguments":{"q":{"deep":[1,{"x":null}]}},"metadata":{"m":[{}]}}"#,
    );
    let message = Object::new();
    Reflect::set(&message, &"__type__".into(), &"Message".into()).unwrap();
    Reflect::set(&message, &"role".into(), &"assistant".into()).unwrap();
    Reflect::set(&message, &"tool_calls".into(), &Array::of1(&call)).unwrap();
    Reflect::set(&message, &"metadata".into(), &js(r#"{"trace":{"id":7}}"#)).unwrap();
    let message: JsValue = message.into();
    let before = text(&message);

    let decoded = decode_sycophant(message.clone()).expect("decodes");
    assert!(is_plain_object(&decoded));
    let decoded_call = Array::from(&get(&decoded, "tool_calls")).get(0);
    assert!(is_plain_object(&decoded_call));
    assert!(Object::is(
        &get(&decoded_call, "arguments"),
        &get(&call, "arguments")
    ));
    assert!(Object::is(
        &get(&decoded_call, "metadata"),
        &get(&call, "metadata")
    ));
    assert!(Object::is(
        &get(&decoded, "metadata"),
        &get(&message, "metadata")
    ));

    let items = Array::from(&extract_display_items(message.clone()).expect("items"));
    let content = get(&items.get(0), "content");
    assert!(Object::is(
        &get(&content, "arguments"),
        &get(&call, "arguments")
    ));
    assert!(get(&content, "display_text").is_null());
    assert_eq!(text(&message), before, "input not mutated");

    // A lone surrogate cannot live in a Rust String; text that is only moved keeps it.
    let lone = eval(r#""a\uD800b""#);
    let built = user_message(lone.clone()).expect("builds");
    assert!(Object::is(&get(&built, "content"), &lone));
}

#[wasm_bindgen_test]
fn an_absent_argument_map_displays_as_a_fresh_empty_object() {
    let message = js(
        r#"{"__type__":"Message","role":"assistant","tool_calls":[{"id":"a","name":"n"},{"id":"b","name":"n"}]}"#,
    );
    let items = Array::from(&extract_display_items(message).expect("items"));
    let first = get(&get(&items.get(0), "content"), "arguments");
    let second = get(&get(&items.get(1), "content"), "arguments");
    assert!(is_plain_object(&first));
    assert_eq!(text(&first), "{}");
    assert!(
        !Object::is(&first, &second),
        "each item gets its own object, so mutating one cannot change another"
    );
}

#[wasm_bindgen_test]
fn undefined_content_is_no_content() {
    let built = user_message(JsValue::UNDEFINED).expect("builds");
    assert_eq!(text(&built), r#"{"__type__":"Message","role":"user"}"#);
    let result =
        tool_result_message(js(r#"{"id":"1","name":"t"}"#), JsValue::UNDEFINED).expect("builds");
    assert_eq!(
        text(&result),
        r#"{"__type__":"Message","role":"tool_result","tool_call_id":"1","metadata":{"tool_name":"t"}}"#
    );
}

/// Bad input throws a ChatDisplayError with a code and a path, and the module keeps working.
#[wasm_bindgen_test]
fn bad_sycophant_input_throws_chat_display_errors() {
    let bad_messages = [
        (
            "{__type__: 'Message', role: 'user', content: [{__type__: 'Bogus', text: 'x'}]}",
            "unknown_type",
            "$.content[0].__type__",
        ),
        (
            "{__type__: 'Message', role: 'tool', content: 'x'}",
            "unsupported_role",
            "$.role",
        ),
        (
            "{__type__: 'Message', role: 'assistant', tool_calls: 'search'}",
            "invalid_input",
            "$.tool_calls",
        ),
        (
            "{__type__: 'Message', role: 'assistant', tool_calls: {id: '1', name: 'n'}}",
            "invalid_input",
            "$.tool_calls",
        ),
        (
            "{__type__: 'Message', role: 'user', content: [{text: 'x'}]}",
            "missing_type",
            "$.content[0].__type__",
        ),
        ("{__type__: 'Message'}", "invalid_input", "$.role"),
        ("{__type__: 'Nope', role: 'user'}", "unknown_type", "$.__type__"),
        (
            "{__type__: 'Message', role: 'user', content: [{__type__: 'Text', get text() { throw new Error('x') }}]}",
            "invalid_input",
            "$.content[0].text",
        ),
    ];
    let valid = js(r#"{"__type__":"Message","role":"user","content":"still works"}"#);
    for (expr, code, path) in bad_messages {
        for result in [
            extract_display_items(eval(expr)),
            decode_sycophant(eval(expr)),
            to_display_messages(Array::of1(&eval(expr)).into(), JsValue::UNDEFINED),
        ] {
            let error = result.expect_err(expr);
            assert!(error.is_instance_of::<js_sys::Error>(), "{expr}");
            assert_eq!(get(&error, "name"), "ChatDisplayError", "{expr}");
            assert_eq!(get(&error, "code"), code, "{expr}");
            let got_path = get(&error, "path").as_string().unwrap_or_default();
            assert!(
                got_path == path || got_path == format!("$.messages[0]{}", &path[1..]),
                "{expr}: {got_path}"
            );
            let message = get(&error, "message").as_string().unwrap_or_default();
            assert!(message.contains(&got_path), "{expr}: {message}");
            assert_eq!(
                Array::from(&extract_display_items(valid.clone()).expect("works after")).length(),
                1
            );
        }
    }
    let bad_calls: [(Result<JsValue, JsValue>, &str, &str); 6] = [
        (user_message(eval("42")), "invalid_input", "$"),
        (user_message(eval("{text: 'x'}")), "invalid_input", "$"),
        (
            assistant_message(eval("[{__type__: 'Bogus'}]")),
            "unknown_type",
            "$[0].__type__",
        ),
        (system_message(eval("[() => 1]")), "invalid_input", "$[0]"),
        (
            tool_result_message(eval("{id: 'c'}"), eval("'x'")),
            "invalid_input",
            "$.toolCall.name",
        ),
        (
            tool_result_message(eval("{id: 'c', name: 'n'}"), eval("10n")),
            "invalid_input",
            "$.result",
        ),
    ];
    for (result, code, path) in bad_calls {
        let error = result.expect_err(path);
        assert!(is_chat_display_error(error.clone()), "{path}");
        assert_eq!(get(&error, "code"), code, "{path}");
        assert_eq!(get(&error, "path"), path);
    }
    for not_an_object in ["undefined", "null", "'x'", "[]", "() => 1"] {
        let error = decode_sycophant(eval(not_an_object)).expect_err(not_an_object);
        assert_eq!(get(&error, "code"), "invalid_input");
        assert_eq!(get(&error, "path"), "$");
    }
    assert!(user_message(js(r#""ok""#)).is_ok());
}
