//! Running a planned `find` query: the walk, bounded at each step, and the
//! tests at each word it reaches.
//!
//! The walk is the query commands' own ([`crate::query::plan::run_on`]
//! over [`crate::query::walk`]: anchored on a run of letters, forwards
//! with universal states, a union of branches, a run of classes), given
//! find's bound ([`walk::Bound`]). Each letter placed goes through
//! [`State::push`], which counts it (per code, vowels, distinct letters,
//! points, letters outside a `consists` set, rack tiles spent) and
//! refuses it when a bound is passed or when the letters still missing
//! can no longer fit in the letters left to place. Before a node's edges
//! are read, [`State::allowed`] gives the letters that may follow, so
//! edges of other letters are not followed at all. When nothing is
//! counted and no step is metered, the bound is the commands' (nothing
//! refused): the walk is theirs to the instruction.
//!
//! For `--ends ING --len 7 --not-includes E`: ING is read from the root
//! (G, N, I), then letters before it, never an E, at most four of them;
//! each 7-letter key that is a whole word (`rev(W)`) is a word found.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use regex_automata::util::primitives::StateID;

use super::Prepared;
use super::conditions::{CTerm, Check, RackSpec, WordSet};
use super::plan::{Budget, Prune, RackRule, Walk, budget};
use crate::lexicon::Lexicon;
use crate::lexicon::gaddag::{MAX_WORD_LEN, SEPARATOR};
use crate::lexicon::raw::Node;
use crate::query::plan::{Plan, run_on};
use crate::query::walk::{self, Bound, Side, Tiles, follow_reversed};
use crate::query::{BLANK, Lengths, anagram};

/// How often (in steps) a walk asks its stop check whether to stop.
const STOP_EVERY: u64 = 4096;

/// What a walk may spend: steps (an edge followed, a word of a list or of
/// the anagram table read), and a check asked every [`STOP_EVERY`] steps
/// (a deadline, a cancel flag). Once spent or stopped, every walk it
/// meters returns at its next step.
pub(crate) struct Meter<'s> {
    left: Cell<u64>,
    stop: Option<&'s (dyn Fn() -> bool + 's)>,
    /// Why the walk stopped early, if it did.
    halted: Cell<Option<super::Halt>>,
    max: u64,
}

impl<'s> Meter<'s> {
    /// `max` steps, `stop` asked now and then.
    pub(crate) fn new(max: u64, stop: Option<&'s (dyn Fn() -> bool + 's)>) -> Meter<'s> {
        Meter {
            left: Cell::new(max),
            stop,
            halted: Cell::new(None),
            max,
        }
    }

    /// No bound.
    pub(crate) fn unbounded() -> Meter<'static> {
        Meter::new(u64::MAX, None)
    }

    /// Takes one step: false if the budget is spent or the walk stopped.
    #[inline(always)]
    pub(crate) fn tick(&self) -> bool {
        let left = self.left.get();
        if left == 0 {
            if self.halted.get().is_none() {
                self.halted.set(Some(super::Halt::Steps { max: self.max }));
            }
            return false;
        }
        self.left.set(left - 1);
        if left % STOP_EVERY == 0 {
            return self.ask();
        }
        true
    }

    #[cold]
    fn ask(&self) -> bool {
        if self.stop.is_some_and(|stop| stop()) {
            self.left.set(0);
            self.halted.set(Some(super::Halt::Stopped));
            return false;
        }
        true
    }

    /// Whether nothing stops the walk: no bound on the steps, no check.
    pub(crate) fn is_unbounded(&self) -> bool {
        self.max == u64::MAX && self.stop.is_none()
    }

    /// Why the walk stopped early, if it did.
    pub(crate) fn halted(&self) -> Option<super::Halt> {
        self.halted.get()
    }
}

