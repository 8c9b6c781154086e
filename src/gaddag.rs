//! The GADDAG key encoding.
//!
//! For a word `c1 c2 … cn` (tile codes), the lexicon stores `n` keys:
//! for each split `1 ≤ i < n` the reversed prefix, the separator, then the
//! suffix (`ci … c1 SEP ci+1 … cn`), and the whole word reversed with no
//! separator (`cn … c1`). Every walk of the lexicon starts from some run of
//! letters read right to left, crosses the separator at most once, then
//! reads left to right: see [`crate::Cursor`].
//!
//! In the fst, code `c` is stored as byte `c` of
//! `te/oasripcnw.hlm-du012g=:bf3y5&_4v9678k%?xCDASFIBEjPTzRNM+LOqHGW`: the
//! bytes fst's node encoding treats as common inputs, which it packs into
//! the node's header, so most one-transition nodes need no byte for their
//! input (9% smaller than storing the codes themselves). The
//! [`Cursor`] speaks codes and translates; nothing outside this crate
//! needs the bytes.
//!
//! [`Cursor`]: crate::Cursor

use crate::fstwrite::COMMON_INPUTS as COMMON;

/// The separator code between the reversed prefix and the suffix. Tile codes
/// start at 1.
pub const SEPARATOR: u8 = 0;

/// The longest word, in tiles, a lexicon may hold.
pub const MAX_WORD_LEN: usize = 63;

/// The fst byte of code `c` (the separator or a tile, 0..=63).
#[inline]
pub(crate) fn key_byte(code: u8) -> u8 {
    COMMON[code as usize & 63]
}

const CODES: [u8; 256] = {
    let mut t = [NO_CODE; 256];
    let mut c = 0;
    while c < 64 {
        t[COMMON[c] as usize] = c as u8;
        c += 1;
    }
    t
};

const NO_CODE: u8 = 0xff;

/// The code stored as fst byte `b`, if any.
#[inline]
pub(crate) fn key_code(b: u8) -> Option<u8> {
    match CODES[b as usize] {
        NO_CODE => None,
        c => Some(c),
    }
}

/// Writes the key for split `i` of `word` (`1 ≤ i ≤ word.len()`) into `key`
/// as fst bytes, padding the rest with zeros. No key byte is zero, so the
/// padded keys sort exactly as the keys do.
#[inline]
pub(crate) fn padded_key(word: &[u8], i: usize, key: &mut [u8]) {
    let n = word.len();
    let mut j = 0;
    for &c in word[..i].iter().rev() {
        key[j] = key_byte(c);
        j += 1;
    }
    if i < n {
        key[j] = key_byte(SEPARATOR);
        j += 1;
        for &c in &word[i..] {
            key[j] = key_byte(c);
            j += 1;
        }
    }
    key[j..].fill(0);
}

/// The first two bytes of the padded key for split `i` of `word`, as one
/// number below 2^14 (all key bytes are ASCII).
#[inline]
pub(crate) fn key_prefix(word: &[u8], i: usize) -> usize {
    let second = if i >= 2 {
        key_byte(word[i - 2])
    } else if i < word.len() {
        key_byte(SEPARATOR)
    } else {
        0
    };
    ((key_byte(word[i - 1]) as usize) << 7) | second as usize
}

/// The length of a padded key (see `padded_key`).
#[inline]
pub(crate) fn padded_len(key: &[u8]) -> usize {
    key.iter().rposition(|&c| c != 0).map_or(0, |p| p + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_of_care() {
        let care = [3, 1, 18, 5];
        let expect: [&[u8]; 4] = [
            &[3, 0, 1, 18, 5],
            &[1, 3, 0, 18, 5],
            &[18, 1, 3, 0, 5],
            &[5, 18, 1, 3],
        ];
        for i in 1..=4 {
            let mut k = [9u8; 8];
            padded_key(&care, i, &mut k);
            let codes: Vec<u8> = k[..padded_len(&k)]
                .iter()
                .map(|&b| key_code(b).unwrap())
                .collect();
            assert_eq!(codes, expect[i - 1]);
            assert_eq!(key_prefix(&care, i), ((k[0] as usize) << 7) | k[1] as usize);
        }
    }

    #[test]
    fn byte_mapping_is_a_bijection_onto_ascii() {
        for c in 0..64u8 {
            let b = key_byte(c);
            assert!(b != 0 && b < 128);
            assert_eq!(key_code(b), Some(c));
        }
        assert_eq!(key_code(0), None);
    }
}
