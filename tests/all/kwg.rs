//! `WordList::read_kwg` (and `lexq build --from-kwg`'s reading) against a
//! `.kwg` written here from the format wolges documents (a trie, every
//! node its own: a valid if unminimised DAWG), for ENABLE and a Polish
//! list; and, where wolges-bench is set up (`WOLGES_WORK`, see
//! docs/BENCHMARKS.md), the `.kwg` wolges's own `buildlex` made from
//! ENABLE.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::path::Path;

use lexq::{Alphabet, Lexicon, WordList, build};

/// A trie of `words` (tile numbers from 1) as a `.kwg`: node 0 points to
/// the DAWG's first letters, node 1 is an empty GADDAG; each node
/// little-endian, bits 0-21 the first child, bit 22 the last sibling, bit
/// 23 a word ends here, bits 24-31 the tile.
fn write_kwg(words: &[Vec<u8>]) -> Vec<u8> {
    #[derive(Default)]
    struct Trie {
        word: bool,
        kids: BTreeMap<u8, Trie>,
    }
    let mut root = Trie::default();
    for w in words {
        let mut t = &mut root;
        for &c in w {
            t = t.kids.entry(c).or_default();
        }
        t.word = true;
    }
    // Each sibling list's slots are taken before its children's lists
    // are placed, so a node knows its first child's index when written.
    let mut nodes: Vec<u32> = vec![0, 1 << 22];
    fn place(t: &Trie, nodes: &mut Vec<u32>) -> u32 {
        if t.kids.is_empty() {
            return 0;
        }
        let start = nodes.len();
        nodes.extend(std::iter::repeat_n(0, t.kids.len()));
        for (i, (&c, kid)) in t.kids.iter().enumerate() {
            let child = place(kid, nodes);
            let end = i + 1 == t.kids.len();
            nodes[start + i] =
                (u32::from(c) << 24) | (u32::from(kid.word) << 23) | (u32::from(end) << 22) | child;
        }
        start as u32
    }
    let first = place(&root, &mut nodes);
    nodes[0] = (1 << 22) | first;
    nodes.iter().flat_map(|n| n.to_le_bytes()).collect()
}

fn words_of(lex: &Lexicon) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    lex.for_each_word(1, 63, |w| {
        out.push(w.to_vec());
        ControlFlow::Continue(())
    });
    out
}

#[test]
fn enable_round_trips_through_a_kwg() {
    let lex = Lexicon::embedded();
    let words = words_of(&lex);
    assert_eq!(words.len(), 172_820);
    let bytes = write_kwg(&words);
    let mut list = WordList::new(Alphabet::english());
    list.read_kwg(Path::new("enable.kwg"), &bytes).unwrap();
    assert_eq!(list.len(), words.len());
    let built = Lexicon::from_bytes(build(&list, &mut ()).unwrap().bytes).unwrap();
    assert_eq!(words_of(&built), words);
    // The length range applies as to a text list.
    let mut short = WordList::new(Alphabet::english()).max_len(3);
    short.read_kwg(Path::new("enable.kwg"), &bytes).unwrap();
    let threes = words.iter().filter(|w| w.len() <= 3).count();
    assert_eq!(
        (short.len(), short.filtered()),
        (threes, words.len() - threes)
    );
}

#[test]
fn a_polish_kwg_reads_in_the_polish_alphabet() {
    let pl = Alphabet::named("polish").unwrap();
    let words: Vec<Vec<u8>> = ["ŻÓŁW", "ŹLE", "KOŃ", "GĘŚ"]
        .iter()
        .map(|w| pl.encode(w).unwrap())
        .collect();
    let mut list = WordList::new(pl.clone());
    list.read_kwg(Path::new("pl.kwg"), &write_kwg(&words))
        .unwrap();
    let lex = Lexicon::from_bytes(build(&list, &mut ()).unwrap().bytes).unwrap();
    let got: Vec<String> = words_of(&lex).iter().map(|w| pl.decode(w)).collect();
    assert_eq!(got, ["GĘŚ", "KOŃ", "ŹLE", "ŻÓŁW"]);
    // The same file read as English: Ż is tile 32, past Z.
    let mut en = WordList::new(Alphabet::english());
    let err = en
        .read_kwg(Path::new("pl.kwg"), &write_kwg(&words))
        .unwrap_err();
    assert!(
        err.to_string().contains("pl.kwg: not a usable .kwg file"),
        "{err}"
    );
}

#[test]
fn wolges_own_enable_kwg_holds_the_same_words() {
    let work = std::env::var_os("WOLGES_WORK")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/target/wolges-bench").into());
    let (kwg, txt) = (work.join("lexicon.kwg"), work.join("words.txt"));
    if !kwg.is_file() || !txt.is_file() {
        eprintln!("skipped: needs wolges-bench (../shared/tools/wolges-bench/README.md)");
        return;
    }
    let mut from_kwg = WordList::new(Alphabet::english());
    from_kwg.read_kwg_path(&kwg).unwrap();
    let mut from_txt = WordList::new(Alphabet::english());
    from_txt.read_path(&txt).unwrap();
    let a = Lexicon::from_bytes(build(&from_kwg, &mut ()).unwrap().bytes).unwrap();
    let b = Lexicon::from_bytes(build(&from_txt, &mut ()).unwrap().bytes).unwrap();
    assert_eq!(words_of(&a), words_of(&b));
}
