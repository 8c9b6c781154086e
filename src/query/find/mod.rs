//! `find`: word searches with any number of conditions, each of which may
//! be negated, and alternatives ("any of"), in one walk of the lexicon.
//!
//! A [`Query`] is a list of [`Term`]s, all of which must hold. It is
//! compiled against a lexicon ([`Lexicon::prepare_find`]), which reads
//! every argument as tiles, then planned:
//!
//! * **The anchor.** Of the conditions that can drive a walk (a prefix, a
//!   suffix, a run of letters, the longest literal of a pattern or regex, a
//!   rack, an `--in` list), the one that should visit the fewest words
//!   is walked: from its letters read right to left from the GADDAG root,
//!   letters before it, the separator, letters after it. A rack without
//!   blanks or set tiles walks from its rarest tile. With none, every word
//!   is walked from its first letter.
//! * **Pruning.** The other conditions that count letters bound the walk
//!   at each step: the length, letters a word may hold at most (a rack, a
//!   negated `includes` of one letter, `consists` of 100%), vowels, distinct
//!   letters and points at most, and what is still missing (letters to
//!   include, vowels or distinct letters at least, rack tiles to spend)
//!   against the letters left to place.
//! * **Leaves.** Every word the walk reaches is tested against every other
//!   condition (hooks, anagram counts, probability ranks, lists,
//!   alternatives and negations).
//!
//! [`Prepared::explain`] describes the plan.
//!
//! ```
//! use lexq::find::{Condition, Query, Range};
//! let lex = lexq::Lexicon::embedded();
//! // Seven-letter words with a Q and no U.
//! let q = Query::new()
//!     .with(Condition::Length(Range::exactly(7)))
//!     .with(Condition::Includes("q".into()))
//!     .without(Condition::Includes("u".into()));
//! assert_eq!(lex.find(&q)?.to_strings(), ["QINDARS", "QINTARS", "QWERTYS"]);
//! # Ok::<(), lexq::Error>(())
//! ```

mod conditions;
mod eval;
mod extensions;
mod plan;

pub use conditions::{Condition, MAX_NESTING, MAX_TERMS, Range, Term};

use crate::alphabet::tileset::TileSet;
pub use crate::error::{FindError, FindErrorKind};
use crate::lexicon::Lexicon;
use crate::query::Words;
use crate::query::probability::{Bag, Ranks};

use conditions::{CTerm, Compiler, WordSet};

/// A word search: terms that must all hold.
#[derive(Clone, Debug, Default)]
pub struct Query {
    terms: Vec<Term>,
    tiles: Option<TileSet>,
}

impl Query {
    /// A query with no condition: every word.
    pub fn new() -> Query {
        Query::default()
    }

    /// Adds a condition that must hold.
    pub fn with(mut self, condition: Condition) -> Query {
        self.terms.push(Term::is(condition));
        self
    }

    /// Adds a condition that must not hold.
    pub fn without(mut self, condition: Condition) -> Query {
        self.terms.push(Term::not(condition));
        self
    }

    /// Adds a term.
    pub fn push(&mut self, term: Term) {
        self.terms.push(term);
    }

    /// The terms.
    pub fn terms(&self) -> &[Term] {
        &self.terms
    }

    /// The tile set for points and probability (default: the alphabet's
    /// standard set).
    pub fn tiles(mut self, tiles: TileSet) -> Query {
        self.tiles = Some(tiles);
        self
    }
}

/// A query compiled and planned against a lexicon, ready to run (any
/// number of times).
pub struct Prepared<'l> {
    lex: &'l Lexicon,
    terms: Vec<CTerm>,
    lists: Vec<WordSet>,
    plan: plan::Planned,
    ranks: Option<Ranks>,
    /// Tile values (zero without a tile set).
    values: [i32; 64],
    /// The vowels' codes.
    vowels: u64,
}

impl Lexicon {
    /// The words that meet every term of `query`, sorted, each once.
    pub fn find(&self, query: &Query) -> crate::Result<Words<'_>> {
        Ok(self.prepare_find(query)?.run())
    }

    /// Compiles and plans `query` (see [`Prepared::explain`]).
    pub fn prepare_find(&self, query: &Query) -> crate::Result<Prepared<'_>> {
        let mut compiler = Compiler {
            lex: self,
            lists: Vec::new(),
            needs: Default::default(),
            terms: 0,
        };
        let terms = compiler.terms(&query.terms, 0)?;
        let needs = compiler.needs;
        let lists = compiler.lists;
        let tiles = if needs.points || needs.ranks {
            Some(match &query.tiles {
                Some(t) => t.clone(),
                None => TileSet::default_for(self.alphabet(), 15).map_err(|_| FindError {
                    term: terms
                        .iter()
                        .map(|t| t.text.clone())
                        .find(|t| t.contains("points") || t.contains("probability"))
                        .unwrap_or_default(),
                    kind: FindErrorKind::NoTileSet(self.alphabet().name().to_string()),
                })?,
            })
        } else {
            None
        };
        let values = tiles.as_ref().map_or([0; 64], |t| *t.values());
        let vowels = vowel_codes(self.alphabet());
        let mut plan = plan::plan(self, &terms, &lists, &values, vowels, None);
        if plan.candidates.len() > 1 {
            // Several terms could drive the walk: the rough counts guess,
            // random dives down each walk measure.
            let mut measured = Vec::with_capacity(plan.candidates.len());
            let mut best: Option<(u64, plan::Planned)> = None;
            for &(i, _) in &plan.candidates {
                let p = plan::plan(self, &terms, &lists, &values, vowels, Some(i));
                let e = eval::estimate(self.arcs().root(), &p);
                measured.push((i, e));
                if best.as_ref().is_none_or(|(b, _)| e < *b) {
                    best = Some((e, p));
                }
            }
            if let Some((e, p)) = best {
                plan = p;
                plan.estimate = e;
                plan.candidates = measured;
                plan.dived = true;
            }
        }
        let ranks = match (&tiles, needs.ranks) {
            (Some(t), true) => {
                let lens = plan.lens.min.max(1)..=plan.lens.max.min(self.max_word_len());
                Some(Ranks::new(self, &Bag::new(t), lens).map_err(|o| FindError {
                    term: "--probability".into(),
                    kind: FindErrorKind::Overflow {
                        len: o.len,
                        tiles: o.tiles,
                    },
                })?)
            }
            _ => None,
        };
        Ok(Prepared {
            lex: self,
            terms,
            lists,
            plan,
            ranks,
            values,
            vowels,
        })
    }
}

/// The codes of the tiles labelled A, E, I, O or U.
fn vowel_codes(alphabet: &crate::Alphabet) -> u64 {
    (1..=alphabet.len() as u8)
        .filter(|&c| matches!(alphabet.label(c), Some("A" | "E" | "I" | "O" | "U")))
        .fold(0, |m, c| m | 1u64 << c)
}

impl<'l> Prepared<'l> {
    /// Runs the query: the words found, sorted in alphabet order, each
    /// once.
    pub fn run(&self) -> Words<'l> {
        let mut out = self.lex.search().collector();
        let mut push = |w: &[u8]| out.push(&[], w, &[]);
        eval::run(self.lex.arcs().root(), self, &mut push);
        out.finish()
    }

    /// The plan in words: what the walk starts from, what bounds it at
    /// each step, and what is tested at each word it reaches.
    pub fn explain(&self) -> String {
        self.plan.explain(&self.terms, self.lex)
    }
}
