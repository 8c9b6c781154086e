//! lexq's integration tests, one binary: each file of this folder a
//! module (as ripgrep's tests are), so the library is linked once rather
//! than once per file. `tests/alloc.rs` stays a binary of its own: its
//! counting global allocator would count every other test's allocations,
//! and `tests/layers.rs` reads only the source (it links no library).
//! The shared helpers are `tests/common/`.

#[path = "../common/mod.rs"]
mod common;
// The fuzz targets' own code, which crafted and fuzz_replay run.
#[path = "../../fuzz/src/lib.rs"]
#[allow(dead_code)]
mod targets;

mod brute;
mod cgp;
mod corrupt;
mod crafted;
mod endgame;
mod files;
mod find;
mod fst_view;
mod fstwrite;
mod fuzz_replay;
mod game;
mod gcg_games;
mod gcg_variants;
mod infer;
mod kwg;
mod languages;
mod leaves;
mod lexicon_ops;
mod movegen;
mod movegen_brute;
mod oracle;
mod probability;
mod raw;
mod sim;
mod upgrade;
