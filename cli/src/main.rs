//! `lexq`: the command line over the lexq library. Parsing lives in
//! `args`, printing in `print`, the build progress bar in `progress`; this
//! file only connects them.

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
mod batch;
mod find;
mod game;
mod gcg;
mod interrupt;
mod print;
mod progress;
mod search;
mod site;
mod suggest;

use std::io::{self, IsTerminal};
use std::ops::ControlFlow;
use std::process::ExitCode;

use clap::Parser;
use lexq::Lexicon;

use args::{BuildArgs, Cli, Command};
use print::Printer;

/// Exit status: something found.
const FOUND: u8 = 0;
/// Exit status: nothing found.
const NOT_FOUND: u8 = 1;
/// Exit status: an error.
const ERROR: u8 = 2;

fn main() -> ExitCode {
    if std::env::var_os("LEXQ_LEXICON").is_some_and(|v| v.is_empty()) {
        // SAFETY: no other thread exists yet. An empty LEXQ_LEXICON= means
        // unset (clap would read it as an empty path).
        unsafe { std::env::remove_var("LEXQ_LEXICON") };
    }
    let cli = match Cli::try_parse() {
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
        lexq::LexiconErrorKind::BadMagic | lexq::LexiconErrorKind::Truncated { expected: None, .. }
    ) || !looks_like_text(path)
    {
        return message;
    }
    format!(
        "{message}; it looks like a word list: make a lexicon of it with 'lexq build {} -o {}'",
        path.display(),
        path.with_extension("lexq").display()
    )
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

/// An error for the user: a library error or a failed write to stdout.
type Failure = Box<dyn std::error::Error>;

/// The lexicon asked for: a file or the embedded ENABLE. Files are opened
/// with their checksums checked, not their structure (that costs far more
/// than a query: `lexq verify` runs it); no file can make a query panic.
fn open(cli: &Cli) -> Result<Lexicon, Failure> {
    match &cli.lexicon {
        Some(path) => {
            let lex = Lexicon::open(path)?;
            if let Some(old) = lex.upgraded_from() {
                // Read, but built anew at every run: say how to stop that.
                eprintln!(
                    "lexq: note: {} is a format version {old} file, rebuilt in memory at each use; \
                     `lexq upgrade {0} -o {0}` rewrites it",
                    path.display()
                );
            }
            Ok(lex)
        }
        None => Ok(Lexicon::embedded()),
    }
}

fn run(cli: Cli) -> Result<u8, Failure> {
    if let Command::Build(args) = &cli.command {
        return build(args);
    }
    if let Command::Upgrade { input, output } = &cli.command {
        return upgrade(input, output);
    }
    if let Some(code) = game_command(&cli)? {
        return Ok(code);
    }
    if let Command::Site { command } = &cli.command {
        return site::run_site(&cli.lexicon, command);
    }
    if let Command::Serve(args) = &cli.command {
        return site::run_serve(&cli.lexicon, args);
    }
    if let Command::Diff(args) = &cli.command {
        return suggest::run_diff(args);
    }
    let lex = open(&cli)?;
    let mut out = Printer::stdout();
    let code = match &cli.command {
        Command::Check {
            words,
            json,
            suggest,
        } => {
            let words = with_stdin_words(words)?;
            // Each word is judged on its own: one that cannot be read as
            // tiles is invalid, with the reason, and the batch goes on.
            let results: Vec<_> = words
                .iter()
                .map(|w| (w.as_str(), lex.is_word(w).map_err(|e| e.to_string())))
                .collect();
            let near = match suggest {
                true => Some(
                    results
                        .iter()
                        .map(|(w, r)| match r {
                            Ok(false) => suggest::ranked(&lex, w, 2, None)
                                .map(|n| n.into_iter().take(5).map(|n| n.word).collect::<Vec<_>>()),
                            _ => Ok(Vec::new()),
                        })
                        .collect::<Result<Vec<_>, _>>()?,
                ),
                false => None,
            };
            out.checks(lex.alphabet(), &results, *json, near.as_deref())?;
            status(results.iter().all(|r| r.1 == Ok(true)))
        }
        Command::Hooks { words, json } => {
            let hooks = words
                .iter()
                .map(|w| lex.hooks(w))
                .collect::<Result<Vec<_>, _>>()?;
            out.hooks(&hooks, *json)?;
            status(
                hooks
                    .iter()
                    .any(|h| !h.front.is_empty() || !h.back.is_empty()),
            )
        }
        Command::Search(args::SearchCommand::Find(args)) if args.explain => {
            out.raw(lex.prepare_find(&args.query(&lex)?)?.explain().as_bytes())?;
            FOUND
        }
        Command::Search(cmd) => {
            let found = search::find(&lex, cmd)?;
            let o = cmd.output();
            let listing = search::Study::default().arrange(&lex, &found, o, cmd.show_blanks())?;
            out.listing(&listing, o)?;
            status(listing.found > 0)
        }
        Command::Words(args) => all_words(&lex, &mut out, args)?,
        Command::Suggest(args) => suggest::suggest(&lex, &mut out, args)?,
        Command::Diff(_) => unreachable!("handled above"),
        Command::Query(args) => batch::run(&lex, &mut out, args)?,
        Command::Info { json } => {
            out.info(&lex.info(), *json)?;
            FOUND
        }
        Command::Verify => {
            lex.verify()?;
            out.line(&format!(
                "{}: ok ({} words, {} bytes)",
                lex.source().display(),
                lex.word_count(),
                lex.info().bytes
            ))?;
            FOUND
        }
        Command::Build(_) | Command::Upgrade { .. } | Command::Site { .. } | Command::Serve(_) => {
            unreachable!("handled above")
        }
        Command::Moves(_)
        | Command::Board(_)
        | Command::Play(_)
        | Command::Selfplay(_)
        | Command::Leaves(_)
        | Command::Gcg(_) => {
            unreachable!("handled above")
        }
    };
    out.flush()?;
    Ok(code)
}

/// The words to check, with each `-` replaced by the lines of standard
/// input (one word a line; blank lines skipped).
fn with_stdin_words(words: &[String]) -> Result<Vec<String>, Failure> {
    let mut all = Vec::with_capacity(words.len());
    for w in words {
        if w != "-" {
            all.push(w.clone());
            continue;
        }
        // As much as a word list may hold: an endless input is an error.
        let stdin = io::stdin().lock();
        let bytes = lexq::files::read_capped(
            stdin,
            "<stdin>".as_ref(),
            lexq::files::MAX_INPUT_BYTES,
            "a word list",
        )?;
        for line in bytes.split(|&b| b == b'\n') {
            let text = String::from_utf8_lossy(line);
            let text = text.trim();
            if !text.is_empty() {
                all.push(text.to_string());
            }
        }
    }
    Ok(all)
}

fn status(found: bool) -> u8 {
    if found { FOUND } else { NOT_FOUND }
}

/// `lexq words`: every word of the lexicon in the lengths asked, streamed
/// until the reader of stdout goes away.
fn all_words(lex: &Lexicon, out: &mut Printer, args: &args::WordsArgs) -> Result<u8, Failure> {
    let (min, max) = args.lens.range()?;
    let mut failed = None;
    let mut any = false;
    let mut text = String::with_capacity(64);
    lex.for_each_word(min, max, |codes| {
        any = true;
        text.clear();
        lex.alphabet().decode_into(codes, &mut text);
        text.push('\n');
        if let Err(e) = out.raw(text.as_bytes()) {
            failed = Some(e);
            return ControlFlow::Break(());
        }
        if print::closed() {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    if let Some(e) = failed {
        return Err(e.into());
    }
    Ok(status(any))
}

fn build(args: &BuildArgs) -> Result<u8, Failure> {
    interrupt::on_interrupt(lexq::files::remove_temp_files);
    let alphabet = lexq::Alphabet::named(&args.alphabet)?;
    lexq::files::check_output(&args.output, &args.inputs)?;
    let mut list = lexq::WordList::new(alphabet)
        .min_len(args.min_len)
        .max_len(args.max_len)
        .strict(args.strict);
    let terminal = io::stderr().is_terminal();
    let mut bar = progress::Bar::new(terminal);
    for input in &args.inputs {
        bar.reading(input);
        list.read_path(input)?;
    }
    if list.is_empty() {
        // Say why before failing: the rejected lines' reasons, and whether
        // the length limits left everything out.
        bar.finish();
        print::rejected(&list);
        if list.filtered() > 0 {
            return Err(format!(
                "no words left: --min-len {} / --max-len {} left out all {} words read",
                args.min_len,
                args.max_len,
                list.filtered()
            )
            .into());
        }
    }
    let built = lexq::build(&list, &mut bar)?;
    built.write_atomic(&args.output)?;
    bar.finish();
    print::rejected(&list);
    if terminal || args.verbose {
        print::build_summary(&args.output, &list, &built);
    }
    Ok(FOUND)
}

/// `lexq upgrade OLD -o OUT`: the version 4 file of OLD's words.
fn upgrade(input: &std::path::Path, output: &std::path::Path) -> Result<u8, Failure> {
    interrupt::on_interrupt(lexq::files::remove_temp_files);
    let terminal = io::stderr().is_terminal();
    let mut bar = progress::Bar::new(terminal);
    let (built, old) = lexq::upgrade(input, &mut bar)?;
    built.write_atomic(output)?;
    bar.finish();
    let mut out = Printer::stdout();
    out.line(&format!(
        "{}: version {old} -> {}: version {}, {} words, {} bytes",
        input.display(),
        output.display(),
        lexq::raw::format::VERSION,
        built.words,
        built.bytes.len()
    ))?;
    out.flush()?;
    Ok(FOUND)
}

/// The board-game commands (`game.rs`), which pick their own lexicon.
fn game_command(cli: &Cli) -> Result<Option<u8>, Failure> {
    let lex = cli.lexicon.as_deref();
    Ok(Some(match &cli.command {
        Command::Moves(a) => game::moves(lex, a)?,
        Command::Board(a) => game::board(lex, a)?,
        Command::Play(a) => game::play(lex, a)?,
        Command::Selfplay(a) => game::selfplay(lex, a)?,
        Command::Leaves(a) => game::leaves(lex, a)?,
        Command::Gcg(a) => gcg::gcg(lex, a)?,
        _ => return Ok(None),
    }))
}
