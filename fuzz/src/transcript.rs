//! Any bytes as a Transcript's text: loading never panics, and every record, its text, a search
//! and an append work on whatever loaded. A loaded text that is a JSON array gives as many records
//! as toDisplayMessages of its good messages would, at least. A search finds exactly the records
//! whose lowercased text contains the lowercased query, for a query cut from one record's text
//! (uppercased, so that case folding is exercised) and for a few fixed ones. An array of good
//! messages gives the records `to_display_messages` gives for the same text parsed by serde_json,
//! and opened then read a few elements at a time it gives the records loading it whole gives (and
//! for text `from_json` refuses, its error from `open` or from one of the reads).
use chat_display::json::doc::RustEngine;
use chat_display::transcript::Transcript;

/// Every number as the double it stands for, as `JSON.parse` reads it (serde_json keeps `152.0` a
/// float and `152` an integer; the document, like JavaScript, has one number for both).
fn numbers_as_doubles(value: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::Number(n) => n
            .as_f64()
            .and_then(serde_json::Number::from_f64)
            .map_or(Value::Null, Value::Number),
        Value::Array(items) => Value::Array(items.into_iter().map(numbers_as_doubles).collect()),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (k, numbers_as_doubles(v)))
                .collect(),
        ),
        other => other,
    }
}

/// The target: `fuzz_targets/transcript.rs` runs it under libFuzzer, `tests/fuzz_replay.rs` over seeds.
pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = serde_json::from_str::<serde_json::Value>(text);
    let mut t = match Transcript::<RustEngine>::from_json(text.to_string()) {
        Ok(t) => t,
        Err(error) => {
            // What JSON.parse (serde_json here) reads as an array or {messages} must load.
            if let Ok(value) = parsed {
                assert!(!value.is_array() && !value.get("messages").is_some_and(|m| m.is_array()));
            }
            // Opened (a top-level array is parsed as it is read), the same error comes from open
            // or from one read, which ends reading.
            if let Ok(mut sliced) = Transcript::<RustEngine>::open(text.to_string()) {
                let k = 1 + data.first().map_or(0, |b| usize::from(b % 7));
                let mut errors = Vec::new();
                loop {
                    let read = sliced.read(k);
                    errors.extend(read.error);
                    if read.done {
                        break;
                    }
                }
                assert_eq!(errors, [error], "read in slices of {k}");
                assert!(sliced.read(k).error.is_none());
            }
            return;
        }
    };
    let n = t.len();
    let records = serde_json::to_value(t.records(0, n))
        .ok()
        .map(numbers_as_doubles);
    // Opened and read a slice at a time (of a size the data picks), the same records.
    if let Ok(mut sliced) = Transcript::<RustEngine>::open(text.to_string()) {
        let k = 1 + data.first().map_or(0, |b| usize::from(b % 7));
        while !sliced.read(k).done {}
        let again = serde_json::to_value(sliced.records(0, sliced.len()))
            .ok()
            .map(numbers_as_doubles);
        assert_eq!(again, records, "read in slices of {k}");
    } else {
        panic!("from_json loaded what open refused");
    }
    // Read from the document, a conversation of good messages gives the records toDisplayMessages
    // gives when it reads the same messages parsed by serde_json (duplicate keys, escaped keys
    // and all).
    if let Ok(value) = &parsed {
        let messages_only = value
            .as_array()
            .is_some_and(|a| a.iter().all(|m| m.get("content_type").is_none()));
        if messages_only {
            if let Ok(want) = chat_display::to_display_messages(&value, None) {
                let want = serde_json::to_value(want).ok().map(numbers_as_doubles);
                assert_eq!(records, want, "records");
            }
        }
    }
    let lower = |s: &str| <RustEngine as chat_display::json::doc::Engine>::lowercase(s);
    let texts: Vec<Option<String>> = (0..n).map(|i| t.to_text(i)).collect();
    let mut queries = vec![
        "a".to_string(),
        "É".to_string(),
        "aa".to_string(),
        String::new(),
    ];
    if let Some(Some(text)) = texts.get(data.len() % n.max(1)) {
        // A piece of the text, at character boundaries the input's length picks.
        let chars: Vec<char> = text.chars().collect();
        let from = data.len() % (chars.len() + 1);
        let to = (from + 1 + data.len() % 7).min(chars.len());
        queries.push(chars[from..to].iter().collect::<String>().to_uppercase());
    }
    for query in &queries {
        let q = lower(query);
        let want: Vec<u32> = (0..n as u32)
            .filter(|&i| {
                texts[i as usize]
                    .as_deref()
                    .is_some_and(|text| lower(text).contains(&q))
            })
            .collect();
        assert_eq!(t.search(query, None), want, "query {query:?}");
        assert_eq!(
            t.search(query, Some(1)),
            want[..want.len().min(1)],
            "query {query:?}, limit 1"
        );
    }
    let _ = t.append(
        r#"{"role": "tool", "tool_results": [{"tool_call_id": "x", "name": "f"}]}"#.to_string(),
    );
}
