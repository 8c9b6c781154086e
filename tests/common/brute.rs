//! An independent brute-force move generator: the reference lexq's GADDAG
//! generator is checked against.
//!
//! It shares no code with the library. It reads CGP itself (board, the
//! mover's rack, `bb`), keeps its own copies of the premium grids and tile
//! values (from `shared/docs/formats.md`), and judges words by exact lookup
//! in a `HashSet` of the plain word list (words as tile sequences, read the
//! way [`TileAlphabet`] reads them).
//!
//! The method is the most direct one: for every line (row or column) and
//! every square where a main word may start, it places rack tiles one by one
//! on the empty squares from there on (a blank as every letter), walks over
//! board tiles, and wherever the word may end it checks every rule and
//! scores the play from scratch. The only pruning is "the main word so far
//! is the start of some word" (a walk down a plain prefix tree of the word
//! list), and skipping start squares from which no play can touch a tile;
//! neither can drop a legal play. Words themselves, main and cross, are
//! judged by exact lookup in the `HashSet`.
//!
//! Listing conventions (the issue's, exactly): the coordinate is the first
//! square of the main word (it may hold a board tile); `word` is the whole
//! main word, blanks lowercase, multi-letter tiles as their text; `placed`
//! has one entry per tile of the word, `.` where the square already held a
//! tile; a one-tile play is listed once (across if the placed tile has a
//! horizontal neighbour, else down); on the empty board only across plays
//! covering the start square with at least two tiles; no exchanges, no pass.

use std::collections::HashSet;
use std::sync::LazyLock;

use super::TileAlphabet;

/// The standard 15x15 layout (formats.md): `#` triple word, `=` double
/// word, `^` triple letter, `-` double letter.
pub const STANDARD: [&str; 15] = [
    "#..-...#...-..#",
    ".=...^...^...=.",
    "..=...-.-...=..",
    "-..=...-...=..-",
    "....=.....=....",
    ".^...^...^...^.",
    "..-...-.-...-..",
    "#..-...=...-..#",
    "..-...-.-...-..",
    ".^...^...^...^.",
    "....=.....=....",
    "-..=...-...=..-",
    "..=...-.-...=..",
    ".=...^...^...=.",
    "#..-...#...-..#",
];

/// The super 21x21 layout (formats.md): also `4` quad letter, `$` quad word.
pub const SUPER: [&str; 21] = [
    "$..-...#..-..#...-..$",
    ".=..^...=...=...^..=.",
    "..=..4...=.=...4..=..",
    "-..#..-...#...-..#..-",
    ".^..=...^...^...=..^.",
    "..4..=...-.-...=..4..",
    "...-..=...-...=..-...",
    "#......=.....=......#",
    ".=..^...^...^...^..=.",
    "..=..-...-.-...-..=..",
    "-..#..-...=...-..#..-",
    "..=..-...-.-...-..=..",
    ".=..^...^...^...^..=.",
    "#......=.....=......#",
    "...-..=...-...=..-...",
    "..4..=...-.-...=..4..",
    ".^..=...^...^...=..^.",
    "-..#..-...#...-..#..-",
    "..=..4...=.=...4..=..",
    ".=..^...=...=...^..=.",
    "$..-...#..-..#...-..$",
];

/// A board layout: size, start square and premium multipliers.
#[derive(Clone, Debug)]
pub struct Layout {
    pub size: usize,
    /// 0-based (row, col) of the start square.
    pub start: (usize, usize),
    /// Letter multiplier of each square, row-major.
    pub letter: Vec<i32>,
    /// Word multiplier of each square, row-major.
    pub word: Vec<i32>,
}

impl Layout {
    /// A layout from grid rows in the formats.md notation.
    pub fn from_rows(rows: &[&str], start: (usize, usize)) -> Layout {
        let size = rows.len();
        let mut letter = Vec::new();
        let mut word = Vec::new();
        for r in rows {
            assert_eq!(r.len(), size, "a square grid");
            for c in r.chars() {
                let (l, w) = match c {
                    '.' => (1, 1),
                    '-' => (2, 1),
                    '^' => (3, 1),
                    '4' => (4, 1),
                    '=' => (1, 2),
                    '#' => (1, 3),
                    '$' => (1, 4),
                    other => panic!("unknown premium {other:?}"),
                };
                letter.push(l);
                word.push(w);
            }
        }
        Layout {
            size,
            start,
            letter,
            word,
        }
    }

