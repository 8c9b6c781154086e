//! Probability order: how likely a word's tiles are to be drawn from a full
//! bag, and each word's rank among the words of its length, as Zyzzyva
//! computes them; and a word's point value.
//!
//! # The count
//!
//! Draw `n` tiles from a full bag of `T` tiles (blanks included), every set
//! of `n` tiles as likely as any other: there are `C(T, n)` such draws. A
//! draw *spells* a word of `n` tiles when its lettered tiles are some of the
//! word's letters and its blanks stand for the rest. The word's
//! *combinations* are the number of draws that spell it; its *probability*
//! is that number over `C(T, n)`.
//!
//! A draw that spells the word uses `b` blanks and, of each distinct
//! letter `L` the word holds `n_L` times, `n_L - d_L` lettered tiles, with
//! `d_L` the letters the blanks stand for (`d_L <= n_L`, the `d_L` adding
//! up to `b`). With `c_L` tiles `L` and `B` blanks in the bag:
//!
//! ```text
//! combinations = sum over b = 0..=B of C(B, b) * sum over the d with sum d_L = b
//!                of the product over L of C(c_L, n_L - d_L)
//! ```
//!
//! Worked example, CAT from the English bag (A 9, C 2, T 6, 2 blanks):
//! no blank, `2 * 9 * 6 = 108`; one blank (for C, A or T),
//! `C(2,1) * (9*6 + 2*6 + 2*9) = 2 * 84 = 168`; two blanks (for CA, CT
//! or AT), `C(2,2) * (6 + 9 + 2) = 17`; in all 293 of the `C(100, 3) =
//! 161,700` three-tile draws, a probability of 0.00181.
//!
//! The inner sum is the coefficient of `x^b` in the product over the
//! letters of `C(c_L, n_L) + C(c_L, n_L - 1) x + ... + C(c_L, 0) x^n_L`, which
//! is how [`Bag::combinations`] computes it (one polynomial product, kept
//! to the degree `B`), exactly, in 128-bit integers.
//!
//! This is Zyzzyva's count (`LetterBag::getNumCombinations`, with its
//! default of two blanks): it adds the draws with no blank, with one blank
//! for each distinct letter, and with two blanks for each pair of distinct
//! letters or twice the same letter, weighting them by `C(2, b)`. Zyzzyva
//! stops at two blanks, the number in its bags; here every blank of the tile
//! set counts, so for bags of at most two blanks (English, Friends, Spanish)
//! the two agree, and for a bag with more (`english_super`, 4 blanks) this is
//! the exact chance where Zyzzyva's would leave out the draws with three or
//! four blanks.
//!
//! # The rank
//!
//! Words are ranked within their length, most combinations first. Words
//! with the same combinations (anagrams always) are tied: Zyzzyva numbers
//! them one after another in alphagram order, then alphabetical order, and
//! keeps the first and last of those numbers as the tie's range; here a
//! tied word's rank is the first, shared by the whole tie (`Ranks::rank`),
//! and [`order`] lists tied words in Zyzzyva's order. A word the bag cannot
//! supply (more of a letter than the bag holds with its blanks, or more
//! tiles than the bag) has 0 combinations and ranks last, tied with every
//! other such word of its length.
//!
//! ```
//! use lexq::probability::{Bag, Ranks};
//! use lexq::{Lexicon, TileSet};
//! let lex = Lexicon::embedded();
//! let bag = Bag::new(&TileSet::named("english", lex.alphabet())?);
//! let codes = |w: &str| lex.alphabet().encode(w).unwrap();
//! assert_eq!(bag.combinations(&codes("cat")), Some(293));
//! assert_eq!(bag.points(&codes("cat")), 5);
//! let ranks = Ranks::new(&lex, &bag, 2..=2).unwrap();
//! // AE (151 combinations), OE (137), AI (118), then EN, ER, ET, NE and
//! // RE tied (109 each), all fourth; the next word is ninth.
//! assert_eq!(ranks.rank(&codes("ae")), Some(1));
//! assert_eq!(ranks.rank(&codes("ai")), Some(3));
//! assert_eq!(ranks.rank(&codes("ne")), Some(4));
//! assert_eq!(ranks.rank(&codes("re")), Some(4));
//! # Ok::<(), lexq::Error>(())
//! ```

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt;

