//! The one error type of the library, with kinds a caller can match on.
//!
//! Every fallible call returns [`Error`]. Each variant says what failed
//! (a file, an alphabet, a word or rack, a pattern or regex) and carries a
//! `kind` enum saying why, so that a program can choose what to do (an HTTP
//! status, a retry, a message) without reading prose, and tests can check
//! the reason itself. `Display` gives the one-line message the `lexq`
//! command prints.
//!
//! ```
//! use lexq::{Error, error::WordErrorKind};
//! let lex = lexq::Lexicon::embedded();
//! match lex.is_word("caté") {
//!     Err(Error::Word { kind: WordErrorKind::NotInAlphabet { found, .. }, .. }) => {
//!         assert_eq!(found, "é")
//!     }
//!     other => panic!("{other:?}"),
//! }
//! ```

use std::fmt;
use std::io;
use std::path::PathBuf;

/// Everything that can go wrong in lexq.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file being read or written.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },

    /// A lexicon file is not usable (not a lexicon, truncated, corrupt,
    /// or of another format version).
    #[error("{}: not a usable lexicon file: {kind}", path.display())]
    Lexicon {
        /// The file (or `<embedded>`, `<memory>`, `<static>`).
        path: PathBuf,
        /// What is wrong with it.
        kind: LexiconErrorKind,
    },

    /// A wolges `.kwg` file read as a word source is not usable.
    #[error("{}: not a usable .kwg file: {message}", path.display())]
    Kwg {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },

    /// An alphabet definition (built-in name or file) is invalid.
    #[error("alphabet {name}: {}{kind}", line.map(|l| format!("line {l}: ")).unwrap_or_default())]
    Alphabet {
        /// The alphabet's name or file.
        name: String,
        /// The 1-based line of the alphabet text at fault, if one is.
        line: Option<usize>,
        /// What is wrong with it.
        kind: AlphabetErrorKind,
    },

    /// A word, rack or run of letters given as a query argument cannot be
    /// read as tiles.
    #[error("{}", word_message(*arg, input, kind))]
    Word {
        /// Which argument it was.
        arg: Arg,
        /// The argument as given.
        input: String,
        /// What is wrong with it.
        kind: WordErrorKind,
    },

    /// A wildcard pattern or regular expression is refused.
    #[error(transparent)]
    Query(#[from] QueryError),

    /// A word list line is unusable and `strict` was asked for.
    #[error("{}:{line}: {kind}: {text:?}", path.display())]
    WordList {
        /// The word list.
        path: PathBuf,
        /// The 1-based line number.
        line: usize,
        /// The line's text (cut to 60 characters).
        text: String,
        /// Why the word was rejected.
        kind: WordErrorKind,
    },

    /// A word list held no usable word.
    #[error("no usable words in the input")]
    NoWords,

    /// A word list is too large for one lexicon: its GADDAG keys would
    /// hold more than `max` tiles in all.
    #[error(
        "too many words for one lexicon: their GADDAG keys hold {tiles} tiles, at most {max} fit"
    )]
    TooLarge {
        /// The tiles of every key of every word.
        tiles: u64,
        /// The most a lexicon takes.
        max: u64,
    },

    /// A file cannot be written where asked: it is one of the inputs, or
    /// not a regular file. Nothing was written.
    #[error("{}: {kind}", path.display())]
    Output {
        /// The output path as given.
        path: PathBuf,
        /// Why it is refused.
        kind: OutputErrorKind,
    },

    /// A tile set (a built-in name or a tile-set file) is unusable.
    #[error(
        "tile set{}{}: {kind}",
        name.as_deref().map(|n| format!(" {n}")).unwrap_or_default(),
        line.map(|l| format!(" line {l}")).unwrap_or_default()
    )]
    TileSet {
        /// The tile set's name or file, when one was given.
        name: Option<String>,
        /// The 1-based line of the tile-set text at fault, if one is.
        line: Option<usize>,
        /// What is wrong with it.
        kind: TileSetErrorKind,
    },

    /// A file to read is not a regular file: a directory, a FIFO, a device
    /// or a socket. It was refused before it was opened (opening a FIFO
    /// waits for a writer; a device may never end, or act when opened).
    #[error("{}: is {what}, not a regular file", path.display())]
    NotRegularFile {
        /// The path as given.
        path: PathBuf,
        /// What it is instead (`a FIFO (named pipe)`, `a device`...).
        what: &'static str,
    },

    /// A board layout, tile set or lexicon that a position names (CGP
    /// `bdn`, `ld`, `lex`) and that the caller's
    /// [`FilePolicy`](crate::files::FilePolicy) does not let it use. The message
    /// tells nothing of the file system: a missing, unreadable, special or
    /// disallowed file all read the same.
    #[error("{what} {:?}: {}", shorten(name), named_message(*what, kind))]
    Named {
        /// What the name stands for.
        what: Named,
        /// The name as written.
        name: String,
        /// Why it cannot be used.
        kind: NamedErrorKind,
    },

    /// Two lexicons of different alphabets cannot be compared word by
    /// word ([`diff`](crate::lexicon::diff::diff)).
    #[error(
        "the lexicons have different alphabets ({old} and {new}): their words are different tiles, not compared"
    )]
    Diff {
        /// The old lexicon's alphabet name.
        old: String,
        /// The new lexicon's.
        new: String,
    },

    /// A condition of a [`find`](crate::query::find) query cannot be used.
    #[error(transparent)]
    Find(Box<FindError>),
}

