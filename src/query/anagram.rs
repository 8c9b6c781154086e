//! Anagrams and sub-anagrams of a rack, with blanks, optionally through
//! letters already on the board.
//!
//! Without letters to play through, the walk reads each word's first
//! letter, crosses the separator and reads the rest left to right (so it
//! only visits word prefixes the rack can spell), spending a tile per
//! letter. An anagram of a rack without blanks starts instead from the
//! rack's rarest letter (the fewest arcs in the table, which the file
//! counts): its first place in each word, the letters before it right to
//! left, the separator, the rest; only words holding that letter are
//! visited. Once [`crate::Lexicon::prepare_walks`] has marked the letters
//! below each node of the table, a walk that must spend every tile does
//! not step into a node below which a tile it holds is never read; and
//! once it has filed every word by alphagram, the anagrams of a rack with
//! one or two blanks (nothing played through) are looked up there instead
//! of walked: the walk cannot tell, at a word's first letters, which
//! letters the rest holds, so with a blank it visits every prefix one
//! letter away from the rack, where AEINRST? is AEINRST plus each letter
//! in turn, 26 look-ups.
//! Through a block of letters, it starts from the block read right to
//! left (the GADDAG's home ground), spends tiles leftwards, crosses the
//! separator and spends tiles rightwards.

use super::{BLANK, Lengths, Search, Words, arg_error, checked_arg, tiles_of};
use crate::alphabet::fold;
use crate::error::{Arg, Result, WordErrorKind};
use crate::lexicon::alphagrams::{Alphagrams, MAX_COUNT, key_of_counts, key_unit};
use crate::lexicon::gaddag::MAX_WORD_LEN;
use crate::query::walk::{self, Tiles};

/// The most blanks a rack may hold for its anagrams to be looked up by
/// alphagram (one look-up per choice of letters for them: 26 for one
/// blank in English, 351 for two, 3,276 for three, where the walk is
/// quicker again).
const MAX_LOOKUP_BLANKS: u8 = 2;

/// Reads a rack: letters of the alphabet, `?` or `_` for a blank, and a
/// bracket for exactly one tile, as CGP racks write them. Letters are read
/// greedily as tiles, so in Spanish `RRAA` is RR, A, A; `[R][R]AA` is R, R,
/// A, A (the rack of RARA), and `[RR]AA` the same as `RRAA`.
fn rack_tiles(search: &Search<'_>, rack: &str) -> Result<Tiles> {
    let alphabet = search.lex.alphabet();
    let mut tiles = Tiles {
        counts: [0; 64],
        blanks: 0,
    };
    let input = rack;
    let rack = checked_arg(Arg::Rack, rack)?;
    // An ASCII rack folds to its uppercase: no allocation. (The general
    // path below also says what is wrong with a bad rack.)
    if rack.is_ascii() && rack.len() <= MAX_WORD_LEN {
        let mut buf = [0u8; MAX_WORD_LEN];
        let upper = &mut buf[..rack.len()];
        upper.copy_from_slice(rack.as_bytes());
        upper.make_ascii_uppercase();
        let mut rest = std::str::from_utf8(upper).unwrap_or_default();
        let mut ok = true;
        while let Some(&b) = rest.as_bytes().first() {
            if b == b'?' || b == b'_' {
                tiles.blanks = tiles.blanks.saturating_add(1);
                rest = &rest[1..];
            } else if let Some((code, len)) = alphabet.tile_at_folded(rest) {
                let count = &mut tiles.counts[code as usize];
                *count = count.saturating_add(1);
                rest = &rest[len..];
            } else {
                ok = false;
                break;
            }
        }
        if ok {
            return Ok(tiles);
        }
        tiles = Tiles {
            counts: [0; 64],
            blanks: 0,
        };
    }
    let folded = fold(rack);
    let mut rest = folded.text.as_str();
    let mut n = 0;
    while let Some(c) = rest.chars().next() {
        if c == '?' || c == '_' {
            tiles.blanks = tiles.blanks.saturating_add(1);
            rest = &rest[1..];
        } else if c == '[' {
            let bad = |found: &str| {
                let kind = WordErrorKind::BadBracket {
                    found: found.chars().take(16).collect(),
                    alphabet: alphabet.name().to_string(),
                };
                arg_error(Arg::Rack, input, kind)
            };
            let Some(close) = rest.find(']') else {
                return Err(bad(rest));
            };
            let inner = &rest[1..close];
            match alphabet.tile_at_folded(inner) {
                Some((code, len)) if len == inner.len() => {
                    let count = &mut tiles.counts[code as usize];
                    *count = count.saturating_add(1);
                }
                _ => return Err(bad(&rest[..=close])),
            }
            rest = &rest[close + 1..];
        } else {
            let Some((code, len)) = alphabet.tile_at_folded(rest) else {
                let at = folded.text.len() - rest.len();
                let found = folded.source_char(rack, at);
                return Err(arg_error(Arg::Rack, input, alphabet.not_a_letter(found)));
            };
            let count = &mut tiles.counts[code as usize];
            *count = count.saturating_add(1);
            rest = &rest[len..];
        }
        n += 1;
    }
    if n > MAX_WORD_LEN {
        let kind = WordErrorKind::TooManyTiles {
            tiles: n,
            max: MAX_WORD_LEN,
        };
        return Err(arg_error(Arg::Rack, input, kind));
    }
    Ok(tiles)
}

