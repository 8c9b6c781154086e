//! The minimal acyclic automaton of a sorted set of keys ([`Builder`],
//! [`Automaton`]), and a writer of it in `fst::Set`'s format (fst 0.4.7,
//! version 3: [`write_fst`]).
//!
//! Keys arrive sorted and unique, as strings of symbols (any total order
//! of the symbols will do: the lexicon's keys come in tile-code order).
//! The automaton is built incrementally (Daciuk et al., "Incremental
//! construction of minimal acyclic finite-state automata", the
//! sorted-input algorithm): a stack holds the nodes of the last key's path
//! that may still gain transitions; when the next key leaves that path, the
//! nodes below the branching point are frozen from the deepest up. A
//! frozen node is looked up in a register of all frozen nodes by its
//! content (final flag and transitions, each a symbol and a target node):
//! if an equal node exists, it is reused, else the node is numbered
//! (children before parents) and registered. Unlike `fst::SetBuilder`,
//! whose register is a bounded cache, the register holds every node, so
//! the automaton is minimal.
//!
//! A key's last transition may also lead to a node built before
//! ([`Builder::insert_to`]): the lexicon builder spells the part of its
//! GADDAG keys after the separator that way, from the nodes of the words'
//! own automaton (see [`crate::builder`]).
//!
//! The fst encoding, as fst 0.4.7's `raw::build` and `raw::node` write it,
//! the nodes taken depth first from the root, children before parents:
//!
//! * a 16-byte header: version 3 and fst type 0, as little-endian `u64`s;
//! * the nodes. A node's address is that of its last byte (its state
//!   byte), and it is read backwards from there. Addresses 0..16 are never
//!   those of nodes: 0 (`EMPTY_ADDRESS`) stands for the final node without
//!   transitions, which is never written. Transition targets are stored as
//!   deltas from the node's first byte (0 for `EMPTY_ADDRESS`);
//! * the footer: the number of keys and the root's address as `u64`s, then
//!   the masked CRC-32C of all the preceding bytes as a `u32`.
//!
//! A set's outputs are all zero, so no output is ever written.

use std::io::{self, Write};

/// fst's most common inputs, most common first (the first 64 of
/// `raw::common_inputs`'s `COMMON_INPUTS_INV`): a one-transition node stores
/// input `COMMON_INPUTS[i]`, `i < 63`, as `i + 1` in its state byte, any
/// other input in a byte of its own.
pub(crate) const COMMON_INPUTS: &[u8; 64] =
    b"te/oasripcnw.hlm-du012g=:bf3y5&_4v9678k%?xCDASFIBEjPTzRNM+LOqHGW";

/// The common-input index of each byte (0 for none).
const COMMON_IDX: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 63 {
        t[COMMON_INPUTS[i] as usize] = i as u8 + 1;
        i += 1;
    }
    t
};

/// fst's format version.
const VERSION: u64 = 3;
/// The address of the final node without transitions (never written).
const EMPTY_ADDRESS: u64 = 0;
/// An address no node has (fst's `NONE_ADDRESS`).
const NONE_ADDRESS: u64 = 1;
/// Nodes with more transitions than this carry a 256-byte index.
const TRANS_INDEX_THRESHOLD: usize = 32;

/// The number of the final node without transitions (every other node is
/// numbered from 1, children before parents).
pub(crate) const EMPTY_NODE: u32 = 0;

/// A node of the last key's path, not yet frozen.
#[derive(Default)]
struct Unfinished {
    /// Whether a key ends here.
    is_final: bool,
    /// The frozen transitions, in symbol order, [`TRANS_BYTES`] each.
    trans: Vec<u8>,
    /// The symbol of the transition along the last key (its target is not
    /// frozen yet), if any.
    pending: Option<u8>,
    /// Whether a transition goes to a node numbered since this node was
    /// pushed: then no node equal to this one can exist yet (every node
    /// numbered since is a descendant of this one, or a node of
    /// [`Builder::insert_to`]'s kind, which leads to no node of this
    /// phase), and the register need not be searched.
    fresh: bool,
    /// What the caller tagged the key that pushed this node with.
    tag: u32,
    /// For the last node of a key of [`Builder::insert_to`]: the node it
    /// stands for, and whether that node is new.
    preset: Option<(u32, bool)>,
}

/// Bytes a transition takes in an [`Automaton`]: its target's number (a
/// `u32`, little-endian), then its symbol. Five, not the eight of a `u64`:
/// the transitions are the builder's largest array.
pub(crate) const TRANS_BYTES: usize = 5;

/// Appends the transition to `target` on `symbol` to `trans`.
#[inline]
fn push_trans(trans: &mut Vec<u8>, target: u32, symbol: u8) {
    trans.extend_from_slice(&target.to_le_bytes());
    trans.push(symbol);
}

/// A node's transitions, in symbol order: [`TRANS_BYTES`] bytes each.
///
/// ```text
/// E -> 7, S -> 9: [7, 0, 0, 0, b'E', 9, 0, 0, 0, b'S']
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Trans<'a>(&'a [u8]);

impl<'a> Trans<'a> {
    /// The transitions of `bytes` (a multiple of [`TRANS_BYTES`] long).
    #[inline]
    pub(crate) fn new(bytes: &'a [u8]) -> Trans<'a> {
        debug_assert_eq!(bytes.len() % TRANS_BYTES, 0);
        Trans(bytes)
    }

    /// The number of transitions.
    #[inline]
    pub(crate) fn len(self) -> usize {
        self.0.len() / TRANS_BYTES
    }

    #[inline]
    pub(crate) fn is_empty(self) -> bool {
        self.0.is_empty()
    }

    /// Transition `k`: its target and its symbol.
    #[inline]
    pub(crate) fn get(self, k: usize) -> (u32, u8) {
        read_trans(&self.0[k * TRANS_BYTES..(k + 1) * TRANS_BYTES])
    }

    /// The transitions from the `k`th on.
    #[inline]
    pub(crate) fn tail(self, k: usize) -> Trans<'a> {
        Trans(&self.0[k * TRANS_BYTES..])
    }

    /// Each transition's target and symbol, in order.
    #[inline]
    pub(crate) fn iter(
        self,
    ) -> impl DoubleEndedIterator<Item = (u32, u8)> + ExactSizeIterator + 'a {
        self.0.chunks_exact(TRANS_BYTES).map(read_trans)
    }
}

