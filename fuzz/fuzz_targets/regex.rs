//! Fuzz target `regex`: see `lexq_fuzz::regex`.
#![no_main]
libfuzzer_sys::fuzz_target!(init: lexq_fuzz::init(), |data: &[u8]| lexq_fuzz::regex(data));
