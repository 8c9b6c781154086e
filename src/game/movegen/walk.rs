//! The GADDAG walk from an anchor: left parts, the separator, right
//! parts, the score kept up to date square by square, and a word found.

use crate::alphabet::tileset::TileSet;
use crate::game::board::Board;
use crate::game::equity::{LeaveTable, Stage};
use crate::game::layout::MAX_SIZE;
use crate::game::leaves::{Leaves, MILLI};
use crate::game::moves::{Move, MoveKind, THROUGH};
use crate::game::rack::Rack;
use crate::lexicon::gaddag::SEPARATOR;
use crate::lexicon::raw::masked::{Entry, MNode, Table};

use super::line::{Line, W};
use super::recorders::Recorder;

/// What the walk needs to value a move beyond its score.
#[derive(Clone, Copy)]
pub(super) struct Valuer<'v> {
    pub(super) leaves: &'v Leaves,
    pub(super) table: &'v LeaveTable,
    pub(super) stage: Stage,
    pub(super) tiles: &'v TileSet,
}

impl Valuer<'_> {
    #[inline]
    pub(super) fn part(&self, kept: &Rack) -> i32 {
        self.table.part(self.leaves, self.stage, kept, self.tiles)
    }
}

/// The walk of one generation: the board, the recorder, the rack left,
/// the line being walked and the anchor.
pub(super) struct Walk<'w, 'b, R: Recorder, E: Entry> {
    /// The arc table with masks (see [`Masked`](crate::lexicon::raw::masked::Masked)).
    pub(super) t: &'w Table<E>,
    pub(super) board: &'w Board<'b>,
    pub(super) rec: &'w mut R,
    /// Values a move's leave, when ranking by equity.
    pub(super) valuer: Option<Valuer<'w>>,
    /// The best leave part of a move keeping `k` tiles (all 0 without a
    /// leave table).
    pub(super) best_kept: [i32; W],
    /// Rack tiles left: letters the walk has placed are taken off; blanks
    /// stay until [`Walk::found`] decides what they stand for.
    pub(super) rack: Rack,
    /// Letters (not blanks) with a count above 0.
    pub(super) rack_mask: u64,
    /// Face value of each tile code.
    pub(super) values: [i32; 64],
    /// Tiles left on the rack (blanks the walk has committed taken off).
    pub(super) left: u32,
    /// Placed tiles the rack lacks, which its blanks must stand for: the
    /// walk does not take blanks ([`Walk::blanks`]); [`Walk::found`] lists
    /// every way they can stand in.
    pub(super) over: u32,
    /// The tiles of the placements blanks must stand for, in the order
    /// the walk made them (`over` of them).
    pub(super) over_codes: [u8; W],
    /// Blanks on the rack.
    pub(super) blanks: u32,
    /// Scratch of `found`: the word offset of each placed tile, its code,
    /// and what the score loses if a blank stands for it.
    pub(super) placed_at: [u8; W],
    pub(super) placed_code: [u8; W],
    pub(super) loss: [i32; W],
    /// Tiles on the rack at the start.
    pub(super) rack_len: u32,
    pub(super) rack_size: u32,
    pub(super) bingo: i32,
    /// Direction and line being walked.
    pub(super) d: usize,
    pub(super) line: usize,
    /// The anchor's square, the first square its left parts may cover
    /// and the first its right parts may not (see [`Line::anchors`]).
    pub(super) anchor: usize,
    pub(super) lb: usize,
    pub(super) rb: usize,
    pub(super) l: Line,
    pub(super) n: usize,
}

