//! `site.json`, sealed: the file ends with a CRC-32C of everything before
//! its last member, so that a changed byte is refused when the site is
//! opened, never believed. It holds in turn the CRC-32C of the index's
//! `meta.json`, which tantivy writes without a checksum although searches
//! rely on it (its segment sizes: one digit changed there changed the
//! total of `*` from 25 to 20). Every other file a search reads carries a
//! checksum of its own (tantivy's footers, the lexicon's header).
//!
//! ```text
//! {
//!   "format": 4,
//!   ...
//!   "index_meta_crc32c": 3421727517,
//!   "checksum": "crc32c:5be1a7c0"
//! }
//! ```
//!
//! The checksum covers the bytes up to the comma before `"checksum"`.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Result, SiteError};
use crate::fingerprint::WordListId;
use crate::sources::BadLine;

/// What ends a sealed file before the checksum's 8 hex digits...
const TRAILER_START: &[u8] = b",\n  \"checksum\": \"crc32c:";
/// ... and after them.
const TRAILER_END: &[u8] = b"\"\n}\n";

/// The JSON object `json` (as `serde_json::to_vec_pretty` writes it,
/// ending in `\n}`) with its checksum as its last member.
fn seal(mut json: Vec<u8>) -> Vec<u8> {
    debug_assert!(json.ends_with(b"\n}"), "a pretty-printed object");
    json.truncate(json.len() - 2);
    let crc = crc32c::crc32c(&json);
    json.extend_from_slice(TRAILER_START);
    json.extend_from_slice(format!("{crc:08x}").as_bytes());
    json.extend_from_slice(TRAILER_END);
    json
}

/// Checks the checksum [`seal`] wrote at the end of `bytes`.
fn check_seal(bytes: &[u8]) -> std::result::Result<(), &'static str> {
    let end = TRAILER_START.len() + 8 + TRAILER_END.len();
    let body = bytes
        .len()
        .checked_sub(end)
        .filter(|&n| bytes[n..].starts_with(TRAILER_START) && bytes.ends_with(TRAILER_END))
        .ok_or("it does not end with its checksum")?;
    let hex = &bytes[body + TRAILER_START.len()..bytes.len() - TRAILER_END.len()];
    let stored = std::str::from_utf8(hex)
        .ok()
        .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
        .and_then(|h| u32::from_str_radix(h, 16).ok())
        .ok_or("its checksum is not 8 hex digits")?;
    if crc32c::crc32c(&bytes[..body]) != stored {
        return Err("it was changed after the build (its checksum does not match)");
    }
    Ok(())
}

/// Writes `meta` to `path` (inside a temporary directory), sealed.
pub(crate) fn write(path: &Path, meta: &SiteMeta) -> Result<()> {
    let json = serde_json::to_vec_pretty(meta).map_err(|e| SiteError::io(path, e.into()))?;
    crate::fsutil::write(path, &seal(json))
}

/// Only the format, read before the rest: a site of another format is
/// told to rebuild, whatever else its `site.json` holds.
#[derive(serde::Deserialize)]
struct Format {
    format: u32,
}

/// The bytes of the site's file at `path`, which must be a regular file
/// (a FIFO put in its place would block the open forever; a device would
/// be read as it is).
fn read_regular(path: &Path, what: &str) -> Result<Vec<u8>> {
    // `read_capped` opens with `lexq::files::open_regular`: the type is looked
    // at before the open, and a refusal names it ("is a FIFO").
    crate::fsutil::read_capped(path, what)
}

/// Reads the `site.json` of the site directory `dir`, checking its
/// checksum and the index `meta.json`'s against it.
pub(crate) fn read(dir: &Path) -> Result<SiteMeta> {
    // A build replacing the site between the reads of the two files makes
    // them disagree: on any error, both are read again, once.
    read_once(dir).or_else(|_| read_once(dir))
}

