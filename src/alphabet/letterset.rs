//! A set of tile codes as one 64-bit mask.
//!
//! Tile codes are small (1..=63, see [`crate::Alphabet`]), so a set of them
//! fits one machine word: the cursor reports the letters that may follow a
//! node this way, and cross sets on a board are the same type.

use std::fmt;

/// A set of tile codes (bit `c` set means code `c` is in the set).
///
/// ```
/// use lexq::{LetterSet, Lexicon};
/// let lex = Lexicon::embedded();
/// let hooks = lex.hooks("care")?;
/// let s = lex.alphabet().encode("s")?[0];
/// assert!(hooks.front.contains(s));
/// let both: LetterSet = hooks.front & hooks.back;
/// assert_eq!(both.iter().collect::<Vec<u8>>(), [s]);
/// # Ok::<(), lexq::Error>(())
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct LetterSet(pub u64);

impl LetterSet {
    /// The empty set.
    pub const EMPTY: LetterSet = LetterSet(0);

    /// Every code from 1 to `n` inclusive (the letters of an `n`-tile alphabet).
    pub fn first(n: usize) -> LetterSet {
        debug_assert!(n < 64);
        LetterSet(((1u64 << n) - 1) << 1)
    }

    /// Whether `code` is in the set.
    #[inline]
    pub fn contains(self, code: u8) -> bool {
        code < 64 && self.0 & (1u64 << code) != 0
    }

    /// Adds `code` to the set.
    #[inline]
    pub fn insert(&mut self, code: u8) {
        debug_assert!(code < 64);
        self.0 |= 1u64 << code;
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The number of codes in the set.
    #[inline]
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The codes in the set, in increasing order.
    pub fn iter(self) -> impl Iterator<Item = u8> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let c = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            Some(c)
        })
    }
}

impl std::ops::BitAnd for LetterSet {
    type Output = LetterSet;
    fn bitand(self, rhs: LetterSet) -> LetterSet {
        LetterSet(self.0 & rhs.0)
    }
}

impl std::ops::BitOr for LetterSet {
    type Output = LetterSet;
    fn bitor(self, rhs: LetterSet) -> LetterSet {
        LetterSet(self.0 | rhs.0)
    }
}

impl FromIterator<u8> for LetterSet {
    fn from_iter<I: IntoIterator<Item = u8>>(iter: I) -> LetterSet {
        let mut s = LetterSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

impl fmt::Debug for LetterSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let s: LetterSet = [1u8, 5, 63].into_iter().collect();
        assert!(s.contains(5) && !s.contains(4) && s.contains(63));
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![1, 5, 63]);
        assert_eq!(s.len(), 3);
        assert_eq!(
            LetterSet::first(3).iter().collect::<Vec<_>>(),
            vec![1, 2, 3]
        );
        assert_eq!((s & LetterSet::first(5)).len(), 2);
    }
}
