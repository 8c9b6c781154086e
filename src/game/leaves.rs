//! [`Leaves`]: a leave table, the value of keeping each set of tiles on the
//! rack after a move, for ranking moves by equity (score plus leave value).
//!
//! Two formats are read:
//!
//! - **KLV2**, wolges's binary format (MAGPIE reads it too): a DAWG of the
//!   leaves, each spelled in tile-code order (blank `0` first), then one
//!   `f32` value per leave in the DAWG's word order. Little-endian:
//!
//!   ```text
//!   u32 N            number of nodes
//!   u32 x N          nodes: tile << 24 | accepts 0x800000 | last sibling 0x400000 | first child (22 bits)
//!   u32 L            number of leaves
//!   f32 x L          values, in points
//!   ```
//!
//!   Node 0 points at the root's children. A leave's index is the number of
//!   leaves before it in the DAWG's order: walking `?EQ` adds, at each step,
//!   the leaves under the siblings before the tile taken, plus one for a
//!   leave ending on the way (`?` and `?E` come before `?EQ`).
//! - **KLV**, wolges's older format: the same, with an `i16` per leave
//!   in 1/256 points instead of the `f32` (told apart by the file's
//!   length).
//! - **CSV**: `LEAVE,VALUE` lines, the text wolges's `buildlex
//!   english-klv2` turns into KLV2: a leave in rack notation (`?` a blank,
//!   `[CH]` a multi-letter tile), its value in points. Blank lines and
//!   lines starting with `#` are skipped.
//!
//! Values are kept in millipoints (`i32`, one point is 1000), as wolges
//! keeps them: a KLV2 `f32` is multiplied by 1000 and rounded once, when
//! the table is read. A CSV value is read as an `f32` first, so a CSV and
//! the KLV2 built from it give the same millipoints. A leave the table
//! does not hold (and the empty leave) is worth 0.
//!
//! Reading checks the whole table: every node inside the file, no cycle,
//! exactly one value per leave, values finite and within a million points.
//! A damaged or crafted file is one [`LeavesError`], never a panic; a
//! lookup is a walk down the DAWG that allocates nothing.
//!
//! ```
//! use lexq::{Alphabet, game::Rack, game::leaves::Leaves};
//! let en = Alphabet::english();
//! let table = Leaves::from_csv("AE,1.5\nQ,-7.25\n?,25.0\nEQ,-3\n", &en)?;
//! let value = |s: &str| table.value(&Rack::parse(s, &en).unwrap());
//! assert_eq!(value("EA"), 1500);
//! assert_eq!(value("Q"), -7250);
//! assert_eq!(value("QE"), -3000);
//! assert_eq!(value("Z"), 0); // not in the table
//! assert_eq!(value(""), 0);
//! # Ok::<(), lexq::game::leaves::LeavesError>(())
//! ```

use std::fmt;
use std::path::Path;

use crate::alphabet::Alphabet;
use crate::alphabet::tileset::MAX_RACK;
use crate::error::Error;
use crate::game::moves::Move;
use crate::game::rack::{Rack, parse_tiles};
use crate::game::subracks::SubRacks;

/// Millipoints in one point.
pub const MILLI: i32 = 1000;

/// The largest leave value accepted, in points (either sign).
pub const MAX_VALUE: f32 = 1_000_000.0;

/// The largest leave file read, in bytes (a full English table is about
/// 8 MB).
pub const MAX_LEAVES_BYTES: u64 = 256 << 20;

const ACCEPTS: u32 = 0x80_0000;
const LAST: u32 = 0x40_0000;
const ARC: u32 = 0x3f_ffff;

/// A leave table: the value of each leave in millipoints.
#[derive(Clone)]
pub struct Leaves {
    /// KLV2 nodes (see the module documentation).
    nodes: Box<[u32]>,
    /// Per node: the leaves at or under it and its later siblings.
    counts: Box<[u32]>,
    /// Millipoints, in leave order.
    values: Box<[i32]>,
    /// The largest tile code in the table.
    max_tile: u8,
    /// The longest leave, in tiles.
    max_len: usize,
    /// The highest value of a leave of each length (`i32::MIN` for a
    /// length no leave has).
    best_by_len: [i32; MAX_RACK + 1],
}

impl fmt::Debug for Leaves {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Leaves({} leaves of up to {} tiles)",
            self.values.len(),
            self.max_len
        )
    }
}

