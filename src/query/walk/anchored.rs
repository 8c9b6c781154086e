//! [`anchored`]: from a run of letters known to be in the word, outwards.

use regex_automata::util::primitives::StateID;

use super::{Bound, Buf, Emit, Side};
use crate::lexicon::gaddag::SEPARATOR;
use crate::lexicon::raw::{Edge, Node};
use crate::query::Lengths;

struct Anchored<'w, 'e, B: Bound> {
    left: &'w Side,
    right: &'w Side,
    anchor: &'w [u8],
    barred_left: u64,
    lens: Lengths,
    lbuf: Buf,
    rbuf: Buf,
    bound: &'w mut B,
    emit: &'w mut Emit<'e>,
}

/// Where an anchored walk starts and what stands around its anchor.
pub(crate) struct Start<'w> {
    /// The node after the anchor read right to left from the root.
    pub at: Node<'w>,
    /// Whether that path is a whole key (the anchor is a word).
    pub word: bool,
    pub anchor: &'w [u8],
    pub left: &'w Side,
    /// The left automaton's state at the anchor (its start if `None`).
    pub ls: Option<StateID>,
    pub right: &'w Side,
    /// The right automaton's state at the anchor (its start if `None`).
    pub rs: Option<StateID>,
    /// Letters never placed left of the anchor: with the anchor's one
    /// letter, the walk meets each word at that letter's first place.
    pub barred_left: u64,
}

impl<'w> Start<'w> {
    /// A walk from `at`, the node after `anchor` read right to left from
    /// the root (`word`: that path is a whole key), both automata in their
    /// start states, no letter barred.
    pub(crate) fn new(
        at: Node<'w>,
        word: bool,
        anchor: &'w [u8],
        left: &'w Side,
        right: &'w Side,
    ) -> Start<'w> {
        Start {
            at,
            word,
            anchor,
            left,
            ls: None,
            right,
            rs: None,
            barred_left: 0,
        }
    }
}

/// Reports every word `X A Y` where `A` is `anchor`, `X` is accepted by
/// `left` (read right to left, starting in state `ls`) and `Y` by `right`
/// (starting in state `rs`), each letter of `X` and `Y` as `bound` allows
/// (the anchor's letters already counted in it). With an empty anchor
/// only `X` may be non-empty (each word is then met once, whole and
/// reversed). Edges come in tile order, so the words right of a fixed
/// start come out in alphabet order.
pub(crate) fn anchored<B: Bound>(s: Start<'_>, lens: Lengths, bound: &mut B, emit: &mut Emit<'_>) {
    // The buffers hold a word of the longest length a lexicon may have
    // (a crafted file's header may claim more).
    let lens = lens.capped();
    if s.anchor.len() > lens.max {
        return;
    }
    let mut w = Anchored {
        left: s.left,
        right: s.right,
        anchor: s.anchor,
        barred_left: s.barred_left,
        lens,
        lbuf: Buf::new(),
        rbuf: Buf::new(),
        bound,
        emit,
    };
    let ls = s.ls.unwrap_or_else(|| s.left.start());
    let rs = s.rs.unwrap_or_else(|| s.right.start());
    w.go_left(s.at, s.word, ls, rs);
}

impl<B: Bound> Anchored<'_, '_, B> {
    fn len(&self) -> usize {
        self.lbuf.len + self.anchor.len() + self.rbuf.len
    }

    fn go_left(&mut self, at: Node<'_>, word: bool, ls: StateID, rs: StateID) {
        let n = self.len();
        let left_done = self.left.accepts(ls);
        if left_done && word && n >= self.lens.min && self.right.accepts(rs) {
            (self.emit)(self.lbuf.as_slice(), self.anchor, &[]);
        }
        if n >= self.lens.max {
            return;
        }
        // Whether to cross the separator here. The node just past it is
        // never a word end.
        let cross = left_done && self.right.can_grow() && !self.anchor.is_empty();
        if !self.left.can_grow() {
            if cross {
                if let Some(sep) = at.separator() {
                    self.go_right(sep, false, rs);
                }
            }
        } else if B::ALL && self.barred_left == 0 {
            for edge in at.edges() {
                self.left_edge(edge, cross, ls, rs);
            }
        } else {
            let set = self.bound.allowed() & !self.barred_left & !1 | cross as u64;
            for edge in at.within(set) {
                self.left_edge(edge, cross, ls, rs);
            }
        }
    }

    #[inline(always)]
    fn left_edge(&mut self, edge: Edge<'_>, cross: bool, ls: StateID, rs: StateID) {
        let code = edge.code();
        if code == SEPARATOR {
            if cross {
                self.go_right(edge.target(), false, rs);
            }
            return;
        }
        if let Some(next) = self.left.step(ls, code) {
            if let Some(saved) = self.bound.push(code) {
                self.lbuf.push(code);
                self.go_left(edge.target(), edge.accepts(), next, rs);
                self.lbuf.pop();
                self.bound.pop(code, saved);
            }
        }
    }

    fn go_right(&mut self, at: Node<'_>, word: bool, rs: StateID) {
        let n = self.len();
        if word && n >= self.lens.min && self.right.accepts(rs) {
            (self.emit)(self.lbuf.as_slice(), self.anchor, self.rbuf.as_slice());
        }
        if n >= self.lens.max {
            return;
        }
        let set = if B::ALL {
            !1
        } else {
            self.bound.allowed() & !1
        };
        for edge in at.within(set) {
            let code = edge.code();
            if let Some(next) = self.right.step(rs, code) {
                if let Some(saved) = self.bound.push(code) {
                    self.rbuf.push(code);
                    self.go_right(edge.target(), edge.accepts(), next);
                    self.rbuf.pop();
                    self.bound.pop(code, saved);
                }
            }
        }
    }
}
