//! Move generation timed over a file of CGP positions, the way
//! wolges-bench times wolges (`benches/wolges.sh` runs both in turn):
//!
//! ```text
//! cargo run --release --example movegen_timing [FILE]
//!     by rack class (blanks held: none, one, two), every move counted,
//!     then the best move only; FILE defaults to benches/positions.cgp
//! movegen_timing --mode all|count|best [--reps N] [--warmup W] [-L LEX]
//!                [--leaves TABLE] FILE
//!     W untimed passes, then N timed passes over every position; prints
//!     us_per_pos= (the median pass over the positions), moves_per_pass=
//!     and, for best, best_score_sum= and best_equity_sum= (millipoints;
//!     ranked by equity with the leave table TABLE, KLV2 or CSV, each
//!     position's bag counted from its CGP)
//! movegen_timing --print-moves [-L LEX] FILE
//!     every move of every position in wolges-bench's `moves` format
//! movegen_timing --print-best [-L LEX] [--leaves TABLE] FILE
//!     per position `idx bag score equity gcg` of the best move (idx
//!     0-based, bag the tiles in the bag, equity in millipoints)
//! ```
//!
//! A pass sets each position's tiles on one reused board
//! ([`lexq::game::Board::set_tiles`]: the cross sets of the rows and columns that
//! changed since the last position are recomputed) and generates its moves
//! with one reused generator, as wolges-bench copies each board into one
//! buffer for one reused generator. `all` keeps every move in a list (as
//! wolges keeps every move in its list; the list is emptied, not freed,
//! between positions), `count` only counts them, `best` keeps the best.

use std::sync::Arc;
use std::time::{Duration, Instant};

use lexq::{
    Lexicon, game::All, game::Best, game::Board, game::Count, game::Generator, game::Move,
    game::Position,
};

const USAGE: &str = "usage: movegen_timing [--mode all|count|best] [--reps N] [--warmup W] \
                     [--print-moves | --print-best] [-L LEXICON] [--leaves TABLE] [FILE]";

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Classes,
    All,
    Count,
    Best,
    Print,
    PrintBest,
}

fn die(msg: &str) -> ! {
    eprintln!("movegen_timing: {msg}\n{USAGE}");
    std::process::exit(2);
}

fn main() -> Result<(), lexq::game::Error> {
    let mut mode = Mode::Classes;
    let mut reps = 5usize;
    let mut warmup = 1usize;
    let mut lexicon = None;
    let mut leaves = None;
    let mut file = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .unwrap_or_else(|| die(&format!("{name} needs a value")))
        };
        match a.as_str() {
            "--mode" => {
                mode = match value("--mode").as_str() {
                    "all" => Mode::All,
                    "count" => Mode::Count,
                    "best" => Mode::Best,
                    "classes" => Mode::Classes,
                    m => die(&format!("unknown mode {m}")),
                }
            }
            "--reps" => {
                reps = value("--reps")
                    .parse()
                    .unwrap_or_else(|_| die("--reps: not a number"))
            }
            "--warmup" => {
                warmup = value("--warmup")
                    .parse()
                    .unwrap_or_else(|_| die("--warmup: not a number"))
            }
            "--print-moves" => mode = Mode::Print,
            "--print-best" => mode = Mode::PrintBest,
            "--leaves" => leaves = Some(value("--leaves")),
            "-L" | "--lexicon" => lexicon = Some(value("--lexicon")),
            s if s.starts_with('-') => die(&format!("unknown option {s}")),
            s => file = Some(s.to_string()),
        }
    }
    if reps == 0 {
        die("--reps must be at least 1");
    }
    let file = file.unwrap_or_else(|| "benches/positions.cgp".to_string());
    let lex = match &lexicon {
        Some(path) => Lexicon::open(path)?,
        None => Lexicon::embedded(),
    };
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| die(&format!("{file}: {e}")));
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let positions: Vec<Position> = lines
        .iter()
        .map(|l| Position::from_cgp(&lex, l))
        .collect::<Result<_, _>>()?;
    if positions.is_empty() {
        die("no positions");
    }
    let mut board = positions[0].board.clone();
    let mut generator = Generator::new();
    if let Some(path) = &leaves {
        let table = lexq::game::leaves::Leaves::open(path.as_ref(), lex.alphabet())
            .unwrap_or_else(|e| die(&e.to_string()));
        generator.set_leaves(Some(Arc::new(table)));
    }
    match mode {
        Mode::Print => print_moves(&lex, &lines, &positions, &mut board, &mut generator),
        Mode::PrintBest => print_best(&lex, &positions, &mut board, &mut generator),
        Mode::Classes => classes(&positions, &mut board, &mut generator),
        _ => bench(mode, reps, warmup, &positions, &mut board, &mut generator),
    }
    Ok(())
}

