//! [`Graph`]: the small traversal interface the board layer and the word
//! queries walk, and its two implementations.
//!
//! * [`FstGraph`]: the `.lexq` file's fst nodes, decoded as they are met
//!   (no set-up, about 30 ns an edge).
//! * [`Arcs`]: a flat table of 32-bit arcs (letter, word-end bit,
//!   last-sibling bit, child index; siblings contiguous and in tile
//!   order), a few ns an edge. [`Lexicon::arcs`] builds it at first use
//!   and keeps it: from the file's arcs section (format version 2), else
//!   derived from the fst.
//!
//! Both present the same GADDAG (see [`crate::gaddag`]): from the root,
//! letters read right to left, the separator (code 0) at most once, then
//! letters left to right. An edge says whether the path through it is a
//! whole key (a word) without its child being decoded.
//!
//! [`Lexicon::arcs`]: crate::Lexicon::arcs

use crate::gaddag::{key_byte, key_code};
use crate::letterset::LetterSet;
use crate::node::Node;

/// A GADDAG as a graph of nodes and labelled edges.
pub trait Graph {
    /// A node (a set of outgoing edges).
    type Node: Copy;
    /// An edge out of a node.
    type Edge: Copy;
    /// The edges out of a node.
    type Edges<'a>: Iterator<Item = Self::Edge>
    where
        Self: 'a;

    /// The edges out of a node whose codes are in a set.
    type Within<'a>: Iterator<Item = Self::Edge>
    where
        Self: 'a;

    /// Whether [`Graph::edges`] yields edges in increasing code order (so a
    /// walk may stop at the first code above what it wants).
    const SORTED: bool;

    /// The root.
    fn root(&self) -> Self::Node;
    /// Every edge out of `node`, the separator (code 0) included.
    fn edges(&self, node: Self::Node) -> Self::Edges<'_>;
    /// The code an edge reads (0 for the separator).
    fn code(&self, edge: Self::Edge) -> u8;
    /// Whether the path ending with this edge is a whole key.
    fn accepts(&self, edge: Self::Edge) -> bool;
    /// The node an edge leads to.
    fn target(&self, edge: Self::Edge) -> Self::Node;
    /// The edges out of `node` whose codes are in `set` (bit `c` for code
    /// `c`), in increasing code order, found before any child is decoded.
    fn edges_within(&self, node: Self::Node, set: u64) -> Self::Within<'_>;
    /// A number identifying `node` (equal nodes, equal numbers).
    fn node_id(&self, node: Self::Node) -> u64;

    /// The node an edge leads to and whether the path through it is a
    /// whole key, together ([`Graph::target`] and [`Graph::accepts`] in
    /// one step, for graphs where both decode the child).
    #[inline]
    fn follow_edge(&self, edge: Self::Edge) -> (Self::Node, bool) {
        (self.target(edge), self.accepts(edge))
    }

    /// The edge out of `node` reading `code`, if any.
    #[inline]
    fn edge(&self, node: Self::Node, code: u8) -> Option<Self::Edge> {
        self.edges(node).find(|&e| self.code(e) == code)
    }

    /// The node after reading `code`, if any.
    #[inline]
    fn follow(&self, node: Self::Node, code: u8) -> Option<Self::Node> {
        self.edge(node, code).map(|e| self.target(e))
    }

    /// [`Graph::edges_within`] for a node whose [`Graph::codes`] the
    /// caller has read already (a walk reads them before it steps in).
    /// `codes` must be `self.codes(node)`: other values give meaningless
    /// edges (never a panic: reads stay bounds-checked).
    #[inline]
    fn edges_within_codes(&self, node: Self::Node, codes: u64, set: u64) -> Self::Within<'_> {
        let _ = codes;
        self.edges_within(node, set)
    }

    /// [`Graph::edge`] for a node whose [`Graph::codes`] the caller has
    /// read already (`self.codes(node)`, as for
    /// [`Graph::edges_within_codes`]).
    #[inline]
    fn edge_codes(&self, node: Self::Node, codes: u64, code: u8) -> Option<Self::Edge> {
        let _ = codes;
        self.edge(node, code)
    }

    /// Every code an edge out of `node` reads, as a mask (bit `c` for
    /// code `c`; bit 0, the separator, included): what a walk checks
    /// before it steps into a node.
    fn codes(&self, node: Self::Node) -> u64 {
        let mut s = 0u64;
        for e in self.edges(node) {
            s |= 1u64 << (self.code(e) & 63);
        }
        s
    }

    /// The letters (not the separator) that can be read from `node`.
    fn letters(&self, node: Self::Node) -> LetterSet {
        let mut s = LetterSet::EMPTY;
        for e in self.edges(node) {
            s.insert(self.code(e));
        }
        LetterSet(s.0 & !1)
    }

    /// Every code read on some path from `node` (bit `c` for code `c`), if
    /// the graph knows it without a walk (see
    /// [`Arcs::with_letters_below`]).
    #[inline]
    fn letters_below(&self, _node: Self::Node) -> Option<u64> {
        None
    }

    /// The letters whose edge out of `node` ends a key.
    fn ending_letters(&self, node: Self::Node) -> LetterSet {
        let mut s = LetterSet::EMPTY;
        for e in self.edges(node) {
            if self.accepts(e) {
                s.insert(self.code(e));
            }
        }
        LetterSet(s.0 & !1)
    }
}

