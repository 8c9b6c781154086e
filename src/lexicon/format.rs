//! The `.lexq` file layout: a small header, the alphabet, the fst section
//! (a real `fst::Set` of the GADDAG keys), then the arc table.
//!
//! All integers are little-endian. Version 4 (written by this library):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `\x89LXQ\r\n\x1a\n` |
//! | 8 | 4 | format version (4) |
//! | 12 | 4 | CRC-32C of bytes 16 up to the fst section (header, counts, alphabet, padding) |
//! | 16 | 8 | number of words |
//! | 24 | 8 | number of GADDAG keys |
//! | 32 | 4 | length of the longest word, in tiles |
//! | 36 | 4 | length of the alphabet's name, in bytes |
//! | 40 | 8 | alphabet section offset (384) |
//! | 48 | 8 | alphabet section length |
//! | 56 | 8 | fst section offset (the next multiple of 8 after the alphabet) |
//! | 64 | 8 | fst section length |
//! | 72 | 4 | CRC-32C of the fst section |
//! | 76 | 4 | CRC-32C of the arc table section |
//! | 80 | 8 | arc table offset (the next multiple of 8 after the fst) |
//! | 88 | 8 | arc table length; the file ends right after it |
//! | 96 | 8 | number of arcs |
//! | 104 | 1 | bits per arc (9 to 40) |
//! | 105 | 23 | zero |
//! | 128 | 256 | for each code 0 to 63, how many arcs read it (`u32`) |
//! | 384 | | alphabet name (UTF-8), then the alphabet in the text format of [`Alphabet`](crate::Alphabet) |
//! | | | zero padding to a multiple of 8, the fst section, zero padding to a multiple of 8, the arc table |
//!
//! The fst section is the lexicon's canonical, interoperable form: an
//! `fst::Set` (fst 0.4's format) of every GADDAG key (see
//! [`crate::lexicon::gaddag`]), each tile code `c` stored as byte `c` of
//! [`crate::lexicon::gaddag::KEY_BYTES`]. The arc table (see [`crate::lexicon::raw`]) is the
//! same automaton as packed arcs, which every walk of lexq's own reads in
//! place. Both are written from the builder's one automaton.
//!
//! # The largest lexicon
//!
//! Arcs are 9 to 40 bits wide (see [`crate::raw`]), so the arc table holds
//! up to 2^32 arcs; the builder numbers the automaton's transitions with
//! `u32`s and refuses a list whose keys hold 2^32 - 1 tiles or more
//! ([`crate::Error::TooLarge`]: the sum over the words of n (n + 1) for
//! a word of n tiles), and a word of more than 63 tiles. A list of 5
//! million pseudo-words of 3 to 14 letters (`benches/big_list.sh`: their
//! keys hold 535 million tiles) takes 63 million arcs of 34 bits, a
//! 560 MB file.
//!
//! Every open checks the magic, the version, the header's CRC, the
//! section bounds and the padding; the arc table's CRC unless the caller
//! vouches for the file ([`crate::Checks::Header`]); the fst section's
//! when it is first needed (see [`crate::Lexicon::open`]).
//! [`crate::Lexicon::verify`] checks everything.
//!
//! Older files (versions 1 to 3, written by earlier lexq) have the fst
//! section last and an arc table (versions 2 and 3) before it, in layouts
//! of their own; [`crate::Lexicon`] reads their words from their fst
//! section and builds the version 4 lexicon of them (`lexq upgrade` writes
//! it to a file).

/// Where each header field begins (see the table above): the one place
/// the header's offsets are written as numbers.
mod at {
    pub(super) const VERSION: usize = 8;
    /// The header's checksum covers bytes from [`WORDS`] on.
    pub(super) const HEADER_CRC: usize = 12;
    pub(super) const WORDS: usize = 16;
    pub(super) const KEYS: usize = 24;
    pub(super) const MAX_LEN: usize = 32;
    pub(super) const NAME_LEN: usize = 36;
    pub(super) const ALPHABET_OFF: usize = 40;
    pub(super) const ALPHABET_LEN: usize = 48;
    pub(super) const FST_OFF: usize = 56;
    pub(super) const FST_LEN: usize = 64;
    pub(super) const FST_CRC: usize = 72;
    pub(super) const ARCS_CRC: usize = 76;
    pub(super) const ARCS_OFF: usize = 80;
    pub(super) const ARCS_LEN: usize = 88;
    pub(super) const ARC_COUNT: usize = 96;
    pub(super) const ARC_WIDTH: usize = 104;
    /// Zero up to the fixed part's end.
    pub(super) const RESERVED: usize = 105;
}

