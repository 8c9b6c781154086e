//! The two traversals every word query is made of.
//!
//! * [`anchored`]: start at a run of letters (the anchor) known to be in the
//!   word, extend it leftwards while a left-hand automaton allows, cross the
//!   separator, extend rightwards while a right-hand automaton allows. With
//!   the right automata this is `contains`, `starts`, `ends`, a wildcard
//!   pattern or a regular expression.
//! * [`rack`]: the same shape, but each letter spends a tile from a rack
//!   (or a blank): anagrams, sub-anagrams, and words through letters on the
//!   board, asking only for the edges whose letters the rack still holds.
//!
//! Both walk the arc table ([`crate::lexicon::raw`]).
//!
//! Both recurse with fixed buffers on the stack and never allocate. They may
//! report a word more than once (once per place the anchor occurs in it);
//! the caller sorts and deduplicates.

use regex_automata::dfa::Automaton;
use regex_automata::dfa::dense::DFA;
use regex_automata::util::primitives::StateID;

use crate::lexicon::gaddag::{MAX_WORD_LEN, SEPARATOR};
use crate::lexicon::raw::{Edges, Node};
use crate::query::{BLANK, Lengths};

/// What may stand on one side of the anchor.
#[derive(Clone, Debug)]
pub enum Side {
    /// Nothing: the anchor is at that end of the word.
    Nothing,
    /// Any run of letters, including none.
    Anything,
    /// Runs of letters an anchored DFA accepts (a reverse DFA on the left,
    /// where letters are read right to left).
    Dfa(Box<DfaSide>),
}

/// An anchored DFA over tile codes with its start state.
#[derive(Clone, Debug)]
pub struct DfaSide {
    pub(crate) dfa: DFA<Vec<u32>>,
    pub(crate) start: StateID,
}

impl Side {
    #[inline]
    pub(crate) fn start(&self) -> StateID {
        match self {
            Side::Dfa(d) => d.start,
            _ => StateID::ZERO,
        }
    }

    /// The state after reading `code`, or `None` if no accepted run
    /// continues that way.
    #[inline]
    pub(crate) fn step(&self, s: StateID, code: u8) -> Option<StateID> {
        match self {
            Side::Nothing => None,
            Side::Anything => Some(s),
            Side::Dfa(d) => {
                let n = d.dfa.next_state(s, code);
                if d.dfa.is_dead_state(n) || d.dfa.is_quit_state(n) {
                    None
                } else {
                    Some(n)
                }
            }
        }
    }

    /// Whether the run read so far is accepted.
    #[inline]
    pub(crate) fn accepts(&self, s: StateID) -> bool {
        match self {
            Side::Nothing | Side::Anything => true,
            Side::Dfa(d) => d.dfa.is_match_state(d.dfa.next_eoi_state(s)),
        }
    }

    /// Whether a letter could be read at all (false only for `Nothing`).
    #[inline]
    fn can_grow(&self) -> bool {
        !matches!(self, Side::Nothing)
    }
}

/// A word found by a walk, in three pieces: the letters left of the anchor
/// in reverse order, the anchor, the letters right of it.
pub(crate) type Emit<'e> = dyn FnMut(&[u8], &[u8], &[u8]) + 'e;

struct Anchored<'w, 'e> {
    left: &'w Side,
    right: &'w Side,
    anchor: &'w [u8],
    lens: Lengths,
    lbuf: Buf,
    rbuf: Buf,
    emit: &'w mut Emit<'e>,
}

