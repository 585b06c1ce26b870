//! Any JSON text as a conversation (and its first element, when an array, as the options): records
//! or an error, never a panic; every record of a successful call serializes.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else { return };
    let options = value.as_array().and_then(|a| a.first());
    if let Ok(records) = chat_display::to_display_messages(&&value, options.as_ref()) {
        serde_json::to_string(&records).expect("records serialize");
    }
});
