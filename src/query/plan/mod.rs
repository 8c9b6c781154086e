//! Planning a pattern or regex over the GADDAG.
//!
//! Both wildcard patterns and regular expressions become a sequence of
//! byte-level `Hir` items over tile codes (whole-word match). The planner
//! ([`choose`]) estimates what each way of walking costs and takes the
//! cheapest:
//!
//! - anchored on a literal run: look it up from the GADDAG root, match what
//!   stands left of it with a reverse DFA and what stands right of it with
//!   a forward DFA. `*ING` walks only the words with ING, `*QU*` only the
//!   words containing QU. Literals are found through alternations and
//!   small classes (`.*(qu|qa).*` is `.*q(u|a).*`; `.*[xz].*` walks from
//!   each X and from each Z);
//! - forwards: every word read once from its first letter, the DFA pruning
//!   the prefixes no match continues, the words coming out in order with
//!   no sort. `.*e.*` walks so: E stands in most words, and the anchored
//!   walk would meet each word once per E and sort the duplicates away;
//!   Once the DFA is in a universal state (after the first E of `.*e.*`),
//!   the words below are reported without stepping it;
//! - anchored on a run of classes, when no literal is selective: every run
//!   of letters it stands for that occurs in some word, found from the
//!   GADDAG root (`.*[aeiou]{4}.*` walks from the few runs of four vowels);
//! - with no literal, forwards, or backwards from the last letter when the
//!   expression starts with `.*` and ends with something narrower.

use regex_automata::dfa::{StartKind, dense};
use regex_automata::nfa::thompson;
use regex_automata::util::start;
use regex_automata::{Anchored, MatchKind};
use regex_syntax::hir::{Class, ClassBytes, ClassBytesRange, Hir, HirKind, Repetition};

use super::{Lengths, MAX_ARG_LEN, Ordered, Search, Words};
use crate::alphabet::Alphabet;
use crate::alphabet::letterset::LetterSet;
use crate::error::{Error, QueryError, QueryErrorKind, Syntax};
use crate::lexicon::gaddag::MAX_WORD_LEN;
use crate::lexicon::raw::Node;
use crate::query::walk::{self, Bound, DfaSide, Side};

mod cost;

pub(crate) use cost::{Shares, choose};

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

/// Any run of the letters of `set`, even none (a pattern's `*`, a
/// regex's `.*`).
pub(crate) fn any_run(set: LetterSet) -> Hir {
    Hir::repetition(Repetition {
        min: 0,
        max: None,
        greedy: true,
        sub: Box::new(class_of(set)),
    })
}

/// The items of the pattern `*SUB*` (`open_left`, `open_right`: whether
/// any letters may stand before and after the literal `sub`), as the
/// affix queries are planned.
pub(crate) fn affix_items(
    set: LetterSet,
    sub: &[u8],
    open_left: bool,
    open_right: bool,
) -> Vec<Hir> {
    let mut items = Vec::with_capacity(3);
    if open_left {
        items.push(any_run(set));
    }
    items.push(Hir::literal(sub.to_vec()));
    if open_right {
        items.push(any_run(set));
    }
    items
}

/// How a query walks the lexicon.
#[derive(Clone)]
pub(crate) enum Plan {
    /// Look up `anchor`, match left and right of it.
    Anchored {
        anchor: Vec<u8>,
        left: Side,
        right: Side,
    },
    /// Read whole words left to right from their first letter (each word
    /// once, in alphabet order).
    Forward(Side),
    /// Read whole words right to left (the side is a reverse DFA).
    Backward(Side),
    /// The words of any of these plans: an alternation split into its
    /// branches, each walked from its own anchor (`(qu|x)i[sz]+` walks
    /// from QUI and from XI).
    Union(Vec<Plan>),
    /// Look up every run of letters, one from each class of `run` in
    /// turn, that stands in some word (the GADDAG read from the root on
    /// the classes, last first), and match left and right of each as
    /// [`Plan::Anchored`] does: `.*[aeiou]{4}.*` walks from the few runs
    /// of four vowels in the lexicon's words.
    Run {
        run: Vec<LetterSet>,
        left: Side,
        right: Side,
    },
}

/// The most branches an alternation is split into.
const MAX_BRANCHES: usize = 16;
/// The most letters of a class split into branches (one literal each).
const MAX_CLASS_BRANCHES: usize = 4;

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

