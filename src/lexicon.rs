//! [`Lexicon`]: an open lexicon file (memory-mapped, embedded, or in memory).

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use memmap2::Mmap;

use crate::alphabet::Alphabet;
use crate::cursor::Cursor;
use crate::error::{Error, LexiconErrorKind, Result};
use crate::format::{self, Header};
use crate::graph::{Arcs, FstGraph};
use crate::node::{self, Fst};

/// The bytes under a lexicon: a memory map, a static slice (the embedded
/// default) or an owned buffer, seen through the fst section's range.
#[derive(Clone)]
pub struct Data {
    backing: Arc<Backing>,
    start: usize,
    end: usize,
}

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

impl AsRef<[u8]> for Data {
    #[inline]
    fn as_ref(&self) -> &[u8] {
        &self.backing.bytes()[self.start..self.end]
    }
}

/// A lexicon: a set of words stored as a GADDAG, ready for queries.
///
/// Opening is cheap (the file is memory-mapped, its header and checksums
/// checked), and every query walks the mapped bytes in place.
///
/// # Files from others
///
/// No file makes lexq panic or loop: every node is read with bounds
/// checks, and every transition leads to a lower address, so every walk
/// ends. The checksums make damage by accident an error on open, but a file
/// made on purpose can carry valid checksums over a malformed automaton;
/// [`Lexicon::open`] then answers queries as if the broken parts held no
/// words. [`Lexicon::open_checked`] (and [`Lexicon::verify`]) also check the
/// structure: every node decodes, every transition lands on a node and
/// reads a letter of the alphabet, and the automaton holds exactly the
/// number of keys the header states, so a query does at most the work the
/// lexicon's stated size implies. Use it for files you did not build.
/// The stored arc table (see [`Lexicon::arcs`]) is read the same way:
/// every read bounds-checked, and checked against the fst by the checked
/// open; every walk of it is bounded by a word's or a board line's length.
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
    /// The fst section's bytes.
    data: Data,
    /// Its footer.
    fst: Fst,
    file_len: usize,
    /// The flat arc table for move generation, built at first use.
    arcs: OnceLock<std::result::Result<Arcs, LexiconErrorKind>>,
    /// Arcs per code in that table, counted at first use.
    code_counts: OnceLock<[u32; 64]>,
    /// That table with the letters below each node in its headers (see
    /// [`Arcs::with_letters_below`]), built by [`Lexicon::prepare_walks`]
    /// only.
    below: OnceLock<Option<Arcs>>,
}

/// Facts about a lexicon, as `lexq info` prints them.
///
/// ```
/// let info = lexq::Lexicon::embedded().info();
/// assert_eq!((info.words, info.max_word_len, info.tiles.len()), (172_820, 28, 26));
/// ```
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Info {
    /// The file the lexicon was opened from (`<embedded>` for the default).
    pub source: String,
    /// Number of words.
    pub words: u64,
    /// Number of GADDAG keys.
    pub entries: u64,
    /// Size of the whole file in bytes.
    pub bytes: u64,
    /// Size of the fst section in bytes.
    pub fst_bytes: u64,
    /// Size of the stored arc table in bytes (0 if the file has none and
    /// move generation derives it from the fst).
    pub arcs_bytes: u64,
    /// Bytes of file per word.
    pub bytes_per_word: f64,
    /// Length of the longest word, in tiles.
    pub max_word_len: u32,
    /// The alphabet's name.
    pub alphabet: String,
    /// The alphabet's tiles, in order.
    pub tiles: Vec<String>,
    /// The file format version.
    pub format_version: u32,
}

/// Bytes aligned to 8, so that the embedded file's arc table (at a
/// multiple of 8 in the file) is read in place.
#[cfg(feature = "embedded")]
#[repr(C, align(8))]
struct Aligned<B: ?Sized>(B);

#[cfg(feature = "embedded")]
static EMBEDDED: &[u8] = &{
    // Built from indexes/enable1.txt by build.rs.
    const A: &Aligned<[u8]> = &Aligned(*include_bytes!(concat!(env!("OUT_DIR"), "/enable1.lexq")));
    A
}
.0;

