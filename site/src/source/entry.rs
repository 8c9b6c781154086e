//! What a word page shows: the [`Entry`] of one lexicon word, and tile
//! points.

use serde::{Deserialize, Serialize};

use crate::morphy::Via;
use crate::wordnet::{Pos, Relations};

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
    /// How WordNet spells the word in this sense when it has it only
    /// capitalised: a name, a genus, a place (`Allium` for ALLIUM);
    /// such senses come after the others.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub capitalised: Option<String>,
    /// Its relations to other senses (WordNet's antonyms, hypernyms,
    /// hyponyms, derived forms and usage), none for definition files.
    #[serde(flatten)]
    pub relations: Relations,
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

/// The points of a word spelled in the lexicon's alphabet: the face
/// values of the core's built-in tile set for the alphabet (English or
/// Spanish); 0 for an alphabet without one.
///
/// ```
/// let lex = lexq::Lexicon::embedded();
/// let codes = lex.alphabet().encode("quiz").unwrap();
/// assert_eq!(lexq_site::entry::word_points(lex.alphabet(), &codes), 22);
/// ```
pub fn word_points(alphabet: &lexq::Alphabet, codes: &[u8]) -> u32 {
    match tile_set(alphabet) {
        Some(set) => codes.iter().map(|&c| set.value(c).max(0) as u32).sum(),
        None => 0,
    }
}

/// The points of each tile code of `alphabet` (see [`word_points`]).
pub(crate) fn point_values(alphabet: &lexq::Alphabet) -> [u32; 64] {
    let mut out = [0; 64];
    if let Some(set) = tile_set(alphabet) {
        for (c, v) in out.iter_mut().enumerate() {
            *v = set.value(c as u8).max(0) as u32;
        }
    }
    out
}

/// The built-in tile set of `alphabet`, cached per alphabet name.
fn tile_set(alphabet: &lexq::Alphabet) -> Option<std::sync::Arc<lexq::TileSet>> {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex, OnceLock};
    static SETS: OnceLock<Mutex<HashMap<String, Option<Arc<lexq::TileSet>>>>> = OnceLock::new();
    let mut sets = SETS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    sets.entry(alphabet.name().to_string())
        .or_insert_with(|| lexq::TileSet::default_for(alphabet, 15).ok().map(Arc::new))
        .clone()
}
