//! Probability order against an independent computation: the draws that
//! spell a word counted by listing every way the blanks can stand for its
//! letters (binomials from Pascal's triangle, additions only), Zyzzyva's
//! three cases (no blank, one, two) counted as it describes them, ranks by
//! sorting those counts; over every ENABLE word of several lengths, a
//! Spanish sample with multi-letter tiles, and bags with four blanks and
//! with none. Also `Lexicon::for_each_word` against the word list itself.

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::LazyLock;

use crate::common::{Oracle, TileAlphabet, build_lexicon};
use lexq::probability::{Bag, Ranks};
use lexq::{Alphabet, Lexicon, TileSet};

static ENABLE: LazyLock<Oracle> = LazyLock::new(|| {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/indexes/enable1.txt");
    Oracle::new(
        TileAlphabet::english(),
        &std::fs::read_to_string(path).unwrap(),
    )
});

const SPANISH_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/spanish-sample.txt");

/// Pascal's triangle to row 255, built by additions; `None` past u128.
static PASCAL: LazyLock<Vec<Vec<Option<u128>>>> = LazyLock::new(|| {
    let mut rows: Vec<Vec<Option<u128>>> = vec![vec![Some(1)]];
    for n in 1..=255usize {
        let prev = &rows[n - 1];
        let row = (0..=n)
            .map(|k| {
                let left = if k == 0 { Some(0) } else { prev[k - 1] };
                let right = if k == n { Some(0) } else { prev[k] };
                left?.checked_add(right?)
            })
            .collect();
        rows.push(row);
    }
    rows
});

fn binom(n: usize, k: usize) -> u128 {
    if k > n {
        return 0;
    }
    PASCAL[n][k].expect("binomial within u128")
}

/// A bag as the test sees it: tile label to count, `?` the blanks.
struct TestBag {
    counts: HashMap<String, usize>,
    blanks: usize,
}

impl TestBag {
    fn new(text: &str) -> TestBag {
        let mut counts = HashMap::new();
        let mut blanks = 0;
        for item in text.split_whitespace() {
            let (label, n) = item.split_once(':').unwrap();
            let n: usize = n.parse().unwrap();
            if label == "?" {
                blanks = n;
            } else {
                counts.insert(label.to_string(), n);
            }
        }
        TestBag { counts, blanks }
    }

    /// The letters of `word` with how often it holds each, and how many
    /// of each the bag has.
    fn letters(&self, alpha: &TileAlphabet, word: &[u8]) -> Vec<(usize, usize)> {
        let mut seen: Vec<(u8, usize)> = Vec::new();
        for &c in word {
            match seen.iter_mut().find(|(x, _)| *x == c) {
                Some((_, n)) => *n += 1,
                None => seen.push((c, 1)),
            }
        }
        seen.iter()
            .map(|&(c, n)| (n, self.counts[alpha.label(c)]))
            .collect()
    }

    /// Every way to say, for each letter, how many of it blanks stand for
    /// (at most the bag's blanks in all): the draws of each way multiplied
    /// out and added up.
    fn combinations(&self, alpha: &TileAlphabet, word: &[u8]) -> u128 {
        fn go(letters: &[(usize, usize)], blanks_left: usize, used: usize, all: usize) -> u128 {
            let Some(&(need, have)) = letters.first() else {
                return binom(all, used);
            };
            let mut sum = 0;
            for from_blanks in 0..=need.min(blanks_left) {
                let tiles = binom(have, need - from_blanks);
                if tiles > 0 {
                    sum += tiles
                        * go(
                            &letters[1..],
                            blanks_left - from_blanks,
                            used + from_blanks,
                            all,
                        );
                }
            }
            sum
        }
        go(&self.letters(alpha, word), self.blanks, 0, self.blanks)
    }

    /// Zyzzyva's way, for a bag of two blanks: the draws with no blank,
    /// plus two (the blanks to choose from) times the draws with one
    /// letter of each kind left to a blank, plus the draws with two
    /// letters left to the blanks, of two kinds or twice one kind.
    fn zyzzyva(&self, alpha: &TileAlphabet, word: &[u8]) -> u128 {
        assert_eq!(self.blanks, 2);
        let letters = self.letters(alpha, word);
        let draws = |less: &[usize]| -> u128 {
            letters
                .iter()
                .enumerate()
                .map(|(i, &(need, have))| {
                    let minus = less.iter().filter(|&&j| j == i).count();
                    if minus > need {
                        0
                    } else {
                        binom(have, need - minus)
                    }
                })
                .product()
        };
        let mut total = draws(&[]);
        for i in 0..letters.len() {
            total += 2 * draws(&[i]);
        }
        for i in 0..letters.len() {
            for j in i..letters.len() {
                total += draws(&[i, j]);
            }
        }
        total
    }
}