fn read_once(dir: &Path) -> Result<SiteMeta> {
    let meta = read_sealed(dir)?;
    let bad = |reason: String| SiteError::BadSite {
        path: dir.to_path_buf(),
        reason,
    };
    let path = dir.join(INDEX_DIR).join("meta.json");
    let bytes = match read_regular(&path, "an index meta.json") {
        Ok(b) => b,
        Err(SiteError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            return Err(bad(format!("no {INDEX_DIR}/meta.json")));
        }
        Err(e) => return Err(e),
    };
    if crc32c::crc32c(&bytes) != meta.index_meta_crc32c {
        return Err(bad(format!(
            "{INDEX_DIR}/meta.json was changed after the build (its checksum in {META_FILE} does not match); rebuild the site with `lexq site build`"
        )));
    }
    Ok(meta)
}

/// `site.json` read, its format and checksum checked.
fn read_sealed(dir: &Path) -> Result<SiteMeta> {
    let bad = |reason: String| SiteError::BadSite {
        path: dir.to_path_buf(),
        reason,
    };
    let path = dir.join(META_FILE);
    let bytes = match read_regular(&path, "a site.json") {
        Ok(b) => b,
        Err(SiteError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            return Err(bad(if dir.is_dir() {
                format!("no {META_FILE}")
            } else {
                "no such directory".into()
            }));
        }
        Err(e) => return Err(e),
    };
    let format: Format =
        serde_json::from_slice(&bytes).map_err(|e| bad(format!("{META_FILE}: {e}")))?;
    if format.format != FORMAT {
        return Err(bad(format!(
            "site format {}, this version reads {FORMAT} (rebuild it with `lexq site build`)",
            format.format
        )));
    }
    check_seal(&bytes).map_err(|why| {
        bad(format!(
            "{META_FILE}: {why}; rebuild the site with `lexq site build`"
        ))
    })?;
    serde_json::from_slice(&bytes).map_err(|e| bad(format!("{META_FILE}: {e}")))
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
    /// WordNet senses left out as offensive (`--hide-offensive`).
    #[serde(default)]
    pub offensive_left_out: u64,
    /// Definitions read from files whose word is not in the lexicon.
    pub unused_definitions: u64,
    /// Bytes of the site directory.
    pub bytes: u64,
    /// Seconds the build took.
    pub seconds: f64,
    /// Definition lines skipped as unusable.
    #[serde(skip)]
    pub bad_lines: Vec<BadLine>,
    /// The words of definition files that are not in the lexicon, in
    /// alphabet order (their definitions are the unused ones).
    #[serde(skip)]
    pub unused_words: Vec<String>,
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
/// The site format this version writes (4: `site.json` with its checksum,
/// the index `meta.json`'s and the word list's fingerprint; 5: `length`
/// indexed as terms as well as a column; 6: `definition` folded to ASCII,
/// its senses [`crate::schema::SENSE_GAP`] positions apart; 7: senses'
/// relations stored, and `synonym`, `antonym`, `kind_of` indexed).
pub const FORMAT: u32 = 7;

/// What `site.json` holds, with a last member of its own, `checksum`: the
/// CRC-32C of the text before it, checked when the site opens.
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
    /// The word list the site was built from ([`Site::check_lexicon`]
    /// compares a lexicon's with it).
    ///
    /// [`Site::check_lexicon`]: crate::Site::check_lexicon
    pub word_list: WordListId,
    /// The CRC-32C of the lexicon file's bytes, which recognises the very
    /// file the site was built from without walking its words.
    pub lexicon_crc32c: u32,
    /// The CRC-32C of the index's `meta.json`, which tantivy writes
    /// without one and searches rely on.
    pub index_meta_crc32c: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_file_is_refused_once_any_byte_changes() {
        let json =
            serde_json::to_vec_pretty(&serde_json::json!({"format": 4, "documents": 25})).unwrap();
        let sealed = seal(json);
        assert!(check_seal(&sealed).is_ok());
        let text = std::str::from_utf8(&sealed).unwrap();
        assert!(text.ends_with("\"\n}\n"), "{text}");
        let value: serde_json::Value = serde_json::from_slice(&sealed).unwrap();
        assert_eq!(value["documents"], 25);
        for i in 0..sealed.len() {
            let mut changed = sealed.clone();
            changed[i] ^= 0x01;
            assert!(check_seal(&changed).is_err(), "byte {i} of {text}");
        }
        assert!(check_seal(&sealed[..sealed.len() - 1]).is_err());
        assert!(check_seal(b"{}").is_err());
    }
}
