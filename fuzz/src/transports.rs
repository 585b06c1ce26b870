//! Any bytes through each transport's decoder (`src/stream/`: server-sent events, AWS
//! event-stream frames, NDJSON, a JSON array): the first byte seeds the size of the pieces the rest
//! is cut into. Decoding never panics, and what the pieces give is what the whole gives: a chunk
//! may end anywhere, inside a line, a frame or a UTF-8 character.
use chat_display::stream::{eventstream, json_array, ndjson, sse};

fn cut(rest: &[u8], first: u8) -> Vec<&[u8]> {
    rest.chunks(usize::from(first) % 23 + 1).collect()
}

/// The target: `fuzz_targets/transports.rs` runs it under libFuzzer, `tests/fuzz_replay.rs` over seeds.
pub fn run(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else { return };
    let pieces = cut(rest, first);

    let sse = |chunks: &[&[u8]]| {
        let mut decoder = sse::Decoder::new();
        let mut out = Vec::new();
        chunks.iter().for_each(|c| decoder.push(c, &mut out));
        out
    };
    assert_eq!(sse(&[rest]), sse(&pieces), "sse");

    let frames = |chunks: &[&[u8]]| {
        let mut decoder = eventstream::Decoder::new();
        let mut out = Vec::new();
        chunks.iter().for_each(|c| decoder.push(c, &mut out));
        out
    };
    assert_eq!(frames(&[rest]), frames(&pieces), "eventstream");

    let values = |chunks: &[&[u8]]| {
        let mut decoder = ndjson::Decoder::new();
        let mut out = Vec::new();
        chunks.iter().for_each(|c| decoder.push(c, &mut out));
        out
    };
    assert_eq!(values(&[rest]), values(&pieces), "ndjson");

    let array = |chunks: &[&[u8]]| {
        let mut decoder = json_array::Decoder::new();
        let mut out = Vec::new();
        chunks.iter().for_each(|c| decoder.push(c, &mut out));
        out
    };
    assert_eq!(array(&[rest]), array(&pieces), "json_array");
}
