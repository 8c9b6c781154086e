//! Planning a pattern or regex over the GADDAG.
//!
//! Both wildcard patterns and regular expressions become a sequence of
//! byte-level `Hir` items over tile codes (whole-word match). The planner
//! picks the longest literal run as the anchor, looks it up from the GADDAG
//! root, and matches what stands left of it with a reverse DFA and what
//! stands right of it with a forward DFA. `*ING` thus walks only the words
//! ending in ING, and `*QU*` only the words containing QU. An expression
//! with no literal runs forwards from every first letter, or backwards from
//! every last letter when it starts with `*` and ends with something
//! narrower.

use regex_automata::dfa::{StartKind, dense};
use regex_automata::nfa::thompson;
use regex_automata::util::start;
use regex_automata::{Anchored, MatchKind};
use regex_syntax::hir::{Class, ClassBytes, ClassBytesRange, Hir, HirKind};

use super::{Lengths, MAX_ARG_LEN, Search, Words};
use crate::alphabet::Alphabet;
use crate::alphabet::letterset::LetterSet;
use crate::error::{Error, QueryError, QueryErrorKind, Syntax};
use crate::lexicon::raw::Node;
use crate::query::walk::{self, DfaSide, Side};

/// Cap on the compiled NFA, in bytes.
const NFA_LIMIT: usize = 1 << 20;
/// Cap on the DFA and on the memory used to build it, in bytes.
const DFA_LIMIT: usize = 8 << 20;

/// Why a pattern or regex is refused, and where (a byte offset).
pub(crate) type Fault = (QueryErrorKind, Option<usize>);

/// The class of every letter of an alphabet.
pub(crate) fn class_of(set: LetterSet) -> Hir {
    let ranges = set.iter().map(|c| ClassBytesRange::new(c, c));
    Hir::class(Class::Bytes(ClassBytes::new(ranges)))
}

/// How a query walks the lexicon.
pub(crate) enum Plan {
    /// Look up `anchor`, match left and right of it.
    Anchored {
        anchor: Vec<u8>,
        left: Side,
        right: Side,
    },
    /// Read whole words left to right from their first letter.
    Forward(Side),
    /// Read whole words right to left (the side is a reverse DFA).
    Backward(Side),
}

/// Whether `hir` is `letters*`: any run of letters.
fn is_any_run(hir: &Hir, letters: LetterSet) -> bool {
    let HirKind::Repetition(rep) = hir.kind() else {
        return false;
    };
    rep.min == 0 && rep.max.is_none() && *rep.sub == class_of(letters)
}

fn literal(hir: &Hir) -> Option<&[u8]> {
    match hir.kind() {
        HirKind::Literal(lit) => Some(&lit.0),
        _ => None,
    }
}

/// Compiles `hir` (over tile codes) to an anchored DFA, reversed if asked.
/// The error is the automaton library's message.
fn dfa(hir: &Hir, reverse: bool) -> Result<Side, String> {
    let nfa = thompson::Compiler::new()
        .configure(
            thompson::Config::new()
                .utf8(false)
                .which_captures(thompson::WhichCaptures::None)
                .reverse(reverse)
                .nfa_size_limit(Some(NFA_LIMIT)),
        )
        .build_from_hir(hir)
        .map_err(|e| e.to_string())?;
    let dfa = dense::Builder::new()
        .configure(
            dense::Config::new()
                .match_kind(MatchKind::All)
                .start_kind(StartKind::Anchored)
                .dfa_size_limit(Some(DFA_LIMIT))
                .determinize_size_limit(Some(DFA_LIMIT)),
        )
        .build_from_nfa(&nfa)
        .map_err(|e| e.to_string())?;
    let start = regex_automata::dfa::Automaton::start_state(
        &dfa,
        &start::Config::new().anchored(Anchored::Yes),
    )
    .map_err(|e| e.to_string())?;
    Ok(Side::Dfa(Box::new(DfaSide { dfa, start })))
}

/// The side matching the concatenation of `items` (read right to left if
/// `reverse`).
fn side(items: &[Hir], letters: LetterSet, reverse: bool) -> Result<Side, String> {
    match items {
        [] => Ok(Side::Nothing),
        [one] if is_any_run(one, letters) => Ok(Side::Anything),
        _ => dfa(&Hir::concat(items.to_vec()), reverse),
    }
}