/// A leave table that cannot be read: which, where, why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{name}: {}{kind}", line.map(|l| format!("line {l}: ")).unwrap_or_default())]
pub struct LeavesError {
    /// The file, or `<memory>`.
    pub name: String,
    /// The 1-based line, for a CSV.
    pub line: Option<usize>,
    /// What is wrong.
    pub kind: LeavesErrorKind,
}

/// What is wrong with a leave table.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LeavesErrorKind {
    /// The file ends before the part its header announces.
    #[error("not a usable KLV2 file: truncated ({need} bytes needed, {have} present)")]
    Truncated {
        /// Bytes the header implies.
        need: u64,
        /// Bytes present.
        have: u64,
    },
    /// Bytes after the last value.
    #[error("not a usable KLV2 file: {0} bytes after the last value")]
    Trailing(u64),
    /// 16-bit values: wolges's older KLV format (no longer an error: such
    /// files are read; kept for the callers that match on it).
    #[error("a KLV file with 16-bit values (wolges's older format); convert it to KLV2")]
    Klv16,
    /// A node points outside the node array.
    #[error("not a usable KLV2 file: node {node} points to node {target}, past the last")]
    ArcOutOfRange {
        /// The node.
        node: u32,
        /// Where it points.
        target: u32,
    },
    /// The last node is not the last of its siblings.
    #[error("not a usable KLV2 file: the last node does not end its sibling list")]
    Unterminated,
    /// A tile code past the 63 an alphabet may have.
    #[error("not a usable KLV2 file: node {node} holds tile code {tile}, past 63")]
    BadTile {
        /// The node.
        node: u32,
        /// Its tile.
        tile: u32,
    },
    /// Following the nodes comes back to one already on the way.
    #[error("not a usable KLV2 file: the nodes form a cycle at node {0}")]
    Cycle(u32),
    /// The number of leaves the nodes spell is not the number of values.
    #[error(
        "not a usable KLV2 file: the nodes spell {leaves} leaves, the file has {values} values"
    )]
    CountMismatch {
        /// Leaves spelled by the DAWG.
        leaves: u64,
        /// Values stored.
        values: u64,
    },
    /// A value that is not a finite number within a million points.
    #[error("value {index} is {value}, not a number of points within ±1000000")]
    BadValue {
        /// The leave's index.
        index: usize,
        /// The value as read.
        value: String,
    },
    /// The table's tiles do not fit the alphabet it is used with.
    #[error("the table has tile code {tile}, the {alphabet} alphabet only {len} tiles")]
    Alphabet {
        /// The largest tile code in the table.
        tile: u8,
        /// The alphabet's name.
        alphabet: String,
        /// Its number of tiles.
        len: usize,
    },
    /// A CSV line is not `LEAVE,VALUE`.
    #[error("expected LEAVE,VALUE: {0}")]
    Syntax(String),
    /// A CSV leave is listed twice.
    #[error("the leave {0} is listed twice")]
    Duplicate(String),
    /// A CSV leave of more tiles than a rack may hold.
    #[error("a leave of {0} tiles, more than a rack of {MAX_RACK} may keep")]
    TooLong(usize),
    /// More leaves than the format can hold.
    #[error("too many leaves for a KLV2 table")]
    TooMany,
    /// The file cannot be read.
    #[error("{message}")]
    Io {
        /// The kind of I/O error.
        kind: std::io::ErrorKind,
        /// The system's message.
        message: String,
    },
}

fn error(name: &str, kind: LeavesErrorKind) -> LeavesError {
    LeavesError {
        name: name.to_string(),
        line: None,
        kind,
    }
}

fn le_u32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

