//! The structural check of a lexicon's fst section, with a bounds-checked
//! reader of its nodes.
//!
//! The fst section is a real `fst::Set` (format version 3, see
//! [`crate::lexicon::fstwrite`] for the encoding), handed to users through the
//! `fst` crate ([`crate::Lexicon::fst_set`]). But fst trusts its input and
//! panics (out-of-bounds indexing, address underflow, `1 <= nbytes <= 8`)
//! on bytes crafted to pass the file's checksums. So before the `fst`
//! crate sees a section, [`check`] reads it here, where every offset is
//! checked and no byte makes the reader panic:
//!
//! * [`Node::decode`] checks that the whole node lies inside the node area
//!   and that its pack sizes are possible, and says what is wrong if not;
//! * once decoded, every read of the node is within the bytes just checked,
//!   and a transition's target is computed with a checked subtraction
//!   (a target that would underflow becomes an address no node has).
//!
//! [`check`] decodes every node of the node area in turn (nodes are written
//! back to back), checks that every transition lands on a lower node (so
//! the automaton is acyclic), that inputs are valid key bytes in increasing
//! order and agree with a large node's index, and counts the keys (so work
//! on a checked section is bounded by its stated size). The same reader
//! serves the arc table's check ([`crate::lexicon::raw::check`]) and the reading of
//! older files' words.

use std::fmt;

use crate::lexicon::gaddag::key_code;

/// fst's address of the final node without transitions (never written).
pub(crate) const EMPTY_ADDRESS: usize = 0;
/// An address no node has: the target of a transition that underflows.
const BAD_ADDRESS: usize = usize::MAX;
/// The fst header (version and type) precedes the nodes.
const NODES_START: usize = 16;
/// The footer after the root: number of keys, root address, checksum.
const FOOTER_LEN: usize = 20;
/// The fst format version lexq writes and reads.
const FST_VERSION: u64 = 3;
/// Nodes with more transitions than this carry a 256-byte index.
const TRANS_INDEX_THRESHOLD: usize = 32;

/// The common inputs of fst's node encoding (index `i` stored as `i + 1`).
use crate::lexicon::fstwrite::COMMON_INPUTS;

/// What is wrong with an fst section or one of its nodes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Damage {
    /// The section is shorter than an empty fst.
    Short(usize),
    /// Another fst format version.
    Version(u64),
    /// The root address does not point right before the footer.
    Root(u64),
    /// The node address is outside the node area.
    Addr(usize),
    /// The node would extend below the node area.
    Overrun(usize),
    /// The node's pack sizes are impossible.
    PackSize(usize),
    /// A transition's target is not a node.
    Target(usize, usize),
    /// A transition reads a byte that is no key byte.
    Input(usize, u8),
    /// A node's inputs are not in increasing order.
    Order(usize),
    /// A large node's index disagrees with its inputs.
    Index(usize),
    /// A set's node carries an output.
    Output(usize),
    /// Bytes between nodes that are not a node.
    Gap(usize),
    /// The number of keys differs from what the footer or header says.
    Count { found: u64, stated: u64 },
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Damage::Short(n) => write!(f, "{n} bytes, shorter than any fst"),
            Damage::Version(v) => write!(f, "fst format version {v}, expected {FST_VERSION}"),
            Damage::Root(a) => write!(f, "root address {a} is not at the end"),
            Damage::Addr(a) => write!(f, "node address {a} is outside the node area"),
            Damage::Overrun(a) => write!(f, "node at {a} extends below the node area"),
            Damage::PackSize(a) => write!(f, "node at {a} has impossible pack sizes"),
            Damage::Target(a, t) => write!(f, "node at {a} has a transition to {t}, not a node"),
            Damage::Input(a, b) => write!(f, "node at {a} reads byte {b:#04x}, not a key byte"),
            Damage::Order(a) => write!(f, "node at {a} has inputs out of order"),
            Damage::Index(a) => write!(f, "node at {a} has an index that disagrees with it"),
            Damage::Output(a) => write!(f, "node at {a} carries an output"),
            Damage::Gap(a) => write!(f, "bytes up to {a} are not a node"),
            Damage::Count { found, stated } => {
                write!(f, "holds {found} keys, {stated} stated")
            }
        }
    }
}

