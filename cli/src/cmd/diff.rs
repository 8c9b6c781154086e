//! `lexq diff`: the words two lexicons do not share, streamed as both are
//! read in alphabet order.

use std::io;
use std::ops::ControlFlow;

use lexq::diff::{Change, diff};

use crate::exit::{FOUND, Failure, NOT_FOUND};
use crate::lexicon::Choice;
use crate::print::{self, Printer};

/// Arguments of `lexq diff`.
#[derive(clap::Args, Debug)]
pub struct DiffArgs {
    /// The older lexicon file ('enable' names the built-in one).
    #[arg(value_parser = Choice::parse)]
    pub old: Choice,
    /// The newer lexicon file ('enable' names the built-in one).
    #[arg(value_parser = Choice::parse)]
    pub new: Choice,
    /// Only the words added (in NEW, not in OLD), without the "+".
    #[arg(long, conflicts_with = "removed")]
    pub added: bool,
    /// Only the words removed (in OLD, not in NEW), without the "-".
    #[arg(long)]
    pub removed: bool,
    /// Print only the numbers: "N added, M removed" (or one number with --added or --removed).
    #[arg(long, short = 'c')]
    pub count: bool,
    /// JSON lines: {"added": "WORD"} or {"removed": "WORD"}; with -c one {"added": N, "removed": M}.
    #[arg(long)]
    pub json: bool,
}

/// `lexq diff`: "+WORD" and "-WORD" lines (or JSON lines, or counts) as
/// the two lexicons are read. Exit status: 0 if they differ (in the words
/// asked for), 1 if not.
pub fn run(args: &DiffArgs) -> Result<u8, Failure> {
    let old = crate::lexicon::open(Some(&args.old))?;
    let new = crate::lexicon::open(Some(&args.new))?;
    let mut out = Printer::stdout();
    let (mut added, mut removed) = (0usize, 0usize);
    let mut failed = None;
    diff(&old, &new, |change, codes| {
        match change {
            Change::Added => added += 1,
            Change::Removed => removed += 1,
        }
        let wanted = match change {
            Change::Added => !args.removed,
            Change::Removed => !args.added,
        };
        if args.count || !wanted {
            return ControlFlow::Continue(());
        }
        let word = new.alphabet().decode(codes);
        if let Err(e) = print_change(&mut out, args, change, &word) {
            failed = Some(e);
            return ControlFlow::Break(());
        }
        if print::closed() {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    })?;
    if let Some(e) = failed {
        return Err(e.into());
    }
    if args.count {
        print_counts(&mut out, args, added, removed)?;
    }
    out.flush()?;
    let differ = match (args.added, args.removed) {
        (true, _) => added > 0,
        (_, true) => removed > 0,
        _ => added + removed > 0,
    };
    Ok(if differ { FOUND } else { NOT_FOUND })
}

/// One word added or removed: `+WORD`/`-WORD`, the bare word with
/// `--added` or `--removed`, or a JSON line `{"added": "WORD"}`.
fn print_change(out: &mut Printer, args: &DiffArgs, change: Change, word: &str) -> io::Result<()> {
    let key = match change {
        Change::Added => "added",
        Change::Removed => "removed",
    };
    if args.json {
        return out.line(&serde_json::json!({ key: word }).to_string());
    }
    if args.added || args.removed {
        return out.line(word);
    }
    let sign = if change == Change::Added { '+' } else { '-' };
    out.line(&format!("{sign}{word}"))
}

/// The counts of `-c`: `N added, M removed`, one number with `--added`
/// or `--removed`, or the same as a JSON object.
fn print_counts(
    out: &mut Printer,
    args: &DiffArgs,
    added: usize,
    removed: usize,
) -> io::Result<()> {
    let line = match (args.added, args.removed, args.json) {
        (true, _, false) => added.to_string(),
        (_, true, false) => removed.to_string(),
        (true, _, true) => serde_json::json!({ "added": added }).to_string(),
        (_, true, true) => serde_json::json!({ "removed": removed }).to_string(),
        (_, _, true) => serde_json::json!({ "added": added, "removed": removed }).to_string(),
        _ => format!("{added} added, {removed} removed"),
    };
    out.line(&line)
}
