//! [`TileSet`]: how many of each tile the bag holds, what each scores, the
//! bingo bonus and the rack size.
//!
//! Built in: `english` (100 tiles, bingo +50), `english_super` (200 tiles),
//! `friends` (104 tiles, bingo +35), `spanish` (100 tiles with CH, LL, RR
//! and Ñ), and the sets of the Polish, German, French, Dutch, Norwegian,
//! Swedish, Slovene, Italian and Portuguese editions (`polish`...), each
//! read against the built-in alphabet of its name, with its source in
//! `src/alphabet/languages.rs`. Custom sets come from a text file, one tile a line: the tile's
//! spelling, its count and its value; `?` is the blank. Optional lines
//! `bingo N` and `rack N` set the bingo bonus (default 50) and the rack size
//! (default 7). Lines starting with `;` are comments.
//!
//! ```text
//! ; a tiny set
//! bingo 20
//! rack 5
//! A 5 1
//! B 2 3
//! ? 1 0
//! ```
//!
//! A tile set is read against a lexicon's [`Alphabet`]: every tile of the
//! alphabet must be in the set once, and nothing else.

use crate::alphabet::Alphabet;
use crate::error::{Error, Named, Result, TileSetErrorKind};
use crate::files::policy::FilePolicy;

/// The largest rack size lexq supports.
pub const MAX_RACK: usize = 15;

/// The largest tile file read, in bytes (a tile set is a few hundred).
const MAX_FILE_BYTES: u64 = 1 << 20;

const ENGLISH: &str = "\
A 9 1\nB 2 3\nC 2 3\nD 4 2\nE 12 1\nF 2 4\nG 3 2\nH 2 4\nI 9 1\nJ 1 8\nK 1 5\nL 4 1\nM 2 3
N 6 1\nO 8 1\nP 2 3\nQ 1 10\nR 6 1\nS 4 1\nT 6 1\nU 4 1\nV 2 4\nW 2 4\nX 1 8\nY 2 4\nZ 1 10\n? 2 0\n";

const ENGLISH_SUPER: &str = "\
A 16 1\nB 4 3\nC 6 3\nD 8 2\nE 24 1\nF 4 4\nG 5 2\nH 5 4\nI 13 1\nJ 2 8\nK 2 5\nL 7 1\nM 6 3
N 13 1\nO 15 1\nP 4 3\nQ 2 10\nR 13 1\nS 10 1\nT 15 1\nU 7 1\nV 3 4\nW 4 4\nX 2 8\nY 4 4\nZ 2 10\n? 4 0\n";

const FRIENDS: &str = "\
bingo 35
A 9 1\nB 2 4\nC 2 4\nD 5 2\nE 13 1\nF 2 4\nG 3 3\nH 4 3\nI 8 1\nJ 1 10\nK 1 5\nL 4 2\nM 2 4
N 5 2\nO 8 1\nP 2 4\nQ 1 10\nR 6 1\nS 5 1\nT 7 1\nU 4 2\nV 2 5\nW 2 4\nX 1 8\nY 2 3\nZ 1 10\n? 2 0\n";

const SPANISH: &str = "\
A 12 1\nB 2 3\nC 4 3\nCH 1 5\nD 5 2\nE 12 1\nF 1 4\nG 2 2\nH 2 4\nI 6 1\nJ 1 8\nL 4 1\nLL 1 8
M 2 3\nN 5 1\nÑ 1 8\nO 9 1\nP 2 3\nQ 1 5\nR 5 1\nRR 1 8\nS 6 1\nT 4 1\nU 5 1\nV 1 4\nX 1 8
Y 1 4\nZ 1 10\n? 2 0\n";

/// A tile distribution with values, read against an alphabet: counts and
/// values are indexed by tile code, code 0 standing for the blank.
///
/// ```
/// use lexq::{Alphabet, TileSet};
/// let t = TileSet::named("english", &Alphabet::english()).unwrap();
/// assert_eq!(t.total(), 100);
/// assert_eq!((t.count(0), t.value(17)), (2, 10)); // two blanks; Q is 10
/// assert_eq!((t.bingo(), t.rack_size()), (50, 7));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileSet {
    name: String,
    counts: [u8; 64],
    values: [i32; 64],
    bingo: i32,
    rack_size: usize,
}

