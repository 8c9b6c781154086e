//! The command line of `lexq`: the commands, each with the arguments its
//! module of `cmd` defines, `--help`'s groups, and parse errors.

use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser, Subcommand};

use crate::flags::clap_message;
use crate::lexicon::Choice;

/// Word searches over a compact GADDAG lexicon.
///
/// Without --lexicon (or LEXQ_LEXICON), or with `-L enable`, queries use the
/// built-in ENABLE word list. Word lists print one word a line, uppercase, sorted. Exit status:
/// 0 if something was found, 1 if nothing was, 2 on error.
#[derive(Parser, Debug)]
#[command(name = "lexq", version, max_term_width = 100)]
pub struct Cli {
    /// Lexicon file to use instead of the built-in ENABLE ('enable', 'enable1', 'enable2k' or
    /// 'enable1.txt', any case, name the built-in one unless a file of that name exists); without
    /// it, the environment's LEXQ_LEXICON (empty: unset).
    #[arg(
        long,
        short = 'L',
        global = true,
        value_name = "PATH",
        value_parser = Choice::parse
    )]
    pub lexicon: Option<Choice>,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Word judge: print "WORD valid" or "WORD invalid"; exit 0 only if all are valid.
    ///
    /// A word that cannot be read as letters of the alphabet is invalid, the
    /// reason after it; the other words are still checked.
    Check(crate::cmd::check::CheckArgs),
    /// Front and back hooks: "FRONT WORD BACK" per word, "-" when none; "WORD*" if not itself a word.
    Hooks(crate::cmd::hooks::HooksArgs),
    #[command(flatten)]
    Search(crate::cmd::search::SearchCommand),
    /// Every word of the lexicon, one a line, in alphabet order: the word list it was built from.
    Words(crate::cmd::words::WordsArgs),
    /// Word queries read from a file or standard input (-), one a line, answered in JSON lines.
    ///
    /// Each line is a word command as on the command line (a word list,
    /// find, extensions, check, hooks, suggest, words), shell-style quoting
    /// included (`contains AX --len 5`, `pattern 'c?t'`), answered by one
    /// line {"index": LINE, "words": [...]} (LINE is 1-based; blank and #
    /// lines count but get no answer; check, hooks and suggest give the
    /// objects of their --json). With FILE -, a line may not read standard
    /// input too (`find --in -`, `check -`). A bad line is answered
    /// {"index": LINE, "error": "..."} and reported on stderr, and the
    /// exit status is then 2 at the end; otherwise 0 if some line found a
    /// word, else 1.
    Query(crate::cmd::query::QueryArgs),
    /// Build a lexicon file from word lists (one word a line; - for stdin).
    Build(crate::cmd::build::BuildArgs),
    /// Facts about the lexicon: words, keys, bytes, alphabet, format version.
    Info(crate::cmd::info::InfoArgs),
    /// Check everything in the lexicon file: checksums, the automaton's
    /// structure, and that the arc table holds exactly the fst's words.
    Verify,
    /// Rewrite a lexicon file of an older format version (1 to 3) as
    /// version 4, from its words; a version 4 file is checked and copied.
    ///
    /// OUT may be OLD itself: the new file replaces it atomically.
    Upgrade(crate::cmd::upgrade::UpgradeArgs),
    /// Every legal move in a position (CGP), scored: the best 20 by default.
    Moves(crate::cmd::moves::MovesArgs),
    /// Draw a position (CGP): premium squares, tiles, racks, scores.
    Board(crate::cmd::board::BoardArgs),
    /// The position (CGP) after a move, or why the move is illegal.
    Play(crate::cmd::play::PlayArgs),
    /// Greedy self-play games, every position as a CGP line; with --leaves, an equity bot against greedy.
    Selfplay(crate::cmd::selfplay::SelfplayArgs),
    /// Solve an endgame (CGP, bag empty): the final spread and best line with best play by both.
    Endgame(crate::cmd::endgame::EndgameArgs),
    /// Simulate the best moves of a position (CGP) over random draws: win chance and spread.
    Sim(crate::cmd::sim::SimArgs),
    /// The tiles the opponent may have kept, given its play (CGP before it): leaves by weight.
    Infer(crate::cmd::infer::InferArgs),
    /// Estimate a leave table from self-play games and write it as CSV (LEAVE,VALUE lines).
    Leaves(crate::cmd::leaves::LeavesArgs),
    /// Dictionary sites: build a word index with definitions, search it, export it.
    Site {
        #[command(subcommand)]
        command: crate::cmd::site::SiteCommand,
    },
    /// Serve a JSON API and a search page over the lexicon (and a site index).
    Serve(crate::cmd::site::ServeArgs),
    /// A GCG game file: the position at any turn (CGP), or --check it.
    Gcg(crate::cmd::gcg::GcgArgs),
    /// Did you mean: the words nearest WORD by edit distance, nearest first, then most probable.
    Suggest(crate::cmd::suggest::SuggestArgs),
    /// The words added and removed between two lexicon files: "+WORD" and "-WORD" lines.
    ///
    /// Both lexicons are read in alphabet order at once, never held in
    /// memory. Lexicons of different alphabets are an error (their words
    /// are different tiles).
    ///
    /// Exit status: 0 if they differ (in the words asked for, with --added
    /// or --removed), 1 if they hold the same words, 2 on error. As for
    /// every lexq command, and grep, 0 means something was found and
    /// printed; this is the reverse of diff(1) and cmp(1), where 0 means
    /// the same. `lexq diff -c OLD NEW >/dev/null || echo same`.
    Diff(crate::cmd::diff::DiffArgs),
}
/// The commands as `lexq --help` lists them, in groups.
const GROUPS: &[(&str, &[&str])] = &[
    (
        "Words",
        &[
            "check",
            "hooks",
            "contains",
            "starts",
            "ends",
            "pattern",
            "regex",
            "anagram",
            "subanagram",
            "find",
            "extensions",
            "suggest",
            "words",
            "query",
        ],
    ),
    (
        "Lexicon files",
        &["build", "info", "verify", "upgrade", "diff"],
    ),
    (
        "Game",
        &[
            "moves", "board", "play", "gcg", "selfplay", "leaves", "endgame", "sim", "infer",
        ],
    ),
    ("Site", &["site", "serve"]),
];

