//! [`Packed`]: where a table's packed arcs are and how wide, and the one
//! unchecked read of them ([`Packed::load`]), which every reader of the
//! table ([`super::Arcs`], its `Reader`, the [`super::masked`] table's
//! making) goes through.

use super::TARGET_SHIFT;

/// The widest arc (8 bits of code and flags, 32 of target).
pub(crate) const MAX_WIDTH: u32 = 40;
/// The narrowest arc.
pub(crate) const MIN_WIDTH: u32 = 9;

/// An arcs section's place and shape: a few words, copied freely (a hot
/// loop keeps them in registers).
///
/// Made only by [`Packed::new`], from a section of exactly
/// [`Packed::section_len`] bytes: the arcs, then 8 more bytes. Whoever
/// holds one keeps the section's bytes where they are, unchanged, for as
/// long as it is used (the [`crate::Lexicon`] that owns the table).
#[derive(Clone, Copy)]
pub(crate) struct Packed {
    /// The section's first byte.
    ptr: *const u8,
    /// Bits per arc, [`MIN_WIDTH`] to [`MAX_WIDTH`].
    pub width: usize,
    /// `width` one bits.
    pub mask: u64,
    /// The number of arcs (arc 0, the root pointer, included; at least 1).
    pub count: u32,
    /// `count * width`: the first bit past the last arc.
    pub end_bit: usize,
}

impl Packed {
    /// The bytes a section of `count` arcs of `width` bits takes: the
    /// arcs, then 8 zero bytes, so that every arc is read with one 8-byte
    /// load.
    pub(crate) fn section_len(count: u64, width: u32) -> u64 {
        (count * width as u64).div_ceil(8) + 8
    }

    /// The table in `bytes` (an arcs section). Only its size is checked:
    /// reads are checked against it, so a malformed table makes walks
    /// find less, never panic or loop.
    ///
    /// # Safety
    ///
    /// The result points into `bytes`: they must stay where they are,
    /// unchanged, for as long as it (or any copy of it) is used.
    pub(crate) unsafe fn new(bytes: &[u8], count: u64, width: u32) -> Result<Packed, &'static str> {
        if !(MIN_WIDTH..=MAX_WIDTH).contains(&width) {
            return Err("arc width out of range");
        }
        if count == 0 || count > u32::MAX as u64 || (count - 1) >> (width - TARGET_SHIFT) != 0 {
            return Err("arc count out of range");
        }
        if bytes.len() as u64 != Packed::section_len(count, width) {
            return Err("the section's size is not that of its arcs");
        }
        Ok(Packed {
            ptr: bytes.as_ptr(),
            width: width as usize,
            mask: (1u64 << width) - 1,
            count: count as u32,
            end_bit: count as usize * width as usize,
        })
    }

    /// The arc whose first bit is `bit`: the one read of the section's
    /// bytes that is not checked (walks read arcs in hot loops, and check
    /// their bounds once per list).
    ///
    /// # Safety
    ///
    /// `bit` is below [`Packed::end_bit`] (and the section is alive, as
    /// [`Packed::new`] requires).
    #[inline(always)]
    pub(crate) unsafe fn load(&self, bit: usize) -> u64 {
        debug_assert!(bit < self.end_bit);
        // SAFETY: `bit < end_bit = count * width`, so byte `bit / 8` is
        // within the arcs, and the section holds 8 bytes past the arcs'
        // last byte (`section_len`): the 8 bytes from `bit / 8` are all
        // the section's, which are alive and unchanged (`new`'s
        // contract). An unaligned read needs no alignment.
        let word = unsafe { std::ptr::read_unaligned(self.ptr.add(bit >> 3).cast::<u64>()) };
        (u64::from_le(word) >> (bit & 7)) & self.mask
    }

    /// Arc `i`; 0 (no code, no flags, no target) past the end.
    #[inline(always)]
    pub(crate) fn arc(&self, i: u32) -> u64 {
        if i < self.count {
            // SAFETY: `i < count`, so `i * width < end_bit`.
            unsafe { self.load(i as usize * self.width) }
        } else {
            0
        }
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
}

// SAFETY: a `Packed` only reads its bytes, which nothing writes while it
// is used (`Packed::new`'s contract).
unsafe impl Send for Packed {}
// SAFETY: as for `Send`: shared use is read-only.
unsafe impl Sync for Packed {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Arcs packed by hand, bit by bit, read back through every reader of
    /// the section (an oracle independent of `raw::write`).
    #[test]
    fn loads_read_back_hand_packed_arcs() {
        // 11 arcs: targets need 4 bits, past the 8 of code and flags.
        for width in [12, 13, 28, 33, MAX_WIDTH] {
            let count = 11u64;
            let mut bytes = vec![0u8; Packed::section_len(count, width) as usize];
            let value =
                |i: u64| (i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 7) & ((1u64 << width) - 1);
            for i in 0..count {
                for b in 0..width as u64 {
                    if value(i) >> b & 1 != 0 {
                        let at = i * width as u64 + b;
                        bytes[(at / 8) as usize] |= 1 << (at % 8);
                    }
                }
            }
            // SAFETY: `bytes` outlives `p`, unchanged.
            let p = unsafe { Packed::new(&bytes, count, width) }.unwrap();
            for i in 0..count {
                assert_eq!(p.arc(i as u32), value(i), "width {width}, arc {i}");
            }
            assert_eq!(p.arc(count as u32), 0, "past the end");
            assert_eq!(p.arc(u32::MAX), 0, "far past the end");
        }
    }

    #[test]
    fn sections_of_the_wrong_shape_are_refused() {
        let bytes = vec![0u8; Packed::section_len(3, 16) as usize];
        // SAFETY (all): `bytes` outlives every result, unchanged.
        assert!(unsafe { Packed::new(&bytes, 3, 16) }.is_ok());
        assert!(unsafe { Packed::new(&bytes, 4, 16) }.is_err());
        assert!(unsafe { Packed::new(&bytes[1..], 3, 16) }.is_err());
        assert!(unsafe { Packed::new(&bytes, 0, 16) }.is_err());
        assert!(unsafe { Packed::new(&bytes, 3, MIN_WIDTH - 1) }.is_err());
        assert!(unsafe { Packed::new(&bytes, 3, MAX_WIDTH + 1) }.is_err());
    }
}
