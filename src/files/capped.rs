//! Reading inputs: only regular files are opened by name, and inputs are
//! read whole with a size cap.
//!
//! A FIFO, a device, a socket or a directory named where a file is expected
//! is refused before it is opened: opening a FIFO for reading waits until
//! a writer comes (forever, if none does), and a device may never end
//! (`/dev/zero`) or act when opened. An endless input that is not a file
//! (standard input) or a file far larger than its kind can be is refused
//! when it passes the cap, instead of read until memory runs out.

use std::fs::{File, FileType};
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
/// let words = lexq::files::read_capped(&b"cat\ndog\n"[..], Path::new("words.txt"), 16, "a word list")?;
/// assert_eq!(words, b"cat\ndog\n");
/// let err = lexq::files::read_capped(&[b'a'; 17][..], Path::new("big.txt"), 16, "a word list");
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
        return Err(too_large(name, max, what));
    }
    Ok(buf)
}

/// The error of an input `name` larger than `max` bytes.
fn too_large(name: &Path, max: u64, what: &str) -> Error {
    let size = match max {
        m if m >= 1 << 20 && m % (1 << 20) == 0 => format!("{} MiB", m >> 20),
        m if m >= 1 << 10 && m % (1 << 10) == 0 => format!("{} KiB", m >> 10),
        m => format!("{m} bytes"),
    };
    let e = std::io::Error::new(
        std::io::ErrorKind::FileTooLarge,
        format!("larger than {size}, the most {what} may be"),
    );
    Error::io(name, e)
}

/// What a file of type `t` is, in words, unless it is a regular file.
pub(crate) fn special_kind(t: &FileType) -> Option<&'static str> {
    if t.is_file() {
        return None;
    }
    if t.is_dir() {
        return Some("a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("a FIFO (named pipe)");
        } else if t.is_char_device() || t.is_block_device() {
            return Some("a device");
        } else if t.is_socket() {
            return Some("a socket");
        }
    }
    Some("a special file")
}

/// The `O_NONBLOCK` flag of `open(2)` where lexq knows its value (it
/// differs between systems, and the core does not depend on `libc`): with
/// it, opening a FIFO returns at once instead of waiting for a writer; on a
/// regular file it changes nothing.
#[cfg(unix)]
const O_NONBLOCK: i32 = if cfg!(any(
    target_os = "macos",
    target_os = "ios",
    target_os = "freebsd",
    target_os = "netbsd",
    target_os = "openbsd",
    target_os = "dragonfly"
)) {
    0x4
} else if cfg!(all(
    any(target_os = "linux", target_os = "android"),
    any(
        target_arch = "x86",
        target_arch = "x86_64",
        target_arch = "arm",
        target_arch = "aarch64",
        target_arch = "riscv32",
        target_arch = "riscv64",
        target_arch = "powerpc",
        target_arch = "powerpc64",
        target_arch = "s390x",
        target_arch = "loongarch64"
    )
)) {
    0o4000
} else {
    // Unknown here: the look before the open still keeps FIFOs out.
    0
};

/// Opens the regular file at `path` for reading; a directory, FIFO, device
/// or socket is refused ([`Error::NotRegularFile`]) without being opened.
/// The type is looked at before the open, and the opened file's again
/// after it (a FIFO renamed into place between the two is refused too: the
/// open does not block, where the system's non-blocking flag is known).
///
/// ```
/// let err = lexq::files::open_regular("/dev/null".as_ref()).unwrap_err();
/// # #[cfg(unix)]
/// assert_eq!(err.to_string(), "/dev/null: is a device, not a regular file");
/// ```
pub fn open_regular(path: &Path) -> Result<File> {
    let refuse = |what| Error::NotRegularFile {
        path: path.to_path_buf(),
        what,
    };
    let meta = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
    if let Some(what) = special_kind(&meta.file_type()) {
        return Err(refuse(what));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(O_NONBLOCK);
    }
    let file = options.open(path).map_err(|e| Error::io(path, e))?;
    let meta = file.metadata().map_err(|e| Error::io(path, e))?;
    if let Some(what) = special_kind(&meta.file_type()) {
        return Err(refuse(what));
    }
    Ok(file)
}

/// The bytes of the regular file at `path` (see [`open_regular`]), unless
/// it is larger than `max` bytes; `what` names the kind of file in that
/// error, as in [`read_capped`].
///
/// ```
/// # let dir = tempfile::tempdir()?;
/// let path = dir.path().join("words.txt");
/// std::fs::write(&path, "cat\ndog\n")?;
/// assert_eq!(lexq::files::read_file(&path, 1 << 20, "a word list")?, b"cat\ndog\n");
/// let err = lexq::files::read_file(&path, 4, "a word list").unwrap_err();
/// assert!(err.to_string().ends_with("larger than 4 bytes, the most a word list may be"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_file(path: &Path, max: u64, what: &str) -> Result<Vec<u8>> {
    let file = open_regular(path)?;
    // A file known to be too large is refused before it is read.
    if file.metadata().is_ok_and(|m| m.len() > max) {
        return Err(too_large(path, max, what));
    }
    read_capped(file, path, max, what)
}

/// The text of the regular file at `path` (UTF-8), unless it is longer
/// than `max` bytes.
pub(crate) fn read_text(path: &Path, max: u64, what: &str) -> Result<String> {
    let bytes = read_file(path, max, what)?;
    String::from_utf8(bytes).map_err(|_| {
        Error::io(
            path,
            std::io::Error::new(std::io::ErrorKind::InvalidData, "not UTF-8 text"),
        )
    })
}
