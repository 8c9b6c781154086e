//! `lexq suggest` (and `lexq check --suggest`): the nearest words, ranked.

use lexq::Lexicon;
use lexq::probability::Bag;
use serde::Serialize;

use crate::exit::{FOUND, Failure, NOT_FOUND};
use crate::lexicon::Choice;
use crate::print::Printer;

/// Arguments of `lexq suggest`.
#[derive(clap::Args, Debug)]
pub struct SuggestArgs {
    /// The word (or any run of letters).
    pub word: String,
    /// The largest edit distance: the fewest insertions, deletions, changes of a tile and swaps
    /// of two neighbours, each 1 (Damerau-Levenshtein).
    #[arg(long, short = 'd', default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=3))]
    pub distance: u8,
    /// Print at most N words (at least 1).
    #[arg(long, visible_alias = "top", value_name = "N", default_value_t = 10, value_parser = crate::flags::limit)]
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

/// A word near the query, as printed in JSON.
#[derive(Serialize, Debug)]
pub struct Near {
    pub word: String,
    pub distance: u8,
    /// None (null) without a tile set (an alphabet with no standard set
    /// and no --tiles): not known, where 0 would say the bag cannot
    /// supply the word.
    pub probability: Option<f64>,
}

/// The words within `distance` edits of `word`, nearest first, then most
/// probable (from the tile set's full bag), then in alphabet order.
pub fn ranked(
    lex: &Lexicon,
    word: &str,
    distance: u8,
    tiles: Option<&str>,
) -> Result<Vec<Near>, Failure> {
    let found = lex.suggest(word, distance)?;
    let bag = match tiles {
        Some(t) => Some(Bag::new(&lexq::TileSet::named(t, lex.alphabet())?)),
        // An alphabet without a standard set: ranked by distance alone.
        None => lexq::TileSet::default_for(lex.alphabet(), 15)
            .ok()
            .map(|t| Bag::new(&t)),
    };
    Ok(lexq::suggest::rank(found, bag.as_ref())
        .into_iter()
        .map(|(s, probability)| Near {
            word: lex.alphabet().decode(&s.codes),
            distance: s.distance,
            probability: bag.as_ref().map(|_| probability),
        })
        .collect())
}

/// `lexq suggest`.
pub fn run(lexicon: Option<&Choice>, args: &SuggestArgs) -> Result<u8, Failure> {
    let lex = crate::lexicon::open(lexicon)?;
    let near = ranked(&lex, &args.word, args.distance, args.tiles.as_deref())?;
    let mut out = Printer::stdout();
    print(&mut out, &near, args)?;
    out.flush()?;
    Ok(if near.is_empty() { NOT_FOUND } else { FOUND })
}

/// The words as `args` asks: their number (`-c`), or the first
/// `--limit` of them one a line or as one JSON array.
fn print(out: &mut Printer, near: &[Near], args: &SuggestArgs) -> std::io::Result<()> {
    if args.count {
        return out.count(near.len(), args.json);
    }
    let shown = &near[..near.len().min(args.limit)];
    if args.json {
        return out.json_line(&shown);
    }
    for n in shown {
        out.line(&n.word)?;
    }
    Ok(())
}
