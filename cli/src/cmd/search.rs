//! The word-list commands: run the search, then order, cap and describe
//! the words found (probability rank, points, hooks) for printing.

use std::collections::BTreeSet;

use lexq::probability::{Bag, Ranks};
use lexq::{Lexicon, Search, TileSet, Word, Words};

use crate::exit::status;
use crate::exit::{FOUND, Failure};
use crate::flags::{SortOrder, WordOutput};
use crate::lexicon::Choice;
use crate::print::{Listing, Printer, Row};

/// The word-list commands: each prints the words it finds, with the
/// options of [`WordOutput`]. `lexq query` reads them one a line.
#[derive(clap::Subcommand, Debug, Clone)]
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

/// A word-list command (`contains`, `anagram`, `find`...): the words
/// found, arranged and printed as its output options say; exit 0 if some
/// word was found. `find --explain` prints the plan instead.
pub fn run(lexicon: Option<&Choice>, cmd: &SearchCommand) -> Result<u8, Failure> {
    let lex = crate::lexicon::open(lexicon)?;
    let mut out = Printer::stdout();
    if let SearchCommand::Find(args) = cmd
        && args.explain
    {
        out.raw(lex.prepare_find(&args.query(&lex)?)?.explain().as_bytes())?;
        out.flush()?;
        return Ok(FOUND);
    }
    let mut found = find(&lex, cmd)?;
    let o = cmd.output();
    let listing = Study::default().arrange(&lex, &mut found, o, cmd.show_blanks())?;
    out.listing(&listing, o)?;
    out.flush()?;
    Ok(status(listing.found > 0))
}

/// Runs the search a word-list command asks for.
pub fn find<'l>(lex: &'l Lexicon, cmd: &'l SearchCommand) -> Result<Words<'l>, Failure> {
    let (min, max) = cmd.output().lens.range()?;
    let s = lex.search().lengths(min, max);
    Ok(match cmd {
        SearchCommand::Contains { sub, .. } => s.contains(sub)?,
        SearchCommand::Starts { prefix, .. } => s.starts(prefix)?,
        SearchCommand::Ends { suffix, .. } => s.ends(suffix)?,
        SearchCommand::Pattern { pattern, .. } => s.pattern(pattern)?,
        SearchCommand::Regex { regex, .. } => s.regex(regex)?,
        SearchCommand::Anagram { rack, through, .. } => through_search(s, through).anagram(rack)?,
        SearchCommand::Subanagram { rack, through, .. } => {
            through_search(s, through).subanagram(rack)?
        }
        SearchCommand::Find(args) => {
            let prepared = lex.prepare_find(&args.query(lex)?)?;
            prepared.skipped().for_each(crate::print::skipped);
            prepared.run()
        }
        SearchCommand::Extensions {
            word, front, back, ..
        } => s.extensions(word, *front, *back)?,
    })
}

/// The search played through the board letters `through`, if given.
fn through_search<'l>(s: Search<'l>, through: &'l Option<String>) -> Search<'l> {
    match through {
        Some(t) => s.through(t),
        None => s,
    }
}

/// What probability order and points are counted with, kept from one
/// query to the next (`lexq query` ranks each length once).
#[derive(Default)]
pub struct Study {
    /// The tile set's name as given, its bag and the ranks counted so far.
    ranks: Option<(Option<String>, Ranks)>,
}

impl Study {
    /// The bag of `--tiles` (or the alphabet's standard set) and ranks
    /// for at least the lengths `lens`.
    fn ranks(
        &mut self,
        lex: &Lexicon,
        tiles: Option<&str>,
        lens: &BTreeSet<usize>,
    ) -> Result<&Ranks, Failure> {
        let same_tiles = matches!(&self.ranks, Some((t, _)) if t.as_deref() == tiles);
        let mut want: BTreeSet<usize> = lens.clone();
        let bag = match (&self.ranks, same_tiles) {
            (Some((_, r)), true) => {
                let have: BTreeSet<usize> = r.lengths().collect();
                if want.is_subset(&have) {
                    return Ok(&self.ranks.as_ref().expect("checked").1);
                }
                want.extend(have);
                r.bag().clone()
            }
            _ => Bag::new(&tile_set(lex, tiles)?),
        };
        let ranks = Ranks::new(lex, &bag, want.iter().copied())?;
        self.ranks = Some((tiles.map(String::from), ranks));
        Ok(&self.ranks.as_ref().expect("just set").1)
    }