const ENGLISH: &str = "A:9 B:2 C:2 D:4 E:12 F:2 G:3 H:2 I:9 J:1 K:1 L:4 M:2 N:6 O:8 P:2 Q:1 R:6 \
                       S:4 T:6 U:4 V:2 W:2 X:1 Y:2 Z:1 ?:2";
const SUPER: &str = "A:16 B:4 C:6 D:8 E:24 F:4 G:5 H:5 I:13 J:2 K:2 L:7 M:6 N:13 O:15 P:4 Q:2 \
                     R:13 S:10 T:15 U:7 V:3 W:4 X:2 Y:4 Z:2 ?:4";
const SPANISH: &str = "A:12 B:2 C:4 CH:1 D:5 E:12 F:1 G:2 H:2 I:6 J:1 L:4 LL:1 M:2 N:5 Ñ:1 O:9 \
                       P:2 Q:1 R:5 RR:1 S:6 T:4 U:5 V:1 X:1 Y:1 Z:1 ?:2";

/// A bag without blanks and without Q: every Q word cannot be drawn.
const NO_Q: &str = "A:9 B:2 C:2 D:4 E:12 F:2 G:3 H:2 I:9 J:1 K:1 L:4 M:2 N:6 O:8 P:2 Q:0 R:6 \
                    S:4 T:6 U:4 V:2 W:2 X:1 Y:2 Z:1 ?:0";

/// The same bag as a lexq tile file.
fn tile_file(text: &str) -> String {
    let mut out = String::new();
    for item in text.split_whitespace() {
        let (label, n) = item.split_once(':').unwrap();
        out.push_str(&format!("{label} {n} 1\n"));
    }
    out
}

/// Checks combinations, probability and rank of every word of `lens`.
fn check_bag(lex: &Lexicon, oracle: &Oracle, tiles: &TileSet, bag_text: &str, lens: &[usize]) {
    let test = TestBag::new(bag_text);
    let bag = Bag::new(tiles);
    let total: usize = test.counts.values().sum::<usize>() + test.blanks;
    assert_eq!(bag.total(), total);
    let ranks = Ranks::new(lex, &bag, lens.iter().copied()).unwrap();
    let mut checked = 0;
    let mut tied = 0;
    let mut zero = 0;
    for &len in lens {
        let words: Vec<&Vec<u8>> = oracle.words.iter().filter(|w| w.len() == len).collect();
        assert_eq!(ranks.words_of_len(len), words.len(), "length {len}");
        let expected: Vec<u128> = words
            .iter()
            .map(|w| test.combinations(&oracle.alpha, w))
            .collect();
        let mut sorted = expected.clone();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        for (w, &want) in words.iter().zip(&expected) {
            let spelled = oracle.alpha.spell(w);
            assert_eq!(bag.combinations(w), Some(want), "{spelled}");
            if test.blanks == 2 {
                assert_eq!(test.zyzzyva(&oracle.alpha, w), want, "{spelled}");
            }
            let rank = 1 + sorted.iter().filter(|&&x| x > want).count() as u32;
            assert_eq!(ranks.rank(w), Some(rank), "{spelled}");
            let p = bag.probability(w).unwrap();
            let exact = want as f64 / binom(total, len) as f64;
            assert!(
                (p - exact).abs() <= exact * 1e-12,
                "{spelled}: {p} vs {exact}"
            );
            checked += 1;
            tied += usize::from(sorted.iter().filter(|&&x| x == want).count() > 1);
            zero += usize::from(want == 0);
        }
    }
    assert!(checked > 100 && tied > 10, "{checked} words, {tied} tied");
    if bag_text == NO_Q {
        assert!(zero > 5, "{zero} words with no draws");
    }
}

#[test]
fn english_ranks_match_the_oracle() {
    let lex = Lexicon::embedded();
    let tiles = TileSet::named("english", lex.alphabet()).unwrap();
    check_bag(&lex, &ENABLE, &tiles, ENGLISH, &[2, 3, 7, 8, 15]);
}

#[test]
fn four_blanks_and_no_blanks() {
    let lex = Lexicon::embedded();
    let tiles = TileSet::named("english_super", lex.alphabet()).unwrap();
    check_bag(&lex, &ENABLE, &tiles, SUPER, &[4, 7, 9]);
    let no_q = TileSet::from_text("no-q", &tile_file(NO_Q), lex.alphabet()).unwrap();
    check_bag(&lex, &ENABLE, &no_q, NO_Q, &[3, 4, 5]);
}

#[test]
fn spanish_multi_letter_tiles() {
    let text = std::fs::read_to_string(SPANISH_PATH).unwrap();
    let lex = build_lexicon(Alphabet::spanish(), &text).unwrap();
    let oracle = Oracle::new(TileAlphabet::spanish(), &text);
    let tiles = TileSet::named("spanish", lex.alphabet()).unwrap();
    let lens: Vec<usize> = (1..=lex.max_word_len()).collect();
    check_bag(&lex, &oracle, &tiles, SPANISH, &lens);
}

