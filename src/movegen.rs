//! Move generation: every legal placement of a rack on a board, scored,
//! by Gordon's GADDAG algorithm, handed to a [`Recorder`].
//!
//! For each line (rows for across plays, columns for down plays) and each
//! anchor (an empty square next to a tile, or the start square on an empty
//! board), the walk places tiles leftwards from the anchor through the
//! GADDAG's reversed prefixes, crosses the separator, then places tiles
//! rightwards. Squares are filtered by their cross sets before an edge is
//! followed, and a node is stepped into only if its letters allow what
//! the next square needs; the score is kept up to date square by square,
//! so a move is scored when it is found. The left part never steps on
//! another anchor, so each move is found once, from the leftmost anchor
//! it covers.
//!
//! Blanks are chosen when a word is found, not while walking: each path
//! of the GADDAG is walked once, a placed letter the rack lacks charged to
//! a blank (so a blank tries exactly the letters the square and the
//! lexicon allow), and the found word is listed once for every way the
//! rack's blanks can stand for its placed tiles, each variant's score the
//! word's less what the blanks take off.
//!
//! Listing conventions: the coordinate is the first square of the main
//! word; a one-tile play is listed once (across if the tile has a
//! horizontal neighbour, else down); on an empty board only across plays
//! covering the start square with at least two tiles; exchanges and pass
//! only when asked ([`Generator::exchanges`]).
//!
//! ```
//! use lexq::{Generator, Lexicon, Position, TopN};
//! let lex = Lexicon::embedded();
//! let pos = Position::from_cgp(&lex,
//!     "15/15/15/15/15/15/15/4CARE7/15/15/15/15/15/15/15 AEINRST/ 12/0 0")?;
//! let mut generator = Generator::new();
//! let mut top = TopN::new(5);
//! generator.generate(&pos.board, &pos.rack(), &mut top);
//! for mv in top.into_sorted() {
//!     println!("{} {}", mv.notation(lex.alphabet()), mv.score());
//! }
//! # Ok::<(), lexq::Error>(())
//! ```

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use crate::board::{BLANK, Board};
use crate::layout::MAX_SIZE;
use crate::moves::{Move, MoveKind, THROUGH};
use crate::rack::Rack;
use crate::raw::{Arcs, Edge, Node};

/// Receives the moves a [`Generator`] finds.
pub trait Recorder {
    /// Moves scoring less than this are not wanted (the generator may skip
    /// them). The default wants everything.
    #[inline]
    fn threshold(&self) -> i32 {
        i32::MIN
    }
    /// One move, with the rack tiles it leaves.
    fn record(&mut self, mv: &Move, leave: &Rack);
    /// Whether the recorder wants only the best few moves, so that the
    /// generator should visit anchors best-first under a score bound and
    /// stop early (used with a rising [`Recorder::threshold`]).
    #[inline]
    fn prunes(&self) -> bool {
        false
    }
}

impl<F: FnMut(&Move, &Rack)> Recorder for F {
    #[inline]
    fn record(&mut self, mv: &Move, leave: &Rack) {
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
    fn record(&mut self, mv: &Move, _: &Rack) {
        self.moves.push(*mv);
    }
}

impl All {
    /// The moves, best first (see [`rank`]).
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
    fn record(&mut self, _: &Move, _: &Rack) {
        self.0 += 1;
    }
}

/// The order moves are listed in: higher score first, then placements
/// before exchanges before a pass, then by row, column, across before
/// down, and tiles — a total order, so lists are the same whatever order
/// the generator finds moves in.
pub fn rank(a: &Move, b: &Move) -> Ordering {
    let kind = |m: &Move| match m.kind() {
        MoveKind::Place => 0,
        MoveKind::Exchange => 1,
        MoveKind::Pass => 2,
    };
    b.score()
        .cmp(&a.score())
        .then(kind(a).cmp(&kind(b)))
        .then(a.row.cmp(&b.row))
        .then(a.col.cmp(&b.col))
        .then(a.down.cmp(&b.down))
        .then(a.squares().cmp(b.squares()))
}

/// A move ordered by [`rank`], better = greater.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Ranked(Move);

impl Ord for Ranked {
    fn cmp(&self, other: &Ranked) -> Ordering {
        rank(&other.0, &self.0)
    }
}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Ranked) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Keeps the best `n` moves (by [`rank`]).
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
        let mut v: Vec<Move> = self.heap.into_iter().map(|r| r.0.0).collect();
        v.sort_unstable_by(rank);
        v
    }

    /// The moves kept, best first, leaving it empty.
    pub fn take_sorted(&mut self) -> Vec<Move> {
        let mut v: Vec<Move> = self.heap.drain().map(|r| r.0.0).collect();
        v.sort_unstable_by(rank);
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
            self.heap.peek().map_or(i32::MIN, |w| w.0.0.score())
        }
    }
    #[inline]
    fn record(&mut self, mv: &Move, _: &Rack) {
        if self.n == 0 {
            return;
        }
        if self.heap.len() < self.n {
            self.heap.push(Reverse(Ranked(*mv)));
        } else if let Some(worst) = self.heap.peek() {
            if Ranked(*mv) > worst.0 {
                self.heap.pop();
                self.heap.push(Reverse(Ranked(*mv)));
            }
        }
    }
}

