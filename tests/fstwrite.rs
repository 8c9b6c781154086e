//! End to end: the fst inside a lexicon built from ENABLE holds exactly the
//! GADDAG keys of its words (computed here independently of the builder),
//! and it is a valid `fst::Set` whose checksum verifies.

use std::path::Path;

use fst::{Set, Streamer};
use lexq::gaddag::{padded_key, padded_len};
use lexq::{Alphabet, WordList, build, format};

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
        for i in 1..=w.len() {
            let mut k = [0u8; 64];
            padded_key(w, i, &mut k);
            keys.push(k[..padded_len(&k)].to_vec());
        }
    }
    keys.sort_unstable();
    assert_eq!(keys.len(), 1_570_508);

    let mut list = WordList::new(Alphabet::english());
    list.read_path(&path).expect("ENABLE reads");
    let built = build(&list, &mut ()).expect("ENABLE builds");
    assert_eq!(built.keys, keys.len() as u64);
    let header = format::parse(&built.bytes, true).expect("a valid lexicon file");
    let set = Set::new(&built.bytes[header.fst]).expect("a valid fst::Set");
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

    // The minimal automaton is no larger than fst's own builder's.
    let theirs = Set::from_iter(&keys).expect("fst builds");
    assert!(set.as_fst().size() <= theirs.as_fst().size());
}
