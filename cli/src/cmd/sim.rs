//! `lexq sim`: the best moves of a position by equity, played out over
//! random draws, ranked by win chance.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use lexq::game::{Game, Rack, infer, sim};
use serde_json::json;

use crate::exit::{FOUND, Failure};
use crate::game::{Lexicons, position};
use crate::lexicon::Choice;

/// Arguments of `lexq sim`.
#[derive(Args, Debug)]
pub struct SimArgs {
    /// The position as a CGP line (the opponent's rack, if named, is
    /// drawn again each iteration from the tiles the mover cannot see).
    #[arg(long, value_name = "CGP")]
    pub cgp: String,
    /// Iterations (random draws) per candidate, at most.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub iterations: u32,
    /// Seed of the draws: the same seed gives the same answer.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Candidates: the best N moves by equity.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub candidates: usize,
    /// Moves played after each candidate.
    #[arg(long, value_name = "P", default_value_t = 2)]
    pub plies: u32,
    /// Threads (default: every core). The answer does not depend on it.
    #[arg(long, value_name = "J")]
    pub jobs: Option<usize>,
    /// Leave table (KLV2 or CSV) for the equity of candidates and
    /// replies, exchanges allowed; without it, moves rank by score.
    #[arg(long, value_name = "FILE")]
    pub leaves: Option<PathBuf>,
    /// The opponent's last play: the CGP is then the position before it
    /// (the opponent to move, the simulating player's rack second); the
    /// play is made, the opponent's leave inferred (as `lexq infer` does,
    /// with --leaves and --margin), and the reply simulated with the
    /// opponent dealt an inferred leave by weight each iteration.
    #[arg(long, value_name = "MOVE", allow_hyphen_values = true)]
    pub infer: Option<String>,
    /// With --infer: the margin of equity in points within which the
    /// play counts as the opponent's choice.
    #[arg(
        long,
        value_name = "POINTS",
        default_value_t = 0.0,
        allow_negative_numbers = true,
        requires = "infer"
    )]
    pub margin: f64,
    /// Print {"candidates": [{"move", "win", "spread", "stderr",
    /// "iterations"}, ...]}, best first.
    #[arg(long)]
    pub json: bool,
}

/// `lexq sim`.
pub fn run(lexicon: Option<&Choice>, args: &SimArgs) -> Result<u8, Failure> {
    if args.iterations == 0 || args.iterations > 10_000_000 {
        return Err("--iterations must be 1 to 10000000".into());
    }
    if args.candidates == 0 || args.candidates > 1000 {
        return Err("--candidates must be 1 to 1000".into());
    }
    if args.plies > 100 {
        return Err("--plies must be at most 100".into());
    }
    let jobs = match args.jobs {
        Some(0) => return Err("--jobs must be at least 1".into()),
        Some(j) => j.min(1024),
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let mut lexicons = Lexicons::new(lexicon)?;
    let lex = lexicons.for_cgp(&args.cgp)?;
    let pos = position(lex, &args.cgp)?;
    let generator = crate::cmd::infer::generator(args.leaves.as_ref(), &pos)?;
    let mut opponent_leaves = Vec::new();
    let game = match &args.infer {
        None => {
            if pos.racks.first().is_none_or(|r| r.is_empty()) {
                return Err("the CGP gives no rack for the player to move".into());
            }
            Game::from_position(&pos, args.seed)?
        }
        Some(text) => {
            if pos.racks.get(1).is_none_or(|r| r.is_empty()) {
                return Err(
                    "with --infer the CGP gives the simulating player's rack second".into(),
                );
            }
            let mut game = crate::cmd::infer::before(&pos)?;
            let play = pos.board.parse_move(text)?;
            let settings = infer::Settings {
                margin: crate::cmd::infer::margin(args.margin)?,
                ..Default::default()
            };
            let found = infer::infer(&game, &generator, &play, &settings)?;
            if found.leaves.is_empty() {
                return Err(format!(
                    "{}: no rack is consistent with the play within {} points (raise --margin)",
                    found.play.notation(pos.board.alphabet()),
                    args.margin
                )
                .into());
            }
            opponent_leaves = found.leaves;
            let spent = Rack::from_codes(&found.play.spent().collect::<Vec<u8>>());
            game.set_rack(game.to_move(), &spent)?;
            game.play(&found.play)?;
            game
        }
    };
    let settings = sim::Settings {
        candidates: args.candidates,
        iterations: args.iterations,
        plies: args.plies,
        seed: args.seed,
        jobs,
        opponent_leaves,
        ..Default::default()
    };
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{spinner} iterations [{bar:40}] {pos}/{len} {eta}")
                .expect("valid template")
                .progress_chars("=> "),
        );
        bar
    });
    let progress = |done: u64, total: u64| {
        if let Some(b) = &bar {
            b.set_length(total);
            b.set_position(done);
        }
    };
    let ranked = sim::simulate(&game, &generator, &settings, &progress)?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let a = game.board().alphabet();
    let mut out = crate::print::stdout();
    if args.json {
        let list: Vec<_> = ranked
            .iter()
            .map(|c| {
                json!({
                    "move": c.mv.notation(a),
                    "win": round(c.win, 4),
                    "spread": round(c.spread, 2),
                    "stderr": round(c.stderr, 2),
                    "win_stderr": round(c.win_stderr, 4),
                    "iterations": c.iterations,
                    "equity": c.equity as f64 / 1000.0,
                    "stopped": c.stopped,
                })
            })
            .collect();
        writeln!(out, "{}", json!({ "candidates": list }))?;
    } else {
        writeln!(
            out,
            "move                    win%   spread  stderr  iters  equity"
        )?;
        for c in &ranked {
            writeln!(
                out,
                "{:<22} {:6.2} {:8.2} {:7.2} {:6} {:7.2}{}",
                c.mv.notation(a),
                100.0 * c.win,
                c.spread,
                c.stderr,
                c.iterations,
                c.equity as f64 / 1000.0,
                if c.stopped {
                    "  (out of the running)"
                } else {
                    ""
                }
            )?;
        }
    }
    Ok(FOUND)
}

fn round(x: f64, places: i32) -> f64 {
    let m = 10f64.powi(places);
    (x * m).round() / m
}
