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

use std::fmt::Write;

use crate::board::Board;
use crate::cgp::{Opcode, Position};
use crate::error::Result;
use crate::layout::Layout;
use crate::lexicon::Lexicon;
use crate::movegen::{Best, Generator};
use crate::moves::{Move, MoveKind};
use crate::rack::{Rack, push_tile};
use crate::tiles::TileSet;

/// A small seeded generator (SplitMix64), so the core needs no `rand`.
#[derive(Clone, Debug)]
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

/// Plays one greedy game with seed `seed`. `opcodes` (like `lex ENABLE;`)
/// is appended to every CGP line.
pub fn play(
    lex: &Lexicon,
    layout: &Layout,
    tiles: &TileSet,
    seed: u64,
    opcodes: &str,
) -> Result<Game> {
    let a = lex.alphabet();
    let mut rng = SplitMix::new(seed);
    let mut bag: Vec<u8> = Vec::with_capacity(tiles.total());
    for code in 0..=a.len() as u8 {
        bag.extend(std::iter::repeat_n(code, tiles.count(code)));
    }
    for i in (1..bag.len()).rev() {
        let j = rng.below(i + 1);
        bag.swap(i, j);
    }
    let size = tiles.rack_size();
    let mut racks: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
    for r in &mut racks {
        draw(r, &mut bag, size);
    }
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
    let mut pos = Position {
        board: Board::new(lex, layout.clone(), tiles.clone())?,
        racks: vec![Vec::new(), Vec::new()],
        scores: vec![0, 0],
        zeros: 0,
        ops,
    };
    let mut scores = [0i32; 2];
    let mut gcg =
        String::from("#character-encoding UTF-8\n#player1 p1 Player 1\n#player2 p2 Player 2\n");
    let mut positions = Vec::new();
    let mut generator = Generator::new();
    let mut turn = 0usize;
    let mut zeros = 0u32;
    loop {
        let me = turn % 2;
        pos.racks = vec![racks[me].clone(), racks[1 - me].clone()];
        pos.scores = vec![scores[me], scores[1 - me]];
        pos.zeros = zeros;
        positions.push(pos.to_cgp());
        let rack = Rack::from_codes(&racks[me]);
        let mut best = Best::default();
        generator.generate(&pos.board, &rack, &mut best);
        let mv = match best.best {
            Some((mv, _)) => mv,
            None if bag.len() >= size => Move::exchange(&racks[me]),
            None => Move::pass(),
        };
        pos.board.play(&mv)?;
        scores[me] += mv.score();
        let rack_text = tiles_text(a, &racks[me]);
        let _ = writeln!(
            gcg,
            ">p{}: {} {} +{} {}",
            me + 1,
            rack_text,
            mv.notation(a),
            mv.score(),
            scores[me]
        );
        match mv.kind() {
            MoveKind::Place => {
                for t in mv.spent() {
                    if let Some(i) = racks[me].iter().position(|&x| x == t) {
                        racks[me].remove(i);
                    }
                }
                draw(&mut racks[me], &mut bag, size);
            }
            MoveKind::Exchange => {
                let old = std::mem::take(&mut racks[me]);
                draw(&mut racks[me], &mut bag, size);
                bag.extend(old);
                for i in (1..bag.len()).rev() {
                    let j = rng.below(i + 1);
                    bag.swap(i, j);
                }
            }
            MoveKind::Pass => {}
        }
        zeros = if mv.score() == 0 { zeros + 1 } else { 0 };
        turn += 1;
        let value = |r: &[u8]| r.iter().map(|&t| tiles.value(t)).sum::<i32>();
        if racks[me].is_empty() {
            // Out: the opponent's rack counts double for the player out.
            let v = 2 * value(&racks[1 - me]);
            scores[me] += v;
            let _ = writeln!(
                gcg,
                ">p{}: ({}) +{v} {}",
                me + 1,
                tiles_text(a, &racks[1 - me]),
                scores[me]
            );
            break;
        }
        if zeros >= 6 {
            for p in [me, 1 - me] {
                let v = value(&racks[p]);
                scores[p] -= v;
                let _ = writeln!(
                    gcg,
                    ">p{}: ({}) -{v} {}",
                    p + 1,
                    tiles_text(a, &racks[p]),
                    scores[p]
                );
            }
            break;
        }
    }
    Ok(Game {
        positions,
        gcg,
        scores,
    })
}

fn draw(rack: &mut Vec<u8>, bag: &mut Vec<u8>, size: usize) {
    while rack.len() < size {
        match bag.pop() {
            Some(t) => rack.push(t),
            None => break,
        }
    }
}

fn tiles_text(a: &crate::alphabet::Alphabet, tiles: &[u8]) -> String {
    let mut s = String::new();
    for &t in tiles {
        push_tile(&mut s, a, t, false);
    }
    s
}
