//! Builds the embedded default lexicon (ENABLE, `indexes/enable1.txt`) into
//! `OUT_DIR/enable1.lexq` with the library's own builder, whose source files
//! are included here as modules.

#![allow(dead_code)]

#[path = "src/alphabet.rs"]
mod alphabet;
#[path = "src/builder.rs"]
mod builder;
#[path = "src/error.rs"]
mod error;
#[path = "src/format.rs"]
mod format;
#[path = "src/fstwrite.rs"]
mod fstwrite;
#[path = "src/gaddag.rs"]
mod gaddag;
#[path = "src/letterset.rs"]
mod letterset;
#[path = "src/wordlist.rs"]
mod wordlist;

use std::path::{Path, PathBuf};

fn main() {
    for f in [
        "indexes/enable1.txt",
        "src/alphabet.rs",
        "src/builder.rs",
        "src/error.rs",
        "src/format.rs",
        "src/fstwrite.rs",
        "src/gaddag.rs",
        "src/letterset.rs",
        "src/wordlist.rs",
    ] {
        println!("cargo:rerun-if-changed={f}");
    }
    if std::env::var_os("CARGO_FEATURE_EMBEDDED").is_none() {
        return;
    }
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("enable1.lexq");
    let mut list = wordlist::WordList::new(alphabet::Alphabet::english()).strict(true);
    list.read_path(Path::new("indexes/enable1.txt"))
        .expect("indexes/enable1.txt reads cleanly");
    let built = builder::build(&list, &mut ()).expect("ENABLE builds");
    built
        .write_atomic(&out)
        .expect("writing the embedded lexicon");
}