/// The lexicon's fst read in place as a [`Graph`].
#[derive(Clone, Copy)]
pub struct FstGraph<'a> {
    data: &'a [u8],
    root: usize,
}

impl<'a> FstGraph<'a> {
    pub(crate) fn new(data: &'a [u8], root: usize) -> FstGraph<'a> {
        FstGraph { data, root }
    }
}

/// A node of an [`FstGraph`]: its address in the fst, decoded when its
/// edges are read (a small value: walks pass nodes around by the
/// thousand).
#[derive(Clone, Copy)]
pub struct FstNode(usize);

/// An edge of an [`FstGraph`]: its code, the node it leaves and its index
/// there (the target's address is decoded only when the edge is followed,
/// so edges a walk filters out cost no decoding).
#[derive(Clone, Copy)]
pub struct FstEdge<'a> {
    code: u8,
    node: Node<'a>,
    i: usize,
}

impl FstEdge<'_> {
    #[inline]
    fn addr(&self) -> usize {
        self.node.target(self.i)
    }
}

/// The edges of an fst node.
pub struct FstEdges<'a> {
    node: Node<'a>,
    i: usize,
}

impl<'a> Iterator for FstEdges<'a> {
    type Item = FstEdge<'a>;
    #[inline]
    fn next(&mut self) -> Option<FstEdge<'a>> {
        while self.i < self.node.len() {
            let i = self.i;
            self.i += 1;
            if let Some(code) = key_code(self.node.input(i)) {
                return Some(FstEdge {
                    code,
                    node: self.node,
                    i,
                });
            }
        }
        None
    }
}

/// The edges of an fst node whose codes are in a set.
pub struct FstWithin<'a> {
    edges: FstEdges<'a>,
    set: u64,
}

impl<'a> Iterator for FstWithin<'a> {
    type Item = FstEdge<'a>;
    #[inline]
    fn next(&mut self) -> Option<FstEdge<'a>> {
        let set = self.set;
        self.edges.by_ref().find(|e| set & (1u64 << e.code) != 0)
    }
}

impl<'a> Graph for FstGraph<'a> {
    type Node = FstNode;
    type Edge = FstEdge<'a>;
    type Edges<'b>
        = FstEdges<'a>
    where
        Self: 'b;
    type Within<'b>
        = FstWithin<'a>
    where
        Self: 'b;

    const SORTED: bool = false;

    fn root(&self) -> FstNode {
        FstNode(self.root)
    }
    #[inline]
    fn edges(&self, node: FstNode) -> FstEdges<'a> {
        FstEdges {
            node: Node::at(self.data, node.0),
            i: 0,
        }
    }
    #[inline]
    fn edges_within(&self, node: FstNode, set: u64) -> FstWithin<'a> {
        FstWithin {
            edges: self.edges(node),
            set,
        }
    }
    #[inline]
    fn code(&self, edge: FstEdge<'a>) -> u8 {
        edge.code
    }
    #[inline]
    fn accepts(&self, edge: FstEdge<'a>) -> bool {
        Node::final_at(self.data, edge.addr())
    }
    #[inline]
    fn target(&self, edge: FstEdge<'a>) -> FstNode {
        FstNode(edge.addr())
    }
    fn node_id(&self, node: FstNode) -> u64 {
        node.0 as u64
    }
    #[inline]
    fn edge(&self, node: FstNode, code: u8) -> Option<FstEdge<'a>> {
        let node = Node::at(self.data, node.0);
        let i = node.find(key_byte(code))?;
        Some(FstEdge { code, node, i })
    }
}

const CODE_MASK: u32 = 0x3f;
const ACCEPTS: u32 = 0x40;
const LAST: u32 = 0x80;
const CHILD_SHIFT: u32 = 8;
/// The most arcs a table can hold (24-bit child indices).
pub const MAX_ARCS: usize = 1 << 24;