use std::ops::Range;

use crate::alphabet::Alphabet;
use crate::error::{Error, LexiconErrorKind as Kind};

/// The first eight bytes of every lexicon file.
pub const MAGIC: [u8; 8] = *b"\x89LXQ\r\n\x1a\n";

/// The format version this library writes (it reads 1 to 4).
pub const VERSION: u32 = 4;

/// The fixed part of a version 4 header, before the code counts.
const FIXED_LEN: usize = 128;
/// Where the alphabet starts in a version 4 file.
const ALPHABET_AT: usize = FIXED_LEN + 64 * 4;
/// The fixed part of a version 1 header.
const FIXED_LEN_V1: usize = 80;
/// The fixed part of a version 2 or 3 header.
const FIXED_LEN_V3: usize = 104;

/// What the header of a version 4 file says.
#[derive(Clone, Debug)]
pub(crate) struct Header {
    /// Number of words.
    pub words: u64,
    /// Number of GADDAG keys.
    pub keys: u64,
    /// Length of the longest word, in tiles.
    pub max_len: u32,
    /// The alphabet the words are spelled in.
    pub alphabet: Alphabet,
    /// Where the fst section is, and its CRC.
    pub fst: Range<usize>,
    pub fst_crc: u32,
    /// Where the arc table is, and its CRC.
    pub arcs: Range<usize>,
    pub arcs_crc: u32,
    /// Its number of arcs and their width in bits.
    pub arc_count: u64,
    pub arc_width: u32,
    /// Arcs reading each code.
    pub code_counts: [u32; 64],
}

/// What the header of a version 1 to 3 file says: what its words are
/// read back with.
#[derive(Clone, Debug)]
pub(crate) struct OldHeader {
    /// The file's format version.
    pub version: u32,
    /// Number of words.
    pub words: u64,
    /// Number of GADDAG keys.
    pub keys: u64,
    /// The alphabet the words are spelled in.
    pub alphabet: Alphabet,
    /// Where the fst section is (the end of the file), and its CRC.
    pub fst: Range<usize>,
    pub fst_crc: u32,
}

/// A parsed header.
#[derive(Clone, Debug)]
pub(crate) enum Parsed {
    /// The version this library writes.
    Current(Box<Header>),
    /// An older version.
    Old(Box<OldHeader>),
}

/// The figures a version 4 header holds besides the sections' places.
pub(crate) struct Fields<'a> {
    pub words: u64,
    pub keys: u64,
    pub max_len: u32,
    pub alphabet: &'a Alphabet,
    pub arc_count: u64,
    pub arc_width: u32,
    pub code_counts: [u32; 64],
}

/// A file's first bytes, up to where its fst section starts: the header
/// (zeros, filled by [`seal`]), the code counts (zeros), the alphabet and
/// padding. The fst section follows them.
pub(crate) fn begin(alphabet: &Alphabet, capacity: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(capacity.max(1024));
    out.resize(ALPHABET_AT, 0);
    out.extend_from_slice(alphabet.name().as_bytes());
    out.extend_from_slice(alphabet.to_text().as_bytes());
    out.resize(out.len().next_multiple_of(8), 0);
    out
}

