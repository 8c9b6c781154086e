//! Move notation as GCG files and engines write it: `8D CA(R)E` (row
//! first: across), `D8 ...` (column first: down), `-ABC` (exchange), `-`
//! (pass). Play-through letters are in parentheses (or given plainly, or as
//! `.`); blanks are lowercase; a multi-letter tile may be bracketed `[CH]`.

use crate::alphabet::Alphabet;
use crate::game::moves::{Move, MoveKind, THROUGH};
use crate::game::rack::{parse_tiles, push_tiles};

pub use crate::game::position_error::{PositionError, PositionErrorKind, column_name};

impl Move {
    /// The move in GCG notation: `8D CA(R)E`, `D8 ...` for down, `-ABC` for
    /// an exchange, `-` for a pass.
    pub fn notation(&self, alphabet: &Alphabet) -> String {
        format_move(self, alphabet)
    }

    /// The coordinate: `8D` across, `D8` down.
    pub fn coordinate(&self) -> String {
        coordinate(self.row(), self.col(), self.across())
    }
}

/// `8D` for across from (7, 3), `D8` for down.
pub fn coordinate(row: usize, col: usize, across: bool) -> String {
    if across {
        format!("{}{}", row + 1, column_name(col))
    } else {
        format!("{}{}", column_name(col), row + 1)
    }
}

pub(crate) fn format_move(m: &Move, alphabet: &Alphabet) -> String {
    match m.kind() {
        MoveKind::Pass => "-".to_string(),
        MoveKind::Exchange => {
            let mut s = String::from("-");
            push_tiles(&mut s, alphabet, m.squares());
            s
        }
        MoveKind::Place => {
            // Runs of placed tiles, and of tiles already there in
            // parentheses, each written so that it reads back tile for
            // tile (`PE[RR]O`).
            let mut s = coordinate(m.row(), m.col(), m.across());
            s.push(' ');
            let squares = m.squares();
            let mut i = 0;
            while i < squares.len() {
                let through = squares[i] & THROUGH != 0;
                let run = squares[i..]
                    .iter()
                    .take_while(|&&t| (t & THROUGH != 0) == through)
                    .count();
                let codes: Vec<u8> = squares[i..i + run].iter().map(|&t| t & !THROUGH).collect();
                if through {
                    s.push('(');
                }
                push_tiles(&mut s, alphabet, &codes);
                if through {
                    s.push(')');
                }
                i += run;
            }
            s
        }
    }
}

/// One square of a parsed word: the tile (with `BLANK`), and whether the
/// text says it was already on the board (`Some(true)`), newly placed
/// (`Some(false)`), or does not say (`None`: plain letters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WordSquare {
    /// Tile code with `BLANK`; 0 when given as `.` (any board tile).
    pub tile: u8,
    pub through: Option<bool>,
}

/// A move as written, before it is set against a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Written {
    Place {
        row: usize,
        col: usize,
        across: bool,
        word: Vec<WordSquare>,
    },
    Exchange(Vec<u8>),
    Pass,
}

