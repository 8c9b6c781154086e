//! [`forward`]: every word a DFA accepts, read left to right.

use regex_automata::dfa::Automaton;
use regex_automata::util::primitives::StateID;

use super::{Buf, DfaSide, Emit};
use crate::lexicon::gaddag::MAX_WORD_LEN;
use crate::lexicon::raw::{Edges, Node};
use crate::query::Lengths;

/// Reports every word that `side`'s DFA accepts, read left to right, each
/// once and in alphabet order: from each first letter of the root, across
/// the separator, then the rest of the word (the keys `c1 SEP c2 … cn`),
/// with the edges in tile order. A prefix whose DFA state is dead is not
/// walked on: `[^aeiou]*` leaves every node after a vowel. For regexes
/// with no selective literal (`.*e.*`), which visit most words: no
/// recursion, one step of the DFA per edge, and none below a prefix whose
/// state is universal ([`DfaSide::is_universal`]): after the first E of
/// `.*e.*`, every word below is reported as it is read.
pub(crate) fn forward(root: Node<'_>, side: &DfaSide, lens: Lengths, emit: &mut Emit<'_>) {
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
    // still to read below the node that letter leads to, and the DFA state
    // after it (frame 0 holds the edges past the separator).
    let mut word = Buf::new();
    let mut stack: Vec<(Edges<'_>, StateID)> = Vec::with_capacity(MAX_WORD_LEN + 1);
    // The frames of a walk below a universal state.
    let mut below: Vec<Edges<'_>> = Vec::with_capacity(MAX_WORD_LEN + 1);
    for first in root.within(!1) {
        let code = first.code();
        let s = dfa.next_state(side.start, code);
        if !live(s) {
            continue;
        }
        word.push(code);
        if first.accepts() && lens.min <= 1 && accepts(s) {
            emit(&[], word.as_slice(), &[]);
        }
        match first.target().separator() {
            // The node just past the separator is never a word end.
            Some(sep) if lens.max > 1 && side.is_universal(s) => {
                every(sep, &mut word, lens, &mut below, emit);
                word.pop();
            }
            Some(sep) if lens.max > 1 => stack.push((sep.edges(), s)),
            _ => word.pop(),
        }
        // The word is as long as the stack is deep.
        while let Some((edges, s)) = stack.last_mut() {
            let Some(edge) = edges.next() else {
                stack.pop();
                word.pop();
                continue;
            };
            let code = edge.code();
            let next = dfa.next_state(*s, code);
            if !live(next) {
                continue;
            }
            word.push(code);
            let n = word.len;
            if edge.accepts() && n >= lens.min && accepts(next) {
                emit(&[], word.as_slice(), &[]);
            }
            if n >= lens.max {
                word.pop();
            } else if side.is_universal(next) {
                every(edge.target(), &mut word, lens, &mut below, emit);
                word.pop();
            } else {
                stack.push((edge.target().edges(), next));
            }
        }
    }
}

/// Reports every word `word` continues to below `node` (a node past the
/// separator), in alphabet order, within `lens`; `stack` is an empty
/// vector with room for [`MAX_WORD_LEN`] + 1 frames, left empty. `word`
/// is left as it was.
fn every<'a>(
    node: Node<'a>,
    word: &mut Buf,
    lens: Lengths,
    stack: &mut Vec<Edges<'a>>,
    emit: &mut Emit<'_>,
) {
    stack.push(node.edges());
    // Frame k holds the edges below the k-th letter added here.
    while let Some(edges) = stack.last_mut() {
        let Some(edge) = edges.next() else {
            stack.pop();
            if !stack.is_empty() {
                word.pop();
            }
            continue;
        };
        word.push(edge.code());
        let n = word.len;
        if edge.accepts() && n >= lens.min {
            emit(&[], word.as_slice(), &[]);
        }
        if n < lens.max {
            stack.push(edge.target().edges());
        } else {
            word.pop();
        }
    }
}
