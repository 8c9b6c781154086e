//! `lexq site build`: one tantivy document per lexicon word, with its
//! definitions (WordNet and files of one's own), inflections mapped to
//! base forms, hooks, anagrams and points.
//!
//! The index is written into a temporary directory beside the output and
//! renamed into place at the end, so a failed build leaves the old site
//! untouched.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use lexq::{Lexicon, Progress};
use tantivy::directory::MmapDirectory;
use tantivy::{Index, IndexSettings, SegmentMeta};

use crate::document::{DocBuffer, WordDoc};
use crate::entry::{Entry, SenseEntry};
use crate::error::{Result, SiteError};
use crate::fingerprint;
use crate::fsutil::{self, TempDir};
pub use crate::meta::{
    BuildSummary, FORMAT, INDEX_DIR, LEXICON_FILE, META_FILE, SiteMeta, WORDNET_LICENCE_FILE,
};
use crate::morphy::{Morphy, Via};
use crate::schema::{self, Fields};
use crate::segments::{self, RunWriter};
use crate::sources::Definitions;
use crate::stored::PageWriter;
use crate::wordnet::{Pos, Relations, Synset, WordNet};

/// What goes into a site build besides the lexicon.
#[derive(Clone, Debug, Default)]
pub struct BuildOptions {
    /// A WordNet database directory (`index.*`, `data.*`, and `*.exc` for
    /// inflections if present).
    pub wordnet: Option<PathBuf>,
    /// Definition files (TSV or JSON Lines).
    pub definitions: Vec<PathBuf>,
    /// Fail on the first bad definition line instead of skipping it.
    pub strict: bool,
    /// A word frequency list (a word and a count a line), ranking
    /// completions and suggestions with WordNet's tag counts (see
    /// [`crate::frequency`]).
    pub frequencies: Option<PathBuf>,
    /// Leave out the senses WordNet gives a word only as the name of a
    /// particular person, place or thing (capitalised, and an instance of
    /// another synset: `Nancy`, the city). Capitalised kinds (`Allium`,
    /// a genus) are kept either way.
    pub hide_names: bool,
    /// Leave out the senses WordNet marks as offensive (see
    /// [`crate::wordnet::Relations::offensive`]): a site for schools or
    /// families may not want them. Shown, and flagged, by default.
    pub hide_offensive: bool,
}

/// The definitions a build draws on.
pub struct Sources {
    wordnet: Option<(WordNet, Morphy)>,
    hide_names: bool,
    hide_offensive: bool,
    files: Definitions,
    frequencies: crate::frequency::Frequencies,
}

impl Sources {
    /// Reads WordNet and the definition files named in `opts`, the files'
    /// words read as `alphabet` reads them (the lexicon's).
    pub fn read(opts: &BuildOptions, alphabet: &lexq::Alphabet) -> Result<Sources> {
        let wordnet = match &opts.wordnet {
            Some(dir) => Some((WordNet::open(dir)?, Morphy::open(dir)?)),
            None => None,
        };
        let mut files = Definitions::new(alphabet);
        for path in &opts.definitions {
            files.read_path(path, opts.strict)?;
        }
        let frequencies = crate::frequency::Frequencies::read(
            opts.wordnet.as_deref(),
            opts.frequencies.as_deref(),
        )?;
        Ok(Sources {
            wordnet,
            hide_names: opts.hide_names,
            hide_offensive: opts.hide_offensive,
            files,
            frequencies,
        })
    }

    /// The WordNet database, if one was read.
    pub fn wordnet(&self) -> Option<&WordNet> {
        self.wordnet.as_ref().map(|w| &w.0)
    }

    /// The senses of `word` (spelled as the lexicon spells it: `CARE`), its
    /// base forms, how the first base form was found, and the
    /// capitalised-only senses left out.
    pub fn senses(&self, word: &str) -> Result<WordSenses> {
        let mut cache = SynsetCache::default();
        let mut plan = Plan::default();
        self.plan(word, &mut cache, &mut plan)?;
        let mut out = WordSenses {
            senses: Vec::with_capacity(plan.items.len()),
            own: plan.own,
            base_forms: plan.bases.iter().map(|b| b.upper.clone()).collect(),
            first_via: plan.first_via,
            proper_left_out: plan.proper_left_out,
            offensive_left_out: plan.offensive_left_out,
        };
        for s in self.sense_refs(word, &plan, &cache) {
            out.senses.push(self.entry_of(&s)?);
        }
        Ok(out)
    }