/// Parses move notation (see the module documentation).
pub(crate) fn parse(text: &str, alphabet: &Alphabet) -> Result<Written, PositionError> {
    let err = |col: usize, s: String| {
        PositionError::new("move", PositionErrorKind::Syntax(s)).at_column(col)
    };
    let t = text.trim();
    if t == "-" || t.eq_ignore_ascii_case("pass") {
        return Ok(Written::Pass);
    }
    let exch = t
        .strip_prefix('-')
        .or_else(|| t.strip_prefix("ex."))
        .or_else(|| t.strip_prefix("exch "));
    if let Some(tiles) = exch {
        let tiles = parse_tiles(tiles.trim(), alphabet, "move")?;
        if tiles.is_empty() {
            return Err(err(1, "an exchange of no tiles".into()));
        }
        return Ok(Written::Exchange(tiles.iter().map(|&c| c & 63).collect()));
    }
    let (coord, word) = match t.split_once(char::is_whitespace) {
        Some((c, w)) => (c, w.trim()),
        None => {
            return Err(err(
                1,
                format!("{t:?}: expected a coordinate and a word, like 8D CARE"),
            ));
        }
    };
    let (row, col, across) = parse_coordinate(coord)
        .ok_or_else(|| err(1, format!("{coord:?} is not a coordinate like 8D or D8")))?;
    let word_col = text.find(word).map_or(1, |b| text[..b].chars().count() + 1);
    let mut squares = Vec::new();
    let mut in_paren = false;
    let mut rest = word;
    while let Some(ch) = rest.chars().next() {
        let here = word_col + word[..word.len() - rest.len()].chars().count();
        match ch {
            '(' if !in_paren => {
                in_paren = true;
                rest = &rest[1..];
            }
            ')' if in_paren => {
                in_paren = false;
                rest = &rest[1..];
            }
            '.' => {
                squares.push(WordSquare {
                    tile: 0,
                    through: Some(true),
                });
                rest = &rest[1..];
            }
            _ => {
                let (tile, n) = read_word_tile(rest, alphabet).ok_or_else(|| {
                    PositionError::new("move", PositionErrorKind::NotInAlphabet(ch.to_string()))
                        .at_column(here)
                })?;
                squares.push(WordSquare {
                    tile,
                    through: if in_paren { Some(true) } else { None },
                });
                rest = &rest[n..];
            }
        }
    }
    if in_paren {
        return Err(err(word_col, "an unclosed (".into()));
    }
    if squares.is_empty() {
        return Err(err(word_col, "an empty word".into()));
    }
    Ok(Written::Place {
        row,
        col,
        across,
        word: squares,
    })
}

/// Reads one tile at the start of `s`: `[XY]` or the alphabet's longest
/// spelling; lowercase means a blank.
fn read_word_tile(s: &str, alphabet: &Alphabet) -> Option<(u8, usize)> {
    if let Some(inner) = s.strip_prefix('[') {
        let end = inner.find(']')?;
        let code = crate::game::rack::read_tile(&inner[..end], alphabet)?;
        return Some((code, end + 2));
    }
    let (code, n) = alphabet.tile_at(s)?;
    let code = crate::game::rack::read_tile(&s[..n], alphabet).unwrap_or(code);
    Some((code, n))
}

/// The ways to read `text` (a rack, or a word with `(` `)` `.` for tiles
/// on the board) as tiles, each spelled with every tile bracketed
/// (`[C][H]`), the greedy reading (the longest tile at each point, as
/// words are read) first. Where a multi-letter tile's letters are tiles
/// too, both readings are listed: Spanish `CH` is `[CH]` or `[C][H]`.
/// Bracketed tiles, `?`, `_` and the board marks are kept as they are. At
/// most `max` readings; none if no reading is all tiles.
///
/// `PERRO` reads `[P][E][RR][O]` first, then `[P][E][R][R][O]`.
pub(crate) fn readings(text: &str, alphabet: &Alphabet, max: usize) -> Vec<String> {
    fn walk(rest: &str, alphabet: &Alphabet, max: usize, done: &mut String, out: &mut Vec<String>) {
        if out.len() >= max {
            return;
        }
        let Some(ch) = rest.chars().next() else {
            out.push(done.clone());
            return;
        };
        let keep = done.len();
        match ch {
            '(' | ')' | '.' | '?' | '_' => {
                done.push(ch);
                walk(&rest[1..], alphabet, max, done, out);
            }
            '[' => {
                if let Some(end) = rest.find(']') {
                    done.push_str(&rest[..=end]);
                    walk(&rest[end + 1..], alphabet, max, done, out);
                }
            }
            _ => {
                let mut lens: Vec<usize> = Vec::with_capacity(2);
                if let Some((_, n)) = alphabet.tile_at(rest) {
                    lens.push(n);
                }
                let one = ch.len_utf8();
                if !lens.contains(&one) {
                    lens.push(one);
                }
                for n in lens {
                    if crate::game::rack::read_tile(&rest[..n], alphabet).is_some() {
                        done.push('[');
                        done.push_str(&rest[..n]);
                        done.push(']');
                        walk(&rest[n..], alphabet, max, done, out);
                        done.truncate(keep);
                    }
                }
            }
        }
        done.truncate(keep);
    }
    let mut out = Vec::new();
    walk(text, alphabet, max.max(1), &mut String::new(), &mut out);
    out
}

