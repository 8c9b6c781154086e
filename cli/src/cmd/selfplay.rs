//! `lexq selfplay`: greedy self-play games as CGP lines and GCG files,
//! or a match of an equity bot against the greedy one.

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;
use lexq::game::leaves::Leaves;
use lexq::game::{Generator, selfplay};

use crate::exit::{FOUND, Failure, NOT_FOUND};
use crate::game::{Setup, games_bar, setup};
use crate::lexicon::Choice;

/// Arguments of `lexq selfplay`.
#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// Number of games.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub games: u64,
    /// Seed of the first game (game k uses SEED + k).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Write the positions (one CGP line each) here instead of stdout.
    #[arg(long, short = 'o', alias = "out", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Also write each game as DIR/game-SEED.gcg.
    #[arg(long, value_name = "DIR")]
    pub gcg_dir: Option<PathBuf>,
    /// Board layout: standard, super, friends, or a layout file.
    #[arg(long, value_name = "LAYOUT", default_value = "standard")]
    pub layout: String,
    /// Tile set: english, english_super, friends, spanish, or a tile-set
    /// file (default: the alphabet's, super on boards larger than 15,
    /// friends on the friends board).
    #[arg(long, value_name = "TILES")]
    pub tiles: Option<String>,
    /// A match: a bot ranking by equity with this leave table (KLV2 or
    /// CSV; it exchanges when that is worth more) against the greedy bot,
    /// who starts alternating; prints the equity bot's win rate with its
    /// 95% Wilson interval (positions are written only with --output).
    #[arg(long, value_name = "FILE")]
    pub leaves: Option<PathBuf>,
}

