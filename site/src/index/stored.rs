//! The stored form of a word page: one text value per document (the
//! `page` field), read back in one pass.
//!
//! It is text (tantivy reads a stored string in one piece, bytes one at a
//! time): numbers are decimal digits ended by `:`, strings their length
//! in bytes then the text, lists a count then their items; part of speech
//! and the way a base form was found are one digit each. The layout, after
//! the version number: the number of senses the page shows, how many of
//! them come first from definition files, how many are the word's own;
//! the sense items (count, then each either a sense: `0`, part of speech,
//! how its base form was found, definition, examples, synonyms, base
//! form, source, capitalised spelling (`0`, or `1` and the spelling),
//! relations (`0` for none, or `1`, then antonyms, kinds it is of, its
//! kinds, derived forms and usage labels, and whether it is offensive as
//! a digit); or
//! a reference: `1`, part of speech, how the base form
//! was found, the base form, the number of senses); then alphagram, front
//! hooks, back hooks, anagrams and base forms. The word, its length and
//! points are stored fields of their own (search results read them).
//!
//! A reference stands for the WordNet senses of a part of speech that a
//! base form in the lexicon has on its own page (the senses of `CARE` as
//! a verb, on the page of `CARES`): each sense is stored, and indexed for
//! definition search, once, on the page of the word whose sense it is.

use crate::morphy::Via;
use crate::wordnet::{Pos, Relations};

const VERSION: usize = 4;

/// Writes pages into a reused buffer.
#[derive(Default)]
pub(crate) struct PageWriter {
    pub text: String,
}

impl PageWriter {
    /// Starts a page of `senses` senses in all, `files` of them from
    /// definition files and `own` the word's own (files included), in
    /// `items` items.
    pub fn start(&mut self, senses: usize, files: usize, own: usize, items: usize) {
        self.text.clear();
        self.len(VERSION);
        self.len(senses);
        self.len(files);
        self.len(own);
        self.len(items);
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
        capitalised: Option<&str>,
        relations: Option<&Relations>,
    ) {
        self.digit(0);
        self.pos_via(pos, via);
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
        match capitalised {
            Some(c) => {
                self.digit(1);
                self.str(c);
            }
            None => self.digit(0),
        }
        match relations.filter(|r| !r.is_empty()) {
            Some(r) => {
                self.digit(1);
                for list in [&r.antonyms, &r.kind_of, &r.kinds, &r.derived, &r.usage] {
                    self.list(list.iter().map(String::as_str));
                }
                self.digit(r.offensive as u8);
            }
            None => self.digit(0),
        }
    }

    /// A reference to the `count` WordNet senses of `pos` on the page of
    /// the base form `base`, found `via`.
    pub fn reference(&mut self, pos: Pos, via: Via, base: &str, count: usize) {
        self.digit(1);
        self.pos_via(Some(pos), Some(via));
        self.str(base);
        self.len(count);
    }

    fn pos_via(&mut self, pos: Option<Pos>, via: Option<Via>) {
        self.digit(pos.map_or(0, |p| p as u8 + 1));
        self.digit(match via {
            None => 0,
            Some(Via::Exception) => 1,
            Some(Via::Rule) => 2,
        });
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
    pub capitalised: Option<&'a str>,
    pub relations: PageRelations<'a>,
}

/// A sense's relations, borrowed from its page (the fields of
/// [`Relations`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct PageRelations<'a> {
    /// Opposites.
    pub antonyms: Strs<'a>,
    /// What it is a kind of.
    pub kind_of: Strs<'a>,
    /// Its kinds.
    pub kinds: Strs<'a>,
    /// Derived and related forms.
    pub derived: Strs<'a>,
    /// Usage labels.
    pub usage: Strs<'a>,
    /// Whether WordNet marks it as offensive.
    pub offensive: bool,
}

impl PageRelations<'_> {
    /// As an owned [`Relations`].
    pub fn to_owned(self) -> Relations {
        let strings = |s: Strs<'_>| s.map(str::to_string).collect();
        Relations {
            antonyms: strings(self.antonyms),
            kind_of: strings(self.kind_of),
            kinds: strings(self.kinds),
            derived: strings(self.derived),
            usage: strings(self.usage),
            offensive: self.offensive,
        }
    }
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
    /// The first sense item, and how many items there are.
    pub items_at: usize,
    pub items: usize,
    /// The senses the page shows (references expanded).
    pub senses: usize,
    /// The word's own WordNet senses of each part of speech (a run of
    /// items among the own ones, after the files'): where the first
    /// starts, and how many there are.
    pub own_pos: [(usize, usize); 4],
    /// Alphagram, front hooks and back hooks: (start, end).
    pub alphagram: (usize, usize),
    pub front_hooks: (usize, usize),
    pub back_hooks: (usize, usize),
    /// Anagrams and base forms: where their items start, how many.
    pub anagrams: (usize, usize),
    pub base_forms: (usize, usize),
}

