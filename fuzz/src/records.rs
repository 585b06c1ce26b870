//! Any JSON as the arguments of the record functions (an array's elements are the arguments):
//! a changeset or an error, never a panic; every changeset serializes.
use serde_json::Value;

/// The target: `fuzz_targets/records.rs` runs it under libFuzzer, `tests/fuzz_replay.rs` over seeds.
pub fn run(data: &[u8]) {
    let Ok(value) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let null = Value::Null;
    let (a, b) = match &value {
        Value::Array(items) => (
            items.first().unwrap_or(&null),
            items.get(1).unwrap_or(&null),
        ),
        other => (other, other),
    };
    let conversation_id = Some(a).filter(|v| !v.is_null());
    for result in [
        chat_display::record::new_display_message(conversation_id.as_ref(), &b),
        chat_display::record::change_display_message(&a, &b),
        chat_display::record::validate_display_message(&a),
        chat_display::record::validate_display_message(&&value),
    ] {
        if let Ok(changeset) = result {
            serde_json::to_string(&changeset).expect("changeset serializes");
        }
    }
}