    /// Finds the senses of `word` (uppercase) into `plan`, parsing the
    /// synsets it needs into `cache`.
    pub(crate) fn plan<'s>(
        &'s self,
        word: &str,
        cache: &mut SynsetCache<'s>,
        plan: &mut Plan,
    ) -> Result<()> {
        plan.clear();
        if let Some(defs) = self.files.words.get(word) {
            plan.items
                .extend((0..defs.len()).map(|i| Item::File(i as u32)));
        }
        let Some((wn, morphy)) = &self.wordnet else {
            plan.own = plan.items.len();
            return Ok(());
        };
        plan.lower.push_str(word);
        plan.lower.make_ascii_lowercase();
        if !plan.lower.bytes().all(|b| b.is_ascii_lowercase()) {
            plan.own = plan.items.len();
            return Ok(());
        }
        let lower = plan.lower.as_str();
        let hide_names = self.hide_names;
        // Whether a synset is left out as offensive, as a sense of `lemma`.
        let offensive = |synset: &Synset<'_>, lemma: &str| -> Result<bool> {
            Ok(self.hide_offensive && wn.offensive(synset, lemma)?)
        };
        // A sense WordNet gives only capitalised comes after the other
        // senses of its part of speech, or not at all if it is a name and
        // names are hidden.
        let mut later = Vec::new();
        let own = wn.all_offsets(lower);
        for (pos, offsets) in own.into_iter().flat_map(|o| Pos::ALL.into_iter().zip(o)) {
            for &offset in offsets {
                let i = cache.get(wn, pos, offset)?;
                let synset = &cache.synsets[i as usize];
                if offensive(synset, lower)? {
                    plan.offensive_left_out += 1;
                } else if !synset.proper_for(lower) {
                    plan.items.push(Item::Own(i));
                } else if hide_names && synset.instance {
                    plan.proper_left_out += 1;
                } else {
                    later.push(Item::Own(i));
                }
            }
            // Each part of speech's senses stay together (a reference
            // from an inflection stands for a run of them).
            plan.items.append(&mut later);
        }
        plan.own = plan.items.len();
        let (items, bases, first_via) = (&mut plan.items, &mut plan.bases, &mut plan.first_via);
        let offensive_left_out = &mut plan.offensive_left_out;
        morphy.each_base_form(wn, lower, &mut plan.spelled, |pos, base, via, offsets| {
            let before = items.len();
            let b = match bases.iter().position(|b| b.lower == base) {
                Some(b) => b,
                None => bases.len(),
            };
            // A base form known only as a name (Saxe, the marshal) is
            // passed over: its names are shown only with a sense of
            // another kind.
            let mut kinds = false;
            for &offset in offsets {
                let i = cache.get(wn, pos, offset)?;
                let synset = &cache.synsets[i as usize];
                if offensive(synset, base)? {
                    *offensive_left_out += 1;
                } else if !synset.proper_for(base) {
                    items.push(Item::Base(i, b as u32, via));
                    kinds = true;
                } else if !(hide_names && synset.instance) {
                    later.push(Item::Base(i, b as u32, via));
                    kinds |= !synset.instance;
                }
            }
            if kinds {
                items.append(&mut later);
            } else {
                later.clear();
            }
            if items.len() > before {
                first_via.get_or_insert(via);
                if b == bases.len() {
                    bases.push(Base {
                        lower: base.to_string(),
                        upper: base.to_ascii_uppercase(),
                    });
                }
            }
            Ok(())
        })
    }

    /// The senses `plan` found for `word`, borrowed from the sources and
    /// `cache`.
    pub(crate) fn sense_refs<'s>(
        &'s self,
        word: &'s str,
        plan: &'s Plan,
        cache: &'s SynsetCache<'_>,
    ) -> impl Iterator<Item = SenseRef<'s>> + 's {
        let files = self.files.words.get(word);
        plan.items.iter().map(move |item| match *item {
            Item::File(i) => {
                let d = &files.expect("a file definition")[i as usize];
                SenseRef {
                    capitalised: None,
                    pos: d.pos,
                    definition: &d.text,
                    examples: &[],
                    synonyms: Synonyms::none(),
                    base_form: None,
                    via: None,
                    source: &d.source,
                }
            }
            Item::Own(i) | Item::Base(i, ..) => {
                let s = &cache.synsets[i as usize];
                // Synonyms are the synset's other lemmas than the word or
                // the base form it was found through.
                let (lemma, base_form, via) = match *item {
                    Item::Base(_, b, via) => {
                        let base = &plan.bases[b as usize];
                        (base.lower.as_str(), Some(base.upper.as_str()), Some(via))
                    }
                    _ => (plan.lower.as_str(), None, None),
                };
                SenseRef {
                    capitalised: s.capitalised_for(lemma),
                    pos: Some(s.pos),
                    definition: &s.definition,
                    examples: &s.examples,
                    synonyms: Synonyms::of(s, lemma),
                    base_form,
                    via,
                    source: "wordnet",
                }
            }
        })
    }
}

impl Sources {
    /// The relations of sense `s` into `out` (empty for a sense from a
    /// definition file).
    pub(crate) fn relations_into(&self, s: &SenseRef<'_>, out: &mut Relations) -> Result<()> {
        match (self.wordnet(), s.synonyms.synset) {
            (Some(wn), Some(synset)) => wn.relations_into(synset, s.synonyms.lemma, out),
            _ => {
                out.clear();
                Ok(())
            }
        }
    }