    /// Orders, caps and (with `--table`) describes the words found.
    pub fn arrange<'w>(
        &mut self,
        lex: &Lexicon,
        found: &'w mut Words<'_>,
        o: &WordOutput,
        blanks: bool,
    ) -> Result<Listing<'w>, Failure> {
        let total = found.len();
        let needs_ranks = !o.count && (o.table || o.sort == SortOrder::Probability);
        let ranks = if needs_ranks {
            let lens: BTreeSet<usize> = found.iter().map(|w| w.len()).collect();
            Some(self.ranks(lex, o.tiles.as_deref(), &lens)?)
        } else {
            None
        };
        let bag = match (ranks, o.sort == SortOrder::Points && !o.count) {
            (Some(r), _) => Some(r.bag().clone()),
            (None, true) => Some(Bag::new(&tile_set(lex, o.tiles.as_deref())?)),
            (None, false) => None,
        };
        if !o.count {
            match o.sort {
                SortOrder::Alpha => {}
                SortOrder::Length => found.sort_by_length(),
                SortOrder::Points => found.sort_by_points(bag.as_ref().expect("a bag for points")),
                SortOrder::Probability => {
                    found.sort_by_probability(ranks.expect("ranks for probability"))
                }
            }
        }
        if let Some(n) = o.limit {
            found.truncate(n);
        }
        let words: &'w Words<'_> = found;
        let rows = match (o.table && !o.count, ranks) {
            (true, Some(ranks)) => Some(
                words
                    .iter()
                    .map(|w| row(lex, ranks, &w, blanks))
                    .collect::<Result<Vec<_>, Failure>>()?,
            ),
            _ => None,
        };
        Ok(Listing {
            found: total,
            words,
            rows,
            blanks,
        })
    }
}

/// The tile set of `--tiles`, or the standard set of the lexicon's
/// alphabet.
fn tile_set(lex: &Lexicon, tiles: Option<&str>) -> Result<TileSet, Failure> {
    match tiles {
        Some(name) => Ok(TileSet::named(name, lex.alphabet())?),
        None => TileSet::default_for(lex.alphabet(), 15).map_err(|_| {
            format!(
                "no standard tile set for the {} alphabet: give one with --tiles FILE (probability and points need it)",
                lex.alphabet().name()
            )
            .into()
        }),
    }
}

/// Whether the tiles `codes` are a word.
fn is_word(lex: &Lexicon, codes: &[u8]) -> bool {
    lex.arcs().root().is_word(codes)
}

/// A word's table row.
fn row(lex: &Lexicon, ranks: &Ranks, w: &Word<'_>, blanks: bool) -> Result<Row, Failure> {
    let codes = w.codes();
    let spelled = w.spelling();
    let hooks = lex.hooks(&spelled)?;
    let bag = ranks.bag();
    let overflow = || lexq::probability::Overflow {
        len: codes.len(),
        tiles: bag.total(),
    };
    // Counted once: the rank and the chance follow from it.
    let ways = bag.combinations(codes).ok_or_else(overflow)?;
    Ok(Row {
        word: if blanks { w.marked() } else { spelled },
        front: hooks.front_letters(),
        back: hooks.back_letters(),
        inner_front: is_word(lex, &codes[1..]),
        inner_back: is_word(lex, &codes[..codes.len() - 1]),
        rank: ranks.rank_of(codes.len(), ways).ok_or_else(overflow)?,
        combinations: ways,
        probability: bag.chance(codes.len(), ways),
        points: bag.points(codes),
    })
}