    /// The standard 15x15 board.
    pub fn standard() -> Layout {
        Layout::from_rows(&STANDARD, (7, 7))
    }

    /// The super 21x21 board.
    pub fn super_board() -> Layout {
        Layout::from_rows(&SUPER, (10, 10))
    }

    /// The built-in layout of a board of `size` squares a side.
    pub fn for_size(size: usize) -> Option<Layout> {
        match size {
            15 => Some(Layout::standard()),
            21 => Some(Layout::super_board()),
            _ => None,
        }
    }
}

/// A game's rules as the brute force sees them: the alphabet, tile values
/// and counts, the bingo bonus, and the word list.
pub struct Rules {
    pub alpha: TileAlphabet,
    /// Value of tile `code` (index 0 unused: blanks score 0).
    pub values: Vec<i32>,
    /// How many tiles of `code` the set holds; index 0 = blanks.
    pub counts: Vec<u32>,
    pub bingo: i32,
    pub rack_size: usize,
    words: HashSet<Vec<u8>>,
    /// A plain prefix tree of the words, only to prune the search: node 0
    /// is the root, each node lists its children as (code, node).
    trie: Vec<Vec<(u8, u32)>>,
    count: usize,
}

/// English tile values A..Z (formats.md).
const ENGLISH_VALUES: [i32; 26] = [
    1, 3, 3, 2, 1, 4, 2, 4, 1, 8, 5, 1, 3, 1, 1, 3, 10, 1, 1, 1, 1, 4, 4, 8, 4, 10,
];
/// English tile counts A..Z (formats.md), blanks 2.
const ENGLISH_COUNTS: [u32; 26] = [
    9, 2, 2, 4, 12, 2, 3, 2, 9, 1, 1, 4, 2, 6, 8, 2, 1, 6, 4, 6, 4, 2, 2, 1, 2, 1,
];

/// The Spanish (FISE) set, in the alphabet's order
/// `A B C CH D E F G H I J L LL M N Ñ O P Q R RR S T U V X Y Z`:
/// (value, count); blanks 2; 100 tiles.
const SPANISH_SET: [(i32, u32); 28] = [
    (1, 12), // A
    (3, 2),  // B
    (3, 4),  // C
    (5, 1),  // CH
    (2, 5),  // D
    (1, 12), // E
    (4, 1),  // F
    (2, 2),  // G
    (4, 2),  // H
    (1, 6),  // I
    (8, 1),  // J
    (1, 4),  // L
    (8, 1),  // LL
    (3, 2),  // M
    (1, 5),  // N
    (8, 1),  // Ñ
    (1, 9),  // O
    (3, 2),  // P
    (5, 1),  // Q
    (1, 5),  // R
    (8, 1),  // RR
    (1, 6),  // S
    (1, 4),  // T
    (1, 5),  // U
    (4, 1),  // V
    (8, 1),  // X
    (4, 1),  // Y
    (10, 1), // Z
];

impl Rules {
    fn new(alpha: TileAlphabet, values: Vec<i32>, counts: Vec<u32>, text: &str) -> Rules {
        let mut sorted: Vec<Vec<u8>> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .filter_map(|l| alpha.tokenize(l))
            .filter(|w| !w.is_empty())
            .collect();
        sorted.sort();
        sorted.dedup();
        let mut trie: Vec<Vec<(u8, u32)>> = vec![Vec::new()];
        for w in &sorted {
            let mut node = 0usize;
            for &c in w {
                node = match trie[node].iter().find(|&&(k, _)| k == c) {
                    Some(&(_, child)) => child as usize,
                    None => {
                        let child = trie.len();
                        trie.push(Vec::new());
                        trie[node].push((c, child as u32));
                        child
                    }
                };
            }
        }
        let count = sorted.len();
        let words = sorted.into_iter().collect();
        Rules {
            alpha,
            values,
            counts,
            bingo: 50,
            rack_size: 7,
            words,
            trie,
            count,
        }
    }

    /// English tiles (100, bingo 50) and the words of `text`.
    pub fn english(text: &str) -> Rules {
        let mut values = vec![0];
        values.extend(ENGLISH_VALUES);
        let mut counts = vec![2];
        counts.extend(ENGLISH_COUNTS);
        Rules::new(TileAlphabet::english(), values, counts, text)
    }

