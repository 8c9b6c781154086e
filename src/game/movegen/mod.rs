//! Move generation: every legal placement of a rack on a board, scored,
//! by Gordon's GADDAG algorithm, handed to a [`Recorder`].
//!
//! For each line (rows for across plays, columns for down plays) and each
//! anchor, the walk reads leftwards from the anchor through the GADDAG's
//! reversed prefixes, crosses the separator, then places tiles rightwards.
//! A move that touches tiles of the line is found from the last tile of
//! the rightmost run of tiles it touches: the walk follows that run from
//! the root first, so every letter it then places next to the run is one
//! that can stand there (in `..CARE...`, the walk reads E, R, A, C, then
//! only letters that can come before CARE). A move joined to the board by
//! cross words only is found from the rightmost square with a cross word
//! it covers. Each move is found once: right parts stop short of what
//! another anchor would find. The walk reads the lexicon's arc table
//! unpacked in memory, each arc carrying the codes of the node it leads
//! to (made once per lexicon, when the first move is generated): a node
//! is entered only if it reads the tile on the next square or a letter
//! the square's cross set and the rack allow, and its arc for a letter is
//! found by the letter's rank among its codes, with no scan of its list.
//! The score is kept up to date square by square, so a move is scored
//! when it is found.
//!
//! Blanks are chosen when a word is found, not while walking: each path
//! of the GADDAG is walked once, a placed letter the rack lacks charged to
//! a blank (so a blank tries exactly the letters the square and the
//! lexicon allow), and the found word is listed once for every way the
//! rack's blanks can stand for its placed tiles, each variant's score the
//! word's less what the blanks take off.
//!
//! Listing conventions: the coordinate is the first square of the main
//! word; a one-tile play is listed once (across if the tile has a
//! horizontal neighbour, else down); on an empty board only across plays
//! covering the start square with at least two tiles; exchanges and pass
//! only when asked ([`Generator::exchanges`]).
//!
//! ```
//! use lexq::{game::Generator, Lexicon, game::Position, game::TopN};
//! let lex = Lexicon::embedded();
//! let pos = Position::from_cgp(&lex,
//!     "15/15/15/15/15/15/15/4CARE7/15/15/15/15/15/15/15 AEINRST/ 12/0 0")?;
//! let mut generator = Generator::new();
//! let mut top = TopN::new(5);
//! generator.generate(&pos.board, &pos.rack(), &mut top);
//! for mv in top.into_sorted() {
//!     println!("{} {}", mv.notation(lex.alphabet()), mv.score());
//! }
//! # Ok::<(), lexq::game::Error>(())
//! ```
//!
//! The parts, one a file: `recorders` (what receives the moves),
//! `generator` (the reusable [`Generator`] and its best-first order of
//! anchors), `line` (a row or column copied out of the board, and its
//! anchors), `bounds` (each anchor's equity bound), `walk` (the GADDAG
//! walk left and right of an anchor, and a word found), `blanks` (the
//! ways a rack's blanks can stand for a found word's tiles).

mod blanks;
mod bounds;
mod generator;
mod line;
mod recorders;
mod walk;

pub use generator::Generator;
pub use recorders::{All, Best, Count, Recorder, TopN, Valued, rank_valued};
