//! Each anchor's bound for best-first searches: the most equity any move
//! generated from it can make, and each square's bound for the walk.

use crate::game::leaves::MILLI;
use crate::lexicon::raw::masked::Entry;

use super::line::W;
use super::recorders::Recorder;
use super::walk::Walk;

/// An anchor of a best-first search: its bound, direction, line, square,
/// and the bounds of its moves (see [`Line::anchors`](super::line::Line::anchors)).
#[derive(Clone, Copy, Debug)]
pub(super) struct Anchor {
    pub(super) bound: i32,
    pub(super) d: u8,
    pub(super) line: u8,
    pub(super) p: u8,
    pub(super) lb: u8,
    pub(super) rb: u8,
}

/// A line's `start_bound` and `reach_bound` (see [`Line`](super::line::Line)).
#[derive(Clone, Debug)]
pub(super) struct LineBounds {
    pub(super) start: [i32; W],
    pub(super) reach: [i32; W],
}

impl<R: Recorder, E: Entry> Walk<'_, '_, R, E> {
    /// The values of the rack's tiles, highest first, and how many.
    pub(super) fn rack_values(&self) -> ([i32; 64], usize) {
        let mut rv = [0i32; 64];
        let mut k = 0usize;
        for code in 0..64u8 {
            for _ in 0..self.rack.counts()[code as usize] {
                if k < 64 {
                    rv[k] = self.board.values[code as usize];
                    k += 1;
                }
            }
        }
        rv[..k].sort_unstable_by(|a, b| b.cmp(a));
        (rv, k)
    }