/// What the walk has counted of the letters placed so far: how many of
/// each code, and the rest ([`Tally`]).
///
/// A walk keeps one `State` and changes it in place: [`State::push`]
/// counts a letter and hands back the tally as it was, [`State::pop`]
/// takes the letter back with it (the tally is a few words, so saving it
/// whole is cheaper than undoing each count; a `State` copied at every
/// step was a third of a walk's time).
#[derive(Clone, Copy)]
pub(crate) struct State {
    counts: [u8; 64],
    t: Tally,
}

/// The counts of a [`State`] other than the per-code ones.
#[derive(Clone, Copy, Default)]
pub(crate) struct Tally {
    /// Codes placed at least once.
    used: u64,
    /// Codes at their limit.
    full: u64,
    points: i64,
    n: u32,
    vowels: u32,
    distinct: u32,
    /// Letters still to place for `includes`.
    deficit: u32,
    /// Letters outside each `consists` set (a word has at most 63).
    outs: [u8; super::plan::MAX_CONSISTS],
    /// The budgets of the prune's racks (the first `p.racks.len()`).
    racks: [Budget; super::plan::MAX_RACKS],
}

impl State {
    fn new(p: &Prune) -> State {
        let mut racks = [Budget {
            wild: 0,
            held: 0,
            to_spend: 0,
        }; super::plan::MAX_RACKS];
        for (slot, (_, b)) in racks.iter_mut().zip(&p.racks) {
            *slot = *b;
        }
        let full = (1..64).fold(0u64, |m, c| if p.limit[c] == 0 { m | 1u64 << c } else { m });
        State {
            counts: [0; 64],
            t: Tally {
                used: 0,
                full,
                points: 0,
                n: 0,
                vowels: 0,
                distinct: 0,
                deficit: p.need_total,
                outs: [0; super::plan::MAX_CONSISTS],
                racks,
            },
        }
    }

    /// The letters that may be placed next.
    #[inline]
    fn allowed(&self, p: &Prune) -> u64 {
        let t = &self.t;
        let mut m = p.letters & !t.full;
        if t.vowels >= p.vowel_max {
            m &= !p.vowels;
        }
        if t.distinct >= p.distinct_max {
            m &= t.used;
        }
        if let Some(max) = p.points_max {
            let room = max - t.points;
            m &= p
                .by_value
                .iter()
                .filter(|&&(v, _)| v <= room)
                .fold(0, |a, &(_, codes)| a | codes);
        }
        for (&out, &(set, most)) in t.outs.iter().zip(&p.consists) {
            if out as u32 >= most {
                m &= set;
            }
        }
        for (b, (rule, _)) in t.racks.iter().zip(&p.racks) {
            if !rule.star {
                m &= b.held | if b.wild > 0 { rule.wild_mask } else { 0 };
            }
        }
        m
    }

    /// Counts `c`, placed next, and returns the tally as it was before
    /// (for [`State::pop`]); or, if a bound refuses it (a word of at most
    /// `max` letters), changes nothing and returns `None`. `spend` says
    /// whether the racks pay for it (not for the block a rack plays
    /// through).
    #[inline]
    fn push(&mut self, p: &Prune, c: u8, max: usize, spend: bool) -> Option<Tally> {
        let ci = c as usize & 63;
        if self.t.full & (1u64 << ci) != 0 {
            return None;
        }
        let saved = self.t;
        self.counts[ci] += 1;
        if self.count(p, ci, max, spend) {
            Some(saved)
        } else {
            self.pop(c, saved);
            None
        }
    }

    /// Takes back the `c` a [`State::push`] counted, which returned `saved`.
    #[inline]
    fn pop(&mut self, c: u8, saved: Tally) {
        self.counts[c as usize & 63] -= 1;
        self.t = saved;
    }

    /// The state after placing `c` (a copy), as [`State::push`] decides.
    fn step(&self, p: &Prune, c: u8, max: usize, spend: bool) -> Option<State> {
        let mut s = *self;
        s.push(p, c, max, spend).map(|_| s)
    }

