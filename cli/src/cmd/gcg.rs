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

use crate::exit::{FOUND, Failure, NOT_FOUND};
use crate::lexicon::Choice;

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
    /// The tile set (built-in name or file), whatever the file's
    /// `#tile-distribution` says.
    #[arg(long, value_name = "TILES")]
    pub tiles: Option<String>,
    /// The board layout (built-in name or file), whatever the file's
    /// `#board-layout` says.
    #[arg(long, value_name = "LAYOUT")]
    pub layout: Option<String>,
}

/// Reads a GCG file (errors name the file, line and column), printing
/// what its reader had to guess as warnings, with the files its
/// `#lexicon`, `#tile-distribution`, `#tile-set` and `#board-layout`
/// name found from the file's own folder (see [`from_folder`]).
fn read(path: &Path) -> Result<Game, Failure> {
    let mut game = Game::read(path).map_err(|e| match e {
        lexq::game::Error::Gcg(g) => Failure::from(format!("{}: {g}", path.display())),
        other => other.into(),
    })?;
    for w in &game.warnings {
        eprintln!("lexq: warning: {}: {w}", path.display());
    }
    let folder = path.parent().unwrap_or(Path::new(""));
    for name in [
        &mut game.lexicon,
        &mut game.tile_distribution,
        &mut game.tile_set,
        &mut game.board_layout,
    ] {
        if let Some(n) = name.as_mut() {
            *n = from_folder(folder, n);
        }
    }
    Ok(game)
}

/// A file a game file names, found from the game file's folder: a
/// relative name that is not built in and is there is read from there
/// (`selfplay --gcg-dir games` writes names relative to where it ran;
/// the game files may move with their tiles and layouts), else the
/// name as it is (a built-in name, an absolute path, or a path from
/// the current folder).
fn from_folder(folder: &Path, name: &str) -> String {
    let builtin = crate::lexicon::names_builtin(name)
        || lexq::game::Layout::builtin(name).is_some()
        // Whatever the alphabet, `Some` says the name is a built-in set's.
        || lexq::TileSet::builtin(name, Lexicon::embedded().alphabet()).is_some();
    let p = Path::new(name);
    if builtin || p.is_absolute() || folder.as_os_str().is_empty() {
        return name.to_string();
    }
    let there = folder.join(p);
    if std::fs::symlink_metadata(&there).is_ok() {
        there.display().to_string()
    } else {
        name.to_string()
    }
}

/// The game with `--tiles` and `--layout` put in place of what the file
/// names.
fn overridden(mut game: Game, tiles: Option<&str>, layout: Option<&str>) -> Game {
    if let Some(t) = tiles {
        game.tile_distribution = Some(t.to_string());
        game.tile_set = None;
    }
    if let Some(l) = layout {
        game.board_layout = Some(l.to_string());
    }
    game
}

