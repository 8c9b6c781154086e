//! `lexq site export`: the site as static files that any static file
//! server or CDN serves, with no lexq process:
//!
//! - the server's HTML pages ([`crate::html`]), each the `index.html` of
//!   its address's folder, the links rewritten to match
//!   ([`links`]): every word's page (`word/care/index.html`, at
//!   `/word/care/`), the browse pages by first letters and by length,
//!   the sitemap index and its sitemaps (at most 50,000 addresses each),
//!   `robots.txt`, canonical links and sitemap addresses at the base URL;
//! - a home page with the word-game lists, the search box's page and a
//!   404 page ([`pages`]), the stylesheet and the script;
//! - the index shards the script fetches as a visitor asks
//!   ([`shards`]): look-ups (inflections are pages of their own, which
//!   name their base forms), completions, anagrams of a rack, hooks,
//!   words by pattern within a length. Definition search needs the
//!   server, as the search page says.
//!
//! Written into a temporary directory and renamed into place: a
//! half-written export never replaces a whole one.

use std::collections::{HashMap, HashSet};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Instant;

use lexq::Progress;
use serde::Serialize;

use crate::build::WORDNET_LICENCE_FILE;
use crate::error::{Result, SiteError};
use crate::fsutil::{self, TempDir};
use crate::html::{Frame, browse, escape, sitemap, word};
use crate::search::Site;

pub mod links;
pub mod pages;
pub mod shards;

/// The manifest of an export (and the mark that lexq wrote the folder).
pub const MANIFEST: &str = "lexq-export.json";

/// How to export.
#[derive(Clone, Debug, Default)]
pub struct ExportOptions {
    /// The site's public address (`https://example.org`), before the
    /// paths of canonical links and sitemap addresses; empty, they are
    /// paths alone.
    pub base_url: String,
}

/// What an export wrote.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ExportSummary {
    /// Files written in all.
    pub files: u64,
    /// HTML pages written (of them).
    pub pages: u64,
    /// Word pages written (of the pages).
    pub words: u64,
    /// Index shards written (of the files).
    pub shards: u64,
    /// Bytes written in all.
    pub bytes: u64,
    /// Seconds taken.
    pub seconds: f64,
}

impl ExportSummary {
    /// The one-line summary `lexq site export` prints.
    pub fn line(&self, out: &Path) -> String {
        format!(
            "{}: {} files ({} pages, {} of them words; {} index shards), {} bytes, {:.2} s",
            out.display(),
            self.files,
            self.pages,
            self.words,
            self.shards,
            self.bytes,
            self.seconds
        )
    }
}

/// The path of a word's page inside an export, relative to its root
/// (the word lowercased, as its address has it, decoded).
///
/// ```
/// assert_eq!(lexq_site::export::word_path("CARE"), "word/care/index.html");
/// ```
pub fn word_path(word: &str) -> String {
    format!("word/{}/index.html", word.to_lowercase())
}

#[derive(Serialize)]
struct Manifest<'a> {
    format: u32,
    words: u64,
    base_url: &'a str,
    pages: &'a str,
    index: &'a str,
    lexicon: &'a str,
    licence: Option<&'a str>,
}

/// What the export tells of the lexicon it came from: the file's name
/// (`enable.lexq`, `<embedded>`), never the build machine's folders; an
/// export is published as it is.
fn public_name(lexicon: &str) -> String {
    match Path::new(lexicon).file_name() {
        Some(name) => name.to_string_lossy().into_owned(),
        None => lexicon.to_string(),
    }
}

/// Writes the files of an export under its temporary root.
struct Writer {
    root: PathBuf,
    made: HashSet<PathBuf>,
    base_url: String,
    summary: ExportSummary,
}

impl Writer {
    /// Writes `bytes` at `rel` (a relative path of plain segments).
    fn file(&mut self, rel: &Path, bytes: &[u8]) -> Result<()> {
        if let Some(dir) = rel.parent()
            && !dir.as_os_str().is_empty()
            && !self.made.contains(dir)
        {
            fsutil::create_dirs_in(&self.root, dir)?;
            self.made.insert(dir.to_path_buf());
        }
        fsutil::write(&self.root.join(rel), bytes)?;
        self.summary.files += 1;
        self.summary.bytes += bytes.len() as u64;
        Ok(())
    }

    /// Writes the page the server renders at `path` where a static
    /// server serves it, its links static ([`links::static_page`]).
    fn page(&mut self, path: &str, html: &str) -> Result<()> {
        let rel = links::static_path(path)
            .as_deref()
            .and_then(links::file_of)
            .ok_or_else(|| SiteError::BadSite {
                path: self.root.clone(),
                reason: format!("the page {path:?} cannot be a file of a static site"),
            })?;
        let page = links::static_page(html, &self.base_url);
        self.file(&rel, page.as_bytes())?;
        self.summary.pages += 1;
        Ok(())
    }
}

