//! Any bytes as a provider stream: the first byte picks the protocol and the size of the pieces
//! the rest is cut into. Pushing never panics, and the patches of every push, applied in order,
//! give `records()`.
use chat_display::json::partial::apply;
use chat_display::providers::{Parsed, WireProtocol};
use chat_display::stream::{Chunk, Patch, StreamAccumulator};

/// The target: `fuzz_targets/stream.rs` runs it under libFuzzer, `tests/fuzz_replay.rs` over seeds.
pub fn run(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let streaming: Vec<WireProtocol> = WireProtocol::ALL
        .into_iter()
        .filter(|p| chat_display::providers::has_stream(*p))
        .collect();
    let protocol = streaming[usize::from(first) % streaming.len()];
    let size = usize::from(first) / streaming.len() % 16 + 1;
    let mut acc = StreamAccumulator::new(protocol);
    let mut mirror: Vec<Parsed> = Vec::new();
    for piece in rest.chunks(size) {
        for patch in acc.push(Chunk::Bytes(piece)) {
            match patch {
                Patch::Add(record) => mirror.push(record),
                Patch::Replace { index, record } => mirror[index] = record,
                Patch::Append { index, field, text } => {
                    match mirror[index]
                        .get_mut("content")
                        .and_then(|c| c.get_mut(field))
                    {
                        Some(Parsed::String(s)) => s.push_str(&text),
                        other => panic!("append to {other:?}"),
                    }
                }
                Patch::Arguments { index, changes } => {
                    let arguments = mirror[index]
                        .get_mut("content")
                        .and_then(|c| c.get_mut("arguments"))
                        .expect("arguments patch on a tool call");
                    for change in &changes {
                        apply(arguments, change);
                    }
                }
            }
        }
    }
    assert_eq!(mirror.as_slice(), acc.records());
    let _ = acc.message();
}
