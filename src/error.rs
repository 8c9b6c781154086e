//! The one error type of the library.
//!
//! Every fallible call returns [`Error`]; each variant carries what a user
//! needs to fix the problem (the file, the line, the offending character).

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
    #[error("{}: not a usable lexicon file: {reason}", path.display())]
    BadLexicon {
        /// The file (or `<embedded>`).
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },

    /// An alphabet definition (built-in name or file) is invalid.
    #[error("alphabet {name}: {reason}")]
    BadAlphabet {
        /// The alphabet's name or file.
        name: String,
        /// What is wrong with it.
        reason: String,
    },

    /// A word or rack contains a character the alphabet does not have.
    #[error("{input:?}: {found:?} is not a letter of the {alphabet} alphabet")]
    NotInAlphabet {
        /// The whole input as given.
        input: String,
        /// The first character that could not be read as a tile.
        found: String,
        /// The alphabet's name.
        alphabet: String,
    },

    /// A query argument is malformed (empty, too long, bad rack...).
    #[error("{0}")]
    BadQuery(String),

    /// A wildcard pattern does not parse.
    #[error("pattern {pattern:?}: {reason}")]
    BadPattern {
        /// The pattern as given.
        pattern: String,
        /// What is wrong with it.
        reason: String,
    },

    /// A regular expression does not parse, uses an unsupported feature,
    /// or compiles to an automaton larger than the cap.
    #[error("regex {regex:?}: {reason}")]
    BadRegex {
        /// The regular expression as given.
        regex: String,
        /// What is wrong with it.
        reason: String,
    },

    /// A word list line is unusable and `strict` was asked for.
    #[error("{}:{line}: {reason}: {text:?}", path.display())]
    BadWord {
        /// The word list.
        path: PathBuf,
        /// The 1-based line number.
        line: usize,
        /// The line's text.
        text: String,
        /// Why the word was rejected.
        reason: String,
    },

    /// A word list held no usable word.
    #[error("no usable words in the input")]
    NoWords,

    /// A GCG game file is malformed (line, column and problem).
    #[error("GCG {0}")]
    Gcg(#[from] crate::gcg::GcgError),
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
}
