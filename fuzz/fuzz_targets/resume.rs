//! libFuzzer target: the `resume` check of `fuzz/harness.rs` on every input.

#![no_main]

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::resume(data));
