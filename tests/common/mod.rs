//! A naive, independent oracle for lexq's word queries.
//!
//! Everything here is a plain scan of a word list: no GADDAG, no automata
//! (except the `regex` crate for regular expressions). Words are read into
//! tiles the way the alphabet documentation describes (uppercase, accents
//! dropped where the alphabet says so, multi-letter tiles read greedily left
//! to right, longest first), and every query is answered by testing each
//! word in turn.
//!
//! `brute` is the brute-force move generator (the board layer's oracle) and
//! `positions` a seeded sampler of CGP positions built on it.

// Each test binary uses part of this module.
#![allow(dead_code)]

pub mod brute;
pub mod positions;
pub mod replay;

use std::collections::HashSet;
use std::fmt;
use std::path::Path;

use lexq::error::{QueryErrorKind, WordErrorKind};
use lexq::{Alphabet, Error, Lexicon, WordList, build};
use unicode_normalization::UnicodeNormalization;

/// The longest word (and query argument), in tiles, lexq accepts.
pub const MAX_TILES: usize = 63;

/// The longest query argument, in bytes, lexq accepts.
pub const MAX_ARG_BYTES: usize = 1024;

/// An alphabet as the oracle sees it: tiles in sorting order, each with its
/// spellings (the label first, then variants such as accented vowels).
/// Codes are 1-based positions.
pub struct TileAlphabet {
    labels: Vec<String>,
    /// Each tile's spellings as chars (the label's first).
    spellings: Vec<Vec<Vec<char>>>,
}

impl TileAlphabet {
    /// An alphabet from its tiles, each a list of spellings (uppercase,
    /// composed), the label first.
    pub fn custom(tiles: &[&[&str]]) -> TileAlphabet {
        TileAlphabet {
            labels: tiles.iter().map(|t| t[0].to_string()).collect(),
            spellings: tiles
                .iter()
                .map(|t| t.iter().map(|s| s.chars().collect()).collect())
                .collect(),
        }
    }

    /// `A` to `Z`.
    pub fn english() -> TileAlphabet {
        let labels: Vec<String> = ('A'..='Z').map(String::from).collect();
        let tiles: Vec<[&str; 1]> = labels.iter().map(|l| [l.as_str()]).collect();
        let refs: Vec<&[&str]> = tiles.iter().map(|t| &t[..]).collect();
        TileAlphabet::custom(&refs)
    }

    /// Spanish: CH, LL, RR and Ñ are tiles, K and W are not; accented
    /// vowels read as the plain vowel.
    pub fn spanish() -> TileAlphabet {
        TileAlphabet::custom(&[
            &["A", "Á", "À", "Â", "Ä"],
            &["B"],
            &["C"],
            &["CH"],
            &["D"],
            &["E", "É", "È", "Ê", "Ë"],
            &["F"],
            &["G"],
            &["H"],
            &["I", "Í", "Ì", "Î", "Ï"],
            &["J"],
            &["L"],
            &["LL"],
            &["M"],
            &["N"],
            &["Ñ"],
            &["O", "Ó", "Ò", "Ô", "Ö"],
            &["P"],
            &["Q"],
            &["R"],
            &["RR"],
            &["S"],
            &["T"],
            &["U", "Ú", "Ù", "Û", "Ü"],
            &["V"],
            &["X"],
            &["Y"],
            &["Z"],
        ])
    }

    /// Catalan: Ç, L·L (also written L.L, ĿL, L•L), NY and QU (QÜ) are
    /// tiles; accented vowels read as the plain vowel.
    pub fn catalan() -> TileAlphabet {
        TileAlphabet::custom(&[
            &["A", "À", "Á"],
            &["B"],
            &["C"],
            &["Ç"],
            &["D"],
            &["E", "É", "È"],
            &["F"],
            &["G"],
            &["H"],
            &["I", "Í", "Ï", "Ì"],
            &["J"],
            &["L"],
            &["L·L", "L.L", "ĿL", "L•L"],
            &["M"],
            &["N"],
            &["NY"],
            &["O", "Ó", "Ò"],
            &["P"],
            &["QU", "QÜ"],
            &["R"],
            &["S"],
            &["T"],
            &["U", "Ú", "Ü", "Ù"],
            &["V"],
            &["X"],
            &["Z"],
        ])
    }

    /// The number of tiles.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// The label of tile `code` (uppercase).
    pub fn label(&self, code: u8) -> &str {
        &self.labels[code as usize - 1]
    }

    /// Every spelling of tile `code`, the label first.
    pub fn spellings(&self, code: u8) -> &[Vec<char>] {
        &self.spellings[code as usize - 1]
    }