/// Compiles `hir` (over the tile codes of `letters`) to an anchored DFA,
/// reversed if asked.
/// The error is the automaton library's message.
fn dfa(hir: &Hir, letters: LetterSet, reverse: bool) -> Result<Side, String> {
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
    Ok(Side::Dfa(Box::new(DfaSide::new(dfa, start, letters))))
}

/// The side matching the concatenation of `items` (read right to left if
/// `reverse`).
fn side(items: &[Hir], letters: LetterSet, reverse: bool) -> Result<Side, String> {
    match items {
        [] => Ok(Side::Nothing),
        [one] if is_any_run(one, letters) => Ok(Side::Anything),
        _ => dfa(&Hir::concat(items.to_vec()), letters, reverse),
    }
}

/// The items of a concatenation, or the expression as the only item.
fn items_of(hir: &Hir) -> Vec<Hir> {
    match hir.kind() {
        HirKind::Concat(subs) => subs.clone(),
        _ => vec![hir.clone()],
    }
}

/// `items` concatenated, adjacent literals merged into one, as items
/// again.
fn merged(items: Vec<Hir>) -> Vec<Hir> {
    items_of(&Hir::concat(items))
}

/// The longest run that every one of `runs` starts with (ends with, if
/// `back`); empty if one of them is `None`.
fn common(runs: &[Option<&[u8]>], back: bool) -> Vec<u8> {
    let Some(Some(first)) = runs.first() else {
        return Vec::new();
    };
    let mut n = first.len();
    for run in runs {
        let Some(run) = run else {
            return Vec::new();
        };
        let same = if back {
            first
                .iter()
                .rev()
                .zip(run.iter().rev())
                .take_while(|(a, b)| a == b)
                .count()
        } else {
            first.iter().zip(*run).take_while(|(a, b)| a == b).count()
        };
        n = n.min(same);
    }
    if back {
        first[first.len() - n..].to_vec()
    } else {
        first[..n].to_vec()
    }
}

/// A branch without its first (`back`: last) `n` tiles, which are a
/// literal it starts (ends) with.
fn strip(branch: &[Hir], n: usize, back: bool) -> Vec<Hir> {
    let mut out = branch.to_vec();
    let end = if back { out.len() - 1 } else { 0 };
    let lit = literal(&out[end]).expect("a literal").to_vec();
    let rest = if back {
        &lit[..lit.len() - n]
    } else {
        &lit[n..]
    };
    if rest.is_empty() {
        out.remove(end);
    } else {
        out[end] = Hir::literal(rest.to_vec());
    }
    out
}

/// Takes out of each alternation the tiles every branch starts or ends
/// with: `(QU|Q[^U])` is `Q(U|[^U])`, `(ING|ED)` stays. The literal then
/// stands among the items, where the planner can anchor on it.
fn factor(items: Vec<Hir>) -> Vec<Hir> {
    let mut out = Vec::with_capacity(items.len());
    for h in items {
        let HirKind::Alternation(subs) = h.kind() else {
            out.push(h);
            continue;
        };
        let mut branches: Vec<Vec<Hir>> = subs.iter().map(items_of).collect();
        let heads: Vec<Option<&[u8]>> = branches
            .iter()
            .map(|b| b.first().and_then(literal))
            .collect();
        let head = common(&heads, false);
        if !head.is_empty() {
            branches = branches
                .iter()
                .map(|b| strip(b, head.len(), false))
                .collect();
        }
        let tails: Vec<Option<&[u8]>> = branches
            .iter()
            .map(|b| b.last().and_then(literal))
            .collect();
        let tail = common(&tails, true);
        if !tail.is_empty() {
            branches = branches
                .iter()
                .map(|b| strip(b, tail.len(), true))
                .collect();
        }
        if head.is_empty() && tail.is_empty() {
            out.push(h);
            continue;
        }
        out.push(Hir::literal(head));
        out.push(Hir::alternation(
            branches.into_iter().map(Hir::concat).collect(),
        ));
        out.push(Hir::literal(tail));
    }
    merged(out)
}

/// The length of the longest literal among `items`.
fn longest_literal(items: &[Hir]) -> usize {
    items
        .iter()
        .filter_map(literal)
        .map(<[u8]>::len)
        .max()
        .unwrap_or(0)
}

