//! The public GADDAG cursor against a scan of the word list: from the root,
//! reading X right to left reaches a node whose next letters are exactly
//! the L with "LX" in some word; crossing the separator there leads to the
//! letters L with some word starting "XL"; a node is a word end exactly
//! when X (or X followed by what was read after the separator) is a word.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use lexq::{Cursor, Lexicon};
use proptest::prelude::*;

static LEX: LazyLock<Lexicon> = LazyLock::new(Lexicon::embedded);
static WORDS: LazyLock<Vec<String>> = LazyLock::new(|| {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/indexes/enable1.txt"))
        .unwrap()
        .lines()
        .map(str::to_uppercase)
        .collect()
});

fn spell(codes: impl IntoIterator<Item = u8>) -> BTreeSet<char> {
    codes.into_iter().map(|c| (b'A' + c - 1) as char).collect()
}

fn at(x: &str) -> Option<Cursor<'static>> {
    let codes = LEX.alphabet().encode(x).unwrap();
    LEX.cursor().follow_reversed(&codes)
}

fn check(x: &str) {
    let words = &*WORDS;
    let before: BTreeSet<char> = words
        .iter()
        .flat_map(|w| {
            // Every occurrence, overlapping ones too: in BRRR, RR follows
            // both B and R (`match_indices` would skip the second).
            (1..w.len())
                .filter(|&i| w.is_char_boundary(i) && w[i..].starts_with(x))
                .filter_map(|i| w[..i].chars().last())
        })
        .collect();
    let after: BTreeSet<char> = words
        .iter()
        .filter_map(|w| w.strip_prefix(x).and_then(|rest| rest.chars().next()))
        .collect();
    let Some(c) = at(x) else {
        assert!(
            !words.iter().any(|w| w.contains(x)),
            "{x}: no node, but some word contains it"
        );
        return;
    };
    assert_eq!(spell(c.letters().iter()), before, "letters before {x}");
    assert_eq!(c.is_word(), words.iter().any(|w| w == x), "{x} is a word");
    match c.separator() {
        None => assert!(
            after.is_empty(),
            "{x}: no separator, but words continue it: {after:?}"
        ),
        Some(sep) => {
            assert!(!sep.is_word(), "the separator node is never a word end");
            assert_eq!(spell(sep.letters().iter()), after, "letters after {x}");
            for edge in sep.letter_edges() {
                let next = format!("{x}{}", (b'A' + edge.code() - 1) as char);
                assert_eq!(edge.follow().is_word(), words.contains(&next), "{next}");
            }
        }
    }
}

#[test]
fn hand_picked() {
    for x in [
        "CARE", "QU", "Q", "ZZ", "XYZ", "JQ", "E", "ABLE", "QUIXOTIC",
        "RR", // BRRR: overlapping occurrences
    ] {
        check(x);
    }
    // follow_all is follow, code after code.
    let codes = LEX.alphabet().encode("ERAC").unwrap();
    let a = LEX.cursor().follow_all(&codes).unwrap();
    assert!(
        a.is_word(),
        "ERAC read forwards is CARE reversed: a whole key"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn substrings_of_words(i in any::<prop::sample::Index>(), start in 0usize..20, len in 1usize..4) {
        let w = &WORDS[i.index(WORDS.len())];
        let start = start.min(w.len() - 1);
        let end = (start + len).min(w.len());
        check(&w[start..end]);
    }

    #[test]
    fn random_letters(x in "[A-Z]{1,3}") {
        check(&x);
    }
}
