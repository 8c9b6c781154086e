//! The command line's record of the lexicon files whose arc table passed
//! its CRC, by file identity, so that a query on the same unchanged file
//! again need not read the whole table: on a 214 MB lexicon, most of a
//! one-word query's time. The library keeps no such record
//! ([`lexq::Lexicon::open`] reads the file and nothing else); this is the
//! CLI's choice, on by default and turned off by `LEXQ_CACHE_DIR=`.
//!
//! A file's identity is its device, inode, size, modification time and
//! status-change time (nanoseconds): writing into a file in place,
//! truncating it, or renaming another file over it changes one of them
//! (the status-change time cannot be set back by anyone). An entry is
//! trusted for a day after the check, then the file is checked again:
//! damage that no write made (a failing disk) is found within a day. The
//! identity is read before and after the file is mapped; a file that
//! changed between the two is checked whatever the record says.
//!
//! The record is a small text file, `verified`, in the cache directory:
//! `$LEXQ_CACHE_DIR` if set (set but empty: no record is kept or read),
//! else `$XDG_CACHE_HOME/lexq`, else `~/.cache/lexq`. It holds at most
//! [`MAX_ENTRIES`] entries, the most recent first, and a CRC of them on
//! its last line. A missing, unreadable or damaged record is taken as
//! empty; one that cannot be written (a read-only directory, a full disk)
//! is left as it was. It is replaced by renaming a complete new file over
//! it, so a reader never sees half of one. Unix only: elsewhere every open
//! checks the CRC.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use lexq::{Checks, Lexicon, OpenOptions};

/// The most files the record remembers.
pub const MAX_ENTRIES: usize = 64;

/// How long a check is trusted, in seconds.
const TRUSTED_FOR: u64 = 24 * 60 * 60;

/// The record's first line.
const MAGIC: &str = "lexq verified 2";

/// A file's identity (see the [module](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Identity {
    fields: [u64; 7],
}

impl Identity {
    /// The identity of a file from its metadata; `None` where the
    /// platform gives no inode.
    pub fn of(meta: &std::fs::Metadata) -> Option<Identity> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Some(Identity {
                fields: [
                    meta.dev(),
                    meta.ino(),
                    meta.size(),
                    meta.mtime() as u64,
                    meta.mtime_nsec() as u64,
                    meta.ctime() as u64,
                    meta.ctime_nsec() as u64,
                ],
            })
        }
        #[cfg(not(unix))]
        {
            let _ = meta;
            None
        }
    }
}

/// Opens the lexicon file at `path` for one command: memory-mapped, with
/// its header checked, and its arc table's CRC unless the record says
/// this unchanged file passed it within the day (then it is remembered
/// again). A file that changed while it was being opened is checked.
pub fn open(path: &Path) -> lexq::Result<Lexicon> {
    open_with(path, default_dir())
}

/// [`open`] with the record in `dir` (none: the CRC is checked).
fn open_with(path: &Path, dir: Option<PathBuf>) -> lexq::Result<Lexicon> {
    let identity = || std::fs::metadata(path).ok().as_ref().and_then(Identity::of);
    let before = dir.as_ref().and(identity());
    let trusted = dir
        .as_deref()
        .zip(before.as_ref())
        .is_some_and(|(dir, id)| is_verified(dir, id));
    let checks = if trusted { Checks::Header } else { Checks::Crc };
    // SAFETY: a `lexq` command is one short process; lexq writes every
    // lexicon by renaming a complete file over the old (the README tells
    // users to do the same), and a file truncated under it in spite of
    // that ends this one command with SIGBUS, never a wrong answer
    // written on.
    let lex = unsafe { OpenOptions::new().checks(checks).map(path)? };
    let after = dir.as_ref().and(identity());
    if before != after {
        if trusted {
            // Changed while opened: the record no longer speaks for it.
            lex.check_arcs()?;
        }
    } else if let (false, Some(dir), Some(id), None) =
        (trusted, dir.as_deref(), after, lex.upgraded_from())
    {
        remember(dir, &id);
    }
    Ok(lex)
}

