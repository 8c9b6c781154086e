//! The three traversals every word query is made of.
//!
//! * [`anchored()`]: start at a run of letters (the anchor) known to be in
//!   the word, extend it leftwards while a left-hand automaton allows, cross
//!   the separator, extend rightwards while a right-hand automaton allows.
//!   With the right automata this is `contains`, `starts`, `ends`, a
//!   wildcard pattern or a regular expression.
//! * [`forward()`]: every word read left to right from its first letter,
//!   with a DFA pruning dead prefixes: regexes with no selective literal.
//! * [`rack()`]: the shape of `anchored`, but each letter spends a tile
//!   from a rack (or a blank): anagrams, sub-anagrams, and words through
//!   letters on the board, asking only for the edges whose letters the rack
//!   still holds.
//!
//! All walk the arc table ([`crate::lexicon::raw`]), with fixed buffers on
//! the stack, and never allocate. `anchored` and `forward` take a
//! [`Bound`]: the query commands pass [`Free`], which refuses nothing and
//! compiles away; `find` passes its conditions that count letters (at
//! most one Q, two vowels...) and its step budget, which refuse a letter
//! before the walk reads on below it. One traversal serves both.
//! `anchored` and `rack` may report a word more than once (once per place
//! the anchor occurs in it); the caller sorts and deduplicates.

mod anchored;
mod forward;
mod rack;

pub(crate) use anchored::{Start, anchored};
pub(crate) use forward::forward;
pub(crate) use rack::{Tiles, anagram_from, rack};

use regex_automata::dfa::Automaton;
use regex_automata::dfa::dense::DFA;
use regex_automata::util::primitives::StateID;

use crate::alphabet::letterset::LetterSet;
use crate::lexicon::gaddag::MAX_WORD_LEN;
use crate::lexicon::raw::Node;
use crate::query::Lengths;

/// What a walk must respect at each letter it places, beside its
/// automata: `find`'s conditions that count letters, its step budget.
///
/// The walk asks [`Bound::allowed`] before reading a node's edges (only
/// edges of those letters are read), [`Bound::push`] for each letter it
/// places (`None`: not placed, the walk reads on at the next edge) and
/// [`Bound::pop`] when it takes the letter back. For `--regex '.*e.*'
/// --vowels -2`, the third vowel is refused: no word below it is read.
pub(crate) trait Bound {
    /// Whether [`Bound::allowed`] is every letter, always: the walk then
    /// never asks.
    const ALL: bool;
    /// What [`Bound::pop`] needs to take a letter back.
    type Saved: Copy + Default;
    /// The letters that may be placed next (bit `c` for code `c`).
    fn allowed(&self) -> u64;
    /// Counts `code`, placed next (in the word or, for an anchor's
    /// letters, before the walk starts): `None` if refused.
    fn push(&mut self, code: u8) -> Option<Self::Saved>;
    /// Takes back the `code` a [`Bound::push`] counted.
    fn pop(&mut self, code: u8, saved: Self::Saved);
    /// Counts the letters of an anchor (a run known to be in the word,
    /// placed before the walk reads on from it). By default as
    /// [`Bound::push`] does.
    fn push_anchor(&mut self, code: u8) -> Option<Self::Saved> {
        self.push(code)
    }
}

/// The bound of the query commands: nothing refused.
pub(crate) struct Free;

impl Bound for Free {
    const ALL: bool = true;
    type Saved = ();
    #[inline(always)]
    fn allowed(&self) -> u64 {
        !0
    }
    #[inline(always)]
    fn push(&mut self, _: u8) -> Option<()> {
        Some(())
    }
    #[inline(always)]
    fn pop(&mut self, _: u8, _: ()) {}
}

/// Counts an anchor's letters into `bound`, in order: what to take back
/// with [`unpush_anchor`] (`None` if one is refused, with nothing left
/// counted). `saved` holds a slot for each letter.
pub(crate) fn push_anchor<B: Bound>(bound: &mut B, anchor: &[u8], saved: &mut [B::Saved]) -> bool {
    for (i, &c) in anchor.iter().enumerate() {
        match bound.push_anchor(c) {
            Some(s) => saved[i] = s,
            None => {
                unpush_anchor(bound, &anchor[..i], &saved[..i]);
                return false;
            }
        }
    }
    true
}