    /// The code of the tile spelled `label` (uppercase).
    pub fn code(&self, label: &str) -> u8 {
        let i = self.labels.iter().position(|l| l == label);
        i.expect("a label of the alphabet") as u8 + 1
    }

    /// Folds `s` as lexq documents: lowercase then uppercase (full
    /// mappings: `ß` is `SS`, `ﬁ` is `FI`), then canonical composition
    /// (`e` + U+0301 is `É`).
    pub fn fold(&self, s: &str) -> Vec<char> {
        let upper: String = s
            .chars()
            .flat_map(char::to_lowercase)
            .flat_map(char::to_uppercase)
            .collect();
        upper.nfc().collect()
    }

    /// The longest spelling at the start of `chars` (already folded): its
    /// tile's code and how many chars it spans.
    pub fn tile_at(&self, chars: &[char]) -> Option<(u8, usize)> {
        let mut best: Option<(u8, usize)> = None;
        for (i, spellings) in self.spellings.iter().enumerate() {
            for l in spellings {
                if chars.starts_with(l) && best.is_none_or(|(_, n)| l.len() > n) {
                    best = Some((i as u8 + 1, l.len()));
                }
            }
        }
        best
    }

    /// Reads `s` as tiles, or `None` if some character is no tile.
    pub fn tokenize(&self, s: &str) -> Option<Vec<u8>> {
        let chars = self.fold(s);
        let mut rest = &chars[..];
        let mut out = Vec::new();
        while !rest.is_empty() {
            let (code, n) = self.tile_at(rest)?;
            out.push(code);
            rest = &rest[n..];
        }
        Some(out)
    }

    /// The spelling of `codes` (uppercase labels back to back).
    pub fn spell(&self, codes: &[u8]) -> String {
        codes.iter().map(|&c| self.label(c)).collect()
    }

    /// The text a regex is matched against: one char per tile, the label
    /// itself for one-letter tiles and a private-use character for
    /// multi-letter ones (so `.` is one tile and a literal `C` is not `CH`).
    pub fn regex_text(&self, codes: &[u8]) -> String {
        codes
            .iter()
            .map(|&c| {
                let l = &self.spellings[c as usize - 1][0];
                if l.len() == 1 {
                    l[0]
                } else {
                    char::from_u32(0xE000 + c as u32).expect("private use char")
                }
            })
            .collect()
    }
}

/// A query, as a user would type its arguments.
#[derive(Clone, Debug)]
pub enum Query {
    Contains(String),
    Starts(String),
    Ends(String),
    Pattern(String),
    Regex(String),
    /// A regex built as a tree: lexq gets it written out, the oracle reads
    /// the tree by the documented rules (see [`RNode`]).
    RegexTree(RNode),
    Anagram(String, Option<String>),
    Subanagram(String, Option<String>),
    Hooks(String),
    IsWord(String),
}

/// A query with an optional length filter (`Search::lengths(min, max)`).
#[derive(Clone)]
pub struct Case {
    pub query: Query,
    pub lens: Option<(usize, usize)>,
}

impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.lens {
            Some((a, b)) => write!(f, "{:?} lengths({a}, {b})", self.query),
            None => write!(f, "{:?}", self.query),
        }
    }
}

/// What a query answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Words(Vec<String>),
    Hooks {
        word: String,
        front: String,
        back: String,
        is_word: bool,
    },
    Bool(bool),
    /// The query was refused, for this reason.
    Error(Refusal),
}

/// Why a query is refused, as the oracle judges it (and as lexq's error
/// kinds are mapped to it: the comparison is by kind, not by message).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Nothing but spaces.
    Empty,
    /// More bytes than lexq takes.
    TooLong,
    /// More tiles than a word may have.
    TooManyTiles,
    /// A character that starts no tile (uppercased).
    NotALetter(String),
    /// Pattern: `[` without `]`.
    UnclosedBracket,
    /// Pattern: `]` without `[`.
    UnopenedBracket,
    /// Pattern: `-` not between two letters.
    BadRange,
    /// Pattern: a range from a later to an earlier letter.
    BackwardsRange,
    /// Pattern: a bracket matching no letter.
    EmptyClass,
    /// Rack: a bracket not closed or not holding exactly one tile.
    BadBracket,
    /// Regex: does not parse.
    RegexSyntax,
    /// Anything else lexq said (never expected by the oracle).
    Other(String),
}

