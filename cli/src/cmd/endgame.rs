//! `lexq endgame`: the best line and final spread of a position whose
//! bag is empty.

use std::io::Write;
use std::time::Duration;

use clap::Args;
use lexq::game::{Game, endgame};
use serde_json::json;

use crate::exit::{FOUND, Failure};
use crate::game::{Lexicons, position};
use crate::lexicon::Choice;

/// Arguments of `lexq endgame`.
#[derive(Args, Debug)]
pub struct EndgameArgs {
    /// The position as a CGP line, the bag empty (the opponent's rack,
    /// named or not, is the tiles the player to move cannot see).
    #[arg(long, value_name = "CGP")]
    pub cgp: String,
    /// Stop after this many seconds with the deepest line finished
    /// (marked "not exact").
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    pub time: Option<Duration>,
    /// Print {"spread": N, "moves": ["8D WORD", "-", ...]} (plus "exact",
    /// "depth", "nodes").
    #[arg(long)]
    pub json: bool,
}

fn seconds(s: &str) -> Result<Duration, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("{s:?} is not a number of seconds"))?;
    if !(v > 0.0 && v <= 1e6) {
        return Err(format!(
            "{s}: the time must be above 0 and at most 1000000 seconds"
        ));
    }
    Ok(Duration::from_secs_f64(v))
}

/// `lexq endgame`.
pub fn run(lexicon: Option<&Choice>, args: &EndgameArgs) -> Result<u8, Failure> {
    let mut lexicons = Lexicons::new(lexicon)?;
    let lex = lexicons.for_cgp(&args.cgp)?;
    let pos = position(lex, &args.cgp)?;
    if pos.racks.first().is_none_or(|r| r.is_empty()) {
        return Err("the CGP gives no rack for the player to move".into());
    }
    let mut game = Game::from_position(&pos, 1)?;
    let solved = endgame::solve(&mut game, args.time)?;
    let a = pos.board.alphabet();
    let moves: Vec<String> = solved.moves.iter().map(|m| m.notation(a)).collect();
    let mut out = crate::print::stdout();
    if args.json {
        let v = json!({
            "spread": solved.spread,
            "moves": moves,
            "exact": solved.exact,
            "depth": solved.depth,
            "nodes": solved.nodes,
        });
        writeln!(out, "{v}")?;
    } else {
        writeln!(
            out,
            "spread {:+}{}",
            solved.spread,
            if solved.exact {
                ""
            } else {
                " (not exact: the time ran out)"
            }
        )?;
        for (mv, text) in solved.moves.iter().zip(&moves) {
            writeln!(out, "{text} {}", mv.score())?;
        }
    }
    Ok(FOUND)
}
