//! [`Arcs`]: the packed array of arcs, read in place.

use std::sync::OnceLock;

use super::masked::Masked;
use super::packed::Packed;
use super::{END, TARGET_SHIFT};

/// The arc table of a lexicon (see [the module](super)): packed arcs read
/// in place from the lexicon's bytes (a map, the embedded file or a
/// buffer), with no set-up.
pub struct Arcs {
    /// The section's place and shape, read only through [`Packed`]'s
    /// checked readers (its one unchecked load is [`Packed::load`]). The
    /// [`crate::Lexicon`] holding this table keeps the bytes where they
    /// are for as long as it lives.
    packed: Packed,
    /// The table unpacked with masks, made when first asked for.
    masked: OnceLock<Masked>,
}

impl Arcs {
    /// The bytes a section of `count` arcs of `width` bits takes: the
    /// arcs, then 8 zero bytes, so that every arc is read with one 8-byte
    /// load.
    pub(crate) fn section_len(count: u64, width: u32) -> u64 {
        Packed::section_len(count, width)
    }

    /// The table in `bytes` (an arcs section, see [`Arcs::section_len`]).
    /// Only its size is checked: reads are checked against it, so a
    /// malformed table makes walks find less, never panic or loop.
    ///
    /// # Safety
    ///
    /// The result points into `bytes`: they must stay where they are,
    /// unchanged, for as long as it lives.
    pub(crate) unsafe fn in_place(
        bytes: &[u8],
        count: u64,
        width: u32,
    ) -> Result<Arcs, &'static str> {
        Ok(Arcs {
            // SAFETY: this function's contract is `Packed::new`'s.
            packed: unsafe { Packed::new(bytes, count, width) }?,
            masked: OnceLock::new(),
        })
    }

    /// Arc `i`; 0 (no code, no flags, no target) past the end.
    #[inline(always)]
    pub(crate) fn arc(&self, i: u32) -> u64 {
        self.packed.arc(i)
    }

    /// The section's place and shape.
    #[cfg(test)]
    pub(crate) fn packed(&self) -> &Packed {
        &self.packed
    }

    /// The arc whose first bit is `bit`, for reading a node's list in one
    /// pass (see [`super::Edges`]): arc `i` is at bit `i * width`.
    ///
    /// # Safety
    ///
    /// `bit` is `i * width` for some `i` below the count, as for
    /// [`Arcs::arc`].
    #[inline(always)]
    pub(crate) unsafe fn arc_at_bit(&self, bit: usize) -> u64 {
        debug_assert!(bit % self.packed.width == 0);
        // SAFETY: arc `bit / width` is below the count (this function's
        // contract), so `bit < end_bit`.
        unsafe { self.packed.load(bit) }
    }

    /// How many arcs a list starting at `at` may hold: [`super::MAX_LIST`],
    /// or fewer where the table ends sooner (0 for `at` 0, the index of no
    /// node, or past the end).
    #[inline(always)]
    pub(crate) fn room(&self, at: u32) -> u32 {
        if at == 0 {
            0
        } else {
            self.packed.count.saturating_sub(at).min(super::MAX_LIST)
        }
    }

    /// The table unpacked, each arc with its target's codes (see
    /// [`Masked`]): made on the first call (one pass over the arcs, 8
    /// bytes an arc for the usual alphabets), then shared.
    pub(crate) fn masked(&self) -> &Masked {
        self.masked.get_or_init(|| Masked::new(&self.packed))
    }

    /// The number of arcs (the root pointer, arc 0, included: at least
    /// 1 for any table opened).
    pub fn len(&self) -> usize {
        self.packed.count as usize
    }

    /// Whether [`len`](Arcs::len) is 0 (never, for a table opened: see
    /// [`Arcs::holds_words`] for a table of no word).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the table holds a word (its root has arcs).
    pub fn holds_words(&self) -> bool {
        !self.root().is_empty()
    }

    /// Bits per arc.
    #[inline(always)]
    pub fn width(&self) -> u32 {
        self.packed.width as u32
    }

    /// Bytes the arcs take in the file.
    pub fn bytes(&self) -> usize {
        Packed::section_len(self.packed.count as u64, self.width()) as usize
    }

    /// The index of the node whose first arc is `index`: 0 (no arcs) if
    /// `index` is 0 or past the end.
    #[inline(always)]
    pub(crate) fn node_index(&self, index: u64) -> u32 {
        if index < self.packed.count as u64 {
            index as u32
        } else {
            0
        }
    }

    /// For every code, how many arcs read it: roughly how common each
    /// letter is in the lexicon's words.
    pub(crate) fn code_counts(&self) -> [u32; 64] {
        let mut counts = [0u32; 64];
        for i in 1..self.packed.count {
            let c = &mut counts[(self.arc(i) & super::CODE) as usize];
            *c = c.saturating_add(1);
        }
        counts
    }

    /// For every index that starts a node (others hold 0), the codes read
    /// on some path from it (bit `c` for code `c`): a walk that must spend
    /// every tile it holds need not enter a node below which one of them is
    /// never read. `None` for alphabets of more than 31 codes and for a
    /// table with a cycle (which only a crafted file holds). One pass,
    /// depth first; 4 bytes an arc.
    pub(crate) fn letters_below(&self) -> Option<Vec<u32>> {
        let n = self.len();
        let mut below = vec![0u32; n];
        // 0 unseen, 1 entered, 2 done.
        let mut state = vec![0u8; n];
        // (node index, arcs of it gone into, the codes gathered so far)
        let root = self.node_index(self.arc(0) >> TARGET_SHIFT);
        if root == 0 {
            return Some(below);
        }
        let mut stack: Vec<(u32, u32, u32)> = vec![(root, 0, 0)];
        state[root as usize] = 1;
        while let Some(&(node, k, _)) = stack.last() {
            let arc = self.arc(node + k);
            let code = (arc & super::CODE) as u32;
            if code >= 32 {
                return None;
            }
            let child = self.node_index(arc >> TARGET_SHIFT);
            if child != 0 {
                match state[child as usize] {
                    0 => {
                        state[child as usize] = 1;
                        stack.push((child, 0, 0));
                        continue;
                    }
                    2 => {}
                    _ => return None,
                }
            }
            let top = stack.last_mut().expect("the node in hand");
            top.2 |= 1 << code | below[child as usize];
            top.1 += 1;
            let next = node as u64 + top.1 as u64;
            if arc & END != 0 || top.1 >= super::MAX_LIST || next >= self.packed.count as u64 {
                below[node as usize] = top.2;
                state[node as usize] = 2;
                stack.pop();
            }
        }
        Some(below)
    }
}

