//! `suggest`, `diff` and `extensions` against plain computations over
//! `indexes/enable1.txt`: the edit distance of every word to the query
//! (the Damerau-Levenshtein distance by a full table, itself checked
//! against a search of the edits); the set
//! difference of two word lists; the words holding a word with letters
//! added, found by looking at every place it occurs.

use std::collections::BTreeSet;
use std::ops::ControlFlow;
use std::sync::LazyLock;

use lexq::diff::{Change, diff};
use lexq::{Alphabet, Lexicon, WordList, build};

static WORDS: LazyLock<Vec<String>> = LazyLock::new(|| {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/indexes/enable1.txt"))
        .unwrap();
    let mut w: Vec<String> = text
        .lines()
        .map(|l| l.trim().to_uppercase())
        .filter(|l| !l.is_empty())
        .collect();
    w.sort();
    w.dedup();
    w
});

static LEX: LazyLock<Lexicon> = LazyLock::new(Lexicon::embedded);

#[path = "../common/osa.rs"]
mod osa;
use osa::distance;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn word(&mut self) -> &'static str {
        &WORDS[self.below(WORDS.len())]
    }
}

/// A word with one or two typing slips: a letter changed, dropped,
/// added, or two neighbours swapped.
fn typo(rng: &mut Rng) -> String {
    let mut w: Vec<u8> = rng.word().bytes().collect();
    for _ in 0..1 + rng.below(2) {
        let i = rng.below(w.len());
        let c = b'A' + rng.below(26) as u8;
        match rng.below(4) {
            0 => w[i] = c,
            1 if w.len() > 1 => {
                w.remove(i);
            }
            2 => w.insert(i, c),
            _ if i + 1 < w.len() => w.swap(i, i + 1),
            _ => w.push(c),
        }
    }
    String::from_utf8(w).unwrap()
}

#[test]
fn suggestions_are_every_word_within_the_distance() {
    let mut rng = Rng(0xdead_beef_1234);
    for k in 0..60 {
        let q = typo(&mut rng);
        let max = 1 + (k % 2) as u8;
        let got: BTreeSet<String> = LEX
            .suggest(&q, max)
            .unwrap()
            .into_iter()
            .map(|s| {
                let w = LEX.alphabet().decode(&s.codes);
                assert_eq!(
                    distance(w.as_bytes(), q.as_bytes()),
                    s.distance as usize,
                    "{q} {w}"
                );
                w
            })
            .collect();
        let want: BTreeSet<String> = WORDS
            .iter()
            .filter(|w| {
                let d = distance(w.as_bytes(), q.as_bytes());
                d > 0 && d <= max as usize
            })
            .cloned()
            .collect();
        assert_eq!(got, want, "suggest {q} at {max}");
    }
    // A swap of neighbours is one edit.
    let near = LEX.suggest("qiuck", 1).unwrap();
    assert!(
        near.iter()
            .any(|s| LEX.alphabet().decode(&s.codes) == "QUICK")
    );
}

/// The distance by its definition: a breadth-first search of the edits
/// (insert, delete, change a letter of `letters`, swap two neighbours)
/// from `a` until `b` is reached.
fn edits_between(a: &[u8], b: &[u8], letters: &[u8]) -> usize {
    let mut seen: BTreeSet<Vec<u8>> = BTreeSet::from([a.to_vec()]);
    let mut level = vec![a.to_vec()];
    for d in 0.. {
        if level.iter().any(|w| w == b) {
            return d;
        }
        let mut next = Vec::new();
        for w in &level {
            let mut near = Vec::new();
            for i in 0..=w.len() {
                for &c in letters {
                    let mut v = w.clone();
                    v.insert(i, c);
                    near.push(v);
                }
            }
            for i in 0..w.len() {
                let mut v = w.clone();
                v.remove(i);
                near.push(v);
                for &c in letters {
                    let mut v = w.clone();
                    v[i] = c;
                    near.push(v);
                }
                if i + 1 < w.len() {
                    let mut v = w.clone();
                    v.swap(i, i + 1);
                    near.push(v);
                }
            }
            for v in near {
                if seen.insert(v.clone()) {
                    next.push(v);
                }
            }
        }
        level = next;
    }
    unreachable!()
}

#[test]
fn the_oracle_is_the_fewest_edits() {
    // CA -> AC -> ABC: 2 edits, where the optimal string alignment (no
    // letter edited twice) counts 3.
    assert_eq!(edits_between(b"CA", b"ABC", b"ABC"), 2);
    assert_eq!(distance(b"CA", b"ABC"), 2);
    let mut rng = Rng(0x005e_ed0f_ed17);
    for _ in 0..400 {
        let mut short = || -> Vec<u8> {
            let n = rng.below(5);
            (0..n).map(|_| b"ABC"[rng.below(3)]).collect()
        };
        let (a, b) = (short(), short());
        assert_eq!(
            distance(&a, &b),
            edits_between(&a, &b, b"ABC"),
            "{:?} {:?}",
            String::from_utf8_lossy(&a),
            String::from_utf8_lossy(&b)
        );
    }
}

