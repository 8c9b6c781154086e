//! The `.lexq` file layout: a small header, the alphabet, the GADDAG as a
//! flat arc table (optional), then the fst.
//!
//! All integers are little-endian. Version 3 (written by this library):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `\x89LXQ\r\n\x1a\n` |
//! | 8 | 4 | format version (3) |
//! | 12 | 4 | CRC-32C of bytes 16 up to the first section (arcs, else fst) |
//! | 16 | 8 | number of words |
//! | 24 | 8 | number of GADDAG keys |
//! | 32 | 4 | length of the longest word, in tiles |
//! | 36 | 4 | length of the alphabet's name, in bytes |
//! | 40 | 8 | alphabet section offset (104) |
//! | 48 | 8 | alphabet section length |
//! | 56 | 8 | fst section offset (a multiple of 8) |
//! | 64 | 8 | fst section length; the file ends right after it |
//! | 72 | 4 | CRC-32C of the fst section |
//! | 76 | 4 | CRC-32C of the arcs section and the padding after it (0 without one) |
//! | 80 | 8 | arcs section offset (a multiple of 8; 0 without one) |
//! | 88 | 8 | arcs section length (0 without one) |
//! | 96 | 8 | number of arcs in the arcs section (0 without one) |
//! | 104 | | alphabet name (UTF-8), then the alphabet in the text format of [`crate::alphabet`] |
//! | | | zero padding to a multiple of 8, the arcs section, zero padding to a multiple of 8, then the `fst::Set` bytes |
//!
//! The arcs section is the move generator's flat arc table exactly as it
//! is walked (32-bit words, each node a header holding its letter mask,
//! then its arcs; see [`crate::Arcs`]), so a reader uses it in place:
//! no set-up, and the pages are shared between processes.
//! It is derived data: the fst stays the source of truth, and
//! [`crate::Lexicon::verify`] checks the two agree.
//!
//! Older files still open. Version 2 has the same header (bytes 96..104
//! reserved, zero) and stores the table without its node headers (arcs
//! only, after a sentinel word whose child is the root): a reader puts
//! the headers back in linear passes. Version 1 has no arcs fields (the
//! alphabet at 80, bytes 76..80 reserved, the fst right after the
//! alphabet); its table is derived from the fst when first needed.
//!
//! Every open checks the magic, version, the CRCs (header, fst and arcs
//! sections, so a corrupt file is an error, never a wrong answer), section
//! bounds, the file length and the fst's own footer. `lexq verify`
//! ([`crate::Lexicon::verify`]) also checks the fst's own checksum.

use std::io::{self, Write};
use std::ops::Range;

use crate::alphabet::Alphabet;
use crate::error::{Error, LexiconErrorKind as Kind};

/// The first eight bytes of every lexicon file.
pub const MAGIC: [u8; 8] = *b"\x89LXQ\r\n\x1a\n";

/// The format version this library writes (it reads 1, 2 and 3).
pub const VERSION: u32 = 3;

/// The fixed part of a version 1 header.
const FIXED_LEN_V1: usize = 80;
/// The fixed part of a version 2 or 3 header.
const FIXED_LEN: usize = 104;

/// What the header of a lexicon file says.
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
    /// Where the fst bytes are in the file (checked against its CRC).
    pub fst: Range<usize>,
    /// Where the stored arc table is, if the file has one.
    pub arcs: Option<Range<usize>>,
    /// The number of arcs it holds (version 3; 0 otherwise).
    pub arc_count: u64,
    /// The file's format version.
    pub version: u32,
}

/// Writes a whole lexicon file: header, alphabet, padding, the stored
/// arc table `arcs` if any (its bytes and number of arcs), padding, `fst`.
pub(crate) fn write(
    out: &mut impl Write,
    words: u64,
    keys: u64,
    max_len: u32,
    alphabet: &Alphabet,
    arcs: Option<(&[u8], u64)>,
    fst: &[u8],
) -> io::Result<()> {
    write_version(out, VERSION, words, keys, max_len, alphabet, arcs, fst)
}