/// Keeps the best move only (by [`rank`]) and its leave.
#[derive(Default, Debug)]
pub struct Best {
    /// The best move so far and its leave.
    pub best: Option<(Move, Rack)>,
}

impl Recorder for Best {
    #[inline]
    fn prunes(&self) -> bool {
        true
    }
    #[inline]
    fn threshold(&self) -> i32 {
        self.best.as_ref().map_or(i32::MIN, |b| b.0.score())
    }
    #[inline]
    fn record(&mut self, mv: &Move, leave: &Rack) {
        let better = match &self.best {
            None => true,
            Some((b, _)) => rank(mv, b) == Ordering::Less,
        };
        if better {
            self.best = Some((*mv, *leave));
        }
    }
}

/// A reusable move generator. Its only scratch space is what best-first
/// searches keep (the anchor list and the board's lines), kept between
/// positions: a reused generator allocates nothing.
///
/// Recorders that want only the best moves ([`Best`], [`TopN`]) get a
/// best-first search: every anchor is given an upper bound on the score
/// of any move made from it (the rack's tile values placed on the
/// squares' multipliers in the best order, cross sets ignored), anchors are
/// visited from the highest bound down, and the search stops at the first
/// bound below the recorder's threshold. Within an anchor, the walk skips
/// the squares where every move starting there (or further left) is bound
/// below the threshold.
#[derive(Clone, Debug, Default)]
pub struct Generator {
    exchanges: bool,
    /// Tiles in the bag, when known (exchanges need a rack's worth).
    bag: Option<usize>,
    /// (bound, direction, line, square) of every anchor, for best-first.
    anchors: Vec<(i32, u8, u8, u8)>,
    /// Every line of the board in both directions, loaded with its anchors
    /// marked while the bounds are computed, for best-first searches that
    /// then go from line to line.
    lines: Vec<Line>,
}

impl Generator {
    /// A generator listing placements only.
    pub fn new() -> Generator {
        Generator::default()
    }

    /// Whether to list exchanges (every distinct set of rack tiles) and the
    /// pass as well. Exchanges are listed only if the bag holds at least
    /// a rack's worth of tiles, when it is known ([`Generator::set_bag`]).
    pub fn exchanges(mut self, on: bool) -> Generator {
        self.exchanges = on;
        self
    }

    /// The number of tiles in the bag, if known (for the next positions;
    /// [`crate::Position::bag_len`] counts them): with fewer than a rack's
    /// worth, no exchange is legal and only the pass is listed.
    pub fn set_bag(&mut self, tiles: Option<usize>) {
        self.bag = tiles;
    }

