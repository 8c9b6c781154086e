//! [`Board`]: the tiles on the board, and for every empty square the cross
//! sets and cross scores the move generator needs, kept up to date as moves
//! are played.
//!
//! Squares are kept twice, once per direction, so that the generator reads
//! any row or column as one contiguous line: line `i` of direction 0 is row
//! `i`, line `i` of direction 1 is column `i`. A square's *cross set* for a
//! direction is the set of tiles that may be placed on it by a play in that
//! direction: those that form a word with the tiles touching it in the other
//! direction (every tile if none touch). Its *cross score* is the value of
//! those touching tiles (`-1` when none).

use crate::alphabet::Alphabet;
use crate::alphabet::letterset::LetterSet;
use crate::alphabet::tileset::TileSet;
use crate::game::error::{Error, Result};
use crate::game::layout::{Layout, MAX_SIZE};
use crate::game::moves::{Move, MoveKind, THROUGH};
use crate::game::notation::{self, Written};
use crate::game::position_error::{PositionError, PositionErrorKind};
use crate::game::rack::{Rack, push_tile};
use crate::lexicon::Lexicon;
use crate::lexicon::raw::{Arcs, Node};

pub use crate::alphabet::BLANK;

/// A board position with its cross sets.
///
/// ```
/// use lexq::{game::Board, game::Layout, Lexicon, game::Rack, TileSet};
/// let lex = Lexicon::embedded();
/// let tiles = TileSet::named("english", lex.alphabet())?;
/// let mut board = Board::new(&lex, Layout::standard(), tiles)?;
/// let rack = Rack::parse("CARE", lex.alphabet())?;
/// let mv = board.check_move(&board.parse_move("8E CARE")?, &rack)?;
/// board.play(&mv)?;
/// assert_eq!(board.to_cgp_rows(), "15/15/15/15/15/15/15/4CARE7/15/15/15/15/15/15/15");
/// // Below the E of CARE (8E) only letters making a two-letter word fit.
/// let below = board.cross_set(8, 7, true);
/// assert!(below.contains(lex.alphabet().encode("X").unwrap()[0])); // EX
/// assert!(!below.contains(lex.alphabet().encode("Z").unwrap()[0]));
/// # Ok::<(), lexq::game::Error>(())
/// ```
#[derive(Clone)]
pub struct Board<'a> {
    pub(crate) lex: &'a Lexicon,
    pub(crate) arcs: &'a Arcs,
    pub(crate) layout: Layout,
    pub(crate) tiles: TileSet,
    pub(crate) n: usize,
    /// Per direction, line-major: 0 empty, else code (| BLANK).
    pub(crate) sq: [Vec<u8>; 2],
    /// Per direction, line-major: the cross set (empty on occupied squares).
    pub(crate) cross: [Vec<u64>; 2],
    /// Per direction, line-major: the cross score, -1 without cross word.
    pub(crate) cross_score: [Vec<i16>; 2],
    /// Per direction, line-major: letter and word multipliers.
    pub(crate) lmul: [Vec<u8>; 2],
    pub(crate) wmul: [Vec<u8>; 2],
    /// Values per code, blanks (and BLANK-flagged codes) 0.
    pub(crate) values: [i32; 256],
    /// Every tile of the alphabet.
    pub(crate) all: u64,
    pub(crate) count: usize,
}

impl std::fmt::Debug for Board<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Board({:?})", self.to_cgp_rows())
    }
}

/// The most points one move may be able to score on a board: a layout
/// and tile set whose [`move_score_bound`] is higher are refused by
/// [`Board::new`]. Scores, equities in millipoints (a score times 1000
/// plus a leave value within ±1,000,000 points) and a game's totals then
/// all fit in an `i32`.
pub const MAX_MOVE_SCORE: i64 = 1_000_000;