/// The fst section of a lexicon, its footer read and checked.
#[derive(Clone, Debug)]
pub(crate) struct Fst {
    /// The root's address (`EMPTY_ADDRESS` for the empty set).
    root: usize,
    /// The number of keys the footer states.
    len: u64,
}

impl Fst {
    /// Reads the footer of the fst section `bytes`: the version, the number
    /// of keys, and a root address that ends right before the footer.
    pub(crate) fn new(bytes: &[u8]) -> Result<Fst, Damage> {
        if bytes.len() < NODES_START + FOOTER_LEN {
            return Err(Damage::Short(bytes.len()));
        }
        let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8"));
        let version = u64_at(0);
        if version != FST_VERSION {
            return Err(Damage::Version(version));
        }
        let footer = bytes.len() - FOOTER_LEN;
        let len = u64_at(footer);
        let root = u64_at(footer + 8);
        let ok = if root == EMPTY_ADDRESS as u64 {
            footer == NODES_START
        } else {
            root.checked_add(1) == Some(footer as u64) && footer > NODES_START
        };
        if !ok {
            return Err(Damage::Root(root));
        }
        Ok(Fst {
            root: root as usize,
            len,
        })
    }

    /// The number of keys the footer states.
    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    /// The root's address in the node area.
    pub(crate) fn root_addr(&self) -> usize {
        self.root
    }

    /// The node area: the fst header and every node, up to the root.
    #[inline]
    pub(crate) fn area<'a>(&self, bytes: &'a [u8]) -> &'a [u8] {
        &bytes[..bytes.len() - FOOTER_LEN]
    }
}

/// The shape of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// No transitions (the empty final node, or a dead one).
    Empty,
    /// One transition to the node written just before.
    OneNext,
    /// One transition, its target stored.
    One,
    /// Any number of transitions, final or not.
    Any,
}

/// A decoded node: where its parts are in the node area.
#[derive(Clone, Copy)]
pub(crate) struct Node<'a> {
    /// The node area (see [`Fst::area`]).
    data: &'a [u8],
    /// The node's first byte; transition deltas count from here.
    end: usize,
    /// For `Any`: where the inputs start (stored last transition first).
    /// For `One`: where the target's delta starts.
    at: usize,
    /// For `Any` with an index: where the index starts.
    index: usize,
    ntrans: u16,
    tsize: u8,
    /// For one-transition nodes: the input.
    input: u8,
    kind: Kind,
    is_final: bool,
    has_index: bool,
}

