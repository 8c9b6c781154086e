//! [`Lexicon`]: an open lexicon file (read into memory, memory-mapped by a
//! caller that vouches for the file, embedded, or from bytes), and the
//! [`OpenOptions`] that say how.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use memmap2::Mmap;

use crate::alphabet::Alphabet;
use crate::error::{Error, LexiconErrorKind, Result};
use crate::error::{Named, NamedErrorKind};
use crate::files::policy::{FilePolicy, not_found};
use crate::lexicon::alphagrams::Alphagrams;
use crate::lexicon::build::Progress;
use crate::lexicon::format::{self, Header, Parsed};
use crate::lexicon::fstcheck::{self, Fst};
use crate::lexicon::raw::Arcs;
use crate::lexicon::upgrade::upgrade_bytes;

/// The bytes under a lexicon: a memory map, a static slice (the embedded
/// default) or an owned buffer. None of them moves its bytes when moved.
enum Backing {
    Mmap(Mmap),
    Static(&'static [u8]),
    Owned(Vec<u8>),
}

impl Backing {
    fn bytes(&self) -> &[u8] {
        match self {
            Backing::Mmap(m) => m,
            Backing::Static(s) => s,
            Backing::Owned(v) => v,
        }
    }
}

/// A lexicon: a set of words stored as a GADDAG, ready for queries.
///
/// Every query walks the arc table in place, in the lexicon's bytes (see
/// [`crate::lexicon::raw`]): nothing is built at open that a query does
/// not need.
///
/// # Checks
///
/// [`Lexicon::open`] checks the header and its CRC, and the arc table's
/// CRC: every walk reads the table, so damage to it is found at once.
/// [`OpenOptions::checks`] chooses less ([`Checks::Header`], for a caller
/// that has checked the same file before and keeps its own record of it,
/// as the `lexq` command line does) or more ([`Checks::Full`]). The fst
/// section's CRC and structure are checked when the fst is first asked
/// for ([`Lexicon::fst_set`]), once per lexicon; no walk of lexq's own
/// reads it. The embedded lexicon is part of the binary and checked by
/// the test suite, so none of its CRCs is checked at run time.
/// [`Lexicon::verify`] (`lexq verify`) checks everything.
///
/// Opening reads the file and nothing else: no environment variable, no
/// record of checked files, no write anywhere.
///
/// # Files from others
///
/// No file makes lexq panic: every read of the arc table is checked
/// against its size, so a damaged or crafted table makes walks find less,
/// never read outside it, and every walk is bounded by the length of the
/// words it spells. The checksums make damage by accident an error, but a
/// file made on purpose can carry valid checksums over a malformed
/// automaton, for example one that spells astronomically many more keys
/// than its header states, which a walk would then spend as long on.
/// [`Lexicon::open_checked`] (and [`Lexicon::verify`]) also check the
/// structure: the fst section is a well-formed automaton holding exactly
/// the stated number of keys, and the arc table holds exactly its keys.
/// Use it for files you did not build.
///
/// # Older files
///
/// Files of format versions 1 to 3 open too: their words are read from
/// their fst section (checked first) and built into a version 4 lexicon in
/// memory, which takes about as long as building from the word list
/// ([`Lexicon::upgraded_from`] says it happened; `lexq upgrade` writes the
/// new file once for all).
///
/// # Read or mapped
///
/// [`Lexicon::open`] reads the whole file into memory, so nothing another
/// process does to the file afterwards (truncating it, writing into it)
/// can change what the lexicon answers or crash the process: that is what
/// a long-running server wants. [`OpenOptions::map`] memory-maps it
/// instead, as `fst` and ripgrep map theirs: nothing is read that a query
/// does not touch, which is what a one-shot command on a large lexicon
/// wants. It is `unsafe` because the caller must promise what the
/// compiler cannot check: that no one truncates or writes into the file
/// while it is open. If someone does, reads may see the new bytes or,
/// past a new end, the process receives `SIGBUS` and dies. Replace
/// lexicons by renaming a new file over the old (as `lexq build` does),
/// never by writing into them.
///
/// ```
/// use lexq::Lexicon;
/// let lex = Lexicon::embedded(); // ENABLE, 172,820 words
/// assert!(lex.is_word("quixotic").unwrap());
/// assert!(!lex.is_word("quixot").unwrap());
/// ```
pub struct Lexicon {
    source: PathBuf,
    header: Header,
    /// The arc table, read in place from `backing` (declared before it, so
    /// dropped first).
    arcs: Arcs,
    backing: Backing,
    /// The format version the lexicon was read from, if it was built from
    /// an older file's words.
    upgraded_from: Option<u32>,
    /// Whether the fst section is checked (CRC and structure), once asked.
    fst_checked: OnceLock<std::result::Result<(), LexiconErrorKind>>,
    /// What [`Lexicon::prepare_walks`] builds, only then.
    prepared: OnceLock<Prepared>,
}

/// What [`Lexicon::prepare_walks`] builds (`None` where a table cannot
/// serve the lexicon's alphabet or shape).
struct Prepared {
    below: Option<Vec<u32>>,
    alphagrams: Option<Alphagrams>,
}

/// Facts about a lexicon, as `lexq info` prints them.
///
/// ```
/// let info = lexq::Lexicon::embedded().info();
/// assert_eq!((info.words, info.max_word_len, info.tiles.len()), (172_820, 28, 26));
/// ```
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Info {
    /// The file the lexicon was opened from (`<embedded>` for the default).
    pub source: String,
    /// Number of words.
    pub words: u64,
    /// Number of GADDAG keys.
    pub entries: u64,
    /// Size of the whole file in bytes (of the version 4 lexicon it was
    /// read into, for an older file).
    pub bytes: u64,
    /// Size of the fst section in bytes.
    pub fst_bytes: u64,
    /// Size of the arc table in bytes.
    pub arcs_bytes: u64,
    /// Number of arcs in the arc table.
    pub arcs: u64,
    /// Bits per arc.
    pub arc_bits: u32,
    /// Bytes of file per word.
    pub bytes_per_word: f64,
    /// Length of the longest word, in tiles.
    pub max_word_len: u32,
    /// The alphabet's name.
    pub alphabet: String,
    /// The alphabet's tiles, in order.
    pub tiles: Vec<String>,
    /// The file format version (4; see `upgraded_from` for older files).
    pub format_version: u32,
    /// The version of the file it was read from, if older than 4.
    pub upgraded_from: Option<u32>,
}

#[cfg(feature = "embedded")]
static EMBEDDED: &[u8] = include_bytes!("../../indexes/enable1.lexq");

impl Lexicon {
    /// Opens a lexicon file, read whole into memory, with its header, its
    /// CRC and the arc table's CRC checked (see [Checks](#checks)). A path
    /// that is not a regular file (a directory, a FIFO, a device) is
    /// refused without being read. [`OpenOptions`] chooses other checks,
    /// or a memory map.
    ///
    /// ```
    /// # let dir = tempfile::tempdir()?;
    /// # let path = dir.path().join("words.lexq");
    /// use lexq::{Alphabet, Lexicon, WordList, build};
    /// let mut list = WordList::new(Alphabet::english());
    /// list.read_bytes("words.txt".as_ref(), b"care\ncares\n")?;
    /// build(&list, &mut ())?.write_atomic(&path)?;
    /// let lex = Lexicon::open(&path)?;
    /// // Truncating the file now changes nothing: its bytes were read.
    /// std::fs::File::create(&path)?;
    /// assert!(lex.is_word("cares")?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn open(path: impl AsRef<Path>) -> Result<Lexicon> {
        OpenOptions::new().read(path)
    }

