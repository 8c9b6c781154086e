//! [`Rack`]: the tiles a player holds, as counts per tile code.

use std::fmt::Write;

use crate::alphabet::Alphabet;
use crate::game::position_error::{PositionError, PositionErrorKind};

/// A multiset of tiles: a count per tile code, code 0 counting blanks.
///
/// ```
/// use lexq::{Alphabet, game::Rack};
/// let en = Alphabet::english();
/// let r = Rack::parse("retains?", &en).unwrap();
/// assert_eq!((r.len(), r.count(0)), (8, 1));
/// assert_eq!(r.to_string(&en), "AEINRST?");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rack {
    counts: [u8; 64],
}

impl Default for Rack {
    fn default() -> Rack {
        Rack { counts: [0; 64] }
    }
}

impl Rack {
    /// An empty rack.
    pub fn new() -> Rack {
        Rack::default()
    }

    /// Reads a rack: tiles of `alphabet`, `?` or `_` for a blank, `[CH]` for
    /// a multi-letter tile. An empty string is an empty rack.
    pub fn parse(text: &str, alphabet: &Alphabet) -> Result<Rack, PositionError> {
        let mut r = Rack::new();
        for code in parse_tiles(text, alphabet, "rack")? {
            r.add(code & 63);
        }
        Ok(r)
    }

    /// A rack holding `codes` (0 for a blank).
    pub fn from_codes(codes: &[u8]) -> Rack {
        let mut r = Rack::new();
        for &c in codes {
            r.add(c & 63);
        }
        r
    }

    /// A rack from counts per code (index 0: blanks).
    #[inline]
    pub fn from_counts(counts: &[u8; 64]) -> Rack {
        Rack { counts: *counts }
    }

    /// The number of tiles.
    pub fn len(&self) -> usize {
        self.counts.iter().map(|&c| c as usize).sum()
    }

    /// Whether the rack holds no tile.
    pub fn is_empty(&self) -> bool {
        self.counts.iter().all(|&c| c == 0)
    }

    /// How many tiles of `code` (0: blanks).
    #[inline]
    pub fn count(&self, code: u8) -> usize {
        self.counts[code as usize & 63] as usize
    }

    /// The counts per code, index 0 for blanks.
    #[inline]
    pub fn counts(&self) -> &[u8; 64] {
        &self.counts
    }

    /// The counts per code, to change in place (the move generator keeps
    /// the tiles left as a rack, so that each move's leave is handed to the
    /// recorder without a copy).
    #[inline]
    pub(crate) fn counts_mut(&mut self) -> &mut [u8; 64] {
        &mut self.counts
    }

    /// Adds a tile (`0` for a blank).
    #[inline]
    pub fn add(&mut self, code: u8) {
        let c = &mut self.counts[code as usize & 63];
        *c = c.saturating_add(1);
    }

    /// Takes a tile away; false (and no change) if the rack has none.
    #[inline]
    pub fn remove(&mut self, code: u8) -> bool {
        let c = &mut self.counts[code as usize & 63];
        if *c == 0 {
            return false;
        }
        *c -= 1;
        true
    }

    /// The tiles in code order, blanks (code 0) last.
    pub fn codes(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(self.len());
        for code in (1..64u8).chain(std::iter::once(0)) {
            v.extend(std::iter::repeat_n(code, self.count(code)));
        }
        v
    }

    /// The rack as text: tiles in alphabet order, `?` for blanks last,
    /// multi-letter tiles bracketed (`[CH]`).
    pub fn to_string(&self, alphabet: &Alphabet) -> String {
        let mut s = String::new();
        for code in self.codes() {
            push_tile(&mut s, alphabet, code, true);
        }
        s
    }
}

