//! Replaying a GCG game ([`Game`]) on a [`Board`]: the position after any
//! number of events, as a CGP [`Position`], and a check of every event.
//!
//! Turn `k` is the position after the first `k` event lines (`0` is the
//! empty board); the player to move is the player of event `k + 1`, with
//! the rack that event line shows. [`replay`] checks each event as it goes
//! and lists every [`Problem`], by line:
//!
//! - a play whose tiles do not fit (off the board, on an occupied square,
//!   a play-through letter that is not there, tiles beside its ends, not
//!   touching any tile, missing the start square on the first move, tiles
//!   not on the rack written on its line) is an illegal placement; it is
//!   not laid, and its score is not checked;
//! - a play forming a word the lexicon lacks is a phony, unless the same
//!   player's next event withdraws it (`--`); its tiles are laid either
//!   way (`--` lifts them);
//! - a play's written score must be its score; `--` must take back
//!   exactly the withdrawn play's written score; end-of-game rack points
//!   must be twice the tiles' value, or once when the game also subtracts
//!   them from the opponent (`RACK (RACK) -N`), which must be their value;
//!   challenge bonuses and time penalties are taken as written;
//! - every cumulative total must be the player's previous written total
//!   plus the event's written score, so that one slip is reported once.
//!
//! ```
//! use lexq::gcg::Game;
//! use lexq::replay::{ProblemKind, replay};
//! use lexq::{Layout, Lexicon, TileSet};
//! let lex = Lexicon::embedded();
//! let game = Game::parse(
//!     "#player1 ann Ann\n#player2 bob Bob\n\
//!      >ann: ACERTUV 8E CARE +12 12\n\
//!      >bob: AEIORSX H8 (E)XO +10 11\n",
//! )?;
//! let tiles = TileSet::named("english", lex.alphabet())?;
//! let r = replay(&game, &lex, Layout::standard(), tiles, None)?;
//! assert_eq!(r.problems.len(), 2);
//! assert_eq!(r.problems[0].to_string(), "line 4: phony EXO");
//! assert_eq!(r.problems[1].to_string(), "line 4: wrong total: written 11, should be 10");
//! // The position after the first event: bob to move.
//! let r = replay(&game, &lex, Layout::standard(), TileSet::named("english", lex.alphabet())?, Some(1))?;
//! assert_eq!(
//!     r.position(&game).to_cgp(),
//!     "15/15/15/15/15/15/15/4CARE7/15/15/15/15/15/15/15 AEIORSX/ 0/12 0"
//! );
//! # Ok::<(), lexq::Error>(())
//! ```

use std::fmt;

use crate::board::Board;
use crate::cgp::{Opcode, Position};
use crate::error::{Error, Result};
use crate::gcg::{EventKind, Game, GcgError, GcgErrorKind};
use crate::layout::Layout;
use crate::lexicon::Lexicon;
use crate::position_error::{PositionError, PositionErrorKind};
use crate::rack::Rack;
use crate::tiles::TileSet;

/// Something wrong with one event of a game record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// 1-based line of the event in the file.
    pub line: usize,
    /// What is wrong.
    pub kind: ProblemKind,
}

/// The kinds of [`Problem`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProblemKind {
    /// The play forms words the lexicon lacks (and was not withdrawn).
    Phony(Vec<String>),
    /// The play's tiles cannot be placed so: why.
    IllegalPlacement(String),
    /// The written score is not the event's score.
    WrongScore {
        /// As written.
        written: i32,
        /// As computed.
        actual: i32,
    },
    /// The written total is not the previous total plus the score.
    WrongCumulative {
        /// As written.
        written: i32,
        /// The previous written total plus the written score.
        expected: i32,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.kind)
    }
}

impl fmt::Display for ProblemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProblemKind::Phony(words) => write!(f, "phony {}", words.join(", ")),
            ProblemKind::IllegalPlacement(why) => write!(f, "illegal placement: {why}"),
            ProblemKind::WrongScore { written, actual } => {
                write!(f, "wrong score: written {written}, scores {actual}")
            }
            ProblemKind::WrongCumulative { written, expected } => {
                write!(f, "wrong total: written {written}, should be {expected}")
            }
        }
    }
}