impl Refusal {
    /// The refusal lexq's error `e` amounts to.
    pub fn of(e: &Error) -> Refusal {
        // As written by the user, possibly decomposed: fold like the oracle.
        let letter = |found: &str| Refusal::NotALetter(found.to_uppercase().nfc().collect());
        match e {
            Error::Word { kind, .. } => match kind {
                WordErrorKind::Empty => Refusal::Empty,
                WordErrorKind::TooLong { .. } => Refusal::TooLong,
                WordErrorKind::TooManyTiles { .. } => Refusal::TooManyTiles,
                WordErrorKind::NotInAlphabet { found, .. } => letter(found),
                WordErrorKind::BadBracket { .. } => Refusal::BadBracket,
                _ => Refusal::Other(e.to_string()),
            },
            Error::Query(q) => match &q.kind {
                QueryErrorKind::Empty => Refusal::Empty,
                QueryErrorKind::TooLong { .. } => Refusal::TooLong,
                QueryErrorKind::NotALetter { found, .. } => letter(found),
                QueryErrorKind::UnclosedBracket => Refusal::UnclosedBracket,
                QueryErrorKind::UnopenedBracket => Refusal::UnopenedBracket,
                QueryErrorKind::BadRange => Refusal::BadRange,
                QueryErrorKind::BackwardsRange { .. } => Refusal::BackwardsRange,
                QueryErrorKind::EmptyClass => Refusal::EmptyClass,
                QueryErrorKind::Syntax(_) => Refusal::RegexSyntax,
                _ => Refusal::Other(e.to_string()),
            },
            _ => Refusal::Other(e.to_string()),
        }
    }
}

impl Outcome {
    /// Whether the outcome says something non-trivial (a word found, a
    /// hook, a word judged valid): used to make sure generators produce
    /// meaningful cases.
    pub fn is_interesting(&self) -> bool {
        match self {
            Outcome::Words(w) => !w.is_empty(),
            Outcome::Hooks {
                front,
                back,
                is_word,
                ..
            } => !front.is_empty() || !back.is_empty() || *is_word,
            Outcome::Bool(b) => *b,
            Outcome::Error(_) => false,
        }
    }
}

fn same(a: &Outcome, b: &Outcome) -> bool {
    match (a, b) {
        (Outcome::Words(x), Outcome::Words(y)) => x == y,
        (
            Outcome::Hooks {
                word: w1,
                front: f1,
                back: b1,
                is_word: i1,
            },
            Outcome::Hooks {
                word: w2,
                front: f2,
                back: b2,
                is_word: i2,
            },
        ) => w1 == w2 && f1 == f2 && b1 == b2 && i1 == i2,
        (Outcome::Bool(x), Outcome::Bool(y)) => x == y,
        (Outcome::Error(x), Outcome::Error(y)) => x == y,
        _ => false,
    }
}

/// A readable account of how two word lists differ.
fn diff(want: &Outcome, got: &Outcome) -> String {
    let (Outcome::Words(w), Outcome::Words(g)) = (want, got) else {
        return format!("expected {want:?}\n     got {got:?}");
    };
    let ws: HashSet<&String> = w.iter().collect();
    let gs: HashSet<&String> = g.iter().collect();
    let missing: Vec<&String> = w.iter().filter(|x| !gs.contains(x)).take(30).collect();
    let extra: Vec<&String> = g.iter().filter(|x| !ws.contains(x)).take(30).collect();
    let mut s = format!("expected {} words, got {}", w.len(), g.len());
    if !missing.is_empty() {
        s += &format!("\n  missing (first 30): {missing:?}");
    }
    if !extra.is_empty() {
        s += &format!("\n  extra (first 30): {extra:?}");
    }
    if missing.is_empty() && extra.is_empty() {
        s += "\n  same words, different order or duplicates";
        if w.len() < 60 && g.len() < 60 {
            s += &format!("\n  expected {w:?}\n  got      {g:?}");
        }
    }
    s
}

/// A rack read by the oracle.
struct Rack {
    counts: [usize; 64],
    blanks: usize,
    total: usize,
}

/// A wildcard pattern item.
enum Item {
    /// One tile out of a set (a letter, `?`, or a bracket).
    One([bool; 64]),
    /// `*`: any run of tiles.
    Star,
}

/// The word list and the scan-everything answers to queries.
pub struct Oracle {
    pub alpha: TileAlphabet,
    /// Words as tile codes, sorted by code (alphabet order), each once.
    pub words: Vec<Vec<u8>>,
    spelled: Vec<String>,
    rtext: Vec<String>,
    set: HashSet<Vec<u8>>,
}

impl Oracle {
    /// The words of a word list, one a line: blank lines and `#` lines are
    /// skipped, as are words with a character that is no tile and words
    /// longer than 63 tiles.
    pub fn new(alpha: TileAlphabet, text: &str) -> Oracle {
        let mut words: Vec<Vec<u8>> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .filter_map(|l| alpha.tokenize(l))
            .filter(|w| w.len() <= MAX_TILES)
            .collect();
        words.sort();
        words.dedup();
        let spelled = words.iter().map(|w| alpha.spell(w)).collect();
        let rtext = words.iter().map(|w| alpha.regex_text(w)).collect();
        let set = words.iter().cloned().collect();
        Oracle {
            alpha,
            words,
            spelled,
            rtext,
            set,
        }
    }