    /// Pushes every anchor of line `line` (see [`Line::anchors`](super::line::Line::anchors)) with its
    /// bound: the highest score any move generated from it can make. A
    /// move covers a span of the line (maximal: no tile just before or
    /// after it); its score is at most the rack's tile values, highest
    /// first, on the empty squares' weights (letter multiplier times the
    /// word multiplier of the span, plus the square's own word multiplier
    /// if it makes a cross word), plus the fixed parts (board tiles,
    /// cross-word tiles, the bingo bonus). Also sets the line's
    /// `start_bound` and `reach_bound` for the walk.
    #[allow(clippy::needless_range_loop)] // `s` is a square, not just an index
    pub(super) fn anchor_bounds(
        &mut self,
        line: usize,
        rack_values: &([i32; 64], usize),
        out: &mut Vec<Anchor>,
        line_bounds: &mut LineBounds,
    ) {
        let n = self.n;
        self.load_line(line);
        let (rv, k) = (&rack_values.0, rack_values.1);
        // Empty squares from each square up to the first tile or cross-word
        // square at or after it, that one included if empty: a span from
        // a square further than the rack's tiles from one has no anchor.
        let mut reach_anchor = [u32::MAX; W];
        let mut next = u32::MAX;
        for p in (0..n).rev() {
            let l = &self.l;
            next = if l.sq[p] != 0 {
                0
            } else if l.cs[p] >= 0 {
                1
            } else {
                next.saturating_add(1)
            };
            reach_anchor[p] = next;
        }
        if reach_anchor[0] == u32::MAX {
            return; // no tile, no cross word: no anchor
        }
        let blank = self.blanks > 0;
        let best_kept = &self.best_kept;
        let l = &self.l;
        // The highest value of a rack letter each empty square takes (0
        // if only a blank can go there).
        let mut top = [0i32; W];
        for p in 0..n {
            if l.sq[p] == 0 {
                let mut bits = l.cross[p] & self.rack_mask;
                while bits != 0 {
                    let c = bits.trailing_zeros() as usize;
                    top[p] = top[p].max(self.values[c & 63]);
                    bits &= bits - 1;
                }
            }
        }
        // The best bound of the spans each square generates (as an
        // anchor) and of the spans starting on it.
        let mut best = [i32::MIN; W];
        let mut starts = [i32::MIN; W];
        let bound = |squares: &[(i32, i32, i32)], through: i32, wmul: i32, fixed: i32| {
            let m = squares.len();
            let mut weights = [0i32; 16];
            // Each square's weight times the highest value a tile the
            // square and the rack allow can have there: a square whose
            // cross word takes only an A or an E (or a blank) of the rack
            // holds at most 1 point however high the rack's Z.
            let mut most = [0i32; 16];
            for (i, &(lm, own, top)) in squares.iter().enumerate() {
                weights[i] = lm * (wmul + own);
                most[i] = weights[i] * top;
            }
            weights[..m].sort_unstable_by(|a, b| b.cmp(a));
            most[..m].sort_unstable_by(|a, b| b.cmp(a));
            // A move placing t of the m tiles scores at most the fixed
            // part and the t best values on the t best weights (the bingo
            // only if t is a rack's worth), and keeps k - t tiles: its
            // equity is bound by the best of these over t. Without a
            // leave table (best_kept all 0) that is t = m.
            // The t values on t squares score at most the lesser of the
            // two: the rack's best values on the best weights (which tile
            // goes where ignored), or each square's own best (which tiles
            // the rack holds ignored, but for the squares' letters).
            let b = through * wmul + fixed;
            let (mut sorted, mut own) = (0i32, 0i32);
            let mut bound = i32::MIN;
            for i in 0..m {
                sorted += rv[i] * weights[i];
                own += most[i];
                let b = b + sorted.min(own);
                let t = i + 1;
                let bingo = if t == self.rack_size as usize {
                    self.bingo
                } else {
                    0
                };
                let kept = best_kept[k.saturating_sub(t) & (W - 1)];
                bound = bound.max((b + bingo).saturating_mul(MILLI).saturating_add(kept));
            }
            bound
        };
        for s in 0..n {
            if (s > 0 && l.sq[s - 1] != 0) || reach_anchor[s] > k as u32 {
                continue;
            }
            let (mut m, mut through, mut wmul, mut fixed) = (0usize, 0i32, 1i32, 0i32);
            // (letter mult, own word mult if it makes a cross word, else 0)
            let mut squares = [(0i32, 0i32, 0i32); 16];
            // The last tile and the last square with a cross word seen.
            let (mut tile, mut hook) = (usize::MAX, usize::MAX);
            // The anchor of the last closed span, and that span's
            // (m, through, wmul, fixed): every part of a bound grows with
            // the span, so only the longest span of each anchor counts.
            let mut pending: Option<(usize, (usize, i32, i32, i32))> = None;
            for e in s..n {
                let t = l.sq[e];
                if t != 0 {
                    through += l.tv[e];
                    tile = e;
                } else {
                    let possible = if blank {
                        l.cross[e]
                    } else {
                        l.cross[e] & self.rack_mask
                    };
                    if possible == 0 || m == k || m == squares.len() {
                        break;
                    }
                    wmul *= l.wm[e];
                    let own = if l.cs[e] >= 0 {
                        fixed += l.cs[e] * l.wm[e];
                        hook = e;
                        l.wm[e]
                    } else {
                        0
                    };
                    squares[m] = (l.lm[e], own, top[e]);
                    m += 1;
                }
                let closed = e + 1 == n || l.sq[e + 1] == 0;
                let anchor = if tile != usize::MAX { tile } else { hook };
                if closed && e != s && m > 0 && anchor != usize::MAX {
                    if let Some((a, (pm, pt, pw, pf))) = pending {
                        if a != anchor {
                            let b = bound(&squares[..pm], pt, pw, pf);
                            best[a] = best[a].max(b);
                            starts[s] = starts[s].max(b);
                        }
                    }
                    pending = Some((anchor, (m, through, wmul, fixed)));
                }
            }
            if let Some((a, (pm, pt, pw, pf))) = pending {
                let b = bound(&squares[..pm], pt, pw, pf);
                best[a] = best[a].max(b);
                starts[s] = starts[s].max(b);
            }
        }
        let (d, line8) = (self.d as u8, line as u8);
        self.l.anchors(self.n, |p, lb, rb| {
            if best[p] != i32::MIN {
                out.push(Anchor {
                    bound: best[p],
                    d,
                    line: line8,
                    p: p as u8,
                    lb: lb as u8,
                    rb: rb as u8,
                });
            }
        });
        // What the walk checks as it goes left: no move starting on the
        // square (or, for `reach_bound`, at or left of it) can score more.
        let mut reach = i32::MIN;
        for (p, &start) in starts.iter().enumerate().take(n) {
            reach = reach.max(start);
            line_bounds.start[p] = start;
            line_bounds.reach[p] = reach;
        }
    }
}
