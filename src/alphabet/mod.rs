//! The alphabet layer: a language's letters and their tile codes, sets of
//! letters, and tile sets (each tile's value and count in the bag).
//!
//! It is the lowest layer of lexq: the lexicon, the queries and the game
//! import from it, and it imports from none of them.

mod compose;
mod languages;
mod letters;
pub(crate) mod letterset;
pub(crate) mod tileset;

pub use letters::*;
pub use letterset::LetterSet;
pub use tileset::TileSet;

/// Flag on a tile code on a board or in a move: the tile is a blank played
/// as that letter (`5 | BLANK` is a blank E in English).
pub const BLANK: u8 = 0x80;
