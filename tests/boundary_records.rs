//! Boundary tests of display-message records and toText in a real headless browser: the fixture
//! cases of tests/records.rs again through the exported functions, compared as `JSON.stringify`
//! text (key order counts), and what only the JavaScript boundary can get wrong.
#![cfg(target_arch = "wasm32")]

use chat_display::wasm::{
    change_display_message, new_display_message, to_display_messages, to_text,
    validate_display_message,
};
use js_sys::{Array, Function, Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

mod common;
use common::*;

wasm_bindgen_test_configure!(run_in_browser);

/// `Object.keys(value)` joined with commas.
fn keys(value: &JsValue) -> String {
    Function::new_with_args("v", "return Object.keys(v).join(',')")
        .call1(&JsValue::NULL, value)
        .ok()
        .and_then(|k| k.as_string())
        .unwrap_or_default()
}

/// `case[key_js]` when the case has one (where JavaScript numbers differ), else `case[key]`.
fn expected(case: &JsValue, key: &str, key_js: &str) -> JsValue {
    if has(case, key_js) {
        get(case, key_js)
    } else {
        get(case, key)
    }
}

fn run_record_case(case: &JsValue) -> Result<JsValue, JsValue> {
    let attrs = get(case, "attrs");
    let record = get(case, "record");
    match get(case, "call").as_string().as_deref() {
        Some("new") => new_display_message(get(case, "conversation_id"), attrs),
        Some("change") => change_display_message(record, attrs),
        Some("validate") => validate_display_message(record),
        other => panic!("unknown call {other:?}"),
    }
}

#[wasm_bindgen_test]
fn record_fixtures_through_the_boundary() {
    let all = cases(include_str!("fixtures/records.json"));
    assert!(all.len() > 100);
    for case in all {
        let want = expected(&case, "changeset", "changeset_js");
        check_output(&case, &want, run_record_case(&case));
    }
}

#[wasm_bindgen_test]
fn to_text_fixtures_through_the_boundary() {
    let all = cases(include_str!("fixtures/to_text.json"));
    assert!(all.len() > 60);
    for case in all {
        let name = get(&case, "name").as_string().unwrap_or_default();
        let got = to_text(get(&case, "record")).expect("toText never throws");
        assert_eq!(
            text(&got),
            text(&expected(&case, "text", "text_js")),
            "{name}"
        );
    }
}

#[wasm_bindgen_test]
fn floats_through_the_boundary() {
    let all = cases(include_str!("fixtures/floats.json"));
    assert!(all.len() >= 30);
    for case in all {
        let value = get(&case, "value");
        let inspected = expected(&case, "inspect", "js")
            .as_string()
            .unwrap_or_default();
        let interpolated = expected(&case, "str", "js").as_string().unwrap_or_default();
        let call = eval(r#"{content_type: "tool_call", content: {name: "f", arguments: null}}"#);
        Reflect::set(&get(&call, "content"), &"arguments".into(), &value).unwrap();
        let got = to_text(call).unwrap().as_string().unwrap_or_default();
        assert_eq!(got, format!("Tool call: f({inspected})"), "{}", text(&case));
        let result = eval(r#"{content_type: "tool_result", content: {name: "f", content: null}}"#);
        Reflect::set(&get(&result, "content"), &"content".into(), &value).unwrap();
        let got = to_text(result).unwrap().as_string().unwrap_or_default();
        assert_eq!(
            got,
            format!("Tool result from f: {interpolated}"),
            "{}",
            text(&case)
        );
    }
}

/// Every record toDisplayMessages makes passes validateDisplayMessage, unchanged.
#[wasm_bindgen_test]
fn to_display_messages_records_pass_validation() {
    let mut checked = 0;
    for case in cases(include_str!("fixtures/to_display_messages.json")) {
        if !get(&case, "error").is_undefined() {
            continue;
        }
        let records = to_display_messages(
            get(&case, "messages"),
            js(r#"{"conversation_id":"conv-1"}"#),
        )
        .expect("records");
        for record in Array::from(&records).iter() {
            let changeset = validate_display_message(record.clone()).expect("a changeset");
            assert_eq!(get(&changeset, "valid"), JsValue::TRUE, "{}", text(&record));
            assert_eq!(text(&get(&changeset, "errors")), "{}");
            // Same keys and values; the record's key order is the DisplayMessage order of
            // docs/API.md "The record".
            let back = get(&changeset, "record");
            for key in keys(&record).split(',') {
                assert_eq!(text(&get(&back, key)), text(&get(&record, key)), "{key}");
            }
            checked += 1;
        }
    }
    assert!(checked > 20);
}

#[wasm_bindgen_test]
fn changesets_are_plain_objects_with_null_never_undefined() {
    let changeset = new_display_message(JsValue::NULL, js("{}")).unwrap();
    assert!(is_plain_object(&changeset));
    assert_eq!(keys(&changeset), "valid,errors,record");
    let errors = get(&changeset, "errors");
    assert!(is_plain_object(&errors));
    assert!(Array::is_array(&get(&errors, "content")));
    let record = get(&changeset, "record");
    assert!(is_plain_object(&record));
    assert!(is_plain_object(&get(&record, "metadata")));
    assert_eq!(
        keys(&record),
        "conversation_id,message_type,content_type,content,tool_call_id,sequence,status,metadata"
    );
    for key in [
        "conversation_id",
        "message_type",
        "content_type",
        "content",
        "tool_call_id",
    ] {
        assert!(get(&record, key).is_null(), "{key} is null");
    }
    // undefined conversationId is null, and an undefined attribute is absent.
    let changeset = new_display_message(JsValue::UNDEFINED, eval("{status: undefined}")).unwrap();
    assert_eq!(
        text(&get(&get(&changeset, "errors"), "conversation_id")),
        r#"["can't be blank"]"#
    );
    assert_eq!(get(&get(&changeset, "record"), "status"), "completed");
}

#[wasm_bindgen_test]
fn values_only_moved_come_back_as_the_same_objects() {
    let attrs = eval(
        r#"{message_type: "user", content_type: "text", content: {text: "a\uD800b", extra: {deep: [1, {x: 2}]}}, metadata: {m: [1]}}"#,
    );
    let changeset = new_display_message("c".into(), attrs.clone()).unwrap();
    assert_eq!(get(&changeset, "valid"), JsValue::TRUE);
    let record = get(&changeset, "record");
    assert!(
        Object::is(&get(&record, "content"), &get(&attrs, "content")),
        "the same content object"
    );
    assert!(
        Object::is(&get(&record, "metadata"), &get(&attrs, "metadata")),
        "the same metadata object"
    );
    // toText hands a text record's text back as is: a lone surrogate survives.
    let text_value = to_text(record).unwrap();
    assert!(Object::is(&text_value, &eval(r#""a\uD800b""#)));
    let given = eval("{content_type: 'text', content: {text: {not: 'a string'}}}");
    let got = to_text(given.clone()).unwrap();
    assert!(
        Object::is(&got, &get(&get(&given, "content"), "text")),
        "a non-string text as is"
    );
    // Inputs are not mutated.
    let before = text(&attrs);
    change_display_message(attrs.clone(), js(r#"{"status":"failed","content":null}"#)).unwrap();
    assert_eq!(text(&attrs), before);
}

#[wasm_bindgen_test]
fn only_non_object_arguments_throw_and_the_next_call_works() {
    let not_objects = [
        "undefined",
        "null",
        "42",
        "'x'",
        "[]",
        "() => ({})",
        "Symbol('s')",
        "10n",
        "true",
    ];
    let valid = || new_display_message("c".into(), js("{}")).is_ok();
    for expr in not_objects {
        let error = new_display_message("c".into(), eval(expr)).expect_err(expr);
        assert!(error.is_instance_of::<js_sys::Error>());
        assert_eq!(get(&error, "name"), "ChatDisplayError");
        assert_eq!(get(&error, "code"), "invalid_input");
        assert_eq!(get(&error, "path"), "$.attrs", "{expr}");
        assert!(get(&error, "message")
            .as_string()
            .unwrap_or_default()
            .contains("$.attrs"));
        let error = change_display_message(eval(expr), js("{}")).expect_err(expr);
        assert_eq!(get(&error, "path"), "$.record", "{expr}");
        let error = validate_display_message(eval(expr)).expect_err(expr);
        assert_eq!(get(&error, "path"), "$", "{expr}");
        assert!(valid(), "a valid call after the error");
        // toText never throws: whatever is not a record has no text.
        assert_eq!(to_text(eval(expr)).unwrap(), "", "{expr}");
    }
    // Bad attribute values are errors in the changeset, never thrown.
    let odd_values = [
        "undefined",
        "null",
        "NaN",
        "Infinity",
        "-0",
        "1.5",
        "2 ** 60",
        "10n",
        "Symbol('s')",
        "() => 1",
        "[]",
        "{}",
        "''",
        "'  '",
        "new Map()",
        "new Date(0)",
        "'x'.repeat(100000)",
    ];
    for field in [
        "message_type",
        "content",
        "tool_call_id",
        "content_type",
        "sequence",
        "status",
        "metadata",
        "conversation_id",
    ] {
        for value in odd_values {
            let attrs = eval(&format!("{{{field}: {value}}}"));
            let changeset = new_display_message(eval(value), attrs.clone()).expect(value);
            assert!(has(&changeset, "valid"), "{field}: {value}");
            assert!(
                change_display_message(attrs.clone(), attrs.clone()).is_ok(),
                "{field}: {value}"
            );
            assert!(
                validate_display_message(attrs.clone()).is_ok(),
                "{field}: {value}"
            );
            assert!(to_text(attrs).is_ok(), "{field}: {value}");
        }
    }
}

#[wasm_bindgen_test]
fn to_text_never_throws_on_hostile_or_deep_values() {
    let hostile = [
        "{content_type: 'tool_call', content: {name: 't', arguments: [NaN, Infinity, -Infinity, 10n, Symbol('s'), () => 1, undefined]}}",
        "{content_type: 'tool_call', content: {name: 't', arguments: new Proxy({}, {get() { throw new Error('trap'); }})}}",
        "{content_type: 'tool_call', content: {name: 't', arguments: {get x() { throw new Error('getter'); }, y: 1}}}",
        "(() => { const a = {}; a.self = a; return {content_type: 'tool_call', content: {name: 't', arguments: a}}; })()",
        "(() => { let v = 1; for (let i = 0; i < 100000; i++) v = [v]; return {content_type: 'tool_call', content: {name: 't', arguments: v}}; })()",
        "(() => { let v = 'x'; for (let i = 0; i < 100000; i++) v = [v]; return {content_type: 'tool_result', content: {name: 't', content: v}}; })()",
        "{content_type: 'tool_result', content: {name: 't', content: [104, 105, 1.5]}}",
        "{get content_type() { throw new Error('getter'); }}",
        "{content_type: 'tool_call', content: {name: 't', arguments: new Proxy({}, {ownKeys() { throw new Error('keys'); }})}}",
        "{content_type: 'tool_call', content: {name: 't', arguments: new Proxy([1, 2], {get(t, k) { if (k === 'length') throw new Error('length'); return t[k]; }})}}",
        "(() => { const p = Proxy.revocable({}, {}); p.revoke(); return {content_type: 'tool_call', content: {name: 't', arguments: p.proxy}}; })()",
    ];
    for expr in hostile {
        let got = to_text(eval(expr)).expect(expr);
        assert!(got.is_string(), "{expr}");
    }
    let deep = to_text(eval(hostile[4]))
        .unwrap()
        .as_string()
        .unwrap_or_default();
    assert!(deep.starts_with("Tool call: t([[[") && deep.contains("..."));
    let values = to_text(eval(hostile[0]))
        .unwrap()
        .as_string()
        .unwrap_or_default();
    assert_eq!(values, "Tool call: t([nil, nil, nil, nil, nil, nil, nil])");
    let cyclic = to_text(eval(hostile[3]))
        .unwrap()
        .as_string()
        .unwrap_or_default();
    let end = format!(r#""self" => ...{})"#, "}".repeat(128));
    assert!(
        cyclic.ends_with(&end) && cyclic.matches("%{").count() == 128,
        "{cyclic}"
    );
}
