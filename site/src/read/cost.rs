//! What one search may cost: [`QueryBounds`], checked before a query
//! runs against what its terms' document frequencies say it will read,
//! and the meter that counts what it reads while it runs and ends it at
//! its [`Stop`] (a deadline or a cancel flag) or past its bound.
//!
//! The unit of cost is one *read*: a posting (one document of a term's
//! list), a position of a phrase's word in a document, a document that a
//! column range, `*` or a field wildcard scans, or a document handed to
//! the collector. Looking a term up in a dictionary costs 40 reads
//! (`TERM_READS`). A query's estimate adds up the reads of its parts as
//! if none of them skipped anything (a step is counted only when it
//! moves a part on, so a part counts at most its postings or documents
//! and one more), so it is never below what the query reads. A phrase's
//! positions are not in the dictionary: the estimate counts them by
//! reading its words' postings once (their frequencies), which it counts
//! as reads too.
//!
//! What a query holds in memory is bounded by its shape, not by what it
//! matches: a phrase holds the positions of its words in one document at
//! a time (at most `max_terms` words, each at most the document's
//! length); a prefix, range, set or field wildcard one bit per document
//! of the segment searched, its terms streamed from the dictionary one at
//! a time (no list of them, no automaton: no regular expression is
//! compiled); the collector the `limit + offset` best results, never more
//! than the site has documents.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;

/// What a term looked up in a dictionary costs, in reads: a dictionary
/// search and its postings opened (on ENABLE, a few hundred nanoseconds,
/// where a posting read takes a few).
pub(crate) const TERM_READS: u64 = 40;

/// Bounds on what one search query may cost, checked before it runs:
/// a query over any of them is refused with the reason
/// ([`SiteError::BadQuery`](crate::SiteError::BadQuery)). The meter then
/// holds a running query to `max_reads`.
///
/// The defaults keep the heaviest query they accept on the ENABLE +
/// WordNet site to tens of milliseconds and a few megabytes (the
/// README's benchmark section has the figures).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct QueryBounds {
    /// The most reads a query may make: postings, positions of a
    /// phrase's words, documents scanned or collected (see the module
    /// documentation of `cost`), summed over the whole query.
    pub max_reads: u64,
    /// The most terms a query may look up: every word of every field it
    /// searches (a word without a field searches two), every value of a
    /// set, every word a quoted phrase's prefix stands for.
    pub max_terms: usize,
    /// The most clauses (words, phrases, ranges, groups...) a query may
    /// hold, at any depth.
    pub max_clauses: usize,
    /// The deepest a query's groups may nest (`(a (b c))` is 2).
    pub max_depth: usize,
    /// The largest slop of a quoted phrase (`"edge tool"~2`; at most
    /// [`crate::schema::MAX_SLOP`] whatever this says).
    pub max_slop: u32,
}

impl Default for QueryBounds {
    fn default() -> QueryBounds {
        QueryBounds {
            max_reads: 2_000_000,
            max_terms: 32,
            max_clauses: 64,
            max_depth: 8,
            max_slop: 32,
        }
    }
}

/// When a running search stops: at a deadline, when cancelled, or never.
/// Clones share the cancel flag, so one side can cancel the search
/// another side runs.
///
/// ```
/// use std::time::{Duration, Instant};
/// let stop = lexq_site::Stop::at(Instant::now() + Duration::from_secs(5));
/// let handle = stop.clone();
/// assert!(!stop.is_stopped());
/// handle.cancel();
/// assert!(stop.is_stopped());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<StopState>);

#[derive(Debug, Default)]
struct StopState {
    deadline: Option<Instant>,
    cancelled: AtomicBool,
    /// An earlier deadline until lifted: 1 + its nanoseconds after
    /// [`epoch`], or 0 for none.
    early: AtomicU64,
}

/// The instant early deadlines are counted from.
fn epoch() -> Instant {
    static EPOCH: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

impl Stop {
    /// A search that runs to its end (unless cancelled).
    pub fn never() -> Stop {
        Stop::default()
    }

    /// A search that stops at `deadline`.
    pub fn at(deadline: Instant) -> Stop {
        Stop(Arc::new(StopState {
            deadline: Some(deadline),
            ..StopState::default()
        }))
    }

    /// A search that stops `timeout` from now.
    pub fn after(timeout: Duration) -> Stop {
        match Instant::now().checked_add(timeout) {
            Some(deadline) => Stop::at(deadline),
            None => Stop::never(),
        }
    }

    /// Stops the searches this stop (or a clone of it) was given, at
    /// their next check.
    pub fn cancel(&self) {
        self.0.cancelled.store(true, Ordering::Relaxed);
    }

    /// Whether it was cancelled or its deadline (or its early one) has
    /// passed.
    pub fn is_stopped(&self) -> bool {
        if self.0.cancelled.load(Ordering::Relaxed) {
            return true;
        }
        let early = self.0.early.load(Ordering::Relaxed);
        if early == 0 && self.0.deadline.is_none() {
            return false;
        }
        let now = Instant::now();
        self.0.deadline.is_some_and(|d| now >= d)
            || (early != 0 && now >= epoch() + Duration::from_nanos(early - 1))
    }

    /// Stops at `at` too, until [`Stop::lift_early`]: a first phase of
    /// work (a search's estimate) given less time than the whole.
    pub(crate) fn set_early(&self, at: Instant) {
        let ns = at.saturating_duration_since(epoch()).as_nanos();
        let ns = u64::try_from(ns).unwrap_or(u64::MAX - 1);
        self.0.early.store(ns + 1, Ordering::Relaxed);
    }

    /// Takes back the deadline of [`Stop::set_early`].
    pub(crate) fn lift_early(&self) {
        self.0.early.store(0, Ordering::Relaxed);
    }
}

/// Why a metered search ended before its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Halt {
    /// Its [`Stop`] said so.
    Stopped,
    /// It read more than its bound.
    OverBudget,
}

