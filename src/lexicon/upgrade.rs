//! Reading lexicon files of older format versions (1 to 3): their words
//! come back from their fst section and are built anew.
//!
//! An older file's fst section is the same kind of `fst::Set` of GADDAG
//! keys as version 4's. Its CRC, its own checksum and its structure are
//! checked (as for a version 4 file's fst view), then its whole-word keys
//! (no separator: the word reversed) are streamed through the `fst` crate
//! and the words built with this library's builder.

use std::path::Path;
use std::time::Instant;

use crate::error::{Error, LexiconErrorKind, Result};
use crate::lexicon::build::{Built, Progress, build_words};
use crate::lexicon::format::OldHeader;
use crate::lexicon::gaddag::{SEPARATOR, key_byte, key_code};
use crate::lexicon::{Lexicon, check_fst_section};

/// The version 4 lexicon of the file at `path`, built anew from its words
/// if it is of an older version (1 to 3), else the file as it is once
/// [`Lexicon::verify`] passes (what `lexq upgrade` writes), and the
/// version the file was of. The result may
/// be written over the file itself ([`Built::write_atomic`] renames a new
/// file over it, which leaves any open map of the old one whole).
///
/// ```
/// # let dir = tempfile::tempdir()?;
/// # let path = dir.path().join("words.lexq");
/// use lexq::{Alphabet, WordList, build};
/// let mut list = WordList::new(Alphabet::english());
/// list.read_bytes("words.txt".as_ref(), b"cat\ncats\n")?;
/// build(&list, &mut ())?.write_atomic(&path)?;
/// let (again, version) = lexq::upgrade(&path, &mut ())?;
/// assert_eq!((again.words, version), (2, 4));
/// again.write_atomic(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn upgrade(path: &Path, progress: &mut dyn Progress) -> Result<(Built, u32)> {
    let start = Instant::now();
    let lex = Lexicon::open_old(path, progress)?;
    lex.verify()?;
    let bytes = lex.file_bytes().to_vec();
    let version = lex
        .upgraded_from()
        .unwrap_or(crate::lexicon::format::VERSION);
    let built = Built::new(bytes, lex.word_count(), lex.info().entries, start.elapsed());
    Ok((built, version))
}

/// The version 4 file of the words of an older file's bytes (see the
/// [module](self)), its header `old`.
pub(crate) fn upgrade_bytes(
    bytes: &[u8],
    old: &OldHeader,
    progress: &mut dyn Progress,
) -> std::result::Result<Vec<u8>, Error> {
    let bad = |kind| Error::lexicon("<old>", kind);
    let section = &bytes[old.fst.clone()];
    if crc32c::crc32c(section) != old.fst_crc {
        return Err(bad(LexiconErrorKind::FstChecksum));
    }
    check_fst_section(section, old.keys, old.alphabet.len() as u8).map_err(bad)?;
    let set =
        fst::Set::new(section).map_err(|e| bad(LexiconErrorKind::FstInvalid(e.to_string())))?;
    let sep = key_byte(SEPARATOR);
    // Whole-word keys: the word reversed, no separator.
    let mut codes: Vec<u8> = Vec::new();
    let mut ends: Vec<usize> = Vec::new();
    let mut stream = fst::IntoStreamer::into_stream(&set);
    while let Some(key) = fst::Streamer::next(&mut stream) {
        if key.contains(&sep) {
            continue;
        }
        // Checked: every byte is a key byte of a code of the alphabet.
        codes.extend(key.iter().rev().map(|&b| key_code(b).unwrap_or(0)));
        ends.push(codes.len());
    }
    let mut words: Vec<&[u8]> = Vec::with_capacity(ends.len());
    let mut start = 0;
    for &end in &ends {
        words.push(&codes[start..end]);
        start = end;
    }
    words.sort_unstable();
    if words.len() as u64 != old.words {
        return Err(bad(LexiconErrorKind::HeaderField {
            field: "number of words",
        }));
    }
    Ok(build_words(&words, &old.alphabet, progress)?.bytes)
}
