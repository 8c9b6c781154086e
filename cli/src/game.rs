//! The board-game commands: `moves`, `board`, `play`, `selfplay`.
//!
//! The lexicon of a position is `--lexicon` when given, else the one its
//! CGP `lex` opcode names (ENABLE, or a lexicon file path), else ENABLE.

use std::collections::HashMap;
use std::fs;
use std::io::{self, BufRead, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use lexq::files::FilePolicy;
use lexq::game::leavegen::LeaveStats;
use lexq::game::leaves::Leaves;
use lexq::game::{
    All, Count, Game, Generator, Layout, Move, Position, Rack, TopN, Valued, lexicon_name,
    rank_valued, selfplay,
};
use lexq::game::{Challenge, ChallengeRule, Rules};
use lexq::{Alphabet, Lexicon, TileSet};
use serde_json::{Value, json};

use crate::{ERROR, FOUND, Failure, NOT_FOUND};

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
    #[arg(long, value_name = "N", conflicts_with = "all",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub top: Option<u64>,
    /// Print every move.
    #[arg(long)]
    pub all: bool,
    /// Print JSON: an array of moves (batch: one {"index", "moves"} object a line).
    #[arg(long)]
    pub json: bool,
    /// Print only the number of moves (batch: one line per input line, empty
    /// for a blank, `#` comment or bad line).
    #[arg(long, conflicts_with = "json")]
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

/// Arguments of `lexq board`.
#[derive(Args, Debug)]
pub struct BoardArgs {
    /// The position as a CGP line.
    #[arg(long, value_name = "CGP")]
    pub cgp: String,
    /// Colours: auto (on a terminal), always, never.
    #[arg(long, value_name = "WHEN", default_value = "auto")]
    pub color: String,
}

/// Arguments of `lexq play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The position as a CGP line.
    #[arg(long, value_name = "CGP")]
    pub cgp: String,
    /// The move in GCG notation: `8D CA(R)E`, `D8 WORD`, `-ABC` (exchange), `-` (pass).
    #[arg(value_name = "MOVE", allow_hyphen_values = true, num_args = 1..)]
    pub mv: Vec<String>,
    /// Seed of the bag the new tiles are drawn from (the tiles the
    /// position does not show, shuffled).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// The next player challenges the play: a phony is withdrawn (the
    /// tiles back on the rack, the draw back in the bag, a scoreless
    /// turn); a valid play stands, and under the CGP's `cr` rule the
    /// challenger may lose the turn or the player gain a bonus. The
    /// verdict goes to stderr. A CGP without `cr` is played under
    /// `cr single` here, so that a phony can go down to be challenged.
    #[arg(long)]
    pub challenge: bool,
}

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
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Also write each game as DIR/game-SEED.gcg.
    #[arg(long, value_name = "DIR")]
    pub gcg: Option<PathBuf>,
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
    /// 95% Wilson interval (positions are written only with --out).
    #[arg(long, value_name = "FILE")]
    pub leaves: Option<PathBuf>,
}

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

/// Opens lexicons by name, once each.
struct Lexicons {
    forced: Option<Lexicon>,
    named: HashMap<String, Lexicon>,
    embedded: Option<Lexicon>,
}

impl Lexicons {
    fn new(forced: Option<&Path>) -> Result<Lexicons, Failure> {
        Ok(Lexicons {
            forced: match forced {
                Some(p) => Some(Lexicon::open(p)?),
                None => None,
            },
            named: HashMap::new(),
            embedded: None,
        })
    }

    /// The lexicon for a CGP line: the one its `lex` names (the built-in
    /// ENABLE or any lexicon file: the user of the command writes the
    /// lines), else ENABLE.
    fn for_cgp(&mut self, line: &str) -> Result<&Lexicon, Failure> {
        if let Some(l) = &self.forced {
            return Ok(l);
        }
        let name = lexicon_name(line).filter(|n| !FilePolicy::is_builtin_lexicon(n));
        match name {
            None => Ok(self.embedded.get_or_insert_with(Lexicon::embedded)),
            Some(name) => {
                if !self.named.contains_key(&name) {
                    let lex = FilePolicy::any_file()
                        .lexicon(&name)
                        .map_err(|e| format!("CGP lex: {e} (or give one with --lexicon)"))?;
                    self.named.insert(name.clone(), lex);
                }
                Ok(&self.named[&name])
            }
        }
    }
}

/// A leave table file, read once for each alphabet it is used with (the
/// CSV form spells leaves in the alphabet's letters).
struct LeaveFile {
    path: PathBuf,
    read: HashMap<String, Arc<Leaves>>,
}

