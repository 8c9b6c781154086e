//! Play and undo against cloning, per move, for search:
//! `taskset -c 1 cargo run --release --example undo_timing [GAMES] [ROUNDS]`.
//!
//! The positions are every turn of GAMES greedy self-played games (seeds
//! 1..=GAMES), each with up to 40 of its moves. Each round times, over
//! all of them, in turn:
//!
//! - `undo`: `Game::apply` then `Game::undo` (the game state a bot steps);
//! - `clone game`: clone the `Game`, then `apply` on the clone;
//! - `clone board`: clone the `Board`, then `Board::play` on the clone
//!   (the least a search by copying needs);
//! - `clone only`: clone the `Board` (so `clone board` less this is what
//!   `Board::play` itself costs).
//!
//! The three alternate within each round; medians over the rounds are
//! printed in nanoseconds per move, with their ratios to `undo`.

use std::time::Instant;

use lexq::{Lexicon, TileSet, game::All, game::Game, game::Generator, game::Layout, game::Move};

fn main() -> Result<(), lexq::game::Error> {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20);
    let rounds: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(9);
    let lex = Lexicon::embedded();
    let tiles = TileSet::named("english", lex.alphabet())?;
    let mut generator = Generator::new();
    let mut cases: Vec<(Game<'_>, Vec<Move>)> = Vec::new();
    for seed in 1..=games {
        let mut game = Game::new(&lex, Layout::standard(), tiles.clone(), 2, seed)?;
        while !game.is_over() {
            let mut all = All::default();
            generator.generate(game.board(), game.rack(game.to_move()), &mut all);
            let moves = all.into_sorted();
            let step = (moves.len() / 40).max(1);
            let sample: Vec<Move> = moves.iter().step_by(step).take(40).copied().collect();
            let best = moves.first().copied().unwrap_or(Move::pass());
            cases.push((game.clone(), sample));
            game.apply(&best)?;
        }
    }
    let n: usize = cases.iter().map(|c| c.1.len()).sum();
    println!("{} positions, {n} moves, {rounds} rounds", cases.len());
    let mut times: [Vec<f64>; 4] = Default::default();
    let mut sink = 0usize;
    for _ in 0..rounds {
        let t = Instant::now();
        for (game, moves) in &mut cases {
            for m in moves.iter() {
                game.apply(m)?;
                sink += game.bag_len();
                game.undo();
            }
        }
        times[0].push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        for (game, moves) in &cases {
            for m in moves {
                let mut g = game.clone();
                g.apply(m)?;
                sink += g.bag_len();
            }
        }
        times[1].push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        for (game, moves) in &cases {
            for m in moves {
                let mut b = game.board().clone();
                b.play(m)?;
                sink += b.tile_count();
            }
        }
        times[2].push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        for (game, moves) in &cases {
            for _ in moves {
                let b = game.board().clone();
                sink += b.tile_count();
            }
        }
        times[3].push(t.elapsed().as_secs_f64());
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2] * 1e9 / n as f64
    };
    let [u, g, b, c] = [
        median(&mut times[0]),
        median(&mut times[1]),
        median(&mut times[2]),
        median(&mut times[3]),
    ];
    println!("undo         {u:8.1} ns/move");
    println!("clone game   {g:8.1} ns/move  ({:.2}x undo)", g / u);
    println!("clone board  {b:8.1} ns/move  ({:.2}x undo)", b / u);
    println!("clone only   {c:8.1} ns/move  ({:.2}x undo)", c / u);
    std::hint::black_box(sink);
    Ok(())
}
