//! The stored form of a word page: one text value per document (the
//! `page` field), read back in one pass.
//!
//! It is text (tantivy reads a stored string in one piece, bytes one at a
//! time): numbers are decimal digits ended by `:`, strings their length
//! in bytes then the text, lists a count then their items; part of speech
//! and the way a base form was found are one digit each. The layout, after
//! the version number: the senses (count, then each:
//! part of speech, how its base form was found, definition, examples,
//! synonyms, base form, source), then alphagram, front hooks, back hooks,
//! anagrams and base forms. The word, its length and points are stored
//! fields of their own (search results read them).

use crate::entry::{Entry, SenseEntry};
use crate::morphy::Via;
use crate::wordnet::Pos;

const VERSION: usize = 1;

/// Writes pages into a reused buffer.
#[derive(Default)]
pub(crate) struct PageWriter {
    pub text: String,
}

impl PageWriter {
    pub fn start(&mut self, senses: usize) {
        self.text.clear();
        self.len(VERSION);
        self.len(senses);
    }

    fn len(&mut self, n: usize) {
        use std::fmt::Write;
        let _ = write!(self.text, "{n}:");
    }

    fn digit(&mut self, d: u8) {
        self.text.push((b'0' + d) as char);
    }

    pub fn str(&mut self, s: &str) {
        self.len(s.len());
        self.text.push_str(s);
    }

    pub fn list<'s>(&mut self, items: impl Iterator<Item = &'s str> + Clone) {
        self.len(items.clone().count());
        for s in items {
            self.str(s);
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub fn sense<'s>(
        &mut self,
        pos: Option<Pos>,
        via: Option<Via>,
        definition: &str,
        examples: impl Iterator<Item = &'s str> + Clone,
        synonyms: impl Iterator<Item = &'s str> + Clone,
        base_form: Option<&str>,
        source: &str,
    ) {
        self.digit(pos.map_or(0, |p| p as u8 + 1));
        self.digit(match via {
            None => 0,
            Some(Via::Exception) => 1,
            Some(Via::Rule) => 2,
        });
        self.str(definition);
        self.list(examples);
        self.list(synonyms);
        match base_form {
            Some(b) => {
                self.digit(1);
                self.str(b);
            }
            None => self.digit(0),
        }
        self.str(source);
    }
}

/// A page being read.
struct Reader<'a> {
    text: &'a str,
}

/// What is wrong with a stored page.
pub(crate) type Bad = &'static str;

impl<'a> Reader<'a> {
    /// One digit.
    fn byte(&mut self) -> Result<u8, Bad> {
        let b = *self.text.as_bytes().first().ok_or("truncated page")?;
        if !b.is_ascii_digit() {
            return Err("bad digit in page");
        }
        self.text = &self.text[1..];
        Ok(b - b'0')
    }

    fn len(&mut self) -> Result<usize, Bad> {
        let mut n = 0usize;
        for (i, b) in self.text.bytes().enumerate().take(12) {
            if b == b':' && i > 0 {
                self.text = &self.text[i + 1..];
                return Ok(n);
            }
            if !b.is_ascii_digit() {
                break;
            }
            n = n * 10 + (b - b'0') as usize;
        }
        Err("bad length in page")
    }

    fn str(&mut self) -> Result<&'a str, Bad> {
        let n = self.len()?;
        match (self.text.get(..n), self.text.get(n..)) {
            (Some(s), Some(rest)) => {
                self.text = rest;
                Ok(s)
            }
            _ => Err("truncated page"),
        }
    }

    fn string(&mut self) -> Result<String, Bad> {
        self.str().map(str::to_string)
    }

    fn list(&mut self) -> Result<Vec<String>, Bad> {
        let n = self.len()?;
        let mut out = Vec::with_capacity(n.min(self.text.len()));
        for _ in 0..n {
            out.push(self.string()?);
        }
        Ok(out)
    }

    fn start(text: &'a str) -> Result<(Reader<'a>, usize), Bad> {
        let mut r = Reader { text };
        if r.len()? != VERSION {
            return Err("page of another version");
        }
        let senses = r.len()?;
        Ok((r, senses))
    }

    fn pos_via(&mut self) -> Result<(Option<Pos>, Option<Via>), Bad> {
        let pos = match self.byte()? {
            0 => None,
            p => Some(*Pos::ALL.get(p as usize - 1).ok_or("bad part of speech")?),
        };
        let via = match self.byte()? {
            0 => None,
            1 => Some(Via::Exception),
            2 => Some(Via::Rule),
            _ => return Err("bad base form way"),
        };
        Ok((pos, via))
    }
}

/// Fills `e` (whose word, length and points are set) from its page.
pub(crate) fn read_page(text: &str, e: &mut Entry) -> Result<(), Bad> {
    let (mut r, senses) = Reader::start(text)?;
    e.senses.reserve_exact(senses.min(text.len()));
    for _ in 0..senses {
        let (pos, via) = r.pos_via()?;
        let definition = r.string()?;
        let examples = r.list()?;
        let synonyms = r.list()?;
        let base_form = match r.byte()? {
            0 => None,
            _ => Some(r.string()?),
        };
        let source = r.string()?;
        e.senses.push(SenseEntry {
            pos,
            definition,
            examples,
            synonyms,
            base_form,
            via,
            source,
        });
    }
    e.alphagram = r.string()?;
    e.front_hooks = r.string()?;
    e.back_hooks = r.string()?;
    e.anagrams = r.list()?;
    e.base_forms = r.list()?;
    if !r.text.is_empty() {
        return Err("bytes after the page");
    }
    Ok(())
}

/// The first definition on a page, if it has senses.
pub(crate) fn first_definition(text: &str) -> Result<Option<&str>, Bad> {
    let (mut r, senses) = Reader::start(text)?;
    if senses == 0 {
        return Ok(None);
    }
    r.pos_via()?;
    Ok(Some(r.str()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_read_back() {
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
        assert_eq!(first_definition(&w.text), Ok(Some("feel concern")));
        let mut e = Entry::valid("CARES".into(), 5, 7);
        read_page(&w.text, &mut e).unwrap();
        assert_eq!(e.senses.len(), 2);
        assert_eq!(e.senses[0].pos, Some(Pos::Verb));
        assert_eq!(e.senses[0].via, Some(Via::Rule));
        assert_eq!(e.senses[0].examples, ["I care"]);
        assert_eq!(e.senses[0].base_form.as_deref(), Some("CARE"));
        assert_eq!(e.senses[1].definition, long);
        assert_eq!(e.senses[1].synonyms, ["worry", "fret"]);
        assert_eq!(e.senses[1].source, "mine.tsv");
        assert_eq!(
            (e.alphagram.as_str(), e.front_hooks.as_str()),
            ("ACERS", "S")
        );
        assert_eq!(e.back_hooks, "DRS");
        assert_eq!(e.anagrams, ["ACRES", "RACES"]);
        assert_eq!(e.base_forms, ["CARE"]);
        let cut = &w.text[..w.text.len() - 1];
        assert!(read_page(cut, &mut e).is_err());
    }
}
