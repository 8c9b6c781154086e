//! `find`: word searches with any number of conditions, each of which may
//! be negated, and alternatives ("any of"), in one walk of the lexicon.
//!
//! A [`Query`] is a list of [`Term`]s, all of which must hold. It is
//! compiled against a lexicon ([`Lexicon::prepare_find`]), which reads
//! every argument as tiles, then planned:
//!
//! * **The anchor.** Of the conditions that can drive a walk (a prefix, a
//!   suffix, a run of letters, the longest literal of a pattern or regex, a
//!   rack, an `--in` list), the one that should visit the fewest words
//!   is walked: from its letters read right to left from the GADDAG root,
//!   letters before it, the separator, letters after it. A rack without
//!   blanks or set tiles walks from its rarest tile. With none, every word
//!   is walked from its first letter.
//! * **Pruning.** The other conditions that count letters bound the walk
//!   at each step: the length, letters a word may hold at most (a rack, a
//!   negated `includes` of one letter, `consists` of 100%), vowels, distinct
//!   letters and points at most, and what is still missing (letters to
//!   include, vowels or distinct letters at least, rack tiles to spend)
//!   against the letters left to place.
//! * **Leaves.** Every word the walk reaches is tested against every other
//!   condition (hooks, anagram counts, probability ranks, lists,
//!   alternatives and negations).
//!
//! [`Prepared::explain`] describes the plan.
//!
//! ```
//! use lexq::find::{Condition, Query, Range};
//! let lex = lexq::Lexicon::embedded();
//! // Seven-letter words with a Q and no U.
//! let q = Query::new()
//!     .with(Condition::Length(Range::exactly(7)))
//!     .with(Condition::Includes("q".into()))
//!     .without(Condition::Includes("u".into()));
//! assert_eq!(lex.find(&q)?.to_strings(), ["QINDARS", "QINTARS", "QWERTYS"]);
//! # Ok::<(), lexq::Error>(())
//! ```

mod conditions;
mod eval;
mod extensions;
pub mod flags;
mod plan;
mod words;

pub use conditions::{Condition, MAX_NESTING, MAX_TERMS, Range, Skipped, Term};
pub use words::{split_alternatives, split_words};

use crate::alphabet::tileset::TileSet;
pub use crate::error::{FindError, FindErrorKind, SplitError};
use crate::lexicon::Lexicon;
use crate::lexicon::gaddag::MAX_WORD_LEN;
use crate::query::probability::{Bag, Ranks};
use crate::query::{BLANK, Ordered, Word, Words};
use std::cell::Cell;
use std::collections::HashSet;
use std::ops::ControlFlow;
use std::sync::Arc;

use conditions::{CTerm, Check, Compiler, RackSpec, WordSet};

/// What [`Prepared::run_within`] may spend: a number of steps, and a
/// check asked every few thousand steps (a deadline, a cancel flag).
#[derive(Clone, Copy)]
pub struct Budget<'s> {
    steps: u64,
    stop: Option<&'s (dyn Fn() -> bool + 's)>,
}

impl<'s> Budget<'s> {
    /// At most `steps` steps, never stopped otherwise.
    pub fn steps(steps: u64) -> Budget<'static> {
        Budget { steps, stop: None }
    }

    /// The same budget, and the walk stops when `stop` says true.
    pub fn stop<'t>(self, stop: &'t (dyn Fn() -> bool + 't)) -> Budget<'t>
    where
        's: 't,
    {
        Budget {
            steps: self.steps,
            stop: Some(stop),
        }
    }
}

/// Why [`Prepared::run_within`] stopped before the walk's end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Halt {
    /// The walk needed more steps than its budget.
    Steps {
        /// The budget.
        max: u64,
    },
    /// The budget's stop check said stop.
    Stopped,
}

impl std::fmt::Display for Halt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Halt::Steps { max } => write!(
                f,
                "the search needs more than {max} steps of the lexicon; add a condition that narrows it"
            ),
            Halt::Stopped => write!(f, "the search was stopped before its end"),
        }
    }
}

impl std::error::Error for Halt {}

