//! Atomic file replacement: write a temporary file beside the target, flush
//! it to disk, then rename it over the target, so a crash or a failed write
//! never leaves a half-written file where a good one was.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use crate::error::{Error, Result};

/// A temporary file that is removed unless it was renamed into place.
struct Temp {
    path: PathBuf,
    kept: bool,
}

impl Drop for Temp {
    fn drop(&mut self) {
        if !self.kept {
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// Replaces the file at `path` with `bytes`, atomically.
///
/// A symlink is written through (its target is replaced, the link stays);
/// an existing file keeps its permissions, a new one gets the usual
/// `0666 & !umask`. A path that exists but is not a regular file (a
/// directory, a device, a FIFO) is refused.
pub(crate) fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    let target = resolve(path)?;
    let existing = match fs::metadata(&target) {
        Ok(meta) if meta.is_file() => Some(meta.permissions()),
        Ok(_) => {
            return Err(Error::io(
                path,
                std::io::Error::other("exists and is not a regular file"),
            ));
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(Error::io(path, e)),
    };
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target
        .file_name()
        .map_or_else(|| "lexicon".into(), |n| n.to_string_lossy().into_owned());
    let (mut file, temp) = create_temp(&dir, &name)?;
    file.write_all(bytes)
        .and_then(|()| {
            if let Some(perm) = existing {
                file.set_permissions(perm)?;
            }
            file.sync_all()
        })
        .map_err(|e| Error::io(&temp.path, e))?;
    drop(file);
    let mut temp = temp;
    fs::rename(&temp.path, &target).map_err(|e| Error::io(path, e))?;
    temp.kept = true;
    Ok(())
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
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(file) => return Ok((file, Temp { path, kept: false })),
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
        write(&p, b"one").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"one");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&p, fs::Permissions::from_mode(0o640)).unwrap();
            write(&p, b"two").unwrap();
            assert_eq!(
                fs::metadata(&p).unwrap().permissions().mode() & 0o777,
                0o640
            );
            let link = dir.path().join("link.lexq");
            std::os::unix::fs::symlink(&p, &link).unwrap();
            write(&link, b"three").unwrap();
            assert!(
                fs::symlink_metadata(&link)
                    .unwrap()
                    .file_type()
                    .is_symlink()
            );
            assert_eq!(fs::read(&p).unwrap(), b"three");
        }
        assert!(write(dir.path(), b"x").is_err());
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