    /// The tally's part of [`State::push`], `counts[ci]` already raised:
    /// false if a bound refuses the letter (the tally then half changed).
    #[inline(always)]
    fn count(&mut self, p: &Prune, ci: usize, max: usize, spend: bool) -> bool {
        let count = self.counts[ci];
        let t = &mut self.t;
        let bit = 1u64 << ci;
        t.n += 1;
        if count >= p.limit[ci] {
            t.full |= bit;
        }
        if p.vowels & bit != 0 {
            t.vowels += 1;
            if t.vowels > p.vowel_max {
                return false;
            }
        }
        if t.used & bit == 0 {
            t.used |= bit;
            t.distinct += 1;
            if t.distinct > p.distinct_max {
                return false;
            }
        }
        t.points += p.values[ci] as i64;
        if p.points_max.is_some_and(|m| t.points > m) {
            return false;
        }
        for (out, &(set, most)) in t.outs.iter_mut().zip(&p.consists) {
            if set & bit == 0 {
                *out += 1;
                if *out as u32 > most {
                    return false;
                }
            }
        }
        if count <= p.need[ci] {
            t.deficit -= 1;
        }
        let room = (max as u32).saturating_sub(t.n);
        if t.deficit > room || t.vowels + room < p.vowel_min || t.distinct + room < p.distinct_min {
            return false;
        }
        for (b, (rule, _)) in t.racks.iter_mut().zip(&p.racks) {
            if !spend && rule.through {
                continue;
            }
            if !take(b, rule, ci, count) {
                return false;
            }
            if b.to_spend as u32 > room {
                return false;
            }
        }
        true
    }
}

/// Spends a tile of `b` for the `count`th letter of code `c`: a real one
/// while the rack holds that many, else a blank or set tile that may stand
/// for it, else the `*`. False if none may.
#[inline]
fn take(b: &mut Budget, rule: &RackRule, c: usize, count: u8) -> bool {
    let real = rule.real[c];
    if count <= real {
        if count == real {
            b.held &= !(1u64 << c);
        }
    } else if b.wild > 0 && rule.wild_mask & (1u64 << c) != 0 {
        b.wild -= 1;
    } else {
        // The star spends nothing.
        return rule.star;
    }
    b.to_spend = b.to_spend.saturating_sub(1);
    true
}

/// A word found, in three pieces as a walk reports it
/// ([`walk::Emit`]): the letters left of the anchor in reverse order,
/// the anchor, the letters right of it.
type Emit<'e> = walk::Emit<'e>;

/// The word `rev(l) a r` in `buf`.
#[inline]
pub(crate) fn join<'b>(
    buf: &'b mut [u8; MAX_WORD_LEN + 1],
    l: &[u8],
    a: &[u8],
    r: &[u8],
) -> &'b [u8] {
    if l.len() + a.len() + r.len() > MAX_WORD_LEN {
        return &[];
    }
    for (d, &c) in buf.iter_mut().zip(l.iter().rev()) {
        *d = c;
    }
    buf[l.len()..l.len() + a.len()].copy_from_slice(a);
    let n = l.len() + a.len();
    buf[n..n + r.len()].copy_from_slice(r);
    &buf[..n + r.len()]
}

/// `find`'s bound on a walk ([`walk::Bound`]) when its conditions count
/// letters: the counts of the letters placed ([`State`]), refused by
/// [`State::push`]; and a step of the meter for each letter placed.
struct Counted<'p> {
    st: State,
    prune: &'p Prune,
    max: usize,
    meter: &'p Meter<'p>,
}