    pub fn is_word(&self, codes: &[u8]) -> bool {
        self.set.contains(codes)
    }

    /// Reads `s` as tiles, or the refusal naming the first character that
    /// is no tile.
    fn tiles(&self, s: &str) -> Result<Vec<u8>, Refusal> {
        let chars = self.alpha.fold(s);
        let mut rest = &chars[..];
        let mut out = Vec::new();
        while let Some(&c) = rest.first() {
            let (code, n) = self.alpha.tile_at(rest).ok_or_else(|| not_a_letter(c))?;
            out.push(code);
            rest = &rest[n..];
        }
        Ok(out)
    }

    /// A query argument read as tiles (trimmed, non-empty, at most 1024
    /// bytes and 63 tiles).
    fn arg(&self, s: &str) -> Result<Vec<u8>, Refusal> {
        let s = s.trim();
        if s.is_empty() {
            return Err(Refusal::Empty);
        }
        if s.len() > MAX_ARG_BYTES {
            return Err(Refusal::TooLong);
        }
        let t = self.tiles(s)?;
        if t.len() > MAX_TILES {
            return Err(Refusal::TooManyTiles);
        }
        Ok(t)
    }

    fn rack(&self, s: &str) -> Result<Rack, Refusal> {
        let s = s.trim();
        if s.is_empty() {
            return Err(Refusal::Empty);
        }
        if s.len() > MAX_ARG_BYTES {
            return Err(Refusal::TooLong);
        }
        let chars = self.alpha.fold(s);
        let mut rack = Rack {
            counts: [0; 64],
            blanks: 0,
            total: 0,
        };
        let mut rest = &chars[..];
        while let Some(&c) = rest.first() {
            if c == '?' || c == '_' {
                rack.blanks += 1;
                rest = &rest[1..];
            } else if c == '[' {
                // `[R]`: exactly one tile, whatever the letters after it.
                let close = rest
                    .iter()
                    .position(|&c| c == ']')
                    .ok_or(Refusal::BadBracket)?;
                let inner = &rest[1..close];
                match self.alpha.tile_at(inner) {
                    Some((code, n)) if n == inner.len() => rack.counts[code as usize] += 1,
                    _ => return Err(Refusal::BadBracket),
                }
                rest = &rest[close + 1..];
            } else {
                let (code, n) = self.alpha.tile_at(rest).ok_or_else(|| not_a_letter(c))?;
                rack.counts[code as usize] += 1;
                rest = &rest[n..];
            }
            rack.total += 1;
        }
        if rack.total > MAX_TILES {
            return Err(Refusal::TooManyTiles);
        }
        Ok(rack)
    }

    /// Parses a wildcard pattern: `?`, `*`, `[ABC]`, `[^ABC]`, `[A-E]`
    /// (ranges in alphabet order), letters read greedily as tiles.
    fn pattern(&self, p: &str) -> Result<Vec<Item>, Refusal> {
        if p.len() > MAX_ARG_BYTES {
            return Err(Refusal::TooLong);
        }
        let chars = self.alpha.fold(p.trim());
        let n = self.alpha.len();
        let all = {
            let mut s = [false; 64];
            s[1..=n].fill(true);
            s
        };
        let mut items = Vec::new();
        let mut rest = &chars[..];
        if rest.is_empty() {
            return Err(Refusal::Empty);
        }
        while let Some(&c) = rest.first() {
            match c {
                '?' => {
                    items.push(Item::One(all));
                    rest = &rest[1..];
                }
                '*' => {
                    items.push(Item::Star);
                    rest = &rest[1..];
                }
                '[' => {
                    rest = &rest[1..];
                    let negate = rest.first() == Some(&'^');
                    if negate {
                        rest = &rest[1..];
                    }
                    let mut set = [false; 64];
                    loop {
                        let c = match rest.first() {
                            None => return Err(Refusal::UnclosedBracket),
                            Some(']') => {
                                rest = &rest[1..];
                                break;
                            }
                            Some(&c) => c,
                        };
                        let (from, k) = self.alpha.tile_at(rest).ok_or_else(|| not_a_letter(c))?;
                        rest = &rest[k..];
                        let mut to = from;
                        if rest.first() == Some(&'-') {
                            let (t, k) = self.alpha.tile_at(&rest[1..]).ok_or(Refusal::BadRange)?;
                            if t < from {
                                return Err(Refusal::BackwardsRange);
                            }
                            to = t;
                            rest = &rest[1 + k..];
                        }
                        for code in from..=to {
                            set[code as usize] = true;
                        }
                    }
                    if negate {
                        for x in &mut set[1..=n] {
                            *x = !*x;
                        }
                    }
                    if !set.contains(&true) {
                        return Err(Refusal::EmptyClass);
                    }
                    items.push(Item::One(set));
                }
                ']' => return Err(Refusal::UnopenedBracket),
                _ => {
                    let (code, k) = self.alpha.tile_at(rest).ok_or_else(|| not_a_letter(c))?;
                    let mut set = [false; 64];
                    set[code as usize] = true;
                    items.push(Item::One(set));
                    rest = &rest[k..];
                }
            }
        }
        Ok(items)
    }

