//! Wildcard patterns: `?` one letter, `*` any run of letters (even none),
//! `[ABC]` one of, `[^ABC]` none of, `[A-E]` a range in alphabet order.
//! Letters are read greedily as tiles (`[CHLL]` is CH or LL in Spanish).
//! A pattern matches whole words.

use regex_syntax::hir::Hir;

use super::plan::{Fault, any_run, class_of};
use super::{Search, Words};
use crate::alphabet::letterset::LetterSet;
use crate::alphabet::{Alphabet, fold};
use crate::error::{QueryErrorKind as Kind, Result, Syntax};

/// The byte offset of `rest` (a tail of `whole`) in `whole`.
fn offset(whole: &str, rest: &str) -> Option<usize> {
    Some(rest.as_ptr() as usize - whole.as_ptr() as usize)
}

/// Parses a pattern into byte-level `Hir` items over tile codes. The error
/// is the fault and where it is, for a message naming the pattern.
pub(crate) fn parse(alphabet: &Alphabet, pattern: &str) -> std::result::Result<Vec<Hir>, Fault> {
    // Letters are folded (uppercased, accents composed) first; `? * [ ] ^ -`
    // fold to themselves. Faults are found in the folded text and placed
    // back in the pattern as written.
    let folded = fold(pattern);
    parse_folded(alphabet, &folded.text).map_err(|(kind, at)| {
        let at = at.map(|at| folded.source_offset(at));
        let kind = match kind {
            Kind::NotALetter { alphabet, .. } => Kind::NotALetter {
                found: crate::alphabet::first_char(&pattern[at.unwrap_or(0)..]).to_string(),
                alphabet,
            },
            other => other,
        };
        (kind, at)
    })
}

/// [`parse`] on folded text; offsets in the error are in that text.
fn parse_folded(alphabet: &Alphabet, pattern: &str) -> std::result::Result<Vec<Hir>, Fault> {
    let letters = alphabet.letters();
    let mut items: Vec<Hir> = Vec::new();
    let mut run: Vec<u8> = Vec::new();
    let mut rest = pattern.trim();
    if rest.is_empty() {
        return Err((Kind::Empty, None));
    }
    let flush = |run: &mut Vec<u8>, items: &mut Vec<Hir>| {
        if !run.is_empty() {
            items.push(Hir::literal(std::mem::take(run)));
        }
    };
    while let Some(c) = rest.chars().next() {
        match c {
            '?' => {
                flush(&mut run, &mut items);
                items.push(class_of(letters));
                rest = &rest[1..];
            }
            '*' => {
                flush(&mut run, &mut items);
                let any = any_run(letters);
                if items.last() != Some(&any) {
                    items.push(any);
                }
                rest = &rest[1..];
            }
            '[' => {
                flush(&mut run, &mut items);
                let (set, after) =
                    bracket(alphabet, rest).map_err(|(kind, at)| (kind, offset(pattern, at)))?;
                items.push(class_of(set));
                rest = after;
            }
            ']' => return Err((Kind::UnopenedBracket, offset(pattern, rest))),
            _ => match alphabet.tile_at_folded(rest) {
                Some((code, n)) => {
                    run.push(code);
                    rest = &rest[n..];
                }
                None => return Err((not_a_letter(alphabet), offset(pattern, rest))),
            },
        }
    }
    flush(&mut run, &mut items);
    Ok(items)
}

/// A fault for a character that is no letter (which one is filled in by
/// [`parse`], from the pattern as written).
fn not_a_letter(alphabet: &Alphabet) -> Kind {
    Kind::NotALetter {
        found: String::new(),
        alphabet: alphabet.name().to_string(),
    }
}

/// Parses `[...]` at the start of `s`: the set and what follows the closing
/// `]`. The error holds the fault and the text where it is.
fn bracket<'p>(
    alphabet: &Alphabet,
    s: &'p str,
) -> std::result::Result<(LetterSet, &'p str), (Kind, &'p str)> {
    // The opening bracket, for faults of the whole bracket.
    let open = s;
    let s = &s[1..];
    let (negate, mut rest) = match s.strip_prefix('^') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let mut set = LetterSet::EMPTY;
    loop {
        let Some(c) = rest.chars().next() else {
            return Err((Kind::UnclosedBracket, open));
        };
        if c == ']' {
            rest = &rest[1..];
            break;
        }
        let Some((from, n)) = alphabet.tile_at_folded(rest) else {
            return Err((not_a_letter(alphabet), rest));
        };
        rest = &rest[n..];
        let mut to = from;
        if let Some(r) = rest.strip_prefix('-') {
            match alphabet.tile_at_folded(r) {
                Some((code, n)) => {
                    to = code;
                    rest = &r[n..];
                }
                None => return Err((Kind::BadRange, rest)),
            }
            if to < from {
                let kind = Kind::BackwardsRange {
                    from: alphabet.label(from).unwrap_or("?").to_string(),
                    to: alphabet.label(to).unwrap_or("?").to_string(),
                };
                return Err((kind, rest));
            }
        }
        for code in from..=to {
            set.insert(code);
        }
    }
    if negate {
        set = LetterSet(alphabet.letters().0 & !set.0);
    }
    if set.is_empty() {
        return Err((Kind::EmptyClass, open));
    }
    Ok((set, rest))
}

impl<'a> Search<'a> {
    /// Words matching a wildcard pattern (whole word): `?` is one letter,
    /// `*` any run of letters, `[ABC]` one of the letters, `[^ABC]` any
    /// other letter, `[A-E]` a range.
    ///
    /// ```
    /// let lex = lexq::Lexicon::embedded();
    /// let words = lex.pattern("c?r[^aeiou]").unwrap();
    /// assert!(words.to_strings().contains(&"CURB".to_string()));
    /// ```
    pub fn pattern(&self, pattern: &str) -> Result<Words<'a>> {
        self.parse_and_run(Syntax::Pattern, pattern, parse)
    }
}