impl Bound for Counted<'_> {
    const ALL: bool = false;
    type Saved = Tally;
    #[inline(always)]
    fn allowed(&self) -> u64 {
        self.st.allowed(self.prune)
    }
    #[inline(always)]
    fn push(&mut self, code: u8) -> Option<Tally> {
        if !self.meter.tick() {
            return None;
        }
        self.st.push(self.prune, code, self.max, true)
    }
    #[inline(always)]
    fn pop(&mut self, code: u8, saved: Tally) {
        self.st.pop(code, saved);
    }
    /// The anchor's letters spend no tile of a rack played through it
    /// (they are its block).
    fn push_anchor(&mut self, code: u8) -> Option<Tally> {
        self.st.push(self.prune, code, self.max, false)
    }
}

/// `find`'s bound when its conditions count nothing (no letter refused
/// but those barred outright, `--not-includes U`): a step of the meter
/// for each letter placed.
struct Ticked<'p> {
    open: u64,
    meter: &'p Meter<'p>,
}

impl Bound for Ticked<'_> {
    const ALL: bool = false;
    type Saved = ();
    #[inline(always)]
    fn allowed(&self) -> u64 {
        self.open
    }
    #[inline(always)]
    fn push(&mut self, _: u8) -> Option<()> {
        self.meter.tick().then_some(())
    }
    #[inline(always)]
    fn pop(&mut self, _: u8, _: ()) {}
    fn push_anchor(&mut self, code: u8) -> Option<()> {
        (self.open >> (code & 63) & 1 != 0).then_some(())
    }
}

/// Walks `walk` over `g` with the bounds of `prune`, reporting each word
/// reached (a word may be reported more than once: once per place its
/// anchor occurs).
#[allow(clippy::too_many_arguments)]
pub(crate) fn walk<'a>(
    lex: &'a Lexicon,
    root: Node<'a>,
    walk: &Walk,
    lens: Lengths,
    prune: &Prune,
    lists: &[WordSet],
    emit: &mut Emit<'_>,
    meter: &Meter<'_>,
) {
    let lens = Lengths {
        min: lens.min,
        max: lens.max.min(MAX_WORD_LEN),
    };
    if lens.min > lens.max {
        return;
    }
    let start = State::new(prune);
    match walk {
        Walk::Empty => {}
        Walk::Plan { plan, barred_left } => {
            let whole = &mut *emit;
            let open = start.allowed(prune);
            let letters = lex.alphabet().letters().0;
            if !prune.bounds_nothing() {
                let mut b = Counted {
                    st: start,
                    prune,
                    max: lens.max,
                    meter,
                };
                run_on(root, plan, lens, *barred_left, &mut b, whole);
            } else if meter.is_unbounded() && open & letters == letters {
                // Nothing to count, no step to meter: the commands' walk.
                run_on(root, plan, lens, *barred_left, &mut walk::Free, whole);
            } else {
                let mut b = Ticked { open, meter };
                run_on(root, plan, lens, *barred_left, &mut b, whole);
            }
        }
        Walk::Rack {
            real,
            blanks,
            use_all,
        } => {
            let tiles = Tiles {
                counts: *real,
                blanks: *blanks,
            };
            // The letters counted for the leaves; a letter played with a
            // blank is a letter like another.
            let mut word = [0u8; MAX_WORD_LEN];
            let mut each = |w: &[u8]| {
                for (d, &c) in word.iter_mut().zip(w) {
                    *d = c & !BLANK;
                }
                emit(&[], &word[..w.len().min(MAX_WORD_LEN)], &[]);
            };
            let go_on = || meter.tick();
            let letters = lex.alphabet().len();
            let looked_up = *use_all
                && lex.alphagrams().is_some_and(|filed| {
                    anagram::by_alphagram(filed, &tiles, lens, letters, Some(&go_on), &mut each)
                });
            if !looked_up {
                let mut emit3 = |l: &[u8], a: &[u8], r: &[u8]| {
                    // No anchor: the word is its first letter (left) and
                    // the rest (right).
                    let mut w = [0u8; MAX_WORD_LEN];
                    let n = (l.len() + a.len() + r.len()).min(MAX_WORD_LEN);
                    for (d, &c) in w.iter_mut().zip(l.iter().rev().chain(a).chain(r)) {
                        *d = c;
                    }
                    each(&w[..n]);
                };
                walk::rack(
                    root,
                    false,
                    &[],
                    tiles,
                    *use_all,
                    if *use_all { 1 } else { 2 },
                    lens,
                    lex.letters_below(),
                    Some(&go_on),
                    &mut emit3,
                );
            }
        }
        Walk::List(k) => {
            let mut each = |w: &[u8]| {
                if !meter.tick() || w.len() < lens.min || w.len() > lens.max {
                    return;
                }
                if !follow_reversed(root, w).is_some_and(|(_, word)| word) {
                    return;
                }
                let mut st = start;
                for &c in w {
                    match st.step(prune, c, lens.max, true) {
                        Some(s) => st = s,
                        None => return,
                    }
                }
                emit(&[], w, &[]);
            };
            match &lists[*k] {
                WordSet::List { words, .. } => {
                    for w in words {
                        if meter.halted().is_some() {
                            break;
                        }
                        each(w);
                    }
                }
                WordSet::Lexicon(other) => {
                    other.for_each_word(lens.min, lens.max, |w| {
                        each(w);
                        if meter.halted().is_some() {
                            std::ops::ControlFlow::Break(())
                        } else {
                            std::ops::ControlFlow::Continue(())
                        }
                    });
                }
            }
        }
    }
}

