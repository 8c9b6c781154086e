//! [`Position`]: a whole game position, read from and written to CGP, the
//! one-line position format of the open-protocols project:
//!
//! ```text
//! <board> <racks> <scores> <zeros> [<opcode> <operands>;]*
//! ```
//!
//! Rows top to bottom separated by `/`, numbers for runs of empty squares,
//! uppercase tiles, lowercase blanks, `[CH]` for a multi-letter tile; racks
//! and scores `/`-separated, the player to move first, `?` a blank; zeros
//! the number of scoreless turns in a row. Opcodes lexq honours: `bb`
//! (bingo bonus), `ld` (tile set), `bdn` (board layout), `var` (only the
//! classic game), `lex` (the lexicon: the caller opens it, see
//! [`lexicon_name`] and [`FilePolicy::lexicon`]). Every opcode, known or
//! not, is kept and written back in order, so parsing then writing gives
//! the same line.
//!
//! `bdn` and `ld` give built-in names, or paths of files: which files a
//! line may name is the caller's choice, a [`FilePolicy`]
//! ([`Position::from_cgp`] allows none).

use crate::alphabet::BLANK;
use crate::alphabet::tileset::TileSet;
use crate::files::policy::FilePolicy;
use crate::game::board::Board;
use crate::game::error::Result;
use crate::game::layout::{Layout, MAX_SIZE};
use crate::game::moves::{Move, MoveKind};
use crate::game::position_error::{PositionError, PositionErrorKind};
use crate::game::rack::{Rack, parse_tiles, push_tile, read_tile};
use crate::lexicon::Lexicon;

/// One CGP opcode with its operands as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opcode {
    /// The opcode (`bb`, `lex`, ...).
    pub name: String,
    /// Its operands, as one string (may be empty).
    pub args: String,
}

/// A game position: board, racks, scores, scoreless-turn count, opcodes.
///
/// ```
/// use lexq::{Lexicon, game::Position};
/// let lex = Lexicon::embedded();
/// let line = "15/15/15/15/15/15/15/4CARE7/15/15/15/15/15/15/15 AEINRST/ 12/0 0 lex NWL20;";
/// let pos = Position::from_cgp(&lex, line)?;
/// assert_eq!(pos.to_cgp(), line);
/// assert_eq!(pos.rack().len(), 7);
/// # Ok::<(), lexq::game::Error>(())
/// ```
#[derive(Clone)]
pub struct Position<'a> {
    /// The board.
    pub board: Board<'a>,
    /// Each player's rack as written (tile codes, 0 for a blank), the
    /// player to move first.
    pub racks: Vec<Vec<u8>>,
    /// Each player's score, same order.
    pub scores: Vec<i32>,
    /// Consecutive scoreless turns before this position.
    pub zeros: u32,
    /// Opcodes, in order.
    pub ops: Vec<Opcode>,
}

fn err(column: usize, kind: PositionErrorKind) -> PositionError {
    PositionError::new("CGP", kind).at_column(column)
}

fn syntax(column: usize, s: impl Into<String>) -> PositionError {
    err(column, PositionErrorKind::Syntax(s.into()))
}

/// Splits `line` into (1-based char column, field) on whitespace.
fn fields(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (b, ch) in line
        .char_indices()
        .chain(std::iter::once((line.len(), ' ')))
    {
        match (ch.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((line[..s].chars().count() + 1, &line[s..b]));
                start = None;
            }
            (false, None) => start = Some(b),
            _ => {}
        }
    }
    out
}

/// The opcodes of a CGP line (everything after the zeros field), as
/// written. Malformed lines give what could be read.
pub fn opcodes(line: &str) -> Vec<Opcode> {
    let f = fields(line);
    if f.len() <= 4 {
        return Vec::new();
    }
    let col = f[4].0;
    let byte = line
        .char_indices()
        .nth(col - 1)
        .map_or(line.len(), |(b, _)| b);
    split_ops(&line[byte..])
}

fn split_ops(text: &str) -> Vec<Opcode> {
    text.split(';')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            let (name, args) = s.split_once(char::is_whitespace).unwrap_or((s, ""));
            Opcode {
                name: name.to_string(),
                args: args.trim().to_string(),
            }
        })
        .collect()
}

/// The lexicon a CGP line names with `lex`, if any.
pub fn lexicon_name(line: &str) -> Option<String> {
    opcodes(line)
        .into_iter()
        .find(|o| o.name == "lex")
        .map(|o| o.args)
}

