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
use crate::gaddag::{MAX_WORD_LEN, SEPARATOR};
use crate::graph::Graph;
use crate::letterset::LetterSet;
use crate::lexicon::Lexicon;

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
    let (a, b) = (old.fst_graph(), new.fst_graph());
    let mut olds = Stream::new(&a);
    let mut news = Stream::new(&b);
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
/// walk with its path on a fixed stack, each node's letters taken in code
/// order (the fst's own edge order is another).
struct Stream<'g, G: Graph> {
    g: &'g G,
    /// The first letters still to visit.
    firsts: LetterSet,
    /// Under the current first letter, per letter read: the node and the
    /// letters after it still to visit.
    stack: Vec<(G::Node, LetterSet)>,
    word: [u8; MAX_WORD_LEN],
    len: usize,
}

impl<'g, G: Graph> Stream<'g, G> {
    fn new(g: &'g G) -> Stream<'g, G> {
        Stream {
            g,
            firsts: g.letters(g.root()),
            stack: Vec::with_capacity(MAX_WORD_LEN),
            word: [0; MAX_WORD_LEN],
            len: 0,
        }
    }

    fn word(&self) -> &[u8] {
        &self.word[..self.len]
    }

    /// Moves to the next word; `None` after the last.
    fn next_word(&mut self) -> Option<()> {
        let g = self.g;
        loop {
            let depth = self.stack.len();
            if depth == 0 {
                let c = self.firsts.iter().next()?;
                self.firsts.0 &= !(1u64 << c);
                let Some(edge) = g.edge(g.root(), c) else {
                    continue;
                };
                let (at, word) = g.follow_edge(edge);
                self.word[0] = c;
                self.len = 1;
                if let Some(sep) = g.edge(at, SEPARATOR) {
                    let rest = g.target(sep);
                    self.stack.push((rest, g.letters(rest)));
                }
                if word {
                    return Some(());
                }
                continue;
            }
            let (node, left) = &mut self.stack[depth - 1];
            let Some(c) = left.iter().next() else {
                self.stack.pop();
                continue;
            };
            left.0 &= !(1u64 << c);
            let Some(edge) = g.edge(*node, c) else {
                continue;
            };
            let (at, word) = g.follow_edge(edge);
            // The letter after the first `depth` ones.
            self.word[depth] = c;
            self.len = depth + 1;
            if depth + 1 < MAX_WORD_LEN {
                self.stack.push((at, g.letters(at)));
            }
            if word {
                return Some(());
            }
        }
    }
}
