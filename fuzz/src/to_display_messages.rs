//! Any JSON text as a conversation (and its first element, when an array, as the options): records
//! or an error, never a panic; every record of a successful call serializes.

/// The target: `fuzz_targets/to_display_messages.rs` runs it under libFuzzer, `tests/fuzz_replay.rs` over seeds.
pub fn run(data: &[u8]) {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    let options = value.as_array().and_then(|a| a.first());
    if let Ok(records) = chat_display::to_display_messages(&&value, options.as_ref()) {
        serde_json::to_string(&records).expect("records serialize");
    }
}
