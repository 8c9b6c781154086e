//! The simulation bot against the equity bot:
//! `cargo run --release --example sim_match -- LEAVES [GAMES] [ITERATIONS] [CANDIDATES] [PLIES] [SEED] [JOBS]`.
//!
//! Both bots rank by equity with the leave table LEAVES (KLV2 or CSV,
//! exchanges allowed). The sim bot plays `lexq::game::sim`'s first move
//! (ITERATIONS draws, default 100, of the best CANDIDATES moves, default
//! 10, PLIES replies, default 2) while the bag holds tiles, and the
//! equity bot's move once it is empty (the endgame is not the question
//! here). Game `k` uses seed SEED + k (default 1,000,001); the sim bot
//! moves first in even games. It prints the sim bot's wins, draws and
//! losses, its win rate with the 95% Wilson interval, the mean spread, and
//! the mean time of a sim move.

use std::sync::Arc;
use std::time::Instant;

use lexq::game::leaves::Leaves;
use lexq::game::selfplay::wilson;
use lexq::game::{Game, Generator, Layout, sim};
use lexq::{Lexicon, TileSet};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let num = |i: usize, d: u64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let path = args
        .get(1)
        .ok_or("usage: sim_match LEAVES [GAMES] [ITERATIONS] [CANDIDATES] [PLIES] [SEED] [JOBS]")?;
    let (games, iterations, candidates, plies) = (num(2, 100), num(3, 100), num(4, 10), num(5, 2));
    let (seed, jobs) = (num(6, 1_000_001), num(7, 1));
    let lex = Lexicon::embedded();
    let tiles = TileSet::named("english", lex.alphabet())?;
    let table = Arc::new(Leaves::open(std::path::Path::new(path), lex.alphabet())?);
    let mut generator = Generator::new().exchanges(true).leaves(Some(table));
    let settings = sim::Settings {
        candidates: candidates as usize,
        iterations: iterations as u32,
        plies: plies as u32,
        jobs: jobs as usize,
        ..Default::default()
    };
    let (mut won, mut drawn, mut spread_sum) = (0u64, 0u64, 0i64);
    let (mut sim_moves, mut sim_time) = (0u64, 0f64);
    for k in 0..games {
        let mut game = Game::new(&lex, Layout::standard(), tiles.clone(), 2, seed + k)?;
        let simmer = (k % 2) as usize;
        while !game.is_over() {
            let mv = if game.to_move() == simmer && game.bag_len() > 0 {
                let t = Instant::now();
                let s = sim::Settings {
                    seed: seed + k * 1000 + game.turns().len() as u64,
                    ..settings.clone()
                };
                let ranked = sim::simulate(&game, &generator, &s, &|_, _| {})?;
                sim_time += t.elapsed().as_secs_f64();
                sim_moves += 1;
                ranked[0].mv
            } else {
                game.best_move(&mut generator).mv
            };
            game.apply(&mv)?;
        }
        let spread = game.score(simmer) - game.score(1 - simmer);
        spread_sum += spread as i64;
        match spread.signum() {
            1 => won += 1,
            0 => drawn += 1,
            _ => {}
        }
    }
    let wins = won as f64 + drawn as f64 / 2.0;
    let (lo, hi) = wilson(wins, games, 1.96);
    println!(
        "sim bot: {won} won, {drawn} drawn, {} lost of {games}: win rate {:.3} (95% Wilson {lo:.3}-{hi:.3}), mean spread {:+.1}, {:.3} s a sim move ({sim_moves} moves)",
        games - won - drawn,
        wins / games as f64,
        spread_sum as f64 / games as f64,
        sim_time / sim_moves.max(1) as f64
    );
    Ok(())
}
