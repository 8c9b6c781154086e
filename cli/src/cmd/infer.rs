//! `lexq infer`: the tiles the opponent may have kept, given its play.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use lexq::game::leaves::Leaves;
use lexq::game::{Game, Generator, Position, Rack, infer};
use serde_json::json;

use crate::exit::Failure;
use crate::game::{Lexicons, position};
use crate::lexicon::Choice;

/// Arguments of `lexq infer`.
#[derive(Args, Debug)]
pub struct InferArgs {
    /// The position before the play, as a CGP line: the player who made
    /// it to move (its rack, if written, is ignored), the inferring
    /// player's rack second (left empty, its tiles count as unseen).
    #[arg(long, value_name = "CGP", conflicts_with = "gcg", requires = "play")]
    pub cgp: Option<String>,
    /// The play, in the notation `lexq play` takes ("8D WORD").
    #[arg(
        long,
        value_name = "MOVE",
        allow_hyphen_values = true,
        requires = "cgp"
    )]
    pub play: Option<String>,
    /// A GCG game file instead: infer the play of its --turn K-th event
    /// line (default: its last play), the inferring player's rack read from
    /// its next line.
    #[arg(long, value_name = "FILE", required_unless_present = "cgp")]
    pub gcg: Option<PathBuf>,
    /// With --gcg: the event line (1-based) whose play is inferred.
    #[arg(long, value_name = "K", requires = "gcg")]
    pub turn: Option<usize>,
    /// A rack is consistent if no move of it beats the play by more than
    /// this many points of equity.
    #[arg(
        long,
        value_name = "POINTS",
        default_value_t = 0.0,
        allow_negative_numbers = true
    )]
    pub margin: f64,
    /// Leave table (KLV2 or CSV) the opponent is modelled with, exchanges
    /// allowed; without it, moves rank by score.
    #[arg(long, value_name = "FILE")]
    pub leaves: Option<PathBuf>,
    /// Print at most N leaves (default 20; with --json, every leave).
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Refuse to try more than N distinct leaves.
    #[arg(long, value_name = "N", default_value_t = 2_000_000)]
    pub max_leaves: u64,
    /// Print {"play", "score", "margin", "tried", "consistent",
    /// "share", "leaves": [{"leave", "weight", "probability"}, ...]}.
    #[arg(long)]
    pub json: bool,
}

/// The margin in millipoints, checked.
pub fn margin(points: f64) -> Result<i32, Failure> {
    if !(0.0..=100_000.0).contains(&points) {
        return Err("--margin must be 0 to 100000 points".into());
    }
    Ok((points * 1000.0).round() as i32)
}

/// The game at `pos` with the player to move's rack taken back into the
/// bag, and the other racks unknown in the line taken back too (their
/// tiles unseen).
pub fn before<'a>(pos: &Position<'a>) -> Result<Game<'a>, Failure> {
    let mut game = Game::from_position(pos, 1)?;
    let n = game.players();
    for k in 0..n {
        if k == 0 || pos.racks.get(k).is_none_or(|r| r.is_empty()) {
            game.set_rack((game.to_move() + k) % n, &Rack::new())?;
        }
    }
    Ok(game)
}

/// The generator the opponent is modelled with.
pub fn generator(leaves: Option<&PathBuf>, pos: &Position<'_>) -> Result<Generator, Failure> {
    let mut generator = Generator::new();
    if let Some(p) = leaves {
        let table = Leaves::open(p, pos.board.alphabet())?;
        generator = generator.exchanges(true).leaves(Some(Arc::new(table)));
    }
    Ok(generator)
}

/// `lexq infer`.
pub fn run(lexicon: Option<&Choice>, args: &InferArgs) -> Result<u8, Failure> {
    let margin = margin(args.margin)?;
    let (cgp, text) = match (&args.gcg, &args.cgp, &args.play) {
        (Some(path), _, _) => crate::cmd::gcg::play_at(lexicon, path, args.turn)?,
        (None, Some(cgp), Some(play)) => (cgp.clone(), play.clone()),
        _ => return Err("give --cgp CGP --play MOVE, or --gcg FILE".into()),
    };
    let mut lexicons = Lexicons::new(lexicon)?;
    let lex = lexicons.for_cgp(&cgp)?;
    let pos = position(lex, &cgp)?;
    let game = before(&pos)?;
    let generator = generator(args.leaves.as_ref(), &pos)?;
    let play = pos.board.parse_move(&text)?;
    let settings = infer::Settings {
        margin,
        max_leaves: args.max_leaves,
    };
    let found = infer::infer(&game, &generator, &play, &settings)?;
    let a = pos.board.alphabet();
    let limit = args
        .limit
        .unwrap_or(if args.json { usize::MAX } else { 20 });
    let mut out = crate::print::stdout();
    if args.json {
        let leaves: Vec<_> = found
            .leaves
            .iter()
            .take(limit)
            .map(|l| {
                json!({
                    "leave": l.leave.to_string(a),
                    "weight": l.weight,
                    "probability": round(found.probability(l), 6),
                })
            })
            .collect();
        let v = json!({
            "play": found.play.notation(a),
            "score": found.play.score(),
            "margin": args.margin,
            "tried": found.tried,
            "consistent": found.leaves.len(),
            "share": round(found.consistent_share(), 6),
            "leaves": leaves,
        });
        writeln!(out, "{v}")?;
    } else {
        writeln!(
            out,
            "{} {}: {} of {} leaves consistent within {} points ({:.2}% of the racks holding its tiles)",
            found.play.notation(a),
            found.play.score(),
            found.leaves.len(),
            found.tried,
            args.margin,
            100.0 * found.consistent_share()
        )?;
        for l in found.leaves.iter().take(limit) {
            let s = l.leave.to_string(a);
            writeln!(
                out,
                "{:<8} {:>10} {:7.3}%",
                if s.is_empty() { "-" } else { &s },
                l.weight,
                100.0 * found.probability(l)
            )?;
        }
        if found.leaves.len() > limit {
            writeln!(out, "... {} more", found.leaves.len() - limit)?;
        }
    }
    Ok(crate::exit::status(!found.leaves.is_empty()))
}

fn round(x: f64, places: i32) -> f64 {
    let m = 10f64.powi(places);
    (x * m).round() / m
}
