//! [`GcgError`]: a malformed line of a GCG file, with its line, column
//! and problem. Apart from the reader so that the game layer's error can
//! wrap it without importing the reader.

/// The most players a game file may declare.
pub const MAX_PLAYERS: usize = 8;

/// A malformed GCG file: where (1-based line and column, in characters)
/// and what.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct GcgError {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column (in characters) of the offending text.
    pub column: usize,
    /// What is wrong.
    pub kind: GcgErrorKind,
}

/// What is wrong with a GCG line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GcgErrorKind {
    /// The file holds no pragma and no event.
    #[error("the file is empty")]
    Empty,
    /// The bytes are not UTF-8 (and no `#character-encoding` says
    /// otherwise): the encoding they look like.
    #[error(
        "not UTF-8: it looks like {looks_like}; say so on the first line (#character-encoding {name})"
    )]
    InvalidUtf8 {
        /// The encoding the bytes look like (`ISO-8859-1 (Latin-1)`, ...).
        looks_like: &'static str,
        /// The name `#character-encoding` takes for it.
        name: &'static str,
    },
    /// `#character-encoding` names an encoding other than UTF-8 or
    /// ISO-8859-1.
    #[error("unsupported character encoding {0:?}")]
    UnknownEncoding(String),
    /// `#character-encoding` is not on the first line.
    #[error("#character-encoding must be the first line")]
    EncodingNotFirst,
    /// A pragma is missing a required part or has a malformed one.
    #[error("#{pragma}: {reason}")]
    BadPragma {
        /// The pragma's name.
        pragma: String,
        /// What is wrong with it.
        reason: String,
    },
    /// `#playerN` appears twice.
    #[error("player {0} is declared twice")]
    DuplicatePlayer(usize),
    /// Two players have the same nickname.
    #[error("two players are called {0:?}")]
    DuplicateNick(String),
    /// `#playerN` past the players a game may have.
    #[error("player {0}: a game has at most {MAX_PLAYERS} players")]
    TooManyPlayers(usize),
    /// Players declared with a gap (`#player3` without `#player2`).
    #[error("player {0} is not declared")]
    MissingPlayer(usize),
    /// A `#player` pragma comes after the first event.
    #[error("players must be declared before the first event")]
    PlayerAfterEvents,
    /// An event names a nickname no `#player` pragma declared.
    #[error("unknown player {0:?}")]
    UnknownPlayer(String),
    /// An event line stops before a required part.
    #[error("expected {0}")]
    Missing(&'static str),
    /// A coordinate is malformed (`8D` across, `D8` down).
    #[error("bad coordinate {0:?} (8D is across from row 8, column D; D8 is down)")]
    BadCoordinate(String),
    /// A rack, word or tile list has a character that cannot be a tile,
    /// or unbalanced parentheses or brackets.
    #[error("bad tiles {text:?}: {reason}")]
    BadTiles {
        /// The text as written.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A score is malformed or has the wrong sign for its event.
    #[error("bad score {text:?}: {reason}")]
    BadScore {
        /// The text as written.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A cumulative total is not an integer.
    #[error("bad cumulative score {0:?}")]
    BadCumulative(String),
    /// A line is neither a pragma (`#`), an event (`>`) nor the
    /// continuation of a note.
    #[error("a line must start with # (a pragma) or > (an event)")]
    StrayLine,
    /// `--` (phony withdrawn) does not follow a play by the same player.
    #[error("a withdrawn phony (--) must follow a play by the same player")]
    PhonyWithoutPlay,
    /// A replay was asked for a turn past the end of the game.
    #[error("turn {turn} is past the end of the game ({turns} events)")]
    NoSuchTurn {
        /// The turn asked for.
        turn: usize,
        /// The number of events in the game.
        turns: usize,
    },
}