    /// Spanish tiles (FISE, 100, bingo 50) and the words of `text`.
    pub fn spanish(text: &str) -> Rules {
        let mut values = vec![0];
        let mut counts = vec![2];
        for (v, n) in SPANISH_SET {
            values.push(v);
            counts.push(n);
        }
        Rules::new(TileAlphabet::spanish(), values, counts, text)
    }

    /// The same alphabet, values and counts with another word list.
    pub fn with_alphabet_of(other: &Rules, text: &str) -> Rules {
        let alpha = if other.alpha.len() == 26 {
            TileAlphabet::english()
        } else {
            TileAlphabet::spanish()
        };
        let mut r = Rules::new(alpha, other.values.clone(), other.counts.clone(), text);
        r.bingo = other.bingo;
        r.rack_size = other.rack_size;
        r
    }

    /// Whether `codes` is a word.
    pub fn is_word(&self, codes: &[u8]) -> bool {
        self.words.contains(codes)
    }

    /// Whether some word starts with `codes`.
    pub fn has_prefix(&self, codes: &[u8]) -> bool {
        let mut node = 0;
        for &c in codes {
            match self.child(node, c) {
                Some(n) => node = n,
                None => return false,
            }
        }
        true
    }

    /// The trie node after `code` from `node`.
    fn child(&self, node: u32, code: u8) -> Option<u32> {
        let kids = &self.trie[node as usize];
        kids.iter().find(|&&(k, _)| k == code).map(|&(_, n)| n)
    }

    /// The number of words.
    pub fn word_count(&self) -> usize {
        self.count
    }

    fn value(&self, t: Tile) -> i32 {
        if t.blank {
            0
        } else {
            self.values[t.code as usize]
        }
    }

    /// The text of tile `t` (lowercase for a blank).
    pub fn tile_text(&self, t: Tile) -> String {
        let l = self.alpha.label(t.code);
        if t.blank {
            l.to_lowercase()
        } else {
            l.to_string()
        }
    }

    /// The text of tile `t` as CGP writes it: multi-letter tiles in
    /// brackets.
    pub fn cgp_text(&self, t: Tile) -> String {
        let s = self.tile_text(t);
        if s.chars().count() > 1 {
            format!("[{s}]")
        } else {
            s
        }
    }
}

/// ENABLE with English tiles (read once per test binary).
pub static ENABLE_RULES: LazyLock<Rules> = LazyLock::new(|| {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/indexes/enable1.txt");
    Rules::english(&std::fs::read_to_string(path).expect("indexes/enable1.txt"))
});

/// The Spanish sample word list with Spanish tiles.
pub static SPANISH_RULES: LazyLock<Rules> = LazyLock::new(|| {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/spanish-sample.txt");
    Rules::spanish(&std::fs::read_to_string(path).expect("tests/data/spanish-sample.txt"))
});

/// A tile on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tile {
    pub code: u8,
    pub blank: bool,
}

/// A position read from CGP: the board, the mover's rack, the bingo bonus.
#[derive(Clone, Debug)]
pub struct Position {
    pub layout: Layout,
    /// Row-major squares.
    pub squares: Vec<Option<Tile>>,
    /// The mover's rack: tile counts by code; index 0 = blanks.
    pub rack: [u8; 64],
    pub bingo: i32,
}

impl Position {
    pub fn size(&self) -> usize {
        self.layout.size
    }

    pub fn at(&self, r: usize, c: usize) -> Option<Tile> {
        self.squares[r * self.layout.size + c]
    }

    pub fn is_empty_board(&self) -> bool {
        self.squares.iter().all(Option::is_none)
    }

    /// The number of tiles on the rack.
    pub fn rack_len(&self) -> usize {
        self.rack.iter().map(|&n| n as usize).sum()
    }
}

