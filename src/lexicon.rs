//! [`Lexicon`]: an open lexicon file (memory-mapped, embedded, or in memory).

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use fst::raw::Fst;
use memmap2::Mmap;

use crate::alphabet::Alphabet;
use crate::cursor::Cursor;
use crate::error::{Error, LexiconErrorKind, Result};
use crate::format::{self, Header};
use crate::graph::{Arcs, FstGraph};

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
/// Opening is cheap (the file is memory-mapped and its header checked, not
/// read whole), and every query walks the mapped bytes in place.
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
    fst: Fst<Data>,
    file_len: usize,
    /// The flat arc table for move generation, built at first use.
    arcs: OnceLock<Option<Arcs>>,
}

/// Facts about a lexicon, as `lexq info` prints them.
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

#[cfg(feature = "embedded")]
static EMBEDDED: &[u8] = include_bytes!("../indexes/enable1.lexq");

impl Lexicon {
    /// Opens a lexicon file by memory-mapping it. The header, section bounds,
    /// fst footer and the CRC of every byte are checked.
    ///
    /// The file must not be modified while it is open (replace it by
    /// renaming, as `lexq build` does).
    pub fn open(path: impl AsRef<Path>) -> Result<Lexicon> {
        let path = path.as_ref();
        let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
        let meta = file.metadata().map_err(|e| Error::io(path, e))?;
        if meta.is_dir() {
            return Err(Error::lexicon(path, LexiconErrorKind::IsDirectory));
        }
        if meta.len() == 0 {
            return Err(Error::lexicon(path, LexiconErrorKind::Empty));
        }
        // SAFETY: the map is read-only; the file is documented as not to be
        // modified in place while open (lexq itself only ever renames over).
        let map = unsafe { Mmap::map(&file) }.map_err(|e| Error::io(path, e))?;
        Lexicon::from_backing(path.to_path_buf(), Backing::Mmap(map), true)
    }

    /// Opens the lexicon held in `bytes` (a whole lexicon file's content).
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Lexicon> {
        Lexicon::from_backing(PathBuf::from("<memory>"), Backing::Owned(bytes), true)
    }

    /// Opens the lexicon held in a static byte slice (for example one
    /// compiled in with `include_bytes!`), without copying it.
    pub fn from_static(bytes: &'static [u8]) -> Result<Lexicon> {
        Lexicon::from_backing(PathBuf::from("<static>"), Backing::Static(bytes), true)
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
            false,
        )
        .expect("the embedded lexicon is valid")
    }

    fn from_backing(source: PathBuf, backing: Backing, check_fst: bool) -> Result<Lexicon> {
        let bad = |kind| Error::lexicon(&source, kind);
        let bytes = backing.bytes();
        let file_len = bytes.len();
        let header = format::parse(bytes, check_fst).map_err(bad)?;
        let data = Data {
            start: header.fst.start,
            end: header.fst.end,
            backing: Arc::new(backing),
        };
        let fst = Fst::new(data).map_err(|e| bad(LexiconErrorKind::FstInvalid(e.to_string())))?;
        if fst.len() as u64 != header.keys {
            return Err(bad(LexiconErrorKind::KeyCount {
                found: fst.len() as u64,
                expected: header.keys,
            }));
        }
        Ok(Lexicon {
            source,
            header,
            fst,
            file_len,
            arcs: OnceLock::new(),
        })
    }

    /// Checks the fst's own checksum too (the file's CRCs were checked on
    /// open; this is a second, independent check).
    pub fn verify(&self) -> Result<()> {
        self.fst
            .verify()
            .map_err(|e| Error::lexicon(&self.source, LexiconErrorKind::FstInvalid(e.to_string())))
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
        Cursor::root(&self.fst)
    }

    /// The GADDAG as a flat table of 32-bit arcs (see [`Arcs`]), derived
    /// from the fst at the first call (about 0.2 s and 3.5 MB for ENABLE)
    /// and kept. Move generation and cross sets walk it.
    pub fn arcs(&self) -> Result<&Arcs> {
        self.arcs
            .get_or_init(|| Arcs::from_fst(&self.fst))
            .as_ref()
            .ok_or_else(|| {
                Error::lexicon(
                    &self.source,
                    LexiconErrorKind::TooManyArcs {
                        max: crate::graph::MAX_ARCS,
                    },
                )
            })
    }

    /// The GADDAG read in place from the fst, as a [`crate::Graph`].
    pub fn fst_graph(&self) -> FstGraph<'_> {
        FstGraph::new(&self.fst)
    }

    /// Facts about the lexicon.
    pub fn info(&self) -> Info {
        let a = self.alphabet();
        Info {
            source: self.source.display().to_string(),
            words: self.header.words,
            entries: self.header.keys,
            bytes: self.file_len as u64,
            fst_bytes: self.fst.as_bytes().len() as u64,
            bytes_per_word: self.file_len as f64 / self.header.words.max(1) as f64,
            max_word_len: self.header.max_len,
            alphabet: a.name().to_string(),
            tiles: (1..=a.len() as u8)
                .filter_map(|c| a.label(c).map(str::to_string))
                .collect(),
            format_version: format::VERSION,
        }
    }
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
