//! lexq: a compact, memory-mapped GADDAG lexicon and the word searches
//! word-game players ask of it.
//!
//! A [`Lexicon`] is one file (or the embedded ENABLE default) holding every
//! word as GADDAG keys (CARE = ERAC, RAC@E, AC@RE, C@ARE), twice: as an
//! `fst::Set` (the interoperable form, [`Lexicon::fst_set`]) and as a
//! compact table of arcs ([`raw`]), which every query walks in place:
//!
//! ```
//! use lexq::Lexicon;
//! let lex = Lexicon::embedded();
//! assert!(lex.is_word("quixotic")?);
//! assert_eq!(lex.hooks("care")?.to_string(), "S CARE DRSTX");
//! let words = lex.search().lengths(2, 3).contains("ax")?;
//! assert_eq!(words.to_strings()[..4], ["AX", "AXE", "FAX", "LAX"]);
//! # Ok::<(), lexq::Error>(())
//! ```
//!
//! Build a lexicon of your own from a word list:
//!
//! ```
//! use lexq::{Alphabet, Lexicon, WordList, build};
//! let mut list = WordList::new(Alphabet::english());
//! list.read_bytes("words.txt".as_ref(), b"cat\ncats\nact\n")?;
//! let built = build(&list, &mut ())?;
//! let lex = Lexicon::from_bytes(built.bytes)?;
//! assert_eq!(lex.anagram("tac")?.to_strings(), ["ACT", "CAT"]);
//! # Ok::<(), lexq::Error>(())
//! ```
//!
//! # Layers
//!
//! The source is four layers, each a directory importing only from the
//! ones below it (a test, `tests/layers.rs`, keeps it so):
//!
//! | layer | holds | public as |
//! |---|---|---|
//! | `alphabet` | letters, tile codes, letter sets, tile sets | [`Alphabet`], [`LetterSet`], [`TileSet`] |
//! | `lexicon` | the file format, building, opening, the arc table | [`Lexicon`], [`build`], [`raw`] |
//! | `query` | the word searches and their walks, `find`, suggestions, probability | [`Search`], [`Words`], [`find`], [`suggest`], [`probability`] |
//! | [`game`] | boards, racks, moves, move generation, equity, CGP, GCG, game state | [`game`] |
//!
//! Below them all: the core [`Error`] (its kinds in [`error`]) and
//! [`files`], the process plumbing
//! (capped reads, atomic writes, the file policy) that lexq's programs
//! share.

#![warn(missing_docs)]

mod alphabet;
pub mod error;
pub mod files;
pub mod game;
mod lexicon;
mod query;

pub use alphabet::{Alphabet, LetterSet, MAX_TILES, TileSet};
pub use error::{Error, Result};
pub use lexicon::build::{BuildReport, Built, Progress, build, build_file};
pub use lexicon::diff;
pub use lexicon::raw;
pub use lexicon::upgrade::upgrade;
pub use lexicon::wordlist::{Rejected, WordList};
pub use lexicon::{Checks, Info, Lexicon, OpenOptions};
pub use query::{Hooks, MAX_ARG_LEN, Search, Word, Words, find, probability, suggest};