/// A word search: terms that must all hold.
#[derive(Clone, Debug, Default)]
pub struct Query {
    terms: Vec<Term>,
    tiles: Option<TileSet>,
    ranks: Option<Arc<Ranks>>,
    marks: bool,
}

impl Query {
    /// A query with no condition: every word.
    pub fn new() -> Query {
        Query::default()
    }

    /// Adds a condition that must hold.
    pub fn with(mut self, condition: Condition) -> Query {
        self.terms.push(Term::is(condition));
        self
    }

    /// Adds a condition that must not hold.
    pub fn without(mut self, condition: Condition) -> Query {
        self.terms.push(Term::not(condition));
        self
    }

    /// Adds a term.
    pub fn push(&mut self, term: Term) {
        self.terms.push(term);
    }

    /// The terms.
    pub fn terms(&self) -> &[Term] {
        &self.terms
    }

    /// The tile set for points and probability (default: the alphabet's
    /// standard set).
    pub fn tiles(mut self, tiles: TileSet) -> Query {
        self.tiles = Some(tiles);
        self
    }

    /// Marks the letters a blank plays: each word found carries, as its
    /// [`Word::blanks`], the places its query's one rack does not pay for
    /// (see [`Prepared::run`]). Off by default: marking costs a pass over
    /// each word found.
    pub fn mark_blanks(mut self) -> Query {
        self.marks = true;
        self
    }

    /// Probability ranks counted beforehand, for `probability` terms: a
    /// server counts them once and hands them to every query. They must
    /// be counted with the query's tile set (see [`Query::tiles`]); if
    /// they lack a length the query may match, the query counts its own.
    pub fn ranks(mut self, ranks: Arc<Ranks>) -> Query {
        self.ranks = Some(ranks);
        self
    }
}

/// A query compiled and planned against a lexicon, ready to run (any
/// number of times).
pub struct Prepared<'l> {
    lex: &'l Lexicon,
    terms: Vec<CTerm>,
    lists: Vec<WordSet>,
    plan: plan::Planned,
    ranks: Option<Arc<Ranks>>,
    /// Tile values (zero without a tile set).
    values: [i32; 64],
    /// The vowels' codes.
    vowels: u64,
    /// The query's one rack (a rack term, not negated, outside any
    /// alternative, with a blank, a set tile or a `*`) whose unpaid
    /// letters the words found carry as their blanks.
    marks: Option<usize>,
}

