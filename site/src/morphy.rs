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

/// WordNet's exception lists.
#[derive(Debug, Default)]
pub struct Morphy {
    /// Each inflected form's base forms, per part of speech (one lookup
    /// a word).
    exceptions: FxHashMap<Box<str>, [Vec<Box<str>>; 4]>,
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
            let text = match crate::fsutil::read_capped(&path, "an exception list") {
                Ok(t) => t,
                Err(SiteError::Io { source, .. })
                    if source.kind() == std::io::ErrorKind::NotFound =>
                {
                    continue;
                }
                Err(e) => return Err(e),
            };
            m.files += 1;
            let text = String::from_utf8_lossy(&text);
            for line in text.lines() {
                let mut words = line.split_ascii_whitespace();
                let Some(inflected) = words.next() else {
                    continue;
                };
                let bases: Vec<Box<str>> = words.map(Into::into).collect();
                if !bases.is_empty() {
                    m.exceptions.entry(inflected.into()).or_default()[pos as usize].extend(bases);
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
        let mut out = Vec::new();
        let listed = self.exceptions.get(word).map(|e| &e[pos as usize][..]);
        let Ok(()) = base_forms_as::<std::convert::Infallible>(
            wn,
            word,
            pos,
            listed.unwrap_or_default(),
            &mut String::new(),
            &mut |_, base, via, _| {
                out.push((base.to_string(), via));
                Ok(())
            },
        );
        out
    }

    /// Calls `f` with each base form of `word` (lowercase) that
    /// [`Morphy::base_forms`] finds, for each part of speech in the order
    /// of [`Pos::ALL`], with its synset offsets; `buf` is room to spell
    /// them. What a build runs for every word: one exception lookup, one
    /// lemma lookup a candidate, nothing allocated.
    pub(crate) fn each_base_form<'w>(
        &self,
        wn: &'w WordNet,
        word: &str,
        buf: &mut String,
        mut f: impl FnMut(Pos, &str, Via, &'w [u32]) -> Result<()>,
    ) -> Result<()> {
        let exceptions = self.exceptions.get(word);
        for pos in Pos::ALL {
            let listed = exceptions.map_or(&[][..], |e| &e[pos as usize][..]);
            base_forms_as(wn, word, pos, listed, buf, &mut f)?;
        }
        Ok(())
    }
}

/// The base forms of `word` as `pos`, given its exception list entry for
/// `pos` (`listed`, empty if none): see [`Morphy::base_forms`].
fn base_forms_as<'w, E>(
    wn: &'w WordNet,
    word: &str,
    pos: Pos,
    listed: &[Box<str>],
    buf: &mut String,
    f: &mut impl FnMut(Pos, &str, Via, &'w [u32]) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    if !listed.is_empty() {
        for (k, b) in listed.iter().enumerate() {
            if &**b == word || listed[..k].contains(b) {
                continue;
            }
            let offsets = wn.offsets(b, pos);
            if !offsets.is_empty() {
                f(pos, b, Via::Exception, offsets)?;
            }
        }
        return Ok(());
    }
    // The rules' candidates found so far, as (stem, ending): two rules
    // may spell the same form.
    let mut found: [(&str, &str); 8] = [("", ""); 8];
    let mut n = 0;
    for &(suffix, ending) in rules(pos) {
        let Some(stem) = word.strip_suffix(suffix) else {
            continue;
        };
        let same = |&(s, e): &(&str, &str)| {
            s.len() + e.len() == stem.len() + ending.len()
                && s.bytes()
                    .chain(e.bytes())
                    .eq(stem.bytes().chain(ending.bytes()))
        };
        if stem.is_empty() || suffix == ending || found[..n].iter().any(same) {
            continue;
        }
        buf.clear();
        buf.push_str(stem);
        buf.push_str(ending);
        let offsets = wn.offsets(buf, pos);
        if !offsets.is_empty() {
            found[n] = (stem, ending);
            n += 1;
            f(pos, buf, Via::Rule, offsets)?;
        }
    }
    Ok(())
}
