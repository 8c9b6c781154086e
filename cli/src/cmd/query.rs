//! `lexq query`: word queries one a line, each answered by one JSON line,
//! with the lexicon opened once and probability ranks counted once.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};

use serde::Serialize;

use crate::cmd::check::CheckArgs;
use crate::cmd::check::{nearest, with_stdin_words};
use crate::cmd::hooks::HooksArgs;
use crate::cmd::search::SearchCommand;
use crate::cmd::search::{Study, find};
use crate::cmd::suggest::SuggestArgs;
use crate::cmd::suggest::{Near, ranked};
use crate::cmd::words::WordsArgs;
use crate::exit::{ERROR, FOUND, Failure, NOT_FOUND};
use crate::flags::clap_message;
use crate::lexicon::Choice;
use crate::print::{self, Printer};
use crate::print::{CheckJson, HooksJson, Row};
use clap::Parser;
use clap::error::ErrorKind;
use lexq::Lexicon;
use lexq::find::{Condition, Term};

/// A line of `lexq query`: one word command, without the program name.
#[derive(clap::Parser, Debug)]
#[command(name = "lexq", no_binary_name = true, disable_version_flag = true)]
pub struct QueryLine {
    #[command(subcommand)]
    pub command: LineCommand,
}

/// The commands a line of `lexq query` takes: every word command but
/// `query` itself.
#[derive(clap::Subcommand, Debug)]
pub enum LineCommand {
    /// Word judge: each word valid or not.
    Check(CheckArgs),
    /// Front and back hooks of each word.
    Hooks(HooksArgs),
    #[command(flatten)]
    Search(SearchCommand),
    /// The words nearest WORD by edit distance.
    Suggest(SuggestArgs),
    /// Every word of the lexicon in the lengths asked.
    Words(WordsArgs),
}

/// Arguments of `lexq query`.
#[derive(clap::Args, Debug)]
pub struct QueryArgs {
    /// The file of queries, one a line; - reads standard input.
    #[arg(value_name = "FILE")]
    pub input: std::path::PathBuf,
    /// Answer each line with {"index": LINE, "count": N} instead of its words.
    #[arg(long, short = 'c')]
    pub count: bool,
}

/// The longest query line read, in bytes.
const MAX_LINE: usize = 64 * 1024;

/// Rack queries (`anagram`, `subanagram`, a `find` with `--anagram` or
/// `--subanagram`) answered by walking before the batch prepares the
/// lexicon's walks ([`Lexicon::prepare_walks`]: about 20 ms on ENABLE,
/// once). A few racks are answered sooner walked; a long batch sooner
/// looked up (a rack with two blanks takes some 270 µs walked and 12 µs
/// looked up, docs/BENCHMARKS.md), and the preparation is then paid for
/// within about as many racks again. Answers are the same either way.
const RACKS_BEFORE_PREPARING: usize = 64;

/// The most bytes of a too-long line skipped to reach the next line: past
/// it, with no line end in sight (`/dev/zero`), the input is no file of
/// queries.
const MAX_SKIP: u64 = 64 * 1024 * 1024;

/// Why a line of `lexq query -` cannot read standard input.
const STDIN_TAKEN: &str = "- (standard input) is this batch's stream of queries here: \
                           give the list as a file";

