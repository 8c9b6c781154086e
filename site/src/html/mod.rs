//! The site for people and search engines, as HTML rendered on the
//! server (readable with no JavaScript): word pages (`/word/{word}`),
//! the results page (`/search?q=`), browse pages by first letters and by
//! length, the sitemap and `robots.txt`. Each function here takes what
//! a page shows and returns the page; [`crate::serve`] routes requests
//! to them. Every string shown passes through [`escape`].

pub mod browse;
pub mod escape;
pub mod layout;
pub mod plain;
pub mod results;
pub mod sitemap;
pub mod word;

pub use layout::Frame;