/// Why a tile set is unusable (see [`Error::TileSet`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TileSetErrorKind {
    /// A line does not have the expected shape.
    #[error("{0}")]
    Syntax(String),
    /// A tile outside the alphabet.
    #[error("{0:?} is not a tile of the alphabet")]
    NotInAlphabet(String),
    /// No built-in set for the alphabet, or a set that does not fit it.
    #[error("{0}")]
    Unsupported(String),
}

/// What a name in a position stands for (see [`Error::Named`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Named {
    /// A board layout (CGP `bdn`).
    Layout,
    /// A tile set (CGP `ld`).
    TileSet,
    /// A lexicon (CGP `lex`).
    Lexicon,
}

impl Named {
    /// The built-in names of this kind, for messages.
    pub fn builtins(self) -> &'static str {
        match self {
            Named::Layout => "standard, super, friends",
            Named::TileSet => {
                "english, english_super, friends, spanish, polish, german, french, dutch, norwegian, swedish, slovene, italian, portuguese"
            }
            Named::Lexicon if cfg!(feature = "embedded") => "ENABLE",
            Named::Lexicon => "none in this build",
        }
    }
}

impl fmt::Display for Named {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Named::Layout => "board layout",
            Named::TileSet => "tile set",
            Named::Lexicon => "lexicon",
        })
    }
}

/// Why a named board layout, tile set or lexicon cannot be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NamedErrorKind {
    /// Not a built-in name, and not a file the policy lets a position
    /// open (or that file cannot be read: the two are not told apart).
    NotAvailable {
        /// Whether the policy allows some files at all.
        files_allowed: bool,
    },
    /// An allowed file that is not a valid file of its kind (no detail is
    /// given: the detail would quote the file).
    Invalid,
}

fn named_message(what: Named, kind: &NamedErrorKind) -> String {
    match kind {
        NamedErrorKind::NotAvailable {
            files_allowed: true,
        } => format!(
            "not a built-in {what} ({}) nor a file allowed here",
            what.builtins()
        ),
        NamedErrorKind::NotAvailable {
            files_allowed: false,
        } => format!(
            "not a built-in {what} ({}); files are not allowed here",
            what.builtins()
        ),
        NamedErrorKind::Invalid => format!("not a valid {what} file"),
    }
}

/// Why an output path is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OutputErrorKind {
    /// It is the same file as an input (the same path, or reached through
    /// a symlink or a hard link).
    #[error("is the input {}; write the lexicon to another file", input.display())]
    IsInput {
        /// The input it is.
        input: PathBuf,
    },
    /// It exists and is a directory.
    #[error("is a directory")]
    IsDirectory,
    /// It exists and is not a regular file (a device, a FIFO, a socket).
    #[error("is {what}, not a regular file; lexq writes only regular files")]
    NotRegularFile {
        /// What it is.
        what: &'static str,
    },
}

/// Shorthand for results of this crate.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// An I/O error about `path`.
    pub(crate) fn io(path: impl Into<PathBuf>, source: io::Error) -> Error {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    /// A lexicon error about `path`.
    pub(crate) fn lexicon(path: impl Into<PathBuf>, kind: LexiconErrorKind) -> Error {
        Error::Lexicon {
            path: path.into(),
            kind,
        }
    }
}