/// Reports every word `X A Y` where `A` is `anchor`, `X` is accepted by
/// `left` (read right to left, starting in state `ls`) and `Y` by `right`
/// (starting in state `rs`). `at` is the node after `anchor` read right to
/// left from the root, `word` whether that path is a whole key. With an
/// empty anchor only `X` may be non-empty (each word is then met once,
/// whole and reversed). Edges come in tile order, so the words right of a
/// fixed start come out in alphabet order.
#[allow(clippy::too_many_arguments)]
pub(crate) fn anchored(
    at: Node<'_>,
    word: bool,
    anchor: &[u8],
    left: &Side,
    ls: Option<StateID>,
    right: &Side,
    rs: Option<StateID>,
    lens: Lengths,
    emit: &mut Emit<'_>,
) {
    // The buffers hold a word of the longest length a lexicon may have
    // (a crafted file's header may claim more).
    let lens = lens.capped();
    if anchor.len() > lens.max {
        return;
    }
    let mut w = Anchored {
        left,
        right,
        anchor,
        lens,
        lbuf: Buf::new(),
        rbuf: Buf::new(),
        emit,
    };
    let ls = ls.unwrap_or_else(|| left.start());
    let rs = rs.unwrap_or_else(|| right.start());
    w.go_left(at, word, ls, rs);
}

/// The node after `codes` read right to left from `root`, and whether
/// that path is a whole key (`codes` is a word); `None` if no key starts
/// so.
pub(crate) fn follow_reversed<'a>(root: Node<'a>, codes: &[u8]) -> Option<(Node<'a>, bool)> {
    let mut node = root;
    let mut word = false;
    for &c in codes.iter().rev() {
        let e = node.edge(c)?;
        (node, word) = (e.target(), e.accepts());
    }
    Some((node, word))
}

impl Anchored<'_, '_> {
    fn len(&self) -> usize {
        self.lbuf.len + self.anchor.len() + self.rbuf.len
    }

    fn go_left(&mut self, at: Node<'_>, word: bool, ls: StateID, rs: StateID) {
        let n = self.len();
        let left_done = self.left.accepts(ls);
        if left_done && word && n >= self.lens.min && self.right.accepts(rs) {
            (self.emit)(self.lbuf.as_slice(), self.anchor, &[]);
        }
        if n >= self.lens.max {
            return;
        }
        // Whether to cross the separator here. The node just past it is
        // never a word end.
        let cross = left_done && self.right.can_grow() && !self.anchor.is_empty();
        if !self.left.can_grow() {
            if cross {
                if let Some(sep) = at.separator() {
                    self.go_right(sep, false, rs);
                }
            }
        } else {
            for edge in at.edges() {
                let code = edge.code();
                if code == SEPARATOR {
                    if cross {
                        self.go_right(edge.target(), false, rs);
                    }
                    continue;
                }
                if let Some(next) = self.left.step(ls, code) {
                    self.lbuf.push(code);
                    self.go_left(edge.target(), edge.accepts(), next, rs);
                    self.lbuf.pop();
                }
            }
        }
    }

    fn go_right(&mut self, at: Node<'_>, word: bool, rs: StateID) {
        let n = self.len();
        if word && n >= self.lens.min && self.right.accepts(rs) {
            (self.emit)(self.lbuf.as_slice(), self.anchor, self.rbuf.as_slice());
        }
        if n >= self.lens.max {
            return;
        }
        for edge in at.within(!1) {
            let code = edge.code();
            if let Some(next) = self.right.step(rs, code) {
                self.rbuf.push(code);
                self.go_right(edge.target(), edge.accepts(), next);
                self.rbuf.pop();
            }
        }
    }
}

