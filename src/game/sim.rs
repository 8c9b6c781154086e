//! Monte Carlo simulation: the best few moves by equity, each played out
//! over many random draws, ranked by how often they win.
//!
//! For each iteration `i` the opponent's rack goes back into the bag, the
//! bag is shuffled from `(seed, i)` and the opponent dealt a fresh rack;
//! every candidate still in the running is then played, followed by
//! [`Settings::plies`] moves of the equity bot ([`Game::best_move`] with
//! the caller's generator), the draws coming from that same bag (the same
//! random numbers for every candidate, so that their difference is
//! measured with less noise). At the end of the line the spread is the
//! mover's score less the opponent's, plus the leave value of each
//! player's last move (the mover's counted for, the opponent's against);
//! the win chance is 1, 1/2 or 0 if the game ended, else the
//! [`win_chance`] of that spread with the tiles left in the bag.
//!
//! Iterations go in rounds of [`ROUND`]; after each round a candidate
//! whose win chance is below the leader's by more than
//! [`Settings::cutoff`] standard errors of their difference (and that has
//! had at least two rounds) stops: it is out of the running. The sums
//! are kept in integers (millipoints, millionths of a win), so that the
//! answer depends only on the position, the generator and the settings:
//! the same seed gives the same result for any number of threads.
//!
//! ```
//! use lexq::game::{Game, Generator, Position, sim};
//! # fn lexicon() -> lexq::Lexicon { lexq::Lexicon::embedded() }
//! let lex = lexicon();
//! let empty = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15";
//! let pos = Position::from_cgp(&lex, &format!("{empty} AEINRSQ/ 0/0 0"))?;
//! let game = Game::from_position(&pos, 1)?;
//! let settings = sim::Settings { candidates: 3, iterations: 20, plies: 2, ..Default::default() };
//! let ranked = sim::simulate(&game, &Generator::new(), &settings, &|_, _| {})?;
//! assert_eq!(ranked.len(), 3);
//! assert!(ranked.iter().all(|c| (0.0..=1.0).contains(&c.win)));
//! # Ok::<(), lexq::game::Error>(())
//! ```

mod win;

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

pub use win::win_chance;

use crate::game::error::Result;
use crate::game::infer::Leave;
use crate::game::leaves::MILLI;
use crate::game::movegen::{Generator, TopN, Valued};
use crate::game::moves::Move;
use crate::game::position_error::{PositionError, PositionErrorKind};
use crate::game::rack::Rack;
use crate::game::rng::SplitMix;
use crate::game::state::Game;

/// Iterations between two looks at which candidates are out of the
/// running.
pub const ROUND: u32 = 32;

/// Millionths of a win.
const MICRO: i64 = 1_000_000;

/// What [`simulate`] does.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Moves simulated: the best this many by equity (default 10).
    pub candidates: usize,
    /// Iterations (random draws) for each candidate at most (default
    /// 1000).
    pub iterations: u32,
    /// Moves played after the candidate, both players' (default 2).
    pub plies: u32,
    /// The seed of the draws (default 1).
    pub seed: u64,
    /// Threads (default 1).
    pub jobs: usize,
    /// Standard errors of its difference from the leader below which a
    /// candidate stops (default 3.0; `f64::INFINITY` never stops one).
    pub cutoff: f64,
    /// What the opponent kept from its last play, by weight (an
    /// [`crate::game::infer::Inference`]'s leaves): each iteration deals
    /// the opponent one of these, drawn by weight, then the rest of its
    /// rack from the bag. Empty (the default): the whole rack is drawn.
    pub opponent_leaves: Vec<Leave>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            candidates: 10,
            iterations: 1000,
            plies: 2,
            seed: 1,
            jobs: 1,
            cutoff: 3.0,
            opponent_leaves: Vec::new(),
        }
    }
}

/// One candidate's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The move.
    pub mv: Move,
    /// Its equity in millipoints, as the generator ranked it.
    pub equity: i32,
    /// Iterations played.
    pub iterations: u32,
    /// Mean spread at the end of the line (points).
    pub spread: f64,
    /// Standard error of that mean.
    pub stderr: f64,
    /// Mean win chance (0 to 1).
    pub win: f64,
    /// Standard error of that mean.
    pub win_stderr: f64,
    /// Whether it stopped early, out of the running.
    pub stopped: bool,
}

/// Integer sums of one candidate's iterations.
#[derive(Clone, Copy, Debug, Default)]
struct Sums {
    n: u32,
    spread: i64,
    spread2: i128,
    win: i64,
    win2: i128,
}

impl Sums {
    fn add(&mut self, spread: i64, win: i64) {
        self.n += 1;
        self.spread += spread;
        self.spread2 += spread as i128 * spread as i128;
        self.win += win;
        self.win2 += win as i128 * win as i128;
    }

