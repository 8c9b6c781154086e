//! `lexq site build`: one tantivy document per lexicon word, with its
//! definitions (WordNet and files of one's own), inflections mapped to
//! base forms, hooks, anagrams and points.
//!
//! The index is written into a temporary directory beside the output and
//! renamed into place at the end, so a failed build leaves the old site
//! untouched.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use lexq::{Lexicon, Progress};
use serde::{Deserialize, Serialize};
use tantivy::{Index, IndexSettings, TantivyDocument};

use crate::entry::{Entry, SenseEntry, word_points};
use crate::error::{Result, SiteError};
use crate::fsutil::{self, TempDir};
use crate::morphy::{Morphy, Via};
use crate::schema::{self, Fields};
use crate::sources::{BadLine, Definitions};
use crate::wordnet::{Pos, WordNet};

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
}

/// What a site build did.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct BuildSummary {
    /// Documents written: one per lexicon word.
    pub documents: u64,
    /// Words with senses of their own.
    pub direct: u64,
    /// Words with senses only through base forms.
    pub via_base: u64,
    /// Of those, words whose base form came from an exception list.
    pub via_exception: u64,
    /// Of those, words whose base form came from a detachment rule.
    pub via_rule: u64,
    /// Senses written in all.
    pub senses: u64,
    /// WordNet senses left out as belonging only to a capitalised form
    /// (`AA` as Alcoholics Anonymous).
    pub proper_left_out: u64,
    /// Definitions read from files whose word is not in the lexicon.
    pub unused_definitions: u64,
    /// Bytes of the site directory.
    pub bytes: u64,
    /// Seconds the build took.
    pub seconds: f64,
    /// Definition lines skipped as unusable.
    #[serde(skip)]
    pub bad_lines: Vec<BadLine>,
}

impl BuildSummary {
    /// Words with at least one sense.
    pub fn defined(&self) -> u64 {
        self.direct + self.via_base
    }

    /// The one-line summary `lexq site build` prints.
    pub fn line(&self, out: &Path) -> String {
        let pct = |n: u64| 100.0 * n as f64 / self.documents.max(1) as f64;
        format!(
            "{}: {} documents; {} words defined ({:.1}%): {} directly, {} through base forms ({} exception lists, {} rules); {} senses; {} bytes; {:.2} s",
            out.display(),
            self.documents,
            self.defined(),
            pct(self.defined()),
            self.direct,
            self.via_base,
            self.via_exception,
            self.via_rule,
            self.senses,
            self.bytes,
            self.seconds
        )
    }
}

/// The file describing a site directory.
pub const META_FILE: &str = "site.json";
/// The copy of the lexicon file inside a site directory.
pub const LEXICON_FILE: &str = "lexicon.lexq";
/// WordNet's licence notice inside a site directory or export.
pub const WORDNET_LICENCE_FILE: &str = "WORDNET-LICENSE.txt";
/// The tantivy index's folder inside a site directory.
pub const INDEX_DIR: &str = "index";
/// The site format this version writes.
pub const FORMAT: u32 = 1;

/// What `site.json` holds.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SiteMeta {
    /// The site format version.
    pub format: u32,
    /// Where the lexicon came from (a path, or `<embedded>`).
    pub lexicon: String,
    /// Whether the site holds its own copy of the lexicon file.
    pub lexicon_copied: bool,
    /// The WordNet directory used, if any.
    pub wordnet: Option<String>,
    /// The definition files used.
    pub definitions: Vec<String>,
    /// The build's figures.
    pub summary: BuildSummary,
}

/// Per-sense data stored beside each `definition` value.
#[derive(Serialize, Deserialize)]
pub(crate) struct SenseExtra {
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub pos: Option<Pos>,
    #[serde(skip_serializing_if = "Vec::is_empty", default, rename = "ex")]
    pub examples: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty", default, rename = "syn")]
    pub synonyms: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none", default, rename = "base")]
    pub base_form: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub via: Option<Via>,
    #[serde(rename = "src")]
    pub source: String,
}

/// [`SenseExtra`] borrowed from a sense, for writing.
#[derive(Serialize)]
struct SenseExtraRef<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    pos: Option<Pos>,
    #[serde(skip_serializing_if = "<[String]>::is_empty", rename = "ex")]
    examples: &'a [String],
    #[serde(skip_serializing_if = "<[String]>::is_empty", rename = "syn")]
    synonyms: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none", rename = "base")]
    base_form: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    via: Option<Via>,
    #[serde(rename = "src")]
    source: &'a str,
}

/// The definitions a build draws on.
pub struct Sources {
    wordnet: Option<(WordNet, Morphy)>,
    files: Definitions,
}