/// Reports every word that `side`'s DFA accepts, read left to right, each
/// once and in alphabet order: from each first letter of the root, across
/// the separator, then the rest of the word (the keys `c1 SEP c2 … cn`),
/// with the edges in tile order. A prefix whose DFA state is dead is not
/// walked on: `[^aeiou]*` leaves every node after a vowel. For regexes
/// with no selective literal (`.*e.*`), which visit most words: no
/// recursion, one step of the DFA per edge.
pub(crate) fn forward(root: Node<'_>, side: &DfaSide, lens: Lengths, emit: &mut Emit<'_>) {
    let lens = lens.capped();
    if lens.max == 0 {
        return;
    }
    let dfa = &side.dfa;
    // One comparison for the usual state, which is not special.
    let live =
        |s: StateID| !dfa.is_special_state(s) || !(dfa.is_dead_state(s) || dfa.is_quit_state(s));
    let accepts = |s: StateID| dfa.is_match_state(dfa.next_eoi_state(s));
    // The word so far, and a frame for each of its letters: the edges
    // still to read below the node that letter leads to, and the DFA state
    // after it (frame 0 holds the edges past the separator).
    let mut word = Buf::new();
    let mut stack: Vec<(Edges<'_>, StateID)> = Vec::with_capacity(MAX_WORD_LEN + 1);
    for first in root.within(!1) {
        let code = first.code();
        let s = dfa.next_state(side.start, code);
        if !live(s) {
            continue;
        }
        word.push(code);
        if first.accepts() && lens.min <= 1 && accepts(s) {
            emit(&[], word.as_slice(), &[]);
        }
        match first.target().separator() {
            // The node just past the separator is never a word end.
            Some(sep) if lens.max > 1 => stack.push((sep.edges(), s)),
            _ => word.pop(),
        }
        // The word is as long as the stack is deep.
        while let Some((edges, s)) = stack.last_mut() {
            let Some(edge) = edges.next() else {
                stack.pop();
                word.pop();
                continue;
            };
            let code = edge.code();
            let next = dfa.next_state(*s, code);
            if !live(next) {
                continue;
            }
            word.push(code);
            let n = word.len;
            if edge.accepts() && n >= lens.min && accepts(next) {
                emit(&[], word.as_slice(), &[]);
            }
            if n < lens.max {
                stack.push((edge.target().edges(), next));
            } else {
                word.pop();
            }
        }
    }
}

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

impl Lengths {
    /// The lengths, the longest capped at [`MAX_WORD_LEN`].
    fn capped(self) -> Lengths {
        Lengths {
            min: self.min,
            max: self.max.min(MAX_WORD_LEN),
        }
    }
}

/// A run of letters a walk has placed, without allocating.
struct Buf {
    codes: [u8; MAX_WORD_LEN + 1],
    len: usize,
}

impl Buf {
    fn new() -> Buf {
        Buf {
            codes: [0; MAX_WORD_LEN + 1],
            len: 0,
        }
    }
    #[inline]
    fn push(&mut self, c: u8) {
        self.codes[self.len & MAX_WORD_LEN] = c;
        self.len += 1;
    }
    #[inline]
    fn pop(&mut self) {
        self.len -= 1;
    }
    #[inline]
    fn as_slice(&self) -> &[u8] {
        &self.codes[..self.len.min(MAX_WORD_LEN + 1)]
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
        if !self.use_all {
            return true;
        }
        match self.below {
            Some(below) => {
                let b = below.get(node.index() as usize).copied().unwrap_or(!0);
                self.held & !(b as u64) == 0
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
        if self.total > 0 && self.lens.max > 0 {
            self.spell(root, false);
        }
    }

    /// [`RackWalk::walk_words`] from `at`: the first letter (`right`
    /// false, then across the separator), or the letters after it.
    fn spell(&mut self, at: Node<'_>, right: bool) {
        if !self.step() {
            return;
        }
        let wanted = if self.tiles.blanks > 0 {
            !1u64
        } else {
            self.held & !1
        };
        for edge in at.within(wanted) {
            let code = edge.code();
            let Some(blank) = self.take(code) else {
                continue;
            };
            self.push(right, if blank { code | BLANK } else { code });
            let child = edge.target();
            if edge.accepts() && self.complete() {
                (self.emit)(self.lbuf.as_slice(), self.anchor, self.rbuf.as_slice());
            }
            let used = self.used();
            if used < self.total && used < self.lens.max {
                if right {
                    if self.can_finish(child) {
                        self.spell(child, true);
                    }
                } else if let Some(next) = child.separator() {
                    // The node just past the separator is never a word end.
                    if self.can_finish(next) {
                        self.spell(next, true);
                    }
                }
            }
            self.pop(right);
            self.give_back(code, blank);
        }
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
