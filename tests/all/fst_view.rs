//! The fst view of a lexicon (`Lexicon::fst_set`) run through the `fst`
//! crate's own automata, against a plain scan of the word list: a word's
//! whole-word key is the word reversed (`lexq::raw::gaddag::word_key`), with no
//! separator, so fst's automata over those keys search whole words.

use std::sync::LazyLock;

use fst::automaton::{Automaton, Subsequence};
use fst::{IntoStreamer, Streamer};
use lexq::Lexicon;
use lexq::raw::gaddag::{SEPARATOR, key_byte, key_word, word_key};

static WORDS: LazyLock<Vec<String>> = LazyLock::new(|| {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/indexes/enable1.txt"))
        .unwrap()
        .lines()
        .map(str::to_uppercase)
        .collect()
});

/// The words whose whole-word keys `automaton` matches, sorted.
fn whole_words(lex: &Lexicon, automaton: impl Automaton) -> Vec<String> {
    let set = lex.fst_set().unwrap();
    let sep = key_byte(SEPARATOR);
    let mut stream = set.search(automaton).into_stream();
    let mut words = Vec::new();
    while let Some(key) = stream.next() {
        if !key.contains(&sep) {
            words.push(lex.alphabet().decode(&key_word(key).unwrap()));
        }
    }
    words.sort();
    words
}

/// The whole-word key of `word`, as the string fst's automata take.
fn key(lex: &Lexicon, word: &str) -> String {
    String::from_utf8(word_key(&lex.alphabet().encode(word).unwrap())).unwrap()
}

#[test]
fn subsequence_finds_the_words_holding_letters_in_order() {
    // Reversed words hold Q, Z, X in that order exactly when the words
    // hold X, Z, Q in that order.
    let lex = Lexicon::embedded();
    let got = whole_words(&lex, Subsequence::new(&key(&lex, "xzq")));
    let want: Vec<String> = WORDS
        .iter()
        .filter(|w| {
            let mut rest = w.chars();
            "XZQ".chars().all(|c| rest.any(|d| d == c))
        })
        .cloned()
        .collect();
    assert_eq!(got, want);
    let got = whole_words(&lex, Subsequence::new(&key(&lex, "qzz")));
    let want: Vec<String> = WORDS
        .iter()
        .filter(|w| {
            let mut rest = w.chars();
            "QZZ".chars().all(|c| rest.any(|d| d == c))
        })
        .cloned()
        .collect();
    assert!(!want.is_empty());
    assert_eq!(got, want);
}

/// Edit distance (insertions, deletions, substitutions), the oracle.
#[cfg(feature = "levenshtein")]
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for j in 0..b.len() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != b[j]))
                .min(row[j] + 1)
                .min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// With lexq's `levenshtein` feature (fst's Levenshtein automaton): the
/// words within one or two edits of a word. Reversing both words keeps
/// their distance, so the automaton of the reversed word over whole-word
/// keys finds them.
#[cfg(feature = "levenshtein")]
#[test]
fn levenshtein_finds_the_words_within_a_distance() {
    let lex = Lexicon::embedded();
    for (word, d) in [("care", 1), ("quixotic", 2), ("jazz", 1)] {
        let lev = fst::automaton::Levenshtein::new(&key(&lex, word), d).unwrap();
        let got = whole_words(&lex, lev);
        let upper = word.to_uppercase();
        let want: Vec<String> = WORDS
            .iter()
            .filter(|w| distance(w, &upper) <= d as usize)
            .cloned()
            .collect();
        assert!(want.len() > 1, "{word}");
        assert_eq!(got, want, "{word} within {d}");
    }
}
