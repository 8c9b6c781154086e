//! Building one index in several segments at once, one per thread, each
//! holding a contiguous run of the documents, listed in that order.
//!
//! tantivy's own multi-threaded writer hands documents to whichever thread
//! is free and lists segments in no set order, so documents that tie in a
//! search would come out in a different order from one build to the next.
//! Here each thread writes its own run into a segment of its own with
//! tantivy's [`SegmentWriter`] (in the calling thread, with no channel),
//! and [`write_meta`] lists the finished segments in the order of their
//! runs.

use std::path::Path;

use tantivy::indexer::{AddOperation, SegmentWriter};
use tantivy::schema::document::Document;
use tantivy::{Directory, Index, IndexMeta, Segment, SegmentMeta};

/// A writer of one new segment of an index, on the calling thread.
pub(crate) struct RunWriter {
    writer: SegmentWriter,
    segment: Segment,
}

impl RunWriter {
    /// A new segment of `index`, buffered in up to `budget` bytes.
    pub(crate) fn new(index: &Index, budget: usize) -> tantivy::Result<RunWriter> {
        let segment = index.new_segment();
        Ok(RunWriter {
            writer: SegmentWriter::for_segment(budget, segment.clone())?,
            segment,
        })
    }

    /// Adds the next document.
    pub(crate) fn add(&mut self, doc: impl Document) -> tantivy::Result<()> {
        let opstamp = u64::from(self.writer.max_doc());
        self.writer.add_document(AddOperation {
            opstamp,
            document: doc,
        })
    }

    /// Writes the segment's files; its meta, to list in [`write_meta`].
    pub(crate) fn finish(self) -> tantivy::Result<SegmentMeta> {
        let max_doc = self.writer.max_doc();
        self.writer.finalize()?;
        Ok(self.segment.with_max_doc(max_doc).meta().clone())
    }
}

/// Writes `index`'s `meta.json` listing `segments` in that order, and
/// syncs the directory: the index is then complete.
pub(crate) fn write_meta(index: &Index, segments: Vec<SegmentMeta>) -> tantivy::Result<()> {
    let meta = IndexMeta {
        index_settings: index.settings().clone(),
        persisted_custom_extensions: Vec::new(),
        segments,
        schema: index.schema(),
        opstamp: 0,
        payload: None,
    };
    let mut bytes = serde_json::to_vec_pretty(&meta)?;
    bytes.push(b'\n');
    let dir = index.directory();
    dir.atomic_write(Path::new("meta.json"), &bytes)?;
    dir.sync_directory()?;
    Ok(())
}
