//! [`Page`]: a word page as the index stores it, read in place: one
//! string fetched, checked once, and its fields borrowed from it (no
//! string copied per definition, example or anagram), with the pages of
//! the base forms whose senses it shows (an inflection's page refers to
//! them: the stored form refers to them by word). [`Page::to_entry`] copies it into an
//! owned [`Entry`].

use serde::Serialize;
use serde::ser::{SerializeMap, SerializeSeq, Serializer};

use crate::entry::{Entry, SenseEntry};
use crate::morphy::Via;
use crate::stored::{self, Layout, RawItem, RawRef, RawSense, Reader};
use crate::wordnet::Pos;

pub use crate::stored::{PageRelations, Strs};

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
    /// The pages of the base forms its references point to.
    bases: Vec<Page>,
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
    /// How WordNet spells the word in this sense, if only capitalised.
    pub capitalised: Option<&'a str>,
    /// Its relations to other senses.
    pub relations: PageRelations<'a>,
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
            bases: Vec::new(),
        })
    }

    /// The sense items, read in place.
    fn items(&self) -> impl Iterator<Item = RawItem<'_>> + Clone {
        let mut r = Reader {
            text: self.text.get(self.layout.items_at..).unwrap_or_default(),
        };
        // Checked by `Page::new`: no item fails to read.
        (0..self.layout.items).map_while(move |_| r.item().ok())
    }

    /// The base forms its references point to, each once: the pages
    /// [`Page::attach`] needs.
    pub(crate) fn references(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for item in self.items() {
            if let RawItem::Reference(r) = item
                && !out.iter().any(|b| b == r.base)
            {
                out.push(r.base.to_string());
            }
        }
        out
    }

    /// The word's own WordNet senses of `pos` (what a reference to this
    /// page stands for): a run of items, read from where it starts.
    fn own_wordnet(&self, pos: Pos) -> impl Iterator<Item = RawSense<'_>> + Clone {
        let (at, count) = self.layout.own_pos[pos as usize];
        let mut r = Reader {
            text: self.text.get(at..).unwrap_or_default(),
        };
        // Checked by `Page::new`: the run is of senses, of this part of
        // speech.
        (0..count).map_while(move |_| match r.item() {
            Ok(RawItem::Sense(s)) => Some(s),
            _ => None,
        })
    }

    /// Gives the page the pages of the base forms it refers to
    /// ([`Page::references`]), checking that each reference finds as many
    /// senses as it counts.
    pub(crate) fn attach(&mut self, bases: Vec<Page>) -> Result<(), stored::Bad> {
        for item in self.items() {
            if let RawItem::Reference(r) = item {
                let base = bases
                    .iter()
                    .find(|b| b.word == r.base)
                    .ok_or("no page for a base form")?;
                if base.layout.own_pos[r.pos as usize].1 != r.count {
                    return Err("a base form's page without the senses referred to");
                }
            }
        }
        self.bases = bases;
        Ok(())
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
        self.items().flat_map(move |item| {
            let (inline, reference) = match item {
                RawItem::Sense(s) => (Some(PageSense::from(s)), None),
                RawItem::Reference(r) => (None, Some(self.referred(r))),
            };
            inline.into_iter().chain(reference.into_iter().flatten())
        })
    }

    /// The senses reference `r` stands for (none if its base page is
    /// missing, which [`Page::attach`] rules out).
    fn referred<'a>(&'a self, r: RawRef<'a>) -> impl Iterator<Item = PageSense<'a>> + Clone {
        let base = self.bases.iter().find(|b| b.word == r.base);
        base.into_iter()
            .flat_map(move |b| b.own_wordnet(r.pos))
            .map(move |s| PageSense {
                base_form: Some(r.base),
                via: Some(r.via),
                ..PageSense::from(s)
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
                    capitalised: s.capitalised.map(str::to_string),
                    relations: s.relations.to_owned(),
                })
                .collect(),
        }
    }
}

