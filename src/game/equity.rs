//! Equity: how a bot values a move, in millipoints (`i32`, one point is
//! 1000, as wolges counts).
//!
//! `equity = 1000 x score + leave part`, where the leave part depends on
//! the [`Stage`]:
//!
//! - **The bag holds tiles** (or is not known, [`Stage::Bag`]): the leave
//!   part is the leave table's value of the tiles the move keeps
//!   ([`Leaves::value`]: 0 for a leave the table lacks and for the empty
//!   leave). Equity is exactly score + leave value, on the empty board too:
//!   lexq adds no opening adjustment (wolges and Quackle take off a little
//!   for each vowel placed next to a premium square on the first move;
//!   lexq's alphabets do not say which tiles are vowels).
//! - **The bag is empty** ([`Stage::Endgame`]), as wolges and MAGPIE
//!   count it: a move that empties the rack goes out, ends the game and
//!   gains twice the value of the tiles the player cannot see (they are
//!   on the other racks: [`crate::game::state::OutRule::Doubled`] adds them twice;
//!   under `Once` the player out gains them once and the others lose them
//!   once, the same spread against one opponent). A move that keeps tiles
//!   lets the opponent go out first: it costs [`ENDGAME_PENALTY`] (10
//!   points, for the tempo) plus twice the value of the tiles kept. The
//!   leave table is not read.
//!
//! An exchange scores 0 and keeps the tiles not exchanged; a pass keeps the
//! whole rack: both are ranked by the value of what they keep.
//!
//! ```
//! use lexq::{Lexicon, game::Position, game::leaves::Leaves};
//! use lexq::game::equity::{Stage, leave_part};
//! let lex = Lexicon::embedded();
//! let table = Leaves::from_csv("S,8.0\nQ,-7\n", lex.alphabet())?;
//! let empty = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15";
//! let pos = Position::from_cgp(&lex, &format!("{empty} QS/ 0/0 0"))?;
//! let tiles = pos.board.tile_set();
//! let s = lexq::game::Rack::parse("S", lex.alphabet())?;
//! assert_eq!(leave_part(&table, Stage::Bag, &s, tiles), 8_000);
//! // The bag empty, 20 points of tiles unseen: keeping S (1 point) costs
//! // 10 + 2, going out gains 40.
//! let end = Stage::Endgame { unseen: 20 };
//! assert_eq!(leave_part(&table, end, &s, tiles), -12_000);
//! assert_eq!(leave_part(&table, end, &lexq::game::Rack::new(), tiles), 40_000);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::alphabet::tileset::{MAX_RACK, TileSet};
use crate::game::board::Board;
use crate::game::leaves::{Leaves, MILLI};
use crate::game::rack::Rack;
pub use crate::game::subracks::{MAX_SUBRACKS, SubRacks};

/// What keeping tiles costs when the bag is empty, besides twice their
/// value: 10 points, in millipoints (wolges's and MAGPIE's figure).
pub const ENDGAME_PENALTY: i32 = 10 * MILLI;

/// Where the game stands, for the leave part of equity (see the module
/// documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// The bag holds tiles, or is not known: the leave table's value.
    Bag,
    /// The bag is empty; `unseen` is the value, in points, of the tiles the
    /// player cannot see (the tile set less the board and the rack).
    Endgame {
        /// Points of the tiles on the other racks.
        unseen: i32,
    },
}

impl Stage {
    /// The stage of `rack` on `board` with `bag` tiles in the bag (`None`:
    /// not known, counted as holding tiles). With the bag empty, the
    /// unseen tiles are the board's tile set less its tiles and the rack.
    pub fn of(board: &Board<'_>, rack: &Rack, bag: Option<usize>) -> Stage {
        if bag != Some(0) {
            return Stage::Bag;
        }
        let tiles = board.tile_set();
        let mut unseen: i64 = (0..64u8)
            .map(|c| tiles.count(c) as i64 * tiles.value(c) as i64)
            .sum();
        for &t in board.tiles() {
            if t != 0 && t & crate::alphabet::BLANK == 0 {
                unseen -= tiles.value(t & 63) as i64;
            }
        }
        for (c, &k) in rack.counts().iter().enumerate() {
            unseen -= k as i64 * tiles.value(c as u8) as i64;
        }
        Stage::Endgame {
            unseen: unseen.clamp(0, 1_000_000) as i32,
        }
    }
}

/// The leave part of the equity of a move that keeps `kept`, in
/// millipoints (see the module documentation); `tiles` gives the tiles'
/// values.
pub fn leave_part(leaves: &Leaves, stage: Stage, kept: &Rack, tiles: &TileSet) -> i32 {
    match stage {
        Stage::Bag => leaves.value(kept),
        Stage::Endgame { unseen } => {
            if kept.is_empty() {
                2 * unseen * MILLI
            } else {
                let v: i32 = (0..64u8)
                    .map(|c| kept.count(c) as i32 * tiles.value(c))
                    .sum();
                -ENDGAME_PENALTY - 2 * v * MILLI
            }
        }
    }
}

