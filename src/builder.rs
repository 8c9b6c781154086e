//! Building a lexicon file from a [`WordList`].
//!
//! The words' GADDAG keys are written as fixed-width zero-padded arrays (the
//! padding sorts like the end of a key, see `gaddag::padded_key`)
//! into buckets by their first two bytes, each bucket is sorted, and the
//! keys are fed in order to `SetWriter`, which writes the minimal
//! automaton of the keys in `fst::Set`'s format. The file is
//! written to a temporary file beside the target and renamed over it, so a
//! failed or interrupted build never leaves a broken lexicon behind.

use std::cmp::Ordering;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::atomic::FileId;
use crate::error::{Error, Result};
use crate::format;
use crate::fstwrite::SetWriter;
use crate::gaddag::{key_prefix, padded_key, padded_len};
use crate::wordlist::WordList;

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
/// assert_eq!(stages.0, ["keys", "fst"]);
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
    /// Bytes of the file per word.
    pub fn bytes_per_word(&self) -> f64 {
        self.bytes.len() as f64 / self.words.max(1) as f64
    }

    /// Writes the file atomically: to a temporary file in the same folder,
    /// flushed to disk, then renamed to `path`. A `path` that is one of the
    /// word lists read (also through a symlink or hard link) or not a
    /// regular file is refused: see [`check_output`](crate::check_output).
    pub fn write_atomic(&self, path: &Path) -> Result<()> {
        crate::atomic::write(path, &self.bytes, &self.inputs)
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
    if words.is_empty() {
        return Err(Error::NoWords);
    }
    let max_len = words.iter().map(|w| w.len()).max().unwrap_or(0);
    let fst = match max_len + 1 {
        0..=32 => fst_bytes::<32>(&words, progress),
        _ => fst_bytes::<64>(&words, progress),
    };
    let keys: u64 = words.iter().map(|w| w.len() as u64).sum();
    let arcs = stored_arcs(&fst, list.alphabet().len() as u8);
    let mut bytes = Vec::with_capacity(fst.len() + arcs.as_ref().map_or(0, |a| a.0.len()) + 1024);
    format::write(
        &mut bytes,
        words.len() as u64,
        keys,
        max_len as u32,
        list.alphabet(),
        arcs.as_ref().map(|(a, n)| (&a[..], *n)),
        &fst,
    )
    .expect("writing to memory");
    Ok(Built {
        bytes,
        words: words.len() as u64,
        keys,
        elapsed: start.elapsed(),
        inputs: list.sources().to_vec(),
    })
}

/// The move generator's arc table for the fst `fst`, in its stored form
/// (see [`format`]) with its number of arcs, or `None` if the GADDAG is
/// too big for one (the file then has no arcs section).
fn stored_arcs(fst: &[u8], max_code: u8) -> Option<(Vec<u8>, u64)> {
    let footer = crate::node::Fst::new(fst).ok()?;
    let arcs = crate::graph::Arcs::from_nodes(footer.area(fst), footer.root(fst), max_code)?;
    Some((arcs.to_table_bytes(), arcs.len() as u64))
}

/// The GADDAG `fst::Set` of `words`, keys at most `W` bytes long.
///
/// Most keys fit 16 bytes (words of up to 15 tiles): those are sorted as
/// `[u8; 16]`, the few longer ones as `[u8; W]`, and the two runs merged,
/// which halves the memory the sort moves for lists with long words.
fn fst_bytes<const W: usize>(words: &[&[u8]], progress: &mut dyn Progress) -> Vec<u8> {
    let total: usize = words.iter().map(|w| w.len()).sum();
    progress.stage("keys", total as u64);
    let (short, long): (Vec<&[u8]>, Vec<&[u8]>) = words.iter().partition(|w| w.len() < 16);
    // The stage advances as buckets of keys are sorted.
    let short = sorted_keys::<16>(&short, progress);
    let long = sorted_keys::<W>(&long, progress);

    progress.stage("fst", total as u64);
    let mut set = SetWriter::with_capacity(total);
    let (mut i, mut j) = (0, 0);
    while i < short.len() || j < long.len() {
        // A short key sorts first when its 16 bytes are at most the long
        // key's first 16: if they are equal, it is a prefix of the long one.
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
        if (i + j) % (1 << 16) == 0 {
            progress.advance(1 << 16);
        }
    }
    set.finish()
}

/// The first 16 bytes of a padded key.
#[inline]
fn first16<const W: usize>(key: &[u8; W]) -> [u8; 16] {
    key[..16].try_into().expect("W >= 16")
}

/// The padded GADDAG keys of `words` (each at most `W - 1` tiles), sorted;
/// `progress` advances by the number of keys, bucket by bucket.
fn sorted_keys<const W: usize>(words: &[&[u8]], progress: &mut dyn Progress) -> Vec<[u8; W]> {
    let total: usize = words.iter().map(|w| w.len()).sum();
    // Bucket the keys by their first two bytes (a counting sort), then sort
    // each bucket: much less work than one comparison sort of all keys.
    let bucket = key_prefix;
    let mut starts = vec![0usize; (1 << 14) + 1];
    for w in words {
        for i in 1..=w.len() {
            starts[bucket(w, i) + 1] += 1;
        }
    }
    for b in 1..starts.len() {
        starts[b] += starts[b - 1];
    }
    let mut keys: Vec<[u8; W]> = vec![[0u8; W]; total];
    let mut next = starts.clone();
    for w in words {
        for i in 1..=w.len() {
            let b = bucket(w, i);
            padded_key(w, i, &mut keys[next[b]]);
            next[b] += 1;
        }
    }
    let mut unreported = 0;
    for b in starts.windows(2) {
        keys[b[0]..b[1]].sort_unstable_by(key_cmp);
        unreported += b[1] - b[0];
        if unreported >= 1 << 16 {
            progress.advance(unreported as u64);
            unreported = 0;
        }
    }
    progress.advance(unreported as u64);
    keys
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
