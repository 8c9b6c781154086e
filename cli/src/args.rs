//! Command-line arguments of `lexq` (clap definitions only).

use std::path::PathBuf;

use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

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
    Check(CheckArgs),
    /// Front and back hooks: "FRONT WORD BACK" per word, "-" when none; "WORD*" if not itself a word.
    Hooks(HooksArgs),
    #[command(flatten)]
    Search(SearchCommand),
    /// Every word of the lexicon, one a line, in alphabet order: the word list it was built from.
    Words(WordsArgs),
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
    Query(QueryArgs),
    /// Build a lexicon file from word lists (one word a line; - for stdin).
    Build(BuildArgs),
    /// Facts about the lexicon: words, keys, bytes, alphabet, format version.
    Info(InfoArgs),
    /// Check everything in the lexicon file: checksums, the automaton's
    /// structure, and that the arc table holds exactly the fst's words.
    Verify,
    /// Rewrite a lexicon file of an older format version (1 to 3) as
    /// version 4, from its words; a version 4 file is checked and copied.
    ///
    /// OUT may be OLD itself: the new file replaces it atomically.
    Upgrade(UpgradeArgs),
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
    Suggest(SuggestArgs),
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
    Diff(DiffArgs),
}

/// Arguments of `lexq check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Words to check; - reads more from standard input, one a line.
    #[arg(required = true)]
    pub words: Vec<String>,
    /// Print one JSON array of {"word", "valid"} objects.
    #[arg(long)]
    pub json: bool,
    /// After an invalid word, the nearest words (edit distance 1 or 2, up to 5).
    #[arg(long)]
    pub suggest: bool,
}

/// Arguments of `lexq hooks`.
#[derive(Args, Debug)]
pub struct HooksArgs {
    /// Words (or any runs of letters) to hook; - reads more from standard input, one a line.
    #[arg(required = true)]
    pub words: Vec<String>,
    /// Print one JSON array of {"word", "front", "back", "valid"} objects.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `lexq info`.
#[derive(Args, Debug)]
pub struct InfoArgs {
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `lexq upgrade`.
#[derive(Args, Debug)]
pub struct UpgradeArgs {
    /// The lexicon file to read.
    #[arg(value_name = "OLD")]
    pub input: PathBuf,
    /// The version 4 file to write (replaced atomically).
    #[arg(long, short = 'o', value_name = "OUT")]
    pub output: PathBuf,
}

/// Arguments of `lexq suggest`.
#[derive(Args, Debug)]
pub struct SuggestArgs {
    /// The word (or any run of letters).
    pub word: String,
    /// The largest edit distance: the fewest insertions, deletions, changes of a tile and swaps
    /// of two neighbours, each 1 (Damerau-Levenshtein).
    #[arg(long, short = 'd', default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=3))]
    pub distance: u8,
    /// Print at most N words (at least 1).
    #[arg(long, visible_alias = "top", value_name = "N", default_value_t = 10, value_parser = limit)]
    pub limit: usize,
    /// Print only the number of words within the distance.
    #[arg(long, short = 'c')]
    pub count: bool,
    /// Print one JSON array of {"word", "distance", "probability"} objects.
    #[arg(long)]
    pub json: bool,
    /// Tile set for probability: english, super, friends, spanish, or a tile file.
    #[arg(long, value_name = "TILES")]
    pub tiles: Option<String>,
}

/// Arguments of `lexq diff`.
#[derive(Args, Debug)]
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

/// The word-list commands: each prints the words it finds, with the
/// options of [`WordOutput`]. `lexq query` reads them one a line.
#[derive(Subcommand, Debug, Clone)]
pub enum SearchCommand {
    /// Words containing SUB.
    Contains {
        /// The letters that must appear together.
        sub: String,
        #[command(flatten)]
        out: WordOutput,
    },
    /// Words starting with PREFIX.
    Starts {
        /// The first letters.
        prefix: String,
        #[command(flatten)]
        out: WordOutput,
    },
    /// Words ending with SUFFIX.
    Ends {
        /// The last letters.
        suffix: String,
        #[command(flatten)]
        out: WordOutput,
    },
    /// Words matching a pattern: ? one letter, * any run, [ABC], [^ABC], [A-E].
    Pattern {
        /// The pattern (quote it from the shell).
        pattern: String,
        #[command(flatten)]
        out: WordOutput,
    },
    /// Words matching a regular expression (whole word, case-insensitive).
    Regex {
        /// The regular expression (regex crate syntax).
        regex: String,
        #[command(flatten)]
        out: WordOutput,
    },
    /// Words using exactly the rack's tiles; ? or _ is a blank.
    Anagram {
        /// The rack.
        rack: String,
        /// Letters already on the board, to play through as one block.
        #[arg(long, short = 't', value_name = "LETTERS")]
        through: Option<String>,
        /// Show the letters blanks stand for in lowercase.
        #[arg(long, short = 'b')]
        blanks: bool,
        #[command(flatten)]
        out: WordOutput,
    },
    /// Words using some of the rack's tiles (at least 2, or 1 with --through).
    Subanagram {
        /// The rack.
        rack: String,
        /// Letters already on the board, to play through as one block.
        #[arg(long, short = 't', value_name = "LETTERS")]
        through: Option<String>,
        /// Show the letters blanks stand for in lowercase.
        #[arg(long, short = 'b')]
        blanks: bool,
        #[command(flatten)]
        out: WordOutput,
    },
    /// Words meeting every condition given (flags below; --not-NAME negates, --any for alternatives).
    ///
    /// Each condition is a flag (the list below, one example each); --not-
    /// before a name negates it (--not-includes U); a flag given twice is two
    /// conditions that must both hold; --any 'A --or B' holds when one of
    /// its alternatives does. The walk starts from the condition that should
    /// visit the fewest words (--explain prints the plan). The output options
    /// are those of every word list.
    ///
    /// Examples:
    ///   lexq find --len 7 --includes Q --not-includes U
    ///   lexq find --ends ING --len 7 --front-hook
    ///   lexq find --any '--starts RE --or --starts UN' --ends ING --len 8
    #[command(verbatim_doc_comment)]
    Find(crate::find::FindArgs),
    /// Words holding WORD with letters added in front, behind or both (the word itself left out).
    Extensions {
        /// The word (or any run of letters).
        word: String,
        /// At most N letters in front (default: any number).
        #[arg(long, value_name = "N")]
        front: Option<usize>,
        /// At most N letters behind (default: any number).
        #[arg(long, value_name = "N")]
        back: Option<usize>,
        #[command(flatten)]
        out: WordOutput,
    },
}

impl SearchCommand {
    /// The output options.
    pub fn output(&self) -> &WordOutput {
        match self {
            SearchCommand::Contains { out, .. }
            | SearchCommand::Starts { out, .. }
            | SearchCommand::Ends { out, .. }
            | SearchCommand::Pattern { out, .. }
            | SearchCommand::Regex { out, .. }
            | SearchCommand::Anagram { out, .. }
            | SearchCommand::Subanagram { out, .. } => out,
            SearchCommand::Find(args) => &args.out,
            SearchCommand::Extensions { out, .. } => out,
        }
    }

