//! Queries answered from a field's term dictionary alone, each a set of
//! documents scored alike (as tantivy scores its term sets, ranges and
//! regular expressions):
//!
//! - [`TermUnion`]: the documents of some of a field's terms (a set of
//!   values, the terms beginning with a prefix, a range of terms, or all
//!   of them), read one term at a time into a bit set: nothing is built
//!   per term (no automaton, no term list), so a prefix of thousands of
//!   terms holds no more memory than one of two.
//! - [`HasTokens`]: the documents in which a field has a token, read from
//!   the field's norms (one byte a document) instead of every term's
//!   postings (`definition:*`).
//!
//! Both are metered: each term looked up costs [`TERM_READS`], each
//! posting or document read one read.

use std::ops::Bound;
use std::sync::Arc;

use tantivy::query::{
    BitSetDocSet, ConstScorer, EmptyScorer, EnableScoring, Explanation, Query, Scorer, Weight,
};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::termdict::{TermDictionary, TermStreamer};
use tantivy::{DocId, Score, SegmentReader, TantivyError};

use crate::cost::{Meter, TERM_READS, Tally};
use crate::metered::Metered;

/// Which terms of a field a [`TermUnion`] reads: the key bytes of its
/// dictionary (lowercase text for the site's text fields).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Terms {
    /// These terms (sorted, without duplicates).
    List(Vec<Vec<u8>>),
    /// The terms that begin with these bytes.
    Prefix(Vec<u8>),
    /// The terms between two bounds.
    Range(Bound<Vec<u8>>, Bound<Vec<u8>>),
    /// Every term of the field.
    All,
}

impl Terms {
    /// The bounds of the dictionary range the terms are in.
    fn bounds(&self) -> (Bound<Vec<u8>>, Bound<Vec<u8>>) {
        match self {
            Terms::Prefix(stem) => (
                Bound::Included(stem.clone()),
                prefix_end(stem).map_or(Bound::Unbounded, Bound::Excluded),
            ),
            Terms::Range(lower, upper) => (lower.clone(), upper.clone()),
            Terms::List(_) | Terms::All => (Bound::Unbounded, Bound::Unbounded),
        }
    }

    /// The terms of `dict` in the range of a [`Terms::Prefix`],
    /// [`Terms::Range`] or [`Terms::All`] (all of them for a
    /// [`Terms::List`], whose terms are looked up one by one instead).
    pub(crate) fn stream<'a>(&self, dict: &'a TermDictionary) -> std::io::Result<TermStreamer<'a>> {
        let (lower, upper) = self.bounds();
        let mut range = dict.range();
        range = match &lower {
            Bound::Included(b) => range.ge(b),
            Bound::Excluded(b) => range.gt(b),
            Bound::Unbounded => range,
        };
        range = match &upper {
            Bound::Included(b) => range.le(b),
            Bound::Excluded(b) => range.lt(b),
            Bound::Unbounded => range,
        };
        range.into_stream()
    }

    /// Calls `f` with the document frequency of each term of `dict` this
    /// stands for, in order, until it returns false.
    pub(crate) fn each_doc_freq(
        &self,
        dict: &TermDictionary,
        mut f: impl FnMut(u32) -> bool,
    ) -> std::io::Result<()> {
        if let Terms::List(terms) = self {
            for term in terms {
                let df = dict.get(term)?.map_or(0, |info| info.doc_freq);
                if !f(df) {
                    break;
                }
            }
            return Ok(());
        }
        let mut stream = self.stream(dict)?;
        while stream.advance() {
            if !f(stream.value().doc_freq) {
                break;
            }
        }
        Ok(())
    }
}

/// The first byte string after every string that begins with `prefix`
/// (`None` if there is none: `prefix` is empty or all 0xFF bytes).
fn prefix_end(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut end = prefix.to_vec();
    while let Some(last) = end.pop() {
        if last < u8::MAX {
            end.push(last + 1);
            return Some(end);
        }
    }
    None
}

/// The documents of some of a field's terms (see the module comment).
#[derive(Clone)]
pub(crate) struct TermUnion {
    field: Field,
    terms: Terms,
    meter: Arc<Meter>,
}

