//! [`Page`]: a word page as the index stores it, read in place: one
//! string fetched, checked once, and its fields borrowed from it (no
//! string copied per definition, example or anagram). [`Page::to_entry`]
//! copies it into an owned [`Entry`].

use serde::Serialize;
use serde::ser::{SerializeMap, SerializeSeq, Serializer};

use crate::entry::{Entry, SenseEntry};
use crate::morphy::Via;
use crate::stored::{self, Layout, Reader};
use crate::wordnet::Pos;

pub use crate::stored::Strs;

/// A word page read from the index ([`crate::Site::page`]).
///
/// ```no_run
/// let site = lexq_site::Site::open("site".as_ref())?;
/// let page = site.page("cares")?.expect("a word");
/// for sense in page.senses() {
///     println!("{:?} {}", sense.pos, sense.definition);
/// }
/// assert_eq!(page.base_forms().collect::<Vec<_>>(), ["CARE"]);
/// # Ok::<(), lexq_site::SiteError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Page {
    word: String,
    length: usize,
    points: u32,
    text: String,
    layout: Layout,
}

/// One sense of a [`Page`], borrowed from it (the fields of
/// [`SenseEntry`]).
#[derive(Clone, Copy, Debug)]
pub struct PageSense<'a> {
    /// Part of speech, if known.
    pub pos: Option<Pos>,
    /// The definition.
    pub definition: &'a str,
    /// Example sentences.
    pub examples: Strs<'a>,
    /// Other words with this sense.
    pub synonyms: Strs<'a>,
    /// For an inflected word, the base form whose sense this is.
    pub base_form: Option<&'a str>,
    /// How the base form was found.
    pub via: Option<Via>,
    /// Where the sense comes from.
    pub source: &'a str,
}

impl Page {
    /// The page of `word` from its stored `text`, checked whole (on error,
    /// what is wrong, and the word back).
    pub(crate) fn new(
        word: String,
        length: usize,
        points: u32,
        text: String,
    ) -> Result<Page, (stored::Bad, String)> {
        let layout = match stored::check(&text) {
            Ok(l) => l,
            Err(why) => return Err((why, word)),
        };
        Ok(Page {
            word,
            length,
            points,
            text,
            layout,
        })
    }

    /// The word, uppercase.
    pub fn word(&self) -> &str {
        &self.word
    }

    /// Its length in tiles.
    pub fn length(&self) -> usize {
        self.length
    }

    /// Its tile points.
    pub fn points(&self) -> u32 {
        self.points
    }

    /// The number of senses.
    pub fn sense_count(&self) -> usize {
        self.layout.senses
    }

    /// Its senses: its own first, then those of its base forms.
    pub fn senses(&self) -> impl Iterator<Item = PageSense<'_>> + Clone {
        let mut r = Reader {
            text: self.text.get(self.layout.senses_at..).unwrap_or_default(),
        };
        // Checked by `Page::new`: no sense fails to read.
        (0..self.layout.senses).map_while(move |_| {
            let s = r.sense().ok()?;
            Some(PageSense {
                pos: s.pos,
                definition: s.definition,
                examples: s.examples,
                synonyms: s.synonyms,
                base_form: s.base_form,
                via: s.via,
                source: s.source,
            })
        })
    }

    fn str(&self, (start, end): (usize, usize)) -> &str {
        self.text.get(start..end).unwrap_or_default()
    }

    fn strs(&self, (start, left): (usize, usize)) -> Strs<'_> {
        Strs::at(self.text.get(start..).unwrap_or_default(), left)
    }

    /// Its letters sorted.
    pub fn alphagram(&self) -> &str {
        self.str(self.layout.alphagram)
    }

    /// Letters that make a word in front of it.
    pub fn front_hooks(&self) -> &str {
        self.str(self.layout.front_hooks)
    }

    /// Letters that make a word behind it.
    pub fn back_hooks(&self) -> &str {
        self.str(self.layout.back_hooks)
    }

    /// Other words with the same letters.
    pub fn anagrams(&self) -> Strs<'_> {
        self.strs(self.layout.anagrams)
    }

    /// Base forms it is an inflection of.
    pub fn base_forms(&self) -> Strs<'_> {
        self.strs(self.layout.base_forms)
    }

    /// The senses, serialised as a list of [`SenseEntry`] would be
    /// (without copying them).
    pub fn senses_json(&self) -> impl Serialize + '_ {
        SensesJson(self)
    }

    /// The page as an owned [`Entry`].
    pub fn to_entry(&self) -> Entry {
        let strings = |s: Strs<'_>| s.map(str::to_string).collect();
        Entry {
            word: self.word.clone(),
            valid: true,
            length: self.length,
            points: self.points,
            alphagram: self.alphagram().to_string(),
            front_hooks: self.front_hooks().to_string(),
            back_hooks: self.back_hooks().to_string(),
            anagrams: strings(self.anagrams()),
            base_forms: strings(self.base_forms()),
            senses: self
                .senses()
                .map(|s| SenseEntry {
                    pos: s.pos,
                    definition: s.definition.to_string(),
                    examples: strings(s.examples),
                    synonyms: strings(s.synonyms),
                    base_form: s.base_form.map(str::to_string),
                    via: s.via,
                    source: s.source.to_string(),
                })
                .collect(),
        }
    }
}

