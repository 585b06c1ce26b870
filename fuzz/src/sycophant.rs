//! Any JSON through the Sycophant decoder and constructors: canonical JSON or an error, never a
//! panic; decoding canonical JSON gives it back unchanged.
use serde_json::Value;

/// The target: `fuzz_targets/sycophant.rs` runs it under libFuzzer, `tests/fuzz_replay.rs` over seeds.
pub fn run(data: &[u8]) {
    let Ok(value) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    if let Ok(decoded) = chat_display::sycophant::decode(&&value) {
        let canonical = serde_json::to_value(&decoded).expect("decoded serializes");
        let again = chat_display::sycophant::decode(&&canonical).expect("canonical JSON decodes");
        assert_eq!(
            serde_json::to_value(&again).expect("serializes"),
            canonical,
            "fixed point"
        );
    }
    if let Ok(message) = chat_display::sycophant::user(&&value) {
        serde_json::to_string(&message).expect("message serializes");
    }
    if let Some([call, result]) = value.as_array().map(Vec::as_slice) {
        if let Ok(message) = chat_display::sycophant::tool_result(&call, &result) {
            serde_json::to_string(&message).expect("message serializes");
        }
    }
}
