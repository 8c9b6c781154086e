//! The words added and removed between two lexicons, streamed.
//!
//! Both lexicons are read word by word in alphabet order at the same time
//! (each word `w1 w2 ... wn` from its GADDAG key `w1 SEP w2 ... wn`, a
//! depth-first walk taking letters in code order) and merged as two sorted
//! lists are: memory holds one path per lexicon, never a word list. Both
//! must have the same alphabet (the same tiles in the same order, so that
//! code order is the same word order); lexicons of different alphabets
//! are an error, not compared as text, since the same spelling may be
//! different tiles in each (Spanish CH is one tile, English C H two).

use std::ops::ControlFlow;

use crate::error::{Error, Result};
use crate::lexicon::Lexicon;
use crate::lexicon::gaddag::{MAX_WORD_LEN, SEPARATOR};
use crate::lexicon::raw::Edges;

/// Which side of a [`diff`] a word is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Change {
    /// In the new lexicon only.
    Added,
    /// In the old lexicon only.
    Removed,
}

/// Calls `f` with every word in `new` and not in `old` ([`Change::Added`])
/// and every word in `old` and not in `new` ([`Change::Removed`]), in one
/// alphabet order, until `f` breaks. An error if the alphabets differ.
///
/// ```
/// use lexq::{Alphabet, Lexicon, WordList, build};
/// use lexq::diff::{Change, diff};
/// let lex = |words: &[u8]| -> lexq::Result<Lexicon> {
///     let mut list = WordList::new(Alphabet::english());
///     list.read_bytes("list".as_ref(), words)?;
///     Lexicon::from_bytes(build(&list, &mut ())?.bytes)
/// };
/// let (old, new) = (lex(b"cat\ncats\ndog\n")?, lex(b"cat\ndog\ndogs\n")?);
/// let mut seen = Vec::new();
/// diff(&old, &new, |change, word| {
///     seen.push((change, new.alphabet().decode(word)));
///     std::ops::ControlFlow::Continue(())
/// })?;
/// assert_eq!(seen, [(Change::Removed, "CATS".into()), (Change::Added, "DOGS".into())]);
/// # Ok::<(), lexq::Error>(())
/// ```
pub fn diff(
    old: &Lexicon,
    new: &Lexicon,
    mut f: impl FnMut(Change, &[u8]) -> ControlFlow<()>,
) -> Result<()> {
    if old.alphabet().to_text() != new.alphabet().to_text() {
        return Err(Error::Diff {
            old: old.alphabet().name().to_string(),
            new: new.alphabet().name().to_string(),
        });
    }
    let mut olds = Stream::new(old);
    let mut news = Stream::new(new);
    let mut x = olds.next_word();
    let mut y = news.next_word();
    loop {
        let step = match (x, y) {
            (None, None) => return Ok(()),
            (Some(_), None) => Some(std::cmp::Ordering::Less),
            (None, Some(_)) => Some(std::cmp::Ordering::Greater),
            (Some(_), Some(_)) => Some(olds.word().cmp(news.word())),
        };
        match step {
            Some(std::cmp::Ordering::Less) => {
                if f(Change::Removed, olds.word()).is_break() {
                    return Ok(());
                }
                x = olds.next_word();
            }
            Some(std::cmp::Ordering::Greater) => {
                if f(Change::Added, news.word()).is_break() {
                    return Ok(());
                }
                y = news.next_word();
            }
            _ => {
                x = olds.next_word();
                y = news.next_word();
            }
        }
    }
}

/// The words of a lexicon one at a time, in alphabet order: a depth-first
/// walk of the arc table with, for each tile of the current word, the
/// edges still to visit (as [`Lexicon::for_each_word`] walks, but stopping
/// at each word). CAT = `C SEP A T`, then CATS = `C SEP A T S`, then
/// CAW = `C SEP A W`.
///
/// A list's edges come in increasing code order (the arc table's rule,
/// which [`Lexicon::verify`] checks); an edge that breaks it, which only a
/// damaged table holds, is passed over, so the words always come out in
/// strictly increasing order and the merge stays a merge.
struct Stream<'a> {
    /// The root's edges still to visit (each word's first letter).
    firsts: Edges<'a>,
    /// The code of the last first letter taken.
    first: u8,
    /// `stack[i]`: the edges after `word[i]` still to visit (past the
    /// separator for `i` = 0); `last[i]` the code last taken from them.
    stack: [Edges<'a>; MAX_WORD_LEN],
    last: [u8; MAX_WORD_LEN],
    /// Entries of `stack` in use.
    depth: usize,
    word: [u8; MAX_WORD_LEN],
    len: usize,
}

impl<'a> Stream<'a> {
    fn new(lex: &'a Lexicon) -> Stream<'a> {
        let arcs = lex.arcs();
        Stream {
            firsts: arcs.root().edges(),
            first: SEPARATOR,
            stack: std::array::from_fn(|_| arcs.node_at(0).edges()),
            last: [SEPARATOR; MAX_WORD_LEN],
            depth: 0,
            word: [0; MAX_WORD_LEN],
            len: 0,
        }
    }

    fn word(&self) -> &[u8] {
        &self.word[..self.len]
    }

    /// Moves to the next word; `None` after the last.
    fn next_word(&mut self) -> Option<()> {
        loop {
            if self.depth == 0 {
                let edge = self.firsts.next()?;
                let code = edge.code();
                // The separator (code 0) is never a first letter.
                if code <= self.first {
                    continue;
                }
                self.first = code;
                self.word[0] = code;
                self.len = 1;
                if let Some(rest) = edge.target().separator() {
                    self.stack[0] = rest.edges();
                    self.last[0] = SEPARATOR;
                    self.depth = 1;
                }
                if edge.accepts() {
                    return Some(());
                }
                continue;
            }
            let d = self.depth - 1;
            let Some(edge) = self.stack[d].next() else {
                self.depth -= 1;
                continue;
            };
            let code = edge.code();
            if code <= self.last[d] {
                continue;
            }
            self.last[d] = code;
            // The letter after the first `depth` ones.
            self.word[self.depth] = code;
            self.len = self.depth + 1;
            if self.depth + 1 < MAX_WORD_LEN {
                self.stack[self.depth] = edge.target().edges();
                self.last[self.depth] = SEPARATOR;
                self.depth += 1;
            }
            if edge.accepts() {
                return Some(());
            }
        }
    }
}
