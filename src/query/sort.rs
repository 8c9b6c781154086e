//! [`sort_keyed`]: the sort of a query's words, by a key of their first
//! letters, a byte of it at a time.

use std::cmp::Ordering;

/// Below this many items, a comparison sort is as quick.
const RADIX_MIN: usize = 64;

/// Sorts `items` by key, then by `tie` (given the items' values) among
/// equal keys: a most-significant-byte-first radix sort in place (each
/// bucket moved into place by swaps, then sorted on the next byte; a
/// byte that is the same in every key of a bucket is skipped), a
/// comparison sort for buckets of fewer than [`RADIX_MIN`] items. No
/// memory beside `items`: a second list of 30,000 words would be as many
/// fresh pages again to fault in.
pub(crate) fn sort_keyed<T: Copy>(items: &mut [(u64, T)], tie: impl Fn(T, T) -> Ordering + Copy) {
    by_byte(items, 56, tie);
}

/// [`sort_keyed`] on the bytes of the key from bit `shift` down (all the
/// keys are equal above it).
fn by_byte<T: Copy>(items: &mut [(u64, T)], shift: u32, tie: impl Fn(T, T) -> Ordering + Copy) {
    if items.len() < RADIX_MIN {
        items.sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| tie(a.1, b.1)));
        return;
    }
    let byte = |key: u64| (key >> shift) as u8 as usize;
    let mut count = [0usize; 256];
    for it in items.iter() {
        count[byte(it.0)] += 1;
    }
    let next_shift = shift.checked_sub(8);
    if count.contains(&items.len()) {
        match next_shift {
            Some(s) => by_byte(items, s, tie),
            // Every key equal.
            None => items.sort_unstable_by(|a, b| tie(a.1, b.1)),
        }
        return;
    }
    // Bucket b is items[start[b]..end[b]]; next[b] is its first place not
    // yet holding an item of its own.
    let mut end = [0usize; 256];
    let mut sum = 0;
    for (e, &c) in end.iter_mut().zip(&count) {
        sum += c;
        *e = sum;
    }
    let mut next = [0usize; 256];
    next[1..].copy_from_slice(&end[..255]);
    let start = next;
    for b in 0..256 {
        while next[b] < end[b] {
            let d = byte(items[next[b]].0);
            if d == b {
                next[b] += 1;
            } else {
                items.swap(next[b], next[d]);
                next[d] += 1;
            }
        }
    }
    for b in 0..256 {
        let bucket = &mut items[start[b]..end[b]];
        if bucket.len() < 2 {
            continue;
        }
        match next_shift {
            Some(s) => by_byte(bucket, s, tie),
            None => bucket.sort_unstable_by(|a, b| tie(a.1, b.1)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_as_a_comparison_sort_does() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for n in [0, 1, 7, 63, 64, 3000, 20_000] {
            // Few distinct keys (ties), some bytes always equal.
            let mut items: Vec<(u64, u32)> = (0..n as u32)
                .map(|i| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    ((seed % 97) << 40 | (seed >> 60) << 8, i)
                })
                .collect();
            let tie = |a: u32, b: u32| (a % 5).cmp(&(b % 5)).then(a.cmp(&b));
            let mut want = items.clone();
            want.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| tie(a.1, b.1)));
            sort_keyed(&mut items, tie);
            assert_eq!(items, want, "{n}");
        }
    }
}
