//! `lexq`: the command line over the lexq library. This file only
//! dispatches and reports errors. Its modules import only downward
//! (tests/layers.rs checks it), bottom up:
//!
//! * leaves, importing nothing of the crate: `exit` (statuses and
//!   [`Failure`]), `flags` (flags several commands share), `interrupt`,
//!   `progress`, `verified`;
//! * `lexicon` (the lexicon's choice), `print` (printing word lists and
//!   errors), `find` (`lexq find`'s conditions as flags), `game`;
//! * `cmd`: one module a command, each owning its arguments;
//! * `args`: the command line (the commands, `--help`'s groups, parse
//!   errors).

/// `eprintln!` for this whole binary (it shadows std's in every module
/// declared below): a failed write to stderr (closed, or `2>/dev/full`) is
/// ignored instead of panicking, as there is nowhere left to report it.
macro_rules! eprintln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod args;
mod cmd;
mod exit;
mod find;
mod flags;
mod game;
mod interrupt;
mod lexicon;
mod print;
mod progress;
mod verified;

use std::process::ExitCode;

use args::{Cli, Command};
use exit::{ERROR, Failure};

fn main() -> ExitCode {
    let cli = match args::parse() {
        Ok(cli) => cli,
        Err(e) => return args::parse_error(e),
    };
    let outcome = run(cli);
    if interrupt::interrupting() {
        // The interrupt thread is removing what was being written and
        // exits with 128 + the signal itself: no other status, no error it
        // caused.
        loop {
            std::thread::park();
        }
    }
    match outcome {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            print::error(&with_hint(e.as_ref()));
            ExitCode::from(ERROR)
        }
    }
}

/// An error's message, with a hint when a lexicon file given is a word list
/// (`lexq -L words.txt ...`): build a lexicon from it first.
fn with_hint(e: &(dyn std::error::Error + 'static)) -> String {
    let message = e.to_string();
    let Some(lexq::Error::Lexicon { path, kind }) = e.downcast_ref::<lexq::Error>() else {
        return message;
    };
    if !matches!(
        kind,
        lexq::error::LexiconErrorKind::BadMagic
            | lexq::error::LexiconErrorKind::Truncated { expected: None, .. }
    ) || !looks_like_text(path)
    {
        return message;
    }
    format!(
        "{message}; it looks like a word list: make a lexicon of it with 'lexq build {} -o {}'",
        path.display(),
        lexicon_name(path).display()
    )
}

/// Where to build the lexicon of word list `list`: beside it, named
/// `NAME.lexq` (`words.txt` -> `words.lexq`), or `NAME.built.lexq` when
/// the list itself is named `NAME.lexq` (the build refuses to overwrite its
/// input).
fn lexicon_name(list: &std::path::Path) -> std::path::PathBuf {
    let name = list.with_extension("lexq");
    if name != list {
        return name;
    }
    let stem = list.file_stem().unwrap_or_default().to_string_lossy();
    list.with_file_name(format!("{stem}.built.lexq"))
}

/// Whether the file starts like text: its first 4 KiB UTF-8 (a character
/// cut at the end aside) with no NUL byte.
fn looks_like_text(path: &std::path::Path) -> bool {
    use std::io::Read;
    let mut head = Vec::with_capacity(4096);
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    if file.take(4096).read_to_end(&mut head).is_err() || head.contains(&0) {
        return false;
    }
    match std::str::from_utf8(&head) {
        Ok(_) => true,
        Err(e) => e.error_len().is_none() && e.valid_up_to() > 0,
    }
}

/// Runs the command: one arm a command, each in its module of `cmd`.
fn run(cli: Cli) -> Result<u8, Failure> {
    let lexicon = cli.lexicon.as_ref();
    match &cli.command {
        // Words.
        Command::Check(a) => cmd::check::run(lexicon, a),
        Command::Hooks(a) => cmd::hooks::run(lexicon, a),
        Command::Search(a) => cmd::search::run(lexicon, a),
        Command::Suggest(a) => cmd::suggest::run(lexicon, a),
        Command::Words(a) => cmd::words::run(lexicon, a),
        Command::Query(a) => cmd::query::run(lexicon, a),
        // Lexicon files.
        Command::Build(a) => cmd::build::run(a),
        Command::Info(a) => cmd::info::run(lexicon, a),
        Command::Verify => cmd::verify::run(lexicon),
        Command::Upgrade(a) => cmd::upgrade::run(a),
        Command::Diff(a) => cmd::diff::run(a),
        // Game.
        Command::Moves(a) => cmd::moves::run(lexicon, a),
        Command::Board(a) => cmd::board::run(lexicon, a),
        Command::Play(a) => cmd::play::run(lexicon, a),
        Command::Gcg(a) => cmd::gcg::run(lexicon, a),
        Command::Selfplay(a) => cmd::selfplay::run(lexicon, a),
        Command::Endgame(a) => cmd::endgame::run(lexicon, a),
        Command::Sim(a) => cmd::sim::run(lexicon, a),
        Command::Infer(a) => cmd::infer::run(lexicon, a),
        Command::Leaves(a) => cmd::leaves::run(lexicon, a),
        // Site.
        Command::Site { command } => cmd::site::run_site(lexicon, command),
        Command::Serve(a) => cmd::site::run_serve(lexicon, a),
    }
}