/// The first 60 characters of `s`, with `…` if there were more (so that a
/// message about a huge argument stays one readable line).
pub(crate) fn shorten(s: &str) -> String {
    const KEEP: usize = 60;
    match s.char_indices().nth(KEEP) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s.to_string(),
    }
}

fn word_message(arg: Arg, input: &str, kind: &WordErrorKind) -> String {
    match kind {
        WordErrorKind::Empty => format!("the {arg} is empty"),
        WordErrorKind::TooLong { max } => format!("the {arg} is longer than {max} bytes"),
        WordErrorKind::TooManyTiles { tiles, max } => {
            format!("the {arg} has {tiles} tiles; no word has more than {max} tiles")
        }
        WordErrorKind::NotInAlphabet { found, alphabet } => format!(
            "{:?}: {found:?} is not a letter of the {alphabet} alphabet",
            shorten(input)
        ),
        other => format!("{:?}: {other}", shorten(input)),
    }
}

/// Which query argument a [`Error::Word`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Arg {
    /// A word to judge or hook.
    Word,
    /// The letters `contains` looks for.
    Substring,
    /// The letters `starts` looks for.
    Prefix,
    /// The letters `ends` looks for.
    Suffix,
    /// A rack of tiles (`?` and `_` are blanks).
    Rack,
    /// Letters on the board to play through.
    Through,
}

impl fmt::Display for Arg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Arg::Word => "word",
            Arg::Substring => "substring",
            Arg::Prefix => "prefix",
            Arg::Suffix => "suffix",
            Arg::Rack => "rack",
            Arg::Through => "through letters",
        })
    }
}

/// Why a word (a query argument or a word-list line) cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WordErrorKind {
    /// Nothing but spaces.
    #[error("empty")]
    Empty,
    /// Longer than the limit in bytes.
    #[error("longer than {max} bytes")]
    TooLong {
        /// The limit, in bytes.
        max: usize,
    },
    /// More tiles than any word may have.
    #[error("{tiles} tiles, longer than the maximum of {max}")]
    TooManyTiles {
        /// The number of tiles read.
        tiles: usize,
        /// The most a word may have.
        max: usize,
    },
    /// A character that starts no tile of the alphabet.
    #[error("{found:?} is not in the {alphabet} alphabet")]
    NotInAlphabet {
        /// The character, as written.
        found: String,
        /// The alphabet's name.
        alphabet: String,
    },
    /// A bracket in a rack that does not hold exactly one tile (`[CH]`,
    /// `[R]`) or is not closed.
    #[error(
        "{found:?}: a bracket holds exactly one tile of the {alphabet} alphabet, as [CH] or [R]; \
         one tile of a set (Zyzzyva's [AEIOU]) is {{AEIOU}} in `lexq find --anagram`"
    )]
    BadBracket {
        /// The bracket as written (or the rest of the rack, if unclosed).
        found: String,
        /// The alphabet's name.
        alphabet: String,
    },
    /// A word-list line that is not UTF-8.
    #[error("not valid UTF-8")]
    NotUtf8,
    /// A word-list line in a file that looks like UTF-16 text.
    #[error("the file looks like UTF-16 text; save it as UTF-8")]
    Utf16,
    /// A word-list line with a carriage return inside: the file's lines
    /// end in CR alone.
    #[error(
        "carriage returns inside the line; the file's lines end in CR alone, use \\n or \\r\\n"
    )]
    CarriageReturn,
    /// A word-list line with a NUL byte.
    #[error("contains a NUL byte")]
    NulByte,
}