    /// Answers `case` by scanning every word.
    pub fn eval(&self, case: &Case) -> Outcome {
        let (min, max) = case.lens.unwrap_or((0, usize::MAX));
        let pick = |keep: &dyn Fn(usize, &[u8]) -> bool| {
            let mut out = Vec::new();
            for (i, w) in self.words.iter().enumerate() {
                if min <= w.len() && w.len() <= max && keep(i, w) {
                    out.push(self.spelled[i].clone());
                }
            }
            Outcome::Words(out)
        };
        let answer = || -> Result<Outcome, Refusal> {
            Ok(match &case.query {
                Query::Contains(s) => {
                    let t = self.arg(s)?;
                    pick(&|_, w| w.windows(t.len()).any(|x| x == &t[..]))
                }
                Query::Starts(s) => {
                    let t = self.arg(s)?;
                    pick(&|_, w| w.starts_with(&t))
                }
                Query::Ends(s) => {
                    let t = self.arg(s)?;
                    pick(&|_, w| w.ends_with(&t))
                }
                Query::Pattern(p) => {
                    let items = self.pattern(p)?;
                    pick(&|_, w| pattern_matches(&items, w))
                }
                Query::Regex(r) => {
                    if r.len() > MAX_ARG_BYTES {
                        return Err(Refusal::TooLong);
                    }
                    let re = regex::Regex::new(&format!("(?i)^(?:{r})$"))
                        .map_err(|_| Refusal::RegexSyntax)?;
                    pick(&|i, _| re.is_match(&self.rtext[i]))
                }
                Query::RegexTree(tree) => {
                    let tiles = self.tile_regex(tree)?;
                    let re = regex::Regex::new(&format!("^(?:{tiles})$"))
                        .expect("the oracle's tile regex parses");
                    pick(&|i, _| re.is_match(&self.rtext[i]))
                }
                Query::Anagram(rack, through) | Query::Subanagram(rack, through) => {
                    let exact = matches!(case.query, Query::Anagram(..));
                    let rack = self.rack(rack)?;
                    let through = match through {
                        Some(t) => self.arg(t)?,
                        None => Vec::new(),
                    };
                    let min_used = match (exact, through.is_empty()) {
                        (true, _) => rack.total,
                        (false, true) => 2,
                        (false, false) => 1,
                    };
                    pick(&|_, w| rack_fits(w, &rack, &through, exact, min_used))
                }
                Query::Hooks(s) => {
                    let t = self.arg(s)?;
                    let mut front = String::new();
                    let mut back = String::new();
                    for code in 1..=self.alpha.len() as u8 {
                        let mut f = vec![code];
                        f.extend_from_slice(&t);
                        if self.is_word(&f) {
                            front += self.alpha.label(code);
                        }
                        let mut b = t.clone();
                        b.push(code);
                        if self.is_word(&b) {
                            back += self.alpha.label(code);
                        }
                    }
                    Outcome::Hooks {
                        word: self.alpha.spell(&t),
                        front,
                        back,
                        is_word: self.is_word(&t),
                    }
                }
                Query::IsWord(s) => Outcome::Bool(self.is_word(&self.arg(s)?)),
            })
        };
        answer().unwrap_or_else(Outcome::Error)
    }
}

/// The refusal for a (folded) character that starts no tile.
fn not_a_letter(c: char) -> Refusal {
    Refusal::NotALetter(c.to_string())
}

/// Whether `w` is matched whole by the pattern `items`.
fn pattern_matches(items: &[Item], w: &[u8]) -> bool {
    // reach[j]: the items so far can match exactly w[..j].
    let mut reach = vec![false; w.len() + 1];
    reach[0] = true;
    for item in items {
        let mut next = vec![false; w.len() + 1];
        match item {
            Item::Star => {
                let mut any = false;
                for j in 0..=w.len() {
                    any |= reach[j];
                    next[j] = any;
                }
            }
            Item::One(set) => {
                for j in 0..w.len() {
                    next[j + 1] = reach[j] && set[w[j] as usize];
                }
            }
        }
        reach = next;
    }
    reach[w.len()]
}

