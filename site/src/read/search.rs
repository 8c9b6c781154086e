//! [`Site`]: an opened site directory. Word pages come from the index by
//! exact term lookup; definition searches use tantivy's query syntax.

use std::path::{Path, PathBuf};

use lexq::Lexicon;
use serde::Serialize;
use tantivy::collector::{Count, TopDocs};
use tantivy::schema::document::{DeserializeError, DocumentDeserialize, DocumentDeserializer};
use tantivy::schema::{IndexRecordOption, OwnedValue, Value};
use tantivy::{DocAddress, DocSet, Index, IndexReader, ReloadPolicy, TantivyDocument, Term};

use crate::build::{self, SiteMeta};
use crate::collect::Stopping;
use crate::cost::{Halt, Meter, QueryBounds, Stop};
use crate::entry::Entry;
use crate::error::{Result, SiteError};
use crate::page::Page;
use crate::query::{self, Refused};
use crate::schema::{self, Fields};
use crate::stored::{self, First};

/// The longest search query taken, in bytes.
pub const MAX_QUERY_LEN: usize = 1024;

/// An opened site directory (see [`crate::build::build`]).
///
/// ```no_run
/// let site = lexq_site::Site::open("site".as_ref())?;
/// let care = site.entry("cares")?.expect("a word");
/// assert_eq!(care.base_forms, ["CARE"]);
/// let hits = site.search("definition:\"chewed as a stimulant\"", 10, 0)?;
/// println!("{} words", hits.total);
/// # Ok::<(), lexq_site::SiteError>(())
/// ```
pub struct Site {
    dir: PathBuf,
    index: Index,
    reader: IndexReader,
    fields: Fields,
    parser: query::Parser,
    meta: SiteMeta,
    /// Read on first use ([`Site::frequencies`]).
    frequencies: std::sync::OnceLock<crate::frequency::FrequencyTable>,
}

impl std::fmt::Debug for Site {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Site").field("dir", &self.dir).finish()
    }
}

/// The stored values of a document that pages and results read (the
/// word, its length and points, the page), moved out of the store's
/// decoder as they come.
#[derive(Default)]
struct PageDoc {
    word: String,
    length: u64,
    points: u64,
    page: Option<String>,
}

impl PageDoc {
    /// The stored fields of the site schema (the same numbers in every
    /// site of this format: [`Fields::of`] checks them).
    fn fields() -> &'static Fields {
        static FIELDS: std::sync::OnceLock<Fields> = std::sync::OnceLock::new();
        FIELDS.get_or_init(|| Fields::schema().1)
    }
}

impl DocumentDeserialize for PageDoc {
    fn deserialize<'de, D>(mut d: D) -> std::result::Result<Self, DeserializeError>
    where
        D: DocumentDeserializer<'de>,
    {
        let f = PageDoc::fields();
        let mut doc = PageDoc::default();
        while let Some((field, value)) = d.next_field::<OwnedValue>()? {
            match value {
                OwnedValue::Str(s) if field == f.word => doc.word = s,
                OwnedValue::U64(n) if field == f.length => doc.length = n,
                OwnedValue::U64(n) if field == f.points => doc.points = n,
                OwnedValue::Str(p) if field == f.page => doc.page = Some(p),
                _ => {}
            }
        }
        Ok(doc)
    }
}

/// One search result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Hit {
    /// The word.
    pub word: String,
    /// Its length in tiles.
    pub length: u64,
    /// Its tile points.
    pub points: u64,
    /// The definition of its sense that matched the query best (the one
    /// holding most of the query's definition words, rarer words
    /// counting more; the first of those), or its first definition if
    /// none holds any, or none.
    pub definition: Option<String>,
    /// Where the query's definition words are in `definition`: byte
    /// ranges `[start, end)` of its UTF-8, in order (empty if none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub highlights: Vec<(usize, usize)>,
    /// The relevance score.
    pub score: f32,
}