/// `lexq selfplay`.
pub fn run(lexicon: Option<&Choice>, args: &SelfplayArgs) -> Result<u8, Failure> {
    let Setup {
        lex,
        layout,
        tiles,
        ops,
    } = setup(lexicon, &args.layout, args.tiles.as_deref())?;
    let table = match &args.leaves {
        Some(p) => Some(Arc::new(Leaves::open(p, lex.alphabet())?)),
        None => None,
    };
    if let Some(dir) = &args.gcg_dir {
        if dir.exists() && !dir.is_dir() {
            return Err(format!("{}: not a folder", dir.display()).into());
        }
        fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    // Game files name their lexicon, layout and tiles files by absolute
    // paths, which resolve from their own folder as from any other.
    let ops = if args.gcg_dir.is_some() {
        absolute_files(&ops)
    } else {
        ops
    };
    if args.output.is_some() || args.gcg_dir.is_some() {
        // A signal removes the file being written and exits 130.
        crate::interrupt::on_interrupt(lexq::files::remove_temp_files);
    }
    let play = |out: Option<&mut dyn Write>| {
        play_games(args, &lex, &layout, &tiles, &ops, table.as_ref(), out)
    };
    let played = match (&args.output, &table) {
        (Some(p), _) => {
            // Not a FIFO (opening one would wait for a reader), a device
            // or a folder, nor the leave table read; written to a
            // temporary file renamed into place at the end, so an
            // interrupted or failed run leaves the old file as it was.
            let inputs: Vec<PathBuf> = args.leaves.iter().cloned().collect();
            lexq::files::replace_with(p, &inputs, |file, temp| {
                let mut w = BufWriter::new(file);
                let played = play(Some(&mut w))?;
                w.flush().map_err(|e| format!("{}: {e}", temp.display()))?;
                Ok::<_, Failure>(played)
            })?
        }
        (None, None) => {
            let mut w = BufWriter::new(crate::print::stdout());
            let played = play(Some(&mut w))?;
            w.flush()?;
            played
        }
        (None, Some(_)) => play(None)?,
    };
    let Played {
        games,
        positions,
        record,
    } = played;
    if let (Some(path), true) = (&args.leaves, games > 0) {
        print_match(&mut crate::print::stdout(), path, &record)?;
    }
    Ok(if positions > 0 { FOUND } else { NOT_FOUND })
}

/// What [`play_games`] played.
struct Played {
    games: u64,
    positions: usize,
    /// The equity bot's results, in a match.
    record: Record,
}

/// Plays `args.games` games, writing their positions to `out` (if any)
/// and each game to `args.gcg_dir` (if given), with a progress bar on a
/// terminal.
fn play_games(
    args: &SelfplayArgs,
    lex: &lexq::Lexicon,
    layout: &lexq::game::Layout,
    tiles: &lexq::TileSet,
    ops: &str,
    table: Option<&Arc<Leaves>>,
    mut out: Option<&mut dyn Write>,
) -> Result<Played, Failure> {
    let bar = games_bar(args.games);
    let mut equity_bot = Generator::new().exchanges(true).leaves(table.cloned());
    let mut greedy = Generator::new();
    let (mut positions, mut games) = (0usize, 0u64);
    // The equity bot's results: wins, draws, losses, spread.
    let (mut won, mut drawn, mut lost, mut spread) = (0u64, 0u64, 0u64, 0i64);
    for g in 0..args.games {
        if table.is_none() && crate::print::closed() && args.gcg_dir.is_none() {
            break; // nobody reads the positions, and no game file is wanted
        }
        let seed = args.seed.wrapping_add(g);
        let game = if table.is_some() {
            // The equity bot starts the even games.
            let me = (g % 2) as usize;
            let players = if me == 0 {
                [&mut equity_bot, &mut greedy]
            } else {
                [&mut greedy, &mut equity_bot]
            };
            let game = selfplay::play_with(lex, layout, tiles, seed, ops, players, |_| {})?;
            let d = game.scores[me] - game.scores[1 - me];
            spread += i64::from(d);
            match d.cmp(&0) {
                std::cmp::Ordering::Greater => won += 1,
                std::cmp::Ordering::Equal => drawn += 1,
                std::cmp::Ordering::Less => lost += 1,
            }
            game
        } else {
            selfplay::play(lex, layout, tiles, seed, ops)?
        };
        if let Some(out) = &mut out {
            for p in &game.positions {
                writeln!(out, "{p}")?;
            }
        }
        positions += game.positions.len();
        games += 1;
        if let Some(dir) = &args.gcg_dir {
            // Each game file whole or not at all.
            let path = dir.join(format!("game-{seed}.gcg"));
            lexq::files::replace_with(&path, &[], |file, temp| {
                file.write_all(game.gcg.as_bytes())
                    .map_err(|e| Failure::from(format!("{}: {e}", temp.display())))
            })?;
        }
        if let Some(b) = &bar {
            b.inc(1);
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
        eprintln!("{games} games, {positions} positions");
    }
    Ok(Played {
        games,
        positions,
        record: Record {
            games,
            won,
            drawn,
            lost,
            spread,
        },
    })
}

/// The equity bot's results in a match.
struct Record {
    games: u64,
    won: u64,
    drawn: u64,
    lost: u64,
    /// Its points less the greedy bot's, over all games.
    spread: i64,
}

/// The match's two lines: the record, then the win rate with its 95%
/// Wilson interval and the mean spread.
fn print_match(out: &mut impl Write, table: &Path, r: &Record) -> io::Result<()> {
    let Record {
        games,
        won,
        drawn,
        lost,
        spread,
    } = *r;
    let rate = (won as f64 + drawn as f64 / 2.0) / games as f64;
    let (lo, hi) = selfplay::wilson(won as f64 + drawn as f64 / 2.0, games, 1.96);
    writeln!(
        out,
        "equity ({}) against greedy: {games} games, {won} won, {drawn} drawn, {lost} lost",
        table.display()
    )?;
    writeln!(
        out,
        "win rate {rate:.3} (95% Wilson interval {lo:.3}-{hi:.3}, a draw half a win); mean spread {:+.1}",
        spread as f64 / games as f64
    )
}

/// The opcodes (`lex X; bdn Y; ld Z;`) with each name that is a file
/// rather than a built-in name made absolute (left as it is if it cannot
/// be).
fn absolute_files(ops: &str) -> String {
    let english = lexq::Lexicon::embedded();
    let mut out = Vec::new();
    for op in ops.split(';').map(str::trim).filter(|o| !o.is_empty()) {
        let (name, arg) = op.split_once(' ').unwrap_or((op, ""));
        let builtin = match name {
            "lex" => crate::lexicon::names_builtin(arg),
            "bdn" => lexq::game::Layout::builtin(arg).is_some(),
            "ld" => lexq::TileSet::builtin(arg, english.alphabet()).is_some(),
            _ => true,
        };
        let arg = match (builtin, std::fs::canonicalize(arg)) {
            (false, Ok(p)) => p.display().to_string(),
            _ => arg.to_string(),
        };
        out.push(format!("{name} {arg};"));
    }
    out.join(" ")
}
