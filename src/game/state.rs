//! [`Game`]: a whole game a bot can step through: the bag with a seeded
//! draw, the racks and scores, plays, exchanges and passes, challenges,
//! the end of the game, and undo.
//!
//! ```
//! use lexq::{game::Game, game::Generator, game::Layout, Lexicon, TileSet, game::TopN};
//! let lex = Lexicon::embedded();
//! let tiles = TileSet::named("english", lex.alphabet())?;
//! let mut game = Game::new(&lex, Layout::standard(), tiles, 2, 7)?;
//! assert_eq!((game.bag_len(), game.rack(0).len()), (86, 7));
//! let mut generator = Generator::new();
//! while !game.is_over() {
//!     let mut top = TopN::new(1);
//!     generator.set_bag(Some(game.bag_len()));
//!     generator.generate(game.board(), game.rack(game.to_move()), &mut top);
//!     match top.into_sorted().first() {
//!         Some(mv) => game.apply(mv)?,
//!         None => game.apply(&lexq::game::Move::pass())?,
//!     }
//! }
//! assert!(game.to_gcg(&["ann", "bob"]).contains(">ann: "));
//! // Back to the start, one turn at a time.
//! while game.undo() {}
//! assert_eq!((game.bag_len(), game.board().tile_count()), (86, 0));
//! # Ok::<(), lexq::game::Error>(())
//! ```
//!
//! # Rules
//!
//! - **Drawing.** The bag is shuffled once from the seed; tiles are drawn
//!   from its end. After a play the mover draws up to the rack size. An
//!   exchange takes the tiles off the rack, draws as many, then puts the
//!   exchanged tiles back at random places (the seed's generator again);
//!   it needs at least [`Rules::exchange_limit`] tiles in the bag.
//! - **Challenges** ([`ChallengeRule`]): under `Void` a play forming a word
//!   the lexicon lacks is refused. Under the other rules it is laid, and
//!   the next player may [`Game::challenge`] it before moving: a phony is
//!   withdrawn (its tiles back on the rack, the tiles drawn back in the
//!   bag, its score taken off; it counts as a scoreless turn) and the
//!   challenger moves. A valid play challenged costs nothing under
//!   `Single`, the challenger's turn under `Double`, and gives the player
//!   challenged a bonus under `Bonus(n)` (five or ten points in WESPA and
//!   Woogles rules).
//! - **Going out** with the bag empty ends the game: the player out adds
//!   twice the tiles left on the other racks ([`OutRule::Doubled`], NASPA
//!   and Woogles), or adds them once while each other player subtracts
//!   their own ([`OutRule::Once`], WESPA's older rule and the classic
//!   one). A going-out play may still be challenged; withdrawn, the game
//!   goes on.
//! - **Scoreless turns.** [`Rules::max_zeros`] scoreless turns in a row
//!   (passes, exchanges, withdrawn phonies, lost turns; six by default)
//!   end the game, each player subtracting their own rack. A play of
//!   tiles resets the count even when it scores 0 (two blanks), as
//!   WESPA's rules count them, unless [`Rules::zero_play_scoreless`].
//! - **Three or four players** follow the boxed game's rules: going out
//!   adds the other racks once ([`OutRule::for_players`]).
//!
//! # Undo
//!
//! [`Game::undo`] takes back the last action (a move or a challenge, with
//! the end of the game it caused) exactly: the board's tiles and cross
//! sets, the racks, the bag's order and its generator, the scores. A play
//! saves the few squares it changes (its own, and the squares just past
//! every run of tiles it makes), so a search can play and undo without
//! cloning the board.

use crate::alphabet::tileset::{MAX_RACK, TileSet};
use crate::game::board::Board;
use crate::game::cgp::{Opcode, Position};
use crate::game::error::Result;
use crate::game::layout::Layout;
use crate::game::moves::{Move, MoveKind, THROUGH};
use crate::game::position_error::{PositionError, PositionErrorKind};
use crate::game::rack::{Rack, tiles_text};
use crate::game::rng::SplitMix;
use crate::lexicon::Lexicon;

mod search;

/// What a challenge of a valid play costs (or gives).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChallengeRule {
    /// Phonies cannot be played: the lexicon judges each play.
    Void,
    /// A phony challenged is withdrawn; a valid play challenged costs
    /// nothing.
    Single,
    /// A phony challenged is withdrawn; challenging a valid play costs the
    /// challenger's turn.
    Double,
    /// A phony challenged is withdrawn; challenging a valid play gives its
    /// player these points.
    Bonus(i32),
    /// Woogles's triple challenge: a challenge ends the game. A phony is
    /// withdrawn and the challenger wins; a valid play stands and its
    /// player wins, whatever the scores ([`Game::winner`]).
    Triple,
}

impl ChallengeRule {
    /// The rule a CGP `cr` opcode names: `void`, `single`, `double`,
    /// `triple`, `five_point` (or `5`), `ten_point` (or `10`).
    pub fn named(name: &str) -> Option<ChallengeRule> {
        Some(match name.to_ascii_lowercase().as_str() {
            "void" => ChallengeRule::Void,
            "single" => ChallengeRule::Single,
            "double" => ChallengeRule::Double,
            "triple" => ChallengeRule::Triple,
            "five_point" | "five" | "5" => ChallengeRule::Bonus(5),
            "ten_point" | "ten" | "10" => ChallengeRule::Bonus(10),
            _ => return None,
        })
    }
}

