//! Boundary tests of tool-result expansion in a real headless browser
//! (`wasm-pack test --headless --chrome`). The fixture cases of tests/expand.rs run here again
//! through the exported functions, compared as `JSON.stringify` text so key order counts too.
#![cfg(target_arch = "wasm32")]

use chat_display::wasm::{
    expand, expand_tool_results, is_chat_display_error, is_expandable, to_display_messages,
};
use js_sys::{Array, Object};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

mod common;
use common::*;

wasm_bindgen_test_configure!(run_in_browser);

fn group(name: &str) -> Vec<JsValue> {
    Array::from(&get(&js(include_str!("fixtures/expand.json")), name))
        .iter()
        .collect()
}

#[wasm_bindgen_test]
fn expand_fixtures_through_the_boundary() {
    for case in group("expand") {
        let before = text(&case);
        let result = expand(
            get(&case, "fallbackContent"),
            get(&case, "messages"),
            get(&case, "options"),
        );
        check_case(&case, "result", result);
        assert_eq!(text(&case), before, "inputs are not mutated");
    }
}

#[wasm_bindgen_test]
fn is_expandable_fixtures_through_the_boundary() {
    for case in group("isExpandable") {
        let result = is_expandable(get(&case, "toolResult"));
        check_case(&case, "expandable", result);
    }
}

#[wasm_bindgen_test]
fn expand_tool_results_fixtures_through_the_boundary() {
    for case in group("expandToolResults") {
        let before = text(&case);
        let result = expand_tool_results(get(&case, "input"));
        check_case(&case, "output", result.clone());
        assert_eq!(text(&case), before, "inputs are not mutated");
        // Applying twice equals applying once, unless what was inserted ends in a tool message
        // with an expansion of its own (kept as it is), which the second application expands.
        if let Ok(once) = result {
            let twice = expand_tool_results(once.clone()).expect("applies again");
            if ends_in_an_expansion(&once) {
                assert_ne!(text(&twice), text(&once));
            } else {
                assert_eq!(text(&twice), text(&once));
            }
        }
    }
}

/// True when `chain`'s last message (an applied chain's `last_message`, a list's last element) is a
/// tool message with an expandable result.
fn ends_in_an_expansion(chain: &JsValue) -> bool {
    let last = if Array::is_array(chain) {
        Array::from(chain).at(-1)
    } else {
        get(chain, "last_message")
    };
    if !last.is_object() || get(&last, "role").as_string().as_deref() != Some("tool") {
        return false;
    }
    let results = get(&last, "tool_results");
    Array::is_array(&results)
        && Array::from(&results)
            .iter()
            .any(|r| is_expandable(r).ok().and_then(|e| e.as_bool()) == Some(true))
}

/// Issue point 4, end to end through the exports.
#[wasm_bindgen_test]
fn expanded_conversations_display_through_to_display_messages() {
    let mut checked = 0;
    for case in group("expandToolResults") {
        let records = get(&case, "records");
        if records.is_undefined() {
            continue;
        }
        let output = expand_tool_results(get(&case, "input")).expect("expands");
        let messages = if Array::is_array(&output) {
            output
        } else {
            get(&output, "messages")
        };
        let got = to_display_messages(messages, JsValue::UNDEFINED).expect("records");
        assert_eq!(text(&got), text(&records));
        checked += 1;
    }
    assert!(checked >= 3);
}

