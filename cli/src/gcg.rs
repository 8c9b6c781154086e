//! `lexq gcg`: a GCG game file replayed to any turn (printed as CGP) or
//! checked event by event; and the position of a GCG file for
//! `lexq moves --gcg FILE --turn K`.
//!
//! The lexicon is `--lexicon` when given, else the one the file's
//! `#lexicon` names (ENABLE, or a lexicon file path), else ENABLE. A
//! `#lexicon` that names neither (`NWL2023`, a lexicon lexq has no file
//! for) falls back to ENABLE with a warning, so that any game can be
//! checked against some lexicon.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use lexq::game::gcg::Game;
use lexq::game::replay::{self, Replay};
use lexq::{Lexicon, files::FilePolicy};
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
    /// Check the whole game and report, by line, every phony word, illegal
    /// placement, wrong score or total, exchange of tiles not on the rack,
    /// rack too big, tiles past the set, move after the end and wrong
    /// end-of-game line (exit 1 if any).
    #[arg(long)]
    pub check: bool,
    /// With --check: print one JSON array of {"line", "kind", "message"}.
    #[arg(long, requires = "check")]
    pub json: bool,
}

fn is_enable(name: &str) -> bool {
    matches!(
        name.to_ascii_lowercase().as_str(),
        "enable" | "enable1" | "enable2k" | "enable1.txt"
    )
}

/// Reads a GCG file (errors name the file, line and column).
fn read(path: &Path) -> Result<Game, Failure> {
    Game::read(path).map_err(|e| match e {
        lexq::game::Error::Gcg(g) => format!("{}: {g}", path.display()).into(),
        other => other.into(),
    })
}

/// The lexicon of a game: `--lexicon`, else `#lexicon` (ENABLE or a
/// file), else ENABLE; with the name to write in a CGP `lex` opcode when
/// the game's is not one (`None`: keep the game's).
fn open(forced: Option<&Path>, game: &Game) -> Result<(Lexicon, Option<String>), Failure> {
    if let Some(p) = forced {
        return Ok((Lexicon::open(p)?, Some(p.display().to_string())));
    }
    match game.lexicon.as_deref().filter(|n| !is_enable(n)) {
        None => Ok((Lexicon::embedded(), None)),
        // Something is there by that name: it must be a lexicon file (a
        // FIFO or a device is refused unopened, not waited on).
        Some(name) if std::fs::symlink_metadata(name).is_ok() => Ok((
            FilePolicy::any_file()
                .lexicon(name)
                .map_err(|e| format!("#lexicon: {e} (or give one with --lexicon)"))?,
            None,
        )),
        Some(name) => {
            eprintln!(
                "lexq: warning: the game names lexicon {name:?}, which is not a lexicon file: using ENABLE (give one with --lexicon)"
            );
            Ok((Lexicon::embedded(), Some("ENABLE".to_string())))
        }
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
        lexq::game::Error::Gcg(g) => format!("{}: {}", path.display(), g.kind).into(),
        other => other.into(),
    })
}

/// The CGP line of a GCG file's position after `turn` events (all if
/// `None`), for `lexq moves --gcg`.
pub fn cgp_at(forced: Option<&Path>, path: &Path, turn: Option<usize>) -> Result<String, Failure> {
    let game = read(path)?;
    let (lex, used) = open(forced, &game)?;
    let r = replay_to(&game, &lex, turn, path)?;
    Ok(position_cgp(&r, &game, used))
}

/// The CGP of a replayed position, its `lex` naming the lexicon used when
/// the game's cannot be opened.
fn position_cgp(r: &Replay<'_>, game: &Game, used: Option<String>) -> String {
    let mut pos = r.position(game);
    if let Some(name) = used {
        pos.ops.retain(|o| o.name != "lex");
        pos.ops.insert(
            0,
            lexq::game::Opcode {
                name: "lex".into(),
                args: name,
            },
        );
    }
    pos.to_cgp()
}

/// `lexq gcg`.
pub fn gcg(forced: Option<&Path>, args: &GcgArgs) -> Result<u8, Failure> {
    let game = read(&args.file)?;
    let (lex, used) = open(forced, &game)?;
    let mut out = crate::print::stdout();
    if !args.check {
        let r = replay_to(&game, &lex, args.turn, &args.file)?;
        writeln!(out, "{}", position_cgp(&r, &game, used))?;
        out.flush()?;
        return Ok(FOUND);
    }
    let r = replay_to(&game, &lex, None, &args.file)?;
    if args.json {
        let v: Vec<Value> = r
            .problems
            .iter()
            .map(|p| json!({"line": p.line, "kind": p.kind.name(), "message": p.kind.to_string()}))
            .collect();
        writeln!(out, "{}", Value::Array(v))?;
    } else {
        for p in &r.problems {
            writeln!(out, "{}:{}: {}", args.file.display(), p.line, p.kind)?;
        }
        if r.problems.is_empty() {
            let totals: Vec<String> = r
                .scores
                .iter()
                .enumerate()
                .map(|(k, s)| {
                    let nick = game
                        .players
                        .get(k)
                        .and_then(|p| p.as_ref())
                        .map_or(format!("player{}", k + 1), |p| p.nick.clone());
                    format!("{nick} {s}")
                })
                .collect();
            writeln!(
                out,
                "{}: ok, {} events; {}",
                args.file.display(),
                game.events.len(),
                totals.join(", ")
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
