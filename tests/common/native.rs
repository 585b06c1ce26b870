//! The native tests' kit: fixture cases as serde_json values and the one way a case's outcome is
//! compared with its expectation.

use chat_display::{extract_display_items, to_display_messages, Error};
use serde::Serialize;
use serde_json::{json, Value};

/// The cases of a fixture file that is a JSON array.
pub fn cases(text: &str) -> Vec<Value> {
    serde_json::from_str(text).expect("fixture file is JSON")
}

/// A call's outcome as fixture JSON: `{output_key: value}`, or `{"error": {code, path}}`. An
/// error's message must name its path, and hold the case's wording when the case gives one
/// (`error.message`, upstream's words, or `message_contains`).
pub fn outcome<T: Serialize>(case: &Value, output_key: &str, got: Result<T, Error>) -> Value {
    match got {
        Ok(value) => json!({ output_key: serde_json::to_value(value).expect("serializable") }),
        Err(e) => {
            assert!(
                e.message.contains(&e.path),
                "message names the path: {}",
                e.message
            );
            let wording = case["error"]["message"].as_str();
            if let Some(part) = wording.or(case["message_contains"].as_str()) {
                assert!(
                    e.message.contains(part),
                    "{}: message {:?} has {part:?}",
                    case["name"],
                    e.message
                );
            }
            json!({"error": {"code": e.code.as_str(), "path": e.path}})
        }
    }
}

/// What a case expects, in the shape of [`outcome`].
pub fn expected(case: &Value, output_key: &str) -> Value {
    match case.get("error") {
        Some(error) => json!({ "error": {"code": error["code"], "path": error["path"]} }),
        None => json!({ output_key: case[output_key] }),
    }
}

/// Asserts `got == expected`, printing the case's name, its input, got and expected in labelled
/// blocks when they differ.
#[track_caller]
pub fn same(case: &Value, input: &Value, got: &Value, expected: &Value) {
    assert!(
        got == expected,
        "\n--- case\n{}\n--- input\n{}\n--- got\n{}\n--- expected\n{}\n",
        case["name"],
        serde_json::to_string_pretty(input).unwrap(),
        serde_json::to_string_pretty(got).unwrap(),
        serde_json::to_string_pretty(expected).unwrap(),
    );
}

/// Runs one case: `got` (the call on `input`) against the case's `output_key` or its error.
#[track_caller]
pub fn check<T: Serialize>(case: &Value, input: &Value, output_key: &str, got: Result<T, Error>) {
    same(
        case,
        input,
        &outcome(case, output_key, got),
        &expected(case, output_key),
    );
}

/// JSON text with object keys sorted, so that a comparison does not depend on key order.
pub fn sorted(value: &Value) -> String {
    match value {
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(sorted).collect::<Vec<_>>().join(",")
        ),
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let entries: Vec<String> = keys
                .into_iter()
                .map(|k| format!("{}:{}", json!(k), sorted(&map[k])))
                .collect();
            format!("{{{}}}", entries.join(","))
        }
        other => other.to_string(),
    }
}

/// The eleven fields of a citation, in Sycophant's order (docs/API.md "Rich provider content"):
/// written out from the spec rather than taken from `src/message.rs`, so that a test of the order
/// fails when the code's list changes.
pub const CITATION_FIELDS: [&str; 11] = [
    "type",
    "cited_text",
    "url",
    "title",
    "source",
    "file_id",
    "document_index",
    "document_title",
    "start_index",
    "end_index",
    "unit",
];

/// Runs every case of an extractDisplayItems fixture file (`message` to `items`); returns how many.
pub fn check_display_items(file: &str) -> usize {
    let all = cases(file);
    for case in &all {
        let got = extract_display_items(&&case["message"]);
        check(case, &case["message"], "items", got);
    }
    all.len()
}

/// Runs every case of a toDisplayMessages fixture file (`messages` and `options` to `records`);
/// returns how many.
pub fn check_display_messages(file: &str) -> usize {
    let all = cases(file);
    for case in &all {
        let got = to_display_messages(&&case["messages"], case.get("options").as_ref());
        check(case, &case["messages"], "records", got);
    }
    all.len()
}
