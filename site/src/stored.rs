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
        self.text.push_str(itoa::Buffer::new().format(n));
        self.text.push(':');
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
#[derive(Clone, Copy)]
pub(crate) struct Reader<'a> {
    pub text: &'a str,
}

/// One sense of a page, borrowed from its text.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawSense<'a> {
    pub pos: Option<Pos>,
    pub via: Option<Via>,
    pub definition: &'a str,
    pub examples: Strs<'a>,
    pub synonyms: Strs<'a>,
    pub base_form: Option<&'a str>,
    pub source: &'a str,
}

/// A stored list of strings, read as it is iterated (its text was checked
/// when the page was opened).
#[derive(Clone, Copy, Debug, Default)]
pub struct Strs<'a> {
    text: &'a str,
    left: usize,
}

impl<'a> Iterator for Strs<'a> {
    type Item = &'a str;
    fn next(&mut self) -> Option<&'a str> {
        if self.left == 0 {
            return None;
        }
        let mut r = Reader { text: self.text };
        let s = r.str().ok()?;
        self.text = r.text;
        self.left -= 1;
        Some(s)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.left))
    }
}

impl serde::Serialize for Strs<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(*self)
    }
}

/// Where the parts of a checked page are, as byte offsets into it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Layout {
    /// The first sense, and how many there are.
    pub senses_at: usize,
    pub senses: usize,
    /// Alphagram, front hooks and back hooks: (start, end).
    pub alphagram: (usize, usize),
    pub front_hooks: (usize, usize),
    pub back_hooks: (usize, usize),
    /// Anagrams and base forms: where their items start, how many.
    pub anagrams: (usize, usize),
    pub base_forms: (usize, usize),
}

/// Checks a whole page (every length and digit) without copying anything:
/// where its parts are.
pub(crate) fn check(text: &str) -> Result<Layout, Bad> {
    let at = |s: &str| s.as_ptr() as usize - text.as_ptr() as usize;
    let span = |s: &str| (at(s), at(s) + s.len());
    let list = |l: Strs<'_>| (at(l.text), l.left);
    let (mut r, senses) = Reader::start(text)?;
    let senses_at = at(r.text);
    for _ in 0..senses {
        r.sense()?;
    }
    let layout = Layout {
        senses_at,
        senses,
        alphagram: span(r.str()?),
        front_hooks: span(r.str()?),
        back_hooks: span(r.str()?),
        anagrams: list(r.strs()?),
        base_forms: list(r.strs()?),
    };
    if !r.text.is_empty() {
        return Err("bytes after the page");
    }
    Ok(layout)
}

impl<'a> Strs<'a> {
    /// The list whose `left` items start at `text` (as [`check`] found).
    pub(crate) fn at(text: &'a str, left: usize) -> Strs<'a> {
        Strs { text, left }
    }
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

    pub fn str(&mut self) -> Result<&'a str, Bad> {
        let n = self.len()?;
        match (self.text.get(..n), self.text.get(n..)) {
            (Some(s), Some(rest)) => {
                self.text = rest;
                Ok(s)
            }
            _ => Err("truncated page"),
        }
    }

    /// A list of strings, skipped over and returned unread.
    pub fn strs(&mut self) -> Result<Strs<'a>, Bad> {
        let n = self.len()?;
        let start = self.text;
        for _ in 0..n {
            self.str()?;
        }
        Ok(Strs {
            text: start,
            left: n,
        })
    }

    /// One sense.
    pub fn sense(&mut self) -> Result<RawSense<'a>, Bad> {
        let (pos, via) = self.pos_via()?;
        let definition = self.str()?;
        let examples = self.strs()?;
        let synonyms = self.strs()?;
        let base_form = match self.byte()? {
            0 => None,
            _ => Some(self.str()?),
        };
        let source = self.str()?;
        Ok(RawSense {
            pos,
            via,
            definition,
            examples,
            synonyms,
            base_form,
            source,
        })
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

/// The first definition on a page, if it has senses.
pub(crate) fn first_definition(text: &str) -> Result<Option<&str>, Bad> {
    let (mut r, senses) = Reader::start(text)?;
    if senses == 0 {
        return Ok(None);
    }
    r.pos_via()?;
    Ok(Some(r.str()?))
}