    /// Whether the letters blanks stand for are shown (`--blanks`).
    pub fn show_blanks(&self) -> bool {
        match self {
            SearchCommand::Anagram { blanks, .. } | SearchCommand::Subanagram { blanks, .. } => {
                *blanks
            }
            SearchCommand::Find(args) => args.blanks,
            _ => false,
        }
    }
}

/// A line of `lexq query`: one word command, without the program name.
#[derive(Parser, Debug)]
#[command(name = "lexq", no_binary_name = true, disable_version_flag = true)]
pub struct QueryLine {
    #[command(subcommand)]
    pub command: LineCommand,
}

/// The commands a line of `lexq query` takes: every word command but
/// `query` itself.
#[derive(Subcommand, Debug)]
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

/// Arguments of `lexq words`.
#[derive(Args, Debug)]
pub struct WordsArgs {
    #[command(flatten)]
    pub lens: Lengths,
}

/// Arguments of `lexq query`.
#[derive(Args, Debug)]
pub struct QueryArgs {
    /// The file of queries, one a line; - reads standard input.
    #[arg(value_name = "FILE")]
    pub input: PathBuf,
    /// Answer each line with {"index": LINE, "count": N} instead of its words.
    #[arg(long, short = 'c')]
    pub count: bool,
}

/// Word lengths to keep, in tiles. Each flag is a condition, a flag given
/// twice two conditions, and all must hold (`--len 5 --min-len 3` keeps
/// five-tile words; `--len 5 --len 6` keeps none, an error).
#[derive(Args, Debug, Clone, Default)]
pub struct Lengths {
    /// Only words of exactly N tiles.
    #[arg(long, value_name = "N")]
    pub len: Vec<usize>,
    /// Only words of at least N tiles.
    #[arg(long, value_name = "N")]
    pub min_len: Vec<usize>,
    /// Only words of at most N tiles.
    #[arg(long, value_name = "N")]
    pub max_len: Vec<usize>,
}

impl Lengths {
    /// Each length flag as typed (`--min-len 3`), with the shortest and
    /// longest lengths it keeps.
    pub fn typed(&self) -> Vec<(String, usize, usize)> {
        let mut all = Vec::new();
        for &n in &self.len {
            all.push((format!("--len {n}"), n, n));
        }
        for &n in &self.min_len {
            all.push((format!("--min-len {n}"), n, usize::MAX));
        }
        for &n in &self.max_len {
            all.push((format!("--max-len {n}"), 0, n));
        }
        all
    }

