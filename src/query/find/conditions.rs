//! The conditions of a [`Query`](super::Query), as given and as compiled
//! against a lexicon.
//!
//! A [`Condition`] holds its arguments as text (what a user typed); a
//! [`Check`] holds them read as tiles of the lexicon's alphabet, parsed and
//! planned once. Every check can test one whole word ([`super::eval`]);
//! some also bound the walk letter by letter ([`super::plan`]).
//!
//! Letters in every argument are read as words are (any case, multi-letter
//! tiles greedily: Spanish `CH` is one tile), and `[...]` names one tile
//! exactly: `[C][H]` is C then H, `[R][R]` two R tiles.

use std::collections::HashSet;
use std::fmt;
use std::path::PathBuf;

use super::{FindError, FindErrorKind};
use crate::alphabet::Alphabet;
use crate::error::Syntax;
use crate::lexicon::Lexicon;
use crate::lexicon::gaddag::MAX_WORD_LEN;
use crate::query::MAX_ARG_LEN;
use crate::query::plan::Plan;

/// An inclusive range of numbers (a word's length, vowels, points...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Range {
    /// The smallest number allowed.
    pub min: u32,
    /// The largest number allowed.
    pub max: u32,
}

impl Range {
    /// Exactly `n`.
    pub fn exactly(n: u32) -> Range {
        Range { min: n, max: n }
    }

    /// From `min` to `max`, both included.
    pub fn between(min: u32, max: u32) -> Range {
        Range { min, max }
    }

    /// `n` or more.
    pub fn at_least(n: u32) -> Range {
        Range {
            min: n,
            max: u32::MAX,
        }
    }

    /// At most `n`.
    pub fn at_most(n: u32) -> Range {
        Range { min: 0, max: n }
    }

    /// Whether `n` is in the range.
    #[inline]
    pub fn holds(&self, n: u32) -> bool {
        self.min <= n && n <= self.max
    }

    /// Whether `n` (possibly negative, like a point total with negative
    /// tile values) is in the range.
    #[inline]
    fn holds_i64(&self, n: i64) -> bool {
        self.min as i64 <= n && n <= self.max as i64
    }
}

/// `N`, `N-M`, `N-` (N or more) or `-M` (at most M).
impl fmt::Display for Range {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.min, self.max) {
            (a, b) if a == b => write!(f, "{a}"),
            (a, u32::MAX) => write!(f, "{a}-"),
            (0, b) => write!(f, "-{b}"),
            (a, b) => write!(f, "{a}-{b}"),
        }
    }
}

impl std::str::FromStr for Range {
    type Err = String;

    /// Reads `N`, `N-M`, `N-`, `N+` or `-M`.
    ///
    /// ```
    /// use lexq::find::Range;
    /// assert_eq!("7".parse(), Ok(Range::exactly(7)));
    /// assert_eq!("2-3".parse(), Ok(Range::between(2, 3)));
    /// assert_eq!("10-".parse(), Ok(Range::at_least(10)));
    /// assert_eq!("10+".parse(), Ok(Range::at_least(10)));
    /// assert_eq!("-4".parse(), Ok(Range::at_most(4)));
    /// assert!("4-2".parse::<Range>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Range, String> {
        let t = s.trim();
        let num = |x: &str| {
            x.trim()
                .parse::<u32>()
                .map_err(|_| format!("{s:?} is not a number or range (N, N-M, N-, N+ or -M)"))
        };
        let r = if let Some(n) = t.strip_suffix('+') {
            Range::at_least(num(n)?)
        } else if let Some(m) = t.strip_prefix('-') {
            Range::at_most(num(m)?)
        } else if let Some((a, b)) = t.split_once('-') {
            if b.trim().is_empty() {
                Range::at_least(num(a)?)
            } else {
                Range::between(num(a)?, num(b)?)
            }
        } else {
            Range::exactly(num(t)?)
        };
        if r.min > r.max {
            return Err(format!(
                "{s:?} is an empty range ({} is more than {})",
                r.min, r.max
            ));
        }
        Ok(r)
    }
}