#[test]
fn suggest_counts_the_fewest_edits() {
    // LUGE -> LUE (G deleted) -> LEU (U and E swapped): 2 edits, as the
    // README defines them (it was reported at 3, the optimal string
    // alignment).
    assert_eq!(edits_between(b"LUGE", b"LEU", b"EGLU"), 2);
    let near = LEX.suggest("luge", 2).unwrap();
    let leu = near
        .iter()
        .find(|s| LEX.alphabet().decode(&s.codes) == "LEU")
        .expect("LEU within 2 of LUGE");
    assert_eq!(leu.distance, 2);
    // Every word of the list against the oracle, for queries whose swaps
    // span an edit (distance 3 too).
    for (q, max) in [("luge", 3), ("cat", 3), ("abc", 2), ("tiard", 2)] {
        let got: BTreeSet<(String, u8)> = LEX
            .suggest(q, max)
            .unwrap()
            .into_iter()
            .map(|s| (LEX.alphabet().decode(&s.codes), s.distance))
            .collect();
        let upper = q.to_uppercase();
        let want: BTreeSet<(String, u8)> = WORDS
            .iter()
            .map(|w| (w.clone(), distance(w.as_bytes(), upper.as_bytes()) as u8))
            .filter(|&(_, d)| d > 0 && d <= max)
            .collect();
        assert_eq!(got, want, "suggest {q} at {max}");
    }
}

fn lexicon(words: &[&String]) -> Lexicon {
    let mut text = String::new();
    for w in words {
        text.push_str(w);
        text.push('\n');
    }
    let mut list = WordList::new(Alphabet::english());
    list.read_bytes("list".as_ref(), text.as_bytes()).unwrap();
    Lexicon::from_bytes(build(&list, &mut ()).unwrap().bytes).unwrap()
}

#[test]
fn diff_is_the_set_difference_in_order() {
    let mut rng = Rng(0x5151_2323);
    // Two samples sharing most of their words.
    let base: Vec<&String> = WORDS.iter().filter(|_| rng.below(8) == 0).collect();
    let old: Vec<&String> = base
        .iter()
        .copied()
        .filter(|_| rng.below(10) != 0)
        .collect();
    let mut new: Vec<&String> = base
        .iter()
        .copied()
        .filter(|_| rng.below(10) != 0)
        .collect();
    new.extend(WORDS.iter().filter(|_| rng.below(500) == 0));
    new.sort();
    new.dedup();
    let (a, b) = (lexicon(&old), lexicon(&new));
    let mut got = Vec::new();
    diff(&a, &b, |change, w| {
        got.push((change, a.alphabet().decode(w)));
        ControlFlow::Continue(())
    })
    .unwrap();
    let olds: BTreeSet<&String> = old.iter().copied().collect();
    let news: BTreeSet<&String> = new.iter().copied().collect();
    let mut want: Vec<(Change, String)> = olds
        .difference(&news)
        .map(|w| (Change::Removed, w.to_string()))
        .chain(
            news.difference(&olds)
                .map(|w| (Change::Added, w.to_string())),
        )
        .collect();
    want.sort_by(|x, y| x.1.cmp(&y.1));
    assert!(want.len() > 1000, "{}", want.len());
    assert_eq!(got, want);
    // Against itself: nothing. Stopping early: as asked.
    let mut none = 0;
    diff(&a, &a, |_, _| {
        none += 1;
        ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(none, 0);
    let mut three = 0;
    diff(&a, &b, |_, _| {
        three += 1;
        if three == 3 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .unwrap();
    assert_eq!(three, 3);
    // Another alphabet: an error, not a comparison.
    let mut list = WordList::new(Alphabet::spanish());
    list.read_bytes("es".as_ref(), b"casa\nchico\n").unwrap();
    let es = Lexicon::from_bytes(build(&list, &mut ()).unwrap().bytes).unwrap();
    let e = diff(&a, &es, |_, _| ControlFlow::Continue(())).unwrap_err();
    assert!(e.to_string().contains("different alphabets"), "{e}");
}

#[test]
fn extensions_are_the_words_holding_the_word() {
    let mut rng = Rng(0x0e07_e051);
    for k in 0..80 {
        let w = loop {
            let w = rng.word();
            if (2..=6).contains(&w.len()) {
                break w;
            }
        };
        let front = [None, Some(0), Some(1), Some(2), Some(4)][k % 5];
        let back = [Some(3), None, Some(1), Some(0), Some(2)][(k / 5) % 5];
        let got = LEX.extensions(w, front, back).unwrap().to_strings();
        let want: Vec<String> = WORDS
            .iter()
            .filter(|x| {
                x.len() > w.len()
                    && (0..=x.len() - w.len()).any(|i| {
                        x[i..].starts_with(w)
                            && front.is_none_or(|f| i <= f)
                            && back.is_none_or(|b| x.len() - i - w.len() <= b)
                    })
            })
            .cloned()
            .collect();
        assert_eq!(got, want, "extensions {w} {front:?} {back:?}");
    }
}