impl<'a> Node<'a> {
    /// A node with no transitions that is not final: what an undecodable
    /// node reads as on the unchecked path.
    fn dead(data: &'a [u8]) -> Node<'a> {
        Node {
            data,
            end: 0,
            at: 0,
            index: 0,
            ntrans: 0,
            tsize: 0,
            input: 0,
            kind: Kind::Empty,
            is_final: false,
            has_index: false,
        }
    }

    /// Decodes the node at `addr` of the node area `data`, checking that
    /// all of it lies in `data[NODES_START..]`.
    #[inline]
    pub(crate) fn decode(data: &'a [u8], addr: usize) -> Result<Node<'a>, Damage> {
        if addr == EMPTY_ADDRESS {
            return Ok(Node {
                is_final: true,
                ..Node::dead(data)
            });
        }
        let Some(&state) = data.get(addr) else {
            return Err(Damage::Addr(addr));
        };
        if addr < NODES_START {
            return Err(Damage::Addr(addr));
        }
        // Bytes below `addr` the node needs, checked against the area.
        let below = |n: usize| match addr.checked_sub(n) {
            Some(p) if p >= NODES_START => Ok(p),
            _ => Err(Damage::Overrun(addr)),
        };
        let common = state & 0b0011_1111;
        match state >> 6 {
            0b11 => {
                let (input, end) = if common == 0 {
                    let p = below(1)?;
                    (data[p], p)
                } else {
                    (COMMON_INPUTS[common as usize - 1], addr)
                };
                Ok(Node {
                    end,
                    ntrans: 1,
                    input,
                    kind: Kind::OneNext,
                    ..Node::dead(data)
                })
            }
            0b10 => {
                let input_len = usize::from(common == 0);
                let sizes = data[below(input_len + 1)?];
                let (tsize, osize) = ((sizes >> 4) as usize, (sizes & 0x0f) as usize);
                if !(1..=8).contains(&tsize) || osize > 8 {
                    return Err(Damage::PackSize(addr));
                }
                let at = below(input_len + 1 + tsize)?;
                let end = below(input_len + 1 + tsize + osize)?;
                let input = if common == 0 {
                    data[addr - 1]
                } else {
                    COMMON_INPUTS[common as usize - 1]
                };
                Ok(Node {
                    end,
                    at,
                    ntrans: 1,
                    tsize: tsize as u8,
                    input,
                    kind: Kind::One,
                    ..Node::dead(data)
                })
            }
            _ => {
                let is_final = state & 0b0100_0000 != 0;
                let (ntrans, ntrans_len) = if common != 0 {
                    (common as usize, 0)
                } else {
                    match data[below(1)?] {
                        1 => (256, 1),
                        n => (n as usize, 1),
                    }
                };
                let sizes = data[below(ntrans_len + 1)?];
                let (tsize, osize) = ((sizes >> 4) as usize, (sizes & 0x0f) as usize);
                // A node without transitions stores none: tsize may be 0.
                if (ntrans > 0 && !(1..=8).contains(&tsize)) || tsize > 8 || osize > 8 {
                    return Err(Damage::PackSize(addr));
                }
                let has_index = ntrans > TRANS_INDEX_THRESHOLD;
                let index_len = if has_index { 256 } else { 0 };
                let index = below(ntrans_len + 1 + index_len)?;
                let at = below(ntrans_len + 1 + index_len + ntrans)?;
                let outputs = ntrans * osize + if is_final { osize } else { 0 };
                let end = below(ntrans_len + 1 + index_len + ntrans * (1 + tsize) + outputs)?;
                Ok(Node {
                    data,
                    end,
                    at,
                    index,
                    ntrans: ntrans as u16,
                    tsize: tsize as u8,
                    input: 0,
                    kind: Kind::Any,
                    is_final,
                    has_index,
                })
            }
        }
    }

    /// Whether a key ends here.
    #[inline]
    pub(crate) fn is_final(&self) -> bool {
        self.is_final
    }

    /// The number of transitions.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.ntrans as usize
    }

    /// The input byte of transition `i` (`i < len()`), in increasing order
    /// on well-formed nodes.
    #[inline]
    pub(crate) fn input(&self, i: usize) -> u8 {
        match self.kind {
            Kind::Any => self.data[self.at + self.ntrans as usize - 1 - i],
            _ => self.input,
        }
    }

    /// The target address of transition `i` (`i < len()`); an address no
    /// node has if the stored delta is larger than the node's position.
    #[inline]
    pub(crate) fn target(&self, i: usize) -> usize {
        let (pos, tsize) = match self.kind {
            Kind::OneNext => return self.end.checked_sub(1).unwrap_or(BAD_ADDRESS),
            Kind::One => (self.at, self.tsize as usize),
            Kind::Any => {
                let t = self.tsize as usize;
                (self.at - (i + 1) * t, t)
            }
            Kind::Empty => return BAD_ADDRESS,
        };
        // One 8-byte load, masked to the delta's size (no variable-length
        // copy, which costs a call to memmove), where 8 bytes are there.
        let delta = match self.data.get(pos..pos + 8) {
            Some(b) => {
                let word = u64::from_le_bytes(b.try_into().unwrap_or([0; 8]));
                word & (u64::MAX >> (64 - 8 * tsize.clamp(1, 8)))
            }
            None => {
                let mut buf = [0u8; 8];
                buf[..tsize].copy_from_slice(&self.data[pos..pos + tsize]);
                u64::from_le_bytes(buf)
            }
        };
        match delta {
            0 => EMPTY_ADDRESS,
            delta => usize::try_from(delta)
                .ok()
                .and_then(|d| self.end.checked_sub(d))
                .unwrap_or(BAD_ADDRESS),
        }
    }

    /// The transition reading `b`, if any.
    #[inline]
    pub(crate) fn find(&self, b: u8) -> Option<usize> {
        match self.kind {
            Kind::OneNext | Kind::One => (self.input == b).then_some(0),
            Kind::Empty => None,
            Kind::Any if self.has_index => {
                let i = self.data[self.index + b as usize] as usize;
                (i < self.ntrans as usize).then_some(i)
            }
            Kind::Any => {
                let n = self.ntrans as usize;
                let inputs = &self.data[self.at..self.at + n];
                inputs.iter().position(|&x| x == b).map(|p| n - 1 - p)
            }
        }
    }

    /// The node's first byte (the node below it ends right before).
    fn first_byte(&self) -> usize {
        self.end
    }

    /// Whether the node stores any output (a set's never do).
    fn has_output(&self, addr: usize) -> bool {
        let sizes_at = match self.kind {
            Kind::Empty | Kind::OneNext => return false,
            Kind::One => self.at + self.tsize as usize,
            Kind::Any => {
                let ntrans_len = usize::from(self.data[addr] & 0b0011_1111 == 0);
                addr - ntrans_len - 1
            }
        };
        self.data[sizes_at] & 0x0f != 0
    }
}

/// Checks the structure of the fst section `bytes` (footer already read
/// into `fst`): decodes every node from the root down to the fst header,
/// which must be back to back; checks every transition's input (a key byte,
/// of a code at most `max_code`) and target (a node, always lower), inputs
/// in increasing order, large nodes' indexes, no outputs; and counts the
/// keys, which must match the footer's count. Returns the number of nodes.
///
/// Memory: one bit per byte of the section plus 8 bytes per node.
pub(crate) fn check(bytes: &[u8], fst: &Fst, max_code: u8) -> Result<u64, Damage> {
    let data = fst.area(bytes);
    if fst.root == EMPTY_ADDRESS {
        return match fst.len {
            1 => Ok(0),
            stated => Err(Damage::Count { found: 1, stated }),
        };
    }
    // Pass 1, root down: decode every node, mark where nodes are.
    let mut is_node = Bits::new(data.len());
    let mut addr = fst.root;
    let mut nodes = 0u64;
    loop {
        let node = Node::decode(data, addr)?;
        if node.kind == Kind::Empty {
            // Only address 0 decodes as the empty node, never written.
            return Err(Damage::Addr(addr));
        }
        is_node.set(addr);
        nodes += 1;
        let first = node.first_byte();
        if first == NODES_START {
            break;
        }
        addr = first.checked_sub(1).ok_or(Damage::Gap(first))?;
    }
    // Pass 2, bottom up (children before parents): check each node's
    // transitions and count the keys below it.
    let ranks = Ranks::new(&is_node);
    let mut below = vec![0u64; nodes as usize];
    for (node_ix, addr) in is_node.iter().enumerate() {
        let node = Node::decode(data, addr)?;
        if node.has_output(addr) {
            return Err(Damage::Output(addr));
        }
        let mut count = u64::from(node.is_final);
        let mut last: Option<u8> = None;
        for i in 0..node.len() {
            let b = node.input(i);
            match key_code(b) {
                Some(code) if code <= max_code => {}
                _ => return Err(Damage::Input(addr, b)),
            }
            if last.is_some_and(|l| l >= b) {
                return Err(Damage::Order(addr));
            }
            last = Some(b);
            if node.has_index && node.find(b) != Some(i) {
                return Err(Damage::Index(addr));
            }
            let t = node.target(i);
            let keys = if t == EMPTY_ADDRESS {
                1
            } else if t < node.first_byte() && is_node.get(t) {
                below[ranks.rank(&is_node, t)]
            } else {
                return Err(Damage::Target(addr, t));
            };
            count = count.saturating_add(keys);
        }
        if node.has_index {
            let entries = data[node.index..node.index + 256]
                .iter()
                .filter(|&&i| (i as usize) < node.len())
                .count();
            if entries != node.len() {
                return Err(Damage::Index(addr));
            }
        }
        below[node_ix] = count;
    }
    let found = below[nodes as usize - 1];
    if found != fst.len {
        return Err(Damage::Count {
            found,
            stated: fst.len,
        });
    }
    Ok(nodes)
}

/// A bit per byte of the node area.
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)])
    }

    fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    fn get(&self, i: usize) -> bool {
        self.0.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// The set positions, in increasing order.
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &bits)| {
            let mut bits = bits;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    w * 64 + b
                })
            })
        })
    }
}

