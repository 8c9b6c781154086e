//! [`Move`]: a tile placement, an exchange or a pass, with its score.
//!
//! A placement is stored as the whole main word, square by square from its
//! first square: each entry a tile code, flagged [`BLANK`] for a blank and
//! [`THROUGH`] for a tile already on the board. It is a small `Copy` value,
//! so recording one allocates nothing.

use crate::alphabet::Alphabet;
use crate::alphabet::BLANK;
use crate::game::layout::MAX_SIZE;
use crate::game::rack::{Rack, push_tile};
use std::cmp::Ordering;

/// Flag on a [`Move`] square: the tile was already on the board.
pub const THROUGH: u8 = 0x40;

/// What a move does.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MoveKind {
    /// Tiles placed on the board.
    Place,
    /// Tiles exchanged with the bag.
    Exchange,
    /// Nothing done.
    Pass,
}

/// A move: where, which tiles, what it scores.
///
/// ```
/// use lexq::{Lexicon, game::Position};
/// let lex = Lexicon::embedded();
/// let pos = Position::from_cgp(&lex, "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 CARE/ 0/0 0")?;
/// let mv = pos.board.parse_move("8E CARE")?;
/// let mv = pos.board.check_move(&mv, &pos.rack())?;
/// assert_eq!((mv.row(), mv.col(), mv.across(), mv.score()), (7, 4, true, 12));
/// assert_eq!(mv.notation(lex.alphabet()), "8E CARE");
/// assert_eq!(mv.leave(&pos.rack()).len(), 0);
/// # Ok::<(), lexq::game::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub(crate) kind: MoveKind,
    pub(crate) row: u8,
    pub(crate) col: u8,
    pub(crate) down: bool,
    pub(crate) len: u8,
    pub(crate) score: i32,
    pub(crate) tiles: [u8; MAX_SIZE],
}

impl Move {
    /// A pass.
    pub fn pass() -> Move {
        Move {
            kind: MoveKind::Pass,
            row: 0,
            col: 0,
            down: false,
            len: 0,
            score: 0,
            tiles: [0; MAX_SIZE],
        }
    }

    /// An exchange of `tiles` (codes, 0 for a blank; at most 25).
    pub fn exchange(tiles: &[u8]) -> Move {
        let mut m = Move::pass();
        m.kind = MoveKind::Exchange;
        let n = tiles.len().min(MAX_SIZE);
        m.tiles[..n].copy_from_slice(&tiles[..n]);
        m.len = n as u8;
        m
    }

    /// A placement: `squares` is the whole main word from its first square
    /// (codes with [`BLANK`] / [`THROUGH`] flags), score 0 until scored.
    pub fn place(row: usize, col: usize, across: bool, squares: &[u8]) -> Move {
        let mut m = Move::pass();
        m.kind = MoveKind::Place;
        m.row = row as u8;
        m.col = col as u8;
        m.down = !across;
        let n = squares.len().min(MAX_SIZE);
        m.tiles[..n].copy_from_slice(&squares[..n]);
        m.len = n as u8;
        m
    }

    /// What the move does.
    pub fn kind(&self) -> MoveKind {
        self.kind
    }

    /// 0-based row of the main word's first square.
    pub fn row(&self) -> usize {
        self.row as usize
    }

    /// 0-based column of the main word's first square.
    pub fn col(&self) -> usize {
        self.col as usize
    }

    /// Whether the main word runs across (else down).
    pub fn across(&self) -> bool {
        !self.down
    }

    /// The score (0 for exchanges and passes).
    pub fn score(&self) -> i32 {
        self.score
    }

    /// The squares of the main word (placements) or the exchanged tiles:
    /// codes flagged [`BLANK`] and [`THROUGH`].
    pub fn squares(&self) -> &[u8] {
        &self.tiles[..self.len as usize]
    }

    /// The number of tiles taken from the rack.
    pub fn tiles_used(&self) -> usize {
        match self.kind {
            MoveKind::Place => self.squares().iter().filter(|&&t| t & THROUGH == 0).count(),
            _ => 0,
        }
    }

    /// The rack tiles the move spends (0 for a blank), in word order.
    pub fn spent(&self) -> impl Iterator<Item = u8> + '_ {
        let kind = self.kind;
        self.squares().iter().filter_map(move |&t| match kind {
            MoveKind::Place if t & THROUGH != 0 => None,
            MoveKind::Place if t & BLANK != 0 => Some(0),
            _ => Some(t & 63),
        })
    }

    /// What is left of `rack` after the move (tiles it lacks are ignored).
    pub fn leave(&self, rack: &Rack) -> Rack {
        let mut r = *rack;
        for t in self.spent() {
            r.remove(t);
        }
        r
    }

    /// The main word, blanks lowercase (empty for exchanges and passes).
    pub fn word(&self, alphabet: &Alphabet) -> String {
        let mut s = String::new();
        if self.kind == MoveKind::Place {
            for &t in self.squares() {
                push_tile(&mut s, alphabet, t & !THROUGH, false);
            }
        }
        s
    }

    /// The main word with `.` on squares that already held a tile, the
    /// placed tile elsewhere (lowercase for a blank).
    pub fn placed(&self, alphabet: &Alphabet) -> String {
        let mut s = String::new();
        if self.kind == MoveKind::Place {
            for &t in self.squares() {
                if t & THROUGH != 0 {
                    s.push('.');
                } else {
                    push_tile(&mut s, alphabet, t, false);
                }
            }
        }
        s
    }

    /// Sets the score.
    pub fn set_score(&mut self, score: i32) {
        self.score = score;
    }
}