/// One condition a word must meet (or, negated in a [`Term`], must not).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Condition {
    /// A wildcard pattern over the whole word (`?`, `*`, `[ABC]`), as
    /// [`Search::pattern`](crate::Search::pattern).
    Pattern(String),
    /// A regular expression over the whole word, as
    /// [`Search::regex`](crate::Search::regex).
    Regex(String),
    /// Holds these letters together.
    Contains(String),
    /// Starts with these letters.
    Starts(String),
    /// Ends with these letters.
    Ends(String),
    /// Uses exactly the rack's tiles (see [`Condition::rack syntax`](Self::Anagram)):
    /// `?` or `_` a blank, `*` any run of letters, `{AEIOU}` one tile of a
    /// set, `[CH]` one named tile. With `through`, the word also holds that
    /// block of letters (on the board) with the rack's tiles around it.
    Anagram {
        /// The rack.
        rack: String,
        /// Letters on the board the word plays through, as one block.
        through: Option<String>,
    },
    /// Uses some of the rack's tiles: at least two, or one with `through`
    /// (a `*` in the rack lets any word through, as in Zyzzyva).
    Subanagram {
        /// The rack.
        rack: String,
        /// Letters on the board the word plays through, as one block.
        through: Option<String>,
    },
    /// The number of tiles.
    Length(Range),
    /// Holds every letter given, each at least as many times as given
    /// (`EE`: two E or more).
    Includes(String),
    /// At least `percent` per cent of the word's tiles are among `letters`.
    ConsistsOf {
        /// The letters.
        letters: String,
        /// The share, 0 to 100.
        percent: u8,
    },
    /// The number of vowels (tiles labelled A, E, I, O or U).
    Vowels(Range),
    /// The number of different tiles.
    Distinct(Range),
    /// The point value: the sum of the tiles' values in the query's tile
    /// set (a letter counts its value even if a blank would play it).
    Points(Range),
    /// The number of anagrams in the lexicon, the word itself included.
    Anagrams(Range),
    /// Takes a front hook: some letter (or, if given, every letter given)
    /// makes a word in front of it.
    FrontHook(Option<String>),
    /// Takes a back hook: some letter (or every letter given) makes a word
    /// after it.
    BackHook(Option<String>),
    /// Is a front hook of another word: without its first tile it is a
    /// word (`AGAZE`: `GAZE`).
    IsFrontHook,
    /// Is a back hook of another word: without its last tile it is a word
    /// (`VIGA`: `VIG`).
    IsBackHook,
    /// Has an inner hook: without its first or its last tile it is a word
    /// (Zyzzyva's "hook words").
    InnerHooks,
    /// With these letters in front it is still a word.
    TakesPrefix(String),
    /// With these letters after it it is still a word.
    TakesSuffix(String),
    /// Is in a word list file (one word a line) or in a lexicon file.
    InFile(PathBuf),
    /// Its probability rank among the lexicon's words of its length, as
    /// [`Ranks::rank`](crate::query::probability::Ranks::rank) gives it (tied words
    /// share the first rank of the tie).
    Probability(Range),
    /// At least one of the alternatives holds; each alternative is a list
    /// of terms that must all hold.
    Any(Vec<Vec<Term>>),
}

/// A condition, or its negation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    /// Whether the condition must not hold.
    pub negated: bool,
    /// The condition.
    pub condition: Condition,
}

impl Term {
    /// The condition must hold.
    pub fn is(condition: Condition) -> Term {
        Term {
            negated: false,
            condition,
        }
    }

    /// The condition must not hold.
    pub fn not(condition: Condition) -> Term {
        Term {
            negated: true,
            condition,
        }
    }
}

