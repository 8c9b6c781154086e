//! What receives the moves a [`Generator`] finds: any [`Recorder`], among
//! them [`All`], [`Count`], [`TopN`] and [`Best`], and the order of moves
//! by equity ([`rank_valued`]).

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use crate::game::leaves::MILLI;
use crate::game::moves::{Move, rank};
use crate::game::rack::Rack;

#[cfg(doc)]
use super::Generator;

/// Receives the moves a [`Generator`] finds, with their equity.
pub trait Recorder {
    /// Moves of equity below this (millipoints, see [`crate::game::equity`]) are
    /// not wanted: the generator may skip them. The default wants
    /// everything.
    #[inline]
    fn threshold(&self) -> i32 {
        i32::MIN
    }
    /// One move, with the rack tiles it leaves and its equity in
    /// millipoints: 1000 x its score, plus the leave part when the
    /// generator has a leave table ([`Generator::leaves`]).
    fn record(&mut self, mv: &Move, leave: &Rack, equity: i32);
    /// Whether the recorder wants only the best few moves, so that the
    /// generator should visit anchors best-first under an equity bound
    /// and stop early (used with a rising [`Recorder::threshold`]).
    #[inline]
    fn prunes(&self) -> bool {
        false
    }
}

/// A closure receives each move and its leave (not its equity: implement
/// [`Recorder`] for that).
impl<F: FnMut(&Move, &Rack)> Recorder for F {
    #[inline]
    fn record(&mut self, mv: &Move, leave: &Rack, _: i32) {
        self(mv, leave)
    }
}

/// Keeps every move.
#[derive(Default, Debug)]
pub struct All {
    /// The moves, in the order found.
    pub moves: Vec<Move>,
}

impl Recorder for All {
    #[inline]
    fn record(&mut self, mv: &Move, _: &Rack, _: i32) {
        self.moves.push(*mv);
    }
}

impl All {
    /// The moves, by score (see [`rank`]; [`TopN`] keeps equities).
    pub fn into_sorted(mut self) -> Vec<Move> {
        self.moves.sort_unstable_by(rank);
        self.moves
    }
}

/// Counts the moves.
#[derive(Default, Debug)]
pub struct Count(pub usize);

impl Recorder for Count {
    #[inline]
    fn record(&mut self, _: &Move, _: &Rack, _: i32) {
        self.0 += 1;
    }
}

/// A move with its equity in millipoints, as [`TopN`] and [`Best`] keep
/// it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Valued {
    /// The move.
    pub mv: Move,
    /// Its equity (see [`crate::game::equity`]).
    pub equity: i32,
}

impl Valued {
    /// The leave part of its equity, in millipoints: the leave table's
    /// value of the tiles it keeps (or, with the bag empty, the going-out
    /// bonus or the cost of the tiles kept; see [`crate::game::equity`]),
    /// 0 without a leave table. Equity is `1000 x score + leave part`.
    pub fn leave_value(&self) -> i32 {
        self.equity
            .saturating_sub(self.mv.score().saturating_mul(MILLI))
    }
}

/// The order of moves by equity: higher equity first, ties broken by
/// [`rank`] (higher score, then placements before exchanges before a
/// pass, then row, column, across before down, tiles): a total order.
/// Without a leave table the equity is 1000 x the score, and this is
/// [`rank`].
pub fn rank_valued(a: &Valued, b: &Valued) -> Ordering {
    b.equity.cmp(&a.equity).then_with(|| rank(&a.mv, &b.mv))
}

/// A move ordered by [`rank_valued`], better = greater.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Ranked(Valued);

impl Ord for Ranked {
    fn cmp(&self, other: &Ranked) -> Ordering {
        rank_valued(&other.0, &self.0)
    }
}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Ranked) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Keeps the best `n` moves by equity (see [`rank_valued`]).
#[derive(Debug)]
pub struct TopN {
    n: usize,
    heap: BinaryHeap<Reverse<Ranked>>,
}

impl TopN {
    /// Keeps the best `n`.
    pub fn new(n: usize) -> TopN {
        TopN {
            n,
            heap: BinaryHeap::with_capacity(n.min(4096) + 1),
        }
    }

    /// Empties it for another position.
    pub fn clear(&mut self) {
        self.heap.clear();
    }

    /// The moves kept, best first.
    pub fn into_sorted(self) -> Vec<Move> {
        self.into_valued().into_iter().map(|v| v.mv).collect()
    }

    /// The moves kept, best first, leaving it empty.
    pub fn take_sorted(&mut self) -> Vec<Move> {
        self.take_valued().into_iter().map(|v| v.mv).collect()
    }

    /// The moves kept with their equities, best first.
    pub fn into_valued(mut self) -> Vec<Valued> {
        self.take_valued()
    }

    /// The moves kept with their equities, best first, leaving it empty.
    pub fn take_valued(&mut self) -> Vec<Valued> {
        let mut v: Vec<Valued> = self.heap.drain().map(|r| r.0.0).collect();
        v.sort_unstable_by(rank_valued);
        v
    }
}

impl Recorder for TopN {
    #[inline]
    fn prunes(&self) -> bool {
        true
    }
    #[inline]
    fn threshold(&self) -> i32 {
        if self.heap.len() < self.n {
            i32::MIN
        } else {
            self.heap.peek().map_or(i32::MIN, |w| w.0.0.equity)
        }
    }
    #[inline]
    fn record(&mut self, mv: &Move, _: &Rack, equity: i32) {
        if self.n == 0 {
            return;
        }
        let new = Ranked(Valued { mv: *mv, equity });
        if self.heap.len() < self.n {
            self.heap.push(Reverse(new));
        } else if let Some(worst) = self.heap.peek() {
            if new > worst.0 {
                self.heap.pop();
                self.heap.push(Reverse(new));
            }
        }
    }
}

/// Keeps the best move only (by [`rank_valued`]) and its leave.
#[derive(Default, Debug)]
pub struct Best {
    /// The best move so far and its leave.
    pub best: Option<(Move, Rack)>,
    /// Its equity.
    equity: i32,
}

impl Best {
    /// The best move's equity in millipoints, if there is a move.
    pub fn equity(&self) -> Option<i32> {
        self.best.as_ref().map(|_| self.equity)
    }

    /// The best move with its equity.
    pub fn valued(&self) -> Option<Valued> {
        self.best.as_ref().map(|b| Valued {
            mv: b.0,
            equity: self.equity,
        })
    }
}

impl Recorder for Best {
    #[inline]
    fn prunes(&self) -> bool {
        true
    }
    #[inline]
    fn threshold(&self) -> i32 {
        self.best.as_ref().map_or(i32::MIN, |_| self.equity)
    }
    #[inline]
    fn record(&mut self, mv: &Move, leave: &Rack, equity: i32) {
        let better = match &self.best {
            None => true,
            Some((b, _)) => {
                let new = Valued { mv: *mv, equity };
                let old = Valued {
                    mv: *b,
                    equity: self.equity,
                };
                rank_valued(&new, &old) == Ordering::Less
            }
        };
        if better {
            self.best = Some((*mv, *leave));
            self.equity = equity;
        }
    }
}
