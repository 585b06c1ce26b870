//! Native fixture tests of display-message records and their search text: every case in
//! tests/fixtures/records.json, to_text.json and floats.json runs here, and again through the
//! JavaScript boundary (tests/boundary_records.rs, tests/js/records.test.mjs).
#![cfg(not(target_arch = "wasm32"))]

use chat_display::elixir::{
    float_inspect, float_to_string, inspect, interpolate, ToText, MAX_DEPTH,
};
use chat_display::record::{change_display_message, new_display_message, validate_display_message};
use chat_display::text::to_text;
use chat_display::to_display_messages;
use serde_json::{json, Value};

mod common;
use common::*;

fn run_record_case(case: &Value) -> Value {
    let attrs = &case["attrs"];
    let record = &case["record"];
    match case["call"].as_str() {
        Some("new") => outcome(
            case,
            "changeset",
            new_display_message(case.get("conversation_id").as_ref(), &attrs),
        ),
        Some("change") => outcome(case, "changeset", change_display_message(&record, &attrs)),
        Some("validate") => outcome(case, "changeset", validate_display_message(&record)),
        other => panic!("unknown call {other:?}"),
    }
}

#[test]
fn record_fixtures() {
    let all = cases(include_str!("fixtures/records.json"));
    assert!(all.len() > 100);
    for case in &all {
        same(
            case,
            case,
            &run_record_case(case),
            &expected(case, "changeset"),
        );
    }
}

#[test]
fn changeset_and_record_keys_come_in_the_documented_order() {
    let record = json!({"inserted_at": "t", "metadata": {}, "status": "pending", "sequence": 1,
        "tool_call_id": "c", "content": {"text": "x"}, "content_type": "text", "message_type": "user",
        "conversation_id": "c-1", "id": "i"});
    let changeset = validate_display_message(&&record).unwrap();
    assert_eq!(
        serde_json::to_string(&changeset).unwrap(),
        r#"{"valid":true,"errors":{},"record":{"id":"i","conversation_id":"c-1","message_type":"user","content_type":"text","content":{"text":"x"},"tool_call_id":"c","sequence":1,"status":"pending","metadata":{},"inserted_at":"t"}}"#
    );
    let attrs = json!({"status": "x", "message_type": 1, "content": 2, "sequence": -1});
    let changeset = new_display_message(None, &&attrs).unwrap();
    let text = serde_json::to_string(
        &changeset
            .errors
            .iter()
            .map(|(f, _)| f.name())
            .collect::<Vec<_>>(),
    )
    .unwrap();
    assert_eq!(
        text,
        r#"["content","content_type","conversation_id","message_type","sequence","status"]"#
    );
}

#[test]
fn bad_attrs_never_throw() {
    let values = [
        json!(null),
        json!(true),
        json!(-1),
        json!(1.5),
        json!(""),
        json!("  "),
        json!("x"),
        json!([]),
        json!([1]),
        json!({}),
        json!({"text": null}),
        json!(1e300),
    ];
    let fields = [
        "message_type",
        "content",
        "tool_call_id",
        "content_type",
        "sequence",
        "status",
        "metadata",
        "conversation_id",
        "id",
        "inserted_at",
    ];
    for field in fields {
        for value in &values {
            let attrs = json!({ field: value });
            assert!(
                new_display_message(Some(&&json!("c")), &&attrs).is_ok(),
                "{attrs}"
            );
            assert!(
                new_display_message(Some(&value), &&attrs).is_ok(),
                "{attrs}"
            );
            assert!(change_display_message(&&attrs, &&attrs).is_ok(), "{attrs}");
            assert!(validate_display_message(&&attrs).is_ok(), "{attrs}");
            // toText has no error to give: it must simply return.
            let _ = to_text(&&attrs);
        }
    }
}

