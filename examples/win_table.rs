//! Derives the win-chance table of `lexq::game::sim` (the `TABLE` of
//! src/game/sim/win.rs) from lexq's own self-play:
//! `cargo run --release --example win_table [GAMES] [LEAVES]` (GAMES
//! 2000 by default; the shipped table: 1000).
//!
//! It plays GAMES games (seeds 1..=GAMES) between two copies of the same
//! bot (by score, or by equity with the leave table LEAVES, exchanges
//! allowed), and before every turn notes the tiles in the bag and the
//! spread of the player to move. Per range of bag sizes it prints how
//! the mover's spread moved from there to the end of the game: its mean
//! (what moving next is worth) and standard deviation, as Rust lines of
//! the table. The sim reads a win chance as the normal distribution's
//! chance that `spread + mean` plus a draw of that spread stays above 0.

use std::sync::Arc;

use lexq::game::leaves::Leaves;
use lexq::{Lexicon, TileSet, game::Game, game::Generator, game::Layout};

/// The largest bag of each range.
const RANGES: [usize; 13] = [0, 3, 7, 14, 21, 28, 35, 42, 49, 56, 63, 70, 100];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let lex = Lexicon::embedded();
    let tiles = TileSet::named("english", lex.alphabet())?;
    let mut generator = Generator::new();
    if let Some(path) = args.get(2) {
        let table = Leaves::open(std::path::Path::new(path), lex.alphabet())?;
        generator = generator.exchanges(true).leaves(Some(Arc::new(table)));
    }
    // Per range: count, sum and sum of squares of the spread's move.
    let mut sums = [(0u64, 0f64, 0f64); RANGES.len()];
    for seed in 1..=games {
        let mut game = Game::new(&lex, Layout::standard(), tiles.clone(), 2, seed)?;
        let mut seen = Vec::new();
        while !game.is_over() {
            let me = game.to_move();
            seen.push((game.bag_len(), me, game.score(me) - game.score(1 - me)));
            let mv = game.best_move(&mut generator).mv;
            game.apply(&mv)?;
        }
        for (bag, me, before) in seen {
            let after = game.score(me) - game.score(1 - me);
            let moved = (after - before) as f64;
            let r = RANGES
                .iter()
                .position(|&m| bag <= m)
                .unwrap_or(RANGES.len() - 1);
            sums[r].0 += 1;
            sums[r].1 += moved;
            sums[r].2 += moved * moved;
        }
    }
    println!("// {games} games, seeds 1..={games}: (largest bag, mean, deviation, turns)");
    for (r, &(n, s, s2)) in sums.iter().enumerate() {
        if n < 2 {
            continue;
        }
        let mean = s / n as f64;
        let sd = ((s2 - n as f64 * mean * mean) / (n as f64 - 1.0))
            .max(0.0)
            .sqrt();
        println!("    ({}, {mean:.1}, {sd:.1}), // {n} turns", RANGES[r]);
    }
    Ok(())
}
