//! The word-list commands: run the search, then order, cap and describe
//! the words found (probability rank, points, hooks) for printing.

use std::collections::BTreeSet;

use lexq::probability::{Bag, Ranks};
use lexq::{Lexicon, Search, TileSet, Word, Words};
use serde::Serialize;

use crate::args::{SearchCommand, SortOrder, WordOutput};
use crate::cmd::status;
use crate::lexicon::Choice;
use crate::print::Printer;
use crate::{FOUND, Failure};

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

/// One word of a word table, as printed and as JSON (keys in this order).
#[derive(Serialize, Debug)]
pub struct Row {
    /// The word (letters played with blanks in lowercase with `--blanks`).
    pub word: String,
    /// Letters that make a word in front of it, in alphabet order.
    pub front: String,
    /// Letters that make a word after it.
    pub back: String,
    /// Whether the word without its first tile is a word (Zyzzyva's dot
    /// before the word).
    pub inner_front: bool,
    /// Whether the word without its last tile is a word (the dot after).
    pub inner_back: bool,
    /// Probability rank among the lexicon's words of its length.
    pub rank: u32,
    /// Draws of the full bag that spell it.
    pub combinations: u128,
    /// Its chance from a full bag.
    pub probability: f64,
    /// Its point value.
    pub points: i32,
}

/// The words to print: all found, in the order asked, capped.
pub struct Listing<'w> {
    /// How many words the search found (before `--limit`).
    pub found: usize,
    /// The words to print, in order (the search's own list, cut to
    /// `--limit`: a copy of every word's handle was 32 bytes a word of
    /// fresh memory).
    pub words: &'w Words<'w>,
    /// Their table rows, with `--table`.
    pub rows: Option<Vec<Row>>,
    /// Whether words show the letters blanks stand for (`--blanks`).
    pub blanks: bool,
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
