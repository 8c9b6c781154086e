//! Where definitions come from: WordNet's database and its inflections
//! (morphy), definition files of one's own, word frequencies, and the
//! entry a word page shows.

pub mod entry;
pub mod frequency;
pub mod morphy;
pub mod sources;
pub mod wordnet;