    /// Opens a lexicon file as [`Lexicon::open`] does, then checks
    /// everything [`Lexicon::verify`] does: for files from others (see
    /// [Files from others](#files-from-others)). It reads the whole file
    /// and takes memory for 8 bytes an arc while it runs.
    ///
    /// ```
    /// # let dir = tempfile::tempdir()?;
    /// # let path = dir.path().join("words.lexq");
    /// use lexq::{Alphabet, Lexicon, WordList, build};
    /// let mut list = WordList::new(Alphabet::english());
    /// list.read_bytes("words.txt".as_ref(), b"cat\ncats\n")?;
    /// build(&list, &mut ())?.write_atomic(&path)?;
    /// let lex = Lexicon::open_checked(&path)?;
    /// assert!(lex.is_word("cats")?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn open_checked(path: impl AsRef<Path>) -> Result<Lexicon> {
        OpenOptions::new().checks(Checks::Full).read(path)
    }

    /// Opens the lexicon held in `bytes` (a whole lexicon file's content).
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Lexicon> {
        Lexicon::from_backing(PathBuf::from("<memory>"), Backing::Owned(bytes), Check::Crc)
    }

    /// Opens the lexicon held in `bytes` with the checks of
    /// [`Lexicon::open_checked`].
    pub fn from_bytes_checked(bytes: Vec<u8>) -> Result<Lexicon> {
        Lexicon::from_backing(
            PathBuf::from("<memory>"),
            Backing::Owned(bytes),
            Check::Structure,
        )
    }

    /// Opens the lexicon held in a static byte slice (for example one
    /// compiled in with `include_bytes!`), without copying it.
    pub fn from_static(bytes: &'static [u8]) -> Result<Lexicon> {
        Lexicon::from_backing(
            PathBuf::from("<static>"),
            Backing::Static(bytes),
            Check::Crc,
        )
    }

    /// The built-in default lexicon: ENABLE (172,820 words, public domain),
    /// compiled into the library from `indexes/enable1.lexq` (built from
    /// `indexes/enable1.txt`; a test checks the two agree).
    #[cfg(feature = "embedded")]
    pub fn embedded() -> Lexicon {
        // Its CRCs and structure are checked by the test suite, not on
        // every run.
        Lexicon::from_backing(
            PathBuf::from("<embedded>"),
            Backing::Static(EMBEDDED),
            Check::Header,
        )
        .expect("the embedded lexicon is valid")
    }

    /// [`Lexicon::open`], building an older file anew with `progress`
    /// (for [`crate::lexicon::upgrade`]).
    pub(crate) fn open_old(path: &Path, progress: &mut dyn Progress) -> Result<Lexicon> {
        let bytes = read_file(path)?;
        Lexicon::open_backing(
            path.to_path_buf(),
            Backing::Owned(bytes),
            Check::Crc,
            progress,
        )
    }

    fn from_backing(source: PathBuf, backing: Backing, check: Check) -> Result<Lexicon> {
        Lexicon::open_backing(source, backing, check, &mut ())
    }

    fn open_backing(
        source: PathBuf,
        backing: Backing,
        check: Check,
        progress: &mut dyn Progress,
    ) -> Result<Lexicon> {
        let bad = |kind| Error::lexicon(&source, kind);
        let (header, backing, upgraded_from) = match format::parse(backing.bytes()).map_err(bad)? {
            Parsed::Current(h) => (*h, backing, None),
            Parsed::Old(old) => {
                let built =
                    upgrade_bytes(backing.bytes(), &old, progress).map_err(|e| match e {
                        Error::Lexicon { kind, .. } => bad(kind),
                        other => other,
                    })?;
                let backing = Backing::Owned(built);
                match format::parse(backing.bytes()).map_err(bad)? {
                    Parsed::Current(h) => (*h, backing, Some(old.version)),
                    Parsed::Old(_) => unreachable!("the builder writes the current version"),
                }
            }
        };
        let bytes = backing.bytes();
        let section = &bytes[header.arcs.clone()];
        if matches!(check, Check::Crc | Check::Structure)
            && upgraded_from.is_none()
            && crc32c::crc32c(section) != header.arcs_crc
        {
            return Err(bad(LexiconErrorKind::ArcsChecksum));
        }
        // SAFETY: the table points into `backing`'s bytes (a map, a static
        // or a heap buffer: none moves them when moved), which the lexicon
        // holds, unchanged, for as long as the table (dropped first).
        let arcs = unsafe { Arcs::in_place(section, header.arc_count, header.arc_width) }
            .map_err(|e| bad(LexiconErrorKind::ArcsInvalid(e)))?;
        let lex = Lexicon {
            source,
            header,
            arcs,
            backing,
            upgraded_from,
            fst_checked: OnceLock::new(),
            prepared: OnceLock::new(),
        };
        if check == Check::Header {
            // The embedded file, checked by the test suite.
            let _ = lex.fst_checked.set(Ok(()));
        }
        if check == Check::Structure {
            lex.verify()?;
        }
        Ok(lex)
    }

    /// Checks the arc table's CRC against the header's: what an open with
    /// [`Checks::Header`] left out. (An upgraded older file was built in
    /// memory and has nothing to check.)
    pub fn check_arcs(&self) -> Result<()> {
        let section = &self.backing.bytes()[self.header.arcs.clone()];
        if self.upgraded_from.is_none() && crc32c::crc32c(section) != self.header.arcs_crc {
            return Err(Error::lexicon(&self.source, LexiconErrorKind::ArcsChecksum));
        }
        Ok(())
    }

    /// Checks everything a file holds: the header, both sections' CRCs,
    /// the fst's own checksum and the structure of its automaton (every
    /// node decodes, every transition lands on a lower node and reads a
    /// letter of the alphabet, the key count matches the header), and that
    /// the arc table is well formed and holds exactly the fst's keys, with
    /// the header's word count, longest word and code counts. `lexq
    /// verify` runs it.
    pub fn verify(&self) -> Result<()> {
        let bad = |kind| Error::lexicon(&self.source, kind);
        self.check_fst().map_err(bad)?;
        let bytes = self.backing.bytes();
        let h = &self.header;
        let section = &bytes[h.arcs.clone()];
        if crc32c::crc32c(section) != h.arcs_crc {
            return Err(bad(LexiconErrorKind::ArcsChecksum));
        }
        let counts = crate::lexicon::raw::check(
            &self.arcs,
            section,
            &bytes[h.fst.clone()],
            self.alphabet().len() as u8,
        )
        .map_err(|e| bad(LexiconErrorKind::ArcsInvalid(e)))?;
        let field = |field| bad(LexiconErrorKind::HeaderField { field });
        if counts.words != h.words {
            return Err(field("number of words"));
        }
        if counts.max_len != h.max_len {
            return Err(field("longest word"));
        }
        if counts.code_counts != h.code_counts {
            return Err(field("arcs per code"));
        }
        Ok(())
    }

    /// Checks the fst section: its CRC, its own checksum and its
    /// structure, with the header's key count.
    fn check_fst(&self) -> std::result::Result<(), LexiconErrorKind> {
        let h = &self.header;
        let bytes = &self.backing.bytes()[h.fst.clone()];
        if crc32c::crc32c(bytes) != h.fst_crc {
            return Err(LexiconErrorKind::FstChecksum);
        }
        check_fst_section(bytes, h.keys, self.alphabet().len() as u8)
    }

    /// The fst section as an `fst::Set` of the GADDAG keys, read in place:
    /// the lexicon's canonical, interoperable form, for fst's own
    /// automata, streams and set operations (see [`crate::lexicon::gaddag`] for
    /// how keys are written). The section's CRC and structure are checked
    /// at the first call (so that no crafted file makes the `fst` crate
    /// panic), and the outcome kept.
    ///
    /// ```
    /// use fst::{IntoStreamer, Streamer, automaton::{Automaton, Str}};
    /// use lexq::raw::gaddag::{key_word, word_key};
    /// let lex = lexq::Lexicon::embedded();
    /// let a = lex.alphabet();
    /// let set = lex.fst_set()?;
    /// // Whole words ending in ZZ start, reversed, with ZZ; their keys
    /// // hold no separator.
    /// let zz = word_key(&a.encode("zz")?);
    /// let zz = std::str::from_utf8(&zz)?;
    /// let mut stream = set.search(Str::new(zz).starts_with()).into_stream();
    /// let mut words = Vec::new();
    /// while let Some(key) = stream.next() {
    ///     if !key.contains(&lexq::raw::gaddag::key_byte(lexq::raw::gaddag::SEPARATOR)) {
    ///         words.push(a.decode(&key_word(key).unwrap()));
    ///     }
    /// }
    /// assert!(words.contains(&"JAZZ".to_string()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fst_set(&self) -> Result<fst::Set<&[u8]>> {
        let bad = |kind| Error::lexicon(&self.source, kind);
        self.fst_checked
            .get_or_init(|| self.check_fst())
            .clone()
            .map_err(bad)?;
        let bytes = &self.backing.bytes()[self.header.fst.clone()];
        fst::Set::new(bytes).map_err(|e| bad(LexiconErrorKind::FstInvalid(e.to_string())))
    }

    /// The whole lexicon file's bytes (to copy the embedded lexicon to a
    /// file, for example; for a lexicon read from an older file, the
    /// version 4 file it was read into).
    pub fn file_bytes(&self) -> &[u8] {
        self.backing.bytes()
    }

    /// Where the lexicon came from: a path, `<embedded>` or `<memory>`.
    pub fn source(&self) -> &Path {
        &self.source
    }

    /// The alphabet its words are spelled in.
    pub fn alphabet(&self) -> &Alphabet {
        &self.header.alphabet
    }

    /// The number of words.
    pub fn word_count(&self) -> u64 {
        self.header.words
    }

    /// The length of the longest word, in tiles.
    pub fn max_word_len(&self) -> usize {
        self.header.max_len as usize
    }

    /// If the lexicon was read from a file of an older format version
    /// (and built anew in memory), that version.
    pub fn upgraded_from(&self) -> Option<u32> {
        self.upgraded_from
    }

    /// The arc table every walk reads (see [`crate::lexicon::raw`]): in place in
    /// the file, no set-up.
    pub fn arcs(&self) -> &Arcs {
        &self.arcs
    }

    /// Builds, once, what word queries can use beyond the arc table, so
    /// that no query pays for it: the letters below each node (4 bytes an
    /// arc, a pass over the table), with which a walk that must spend its
    /// tiles leaves the nodes where it cannot; and every word filed by
    /// alphagram (a key, a place and the tiles of each word), with which
    /// the anagrams of a rack with one or two blanks are a look-up per
    /// letter the blanks may stand for. A server calls it at start.
    ///
    /// ```
    /// let lex = lexq::Lexicon::embedded();
    /// lex.prepare_walks();
    /// assert_eq!(lex.anagram("retains")?.len(), 9);
    /// # Ok::<(), lexq::Error>(())
    /// ```
    pub fn prepare_walks(&self) {
        self.prepared.get_or_init(|| Prepared {
            below: self.arcs.letters_below(),
            alphagrams: Alphagrams::new(self),
        });
    }

    /// The letters below each node, if [`Lexicon::prepare_walks`] has
    /// built them.
    pub(crate) fn letters_below(&self) -> Option<&[u32]> {
        self.prepared.get().and_then(|p| p.below.as_deref())
    }

    /// Every word by alphagram, if [`Lexicon::prepare_walks`] has filed
    /// them.
    pub(crate) fn alphagrams(&self) -> Option<&Alphagrams> {
        self.prepared.get().and_then(|p| p.alphagrams.as_ref())
    }

    /// How many arcs read each code (the header's counts).
    pub(crate) fn code_counts(&self) -> &[u32; 64] {
        &self.header.code_counts
    }

    /// Facts about the lexicon.
    pub fn info(&self) -> Info {
        let a = self.alphabet();
        let len = self.backing.bytes().len();
        Info {
            source: self.source.display().to_string(),
            words: self.header.words,
            entries: self.header.keys,
            bytes: len as u64,
            fst_bytes: self.header.fst.len() as u64,
            arcs_bytes: self.header.arcs.len() as u64,
            arcs: self.header.arc_count,
            arc_bits: self.header.arc_width,
            bytes_per_word: len as f64 / self.header.words.max(1) as f64,
            max_word_len: self.header.max_len,
            alphabet: a.name().to_string(),
            tiles: (1..=a.len() as u8)
                .filter_map(|c| a.label(c).map(str::to_string))
                .collect(),
            format_version: format::VERSION,
            upgraded_from: self.upgraded_from,
        }
    }
}

