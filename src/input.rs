//! Reading input files whole, with a size cap: an endless input such as
//! `/dev/zero` (or a file far larger than its kind can be) is refused when
//! it passes the cap, instead of read until memory runs out.

use std::io::Read;
use std::path::Path;

use crate::error::{Error, Result};

/// All of `input` (named `name` in errors), unless it is longer than
/// `max` bytes; `what` names the kind of input in that error (`a word
/// list`).
pub(crate) fn read_capped(input: impl Read, name: &Path, max: u64, what: &str) -> Result<Vec<u8>> {
    let mut buf = Vec::new();
    input
        .take(max + 1)
        .read_to_end(&mut buf)
        .map_err(|e| Error::io(name, e))?;
    if buf.len() as u64 > max {
        let size = if max >= 1 << 20 {
            format!("{} MiB", max >> 20)
        } else {
            format!("{} KiB", max >> 10)
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