/// Answers every line of `args.input`; the exit status: 2 if a line was
/// bad, else 0 if some line found a word, else 1.
pub fn run(lexicon: Option<&Choice>, args: &QueryArgs) -> Result<u8, Failure> {
    let lex = &crate::lexicon::open(lexicon)?;
    let out = &mut Printer::stdout();
    let name = args.input.display().to_string();
    let from_stdin = args.input.as_os_str() == "-";
    let mut input: Box<dyn BufRead> = if from_stdin {
        Box::new(io::stdin().lock())
    } else {
        if args.input.is_dir() {
            return Err(format!("{name}: is a directory, not a file of queries").into());
        }
        let file = File::open(&args.input).map_err(|e| format!("{name}: {e}"))?;
        Box::new(BufReader::new(file))
    };
    let mut study = Study::default();
    let mut racks = 0;
    let (mut bad, mut found) = (false, false);
    let mut raw = Vec::new();
    for index in 1.. {
        if print::closed() {
            break; // nobody reads the answers
        }
        raw.clear();
        let n = (&mut input)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut raw)
            .map_err(|e| format!("{name}: line {index}: {e}"))?;
        if n == 0 {
            break;
        }
        let ended = raw.last() == Some(&b'\n');
        let too_long = raw.len() - ended as usize > MAX_LINE;
        if too_long && !ended && !skip_line(&mut input).map_err(|e| format!("{name}: {e}"))? {
            out.flush()?;
            return Err(format!(
                "{name}: line {index}: no line end in its first {} MiB: not a file of queries",
                MAX_SKIP >> 20
            )
            .into());
        }
        let answer = match std::str::from_utf8(&raw) {
            // This line only: the next one is answered as usual.
            _ if too_long => Err(format!("longer than {MAX_LINE} bytes")),
            Err(_) => Err("not UTF-8".to_string()),
            Ok(line) => {
                let line = line.trim();
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                answer(lex, &mut study, &mut racks, line, args.count, from_stdin)
            }
        };
        let mut line = Line {
            index,
            words: None,
            count: None,
            error: None,
        };
        match answer {
            Ok(Reply::Count(n)) => {
                found |= n > 0;
                line.count = Some(n);
            }
            Ok(Reply::Words(words)) => {
                found |= !words.is_empty();
                line.words = Some(Listed::Words(words));
            }
            Ok(Reply::Table(rows)) => {
                found |= !rows.is_empty();
                line.words = Some(Listed::Table(rows));
            }
            Ok(Reply::Objects(listed, some)) => {
                found |= some;
                line.words = Some(listed);
            }
            Err(why) => {
                bad = true;
                print::error(&format!("line {index}: {why}"));
                line.error = Some(why);
            }
        }
        out.json_line(&line)?;
        // Each answer as soon as it is known: a program can send a query
        // and read its answer.
        out.flush()?;
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

/// Reads past the rest of a line, a buffer at a time: false if no line
/// end (nor the input's end) came within [`MAX_SKIP`] bytes.
fn skip_line(input: &mut dyn BufRead) -> io::Result<bool> {
    let mut skipped = 0u64;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(true);
        }
        if let Some(i) = buf.iter().position(|&b| b == b'\n') {
            input.consume(i + 1);
            return Ok(true);
        }
        let n = buf.len();
        input.consume(n);
        skipped += n as u64;
        if skipped > MAX_SKIP {
            return Ok(false);
        }
    }
}

/// One answer line: `{"index": k, "words": [...]}`, `{"index": k,
/// "count": n}` or `{"index": k, "error": "..."}`.
#[derive(Serialize)]
struct Line {
    index: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    words: Option<Listed>,
    #[serde(skip_serializing_if = "Option::is_none")]
    count: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// The words of an answer: strings, word-table objects (`--table`), or
/// the objects `check`, `hooks` and `suggest` print with `--json`.
#[derive(Serialize)]
#[serde(untagged)]
enum Listed {
    Words(Vec<String>),
    Table(Vec<Row>),
    Checks(Vec<CheckJson>),
    Hooks(Vec<HooksJson>),
    Near(Vec<Near>),
}

/// What a line found.
enum Reply {
    Count(usize),
    Words(Vec<String>),
    Table(Vec<Row>),
    /// The objects of a word command's `--json` (`check`, `hooks`,
    /// `suggest`), and whether the command found something (its exit
    /// status 0).
    Objects(Listed, bool),
}

/// Whether a query line spends the tiles of a rack (`words`, the line's
/// words, name a find's conditions).
fn spends_a_rack(cmd: &SearchCommand, words: &[String]) -> bool {
    match cmd {
        SearchCommand::Anagram { .. } | SearchCommand::Subanagram { .. } => true,
        SearchCommand::Find(_) => words.iter().any(|w| {
            let flag = w.split('=').next().unwrap_or(w);
            flag == "--anagram" || flag == "--subanagram"
        }),
        _ => false,
    }
}

/// Whether a term, or one inside its alternatives, reads a list from
/// standard input (`--in -`).
fn reads_stdin(terms: &[Term]) -> bool {
    terms.iter().any(|t| match &t.condition {
        Condition::InFile(path) => path.as_os_str() == "-",
        Condition::Any(alternatives) => alternatives.iter().any(|a| reads_stdin(a)),
        _ => false,
    })
}

/// One line's answer; `racks` counts the lines that spent a rack, and
/// the [`RACKS_BEFORE_PREPARING`]th prepares the lexicon's walks.
/// `from_stdin`: the queries come from standard input, which a line may
/// then not read (it would wait for itself).
fn answer(
    lex: &Lexicon,
    study: &mut Study,
    racks: &mut usize,
    line: &str,
    count: bool,
    from_stdin: bool,
) -> Result<Reply, String> {
    let words = lexq::find::split_words(line).map_err(|e| e.to_string())?;
    if words
        .iter()
        .any(|w| w == "-L" || w == "--lexicon" || w.starts_with("--lexicon="))
    {
        return Err("a query line cannot choose the lexicon: give -L to lexq query".into());
    }
    let query = QueryLine::try_parse_from(&words).map_err(|e| match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            "a query line is a word-list command (try 'lexq query --help')".to_string()
        }
        _ => clap_message(&e),
    })?;
    let cmd = match &query.command {
        LineCommand::Search(cmd) => cmd,
        other => return word_command(lex, other, count, from_stdin),
    };
    if let SearchCommand::Find(args) = cmd
        && args.explain
    {
        return Err(
            "--explain prints a plan, not an answer: run it as `lexq find ... --explain`".into(),
        );
    }
    if let SearchCommand::Find(args) = cmd
        && from_stdin
        && reads_stdin(&args.terms)
    {
        return Err(STDIN_TAKEN.into());
    }
    if spends_a_rack(cmd, &words) {
        *racks += 1;
        if *racks == RACKS_BEFORE_PREPARING {
            lex.prepare_walks();
        }
    }
    let mut found = find(lex, cmd).map_err(|e| e.to_string())?;
    let mut o = cmd.output().clone();
    o.count |= count;
    let listing = study
        .arrange(lex, &mut found, &o, cmd.show_blanks())
        .map_err(|e| e.to_string())?;
    if o.count {
        return Ok(Reply::Count(listing.found));
    }
    Ok(match listing.rows {
        Some(rows) => Reply::Table(rows),
        None => Reply::Words(
            listing
                .words
                .iter()
                .map(|w| {
                    if listing.blanks {
                        w.marked()
                    } else {
                        w.spelling()
                    }
                })
                .collect(),
        ),
    })
}

