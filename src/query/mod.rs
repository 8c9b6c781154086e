//! Word queries: the [`Search`] builder and the [`Words`] it returns.
//!
//! Each query turns its argument into tile codes, runs one of the walks of
//! [`crate::query::walk`] over the lexicon's arc table ([`crate::lexicon::raw`]), and
//! collects the words sorted in alphabet order without duplicates.

mod affix;
mod anagram;
pub mod find;
pub(crate) mod pattern;
pub(crate) mod plan;
pub mod probability;
pub(crate) mod regex;
mod sort;
pub mod suggest;
pub(crate) mod walk;

use std::fmt;

use crate::alphabet::Alphabet;
use crate::error::{Arg, Error, Result, WordErrorKind};
use crate::lexicon::Lexicon;
use crate::lexicon::gaddag::MAX_WORD_LEN;

pub use affix::Hooks;

/// The longest argument (pattern, regex, rack) a query takes, in bytes.
pub const MAX_ARG_LEN: usize = 1024;

/// Word lengths a query reports, in tiles, both ends included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Lengths {
    /// The shortest length reported.
    pub min: usize,
    /// The longest length reported.
    pub max: usize,
}

impl Lengths {
    /// Every length.
    pub(crate) const ANY: Lengths = Lengths {
        min: 0,
        max: MAX_WORD_LEN,
    };
}

impl Default for Lengths {
    fn default() -> Lengths {
        Lengths::ANY
    }
}

/// A query in the making: the lexicon, the word lengths wanted, letters on
/// the board to play through (for the rack queries), and how many words to
/// keep.
///
/// Its queries collect the words and sort them. To receive words as they
/// are found, each once and unsorted, and to stop the walk early, state
/// the search as a [`find::Query`] and call
/// [`find::Prepared::for_each`].
///
/// ```
/// use lexq::Lexicon;
/// let lex = Lexicon::embedded();
/// let words = lex.search().lengths(4, 4).ends("ZZ")?;
/// assert_eq!(words.to_strings(), ["BUZZ", "FIZZ", "FUZZ", "JAZZ", "RAZZ"]);
/// let some = lex.search().max_len(2).limit(3).contains("x")?;
/// assert_eq!(some.to_strings(), ["AX", "EX", "OX"]);
/// assert_eq!(some.found(), 5); // XI and XU too
/// let through = lex.search().through("ain").anagram("ret")?;
/// assert_eq!(through.to_strings(), ["RETAIN"]);
/// # Ok::<(), lexq::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Search<'a> {
    pub(crate) lex: &'a Lexicon,
    lens: Lengths,
    through: Option<&'a str>,
    limit: Option<usize>,
}

impl<'a> Search<'a> {
    pub(crate) fn new(lex: &'a Lexicon) -> Search<'a> {
        Search {
            lex,
            lens: Lengths::ANY,
            through: None,
            limit: None,
        }
    }

    /// Reports only words of `min` to `max` tiles.
    pub fn lengths(mut self, min: usize, max: usize) -> Search<'a> {
        self.lens = Lengths {
            min,
            max: max.min(MAX_WORD_LEN),
        };
        self
    }

