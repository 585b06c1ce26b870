//! Any JSON as a record: toText never fails and never panics, for the value itself and, when it
//! is an array, for each element.

/// The target: `fuzz_targets/to_text.rs` runs it under libFuzzer, `tests/fuzz_replay.rs` over seeds.
pub fn run(data: &[u8]) {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    serde_json::to_string(&chat_display::text::to_text(&&value)).expect("text serializes");
    if let Some(items) = value.as_array() {
        for item in items {
            serde_json::to_string(&chat_display::text::to_text(&item)).expect("text serializes");
        }
    }
}