/// The directory of the record, if one is kept (see the [module](self)).
pub fn default_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("LEXQ_CACHE_DIR") {
        return (!dir.is_empty()).then(|| PathBuf::from(dir));
    }
    if let Some(dir) = std::env::var_os("XDG_CACHE_HOME").filter(|d| !d.is_empty()) {
        let dir = PathBuf::from(dir);
        if dir.is_absolute() {
            return Some(dir.join("lexq"));
        }
    }
    let home = PathBuf::from(std::env::var_os("HOME").filter(|h| !h.is_empty())?);
    home.is_absolute().then(|| home.join(".cache").join("lexq"))
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// One entry: an identity and when it was checked (seconds since 1970).
type Entry = (Identity, u64);

/// The longest record read, in bytes: far more than [`MAX_ENTRIES`] lines.
const MAX_RECORD_BYTES: u64 = 64 * (MAX_ENTRIES as u64 + 2) * 4;

/// The entries of the record in `dir`, most recent first; none if it is
/// missing, not a regular file (a FIFO would never end), too long or
/// damaged in any way.
fn read(dir: &Path) -> Vec<Entry> {
    let path = dir.join("verified");
    let Ok(text) = lexq::files::read_file(&path, MAX_RECORD_BYTES, "a record") else {
        return Vec::new();
    };
    parse(&text).unwrap_or_default()
}

fn parse(text: &[u8]) -> Option<Vec<Entry>> {
    if text.len() as u64 > MAX_RECORD_BYTES {
        return None;
    }
    let text = std::str::from_utf8(text).ok()?;
    let body_end = text.trim_end_matches('\n').rfind('\n')? + 1;
    let (body, last) = text.split_at(body_end);
    let crc = u32::from_str_radix(last.trim_end().strip_prefix("crc ")?, 16).ok()?;
    if crc32c::crc32c(body.as_bytes()) != crc {
        return None;
    }
    let mut lines = body.lines();
    if lines.next()? != MAGIC {
        return None;
    }
    let mut entries = Vec::new();
    for line in lines {
        let mut nums = line.split(' ').map(|n| n.parse::<u64>().ok());
        let mut fields = [0u64; 7];
        for f in &mut fields {
            *f = nums.next()??;
        }
        let at = nums.next()??;
        if nums.next().is_some() || entries.len() == MAX_ENTRIES {
            return None;
        }
        entries.push((Identity { fields }, at));
    }
    Some(entries)
}

fn render(entries: &[Entry]) -> String {
    let mut text = format!("{MAGIC}\n");
    for (id, at) in entries {
        for f in id.fields {
            text.push_str(&f.to_string());
            text.push(' ');
        }
        text.push_str(&at.to_string());
        text.push('\n');
    }
    let crc = crc32c::crc32c(text.as_bytes());
    text.push_str(&format!("crc {crc:08x}\n"));
    text
}

/// Whether the record in `dir` says the file of identity `id` passed its
/// check less than a day ago.
pub fn is_verified(dir: &Path, id: &Identity) -> bool {
    let now = now();
    read(dir)
        .iter()
        .any(|(e, at)| e == id && *at <= now && now - at < TRUSTED_FOR)
}

/// Records in `dir` that the file of identity `id` passed its check now
/// (best effort: any failure leaves the record as it was).
pub fn remember(dir: &Path, id: &Identity) {
    let mut entries = read(dir);
    entries.retain(|(e, _)| e != id);
    entries.insert(0, (*id, now()));
    entries.truncate(MAX_ENTRIES);
    let _ = write(dir, render(&entries).as_bytes());
}

