//! Fuzz target `pattern`: see `lexq_fuzz::pattern`.
#![no_main]
libfuzzer_sys::fuzz_target!(init: lexq_fuzz::init(), |data: &[u8]| lexq_fuzz::pattern(data));
