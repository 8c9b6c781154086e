//! GCG game files (Poslfit's format, v1.2): the record of a whole game.
//!
//! [`Game::parse`] reads every pragma and event line of the format into a
//! [`Game`]: the players, the title, lexicon and other pragmas (unknown ones
//! kept, never fatal), and the events in order, each with its line number:
//!
//! | line | event |
//! |---|---|
//! | `>nick: RACK 8D CA(R)E +12 40` | a play (across: row first; `H8` down) |
//! | `>nick: RACK - +0 40` | a pass |
//! | `>nick: RACK -ABC +0 40` | an exchange (`-3`: three unknown tiles) |
//! | `>nick: RACK -- -12 28` | the previous play was a phony, withdrawn |
//! | `>nick: RACK (challenge) +5 45` | challenge bonus (the rack may be left out) |
//! | `>nick: (ABC) +14 54` | end of game: the opponent's tiles |
//! | `>nick: RACK (ABC) -7 47` | end of game: one's own tiles, subtracted |
//! | `>nick: RACK (time) -10 37` | time penalty (the rack may be left out) |
//!
//! Play-through letters are written in parentheses (`CA(R)E`) or as `.`
//! (`CA.E`, as Quackle writes them); blanks are lowercase; multi-letter
//! tiles may be bracketed (`[CH]`). Text after the cumulative score is a
//! comment ([`Event::comment`]: Quackle's own files write the words formed
//! there, `+26 66 BE, ET, DO`). A rack written `UNKNOWN` is not known
//! (empty). Lines that follow a `#note` and start with neither `#` nor `>`
//! continue the note. Every malformed line is a [`GcgError`] naming its
//! line, its column and the problem.
//!
//! Players are declared by `#player1`, `#player2`, ... (`#player3` and on
//! for games of more than two). A file that declares fewer than two
//! players takes each new nickname its events use as the next player.
//!
//! The bytes are UTF-8, or what the first line's `#character-encoding`
//! names (`ISO-8859-1`, `ISO-8859-15`, `Windows-1252`, `UTF-16`); a
//! byte-order mark is skipped (and a UTF-16 one read as such). A file that
//! is not UTF-8 and says nothing is refused with the encoding it looks like.
//!
//! ```
//! use lexq::game::gcg::{EventKind, Game};
//! let game = Game::parse(
//!     "#player1 ann Ann Example\n\
//!      #player2 bob Bob Example\n\
//!      >ann: AEINRST 8D STAINER +66 66\n\
//!      >bob: EIOQUXZ - +0 0\n",
//! )?;
//! assert_eq!(game.players[0].as_ref().unwrap().name, "Ann Example");
//! let play = &game.events[0];
//! assert_eq!((play.line, play.player, play.score, play.cumulative), (3, 0, 66, 66));
//! assert!(matches!(&play.kind, EventKind::Play { word, .. } if word == "STAINER"));
//! assert_eq!(play.notation(), "8D STAINER");
//! assert_eq!(game.final_scores(), [66, 0]);
//! # Ok::<(), lexq::game::gcg::GcgError>(())
//! ```

use std::fmt;
use std::path::Path;

use crate::game::error::Result;
pub use crate::game::gcg_error::{GcgError, GcgErrorKind, MAX_PLAYERS};

/// The largest GCG file read, in bytes (a game is a few KiB).
pub const MAX_GCG_BYTES: u64 = 16 << 20;

/// A player, from `#player1 nick Full Name`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// The nickname events use.
    pub nick: String,
    /// The full name (the nickname if none was given).
    pub name: String,
}

/// A pragma line, as written: `#name value`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pragma {
    /// 1-based line number.
    pub line: usize,
    /// The name after `#` (`player1`, `title`, `lexicon`, ...).
    pub name: String,
    /// The rest of the line, trimmed.
    pub value: String,
}

/// A square and a direction: the start of a play's main word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Coord {
    /// 0-based row.
    pub row: usize,
    /// 0-based column.
    pub col: usize,
    /// Across (row written first) or down (column letter first).
    pub across: bool,
}

impl fmt::Display for Coord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let col = (b'A' + self.col as u8) as char;
        if self.across {
            write!(f, "{}{col}", self.row + 1)
        } else {
            write!(f, "{col}{}", self.row + 1)
        }
    }
}

/// What an event does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// Tiles placed: `8D CA(R)E`.
    Play {
        /// Where the main word starts, and its direction.
        coord: Coord,
        /// The main word as written: play-through letters in parentheses
        /// or as `.`, blanks lowercase.
        word: String,
    },
    /// `-`: a pass.
    Pass,
    /// `-ABC`: tiles exchanged.
    Exchange {
        /// The tiles put back, as written.
        tiles: String,
    },
    /// `-3`: an exchange of that many unknown tiles.
    ExchangeCount(usize),
    /// `--`: the player's previous play was challenged off the board.
    PhonyWithdrawn,
    /// `(challenge)`: a bonus for a play challenged in vain.
    ChallengeBonus,
    /// `(ABC)`: end of game, the points of the opponent's remaining tiles
    /// (`?` for a blank).
    EndRackPoints {
        /// The opponent's tiles.
        tiles: String,
    },
    /// `RACK (ABC)`: end of game, one's own remaining tiles subtracted.
    EndRackPenalty {
        /// The tiles left.
        tiles: String,
    },
    /// `(time)`: a time penalty.
    TimePenalty,
}