    /// Sense `s` as an owned [`SenseEntry`].
    pub(crate) fn entry_of(&self, s: &SenseRef<'_>) -> Result<SenseEntry> {
        let mut relations = Relations::default();
        self.relations_into(s, &mut relations)?;
        Ok(SenseEntry {
            pos: s.pos,
            definition: s.definition.to_string(),
            examples: s.examples.iter().map(|e| e.to_string()).collect(),
            synonyms: s.synonyms.iter().map(str::to_string).collect(),
            base_form: s.base_form.map(str::to_string),
            via: s.via,
            source: s.source.to_string(),
            capitalised: s.capitalised.map(str::to_string),
            relations,
        })
    }
}

/// Synsets parsed once per build (per build thread), by part of speech
/// and offset: an inflection's senses are its base form's.
#[derive(Default)]
pub(crate) struct SynsetCache<'w> {
    index: rustc_hash::FxHashMap<u64, u32>,
    synsets: Vec<Synset<'w>>,
}

impl<'w> SynsetCache<'w> {
    fn get(&mut self, wn: &'w WordNet, pos: Pos, offset: u32) -> Result<u32> {
        let key = (pos as u64) << 32 | offset as u64;
        if let Some(&i) = self.index.get(&key) {
            return Ok(i);
        }
        let i = self.synsets.len() as u32;
        self.synsets.push(wn.parse_synset(pos, offset)?);
        self.index.insert(key, i);
        Ok(i)
    }
}

/// One sense of a word, borrowed from the sources.
pub(crate) struct SenseRef<'s> {
    pub pos: Option<Pos>,
    pub definition: &'s str,
    pub examples: &'s [String],
    pub synonyms: Synonyms<'s>,
    pub base_form: Option<&'s str>,
    pub via: Option<Via>,
    pub source: &'s str,
    /// How WordNet spells the word in this sense, if only capitalised.
    pub capitalised: Option<&'s str>,
}

/// A synset's other words as seen from a lemma.
#[derive(Clone)]
pub(crate) struct Synonyms<'s> {
    synset: Option<&'s Synset<'s>>,
    lemma: &'s str,
}

impl<'s> Synonyms<'s> {
    fn none() -> Synonyms<'s> {
        Synonyms {
            synset: None,
            lemma: "",
        }
    }
    fn of(synset: &'s Synset<'s>, lemma: &'s str) -> Synonyms<'s> {
        Synonyms {
            synset: Some(synset),
            lemma,
        }
    }
    fn iter(&self) -> impl Iterator<Item = &'s str> + Clone + 's {
        let lemma = self.lemma;
        self.synset.into_iter().flat_map(move |s| s.synonyms(lemma))
    }
}

/// A base form of a word, in both cases.
pub(crate) struct Base {
    lower: String,
    upper: String,
}

/// Where a word's senses come from.
pub(crate) enum Item {
    /// Its `i`th definition from files.
    File(u32),
    /// A synset of its own (an index in the [`SynsetCache`]).
    Own(u32),
    /// A synset of base form `b`, found that way.
    Base(u32, u32, Via),
}

/// A word's senses, found but not copied: what [`Sources::plan`] fills.
#[derive(Default)]
pub(crate) struct Plan {
    pub lower: String,
    /// Room to spell base forms in.
    spelled: String,
    pub items: Vec<Item>,
    bases: Vec<Base>,
    pub own: usize,
    pub first_via: Option<Via>,
    pub proper_left_out: u64,
    pub offensive_left_out: u64,
}

impl Plan {
    fn clear(&mut self) {
        self.lower.clear();
        self.items.clear();
        self.bases.clear();
        self.own = 0;
        self.first_via = None;
        self.proper_left_out = 0;
        self.offensive_left_out = 0;
    }

    /// The base forms whose senses were added, uppercase.
    pub(crate) fn base_forms(&self) -> impl Iterator<Item = &str> + Clone {
        self.bases.iter().map(|b| b.upper.as_str())
    }
}

/// A word's senses as a build finds them.
#[derive(Debug, Default)]
pub struct WordSenses {
    /// All senses: the word's own first, then its base forms'.
    pub senses: Vec<SenseEntry>,
    /// How many of `senses` are the word's own.
    pub own: usize,
    /// Base forms whose senses were added (uppercase).
    pub base_forms: Vec<String>,
    /// How the first base form was found.
    pub first_via: Option<Via>,
    /// WordNet senses that are names only, left out (see
    /// [`BuildOptions::hide_names`]).
    pub proper_left_out: u64,
    /// WordNet senses marked offensive, left out (see
    /// [`BuildOptions::hide_offensive`]).
    pub offensive_left_out: u64,
}

/// Every word of the lexicon with its tile codes, in alphabet order.
pub fn all_words(lex: &Lexicon) -> Result<Vec<(String, Vec<u8>)>> {
    let words = lex.pattern("*")?;
    Ok(words
        .iter()
        .map(|w| (w.to_string(), w.codes().to_vec()))
        .collect())
}

/// Item `i`'s run in a buffer of items laid end to end, `ends[i]` being
/// where item `i` ends.
fn run(ends: &[u32], i: usize) -> std::ops::Range<usize> {
    let start = match i {
        0 => 0,
        _ => ends[i - 1] as usize,
    };
    start..ends[i] as usize
}

