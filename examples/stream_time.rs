use chat_display::providers::WireProtocol;
use chat_display::stream::{Chunk, StreamAccumulator};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let proto = WireProtocol::parse(&args[1]).unwrap();
    let text = std::fs::read_to_string(&args[2]).unwrap();
    let events: Vec<&str> = text.split_inclusive("\n\n").collect();
    for _ in 0..3 {
        let t = std::time::Instant::now();
        let mut acc = StreamAccumulator::new(proto);
        let mut n = 0;
        for e in &events {
            n += acc.push(Chunk::Bytes(e.as_bytes())).len();
        }
        println!("{} events, {} patches, {:?}", events.len(), n, t.elapsed());
    }
}
