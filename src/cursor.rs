//! The one way to walk a lexicon: a cursor over the GADDAG's fst nodes.
//!
//! A [`Cursor`] stands on a node of the fst. From the root it reads letters
//! right to left (a reversed prefix), may cross the
//! [separator](crate::gaddag::SEPARATOR) once, and then reads letters left to
//! right. Word queries, hooks and (later) cross sets and move generation are
//! all built on it; none of them touches fst nodes directly.
//!
//! Nodes are read by [`crate::node`], which checks every offset: no file,
//! however crafted, makes a cursor panic. On a lexicon opened without the
//! structural check ([`Lexicon::open_checked`](crate::Lexicon::open_checked))
//! a node that does not decode reads as a dead end (not a word, no letters
//! after it); a file that passes the check has no such node.

use crate::gaddag::{SEPARATOR, key_byte, key_code};
use crate::letterset::LetterSet;
use crate::node::Node;

/// A position in a lexicon's GADDAG.
///
/// ```
/// use lexq::Lexicon;
/// let lex = Lexicon::embedded();
/// let a = lex.alphabet();
/// // Stand after "AC" read right to left, i.e. on "CA": the letters of
/// // "CA" as a reversed prefix.
/// let ca = lex.cursor().follow_reversed(&a.encode("CA").unwrap()).unwrap();
/// // No word is exactly "CA", but "CAT" is: cross the separator, read "T".
/// assert!(!ca.is_word());
/// let cat = ca.separator().unwrap().follow(a.encode("T").unwrap()[0]).unwrap();
/// assert!(cat.is_word());
/// ```
#[derive(Clone, Copy)]
pub struct Cursor<'a> {
    /// The fst's node area, for decoding the nodes transitions lead to.
    data: &'a [u8],
    node: Node<'a>,
}

impl<'a> Cursor<'a> {
    /// A cursor on `node` of the node area `data`.
    pub(crate) fn new(data: &'a [u8], node: Node<'a>) -> Cursor<'a> {
        Cursor { data, node }
    }

    /// The cursor one transition on, reading `code` (a letter or the
    /// separator), if the lexicon has it.
    #[inline]
    pub fn follow(&self, code: u8) -> Option<Cursor<'a>> {
        let i = self.node.find(key_byte(code))?;
        let node = Node::decode(self.data, self.node.target(i)).ok()?;
        Some(Cursor {
            data: self.data,
            node,
        })
    }

    /// Follows each code of `codes` in turn.
    pub fn follow_all(&self, codes: &[u8]) -> Option<Cursor<'a>> {
        codes.iter().try_fold(*self, |c, &code| c.follow(code))
    }

    /// Follows the codes of `codes` last to first: from the root this is
    /// how a run of letters is looked up as a reversed prefix.
    pub fn follow_reversed(&self, codes: &[u8]) -> Option<Cursor<'a>> {
        codes
            .iter()
            .rev()
            .try_fold(*self, |c, &code| c.follow(code))
    }

    /// Crosses the separator, if any key continues past it from here.
    #[inline]
    pub fn separator(&self) -> Option<Cursor<'a>> {
        self.follow(SEPARATOR)
    }

    /// Whether the path to here is a whole key: a word read completely
    /// (reversed if the separator was not crossed).
    #[inline]
    pub fn is_word(&self) -> bool {
        self.node.is_final()
    }

    /// The letters (not the separator) that can be read next.
    pub fn letters(&self) -> LetterSet {
        self.letter_edges().map(|e| e.code()).collect()
    }

    /// The letter transitions from here (the separator left out), in no
    /// particular order. Reading an edge's code is cheap; only
    /// [`Edge::follow`] decodes the node it leads to.
    #[inline]
    pub fn letter_edges(&self) -> impl Iterator<Item = Edge<'a>> + 'a {
        let data = self.data;
        let node = self.node;
        (0..node.len()).filter_map(move |i| {
            // A byte that is no key byte (only in a crafted file) is skipped.
            match key_code(node.input(i)) {
                Some(SEPARATOR) | None => None,
                Some(code) => Some(Edge {
                    code,
                    data,
                    node,
                    i,
                }),
            }
        })
    }
}

/// A letter transition out of a [`Cursor`]'s node.
///
/// ```
/// let lex = lexq::Lexicon::embedded();
/// let a = lex.alphabet();
/// // Letters that can end a word after "QUIXOTI": read "QUIXOTI"
/// // reversed, cross the separator, and look at the edges.
/// let at = lex.cursor().follow_reversed(&a.encode("quixoti")?).unwrap();
/// let after = at.separator().unwrap();
/// let ends: Vec<String> = after
///     .letter_edges()
///     .filter(|e| e.follow().is_word())
///     .map(|e| a.decode(&[e.code()]))
///     .collect();
/// assert_eq!(ends, ["C"]);
/// # Ok::<(), lexq::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct Edge<'a> {
    code: u8,
    data: &'a [u8],
    /// The node it leaves and its index there: the target's address is
    /// decoded only when the edge is followed.
    node: Node<'a>,
    i: usize,
}

impl<'a> Edge<'a> {
    /// The tile code the edge reads.
    #[inline]
    pub fn code(&self) -> u8 {
        self.code
    }

    /// The cursor the edge leads to.
    #[inline]
    pub fn follow(&self) -> Cursor<'a> {
        Cursor {
            data: self.data,
            node: Node::at(self.data, self.node.target(self.i)),
        }
    }
}
