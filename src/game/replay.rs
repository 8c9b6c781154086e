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
//!   not on the rack written on its line, more tiles of a kind than the
//!   set holds) is an illegal placement; it is not laid, and its score is
//!   not checked;
//! - a play forming a word the lexicon lacks is a phony, unless the same
//!   player's next event withdraws it (`--`); its tiles are laid either
//!   way (`--` lifts them);
//! - a play's written score must be its score; `--` must take back
//!   exactly the withdrawn play's written score; end-of-game rack points
//!   must be twice the tiles' value, or once when the game also subtracts
//!   them from the opponent (`RACK (RACK) -N`), which must be their value;
//!   challenge bonuses and time penalties are taken as written;
//! - every cumulative total must be the player's previous written total
//!   plus the event's written score, so that one slip is reported once;
//! - the whole game: an exchange only of tiles on the rack; no rack of
//!   more tiles than the game's racks hold; never more tiles of a kind on
//!   the board and a rack than the set holds; no move after the game
//!   ended (a player out with the bag empty, or six scoreless turns in a
//!   row); end-of-game rack points only for the player who went out,
//!   counting exactly the tiles left (the set less the board), and a
//!   penalty line's rack the same on both sides (`RACK (RACK) -N`).
//!
//! A rack or word may spell a multi-letter tile plainly (Spanish `PERRO`,
//! a rack `PERROSX`) or bracketed (`PE[RR]O`). A word is read greedily,
//! as the lexicon reads words; where its letters could also be single
//! tiles (`RR` as R then R), or a rack's could, the reading that fits is
//! taken: the rack holding the tiles played or exchanged, within the tile
//! set, full while the bag holds tiles, and a word that is legal and
//! valid, the greedy reading first among equals.
//!
//! ```
//! use lexq::game::gcg::Game;
//! use lexq::game::replay::{ProblemKind, replay};
//! use lexq::{game::Layout, Lexicon, TileSet};
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
//! # Ok::<(), lexq::game::Error>(())
//! ```

use std::fmt;

use crate::alphabet::Alphabet;
use crate::alphabet::BLANK;
use crate::alphabet::tileset::TileSet;
use crate::game::board::Board;
use crate::game::cgp::{Opcode, Position};
use crate::game::error::{Error, Result};
use crate::game::gcg::{Event, EventKind, Game, GcgError, GcgErrorKind};
use crate::game::layout::Layout;
use crate::game::moves::Move;
use crate::game::notation::readings;
use crate::game::position_error::{PositionError, PositionErrorKind};
use crate::game::rack::{Rack, tiles_text};
use crate::lexicon::Lexicon;

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
    /// An exchange of tiles the rack written does not hold.
    NotOnRack {
        /// The tiles exchanged.
        tiles: String,
        /// The rack.
        rack: String,
    },
    /// A rack of more tiles than the game's racks hold.
    RackTooBig {
        /// Tiles on the rack written.
        len: usize,
        /// The rack size.
        max: usize,
    },
    /// More tiles of a kind on the board and the rack than the set holds.
    TooManyTiles {
        /// The tile (`?` for blanks).
        tile: String,
        /// How many the board and the rack hold.
        count: usize,
        /// How many the set holds.
        max: usize,
    },
    /// A move (play, exchange or pass) after the game ended.
    AfterEnd {
        /// The line of the event that ended it.
        ended: usize,
    },
    /// End-of-game lines that do not fit the game: why.
    EndOfGame(String),
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
            ProblemKind::NotOnRack { tiles, rack } => {
                write!(f, "exchange of {tiles}: not on the rack {rack}")
            }
            ProblemKind::RackTooBig { len, max } => {
                write!(f, "a rack of {len} tiles; racks hold {max}")
            }
            ProblemKind::TooManyTiles { tile, count, max } => write!(
                f,
                "{count} {tile} tiles on the board and the rack; the set has {max}"
            ),
            ProblemKind::AfterEnd { ended } => {
                write!(f, "a move after the end of the game (line {ended})")
            }
            ProblemKind::EndOfGame(why) => write!(f, "end of game: {why}"),
        }
    }
}

