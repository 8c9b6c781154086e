//! Fuzz target `wordlist`: see `lexq_fuzz::wordlist`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| lexq_fuzz::wordlist(data));
