//! Atomic file replacement: write a temporary file beside the target, flush
//! it to disk, then rename it over the target, so a crash or a failed write
//! never leaves a half-written file where a good one was.
//!
//! The target is checked first: it may not be one of the inputs (the same
//! file by device and inode, so also through a symlink or a hard link), and
//! if it exists it must be a regular file. Temporary files are registered
//! while they exist, so that an interrupt handler can remove them with
//! [`remove_temp_files`] before the process exits.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};

use crate::error::{Error, OutputErrorKind, Result};

/// The identity of a file: device and inode where the platform has them,
/// else its canonical path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FileId {
    #[cfg(unix)]
    id: (u64, u64),
    #[cfg(not(unix))]
    id: PathBuf,
    /// The path it was named by, for messages.
    pub(crate) path: PathBuf,
}

impl FileId {
    /// The identity of the file at `path` (following symlinks), if it
    /// exists.
    pub(crate) fn of(path: &Path) -> Option<FileId> {
        let meta = fs::metadata(path).ok()?;
        Some(FileId::from_meta(path, &meta))
    }

    #[cfg(unix)]
    fn from_meta(path: &Path, meta: &fs::Metadata) -> FileId {
        use std::os::unix::fs::MetadataExt;
        FileId {
            id: (meta.dev(), meta.ino()),
            path: path.to_path_buf(),
        }
    }

    #[cfg(not(unix))]
    fn from_meta(path: &Path, _: &fs::Metadata) -> FileId {
        FileId {
            id: fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()),
            path: path.to_path_buf(),
        }
    }

    fn same(&self, other: &FileId) -> bool {
        self.id == other.id
    }
}

/// Checks that `output` can be written by [`Built::write_atomic`]: it is
/// none of `inputs` (compared as files, so a symlink or hard link to an
/// input is refused too) and, if it exists, a regular file (a symlink is
/// followed). Call it before a long build to fail early; the write checks
/// again.
///
/// ```
/// # let dir = tempfile::tempdir()?;
/// let words = dir.path().join("words.txt");
/// std::fs::write(&words, "cat\n")?;
/// let err = lexq::files::check_output(&words, &[words.clone()]).unwrap_err();
/// assert!(matches!(err, lexq::Error::Output { kind: lexq::error::OutputErrorKind::IsInput { .. }, .. }));
/// assert!(lexq::files::check_output(&dir.path().join("words.lexq"), &[words]).is_ok());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// [`Built::write_atomic`]: crate::Built::write_atomic
pub fn check_output(output: &Path, inputs: &[PathBuf]) -> Result<()> {
    let ids: Vec<FileId> = inputs.iter().filter_map(|p| FileId::of(p)).collect();
    check_target(output, &ids)
}

/// Replaces the file at `output` atomically with what `fill` writes to a
/// temporary file beside it (handed over with its path, for messages):
/// `output` is checked as [`check_output`] checks it, the temporary file
/// is flushed to disk and renamed over `output` only once `fill` returns
/// `Ok`. If `fill` fails, or [`remove_temp_files`] runs first (an
/// interrupt), the temporary file is removed and `output` left as it was.
/// A symlink is written through; an existing file keeps its permissions.
///
/// ```
/// use std::io::Write;
/// # let dir = tempfile::tempdir()?;
/// let out = dir.path().join("games.txt");
/// let n = lexq::files::replace_with(&out, &[], |file, _| {
///     file.write_all(b"one\ntwo\n")?;
///     Ok::<_, Box<dyn std::error::Error>>(2)
/// })?;
/// assert_eq!((n, std::fs::read_to_string(&out)?), (2, "one\ntwo\n".to_string()));
/// // A failed fill leaves the file as it was.
/// let failed = lexq::files::replace_with(&out, &[], |file, _| {
///     file.write_all(b"half")?;
///     Err::<(), Box<dyn std::error::Error>>("stopped".into())
/// });
/// assert!(failed.is_err());
/// assert_eq!(std::fs::read_to_string(&out)?, "one\ntwo\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn replace_with<T, E: From<Error>>(
    output: &Path,
    inputs: &[PathBuf],
    fill: impl FnOnce(&mut File, &Path) -> std::result::Result<T, E>,
) -> std::result::Result<T, E> {
    let ids: Vec<FileId> = inputs.iter().filter_map(|p| FileId::of(p)).collect();
    write_with(output, &ids, fill)
}

/// [`check_output`] against inputs already identified.
pub(crate) fn check_target(path: &Path, inputs: &[FileId]) -> Result<()> {
    let refuse = |kind| {
        Err(Error::Output {
            path: path.to_path_buf(),
            kind,
        })
    };
    let meta = match fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(Error::io(path, e)),
    };
    let t = meta.file_type();
    if t.is_dir() {
        return refuse(OutputErrorKind::IsDirectory);
    }
    if !t.is_file() {
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
        return refuse(OutputErrorKind::NotRegularFile { what });
    }
    let id = FileId::from_meta(path, &meta);
    if let Some(input) = inputs.iter().find(|i| i.same(&id)) {
        return refuse(OutputErrorKind::IsInput {
            input: input.path.clone(),
        });
    }
    Ok(())
}

/// Temporary files that exist now, and whether they may still be made.
struct Registry {
    paths: Vec<PathBuf>,
    closed: bool,
}