/// The target and symbol of the transition in `t` ([`TRANS_BYTES`] bytes).
#[inline]
fn read_trans(t: &[u8]) -> (u32, u8) {
    (u32::from_le_bytes([t[0], t[1], t[2], t[3]]), t[4])
}

/// A minimal automaton: every node's transitions, which the fst section
/// and the arc table are both written from.
///
/// Node 0 ([`EMPTY_NODE`]) is the final node without transitions; the
/// others are numbered from 1 in the order they were frozen, so every
/// transition leads to a lower number and the root has the highest.
#[cfg_attr(test, derive(PartialEq))]
pub(crate) struct Automaton {
    /// Every node's transitions back to back ([`Trans`]), in symbol order.
    pub trans: Vec<u8>,
    /// Where node `n`'s transitions start in `trans`, counted in
    /// transitions (node 0 has none): they are transitions `starts[n]` to
    /// `starts[n + 1]`.
    pub starts: Vec<u32>,
    /// Bit `n` set if node `n` is final.
    pub finals: Vec<u64>,
    /// The root (0 if the only key is the empty one; with no keys, a node
    /// without transitions that is not final).
    pub root: u32,
    /// Pairs of nodes with the same transitions, one final and the other
    /// not: `(n, m)`, `m < n`.
    pub twins: Vec<(u32, u32)>,
}

impl Automaton {
    fn new(keys: usize) -> Automaton {
        // Lexicons take about half a node and one transition per key.
        let mut a = Automaton {
            trans: Vec::with_capacity((keys / 8 * 9).max(16) * TRANS_BYTES),
            starts: Vec::with_capacity((keys / 2).max(16)),
            finals: Vec::with_capacity(keys / 128 + 1),
            root: EMPTY_NODE,
            twins: Vec::new(),
        };
        // Node 0: final, no transitions.
        a.starts.extend([0, 0]);
        a.finals.push(1);
        a
    }

    /// The number of nodes, node 0 included.
    pub(crate) fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// The transitions of node `n`.
    #[inline]
    pub(crate) fn node(&self, n: u32) -> Trans<'_> {
        let n = n as usize;
        let (s, e) = (self.starts[n] as usize, self.starts[n + 1] as usize);
        Trans(&self.trans[s * TRANS_BYTES..e * TRANS_BYTES])
    }

    /// Whether node `n` is final.
    #[inline]
    pub(crate) fn is_final(&self, n: u32) -> bool {
        self.finals[n as usize / 64] >> (n % 64) & 1 != 0
    }

    /// Adds a node: its number, or `None` past `u32` numbers.
    fn push(&mut self, is_final: bool, trans: &[u8]) -> Option<u32> {
        let n = self.len();
        let end = (self.trans.len() + trans.len()) / TRANS_BYTES;
        if n >= u32::MAX as usize || end > u32::MAX as usize {
            return None;
        }
        self.trans.extend_from_slice(trans);
        self.starts.push(end as u32);
        if n % 64 == 0 {
            self.finals.push(0);
        }
        self.finals[n / 64] |= (is_final as u64) << (n % 64);
        Some(n as u32)
    }
}

/// Builds the minimal automaton of sorted keys, key by key.
pub(crate) struct Builder {
    /// The unfinished nodes: `stack[..depth]` are live, the rest are kept
    /// for their allocations.
    stack: Vec<Unfinished>,
    depth: usize,
    /// The last key inserted.
    last: Vec<u8>,
    /// Whether a key was inserted.
    any: bool,
    register: Register,
    /// Scratch space for [`Builder::not_final`].
    scratch: Vec<u8>,
}

impl Builder {
    /// A builder of an empty set, with room for about `keys` keys (a hint:
    /// it saves growing the buffers), its register's table narrow past
    /// `narrow_from` slots ([`NARROW_FROM`] but in tests).
    pub(crate) fn with_narrow_from(keys: usize, narrow_from: usize) -> Builder {
        Builder {
            stack: vec![Unfinished::default()],
            depth: 1,
            last: Vec::new(),
            any: false,
            register: Register::with_capacity(keys / 4, keys, narrow_from),
            scratch: Vec::new(),
        }
    }

    /// Adds `key`, which must sort after every key added before, and tags
    /// the nodes it adds with `tag`; `frozen` hears of every node frozen
    /// on the way, as (its tag, its depth, its number).
    ///
    /// # Panics
    ///
    /// If `key` does not sort after the previous key, or extends a key of
    /// [`Builder::insert_to`].
    #[inline]
    pub(crate) fn insert(
        &mut self,
        key: &[u8],
        tag: u32,
        frozen: &mut impl FnMut(u32, usize, u32, bool),
    ) {
        self.start(key, tag, frozen);
        let u = &mut self.stack[key.len()];
        u.is_final = true;
    }

    /// Adds `key` (not empty), which must sort after every key added
    /// before, as a path whose last transition leads to node `target` (a
    /// node of this builder's, `new` if numbered since the previous key):
    /// the keys of `target` follow `key` in the set. `key` itself is not a
    /// key of the set, unless `target` holds the empty key.
    pub(crate) fn insert_to(&mut self, key: &[u8], target: u32, new: bool) {
        assert!(!key.is_empty(), "a path to a node reads something");
        self.start(key, 0, &mut |_, _, _, _| {});
        self.stack[key.len()].preset = Some((target, new));
    }