/// The leave part of equity for every sub-rack of one rack, filled once
/// per position so that the generator's walk reads a move's leave part
/// with a few multiplications and one load, and the best leave part of any
/// move keeping `k` tiles (the generator's bounds). Reused between
/// positions: it allocates only when a rack has more sub-racks than any
/// before.
#[derive(Clone, Debug, Default)]
pub(crate) struct LeaveTable {
    /// The rack's numbering, if it numbers (else leaves are looked up one
    /// by one).
    pub sub: Option<SubRacks>,
    /// The leave part of each sub-rack, by number.
    pub parts: Vec<i32>,
    /// The highest leave part of a move keeping `k` tiles, for `k` up to
    /// [`MAX_RACK`] (`i32::MIN` where no sub-rack has `k` tiles).
    pub best_kept: [i32; MAX_RACK + 1],
}

impl LeaveTable {
    /// Fills the table for `rack`.
    pub fn fill(&mut self, leaves: &Leaves, stage: Stage, rack: &Rack, tiles: &TileSet) {
        self.best_kept = [i32::MIN; MAX_RACK + 1];
        self.sub = SubRacks::new(rack);
        let Some(sub) = self.sub else {
            // Bounds without the numbering: any leave of k tiles is worth
            // at most the table's best of that length, or 0 if missing.
            for (k, b) in self.best_kept.iter_mut().enumerate() {
                *b = match stage {
                    Stage::Bag => leaves.best_of_len(k).max(0),
                    Stage::Endgame { unseen } if k == 0 => 2 * unseen * MILLI,
                    Stage::Endgame { .. } => -ENDGAME_PENALTY,
                };
            }
            return;
        };
        let n = sub.len();
        self.parts.clear();
        self.parts.resize(n, 0);
        match stage {
            Stage::Bag => {
                let parts = &mut self.parts;
                leaves.for_each_subleave(&sub, |at, _, _, value| {
                    if let Some(p) = parts.get_mut(at) {
                        *p = value;
                    }
                });
            }
            Stage::Endgame { .. } => {
                for at in 0..n {
                    self.parts[at] = leave_part(leaves, stage, &sub.sub_rack(at), tiles);
                }
            }
        }
        // Tiles of each sub-rack: a mixed-radix counter.
        let mut ks = [0u8; MAX_RACK];
        let mut len = 0usize;
        for &part in &self.parts {
            let b = &mut self.best_kept[len.min(MAX_RACK)];
            *b = (*b).max(part);
            for (i, (_, count, _)) in sub.digits().enumerate() {
                if ks[i] < count {
                    ks[i] += 1;
                    len += 1;
                    break;
                }
                len -= ks[i] as usize;
                ks[i] = 0;
            }
        }
    }

    /// The leave part of keeping `kept` (a sub-rack of the rack filled).
    #[inline]
    pub fn part(&self, leaves: &Leaves, stage: Stage, kept: &Rack, tiles: &TileSet) -> i32 {
        match &self.sub {
            Some(sub) => self
                .parts
                .get(sub.index_of_counts(kept.counts()))
                .copied()
                .unwrap_or(0),
            None => leave_part(leaves, stage, kept, tiles),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alphabet::Alphabet;

    #[test]
    fn numbering_by_hand() {
        let en = Alphabet::english();
        let rack = Rack::parse("AEE?", &en).unwrap();
        let sub = SubRacks::new(&rack).unwrap();
        assert_eq!(sub.len(), 12);
        let at = |s: &str| sub.index(&Rack::parse(s, &en).unwrap());
        assert_eq!(
            (at(""), at("?"), at("A"), at("E"), at("EE")),
            (0, 1, 2, 4, 8)
        );
        assert_eq!(at("?AEE"), 11);
        for i in 0..12 {
            assert_eq!(sub.index(&sub.sub_rack(i)), i);
        }
    }

    #[test]
    fn best_kept_by_hand() {
        let en = Alphabet::english();
        let table = Leaves::from_csv("A,3\nE,1\nAE,-2\nEE,5\n?,20\n", &en).unwrap();
        let tiles = TileSet::named("english", &en).unwrap();
        let rack = Rack::parse("AEE?", &en).unwrap();
        let mut t = LeaveTable::default();
        t.fill(&table, Stage::Bag, &rack, &tiles);
        // One tile: ? 20; two: EE 5 (?A, ?E not in the table: 0); three
        // and four: none in the table, 0.
        assert_eq!(&t.best_kept[..5], &[0, 20_000, 5_000, 0, 0]);
        assert_eq!(t.best_kept[5], i32::MIN);
        // The bag empty with 30 points unseen: going out +60, keeping one
        // tile at best (a blank, 0 points) -10.
        t.fill(&table, Stage::Endgame { unseen: 30 }, &rack, &tiles);
        assert_eq!(
            &t.best_kept[..5],
            &[60_000, -10_000, -12_000, -14_000, -16_000]
        );
        let ee = Rack::parse("EE", &en).unwrap();
        assert_eq!(
            t.part(&table, Stage::Endgame { unseen: 30 }, &ee, &tiles),
            -14_000
        );
    }
}
