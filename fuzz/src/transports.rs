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
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let pieces = cut(rest, first);

    // What a fresh decoder of each transport gives for the whole input and for its pieces.
    macro_rules! same_either_way {
        ($decoder:path, $name:literal) => {{
            let decode = |chunks: &[&[u8]]| {
                let mut decoder = <$decoder>::new();
                let mut out = Vec::new();
                chunks.iter().for_each(|c| decoder.push(c, &mut out));
                out
            };
            assert_eq!(decode(&[rest]), decode(&pieces), $name);
        }};
    }
    same_either_way!(sse::Decoder, "sse");
    same_either_way!(eventstream::Decoder, "eventstream");
    same_either_way!(ndjson::Decoder, "ndjson");
    same_either_way!(json_array::Decoder, "json_array");
}
