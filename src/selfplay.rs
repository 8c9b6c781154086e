//! Greedy self-play: two players who always make the highest-scoring move,
//! tiles drawn from a bag shuffled by a seeded generator, so every game is
//! the same for the same seed. It produces the positions tests and
//! benchmarks run on, and game records in GCG.
//!
//! ```
//! use lexq::{Layout, Lexicon, TileSet, selfplay};
//! let lex = Lexicon::embedded();
//! let tiles = TileSet::named("english", lex.alphabet())?;
//! let game = selfplay::play(&lex, &Layout::standard(), &tiles, 7, "")?;
//! assert!(game.positions.len() > 10);
//! assert!(game.positions[0].starts_with("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 "));
//! assert!(game.gcg.contains(">p1: "));
//! # Ok::<(), lexq::Error>(())
//! ```

use crate::cgp::Opcode;
use crate::error::Result;
use crate::layout::Layout;
use crate::lexicon::Lexicon;
use crate::movegen::{Best, Generator};
use crate::moves::Move;
use crate::tiles::TileSet;

/// A small seeded generator (SplitMix64), so the core needs no `rand`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator for `seed`.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

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

/// Plays one greedy game with seed `seed` on a [`crate::Game`]: each player
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
    let mut game =
        crate::game::Game::new(lex, layout.clone(), tiles.clone(), 2, seed)?.with_opcodes(ops);
    let size = tiles.rack_size();
    let mut positions = Vec::new();
    let mut generator = Generator::new();
    while !game.is_over() {
        positions.push(game.to_cgp());
        let rack = *game.rack(game.to_move());
        let mut best = Best::default();
        generator.generate(game.board(), &rack, &mut best);
        let mv = match best.best {
            Some((mv, _)) => mv,
            None if game.bag_len() >= size => Move::exchange(&rack.codes()),
            None => Move::pass(),
        };
        game.apply(&mv)?;
    }
    Ok(Game {
        positions,
        gcg: game.to_gcg(&["p1", "p2"]),
        scores: [game.score(0), game.score(1)],
    })
}