/// A flat table of 32-bit arcs: a GADDAG as the fastest engines store it.
///
/// A node is the index of its first arc (0: no edges); its arcs are
/// contiguous, in tile order, the last one flagged.
///
/// ```
/// use lexq::{Graph, Lexicon};
/// let lex = Lexicon::embedded();
/// let g = lex.arcs()?;
/// let a = lex.alphabet();
/// // "CA" read right to left, then the separator: the letters ending a word.
/// let n = [1u8, 3, 0].iter().try_fold(g.root(), |n, &c| g.follow(n, c)).unwrap();
/// let enders = g.ending_letters(n);
/// assert!(enders.contains(a.encode("T").unwrap()[0])); // CAT
/// assert!(!enders.contains(a.encode("Q").unwrap()[0]));
/// # Ok::<(), lexq::Error>(())
/// ```
pub struct Arcs {
    /// The table: `words` words at `ptr`, in `owned` or, for a table read in
    /// place from a lexicon file (format version 3), in the file's bytes,
    /// which the [`crate::Lexicon`] holding this table keeps (a map, a
    /// static or a heap buffer: they never move). Read only through
    /// [`Arcs::table`], every index bounds-checked.
    ptr: *const u32,
    words: usize,
    #[allow(dead_code)] // read through `ptr`
    owned: Vec<u32>,
    /// Arcs, not counting node headers.
    count: usize,
    /// Words of a node's header (its letter mask): 1, or 2 when codes above
    /// 31 occur.
    header: usize,
    /// Whether the second word of each node's header holds the letters
    /// below the node (see [`Arcs::with_letters_below`]) instead of the
    /// mask's upper half.
    below: bool,
}

// SAFETY: an `Arcs` only reads its words, which nothing writes while it
// lives (its own buffer, or the bytes of the lexicon that owns it).
unsafe impl Send for Arcs {}
// SAFETY: as for `Send`: shared use is read-only.
unsafe impl Sync for Arcs {}

/// The edges of a node of an [`Arcs`] table.
pub struct ArcEdges<'a> {
    arcs: &'a [u32],
    i: usize,
    end: usize,
}

impl Iterator for ArcEdges<'_> {
    type Item = u32;
    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.i >= self.end {
            return None;
        }
        let a = *self.arcs.get(self.i)?;
        self.i += 1;
        Some(a)
    }
}

/// The edges of a node of an [`Arcs`] table whose codes are in a set,
/// found by rank in the node's letter mask (no scan).
pub struct ArcsWithin<'a> {
    arcs: &'a [u32],
    first: usize,
    letters: u64,
    bits: u64,
}

impl Iterator for ArcsWithin<'_> {
    type Item = u32;
    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.bits == 0 {
            return None;
        }
        let c = self.bits.trailing_zeros();
        self.bits &= self.bits - 1;
        let below = self.letters & ((1u64 << c) - 1);
        self.arcs
            .get(self.first + below.count_ones() as usize)
            .copied()
    }
}

/// The conversion's map from fst address to what is known of the node
/// there. A flat array (4 bytes per byte of fst) for lexicons up to
/// [`Seen::FLAT_MAX`] bytes: a lookup is one load, where a hash map cost a
/// third of the conversion. Larger fsts use a map, so a big lexicon does
/// not take gigabytes before it turns out to need more than
/// [`MAX_ARCS`] arcs.
enum Seen {
    Flat(Vec<u32>),
    Map(std::collections::HashMap<usize, u32>),
}

impl Seen {
    const FLAT_MAX: usize = 32 << 20;

    fn new(len: usize) -> Seen {
        if len <= Seen::FLAT_MAX {
            Seen::Flat(vec![0; len + 1])
        } else {
            Seen::Map(std::collections::HashMap::new())
        }
    }

    /// 0 if not met yet; `None` for an address outside the fst.
    #[inline]
    fn get(&self, addr: usize) -> Option<u32> {
        match self {
            Seen::Flat(v) => v.get(addr).copied(),
            Seen::Map(m) => Some(m.get(&addr).copied().unwrap_or(0)),
        }
    }

    #[inline]
    fn set(&mut self, addr: usize, known: u32) {
        match self {
            Seen::Flat(v) => v[addr] = known,
            Seen::Map(m) => {
                m.insert(addr, known);
            }
        }
    }
}

impl Arcs {
    /// Derives the table from the fst's node area `data` and its root (a
    /// depth-first copy of every distinct node). `None` if it would need
    /// more than [`MAX_ARCS`] arcs.
    pub(crate) fn from_nodes(data: &[u8], root: Node<'_>, max_code: u8) -> Option<Arcs> {
        Arcs::convert(data, root, max_code, Seen::new(data.len()))
    }

