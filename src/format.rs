//! The `.lexq` file layout: a small header, the alphabet, then the fst.
//!
//! All integers are little-endian.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `\x89LXQ\r\n\x1a\n` |
//! | 8 | 4 | format version (1) |
//! | 12 | 4 | CRC-32C of bytes 16 up to the fst section |
//! | 16 | 8 | number of words |
//! | 24 | 8 | number of GADDAG keys |
//! | 32 | 4 | length of the longest word, in tiles |
//! | 36 | 4 | length of the alphabet's name, in bytes |
//! | 40 | 8 | alphabet section offset (80) |
//! | 48 | 8 | alphabet section length |
//! | 56 | 8 | fst section offset (a multiple of 8) |
//! | 64 | 8 | fst section length; the file ends right after it |
//! | 72 | 4 | CRC-32C of the fst section |
//! | 76 | 4 | reserved, zero |
//! | 80 | | alphabet name (UTF-8), then the alphabet in the text format of [`crate::alphabet`] |
//! | | | zero padding to a multiple of 8, then the `fst::Set` bytes |
//!
//! Every open checks the magic, version, both CRCs (header and fst section,
//! so a corrupt file is an error, never a wrong answer), section bounds, the
//! file length and the fst's own footer. `lexq verify`
//! ([`crate::Lexicon::verify`]) also checks the fst's own checksum.

use std::io::{self, Write};
use std::ops::Range;

use crate::alphabet::Alphabet;
use crate::error::{Error, LexiconErrorKind as Kind};

/// The first eight bytes of every lexicon file.
pub const MAGIC: [u8; 8] = *b"\x89LXQ\r\n\x1a\n";

/// The format version this library reads and writes.
pub const VERSION: u32 = 1;

const FIXED_LEN: usize = 80;

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
}

/// Writes a whole lexicon file: header, alphabet, padding, `fst`.
pub(crate) fn write(
    out: &mut impl Write,
    words: u64,
    keys: u64,
    max_len: u32,
    alphabet: &Alphabet,
    fst: &[u8],
) -> io::Result<()> {
    let name = alphabet.name().as_bytes();
    let mut alpha = name.to_vec();
    alpha.extend_from_slice(alphabet.to_text().as_bytes());
    let fst_offset = (FIXED_LEN + alpha.len()).next_multiple_of(8);

    let mut head = Vec::with_capacity(fst_offset);
    head.extend_from_slice(&MAGIC);
    head.extend_from_slice(&VERSION.to_le_bytes());
    head.extend_from_slice(&0u32.to_le_bytes()); // CRC, filled below
    head.extend_from_slice(&words.to_le_bytes());
    head.extend_from_slice(&keys.to_le_bytes());
    head.extend_from_slice(&max_len.to_le_bytes());
    head.extend_from_slice(&(name.len() as u32).to_le_bytes());
    head.extend_from_slice(&(FIXED_LEN as u64).to_le_bytes());
    head.extend_from_slice(&(alpha.len() as u64).to_le_bytes());
    head.extend_from_slice(&(fst_offset as u64).to_le_bytes());
    head.extend_from_slice(&(fst.len() as u64).to_le_bytes());
    head.extend_from_slice(&crc32c::crc32c(fst).to_le_bytes());
    head.extend_from_slice(&0u32.to_le_bytes());
    debug_assert_eq!(head.len(), FIXED_LEN);
    head.extend_from_slice(&alpha);
    head.resize(fst_offset, 0);
    let crc = crc32c::crc32c(&head[16..]);
    head[12..16].copy_from_slice(&crc.to_le_bytes());
    out.write_all(&head)?;
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
    if bytes.len() < FIXED_LEN {
        return Err(Kind::Truncated {
            len: file_len,
            expected: None,
        });
    }
    let version = u32_at(bytes, 8);
    if version != VERSION {
        return Err(Kind::Version {
            found: version,
            supported: VERSION,
        });
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
    if alpha_off != FIXED_LEN as u64
        || name_len > alpha_len
        || alpha_off
            .checked_add(alpha_len)
            .is_none_or(|end| end > fst_off)
        || fst_off % 8 != 0
    {
        return Err(Kind::HeaderField {
            field: "section offsets",
        });
    }
    let fst_off = fst_off as usize;
    let crc = crc32c::crc32c(&bytes[16..fst_off]);
    if crc != u32_at(bytes, 12) {
        return Err(Kind::HeaderChecksum);
    }
    if check_fst && crc32c::crc32c(&bytes[fst_off..]) != u32_at(bytes, 72) {
        return Err(Kind::FstChecksum);
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
    })
}

/// Recomputes the three checksums of a lexicon file in place (header,
/// fst section, and the fst's own), as far as the header's section offsets
/// allow; returns whether it could. For tests and fuzzing: it turns damaged
/// bytes into a file whose checksums pass, as someone crafting a file
/// would, so that the checks behind the checksums are exercised.
#[doc(hidden)]
pub fn reseal(bytes: &mut [u8]) -> bool {
    if bytes.len() < FIXED_LEN {
        return false;
    }
    let (fst_off, fst_len) = (u64_at(bytes, 56), u64_at(bytes, 64));
    let Ok(fst_off) = usize::try_from(fst_off) else {
        return false;
    };
    if fst_off < FIXED_LEN || fst_off > bytes.len() {
        return false;
    }
    if fst_len == (bytes.len() - fst_off) as u64 && fst_len >= 4 {
        let n = bytes.len();
        let sum = crate::fstwrite::masked_crc32c(&bytes[fst_off..n - 4]);
        bytes[n - 4..].copy_from_slice(&sum.to_le_bytes());
    }
    let crc = crc32c::crc32c(&bytes[fst_off..]);
    bytes[72..76].copy_from_slice(&crc.to_le_bytes());
    let crc = crc32c::crc32c(&bytes[16..fst_off]);
    bytes[12..16].copy_from_slice(&crc.to_le_bytes());
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_round_trip_and_damage() {
        let mut file = Vec::new();
        write(&mut file, 3, 9, 4, &Alphabet::english(), b"fstbytes").unwrap();
        let h = parse(&file, true).unwrap();
        assert_eq!((h.words, h.keys, h.max_len), (3, 9, 4));
        assert_eq!(&file[h.fst.clone()], b"fstbytes");
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
        for (at, kind) in [
            (20, Kind::HeaderChecksum),
            (100, Kind::HeaderChecksum),
            (file.len() - 1, Kind::FstChecksum),
        ] {
            let mut flipped = file.clone();
            flipped[at] ^= 1;
            assert_eq!(parse(&flipped, true).unwrap_err(), kind, "flip at {at}");
        }
        let mut v2 = file.clone();
        v2[8] = 2;
        assert_eq!(
            parse(&v2, true).unwrap_err(),
            Kind::Version {
                found: 2,
                supported: 1
            }
        );
        assert_eq!(parse(b"hello world", true).unwrap_err(), Kind::BadMagic);
    }
}
