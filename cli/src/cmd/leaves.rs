//! `lexq leaves`: a leave table estimated from self-play games.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use lexq::game::leavegen::LeaveStats;
use lexq::game::leaves::Leaves;
use lexq::game::{Generator, selfplay};

use crate::exit::{FOUND, Failure};
use crate::game::{Setup, games_bar, setup};
use crate::lexicon::Choice;

/// Arguments of `lexq leaves`.
#[derive(Args, Debug)]
pub struct LeavesArgs {
    /// Write the table here (CSV: LEAVE,VALUE lines, values in points),
    /// atomically.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// Number of self-play games.
    #[arg(long, value_name = "N", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Seed of the first game (game k uses SEED + k).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// The players rank by equity with this table (KLV2 or CSV; default:
    /// greedy players): a second pass from the table of a first.
    #[arg(long, value_name = "FILE")]
    pub from: Option<PathBuf>,
    /// Leave out leaves held on fewer turns than this.
    #[arg(long, value_name = "K", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub min_count: u64,
    /// Games played at once, on as many threads (the table is the same
    /// whatever the number).
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=64))]
    pub jobs: u64,
}

/// `lexq leaves`.
pub fn run(lexicon: Option<&Choice>, args: &LeavesArgs) -> Result<u8, Failure> {
    crate::interrupt::on_interrupt(lexq::files::remove_temp_files);
    let Setup {
        lex,
        layout,
        tiles,
        ops,
    } = setup(lexicon, "standard", None)?;
    let inputs: Vec<PathBuf> = args.from.iter().cloned().collect();
    lexq::files::check_output(&args.output, &inputs)?;
    // The write comes after every game: a folder that is not there is
    // found out now.
    let folder = args.output.parent().filter(|d| !d.as_os_str().is_empty());
    if let Some(dir) = folder.filter(|d| !d.is_dir()) {
        return Err(format!("{}: no such folder", dir.display()).into());
    }
    let table = match &args.from {
        Some(p) => Some(Arc::new(Leaves::open(p, lex.alphabet())?)),
        None => None,
    };
    let bar = games_bar(args.games);
    let jobs = args.jobs.min(args.games);
    let start = std::time::Instant::now();
    // Job j plays games j, j + jobs, j + 2 jobs...
    let results: Vec<Result<LeaveStats, lexq::game::Error>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs)
            .map(|j| {
                let (lex, layout, tiles, ops, table, bar) =
                    (&lex, &layout, &tiles, &ops, table.clone(), bar.clone());
                scope.spawn(move || {
                    let mut stats = LeaveStats::new(tiles.rack_size());
                    let make = || {
                        Generator::new()
                            .exchanges(table.is_some())
                            .leaves(table.clone())
                    };
                    let (mut a, mut b) = (make(), make());
                    let mut g = j;
                    while g < args.games {
                        let seed = args.seed.wrapping_add(g);
                        selfplay::play_with(
                            lex,
                            layout,
                            tiles,
                            seed,
                            ops,
                            [&mut a, &mut b],
                            |t| {
                                if t.bag > 0 {
                                    stats.add_turn(t.rack, t.chosen.equity);
                                }
                            },
                        )?;
                        if let Some(b) = &bar {
                            b.inc(1);
                        }
                        g += jobs;
                    }
                    Ok(stats)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    let mut stats = LeaveStats::new(tiles.rack_size());
    for r in results {
        stats.merge(&r?);
    }
    stats.write_csv(&args.output, lex.alphabet(), args.min_count)?;
    if let Some(b) = &bar {
        b.finish_and_clear();
        eprintln!(
            "{}: {} leaves (held on {} turns or more), from {} turns of {} games, in {:.1} s",
            args.output.display(),
            stats.leaves_seen(args.min_count),
            args.min_count,
            stats.turns(),
            args.games,
            start.elapsed().as_secs_f64()
        );
    }
    Ok(FOUND)
}
