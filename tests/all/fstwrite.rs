//! End to end: the fst inside a lexicon built from ENABLE holds exactly the
//! GADDAG keys of its words (computed here from the documented key layout,
//! with no code of the builder), and it is a valid `fst::Set` whose
//! checksum verifies; the committed embedded lexicon is that build.

use std::path::Path;

use fst::{Set, Streamer};
use lexq::{Alphabet, WordList, build};

/// The fst byte of each code, as `lexq::raw::gaddag`'s documentation gives it
/// (code 0 is the separator, 1..=26 are A..Z in English).
const KEY_BYTES: &[u8; 64] = b"te/oasripcnw.hlm-du012g=:bf3y5&_4v9678k%?xCDASFIBEjPTzRNM+LOqHGW";

/// The GADDAG keys of `word` (tile codes) as the documentation describes
/// them: for each split `1 <= i < n`, the reversed prefix, the separator,
/// the suffix; and the whole word reversed.
fn gaddag_keys(word: &[u8]) -> Vec<Vec<u8>> {
    let n = word.len();
    (1..=n)
        .map(|i| {
            let mut key: Vec<u8> = word[..i].iter().rev().copied().collect();
            if i < n {
                key.push(0);
                key.extend_from_slice(&word[i..]);
            }
            key.iter().map(|&c| KEY_BYTES[c as usize]).collect()
        })
        .collect()
}

/// The fst section of a lexicon file, found from the header fields the
/// `lexq::raw::format` documentation lists (offset at byte 56, length at 64).
fn fst_section(file: &[u8]) -> &[u8] {
    let at = |i: usize| u64::from_le_bytes(file[i..i + 8].try_into().unwrap()) as usize;
    let (offset, len) = (at(56), at(64));
    assert_eq!(offset % 8, 0);
    &file[offset..offset + len]
}

#[test]
fn keys_of_care() {
    // Worked out by hand from the documentation: CARE is 3 1 18 5.
    let keys = gaddag_keys(&[3, 1, 18, 5]);
    let want: Vec<Vec<u8>> = [&b"C+ARE"[..], b"AC+RE", b"RAC+E", b"ERAC"]
        .iter()
        .map(|k| {
            k.iter()
                .map(|&b| match b {
                    b'+' => KEY_BYTES[0],
                    l => KEY_BYTES[(l - b'A' + 1) as usize],
                })
                .collect()
        })
        .collect();
    assert_eq!(keys, want);
}

#[test]
fn enable_keys_round_trip() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("indexes/enable1.txt");
    let text = std::fs::read_to_string(&path).expect("reading ENABLE");
    let mut words: Vec<Vec<u8>> = text
        .lines()
        .map(|l| l.trim().bytes().map(|b| b - b'a' + 1).collect::<Vec<u8>>())
        .filter(|w| !w.is_empty())
        .collect();
    words.sort();
    words.dedup();
    let mut keys: Vec<Vec<u8>> = Vec::new();
    for w in &words {
        keys.extend(gaddag_keys(w));
    }
    keys.sort_unstable();
    assert_eq!(keys.len(), 1_570_508);

    let mut list = WordList::new(Alphabet::english());
    list.read_path(&path).expect("ENABLE reads");
    let built = build(&list, &mut ()).expect("ENABLE builds");
    assert_eq!(built.keys, keys.len() as u64);
    let set = Set::new(fst_section(&built.bytes)).expect("a valid fst::Set");
    set.as_fst().verify().expect("the fst checksum verifies");
    assert_eq!(set.len(), keys.len());

    let mut stream = set.stream();
    let mut n = 0;
    while let Some(k) = stream.next() {
        assert!(n < keys.len(), "more keys than expected: {k:?}");
        assert_eq!(k, keys[n].as_slice(), "key {n}");
        n += 1;
    }
    assert_eq!(n, keys.len());
    for k in keys.iter().step_by(97) {
        assert!(set.contains(k));
        let mut longer = k.clone();
        longer.push(b't');
        assert_eq!(set.contains(&longer), keys.binary_search(&longer).is_ok());
        assert!(!set.contains(&k[..0]));
    }

    // The committed embedded lexicon is this build, byte for byte, and its
    // fst, handed out by the library, the same set.
    let lex = lexq::Lexicon::embedded();
    assert!(
        lex.file_bytes() == built.bytes,
        "indexes/enable1.lexq is not what this checkout builds from indexes/enable1.txt: \
         regenerate it with `cargo run -p lexq-cli -- build indexes/enable1.txt -o indexes/enable1.lexq`"
    );
    let embedded = lex.fst_set().expect("the embedded fst");
    assert_eq!(embedded.as_fst().as_bytes(), set.as_fst().as_bytes());

    // The minimal automaton is no larger than fst's own builder's.
    let theirs = Set::from_iter(&keys).expect("fst builds");
    assert!(set.as_fst().size() <= theirs.as_fst().size());
}
