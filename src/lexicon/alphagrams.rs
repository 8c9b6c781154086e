//! [`Alphagrams`]: every word of a lexicon filed under its alphagram (its
//! tiles counted, whatever their order), for the anagrams of racks with
//! blanks once [`crate::Lexicon::prepare_walks`] has built it.
//!
//! A walk of the arc table cannot know, at a word's first letters, which
//! letters the rest of the word holds: with a blank, every letter may come
//! next, so the walk for AEINRST? visits every prefix one letter away from
//! the rack (about 10,000 for AEINRST?, 17,000 for ??AEINR on ENABLE)
//! whatever the letters below it. Filed by alphagram, the anagrams of
//! AEINRST? are those of AEINRST plus one letter: 26 look-ups, each a
//! binary search; ??AEINR takes 351 (every pair of letters).
//!
//! A key packs each code's count in 4 bits (code `c` at bits `4(c-1)`),
//! so it serves alphabets of at most 31 tiles and words holding no tile
//! more than 15 times; a word holding one more often is not filed, and a
//! query that would look for such a word asks the walk instead.
//!
//! Made in one pass over the words in alphabet order and one sort, about
//! 26 bytes a word (the key, where the word starts, its tiles).

use std::ops::ControlFlow;

use super::Lexicon;

/// The largest count a key holds for one code.
pub(crate) const MAX_COUNT: u8 = 15;
/// The largest code a key holds.
pub(crate) const MAX_CODE: usize = 31;

/// Every word of a lexicon by alphagram (see [the module](self)).
pub(crate) struct Alphagrams {
    /// The keys, in increasing order.
    keys: Vec<u128>,
    /// Where the word of each key starts in `tiles` (its length is its
    /// key's count of tiles); the words of one key in alphabet order.
    starts: Vec<u32>,
    /// The words' tile codes, back to back.
    tiles: Vec<u8>,
}

/// The key of tile counts `counts` (`counts[c]` for code `c`), or `None`
/// if a code above [`MAX_CODE`] is counted or a count exceeds
/// [`MAX_COUNT`].
pub(crate) fn key_of_counts(counts: &[u8; 64]) -> Option<u128> {
    if counts[0] != 0 || counts[MAX_CODE + 1..].iter().any(|&n| n != 0) {
        return None;
    }
    let mut key = 0u128;
    for (c, &n) in counts.iter().enumerate().take(MAX_CODE + 1).skip(1) {
        if n > MAX_COUNT {
            return None;
        }
        key |= (n as u128) << (4 * (c - 1));
    }
    Some(key)
}

/// The key of the word `codes`, or `None` as for [`key_of_counts`].
fn key_of_word(codes: &[u8]) -> Option<u128> {
    let mut counts = [0u8; 64];
    for &c in codes {
        let n = &mut counts[c as usize & 63];
        *n = n.saturating_add(1);
    }
    key_of_counts(&counts)
}

impl Alphagrams {
    /// Files every word of `lex`; `None` if its alphabet has more than
    /// [`MAX_CODE`] tiles or its words more tiles than a `u32` counts.
    pub(crate) fn new(lex: &Lexicon) -> Option<Alphagrams> {
        if lex.alphabet().len() > MAX_CODE {
            return None;
        }
        let words = usize::try_from(lex.word_count()).unwrap_or(usize::MAX);
        let mut filed: Vec<(u128, u32)> = Vec::with_capacity(words.min(1 << 24));
        let mut tiles: Vec<u8> = Vec::new();
        let mut too_many = false;
        lex.for_each_word(1, usize::MAX, |w| {
            if let Some(key) = key_of_word(w) {
                let Ok(start) = u32::try_from(tiles.len()) else {
                    too_many = true;
                    return ControlFlow::Break(());
                };
                filed.push((key, start));
                tiles.extend_from_slice(w);
            }
            ControlFlow::Continue(())
        });
        if too_many {
            return None;
        }
        // Words come in alphabet order, at increasing starts: sorting on
        // (key, start) keeps each key's words in alphabet order.
        filed.sort_unstable();
        let (keys, starts) = filed.into_iter().unzip();
        tiles.shrink_to_fit();
        Some(Alphagrams {
            keys,
            starts,
            tiles,
        })
    }

    /// Calls `f` with every word whose alphagram is `key`, in alphabet
    /// order.
    pub(crate) fn for_each(&self, key: u128, mut f: impl FnMut(&[u8])) {
        let from = self.keys.partition_point(|&k| k < key);
        let len = key_len(key);
        for (&k, &start) in self.keys[from..].iter().zip(&self.starts[from..]) {
            if k != key {
                break;
            }
            let start = start as usize;
            if let Some(word) = self.tiles.get(start..start + len) {
                f(word);
            }
        }
    }
}

/// The number of tiles a key counts.
fn key_len(mut key: u128) -> usize {
    let mut n = 0;
    while key != 0 {
        n += (key & 15) as usize;
        key >>= 4;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_count_tiles_whatever_their_order() {
        // CARE and RACE share a key; CARS does not.
        let (c, a, r, e, s) = (3, 1, 18, 5, 19);
        assert_eq!(key_of_word(&[c, a, r, e]), key_of_word(&[r, a, c, e]));
        assert_ne!(key_of_word(&[c, a, r, e]), key_of_word(&[c, a, r, s]));
        assert_eq!(key_len(key_of_word(&[c, a, r, e]).unwrap()), 4);
        // 15 of a tile fit; 16 do not, nor code 32.
        assert!(key_of_word(&[a; 15]).is_some());
        assert!(key_of_word(&[a; 16]).is_none());
        assert!(key_of_word(&[32]).is_none());
        assert_eq!(key_of_word(&[31]), Some(1 << 120));
    }
}