/// What the tests at the leaves need: the graph, and counts kept between
/// words.
struct Leaf<'p, 'l, 'a> {
    root: Node<'a>,
    q: &'p Prepared<'l>,
    meter: &'p Meter<'p>,
    /// Anagram counts by alphagram.
    anagrams: RefCell<HashMap<Vec<u8>, u32>>,
    /// Whether `anagrams` holds every alphagram of the walk's lengths.
    all_counted: Cell<bool>,
}

/// Anagram counts found by a walk each before all are counted in one pass.
const WALKS_BEFORE_TABLE: usize = 64;

impl<'a> Leaf<'_, '_, 'a> {
    fn is_word(&self, codes: &[u8]) -> bool {
        !codes.is_empty() && follow_reversed(self.root, codes).is_some_and(|(_, w)| w)
    }

    /// Whether `a` then `b` is a word.
    fn is_word2(&self, a: &[u8], b: &[u8]) -> bool {
        let mut buf = [0u8; 2 * MAX_WORD_LEN + 2];
        if a.len() + b.len() > MAX_WORD_LEN {
            return false;
        }
        buf[..a.len()].copy_from_slice(a);
        buf[a.len()..a.len() + b.len()].copy_from_slice(b);
        self.is_word(&buf[..a.len() + b.len()])
    }

    /// The letters that hook `word` in front (`back` false) or behind;
    /// `at`, if known, the node after the word read right to left.
    fn hooks(&self, word: &[u8], back: bool, at: Option<Node<'a>>) -> u64 {
        let Some(node) = at.or_else(|| follow_reversed(self.root, word).map(|(n, _)| n)) else {
            return 0;
        };
        if !back {
            return node.ending_letters().0;
        }
        node.separator().map_or(0, |n| n.ending_letters().0)
    }

