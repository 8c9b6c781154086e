//! `lexq gcg`: a GCG game file replayed to any turn (printed as CGP) or
//! checked event by event; and the position of a GCG file for
//! `lexq moves --gcg FILE --turn K`.
//!
//! The lexicon is `--lexicon` when given, else the one the file's
//! `#lexicon` names (ENABLE, or a lexicon file path), else ENABLE.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use lexq::gcg::Game;
use lexq::replay::{self, ProblemKind, Replay};
use lexq::{FilePolicy, Lexicon};
use serde_json::{Value, json};

use crate::{FOUND, Failure, NOT_FOUND};

/// Arguments of `lexq gcg`.
#[derive(Args, Debug)]
pub struct GcgArgs {
    /// The GCG game file.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Print the position after the first K events as CGP (0: the empty
    /// board; default: after the last event).
    #[arg(long, value_name = "K", conflicts_with = "check")]
    pub turn: Option<usize>,
    /// Re-score every event and report, by line, every phony word, illegal
    /// placement and wrong score or total (exit 1 if any).
    #[arg(long)]
    pub check: bool,
    /// With --check: print one JSON array of {"line", "kind", "message"}.
    #[arg(long, requires = "check")]
    pub json: bool,
}

/// Reads a GCG file (errors name the file, line and column).
fn read(path: &Path) -> Result<Game, Failure> {
    Game::read(path).map_err(|e| match e {
        lexq::Error::Gcg(g) => format!("{}: {g}", path.display()).into(),
        other => other.into(),
    })
}

/// The lexicon of a game: `--lexicon`, else `#lexicon` (ENABLE or a file).
fn open(forced: Option<&Path>, game: &Game) -> Result<Lexicon, Failure> {
    if let Some(p) = forced {
        return Ok(Lexicon::open(p)?);
    }
    match game.lexicon.as_deref() {
        None => Ok(Lexicon::embedded()),
        Some(name) => FilePolicy::any_file()
            .lexicon(name)
            .map_err(|e| format!("#lexicon: {e} (or give one with --lexicon)").into()),
    }
}

fn replay_to<'a>(
    game: &Game,
    lex: &'a Lexicon,
    turn: Option<usize>,
    path: &Path,
) -> Result<Replay<'a>, Failure> {
    let (layout, tiles) = replay::game_setup(game, lex)?;
    replay::replay(game, lex, layout, tiles, turn).map_err(|e| match e {
        lexq::Error::Gcg(g) => format!("{}: {}", path.display(), g.kind).into(),
        other => other.into(),
    })
}

/// The CGP line of a GCG file's position after `turn` events (all if
/// `None`), for `lexq moves --gcg`.
pub fn cgp_at(forced: Option<&Path>, path: &Path, turn: Option<usize>) -> Result<String, Failure> {
    let game = read(path)?;
    let lex = open(forced, &game)?;
    let r = replay_to(&game, &lex, turn, path)?;
    Ok(r.position(&game).to_cgp())
}

fn kind_name(k: &ProblemKind) -> &'static str {
    match k {
        ProblemKind::Phony(_) => "phony",
        ProblemKind::IllegalPlacement(_) => "placement",
        ProblemKind::WrongScore { .. } => "score",
        ProblemKind::WrongCumulative { .. } => "cumulative",
        _ => "other",
    }
}

/// `lexq gcg`.
pub fn gcg(forced: Option<&Path>, args: &GcgArgs) -> Result<u8, Failure> {
    let game = read(&args.file)?;
    let lex = open(forced, &game)?;
    let mut out = crate::print::stdout();
    if !args.check {
        let r = replay_to(&game, &lex, args.turn, &args.file)?;
        writeln!(out, "{}", r.position(&game).to_cgp())?;
        out.flush()?;
        return Ok(FOUND);
    }
    let r = replay_to(&game, &lex, None, &args.file)?;
    if args.json {
        let v: Vec<Value> = r
            .problems
            .iter()
            .map(|p| json!({"line": p.line, "kind": kind_name(&p.kind), "message": p.kind.to_string()}))
            .collect();
        writeln!(out, "{}", Value::Array(v))?;
    } else {
        for p in &r.problems {
            writeln!(out, "{}:{}: {}", args.file.display(), p.line, p.kind)?;
        }
        if r.problems.is_empty() {
            let nick = |k: usize| {
                game.players[k]
                    .as_ref()
                    .map_or(format!("player{}", k + 1), |p| p.nick.clone())
            };
            writeln!(
                out,
                "{}: ok, {} events; {} {}, {} {}",
                args.file.display(),
                game.events.len(),
                nick(0),
                r.scores[0],
                nick(1),
                r.scores[1]
            )?;
        }
    }
    out.flush()?;
    Ok(if r.problems.is_empty() {
        FOUND
    } else {
        NOT_FOUND
    })
}