    /// The number of a node: `n` itself if `n` is final or without
    /// transitions, else the node with `n`'s transitions that is not
    /// final (numbered now if it does not exist yet; then `true`).
    pub(crate) fn not_final(&mut self, n: u32) -> (u32, bool) {
        if !self.register.nodes.is_final(n) || n == EMPTY_NODE {
            return (n, false);
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        scratch.extend_from_slice(self.register.nodes.node(n).0);
        let head = ((scratch.len() / TRANS_BYTES) as u64) << 1;
        let hash = node_hash(&scratch);
        let found = match self.register.find(hash, head, &scratch) {
            Some(m) => (m, false),
            None => {
                let m = self.register.nodes.push(false, &scratch).expect(
                    "fewer than 2^32 transitions in all (the builder checks the keys' total length)",
                );
                self.register.insert(hash, head, m);
                self.register.nodes.twins.push((m, n));
                (m, true)
            }
        };
        self.scratch = scratch;
        found
    }

    /// The common part of [`Builder::insert`] and [`Builder::insert_to`]:
    /// the nodes below the branching point frozen, `key`'s new nodes
    /// pushed (the last one neither final nor preset).
    #[inline]
    fn start(&mut self, key: &[u8], tag: u32, frozen: &mut impl FnMut(u32, usize, u32, bool)) {
        if self.any {
            // The length of the common prefix with the previous key.
            let prefix = common_prefix(&self.last, key);
            assert!(
                prefix < key.len()
                    && (prefix == self.last.len() || self.last[prefix] < key[prefix]),
                "keys out of order or duplicated"
            );
            assert!(
                self.depth > prefix + 1 || self.stack[prefix].preset.is_none(),
                "a key extends a path to a node"
            );
            self.freeze_below(prefix, frozen);
            self.add_suffix(prefix, key, tag);
        } else {
            self.add_suffix(0, key, tag);
        }
        self.any = true;
        self.last.clear();
        self.last.extend_from_slice(key);
    }

    /// Freezes the nodes deeper than `depth` (the stack then holds `depth +
    /// 1` nodes) and gives the node at `depth` its transition to them.
    #[inline]
    fn freeze_below(&mut self, depth: usize, frozen: &mut impl FnMut(u32, usize, u32, bool)) {
        if self.depth <= depth + 1 {
            return;
        }
        let (mut node, mut new) = (u32::MAX, false);
        while self.depth > depth + 1 {
            self.depth -= 1;
            let d = self.depth;
            let u = &mut self.stack[d];
            if let Some(inp) = u.pending.take() {
                push_trans(&mut u.trans, node, inp);
                u.fresh |= new;
            }
            (node, new) = self.freeze(d);
            let u = &self.stack[d];
            frozen(u.tag, d, node, u.is_final);
        }
        let top = &mut self.stack[depth];
        let inp = top.pending.take().expect("a pending transition");
        push_trans(&mut top.trans, node, inp);
        top.fresh |= new;
    }

    /// Pushes the nodes of `key[prefix..]` below the node at `prefix`.
    #[inline]
    fn add_suffix(&mut self, prefix: usize, key: &[u8], tag: u32) {
        debug_assert_eq!(self.depth, prefix + 1);
        self.stack[prefix].pending = Some(key[prefix]);
        let need = key.len() + 1;
        if self.stack.len() < need {
            self.stack.resize_with(need, Unfinished::default);
        }
        for (d, &b) in key.iter().enumerate().skip(prefix + 1) {
            let u = &mut self.stack[d];
            u.is_final = false;
            u.trans.clear();
            u.pending = Some(b);
            u.fresh = false;
            u.tag = tag;
            u.preset = None;
        }
        let u = &mut self.stack[key.len()];
        u.is_final = false;
        u.trans.clear();
        u.pending = None;
        u.fresh = false;
        u.tag = tag;
        u.preset = None;
        self.depth = need;
    }

    /// Freezes the node at stack depth `d`: an equal node already numbered,
    /// or this one, numbered now (then `true`).
    #[inline]
    fn freeze(&mut self, d: usize) -> (u32, bool) {
        let node = &self.stack[d];
        if let Some(preset) = node.preset {
            return preset;
        }
        if node.is_final && node.trans.is_empty() {
            return (EMPTY_NODE, false);
        }
        let head = ((node.trans.len() / TRANS_BYTES) as u64) << 1 | node.is_final as u64;
        let hash = node_hash(&node.trans);
        // A fresh node has a new child, so neither it nor its twin can be
        // registered yet.
        let mut twin = None;
        if !node.fresh {
            if let Some(n) = self.register.find(hash, head, &node.trans) {
                return (n, false);
            }
            twin = self.register.twin;
        }
        let n = self.register.nodes.push(node.is_final, &node.trans).expect(
            "fewer than 2^32 transitions in all (the builder checks the keys' total length)",
        );
        self.register.insert(hash, head, n);
        if let Some(t) = twin {
            self.register.nodes.twins.push((n, t));
        }
        (n, true)
    }

    /// Freezes every node but the root, and starts afresh with an empty
    /// root: the nodes numbered so far stay, for keys to come and for
    /// [`Builder::insert_to`] to lead to; the root's transitions are
    /// dropped. `frozen` hears of the nodes frozen, as for
    /// [`Builder::insert`].
    pub(crate) fn end_phase(&mut self, frozen: &mut impl FnMut(u32, usize, u32, bool)) {
        if self.any {
            self.freeze_below(0, frozen);
        }
        let root = &mut self.stack[0];
        root.trans.clear();
        root.is_final = false;
        root.pending = None;
        root.fresh = false;
        self.any = false;
        self.last.clear();
    }

    /// Finishes the automaton.
    pub(crate) fn finish(self) -> Automaton {
        self.finish_with(&mut |_, _, _, _| {})
    }

    /// Finishes the automaton; `frozen` hears of the nodes frozen, as for
    /// [`Builder::insert`] (the root at depth 0 too).
    pub(crate) fn finish_with(
        mut self,
        frozen: &mut impl FnMut(u32, usize, u32, bool),
    ) -> Automaton {
        if self.any {
            self.freeze_below(0, frozen);
        }
        let root = &self.stack[0];
        // No other node equals the root (every other node is reached by a
        // nonempty path, so its longest key is shorter): number it without
        // looking it up. (With no keys at all, it is a node without
        // transitions, not final.)
        if !(root.is_final && root.trans.is_empty()) {
            let n = self.register.nodes.push(root.is_final, &root.trans).expect(
                "fewer than 2^32 transitions in all (the builder checks the keys' total length)",
            );
            self.register.nodes.root = n;
            frozen(root.tag, 0, n, root.is_final);
        }
        self.register.nodes
    }
}

/// Bytes written to a sink through a buffer, counted, and their running
/// CRC-32C taken (the sections' checksums, and fst's own).
pub(crate) struct Out<'w> {
    buf: Vec<u8>,
    /// Bytes passed on to `sink` since the count was last reset.
    flushed: u64,
    crc: u32,
    sink: &'w mut dyn Write,
}

impl<'w> Out<'w> {
    /// Flush to the sink past this many buffered bytes.
    const CHUNK: usize = 1 << 20;