/// Whether `w` is `through` (somewhere in it, as one block) plus tiles of
/// the rack: all of them if `exact`, else at least `min_used`. Blanks stand
/// for any tile.
fn rack_fits(w: &[u8], rack: &Rack, through: &[u8], exact: bool, min_used: usize) -> bool {
    if w.len() < through.len() {
        return false;
    }
    let used = w.len() - through.len();
    if used < min_used || used > rack.total || (exact && used != rack.total) {
        return false;
    }
    let starts: Vec<usize> = if through.is_empty() {
        vec![0]
    } else {
        (0..=w.len() - through.len())
            .filter(|&i| &w[i..i + through.len()] == through)
            .collect()
    };
    starts.into_iter().any(|i| {
        let mut counts = [0usize; 64];
        for (j, &c) in w.iter().enumerate() {
            if j < i || j >= i + through.len() {
                counts[c as usize] += 1;
            }
        }
        let short: usize = (0..64)
            .map(|c| counts[c].saturating_sub(rack.counts[c]))
            .sum();
        short <= rack.blanks
    })
}

/// The search played through the board letters `t`, if given.
fn through<'l>(search: lexq::Search<'l>, t: &'l Option<String>) -> lexq::Search<'l> {
    match t {
        Some(t) => search.through(t),
        None => search,
    }
}

/// Answers `case` with lexq.
pub fn run_lexq(lex: &Lexicon, case: &Case) -> Outcome {
    let search = match case.lens {
        Some((a, b)) => lex.search().lengths(a, b),
        None => lex.search(),
    };
    let words = match &case.query {
        Query::Contains(s) => search.contains(s),
        Query::Starts(s) => search.starts(s),
        Query::Ends(s) => search.ends(s),
        Query::Pattern(p) => search.pattern(p),
        Query::Regex(r) => search.regex(r),
        Query::RegexTree(tree) => search.regex(&tree.to_string()),
        Query::Anagram(rack, t) => through(search, t).anagram(rack),
        Query::Subanagram(rack, t) => through(search, t).subanagram(rack),
        Query::Hooks(s) => {
            return match lex.hooks(s) {
                Ok(h) => Outcome::Hooks {
                    word: h.word(),
                    front: h.front_letters(),
                    back: h.back_letters(),
                    is_word: h.is_word,
                },
                Err(e) => Outcome::Error(Refusal::of(&e)),
            };
        }
        Query::IsWord(s) => {
            return match lex.is_word(s) {
                Ok(b) => Outcome::Bool(b),
                Err(e) => Outcome::Error(Refusal::of(&e)),
            };
        }
    };
    match words {
        Ok(w) => Outcome::Words(w.to_strings()),
        Err(e) => Outcome::Error(Refusal::of(&e)),
    }
}

/// Compares lexq with the oracle on `case`; the error describes the
/// mismatch. On success, returns the oracle's outcome.
pub fn check(lex: &Lexicon, oracle: &Oracle, case: &Case) -> Result<Outcome, String> {
    let want = oracle.eval(case);
    let got = run_lexq(lex, case);
    if same(&want, &got) {
        Ok(want)
    } else {
        Err(format!("{case:?}: {}", diff(&want, &got)))
    }
}

/// Builds a lexicon from the lines of `text` with lexq's own builder (an
/// error if no line is a word).
pub fn build_lexicon(alphabet: Alphabet, text: &str) -> lexq::Result<Lexicon> {
    let mut list = WordList::new(alphabet);
    list.read_bytes(Path::new("test.txt"), text.as_bytes())?;
    let built = build(&list, &mut ())?;
    Lexicon::from_bytes(built.bytes)
}

// ---------------------------------------------------------------------------
// Regexes as trees

/// A regex as a tree. `Display` writes it in the `regex` crate's syntax for
/// lexq; [`Oracle::tile_regex`] reads it by lexq's documented rules, with
/// no code of lexq or `regex-syntax`:
///
/// - a run of literals in a concatenation (flags in between change
///   nothing) is read as tiles the way words are;
/// - groups, classes and repetitions end a run;
/// - a class matches the tiles one of whose spellings has all its letters
///   in the class, in either case; a negated class the other tiles;
/// - flags (`(?i)`, `(?-i)`, `(?x)`) change nothing: matching ignores case.
#[derive(Clone, Debug)]
pub enum RNode {
    /// Literal text, escaped when written.
    Lit(String),
    /// `[...]` or `[^...]`.
    Class {
        negated: bool,
        atoms: Vec<Atom>,
    },
    /// A class standing alone: `\w`, `\W`, `\pL`, `\P{Ll}`...
    Perl {
        atom: Atom,
        negated: bool,
    },
    /// `.`
    Dot,
    Concat(Vec<RNode>),
    /// Alternatives (written bare: put it in a group).
    Alt(Vec<RNode>),
    Group(Group, Box<RNode>),
    /// A repetition with its quantifier (`*`, `{1,2}?`...).
    Rep(Box<RNode>, String),
    /// Flags set for the rest of the group (`(?i)`): the flag letters.
    Flags(String),
    /// `(?x)` and then the tree with spaces between items.
    Spaced(Box<RNode>),
}

