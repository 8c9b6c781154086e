//! Files of format versions 1 to 3 (written by an older lexq, see
//! tests/data/old/README.md) stay usable: they open (their words read from
//! their fst section and built anew), answer as a lexicon built from the
//! same words does, and `lexq::upgrade` writes the version 4 file; damage
//! to them is refused, never a panic.

use std::path::PathBuf;

use lexq::{Alphabet, Lexicon, WordList, build, raw::format};

const ENGLISH: &str = "aa aah aal ab abs care cared cares cat cats catsup qi quixotic scare zzz";
const SPANISH: &str = "chico llama perro ñu calle carro";

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/old")).join(name)
}

/// The word lists the fixtures were built from, sorted as the alphabet
/// sorts them (the oracle: the lists themselves).
fn words(list: &str, alphabet: &Alphabet) -> Vec<String> {
    let mut w: Vec<(Vec<u8>, String)> = list
        .split(' ')
        .map(|w| (alphabet.encode(w).unwrap(), w.to_uppercase()))
        .collect();
    w.sort();
    w.into_iter().map(|(_, s)| s).collect()
}

fn built(list: &str, alphabet: Alphabet) -> Vec<u8> {
    let mut wl = WordList::new(alphabet);
    wl.read_bytes("t".as_ref(), list.replace(' ', "\n").as_bytes())
        .unwrap();
    build(&wl, &mut ()).unwrap().bytes
}

#[test]
fn older_versions_open_and_answer_as_a_new_build() {
    for (name, list, alphabet) in [
        ("english", ENGLISH, Alphabet::english()),
        ("spanish", SPANISH, Alphabet::spanish()),
    ] {
        let fresh = built(list, alphabet.clone());
        for version in 1..=3 {
            let path = fixture(&format!("{name}-v{version}.lexq"));
            let lex = Lexicon::open(&path).unwrap();
            assert_eq!(lex.upgraded_from(), Some(version), "{name} v{version}");
            assert_eq!(lex.info().format_version, 4);
            assert_eq!(lex.alphabet(), &alphabet);
            assert_eq!(
                lex.pattern("*").unwrap().to_strings(),
                words(list, &alphabet),
                "{name} v{version}"
            );
            assert_eq!(
                lex.file_bytes(),
                fresh,
                "{name} v{version}: the same as a new build"
            );
            lex.verify().unwrap();
            Lexicon::open_checked(&path).unwrap();
            assert!(lex.fst_set().unwrap().len() > 10);
        }
    }
    let lex = Lexicon::open(fixture("english-v3.lexq")).unwrap();
    assert_eq!(lex.hooks("care").unwrap().to_string(), "S CARE DS");
    assert!(lex.is_word("quixotic").unwrap());
}

#[test]
fn upgrade_writes_version_4() {
    let dir = tempfile::tempdir().unwrap();
    for version in 1..=3 {
        let old = fixture(&format!("english-v{version}.lexq"));
        let out = dir.path().join(format!("v{version}.lexq"));
        let (new, from) = lexq::upgrade(&old, &mut ()).unwrap();
        assert_eq!((from, new.words), (version, 15));
        new.write_atomic(&out).unwrap();
        let lex = Lexicon::open(&out).unwrap();
        assert_eq!(lex.upgraded_from(), None);
        assert_eq!(lex.pattern("*").unwrap().len(), 15);
        // Over itself: a copy first, then upgraded in place.
        let copy = dir.path().join("copy.lexq");
        std::fs::copy(&old, &copy).unwrap();
        let (new, _) = lexq::upgrade(&copy, &mut ()).unwrap();
        new.write_atomic(&copy).unwrap();
        assert_eq!(std::fs::read(&copy).unwrap(), std::fs::read(&out).unwrap());
        // A version 4 file is checked and given back as it is.
        let (same, from) = lexq::upgrade(&out, &mut ()).unwrap();
        assert_eq!(from, 4);
        assert_eq!(same.bytes, std::fs::read(&out).unwrap());
    }
}

/// Where an older file's fst section is: from the offset at 56 to the end.
fn fst_start(file: &[u8]) -> usize {
    u64::from_le_bytes(file[56..64].try_into().unwrap()) as usize
}

#[test]
fn damaged_older_files_are_refused() {
    for version in 1..=3 {
        let good = std::fs::read(fixture(&format!("english-v{version}.lexq"))).unwrap();
        let at = fst_start(&good);
        // Not re-sealed: a checksum says so.
        for i in [0, 8, 20, good.len() - at - 10] {
            let mut bad = good.clone();
            bad[at + i] ^= 0x10;
            let err = Lexicon::from_bytes(bad).unwrap_err().to_string();
            assert!(err.contains("checksum"), "v{version} byte {i}: {err}");
        }
        // Every byte of the fst, every value, re-sealed: refused by the
        // fst's check, or read as some words, never a panic.
        let (mut refused, mut read) = (0, 0);
        for i in at..good.len() {
            for v in [0u8, 1, 0x7f, 0x80, 0xff, good[i] ^ 0x01, good[i] ^ 0x40] {
                if v == good[i] {
                    continue;
                }
                let mut bad = good.clone();
                bad[i] = v;
                assert!(format::reseal(&mut bad));
                match Lexicon::from_bytes(bad) {
                    Ok(lex) => {
                        lex.verify().unwrap();
                        read += 1;
                    }
                    Err(_) => refused += 1,
                }
            }
        }
        assert!(refused > read, "v{version}: {refused} refused, {read} read");
    }
}