/// The arc table's reading state in a few words, for a hot loop to keep
/// in registers: what [`Reader::next_arc`] and [`Reader::cursor`] need,
/// read once from the [`Arcs`].
#[derive(Clone, Copy)]
pub(crate) struct Reader<'a> {
    packed: Packed,
    /// The bits of the longest list, [`super::MAX_LIST`] arcs.
    list_bits: usize,
    /// The section's bytes live as long as the table borrowed.
    _arcs: std::marker::PhantomData<&'a Arcs>,
}

impl Arcs {
    /// The table's [`Reader`].
    #[inline(always)]
    pub(crate) fn reader(&self) -> Reader<'_> {
        Reader {
            packed: self.packed,
            list_bits: super::MAX_LIST as usize * self.packed.width,
            _arcs: std::marker::PhantomData,
        }
    }
}

impl Reader<'_> {
    /// Where the list of the node at `at` starts (the index of its first
    /// arc, as [`super::Node::index`] gives it; nothing to read for 0 or
    /// past the end).
    #[inline(always)]
    pub(crate) fn cursor(&self, at: u32) -> Cursor {
        let bit = at as usize * self.packed.width;
        // At most 64 arcs, none past the table's end; none for node 0.
        let stop = (bit + self.list_bits).min(self.packed.end_bit);
        Cursor {
            bit,
            stop: if at == 0 { 0 } else { stop },
        }
    }

    /// The next arc of the list `cursor` reads, if any, and the cursor
    /// moved past it (a list ends with its END arc, after 64 arcs or at
    /// the end of the table).
    #[inline(always)]
    pub(crate) fn next_arc(&self, cursor: &mut Cursor) -> Option<u64> {
        let bit = cursor.bit;
        if bit >= cursor.stop || bit >= self.packed.end_bit {
            return None;
        }
        // SAFETY: `bit < end_bit`, checked above, whatever cursor is
        // given; the section lives as long as the `Arcs` borrowed.
        let arc = unsafe { self.packed.load(bit) };
        cursor.bit = bit + self.packed.width;
        if arc & END != 0 {
            cursor.stop = 0;
        }
        Some(arc)
    }

    /// The index of the node `arc` leads to: 0 (no arcs) if past the end.
    #[inline(always)]
    pub(crate) fn target(&self, arc: u64) -> u32 {
        self.packed.target(arc)
    }

    /// The index of the node across the separator from node `at`, if its
    /// first arc reads the separator (0 if not: no arcs).
    #[inline(always)]
    pub(crate) fn separator(&self, at: u32) -> u32 {
        let mut c = self.cursor(at);
        match self.next_arc(&mut c) {
            Some(arc) if arc & super::CODE == 0 => self.target(arc),
            _ => 0,
        }
    }
}

/// Where a walk is in a node's list of arcs, as two numbers: what a walk
/// keeps for each node on its path, without a reference to the table
/// (see [`Reader::cursor`] and [`Reader::next_arc`]).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Cursor {
    /// The first bit of the next arc.
    bit: usize,
    /// The first bit past the list's last possible arc (0 once its END
    /// arc is read).
    stop: usize,
}

impl std::fmt::Debug for Arcs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Arcs")
            .field("arcs", &self.packed.count)
            .field("width", &self.packed.width)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `is_empty` is `len() == 0`, as for every collection; whether the
    /// table holds a word is `holds_words`, from the root's arcs.
    #[test]
    #[allow(clippy::len_zero, reason = "the definition is the oracle")]
    fn is_empty_agrees_with_len() {
        // A table of the root pointer alone, leading nowhere: one arc,
        // no word.
        let bytes = vec![0u8; Arcs::section_len(1, 16) as usize];
        // SAFETY: `bytes` outlives `bare`, unchanged.
        let bare = unsafe { Arcs::in_place(&bytes, 1, 16) }.unwrap();
        assert_eq!((bare.len(), bare.is_empty()), (1, false));
        assert!(!bare.holds_words());
        let lex = crate::Lexicon::embedded();
        let arcs = lex.arcs();
        assert_eq!(arcs.is_empty(), arcs.len() == 0);
        assert!(arcs.len() > 1 && arcs.holds_words());
    }
}