impl std::fmt::Debug for TermUnion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TermUnion({:?}, {:?})", self.field, self.terms)
    }
}

impl TermUnion {
    pub(crate) fn new(field: Field, terms: Terms, meter: &Arc<Meter>) -> TermUnion {
        TermUnion {
            field,
            terms,
            meter: meter.clone(),
        }
    }
}

impl Query for TermUnion {
    fn weight(&self, _: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(self.clone()))
    }
}

/// The reads of the postings of `info` into `docs`; false once the
/// search has halted.
fn read_docs(
    index: &tantivy::InvertedIndexReader,
    info: &tantivy::postings::TermInfo,
    docs: &mut tantivy::BitSet,
    tally: &mut Tally,
) -> tantivy::Result<bool> {
    if !tally.add(TERM_READS as u32) {
        return Ok(false);
    }
    let mut block = index.read_block_postings_from_terminfo(info, IndexRecordOption::Basic)?;
    loop {
        let ids = block.docs();
        if ids.is_empty() {
            return Ok(true);
        }
        for &doc in ids {
            docs.insert(doc);
        }
        if !tally.add(ids.len() as u32) {
            return Ok(false);
        }
        block.advance();
    }
}

impl Weight for TermUnion {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let index = reader.inverted_index(self.field)?;
        let dict = index.terms();
        let mut docs = tantivy::BitSet::with_max_value(reader.max_doc());
        let mut tally = Tally::new(self.meter.clone());
        let mut going = true;
        if let Terms::List(terms) = &self.terms {
            for term in terms {
                if let Some(info) = dict.get(term)? {
                    going = read_docs(&index, &info, &mut docs, &mut tally)?;
                } else {
                    going = tally.add(TERM_READS as u32);
                }
                if !going {
                    break;
                }
            }
        } else {
            let mut stream = self.terms.stream(dict)?;
            while going && stream.advance() {
                going = read_docs(&index, stream.value(), &mut docs, &mut tally)?;
            }
        }
        if !going {
            return Ok(Box::new(EmptyScorer));
        }
        let scorer = ConstScorer::new(BitSetDocSet::from(docs), boost);
        Ok(Box::new(Metered::new(scorer, self.meter.clone())))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        explain_const(self.scorer(reader, 1.0)?, doc, "TermUnion")
    }
}

/// The explanation of a document matched by a scorer of constant score.
fn explain_const(
    mut scorer: Box<dyn Scorer>,
    doc: DocId,
    what: &'static str,
) -> tantivy::Result<Explanation> {
    if scorer.seek(doc) == doc {
        Ok(Explanation::new(what, scorer.score()))
    } else {
        Err(TantivyError::InvalidArgument(format!(
            "document {doc} does not match"
        )))
    }
}

/// The documents in which a field that keeps norms has at least one
/// token: those whose norm is not zero (see the module comment).
#[derive(Clone)]
pub(crate) struct HasTokens {
    field: Field,
    meter: Arc<Meter>,
}

impl std::fmt::Debug for HasTokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HasTokens({:?})", self.field)
    }
}

impl HasTokens {
    pub(crate) fn new(field: Field, meter: &Arc<Meter>) -> HasTokens {
        HasTokens {
            field,
            meter: meter.clone(),
        }
    }
}

impl Query for HasTokens {
    fn weight(&self, _: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(self.clone()))
    }
}

impl Weight for HasTokens {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let Some(norms) = reader.fieldnorms_readers().get_field(self.field)? else {
            return Err(TantivyError::SchemaError(
                "the field keeps no norms".to_string(),
            ));
        };
        let max = reader.max_doc();
        let mut docs = tantivy::BitSet::with_max_value(max);
        let mut tally = Tally::new(self.meter.clone());
        for doc in 0..max {
            if norms.fieldnorm_id(doc) != 0 {
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
        explain_const(self.scorer(reader, 1.0)?, doc, "HasTokens")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prefix_ends_after_its_last_byte_that_can_grow() {
        assert_eq!(prefix_end(b"car"), Some(b"cas".to_vec()));
        assert_eq!(prefix_end(b"a\xff"), Some(b"b".to_vec()));
        assert_eq!(prefix_end(b"\xff\xff"), None);
        assert_eq!(prefix_end(b""), None);
    }
}
