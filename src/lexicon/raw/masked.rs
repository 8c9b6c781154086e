//! [`Masked`]: the arc table unpacked in memory, each arc carrying the
//! letter mask of the node it leads to, for the walks that read the same
//! nodes many times (move generation).
//!
//! The file's table stores no mask (see [the module](super)): a node's
//! arc for a code is found by reading its list up to that code. Here, arc
//! `i` of the file becomes entry `i`: its target's index, its accept flag
//! and the codes of the target's arcs (bit `c` for code `c`). A walk that
//! holds a node's index and mask finds the arc for code `c`, if the mask
//! has it, at `index + (the mask's bits below c)`, with no scan; and it
//! knows from an edge's entry whether the child can read any letter it
//! wants before it reads the child's arcs. In CARE = ERAC, RAC@E, AC@RE,
//! C@ARE, the entry for C out of the root says the node after C reads `@`
//! and `A` (among others): a square that allows neither is passed by
//! without reading that node.
//!
//! Made once per lexicon, when first asked for (`Arcs::masked`), in two
//! passes over the table: each index's mask (the codes of the arcs from
//! it to the end of its list: a node's codes at a node's first arc), then
//! every entry. 8 bytes an arc for alphabets of at most 30 letters, 16
//! beyond.

use super::packed::Packed;
use super::{ACCEPTS, CODE, END, MAX_LIST};

/// An entry of a [`Masked`] table: a target, an accept flag and the
/// target's codes, packed.
pub(crate) trait Entry: Copy + PartialEq + std::fmt::Debug + Send + Sync + 'static {
    /// The highest code a mask holds.
    const MAX_CODE: u64;
    /// Packs an entry.
    fn pack(target: u32, accepts: bool, mask: u64) -> Self;
    /// The target's index (0: no arcs).
    fn target(self) -> u32;
    /// Whether the path through the arc is a whole key.
    fn accepts(self) -> bool;
    /// The target's codes, bit `c` for code `c`.
    fn mask(self) -> u64;
}

/// Codes 0-30 (bits 0-30), the accept flag (bit 31), the target (32-63).
impl Entry for u64 {
    const MAX_CODE: u64 = 30;
    #[inline(always)]
    fn pack(target: u32, accepts: bool, mask: u64) -> u64 {
        (target as u64) << 32 | (accepts as u64) << 31 | mask & 0x7fff_ffff
    }
    #[inline(always)]
    fn target(self) -> u32 {
        (self >> 32) as u32
    }
    #[inline(always)]
    fn accepts(self) -> bool {
        self >> 31 & 1 != 0
    }
    #[inline(always)]
    fn mask(self) -> u64 {
        self & 0x7fff_ffff
    }
}

/// Codes 0-63 (bits 0-63), the accept flag (bit 64), the target (96-127).
impl Entry for u128 {
    const MAX_CODE: u64 = 63;
    #[inline(always)]
    fn pack(target: u32, accepts: bool, mask: u64) -> u128 {
        (target as u128) << 96 | (accepts as u128) << 64 | mask as u128
    }
    #[inline(always)]
    fn target(self) -> u32 {
        (self >> 96) as u32
    }
    #[inline(always)]
    fn accepts(self) -> bool {
        self >> 64 & 1 != 0
    }
    #[inline(always)]
    fn mask(self) -> u64 {
        self as u64
    }
}

/// The arc table unpacked, each arc with its target's codes (see [the
/// module](self)).
pub(crate) enum Masked {
    /// Every code at most 30.
    Narrow(Table<u64>),
    /// Codes up to 63.
    Wide(Table<u128>),
}

/// The entries of a [`Masked`] table, one per arc of the file's table:
/// entry 0 leads to the root.
pub(crate) struct Table<E> {
    entries: Box<[E]>,
}

/// A node of a [`Table`]: its first entry and its codes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MNode {
    /// The index of the node's first entry (0: no arcs).
    pub at: u32,
    /// The codes of its arcs, bit `c` for code `c`.
    pub mask: u64,
}

impl MNode {
    /// The node an entry leads to.
    #[inline(always)]
    pub fn of<E: Entry>(e: E) -> MNode {
        MNode {
            at: e.target(),
            mask: e.mask(),
        }
    }
}