/// An upper bound on the score of any move with `layout` and `tiles`,
/// whatever the bingo bonus (a tile set's is at most 1000). On each line
/// of `n` squares, with `v` the largest tile value, `r` the rack size and
/// `l_i`, `w_i` the letter and word multipliers of square `i`: the main
/// word is at most `v Σ l_i` times the product of the line's `r` largest
/// word multipliers, and the cross words at most the sum of the `r`
/// largest `((n - 1) + l_i) v w_i` (a full line through each new tile);
/// the bound is the largest line's sum plus 1000. It also bounds the
/// move generator's own score bounds. Computed in `i128`, so that it
/// cannot overflow.
pub fn move_score_bound(layout: &Layout, tiles: &TileSet) -> i128 {
    let n = layout.size();
    let r = tiles.rack_size().min(n);
    let v = i128::from(tiles.values().iter().copied().max().unwrap_or(0).max(0));
    let mut best = 0i128;
    let mut words = Vec::with_capacity(n);
    let mut crosses = Vec::with_capacity(n);
    for d in 0..2 {
        for line in 0..n {
            words.clear();
            crosses.clear();
            let mut letters = 0i128;
            for i in 0..n {
                let (row, col) = if d == 0 { (line, i) } else { (i, line) };
                let l = i128::from(layout.letter_mult(row, col).max(1));
                let w = i128::from(layout.word_mult(row, col).max(1));
                letters += l;
                words.push(w);
                crosses.push((n as i128 - 1 + l) * v * w);
            }
            words.sort_unstable_by(|a, b| b.cmp(a));
            crosses.sort_unstable_by(|a, b| b.cmp(a));
            let w: i128 = words.iter().take(r).product();
            let cross: i128 = crosses.iter().take(r).sum();
            best = best.max(v * letters * w + cross);
        }
    }
    best + 1000
}

impl<'a> Board<'a> {
    /// An empty board with `layout` and `tiles`, for words of `lex`.
    /// Refused ([`PositionErrorKind::Unsupported`]) when a move could
    /// score more than [`MAX_MOVE_SCORE`] (many word multipliers on a
    /// line, tile values near the cap of 1000): checked once here, so
    /// that scoring and equity never overflow.
    pub fn new(lex: &'a Lexicon, layout: Layout, tiles: TileSet) -> Result<Board<'a>> {
        let bound = move_score_bound(&layout, &tiles);
        if bound > i128::from(MAX_MOVE_SCORE) {
            return Err(PositionError::new(
                "board",
                PositionErrorKind::Unsupported(format!(
                    "this board layout and tile set could score {bound} points in one move; \
                     lexq plays boards whose moves score at most {MAX_MOVE_SCORE} \
                     (fewer word multipliers on a line, or lower tile values)"
                )),
            )
            .into());
        }
        let arcs = lex.arcs();
        let n = layout.size();
        let mut lmul = [vec![1u8; n * n], vec![1u8; n * n]];
        let mut wmul = [vec![1u8; n * n], vec![1u8; n * n]];
        for r in 0..n {
            for c in 0..n {
                lmul[0][r * n + c] = layout.letter_mult(r, c);
                wmul[0][r * n + c] = layout.word_mult(r, c);
                lmul[1][c * n + r] = layout.letter_mult(r, c);
                wmul[1][c * n + r] = layout.word_mult(r, c);
            }
        }
        let mut values = [0i32; 256];
        for code in 1..64u8 {
            values[code as usize] = tiles.value(code);
        }
        let all = lex.alphabet().letters().0;
        Ok(Board {
            lex,
            arcs,
            layout,
            tiles,
            n,
            sq: [vec![0; n * n], vec![0; n * n]],
            cross: [vec![all; n * n], vec![all; n * n]],
            cross_score: [vec![-1; n * n], vec![-1; n * n]],
            lmul,
            wmul,
            values,
            all,
            count: 0,
        })
    }

    /// The lexicon.
    pub fn lexicon(&self) -> &'a Lexicon {
        self.lex
    }