/// One event line (`>nick: ...`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// 1-based line number in the file.
    pub line: usize,
    /// 0 for `#player1`, 1 for `#player2`.
    pub player: usize,
    /// What happened.
    pub kind: EventKind,
    /// The player's rack before the event, as written (empty when not
    /// given).
    pub rack: String,
    /// The points the event adds (negative for withdrawn phonies and
    /// penalties).
    pub score: i32,
    /// The player's total after the event, as written.
    pub cumulative: i32,
    /// `#note` lines that follow the event.
    pub notes: Vec<String>,
    /// Text after the cumulative score (Quackle writes the words formed
    /// there), trimmed; empty if none.
    pub comment: String,
}

impl Event {
    /// The event as GCG writes its move: `8D CA(R)E`, `-`, `-ABC`, `--`,
    /// `(challenge)`, `(ABC)`, `(time)`.
    pub fn notation(&self) -> String {
        match &self.kind {
            EventKind::Play { coord, word } => format!("{coord} {word}"),
            EventKind::Pass => "-".into(),
            EventKind::Exchange { tiles } => format!("-{tiles}"),
            EventKind::ExchangeCount(n) => format!("-{n}"),
            EventKind::PhonyWithdrawn => "--".into(),
            EventKind::ChallengeBonus => "(challenge)".into(),
            EventKind::EndRackPoints { tiles } | EventKind::EndRackPenalty { tiles } => {
                format!("({tiles})")
            }
            EventKind::TimePenalty => "(time)".into(),
        }
    }
}

/// A parsed GCG file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Game {
    /// The players: `#player1`, `#player2`, ... in order (and, in a file
    /// declaring fewer than two, the nicknames its events introduce).
    pub players: Vec<Option<Player>>,
    /// `#title`.
    pub title: Option<String>,
    /// `#description`.
    pub description: Option<String>,
    /// `#id AUTHORITY ID`.
    pub id: Option<(String, String)>,
    /// `#lexicon`.
    pub lexicon: Option<String>,
    /// `#character-encoding` (first line only).
    pub encoding: Option<String>,
    /// `#game-type`.
    pub game_type: Option<String>,
    /// `#tile-set`.
    pub tile_set: Option<String>,
    /// `#tile-distribution`.
    pub tile_distribution: Option<String>,
    /// `#board-layout`.
    pub board_layout: Option<String>,
    /// `#rack1`, `#rack2`, ...: the racks at the end of an unfinished
    /// game (`UNKNOWN` is left out).
    pub racks: Vec<Option<String>>,
    /// `#incomplete` was given.
    pub incomplete: bool,
    /// Notes before the first event.
    pub notes: Vec<String>,
    /// Every pragma in file order, known or not.
    pub pragmas: Vec<Pragma>,
    /// The events in file order.
    pub events: Vec<Event>,
    /// What the reader had to guess, by line: an encoding the file does
    /// not name, players with the same nickname told apart by turn order.
    pub warnings: Vec<Warning>,
}

/// Something a GCG file left to the reader's guess, and the guess.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// 1-based line.
    pub line: usize,
    /// What was guessed.
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// A whitespace-separated token and its 1-based column.
#[derive(Clone, Copy)]
struct Tok<'a> {
    text: &'a str,
    col: usize,
}

fn tokens(s: &str, first_col: usize) -> Vec<Tok<'_>> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None; // (byte, col)
    for (col, (i, c)) in (first_col..).zip(s.char_indices()) {
        if c.is_whitespace() {
            if let Some((b, k)) = start.take() {
                out.push(Tok {
                    text: &s[b..i],
                    col: k,
                });
            }
        } else if start.is_none() {
            start = Some((i, col));
        }
    }
    if let Some((b, k)) = start {
        out.push(Tok {
            text: &s[b..],
            col: k,
        });
    }
    out
}

