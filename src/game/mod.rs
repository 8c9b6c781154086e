//! The game layer, for bots: boards and layouts, racks, moves and their
//! notation, move generation with cross sets, scoring and equity with leave
//! values, CGP positions, GCG games and their replay, a game state and
//! self-play.
//!
//! It imports from the layers below (alphabet, lexicon) and has its own
//! error type, [`Error`], which wraps the core [`crate::Error`] where a
//! game reads a lexicon or a file.
//!
//! ```
//! use lexq::game::{All, Generator, Position};
//! let lex = lexq::Lexicon::embedded();
//! let empty = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15";
//! let pos = Position::from_cgp(&lex, &format!("{empty} AX/ 0/0 0"))?;
//! let mut all = All::default();
//! Generator::new().generate(&pos.board, &pos.rack(), &mut all);
//! assert!(all.moves.iter().any(|m| m.notation(lex.alphabet()) == "8G AX"));
//! # Ok::<(), lexq::game::Error>(())
//! ```

mod board;
mod cgp;
pub mod endgame;
pub mod equity;
mod error;
pub mod gcg;
mod gcg_error;
pub mod infer;
mod layout;
pub mod leavegen;
pub mod leaves;
mod movegen;
mod moves;
pub mod notation;
mod position_error;
mod rack;
pub mod replay;
mod rng;
pub mod selfplay;
pub mod sim;
mod state;
mod subracks;

pub use board::{BLANK, Board, MAX_MOVE_SCORE, move_score_bound};
pub use cgp::{Opcode, Position, lexicon_name, opcodes};
pub use error::{Error, Result};
pub use layout::{Layout, MAX_SIZE};
pub use movegen::{All, Best, Count, Generator, Recorder, TopN, Valued, rank_valued};
pub use moves::{Move, MoveKind, MoveView, THROUGH, rank};
pub use rack::Rack;
pub use state::{Challenge, ChallengeRule, Game, OutRule, Played, Rules, Turn, TurnKind};
