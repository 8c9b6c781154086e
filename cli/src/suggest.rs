//! `lexq suggest`, `lexq check --suggest` and `lexq diff`: the nearest
//! words, ranked; the words two lexicons do not share, streamed.

use std::ops::ControlFlow;

use lexq::Lexicon;
use lexq::diff::{Change, diff};
use lexq::probability::Bag;
use serde::Serialize;

use crate::args::{DiffArgs, SuggestArgs};
use crate::print::Printer;
use crate::{FOUND, Failure, NOT_FOUND, print};

/// A word near the query, as printed in JSON.
#[derive(Serialize, Debug)]
pub struct Near {
    pub word: String,
    pub distance: u8,
    pub probability: f64,
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
    let mut near: Vec<(Near, Vec<u8>)> = found
        .into_iter()
        .map(|s| {
            let probability = bag
                .as_ref()
                .and_then(|b| b.probability(&s.codes))
                .unwrap_or(0.0);
            let n = Near {
                word: lex.alphabet().decode(&s.codes),
                distance: s.distance,
                probability,
            };
            (n, s.codes)
        })
        .collect();
    near.sort_by(|(a, ac), (b, bc)| {
        a.distance
            .cmp(&b.distance)
            .then_with(|| b.probability.total_cmp(&a.probability))
            .then_with(|| ac.cmp(bc))
    });
    Ok(near.into_iter().map(|(n, _)| n).collect())
}

/// `lexq suggest`.
pub fn suggest(lex: &Lexicon, out: &mut Printer, args: &SuggestArgs) -> Result<u8, Failure> {
    let near = ranked(lex, &args.word, args.distance, args.tiles.as_deref())?;
    let status = if near.is_empty() { NOT_FOUND } else { FOUND };
    if args.count {
        out.count(near.len(), args.json)?;
        return Ok(status);
    }
    let shown = &near[..near.len().min(args.limit)];
    if args.json {
        out.json_line(&shown)?;
    } else {
        for n in shown {
            out.line(&n.word)?;
        }
    }
    Ok(status)
}

/// `lexq diff`: "+WORD" and "-WORD" lines (or JSON lines, or counts) as
/// the two lexicons are read.
pub fn run_diff(args: &DiffArgs) -> Result<u8, Failure> {
    let old = Lexicon::open(&args.old)?;
    let new = Lexicon::open(&args.new)?;
    let mut out = Printer::stdout();
    let (mut added, mut removed) = (0usize, 0usize);
    let mut failed = None;
    let mut text = String::with_capacity(64);
    diff(&old, &new, |change, codes| {
        match change {
            Change::Added => added += 1,
            Change::Removed => removed += 1,
        }
        let wanted = match change {
            Change::Added => !args.removed,
            Change::Removed => !args.added,
        };
        if args.count || !wanted {
            return ControlFlow::Continue(());
        }
        text.clear();
        let word = new.alphabet().decode(codes);
        let line = if args.json {
            let key = match change {
                Change::Added => "added",
                Change::Removed => "removed",
            };
            serde_json::json!({ key: word }).to_string()
        } else if args.added || args.removed {
            word
        } else {
            let sign = if change == Change::Added { '+' } else { '-' };
            format!("{sign}{word}")
        };
        text.push_str(&line);
        text.push('\n');
        if let Err(e) = out.raw(text.as_bytes()) {
            failed = Some(e);
            return ControlFlow::Break(());
        }
        if print::closed() {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    })?;
    if let Some(e) = failed {
        return Err(e.into());
    }
    if args.count {
        let line = match (args.added, args.removed, args.json) {
            (true, _, false) => added.to_string(),
            (_, true, false) => removed.to_string(),
            (true, _, true) => serde_json::json!({ "added": added }).to_string(),
            (_, true, true) => serde_json::json!({ "removed": removed }).to_string(),
            (_, _, true) => serde_json::json!({ "added": added, "removed": removed }).to_string(),
            _ => format!("{added} added, {removed} removed"),
        };
        out.line(&line)?;
    }
    out.flush()?;
    let differ = match (args.added, args.removed) {
        (true, _) => added > 0,
        (_, true) => removed > 0,
        _ => added + removed > 0,
    };
    Ok(if differ { FOUND } else { NOT_FOUND })
}