/// The tokens from `n` on, a space between each: the comment after an
/// event's cumulative score.
fn comment(toks: &[Tok<'_>], n: usize) -> String {
    toks.get(n..)
        .unwrap_or_default()
        .iter()
        .map(|t| t.text)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Characters a tile may be written with (besides letters).
fn tile_char(c: char) -> bool {
    c.is_alphabetic() || c == '·'
}

/// Checks a rack or tile list: letters, `?` for blanks, `[XY]` for a
/// multi-letter tile.
fn check_tiles(text: &str, blanks: bool) -> std::result::Result<(), String> {
    let mut in_bracket = false;
    let mut inside = 0;
    for c in text.chars() {
        match c {
            '[' if !in_bracket => {
                in_bracket = true;
                inside = 0;
            }
            ']' if in_bracket => {
                if inside == 0 {
                    return Err("empty []".into());
                }
                in_bracket = false;
            }
            '?' if blanks && !in_bracket => {}
            c if tile_char(c) => inside += 1,
            c => return Err(format!("{c:?} is not a tile")),
        }
    }
    if in_bracket {
        return Err("unclosed [".into());
    }
    if text.is_empty() {
        return Err("no tiles".into());
    }
    Ok(())
}

/// Checks a played word: tiles, play-through runs in parentheses or as
/// `.`, at least one tile placed.
fn check_word(text: &str) -> std::result::Result<(), String> {
    let mut in_paren = false;
    let mut in_bracket = false;
    let mut placed = 0;
    let mut paren_len = 0;
    for c in text.chars() {
        match c {
            '(' if !in_paren && !in_bracket => {
                in_paren = true;
                paren_len = 0;
            }
            ')' if in_paren && !in_bracket => {
                if paren_len == 0 {
                    return Err("empty ()".into());
                }
                in_paren = false;
            }
            '[' if !in_bracket => in_bracket = true,
            ']' if in_bracket => in_bracket = false,
            '.' if !in_paren && !in_bracket => {}
            c if tile_char(c) => {
                if in_paren {
                    paren_len += 1;
                } else {
                    placed += 1;
                }
            }
            c => return Err(format!("{c:?} is not a tile")),
        }
    }
    if in_paren {
        return Err("unclosed (".into());
    }
    if in_bracket {
        return Err("unclosed [".into());
    }
    if placed == 0 {
        return Err("no tile is placed".into());
    }
    Ok(())
}

/// Reads `8D` (across) or `D8` (down).
fn parse_coord(text: &str) -> Option<Coord> {
    let b = text.as_bytes();
    let letter = |c: u8| {
        c.is_ascii_alphabetic()
            .then(|| c.to_ascii_uppercase() - b'A')
    };
    let number = |s: &[u8]| -> Option<usize> {
        if s.is_empty() || s.len() > 3 || !s.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let n: usize = std::str::from_utf8(s).ok()?.parse().ok()?;
        (n >= 1).then(|| n - 1)
    };
    if b.len() < 2 {
        return None;
    }
    if b[0].is_ascii_digit() {
        let col = letter(b[b.len() - 1])?;
        let row = number(&b[..b.len() - 1])?;
        Some(Coord {
            row,
            col: col as usize,
            across: true,
        })
    } else {
        let col = letter(b[0])?;
        let row = number(&b[1..])?;
        Some(Coord {
            row,
            col: col as usize,
            across: false,
        })
    }
}

/// The sign an event's score must have.
#[derive(Clone, Copy, PartialEq)]
enum Sign {
    Plus,
    Minus,
    Zero,
}

fn parse_score(text: &str, sign: Sign) -> std::result::Result<i32, String> {
    let (neg, digits) = match text.as_bytes().first() {
        Some(b'+') => (false, &text[1..]),
        Some(b'-') => (true, &text[1..]),
        _ => return Err("a score is written +N or -N".into()),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err("a score is written +N or -N".into());
    }
    let n: i32 = digits.parse().map_err(|_| "too large".to_string())?;
    let v = if neg { -n } else { n };
    match sign {
        Sign::Plus if neg => Err("this event scores +N".into()),
        Sign::Minus if !neg && n != 0 => Err("this event scores -N".into()),
        Sign::Zero if v != 0 => Err("passes and exchanges score +0".into()),
        _ => Ok(v),
    }
}

fn parse_cumulative(text: &str) -> Option<i32> {
    let digits = text
        .strip_prefix('-')
        .or_else(|| text.strip_prefix('+'))
        .unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.trim_start_matches('+').parse().ok()
}

/// Windows-1252's characters for bytes 0x80 to 0x9F (the five it leaves
/// undefined read as the C1 controls, as in ISO-8859-1).
const CP1252: [char; 32] = [
    '\u{20AC}', '\u{81}', '\u{201A}', '\u{192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{2C6}', '\u{2030}', '\u{160}', '\u{2039}', '\u{152}', '\u{8D}', '\u{17D}', '\u{8F}',
    '\u{90}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{2DC}', '\u{2122}', '\u{161}', '\u{203A}', '\u{153}', '\u{9D}', '\u{17E}', '\u{178}',
];

/// A one-byte encoding a GCG file may name.
#[derive(Clone, Copy, PartialEq)]
enum OneByte {
    Latin1,
    Latin9,
    Cp1252,
}

impl OneByte {
    fn named(name: &str) -> Option<OneByte> {
        match name.to_ascii_lowercase().as_str() {
            "iso-8859-1" | "iso8859-1" | "iso_8859-1" | "latin1" | "latin-1" => {
                Some(OneByte::Latin1)
            }
            "iso-8859-15" | "iso8859-15" | "iso_8859-15" | "latin9" | "latin-9" => {
                Some(OneByte::Latin9)
            }
            "windows-1252" | "cp1252" | "windows1252" => Some(OneByte::Cp1252),
            _ => None,
        }
    }

    fn char(self, b: u8) -> char {
        match (self, b) {
            (OneByte::Cp1252, 0x80..=0x9F) => CP1252[(b - 0x80) as usize],
            (OneByte::Latin9, 0xA4) => '\u{20AC}',
            (OneByte::Latin9, 0xA6) => '\u{160}',
            (OneByte::Latin9, 0xA8) => '\u{161}',
            (OneByte::Latin9, 0xB4) => '\u{17D}',
            (OneByte::Latin9, 0xB8) => '\u{17E}',
            (OneByte::Latin9, 0xBC) => '\u{152}',
            (OneByte::Latin9, 0xBD) => '\u{153}',
            (OneByte::Latin9, 0xBE) => '\u{178}',
            _ => b as char,
        }
    }
}

/// Whether the encodings named are ones [`decode`] reads.
fn known_encoding(name: &str) -> bool {
    OneByte::named(name).is_some()
        || matches!(
            name.to_ascii_lowercase().as_str(),
            "utf-8" | "utf8" | "utf-16" | "utf16" | "utf-16le" | "utf-16be"
        )
}

/// UTF-16 text (`little` endian or not) as a string; `None` if it is not
/// UTF-16.
fn utf16(bytes: &[u8], little: bool) -> Option<String> {
    if bytes.len() % 2 != 0 {
        return None;
    }
    let units = bytes.chunks_exact(2).map(|p| {
        if little {
            u16::from_le_bytes([p[0], p[1]])
        } else {
            u16::from_be_bytes([p[0], p[1]])
        }
    });
    char::decode_utf16(units)
        .collect::<std::result::Result<String, _>>()
        .ok()
}

/// Decodes the bytes of a GCG file: UTF-16 when it starts with its
/// byte-order mark or its first characters are ASCII in UTF-16; else the
/// one-byte encoding the first line's `#character-encoding` names, or
/// UTF-8 (a leading byte-order mark skipped). Bytes that are not UTF-8 in
/// a file that says nothing are an error naming the encoding they look
/// like and where the first such byte is.
fn decode(bytes: &[u8]) -> std::result::Result<(String, Option<Warning>), GcgError> {
    let bad_utf16 = || GcgError {
        line: 1,
        column: 1,
        kind: GcgErrorKind::InvalidUtf8 {
            looks_like: "UTF-16 with unpaired surrogates",
            name: "UTF-16",
        },
    };
    let plain = |s: String| (s, None);
    if let Some(rest) = bytes.strip_prefix(b"\xFF\xFE") {
        return utf16(rest, true).map(plain).ok_or_else(bad_utf16);
    }
    if let Some(rest) = bytes.strip_prefix(b"\xFE\xFF") {
        return utf16(rest, false).map(plain).ok_or_else(bad_utf16);
    }
    // ASCII in UTF-16 without a byte-order mark: `#\0p\0` or `\0#\0p`.
    if bytes.len() >= 4 && bytes.len() % 2 == 0 {
        let ascii = |b: u8| b.is_ascii_graphic() || b.is_ascii_whitespace();
        if ascii(bytes[0]) && bytes[1] == 0 && ascii(bytes[2]) && bytes[3] == 0 {
            return utf16(bytes, true).map(plain).ok_or_else(bad_utf16);
        }
        if bytes[0] == 0 && ascii(bytes[1]) && bytes[2] == 0 && ascii(bytes[3]) {
            return utf16(bytes, false).map(plain).ok_or_else(bad_utf16);
        }
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    // The first line ends at LF or CR (files with CR-only line ends).
    let first_end = bytes
        .iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .unwrap_or(bytes.len());
    let first = String::from_utf8_lossy(&bytes[..first_end]);
    let first = first.trim();
    if let Some(rest) = first.strip_prefix("#character-encoding") {
        if let Some(enc) = OneByte::named(rest.trim()) {
            return Ok(plain(bytes.iter().map(|&b| enc.char(b)).collect()));
        }
    }
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok(plain(s.to_string())),
        // No encoding named and no zero byte: a one-byte encoding,
        // Windows-1252 if a byte is one of its own (0x80 to 0x9F), else
        // ISO-8859-1, read with a warning (macondo's and MAGPIE's readers
        // take such files too).
        Err(e) if !bytes.contains(&0) && !first.starts_with("#character-encoding") => {
            let good = &bytes[..e.valid_up_to()];
            let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
            let (enc, name) = if bytes.iter().any(|b| (0x80..=0x9F).contains(b)) {
                (OneByte::Cp1252, "Windows-1252")
            } else {
                (OneByte::Latin1, "ISO-8859-1")
            };
            let text = bytes.iter().map(|&b| enc.char(b)).collect();
            let warning = Warning {
                line,
                message: format!(
                    "not UTF-8 and no #character-encoding line: read as {name} (say so on the first line: #character-encoding {name})"
                ),
            };
            Ok((text, Some(warning)))
        }
        Err(e) => {
            let good = &bytes[..e.valid_up_to()];
            let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
            let line_start = good.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
            let column =
                std::str::from_utf8(&good[line_start..]).map_or(1, |s| s.chars().count() + 1);
            let (looks_like, name) = if bytes.contains(&0) {
                ("UTF-16 or another two-byte encoding", "UTF-16")
            } else if bytes.iter().any(|b| (0x80..=0x9F).contains(b)) {
                ("Windows-1252", "Windows-1252")
            } else {
                ("ISO-8859-1 (Latin-1)", "ISO-8859-1")
            };
            Err(GcgError {
                line,
                column,
                kind: GcgErrorKind::InvalidUtf8 { looks_like, name },
            })
        }
    }
}

impl Game {
    /// Parses the text of a GCG file.
    pub fn parse(text: &str) -> std::result::Result<Game, GcgError> {
        Parser::default().run(text)
    }

    /// Parses the bytes of a GCG file (see the module documentation for
    /// the encodings read).
    pub fn from_bytes(bytes: &[u8]) -> std::result::Result<Game, GcgError> {
        let (text, warning) = decode(bytes)?;
        let mut game = Game::parse(&text)?;
        if let Some(w) = warning {
            game.warnings.insert(0, w);
        }
        Ok(game)
    }

    /// Reads and parses a GCG file (a regular file: a FIFO or a device is
    /// refused before it is opened for reading).
    pub fn read(path: &Path) -> Result<Game> {
        let bytes = crate::files::capped::read_file(path, MAX_GCG_BYTES, "a game file")?;
        Ok(Game::from_bytes(&bytes)?)
    }

    /// The index (0 first) of the player with this nickname.
    pub fn player_index(&self, nick: &str) -> Option<usize> {
        self.players
            .iter()
            .position(|p| p.as_ref().is_some_and(|p| p.nick == nick))
    }

    /// The number of players (at least two: a file may name fewer).
    pub fn player_count(&self) -> usize {
        self.players.len().max(2)
    }

    /// Each player's last written cumulative total (0 before any event).
    pub fn final_scores(&self) -> Vec<i32> {
        let mut s = vec![0; self.player_count()];
        for e in &self.events {
            s[e.player] = e.cumulative;
        }
        s
    }
}

/// `n` for a pragma `PREFIXn` (`player3`).
fn numbered(name: &str, prefix: &str) -> Option<usize> {
    let digits = name.strip_prefix(prefix)?;
    if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// How some programs write a rack they do not know.
const UNKNOWN: &str = "UNKNOWN";

#[derive(Default)]
struct Parser {
    game: Game,
    /// Players declared by `#playerN` lines.
    declared: usize,
    /// Whether the previous non-blank line was a note (or continued one).
    in_note: bool,
}

impl Parser {
    fn run(mut self, text: &str) -> std::result::Result<Game, GcgError> {
        let mut any = false;
        // Old Mac files end lines with CR alone.
        let cr_only = !text.contains('\n') && text.contains('\r');
        let lines: Box<dyn Iterator<Item = &str>> = if cr_only {
            Box::new(text.split('\r'))
        } else {
            Box::new(text.lines())
        };
        for (i, raw) in lines.enumerate() {
            let line = i + 1;
            let raw = raw.strip_suffix('\r').unwrap_or(raw);
            let body = raw.trim_start();
            let indent = raw.chars().count() - body.chars().count();
            let body = body.trim_end();
            if body.is_empty() {
                continue;
            }
            any = true;
            let col = indent + 1;
            if let Some(rest) = body.strip_prefix('#') {
                self.pragma(line, col, rest)?;
            } else if let Some(rest) = body.strip_prefix('>') {
                self.in_note = false;
                let event = self.event(line, col, rest)?;
                self.game.events.push(event);
            } else if self.in_note {
                self.add_note(body);
            } else {
                return Err(GcgError {
                    line,
                    column: col,
                    kind: GcgErrorKind::StrayLine,
                });
            }
        }
        if !any {
            return Err(GcgError {
                line: 1,
                column: 1,
                kind: GcgErrorKind::Empty,
            });
        }
        if let Some(k) = self.game.players.iter().position(Option::is_none) {
            let line = self
                .game
                .pragmas
                .iter()
                .find(|p| numbered(&p.name, "player").is_some())
                .map_or(1, |p| p.line);
            return Err(GcgError {
                line,
                column: 1,
                kind: GcgErrorKind::MissingPlayer(k + 1),
            });
        }
        Ok(self.game)
    }

    fn add_note(&mut self, text: &str) {
        let notes = match self.game.events.last_mut() {
            Some(e) => &mut e.notes,
            None => &mut self.game.notes,
        };
        match notes.last_mut() {
            Some(n) if self.in_note => {
                n.push('\n');
                n.push_str(text);
            }
            _ => notes.push(text.to_string()),
        }
    }

    /// `rest` is the line after `#`; `col` the column of the `#`.
    fn pragma(&mut self, line: usize, col: usize, rest: &str) -> std::result::Result<(), GcgError> {
        let name_len = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let name = &rest[..name_len];
        let value_raw = &rest[name_len..];
        let value = value_raw.trim();
        let value_col = col
            + 1
            + name.chars().count()
            + (value_raw.chars().count() - value_raw.trim_start().chars().count());
        let err = |kind| GcgError {
            line,
            column: col,
            kind,
        };
        let bad = |reason: &str| GcgError {
            line,
            column: value_col,
            kind: GcgErrorKind::BadPragma {
                pragma: name.to_string(),
                reason: reason.to_string(),
            },
        };
        self.in_note = false;
        self.game.pragmas.push(Pragma {
            line,
            name: name.to_string(),
            value: value.to_string(),
        });
        let g = &mut self.game;
        match name {
            "character-encoding" => {
                if line != 1 || !g.events.is_empty() {
                    return Err(err(GcgErrorKind::EncodingNotFirst));
                }
                if !known_encoding(value) {
                    return Err(GcgError {
                        line,
                        column: value_col,
                        kind: GcgErrorKind::UnknownEncoding(value.to_string()),
                    });
                }
                g.encoding = Some(value.to_string());
            }
            _ if numbered(name, "player").is_some() => {
                let n = numbered(name, "player").unwrap_or(0);
                if n == 0 || n > MAX_PLAYERS {
                    return Err(err(GcgErrorKind::TooManyPlayers(n)));
                }
                let k = n - 1;
                if !g.events.is_empty() {
                    return Err(err(GcgErrorKind::PlayerAfterEvents));
                }
                if g.players.get(k).is_some_and(Option::is_some) {
                    return Err(err(GcgErrorKind::DuplicatePlayer(k + 1)));
                }
                let toks = tokens(value, value_col);
                let Some(nick) = toks.first() else {
                    return Err(bad("expected a nickname and a name"));
                };
                let nick_text = nick.text.trim_end_matches(':');
                if nick_text.is_empty() || nick_text.contains(':') {
                    return Err(GcgError {
                        line,
                        column: nick.col,
                        kind: GcgErrorKind::BadPragma {
                            pragma: name.to_string(),
                            reason: format!("{:?} is not a usable nickname", nick.text),
                        },
                    });
                }
                if let Some(other) = g.player_index(nick_text) {
                    // Quackle writes `NoName` for both players of a game
                    // it did not name: events are told apart by turn
                    // order.
                    g.warnings.push(Warning {
                        line,
                        message: format!(
                            "players {} and {} are both called {nick_text:?}: their events are told apart by turn order",
                            other + 1,
                            k + 1
                        ),
                    });
                }
                let name_text = value[nick.text.len()..].trim();
                if g.players.len() <= k {
                    g.players.resize(k + 1, None);
                }
                g.players[k] = Some(Player {
                    nick: nick_text.to_string(),
                    name: if name_text.is_empty() {
                        nick_text.to_string()
                    } else {
                        name_text.to_string()
                    },
                });
                self.declared += 1;
            }
            "title" => g.title = Some(value.to_string()),
            "description" => g.description = Some(value.to_string()),
            "lexicon" => {
                if value.is_empty() {
                    return Err(bad("expected a lexicon name"));
                }
                g.lexicon = Some(value.to_string());
            }
            "id" => {
                let toks = tokens(value, value_col);
                if toks.len() != 2 {
                    return Err(bad("expected an authority and an id"));
                }
                g.id = Some((toks[0].text.to_string(), toks[1].text.to_string()));
            }
            _ if numbered(name, "rack").is_some() => {
                let n = numbered(name, "rack").unwrap_or(0);
                if n == 0 || n > MAX_PLAYERS {
                    return Err(err(GcgErrorKind::TooManyPlayers(n)));
                }
                let toks = tokens(value, value_col);
                if toks.len() != 1 {
                    return Err(bad("expected one rack"));
                }
                if g.racks.len() < n {
                    g.racks.resize(n, None);
                }
                if toks[0].text != UNKNOWN {
                    check_tiles(toks[0].text, true).map_err(|reason| GcgError {
                        line,
                        column: toks[0].col,
                        kind: GcgErrorKind::BadTiles {
                            text: toks[0].text.to_string(),
                            reason,
                        },
                    })?;
                    g.racks[n - 1] = Some(toks[0].text.to_string());
                }
            }
            "note" => {
                // `in_note` is false here: this starts a new note, which
                // the following lines without # or > continue.
                self.add_note(value);
                self.in_note = true;
            }
            "game-type" => g.game_type = Some(value.to_string()),
            "tile-set" => g.tile_set = Some(value.to_string()),
            "tile-distribution" => g.tile_distribution = Some(value.to_string()),
            "board-layout" => g.board_layout = Some(value.to_string()),
            "incomplete" => g.incomplete = true,
            _ => {} // kept in `pragmas`, never fatal
        }
        Ok(())
    }

    /// The player of an event when several players share its nickname:
    /// the player of the previous event for a withdrawal, a challenge
    /// bonus, the tiles of a player out, or the first rack counted
    /// against its own player after a move (six scoreless turns); else
    /// the next player in turn order with that nickname (the first for
    /// the first event). `None` when the nickname is one player's.
    fn by_turn(&self, nick: &str, kind: &EventKind) -> Option<usize> {
        let players = &self.game.players;
        let has = |p: usize| players[p].as_ref().is_some_and(|x| x.nick == nick);
        let n = players.len();
        if (0..n).filter(|&p| has(p)).count() < 2 {
            return None;
        }
        let Some(prev) = self.game.events.last() else {
            return (0..n).find(|&p| has(p));
        };
        let end = |k: &EventKind| {
            matches!(
                k,
                EventKind::EndRackPoints { .. } | EventKind::EndRackPenalty { .. }
            )
        };
        let same = match kind {
            EventKind::PhonyWithdrawn
            | EventKind::ChallengeBonus
            | EventKind::EndRackPoints { .. } => true,
            // Six scoreless turns: the last mover's rack first.
            EventKind::EndRackPenalty { .. } => !end(&prev.kind),
            _ => false,
        };
        if same && has(prev.player) {
            return Some(prev.player);
        }
        (1..=n).map(|k| (prev.player + k) % n).find(|&p| has(p))
    }

    /// `rest` is the line after `>`; `col` the column of the `>`.
    fn event(
        &mut self,
        line: usize,
        col: usize,
        rest: &str,
    ) -> std::result::Result<Event, GcgError> {
        let at = |column, kind| GcgError { line, column, kind };
        let Some(colon) = rest.find(':') else {
            return Err(at(col + 1, GcgErrorKind::Missing("nick: after >")));
        };
        let nick = &rest[..colon];
        if nick.is_empty() || nick.contains(char::is_whitespace) {
            return Err(at(col + 1, GcgErrorKind::Missing("nick: after >")));
        }
        let player = match self.game.player_index(nick) {
            Some(p) => p,
            // A file declaring fewer than two players: a new nickname is
            // the next player.
            None if self.declared < 2 && self.game.players.len() < MAX_PLAYERS => {
                let p = match self.game.players.iter().position(Option::is_none) {
                    Some(free) => free,
                    None => {
                        self.game.players.push(None);
                        self.game.players.len() - 1
                    }
                };
                self.game.players[p] = Some(Player {
                    nick: nick.to_string(),
                    name: nick.to_string(),
                });
                p
            }
            None if self.declared < 2 => {
                let n = self.game.players.len() + 1;
                return Err(at(col + 1, GcgErrorKind::TooManyPlayers(n)));
            }
            None => {
                return Err(at(col + 1, GcgErrorKind::UnknownPlayer(nick.to_string())));
            }
        };
        let after = &rest[colon + 1..];
        let toks = tokens(after, col + 1 + nick.chars().count() + 1);
        let end_col = col + 1 + rest.chars().count();
        let get = |i: usize, what: &'static str| -> std::result::Result<Tok<'_>, GcgError> {
            toks.get(i)
                .copied()
                .ok_or_else(|| at(end_col, GcgErrorKind::Missing(what)))
        };
        let tiles_err = |t: Tok<'_>, reason: String| {
            at(
                t.col,
                GcgErrorKind::BadTiles {
                    text: t.text.to_string(),
                    reason,
                },
            )
        };
        let rack_tok = |t: Tok<'_>| -> std::result::Result<String, GcgError> {
            if t.text == UNKNOWN {
                return Ok(String::new());
            }
            check_tiles(t.text, true).map_err(|r| tiles_err(t, r))?;
            Ok(t.text.to_string())
        };
        let score_at = |t: Tok<'_>, sign| {
            parse_score(t.text, sign).map_err(|reason| {
                at(
                    t.col,
                    GcgErrorKind::BadScore {
                        text: t.text.to_string(),
                        reason,
                    },
                )
            })
        };
        let cum_at = |t: Tok<'_>| {
            parse_cumulative(t.text)
                .ok_or_else(|| at(t.col, GcgErrorKind::BadCumulative(t.text.to_string())))
        };
        let paren = |t: &str| {
            t.strip_prefix('(')
                .and_then(|s| s.strip_suffix(')'))
                .map(str::to_string)
        };

        let first = get(0, "a rack")?;
        // The rack may be left out (it is only informative); `(TILES)`
        // first is end-of-game rack points.
        let no_rack = first.text.starts_with('-')
            || first.text == "(challenge)"
            || first.text == "(time)"
            // A coordinate has a digit, which no rack has.
            || parse_coord(first.text).is_some();
        let (rack, i) = match first.text {
            _ if no_rack => (String::new(), 0),
            t if t.starts_with('(') => {
                // (TILES) +N CUM: the opponent's tiles.
                let tiles = paren(t).ok_or_else(|| {
                    tiles_err(first, "expected (TILES), a closing ) is missing".into())
                })?;
                check_tiles(&tiles, true).map_err(|r| tiles_err(first, r))?;
                let score = score_at(get(1, "the score")?, Sign::Plus)?;
                let cumulative = cum_at(get(2, "the cumulative score")?)?;
                let kind = EventKind::EndRackPoints { tiles };
                return Ok(Event {
                    line,
                    player: self.by_turn(nick, &kind).unwrap_or(player),
                    kind,
                    rack: String::new(),
                    score,
                    cumulative,
                    notes: Vec::new(),
                    comment: comment(&toks, 3),
                });
            }
            _ => (rack_tok(first)?, 1),
        };
        let what = get(i, "a move, -, -TILES, --, (challenge), (time) or (TILES)")?;
        let (kind, sign, next) = match what.text {
            "-" => (EventKind::Pass, Sign::Zero, i + 1),
            "--" => (EventKind::PhonyWithdrawn, Sign::Minus, i + 1),
            "(challenge)" => (EventKind::ChallengeBonus, Sign::Plus, i + 1),
            "(time)" => (EventKind::TimePenalty, Sign::Minus, i + 1),
            t if t.starts_with('(') => {
                let tiles = paren(t).ok_or_else(|| {
                    tiles_err(what, "expected (TILES), a closing ) is missing".into())
                })?;
                check_tiles(&tiles, true).map_err(|r| tiles_err(what, r))?;
                (EventKind::EndRackPenalty { tiles }, Sign::Minus, i + 1)
            }
            t if t.starts_with('-') => {
                let tiles = &t[1..];
                if !tiles.is_empty() && tiles.bytes().all(|b| b.is_ascii_digit()) {
                    let n: usize = tiles.parse().unwrap_or(usize::MAX);
                    if n == 0 || n > 99 {
                        return Err(tiles_err(what, "an exchange of 1 or more tiles".into()));
                    }
                    (EventKind::ExchangeCount(n), Sign::Zero, i + 1)
                } else {
                    check_tiles(tiles, true).map_err(|r| tiles_err(what, r))?;
                    (
                        EventKind::Exchange {
                            tiles: tiles.to_string(),
                        },
                        Sign::Zero,
                        i + 1,
                    )
                }
            }
            t => {
                let coord = parse_coord(t)
                    .ok_or_else(|| at(what.col, GcgErrorKind::BadCoordinate(t.to_string())))?;
                let w = get(i + 1, "the word played")?;
                check_word(w.text).map_err(|r| tiles_err(w, r))?;
                (
                    EventKind::Play {
                        coord,
                        word: w.text.to_string(),
                    },
                    Sign::Plus,
                    i + 2,
                )
            }
        };
        let score = score_at(get(next, "the score")?, sign)?;
        let cumulative = cum_at(get(next + 1, "the cumulative score")?)?;
        let player = self.by_turn(nick, &kind).unwrap_or(player);
        if kind == EventKind::PhonyWithdrawn {
            let prev = self.game.events.last();
            if !prev.is_some_and(|e| e.player == player && matches!(e.kind, EventKind::Play { .. }))
            {
                return Err(at(what.col, GcgErrorKind::PhonyWithoutPlay));
            }
        }
        Ok(Event {
            line,
            player,
            kind,
            rack,
            score,
            cumulative,
            notes: Vec::new(),
            comment: comment(&toks, next + 2),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates() {
        let c = parse_coord("8D").unwrap();
        assert_eq!((c.row, c.col, c.across), (7, 3, true));
        let c = parse_coord("D8").unwrap();
        assert_eq!((c.row, c.col, c.across), (7, 3, false));
        let c = parse_coord("15o").unwrap();
        assert_eq!((c.row, c.col, c.across), (14, 14, true));
        assert_eq!(c.to_string(), "15O");
        for bad in ["", "8", "D", "0A", "A0", "8DD", "D8D", "1234A", "é8", "8é"] {
            assert!(parse_coord(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn scores() {
        assert_eq!(parse_score("+12", Sign::Plus), Ok(12));
        assert_eq!(parse_score("-7", Sign::Minus), Ok(-7));
        assert_eq!(parse_score("+0", Sign::Zero), Ok(0));
        assert_eq!(parse_score("-0", Sign::Zero), Ok(0));
        assert!(parse_score("12", Sign::Plus).is_err());
        assert!(parse_score("-12", Sign::Plus).is_err());
        assert!(parse_score("+12", Sign::Minus).is_err());
        assert!(parse_score("+3", Sign::Zero).is_err());
        assert!(parse_score("+", Sign::Plus).is_err());
        assert!(parse_score("+99999999999", Sign::Plus).is_err());
        assert_eq!(parse_cumulative("-5"), Some(-5));
        assert_eq!(parse_cumulative("+5"), Some(5));
        assert_eq!(parse_cumulative("5x"), None);
        assert_eq!(parse_cumulative("--5"), None);
    }

    #[test]
    fn words_and_tiles() {
        assert!(check_word("CA(R)E").is_ok());
        assert!(check_word("CA.E").is_ok());
        assert!(check_word("[CH]A(LL)[ch]").is_ok());
        assert!(check_word("(CARE)").is_err());
        assert!(check_word("CA(RE").is_err());
        assert!(check_word("CA()E").is_err());
        assert!(check_word("C?RE").is_err());
        assert!(check_tiles("AB?[CH]", true).is_ok());
        assert!(check_tiles("AB?", false).is_err());
        assert!(check_tiles("A[]", true).is_err());
        assert!(check_tiles("A[CH", true).is_err());
        assert!(check_tiles("", true).is_err());
    }
}
