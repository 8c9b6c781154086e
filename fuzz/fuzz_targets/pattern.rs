//! Fuzz target `pattern`: see `lexq_fuzz::pattern`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| lexq_fuzz::pattern(data));
