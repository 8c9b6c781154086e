//! The ways a rack's blanks can stand for the placed tiles of a word the
//! walk found, each recorded with its score and leave.

use crate::game::board::BLANK;
use crate::game::layout::MAX_SIZE;
use crate::game::moves::Move;
use crate::game::rack::Rack;
use crate::lexicon::raw::masked::Entry;

use super::line::W;
use super::recorders::Recorder;
use super::walk::Walk;

impl<R: Recorder, E: Entry> Walk<'_, '_, R, E> {
    /// [`Walk::blank_variants`] for a rack with one blank, the leave
    /// changed as little as can be: if the walk charged no tile to the
    /// blank, the move as it is, then the blank standing for each placed
    /// tile in turn (its letter back on the rack); else the blank standing
    /// for each placed tile of the letter charged (the leave the same for
    /// all).
    pub(super) fn one_blank_variants(&mut self, k: usize, score: i32, mv: &mut Move) {
        let k = k.min(W);
        if self.over == 0 {
            self.record_variant(mv, score);
            for i in 0..k {
                let s = score - self.loss[i];
                if self.wants(s) {
                    self.give_to_blank(i, mv);
                    self.record_variant(mv, s);
                    self.take_from_blank(i, mv);
                }
            }
            return;
        }
        let charged = self.over_codes[0];
        self.rack.counts_mut()[0] = 0;
        for i in 0..k {
            let s = score - self.loss[i];
            if self.placed_code[i] != charged || !self.wants(s) {
                continue;
            }
            let at = (self.placed_at[i] as usize).min(MAX_SIZE - 1);
            mv.tiles[at] |= BLANK;
            mv.score = s;
            let equity = self.equity_of(s);
            self.rec.record(mv, &self.rack, equity);
            mv.tiles[at] &= !BLANK;
        }
        self.rack.counts_mut()[0] = 1;
    }

    /// Records `mv` once for every set of its placed tiles (`k` of them,
    /// see `found`) that the rack's blanks can stand for: at most
    /// `blanks` tiles, among them one per placement the walk charged to a
    /// blank (`over_codes`: a letter the rack ran out of; any placed tile
    /// of that letter can be the blank).
    ///
    /// The leave is the walk's rack, changed in place: the letters charged
    /// to blanks are taken off it (their counts may wrap below zero), then
    /// each blank's letter is given back; a set that leaves a count below
    /// zero does not cover the letters the rack lacks. With AB? and the
    /// word BAA (placed B, A, A): the walk takes B and A and charges the
    /// last A to the blank; the rack left is ?, with A taken once more
    /// (-1): the blank standing for the first A or for the second gives
    /// the A back (leave ?-less, A count 0), the blank on B does not.
    ///
    /// With two blanks (one goes to [`Walk::one_blank_variants`]) the sets
    /// are drawn from masks of the placed tiles, `a` and `b` those of the
    /// first and second letter charged (every tile when none is), so that
    /// only sets that cover the letters charged are tried; more blanks
    /// (tile sets of one's own) take [`Walk::more_blank_variants`].
    pub(super) fn blank_variants(&mut self, k: usize, a: u32, b: u32, score: i32, mv: &mut Move) {
        let over = (self.over as usize).min(W);
        for m in 0..over {
            let c = self.over_codes[m] as usize & 63;
            let n = &mut self.rack.counts_mut()[c];
            *n = n.wrapping_sub(1);
        }
        let k = k.min(W);
        let blanks = self.blanks as usize;
        // Whether every letter charged to a blank has been given back.
        let covered = |rack: &Rack, over_codes: &[u8; W]| {
            over_codes[..over]
                .iter()
                .all(|&c| rack.counts()[c as usize & 63] < 0x80)
        };
        if blanks <= 2 {
            let all = if k >= 32 { u32::MAX } else { (1u32 << k) - 1 };
            let above = |i: usize| all & !(u32::MAX >> (31 - i));
            if over == 2 {
                // Both blanks are spoken for: one on each letter charged,
                // or two on the one letter charged twice.
                if a == b {
                    self.blank_pairs(a, |i| a & above(i), score, mv);
                } else {
                    self.blank_pairs(a, |_| b, score, mv);
                }
            } else {
                if over == 0 {
                    self.record_variant(mv, score);
                }
                // One blank: on any placed tile, or on one of the letter
                // charged to it.
                for i in Bits(a) {
                    let s = score - self.loss[i];
                    if self.wants(s) {
                        self.give_to_blank(i, mv);
                        self.record_variant(mv, s);
                        self.take_from_blank(i, mv);
                    }
                }
                if blanks == 2 {
                    // Two blanks: on any two placed tiles, one of them of
                    // the letter charged if there is one.
                    let second = |i: usize| {
                        if a & 1 << i != 0 {
                            above(i)
                        } else {
                            a & above(i)
                        }
                    };
                    self.blank_pairs(all, second, score, mv);
                }
            }
        } else {
            self.more_blank_variants(0, k, score, mv, &covered);
        }
        self.restore_charged(over);
    }