    /// Mean and standard error of a sum and its sum of squares over
    /// `n`, divided by `unit`.
    fn stats(n: u32, sum: i64, sum2: i128, unit: f64) -> (f64, f64) {
        if n == 0 {
            return (0.0, 0.0);
        }
        let n = n as f64;
        let mean = sum as f64 / n;
        let var = if n > 1.0 {
            ((sum2 as f64 - n * mean * mean) / (n - 1.0)).max(0.0)
        } else {
            0.0
        };
        (mean / unit, (var / n).sqrt() / unit)
    }

    fn spread(&self) -> (f64, f64) {
        Sums::stats(self.n, self.spread, self.spread2, MILLI as f64)
    }

    fn win(&self) -> (f64, f64) {
        Sums::stats(self.n, self.win, self.win2, MICRO as f64)
    }
}

/// Simulates the player to move's best `settings.candidates` moves by
/// `generator`'s equity (it also chooses every reply; give it a leave
/// table and exchanges for an equity bot), best first: by win chance,
/// then mean spread, then equity. `progress(done, total)` is told the
/// iterations played after each round. Two players; the game not over.
pub fn simulate(
    game: &Game<'_>,
    generator: &Generator,
    settings: &Settings,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<Vec<Candidate>> {
    if game.players() != 2 || game.is_over() {
        return Err(PositionError::new(
            "sim",
            PositionErrorKind::Unsupported(if game.is_over() {
                "the game is over".into()
            } else {
                format!("{} players: simulation plays two", game.players())
            }),
        )
        .into());
    }
    let mut root = game.clone();
    let opp = 1 - game.to_move();
    // Take the opponent's rack back into the bag: each iteration deals it.
    root.set_rack(opp, &Rack::new())?;
    // As many tiles as the opponent holds (a rack not shown was dealt).
    let opp_size = game.rack(opp).len();
    check_leaves(&root, &settings.opponent_leaves, opp_size)?;
    let opponent = Opponent {
        player: opp,
        size: opp_size,
        weights: Weights::new(&settings.opponent_leaves),
    };
    let mut top = TopN::new(settings.candidates.max(1));
    game.generate(&mut generator.clone(), &mut top);
    let mut list: Vec<Valued> = top.into_valued();
    if list.is_empty() {
        list.push(game.best_move(&mut generator.clone()));
    }
    let mut sums = vec![Sums::default(); list.len()];
    let mut alive = vec![true; list.len()];
    let total = settings.iterations as u64 * list.len() as u64;
    let mut done = 0u64;
    let mut start = 0u32;
    let jobs = settings.jobs.max(1);
    while start < settings.iterations {
        let end = (start + ROUND).min(settings.iterations);
        let work: Vec<(u32, usize)> = (start..end)
            .flat_map(|i| (0..list.len()).filter(|&c| alive[c]).map(move |c| (i, c)))
            .collect();
        if work.is_empty() {
            break;
        }
        let next = AtomicUsize::new(0);
        let results = Mutex::new(Vec::with_capacity(work.len()));
        std::thread::scope(|scope| {
            for _ in 0..jobs.min(work.len()) {
                scope.spawn(|| {
                    let mut g = root.clone();
                    let mut bot = generator.clone();
                    let mut mine = Vec::new();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&(i, c)) = work.get(k) else { break };
                        let r = iterate(&mut g, &mut bot, &list[c], &opponent, settings, i);
                        mine.push((c, r));
                    }
                    results.lock().expect("no panic").extend(mine);
                });
            }
        });
        for (c, (spread, win)) in results.into_inner().expect("no panic") {
            sums[c].add(spread, win);
        }
        done += work.len() as u64;
        progress(done, total);
        start = end;
        // Pruned only while iterations remain: a candidate that ran them
        // all is not "stopped early".
        if start >= 2 * ROUND && start < settings.iterations {
            prune(&sums, &mut alive, settings.cutoff);
        }
    }
    let mut out: Vec<Candidate> = list
        .iter()
        .zip(&sums)
        .zip(&alive)
        .map(|((v, s), &a)| {
            let (spread, stderr) = s.spread();
            let (win, win_stderr) = s.win();
            Candidate {
                mv: v.mv,
                equity: v.equity,
                iterations: s.n,
                spread,
                stderr,
                win,
                win_stderr,
                stopped: !a,
            }
        })
        .collect();
    out.sort_by(|a, b| {
        b.win
            .total_cmp(&a.win)
            .then(b.spread.total_cmp(&a.spread))
            .then(b.equity.cmp(&a.equity))
    });
    Ok(out)
}

/// Refuses leaves the opponent could not hold: over its rack, not among
/// the tiles the mover cannot see, or all of weight 0.
fn check_leaves(root: &Game<'_>, leaves: &[Leave], opp_size: usize) -> Result<()> {
    if leaves.is_empty() {
        return Ok(());
    }
    let pool = Rack::from_codes(root.bag());
    let refuse = |s: String| -> crate::game::Error {
        PositionError::new("sim", PositionErrorKind::Unsupported(s)).into()
    };
    for l in leaves {
        if l.leave.len() > opp_size {
            return Err(refuse(format!(
                "an opponent's leave of {} tiles; its rack holds {opp_size}",
                l.leave.len()
            )));
        }
        if (0..64u8).any(|c| l.leave.count(c) > pool.count(c)) {
            return Err(refuse(format!(
                "the opponent's leave {} is not among the tiles the mover cannot see",
                l.leave.to_string(root.board().alphabet())
            )));
        }
    }
    if leaves.iter().all(|l| l.weight == 0) {
        return Err(refuse("every opponent's leave has weight 0".into()));
    }
    Ok(())
}