impl<E: Entry> Table<E> {
    /// The table of `arcs`, given each index's codes (see [`tails`]),
    /// every code at most `E::MAX_CODE`.
    fn new<T: Copy + Into<u64>>(arcs: &Packed, tail: &[T]) -> Table<E> {
        let n = arcs.count as usize;
        // The targets' codes are read at random: each is asked for a few
        // arcs ahead of its use.
        const AHEAD: usize = 16;
        let entries = (0..n)
            .map(|i| {
                if i + AHEAD < n {
                    let ahead = arcs.target(arcs.arc((i + AHEAD) as u32));
                    prefetch_at(tail, ahead);
                }
                let arc = arcs.arc(i as u32);
                let target = arcs.target(arc);
                let codes = tail.get(target as usize).map_or(0, |&t| t.into());
                E::pack(target, arc & ACCEPTS != 0, codes)
            })
            .collect();
        Table { entries }
    }

    /// The root.
    #[inline(always)]
    pub fn root(&self) -> MNode {
        MNode::of(self.entries[0])
    }

    /// The entry of `node`'s arc reading `code`, if the node has one.
    #[inline(always)]
    pub fn edge(&self, node: MNode, code: u8) -> Option<E> {
        let bit = 1u64 << (code & 63);
        if node.mask & bit == 0 {
            return None;
        }
        let rank = (node.mask & (bit - 1)).count_ones();
        let e = self.entries.get((node.at + rank) as usize).copied();
        if let Some(e) = e {
            prefetch(&self.entries, e);
        }
        e
    }

    /// The entries of `node`'s arcs whose codes are in `set`, with their
    /// codes, in code order.
    #[inline(always)]
    pub fn within(&self, node: MNode, set: u64) -> Within<'_, E> {
        Within {
            entries: &self.entries,
            at: node.at,
            mask: node.mask,
            bits: node.mask & set,
        }
    }
}

/// The arcs of a node whose codes are in a set: `(code, entry)`.
pub(crate) struct Within<'a, E> {
    entries: &'a [E],
    at: u32,
    mask: u64,
    bits: u64,
}

impl<E: Entry> Iterator for Within<'_, E> {
    type Item = (u8, E);

    #[inline(always)]
    fn next(&mut self) -> Option<(u8, E)> {
        loop {
            if self.bits == 0 {
                return None;
            }
            let code = self.bits.trailing_zeros();
            self.bits &= self.bits - 1;
            let rank = (self.mask & ((1u64 << code) - 1)).count_ones();
            // In range for every table (a node's mask has at most as many
            // codes as it has arcs); a miss reads as no arc.
            if let Some(&e) = self.entries.get((self.at + rank) as usize) {
                prefetch(self.entries, e);
                return Some((code as u8, e));
            }
        }
    }
}

/// Starts the first line of `e`'s target on its way to the cache: a walk
/// handed an edge goes into its child next, and the table is read at
/// random.
#[inline(always)]
fn prefetch<E: Entry>(entries: &[E], e: E) {
    prefetch_at(entries, e.target());
}

