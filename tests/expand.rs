//! Native fixture tests of tool-result expansion: every case in `tests/fixtures/expand.json` is
//! run here, and the same file is run again through the JavaScript boundary
//! (tests/boundary_expand.rs, tests/js/expand.test.mjs). Adding a case is a data-only change.
#![cfg(not(target_arch = "wasm32"))]

use chat_display::{expand, expand_tool_results, is_expandable, to_display_messages};
use serde_json::{json, Value};

mod common;
use common::*;

fn fixtures() -> Value {
    serde_json::from_str(include_str!("fixtures/expand.json")).expect("fixture file is JSON")
}

fn group(name: &str) -> Vec<Value> {
    fixtures()[name]
        .as_array()
        .expect("a group of cases")
        .clone()
}

#[test]
fn expand_fixtures() {
    let all = group("expand");
    assert!(all.len() > 30);
    for case in &all {
        let options = case.get("options");
        check(
            case,
            case,
            "result",
            expand(
                &&case["fallbackContent"],
                &&case["messages"],
                options.as_ref(),
            ),
        );
    }
}

#[test]
fn is_expandable_fixtures() {
    for case in &group("isExpandable") {
        check(
            case,
            &case["toolResult"],
            "expandable",
            is_expandable(&&case["toolResult"]),
        );
    }
}

#[test]
fn expand_tool_results_fixtures() {
    let all = group("expandToolResults");
    assert!(all.len() > 40);
    for case in &all {
        check(
            case,
            &case["input"],
            "output",
            expand_tool_results(&&case["input"]),
        );
    }
}

/// Issue point 4: the display records of an expanded conversation show the trimmed result and
/// then the inserted messages.
#[test]
fn expanded_conversations_display_the_trimmed_result_then_the_inserted_messages() {
    let mut checked = 0;
    for case in group("expandToolResults") {
        let Some(records) = case.get("records") else {
            continue;
        };
        let output = serde_json::to_value(expand_tool_results(&&case["input"]).unwrap()).unwrap();
        let messages = output.get("messages").unwrap_or(&output);
        let got = serde_json::to_value(to_display_messages(&messages, None).unwrap()).unwrap();
        assert_eq!(&got, records, "{}", case["name"]);
        checked += 1;
    }
    assert!(checked >= 3);
}

/// True when applying `chain` (an applied chain or message list) would expand something: its last
/// message is a tool message with an expandable result, which an expansion can insert (3.4.4:
/// inserted messages are kept as they are).
fn ends_in_an_expansion(chain: &Value) -> bool {
    let last = match chain {
        Value::Array(messages) => messages.last(),
        chain => chain.get("last_message"),
    };
    last.filter(|m| m["role"] == "tool")
        .and_then(|m| m["tool_results"].as_array())
        .is_some_and(|results| results.iter().any(|r| is_expandable(&r).unwrap_or(false)))
}

#[test]
fn applying_twice_equals_applying_once() {
    let (mut checked, mut again) = (0, 0);
    for case in group("expandToolResults") {
        let Ok(once) = expand_tool_results(&&case["input"]) else {
            continue;
        };
        let once = serde_json::to_value(once).unwrap();
        let twice = serde_json::to_value(expand_tool_results(&&once).unwrap()).unwrap();
        if ends_in_an_expansion(&once) {
            assert_ne!(twice, once, "{}", case["name"]);
            again += 1;
        } else {
            assert_eq!(twice, once, "{}", case["name"]);
        }
        checked += 1;
    }
    assert!(checked > 30);
    assert!(again >= 1);
}

#[test]
fn a_built_result_expands_into_a_conversation() {
    // expand, then hand the result to a tool message the way execute_tool_call would, then apply.
    let summary = "glossary: 2 records";
    let fallback = json!("glossary: 2 records\n\nall records");
    let messages = json!([{"role": "assistant", "content": "all records"}, {"role": "user", "content": "Use them."}]);
    let options = json!({ "result_content": summary });
    let result = expand(&&fallback, &&messages, Some(&&options)).unwrap();
    let mut result = serde_json::to_value(result).unwrap();
    assert_eq!(is_expandable(&&result), Ok(true));
    result["tool_call_id"] = json!("call_1");
    result["name"] = json!("load_reference");
    let chain = json!({"messages": [
        {"role": "assistant", "tool_calls": [{"call_id": "call_1", "name": "load_reference", "arguments": {}}]},
        {"role": "tool", "tool_results": [result]}
    ]});
    let out = serde_json::to_value(expand_tool_results(&&chain).unwrap()).unwrap();
    let trimmed = &out["messages"][1]["tool_results"][0];
    assert_eq!(
        trimmed["content"],
        json!([{"type": "text", "content": summary}])
    );
    assert_eq!(trimmed["message_expansion"], Value::Null);
    assert_eq!(is_expandable(&trimmed), Ok(false));
    assert_eq!(out["messages"].as_array().unwrap().len(), 4);
    assert_eq!(out["last_message"]["content"], "Use them.");
    assert_eq!(out["needs_response"], true);
}