use crate::alphabet::tileset::TileSet;
use crate::lexicon::Lexicon;

/// A full bag of tiles, for counting the draws that spell a word.
#[derive(Clone, Debug)]
pub struct Bag {
    /// Tiles of each code, code 0 the blanks.
    counts: [u8; 64],
    values: [i32; 64],
    total: usize,
}

impl Bag {
    /// The full bag of a tile set.
    pub fn new(tiles: &TileSet) -> Bag {
        let mut counts = [0u8; 64];
        for (code, count) in counts.iter_mut().enumerate() {
            *count = tiles.count(code as u8).min(255) as u8;
        }
        Bag {
            counts,
            values: *tiles.values(),
            total: tiles.total(),
        }
    }

    /// Tiles in the full bag.
    pub fn total(&self) -> usize {
        self.total
    }

    /// Blanks in the full bag.
    pub fn blanks(&self) -> usize {
        self.counts[0] as usize
    }

    /// The number of ways to draw, from the full bag, as many tiles as
    /// `word` has that spell it, blanks standing for any letter (see the
    /// [module documentation](self)); 0 if the bag cannot supply it. `None`
    /// if a count passes `u128::MAX`, which takes a bag of more than about
    /// 130 tiles and words of more than about 34 tiles, or if the word has
    /// more tiles than a lexicon's longest possible word
    /// ([`MAX_WORD_LEN`](crate::lexicon::gaddag::MAX_WORD_LEN)).
    pub fn combinations(&self, word: &[u8]) -> Option<u128> {
        if word.len() > crate::lexicon::gaddag::MAX_WORD_LEN {
            return None;
        }
        // The word's letters with their multiplicities, in code order.
        let mut need = [0u8; 64];
        for &c in word {
            need[c as usize & 63] = need[c as usize & 63].saturating_add(1);
        }
        let blanks = self.blanks().min(word.len());
        // Terms up to the blanks' degree: eight for every standard bag.
        if blanks < 8 {
            self.count_draws::<8>(word, &mut need, blanks)
        } else {
            self.count_draws::<64>(word, &mut need, blanks)
        }
    }

    /// [`Bag::combinations`] of `word` with letters `need`, `blanks`
    /// (below `N`) of them standing in for letters at most.
    fn count_draws<const N: usize>(
        &self,
        word: &[u8],
        need: &mut [u8; 64],
        blanks: usize,
    ) -> Option<u128> {
        // poly[b]: the ways to draw the lettered tiles of the letters seen
        // so far when blanks stand for b of their letters. Only the first
        // `degree + 1` terms are ever read: each product clears just the
        // terms it writes (clearing all 64 was most of a word's count).
        let mut poly = [0u128; N];
        poly[0] = 1;
        let mut degree = 0usize;
        let mut next = [0u128; N];
        for &c in word {
            let code = c as usize & 63;
            let n = need[code];
            if n == 0 || code == 0 {
                continue;
            }
            // Each distinct letter once, at its first place in the word.
            need[code] = 0;
            let have = self.counts[code];
            let top = (degree + n as usize).min(blanks);
            next[..=top].fill(0);
            for (b, &ways) in poly.iter().enumerate().take(degree + 1) {
                if ways == 0 {
                    continue;
                }
                // d of this letter's n from blanks, n - d from its tiles.
                for d in 0..=(n as usize).min(top.saturating_sub(b)) {
                    let tiles = choose(have as u64, (n as usize - d) as u64)?;
                    if tiles == 0 {
                        continue;
                    }
                    let add = ways.checked_mul(tiles)?;
                    next[b + d] = next[b + d].checked_add(add)?;
                }
            }
            poly[..=top].copy_from_slice(&next[..=top]);
            degree = top;
        }
        let mut total = 0u128;
        for (b, &ways) in poly.iter().enumerate().take(degree + 1) {
            if ways != 0 {
                let pick = choose(self.blanks() as u64, b as u64)?;
                total = total.checked_add(ways.checked_mul(pick)?)?;
            }
        }
        Some(total)
    }

