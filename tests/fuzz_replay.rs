//! Every fuzz target's checks (fuzz/src/, the same code libFuzzer runs) over the seeds `fuzz/run.sh`
//! starts its corpora from: each object or array in the fixture files down to three levels (cut at
//! 4 KiB, as the fuzzer reads them), and each recorded stream, whole, at every piece size. These run in `cargo test` on the stable
//! toolchain; the fuzzer itself (nightly, cargo-fuzz) runs with `npm run fuzz` and in the long runs
//! of tests/FUZZING.md.

use std::fs;
use std::path::Path;

use chat_display::providers::WireProtocol;
use serde_json::Value;

#[path = "../fuzz/src/expansion.rs"]
mod expansion;
#[path = "../fuzz/src/extract_display_items.rs"]
mod extract_display_items;
#[path = "../fuzz/src/partial_json.rs"]
mod partial_json;
#[path = "../fuzz/src/providers.rs"]
mod providers;
#[path = "../fuzz/src/records.rs"]
mod records;
#[path = "../fuzz/src/stream.rs"]
mod stream;
#[path = "../fuzz/src/sycophant.rs"]
mod sycophant;
#[path = "../fuzz/src/to_display_messages.rs"]
mod to_display_messages;
#[path = "../fuzz/src/to_text.rs"]
mod to_text;
#[path = "../fuzz/src/transcript.rs"]
mod transcript;
#[path = "../fuzz/src/transports.rs"]
mod transports;

/// Each object or array in the top-level fixture files, down to three levels, as JSON text (the
/// seeds of fuzz/run.sh's `seed_corpus`).
fn json_seeds() -> Vec<Vec<u8>> {
    fn seed(value: &Value, depth: u32, out: &mut Vec<Vec<u8>>) {
        let children: Vec<&Value> = match value {
            Value::Array(items) => items.iter().collect(),
            Value::Object(map) => map.values().collect(),
            _ => return,
        };
        let mut text = serde_json::to_vec(value).expect("a fixture value serializes");
        // As libFuzzer reads a seed: `-max_len=4096` (fuzz/run.sh) cuts a longer one there.
        text.truncate(4096);
        out.push(text);
        if depth < 3 {
            children
                .into_iter()
                .for_each(|child| seed(child, depth + 1, out));
        }
    }
    let mut files: Vec<_> = fs::read_dir("tests/fixtures")
        .expect("tests/fixtures")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for file in files {
        let value: Value = serde_json::from_slice(&fs::read(&file).expect("a fixture file"))
            .expect("fixture JSON");
        seed(&value, 0, &mut out);
    }
    assert!(out.len() > 1000, "the fixtures give {} seeds", out.len());
    out
}

/// Each recorded stream, as the `stream` and `transports` targets read their input: a first byte
/// that picks the format (its index among the formats that stream) and the size of the pieces,
/// then the stream's bytes; every piece size from 1 to 16.
fn stream_seeds() -> Vec<Vec<u8>> {
    let streaming: Vec<WireProtocol> = WireProtocol::ALL
        .into_iter()
        .filter(|p| chat_display::providers::has_stream(*p))
        .collect();
    let names: Vec<&str> = WireProtocol::ALL
        .into_iter()
        .zip(WireProtocol::NAMES)
        .filter(|(p, _)| streaming.contains(p))
        .map(|(_, name)| name)
        .collect();
    let mut out = Vec::new();
    for (p, name) in names.iter().enumerate() {
        let dir = Path::new("tests/fixtures/streams").join(name);
        let mut files: Vec<_> = fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("a directory entry").path())
            .filter(|f| f.extension().is_some_and(|e| e == "sse" || e == "ndjson"))
            .collect();
        files.sort();
        assert!(!files.is_empty(), "no recorded stream for {name}");
        for file in files {
            let bytes = fs::read(&file).expect("a stream fixture");
            for size in 0..16 {
                let Ok(first) = u8::try_from(p + names.len() * size) else {
                    continue;
                };
                out.push([&[first][..], &bytes].concat());
            }
        }
    }
    out
}

fn replay(seeds: &[Vec<u8>], target: fn(&[u8])) {
    for seed in seeds {
        target(seed);
    }
}

#[test]
fn json_targets_over_the_fixture_seeds() {
    let seeds = json_seeds();
    replay(&seeds, extract_display_items::run);
    replay(&seeds, to_display_messages::run);
    replay(&seeds, to_text::run);
    replay(&seeds, records::run);
    replay(&seeds, expansion::run);
    replay(&seeds, sycophant::run);
}

#[test]
fn providers_over_the_fixture_seeds() {
    replay(&json_seeds(), providers::run);
}

#[test]
fn transcript_over_the_fixture_seeds() {
    replay(&json_seeds(), transcript::run);
}

/// The seeds that are arrays, cut short and given text after their end: JSON for their first
/// elements, not after them (a Transcript parses an array as it reads it).
#[test]
fn transcript_over_the_array_seeds_broken_late() {
    let arrays: Vec<Vec<u8>> = json_seeds()
        .into_iter()
        .filter(|s| s.first() == Some(&b'['))
        .collect();
    assert!(arrays.len() > 20, "{}", arrays.len());
    for seed in &arrays {
        for cut in [seed.len() / 2, seed.len().saturating_sub(2)] {
            transcript::run(seed.get(..cut).unwrap_or_default());
        }
        transcript::run(&[&seed[..], b" ]"].concat());
    }
}

#[test]
fn partial_json_over_the_fixture_seeds_cut_two_ways() {
    for seed in json_seeds() {
        // Fragments of 1 to 11 and of 1 to 31 bytes (the first byte's seed % 16, fuzz/src/partial_json.rs).
        for first in [5u8, 15] {
            partial_json::run(&[&[first][..], &seed].concat());
        }
    }
}

#[test]
fn stream_and_transports_over_every_recorded_stream() {
    let seeds = stream_seeds();
    replay(&seeds, stream::run);
    replay(&seeds, transports::run);
}
