//! Fuzz target `position`: see `lexq_fuzz::position`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| lexq_fuzz::position(data));