/// Gives `emit` every word made of exactly the tiles of `tiles`, its
/// blanks standing for any of the codes 1 to `letters`, looked up in
/// `filed`: one look-up for each choice of letters for the blanks (a
/// multiset: AE and EA are one choice), the words of each in alphabet
/// order. A letter a blank stands for has [`BLANK`] set, at its last
/// places in the word (CAT from CA? is CA(t); AA from A? is A(a)), as the
/// walk marks them. Returns false, having given nothing, if a word the
/// tiles could spell may not be filed (a tile counted more than a key
/// holds). `go_on`, if given, is asked before each look-up and each word
/// read whether to go on.
pub(crate) fn by_alphagram(
    filed: &Alphagrams,
    tiles: &Tiles,
    lens: Lengths,
    letters: usize,
    go_on: Option<&dyn Fn() -> bool>,
    emit: &mut dyn FnMut(&[u8]),
) -> bool {
    let go_on = || go_on.is_none_or(|f| f());
    let total = tiles.counts.iter().map(|&n| n as usize).sum::<usize>() + tiles.blanks as usize;
    if total == 0 || total < lens.min || total > lens.max {
        return true;
    }
    // Every choice of letters for the blanks, in increasing order; a
    // count past what a key holds, anywhere, sends the query to the walk.
    let blanks = tiles.blanks as usize;
    let Some(base) = key_of_counts(&tiles.counts) else {
        return false;
    };
    if (1..=letters).any(|c| tiles.counts[c] as usize + blanks > MAX_COUNT as usize) {
        return false;
    }
    let mut chosen = [0u8; MAX_LOOKUP_BLANKS as usize];
    let mut word = [0u8; MAX_WORD_LEN];
    // chosen[..k] picked, each at least the one before; `key` the rack's
    // key with them (no count passes what a key holds: checked above).
    fn choose(
        k: usize,
        from: usize,
        chosen: &mut [u8; MAX_LOOKUP_BLANKS as usize],
        blanks: usize,
        letters: usize,
        key: u128,
        visit: &mut dyn FnMut(u128, &[u8]),
    ) {
        if k == blanks {
            visit(key, &chosen[..k]);
            return;
        }
        for c in from..=letters {
            chosen[k] = c as u8;
            let key = key + key_unit(c as u8);
            choose(k + 1, c, chosen, blanks, letters, key, visit);
        }
    }
    let mut stopped = false;
    let mut visit = |key: u128, chosen: &[u8]| {
        if stopped || !go_on() {
            stopped = true;
            return;
        }
        filed.for_each(key, |w| {
            if stopped || !go_on() {
                stopped = true;
                return;
            }
            let w = &w[..w.len().min(MAX_WORD_LEN)];
            word[..w.len()].copy_from_slice(w);
            // Each chosen letter marks its last unmarked place.
            for &c in chosen {
                if let Some(i) = (0..w.len()).rev().find(|&i| word[i] == c) {
                    word[i] |= BLANK;
                }
            }
            emit(&word[..w.len()]);
        });
    };
    choose(0, 1, &mut chosen, blanks, letters, base, &mut visit);
    true
}