/// Who gains what when a player goes out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutRule {
    /// The player out adds twice the tiles left on the other racks (the
    /// NASPA, WESPA and Woogles rule, for one-on-one games).
    Doubled,
    /// The player out adds the tiles left once; each other player
    /// subtracts their own (the standard rules of the boxed game, which
    /// games of three or four players follow: the tournament rules are
    /// for one-on-one games only).
    Once,
}

impl OutRule {
    /// The rule a game of `players` follows by default: `Doubled` for two,
    /// `Once` for three or four.
    pub fn for_players(players: usize) -> OutRule {
        if players > 2 {
            OutRule::Once
        } else {
            OutRule::Doubled
        }
    }
}

/// The rules a [`Game`] follows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Challenges (default [`ChallengeRule::Void`]: no phony is laid).
    pub challenge: ChallengeRule,
    /// Going out (default [`OutRule::Doubled`]).
    pub out: OutRule,
    /// Scoreless turns in a row that end the game (default 6).
    pub max_zeros: u32,
    /// The fewest tiles the bag must hold for an exchange (default 7).
    pub exchange_limit: usize,
    /// Whether a play of tiles scoring 0 (two blanks, `8G ab`) counts
    /// as a scoreless turn. Default false, the tournament rule: WESPA's
    /// rules list the turns that count (passes, exchanges, successful
    /// challenges; and under double challenge, turns lost), and any
    /// placement resets the count, as in wolges. True reads "scoreless
    /// turn" literally, as lexq did before.
    pub zero_play_scoreless: bool,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            challenge: ChallengeRule::Void,
            out: OutRule::Doubled,
            max_zeros: 6,
            exchange_limit: 7,
            zero_play_scoreless: false,
        }
    }
}

/// What happened in one turn of the record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnKind {
    /// Tiles placed (`phony`: it forms a word the lexicon lacks).
    Play {
        /// The move, scored.
        mv: Move,
        /// Whether it forms a word the lexicon lacks.
        phony: bool,
    },
    /// Tiles exchanged (the move lists them).
    Exchange(Move),
    /// A pass.
    Pass,
    /// The player's last play was challenged off the board.
    Withdrawn,
    /// A bonus for a valid play challenged.
    ChallengeBonus,
    /// The turn lost to a valid play challenged (double challenge).
    LostTurn,
    /// End of game: the tiles left on the other racks, added.
    OutPoints(Rack),
    /// End of game: one's own tiles left, subtracted.
    RackPenalty(Rack),
}

/// One line of the game's record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    /// The player (0 first).
    pub player: usize,
    /// The player's rack before the turn (after it for a bonus, the tiles
    /// counted for end-of-game lines).
    pub rack: Rack,
    /// What happened.
    pub kind: TurnKind,
    /// The points it adds (negative for withdrawals and penalties).
    pub score: i32,
    /// The player's score after it.
    pub total: i32,
}

impl Turn {
    /// Whether the turn was added by the end of the game rather than
    /// played.
    fn is_end(&self) -> bool {
        matches!(self.kind, TurnKind::OutPoints(_) | TurnKind::RackPenalty(_))
    }
}

/// A move played by [`Game::play`]: scored, with the words it forms that
/// the lexicon lacks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The move, scored.
    pub mv: Move,
    /// Words the lexicon lacks (only under a rule other than `Void`).
    pub phonies: Vec<String>,
}

/// What a challenge did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Challenge {
    /// The play was a phony and is withdrawn.
    Withdrawn,
    /// The play is valid; nothing happens.
    Valid,
    /// The play is valid; the challenger loses the turn.
    TurnLost,
    /// The play is valid; its player gets these points.
    Bonus(i32),
    /// Triple challenge: the play was a phony, is withdrawn, and the
    /// challenger wins the game.
    ChallengerWins,
    /// Triple challenge: the play is valid and its player wins the game.
    ChallengerLoses,
}

/// A square a play changes, as it was: its index (row-major), tile, and
/// both directions' cross set and cross score.
#[derive(Clone, Copy)]
struct Square {
    at: u16,
    tile: u8,
    cross: [u64; 2],
    score: [i16; 2],
}

/// The squares plays changed, as they were, one play's after another's.
#[derive(Clone, Default)]
struct Squares(Vec<Square>);

impl Squares {
    fn push(&mut self, b: &Board<'_>, r: usize, c: usize) {
        let n = b.n;
        let (i, j) = (r * n + c, c * n + r);
        self.0.push(Square {
            at: i as u16,
            tile: b.sq[0][i],
            cross: [b.cross[0][i], b.cross[1][j]],
            score: [b.cross_score[0][i], b.cross_score[1][j]],
        });
    }