/// Every record `toDisplayMessages` makes passes `validateDisplayMessage` once it has a
/// conversation id, and comes back unchanged, with and without `media` (attachments' records).
#[test]
fn to_display_messages_records_are_valid() {
    let all = cases(include_str!("fixtures/to_display_messages.json"));
    let mut checked = 0;
    let mut attachments = 0;
    for (case, media) in all.iter().flat_map(|c| [(c, false), (c, true)]) {
        if case.get("error").is_some() {
            continue;
        }
        let options = json!({"conversation_id": "conv-1", "media": media});
        let records = to_display_messages(&&case["messages"], Some(&&options)).unwrap();
        attachments += records
            .iter()
            .filter(|r| {
                let t = serde_json::to_value(r).unwrap()["content_type"].clone();
                t == "image" || t == "file_reference"
            })
            .count();
        for record in records {
            let record = serde_json::to_value(&record).unwrap();
            let changeset =
                serde_json::to_value(validate_display_message(&&record).unwrap()).unwrap();
            assert_eq!(
                changeset["valid"],
                json!(true),
                "{}: {record}\n{changeset}",
                case["name"]
            );
            assert_eq!(changeset["record"], record, "{}", case["name"]);
            checked += 1;
        }
    }
    assert!(checked > 20, "{checked}");
    assert!(attachments >= 6, "{attachments}");
}

#[test]
fn to_text_fixtures() {
    let all = cases(include_str!("fixtures/to_text.json"));
    assert!(all.len() > 60);
    for case in &all {
        let got = serde_json::to_value(to_text(&&case["record"])).unwrap();
        same(case, case, &got, &case["text"]);
    }
}

/// Float formatting at the rule's boundaries, as OTP 25 prints them: directly, and through
/// toText's inspect (tool call arguments) and interpolation (tool result content).
#[test]
fn float_fixtures() {
    let all = cases(include_str!("fixtures/floats.json"));
    assert!(all.len() >= 30);
    for case in &all {
        let value = case["value"].as_f64().expect("a number");
        assert!(case["value"].is_f64(), "{case}: read as a float natively");
        assert_eq!(
            float_inspect(value),
            case["inspect"].as_str().unwrap(),
            "inspect {case}"
        );
        assert_eq!(
            float_to_string(value),
            case["str"].as_str().unwrap(),
            "str {case}"
        );
        let call = json!({"content_type": "tool_call", "content": {"name": "f", "arguments": case["value"]}});
        let expected = format!("Tool call: f({})", case["inspect"].as_str().unwrap());
        assert_eq!(to_text(&&call).as_string().unwrap(), expected);
        let result = json!({"content_type": "tool_result", "content": {"name": "f", "content": case["value"]}});
        let expected = format!("Tool result from f: {}", case["str"].as_str().unwrap());
        assert_eq!(to_text(&&result).as_string().unwrap(), expected);
    }
}

/// Nesting past the depth limit renders as `...`, and 100,000 levels do not overflow the stack.
#[test]
fn deep_values_render_dots_past_the_limit() {
    fn nested(levels: usize) -> Value {
        let mut value = json!(1);
        for _ in 1..levels {
            value = Value::Array(vec![value]);
        }
        value
    }
    let at_limit = nested(MAX_DEPTH);
    let text = inspect(&&at_limit, ToText);
    assert_eq!(
        text,
        format!(
            "{}1{}",
            "[".repeat(MAX_DEPTH - 1),
            "]".repeat(MAX_DEPTH - 1)
        )
    );
    let past = nested(MAX_DEPTH + 1);
    assert_eq!(
        inspect(&&past, ToText),
        format!("{}...{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH))
    );
    let chardata = nested(MAX_DEPTH + 5);
    assert_eq!(interpolate(&&chardata).as_deref(), Some("..."));

    // Built by moving values in: `json!` would copy (recursively) what it is given.
    let content = |arguments: Value| {
        let mut content = json!({"call_id": "c", "name": "t"});
        content["arguments"] = arguments;
        content
    };
    let call = |arguments: Value| {
        let mut record = json!({"content_type": "tool_call"});
        record["content"] = content(arguments);
        record
    };
    let record = call(nested(100_000));
    let text = to_text(&&record).as_string().unwrap();
    assert!(
        text.starts_with("Tool call: t([[[") && text.contains("..."),
        "{}",
        &text[..40]
    );
    // Equal deep contents compared on a change: bounded, no overflow.
    let mut attrs = json!({});
    attrs["content"] = content(nested(100_000));
    let changeset = change_display_message(&&record, &&attrs).unwrap();
    let fields: Vec<&str> = changeset.errors.iter().map(|(f, _)| f.name()).collect();
    assert_eq!(
        fields,
        ["conversation_id", "message_type"],
        "only the fields the record lacks"
    );
    // Dropping a 100,000-deep serde_json value recurses; leak these instead.
    std::mem::forget(changeset);
    std::mem::forget(record);
    std::mem::forget(attrs);
}