/// A game replayed up to some turn.
#[derive(Clone, Debug)]
pub struct Replay<'a> {
    /// The board after the events replayed.
    pub board: Board<'a>,
    /// Each player's written total so far (player 1 first).
    pub scores: [i32; 2],
    /// Scoreless turns in a row.
    pub zeros: u32,
    /// The number of events replayed.
    pub turn: usize,
    /// The problems found in those events, in file order.
    pub problems: Vec<Problem>,
    /// The tiles the last play took from its rack (for the rack shown
    /// while a withdrawal is pending).
    spent: Vec<u8>,
}

/// The board layout and tile set a game names (`#board-layout`,
/// `#tile-distribution` or `#tile-set`), else the standard board and the
/// lexicon alphabet's built-in tile set.
///
/// A name that is neither built in nor a regular file is an error (a file
/// such as a FIFO is never opened, so that no game file can hang a reader).
pub fn game_setup(game: &Game, lex: &Lexicon) -> Result<(Layout, TileSet)> {
    const LAYOUTS: &[&str] = &[
        "standard",
        "crosswordgame",
        "standard15",
        "super",
        "supercrosswordgame",
        "super21",
        "friends",
    ];
    const TILES: &[&str] = &[
        "english",
        "english_super",
        "english-super",
        "super",
        "englishsuper",
        "friends",
        "spanish",
    ];
    let usable = |what: &str, name: &str, builtin: &[&str]| -> Result<()> {
        let lower = name.to_ascii_lowercase();
        if builtin.contains(&lower.as_str()) || std::path::Path::new(name).is_file() {
            Ok(())
        } else {
            Err(PositionError::new(
                what,
                PositionErrorKind::Unsupported(format!(
                    "{name:?} is neither built in nor a file (the game file names it)"
                )),
            )
            .into())
        }
    };
    let layout = match game.board_layout.as_deref() {
        Some(name) => {
            usable("board layout", name, LAYOUTS)?;
            Layout::named(name)?
        }
        None => Layout::standard(),
    };
    let tiles = match game
        .tile_distribution
        .as_deref()
        .or(game.tile_set.as_deref())
    {
        Some(name) => {
            usable("tile set", name, TILES)?;
            TileSet::named(name, lex.alphabet())?
        }
        None => TileSet::default_for(lex.alphabet(), layout.size())?,
    };
    Ok((layout, tiles))
}

/// The value of tiles written as text (blanks 0); `None` if a tile is not
/// in the alphabet.
fn value(tiles: &TileSet, lex: &Lexicon, text: &str) -> Option<i32> {
    let rack = Rack::parse(text, lex.alphabet()).ok()?;
    Some(rack.codes().iter().map(|&c| tiles.value(c)).sum())
}

