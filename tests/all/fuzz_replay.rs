//! Replays the fuzzing corpus and every saved crash through the fuzz
//! targets' own code (`fuzz/src/lib.rs`, included here), so `cargo test`
//! keeps every input the fuzzer ever found interesting passing, without a
//! nightly toolchain.

use crate::targets;

use std::path::Path;

/// Runs `target` on every file under `fuzz/corpus/NAME` and
/// `fuzz/regressions/NAME`; returns how many it ran.
fn replay(name: &str, target: fn(&[u8])) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut n = 0;
    for dir in ["corpus", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir).join(name)) else {
            continue;
        };
        let mut paths: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
        paths.sort();
        for path in paths {
            let data = std::fs::read(&path).unwrap();
            eprintln!("{}", path.display());
            target(&data);
            n += 1;
        }
    }
    n
}

#[test]
fn lexicon_corpus() {
    assert!(replay("lexicon", targets::lexicon) > 0, "no corpus");
}

#[test]
fn pattern_corpus() {
    assert!(replay("pattern", targets::pattern) > 0, "no corpus");
}

#[test]
fn regex_corpus() {
    assert!(replay("regex", targets::regex) > 0, "no corpus");
}

#[test]
fn alphabet_corpus() {
    assert!(replay("alphabet", targets::alphabet) > 0, "no corpus");
}

#[test]
fn wordlist_corpus() {
    assert!(replay("wordlist", targets::wordlist) > 0, "no corpus");
}

#[test]
fn position_corpus() {
    assert!(replay("position", targets::position) > 0, "no corpus");
}
