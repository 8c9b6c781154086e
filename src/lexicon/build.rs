//! Building a lexicon file from a [`WordList`].
//!
//! One automaton, the minimal one of the words' GADDAG keys, is built by
//! a [`Builder`] in two phases (see `build_into`): the words' own
//! automaton first, then the GADDAG keys up to their separator, whose
//! separator arcs lead into the first phase's nodes, so that no key's
//! part after the separator is ever spelled out. The fst section is
//! written from that automaton depth first, and the arc table laid out
//! from the same automaton ([`crate::lexicon::raw`]): nothing is read back from the
//! fst. [`build`] holds the file in memory; [`build_file`] writes the
//! sections to a temporary file beside the target as they are made, then
//! renames it over the target, as [`Built::write_atomic`] does, so a failed
//! or interrupted build never leaves a broken lexicon behind.

use std::cmp::Ordering;
use std::io::{self, Cursor, Seek, SeekFrom, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use crate::alphabet::Alphabet;
use crate::error::{Error, Result};
use crate::files::replace::FileId;
use crate::lexicon::format;
use crate::lexicon::fstwrite::{Automaton, Builder, EMPTY_NODE, NARROW_FROM, Out, write_fst};
use crate::lexicon::gaddag::key_byte;
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

/// Builds the lexicon of the words in `list` (an error if it holds none),
/// in memory.
///
/// ```
/// use lexq::{Alphabet, Lexicon, WordList, build};
/// let mut list = WordList::new(Alphabet::spanish());
/// list.read_bytes("es.txt".as_ref(), "chico\nllama\nperro\nñu\n".as_bytes())?;
/// let built = build(&list, &mut ())?;
/// assert_eq!((built.words, built.keys), (4, 14)); // CH I C O, LL A M A, ...
/// // built.write_atomic("es.lexq".as_ref())? would write it to a file;
/// // lexq::build_file writes it there as it goes, holding less.
/// let lex = Lexicon::from_bytes(built.bytes)?;
/// assert_eq!(lex.search().lengths(4, 4).pattern("*")?.to_strings(), ["CHICO", "LLAMA", "PERRO"]);
/// # Ok::<(), lexq::Error>(())
/// ```
pub fn build(list: &WordList, progress: &mut dyn Progress) -> Result<Built> {
    let start = Instant::now();
    let words = list.sorted_unique();
    let mut built = build_words(words, list.alphabet(), progress)?;
    built.inputs = list.sources().to_vec();
    built.elapsed = start.elapsed();
    Ok(built)
}

/// What [`build_file`] wrote.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct BuildReport {
    /// Number of distinct words.
    pub words: u64,
    /// Number of GADDAG keys.
    pub keys: u64,
    /// Size of the file in bytes.
    pub file_len: u64,
    /// Time spent building and writing.
    pub elapsed: Duration,
}

impl BuildReport {
    /// Bytes of the file per word.
    pub fn bytes_per_word(&self) -> f64 {
        self.file_len as f64 / self.words.max(1) as f64
    }
}

impl Built {
    /// What was built, as [`build_file`] reports it.
    pub fn report(&self) -> BuildReport {
        BuildReport {
            words: self.words,
            keys: self.keys,
            file_len: self.bytes.len() as u64,
            elapsed: self.elapsed,
        }
    }
}