/// Checks a whole page (every length and digit, and that its counts add
/// up) without copying anything: where its parts are.
pub(crate) fn check(text: &str) -> Result<Layout, Bad> {
    let at = |s: &str| s.as_ptr() as usize - text.as_ptr() as usize;
    let span = |s: &str| (at(s), at(s) + s.len());
    let list = |l: Strs<'_>| (at(l.text), l.left);
    let (mut r, head) = Reader::start(text)?;
    let items_at = at(r.text);
    let mut senses = 0usize;
    let mut own_pos = [(0, 0); 4];
    let mut last = None;
    for i in 0..head.items {
        let item_at = at(r.text);
        match r.item()? {
            RawItem::Sense(s) if (head.files..head.own).contains(&i) => {
                senses += 1;
                let p = s
                    .pos
                    .ok_or("an own WordNet sense without a part of speech")?;
                let run = &mut own_pos[p as usize];
                if run.1 == 0 {
                    *run = (item_at, 1);
                } else if last == Some(p) {
                    run.1 += 1;
                } else {
                    return Err("own senses out of part-of-speech order");
                }
                last = Some(p);
            }
            RawItem::Sense(_) => senses += 1,
            RawItem::Reference(_) if i < head.own => return Err("reference among own senses"),
            RawItem::Reference(x) => senses = senses.saturating_add(x.count),
        }
    }
    if senses != head.senses || head.files > head.own || head.own > head.items {
        return Err("sense counts that do not add up");
    }
    let layout = Layout {
        items_at,
        items: head.items,
        senses,
        own_pos,
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

/// A page's header: its counts.
struct Head {
    /// The senses the page shows (references expanded).
    senses: usize,
    /// The first items that are senses from definition files, and the
    /// first that are the word's own (files included): all senses, not
    /// references.
    files: usize,
    own: usize,
    /// The sense items.
    items: usize,
}

/// One item of a page's senses. Read one at a time and passed on by
/// value, never kept in a collection: a sense's size (its borrowed lists)
/// costs a copy on the stack, where a box would cost an allocation a
/// sense.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug)]
pub(crate) enum RawItem<'a> {
    Sense(RawSense<'a>),
    Reference(RawRef<'a>),
}

/// A reference to the senses of a part of speech on a base form's page.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawRef<'a> {
    pub pos: Pos,
    pub via: Via,
    pub base: &'a str,
    pub count: usize,
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

    /// One sense item.
    pub fn item(&mut self) -> Result<RawItem<'a>, Bad> {
        match self.byte()? {
            0 => self.sense().map(RawItem::Sense),
            1 => {
                let (Some(pos), Some(via)) = self.pos_via()? else {
                    return Err("reference without a part of speech or a way");
                };
                let base = self.str()?;
                let count = self.len()?;
                Ok(RawItem::Reference(RawRef {
                    pos,
                    via,
                    base,
                    count,
                }))
            }
            _ => Err("bad sense kind"),
        }
    }

    /// One sense (after its kind).
    fn sense(&mut self) -> Result<RawSense<'a>, Bad> {
        let (pos, via) = self.pos_via()?;
        let definition = self.str()?;
        let examples = self.strs()?;
        let synonyms = self.strs()?;
        let base_form = match self.byte()? {
            0 => None,
            _ => Some(self.str()?),
        };
        let source = self.str()?;
        let capitalised = match self.byte()? {
            0 => None,
            _ => Some(self.str()?),
        };
        let relations = match self.byte()? {
            0 => PageRelations::default(),
            _ => PageRelations {
                antonyms: self.strs()?,
                kind_of: self.strs()?,
                kinds: self.strs()?,
                derived: self.strs()?,
                usage: self.strs()?,
                offensive: match self.byte()? {
                    0 => false,
                    1 => true,
                    _ => return Err("bad offensive flag"),
                },
            },
        };
        Ok(RawSense {
            relations,
            capitalised,
            pos,
            via,
            definition,
            examples,
            synonyms,
            base_form,
            source,
        })
    }

    fn start(text: &'a str) -> Result<(Reader<'a>, Head), Bad> {
        let mut r = Reader { text };
        if r.len()? != VERSION {
            return Err("page of another version");
        }
        let head = Head {
            senses: r.len()?,
            files: r.len()?,
            own: r.len()?,
            items: r.len()?,
        };
        Ok((r, head))
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

/// How a page's senses begin.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum First<'a> {
    /// No senses.
    None,
    /// With a sense of its own: its definition.
    Definition(&'a str),
    /// With a reference to a base form's page.
    Reference,
}

/// How the senses of a page begin (read without checking the rest).
pub(crate) fn first_definition(text: &str) -> Result<First<'_>, Bad> {
    let (mut r, head) = Reader::start(text)?;
    if head.items == 0 {
        return Ok(First::None);
    }
    Ok(match r.item()? {
        RawItem::Sense(s) => First::Definition(s.definition),
        RawItem::Reference(_) => First::Reference,
    })
}
