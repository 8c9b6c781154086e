//! [`rack`]: words whose letters spend tiles from a rack.

use super::{Buf, Emit, follow_reversed};
use crate::lexicon::gaddag::SEPARATOR;
use crate::lexicon::raw::{ACCEPTS, CODE, Cursor, Node};
use crate::query::{BLANK, Lengths};

/// Tiles to spend in a [`rack`] walk.
#[derive(Clone, Debug)]
pub(crate) struct Tiles {
    /// How many of each code.
    pub counts: [u8; 64],
    /// How many blanks.
    pub blanks: u8,
}

impl Tiles {
    fn total(&self) -> usize {
        self.counts.iter().map(|&c| c as usize).sum::<usize>() + self.blanks as usize
    }
}

/// `METERED`: whether `go_on` is asked (a walk without it pays nothing
/// for the check).
struct RackWalk<'w, 'e, const METERED: bool> {
    tiles: Tiles,
    /// The letters below each node, by index, if prepared (see
    /// [`crate::Lexicon::prepare_walks`]).
    below: Option<&'w [u32]>,
    /// Codes with a count above 0 (bit `c` for code `c`).
    held: u64,
    anchor: &'w [u8],
    /// Letters never played left of the anchor (bit `c` for code `c`).
    barred_left: u64,
    /// Tiles that must be spent before a word counts.
    min_used: usize,
    /// Whether every tile must be spent.
    use_all: bool,
    total: usize,
    lens: Lengths,
    lbuf: Buf,
    rbuf: Buf,
    emit: &'w mut Emit<'e>,
    /// Asked at each edge followed whether to go on (a metered walk).
    go_on: Option<&'w dyn Fn() -> bool>,
    /// Whether `go_on` said no: every level returns.
    stopped: bool,
}

/// Reports every word made of `anchor` plus tiles from `tiles` on either
/// side: all of them if `use_all`, else at least `min_used`. `at` is the
/// node after `anchor` read right to left from the root, `word` whether
/// that path is a whole key (the anchor alone is a word). With an empty
/// anchor (`at` the root) each word is met once, through the key of its
/// first split: its first letter, the separator, the rest. Letters played
/// with a blank are reported with [`BLANK`](crate::query::BLANK) set on
/// their code. `below` holds the letters below each node, if prepared;
/// `go_on`, if given, is asked at each edge followed whether to go on (the
/// walk stops at the first no).
#[allow(clippy::too_many_arguments)]
pub(crate) fn rack(
    at: Node<'_>,
    word: bool,
    anchor: &[u8],
    tiles: Tiles,
    use_all: bool,
    min_used: usize,
    lens: Lengths,
    below: Option<&[u32]>,
    go_on: Option<&dyn Fn() -> bool>,
    emit: &mut Emit<'_>,
) {
    let lens = lens.capped();
    if anchor.len() > lens.max {
        return;
    }
    fn run<const M: bool>(mut w: RackWalk<'_, '_, M>, at: Node<'_>, word: bool) {
        if w.anchor.is_empty() {
            w.walk_words(at);
        } else {
            w.go(at, word, false);
        }
    }
    if go_on.is_some() {
        let mut w = RackWalk::<true>::new(tiles, anchor, use_all, min_used, lens, emit);
        w.below = below;
        w.go_on = go_on;
        run(w, at, word);
    } else {
        let mut w = RackWalk::<false>::new(tiles, anchor, use_all, min_used, lens, emit);
        w.below = below;
        run(w, at, word);
    }
}