/// `8D` → (7, 3, across); `D8` → (7, 3, down).
pub(crate) fn parse_coordinate(s: &str) -> Option<(usize, usize, bool)> {
    let b = s.as_bytes();
    if b.is_empty() || !s.is_ascii() {
        return None;
    }
    let letter = |c: u8| {
        let c = c.to_ascii_uppercase();
        c.is_ascii_uppercase().then(|| (c - b'A') as usize)
    };
    let number = |d: &str| -> Option<usize> {
        let n: usize = d.parse().ok()?;
        (1..=99)
            .contains(&n)
            .then(|| n - 1)
            .filter(|_| !d.starts_with('0'))
    };
    if b[0].is_ascii_digit() {
        let col = letter(*b.last()?)?;
        let row = number(&s[..s.len() - 1])?;
        Some((row, col, true))
    } else {
        let col = letter(b[0])?;
        let row = number(&s[1..])?;
        Some((row, col, false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates() {
        assert_eq!(parse_coordinate("8D"), Some((7, 3, true)));
        assert_eq!(parse_coordinate("d8"), Some((7, 3, false)));
        assert_eq!(parse_coordinate("15O"), Some((14, 14, true)));
        assert_eq!(parse_coordinate("08D"), None);
        assert_eq!(parse_coordinate("8"), None);
        assert_eq!(parse_coordinate("D"), None);
        assert_eq!(coordinate(7, 3, false), "D8");
    }

    #[test]
    fn words() {
        let en = Alphabet::english();
        let Written::Place { word, .. } = parse("8D CA(R)e", &en).unwrap() else {
            panic!()
        };
        assert_eq!(word.len(), 4);
        assert_eq!(word[2].through, Some(true));
        assert_eq!(word[3].tile, 5 | crate::alphabet::BLANK);
        assert_eq!(parse("-", &en).unwrap(), Written::Pass);
        assert_eq!(
            parse("-AB?", &en).unwrap(),
            Written::Exchange(vec![1, 2, 0])
        );
        assert!(parse("8D CA(RE", &en).is_err());
        assert!(parse("8D C1", &en).is_err());
        assert!(parse("ZZ CAT", &en).is_err());
        let es = Alphabet::spanish();
        let Written::Place { word, .. } = parse("H8 CHe", &es).unwrap() else {
            panic!()
        };
        assert_eq!(word.len(), 2);
    }

    #[test]
    fn every_reading() {
        let es = Alphabet::spanish();
        assert_eq!(
            readings("PERRO", &es, 10),
            ["[P][E][RR][O]", "[P][E][R][R][O]"]
        );
        assert_eq!(
            readings("CH(LL)a?", &es, 10),
            [
                "[CH]([LL])[a]?",
                "[CH]([L][L])[a]?",
                "[C][H]([LL])[a]?",
                "[C][H]([L][L])[a]?"
            ]
        );
        // A blank c then H: mixed case is no tile.
        assert_eq!(readings("cH", &es, 10), ["[c][H]"]);
        assert_eq!(readings("[CH]R", &es, 10), ["[CH][R]"]);
        assert!(readings("K", &es, 10).is_empty());
        assert_eq!(readings("RRRRRRRRRRRR", &es, 5).len(), 5);
        let ca = Alphabet::catalan();
        // Catalan has no Y tile, nor a middle dot: one reading.
        assert_eq!(readings("L·LNY", &ca, 10), ["[L·L][NY]"]);
    }
}