/// The command line's definition: [`Cli`]'s, with `lexq --help` listing
/// the commands in [`GROUPS`] (clap lists subcommands under one heading).
pub fn command() -> clap::Command {
    let cmd = Cli::command();
    let (header, literal) = (
        cmd.get_styles().get_header(),
        cmd.get_styles().get_literal(),
    );
    let width = GROUPS
        .iter()
        .flat_map(|(_, names)| names.iter())
        .map(|n| n.len())
        .max()
        .unwrap_or(0);
    let mut groups = String::new();
    for (heading, names) in GROUPS {
        groups.push_str(&format!("{header}{heading}:{header:#}\n"));
        for name in *names {
            let about = cmd
                .find_subcommand(name)
                .and_then(|c| c.get_about())
                .map(|a| a.to_string())
                .unwrap_or_default();
            // Braces would read as template tags.
            let about = about.replace('{', "(").replace('}', ")");
            let pad = " ".repeat(width - name.len());
            groups.push_str(&format!("  {literal}{name}{literal:#}{pad}  {about}\n"));
        }
        groups.push('\n');
    }
    let template = format!(
        "{{before-help}}{{about-with-newline}}\n{{usage-heading}} {{usage}}\n\n{groups}\
         {header}Options:{header:#}\n{{options}}{{after-help}}"
    );
    cmd.help_template(template)
}

/// Reads the command line (clap's errors for [`parse_error`]).
pub fn parse() -> Result<Cli, clap::Error> {
    use clap::FromArgMatches;
    let matches = command().try_get_matches()?;
    let mut cli = Cli::from_arg_matches(&matches)?;
    if cli.lexicon.is_none() {
        // Read here rather than by clap, which takes an empty
        // LEXQ_LEXICON= as an empty path.
        cli.lexicon = lexicon_from_env(std::env::var_os("LEXQ_LEXICON"))?;
    }
    Ok(cli)
}

/// The lexicon `LEXQ_LEXICON` names: none if unset or empty.
fn lexicon_from_env(value: Option<std::ffi::OsString>) -> Result<Option<Choice>, clap::Error> {
    let Some(value) = value.filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    let Some(text) = value.to_str() else {
        return Err(clap::Error::raw(
            ErrorKind::InvalidUtf8,
            "LEXQ_LEXICON is not UTF-8\n",
        ));
    };
    Choice::parse(text)
        .map(Some)
        .map_err(|why| clap::Error::raw(ErrorKind::InvalidValue, format!("LEXQ_LEXICON: {why}\n")))
}

/// Prints a command-line parsing error as one `lexq: ...` line and returns
/// exit status 2; `--help` and `--version` print as usual and exit 0.
pub fn parse_error(e: clap::Error) -> ExitCode {
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = e.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand | ErrorKind::MissingSubcommand => {
            crate::print::error("no command given (try 'lexq --help')");
            ExitCode::from(2)
        }
        ErrorKind::InvalidUtf8 => {
            crate::print::error(&format!(
                "{} (try 'lexq --help')",
                not_utf8(std::env::args_os().skip(1))
            ));
            ExitCode::from(2)
        }
        _ => {
            crate::print::error(&format!("{} (try 'lexq --help')", clap_message(&e)));
            ExitCode::from(2)
        }
    }
}

/// Names the arguments that are not UTF-8 (1-based, after the program's
/// name), their bytes shown with escapes: `argument 2 ("ab\xFF") is not
/// valid UTF-8`.
pub fn not_utf8(args: impl Iterator<Item = std::ffi::OsString>) -> String {
    let bad: Vec<String> = args
        .enumerate()
        .filter(|(_, a)| a.to_str().is_none())
        .map(|(i, a)| {
            let shown = a.as_encoded_bytes().escape_ascii().to_string();
            format!("{} (\"{shown}\")", i + 1)
        })
        .collect();
    match bad.len() {
        0 => "an argument is not valid UTF-8".to_string(),
        1 => format!("argument {} is not valid UTF-8", bad[0]),
        _ => format!("arguments {} are not valid UTF-8", bad.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_is_in_one_help_group() {
        let cmd = command();
        let mut listed: Vec<&str> = GROUPS.iter().flat_map(|(_, n)| n.iter().copied()).collect();
        listed.sort_unstable();
        let mut all: Vec<&str> = cmd
            .get_subcommands()
            .filter(|c| !c.is_hide_set())
            .map(|c| c.get_name())
            .collect();
        all.sort_unstable();
        assert_eq!(listed, all);
    }
}
