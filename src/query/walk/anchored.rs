//! [`anchored`]: from a run of letters known to be in the word, outwards.

use regex_automata::util::primitives::StateID;

use super::{Buf, Emit, Side};
use crate::lexicon::gaddag::SEPARATOR;
use crate::lexicon::raw::Node;
use crate::query::Lengths;

struct Anchored<'w, 'e> {
    left: &'w Side,
    right: &'w Side,
    anchor: &'w [u8],
    lens: Lengths,
    lbuf: Buf,
    rbuf: Buf,
    emit: &'w mut Emit<'e>,
}

/// Reports every word `X A Y` where `A` is `anchor`, `X` is accepted by
/// `left` (read right to left, starting in state `ls`) and `Y` by `right`
/// (starting in state `rs`). `at` is the node after `anchor` read right to
/// left from the root, `word` whether that path is a whole key. With an
/// empty anchor only `X` may be non-empty (each word is then met once,
/// whole and reversed). Edges come in tile order, so the words right of a
/// fixed start come out in alphabet order.
#[allow(clippy::too_many_arguments)]
pub(crate) fn anchored(
    at: Node<'_>,
    word: bool,
    anchor: &[u8],
    left: &Side,
    ls: Option<StateID>,
    right: &Side,
    rs: Option<StateID>,
    lens: Lengths,
    emit: &mut Emit<'_>,
) {
    // The buffers hold a word of the longest length a lexicon may have
    // (a crafted file's header may claim more).
    let lens = lens.capped();
    if anchor.len() > lens.max {
        return;
    }
    let mut w = Anchored {
        left,
        right,
        anchor,
        lens,
        lbuf: Buf::new(),
        rbuf: Buf::new(),
        emit,
    };
    let ls = ls.unwrap_or_else(|| left.start());
    let rs = rs.unwrap_or_else(|| right.start());
    w.go_left(at, word, ls, rs);
}

impl Anchored<'_, '_> {
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
        } else {
            for edge in at.edges() {
                let code = edge.code();
                if code == SEPARATOR {
                    if cross {
                        self.go_right(edge.target(), false, rs);
                    }
                    continue;
                }
                if let Some(next) = self.left.step(ls, code) {
                    self.lbuf.push(code);
                    self.go_left(edge.target(), edge.accepts(), next, rs);
                    self.lbuf.pop();
                }
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
        for edge in at.within(!1) {
            let code = edge.code();
            if let Some(next) = self.right.step(rs, code) {
                self.rbuf.push(code);
                self.go_right(edge.target(), edge.accepts(), next);
                self.rbuf.pop();
            }
        }
    }
}