/// Checks an fst section's own checksum and structure, with `keys` keys
/// of codes up to `max_code`.
pub(crate) fn check_fst_section(
    bytes: &[u8],
    keys: u64,
    max_code: u8,
) -> std::result::Result<(), LexiconErrorKind> {
    let invalid = |e: String| LexiconErrorKind::FstInvalid(e);
    let (body, sum) = bytes.split_at(bytes.len().saturating_sub(4));
    if sum.len() != 4 || crate::lexicon::fstwrite::masked_crc32c(body).to_le_bytes() != sum {
        return Err(invalid("fst checksum mismatch".into()));
    }
    let fst = Fst::new(bytes).map_err(|e| invalid(e.to_string()))?;
    if fst.len() != keys {
        return Err(LexiconErrorKind::KeyCount {
            found: fst.len(),
            expected: keys,
        });
    }
    fstcheck::check(bytes, &fst, max_code).map_err(|e| match e {
        fstcheck::Damage::Count { found, stated } => LexiconErrorKind::KeyCount {
            found,
            expected: stated,
        },
        other => invalid(other.to_string()),
    })?;
    Ok(())
}

/// How much of a lexicon's bytes an open checks.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Check {
    /// The header only (the embedded lexicon, checked by the test suite).
    Header,
    /// The header and the arc table's CRC; the fst section's when asked
    /// for.
    Crc,
    /// The header; the caller vouches for the arc table's CRC
    /// ([`Checks::Header`]); the fst section's when asked for.
    Known,
    /// Everything ([`Lexicon::verify`]).
    Structure,
}

