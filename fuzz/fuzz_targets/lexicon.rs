//! Fuzz target `lexicon`: see `lexq_fuzz::lexicon`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| lexq_fuzz::lexicon(data));