/// Fills in the header of the first bytes made by [`begin`], with the
/// fst section at `fst.0` (its CRC-32C `fst.1`), the arc table at `arcs.0`
/// (the rest of the file; its CRC `arcs.1`), the figures of `f`, and the
/// header's own CRC.
pub(crate) fn seal(
    head: &mut [u8],
    fst: (Range<usize>, u32),
    arcs: (Range<usize>, u32),
    f: &Fields<'_>,
) {
    let (fst, fst_crc) = fst;
    let (arcs, arcs_crc) = arcs;
    debug_assert_eq!(head.len(), fst.start);
    let name = f.alphabet.name().len();
    let alpha_len = name + f.alphabet.to_text().len();
    let mut h = Vec::with_capacity(ALPHABET_AT);
    h.extend_from_slice(&MAGIC);
    h.extend_from_slice(&VERSION.to_le_bytes());
    h.extend_from_slice(&0u32.to_le_bytes()); // the header's CRC, below
    h.extend_from_slice(&f.words.to_le_bytes());
    h.extend_from_slice(&f.keys.to_le_bytes());
    h.extend_from_slice(&f.max_len.to_le_bytes());
    h.extend_from_slice(&(name as u32).to_le_bytes());
    h.extend_from_slice(&(ALPHABET_AT as u64).to_le_bytes());
    h.extend_from_slice(&(alpha_len as u64).to_le_bytes());
    h.extend_from_slice(&(fst.start as u64).to_le_bytes());
    h.extend_from_slice(&(fst.len() as u64).to_le_bytes());
    h.extend_from_slice(&fst_crc.to_le_bytes());
    h.extend_from_slice(&arcs_crc.to_le_bytes());
    h.extend_from_slice(&(arcs.start as u64).to_le_bytes());
    h.extend_from_slice(&(arcs.len() as u64).to_le_bytes());
    h.extend_from_slice(&f.arc_count.to_le_bytes());
    h.push(f.arc_width as u8);
    h.resize(FIXED_LEN, 0);
    for c in f.code_counts {
        h.extend_from_slice(&c.to_le_bytes());
    }
    debug_assert_eq!(h.len(), ALPHABET_AT);
    head[..ALPHABET_AT].copy_from_slice(&h);
    let crc = crc32c::crc32c(&head[16..fst.start]);
    head[12..16].copy_from_slice(&crc.to_le_bytes());
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// Reads and checks the header of a lexicon file held in `bytes`: its
/// magic, version and CRC, and where its sections are. The sections' own
/// CRCs are not checked here. The error says what is wrong, for an
/// [`Error::Lexicon`] naming the file.
pub(crate) fn parse(bytes: &[u8]) -> Result<Parsed, Kind> {
    if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
        return Err(Kind::BadMagic);
    }
    let file_len = bytes.len() as u64;
    if bytes.len() < FIXED_LEN_V1 {
        return Err(Kind::Truncated {
            len: file_len,
            expected: None,
        });
    }
    match u32_at(bytes, at::VERSION) {
        VERSION => parse_v4(bytes).map(|h| Parsed::Current(Box::new(h))),
        v @ 1..=3 => parse_old(bytes, v).map(|h| Parsed::Old(Box::new(h))),
        found => Err(Kind::Version {
            found,
            supported: VERSION,
        }),
    }
}

/// The file's end is `end` (a sum of header fields): truncated, trailing
/// data, or an overflow if not.
fn file_end(file_len: u64, end: Option<u64>) -> Result<(), Kind> {
    match end {
        Some(n) if n == file_len => Ok(()),
        Some(n) if n > file_len => Err(Kind::Truncated {
            len: file_len,
            expected: Some(n),
        }),
        Some(n) => Err(Kind::TrailingData {
            bytes: file_len - n,
        }),
        None => Err(Kind::HeaderField {
            field: "section sizes overflow",
        }),
    }
}

/// The alphabet stored at `range` (its name the first `name_len` bytes).
fn alphabet_at(bytes: &[u8], range: Range<usize>, name_len: usize) -> Result<Alphabet, Kind> {
    let (name, text) = bytes[range].split_at(name_len);
    let (Ok(name), Ok(text)) = (std::str::from_utf8(name), std::str::from_utf8(text)) else {
        return Err(Kind::HeaderField {
            field: "alphabet is not UTF-8",
        });
    };
    Alphabet::from_text(name, text).map_err(|e| match e {
        Error::Alphabet { kind, .. } => Kind::Alphabet(kind),
        _ => Kind::HeaderField { field: "alphabet" },
    })
}