/// How much of a lexicon file an open checks ([`OpenOptions::checks`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Checks {
    /// The header and its CRC only. For a caller that vouches for the arc
    /// table, because it checked this very file before and can tell it is
    /// unchanged (the `lexq` command line keeps such a record: see its
    /// `LEXQ_CACHE_DIR`). A damaged table then makes walks find less,
    /// never read outside the table nor panic. The fst section is still
    /// checked when first asked for.
    Header,
    /// The header and the arc table's CRC (the default); the fst
    /// section's when first asked for.
    #[default]
    Crc,
    /// Everything [`Lexicon::verify`] checks, for files from others: it
    /// reads the whole file and takes memory for 8 bytes an arc while it
    /// runs.
    Full,
}

impl Checks {
    fn check(self) -> Check {
        match self {
            Checks::Header => Check::Known,
            Checks::Crc => Check::Crc,
            Checks::Full => Check::Structure,
        }
    }
}

/// How to open a lexicon file: which [`Checks`], and whether its bytes are
/// read into memory ([`OpenOptions::read`], what [`Lexicon::open`] does)
/// or memory-mapped ([`OpenOptions::map`]; see
/// [Read or mapped](Lexicon#read-or-mapped)).
///
/// ```
/// # let dir = tempfile::tempdir()?;
/// # let path = dir.path().join("words.lexq");
/// use lexq::{Checks, OpenOptions};
/// # lexq::build(&{ let mut l = lexq::WordList::new(lexq::Alphabet::english());
/// #     l.read_bytes("w".as_ref(), b"cat\n")?; l }, &mut ())?.write_atomic(&path)?;
/// let lex = OpenOptions::new().checks(Checks::Full).read(&path)?;
/// assert!(lex.is_word("cat")?);
/// // SAFETY: nothing writes into this file while `mapped` is open.
/// let mapped = unsafe { OpenOptions::new().map(&path)? };
/// assert_eq!(mapped.word_count(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct OpenOptions {
    checks: Checks,
}