/// Reports every word made of exactly the tiles of `tiles` (no blanks),
/// each once, from its first `pivot` (a code on the rack, best the rarest
/// in the lexicon): the anchored walk of [`rack`] with that one tile as
/// the anchor and no `pivot` left of it. Only words holding the pivot are
/// visited, and only their parts before it and the prefixes after it: far
/// fewer paths than every prefix the rack can spell, when the pivot is
/// rare.
pub(crate) fn anagram_from(
    root: Node<'_>,
    mut tiles: Tiles,
    pivot: u8,
    lens: Lengths,
    below: Option<&[u32]>,
    emit: &mut Emit<'_>,
) {
    let anchor = [pivot];
    let count = &mut tiles.counts[pivot as usize & 63];
    if tiles.blanks > 0 || *count == 0 || lens.max == 0 {
        return;
    }
    *count -= 1;
    let Some((at, word)) = follow_reversed(root, &anchor) else {
        return;
    };
    let total = tiles.total();
    let mut w = RackWalk::<false>::new(tiles, &anchor, true, total, lens.capped(), emit);
    w.below = below;
    w.barred_left = 1u64 << (pivot & 63);
    w.go(at, word, false);
}

impl<'w, 'e, const METERED: bool> RackWalk<'w, 'e, METERED> {
    fn new(
        tiles: Tiles,
        anchor: &'w [u8],
        use_all: bool,
        min_used: usize,
        lens: Lengths,
        emit: &'w mut Emit<'e>,
    ) -> RackWalk<'w, 'e, METERED> {
        let total = tiles.total();
        let mut held = 0u64;
        for (c, &n) in tiles.counts.iter().enumerate() {
            if n > 0 {
                held |= 1u64 << c;
            }
        }
        RackWalk {
            tiles,
            below: None,
            held,
            anchor,
            barred_left: 0,
            min_used,
            use_all,
            total,
            lens,
            lbuf: Buf::new(),
            rbuf: Buf::new(),
            emit,
            go_on: None,
            stopped: false,
        }
    }

    /// Whether to follow one more edge (false, for good, once `go_on`
    /// says no).
    #[inline]
    fn step(&mut self) -> bool {
        if !METERED {
            return true;
        }
        if let Some(go_on) = self.go_on {
            if self.stopped || !go_on() {
                self.stopped = true;
                return false;
            }
        }
        true
    }

    /// Records a tile placed right of the anchor (or the separator) if
    /// `right`, else left of it.
    #[inline(always)]
    fn push(&mut self, right: bool, tile: u8) {
        if right {
            self.rbuf.push(tile);
        } else {
            self.lbuf.push(tile);
        }
    }

    /// Takes back the last [`RackWalk::push`] on that side.
    #[inline(always)]
    fn pop(&mut self, right: bool) {
        if right {
            self.rbuf.pop();
        } else {
            self.lbuf.pop();
        }
    }

    fn used(&self) -> usize {
        self.lbuf.len + self.rbuf.len
    }

    fn complete(&self) -> bool {
        let used = self.used();
        let n = used + self.anchor.len();
        used >= self.min_used && (!self.use_all || used == self.total) && n >= self.lens.min
    }

    /// Whether a word from `node` can still spend every tile: each letter
    /// held is read somewhere below it (always true when not every tile
    /// must be spent, or the letters below are not prepared).
    #[inline]
    fn can_finish(&self, node: Node<'_>) -> bool {
        self.can_finish_at(node.index(), self.held)
    }

    /// [`RackWalk::can_finish`] for the node at index `at`, with the
    /// letters `held`.
    #[inline(always)]
    fn can_finish_at(&self, at: u32, held: u64) -> bool {
        if !self.use_all {
            return true;
        }
        match self.below {
            Some(below) => {
                let b = below.get(at as usize).copied().unwrap_or(!0);
                held & !(b as u64) == 0
            }
            None => true,
        }
    }

    /// Spends a tile for `code`: a real one if there is one, else a blank.
    /// Returns whether a blank was spent, or `None` if neither is left.
    #[inline]
    fn take(&mut self, code: u8) -> Option<bool> {
        let c = &mut self.tiles.counts[code as usize & 63];
        if *c > 0 {
            *c -= 1;
            if *c == 0 {
                self.held &= !(1u64 << code);
            }
            Some(false)
        } else if self.tiles.blanks > 0 {
            self.tiles.blanks -= 1;
            Some(true)
        } else {
            None
        }
    }

