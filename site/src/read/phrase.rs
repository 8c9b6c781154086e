//! Quoted phrases, exact or with a slop, and phrases whose last word is a
//! prefix (`"edge to"*`), matched exactly as tantivy documents a slop:
//! the words' positions may each be moved, the slop being the budget of
//! all the moves, a transposition costing 2.
//!
//! Each word's positions are *aligned* by its offset in the phrase (a
//! word at offset `i` found at position `p` is at `p - i`), so an exact
//! match is one aligned position shared by every word. With a slop, the
//! cost of choosing a position `a_i` for each word `i` is `|a_1 - a_0| +
//! |a_2 - a_1| + ...`, and a document matches if some choice costs at
//! most the slop. "edge tool" in "an edge tool": edge at 1, tool at 2 - 1
//! = 1, cost 0. In "a tool with an edge": edge at 4, tool at 1 - 1 = 0,
//! cost 4 (slop 4 finds it, slop 3 does not).
//!
//! The cheapest choice comes from one pass over the words, each word's
//! positions sorted, keeping for each position of word `i` the least cost
//! of a chain of words 0..=i ending there: from word `i - 1`'s costs
//! `c(x)`, word `i` at `y` costs `min over x of c(x) + |y - x|`, the
//! minimum to the left (`min c(x) - x, x <= y`, plus `y`) and to the
//! right (`min c(x) + x, x >= y`, minus `y`) found in one sweep each. A
//! chain dearer than the slop is dropped at once. This takes time and
//! memory in proportion to the words' positions in the document,
//! whatever the slop: tantivy's own scorer (which carries a slop per
//! position in a byte and can grow its lists past their inputs) grew to
//! gigabytes on a phrase of one word ten times with a slop of 1000.
//!
//! A word that is twice in a phrase with a slop could be matched by one
//! position for both ("a a"~1 would find every "a"): the query builder
//! refuses those. Without a slop, every aligned position is one position
//! per word, so repeated words are right.
//!
//! The score is tantivy's BM25 for a phrase, with the phrase's frequency
//! in the document being the number of positions of its last word that
//! end a chain within the slop.

use std::sync::Arc;

use tantivy::fieldnorm::FieldNormReader;
use tantivy::postings::{Postings, SegmentPostings};
use tantivy::query::{Bm25Weight, EmptyScorer, EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocId, DocSet, Score, SegmentReader, TERMINATED, TantivyError, Term};

use crate::cost::{Meter, TERM_READS, Tally};
use crate::metered::Metered;
use crate::terms::Terms;

/// One word of a phrase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Word {
    /// This term.
    Term(Term),
    /// Any term beginning with these bytes (the last word of `"edge
    /// to"*`).
    Prefix(Vec<u8>),
}

/// A phrase of words of one field with positions (see the module
/// comment).
#[derive(Clone)]
pub(crate) struct Phrase {
    field: Field,
    /// The words with their offsets in the phrase (offsets may skip a
    /// position where the tokenizer dropped a word).
    words: Vec<(u32, Word)>,
    slop: u32,
    meter: Arc<Meter>,
}

impl std::fmt::Debug for Phrase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Phrase({:?}, {:?}, ~{})",
            self.field, self.words, self.slop
        )
    }
}

impl Phrase {
    /// The phrase of `words` (at least one) of `field`, which must index
    /// positions.
    pub(crate) fn new(
        field: Field,
        words: Vec<(u32, Word)>,
        slop: u32,
        meter: &Arc<Meter>,
    ) -> Phrase {
        assert!(!words.is_empty(), "a phrase of no words");
        Phrase {
            field,
            words,
            slop,
            meter: meter.clone(),
        }
    }
}

