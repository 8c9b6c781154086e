//! Move generation: every legal placement of a rack on a board, scored,
//! by Gordon's GADDAG algorithm, handed to a [`Recorder`].
//!
//! For each line (rows for across plays, columns for down plays) and each
//! anchor, the walk reads leftwards from the anchor through the GADDAG's
//! reversed prefixes, crosses the separator, then places tiles rightwards.
//! A move that touches tiles of the line is found from the last tile of
//! the rightmost run of tiles it touches: the walk follows that run from
//! the root first, so every letter it then places next to the run is one
//! that can stand there (in `..CARE...`, the walk reads E, R, A, C, then
//! only letters that can come before CARE). A move joined to the board by
//! cross words only is found from the rightmost square with a cross word
//! it covers. Each move is found once: right parts stop short of what
//! another anchor would find. The walk reads the lexicon's arc table
//! unpacked in memory, each arc carrying the codes of the node it leads
//! to (made once per lexicon, when the first move is generated): a node
//! is entered only if it reads the tile on the next square or a letter
//! the square's cross set and the rack allow, and its arc for a letter is
//! found by the letter's rank among its codes, with no scan of its list.
//! The score is kept up to date square by square, so a move is scored
//! when it is found.
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
//! use lexq::{game::Generator, Lexicon, game::Position, game::TopN};
//! let lex = Lexicon::embedded();
//! let pos = Position::from_cgp(&lex,
//!     "15/15/15/15/15/15/15/4CARE7/15/15/15/15/15/15/15 AEINRST/ 12/0 0")?;
//! let mut generator = Generator::new();
//! let mut top = TopN::new(5);
//! generator.generate(&pos.board, &pos.rack(), &mut top);
//! for mv in top.into_sorted() {
//!     println!("{} {}", mv.notation(lex.alphabet()), mv.score());
//! }
//! # Ok::<(), lexq::game::Error>(())
//! ```

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use std::sync::Arc;

use crate::alphabet::tileset::TileSet;
use crate::game::board::{BLANK, Board};
use crate::game::equity::{LeaveTable, Stage, SubRacks, leave_part};
use crate::game::layout::MAX_SIZE;
use crate::game::leaves::{Leaves, MILLI};
use crate::game::moves::{Move, MoveKind, THROUGH, rank};
use crate::game::rack::Rack;
use crate::lexicon::gaddag::SEPARATOR;
use crate::lexicon::raw::masked::{Entry, MNode, Masked, Table};

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

/// A reusable move generator. Its only scratch space is what best-first
/// searches keep (the anchor list and each line's bounds) and the leave
/// part of every sub-rack of the rack, kept between positions: a reused
/// generator allocates nothing. The first generation on a lexicon makes
/// its arc table unpacked in memory (8 bytes an arc, 16 for alphabets of
/// more than 30 letters), which every later one on that lexicon shares.
///
/// It ranks moves by equity (see [`crate::game::equity`]) in millipoints: 1000 x
/// the score, plus, when given a leave table ([`Generator::leaves`]), the
/// value of the tiles kept (or, with the bag empty, the going-out bonus or
/// the penalty for the tiles kept). Without a table equity is 1000 x the
/// score, and moves rank by score.
///
/// Recorders that want only the best moves ([`Best`], [`TopN`]) get a
/// best-first search: every anchor is given an upper bound on the equity
/// of any move made from it: for each number `t` of tiles a move from it
/// may place (1 to the `m` empty squares of its span), the score bound of
/// `t` tiles (the rack's `t` highest tile values placed on the squares'
/// multipliers in the best order, cross sets ignored but for the squares
/// they close, the bingo only if `t` is a rack's worth) plus the best
/// leave part of any sub-rack of the tiles it keeps; the best of these
/// over `t` (without a leave table, `t = m`). Anchors
/// are visited from the highest bound down, and the search stops at the
/// first bound below the recorder's threshold. Within an anchor, the walk
/// skips the squares where every move starting there (or further left) is
/// bound below the threshold, and a word found is looked at only if its
/// score and the best leave part of its number of tiles kept reach it.
#[derive(Clone, Debug, Default)]
pub struct Generator {
    exchanges: bool,
    /// Tiles in the bag, when known (exchanges need a rack's worth; an
    /// empty bag changes equity).
    bag: Option<usize>,
    /// The leave table equity reads, if any.
    leaves: Option<Arc<Leaves>>,
    /// The leave part of each sub-rack of the rack of the last position.
    table: LeaveTable,
    /// Every anchor with its bound, for best-first.
    anchors: Vec<Anchor>,
    /// The walk's bounds of every line of the board in both directions,
    /// computed with the anchors' bounds, for best-first searches that
    /// then go from line to line.
    lines: Vec<LineBounds>,
}