/// The alternation among `items` to split, if splitting it gives every
/// branch a longer anchor than `items` have: its index and each branch's
/// items (the alternation replaced by the branch).
fn split(items: &[Hir]) -> Option<Vec<Vec<Hir>>> {
    let now = longest_literal(items);
    let mut best: Option<(usize, Vec<Vec<Hir>>)> = None;
    for (i, h) in items.iter().enumerate() {
        let subs: Vec<Hir> = match h.kind() {
            HirKind::Alternation(subs) if subs.len() <= MAX_BRANCHES => subs.clone(),
            // A class of a few letters is the alternation of them:
            // `.*[xz].*` walks from each X and from each Z.
            HirKind::Class(Class::Bytes(class)) => {
                let letters = || class.ranges().iter().flat_map(|r| r.start()..=r.end());
                if letters().nth(MAX_CLASS_BRANCHES).is_some() {
                    continue;
                }
                letters().map(|c| Hir::literal(vec![c])).collect()
            }
            _ => continue,
        };
        let each: Vec<Vec<Hir>> = subs
            .iter()
            .map(|b| {
                let mut v = items[..i].to_vec();
                v.extend(items_of(b));
                v.extend_from_slice(&items[i + 1..]);
                factor(merged(v))
            })
            .collect();
        let worst = each.iter().map(|b| longest_literal(b)).min().unwrap_or(0);
        if worst > now && best.as_ref().is_none_or(|(w, _)| worst > *w) {
            best = Some((worst, each));
        }
    }
    best.map(|(_, each)| each)
}

/// Plans the whole-word match of the concatenation of `items` anchored on
/// its longest literal, found through alternations as [`choose`] does,
/// whatever its cost (`lexq extensions` anchors on its word).
pub(crate) fn plan(items: Vec<Hir>, letters: LetterSet) -> Result<Plan, String> {
    let items = factor(items);
    if let Some(branches) = split(&items) {
        return Ok(Plan::Union(
            branches
                .into_iter()
                .map(|b| plan_one(b, letters))
                .collect::<Result<_, _>>()?,
        ));
    }
    plan_one(items, letters)
}

/// The anchored plan on the literal `items[i]`.
fn plan_at(items: Vec<Hir>, i: usize, letters: LetterSet) -> Result<Plan, String> {
    let anchor = literal(&items[i]).expect("a literal").to_vec();
    Ok(Plan::Anchored {
        left: side(&items[..i], letters, true)?,
        right: side(&items[i + 1..], letters, false)?,
        anchor,
    })
}

/// Plans the whole-word match of `items` as one walk (no [`Plan::Union`]):
/// anchored on its longest literal (one every branch of an alternation
/// starts or ends with counts), or from either end.
pub(crate) fn plan_one(items: Vec<Hir>, letters: LetterSet) -> Result<Plan, String> {
    let items = factor(items);
    let best = items
        .iter()
        .enumerate()
        .filter_map(|(i, h)| literal(h).map(|l| (i, l.len())))
        .max_by_key(|&(i, len)| (len, std::cmp::Reverse(i)));
    if let Some((i, _)) = best {
        return plan_at(items, i, letters);
    }
    let starts_open = items.first().is_some_and(|h| is_any_run(h, letters));
    let ends_open = items.last().is_some_and(|h| is_any_run(h, letters));
    let whole = Hir::concat(items);
    if starts_open && !ends_open {
        Ok(Plan::Backward(dfa(&whole, letters, true)?))
    } else {
        Ok(Plan::Forward(dfa(&whole, letters, false)?))
    }
}

/// The most classes of a run anchor ([`Plan::Run`]).
const MAX_RUN: usize = 8;

/// The tiles `hir` matches if it is one tile (a one-tile literal or a
/// class).
fn one_tile(hir: &Hir) -> Option<LetterSet> {
    match hir.kind() {
        HirKind::Literal(lit) if lit.0.len() == 1 => Some(LetterSet(1 << (lit.0[0] & 63))),
        HirKind::Class(Class::Bytes(class)) => Some(
            class
                .ranges()
                .iter()
                .flat_map(|r| r.start()..=r.end())
                .filter(|&c| c < 64)
                .collect(),
        ),
        _ => None,
    }
}

