//! Costing the plans of a pattern or regex: how common each letter is
//! (the arc table's counts), random dives where that cannot tell, and
//! [`choose`], which takes the cheapest way to walk (see [the
//! module](super)).

use regex_syntax::hir::Hir;

use super::{Plan, dfa, factor, literal, plan_at, plan_one, plan_run, split};
use crate::alphabet::letterset::LetterSet;
use crate::lexicon::Lexicon;
use crate::lexicon::gaddag::MAX_WORD_LEN;
use crate::lexicon::raw::Node;
use crate::query::walk;

/// What the planner knows of a lexicon to cost its plans: how common each
/// letter is (its share of the arcs of the arc table, the header's counts,
/// which cost nothing to read), and the arc table itself, to measure by
/// random dives how often a literal occurs when the shares cannot tell.
pub(crate) struct Shares<'a> {
    share: [f64; 64],
    root: Node<'a>,
    words: f64,
}

impl<'a> Shares<'a> {
    pub(crate) fn of(lex: &'a Lexicon) -> Shares<'a> {
        let counts = lex.code_counts();
        // Code 0 is the separator, no letter.
        let total: u64 = counts[1..].iter().map(|&n| n as u64).sum();
        let mut share = [0.0; 64];
        if total > 0 {
            for (s, &n) in share.iter_mut().zip(counts).skip(1) {
                *s = n as f64 / total as f64;
            }
        }
        Shares {
            share,
            root: lex.arcs().root(),
            words: lex.word_count().max(1) as f64,
        }
    }

    /// The share of the letters of the lexicon's words at which `run`
    /// is expected to start, roughly: its rarest letter's share, halved
    /// for each further letter. (Letters in words are far from
    /// independent: the product of the shares would put QU in 100 words of
    /// ENABLE where it stands in 2,500, and ING in 200 where it ends
    /// 15,000.) E has a share of about 0.09, Q about 0.002.
    fn run(&self, run: &[u8]) -> f64 {
        let rarest = run
            .iter()
            .map(|&c| self.share[c as usize & 63])
            .fold(1.0, f64::min);
        rarest * 0.5f64.powi(run.len().saturating_sub(1).min(64) as i32)
    }

    /// How many times `run` occurs in the lexicon's words, per word,
    /// measured: the keys below the node `run` leads to (read right to
    /// left from the root) are one per place the run stands in a word,
    /// counted by Knuth's estimator (down [`DIVES`] random paths, each
    /// counting, at every key it ends, the product of the numbers of ways
    /// on so far; the mean is the count, unbiased if noisy). A few
    /// thousand arcs read, whatever the lexicon's size.
    fn measured(&self, run: &[u8]) -> f64 {
        let Some((start, _)) = walk::follow_reversed(self.root, run) else {
            return 0.0;
        };
        self.keys_below(start, DIVES) / self.words
    }

    /// How many keys there are below `start`, estimated by `dives` random
    /// dives below each of its edges (see [`Shares::measured`]).
    fn keys_below(&self, start: Node<'_>, dives: usize) -> f64 {
        // The first step is taken every way (stratified), the rest at
        // random.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64 ^ start.index() as u64;
        let mut total = 0.0;
        for first in start.edges() {
            if first.accepts() {
                total += 1.0;
            }
            let mut sum = 0.0;
            for _ in 0..dives {
                let mut node = first.target();
                let mut ways = 1.0;
                for _ in 0..MAX_WORD_LEN {
                    let n = node.edges().count();
                    if n == 0 {
                        break;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let Some(edge) = node.edges().nth((seed % n as u64) as usize) else {
                        break;
                    };
                    ways *= n as f64;
                    if edge.accepts() {
                        sum += ways;
                    }
                    node = edge.target();
                }
            }
            total += sum / dives.max(1) as f64;
        }
        total
    }

    /// How many times a run of letters, one from each class of `run`,
    /// stands in the lexicon's words, per word: every such run that
    /// stands in some word found from the root (at most [`RUN_ARCS`]
    /// arcs read, else `None`), and the keys below each estimated by
    /// random dives, about [`RUN_DIVES`] in all, one at least below each
    /// first step (`None`, too common to anchor on, past [`RUN_FIRSTS`]
    /// first steps: a stranger's regex bounds what planning reads).
    fn run_measured(&self, run: &[LetterSet]) -> Option<f64> {
        let mut buf = vec![0u8; run.len()];
        let mut budget = RUN_ARCS;
        let mut ends = Vec::new();
        let mut found = |at: Node<'a>, word: bool, _: &[u8]| ends.push((at, word));
        if !super::each_run(self.root, false, run, &mut buf, &mut budget, &mut found) {
            return None;
        }
        // Shared among every first step below every run found (25 runs of
        // `[aeiou]{2}` with some 20 steps each took 20 dives a step).
        let firsts: usize = ends.iter().map(|(at, _)| at.edges().count()).sum();
        if firsts > RUN_FIRSTS {
            return None;
        }
        let dives = (RUN_DIVES / firsts.max(1)).clamp(1, DIVES);
        let total: f64 = ends
            .iter()
            .map(|&(at, word)| self.keys_below(at, dives) + word as u8 as f64)
            .sum();
        Some(total / self.words)
    }
}

/// Arcs read at most to find the runs of letters a run of classes stands
/// for ([`Shares::run_measured`]): more, and the run is too common to
/// anchor on.
const RUN_ARCS: usize = 4096;

/// First steps below the runs of letters of a run of classes at most
/// ([`Shares::run_measured`]): more, and the run is too common to anchor
/// on (`[a-z]{2}` has thousands; `[aeiou]{4}` a few hundred).
const RUN_FIRSTS: usize = 4 * RUN_DIVES;

/// Random dives below the runs of letters of a run of classes in all
/// ([`Shares::run_measured`]), shared among them.
const RUN_DIVES: usize = 512;

/// Random dives below each first step of a measured literal
/// ([`Shares::measured`]).
const DIVES: usize = 16;

/// What an anchored walk costs for each letter of the lexicon at which its
/// anchor starts (by [`Shares::run`]), against the forward walk of every
/// word (1.0): calibrated with callgrind on ENABLE, where a common letter
/// is only roughly placed by its share (S mostly ends words, where the
/// arcs are shared, so its share is about half its frequency); the
/// figures are in docs/BENCHMARKS.md ("Regexes: the plan chosen by
/// estimate").
const ANCHOR_WEIGHT: f64 = 20.0;

/// Between these costs by the shares, the anchor's occurrences are
/// measured ([`Shares::measured`]) to choose.
const UNSURE: std::ops::Range<f64> = 0.25..5.0;

/// Occurrences per word at which the anchored walk costs as much as the
/// forward walk (calibrated as [`ANCHOR_WEIGHT`]: ER, about one word in
/// five, is on the anchored side; S, in most words, on the forward side).
const EVEN_OCCURRENCES: f64 = 0.3;

/// The cost of walking from the literal `items[i]` (with what stands left
/// and right of it matched by automata), as a share of the cost of the
/// forward walk of every word (1.0): the anchor's share of the letters
/// ([`Shares::run`]) times [`ANCHOR_WEIGHT`] (the walk left and right of
/// each place the anchor stands, and the sort that takes the duplicates
/// away). When that is near 1, [`refined_cost`] measures. An anchor at the start of the word (`qu.*`)
/// visits only the words that start with it, in order, a part of what the
/// forward walk visits: it costs next to nothing.
fn anchored_cost(items: &[Hir], i: usize, shares: &Shares<'_>) -> f64 {
    let Some(anchor) = items.get(i).and_then(literal) else {
        return f64::INFINITY;
    };
    let cost = shares.run(anchor) * ANCHOR_WEIGHT;
    if i == 0 { cost / 64.0 } else { cost }
}

/// [`anchored_cost`] with the anchor's occurrences measured if that cost
/// is [`UNSURE`] (a few thousand arcs read, so only then).
fn refined_cost(items: &[Hir], i: usize, shares: &Shares<'_>) -> f64 {
    let cost = anchored_cost(items, i, shares);
    match items.get(i).and_then(literal) {
        Some(anchor) if i > 0 && UNSURE.contains(&cost) => {
            shares.measured(anchor) / EVEN_OCCURRENCES
        }
        _ => cost,
    }
}

/// The literal of `items` that is cheapest to anchor on and its cost
/// ([`anchored_cost`]), ties to the longest then the first.
fn cheapest_anchor(items: &[Hir], shares: &Shares<'_>) -> Option<(usize, f64)> {
    items
        .iter()
        .enumerate()
        .filter_map(|(i, h)| literal(h).map(|l| (i, l.len(), anchored_cost(items, i, shares))))
        .min_by(|a, b| a.2.total_cmp(&b.2).then(b.1.cmp(&a.1)).then(a.0.cmp(&b.0)))
        .map(|(i, _, cost)| (i, cost))
}

/// Why a [`Plan`] was chosen, with the costs compared (shares of the
/// forward walk of every word, see [`anchored_cost`]).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Why {
    /// A literal selective enough: the anchored walk's estimated cost.
    Selective(f64),
    /// Every literal common: the cheapest anchored plan would cost this
    /// many forward walks.
    Unselective(f64),
    /// No literal to anchor on.
    NoLiteral,
    /// No literal selective enough, but a run of classes is: the run
    /// plan's measured cost ([`Plan::Run`]).
    Run(f64),
}

impl std::fmt::Display for Why {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Why::Selective(c) => write!(
                f,
                "a selective literal: anchored, about {c:.2} of a walk of every word"
            ),
            Why::Unselective(c) => write!(
                f,
                "every literal common (anchored would cost about {c:.2} walks of every word): every word from its first letter"
            ),
            Why::NoLiteral => write!(f, "no literal: from either end of the word"),
            Why::Run(c) => write!(
                f,
                "no selective literal, but a rare run of classes: about {c:.2} of a walk of every word"
            ),
        }
    }
}

