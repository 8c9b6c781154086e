//! lexq: a compact, memory-mapped GADDAG lexicon and the word searches
//! word-game players ask of it.
//!
//! A [`Lexicon`] is one file (or the embedded ENABLE default) holding every
//! word as GADDAG keys, twice: as an `fst::Set` (the interoperable form,
//! [`Lexicon::fst_set`]) and as a compact table of arcs ([`raw`]), which
//! every query walks in place:
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

#![warn(missing_docs)]

pub mod alphabet;
mod atomic;
pub mod board;
mod builder;
pub mod cgp;
mod compose;
pub mod diff;
mod enumerate;
pub mod equity;
mod error;
pub mod find;
pub mod format;
mod fstcheck;
mod fstwrite;
pub mod gaddag;
pub mod game;
pub mod gcg;
mod input;
pub mod layout;
pub mod leavegen;
pub mod leaves;
mod letterset;
mod lexicon;
pub mod movegen;
pub mod moves;
pub mod notation;
mod policy;
pub mod position_error;
pub mod probability;
mod query;
pub mod rack;
pub mod raw;
pub mod replay;
pub mod selfplay;
pub mod suggest;
pub mod tiles;
mod upgrade;
mod verified;
mod walk;
mod wordlist;

pub use alphabet::Alphabet;
pub use atomic::{check_output, remove_temp_files};
pub use board::Board;
pub use builder::{BuildReport, Built, Progress, build, build_file};
pub use cgp::Position;
pub use error::OutputErrorKind;
pub use error::{
    AlphabetErrorKind, Arg, Error, LexiconErrorKind, Named, NamedErrorKind, QueryError,
    QueryErrorKind, Result, Syntax, WordErrorKind,
};
pub use game::Game;
pub use input::{MAX_INPUT_BYTES, open_regular, read_capped, read_file};
pub use layout::Layout;
pub use letterset::LetterSet;
pub use lexicon::{Info, Lexicon};
pub use movegen::{All, Best, Count, Generator, Recorder, TopN, Valued};
pub use moves::{Move, MoveKind};
pub use policy::FilePolicy;
pub use position_error::{PositionError, PositionErrorKind};
pub use query::{Hooks, MAX_ARG_LEN, Search, Word, Words};
pub use rack::Rack;
pub use tiles::TileSet;
pub use upgrade::upgrade;
pub use wordlist::{Rejected, WordList};