impl ProblemKind {
    /// A short name for the kind: `phony`, `placement`, `score`,
    /// `cumulative`, `exchange`, `rack`, `tiles`, `after-end`, `end`.
    pub fn name(&self) -> &'static str {
        match self {
            ProblemKind::Phony(_) => "phony",
            ProblemKind::IllegalPlacement(_) => "placement",
            ProblemKind::WrongScore { .. } => "score",
            ProblemKind::WrongCumulative { .. } => "cumulative",
            ProblemKind::NotOnRack { .. } => "exchange",
            ProblemKind::RackTooBig { .. } => "rack",
            ProblemKind::TooManyTiles { .. } => "tiles",
            ProblemKind::AfterEnd { .. } => "after-end",
            ProblemKind::EndOfGame(_) => "end",
        }
    }
}

/// A game replayed up to some turn.
#[derive(Clone, Debug)]
pub struct Replay<'a> {
    /// The board after the events replayed.
    pub board: Board<'a>,
    /// Each player's written total so far (player 1 first).
    pub scores: Vec<i32>,
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

/// The most readings of one rack or word tried.
const READINGS: usize = 64;

/// The scoreless turns in a row that end a game.
const MAX_ZEROS: u32 = 6;

/// Tiles on the board per code (index 0 for blanks).
fn board_counts(b: &Board<'_>) -> [usize; 64] {
    let mut counts = [0usize; 64];
    for r in 0..b.size() {
        for c in 0..b.size() {
            let t = b.tile(r, c);
            if t != 0 {
                counts[if t & BLANK != 0 { 0 } else { (t & 63) as usize }] += 1;
            }
        }
    }
    counts
}

/// The tiles of the set not on the board.
fn left_over(b: &Board<'_>) -> Rack {
    let counts = board_counts(b);
    let tiles = b.tile_set();
    let mut left = Rack::new();
    for code in 0..=b.alphabet().len() as u8 {
        for _ in counts[code as usize]..tiles.count(code) {
            left.add(code);
        }
    }
    left
}

/// The first tile of which the board and `rack` hold more than the set:
/// (tile, count, max).
fn over_set(b: &Board<'_>, rack: &Rack) -> Option<(String, usize, usize)> {
    let counts = board_counts(b);
    let tiles = b.tile_set();
    (0..=b.alphabet().len() as u8).find_map(|code| {
        let n = counts[code as usize] + rack.count(code);
        (n > tiles.count(code)).then(|| (tiles_text(b.alphabet(), &[code]), n, tiles.count(code)))
    })
}

/// Whether the bag is empty when the tiles not on the board are `left`:
/// all of them fit on the other players' racks.
fn bag_empty(b: &Board<'_>, left: usize, players: usize) -> bool {
    left <= (players - 1) * b.tile_set().rack_size()
}

/// The racks `text` may be (see [`readings`]).
fn rack_readings(text: &str, a: &Alphabet) -> Vec<Rack> {
    readings(text, a, READINGS)
        .iter()
        .filter_map(|r| Rack::parse(r, a).ok())
        .filter(|r| r.codes().iter().all(|&c| c & BLANK == 0))
        .collect()
}

/// The tiles a rack's text writes: a character each, a bracketed
/// multi-letter tile (`[CH]`) one.
fn written_tiles(text: &str) -> usize {
    let (mut n, mut open) = (0, false);
    for ch in text.chars() {
        match ch {
            '[' => {
                open = true;
                n += 1;
            }
            ']' => open = false,
            _ if !open => n += 1,
            _ => {}
        }
    }
    n
}

/// Whether `rack` holds `need`.
fn holds(rack: &Rack, need: &Rack) -> bool {
    (0..64u8).all(|c| rack.count(c) >= need.count(c))
}

/// The rack `text` is read as: of its readings, the first that holds
/// `need`, then fits the set with the board, then the rack size, then is
/// full when `full` (the bag holds tiles). `None` if no reading is tiles.
fn read_rack(text: &str, b: &Board<'_>, need: &Rack, full: bool) -> Option<Rack> {
    let size = b.tile_set().rack_size();
    rack_readings(text, b.alphabet())
        .into_iter()
        .enumerate()
        .max_by_key(|(i, r)| {
            (
                holds(r, need),
                over_set(b, r).is_none(),
                r.len() <= size,
                !full || r.len() == size,
                std::cmp::Reverse(*i),
            )
        })
        .map(|(_, r)| r)
}

