//! Builds the embedded default lexicon (ENABLE, `indexes/enable1.txt`)
//! into `OUT_DIR/enable1.lexq` with the library's own builder, whose
//! source files are compiled here as modules, so the built file is never
//! committed and always matches the builder and the format of this
//! checkout.

#![allow(dead_code, unused_imports)]

#[path = "src/alphabet.rs"]
mod alphabet;
#[path = "src/atomic.rs"]
mod atomic;
#[path = "src/builder.rs"]
mod builder;
#[path = "src/compose.rs"]
mod compose;
#[path = "src/error.rs"]
mod error;
#[path = "src/format.rs"]
mod format;
#[path = "src/fstwrite.rs"]
mod fstwrite;
#[path = "src/gaddag.rs"]
mod gaddag;
#[path = "src/gcg.rs"]
mod gcg;
#[path = "src/graph.rs"]
mod graph;
#[path = "src/input.rs"]
mod input;
#[path = "src/letterset.rs"]
mod letterset;
#[path = "src/node.rs"]
mod node;
#[path = "src/position_error.rs"]
mod position_error;
#[path = "src/wordlist.rs"]
mod wordlist;

use atomic::check_output;

fn main() {
    // The modules above are files of `src/`: a change there, or to the
    // word list, rebuilds the lexicon (the library recompiles then anyway).
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=indexes/enable1.txt");
    if std::env::var_os("CARGO_FEATURE_EMBEDDED").is_none() {
        return;
    }
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"))
        .join("enable1.lexq");
    let mut list = wordlist::WordList::new(alphabet::Alphabet::english()).strict(true);
    list.read_path(std::path::Path::new("indexes/enable1.txt"))
        .expect("indexes/enable1.txt reads cleanly");
    let built = builder::build(&list, &mut ()).expect("ENABLE builds");
    std::fs::write(&out, &built.bytes).expect("writing the embedded lexicon");
}