    #[inline]
    fn give_back(&mut self, code: u8, blank: bool) {
        if blank {
            self.tiles.blanks += 1;
        } else {
            self.tiles.counts[code as usize & 63] += 1;
            self.held |= 1u64 << code;
        }
    }

    /// Without an anchor: each word `c1 c2 … cn` is met once, through its
    /// key `c1 SEP c2 … cn` (or `c1` alone for a one-letter word), so
    /// after the first letter the walk reads words left to right and only
    /// visits prefixes of words. (Reading the reversed whole words instead
    /// would visit every reversed substring of a word the rack can spell:
    /// those paths exist for the other keys' reversed prefixes.)
    fn walk_words(&mut self, root: Node<'_>) {
        let limit = self.total.min(self.lens.max);
        if limit == 0 || !self.step() {
            return;
        }
        // A word of `n` letters counts from `n = ends` on: with every
        // tile to spend, only at `n = total` (no longer word is walked).
        let mut ends = self.lens.min.max(self.min_used).max(1);
        if self.use_all {
            ends = ends.max(self.total);
        }
        if ends > limit {
            // No word long enough can be spelled (and the bounds below
            // fit in a byte).
            return;
        }
        let arcs = root.table().reader();
        // The tiles in locals, so that the loop keeps them in registers.
        let mut counts = self.tiles.counts;
        let mut blanks = self.tiles.blanks;
        let mut held = self.held & !1;
        // Letters a tile pays for: all while a blank is left, else those
        // held. Edges come in code order, so an edge whose code is above
        // every one of them ends its node's list (`wanted >> code == 0`).
        let wanted = |held: u64, blanks: u8| if blanks > 0 { !1u64 } else { held & !1 };
        // The node where letter `d` of the word is read is `cur`, its
        // arcs still to read; those of the nodes above it wait in
        // `stack[..d]`. `word[..d]` is the word so far, each letter with
        // BLANK set if a blank pays for it. One frame a letter: no call
        // and no allocation.
        let mut cur = arcs.cursor(root.index());
        // Indexed by a u8 (masked to 63 for the stack), so that no index
        // needs a check (`limit` is at most `MAX_WORD_LEN`, 63).
        let mut stack = [Cursor::default(); 64];
        let mut word = [0u8; 256];
        let mut d = 0u8;
        let mut want = wanted(held, blanks);
        // In terms of `d`: a word ending with letter `d` counts from
        // `d = ends - 1` on; letter `d` has a letter after it below
        // `limit - 1`, and that one is the last at `limit - 2`.
        let (ends, more, last) = (
            (ends - 1) as u8,
            (limit - 1) as u8,
            (limit as u8).wrapping_sub(2),
        );
        loop {
            // The next arc a tile pays for, if the node has one more.
            let next = loop {
                let Some(arc) = arcs.next_arc(&mut cur) else {
                    break None;
                };
                let c = arc & CODE;
                if want >> c & 1 != 0 {
                    break Some(arc);
                }
                if want >> c == 0 {
                    break None;
                }
            };
            let Some(arc) = next else {
                // Every edge of this node read: back to the letter
                // before, whose tile comes back.
                if d == 0 {
                    return;
                }
                d -= 1;
                cur = stack[d as usize & 63];
                let letter = word[d as usize];
                if letter & BLANK != 0 {
                    blanks += 1;
                } else {
                    counts[letter as usize & 63] += 1;
                    held |= 1u64 << (letter & 63);
                }
                want = wanted(held, blanks);
                continue;
            };
            let code = (arc & CODE) as u8;
            // Spend a tile: a real one if there is one, else a blank (the
            // separator, code 0, is never wanted).
            let letter = if held >> code & 1 != 0 {
                let c = &mut counts[code as usize & 63];
                *c -= 1;
                if *c == 0 {
                    held &= !(1u64 << code);
                }
                code
            } else {
                blanks -= 1;
                code | BLANK
            };
            word[d as usize] = letter;
            if d >= ends && arc & ACCEPTS != 0 {
                self.emit_word(&word, d);
            }
            if d < more {
                let child = arcs.target(arc);
                // After the first letter, the separator (the node just
                // past it is never a word end).
                let next = if d == 0 { arcs.separator(child) } else { child };
                if next != 0 {
                    if self.below.is_some() && !self.can_finish_at(next, held) {
                        // Below `next`, some letter held is never read.
                    } else if d == last {
                        // The last letter: its arcs are read for their
                        // accept bit only, and nothing is spent. With
                        // AEINRST? at RETAINE, RETAINER (the R a blank).
                        if d + 1 >= ends && self.step() {
                            let mut last = arcs.cursor(next);
                            let can = wanted(held, blanks);
                            while let Some(arc) = arcs.next_arc(&mut last) {
                                let c = arc & CODE;
                                if can >> c == 0 {
                                    break;
                                }
                                if arc & ACCEPTS != 0 && can >> c & 1 != 0 {
                                    let blank = if held >> c & 1 != 0 { 0 } else { BLANK };
                                    let n = d.wrapping_add(1);
                                    word[n as usize] = c as u8 | blank;
                                    self.emit_word(&word, n);
                                }
                            }
                        }
                    } else if self.step() {
                        stack[d as usize & 63] = cur;
                        cur = arcs.cursor(next);
                        d += 1;
                        want = wanted(held, blanks);
                        continue;
                    } else {
                        return;
                    }
                }
            }
            // Give the tile back.
            if letter & BLANK != 0 {
                blanks += 1;
            } else {
                counts[code as usize & 63] += 1;
                held |= 1u64 << code;
            }
        }
    }