    /// The lexicon's alphabet.
    pub fn alphabet(&self) -> &'a Alphabet {
        self.lex.alphabet()
    }

    /// The layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The tile set.
    pub fn tile_set(&self) -> &TileSet {
        &self.tiles
    }

    /// Sets the bingo bonus, kept within 0 to 1000 (a tile set's range,
    /// which [`MAX_MOVE_SCORE`] allows for).
    pub fn set_bingo(&mut self, bonus: i32) {
        self.tiles.set_bingo(bonus.clamp(0, 1000));
    }

    /// The number of rows (and columns).
    pub fn size(&self) -> usize {
        self.n
    }

    /// The number of tiles on the board.
    pub fn tile_count(&self) -> usize {
        self.count
    }

    /// Whether no tile is on the board.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The tile at `(row, col)`: 0 if empty, else its code, with [`BLANK`]
    /// set for a blank. Off the board: 0.
    #[inline]
    pub fn tile(&self, row: usize, col: usize) -> u8 {
        if row < self.n && col < self.n {
            self.sq[0][row * self.n + col]
        } else {
            0
        }
    }

    /// The tiles a play in direction `across` may place on empty square
    /// `(row, col)` (the empty set on an occupied square).
    pub fn cross_set(&self, row: usize, col: usize, across: bool) -> LetterSet {
        let (d, i) = self.index(row, col, across);
        LetterSet(self.cross[d][i])
    }

    /// The value of the tiles a play in direction `across` on empty square
    /// `(row, col)` joins in the other direction, or `None` if it joins none.
    pub fn cross_score(&self, row: usize, col: usize, across: bool) -> Option<i32> {
        let (d, i) = self.index(row, col, across);
        let s = self.cross_score[d][i];
        (s >= 0).then_some(s as i32)
    }

    #[inline]
    fn index(&self, row: usize, col: usize, across: bool) -> (usize, usize) {
        if across {
            (0, row * self.n + col)
        } else {
            (1, col * self.n + row)
        }
    }

    /// Puts a tile on an empty square without updating cross sets (call
    /// [`Board::refresh`] after a batch of these).
    pub(crate) fn put(&mut self, row: usize, col: usize, tile: u8) {
        let n = self.n;
        if self.sq[0][row * n + col] == 0 {
            self.count += 1;
        }
        self.sq[0][row * n + col] = tile;
        self.sq[1][col * n + row] = tile;
    }

    /// Recomputes every cross set (see [`Board::refresh_line`]).
    pub(crate) fn refresh(&mut self) {
        for d in 0..2 {
            for pos in 0..self.n {
                self.refresh_line(d, pos);
            }
        }
    }

    /// Recomputes the cross sets, for plays in direction `d`, of the
    /// squares of line `pos` of the other direction (the line that makes
    /// their cross words): squares touching no tile along it allow every
    /// letter; then each run of tiles sets the squares at its two ends,
    /// the run followed once for both.
    fn refresh_line(&mut self, d: usize, pos: usize) {
        let n = self.n;
        for k in 0..n {
            let i = k * n + pos;
            self.cross[d][i] = if self.sq[d][i] == 0 { self.all } else { 0 };
            self.cross_score[d][i] = -1;
        }
        let mut a = 0;
        while a < n {
            if self.sq[1 - d][pos * n + a] == 0 {
                a += 1;
                continue;
            }
            let mut b = a + 1;
            while b < n && self.sq[1 - d][pos * n + b] != 0 {
                b += 1;
            }
            // A square between this run and the last was set as the last
            // one's end.
            let joined = a > 1 && self.sq[1 - d][pos * n + a - 2] != 0;
            self.cross_run_ends(d, pos, a, b, !joined);
            a = b;
        }
    }

    /// The tiles, row by row (`size() * size()` squares): 0 for an empty
    /// square, else the tile's code, with [`BLANK`] set for a blank.
    pub fn tiles(&self) -> &[u8] {
        &self.sq[0]
    }

    /// Replaces the board's tiles with `tiles` (row by row, as
    /// [`Board::tiles`] gives them), recomputing the cross sets of only
    /// the rows and columns whose tiles changed: a bot that sets the
    /// positions of one game in turn on one board reads most of its cross
    /// sets from the last. Tiles need not be connected (the moves listed
    /// are those that touch a tile). The wrong number of squares or a
    /// code outside the alphabet is an error, and the board is left as it
    /// was.
    ///
    /// ```
    /// use lexq::{game::Board, game::Layout, Lexicon, game::Position, TileSet};
    /// let lex = Lexicon::embedded();
    /// let pos = Position::from_cgp(&lex,
    ///     "15/15/15/15/15/15/15/4CARE7/15/15/15/15/15/15/15 AEINRST/ 12/0 0")?;
    /// let tiles = TileSet::named("english", lex.alphabet())?;
    /// let mut board = Board::new(&lex, Layout::standard(), tiles)?;
    /// board.set_tiles(pos.board.tiles())?;
    /// assert_eq!(board.to_cgp_rows(), pos.board.to_cgp_rows());
    /// assert_eq!(board.cross_set(8, 7, true), pos.board.cross_set(8, 7, true));
    /// assert!(board.set_tiles(&[0; 3]).is_err());
    /// # Ok::<(), lexq::game::Error>(())
    /// ```
    pub fn set_tiles(&mut self, tiles: &[u8]) -> std::result::Result<(), PositionError> {
        let n = self.n;
        if tiles.len() != n * n {
            return Err(Board::illegal(format!(
                "{} squares for a {n}x{n} board",
                tiles.len()
            )));
        }
        let bad = |t: u8| t != 0 && (t & !(BLANK | 63) != 0 || self.all & (1u64 << (t & 63)) == 0);
        if tiles.iter().any(|&t| bad(t)) {
            return Err(Board::illegal("a tile outside the alphabet".into()));
        }
        // Rows and columns whose tiles change (boards are at most 25x25).
        let (mut rows, mut cols) = (0u32, 0u32);
        for (i, (&new, old)) in tiles.iter().zip(self.sq[0].iter_mut()).enumerate() {
            if new != *old {
                *old = new;
                rows |= 1 << (i / n);
                cols |= 1 << (i % n);
            }
        }
        if rows == 0 {
            return Ok(());
        }
        for (i, &t) in tiles.iter().enumerate() {
            self.sq[1][(i % n) * n + i / n] = t;
        }
        self.count = tiles.iter().filter(|&&t| t != 0).count();
        // Across plays take their cross words from the columns, down plays
        // from the rows.
        for c in 0..n {
            if cols & (1 << c) != 0 {
                self.refresh_line(0, c);
            }
        }
        for r in 0..n {
            if rows & (1 << r) != 0 {
                self.refresh_line(1, r);
            }
        }
        Ok(())
    }

    /// Sets the cross sets, for plays in direction `d`, of the empty
    /// squares just before and after the run of tiles `a..b` of line `pos`
    /// of the other direction. A run read right to left from the root is
    /// the node of both: the letters ending a key there may go before it
    /// (keys `rev(L run)`), and past the separator, the letters ending a
    /// key may go after it (`rev(run) SEP L`). A square between two runs
    /// takes the general computation. The square before the run is left
    /// as it is unless `before`.
    fn cross_run_ends(&mut self, d: usize, pos: usize, a: usize, b: usize, before: bool) {
        let n = self.n;
        let p = &self.sq[1 - d][pos * n..pos * n + n];
        let before = a.checked_sub(1).filter(|_| before);
        let after = (b < n).then_some(b);
        let between = |k: usize| (k > 0 && p[k - 1] != 0) && (k + 1 < n && p[k + 1] != 0);
        let g = self.arcs;
        let node = p[a..b]
            .iter()
            .rev()
            .try_fold(g.root(), |node, &t| node.follow(t & 63));
        let score: i32 = p[a..b].iter().map(|&t| self.values[t as usize]).sum();
        let score = score.min(i16::MAX as i32) as i16;
        let mut ends = [(usize::MAX, 0u64, -1i16); 2];
        if let Some(k) = before {
            ends[0] = if between(k) {
                let (set, s) = self.compute_cross(d, k, pos);
                (k, set, s)
            } else {
                let set = node.map_or(0, |nd| nd.ending_letters().0);
                (k, set & self.all, score)
            };
        }
        if let Some(k) = after {
            ends[1] = if between(k) {
                let (set, s) = self.compute_cross(d, k, pos);
                (k, set, s)
            } else {
                let set = node
                    .and_then(|nd| nd.separator())
                    .map_or(0, |nd| nd.ending_letters().0);
                (k, set & self.all, score)
            };
        }
        for (k, set, s) in ends {
            if k != usize::MAX {
                self.cross[d][k * n + pos] = set;
                self.cross_score[d][k * n + pos] = s;
            }
        }
    }

    fn compute_cross(&self, d: usize, line: usize, pos: usize) -> (u64, i16) {
        let n = self.n;
        // The perpendicular line through the square is line `pos` of the
        // other direction; the square is at position `line` in it.
        let p = &self.sq[1 - d][pos * n..pos * n + n];
        let k = line;
        let mut a = k;
        while a > 0 && p[a - 1] != 0 {
            a -= 1;
        }
        let mut b = k + 1;
        while b < n && p[b] != 0 {
            b += 1;
        }
        if a == k && b == k + 1 {
            return (self.all, -1);
        }
        let score: i32 = p[a..k]
            .iter()
            .chain(&p[k + 1..b])
            .map(|&t| self.values[t as usize])
            .sum();
        let g = self.arcs;
        let prefix = &p[a..k];
        let suffix = &p[k + 1..b];
        let follow_rev = |from: Node<'a>, run: &[u8]| -> Option<Node<'a>> {
            run.iter()
                .rev()
                .try_fold(from, |node, &t| node.follow(t & 63))
        };
        let set = if prefix.is_empty() {
            // Keys rev(L S) = rev(S) L.
            follow_rev(g.root(), suffix).map_or(0, |node| node.ending_letters().0)
        } else {
            match follow_rev(g.root(), prefix).and_then(|node| node.separator()) {
                None => 0,
                Some(node) if suffix.is_empty() => node.ending_letters().0,
                Some(node) => {
                    let (last, mid) = suffix.split_last().expect("non-empty suffix");
                    let mut set = 0u64;
                    for e in node.within(!1) {
                        let ok = mid
                            .iter()
                            .try_fold(e.target(), |nd, &t| nd.follow(t & 63))
                            .and_then(|nd| nd.edge(last & 63))
                            .is_some_and(|e2| e2.accepts());
                        if ok {
                            set |= 1u64 << e.code();
                        }
                    }
                    set
                }
            }
        };
        (set & self.all, score.min(i16::MAX as i32) as i16)
    }

    /// Plays a placement: puts its new tiles on the board and updates the
    /// cross sets of the squares they affect. Exchanges and passes leave the
    /// board as it is. Words are not checked (see [`Board::check_move`]);
    /// the squares are: a move off the board, onto an occupied square or
    /// through a tile that is not there is refused.
    pub fn play(&mut self, mv: &Move) -> std::result::Result<(), PositionError> {
        if mv.kind != MoveKind::Place {
            return Ok(());
        }
        self.check_squares(mv)?;
        let n = self.n;
        let (mut r, mut c) = (mv.row(), mv.col());
        let mut placed: [(usize, usize); MAX_SIZE] = [(0, 0); MAX_SIZE];
        let mut np = 0;
        for &t in mv.squares() {
            if t & THROUGH == 0 {
                self.put(r, c, t);
                placed[np] = (r, c);
                np += 1;
            }
            if mv.across() {
                c += 1;
            } else {
                r += 1;
            }
        }
        for &(r, c) in &placed[..np] {
            self.cross[0][r * n + c] = 0;
            self.cross[1][c * n + r] = 0;
            self.cross_score[0][r * n + c] = -1;
            self.cross_score[1][c * n + r] = -1;
        }
        // Across plays are constrained by columns, down plays by rows. The
        // run of the main word is the same for every placed tile; each
        // placed tile has its own run across it.
        let across = mv.across();
        for (i, &(r, c)) in placed[..np].iter().enumerate() {
            if i == 0 {
                let (line, at) = if across { (r, c) } else { (c, r) };
                let (a, b) = self.run(1 - across as usize, line, at);
                self.cross_run_ends(across as usize, line, a, b, true);
            }
            let (line, at) = if across { (c, r) } else { (r, c) };
            let (a, b) = self.run(across as usize, line, at);
            self.cross_run_ends(1 - across as usize, line, a, b, true);
        }
        Ok(())
    }

    /// The run of tiles `a..b` through position `pos` of line `line` in
    /// direction `d` (`pos` counted in, whether or not it holds a tile).
    fn run(&self, d: usize, line: usize, pos: usize) -> (usize, usize) {
        let n = self.n;
        let l = &self.sq[d][line * n..line * n + n];
        let mut a = pos;
        while a > 0 && l[a - 1] != 0 {
            a -= 1;
        }
        let mut b = pos + 1;
        while b < n && l[b] != 0 {
            b += 1;
        }
        (a, b)
    }

    fn illegal(s: String) -> PositionError {
        PositionError::new("move", PositionErrorKind::IllegalMove(s))
    }

    /// Checks that a placement fits: on the board, new tiles on empty
    /// squares, play-through tiles matching the board, at least one new
    /// tile, and the word not continuing past its ends.
    fn check_squares(&self, mv: &Move) -> std::result::Result<(), PositionError> {
        let (r0, c0, len) = (mv.row(), mv.col(), mv.squares().len());
        let (dr, dc) = if mv.across() { (0, 1) } else { (1, 0) };
        let end_r = r0 + dr * len.saturating_sub(1);
        let end_c = c0 + dc * len.saturating_sub(1);
        if len == 0 || end_r >= self.n || end_c >= self.n {
            return Err(Board::illegal(format!(
                "{} runs off the {}x{} board",
                mv.coordinate(),
                self.n,
                self.n
            )));
        }
        let mut new = 0;
        for (i, &t) in mv.squares().iter().enumerate() {
            let (r, c) = (r0 + dr * i, c0 + dc * i);
            let on = self.tile(r, c);
            if t & THROUGH != 0 {
                if on == 0 || on != t & !THROUGH {
                    return Err(Board::illegal(format!(
                        "square {} does not hold that tile",
                        notation::coordinate(r, c, true)
                    )));
                }
            } else {
                if on != 0 {
                    return Err(Board::illegal(format!(
                        "square {} is already occupied",
                        notation::coordinate(r, c, true)
                    )));
                }
                if t & 63 == 0 || t & 63 > self.alphabet().len() as u8 {
                    return Err(Board::illegal("a tile outside the alphabet".into()));
                }
                new += 1;
            }
        }
        if new == 0 {
            return Err(Board::illegal("the move places no tile".into()));
        }
        let before = (r0 >= dr && c0 >= dc) && self.tile(r0 - dr, c0 - dc) != 0;
        let after = self.tile(end_r + dr, end_c + dc) != 0;
        if before || after {
            return Err(Board::illegal(
                "the word continues past the letters given".into(),
            ));
        }
        Ok(())
    }

    /// Reads move notation (`8D CA(R)E`, `D8 ...`, `-ABC`, `-`) against this
    /// board. Letters over occupied squares are play-through tiles whether
    /// or not they are in parentheses (`.` stands for whatever is there). A
    /// one-tile placement is turned into the conventional listing: across
    /// if the tile has a horizontal neighbour, else down.
    pub fn parse_move(&self, text: &str) -> std::result::Result<Move, PositionError> {
        let written = notation::parse(text, self.alphabet())?;
        let (row, col, across, word) = match written {
            Written::Pass => return Ok(Move::pass()),
            Written::Exchange(tiles) => {
                if tiles.len() > MAX_SIZE {
                    return Err(Board::illegal("too many tiles to exchange".into()));
                }
                return Ok(Move::exchange(&tiles));
            }
            Written::Place {
                row,
                col,
                across,
                word,
            } => (row, col, across, word),
        };
        let (dr, dc) = if across { (0, 1) } else { (1, 0) };
        let coord = notation::coordinate(row, col, across);
        if row >= self.n || col >= self.n {
            return Err(Board::illegal(format!(
                "{coord} is off the {}x{} board",
                self.n, self.n
            )));
        }
        // `8L CARES`: five tiles from column L, four squares to the edge.
        let room = if across { self.n - col } else { self.n - row };
        if word.len() > room {
            return Err(Board::illegal(format!(
                "{coord} {}: {} tiles from {coord} run off the {}x{} board ({room} squares to its edge)",
                text.split_whitespace().nth(1).unwrap_or(""),
                word.len(),
                self.n,
                self.n
            )));
        }
        let mut squares = [0u8; MAX_SIZE];
        for (i, w) in word.iter().enumerate() {
            let (r, c) = (row + dr * i, col + dc * i);
            let on = self.tile(r, c);
            squares[i] = match (on, w.through) {
                (0, Some(true)) => {
                    return Err(Board::illegal(format!(
                        "square {} is empty, nothing to play through",
                        notation::coordinate(r, c, true)
                    )));
                }
                (0, _) => w.tile,
                (on, _) if w.tile == 0 || (w.tile & 63) == (on & 63) => on | THROUGH,
                (_, _) => {
                    let mut s = String::new();
                    push_tile(&mut s, self.alphabet(), on, false);
                    return Err(Board::illegal(format!(
                        "square {} holds {s}",
                        notation::coordinate(r, c, true)
                    )));
                }
            };
        }
        let mv = Move::place(row, col, across, &squares[..word.len()]);
        self.check_squares(&mv)?;
        Ok(self.canonical(mv))
    }

    /// A one-tile placement in its listing direction (across if the tile
    /// has a horizontal neighbour, else down), main word extended to the
    /// whole run.
    fn canonical(&self, mv: Move) -> Move {
        if mv.tiles_used() != 1 {
            return mv;
        }
        let i = mv
            .squares()
            .iter()
            .position(|&t| t & THROUGH == 0)
            .unwrap_or(0);
        let (r, c) = if mv.across() {
            (mv.row(), mv.col() + i)
        } else {
            (mv.row() + i, mv.col())
        };
        let t = mv.squares()[i];
        let horizontal = (c > 0 && self.tile(r, c - 1) != 0) || self.tile(r, c + 1) != 0;
        let vertical = (r > 0 && self.tile(r - 1, c) != 0) || self.tile(r + 1, c) != 0;
        let across = horizontal || !vertical;
        let d = if across { 0 } else { 1 };
        let (line, pos) = if across { (r, c) } else { (c, r) };
        let (start, b) = self.run(d, line, pos);
        let end = b - 1;
        let mut squares = [0u8; MAX_SIZE];
        for p in start..=end {
            squares[p - start] = if p == pos {
                t
            } else {
                self.sq[d][line * self.n + p] | THROUGH
            };
        }
        let (row, col) = if across { (r, start) } else { (start, c) };
        Move::place(row, col, across, &squares[..end - start + 1])
    }

    /// Every word a placement forms (the main word first, then one per new
    /// tile touching tiles in the other direction), as tile codes with
    /// [`BLANK`] flags. Words of one tile are not words and are left out.
    pub fn words_formed(&self, mv: &Move) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        if mv.kind != MoveKind::Place {
            return out;
        }
        let main: Vec<u8> = mv.squares().iter().map(|&t| t & !THROUGH).collect();
        if main.len() >= 2 {
            out.push(main);
        }
        let n = self.n;
        let pd = if mv.across() { 1 } else { 0 };
        for (i, &t) in mv.squares().iter().enumerate() {
            if t & THROUGH != 0 {
                continue;
            }
            let (r, c) = if mv.across() {
                (mv.row(), mv.col() + i)
            } else {
                (mv.row() + i, mv.col())
            };
            // The perpendicular line through (r, c): direction pd.
            let (line, pos) = if pd == 0 { (r, c) } else { (c, r) };
            let l = &self.sq[pd][line * n..line * n + n];
            let (a, b) = self.run(pd, line, pos);
            if b - a >= 2 {
                let mut w = l[a..b].to_vec();
                w[pos - a] = t;
                out.push(w);
            }
        }
        out
    }

    /// The score of a placement on this board (not checked for legality):
    /// premiums under new tiles only, every cross-word in full, blanks 0,
    /// the bingo bonus when a full rack is played. 0 for other moves.
    pub fn score(&self, mv: &Move) -> i32 {
        if mv.kind != MoveKind::Place {
            return 0;
        }
        let n = self.n;
        let (d, line, start) = if mv.across() {
            (0, mv.row(), mv.col())
        } else {
            (1, mv.col(), mv.row())
        };
        let (mut main, mut wm, mut cross, mut used) = (0i32, 1i32, 0i32, 0usize);
        for (i, &t) in mv.squares().iter().enumerate() {
            let idx = line * n + start + i;
            if t & THROUGH != 0 {
                main += self.values[(t & !THROUGH) as usize];
                continue;
            }
            used += 1;
            let v = self.values[t as usize] * self.lmul[d][idx] as i32;
            let w = self.wmul[d][idx] as i32;
            main += v;
            wm *= w;
            let cs = self.cross_score[d][idx];
            if cs >= 0 {
                cross += (cs as i32 + v) * w;
            }
        }
        if mv.squares().len() == 1 {
            // A lone tile's word is the one it forms the other way.
            main = 0;
        }
        let bingo = if used == self.tiles.rack_size() {
            self.tiles.bingo()
        } else {
            0
        };
        main * wm + cross + bingo
    }

    /// Checks a move against the board and `rack` and scores it: the tiles
    /// must fit (see [`Board::play`]), be on the rack (a lowercase letter
    /// spends a blank), connect to the tiles on the board (or cover the
    /// start square with at least two tiles on an empty board). Returns the
    /// scored move and the words it forms that the lexicon lacks (phonies
    /// are not an error here: a game record may hold them).
    pub fn score_play(
        &self,
        mv: &Move,
        rack: &Rack,
    ) -> std::result::Result<(Move, Vec<String>), PositionError> {
        let mut left = *rack;
        for t in mv.spent() {
            if !left.remove(t) {
                let mut s = String::new();
                push_tile(&mut s, self.alphabet(), t, true);
                return Err(Board::illegal(format!(
                    "{} is not on the rack {}",
                    s,
                    rack.to_string(self.alphabet())
                )));
            }
        }
        let mut out = *mv;
        match mv.kind {
            MoveKind::Pass => return Ok((out, Vec::new())),
            MoveKind::Exchange => {
                out.score = 0;
                return Ok((out, Vec::new()));
            }
            MoveKind::Place => {}
        }
        self.check_squares(mv)?;
        let used = mv.tiles_used();
        let through = mv.squares().len() - used;
        if self.is_empty() {
            let (sr, sc) = self.layout.start();
            let covers = (0..mv.squares().len()).any(|i| {
                let (r, c) = if mv.across() {
                    (mv.row(), mv.col() + i)
                } else {
                    (mv.row() + i, mv.col())
                };
                (r, c) == (sr, sc)
            });
            if !covers {
                return Err(Board::illegal(format!(
                    "the first move must cover the start square {}",
                    notation::coordinate(sr, sc, true)
                )));
            }
            if used < 2 {
                return Err(Board::illegal(
                    "the first move must place at least two tiles".into(),
                ));
            }
        } else {
            let words = self.words_formed(mv);
            let touches = through > 0 || words.len() > usize::from(mv.squares().len() >= 2);
            if !touches {
                return Err(Board::illegal(
                    "the move does not touch any tile on the board".into(),
                ));
            }
        }
        let phonies = self
            .words_formed(mv)
            .into_iter()
            .filter(|w| {
                let codes: Vec<u8> = w.iter().map(|&t| t & 63).collect();
                !self.arcs.root().is_word(&codes)
            })
            .map(|w| {
                let mut s = String::new();
                for &t in &w {
                    push_tile(&mut s, self.alphabet(), t & 63, false);
                }
                s
            })
            .collect();
        out.score = self.score(mv);
        Ok((out, phonies))
    }

    /// [`Board::score_play`], with phony words an error.
    pub fn check_move(&self, mv: &Move, rack: &Rack) -> Result<Move> {
        let (mv, phonies) = self.score_play(mv, rack)?;
        if !phonies.is_empty() {
            return Err(Error::from(PositionError::new(
                "move",
                PositionErrorKind::Phony(phonies),
            )));
        }
        Ok(mv)
    }

    /// The board part of a CGP line: rows separated by `/`, runs of empty
    /// squares as numbers, blanks lowercase, multi-letter tiles `[CH]`.
    pub fn to_cgp_rows(&self) -> String {
        let mut s = String::new();
        let n = self.n;
        for r in 0..n {
            if r > 0 {
                s.push('/');
            }
            let mut empty = 0;
            for c in 0..n {
                let t = self.sq[0][r * n + c];
                if t == 0 {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    s.push_str(&empty.to_string());
                    empty = 0;
                }
                push_tile(&mut s, self.alphabet(), t, true);
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
        }
        s
    }
}