/// Hand-checked counts: the module documentation's worked example and
/// doubled letters.
#[test]
fn hand_checked() {
    let lex = Lexicon::embedded();
    let bag = Bag::new(&TileSet::named("english", lex.alphabet()).unwrap());
    let w = |s: &str| lex.alphabet().encode(s).unwrap();
    // CAT: 2*9*6 + 2*(9*6 + 2*6 + 2*9) + (6 + 9 + 2).
    assert_eq!(bag.combinations(&w("cat")), Some(108 + 168 + 17));
    // EE: C(12,2) + 2*12 + 1.
    assert_eq!(bag.combinations(&w("ee")), Some(66 + 24 + 1));
    // ZZZ: one Z and both blanks; ZZZZ cannot be drawn.
    assert_eq!(bag.combinations(&w("zzz")), Some(1));
    assert_eq!(bag.combinations(&w("zzzz")), Some(0));
    assert_eq!(bag.points(&w("quiz")), 22);
}

#[test]
fn every_word_in_order() {
    let lex = Lexicon::embedded();
    let mut got = Vec::with_capacity(ENABLE.words.len());
    lex.for_each_word(1, 63, |w| {
        got.push(w.to_vec());
        ControlFlow::Continue(())
    });
    assert!(
        got == ENABLE.words,
        "{} words against {}",
        got.len(),
        ENABLE.words.len()
    );
    let mut sevens = Vec::new();
    lex.for_each_word(7, 7, |w| {
        sevens.push(w.to_vec());
        ControlFlow::Continue(())
    });
    let want: Vec<Vec<u8>> = ENABLE
        .words
        .iter()
        .filter(|w| w.len() == 7)
        .cloned()
        .collect();
    assert!(
        sevens == want,
        "{} sevens against {}",
        sevens.len(),
        want.len()
    );

    let text = std::fs::read_to_string(SPANISH_PATH).unwrap();
    let es = build_lexicon(Alphabet::spanish(), &text).unwrap();
    let oracle = Oracle::new(TileAlphabet::spanish(), &text);
    let mut got = Vec::new();
    es.for_each_word(2, 9, |w| {
        got.push(w.to_vec());
        ControlFlow::Continue(())
    });
    let want: Vec<Vec<u8>> = oracle
        .words
        .iter()
        .filter(|w| (2..=9).contains(&w.len()))
        .cloned()
        .collect();
    assert!(got == want, "{} words against {}", got.len(), want.len());
}

/// `Words::sort_by_probability` and `sort_by_points` against the test's own
/// counts and tile values: the most draws first (shorter words first among
/// equal draws, then by alphagram), the most points first (then alphabet
/// order).
#[test]
fn words_sorted_by_probability_and_points() {
    let lex = Lexicon::embedded();
    let tiles = TileSet::named("english", lex.alphabet()).unwrap();
    let bag = Bag::new(&tiles);
    let test = TestBag::new(ENGLISH);
    let alpha = &ENABLE.alpha;
    let ranks = Ranks::new(&lex, &bag, [5, 6, 7]).unwrap();
    let value = |w: &str| -> i32 {
        w.chars()
            .map(|c| tiles.value(lex.alphabet().encode(&c.to_string()).unwrap()[0]))
            .sum()
    };
    let draws: HashMap<usize, Vec<u128>> = (5..=7)
        .map(|len| {
            let all = ENABLE.words.iter().filter(|x| x.len() == len);
            (len, all.map(|x| test.combinations(alpha, x)).collect())
        })
        .collect();
    for rack in ["aeinst?", "qrstuv?", "eeilrst"] {
        let mut words = lex.search().lengths(5, 7).subanagram(rack).unwrap();
        let mut want: Vec<String> = words.to_strings();
        assert!(want.len() > 3, "{rack}");
        let code = |w: &String| lex.alphabet().encode(w).unwrap();
        let alphagram = |w: &String| {
            let mut a = code(w);
            a.sort_unstable();
            (a, code(w))
        };
        // A word's rank within its length: 1 + the words with more draws.
        let rank = |w: &String| {
            let c = test.combinations(alpha, &code(w));
            1 + draws[&w.len()].iter().filter(|&&x| x > c).count()
        };
        want.sort_by_cached_key(|w| (rank(w), w.len(), alphagram(w)));
        words.sort_by_probability(&ranks);
        assert_eq!(words.to_strings(), want, "{rack}");
        let mut by_points = words.to_strings();
        by_points.sort_by(|a, b| value(b).cmp(&value(a)).then_with(|| a.cmp(b)));
        words.sort_by_points(&bag);
        assert_eq!(words.to_strings(), by_points, "{rack}");
    }
}