    /// Reports only words of at least `min` tiles (the longest unchanged).
    pub fn min_len(mut self, min: usize) -> Search<'a> {
        self.lens.min = min;
        self
    }

    /// Reports only words of at most `max` tiles (the shortest unchanged).
    pub fn max_len(mut self, max: usize) -> Search<'a> {
        self.lens.max = max.min(MAX_WORD_LEN);
        self
    }

    /// Plays the rack queries ([`Search::anagram`], [`Search::subanagram`])
    /// through `letters`, a block of tiles already on the board: each word
    /// holds them in a row, with the rack's tiles around them. The other
    /// queries ignore it.
    pub fn through(mut self, letters: &'a str) -> Search<'a> {
        self.through = Some(letters);
        self
    }

    /// Keeps the first `n` words found, in alphabet order;
    /// [`Words::found`] still counts them all.
    pub fn limit(mut self, n: usize) -> Search<'a> {
        self.limit = Some(n);
        self
    }

    /// The letters to play through, if any.
    pub(crate) fn through_letters(&self) -> Option<&'a str> {
        self.through
    }

    /// The lengths asked for, narrowed to the lexicon's longest word.
    pub(crate) fn lens(&self) -> Lengths {
        Lengths {
            min: self.lens.min,
            max: self.lens.max.min(self.lex.max_word_len()),
        }
    }

    pub(crate) fn collector(&self) -> Collector<'a> {
        // Room for a typical answer (a dozen words), so that small
        // answers do not grow their buffers step by step.
        Collector {
            alphabet: self.lex.alphabet(),
            codes: Vec::with_capacity(128),
            spans: Vec::with_capacity(16),
            blanks: Vec::new(),
            limit: self.limit.unwrap_or(usize::MAX),
        }
    }
}

/// The error about argument `arg` given as `input`.
pub(crate) fn arg_error(arg: Arg, input: &str, kind: WordErrorKind) -> Error {
    Error::Word {
        arg,
        input: input.to_string(),
        kind,
    }
}

/// A query argument, trimmed, if it is neither empty nor longer than
/// [`MAX_ARG_LEN`].
fn checked_arg(arg: Arg, text: &str) -> Result<&str> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(arg_error(arg, text, WordErrorKind::Empty));
    }
    if trimmed.len() > MAX_ARG_LEN {
        let kind = WordErrorKind::TooLong { max: MAX_ARG_LEN };
        return Err(arg_error(arg, text, kind));
    }
    Ok(trimmed)
}

/// Reads a query argument as tiles.
pub(crate) fn tiles_of(lex: &Lexicon, arg: Arg, text: &str) -> Result<Vec<u8>> {
    let trimmed = checked_arg(arg, text)?;
    let mut codes = Vec::with_capacity(trimmed.len());
    lex.alphabet()
        .encode_into(trimmed, &mut codes)
        .map_err(|kind| arg_error(arg, text, kind))?;
    if codes.len() > MAX_WORD_LEN {
        let kind = WordErrorKind::TooManyTiles {
            tiles: codes.len(),
            max: MAX_WORD_LEN,
        };
        return Err(arg_error(arg, text, kind));
    }
    Ok(codes)
}

/// Set on a code a walk reports to say a blank stands for that letter
/// (tile codes are below 64).
pub(crate) const BLANK: u8 = 0x40;

/// Gathers the words a walk reports.
pub(crate) struct Collector<'a> {
    alphabet: &'a Alphabet,
    codes: Vec<u8>,
    spans: Vec<(u32, u32)>,
    /// For words with blanks: (start, bit i set if letter i is a blank),
    /// in increasing start order.
    blanks: Vec<(u32, u64)>,
    /// How many words to keep, first in alphabet order.
    limit: usize,
}

impl<'a> Collector<'a> {
    /// Adds the word `rev(left) anchor right`; codes with [`BLANK`] set
    /// are letters played with a blank.
    pub(crate) fn push(&mut self, left_rev: &[u8], anchor: &[u8], right: &[u8]) {
        let start = self.codes.len() as u32;
        self.codes.extend(left_rev.iter().rev());
        self.codes.extend_from_slice(anchor);
        self.codes.extend_from_slice(right);
        let word = &mut self.codes[start as usize..];
        // Most walks place no blank: one pass to tell.
        if word.iter().fold(0, |m, &c| m | c) & BLANK != 0 {
            let mut mask = 0u64;
            for (i, c) in word.iter_mut().enumerate() {
                if *c & BLANK != 0 {
                    *c &= !BLANK;
                    mask |= 1 << (i & 63);
                }
            }
            self.blanks.push((start, mask));
        }
        self.spans.push((start, self.codes.len() as u32));
    }