impl Leaves {
    /// Reads a leave table file: KLV2, or CSV (a file of text without NUL
    /// bytes) read against `alphabet`. Either way the table's tiles must
    /// fit `alphabet`.
    pub fn open(path: &Path, alphabet: &Alphabet) -> std::result::Result<Leaves, LeavesError> {
        let name = path.display().to_string();
        let io = |e: std::io::Error| {
            error(
                &name,
                LeavesErrorKind::Io {
                    kind: e.kind(),
                    message: e.to_string(),
                },
            )
        };
        let file = crate::files::capped::open_regular(path).map_err(|e| match e {
            Error::Io { source, .. } => io(source),
            Error::NotRegularFile { what, .. } => io(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("is {what}, not a regular file"),
            )),
            other => io(std::io::Error::other(other.to_string())),
        })?;
        let bytes =
            crate::files::capped::read_capped(file, path, MAX_LEAVES_BYTES, "a leave table")
                .map_err(|e| match e {
                    Error::Io { source, .. } => io(source),
                    other => io(std::io::Error::other(other.to_string())),
                })?;
        // A KLV2 file starts with its node count, under 2^22 (a node's
        // child is 22 bits): its fourth byte is NUL. Bytes without NUL are
        // a CSV, and must be UTF-8 text.
        let table = if bytes.contains(&0) {
            Leaves::read_klv2(&name, &bytes)
        } else {
            match std::str::from_utf8(&bytes) {
                Ok(text) => Leaves::read_csv(&name, text, alphabet),
                Err(e) => {
                    let at = e.valid_up_to();
                    Err(LeavesError {
                        name: name.clone(),
                        line: Some(bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1),
                        kind: LeavesErrorKind::Syntax(format!(
                            "byte {:#04x} is not UTF-8 text (a CSV leave table is UTF-8; a KLV2 file is binary)",
                            bytes[at]
                        )),
                    })
                }
            }
        }?;
        table.check_alphabet(alphabet).map_err(|mut e| {
            e.name = name;
            e
        })?;
        Ok(table)
    }

    /// Reads the bytes of a KLV2 file.
    pub fn from_klv2(bytes: &[u8]) -> std::result::Result<Leaves, LeavesError> {
        Leaves::read_klv2("<memory>", bytes)
    }

    /// Reads the text of a CSV of `LEAVE,VALUE` lines against `alphabet`.
    pub fn from_csv(text: &str, alphabet: &Alphabet) -> std::result::Result<Leaves, LeavesError> {
        Leaves::read_csv("<memory>", text, alphabet)
    }

    fn read_klv2(name: &str, b: &[u8]) -> std::result::Result<Leaves, LeavesError> {
        let have = b.len() as u64;
        let truncated = |need: u64| error(name, LeavesErrorKind::Truncated { need, have });
        if have < 8 {
            return Err(truncated(8));
        }
        let n = le_u32(b, 0) as u64;
        let values_at = 4 + 4 * n + 4;
        if have < values_at {
            return Err(truncated(values_at));
        }
        let l = le_u32(b, values_at as usize - 4) as u64;
        let end = values_at + 4 * l;
        // wolges's older KLV: the same DAWG, then an `i16` per leave in
        // 1/256 points, told apart by the file's length.
        let klv16 = have == values_at + 2 * l && l > 0;
        if have != end && !klv16 {
            return Err(if have < end {
                truncated(end)
            } else {
                error(name, LeavesErrorKind::Trailing(have - end))
            });
        }
        let nodes: Box<[u32]> = (0..n as usize).map(|i| le_u32(b, 4 + 4 * i)).collect();
        let mut values = Vec::with_capacity(l as usize);
        for index in 0..l as usize {
            let raw = if klv16 {
                let at = values_at as usize + 2 * index;
                f32::from(i16::from_le_bytes([b[at], b[at + 1]])) / 256.0
            } else {
                f32::from_bits(le_u32(b, values_at as usize + 4 * index))
            };
            values.push(millipoints(raw).ok_or_else(|| {
                error(
                    name,
                    LeavesErrorKind::BadValue {
                        index,
                        value: raw.to_string(),
                    },
                )
            })?);
        }
        Leaves::finish(name, nodes, values.into_boxed_slice())
    }

    fn read_csv(
        name: &str,
        text: &str,
        alphabet: &Alphabet,
    ) -> std::result::Result<Leaves, LeavesError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut entries: Vec<(Vec<u8>, i32, usize)> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let at = |kind| LeavesError {
                name: name.to_string(),
                line: Some(i + 1),
                kind,
            };
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((leave, value)) = line.split_once(',') else {
                return Err(at(LeavesErrorKind::Syntax(format!("no comma in {line:?}"))));
            };
            let (leave, value) = (leave.trim(), value.trim());
            let mut codes = parse_tiles(leave, alphabet, "leave")
                .map_err(|e| at(LeavesErrorKind::Syntax(e.to_string())))?;
            if codes.is_empty() {
                return Err(at(LeavesErrorKind::Syntax("an empty leave".into())));
            }
            if let Some(&c) = codes.iter().find(|&&c| c & crate::alphabet::BLANK != 0) {
                let mut s = String::new();
                crate::game::rack::push_tile(&mut s, alphabet, c, true);
                return Err(at(LeavesErrorKind::Syntax(format!(
                    "{s}: a leave holds tiles, blanks written ?"
                ))));
            }
            if codes.len() > MAX_RACK {
                return Err(at(LeavesErrorKind::TooLong(codes.len())));
            }
            codes.sort_unstable();
            let raw: f32 = value.parse().map_err(|_| {
                at(LeavesErrorKind::Syntax(format!(
                    "{value:?} is not a number"
                )))
            })?;
            let v = millipoints(raw).ok_or_else(|| {
                at(LeavesErrorKind::BadValue {
                    index: entries.len(),
                    value: value.to_string(),
                })
            })?;
            entries.push((codes, v, i + 1));
        }
        entries.sort_unstable();
        if let Some(w) = entries.windows(2).find(|w| w[0].0 == w[1].0) {
            let r = Rack::from_codes(&w[1].0);
            return Err(LeavesError {
                name: name.to_string(),
                line: Some(w[0].2.max(w[1].2)),
                kind: LeavesErrorKind::Duplicate(r.to_string(alphabet)),
            });
        }
        let keys: Vec<&[u8]> = entries.iter().map(|e| e.0.as_slice()).collect();
        let nodes = build_dawg(&keys).ok_or_else(|| error(name, LeavesErrorKind::TooMany))?;
        let values = entries.iter().map(|e| e.1).collect();
        Leaves::finish(name, nodes, values)
    }

    /// Checks the nodes (in range, terminated, acyclic, one value per
    /// leave) and counts the leaves under each node.
    fn finish(
        name: &str,
        nodes: Box<[u32]>,
        values: Box<[i32]>,
    ) -> std::result::Result<Leaves, LeavesError> {
        let err = |kind| error(name, kind);
        let n = nodes.len();
        if n == 0 {
            return Err(err(LeavesErrorKind::Truncated { need: 12, have: 8 }));
        }
        if nodes[n - 1] & LAST == 0 {
            return Err(err(LeavesErrorKind::Unterminated));
        }
        let mut max_tile = 0u8;
        for (i, &node) in nodes.iter().enumerate() {
            let target = node & ARC;
            if target as usize >= n {
                return Err(err(LeavesErrorKind::ArcOutOfRange {
                    node: i as u32,
                    target,
                }));
            }
            let tile = node >> 24;
            if tile > 63 {
                return Err(err(LeavesErrorKind::BadTile {
                    node: i as u32,
                    tile,
                }));
            }
            if i > 0 {
                max_tile = max_tile.max(tile as u8);
            }
        }
        // counts[p] = accepts(p) + count(child(p)) + count(p + 1) unless p
        // ends its siblings; child indices may point anywhere, so the
        // counts are taken depth first with an explicit stack, and a node
        // met again while it is on the stack is a cycle. Longest leave:
        // depth[p] = max(1 + depth(child(p)), depth(p + 1)).
        const UNSEEN: u64 = u64::MAX;
        const OPEN: u64 = u64::MAX - 1;
        let cap = values.len() as u64;
        let mut counts = vec![UNSEEN; n];
        let mut depth = vec![0u8; n];
        let mut stack: Vec<u32> = Vec::new();
        for start in 0..n {
            if counts[start] != UNSEEN {
                continue;
            }
            stack.push(start as u32);
            while let Some(&p) = stack.last() {
                let p = p as usize;
                let node = nodes[p];
                let child = (node & ARC) as usize;
                let next = (node & LAST == 0).then_some(p + 1);
                if counts[p] == UNSEEN {
                    counts[p] = OPEN;
                }
                let mut pending = false;
                for q in [(child != 0).then_some(child), next].into_iter().flatten() {
                    match counts[q] {
                        UNSEEN => {
                            stack.push(q as u32);
                            pending = true;
                            break;
                        }
                        OPEN => return Err(err(LeavesErrorKind::Cycle(q as u32))),
                        _ => {}
                    }
                }
                if pending {
                    continue;
                }
                stack.pop();
                let mut c = u64::from(node & ACCEPTS != 0);
                let mut d = 1u8;
                if child != 0 {
                    c += counts[child];
                    d = d.max(depth[child].saturating_add(1));
                }
                if let Some(q) = next {
                    c += counts[q];
                    d = d.max(depth[q]);
                }
                // More leaves than values anywhere means a damaged table;
                // capping keeps the sums from overflowing.
                counts[p] = c.min(cap + 1);
                depth[p] = d;
            }
        }
        let root = (nodes[0] & ARC) as usize;
        let (leaves, max_len) = if root == 0 {
            (0, 0)
        } else {
            (counts[root], depth[root] as usize)
        };
        if leaves != cap {
            return Err(err(LeavesErrorKind::CountMismatch {
                leaves,
                values: cap,
            }));
        }
        let counts = counts.into_iter().map(|c| c as u32).collect();
        let mut table = Leaves {
            nodes,
            counts,
            values,
            max_tile,
            max_len,
            best_by_len: [i32::MIN; MAX_RACK + 1],
        };
        let mut best = [i32::MIN; MAX_RACK + 1];
        let mut next = 0usize;
        table.best_walk(root, 1, &mut next, &mut best);
        table.best_by_len = best;
        Ok(table)
    }

    /// The highest value of each length, the leaves met in index order.
    fn best_walk(&self, mut p: usize, depth: usize, next: &mut usize, best: &mut [i32]) {
        if p == 0 || depth > self.max_len {
            return;
        }
        loop {
            let node = self.nodes[p];
            if node & ACCEPTS != 0 {
                let v = self.values.get(*next).copied().unwrap_or(0);
                if let Some(b) = best.get_mut(depth) {
                    *b = (*b).max(v);
                }
                *next += 1;
            }
            self.best_walk((node & ARC) as usize, depth + 1, next, best);
            if node & LAST != 0 {
                break;
            }
            p += 1;
        }
    }

    /// An error if the table holds a tile code past `alphabet`'s tiles.
    pub fn check_alphabet(&self, alphabet: &Alphabet) -> std::result::Result<(), LeavesError> {
        if self.max_tile as usize > alphabet.len() {
            return Err(error(
                "<memory>",
                LeavesErrorKind::Alphabet {
                    tile: self.max_tile,
                    alphabet: alphabet.name().to_string(),
                    len: alphabet.len(),
                },
            ));
        }
        Ok(())
    }

    /// The number of leaves in the table.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the table holds no leave.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The longest leave in the table, in tiles.
    pub fn max_len(&self) -> usize {
        self.max_len
    }

    /// The highest value of a leave of `tiles` tiles in the table
    /// (`i32::MIN` if it has none of that length).
    pub fn best_of_len(&self, tiles: usize) -> i32 {
        self.best_by_len.get(tiles).copied().unwrap_or(i32::MIN)
    }

    /// Calls `f(at, tiles, index, value)` for every non-empty sub-rack of
    /// a rack that the table holds: `at` its number in `sub` (see
    /// [`SubRacks`]), its number of tiles, its index in the table (the
    /// order of [`Leaves::entries`]) and its value in millipoints. One walk
    /// down the DAWG for all of them, the sub-racks spelled in code order,
    /// each step shared by every sub-rack it starts: for `AEE?`, the walk
    /// reads `?`, `?A`, `?AE`, `?AEE`, `?E`, `?EE`, `A`... and leaves a
    /// branch as soon as the table has no leave that starts so. No
    /// allocation.
    pub fn for_each_subleave(&self, sub: &SubRacks, mut f: impl FnMut(usize, usize, usize, i32)) {
        let mut digits = [(0u8, 0u8, 0u32); MAX_RACK];
        let mut n = 0;
        for d in sub.digits() {
            if n < MAX_RACK {
                digits[n] = d;
                n += 1;
            }
        }
        let root = (self.nodes[0] & ARC) as usize;
        self.sub_walk(&digits[..n], root, 0, 0, 0, &mut f);
    }

    /// The sub-racks that use only `digits`, below the node list at `p`
    /// reached with `idx` leaves before it, `at` and `len` those of the
    /// tiles read so far (see [`Leaves::index`] for the counting).
    fn sub_walk(
        &self,
        digits: &[(u8, u8, u32)],
        p: usize,
        idx: u32,
        at: usize,
        len: usize,
        f: &mut impl FnMut(usize, usize, usize, i32),
    ) {
        let nodes = &self.nodes;
        for (j, &(code, count, radix)) in digits.iter().enumerate() {
            let (mut p, mut idx) = (p, idx);
            for k in 1..=count as usize {
                if p == 0 || len + k > self.max_len {
                    break;
                }
                let base = idx.wrapping_add(self.counts[p]);
                while (nodes[p] >> 24) as u8 != code {
                    if nodes[p] & LAST != 0 {
                        p = 0;
                        break;
                    }
                    p += 1;
                }
                if p == 0 {
                    break;
                }
                let here = base.wrapping_sub(self.counts[p]);
                let accepts = nodes[p] & ACCEPTS != 0;
                let at = at + k * radix as usize;
                if accepts {
                    let value = self.values.get(here as usize).copied().unwrap_or(0);
                    f(at, len + k, here as usize, value);
                }
                idx = here.wrapping_add(u32::from(accepts));
                p = (nodes[p] & ARC) as usize;
                self.sub_walk(&digits[j + 1..], p, idx, at, len + k, f);
            }
        }
    }

    /// The value of keeping `leave`, in millipoints (0 for a leave the
    /// table lacks and for the empty leave).
    #[inline]
    pub fn value(&self, leave: &Rack) -> i32 {
        self.value_of_counts(leave.counts())
    }

    /// The value of a leave given as counts per tile code (index 0 for
    /// blanks), in millipoints.
    pub fn value_of_counts(&self, counts: &[u8; 64]) -> i32 {
        match self.index(counts) {
            Some(i) => self.values.get(i as usize).copied().unwrap_or(0),
            None => 0,
        }
    }

    /// The index of the leave in the table: its tiles spelled in code
    /// order. `E?Q` is spelled `?EQ`: from the root's children, skip to
    /// `?` (adding the leaves under the siblings skipped), then one for
    /// the leave `?` itself if it is one, then its children for `E`, and
    /// so on; the last tile must end a leave.
    fn index(&self, counts: &[u8; 64]) -> Option<u32> {
        let mut left: usize = counts.iter().map(|&c| c as usize).sum();
        if left == 0 || left > self.max_len {
            return None;
        }
        let nodes = &self.nodes;
        let mut p = (nodes[0] & ARC) as usize;
        let mut idx = 0u32;
        for (code, &count) in counts.iter().enumerate() {
            for _ in 0..count {
                if p == 0 {
                    return None;
                }
                idx = idx.wrapping_add(self.counts[p]);
                while (nodes[p] >> 24) as usize != code {
                    if nodes[p] & LAST != 0 {
                        return None;
                    }
                    p += 1;
                }
                idx = idx.wrapping_sub(self.counts[p]);
                left -= 1;
                let accepts = nodes[p] & ACCEPTS != 0;
                if left == 0 {
                    return accepts.then_some(idx);
                }
                idx = idx.wrapping_add(u32::from(accepts));
                p = (nodes[p] & ARC) as usize;
            }
        }
        None
    }

    /// Every leave with its value in millipoints, in the table's order
    /// (tile codes ascending, blanks first).
    pub fn entries(&self) -> Vec<(Rack, i32)> {
        let mut out = Vec::with_capacity(self.values.len());
        let mut path = Vec::new();
        self.walk((self.nodes[0] & ARC) as usize, &mut path, &mut out);
        out
    }

    fn walk(&self, mut p: usize, path: &mut Vec<u8>, out: &mut Vec<(Rack, i32)>) {
        if p == 0 || path.len() >= self.max_len {
            return;
        }
        loop {
            let node = self.nodes[p];
            path.push((node >> 24) as u8);
            if node & ACCEPTS != 0 {
                let v = self.values.get(out.len()).copied().unwrap_or(0);
                out.push((Rack::from_codes(path), v));
            }
            self.walk((node & ARC) as usize, path, out);
            path.pop();
            if node & LAST != 0 {
                break;
            }
            p += 1;
        }
    }
}