    pub(crate) fn new(sink: &'w mut dyn Write) -> Out<'w> {
        Out {
            buf: Vec::with_capacity(Out::CHUNK + 4096),
            flushed: 0,
            crc: 0,
            sink,
        }
    }

    /// Bytes written since the last [`Out::restart`].
    #[inline]
    pub(crate) fn pos(&self) -> u64 {
        self.flushed + self.buf.len() as u64
    }

    /// The CRC-32C of the bytes written since the last [`Out::restart`].
    pub(crate) fn crc(&self) -> u32 {
        crc32c::crc32c_append(self.crc, &self.buf)
    }

    /// The buffer, to append to.
    #[inline]
    pub(crate) fn buf(&mut self) -> &mut Vec<u8> {
        &mut self.buf
    }

    /// Passes the buffer on once it holds a chunk.
    #[inline]
    pub(crate) fn maybe_flush(&mut self) -> io::Result<()> {
        if self.buf.len() >= Out::CHUNK {
            self.flush()?;
        }
        Ok(())
    }

    /// Passes the buffer on.
    pub(crate) fn flush(&mut self) -> io::Result<()> {
        self.crc = crc32c::crc32c_append(self.crc, &self.buf);
        self.flushed += self.buf.len() as u64;
        self.sink.write_all(&self.buf)?;
        self.buf.clear();
        Ok(())
    }

    /// Flushes, then counts bytes and their CRC afresh from here.
    pub(crate) fn restart(&mut self) -> io::Result<()> {
        self.flush()?;
        self.flushed = 0;
        self.crc = 0;
        Ok(())
    }
}

/// Writes `a` as the bytes of an `fst::Set` to `out` (counted from its
/// [`Out::restart`]), each symbol `s` as byte `bytes[s]`, a node's
/// transitions in byte order; `keys` is the number of keys the footer
/// states. Nodes are written depth first from the root, children before
/// parents. Memory: 8 bytes a node.
pub(crate) fn write_fst(
    a: &Automaton,
    bytes: &[u8; 256],
    keys: u64,
    out: &mut Out<'_>,
) -> io::Result<()> {
    let base = out.pos();
    debug_assert_eq!(base, 0, "fst addresses count from the section's start");
    out.buf().extend_from_slice(&VERSION.to_le_bytes());
    out.buf().extend_from_slice(&0u64.to_le_bytes()); // fst type
    // No byte order to restore if the map keeps the symbols' order.
    let monotonic = bytes.windows(2).all(|w| w[0] < w[1]);
    const UNWRITTEN: u64 = u64::MAX;
    let mut addrs = vec![UNWRITTEN; a.len()];
    addrs[EMPTY_NODE as usize] = EMPTY_ADDRESS;
    let root = a.root;
    let root_empty = a.node(root).is_empty();
    let root_addr = if root_empty && a.is_final(root) {
        EMPTY_ADDRESS
    } else {
        let mut last_addr = NONE_ADDRESS;
        let mut scratch: Vec<u64> = Vec::with_capacity(256);
        // (node, transitions gone into)
        let mut stack: Vec<(u32, u32)> = vec![(root, 0)];
        while let Some(top) = stack.last_mut() {
            let (n, k) = *top;
            let trans = a.node(n);
            let mut k = k as usize;
            while k < trans.len() && addrs[trans.get(k).0 as usize] != UNWRITTEN {
                k += 1;
            }
            if k < trans.len() {
                top.1 = k as u32 + 1;
                stack.push((trans.get(k).0, 0));
                continue;
            }
            stack.pop();
            scratch.clear();
            scratch.extend(
                trans
                    .iter()
                    .map(|(t, s)| addrs[t as usize] << 8 | bytes[s as usize] as u64),
            );
            if !monotonic && scratch.len() > 1 {
                scratch.sort_unstable_by_key(|&t| t as u8);
            }
            let start = out.pos();
            let addr = write_node(out.buf(), last_addr, a.is_final(n), &scratch, start);
            addrs[n as usize] = addr;
            last_addr = addr;
            out.maybe_flush()?;
        }
        addrs[root as usize]
    };
    drop(addrs);
    out.buf().extend_from_slice(&keys.to_le_bytes());
    out.buf().extend_from_slice(&root_addr.to_le_bytes());
    let sum = mask(out.crc());
    out.buf().extend_from_slice(&sum.to_le_bytes());
    Ok(())
}

/// Writes an `fst::Set`, key by key: [`Builder`] and [`write_fst`] with
/// bytes for symbols.
#[cfg(test)]
pub(crate) struct SetWriter {
    builder: Builder,
    keys: u64,
}

#[cfg(test)]
impl SetWriter {
    pub(crate) fn with_capacity(keys: usize) -> SetWriter {
        SetWriter {
            builder: Builder::with_narrow_from(keys, NARROW_FROM),
            keys: 0,
        }
    }

    /// A writer whose register's table is narrow from the start.
    pub(crate) fn narrow(keys: usize) -> SetWriter {
        SetWriter {
            builder: Builder::with_narrow_from(keys, 0),
            keys: 0,
        }
    }

    pub(crate) fn insert(&mut self, key: &[u8]) {
        if key.is_empty() {
            assert!(self.keys == 0, "keys out of order or duplicated");
            self.builder.stack[0].is_final = true;
            self.builder.any = false;
        } else {
            self.builder.insert(key, 0, &mut |_, _, _, _| {});
        }
        self.keys += 1;
    }