/// What the entries need of the lexicon, computed once for all words:
/// each word's codes and spelling, its anagram group, hooks from the arc
/// table, tile points.
pub(crate) struct WordTable<'a> {
    alphabet: &'a lexq::Alphabet,
    arcs: &'a lexq::raw::Arcs,
    /// Every word's codes, one after another; `ends[i]` is where word `i`
    /// ends (in `codes` and, the spellings being as long, in `text` when
    /// every tile is one ASCII byte).
    codes: Vec<u8>,
    /// Every word's spelling, one after another.
    text: String,
    /// Where word `i`'s spelling ends in `text`.
    text_ends: Vec<u32>,
    code_ends: Vec<u32>,
    /// Word indices sorted by alphagram (then alphabet order): each
    /// anagram group is a run.
    by_alphagram: Vec<u32>,
    /// The run of each word's group in `by_alphagram`.
    group: Vec<(u32, u32)>,
    /// Every word's codes sorted (its alphagram), ending where its codes
    /// end.
    sorted: Vec<u8>,
    /// Tile points of each code.
    points: [u32; 64],
    /// Each word's front and back hooks.
    hooks: Vec<(lexq::LetterSet, lexq::LetterSet)>,
}

impl<'a> WordTable<'a> {
    pub(crate) fn new(lex: &'a Lexicon) -> Result<WordTable<'a>> {
        let alphabet = lex.alphabet();
        let arcs = lex.arcs();
        let words = lex.pattern("*")?;
        let n = words.len();
        let mut codes = Vec::with_capacity(n * 9);
        let mut code_ends = Vec::with_capacity(n);
        let mut text = String::with_capacity(n * 9);
        let mut text_ends = Vec::with_capacity(n);
        for w in words.iter() {
            codes.extend_from_slice(w.codes());
            code_ends.push(codes.len() as u32);
            w.push_to(&mut text);
            text_ends.push(text.len() as u32);
        }
        drop(words);
        // Alphagram keys: the sorted codes, the first 21 packed into a
        // u128 (6 bits each), the rest compared only on ties.
        let mut sorted = codes.clone();
        let mut keyed: Vec<(u128, u32)> = Vec::with_capacity(n);
        let mut s = 0;
        for (i, &e) in code_ends.iter().enumerate() {
            let k = &mut sorted[s..e as usize];
            k.sort_unstable();
            let mut key = 0u128;
            for j in 0..21 {
                key = (key << 6) | k.get(j).copied().unwrap_or(0) as u128;
            }
            keyed.push((key, i as u32));
            s = e as usize;
        }
        let key_of = |i: u32| &sorted[run(&code_ends, i as usize)];
        keyed.sort_unstable_by(|a, b| {
            a.0.cmp(&b.0)
                .then_with(|| key_of(a.1).cmp(key_of(b.1)))
                .then(a.1.cmp(&b.1))
        });
        let by_alphagram: Vec<u32> = keyed.iter().map(|k| k.1).collect();
        let mut group = vec![(0u32, 0u32); n];
        let mut run = 0;
        while run < n {
            let mut end = run + 1;
            while end < n
                && keyed[end].0 == keyed[run].0
                && key_of(keyed[end].1) == key_of(keyed[run].1)
            {
                end += 1;
            }
            for k in &keyed[run..end] {
                group[k.1 as usize] = (run as u32, end as u32);
            }
            run = end;
        }
        let mut table = WordTable {
            alphabet,
            arcs,
            codes,
            text,
            text_ends,
            code_ends,
            by_alphagram,
            group,
            sorted,
            points: crate::entry::point_values(alphabet),
            hooks: Vec::new(),
        };
        table.hooks = table.all_hooks();
        Ok(table)
    }

    /// The hooks of every word, found walking the words in the order of
    /// their reversed spellings: the node after each word read right to
    /// left is reached from the path of the word before it, sharing the
    /// common part (the arc table is read in a few places, not once per
    /// word from the root). Front hook L ends the key "rev(WORD) L", back
    /// hook L the key "rev(WORD) SEP L".
    fn all_hooks(&self) -> Vec<(lexq::LetterSet, lexq::LetterSet)> {
        use lexq::LetterSet;
        let n = self.len();
        let rev_key = |i: usize| {
            let mut key = 0u128;
            let mut it = self.codes(i).iter().rev();
            for _ in 0..21 {
                key = (key << 6) | it.next().copied().unwrap_or(0) as u128;
            }
            key
        };
        let mut order: Vec<(u128, u32)> = (0..n).map(|i| (rev_key(i), i as u32)).collect();
        order.sort_unstable_by(|a, b| {
            a.0.cmp(&b.0).then_with(|| {
                let (x, y) = (self.codes(a.1 as usize), self.codes(b.1 as usize));
                x.iter().rev().cmp(y.iter().rev())
            })
        });
        let g = self.arcs;
        let mut out = vec![(LetterSet::EMPTY, LetterSet::EMPTY); n];
        // path[d] is the node after the first d codes of the reversed word
        // before (path[0] the root); `depth` of them are valid.
        let mut path: Vec<lexq::raw::Node<'_>> = vec![g.root()];
        let mut prev: &[u8] = &[];
        for &(_, i) in &order {
            let codes = self.codes(i as usize);
            let common = prev
                .iter()
                .rev()
                .zip(codes.iter().rev())
                .take_while(|(a, b)| a == b)
                .count()
                .min(path.len() - 1);
            path.truncate(common + 1);
            let mut ok = true;
            for &c in codes.iter().rev().skip(common) {
                match path.last().expect("the root").follow(c) {
                    Some(next) => path.push(next),
                    None => {
                        ok = false;
                        break;
                    }
                }
            }
            if ok {
                let at = *path.last().expect("the root");
                out[i as usize] = (
                    at.ending_letters(),
                    at.separator()
                        .map_or(LetterSet::EMPTY, |n| n.ending_letters()),
                );
            }
            prev = codes;
        }
        out
    }

    /// The number of words.
    pub(crate) fn len(&self) -> usize {
        self.code_ends.len()
    }

    fn codes(&self, i: usize) -> &[u8] {
        &self.codes[run(&self.code_ends, i)]
    }

    fn word(&self, i: usize) -> &str {
        &self.text[run(&self.text_ends, i)]
    }

    /// Whether `word` is a word of the table spelled exactly so (a binary
    /// search of the words, which are in the order of their codes; here
    /// rather than a walk of the arc table, which cost three times as
    /// much in a build).
    fn spells(&self, word: &str) -> bool {
        let Ok(codes) = self.alphabet.encode(word) else {
            return false;
        };
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            match self.codes(mid).cmp(&codes) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return self.word(mid) == word,
            }
        }
        false
    }

    fn letters(&self, set: lexq::LetterSet) -> String {
        let mut out = String::new();
        for c in set.iter() {
            out.push_str(self.alphabet.label(c).unwrap_or("\u{fffd}"));
        }
        out
    }

    /// The hooks of word `i`: front and back letters.
    fn hooks(&self, i: usize) -> (lexq::LetterSet, lexq::LetterSet) {
        self.hooks[i]
    }

    /// The other words of word `i`'s anagram group.
    fn anagrams(&self, i: usize) -> impl Iterator<Item = &str> + Clone {
        let (gs, ge) = self.group[i];
        // Most groups are the word alone: their run in `by_alphagram`
        // (somewhere else in memory for every word) is not read.
        let run = match ge - gs {
            1 => &[][..],
            _ => &self.by_alphagram[gs as usize..ge as usize],
        };
        run.iter()
            .filter(move |&&j| j as usize != i)
            .map(|&j| self.word(j as usize))
    }

    /// Word `i`'s alphagram, spelled into `out`.
    fn alphagram_into(&self, i: usize, out: &mut String) {
        out.clear();
        self.alphabet
            .decode_into(&self.sorted[run(&self.code_ends, i)], out);
    }

    fn points(&self, i: usize) -> u32 {
        self.codes(i)
            .iter()
            .map(|&c| self.points[c as usize & 63])
            .sum()
    }

    /// The entry of word `i`, with its senses from `sources`.
    fn entry<'s>(
        &self,
        i: usize,
        sources: &'s Sources,
        cache: &mut SynsetCache<'s>,
        plan: &mut Plan,
    ) -> Result<(Entry, WordSenses)> {
        let word = self.word(i);
        sources.plan(word, cache, plan)?;
        let (front, back) = self.hooks(i);
        let mut alphagram = String::new();
        self.alphagram_into(i, &mut alphagram);
        let senses = sources
            .sense_refs(word, plan, cache)
            .map(|s| sources.entry_of(&s))
            .collect::<Result<Vec<_>>>()?;
        let base_forms: Vec<String> = plan.base_forms().map(str::to_string).collect();
        let entry = Entry {
            word: word.to_string(),
            valid: true,
            length: self.codes(i).len(),
            points: self.points(i),
            alphagram,
            front_hooks: self.letters(front),
            back_hooks: self.letters(back),
            anagrams: self.anagrams(i).map(str::to_string).collect(),
            base_forms: base_forms.clone(),
            senses,
        };
        let ws = WordSenses {
            senses: Vec::new(),
            own: plan.own,
            base_forms,
            first_via: plan.first_via,
            proper_left_out: plan.proper_left_out,
            offensive_left_out: plan.offensive_left_out,
        };
        Ok((entry, ws))
    }
}