/// `items` with each literal split into its tiles and each repetition of
/// a class at least `m` times into `m` copies of the class and the rest
/// (`[aeiou]{4,}` is four classes and `[aeiou]*`): the same words, with
/// every tile a run anchor could read an item of its own.
fn unrolled(items: &[Hir]) -> Vec<Hir> {
    let mut out = Vec::with_capacity(items.len());
    for h in items {
        match h.kind() {
            HirKind::Literal(lit) => out.extend(lit.0.iter().map(|&c| Hir::literal(vec![c]))),
            HirKind::Repetition(rep)
                if rep.min >= 1
                    && rep.min as usize <= MAX_WORD_LEN
                    && matches!(rep.sub.kind(), HirKind::Class(_)) =>
            {
                out.extend(std::iter::repeat_n((*rep.sub).clone(), rep.min as usize));
                if rep.max != Some(rep.min) {
                    out.push(Hir::repetition(Repetition {
                        min: 0,
                        max: rep.max.map(|m| m - rep.min),
                        greedy: rep.greedy,
                        sub: rep.sub.clone(),
                    }));
                }
            }
            _ => out.push(h.clone()),
        }
    }
    out
}

/// The runs of classes of `items` ([`unrolled`]) a [`Plan::Run`] could
/// anchor on: each longest run of one-tile items, none of them every
/// letter, with a class of more than one letter in it (else it is a
/// literal), of at least two tiles, cut to [`MAX_RUN`]: the run's first
/// item's index, and its classes.
fn class_runs(items: &[Hir], letters: LetterSet) -> Vec<(usize, Vec<LetterSet>)> {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < items.len() {
        let run: Vec<LetterSet> = items[i..]
            .iter()
            .map_while(|h| one_tile(h).filter(|set| set.0 & letters.0 != letters.0))
            .take(MAX_RUN)
            .collect();
        let n = run.len();
        if n >= 2 && run.iter().any(|set| set.len() > 1) {
            runs.push((i, run));
        }
        i += n.max(1);
    }
    runs
}

/// Reads `run` from `node` right to left (its last class first), calling
/// `found` with the node after each run of letters that some key holds
/// there, whether that path is a whole key, and the letters (in word
/// order); at most `budget` arcs are read. Returns whether the budget
/// sufficed. `buf` holds `run.len()` codes.
pub(crate) fn each_run<'a>(
    node: Node<'a>,
    word: bool,
    run: &[LetterSet],
    buf: &mut [u8],
    budget: &mut usize,
    found: &mut dyn FnMut(Node<'a>, bool, &[u8]),
) -> bool {
    let Some((last, rest)) = run.split_last() else {
        found(node, word, buf);
        return true;
    };
    for edge in node.within(last.0 & !1) {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        buf[rest.len()] = edge.code();
        if !each_run(edge.target(), edge.accepts(), rest, buf, budget, found) {
            return false;
        }
    }
    true
}

/// The run plan on the classes `items[i..i + run.len()]` ([`unrolled`]).
fn plan_run(
    items: &[Hir],
    i: usize,
    run: Vec<LetterSet>,
    letters: LetterSet,
) -> Result<Plan, String> {
    let end = i + run.len();
    Ok(Plan::Run {
        left: side(&items[..i], letters, true)?,
        right: side(&items[end..], letters, false)?,
        run,
    })
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
        let (plan, _) = choose(items, alphabet.letters(), &Shares::of(self.lex))
            .map_err(|e| fail((QueryErrorKind::TooLarge(e), None)))?;
        Ok(narrowed.run(&plan))
    }

    /// Runs a plan over the arc table, collecting the words (edges come
    /// in tile order, so words right of a fixed start come out sorted).
    pub(crate) fn run(&self, plan: &Plan) -> Words<'a> {
        let lens = self.lens();
        let root = self.lex.arcs().root();
        if plan.in_order() {
            let mut out = Ordered::new(self.limit.unwrap_or(usize::MAX));
            let mut emit = |l: &[u8], a: &[u8], r: &[u8]| out.push(l, a, r);
            run_on(root, plan, lens, 0, &mut walk::Free, &mut emit);
            return out.finish(self.lex.alphabet());
        }
        let mut out = self.collector();
        let mut emit = |l: &[u8], a: &[u8], r: &[u8]| out.push(l, a, r);
        run_on(root, plan, lens, 0, &mut walk::Free, &mut emit);
        out.finish()
    }
}

impl Plan {
    /// Whether the walk reports each word once, in alphabet order: a
    /// forward walk (first letter, separator, the rest, edges in tile
    /// order) or a walk from an anchor at the start of the word (`qu.*`:
    /// QU, separator, the rest). No sort is then needed.
    pub(crate) fn in_order(&self) -> bool {
        match self {
            Plan::Forward(_) => true,
            Plan::Anchored { left, .. } => matches!(left, Side::Nothing),
            Plan::Backward(_) | Plan::Union(_) | Plan::Run { .. } => false,
        }
    }
}

