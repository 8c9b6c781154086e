//! [`Stopping`]: a collector that drives the query's scorer itself,
//! document by document, counting each document as one read and ending
//! the search with an error as soon as its [`Meter`] has halted (the
//! search's [`Stop`](crate::Stop) said so, or it read past its bound).
//! tantivy's own loop cannot be left early; this one can, so a query
//! past its deadline frees its thread instead of running to its end.

use std::sync::Arc;

use tantivy::collector::{Collector, SegmentCollector};
use tantivy::query::Weight;
use tantivy::{DocSet, SegmentOrdinal, SegmentReader, TERMINATED, TantivyError};

use crate::cost::{Meter, Tally};

/// `inner`, run under `meter` (see the module comment).
pub(crate) struct Stopping<C> {
    inner: C,
    meter: Arc<Meter>,
}

impl<C> Stopping<C> {
    pub(crate) fn new(inner: C, meter: &Arc<Meter>) -> Stopping<C> {
        Stopping {
            inner,
            meter: meter.clone(),
        }
    }
}

/// The error a halted search ends with (the caller asks the meter why).
fn halted() -> TantivyError {
    TantivyError::InternalError("the search was halted".into())
}

impl<C: Collector> Collector for Stopping<C> {
    type Fruit = C::Fruit;
    type Child = C::Child;

    fn check_schema(&self, schema: &tantivy::schema::Schema) -> tantivy::Result<()> {
        self.inner.check_schema(schema)
    }

    fn for_segment(
        &self,
        segment: SegmentOrdinal,
        reader: &SegmentReader,
    ) -> tantivy::Result<C::Child> {
        self.inner.for_segment(segment, reader)
    }

    fn requires_scoring(&self) -> bool {
        self.inner.requires_scoring()
    }

    fn merge_fruits(
        &self,
        fruits: Vec<<C::Child as SegmentCollector>::Fruit>,
    ) -> tantivy::Result<C::Fruit> {
        self.inner.merge_fruits(fruits)
    }

    fn collect_segment(
        &self,
        weight: &dyn Weight,
        segment: SegmentOrdinal,
        reader: &SegmentReader,
    ) -> tantivy::Result<<C::Child as SegmentCollector>::Fruit> {
        if self.meter.halted().is_some() {
            return Err(halted());
        }
        let mut child = self.inner.for_segment(segment, reader)?;
        let scoring = self.inner.requires_scoring();
        let alive = reader.alive_bitset();
        let mut tally = Tally::new(self.meter.clone());
        let mut scorer = weight.scorer(reader, 1.0)?;
        let mut doc = scorer.doc();
        while doc != TERMINATED {
            if alive.is_none_or(|a| a.is_alive(doc)) {
                let score = if scoring { scorer.score() } else { 0.0 };
                child.collect(doc, score);
            }
            if !tally.add(1) {
                break;
            }
            doc = scorer.advance();
        }
        drop(scorer);
        tally.flush();
        if self.meter.halted().is_some() {
            return Err(halted());
        }
        Ok(child.harvest())
    }
}
