//! Metered parts of a query: a doc set, scorer or postings list that
//! counts each step into its [`Tally`] and, once the search has halted
//! (stopped or over its bound), ends: every later step is
//! [`TERMINATED`], so whatever tantivy builds on top of it (an
//! intersection, a union, a phrase) ends too. And a query wrapper that
//! meters the scorers of a query tantivy builds.

use std::sync::Arc;

use tantivy::SeekDangerResult;
use tantivy::postings::Postings;
use tantivy::query::{EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, SegmentReader, TERMINATED, Term};

use crate::cost::{Meter, Tally};

/// `inner`, each step that moves it (an advance, or a seek past its
/// document) counted as one read, and each position read as one. A step
/// that moves it reads at least one posting or document, so a part
/// counts at most one read more than its postings or documents (the
/// step that finds its end).
pub(crate) struct Metered<T> {
    inner: T,
    tally: Tally,
    ended: bool,
}

impl<T: DocSet> Metered<T> {
    pub(crate) fn new(inner: T, meter: Arc<Meter>) -> Metered<T> {
        Metered {
            inner,
            tally: Tally::new(meter),
            ended: false,
        }
    }

    /// Counts one step; false (and ended) once the search has halted.
    #[inline]
    fn step(&mut self) -> bool {
        if self.tally.add(1) {
            true
        } else {
            self.ended = true;
            false
        }
    }
}

impl<T: DocSet> DocSet for Metered<T> {
    #[inline]
    fn advance(&mut self) -> DocId {
        if self.step() {
            self.inner.advance()
        } else {
            TERMINATED
        }
    }

    #[inline]
    fn seek(&mut self, target: DocId) -> DocId {
        let doc = self.doc();
        if doc >= target {
            doc
        } else if self.step() {
            self.inner.seek(target)
        } else {
            TERMINATED
        }
    }

    fn seek_danger(&mut self, target: DocId) -> SeekDangerResult {
        let doc = self.doc();
        if doc == target {
            SeekDangerResult::Found
        } else if doc > target {
            SeekDangerResult::SeekLowerBound(doc)
        } else if self.step() {
            self.inner.seek_danger(target)
        } else {
            SeekDangerResult::SeekLowerBound(TERMINATED)
        }
    }

    #[inline]
    fn doc(&self) -> DocId {
        if self.ended {
            TERMINATED
        } else {
            self.inner.doc()
        }
    }

    fn size_hint(&self) -> u32 {
        self.inner.size_hint()
    }

    fn cost(&self) -> u64 {
        self.inner.cost()
    }
}

impl<T: Scorer> Scorer for Metered<T> {
    #[inline]
    fn score(&mut self) -> Score {
        self.inner.score()
    }
}

impl<T: Postings> Postings for Metered<T> {
    fn term_freq(&self) -> u32 {
        self.inner.term_freq()
    }

    fn append_positions_with_offset(&mut self, offset: u32, output: &mut Vec<u32>) {
        if self.tally.add(self.inner.term_freq()) {
            self.inner.append_positions_with_offset(offset, output);
        } else {
            self.ended = true;
        }
    }
}

/// A query tantivy builds, its scorers metered.
pub(crate) struct MeteredQuery {
    inner: Box<dyn Query>,
    meter: Arc<Meter>,
}

impl MeteredQuery {
    pub(crate) fn new(inner: Box<dyn Query>, meter: &Arc<Meter>) -> MeteredQuery {
        MeteredQuery {
            inner,
            meter: meter.clone(),
        }
    }
}

impl Clone for MeteredQuery {
    fn clone(&self) -> MeteredQuery {
        MeteredQuery {
            inner: self.inner.box_clone(),
            meter: self.meter.clone(),
        }
    }
}

impl std::fmt::Debug for MeteredQuery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.inner.fmt(f)
    }
}

impl Query for MeteredQuery {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(MeteredWeight {
            inner: self.inner.weight(scoring)?,
            meter: self.meter.clone(),
        }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        self.inner.query_terms(visitor);
    }
}

struct MeteredWeight {
    inner: Box<dyn Weight>,
    meter: Arc<Meter>,
}

impl Weight for MeteredWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let scorer = self.inner.scorer(reader, boost)?;
        Ok(Box::new(Metered::new(scorer, self.meter.clone())))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        self.inner.explain(reader, doc)
    }
}