/// The term as `lexq find` spells it: `--not-contains U`.
impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.negated { "--not-" } else { "--" })?;
        let quoted = |s: &str| {
            if !s.is_empty()
                && s.chars()
                    .all(|c| c.is_alphanumeric() || "?*_-+.,:/[]{}".contains(c))
            {
                s.to_string()
            } else {
                format!("'{}'", s.replace('\'', r"'\''"))
            }
        };
        match &self.condition {
            Condition::Pattern(p) => write!(f, "pattern {}", quoted(p)),
            Condition::Regex(r) => write!(f, "regex {}", quoted(r)),
            Condition::Contains(s) => write!(f, "contains {}", quoted(s)),
            Condition::Starts(s) => write!(f, "starts {}", quoted(s)),
            Condition::Ends(s) => write!(f, "ends {}", quoted(s)),
            Condition::Anagram { rack, through } | Condition::Subanagram { rack, through } => {
                let name = match &self.condition {
                    Condition::Anagram { .. } => "anagram",
                    _ => "subanagram",
                };
                write!(f, "{name} {}", quoted(rack))?;
                if let Some(t) = through {
                    write!(f, " --through {}", quoted(t))?;
                }
                Ok(())
            }
            Condition::Length(r) => write!(f, "len {r}"),
            Condition::Includes(s) => write!(f, "includes {}", quoted(s)),
            Condition::ConsistsOf { letters, percent } => {
                write!(f, "consists {}:{percent}", quoted(letters))
            }
            Condition::Vowels(r) => write!(f, "vowels {r}"),
            Condition::Distinct(r) => write!(f, "distinct {r}"),
            Condition::Points(r) => write!(f, "points {r}"),
            Condition::Anagrams(r) => write!(f, "anagrams {r}"),
            Condition::FrontHook(None) => write!(f, "front-hook"),
            Condition::FrontHook(Some(l)) => write!(f, "front-hook {}", quoted(l)),
            Condition::BackHook(None) => write!(f, "back-hook"),
            Condition::BackHook(Some(l)) => write!(f, "back-hook {}", quoted(l)),
            Condition::IsFrontHook => write!(f, "is-front-hook"),
            Condition::IsBackHook => write!(f, "is-back-hook"),
            Condition::InnerHooks => write!(f, "inner-hooks"),
            Condition::TakesPrefix(s) => write!(f, "takes-prefix {}", quoted(s)),
            Condition::TakesSuffix(s) => write!(f, "takes-suffix {}", quoted(s)),
            Condition::InFile(p) => write!(f, "in {}", quoted(&p.display().to_string())),
            Condition::Probability(r) => write!(f, "probability {r}"),
            Condition::Any(alts) => {
                let text: Vec<String> = alts
                    .iter()
                    .map(|alt| {
                        alt.iter()
                            .map(|t| t.to_string())
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                    .collect();
                write!(f, "any {}", quoted(&text.join(" --or ")))
            }
        }
    }
}

/// How deeply `any` conditions may nest.
pub const MAX_NESTING: usize = 8;

/// The most terms a query may hold, alternatives included.
pub const MAX_TERMS: usize = 256;

/// A rack read as tiles: `real[c]` tiles of each code, blanks, one-of sets
/// and whether a `*` lets any further letters in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RackSpec {
    pub real: [u8; 64],
    pub blanks: u8,
    /// Each `{...}` tile: the letters it may stand for.
    pub sets: Vec<u64>,
    pub star: bool,
    /// The block on the board, if any.
    pub through: Vec<u8>,
    /// Anagram (every tile) or subanagram (some).
    pub exact: bool,
}

impl RackSpec {
    /// Tiles on the rack (the `*` aside).
    pub fn tiles(&self) -> usize {
        self.real.iter().map(|&n| n as usize).sum::<usize>()
            + self.blanks as usize
            + self.sets.len()
    }

    /// The fewest tiles a word spends from the rack.
    pub fn min_used(&self) -> usize {
        if self.exact {
            self.tiles()
        } else if self.through.is_empty() {
            2
        } else {
            1
        }
    }

    /// The places of `word` that the rack's named tiles do not pay for,
    /// bit `i` for tile `i`: what its blanks, set tiles and `*` play.
    /// A letter's named tiles pay for its first places, so the unpaid ones
    /// are its last, as [`crate::query::Word::blanks`] marks an anagram's
    /// blanks. The block played through is on the board, paid by no
    /// tile; of several places of the block, the one that leaves the
    /// unpaid letters furthest right.
    ///
    /// Rack `CA?`: CAT is 0b100 (the T). Rack `A?`: AA is 0b10. Rack `E?`
    /// through `ST`: BEST is 0b0001 (the B), the block the S and T.
    pub fn unpaid(&self, word: &[u8]) -> u64 {
        let word = &word[..word.len().min(64)];
        let t = self.through.len();
        let mask = |block: Option<usize>| {
            let mut left = self.real;
            let mut mask = 0u64;
            for (i, &c) in word.iter().enumerate() {
                if block.is_some_and(|b| (b..b + t).contains(&i)) {
                    continue;
                }
                let have = &mut left[c as usize & 63];
                if *have > 0 {
                    *have -= 1;
                } else {
                    mask |= 1 << i;
                }
            }
            mask
        };
        if t == 0 || t > word.len() {
            return mask(None);
        }
        (0..=word.len() - t)
            .filter(|&b| word[b..b + t] == self.through[..])
            .map(|b| mask(Some(b)))
            .min_by_key(|m| m.reverse_bits())
            .unwrap_or_else(|| mask(None))
    }

