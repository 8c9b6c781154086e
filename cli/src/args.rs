//! Command-line arguments of `lexq` (clap definitions only).

use std::path::PathBuf;

use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{Args, Parser, Subcommand, ValueEnum};

/// Word searches over a compact GADDAG lexicon.
///
/// Without --lexicon (or LEXQ_LEXICON), queries use the built-in ENABLE word
/// list. Word lists print one word a line, uppercase, sorted. Exit status:
/// 0 if something was found, 1 if nothing was, 2 on error.
#[derive(Parser, Debug)]
#[command(name = "lexq", version, max_term_width = 100)]
pub struct Cli {
    /// Lexicon file to use instead of the built-in ENABLE.
    #[arg(
        long,
        short = 'L',
        global = true,
        env = "LEXQ_LEXICON",
        value_name = "PATH"
    )]
    pub lexicon: Option<PathBuf>,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Word judge: print "WORD valid" or "WORD invalid"; exit 0 only if all are valid.
    ///
    /// A word that cannot be read as letters of the alphabet is invalid, the
    /// reason after it; the other words are still checked.
    Check {
        /// Words to check; - reads more from standard input, one a line.
        #[arg(required = true)]
        words: Vec<String>,
        /// Print one JSON array of {"word", "valid"} objects.
        #[arg(long)]
        json: bool,
    },
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
    /// Front and back hooks: "FRONT WORD BACK" per word, "-" when none; "WORD*" if not itself a word.
    Hooks {
        /// Words (or any runs of letters) to hook.
        #[arg(required = true)]
        words: Vec<String>,
        /// Print one JSON array of {"word", "front", "back", "valid"} objects.
        #[arg(long)]
        json: bool,
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
    /// Build a lexicon file from word lists (one word a line; - for stdin).
    Build(BuildArgs),
    /// Facts about the lexicon: words, keys, bytes, alphabet, format version.
    Info {
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Check everything in the lexicon file: checksums, the automaton's
    /// structure, and that the arc table holds exactly the fst's words.
    Verify,
    /// Rewrite a lexicon file of an older format version (1 to 3) as
    /// version 4, from its words; a version 4 file is checked and copied.
    ///
    /// OUT may be OLD itself: the new file replaces it atomically.
    Upgrade {
        /// The lexicon file to read.
        #[arg(value_name = "OLD")]
        input: PathBuf,
        /// The version 4 file to write (replaced atomically).
        #[arg(long, short = 'o', value_name = "OUT")]
        output: PathBuf,
    },
    /// Every legal move in a position (CGP), scored: the best 20 by default.
    Moves(crate::game::MovesArgs),
    /// Draw a position (CGP): premium squares, tiles, racks, scores.
    Board(crate::game::BoardArgs),
    /// The position (CGP) after a move, or why the move is illegal.
    Play(crate::game::PlayArgs),
    /// Greedy self-play games, every position as a CGP line.
    Selfplay(crate::game::SelfplayArgs),
    /// Dictionary sites: build a word index with definitions, search it, export it.
    Site {
        #[command(subcommand)]
        command: crate::site::SiteCommand,
    },
    /// Serve a JSON API and a search page over the lexicon (and a site index).
    Serve(crate::site::ServeArgs),
    /// A GCG game file: the position at any turn (CGP), or --check it.
    Gcg(crate::gcg::GcgArgs),
}

/// Arguments of `lexq build`.
#[derive(Args, Debug)]
pub struct BuildArgs {
    /// Word list files.
    #[arg(required = true, value_name = "WORDLIST")]
    pub inputs: Vec<PathBuf>,
    /// The lexicon file to write (replaced atomically).
    #[arg(long, short = 'o', value_name = "OUT")]
    pub output: PathBuf,
    /// english, spanish, catalan, or an alphabet file.
    #[arg(long, default_value = "english")]
    pub alphabet: String,
    /// Leave out words shorter than N tiles.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub min_len: usize,
    /// Leave out words longer than N tiles.
    #[arg(long, value_name = "N", default_value_t = lexq::gaddag::MAX_WORD_LEN)]
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
    /// Only words of exactly N tiles.
    #[arg(long, value_name = "N", conflicts_with_all = ["min_len", "max_len"])]
    pub len: Option<usize>,
    /// Only words of at least N tiles.
    #[arg(long, value_name = "N")]
    pub min_len: Option<usize>,
    /// Only words of at most N tiles.
    #[arg(long, value_name = "N")]
    pub max_len: Option<usize>,
    /// Print at most N words.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Print only the number of words.
    #[arg(long, short = 'c')]
    pub count: bool,
    /// Print one JSON array of words.
    #[arg(long)]
    pub json: bool,
}

/// Order of printed words.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortOrder {
    /// Alphabetical.
    Alpha,
    /// Longest first, then alphabetical.
    Length,
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
        _ => {
            let text = e.to_string();
            // clap's message is "error: WHAT\n  MORE\n\n  tip: TIP\n\n
            // Usage: ...\n\nFor more information, try '--help'.": keep
            // WHAT, MORE and TIP on one line.
            let mut parts = Vec::new();
            for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
                if line.starts_with("Usage:") || line.starts_with("For more information") {
                    break;
                }
                parts.push(line.strip_prefix("error: ").unwrap_or(line));
            }
            let what = match parts.join(" ").replace(" tip: ", "; tip: ") {
                p if p.is_empty() => "invalid arguments".to_string(),
                p => p,
            };
            crate::print::error(&format!("{what} (try 'lexq --help')"));
            ExitCode::from(2)
        }
    }
}