/// [`write`] in a given format version (1 has no arcs section, 2 no arc
/// count; tests use it to check old files still open).
#[allow(clippy::too_many_arguments)]
pub(crate) fn write_version(
    out: &mut impl Write,
    version: u32,
    words: u64,
    keys: u64,
    max_len: u32,
    alphabet: &Alphabet,
    arcs: Option<(&[u8], u64)>,
    fst: &[u8],
) -> io::Result<()> {
    let arc_count = match arcs {
        Some((_, n)) if version >= 3 => n,
        _ => 0,
    };
    let arcs = arcs.map(|(a, _)| a);
    let fixed = if version == 1 {
        FIXED_LEN_V1
    } else {
        FIXED_LEN
    };
    let arcs = if version == 1 { None } else { arcs };
    let name = alphabet.name().as_bytes();
    let mut alpha = name.to_vec();
    alpha.extend_from_slice(alphabet.to_text().as_bytes());
    let first = (fixed + alpha.len()).next_multiple_of(8);
    let (arcs_offset, arcs_len) = match arcs {
        Some(a) => (first, a.len()),
        None => (0, 0),
    };
    let fst_offset = if arcs.is_some() {
        (first + arcs_len).next_multiple_of(8)
    } else {
        first
    };

    let mut head = Vec::with_capacity(first);
    head.extend_from_slice(&MAGIC);
    head.extend_from_slice(&version.to_le_bytes());
    head.extend_from_slice(&0u32.to_le_bytes()); // CRC, filled below
    head.extend_from_slice(&words.to_le_bytes());
    head.extend_from_slice(&keys.to_le_bytes());
    head.extend_from_slice(&max_len.to_le_bytes());
    head.extend_from_slice(&(name.len() as u32).to_le_bytes());
    head.extend_from_slice(&(fixed as u64).to_le_bytes());
    head.extend_from_slice(&(alpha.len() as u64).to_le_bytes());
    head.extend_from_slice(&(fst_offset as u64).to_le_bytes());
    head.extend_from_slice(&(fst.len() as u64).to_le_bytes());
    head.extend_from_slice(&crc32c::crc32c(fst).to_le_bytes());
    if version == 1 {
        head.extend_from_slice(&0u32.to_le_bytes());
    } else {
        let arcs_crc = arcs.map_or(0, |a| {
            let pad = fst_offset - first - a.len();
            crc32c::crc32c_append(crc32c::crc32c(a), &[0u8; 8][..pad])
        });
        head.extend_from_slice(&arcs_crc.to_le_bytes());
        head.extend_from_slice(&(arcs_offset as u64).to_le_bytes());
        head.extend_from_slice(&(arcs_len as u64).to_le_bytes());
        head.extend_from_slice(&arc_count.to_le_bytes());
    }
    debug_assert_eq!(head.len(), fixed);
    head.extend_from_slice(&alpha);
    head.resize(first, 0);
    let crc = crc32c::crc32c(&head[16..]);
    head[12..16].copy_from_slice(&crc.to_le_bytes());
    out.write_all(&head)?;
    if let Some(a) = arcs {
        out.write_all(a)?;
        let pad = fst_offset - first - a.len();
        out.write_all(&[0u8; 8][..pad])?;
    }
    out.write_all(fst)
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// Reads and checks the header of a lexicon file held in `bytes`, and the
/// CRC of its fst section if `check_fst` (skipped only for the lexicon
/// compiled into the binary). The error says what is wrong, for an
/// [`Error::Lexicon`] naming the file.
pub(crate) fn parse(bytes: &[u8], check_fst: bool) -> Result<Header, Kind> {
    if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
        return Err(Kind::BadMagic);
    }
    let file_len = bytes.len() as u64;
    let truncated = Kind::Truncated {
        len: file_len,
        expected: None,
    };
    if bytes.len() < FIXED_LEN_V1 {
        return Err(truncated);
    }
    let version = u32_at(bytes, 8);
    let fixed = match version {
        1 => FIXED_LEN_V1,
        2 | VERSION => FIXED_LEN,
        _ => {
            return Err(Kind::Version {
                found: version,
                supported: VERSION,
            });
        }
    };
    if bytes.len() < fixed {
        return Err(truncated);
    }
    let (alpha_off, alpha_len) = (u64_at(bytes, 40), u64_at(bytes, 48));
    let (fst_off, fst_len) = (u64_at(bytes, 56), u64_at(bytes, 64));
    let name_len = u32_at(bytes, 36) as u64;
    let expected = fst_off.checked_add(fst_len);
    if expected != Some(file_len) {
        return Err(match expected {
            Some(n) if n > file_len => Kind::Truncated {
                len: file_len,
                expected: Some(n),
            },
            Some(n) => Kind::TrailingData {
                bytes: file_len - n,
            },
            None => Kind::HeaderField {
                field: "section sizes overflow",
            },
        });
    }
    let (arcs_off, arcs_len) = if version == 1 {
        (0, 0)
    } else {
        (u64_at(bytes, 80), u64_at(bytes, 88))
    };
    let first = if arcs_len > 0 { arcs_off } else { fst_off };
    // Version 2 wrote zeros where version 3 counts its arcs: a version 3
    // file whose version field was damaged to 2 is refused, not misread.
    if version == 2 && u64_at(bytes, 96) != 0 {
        return Err(Kind::HeaderField {
            field: "reserved bytes",
        });
    }
    if alpha_off != fixed as u64
        || name_len > alpha_len
        || alpha_off
            .checked_add(alpha_len)
            .is_none_or(|end| end > first)
        || fst_off % 8 != 0
        || (arcs_len == 0 && (arcs_off != 0 || u32_at(bytes, 76) != 0))
        || (arcs_len > 0
            && (arcs_off % 8 != 0
                || arcs_off
                    .checked_add(arcs_len)
                    .is_none_or(|end| end > fst_off || fst_off - end >= 8)))
    {
        return Err(Kind::HeaderField {
            field: "section offsets",
        });
    }
    let (first, fst_off) = (first as usize, fst_off as usize);
    let crc = crc32c::crc32c(&bytes[16..first]);
    if crc != u32_at(bytes, 12) {
        return Err(Kind::HeaderChecksum);
    }
    if check_fst && crc32c::crc32c(&bytes[fst_off..]) != u32_at(bytes, 72) {
        return Err(Kind::FstChecksum);
    }
    // The arcs CRC covers the section and the padding after it.
    if check_fst && arcs_len > 0 && crc32c::crc32c(&bytes[first..fst_off]) != u32_at(bytes, 76) {
        return Err(Kind::ArcsChecksum);
    }
    let alpha = &bytes[alpha_off as usize..(alpha_off + alpha_len) as usize];
    let (name, text) = alpha.split_at(name_len as usize);
    let (Ok(name), Ok(text)) = (std::str::from_utf8(name), std::str::from_utf8(text)) else {
        return Err(Kind::HeaderField {
            field: "alphabet is not UTF-8",
        });
    };
    let alphabet = Alphabet::from_text(name, text).map_err(|e| match e {
        Error::Alphabet { kind, .. } => Kind::Alphabet(kind),
        _ => Kind::HeaderField { field: "alphabet" },
    })?;
    Ok(Header {
        words: u64_at(bytes, 16),
        keys: u64_at(bytes, 24),
        max_len: u32_at(bytes, 32),
        alphabet,
        fst: fst_off..bytes.len(),
        arcs: (arcs_len > 0).then(|| first..first + arcs_len as usize),
        arc_count: if version >= 3 { u64_at(bytes, 96) } else { 0 },
        version,
    })
}

