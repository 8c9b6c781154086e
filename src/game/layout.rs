//! [`Layout`]: the board's size, premium squares and start square.
//!
//! Built in: the standard 15x15 board, the super 21x21 board and the
//! friends-style 15x15 board. Custom layouts come from a small text file,
//! one line per row, one character per square:
//!
//! | char | square |
//! |---|---|
//! | `.` | plain |
//! | `-` | double letter |
//! | `^` | triple letter |
//! | `4` | quadruple letter |
//! | `=` | double word |
//! | `#` | triple word |
//! | `$` | quadruple word |
//! | `*` | double word and start square |
//! | `+` | plain start square |
//!
//! All rows have the same length; boards are square, 2x2 to 25x25. Lines
//! starting with `;` are comments, blank lines are ignored. Without `*` or
//! `+` the start square is the centre (the board needs an odd size then).
//!
//! ```text
//! ; a 5x5 toy board
//! #...#
//! .-.-.
//! ..*..
//! .-.-.
//! #...#
//! ```

use std::path::Path;

use crate::error::Named;
use crate::files::policy::FilePolicy;
use crate::game::error::Result;
use crate::game::position_error::{PositionError, PositionErrorKind};

/// The largest board side lexq supports.
pub const MAX_SIZE: usize = 25;

/// The largest layout file read, in bytes (a 25x25 layout is under 1 KiB).
const MAX_FILE_BYTES: u64 = 1 << 20;

const STANDARD: &str = "\
#..-...#...-..#
.=...^...^...=.
..=...-.-...=..
-..=...-...=..-
....=.....=....
.^...^...^...^.
..-...-.-...-..
#..-...*...-..#
..-...-.-...-..
.^...^...^...^.
....=.....=....
-..=...-...=..-
..=...-.-...=..
.=...^...^...=.
#..-...#...-..#
";

const SUPER: &str = "\
$..-...#..-..#...-..$
.=..^...=...=...^..=.
..=..4...=.=...4..=..
-..#..-...#...-..#..-
.^..=...^...^...=..^.
..4..=...-.-...=..4..
...-..=...-...=..-...
#......=.....=......#
.=..^...^...^...^..=.
..=..-...-.-...-..=..
-..#..-...*...-..#..-
..=..-...-.-...-..=..
.=..^...^...^...^..=.
#......=.....=......#
...-..=...-...=..-...
..4..=...-.-...=..4..
.^..=...^...^...=..^.
-..#..-...#...-..#..-
..=..4...=.=...4..=..
.=..^...=...=...^..=.
$..-...#..-..#...-..$
";

/// A board layout: size, premium squares, start square.
///
/// ```
/// use lexq::game::Layout;
/// let l = Layout::standard();
/// assert_eq!(l.size(), 15);
/// assert_eq!(l.start(), (7, 7));
/// assert_eq!(l.word_mult(0, 0), 3);
/// assert_eq!(l.letter_mult(1, 5), 3);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    name: String,
    size: usize,
    start: (usize, usize),
    /// Per square, row-major: letter multiplier.
    letter: Vec<u8>,
    /// Per square, row-major: word multiplier.
    word: Vec<u8>,
}

impl Layout {
    /// The standard 15x15 board (start square 8H, a double word).
    pub fn standard() -> Layout {
        static STANDARD_LAYOUT: std::sync::LazyLock<Layout> = std::sync::LazyLock::new(|| {
            Layout::from_text("standard", STANDARD).expect("built-in layout")
        });
        STANDARD_LAYOUT.clone()
    }

    /// The super 21x21 board (start square at the centre, 0-based (10,10)).
    pub fn super_board() -> Layout {
        static SUPER_LAYOUT: std::sync::LazyLock<Layout> = std::sync::LazyLock::new(|| {
            Layout::from_text("super", SUPER).expect("built-in layout")
        });
        SUPER_LAYOUT.clone()
    }

