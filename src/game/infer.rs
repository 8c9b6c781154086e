//! Inference: which tiles the opponent kept, given the play it made.
//!
//! A bot that saw its opponent play `8D WORD` knows the tiles the play
//! spent but not the ones kept. Inference (Quackle's and macondo's word)
//! lists every leave `L` such that the rack `WORD + L` would have made the
//! play the opponent's choice by equity: no move of that rack worth more
//! than the play's equity plus [`Settings::margin`]. Each leave is
//! weighted by how likely the whole rack was before the play: the number
//! of ways of drawing `WORD + L` from the tiles the inferring player
//! cannot see (the bag and the opponent's rack then), the product over
//! the tiles `c` of `C(unseen[c], rack[c])`. Weights are relative: a
//! leave's probability is its weight over the sum of the consistent
//! leaves' weights. (Drawing `L` from the unseen tiles less the play's,
//! `C(unseen[c] - word[c], leave[c])`, is a different and wrong
//! distribution: with two `E` unseen and one played, the rack `EE` is one
//! draw of the two while `EX` is two, so the kept `E` is half as likely
//! as the kept `X`, not as likely.)
//!
//! Every distinct leave is tried, exactly: a play of 4 tiles from a full
//! bag leaves 3 (some 3,000 leaves of the English set), a play of one
//! tile leaves 6 (some 700,000); [`Settings::max_leaves`] bounds
//! the work. For each the game is dealt the rack ([`Game::set_rack`]) and
//! the generator asked for a move beating the play by more than the
//! margin, which the best-first search answers without listing the rest.
//!
//! The result feeds a simulation: [`crate::game::sim::Settings::opponent_leaves`]
//! deals the opponent a leave drawn by weight before the rest of its rack.
//!
//! ```
//! use lexq::game::{Game, Generator, Position, infer};
//! # fn lexicon() -> lexq::Lexicon { lexq::Lexicon::embedded() }
//! let lex = lexicon();
//! let empty = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15";
//! // Player 0 (rack not known) opens 8D QUARTZ; player 1 (AEINRST)
//! // infers the one tile it kept.
//! let pos = Position::from_cgp(&lex, &format!("{empty} /AEINRST 0/0 0"))?;
//! let game = Game::from_position(&pos, 1)?;
//! let play = game.board().parse_move("8D QUARTZ")?;
//! let found = infer::infer(&game, &Generator::new(), &play, &infer::Settings::default())?;
//! assert_eq!(found.play.score(), 68); // (10 x 2 + 1 + 1 + 1 + 1 + 10) x 2
//! assert!(found.leaves.iter().all(|l| l.leave.len() == 1));
//! let p: f64 = found.leaves.iter().map(|l| found.probability(l)).sum();
//! assert!((p - 1.0).abs() < 1e-9);
//! # Ok::<(), lexq::game::Error>(())
//! ```

use crate::game::error::Result;
use crate::game::movegen::{Generator, Recorder};
use crate::game::moves::{Move, MoveKind};
use crate::game::position_error::{PositionError, PositionErrorKind};
use crate::game::rack::{Rack, push_tile};
use crate::game::state::Game;

/// What [`infer`] does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// A rack is consistent with the play if no move of it is worth more
    /// than the play's equity plus this (millipoints; default 0: the play
    /// was the best, ties allowed).
    pub margin: i32,
    /// The most distinct leaves tried: more is an error, before any
    /// generation (default 2,000,000).
    pub max_leaves: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            margin: 0,
            max_leaves: 2_000_000,
        }
    }
}

/// A leave the opponent may have kept, with its weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Leave {
    /// The tiles kept.
    pub leave: Rack,
    /// The number of ways of drawing the whole rack (the play's tiles and
    /// these) from the unseen tiles: relative odds.
    pub weight: u64,
}