impl Query for Phrase {
    fn weight(&self, scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        let terms: Vec<Term> = self
            .words
            .iter()
            .filter_map(|(_, w)| match w {
                Word::Term(t) => Some(t.clone()),
                Word::Prefix(_) => None,
            })
            .collect();
        let bm25 = match scoring {
            EnableScoring::Enabled {
                statistics_provider,
                ..
            } if !terms.is_empty() => Some(Bm25Weight::for_terms(statistics_provider, &terms)?),
            _ => None,
        };
        Ok(Box::new(PhraseWeight {
            phrase: self.clone(),
            bm25,
        }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        for (_, w) in &self.words {
            if let Word::Term(t) = w {
                visitor(t, true);
            }
        }
    }
}

struct PhraseWeight {
    phrase: Phrase,
    bm25: Option<Bm25Weight>,
}

impl PhraseWeight {
    fn phrase_scorer(
        &self,
        reader: &SegmentReader,
        boost: Score,
    ) -> tantivy::Result<Option<PhraseScorer>> {
        let p = &self.phrase;
        let index = reader.inverted_index(p.field)?;
        let mut tally = Tally::new(p.meter.clone());
        let last = p.words.iter().map(|w| w.0).max().unwrap_or(0);
        let mut slots = Vec::with_capacity(p.words.len());
        for (offset, word) in &p.words {
            let mut members = Vec::new();
            let mut open = |info: &tantivy::postings::TermInfo| -> tantivy::Result<bool> {
                let postings = index
                    .read_postings_from_terminfo(info, IndexRecordOption::WithFreqsAndPositions)?;
                members.push(Metered::new(postings, p.meter.clone()));
                Ok(tally.add(TERM_READS as u32))
            };
            let going = match word {
                Word::Term(term) => match index.get_term_info(term)? {
                    Some(info) => open(&info)?,
                    None => return Ok(None),
                },
                Word::Prefix(stem) => {
                    let mut stream = Terms::Prefix(stem.clone()).stream(index.terms())?;
                    let mut going = true;
                    while going && stream.advance() {
                        going = open(stream.value())?;
                    }
                    going
                }
            };
            if !going || members.is_empty() {
                return Ok(None);
            }
            slots.push(Slot::new(members, last - offset));
        }
        let norms = match reader.fieldnorms_readers().get_field(p.field)? {
            Some(norms) if self.bm25.is_some() => norms,
            _ => FieldNormReader::constant(reader.max_doc(), 1),
        };
        Ok(Some(PhraseScorer::new(
            slots,
            p.slop,
            self.bm25.as_ref().map(|w| w.boost_by(boost)),
            norms,
        )))
    }
}

impl Weight for PhraseWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        Ok(match self.phrase_scorer(reader, boost)? {
            Some(s) => Box::new(s),
            None => Box::new(EmptyScorer),
        })
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        if let Some(mut s) = self.phrase_scorer(reader, 1.0)?
            && s.seek(doc) == doc
        {
            return Ok(Explanation::new("Phrase", s.score()));
        }
        Err(TantivyError::InvalidArgument(format!(
            "document {doc} does not match"
        )))
    }
}

/// The postings of one word of a phrase: of its term, or of every term
/// its prefix begins (as many as the query's bound on terms lets it
/// have), with the shift that aligns its positions.
struct Slot {
    members: Vec<Metered<SegmentPostings>>,
    shift: u32,
    doc: DocId,
}

impl Slot {
    fn new(members: Vec<Metered<SegmentPostings>>, shift: u32) -> Slot {
        let doc = members.iter().map(|m| m.doc()).min().unwrap_or(TERMINATED);
        Slot {
            members,
            shift,
            doc,
        }
    }

    /// The first document at or after `target` that holds the word.
    fn seek(&mut self, target: DocId) -> DocId {
        if self.doc >= target {
            return self.doc;
        }
        let mut doc = TERMINATED;
        for m in &mut self.members {
            let d = if m.doc() < target {
                m.seek(target)
            } else {
                m.doc()
            };
            doc = doc.min(d);
        }
        self.doc = doc;
        doc
    }

    fn size_hint(&self) -> u32 {
        self.members
            .iter()
            .map(|m| m.size_hint())
            .fold(0, u32::saturating_add)
    }

    /// The word's aligned positions in the current document, sorted.
    fn positions(&mut self, out: &mut Vec<u32>) {
        out.clear();
        for m in &mut self.members {
            if m.doc() == self.doc {
                m.append_positions_with_offset(self.shift, out);
            }
        }
        if self.members.len() > 1 {
            out.sort_unstable();
        }
    }
}