/// A line's `start_bound` and `reach_bound` (see [`Line`]).
#[derive(Clone, Debug)]
struct LineBounds {
    start: [i32; W],
    reach: [i32; W],
}

/// What the walk needs to value a move beyond its score.
#[derive(Clone, Copy)]
struct Valuer<'v> {
    leaves: &'v Leaves,
    table: &'v LeaveTable,
    stage: Stage,
    tiles: &'v TileSet,
}

impl Valuer<'_> {
    #[inline]
    fn part(&self, kept: &Rack) -> i32 {
        self.table.part(self.leaves, self.stage, kept, self.tiles)
    }
}

impl Generator {
    /// A generator listing placements only, ranked by score.
    pub fn new() -> Generator {
        Generator::default()
    }

    /// Whether to list exchanges (every distinct set of rack tiles) and the
    /// pass as well. Exchanges are listed only if the bag holds at least
    /// a rack's worth of tiles, when it is known ([`Generator::set_bag`]).
    /// An exchange's equity is the leave part of the tiles it keeps, a
    /// pass's that of the whole rack.
    pub fn exchanges(mut self, on: bool) -> Generator {
        self.exchanges = on;
        self
    }

    /// Ranks by equity with `leaves` (see [`crate::game::equity`]), or by score
    /// with `None`.
    pub fn leaves(mut self, leaves: Option<Arc<Leaves>>) -> Generator {
        self.leaves = leaves;
        self
    }

    /// [`Generator::leaves`] on a generator in place.
    pub fn set_leaves(&mut self, leaves: Option<Arc<Leaves>>) {
        self.leaves = leaves;
    }

    /// The leave table, if any.
    pub fn leave_table(&self) -> Option<&Leaves> {
        self.leaves.as_deref()
    }

    /// The number of tiles in the bag, if known (for the next positions;
    /// [`crate::game::Position::bag_len`] counts them): with fewer than a rack's
    /// worth, no exchange is legal and only the pass is listed; with none,
    /// equity takes the end-game form ([`Stage::Endgame`]). Unknown counts
    /// as a bag with tiles in it.
    pub fn set_bag(&mut self, tiles: Option<usize>) {
        self.bag = tiles;
    }

    /// The equity of any move `mv` of `rack` on `board` (a generated one,
    /// or one read from a player and scored), as the generator ranks it.
    pub fn equity(&self, board: &Board<'_>, rack: &Rack, mv: &Move) -> i32 {
        let score = mv.score().saturating_mul(MILLI);
        match &self.leaves {
            None => score,
            Some(leaves) => {
                let stage = Stage::of(board, rack, self.bag);
                let part = leave_part(leaves, stage, &mv.leave(rack), board.tile_set());
                score.saturating_add(part)
            }
        }
    }

    /// Every legal move of `rack` on `board`, to `rec`, walking the
    /// lexicon's arc table.
    pub fn generate(&mut self, board: &Board<'_>, rack: &Rack, rec: &mut impl Recorder) {
        match board.arcs.masked() {
            Masked::Narrow(t) => self.generate_on(t, board, rack, rec),
            Masked::Wide(t) => self.generate_on(t, board, rack, rec),
        }
    }