/// Points as millipoints, rounded once in `f32` as wolges does; `None`
/// for a value that is not finite or past [`MAX_VALUE`].
fn millipoints(points: f32) -> Option<i32> {
    (points.is_finite() && points.abs() <= MAX_VALUE)
        .then(|| (points * MILLI as f32).round() as i32)
}

/// A trie of sorted, distinct keys as KLV2 nodes: node 0 points at the
/// root's children; each node's children are contiguous, in code order;
/// leaves are numbered in key order. `None` if there are too many nodes
/// for 22-bit indices.
fn build_dawg(keys: &[&[u8]]) -> Option<Box<[u32]>> {
    let mut nodes = vec![LAST];
    if !keys.is_empty() {
        let root = place(keys, 0, &mut nodes)?;
        nodes[0] = LAST | root;
    }
    Some(nodes.into_boxed_slice())
}

/// Places the children of the keys' common prefix of length `depth` (all
/// keys longer than `depth`), returning the first child's index.
fn place(keys: &[&[u8]], depth: usize, nodes: &mut Vec<u32>) -> Option<u32> {
    let mut groups: Vec<&[&[u8]]> = Vec::new();
    let mut start = 0;
    for i in 1..=keys.len() {
        if i == keys.len() || keys[i][depth] != keys[start][depth] {
            groups.push(&keys[start..i]);
            start = i;
        }
    }
    let first = nodes.len();
    if first + groups.len() > ARC as usize {
        return None;
    }
    nodes.resize(first + groups.len(), 0);
    for (k, group) in groups.iter().enumerate() {
        let accepts = group[0].len() == depth + 1;
        let longer = &group[usize::from(accepts)..];
        let child = if longer.is_empty() {
            0
        } else {
            place(longer, depth + 1, nodes)?
        };
        let mut node = (u32::from(group[0][depth]) << 24) | child;
        if accepts {
            node |= ACCEPTS;
        }
        if k + 1 == groups.len() {
            node |= LAST;
        }
        nodes[first + k] = node;
    }
    Some(first as u32)
}