/// Plans the whole-word match of the concatenation of `items`. The error is
/// the automaton library's message (an automaton over its size cap).
pub(crate) fn plan(items: Vec<Hir>, letters: LetterSet) -> Result<Plan, String> {
    let best = items
        .iter()
        .enumerate()
        .filter_map(|(i, h)| literal(h).map(|l| (i, l.len())))
        .max_by_key(|&(i, len)| (len, std::cmp::Reverse(i)));
    if let Some((i, _)) = best {
        let anchor = literal(&items[i]).expect("a literal").to_vec();
        return Ok(Plan::Anchored {
            left: side(&items[..i], letters, true)?,
            right: side(&items[i + 1..], letters, false)?,
            anchor,
        });
    }
    let starts_open = items.first().is_some_and(|h| is_any_run(h, letters));
    let ends_open = items.last().is_some_and(|h| is_any_run(h, letters));
    let whole = Hir::concat(items);
    if starts_open && !ends_open {
        Ok(Plan::Backward(dfa(&whole, true)?))
    } else {
        Ok(Plan::Forward(dfa(&whole, false)?))
    }
}

/// Parses a pattern or regex into items over tile codes.
pub(crate) type Parser = fn(&Alphabet, &str) -> Result<Vec<Hir>, Fault>;

impl<'a> Search<'a> {
    /// Parses `text` (a query of `syntax`) with `parse`, plans the walk and
    /// runs it.
    pub(crate) fn parse_and_run(
        &self,
        syntax: Syntax,
        text: &str,
        parse: Parser,
    ) -> crate::Result<Words<'a>> {
        let fail = |(kind, position): Fault| {
            Error::Query(QueryError {
                syntax,
                query: text.to_string(),
                position,
                kind,
            })
        };
        if text.len() > MAX_ARG_LEN {
            return Err(fail((QueryErrorKind::TooLong { max: MAX_ARG_LEN }, None)));
        }
        let alphabet = self.lex.alphabet();
        let items = parse(alphabet, text).map_err(fail)?;
        // Each tile is one byte of the Hir, so its byte lengths are word
        // lengths: `c?r[^e]` need not walk past four letters.
        let mut narrowed = *self;
        let props = Hir::concat(items.clone()).properties().clone();
        narrowed.lens.min = narrowed.lens.min.max(props.minimum_len().unwrap_or(0));
        if let Some(max) = props.maximum_len() {
            narrowed.lens.max = narrowed.lens.max.min(max);
        }
        let plan = plan(items, alphabet.letters())
            .map_err(|e| fail((QueryErrorKind::TooLarge(e), None)))?;
        Ok(narrowed.run(&plan))
    }

    /// Runs a plan over the arc table, collecting the words (edges come
    /// in tile order, so words right of a fixed start come out sorted).
    pub(crate) fn run(&self, plan: &Plan) -> Words<'a> {
        let mut out = self.collector();
        let lens = self.lens();
        let mut emit = |l: &[u8], a: &[u8], r: &[u8]| out.push(l, a, r);
        run_on(self.lex.arcs().root(), plan, lens, &mut emit);
        out.finish()
    }
}

fn run_on(root: Node<'_>, plan: &Plan, lens: Lengths, emit: &mut walk::Emit<'_>) {
    match plan {
        Plan::Anchored {
            anchor,
            left,
            right,
        } => {
            if let Some((at, word)) = walk::follow_reversed(root, anchor) {
                walk::anchored(at, word, anchor, left, None, right, None, lens, emit);
            }
        }
        Plan::Backward(side) => {
            walk::anchored(
                root,
                false,
                &[],
                side,
                None,
                &Side::Nothing,
                None,
                lens,
                emit,
            );
        }
        Plan::Forward(side) => {
            for edge in root.within(!1) {
                let code = edge.code();
                let Some(state) = side.step(side.start(), code) else {
                    continue;
                };
                walk::anchored(
                    edge.target(),
                    edge.accepts(),
                    &[code],
                    &Side::Nothing,
                    None,
                    side,
                    Some(state),
                    lens,
                    emit,
                );
            }
        }
    }
}