/// Recomputes the checksums of a lexicon file in place (header, fst
/// section, the fst's own, and the arcs section's), as far as the
/// header's section offsets allow; returns whether it could. For tests and
/// fuzzing: it turns damaged bytes into a file whose checksums pass, as
/// someone crafting a file would, so that the checks behind the checksums
/// are exercised.
#[doc(hidden)]
pub fn reseal(bytes: &mut [u8]) -> bool {
    if bytes.len() < FIXED_LEN_V1 {
        return false;
    }
    let (fst_off, fst_len) = (u64_at(bytes, 56), u64_at(bytes, 64));
    let Ok(fst_off) = usize::try_from(fst_off) else {
        return false;
    };
    if fst_off < FIXED_LEN_V1 || fst_off > bytes.len() {
        return false;
    }
    if fst_len == (bytes.len() - fst_off) as u64 && fst_len >= 4 {
        let n = bytes.len();
        let sum = crate::fstwrite::masked_crc32c(&bytes[fst_off..n - 4]);
        bytes[n - 4..].copy_from_slice(&sum.to_le_bytes());
    }
    let crc = crc32c::crc32c(&bytes[fst_off..]);
    bytes[72..76].copy_from_slice(&crc.to_le_bytes());
    let mut first = fst_off;
    if matches!(u32_at(bytes, 8), 2 | VERSION) && bytes.len() >= FIXED_LEN {
        let (arcs_off, arcs_len) = (u64_at(bytes, 80), u64_at(bytes, 88));
        if arcs_len > 0 && arcs_off >= FIXED_LEN as u64 && arcs_off <= fst_off as u64 {
            first = arcs_off as usize;
            let crc = crc32c::crc32c(&bytes[first..fst_off]);
            bytes[76..80].copy_from_slice(&crc.to_le_bytes());
        }
    }
    let crc = crc32c::crc32c(&bytes[16..first]);
    bytes[12..16].copy_from_slice(&crc.to_le_bytes());
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_round_trip_and_damage() {
        let mut file = Vec::new();
        let arcs = [7u8; 12];
        let fst = b"fstbytes";
        write(
            &mut file,
            3,
            9,
            4,
            &Alphabet::english(),
            Some((&arcs, 2)),
            fst,
        )
        .unwrap();
        let h = parse(&file, true).unwrap();
        assert_eq!(
            (h.words, h.keys, h.max_len, h.version, h.arc_count),
            (3, 9, 4, 3, 2)
        );
        assert_eq!(&file[h.fst.clone()], fst);
        assert_eq!(&file[h.arcs.clone().unwrap()], &arcs);
        assert_eq!(h.alphabet, Alphabet::english());

        let len = file.len() as u64;
        assert_eq!(
            parse(&file[..file.len() - 1], true).unwrap_err(),
            Kind::Truncated {
                len: len - 1,
                expected: Some(len)
            }
        );
        let mut longer = file.clone();
        longer.push(0);
        assert_eq!(
            parse(&longer, true).unwrap_err(),
            Kind::TrailingData { bytes: 1 }
        );
        let arcs_at = h.arcs.unwrap().start;
        for (at, kind) in [
            (20, Kind::HeaderChecksum),
            (100, Kind::HeaderChecksum),
            (120, Kind::HeaderChecksum),
            (arcs_at, Kind::ArcsChecksum),
            // The padding between the arcs and the fst.
            (h.fst.start - 1, Kind::ArcsChecksum),
            (file.len() - 1, Kind::FstChecksum),
        ] {
            let mut flipped = file.clone();
            flipped[at] ^= 1;
            assert_eq!(parse(&flipped, true).unwrap_err(), kind, "flip at {at}");
            // Re-sealed, the same file opens (reseal knows every CRC).
            assert!(reseal(&mut flipped));
            parse(&flipped, true).unwrap_or_else(|e| panic!("resealed flip at {at}: {e}"));
        }
        let mut v4 = file.clone();
        v4[8] = 4;
        assert_eq!(
            parse(&v4, true).unwrap_err(),
            Kind::Version {
                found: 4,
                supported: 3
            }
        );
        assert_eq!(parse(b"hello world", true).unwrap_err(), Kind::BadMagic);
    }

    #[test]
    fn version_1_and_files_without_arcs_still_parse() {
        for version in [1, 2, 3] {
            let mut file = Vec::new();
            let a = Alphabet::english();
            write_version(&mut file, version, 3, 9, 4, &a, None, b"fstbytes").unwrap();
            let h = parse(&file, true).unwrap();
            assert_eq!(
                (h.version, h.arcs, &file[h.fst]),
                (version, None, &b"fstbytes"[..])
            );
            let mut flipped = file.clone();
            flipped[90] ^= 1;
            assert!(parse(&flipped, true).is_err(), "v{version}");
        }
    }
}