/// Appends tile `code` (0 = an undesignated blank `?`) to `s`: its label,
/// bracketed if it is more than one character and `bracket` is set.
pub(crate) fn push_tile(s: &mut String, alphabet: &Alphabet, code: u8, bracket: bool) {
    if code == 0 {
        s.push('?');
        return;
    }
    let label = alphabet.label(code & 63).unwrap_or("\u{fffd}");
    let blank = code & crate::alphabet::BLANK != 0;
    let multi = label.chars().count() > 1;
    if multi && bracket {
        s.push('[');
    }
    if blank {
        let _ = write!(s, "{}", label.to_lowercase());
    } else {
        s.push_str(label);
    }
    if multi && bracket {
        s.push(']');
    }
}

/// Appends tiles (codes flagged [`crate::alphabet::BLANK`] for designated
/// blanks, 0 for an undesignated blank `?`) as text that every reader
/// takes back tile for tile: a multi-letter tile is bracketed (`[CH]`), and
/// so is a one-letter tile that a greedy reader would join with the
/// letters after it (Spanish C then H is `[C]H`, not `CH`).
pub(crate) fn push_tiles(s: &mut String, alphabet: &Alphabet, codes: &[u8]) {
    let label = |code: u8| -> String {
        let mut t = String::new();
        push_tile(&mut t, alphabet, code, false);
        t
    };
    for (i, &code) in codes.iter().enumerate() {
        let own = label(code);
        let multi = code != 0 && own.chars().count() > 1;
        let joins = !multi && code != 0 && {
            // The plain text from here, up to the next bracketed tile.
            let mut ahead = own.clone();
            for &next in codes[i + 1..].iter().take(3) {
                let l = label(next);
                if next == 0 || l.chars().count() > 1 {
                    break;
                }
                ahead.push_str(&l);
            }
            alphabet.tile_at(&ahead).is_some_and(|(_, n)| n > own.len())
        };
        if multi || joins {
            s.push('[');
            s.push_str(&own);
            s.push(']');
        } else {
            s.push_str(&own);
        }
    }
}

/// [`push_tiles`] into a new string.
pub(crate) fn tiles_text(alphabet: &Alphabet, codes: &[u8]) -> String {
    let mut s = String::new();
    push_tiles(&mut s, alphabet, codes);
    s
}

/// Reads tiles: letters (lowercase = blank-designated, flagged with
/// [`crate::alphabet::BLANK`]), `?`/`_` = undesignated blank (code 0), `[XY]`
/// for multi-letter tiles. `what` names the input in errors; columns are
/// 1-based character offsets into `text`.
pub(crate) fn parse_tiles(
    text: &str,
    alphabet: &Alphabet,
    what: &str,
) -> Result<Vec<u8>, PositionError> {
    let mut out = Vec::new();
    let mut rest = text;
    let col = |rest: &str| text[..text.len() - rest.len()].chars().count() + 1;
    while let Some(ch) = rest.chars().next() {
        if ch == '?' || ch == '_' {
            out.push(0);
            rest = &rest[1..];
            continue;
        }
        let (tile, len) = if ch == '[' {
            match rest.find(']') {
                Some(end) => (&rest[1..end], end + 1),
                None => {
                    return Err(PositionError::new(
                        what,
                        PositionErrorKind::Syntax("an unclosed [".into()),
                    )
                    .at_column(col(rest)));
                }
            }
        } else {
            (&rest[..ch.len_utf8()], ch.len_utf8())
        };
        match read_tile(tile, alphabet) {
            Some(code) => out.push(code),
            None => {
                return Err(PositionError::new(
                    what,
                    PositionErrorKind::NotInAlphabet(tile.into()),
                )
                .at_column(col(rest)));
            }
        }
        rest = &rest[len..];
    }
    Ok(out)
}

/// One tile spelled exactly `s`: its code, with [`crate::alphabet::BLANK`] set
/// if written in lowercase.
pub(crate) fn read_tile(s: &str, alphabet: &Alphabet) -> Option<u8> {
    let (code, n) = alphabet.tile_at(s)?;
    if n != s.len() || s.is_empty() {
        return None;
    }
    let lower = s.chars().any(char::is_lowercase);
    let upper = s.chars().any(char::is_uppercase);
    if lower && upper {
        return None;
    }
    Some(if lower {
        code | crate::alphabet::BLANK
    } else {
        code
    })
}
