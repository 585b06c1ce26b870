//! Any JSON text as a message: extraction returns items or an error, never panics, and its output
//! always serializes.

/// The target: `fuzz_targets/extract_display_items.rs` runs it under libFuzzer, `tests/fuzz_replay.rs` over seeds.
pub fn run(data: &[u8]) {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    if let Ok(items) = chat_display::extract_display_items(&&value) {
        serde_json::to_string(&items).expect("items serialize");
    }
}