/// A page of search results and the total count.
#[derive(Clone, Debug, Serialize)]
pub struct Hits {
    /// How many documents match in all.
    pub total: usize,
    /// The results asked for, best first.
    pub hits: Vec<Hit>,
    /// The reads (postings, positions, documents: see
    /// [`QueryBounds::max_reads`]) the query was estimated to make before
    /// it ran.
    #[serde(skip)]
    pub estimated_reads: u64,
    /// The reads it made.
    #[serde(skip)]
    pub reads: u64,
}

/// A search query built and costed, not yet run (see [`Site::prepare`]):
/// its searcher (the index as it was when it was built), its meter (its
/// [`Stop`] and bound) and its plan.
pub(crate) struct Prepared {
    query: String,
    max_reads: u64,
    searcher: tantivy::Searcher,
    meter: std::sync::Arc<Meter>,
    plan: query::Plan,
}

impl Prepared {
    /// The reads it was estimated to make.
    pub(crate) fn reads(&self) -> u64 {
        self.plan.reads
    }

    /// The query as given.
    pub(crate) fn query(&self) -> &str {
        &self.query
    }
}

/// Checks every file of `index`'s segments (in `dir`) against the
/// checksum in its footer: a changed byte is refused, not searched (tantivy
/// reads them as they are, and answers wrongly).
fn check_checksums(index: &Index, dir: &Path) -> std::result::Result<(), String> {
    let metas = index
        .searchable_segment_metas()
        .map_err(|e| format!("index: {e}"))?;
    let ids: Vec<String> = metas.iter().map(|m| m.id().uuid_string()).collect();
    let entries = std::fs::read_dir(dir).map_err(|e| format!("index: {e}"))?;
    let mut checked = 0;
    for entry in entries {
        let name = entry.map_err(|e| format!("index: {e}"))?.file_name();
        let name = name.to_string_lossy();
        if !ids.iter().any(|id| name.starts_with(id.as_str())) {
            continue;
        }
        match index
            .directory()
            .validate_checksum(Path::new(name.as_ref()))
        {
            Ok(true) => checked += 1,
            Ok(false) => {
                return Err(format!(
                    "index file {name} is damaged (its checksum does not match)"
                ));
            }
            Err(e) => return Err(format!("index file {name}: {e}")),
        }
    }
    if checked < ids.len() {
        return Err("index: segment files are missing".into());
    }
    Ok(())
}

/// Refuses an index folder holding a FIFO, a device or a socket (through
/// a symlink too): tantivy opens its files by name, and would wait on a
/// FIFO for ever. A missing folder is left to tantivy to report.
fn only_regular_files(dir: &Path) -> std::result::Result<(), String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    for entry in entries {
        let path = entry.map_err(|e| format!("index: {e}"))?.path();
        let meta = std::fs::metadata(&path).map_err(|e| format!("index: {e}"))?;
        if !meta.is_file() && !meta.is_dir() {
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            return Err(format!("index file {name} is not a regular file"));
        }
    }
    Ok(())
}

/// Every regular file of the index folder `dir`, read into a directory in
/// memory (special files were refused before).
fn read_index(dir: &Path) -> std::result::Result<tantivy::directory::RamDirectory, String> {
    use std::io::Read;
    use tantivy::Directory;
    let ram = tantivy::directory::RamDirectory::create();
    let entries = std::fs::read_dir(dir).map_err(|e| format!("index: {e}"))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("index: {e}"))?;
        let name = entry.file_name();
        // tantivy's lock files (`.tantivy-meta.lock`, left on disk by
        // any process that opened the folder in place, `lexq site search`
        // among them) are locks, not data: copied, the copy's lock reads
        // as held, and the index cannot be read ("LockBusy").
        let lossy = name.to_string_lossy();
        if lossy.starts_with(".tantivy-") && lossy.ends_with(".lock") {
            continue;
        }
        let mut file = match std::fs::File::open(entry.path()) {
            Ok(f) => f,
            Err(e) => return Err(format!("index file {}: {e}", name.to_string_lossy())),
        };
        // Checked on the file opened: a regular file, not one swapped in.
        if !file.metadata().is_ok_and(|m| m.is_file()) {
            continue;
        }
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .map_err(|e| format!("index file {}: {e}", name.to_string_lossy()))?;
        ram.atomic_write(Path::new(&name), &bytes)
            .map_err(|e| format!("index: {e}"))?;
    }
    Ok(ram)
}