impl OpenOptions {
    /// The default: [`Checks::Crc`].
    pub fn new() -> OpenOptions {
        OpenOptions::default()
    }

    /// Which checks the open makes.
    pub fn checks(mut self, checks: Checks) -> OpenOptions {
        self.checks = checks;
        self
    }

    /// Opens the lexicon file at `path`, read whole into memory: nothing
    /// done to the file afterwards reaches the lexicon. A path that is not
    /// a regular file (a directory, a FIFO, a device) is refused without
    /// being read.
    pub fn read(&self, path: impl AsRef<Path>) -> Result<Lexicon> {
        let path = path.as_ref();
        let bytes = read_file(path)?;
        Lexicon::from_backing(
            path.to_path_buf(),
            Backing::Owned(bytes),
            self.checks.check(),
        )
    }

    /// Opens the lexicon file at `path` by memory-mapping it: only the
    /// pages a query touches are read. A path that is not a regular file
    /// is refused without being read.
    ///
    /// # Safety
    ///
    /// No one may truncate the file or write into it while the lexicon
    /// (or anything borrowed from it) is alive: a truncated map kills the
    /// process with `SIGBUS`, and bytes changed under a walk break what
    /// the checks at open established. Replacing the file by renaming a
    /// new one over it is safe (the map keeps the old file). Every read of
    /// the map is bounds-checked against its length at open.
    pub unsafe fn map(&self, path: impl AsRef<Path>) -> Result<Lexicon> {
        let path = path.as_ref();
        let file = open_nonempty(path)?;
        // SAFETY: read-only; the caller promises the file is not changed
        // in place while the lexicon lives (this function's contract).
        let map = unsafe { Mmap::map(&file) }.map_err(|e| Error::io(path, e))?;
        Lexicon::from_backing(path.to_path_buf(), Backing::Mmap(map), self.checks.check())
    }
}

