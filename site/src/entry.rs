//! What a word page shows: the [`Entry`] of one lexicon word, and tile
//! points.

use serde::{Deserialize, Serialize};

use crate::morphy::Via;
use crate::wordnet::Pos;

/// One sense on a word page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SenseEntry {
    /// Part of speech, if known.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub pos: Option<Pos>,
    /// The definition.
    pub definition: String,
    /// Example sentences.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub examples: Vec<String>,
    /// Other words with this sense.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub synonyms: Vec<String>,
    /// For an inflected word, the base form whose sense this is
    /// (uppercase: `CARE` for `CARES`).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub base_form: Option<String>,
    /// How the base form was found.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub via: Option<Via>,
    /// Where the sense comes from: `wordnet` or a definitions file's name.
    pub source: String,
}

/// Everything a word page shows about one word.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The word, uppercase.
    pub word: String,
    /// Whether it is in the lexicon.
    pub valid: bool,
    /// Its length in tiles.
    pub length: usize,
    /// Its tile points (sum of the letters' face values).
    pub points: u32,
    /// Its letters sorted (uppercase).
    pub alphagram: String,
    /// Letters that make a word in front of it, in order.
    pub front_hooks: String,
    /// Letters that make a word behind it, in order.
    pub back_hooks: String,
    /// Other words with the same letters.
    pub anagrams: Vec<String>,
    /// Base forms it is an inflection of (uppercase).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub base_forms: Vec<String>,
    /// Its senses: its own first, then those of its base forms.
    pub senses: Vec<SenseEntry>,
}

/// Face values of the English tiles (the common word-game table; a blank
/// is worth 0).
const ENGLISH_POINTS: [u8; 26] = [
    1, 3, 3, 2, 1, 4, 2, 4, 1, 8, 5, 1, 3, 1, 1, 3, 10, 1, 1, 1, 1, 4, 4, 8, 4, 10,
];

/// The points of one tile spelled `label` (0 for letters outside A-Z).
pub fn tile_points(label: &str) -> u32 {
    let mut chars = label.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => {
            ENGLISH_POINTS[(c.to_ascii_uppercase() as u8 - b'A') as usize] as u32
        }
        _ => 0,
    }
}

/// The points of a word's tiles, given their spellings.
///
/// ```
/// assert_eq!(lexq_site::entry::points(["Q", "U", "I", "Z"]), 22);
/// ```
pub fn points<'a>(labels: impl IntoIterator<Item = &'a str>) -> u32 {
    labels.into_iter().map(tile_points).sum()
}

/// The points of a word spelled in the lexicon's alphabet.
pub fn word_points(alphabet: &lexq::Alphabet, codes: &[u8]) -> u32 {
    points(codes.iter().filter_map(|&c| alphabet.label(c)))
}