#[test]
fn expand_writes_all_eleven_keys_in_field_order() {
    let (fallback, messages) = (json!("x"), json!([{"role": "user"}]));
    let result = expand(&&fallback, &&messages, None).unwrap();
    assert_eq!(
        serde_json::to_string(&result).unwrap(),
        r#"{"type":"function","tool_call_id":null,"name":null,"content":[{"type":"text","content":"x"}],"processed_content":null,"display_text":null,"is_error":false,"is_interrupt":false,"interrupt_data":null,"options":null,"message_expansion":{"messages":[{"role":"user"}],"result_content":"The requested content has been added to the conversation."}}"#
    );
}

#[test]
fn chains_list_the_four_keys_first_then_the_others() {
    let chain = json!({"zeta": 1, "messages": [], "alpha": {"b": 2}});
    let text = serde_json::to_string(&expand_tool_results(&&chain).unwrap()).unwrap();
    assert_eq!(
        text,
        // The other keys keep the chain's own order (the fixtures are read with key order kept).
        r#"{"messages":[],"exchanged_messages":[],"last_message":null,"needs_response":true,"zeta":1,"alpha":{"b":2}}"#
    );
}

/// Nested `depth` arrays deep.
fn nested(depth: usize) -> Value {
    let mut value = json!("bottom");
    for _ in 0..depth {
        value = json!([value]);
    }
    value
}

#[test]
fn deeply_nested_messages_are_compared_and_moved_at_any_depth() {
    // Deep equality walks the tool message (here 3 levels plus processed_content) without
    // recursion, so there is no depth limit; 500 keeps serde_json's own recursion (clone, drop,
    // serialization) safe natively. The boundary test goes 100,000 deep.
    let deep = json!({"role": "tool", "tool_results": [{"content": "full", "processed_content": nested(500),
        "message_expansion": {"messages": [{"role": "user", "content": "go", "metadata": nested(500)}],
                              "result_content": "s"}}]});
    let chain = json!({"messages": [deep.clone(), {"role": "user"}, deep.clone()]});
    let out = serde_json::to_value(expand_tool_results(&&chain).unwrap()).unwrap();
    let messages = out["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 4);
    for replaced in [&messages[0], &messages[2]] {
        assert_eq!(
            replaced["tool_results"][0]["message_expansion"],
            Value::Null
        );
        assert_eq!(
            replaced["tool_results"][0]["processed_content"],
            nested(500)
        );
    }
    assert_eq!(messages[3]["metadata"], nested(500));
}

#[test]
fn expand_error_messages_follow_upstream() {
    let error = expand(&&json!("x"), &&json!([]), None).unwrap_err();
    assert_eq!(
        error.message,
        "An expansion needs at least one message, and $.messages is empty; to trim a tool result \
         without inserting anything, set `result_content` on a %LangChain.MessageExpansion{} directly."
    );
    let error = expand(&&json!("x"), &&json!([{"role": "system"}]), None).unwrap_err();
    assert_eq!(
        error.message,
        "Cannot expand into a message with role :system at $.messages[0].role; supported roles: \
         [:user, :assistant]."
    );
    let error = expand(&&json!("x"), &&json!("just text"), None).unwrap_err();
    assert_eq!(
        error.message,
        "Expected a list of %LangChain.Message{} at $.messages, received: \"just text\"."
    );
}

/// Error messages show a float as `Kernel.inspect/1` does, the same as toText's inspect: every
/// case of floats.json (OTP 25's rule, whose decimal form stops at 2^53).
#[test]
fn expand_error_messages_inspect_floats_as_upstream() {
    let all: Vec<Value> = serde_json::from_str(include_str!("fixtures/floats.json")).unwrap();
    for case in &all {
        let error = expand(&&json!("x"), &&case["value"], None).unwrap_err();
        assert_eq!(
            error.message,
            format!(
                "Expected a list of %LangChain.Message{{}} at $.messages, received: {}.",
                case["inspect"].as_str().unwrap()
            ),
            "{case}"
        );
    }
}

/// Strings and quoted atoms in error messages are escaped as toText's inspect escapes them:
/// invisible characters by their code (Elixir 1.18), a NUL in an atom as `\0`.
#[test]
fn expand_error_messages_escape_as_inspect_does() {
    let error = expand(&&json!("x"), &&json!("a\u{200B}b\u{FEFF}"), None).unwrap_err();
    assert_eq!(
        error.message,
        "Expected a list of %LangChain.Message{} at $.messages, received: \"a\\u200Bb\\uFEFF\"."
    );
    for (role, shown) in [
        ("sys\u{200B}tem", ":\"sys\\u200Btem\""),
        ("a\u{0}b", ":\"a\\0b\""),
    ] {
        let error = expand(&&json!("x"), &&json!([{ "role": role }]), None).unwrap_err();
        assert_eq!(
            error.message,
            format!(
                "Cannot expand into a message with role {shown} at $.messages[0].role; supported \
                 roles: [:user, :assistant]."
            )
        );
    }
}