/// Replays the first `turns` events of `game` (all of them if `None`),
/// checking each (see the module documentation). An error only if `turns`
/// is past the end of the game or the board cannot be set up.
pub fn replay<'a>(
    game: &Game,
    lex: &'a Lexicon,
    layout: Layout,
    tiles: TileSet,
    turns: Option<usize>,
) -> Result<Replay<'a>> {
    let n = game.events.len();
    let turns = turns.unwrap_or(n);
    if turns > n {
        return Err(Error::Gcg(GcgError {
            line: game.events.last().map_or(1, |e| e.line),
            column: 1,
            kind: GcgErrorKind::NoSuchTurn {
                turn: turns,
                turns: n,
            },
        }));
    }
    let wespa = game
        .events
        .iter()
        .any(|e| matches!(e.kind, EventKind::EndRackPenalty { .. }));
    let tile_set = tiles.clone();
    let mut r = Replay {
        board: Board::new(lex, layout, tiles)?,
        scores: [0, 0],
        zeros: 0,
        turn: turns,
        problems: Vec::new(),
        spent: Vec::new(),
    };
    // The board and zero count before the last play, for `--`.
    let mut before: Option<(Board<'a>, u32)> = None;
    for (i, e) in game.events[..turns].iter().enumerate() {
        let mut problem = |kind| r.problems.push(Problem { line: e.line, kind });
        match &e.kind {
            EventKind::Play { .. } => {
                before = None;
                let withdrawn = game
                    .events
                    .get(i + 1)
                    .is_some_and(|x| x.player == e.player && x.kind == EventKind::PhonyWithdrawn);
                let checked = r.board.parse_move(&e.notation()).and_then(|mv| {
                    let rack = if e.rack.is_empty() {
                        // No rack written: any tiles will do.
                        Rack::from_codes(&mv.spent().collect::<Vec<_>>())
                    } else {
                        Rack::parse(&e.rack, lex.alphabet())?
                    };
                    r.board.score_play(&mv, &rack)
                });
                match checked {
                    Err(err) => problem(ProblemKind::IllegalPlacement(err.kind.to_string())),
                    Ok((mv, phonies)) => {
                        if !phonies.is_empty() && !withdrawn {
                            problem(ProblemKind::Phony(phonies));
                        }
                        if mv.score() != e.score {
                            problem(ProblemKind::WrongScore {
                                written: e.score,
                                actual: mv.score(),
                            });
                        }
                        before = Some((r.board.clone(), r.zeros));
                        r.spent = mv.spent().collect();
                        // `score_play` checked the squares: this cannot fail.
                        if r.board.play(&mv).is_ok() {
                            r.zeros = if e.score == 0 { r.zeros + 1 } else { 0 };
                        }
                    }
                }
            }
            EventKind::PhonyWithdrawn => {
                let prev = i.checked_sub(1).map(|k| &game.events[k]);
                let taken = prev.map_or(0, |p| p.score);
                if e.score != -taken {
                    problem(ProblemKind::WrongScore {
                        written: e.score,
                        actual: -taken,
                    });
                }
                if let Some((board, zeros)) = before.take() {
                    r.board = board;
                    r.zeros = zeros + 1;
                } else {
                    r.zeros += 1;
                }
            }
            EventKind::Pass | EventKind::Exchange { .. } | EventKind::ExchangeCount(_) => {
                before = None;
                r.zeros += 1;
            }
            EventKind::EndRackPoints { tiles } => {
                if let Some(v) = value(&tile_set, lex, tiles) {
                    let actual = if wespa { v } else { 2 * v };
                    if e.score != actual {
                        problem(ProblemKind::WrongScore {
                            written: e.score,
                            actual,
                        });
                    }
                }
            }
            EventKind::EndRackPenalty { tiles } => {
                if let Some(v) = value(&tile_set, lex, tiles) {
                    if e.score != -v {
                        problem(ProblemKind::WrongScore {
                            written: e.score,
                            actual: -v,
                        });
                    }
                }
            }
            EventKind::ChallengeBonus | EventKind::TimePenalty => {}
        }
        let expected = r.scores[e.player].saturating_add(e.score);
        if e.cumulative != expected {
            r.problems.push(Problem {
                line: e.line,
                kind: ProblemKind::WrongCumulative {
                    written: e.cumulative,
                    expected,
                },
            });
        }
        r.scores[e.player] = e.cumulative;
    }
    Ok(r)
}

impl<'a> Replay<'a> {
    /// The player to move after the events replayed (0 or 1): the player
    /// of the next event, or the one after the last event's player.
    pub fn to_move(&self, game: &Game) -> usize {
        match game.events.get(self.turn) {
            Some(e) => e.player,
            None => game.events.last().map_or(0, |e| 1 - e.player),
        }
    }

    /// The position as CGP: the board, the mover's rack (as the next event
    /// line writes it, less the tiles of a play it withdraws, or
    /// `#rack1`/`#rack2` at the end; the opponent's unknown), the written totals (mover first), the scoreless turns,
    /// and `lex` when the game names its lexicon. A rack with a tile
    /// outside the alphabet is left out.
    pub fn position(&self, game: &Game) -> Position<'a> {
        let me = self.to_move(game);
        let written = match game.events.get(self.turn) {
            Some(e) => Some(e.rack.as_str()),
            None => game.racks[me].as_deref(),
        };
        let alphabet = self.board.alphabet();
        let withdrawing = game
            .events
            .get(self.turn)
            .is_some_and(|e| e.kind == EventKind::PhonyWithdrawn);
        let rack = written
            .and_then(|t| Rack::parse(t, alphabet).ok())
            .map(|mut r| {
                if withdrawing {
                    for &t in &self.spent {
                        r.remove(t);
                    }
                }
                r
            })
            .filter(|r| r.len() <= self.board.tile_set().rack_size())
            .map(|r| r.codes())
            .unwrap_or_default();
        let ops = game
            .lexicon
            .iter()
            .map(|l| Opcode {
                name: "lex".into(),
                args: l.clone(),
            })
            .collect();
        Position {
            board: self.board.clone(),
            racks: vec![rack, Vec::new()],
            scores: vec![self.scores[me], self.scores[1 - me]],
            zeros: self.zeros,
            ops,
        }
    }
}
