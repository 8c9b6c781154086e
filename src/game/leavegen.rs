//! Leave values estimated from self-play, as the leave generators of
//! wolges, macondo and MAGPIE estimate them: the value of keeping a leave
//! is how much better, on average, the turns are that start with it on the
//! rack.
//!
//! Every turn played with tiles in the bag is one sample: the rack the
//! player holds before the move (the leave kept last turn and the tiles
//! drawn since) and the equity of the move the player chose. The sample
//! counts for every leave the rack contains: the rack `AEERST?` counts
//! for `A`, `E`, `EE`, `AE`, ..., `AEERST`, `?`, ..., `EERST?`, each of
//! its sub-racks of 1 to rack size - 1 tiles. A leave's value is the mean
//! equity of the turns that held it less the mean equity of all turns:
//! keeping `?` is worth what a rack with a blank scores above an average
//! rack. Turns with the bag empty are left out (their equity is the end
//! game's).
//!
//! A leave seen fewer than a minimum number of times is left out of the
//! table (worth 0, the average, when looked up): its mean is noise. How
//! many games make a usable table is a matter of how many leaves reach
//! the minimum (the README gives figures).
//!
//! The sums are exact integers (millipoints), so the table is the same
//! whatever order the samples come in, and [`LeaveStats::merge`] joins the
//! stats of games played on several threads.
//!
//! ```
//! use lexq::{Alphabet, game::Rack, game::leavegen::LeaveStats};
//! let en = Alphabet::english();
//! let mut stats = LeaveStats::new(7);
//! stats.add_turn(&Rack::parse("AB", &en)?, 30_000);
//! stats.add_turn(&Rack::parse("AC", &en)?, 10_000);
//! // The mean turn is 20 points; turns holding B made 30, holding A 20.
//! let table = stats.table(1);
//! let value = |s: &str| table.iter().find(|(r, _)| r.to_string(&en) == s).map(|e| e.1);
//! assert_eq!((value("B"), value("A"), value("C")), (Some(10_000), Some(0), Some(-10_000)));
//! assert_eq!(value("AB"), Some(10_000));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashMap;
use std::path::Path;

use crate::alphabet::Alphabet;
use crate::game::equity::SubRacks;
use crate::game::error::Result;
use crate::game::rack::Rack;

/// The longest leave counted: 9 tiles of 6 bits pack into the 64-bit key
/// with its length.
pub const MAX_LEAVE: usize = 9;

/// The samples of every leave seen: per leave, the sum of the equities of
/// the turns that held it and their number.
#[derive(Clone, Debug, Default)]
pub struct LeaveStats {
    /// The longest leave counted (rack size - 1, at most [`MAX_LEAVE`]).
    max_len: usize,
    /// Packed leave (tile codes in order, 6 bits each, and the length in
    /// the top 4 bits) to (sum of equities, turns).
    seen: HashMap<u64, (i64, u64)>,
    /// All turns: sum of equities and their number.
    total: (i64, u64),
}

impl LeaveStats {
    /// Empty stats for racks of `rack_size` tiles (leaves of 1 to
    /// `rack_size - 1` tiles are counted).
    pub fn new(rack_size: usize) -> LeaveStats {
        LeaveStats {
            max_len: rack_size.saturating_sub(1).min(MAX_LEAVE),
            ..LeaveStats::default()
        }
    }

    /// One turn: the rack held before the move and the equity of the move
    /// chosen, in millipoints.
    pub fn add_turn(&mut self, rack: &Rack, equity: i32) {
        self.total.0 += i64::from(equity);
        self.total.1 += 1;
        let Some(sub) = SubRacks::new(rack) else {
            return;
        };
        for at in 1..sub.len() {
            let leave = sub.sub_rack(at);
            if leave.len() > self.max_len {
                continue;
            }
            let e = self.seen.entry(pack(&leave)).or_insert((0, 0));
            e.0 += i64::from(equity);
            e.1 += 1;
        }
    }

    /// Adds the samples of `other` (the stats of other games).
    pub fn merge(&mut self, other: &LeaveStats) {
        self.total.0 += other.total.0;
        self.total.1 += other.total.1;
        for (&k, &(sum, n)) in &other.seen {
            let e = self.seen.entry(k).or_insert((0, 0));
            e.0 += sum;
            e.1 += n;
        }
    }

    /// The number of turns counted.
    pub fn turns(&self) -> u64 {
        self.total.1
    }

    /// The number of different leaves seen at least `min_count` times.
    pub fn leaves_seen(&self, min_count: u64) -> usize {
        self.seen.values().filter(|e| e.1 >= min_count).count()
    }

    /// The table: every leave seen at least `min_count` times with its
    /// value in millipoints (the mean equity of the turns that held it
    /// less the mean of all turns, rounded), ordered by leave length, then
    /// tile codes.
    pub fn table(&self, min_count: u64) -> Vec<(Rack, i32)> {
        let mean = if self.total.1 == 0 {
            0.0
        } else {
            self.total.0 as f64 / self.total.1 as f64
        };
        let mut keys: Vec<(&u64, &(i64, u64))> = self
            .seen
            .iter()
            .filter(|(_, e)| e.1 >= min_count.max(1))
            .collect();
        keys.sort_unstable_by_key(|(k, _)| **k);
        keys.into_iter()
            .map(|(&k, &(sum, n))| {
                let v = (sum as f64 / n as f64 - mean).round();
                (unpack(k), v.clamp(-1e9, 1e9) as i32)
            })
            .collect()
    }

    /// The table as CSV text, `LEAVE,VALUE` lines with the value in points
    /// (what [`crate::game::leaves::Leaves::from_csv`] and wolges's `buildlex
    /// english-klv2` read).
    pub fn to_csv(&self, alphabet: &Alphabet, min_count: u64) -> String {
        let mut s = String::new();
        for (leave, v) in self.table(min_count) {
            let sign = if v < 0 { "-" } else { "" };
            let m = v.unsigned_abs();
            s.push_str(&format!(
                "{},{sign}{}.{:03}\n",
                leave.to_string(alphabet),
                m / 1000,
                m % 1000
            ));
        }
        s
    }

    /// Writes [`LeaveStats::to_csv`] to `path` atomically (a temporary
    /// file beside it, then a rename): an interrupted or failed write
    /// leaves what was there.
    pub fn write_csv(&self, path: &Path, alphabet: &Alphabet, min_count: u64) -> Result<()> {
        crate::files::replace::write(path, self.to_csv(alphabet, min_count).as_bytes(), &[])?;
        Ok(())
    }
}

/// A leave's key: its length in the top 4 bits, then its tile codes in
/// order, 6 bits each, the first lowest (so keys of one length sort by
/// their last tiles first; [`LeaveStats::table`] only needs an order).
fn pack(leave: &Rack) -> u64 {
    let mut key = 0u64;
    let mut n = 0u64;
    for (c, &k) in leave.counts().iter().enumerate() {
        for _ in 0..k {
            if n < MAX_LEAVE as u64 {
                key |= (c as u64 & 63) << (6 * n);
                n += 1;
            }
        }
    }
    key | n << 60
}

fn unpack(key: u64) -> Rack {
    let n = (key >> 60) as usize;
    let mut r = Rack::new();
    for i in 0..n.min(MAX_LEAVE) {
        r.add(((key >> (6 * i)) & 63) as u8);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip() {
        let en = Alphabet::english();
        for s in ["?", "??EQS", "AEIOUY", "ZZZZZZZZZ", "A"] {
            let r = Rack::parse(s, &en).unwrap();
            assert_eq!(unpack(pack(&r)), r, "{s}");
        }
    }
}