const RUNNING: u8 = 0;
const STOPPED: u8 = 1;
const OVER_BUDGET: u8 = 2;

/// The reads of one running search, against its budget and its [`Stop`].
/// The metered parts of a query charge it in batches (see
/// [`Meter::BATCH`]); once it has halted, every part ends as soon as it
/// next charges.
#[derive(Debug)]
pub(crate) struct Meter {
    stop: Stop,
    budget: u64,
    used: AtomicU64,
    state: AtomicU8,
}

impl Meter {
    /// How many reads a metered part counts before charging them (and
    /// checking the stop): the clock is read about once per this many.
    pub(crate) const BATCH: u32 = 256;

    pub(crate) fn new(budget: u64, stop: Stop) -> Arc<Meter> {
        Arc::new(Meter {
            stop,
            budget,
            used: AtomicU64::new(0),
            state: AtomicU8::new(RUNNING),
        })
    }

    /// Adds `reads`; whether the search may go on.
    pub(crate) fn charge(&self, reads: u64) -> bool {
        let used = self.used.fetch_add(reads, Ordering::Relaxed) + reads;
        if self.state.load(Ordering::Relaxed) != RUNNING {
            return false;
        }
        let halt = if used > self.budget {
            OVER_BUDGET
        } else if self.stop.is_stopped() {
            STOPPED
        } else {
            return true;
        };
        let _ = self
            .state
            .compare_exchange(RUNNING, halt, Ordering::Relaxed, Ordering::Relaxed);
        false
    }

    /// Whether the search's stop has come.
    pub(crate) fn stopped(&self) -> bool {
        self.stop.is_stopped()
    }

    /// The reads charged so far.
    pub(crate) fn used(&self) -> u64 {
        self.used.load(Ordering::Relaxed)
    }

    /// Why the search halted, if it has.
    pub(crate) fn halted(&self) -> Option<Halt> {
        match self.state.load(Ordering::Relaxed) {
            RUNNING => None,
            STOPPED => Some(Halt::Stopped),
            _ => Some(Halt::OverBudget),
        }
    }
}

/// A count of reads for one metered part of a query, charged to its
/// [`Meter`] every [`Meter::BATCH`] reads and when dropped.
#[derive(Debug)]
pub(crate) struct Tally {
    meter: Arc<Meter>,
    pending: u32,
    halted: bool,
}

impl Tally {
    pub(crate) fn new(meter: Arc<Meter>) -> Tally {
        Tally {
            meter,
            pending: 0,
            halted: false,
        }
    }

    /// Counts `reads`; whether the part may go on.
    #[inline]
    pub(crate) fn add(&mut self, reads: u32) -> bool {
        if self.halted {
            return false;
        }
        self.pending = self.pending.saturating_add(reads);
        if self.pending >= Meter::BATCH {
            self.flush();
        }
        !self.halted
    }

    /// Charges what is pending now.
    pub(crate) fn flush(&mut self) {
        let n = std::mem::take(&mut self.pending);
        if !self.meter.charge(u64::from(n)) {
            self.halted = true;
        }
    }
}

impl Drop for Tally {
    fn drop(&mut self) {
        if self.pending > 0 {
            self.meter.charge(u64::from(self.pending));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_meter_halts_past_its_budget_or_its_stop() {
        let m = Meter::new(1000, Stop::never());
        let mut t = Tally::new(m.clone());
        for _ in 0..1000 {
            assert!(t.add(1));
        }
        t.flush();
        assert_eq!((m.used(), m.halted()), (1000, None));
        assert!(!t.add(Meter::BATCH));
        assert_eq!(m.halted(), Some(Halt::OverBudget));

        let stop = Stop::never();
        let m = Meter::new(u64::MAX, stop.clone());
        let mut t = Tally::new(m.clone());
        assert!(t.add(Meter::BATCH));
        stop.cancel();
        assert!(!t.add(Meter::BATCH));
        assert_eq!(m.halted(), Some(Halt::Stopped));
        // Every part learns of it when it next charges.
        let mut other = Tally::new(m.clone());
        assert!(!other.add(Meter::BATCH));

        let m = Meter::new(u64::MAX, Stop::at(Instant::now()));
        assert!(!m.charge(1));
        assert_eq!(m.halted(), Some(Halt::Stopped));
        // What a part had not yet charged is charged when it ends.
        let m = Meter::new(u64::MAX, Stop::never());
        drop({
            let mut t = Tally::new(m.clone());
            t.add(3);
            t
        });
        assert_eq!(m.used(), 3);
    }
}
