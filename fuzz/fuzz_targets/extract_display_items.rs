#![no_main]
// The checks are in fuzz/src/extract_display_items.rs, which tests/fuzz_replay.rs also runs over the fixtures.
libfuzzer_sys::fuzz_target!(|data: &[u8]| chat_display_fuzz::extract_display_items::run(data));