/// The number of set bits before each word of a [`Bits`], for ranks in O(1).
struct Ranks(Vec<u64>);

impl Ranks {
    fn new(bits: &Bits) -> Ranks {
        let mut before = 0;
        Ranks(
            bits.0
                .iter()
                .map(|w| {
                    let r = before;
                    before += u64::from(w.count_ones());
                    r
                })
                .collect(),
        )
    }

    /// The number of set bits below position `i`.
    fn rank(&self, bits: &Bits, i: usize) -> usize {
        let (w, b) = (i / 64, i % 64);
        let mask = (1u64 << b) - 1;
        (self.0[w] + u64::from((bits.0[w] & mask).count_ones())) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexicon::fstwrite::SetWriter;

    fn set(keys: &[&[u8]]) -> Vec<u8> {
        let mut w = SetWriter::with_capacity(keys.len());
        for k in keys {
            w.insert(k);
        }
        w.finish()
    }

    /// Every key the nodes spell, by a walk from the root.
    fn keys(bytes: &[u8]) -> Vec<Vec<u8>> {
        fn go(data: &[u8], addr: usize, path: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
            let node = Node::decode(data, addr).unwrap();
            if node.is_final() {
                out.push(path.clone());
            }
            for i in 0..node.len() {
                assert_eq!(node.find(node.input(i)), Some(i));
                path.push(node.input(i));
                go(data, node.target(i), path, out);
                path.pop();
            }
        }
        let fst = Fst::new(bytes).unwrap();
        let mut out = Vec::new();
        go(fst.area(bytes), fst.root, &mut Vec::new(), &mut out);
        out
    }

    #[test]
    fn reads_back_what_the_writer_wrote() {
        // Keys with common and uncommon inputs, one-transition chains and a
        // node with more than 32 transitions (indexed).
        let mut owned: Vec<Vec<u8>> = vec![b"te".to_vec(), b"tea".to_vec(), b"z\xffq".to_vec()];
        owned.extend((0u8..40).map(|i| vec![b'x', b'0' + i, b'!']));
        owned.sort();
        let keys_in: Vec<&[u8]> = owned.iter().map(Vec::as_slice).collect();
        let bytes = set(&keys_in);
        assert_eq!(keys(&bytes), owned);
        let fst = Fst::new(&bytes).unwrap();
        assert_eq!(fst.len(), owned.len() as u64);
        // The bytes include non-key bytes, so the key-byte check refuses.
        assert!(matches!(check(&bytes, &fst, 63), Err(Damage::Input(..))));
    }

    #[test]
    fn empty_and_tiny_sets() {
        let empty = set(&[]);
        let fst = Fst::new(&empty).unwrap();
        assert!(
            !Node::decode(fst.area(&empty), fst.root_addr())
                .unwrap()
                .is_final()
        );
        let only_empty_key = set(&[b""]);
        let fst = Fst::new(&only_empty_key).unwrap();
        assert!(
            Node::decode(fst.area(&only_empty_key), fst.root_addr())
                .unwrap()
                .is_final()
        );
        assert_eq!(check(&only_empty_key, &fst, 63), Ok(0));
        assert!(Fst::new(&empty[..empty.len() - 1]).is_err());
    }

    #[test]
    fn every_byte_value_at_every_position_decodes_or_is_refused() {
        let bytes = set(&[b"te", b"tea", b"to"]);
        for at in 0..bytes.len() {
            for v in 0..=255u8 {
                let mut b = bytes.clone();
                b[at] = v;
                let Ok(fst) = Fst::new(&b) else { continue };
                let data = fst.area(&b);
                let _ = check(&b, &fst, 63);
                for addr in 0..data.len() + 2 {
                    if let Ok(n) = Node::decode(data, addr) {
                        for i in 0..n.len() {
                            let _ = (n.input(i), n.target(i), n.find(n.input(i)));
                        }
                    }
                }
            }
        }
    }
}
