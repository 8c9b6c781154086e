//! Every word of a lexicon, in alphabet order, one at a time:
//! [`Lexicon::for_each_word`].
//!
//! A word `W = w1 w2 ... wn` of two tiles or more has the GADDAG key
//! `w1 SEP w2 ... wn` (its first letter as the reversed prefix, then the
//! rest); a one-tile word is the whole-word key `w1`. So from the root,
//! each first letter in turn, then the separator, then a depth-first walk
//! that takes letters in code order, meets every word once, in alphabet
//! order: CAT = `C SEP A T`, CATS = `C SEP A T S`, then CAW = `C SEP A W`.
//! The walk holds the arc table's edges still to visit for each tile of
//! the current word, and allocates nothing.

use std::ops::ControlFlow;

use crate::lexicon::Lexicon;
use crate::lexicon::gaddag::{MAX_WORD_LEN, SEPARATOR};
use crate::lexicon::raw::Edges;

impl Lexicon {
    /// Calls `f` with the tile codes of every word of `min` to `max` tiles
    /// (both included), in alphabet order, until `f` breaks. Only the
    /// lexicon's nodes down to depth `max` are visited, so short lengths
    /// are quick to list.
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// let lex = lexq::Lexicon::embedded();
    /// let mut twos = Vec::new();
    /// lex.for_each_word(2, 2, |w| {
    ///     twos.push(lex.alphabet().decode(w));
    ///     ControlFlow::Continue(())
    /// });
    /// assert_eq!((twos.len(), &twos[..3]), (96, &["AA", "AB", "AD"].map(String::from)[..]));
    /// ```
    pub fn for_each_word(
        &self,
        min: usize,
        max: usize,
        mut f: impl FnMut(&[u8]) -> ControlFlow<()>,
    ) {
        let max = max.min(self.max_word_len()).min(MAX_WORD_LEN);
        let min = min.max(1);
        if min > max {
            return;
        }
        let arcs = self.arcs();
        let root = arcs.root();
        // word[..depth] is the word so far; stack[i] the edges after
        // word[i] (past the separator for i = 0) still to visit.
        let mut word = [0u8; MAX_WORD_LEN];
        let mut stack: [Edges<'_>; MAX_WORD_LEN] = std::array::from_fn(|_| arcs.node_at(0).edges());
        for first in root.edges() {
            let code = first.code();
            if code == SEPARATOR {
                continue;
            }
            word[0] = code;
            if first.accepts() && min <= 1 && f(&word[..1]).is_break() {
                return;
            }
            if max < 2 {
                continue;
            }
            let Some(rest) = first.target().separator() else {
                continue;
            };
            stack[0] = rest.edges();
            let mut depth = 1; // entries of `stack` in use
            while depth > 0 {
                let Some(next) = stack[depth - 1].next() else {
                    depth -= 1;
                    continue;
                };
                let code = next.code();
                if code == SEPARATOR {
                    // Only in a damaged table: one separator a key.
                    continue;
                }
                word[depth] = code;
                let len = depth + 1;
                if next.accepts() && len >= min && f(&word[..len]).is_break() {
                    return;
                }
                if len < max {
                    stack[depth] = next.target().edges();
                    depth += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stops_when_asked() {
        let lex = Lexicon::embedded();
        let mut n = 0;
        lex.for_each_word(1, 63, |_| {
            n += 1;
            if n == 10 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        assert_eq!(n, 10);
        let mut none = 0;
        lex.for_each_word(5, 4, |_| {
            none += 1;
            ControlFlow::Continue(())
        });
        assert_eq!(none, 0);
    }
}
