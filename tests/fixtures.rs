//! Native fixture tests of the core: every case in `tests/fixtures/*.json` is run here, and the
//! same files are run again through the JavaScript boundary (tests/boundary.rs, tests/js/).
//! Adding a case is a data-only change.
#![cfg(not(target_arch = "wasm32"))]

use chat_display::{extract_display_items, to_display_messages, Error};
use serde::Serialize;
use serde_json::{json, Value};

fn cases(text: &str) -> Vec<Value> {
    serde_json::from_str(text).expect("fixture file is JSON")
}

/// Compares one case's outcome with its expectation, printing input, got and expected in labelled
/// blocks when they differ.
#[track_caller]
fn check<T: Serialize>(case: &Value, input_key: &str, output_key: &str, got: Result<T, Error>) {
    let got = match got {
        Ok(value) => json!({ output_key: serde_json::to_value(value).expect("serializable") }),
        Err(e) => {
            assert!(
                e.message.contains(&e.path),
                "message names the path: {}",
                e.message
            );
            json!({"error": {"code": e.code.as_str(), "path": e.path}})
        }
    };
    let expected = match case.get("error") {
        Some(error) => json!({ "error": error }),
        None => json!({ output_key: case[output_key] }),
    };
    assert!(
        got == expected,
        "\n--- case\n{}\n--- input\n{}\n--- got\n{}\n--- expected\n{}\n",
        case["name"],
        serde_json::to_string_pretty(&case[input_key]).unwrap(),
        serde_json::to_string_pretty(&got).unwrap(),
        serde_json::to_string_pretty(&expected).unwrap(),
    );
}

#[test]
fn extract_display_items_fixtures() {
    let all = cases(include_str!("fixtures/extract_display_items.json"));
    assert!(all.len() > 40);
    for case in &all {
        check(
            case,
            "message",
            "items",
            extract_display_items(&&case["message"]),
        );
    }
}

#[test]
fn to_display_messages_fixtures() {
    let all = cases(include_str!("fixtures/to_display_messages.json"));
    for case in &all {
        let options = case.get("options");
        check(
            case,
            "messages",
            "records",
            to_display_messages(&&case["messages"], options.as_ref()),
        );
    }
}

#[test]
fn every_record_of_a_conversation_has_the_template_keys_in_order() {
    let all = cases(include_str!("fixtures/to_display_messages.json"));
    let records = to_display_messages(&&all[0]["messages"], None).unwrap();
    let text = serde_json::to_string(&records[0]).unwrap();
    assert!(
        text.starts_with(
            r#"{"conversation_id":null,"message_type":"user","content_type":"text","content":"#
        ),
        "{text}"
    );
    assert!(
        text.ends_with(r#""sequence":0,"status":"completed","tool_call_id":null,"metadata":{}}"#),
        "{text}"
    );
}