/// [`Page::senses_json`].
struct SensesJson<'a>(&'a Page);

impl Serialize for SensesJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.layout.senses))?;
        for sense in self.0.senses() {
            seq.serialize_element(&sense)?;
        }
        seq.end()
    }
}

/// As [`SenseEntry`] serialises.
impl Serialize for PageSense<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        if let Some(pos) = self.pos {
            m.serialize_entry("pos", &pos)?;
        }
        m.serialize_entry("definition", self.definition)?;
        if self.examples.clone().next().is_some() {
            m.serialize_entry("examples", &self.examples)?;
        }
        if self.synonyms.clone().next().is_some() {
            m.serialize_entry("synonyms", &self.synonyms)?;
        }
        if let Some(b) = self.base_form {
            m.serialize_entry("base_form", b)?;
        }
        if let Some(v) = self.via {
            m.serialize_entry("via", &v)?;
        }
        m.serialize_entry("source", self.source)?;
        m.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stored::PageWriter;

    fn sample() -> String {
        let mut w = PageWriter::default();
        w.start(2);
        let long = "x".repeat(300);
        w.sense(
            Some(Pos::Verb),
            Some(Via::Rule),
            "feel concern",
            ["I care"].into_iter(),
            std::iter::empty(),
            Some("CARE"),
            "wordnet",
        );
        w.sense(
            None,
            None,
            &long,
            std::iter::empty(),
            ["worry", "fret"].into_iter(),
            None,
            "mine.tsv",
        );
        w.str("ACERS");
        w.str("S");
        w.str("DRS");
        w.list(["ACRES", "RACES"].into_iter());
        w.list(["CARE"].into_iter());
        w.text
    }

    #[test]
    fn pages_read_back() {
        let text = sample();
        assert_eq!(stored::first_definition(&text), Ok(Some("feel concern")));
        let page = Page::new("CARES".into(), 5, 7, text.clone()).unwrap();
        let e = page.to_entry();
        assert_eq!((e.word.as_str(), e.length, e.points), ("CARES", 5, 7));
        assert_eq!(e.senses.len(), 2);
        assert_eq!(e.senses[0].pos, Some(Pos::Verb));
        assert_eq!(e.senses[0].via, Some(Via::Rule));
        assert_eq!(e.senses[0].examples, ["I care"]);
        assert_eq!(e.senses[0].base_form.as_deref(), Some("CARE"));
        assert_eq!(e.senses[1].definition, "x".repeat(300));
        assert_eq!(e.senses[1].synonyms, ["worry", "fret"]);
        assert_eq!(e.senses[1].source, "mine.tsv");
        assert_eq!(
            (e.alphagram.as_str(), e.front_hooks.as_str()),
            ("ACERS", "S")
        );
        assert_eq!(e.back_hooks, "DRS");
        assert_eq!(e.anagrams, ["ACRES", "RACES"]);
        assert_eq!(e.base_forms, ["CARE"]);
        assert_eq!(page.alphagram(), "ACERS");
        assert_eq!(page.anagrams().collect::<Vec<_>>(), ["ACRES", "RACES"]);
        // The borrowed senses serialise as the owned ones do.
        assert_eq!(
            serde_json::to_value(page.senses_json()).unwrap(),
            serde_json::to_value(&e.senses).unwrap()
        );
    }

    #[test]
    fn every_damaged_page_is_refused() {
        let text = sample();
        // Cut anywhere, or one byte changed to a digit, a colon or a letter:
        // refused, or read back as a whole page (a changed length can
        // still add up), never a panic.
        for cut in 0..text.len() {
            assert!(Page::new("W".into(), 1, 1, text[..cut].to_string()).is_err());
        }
        for i in 0..text.len() {
            for b in [b'0', b'9', b':', b'x'] {
                let mut bytes = text.clone().into_bytes();
                bytes[i] = b;
                let Ok(t) = String::from_utf8(bytes) else {
                    continue;
                };
                if let Ok(p) = Page::new("W".into(), 1, 1, t) {
                    let e = p.to_entry();
                    assert_eq!(e.senses.len(), p.sense_count());
                    let _ = serde_json::to_string(&p.senses_json()).unwrap();
                }
            }
        }
    }
}