/// What is wrong with a lexicon file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LexiconErrorKind {
    /// The file is empty.
    #[error("empty file")]
    Empty,
    /// The file does not start with the lexicon magic bytes.
    #[error("not a lexq lexicon (wrong magic bytes)")]
    BadMagic,
    /// The file is shorter than its header says (or than the header).
    #[error("truncated: {len} bytes, {}", match expected {
        Some(n) => format!("the header says {n}"),
        None => "shorter than its header".to_string(),
    })]
    Truncated {
        /// The file's length.
        len: u64,
        /// The length the header gives, if the header was whole.
        expected: Option<u64>,
    },
    /// Bytes follow the fst section.
    #[error("{bytes} bytes of trailing data after the fst")]
    TrailingData {
        /// How many.
        bytes: u64,
    },
    /// Another format version.
    #[error(
        "format version {found}, this lexq reads versions 1 to {supported}: rebuild it with `lexq build`"
    )]
    Version {
        /// The file's version.
        found: u32,
        /// The version this library reads.
        supported: u32,
    },
    /// A header field is out of range (`field` names it).
    #[error("corrupt header ({field})")]
    HeaderField {
        /// The field or fields at fault.
        field: &'static str,
    },
    /// The header's CRC does not match.
    #[error("corrupt header (checksum mismatch)")]
    HeaderChecksum,
    /// The fst section's CRC does not match.
    #[error("corrupt fst section (checksum mismatch)")]
    FstChecksum,
    /// The arcs section's CRC does not match.
    #[error("corrupt arcs section (checksum mismatch)")]
    ArcsChecksum,
    /// The arcs section is malformed, or (found by a verify) does not
    /// match the fst.
    #[error("corrupt arcs section ({0})")]
    ArcsInvalid(&'static str),
    /// The stored alphabet is invalid.
    #[error("corrupt header (alphabet: {0})")]
    Alphabet(AlphabetErrorKind),
    /// The fst section is not a valid fst (`fst`'s own message).
    #[error("corrupt fst section ({0})")]
    FstInvalid(String),
    /// The fst holds another number of keys than the header says.
    #[error("corrupt fst section (holds {found} keys, the header says {expected})")]
    KeyCount {
        /// Keys in the fst.
        found: u64,
        /// Keys the header gives.
        expected: u64,
    },
    /// The GADDAG needs more arcs than a move-generation arc table holds.
    #[error("too large for a move-generation arc table (more than {max} arcs)")]
    TooManyArcs {
        /// The most arcs a table holds.
        max: usize,
    },
}

/// What is wrong with an alphabet definition.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AlphabetErrorKind {
    /// The name is empty, too long or has control characters.
    #[error("the name must be 1 to 255 printable bytes")]
    BadName,
    /// A spelling holds a character reserved for racks and patterns.
    #[error("{0:?} may not appear in a tile")]
    ReservedChar(char),
    /// A spelling appears twice.
    #[error("{spelling:?} is already a spelling on line {previous}")]
    Duplicate {
        /// The spelling (uppercase).
        spelling: String,
        /// The line it first appeared on.
        previous: usize,
    },
    /// No tile at all.
    #[error("no tiles")]
    NoTiles,
    /// More tiles than codes.
    #[error("{count} tiles, at most {max} are allowed")]
    TooManyTiles {
        /// Tiles given.
        count: usize,
        /// The most allowed.
        max: usize,
    },
    /// Neither a built-in alphabet's name nor an existing file.
    #[error("no such alphabet: the built-in ones are {builtins}, or give an alphabet file")]
    Unknown {
        /// The built-in names, comma-separated.
        builtins: &'static str,
    },
}

/// The two query languages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Syntax {
    /// A wildcard pattern (`?`, `*`, brackets).
    Pattern,
    /// A regular expression.
    Regex,
}

impl fmt::Display for Syntax {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Syntax::Pattern => "pattern",
            Syntax::Regex => "regex",
        })
    }
}

/// A refused pattern or regular expression: which, where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryError {
    /// Pattern or regex.
    pub syntax: Syntax,
    /// The query as given.
    pub query: String,
    /// The byte offset in `query` of the fault, when one place is at fault.
    pub position: Option<usize>,
    /// Why it was refused.
    pub kind: QueryErrorKind,
}

impl std::error::Error for QueryError {}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.kind == QueryErrorKind::Empty {
            return write!(f, "the {} is empty", self.syntax);
        }
        write!(
            f,
            "{} {:?}: {}",
            self.syntax,
            shorten(&self.query),
            self.kind
        )?;
        if let (QueryErrorKind::NotALetter { .. }, Syntax::Pattern) = (&self.kind, self.syntax) {
            f.write_str(" nor one of ? * [ ]")?;
        }
        Ok(())
    }
}

