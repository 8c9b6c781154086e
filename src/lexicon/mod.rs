//! The lexicon layer: the file format, building a lexicon from a word
//! list, opening and checking it, and its two views: the compact arc table
//! ([`raw`]) that every walk reads, and the `fst::Set` of its GADDAG keys.
//!
//! A GADDAG key is a word's reversed prefix, a separator, then the rest:
//! CARE = ERAC, RAC@E, AC@RE, C@ARE (the whole word reversed has no
//! separator). Imports only from the alphabet layer below.

pub(crate) mod alphagrams;
pub(crate) mod build;
pub mod diff;
pub(crate) mod enumerate;
pub mod format;
pub(crate) mod fstcheck;
pub(crate) mod fstwrite;
pub mod gaddag;
mod kwg;
mod open;
pub mod raw;
pub(crate) mod upgrade;
pub(crate) mod wordlist;

pub use open::*;
