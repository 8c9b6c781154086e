//! Base forms of inflected words, as WordNet's morphy finds them
//! (morphy(7WN)), for single words (a lexicon's words are never
//! collocations, so morphy's handling of spaces, hyphens and verb +
//! preposition phrases does not arise). Per part of speech:
//!
//! - A word in that part of speech's exception list (`noun.exc`: `geese
//!   goose`) has the base forms listed there, and no rule is tried. A line
//!   that lists the word as its own base form keeps the rules off it:
//!   `gas gas` (GAS is no plural of GA), `bed bed` (BED no past of BE).
//! - Adverbs have the exception list only.
//! - A noun ending in -ful has the rules applied to what comes before it,
//!   then -ful put back: HANDSFUL = HANDS + FUL, HANDS -> HAND, so HANDFUL
//!   (the part before -ful must become a noun WordNet has: HAND).
//! - Nothing is detached from another noun ending in -ss or of one or two
//!   letters: PUSS is no plural of PUS, PASS none of PAS, ES none of E.
//! - Otherwise the detachment rules are tried in the order of their table,
//!   and the first whose result WordNet has for that part of speech gives
//!   the one base form: SINGES -> SINGE (-s), never also SING (-es); where
//!   WordNet wants two, its exception list says so (`singing sing singe`).
//!   A result WordNet knows only capitalised is passed over, as the site
//!   leaves such senses out (morphy would stop at it): SAXES -> SAX, not
//!   Saxe the marshal; BUNCHES -> BUNCH, not Ralph Bunche.
//!
//! A base form is kept only if WordNet has senses for it as that part of
//! speech, and only if it is a single word of letters (the lemmas
//! [`WordNet`] keeps).

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
    /// than the word itself, by morphy's rules (see the [module
    /// documentation](self)): an exception list entry's, or else at most
    /// one from the detachment rules.
    ///
    /// ```no_run
    /// use lexq_site::{morphy::{Morphy, Via}, wordnet::{Pos, WordNet}};
    /// let dir = std::path::Path::new("target/wordnet");
    /// let (wn, m) = (WordNet::open(dir)?, Morphy::open(dir)?);
    /// assert_eq!(m.base_forms(&wn, "geese", Pos::Noun), [("goose".to_string(), Via::Exception)]);
    /// assert_eq!(m.base_forms(&wn, "cares", Pos::Verb), [("care".to_string(), Via::Rule)]);
    /// assert_eq!(m.base_forms(&wn, "handsful", Pos::Noun), [("handful".to_string(), Via::Rule)]);
    /// assert!(m.base_forms(&wn, "puss", Pos::Noun).is_empty());
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
/// `pos` (`listed`, empty if none): see [`Morphy::base_forms`] and the
/// rules in this module's documentation.
fn base_forms_as<'w, E>(
    wn: &'w WordNet,
    word: &str,
    pos: Pos,
    listed: &[Box<str>],
    buf: &mut String,
    f: &mut impl FnMut(Pos, &str, Via, &'w [u32]) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    if !listed.is_empty() {
        // `gas gas`: the word is its own base form; the rules stay off.
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
    // What the rules apply to, and whether -ful goes back on after.
    let (stem, ful) = match pos {
        Pos::Adverb => return Ok(()),
        Pos::Noun => match word.strip_suffix("ful") {
            // HANDSFUL: the rules see HANDS.
            Some(stem) if !stem.is_empty() => (stem, true),
            // PUSS, PASS, ES: no rule.
            _ if word.ends_with("ss") || word.len() <= 2 => return Ok(()),
            _ => (word, false),
        },
        Pos::Verb | Pos::Adjective => (word, false),
    };
    for &(suffix, ending) in rules(pos) {
        let Some(base) = stem.strip_suffix(suffix) else {
            continue;
        };
        if base.is_empty() {
            continue;
        }
        buf.clear();
        buf.push_str(base);
        buf.push_str(ending);
        // SAXES: SAXE is known only as Saxe, so SAX.
        if !wn.has_common(buf, pos) {
            continue;
        }
        // The first rule that finds a lemma is the only one tried.
        if ful {
            // HANDS -> HAND, so HANDSFUL -> HANDFUL, if WordNet has it.
            buf.push_str("ful");
        }
        let offsets = wn.offsets(buf, pos);
        if !offsets.is_empty() {
            f(pos, buf, Via::Rule, offsets)?;
        }
        return Ok(());
    }
    Ok(())
}
