//! One row or column copied out of the board for the walk, and its
//! anchors.

use crate::game::board::Board;

/// Line buffers: a power of two above the largest board, so that masked
/// indices need no bounds checks.
pub(super) const W: usize = 32;

/// One row or column, copied out of the board for the walk.
#[derive(Clone, Debug)]
pub(super) struct Line {
    /// Tiles (code | BLANK), 0 empty.
    pub(super) sq: [u8; W],
    /// Face value of the tile on each square (0 for blanks and empties).
    pub(super) tv: [i32; W],
    /// Cross sets (0 on occupied squares).
    pub(super) cross: [u64; W],
    /// Cross scores, -1 without a cross word.
    pub(super) cs: [i32; W],
    /// Letter and word multipliers.
    pub(super) lm: [i32; W],
    pub(super) wm: [i32; W],
    /// Tiles placed so far by the walk (code | BLANK), 0 elsewhere.
    pub(super) placed: [u8; W],
    /// For best-first searches: the most a move whose main word starts
    /// on each square can score (its bound), and the most for any start at
    /// or left of each square; `i32::MAX` (no limit) otherwise.
    pub(super) start_bound: [i32; W],
    pub(super) reach_bound: [i32; W],
}

impl Line {
    /// An empty line (every square empty, no cross word, no multiplier).
    pub(super) fn new() -> Line {
        Line {
            sq: [0; W],
            tv: [0; W],
            cross: [0; W],
            cs: [-1; W],
            lm: [1; W],
            wm: [1; W],
            placed: [0; W],
            start_bound: [i32::MAX; W],
            reach_bound: [i32::MAX; W],
        }
    }

    /// Copies line `line` of direction `d` of `b` (`n` squares a line)
    /// into the line buffers.
    pub(super) fn load(&mut self, b: &Board<'_>, d: usize, line: usize, n: usize) {
        let base = line * n;
        let l = self;

        let n = n.min(W);
        let range = base..base + n;
        let squares = b.sq[d][range.clone()]
            .iter()
            .zip(&b.cross[d][range.clone()]);
        let more = b.cross_score[d][range.clone()]
            .iter()
            .zip(&b.lmul[d][range.clone()])
            .zip(&b.wmul[d][range]);
        for (p, ((&t, &cross), ((&cs, &lm), &wm))) in squares.zip(more).enumerate() {
            l.sq[p] = t;
            l.tv[p] = b.values[t as usize];
            l.cross[p] = cross;
            l.cs[p] = cs as i32;
            l.lm[p] = lm as i32;
            l.wm[p] = wm as i32;
        }
        l.placed = [0; W];
        l.start_bound = [i32::MAX; W];
        l.reach_bound = [i32::MAX; W];
        l.sq[n..].fill(0);
        l.cross[n..].fill(0);
    }

    /// Calls `f(square, lb, rb)` for every anchor of the line, of `n`
    /// squares (see [`Walk::start_anchor`](super::walk::Walk::start_anchor)),
    /// each move of the line generated from exactly one: the moves touching a run of tiles from the last tile
    /// of the rightmost run they touch (left parts as long as the line
    /// allows, right parts stopping short of the square before the next
    /// run); the others (joined to the board by cross words only) from
    /// the rightmost square with a cross word they cover, within the empty
    /// stretch between the squares next to runs. In `..AB...CD..` (`.`
    /// empty, `h` a square with a cross word), `...hh.AB..h..CD` has the
    /// anchors B (left parts to the edge, right parts up to the square
    /// before the one next to C) and D, then the `h` squares right to
    /// left, each one's right parts stopping before the last.
    pub(super) fn anchors(&self, n: usize, mut f: impl FnMut(usize, usize, usize)) {
        let l = self;
        let mut p = 0;
        // Runs of tiles: [start, end) of the run last met.
        while p < n {
            if l.sq[p] == 0 {
                p += 1;
                continue;
            }
            let mut e = p;
            while e + 1 < n && l.sq[e + 1] != 0 {
                e += 1;
            }
            // The next run's first tile, if any.
            let mut next = e + 1;
            while next < n && l.sq[next] == 0 {
                next += 1;
            }
            let rb = if next < n { next - 1 } else { n };
            f(e, 0, rb);
            p = next;
        }
        // Empty stretches: squares with a cross word not next to a run.
        let mut s = 0;
        while s < n {
            if l.sq[s] != 0 {
                s += 1;
                continue;
            }
            let mut e = s;
            while e + 1 < n && l.sq[e + 1] == 0 {
                e += 1;
            }
            // [lo, hi): the stretch less the squares next to runs.
            let lo = if s > 0 { s + 1 } else { s };
            let hi = if e + 1 < n { e } else { e + 1 };
            let mut rb = hi;
            for a in (lo..hi).rev() {
                if l.cs[a] >= 0 && l.cross[a] != 0 {
                    f(a, lo, rb);
                    rb = a;
                }
            }
            s = e + 1;
        }
    }
}