    /// The friends-style 15x15 board (as published by open-source clones).
    pub fn friends() -> Layout {
        let mut grid = vec![vec![b'.'; 15]; 15];
        let seeds: [(u8, &[(usize, usize)]); 4] = [
            (b'#', &[(0, 3), (3, 0)]),
            (b'^', &[(0, 6), (3, 3), (5, 5), (6, 0)]),
            (b'=', &[(1, 5), (5, 1), (3, 7), (7, 3)]),
            (b'-', &[(1, 2), (2, 1), (2, 4), (4, 2), (4, 6), (6, 4)]),
        ];
        for (ch, squares) in seeds {
            for &(r, c) in squares {
                for (rr, cc) in [(r, c), (r, 14 - c), (14 - r, c), (14 - r, 14 - c)] {
                    grid[rr][cc] = ch;
                }
            }
        }
        grid[7][7] = b'+';
        let text: String = grid
            .iter()
            .map(|row| format!("{}\n", String::from_utf8_lossy(row)))
            .collect();
        Layout::from_text("friends", &text).expect("built-in layout")
    }

    /// A built-in layout by name, any case: `standard` (also
    /// `CrosswordGame`, `standard15`), `super` (`SuperCrosswordGame`,
    /// `super21`), `friends`.
    pub fn builtin(name: &str) -> Option<Layout> {
        match name.to_ascii_lowercase().as_str() {
            "standard" | "crosswordgame" | "standard15" => Some(Layout::standard()),
            "super" | "supercrosswordgame" | "super21" => Some(Layout::super_board()),
            "friends" => Some(Layout::friends()),
            _ => None,
        }
    }

    /// A built-in layout by name ([`Layout::builtin`]), else the layout
    /// file at that path (a regular file: a FIFO or a device is refused
    /// unopened). For a name someone else wrote, use
    /// [`Layout::named_with`].
    pub fn named(name_or_path: &str) -> Result<Layout> {
        Layout::named_with(name_or_path, &FilePolicy::any_file())
    }

    /// A built-in layout by name, else the layout file at that path if
    /// `files` lets it be opened (see [`FilePolicy`] for the errors).
    pub fn named_with(name_or_path: &str, files: &FilePolicy) -> Result<Layout> {
        match Layout::builtin(name_or_path) {
            Some(layout) => Ok(layout),
            None => files.load(Named::Layout, name_or_path, MAX_FILE_BYTES, |text| {
                Ok(Layout::from_text(name_or_path, text)?)
            }),
        }
    }

    /// Reads a layout file (format in the module documentation; a regular
    /// file, up to 1 MiB).
    pub fn from_file(path: &Path) -> Result<Layout> {
        let text = crate::files::capped::read_text(path, MAX_FILE_BYTES, "a layout file")?;
        let name = path.display().to_string();
        Ok(Layout::from_text(&name, &text)?)
    }