    /// Saves what [`Board::play`] of `mv` changes: the squares it fills,
    /// the squares just past both ends of its main word, and just past
    /// both ends of the run of tiles each new tile joins the other way.
    /// `CARE` across on an empty row saves C A R E, the squares left of C
    /// and right of E, and above and below each letter.
    fn save(&mut self, b: &Board<'_>, mv: &Move) {
        let n = b.n;
        let (dr, dc) = if mv.across() { (0, 1) } else { (1, 0) };
        let (r0, c0) = (mv.row(), mv.col());
        let len = mv.squares().len();
        if r0 >= dr && c0 >= dc {
            self.push(b, r0 - dr, c0 - dc);
        }
        let (r1, c1) = (r0 + dr * len, c0 + dc * len);
        if r1 < n && c1 < n {
            self.push(b, r1, c1);
        }
        for (i, &t) in mv.squares().iter().enumerate() {
            if t & THROUGH != 0 {
                continue;
            }
            let (r, c) = (r0 + dr * i, c0 + dc * i);
            if r >= n || c >= n {
                continue;
            }
            self.push(b, r, c);
            // The other way: (dc, dr).
            let (mut a, mut k) = (r, c);
            while a >= dc && k >= dr && b.tile(a - dc, k - dr) != 0 {
                a -= dc;
                k -= dr;
            }
            if a >= dc && k >= dr {
                self.push(b, a - dc, k - dr);
            }
            let (mut a, mut k) = (r + dc, c + dr);
            while a < n && k < n && b.tile(a, k) != 0 {
                a += dc;
                k += dr;
            }
            if a < n && k < n {
                self.push(b, a, k);
            }
        }
    }

    /// Puts the squares saved from `from` on back (in reverse, so that a
    /// square saved twice gets its first, original, state).
    fn restore(&self, from: usize, b: &mut Board<'_>) {
        let n = b.n;
        for s in self.0[from..].iter().rev() {
            let i = s.at as usize;
            let j = (i % n) * n + i / n;
            b.sq[0][i] = s.tile;
            b.sq[1][j] = s.tile;
            b.cross[0][i] = s.cross[0];
            b.cross[1][j] = s.cross[1];
            b.cross_score[0][i] = s.score[0];
            b.cross_score[1][j] = s.score[1];
        }
    }
}

/// What undoing a turn needs beyond the turn itself.
#[derive(Clone, Copy)]
struct Saved {
    zeros: u32,
    to_move: usize,
    over: bool,
    challengeable: bool,
    rng: SplitMix,
    /// Where the play's squares start in [`Game::squares`], and the tile
    /// count before it.
    squares: usize,
    count: usize,
    /// Tiles drawn, in drawing order.
    drawn: [u8; MAX_RACK],
    drawn_len: usize,
    /// Where each exchanged tile went back into the bag.
    returned: [(u8, u16); MAX_RACK],
    returned_len: usize,
}

/// A game in progress: board, bag, racks, scores, the record of turns.
#[derive(Clone)]
pub struct Game<'a> {
    board: Board<'a>,
    bag: Vec<u8>,
    rng: SplitMix,
    racks: Vec<Rack>,
    /// Racks the position this game came from did not show (dealt from
    /// the bag, written empty again).
    hidden: Vec<bool>,
    scores: Vec<i32>,
    to_move: usize,
    zeros: u32,
    rules: Rules,
    ops: Vec<Opcode>,
    turns: Vec<Turn>,
    saved: Vec<Saved>,
    /// The squares plays changed (see [`Saved::squares`]).
    squares: Squares,
    over: bool,
    /// The last action was a play, not yet challenged.
    challengeable: bool,
    /// Turns [`Game::undo`] may not take back: those before the last
    /// [`Game::set_rack`] or [`Game::deal`] (their draws are gone).
    floor: usize,
    /// For each challenge of a valid play that wrote no turn
    /// (`Challenge::Valid`, `Challenge::ChallengerLoses`), the record's
    /// length then and whether the game was over before it, so that
    /// [`Game::undo`] takes it back first.
    valid_challenges: Vec<(usize, bool)>,
    /// The player who won by a triple challenge.
    winner: Option<usize>,
}

impl std::fmt::Debug for Game<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Game({:?}, {} turns)", self.to_cgp(), self.turns.len())
    }
}

/// Turns a game's record has room for from the start (a game has some
/// 25 to 40), so that a search's play and undo never grow it.
const RECORD: usize = 96;

fn illegal(s: impl Into<String>) -> PositionError {
    PositionError::new("move", PositionErrorKind::IllegalMove(s.into()))
}

