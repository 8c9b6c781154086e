//! `lexq moves`: every legal move of a position (CGP, or a GCG file at a
//! turn), or of each CGP line of standard input, ranked; printed as text
//! lines or JSON.

use std::io::{self, BufRead, BufWriter, Write};
use std::path::PathBuf;

use clap::Args;
use lexq::Alphabet;
use lexq::game::{All, Count, Generator, Move, Position, Rack, TopN, Valued, rank_valued};
use serde_json::{Value, json};

use crate::exit::{ERROR, FOUND, Failure, NOT_FOUND};
use crate::game::{LeaveFile, Lexicons, position};
use crate::lexicon::Choice;

/// Arguments of `lexq moves`.
#[derive(Args, Debug)]
pub struct MovesArgs {
    /// The position as a CGP line. Without it (or --gcg), CGP lines are
    /// read from stdin, one position a line, and answered in order.
    #[arg(long, value_name = "CGP", conflicts_with = "gcg")]
    pub cgp: Option<String>,
    /// The position of a GCG game file after --turn K events.
    #[arg(long, value_name = "FILE")]
    pub gcg: Option<PathBuf>,
    /// With --gcg: the number of events to replay (default: all).
    #[arg(long, value_name = "K")]
    pub turn: Option<usize>,
    /// Print the best N moves (default 20; at least 1).
    #[arg(long, visible_alias = "top", value_name = "N", conflicts_with = "all",
          value_parser = crate::flags::limit)]
    pub limit: Option<usize>,
    /// Print every move.
    #[arg(long)]
    pub all: bool,
    /// Print JSON: an array of moves (batch: one {"index", "moves"} object a line).
    #[arg(long)]
    pub json: bool,
    /// Print only the number of moves (batch: one line per input line, empty
    /// for a blank, `#` comment or bad line; with --json, one {"index",
    /// "count"} object a line).
    #[arg(long, short = 'c')]
    pub count: bool,
    /// List exchanges and the pass too.
    #[arg(long)]
    pub exchanges: bool,
    /// Rank by equity with this leave table (KLV2, or CSV of LEAVE,VALUE
    /// lines): score plus the value of the tiles kept; prints the equity
    /// after the leave (JSON: "equity" and "leave_value", in points).
    #[arg(long, value_name = "FILE")]
    pub leaves: Option<PathBuf>,
}

/// The longest CGP line read from standard input, in bytes (a full 21x21
/// board spelled tile by tile is under 2 KiB).
const MAX_CGP_LINE: usize = 64 * 1024;

/// `lexq moves`.
pub fn run(lexicon: Option<&Choice>, args: &MovesArgs) -> Result<u8, Failure> {
    if args.turn.is_some() && args.gcg.is_none() {
        return Err("--turn K picks a turn of a game file: give the file with --gcg".into());
    }
    let mut lexicons = Lexicons::new(lexicon)?;
    let mut out = BufWriter::with_capacity(1 << 16, crate::print::stdout());
    let mut generator = Generator::new().exchanges(args.exchanges);
    let mut leaves = args.leaves.as_deref().map(LeaveFile::new);
    let limit = if args.all {
        None
    } else {
        Some(args.limit.unwrap_or(20))
    };
    // Equity is printed when ranking by it.
    let ranked = args.leaves.is_some();
    let from_gcg = match &args.gcg {
        Some(path) => Some(crate::cmd::gcg::cgp_at(lexicon, path, args.turn)?),
        None => None,
    };
    if let Some(line) = args.cgp.as_ref().or(from_gcg.as_ref()) {
        let lex = lexicons.for_cgp(line)?;
        let pos = position(lex, line)?;
        if let Some(file) = &mut leaves {
            generator.set_leaves(Some(file.for_alphabet(pos.board.alphabet())?));
        }
        let list = answer(&mut generator, &pos, limit, args.count);
        print(&mut out, &list, &pos, None, args.json, ranked)?;
        out.flush()?;
        if list.is_empty() && pos.rack().is_empty() {
            eprintln!(
                "lexq: no moves: the player to move has no tiles (the CGP's first rack is empty; a GCG file shows a rack only on its player's turns)"
            );
        }
        return Ok(if list.is_empty() { NOT_FOUND } else { FOUND });
    }
    let mut input = io::stdin().lock();
    let mut bad = false;
    // Whether any position had a move: the exit status, as grep's over
    // several files.
    let mut found = false;
    let mut raw = Vec::new();
    for lineno in 1.. {
        if crate::print::closed() {
            break; // nobody reads the answers
        }
        // A line is read up to its end or MAX_CGP_LINE bytes: endless
        // input without a line end (`< /dev/zero`) is an error, not a line
        // read until memory runs out.
        raw.clear();
        match io::Read::take(&mut input, MAX_CGP_LINE as u64 + 1).read_until(b'\n', &mut raw) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                out.flush()?;
                return Err(format!("<stdin>: {e}").into());
            }
        }
        if raw.len() > MAX_CGP_LINE {
            out.flush()?;
            return Err(format!("<stdin>: line {lineno}: longer than {MAX_CGP_LINE} bytes").into());
        }
        // With --count, every input line has its output line: a blank, a
        // `#` comment or a bad line an empty one (JSON lines say their
        // index instead).
        let skip = |out: &mut BufWriter<_>| -> io::Result<()> {
            if args.count && !args.json {
                writeln!(out)?;
            }
            Ok(())
        };
        let Ok(line) = std::str::from_utf8(&raw) else {
            skip(&mut out)?;
            out.flush()?;
            eprintln!("lexq: line {lineno}: not UTF-8");
            bad = true;
            continue;
        };
        let mut line = line.trim_end_matches(['\n', '\r']);
        if lineno == 1 {
            line = line.strip_prefix('\u{feff}').unwrap_or(line);
        }
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            skip(&mut out)?;
            continue;
        }
        let pos = match lexicons
            .for_cgp(line)
            .and_then(|lex| Ok(position(lex, line)?))
        {
            Ok(p) => p,
            Err(e) => {
                skip(&mut out)?;
                out.flush()?;
                eprintln!("lexq: line {lineno}: {e}");
                bad = true;
                continue;
            }
        };
        // A leave table that cannot be read is no line's fault: it ends
        // the run.
        if let Some(file) = &mut leaves {
            let table = file.for_alphabet(pos.board.alphabet());
            let table = table.inspect_err(|_| {
                let _ = out.flush();
            })?;
            generator.set_leaves(Some(table));
        }
        let list = answer(&mut generator, &pos, limit, args.count);
        found |= !list.is_empty();
        print(&mut out, &list, &pos, Some(lineno), args.json, ranked)?;
    }
    out.flush()?;
    Ok(if bad {
        ERROR
    } else if found {
        FOUND
    } else {
        NOT_FOUND
    })
}