/// A line of a word command that lists no words of a search: `check`,
/// `hooks`, `suggest` (answered with the objects of their `--json`) or
/// `words` (the words). With `count` (`query -c`, or `suggest -c`): the
/// valid words (`check`), the words taking a hook (`hooks`), the words
/// near (`suggest`), the words (`words`).
fn word_command(
    lex: &Lexicon,
    cmd: &LineCommand,
    count: bool,
    from_stdin: bool,
) -> Result<Reply, String> {
    let text = |e: crate::exit::Failure| e.to_string();
    let words_of = |words: &[String]| {
        if from_stdin && words.iter().any(|w| w == "-") {
            return Err(STDIN_TAKEN.to_string());
        }
        with_stdin_words(words).map_err(text)
    };
    Ok(match cmd {
        LineCommand::Check(a) => {
            let words = words_of(&a.words)?;
            let results: Vec<_> = words
                .iter()
                .map(|w| (w.as_str(), lex.is_word(w).map_err(|e| e.to_string())))
                .collect();
            let valid = results.iter().filter(|r| r.1 == Ok(true)).count();
            if count {
                return Ok(Reply::Count(valid));
            }
            let near = match a.suggest {
                true => Some(nearest(lex, &results).map_err(text)?),
                false => None,
            };
            let objects = print::check_objects(lex.alphabet(), &results, near.as_deref());
            Reply::Objects(Listed::Checks(objects), valid == results.len())
        }
        LineCommand::Hooks(a) => {
            let words = words_of(&a.words)?;
            let hooks = words
                .iter()
                .map(|w| lex.hooks(w))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| e.to_string())?;
            let hooked = hooks
                .iter()
                .filter(|h| !h.front.is_empty() || !h.back.is_empty())
                .count();
            if count {
                return Ok(Reply::Count(hooked));
            }
            Reply::Objects(Listed::Hooks(print::hooks_objects(&hooks)), hooked > 0)
        }
        LineCommand::Suggest(a) => {
            let mut near = ranked(lex, &a.word, a.distance, a.tiles.as_deref()).map_err(text)?;
            if count || a.count {
                return Ok(Reply::Count(near.len()));
            }
            near.truncate(a.limit);
            let some = !near.is_empty();
            Reply::Objects(Listed::Near(near), some)
        }
        LineCommand::Words(a) => {
            let (min, max) = a.lens.range()?;
            let mut words = Vec::new();
            lex.for_each_word(min, max, |codes| {
                words.push(lex.alphabet().decode(codes));
                std::ops::ControlFlow::<()>::Continue(())
            });
            if count {
                return Ok(Reply::Count(words.len()));
            }
            Reply::Words(words)
        }
        LineCommand::Search(_) => return Err("a word-list line is answered as a search".into()),
    })
}
