//! Laying out the arc table from the builder's own automaton
//! ([`Automaton`]), with no reading back of the fst it wrote.
//!
//! 1. Each node's transitions become arcs (code, accepts: the target is
//!    final, target node), sorted by code.
//! 2. Tails are shared: a node whose list is the tail of another's is
//!    stored as that tail. CAR = `E S T` and a node `S T` (same targets)
//!    take three arcs, not five. Only lists that are no other list's tail
//!    (the maximal ones) are stored; the others point into them.
//! 3. The maximal lists are laid out depth first from the root, children in
//!    code order, so that a walk down a path reads on in the table.
//! 4. The arcs are packed at the narrowest width that holds every index.

use super::packed::MAX_WIDTH;
use super::table::Arcs;
use super::{ACCEPTS, END, TARGET_SHIFT};
use crate::lexicon::fstwrite::{Automaton, EMPTY_NODE, Out, TRANS_BYTES, Trans};

/// What was written.
pub(crate) struct Written {
    /// The number of arcs (the root pointer included).
    pub count: u64,
    /// Bits per arc.
    pub width: u32,
    /// Arcs reading each code.
    pub code_counts: [u32; 64],
}

/// Why the table was not written.
#[derive(Debug)]
pub(crate) enum Fail {
    /// It has more arcs than a `u32` counts.
    TooLarge,
    /// Writing it failed.
    Io(std::io::Error),
}

/// Appends the arc table of `a` (its symbols tile codes plus one, the
/// separator's 1) to `out`: the arcs packed, then 8 zero bytes (see
/// [`Arcs::section_len`]). `a`'s transitions are rewritten as arcs in the
/// process.
pub(crate) fn write(a: &mut Automaton, out: &mut Out<'_>) -> Result<Written, Fail> {
    to_arcs(a);
    let nodes = a.len();
    let live = merge_equal_lists(a);
    let (mut host, offset) = shared_tails(a, &live);
    // Place the maximal lists, depth first from the root. A maximal
    // list's place goes where its host (itself) was: `host` then holds
    // the place of each maximal list, and the host of each other one.
    let has = |set: &[u64], n: u32| set[n as usize / 64] >> (n % 64) & 1 != 0;
    let mut maximal = vec![0u64; nodes.div_ceil(64)];
    let mut lists = 0;
    for (n, &m) in host.iter().enumerate() {
        if m as usize == n && !a.node(m).is_empty() {
            maximal[n / 64] |= 1 << (n % 64);
            lists += 1;
        }
    }
    let mut placed = vec![0u64; nodes.div_ceil(64)];
    let mut order: Vec<u32> = Vec::with_capacity(lists);
    let mut next: u64 = 1;
    let mut seen = vec![0u64; nodes.div_ceil(64)];
    let mut stack: Vec<u32> = Vec::new();
    let root = if a.node(a.root.min(nodes as u32 - 1)).is_empty() {
        EMPTY_NODE
    } else {
        a.root
    };
    if root != EMPTY_NODE {
        stack.push(root);
    }
    while let Some(n) = stack.pop() {
        let bit = 1u64 << (n % 64);
        if seen[n as usize / 64] & bit != 0 {
            continue;
        }
        seen[n as usize / 64] |= bit;
        let m = if has(&maximal, n) {
            n
        } else {
            host[n as usize]
        };
        if !has(&placed, m) {
            placed[m as usize / 64] |= 1 << (m % 64);
            host[m as usize] = u32::try_from(next).map_err(|_| Fail::TooLarge)?;
            next += a.node(m).len() as u64;
            order.push(m);
        }
        for (child, _) in a.node(n).iter().rev() {
            if !a.node(child).is_empty() && seen[child as usize / 64] & 1 << (child % 64) == 0 {
                stack.push(child);
            }
        }
    }
    drop(stack);
    drop(seen);
    drop(placed);
    let count = next;
    if count > u32::MAX as u64 {
        return Err(Fail::TooLarge);
    }
    let width = TARGET_SHIFT + (64 - (count - 1).leading_zeros()).max(1);
    debug_assert!(width <= MAX_WIDTH);
    // Where each node starts: its host's place plus its offset there
    // (a maximal list's place is in `host` already; an empty list's is 0).
    for n in 0..nodes as u32 {
        let i = n as usize;
        if a.node(n).is_empty() {
            host[i] = 0;
        } else if !has(&maximal, n) {
            // (Wrapping: the lists of unreachable nodes were never placed.)
            host[i] = host[host[i] as usize].wrapping_add(offset[i] as u32);
        }
    }
    drop(offset);
    drop(maximal);
    let index = |n: u32| host[n as usize] as u64;
    let mut code_counts = [0u32; 64];
    let start = out.pos();
    let mut bits = Bits {
        out: out.buf(),
        acc: 0,
        n: 0,
        width,
    };
    bits.push(index(root) << TARGET_SHIFT | END);
    for &m in &order {
        let list = a.node(m);
        for (j, (target, byte)) in list.iter().enumerate() {
            let end = if j + 1 == list.len() { END } else { 0 };
            let child = index(target);
            code_counts[(byte as u64 & super::CODE) as usize] += 1;
            bits.push(child << TARGET_SHIFT | end | byte as u64);
        }
        if bits.out.len() >= 1 << 20 {
            let (acc, n) = (bits.acc, bits.n);
            out.flush().map_err(Fail::Io)?;
            bits = Bits {
                out: out.buf(),
                acc,
                n,
                width,
            };
        }
    }
    bits.finish();
    out.buf().extend_from_slice(&[0; 8]);
    debug_assert_eq!(out.pos() - start, Arcs::section_len(count, width));
    Ok(Written {
        count,
        width,
        code_counts,
    })
}