enum Answer {
    Count(usize),
    /// Best first, with their equities (1000 x the score without a leave
    /// table).
    Moves(Vec<Valued>),
}

impl Answer {
    /// No move (exit status 1).
    fn is_empty(&self) -> bool {
        match self {
            Answer::Count(n) => *n == 0,
            Answer::Moves(v) => v.is_empty(),
        }
    }
}

fn answer(
    generator: &mut Generator,
    pos: &Position<'_>,
    limit: Option<usize>,
    count: bool,
) -> Answer {
    let rack = pos.rack();
    generator.set_bag(Some(pos.bag_len()));
    if count {
        let mut c = Count(0);
        generator.generate(&pos.board, &rack, &mut c);
        return Answer::Count(c.0);
    }
    match limit {
        Some(n) => {
            let mut top = TopN::new(n);
            generator.generate(&pos.board, &rack, &mut top);
            Answer::Moves(top.into_valued())
        }
        None => {
            let mut all = All::default();
            generator.generate(&pos.board, &rack, &mut all);
            let mut v: Vec<Valued> = all
                .moves
                .iter()
                .map(|m| Valued {
                    mv: *m,
                    equity: generator.equity(&pos.board, &rack, m),
                })
                .collect();
            v.sort_unstable_by(rank_valued);
            Answer::Moves(v)
        }
    }
}

/// Prints an answer: a count or the moves, as text or JSON; in a batch
/// (`index`: the line number), JSON objects with the index and text
/// after a `# LINE: N moves` line.
fn print(
    out: &mut impl Write,
    answer: &Answer,
    pos: &Position<'_>,
    index: Option<usize>,
    as_json: bool,
    ranked: bool,
) -> io::Result<()> {
    match (answer, index) {
        (Answer::Count(n), None) if as_json => writeln!(out, "{}", json!(n)),
        (Answer::Count(n), Some(i)) if as_json => {
            writeln!(out, "{}", json!({"index": i, "count": n}))
        }
        (Answer::Count(n), _) => writeln!(out, "{n}"),
        (Answer::Moves(ms), _) if as_json => {
            let v = Value::Array(ms.iter().map(|m| move_json(m, pos, ranked)).collect());
            match index {
                None => writeln!(out, "{v}"),
                Some(i) => writeln!(out, "{}", json!({"index": i, "moves": v})),
            }
        }
        (Answer::Moves(ms), _) => {
            if let Some(i) = index {
                writeln!(out, "# {i}: {} moves", ms.len())?;
            }
            for m in ms {
                writeln!(out, "{}", move_text(m, pos, ranked))?;
            }
            Ok(())
        }
    }
}

fn leave_text(m: &Move, rack: &Rack, a: &Alphabet) -> String {
    m.leave(rack).to_string(a)
}

/// `8D CA(R)E 12 AEI` (the leave, `-` when none), then, ranked by
/// equity, the equity in points: `8D CA(R)E 12 AEI 15.125`.
fn move_text(v: &Valued, pos: &Position<'_>, ranked: bool) -> String {
    let (m, a) = (&v.mv, pos.board.alphabet());
    let leave = leave_text(m, &pos.rack(), a);
    let mut s = format!(
        "{} {} {}",
        m.notation(a),
        m.score(),
        if leave.is_empty() { "-" } else { &leave }
    );
    if ranked {
        s.push(' ');
        s.push_str(&points(v.equity));
    }
    s
}

/// Millipoints as points with three decimals: `-7.250`.
fn points(milli: i32) -> String {
    let sign = if milli < 0 { "-" } else { "" };
    let m = milli.unsigned_abs();
    format!("{sign}{}.{:03}", m / 1000, m % 1000)
}

/// The move as JSON: the core's one serializer, shared with the server.
fn move_json(v: &Valued, pos: &Position<'_>, ranked: bool) -> Value {
    let mut view = lexq::game::MoveView::new(&v.mv, &pos.rack(), pos.board.alphabet());
    if ranked {
        view = view.with_equity(v.equity);
    }
    serde_json::to_value(view).unwrap_or(Value::Null)
}
