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

pub mod build;
mod collect;
mod column;
pub mod cost;
mod document;
pub mod entry;
mod error;
pub mod export;
pub mod fingerprint;
pub mod frequency;
mod fsutil;
pub mod html;
mod meta;
mod metered;
pub mod morphy;
pub mod page;
mod phrase;
mod query;
pub mod schema;
pub mod search;
mod segments;
pub mod serve;
pub mod sources;
mod stored;
mod terms;
pub mod wordnet;

pub use cost::{QueryBounds, Stop};
pub use entry::Entry;
pub use error::{Result, SiteError};
pub use fsutil::remove_temp_dirs;
pub use page::Page;
pub use search::Site;
