//! The GADDAG key encoding.
//!
//! For a word `c1 c2 … cn` (tile codes), the lexicon stores `n` keys:
//! for each split `1 ≤ i < n` the reversed prefix, the separator, then the
//! suffix (`ci … c1 SEP ci+1 … cn`), and the whole word reversed with no
//! separator (`cn … c1`). With `@` for the separator: CARE = ERAC, RAC@E,
//! AC@RE, C@ARE. Every walk of the lexicon starts from some run of letters
//! read right to left, crosses the separator at most once, then reads left
//! to right: see [`crate::lexicon::raw`].
//!
//! In the fst section ([`crate::Lexicon::fst_set`]), code `c` is stored as
//! byte `c` of [`KEY_BYTES`],
//! `te/oasripcnw.hlm-du012g=:bf3y5&_4v9678k%?xCDASFIBEjPTzRNM+LOqHGW`: the
//! bytes fst's node encoding treats as common inputs, which it packs into
//! the node's header, so most one-transition nodes need no byte for their
//! input (9% smaller than storing the codes themselves). The separator is
//! `t`, A (code 1 in English) is `e`, so CARE's keys are the bytes of
//! `.eo/r`, `oe./r`, `/e.tr`... as text: every key is ASCII. Use
//! [`key_word`] and [`word_key`] to go between keys and tile codes, and
//! [`crate::Alphabet`] to spell them.
//!
//! ```
//! use lexq::raw::gaddag::{key_word, word_key};
//! let lex = lexq::Lexicon::embedded();
//! let a = lex.alphabet();
//! let care = a.encode("care")?;
//! let set = lex.fst_set()?;
//! // The whole-word key: CARE reversed, no separator.
//! assert!(set.contains(word_key(&care)));
//! // Every key gives back its word.
//! let words: Vec<String> = set
//!     .stream()
//!     .into_strs()?
//!     .iter()
//!     .filter(|k| k.len() == 4)
//!     .take(3)
//!     .map(|k| a.decode(&key_word(k.as_bytes()).unwrap()))
//!     .collect();
//! assert_eq!(words.len(), 3);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::lexicon::fstwrite::COMMON_INPUTS as COMMON;

/// The byte each code (0, the separator, to 63) is stored as in the fst
/// section's keys.
pub const KEY_BYTES: &[u8; 64] = COMMON;

/// The separator code between the reversed prefix and the suffix. Tile codes
/// start at 1.
pub const SEPARATOR: u8 = 0;

/// The longest word, in tiles, a lexicon may hold.
pub const MAX_WORD_LEN: usize = 63;

/// The fst byte of code `c` (the separator or a tile, 0..=63).
#[inline]
pub fn key_byte(code: u8) -> u8 {
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
pub fn key_code(b: u8) -> Option<u8> {
    match CODES[b as usize] {
        NO_CODE => None,
        c => Some(c),
    }
}

/// The tile codes of the word a key of the fst section belongs to (any of
/// its keys: `rev(prefix) SEP suffix`, or the whole word reversed); `None`
/// for bytes that are no key (a byte outside [`KEY_BYTES`], a second
/// separator, an empty key).
///
/// ```
/// use lexq::raw::gaddag::{SEPARATOR, key_byte, key_word};
/// // AC@RE: CA reversed, the separator, RE.
/// let key: Vec<u8> = [1, 3, SEPARATOR, 18, 5].iter().map(|&c| key_byte(c)).collect();
/// assert_eq!(key_word(&key), Some(vec![3, 1, 18, 5]));
/// ```
pub fn key_word(key: &[u8]) -> Option<Vec<u8>> {
    let mut codes = key
        .iter()
        .map(|&b| key_code(b))
        .collect::<Option<Vec<u8>>>()?;
    let (prefix, suffix) = match codes.iter().position(|&c| c == SEPARATOR) {
        Some(p) => (p, p + 1),
        None => (codes.len(), codes.len()),
    };
    if prefix == 0 || codes[suffix..].contains(&SEPARATOR) {
        return None;
    }
    codes[..prefix].reverse();
    codes.drain(prefix..suffix);
    Some(codes)
}

/// The whole-word key of `word` (tile codes): the word reversed, without
/// the separator, as fst bytes. What `fst::Set::contains` takes to judge
/// a word, and what `fst`'s automata run over to search whole words.
pub fn word_key(word: &[u8]) -> Vec<u8> {
    word.iter().rev().map(|&c| key_byte(c)).collect()
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