/// Starts the line of `slice[i]` on its way to the cache.
#[inline(always)]
fn prefetch_at<T>(slice: &[T], i: u32) {
    #[cfg(target_arch = "x86_64")]
    {
        let p = slice.as_ptr().wrapping_add(i as usize);
        // SAFETY: a prefetch is a hint: it reads nothing the program sees
        // and faults on no address.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast::<i8>())
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (slice, i);
}

/// For every index of `arcs`, the codes of the arcs from it to the end
/// of its list, as the table's reader sees it (a list runs to an end bit,
/// the table's end or [`MAX_LIST`] arcs): at a node's first arc, the
/// node's codes. Index 0 (the root pointer) and nodes without arcs: 0.
/// `bit(c)` is code `c`'s bit in `T` (none past its width); also returns
/// every code met, bit `c` for code `c`.
fn tails<T>(arcs: &Packed, bit: impl Fn(u64) -> T) -> (Vec<T>, u64)
where
    T: Copy + Default + std::ops::BitOr<Output = T>,
{
    let n = arcs.count as usize;
    let mut tail = vec![T::default(); n];
    let mut codes = 0u64;
    let mut run = 0u32;
    for i in (1..n).rev() {
        let arc = arcs.arc(i as u32);
        codes |= 1u64 << (arc & CODE);
        let b = bit(arc & CODE);
        // A crafted list with no end bit is cut every MAX_LIST arcs: no
        // mask then has more codes than the arcs from its index.
        if arc & END != 0 || i + 1 == n || run >= MAX_LIST {
            tail[i] = b;
            run = 1;
        } else {
            tail[i] = b | tail[i + 1];
            run += 1;
        }
    }
    (tail, codes)
}

impl Masked {
    /// The masked table of `arcs`: the codes of each index first, in 4
    /// bytes an index while they fit.
    pub(crate) fn new(arcs: &Packed) -> Masked {
        let (tail, codes) = tails(arcs, |c| 1u32.checked_shl(c as u32).unwrap_or(0));
        if codes >> (<u64 as Entry>::MAX_CODE + 1) == 0 {
            Masked::Narrow(Table::new(arcs, &tail))
        } else {
            drop(tail);
            let (tail, _) = tails(arcs, |c| 1u64 << c);
            Masked::Wide(Table::new(arcs, &tail))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexicon::raw::{Arcs, Node};
    use crate::{Alphabet, Lexicon, WordList, build};

    /// Every node reachable from the root, read through `t` and through the
    /// file's packed lists (the reader every other walk uses): the same
    /// codes, and for each the same accept flag and target. Returns the
    /// number of nodes compared.
    fn same_as_packed<E: Entry>(arcs: &Arcs, t: &Table<E>) -> usize {
        let mut seen = std::collections::HashSet::new();
        let mut stack: Vec<(Node<'_>, MNode)> = vec![(arcs.root(), t.root())];
        while let Some((p, m)) = stack.pop() {
            assert_eq!(p.index(), m.at);
            if !seen.insert(m.at) {
                continue;
            }
            assert_eq!(p.codes(), m.mask, "node {}", m.at);
            let edges: Vec<_> = p.edges().collect();
            let masked: Vec<_> = t.within(m, u64::MAX).collect();
            assert_eq!(edges.len(), masked.len(), "node {}", m.at);
            for (e, &(code, me)) in edges.iter().zip(&masked) {
                assert_eq!(e.code(), code);
                assert_eq!(e.accepts(), me.accepts());
                assert_eq!(Some(me), t.edge(m, code));
                stack.push((e.target(), MNode::of(me)));
            }
            // Codes the node lacks have no edge.
            for code in 0..64u8 {
                if m.mask >> code & 1 == 0 {
                    assert!(t.edge(m, code).is_none());
                }
            }
            // A set picks its codes' edges, in code order.
            let odd: Vec<u8> = t.within(m, 0xaaaa_aaaa_aaaa_aaaa).map(|x| x.0).collect();
            let want: Vec<u8> = edges
                .iter()
                .map(|e| e.code())
                .filter(|c| c % 2 == 1)
                .collect();
            assert_eq!(odd, want);
        }
        seen.len()
    }

    #[test]
    #[cfg_attr(miri, ignore = "ENABLE's table: hours under Miri")]
    fn english_tables_read_as_the_packed_lists() {
        let lex = Lexicon::embedded();
        let arcs = lex.arcs();
        let Masked::Narrow(t) = arcs.masked() else {
            panic!("English has 26 letters: 8-byte entries");
        };
        let nodes = same_as_packed(arcs, t);
        assert!(nodes > 100_000, "{nodes} nodes");
        // The 16-byte entries read the same.
        let (tail, _) = tails(arcs.packed(), |c| 1u64 << c);
        let wide = Table::<u128>::new(arcs.packed(), &tail);
        assert_eq!(same_as_packed(arcs, &wide), nodes);
    }

    #[test]
    #[cfg_attr(miri, ignore = "a build of 1,600 words: over 10 minutes under Miri")]
    fn an_alphabet_of_more_than_30_letters_takes_wide_entries() {
        // 40 letters T0..T39: codes up to 40, past what 8 bytes hold.
        let text: String = (0..40).map(|i| format!("T{i}\n")).collect();
        let alphabet = Alphabet::from_text("forty", &text).unwrap();
        let mut list = WordList::new(alphabet);
        let words: String = (0..40)
            .flat_map(|i| (0..40).map(move |j| format!("T{i}T{j}T{}\n", (i * 7 + j) % 40)))
            .collect();
        list.read_bytes("forty.txt".as_ref(), words.as_bytes())
            .unwrap();
        let lex = Lexicon::from_bytes(build(&list, &mut ()).unwrap().bytes).unwrap();
        let arcs = lex.arcs();
        let Masked::Wide(t) = arcs.masked() else {
            panic!("codes above 30 take 16-byte entries");
        };
        let nodes = same_as_packed(arcs, t);
        assert!(
            lex.word_count() == 1600 && nodes > 100,
            "{} words, {nodes} nodes",
            lex.word_count()
        );
    }
}
