//! [`forward`]: every word a DFA accepts, read left to right.

use regex_automata::dfa::Automaton;
use regex_automata::util::primitives::StateID;

use super::{Bound, Buf, DfaSide, Emit};
use crate::lexicon::gaddag::MAX_WORD_LEN;
use crate::lexicon::raw::{Edge, Edges, Node};
use crate::query::Lengths;

/// A node's edges still to read, and the letters `bound` allowed there
/// (every one if `B::ALL`).
struct Frame<'a> {
    edges: Edges<'a>,
    set: u64,
}

impl<'a> Frame<'a> {
    fn new<B: Bound>(node: Node<'a>, bound: &B) -> Frame<'a> {
        Frame {
            edges: node.edges(),
            set: if B::ALL { !0 } else { bound.allowed() },
        }
    }

    /// The next edge of an allowed letter.
    #[inline(always)]
    fn next<B: Bound>(&mut self) -> Option<Edge<'a>> {
        loop {
            let e = self.edges.next()?;
            if B::ALL || self.set >> e.code() & 1 != 0 {
                return Some(e);
            }
        }
    }
}

/// Reports every word that `side`'s DFA accepts, read left to right, each
/// once and in alphabet order, each letter as `bound` allows: from each
/// first letter of the root, across the separator, then the rest of the
/// word (the keys `c1 SEP c2 … cn`), with the edges in tile order. A
/// prefix whose DFA state is dead is not walked on: `[^aeiou]*` leaves
/// every node after a vowel. For regexes with no selective literal
/// (`.*e.*`), which visit most words: no recursion, one step of the DFA
/// per edge, and none below a prefix whose state is universal
/// ([`DfaSide::is_universal`]): after the first E of `.*e.*`, every word
/// below is reported as it is read.
pub(crate) fn forward<B: Bound>(
    root: Node<'_>,
    side: &DfaSide,
    lens: Lengths,
    bound: &mut B,
    emit: &mut Emit<'_>,
) {
    let lens = lens.capped();
    if lens.max == 0 {
        return;
    }
    let dfa = &side.dfa;
    // One comparison for the usual state, which is not special.
    let live =
        |s: StateID| !dfa.is_special_state(s) || !(dfa.is_dead_state(s) || dfa.is_quit_state(s));
    let accepts = |s: StateID| dfa.is_match_state(dfa.next_eoi_state(s));
    // The word so far, and a frame for each of its letters: the edges
    // still to read below the node that letter leads to, the DFA state
    // after it and what takes it back from the bound (frame 0 holds the
    // edges past the separator).
    let mut word = Buf::new();
    let mut stack: Vec<(Frame<'_>, StateID, B::Saved)> = Vec::with_capacity(MAX_WORD_LEN + 1);
    // The frames of a walk below a universal state.
    let mut below: Vec<(Frame<'_>, B::Saved)> = Vec::with_capacity(MAX_WORD_LEN + 1);
    let first_set = if B::ALL { !1 } else { bound.allowed() & !1 };
    for first in root.within(first_set) {
        let code = first.code();
        let s = dfa.next_state(side.start, code);
        if !live(s) {
            continue;
        }
        let Some(saved) = bound.push(code) else {
            continue;
        };
        word.push(code);
        if first.accepts() && lens.min <= 1 && accepts(s) {
            emit(&[], word.as_slice(), &[]);
        }
        match first.target().separator() {
            // The node just past the separator is never a word end.
            Some(sep) if lens.max > 1 && side.is_universal(s) => {
                every(sep, &mut word, lens, bound, &mut below, emit);
            }
            Some(sep) if lens.max > 1 => stack.push((Frame::new(sep, bound), s, saved)),
            _ => {}
        }
        if stack.is_empty() {
            word.pop();
            bound.pop(code, saved);
        }
        // The word is as long as the stack is deep.
        while let Some((frame, s, _)) = stack.last_mut() {
            let Some(edge) = frame.next::<B>() else {
                let (_, _, saved) = stack.pop().expect("a frame");
                let code = word.as_slice()[word.len - 1];
                word.pop();
                bound.pop(code, saved);
                continue;
            };
            let code = edge.code();
            let next = dfa.next_state(*s, code);
            if !live(next) {
                continue;
            }
            let Some(saved) = bound.push(code) else {
                continue;
            };
            word.push(code);
            let n = word.len;
            if edge.accepts() && n >= lens.min && accepts(next) {
                emit(&[], word.as_slice(), &[]);
            }
            let target = edge.target();
            if n < lens.max && !target.is_empty() {
                if !side.is_universal(next) {
                    stack.push((Frame::new(target, bound), next, saved));
                    continue;
                }
                every(target, &mut word, lens, bound, &mut below, emit);
            }
            word.pop();
            bound.pop(code, saved);
        }
    }
}

/// Reports every word `word` continues to below `node` (a node past the
/// separator), in alphabet order, within `lens` and as `bound` allows;
/// `stack` is an empty vector with room for [`MAX_WORD_LEN`] + 1 frames,
/// left empty. `word` and `bound` are left as they were.
fn every<'a, B: Bound>(
    node: Node<'a>,
    word: &mut Buf,
    lens: Lengths,
    bound: &mut B,
    stack: &mut Vec<(Frame<'a>, B::Saved)>,
    emit: &mut Emit<'_>,
) {
    stack.push((Frame::new(node, bound), B::Saved::default()));
    // Frame k holds the edges below the k-th letter added here.
    while let Some((frame, _)) = stack.last_mut() {
        let Some(edge) = frame.next::<B>() else {
            let (_, saved) = stack.pop().expect("a frame");
            if !stack.is_empty() {
                let code = word.as_slice()[word.len - 1];
                word.pop();
                bound.pop(code, saved);
            }
            continue;
        };
        let code = edge.code();
        let Some(saved) = bound.push(code) else {
            continue;
        };
        word.push(code);
        let n = word.len;
        if edge.accepts() && n >= lens.min {
            emit(&[], word.as_slice(), &[]);
        }
        let below = edge.target();
        if n < lens.max && !below.is_empty() {
            stack.push((Frame::new(below, bound), saved));
        } else {
            // A word's last letter (no edge below) takes no frame.
            word.pop();
            bound.pop(code, saved);
        }
    }
}