/// Rewrites every node's transitions (target, code + 1, in code order) as
/// arcs without the end bit: the target, and the arc's low byte (accepts |
/// code) for the symbol.
fn to_arcs(a: &mut Automaton) {
    let finals = std::mem::take(&mut a.finals);
    let is_final = |n: u32| finals[(n / 64) as usize] >> (n % 64) & 1 != 0;
    for t in a.trans.chunks_exact_mut(TRANS_BYTES) {
        let target = u32::from_le_bytes([t[0], t[1], t[2], t[3]]);
        // The builder's symbols are the codes plus one.
        let code = t[4].saturating_sub(1) & super::CODE as u8;
        let accepts = if is_final(target) { ACCEPTS as u8 } else { 0 };
        t[4] = accepts | code;
    }
    a.finals = finals;
}

/// Gives nodes with equal lists of arcs one list: the arcs into them then
/// lead to the first of them, and the others (whose bit is cleared in the
/// mask returned) are left unreachable. The fst's states are minimal, but
/// two states that differ only in being final have the same arcs here,
/// where the accept flag is on the arcs into a node: after CAT, TAC
/// (final: CAT is a word) and, say, a state no key ends at, with the same
/// ways on. Those are the only equal lists: arcs into two such states
/// differ in their accept flag, so the lists above them differ too (and
/// equal lists of arcs lead to states of equal transitions, which minimal
/// states are not otherwise). The builder noted every such pair
/// ([`Automaton::twins`]). ENABLE: 4.5% fewer arcs (846,124 to 808,245).
fn merge_equal_lists(a: &mut Automaton) -> Vec<u64> {
    let nodes = a.len();
    let mut live = vec![u64::MAX; nodes.div_ceil(64)];
    let mut twins = std::mem::take(&mut a.twins);
    twins.sort_unstable();
    for &(n, _) in &twins {
        live[n as usize / 64] &= !(1 << (n % 64));
    }
    let canon = |t: u64| -> u64 {
        if live[t as usize / 64] >> (t % 64) & 1 != 0 {
            t
        } else {
            let k = twins.partition_point(|&(n, _)| (n as u64) < t);
            twins[k].1 as u64
        }
    };
    for t in a.trans.chunks_exact_mut(TRANS_BYTES) {
        let target = u32::from_le_bytes([t[0], t[1], t[2], t[3]]);
        t[..4].copy_from_slice(&(canon(target as u64) as u32).to_le_bytes());
    }
    a.root = canon(a.root.min(nodes as u32 - 1) as u64) as u32;
    live
}