impl Lexicon {
    /// Opens a lexicon file by memory-mapping it. The header, section bounds,
    /// fst footer and the CRC of every byte are checked; a path that is not
    /// a regular file (a directory, a FIFO, a device) is refused without
    /// being read.
    ///
    /// The file must not be modified while it is open (replace it by
    /// renaming, as `lexq build` does): see [Mapped files](#mapped-files).
    pub fn open(path: impl AsRef<Path>) -> Result<Lexicon> {
        let path = path.as_ref();
        let map = map_file(path)?;
        Lexicon::from_backing(path.to_path_buf(), Backing::Mmap(map), Check::Crc)
    }

    /// Opens a lexicon file as [`Lexicon::open`] does, then checks the
    /// structure of its automaton as [`Lexicon::verify`] does: for files
    /// from others (see [Files from others](#files-from-others)). It reads
    /// the whole fst section and takes memory for a bit per byte of it and
    /// 8 bytes per node while it runs.
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
        let map = map_file(path)?;
        Lexicon::from_backing(path.to_path_buf(), Backing::Mmap(map), Check::Structure)
    }

    /// Opens the lexicon held in `bytes` (a whole lexicon file's content).
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Lexicon> {
        Lexicon::from_backing(PathBuf::from("<memory>"), Backing::Owned(bytes), Check::Crc)
    }

    /// Opens the lexicon held in `bytes` with the structural check of
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
        // Its CRCs are checked by the test suite, not on every run.
        Lexicon::from_backing(
            PathBuf::from("<embedded>"),
            Backing::Static(EMBEDDED),
            Check::Header,
        )
        .expect("the embedded lexicon is valid")
    }

    fn from_backing(source: PathBuf, backing: Backing, check: Check) -> Result<Lexicon> {
        let bad = |kind| Error::lexicon(&source, kind);
        let bytes = backing.bytes();
        let file_len = bytes.len();
        let header = format::parse(bytes, check != Check::Header).map_err(bad)?;
        let section = &bytes[header.fst.clone()];
        let fst =
            Fst::new(section).map_err(|e| bad(LexiconErrorKind::FstInvalid(e.to_string())))?;
        if fst.len() != header.keys {
            return Err(bad(LexiconErrorKind::KeyCount {
                found: fst.len(),
                expected: header.keys,
            }));
        }
        let data = Data {
            start: header.fst.start,
            end: header.fst.end,
            backing: Arc::new(backing),
        };
        let lex = Lexicon {
            source,
            header,
            data,
            fst,
            file_len,
            arcs: OnceLock::new(),
            code_counts: OnceLock::new(),
            below: OnceLock::new(),
        };
        if check == Check::Structure {
            lex.check_structure()?;
        }
        Ok(lex)
    }

    /// Checks what [`Lexicon::open_checked`] checks on a lexicon already
    /// open: the fst's own checksum and the structure of its automaton
    /// (every node decodes, every transition lands on a node below it and
    /// reads a letter of the alphabet, the key count matches the header).
    /// `lexq verify` runs it.
    pub fn verify(&self) -> Result<()> {
        let bytes = self.data.as_ref();
        let (body, sum) = bytes.split_at(bytes.len() - 4);
        if crate::fstwrite::masked_crc32c(body).to_le_bytes() != sum {
            return Err(Error::lexicon(
                &self.source,
                LexiconErrorKind::FstInvalid("fst checksum mismatch".into()),
            ));
        }
        self.check_structure()
    }

    fn check_structure(&self) -> Result<()> {
        let max_code = self.header.alphabet.len() as u8;
        node::check(self.data.as_ref(), &self.fst, max_code).map_err(|e| {
            let kind = match e {
                node::Damage::Count { found, stated } => LexiconErrorKind::KeyCount {
                    found,
                    expected: stated,
                },
                other => LexiconErrorKind::FstInvalid(other.to_string()),
            };
            Error::lexicon(&self.source, kind)
        })?;
        // A stored arc table must be the one the fst gives.
        if self.header.arcs.is_some() {
            let stored = self.arcs()?;
            let derived = self
                .derive_arcs()
                .map_err(|kind| Error::lexicon(&self.source, kind))?;
            if !stored.same(&derived) {
                return Err(Error::lexicon(
                    &self.source,
                    LexiconErrorKind::ArcsInvalid("it does not match the fst"),
                ));
            }
        }
        Ok(())
    }

    /// The whole lexicon file's bytes (to copy the embedded lexicon to a
    /// file, for example).
    pub fn file_bytes(&self) -> &[u8] {
        self.data.backing.bytes()
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

    /// A cursor at the root of the GADDAG.
    pub fn cursor(&self) -> Cursor<'_> {
        let bytes = self.data.as_ref();
        Cursor::new(self.fst.area(bytes), self.fst.root(bytes))
    }

    /// The GADDAG as a flat table of 32-bit arcs (see [`Arcs`]), set up
    /// at the first call and kept: the file's arcs section read in place
    /// (format version 3: no set-up, no memory of its own), else rebuilt
    /// from a version 2 section (about 8 ms for ENABLE) or derived from the
    /// fst (about 40 ms) into 5.2 MB of memory. Move generation and cross
    /// sets walk it.
    pub fn arcs(&self) -> Result<&Arcs> {
        self.arcs
            .get_or_init(|| {
                let max_code = self.alphabet().len() as u8;
                match &self.header.arcs {
                    Some(range) if self.header.version >= 3 => {
                        let bytes = &self.data.backing.bytes()[range.clone()];
                        // SAFETY: the table may point into `bytes`, which
                        // `self` holds (a map, a static or a heap buffer:
                        // they never move or change) for as long as the
                        // table, kept in `self.arcs`, lives.
                        unsafe { Arcs::in_place(bytes, self.header.arc_count, max_code) }
                            .map_err(LexiconErrorKind::ArcsInvalid)
                    }
                    Some(range) => {
                        let bytes = &self.data.backing.bytes()[range.clone()];
                        Arcs::from_stored(bytes, max_code).map_err(LexiconErrorKind::ArcsInvalid)
                    }
                    None => self.derive_arcs(),
                }
            })
            .as_ref()
            .map_err(|kind| Error::lexicon(&self.source, kind.clone()))
    }

    /// The arc table derived from the fst.
    fn derive_arcs(&self) -> std::result::Result<Arcs, LexiconErrorKind> {
        let bytes = self.data.as_ref();
        Arcs::from_nodes(
            self.fst.area(bytes),
            self.fst.root(bytes),
            self.alphabet().len() as u8,
        )
        .ok_or(LexiconErrorKind::TooManyArcs {
            max: crate::graph::MAX_ARCS,
        })
    }

    /// The arc table if [`Lexicon::arcs`] has built it already: queries
    /// that can use either walk it then, and the fst otherwise.
    pub fn arcs_if_built(&self) -> Option<&Arcs> {
        self.arcs.get().and_then(|r| r.as_ref().ok())
    }

    /// Builds, once, what the word queries walk besides the fst: the arc
    /// table ([`Lexicon::arcs`], read in place from a version 3 file), the
    /// letter counts anagrams start from, and a copy of the table with the
    /// letters below each node (6.9 MB for ENABLE), with which a walk that
    /// must spend its tiles leaves the nodes where it cannot (passes over
    /// the table, about 50 ms in all), so that no query pays for them. A
    /// server calls it at start.
    ///
    /// ```
    /// let lex = lexq::Lexicon::embedded();
    /// lex.prepare_walks()?;
    /// assert!(lex.arcs_if_built().is_some());
    /// # Ok::<(), lexq::Error>(())
    /// ```
    pub fn prepare_walks(&self) -> Result<()> {
        let arcs = self.arcs()?;
        self.code_counts();
        self.below.get_or_init(|| arcs.with_letters_below());
        Ok(())
    }

    /// The arc table with the letters below each node, if
    /// [`Lexicon::prepare_walks`] has built it.
    pub(crate) fn arcs_with_letters_below(&self) -> Option<&Arcs> {
        self.below.get().and_then(Option::as_ref)
    }

    /// How many arcs of the arc table read each code (see
    /// [`Arcs::code_counts`]), once the table is built; counted at the
    /// first call (a pass over the table).
    pub(crate) fn code_counts(&self) -> Option<&[u32; 64]> {
        let arcs = self.arcs_if_built()?;
        Some(self.code_counts.get_or_init(|| arcs.code_counts()))
    }

    /// Whether the file stores its arc table (format version 2 with an
    /// arcs section), so [`Lexicon::arcs`] need not derive it.
    pub fn has_stored_arcs(&self) -> bool {
        self.header.arcs.is_some()
    }

    /// The GADDAG read in place from the fst, as a [`crate::Graph`].
    pub fn fst_graph(&self) -> FstGraph<'_> {
        let bytes = self.data.as_ref();
        FstGraph::new(self.fst.area(bytes), self.fst.root_addr())
    }

    /// Facts about the lexicon.
    pub fn info(&self) -> Info {
        let a = self.alphabet();
        Info {
            source: self.source.display().to_string(),
            words: self.header.words,
            entries: self.header.keys,
            bytes: self.file_len as u64,
            fst_bytes: self.data.as_ref().len() as u64,
            arcs_bytes: self.header.arcs.as_ref().map_or(0, |r| r.len() as u64),
            bytes_per_word: self.file_len as f64 / self.header.words.max(1) as f64,
            max_word_len: self.header.max_len,
            alphabet: a.name().to_string(),
            tiles: (1..=a.len() as u8)
                .filter_map(|c| a.label(c).map(str::to_string))
                .collect(),
            format_version: self.header.version,
        }
    }
}