#[wasm_bindgen_test]
fn expand_returns_a_plain_object_with_nulls_and_the_given_values() {
    let messages =
        js(r#"[{"role":"assistant","content":"records"},{"role":"user","content":"go"}]"#);
    let part = js(r#"{"type":"text","content":"all","options":{"cache":true}}"#);
    let result = expand(part.clone(), messages.clone(), JsValue::UNDEFINED).expect("result");
    assert!(is_plain_object(&result));
    let object: &Object = result.unchecked_ref();
    let keys = text(&Object::keys(object).into());
    assert_eq!(
        keys,
        r#"["type","tool_call_id","name","content","processed_content","display_text","is_error","is_interrupt","interrupt_data","options","message_expansion"]"#
    );
    for key in [
        "tool_call_id",
        "name",
        "processed_content",
        "display_text",
        "interrupt_data",
        "options",
    ] {
        assert!(get(&result, key).is_null(), "{key} is null");
    }
    assert!(Object::is(&at(&get(&result, "content"), 0), &part));
    let expansion = get(&result, "message_expansion");
    assert!(is_plain_object(&expansion));
    assert!(Object::is(&get(&expansion, "messages"), &messages));
    assert_eq!(
        get(&expansion, "result_content"),
        "The requested content has been added to the conversation."
    );
}

#[wasm_bindgen_test]
fn an_undefined_result_content_is_absent_and_null_is_kept() {
    let messages = js(r#"[{"role":"user"}]"#);
    let result = expand(
        "x".into(),
        messages.clone(),
        eval("{result_content: undefined}"),
    )
    .unwrap();
    assert_eq!(
        get(&get(&result, "message_expansion"), "result_content"),
        "The requested content has been added to the conversation."
    );
    let result = expand("x".into(), messages, eval("{result_content: null}")).unwrap();
    let kept = get(&get(&result, "message_expansion"), "result_content");
    assert!(kept.is_null(), "null, not undefined");
}

#[wasm_bindgen_test]
fn passed_along_values_are_the_same_objects() {
    let chain = js(r#"{"llm":{"model":"m"},"messages":[
            {"role":"assistant","tool_calls":[{"call_id":"c1","name":"load"}]},
            {"role":"tool","x_keep":{"deep":[1]},"tool_results":[
              {"tool_call_id":"c1","content":"full","x_extra":[null],
               "message_expansion":{"messages":[{"role":"assistant","content":"a","metadata":{"m":1}},{"role":"user","content":"u"}],"result_content":"short"}},
              {"tool_call_id":"c2","content":"plain"}]}]}"#);
    let input_messages = get(&chain, "messages");
    let tool = at(&input_messages, 1);
    let results = get(&tool, "tool_results");
    let inserted = get(&get(&at(&results, 0), "message_expansion"), "messages");
    let out = expand_tool_results(chain.clone()).expect("expanded");
    let messages = get(&out, "messages");
    assert!(Object::is(&at(&messages, 0), &at(&input_messages, 0)));
    assert!(Object::is(&get(&out, "llm"), &get(&chain, "llm")));
    assert!(Object::is(&at(&messages, 2), &at(&inserted, 0)));
    assert!(Object::is(&at(&messages, 3), &at(&inserted, 1)));
    assert!(Object::is(&get(&out, "last_message"), &at(&inserted, 1)));
    assert!(Object::is(
        &at(&get(&out, "exchanged_messages"), 0),
        &at(&inserted, 0)
    ));
    let new_tool = at(&messages, 1);
    assert!(!Object::is(&new_tool, &tool), "the changed message is new");
    assert!(Object::is(&get(&new_tool, "x_keep"), &get(&tool, "x_keep")));
    let new_results = get(&new_tool, "tool_results");
    assert!(
        Object::is(&at(&new_results, 1), &at(&results, 1)),
        "plain result kept"
    );
    let trimmed = at(&new_results, 0);
    assert!(is_plain_object(&trimmed));
    assert!(get(&trimmed, "message_expansion").is_null());
    assert!(Object::is(
        &get(&trimmed, "x_extra"),
        &get(&at(&results, 0), "x_extra")
    ));
    assert_eq!(
        text(&get(&trimmed, "content")),
        r#"[{"type":"text","content":"short"}]"#
    );
    // The input still carries its expansion.
    assert!(!get(&at(&results, 0), "message_expansion").is_null());
    // A bare array gives a new array holding the same messages.
    let array = js(r#"[{"role":"user","content":"hi"}]"#);
    let same = expand_tool_results(array.clone()).unwrap();
    assert!(!Object::is(&same, &array));
    assert!(Object::is(&at(&same, 0), &at(&array, 0)));
    // A lone surrogate in an inserted message survives.
    let lone = eval(
        r#"[{role: "tool", tool_results: [{message_expansion: {messages: [{role: "user", content: "a\uD800b"}]}}]}]"#,
    );
    let out = expand_tool_results(lone).unwrap();
    assert!(Object::is(
        &get(&at(&out, 1), "content"),
        &eval(r#""a\uD800b""#)
    ));
}

/// Bad input throws a ChatDisplayError with a code and a path, and the module keeps working.
#[wasm_bindgen_test]
fn bad_input_gives_chat_display_errors_and_the_next_call_works() {
    let ok_messages = || js(r#"[{"role":"user","content":"go"}]"#);
    let check = |result: Result<JsValue, JsValue>, code: &str, path: &str, what: &str| {
        let error = result.expect_err(what);
        assert!(error.is_instance_of::<js_sys::Error>(), "{what}");
        assert_eq!(get(&error, "name"), "ChatDisplayError", "{what}");
        assert_eq!(get(&error, "code"), code, "{what}");
        assert_eq!(get(&error, "path"), path, "{what}");
        let message = get(&error, "message").as_string().unwrap_or_default();
        assert!(message.contains(path), "{what}: {message}");
        assert!(expand("x".into(), ok_messages(), JsValue::UNDEFINED).is_ok());
        assert!(expand_tool_results(ok_messages()).is_ok());
    };
    // expand
    for (messages, code, path) in [
        ("'just text'", "invalid_expansion", "$.messages"),
        ("undefined", "invalid_expansion", "$.messages"),
        ("new Map()", "invalid_expansion", "$.messages"),
        ("[]", "empty_expansion", "$.messages"),
        (
            "[{content: 'no role'}]",
            "invalid_expansion",
            "$.messages[0]",
        ),
        ("[{role: undefined}]", "invalid_expansion", "$.messages[0]"),
        (
            "[{role: 'user'}, () => 1]",
            "invalid_expansion",
            "$.messages[1]",
        ),
        (
            "[{role: 'system'}]",
            "invalid_expansion_role",
            "$.messages[0].role",
        ),
    ] {
        check(
            expand("x".into(), eval(messages), JsValue::UNDEFINED),
            code,
            path,
            messages,
        );
    }
    for (fallback, path) in [
        ("undefined", "$.fallbackContent"),
        ("7", "$.fallbackContent"),
    ] {
        check(
            expand(eval(fallback), ok_messages(), JsValue::UNDEFINED),
            "invalid_input",
            path,
            fallback,
        );
    }
    check(
        expand("x".into(), ok_messages(), eval("{result_content: 1n}")),
        "invalid_input",
        "$.options.result_content",
        "bigint result_content",
    );
    // isExpandable
    for value in ["42", "undefined", "'result'", "[]"] {
        let error = is_expandable(eval(value)).expect_err(value);
        assert_eq!(get(&error, "code"), "invalid_input", "{value}");
        assert_eq!(get(&error, "path"), "$", "{value}");
        assert!(is_chat_display_error(error));
    }
    // expandToolResults
    for (input, code, path) in [
        ("undefined", "invalid_input", "$"),
        ("'messages'", "invalid_input", "$"),
        ("{messages: 'x'}", "invalid_input", "$.messages"),
        ("{messages: new Map()}", "invalid_input", "$.messages"),
        ("{}", "invalid_input", "$.messages"),
        ("[{content: 'no role'}]", "invalid_input", "$[0].role"),
        (
            "{messages: [{role: 'tool', tool_results: [42]}]}",
            "invalid_input",
            "$.messages[0].tool_results[0]",
        ),
        (
            "[{role: 'tool', tool_results: [null]}]",
            "invalid_input",
            "$[0].tool_results[0]",
        ),
        (
            "[{role: 'tool', tool_results: [{message_expansion: {messages: [{content: 'x'}]}}]}]",
            "invalid_input",
            "$[0].tool_results[0].message_expansion.messages[0].role",
        ),
        (
            "{get messages() { throw new Error('hostile getter'); }}",
            "invalid_input",
            "$.messages",
        ),
    ] {
        check(expand_tool_results(eval(input)), code, path, input);
    }
}

/// Deep equality walks the tool message without recursion, and nothing else looks inside what is
/// moved, so 100,000 levels neither overflow the stack nor fail.
#[wasm_bindgen_test]
fn messages_nested_100000_deep_are_compared_and_moved() {
    let deep = eval(
        r#"(() => {
            let v = "bottom";
            for (let i = 0; i < 100000; i++) v = [v];
            let m = {v};
            for (let i = 0; i < 100000; i++) m = {m};
            const tool = () => ({role: "tool", tool_results: [{content: "full", processed_content: v,
                message_expansion: {messages: [{role: "user", content: "go", metadata: m}], result_content: "s"}}]});
            return {messages: [tool(), {role: "user", content: "q"}, tool()]};
        })()"#,
    );
    let out = expand_tool_results(deep.clone()).expect("compared at any depth");
    let messages = get(&out, "messages");
    assert_eq!(Array::from(&messages).length(), 4);
    let input = get(&deep, "messages");
    for (i, replaced) in [(0, at(&messages, 0)), (2, at(&messages, 2))] {
        let result = at(&get(&replaced, "tool_results"), 0);
        assert!(
            get(&result, "message_expansion").is_null(),
            "copy {i} replaced"
        );
        let given = at(&get(&at(&input, i), "tool_results"), 0);
        assert!(Object::is(
            &get(&result, "processed_content"),
            &get(&given, "processed_content")
        ));
    }
    let twice = expand_tool_results(out.clone()).expect("idempotent at any depth");
    assert!(Object::is(
        &at(&get(&twice, "messages"), 3),
        &at(&messages, 3)
    ));
    // Only moved: a deep message list for expand.
    let deep_messages = eval(
        r#"(() => {
            let v = "bottom";
            for (let i = 0; i < 100000; i++) v = [v];
            return [{role: "assistant", content: "x", metadata: v}];
        })()"#,
    );
    assert!(expand("x".into(), deep_messages, JsValue::UNDEFINED).is_ok());
    // A deep non-message in expand's list is shown cut short in the message.
    let deep_bad = eval(
        r#"(() => {
            let v = 1;
            for (let i = 0; i < 100000; i++) v = [v];
            return [v];
        })()"#,
    );
    let error = expand("x".into(), deep_bad, JsValue::UNDEFINED).expect_err("not a message");
    assert_eq!(get(&error, "code"), "invalid_expansion");
    let message = get(&error, "message").as_string().unwrap_or_default();
    assert!(message.contains("[...]"), "{message}");
    assert!(expand_tool_results(js("[]")).is_ok(), "still working");
}