/// Reads a run of tile text: `[XY]` or the longest tile spelled at the
/// start (greedy, like the alphabet). Returns (label as written, chars used).
fn read_tile(alpha: &TileAlphabet, chars: &[char]) -> Result<(Tile, usize), String> {
    let (text, used): (Vec<char>, usize) = if chars[0] == '[' {
        let end = chars.iter().position(|&c| c == ']').ok_or("unclosed [")?;
        (chars[1..end].to_vec(), end + 1)
    } else {
        (chars.to_vec(), 0)
    };
    let blank = text.first().is_some_and(|c| c.is_lowercase());
    if used > 0 {
        let upper: Vec<char> = text.iter().flat_map(|c| c.to_uppercase()).collect();
        let (code, n) = alpha
            .tile_at(&upper)
            .ok_or_else(|| format!("no tile {:?}", String::from_iter(&text)))?;
        if n != upper.len() {
            return Err(format!("no tile {:?}", String::from_iter(&text)));
        }
        return Ok((Tile { code, blank }, used));
    }
    // Greedy, but only over chars of the same case.
    let same_case = text
        .iter()
        .take_while(|c| c.is_lowercase() == blank && c.is_alphabetic())
        .count();
    let upper: Vec<char> = text[..same_case]
        .iter()
        .map(|c| c.to_uppercase().next().unwrap_or(*c))
        .collect();
    let (code, n) = alpha
        .tile_at(&upper)
        .ok_or_else(|| format!("no tile at {:?}", String::from_iter(&text)))?;
    Ok((Tile { code, blank }, n))
}

/// Parses the parts of a CGP line the move generator needs, with the
/// board's built-in layout (15 or 21 squares a side).
pub fn parse_cgp(rules: &Rules, cgp: &str) -> Result<Position, String> {
    let mut fields = cgp.split_whitespace();
    let board = fields.next().ok_or("empty CGP")?;
    let racks = fields.next().ok_or("no racks")?;
    let rows: Vec<&str> = board.split('/').collect();
    let size = rows.len();
    let layout = Layout::for_size(size).ok_or_else(|| format!("no layout of size {size}"))?;
    let mut squares = Vec::with_capacity(size * size);
    for row in &rows {
        let chars: Vec<char> = row.chars().collect();
        let mut i = 0;
        let before = squares.len();
        while i < chars.len() {
            if chars[i].is_ascii_digit() {
                let mut n = 0usize;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    n = n * 10 + chars[i].to_digit(10).unwrap() as usize;
                    i += 1;
                }
                squares.extend(std::iter::repeat_n(None, n));
            } else {
                let (t, n) = read_tile(&rules.alpha, &chars[i..])?;
                squares.push(Some(t));
                i += n;
            }
        }
        if squares.len() - before != size {
            return Err(format!("row {row:?} is not {size} squares"));
        }
    }
    let mine = racks.split('/').next().unwrap_or("");
    let mut rack = [0u8; 64];
    let chars: Vec<char> = mine.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '?' {
            rack[0] += 1;
            i += 1;
            continue;
        }
        let (t, n) = read_tile(&rules.alpha, &chars[i..])?;
        if t.blank {
            return Err(format!("lowercase tile in rack {mine:?}"));
        }
        rack[t.code as usize] += 1;
        i += n;
    }
    let mut bingo = rules.bingo;
    let rest: Vec<&str> = fields.skip(2).collect();
    for op in rest.join(" ").split(';') {
        let mut w = op.split_whitespace();
        if w.next() == Some("bb") {
            bingo = w.next().and_then(|n| n.parse().ok()).ok_or("bad bb")?;
        }
    }
    Ok(Position {
        layout,
        squares,
        rack,
        bingo,
    })
}

/// One move as the brute force lists it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BruteMove {
    /// 0-based row of the main word's first square.
    pub row: usize,
    /// 0-based column of the main word's first square.
    pub col: usize,
    pub across: bool,
    /// The whole main word; blanks lowercase.
    pub word: String,
    /// One entry per tile of `word`: `.` for a board tile, else the placed
    /// tile (lowercase for a blank).
    pub placed: String,
    pub score: i32,
}

impl BruteMove {
    /// lexq's move `m` written as the brute force writes its own, so that
    /// the two lists compare.
    pub fn of(m: &lexq::game::Move, a: &lexq::Alphabet) -> BruteMove {
        BruteMove {
            row: m.row(),
            col: m.col(),
            across: m.across(),
            word: m.word(a),
            placed: m.placed(a),
            score: m.score(),
        }
    }