static TEMPS: Mutex<Registry> = Mutex::new(Registry {
    paths: Vec::new(),
    closed: false,
});

fn registry() -> std::sync::MutexGuard<'static, Registry> {
    TEMPS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes every temporary file lexq is writing now, and makes any later
/// attempt to create one fail. For interrupt handlers: call it, then exit
/// (`lexq` does on Ctrl-C, with status 130), and no `.tmp` file is left
/// behind. A write in progress then fails or renames nothing.
pub fn remove_temp_files() {
    let mut reg = registry();
    reg.closed = true;
    for p in reg.paths.drain(..) {
        let _ = fs::remove_file(p);
    }
}

/// A temporary file that is removed unless it was renamed into place.
struct Temp {
    path: PathBuf,
    kept: bool,
}

impl Drop for Temp {
    fn drop(&mut self) {
        let mut reg = registry();
        reg.paths.retain(|p| p != &self.path);
        if !self.kept {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// Replaces the file at `path` with `bytes`, atomically, unless it is one
/// of `inputs` or not a regular file (see [`check_target`]).
///
/// A symlink is written through (its target is replaced, the link stays);
/// an existing file keeps its permissions, a new one gets the usual
/// `0666 & !umask`.
pub(crate) fn write(path: &Path, bytes: &[u8], inputs: &[FileId]) -> Result<()> {
    write_with(path, inputs, |file, temp| {
        file.write_all(bytes).map_err(|e| Error::io(temp, e))
    })
}

/// Replaces the file at `path` atomically with what `fill` writes to a
/// temporary file beside it (handed over with its path, for messages),
/// unless it is one of `inputs` or not a regular file (see
/// [`check_target`]). If `fill` fails, the temporary file is removed and
/// `path` left as it was. As [`write`] for symlinks and permissions.
pub(crate) fn write_with<T, E: From<Error>>(
    path: &Path,
    inputs: &[FileId],
    fill: impl FnOnce(&mut File, &Path) -> std::result::Result<T, E>,
) -> std::result::Result<T, E> {
    check_target(path, inputs)?;
    let target = resolve(path)?;
    let existing = match fs::metadata(&target) {
        Ok(meta) => Some(meta.permissions()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(Error::io(path, e).into()),
    };
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target
        .file_name()
        .map_or_else(|| "lexicon".into(), |n| n.to_string_lossy().into_owned());
    let (mut file, temp) = create_temp(&dir, &name)?;
    let value = fill(&mut file, &temp.path)?;
    if let Some(perm) = existing {
        file.set_permissions(perm)
            .map_err(|e| Error::io(&temp.path, e))?;
    }
    file.sync_all().map_err(|e| Error::io(&temp.path, e))?;
    drop(file);
    let mut temp = temp;
    {
        // Under the registry's lock, so an interrupt handler either removes
        // the temporary file first (and the rename fails) or finds it gone.
        let reg = registry();
        if reg.closed {
            return Err(Error::io(path, interrupted()).into());
        }
        fs::rename(&temp.path, &target).map_err(|e| Error::io(path, e))?;
        temp.kept = true;
    }
    Ok(value)
}

fn interrupted() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::Interrupted, "interrupted")
}

/// `path`, or the file a symlink at `path` finally points to.
fn resolve(path: &Path) -> Result<PathBuf> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => match fs::canonicalize(path) {
            Ok(p) => Ok(p),
            // A dangling link: create the file it names.
            Err(_) => {
                let link = fs::read_link(path).map_err(|e| Error::io(path, e))?;
                Ok(match path.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                })
            }
        },
        _ => Ok(path.to_path_buf()),
    }
}

fn create_temp(dir: &Path, name: &str) -> Result<(File, Temp)> {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let pid = std::process::id();
    let mut last = None;
    for _ in 0..100 {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let path = dir.join(format!(".{name}.{pid}.{n}.tmp"));
        // Created and registered under the lock, so an interrupt handler
        // sees every temporary file that exists.
        let mut reg = registry();
        if reg.closed {
            return Err(Error::io(dir, interrupted()));
        }
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(file) => {
                reg.paths.push(path.clone());
                return Ok((file, Temp { path, kept: false }));
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(Error::io(dir, e)),
        }
    }
    Err(Error::io(
        dir,
        last.unwrap_or_else(|| std::io::Error::other("no free temporary name")),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_keeps_mode_and_leaves_no_temp() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.lexq");
        write(&p, b"one", &[]).unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"one");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&p, fs::Permissions::from_mode(0o640)).unwrap();
            write(&p, b"two", &[]).unwrap();
            assert_eq!(
                fs::metadata(&p).unwrap().permissions().mode() & 0o777,
                0o640
            );
            let link = dir.path().join("link.lexq");
            std::os::unix::fs::symlink(&p, &link).unwrap();
            write(&link, b"three", &[]).unwrap();
            assert!(
                fs::symlink_metadata(&link)
                    .unwrap()
                    .file_type()
                    .is_symlink()
            );
            assert_eq!(fs::read(&p).unwrap(), b"three");
        }
        assert!(write(dir.path(), b"x", &[]).is_err());
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert!(
            names.iter().all(|n| !n.to_string_lossy().ends_with(".tmp")),
            "{names:?}"
        );
    }
}
