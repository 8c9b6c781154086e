//! An exact endgame solver: with the bag empty, the best line of both
//! players' moves (placements and passes) and the final spread it leads
//! to.
//!
//! The search is a negamax with alpha-beta over the [`Game`]'s own
//! `apply` and `undo`, so the game's rules decide everything: going out
//! (the other rack counted by [`crate::game::OutRule`]), the scoreless
//! turns that end the game ([`crate::game::Rules::max_zeros`], passes and
//! zero-point plays as the game counts them), each player then losing
//! their rack. Its value is the *future* spread (the mover's points from
//! here on less the opponent's), so that a position reached by two
//! orders of the same moves shares one entry of the transposition table,
//! keyed by a hash of the tiles on the board, both racks, the player to
//! move and the scoreless turns. Moves are tried best first: the table's
//! move, then by score plus the going-out bonus. Iterative deepening
//! searches 1, 2, 3... plies; a depth whose leaves were all ends of the
//! game is exact, and ends the search. With a time limit, the last depth
//! finished gives the answer ([`Solution::exact`] tells which).
//!
//! ```
//! use std::time::Duration;
//! use lexq::game::{Game, Generator, Layout, endgame};
//! use lexq::{Lexicon, TileSet};
//! let lex = Lexicon::embedded();
//! let tiles = TileSet::named("english", lex.alphabet())?;
//! let mut game = Game::new(&lex, Layout::standard(), tiles, 2, 3)?;
//! // Play by score until the bag is empty.
//! let mut generator = Generator::new();
//! while game.bag_len() > 0 && !game.is_over() {
//!     let mv = game.best_move(&mut generator).mv;
//!     game.apply(&mv)?;
//! }
//! let me = game.to_move();
//! let solved = endgame::solve(&mut game, Some(Duration::from_millis(300)))?;
//! // The line is legal move by move; when exact, it ends the game with
//! // the spread found.
//! for mv in &solved.moves {
//!     game.apply(mv)?;
//! }
//! if solved.exact {
//!     assert!(game.is_over());
//!     assert_eq!(game.score(me) - game.score(1 - me), solved.spread);
//! }
//! # Ok::<(), lexq::game::Error>(())
//! ```

use std::collections::HashMap;
use std::time::{Duration, Instant};

use crate::game::error::Result;
use crate::game::moves::Move;
use crate::game::position_error::{PositionError, PositionErrorKind};
use crate::game::state::Game;
use crate::game::{Generator, Rack};

/// A value beyond any spread.
const INF: i32 = 1_000_000_000;

/// The depth recorded for a table entry whose value no depth limit cut.
const EXACT_DEPTH: u32 = u32::MAX;

/// Entries the transposition table holds before it is emptied.
const TABLE_CAP: usize = 1 << 22;

/// The answer of [`solve`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The final spread, the player to move's score less the opponent's
    /// (the scores so far included), with best play by both; when not
    /// [`Solution::exact`], the estimate of the last depth finished.
    pub spread: i32,
    /// The principal line, the player to move's move first: placements
    /// and passes, each legal in turn.
    pub moves: Vec<Move>,
    /// Whether the search reached the end of the game on every line it
    /// needed (else the time limit stopped it first).
    pub exact: bool,
    /// The last depth finished, in plies.
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
}

