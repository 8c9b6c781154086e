//! The site layer's error type.

use std::io;
use std::path::PathBuf;

/// Everything that can go wrong in the site layer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SiteError {
    /// An error of the core library (lexicon, query argument, ...).
    #[error(transparent)]
    Lexq(#[from] lexq::Error),

    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },

    /// A WordNet database directory is missing a file or holds a bad line.
    #[error("{}: not a usable WordNet database: {reason}", path.display())]
    BadWordNet {
        /// The directory or file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },

    /// A definitions file holds a bad line and `strict` was asked for.
    #[error("{}:{line}: {reason}", path.display())]
    BadDefinition {
        /// The definitions file.
        path: PathBuf,
        /// The 1-based line number.
        line: usize,
        /// What is wrong with the line.
        reason: String,
    },

    /// A site directory is not a usable site index.
    #[error("{}: not a usable site index: {reason}", path.display())]
    BadSite {
        /// The site directory.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },

    /// A site opened with a lexicon of another word list than the one it
    /// was built from (see [`crate::Site::check_lexicon`]).
    #[error(
        "{}: built from another word list ({built}) than the lexicon {} ({words} words{}); rebuild the site from this lexicon (`lexq site build -L ...`), or use the lexicon it was built from",
        path.display(),
        lexicon.display(),
        crc32c.map_or_else(String::new, |c| format!(", CRC-32C {c:08x}"))
    )]
    OtherWordList {
        /// The site directory.
        path: PathBuf,
        /// The word list the site was built from.
        built: crate::fingerprint::WordListId,
        /// Where the lexicon came from.
        lexicon: PathBuf,
        /// Its number of words.
        words: u64,
        /// The CRC-32C of its words, if they were walked (not when the
        /// counts differ).
        crc32c: Option<u32>,
    },

    /// A search query does not parse.
    #[error("query {query:?}: {reason}")]
    BadQuery {
        /// The query as given.
        query: String,
        /// What is wrong with it.
        reason: String,
    },

    /// A search was stopped before its end: past its deadline, or
    /// cancelled (see [`Stop`](crate::Stop)).
    #[error("query {query:?}: stopped before its end (past its time limit, or cancelled)")]
    Stopped {
        /// The query as given.
        query: String,
    },

    /// The text index failed (corrupt or unwritable index files).
    #[error("index: {0}")]
    Index(#[from] tantivy::TantivyError),
}

/// Shorthand for results of this crate.
pub type Result<T> = std::result::Result<T, SiteError>;

impl SiteError {
    /// An I/O error about `path`.
    pub(crate) fn io(path: impl Into<PathBuf>, source: io::Error) -> SiteError {
        SiteError::Io {
            path: path.into(),
            source,
        }
    }
}
