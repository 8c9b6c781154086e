//! lexq for dictionary and word-game sites.
//!
//! - [`build::build`] turns a lexicon plus definitions (WordNet read from
//!   its database directory, with inflections mapped to base forms by
//!   [`morphy`], and TSV or JSON Lines files of one's own) into a tantivy
//!   index with one document per word: `lexq site build`.
//! - [`Site`] opens such an index: word pages (a [`Page`] read in place,
//!   or an owned [`Entry`]) and definition searches (`lexq site search`); [`export::export`] writes the site as
//!   static files that any static server or CDN serves (`lexq site export`).
//! - [`serve`] serves a JSON API and a search page over a lexicon and,
//!   optionally, a site (`lexq serve`).
//!
//! ```no_run
//! use lexq_site::{Site, build::{BuildOptions, build}};
//! let lex = lexq::Lexicon::embedded();
//! let opts = BuildOptions { wordnet: Some("target/wordnet".into()), ..Default::default() };
//! build(&lex, None, &opts, "mysite".as_ref(), &mut ())?;
//! let site = Site::open("mysite".as_ref())?;
//! let geese = site.entry("geese")?.unwrap();
//! assert_eq!(geese.base_forms, ["GOOSE"]);
//! # Ok::<(), lexq_site::SiteError>(())
//! ```
//!
//! Definitions drawn from WordNet keep WordNet's licence notice: a site
//! directory and an export hold it as `WORDNET-LICENSE.txt`, and the
//! server links to it.

#![warn(missing_docs)]

// The layers, bottom up (each imports only from those below it; checked
// by the workspace's tests/layers.rs): the leaves (errors, file plumbing,
// the word list's fingerprint); where definitions come from; building the
// index; reading and searching it; pages and exports; serving. Each
// module is also named here at the root, where the crate's paths have
// always found it (`lexq_site::build`, `crate::search`).
mod error;
pub mod fingerprint;
mod fsutil;

pub mod source;

pub mod index;

pub mod read;

pub mod export;
pub mod html;

pub mod serve;

pub use index::{build, schema};
use index::{document, meta, segments, stored};
use read::{collect, column, metered, phrase, query, terms};
pub use read::{cost, page, search};
pub use source::{entry, frequency, morphy, sources, wordnet};

pub use cost::{QueryBounds, Stop};
pub use entry::Entry;
pub use error::{Result, SiteError};
pub use fsutil::remove_temp_dirs;
pub use page::Page;
pub use search::Site;