impl Lexicon {
    /// The words that meet every term of `query`, sorted, each once.
    pub fn find(&self, query: &Query) -> crate::Result<Words<'_>> {
        Ok(self.prepare_find(query)?.run())
    }

    /// Compiles and plans `query` (see [`Prepared::explain`]).
    pub fn prepare_find(&self, query: &Query) -> crate::Result<Prepared<'_>> {
        let lens = query
            .terms
            .iter()
            .filter_map(|t| match &t.condition {
                Condition::Length(r) if !t.negated => Some(*r),
                _ => None,
            })
            .fold(Range::between(0, u32::MAX), |a, r| {
                Range::between(a.min.max(r.min), a.max.min(r.max))
            });
        let mut compiler = Compiler {
            lex: self,
            lens,
            lists: Vec::new(),
            needs: Default::default(),
            terms: 0,
        };
        let terms = compiler.terms(&query.terms, 0)?;
        lengths_meet(&terms)?;
        let needs = compiler.needs;
        let lists = compiler.lists;
        let tiles = if needs.points || needs.ranks {
            Some(match &query.tiles {
                Some(t) => t.clone(),
                None => TileSet::default_for(self.alphabet(), 15).map_err(|_| FindError {
                    term: terms
                        .iter()
                        .map(|t| t.text.clone())
                        .find(|t| t.contains("points") || t.contains("probability"))
                        .unwrap_or_default(),
                    kind: FindErrorKind::NoTileSet(self.alphabet().name().to_string()),
                })?,
            })
        } else {
            None
        };
        let values = tiles.as_ref().map_or([0; 64], |t| *t.values());
        let vowels = vowel_codes(self.alphabet());
        let mut plan = plan::plan(self, &terms, &lists, &values, vowels, None);
        if plan.candidates.len() > 1 {
            // Several terms could drive the walk: the rough counts guess,
            // random dives down each walk measure.
            let mut measured = Vec::with_capacity(plan.candidates.len());
            let mut best: Option<(u64, plan::Planned)> = None;
            for &(i, _) in &plan.candidates {
                let p = plan::plan(self, &terms, &lists, &values, vowels, Some(i));
                let e = eval::estimate(self.arcs().root(), &p);
                measured.push((i, e));
                if best.as_ref().is_none_or(|(b, _)| e < *b) {
                    best = Some((e, p));
                }
            }
            if let Some((e, p)) = best {
                plan = p;
                plan.estimate = e;
                plan.candidates = measured;
                plan.dived = true;
            }
        }
        let lens = plan.lens.min.max(1)..=plan.lens.max.min(self.max_word_len());
        let given = query.ranks.as_ref().filter(|r| {
            let have: std::collections::BTreeSet<usize> = r.lengths().collect();
            lens.clone().all(|n| have.contains(&n))
        });
        let ranks = match (&tiles, needs.ranks, given) {
            (Some(_), true, Some(r)) => Some(r.clone()),
            (Some(t), true, None) => Some(Arc::new(Ranks::new(self, &Bag::new(t), lens).map_err(
                |o| FindError {
                    term: "--probability".into(),
                    kind: FindErrorKind::Overflow {
                        len: o.len,
                        tiles: o.tiles,
                    },
                },
            )?)),
            _ => None,
        };
        let racks: Vec<usize> = terms
            .iter()
            .enumerate()
            .filter(|(_, t)| !t.negated && matches!(t.check, Check::Rack(_)))
            .map(|(i, _)| i)
            .collect();
        let marks = match racks[..] {
            [i] if query.marks => match &terms[i].check {
                Check::Rack(r) if r.blanks > 0 || !r.sets.is_empty() || r.star => Some(i),
                _ => None,
            },
            _ => None,
        };
        Ok(Prepared {
            lex: self,
            marks,
            terms,
            lists,
            plan,
            ranks,
            values,
            vowels,
        })
    }
}