/// Builds the lexicon of the words in `list` (an error if it holds none)
/// into the file at `path`, atomically, as [`Built::write_atomic`] would
/// write it, but writing the sections to the temporary file as they are
/// made rather than holding the whole file in memory. A `path` that is
/// one of the word lists read (also through a symlink or hard link) or
/// not a regular file is refused before anything is built: see
/// [`check_output`](crate::files::check_output).
///
/// ```
/// # let dir = tempfile::tempdir()?;
/// # let path = dir.path().join("words.lexq");
/// use lexq::{Alphabet, Lexicon, WordList, build_file};
/// let mut list = WordList::new(Alphabet::english());
/// list.read_bytes("words.txt".as_ref(), b"cat\ncats\n")?;
/// let report = build_file(&list, &path, &mut ())?;
/// assert_eq!((report.words, report.keys), (2, 7));
/// assert_eq!(report.file_len, std::fs::metadata(&path)?.len());
/// assert!(Lexicon::open_checked(&path)?.is_word("cats")?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn build_file(
    list: &WordList,
    path: &Path,
    progress: &mut dyn Progress,
) -> Result<BuildReport> {
    let start = Instant::now();
    crate::files::replace::check_target(path, list.sources())?;
    let words = list.sorted_unique();
    let (words, keys, file_len) =
        crate::files::replace::write_with(path, list.sources(), |file, temp| {
            let mut w = std::io::BufWriter::with_capacity(1 << 16, file);
            let stats =
                build_into(words, list.alphabet(), progress, &mut w).map_err(|e| match e {
                    Fail::Lexq(e) => e,
                    Fail::Io(e) => Error::io(temp, e),
                })?;
            w.flush().map_err(|e| Error::io(temp, e))?;
            Ok::<_, Error>(stats)
        })?;
    Ok(BuildReport {
        words,
        keys,
        file_len,
        elapsed: start.elapsed(),
    })
}

/// The most tiles the GADDAG keys of one lexicon may hold in all (the
/// automaton numbers its transitions with `u32`s).
const MAX_KEY_TILES: u64 = u32::MAX as u64 - 1;

/// Builds the lexicon of `words` (tile codes of `alphabet`, sorted, no
/// duplicates) in memory.
pub(crate) fn build_words(
    words: Vec<&[u8]>,
    alphabet: &Alphabet,
    progress: &mut dyn Progress,
) -> Result<Built> {
    let start = Instant::now();
    let mut out = Cursor::new(Vec::new());
    let (n, keys, _) = build_into(words, alphabet, progress, &mut out).map_err(|e| match e {
        Fail::Lexq(e) => e,
        Fail::Io(e) => Error::io("<memory>", e),
    })?;
    Ok(Built {
        bytes: out.into_inner(),
        words: n,
        keys,
        elapsed: start.elapsed(),
        inputs: Vec::new(),
    })
}

/// Why a build stopped.
pub(crate) enum Fail {
    Lexq(Error),
    Io(io::Error),
}

impl From<io::Error> for Fail {
    fn from(e: io::Error) -> Fail {
        Fail::Io(e)
    }
}

/// The builder's symbol for tile code `c` (the separator is code 0): codes
/// shifted up by one, so that 0 pads a key and sorts before them all.
#[inline]
fn sym(c: u8) -> u8 {
    c + 1
}

/// The symbol of the separator.
const SEP: u8 = 1;

