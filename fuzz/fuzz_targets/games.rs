//! libFuzzer target: the `games` check of `fuzz/harness.rs` on every input.

#![no_main]

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::games(data));
