//! [`SubRacks`]: a rack's numbering of its sub-racks, the leaves a move
//! can keep, shared by the leave table and the equity search.

use crate::alphabet::tileset::MAX_RACK;
use crate::game::rack::Rack;

/// The most sub-racks a [`SubRacks`] numbers (every leave of a rack of 15
/// different tiles).
pub const MAX_SUBRACKS: usize = 1 << MAX_RACK;

/// A rack's numbering of its sub-racks (every leave a move can keep): with
/// the rack's different tiles in code order `c0 < c1 < ...`, held `n0, n1,
/// ...` times, the sub-rack holding `k0` of `c0`, `k1` of `c1`... is number
/// `k0 + k1 (n0 + 1) + k2 (n0 + 1)(n1 + 1) + ...`. For `AEE?` (codes 0 for
/// `?`, 1 for A, 5 for E; radixes 1, 2, 4): `?` is 1, `A` 2, `E` 4, `EE` 8,
/// `?AEE` 1 + 2 + 8 = 11, of 12 sub-racks in all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubRacks {
    codes: [u8; MAX_RACK],
    counts: [u8; MAX_RACK],
    radix: [u32; MAX_RACK],
    distinct: usize,
    total: usize,
}

impl SubRacks {
    /// The numbering of `rack`'s sub-racks; `None` for a rack of more than
    /// [`MAX_SUBRACKS`] of them.
    pub fn new(rack: &Rack) -> Option<SubRacks> {
        let mut s = SubRacks {
            codes: [0; MAX_RACK],
            counts: [0; MAX_RACK],
            radix: [0; MAX_RACK],
            distinct: 0,
            total: 1,
        };
        for (c, &k) in rack.counts().iter().enumerate() {
            if k == 0 {
                continue;
            }
            let i = s.distinct;
            if i == MAX_RACK {
                return None;
            }
            let total = s.total.checked_mul(k as usize + 1)?;
            if total > MAX_SUBRACKS {
                return None;
            }
            s.codes[i] = c as u8;
            s.counts[i] = k;
            s.radix[i] = s.total as u32;
            s.total = total;
            s.distinct += 1;
        }
        Some(s)
    }

    /// The number of sub-racks, the empty one and the whole rack included.
    pub fn len(&self) -> usize {
        self.total
    }

    /// Never: a rack has at least its empty sub-rack.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The number of `leave` (tiles of `leave` the rack lacks, and counts
    /// above the rack's, are not numbered: give a sub-rack).
    #[inline]
    pub fn index(&self, leave: &Rack) -> usize {
        self.index_of_counts(leave.counts())
    }

    #[inline]
    pub(crate) fn index_of_counts(&self, counts: &[u8; 64]) -> usize {
        let mut at = 0u32;
        for i in 0..self.distinct.min(MAX_RACK) {
            let k = counts[self.codes[i] as usize & 63].min(self.counts[i]);
            at += k as u32 * self.radix[i];
        }
        at as usize
    }

    /// The different tiles, their counts and radixes, in code order.
    pub(crate) fn digits(&self) -> impl Iterator<Item = (u8, u8, u32)> + '_ {
        (0..self.distinct).map(|i| (self.codes[i], self.counts[i], self.radix[i]))
    }

    /// The sub-rack of number `at`.
    pub fn sub_rack(&self, at: usize) -> Rack {
        let mut r = Rack::new();
        let mut at = at;
        for (c, n, _) in self.digits() {
            let k = at % (n as usize + 1);
            at /= n as usize + 1;
            for _ in 0..k {
                r.add(c);
            }
        }
        r
    }
}