    /// Whether `word` (with `counts`, its tiles counted) meets the rack.
    pub fn fits(&self, word: &[u8], counts: &[u8; 64]) -> bool {
        let mut left = *counts;
        if !self.through.is_empty() {
            if !holds_run(word, &self.through) {
                return false;
            }
            for &c in &self.through {
                left[c as usize & 63] -= 1;
            }
        }
        let used = word.len() - self.through.len();
        if used < self.min_used() {
            return false;
        }
        if !self.star && used > self.tiles() {
            return false;
        }
        // What the real tiles do not cover, letter by letter.
        let mut extra: Vec<u8> = Vec::new();
        for (c, (&have, &want)) in self.real.iter().zip(&left).enumerate().skip(1) {
            if self.exact && want < have {
                return false;
            }
            for _ in have.min(want)..want {
                extra.push(c as u8);
            }
        }
        let wild = self.blanks as usize + self.sets.len();
        let matched = match_sets(&extra, &self.sets);
        if self.exact {
            // Every set tile and blank stands for one extra letter; the
            // star takes the rest.
            matched == self.sets.len()
                && (if self.star {
                    extra.len() >= wild
                } else {
                    extra.len() == wild
                })
        } else {
            self.star || extra.len() - matched <= self.blanks as usize
        }
    }
}

/// The most letters of `extra` that the set tiles `sets` can stand for,
/// each tile for one letter (a bipartite matching, by augmenting paths).
fn match_sets(extra: &[u8], sets: &[u64]) -> usize {
    if sets.is_empty() || extra.is_empty() {
        return 0;
    }
    // owner[j]: the letter of `extra` set tile j stands for.
    let mut owner: Vec<Option<usize>> = vec![None; sets.len()];
    fn augment(
        i: usize,
        extra: &[u8],
        sets: &[u64],
        seen: &mut [bool],
        owner: &mut [Option<usize>],
    ) -> bool {
        for j in 0..sets.len() {
            if sets[j] & (1u64 << (extra[i] & 63)) == 0 || seen[j] {
                continue;
            }
            seen[j] = true;
            if owner[j].is_none_or(|k| augment(k, extra, sets, seen, owner)) {
                owner[j] = Some(i);
                return true;
            }
        }
        false
    }
    let mut n = 0;
    for i in 0..extra.len() {
        let mut seen = vec![false; sets.len()];
        if augment(i, extra, sets, &mut seen, &mut owner) {
            n += 1;
        }
    }
    n
}

/// Whether `run` occurs in `word` as a block.
pub(crate) fn holds_run(word: &[u8], run: &[u8]) -> bool {
    run.is_empty() || word.windows(run.len()).any(|w| w == run)
}

/// Which end of the word an affix is tied to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Affix {
    Contains,
    Starts,
    Ends,
}

/// A condition compiled against a lexicon.
pub(crate) enum Check {
    Affix(Affix, Vec<u8>),
    /// A pattern or regex, planned (its length bounds beside, and why
    /// the plan was chosen, for `--explain`).
    Match(Box<Plan>, u32, u32, Box<str>),
    Rack(Box<RackSpec>),
    Length(Range),
    /// At least `need[c]` of each code.
    Includes(Box<[u8; 64]>),
    Consists {
        set: u64,
        percent: u8,
    },
    Vowels(Range),
    Distinct(Range),
    Points(Range),
    Anagrams(Range),
    /// Every letter of the set hooks (any letter if the set is empty).
    FrontHook(u64),
    BackHook(u64),
    IsFrontHook,
    IsBackHook,
    InnerHooks,
    TakesPrefix(Vec<u8>),
    TakesSuffix(Vec<u8>),
    /// The list with this index in the query's lists.
    In(usize),
    Probability(Range),
    Any(Vec<Vec<CTerm>>),
}

/// A compiled term: the check, negated or not, and how it was written.
pub(crate) struct CTerm {
    pub negated: bool,
    pub check: Check,
    pub text: String,
}

/// The words of an `--in` file: a word list, or another lexicon.
pub(crate) enum WordSet {
    List {
        /// Sorted, without duplicates.
        words: Vec<Vec<u8>>,
        set: HashSet<Vec<u8>>,
        /// Its lines that were not words of the alphabet.
        skipped: Skipped,
    },
    Lexicon(Box<Lexicon>),
}

/// The lines of an `--in` word list that could not be read as words of
/// the lexicon's alphabet (invalid UTF-8, a NUL byte, a character outside
/// the alphabet...): skipped, as `lexq build` skips them, and reported
/// ([`Prepared::skipped`](super::Prepared::skipped)).
#[derive(Clone, Debug, Default)]
pub struct Skipped {
    /// The alphabet's name.
    pub alphabet: String,
    /// How many lines were skipped.
    pub lines: usize,
    /// The first few of them (as many as a build report keeps).
    pub examples: Vec<crate::Rejected>,
}