/// The entries of every word of `lex` (without going through an index),
/// in alphabet order, each passed to `each` with its [`WordSenses`] (whose
/// `senses` have been moved into the entry).
pub fn entries(
    lex: &Lexicon,
    sources: &Sources,
    progress: &mut dyn Progress,
    mut each: impl FnMut(Entry, &WordSenses) -> Result<()>,
) -> Result<()> {
    let table = WordTable::new(lex)?;
    let n = table.len();
    progress.stage("indexing", n as u64);
    let mut cache = SynsetCache::default();
    let mut plan = Plan::default();
    for i in 0..n {
        let (entry, ws) = table.entry(i, sources, &mut cache, &mut plan)?;
        each(entry, &ws)?;
        if i % 1024 == 1023 {
            progress.advance(1024);
        }
    }
    progress.advance(n as u64 % 1024);
    Ok(())
}

/// Makes the tantivy documents of words of a [`WordTable`], adding up
/// the build's figures: what each build thread runs.
struct DocMaker<'a> {
    table: &'a WordTable<'a>,
    sources: &'a Sources,
    fields: Fields,
    cache: SynsetCache<'a>,
    plan: Plan,
    page: PageWriter,
    docs: DocBuffer,
    /// The facet of each part of speech.
    facets: [tantivy::schema::Facet; 4],
    text: String,
    /// The word lowercase (for its frequency).
    lower: String,
    /// A sense after the first, as `definition` indexes it.
    sense: String,
    /// Whether each base form of the word is in the lexicon.
    linked: Vec<bool>,
    /// A sense's relations.
    relations: Relations,
    summary: BuildSummary,
    /// Words with definitions from files.
    used: Vec<String>,
}