/// The lexicon of a game: `--lexicon`, else `#lexicon` (ENABLE or a
/// file), else ENABLE; with the name to write in a CGP `lex` opcode when
/// the game's is not one (`None`: keep the game's).
fn open(forced: Option<&Choice>, game: &Game) -> Result<(Lexicon, Option<String>), Failure> {
    if let Some(c) = forced {
        return Ok((crate::lexicon::open(Some(c))?, Some(c.cgp_name())));
    }
    match game
        .lexicon
        .as_deref()
        .filter(|n| !crate::lexicon::names_builtin(n))
    {
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
pub fn cgp_at(
    forced: Option<&Choice>,
    path: &Path,
    turn: Option<usize>,
) -> Result<String, Failure> {
    let game = read(path)?;
    let (lex, used) = open(forced, &game)?;
    let r = replay_to(&game, &lex, turn, path)?;
    Ok(position_cgp(&r, &game, used))
}

/// For `lexq infer --gcg`: the play of a GCG file's event `turn` (1-based:
/// the position after `turn` events ends with it; by default the file's
/// last play), as written (`8D WORD`), and the CGP line of the position
/// before it, the inferring player's rack taken from its next event line
/// (left empty, not known, if it has none or it does not read).
pub fn play_at(
    forced: Option<&Choice>,
    path: &Path,
    turn: Option<usize>,
) -> Result<(String, String), Failure> {
    use lexq::game::gcg::EventKind;
    let game = read(path)?;
    let (lex, used) = open(forced, &game)?;
    let k = match turn {
        Some(0) => return Err("--turn K names the play of the K-th event line: 1 or more".into()),
        Some(k) => k - 1,
        None => game
            .events
            .iter()
            .rposition(|e| matches!(e.kind, EventKind::Play { .. }))
            .ok_or_else(|| format!("{}: no play to infer from", path.display()))?,
    };
    let Some(event) = game.events.get(k) else {
        return Err(format!("{}: no event line {}", path.display(), k + 1).into());
    };
    let EventKind::Play { coord, word } = &event.kind else {
        return Err(format!("{}:{}: not a play", path.display(), event.line).into());
    };
    if game.player_count() != 2 {
        return Err("inference from a game file takes two players".into());
    }
    let r = replay_to(&game, &lex, Some(k), path)?;
    let mut pos = r.position(&game);
    let size = pos.board.tile_set().rack_size();
    let theirs = game.events[k + 1..]
        .iter()
        .find(|e| e.player != event.player)
        .and_then(|e| lexq::game::Rack::parse(&e.rack, pos.board.alphabet()).ok())
        .filter(|r| r.len() <= size);
    if let (Some(rack), Some(slot)) = (theirs, pos.racks.get_mut(1)) {
        *slot = rack.codes();
    }
    name_lexicon(&mut pos, used);
    Ok((pos.to_cgp(), format!("{coord} {word}")))
}

/// The CGP of a replayed position, its `lex` naming the lexicon used when
/// the game's cannot be opened.
fn position_cgp(r: &Replay<'_>, game: &Game, used: Option<String>) -> String {
    let mut pos = r.position(game);
    name_lexicon(&mut pos, used);
    pos.to_cgp()
}

/// Puts `lex used` first in `pos`'s opcodes (in place of the game's),
/// if a lexicon other than the game's was used.
fn name_lexicon(pos: &mut lexq::game::Position, used: Option<String>) {
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
}

/// `lexq gcg`.
pub fn run(forced: Option<&Choice>, args: &GcgArgs) -> Result<u8, Failure> {
    let game = overridden(
        read(&args.file)?,
        args.tiles.as_deref(),
        args.layout.as_deref(),
    );
    let (lex, used) = open(forced, &game)?;
    let mut out = crate::print::stdout();
    if !args.check {
        let r = replay_to(&game, &lex, args.turn, &args.file)?;
        writeln!(out, "{}", position_cgp(&r, &game, used))?;
        out.flush()?;
        return Ok(FOUND);
    }
    let r = replay_to(&game, &lex, None, &args.file)?;
    print_check(&mut out, &r, &game, &args.file, args.json)?;
    out.flush()?;
    Ok(if r.problems.is_empty() {
        FOUND
    } else {
        NOT_FOUND
    })
}

/// The check's report: `FILE:LINE: problem` lines, or `FILE: ok, N
/// events; NICK SCORE, ...` when there is none; or one JSON array of
/// {"line", "kind", "message"}.
fn print_check(
    out: &mut impl Write,
    r: &Replay<'_>,
    game: &Game,
    file: &Path,
    as_json: bool,
) -> std::io::Result<()> {
    if as_json {
        let v: Vec<Value> = r
            .problems
            .iter()
            .map(|p| json!({"line": p.line, "kind": p.kind.name(), "message": p.kind.to_string()}))
            .collect();
        return writeln!(out, "{}", Value::Array(v));
    }
    for p in &r.problems {
        writeln!(out, "{}:{}: {}", file.display(), p.line, p.kind)?;
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
            file.display(),
            game.events.len(),
            totals.join(", ")
        )?;
    }
    Ok(())
}