/// Takes back the letters [`push_anchor`] counted.
pub(crate) fn unpush_anchor<B: Bound>(bound: &mut B, anchor: &[u8], saved: &[B::Saved]) {
    for (&c, &s) in anchor.iter().zip(saved).rev() {
        bound.pop(c, s);
    }
}

/// What may stand on one side of the anchor.
#[derive(Clone, Debug)]
pub enum Side {
    /// Nothing: the anchor is at that end of the word.
    Nothing,
    /// Any run of letters, including none.
    Anything,
    /// Runs of letters an anchored DFA accepts (a reverse DFA on the left,
    /// where letters are read right to left).
    Dfa(Box<DfaSide>),
}

/// An anchored DFA over tile codes with its start state, and which of its
/// states are universal.
#[derive(Clone, Debug)]
pub struct DfaSide {
    pub(crate) dfa: DFA<Vec<u32>>,
    pub(crate) start: StateID,
    /// Bit `i` for the state of index `i` (its id shifted right by the
    /// DFA's `stride2`) when it is universal.
    universal: Vec<u64>,
}

/// The most states reachable from the start for which [`DfaSide::new`]
/// looks for universal states (none are looked for in a larger DFA).
const UNIVERSAL_STATES: usize = 4096;

impl DfaSide {
    /// `dfa` from `start`, over the tile codes of `letters`.
    pub(crate) fn new(dfa: DFA<Vec<u32>>, start: StateID, letters: LetterSet) -> DfaSide {
        let universal = universal_states(&dfa, start, letters);
        DfaSide {
            dfa,
            start,
            universal,
        }
    }

    /// Whether some state reachable from the start is universal.
    pub(crate) fn has_universal(&self) -> bool {
        self.universal.iter().any(|&bits| bits != 0)
    }

    /// Whether every run of letters read on from `s` (none included) is
    /// accepted: in `.*e.*`, the state after the first E; in
    /// `.*[aeiou]{4}.*`, the state after four vowels in a row. A walk in
    /// such a state need not step the DFA: every word below matches.
    #[inline(always)]
    pub(crate) fn is_universal(&self, s: StateID) -> bool {
        let i = s.as_usize() >> self.dfa.stride2();
        self.universal
            .get(i >> 6)
            .is_some_and(|bits| bits >> (i & 63) & 1 != 0)
    }
}

/// The universal states of `dfa` among those reachable from `start`
/// reading `letters` (see [`DfaSide::is_universal`]), as a bit set by
/// state index: the greatest set of states that accept the end of input
/// and whose every letter leads back into the set. Empty if more than
/// [`UNIVERSAL_STATES`] states are reachable.
fn universal_states(dfa: &DFA<Vec<u32>>, start: StateID, letters: LetterSet) -> Vec<u64> {
    let stride2 = dfa.stride2();
    let index = |s: StateID| s.as_usize() >> stride2;
    let dead = |s: StateID| dfa.is_dead_state(s) || dfa.is_quit_state(s);
    if dead(start) {
        return Vec::new();
    }
    // The reachable states (breadth first) and, for each, the positions in
    // `states` of its letters' targets (`None` for a dead one).
    let mut states = vec![start];
    let mut seen = std::collections::HashMap::from([(index(start), 0usize)]);
    let mut next: Vec<Vec<Option<usize>>> = Vec::new();
    let mut k = 0;
    while k < states.len() {
        let s = states[k];
        let mut out = Vec::with_capacity(letters.len());
        for code in letters.iter() {
            let t = dfa.next_state(s, code);
            if dead(t) {
                out.push(None);
                continue;
            }
            let len = states.len();
            let at = *seen.entry(index(t)).or_insert(len);
            if at == len {
                if len >= UNIVERSAL_STATES {
                    return Vec::new();
                }
                states.push(t);
            }
            out.push(Some(at));
        }
        next.push(out);
        k += 1;
    }
    // Start from the states that accept here, and take out each that can
    // leave the set, until none can.
    let mut keep: Vec<bool> = states
        .iter()
        .map(|&s| dfa.is_match_state(dfa.next_eoi_state(s)))
        .collect();
    let mut changed = true;
    while changed {
        changed = false;
        for k in 0..states.len() {
            if keep[k] && !next[k].iter().all(|t| t.is_some_and(|t| keep[t])) {
                keep[k] = false;
                changed = true;
            }
        }
    }
    let mut bits = Vec::new();
    for (s, _) in states.iter().zip(&keep).filter(|(_, k)| **k) {
        let i = index(*s);
        if bits.len() <= i >> 6 {
            bits.resize((i >> 6) + 1, 0u64);
        }
        bits[i >> 6] |= 1 << (i & 63);
    }
    bits
}