    /// The chance that as many tiles as `word` has, drawn from the full
    /// bag, spell it: [`combinations`](Bag::combinations) over the number of
    /// draws of that size (`None` as for `combinations`).
    pub fn probability(&self, word: &[u8]) -> Option<f64> {
        Some(self.chance(word.len(), self.combinations(word)?))
    }

    /// The chance of a word of `len` tiles that `ways` draws spell (its
    /// [`combinations`](Bag::combinations)): `ways` over the draws of
    /// `len` tiles. For a caller that has counted `ways` already.
    pub fn chance(&self, len: usize, ways: u128) -> f64 {
        if ways == 0 {
            return 0.0;
        }
        // C(total, n) as a float: only the ratio is wanted.
        let mut draws = 1f64;
        for i in 0..len {
            draws = draws * self.total.saturating_sub(i) as f64 / (i + 1) as f64;
        }
        ways as f64 / draws
    }

    /// The word's point value: the sum of its tiles' values.
    pub fn points(&self, word: &[u8]) -> i32 {
        word.iter().map(|&c| self.values[c as usize & 63]).sum()
    }
}

/// Pascal's triangle to row 63: `C(n, k)` for `n < 64` (the largest,
/// `C(63, 31)`, is under 2^60), made at compile time.
static PASCAL: [[u64; 64]; 64] = {
    let mut t = [[0u64; 64]; 64];
    let mut n = 0;
    while n < 64 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    t
};

/// `C(n, k)`, or `None` past `u128`: a look-up for the counts of a tile
/// set's letters (below 64), else counted.
#[inline]
fn choose(n: u64, k: u64) -> Option<u128> {
    if k > n {
        return Some(0);
    }
    if n < 64 {
        return Some(PASCAL[n as usize][k as usize] as u128);
    }
    let k = k.min(n - k);
    let mut r: u128 = 1;
    for i in 0..k {
        // r = C(n, i); r * (n - i) is C(n, i + 1) * (i + 1), so it divides.
        r = r.checked_mul((n - i) as u128)? / (i + 1) as u128;
    }
    Some(r)
}

/// A count of combinations too large for `u128`, for words of `len` tiles
/// from a bag of `tiles` tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overflow {
    /// The word length.
    pub len: usize,
    /// The bag's tiles.
    pub tiles: usize,
}

impl fmt::Display for Overflow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the draws of {} tiles from a bag of {} are too many to count exactly (over 2^128)",
            self.len, self.tiles
        )
    }
}

impl std::error::Error for Overflow {}

/// The combinations of every word of some lengths of a lexicon, for ranking
/// words in probability order within their length.
#[derive(Clone, Debug)]
pub struct Ranks {
    /// For each length: the combinations of its words, most first.
    by_len: BTreeMap<usize, Vec<u128>>,
    bag: Bag,
}

impl Ranks {
    /// Counts the combinations of every word of the lexicon whose length
    /// is in `lens` (one walk of those words).
    pub fn new(
        lex: &Lexicon,
        bag: &Bag,
        lens: impl IntoIterator<Item = usize>,
    ) -> Result<Ranks, Overflow> {
        let mut by_len: BTreeMap<usize, Vec<u128>> = lens
            .into_iter()
            .filter(|&n| n >= 1 && n <= lex.max_word_len())
            .map(|n| (n, Vec::new()))
            .collect();
        let (Some(&min), Some(&max)) = (by_len.keys().next(), by_len.keys().next_back()) else {
            return Ok(Ranks {
                by_len,
                bag: bag.clone(),
            });
        };
        let mut overflow = None;
        lex.for_each_word(min, max, |word| {
            if let Some(list) = by_len.get_mut(&word.len()) {
                match bag.combinations(word) {
                    Some(ways) => list.push(ways),
                    None => {
                        overflow = Some(Overflow {
                            len: word.len(),
                            tiles: bag.total(),
                        });
                        return std::ops::ControlFlow::Break(());
                    }
                }
            }
            std::ops::ControlFlow::Continue(())
        });
        if let Some(o) = overflow {
            return Err(o);
        }
        for list in by_len.values_mut() {
            list.sort_unstable_by(|a, b| b.cmp(a));
        }
        Ok(Ranks {
            by_len,
            bag: bag.clone(),
        })
    }