impl<'a> DocMaker<'a> {
    fn new(table: &'a WordTable<'a>, sources: &'a Sources, fields: Fields) -> DocMaker<'a> {
        DocMaker {
            table,
            sources,
            fields,
            cache: SynsetCache::default(),
            plan: Plan::default(),
            page: PageWriter::default(),
            docs: DocBuffer::default(),
            facets: Pos::ALL.map(schema::pos_facet),
            text: String::new(),
            lower: String::new(),
            sense: String::new(),
            linked: Vec::new(),
            relations: Relations::default(),
            summary: BuildSummary::default(),
            used: Vec::new(),
        }
    }

    /// The document of word `i`.
    fn doc(&mut self, i: usize) -> Result<WordDoc> {
        let (t, f) = (self.table, &self.fields);
        let word = t.word(i);
        self.sources.plan(word, &mut self.cache, &mut self.plan)?;
        let plan = &self.plan;
        let doc = self.docs.next();
        doc.text(f.word, word);
        doc.u64(f.length, t.codes(i).len() as u64);
        t.alphagram_into(i, &mut self.text);
        doc.text(f.alphagram, &self.text);
        doc.u64(f.points, t.points(i) as u64);
        doc.u64(f.senses, plan.items.len() as u64);
        // The word lowercase, in a buffer of its own: `text` holds the
        // alphagram until the page is written.
        self.lower.clear();
        self.lower.extend(word.chars().flat_map(char::to_lowercase));
        let frequency = self
            .sources
            .frequencies
            .of(&self.lower, plan.bases.iter().map(|b| b.lower.as_str()));
        doc.u64(f.frequency, frequency);
        // The senses of base forms in the lexicon are on their own pages:
        // a reference to each run of them (one base form, one part of
        // speech) instead. Only where the base form's page finds them
        // the same way: a word spelled as the reference names it, whose
        // WordNet lemma (its lowercase, letters only) is the base form.
        self.linked.clear();
        self.linked.extend(
            plan.bases
                .iter()
                .map(|b| b.lower.bytes().all(|c| c.is_ascii_lowercase()) && t.spells(&b.upper)),
        );
        let (linked, cache) = (&self.linked, &self.cache);
        let run = |item: &Item| match *item {
            Item::Base(s, b, via) if linked[b as usize] => {
                Some((b, cache.synsets[s as usize].pos, via))
            }
            _ => None,
        };
        let mut items = 0;
        let mut last = None;
        for item in &plan.items {
            let r = run(item);
            if r.is_none() || r != last {
                items += 1;
            }
            last = r;
        }
        let files = plan
            .items
            .iter()
            .take_while(|i| matches!(i, Item::File(_)))
            .count();
        let page = &mut self.page;
        page.start(plan.items.len(), files, plan.own, items);
        let mut seen = [false; 4];
        // The run being counted: base form, part of speech, way, senses.
        let mut pending: Option<((u32, Pos, Via), usize)> = None;
        let senses = self.sources.sense_refs(word, plan, cache);
        let mut first_sense = true;
        for (item, s) in plan.items.iter().zip(senses) {
            if let Some(pos) = s.pos
                && !seen[pos as usize]
            {
                seen[pos as usize] = true;
                doc.facet(f.pos, &self.facets[pos as usize]);
            }
            let r = run(item);
            match (&mut pending, r) {
                (Some((p, n)), Some(r)) if *p == r => {
                    *n += 1;
                    continue;
                }
                _ => {}
            }
            if let Some(((b, pos, via), n)) = pending.take() {
                page.reference(pos, via, &plan.bases[b as usize].upper, n);
            }
            if let Some(r) = r {
                pending = Some((r, 1));
                continue;
            }
            if first_sense {
                doc.text(f.definition, s.definition);
                first_sense = false;
            } else {
                self.sense.clear();
                self.sense.push(schema::NEXT_SENSE);
                self.sense.push_str(s.definition);
                doc.text(f.definition, &self.sense);
            }
            self.sources.relations_into(&s, &mut self.relations)?;
            for w in s.synonyms.iter() {
                doc.text(f.synonym, w);
            }
            for (field, words) in [
                (f.antonym, &self.relations.antonyms),
                (f.kind_of, &self.relations.kind_of),
            ] {
                for w in words {
                    doc.text(field, w);
                }
            }
            page.sense(
                s.pos,
                s.via,
                s.definition,
                s.examples.iter().map(String::as_str),
                s.synonyms.iter(),
                s.base_form,
                s.source,
                s.capitalised,
                Some(&self.relations),
            );
        }
        if let Some(((b, pos, via), n)) = pending {
            page.reference(pos, via, &plan.bases[b as usize].upper, n);
        }
        page.str(&self.text);
        let (front, back) = t.hooks(i);
        for (field, letters) in [(f.front_hooks, front), (f.back_hooks, back)] {
            self.text.clear();
            for c in letters.iter() {
                let label = t.alphabet.label(c).unwrap_or("\u{fffd}");
                doc.text(field, label);
                self.text.push_str(label);
            }
            page.str(&self.text);
        }
        for a in t.anagrams(i) {
            doc.text(f.anagrams, a);
        }
        page.list(t.anagrams(i));
        for b in plan.base_forms() {
            doc.text(f.base_form, b);
        }
        page.list(plan.base_forms());
        doc.page(f.page, &mut page.text);
        let sum = &mut self.summary;
        sum.documents += 1;
        sum.senses += plan.items.len() as u64;
        sum.proper_left_out += plan.proper_left_out;
        sum.offensive_left_out += plan.offensive_left_out;
        if plan.own > 0 {
            sum.direct += 1;
        } else if !plan.items.is_empty() {
            sum.via_base += 1;
            match plan.first_via {
                Some(Via::Exception) => sum.via_exception += 1,
                _ => sum.via_rule += 1,
            }
        }
        if self.sources.files.words.contains_key(word) {
            self.used.push(word.to_string());
        }
        Ok(self.docs.doc())
    }
}

/// The fewest words worth a segment of their own.
const MIN_PART: usize = 4096;

/// The memory budget of each segment writer (it never flushes early: the
/// words of a part make one segment).
const SEGMENT_BUDGET: usize = 400_000_000;

/// What each thread of a build shares.
#[derive(Clone, Copy)]
struct Part<'a> {
    index: &'a Index,
    table: &'a WordTable<'a>,
    sources: &'a Sources,
    fields: Fields,
    /// Words done, by all threads.
    done: &'a AtomicU64,
}