    /// The words, sorted and without duplicates (of a word reported with
    /// blanks in several places, the one with blanks furthest right; which
    /// of several equal letters a blank takes is otherwise the walk's
    /// choice, always the same).
    pub(crate) fn finish(self) -> Words<'a> {
        let limit = self.limit;
        let mut words = Words {
            alphabet: self.alphabet,
            codes: self.codes,
            spans: self.spans,
            blanks: self.blanks,
            found: 0,
        };
        let blanks = &words.blanks;
        let mask = |start: u32| blank_mask(blanks, start);
        let codes = &words.codes;
        let slice = |&(s, e): &(u32, u32)| &codes[s as usize..e as usize];
        // Sort on the first 10 codes packed into a u64 (6 bits each, zero
        // padding sorts first like the end of a word), and on the whole
        // word only for ties.
        let mut keyed: Vec<(u64, (u32, u32))> = words
            .spans
            .iter()
            .map(|span| {
                let mut key = 0u64;
                let w = slice(span);
                for &c in w.iter().take(10) {
                    key = (key << 6) | (c & 63) as u64;
                }
                key <<= 6 * (10 - w.len().min(10));
                (key, *span)
            })
            .collect();
        sort::sort_keyed(&mut keyed, |a, b| {
            slice(&a)
                .cmp(slice(&b))
                .then_with(|| mask(a.0).reverse_bits().cmp(&mask(b.0).reverse_bits()))
        });
        keyed.dedup_by(|a, b| a.0 == b.0 && slice(&a.1) == slice(&b.1));
        words.found = keyed.len();
        keyed.truncate(limit);
        words.spans.clear();
        words.spans.extend(keyed.iter().map(|&(_, span)| span));
        words
    }
}

/// Gathers the words of a walk that reports them in alphabet order, each
/// once (a regex plan's forward walk, or one from the start of the word):
/// kept as they come, the first `limit` only, all counted. Beside
/// [`Collector`], so that only this module builds a [`Words`].
pub(crate) struct Ordered {
    codes: Vec<u8>,
    spans: Vec<(u32, u32)>,
    found: usize,
    limit: usize,
}

impl Ordered {
    pub(crate) fn new(limit: usize) -> Ordered {
        Ordered {
            codes: Vec::with_capacity(128),
            spans: Vec::with_capacity(16),
            found: 0,
            limit,
        }
    }

    /// Adds the word `rev(left) anchor right` (no blanks in these walks).
    #[inline]
    pub(crate) fn push(&mut self, left_rev: &[u8], anchor: &[u8], right: &[u8]) {
        self.found += 1;
        if self.spans.len() >= self.limit {
            return;
        }
        let start = self.codes.len() as u32;
        if !left_rev.is_empty() {
            self.codes.extend(left_rev.iter().rev());
        }
        self.codes.extend_from_slice(anchor);
        if !right.is_empty() {
            self.codes.extend_from_slice(right);
        }
        self.spans.push((start, self.codes.len() as u32));
    }

    pub(crate) fn finish(self, alphabet: &Alphabet) -> Words<'_> {
        Words {
            alphabet,
            codes: self.codes,
            spans: self.spans,
            blanks: Vec::new(),
            found: self.found,
        }
    }
}

/// The blank mask of the word starting at `start`.
fn blank_mask(blanks: &[(u32, u64)], start: u32) -> u64 {
    if blanks.is_empty() {
        return 0;
    }
    blanks
        .binary_search_by_key(&start, |b| b.0)
        .map_or(0, |i| blanks[i].1)
}

/// The words a query found: sorted in alphabet order, each once.
///
/// ```
/// let lex = lexq::Lexicon::embedded();
/// let mut words = lex.anagram("aeinst?")?;
/// assert_eq!(words.len(), 67);
/// words.sort_by_length();
/// words.truncate(2);
/// let first = words.iter().next().unwrap();
/// assert_eq!((first.to_string(), first.len()), ("ACETINS".to_string(), 7));
/// # Ok::<(), lexq::Error>(())
/// ```
#[derive(Clone)]
pub struct Words<'a> {
    alphabet: &'a Alphabet,
    codes: Vec<u8>,
    spans: Vec<(u32, u32)>,
    blanks: Vec<(u32, u64)>,
    found: usize,
}