/// The documents in which every word of a phrase is, in an order whose
/// cost is within the slop (see the module comment).
struct PhraseScorer {
    slots: Vec<Slot>,
    /// The slots, fewest documents first: the first leads the search for
    /// documents that hold every word.
    order: Vec<usize>,
    slop: u32,
    bm25: Option<Bm25Weight>,
    norms: FieldNormReader,
    doc: DocId,
    freq: u32,
    positions: Vec<u32>,
    /// The chains within the slop ending at each position of the word
    /// reached so far: (aligned position, least cost).
    chains: Vec<(u32, u32)>,
    next: Vec<(u32, u32)>,
}

impl PhraseScorer {
    fn new(
        slots: Vec<Slot>,
        slop: u32,
        bm25: Option<Bm25Weight>,
        norms: FieldNormReader,
    ) -> PhraseScorer {
        let mut order: Vec<usize> = (0..slots.len()).collect();
        order.sort_by_key(|&i| slots[i].size_hint());
        let mut s = PhraseScorer {
            slots,
            order,
            slop,
            bm25,
            norms,
            doc: 0,
            freq: 0,
            positions: Vec::new(),
            chains: Vec::new(),
            next: Vec::new(),
        };
        s.find(0);
        s
    }

    /// Moves to the first matching document at or after `target`.
    fn find(&mut self, mut target: DocId) -> DocId {
        loop {
            let lead = self.order[0];
            let mut doc = self.slots[lead].seek(target);
            let mut i = 1;
            while i < self.order.len() && doc != TERMINATED {
                let d = self.slots[self.order[i]].seek(doc);
                if d > doc {
                    doc = self.slots[lead].seek(d);
                    i = 1;
                } else {
                    i += 1;
                }
            }
            if doc == TERMINATED {
                self.doc = TERMINATED;
                return TERMINATED;
            }
            let freq = self.frequency();
            if freq > 0 {
                self.doc = doc;
                self.freq = freq;
                return doc;
            }
            target = doc + 1;
        }
    }

    /// How many positions of the last word end a chain of every word
    /// within the slop, in the document every slot is on.
    fn frequency(&mut self) -> u32 {
        let slop = i64::from(self.slop);
        self.slots[0].positions(&mut self.positions);
        self.chains.clear();
        self.chains.extend(self.positions.iter().map(|&p| (p, 0)));
        for slot in &mut self.slots[1..] {
            slot.positions(&mut self.positions);
            self.next.clear();
            // From the left: the least c(x) - x over x <= y, plus y.
            let mut best = i64::MAX;
            let mut j = 0;
            for &y in &self.positions {
                while j < self.chains.len() && self.chains[j].0 <= y {
                    let (x, c) = self.chains[j];
                    best = best.min(i64::from(c) - i64::from(x));
                    j += 1;
                }
                let cost = best.saturating_add(i64::from(y));
                self.next.push((y, cost.min(slop + 1) as u32));
            }
            // From the right: the least c(x) + x over x >= y, minus y.
            let mut best = i64::MAX;
            let mut j = self.chains.len();
            for entry in self.next.iter_mut().rev() {
                let y = entry.0;
                while j > 0 && self.chains[j - 1].0 >= y {
                    let (x, c) = self.chains[j - 1];
                    best = best.min(i64::from(c) + i64::from(x));
                    j -= 1;
                }
                let cost = best.saturating_sub(i64::from(y)).min(slop + 1);
                entry.1 = entry.1.min(cost as u32);
            }
            self.next.retain(|&(_, c)| i64::from(c) <= slop);
            if self.next.is_empty() {
                return 0;
            }
            std::mem::swap(&mut self.chains, &mut self.next);
        }
        self.chains.len() as u32
    }
}

impl DocSet for PhraseScorer {
    fn advance(&mut self) -> DocId {
        if self.doc == TERMINATED {
            return TERMINATED;
        }
        self.find(self.doc + 1)
    }

    fn seek(&mut self, target: DocId) -> DocId {
        if self.doc >= target {
            return self.doc;
        }
        self.find(target)
    }

    fn doc(&self) -> DocId {
        self.doc
    }

    fn size_hint(&self) -> u32 {
        self.slots[self.order[0]].size_hint()
    }
}

impl Scorer for PhraseScorer {
    fn score(&mut self) -> Score {
        match &self.bm25 {
            Some(w) => w.score(self.norms.fieldnorm_id(self.doc), self.freq),
            None => 1.0,
        }
    }
}