impl<'a> Part<'a> {
    /// Indexes words `range` into a segment of their own on this thread;
    /// the thread given `progress` reports everyone's.
    fn index(
        self,
        range: std::ops::Range<usize>,
        mut progress: Option<&mut dyn Progress>,
    ) -> Result<(DocMaker<'a>, SegmentMeta, u64)> {
        let mut writer = RunWriter::new(self.index, SEGMENT_BUDGET).map_err(index_err)?;
        let mut maker = DocMaker::new(self.table, self.sources, self.fields);
        let mut reported = 0;
        let mut pending: u64 = 0;
        for i in range {
            writer.add(maker.doc(i)?).map_err(index_err)?;
            pending += 1;
            if pending == 1024 {
                let done = self.done.fetch_add(pending, Ordering::Relaxed) + pending;
                pending = 0;
                if let Some(p) = progress.as_mut() {
                    p.advance(done - reported);
                    reported = done;
                }
            }
        }
        self.done.fetch_add(pending, Ordering::Relaxed);
        let meta = writer.finish().map_err(index_err)?;
        Ok((maker, meta, reported))
    }
}

fn index_err(e: tantivy::TantivyError) -> SiteError {
    SiteError::Index(e)
}

/// Builds the site directory `out` for `lex`; `lexicon_file` is the file
/// the lexicon was opened from (copied into the site), if any.
///
/// ```no_run
/// use lexq_site::build::{BuildOptions, build};
/// let lex = lexq::Lexicon::embedded();
/// let opts = BuildOptions { wordnet: Some("target/wordnet".into()), ..Default::default() };
/// let summary = build(&lex, None, &opts, "site".as_ref(), &mut ())?;
/// println!("{}", summary.line("site".as_ref()));
/// # Ok::<(), lexq_site::SiteError>(())
/// ```
pub fn build(
    lex: &Lexicon,
    lexicon_file: Option<&Path>,
    opts: &BuildOptions,
    out: &Path,
    progress: &mut dyn Progress,
) -> Result<BuildSummary> {
    let start = Instant::now();
    fsutil::check_replaceable(out, META_FILE)?;
    progress.stage("reading definitions", 0);
    // The lexicon's side (anagram groups, the arc table) on a thread of
    // its own while WordNet is read.
    let (sources, table) = std::thread::scope(|scope| {
        let table = scope.spawn(|| WordTable::new(lex));
        let sources = Sources::read(opts, lex.alphabet());
        let table = table.join().unwrap_or_else(|_| {
            Err(SiteError::BadSite {
                path: PathBuf::new(),
                reason: "a build thread panicked".into(),
            })
        });
        Ok::<_, SiteError>((sources?, table?))
    })?;
    let tmp = TempDir::beside(out)?;
    let index_dir = tmp.path().join(INDEX_DIR);
    std::fs::create_dir(&index_dir).map_err(|e| SiteError::io(&index_dir, e))?;
    let (schema, fields) = Fields::schema();
    let dir = MmapDirectory::open(&index_dir).map_err(|e| SiteError::Index(e.into()))?;
    let settings = IndexSettings {
        docstore_blocksize: 16_384,
        docstore_compress_dedicated_thread: false,
        ..IndexSettings::default()
    };
    let index = Index::create(dir, schema, settings).map_err(index_err)?;
    schema::register_tokenizers(&index);
    let n = table.len();
    progress.stage("indexing", n as u64);
    // One segment per thread this process may run (at most 4), each with
    // a run of words in alphabet order; one segment on one core.
    let threads = std::thread::available_parallelism().map_or(1, |t| t.get().min(4));
    let parts = threads.min(n.div_ceil(MIN_PART)).max(1);
    let ranges: Vec<std::ops::Range<usize>> = (0..parts)
        .map(|k| k * n / parts..(k + 1) * n / parts)
        .collect();
    let done = AtomicU64::new(0);
    let made: Vec<Result<(DocMaker<'_>, SegmentMeta, u64)>> = std::thread::scope(|scope| {
        let ctx = Part {
            index: &index,
            table: &table,
            sources: &sources,
            fields,
            done: &done,
        };
        let others: Vec<_> = ranges[1..]
            .iter()
            .map(|r| {
                let r = r.clone();
                scope.spawn(move || ctx.index(r, None))
            })
            .collect();
        let mut made = vec![ctx.index(ranges[0].clone(), Some(&mut *progress))];
        made.extend(others.into_iter().map(|h| {
            h.join().unwrap_or_else(|_| {
                Err(SiteError::BadSite {
                    path: PathBuf::new(),
                    reason: "a build thread panicked".into(),
                })
            })
        }));
        made
    });
    let makers = made.into_iter().collect::<Result<Vec<_>>>()?;
    progress.advance((n as u64).saturating_sub(makers[0].2));
    progress.stage("writing", 0);
    let order: Vec<SegmentMeta> = makers.iter().map(|m| m.1.clone()).collect();
    segments::write_meta(&index, order).map_err(index_err)?;
    let index_meta = index_dir.join("meta.json");
    let index_meta_crc32c =
        crc32c::crc32c(&std::fs::read(&index_meta).map_err(|e| SiteError::io(&index_meta, e))?);
    let mut words = fingerprint::Hasher::default();
    for i in 0..n {
        words.add(table.word(i));
    }
    let mut summary = BuildSummary::default();
    let mut used: std::collections::HashSet<&str> = Default::default();
    for (m, _, _) in &makers {
        let s = &m.summary;
        summary.documents += s.documents;
        summary.senses += s.senses;
        summary.proper_left_out += s.proper_left_out;
        summary.offensive_left_out += s.offensive_left_out;
        summary.direct += s.direct;
        summary.via_base += s.via_base;
        summary.via_exception += s.via_exception;
        summary.via_rule += s.via_rule;
        used.extend(m.used.iter().map(String::as_str));
    }
    for (w, d) in &sources.files.words {
        if !used.contains(w.as_str()) {
            summary.unused_definitions += d.len() as u64;
            summary.unused_words.push(w.clone());
        }
    }
    summary.unused_words.sort_unstable();
    summary.bad_lines = sources.files.bad.clone();

    let mut copied = false;
    if let Some(file) = lexicon_file {
        let dest = tmp.path().join(LEXICON_FILE);
        std::fs::copy(file, &dest).map_err(|e| SiteError::io(file, e))?;
        copied = true;
    }
    if let Some(wn) = sources.wordnet() {
        fsutil::write(
            &tmp.path().join(WORDNET_LICENCE_FILE),
            wn.licence().as_bytes(),
        )?;
    }
    summary.seconds = start.elapsed().as_secs_f64();
    let mut meta = SiteMeta {
        format: FORMAT,
        lexicon: lex.source().display().to_string(),
        lexicon_copied: copied,
        wordnet: opts.wordnet.as_ref().map(|p| p.display().to_string()),
        definitions: opts
            .definitions
            .iter()
            .map(|p| p.display().to_string())
            .collect(),
        summary: summary.clone(),
        word_list: words.finish(),
        lexicon_crc32c: crc32c::crc32c(lex.file_bytes()),
        index_meta_crc32c,
    };
    // The size with site.json itself (written twice: its size is in it).
    let meta_path = tmp.path().join(META_FILE);
    crate::meta::write(&meta_path, &meta)?;
    summary.bytes = fsutil::dir_size(tmp.path())?;
    meta.summary.bytes = summary.bytes;
    crate::meta::write(&meta_path, &meta)?;
    tmp.replace(out, META_FILE)?;
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}