/// Whether the bag holds tiles before a turn: every rack is full then.
fn bag_has_tiles(b: &Board<'_>, players: usize) -> bool {
    left_over(b).len() > players * b.tile_set().rack_size()
}

/// A play read against the board: the move (scored) and its phonies, or
/// why it does not fit; and the rack read from its line.
struct PlayFit {
    scored: std::result::Result<(Move, Vec<String>), PositionError>,
    rack: Option<Rack>,
}

/// Reads a play: each reading of its word (the greedy one first) set on
/// the board, with the rack of its line read to hold the tiles it places;
/// the first legal and valid, else the first legal, else the greedy
/// reading's error.
fn fit_play(b: &Board<'_>, e: &Event, players: usize) -> PlayFit {
    let a = b.alphabet();
    let EventKind::Play { coord, word } = &e.kind else {
        unreachable!("only plays are fitted")
    };
    let full = bag_has_tiles(b, players);
    let mut words = readings(word, a, READINGS);
    if words.is_empty() {
        words.push(word.clone());
    }
    let mut best: Option<(u8, PlayFit)> = None;
    for w in words {
        let fit = match b.parse_move(&format!("{coord} {w}")) {
            Err(err) => PlayFit {
                scored: Err(err),
                rack: None,
            },
            Ok(mv) => {
                let spent = Rack::from_codes(&mv.spent().collect::<Vec<_>>());
                let rack = (!e.rack.is_empty())
                    .then(|| read_rack(&e.rack, b, &spent, full))
                    .flatten();
                let scored = match (&rack, e.rack.is_empty()) {
                    (_, true) => b.score_play(&mv, &spent),
                    (Some(r), false) => b.score_play(&mv, r),
                    (None, false) => Err(PositionError::new(
                        "move",
                        PositionErrorKind::IllegalMove(format!("the rack {} is not tiles", e.rack)),
                    )),
                };
                PlayFit { scored, rack }
            }
        };
        let rank = match &fit.scored {
            Ok((_, phonies)) if phonies.is_empty() => 2,
            Ok(_) => 1,
            Err(_) => 0,
        };
        if best.as_ref().is_none_or(|(r, _)| rank > *r) {
            best = Some((rank, fit));
        }
        if rank == 2 {
            break;
        }
    }
    best.map(|(_, f)| f).expect("at least one reading")
}

/// The tiles left on racks at the end, `text`, read as: the reading equal
/// to `want` if there is one, else the first among the tiles `left` (not
/// on the board), else the greedy one.
fn read_end_tiles(text: &str, a: &Alphabet, want: Option<&Rack>, left: &Rack) -> Option<Rack> {
    let all = rack_readings(text, a);
    want.and_then(|w| all.iter().find(|r| *r == w).copied())
        .or_else(|| all.iter().find(|r| holds(left, r)).copied())
        .or_else(|| all.first().copied())
}