impl<'a> Words<'a> {
    /// How many words (at most the search's [`Search::limit`]).
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// How many words the query found, before any [`Search::limit`] or
    /// [`Words::truncate`].
    pub fn found(&self) -> usize {
        self.found
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The words in their current order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Word<'_>> + '_ {
        self.spans.iter().map(move |&(s, e)| Word {
            codes: &self.codes[s as usize..e as usize],
            alphabet: self.alphabet,
            blanks: blank_mask(&self.blanks, s),
        })
    }

    /// Puts the longest words first, each length in alphabet order.
    pub fn sort_by_length(&mut self) {
        let codes = &self.codes;
        self.spans.sort_by(|&(s1, e1), &(s2, e2)| {
            (e2 - s2)
                .cmp(&(e1 - s1))
                .then_with(|| codes[s1 as usize..e1 as usize].cmp(&codes[s2 as usize..e2 as usize]))
        });
    }

    /// Puts the words worth most points first (the tile values of `bag`'s
    /// set, a blank 0), ties in alphabet order.
    ///
    /// ```
    /// use lexq::probability::Bag;
    /// let lex = lexq::Lexicon::embedded();
    /// let bag = Bag::new(&lexq::TileSet::named("english", lex.alphabet())?);
    /// let mut words = lex.search().lengths(4, 4).starts("qui")?;
    /// words.sort_by_points(&bag); // 22, 15, 14, 13, 13
    /// assert_eq!(words.to_strings(), ["QUIZ", "QUIP", "QUID", "QUIN", "QUIT"]);
    /// # Ok::<(), lexq::Error>(())
    /// ```
    pub fn sort_by_points(&mut self, bag: &probability::Bag) {
        let codes = &self.codes;
        let word = |&(s, e): &(u32, u32)| &codes[s as usize..e as usize];
        self.spans.sort_by_cached_key(|span| {
            (
                std::cmp::Reverse(bag.points(word(span))),
                word(span).to_vec(),
            )
        });
    }

    /// Puts the most probable words first, as [`probability::Ranks`] ranks
    /// them within a length (ties share a rank), then shorter words first,
    /// then [`probability::order`]; words the ranks do not cover last.
    pub fn sort_by_probability(&mut self, ranks: &probability::Ranks) {
        let codes = &self.codes;
        let word = |&(s, e): &(u32, u32)| &codes[s as usize..e as usize];
        // The key: rank, then length; ties (anagrams, mostly) by
        // Zyzzyva's order, compared only within a run of equal keys.
        let mut keyed: Vec<(u64, (u32, u32))> = self
            .spans
            .iter()
            .map(|span| {
                let w = word(span);
                let rank = ranks.rank(w).unwrap_or(u32::MAX);
                ((rank as u64) << 8 | w.len() as u64, *span)
            })
            .collect();
        sort::sort_keyed(&mut keyed, |a, b| probability::order(word(&a), word(&b)));
        self.spans.clear();
        self.spans.extend(keyed.into_iter().map(|(_, span)| span));
    }

    /// Keeps only the first `n` words.
    pub fn truncate(&mut self, n: usize) {
        self.spans.truncate(n);
    }

    /// The words spelled out (uppercase).
    pub fn to_strings(&self) -> Vec<String> {
        self.iter().map(|w| w.spelling()).collect()
    }
}

impl fmt::Debug for Words<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// One word of a [`Words`]: its tile codes, displayed as its spelling.
#[derive(Clone, Copy)]
pub struct Word<'a> {
    codes: &'a [u8],
    alphabet: &'a Alphabet,
    blanks: u64,
}

