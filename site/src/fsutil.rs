//! Directory replacement for builds and exports: everything is written
//! into a temporary directory beside the target, which is then renamed
//! into place; the old directory is moved aside first and removed last,
//! so a failure at any point leaves the old one (or the new one) whole.
//!
//! Processes writing the same target at once each write their own
//! temporary directory; the renames into place hold a lock on the folder
//! around them (`flock` on the folder itself, so nothing is left behind),
//! so one replacement finishes before the next begins and the last one
//! to finish is what stays, whole, with nothing left beside it.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, MutexGuard};

use fs4::fs_std::FileExt;

use crate::error::{Result, SiteError};

static COUNTER: AtomicU32 = AtomicU32::new(0);

/// The directories of this process that an interrupt must remove: the
/// temporary ones being written, and old ones being removed.
struct Registry {
    paths: Vec<PathBuf>,
    /// Set by [`remove_temp_dirs`]: no directory is created any more.
    closed: bool,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    paths: Vec::new(),
    closed: false,
});

fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(|e| e.into_inner())
}

fn interrupted(path: &Path) -> SiteError {
    SiteError::io(
        path,
        std::io::Error::new(std::io::ErrorKind::Interrupted, "interrupted"),
    )
}

/// Removes every temporary directory a build or export of this process is
/// writing (and any old one being removed), and makes later attempts to
/// create one fail. For interrupt handlers: call it, then exit (`lexq`
/// does on Ctrl-C, with status 130). A directory being renamed into place
/// is waited for, so the target is always the old directory or the new
/// one, whole.
pub fn remove_temp_dirs() {
    let mut reg = registry();
    reg.closed = true;
    for p in reg.paths.drain(..) {
        // Threads still writing into it would add files while it is
        // emptied (and its removal fail): renamed away first, it takes no
        // new file.
        let dead = sibling(&p, "removing");
        let p = if fs::rename(&p, &dead).is_ok() {
            dead
        } else {
            p
        };
        for _ in 0..10 {
            if fs::remove_dir_all(&p).is_ok() || !p.exists() {
                break;
            }
        }
    }
}

/// A temporary directory, removed unless renamed into place.
#[derive(Debug)]
pub struct TempDir {
    path: PathBuf,
    kept: bool,
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let mut reg = registry();
        reg.paths.retain(|p| p != &self.path);
        if !self.kept {
            let _ = fs::remove_dir_all(&self.path);
        }
    }
}

fn sibling(target: &Path, what: &str) -> PathBuf {
    let name = target
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    target.with_file_name(format!(".{name}.{what}-{}-{n}", std::process::id()))
}