impl Site {
    /// Opens the site directory `dir`, checking the checksums of its
    /// `site.json` and of its index files. The index files are memory-
    /// mapped: they must not change while the site is open ([`Site::load`]
    /// reads them into memory instead).
    pub fn open(dir: &Path) -> Result<Site> {
        Site::open_from(dir, false)
    }

    /// Opens the site directory `dir` as [`Site::open`] does, with every
    /// file of its index read into memory first (the ENABLE site's are
    /// 24 MB): what a server keeps open, so that an index file truncated or
    /// rewritten under it (a deploy by `cp` over the live folder, `rsync
    /// --inplace`) can neither fault a read (a mapped page past a file's
    /// new end is SIGBUS) nor change what is answered. Checksums are
    /// checked on the copy in memory.
    pub fn load(dir: &Path) -> Result<Site> {
        Site::open_from(dir, true)
    }

    fn open_from(dir: &Path, in_memory: bool) -> Result<Site> {
        let bad = |reason: String| SiteError::BadSite {
            path: dir.to_path_buf(),
            reason,
        };
        let meta = crate::meta::read(dir)?;
        let index_dir = dir.join(build::INDEX_DIR);
        only_regular_files(&index_dir).map_err(bad)?;
        let index = if in_memory {
            let ram = read_index(&index_dir).map_err(bad)?;
            Index::open(ram)
        } else {
            Index::open_in_dir(&index_dir)
        }
        .map_err(|e| bad(format!("index: {e}")))?;
        check_checksums(&index, &index_dir).map_err(bad)?;
        schema::register_tokenizers(&index);
        let fields = Fields::of(&index.schema()).map_err(bad)?;
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()
            .map_err(|e| bad(format!("index: {e}")))?;
        let parser = query::Parser::new(&index, &fields);
        Ok(Site {
            dir: dir.to_path_buf(),
            index,
            reader,
            fields,
            parser,
            meta,
            frequencies: std::sync::OnceLock::new(),
        })
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// What `site.json` says: sources and build figures.
    pub fn meta(&self) -> &SiteMeta {
        &self.meta
    }

    /// The tantivy index, for queries of one's own.
    pub fn index(&self) -> &Index {
        &self.index
    }

    /// The index's fields.
    pub fn fields(&self) -> &Fields {
        &self.fields
    }

    /// WordNet's licence notice if the site was built with WordNet.
    pub fn licence(&self) -> Option<String> {
        // A regular file only (a FIFO in its place would block the reader).
        let path = self.dir.join(build::WORDNET_LICENCE_FILE);
        let bytes = crate::fsutil::read_capped(&path, "a licence file").ok()?;
        String::from_utf8(bytes).ok()
    }

    /// The site's lexicon: its own copy of the lexicon file if it has one,
    /// else the embedded default.
    pub fn lexicon(&self) -> Result<Lexicon> {
        if self.meta.lexicon_copied {
            Ok(Lexicon::open_checked(self.dir.join(build::LEXICON_FILE))?)
        } else {
            Ok(Lexicon::embedded())
        }
    }

    /// [`Site::lexicon`], its file read into memory rather than mapped
    /// ([`Lexicon::open_checked`]): for a server, as [`Site::load`].
    pub fn load_lexicon(&self) -> Result<Lexicon> {
        if self.meta.lexicon_copied {
            Ok(Lexicon::open_checked(self.dir.join(build::LEXICON_FILE))?)
        } else {
            Ok(Lexicon::embedded())
        }
    }

    /// The address of `word`'s document, if the word is in the index.
    fn find(&self, searcher: &tantivy::Searcher, word: &str) -> Result<Option<DocAddress>> {
        let term = Term::from_field_text(self.fields.word, &word.trim().to_lowercase());
        for (ord, seg) in searcher.segment_readers().iter().enumerate() {
            let inverted = seg.inverted_index(self.fields.word)?;
            let postings = inverted
                .read_postings(&term, IndexRecordOption::Basic)
                .map_err(|e| SiteError::io(&self.dir, e))?;
            if let Some(postings) = postings {
                let doc = postings.doc();
                if doc != tantivy::TERMINATED && seg.alive_bitset().is_none_or(|b| b.is_alive(doc))
                {
                    return Ok(Some(DocAddress::new(ord as u32, doc)));
                }
            }
        }
        Ok(None)
    }

    /// How common `word` (any case) is ([`crate::frequency`]): 0 if
    /// unknown or not a word of the site.
    pub fn frequency(&self, word: &str) -> Result<u64> {
        Ok(self.frequencies()?.get(&word.trim().to_uppercase()))
    }

    /// The words that have a frequency, read from the index on first use
    /// (a walk of the `word` terms and the `frequency` column: a few
    /// hundred milliseconds on ENABLE; the server reads it at start).
    pub fn frequencies(&self) -> Result<&crate::frequency::FrequencyTable> {
        if let Some(t) = self.frequencies.get() {
            return Ok(t);
        }
        let searcher = self.reader.searcher();
        let mut words = Vec::new();
        for seg in searcher.segment_readers() {
            let inverted = seg.inverted_index(self.fields.word)?;
            let column = seg.fast_fields().u64("frequency")?;
            let mut terms = inverted
                .terms()
                .stream()
                .map_err(|e| SiteError::io(&self.dir, e))?;
            while terms.advance() {
                let postings = inverted
                    .read_postings_from_terminfo(terms.value(), IndexRecordOption::Basic)
                    .map_err(|e| SiteError::io(&self.dir, e))?;
                let doc = postings.doc();
                if doc == tantivy::TERMINATED
                    || seg.alive_bitset().is_some_and(|b| b.is_deleted(doc))
                {
                    continue;
                }
                let f = column.first(doc).unwrap_or(0);
                if f > 0 {
                    words.push((String::from_utf8_lossy(terms.key()).to_uppercase(), f));
                }
            }
        }
        Ok(self
            .frequencies
            .get_or_init(|| crate::frequency::FrequencyTable::new(words)))
    }

    /// The word page of `word` (any case), or `None` if it is not in the
    /// site's lexicon.
    pub fn entry(&self, word: &str) -> Result<Option<Entry>> {
        Ok(self.page(word)?.map(|p| p.to_entry()))
    }

    /// The word page of `word` (any case) as stored, read in place (see
    /// [`Page`]), or `None` if it is not in the site's lexicon.
    pub fn page(&self, word: &str) -> Result<Option<Page>> {
        let searcher = self.reader.searcher();
        let Some(addr) = self.find(&searcher, word)? else {
            return Ok(None);
        };
        self.page_of(&searcher, searcher.doc(addr)?).map(Some)
    }

    /// The page of a stored document, with the pages of the base forms
    /// it refers to.
    fn page_of(&self, searcher: &tantivy::Searcher, doc: PageDoc) -> Result<Page> {
        let mut page = self.page_alone(doc)?;
        let refs = page.references();
        if refs.is_empty() {
            return Ok(page);
        }
        let mut bases = Vec::with_capacity(refs.len());
        for base in &refs {
            let addr = self
                .find(searcher, base)?
                .ok_or_else(|| self.bad_page(page.word(), "a base form without a page"))?;
            bases.push(self.page_alone(searcher.doc(addr)?)?);
        }
        page.attach(bases)
            .map_err(|why| self.bad_page(page.word(), why))?;
        Ok(page)
    }

    /// The page of a stored document as it is (references unresolved).
    fn page_alone(&self, doc: PageDoc) -> Result<Page> {
        let PageDoc {
            word,
            length,
            points,
            page,
        } = doc;
        let text = page.ok_or_else(|| self.bad_page(&word, "no page"))?;
        Page::new(word, length as usize, points as u32, text)
            .map_err(|(why, word)| self.bad_page(&word, why))
    }

    fn bad_page(&self, word: &str, why: &str) -> SiteError {
        SiteError::BadSite {
            path: self.dir.clone(),
            reason: format!("word {word:?}: {why}"),
        }
    }

    /// Reads an entry back from its stored document.
    pub fn entry_of(&self, doc: &TantivyDocument) -> Result<Entry> {
        let f = &self.fields;
        let num = |field| doc.get_first(field).and_then(|v| v.as_u64()).unwrap_or(0);
        let text = |field| {
            doc.get_first(field)
                .and_then(|v| v.as_str())
                .map(str::to_string)
        };
        let doc = PageDoc {
            word: text(f.word).unwrap_or_default(),
            length: num(f.length),
            points: num(f.points),
            page: text(f.page),
        };
        self.page_of(&self.reader.searcher(), doc)
            .map(|p| p.to_entry())
    }

    /// Searches with tantivy's query syntax (`definition:"chewed as a
    /// stimulant"`, `definition:tool AND length:[3 TO 4]`, `pos:/noun`,
    /// `alphagram:AEX`), a word ending in `*` being a prefix (`stimul*`);
    /// bare words search words and definitions, all required. Results
    /// best first, `limit` of them after `offset`. The query is held to
    /// the default [`QueryBounds`] and runs to its end:
    /// [`Site::search_with`] with other bounds and a [`Stop`].
    pub fn search(&self, query: &str, limit: usize, offset: usize) -> Result<Hits> {
        self.search_with(
            query,
            limit,
            offset,
            &QueryBounds::default(),
            &Stop::never(),
        )
    }

    /// [`Site::search`] under `bounds`, stopped by `stop`. A query over
    /// the bounds is refused before it runs
    /// ([`SiteError::BadQuery`], with the reason); a query that reaches
    /// its stop ends there, its thread freed ([`SiteError::Stopped`]).
    /// Besides the reads the bounds count, it holds the `limit + offset`
    /// best results (never more than the site has documents) and reads
    /// the `limit` it returns.
    pub fn search_with(
        &self,
        query: &str,
        limit: usize,
        offset: usize,
        bounds: &QueryBounds,
        stop: &Stop,
    ) -> Result<Hits> {
        let prepared = self.prepare(query, bounds, stop)?;
        self.run_prepared(prepared, limit, offset)
    }

    /// The first half of [`Site::search_with`]: `query` built and costed
    /// under `bounds` (refused if over them), to run later with
    /// [`Site::run_prepared`] and stopped by `stop` (while it is built
    /// too).
    pub(crate) fn prepare(
        &self,
        query: &str,
        bounds: &QueryBounds,
        stop: &Stop,
    ) -> Result<Prepared> {
        let searcher = self.reader.searcher();
        let meter = Meter::new(bounds.max_reads, stop.clone());
        let plan = self.plan(query, &searcher, bounds, &meter)?;
        Ok(Prepared {
            query: query.to_string(),
            max_reads: bounds.max_reads,
            searcher,
            meter,
            plan,
        })
    }

    /// The second half of [`Site::search_with`]: runs a prepared query,
    /// `limit` results after `offset`.
    pub(crate) fn run_prepared(
        &self,
        prepared: Prepared,
        limit: usize,
        offset: usize,
    ) -> Result<Hits> {
        let Prepared {
            query,
            max_reads,
            searcher,
            meter,
            plan,
        } = prepared;
        let query = query.as_str();
        let bad = |reason: String| SiteError::BadQuery {
            query: query.to_string(),
            reason,
        };
        // Why a search that failed did: halted by its stop or its bound,
        // or a query that tantivy refuses as it runs.
        let failed = |e: tantivy::TantivyError| match meter.halted() {
            Some(Halt::Stopped) => SiteError::Stopped {
                query: query.to_string(),
            },
            Some(Halt::OverBudget) => bad(format!(
                "it read more than the {max_reads} postings and documents allowed"
            )),
            None => match e {
                tantivy::TantivyError::FieldNotFound(_)
                | tantivy::TantivyError::SchemaError(_)
                | tantivy::TantivyError::InvalidArgument(_) => bad(e.to_string()),
                e => e.into(),
            },
        };
        // tantivy sizes its heap of best results by `limit + offset`: a
        // window past the last document is none (`--offset` of 10^11 was
        // an abort on a failed allocation, taking a server down with it).
        let docs = usize::try_from(searcher.num_docs()).unwrap_or(usize::MAX);
        let limit = limit.min(docs.saturating_sub(offset));
        let (total, top) = if limit == 0 {
            let total = searcher
                .search(&plan.query, &Stopping::new(Count, &meter))
                .map_err(failed)?;
            (total, Vec::new())
        } else {
            let top = TopDocs::with_limit(limit)
                .and_offset(offset)
                .order_by_score();
            searcher
                .search(&plan.query, &Stopping::new((Count, top), &meter))
                .map_err(failed)?
        };
        let mut marks = Marks::new(&plan.marks, self.fields.definition);
        // A relation's words as its field holds them (lowercase, folded).
        let mut fold = schema::word_analyzer();
        let mut folded = String::new();
        let mut hits = Vec::with_capacity(top.len());
        for (score, addr) in top {
            if meter.stopped() {
                return Err(SiteError::Stopped {
                    query: query.to_string(),
                });
            }
            let doc: PageDoc = searcher.doc(addr)?;
            if marks.is_some() || !plan.related.is_empty() {
                // The sense with a relation asked for, else the one
                // holding most of the words asked for.
                let (word, length, points) = (doc.word.clone(), doc.length, doc.points);
                let page = self.page_of(&searcher, doc)?;
                let related = page.senses().find(|s| {
                    plan.related.iter().any(|(which, term)| {
                        let mut list = match which {
                            0 => s.synonyms,
                            1 => s.relations.antonyms,
                            _ => s.relations.kind_of,
                        };
                        list.any(|w| {
                            folded.clear();
                            fold.token_stream(w)
                                .process(&mut |t| folded.push_str(&t.text));
                            folded == *term
                        })
                    })
                });
                let (definition, highlights) = match (related, &mut marks) {
                    (Some(s), _) => (Some(s.definition), Vec::new()),
                    (None, Some(marks)) => marks.best(page.senses().map(|s| s.definition)),
                    (None, None) => (page.senses().next().map(|s| s.definition), Vec::new()),
                };
                hits.push(Hit {
                    word,
                    length,
                    points,
                    definition: definition.map(str::to_string),
                    highlights,
                    score,
                });
                continue;
            }
            // The first definition if the page holds it, `None` if it is
            // a base form's.
            let first = match doc.page.as_deref() {
                Some(page) => match stored::first_definition(page)
                    .map_err(|why| self.bad_page(&doc.word, why))?
                {
                    First::None => Some(None),
                    First::Definition(d) => Some(Some(d.to_string())),
                    First::Reference => None,
                },
                None => Some(None),
            };
            let (word, length, points) = (doc.word.clone(), doc.length, doc.points);
            let definition = match first {
                Some(d) => d,
                None => self
                    .page_of(&searcher, doc)?
                    .senses()
                    .next()
                    .map(|s| s.definition.to_string()),
            };
            hits.push(Hit {
                word,
                length,
                points,
                definition,
                highlights: Vec::new(),
                score,
            });
        }
        Ok(Hits {
            total,
            hits,
            estimated_reads: plan.reads,
            reads: meter.used(),
        })
    }

    /// The reads (see [`QueryBounds::max_reads`]) a search for `query`
    /// under `bounds` is estimated to make: what [`Site::search_with`]
    /// checks against `bounds` before it runs, worked out the same way,
    /// without running the search. A query over the bounds is refused
    /// with the reason ([`SiteError::BadQuery`]); one whose estimate is
    /// still being worked out when `stop` comes is [`SiteError::Stopped`].
    /// Working it out reads the term dictionaries of the query's words
    /// and, for a phrase, its words' postings: a part of what the search
    /// reads, within the same bound.
    ///
    /// ```no_run
    /// use lexq_site::{QueryBounds, Site, Stop};
    /// let site = Site::open("enable-site".as_ref())?;
    /// let bounds = QueryBounds::default();
    /// let tool = site.estimate("definition:tool", &bounds, &Stop::never())?;
    /// let s = site.estimate("s*", &bounds, &Stop::never())?;
    /// assert!(tool < s && s <= bounds.max_reads);
    /// # Ok::<(), lexq_site::SiteError>(())
    /// ```
    pub fn estimate(&self, query: &str, bounds: &QueryBounds, stop: &Stop) -> Result<u64> {
        Ok(self.prepare(query, bounds, stop)?.reads())
    }

    /// The query `query` means over `searcher`'s index, metered by
    /// `meter`, and its estimate; or why it is refused.
    fn plan(
        &self,
        query: &str,
        searcher: &tantivy::Searcher,
        bounds: &QueryBounds,
        meter: &std::sync::Arc<Meter>,
    ) -> Result<query::Plan> {
        let bad = |reason: String| SiteError::BadQuery {
            query: query.to_string(),
            reason,
        };
        let q = query.trim();
        if q.is_empty() {
            return Err(bad("the query is empty".into()));
        }
        if q.len() > MAX_QUERY_LEN {
            return Err(bad(format!("longer than {MAX_QUERY_LEN} bytes")));
        }
        self.parser
            .plan(q, searcher, bounds, meter)
            .map_err(|r| match r {
                Refused::Bad(reason) => bad(reason),
                Refused::Stopped => SiteError::Stopped {
                    query: query.to_string(),
                },
                Refused::Index(e) => e.into(),
            })
    }

    /// Every entry of the site, in index order.
    pub fn for_each_entry(&self, mut f: impl FnMut(Entry) -> Result<()>) -> Result<()> {
        self.for_each_page(|p| f(p.to_entry()))
    }

    /// Every word's page (with the pages of the base forms it refers
    /// to), in index order.
    pub fn for_each_page(&self, mut f: impl FnMut(Page) -> Result<()>) -> Result<()> {
        let searcher = self.reader.searcher();
        for seg in searcher.segment_readers() {
            let store = seg
                .get_store_reader(4)
                .map_err(|e| SiteError::io(&self.dir, e))?;
            for doc in store.iter::<PageDoc>(seg.alive_bitset()) {
                f(self.page_of(&searcher, doc?)?)?;
            }
        }
        Ok(())
    }

    /// The number of documents (words).
    pub fn word_count(&self) -> u64 {
        self.reader.searcher().num_docs()
    }
}

/// The definition words a query looks for, to find and mark the sense of
/// a result that matched: tantivy's snippet generator over each sense
/// with the definitions' own tokenizer.
struct Marks<'a> {
    weights: &'a std::collections::BTreeMap<String, f32>,
    snippets: tantivy::snippet::SnippetGenerator,
    words: tantivy::tokenizer::TextAnalyzer,
}