impl TileSet {
    /// A built-in set by name, any case (`english`, `english_super` (also
    /// `super`, `english-super`), `friends`, `spanish`, and `polish`,
    /// `german`, `french`, `dutch`, `norwegian`, `swedish`, `slovene`,
    /// `italian`, `portuguese`, each for the built-in alphabet of that
    /// name: their sources are in `src/alphabet/languages.rs`), read
    /// against `alphabet`; `None` if `name` is none of them.
    pub fn builtin(name: &str, alphabet: &Alphabet) -> Option<Result<TileSet>> {
        let (name, text) = match name.to_ascii_lowercase().as_str() {
            "english" => ("english", ENGLISH),
            "english_super" | "english-super" | "super" | "englishsuper" => {
                ("english_super", ENGLISH_SUPER)
            }
            "friends" => ("friends", FRIENDS),
            "spanish" => ("spanish", SPANISH),
            other => {
                let l = crate::alphabet::languages::language(other)?;
                (l.name, l.tiles)
            }
        };
        Some(TileSet::from_text(name, text, alphabet))
    }

    /// A built-in set ([`TileSet::builtin`]) or else the tile-set file at
    /// that path (a regular file: a FIFO or a device is refused unopened),
    /// read against `alphabet`. For a name someone else wrote, use
    /// [`TileSet::named_with`].
    pub fn named(name_or_path: &str, alphabet: &Alphabet) -> Result<TileSet> {
        TileSet::named_with(name_or_path, alphabet, &FilePolicy::any_file())
    }

    /// A built-in set, else the tile-set file at that path if `files` lets
    /// it be opened (see [`FilePolicy`] for the errors), read against
    /// `alphabet`.
    pub fn named_with(
        name_or_path: &str,
        alphabet: &Alphabet,
        files: &FilePolicy,
    ) -> Result<TileSet> {
        match TileSet::builtin(name_or_path, alphabet) {
            Some(set) => set,
            None => files.load(Named::TileSet, name_or_path, MAX_FILE_BYTES, |text| {
                TileSet::from_text(name_or_path, text, alphabet)
            }),
        }
    }

    /// The built-in set that goes with `alphabet` on a board of `size`:
    /// English (super on boards larger than 15), or the set of the
    /// alphabet's name (Spanish, Polish, German...).
    pub fn default_for(alphabet: &Alphabet, size: usize) -> Result<TileSet> {
        let name = match (alphabet.name(), size > 15) {
            ("english", false) => "english",
            ("english", true) => "english_super",
            ("spanish", _) => "spanish",
            (other, _) if crate::alphabet::languages::language(other).is_some() => other,
            (other, _) => {
                return Err(Error::TileSet {
                    name: None,
                    line: None,
                    kind: TileSetErrorKind::Unsupported(format!(
                        "no built-in tile set for the {other} alphabet; give one (ld)"
                    )),
                });
            }
        };
        TileSet::named(name, alphabet)
    }

