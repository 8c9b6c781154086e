//! The GADDAG entry encoding.
//!
//! For a word `c1 c2 … cn` (tile codes), the lexicon stores `n` keys:
//! for each split `1 ≤ i < n` the reversed prefix, the separator, then the
//! suffix (`ci … c1 SEP ci+1 … cn`), and the whole word reversed with no
//! separator (`cn … c1`). Every walk of the lexicon starts from some run of
//! letters read right to left, crosses the separator at most once, then
//! reads left to right: see [`crate::Cursor`].

/// The separator code between the reversed prefix and the suffix. Tile codes
/// start at 1, so it sorts before every letter.
pub const SEPARATOR: u8 = 0;

/// The longest word, in tiles, a lexicon may hold.
pub const MAX_WORD_LEN: usize = 63;

/// Calls `f` with every GADDAG key of `word`, in no particular order, using
/// `buf` as scratch space.
pub fn for_each_key(word: &[u8], buf: &mut Vec<u8>, mut f: impl FnMut(&[u8])) {
    let n = word.len();
    for i in 1..=n {
        buf.clear();
        buf.extend(word[..i].iter().rev());
        if i < n {
            buf.push(SEPARATOR);
            buf.extend_from_slice(&word[i..]);
        }
        f(buf);
    }
}

/// Writes the key for split `i` of `word` (`1 ≤ i ≤ word.len()`) into `key`,
/// padding the rest with zeros. Padding cannot be confused with the
/// separator: a key never ends with one, so the padded keys sort exactly as
/// the keys do.
#[inline]
pub fn padded_key(word: &[u8], i: usize, key: &mut [u8]) {
    let n = word.len();
    let mut j = 0;
    for &c in word[..i].iter().rev() {
        key[j] = c;
        j += 1;
    }
    if i < n {
        key[j] = SEPARATOR;
        j += 1;
        key[j..j + n - i].copy_from_slice(&word[i..]);
        j += n - i;
    }
    key[j..].fill(0);
}

/// The length of a padded key (see [`padded_key`]).
#[inline]
pub fn padded_len(key: &[u8]) -> usize {
    key.iter().rposition(|&c| c != 0).map_or(0, |p| p + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_of_care() {
        let mut keys = Vec::new();
        for_each_key(&[3, 1, 18, 5], &mut Vec::new(), |k| keys.push(k.to_vec()));
        assert_eq!(
            keys,
            vec![
                vec![3, 0, 1, 18, 5],
                vec![1, 3, 0, 18, 5],
                vec![18, 1, 3, 0, 5],
                vec![5, 18, 1, 3],
            ]
        );
        for i in 1..=4 {
            let mut k = [9u8; 8];
            padded_key(&[3, 1, 18, 5], i, &mut k);
            assert_eq!(&k[..padded_len(&k)], keys[i - 1].as_slice());
        }
    }
}
