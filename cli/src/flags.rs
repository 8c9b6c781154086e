//! Flags that several commands share: how word lists are filtered and
//! printed ([`WordOutput`], [`Lengths`], [`SortOrder`]), `--limit`'s value,
//! and clap's errors on one line. A leaf: it imports nothing of the crate.

/// Word lengths to keep, in tiles. Each flag is a condition, a flag given
/// twice two conditions, and all must hold (`--len 5 --min-len 3` keeps
/// five-tile words; `--len 5 --len 6` keeps none, an error).
#[derive(clap::Args, Debug, Clone, Default)]
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

/// How word lists are filtered and printed.
#[derive(clap::Args, Debug, Clone)]
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
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
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
