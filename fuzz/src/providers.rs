//! Any JSON as a provider payload, read as each of the registry's formats and detected; what reads is
//! written back and read again. Messages or an error, never a panic.
use serde_json::{json, Value};

use chat_display::providers::WireProtocol;

const PROTOCOLS: [&str; WireProtocol::ALL.len()] = WireProtocol::NAMES;

/// The target: `fuzz_targets/providers.rs` runs it under libFuzzer, `tests/fuzz_replay.rs` over seeds.
pub fn run(data: &[u8]) {
    let Ok(payload) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let _ = chat_display::providers::detect_protocol(&&payload);
    for protocol in PROTOCOLS {
        let protocol = json!(protocol);
        if let Ok(messages) = chat_display::providers::from_provider(&&protocol, &&payload) {
            let messages = serde_json::to_value(&messages).expect("messages serialize");
            if let Ok(request) = chat_display::providers::to_provider(&&protocol, &&messages) {
                let request = serde_json::to_value(&request).expect("request serializes");
                let _ = chat_display::providers::from_provider(&&protocol, &&request);
            }
        }
        let _ = chat_display::providers::to_provider(&&protocol, &&payload);
    }
}