/// What a compiled query needs beside its terms.
#[derive(Default)]
pub(crate) struct Needs {
    pub points: bool,
    pub ranks: bool,
}

/// Compiles terms against a lexicon.
pub(crate) struct Compiler<'l> {
    pub lex: &'l Lexicon,
    /// The lengths every word found has (the query's length terms, not
    /// negated, outside alternatives): an `--in` list keeps only its
    /// words of these lengths, as no other can be found or left out.
    pub lens: Range,
    pub lists: Vec<WordSet>,
    pub needs: Needs,
    pub terms: usize,
}

impl<'l> Compiler<'l> {
    fn alphabet(&self) -> &'l Alphabet {
        self.lex.alphabet()
    }

    /// Compiles a list of terms (`depth` levels of `any` down).
    pub fn terms(&mut self, terms: &[Term], depth: usize) -> Result<Vec<CTerm>, FindError> {
        terms.iter().map(|t| self.term(t, depth)).collect()
    }

    fn term(&mut self, term: &Term, depth: usize) -> Result<CTerm, FindError> {
        self.terms += 1;
        let text = term.to_string();
        let fail = |kind: FindErrorKind| FindError {
            term: text.clone(),
            kind,
        };
        if self.terms > MAX_TERMS {
            return Err(fail(FindErrorKind::TooManyTerms { max: MAX_TERMS }));
        }
        let check = self.check(&term.condition, depth).map_err(fail)?;
        Ok(CTerm {
            negated: term.negated,
            check,
            text,
        })
    }

    fn check(&mut self, c: &Condition, depth: usize) -> Result<Check, FindErrorKind> {
        let alphabet = self.alphabet();
        Ok(match c {
            Condition::Pattern(p) => self.matcher(Syntax::Pattern, p)?,
            Condition::Regex(r) => self.matcher(Syntax::Regex, r)?,
            Condition::Contains(s) => Check::Affix(Affix::Contains, letters(alphabet, s, false)?),
            Condition::Starts(s) => Check::Affix(Affix::Starts, letters(alphabet, s, false)?),
            Condition::Ends(s) => Check::Affix(Affix::Ends, letters(alphabet, s, false)?),
            Condition::Anagram { rack, through } => Check::Rack(Box::new(rack_spec(
                alphabet,
                rack,
                through.as_deref(),
                true,
            )?)),
            Condition::Subanagram { rack, through } => Check::Rack(Box::new(rack_spec(
                alphabet,
                rack,
                through.as_deref(),
                false,
            )?)),
            Condition::Length(r) => Check::Length(*r),
            Condition::Includes(s) => {
                let mut need = [0u8; 64];
                for c in letters(alphabet, s, false)? {
                    need[c as usize] = need[c as usize].saturating_add(1);
                }
                Check::Includes(Box::new(need))
            }
            Condition::ConsistsOf {
                letters: l,
                percent,
            } => {
                if *percent > 100 {
                    return Err(FindErrorKind::Percent(*percent));
                }
                Check::Consists {
                    set: mask(&letters(alphabet, l, false)?),
                    percent: *percent,
                }
            }
            Condition::Vowels(r) => Check::Vowels(*r),
            Condition::Distinct(r) => Check::Distinct(*r),
            Condition::Points(r) => {
                self.needs.points = true;
                Check::Points(*r)
            }
            Condition::Anagrams(r) => Check::Anagrams(*r),
            Condition::FrontHook(l) => Check::FrontHook(match l {
                Some(l) => mask(&letters(alphabet, l, false)?),
                None => 0,
            }),
            Condition::BackHook(l) => Check::BackHook(match l {
                Some(l) => mask(&letters(alphabet, l, false)?),
                None => 0,
            }),
            Condition::IsFrontHook => Check::IsFrontHook,
            Condition::IsBackHook => Check::IsBackHook,
            Condition::InnerHooks => Check::InnerHooks,
            Condition::TakesPrefix(s) => Check::TakesPrefix(letters(alphabet, s, false)?),
            Condition::TakesSuffix(s) => Check::TakesSuffix(letters(alphabet, s, false)?),
            Condition::InFile(path) => {
                let set = word_set(self.lex, path, self.lens)?;
                self.lists.push(set);
                Check::In(self.lists.len() - 1)
            }
            Condition::Probability(r) => {
                self.needs.ranks = true;
                self.needs.points = true;
                Check::Probability(*r)
            }
            Condition::Any(alts) => {
                if depth >= MAX_NESTING {
                    return Err(FindErrorKind::TooDeep { max: MAX_NESTING });
                }
                if alts.is_empty() || alts.iter().any(Vec::is_empty) {
                    return Err(FindErrorKind::EmptyAlternative);
                }
                let mut out = Vec::with_capacity(alts.len());
                for alt in alts {
                    out.push(self.terms(alt, depth + 1).map_err(|e| {
                        // The inner term's message, under this one's name.
                        FindErrorKind::Inner(Box::new(e))
                    })?);
                }
                Check::Any(out)
            }
        })
    }

    /// A pattern or regex, parsed and planned as the query commands do.
    fn matcher(&self, syntax: Syntax, text: &str) -> Result<Check, FindErrorKind> {
        use regex_syntax::hir::Hir;
        let fail = |kind, position| {
            FindErrorKind::Query(Box::new(crate::error::QueryError {
                syntax,
                query: text.to_string(),
                position,
                kind,
            }))
        };
        if text.len() > MAX_ARG_LEN {
            return Err(fail(
                crate::error::QueryErrorKind::TooLong { max: MAX_ARG_LEN },
                None,
            ));
        }
        let alphabet = self.alphabet();
        let parsed = match syntax {
            Syntax::Pattern => crate::query::pattern::parse(alphabet, text),
            _ => crate::query::regex::parse(alphabet, text),
        };
        let items = parsed.map_err(|(kind, at)| fail(kind, at))?;
        let props = Hir::concat(items.clone()).properties().clone();
        let min = props.minimum_len().unwrap_or(0).min(u32::MAX as usize) as u32;
        let max = props
            .maximum_len()
            .map_or(u32::MAX, |m| m.min(u32::MAX as usize) as u32);
        // Planned by cost as the query commands plan it: find walks
        // the same plan (its other conditions bounding it).
        use crate::query::plan::{Shares, choose};
        let letters = alphabet.letters();
        let too_large = |e| fail(crate::error::QueryErrorKind::TooLarge(e), None);
        let (plan, why) = choose(items, letters, &Shares::of(self.lex)).map_err(too_large)?;
        let why = format!("by cost, {why}");
        Ok(Check::Match(Box::new(plan), min, max, why.into()))
    }
}