    /// The move in GCG notation (`8D CA(R)E`, `D8 ...` for down), reading
    /// the word one character a tile (English).
    pub fn notation(&self) -> String {
        let tiles: Vec<String> = self.word.chars().map(String::from).collect();
        self.notation_of(&tiles)
    }

    /// The move in GCG notation, reading the word into `rules`' tiles.
    pub fn notation_in(&self, rules: &Rules) -> String {
        let chars: Vec<char> = self.word.chars().collect();
        let mut tiles = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            let blank = chars[i].is_lowercase();
            let run: Vec<char> = chars[i..]
                .iter()
                .take_while(|c| c.is_lowercase() == blank)
                .flat_map(|c| c.to_uppercase())
                .collect();
            let n = rules.alpha.tile_at(&run).map_or(1, |(_, n)| n);
            tiles.push(chars[i..i + n].iter().collect());
            i += n;
        }
        self.notation_of(&tiles)
    }

    /// The notation, given the word's tiles: play-through tiles (`.` in
    /// `placed`) in parentheses.
    fn notation_of(&self, tiles: &[String]) -> String {
        let col = (b'A' + self.col as u8) as char;
        let coord = if self.across {
            format!("{}{col}", self.row + 1)
        } else {
            format!("{col}{}", self.row + 1)
        };
        let placed: Vec<char> = self.placed.chars().collect();
        let mut s = String::new();
        let mut open = false;
        let mut i = 0;
        for t in tiles {
            let through = placed.get(i) == Some(&'.');
            i += if through { 1 } else { t.chars().count() };
            if through && !open {
                s.push('(');
                open = true;
            }
            if !through && open {
                s.push(')');
                open = false;
            }
            s.push_str(t);
        }
        if open {
            s.push(')');
        }
        format!("{coord} {s}")
    }
}

/// The cross-check of one empty square for plays in one direction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NaiveCross {
    pub row: usize,
    pub col: usize,
    /// The direction of the plays this set constrains (the cross-word runs
    /// the other way).
    pub across: bool,
    /// Whether a tile touches the square across the play's direction (if
    /// not, every tile is allowed and `letters` lists them all).
    pub constrained: bool,
    /// Tile codes allowed here (bit `code`), as `LetterSet` masks them.
    pub mask: u64,
    /// The allowed tiles' labels, in alphabet order.
    pub letters: Vec<String>,
    /// The face value of the cross-word's board tiles (blanks 0), without
    /// the new tile and without premiums; 0 if unconstrained.
    pub score: i32,
}

/// Cross-checks of every empty square, both directions, computed naively:
/// build the perpendicular word with each letter in turn and look it up.
pub fn naive_cross_sets(rules: &Rules, pos: &Position) -> Vec<NaiveCross> {
    let n = pos.size();
    let mut out = Vec::new();
    for across in [true, false] {
        for r in 0..n {
            for c in 0..n {
                if pos.at(r, c).is_some() {
                    continue;
                }
                let (mask, score, constrained) = cross_at(rules, pos, r, c, across);
                let letters = (1..=rules.alpha.len() as u8)
                    .filter(|&k| mask & (1 << k) != 0)
                    .map(|k| rules.alpha.label(k).to_string())
                    .collect();
                out.push(NaiveCross {
                    row: r,
                    col: c,
                    across,
                    constrained,
                    mask,
                    letters,
                    score,
                });
            }
        }
    }
    out
}

/// The perpendicular tiles before and after the empty square (r, c) for a
/// play in direction `across`: (before, in reading order; after).
fn perpendicular(pos: &Position, r: usize, c: usize, across: bool) -> (Vec<Tile>, Vec<Tile>) {
    let n = pos.size() as isize;
    // The cross-word of an across play runs down, and vice versa.
    let (dr, dc) = if across { (1isize, 0isize) } else { (0, 1) };
    let get = |k: isize| -> Option<Tile> {
        let (rr, cc) = (r as isize + dr * k, c as isize + dc * k);
        if rr < 0 || cc < 0 || rr >= n || cc >= n {
            None
        } else {
            pos.at(rr as usize, cc as usize)
        }
    };
    let mut before = Vec::new();
    let mut k = -1;
    while let Some(t) = get(k) {
        before.push(t);
        k -= 1;
    }
    before.reverse();
    let mut after = Vec::new();
    let mut k = 1;
    while let Some(t) = get(k) {
        after.push(t);
        k += 1;
    }
    (before, after)
}

