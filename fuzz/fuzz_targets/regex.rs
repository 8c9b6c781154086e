//! Fuzz target `regex`: see `lexq_fuzz::regex`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| lexq_fuzz::regex(data));