/// Why a pattern or regex was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum QueryErrorKind {
    /// Nothing but spaces.
    #[error("empty")]
    Empty,
    /// Longer than the limit in bytes.
    #[error("longer than {max} bytes")]
    TooLong {
        /// The limit, in bytes.
        max: usize,
    },
    /// A character that is no letter of the alphabet (nor, in a pattern,
    /// one of `? * [ ]`).
    #[error("{found:?} is not a letter of the {alphabet} alphabet")]
    NotALetter {
        /// The character, as written.
        found: String,
        /// The alphabet's name.
        alphabet: String,
    },
    /// Pattern: `[` without `]`.
    #[error("'[' without a matching ']'")]
    UnclosedBracket,
    /// Pattern: `]` without `[`.
    #[error("']' without a matching '['")]
    UnopenedBracket,
    /// Pattern: `-` in brackets not between two letters.
    #[error("'-' in brackets must stand between two letters")]
    BadRange,
    /// Pattern: a range from a later to an earlier letter.
    #[error("range {from}-{to} is backwards")]
    BackwardsRange {
        /// The range's first tile.
        from: String,
        /// The range's last tile.
        to: String,
    },
    /// A bracket or class that matches no tile of the alphabet.
    #[error("a bracket matches no letter")]
    EmptyClass,
    /// Regex: a syntax error (`regex-syntax`'s message).
    #[error("{0}")]
    Syntax(String),
    /// Regex: an assertion other than `^` and `$` at the ends (`\\b`,
    /// `(?m)^`, `^` inside...); the field names it.
    #[error(
        "{0} is not supported (every regex matches whole words; ^ and $ are allowed at the ends)"
    )]
    LookAround(&'static str),
    /// Regex: another feature lexq does not support (byte classes); the
    /// field names it.
    #[error("{0} are not supported")]
    Unsupported(&'static str),
    /// The expression compiles to an automaton larger than the cap
    /// (`regex-automata`'s message).
    #[error("{0}")]
    TooLarge(String),
}

/// A term of a [`find`](crate::query::find) query that cannot be used: which,
/// and why.
#[derive(Debug)]
pub struct FindError {
    /// The term as `lexq find` spells it (`--includes Q1`).
    pub term: String,
    /// What is wrong with it.
    pub kind: FindErrorKind,
}

impl std::error::Error for FindError {}

impl fmt::Display for FindError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            // These name what they are about themselves.
            FindErrorKind::Query(e) => write!(f, "{}: {e}", shorten(&self.term)),
            FindErrorKind::Inner(e) => write!(f, "in {}: {e}", shorten(&self.term)),
            // The term names every length condition.
            FindErrorKind::Lengths { .. } => write!(f, "{} {}", shorten(&self.term), self.kind),
            kind => write!(f, "{}: {kind}", shorten(&self.term)),
        }
    }
}

/// Why a term cannot be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FindErrorKind {
    /// No letters where letters are needed.
    #[error("no letters given")]
    Empty,
    /// An argument over the length limit, in bytes.
    #[error("longer than {max} bytes")]
    TooLong {
        /// The limit.
        max: usize,
    },
    /// More tiles than a word may hold.
    #[error("more than {max} tiles")]
    TooManyTiles {
        /// The limit.
        max: usize,
    },
    /// A character that starts no tile.
    #[error(
        "{found:?} is not a letter of the {alphabet} alphabet{}",
        if *rack { " nor one of ? _ * {...} [...]" } else { "" }
    )]
    NotALetter {
        /// The character.
        found: String,
        /// The alphabet's name.
        alphabet: String,
        /// Whether it was in a rack (which also takes `? _ * {}`).
        rack: bool,
    },
    /// `[...]` that names no tile.
    #[error(
        "[{found}] names no tile of the {alphabet} alphabet; one tile of a set (Zyzzyva's \
         [AEIOU]) is written {{{found}}}"
    )]
    NotATile {
        /// What the brackets held.
        found: String,
        /// The alphabet's name.
        alphabet: String,
    },
    /// A bracket or brace out of place.
    #[error("{what} (byte {at})")]
    Syntax {
        /// What is wrong.
        what: &'static str,
        /// Where, in bytes from the argument's start (spaces trimmed).
        at: usize,
    },
    /// A share over 100%.
    #[error("{0}% is more than 100%")]
    Percent(u8),
    /// A pattern or regex that is refused.
    #[error(transparent)]
    Query(Box<QueryError>),
    /// An `--in` file that cannot be read.
    #[error(transparent)]
    File(Box<Error>),
    /// An `--in` lexicon of another alphabet.
    #[error(
        "{}: a lexicon of the {theirs} alphabet; this lexicon's is {ours}",
        path.display()
    )]
    OtherAlphabet {
        /// The file.
        path: std::path::PathBuf,
        /// Its alphabet's name.
        theirs: String,
        /// The query's lexicon's.
        ours: String,
    },
    /// `any` inside `any` too deeply.
    #[error("alternatives nest more than {max} deep")]
    TooDeep {
        /// The limit.
        max: usize,
    },
    /// Too many terms in all.
    #[error("more than {max} conditions in one query")]
    TooManyTerms {
        /// The limit.
        max: usize,
    },
    /// `any` with no alternative, or an empty one.
    #[error("an alternative holds no condition")]
    EmptyAlternative,
    /// A term inside an alternative is unusable.
    #[error("{0}")]
    Inner(Box<FindError>),
    /// Points or probability without a tile set.
    #[error("no standard tile set for the {0} alphabet: give one (points and probability need it)")]
    NoTileSet(String),
    /// Length conditions that no length meets (`--min-len 9 --max-len 3`,
    /// `--len 3 --len 4`): an error, not an empty answer. The error's
    /// term names every length condition of the query's top level, in
    /// order, separated by ", ".
    #[error("exclude each other: no word has all these lengths")]
    Lengths {
        /// Of the query's terms, the length condition asking for the
        /// longest shortest length (the first such), and that length.
        longest_min: (usize, u32),
        /// The one asking for the shortest longest length, and that
        /// length (below `longest_min`'s).
        shortest_max: (usize, u32),
    },
    /// A probability count too large for 128 bits.
    #[error(
        "the draws of {len} tiles from a bag of {tiles} are too many to count exactly (over 2^128)"
    )]
    Overflow {
        /// The word length.
        len: usize,
        /// The bag's tiles.
        tiles: usize,
    },
}

