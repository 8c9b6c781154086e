//! [`Lexicon`]: an open lexicon file (memory-mapped, embedded, or in memory).

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
use crate::lexicon::verified;

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
/// Opening is cheap (the file is memory-mapped, its header checked), and
/// every query walks the mapped arc table in place (see [`crate::lexicon::raw`]).
///
/// # Checks
///
/// [`Lexicon::open`] checks the header and its CRC, and the arc table's
/// CRC: every walk reads the table, so damage to it is found at once. A
/// file whose table passed its CRC is remembered by its identity (device,
/// inode, size, modification and status-change times) in the user's cache
/// directory for a day, and opening it again, unchanged, skips the CRC:
/// most of the cost of a one-word query on a large lexicon. A write into
/// the file changes its identity and brings the check back; see
/// `LEXQ_CACHE_DIR` in the README to move or turn off the record. The
/// fst section's CRC and structure are checked when the fst is first asked
/// for ([`Lexicon::fst_set`]), once per lexicon; no walk of lexq's own
/// reads it. The embedded lexicon is part of the binary and checked by
/// the test suite, so none of its CRCs is checked at run time.
/// [`Lexicon::verify`] (`lexq verify`) checks everything.
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
/// # Mapped files
///
/// A file opened with [`Lexicon::open`] is memory-mapped, as `fst` and
/// ripgrep map theirs. If another process truncates or rewrites the file
/// in place while it is open, reads may see the new bytes or, past the new
/// end, the process receives `SIGBUS` and dies: replace lexicons by
/// renaming a new file over the old (as `lexq build` does), never by
/// writing into them. [`Lexicon::from_bytes`] reads into memory instead.
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
    /// Opens a lexicon file by memory-mapping it. The header and its CRC,
    /// the section bounds and the arc table's CRC (unless the file passed
    /// it within the day, unchanged since) are checked (see
    /// [Checks](#checks)); a path that is not a regular file (a
    /// directory, a FIFO, a device) is refused without being read.
    ///
    /// The file must not be modified while it is open (replace it by
    /// renaming, as `lexq build` does): see [Mapped files](#mapped-files).
    pub fn open(path: impl AsRef<Path>) -> Result<Lexicon> {
        Lexicon::open_cached(path.as_ref(), verified::default_dir().as_deref())
    }

    /// [`Lexicon::open`], with the record of checked files in `cache`
    /// (none: the arc table's CRC is checked).
    pub(crate) fn open_cached(path: &Path, cache: Option<&Path>) -> Result<Lexicon> {
        let (map, meta) = map_file(path)?;
        // The arc table's CRC as the header states it (any four bytes for
        // a file that is no version 4 lexicon: the open says what is
        // wrong with it).
        let crc = map
            .get(76..80)
            .map_or(0, |b| u32::from_le_bytes(b.try_into().expect("4 bytes")));
        let known = cache.zip(verified::Identity::of(&meta, crc));
        let trusted = known.is_some_and(|(dir, id)| verified::is_verified(dir, &id));
        let check = if trusted { Check::Known } else { Check::Crc };
        let lex = Lexicon::from_backing(path.to_path_buf(), Backing::Mmap(map), check)?;
        if let (false, Some((dir, id)), None) = (trusted, known, lex.upgraded_from) {
            verified::remember(dir, &id);
        }
        Ok(lex)
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
        let path = path.as_ref();
        let (map, _) = map_file(path)?;
        Lexicon::from_backing(path.to_path_buf(), Backing::Mmap(map), Check::Structure)
    }

    /// Opens a lexicon file with the checks of [`Lexicon::open_checked`],
    /// reading it whole into memory instead of mapping it: for a process
    /// that keeps it open for long (a server), so that the file truncated
    /// or rewritten in place meanwhile (a deploy by `cp` over it) neither
    /// faults a read of a mapped page nor changes what is answered. Special
    /// files are refused as [`Lexicon::open`] refuses them; the path is
    /// kept as the lexicon's source.
    pub fn read_checked(path: impl AsRef<Path>) -> Result<Lexicon> {
        use std::io::Read;
        let path = path.as_ref();
        let mut file = crate::files::capped::open_regular(path)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .map_err(|e| Error::io(path, e))?;
        if bytes.is_empty() {
            return Err(Error::lexicon(path, LexiconErrorKind::Empty));
        }
        Lexicon::from_backing(path.to_path_buf(), Backing::Owned(bytes), Check::Structure)
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
        let (map, _) = map_file(path)?;
        Lexicon::open_backing(path.to_path_buf(), Backing::Mmap(map), Check::Crc, progress)
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
    /// The header; the arc table's CRC is known to be good (the record of
    /// checked files says so for this file, see [`verified`]); the fst
    /// section's when asked for.
    Known,
    /// Everything ([`Lexicon::verify`]).
    Structure,
}