/// (allowed mask, face value of the neighbours, constrained).
fn cross_at(rules: &Rules, pos: &Position, r: usize, c: usize, across: bool) -> (u64, i32, bool) {
    let (before, after) = perpendicular(pos, r, c, across);
    let all: u64 = (1..=rules.alpha.len() as u64).fold(0, |m, k| m | (1 << k));
    if before.is_empty() && after.is_empty() {
        return (all, 0, false);
    }
    let score = before.iter().chain(&after).map(|&t| rules.value(t)).sum();
    let mut mask = 0;
    for k in 1..=rules.alpha.len() as u8 {
        let word: Vec<u8> = before
            .iter()
            .map(|t| t.code)
            .chain(std::iter::once(k))
            .chain(after.iter().map(|t| t.code))
            .collect();
        if rules.is_word(&word) {
            mask |= 1 << k;
        }
    }
    (mask, score, true)
}

/// Every legal tile placement of the CGP position's mover, scored.
pub fn brute_moves(rules: &Rules, cgp: &str) -> Vec<BruteMove> {
    let pos = parse_cgp(rules, cgp).unwrap_or_else(|e| panic!("brute: bad CGP {cgp:?}: {e}"));
    brute_moves_at(rules, &pos)
}

/// Every legal tile placement in `pos`, scored, sorted.
pub fn brute_moves_at(rules: &Rules, pos: &Position) -> Vec<BruteMove> {
    let n = pos.size();
    // Cross-checks for each direction, by square (None for occupied).
    let mut cross: [Vec<Option<(u64, i32, bool)>>; 2] = [Vec::new(), Vec::new()];
    for (d, across) in [true, false].into_iter().enumerate() {
        for r in 0..n {
            for c in 0..n {
                cross[d].push(if pos.at(r, c).is_some() {
                    None
                } else {
                    Some(cross_at(rules, pos, r, c, across))
                });
            }
        }
    }
    let mut out = Vec::new();
    let empty = pos.is_empty_board();
    for (d, across) in [true, false].into_iter().enumerate() {
        if empty && !across {
            continue;
        }
        for line in 0..n {
            let squares: Vec<usize> = (0..n)
                .map(|k| if across { line * n + k } else { k * n + line })
                .collect();
            let mut walk = Walk {
                rules,
                pos,
                across,
                squares: &squares,
                cross: &cross[d],
                rack: pos.rack,
                tiles: Vec::new(),
                codes: Vec::new(),
                out: &mut out,
                empty,
            };
            for s in 0..n {
                if s > 0 && pos.squares[squares[s - 1]].is_some() {
                    continue;
                }
                if !walk.may_touch(s) {
                    continue;
                }
                walk.extend(s, s, 0);
            }
        }
    }
    out.sort();
    out
}

/// A tile of the main word being built: the tile and whether it is new.
#[derive(Clone, Copy)]
struct Laid {
    tile: Tile,
    new: bool,
}

struct Walk<'a> {
    rules: &'a Rules,
    pos: &'a Position,
    across: bool,
    /// The line's squares (row-major indexes), in reading order.
    squares: &'a [usize],
    /// Cross-checks for plays in this direction.
    cross: &'a [Option<(u64, i32, bool)>],
    rack: [u8; 64],
    tiles: Vec<Laid>,
    /// The codes of `tiles`.
    codes: Vec<u8>,
    out: &'a mut Vec<BruteMove>,
    empty: bool,
}

