#![no_main]
// The checks are in fuzz/src/transports.rs, which tests/fuzz_replay.rs also runs over the fixtures.
libfuzzer_sys::fuzz_target!(|data: &[u8]| chat_display_fuzz::transports::run(data));
