//! One module a command: each reads its arguments, opens what it needs
//! (the lexicon through [`crate::lexicon`]), does its work, and prints the
//! answer with printing functions of its own or of [`crate::print`]. Each
//! returns the exit status: [`crate::exit::FOUND`],
//! [`crate::exit::NOT_FOUND`] or [`crate::exit::ERROR`].

// Words.
pub mod check;
pub mod hooks;
pub mod query;
pub mod search;
pub mod suggest;
pub mod words;

// Lexicon files.
pub mod build;
pub mod diff;
pub mod info;
pub mod upgrade;
pub mod verify;

// Game.
pub mod board;
pub mod endgame;
pub mod gcg;
pub mod infer;
pub mod leaves;
pub mod moves;
pub mod play;
pub mod selfplay;
pub mod sim;

// Site (`lexq site ...` and `lexq serve`).
pub mod site;
