//! The game layer's error: what can go wrong reading a position, a move, a
//! layout, a GCG game or a leave table, or below them (a lexicon, a file).
//!
//! ```
//! use lexq::game::{Error, Position};
//! let lex = lexq::Lexicon::embedded();
//! match Position::from_cgp(&lex, "15/15 A/ 0/0 0") {
//!     Err(Error::Position(e)) => assert!(e.to_string().contains("rows"), "{e}"),
//!     other => panic!("{other:?}"),
//! }
//! ```

use super::gcg_error::GcgError;
use super::position_error::PositionError;

/// Everything that can go wrong in the game layer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A position, move, board layout or rack is unusable.
    #[error(transparent)]
    Position(#[from] PositionError),

    /// A GCG game file is malformed (line, column and problem).
    #[error("GCG {0}")]
    Gcg(#[from] GcgError),

    /// Something below the game failed: a lexicon, a tile set, a file, a
    /// named file refused by the [`FilePolicy`](crate::files::FilePolicy).
    #[error(transparent)]
    Core(#[from] crate::Error),
}

/// The game layer's result.
pub type Result<T, E = Error> = std::result::Result<T, E>;