    /// [`Generator::generate`] on the lexicon's masked table.
    fn generate_on<E: Entry>(
        &mut self,
        t: &Table<E>,
        board: &Board<'_>,
        rack: &Rack,
        rec: &mut impl Recorder,
    ) {
        let n = board.n;
        let valuer = match &self.leaves {
            Some(leaves) => {
                let stage = Stage::of(board, rack, self.bag);
                self.table.fill(leaves, stage, rack, board.tile_set());
                Some(Valuer {
                    leaves,
                    table: &self.table,
                    stage,
                    tiles: board.tile_set(),
                })
            }
            None => None,
        };
        // The best leave part of a move keeping k tiles; past the numbered
        // lengths (racks of more than 15 tiles) no bound at all.
        let mut best_kept = [0i32; W];
        if let Some(v) = &valuer {
            for (k, b) in best_kept.iter_mut().enumerate() {
                *b = v.table.best_kept.get(k).copied().unwrap_or(i32::MAX / 2);
            }
        }
        let mut w = Walk {
            t,
            board,
            rec,
            valuer,
            best_kept,
            rack: *rack,
            rack_mask: 0,
            values: {
                let mut v = [0; 64];
                v.copy_from_slice(&board.values[..64]);
                v
            },
            left: rack.len() as u32,
            over: 0,
            over_codes: [0; W],
            blanks: rack.count(0) as u32,
            placed_at: [0; W],
            placed_code: [0; W],
            loss: [0; W],
            rack_len: rack.len() as u32,
            rack_size: board.tiles.rack_size() as u32,
            bingo: board.tiles.bingo(),
            d: 0,
            line: 0,
            anchor: 0,
            lb: 0,
            rb: 0,
            l: Line {
                sq: [0; W],
                tv: [0; W],
                cross: [0; W],
                cs: [-1; W],
                lm: [1; W],
                wm: [1; W],
                placed: [0; W],
                start_bound: [i32::MAX; W],
                reach_bound: [i32::MAX; W],
            },
            n,
        };
        for c in 1..64 {
            if w.rack.counts()[c] > 0 {
                w.rack_mask |= 1u64 << c;
            }
        }
        if w.left > 0 {
            if board.is_empty() {
                let (sr, sc) = board.layout.start();
                w.d = 0;
                w.load_line(sr);
                w.start_anchor(sc, 0, n);
            } else if w.rec.prunes() {
                self.anchors.clear();
                let blank = LineBounds {
                    start: [i32::MAX; W],
                    reach: [i32::MAX; W],
                };
                self.lines.resize(2 * n, blank);
                let values = w.rack_values();
                for d in 0..2 {
                    w.d = d;
                    for line in 0..n {
                        let bounds = &mut self.lines[d * n + line];
                        w.anchor_bounds(line, &values, &mut self.anchors, bounds);
                    }
                }
                self.anchors.sort_unstable_by(|a, b| {
                    b.bound
                        .cmp(&a.bound)
                        .then((a.d, a.line, a.p).cmp(&(b.d, b.line, b.p)))
                });
                let mut loaded = None;
                for &Anchor {
                    bound,
                    d,
                    line,
                    p,
                    lb,
                    rb,
                } in &self.anchors
                {
                    if bound < w.rec.threshold() {
                        break;
                    }
                    if loaded != Some((d, line)) {
                        w.d = d as usize;
                        w.load_line(line as usize);
                        if let Some(b) = self.lines.get(d as usize * n + line as usize) {
                            w.l.start_bound = b.start;
                            w.l.reach_bound = b.reach;
                        }
                        loaded = Some((d, line));
                    }
                    w.start_anchor(p as usize, lb as usize, rb as usize);
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
            let value = |kept: &Rack| valuer.as_ref().map_or(0, |v| v.part(kept));
            if self.bag.is_none_or(|b| b >= board.tiles.rack_size()) {
                exchanges(rack, rec, &value);
            }
            let pass = Move::pass();
            rec.record(&pass, rack, value(rack));
        }
    }
}

/// Every distinct non-empty set of rack tiles as an exchange, valued by
/// `value` of what it keeps: the rack's sub-racks but the whole rack, each
/// kept sub-rack once (so `AAB` exchanges `A`, `B`, `AA`, `AB`, `AAB`).
/// No allocation; a rack of more than [`crate::game::equity::MAX_SUBRACKS`] sub-racks (more
/// than 15 tiles: no game deals one) gets none.
fn exchanges(rack: &Rack, rec: &mut impl Recorder, value: &impl Fn(&Rack) -> i32) {
    let Some(sub) = SubRacks::new(rack) else {
        return;
    };
    for at in 0..sub.len().saturating_sub(1) {
        let kept = sub.sub_rack(at);
        let mut tiles = [0u8; MAX_SIZE];
        let mut k = 0;
        for (c, n, _) in sub.digits() {
            for _ in kept.count(c)..n as usize {
                if k < MAX_SIZE {
                    tiles[k] = c;
                    k += 1;
                }
            }
        }
        let mv = Move::exchange(&tiles[..k]);
        rec.record(&mv, &kept, value(&kept));
    }
}

/// Line buffers: a power of two above the largest board, so that masked
/// indices need no bounds checks.
const W: usize = 32;

/// An anchor of a best-first search: its bound, direction, line, square,
/// and the bounds of its moves (see [`Walk::anchors`]).
#[derive(Clone, Copy, Debug)]
struct Anchor {
    bound: i32,
    d: u8,
    line: u8,
    p: u8,
    lb: u8,
    rb: u8,
}

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
    /// Tiles placed so far by the walk (code | BLANK), 0 elsewhere.
    placed: [u8; W],
    /// For best-first searches: the most a move whose main word starts
    /// on each square can score (its bound), and the most for any start at
    /// or left of each square; `i32::MAX` (no limit) otherwise.
    start_bound: [i32; W],
    reach_bound: [i32; W],
}

struct Walk<'w, 'b, R: Recorder, E: Entry> {
    /// The arc table with masks (see [`Masked`]).
    t: &'w Table<E>,
    board: &'w Board<'b>,
    rec: &'w mut R,
    /// Values a move's leave, when ranking by equity.
    valuer: Option<Valuer<'w>>,
    /// The best leave part of a move keeping `k` tiles (all 0 without a
    /// leave table).
    best_kept: [i32; W],
    /// Rack tiles left: letters the walk has placed are taken off; blanks
    /// stay until [`Walk::found`] decides what they stand for.
    rack: Rack,
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
    /// The tiles of the placements blanks must stand for, in the order
    /// the walk made them (`over` of them).
    over_codes: [u8; W],
    /// Blanks on the rack.
    blanks: u32,
    /// Scratch of `found`: the word offset of each placed tile, its code,
    /// and what the score loses if a blank stands for it.
    placed_at: [u8; W],
    placed_code: [u8; W],
    loss: [i32; W],
    /// Tiles on the rack at the start.
    rack_len: u32,
    rack_size: u32,
    bingo: i32,
    /// Direction and line being walked.
    d: usize,
    line: usize,
    /// The anchor's square, the first square its left parts may cover
    /// and the first its right parts may not (see [`Walk::anchors`]).
    anchor: usize,
    lb: usize,
    rb: usize,
    l: Line,
    n: usize,
}

impl<'w, R: Recorder, E: Entry> Walk<'w, '_, R, E> {
    /// Copies line `line` of direction `self.d` into the line buffers.
    fn load_line(&mut self, line: usize) {
        let n = self.n;
        let b = self.board;
        let d = self.d;
        let base = line * n;
        self.line = line;
        let l = &mut self.l;
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

    /// Calls `f(square, lb, rb)` for every anchor of the loaded line (see
    /// [`Walk::start_anchor`]), each move of the line generated from
    /// exactly one: the moves touching a run of tiles from the last tile
    /// of the rightmost run they touch (left parts as long as the line
    /// allows, right parts stopping short of the square before the next
    /// run); the others (joined to the board by cross words only) from
    /// the rightmost square with a cross word they cover, within the empty
    /// stretch between the squares next to runs. In `..AB...CD..` (`.`
    /// empty, `h` a square with a cross word), `...hh.AB..h..CD` has the
    /// anchors B (left parts to the edge, right parts up to the square
    /// before the one next to C) and D, then the `h` squares right to
    /// left, each one's right parts stopping before the last.
    fn anchors(&self, mut f: impl FnMut(usize, usize, usize)) {
        let n = self.n;
        let l = &self.l;
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

    /// The values of the rack's tiles, highest first, and how many.
    fn rack_values(&self) -> ([i32; 64], usize) {
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

    /// Pushes every anchor of line `line` (see [`Walk::anchors`]) with its
    /// bound: the highest score any move generated from it can make. A
    /// move covers a span of the line (maximal: no tile just before or
    /// after it); its score is at most the rack's tile values, highest
    /// first, on the empty squares' weights (letter multiplier times the
    /// word multiplier of the span, plus the square's own word multiplier
    /// if it makes a cross word), plus the fixed parts (board tiles,
    /// cross-word tiles, the bingo bonus). Also sets the line's
    /// `start_bound` and `reach_bound` for the walk.
    #[allow(clippy::needless_range_loop)] // `s` is a square, not just an index
    fn anchor_bounds(
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
        // The best bound of the spans each square generates (as an
        // anchor) and of the spans starting on it.
        let mut best = [i32::MIN; W];
        let mut starts = [i32::MIN; W];
        let bound = |squares: &[(i32, i32)], through: i32, wmul: i32, fixed: i32| {
            let m = squares.len();
            let mut weights = [0i32; 16];
            for (i, &(lm, own)) in squares.iter().enumerate() {
                weights[i] = lm * (wmul + own);
            }
            weights[..m].sort_unstable_by(|a, b| b.cmp(a));
            // A move placing t of the m tiles scores at most the fixed
            // part and the t best values on the t best weights (the bingo
            // only if t is a rack's worth), and keeps k - t tiles: its
            // equity is bound by the best of these over t. Without a
            // leave table (best_kept all 0) that is t = m.
            let mut b = through * wmul + fixed;
            let mut bound = i32::MIN;
            for i in 0..m {
                b += rv[i] * weights[i];
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
            let mut squares = [(0i32, 0i32); 16];
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
                    squares[m] = (l.lm[e], own);
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
        self.anchors(|p, lb, rb| {
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

    fn line_moves(&mut self, line: usize) {
        self.load_line(line);
        let mut anchors = [(0u8, 0u8, 0u8); W];
        let mut k = 0;
        self.anchors(|p, lb, rb| {
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
    fn start_anchor(&mut self, p: usize, lb: usize, rb: usize) {
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
            self.l.placed[pos] = c;
            // A letter not on the rack: a blank must stand for it.
            let real = self.rack.counts()[c as usize & 63] > 0;
            if real {
                self.take(c);
            } else {
                self.over_codes[self.over as usize & (W - 1)] = c;
                self.over += 1;
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
            self.l.placed[pos] = c;
            // A letter not on the rack: a blank must stand for it.
            let real = self.rack.counts()[c as usize & 63] > 0;
            if real {
                self.take(c);
            } else {
                self.over_codes[self.over as usize & (W - 1)] = c;
                self.over += 1;
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

    /// [`Walk::blank_variants`] for a rack with one blank, the leave
    /// changed as little as can be: if the walk charged no tile to the
    /// blank, the move as it is, then the blank standing for each placed
    /// tile in turn (its letter back on the rack); else the blank standing
    /// for each placed tile of the letter charged (the leave the same for
    /// all).
    fn one_blank_variants(&mut self, k: usize, score: i32, mv: &mut Move) {
        let k = k.min(W);
        if self.over == 0 {
            self.record_variant(mv, score);
            for i in 0..k {
                let s = score - self.loss[i];
                if self.wants(s) {
                    self.give_to_blank(i, mv);
                    self.record_variant(mv, s);
                    self.take_from_blank(i, mv);
                }
            }
            return;
        }
        let charged = self.over_codes[0];
        self.rack.counts_mut()[0] = 0;
        for i in 0..k {
            let s = score - self.loss[i];
            if self.placed_code[i] != charged || !self.wants(s) {
                continue;
            }
            let at = (self.placed_at[i] as usize).min(MAX_SIZE - 1);
            mv.tiles[at] |= BLANK;
            mv.score = s;
            let equity = self.equity_of(s);
            self.rec.record(mv, &self.rack, equity);
            mv.tiles[at] &= !BLANK;
        }
        self.rack.counts_mut()[0] = 1;
    }

    /// Records `mv` once for every set of its placed tiles (`k` of them,
    /// see `found`) that the rack's blanks can stand for: at most
    /// `blanks` tiles, among them one per placement the walk charged to a
    /// blank (`over_codes`: a letter the rack ran out of; any placed tile
    /// of that letter can be the blank).
    ///
    /// The leave is the walk's rack, changed in place: the letters charged
    /// to blanks are taken off it (their counts may wrap below zero), then
    /// each blank's letter is given back; a set that leaves a count below
    /// zero does not cover the letters the rack lacks. With AB? and the
    /// word BAA (placed B, A, A): the walk takes B and A and charges the
    /// last A to the blank; the rack left is ?, with A taken once more
    /// (-1): the blank standing for the first A or for the second gives
    /// the A back (leave ?-less, A count 0), the blank on B does not.
    ///
    /// With two blanks (one goes to [`Walk::one_blank_variants`]) the sets
    /// are drawn from masks of the placed tiles, `a` and `b` those of the
    /// first and second letter charged (every tile when none is), so that
    /// only sets that cover the letters charged are tried; more blanks
    /// (tile sets of one's own) take [`Walk::more_blank_variants`].
    fn blank_variants(&mut self, k: usize, a: u32, b: u32, score: i32, mv: &mut Move) {
        let over = (self.over as usize).min(W);
        for m in 0..over {
            let c = self.over_codes[m] as usize & 63;
            let n = &mut self.rack.counts_mut()[c];
            *n = n.wrapping_sub(1);
        }
        let k = k.min(W);
        let blanks = self.blanks as usize;
        // Whether every letter charged to a blank has been given back.
        let covered = |rack: &Rack, over_codes: &[u8; W]| {
            over_codes[..over]
                .iter()
                .all(|&c| rack.counts()[c as usize & 63] < 0x80)
        };
        if blanks <= 2 {
            let all = if k >= 32 { u32::MAX } else { (1u32 << k) - 1 };
            let above = |i: usize| all & !(u32::MAX >> (31 - i));
            if over == 2 {
                // Both blanks are spoken for: one on each letter charged,
                // or two on the one letter charged twice.
                if a == b {
                    self.blank_pairs(a, |i| a & above(i), score, mv);
                } else {
                    self.blank_pairs(a, |_| b, score, mv);
                }
            } else {
                if over == 0 {
                    self.record_variant(mv, score);
                }
                // One blank: on any placed tile, or on one of the letter
                // charged to it.
                for i in Bits(a) {
                    let s = score - self.loss[i];
                    if self.wants(s) {
                        self.give_to_blank(i, mv);
                        self.record_variant(mv, s);
                        self.take_from_blank(i, mv);
                    }
                }
                if blanks == 2 {
                    // Two blanks: on any two placed tiles, one of them of
                    // the letter charged if there is one.
                    let second = |i: usize| {
                        if a & 1 << i != 0 {
                            above(i)
                        } else {
                            a & above(i)
                        }
                    };
                    self.blank_pairs(all, second, score, mv);
                }
            }
        } else {
            self.more_blank_variants(0, k, score, mv, &covered);
        }
        self.restore_charged(over);
    }

    /// Gives back the letters [`Walk::blank_variants`] took off for the
    /// `over` placements charged to blanks.
    fn restore_charged(&mut self, over: usize) {
        self.rack.counts_mut()[0] = self.blanks as u8;
        for m in 0..over {
            let c = self.over_codes[m] as usize & 63;
            let n = &mut self.rack.counts_mut()[c];
            *n = n.wrapping_add(1);
        }
    }

    /// Records the move with blanks on placed tiles `i` and `j`, for every
    /// `i` in `first` and `j` in `second(i)`.
    #[inline]
    fn blank_pairs(
        &mut self,
        first: u32,
        second: impl Fn(usize) -> u32,
        score: i32,
        mv: &mut Move,
    ) {
        for i in Bits(first) {
            let s = score - self.loss[i];
            if !self.wants(s) {
                continue;
            }
            self.give_to_blank(i, mv);
            for j in Bits(second(i)) {
                let s = s - self.loss[j];
                if self.wants(s) {
                    self.give_to_blank(j, mv);
                    self.record_variant(mv, s);
                    self.take_from_blank(j, mv);
                }
            }
            self.take_from_blank(i, mv);
        }
    }

    /// [`Walk::blank_variants`] for racks of more than two blanks: every
    /// set of blank positions from `from` on, recursively.
    fn more_blank_variants(
        &mut self,
        from: usize,
        k: usize,
        score: i32,
        mv: &mut Move,
        covered: &impl Fn(&Rack, &[u8; W]) -> bool,
    ) {
        if !self.wants(score) {
            return;
        }
        if covered(&self.rack, &self.over_codes) {
            self.record_variant(mv, score);
        }
        if self.rack.counts()[0] == 0 {
            return; // every blank stands for a tile already
        }
        for i in from..k {
            self.give_to_blank(i, mv);
            self.more_blank_variants(i + 1, k, score - self.loss[i], mv, covered);
            self.take_from_blank(i, mv);
        }
    }

    /// Records the move with the blanks chosen so far: the leave's blanks
    /// are those not standing for a tile.
    #[inline]
    fn record_variant(&mut self, mv: &mut Move, score: i32) {
        mv.score = score;
        let equity = self.equity_of(score);
        self.rec.record(mv, &self.rack, equity);
    }

    /// Whether a word of this score, keeping `left` tiles, may reach the
    /// recorder's threshold: its score and the best leave part of that
    /// many tiles.
    #[inline]
    fn wants(&self, score: i32) -> bool {
        score * MILLI + self.best_kept[self.left as usize & (W - 1)] >= self.rec.threshold()
    }

    /// The equity of a move of this score keeping the walk's rack.
    #[inline]
    fn equity_of(&self, score: i32) -> i32 {
        score * MILLI + self.valuer.as_ref().map_or(0, |v| v.part(&self.rack))
    }

    /// A blank stands for placed tile `i`: its letter goes back to the
    /// leave, a blank leaves it.
    #[inline]
    fn give_to_blank(&mut self, i: usize, mv: &mut Move) {
        mv.tiles[(self.placed_at[i & (W - 1)] as usize).min(MAX_SIZE - 1)] |= BLANK;
        let counts = self.rack.counts_mut();
        let c = &mut counts[self.placed_code[i & (W - 1)] as usize & 63];
        *c = c.wrapping_add(1);
        counts[0] = counts[0].wrapping_sub(1);
    }

    /// Undoes [`Walk::give_to_blank`].
    #[inline]
    fn take_from_blank(&mut self, i: usize, mv: &mut Move) {
        mv.tiles[(self.placed_at[i & (W - 1)] as usize).min(MAX_SIZE - 1)] &= !BLANK;
        let counts = self.rack.counts_mut();
        let c = &mut counts[self.placed_code[i & (W - 1)] as usize & 63];
        *c = c.wrapping_sub(1);
        counts[0] = counts[0].wrapping_add(1);
    }
}

/// The set bits of a mask, lowest first.
struct Bits(u32);

impl Iterator for Bits {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(i)
    }
}