impl Walk<'_> {
    /// Whether a main word starting at `s` can reach a board tile or a
    /// square beside one using at most the rack's tiles (or, on the empty
    /// board, the start square).
    fn may_touch(&self, s: usize) -> bool {
        let size = self.pos.size();
        let start = self.pos.layout.start.0 * size + self.pos.layout.start.1;
        let mut left = self.pos.rack_len();
        for &sq in &self.squares[s..] {
            if self.pos.squares[sq].is_some() {
                return true;
            }
            if left == 0 {
                return false;
            }
            let touches = if self.empty {
                sq == start
            } else {
                self.cross[sq].is_some_and(|x| x.2)
            };
            if touches {
                return true;
            }
            left -= 1;
        }
        false
    }

    fn push(&mut self, l: Laid) {
        self.tiles.push(l);
        self.codes.push(l.tile.code);
    }

    fn pop(&mut self) {
        self.tiles.pop();
        self.codes.pop();
    }

    /// Extends the main word that starts at `s`; `p` is the next square
    /// and `node` the prefix tree's node for the tiles so far (so every
    /// main word tried is the start of some word).
    fn extend(&mut self, s: usize, p: usize, node: u32) {
        let n = self.squares.len();
        if p == n || self.pos.squares[self.squares[p]].is_none() {
            self.record(s);
        }
        if p == n {
            return;
        }
        let sq = self.squares[p];
        if let Some(t) = self.pos.squares[sq] {
            if let Some(next) = self.rules.child(node, t.code) {
                self.push(Laid {
                    tile: t,
                    new: false,
                });
                self.extend(s, p + 1, next);
                self.pop();
            }
            return;
        }
        let (allowed, _, _) = self.cross[sq].expect("an empty square");
        let rules = self.rules;
        for &(code, next) in &rules.trie[node as usize] {
            if allowed & (1 << code) == 0 {
                continue;
            }
            // The tile itself, then a blank standing for it.
            for (kind, blank) in [(code as usize, false), (0, true)] {
                if self.rack[kind] == 0 {
                    continue;
                }
                self.rack[kind] -= 1;
                self.push(Laid {
                    tile: Tile { code, blank },
                    new: true,
                });
                self.extend(s, p + 1, next);
                self.pop();
                self.rack[kind] += 1;
            }
        }
    }

    /// Checks the main word `tiles` starting at square `s` against every
    /// rule and lists it if it is a legal play.
    fn record(&mut self, s: usize) {
        let placed = self.tiles.iter().filter(|l| l.new).count();
        if placed == 0 || self.tiles.len() < 2 {
            // No tile, or a lone tile with no neighbour along the line: a
            // one-tile play is listed in the direction where it has one.
            return;
        }
        let layout = &self.pos.layout;
        let size = layout.size;
        let squares: Vec<usize> = (s..s + self.tiles.len()).map(|k| self.squares[k]).collect();
        if self.empty {
            let start = layout.start.0 * size + layout.start.1;
            if !self.across || placed < 2 || !squares.contains(&start) {
                return;
            }
        } else {
            let through = self.tiles.iter().any(|l| !l.new);
            let hooks = self
                .tiles
                .iter()
                .zip(&squares)
                .any(|(l, &sq)| l.new && self.cross[sq].is_some_and(|x| x.2));
            if !through && !hooks {
                return;
            }
        }
        if placed == 1 && !self.across {
            // Listed across instead if the tile has a horizontal neighbour.
            let (_, sq) = self
                .tiles
                .iter()
                .zip(&squares)
                .find(|(l, _)| l.new)
                .expect("one new tile");
            let (r, c) = (sq / size, sq % size);
            let left = c > 0 && self.pos.at(r, c - 1).is_some();
            let right = c + 1 < size && self.pos.at(r, c + 1).is_some();
            if left || right {
                return;
            }
        }
        if !self.rules.is_word(&self.codes) {
            return;
        }
        // Cross-words were checked as tiles were laid; now score.
        let mut main = 0;
        let mut word_mult = 1;
        let mut crosses = 0;
        for (l, &sq) in self.tiles.iter().zip(&squares) {
            let v = self.rules.value(l.tile);
            if l.new {
                main += v * layout.letter[sq];
                word_mult *= layout.word[sq];
                let (_, around, constrained) = self.cross[sq].expect("empty square");
                if constrained {
                    crosses += (around + v * layout.letter[sq]) * layout.word[sq];
                }
            } else {
                main += v;
            }
        }
        let mut score = main * word_mult + crosses;
        if placed == self.rules.rack_size {
            score += self.pos.bingo;
        }
        let word = self
            .tiles
            .iter()
            .map(|l| self.rules.tile_text(l.tile))
            .collect();
        let placed_text = self
            .tiles
            .iter()
            .map(|l| {
                if l.new {
                    self.rules.tile_text(l.tile)
                } else {
                    ".".to_string()
                }
            })
            .collect();
        self.out.push(BruteMove {
            row: squares[0] / size,
            col: squares[0] % size,
            across: self.across,
            word,
            placed: placed_text,
            score,
        });
    }
}