    /// Every legal move of `rack` on `board`, to `rec`, walking the
    /// lexicon's arc table.
    pub fn generate(&mut self, board: &Board<'_>, rack: &Rack, rec: &mut impl Recorder) {
        let g = board.arcs;
        let n = board.n;
        let mut w = Walk {
            g,
            board,
            rec,
            counts: *rack.counts(),
            rack_mask: 0,
            values: {
                let mut v = [0; 64];
                v.copy_from_slice(&board.values[..64]);
                v
            },
            left: rack.len() as u32,
            over: 0,
            over_code: 0,
            rack0: *rack.counts(),
            placed_at: [0; W],
            loss: [0; W],
            rack_len: rack.len() as u32,
            rack_size: board.tiles.rack_size() as u32,
            bingo: board.tiles.bingo(),
            d: 0,
            line: 0,
            anchor: 0,
            anchor_open_right: true,
            l: Line {
                sq: [0; W],
                tv: [0; W],
                cross: [0; W],
                cs: [-1; W],
                lm: [1; W],
                wm: [1; W],
                anchor: [false; W],
                placed: [0; W],
                start_bound: [i32::MAX; W],
                reach_bound: [i32::MAX; W],
            },
            n,
        };
        for c in 1..64 {
            if w.counts[c] > 0 {
                w.rack_mask |= 1u64 << c;
            }
        }
        if w.left > 0 {
            if board.is_empty() {
                let (sr, sc) = board.layout.start();
                w.d = 0;
                w.load_line(sr);
                w.l.anchor[sc] = true;
                w.start_anchor(sc);
            } else if w.rec.prunes() {
                self.anchors.clear();
                self.lines.clear();
                let values = w.rack_values();
                for d in 0..2 {
                    w.d = d;
                    for line in 0..n {
                        w.anchor_bounds(line, &values, &mut self.anchors);
                        self.lines.push(w.l.clone());
                    }
                }
                self.anchors.sort_unstable_by(|a, b| {
                    b.0.cmp(&a.0).then((a.1, a.2, a.3).cmp(&(b.1, b.2, b.3)))
                });
                let mut loaded = None;
                for &(bound, d, line, p) in &self.anchors {
                    if bound < w.rec.threshold() {
                        break;
                    }
                    if loaded != Some((d, line)) {
                        w.d = d as usize;
                        w.line = line as usize;
                        if let Some(l) = self.lines.get(d as usize * n + line as usize) {
                            w.l.clone_from(l);
                        }
                        loaded = Some((d, line));
                    }
                    w.start_anchor(p as usize);
                }
            } else {
                for d in 0..2 {
                    w.d = d;
                    for line in 0..n {
                        w.line_moves(line);
                    }
                }
            }
        }
        if self.exchanges {
            if self.bag.is_none_or(|b| b >= board.tiles.rack_size()) {
                exchanges(rack, rec);
            }
            let pass = Move::pass();
            rec.record(&pass, rack);
        }
    }
}

/// Every distinct non-empty set of rack tiles as an exchange.
fn exchanges(rack: &Rack, rec: &mut impl Recorder) {
    let codes: Vec<(u8, u8)> = (0..64u8)
        .filter(|&c| rack.count(c) > 0)
        .map(|c| (c, rack.count(c) as u8))
        .collect();
    let mut chosen: Vec<u8> = Vec::with_capacity(rack.len());
    fn go(
        i: usize,
        codes: &[(u8, u8)],
        chosen: &mut Vec<u8>,
        rack: &Rack,
        rec: &mut impl Recorder,
    ) {
        if i == codes.len() {
            if !chosen.is_empty() {
                let mv = Move::exchange(chosen);
                rec.record(&mv, &mv.leave(rack));
            }
            return;
        }
        let (c, k) = codes[i];
        for take in 0..=k {
            for _ in 0..take {
                chosen.push(c);
            }
            go(i + 1, codes, chosen, rack, rec);
            for _ in 0..take {
                chosen.pop();
            }
        }
    }
    go(0, &codes, &mut chosen, rack, rec);
}

/// Line buffers: a power of two above the largest board, so that masked
/// indices need no bounds checks.
const W: usize = 32;

/// One row or column, copied out of the board for the walk.
#[derive(Clone, Debug)]
struct Line {
    /// Tiles (code | BLANK), 0 empty.
    sq: [u8; W],
    /// Face value of the tile on each square (0 for blanks and empties).
    tv: [i32; W],
    /// Cross sets (0 on occupied squares).
    cross: [u64; W],
    /// Cross scores, -1 without a cross word.
    cs: [i32; W],
    /// Letter and word multipliers.
    lm: [i32; W],
    wm: [i32; W],
    anchor: [bool; W],
    /// Tiles placed so far by the walk (code | BLANK), 0 elsewhere.
    placed: [u8; W],
    /// For best-first searches: the most a move whose main word starts
    /// on each square can score (its bound), and the most for any start at
    /// or left of each square; `i32::MAX` (no limit) otherwise.
    start_bound: [i32; W],
    reach_bound: [i32; W],
}

