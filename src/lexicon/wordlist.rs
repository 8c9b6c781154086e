//! Reading word lists: one word a line, forgiving about the usual mess.
//!
//! Accepted: UTF-8 text, `\n` or `\r\n` line ends, a byte-order mark,
//! blank lines, spaces around words, `#` comment lines, any case. A line
//! that cannot be read as a word of the alphabet (a character outside it,
//! invalid UTF-8, more than [`MAX_WORD_LEN`](crate::lexicon::gaddag::MAX_WORD_LEN)
//! tiles) is skipped and reported, or is an error in strict mode. Words
//! outside the requested length range are filtered out and counted.

use std::path::{Path, PathBuf};

use crate::alphabet::Alphabet;
use crate::error::{Error, Result, WordErrorKind, shorten};
use crate::files::capped::{MAX_INPUT_BYTES, read_capped, read_file};
use crate::files::replace::FileId;
use crate::lexicon::gaddag::MAX_WORD_LEN;

/// How many rejected lines a [`WordList`] keeps as examples.
pub const EXAMPLES_KEPT: usize = 5;

/// A line of a word list that was not taken as a word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejected {
    /// The word list it came from (`-` for standard input).
    pub source: PathBuf,
    /// Its 1-based line number.
    pub line: usize,
    /// The line, trimmed (lossily decoded if not UTF-8), cut to 60
    /// characters.
    pub text: String,
    /// Why it was rejected (`Display` gives the reason in words).
    pub kind: WordErrorKind,
}

/// Words read from word lists, as tile codes, before sorting.
///
/// ```
/// use lexq::{Alphabet, WordList, error::WordErrorKind};
/// let mut list = WordList::new(Alphabet::english()).min_len(2);
/// list.read_bytes("words.txt".as_ref(), b"Cat\r\n# a comment\nx\ndon't\nmaSS\n")?;
/// assert_eq!((list.len(), list.filtered(), list.rejected()), (2, 1, 1));
/// let bad = &list.examples()[0];
/// assert_eq!((bad.line, bad.text.as_str()), (4, "don't"));
/// assert!(matches!(bad.kind, WordErrorKind::NotInAlphabet { ref found, .. } if found == "'"));
/// # Ok::<(), lexq::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct WordList {
    alphabet: Alphabet,
    min_len: usize,
    max_len: usize,
    strict: bool,
    /// All words' codes, back to back.
    pub(crate) codes: Vec<u8>,
    /// End offset in `codes` of each word.
    pub(crate) ends: Vec<u32>,
    rejected: usize,
    examples: Vec<Rejected>,
    filtered: usize,
    /// The files read by [`WordList::read_path`].
    sources: Vec<FileId>,
}

impl WordList {
    /// An empty list for words of `alphabet`, any length from 1 to the
    /// maximum, lenient.
    pub fn new(alphabet: Alphabet) -> WordList {
        WordList {
            alphabet,
            min_len: 1,
            max_len: MAX_WORD_LEN,
            strict: false,
            codes: Vec::new(),
            ends: Vec::new(),
            rejected: 0,
            examples: Vec::new(),
            filtered: 0,
            sources: Vec::new(),
        }
    }

    /// Keeps only words of at least `n` tiles.
    pub fn min_len(mut self, n: usize) -> WordList {
        self.min_len = n.max(1);
        self
    }

    /// Keeps only words of at most `n` tiles (capped at the maximum).
    pub fn max_len(mut self, n: usize) -> WordList {
        self.max_len = n.min(MAX_WORD_LEN);
        self
    }

    /// Makes every unreadable line an error instead of a skipped line.
    pub fn strict(mut self, yes: bool) -> WordList {
        self.strict = yes;
        self
    }

    /// The alphabet words are read in.
    pub fn alphabet(&self) -> &Alphabet {
        &self.alphabet
    }

    /// Words taken so far (duplicates included).
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether no word was taken.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// How many lines were rejected as unreadable.
    pub fn rejected(&self) -> usize {
        self.rejected
    }

    /// The first few rejected lines.
    pub fn examples(&self) -> &[Rejected] {
        &self.examples
    }

    /// How many words were left out for their length.
    pub fn filtered(&self) -> usize {
        self.filtered
    }

    /// Reads a word list file (`-` for standard input; else a regular
    /// file: a FIFO or a device is refused unopened).
    pub fn read_path(&mut self, path: &Path) -> Result<()> {
        let bytes = if path == Path::new("-") {
            read_capped(
                std::io::stdin().lock(),
                Path::new("<stdin>"),
                MAX_INPUT_BYTES,
                "a word list",
            )?
        } else {
            let bytes = read_file(path, MAX_INPUT_BYTES, "a word list")?;
            self.sources.extend(FileId::of(path));
            bytes
        };
        self.read_bytes(path, &bytes)
    }

    /// Adds a word already read as codes (a `.kwg`'s), the length range
    /// applied.
    pub(crate) fn push_codes(&mut self, codes: &[u8]) {
        if codes.len() < self.min_len || codes.len() > self.max_len {
            self.filtered += 1;
            return;
        }
        self.codes.extend_from_slice(codes);
        self.ends.push(self.codes.len() as u32);
    }

    /// Notes a file read, which a build's output may not overwrite.
    pub(crate) fn note_source(&mut self, path: &Path) {
        self.sources.extend(FileId::of(path));
    }

    /// The files read so far, which a build's output may not overwrite.
    pub(crate) fn sources(&self) -> &[FileId] {
        &self.sources
    }

