//! The arc table: the lexicon's GADDAG as one array of packed arcs, read
//! in place from the file. Every walk of lexq's own (the word judge, hooks,
//! every word query, anagrams, cross sets, move generation) goes through
//! it; this module is for whoever wants to walk it too.
//!
//! # The GADDAG
//!
//! A word of `n` tiles is stored as `n` keys: each split of the word into
//! a non-empty prefix and a suffix gives the prefix reversed, the separator
//! `@` (code 0), the suffix; the whole word reversed needs no separator.
//! CARE = ERAC, RAC@E, AC@RE, C@ARE. From the root, a walk reads letters
//! right to left from some letter of the word, crosses the separator at
//! most once, then reads left to right: a run of letters on a board is
//! looked up as it stands, and the word grown outwards from it.
//!
//! # Arcs
//!
//! A node is a list of arcs, one per letter (or the separator) that can be
//! read from it, in increasing code order; the separator, code 0, comes
//! first. Each arc is `width` bits (the file says how many), packed back
//! to back little-endian:
//!
//! | bits | field |
//! |---|---|
//! | 0-5 | the tile code read (0: the separator) |
//! | 6 | accepts: the path through this arc is a whole key (a word) |
//! | 7 | end: the last arc of its node |
//! | 8.. | the index of the first arc of the node it leads to (0: none) |
//!
//! Arc 0 is the root pointer (code 0, end bit, the root's index). A node
//! is the index of its first arc; its list runs to the first arc with the
//! end bit. Lists share their tails: a node whose arcs are the last arcs
//! of another node's list is that tail, so CAR's list `E S T` (CARE CARS
//! CART) lends `S T` to every node whose arcs are `S T` with the same
//! targets. The width is 8 bits plus what the largest index needs (28 for
//! ENABLE, 29 for a Collins-sized list), so the table takes 3.5 to 4 bytes
//! an arc; any lexicon up to 2^32 arcs fits.
//!
//! ```
//! let lex = lexq::Lexicon::embedded();
//! let a = lex.alphabet();
//! // "CA" read right to left, then the separator: what may follow CA.
//! let root = lex.arcs().root();
//! let ca = root.follow_reversed(&a.encode("ca")?).unwrap();
//! let after = ca.separator().unwrap();
//! assert!(after.ending_letters().contains(a.encode("t")?[0])); // CAT
//! assert!(!after.ending_letters().contains(a.encode("q")?[0]));
//! # Ok::<(), lexq::Error>(())
//! ```
//!
//! # Unpacked for move generation
//!
//! Move generation reads the same shallow nodes many times, and reading
//! a list up to a letter costs it a scan. The first move generated on a
//! lexicon makes the table unpacked in memory beside the file's, each arc
//! carrying the letters of the node it leads to (`masked.rs`), and the
//! walk finds an arc by its letter's rank among them. The file does not
//! store those letters: they would take it past twice the size of the
//! KWG (wolges's format) of the same list.
//!
//! # Damaged and crafted tables
//!
//! Every read is checked against the table's size: an index past the end
//! reads as a node without arcs, and a list stops after 64 arcs (no node
//! has more, as codes are below 64) if no end bit comes. So no table makes
//! a walk panic or read outside it, and every walk is bounded by the
//! length of the word it spells. [`crate::Lexicon::verify`] checks that the
//! table is well formed and holds exactly the fst section's keys.

mod check;
pub(crate) mod masked;
mod node;
mod packed;
mod table;
pub(crate) mod write;

pub use super::{format, gaddag};
pub(crate) use check::check;
pub use node::{Edge, Edges, Node, Within};
pub use table::Arcs;
pub(crate) use table::Cursor;

/// Bits of an arc: the code.
pub(crate) const CODE: u64 = 0x3f;
/// Bits of an arc: the path through it is a whole key.
pub(crate) const ACCEPTS: u64 = 0x40;
/// Bits of an arc: the last arc of its node.
pub(crate) const END: u64 = 0x80;
/// Where an arc's target index starts.
pub(crate) const TARGET_SHIFT: u32 = 8;
/// The most arcs a node has (one per code).
pub(crate) const MAX_LIST: u32 = 64;