impl Sources {
    /// Reads WordNet and the definition files named in `opts`.
    pub fn read(opts: &BuildOptions) -> Result<Sources> {
        let wordnet = match &opts.wordnet {
            Some(dir) => Some((WordNet::open(dir)?, Morphy::open(dir)?)),
            None => None,
        };
        let mut files = Definitions::default();
        for path in &opts.definitions {
            files.read_path(path, opts.strict)?;
        }
        Ok(Sources { wordnet, files })
    }

    /// The WordNet database, if one was read.
    pub fn wordnet(&self) -> Option<&WordNet> {
        self.wordnet.as_ref().map(|w| &w.0)
    }

    /// The senses of `word` (uppercase), its base forms, how the first
    /// base form was found, and the capitalised-only senses left out.
    pub fn senses(&self, word: &str) -> Result<WordSenses> {
        let mut out = WordSenses::default();
        if let Some(defs) = self.files.words.get(word) {
            for d in defs {
                out.senses.push(SenseEntry {
                    pos: d.pos,
                    definition: d.text.clone(),
                    examples: Vec::new(),
                    synonyms: Vec::new(),
                    base_form: None,
                    via: None,
                    source: d.source.clone(),
                });
            }
        }
        let Some((wn, morphy)) = &self.wordnet else {
            out.own = out.senses.len();
            return Ok(out);
        };
        let lower = word.to_ascii_lowercase();
        if !lower.bytes().all(|b| b.is_ascii_lowercase()) {
            out.own = out.senses.len();
            return Ok(out);
        }
        let (direct, proper) = wn.lookup(&lower, None)?;
        out.proper_left_out = proper as u64;
        out.senses
            .extend(direct.into_iter().map(|s| wordnet_sense(s, None)));
        out.own = out.senses.len();
        for pos in Pos::ALL {
            for (base, via) in morphy.base_forms(wn, &lower, pos) {
                let upper = base.to_ascii_uppercase();
                let (senses, _) = wn.lookup(&base, Some(pos))?;
                if senses.is_empty() {
                    continue;
                }
                out.first_via.get_or_insert(via);
                if !out.base_forms.contains(&upper) {
                    out.base_forms.push(upper.clone());
                }
                out.senses.extend(
                    senses
                        .into_iter()
                        .map(|s| wordnet_sense(s, Some((upper.clone(), via)))),
                );
            }
        }
        Ok(out)
    }
}

