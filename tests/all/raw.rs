//! The arc table's public nodes (`lexq::raw`) against a scan of the word
//! list: from the root, reading X right to left reaches a node whose next
//! letters are exactly the L with "LX" in some word, the edge of L
//! accepting exactly when LX is a word; crossing the separator there leads
//! to the letters L with some word starting "XL", accepting when XL is a
//! word.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use lexq::Lexicon;
use lexq::raw::Node;
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

fn at(x: &str) -> Option<Node<'static>> {
    let codes = LEX.alphabet().encode(x).unwrap();
    LEX.arcs().root().follow_reversed(&codes)
}

fn letter(code: u8) -> char {
    (b'A' + code - 1) as char
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
    let codes = LEX.alphabet().encode(x).unwrap();
    assert_eq!(
        LEX.arcs().root().is_word(&codes),
        words.iter().any(|w| w == x),
        "{x} is a word"
    );
    let mut last = 0;
    for edge in c.edges().filter(|e| e.code() != 0) {
        assert!(edge.code() > last, "{x}: codes in increasing order");
        last = edge.code();
        let longer = format!("{}{x}", letter(edge.code()));
        assert_eq!(edge.accepts(), words.contains(&longer), "{longer}");
    }
    match c.separator() {
        None => assert!(
            after.is_empty(),
            "{x}: no separator, but words continue it: {after:?}"
        ),
        Some(sep) => {
            assert_eq!(
                c.edges().next().map(|e| e.code()),
                Some(0),
                "the separator comes first"
            );
            assert_eq!(spell(sep.letters().iter()), after, "letters after {x}");
            assert!(sep.separator().is_none(), "one separator at most");
            for edge in sep.edges() {
                let next = format!("{x}{}", letter(edge.code()));
                assert_eq!(edge.accepts(), words.contains(&next), "{next}");
                assert_eq!(sep.edge(edge.code()).map(|e| e.code()), Some(edge.code()));
            }
            let ending: BTreeSet<char> = after
                .iter()
                .filter(|&&l| words.contains(&format!("{x}{l}")))
                .copied()
                .collect();
            assert_eq!(
                spell(sep.ending_letters().iter()),
                ending,
                "{x}: back hooks"
            );
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
    // within is edges filtered by a set, in order.
    let root = LEX.arcs().root();
    for set in [0u64, 1, !0, 0b1010_1010_1010, 1 << 26 | 1 << 3] {
        let want: Vec<u8> = root
            .edges()
            .map(|e| e.code())
            .filter(|&c| set >> c & 1 != 0)
            .collect();
        let got: Vec<u8> = root.within(set).map(|e| e.code()).collect();
        assert_eq!(got, want, "{set:#x}");
    }
    // The root reads every letter and the separator never.
    assert_eq!(root.letters().len(), 26);
    assert!(root.separator().is_none());
}

/// Every node reached from the root, by index, with its arcs (code,
/// accepts, target index).
fn nodes(lex: &Lexicon) -> std::collections::HashMap<u32, Vec<(u8, bool, u32)>> {
    let mut seen = std::collections::HashMap::new();
    let mut stack = vec![lex.arcs().root()];
    while let Some(n) = stack.pop() {
        if n.is_empty() || seen.contains_key(&n.index()) {
            continue;
        }
        let arcs: Vec<(u8, bool, u32)> = n
            .edges()
            .map(|e| (e.code(), e.accepts(), e.target().index()))
            .collect();
        stack.extend(n.edges().map(|e| e.target()));
        seen.insert(n.index(), arcs);
    }
    seen
}

#[test]
fn no_two_nodes_have_the_same_arcs() {
    // The table is minimal as an automaton with the accept flag on the
    // arcs: two nodes with the same arcs (the same letters, accepting the
    // same, leading to the same nodes) are one, although the fst's states
    // they come from differ (one final, one not). A small lexicon, where
    // a table without the merge has two nodes whose one arc is an
    // accepting S with nothing after it, then ENABLE.
    let mut list = lexq::WordList::new(lexq::Alphabet::english());
    list.read_bytes("t".as_ref(), b"at\ncat\nbat\ncats\nbats\nscat\nsat\n")
        .unwrap();
    let small = Lexicon::from_bytes(lexq::build(&list, &mut ()).unwrap().bytes).unwrap();
    for lex in [&small, &*LEX] {
        let nodes = nodes(lex);
        let mut by_arcs = std::collections::HashMap::new();
        for (index, arcs) in &nodes {
            if let Some(other) = by_arcs.insert(arcs.clone(), *index) {
                panic!("nodes {index} and {other} have the same arcs {arcs:?}");
            }
        }
    }
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
