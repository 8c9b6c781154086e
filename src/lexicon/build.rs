//! Building a lexicon file from a [`WordList`].
//!
//! The words' GADDAG keys are made one first tile at a time, as
//! fixed-width zero-padded arrays (the padding sorts like the end of a
//! key, see `gaddag::padded_key`), bucketed by their second byte and
//! sorted, and fed in order to `SetWriter`, which builds the minimal
//! automaton of the keys and writes it in `fst::Set`'s format as it goes.
//! The arc table is then laid out from that same automaton
//! ([`crate::lexicon::raw`]). [`Built::write_atomic`] writes the file to a temporary
//! file beside the target and renames it over it, so a failed or
//! interrupted build never leaves a broken lexicon behind.

use std::cmp::Ordering;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::alphabet::Alphabet;
use crate::error::{Error, Result};
use crate::files::replace::FileId;
use crate::lexicon::format;
use crate::lexicon::fstwrite::SetWriter;
use crate::lexicon::gaddag::{key_byte, key_prefix, padded_key, padded_len};
use crate::lexicon::raw;
use crate::lexicon::wordlist::WordList;

/// Receives progress reports from a build (the CLI draws a bar with them).
///
/// ```
/// use lexq::{Alphabet, Progress, WordList, build};
/// struct Stages(Vec<&'static str>);
/// impl Progress for Stages {
///     fn stage(&mut self, name: &'static str, _total: u64) {
///         self.0.push(name);
///     }
///     fn advance(&mut self, _n: u64) {}
/// }
/// let mut list = WordList::new(Alphabet::english());
/// list.read_bytes("-".as_ref(), b"cat\n")?;
/// let mut stages = Stages(Vec::new());
/// build(&list, &mut stages)?;
/// assert_eq!(stages.0, ["fst", "arcs"]);
/// # Ok::<(), lexq::Error>(())
/// ```
pub trait Progress {
    /// A new stage begins, with `total` steps.
    fn stage(&mut self, name: &'static str, total: u64);
    /// `n` more steps of the current stage are done.
    fn advance(&mut self, n: u64);
}

/// Progress that goes nowhere.
impl Progress for () {
    fn stage(&mut self, _: &'static str, _: u64) {}
    fn advance(&mut self, _: u64) {}
}

/// A built lexicon, in memory, ready to be written or opened.
#[derive(Clone, Debug)]
pub struct Built {
    /// The whole lexicon file.
    pub bytes: Vec<u8>,
    /// Number of distinct words.
    pub words: u64,
    /// Number of GADDAG keys.
    pub keys: u64,
    /// Time spent building.
    pub elapsed: Duration,
    /// The files the words were read from, which the output may not be.
    inputs: Vec<FileId>,
}

impl Built {
    /// A built lexicon of `bytes`, read from no word list.
    pub(crate) fn new(bytes: Vec<u8>, words: u64, keys: u64, elapsed: Duration) -> Built {
        Built {
            bytes,
            words,
            keys,
            elapsed,
            inputs: Vec::new(),
        }
    }

    /// Bytes of the file per word.
    pub fn bytes_per_word(&self) -> f64 {
        self.bytes.len() as f64 / self.words.max(1) as f64
    }