/// Opens the regular, non-empty file at `path`, refusing anything else (a
/// FIFO would block the open, a device or directory cannot be a lexicon).
fn open_nonempty(path: &Path) -> Result<std::fs::File> {
    // A directory, FIFO or device is refused without blocking on it.
    let file = crate::files::capped::open_regular(path)?;
    let meta = file.metadata().map_err(|e| Error::io(path, e))?;
    if meta.len() == 0 {
        return Err(Error::lexicon(path, LexiconErrorKind::Empty));
    }
    Ok(file)
}

/// The whole of the regular, non-empty file at `path`.
fn read_file(path: &Path) -> Result<Vec<u8>> {
    use std::io::Read;
    let mut file = open_nonempty(path)?;
    let len = file.metadata().map_err(|e| Error::io(path, e))?.len();
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(usize::try_from(len).unwrap_or(usize::MAX))
        .map_err(|_| Error::io(path, std::io::Error::from(std::io::ErrorKind::OutOfMemory)))?;
    file.read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, e))?;
    if bytes.is_empty() {
        return Err(Error::lexicon(path, LexiconErrorKind::Empty));
    }
    Ok(bytes)
}

impl fmt::Debug for Lexicon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Lexicon")
            .field("source", &self.source)
            .field("words", &self.header.words)
            .field("alphabet", &self.header.alphabet.name())
            .finish()
    }
}

