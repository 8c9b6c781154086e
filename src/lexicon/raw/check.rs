//! The full check of an arc table: well formed, and holding exactly the
//! keys of the fst section beside it.

use super::table::Arcs;
use super::{ACCEPTS, CODE, END, MAX_LIST, TARGET_SHIFT};
use crate::lexicon::fstcheck::{Fst, Node as FstNode};
use crate::lexicon::gaddag::{SEPARATOR, key_code};

/// What the table says about the words it holds, for the header's figures.
pub(crate) struct Counts {
    /// Whole words (keys without the separator).
    pub words: u64,
    /// The longest word, in tiles.
    pub max_len: u32,
    /// Arcs reading each code.
    pub code_counts: [u32; 64],
}

/// Checks `arcs` against the fst section `fst_bytes` (already checked by
/// [`crate::lexicon::fstcheck::check`]): the root pointer is arc 0; every node
/// reached is a list of at most 64 arcs in increasing code order, codes at
/// most `max_code`, ending with the end bit, targets inside the table; and
/// walking the table and the fst side by side, every node has the fst
/// node's transitions, the same codes and the same key ends, each table
/// node standing for one fst node (so the table has no cycle, the fst
/// having none: a cycle in the table would spell an endless path in the
/// fst). Also checks the bits after the last arc are zero. Returns
/// the words, longest word and code counts the table gives.
///
/// Memory: 8 bytes an arc.
pub(crate) fn check(
    arcs: &Arcs,
    section: &[u8],
    fst_bytes: &[u8],
    max_code: u8,
) -> Result<Counts, &'static str> {
    let n = arcs.len();
    let a0 = arcs.arc(0);
    if a0 & (CODE | ACCEPTS | END) != END {
        return Err("arc 0 is not the root pointer");
    }
    // The bits after the last arc, and the 8 bytes after them, are zero.
    let used = n as u64 * arcs.width() as u64;
    let last = (used / 8) as usize;
    if section[last..].iter().enumerate().any(|(k, &b)| {
        if k == 0 && used % 8 != 0 {
            b >> (used % 8) != 0
        } else {
            b != 0
        }
    }) {
        return Err("bytes after the last arc are not zero");
    }
    let fst = Fst::new(fst_bytes).map_err(|_| "the fst section has no valid footer")?;
    let data = fst.area(fst_bytes);
    let fst_root = FstNode::decode(data, fst.root_addr()).map_err(|_| "the fst does not decode")?;
    if fst_root.is_final() {
        return Err("the fst holds the empty key, which is no word");
    }
    // The fst node (address + 1) each table node stands for (0: none yet).
    let mut owner = vec![0u64; n];
    // Further (fst node, table node) pairs: one for each fst node whose
    // table node stands for an earlier one too (see write.rs).
    let mut more = std::collections::HashSet::new();
    let root = arcs.root().index();
    let mut stack: Vec<(usize, u32)> = vec![(fst.root_addr(), root)];
    let mut fst_arcs: Vec<(u64, u64)> = Vec::with_capacity(64);
    while let Some((addr, at)) = stack.pop() {
        let node = FstNode::decode(data, addr).map_err(|_| "the fst does not decode")?;
        fst_arcs.clear();
        for i in 0..node.len() {
            let code = key_code(node.input(i)).ok_or("the fst reads a byte that is no tile")?;
            let target = node.target(i);
            let child = FstNode::decode(data, target).map_err(|_| "the fst does not decode")?;
            fst_arcs.push((
                code as u64 | if child.is_final() { ACCEPTS } else { 0 },
                target as u64,
            ));
        }
        fst_arcs.sort_unstable_by_key(|a| a.0 & CODE);
        match (at, fst_arcs.is_empty()) {
            (0, true) => continue,
            (0, false) => return Err("an arc leads nowhere where the fst goes on"),
            (_, true) => return Err("an arc leads on where the fst ends"),
            _ => {}
        }
        // A table node may stand for two fst nodes that differ only in
        // being final (the arcs into it say that); each pair is checked.
        match owner[at as usize] {
            0 => owner[at as usize] = addr as u64 + 1,
            o if o == addr as u64 + 1 => continue,
            _ => {
                if !more.insert((addr, at)) {
                    continue;
                }
            }
        }
        if fst_arcs.len() > MAX_LIST as usize || at as usize + fst_arcs.len() > n {
            return Err("a node runs past the end of the table");
        }
        for (k, &(want, target)) in fst_arcs.iter().enumerate() {
            let arc = arcs.arc(at + k as u32);
            let end = if k + 1 == fst_arcs.len() { END } else { 0 };
            if arc & (CODE | ACCEPTS | END) != want | end {
                return Err("a node's arcs differ from the fst's transitions");
            }
            if arc & CODE > max_code as u64 {
                return Err("an arc reads a code outside the alphabet");
            }
            let child = arc >> TARGET_SHIFT;
            if child >= n as u64 {
                return Err("an arc leads past the end of the table");
            }
            stack.push((target as usize, child as u32));
        }
    }
    drop(owner);
    // Words and the longest word: keys without the separator, from the
    // root (the table is a DAG now).
    let mut words = vec![u64::MAX; n];
    let mut longest = vec![0u8; n];
    let (w, l) = words_below(arcs, root, &mut words, &mut longest);
    Ok(Counts {
        words: w,
        max_len: l as u32,
        code_counts: arcs.code_counts(),
    })
}

/// The number of words below node `at` reading no separator, and the
/// longest, memoised (the table is acyclic: see [`check`]).
fn words_below(arcs: &Arcs, at: u32, words: &mut [u64], longest: &mut [u8]) -> (u64, u8) {
    if at == 0 {
        return (0, 0);
    }
    // Iterative post-order: (node, next arc to look at).
    let mut stack: Vec<(u32, u32)> = vec![(at, 0)];
    while let Some(&(node, k)) = stack.last() {
        if words[node as usize] != u64::MAX && k == 0 {
            stack.pop();
            continue;
        }
        let edges: Vec<_> = arcs.node_at(node).edges().collect();
        if let Some(e) = edges.get(k as usize) {
            stack.last_mut().expect("in hand").1 += 1;
            let child = e.target().index();
            if e.code() != SEPARATOR && child != 0 && words[child as usize] == u64::MAX {
                stack.push((child, 0));
            }
            continue;
        }
        let (mut w, mut l) = (0u64, 0u8);
        for e in &edges {
            if e.code() == SEPARATOR {
                continue;
            }
            let c = e.target().index() as usize;
            let (cw, cl) = if c == 0 {
                (0, 0)
            } else {
                (words[c], longest[c])
            };
            w = w.saturating_add(cw + e.accepts() as u64);
            if e.accepts() || cw > 0 {
                l = l.max(cl.saturating_add(1));
            }
        }
        words[node as usize] = w;
        longest[node as usize] = l;
        stack.pop();
    }
    (words[at as usize], longest[at as usize])
}