impl<'a> Marks<'a> {
    /// The marks of `weights` (see `query::Plan::marks`); `None` if there
    /// are none.
    fn new(
        weights: &'a std::collections::BTreeMap<String, f32>,
        field: tantivy::schema::Field,
    ) -> Option<Marks<'a>> {
        if weights.is_empty() {
            return None;
        }
        // A fragment as long as any definition: the whole sense.
        let snippets = tantivy::snippet::SnippetGenerator::new(
            weights.clone(),
            schema::text_analyzer(),
            field,
            usize::MAX / 2,
        );
        Some(Marks {
            weights,
            snippets,
            words: schema::text_analyzer(),
        })
    }

    /// The sense of `definitions` holding most of the words (by weight;
    /// the first of the best), or the first if none holds any, and where
    /// the words are in it. Each sense is tokenized once by the one
    /// analyzer this holds; only the sense shown goes through the snippet
    /// generator.
    fn best<'d>(
        &mut self,
        definitions: impl Iterator<Item = &'d str>,
    ) -> (Option<&'d str>, Vec<(usize, usize)>) {
        let weights = self.weights;
        let (mut best, mut first) = (None::<(f32, &'d str)>, None);
        let mut seen: Vec<&String> = Vec::new();
        for d in definitions {
            first.get_or_insert(d);
            seen.clear();
            self.words.token_stream(d).process(&mut |t| {
                if let Some((word, _)) = weights.get_key_value(&t.text)
                    && !seen.contains(&word)
                {
                    seen.push(word);
                }
            });
            let weight: f32 = seen.iter().map(|w| weights[*w]).sum();
            if weight > 0.0 && best.is_none_or(|(w, _)| weight > w) {
                best = Some((weight, d));
            }
        }
        let Some((_, d)) = best else {
            return (first, Vec::new());
        };
        let snippet = self.snippets.snippet(d);
        let start = snippet.fragment_range().start;
        let ranges = snippet
            .highlighted()
            .iter()
            .map(|r| (start + r.start, start + r.end))
            .collect();
        (Some(d), ranges)
    }
}

/// The word list a site was built from, checked.
impl Site {
    /// Checks that `lex` holds the word list the site was built from, or
    /// says which lists differ ([`SiteError::OtherWordList`]). The very
    /// file the site was built from is recognised by its bytes' CRC-32C;
    /// a lexicon of another word count is refused at once; any other is
    /// checked structurally ([`Lexicon::verify`]) and its words walked
    /// ([`crate::fingerprint::WordListId::of`]).
    ///
    /// ```no_run
    /// let site = lexq_site::Site::open("site".as_ref())?;
    /// site.check_lexicon(&site.lexicon()?)?;
    /// # Ok::<(), lexq_site::SiteError>(())
    /// ```
    pub fn check_lexicon(&self, lex: &Lexicon) -> Result<()> {
        let meta = self.meta();
        let built = meta.word_list;
        if lex.word_count() == built.words {
            if crc32c::crc32c(lex.file_bytes()) == meta.lexicon_crc32c {
                return Ok(());
            }
            lex.verify()?;
            let id = crate::fingerprint::WordListId::of(lex)?;
            if id == built {
                return Ok(());
            }
            return Err(self.other_word_list(lex, Some(id)));
        }
        Err(self.other_word_list(lex, None))
    }

    fn other_word_list(
        &self,
        lex: &Lexicon,
        id: Option<crate::fingerprint::WordListId>,
    ) -> SiteError {
        SiteError::OtherWordList {
            path: self.dir().to_path_buf(),
            built: self.meta().word_list,
            lexicon: lex.source().to_path_buf(),
            words: lex.word_count(),
            crc32c: id.map(|id| id.crc32c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fixture site of `tests/data`, built into `dir`.
    fn fixture(dir: &Path) -> Site {
        let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
        let mut list = lexq::WordList::new(lexq::Alphabet::english());
        list.read_path(&data.join("words.txt")).unwrap();
        let path = dir.join("words.lexq");
        lexq::build(&list, &mut ())
            .unwrap()
            .write_atomic(&path)
            .unwrap();
        let lex = Lexicon::open(&path).unwrap();
        let opts = build::BuildOptions {
            wordnet: Some(data.join("wordnet")),
            ..Default::default()
        };
        let out = dir.join("site");
        build::build(&lex, Some(&path), &opts, &out, &mut ()).unwrap();
        Site::open(&out).unwrap()
    }

    #[test]
    fn a_prepared_search_runs_as_a_search_and_keeps_its_stop() {
        let dir = tempfile::tempdir().unwrap();
        let site = fixture(dir.path());
        let bounds = QueryBounds::default();
        let words = |h: &Hits| h.hits.iter().map(|h| h.word.clone()).collect::<Vec<_>>();
        for q in [
            "definition:the",
            "*",
            "word:car*",
            "length:[3 TO 4] -word:cat",
        ] {
            let p = site.prepare(q, &bounds, &Stop::never()).unwrap();
            assert_eq!(
                p.reads(),
                site.estimate(q, &bounds, &Stop::never()).unwrap()
            );
            let ran = site.run_prepared(p, 10, 1).unwrap();
            let searched = site.search(q, 10, 1).unwrap();
            assert_eq!((ran.total, words(&ran)), (searched.total, words(&searched)));
            assert!(searched.total > 1, "{q}: {}", searched.total);
            // Cancelled once prepared (its request ended): stopped.
            let stop = Stop::never();
            let p = site.prepare(q, &bounds, &stop).unwrap();
            stop.cancel();
            assert!(matches!(
                site.run_prepared(p, 10, 0),
                Err(SiteError::Stopped { .. })
            ));
        }
        // Over the bounds: refused when prepared, as when searched.
        let tight = QueryBounds {
            max_reads: 10,
            ..bounds
        };
        assert!(matches!(
            site.prepare("*", &tight, &Stop::never()),
            Err(SiteError::BadQuery { .. })
        ));
    }
}