/// One pass over every position: (moves found, sum of best scores, sum of
/// best equities).
fn pass(
    mode: Mode,
    positions: &[Position<'_>],
    board: &mut Board<'_>,
    generator: &mut Generator,
    all: &mut All,
) -> (usize, i64, i64) {
    let (mut moves, mut best_sum, mut equity_sum) = (0usize, 0i64, 0i64);
    for p in positions {
        board
            .set_tiles(p.board.tiles())
            .expect("tiles of the same game");
        let rack = p.rack();
        generator.set_bag(Some(p.bag_len()));
        match mode {
            Mode::All => {
                all.moves.clear();
                generator.generate(board, &rack, all);
                moves += all.moves.len();
            }
            Mode::Count => {
                let mut c = Count(0);
                generator.generate(board, &rack, &mut c);
                moves += c.0;
            }
            Mode::Best => {
                let mut b = Best::default();
                generator.generate(board, &rack, &mut b);
                if let Some(v) = b.valued() {
                    moves += 1;
                    best_sum += v.mv.score() as i64;
                    equity_sum += v.equity as i64;
                }
            }
            // Not timed modes: nothing to generate.
            Mode::Classes | Mode::Print | Mode::PrintBest => {}
        }
    }
    (moves, best_sum, equity_sum)
}

fn bench(
    mode: Mode,
    reps: usize,
    warmup: usize,
    positions: &[Position<'_>],
    board: &mut Board<'_>,
    generator: &mut Generator,
) {
    let mut all = All::default();
    let mut times: Vec<Duration> = Vec::with_capacity(reps);
    let mut first = None;
    for k in 0..warmup + reps {
        let t = Instant::now();
        let got = pass(mode, positions, board, generator, &mut all);
        let e = t.elapsed();
        if *first.get_or_insert(got) != got {
            die("passes disagree on the moves found");
        }
        if k >= warmup {
            times.push(e);
        }
    }
    times.sort();
    let n = positions.len() as f64;
    let us = |d: Duration| d.as_secs_f64() * 1e6 / n;
    let med = if reps % 2 == 1 {
        us(times[reps / 2])
    } else {
        (us(times[reps / 2 - 1]) + us(times[reps / 2])) / 2.0
    };
    let (moves, best_sum, equity_sum) = first.unwrap_or_default();
    println!("us_per_pos={med:.1}");
    println!("moves_per_pass={moves}");
    if mode == Mode::Best {
        println!("best_score_sum={best_sum}");
        println!("best_equity_sum={equity_sum}");
    }
    println!(
        "positions={} warmup={warmup} reps={reps} us_per_pos_min={:.1} us_per_pos_max={:.1}",
        positions.len(),
        us(times[0]),
        us(times[reps - 1])
    );
}

/// The human summary: every move counted, by rack class, then the best
/// move only.
fn classes(positions: &[Position<'_>], board: &mut Board<'_>, generator: &mut Generator) {
    let rounds = 3;
    let mut time = [0f64; 3];
    let mut moves = [0usize; 3];
    let mut n = [0usize; 3];
    let mut best_time = 0f64;
    for _ in 0..rounds {
        for p in positions {
            let rack = p.rack();
            let class = rack.count(0).min(2);
            let t = Instant::now();
            board
                .set_tiles(p.board.tiles())
                .expect("tiles of the same game");
            let mut c = Count(0);
            generator.generate(board, &rack, &mut c);
            time[class] += t.elapsed().as_secs_f64();
            moves[class] += c.0;
            n[class] += 1;
            let t = Instant::now();
            let mut b = Best::default();
            generator.generate(board, &rack, &mut b);
            best_time += t.elapsed().as_secs_f64();
        }
    }
    for k in 0..3 {
        if n[k] > 0 {
            println!(
                "{k} blanks: {:5} positions, {:8.1} µs/position, {:7.0} moves/position, {:.2} M moves/s",
                n[k] / rounds,
                time[k] / n[k] as f64 * 1e6,
                moves[k] as f64 / n[k] as f64,
                moves[k] as f64 / time[k] / 1e6
            );
        }
    }
    let total: f64 = time.iter().sum();
    let all_n: usize = n.iter().sum();
    let all_m: usize = moves.iter().sum();
    println!(
        "all moves: {:.1} µs/position, {:.2} M moves/s; best only: {:.1} µs/position",
        total / all_n as f64 * 1e6,
        all_m as f64 / total / 1e6,
        best_time / all_n as f64 * 1e6
    );
}

/// The best move of each position: `idx bag score equity gcg`.
fn print_best(
    lex: &Lexicon,
    positions: &[Position<'_>],
    board: &mut Board<'_>,
    generator: &mut Generator,
) {
    use std::io::Write;
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    for (idx, p) in positions.iter().enumerate() {
        board
            .set_tiles(p.board.tiles())
            .expect("tiles of the same game");
        generator.set_bag(Some(p.bag_len()));
        let mut b = Best::default();
        generator.generate(board, &p.rack(), &mut b);
        let line = match b.valued() {
            Some(v) => format!(
                "{idx} {} {} {} {}",
                p.bag_len(),
                v.mv.score(),
                v.equity,
                v.mv.notation(lex.alphabet())
            ),
            None => format!("{idx} {} - - -", p.bag_len()),
        };
        if writeln!(out, "{line}").is_err() {
            return; // a closed pipe ends the listing
        }
    }
    let _ = out.flush();
}

/// Every move in wolges-bench's `moves` format: per position a line
/// `# <idx> <n> <board> <rack>`, then `<row> <col> <H|V> <WORD> <PLACED>
/// <score>` a move, sorted by row, column, H before V, then PLACED (byte
/// order); blanks lowercase, played-through squares `.` in PLACED.
fn print_moves(
    lex: &Lexicon,
    lines: &[&str],
    positions: &[Position<'_>],
    board: &mut Board<'_>,
    generator: &mut Generator,
) {
    use std::io::Write;
    let a = lex.alphabet();
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    let mut all = All::default();
    for (idx, (p, line)) in positions.iter().zip(lines).enumerate() {
        board
            .set_tiles(p.board.tiles())
            .expect("tiles of the same game");
        all.moves.clear();
        generator.generate(board, &p.rack(), &mut all);
        let mut rows: Vec<(usize, usize, bool, String, String, i32)> = all
            .moves
            .iter()
            .map(|m: &Move| {
                (
                    m.row(),
                    m.col(),
                    !m.across(),
                    m.placed(a),
                    m.word(a),
                    m.score(),
                )
            })
            .collect();
        rows.sort_unstable_by(|x, y| (x.0, x.1, x.2, &x.3).cmp(&(y.0, y.1, y.2, &y.3)));
        let mut fields = line.split_ascii_whitespace();
        let board_text = fields.next().unwrap_or("");
        let rack_text = fields.next().unwrap_or("").split('/').next().unwrap_or("");
        // A closed pipe (`| head`) ends the listing quietly.
        let w = |out: &mut std::io::BufWriter<_>, s: String| {
            if out.write_all(s.as_bytes()).is_err() {
                std::process::exit(0);
            }
        };
        w(
            &mut out,
            format!("# {idx} {} {board_text} {rack_text}\n", rows.len()),
        );
        for (r, c, down, placed, word, score) in rows {
            let dir = if down { 'V' } else { 'H' };
            w(&mut out, format!("{r} {c} {dir} {word} {placed} {score}\n"));
        }
    }
    if out.flush().is_err() {
        std::process::exit(0);
    }
}