fn parse_v4(bytes: &[u8]) -> Result<Header, Kind> {
    let file_len = bytes.len() as u64;
    if bytes.len() < ALPHABET_AT {
        return Err(Kind::Truncated {
            len: file_len,
            expected: None,
        });
    }
    let (alpha_off, alpha_len) = (
        u64_at(bytes, at::ALPHABET_OFF),
        u64_at(bytes, at::ALPHABET_LEN),
    );
    let (fst_off, fst_len) = (u64_at(bytes, at::FST_OFF), u64_at(bytes, at::FST_LEN));
    let (arcs_off, arcs_len) = (u64_at(bytes, at::ARCS_OFF), u64_at(bytes, at::ARCS_LEN));
    let name_len = u32_at(bytes, at::NAME_LEN) as u64;
    file_end(file_len, arcs_off.checked_add(arcs_len))?;
    let alpha_end = alpha_off.checked_add(alpha_len);
    let fst_end = fst_off.checked_add(fst_len);
    if alpha_off != ALPHABET_AT as u64
        || name_len > alpha_len
        || alpha_end.map(|e| e.next_multiple_of(8)) != Some(fst_off)
        || fst_end.map(|e| e.next_multiple_of(8)) != Some(arcs_off)
    {
        return Err(Kind::HeaderField {
            field: "section offsets",
        });
    }
    if bytes[at::RESERVED..FIXED_LEN].iter().any(|&b| b != 0) {
        return Err(Kind::HeaderField {
            field: "reserved bytes",
        });
    }
    let (fst_off, fst_end, arcs_off) = (
        fst_off as usize,
        fst_end.unwrap_or(0) as usize,
        arcs_off as usize,
    );
    if crc32c::crc32c(&bytes[at::WORDS..fst_off]) != u32_at(bytes, at::HEADER_CRC) {
        return Err(Kind::HeaderChecksum);
    }
    let alpha_end = alpha_end.unwrap_or(0) as usize;
    if bytes[alpha_end..fst_off]
        .iter()
        .chain(&bytes[fst_end..arcs_off])
        .any(|&b| b != 0)
    {
        return Err(Kind::HeaderField {
            field: "padding between sections",
        });
    }
    let alphabet = alphabet_at(bytes, ALPHABET_AT..alpha_end, name_len as usize)?;
    let mut code_counts = [0u32; 64];
    for (c, n) in code_counts.iter_mut().enumerate() {
        *n = u32_at(bytes, FIXED_LEN + 4 * c);
    }
    Ok(Header {
        words: u64_at(bytes, at::WORDS),
        keys: u64_at(bytes, at::KEYS),
        max_len: u32_at(bytes, at::MAX_LEN),
        alphabet,
        fst: fst_off..fst_end,
        fst_crc: u32_at(bytes, at::FST_CRC),
        arcs: arcs_off..bytes.len(),
        arcs_crc: u32_at(bytes, at::ARCS_CRC),
        arc_count: u64_at(bytes, at::ARC_COUNT),
        arc_width: bytes[at::ARC_WIDTH] as u32,
        code_counts,
    })
}