    /// The lengths counted.
    pub fn lengths(&self) -> impl Iterator<Item = usize> + '_ {
        self.by_len.keys().copied()
    }

    /// The bag the combinations were counted with.
    pub fn bag(&self) -> &Bag {
        &self.bag
    }

    /// The rank of `word` in probability order among the words of its
    /// length: one more than the number of words with more combinations,
    /// so tied words share a rank. `None` if its length was not counted
    /// (or its count overflows, see [`Bag::combinations`]).
    pub fn rank(&self, word: &[u8]) -> Option<u32> {
        self.rank_of(word.len(), self.bag.combinations(word)?)
    }

    /// The rank of a word of `len` tiles that `ways` draws spell (its
    /// [`combinations`](Bag::combinations), counted already): as
    /// [`Ranks::rank`], without counting them again.
    pub fn rank_of(&self, len: usize, ways: u128) -> Option<u32> {
        let list = self.by_len.get(&len)?;
        Some(list.partition_point(|&w| w > ways) as u32 + 1)
    }

    /// How many words of length `len` were counted.
    pub fn words_of_len(&self, len: usize) -> usize {
        self.by_len.get(&len).map_or(0, Vec::len)
    }
}

/// Zyzzyva's order among words of the same rank: alphagram (the word's
/// tiles sorted), then the word itself, by tile code.
///
/// ```
/// use lexq::probability::order;
/// let a = lexq::Alphabet::english();
/// let (east, seat) = (a.encode("east")?, a.encode("seat")?);
/// let eats = a.encode("eats")?;
/// assert!(order(&eats, &seat).is_lt() && order(&east, &eats).is_lt());
/// # Ok::<(), lexq::Error>(())
/// ```
pub fn order(a: &[u8], b: &[u8]) -> Ordering {
    let mut x = [0u8; 64];
    let mut y = [0u8; 64];
    let (x, y) = (&mut x[..a.len().min(64)], &mut y[..b.len().min(64)]);
    x.copy_from_slice(&a[..x.len()]);
    y.copy_from_slice(&b[..y.len()]);
    x.sort_unstable();
    y.sort_unstable();
    x.cmp(&y).then_with(|| a.cmp(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Alphabet;

    fn bag(name: &str) -> (Bag, Alphabet) {
        let a = Alphabet::english();
        (Bag::new(&TileSet::named(name, &a).unwrap()), a)
    }

    #[test]
    fn worked_example_and_limits() {
        let (b, a) = bag("english");
        let w = |s: &str| a.encode(s).unwrap();
        assert_eq!(b.combinations(&w("cat")), Some(293));
        // Q once, two blanks: QQQ is one blank pair and the Q; QQQQ none.
        assert_eq!(b.combinations(&w("qqq")), Some(1));
        assert_eq!(b.combinations(&w("qqqq")), Some(0));
        assert_eq!(b.probability(&w("qqqq")), Some(0.0));
        let p = b.probability(&w("cat")).unwrap();
        assert!((p - 293.0 / 161_700.0).abs() < 1e-15, "{p}");
        assert_eq!(
            choose(100, 50),
            Some(100_891_344_545_564_193_334_812_497_256)
        );
        assert_eq!(choose(5, 7), Some(0));
        // The table against the count, where they meet and beyond.
        for n in 0..80u64 {
            for k in 0..=n {
                let counted = (0..k).try_fold(1u128, |r, i| {
                    Some(r.checked_mul((n - i) as u128)? / (i + 1) as u128)
                });
                assert_eq!(choose(n, k), counted, "C({n}, {k})");
            }
        }
        assert_eq!(choose(63, 31), Some(916_312_070_471_295_267));
        assert_eq!(choose(250, 120), None);
    }
}