/// Who is dealt a rack each iteration, how many tiles, and the leaves
/// it may have kept.
struct Opponent<'l> {
    player: usize,
    size: usize,
    weights: Weights<'l>,
}

/// The opponent's leaves with their running weights, to draw one by
/// weight.
struct Weights<'l> {
    leaves: &'l [Leave],
    /// `cumulative[k]`: the weight of leaves `0..=k`.
    cumulative: Vec<u128>,
}

impl<'l> Weights<'l> {
    fn new(leaves: &'l [Leave]) -> Weights<'l> {
        let mut sum = 0u128;
        let cumulative = leaves
            .iter()
            .map(|l| {
                sum += l.weight as u128;
                sum
            })
            .collect();
        Weights { leaves, cumulative }
    }

    /// A leave drawn by weight with `rng`, if there are leaves.
    fn draw(&self, rng: &mut SplitMix) -> Option<&'l Leave> {
        let total = *self.cumulative.last()?;
        // 128 random bits modulo the total: a bias below total / 2^128.
        let bits = ((rng.next_u64() as u128) << 64) | rng.next_u64() as u128;
        let r = bits % total;
        let k = self.cumulative.partition_point(|&c| c <= r);
        self.leaves.get(k)
    }
}

/// Stops every candidate whose win chance is below the leader's by more
/// than `cutoff` standard errors of the difference.
fn prune(sums: &[Sums], alive: &mut [bool], cutoff: f64) {
    let lead = (0..sums.len()).filter(|&c| alive[c]).max_by(|&a, &b| {
        let (wa, wb) = (sums[a].win().0, sums[b].win().0);
        wa.total_cmp(&wb).then(b.cmp(&a))
    });
    let Some(lead) = lead else { return };
    let (lw, ls) = sums[lead].win();
    for c in 0..sums.len() {
        if c == lead || !alive[c] {
            continue;
        }
        let (w, s) = sums[c].win();
        let se = (ls * ls + s * s).sqrt();
        if se > 0.0 && lw - w > cutoff * se {
            alive[c] = false;
        }
    }
}

/// One iteration of one candidate: the draw of iteration `i`, the
/// candidate, the replies; the spread (millipoints) and win chance
/// (millionths) for the mover. `g` comes back as it was, but for its
/// bag's order and the opponent's rack.
fn iterate(
    g: &mut Game<'_>,
    bot: &mut Generator,
    candidate: &Valued,
    opponent: &Opponent<'_>,
    settings: &Settings,
    i: u32,
) -> (i64, i64) {
    let opp = opponent.player;
    let me = 1 - opp;
    let _ = g.set_rack(opp, &Rack::new());
    let draw_seed = settings.seed ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut rng = SplitMix::new(draw_seed);
    g.shuffle_bag(rng.next_u64());
    // The inferred leave first (checked to be in the bag), then the rest.
    let mut kept = 0;
    if let Some(l) = opponent.weights.draw(&mut rng) {
        if g.deal(opp, &l.leave.codes()).is_ok() {
            kept = l.leave.len();
        }
    }
    let k = (opponent.size - kept).min(g.bag_len());
    let draw: Vec<u8> = g.bag()[g.bag_len() - k..].to_vec();
    let _ = g.deal(opp, &draw);
    let mut leave = [0i64; 2];
    let mut played = 0;
    if g.apply(&candidate.mv).is_ok() {
        played += 1;
        leave[me] = candidate.leave_value() as i64;
        for _ in 0..settings.plies {
            if g.is_over() {
                break;
            }
            let p = g.to_move();
            let v = g.best_move(bot);
            if g.apply(&v.mv).is_err() {
                break;
            }
            played += 1;
            leave[p] = v.leave_value() as i64;
        }
    }
    let points = (g.score(me) - g.score(opp)) as i64 * MILLI as i64;
    let (spread, win) = if g.is_over() {
        let w = match points.signum() {
            1 => MICRO,
            0 => MICRO / 2,
            _ => 0,
        };
        (points, w)
    } else {
        let spread = points + leave[me] - leave[opp];
        let mover = g.to_move();
        let theirs = if mover == me { spread } else { -spread };
        let chance = win_chance(theirs as f64 / MILLI as f64, g.bag_len());
        let mine = if mover == me { chance } else { 1.0 - chance };
        (spread, (mine * MICRO as f64).round() as i64)
    };
    for _ in 0..played {
        g.undo();
    }
    (spread, win)
}
