//! The endgame solver and the simulation timed over a file of CGP
//! positions, the way benches/wolges-brain times wolges's endgame solver
//! and simmer (`benches/brain.sh` runs both in turn, pinned to one core):
//!
//! ```text
//! brain_timing endgame [--cap SECONDS] [--mcnz N] [--start N] [-L LEX] FILE
//!     each position (bag empty) solved by lexq::game::endgame::solve;
//!     `idx=I tiles=M/O value=V us=T nodes=N depth=D exact=E` a line
//!     (V: the future spread, the mover's points from here on less the
//!     opponent's: the spread found less the spread now). --cap: the
//!     solver's time limit; a position it stops prints exact=false.
//!     --mcnz N: N scoreless turns in a row end the game (default: the
//!     CGP's, else 6; wolges's solver ends the game at two passes in a
//!     row, so 2 poses the same problem).
//! brain_timing sim --leaves TABLE [--candidates N] [--plies P]
//!                  [--iterations I] [--seed S] [-L LEX] FILE
//!     each position simulated by lexq::game::sim::simulate on one thread
//!     with no candidate stopped early (cutoff infinite): I iterations of
//!     the best N moves by equity, each followed by P moves of the equity
//!     bot; `idx=I candidates=N rollouts=R us=T [move spread win]...` a
//!     line, then the total and rollouts a second.
//! ```

use std::sync::Arc;
use std::time::{Duration, Instant};

use lexq::Lexicon;
use lexq::game::leaves::Leaves;
use lexq::game::{Game, Generator, Position, endgame, sim};

const USAGE: &str = "usage: brain_timing endgame [--cap S] [--mcnz N] [--start N] [-L LEX] FILE\n\
                     \x20      brain_timing sim --leaves TABLE [--candidates N] [--plies P] \
                     [--iterations I] [--seed S] [-L LEX] FILE";

fn die(msg: &str) -> ! {
    eprintln!("brain_timing: {msg}\n{USAGE}");
    std::process::exit(2);
}

fn main() -> Result<(), lexq::game::Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(cmd) = args.first().cloned() else {
        die("no command")
    };
    let (mut cap, mut mcnz, mut start) = (None::<f64>, None::<u32>, 0usize);
    let (mut leaves, mut lexicon, mut file) = (None, None, None);
    let (mut candidates, mut plies, mut iterations, mut seed) = (10usize, 2u32, 100u32, 1u64);
    let mut it = args[1..].iter();
    while let Some(a) = it.next() {
        let mut val = || {
            it.next()
                .cloned()
                .unwrap_or_else(|| die(&format!("{a} needs a value")))
        };
        let num = |s: String| -> u64 {
            s.parse()
                .unwrap_or_else(|_| die(&format!("bad number {s}")))
        };
        match a.as_str() {
            "--cap" => cap = Some(val().parse().unwrap_or_else(|_| die("bad --cap"))),
            "--mcnz" => mcnz = Some(num(val()) as u32),
            "--start" => start = num(val()) as usize,
            "--leaves" => leaves = Some(val()),
            "-L" => lexicon = Some(val()),
            "--candidates" => candidates = num(val()) as usize,
            "--plies" => plies = num(val()) as u32,
            "--iterations" => iterations = num(val()) as u32,
            "--seed" => seed = num(val()),
            s if !s.starts_with('-') => file = Some(s.to_string()),
            s => die(&format!("unknown option {s}")),
        }
    }
    let file = file.unwrap_or_else(|| die("no positions file"));
    let lex = match &lexicon {
        Some(p) => Lexicon::open(p).unwrap_or_else(|e| die(&format!("{p}: {e}"))),
        None => Lexicon::embedded(),
    };
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| die(&format!("{file}: {e}")));
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    match cmd.as_str() {
        "endgame" => {
            for (idx, line) in lines.iter().enumerate().skip(start) {
                let pos = Position::from_cgp(&lex, line)?;
                let mut game = Game::from_position(&pos, 1)?;
                if let Some(m) = mcnz {
                    let mut rules = game.rules().clone();
                    rules.max_zeros = m;
                    game = game.with_rules(rules);
                }
                let me = game.to_move();
                let now = game.score(me) - game.score(1 - me);
                let tiles = (game.rack(me).len(), game.rack(1 - me).len());
                let t = Instant::now();
                let s = endgame::solve(&mut game, cap.map(Duration::from_secs_f64))?;
                let us = t.elapsed().as_secs_f64() * 1e6;
                println!(
                    "idx={idx} tiles={}/{} value={} us={us:.0} nodes={} depth={} exact={} pv_len={}",
                    tiles.0,
                    tiles.1,
                    s.spread - now,
                    s.nodes,
                    s.depth,
                    s.exact,
                    s.moves.len()
                );
            }
        }
        "sim" => {
            let path = leaves.unwrap_or_else(|| die("--leaves is required"));
            let table = Leaves::open(std::path::Path::new(&path), lex.alphabet())
                .unwrap_or_else(|e| die(&format!("{path}: {e}")));
            let generator = Generator::new()
                .exchanges(true)
                .leaves(Some(Arc::new(table)));
            let (mut total_rollouts, mut total) = (0u64, Duration::ZERO);
            for (idx, line) in lines.iter().enumerate() {
                let pos = Position::from_cgp(&lex, line)?;
                let t = Instant::now();
                let game = Game::from_position(&pos, 1)?;
                let settings = sim::Settings {
                    candidates,
                    iterations,
                    plies,
                    seed: seed ^ idx as u64,
                    jobs: 1,
                    cutoff: f64::INFINITY,
                    ..Default::default()
                };
                let ranked = sim::simulate(&game, &generator, &settings, &|_, _| {})?;
                let elapsed = t.elapsed();
                total += elapsed;
                let rollouts: u64 = ranked.iter().map(|c| c.iterations as u64).sum();
                total_rollouts += rollouts;
                let a = game.board().alphabet();
                let cands: Vec<String> = ranked
                    .iter()
                    .map(|c| format!("[{} {:.1} {:.3}]", c.mv.notation(a), c.spread, c.win))
                    .collect();
                println!(
                    "idx={idx} candidates={} rollouts={rollouts} us={:.0} {}",
                    ranked.len(),
                    elapsed.as_secs_f64() * 1e6,
                    cands.join(" ")
                );
            }
            println!(
                "total rollouts={total_rollouts} us={:.0} rollouts_per_s={:.1}",
                total.as_secs_f64() * 1e6,
                total_rollouts as f64 / total.as_secs_f64()
            );
        }
        _ => die(&format!("unknown command {cmd}")),
    }
    Ok(())
}