/// Builds the lexicon of `words` (tile codes of `alphabet`, sorted, no
/// duplicates) and writes the file to `out`, section by section: the
/// number of words, of keys, and the file's length.
///
/// The automaton is built in two phases on one [`Builder`]:
///
/// 1. the words' own automaton (a DAWG: CARE, CARS, CART...). When the
///    node a prefix leads to is frozen, its number is kept in a table with
///    a slot for every tile of every word (the slot of CAR is CARE's
///    third tile: CARE is the first word that goes on past CAR);
/// 2. the GADDAG keys up to the separator, sorted: each whole word
///    reversed (ERAC), and each prefix reversed with the separator (RAC@,
///    AC@, C@), once per prefix. The separator's arc leads to the node of
///    the prefix from phase 1, as one that accepts nothing by itself (the
///    GADDAG's keys after RAC@ are those that follow CAR in words, with
///    one tile at least: E, S, T...). Those suffixes are never spelled out
///    again, which is most of the keys' tiles.
///
/// Both phases share the register, so the result is the minimal automaton
/// of every GADDAG key (the fst's tests compare it with one built from all
/// the keys). The fst section is written from it depth first, then the
/// arc table ([`crate::lexicon::raw`]); the header last.
pub(crate) fn build_into<W: Write + Seek>(
    words: Vec<&[u8]>,
    alphabet: &Alphabet,
    progress: &mut dyn Progress,
    out: &mut W,
) -> std::result::Result<(u64, u64, u64), Fail> {
    if words.is_empty() {
        return Err(Fail::Lexq(Error::NoWords));
    }
    let max_len = words.iter().map(|w| w.len()).max().unwrap_or(0);
    let keys: u64 = words.iter().map(|w| w.len() as u64).sum();
    // A word of n tiles has n keys of n or n + 1 tiles.
    let tiles: u64 = words
        .iter()
        .map(|w| (w.len() as u64) * (w.len() as u64 + 1))
        .sum();
    if tiles > MAX_KEY_TILES {
        return Err(Fail::Lexq(Error::TooLarge {
            tiles,
            max: MAX_KEY_TILES,
        }));
    }
    let max_code = alphabet.len() as u8;
    let word_count = words.len() as u64;
    progress.stage("fst", word_count + keys);
    let automaton = automaton(&words, max_code, max_len, keys, progress, NARROW_FROM);
    // The words are in the automaton now: their list goes before the
    // layout takes its memory.
    drop(words);

    // The file: header and alphabet (the header's fields filled in last),
    // the fst section, the arc table.
    let mut head = format::begin(alphabet, 0);
    out.write_all(&head)?;
    let fst_start = head.len();
    let mut o = Out::new(out);
    let mut bytes = [0u8; 256];
    for c in 0..=63u8 {
        bytes[sym(c) as usize] = key_byte(c);
    }
    write_fst(&automaton, &bytes, keys, &mut o)?;
    let fst_len = o.pos() as usize;
    let fst_crc = o.crc();
    let pad = fst_len.next_multiple_of(8) - fst_len;
    o.buf().extend_from_slice(&[0; 8][..pad]);
    o.restart()?;
    let arcs_start = fst_len.next_multiple_of(8) + fst_start;
    progress.stage("arcs", automaton.len() as u64);
    let mut automaton = automaton;
    let written = raw::write::write(&mut automaton, &mut o).map_err(|e| match e {
        raw::write::Fail::TooLarge => Fail::Lexq(Error::TooLarge {
            tiles,
            max: MAX_KEY_TILES,
        }),
        raw::write::Fail::Io(e) => Fail::Io(e),
    })?;
    progress.advance(automaton.len() as u64);
    drop(automaton);
    let arcs_len = o.pos() as usize;
    let arcs_crc = o.crc();
    o.flush()?;
    drop(o);
    let file_len = (arcs_start + arcs_len) as u64;
    format::seal(
        &mut head,
        (fst_start..fst_start + fst_len, fst_crc),
        (arcs_start..arcs_start + arcs_len, arcs_crc),
        &format::Fields {
            words: word_count,
            keys,
            max_len: max_len as u32,
            alphabet,
            arc_count: written.count,
            arc_width: written.width,
            code_counts: written.code_counts,
        },
    );
    out.seek(SeekFrom::Start(0))?;
    out.write_all(&head)?;
    out.seek(SeekFrom::Start(file_len))?;
    Ok((word_count, keys, file_len))
}