    /// How many words are anagrams of `word` (itself included): a walk
    /// of the word's tiles for the first few alphagrams met, then, if more
    /// are asked for, one pass over every word of the walk's lengths that
    /// counts them all.
    fn anagram_count(&self, word: &[u8], counts: &[u8; 64]) -> u32 {
        let mut key = word.to_vec();
        key.sort_unstable();
        if let Some(&n) = self.anagrams.borrow().get(&key) {
            return n;
        }
        if self.all_counted.get() {
            // Every word of these lengths is counted, and only words of
            // the lexicon are asked about: not reached.
            return 1;
        }
        if self.anagrams.borrow().len() >= WALKS_BEFORE_TABLE {
            let lens = self.q.plan.lens;
            let mut table = self.anagrams.borrow_mut();
            table.clear();
            let mut whole = true;
            self.q.lex.for_each_word(lens.min, lens.max, |w| {
                if !self.meter.tick() {
                    whole = false;
                    return std::ops::ControlFlow::Break(());
                }
                let mut k = w.to_vec();
                k.sort_unstable();
                *table.entry(k).or_insert(0) += 1;
                std::ops::ControlFlow::Continue(())
            });
            if !whole {
                // Stopped: the walk's answer is dropped.
                table.clear();
                return 0;
            }
            self.all_counted.set(true);
            return table.get(&key).copied().unwrap_or(1);
        }
        let rack = RackSpec {
            real: *counts,
            blanks: 0,
            sets: Vec::new(),
            star: false,
            through: Vec::new(),
            exact: true,
        };
        // From the word's first letter (any would do): words of these
        // tiles, each met once at the first place of that letter.
        let pivot = word[0];
        let (rule, b) = budget(&rack);
        let prune = Prune {
            letters: self.q.plan.prune.letters,
            limit: [u8::MAX; 64],
            vowels: 0,
            vowel_min: 0,
            vowel_max: u32::MAX,
            distinct_min: 0,
            distinct_max: u32::MAX,
            values: [0; 64],
            points_max: None,
            by_value: Vec::new(),
            consists: Vec::new(),
            need: [0; 64],
            need_total: 0,
            racks: vec![(rule, b)],
        };
        let w = Walk::Plan {
            plan: Plan::Anchored {
                anchor: vec![pivot],
                left: Side::Anything,
                right: Side::Anything,
            },
            barred_left: 1u64 << pivot,
        };
        let lens = Lengths {
            min: word.len(),
            max: word.len(),
        };
        let mut n = 0u32;
        walk(
            self.q.lex,
            self.root,
            &w,
            lens,
            &prune,
            &[],
            &mut |_, _, _| n += 1,
            self.meter,
        );
        self.anagrams.borrow_mut().insert(key, n);
        n
    }

    fn holds(&self, t: &CTerm, word: &[u8], counts: &[u8; 64], at: Option<Node<'a>>) -> bool {
        let q = self.q;
        let met = match t.check.counted(word, counts, q.vowels, &q.values) {
            Some(met) => met,
            None => match &t.check {
                Check::Anagrams(r) => r.holds(self.anagram_count(word, counts)),
                Check::FrontHook(m) | Check::BackHook(m) => {
                    let hooks = self.hooks(word, matches!(t.check, Check::BackHook(_)), at);
                    if *m == 0 { hooks != 0 } else { hooks & m == *m }
                }
                Check::IsFrontHook => self.is_word(&word[1..]),
                Check::IsBackHook => self.is_word(&word[..word.len() - 1]),
                Check::InnerHooks => {
                    self.is_word(&word[1..]) || self.is_word(&word[..word.len() - 1])
                }
                Check::TakesPrefix(p) => self.is_word2(p, word),
                Check::TakesSuffix(s) => self.is_word2(word, s),
                Check::In(k) => match &q.lists[*k] {
                    WordSet::List { set, .. } => set.contains(word),
                    WordSet::Lexicon(other) => other.arcs().root().is_word(word),
                },
                Check::Probability(r) => q
                    .ranks
                    .as_ref()
                    .and_then(|ranks| ranks.rank(word))
                    .is_some_and(|k| r.holds(k)),
                Check::Any(alts) => alts
                    .iter()
                    .any(|alt| alt.iter().all(|t| self.holds(t, word, counts, at))),
                _ => unreachable!("counted checks are answered above"),
            },
        };
        met != t.negated
    }
}