/// The value of tiles (blanks 0).
fn value(tiles: &TileSet, r: &Rack) -> i32 {
    r.codes().iter().map(|&c| tiles.value(c)).sum()
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
    let players = game.player_count();
    let wespa = game
        .events
        .iter()
        .any(|e| matches!(e.kind, EventKind::EndRackPenalty { .. }));
    let tile_set = tiles.clone();
    let size = tile_set.rack_size();
    let a = lex.alphabet();
    let nick = |p: usize| {
        game.players
            .get(p)
            .and_then(|x| x.as_ref())
            .map_or(format!("player {}", p + 1), |x| x.nick.clone())
    };
    let mut r = Replay {
        board: Board::new(lex, layout, tiles)?,
        scores: vec![0; players],
        zeros: 0,
        turn: turns,
        problems: Vec::new(),
        spent: Vec::new(),
    };
    // The board and zero count before the last play, for `--`.
    let mut before: Option<(Board<'a>, u32)> = None;
    // The line that ended the game, and who went out.
    let mut ended: Option<usize> = None;
    let mut out: Option<usize> = None;
    // The index of the play that went out.
    let mut out_at: Option<usize> = None;
    for (i, e) in game.events[..turns].iter().enumerate() {
        let mut found: Vec<ProblemKind> = Vec::new();
        let mut quackle_withdrawal = false;
        let is_move = matches!(
            e.kind,
            EventKind::Play { .. }
                | EventKind::Pass
                | EventKind::Exchange { .. }
                | EventKind::ExchangeCount(_)
        );
        // Woogles and macondo write the other player's pass after a
        // play that went out under a challenge rule (the chance to
        // challenge declined): one pass, right after the play (or its
        // challenge bonus), before the end-of-game lines.
        let final_pass = e.kind == EventKind::Pass
            && out.is_some_and(|q| q != e.player)
            && out_at.is_some_and(|k| {
                game.events[k + 1..i]
                    .iter()
                    .all(|x| x.kind == EventKind::ChallengeBonus)
            });
        if let (true, Some(line), false) = (is_move, ended, final_pass) {
            found.push(ProblemKind::AfterEnd { ended: line });
        }
        let full = bag_has_tiles(&r.board, players);
        // The rack of a move: its size and, with the board, the set.
        let check_rack = |rack: &Rack, found: &mut Vec<ProblemKind>| {
            if rack.len() > size {
                // A rack counts at most 255 of a tile: past that, the
                // tiles written.
                let saturated = (0..64u8).any(|c| rack.count(c) == u8::MAX as usize);
                found.push(ProblemKind::RackTooBig {
                    len: if saturated {
                        written_tiles(&e.rack).max(rack.len())
                    } else {
                        rack.len()
                    },
                    max: size,
                });
                if saturated {
                    // Its counts are not the file's: no more about it.
                    return;
                }
            }
            if let Some((tile, count, max)) = over_set(&r.board, rack) {
                found.push(ProblemKind::TooManyTiles { tile, count, max });
            }
        };
        match &e.kind {
            EventKind::Play { .. } => {
                before = None;
                let withdrawn = game
                    .events
                    .get(i + 1)
                    .is_some_and(|x| x.player == e.player && x.kind == EventKind::PhonyWithdrawn);
                let fit = fit_play(&r.board, e, players);
                if let Some(rack) = &fit.rack {
                    check_rack(rack, &mut found);
                }
                let laid = fit.scored.and_then(|(mv, phonies)| {
                    let placed = Rack::from_codes(&mv.spent().collect::<Vec<_>>());
                    let mut with = Rack::new();
                    for code in 0..64u8 {
                        for _ in 0..placed.count(code) {
                            with.add(code);
                        }
                    }
                    match over_set(&r.board, &with) {
                        Some((tile, count, max)) => Err(PositionError::new(
                            "move",
                            PositionErrorKind::IllegalMove(format!(
                                "{count} {tile} tiles on the board; the set has {max}"
                            )),
                        )),
                        None => Ok((mv, phonies)),
                    }
                });
                match laid {
                    Err(err) => found.push(ProblemKind::IllegalPlacement(err.kind.to_string())),
                    Ok((mv, phonies)) => {
                        if !phonies.is_empty() && !withdrawn {
                            found.push(ProblemKind::Phony(phonies));
                        }
                        if mv.score() != e.score {
                            found.push(ProblemKind::WrongScore {
                                written: e.score,
                                actual: mv.score(),
                            });
                        }
                        before = Some((r.board.clone(), r.zeros));
                        r.spent = mv.spent().collect();
                        // `score_play` checked the squares: this cannot fail.
                        // Tiles placed reset the scoreless turns, even
                        // for 0 points (the tournament rule, see
                        // `Rules::zero_play_scoreless`).
                        if r.board.play(&mv).is_ok() {
                            r.zeros = 0;
                        }
                        // Out: the rack written is spent, the bag empty.
                        let spent = Rack::from_codes(&r.spent);
                        let emptied = fit.rack.is_some_and(|rack| rack == spent);
                        let left = left_over(&r.board).len();
                        if emptied && !withdrawn && bag_empty(&r.board, left, players) {
                            ended.get_or_insert(e.line);
                            out = Some(e.player);
                            out_at.get_or_insert(i);
                        }
                    }
                }
            }
            EventKind::PhonyWithdrawn => {
                let prev = i.checked_sub(1).map(|k| &game.events[k]);
                let taken = prev.map_or(0, |p| p.score);
                // Quackle writes `-- +0 TOTAL`, the total without the
                // phony's points: consistent, so accepted.
                quackle_withdrawal = e.score == 0
                    && taken != 0
                    && e.cumulative == r.scores[e.player].saturating_sub(taken);
                if e.score != -taken && !quackle_withdrawal {
                    found.push(ProblemKind::WrongScore {
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
            EventKind::Pass => {
                before = None;
                r.zeros += 1;
                if let Some(rack) = read_rack(&e.rack, &r.board, &Rack::new(), full) {
                    check_rack(&rack, &mut found);
                }
            }
            EventKind::ExchangeCount(k) => {
                before = None;
                r.zeros += 1;
                if let Some(rack) = read_rack(&e.rack, &r.board, &Rack::new(), full) {
                    check_rack(&rack, &mut found);
                    if *k > rack.len() {
                        found.push(ProblemKind::NotOnRack {
                            tiles: format!("{k} tiles"),
                            rack: tiles_text(a, &rack.codes()),
                        });
                    }
                }
            }
            EventKind::Exchange { tiles: text } => {
                before = None;
                r.zeros += 1;
                // The readings of the tiles and of the rack that hold
                // each other within the set, if any.
                let rack_of = |need: &Rack| read_rack(&e.rack, &r.board, need, full);
                let chosen = rack_readings(text, a)
                    .into_iter()
                    .filter_map(|t| rack_of(&t).map(|rk| (t, rk)))
                    .enumerate()
                    .max_by_key(|(i, (t, rk))| {
                        let fits = over_set(&r.board, rk).is_none();
                        (
                            holds(rk, t) && fits,
                            holds(rk, t),
                            fits,
                            std::cmp::Reverse(*i),
                        )
                    })
                    .map(|(_, pair)| pair);
                if let (Some((out_tiles, rack)), false) = (chosen, e.rack.is_empty()) {
                    check_rack(&rack, &mut found);
                    if !holds(&rack, &out_tiles) {
                        found.push(ProblemKind::NotOnRack {
                            tiles: tiles_text(a, &out_tiles.codes()),
                            rack: tiles_text(a, &rack.codes()),
                        });
                    }
                }
            }
            EventKind::EndRackPoints { tiles: text } => {
                ended.get_or_insert(e.line);
                let left = left_over(&r.board);
                let empty_bag = bag_empty(&r.board, left.len(), players);
                let counted = read_end_tiles(text, a, empty_bag.then_some(&left), &left);
                if let Some(t) = &counted {
                    let v = value(&tile_set, t);
                    let actual = if wespa { v } else { 2 * v };
                    if e.score != actual {
                        found.push(ProblemKind::WrongScore {
                            written: e.score,
                            actual,
                        });
                    }
                }
                match out {
                    Some(q) if q != e.player => found.push(ProblemKind::EndOfGame(format!(
                        "{} gets the tiles left, but {} went out",
                        nick(e.player),
                        nick(q)
                    ))),
                    None if !empty_bag => found.push(ProblemKind::EndOfGame(format!(
                        "nobody went out: {} tiles are not on the board",
                        left.len()
                    ))),
                    _ => {}
                }
                if let (Some(t), true) = (&counted, empty_bag) {
                    if *t != left {
                        found.push(ProblemKind::EndOfGame(format!(
                            "({}) are not the tiles left, {}",
                            text,
                            tiles_text(a, &left.codes())
                        )));
                    }
                }
            }
            EventKind::EndRackPenalty { tiles: text } => {
                ended.get_or_insert(e.line);
                let left = left_over(&r.board);
                let own = (!e.rack.is_empty())
                    .then(|| read_end_tiles(&e.rack, a, None, &left))
                    .flatten();
                let counted = read_end_tiles(text, a, own.as_ref(), &left);
                if let Some(t) = &counted {
                    let v = value(&tile_set, t);
                    if e.score != -v {
                        found.push(ProblemKind::WrongScore {
                            written: e.score,
                            actual: -v,
                        });
                    }
                    if let Some(o) = &own {
                        if o != t {
                            found.push(ProblemKind::EndOfGame(format!(
                                "the rack {} is not the tiles counted ({text})",
                                e.rack
                            )));
                        }
                    }
                    if !holds(&left, t) {
                        found.push(ProblemKind::EndOfGame(format!(
                            "({text}) are not among the tiles left, {}",
                            tiles_text(a, &left.codes())
                        )));
                    }
                }
            }
            EventKind::ChallengeBonus | EventKind::TimePenalty => {}
        }
        if r.zeros >= MAX_ZEROS && (is_move || e.kind == EventKind::PhonyWithdrawn) {
            ended.get_or_insert(e.line);
        }
        let expected = if quackle_withdrawal {
            e.cumulative
        } else {
            r.scores[e.player].saturating_add(e.score)
        };
        if e.cumulative != expected {
            found.push(ProblemKind::WrongCumulative {
                written: e.cumulative,
                expected,
            });
        }
        r.scores[e.player] = e.cumulative;
        r.problems
            .extend(found.into_iter().map(|kind| Problem { line: e.line, kind }));
    }
    Ok(r)
}

impl<'a> Replay<'a> {
    /// The player to move after the events replayed: the player of the
    /// next event, or the one after the last event's player.
    pub fn to_move(&self, game: &Game) -> usize {
        match game.events.get(self.turn) {
            Some(e) => e.player,
            None => game
                .events
                .last()
                .map_or(0, |e| (e.player + 1) % game.player_count()),
        }
    }

    /// The position as CGP, always one `Position::from_cgp` reads back:
    /// the board; the mover's rack (as the next event line writes it, read
    /// the way its move needs, less the tiles of a play it withdraws; or
    /// `#rack1`... at the end), left empty (not known) if it does not fit
    /// the rack size or the set; the other racks empty; the written totals
    /// (mover first, within ±100000); the scoreless turns; `lex`, `bdn`
    /// and `ld` when the game names its lexicon, board and tile set.
    pub fn position(&self, game: &Game) -> Position<'a> {
        let players = game.player_count();
        let me = self.to_move(game);
        let b = &self.board;
        let next = game.events.get(self.turn);
        let rack = match next {
            Some(
                e @ Event {
                    kind: EventKind::Play { .. },
                    ..
                },
            ) => fit_play(b, e, players).rack,
            Some(e) if e.kind == EventKind::PhonyWithdrawn => {
                let spent = Rack::from_codes(&self.spent);
                read_rack(&e.rack, b, &spent, false).map(|mut r| {
                    for &t in &self.spent {
                        r.remove(t);
                    }
                    r
                })
            }
            Some(e) => {
                let need = match &e.kind {
                    EventKind::Exchange { tiles } => {
                        rack_readings(tiles, b.alphabet()).first().copied()
                    }
                    _ => None,
                };
                read_rack(
                    &e.rack,
                    b,
                    &need.unwrap_or_default(),
                    bag_has_tiles(b, players),
                )
            }
            None => game
                .racks
                .get(me)
                .and_then(|r| r.as_deref())
                .and_then(|t| read_rack(t, b, &Rack::new(), bag_has_tiles(b, players))),
        };
        let rack = rack
            .filter(|r| r.len() <= b.tile_set().rack_size() && over_set(b, r).is_none())
            .map(|r| r.codes())
            .unwrap_or_default();
        let mut racks = vec![Vec::new(); players];
        racks[0] = rack;
        let clamp = |s: i32| s.clamp(-100_000, 100_000);
        let scores = (0..players)
            .map(|k| clamp(self.scores[(me + k) % players]))
            .collect();
        let mut ops = Vec::new();
        let names = [
            ("lex", game.lexicon.as_deref()),
            ("bdn", game.board_layout.as_deref()),
            (
                "ld",
                game.tile_distribution
                    .as_deref()
                    .or(game.tile_set.as_deref()),
            ),
        ];
        for (name, value) in names {
            if let Some(v) = value {
                ops.push(Opcode {
                    name: name.into(),
                    args: v.to_string(),
                });
            }
        }
        Position {
            board: self.board.clone(),
            racks,
            scores,
            zeros: self.zeros,
            ops,
        }
    }
}
