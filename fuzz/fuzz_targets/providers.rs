#![no_main]
// The checks are in fuzz/src/providers.rs, which tests/fuzz_replay.rs also runs over the fixtures.
libfuzzer_sys::fuzz_target!(|data: &[u8]| chat_display_fuzz::providers::run(data));