impl<'a> Word<'a> {
    /// The word's tile codes.
    pub fn codes(&self) -> &'a [u8] {
        self.codes
    }

    /// The number of tiles (a multi-letter tile counts once).
    pub fn len(&self) -> usize {
        self.codes.len()
    }

    /// Always false: words have tiles.
    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }

    /// Appends the word's spelling to `out` (faster than `Display` for
    /// printing many words).
    pub fn push_to(&self, out: &mut String) {
        self.alphabet.decode_into(self.codes, out);
    }

    /// Which letters a blank stands for, in an anagram or sub-anagram
    /// found with blanks: bit `i` is set if letter `i` (0-based, in tiles)
    /// is played with a blank, the last places of a letter the rack lacks.
    /// In a find with one rack that marks them
    /// ([`crate::find::Query::mark_blanks`]), the letters its named tiles
    /// do not pay for. Zero for other queries.
    ///
    /// ```
    /// let lex = lexq::Lexicon::embedded();
    /// let words = lex.anagram("ca?").unwrap();
    /// let cat = words.iter().find(|w| w.to_string() == "CAT").unwrap();
    /// assert_eq!(cat.blanks(), 0b100);
    /// ```
    pub fn blanks(&self) -> u64 {
        self.blanks
    }

    /// The spelling with the letters played with blanks in lowercase, as
    /// word-game tools show them.
    ///
    /// ```
    /// let lex = lexq::Lexicon::embedded();
    /// let words = lex.search().anagram("qi??").unwrap();
    /// let marked: Vec<String> = words.iter().map(|w| w.marked()).collect();
    /// assert!(marked.contains(&"QuIt".to_string()));
    /// ```
    pub fn marked(&self) -> String {
        let mut out = String::new();
        for (i, &c) in self.codes.iter().enumerate() {
            let label = self.alphabet.label(c).unwrap_or("\u{fffd}");
            if i < 64 && self.blanks & (1 << i) != 0 {
                out.push_str(&label.to_lowercase());
            } else {
                out.push_str(label);
            }
        }
        out
    }
}

impl Word<'_> {
    /// The word spelled out (uppercase): what `to_string` gives, without
    /// the formatting machinery.
    pub fn spelling(&self) -> String {
        let mut s = String::with_capacity(self.codes.len());
        for &c in self.codes {
            s.push_str(self.alphabet.label(c).unwrap_or("\u{fffd}"));
        }
        s
    }
}

impl fmt::Display for Word<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &c in self.codes {
            f.write_str(self.alphabet.label(c).unwrap_or("\u{fffd}"))?;
        }
        Ok(())
    }
}

impl fmt::Debug for Word<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{self}\"")
    }
}

/// Shortcuts for queries over every word length.
impl Lexicon {
    /// A query builder, for limiting word lengths.
    pub fn search(&self) -> Search<'_> {
        Search::new(self)
    }

    /// Words containing `sub` (see [`Search::contains`]).
    pub fn contains(&self, sub: &str) -> Result<Words<'_>> {
        self.search().contains(sub)
    }

    /// Words starting with `prefix` (see [`Search::starts`]).
    pub fn starts(&self, prefix: &str) -> Result<Words<'_>> {
        self.search().starts(prefix)
    }

    /// Words ending with `suffix` (see [`Search::ends`]).
    pub fn ends(&self, suffix: &str) -> Result<Words<'_>> {
        self.search().ends(suffix)
    }

    /// Words matching a wildcard pattern (see [`Search::pattern`]).
    pub fn pattern(&self, pattern: &str) -> Result<Words<'_>> {
        self.search().pattern(pattern)
    }

    /// Words matching a regular expression (see [`Search::regex`]).
    pub fn regex(&self, regex: &str) -> Result<Words<'_>> {
        self.search().regex(regex)
    }

    /// Words using exactly the rack's tiles (see [`Search::anagram`]).
    pub fn anagram(&self, rack: &str) -> Result<Words<'_>> {
        self.search().anagram(rack)
    }

    /// Words using some of the rack's tiles (see [`Search::subanagram`]).
    pub fn subanagram(&self, rack: &str) -> Result<Words<'_>> {
        self.search().subanagram(rack)
    }
}