/// Maps the regular file at `path`, refusing anything else (a FIFO would
/// block the open, a device or directory cannot be a lexicon); with the
/// metadata of the file mapped.
fn map_file(path: &Path) -> Result<(Mmap, std::fs::Metadata)> {
    // A directory, FIFO or device is refused without blocking on it.
    let file = crate::files::capped::open_regular(path)?;
    let meta = file.metadata().map_err(|e| Error::io(path, e))?;
    if meta.len() == 0 {
        return Err(Error::lexicon(path, LexiconErrorKind::Empty));
    }
    // SAFETY: the map is read-only; the file is documented as not to be
    // modified in place while open (lexq itself only ever renames over),
    // and every read of it is bounds-checked against the map's length.
    let map = unsafe { Mmap::map(&file) }.map_err(|e| Error::io(path, e))?;
    Ok((map, meta))
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
    /// checked, special files refused).
    pub fn lexicon(&self, name: &str) -> Result<Lexicon> {
        #[cfg(feature = "embedded")]
        if FilePolicy::is_builtin_lexicon(name) {
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

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::{Alphabet, WordList, build_file};
    use std::io::{Seek, SeekFrom, Write};

    /// A file opened once is remembered as checked; written into in place
    /// afterwards, it is checked again at the next open, and its damage
    /// found.
    #[test]
    fn a_file_changed_after_its_check_is_checked_again() {
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("cache");
        let path = dir.path().join("w.lexq");
        let mut list = WordList::new(Alphabet::english());
        list.read_bytes(Path::new("w"), b"cat\ncats\ndog\n")
            .unwrap();
        build_file(&list, &path, &mut ()).unwrap();
        let lex = Lexicon::open_cached(&path, Some(&cache)).unwrap();
        let (arcs, crc) = (lex.header.arcs.clone(), lex.header.arcs_crc);
        drop(lex);
        let id =
            |path: &Path| verified::Identity::of(&std::fs::metadata(path).unwrap(), crc).unwrap();
        assert!(verified::is_verified(&cache, &id(&path)), "remembered");
        // The same size, one bit of the arc table flipped, in place.
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[arcs.start + 2] ^= 0x10;
        let mut file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        file.seek(SeekFrom::Start(0)).unwrap();
        file.write_all(&bytes).unwrap();
        drop(file);
        assert!(!verified::is_verified(&cache, &id(&path)));
        let err = Lexicon::open_cached(&path, Some(&cache)).unwrap_err();
        assert!(
            matches!(
                err,
                Error::Lexicon {
                    kind: LexiconErrorKind::ArcsChecksum,
                    ..
                }
            ),
            "{err}"
        );
        // Without a record, the damage is found as before.
        assert!(Lexicon::open_cached(&path, None).is_err());
        // A damaged record is no record: the file is checked.
        std::fs::write(cache.join("verified"), "lexq verified 1\nnonsense\n").unwrap();
        assert!(Lexicon::open_cached(&path, Some(&cache)).is_err());
    }
}