    /// Gives back the letters [`Walk::blank_variants`] took off for the
    /// `over` placements charged to blanks.
    fn restore_charged(&mut self, over: usize) {
        self.rack.counts_mut()[0] = self.blanks as u8;
        for m in 0..over {
            let c = self.over_codes[m] as usize & 63;
            let n = &mut self.rack.counts_mut()[c];
            *n = n.wrapping_add(1);
        }
    }

    /// Records the move with blanks on placed tiles `i` and `j`, for every
    /// `i` in `first` and `j` in `second(i)`.
    #[inline]
    fn blank_pairs(
        &mut self,
        first: u32,
        second: impl Fn(usize) -> u32,
        score: i32,
        mv: &mut Move,
    ) {
        for i in Bits(first) {
            let s = score - self.loss[i];
            if !self.wants(s) {
                continue;
            }
            self.give_to_blank(i, mv);
            for j in Bits(second(i)) {
                let s = s - self.loss[j];
                if self.wants(s) {
                    self.give_to_blank(j, mv);
                    self.record_variant(mv, s);
                    self.take_from_blank(j, mv);
                }
            }
            self.take_from_blank(i, mv);
        }
    }

    /// [`Walk::blank_variants`] for racks of more than two blanks: every
    /// set of blank positions from `from` on, recursively.
    fn more_blank_variants(
        &mut self,
        from: usize,
        k: usize,
        score: i32,
        mv: &mut Move,
        covered: &impl Fn(&Rack, &[u8; W]) -> bool,
    ) {
        if !self.wants(score) {
            return;
        }
        if covered(&self.rack, &self.over_codes) {
            self.record_variant(mv, score);
        }
        if self.rack.counts()[0] == 0 {
            return; // every blank stands for a tile already
        }
        for i in from..k {
            self.give_to_blank(i, mv);
            self.more_blank_variants(i + 1, k, score - self.loss[i], mv, covered);
            self.take_from_blank(i, mv);
        }
    }

    /// Records the move with the blanks chosen so far: the leave's blanks
    /// are those not standing for a tile.
    #[inline]
    fn record_variant(&mut self, mv: &mut Move, score: i32) {
        mv.score = score;
        let equity = self.equity_of(score);
        self.rec.record(mv, &self.rack, equity);
    }

    /// A blank stands for placed tile `i`: its letter goes back to the
    /// leave, a blank leaves it.
    #[inline]
    fn give_to_blank(&mut self, i: usize, mv: &mut Move) {
        mv.tiles[(self.placed_at[i & (W - 1)] as usize).min(MAX_SIZE - 1)] |= BLANK;
        let counts = self.rack.counts_mut();
        let c = &mut counts[self.placed_code[i & (W - 1)] as usize & 63];
        *c = c.wrapping_add(1);
        counts[0] = counts[0].wrapping_sub(1);
    }

    /// Undoes [`Walk::give_to_blank`].
    #[inline]
    fn take_from_blank(&mut self, i: usize, mv: &mut Move) {
        mv.tiles[(self.placed_at[i & (W - 1)] as usize).min(MAX_SIZE - 1)] &= !BLANK;
        let counts = self.rack.counts_mut();
        let c = &mut counts[self.placed_code[i & (W - 1)] as usize & 63];
        *c = c.wrapping_sub(1);
        counts[0] = counts[0].wrapping_add(1);
    }
}

/// The set bits of a mask, lowest first.
struct Bits(u32);

impl Iterator for Bits {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(i)
    }
}