    /// The shortest and longest length kept; an error if the flags
    /// exclude each other.
    pub fn range(&self) -> Result<(usize, usize), String> {
        meet(&self.typed())
    }
}

/// The shortest and longest length that length conditions `typed` (each
/// as the user typed it, its shortest and longest length) all keep; an
/// error naming them, in the user's words, if they keep none.
pub fn meet(typed: &[(String, usize, usize)]) -> Result<(usize, usize), String> {
    let min = typed.iter().map(|t| t.1).max().unwrap_or(0);
    let max = typed.iter().map(|t| t.2).min().unwrap_or(usize::MAX);
    if min > max {
        let names: Vec<&str> = typed.iter().map(|t| t.0.as_str()).collect();
        return Err(format!(
            "{} exclude each other: no word has all these lengths",
            names.join(", ")
        ));
    }
    Ok((min, max))
}

/// Arguments of `lexq build`.
#[derive(Args, Debug)]
pub struct BuildArgs {
    /// Word list files.
    #[arg(required_unless_present = "from_kwg", value_name = "WORDLIST")]
    pub inputs: Vec<PathBuf>,
    /// Also read the words of a wolges .kwg file (its tiles numbered in
    /// --alphabet's order, as wolges numbers them).
    #[arg(long, value_name = "FILE")]
    pub from_kwg: Option<PathBuf>,
    /// The lexicon file to write (replaced atomically).
    #[arg(long, short = 'o', value_name = "OUT")]
    pub output: PathBuf,
    /// english, spanish, catalan, polish, german, french, dutch, norwegian,
    /// swedish, slovene, italian, portuguese, or an alphabet file.
    #[arg(long, default_value = "english")]
    pub alphabet: String,
    /// Leave out words shorter than N tiles.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub min_len: usize,
    /// Leave out words longer than N tiles.
    #[arg(long, value_name = "N", default_value_t = lexq::raw::gaddag::MAX_WORD_LEN)]
    pub max_len: usize,
    /// Fail on any line that is not a word of the alphabet.
    #[arg(long)]
    pub strict: bool,
    /// Print the summary even when stderr is not a terminal.
    #[arg(long, short = 'v')]
    pub verbose: bool,
}

/// How word lists are filtered and printed.
#[derive(Args, Debug, Clone)]
pub struct WordOutput {
    /// Order of the words.
    #[arg(long, value_enum, default_value_t = SortOrder::Alpha)]
    pub sort: SortOrder,
    #[command(flatten)]
    pub lens: Lengths,
    /// Print at most N words (at least 1; -c still counts every word found).
    #[arg(long, visible_alias = "top", value_name = "N", value_parser = limit)]
    pub limit: Option<usize>,
    /// Print only the number of words found.
    #[arg(long, short = 'c')]
    pub count: bool,
    /// Print one JSON array: of words, or with --table of objects with the table's fields.
    #[arg(long)]
    pub json: bool,
    /// Word table: front hooks, the word with inner-hook dots, back hooks, probability rank, points.
    #[arg(long)]
    pub table: bool,
    /// Tile set for probability and points: english, super, friends, spanish, or a tile file
    /// (default: the alphabet's standard set).
    #[arg(long, value_name = "TILES")]
    pub tiles: Option<String>,
}

/// Order of printed words.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortOrder {
    /// Alphabetical.
    Alpha,
    /// Longest first, then alphabetical.
    Length,
    /// Most probable first (probability rank within each length), ties in alphagram order.
    Probability,
    /// Most points first, then alphabetical.
    Points,
}

/// The value of `--limit` (also spelled `--top`), the most results a
/// command prints: a number, at least 1 (each command has its default or
/// its way to ask for everything).
pub fn limit(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(0) => Err("0 results: at least 1 is needed".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("not a number of results ({e})")),
    }
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

/// clap's message on one line: "error: WHAT\n  MORE\n\n  tip: TIP\n\n
/// Usage: ...\n\nFor more information, try '--help'." becomes "WHAT MORE;
/// tip: TIP".
pub fn clap_message(e: &clap::Error) -> String {
    let text = e.to_string();
    let mut out = String::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if line.starts_with("Usage:") || line.starts_with("For more information") {
            break;
        }
        let line = line.strip_prefix("error: ").unwrap_or(line);
        // clap's tips are lines of their own; a message of ours nested in
        // a line (an --any alternative's) keeps its own "; tip:" as it is.
        if !out.is_empty() {
            out.push_str(if line.starts_with("tip: ") { "; " } else { " " });
        }
        out.push_str(line);
    }
    if out.is_empty() {
        "invalid arguments".to_string()
    } else {
        out
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
