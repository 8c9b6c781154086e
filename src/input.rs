//! Reading inputs whole, with a size cap: an endless input such as
//! `/dev/zero` (or a file far larger than its kind can be) is refused when
//! it passes the cap, instead of read until memory runs out.

use std::io::Read;
use std::path::Path;

use crate::error::{Error, Result};

/// The most bytes a word list (or another large input: a definitions
/// file, a WordNet file) may have: 256 MiB, some 50 times the largest
/// published word lists.
pub const MAX_INPUT_BYTES: u64 = 256 << 20;

/// All of `input` (named `name` in errors), unless it is longer than
/// `max` bytes; `what` names the kind of input in that error.
///
/// ```
/// use std::path::Path;
/// let words = lexq::read_capped(&b"cat\ndog\n"[..], Path::new("words.txt"), 16, "a word list")?;
/// assert_eq!(words, b"cat\ndog\n");
/// let err = lexq::read_capped(&[b'a'; 17][..], Path::new("big.txt"), 16, "a word list");
/// assert_eq!(
///     err.unwrap_err().to_string(),
///     "big.txt: larger than 16 bytes, the most a word list may be"
/// );
/// # Ok::<(), lexq::Error>(())
/// ```
pub fn read_capped(input: impl Read, name: &Path, max: u64, what: &str) -> Result<Vec<u8>> {
    let mut buf = Vec::new();
    input
        .take(max + 1)
        .read_to_end(&mut buf)
        .map_err(|e| Error::io(name, e))?;
    if buf.len() as u64 > max {
        let size = match max {
            m if m >= 1 << 20 && m % (1 << 20) == 0 => format!("{} MiB", m >> 20),
            m if m >= 1 << 10 && m % (1 << 10) == 0 => format!("{} KiB", m >> 10),
            m => format!("{m} bytes"),
        };
        let e = std::io::Error::new(
            std::io::ErrorKind::FileTooLarge,
            format!("larger than {size}, the most {what} may be"),
        );
        return Err(Error::io(name, e));
    }
    Ok(buf)
}

/// The text of the file at `path` (UTF-8), unless it is longer than `max`
/// bytes.
pub(crate) fn read_text(path: &Path, max: u64, what: &str) -> Result<String> {
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let bytes = read_capped(file, path, max, what)?;
    String::from_utf8(bytes).map_err(|_| {
        Error::io(
            path,
            std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text"),
        )
    })
}
