//! Base forms of inflected words, as WordNet's `morphy` finds them: first
//! the exception lists (`noun.exc`: `geese goose`), then the detachment
//! rules (`-ies` → `-y`, `-es` → `-e`, ...), keeping only forms WordNet
//! knows for that part of speech.

use rustc_hash::FxHashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Result, SiteError};
use crate::wordnet::{Pos, WordNet};

/// How a base form was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Via {
    /// Through an exception list (`geese` → `goose`).
    Exception,
    /// Through a detachment rule (`cares` → `care`).
    Rule,
}

/// WordNet's detachment rules: (suffix, replacement) per part of speech.
const NOUN_RULES: &[(&str, &str)] = &[
    ("s", ""),
    ("ses", "s"),
    ("xes", "x"),
    ("zes", "z"),
    ("ches", "ch"),
    ("shes", "sh"),
    ("men", "man"),
    ("ies", "y"),
];
const VERB_RULES: &[(&str, &str)] = &[
    ("s", ""),
    ("ies", "y"),
    ("es", "e"),
    ("es", ""),
    ("ed", "e"),
    ("ed", ""),
    ("ing", "e"),
    ("ing", ""),
];
const ADJ_RULES: &[(&str, &str)] = &[("er", ""), ("est", ""), ("er", "e"), ("est", "e")];

fn rules(pos: Pos) -> &'static [(&'static str, &'static str)] {
    match pos {
        Pos::Noun => NOUN_RULES,
        Pos::Verb => VERB_RULES,
        Pos::Adjective => ADJ_RULES,
        Pos::Adverb => &[],
    }
}

/// WordNet's exception lists, one per part of speech.
#[derive(Debug, Default)]
pub struct Morphy {
    exceptions: [FxHashMap<Box<str>, Vec<Box<str>>>; 4],
    files: usize,
}

impl Morphy {
    /// Reads `noun.exc`, `verb.exc`, `adj.exc` and `adv.exc` from `dir`.
    /// A missing file is an empty list ([`Morphy::files`] tells how many
    /// were found); an unreadable one is an error.
    pub fn open(dir: &Path) -> Result<Morphy> {
        let mut m = Morphy::default();
        for pos in Pos::ALL {
            let path = dir.join(format!("{}.exc", pos.file_suffix()));
            let text = match std::fs::read(&path) {
                Ok(t) => t,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(SiteError::io(&path, e)),
            };
            m.files += 1;
            let text = String::from_utf8_lossy(&text);
            let map = &mut m.exceptions[pos as usize];
            for line in text.lines() {
                let mut words = line.split_ascii_whitespace();
                let Some(inflected) = words.next() else {
                    continue;
                };
                let bases: Vec<Box<str>> = words.map(Into::into).collect();
                if !bases.is_empty() {
                    map.entry(inflected.into()).or_default().extend(bases);
                }
            }
        }
        Ok(m)
    }

    /// How many of the four exception lists were found.
    pub fn files(&self) -> usize {
        self.files
    }

    /// Base forms of `word` (lowercase) as `pos` that WordNet has, other
    /// than the word itself. An exception list entry wins over the rules
    /// (as in WordNet's own morphy).
    ///
    /// ```no_run
    /// use lexq_site::{morphy::{Morphy, Via}, wordnet::{Pos, WordNet}};
    /// let dir = std::path::Path::new("target/wordnet");
    /// let (wn, m) = (WordNet::open(dir)?, Morphy::open(dir)?);
    /// assert_eq!(m.base_forms(&wn, "geese", Pos::Noun), [("goose".to_string(), Via::Exception)]);
    /// assert_eq!(m.base_forms(&wn, "cares", Pos::Verb), [("care".to_string(), Via::Rule)]);
    /// # Ok::<(), lexq_site::SiteError>(())
    /// ```
    pub fn base_forms(&self, wn: &WordNet, word: &str, pos: Pos) -> Vec<(String, Via)> {
        let mut out: Vec<(String, Via)> = Vec::new();
        if let Some(bases) = self.exceptions[pos as usize].get(word) {
            for b in bases {
                if &**b != word && wn.has(b, pos) && !out.iter().any(|(o, _)| o == &**b) {
                    out.push((b.to_string(), Via::Exception));
                }
            }
            return out;
        }
        let mut base = String::new();
        for (suffix, ending) in rules(pos) {
            let Some(stem) = word.strip_suffix(suffix) else {
                continue;
            };
            if stem.is_empty() {
                continue;
            }
            base.clear();
            base.push_str(stem);
            base.push_str(ending);
            if base != word && wn.has(&base, pos) && !out.iter().any(|(o, _)| *o == base) {
                out.push((base.clone(), Via::Rule));
            }
        }
        out
    }
}