/// Solves the endgame of `game` for the player to move: the bag must be
/// empty, the game not over, two players. `limit` bounds the time: the
/// search then answers with the deepest depth it finished (at least one
/// ply is always searched). `game` is played on and given back as it was.
pub fn solve(game: &mut Game<'_>, limit: Option<Duration>) -> Result<Solution> {
    check(game)?;
    let mut s = Search {
        generator: Generator::new(),
        table: HashMap::new(),
        nodes: 0,
        deadline: limit.map(|d| Instant::now() + d),
        stopped: false,
        buffers: Vec::new(),
    };
    let now = spread(game);
    if game.is_over() {
        return Ok(Solution {
            spread: now,
            moves: Vec::new(),
            exact: true,
            depth: 0,
            nodes: 0,
        });
    }
    let mut answer: Option<(i32, bool, u32)> = None;
    for depth in 1..u32::MAX {
        let (value, exact) = s.negamax(game, depth, -INF, INF, 0);
        if s.stopped {
            if answer.is_none() {
                // Not even one ply finished: finish it regardless.
                s.stopped = false;
                s.deadline = None;
                let (value, exact) = s.negamax(game, depth, -INF, INF, 0);
                answer = Some((value, exact, depth));
            }
            break;
        }
        answer = Some((value, exact, depth));
        if exact {
            break;
        }
    }
    let (value, exact, depth) = answer.expect("one depth searched");
    s.deadline = None;
    s.stopped = false;
    let moves = s.line(game, depth, value);
    Ok(Solution {
        spread: now + value,
        moves,
        exact,
        depth,
        nodes: s.nodes,
    })
}

fn check(game: &Game<'_>) -> Result<()> {
    let refuse = |s: String| -> crate::game::Error {
        PositionError::new("endgame", PositionErrorKind::Unsupported(s)).into()
    };
    if game.players() != 2 {
        return Err(refuse(format!(
            "{} players: the endgame solver plays two",
            game.players()
        )));
    }
    if game.bag_len() > 0 {
        return Err(refuse(format!(
            "the bag holds {} tiles: an endgame starts with the bag empty",
            game.bag_len()
        )));
    }
    if game.rack(game.to_move()).is_empty() && !game.is_over() {
        return Err(refuse("the player to move has no tiles".into()));
    }
    Ok(())
}

/// The spread now: the player to move's score less the other's.
fn spread(game: &Game<'_>) -> i32 {
    let me = game.to_move();
    game.score(me) - game.score(1 - me)
}

/// What the table knows of a position.
#[derive(Clone, Copy)]
struct Entry {
    /// The depth searched ([`EXACT_DEPTH`] if no leaf was cut).
    depth: u32,
    value: i32,
    bound: Bound,
    best: Option<Move>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    /// The value is at least this.
    Lower,
    /// The value is at most this.
    Upper,
}

struct Search {
    generator: Generator,
    table: HashMap<u64, Entry>,
    nodes: u64,
    deadline: Option<Instant>,
    stopped: bool,
    /// A move list per ply, reused.
    buffers: Vec<Vec<(i32, Move)>>,
}

/// A 64-bit mix (SplitMix64's finaliser).
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The position's key: the tiles on the board, both racks, the player to
/// move, the scoreless turns.
fn key(game: &Game<'_>) -> u64 {
    let b = game.board();
    let mut h = 0u64;
    for (i, &t) in b.tiles().iter().enumerate() {
        if t != 0 {
            h ^= mix(((i as u64) << 8) | t as u64);
        }
    }
    for p in 0..2 {
        for (c, &k) in game.rack(p).counts().iter().enumerate() {
            if k != 0 {
                h ^= mix((1 << 40) | ((p as u64) << 24) | ((c as u64) << 8) | k as u64);
            }
        }
    }
    h ^= mix((2 << 40) | ((game.to_move() as u64) << 32) | game.zeros() as u64);
    h
}

/// The points of a rack's tiles.
fn rack_value(game: &Game<'_>, rack: &Rack) -> i32 {
    let t = game.board().tile_set();
    rack.counts()
        .iter()
        .enumerate()
        .map(|(c, &k)| k as i32 * t.value(c as u8))
        .sum()
}

