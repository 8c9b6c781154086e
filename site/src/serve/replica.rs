//! What of a site goes into the server's `ETag`s, so that replicas built
//! apart from the same inputs send the same `ETag` for the same answer.
//!
//! Two builds of a site from the same lexicon and definitions hold the
//! same documents in the same segments in the same order (see
//! `segments`), but not the same bytes: tantivy names each segment by a
//! random UUID (in `meta.json`, so in `site.json`'s CRC of it, and in the
//! file names), and `site.json` records how long the build took, how
//! many bytes the folder holds (`meta.json` included), and where its
//! inputs were. None of that is answered (`/api/v1/info` names the
//! inputs by file name only), so none of it goes into the `ETag`: a site
//! counts by its word list, its sources' file names, its build figures
//! other than the time and the folder's size, and the contents of its
//! segment files, each segment in the order `meta.json` lists them and
//! each file by its extension and its CRC-32C, never by its name.
//!
//! (Making the build itself reproducible would mean choosing tantivy's
//! segment ids, which its API does not allow, and dropping the build time
//! from `site.json`, a format change; the ETag is what replicas must
//! agree on, and this gives it.)

use std::hash::{Hash, Hasher};
use std::path::Path;

use tantivy::Directory;
use tantivy::index::SegmentComponent;

use crate::search::Site;

/// Feeds what of `site` its answers depend on into `h` (see the
/// module's notes). A segment file that cannot be read counts as absent:
/// the site was checked when it was opened, and a query reading it fails
/// on its own.
pub(crate) fn hash_site(site: &Site, h: &mut impl Hasher) {
    let mut meta = site.meta().clone();
    meta.summary.seconds = 0.0;
    // The folder's size counts `meta.json`, whose length varies between
    // builds (its segment ids and opstamps are tantivy's): 12,161 and
    // 12,164 bytes for the fixture built twice.
    meta.summary.bytes = 0;
    meta.index_meta_crc32c = 0;
    let name = |p: &str| {
        Path::new(p)
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
    };
    meta.lexicon = name(&meta.lexicon);
    meta.wordnet = meta.wordnet.as_deref().map(name);
    meta.definitions = meta.definitions.iter().map(|d| name(d)).collect();
    serde_json::to_string(&meta).unwrap_or_default().hash(h);
    let index = site.index();
    let dir = index.directory();
    for segment in index.searchable_segment_metas().unwrap_or_default() {
        (segment.max_doc(), segment.num_deleted_docs()).hash(h);
        let mut components = vec![
            SegmentComponent::Postings,
            SegmentComponent::Positions,
            SegmentComponent::FastFields,
            SegmentComponent::FieldNorms,
            SegmentComponent::Terms,
            SegmentComponent::Store,
        ];
        if segment.has_deletes() {
            components.push(SegmentComponent::Delete);
        }
        for component in components {
            let crc = dir
                .open_read(&segment.relative_path(component.clone()))
                .ok()
                .and_then(|f| f.read_bytes().ok())
                .map(|b| crc32c::crc32c(b.as_slice()));
            if let Some(crc) = crc {
                (component.to_string(), crc).hash(h);
            }
        }
    }
}