impl From<FindError> for Error {
    fn from(e: FindError) -> Error {
        Error::Find(Box::new(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Lexicon;

    fn query_kind(e: Error) -> (QueryErrorKind, Option<usize>) {
        match e {
            Error::Query(q) => (q.kind, q.position),
            other => panic!("not a query error: {other:?}"),
        }
    }

    #[test]
    fn kinds_and_positions() {
        let lex = Lexicon::embedded();
        let (kind, at) = query_kind(lex.pattern("ab[cd").unwrap_err());
        assert_eq!((kind, at), (QueryErrorKind::UnclosedBracket, Some(2)));
        let (kind, at) = query_kind(lex.pattern(" a]").unwrap_err());
        assert_eq!((kind, at), (QueryErrorKind::UnopenedBracket, Some(2)));
        let (kind, at) = query_kind(lex.pattern("c#t").unwrap_err());
        assert!(matches!(kind, QueryErrorKind::NotALetter { ref found, .. } if found == "#"));
        assert_eq!(at, Some(1));
        let (kind, at) = query_kind(lex.regex("ab(c").unwrap_err());
        assert!(matches!(kind, QueryErrorKind::Syntax(_)), "{kind:?}");
        assert_eq!(at, Some(2));
        let (kind, _) = query_kind(lex.regex(r"\bcat").unwrap_err());
        assert!(matches!(kind, QueryErrorKind::LookAround(_)));
        let e = lex.anagram(&"a".repeat(64)).unwrap_err();
        assert!(matches!(
            e,
            Error::Word {
                arg: Arg::Rack,
                kind: WordErrorKind::TooManyTiles { tiles: 64, max: 63 },
                ..
            }
        ));
        let e = Lexicon::from_bytes(b"not a lexicon".to_vec()).unwrap_err();
        assert!(matches!(
            e,
            Error::Lexicon {
                kind: LexiconErrorKind::BadMagic,
                ..
            }
        ));
        let e = crate::Alphabet::from_text("x", "A\nB\na\n").unwrap_err();
        assert!(matches!(
            e,
            Error::Alphabet {
                line: Some(3),
                kind: AlphabetErrorKind::Duplicate { previous: 1, .. },
                ..
            }
        ));
        assert_eq!(
            e.to_string(),
            "alphabet x: line 3: \"A\" is already a spelling on line 1"
        );
    }

    #[test]
    fn long_arguments_are_cut_in_messages() {
        let lex = Lexicon::embedded();
        let e = lex.contains(&format!("{}1", "a".repeat(500))).unwrap_err();
        assert!(e.to_string().len() < 150, "{e}");
    }
}

/// Why a query written as text (a `lexq query` line, an `--any` text)
/// could not be read as words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SplitError {
    /// A `'` or `"` quote is not closed.
    #[error("a {0} quote is not closed")]
    Unclosed(char),
    /// The text ends with a backslash outside quotes.
    #[error("the line ends with a backslash")]
    TrailingBackslash,
    /// An alternative of an `--any` text holds no word (`A --or`).
    #[error("an alternative holds no condition")]
    EmptyAlternative,
}