/// The minimal automaton of the GADDAG keys of `words` (see
/// [`build_into`]), its symbols the codes plus one ([`sym`]); the
/// register's table narrow past `narrow_from` slots.
fn automaton(
    words: &[&[u8]],
    max_code: u8,
    max_len: usize,
    keys: u64,
    progress: &mut dyn Progress,
    narrow_from: usize,
) -> Automaton {
    let mut b = Builder::with_narrow_from(keys as usize, narrow_from);
    // Phase 1: the words' automaton; the node of each prefix that some
    // word goes on past, in the slot of its last tile in the first such
    // word. A node pushed by a word (tagged with the word's first slot)
    // at depth d is final only at the word's end (an earlier word would
    // have pushed it otherwise); then the first word to go on past it is
    // the next one, whose first slot is d further.
    let total: usize = words.iter().map(|w| w.len()).sum();
    let mut node_of = vec![0u32; total];
    let mut record = |tag: u32, d: usize, n: u32, is_final: bool| {
        if d > 0 && n != EMPTY_NODE {
            let slot = tag as usize + d - 1 + if is_final { d } else { 0 };
            node_of[slot] = n;
        }
    };
    let mut key = [0u8; 64];
    let mut offset = 0u32;
    for (j, w) in words.iter().enumerate() {
        for (k, &c) in key.iter_mut().zip(w.iter()) {
            *k = sym(c);
        }
        b.insert(&key[..w.len()], offset, &mut record);
        offset += w.len() as u32;
        if j % 65536 == 65535 {
            progress.advance(65536);
        }
    }
    b.end_phase(&mut record);
    progress.advance(words.len() as u64 % 65536);

    // How far each word shares a prefix with the one before that the
    // latter goes on past (a prefix whose separator key it made).
    let shared: Vec<u8> = std::iter::once(0)
        .chain(words.windows(2).map(|p| {
            let lcp = p[0].iter().zip(p[1]).take_while(|(a, b)| a == b).count();
            lcp.min(p[0].len() - 1) as u8
        }))
        .collect();
    // Phase 2: the keys up to the separator, one last tile of the prefix
    // (the key's first tile) at a time: only those are in memory at once.
    let masks: Vec<u64> = words
        .iter()
        .map(|w| w.iter().fold(0u64, |m, &c| m | 1 << (c & 63)))
        .collect();
    // The nodes the separator keys lead to, by the prefix's last tile, in
    // the order `sorted_keys` takes them, and each tile's list freed once
    // its keys are in: `node_of` is gone before the automaton is at its
    // largest.
    let mut targets = separator_targets(words, &shared, &node_of, max_code);
    drop(node_of);
    let mut short: Vec<([u8; 16], u32)> = Vec::new();
    let mut long: Vec<([u8; 64], u32)> = Vec::new();
    for first in 1..=max_code.min(63) {
        let bit = 1u64 << first;
        let masks = &masks;
        let with = || (0..words.len()).filter(move |&j| masks[j] & bit != 0);
        let these = std::mem::take(&mut targets[first as usize]);
        let mut these = these.iter().copied();
        let made = sorted_keys::<16>(
            with().filter(|&j| words[j].len() < 16),
            words,
            &shared,
            &mut these,
            first,
            &mut short,
        ) + if max_len >= 16 {
            sorted_keys::<64>(
                with().filter(|&j| words[j].len() >= 16),
                words,
                &shared,
                &mut these,
                first,
                &mut long,
            )
        } else {
            0
        };
        let (mut i, mut j) = (0, 0);
        while i < short.len() || j < long.len() {
            // A short key sorts first when its 16 bytes are at most the
            // long key's first 16: if they are equal, it is a prefix of the
            // long one.
            let take_short = j == long.len()
                || (i < short.len()
                    && u128::from_be_bytes(short[i].0)
                        <= u128::from_be_bytes(long[j].0[..16].try_into().expect("16 bytes")));
            let (k, target): (&[u8], u32) = if take_short {
                i += 1;
                (&short[i - 1].0, short[i - 1].1)
            } else {
                j += 1;
                (&long[j - 1].0, long[j - 1].1)
            };
            let k = &k[..padded_len(k)];
            if target == WHOLE {
                b.insert(k, 0, &mut |_, _, _, _| {});
            } else {
                let (n, new) = b.not_final(target);
                b.insert_to(k, n, new);
            }
        }
        progress.advance(made as u64);
    }
    b.finish()
}

/// For each tile code, the nodes that the separator keys of the prefixes
/// ending in it lead to, from `node_of` (the node of each prefix that a
/// word is the first to go on past, in the slot of its last tile), in the
/// order [`sorted_keys`] takes them: the words of fewer than 16 tiles
/// first, then the others, each in the list's order, and each word's
/// prefixes shortest first. CARE after CAB (shared 2): CAR in R's list,
/// not CA (CAB went past it first), nor CARE (a whole word).
fn separator_targets(
    words: &[&[u8]],
    shared: &[u8],
    node_of: &[u32],
    max_code: u8,
) -> Vec<Vec<u32>> {
    let mut starts = Vec::with_capacity(words.len());
    let mut at = 0;
    for w in words {
        starts.push(at);
        at += w.len();
    }
    // The prefixes of word j that need a target (n tiles long): past the
    // part shared with the word before, short of the whole word.
    let short = || (0..words.len()).filter(|&j| words[j].len() < 16);
    let long = || (0..words.len()).filter(|&j| words[j].len() >= 16);
    let mut counts = vec![0usize; max_code as usize + 1];
    for j in short().chain(long()) {
        for &c in &words[j][shared[j] as usize..words[j].len() - 1] {
            counts[c as usize] += 1;
        }
    }
    let mut lists: Vec<Vec<u32>> = counts.iter().map(|&n| Vec::with_capacity(n)).collect();
    for j in short().chain(long()) {
        let w = words[j];
        for n in shared[j] as usize + 1..w.len() {
            lists[w[n - 1] as usize].push(node_of[starts[j] + n - 1]);
        }
    }
    lists
}

