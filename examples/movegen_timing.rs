//! Quick timing of move generation over a CGP file (default
//! benches/positions.cgp), by rack class, for profiling runs:
//! `cargo run --release --example movegen_timing [FILE] [ROUNDS]`.
//! The criterion bench (benches/movegen.rs) is the reference measurement.

use std::time::Instant;

use lexq::{Best, Count, Generator, Lexicon, Position};

fn main() -> Result<(), lexq::Error> {
    let args: Vec<String> = std::env::args().collect();
    let file = args.get(1).map_or("benches/positions.cgp", String::as_str);
    let rounds: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(3);
    let lex = Lexicon::embedded();
    let arcs = lex.arcs();
    println!("arc table: {} arcs, {} bytes", arcs.len(), arcs.bytes());
    let text = std::fs::read_to_string(file).expect("positions file");
    let positions: Vec<Position> = text
        .lines()
        .map(|l| Position::from_cgp(&lex, l))
        .collect::<Result<_, _>>()?;
    let mut generator = Generator::new();
    let mut time = [0f64; 3];
    let mut moves = [0usize; 3];
    let mut n = [0usize; 3];
    let mut best_time = 0f64;
    for _ in 0..rounds {
        for p in &positions {
            let rack = p.rack();
            let class = rack.count(0).min(2);
            let t = Instant::now();
            let mut c = Count(0);
            generator.generate(&p.board, &rack, &mut c);
            time[class] += t.elapsed().as_secs_f64();
            moves[class] += c.0;
            n[class] += 1;
            let t = Instant::now();
            let mut b = Best::default();
            generator.generate(&p.board, &rack, &mut b);
            best_time += t.elapsed().as_secs_f64();
        }
    }
    for k in 0..3 {
        if n[k] > 0 {
            println!(
                "{k} blanks: {:5} positions, {:8.1} µs/position, {:7.0} moves/position, {:.2} M moves/s",
                n[k] / rounds,
                time[k] / n[k] as f64 * 1e6,
                moves[k] as f64 / n[k] as f64,
                moves[k] as f64 / time[k] / 1e6
            );
        }
    }
    let total: f64 = time.iter().sum();
    let all_n: usize = n.iter().sum();
    let all_m: usize = moves.iter().sum();
    println!(
        "all moves: {:.1} µs/position, {:.2} M moves/s; best only: {:.1} µs/position",
        total / all_n as f64 * 1e6,
        all_m as f64 / total / 1e6,
        best_time / all_n as f64 * 1e6
    );
    Ok(())
}