struct Walk<'w, 'b, R: Recorder> {
    g: &'w Arcs,
    board: &'w Board<'b>,
    rec: &'w mut R,
    /// Rack tiles left, index 0 = blanks.
    counts: [u8; 64],
    /// Letters (not blanks) with a count above 0.
    rack_mask: u64,
    /// Face value of each tile code.
    values: [i32; 64],
    /// Tiles left on the rack (blanks the walk has committed taken off).
    left: u32,
    /// Placed tiles the rack lacks, which its blanks must stand for: the
    /// walk does not take blanks ([`Walk::blanks`]); [`Walk::found`] lists
    /// every way they can stand in.
    over: u32,
    /// The tile of the last placement a blank must stand for.
    over_code: u8,
    /// The rack at the start (index 0 = blanks).
    rack0: [u8; 64],
    /// Scratch of `found`: the word offset of each placed tile, and what
    /// its score loses if a blank stands for it.
    placed_at: [u8; W],
    loss: [i32; W],
    /// Tiles on the rack at the start.
    rack_len: u32,
    rack_size: u32,
    bingo: i32,
    /// Direction and line being walked.
    d: usize,
    line: usize,
    anchor: usize,
    /// Whether the square right of the anchor is empty or off the board.
    anchor_open_right: bool,
    l: Line,
    n: usize,
}

