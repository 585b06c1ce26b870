//! The fuzz targets' checks, one module each: `fuzz_targets/` runs them under libFuzzer
//! (`fuzz/run.sh`), and the main crate's `tests/fuzz_replay.rs` runs them over seeds made from the
//! fixtures on the stable toolchain, in `cargo test`.
pub mod expansion;
pub mod extract_display_items;
pub mod partial_json;
pub mod providers;
pub mod records;
pub mod stream;
pub mod sycophant;
pub mod to_display_messages;
pub mod to_text;
pub mod transcript;
pub mod transports;