/// The set of `codes` as a mask.
pub(crate) fn mask(codes: &[u8]) -> u64 {
    codes.iter().fold(0, |m, &c| m | 1u64 << (c & 63))
}

/// Reads letters: tiles as words are read (greedily), `[...]` one tile
/// named exactly; a space inside is no letter, as in every other query's
/// argument (`q u` is not QU). With `rack`, also `?`/`_` (pushed as 0), `*` (pushed as
/// 64) and `{...}` (pushed as 65 + the set's index into `sets`) are read.
fn read(
    alphabet: &Alphabet,
    text: &str,
    rack: bool,
    sets: &mut Vec<u64>,
) -> Result<Vec<u8>, FindErrorKind> {
    if text.len() > MAX_ARG_LEN {
        return Err(FindErrorKind::TooLong { max: MAX_ARG_LEN });
    }
    let trimmed = text.trim();
    let mut out = Vec::new();
    let mut rest = trimmed;
    let at = |rest: &str| trimmed.len() - rest.len();
    while let Some(c) = rest.chars().next() {
        match c {
            '?' | '_' if rack => {
                out.push(0);
                rest = &rest[1..];
            }
            '*' if rack => {
                out.push(64);
                rest = &rest[1..];
            }
            '{' if rack => {
                let Some(end) = rest.find('}') else {
                    return Err(FindErrorKind::Syntax {
                        what: "'{' without a matching '}'",
                        at: at(rest),
                    });
                };
                let inner = &rest[1..end];
                let mut none = Vec::new();
                let set = read(alphabet, inner, false, &mut none).map_err(|e| match e {
                    FindErrorKind::Syntax { what, at: a } => FindErrorKind::Syntax {
                        what,
                        at: at(rest) + 1 + a,
                    },
                    other => other,
                })?;
                if set.is_empty() {
                    return Err(FindErrorKind::Syntax {
                        what: "'{}' holds no letter",
                        at: at(rest),
                    });
                }
                sets.push(mask(&set));
                out.push(64 + sets.len() as u8);
                rest = &rest[end + 1..];
            }
            '[' => {
                let Some(end) = rest.find(']') else {
                    return Err(FindErrorKind::Syntax {
                        what: "'[' without a matching ']'",
                        at: at(rest),
                    });
                };
                let inner = &rest[1..end];
                match alphabet.tile_at(inner) {
                    Some((code, n)) if n == inner.len() => out.push(code),
                    _ => {
                        return Err(FindErrorKind::NotATile {
                            found: inner.to_string(),
                            alphabet: alphabet.name().to_string(),
                        });
                    }
                }
                rest = &rest[end + 1..];
            }
            _ => match alphabet.tile_at(rest) {
                Some((code, n)) => {
                    out.push(code);
                    rest = &rest[n..];
                }
                None => {
                    return Err(FindErrorKind::NotALetter {
                        found: crate::alphabet::first_char(rest).to_string(),
                        alphabet: alphabet.name().to_string(),
                        rack,
                    });
                }
            },
        }
        if sets.len() > MAX_WORD_LEN || out.len() > MAX_WORD_LEN {
            return Err(FindErrorKind::TooManyTiles { max: MAX_WORD_LEN });
        }
    }
    Ok(out)
}

