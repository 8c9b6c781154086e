//! Building one index in several segments at once, one per thread, each
//! holding a contiguous run of the documents, listed in that order.
//!
//! tantivy's own multi-threaded writer hands documents to whichever thread
//! is free and lists segments in no set order, so documents that tie in a
//! search would come out in a different order from one build to the next.
//! Here each thread indexes its own run with a [`SingleSegmentIndexWriter`]
//! (in the calling thread, with no channel), and `meta.json` is written at
//! the end with the segments in the order of their runs. The directory
//! notes the `meta.json` each writer saves (which lists only its segment)
//! to learn each thread's segment.

use std::io;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::thread::ThreadId;

use tantivy::directory::error::{DeleteError, OpenDirectoryError, OpenReadError, OpenWriteError};
use tantivy::directory::{FileHandle, MmapDirectory, WatchCallback, WatchHandle, WritePtr};
use tantivy::{Directory, Index, SingleSegmentIndexWriter, TantivyDocument};

const META: &str = "meta.json";

/// The `meta.json` files written, with the thread that wrote each.
type Notes = Vec<(ThreadId, Vec<u8>)>;

/// An mmap directory that notes every `meta.json` written, by thread.
#[derive(Clone, Debug)]
pub(crate) struct MetaNotes {
    inner: MmapDirectory,
    notes: Arc<Mutex<Notes>>,
}

impl MetaNotes {
    pub(crate) fn open(dir: &Path) -> Result<MetaNotes, OpenDirectoryError> {
        Ok(MetaNotes {
            inner: MmapDirectory::open(dir)?,
            notes: Default::default(),
        })
    }

    /// The segments (as `meta.json` lists them) the writers on threads
    /// `order` saved, in that order, written as the index's `meta.json`.
    pub(crate) fn write_meta(&self, index: &Index, order: &[ThreadId]) -> io::Result<()> {
        let bad = |what: &str| io::Error::other(format!("index meta: {what}"));
        let notes = self.notes.lock().map_err(|_| bad("poisoned"))?.clone();
        let mut meta: Option<serde_json::Value> = None;
        let mut segments = Vec::new();
        for id in order {
            let (_, bytes) = notes
                .iter()
                .rev()
                .find(|(t, _)| t == id)
                .ok_or_else(|| bad("a writer saved none"))?;
            let mut m: serde_json::Value =
                serde_json::from_slice(bytes).map_err(|e| bad(&e.to_string()))?;
            match m.get_mut("segments").map(serde_json::Value::take) {
                Some(serde_json::Value::Array(s)) => segments.extend(s),
                _ => return Err(bad("no segments")),
            }
            meta.get_or_insert(m);
        }
        let mut meta = meta.ok_or_else(|| bad("no writer"))?;
        meta["segments"] = serde_json::Value::Array(segments);
        let mut bytes = serde_json::to_vec_pretty(&meta).map_err(|e| bad(&e.to_string()))?;
        bytes.push(b'\n');
        index.directory().atomic_write(Path::new(META), &bytes)?;
        index.directory().sync_directory()
    }
}

impl Directory for MetaNotes {
    fn get_file_handle(&self, path: &Path) -> Result<Arc<dyn FileHandle>, OpenReadError> {
        self.inner.get_file_handle(path)
    }
    fn delete(&self, path: &Path) -> Result<(), DeleteError> {
        self.inner.delete(path)
    }
    fn exists(&self, path: &Path) -> Result<bool, OpenReadError> {
        self.inner.exists(path)
    }
    fn open_write(&self, path: &Path) -> Result<WritePtr, OpenWriteError> {
        self.inner.open_write(path)
    }
    fn atomic_read(&self, path: &Path) -> Result<Vec<u8>, OpenReadError> {
        self.inner.atomic_read(path)
    }
    fn atomic_write(&self, path: &Path, data: &[u8]) -> io::Result<()> {
        if path == Path::new(META) {
            self.notes
                .lock()
                .map_err(|_| io::Error::other("poisoned"))?
                .push((std::thread::current().id(), data.to_vec()));
        }
        self.inner.atomic_write(path, data)
    }
    fn sync_directory(&self) -> io::Result<()> {
        self.inner.sync_directory()
    }
    fn watch(&self, watch_callback: WatchCallback) -> tantivy::Result<WatchHandle> {
        self.inner.watch(watch_callback)
    }
}

/// A writer of one segment, on the calling thread.
pub(crate) type SegmentWriter = SingleSegmentIndexWriter<TantivyDocument>;