/// Runs a prepared query over `g`, reporting each word that meets every
/// term (some more than once).
pub(crate) fn run(root: Node<'_>, q: &Prepared<'_>, out: &mut Emit<'_>, meter: &Meter<'_>) {
    let mut buf = [0u8; MAX_WORD_LEN + 1];
    let leaf = Leaf {
        root,
        q,
        meter,
        anagrams: RefCell::new(HashMap::new()),
        all_counted: Cell::new(false),
    };
    let plan = &q.plan;
    let tests: Vec<&CTerm> = q
        .terms
        .iter()
        .enumerate()
        .filter(|&(i, _)| Some(i) != plan.exact)
        .map(|(_, t)| t)
        .collect();
    walk(
        q.lex,
        root,
        &plan.walk,
        plan.lens,
        &plan.prune,
        &q.lists,
        &mut |l, a, r| {
            if tests.is_empty() {
                return out(l, a, r);
            }
            let word = join(&mut buf, l, a, r);
            let mut counts = [0u8; 64];
            for &c in word {
                counts[c as usize & 63] += 1;
            }
            if tests.iter().all(|t| leaf.holds(t, word, &counts, None)) {
                out(&[], word, &[]);
            }
        },
        meter,
    );
}

/// Where a dive stands: left of the anchor (node, both automata's states)
/// or right of it, with the word's length. The counts are the dive's
/// [`State`], kept apart and changed in place.
#[derive(Clone, Copy)]
enum At<N> {
    Left(N, StateID, StateID, usize),
    Right(N, StateID, usize),
}

/// Pushes onto `starts` where the dives of `plan`'s walk may start (a
/// [`Plan::Union`]'s branches' starts together, a [`Plan::Run`]'s from
/// each run of letters found, up to a few thousand arcs read).
fn starts_of<'s, 'a>(
    root: Node<'a>,
    plan: &'s Plan,
    barred_left: u64,
    lens: Lengths,
    prune: &Prune,
    start: State,
    starts: &mut Vec<Start<'s, Node<'a>>>,
) {
    static NOTHING: Side = Side::Nothing;
    let from_anchor = |at: Node<'a>,
                       anchor: &[u8],
                       left: &'s Side,
                       right: &'s Side,
                       barred: u64,
                       starts: &mut Vec<Start<'s, Node<'a>>>| {
        let mut st = start;
        for &c in anchor {
            match st.step(prune, c, lens.max, false) {
                Some(s) => st = s,
                None => return,
            }
        }
        let here = At::Left(at, left.start(), right.start(), anchor.len());
        starts.push((left, right, anchor.len(), barred, here, st));
    };
    match plan {
        Plan::Anchored {
            anchor,
            left,
            right,
        } => {
            if let Some((at, _)) = follow_reversed(root, anchor) {
                from_anchor(at, anchor, left, right, barred_left, starts);
            }
        }
        Plan::Run { run, left, right } => {
            let mut buf = [0u8; MAX_WORD_LEN];
            let buf = &mut buf[..run.len().min(MAX_WORD_LEN)];
            let mut budget = 4096;
            crate::query::plan::each_run(
                root,
                false,
                run,
                buf,
                &mut budget,
                &mut |at, _, anchor| from_anchor(at, anchor, left, right, 0, starts),
            );
        }
        Plan::Union(plans) => {
            for p in plans {
                starts_of(root, p, 0, lens, prune, start, starts);
            }
        }
        Plan::Backward(left) => {
            let here = At::Left(root, left.start(), NOTHING.start(), 0);
            starts.push((left, &NOTHING, 0, 0, here, start));
        }
        Plan::Forward(right) => {
            for edge in root.within(start.allowed(prune) & !1) {
                let code = edge.code();
                let (Some(rs), Some(st)) = (
                    right.step(right.start(), code),
                    start.step(prune, code, lens.max, true),
                ) else {
                    continue;
                };
                let here = At::Left(edge.target(), NOTHING.start(), rs, 1);
                starts.push((&NOTHING, right, 1, 0, here, st));
            }
        }
    }
}

