//! Fuzz-style checks that damaged lexicon bytes are refused with an error,
//! never a panic or a lexicon that answers wrongly: damage to the header,
//! the alphabet or the arc table on open, damage to the fst section when
//! the fst is first asked for, and every damage by `verify`.

use lexq::error::LexiconErrorKind;
use lexq::{Alphabet, Lexicon, WordList, build};
use proptest::prelude::*;

fn good_bytes() -> Vec<u8> {
    let mut list = WordList::new(Alphabet::english());
    list.read_bytes(
        "t".as_ref(),
        b"aa\naah\naal\nab\nabs\ncat\ncats\ncatsup\nqi\nzzz\nquixotic\n",
    )
    .unwrap();
    build(&list, &mut ()).unwrap().bytes
}

#[test]
fn every_truncation_is_an_error() {
    let good = good_bytes();
    assert!(Lexicon::from_bytes(good.clone()).is_ok());
    for len in 0..good.len() {
        let err = Lexicon::from_bytes(good[..len].to_vec()).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("truncated") || msg.contains("magic"),
            "length {len}: {msg}"
        );
    }
}

/// Where the fst section is (header fields at 56 and 64).
fn fst_section(file: &[u8]) -> std::ops::Range<usize> {
    let at = u64::from_le_bytes(file[56..64].try_into().unwrap()) as usize;
    at..at + u64::from_le_bytes(file[64..72].try_into().unwrap()) as usize
}

/// Whether damaged bytes are caught: refused on open, or (damage to the
/// fst section, which no query reads) refused when the fst view is asked
/// for; and always by `verify`.
fn caught(bad: Vec<u8>, fst: &std::ops::Range<usize>, damaged: &[usize]) -> bool {
    match Lexicon::from_bytes(bad) {
        Err(_) => true,
        Ok(lex) => {
            damaged.iter().all(|at| fst.contains(at))
                && lex.fst_set().is_err()
                && lex.verify().is_err()
        }
    }
}

#[test]
fn every_single_bit_flip_is_caught() {
    let good = good_bytes();
    let fst = fst_section(&good);
    for at in 0..good.len() {
        for bit in (0..8).map(|i| 1u8 << i) {
            let mut bad = good.clone();
            bad[at] ^= bit;
            assert!(
                caught(bad, &fst, &[at]),
                "flip of bit {bit:#x} at byte {at} of {} went unnoticed",
                good.len()
            );
        }
    }
}

#[test]
fn huge_section_lengths_are_refused_not_overflowed() {
    // Header fields are read before any checksum: lengths near u64::MAX
    // must not wrap around (a debug build panicked on the alphabet's end).
    let good = good_bytes();
    let offsets = LexiconErrorKind::HeaderField {
        field: "section offsets",
    };
    let overflow = LexiconErrorKind::HeaderField {
        field: "section sizes overflow",
    };
    for (at, value, want) in [
        (48, u64::MAX, &offsets),
        (48, u64::MAX - 79, &offsets),
        (64, u64::MAX, &offsets),
        (56, u64::MAX, &offsets),
        (80, u64::MAX, &overflow),
        (88, u64::MAX, &overflow),
    ] {
        let mut bad = good.clone();
        bad[at..at + 8].copy_from_slice(&value.to_le_bytes());
        match Lexicon::from_bytes(bad) {
            Err(lexq::Error::Lexicon { kind, .. }) => {
                assert_eq!(&kind, want, "field at {at} = {value:#x}")
            }
            Err(other) => panic!("field at {at} = {value:#x}: {other}"),
            Ok(_) => panic!("field at {at} = {value:#x} was accepted"),
        }
    }
}

proptest! {
    #[test]
    fn random_bytes_are_refused(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        prop_assert!(Lexicon::from_bytes(bytes).is_err());
    }

    #[test]
    fn random_bytes_behind_a_good_magic_are_refused(
        tail in proptest::collection::vec(any::<u8>(), 0..4096),
        version in prop_oneof![Just(1u32), any::<u32>()],
    ) {
        let mut bytes = lexq::raw::format::MAGIC.to_vec();
        bytes.extend_from_slice(&version.to_le_bytes());
        bytes.extend_from_slice(&tail);
        prop_assert!(Lexicon::from_bytes(bytes).is_err());
    }

    #[test]
    fn random_damage_is_refused(edits in proptest::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 1..8)) {
        let good = good_bytes();
        let mut bad = good.clone();
        let mut damaged = Vec::new();
        for (at, xor) in edits {
            let at = at.index(good.len());
            bad[at] ^= xor;
            damaged.push(at);
        }
        // Two edits of one byte may cancel out.
        prop_assume!(bad != good);
        damaged.retain(|&at| bad[at] != good[at]);
        prop_assert!(caught(bad, &fst_section(&good), &damaged));
    }
}
