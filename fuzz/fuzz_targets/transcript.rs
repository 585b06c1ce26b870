//! Any bytes as a Transcript's text: loading never panics, and every record, its text, a search
//! and an append work on whatever loaded. A loaded text that is a JSON array gives as many records
//! as toDisplayMessages of its good messages would, at least.
#![no_main]
use chat_display::doc::RustEngine;
use chat_display::transcript::Transcript;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let parsed = serde_json::from_str::<serde_json::Value>(text);
    let Ok(mut t) = Transcript::<RustEngine>::from_json(text.to_string()) else {
        // What JSON.parse (serde_json here) reads as an array or {messages} must load.
        if let Ok(value) = parsed {
            assert!(!value.is_array() && !value.get("messages").is_some_and(|m| m.is_array()));
        }
        return;
    };
    let n = t.len();
    serde_json::to_string(&t.records(0, n)).ok();
    for i in 0..n.min(64) {
        let _ = t.to_text(i);
    }
    let _ = t.search("a", Some(5));
    let _ = t.search("É", None);
    let _ = t.append(r#"{"role": "tool", "tool_results": [{"tool_call_id": "x", "name": "f"}]}"#.to_string());
});