/// The target of a whole-word key in [`sorted_keys`]' output.
const WHOLE: u32 = u32::MAX;

/// Puts into `keys` the padded keys up to the separator (symbols, see
/// [`sym`]) of the words `which` that start with tile `first`, sorted,
/// each with the node its separator leads to ([`WHOLE`] for a whole word
/// reversed; the others taken in turn from `targets`, see
/// [`separator_targets`]); returns how many GADDAG keys they stand for.
fn sorted_keys<const W: usize>(
    which: impl Iterator<Item = usize> + Clone,
    words: &[&[u8]],
    shared: &[u8],
    targets: &mut impl Iterator<Item = u32>,
    first: u8,
    keys: &mut Vec<([u8; W], u32)>,
) -> usize {
    // The splits of word j whose prefix ends with `first`: the whole word,
    // and the prefixes of which it is the first word to go on past.
    let splits = move |j: usize| {
        let w = words[j];
        let from = shared[j] as usize;
        w.iter()
            .enumerate()
            .filter(move |&(i, &c)| c == first && (i + 1 == w.len() || i + 1 > from))
            .map(move |(i, _)| (j, i + 1))
    };
    // Bucket the keys by their second symbol (a counting sort), then sort
    // each bucket: much less work than one comparison sort of all keys.
    let second = |w: &[u8], i: usize| -> usize {
        if i >= 2 {
            sym(w[i - 2]) as usize
        } else if i < w.len() {
            SEP as usize
        } else {
            0
        }
    };
    let mut counts = [0usize; 66];
    let mut all = 0;
    for j in which.clone() {
        for (j, i) in splits(j) {
            counts[second(words[j], i)] += 1;
        }
        all += words[j].iter().filter(|&&c| c == first).count();
    }
    let mut total = 0;
    for s in counts.iter_mut() {
        let n = *s;
        *s = total;
        total += n;
    }
    let starts_b = counts;
    keys.clear();
    keys.resize(total, ([0u8; W], 0));
    let mut next = starts_b;
    for j in which {
        for (j, i) in splits(j) {
            let w = words[j];
            let b = second(w, i);
            let slot = &mut keys[next[b]];
            next[b] += 1;
            let mut k = 0;
            for &c in w[..i].iter().rev() {
                slot.0[k] = sym(c);
                k += 1;
            }
            slot.1 = if i == w.len() {
                WHOLE
            } else {
                slot.0[k] = SEP;
                targets.next().expect("a target for every separator key")
            };
        }
    }
    for b in 0..66 {
        keys[starts_b[b]..next[b]].sort_unstable_by(|x, y| key_cmp(&x.0, &y.0));
    }
    all
}

/// The length of a padded key.
#[inline]
fn padded_len(key: &[u8]) -> usize {
    key.iter().rposition(|&c| c != 0).map_or(0, |p| p + 1)
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

    /// A narrow register (see `fstwrite`) makes the same automaton, twins
    /// (nodes that differ only in being final, which the arc table
    /// merges) included, as the wide one that small lists get.
    #[test]
    fn narrow_register_same_automaton() {
        let text = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/indexes/enable1.txt"))
            .expect("ENABLE in the repository");
        let text: Vec<u8> = text
            .split(|&b| b == b'\n')
            .step_by(3)
            .flat_map(|w| w.iter().chain(b"\n"))
            .copied()
            .collect();
        let mut list = WordList::new(Alphabet::english());
        list.read_bytes(Path::new("t"), &text).unwrap();
        let words = list.sorted_unique();
        let keys: u64 = words.iter().map(|w| w.len() as u64).sum();
        let max_len = words.iter().map(|w| w.len()).max().unwrap();
        let wide = automaton(&words, 26, max_len, keys, &mut (), usize::MAX);
        let narrow = automaton(&words, 26, max_len, keys, &mut (), 0);
        assert!(wide.twins.len() > 100, "{} twins", wide.twins.len());
        assert!(wide == narrow, "the same automaton");
    }

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