    /// Reports `word[..=last]` (out of the walk's loop, so that the loop
    /// keeps no length at hand for it).
    #[cold]
    #[inline(never)]
    fn emit_word(&mut self, word: &[u8; 256], last: u8) {
        (self.emit)(&[], self.anchor, &word[..=last as usize]);
    }

    /// Walks from `at` (reached by a whole key if `word`); `right` says
    /// whether the separator was crossed.
    fn go(&mut self, at: Node<'_>, word: bool, right: bool) {
        if !self.step() {
            return;
        }
        // The node just past the separator is never a word end.
        if word && self.complete() {
            (self.emit)(self.lbuf.as_slice(), self.anchor, self.rbuf.as_slice());
        }
        let n = self.used() + self.anchor.len();
        if n >= self.lens.max || self.used() == self.total {
            return;
        }
        // Only letters a tile can pay for (all of them with a blank), and
        // the separator if it is to be crossed here (in the same pass, so a
        // node read in place is decoded once).
        let mut wanted = if self.tiles.blanks > 0 {
            !1u64
        } else {
            self.held & !1
        };
        if !right {
            wanted &= !self.barred_left;
            if !self.anchor.is_empty() {
                wanted |= 1;
            }
        }
        for edge in at.within(wanted) {
            let code = edge.code();
            if code == SEPARATOR {
                // The node just past the separator is never a word end.
                let child = edge.target();
                if self.can_finish(child) {
                    self.go(child, false, true);
                }
                continue;
            }
            if let Some(blank) = self.take(code) {
                // A letter played with a blank is reported marked.
                let (child, word) = (edge.target(), edge.accepts());
                if self.used() + 1 == self.total {
                    // The last tile: the word ends with this edge or not
                    // at all, seen without stepping into the child.
                    if word {
                        self.push(right, if blank { code | BLANK } else { code });
                        if self.complete() {
                            (self.emit)(self.lbuf.as_slice(), self.anchor, self.rbuf.as_slice());
                        }
                        self.pop(right);
                    }
                } else if self.can_finish(child) {
                    self.push(right, if blank { code | BLANK } else { code });
                    self.go(child, word, right);
                    self.pop(right);
                }
                self.give_back(code, blank);
            }
        }
    }
}
