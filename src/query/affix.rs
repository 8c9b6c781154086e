//! Word judge, hooks, and the three affix queries: contains, starts, ends.
//!
//! All are one lookup of a reversed run of letters from the GADDAG root:
//! `rev(SUB)` for a substring, then a walk left, right, or both.

use std::fmt;

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
    /// Runs the anchored walk for `anchor` with the given sides.
    fn affix(&self, what: Arg, anchor: &str, left: Side, right: Side) -> Result<Words<'a>> {
        let anchor = tiles_of(self.lex, what, anchor)?;
        let mut out = self.collector();
        let lens = self.lens();
        let mut emit = |l: &[u8], a: &[u8], r: &[u8]| out.push(l, a, r);
        if let Some((at, word)) = walk::follow_reversed(self.lex.arcs().root(), &anchor) {
            let start = walk::Start {
                at,
                word,
                anchor: &anchor,
                left: &left,
                ls: None,
                right: &right,
                rs: None,
                barred_left: 0,
            };
            walk::anchored(start, lens, &mut walk::Free, &mut emit);
        }
        Ok(out.finish())
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
