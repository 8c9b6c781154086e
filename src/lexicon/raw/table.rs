//! [`Arcs`]: the packed array of arcs, read in place.

use std::sync::OnceLock;

use super::masked::{Masked, Source};
use super::{END, TARGET_SHIFT};

/// The arc table of a lexicon (see [the module](super)): packed arcs read
/// in place from the lexicon's bytes (a map, the embedded file or a
/// buffer), with no set-up.
pub struct Arcs {
    /// The section's bytes, which the [`crate::Lexicon`] holding this table
    /// keeps where they are for as long as it lives. Read only through
    /// [`Arcs::arc`], every index checked against `count`.
    ptr: *const u8,
    /// The number of arcs (arc 0, the root pointer, included).
    count: u32,
    /// Bits per arc.
    width: u32,
    /// `width` one bits.
    mask: u64,
    /// `count * width`: the first bit past the last arc.
    end_bit: usize,
    /// The table unpacked with masks, made when first asked for.
    masked: OnceLock<Masked>,
}

// SAFETY: an `Arcs` only reads its bytes, which nothing writes while it
// lives (the bytes of the lexicon that owns it).
unsafe impl Send for Arcs {}
// SAFETY: as for `Send`: shared use is read-only.
unsafe impl Sync for Arcs {}

/// The widest arc (8 bits of code and flags, 32 of target).
pub(crate) const MAX_WIDTH: u32 = 40;
/// The narrowest arc.
pub(crate) const MIN_WIDTH: u32 = 9;

impl Arcs {
    /// The bytes a section of `count` arcs of `width` bits takes: the
    /// arcs, then 8 zero bytes, so that every arc is read with one 8-byte
    /// load.
    pub(crate) fn section_len(count: u64, width: u32) -> u64 {
        (count * width as u64).div_ceil(8) + 8
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
        if !(MIN_WIDTH..=MAX_WIDTH).contains(&width) {
            return Err("arc width out of range");
        }
        if count == 0 || count > u32::MAX as u64 || (count - 1) >> (width - TARGET_SHIFT) != 0 {
            return Err("arc count out of range");
        }
        if bytes.len() as u64 != Arcs::section_len(count, width) {
            return Err("the section's size is not that of its arcs");
        }
        Ok(Arcs {
            ptr: bytes.as_ptr(),
            count: count as u32,
            width,
            mask: (1u64 << width) - 1,
            end_bit: count as usize * width as usize,
            masked: OnceLock::new(),
        })
    }

    /// Arc `i` (`i` below the count).
    #[inline(always)]
    pub(crate) fn arc(&self, i: u32) -> u64 {
        debug_assert!(i < self.count);
        let bit = i as usize * self.width as usize;
        // SAFETY: `i < count`, so the 8 bytes from `bit / 8` lie within
        // the section, whose last 8 bytes follow the last arc's (see
        // `in_place`); an unaligned read needs no alignment.
        let word = unsafe { std::ptr::read_unaligned(self.ptr.add(bit >> 3).cast::<u64>()) };
        (u64::from_le(word) >> (bit & 7)) & self.mask
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
        debug_assert!(bit % self.width as usize == 0);
        debug_assert!(bit / (self.width as usize) < self.count as usize);
        // SAFETY: as for `arc`: arc `bit / width` is below the count, so
        // the 8 bytes from `bit / 8` lie within the section.
        let word = unsafe { std::ptr::read_unaligned(self.ptr.add(bit >> 3).cast::<u64>()) };
        (u64::from_le(word) >> (bit & 7)) & self.mask
    }

    /// How many arcs a list starting at `at` may hold: [`super::MAX_LIST`],
    /// or fewer where the table ends sooner (0 for `at` 0, the index of no
    /// node, or past the end).
    #[inline(always)]
    pub(crate) fn room(&self, at: u32) -> u32 {
        if at == 0 {
            0
        } else {
            self.count.saturating_sub(at).min(super::MAX_LIST)
        }
    }

    /// The table unpacked, each arc with its target's codes (see
    /// [`Masked`]): made on the first call (one pass over the arcs, 8
    /// bytes an arc for the usual alphabets), then shared.
    pub(crate) fn masked(&self) -> &Masked {
        self.masked.get_or_init(|| Masked::new(self))
    }

    /// The number of arcs (the root pointer, arc 0, included: at least
    /// 1 for any table opened).
    pub fn len(&self) -> usize {
        self.count as usize
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
        self.width
    }

    /// Bytes the arcs take in the file.
    pub fn bytes(&self) -> usize {
        Arcs::section_len(self.count as u64, self.width) as usize
    }

    /// The index of the node whose first arc is `index`: 0 (no arcs) if
    /// `index` is 0 or past the end.
    #[inline(always)]
    pub(crate) fn node_index(&self, index: u64) -> u32 {
        if index < self.count as u64 {
            index as u32
        } else {
            0
        }
    }

    /// For every code, how many arcs read it: roughly how common each
    /// letter is in the lexicon's words.
    pub(crate) fn code_counts(&self) -> [u32; 64] {
        let mut counts = [0u32; 64];
        for i in 1..self.count {
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
        let n = self.count as usize;
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
            if arc & END != 0 || top.1 >= super::MAX_LIST || next >= self.count as u64 {
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
    ptr: *const u8,
    width: usize,
    mask: u64,
    count: u32,
    end_bit: usize,
    /// The bits of the longest list, [`super::MAX_LIST`] arcs.
    list_bits: usize,
    _arcs: std::marker::PhantomData<&'a Arcs>,
}

impl Arcs {
    /// The table's [`Reader`].
    #[inline(always)]
    pub(crate) fn reader(&self) -> Reader<'_> {
        Reader {
            ptr: self.ptr,
            width: self.width as usize,
            mask: self.mask,
            count: self.count,
            end_bit: self.end_bit,
            list_bits: super::MAX_LIST as usize * self.width as usize,
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
        let bit = at as usize * self.width;
        // At most 64 arcs, none past the table's end; none for node 0.
        let stop = (bit + self.list_bits).min(self.end_bit);
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
        if bit >= cursor.stop || bit >= self.end_bit {
            return None;
        }
        // SAFETY: `bit < count * width`, so the 8 bytes from `bit / 8`
        // lie within the section (see `Arcs::section_len`), which lives
        // as long as the `Arcs` this reader borrows, whatever cursor is
        // given.
        let word = unsafe { std::ptr::read_unaligned(self.ptr.add(bit >> 3).cast::<u64>()) };
        let arc = (u64::from_le(word) >> (bit & 7)) & self.mask;
        cursor.bit = bit + self.width;
        if arc & END != 0 {
            cursor.stop = 0;
        }
        Some(arc)
    }

    /// The index of the node `arc` leads to: 0 (no arcs) if past the end.
    #[inline(always)]
    pub(crate) fn target(&self, arc: u64) -> u32 {
        let index = arc >> TARGET_SHIFT;
        if index < self.count as u64 {
            index as u32
        } else {
            0
        }
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

impl Source for Arcs {
    #[inline(always)]
    fn len(&self) -> usize {
        self.count as usize
    }
    #[inline(always)]
    fn arc(&self, i: u32) -> u64 {
        Arcs::arc(self, i)
    }
}

impl std::fmt::Debug for Arcs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Arcs")
            .field("arcs", &self.count)
            .field("width", &self.width)
            .finish()
    }
}
