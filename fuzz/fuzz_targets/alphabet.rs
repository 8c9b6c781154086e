//! Fuzz target `alphabet`: see `lexq_fuzz::alphabet`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| lexq_fuzz::alphabet(data));