    /// Writes the file atomically: to a temporary file in the same folder,
    /// flushed to disk, then renamed to `path`. A `path` that is one of the
    /// word lists read (also through a symlink or hard link) or not a
    /// regular file is refused: see [`check_output`](crate::files::check_output).
    pub fn write_atomic(&self, path: &Path) -> Result<()> {
        crate::files::replace::write(path, &self.bytes, &self.inputs)
    }
}

/// Builds the lexicon of the words in `list` (an error if it holds none).
///
/// ```
/// use lexq::{Alphabet, Lexicon, WordList, build};
/// let mut list = WordList::new(Alphabet::spanish());
/// list.read_bytes("es.txt".as_ref(), "chico\nllama\nperro\nñu\n".as_bytes())?;
/// let built = build(&list, &mut ())?;
/// assert_eq!((built.words, built.keys), (4, 14)); // CH I C O, LL A M A, ...
/// // built.write_atomic("es.lexq".as_ref())? would write it to a file.
/// let lex = Lexicon::from_bytes(built.bytes)?;
/// assert_eq!(lex.search().lengths(4, 4).pattern("*")?.to_strings(), ["CHICO", "LLAMA", "PERRO"]);
/// # Ok::<(), lexq::Error>(())
/// ```
pub fn build(list: &WordList, progress: &mut dyn Progress) -> Result<Built> {
    let start = Instant::now();
    let words = list.sorted_unique();
    let mut built = build_words(&words, list.alphabet(), progress)?;
    built.inputs = list.sources().to_vec();
    built.elapsed = start.elapsed();
    Ok(built)
}

/// The most tiles the GADDAG keys of one lexicon may hold in all (the
/// automaton numbers its transitions with `u32`s).
const MAX_KEY_TILES: u64 = u32::MAX as u64 - 1;

/// Builds the lexicon of `words` (tile codes of `alphabet`, sorted, no
/// duplicates).
pub(crate) fn build_words(
    words: &[&[u8]],
    alphabet: &Alphabet,
    progress: &mut dyn Progress,
) -> Result<Built> {
    let start = Instant::now();
    if words.is_empty() {
        return Err(Error::NoWords);
    }
    let max_len = words.iter().map(|w| w.len()).max().unwrap_or(0);
    let keys: u64 = words.iter().map(|w| w.len() as u64).sum();
    // A word of n tiles has n keys of n or n + 1 tiles.
    let tiles: u64 = words
        .iter()
        .map(|w| (w.len() as u64) * (w.len() as u64 + 1))
        .sum();
    if tiles > MAX_KEY_TILES {
        return Err(Error::TooLarge {
            tiles,
            max: MAX_KEY_TILES,
        });
    }
    // About 20 bytes of fst and 4 of arcs a key (ENABLE: 2 and 2).
    let out = format::begin(alphabet, (keys as usize).saturating_mul(5));
    let fst_start = out.len();
    progress.stage("fst", keys);
    let mut set = SetWriter::in_buffer(out, keys as usize);
    match max_len + 1 {
        0..=32 => insert_keys::<32>(words, alphabet.len() as u8, &mut set, progress),
        _ => insert_keys::<64>(words, alphabet.len() as u8, &mut set, progress),
    }
    let (mut out, mut automaton) = set.finish_automaton();
    let fst = fst_start..out.len();
    out.resize(out.len().next_multiple_of(8), 0);
    let arcs_start = out.len();
    progress.stage("arcs", automaton.len() as u64);
    let written = raw::write::write(&mut automaton, &mut out).map_err(|_| Error::TooLarge {
        tiles,
        max: MAX_KEY_TILES,
    })?;
    progress.advance(automaton.len() as u64);
    drop(automaton);
    let arcs = arcs_start..out.len();
    format::seal(
        &mut out,
        fst,
        arcs,
        &format::Fields {
            words: words.len() as u64,
            keys,
            max_len: max_len as u32,
            alphabet,
            arc_count: written.count,
            arc_width: written.width,
            code_counts: written.code_counts,
        },
    );
    Ok(Built {
        bytes: out,
        words: words.len() as u64,
        keys,
        elapsed: start.elapsed(),
        inputs: Vec::new(),
    })
}

/// Feeds the padded GADDAG keys of `words` (tile codes at most `max_code`,
/// each at most `W - 1` tiles) to `set` in order, one first tile at a
/// time: only the keys starting with one tile are in memory at once.
///
/// Most keys fit 16 bytes (words of up to 15 tiles): those are sorted as
/// `[u8; 16]`, the few longer ones as `[u8; W]`, and the two runs merged,
/// which halves the memory the sort moves for lists with long words.
fn insert_keys<const W: usize>(
    words: &[&[u8]],
    max_code: u8,
    set: &mut SetWriter,
    progress: &mut dyn Progress,
) {
    // The tiles of each word, to skip the words without a given tile.
    let masks: Vec<u64> = words
        .iter()
        .map(|w| w.iter().fold(0u64, |m, &c| m | 1 << (c & 63)))
        .collect();
    // First tiles in the order of their key bytes (the keys' order).
    let mut firsts: Vec<u8> = (1..=max_code.min(63)).collect();
    firsts.sort_unstable_by_key(|&c| key_byte(c));
    let mut short: Vec<[u8; 16]> = Vec::new();
    let mut long: Vec<[u8; W]> = Vec::new();
    for first in firsts {
        let bit = 1u64 << first;
        let with = || {
            words
                .iter()
                .zip(&masks)
                .filter(move |(_, m)| *m & bit != 0)
                .map(|(w, _)| *w)
        };
        sorted_keys::<16>(with().filter(|w| w.len() < 16), first, &mut short);
        sorted_keys::<W>(with().filter(|w| w.len() >= 16), first, &mut long);
        let (mut i, mut j) = (0, 0);
        while i < short.len() || j < long.len() {
            // A short key sorts first when its 16 bytes are at most the
            // long key's first 16: if they are equal, it is a prefix of the
            // long one.
            let take_short = j == long.len()
                || (i < short.len()
                    && u128::from_be_bytes(short[i]) <= u128::from_be_bytes(first16(&long[j])));
            if take_short {
                set.insert(&short[i][..padded_len(&short[i])]);
                i += 1;
            } else {
                set.insert(&long[j][..padded_len(&long[j])]);
                j += 1;
            }
        }
        progress.advance((short.len() + long.len()) as u64);
    }
}

/// The first 16 bytes of a padded key.
#[inline]
fn first16<const W: usize>(key: &[u8; W]) -> [u8; 16] {
    key[..16].try_into().expect("W >= 16")
}

/// Puts into `keys` the padded GADDAG keys of `words` (each at most `W -
/// 1` tiles) that start with tile `first`, sorted.
fn sorted_keys<'w, const W: usize>(
    words: impl Iterator<Item = &'w [u8]> + Clone,
    first: u8,
    keys: &mut Vec<[u8; W]>,
) {
    // Bucket the keys by their second byte (a counting sort), then sort
    // each bucket: much less work than one comparison sort of all keys.
    let splits = |w: &'w [u8]| {
        w.iter()
            .enumerate()
            .filter(move |&(_, &c)| c == first)
            .map(move |(i, _)| (w, i + 1))
    };
    let mut starts = [0usize; 129];
    for w in words.clone() {
        for (w, i) in splits(w) {
            starts[key_prefix(w, i) & 127] += 1;
        }
    }
    let mut total = 0;
    for s in starts.iter_mut() {
        let n = *s;
        *s = total;
        total += n;
    }
    keys.clear();
    keys.resize(total, [0u8; W]);
    let mut next = starts;
    for w in words {
        for (w, i) in splits(w) {
            let b = key_prefix(w, i) & 127;
            padded_key(w, i, &mut keys[next[b]]);
            next[b] += 1;
        }
    }
    for b in 0..128 {
        keys[starts[b]..next[b]].sort_unstable_by(key_cmp);
    }
}