impl std::fmt::Debug for Position<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({:?})", self.to_cgp())
    }
}

impl<'a> Position<'a> {
    /// Reads a CGP line, with words from `lex` (the caller picks the
    /// lexicon, for example by [`lexicon_name`]). An impossible position (a
    /// board of the wrong size, more tiles of a letter than the set holds,
    /// a floating tile, a rack too big, a letter outside the alphabet) is
    /// an error naming the column.
    ///
    /// `bdn` and `ld` may give built-in names only: no file is opened,
    /// whoever wrote the line ([`FilePolicy::builtin_only`]; see
    /// [`Position::from_cgp_with`] to allow files).
    pub fn from_cgp(lex: &'a Lexicon, line: &str) -> Result<Position<'a>> {
        Position::from_cgp_with(lex, line, &FilePolicy::builtin_only())
    }

    /// [`Position::from_cgp`], with the files `bdn` and `ld` may name
    /// given by `files` (see [`FilePolicy`]).
    pub fn from_cgp_with(lex: &'a Lexicon, line: &str, files: &FilePolicy) -> Result<Position<'a>> {
        let line = line.trim_end_matches(['\n', '\r']);
        let f = fields(line);
        if f.len() < 4 {
            return Err(syntax(
                line.chars().count().max(1),
                "expected <board> <racks> <scores> <zeros> [opcodes]",
            )
            .into());
        }
        let ops = opcodes(line);
        let op = |name: &str| ops.iter().find(|o| o.name == name).map(|o| o.args.as_str());
        let alphabet = lex.alphabet();
        let (bcol, btext) = f[0];
        let rows: Vec<&str> = btext.split('/').collect();
        let layout = match op("bdn") {
            Some(name) => Layout::named_with(name, files)?,
            None => match rows.len() {
                15 => Layout::standard(),
                21 => Layout::super_board(),
                n => {
                    return Err(err(
                        bcol,
                        PositionErrorKind::BoardSize(format!(
                            "{n} rows; lexq knows 15x15 and 21x21 boards (others need bdn)"
                        )),
                    )
                    .into());
                }
            },
        };
        let n = layout.size();
        if rows.len() != n {
            return Err(err(
                bcol,
                PositionErrorKind::BoardSize(format!(
                    "{} rows, the {} board has {n}",
                    rows.len(),
                    layout.name()
                )),
            )
            .into());
        }
        if let Some(v) = op("var") {
            if !matches!(
                v.to_ascii_lowercase().as_str(),
                "classic" | "classic_super" | "crosswordgame"
            ) {
                return Err(err(
                    bcol,
                    PositionErrorKind::Unsupported(format!(
                        "variant {v:?}: lexq plays only the classic game"
                    )),
                )
                .into());
            }
        }
        let mut tiles = match op("ld") {
            Some(name) => TileSet::named_with(name, alphabet, files)?,
            None => TileSet::default_for(alphabet, n)?,
        };
        if let Some(bb) = op("bb") {
            match bb.parse::<i32>() {
                Ok(b) if (0..=1000).contains(&b) => tiles.set_bingo(b),
                _ => return Err(syntax(bcol, format!("bb {bb:?} is not a bonus 0 to 1000")).into()),
            }
        }
        let mut board = Board::new(lex, layout, tiles)?;
        // The board.
        let mut col = bcol;
        for (r, row) in rows.iter().enumerate() {
            let mut c = 0usize;
            let mut rest = *row;
            // The column of `rest`'s first character.
            let mut here = col;
            while let Some(ch) = rest.chars().next() {
                if ch.is_ascii_digit() {
                    let digits = rest
                        .find(|x: char| !x.is_ascii_digit())
                        .unwrap_or(rest.len());
                    let k: usize = rest[..digits].parse().unwrap_or(usize::MAX);
                    if k == 0 || k > n {
                        return Err(
                            syntax(here, format!("{:?} empty squares", &rest[..digits])).into()
                        );
                    }
                    c = c.saturating_add(k);
                    rest = &rest[digits..];
                    here += digits;
                } else {
                    let (tile, len) = if ch == '[' {
                        match rest.find(']') {
                            Some(e) => (&rest[1..e], e + 1),
                            None => return Err(syntax(here, "an unclosed [").into()),
                        }
                    } else {
                        (&rest[..ch.len_utf8()], ch.len_utf8())
                    };
                    let code = read_tile(tile, alphabet).ok_or_else(|| {
                        err(here, PositionErrorKind::NotInAlphabet(tile.to_string()))
                    })?;
                    if c < n {
                        board.put(r, c, code);
                    }
                    c += 1;
                    here += rest[..len].chars().count();
                    rest = &rest[len..];
                }
                if c > n {
                    return Err(err(
                        here,
                        PositionErrorKind::BoardSize(format!(
                            "row {} is longer than {n} squares",
                            r + 1
                        )),
                    )
                    .into());
                }
            }
            if c != n {
                return Err(err(
                    col,
                    PositionErrorKind::BoardSize(format!(
                        "row {} has {c} squares, the board {n}",
                        r + 1
                    )),
                )
                .into());
            }
            col += row.chars().count() + 1;
        }
        // Racks.
        let (rcol, rtext) = f[1];
        let mut racks = Vec::new();
        let mut col = rcol;
        for part in rtext.split('/') {
            let tiles = parse_tiles(part, alphabet, "CGP").map_err(|mut e| {
                e.column = Some(col + e.column.unwrap_or(1) - 1);
                e
            })?;
            if tiles.iter().any(|&t| t & BLANK != 0) {
                return Err(syntax(col, "racks are written in uppercase (? for a blank)").into());
            }
            if tiles.len() > board.tiles.rack_size() {
                return Err(err(
                    col,
                    PositionErrorKind::RackTooBig {
                        len: tiles.len(),
                        max: board.tiles.rack_size(),
                    },
                )
                .into());
            }
            racks.push(tiles);
            col += part.chars().count() + 1;
        }
        // Scores.
        let (scol, stext) = f[2];
        let mut scores = Vec::new();
        for part in stext.split('/') {
            match part.parse::<i32>() {
                Ok(s) if (-100_000..=100_000).contains(&s) => scores.push(s),
                _ => return Err(syntax(scol, format!("{part:?} is not a score")).into()),
            }
        }
        if scores.len() != racks.len() {
            return Err(syntax(
                scol,
                format!("{} scores for {} racks", scores.len(), racks.len()),
            )
            .into());
        }
        let (zcol, ztext) = f[3];
        let zeros = match ztext.parse::<u32>() {
            // Any count: a game over at six stays over at a million, and
            // `lexq gcg` writes what a replay of such a file counts.
            Ok(z) => z,
            Err(_) => {
                return Err(
                    syntax(zcol, format!("{ztext:?} is not a count of scoreless turns")).into(),
                );
            }
        };
        let pos = Position {
            board,
            racks,
            scores,
            zeros,
            ops,
        };
        pos.check_possible(bcol)?;
        let mut pos = pos;
        pos.board.refresh();
        Ok(pos)
    }

    /// Tile counts within the set, every tile connected to the start square.
    fn check_possible(&self, bcol: usize) -> std::result::Result<(), PositionError> {
        let b = &self.board;
        let n = b.size();
        let sq = &b.sq[0];
        let mut used = [0usize; 64];
        for &t in sq {
            if t != 0 {
                used[if t & BLANK != 0 { 0 } else { (t & 63) as usize }] += 1;
            }
        }
        for rack in &self.racks {
            for &t in rack {
                used[(t & 63) as usize] += 1;
            }
        }
        for (code, &k) in used.iter().enumerate() {
            let max = b.tiles.count(code as u8);
            if k > max {
                let mut tile = String::new();
                push_tile(&mut tile, b.alphabet(), code as u8, false);
                return Err(err(
                    bcol,
                    PositionErrorKind::TooManyTiles {
                        tile,
                        count: k,
                        max,
                    },
                ));
            }
        }
        if b.is_empty() {
            return Ok(());
        }
        // Every tile must be joined to the start square's: a flood fill
        // from it, over a square grid of tiles.
        let (sr, sc) = b.layout().start();
        let mut seen = [false; MAX_SIZE * MAX_SIZE];
        let mut stack = [(0u8, 0u8); MAX_SIZE * MAX_SIZE];
        let mut top = 0;
        if sq[sr * n + sc] != 0 {
            seen[sr * n + sc] = true;
            stack[0] = (sr as u8, sc as u8);
            top = 1;
        }
        let mut joined = top;
        while top > 0 {
            top -= 1;
            let (r, c) = (stack[top].0 as usize, stack[top].1 as usize);
            let near = [
                (r.wrapping_sub(1), c),
                (r + 1, c),
                (r, c.wrapping_sub(1)),
                (r, c + 1),
            ];
            for (rr, cc) in near {
                if rr >= n || cc >= n {
                    continue;
                }
                let j = rr * n + cc;
                if sq[j] != 0 && !seen[j] {
                    seen[j] = true;
                    stack[top] = (rr as u8, cc as u8);
                    top += 1;
                    joined += 1;
                }
            }
        }
        if joined < b.tile_count() {
            let i = (0..n * n).find(|&i| sq[i] != 0 && !seen[i]).unwrap_or(0);
            return Err(err(
                bcol,
                PositionErrorKind::Floating {
                    row: i / n,
                    col: i % n,
                },
            ));
        }
        if b.tile_count() == 1 {
            return Err(syntax(
                bcol,
                "a single tile on the board (the first move places at least two)",
            ));
        }
        Ok(())
    }

    /// The CGP line of the position.
    pub fn to_cgp(&self) -> String {
        let a = self.board.alphabet();
        let mut s = self.board.to_cgp_rows();
        s.push(' ');
        for (i, rack) in self.racks.iter().enumerate() {
            if i > 0 {
                s.push('/');
            }
            for &t in rack {
                push_tile(&mut s, a, t, true);
            }
        }
        s.push(' ');
        let scores: Vec<String> = self.scores.iter().map(i32::to_string).collect();
        s.push_str(&scores.join("/"));
        s.push(' ');
        s.push_str(&self.zeros.to_string());
        for o in &self.ops {
            s.push(' ');
            s.push_str(&o.name);
            if !o.args.is_empty() {
                s.push(' ');
                s.push_str(&o.args);
            }
            s.push(';');
        }
        s
    }

    /// The rack of the player to move.
    pub fn rack(&self) -> Rack {
        Rack::from_codes(self.racks.first().map_or(&[][..], Vec::as_slice))
    }

    /// The tiles left in the bag: the tile set less the board's tiles and
    /// the racks written in the line; a rack left empty in the line (not
    /// known) is taken to be full, or to hold what is left if less.
    ///
    /// ```
    /// let lex = lexq::Lexicon::embedded();
    /// let empty = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15";
    /// let pos = lexq::game::Position::from_cgp(&lex, &format!("{empty} AEINRST/ 0/0 0"))?;
    /// assert_eq!(pos.bag_len(), 100 - 7 - 7);
    /// # Ok::<(), lexq::game::Error>(())
    /// ```
    pub fn bag_len(&self) -> usize {
        let tiles = &self.board.tiles;
        let written: usize = self.racks.iter().map(Vec::len).sum();
        let mut left = tiles
            .total()
            .saturating_sub(self.board.tile_count() + written);
        for _ in self.racks.iter().filter(|r| r.is_empty()) {
            left -= left.min(tiles.rack_size());
        }
        left
    }

    /// The value of opcode `name`, if present.
    pub fn opcode(&self, name: &str) -> Option<&str> {
        self.ops
            .iter()
            .find(|o| o.name == name)
            .map(|o| o.args.as_str())
    }

    /// Plays `mv` for the player to move (checked against the board and
    /// that player's rack, phonies refused): the board takes the tiles,
    /// the rack keeps its leave (nothing is drawn: the bag is unknown), the
    /// score grows, the scoreless-turn count follows, and the next player
    /// comes first. Returns the scored move.
    pub fn play(&mut self, mv: &Move) -> Result<Move> {
        let rack = self.rack();
        let mv = self.board.check_move(mv, &rack)?;
        self.board.play(&mv)?;
        if let Some(r) = self.racks.first_mut() {
            for t in mv.spent() {
                if mv.kind() == MoveKind::Place {
                    if let Some(i) = r.iter().position(|&x| x == t) {
                        r.remove(i);
                    }
                }
            }
        }
        if let Some(s) = self.scores.first_mut() {
            *s += mv.score();
        }
        if mv.score() == 0 {
            self.zeros += 1;
        } else {
            self.zeros = 0;
        }
        if self.racks.len() > 1 {
            self.racks.rotate_left(1);
            self.scores.rotate_left(1);
        }
        Ok(mv)
    }
}