/// The header of a version 1, 2 or 3 file: the fst section ends the file,
/// after the alphabet (version 1) or an arc table (versions 2 and 3, at
/// the offset in bytes 80..88 when its length at 88..96 is not 0); the
/// header's CRC covers bytes 16 up to the first section.
fn parse_old(bytes: &[u8], version: u32) -> Result<OldHeader, Kind> {
    let file_len = bytes.len() as u64;
    let fixed = if version == 1 {
        FIXED_LEN_V1
    } else {
        FIXED_LEN_V3
    };
    if bytes.len() < fixed {
        return Err(Kind::Truncated {
            len: file_len,
            expected: None,
        });
    }
    let (alpha_off, alpha_len) = (
        u64_at(bytes, at::ALPHABET_OFF),
        u64_at(bytes, at::ALPHABET_LEN),
    );
    let (fst_off, fst_len) = (u64_at(bytes, at::FST_OFF), u64_at(bytes, at::FST_LEN));
    let name_len = u32_at(bytes, at::NAME_LEN) as u64;
    file_end(file_len, fst_off.checked_add(fst_len))?;
    let (arcs_off, arcs_len) = if version == 1 {
        (0, 0)
    } else {
        (u64_at(bytes, at::ARCS_OFF), u64_at(bytes, at::ARCS_LEN))
    };
    let first = if arcs_len > 0 { arcs_off } else { fst_off };
    if alpha_off != fixed as u64
        || name_len > alpha_len
        || alpha_off
            .checked_add(alpha_len)
            .is_none_or(|end| end > first)
        || first > fst_off
    {
        return Err(Kind::HeaderField {
            field: "section offsets",
        });
    }
    if crc32c::crc32c(&bytes[at::WORDS..first as usize]) != u32_at(bytes, at::HEADER_CRC) {
        return Err(Kind::HeaderChecksum);
    }
    let alpha = alpha_off as usize..(alpha_off + alpha_len) as usize;
    Ok(OldHeader {
        version,
        words: u64_at(bytes, at::WORDS),
        keys: u64_at(bytes, at::KEYS),
        alphabet: alphabet_at(bytes, alpha, name_len as usize)?,
        fst: fst_off as usize..bytes.len(),
        fst_crc: u32_at(bytes, at::FST_CRC),
    })
}

/// Recomputes the checksums of a lexicon file in place (the header's, the
/// sections' and the fst's own), as far as the header's section offsets
/// allow; returns whether it could. For tests and fuzzing: it turns
/// damaged bytes into a file whose checksums pass, as someone crafting a
/// file would, so that the checks behind the checksums are exercised.
/// Only with the `test-hooks` feature, which lexq's own tests and fuzz
/// targets turn on: it is no part of the API.
#[cfg(feature = "test-hooks")]
pub fn reseal(bytes: &mut [u8]) -> bool {
    if bytes.len() < FIXED_LEN_V1 {
        return false;
    }
    let len = bytes.len() as u64;
    let (fst_off, fst_len) = (u64_at(bytes, at::FST_OFF), u64_at(bytes, at::FST_LEN));
    let Some(fst_end) = fst_off.checked_add(fst_len).filter(|&e| e <= len) else {
        return false;
    };
    if fst_off < FIXED_LEN_V1 as u64 {
        return false;
    }
    let (fst_off, fst_end) = (fst_off as usize, fst_end as usize);
    if fst_end - fst_off >= 4 {
        let sum = crate::lexicon::fstwrite::masked_crc32c(&bytes[fst_off..fst_end - 4]);
        bytes[fst_end - 4..fst_end].copy_from_slice(&sum.to_le_bytes());
    }
    let crc = crc32c::crc32c(&bytes[fst_off..fst_end]);
    bytes[at::FST_CRC..at::FST_CRC + 4].copy_from_slice(&crc.to_le_bytes());
    let mut first = fst_off;
    match u32_at(bytes, at::VERSION) {
        VERSION if bytes.len() >= ALPHABET_AT => {
            let arcs_off = u64_at(bytes, at::ARCS_OFF);
            if arcs_off >= fst_end as u64 && arcs_off <= len {
                let crc = crc32c::crc32c(&bytes[arcs_off as usize..]);
                bytes[at::ARCS_CRC..at::ARCS_CRC + 4].copy_from_slice(&crc.to_le_bytes());
            }
        }
        2 | 3 if bytes.len() >= FIXED_LEN_V3 => {
            let (arcs_off, arcs_len) = (u64_at(bytes, at::ARCS_OFF), u64_at(bytes, at::ARCS_LEN));
            if arcs_len > 0 && arcs_off >= FIXED_LEN_V3 as u64 && arcs_off <= fst_off as u64 {
                first = arcs_off as usize;
                let crc = crc32c::crc32c(&bytes[first..fst_off]);
                bytes[at::ARCS_CRC..at::ARCS_CRC + 4].copy_from_slice(&crc.to_le_bytes());
            }
        }
        _ => {}
    }
    let crc = crc32c::crc32c(&bytes[at::WORDS..first]);
    bytes[at::HEADER_CRC..at::HEADER_CRC + 4].copy_from_slice(&crc.to_le_bytes());
    true
}
