//! Any bytes as JSON text streamed in fragments: the first byte seeds where the rest (when it is
//! UTF-8) is cut. The parser never panics; its changes, applied in order, give what serde_json
//! reads from the whole text whenever serde_json reads it, and the same value as the text fed in
//! one piece; a text the parser calls complete is one serde_json reads, except where the two
//! differ on purpose (a lone surrogate escape, U+FFFD here as JSON.parse accepts it; exactly
//! MAX_DEPTH levels of nesting, one past serde_json's limit). The changes of each push, compacted,
//! give the same value as they do one by one.
use chat_display::json::partial::{apply, compact, PartialJson};
use chat_display::providers::Parsed;

/// Feeds `text` in fragments whose lengths follow `seed` (0: the whole text at once); returns
/// finish's result and the value the changes build.
fn feed(text: &str, seed: u8) -> (bool, Parsed) {
    let mut p = PartialJson::new();
    let mut value = Parsed::Null;
    let mut out = Vec::new();
    let mut state = u32::from(seed) | 0x100;
    let mut from = 0;
    while from < text.len() {
        let mut to = if seed == 0 {
            text.len()
        } else {
            // Fragments of 1 to 2 * (seed % 16) + 1 bytes, moved to the next char boundary.
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            from + 1 + (state >> 16) as usize % (2 * usize::from(seed % 16) + 1)
        };
        to = to.min(text.len());
        while !text.is_char_boundary(to) {
            to += 1;
        }
        let was_failed = p.failed();
        out.clear();
        p.push(&text[from..to], &mut out);
        assert!(!was_failed || out.is_empty(), "changes after a failure");
        let mut compacted = value.clone();
        for change in compact(out.clone()) {
            apply(&mut compacted, &change);
        }
        for change in &out {
            apply(&mut value, change);
        }
        assert_eq!(compacted, value, "compacted changes give the same value");
        from = to;
    }
    out.clear();
    let ok = p.finish(&mut out);
    assert_eq!(ok, p.complete());
    assert_eq!(ok, !p.failed());
    for change in &out {
        apply(&mut value, change);
    }
    (ok, value)
}

/// The target: `fuzz_targets/partial_json.rs` runs it under libFuzzer, `tests/fuzz_replay.rs` over seeds.
pub fn run(data: &[u8]) {
    let Some((&seed, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let (ok, value) = feed(text, seed);
    let whole = feed(text, 0);
    assert_eq!(ok, whole.0, "the cut changes nothing");
    assert_eq!(value, whole.1, "the cut changes nothing");
    match serde_json::from_str::<Parsed>(text) {
        Ok(expected) => {
            assert!(ok, "serde_json reads it");
            assert_eq!(value, expected);
        }
        Err(e) => {
            let m = e.to_string();
            assert!(
                !ok || m.contains("lone leading surrogate")
                    || m.contains("unexpected end of hex escape")
                    || m.contains("recursion limit exceeded"),
                "complete but serde_json says {m}"
            );
        }
    }
}