    /// Reads the text of a word list; `source` names it in messages.
    pub fn read_bytes(&mut self, source: &Path, bytes: &[u8]) -> Result<()> {
        let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
        let utf16 = looks_like_utf16(bytes);
        let mut upper = String::new();
        for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
            let raw = raw.trim_ascii();
            if raw.is_empty() || raw[0] == b'#' {
                continue;
            }
            let kind = match std::str::from_utf8(raw) {
                _ if utf16 => WordErrorKind::Utf16,
                _ if raw.contains(&0) => WordErrorKind::NulByte,
                _ if raw.contains(&b'\r') => WordErrorKind::CarriageReturn,
                Err(_) => WordErrorKind::NotUtf8,
                Ok(text) => match self.take(text, &mut upper) {
                    Ok(()) => continue,
                    Err(kind) => kind,
                },
            };
            let rejected = Rejected {
                source: source.to_path_buf(),
                line: i + 1,
                text: shorten(&String::from_utf8_lossy(raw)),
                kind,
            };
            if self.strict {
                return Err(Error::WordList {
                    path: rejected.source,
                    line: rejected.line,
                    text: rejected.text,
                    kind: rejected.kind,
                });
            }
            self.rejected += 1;
            if self.examples.len() < EXAMPLES_KEPT {
                self.examples.push(rejected);
            }
        }
        Ok(())
    }

    /// Adds one word; `Err` holds the reason it is unreadable. Words outside
    /// the length range are counted and dropped, which is not an error.
    fn take(&mut self, text: &str, scratch: &mut String) -> std::result::Result<(), WordErrorKind> {
        let start = self.codes.len();
        let read = if text.is_ascii() {
            scratch.clear();
            scratch.push_str(text);
            scratch.make_ascii_uppercase();
            self.alphabet.encode_into(scratch, &mut self.codes)
        } else {
            self.alphabet.encode_into(text, &mut self.codes)
        };
        if let Err(mut e) = read {
            self.codes.truncate(start);
            if text.is_ascii() {
                // Name the character as the line spells it, not uppercased.
                let mut scratch = Vec::new();
                e = self
                    .alphabet
                    .encode_into(text, &mut scratch)
                    .err()
                    .unwrap_or(e);
            }
            return Err(e);
        }
        let n = self.codes.len() - start;
        if n > MAX_WORD_LEN {
            self.codes.truncate(start);
            return Err(WordErrorKind::TooManyTiles {
                tiles: n,
                max: MAX_WORD_LEN,
            });
        }
        if n < self.min_len || n > self.max_len {
            self.codes.truncate(start);
            self.filtered += 1;
            return Ok(());
        }
        self.ends.push(self.codes.len() as u32);
        Ok(())
    }

    /// The words, sorted in alphabet order, without duplicates.
    pub(crate) fn sorted_unique(&self) -> Vec<&[u8]> {
        let mut words: Vec<&[u8]> = Vec::with_capacity(self.ends.len());
        let mut start = 0;
        for &end in &self.ends {
            words.push(&self.codes[start..end as usize]);
            start = end as usize;
        }
        words.sort_unstable();
        words.dedup();
        words
    }
}

/// Whether `bytes` look like UTF-16 text: a UTF-16 byte-order mark, or
/// zero bytes in every other place of the first characters (ASCII letters
/// in UTF-16).
fn looks_like_utf16(bytes: &[u8]) -> bool {
    if bytes.starts_with(b"\xff\xfe") || bytes.starts_with(b"\xfe\xff") {
        return true;
    }
    let head = &bytes[..bytes.len().min(64) & !1];
    head.len() >= 4
        && (head.chunks(2).all(|p| p[1] == 0 && p[0] != 0)
            || head.chunks(2).all(|p| p[0] == 0 && p[1] != 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messy_input() {
        let mut wl = WordList::new(Alphabet::english());
        let text = "\u{feff}# comment\r\ncare\r\n\r\n  CARE  \nqi\ndon't\nx\n\u{0}bad\n";
        wl.read_bytes(Path::new("t.txt"), text.as_bytes()).unwrap();
        let words = wl.sorted_unique();
        assert_eq!(words.len(), 3); // CARE, QI, X
        assert_eq!(wl.rejected(), 2);
        assert_eq!(wl.examples()[0].line, 6);
        assert_eq!(wl.examples()[0].text, "don't");
    }

    #[test]
    fn strict_and_lengths() {
        let mut wl = WordList::new(Alphabet::english()).min_len(2).max_len(3);
        wl.read_bytes(Path::new("t"), b"a\nab\nabcd\n").unwrap();
        assert_eq!((wl.len(), wl.filtered()), (1, 2));
        let long = "a".repeat(64);
        let mut wl = WordList::new(Alphabet::english());
        wl.read_bytes(Path::new("t"), long.as_bytes()).unwrap();
        assert_eq!(wl.rejected(), 1);
        assert_eq!(wl.examples()[0].text, format!("{}…", "a".repeat(60)));
        let mut strict = WordList::new(Alphabet::english()).strict(true);
        let err = strict
            .read_bytes(Path::new("t"), b"ok\nno way\n")
            .unwrap_err();
        assert!(err.to_string().starts_with("t:2:"), "{err}");
        let mut bad = WordList::new(Alphabet::english());
        bad.read_bytes(Path::new("t"), b"caf\xe9\n").unwrap();
        assert_eq!(bad.examples()[0].kind, WordErrorKind::NotUtf8);
    }
}
