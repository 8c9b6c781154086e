//! Self-play: two players, each a [`Generator`] that picks its best move
//! (greedy without a leave table, by equity with one), tiles drawn from a
//! bag shuffled by a seeded generator, so every game is the same for the
//! same seed and players. It produces the positions tests and benchmarks
//! run on, game records in GCG, matches between bots ([`play_with`],
//! [`wilson`]) and the turns leave tables are estimated from
//! ([`crate::game::leavegen`]).
//!
//! ```
//! use lexq::{game::Layout, Lexicon, TileSet, game::selfplay};
//! let lex = Lexicon::embedded();
//! let tiles = TileSet::named("english", lex.alphabet())?;
//! let game = selfplay::play(&lex, &Layout::standard(), &tiles, 7, "")?;
//! assert!(game.positions.len() > 10);
//! assert!(game.positions[0].starts_with("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 "));
//! assert!(game.gcg.contains(">p1: "));
//! # Ok::<(), lexq::game::Error>(())
//! ```

use crate::alphabet::tileset::TileSet;
use crate::game::cgp::Opcode;
use crate::game::error::Result;
use crate::game::layout::Layout;
use crate::game::movegen::{Best, Generator, Valued};
use crate::game::moves::Move;
use crate::game::rack::Rack;
use crate::lexicon::Lexicon;

pub use crate::game::rng::SplitMix;

/// One self-played game.
#[derive(Clone, Debug)]
pub struct Game {
    /// The position before every turn, as CGP (the mover's rack first, both
    /// racks known).
    pub positions: Vec<String>,
    /// The game record in GCG.
    pub gcg: String,
    /// Final scores of player 1 and player 2.
    pub scores: [i32; 2],
}

/// Plays one greedy game with seed `seed` on a [`crate::game::Game`]: each player
/// makes the highest-scoring move, or exchanges the whole rack when none
/// fits and the bag allows, else passes. `opcodes` (like `lex ENABLE;`) is
/// appended to every CGP line and names the lexicon, board and tile set in
/// the GCG header.
pub fn play(
    lex: &Lexicon,
    layout: &Layout,
    tiles: &TileSet,
    seed: u64,
    opcodes: &str,
) -> Result<Game> {
    let (mut a, mut b) = (Generator::new(), Generator::new());
    play_with(lex, layout, tiles, seed, opcodes, [&mut a, &mut b], |_| {})
}

/// One turn of a self-played game, as [`play_with`] reports it.
#[derive(Clone, Copy, Debug)]
pub struct TurnSeen<'t> {
    /// The player who moved (0 moves first).
    pub player: usize,
    /// Their rack before the move.
    pub rack: &'t Rack,
    /// Tiles in the bag before the move.
    pub bag: usize,
    /// The move and its equity as the player's generator ranked it
    /// (1000 x the score without a leave table; an exchange or pass made
    /// for want of a move is valued by that generator too).
    pub chosen: Valued,
}

/// Plays one game with seed `seed` between two generators: player `i`
/// moves by `players[i]`'s best move ([`Best`]: by score, or by equity
/// with a leave table; exchanges and the pass only if that generator lists
/// them). With no move listed, a player exchanges the whole rack when the
/// bag allows, else passes. Each generator is told the bag's size before
/// it moves (exchanges need a rack's worth; an empty bag changes equity).
/// `observe` sees every turn before it is played.
///
/// ```
/// use std::sync::Arc;
/// use lexq::{game::Generator, game::Layout, Lexicon, TileSet, game::leaves::Leaves, game::selfplay};
/// let lex = Lexicon::embedded();
/// let tiles = TileSet::named("english", lex.alphabet())?;
/// let table = Leaves::from_csv("S,8\n?,25\nQ,-7\n", lex.alphabet())?;
/// let mut equity = Generator::new().exchanges(true).leaves(Some(Arc::new(table)));
/// let mut greedy = Generator::new();
/// let mut turns = 0;
/// let game = selfplay::play_with(&lex, &Layout::standard(), &tiles, 7, "",
///     [&mut equity, &mut greedy], |_| turns += 1)?;
/// assert_eq!(turns, game.positions.len());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn play_with(
    lex: &Lexicon,
    layout: &Layout,
    tiles: &TileSet,
    seed: u64,
    opcodes: &str,
    players: [&mut Generator; 2],
    mut observe: impl FnMut(&TurnSeen<'_>),
) -> Result<Game> {
    let ops: Vec<Opcode> = opcodes
        .split(';')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            let (name, args) = s.split_once(' ').unwrap_or((s, ""));
            Opcode {
                name: name.into(),
                args: args.trim().into(),
            }
        })
        .collect();
    let mut game = crate::game::state::Game::new(lex, layout.clone(), tiles.clone(), 2, seed)?
        .with_opcodes(ops);
    let size = tiles.rack_size();
    let mut positions = Vec::new();
    while !game.is_over() {
        positions.push(game.to_cgp());
        let me = game.to_move();
        let rack = *game.rack(me);
        let generator = &mut *players[me & 1];
        generator.set_bag(Some(game.bag_len()));
        let mut best = Best::default();
        generator.generate(game.board(), &rack, &mut best);
        let chosen = match best.valued() {
            Some(v) => v,
            None => {
                let mv = if game.bag_len() >= size {
                    Move::exchange(&rack.codes())
                } else {
                    Move::pass()
                };
                Valued {
                    mv,
                    equity: generator.equity(game.board(), &rack, &mv),
                }
            }
        };
        observe(&TurnSeen {
            player: me,
            rack: &rack,
            bag: game.bag_len(),
            chosen,
        });
        game.apply(&chosen.mv)?;
    }
    Ok(Game {
        positions,
        gcg: game.to_gcg(&["p1", "p2"]),
        scores: [game.score(0), game.score(1)],
    })
}

/// The Wilson score interval of a win rate: `wins` (a draw counts half)
/// out of `games`, at `z` standard deviations (1.96 for 95%). Unlike the
/// normal approximation it stays inside 0..1 and is sound for rates near
/// 0 or 1 and for few games. `(0.0, 1.0)` for no games.
///
/// ```
/// // 60 wins in 100 games: 0.502 to 0.691 at 95%.
/// let (lo, hi) = lexq::game::selfplay::wilson(60.0, 100, 1.96);
/// assert_eq!((format!("{lo:.3}"), format!("{hi:.3}")), ("0.502".to_string(), "0.691".to_string()));
/// ```
pub fn wilson(wins: f64, games: u64, z: f64) -> (f64, f64) {
    if games == 0 {
        return (0.0, 1.0);
    }
    let n = games as f64;
    let p = (wins / n).clamp(0.0, 1.0);
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}