impl FilePolicy {
    /// The lexicon `name` stands for (as in a CGP `lex` opcode or a GCG
    /// `#lexicon` pragma): the built-in ENABLE for its names (`ENABLE`,
    /// `enable1`, any case), else the lexicon file at that path if the
    /// policy lets a position open it ([`Lexicon::open`]: checksums
    /// checked, special files refused). Under [`FilePolicy::any_file`] a
    /// file that exists by a built-in name wins over the built-in lexicon,
    /// as `lexq -L` takes it; under a policy for strangers the names
    /// always mean the built-in one.
    pub fn lexicon(&self, name: &str) -> Result<Lexicon> {
        #[cfg(feature = "embedded")]
        if FilePolicy::is_builtin_lexicon(name)
            && !(self.detailed() && Path::new(name).symlink_metadata().is_ok())
        {
            return Ok(Lexicon::embedded());
        }
        if self.detailed() {
            if !Path::new(name).exists() {
                return Err(not_found(Named::Lexicon, name));
            }
            return Lexicon::open(name);
        }
        let path = self
            .permit(name)
            .filter(|p| p.metadata().is_ok_and(|m| m.is_file()))
            .ok_or_else(|| self.refused(Named::Lexicon, name))?;
        Lexicon::open(&path).map_err(|e| match e {
            Error::Lexicon { .. } => Error::Named {
                what: Named::Lexicon,
                name: name.to_string(),
                kind: NamedErrorKind::Invalid,
            },
            _ => self.refused(Named::Lexicon, name),
        })
    }
}