/// The cheapest run of classes of `items` to anchor on ([`Plan::Run`]),
/// if one costs less than the forward walk: the items unrolled, the
/// run's index among them, its classes and its cost (occurrences per word
/// against [`EVEN_OCCURRENCES`], as for a literal).
#[allow(clippy::type_complexity)]
fn cheapest_run(
    items: &[Hir],
    letters: LetterSet,
    shares: &Shares<'_>,
) -> Option<(Vec<Hir>, usize, Vec<LetterSet>, f64)> {
    let items = super::unrolled(items);
    let (i, run, cost) = super::class_runs(&items, letters)
        .into_iter()
        .filter_map(|(i, run)| {
            let cost = shares.run_measured(&run)? / EVEN_OCCURRENCES;
            Some((i, run, cost))
        })
        .min_by(|a, b| a.2.total_cmp(&b.2))?;
    (cost < 1.0).then_some((items, i, run, cost))
}

/// Plans the whole-word match of the concatenation of `items`, choosing
/// by estimate ([`anchored_cost`]) between anchoring on a literal and
/// reading every word from its first letter:
///
/// - anchored on the literal that costs least (`.*q[^u].*` walks from
///   each Q), found through alternations (a literal every branch starts
///   or ends with is taken out; an alternation whose branches each hold a
///   longer literal than the rest is split into them, see
///   [`Plan::Union`]), when that costs less than the forward walk;
/// - else anchored on the run of classes that costs least
///   (`.*[aeiou]{4}.*`, see [`Plan::Run`]), measured, when that costs less
///   than the forward walk;
/// - else one forward walk of every word, the DFA pruning each prefix no
///   match continues (`.*e.*`: E stands in one letter in eleven, so the
///   walk from each E would visit most words several times and sort them);
/// - with no literal at all, forwards, or backwards from the last letter
///   when the expression starts with `.*` and ends with something narrower.
///
/// The error is the automaton library's message (an automaton over its
/// size cap).
pub(crate) fn choose(
    items: Vec<Hir>,
    letters: LetterSet,
    shares: &Shares<'_>,
) -> Result<(Plan, Why), String> {
    let items = factor(items);
    let whole = cheapest_anchor(&items, shares);
    let split = split(&items).and_then(|branches| {
        let mut cost = 0.0;
        let mut anchors = Vec::with_capacity(branches.len());
        for b in &branches {
            let (i, c) = cheapest_anchor(b, shares)?;
            anchors.push(i);
            cost += c;
        }
        Some((branches, anchors, cost))
    });
    let split = split.filter(|(_, _, cost)| whole.is_none_or(|(_, c)| *cost < c));
    let cost = match (&split, whole) {
        (Some((_, _, cost)), _) => Some(*cost),
        (None, Some((_, cost))) => Some(cost),
        (None, None) => None,
    };
    // Near the forward walk's cost, the anchors' occurrences are measured.
    let cost = match (cost, &split, whole) {
        (Some(c), Some((branches, anchors, _)), _) if UNSURE.contains(&c) => Some(
            branches
                .iter()
                .zip(anchors)
                .map(|(b, &i)| refined_cost(b, i, shares))
                .sum(),
        ),
        (Some(c), None, Some((i, _))) if UNSURE.contains(&c) => {
            Some(refined_cost(&items, i, shares))
        }
        (c, ..) => c,
    };
    // No selective literal: a run of classes may be.
    if cost.is_none_or(|c| c >= 1.0) {
        if let Some((unrolled, i, run, c)) = cheapest_run(&items, letters, shares) {
            return Ok((plan_run(&unrolled, i, run, letters)?, Why::Run(c)));
        }
    }
    match cost {
        Some(cost) if cost < 1.0 => {
            let plan = match (split, whole) {
                (Some((branches, anchors, _)), _) => Plan::Union(
                    branches
                        .into_iter()
                        .zip(anchors)
                        .map(|(b, i)| plan_at(b, i, letters))
                        .collect::<Result<_, _>>()?,
                ),
                (None, Some((i, _))) => plan_at(items, i, letters)?,
                (None, None) => unreachable!("a cost comes from an anchor"),
            };
            Ok((plan, Why::Selective(cost)))
        }
        Some(cost) => Ok((
            Plan::Forward(dfa(&Hir::concat(items), letters, false)?),
            Why::Unselective(cost),
        )),
        None => Ok((plan_one(items, letters)?, Why::NoLiteral)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_with_too_many_first_steps_are_not_measured() {
        let lex = Lexicon::embedded();
        let shares = Shares::of(&lex);
        let a = lex.alphabet();
        let set = |s: &str| LetterSet(a.encode(s).unwrap().iter().fold(0, |m, &c| m | 1 << c));
        let (any, vowels) = (a.letters(), set("aeiou"));
        // Any two letters: every pair that stands in a word, thousands of
        // first steps below them, too common to anchor on: not dived.
        assert_eq!(shares.run_measured(&[any, any]), None);
        // Four vowels: a few hundred, measured, and rare.
        let four = shares.run_measured(&[vowels; 4]).unwrap();
        assert!(four > 0.0 && four < 0.01, "{four}");
    }
}