    /// Parses a layout from the text of a layout file.
    pub fn from_text(name: &str, text: &str) -> std::result::Result<Layout, PositionError> {
        let bad = |line: usize, col: Option<usize>, kind| {
            let mut e = PositionError::new(&format!("layout {name}"), kind).at_line(line);
            e.column = col;
            e
        };
        let mut rows: Vec<(usize, Vec<char>)> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with(';') {
                continue;
            }
            rows.push((i + 1, line.chars().collect()));
        }
        let size = rows.len();
        if !(2..=MAX_SIZE).contains(&size) {
            return Err(bad(
                rows.last().map_or(1, |r| r.0),
                None,
                PositionErrorKind::BoardSize(format!("{size} rows; a board has 2 to {MAX_SIZE}")),
            ));
        }
        let mut letter = vec![1u8; size * size];
        let mut word = vec![1u8; size * size];
        let mut start = None;
        for (r, (lineno, chars)) in rows.iter().enumerate() {
            if chars.len() != size {
                return Err(bad(
                    *lineno,
                    None,
                    PositionErrorKind::BoardSize(format!(
                        "{} squares in a row of a {size}-row board (boards are square)",
                        chars.len()
                    )),
                ));
            }
            for (c, &ch) in chars.iter().enumerate() {
                let i = r * size + c;
                match ch {
                    '.' => {}
                    '-' => letter[i] = 2,
                    '^' => letter[i] = 3,
                    '4' => letter[i] = 4,
                    '=' => word[i] = 2,
                    '#' => word[i] = 3,
                    '$' => word[i] = 4,
                    '*' | '+' => {
                        if start.is_some() {
                            return Err(bad(
                                *lineno,
                                Some(c + 1),
                                PositionErrorKind::Syntax("a second start square".into()),
                            ));
                        }
                        start = Some((r, c));
                        if ch == '*' {
                            word[i] = 2;
                        }
                    }
                    _ => {
                        return Err(bad(
                            *lineno,
                            Some(c + 1),
                            PositionErrorKind::Syntax(format!(
                                "{ch:?} is not a square (. - ^ 4 = # $ * +)"
                            )),
                        ));
                    }
                }
            }
        }
        let start = match start {
            Some(s) => s,
            None if size % 2 == 1 => (size / 2, size / 2),
            None => {
                return Err(bad(
                    rows[0].0,
                    None,
                    PositionErrorKind::Syntax(
                        "an even-sized board needs its start square marked with * or +".into(),
                    ),
                ));
            }
        };
        Ok(Layout {
            name: name.to_string(),
            size,
            start,
            letter,
            word,
        })
    }

    /// The text of a layout file describing this layout.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for r in 0..self.size {
            for c in 0..self.size {
                s.push(self.square_char(r, c));
            }
            s.push('\n');
        }
        s
    }

    /// The character of square `(row, col)` in the layout file format.
    pub fn square_char(&self, row: usize, col: usize) -> char {
        let i = row * self.size + col;
        if (row, col) == self.start {
            return if self.word[i] == 2 { '*' } else { '+' };
        }
        match (self.letter[i], self.word[i]) {
            (2, _) => '-',
            (3, _) => '^',
            (4, _) => '4',
            (_, 2) => '=',
            (_, 3) => '#',
            (_, 4) => '$',
            _ => '.',
        }
    }

    /// The layout's name (`standard`, `super`, `friends` or the file).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The number of rows (and of columns).
    pub fn size(&self) -> usize {
        self.size
    }

    /// The start square, 0-based `(row, col)`.
    pub fn start(&self) -> (usize, usize) {
        self.start
    }

    /// The letter multiplier of a square (1 on plain squares).
    #[inline]
    pub fn letter_mult(&self, row: usize, col: usize) -> u8 {
        self.letter[row * self.size + col]
    }

    /// The word multiplier of a square (1 on plain squares).
    #[inline]
    pub fn word_mult(&self, row: usize, col: usize) -> u8 {
        self.word[row * self.size + col]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_grid_matches_the_published_one() {
        let l = Layout::standard();
        // formats.md's grid, with the centre star as a double word.
        let count = |f: &dyn Fn(u8, u8) -> bool| {
            (0..15)
                .flat_map(|r| (0..15).map(move |c| (r, c)))
                .filter(|&(r, c)| f(l.letter_mult(r, c), l.word_mult(r, c)))
                .count()
        };
        assert_eq!(count(&|_, w| w == 3), 8);
        assert_eq!(count(&|_, w| w == 2), 17);
        assert_eq!(count(&|lm, _| lm == 3), 12);
        assert_eq!(count(&|lm, _| lm == 2), 24);
        assert_eq!(
            Layout::from_text("x", &l.to_text()).unwrap().letter,
            l.letter
        );
    }

    #[test]
    fn super_and_friends() {
        let s = Layout::super_board();
        assert_eq!((s.size(), s.start()), (21, (10, 10)));
        assert_eq!(s.word_mult(0, 0), 4);
        assert_eq!(s.letter_mult(2, 5), 4);
        let f = Layout::friends();
        assert_eq!(f.word_mult(0, 3), 3);
        assert_eq!(f.word_mult(14, 11), 3);
        assert_eq!(f.letter_mult(7, 7), 1);
        assert_eq!(f.word_mult(7, 7), 1);
    }

    #[test]
    fn bad_layouts() {
        assert!(Layout::from_text("x", "..\n..\n").is_err()); // even, no start
        assert!(Layout::from_text("x", "...\n..\n...\n").is_err());
        assert!(Layout::from_text("x", "...\n.x.\n...\n").is_err());
        assert!(Layout::from_text("x", "*.\n.*\n").is_err());
        assert!(Layout::from_text("x", ".").is_err());
        let ok = Layout::from_text("x", "; c\n+.\n..\n").unwrap();
        assert_eq!(ok.start(), (0, 0));
    }
}
