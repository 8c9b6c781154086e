//! Inference's speed by the number of tiles the play spent:
//! `taskset -c 1 cargo run --release --example infer_timing [GAMES]`.
//!
//! The plays are every placement of 2 to 7 tiles made while the bag held
//! at least a rack's worth, in GAMES self-played games (seeds 1..=GAMES)
//! of the equity bot with `tests/data/leaves/small.csv`; each is inferred
//! from the other player's side with that table and exchanges (margin 0),
//! once. Plays of one tile (some 700,000 leaves each) are left out. For
//! each number of tiles spent: the plays, the leaves tried, the median
//! and the longest time of one inference, and the leaves a second.

use std::sync::Arc;
use std::time::Instant;

use lexq::game::leaves::Leaves;
use lexq::game::{Game, Generator, Layout, MoveKind, Rack, infer};
use lexq::{Lexicon, TileSet};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    let lex = Lexicon::embedded();
    let tiles = TileSet::named("english", lex.alphabet())?;
    let table = Arc::new(Leaves::open(
        "tests/data/leaves/small.csv".as_ref(),
        lex.alphabet(),
    )?);
    let mut generator = Generator::new().exchanges(true).leaves(Some(table));
    // (tiles spent) -> (seconds of each inference, leaves tried)
    let mut by_tiles: Vec<(Vec<f64>, u64)> = vec![(Vec::new(), 0); 8];
    for seed in 1..=games {
        let mut game = Game::new(&lex, Layout::standard(), tiles.clone(), 2, seed)?;
        while !game.is_over() {
            let mv = game.best_move(&mut generator).mv;
            let spent = mv.tiles_used();
            if mv.kind() == MoveKind::Place && spent >= 2 && game.bag_len() >= 7 {
                let mut seen = game.clone();
                seen.set_rack(seen.to_move(), &Rack::new())?;
                let t = Instant::now();
                let found = infer::infer(&seen, &generator, &mv, &infer::Settings::default())?;
                by_tiles[spent].0.push(t.elapsed().as_secs_f64());
                by_tiles[spent].1 += found.tried;
            }
            game.apply(&mv)?;
        }
    }
    println!("tiles  plays  leaves tried  median ms  longest ms  leaves/s");
    for (spent, (times, tried)) in by_tiles.iter_mut().enumerate() {
        if times.is_empty() {
            continue;
        }
        let total: f64 = times.iter().sum();
        times.sort_by(f64::total_cmp);
        println!(
            "{spent:5} {:6} {tried:13} {:10.2} {:11.2} {:9.0}",
            times.len(),
            1000.0 * times[times.len() / 2],
            1000.0 * times[times.len() - 1],
            *tried as f64 / total
        );
    }
    Ok(())
}
