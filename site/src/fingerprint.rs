//! Which word list a site was built from: a fingerprint of the words
//! themselves, not of the lexicon file's bytes, so that the same list in
//! another lexicon file (another format version, another build) still
//! matches, and any other list does not.
//!
//! A site's pages hold what the build computed from its lexicon (hooks,
//! anagrams, validity); served beside a lexicon of another list, word
//! searches and word pages would disagree. So a site is checked against
//! the lexicon it is opened with ([`crate::Site::check_lexicon`]): `lexq serve`
//! refuses to serve the two together, `lexq site search` and `lexq site
//! export` refuse a `--lexicon` that is not the site's.

use std::fmt;

use lexq::Lexicon;
use serde::{Deserialize, Serialize};

/// A word list's fingerprint: its number of words and the CRC-32C of
/// their spellings in the lexicon's order (the alphabet's), each followed
/// by a newline: for ENABLE, the CRC of `AA\nAAH\nAAHED\n...ZYZZYVAS\n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct WordListId {
    /// How many words.
    pub words: u64,
    /// The CRC-32C of the spellings.
    pub crc32c: u32,
}

impl WordListId {
    /// The fingerprint of `lex`'s words: a walk of all of them (about as
    /// long as `lexq pattern '*'`). The walk does at most the work the
    /// lexicon's stated size implies only on a lexicon whose structure is
    /// checked ([`Lexicon::open_checked`], [`Lexicon::verify`]).
    ///
    /// ```
    /// let lex = lexq::Lexicon::embedded();
    /// let id = lexq_site::fingerprint::WordListId::of(&lex)?;
    /// assert_eq!(id.words, 172_820);
    /// # Ok::<(), lexq::Error>(())
    /// ```
    pub fn of(lex: &Lexicon) -> lexq::Result<WordListId> {
        let words = lex.pattern("*")?;
        let mut hasher = Hasher::default();
        let mut spelled = String::new();
        for w in words.iter() {
            spelled.clear();
            w.push_to(&mut spelled);
            hasher.add(&spelled);
        }
        Ok(hasher.finish())
    }
}

impl fmt::Display for WordListId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} words, CRC-32C {:08x}", self.words, self.crc32c)
    }
}

/// Builds a [`WordListId`] from the words one at a time, in order.
#[derive(Default)]
pub(crate) struct Hasher {
    words: u64,
    crc: u32,
}

impl Hasher {
    /// Adds the next word, spelled as the alphabet spells it.
    pub(crate) fn add(&mut self, word: &str) {
        self.crc = crc32c::crc32c_append(self.crc, word.as_bytes());
        self.crc = crc32c::crc32c_append(self.crc, b"\n");
        self.words += 1;
    }

    pub(crate) fn finish(&self) -> WordListId {
        WordListId {
            words: self.words,
            crc32c: self.crc,
        }
    }
}
