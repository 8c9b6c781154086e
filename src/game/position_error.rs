//! [`PositionError`]: what is wrong with a position, a move, a board layout
//! or a tile set, and where (line and column of the text it came from).

use std::fmt;

/// The letter of 0-based column `col` (`A` for 0).
pub fn column_name(col: usize) -> char {
    (b'A' + (col as u8).min(25)) as char
}

/// An unusable position, move, layout or tile set, with where the problem is.
///
/// ```
/// use lexq::{Lexicon, game::Position};
/// let lex = Lexicon::embedded();
/// let err = Position::from_cgp(&lex, "15/15 A/ 0/0 0").unwrap_err();
/// assert!(err.to_string().contains("rows"), "{err}");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    /// What was being read: `CGP`, `move`, a layout or tile-set file name...
    pub what: String,
    /// 1-based line, when the text has lines.
    pub line: Option<usize>,
    /// 1-based column (in characters), when known.
    pub column: Option<usize>,
    /// The problem.
    pub kind: PositionErrorKind,
}

/// The kinds of [`PositionError`], for callers that want to match on them.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PositionErrorKind {
    /// The text does not have the expected shape.
    Syntax(String),
    /// A board with the wrong number of rows or columns.
    BoardSize(String),
    /// A letter outside the lexicon's alphabet (or the tile set).
    NotInAlphabet(String),
    /// More tiles of a letter (or blanks) than the tile set holds.
    TooManyTiles {
        /// The tile, `?` for blanks.
        tile: String,
        /// How many the position uses (board and racks).
        count: usize,
        /// How many the tile set holds.
        max: usize,
    },
    /// A tile not connected to the others, or a board whose tiles do not
    /// cover the start square.
    Floating {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
    },
    /// A rack holding more tiles than the rack size.
    RackTooBig {
        /// Tiles on the rack.
        len: usize,
        /// The rack size.
        max: usize,
    },
    /// A board layout, tile set, variant or lexicon that lexq does not know
    /// or that does not fit the lexicon.
    Unsupported(String),
    /// A move that cannot be played (off the board, on occupied squares,
    /// not connected, tiles not on the rack...).
    IllegalMove(String),
    /// A move forming words the lexicon does not hold.
    Phony(Vec<String>),
}

impl PositionError {
    /// An error about `what` with no place.
    pub fn new(what: &str, kind: PositionErrorKind) -> PositionError {
        PositionError {
            what: what.to_string(),
            line: None,
            column: None,
            kind,
        }
    }

    /// The same error at `column` (1-based).
    pub fn at_column(mut self, column: usize) -> PositionError {
        self.column = Some(column);
        self
    }

    /// The same error on `line` (1-based).
    pub fn at_line(mut self, line: usize) -> PositionError {
        self.line = Some(line);
        self
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.what)?;
        if let Some(l) = self.line {
            write!(f, " line {l}")?;
        }
        if let Some(c) = self.column {
            write!(f, " column {c}")?;
        }
        write!(f, ": {}", self.kind)
    }
}

impl fmt::Display for PositionErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionErrorKind::Syntax(s)
            | PositionErrorKind::BoardSize(s)
            | PositionErrorKind::Unsupported(s)
            | PositionErrorKind::IllegalMove(s) => f.write_str(s),
            PositionErrorKind::NotInAlphabet(s) => {
                write!(f, "{s:?} is not a tile of the alphabet")
            }
            PositionErrorKind::TooManyTiles { tile, count, max } => write!(
                f,
                "{count} {tile} tiles in the position, the tile set holds {max}"
            ),
            PositionErrorKind::Floating { row, col } => write!(
                f,
                "the tile at {}{} is not connected to the start square",
                row + 1,
                column_name(*col)
            ),
            PositionErrorKind::RackTooBig { len, max } => {
                write!(f, "a rack of {len} tiles, at most {max} allowed")
            }
            PositionErrorKind::Phony(words) => write!(f, "not words: {}", words.join(", ")),
        }
    }
}

impl std::error::Error for PositionError {}
