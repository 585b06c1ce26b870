use chat_display::providers::WireProtocol;
use chat_display::stream::{Chunk, Patch, StreamAccumulator};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let proto = WireProtocol::parse(&args[1]).unwrap();
    let text = std::fs::read(&args[2]).unwrap();
    let mut acc = StreamAccumulator::new(proto);
    let patches = acc.push(Chunk::Bytes(&text));
    for p in &patches {
        println!(
            "{}",
            match p {
                Patch::Add(r) => format!("add {}", serde_json::to_string(r).unwrap()),
                Patch::Append { index, text, .. } => format!("append {index} {text:?}"),
                Patch::Replace { index, record } =>
                    format!("replace {index} {}", serde_json::to_string(record).unwrap()),
                Patch::Arguments { index, changes } => format!("args {index} {changes:?}"),
            }
        );
    }
    println!(
        "done={} message={}",
        acc.done(),
        serde_json::to_string(&acc.message().unwrap()).unwrap()
    );
    for r in acc.records() {
        println!("{}", serde_json::to_string(r).unwrap());
    }
}
