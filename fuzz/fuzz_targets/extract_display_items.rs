//! Any JSON text as a message: extraction returns items or an error, never panics, and its output
//! always serializes.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else { return };
    if let Ok(items) = chat_display::extract_display_items(&&value) {
        serde_json::to_string(&items).expect("items serialize");
    }
});