/// The kinds of group.
#[derive(Clone, Debug)]
pub enum Group {
    /// `( )`
    Capture,
    /// `(?P<name> )`
    NamedP(String),
    /// `(?<name> )`
    Named(String),
    /// `(?: )`
    NonCapturing,
    /// `(?flags: )`
    Flagged(String),
}

/// A member of a class.
#[derive(Clone, Debug)]
pub enum Atom {
    /// These characters.
    Chars(String),
    /// A range of characters.
    Range(char, char),
    /// `[:name:]` (ASCII: alpha, lower, upper, alnum, digit, word).
    Posix(&'static str),
    /// `\w` or `\d` (Unicode).
    Perl(char),
    /// `\p{name}` (L, Ll, Lu).
    Unicode(&'static str),
}

impl Atom {
    /// Whether the atom holds `c` (as written, case-sensitively).
    fn holds(&self, c: char) -> bool {
        match self {
            Atom::Chars(s) => s.contains(c),
            // Case never matters: a range between two letters is the
            // letters between their lower cases (`A-e` is `a-e`).
            Atom::Range(a, b) if a.is_alphabetic() && b.is_alphabetic() => {
                let lower = |x: char| x.to_lowercase().next().unwrap_or(x);
                (lower(*a)..=lower(*b)).contains(&lower(c))
            }
            Atom::Range(a, b) => (*a..=*b).contains(&c),
            Atom::Posix(name) => match *name {
                "alpha" => c.is_ascii_alphabetic(),
                "lower" => c.is_ascii_lowercase(),
                "upper" => c.is_ascii_uppercase(),
                "alnum" => c.is_ascii_alphanumeric(),
                "digit" => c.is_ascii_digit(),
                "word" => c.is_ascii_alphanumeric() || c == '_',
                other => panic!("no POSIX class {other}"),
            },
            Atom::Perl('w') => c.is_alphanumeric() || c == '_',
            Atom::Perl('d') => c.is_numeric(),
            Atom::Perl(other) => panic!("no Perl class {other}"),
            Atom::Unicode(name) => match *name {
                "L" => c.is_alphabetic(),
                "Ll" => c.is_lowercase(),
                "Lu" => c.is_uppercase(),
                other => panic!("no Unicode class {other}"),
            },
        }
    }

    /// Whether the atom holds `c` in some case.
    fn holds_any_case(&self, c: char) -> bool {
        self.holds(c)
            || c.to_lowercase().any(|l| self.holds(l))
            || c.to_uppercase().any(|u| self.holds(u))
    }
}

impl fmt::Display for Atom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let class_char = |f: &mut fmt::Formatter<'_>, c: char| {
            if "\\[]^-&~".contains(c) {
                write!(f, "\\{c}")
            } else {
                write!(f, "{c}")
            }
        };
        match self {
            Atom::Chars(s) => s.chars().try_for_each(|c| class_char(f, c)),
            Atom::Range(a, b) => {
                class_char(f, *a)?;
                f.write_str("-")?;
                class_char(f, *b)
            }
            Atom::Posix(name) => write!(f, "[:{name}:]"),
            Atom::Perl(c) => write!(f, "\\{c}"),
            Atom::Unicode(name) if name.len() == 1 => write!(f, "\\p{name}"),
            Atom::Unicode(name) => write!(f, "\\p{{{name}}}"),
        }
    }
}