/// Writes the static site of `site` to `out` (see the module's
/// documentation).
pub fn export(
    site: &Site,
    out: &Path,
    options: &ExportOptions,
    progress: &mut dyn Progress,
) -> Result<ExportSummary> {
    let start = Instant::now();
    fsutil::check_replaceable(out, MANIFEST)?;
    let lex = site.lexicon()?;
    let tmp = TempDir::beside(out)?;
    let base_url = options.base_url.trim_end_matches('/').to_string();
    let licence = site.licence();
    let frame = Frame {
        base_url: base_url.clone(),
        wordnet: licence.is_some(),
    };
    let mut w = Writer {
        root: tmp.path().to_path_buf(),
        made: HashSet::new(),
        base_url: base_url.clone(),
        summary: ExportSummary::default(),
    };
    let is_word = |x: &str| lex.is_word(x).unwrap_or(false);

    // The base forms of each inflection, and the inflections of each
    // base form (what the server finds with `base_form:`).
    let mut bases: HashMap<String, Vec<String>> = HashMap::new();
    let mut inflections: HashMap<String, Vec<String>> = HashMap::new();
    site.for_each_page(|p| {
        let word = p.word();
        let mut mine: Vec<String> = Vec::new();
        for b in p.base_forms() {
            if !b.eq_ignore_ascii_case(word) {
                inflections
                    .entry(b.to_string())
                    .or_default()
                    .push(word.to_string());
                if is_word(b) && !mine.iter().any(|m| m == b) {
                    mine.push(b.to_string());
                }
            }
        }
        if !mine.is_empty() {
            bases.insert(word.to_string(), mine);
        }
        Ok(())
    })?;
    for list in inflections.values_mut() {
        list.sort();
        list.truncate(100);
    }

    progress.stage("word pages", site.word_count());
    site.for_each_page(|p| {
        let entry = p.to_entry();
        let inflected = inflections
            .get(&entry.word)
            .map(Vec::as_slice)
            .unwrap_or_default();
        let view = word::WordView {
            entry: &entry,
            page: Some(&p),
            definitions_loaded: true,
            inflections: inflected,
            is_word: &is_word,
        };
        w.page(
            &escape::word_path(&entry.word),
            &word::render(&frame, &view),
        )?;
        w.summary.words += 1;
        progress.advance(1);
        Ok(())
    })?;

    // Browse pages: by first letters, by length.
    w.page("/browse", &browse::index(&frame, &lex))?;
    let mut prefixes = Vec::new();
    browse::prefixes(&lex, &mut |p| prefixes.push(p));
    for path in prefixes {
        let prefix = path
            .strip_prefix("/browse/")
            .and_then(links::decode)
            .unwrap_or_default();
        let html = browse::prefix(&frame, &lex, &prefix).ok_or_else(|| SiteError::BadSite {
            path: out.to_path_buf(),
            reason: format!("no browse page for {path:?}"),
        })?;
        w.page(&path, &html)?;
    }
    for len in 1..=lex.max_word_len() {
        for n in 1.. {
            match browse::length(&frame, &lex, len, n) {
                Some(html) => w.page(&browse::length_path(len, n), &html)?,
                None => break,
            }
        }
    }

    // The sitemap index, its sitemaps, robots.txt.
    let xml = links::static_sitemap(&sitemap::index(&frame, &lex), &base_url);
    w.file(Path::new("sitemap.xml"), xml.as_bytes())?;
    for n in 0.. {
        let Some(xml) = sitemap::sitemap(&frame, &lex, n) else {
            break;
        };
        let xml = links::static_sitemap(&xml, &base_url);
        w.file(
            &Path::new("sitemaps").join(format!("{n}.xml")),
            xml.as_bytes(),
        )?;
    }
    w.file(Path::new("robots.txt"), sitemap::robots(&frame).as_bytes())?;

    // The export's own pages, its stylesheet and script.
    let mut words: Vec<String> = Vec::with_capacity(lex.word_count() as usize);
    lex.for_each_word(1, usize::MAX, |c| {
        words.push(lex.alphabet().decode(c));
        ControlFlow::Continue(())
    });
    let longest = words.iter().map(|x| x.chars().count()).max().unwrap_or(0);
    w.page("/", &pages::home(&frame, words.len() as u64, longest))?;
    w.page("/search", &pages::search(&frame))?;
    let missing = links::static_page(&pages::not_found(&frame), &base_url);
    w.file(Path::new("404.html"), missing.as_bytes())?;
    w.file(Path::new("lexq.css"), pages::stylesheet().as_bytes())?;
    w.file(Path::new("lexq.js"), pages::SCRIPT.as_bytes())?;
    if let Some(text) = &licence {
        w.file(Path::new(WORDNET_LICENCE_FILE), text.as_bytes())?;
    }

    // The index shards.
    let frequencies = site.frequencies()?;
    let frequency = |w: &str| frequencies.get(w);
    for (name, bytes) in shards::shards(&words, &bases, &frequency).files {
        w.file(&Path::new("idx").join(&name), &bytes)?;
        w.summary.shards += 1;
    }

    let manifest = Manifest {
        format: 2,
        words: w.summary.words,
        base_url: &base_url,
        pages: "{address}/index.html: word/{word}/, browse/, browse/{prefix}/, browse/length/{n}/[{page}/], search/",
        index: "idx/meta.json, idx/p/{first two letters}.json, idx/len/{length}.json",
        lexicon: &public_name(&site.meta().lexicon),
        licence: licence.as_ref().map(|_| WORDNET_LICENCE_FILE),
    };
    let bytes = serde_json::to_vec_pretty(&manifest)
        .map_err(|e| SiteError::io(out.join(MANIFEST), e.into()))?;
    w.file(Path::new(MANIFEST), &bytes)?;
    let mut summary = w.summary;
    tmp.replace(out, MANIFEST)?;
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}