/// The equity of a move in millipoints: its score, plus the value of the
/// tiles it keeps from `rack`.
///
/// ```
/// use lexq::{Alphabet, game::Move, game::Rack, game::leaves::Leaves, game::leaves::equity};
/// let en = Alphabet::english();
/// let table = Leaves::from_csv("S,8.0\n", &en)?;
/// let rack = Rack::parse("ABS", &en).unwrap();
/// let exchange = Move::exchange(&[1, 2]); // AB back to the bag, S kept
/// assert_eq!(equity(&exchange, &rack, &table), 8000);
/// # Ok::<(), lexq::game::leaves::LeavesError>(())
/// ```
pub fn equity(mv: &Move, rack: &Rack, leaves: &Leaves) -> i32 {
    mv.score() * MILLI + leaves.value(&mv.leave(rack))
}

/// Sorts finished moves by equity, best first; ties by the move order of
/// [`crate::game::moves::rank`].
pub fn rank_by_equity(moves: &mut [Move], rack: &Rack, leaves: &Leaves) {
    moves.sort_unstable_by(crate::game::moves::rank);
    // Stable: moves of equal equity stay in the order of `rank`.
    moves.sort_by_cached_key(|m| std::cmp::Reverse(equity(m, rack, leaves)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trie_layout_and_counts() {
        // Keys ?, ?E, ?EQ, A, AE: node 0 -> [? A]; ? -> [E]; E -> [Q];
        // A -> [E].
        let keys: Vec<&[u8]> = vec![&[0], &[0, 5], &[0, 5, 17], &[1], &[1, 5]];
        let nodes = build_dawg(&keys).unwrap();
        let t = Leaves::finish("t", nodes, vec![10, 20, 30, 40, 50].into()).unwrap();
        let v = |codes: &[u8]| t.value(&Rack::from_codes(codes));
        assert_eq!(v(&[0]), 10);
        assert_eq!(v(&[5, 0]), 20);
        assert_eq!(v(&[17, 0, 5]), 30);
        assert_eq!(v(&[1]), 40);
        assert_eq!(v(&[5, 1]), 50);
        assert_eq!(v(&[5]), 0);
        assert_eq!(v(&[0, 17]), 0);
        assert_eq!(t.max_len(), 3);
        let back: Vec<i32> = t.entries().into_iter().map(|e| e.1).collect();
        assert_eq!(back, [10, 20, 30, 40, 50]);
    }

    #[test]
    fn cycles_and_ranges_are_errors() {
        // Node 1 points back at itself.
        let nodes: Box<[u32]> = vec![LAST | 1, (1 << 24) | ACCEPTS | LAST | 1].into();
        let e = Leaves::finish("t", nodes, vec![1].into()).unwrap_err();
        assert_eq!(e.kind, LeavesErrorKind::Cycle(1));
        let nodes: Box<[u32]> = vec![LAST | 5].into();
        let e = Leaves::finish("t", nodes, vec![].into()).unwrap_err();
        assert!(matches!(e.kind, LeavesErrorKind::ArcOutOfRange { .. }));
    }
}