/// How much of a lexicon's bytes an open checks.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Check {
    /// The header only (the embedded lexicon, checked by the test suite).
    Header,
    /// The header and every byte's CRC.
    Crc,
    /// The CRCs and the automaton's structure.
    Structure,
}

/// Maps the regular file at `path`, refusing anything else (a FIFO would
/// block the open, a device or directory cannot be a lexicon).
fn map_file(path: &Path) -> Result<Mmap> {
    let refuse = |kind| Err(Error::lexicon(path, kind));
    // Look before opening: opening a FIFO blocks until a writer comes.
    let meta = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
    if let Some(kind) = not_regular(&meta) {
        return refuse(kind);
    }
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let meta = file.metadata().map_err(|e| Error::io(path, e))?;
    if let Some(kind) = not_regular(&meta) {
        return refuse(kind);
    }
    if meta.len() == 0 {
        return refuse(LexiconErrorKind::Empty);
    }
    // SAFETY: the map is read-only; the file is documented as not to be
    // modified in place while open (lexq itself only ever renames over),
    // and every read of it is bounds-checked against the map's length.
    unsafe { Mmap::map(&file) }.map_err(|e| Error::io(path, e))
}

/// Why a file is refused, if it is not a regular file.
fn not_regular(meta: &std::fs::Metadata) -> Option<LexiconErrorKind> {
    let t = meta.file_type();
    if t.is_file() {
        return None;
    }
    if t.is_dir() {
        return Some(LexiconErrorKind::IsDirectory);
    }
    let mut what = "a special file";
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            what = "a FIFO (named pipe)";
        } else if t.is_char_device() || t.is_block_device() {
            what = "a device";
        } else if t.is_socket() {
            what = "a socket";
        }
    }
    Some(LexiconErrorKind::NotRegularFile { what })
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The embedded lexicon rewritten in an older format version: 1 (no
    /// arcs section) or 2 (the arc table without its node headers).
    fn embedded_as(version: u32) -> Vec<u8> {
        let lex = Lexicon::embedded();
        let stored = lex.arcs().unwrap().to_stored();
        let mut out = Vec::new();
        format::write_version(
            &mut out,
            version,
            lex.header.words,
            lex.header.keys,
            lex.header.max_len,
            lex.alphabet(),
            Some((&stored, 0)),
            lex.data.as_ref(),
        )
        .unwrap();
        out
    }

    #[test]
    fn older_files_open_and_give_the_same_arc_table() {
        let v3 = Lexicon::embedded();
        assert!(v3.has_stored_arcs());
        assert_eq!(v3.info().format_version, 3);
        assert!(v3.arcs().unwrap().is_in_place());
        assert!(v3.arcs().unwrap().same(&v3.derive_arcs().unwrap()));
        v3.verify().unwrap();
        let v1 = Lexicon::from_bytes_checked(embedded_as(1)).unwrap();
        assert!(!v1.has_stored_arcs());
        let info = v1.info();
        assert_eq!((info.format_version, info.arcs_bytes), (1, 0));
        assert!(v1.is_word("quixotic").unwrap());
        assert!(v1.arcs().unwrap().same(v3.arcs().unwrap()));
        let v2 = Lexicon::from_bytes_checked(embedded_as(2)).unwrap();
        assert!(v2.has_stored_arcs());
        assert_eq!(v2.info().format_version, 2);
        assert!(!v2.arcs().unwrap().is_in_place());
        assert!(v2.arcs().unwrap().same(v3.arcs().unwrap()));
        // A file read into memory uses its table in place too.
        let copy = Lexicon::from_bytes(v3.data.backing.bytes().to_vec()).unwrap();
        assert!(copy.arcs().unwrap().same(v3.arcs().unwrap()));
    }
}