/// A move as the CLI's `--json` and the server's API write it: one
/// serializer for both (`serde::Serialize` with the `serde` feature; both
/// write its keys sorted, through a `serde_json::Value`). The fields, the
/// ones that do not apply left out:
///
/// - a placement: `{"kind":"place","row","col","dir","word","placed","score","leave","gcg"}`
///   (`row`, `col` 0-based; `dir` `across` or `down`; `placed` the word
///   with `.` for tiles already on the board);
/// - an exchange: `{"kind":"exchange","tiles","score":0,"leave","gcg"}`;
/// - a pass: `{"kind":"pass","score":0,"leave","gcg":"-"}`;
/// - ranked by equity ([`MoveView::with_equity`]), each also has
///   `"equity"` and `"leave_value"`, in points (a JSON number, the
///   millipoints over 1000: `27.125`).
///
/// ```
/// use lexq::{Lexicon, game::Position, game::MoveView};
/// let lex = Lexicon::embedded();
/// let pos = Position::from_cgp(&lex, "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 CARES/ 0/0 0")?;
/// let mv = pos.board.check_move(&pos.board.parse_move("8E CARE")?, &pos.rack())?;
/// let view = MoveView::new(&mv, &pos.rack(), lex.alphabet());
/// assert_eq!((view.kind, view.word.as_deref(), view.leave.as_str()), ("place", Some("CARE"), "S"));
/// # Ok::<(), lexq::game::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MoveView {
    /// `place`, `exchange` or `pass`.
    pub kind: &'static str,
    /// 0-based row of the main word's first square (placements).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub row: Option<usize>,
    /// 0-based column (placements).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub col: Option<usize>,
    /// `across` or `down` (placements).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub dir: Option<&'static str>,
    /// The main word, blanks lowercase (placements).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub word: Option<String>,
    /// The main word with `.` for tiles already on the board (placements).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub placed: Option<String>,
    /// The tiles exchanged (exchanges).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub tiles: Option<String>,
    /// The score.
    pub score: i32,
    /// The tiles kept, as a rack (`[CH]` for a multi-letter tile).
    pub leave: String,
    /// The move in GCG notation.
    pub gcg: String,
    /// Its equity in millipoints, when ranked by equity (see
    /// [`crate::game::equity`]); written in points.
    #[cfg_attr(
        feature = "serde",
        serde(skip_serializing_if = "Option::is_none", serialize_with = "points")
    )]
    pub equity: Option<i32>,
    /// The leave part of its equity in millipoints (the leave table's
    /// value of the tiles kept, or the end-game bonus or penalty); written
    /// in points.
    #[cfg_attr(
        feature = "serde",
        serde(skip_serializing_if = "Option::is_none", serialize_with = "points")
    )]
    pub leave_value: Option<i32>,
}

/// Millipoints written as points: 27125 as `27.125`.
#[cfg(feature = "serde")]
fn points<S: serde::Serializer>(milli: &Option<i32>, s: S) -> Result<S::Ok, S::Error> {
    match milli {
        Some(m) => s.serialize_f64(f64::from(*m) / 1000.0),
        None => s.serialize_none(),
    }
}

impl MoveView {
    /// The view of `mv` played from `rack`.
    pub fn new(mv: &Move, rack: &Rack, alphabet: &Alphabet) -> MoveView {
        let gcg = mv.notation(alphabet);
        let mut view = MoveView {
            kind: "pass",
            row: None,
            col: None,
            dir: None,
            word: None,
            placed: None,
            tiles: None,
            score: mv.score(),
            leave: mv.leave(rack).to_string(alphabet),
            gcg: String::new(),
            equity: None,
            leave_value: None,
        };
        match mv.kind() {
            MoveKind::Place => {
                view.kind = "place";
                view.row = Some(mv.row());
                view.col = Some(mv.col());
                view.dir = Some(if mv.across() { "across" } else { "down" });
                view.word = Some(mv.word(alphabet));
                view.placed = Some(mv.placed(alphabet));
            }
            MoveKind::Exchange => {
                view.kind = "exchange";
                view.tiles = Some(gcg.trim_start_matches('-').to_string());
            }
            MoveKind::Pass => {}
        }
        view.gcg = gcg;
        view
    }

    /// The view with the move's equity, both in millipoints: the leave
    /// value is the equity less 1000 x the score.
    pub fn with_equity(mut self, equity: i32) -> MoveView {
        self.equity = Some(equity);
        self.leave_value = Some(equity.saturating_sub(self.score.saturating_mul(1000)));
        self
    }
}

/// The order moves are listed in by score: higher score first, then
/// placements before exchanges before a pass, then by row, column, across
/// before down, and tiles: a total order, so lists are the same whatever
/// order the generator finds moves in.
pub fn rank(a: &Move, b: &Move) -> Ordering {
    let kind = |m: &Move| match m.kind() {
        MoveKind::Place => 0,
        MoveKind::Exchange => 1,
        MoveKind::Pass => 2,
    };
    b.score()
        .cmp(&a.score())
        .then(kind(a).cmp(&kind(b)))
        .then(a.row.cmp(&b.row))
        .then(a.col.cmp(&b.col))
        .then(a.down.cmp(&b.down))
        .then(a.squares().cmp(b.squares()))
}