/// Reads letters (see [`read`]); none at all is an error unless
/// `may_be_empty`.
pub(crate) fn letters(
    alphabet: &Alphabet,
    text: &str,
    may_be_empty: bool,
) -> Result<Vec<u8>, FindErrorKind> {
    let codes = read(alphabet, text, false, &mut Vec::new())?;
    if codes.is_empty() && !may_be_empty {
        return Err(FindErrorKind::Empty);
    }
    Ok(codes)
}

/// Reads a rack and its block on the board.
pub(crate) fn rack_spec(
    alphabet: &Alphabet,
    rack: &str,
    through: Option<&str>,
    exact: bool,
) -> Result<RackSpec, FindErrorKind> {
    let mut sets = Vec::new();
    let codes = read(alphabet, rack, true, &mut sets)?;
    if codes.is_empty() {
        return Err(FindErrorKind::Empty);
    }
    let mut spec = RackSpec {
        real: [0; 64],
        blanks: 0,
        sets,
        star: false,
        through: Vec::new(),
        exact,
    };
    for c in codes {
        match c {
            0 => spec.blanks += 1,
            64 => spec.star = true,
            1..64 => spec.real[c as usize] += 1,
            _ => {}
        }
    }
    if let Some(t) = through {
        spec.through = letters(alphabet, t, false)?;
    }
    if spec.tiles() + spec.through.len() > MAX_WORD_LEN {
        return Err(FindErrorKind::TooManyTiles { max: MAX_WORD_LEN });
    }
    Ok(spec)
}

/// The words of `path`: a lexicon file (same alphabet), the built-in
/// lexicon for one of its names (`enable`: an existing file of that name
/// wins), or a word list read with the lexicon's alphabet (lines that are
/// not words of it are skipped: no such word is in the lexicon).
fn word_set(lex: &Lexicon, path: &std::path::Path, lens: Range) -> Result<WordSet, FindErrorKind> {
    if let Some(other) = builtin_named(path) {
        return same_alphabet(lex, path, other);
    }
    if is_lexicon_file(path) {
        let other = Lexicon::open(path).map_err(|e| FindErrorKind::File(Box::new(e)))?;
        return same_alphabet(lex, path, other);
    }
    let mut list = crate::WordList::new(lex.alphabet().clone())
        .min_len(lens.min as usize)
        .max_len(lens.max as usize);
    list.read_path(path)
        .map_err(|e| FindErrorKind::File(Box::new(e)))?;
    if list.is_empty() && list.filtered() == 0 && list.rejected() > 0 {
        // Lines, none of them a word: a binary file, a lexicon whose
        // header is damaged, a list of another alphabet. An empty file is
        // an empty list.
        return Err(FindErrorKind::File(Box::new(crate::Error::NoWords)));
    }
    let words: Vec<Vec<u8>> = list
        .sorted_unique()
        .into_iter()
        .map(<[u8]>::to_vec)
        .collect();
    let set = words.iter().cloned().collect();
    let skipped = Skipped {
        alphabet: lex.alphabet().name().to_string(),
        lines: list.rejected(),
        examples: list.examples().to_vec(),
    };
    Ok(WordSet::List {
        words,
        set,
        skipped,
    })
}

/// The built-in lexicon, if `path` is one of its names (`enable`,
/// `ENABLE1`...) and no file of that name exists.
fn builtin_named(path: &std::path::Path) -> Option<Lexicon> {
    #[cfg(feature = "embedded")]
    if path.symlink_metadata().is_err()
        && path
            .to_str()
            .is_some_and(crate::files::FilePolicy::is_builtin_lexicon)
    {
        return Some(Lexicon::embedded());
    }
    let _ = path;
    None
}

