//! [`ColumnMatch`]: the documents whose value in a number column is in
//! any of some ranges (`length:5`, `length:[3 TO 4]`, `length: IN [2
//! 3]`), or that have a value at all (`length:*`), found in one scan of
//! the column, however many ranges: each document scanned is one read.
//! Scored alike, as tantivy scores its ranges.

use std::ops::{Bound, RangeBounds};
use std::sync::Arc;

use tantivy::query::{
    BitSetDocSet, ConstScorer, EmptyScorer, EnableScoring, Explanation, Query, Scorer, Weight,
};
use tantivy::{DocId, Score, SegmentReader, TantivyError};

use crate::cost::{Meter, Tally};
use crate::metered::Metered;

/// See the module comment.
#[derive(Clone)]
pub(crate) struct ColumnMatch {
    field: String,
    /// The ranges a value may be in; empty: any value.
    ranges: Vec<(Bound<u64>, Bound<u64>)>,
    meter: Arc<Meter>,
}

impl std::fmt::Debug for ColumnMatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ColumnMatch({:?}, {:?})", self.field, self.ranges)
    }
}

impl ColumnMatch {
    /// The documents with a value of column `field` in one of `ranges`,
    /// or with any value if `ranges` is empty.
    pub(crate) fn new(
        field: &str,
        ranges: Vec<(Bound<u64>, Bound<u64>)>,
        meter: &Arc<Meter>,
    ) -> ColumnMatch {
        ColumnMatch {
            field: field.to_string(),
            ranges,
            meter: meter.clone(),
        }
    }

    fn matches(&self, value: u64) -> bool {
        self.ranges.is_empty() || self.ranges.iter().any(|r| r.contains(&value))
    }
}

impl Query for ColumnMatch {
    fn weight(&self, _: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(self.clone()))
    }
}

impl Weight for ColumnMatch {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let column = reader.fast_fields().u64(&self.field)?;
        let max = reader.max_doc();
        let mut docs = tantivy::BitSet::with_max_value(max);
        let mut tally = Tally::new(self.meter.clone());
        for doc in 0..max {
            if column.values_for_doc(doc).any(|v| self.matches(v)) {
                docs.insert(doc);
            }
            if !tally.add(1) {
                return Ok(Box::new(EmptyScorer));
            }
        }
        let scorer = ConstScorer::new(BitSetDocSet::from(docs), boost);
        Ok(Box::new(Metered::new(scorer, self.meter.clone())))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let column = reader.fast_fields().u64(&self.field)?;
        if column.values_for_doc(doc).any(|v| self.matches(v)) {
            Ok(Explanation::new("ColumnMatch", 1.0))
        } else {
            Err(TantivyError::InvalidArgument(format!(
                "document {doc} does not match"
            )))
        }
    }
}