    fn convert(data: &[u8], root: Node<'_>, max_code: u8, mut seen: Seen) -> Option<Arcs> {
        // A node is a header (its letter mask: one word, or two when codes
        // above 31 occur) followed by its arcs. Node 0 is the "no edges"
        // node.
        let header = if max_code < 32 { 1 } else { 2 };
        let mut arcs: Vec<u32> = vec![0; header];
        let mut count = 0usize;
        // `seen`: what is known of the node at each fst address, once
        // met: `index << 2 | final << 1 | 1` (index 0 for nodes without
        // edges).
        let mut stack: std::collections::VecDeque<(Node<'_>, u32)> =
            std::collections::VecDeque::new();
        let alloc = |len: usize, arcs: &mut Vec<u32>| -> Option<u32> {
            let i = arcs.len();
            if i + len + header > MAX_ARCS {
                return None;
            }
            arcs.resize(i + header + len, 0);
            Some(i as u32)
        };
        if root.len() == 0 {
            return Some(Arcs::owned(arcs, count, header));
        }
        let r = alloc(root.len(), &mut arcs)?;
        stack.push_back((root, r));
        let mut kids: Vec<(u8, u32)> = Vec::with_capacity(64);
        while let Some((node, first)) = stack.pop_front() {
            kids.clear();
            let mut mask = 0u64;
            for i in 0..node.len() {
                let code = key_code(node.input(i))? as u32;
                if code > max_code as u32 {
                    return None;
                }
                let addr = node.target(i);
                let known = seen.get(addr)?;
                let known = if known != 0 {
                    known
                } else {
                    // Met for the first time: decode it once, give it its
                    // place in the table and copy it later.
                    let child = Node::decode(data, addr).ok()?;
                    let idx = if child.len() > 0 {
                        let i = alloc(child.len(), &mut arcs)?;
                        stack.push_back((child, i));
                        i
                    } else {
                        0
                    };
                    let k = idx << 2 | (child.is_final() as u32) << 1 | 1;
                    seen.set(addr, k);
                    k
                };
                let mut word = code | (known >> 2) << CHILD_SHIFT;
                if known & 2 != 0 {
                    word |= ACCEPTS;
                }
                mask |= 1u64 << code;
                kids.push((code as u8, word));
            }
            kids.sort_unstable_by_key(|k| k.0);
            kids.dedup_by_key(|k| k.0);
            let f = first as usize;
            arcs[f] = mask as u32;
            if header == 2 {
                arcs[f + 1] = (mask >> 32) as u32;
            }
            let n = kids.len();
            count += n;
            for (j, &(_, w)) in kids.iter().enumerate() {
                arcs[f + header + j] = if j + 1 == n { w | LAST } else { w };
            }
        }
        Some(Arcs::owned(arcs, count, header))
    }

    /// A table in its own buffer.
    fn owned(owned: Vec<u32>, count: usize, header: usize) -> Arcs {
        Arcs {
            ptr: owned.as_ptr(),
            words: owned.len(),
            owned,
            count,
            header,
            below: false,
        }
    }

    /// The table's words, node headers included.
    #[inline]
    fn table(&self) -> &[u32] {
        // SAFETY: `ptr` and `words` describe `owned`'s buffer, or bytes of
        // the lexicon that holds this table and outlives it (see
        // `Arcs::in_place`); 4-aligned, never written.
        unsafe { std::slice::from_raw_parts(self.ptr, self.words) }
    }

    /// The table as a version 3 `.lexq` file stores it (its arcs section,
    /// see [`crate::format`]): every word of the table, node headers
    /// included, little-endian, so that a reader can use it in place.
    pub(crate) fn to_table_bytes(&self) -> Vec<u8> {
        self.table().iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// The table a version 3 file stores (see [`Arcs::to_table_bytes`]),
    /// read in place when `bytes` is 4-aligned on a little-endian machine
    /// (else copied), `count` arcs. Only its size is checked: reads are
    /// bounds-checked, so a malformed table (the checksums hold, but the
    /// file was crafted) makes walks find less, never panic or loop, and
    /// [`crate::Lexicon::verify`] compares it with the fst.
    ///
    /// # Safety
    ///
    /// The result may point into `bytes`: they must stay where they are,
    /// unchanged, for as long as it lives.
    pub(crate) unsafe fn in_place(
        bytes: &[u8],
        count: u64,
        max_code: u8,
    ) -> Result<Arcs, &'static str> {
        let header = if max_code < 32 { 1 } else { 2 };
        let len = bytes.len() / 4;
        if bytes.len() % 4 != 0 || len < header {
            return Err("not a whole table of 32-bit words");
        }
        if len > MAX_ARCS || count > len as u64 {
            return Err("more arcs than a table holds");
        }
        let count = count as usize;
        if bytes.as_ptr().align_offset(4) == 0 && cfg!(target_endian = "little") {
            Ok(Arcs {
                ptr: bytes.as_ptr().cast::<u32>(),
                words: len,
                owned: Vec::new(),
                count,
                header,
                below: false,
            })
        } else {
            let words = bytes
                .chunks_exact(4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            Ok(Arcs::owned(words, count, header))
        }
    }

    /// Whether the table is read in place from a lexicon file's bytes
    /// (rather than held in a buffer of its own).
    #[cfg(test)]
    pub(crate) fn is_in_place(&self) -> bool {
        self.owned.is_empty() && self.words > 0
    }

    /// The table in the form a version 2 `.lexq` file stored it (its arcs
    /// section, see [`crate::format`]): the arcs without the node headers, as
    /// little-endian 32-bit words (code, word-end bit `0x40`, last-sibling
    /// bit `0x80`, and from bit 8 the child's index in the table *with*
    /// headers, 0 for a node without edges), after a sentinel word whose
    /// child is the root. [`Arcs::from_stored`] puts the headers back
    /// without a lookup per arc. Tests write such files.
    #[cfg(test)]
    pub(crate) fn to_stored(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity((self.count + 1) * 4);
        out.extend_from_slice(&(self.root() << CHILD_SHIFT).to_le_bytes());
        for &a in self.nodes().flatten() {
            out.extend_from_slice(&a.to_le_bytes());
        }
        out
    }

    /// The arcs of every node, in table order (a node whose arcs would run
    /// past the end, in a crafted table, ends the list).
    fn nodes(&self) -> impl Iterator<Item = &[u32]> {
        let t = self.table();
        let h = self.header;
        let mut i = h;
        std::iter::from_fn(move || {
            let k = self.mask(i as u32).count_ones() as usize;
            let arcs = t.get(i + h..i + h + k)?;
            i += h + k;
            Some(arcs)
        })
    }

    /// Rebuilds a table from its stored form (see [`Arcs::to_stored`]),
    /// checking its structure: whole words, every node's last arc flagged,
    /// codes up to `max_code` strictly increasing within a node, every
    /// child the start of a node. Three linear passes over the words (count
    /// the nodes, copy, check the children).
    pub(crate) fn from_stored(bytes: &[u8], max_code: u8) -> Result<Arcs, &'static str> {
        if bytes.len() % 4 != 0 || bytes.is_empty() {
            return Err("not a whole number of 32-bit arcs");
        }
        let mut words = bytes
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        let w0 = words.next().unwrap_or(0);
        let n = bytes.len() / 4;
        let count = n - 1;
        let header = if max_code < 32 { 1 } else { 2 };
        // Each node's last arc is flagged: that many nodes, each headed by
        // `header` words in the table.
        let nodes = words.clone().filter(|w| w & LAST != 0).count();
        let len = header + nodes * header + count;
        if len > MAX_ARCS {
            return Err("more arcs than a table holds");
        }
        let mut arcs: Vec<u32> = Vec::with_capacity(len);
        arcs.resize(header, 0);
        // Node starts of the table, as a bit set, to check children.
        let mut starts: Vec<u64> = vec![0; len / 64 + 1];
        let mut mask = 0u64;
        let mut first = 0usize;
        for w in words.clone() {
            if mask == 0 {
                // A node begins: its header words, filled at its end.
                first = arcs.len();
                arcs.extend(std::iter::repeat_n(0, header));
                starts[first / 64] |= 1u64 << (first % 64);
            }
            let code = w & CODE_MASK;
            if code > max_code as u32 {
                return Err("an arc reads a code outside the alphabet");
            }
            if mask >> code != 0 {
                return Err("a node's codes are not in increasing order");
            }
            mask |= 1u64 << code;
            arcs.push(w);
            if w & LAST != 0 {
                arcs[first] = mask as u32;
                if header == 2 {
                    arcs[first + 1] = (mask >> 32) as u32;
                }
                mask = 0;
            }
        }
        if mask != 0 {
            return Err("the last node's last arc is not flagged");
        }
        // Every child (0: none) is the start of a node.
        let is_start = |i: usize| {
            starts
                .get(i / 64)
                .is_some_and(|b| b & (1u64 << (i % 64)) != 0)
        };
        if !words.all(|w| {
            let child = (w >> CHILD_SHIFT) as usize;
            child == 0 || is_start(child)
        }) {
            return Err("an arc leads to no node");
        }
        let root_ok = if count == 0 {
            w0 == 0
        } else {
            w0 == (header as u32) << CHILD_SHIFT
        };
        if !root_ok {
            return Err("the sentinel does not lead to the root");
        }
        Ok(Arcs::owned(arcs, count, header))
    }

    /// Whether two tables are the same, arc for arc.
    pub(crate) fn same(&self, other: &Arcs) -> bool {
        self.header == other.header && self.count == other.count && self.table() == other.table()
    }

    /// The letter mask of `node` (bit `c` set if an edge reads code `c`).
    #[inline]
    fn mask(&self, node: u32) -> u64 {
        let i = node as usize;
        let t = self.table();
        let low = t.get(i).copied().unwrap_or(0) as u64;
        if self.header == 1 || self.below {
            low
        } else {
            low | (t.get(i + 1).copied().unwrap_or(0) as u64) << 32
        }
    }

    /// The number of arcs.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether the table holds no arcs.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// How many arcs read each code: roughly how common each letter is
    /// in the lexicon's words (an anagram walk starts from the rarest).
    pub(crate) fn code_counts(&self) -> [u32; 64] {
        let mut counts = [0u32; 64];
        for &a in self.nodes().flatten() {
            let c = &mut counts[(a & CODE_MASK) as usize];
            *c = c.saturating_add(1);
        }
        counts
    }

    /// For every node (indexed as the table is), the codes read on some
    /// path from it. `None` for alphabets of more than 31 codes (the masks
    /// are 32 bits) and for a table with a cycle (which a crafted file
    /// could hold). One depth-first pass.
    fn reach(&self) -> Option<Vec<u32>> {
        if self.header != 1 {
            return None;
        }
        let t = self.table();
        let mut reach = vec![0u32; t.len()];
        // 0 unseen, 1 on the stack, 2 done.
        let mut state = vec![0u8; t.len()];
        let arcs = |node: u32| -> &[u32] {
            let first = node as usize + 1;
            let k = self.mask(node).count_ones() as usize;
            t.get(first..first + k).unwrap_or(&[])
        };
        let root = self.root();
        if root == 0 {
            return Some(reach);
        }
        if root as usize >= t.len() {
            return None; // only in a crafted table
        }
        // (node, arcs of it gone into)
        let mut stack: Vec<(u32, usize)> = vec![(root, 0)];
        state[root as usize] = 1;
        while let Some(&mut (node, ref mut k)) = stack.last_mut() {
            let a = arcs(node);
            if let Some(&arc) = a.get(*k) {
                *k += 1;
                let child = arc >> CHILD_SHIFT;
                match state.get(child as usize) {
                    _ if child == 0 => {}
                    Some(0) => {
                        state[child as usize] = 1;
                        stack.push((child, 0));
                    }
                    Some(2) => {}
                    _ => return None,
                }
            } else {
                let mut m = 0u32;
                for &arc in a {
                    let code = arc & CODE_MASK;
                    if code >= 32 {
                        return None; // only in a crafted table
                    }
                    let below = reach.get((arc >> CHILD_SHIFT) as usize);
                    m |= 1 << code | below.copied().unwrap_or(!0);
                }
                reach[node as usize] = m;
                state[node as usize] = 2;
                stack.pop();
            }
        }
        Some(reach)
    }

    /// A copy of the table whose node headers hold, after the letter
    /// mask, the codes read on some path below the node
    /// ([`Graph::letters_below`]): a walk that must spend every tile it
    /// holds need not step into a node below which one of them is never
    /// read, and reads that from the header it reads anyway. The nodes are
    /// laid out depth-first from the root, so that a walk down a path reads
    /// on (5% faster anagrams than in the table's order). A word more per
    /// node (6.9 MB for ENABLE, against 5.2). `None` for an empty table and
    /// where [`Arcs::reach`] is.
    pub(crate) fn with_letters_below(&self) -> Option<Arcs> {
        if self.root() == 0 {
            return None;
        }
        let reach = self.reach()?;
        let t = self.table();
        // Where each node goes (0: not yet placed), in depth-first order,
        // smaller codes first.
        let node_len = |i: usize| 1 + self.mask(i as u32).count_ones() as usize;
        let mut moved = vec![0u32; t.len()];
        let mut order: Vec<usize> = Vec::new();
        let mut next = 2u32;
        let mut stack = vec![self.root() as usize];
        while let Some(i) = stack.pop() {
            if moved[i] != 0 {
                continue;
            }
            let end = i + node_len(i);
            if end > t.len() {
                return None;
            }
            moved[i] = next;
            next += 1 + (end - i) as u32;
            order.push(i);
            for &a in t[i + 1..end].iter().rev() {
                let child = (a >> CHILD_SHIFT) as usize;
                if child != 0 && moved.get(child) == Some(&0) {
                    stack.push(child);
                }
            }
        }
        let words = next as usize;
        if words > MAX_ARCS {
            return None;
        }
        let mut out = Vec::with_capacity(words);
        out.extend([0u32, 0]);
        let mut count = 0;
        for &i in &order {
            let n = node_len(i) - 1;
            count += n;
            out.push(t[i]);
            out.push(reach[i]);
            for &a in &t[i + 1..i + 1 + n] {
                let child = (a >> CHILD_SHIFT) as usize;
                let to = if child == 0 {
                    0
                } else {
                    moved.get(child).copied().unwrap_or(0)
                };
                if child != 0 && to == 0 {
                    return None;
                }
                out.push(a & ((1 << CHILD_SHIFT) - 1) | to << CHILD_SHIFT);
            }
        }
        let mut table = Arcs::owned(out, count, 2);
        table.below = true;
        Some(table)
    }

    /// Bytes the table takes: its own memory, or the part of the
    /// lexicon file it is read from in place.
    pub fn bytes(&self) -> usize {
        self.words * 4
    }
}

impl Graph for Arcs {
    type Node = u32;
    type Edge = u32;
    type Edges<'a> = ArcEdges<'a>;
    type Within<'a> = ArcsWithin<'a>;