    /// Parses a tile set from the text of a tile-set file.
    pub fn from_text(name: &str, text: &str, alphabet: &Alphabet) -> Result<TileSet> {
        let bad = |line: usize, kind| Error::TileSet {
            name: Some(name.to_string()),
            line: Some(line),
            kind,
        };
        let syntax = |line: usize, s: String| bad(line, TileSetErrorKind::Syntax(s));
        let mut set = TileSet {
            name: name.to_string(),
            counts: [0; 64],
            values: [0; 64],
            bingo: 50,
            rack_size: 7,
        };
        let mut seen = [false; 64];
        for (i, line) in text.lines().enumerate() {
            let lineno = i + 1;
            let line = line.trim();
            if line.is_empty() || line.starts_with(';') {
                continue;
            }
            let fields: Vec<&str> = line.split_whitespace().collect();
            let num = |s: &str, max: i64| -> Result<i64> {
                match s.parse::<i64>() {
                    Ok(n) if (0..=max).contains(&n) => Ok(n),
                    _ => Err(syntax(lineno, format!("{s:?} is not a number 0 to {max}"))),
                }
            };
            match fields.as_slice() {
                ["bingo", n] => set.bingo = num(n, 1000)? as i32,
                ["rack", n] => {
                    let n = num(n, MAX_RACK as i64)? as usize;
                    if n == 0 {
                        return Err(syntax(lineno, "a rack holds at least one tile".into()));
                    }
                    set.rack_size = n;
                }
                [tile, count, value] => {
                    let code = if *tile == "?" {
                        0
                    } else {
                        match alphabet.tile_at(tile) {
                            Some((code, n)) if n == tile.len() => code,
                            _ => {
                                return Err(bad(
                                    lineno,
                                    TileSetErrorKind::NotInAlphabet(tile.to_string()),
                                ));
                            }
                        }
                    };
                    if std::mem::replace(&mut seen[code as usize], true) {
                        return Err(syntax(lineno, format!("{tile} is listed twice")));
                    }
                    set.counts[code as usize] = num(count, 255)? as u8;
                    set.values[code as usize] = if code == 0 {
                        0
                    } else {
                        num(value, 1000)? as i32
                    };
                }
                _ => {
                    return Err(syntax(
                        lineno,
                        "expected `TILE COUNT VALUE`, `bingo N` or `rack N`".into(),
                    ));
                }
            }
        }
        let missing: Vec<&str> = (1..=alphabet.len() as u8)
            .filter(|&c| !seen[c as usize])
            .filter_map(|c| alphabet.label(c))
            .collect();
        if !missing.is_empty() {
            return Err(Error::TileSet {
                name: Some(name.to_string()),
                line: None,
                kind: TileSetErrorKind::Unsupported(format!(
                    "does not match the {} alphabet: no {}",
                    alphabet.name(),
                    missing.join(" ")
                )),
            });
        }
        Ok(set)
    }

    /// The set's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// How many tiles of `code` the bag starts with (code 0: blanks).
    #[inline]
    pub fn count(&self, code: u8) -> usize {
        self.counts[code as usize & 63] as usize
    }

    /// The value of tile `code` (0 for the blank, code 0).
    #[inline]
    pub fn value(&self, code: u8) -> i32 {
        self.values[code as usize & 63]
    }

    /// Values of every code, index 0 being the blank.
    pub fn values(&self) -> &[i32; 64] {
        &self.values
    }

    /// The number of tiles in the full bag.
    pub fn total(&self) -> usize {
        self.counts.iter().map(|&c| c as usize).sum()
    }

    /// The bonus for playing a full rack.
    pub fn bingo(&self) -> i32 {
        self.bingo
    }

    /// Sets the bingo bonus (CGP's `bb`).
    pub fn set_bingo(&mut self, bonus: i32) {
        self.bingo = bonus;
    }

    /// Tiles on a full rack.
    pub fn rack_size(&self) -> usize {
        self.rack_size
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_totals() {
        let en = Alphabet::english();
        assert_eq!(TileSet::named("english", &en).unwrap().total(), 100);
        assert_eq!(TileSet::named("english_super", &en).unwrap().total(), 200);
        let f = TileSet::named("friends", &en).unwrap();
        assert_eq!((f.total(), f.bingo()), (104, 35));
        let es = Alphabet::spanish();
        let s = TileSet::named("spanish", &es).unwrap();
        assert_eq!(s.total(), 100);
        let ch = es.encode("CH").unwrap()[0];
        assert_eq!((s.count(ch), s.value(ch)), (1, 5));
    }

    #[test]
    fn mismatches_are_errors() {
        let es = Alphabet::spanish();
        let e = TileSet::named("english", &es).unwrap_err().to_string();
        assert!(e.contains("not a tile"), "{e}");
        let en = Alphabet::english();
        let e = TileSet::from_text("t", "A 1 1\n", &en)
            .unwrap_err()
            .to_string();
        assert!(e.contains("no B"), "{e}");
        assert!(TileSet::from_text("t", "A 1\n", &en).is_err());
        assert!(TileSet::from_text("t", "rack 99\n", &en).is_err());
        assert!(TileSet::from_text("t", "A 1 1\nA 1 1\n", &en).is_err());
    }
}