/// What [`infer`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inference {
    /// The play, scored.
    pub play: Move,
    /// The leaves consistent with the play, by weight (highest first),
    /// then by tiles.
    pub leaves: Vec<Leave>,
    /// Distinct leaves tried.
    pub tried: u64,
    /// The weight of every leave tried (every rack that holds the play's
    /// tiles).
    pub total_weight: u128,
    /// The weight of the consistent leaves.
    pub consistent_weight: u128,
}

impl Inference {
    /// The probability of `leave` given the play: its weight over the
    /// consistent leaves' (0 if none is consistent).
    pub fn probability(&self, leave: &Leave) -> f64 {
        if self.consistent_weight == 0 {
            0.0
        } else {
            leave.weight as f64 / self.consistent_weight as f64
        }
    }

    /// The share of the racks holding the play's tiles that are
    /// consistent with it (by weight).
    pub fn consistent_share(&self) -> f64 {
        if self.total_weight == 0 {
            0.0
        } else {
            self.consistent_weight as f64 / self.total_weight as f64
        }
    }
}

fn unsupported(s: impl Into<String>) -> crate::game::Error {
    PositionError::new("infer", PositionErrorKind::Unsupported(s.into())).into()
}

/// Records whether any move reaches the threshold (a move worth more
/// than the play plus the margin), then asks for nothing more.
struct Beats {
    threshold: i32,
    found: bool,
}

impl Recorder for Beats {
    #[inline]
    fn threshold(&self) -> i32 {
        if self.found { i32::MAX } else { self.threshold }
    }
    #[inline]
    fn record(&mut self, _: &Move, _: &Rack, equity: i32) {
        if equity >= self.threshold {
            self.found = true;
        }
    }
    #[inline]
    fn prunes(&self) -> bool {
        true
    }
}

/// `C(n, k)`, exactly (saturating at `u128::MAX`).
fn choose(n: usize, k: usize) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut c: u128 = 1;
    for i in 0..k {
        // c * (n - i) / (i + 1) stays an integer at each step.
        c = match c.checked_mul((n - i) as u128) {
            Some(x) => x / (i as u128 + 1),
            None => return u128::MAX,
        };
    }
    c
}

/// The number of distinct leaves of `size` tiles from `pool` (counts per
/// code), saturating.
fn count_leaves(pool: &[usize], size: usize) -> u128 {
    // ways[s]: leaves of s tiles from the codes seen so far.
    let mut ways = vec![0u128; size + 1];
    ways[0] = 1;
    for &n in pool {
        let mut next = vec![0u128; size + 1];
        for (s, &w) in ways.iter().enumerate() {
            if w == 0 {
                continue;
            }
            for k in 0..=n.min(size - s) {
                next[s + k] = next[s + k].saturating_add(w);
            }
        }
        ways = next;
    }
    ways[size]
}