impl<'a> From<RawSense<'a>> for PageSense<'a> {
    fn from(s: RawSense<'a>) -> PageSense<'a> {
        PageSense {
            pos: s.pos,
            definition: s.definition,
            examples: s.examples,
            synonyms: s.synonyms,
            base_form: s.base_form,
            via: s.via,
            source: s.source,
            capitalised: s.capitalised,
            relations: s.relations,
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
        if let Some(c) = self.capitalised {
            m.serialize_entry("capitalised", c)?;
        }
        let r = &self.relations;
        for (key, list) in [
            ("antonyms", r.antonyms),
            ("kind_of", r.kind_of),
            ("kinds", r.kinds),
            ("derived", r.derived),
            ("usage", r.usage),
        ] {
            if list.clone().next().is_some() {
                m.serialize_entry(key, &list)?;
            }
        }
        if r.offensive {
            m.serialize_entry("offensive", &true)?;
        }
        m.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stored::{First, PageWriter};

    /// The page of CARE: a file definition, then a noun and a verb sense
    /// of WordNet's.
    fn care() -> String {
        let mut w = PageWriter::default();
        w.start(3, 1, 3, 3);
        let none = std::iter::empty;
        w.sense(
            Some(Pos::Noun),
            None,
            "mine",
            none(),
            none(),
            None,
            "mine.tsv",
            None,
            None,
        );
        w.sense(
            Some(Pos::Noun),
            None,
            "attention",
            none(),
            none(),
            None,
            "wordnet",
            None,
            None,
        );
        let ex = ["I care"].into_iter();
        let relations = crate::wordnet::Relations {
            kind_of: vec!["feel".into(), "experience".into()],
            derived: vec!["carer".into()],
            offensive: true,
            ..Default::default()
        };
        w.sense(
            Some(Pos::Verb),
            None,
            "feel concern",
            ex,
            none(),
            None,
            "wordnet",
            None,
            Some(&relations),
        );
        w.str("ACER");
        w.str("S");
        w.str("DRS");
        w.list(["ACRE", "RACE"].into_iter());
        w.list(none());
        w.text
    }

    /// The page of CARES: references to CARE's verb and noun senses, and
    /// a sense of a base form outside the lexicon, stored whole.
    fn cares() -> String {
        let mut w = PageWriter::default();
        w.start(3, 0, 0, 3);
        w.reference(Pos::Verb, Via::Rule, "CARE", 1);
        w.reference(Pos::Noun, Via::Rule, "CARE", 1);
        let long = "x".repeat(300);
        w.sense(
            Some(Pos::Noun),
            Some(Via::Exception),
            &long,
            std::iter::empty(),
            ["worry", "fret"].into_iter(),
            Some("CARX"),
            "wordnet",
            Some("Carx"),
            None,
        );
        w.str("ACERS");
        w.str("S");
        w.str("");
        w.list(["ACRES", "RACES"].into_iter());
        w.list(["CARE", "CARX"].into_iter());
        w.text
    }

    fn page(word: &str, text: &str) -> Page {
        Page::new(word.into(), word.len(), 7, text.to_string()).unwrap()
    }

    #[test]
    fn pages_read_back() {
        assert_eq!(
            stored::first_definition(&care()),
            Ok(First::Definition("mine"))
        );
        assert_eq!(stored::first_definition(&cares()), Ok(First::Reference));
        let mut page = page("CARES", &cares());
        assert_eq!(page.references(), ["CARE"]);
        page.attach(vec![self::page("CARE", &care())]).unwrap();
        assert_eq!(page.sense_count(), 3);
        let e = page.to_entry();
        assert_eq!((e.word.as_str(), e.length, e.points), ("CARES", 5, 7));
        assert_eq!(e.senses.len(), 3);
        let s = &e.senses;
        assert_eq!((s[0].pos, s[0].via), (Some(Pos::Verb), Some(Via::Rule)));
        assert_eq!(s[0].definition, "feel concern");
        assert_eq!(s[0].examples, ["I care"]);
        assert_eq!(s[0].base_form.as_deref(), Some("CARE"));
        assert_eq!(s[0].source, "wordnet");
        assert_eq!(s[0].relations.kind_of, ["feel", "experience"]);
        assert_eq!(s[0].relations.derived, ["carer"]);
        assert!(s[0].relations.antonyms.is_empty() && s[0].relations.offensive);
        assert!(s[1].relations.is_empty());
        // The file definition of CARE is not a WordNet sense it refers to.
        assert_eq!(
            (s[1].pos, s[1].definition.as_str()),
            (Some(Pos::Noun), "attention")
        );
        assert_eq!(s[1].base_form.as_deref(), Some("CARE"));
        assert_eq!(s[2].definition, "x".repeat(300));
        assert_eq!(s[2].synonyms, ["worry", "fret"]);
        assert_eq!(s[2].via, Some(Via::Exception));
        assert_eq!(s[2].base_form.as_deref(), Some("CARX"));
        assert_eq!(
            (e.alphagram.as_str(), e.front_hooks.as_str()),
            ("ACERS", "S")
        );
        assert_eq!(e.back_hooks, "");
        assert_eq!(e.anagrams, ["ACRES", "RACES"]);
        assert_eq!(e.base_forms, ["CARE", "CARX"]);
        assert_eq!(page.alphagram(), "ACERS");
        assert_eq!(page.anagrams().collect::<Vec<_>>(), ["ACRES", "RACES"]);
        // The borrowed senses serialise as the owned ones do.
        assert_eq!(
            serde_json::to_value(page.senses_json()).unwrap(),
            serde_json::to_value(&e.senses).unwrap()
        );
        // A page read on its own: CARE's senses, none from elsewhere.
        let care = self::page("CARE", &care()).to_entry();
        let defs: Vec<&str> = care.senses.iter().map(|s| s.definition.as_str()).collect();
        assert_eq!(defs, ["mine", "attention", "feel concern"]);
        assert!(care.senses.iter().all(|s| s.base_form.is_none()));
    }

    #[test]
    fn references_must_find_their_senses() {
        let mut page = page("CARES", &cares());
        // No base page, the wrong one, or one without the senses counted.
        assert!(page.clone().attach(Vec::new()).is_err());
        assert!(
            page.clone()
                .attach(vec![self::page("RACE", &care())])
                .is_err()
        );
        let mut w = PageWriter::default();
        w.start(0, 0, 0, 0);
        for s in ["ACER", "", ""] {
            w.str(s);
        }
        w.list(std::iter::empty());
        w.list(std::iter::empty());
        assert!(
            page.clone()
                .attach(vec![self::page("CARE", &w.text)])
                .is_err()
        );
        page.attach(vec![self::page("CARE", &care())]).unwrap();
        // Counts that do not add up are refused when a page is read.
        let bad = cares().replacen("4:3:0:0:3:", "4:4:0:0:3:", 1);
        assert!(Page::new("CARES".into(), 5, 7, bad).is_err());
        let bad = care().replacen("4:3:1:3:3:", "4:3:1:4:3:", 1);
        assert!(Page::new("CARE".into(), 4, 7, bad).is_err());
        // Own senses not grouped by part of speech are refused (a
        // reference stands for a run of them).
        let own = |order: [Pos; 3]| {
            let mut w = PageWriter::default();
            w.start(3, 0, 3, 3);
            for pos in order {
                let none = std::iter::empty;
                w.sense(
                    Some(pos),
                    None,
                    "d",
                    none(),
                    none(),
                    None,
                    "wordnet",
                    None,
                    None,
                );
            }
            for s in ["ACER", "", ""] {
                w.str(s);
            }
            w.list(std::iter::empty());
            w.list(std::iter::empty());
            Page::new("CARE".into(), 4, 7, w.text)
        };
        assert!(own([Pos::Noun, Pos::Verb, Pos::Noun]).is_err());
        assert!(own([Pos::Noun, Pos::Noun, Pos::Verb]).is_ok());
        // A reference among the word's own senses is refused.
        let bad = cares().replacen("4:3:0:0:3:", "4:3:0:1:3:", 1);
        assert!(Page::new("CARES".into(), 5, 7, bad).is_err());
    }

    #[test]
    fn every_damaged_page_is_refused() {
        // Cut anywhere, or one byte changed to a digit, a colon or a letter:
        // refused, or read back as a whole page (a changed length can
        // still add up), never a panic.
        for text in [care(), cares()] {
            for cut in 0..text.len() {
                assert!(Page::new("W".into(), 1, 1, text[..cut].to_string()).is_err());
            }
            for i in 0..text.len() {
                for b in [b'0', b'1', b'9', b':', b'x'] {
                    let mut bytes = text.clone().into_bytes();
                    bytes[i] = b;
                    let Ok(t) = String::from_utf8(bytes) else {
                        continue;
                    };
                    let Ok(mut p) = Page::new("W".into(), 1, 1, t) else {
                        continue;
                    };
                    let bases: Vec<Page> = p
                        .references()
                        .iter()
                        .map(|b| self::page(b, &care()))
                        .collect();
                    if p.attach(bases).is_ok() {
                        let e = p.to_entry();
                        assert_eq!(e.senses.len(), p.sense_count());
                        let _ = serde_json::to_string(&p.senses_json()).unwrap();
                    }
                }
            }
        }
    }
}