/// For every node, the maximal list it is the tail of (itself if none)
/// and where in it it starts. One hash table of the lists; each tail of
/// each list looked up once. Only `live` nodes are looked at.
fn shared_tails(a: &Automaton, live: &[u64]) -> (Vec<u32>, Vec<u8>) {
    let is_live = |n: u32| live[n as usize / 64] >> (n % 64) & 1 != 0;
    let nodes = a.len();
    let mut host: Vec<u32> = (0..nodes as u32).collect();
    let mut offset = vec![0u8; nodes];
    // Room for every live list at a load of two thirds at most.
    let live_count: usize = live.iter().map(|w| w.count_ones() as usize).sum();
    let size = (live_count / 2 * 3).max(16);
    let slot = |h: u64| (((h >> 32) * size as u64) >> 32) as usize;
    let next = |i: usize| if i + 1 == size { 0 } else { i + 1 };
    let mut table = vec![0u32; size];
    // The hash of each tail of a list, last arc first.
    let mut hashes = [0u64; 65];
    let tail_hashes = |list: Trans<'_>, hashes: &mut [u64; 65]| {
        let mut h = 0x9e37_79b9_7f4a_7c15u64;
        for (k, (target, byte)) in list.iter().enumerate().rev() {
            let t = (target as u64) << TARGET_SHIFT | byte as u64;
            h = (h.rotate_left(23) ^ t).wrapping_mul(0x517c_c1b7_2722_0a95);
            hashes[k] = h ^ h >> 31;
        }
    };
    for n in 1..nodes as u32 {
        let list = a.node(n);
        if list.is_empty() || list.len() > 64 || !is_live(n) {
            continue;
        }
        tail_hashes(list, &mut hashes);
        let mut i = slot(hashes[0]);
        while table[i] != 0 {
            i = next(i);
        }
        table[i] = n;
    }
    for n in 1..nodes as u32 {
        let list = a.node(n);
        if list.len() < 2 || list.len() > 64 || !is_live(n) {
            continue;
        }
        tail_hashes(list, &mut hashes);
        for (k, &hash) in hashes.iter().enumerate().take(list.len()).skip(1) {
            let tail = list.tail(k);
            let mut i = slot(hash);
            while table[i] != 0 {
                let m = table[i];
                if m != n && host[m as usize] == m && a.node(m) == tail {
                    host[m as usize] = n;
                    offset[m as usize] = k as u8;
                    break;
                }
                i = next(i);
            }
        }
    }
    drop(table);
    // Follow each chain of hosts to a maximal list (each step to a longer
    // list, so the chains end).
    for n in 1..nodes {
        let (mut m, mut off) = (host[n], offset[n] as u32);
        while host[m as usize] != m {
            off += offset[m as usize] as u32;
            m = host[m as usize];
        }
        host[n] = m;
        offset[n] = off as u8;
    }
    (host, offset)
}

/// Packs fixed-width fields into bytes, little-endian.
struct Bits<'o> {
    out: &'o mut Vec<u8>,
    acc: u64,
    n: u32,
    width: u32,
}

impl Bits<'_> {
    #[inline]
    fn push(&mut self, v: u64) {
        self.acc |= v << self.n;
        self.n += self.width;
        while self.n >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.n -= 8;
        }
    }

    fn finish(self) {
        if self.n > 0 {
            self.out.push(self.acc as u8);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Arcs of 33 to 40 bits (tables of 2^24 to 2^32 arcs: lists of
    /// millions of words) go through the packer and come back whole,
    /// targets up to 2^32 - 1 included, wherever they fall in a byte.
    #[test]
    fn wide_arcs_pack_and_read_back() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for width in [16, 28, 33, 36, 39, 40] {
            let mask = (1u64 << width) - 1;
            let mut arcs: Vec<u64> = vec![END, mask, mask & !END, 1 << (width - 1)];
            for _ in 0..200 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                arcs.push(x & mask);
            }
            let mut bytes = Vec::new();
            let mut bits = Bits {
                out: &mut bytes,
                acc: 0,
                n: 0,
                width,
            };
            for &a in &arcs {
                bits.push(a);
            }
            bits.finish();
            bytes.extend_from_slice(&[0; 8]);
            let count = arcs.len() as u64;
            assert_eq!(bytes.len() as u64, Arcs::section_len(count, width));
            // SAFETY: `bytes` outlives `table` and is not changed.
            let table = unsafe { Arcs::in_place(&bytes, count, width) }.unwrap();
            for (i, &a) in arcs.iter().enumerate() {
                assert_eq!(table.arc(i as u32), a, "width {width}, arc {i}");
            }
        }
    }
}
