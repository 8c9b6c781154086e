//! Word judge, hooks, and the three affix queries: contains, starts, ends.
//!
//! The judge and hooks are one lookup of a reversed run of letters from
//! the GADDAG root. The affix queries are the patterns `*SUB*`, `SUB*` and
//! `*SUB`: a rare substring is looked up (`rev(SUB)`) and walked left,
//! right or both; a common one (`contains e`) is found by the forward walk
//! of every word, as the planner chooses for a pattern.

use std::fmt;

use super::plan::{Plan, Shares, affix_items, choose};
use super::{Search, Words, tiles_of};
use crate::alphabet::Alphabet;
use crate::alphabet::letterset::LetterSet;
use crate::error::{Arg, Result};
use crate::lexicon::Lexicon;
use crate::query::walk::{self, Side};

/// The front and back hooks of a run of letters.
///
/// ```
/// use lexq::Lexicon;
/// let lex = Lexicon::embedded();
/// let h = lex.hooks("care").unwrap();
/// assert_eq!(h.to_string(), "S CARE DRSTX");
/// ```
#[derive(Clone)]
pub struct Hooks<'a> {
    alphabet: &'a Alphabet,
    word: Vec<u8>,
    /// Letters that make a word when put in front.
    pub front: LetterSet,
    /// Letters that make a word when put at the back.
    pub back: LetterSet,
    /// Whether the letters are a word themselves.
    pub is_word: bool,
}

impl Hooks<'_> {
    /// The letters, spelled out.
    pub fn word(&self) -> String {
        self.alphabet.decode(&self.word)
    }

    /// The front hooks spelled out, in alphabet order (empty if none).
    pub fn front_letters(&self) -> String {
        self.alphabet.decode(&self.front.iter().collect::<Vec<_>>())
    }

    /// The back hooks spelled out, in alphabet order (empty if none).
    pub fn back_letters(&self) -> String {
        self.alphabet.decode(&self.back.iter().collect::<Vec<_>>())
    }
}

/// `FRONT WORD BACK`, with `-` for no hooks.
impl fmt::Display for Hooks<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let or_dash = |s: String| if s.is_empty() { "-".to_string() } else { s };
        write!(
            f,
            "{} {} {}",
            or_dash(self.front_letters()),
            self.word(),
            or_dash(self.back_letters())
        )
    }
}

impl Lexicon {
    /// Whether `word` is in the lexicon (the word judge).
    ///
    /// ```
    /// let lex = lexq::Lexicon::embedded();
    /// assert!(lex.is_word("cwm").unwrap());
    /// assert!(!lex.is_word("za").unwrap()); // ENABLE predates ZA
    /// ```
    pub fn is_word(&self, word: &str) -> Result<bool> {
        let codes = tiles_of(self, Arg::Word, word)?;
        Ok(walk::follow_reversed(self.arcs().root(), &codes).is_some_and(|(_, word)| word))
    }

    /// The front and back hooks of `word`, whether or not it is a word.
    pub fn hooks(&self, word: &str) -> Result<Hooks<'_>> {
        let codes = tiles_of(self, Arg::Word, word)?;
        let mut hooks = Hooks {
            alphabet: self.alphabet(),
            word: codes,
            front: LetterSet::EMPTY,
            back: LetterSet::EMPTY,
            is_word: false,
        };
        let Some((at, is_word)) = walk::follow_reversed(self.arcs().root(), &hooks.word) else {
            return Ok(hooks);
        };
        hooks.is_word = is_word;
        // Front hook L: "L WORD" reversed is "rev(WORD) L", a whole key.
        hooks.front = at.ending_letters();
        // Back hook L: the split after WORD, "rev(WORD) SEP L".
        if let Some(sep) = at.separator() {
            hooks.back = sep.ending_letters();
        }
        Ok(hooks)
    }
}

impl<'a> Search<'a> {
    /// Words made of `anchor`'s letters with any letters on the sides that
    /// are [`Side::Anything`], planned by cost as the pattern `*SUB*`
    /// (`SUB*`, `*SUB`) is: from the anchor's occurrences in the GADDAG
    /// when they are rare (`contains qu`), every word from its first letter
    /// when they are common (`contains e`: below the first E every word
    /// matches, so nothing is looked up twice and nothing sorted).
    fn affix(&self, what: Arg, anchor: &str, left: Side, right: Side) -> Result<Words<'a>> {
        let anchor = tiles_of(self.lex, what, anchor)?;
        let letters = self.lex.alphabet().letters();
        let open = |side: &Side| matches!(side, Side::Anything);
        let items = affix_items(letters, &anchor, open(&left), open(&right));
        let n = anchor.len();
        let mut narrowed = *self;
        narrowed.lens.min = narrowed.lens.min.max(n);
        if items.len() == 1 {
            narrowed.lens.max = narrowed.lens.max.min(n);
        }
        let anchored = |anchor| Plan::Anchored {
            anchor,
            left: left.clone(),
            right: right.clone(),
        };
        // A suffix is walked from its place at the end of each word: the
        // cost model has no measure for an anchor there yet, and would
        // take the forward walk for a common one, which is slower for E
        // (docs/BENCHMARKS.md, "contains planned by cost"). A literal
        // between two `.*` compiles to a small automaton; were it
        // refused, the walk from the anchor needs none.
        let plan = if matches!(right, Side::Nothing) && items.len() > 1 {
            anchored(anchor)
        } else {
            match choose(items, letters, &Shares::of(self.lex)) {
                Ok((plan, _)) => plan,
                Err(_) => anchored(anchor),
            }
        };
        Ok(narrowed.run(&plan))
    }

    /// Words containing `sub` as a run of letters.
    ///
    /// ```
    /// let lex = lexq::Lexicon::embedded();
    /// let words = lex.search().lengths(0, 3).contains("ax").unwrap();
    /// assert_eq!(words.len(), 11);
    /// assert_eq!(words.iter().next().unwrap().to_string(), "AX");
    /// ```
    pub fn contains(&self, sub: &str) -> Result<Words<'a>> {
        self.affix(Arg::Substring, sub, Side::Anything, Side::Anything)
    }

    /// Words starting with `prefix` (the prefix itself included if a word).
    pub fn starts(&self, prefix: &str) -> Result<Words<'a>> {
        self.affix(Arg::Prefix, prefix, Side::Nothing, Side::Anything)
    }

    /// Words ending with `suffix` (the suffix itself included if a word).
    pub fn ends(&self, suffix: &str) -> Result<Words<'a>> {
        self.affix(Arg::Suffix, suffix, Side::Anything, Side::Nothing)
    }
}