fn wordnet_sense(s: crate::wordnet::Sense, base: Option<(String, Via)>) -> SenseEntry {
    let (base_form, via) = match base {
        Some((b, v)) => (Some(b), Some(v)),
        None => (None, None),
    };
    SenseEntry {
        pos: Some(s.pos),
        definition: s.definition,
        examples: s.examples,
        synonyms: s.synonyms,
        base_form,
        via,
        source: "wordnet".into(),
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
    /// WordNet senses of capitalised forms only, left out.
    pub proper_left_out: u64,
}

/// Every word of the lexicon with its tile codes, in alphabet order.
pub fn all_words(lex: &Lexicon) -> Result<Vec<(String, Vec<u8>)>> {
    let words = lex.pattern("*")?;
    Ok(words
        .iter()
        .map(|w| (w.to_string(), w.codes().to_vec()))
        .collect())
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
    let alphabet = lex.alphabet();
    let words = all_words(lex)?;
    // Anagram groups by sorted codes.
    let mut groups: HashMap<Vec<u8>, Vec<u32>> = HashMap::with_capacity(words.len());
    let mut sorted_codes = Vec::with_capacity(words.len());
    for (i, (_, codes)) in words.iter().enumerate() {
        let mut key = codes.clone();
        key.sort_unstable();
        groups.entry(key.clone()).or_default().push(i as u32);
        sorted_codes.push(key);
    }
    progress.stage("indexing", words.len() as u64);
    for (i, (word, codes)) in words.iter().enumerate() {
        let key = &sorted_codes[i];
        let anagrams = groups[key]
            .iter()
            .filter(|&&j| j as usize != i)
            .map(|&j| words[j as usize].0.clone())
            .collect();
        let hooks = lex.hooks(word)?;
        let mut ws = sources.senses(word)?;
        let entry = Entry {
            word: word.clone(),
            valid: true,
            length: codes.len(),
            points: word_points(alphabet, codes),
            alphagram: alphabet.decode(key),
            front_hooks: hooks.front_letters(),
            back_hooks: hooks.back_letters(),
            anagrams,
            base_forms: ws.base_forms.clone(),
            senses: std::mem::take(&mut ws.senses),
        };
        each(entry, &ws)?;
        if i % 1024 == 1023 {
            progress.advance(1024);
        }
    }
    progress.advance(words.len() as u64 % 1024);
    Ok(())
}

/// The tantivy document of an entry.
pub(crate) fn document(
    f: &Fields,
    alphabet: &lexq::Alphabet,
    e: &Entry,
) -> Result<TantivyDocument> {
    let mut doc = TantivyDocument::default();
    doc.add_text(f.word, &e.word);
    doc.add_u64(f.length, e.length as u64);
    doc.add_text(f.alphagram, &e.alphagram);
    doc.add_u64(f.points, e.points as u64);
    doc.add_u64(f.senses, e.senses.len() as u64);
    let mut seen = [false; 4];
    for s in &e.senses {
        doc.add_text(f.definition, &s.definition);
        let extra = SenseExtraRef {
            pos: s.pos,
            examples: &s.examples,
            synonyms: &s.synonyms,
            base_form: s.base_form.as_deref(),
            via: s.via,
            source: &s.source,
        };
        let json = serde_json::to_string(&extra).map_err(|e| SiteError::BadSite {
            path: PathBuf::new(),
            reason: e.to_string(),
        })?;
        doc.add_text(f.sense, json);
        if let Some(pos) = s.pos
            && !seen[pos as usize]
        {
            seen[pos as usize] = true;
            doc.add_facet(f.pos, schema::pos_facet(pos));
        }
    }
    for b in &e.base_forms {
        doc.add_text(f.base_form, b);
    }
    for (field, letters) in [
        (f.front_hooks, &e.front_hooks),
        (f.back_hooks, &e.back_hooks),
    ] {
        let mut rest = letters.as_str();
        while let Some((_, len)) = alphabet.tile_at(rest) {
            doc.add_text(field, &rest[..len]);
            rest = &rest[len..];
        }
    }
    for a in &e.anagrams {
        doc.add_text(f.anagrams, a);
    }
    Ok(doc)
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
    let sources = Sources::read(opts)?;
    let tmp = TempDir::beside(out)?;
    let index_dir = tmp.path().join(INDEX_DIR);
    std::fs::create_dir(&index_dir).map_err(|e| SiteError::io(&index_dir, e))?;
    let (schema, fields) = Fields::schema();
    let index = Index::builder()
        .schema(schema)
        .settings(IndexSettings {
            docstore_blocksize: 16_384,
            ..IndexSettings::default()
        })
        .create_in_dir(&index_dir)
        .map_err(index_err)?;
    schema::register_tokenizers(&index);
    // One indexing thread: one segment; this thread prepares the entries
    // while tantivy's thread indexes them.
    let mut writer = index
        .writer_with_num_threads::<TantivyDocument>(1, 400_000_000)
        .map_err(index_err)?;
    let mut summary = BuildSummary::default();
    let mut used: std::collections::HashSet<String> = Default::default();
    let alphabet = lex.alphabet();
    entries(lex, &sources, progress, |entry, ws| {
        summary.documents += 1;
        summary.senses += entry.senses.len() as u64;
        summary.proper_left_out += ws.proper_left_out;
        if ws.own > 0 {
            summary.direct += 1;
        } else if !entry.senses.is_empty() {
            summary.via_base += 1;
            match ws.first_via {
                Some(Via::Exception) => summary.via_exception += 1,
                _ => summary.via_rule += 1,
            }
        }
        if sources.files.words.contains_key(&entry.word) {
            used.insert(entry.word.clone());
        }
        writer
            .add_document(document(&fields, alphabet, &entry)?)
            .map_err(index_err)?;
        Ok(())
    })?;
    progress.stage("writing", 0);
    writer.commit().map_err(index_err)?;
    writer.wait_merging_threads().map_err(index_err)?;
    summary.unused_definitions = sources
        .files
        .words
        .iter()
        .filter(|(w, _)| !used.contains(*w))
        .map(|(_, d)| d.len() as u64)
        .sum();
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
    };
    // The size with site.json itself (written twice: its size is in it).
    let meta_path = tmp.path().join(META_FILE);
    write_meta(&meta_path, &meta)?;
    summary.bytes = fsutil::dir_size(tmp.path())?;
    meta.summary.bytes = summary.bytes;
    write_meta(&meta_path, &meta)?;
    tmp.replace(out, META_FILE)?;
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}

fn write_meta(path: &Path, meta: &SiteMeta) -> Result<()> {
    let json = serde_json::to_vec_pretty(meta).map_err(|e| SiteError::io(path, e.into()))?;
    fsutil::write(path, &json)
}
