//! [`Alphagrams`]: every word of a lexicon filed under its alphagram (its
//! tiles counted, whatever their order), for the anagrams of racks with
//! blanks once [`crate::Lexicon::prepare_walks`] has built it.
//!
//! A walk of the arc table cannot know, at a word's first letters, which
//! letters the rest of the word holds: with a blank, every letter may come
//! next, so the walk for AEINRST? visits every prefix one letter away from
//! the rack whatever the letters below it (docs/BENCHMARKS.md counts
//! them). Filed by alphagram, the anagrams of AEINRST? are those of
//! AEINRST plus one letter: 26 look-ups; ??AEINR takes 351 (every pair of
//! letters).
//!
//! A key packs each code's count in 4 bits (code `c` at bits `4(c-1)`),
//! so it serves alphabets of at most 31 tiles and words holding no tile
//! more than 15 times; a word holding one more often is not filed, and a
//! query that would look for such a word asks the walk instead.
//!
//! A key is found through a hash table of the distinct keys (open
//! addressing, at most half full), not by a binary search: two blanks ask
//! for hundreds of keys, most of them no word's.
//!
//! Made in one pass over the words in alphabet order (each key found or
//! added in the table) and a counting pass that groups each key's words:
//! the distinct keys, where each word starts, its tiles, and the hash
//! table (docs/BENCHMARKS.md gives the size).

use std::ops::ControlFlow;

use super::Lexicon;

/// The largest count a key holds for one code.
pub(crate) const MAX_COUNT: u8 = 15;
/// The largest code a key holds.
pub(crate) const MAX_CODE: usize = 31;

/// Every word of a lexicon by alphagram (see [the module](self)).
pub(crate) struct Alphagrams {
    /// The distinct keys, in the order first met.
    keys: Vec<u128>,
    /// The words of key `g` are `starts[from[g]..from[g + 1]]`.
    from: Vec<u32>,
    /// Where each word starts in `tiles` (its length is its key's count
    /// of tiles), by key, each key's words in alphabet order.
    starts: Vec<u32>,
    /// The words' tile codes, back to back.
    tiles: Vec<u8>,
    /// Each key's place in `keys`, plus one, at its hash (or the next
    /// free slot after it); 0 for a free slot. At most half the slots are
    /// used.
    slots: Vec<u32>,
}

/// The slot a key hashes to, of `mask + 1` slots.
#[inline]
fn slot_of(key: u128, mask: usize) -> usize {
    let x = (key as u64) ^ ((key >> 64) as u64).rotate_left(31);
    (x.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize & mask
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

/// What one more tile of code `c` (1 to [`MAX_CODE`]) adds to a key whose
/// count of `c` is below [`MAX_COUNT`].
#[inline]
pub(crate) fn key_unit(c: u8) -> u128 {
    1u128 << (4 * (c as u32).wrapping_sub(1))
}

/// The key of the word `codes`, or `None` as for [`key_of_counts`].
fn key_of_word(codes: &[u8]) -> Option<u128> {
    let mut counts = [0u8; MAX_CODE + 1];
    let mut key = 0u128;
    for &c in codes {
        let n = counts.get_mut(c as usize).filter(|_| c != 0)?;
        if *n == MAX_COUNT {
            return None;
        }
        *n += 1;
        key += key_unit(c);
    }
    Some(key)
}

impl Alphagrams {
    /// Files every word of `lex`; `None` if its alphabet has more than
    /// [`MAX_CODE`] tiles or its words more tiles than a `u32` counts.
    pub(crate) fn new(lex: &Lexicon) -> Option<Alphagrams> {
        if lex.alphabet().len() > MAX_CODE {
            return None;
        }
        // Room for every word's key at most half full, as the header
        // counts them up to a few hundred thousand (a crafted header may
        // claim any count: the table grows as keys come).
        let words = usize::try_from(lex.word_count()).unwrap_or(usize::MAX);
        let mut slots = vec![0u32; (words.min(1 << 18) * 2).next_power_of_two().max(16)];
        let mut keys: Vec<u128> = Vec::new();
        // Each word's key (its place in `keys`) and start, in alphabet
        // order.
        let mut filed: Vec<(u32, u32)> = Vec::with_capacity(words.min(1 << 18));
        let mut tiles: Vec<u8> = Vec::new();
        let mut too_many = false;
        lex.for_each_word(1, usize::MAX, |w| {
            let Some(key) = key_of_word(w) else {
                return ControlFlow::Continue(());
            };
            let (Ok(start), Ok(next)) = (u32::try_from(tiles.len()), u32::try_from(keys.len()))
            else {
                too_many = true;
                return ControlFlow::Break(());
            };
            if keys.len() * 2 >= slots.len() {
                slots = rehash(&keys, slots.len() * 2);
            }
            let mask = slots.len() - 1;
            let mut at = slot_of(key, mask);
            let g = loop {
                match slots[at] {
                    0 => {
                        slots[at] = next + 1;
                        keys.push(key);
                        break next;
                    }
                    i if keys[i as usize - 1] == key => break i - 1,
                    _ => at = (at + 1) & mask,
                }
            };
            filed.push((g, start));
            tiles.extend_from_slice(w);
            ControlFlow::Continue(())
        });
        if too_many {
            return None;
        }
        // Each key's words together, in the order met (alphabet order): a
        // count of each key's words, then each word at its key's next
        // place.
        let mut from = vec![0u32; keys.len() + 1];
        for &(g, _) in &filed {
            from[g as usize + 1] += 1;
        }
        for g in 0..keys.len() {
            from[g + 1] += from[g];
        }
        let mut next = from.clone();
        let mut starts = vec![0u32; filed.len()];
        for &(g, start) in &filed {
            let at = &mut next[g as usize];
            starts[*at as usize] = start;
            *at += 1;
        }
        tiles.shrink_to_fit();
        keys.shrink_to_fit();
        Some(Alphagrams {
            keys,
            from,
            starts,
            tiles,
            slots,
        })
    }

    /// Calls `f` with every word whose alphagram is `key`, in alphabet
    /// order.
    pub(crate) fn for_each(&self, key: u128, mut f: impl FnMut(&[u8])) {
        let mask = self.slots.len() - 1;
        let mut at = slot_of(key, mask);
        let g = loop {
            let g = match self.slots.get(at) {
                Some(&i) if i != 0 => i as usize - 1,
                _ => return,
            };
            if self.keys.get(g) == Some(&key) {
                break g;
            }
            at = (at + 1) & mask;
        };
        let len = key_len(key);
        let (a, b) = (self.from[g] as usize, self.from[g + 1] as usize);
        for &start in self.starts.get(a..b).unwrap_or_default() {
            let start = start as usize;
            if let Some(word) = self.tiles.get(start..start + len) {
                f(word);
            }
        }
    }
}

/// A table of `len` slots (a power of two) for `keys` (see
/// [`Alphagrams::slots`]).
fn rehash(keys: &[u128], len: usize) -> Vec<u32> {
    let mut slots = vec![0u32; len];
    let mask = len - 1;
    for (g, &key) in keys.iter().enumerate() {
        let mut at = slot_of(key, mask);
        while slots[at] != 0 {
            at = (at + 1) & mask;
        }
        slots[at] = g as u32 + 1;
    }
    slots
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