/// Compares padded keys as `[u8; W]`'s `Ord` does, 16 bytes at a time as
/// big-endian integers: much faster than calls to `memcmp` (`W` is a
/// multiple of 16).
#[inline]
fn key_cmp<const W: usize>(a: &[u8; W], b: &[u8; W]) -> Ordering {
    const { assert!(W % 16 == 0) };
    for (x, y) in a.chunks_exact(16).zip(b.chunks_exact(16)) {
        let x = u128::from_be_bytes(x.try_into().expect("16 bytes"));
        let y = u128::from_be_bytes(y.try_into().expect("16 bytes"));
        if x != y {
            return x.cmp(&y);
        }
    }
    Ordering::Equal
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alphabet::Alphabet;
    use crate::lexicon::Lexicon;

    /// Words of every length from 1 to 63 tiles mix keys of the 16-byte and
    /// the wide runs; all must come back.
    #[test]
    fn words_of_every_length() {
        let mut text = String::new();
        let mut expect = Vec::new();
        for n in 1..=63 {
            for w in [
                "a".repeat(n),
                "ab".repeat(n).chars().take(n).collect(),
                "z".repeat(n),
            ] {
                text.push_str(&w);
                text.push('\n');
                expect.push(w.to_uppercase());
            }
        }
        expect.sort();
        expect.dedup();
        let mut list = WordList::new(Alphabet::english());
        list.read_bytes(Path::new("t"), text.as_bytes()).unwrap();
        let built = build(&list, &mut ()).unwrap();
        let lex = Lexicon::from_bytes(built.bytes).unwrap();
        assert_eq!(lex.pattern("*").unwrap().to_strings(), expect);
        assert_eq!(lex.ends("a").unwrap().len(), 63 + 31);
        assert!(lex.is_word(&"ab".repeat(32)[..63]).unwrap());
    }
}