impl<'w, R: Recorder> Walk<'w, '_, R> {
    /// Copies line `line` of direction `self.d` into the line buffers.
    fn load_line(&mut self, line: usize) {
        let n = self.n;
        let b = self.board;
        let d = self.d;
        let base = line * n;
        self.line = line;
        let l = &mut self.l;
        for p in 0..n {
            let t = b.sq[d][base + p];
            l.sq[p] = t;
            l.tv[p] = b.values[t as usize];
            l.cross[p] = b.cross[d][base + p];
            l.cs[p] = b.cross_score[d][base + p] as i32;
            l.lm[p] = b.lmul[d][base + p] as i32;
            l.wm[p] = b.wmul[d][base + p] as i32;
            l.placed[p] = 0;
        }
        l.start_bound = [i32::MAX; W];
        l.reach_bound = [i32::MAX; W];
        for p in n..W {
            l.sq[p] = 0;
            l.cross[p] = 0;
            l.anchor[p] = false;
        }
    }

    /// Marks the anchors of the loaded line; whether there are any.
    fn mark_anchors(&mut self) -> bool {
        let n = self.n;
        let l = &mut self.l;
        let mut any = false;
        for p in 0..n {
            let a = l.sq[p] == 0
                && (l.cs[p] >= 0 || (p > 0 && l.sq[p - 1] != 0) || (p + 1 < n && l.sq[p + 1] != 0));
            l.anchor[p] = a;
            any |= a;
        }
        any
    }

    /// The values of the rack's tiles, highest first, and how many.
    fn rack_values(&self) -> ([i32; 64], usize) {
        let mut rv = [0i32; 64];
        let mut k = 0usize;
        for code in 0..64u8 {
            for _ in 0..self.counts[code as usize] {
                if k < 64 {
                    rv[k] = self.board.values[code as usize];
                    k += 1;
                }
            }
        }
        rv[..k].sort_unstable_by(|a, b| b.cmp(a));
        (rv, k)
    }

    /// Pushes (bound, direction, line, square) for every anchor of line
    /// `line` that can start a move: the bound is the highest score any
    /// move generated from that anchor can make. A move covers a span of
    /// the line (maximal: no tile just before or after it) and is
    /// generated from the leftmost anchor among the span's empty squares;
    /// its score is at most the rack's tile values, highest first, on the
    /// empty squares' weights (letter multiplier times the word multiplier
    /// of the span, plus the square's own word multiplier if it makes a
    /// cross word), plus the fixed parts (board tiles, cross-word tiles,
    /// the bingo bonus).
    #[allow(clippy::needless_range_loop)] // `s` is a square, not just an index
    fn anchor_bounds(
        &mut self,
        line: usize,
        rack_values: &([i32; 64], usize),
        out: &mut Vec<(i32, u8, u8, u8)>,
    ) {
        let n = self.n;
        self.load_line(line);
        if !self.mark_anchors() {
            return;
        }
        let (rv, k) = (&rack_values.0, rack_values.1);
        let blank = self.counts[0] > 0;
        let l = &self.l;
        let mut best = [i32::MIN; W];
        let mut starts = [i32::MIN; W];
        for s in 0..n {
            if s > 0 && l.sq[s - 1] != 0 {
                continue;
            }
            let (mut m, mut through, mut wmul, mut fixed) = (0usize, 0i32, 1i32, 0i32);
            let mut first_anchor = usize::MAX;
            // (letter mult, own word mult if it makes a cross word, else 0)
            let mut squares = [(0i32, 0i32); 16];
            // (m, through, wmul, fixed) of the longest span that can be
            // played from `s` (it ends before an empty square or the edge).
            let mut longest = None;
            for e in s..n {
                let t = l.sq[e];
                if t != 0 {
                    through += l.tv[e];
                } else {
                    let possible = if blank {
                        l.cross[e]
                    } else {
                        l.cross[e] & self.rack_mask
                    };
                    if possible == 0 || m == k || m == squares.len() {
                        break;
                    }
                    if l.anchor[e] && first_anchor == usize::MAX {
                        first_anchor = e;
                    }
                    wmul *= l.wm[e];
                    let own = if l.cs[e] >= 0 {
                        fixed += l.cs[e] * l.wm[e];
                        l.wm[e]
                    } else {
                        0
                    };
                    squares[m] = (l.lm[e], own);
                    m += 1;
                }
                let closed = e + 1 == n || l.sq[e + 1] == 0;
                if closed && e != s && first_anchor != usize::MAX {
                    longest = Some((m, through, wmul, fixed));
                }
            }
            // Every part of the bound grows as the span does (more squares,
            // tiles and multipliers, all at least 0 or 1), and every span
            // from `s` has the same first anchor: its best bound is that of
            // the longest span, computed once.
            let Some((m, through, wmul, fixed)) = longest else {
                continue;
            };
            let mut weights = [0i32; 16];
            for (i, &(lm, own)) in squares[..m].iter().enumerate() {
                weights[i] = lm * (wmul + own);
            }
            weights[..m].sort_unstable_by(|a, b| b.cmp(a));
            let mut bound = through * wmul + fixed;
            for i in 0..m {
                bound += rv[i] * weights[i];
            }
            if m == self.rack_size as usize {
                bound += self.bingo;
            }
            let a = first_anchor;
            best[a] = best[a].max(bound);
            starts[s] = bound;
        }
        for (p, &b) in best.iter().enumerate().take(n) {
            if b != i32::MIN {
                out.push((b, self.d as u8, line as u8, p as u8));
            }
        }
        // What the walk from an anchor checks as it goes left: no move
        // starting on the square (or, for `reach_bound`, at or left of it,
        // back to the previous anchor, where left parts stop) can score
        // more.
        let mut reach = i32::MIN;
        for (p, &start) in starts.iter().enumerate().take(n) {
            if p > 0 && self.l.anchor[p - 1] {
                reach = i32::MIN;
            }
            reach = reach.max(start);
            self.l.start_bound[p] = start;
            self.l.reach_bound[p] = reach;
        }
    }

    fn line_moves(&mut self, line: usize) {
        let n = self.n;
        self.load_line(line);
        if !self.mark_anchors() {
            return;
        }
        for p in 0..n {
            if self.l.anchor[p] && self.l.cross[p] != 0 {
                self.start_anchor(p);
            }
        }
    }

    fn start_anchor(&mut self, p: usize) {
        self.anchor = p;
        self.anchor_open_right = p + 1 == self.n || self.l.sq[(p + 1) & (W - 1)] == 0;
        let root = self.g.root();
        self.gen_left(p, root, 0, 1, 0);
    }

    /// Fills square `pos` (at or left of the anchor) from `node`.
    fn gen_left(&mut self, pos: usize, node: Node<'w>, main: i32, wm: i32, cross: i32) {
        let pos = pos & (W - 1);
        // Best-first: no move starting here or further left can make the
        // recorder's threshold.
        if self.l.reach_bound[pos] < self.rec.threshold() {
            return;
        }
        let t = self.l.sq[pos];
        if t != 0 {
            if let Some(e) = node.edge(t & 63) {
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
        for e in node.within(possible) {
            let c = e.code();
            // Scored as a rack tile; `found` lists the ways blanks can
            // stand for it.
            let v = self.values[c as usize & 63] * lm;
            let cross2 = if cs >= 0 { cross + (cs + v) * w } else { cross };
            self.l.placed[pos] = c;
            // A letter not on the rack: a blank must stand for it.
            let real = self.counts[c as usize] > 0;
            if real {
                self.take(c);
            } else {
                self.over += 1;
                self.over_code = c;
                self.left -= 1;
            }
            self.go_left(pos, e, main + v, wm2, cross2);
            if real {
                self.give(c);
            } else {
                self.over -= 1;
                self.left += 1;
            }
        }
        self.l.placed[pos] = 0;
    }

    /// After reading edge `e` at square `pos` leftwards: a word ends here
    /// if the edge accepts, the walk goes on left (if the next square can
    /// take a letter) and across the separator.
    #[inline(always)]
    fn go_left(&mut self, pos: usize, e: Edge<'w>, main: i32, wm: i32, cross: i32) {
        let n = self.n;
        let open_left = pos == 0 || self.l.sq[(pos - 1) & (W - 1)] == 0;
        if open_left && self.anchor_open_right && e.accepts() {
            self.found(pos, self.anchor, main, wm, cross);
        }
        let child = e.target();
        if pos > 0 {
            let p = (pos - 1) & (W - 1);
            let next = self.l.sq[p] != 0 || (self.left > 0 && !self.l.anchor[p]);
            if next {
                self.gen_left(p, child, main, wm, cross);
            }
        }
        if open_left
            && self.anchor + 1 < n
            && (self.left > 0 || !self.anchor_open_right)
            && self.l.start_bound[pos] >= self.rec.threshold()
        {
            if let Some(right) = child.separator() {
                self.gen_right(self.anchor + 1, right, pos, main, wm, cross);
            }
        }
    }

    /// Fills square `pos` (right of the anchor) from `node`; the word
    /// starts at `start`.
    #[allow(clippy::too_many_arguments)]
    fn gen_right(
        &mut self,
        pos: usize,
        node: Node<'w>,
        start: usize,
        main: i32,
        wm: i32,
        cross: i32,
    ) {
        let pos = pos & (W - 1);
        let t = self.l.sq[pos];
        if t != 0 {
            if let Some(e) = node.edge(t & 63) {
                let v = self.l.tv[pos];
                self.go_right(pos, e, start, main + v, wm, cross);
            }
            return;
        }
        let possible = self.possible(pos);
        if possible == 0 {
            return;
        }
        let (lm, w, cs) = (self.l.lm[pos], self.l.wm[pos], self.l.cs[pos]);
        let wm2 = wm * w;
        for e in node.within(possible) {
            let c = e.code();
            // Scored as a rack tile; `found` lists the ways blanks can
            // stand for it.
            let v = self.values[c as usize & 63] * lm;
            let cross2 = if cs >= 0 { cross + (cs + v) * w } else { cross };
            self.l.placed[pos] = c;
            // A letter not on the rack: a blank must stand for it.
            let real = self.counts[c as usize] > 0;
            if real {
                self.take(c);
            } else {
                self.over += 1;
                self.over_code = c;
                self.left -= 1;
            }
            self.go_right(pos, e, start, main + v, wm2, cross2);
            if real {
                self.give(c);
            } else {
                self.over -= 1;
                self.left += 1;
            }
        }
        self.l.placed[pos] = 0;
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn go_right(&mut self, pos: usize, e: Edge<'w>, start: usize, main: i32, wm: i32, cross: i32) {
        let n = self.n;
        let open_right = pos + 1 == n || self.l.sq[(pos + 1) & (W - 1)] == 0;
        if open_right && e.accepts() {
            self.found(start, pos, main, wm, cross);
        }
        if pos + 1 < n && (self.left > 0 || !open_right) {
            let q = (pos + 1) & (W - 1);
            self.gen_right(q, e.target(), start, main, wm, cross);
        }
    }

    /// Blanks on the rack.
    #[inline]
    fn blanks(&self) -> u32 {
        self.rack0[0] as u32
    }

    /// The letters that may go on empty square `pos` with the rack left.
    #[inline]
    fn possible(&self, pos: usize) -> u64 {
        let cross = self.l.cross[pos & (W - 1)];
        if self.over < self.blanks() {
            cross
        } else {
            cross & self.rack_mask
        }
    }

    #[inline]
    fn take(&mut self, c: u8) {
        let k = &mut self.counts[c as usize & 63];
        *k -= 1;
        if *k == 0 {
            self.rack_mask &= !(1u64 << c);
        }
        self.left -= 1;
    }

    #[inline]
    fn give(&mut self, c: u8) {
        self.counts[c as usize & 63] += 1;
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
        if score < self.rec.threshold() {
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
        if self.blanks() == 0 {
            let leave = Rack::from_counts(&self.counts);
            self.rec.record(&mv, &leave);
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
                self.placed_at[k] = i as u8;
                self.loss[k] = self.values[c as usize & 63] * self.l.lm[p] * (wm + own);
                k += 1;
            }
        }
        if self.blanks() == 1 {
            self.one_blank_variants(k, score, &mut mv);
        } else {
            let mut leave = self.rack0;
            self.blank_variants(0, k, score, &mut mv, &mut leave);
        }
    }

    /// [`Walk::blank_variants`] for a rack with one blank, without
    /// recursion: if the rack holds every placed tile, the move as it is
    /// and then the blank standing for each placed tile in turn; else the
    /// blank standing for each placed tile of the letter the rack lacks.
    fn one_blank_variants(&mut self, k: usize, score: i32, mv: &mut Move) {
        let mut leave = Rack::from_counts(&self.counts);
        let only = if self.over == 0 {
            mv.score = score;
            self.rec.record(mv, &leave);
            None
        } else {
            Some(self.over_code)
        };
        leave.set_count(0, 0);
        for j in 0..k.min(W) {
            let s = score - self.loss[j];
            if s < self.rec.threshold() {
                continue;
            }
            let i = self.placed_at[j] as usize % MAX_SIZE;
            let c = mv.tiles[i];
            if only.is_some_and(|o| o != c) {
                continue;
            }
            mv.tiles[i] = c | BLANK;
            mv.score = s;
            if only.is_none() {
                leave.set_count(c, leave.count(c) + 1);
            }
            self.rec.record(mv, &leave);
            if only.is_none() {
                leave.set_count(c, leave.count(c) - 1);
            }
            mv.tiles[i] = c;
        }
    }

    /// Records `mv` once for every way of taking each of its placed tiles
    /// `j..k` from the rack left in `leave`: the tile itself, or a blank.
    fn blank_variants(
        &mut self,
        j: usize,
        k: usize,
        score: i32,
        mv: &mut Move,
        leave: &mut [u8; 64],
    ) {
        // A blank only ever lowers the score.
        if score < self.rec.threshold() {
            return;
        }
        if j == k {
            mv.score = score;
            self.rec.record(mv, &Rack::from_counts(leave));
            return;
        }
        let i = self.placed_at[j & (W - 1)] as usize % MAX_SIZE;
        let c = mv.tiles[i];
        if leave[c as usize & 63] > 0 {
            leave[c as usize & 63] -= 1;
            self.blank_variants(j + 1, k, score, mv, leave);
            leave[c as usize & 63] += 1;
        }
        if leave[0] > 0 {
            leave[0] -= 1;
            mv.tiles[i] = c | BLANK;
            let loss = self.loss[j & (W - 1)];
            self.blank_variants(j + 1, k, score - loss, mv, leave);
            mv.tiles[i] = c;
            leave[0] += 1;
        }
    }
}
