//! `lexq site export`: a static bundle for static site generators. One
//! JSON file per word (what its page shows), sharded into folders by first
//! letters (`words/c/ca/care.json`), and list files (`lists/*.json`): by
//! length, by first letter, two- and three-letter words, words with Q but
//! no U, words without vowels, short words with J, Q, X or Z. Written into
//! a temporary directory and renamed into place.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

use lexq::Progress;
use serde::Serialize;

use crate::build::WORDNET_LICENCE_FILE;
use crate::entry::Entry;
use crate::error::{Result, SiteError};
use crate::fsutil::{self, TempDir};
use crate::search::Site;

/// The manifest of an export (and the mark that lexq wrote the folder).
pub const MANIFEST: &str = "lexq-export.json";

/// What an export wrote.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ExportSummary {
    /// Word files written.
    pub words: u64,
    /// List files written.
    pub lists: u64,
    /// Bytes written in all.
    pub bytes: u64,
    /// Seconds taken.
    pub seconds: f64,
}

impl ExportSummary {
    /// The one-line summary `lexq site export` prints.
    pub fn line(&self, out: &Path) -> String {
        format!(
            "{}: {} word files, {} lists, {} bytes, {:.2} s",
            out.display(),
            self.words,
            self.lists,
            self.bytes,
            self.seconds
        )
    }
}

/// The path of a word's file inside an export, relative to its root:
/// `words/c/ca/care.json` (a one-letter word `a` is `words/a/a/a.json`).
///
/// ```
/// assert_eq!(lexq_site::export::word_path("CARE"), "words/c/ca/care.json");
/// ```
pub fn word_path(word: &str) -> String {
    let lower = word.to_lowercase();
    let first: String = lower.chars().take(1).collect();
    let two: String = lower.chars().take(2).collect();
    format!("words/{first}/{two}/{lower}.json")
}

#[derive(Serialize)]
struct Manifest<'a> {
    format: u32,
    words: u64,
    word_files: &'a str,
    lists: BTreeMap<String, usize>,
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

fn json_bytes<T: Serialize>(path: &Path, value: &T) -> Result<Vec<u8>> {
    serde_json::to_vec(value).map_err(|e| SiteError::io(path, e.into()))
}

/// Writes the export of `site` to `out`.
pub fn export(site: &Site, out: &Path, progress: &mut dyn Progress) -> Result<ExportSummary> {
    let start = Instant::now();
    fsutil::check_replaceable(out, MANIFEST)?;
    let tmp = TempDir::beside(out)?;
    let root = tmp.path().to_path_buf();
    let mut made: HashSet<PathBuf> = HashSet::new();
    let mut summary = ExportSummary::default();
    let mut lists: BTreeMap<String, Vec<String>> = BTreeMap::new();
    progress.stage("exporting", site.word_count());
    site.for_each_entry(|e: Entry| {
        let rel = word_path(&e.word);
        let path = root.join(&rel);
        let dir = path.parent().expect("a folder").to_path_buf();
        if !made.contains(&dir) {
            fsutil::create_dirs_in(&root, Path::new(&rel).parent().expect("a folder"))?;
            made.insert(dir);
        }
        let bytes = json_bytes(&path, &e)?;
        summary.bytes += bytes.len() as u64;
        fsutil::write(&path, &bytes)?;
        summary.words += 1;
        for list in lists_of(&e) {
            lists.entry(list).or_default().push(e.word.clone());
        }
        progress.advance(1);
        Ok(())
    })?;
    let lists_dir = root.join("lists");
    fsutil::create_dirs_in(&root, Path::new("lists"))?;
    let mut counts = BTreeMap::new();
    for (name, mut words) in lists {
        words.sort();
        let path = lists_dir.join(format!("{name}.json"));
        let bytes = json_bytes(&path, &words)?;
        summary.bytes += bytes.len() as u64;
        fsutil::write(&path, &bytes)?;
        summary.lists += 1;
        counts.insert(name, words.len());
    }
    let licence = site.licence();
    if let Some(text) = &licence {
        fsutil::write(&root.join(WORDNET_LICENCE_FILE), text.as_bytes())?;
    }
    let manifest = Manifest {
        format: 1,
        words: summary.words,
        word_files: "words/{first letter}/{first two letters}/{word}.json",
        lists: counts,
        lexicon: &public_name(&site.meta().lexicon),
        licence: licence.as_ref().map(|_| WORDNET_LICENCE_FILE),
    };
    let path = root.join(MANIFEST);
    let bytes = serde_json::to_vec_pretty(&manifest).map_err(|e| SiteError::io(&path, e.into()))?;
    fsutil::write(&path, &bytes)?;
    summary.bytes += bytes.len() as u64;
    tmp.replace(out, MANIFEST)?;
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}

/// The names of the lists a word belongs to.
pub fn lists_of(e: &Entry) -> Vec<String> {
    let w = e.word.to_lowercase();
    let mut out = vec![format!("length-{:02}", e.length)];
    if let Some(c) = w.chars().next() {
        out.push(format!("letter-{c}"));
    }
    match e.length {
        2 => out.push("two-letter-words".into()),
        3 => out.push("three-letter-words".into()),
        _ => {}
    }
    if w.contains('q') && !w.contains('u') {
        out.push("q-without-u".into());
    }
    if !w.chars().any(|c| "aeiou".contains(c)) {
        out.push("no-vowels".into());
    }
    if e.length <= 4 && w.chars().any(|c| "jqxz".contains(c)) {
        out.push("short-jqxz".into());
    }
    if e.senses.is_empty() {
        out.push("without-definitions".into());
    }
    out
}