impl Search {
    /// The future spread of `game` for the player to move, within
    /// `alpha`..`beta` (fail-soft), and whether no depth limit cut it.
    fn negamax(
        &mut self,
        game: &mut Game<'_>,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> (i32, bool) {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.stopped = true;
                }
            }
        }
        if self.stopped {
            return (0, false);
        }
        if game.is_over() {
            return (0, true);
        }
        let k = key(game);
        let mut hint = None;
        if let Some(e) = self.table.get(&k) {
            hint = e.best;
            if e.depth >= depth {
                let exact = e.depth == EXACT_DEPTH;
                match e.bound {
                    Bound::Exact => return (e.value, exact),
                    Bound::Lower if e.value >= beta => return (e.value, exact),
                    Bound::Upper if e.value <= alpha => return (e.value, exact),
                    _ => {}
                }
            }
        }
        let me = game.to_move();
        if depth == 0 {
            let mine = rack_value(game, game.rack(me));
            let theirs = rack_value(game, game.rack(1 - me));
            return (theirs - mine, false);
        }
        let mut moves = self.moves(game, ply, hint);
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let mut exact = true;
        for &(_, mv) in &moves {
            let before = spread(game);
            if game.apply(&mv).is_err() {
                continue;
            }
            // The spread is the mover's; after the move the other moves.
            let gain = -spread(game) - before;
            let (child, child_exact) =
                self.negamax(game, depth - 1, gain - beta, gain - alpha, ply + 1);
            game.undo();
            if self.stopped {
                break;
            }
            let value = gain - child;
            exact &= child_exact;
            if value > best {
                best = value;
                best_move = Some(mv);
            }
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        moves.clear();
        self.buffers[ply] = moves;
        if self.stopped {
            return (0, false);
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        if self.table.len() >= TABLE_CAP {
            self.table.clear();
        }
        self.table.insert(
            k,
            Entry {
                depth: if exact { EXACT_DEPTH } else { depth },
                value: best,
                bound,
                best: best_move,
            },
        );
        (best, exact)
    }

    /// The moves of the player to move, best guess first: `hint`, then
    /// by score plus twice the other rack for going out; the pass last.
    fn moves(&mut self, game: &Game<'_>, ply: usize, hint: Option<Move>) -> Vec<(i32, Move)> {
        while self.buffers.len() <= ply {
            self.buffers.push(Vec::new());
        }
        let mut list = std::mem::take(&mut self.buffers[ply]);
        list.clear();
        let me = game.to_move();
        let rack = *game.rack(me);
        let out = 2 * rack_value(game, game.rack(1 - me));
        let size = rack.len();
        game.generate(&mut self.generator, &mut |m: &Move, _: &Rack| {
            let bonus = if m.tiles_used() == size { out } else { 0 };
            list.push((m.score() + bonus, *m));
        });
        list.push((-INF, Move::pass()));
        if let Some(h) = hint {
            if let Some(e) = list.iter_mut().find(|e| e.1 == h) {
                e.0 = INF;
            }
        }
        list.sort_unstable_by_key(|b| std::cmp::Reverse(b.0));
        list
    }

    /// The principal line from `game`, whose value at `depth` is
    /// `value`: at each position, the first move whose value reaches the
    /// position's own (searched again, with the table's help).
    fn line(&mut self, game: &mut Game<'_>, depth: u32, value: i32) -> Vec<Move> {
        let mut line = Vec::new();
        let (mut depth, mut value) = (depth, value);
        while depth > 0 && !game.is_over() {
            let hint = self.table.get(&key(game)).and_then(|e| e.best);
            let moves = self.moves(game, 0, hint);
            // The first move reaching the value; failing that (a depth
            // limit's estimates may disagree), the best one looked at.
            let mut found: Option<(Move, i32)> = None;
            let mut best: Option<(i32, Move, i32)> = None;
            for &(_, mv) in moves
                .iter()
                .take(if hint.is_some() { 8 } else { usize::MAX })
            {
                let before = spread(game);
                if game.apply(&mv).is_err() {
                    continue;
                }
                let gain = -spread(game) - before;
                let (child, _) = self.negamax(game, depth - 1, -INF, INF, 1);
                game.undo();
                if gain - child == value {
                    found = Some((mv, child));
                    break;
                }
                if best.is_none_or(|b| gain - child > b.0) {
                    best = Some((gain - child, mv, child));
                }
            }
            self.buffers[0] = moves;
            let Some((mv, child)) = found.or(best.map(|b| (b.1, b.2))) else {
                break;
            };
            if game.apply(&mv).is_err() {
                break;
            }
            line.push(mv);
            value = child;
            depth -= 1;
        }
        for _ in 0..line.len() {
            game.undo();
        }
        line
    }
}