impl<'a> Game<'a> {
    /// A new game for `players` (2 to 4): the full bag shuffled by `seed`,
    /// each player dealt a rack in turn, player 0 to move, default
    /// [`Rules`].
    pub fn new(
        lex: &'a Lexicon,
        layout: Layout,
        tiles: TileSet,
        players: usize,
        seed: u64,
    ) -> Result<Game<'a>> {
        if !(2..=4).contains(&players) {
            return Err(PositionError::new(
                "game",
                PositionErrorKind::Unsupported(format!("{players} players: 2 to 4 play")),
            )
            .into());
        }
        let mut rng = SplitMix::new(seed);
        let mut bag: Vec<u8> = Vec::with_capacity(tiles.total());
        for code in 0..=lex.alphabet().len() as u8 {
            bag.extend(std::iter::repeat_n(code, tiles.count(code)));
        }
        for i in (1..bag.len()).rev() {
            let j = rng.below(i + 1);
            bag.swap(i, j);
        }
        let rules = Rules {
            exchange_limit: tiles.rack_size(),
            out: OutRule::for_players(players),
            ..Rules::default()
        };
        let board = Board::new(lex, layout, tiles)?;
        let mut game = Game {
            board,
            bag,
            rng,
            racks: vec![Rack::new(); players],
            hidden: vec![false; players],
            scores: vec![0; players],
            to_move: 0,
            zeros: 0,
            rules,
            ops: Vec::new(),
            turns: Vec::with_capacity(RECORD),
            saved: Vec::with_capacity(RECORD),
            squares: Squares(Vec::with_capacity(RECORD * 16)),
            over: false,
            challengeable: false,
            floor: 0,
            valid_challenges: Vec::new(),
            winner: None,
        };
        for p in 0..players {
            game.fill(p, None);
        }
        Ok(game)
    }

    /// The game at a position: its board, racks, scores and scoreless
    /// turns, the player to move first; the bag is the tile set less the
    /// board and the racks shown, shuffled by `seed`. A rack the position
    /// leaves empty is not known: it is dealt from the bag (and written
    /// empty again by [`Game::to_position`]). Rules come from the opcodes
    /// `cr` (challenge rule), `mcnz` (scoreless turns that end the game)
    /// and `etl` (the bag an exchange needs); the opcodes are kept.
    pub fn from_position(pos: &Position<'a>, seed: u64) -> Result<Game<'a>> {
        let tiles = pos.board.tile_set();
        let a = pos.board.alphabet();
        let mut left = [0usize; 64];
        for (code, slot) in left.iter_mut().enumerate().take(a.len() + 1) {
            *slot = tiles.count(code as u8);
        }
        let n = pos.board.size();
        for r in 0..n {
            for c in 0..n {
                let t = pos.board.tile(r, c);
                if t != 0 {
                    let code = if t & crate::alphabet::BLANK != 0 {
                        0
                    } else {
                        t & 63
                    };
                    left[code as usize] = left[code as usize].saturating_sub(1);
                }
            }
        }
        let mut racks: Vec<Rack> = pos.racks.iter().map(|r| Rack::from_codes(r)).collect();
        while racks.len() < 2 {
            racks.push(Rack::new());
        }
        for r in &racks {
            for (code, &k) in r.counts().iter().enumerate() {
                left[code] = left[code].saturating_sub(k as usize);
            }
        }
        let mut rng = SplitMix::new(seed);
        let mut bag = Vec::new();
        for (code, &k) in left.iter().enumerate() {
            bag.extend(std::iter::repeat_n(code as u8, k));
        }
        for i in (1..bag.len()).rev() {
            let j = rng.below(i + 1);
            bag.swap(i, j);
        }
        let op = |name: &str| pos.opcode(name);
        let bad = |s: String| PositionError::new("CGP", PositionErrorKind::Syntax(s));
        let mut rules = Rules {
            exchange_limit: tiles.rack_size(),
            ..Rules::default()
        };
        if let Some(cr) = op("cr") {
            rules.challenge = ChallengeRule::named(cr).ok_or_else(|| {
                bad(format!(
                    "cr {cr:?}: lexq knows void, single, double, triple, five_point and ten_point"
                ))
            })?;
        }
        if let Some(m) = op("mcnz") {
            rules.max_zeros = m
                .parse()
                .ok()
                .filter(|&m| m > 0 && m <= 1000)
                .ok_or_else(|| bad(format!("mcnz {m:?} is not a number of turns")))?;
        }
        if let Some(e) = op("etl") {
            rules.exchange_limit = e
                .parse()
                .ok()
                .filter(|&e| e <= 1000)
                .ok_or_else(|| bad(format!("etl {e:?} is not a number of tiles")))?;
        }
        let players = racks.len();
        rules.out = OutRule::for_players(players);
        let hidden: Vec<bool> = racks.iter().map(Rack::is_empty).collect();
        let mut scores = pos.scores.clone();
        scores.resize(players, 0);
        let mut game = Game {
            board: pos.board.clone(),
            bag,
            rng,
            racks,
            hidden: hidden.clone(),
            scores,
            to_move: 0,
            zeros: pos.zeros,
            over: pos.zeros >= rules.max_zeros,
            rules,
            ops: pos.ops.clone(),
            turns: Vec::with_capacity(RECORD),
            saved: Vec::with_capacity(RECORD),
            squares: Squares(Vec::with_capacity(RECORD * 16)),
            challengeable: false,
            floor: 0,
            valid_challenges: Vec::new(),
            winner: None,
        };
        for (p, &h) in hidden.iter().enumerate() {
            if h {
                game.fill(p, None);
            }
        }
        Ok(game)
    }

    /// The same game under `rules`.
    pub fn with_rules(mut self, rules: Rules) -> Game<'a> {
        self.rules = rules;
        self
    }

    /// The same game with these CGP opcodes (`lex ENABLE`, ...) written
    /// in its positions, and `lex`, `bdn` and `ld` in its GCG header.
    pub fn with_opcodes(mut self, ops: Vec<Opcode>) -> Game<'a> {
        self.ops = ops;
        self
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The board.
    pub fn board(&self) -> &Board<'a> {
        &self.board
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        self.racks.len()
    }

    /// The player to move (0 first).
    pub fn to_move(&self) -> usize {
        self.to_move
    }

    /// A player's rack.
    pub fn rack(&self, player: usize) -> &Rack {
        &self.racks[player]
    }

    /// A player's score.
    pub fn score(&self, player: usize) -> i32 {
        self.scores[player]
    }

    /// Every player's score.
    pub fn scores(&self) -> &[i32] {
        &self.scores
    }

    /// Scoreless turns in a row.
    pub fn zeros(&self) -> u32 {
        self.zeros
    }

    /// Tiles in the bag.
    pub fn bag_len(&self) -> usize {
        self.bag.len()
    }

    /// The tiles `player` cannot see: the bag and the other racks.
    pub fn unseen(&self, player: usize) -> Rack {
        let mut r = Rack::from_codes(&self.bag);
        for (p, rack) in self.racks.iter().enumerate() {
            if p != player {
                for code in rack.codes() {
                    r.add(code);
                }
            }
        }
        r
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The player who won by a triple challenge ([`ChallengeRule::Triple`]),
    /// whatever the scores; `None` in any other case (the scores decide).
    pub fn winner(&self) -> Option<usize> {
        self.winner
    }

    /// The record, one entry per GCG line.
    pub fn turns(&self) -> &[Turn] {
        &self.turns
    }

    /// Whether the last action was a play that may be challenged.
    pub fn can_challenge(&self) -> bool {
        self.challengeable
    }

    fn next(&self, p: usize) -> usize {
        (p + 1) % self.racks.len()
    }

    fn snapshot(&self) -> Saved {
        Saved {
            zeros: self.zeros,
            to_move: self.to_move,
            over: self.over,
            challengeable: self.challengeable,
            rng: self.rng,
            squares: self.squares.0.len(),
            count: self.board.count,
            drawn: [0; MAX_RACK],
            drawn_len: 0,
            returned: [(0, 0); MAX_RACK],
            returned_len: 0,
        }
    }

    /// Draws for `player` up to the rack size, noting the tiles.
    fn fill(&mut self, player: usize, mut saved: Option<&mut Saved>) {
        let size = self.board.tile_set().rack_size();
        let mut len = self.racks[player].len();
        while len < size {
            let Some(t) = self.bag.pop() else { break };
            len += 1;
            self.racks[player].add(t);
            if let Some(s) = saved.as_deref_mut() {
                if s.drawn_len < MAX_RACK {
                    s.drawn[s.drawn_len] = t;
                    s.drawn_len += 1;
                }
            }
        }
    }

    /// Puts the tiles `saved` drew back on the bag's end, in order, so
    /// that the next draw takes them again.
    fn undraw(&mut self, player: usize, saved: &Saved) {
        for &t in saved.drawn[..saved.drawn_len].iter().rev() {
            self.racks[player].remove(t);
            self.bag.push(t);
        }
    }

    fn push(&mut self, player: usize, rack: Rack, kind: TurnKind, score: i32, saved: Saved) {
        self.scores[player] += score;
        self.turns.push(Turn {
            player,
            rack,
            kind,
            score,
            total: self.scores[player],
        });
        self.saved.push(saved);
    }

    /// Plays a move for the player to move, checked: the game not over; a
    /// placement that fits the board and the rack (its score computed;
    /// refused if it forms a word the lexicon lacks under
    /// [`ChallengeRule::Void`]); an exchange of tiles on the rack with
    /// enough tiles in the bag; or a pass.
    pub fn play(&mut self, mv: &Move) -> Result<Played> {
        if self.over {
            return Err(illegal("the game is over").into());
        }
        let rack = self.racks[self.to_move];
        match mv.kind() {
            MoveKind::Place => {
                let (scored, phonies) = self.board.score_play(mv, &rack)?;
                if !phonies.is_empty() && self.rules.challenge == ChallengeRule::Void {
                    return Err(
                        PositionError::new("move", PositionErrorKind::Phony(phonies)).into(),
                    );
                }
                self.place(&scored, !phonies.is_empty())?;
                Ok(Played {
                    mv: scored,
                    phonies,
                })
            }
            MoveKind::Exchange => {
                self.check_exchange(mv, &rack)?;
                self.exchange(mv);
                Ok(Played {
                    mv: *mv,
                    phonies: Vec::new(),
                })
            }
            MoveKind::Pass => {
                self.pass(TurnKind::Pass);
                Ok(Played {
                    mv: *mv,
                    phonies: Vec::new(),
                })
            }
        }
    }

    fn check_exchange(&self, mv: &Move, rack: &Rack) -> std::result::Result<(), PositionError> {
        let mut left = *rack;
        for &t in mv.squares() {
            if !left.remove(t & 63) {
                let mut s = String::new();
                crate::game::rack::push_tile(&mut s, self.board.alphabet(), t & 63, true);
                return Err(illegal(format!(
                    "{s} is not on the rack {}",
                    rack.to_string(self.board.alphabet())
                )));
            }
        }
        if mv.squares().is_empty() {
            return Err(illegal("an exchange of no tiles"));
        }
        if self.bag.len() < self.rules.exchange_limit.max(1) {
            return Err(illegal(format!(
                "the bag holds {} tiles; an exchange needs at least {}",
                self.bag.len(),
                self.rules.exchange_limit.max(1)
            )));
        }
        Ok(())
    }

    /// Plays a move from the move generator (or any move already checked
    /// and scored) for the player to move, without judging its words or
    /// its score: the search's step, which allocates nothing once the
    /// record has room. The squares and the rack are still checked (an
    /// error changes nothing).
    pub fn apply(&mut self, mv: &Move) -> Result<()> {
        if self.over {
            return Err(illegal("the game is over").into());
        }
        match mv.kind() {
            MoveKind::Place => {
                let mut left = self.racks[self.to_move];
                if mv.spent().any(|t| !left.remove(t)) {
                    return Err(illegal("the move's tiles are not on the rack").into());
                }
                Ok(self.place(mv, false)?)
            }
            MoveKind::Exchange => {
                self.check_exchange(mv, &self.racks[self.to_move])?;
                self.exchange(mv);
                Ok(())
            }
            MoveKind::Pass => {
                self.pass(TurnKind::Pass);
                Ok(())
            }
        }
    }

    fn place(&mut self, mv: &Move, phony: bool) -> std::result::Result<(), PositionError> {
        let me = self.to_move;
        let mut saved = self.snapshot();
        self.squares.save(&self.board, mv);
        if let Err(e) = self.board.play(mv) {
            self.squares.0.truncate(saved.squares);
            return Err(e);
        }
        let rack = self.racks[me];
        for t in mv.spent() {
            self.racks[me].remove(t);
        }
        self.fill(me, Some(&mut saved));
        self.zeros = if mv.score() == 0 && self.rules.zero_play_scoreless {
            self.zeros + 1
        } else {
            0
        };
        self.challengeable = true;
        self.to_move = self.next(me);
        self.push(
            me,
            rack,
            TurnKind::Play { mv: *mv, phony },
            mv.score(),
            saved,
        );
        self.check_end(me);
        Ok(())
    }

    fn exchange(&mut self, mv: &Move) {
        let me = self.to_move;
        let mut saved = self.snapshot();
        let rack = self.racks[me];
        for &t in mv.squares() {
            self.racks[me].remove(t & 63);
        }
        self.fill(me, Some(&mut saved));
        for &t in mv.squares() {
            self.bag.push(t & 63);
            let last = self.bag.len() - 1;
            let j = self.rng.below(self.bag.len());
            self.bag.swap(j, last);
            if saved.returned_len < MAX_RACK {
                saved.returned[saved.returned_len] = (t & 63, j as u16);
                saved.returned_len += 1;
            }
        }
        self.zeros += 1;
        self.challengeable = false;
        self.to_move = self.next(me);
        self.push(me, rack, TurnKind::Exchange(*mv), 0, saved);
        self.check_end(me);
    }

    /// A pass, or a turn lost to a challenge.
    fn pass(&mut self, kind: TurnKind) {
        let me = self.to_move;
        let saved = self.snapshot();
        self.zeros += 1;
        self.challengeable = false;
        self.to_move = self.next(me);
        self.push(me, self.racks[me], kind, 0, saved);
        self.check_end(me);
    }

    /// Ends the game if `me` went out or the scoreless turns ran out.
    fn check_end(&mut self, me: usize) {
        if self.racks[me].is_empty() && self.bag.is_empty() {
            let mut others = Rack::new();
            for (p, r) in self.racks.iter().enumerate() {
                if p != me {
                    for code in r.codes() {
                        others.add(code);
                    }
                }
            }
            let value = self.value(&others);
            match self.rules.out {
                OutRule::Doubled => {
                    let s = self.snapshot();
                    self.push(me, others, TurnKind::OutPoints(others), 2 * value, s);
                }
                OutRule::Once => {
                    let s = self.snapshot();
                    self.push(me, others, TurnKind::OutPoints(others), value, s);
                    let n = self.racks.len();
                    for p in (1..n).map(|k| (me + k) % n) {
                        let r = self.racks[p];
                        if !r.is_empty() {
                            let s = self.snapshot();
                            self.push(p, r, TurnKind::RackPenalty(r), -self.value(&r), s);
                        }
                    }
                }
            }
            self.over = true;
        } else if self.zeros >= self.rules.max_zeros {
            let n = self.racks.len();
            for p in (0..n).map(|k| (me + k) % n) {
                let r = self.racks[p];
                if !r.is_empty() {
                    let s = self.snapshot();
                    self.push(p, r, TurnKind::RackPenalty(r), -self.value(&r), s);
                }
            }
            self.over = true;
        }
    }

    fn value(&self, r: &Rack) -> i32 {
        let t = self.board.tile_set();
        r.codes().iter().map(|&c| t.value(c)).sum()
    }

    /// The player to move challenges the last play (see the module
    /// documentation for what each rule does). An error if the last
    /// action was not a play, or was challenged already.
    pub fn challenge(&mut self) -> Result<Challenge> {
        if !self.challengeable {
            return Err(illegal("nothing to challenge: the last turn was not a play").into());
        }
        let k = self
            .turns
            .iter()
            .rposition(|t| !t.is_end())
            .expect("a play to challenge");
        let TurnKind::Play { mv, phony } = self.turns[k].kind else {
            return Err(illegal("nothing to challenge: the last turn was not a play").into());
        };
        let player = self.turns[k].player;
        if phony {
            // Take back the end of the game the play caused, then the
            // play itself, leaving it in the record.
            while self.turns.len() > k + 1 {
                self.undo_one();
            }
            let play_saved = self.saved[k];
            let mut saved = self.snapshot();
            saved.drawn = play_saved.drawn;
            saved.drawn_len = play_saved.drawn_len;
            self.squares.restore(play_saved.squares, &mut self.board);
            self.board.count = play_saved.count;
            self.undraw(player, &play_saved);
            for t in mv.spent() {
                self.racks[player].add(t);
            }
            self.over = false;
            self.zeros = play_saved.zeros + 1;
            self.challengeable = false;
            let rack = self.turns[k].rack;
            self.push(player, rack, TurnKind::Withdrawn, -mv.score(), saved);
            if self.rules.challenge == ChallengeRule::Triple {
                self.over = true;
                self.winner = Some(self.to_move);
                return Ok(Challenge::ChallengerWins);
            }
            self.check_end(player);
            return Ok(Challenge::Withdrawn);
        }
        Ok(match self.rules.challenge {
            ChallengeRule::Triple => {
                self.challengeable = false;
                self.valid_challenges.push((self.turns.len(), self.over));
                self.over = true;
                self.winner = Some(player);
                Challenge::ChallengerLoses
            }
            ChallengeRule::Double if !self.over => {
                // The lost turn is a scoreless turn of the challenger's;
                // undoing it makes the play challengeable again.
                self.pass(TurnKind::LostTurn);
                Challenge::TurnLost
            }
            ChallengeRule::Bonus(points) => {
                let s = self.snapshot();
                self.challengeable = false;
                let rack = self.racks[player];
                self.push(player, rack, TurnKind::ChallengeBonus, points, s);
                Challenge::Bonus(points)
            }
            _ => {
                self.challengeable = false;
                self.valid_challenges.push((self.turns.len(), self.over));
                Challenge::Valid
            }
        })
    }

    /// Takes back the last action (a move, or a challenge), with the end
    /// of the game it caused; false if there is none.
    pub fn undo(&mut self) -> bool {
        // A valid play challenged with no effect (`Challenge::Valid`)
        // wrote no turn: undoing it gives back the right to challenge.
        if let Some(&(len, over)) = self.valid_challenges.last() {
            if len == self.turns.len() {
                self.valid_challenges.pop();
                self.challengeable = true;
                self.over = over;
                self.winner = None;
                return true;
            }
        }
        // Only the last action can have made a winner.
        self.winner = None;
        while self.turns.last().is_some_and(Turn::is_end) {
            self.undo_one();
        }
        if self.turns.len() <= self.floor {
            return false;
        }
        self.undo_one();
        true
    }

    fn undo_one(&mut self) {
        let (Some(turn), Some(saved)) = (self.turns.pop(), self.saved.pop()) else {
            return;
        };
        let p = turn.player;
        self.scores[p] -= turn.score;
        match turn.kind {
            TurnKind::Play { mv, .. } => {
                self.squares.restore(saved.squares, &mut self.board);
                self.board.count = saved.count;
                self.undraw(p, &saved);
                for t in mv.spent() {
                    self.racks[p].add(t);
                }
            }
            TurnKind::Exchange(mv) => {
                for &(t, j) in saved.returned[..saved.returned_len].iter().rev() {
                    let last = self.bag.len() - 1;
                    self.bag.swap(j as usize, last);
                    let back = self.bag.pop();
                    debug_assert_eq!(back, Some(t));
                }
                self.undraw(p, &saved);
                for &t in mv.squares() {
                    self.racks[p].add(t & 63);
                }
            }
            TurnKind::Withdrawn => {
                // The play goes down again, with the same draw.
                let k = self.turns.len() - 1;
                if let TurnKind::Play { mv, .. } = self.turns[k].kind {
                    let _ = self.board.play(&mv);
                    for t in mv.spent() {
                        self.racks[p].remove(t);
                    }
                    let size = self.board.tile_set().rack_size();
                    for _ in 0..saved.drawn_len {
                        if self.racks[p].len() >= size {
                            break;
                        }
                        if let Some(t) = self.bag.pop() {
                            self.racks[p].add(t);
                        }
                    }
                    // The play's own score was taken off by the
                    // withdrawal's negative score coming back.
                }
            }
            _ => {}
        }
        self.squares.0.truncate(saved.squares);
        self.zeros = saved.zeros;
        self.to_move = saved.to_move;
        self.over = saved.over;
        self.challengeable = saved.challengeable;
        self.rng = saved.rng;
    }

    /// The position: the player to move first (racks not known to the
    /// position this game came from written empty), scores in the same
    /// order, the scoreless turns, the opcodes.
    pub fn to_position(&self) -> Position<'a> {
        let n = self.racks.len();
        let order = (0..n).map(|k| (self.to_move + k) % n);
        Position {
            board: self.board.clone(),
            racks: order
                .clone()
                .map(|p| {
                    if self.hidden[p] {
                        Vec::new()
                    } else {
                        self.racks[p].codes()
                    }
                })
                .collect(),
            scores: order.map(|p| self.scores[p]).collect(),
            zeros: self.zeros,
            ops: self.ops.clone(),
        }
    }

    /// The position as a CGP line (see [`Game::to_position`]).
    pub fn to_cgp(&self) -> String {
        self.to_position().to_cgp()
    }

    /// The record as a GCG file: players named by `nicks` (`p1`, `p2`...
    /// where missing), `#lexicon`, `#board-layout` and
    /// `#tile-distribution` from the opcodes `lex`, `bdn` and `ld`, then a
    /// line per turn. Racks and words are written so that they read back
    /// tile for tile (`[CH]`).
    pub fn to_gcg(&self, nicks: &[&str]) -> String {
        use std::fmt::Write;
        let a = self.board.alphabet();
        let nick = |p: usize| {
            nicks
                .get(p)
                .map_or_else(|| format!("p{}", p + 1), |s| s.to_string())
        };
        let mut s = String::from("#character-encoding UTF-8\n");
        for p in 0..self.racks.len() {
            let _ = writeln!(s, "#player{} {} Player {}", p + 1, nick(p), p + 1);
        }
        for (op, pragma) in [
            ("lex", "lexicon"),
            ("bdn", "board-layout"),
            ("ld", "tile-distribution"),
        ] {
            if let Some(o) = self.ops.iter().find(|o| o.name == op) {
                let _ = writeln!(s, "#{pragma} {}", o.args);
            }
        }
        let text = |r: &Rack| tiles_text(a, &r.codes());
        for t in &self.turns {
            let who = nick(t.player);
            let rack = text(&t.rack);
            let what = match t.kind {
                TurnKind::Play { mv, .. } => mv.notation(a),
                TurnKind::Exchange(mv) => mv.notation(a),
                TurnKind::Pass | TurnKind::LostTurn => "-".to_string(),
                TurnKind::Withdrawn => "--".to_string(),
                TurnKind::ChallengeBonus => "(challenge)".to_string(),
                TurnKind::OutPoints(r) => {
                    let _ = writeln!(s, ">{who}: ({}) +{} {}", text(&r), t.score, t.total);
                    continue;
                }
                TurnKind::RackPenalty(r) => format!("({})", text(&r)),
            };
            let _ = writeln!(s, ">{who}: {rack} {what} {:+} {}", t.score, t.total);
            if t.kind == TurnKind::LostTurn {
                let _ = writeln!(s, "#note {who} challenged a valid play and loses the turn");
            }
        }
        if let Some(w) = self.winner {
            let _ = writeln!(s, "#note {} wins by a triple challenge", nick(w));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::movegen::{All, Generator};

    type Arrays = (
        Vec<u8>,
        Vec<u8>,
        Vec<u64>,
        Vec<u64>,
        Vec<i16>,
        Vec<i16>,
        usize,
    );

    fn arrays(b: &Board<'_>) -> Arrays {
        (
            b.sq[0].clone(),
            b.sq[1].clone(),
            b.cross[0].clone(),
            b.cross[1].clone(),
            b.cross_score[0].clone(),
            b.cross_score[1].clone(),
            b.count,
        )
    }

    /// For every move of positions along self-played games: what
    /// `Board::play` changes is among the squares saved, and undo gives
    /// back the board exactly.
    #[test]
    fn a_play_changes_only_the_squares_it_saves() {
        let lex = Lexicon::embedded();
        let tiles = TileSet::named("english", lex.alphabet()).unwrap();
        let mut generator = Generator::new();
        let mut checked = 0;
        for seed in [1, 2] {
            let mut game = Game::new(&lex, Layout::standard(), tiles.clone(), 2, seed).unwrap();
            while !game.is_over() {
                let mut all = All::default();
                generator.generate(game.board(), game.rack(game.to_move()), &mut all);
                let before = arrays(game.board());
                let n = game.board().size();
                for mv in all.moves.iter().step_by(7) {
                    let mut save = Squares::default();
                    save.save(game.board(), mv);
                    let mut b = game.board().clone();
                    b.play(mv).unwrap();
                    let after = arrays(&b);
                    let saved: Vec<usize> = save.0.iter().map(|s| s.at as usize).collect();
                    for i in 0..n * n {
                        let (r, c) = (i / n, i % n);
                        let j = c * n + r;
                        let changed = before.0[i] != after.0[i]
                            || before.2[i] != after.2[i]
                            || before.3[j] != after.3[j]
                            || before.4[i] != after.4[i]
                            || before.5[j] != after.5[j];
                        assert!(
                            !changed || saved.contains(&i),
                            "{}: square {r},{c} changed, not saved",
                            mv.notation(lex.alphabet())
                        );
                    }
                    save.restore(0, &mut b);
                    b.count = before.6;
                    assert!(arrays(&b) == before, "{}", mv.notation(lex.alphabet()));
                    checked += 1;
                }
                let best = all.into_sorted();
                match best.first() {
                    Some(m) => game.apply(m).unwrap(),
                    None => game.apply(&Move::pass()).unwrap(),
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }
}
