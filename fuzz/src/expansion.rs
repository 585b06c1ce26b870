//! Any JSON through expand (an array's elements are the arguments), isExpandable and
//! expandToolResults: a result or an error, never a panic; applying an expansion twice gives what
//! applying it once gives, unless what it inserted ends in a tool message with an expansion of its
//! own.
use serde_json::Value;

/// The target: `fuzz_targets/expansion.rs` runs it under libFuzzer, `tests/fuzz_replay.rs` over seeds.
pub fn run(data: &[u8]) {
    let Ok(value) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let null = Value::Null;
    let items: Vec<&Value> = match &value {
        Value::Array(items) => items.iter().collect(),
        other => vec![other],
    };
    let arg = |i: usize| *items.get(i).unwrap_or(&&null);
    if let Ok(result) = chat_display::expand::expand(&arg(0), &arg(1), items.get(2)) {
        serde_json::to_string(&result).expect("result serializes");
    }
    let _ = chat_display::expand::is_expandable(&&value);
    if let Ok(once) = chat_display::expand::expand_tool_results(&&value) {
        let once = serde_json::to_value(&once).expect("chain serializes");
        // Idempotent, unless what was inserted ends in a tool message with an expansion of its
        // own (inserted messages are kept as they are, unchecked): the second application then
        // expands that one, and may find its messages bad.
        let last = match &once {
            Value::Array(messages) => messages.last(),
            chain => chain.get("last_message"),
        };
        let expands_again = last
            .filter(|m| m["role"] == "tool")
            .and_then(|m| m["tool_results"].as_array())
            .is_some_and(|rs| {
                rs.iter()
                    .any(|r| chat_display::expand::is_expandable(&r).unwrap_or(false))
            });
        let twice = chat_display::expand::expand_tool_results(&&once);
        if !expands_again {
            let twice = twice.expect("an expanded chain expands again");
            assert_eq!(
                serde_json::to_value(&twice).expect("serializes"),
                once,
                "idempotent"
            );
        }
    }
}
