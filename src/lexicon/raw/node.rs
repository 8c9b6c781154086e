//! [`Node`] and [`Edge`]: values decoded once from the table, each
//! carrying what reading on needs, so they cannot be misused.

use super::table::Arcs;
use super::{ACCEPTS, CODE, END, TARGET_SHIFT};
use crate::alphabet::letterset::LetterSet;
use crate::lexicon::gaddag::SEPARATOR;

/// A node of the arc table: where its list of arcs starts.
///
/// Copying one is free, and its edges are read only when asked for.
///
/// ```
/// let lex = lexq::Lexicon::embedded();
/// let a = lex.alphabet();
/// let root = lex.arcs().root();
/// // AX read right to left: X, then A. The arc reading A accepts: AX is a
/// // word. The arc reading Z after X does not: ZX is none.
/// let x = root.edge(a.encode("x")?[0]).unwrap().target();
/// assert!(x.edge(a.encode("a")?[0]).unwrap().accepts());
/// assert!(x.edge(a.encode("z")?[0]).is_none_or(|e| !e.accepts()));
/// # Ok::<(), lexq::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct Node<'a> {
    arcs: &'a Arcs,
    /// The index of the first arc (below the table's count); 0 for a node
    /// without arcs.
    at: u32,
}

/// An arc out of a [`Node`]: its code, whether it ends a key, and the node
/// it leads to.
#[derive(Clone, Copy)]
pub struct Edge<'a> {
    arcs: &'a Arcs,
    arc: u64,
}

/// The arc table's ways into its nodes (here, beside [`Node`], so that the
/// table knows nothing of nodes).
impl Arcs {
    /// The root: the node arc 0 leads to.
    #[inline]
    pub fn root(&self) -> Node<'_> {
        self.node(self.arc(0) >> TARGET_SHIFT)
    }

    /// The node whose first arc is `index` (no arcs if `index` is 0 or
    /// past the end).
    #[inline(always)]
    pub(crate) fn node(&self, index: u64) -> Node<'_> {
        Node::new(self, self.node_index(index))
    }

    /// The node at `index` as [`Node::index`] gave it: for side tables
    /// indexed like the table, and walks that keep nodes as numbers.
    #[inline]
    pub fn node_at(&self, index: u32) -> Node<'_> {
        self.node(index as u64)
    }
}

impl<'a> Node<'a> {
    #[inline(always)]
    pub(crate) fn new(arcs: &'a Arcs, at: u32) -> Node<'a> {
        Node { arcs, at }
    }

    /// The table the node is in.
    #[inline(always)]
    pub(crate) fn table(&self) -> &'a Arcs {
        self.arcs
    }

    /// Whether no arc leaves the node (nothing can be read from it).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.at == 0
    }

    /// The index of the node's first arc in the table (0 for a node
    /// without arcs): equal nodes, equal indexes.
    #[inline]
    pub fn index(&self) -> u32 {
        self.at
    }

    /// Every edge, in increasing code order (the separator first).
    #[inline(always)]
    pub fn edges(&self) -> Edges<'a> {
        Edges {
            arcs: self.arcs,
            bit: self.at as usize * self.arcs.width() as usize,
            left: self.arcs.room(self.at),
        }
    }

    /// The edges whose codes are in `set` (bit `c` for code `c`), in
    /// increasing code order.
    #[inline(always)]
    pub fn within(&self, set: u64) -> Within<'a> {
        Within {
            edges: self.edges(),
            set,
            top: 63u32.saturating_sub(set.leading_zeros()) as u64,
        }
    }

    /// The edge reading `code`, if any.
    #[inline]
    pub fn edge(&self, code: u8) -> Option<Edge<'a>> {
        let code = code as u64;
        for e in self.edges() {
            let c = e.arc & CODE;
            if c >= code {
                return (c == code).then_some(e);
            }
        }
        None
    }

    /// The node after reading `code`, if any.
    #[inline]
    pub fn follow(&self, code: u8) -> Option<Node<'a>> {
        self.edge(code).map(|e| e.target())
    }

    /// The node after reading `codes` last to first (from the root, a run
    /// of letters as a reversed prefix), if any.
    pub fn follow_reversed(&self, codes: &[u8]) -> Option<Node<'a>> {
        codes.iter().rev().try_fold(*self, |n, &c| n.follow(c))
    }

    /// Whether `word` (tile codes), read last to first from here, ends a
    /// key: from the root, whether it is a word.
    pub fn is_word(&self, word: &[u8]) -> bool {
        let Some((last, rest)) = word.split_first() else {
            return false;
        };
        rest.iter()
            .rev()
            .try_fold(*self, |n, &c| n.follow(c))
            .and_then(|n| n.edge(*last))
            .is_some_and(|e| e.accepts())
    }

    /// The edge reading the separator, if any: always the first.
    #[inline]
    pub fn separator_edge(&self) -> Option<Edge<'a>> {
        if self.at == 0 {
            return None;
        }
        let arc = self.arcs.arc(self.at);
        (arc & CODE == SEPARATOR as u64).then_some(Edge {
            arcs: self.arcs,
            arc,
        })
    }

    /// The node across the separator, if a key continues past it.
    #[inline]
    pub fn separator(&self) -> Option<Node<'a>> {
        self.separator_edge().map(|e| e.target())
    }

    /// Every code an edge reads (bit `c` for code `c`, the separator's
    /// bit 0 included).
    pub fn codes(&self) -> u64 {
        self.edges().fold(0, |m, e| m | 1u64 << e.code())
    }

    /// The letters (not the separator) that can be read next.
    pub fn letters(&self) -> LetterSet {
        LetterSet(self.codes() & !1)
    }

    /// The letters whose edge ends a key.
    pub fn ending_letters(&self) -> LetterSet {
        let m = self
            .edges()
            .filter(|e| e.accepts())
            .fold(0, |m, e| m | 1u64 << e.code());
        LetterSet(m & !1)
    }
}

