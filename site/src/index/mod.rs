//! Building a site: the index's schema, the documents and stored pages
//! written for each word, the segments, and `site.json`.

pub mod build;
pub(crate) mod document;
pub(crate) mod meta;
pub mod schema;
pub(crate) mod segments;
pub(crate) mod stored;