impl LeaveFile {
    fn new(path: &Path) -> LeaveFile {
        LeaveFile {
            path: path.to_path_buf(),
            read: HashMap::new(),
        }
    }

    /// The table for positions of `alphabet`.
    fn for_alphabet(&mut self, alphabet: &Alphabet) -> Result<Arc<Leaves>, Failure> {
        if let Some(t) = self.read.get(alphabet.name()) {
            return Ok(t.clone());
        }
        let table = Arc::new(Leaves::open(&self.path, alphabet)?);
        self.read.insert(alphabet.name().to_string(), table.clone());
        Ok(table)
    }
}

/// Reads a CGP line; its `bdn` and `ld` may name any file (the user of
/// the command writes the lines, and reads any error about them).
fn position<'a>(lex: &'a Lexicon, line: &str) -> Result<Position<'a>, lexq::game::Error> {
    Position::from_cgp_with(lex, line, &FilePolicy::any_file())
}

/// The longest CGP line read from standard input, in bytes (a full 21x21
/// board spelled tile by tile is under 2 KiB).
const MAX_CGP_LINE: usize = 64 * 1024;

/// `lexq moves`.
pub fn moves(lexicon: Option<&Path>, args: &MovesArgs) -> Result<u8, Failure> {
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
        Some(
            args.top
                .map_or(20, |n| usize::try_from(n).unwrap_or(usize::MAX)),
        )
    };
    // Equity is printed when ranking by it.
    let ranked = args.leaves.is_some();
    let from_gcg = match &args.gcg {
        Some(path) => Some(crate::gcg::cgp_at(lexicon, path, args.turn)?),
        None => None,
    };
    if let Some(line) = args.cgp.as_ref().or(from_gcg.as_ref()) {
        let lex = lexicons.for_cgp(line)?;
        let pos = position(lex, line)?;
        if let Some(file) = &mut leaves {
            generator.set_leaves(Some(file.for_alphabet(pos.board.alphabet())?));
        }
        let list = answer(&mut generator, &pos, limit, args.count);
        match list {
            Answer::Count(n) => writeln!(out, "{n}")?,
            Answer::Moves(ms) if args.json => {
                let v: Vec<Value> = ms.iter().map(|m| move_json(m, &pos, ranked)).collect();
                writeln!(out, "{}", Value::Array(v))?;
            }
            Answer::Moves(ms) => {
                for m in &ms {
                    writeln!(out, "{}", move_text(m, &pos, ranked))?;
                }
            }
        }
        out.flush()?;
        return Ok(FOUND);
    }
    let mut input = io::stdin().lock();
    let mut bad = false;
    let mut raw = Vec::new();
    for lineno in 1.. {
        if crate::print::closed() {
            break; // nobody reads the answers
        }
        // A line is read up to its end or MAX_CGP_LINE bytes: endless
        // input without a line end (`< /dev/zero`) is an error, not a line
        // read until memory runs out.
        raw.clear();
        if io::Read::take(&mut input, MAX_CGP_LINE as u64 + 1).read_until(b'\n', &mut raw)? == 0 {
            break;
        }
        if raw.len() > MAX_CGP_LINE {
            out.flush()?;
            return Err(format!("<stdin>: line {lineno}: longer than {MAX_CGP_LINE} bytes").into());
        }
        // With --count, every input line has its output line: a blank, a
        // `#` comment or a bad line an empty one.
        let skip = |out: &mut BufWriter<_>| -> io::Result<()> {
            if args.count {
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
        match answer(&mut generator, &pos, limit, args.count) {
            Answer::Count(n) => writeln!(out, "{n}")?,
            Answer::Moves(ms) if args.json => {
                let v: Vec<Value> = ms.iter().map(|m| move_json(m, &pos, ranked)).collect();
                writeln!(out, "{}", json!({"index": lineno, "moves": v}))?;
            }
            Answer::Moves(ms) => {
                writeln!(out, "# {lineno}: {} moves", ms.len())?;
                for m in &ms {
                    writeln!(out, "{}", move_text(m, &pos, ranked))?;
                }
            }
        }
    }
    out.flush()?;
    Ok(if bad { ERROR } else { FOUND })
}

enum Answer {
    Count(usize),
    /// Best first, with their equities (1000 x the score without a leave
    /// table).
    Moves(Vec<Valued>),
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

/// `lexq play`.
pub fn play(lexicon: Option<&Path>, args: &PlayArgs) -> Result<u8, Failure> {
    let mut lexicons = Lexicons::new(lexicon)?;
    let lex = lexicons.for_cgp(&args.cgp)?;
    let pos = position(lex, &args.cgp)?;
    let mut game = Game::from_position(&pos, args.seed)?;
    if args.challenge && game.rules().challenge == ChallengeRule::Void {
        let rules = Rules {
            challenge: ChallengeRule::Single,
            ..game.rules().clone()
        };
        game = game.with_rules(rules);
    }
    let text = args.mv.join(" ");
    let mv = pos.board.parse_move(&text)?;
    let played = game.play(&mv)?;
    if args.challenge {
        let a = pos.board.alphabet();
        let what = played.mv.notation(a);
        let verdict = match game.challenge()? {
            Challenge::Withdrawn => {
                format!(
                    "{what}: not a word: {}: withdrawn",
                    played.phonies.join(", ")
                )
            }
            Challenge::Valid => format!("{what}: valid, the play stands"),
            Challenge::TurnLost => format!("{what}: valid, the challenger loses the turn"),
            Challenge::Bonus(p) => format!("{what}: valid, {p} points to the player"),
        };
        eprintln!("{verdict}");
    }
    let mut out = crate::print::stdout();
    writeln!(out, "{}", game.to_cgp())?;
    Ok(FOUND)
}

/// `lexq board`.
pub fn board(lexicon: Option<&Path>, args: &BoardArgs) -> Result<u8, Failure> {
    let mut lexicons = Lexicons::new(lexicon)?;
    let lex = lexicons.for_cgp(&args.cgp)?;
    let pos = position(lex, &args.cgp)?;
    let colour = match args.color.as_str() {
        "always" => true,
        "never" => false,
        "auto" => io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
        other => return Err(format!("--color {other:?}: auto, always or never").into()),
    };
    let mut out = crate::print::stdout();
    write!(out, "{}", draw(&pos, colour))?;
    Ok(FOUND)
}

/// The board as text: column letters, row numbers, premium squares as
/// `3W 2W 3L 2L` (and `4W 4L`), `*` the start square, tiles as letters
/// (blanks lowercase); rack and scores below.
pub fn draw(pos: &Position<'_>, colour: bool) -> String {
    let b = &pos.board;
    let a = b.alphabet();
    let l = b.layout();
    let n = b.size();
    let paint = |s: &str, code: &str| {
        if colour {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    };
    let mut s = String::from("   ");
    for c in 0..n {
        s.push_str(&format!(" {} ", lexq::game::notation::column_name(c)));
    }
    s.push('\n');
    for r in 0..n {
        s.push_str(&format!("{:>2} ", r + 1));
        for c in 0..n {
            let t = b.tile(r, c);
            if t != 0 {
                let mut label = String::new();
                let txt = a.label(t & 63).unwrap_or("?");
                if t & lexq::game::BLANK != 0 {
                    label.push_str(&txt.to_lowercase());
                } else {
                    label.push_str(txt);
                }
                let cell = format!("{label:^3}");
                s.push_str(&paint(&cell, "1;30;43"));
                continue;
            }
            let (lm, wm) = (l.letter_mult(r, c), l.word_mult(r, c));
            let cell = if (r, c) == l.start() {
                paint(" * ", "35")
            } else if wm > 1 {
                paint(&format!("{wm}W "), if wm >= 3 { "31" } else { "35" })
            } else if lm > 1 {
                paint(&format!("{lm}L "), if lm >= 3 { "34" } else { "36" })
            } else {
                " . ".to_string()
            };
            s.push_str(&cell);
        }
        s.push('\n');
    }
    s.push('\n');
    for (i, (rack, score)) in pos.racks.iter().zip(&pos.scores).enumerate() {
        let who = if i == 0 { "to move" } else { "next" };
        let r = Rack::from_codes(rack).to_string(a);
        s.push_str(&format!(
            "player {} ({who}): {:>4}  rack {}\n",
            i + 1,
            score,
            if r.is_empty() { "-".to_string() } else { r }
        ));
    }
    if pos.zeros > 0 {
        s.push_str(&format!("scoreless turns: {}\n", pos.zeros));
    }
    s
}

/// What a self-play command plays on: the lexicon, board, tiles and the
/// opcodes naming them in CGP and GCG.
struct Setup {
    lex: Lexicon,
    layout: Layout,
    tiles: TileSet,
    ops: String,
}

fn setup(lexicon: Option<&Path>, layout_name: &str, tiles: Option<&str>) -> Result<Setup, Failure> {
    let lex = match lexicon {
        Some(p) => Lexicon::open(p)?,
        None => Lexicon::embedded(),
    };
    let layout = Layout::named(layout_name)?;
    // The friends board comes with the friends tile set unless --tiles
    // says otherwise.
    let friends = layout_name.eq_ignore_ascii_case("friends");
    let tiles_name = match tiles {
        Some(t) => Some(t.to_string()),
        None if friends && lex.alphabet().name() == "english" => Some("friends".to_string()),
        None => None,
    };
    let tiles = match &tiles_name {
        Some(t) => TileSet::named(t, lex.alphabet())?,
        None => TileSet::default_for(lex.alphabet(), layout.size())?,
    };
    let mut ops = match lexicon {
        Some(p) => format!("lex {};", p.display()),
        None => "lex ENABLE;".to_string(),
    };
    if layout_name != "standard" {
        ops.push_str(&format!(" bdn {layout_name};"));
    }
    if let Some(t) = &tiles_name {
        ops.push_str(&format!(" ld {t};"));
    }
    Ok(Setup {
        lex,
        layout,
        tiles,
        ops,
    })
}

/// A bar counting games on stderr when it is a terminal, else nothing.
fn games_bar(games: u64) -> Option<ProgressBar> {
    io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::with_draw_target(Some(games), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{spinner} games [{bar:40}] {pos}/{len} {eta}")
                .expect("valid template")
                .progress_chars("=> "),
        );
        bar.enable_steady_tick(Duration::from_millis(100));
        bar
    })
}

/// `lexq selfplay`.
pub fn selfplay(lexicon: Option<&Path>, args: &SelfplayArgs) -> Result<u8, Failure> {
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
    if let Some(dir) = &args.gcg {
        fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mut out: Option<Box<dyn Write>> = match (&args.out, &table) {
        (Some(p), _) => Some(Box::new(BufWriter::new(
            fs::File::create(p).map_err(|e| format!("{}: {e}", p.display()))?,
        ))),
        (None, None) => Some(Box::new(BufWriter::new(crate::print::stdout()))),
        (None, Some(_)) => None,
    };
    let bar = games_bar(args.games);
    let mut equity_bot = Generator::new().exchanges(true).leaves(table.clone());
    let mut greedy = Generator::new();
    let (mut positions, mut games) = (0usize, 0u64);
    // The equity bot's results: wins, draws, losses, spread.
    let (mut won, mut drawn, mut lost, mut spread) = (0u64, 0u64, 0u64, 0i64);
    for g in 0..args.games {
        if table.is_none() && crate::print::closed() && args.gcg.is_none() {
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
            let game = selfplay::play_with(&lex, &layout, &tiles, seed, &ops, players, |_| {})?;
            let d = game.scores[me] - game.scores[1 - me];
            spread += i64::from(d);
            match d.cmp(&0) {
                std::cmp::Ordering::Greater => won += 1,
                std::cmp::Ordering::Equal => drawn += 1,
                std::cmp::Ordering::Less => lost += 1,
            }
            game
        } else {
            selfplay::play(&lex, &layout, &tiles, seed, &ops)?
        };
        if let Some(out) = &mut out {
            for p in &game.positions {
                writeln!(out, "{p}")?;
            }
        }
        positions += game.positions.len();
        games += 1;
        if let Some(dir) = &args.gcg {
            let path = dir.join(format!("game-{seed}.gcg"));
            fs::write(&path, &game.gcg).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        if let Some(b) = &bar {
            b.inc(1);
        }
    }
    if let Some(out) = &mut out {
        out.flush()?;
    }
    if let Some(b) = bar {
        b.finish_and_clear();
        eprintln!("{games} games, {positions} positions");
    }
    if let (Some(path), true) = (&args.leaves, games > 0) {
        let rate = (won as f64 + drawn as f64 / 2.0) / games as f64;
        let (lo, hi) = selfplay::wilson(won as f64 + drawn as f64 / 2.0, games, 1.96);
        let mut o = crate::print::stdout();
        writeln!(
            o,
            "equity ({}) against greedy: {games} games, {won} won, {drawn} drawn, {lost} lost",
            path.display()
        )?;
        writeln!(
            o,
            "win rate {rate:.3} (95% Wilson interval {lo:.3}-{hi:.3}, a draw half a win); mean spread {:+.1}",
            spread as f64 / games as f64
        )?;
    }
    Ok(if positions > 0 { FOUND } else { NOT_FOUND })
}

/// `lexq leaves`.
pub fn leaves(lexicon: Option<&Path>, args: &LeavesArgs) -> Result<u8, Failure> {
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