    pub(crate) fn finish(self) -> Vec<u8> {
        let keys = self.keys;
        let a = self.builder.finish();
        let mut identity = [0u8; 256];
        for (i, b) in identity.iter_mut().enumerate() {
            *b = i as u8;
        }
        let mut bytes = Vec::new();
        let mut out = Out::new(&mut bytes);
        write_fst(&a, &identity, keys, &mut out).expect("writes to memory");
        out.flush().expect("writes to memory");
        bytes
    }
}

/// The length of the common prefix of `a` and `b`.
#[inline]
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + 8 <= n {
        let x = u64::from_le_bytes(a[i..i + 8].try_into().expect("8 bytes"));
        let y = u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
        if x != y {
            return i + ((x ^ y).trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

/// The number of bytes `n` takes packed (at least 1).
#[inline]
fn pack_size(n: u64) -> usize {
    (64 - n.leading_zeros() as usize).div_ceil(8).max(1)
}

/// The delta stored for a transition to `target` from the node starting at
/// `start`.
#[inline]
fn delta(start: u64, target: u64) -> u64 {
    if target == EMPTY_ADDRESS {
        0
    } else {
        start - target
    }
}

/// Writes `n` as `size` little-endian bytes.
#[inline]
fn pack(out: &mut Vec<u8>, n: u64, size: usize) {
    out.extend_from_slice(&n.to_le_bytes()[..size]);
}

/// Appends a node (not the empty final one) that starts at address
/// `start` to `out` and returns its address: the encoding
/// `fst::raw::Node::compile` chooses. `trans` holds `address << 8 | input`.
#[inline]
fn write_node(out: &mut Vec<u8>, last_addr: u64, is_final: bool, trans: &[u64], start: u64) -> u64 {
    let len0 = out.len();
    if trans.len() == 1 && !is_final {
        let (inp, target) = (trans[0] as u8, trans[0] >> 8);
        let common = COMMON_IDX[inp as usize];
        if target == last_addr {
            // OneTransNext: the target is the node just before.
            if common == 0 {
                out.push(inp);
            }
            out.push(0b11_000000 | common);
        } else {
            // OneTrans: delta, pack sizes, input unless common, state.
            let d = delta(start, target);
            let size = pack_size(d);
            pack(out, d, size);
            out.push((size as u8) << 4);
            if common == 0 {
                out.push(inp);
            }
            out.push(0b10_000000 | common);
        }
    } else {
        // AnyTrans: deltas and inputs from the last transition to the
        // first, the index for large nodes, pack sizes, the number of
        // transitions unless it fits the state byte, state.
        let n = trans.len();
        let mut tsize = 0;
        for &t in trans {
            tsize = tsize.max(pack_size(delta(start, t >> 8)));
        }
        out.reserve(n * (tsize + 1) + 256 + 3);
        for &t in trans.iter().rev() {
            pack(out, delta(start, t >> 8), tsize);
        }
        out.extend(trans.iter().rev().map(|&t| t as u8));
        if n > TRANS_INDEX_THRESHOLD {
            let mut index = [255u8; 256];
            for (i, &t) in trans.iter().enumerate() {
                index[t as u8 as usize] = i as u8;
            }
            out.extend_from_slice(&index);
        }
        out.push((tsize as u8) << 4);
        let mut state = if is_final { 0b01_000000 } else { 0 };
        if (1..=0b00_111111).contains(&n) {
            state |= n as u8;
        } else {
            // 256 is written as 1, which never occurs otherwise.
            out.push(if n == 256 { 1 } else { n as u8 });
        }
        out.push(state);
    }
    start + (out.len() - len0) as u64 - 1
}

/// The hash of a node's transitions (not of whether it is final, so that
/// a node and its twin that differs in that are found by one search):
/// Fx-style multiply-rotate over its words.
#[inline]
fn node_hash(trans: &[u8]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let trans = Trans::new(trans);
    let mut h = (trans.len() as u64 + 1).wrapping_mul(K);
    for (target, symbol) in trans.iter() {
        h = (h.rotate_left(5) ^ ((target as u64) << 8 | symbol as u64)).wrapping_mul(K);
    }
    // Fold the well-mixed high bits down: the table uses the high half.
    h ^ (h >> 29)
}

/// Node numbers a register slot holds (28 bits).
const SLOT_NODE_BITS: u32 = 28;
const SLOT_NODE_MAX: u64 = (1 << SLOT_NODE_BITS) - 1;

/// The register of written nodes: an open-addressing hash table (linear
/// probing) of 8-byte slots, or of 4-byte ones once it is large. A wide
/// slot holds a node with one transition, not
/// final (most nodes), whole: its number, its target's and its input, so
/// that most lookups touch one cache line; any other node by its number,
/// transition count, final flag and 25 bits of its hash, its transitions
/// compared in the [`Automaton`] (which numbers every node, so the slot
/// needs no arena of its own). Most lookups find a node found recently: a
/// small direct-mapped cache of slots in front of the table saves them a
/// cache miss. New nodes wait in a short queue before they are placed in
/// the table, so that their slots can be fetched in the meantime.
///
/// A table of more than [`NARROW_FROM`] slots (lists of a million words
/// and more, where the table is the builder's largest allocation after the
/// transitions) is narrow: a slot holds a node's number and 4 bits of its
/// hash, and a node whose hash bits match is compared in the automaton.
/// Half the memory, for a cache miss or two on every match that the
/// front cache does not catch.
///
/// Nodes numbered past 2^28 are not registered: the automaton stays
/// right, only no longer minimal (beyond any lexicon's size).
struct Register {
    /// 0 for an empty slot (no node is numbered 0 in a slot: node 0 is
    /// never registered). Bit 63 set: a one-transition node, `node << 34 |
    /// target << 6 | symbol`. Clear: `node << 35 | transitions <<
    /// 26 | final << 25 | 25 hash bits`. Empty if the table is narrow.
    slots: Vec<u64>,
    /// The narrow table: 0 for an empty slot, else `hash bits << 28 |
    /// node` ([`narrow_slot`]). Empty if the table is wide.
    narrow: Vec<u32>,
    /// Tables of more slots than this are narrow.
    narrow_from: usize,
    /// Number of occupied slots (and queued nodes).
    used: usize,
    /// Every node written, which slots refer to.
    nodes: Automaton,
    /// The most recently found or registered slots, by [`front`].
    front: Vec<u64>,
    /// Registered nodes not yet in `slots`: `(hash, slot)`, oldest at
    /// `queued % QUEUE_LEN` once the queue is full.
    queue: [(u64, u64); QUEUE_LEN],
    /// Number of nodes ever queued.
    queued: usize,
    /// Set by [`Register::find`]: the node with the transitions looked for
    /// that differs in being final, if any.
    twin: Option<u32>,
}

/// Register tables of more slots than this (32 MiB wide) are narrow.
pub(crate) const NARROW_FROM: usize = 1 << 22;

/// The narrow slot of node `node` (at most [`SLOT_NODE_MAX`]) of hash
/// `hash`: the node, and above it 4 hash bits that no other use of the
/// hash takes.
#[inline]
fn narrow_slot(node: u32, hash: u64) -> u32 {
    ((hash >> 28 & 0xf) as u32) << SLOT_NODE_BITS | node
}

/// The wide slot of node `n`, of transitions `trans`, content `head` and
/// hash `hash`.
#[inline]
fn wide_slot(n: u32, trans: &[u8], head: u64, hash: u64) -> u64 {
    single_slot(n, trans, head).unwrap_or((n as u64) << 35 | head << 25 | tag(hash))
}

/// The number of slots in [`Register::front`] (128 KiB).
const FRONT_LEN: usize = 1 << 14;

/// The length of [`Register::queue`].
const QUEUE_LEN: usize = 16;

/// The slot of `hash` in [`Register::front`] (other bits than [`home`]'s).
#[inline]
fn front(hash: u64) -> usize {
    (hash >> 12) as usize & (FRONT_LEN - 1)
}

/// The home slot of `hash` in a table of `len` slots (the high half of
/// the hash scaled to the length).
#[inline]
fn home(hash: u64, len: usize) -> usize {
    (((hash >> 32) * len as u64) >> 32) as usize
}

/// The hash bits a slot of a general node keeps.
#[inline]
fn tag(hash: u64) -> u64 {
    hash & 0x1ff_ffff
}

/// The slot of a one-transition node that is not final, if it fits one.
#[inline]
fn single_slot(node: u32, trans: &[u8], head: u64) -> Option<u64> {
    if head != 2 {
        return None;
    }
    let (target, symbol) = read_trans(trans);
    let (target, symbol) = (target as u64, symbol as u64);
    (symbol < 64 && target <= SLOT_NODE_MAX && node as u64 <= SLOT_NODE_MAX)
        .then_some(1 << 63 | (node as u64) << 34 | target << 6 | symbol)
}

/// The node number a slot holds.
#[inline]
fn slot_node(s: u64) -> u32 {
    if s >> 63 != 0 {
        (s >> 34 & SLOT_NODE_MAX) as u32
    } else {
        (s >> 35) as u32
    }
}

/// Asks the processor to fetch `x`'s cache line.
#[inline(always)]
fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: SSE is in every x86_64 processor, and a prefetch only
        // hints: it never faults, whatever the address.
        unsafe { _mm_prefetch::<_MM_HINT_T0>((x as *const T).cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

impl Register {
    /// A register with room for about `nodes` nodes, and an automaton for
    /// about `keys` keys; its table narrow past `narrow_from` slots.
    fn with_capacity(nodes: usize, keys: usize, narrow_from: usize) -> Register {
        let len = (nodes / 3 * 4 + 1).max(1 << 12);
        let narrow = len > narrow_from;
        Register {
            slots: if narrow { Vec::new() } else { vec![0; len] },
            narrow: if narrow { vec![0; len] } else { Vec::new() },
            narrow_from,
            used: 0,
            nodes: Automaton::new(keys),
            front: vec![0; FRONT_LEN],
            queue: [(0, 0); QUEUE_LEN],
            queued: 0,
            twin: None,
        }
    }

    /// The head of the node in slot `s` (not empty) if its transitions
    /// are `trans` (`hash` is theirs).
    #[inline]
    fn same_trans(&self, s: u64, hash: u64, trans: &[u8]) -> Option<u64> {
        if s >> 63 != 0 {
            // A one-transition node that is not final.
            (trans.len() == TRANS_BYTES && {
                let (target, symbol) = read_trans(trans);
                target as u64 == s >> 6 & SLOT_NODE_MAX && symbol as u64 == s & 63
            })
            .then_some(2)
        } else {
            let head = s >> 25 & 0x3ff;
            (head >> 1 == (trans.len() / TRANS_BYTES) as u64
                && s & 0x1ff_ffff == tag(hash)
                && self.nodes.node(slot_node(s)).0 == trans)
                .then_some(head)
        }
    }

    /// The node equal to `(head, trans)`, if registered. If there is none,
    /// [`Register::twin`] is the node with the same transitions that
    /// differs in being final, if registered.
    #[inline]
    fn find(&mut self, hash: u64, head: u64, trans: &[u8]) -> Option<u32> {
        if !self.narrow.is_empty() {
            return self.find_narrow(hash, head, trans);
        }
        let len = self.slots.len();
        let mut i = home(hash, len);
        prefetch(&self.slots[i]);
        self.twin = None;
        let f = front(hash);
        let s = self.front[f];
        if s != 0 && self.same_trans(s, hash, trans) == Some(head) {
            return Some(slot_node(s));
        }
        loop {
            let s = self.slots[i];
            if s == 0 {
                break;
            }
            match self.same_trans(s, hash, trans) {
                Some(h) if h == head => {
                    self.front[f] = s;
                    return Some(slot_node(s));
                }
                Some(_) => self.twin = Some(slot_node(s)),
                None => {}
            }
            i = if i + 1 == len { 0 } else { i + 1 };
        }
        self.find_queued(hash, head, trans)
    }

    /// [`Register::find`] in a narrow table.
    #[inline]
    fn find_narrow(&mut self, hash: u64, head: u64, trans: &[u8]) -> Option<u32> {
        let len = self.narrow.len();
        let mut i = home(hash, len);
        prefetch(&self.narrow[i]);
        self.twin = None;
        let f = front(hash);
        let s = self.front[f];
        if s != 0 && self.same_trans(s, hash, trans) == Some(head) {
            return Some(slot_node(s));
        }
        let bits = narrow_slot(0, hash);
        loop {
            let s = self.narrow[i];
            if s == 0 {
                break;
            }
            if s & !(SLOT_NODE_MAX as u32) == bits {
                let n = s & SLOT_NODE_MAX as u32;
                let node = self.nodes.node(n);
                if node.0 == trans {
                    let h = (node.len() as u64) << 1 | self.nodes.is_final(n) as u64;
                    if h == head {
                        self.front[f] = wide_slot(n, trans, head, hash);
                        return Some(n);
                    }
                    self.twin = Some(n);
                }
            }
            i = if i + 1 == len { 0 } else { i + 1 };
        }
        self.find_queued(hash, head, trans)
    }

    /// [`Register::find`] in the queue, after the table.
    #[inline]
    fn find_queued(&mut self, hash: u64, head: u64, trans: &[u8]) -> Option<u32> {
        let n = self.queued.min(QUEUE_LEN);
        for &(qh, s) in &self.queue[..n] {
            if qh == hash {
                match self.same_trans(s, hash, trans) {
                    Some(h) if h == head => return Some(slot_node(s)),
                    Some(_) => self.twin = Some(slot_node(s)),
                    None => {}
                }
            }
        }
        None
    }

    /// Registers node `node` of content `head` and hash `hash` (it is not
    /// registered yet, and is the automaton's last node).
    #[inline]
    fn insert(&mut self, hash: u64, head: u64, node: u32) {
        if node as u64 > SLOT_NODE_MAX {
            // Too many to register: the node just stays unshared.
            return;
        }
        let s = wide_slot(node, self.nodes.node(node).0, head, hash);
        self.front[front(hash)] = s;
        let q = self.queued % QUEUE_LEN;
        if self.queued >= QUEUE_LEN {
            let (qh, qs) = self.queue[q];
            self.place(qh, qs);
        }
        self.queue[q] = (hash, s);
        self.queued += 1;
        let len = self.slots.len().max(self.narrow.len());
        if self.narrow.is_empty() {
            prefetch(&self.slots[home(hash, len)]);
        } else {
            prefetch(&self.narrow[home(hash, len)]);
        }
        self.used += 1;
        if self.used * 4 > len * 3 {
            self.grow();
        }
    }

    /// Puts (wide) slot `s` of hash `hash` in the table.
    #[inline]
    fn place(&mut self, hash: u64, s: u64) {
        if !self.narrow.is_empty() {
            let len = self.narrow.len();
            let mut i = home(hash, len);
            while self.narrow[i] != 0 {
                i = if i + 1 == len { 0 } else { i + 1 };
            }
            self.narrow[i] = narrow_slot(slot_node(s), hash);
            return;
        }
        let len = self.slots.len();
        let mut i = home(hash, len);
        while self.slots[i] != 0 {
            i = if i + 1 == len { 0 } else { i + 1 };
        }
        self.slots[i] = s;
    }

    /// Grows the table by half (not double: it is the builder's largest
    /// allocation, and a table about 1.5 to 2 times the nodes, not up to
    /// 2.7, keeps its peak memory down). The old table is freed first and
    /// the new one filled from the automaton, which holds every node
    /// registered (all but the root, up to [`SLOT_NODE_MAX`]), so the two
    /// are never held at once. A table grown past
    /// [`Register::narrow_from`] slots becomes narrow.
    fn grow(&mut self) {
        let len = self.slots.len().max(self.narrow.len()) / 2 * 3;
        self.slots = Vec::new();
        self.narrow = Vec::new();
        if len > self.narrow_from {
            self.narrow = vec![0u32; len];
        } else {
            self.slots = vec![0u64; len];
        }
        // Every queued node is placed below.
        self.queued = 0;
        let last = (self.nodes.len() as u64 - 1).min(SLOT_NODE_MAX) as u32;
        for n in 1..=last {
            let trans = self.nodes.node(n);
            let head = (trans.len() as u64) << 1 | self.nodes.is_final(n) as u64;
            let hash = node_hash(trans.0);
            self.place(hash, wide_slot(n, trans.0, head, hash));
        }
    }
}

/// fst's checksum: the CRC-32C of the bytes, masked as in the Snappy frame
/// format.
pub(crate) fn masked_crc32c(bytes: &[u8]) -> u32 {
    mask(::crc32c::crc32c(bytes))
}

/// fst's mask of a CRC-32C (as in the Snappy frame format).
fn mask(crc: u32) -> u32 {
    crc.rotate_right(15).wrapping_add(0xa282_ead8)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fst::{IntoStreamer, Set, Streamer};
    use proptest::prelude::*;

    /// Builds the bytes of the `fst::Set` of `keys`, which must be sorted and
    /// unique (panics otherwise).
    fn set_bytes<'k>(keys: impl IntoIterator<Item = &'k [u8]>) -> Vec<u8> {
        write_set(SetWriter::with_capacity(0), keys)
    }

    fn write_set<'k>(mut w: SetWriter, keys: impl IntoIterator<Item = &'k [u8]>) -> Vec<u8> {
        for k in keys {
            w.insert(k);
        }
        w.finish()
    }

    /// Checks that `set_bytes(keys)` is a valid `fst::Set` of exactly `keys`.
    fn check(keys: &[Vec<u8>], absent: &[Vec<u8>]) -> Result<(), TestCaseError> {
        let bytes = set_bytes(keys.iter().map(|k| k.as_slice()));
        // The narrow register finds the same nodes.
        let narrow = write_set(SetWriter::narrow(0), keys.iter().map(|k| k.as_slice()));
        prop_assert!(narrow == bytes, "narrow register: another fst");
        let set =
            Set::new(bytes).map_err(|e| TestCaseError::fail(format!("fst::Set::new: {e}")))?;
        prop_assert!(set.as_fst().verify().is_ok(), "checksum");
        prop_assert_eq!(set.len(), keys.len());
        let mut stream = set.stream();
        let mut got = Vec::new();
        while let Some(k) = stream.next() {
            got.push(k.to_vec());
        }
        prop_assert_eq!(&got, keys);
        for k in keys {
            prop_assert!(set.contains(k));
        }
        for k in absent {
            prop_assert_eq!(set.contains(k), keys.binary_search(k).is_ok());
        }
        // Minimal: as many nodes as the minimal automaton has states.
        prop_assert_eq!(node_count(set.as_fst()), minimal_states(keys));
        // The same language as fst's own builder, and never larger.
        let theirs = Set::from_iter(keys).expect("fst builds");
        let mut a = theirs.into_stream();
        let mut n = 0;
        while let Some(k) = a.next() {
            prop_assert_eq!(k, keys[n].as_slice());
            n += 1;
        }
        prop_assert!(set.as_fst().size() <= Set::from_iter(keys).unwrap().as_fst().size());
        Ok(())
    }

    /// The number of distinct nodes reachable from the root.
    fn node_count(fst: &fst::raw::Fst<Vec<u8>>) -> usize {
        let mut seen = std::collections::HashSet::new();
        let mut todo = vec![fst.root().addr()];
        while let Some(addr) = todo.pop() {
            if seen.insert(addr) {
                todo.extend(fst.node(addr).transitions().map(|t| t.addr));
            }
        }
        seen.len()
    }

    /// The number of states of the minimal automaton of `keys` (sorted,
    /// unique), computed naively: the distinct (final, transitions) states
    /// of the trie, bottom up.
    fn minimal_states(keys: &[Vec<u8>]) -> usize {
        type State = (bool, Vec<(u8, usize)>);
        fn id(keys: &[&[u8]], ids: &mut std::collections::HashMap<State, usize>) -> usize {
            let is_final = keys.first().is_some_and(|k| k.is_empty());
            let rest = &keys[is_final as usize..];
            let mut trans = Vec::new();
            let mut i = 0;
            while i < rest.len() {
                let b = rest[i][0];
                let j = i + rest[i..].iter().take_while(|k| k[0] == b).count();
                let tails: Vec<&[u8]> = rest[i..j].iter().map(|k| &k[1..]).collect();
                trans.push((b, id(&tails, ids)));
                i = j;
            }
            let n = ids.len();
            *ids.entry((is_final, trans)).or_insert(n)
        }
        let keys: Vec<&[u8]> = keys.iter().map(|k| k.as_slice()).collect();
        let mut ids = std::collections::HashMap::new();
        id(&keys, &mut ids);
        ids.len()
    }

    fn sorted(mut keys: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
        keys.sort();
        keys.dedup();
        keys
    }

    /// Byte strings over a small alphabet: `alphabet` consecutive bytes
    /// from `base`.
    fn strings(base: u8, alphabet: u8, max_len: usize) -> impl Strategy<Value = Vec<u8>> {
        prop::collection::vec(base..base + alphabet, 0..=max_len)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        #[test]
        fn small_alphabets(
            keys in prop::collection::vec(strings(b'a', 3, 8), 0..200),
            absent in prop::collection::vec(strings(b'a', 3, 9), 0..50),
        ) {
            check(&sorted(keys), &absent)?;
        }

        #[test]
        fn any_bytes(
            keys in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..12), 0..100),
            absent in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..12), 0..50),
        ) {
            check(&sorted(keys), &absent)?;
        }

        #[test]
        fn uncommon_inputs_and_wide_nodes(
            keys in prop::collection::vec(strings(0x90, 80, 4), 0..400),
            absent in prop::collection::vec(strings(0x90, 80, 4), 0..50),
        ) {
            // Bytes no common-input index covers, and nodes with more than
            // 32 (and 63) transitions.
            check(&sorted(keys), &absent)?;
        }

        #[test]
        fn long_keys(
            keys in prop::collection::vec(strings(b'x', 2, 300), 1..20),
            absent in prop::collection::vec(strings(b'x', 2, 300), 0..10),
        ) {
            check(&sorted(keys), &absent)?;
        }

        #[test]
        fn prefixes_of_each_other(word in strings(b'a', 4, 40), cut in prop::collection::vec(any::<prop::sample::Index>(), 0..10)) {
            let mut keys: Vec<Vec<u8>> = cut.iter().map(|i| word[..i.index(word.len() + 1)].to_vec()).collect();
            keys.push(word.clone());
            check(&sorted(keys), &[word[..word.len() / 2].to_vec()])?;
        }
    }