/// Walks `plan` from `root`, each letter as `bound` allows, reporting
/// each word it reaches (a [`Plan::Anchored`] walk with letters on both
/// sides, a [`Plan::Union`] or a [`Plan::Run`] may report a word more than
/// once). `barred_left`: letters never placed left of a
/// [`Plan::Anchored`]'s anchor (see [`walk::Start::barred_left`]).
pub(crate) fn run_on<B: Bound>(
    root: Node<'_>,
    plan: &Plan,
    lens: Lengths,
    barred_left: u64,
    bound: &mut B,
    emit: &mut walk::Emit<'_>,
) {
    // One anchored walk, its anchor's letters counted first.
    let from = |start: walk::Start<'_>, bound: &mut B, emit: &mut walk::Emit<'_>| {
        if start.anchor.len() > MAX_WORD_LEN {
            return;
        }
        let mut saved = [B::Saved::default(); MAX_WORD_LEN + 1];
        if walk::push_anchor(bound, start.anchor, &mut saved) {
            let anchor = start.anchor;
            walk::anchored(start, lens, bound, emit);
            walk::unpush_anchor(bound, anchor, &saved);
        }
    };
    match plan {
        Plan::Union(plans) => {
            for p in plans {
                run_on(root, p, lens, 0, bound, emit);
            }
        }
        Plan::Anchored {
            anchor,
            left,
            right,
        } => {
            if let Some((at, word)) = walk::follow_reversed(root, anchor) {
                let start = walk::Start {
                    barred_left,
                    ..walk::Start::new(at, word, anchor, left, right)
                };
                from(start, bound, emit);
            }
        }
        Plan::Run { run, left, right } => {
            let mut buf = [0u8; MAX_RUN];
            let buf = &mut buf[..run.len().min(MAX_RUN)];
            let mut budget = usize::MAX;
            each_run(
                root,
                false,
                run,
                buf,
                &mut budget,
                &mut |at, word, anchor| {
                    let start = walk::Start::new(at, word, anchor, left, right);
                    from(start, bound, emit);
                },
            );
        }
        Plan::Backward(side) => {
            let start = walk::Start::new(root, false, &[], side, &Side::Nothing);
            walk::anchored(start, lens, bound, emit);
        }
        Plan::Forward(Side::Dfa(dfa)) => walk::forward(root, dfa, lens, bound, emit),
        Plan::Forward(side) => {
            let first = if B::ALL { !1 } else { bound.allowed() & !1 };
            for edge in root.within(first) {
                let code = edge.code();
                let Some(state) = side.step(side.start(), code) else {
                    continue;
                };
                let one = [code];
                let start = walk::Start {
                    rs: Some(state),
                    ..walk::Start::new(edge.target(), edge.accepts(), &one, &Side::Nothing, side)
                };
                if let Some(saved) = bound.push(code) {
                    walk::anchored(start, lens, bound, emit);
                    bound.pop(code, saved);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::cost::Why;
    use super::*;
    use crate::lexicon::Lexicon;

    /// The plan chosen for `regex` over ENABLE, in words: `anchored X`
    /// (`^X` at the start of the word), `forward`, `backward`, or the
    /// branches of a union; and why.
    fn chosen(regex: &str) -> (String, Why) {
        let lex = Lexicon::embedded();
        let a = lex.alphabet();
        let items = crate::query::regex::parse(a, regex).unwrap();
        let (plan, why) = choose(items, a.letters(), &Shares::of(&lex)).unwrap();
        fn name(plan: &Plan, a: &Alphabet) -> String {
            match plan {
                Plan::Anchored { anchor, left, .. } => {
                    let start = if matches!(left, Side::Nothing) {
                        "^"
                    } else {
                        ""
                    };
                    format!("anchored {start}{}", a.decode(anchor))
                }
                Plan::Run { run, .. } => {
                    let classes: Vec<String> = run
                        .iter()
                        .map(|set| {
                            let codes: Vec<u8> = set.iter().collect();
                            match codes.as_slice() {
                                [one] => a.decode(&[*one]),
                                _ => format!("[{}]", a.decode(&codes)),
                            }
                        })
                        .collect();
                    format!("run {}", classes.concat())
                }
                Plan::Forward(_) => "forward".into(),
                Plan::Backward(_) => "backward".into(),
                Plan::Union(plans) => plans
                    .iter()
                    .map(|p| name(p, a))
                    .collect::<Vec<_>>()
                    .join(" + "),
            }
        }
        (name(&plan, a), why)
    }

    #[test]
    fn a_common_literal_is_no_anchor() {
        for re in [".*e.*", ".*a.*e.*", ".*s", ".*r.*", ".*e.*s"] {
            let (plan, why) = chosen(re);
            assert_eq!(plan, "forward", "{re}");
            assert!(
                matches!(why, Why::Unselective(c) if c >= 1.0),
                "{re}: {why:?}"
            );
        }
    }

    #[test]
    fn the_rarest_literal_anchors() {
        for (re, want) in [
            (".*q[^u].*", "anchored Q"),
            (".*s.*x.*", "anchored X"),
            (".*e.*j.*", "anchored J"),
            (".*k.*", "anchored K"),
            ("qu.*", "anchored ^QU"),
            // At the start of the word: a few words, in order.
            ("e.*", "anchored ^E"),
            ("re.*ing", "anchored ^RE"),
        ] {
            let (plan, why) = chosen(re);
            assert_eq!(plan, want, "{re}");
            assert!(matches!(why, Why::Selective(c) if c < 1.0), "{re}: {why:?}");
        }
    }

    #[test]
    fn alternations_and_small_classes_split() {
        for (re, want) in [
            (".*[xz].*", "anchored X + anchored Z"),
            (".*[jq].*", "anchored J + anchored Q"),
            ("(qu|x)iz+", "anchored ^QUI + anchored ^XI"),
            (".*(zz|zy|z).*", "anchored Z"),
            ("[xz].*", "anchored ^X + anchored ^Z"),
        ] {
            let (plan, why) = chosen(re);
            assert_eq!(plan, want, "{re}");
            assert!(matches!(why, Why::Selective(_)), "{re}: {why:?}");
        }
        // Five vowels are too many to split, and too common.
        assert_eq!(chosen(".*[aeiou].*").0, "forward");
    }

    #[test]
    fn without_a_literal_from_either_end() {
        for (re, want) in [
            ("[^aeiou]*", "forward"),
            (".{7}", "forward"),
            (".*[aeiou]", "backward"),
        ] {
            assert_eq!(chosen(re), (want.to_string(), Why::NoLiteral), "{re}");
        }
    }

    #[test]
    fn rare_runs_of_classes_anchor() {
        for (re, want) in [
            (".*[aeiou]{4}.*", "run [AEIOU][AEIOU][AEIOU][AEIOU]"),
            (".*[aeiou]{5,}", "run [AEIOU][AEIOU][AEIOU][AEIOU][AEIOU]"),
            (".*[^aeiouy]{5}.*", "run [^][^][^][^][^]"),
            ("[aeiou]{3}.*", "run [AEIOU][AEIOU][AEIOU]"),
            (
                ".*[aeiou]{2}s[aeiou]{2}.*",
                "run [AEIOU][AEIOU]S[AEIOU][AEIOU]",
            ),
        ] {
            let (plan, why) = chosen(re);
            let consonants = "[BCDFGHJKLMNPQRSTVWXZ]";
            assert_eq!(plan.replace(consonants, "[^]"), want, "{re}");
            assert!(matches!(why, Why::Run(c) if c < 1.0), "{re}: {why:?}");
        }
        // Common runs, or none: forward.
        for re in [".*[aeiou]{2}.*", ".*[aeiou].*", ".*[^aeiou]{2}.*"] {
            assert_eq!(chosen(re).0, "forward", "{re}");
        }
    }

    #[test]
    fn forward_walks_report_words_in_order() {
        let lex = Lexicon::embedded();
        let a = lex.alphabet();
        let items = crate::query::regex::parse(a, ".*e.*").unwrap();
        let (plan, _) = choose(items, a.letters(), &Shares::of(&lex)).unwrap();
        assert!(plan.in_order());
        let mut seen: Vec<Vec<u8>> = Vec::new();
        let mut emit = |l: &[u8], m: &[u8], r: &[u8]| {
            let mut w: Vec<u8> = l.iter().rev().copied().collect();
            w.extend_from_slice(m);
            w.extend_from_slice(r);
            seen.push(w);
        };
        run_on(
            lex.arcs().root(),
            &plan,
            Lengths::ANY,
            0,
            &mut walk::Free,
            &mut emit,
        );
        assert_eq!(seen.len(), 120_964);
        assert!(seen.windows(2).all(|p| p[0] < p[1]));
    }
}