fn parent_of(target: &Path) -> PathBuf {
    match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

impl TempDir {
    /// A new empty directory beside `target` (in the same folder, so the
    /// final rename stays on one file system).
    pub fn beside(target: &Path) -> Result<TempDir> {
        let parent = parent_of(target);
        if !parent.is_dir() {
            return Err(SiteError::io(
                &parent,
                std::io::Error::new(std::io::ErrorKind::NotFound, "no such directory"),
            ));
        }
        let path = parent.join(sibling(target, "tmp").file_name().expect("a file name"));
        let mut reg = registry();
        if reg.closed {
            return Err(interrupted(target));
        }
        fs::create_dir(&path).map_err(|e| SiteError::io(&path, e))?;
        reg.paths.push(path.clone());
        Ok(TempDir { path, kept: false })
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Renames the directory to `target`, replacing what is there (which
    /// [`check_replaceable`] must accept, with the same `marker`). Another
    /// process (or thread) replacing a directory in the same folder waits
    /// for this one to be in place, and this one for it.
    pub fn replace(mut self, target: &Path, marker: &str) -> Result<()> {
        sync_dir(&self.path);
        // Held until the renames are done (dropped at the end of the
        // function; the old directory's removal is ours alone).
        let parent = parent_of(target);
        let _lock = lock_folder(&parent);
        check_replaceable(target, marker)?;
        let old = {
            // An interrupt waits for both renames: the target is never
            // missing.
            let mut reg = registry();
            if reg.closed {
                return Err(interrupted(target));
            }
            let old = if target.exists() {
                let old =
                    parent_of(target).join(sibling(target, "old").file_name().expect("a name"));
                fs::rename(target, &old).map_err(|e| SiteError::io(target, e))?;
                Some(old)
            } else {
                None
            };
            if let Err(e) = fs::rename(&self.path, target) {
                if let Some(old) = &old {
                    let _ = fs::rename(old, target);
                }
                return Err(SiteError::io(target, e));
            }
            self.kept = true;
            reg.paths.retain(|p| p != &self.path);
            reg.paths.extend(old.clone());
            old
        };
        sync_dir(&parent_of(target));
        if let Some(old) = old {
            let removed = fs::remove_dir_all(&old).map_err(|e| SiteError::io(&old, e));
            registry().paths.retain(|p| p != &old);
            removed?;
        }
        Ok(())
    }
}

/// An exclusive lock on the folder `dir` (an advisory `flock` on the
/// folder itself, released when the returned file is dropped or the
/// process ends, however it ends). A folder that cannot be opened for
/// reading (`-wx` permissions), or a file system without locks, gives
/// none: the renames still run, unguarded against another writer.
fn lock_folder(dir: &Path) -> Option<fs::File> {
    let folder = fs::File::open(dir).ok()?;
    folder.lock_exclusive().ok()?;
    Some(folder)
}

fn sync_dir(dir: &Path) {
    if let Ok(f) = fs::File::open(dir) {
        let _ = f.sync_all();
    }
}

/// Refuses to replace `target` unless it does not exist, is an empty
/// directory, or is a directory holding `marker` (one this program wrote).
pub fn check_replaceable(target: &Path, marker: &str) -> Result<()> {
    let refuse = |why: &str| {
        Err(SiteError::io(
            target,
            std::io::Error::new(std::io::ErrorKind::AlreadyExists, why.to_string()),
        ))
    };
    match fs::symlink_metadata(target) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(SiteError::io(target, e)),
        Ok(m) if !m.is_dir() => refuse("exists and is not a directory"),
        Ok(_) => {
            let empty = fs::read_dir(target)
                .map_err(|e| SiteError::io(target, e))?
                .next()
                .is_none();
            if empty || target.join(marker).is_file() {
                Ok(())
            } else {
                refuse(&format!(
                    "exists and was not written by lexq (no {marker}); not replacing it"
                ))
            }
        }
    }
}

/// Creates the folders of `rel` inside `root`, which must exist (unlike
/// `create_dir_all`, this never makes a temporary directory removed by an
/// interrupt come back).
pub fn create_dirs_in(root: &Path, rel: &Path) -> Result<()> {
    let mut path = root.to_path_buf();
    for part in rel.components() {
        path.push(part);
        match fs::create_dir(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => {
                return Err(SiteError::io(&path, e));
            }
            _ => {}
        }
    }
    Ok(())
}

/// The bytes of the regular file at `path` (`what` names its kind in an
/// error), unless it is larger than [`lexq::files::MAX_INPUT_BYTES`]: a FIFO or a
/// device (`/dev/zero`) is refused unopened ([`lexq::files::read_file`]).
pub fn read_capped(path: &Path, what: &str) -> Result<Vec<u8>> {
    lexq::files::read_file(path, lexq::files::MAX_INPUT_BYTES, what).map_err(|e| match e {
        lexq::Error::Io { path, source } => SiteError::Io { path, source },
        other => other.into(),
    })
}

/// Writes a file inside a temporary directory.
pub fn write(path: &Path, bytes: &[u8]) -> Result<()> {
    fs::write(path, bytes).map_err(|e| SiteError::io(path, e))
}

/// The bytes of all files under `dir`.
pub fn dir_size(dir: &Path) -> Result<u64> {
    let mut total = 0;
    for entry in fs::read_dir(dir).map_err(|e| SiteError::io(dir, e))? {
        let entry = entry.map_err(|e| SiteError::io(dir, e))?;
        let meta = entry
            .metadata()
            .map_err(|e| SiteError::io(entry.path(), e))?;
        total += if meta.is_dir() {
            dir_size(&entry.path())?
        } else {
            meta.len()
        };
    }
    Ok(total)
}
