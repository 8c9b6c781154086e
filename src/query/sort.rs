//! [`sort_keyed`]: the sort of a query's words, by a key of their first
//! letters, a byte of it at a time.

use std::cmp::Ordering;

/// Below this many items, a comparison sort is as quick.
const RADIX_MIN: usize = 64;

/// Sorts `items` by key, then by `tie` (given the items' values) among
/// equal keys: a least-significant-byte-first radix sort (stable: one
/// pass of eight histograms, then a pass for each byte of the key that
/// is not the same in every key, each moving every item once between
/// `items` and one list as long), then a comparison sort of each run of
/// equal keys; a comparison sort alone below [`RADIX_MIN`] items. Each
/// pass reads and writes in order, with no branch on the data, where
/// sorting in place from the top byte swapped items at random and sorted
/// its many small buckets by comparison (docs/BENCHMARKS.md).
pub(crate) fn sort_keyed<T: Copy>(items: &mut [(u64, T)], tie: impl Fn(T, T) -> Ordering + Copy) {
    let n = items.len();
    // (Counts are u32: more items than that are sorted by comparison.)
    if n < RADIX_MIN || n > u32::MAX as usize {
        items.sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| tie(a.1, b.1)));
        return;
    }
    let mut counts = [[0u32; 256]; 8];
    for it in items.iter() {
        for (d, count) in counts.iter_mut().enumerate() {
            count[(it.0 >> (8 * d)) as u8 as usize] += 1;
        }
    }
    let mut other: Vec<(u64, T)> = items.to_vec();
    // Whether the items, sorted on the bytes so far, are in `items`.
    let mut home = true;
    for (d, count) in counts.iter().enumerate() {
        if count.iter().any(|&c| c as usize == n) {
            continue;
        }
        let mut at = [0u32; 256];
        let mut sum = 0;
        for (a, &c) in at.iter_mut().zip(count) {
            *a = sum;
            sum += c;
        }
        if home {
            scatter(items, &mut other, 8 * d as u32, &mut at);
        } else {
            scatter(&other, items, 8 * d as u32, &mut at);
        }
        home = !home;
    }
    if !home {
        items.copy_from_slice(&other);
    }
    let mut i = 0;
    while i < n {
        let key = items[i].0;
        let j = i + items[i..].iter().take_while(|it| it.0 == key).count();
        if j - i > 1 {
            items[i..j].sort_unstable_by(|a, b| tie(a.1, b.1));
        }
        i = j;
    }
}

/// Moves each item of `from` to `to` at the next place of its byte at
/// `shift` (`at`: each byte's next place), keeping their order.
#[inline]
fn scatter<T: Copy>(from: &[(u64, T)], to: &mut [(u64, T)], shift: u32, at: &mut [u32; 256]) {
    for it in from {
        let a = &mut at[(it.0 >> shift) as u8 as usize];
        to[*a as usize] = *it;
        *a += 1;
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