/// Moves the [`BLANK`] marks of `word` to the last places of their
/// letters outside `block` (the letters played through, never a blank's),
/// keeping how many each letter has: RE(e)STING, not R(e)ESTING.
fn last_places(word: &mut [u8], block: std::ops::Range<usize>) {
    let mut marked = [0u8; 64];
    for c in word.iter_mut() {
        if *c & BLANK != 0 {
            *c &= !BLANK;
            marked[*c as usize & 63] += 1;
        }
    }
    for i in (0..word.len()).rev() {
        let m = &mut marked[word[i] as usize & 63];
        if *m > 0 && !block.contains(&i) {
            *m -= 1;
            word[i] |= BLANK;
        }
    }
}

impl<'a> Search<'a> {
    fn rack_walk(&self, rack: &str, use_all: bool, min_used: usize) -> Result<Words<'a>> {
        let through = self.through_letters();
        let tiles = rack_tiles(self, rack)?;
        let anchor = match through {
            Some(t) => tiles_of(self.lex, Arg::Through, t)?,
            None => Vec::new(),
        };
        let mut out = self.collector();
        let lens = self.lens();
        // Every tile spent, nothing to play through, one or two blanks:
        // look the words up by alphagram, if they are filed.
        if use_all && anchor.is_empty() && (1..=MAX_LOOKUP_BLANKS).contains(&tiles.blanks) {
            if let Some(filed) = self.lex.alphagrams() {
                let letters = self.lex.alphabet().len();
                let mut push = |w: &[u8]| out.push(&[], &[], w);
                if by_alphagram(filed, &tiles, lens, letters, None, &mut push) {
                    return Ok(out.finish());
                }
            }
        }
        // Through a block, the walk spends tiles leftwards from it first,
        // so of two equal letters left of it the nearer takes the real
        // tile: ERS? through TING walks S, E (real), E (blank), R and
        // gives R(e)ESTING. Each word is marked again, its blanks on the
        // last places of their letters outside the block: RE(e)STING, as
        // a walk without a block and the look-up by alphagram mark them.
        let remark = !anchor.is_empty() && tiles.blanks > 0;
        let mut word = [0u8; MAX_WORD_LEN];
        let mut emit = |l: &[u8], a: &[u8], r: &[u8]| {
            if !remark {
                return out.push(l, a, r);
            }
            let n = l.len() + a.len() + r.len();
            let w = &mut word[..n.min(MAX_WORD_LEN)];
            for (d, &c) in w.iter_mut().zip(l.iter().rev().chain(a).chain(r)) {
                *d = c;
            }
            last_places(w, l.len()..l.len() + a.len());
            out.push(&[], &[], w);
        };
        let root = self.lex.arcs().root();
        let below = self.lex.letters_below();
        // Every tile spent and no blank: start from the rarest letter.
        let counts = self.lex.code_counts();
        let pivot = if use_all && anchor.is_empty() && tiles.blanks == 0 {
            (1..64u8)
                .filter(|&c| tiles.counts[c as usize] > 0)
                .min_by_key(|&c| counts[c as usize])
        } else {
            None
        };
        if let Some(pivot) = pivot {
            walk::anagram_from(root, tiles, pivot, lens, below, &mut emit);
        } else if let Some((at, word)) = walk::follow_reversed(root, &anchor) {
            walk::rack(
                at, word, &anchor, tiles, use_all, min_used, lens, below, None, &mut emit,
            );
        }
        Ok(out.finish())
    }

    /// Words using exactly the rack's tiles (`?` or `_` is a blank), plus,
    /// if [`Search::through`] gave one, that block of letters already on
    /// the board. A program that asks for many anagrams of racks with
    /// blanks calls [`crate::Lexicon::prepare_walks`] first, once: they
    /// are then looked up by alphagram rather than walked.
    ///
    /// ```
    /// let lex = lexq::Lexicon::embedded();
    /// let words = lex.search().anagram("retains").unwrap();
    /// assert_eq!(words.to_strings(), ["ANESTRI", "ANTSIER", "NASTIER", "RATINES", "RETAINS", "RETINAS", "RETSINA", "STAINER", "STEARIN"]);
    /// let through = lex.search().through("ain").anagram("ret").unwrap();
    /// assert_eq!(through.to_strings(), ["RETAIN"]);
    /// ```
    pub fn anagram(&self, rack: &str) -> Result<Words<'a>> {
        self.rack_walk(rack, true, 1)
    }

    /// Words using some of the rack's tiles: at least two, or at least one
    /// when playing [`Search::through`] a block of letters on the board.
    pub fn subanagram(&self, rack: &str) -> Result<Words<'a>> {
        let min_used = if self.through.is_some() { 1 } else { 2 };
        self.rack_walk(rack, false, min_used)
    }
}