impl Side {
    #[inline]
    pub(crate) fn start(&self) -> StateID {
        match self {
            Side::Dfa(d) => d.start,
            _ => StateID::ZERO,
        }
    }

    /// The state after reading `code`, or `None` if no accepted run
    /// continues that way.
    #[inline]
    pub(crate) fn step(&self, s: StateID, code: u8) -> Option<StateID> {
        match self {
            Side::Nothing => None,
            Side::Anything => Some(s),
            Side::Dfa(d) => {
                let n = d.dfa.next_state(s, code);
                if d.dfa.is_dead_state(n) || d.dfa.is_quit_state(n) {
                    None
                } else {
                    Some(n)
                }
            }
        }
    }

    /// Whether the run read so far is accepted.
    #[inline]
    pub(crate) fn accepts(&self, s: StateID) -> bool {
        match self {
            Side::Nothing | Side::Anything => true,
            Side::Dfa(d) => d.dfa.is_match_state(d.dfa.next_eoi_state(s)),
        }
    }

    /// Whether a letter could be read at all (false only for `Nothing`).
    #[inline]
    pub(super) fn can_grow(&self) -> bool {
        !matches!(self, Side::Nothing)
    }
}

/// A word found by a walk, in three pieces: the letters left of the anchor
/// in reverse order, the anchor, the letters right of it.
pub(crate) type Emit<'e> = dyn FnMut(&[u8], &[u8], &[u8]) + 'e;

/// The node after `codes` read right to left from `root`, and whether
/// that path is a whole key (`codes` is a word); `None` if no key starts
/// so.
pub(crate) fn follow_reversed<'a>(root: Node<'a>, codes: &[u8]) -> Option<(Node<'a>, bool)> {
    let mut node = root;
    let mut word = false;
    for &c in codes.iter().rev() {
        let e = node.edge(c)?;
        (node, word) = (e.target(), e.accepts());
    }
    Some((node, word))
}

impl Lengths {
    /// The lengths, the longest capped at [`MAX_WORD_LEN`].
    pub(super) fn capped(self) -> Lengths {
        Lengths {
            min: self.min,
            max: self.max.min(MAX_WORD_LEN),
        }
    }
}

/// A run of letters a walk has placed, without allocating.
pub(super) struct Buf {
    pub(super) codes: [u8; MAX_WORD_LEN + 1],
    pub(super) len: usize,
}

impl Buf {
    pub(super) fn new() -> Buf {
        Buf {
            codes: [0; MAX_WORD_LEN + 1],
            len: 0,
        }
    }
    #[inline]
    pub(super) fn push(&mut self, c: u8) {
        self.codes[self.len & MAX_WORD_LEN] = c;
        self.len += 1;
    }
    #[inline]
    pub(super) fn pop(&mut self) {
        self.len -= 1;
    }
    #[inline]
    pub(super) fn as_slice(&self) -> &[u8] {
        &self.codes[..self.len.min(MAX_WORD_LEN + 1)]
    }
}