    const SORTED: bool = true;

    #[inline]
    fn root(&self) -> u32 {
        if self.count > 0 {
            self.header as u32
        } else {
            0
        }
    }
    #[inline]
    fn edges(&self, node: u32) -> ArcEdges<'_> {
        let first = node as usize + self.header;
        ArcEdges {
            arcs: self.table(),
            i: first,
            end: first + self.mask(node).count_ones() as usize,
        }
    }
    #[inline]
    fn edges_within(&self, node: u32, set: u64) -> ArcsWithin<'_> {
        self.edges_within_codes(node, self.mask(node), set)
    }
    #[inline]
    fn edges_within_codes(&self, node: u32, codes: u64, set: u64) -> ArcsWithin<'_> {
        ArcsWithin {
            arcs: self.table(),
            first: node as usize + self.header,
            letters: codes,
            bits: codes & set,
        }
    }
    #[inline]
    fn edge_codes(&self, node: u32, codes: u64, code: u8) -> Option<u32> {
        let bit = 1u64 << (code & 63);
        if codes & bit == 0 {
            return None;
        }
        let below = codes & (bit - 1);
        self.table()
            .get(node as usize + self.header + below.count_ones() as usize)
            .copied()
    }
    #[inline]
    fn code(&self, edge: u32) -> u8 {
        (edge & CODE_MASK) as u8
    }
    #[inline]
    fn accepts(&self, edge: u32) -> bool {
        edge & ACCEPTS != 0
    }
    #[inline]
    fn target(&self, edge: u32) -> u32 {
        edge >> CHILD_SHIFT
    }
    fn node_id(&self, node: u32) -> u64 {
        node as u64
    }
    #[inline]
    fn edge(&self, node: u32, code: u8) -> Option<u32> {
        self.edge_codes(node, self.mask(node), code)
    }
    #[inline]
    fn codes(&self, node: u32) -> u64 {
        self.mask(node)
    }
    #[inline]
    fn letters(&self, node: u32) -> LetterSet {
        LetterSet(self.mask(node) & !1)
    }
    #[inline]
    fn letters_below(&self, node: u32) -> Option<u64> {
        if !self.below {
            return None;
        }
        self.table().get(node as usize + 1).map(|&w| w as u64)
    }
}