/// `other` as the words of an `--in` list, if its alphabet is `lex`'s.
fn same_alphabet(
    lex: &Lexicon,
    path: &std::path::Path,
    other: Lexicon,
) -> Result<WordSet, FindErrorKind> {
    if other.alphabet().to_text() != lex.alphabet().to_text() {
        return Err(FindErrorKind::OtherAlphabet {
            path: path.to_path_buf(),
            theirs: other.alphabet().name().to_string(),
            ours: lex.alphabet().name().to_string(),
        });
    }
    Ok(WordSet::Lexicon(Box::new(other)))
}

/// Whether the file starts with a lexicon's magic bytes.
fn is_lexicon_file(path: &std::path::Path) -> bool {
    use std::io::Read;
    let Ok(file) = crate::files::capped::open_regular(path) else {
        return false;
    };
    let mut head = [0u8; 8];
    file.take(8).read_exact(&mut head).is_ok() && head == crate::lexicon::format::MAGIC
}

/// The point value of `word`, from tile values.
pub(crate) fn points(values: &[i32; 64], word: &[u8]) -> i64 {
    word.iter().map(|&c| values[c as usize & 63] as i64).sum()
}

impl Check {
    /// Whether this check is met by a word of `counts` for things counted
    /// only (no lexicon look-up needed); `None` if the check needs more.
    pub fn counted(
        &self,
        word: &[u8],
        counts: &[u8; 64],
        vowels: u64,
        values: &[i32; 64],
    ) -> Option<bool> {
        let n = word.len() as u32;
        Some(match self {
            Check::Length(r) => r.holds(n),
            Check::Includes(need) => (1..64).all(|c| counts[c] >= need[c]),
            Check::Consists { set, percent } => {
                let inside: u32 = (1..64)
                    .filter(|&c| set & (1u64 << c) != 0)
                    .map(|c| counts[c] as u32)
                    .sum();
                inside * 100 >= *percent as u32 * n
            }
            Check::Vowels(r) => r.holds(
                (1..64)
                    .filter(|&c| vowels & (1u64 << c) != 0)
                    .map(|c| counts[c] as u32)
                    .sum(),
            ),
            Check::Distinct(r) => r.holds(counts.iter().filter(|&&k| k > 0).count() as u32),
            Check::Points(r) => r.holds_i64(points(values, word)),
            Check::Affix(kind, codes) => match kind {
                Affix::Contains => holds_run(word, codes),
                Affix::Starts => word.starts_with(codes),
                Affix::Ends => word.ends_with(codes),
            },
            Check::Rack(spec) => spec.fits(word, counts),
            Check::Match(plan, min, max, _) => {
                (*min..=*max).contains(&n) && matches_plan(plan, word)
            }
            _ => return None,
        })
    }
}

/// Whether `word` matches a planned pattern or regex.
pub(crate) fn matches_plan(plan: &Plan, word: &[u8]) -> bool {
    use crate::query::walk::Side;
    let run_side = |side: &Side, letters: &mut dyn Iterator<Item = u8>| {
        let mut s = side.start();
        for c in letters {
            match side.step(s, c) {
                Some(n) => s = n,
                None => return false,
            }
        }
        side.accepts(s)
    };
    match plan {
        Plan::Anchored {
            anchor,
            left,
            right,
        } => {
            let k = anchor.len();
            (0..=word.len().saturating_sub(k)).any(|i| {
                word.len() >= k
                    && &word[i..i + k] == anchor.as_slice()
                    && run_side(left, &mut word[..i].iter().rev().copied())
                    && run_side(right, &mut word[i + k..].iter().copied())
            })
        }
        Plan::Forward(side) => run_side(side, &mut word.iter().copied()),
        Plan::Backward(side) => run_side(side, &mut word.iter().rev().copied()),
        Plan::Union(plans) => plans.iter().any(|p| matches_plan(p, word)),
        Plan::Run { run, left, right } => {
            let k = run.len();
            (0..=word.len().saturating_sub(k)).any(|i| {
                word.len() >= k
                    && word[i..i + k]
                        .iter()
                        .zip(run)
                        .all(|(&c, set)| set.contains(c))
                    && run_side(left, &mut word[..i].iter().rev().copied())
                    && run_side(right, &mut word[i + k..].iter().copied())
            })
        }
    }
}