/// Where dives start: the left and right sides, the anchor's length, the
/// letters barred left of it, the first place and the counts there.
type Start<'s, N> = (&'s Side, &'s Side, usize, u64, At<N>, State);

/// The size of a walk (the steps it would take), estimated by random
/// dives (Knuth's estimator: down one random path, the product of the
/// numbers of ways on at each step, averaged over the dives). Cheap: a few
/// dozen paths, whatever the walk's size; unbiased, if noisy, which is
/// enough to tell a walk of a thousand steps from one of a hundred
/// thousand. A list counts its words.
pub(crate) fn estimate(root: Node<'_>, plan: &super::plan::Planned) -> u64 {
    const DIVES: usize = 32;
    let lens = Lengths {
        min: plan.lens.min,
        max: plan.lens.max.min(MAX_WORD_LEN),
    };
    let prune = &plan.prune;
    let start = State::new(prune);
    let anything = Side::Anything;
    // The walk's starts: (its sides, the anchor's length, where it is).
    let mut starts: Vec<Start<'_, Node<'_>>> = Vec::new();
    let every = Plan::Forward(anything);
    match &plan.walk {
        Walk::Empty => return 0,
        Walk::List(_) => return plan.estimate,
        Walk::Plan { plan, barred_left } => {
            starts_of(root, plan, *barred_left, lens, prune, start, &mut starts)
        }
        // A rack's walk goes as the forward walk its budget bounds.
        Walk::Rack { .. } => starts_of(root, &every, 0, lens, prune, start, &mut starts),
    }
    if starts.is_empty() {
        return 0;
    }
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut rand = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let ways = starts.len() as f64;
    let mut total = 0f64;
    // The ways on from where a dive stands, each with the letter it
    // places (the separator places none).
    let mut next: Vec<(At<Node<'_>>, u8)> = Vec::new();
    // Whether `st` takes `code` next (counted, then taken back).
    let takes = |st: &mut State, code: u8| match st.push(prune, code, lens.max, true) {
        Some(saved) => {
            st.pop(code, saved);
            true
        }
        None => false,
    };
    for _ in 0..DIVES {
        let k = rand(starts.len());
        let (left, right, anchored, barred, mut at, mut st) = starts[k];
        let mut product = ways;
        let mut sum = ways;
        loop {
            next.clear();
            match at {
                At::Left(node, ls, rs, n) => {
                    if n >= lens.max {
                        break;
                    }
                    let cross = left.accepts(ls) && !matches!(right, Side::Nothing) && anchored > 0;
                    let mut set = if matches!(left, Side::Nothing) {
                        0
                    } else {
                        st.allowed(prune) & !barred & !1
                    };
                    if cross {
                        set |= 1;
                    }
                    for edge in node.within(set) {
                        let code = edge.code();
                        if code == SEPARATOR {
                            next.push((At::Right(edge.target(), rs, n), SEPARATOR));
                            continue;
                        }
                        if let Some(l) = left.step(ls, code) {
                            if takes(&mut st, code) {
                                next.push((At::Left(edge.target(), l, rs, n + 1), code));
                            }
                        }
                    }
                }
                At::Right(node, rs, n) => {
                    if n >= lens.max {
                        break;
                    }
                    for edge in node.within(st.allowed(prune) & !1) {
                        let code = edge.code();
                        if let Some(r) = right.step(rs, code) {
                            if takes(&mut st, code) {
                                next.push((At::Right(edge.target(), r, n + 1), code));
                            }
                        }
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            product *= next.len() as f64;
            sum += product;
            let code;
            (at, code) = next[rand(next.len())];
            if code != SEPARATOR && st.push(prune, code, lens.max, true).is_none() {
                // Not reached: `takes` said yes from this very state.
                break;
            }
        }
        total += sum;
    }
    (total / DIVES as f64).ceil() as u64
}