/// Follows `codes` from the root, first to last, in any graph.
pub fn follow_all<G: Graph>(g: &G, codes: &[u8]) -> Option<G::Node> {
    codes.iter().try_fold(g.root(), |n, &c| g.follow(n, c))
}

/// Whether `word` (tile codes) is a word of the graph: its whole reversal
/// is a key.
pub fn is_word<G: Graph>(g: &G, word: &[u8]) -> bool {
    let mut n = g.root();
    let len = word.len();
    for (i, &c) in word.iter().rev().enumerate() {
        let Some(e) = g.edge(n, c) else {
            return false;
        };
        if i + 1 == len {
            return g.accepts(e);
        }
        n = g.target(e);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_address_maps_give_the_same_table() {
        let lex = crate::Lexicon::embedded();
        let g = lex.fst_graph();
        let max = lex.alphabet().len() as u8;
        let flat = Arcs::convert(
            g.data,
            Node::at(g.data, g.root),
            max,
            Seen::Flat(vec![0; g.data.len() + 1]),
        )
        .unwrap();
        let map = Arcs::convert(
            g.data,
            Node::at(g.data, g.root),
            max,
            Seen::Map(Default::default()),
        )
        .unwrap();
        assert_eq!(flat.len(), 874_584);
        assert_eq!((flat.len(), flat.header), (map.len(), map.header));
        assert!(flat.same(&map), "the two conversions differ");
    }

    #[test]
    fn letters_below_are_every_code_below_each_node() {
        let lex = crate::Lexicon::embedded();
        let t = lex.arcs().unwrap();
        let b = t
            .with_letters_below()
            .expect("an acyclic table of 27 codes");
        assert_eq!(t.letters_below(t.root()), None);
        // Both tables walked side by side, each node once: the same edges,
        // and, in a graph without cycles, masks that are the one solution
        // of: a node's mask is the codes of its edges and the masks of
        // their children.
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![(t.root(), b.root())];
        while let Some((n, m)) = stack.pop() {
            if !seen.insert(n) {
                continue;
            }
            let old: Vec<u32> = t.edges(n).collect();
            let new: Vec<u32> = b.edges(m).collect();
            assert_eq!(old.len(), new.len(), "node {n}");
            let mut below = 0u64;
            for (&e, &f) in old.iter().zip(&new) {
                assert_eq!((t.code(e), t.accepts(e)), (b.code(f), b.accepts(f)));
                below |= 1 << b.code(f) | b.letters_below(b.target(f)).unwrap();
                stack.push((t.target(e), b.target(f)));
            }
            assert_eq!(b.letters_below(m), Some(below), "node {n}");
            assert_eq!(b.codes(m), t.codes(n));
        }
        assert!(seen.len() > 400_000, "{} nodes", seen.len());
        assert_eq!(b.len(), t.len(), "every arc copied once");
    }

    #[test]
    fn reads_through_the_mask_equal_the_arcs_read_in_order() {
        let lex = crate::Lexicon::embedded();
        let t = lex.arcs().unwrap();
        let sets = [u64::MAX, 0, 0b1011_0110_1010_1100_1110, 1, !1];
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![t.root()];
        while let Some(n) = stack.pop() {
            if !seen.insert(n) {
                continue;
            }
            // The oracle: the node's arcs read one after another (no rank
            // from the mask), filtered by their own codes.
            let all: Vec<u32> = t.edges(n).collect();
            let codes = t.codes(n);
            assert_eq!(
                codes,
                all.iter().fold(0u64, |m, &e| m | 1 << t.code(e)),
                "node {n}"
            );
            for set in sets {
                let want: Vec<u32> = all
                    .iter()
                    .copied()
                    .filter(|&e| set & 1 << t.code(e) != 0)
                    .collect();
                let given: Vec<u32> = t.edges_within_codes(n, codes, set).collect();
                assert_eq!(given, want, "node {n}, set {set:#x}");
                let plain: Vec<u32> = t.edges_within(n, set).collect();
                assert_eq!(plain, want, "node {n}, set {set:#x}");
            }
            for c in 0..64u8 {
                let want = all.iter().copied().find(|&e| t.code(e) == c);
                assert_eq!(t.edge_codes(n, codes, c), want, "node {n}, code {c}");
                assert_eq!(t.edge(n, c), want, "node {n}, code {c}");
            }
            stack.extend(t.edges(n).map(|e| t.target(e)).filter(|&m| m != 0));
        }
        assert!(seen.len() > 400_000, "{} nodes", seen.len());
    }

    #[test]
    fn the_stored_form_gives_back_the_table() {
        let lex = crate::Lexicon::embedded();
        let g = lex.fst_graph();
        let max = lex.alphabet().len() as u8;
        let table = Arcs::from_nodes(g.data, Node::at(g.data, g.root), max).unwrap();
        let stored = table.to_stored();
        assert_eq!(stored.len(), (table.len() + 1) * 4);
        let back = Arcs::from_stored(&stored, max).unwrap();
        assert_eq!((back.len(), back.header), (table.len(), table.header));
        assert!(back.same(&table), "the round trip changed the table");
        // With two-word headers (alphabets over 31 tiles) the children
        // count two words per node: the same arcs no longer line up.
        assert!(Arcs::from_stored(&stored, 40).is_err());
    }

    #[test]
    fn a_table_read_in_place_or_copied_is_the_same() {
        let lex = crate::Lexicon::embedded();
        let table = lex.arcs().unwrap();
        let max = lex.alphabet().len() as u8;
        let n = table.len() as u64;
        let bytes = table.to_table_bytes();
        let len = bytes.len();
        // The same bytes at a 4-aligned address (read in place) and one
        // byte further (copied).
        let mut buf = vec![0u8; len + 8];
        let at = buf.as_ptr().align_offset(4);
        for (start, in_place) in [(at, true), (at + 1, false)] {
            buf[start..start + len].copy_from_slice(&bytes);
            // SAFETY: `buf` outlives the table and is not written meanwhile.
            let t = unsafe { Arcs::in_place(&buf[start..start + len], n, max) }.unwrap();
            assert_eq!(t.is_in_place(), in_place);
            assert!(t.same(table));
            drop(t);
        }
        // Sizes that cannot be a table, or more arcs than it has words.
        // SAFETY (each): the tables are dropped at once.
        assert!(unsafe { Arcs::in_place(&bytes[..len - 1], n, max) }.is_err());
        assert!(unsafe { Arcs::in_place(&[], 0, max) }.is_err());
        assert!(unsafe { Arcs::in_place(&bytes, (len / 4) as u64 + 1, max) }.is_err());
    }

    #[test]
    fn damaged_stored_forms_are_refused() {
        let w = |words: &[u32]| {
            words
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect::<Vec<u8>>()
        };
        // The root (table index 1: after the empty node's header) with arcs
        // A (a word, no child) and B (its child the node at table index 4:
        // after the root's header and two arcs), which has one arc, E.
        let good = [1 << 8, 1 | ACCEPTS, 2 | 4 << 8 | LAST, 5 | ACCEPTS | LAST];
        let t = Arcs::from_stored(&w(&good), 26).unwrap();
        assert_eq!(t.len(), 3);
        assert!(is_word(&t, &[1]) && is_word(&t, &[5, 2]) && !is_word(&t, &[2]));
        assert_eq!(t.to_stored(), w(&good));
        let cases: [(&[u32], &str); 7] = [
            (&[1 << 8, 1, 2 | 4 << 8 | LAST, 5 | ACCEPTS], "not flagged"),
            (
                &[1 << 8, 1 | ACCEPTS, 2 | 3 << 8 | LAST, 5 | LAST],
                "no node",
            ),
            (
                &[1 << 8, 1 | ACCEPTS, 2 | 9 << 8 | LAST, 5 | LAST],
                "no node",
            ),
            (&[1 << 8, 2, 1 | LAST], "increasing"),
            (&[1 << 8, 1, 1 | LAST], "increasing"),
            (&[1 << 8, 30 | LAST], "alphabet"),
            (&[2 << 8, 1 | ACCEPTS, 2 | LAST], "sentinel"),
        ];
        for (words, want) in cases {
            let err = Arcs::from_stored(&w(words), 26).err().unwrap_or("accepted");
            assert!(err.contains(want), "{words:x?}: {err}");
        }
        assert!(Arcs::from_stored(&[1, 2, 3], 26).is_err());
        assert!(Arcs::from_stored(&[], 26).is_err());
        assert_eq!(Arcs::from_stored(&w(&[0]), 26).unwrap().len(), 0);
    }
}