/// Replaces the record with `bytes`: a new file renamed over it (no
/// fsync: a record lost in a crash only costs a check).
fn write(dir: &Path, bytes: &[u8]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let temp = dir.join(format!(".verified.{}.tmp", std::process::id()));
    let result =
        std::fs::write(&temp, bytes).and_then(|()| std::fs::rename(&temp, dir.join("verified")));
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn id(n: u64) -> Identity {
        Identity {
            fields: [n, 2, 3, 4, 5, 6, 7],
        }
    }

    #[test]
    fn remembers_most_recent_first_and_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path().join("sub/lexq");
        assert!(!is_verified(&dir, &id(1)));
        for n in 0..MAX_ENTRIES as u64 + 5 {
            remember(&dir, &id(n));
        }
        let entries = read(&dir);
        assert_eq!(entries.len(), MAX_ENTRIES);
        assert_eq!(entries[0].0, id(MAX_ENTRIES as u64 + 4));
        assert!(is_verified(&dir, &id(MAX_ENTRIES as u64 + 4)));
        assert!(!is_verified(&dir, &id(0)), "the oldest are dropped");
        let mut other = id(7);
        other.fields[6] = 9;
        assert!(
            !is_verified(&dir, &other),
            "another change time is another file"
        );
    }

    #[test]
    fn damaged_or_stale_records_are_empty() {
        let dir = tempfile::tempdir().unwrap();
        remember(dir.path(), &id(1));
        let path = dir.path().join("verified");
        let good = std::fs::read(&path).unwrap();
        for at in 0..good.len() {
            let mut bad = good.clone();
            bad[at] ^= 0x04;
            std::fs::write(&path, &bad).unwrap();
            assert!(!is_verified(dir.path(), &id(1)), "byte {at}");
        }
        std::fs::write(&path, &good[..good.len() - 3]).unwrap();
        assert!(!is_verified(dir.path(), &id(1)));
        // Checked more than a day ago (or in the future): checked again.
        for at in [now() - TRUSTED_FOR, now() + 100] {
            std::fs::write(&path, render(&[(id(1), at)])).unwrap();
            assert!(!is_verified(dir.path(), &id(1)));
        }
        std::fs::write(&path, render(&[(id(1), now() - 5)])).unwrap();
        assert!(is_verified(dir.path(), &id(1)));
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_for_a_record_is_no_record() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("verified");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            return; // no mkfifo here: nothing to check
        }
        // Read on a thread: a blocking open would hang the test, not fail it.
        let (tx, rx) = std::sync::mpsc::channel();
        let path = dir.path().to_path_buf();
        std::thread::spawn(move || {
            let _ = tx.send(read(&path).len());
        });
        let got = rx.recv_timeout(std::time::Duration::from_secs(10));
        assert_eq!(got, Ok(0), "reading a FIFO record blocked or found entries");
    }

    #[test]
    fn unwritable_directory_is_no_error() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("plain");
        std::fs::write(&file, "x").unwrap();
        // A file where the directory should be: nothing can be written.
        remember(&file, &id(1));
        assert!(!is_verified(&file, &id(1)));
        assert_eq!(std::fs::read(&file).unwrap(), b"x");
    }

    /// A file opened once is remembered as checked; written into in place
    /// afterwards, it is checked again at the next open, and its damage
    /// found; without a record, or with a damaged one, it is checked too.
    #[test]
    fn a_file_changed_after_its_check_is_checked_again() {
        use std::io::{Seek, SeekFrom, Write};
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("cache");
        let path = dir.path().join("w.lexq");
        let mut list = lexq::WordList::new(lexq::Alphabet::english());
        list.read_bytes(Path::new("w"), b"cat\ncats\ndog\n")
            .unwrap();
        lexq::build_file(&list, &path, &mut ()).unwrap();
        let good = std::fs::read(&path).unwrap();
        let lex = open_with(&path, Some(cache.clone())).unwrap();
        assert!(lex.is_word("cats").unwrap());
        drop(lex);
        let id = |path: &Path| Identity::of(&std::fs::metadata(path).unwrap()).unwrap();
        assert!(is_verified(&cache, &id(&path)), "remembered");
        // The same size, one bit of the arc table's last byte flipped, in
        // place (the file ends with the arc table).
        let mut bytes = good.clone();
        let last = bytes.len() - 1;
        bytes[last] ^= 0x10;
        let mut file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        file.seek(SeekFrom::Start(0)).unwrap();
        file.write_all(&bytes).unwrap();
        drop(file);
        assert!(!is_verified(&cache, &id(&path)));
        let err = open_with(&path, Some(cache.clone())).unwrap_err();
        assert!(err.to_string().contains("checksum"), "{err}");
        // Without a record, the damage is found as before.
        assert!(open_with(&path, None).is_err());
        // A damaged record is no record: the file is checked.
        std::fs::write(cache.join("verified"), "lexq verified 2\nnonsense\n").unwrap();
        assert!(open_with(&path, Some(cache.clone())).is_err());
        // A trusted file is not checked again: the record is what saves
        // the CRC (remember the damaged file's identity by hand).
        remember(&cache, &id(&path));
        assert!(open_with(&path, Some(cache)).is_ok());
    }
}