/// The leaves the player to move of `game` may have kept when playing
/// `play` (a placement, as written: it is scored here), ranked by
/// `generator`'s equity (give it the leave table and exchanges the
/// opponent is modelled with; it is told the bag's size). The unseen
/// tiles are the bag and the mover's rack (the mover's rack in `game` is
/// ignored: it is what is inferred), so the other players' racks must be
/// the ones the inferring player knows. The mover held a full rack, or
/// every unseen tile if fewer.
///
/// An error if the game is over, the play is not a placement, is not
/// legal on the board with the unseen tiles, forms a word the lexicon
/// lacks, or there are more leaves to try than
/// [`Settings::max_leaves`].
pub fn infer(
    game: &Game<'_>,
    generator: &Generator,
    play: &Move,
    settings: &Settings,
) -> Result<Inference> {
    if game.is_over() {
        return Err(unsupported("the game is over"));
    }
    if play.kind() != MoveKind::Place {
        return Err(unsupported(
            "only a placement can be inferred from (an exchange or a pass shows no tiles)",
        ));
    }
    let mover = game.to_move();
    let alphabet = game.board().alphabet();
    let mut pool = Rack::from_codes(game.bag());
    for c in game.rack(mover).codes() {
        pool.add(c);
    }
    let spent = Rack::from_codes(&play.spent().collect::<Vec<u8>>());
    for (code, &k) in spent.counts().iter().enumerate() {
        if pool.count(code as u8) < k as usize {
            let mut s = String::new();
            push_tile(&mut s, alphabet, code as u8, true);
            return Err(unsupported(format!(
                "the play's {s} is not among the tiles the other players cannot see"
            )));
        }
    }
    let scored = game.board().check_move(play, &spent)?;
    let rack_size = game.board().tile_set().rack_size().min(pool.len());
    if spent.len() > rack_size {
        return Err(unsupported(format!(
            "the play spends {} tiles; racks hold {rack_size}",
            spent.len()
        )));
    }
    let leave_size = rack_size - spent.len();
    // What is left to keep, per code.
    let codes = alphabet.len() + 1;
    let left: Vec<usize> = (0..codes)
        .map(|c| pool.count(c as u8) - spent.count(c as u8))
        .collect();
    let distinct = count_leaves(&left, leave_size);
    if distinct > settings.max_leaves as u128 {
        return Err(unsupported(format!(
            "{distinct} leaves to try, over the limit of {}",
            settings.max_leaves
        )));
    }
    let mut g = game.clone();
    let mut generator = generator.clone();
    let mut out = Inference {
        play: scored,
        leaves: Vec::new(),
        tried: 0,
        total_weight: 0,
        consistent_weight: 0,
    };
    let mut leave = Rack::new();
    let mut visit = |leave: &Rack| -> Result<()> {
        let mut rack = *leave;
        for c in spent.codes() {
            rack.add(c);
        }
        g.set_rack(mover, &rack)?;
        let mut weight: u128 = 1;
        for (code, &k) in rack.counts().iter().enumerate().take(codes) {
            weight = weight.saturating_mul(choose(pool.count(code as u8), k as usize));
        }
        let weight = weight.min(u64::MAX as u128) as u64;
        generator.set_bag(Some(g.bag_len()));
        let equity = generator.equity(g.board(), &rack, &scored);
        let mut beats = Beats {
            threshold: equity.saturating_add(settings.margin).saturating_add(1),
            found: false,
        };
        g.generate(&mut generator, &mut beats);
        out.tried += 1;
        out.total_weight += weight as u128;
        if !beats.found {
            out.consistent_weight += weight as u128;
            out.leaves.push(Leave {
                leave: *leave,
                weight,
            });
        }
        Ok(())
    };
    each_leave(&left, 0, leave_size, &mut leave, &mut visit)?;
    out.leaves.sort_by(|a, b| {
        b.weight
            .cmp(&a.weight)
            .then_with(|| a.leave.counts().cmp(b.leave.counts()).reverse())
    });
    Ok(out)
}

/// Calls `f` with every leave of `size` more tiles from codes `code..`
/// of `left` added to `leave`.
fn each_leave(
    left: &[usize],
    code: usize,
    size: usize,
    leave: &mut Rack,
    f: &mut impl FnMut(&Rack) -> Result<()>,
) -> Result<()> {
    if size == 0 {
        return f(leave);
    }
    if code >= left.len() {
        return Ok(());
    }
    let most = left[code].min(size);
    for k in (0..=most).rev() {
        for _ in 0..k {
            leave.add(code as u8);
        }
        let r = each_leave(left, code + 1, size - k, leave, f);
        for _ in 0..k {
            leave.remove(code as u8);
        }
        r?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choose_and_count() {
        assert_eq!(choose(5, 2), 10);
        assert_eq!(choose(12, 6), 924);
        assert_eq!(choose(2, 3), 0);
        assert_eq!(choose(0, 0), 1);
        // Leaves of 2 from {A, A, B}: AA, AB.
        assert_eq!(count_leaves(&[2, 1], 2), 2);
        // Every multiset of 7 from 27 kinds with enough of each: C(33, 7).
        assert_eq!(count_leaves(&[7; 27], 7), choose(33, 7));
    }
}