impl<'a> Edge<'a> {
    /// The tile code read (0 for the separator).
    #[inline(always)]
    pub fn code(&self) -> u8 {
        (self.arc & CODE) as u8
    }

    /// Whether the path through this edge is a whole key: a word, read
    /// completely (reversed if the separator was not crossed).
    #[inline(always)]
    pub fn accepts(&self) -> bool {
        self.arc & ACCEPTS != 0
    }

    /// The node the edge leads to.
    #[inline(always)]
    pub fn target(&self) -> Node<'a> {
        self.arcs.node(self.arc >> TARGET_SHIFT)
    }
}

impl std::fmt::Debug for Node<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Node({})", self.at)
    }
}

impl std::fmt::Debug for Edge<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Edge")
            .field("code", &self.code())
            .field("accepts", &self.accepts())
            .field("target", &self.target().index())
            .finish()
    }
}

/// The edges of a [`Node`], read in one pass: the next arc's bit
/// position steps by the arc width, and the one bound (the list's 64 arcs
/// or the end of the table, whichever comes first) is set when the list
/// is entered, so each arc costs a load, a shift, a mask and the END test.
#[derive(Clone)]
pub struct Edges<'a> {
    arcs: &'a Arcs,
    /// The first bit of the next arc to read.
    bit: usize,
    /// How many more arcs the list may hold (0: done): never more than
    /// the table holds from the next arc on.
    left: u32,
}

impl<'a> Iterator for Edges<'a> {
    type Item = Edge<'a>;

    #[inline(always)]
    fn next(&mut self) -> Option<Edge<'a>> {
        if self.left == 0 {
            return None;
        }
        // SAFETY: `bit` is `i * width` for the next arc `i`, and `left`,
        // at most the arcs the table holds from `i` on (`Arcs::room`,
        // then one less a step), is above 0: `i` is below the count.
        let arc = unsafe { self.arcs.arc_at_bit(self.bit) };
        self.bit += self.arcs.width() as usize;
        self.left = if arc & END != 0 { 0 } else { self.left - 1 };
        Some(Edge {
            arcs: self.arcs,
            arc,
        })
    }
}

/// The edges of a [`Node`] whose codes are in a set.
#[derive(Clone)]
pub struct Within<'a> {
    edges: Edges<'a>,
    set: u64,
    /// The highest code in the set: the list is sorted, so the walk stops
    /// past it.
    top: u64,
}

impl<'a> Iterator for Within<'a> {
    type Item = Edge<'a>;

    #[inline(always)]
    fn next(&mut self) -> Option<Edge<'a>> {
        for e in self.edges.by_ref() {
            let c = e.arc & CODE;
            if c > self.top {
                self.edges.left = 0;
                return None;
            }
            if self.set >> c & 1 != 0 {
                return Some(e);
            }
        }
        None
    }
}