    #[test]
    fn edge_cases() {
        let cases: &[&[&[u8]]] = &[
            &[],
            &[b""],
            &[b"", b"a"],
            &[b"a"],
            &[b"\0"],
            &[b"", b"\0", b"\0\0"],
            &[b"\xff"],
            &[b"a", b"ab", b"abc", b"b"],
        ];
        for keys in cases {
            let keys: Vec<Vec<u8>> = keys.iter().map(|k| k.to_vec()).collect();
            check(&keys, &[b"".to_vec(), b"a".to_vec(), b"z".to_vec()]).unwrap();
        }
        // All 256 bytes: a node with 256 transitions.
        let keys: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
        check(&keys, &[b"ab".to_vec()]).unwrap();
        let keys: Vec<Vec<u8>> = (0..=255u8).flat_map(|b| [vec![b], vec![b, b]]).collect();
        check(&keys, &[b"ab".to_vec()]).unwrap();
    }

    #[test]
    fn many_keys_grow_the_register() {
        // Enough distinct nodes to grow the table from its smallest size
        // several times, with the insertion queue in use throughout.
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let keys: Vec<Vec<u8>> = (0..60_000)
            .map(|_| {
                let len = 1 + next() % 14;
                (0..len).map(|_| b'a' + (next() % 5) as u8).collect()
            })
            .collect();
        let keys = sorted(keys);
        let mut w = SetWriter::with_capacity(0);
        for k in &keys {
            w.insert(k);
        }
        assert!(w.builder.register.slots.len() > 1 << 14, "the table grew");
        // A table that turns narrow as it grows past 2^13 slots finds the
        // same nodes.
        let mut half = SetWriter {
            builder: Builder::with_narrow_from(0, 1 << 13),
            keys: 0,
        };
        for k in &keys {
            half.insert(k);
        }
        let r = &half.builder.register;
        assert!(r.slots.is_empty() && r.narrow.len() > 1 << 14, "narrow");
        assert!(half.finish() == w.finish(), "the same fst");
        let absent: Vec<Vec<u8>> = (0..2000)
            .map(|_| {
                (0..1 + next() % 14)
                    .map(|_| b'a' + (next() % 5) as u8)
                    .collect()
            })
            .collect();
        check(&keys, &absent).unwrap();
    }

    #[test]
    #[should_panic(expected = "out of order")]
    fn out_of_order_panics() {
        set_bytes([b"b".as_slice(), b"a"]);
    }

    #[test]
    #[should_panic(expected = "out of order")]
    fn duplicate_panics() {
        set_bytes([b"a".as_slice(), b"a"]);
    }

    #[test]
    fn empty_set_is_fsts_empty_set() {
        let mine = set_bytes(std::iter::empty());
        let theirs = Set::from_iter(std::iter::empty::<&[u8]>()).unwrap();
        assert_eq!(mine, theirs.as_fst().as_bytes());
        let mine = set_bytes([b"".as_slice()]);
        let theirs = Set::from_iter([b""]).unwrap();
        assert_eq!(mine, theirs.as_fst().as_bytes());
    }

    #[test]
    fn checksum_is_fsts() {
        // The CRC-32C check value, and fst's own verification of a set.
        assert_eq!(::crc32c::crc32c(b"123456789"), 0xe306_9283);
        let set = Set::new(set_bytes([b"a".as_slice(), b"b"])).unwrap();
        set.as_fst().verify().unwrap();
    }
}