impl<'w, R: Recorder, E: Entry> Walk<'w, '_, R, E> {
    /// Copies line `line` of direction `self.d` into the line buffers.
    pub(super) fn load_line(&mut self, line: usize) {
        self.line = line;
        self.l.load(self.board, self.d, line, self.n);
    }

    pub(super) fn line_moves(&mut self, line: usize) {
        self.load_line(line);
        let mut anchors = [(0u8, 0u8, 0u8); W];
        let mut k = 0;
        self.l.anchors(self.n, |p, lb, rb| {
            anchors[k & (W - 1)] = (p as u8, lb as u8, rb as u8);
            k += 1;
        });
        for &(p, lb, rb) in &anchors[..k.min(W)] {
            self.start_anchor(p as usize, lb as usize, rb as usize);
        }
    }

    /// Every move from the anchor on square `p` whose left parts stop at
    /// square `lb` and right parts before square `rb`: from a tile (the
    /// last of its run), the walk follows the run leftwards first; from
    /// an empty square, it starts by placing a tile there.
    pub(super) fn start_anchor(&mut self, p: usize, lb: usize, rb: usize) {
        self.anchor = p;
        self.lb = lb;
        self.rb = rb.min(self.n);
        let root = self.t.root();
        self.gen_left(p, root, 0, 1, 0);
    }

    /// Fills square `pos` (at or left of the anchor) from `node`.
    fn gen_left(&mut self, pos: usize, node: MNode, main: i32, wm: i32, cross: i32) {
        let pos = pos & (W - 1);
        // Best-first: no move starting here or further left can make the
        // recorder's threshold.
        if self.l.reach_bound[pos] < self.rec.threshold() {
            return;
        }
        let t = self.l.sq[pos];
        if t != 0 {
            if let Some(e) = self.t.edge(node, t & 63) {
                let v = self.l.tv[pos];
                self.go_left(pos, e, main + v, wm, cross);
            }
            return;
        }
        let possible = self.possible(pos);
        if possible == 0 {
            return;
        }
        let (lm, w, cs) = (self.l.lm[pos], self.l.wm[pos], self.l.cs[pos]);
        let wm2 = wm * w;
        let table = self.t;
        for (c, e) in table.within(node, possible) {
            // Scored as a rack tile; `found` lists the ways blanks can
            // stand for it.
            let v = self.values[c as usize & 63] * lm;
            let cross2 = if cs >= 0 { cross + (cs + v) * w } else { cross };
            let real = self.place(pos, c);
            self.go_left(pos, e, main + v, wm2, cross2);
            self.unplace(c, real);
        }
        self.l.placed[pos] = 0;
    }

    /// After reading edge `e` at square `pos` leftwards. The child is
    /// stepped into if it has arcs and the next square has a tile or can
    /// take a letter of the rack; its arcs are read there, once. The
    /// square right of the anchor is always empty (or off the board).
    #[inline(always)]
    fn go_left(&mut self, pos: usize, e: E, main: i32, wm: i32, cross: i32) {
        let open_left = pos == 0 || self.l.sq[(pos - 1) & (W - 1)] == 0;
        if open_left && self.left < self.rack_len && e.accepts() {
            self.found(pos, self.anchor, main, wm, cross);
        }
        let child = MNode::of(e);
        if pos > self.lb {
            let p = (pos - 1) & (W - 1);
            let t = self.l.sq[p];
            // The child's codes say whether it reads the tile there, or
            // a letter the square and the rack allow.
            let next = if t != 0 {
                child.mask >> (t & 63) & 1 != 0
            } else {
                self.left > 0 && self.possible(p) & child.mask != 0
            };
            if next {
                self.gen_left(p, child, main, wm, cross);
            }
        }
        if open_left
            && self.anchor + 1 < self.rb
            && self.left > 0
            && self.l.start_bound[pos] >= self.rec.threshold()
        {
            if let Some(sep) = self.t.edge(child, SEPARATOR) {
                let right = MNode::of(sep);
                if right.mask & self.possible(self.anchor + 1) != 0 {
                    self.gen_right(self.anchor + 1, right, pos, main, wm, cross);
                }
            }
        }
    }

    /// Fills empty square `pos` (right of the anchor, left of `rb`) from
    /// `node`; the word starts at `start`.
    fn gen_right(&mut self, pos: usize, node: MNode, start: usize, main: i32, wm: i32, cross: i32) {
        let pos = pos & (W - 1);
        let possible = self.possible(pos);
        let (lm, w, cs) = (self.l.lm[pos], self.l.wm[pos], self.l.cs[pos]);
        let wm2 = wm * w;
        let table = self.t;
        for (c, e) in table.within(node, possible) {
            // Scored as a rack tile; `found` lists the ways blanks can
            // stand for it.
            let v = self.values[c as usize & 63] * lm;
            let cross2 = if cs >= 0 { cross + (cs + v) * w } else { cross };
            let real = self.place(pos, c);
            self.go_right(pos, e, start, main + v, wm2, cross2);
            self.unplace(c, real);
        }
        self.l.placed[pos] = 0;
    }

    /// After reading edge `e` at square `pos` rightwards: the square after
    /// it is empty or off the board (right parts stop before `rb`, which
    /// is one or the other), so the word may end here.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn go_right(&mut self, pos: usize, e: E, start: usize, main: i32, wm: i32, cross: i32) {
        if e.accepts() {
            self.found(start, pos, main, wm, cross);
        }
        if pos + 1 < self.rb && self.left > 0 {
            let child = MNode::of(e);
            let q = (pos + 1) & (W - 1);
            if child.mask & self.possible(q) != 0 {
                self.gen_right(q, child, start, main, wm, cross);
            }
        }
    }

    /// Puts letter `c` on empty square `pos`, taken from the rack if the
    /// rack has one (`true`), else charged to a blank (`false`: the walk
    /// does not take the blank, [`Walk::found`] decides which placed tile
    /// it stands for). With rack `AE?` placing E takes the E; placing a
    /// second E charges it to the blank (`over` 1, `over_codes` `[E]`).
    /// [`Walk::unplace`] undoes it; the caller clears `placed[pos]` once
    /// it has tried every letter there.
    #[inline(always)]
    fn place(&mut self, pos: usize, c: u8) -> bool {
        self.l.placed[pos & (W - 1)] = c;
        let real = self.rack.counts()[c as usize & 63] > 0;
        if real {
            self.take(c);
        } else {
            self.over_codes[self.over as usize & (W - 1)] = c;
            self.over += 1;
            self.left -= 1;
        }
        real
    }

    /// Undoes [`Walk::place`] of letter `c`, `real` what it returned.
    #[inline(always)]
    fn unplace(&mut self, c: u8, real: bool) {
        if real {
            self.give(c);
        } else {
            self.over -= 1;
            self.left += 1;
        }
    }

    /// The letters that may go on empty square `pos` with the rack left.
    #[inline]
    fn possible(&self, pos: usize) -> u64 {
        let cross = self.l.cross[pos & (W - 1)];
        if self.over < self.blanks {
            cross
        } else {
            cross & self.rack_mask
        }
    }

    #[inline]
    fn take(&mut self, c: u8) {
        let k = &mut self.rack.counts_mut()[c as usize & 63];
        *k -= 1;
        if *k == 0 {
            self.rack_mask &= !(1u64 << c);
        }
        self.left -= 1;
    }

    #[inline]
    fn give(&mut self, c: u8) {
        self.rack.counts_mut()[c as usize & 63] += 1;
        self.rack_mask |= 1u64 << c;
        self.left += 1;
    }

    /// A word from `start` to `end` (inclusive) was completed.
    #[inline(never)]
    fn found(&mut self, start: usize, end: usize, main: i32, wm: i32, cross: i32) {
        let used = self.rack_len - self.left;
        if end == start {
            return; // one-tile "words" are not words
        }
        if self.d == 1 && used == 1 {
            // A lone tile with a horizontal neighbour is listed across.
            let p = (start..=end)
                .find(|&p| self.l.placed[p & (W - 1)] != 0)
                .unwrap_or(start);
            if self.l.cs[p & (W - 1)] >= 0 {
                return;
            }
        }
        let bonus = if used == self.rack_size {
            self.bingo
        } else {
            0
        };
        let score = main * wm + cross + bonus;
        if !self.wants(score) {
            return;
        }
        let len = (end - start + 1).min(MAX_SIZE);
        let (row, col) = if self.d == 0 {
            (self.line, start)
        } else {
            (start, self.line)
        };
        // The move built in place (no copy of a variable length).
        let mut mv = Move {
            kind: MoveKind::Place,
            row: row as u8,
            col: col as u8,
            down: self.d != 0,
            len: len as u8,
            score,
            tiles: [0; MAX_SIZE],
        };
        for (i, sqr) in mv.tiles.iter_mut().enumerate().take(len) {
            let p = (start + i) & (W - 1);
            let t = self.l.placed[p];
            *sqr = if t != 0 { t } else { self.l.sq[p] | THROUGH };
        }
        if self.blanks == 0 {
            let equity = self.equity_of(score);
            self.rec.record(&mv, &self.rack, equity);
            return;
        }
        // The placed tiles, and what a blank standing for each would take
        // off the score (its letter score in the main word and, if it
        // makes one, in its cross word).
        let mut k = 0;
        for i in 0..len {
            let p = (start + i) & (W - 1);
            let c = self.l.placed[p];
            if c != 0 {
                let own = if self.l.cs[p] >= 0 { self.l.wm[p] } else { 0 };
                let j = k & (W - 1);
                self.placed_at[j] = i as u8;
                self.placed_code[j] = c;
                self.loss[j] = self.values[c as usize & 63] * self.l.lm[p] * (wm + own);
                k += 1;
            }
        }
        if self.blanks == 1 {
            self.one_blank_variants(k, score, &mut mv);
            return;
        }
        // Bit j of `a` (`b`) for the j-th placed tile if it is of the first
        // (second) letter charged to a blank, every bit if none is.
        let of =
            |c: u8| (0..k.min(W)).fold(0u32, |m, j| m | ((self.placed_code[j] == c) as u32) << j);
        let all = if k >= 32 { u32::MAX } else { (1u32 << k) - 1 };
        let over = self.over as usize;
        let a = if over >= 1 {
            of(self.over_codes[0])
        } else {
            all
        };
        let b = if over >= 2 {
            of(self.over_codes[1])
        } else {
            all
        };
        self.blank_variants(k, a, b, score, &mut mv);
    }

    /// Whether a word of this score, keeping `left` tiles, may reach the
    /// recorder's threshold: its score and the best leave part of that
    /// many tiles.
    #[inline]
    pub(super) fn wants(&self, score: i32) -> bool {
        score * MILLI + self.best_kept[self.left as usize & (W - 1)] >= self.rec.threshold()
    }

    /// The equity of a move of this score keeping the walk's rack.
    #[inline]
    pub(super) fn equity_of(&self, score: i32) -> i32 {
        score * MILLI + self.valuer.as_ref().map_or(0, |v| v.part(&self.rack))
    }
}