/// An error if the length conditions that must hold (not negated, not
/// inside an alternative) exclude each other: the longest of their
/// shortest lengths above the shortest of their longest.
fn lengths_meet(terms: &[CTerm]) -> Result<(), FindError> {
    let lengths = || {
        terms
            .iter()
            .enumerate()
            .filter_map(|(i, t)| match &t.check {
                Check::Length(r) if !t.negated => Some((i, r)),
                _ => None,
            })
    };
    // The first of the greatest minimums, the first of the least maximums.
    let lo = lengths().fold(None, |best: Option<(usize, u32)>, (i, r)| match best {
        Some((_, m)) if m >= r.min => best,
        _ => Some((i, r.min)),
    });
    let hi = lengths().fold(None, |best: Option<(usize, u32)>, (i, r)| match best {
        Some((_, m)) if m <= r.max => best,
        _ => Some((i, r.max)),
    });
    match (lo, hi) {
        (Some(lo), Some(hi)) if lo.1 > hi.1 => Err(FindError {
            term: lengths()
                .map(|(i, _)| terms[i].text.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            kind: FindErrorKind::Lengths {
                longest_min: lo,
                shortest_max: hi,
            },
        }),
        _ => Ok(()),
    }
}

/// The codes of the tiles labelled A, E, I, O or U.
fn vowel_codes(alphabet: &crate::Alphabet) -> u64 {
    (1..=alphabet.len() as u8)
        .filter(|&c| matches!(alphabet.label(c), Some("A" | "E" | "I" | "O" | "U")))
        .fold(0, |m, c| m | 1u64 << c)
}

impl<'l> Prepared<'l> {
    /// The `--in` word lists that had lines skipped, as not words of the
    /// alphabet (nothing for lexicon files): a caller reports them.
    pub fn skipped(&self) -> impl Iterator<Item = &Skipped> {
        self.lists.iter().filter_map(|l| match l {
            WordSet::List { skipped, .. } if skipped.lines > 0 => Some(skipped),
            _ => None,
        })
    }

    /// Runs the query: the words found, sorted in alphabet order, each
    /// once.
    ///
    /// With [`Query::mark_blanks`], if the query has one rack condition
    /// (`Anagram` or `Subanagram`, not negated, outside any `Any`), each
    /// word's [`Word::blanks`] are
    /// the places the rack's named tiles do not pay for (played by its
    /// blanks, set tiles or `*`): a letter's named tiles pay for its first
    /// places, so the unpaid ones are its last, as an anagram's blanks.
    /// Otherwise they are zero.
    ///
    /// ```
    /// use lexq::find::{Condition, Query, Range};
    /// let lex = lexq::Lexicon::embedded();
    /// let q = Query::new()
    ///     .with(Condition::Anagram { rack: "ca?".into(), through: None })
    ///     .with(Condition::Includes("t".into()))
    ///     .mark_blanks();
    /// let words = lex.find(&q)?;
    /// let marked: Vec<String> = words.iter().map(|w| w.marked()).collect();
    /// assert_eq!(marked, ["ACt", "CAt"]);
    /// # Ok::<(), lexq::Error>(())
    /// ```
    pub fn run(&self) -> Words<'l> {
        let meter = eval::Meter::unbounded();
        self.run_metered(&meter)
    }

    /// Runs the query within `budget`: the words found, as [`Prepared::run`]
    /// gives them, or why the walk stopped before its end. A step is an
    /// edge of the lexicon followed (or a word read, by a walk over a
    /// list or by the pass that counts anagrams); `budget.stop` is asked
    /// every few thousand steps, so a walk ends soon after it says so.
    ///
    /// ```
    /// use lexq::find::{Budget, Condition, Halt, Query, Range};
    /// let lex = lexq::Lexicon::embedded();
    /// let q = Query::new().with(Condition::Vowels(Range::exactly(5)));
    /// let p = lex.prepare_find(&q)?;
    /// // Every word is walked: more than a thousand steps.
    /// assert!(matches!(p.run_within(&Budget::steps(1000)), Err(Halt::Steps { max: 1000 })));
    /// // A deadline already past stops it at its first check.
    /// let past = || true;
    /// assert!(matches!(p.run_within(&Budget::steps(u64::MAX).stop(&past)), Err(Halt::Stopped)));
    /// assert!(p.run_within(&Budget::steps(10_000_000))?.len() > 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn run_within(&self, budget: &Budget<'_>) -> Result<Words<'l>, Halt> {
        let meter = eval::Meter::new(budget.steps, budget.stop);
        let words = self.run_metered(&meter);
        match meter.halted() {
            Some(h) => Err(h),
            None => Ok(words),
        }
    }

    /// Calls `f` with each word that meets every term as the walk reaches
    /// it, until `f` breaks: in the walk's order (not sorted), each word
    /// once. Returns `Break` if `f` stopped the walk.
    ///
    /// Nothing is collected when the walk reaches each word once: a walk
    /// of every word, from a prefix or a suffix, from the first place of a
    /// letter, or over a list. A walk from a run of letters that may occur
    /// twice in a word (`contains`, the literal of a pattern or regex, a
    /// run of classes) or a union of walks (a regex's branches) remembers
    /// the words it gave, to give each once. After `f` breaks,
    /// the walk ends within a few thousand steps and `f` is not called
    /// again.
    ///
    /// ```
    /// use lexq::find::{Condition, Query};
    /// use std::ops::ControlFlow;
    /// let lex = lexq::Lexicon::embedded();
    /// let q = Query::new().with(Condition::Starts("qu".into()));
    /// let mut first = Vec::new();
    /// let flow = lex.prepare_find(&q)?.for_each(|w| {
    ///     first.push(w.to_string());
    ///     if first.len() == 3 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    /// });
    /// assert!(flow.is_break());
    /// assert_eq!(first, ["QUA", "QUAALUDE", "QUAALUDES"]);
    /// # Ok::<(), lexq::Error>(())
    /// ```
    pub fn for_each(&self, f: impl FnMut(Word<'_>) -> ControlFlow<()>) -> ControlFlow<()> {
        match self.for_each_within(&Budget::steps(u64::MAX), f) {
            Ok(flow) => flow,
            // An unbounded budget without a stop check never halts.
            Err(_) => ControlFlow::Continue(()),
        }
    }

    /// [`Prepared::for_each`] within `budget` (see [`Prepared::run_within`]):
    /// `Err` if the walk ran out of steps or was stopped by the budget's
    /// check before its end (the words given so far were met).
    pub fn for_each_within(
        &self,
        budget: &Budget<'_>,
        mut f: impl FnMut(Word<'_>) -> ControlFlow<()>,
    ) -> Result<ControlFlow<()>, Halt> {
        let broke = Cell::new(false);
        let stop = || broke.get() || budget.stop.is_some_and(|s| s());
        let meter = eval::Meter::new(budget.steps, Some(&stop));
        let alphabet = self.lex.alphabet();
        let rack = self.marked_rack();
        let mut given: Option<HashSet<Vec<u8>>> = self.plan.walk.may_repeat().then(HashSet::new);
        let mut buf = [0u8; MAX_WORD_LEN + 1];
        let mut give = |l: &[u8], a: &[u8], r: &[u8]| {
            if broke.get() {
                return;
            }
            let w = eval::join(&mut buf, l, a, r);
            if let Some(given) = &mut given {
                if given.contains(w) {
                    return;
                }
                given.insert(w.to_vec());
            }
            let word = Word {
                codes: w,
                alphabet,
                blanks: rack.map_or(0, |r| r.unpaid(w)),
            };
            if f(word).is_break() {
                broke.set(true);
            }
        };
        eval::run(self.lex.arcs().root(), self, &mut give, &meter);
        if broke.get() {
            return Ok(ControlFlow::Break(()));
        }
        match meter.halted() {
            Some(h) => Err(h),
            None => Ok(ControlFlow::Continue(())),
        }
    }

    fn run_metered(&self, meter: &eval::Meter<'_>) -> Words<'l> {
        let rack = self.marked_rack();
        if rack.is_none() && self.plan.walk.in_order() {
            // Each word once, in order: kept as it comes, no sort.
            let mut out = Ordered::new(usize::MAX);
            eval::run(
                self.lex.arcs().root(),
                self,
                &mut |l, a, r| out.push(l, a, r),
                meter,
            );
            return out.finish(self.lex.alphabet());
        }
        let mut out = self.lex.search().collector();
        let mut marked = [0u8; 64];
        let mut buf = [0u8; MAX_WORD_LEN + 1];
        let mut push = |l: &[u8], a: &[u8], r: &[u8]| match rack {
            None => out.push(l, a, r),
            Some(rack) => {
                let w = eval::join(&mut buf, l, a, r);
                let r = rack;
                let unpaid = r.unpaid(w);
                let n = w.len().min(marked.len());
                for (i, (m, &c)) in marked.iter_mut().zip(w).enumerate() {
                    *m = if unpaid & 1 << i != 0 { c | BLANK } else { c };
                }
                out.push(&[], &marked[..n], &[]);
            }
        };
        eval::run(self.lex.arcs().root(), self, &mut push, meter);
        out.finish()
    }

    /// The rack whose unpaid letters the words found carry as blanks
    /// (see [`Prepared::run`]).
    fn marked_rack(&self) -> Option<&RackSpec> {
        match &self.terms[self.marks?].check {
            Check::Rack(r) => Some(r),
            _ => None,
        }
    }

    /// The steps the walk is expected to take, measured by random dives
    /// down it (a few dozen, whatever the walk's size): an estimate,
    /// unbiased but noisy, for pricing a query before it runs.
    pub fn estimated_steps(&self) -> u64 {
        if self.plan.dived {
            self.plan.estimate
        } else {
            eval::estimate(self.lex.arcs().root(), &self.plan)
        }
    }

    /// The plan in words: what the walk starts from, what bounds it at
    /// each step, and what is tested at each word it reaches.
    pub fn explain(&self) -> String {
        self.plan.explain(&self.terms, self.lex)
    }
}
