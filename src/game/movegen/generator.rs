//! The reusable [`Generator`]: its settings, the leave parts of the
//! rack's sub-racks, and the order of the walk: every line in turn, or,
//! for recorders that prune, anchors best-first under their bounds.

use std::sync::Arc;

use crate::game::board::Board;
use crate::game::equity::{LeaveTable, Stage, SubRacks, leave_part};
use crate::game::layout::MAX_SIZE;
use crate::game::leaves::{Leaves, MILLI};
use crate::game::moves::Move;
use crate::game::rack::Rack;
use crate::lexicon::raw::masked::{Entry, Masked, Table};

use super::bounds::{Anchor, LineBounds};
use super::line::{Line, W};
use super::recorders::Recorder;
use super::walk::{Valuer, Walk};

#[cfg(doc)]
use super::recorders::{Best, TopN};

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
/// `t` tiles (the lesser of the rack's `t` highest tile values placed on
/// the squares' multipliers in the best order and the `t` best of each
/// square's multiplier times the highest value of a rack letter its cross
/// set takes, the bingo only if `t` is a rack's worth) plus the best
/// leave part of any sub-rack of the tiles it keeps; the best of these
/// over `t` (without a leave table, `t = m`). The exchanges and the pass,
/// when listed, are recorded first, so the threshold starts at the best
/// of them. Anchors
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
        // A recorder that prunes gets the exchanges and the pass first:
        // cheap (the leave parts are in the table already), they give the
        // search a threshold before the first anchor is walked (with
        // `?ERSTQ` and Q worth -7 points to keep, exchanging the Q keeps
        // `?ERST`, worth perhaps +30: no placement bound below 30 points
        // is walked). The result does not depend on the order, which is
        // total; other recorders get placements first, as listed.
        let first = rec.prunes();
        if first {
            self.exchanges_and_pass(board, rack, valuer.as_ref(), rec);
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
            l: Line::new(),
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
        if !first {
            self.exchanges_and_pass(board, rack, valuer.as_ref(), rec);
        }
    }

    /// The exchanges (when the bag allows them) and the pass, if the
    /// generator lists them.
    fn exchanges_and_pass(
        &self,
        board: &Board<'_>,
        rack: &Rack,
        valuer: Option<&Valuer<'_>>,
        rec: &mut impl Recorder,
    ) {
        if self.exchanges {
            let value = |kept: &Rack| valuer.map_or(0, |v| v.part(kept));
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
