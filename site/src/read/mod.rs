//! Reading a site: opening it, word pages, and searches built, costed,
//! metered and run.

pub(crate) mod collect;
pub(crate) mod column;
pub mod cost;
pub(crate) mod metered;
pub mod page;
pub(crate) mod phrase;
pub(crate) mod query;
pub mod search;
pub(crate) mod terms;