impl RNode {
    fn write(&self, f: &mut fmt::Formatter<'_>, spaced: bool) -> fmt::Result {
        match self {
            RNode::Lit(s) => f.write_str(&regex::escape(s)),
            RNode::Class { negated, atoms } => {
                f.write_str(if *negated { "[^" } else { "[" })?;
                atoms.iter().try_for_each(|a| write!(f, "{a}"))?;
                f.write_str("]")
            }
            RNode::Perl { atom, negated } => {
                let text = atom.to_string();
                if *negated {
                    // \w → \W, \pL → \PL
                    let mut chars = text.chars();
                    chars.next();
                    let c = chars.next().expect("an escape");
                    write!(f, "\\{}{}", c.to_ascii_uppercase(), chars.as_str())
                } else {
                    f.write_str(&text)
                }
            }
            RNode::Dot => f.write_str("."),
            RNode::Concat(items) => {
                for (i, item) in items.iter().enumerate() {
                    if spaced && i > 0 {
                        f.write_str(" ")?;
                    }
                    item.write(f, spaced)?;
                }
                Ok(())
            }
            RNode::Alt(alts) => {
                for (i, alt) in alts.iter().enumerate() {
                    if i > 0 {
                        f.write_str("|")?;
                    }
                    alt.write(f, spaced)?;
                }
                Ok(())
            }
            RNode::Group(kind, inner) => {
                match kind {
                    Group::Capture => f.write_str("(")?,
                    Group::NamedP(n) => write!(f, "(?P<{n}>")?,
                    Group::Named(n) => write!(f, "(?<{n}>")?,
                    Group::NonCapturing => f.write_str("(?:")?,
                    Group::Flagged(flags) => write!(f, "(?{flags}:")?,
                }
                inner.write(f, spaced)?;
                f.write_str(")")
            }
            RNode::Rep(sub, q) => {
                let bare = match &**sub {
                    RNode::Lit(s) => s.chars().count() == 1,
                    RNode::Concat(_) | RNode::Alt(_) | RNode::Spaced(_) => false,
                    _ => true,
                };
                if bare {
                    sub.write(f, spaced)?;
                } else {
                    f.write_str("(?:")?;
                    sub.write(f, spaced)?;
                    f.write_str(")")?;
                }
                f.write_str(q)
            }
            RNode::Flags(flags) => write!(f, "(?{flags})"),
            RNode::Spaced(inner) => {
                f.write_str("(?x)")?;
                inner.write(f, true)
            }
        }
    }
}

impl fmt::Display for RNode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, false)
    }
}

/// A character no tile text holds, for classes that match no tile.
const NEVER: char = '\u{10FFFD}';

impl Oracle {
    /// The tiles (as regex-text characters, escaped) a class of `atoms`
    /// matches, by the rule of [`RNode`].
    fn class_tiles(&self, atoms: &[Atom], negated: bool) -> String {
        let mut out = String::new();
        for code in 1..=self.alpha.len() as u8 {
            let fits = self.alpha.spellings(code).iter().any(|sp| {
                let letters: Vec<char> = sp.iter().copied().filter(|c| c.is_alphabetic()).collect();
                let looked: &[char] = if letters.is_empty() { sp } else { &letters };
                looked
                    .iter()
                    .all(|&c| atoms.iter().any(|a| a.holds_any_case(c)))
            });
            if fits != negated {
                out += &regex::escape(&self.alpha.regex_text(&[code]));
            }
        }
        if out.is_empty() {
            format!("[{NEVER}]")
        } else {
            format!("[{out}]")
        }
    }

    /// The regex over regex text (one character a tile) that `tree` means.
    pub fn tile_regex(&self, tree: &RNode) -> Result<String, Refusal> {
        Ok(match tree {
            RNode::Lit(_) | RNode::Flags(_) => self.literal_run(std::slice::from_ref(tree))?,
            RNode::Class { negated, atoms } => self.class_tiles(atoms, *negated),
            RNode::Perl { atom, negated } => self.class_tiles(std::slice::from_ref(atom), *negated),
            RNode::Dot => ".".to_string(),
            RNode::Concat(items) => {
                let mut out = String::new();
                let mut i = 0;
                while i < items.len() {
                    let run = items[i..]
                        .iter()
                        .take_while(|n| matches!(n, RNode::Lit(_) | RNode::Flags(_)))
                        .count();
                    if run > 0 {
                        out += &self.literal_run(&items[i..i + run])?;
                        i += run;
                    } else {
                        out += &self.tile_regex(&items[i])?;
                        i += 1;
                    }
                }
                out
            }
            RNode::Alt(alts) => {
                let alts: Vec<String> = alts
                    .iter()
                    .map(|a| self.tile_regex(a))
                    .collect::<Result<_, _>>()?;
                format!("(?:{})", alts.join("|"))
            }
            RNode::Group(_, inner) | RNode::Spaced(inner) => {
                format!("(?:{})", self.tile_regex(inner)?)
            }
            RNode::Rep(sub, q) => format!("(?:{}){q}", self.tile_regex(sub)?),
        })
    }

    /// A run of literals read as tiles.
    fn literal_run(&self, items: &[RNode]) -> Result<String, Refusal> {
        let text: String = items
            .iter()
            .filter_map(|n| match n {
                RNode::Lit(s) => Some(s.as_str()),
                _ => None,
            })
            .collect();
        let codes = self.tiles(&text)?;
        Ok(regex::escape(&self.alpha.regex_text(&codes)))
    }
}
