//! Every query type checked against a naive oracle (a plain scan of the
//! word list, see `common/mod.rs`), on ENABLE, on small hand-made and
//! randomly generated lexicons, and on a Spanish sample with multi-letter
//! tiles.

use std::cell::Cell;
use std::sync::LazyLock;

use lexq::{Alphabet, Lexicon};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{Index, select, subsequence};
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use unicode_normalization::UnicodeNormalization;

use crate::common::{
    Atom, Case, Group, Oracle, Outcome, Query, RNode, Refusal, TileAlphabet, build_lexicon, check,
};

// ---------------------------------------------------------------------------
// Lexicons and their oracles

static ENABLE_LEX: LazyLock<Lexicon> = LazyLock::new(Lexicon::embedded);

/// The same lexicon set up as a server sets it up
/// ([`Lexicon::prepare_walks`]): anagram walks also leave nodes below which
/// a tile held is never read.
static ENABLE_PREPARED_LEX: LazyLock<Lexicon> = LazyLock::new(|| {
    let lex = Lexicon::embedded();
    lex.prepare_walks();
    lex
});

static ENABLE: LazyLock<Oracle> = LazyLock::new(|| {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/indexes/enable1.txt");
    let text = std::fs::read_to_string(path).expect("indexes/enable1.txt");
    Oracle::new(TileAlphabet::english(), &text)
});

const SPANISH_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/spanish-sample.txt");

static SPANISH_TEXT: LazyLock<String> =
    LazyLock::new(|| std::fs::read_to_string(SPANISH_PATH).expect("tests/data/spanish-sample.txt"));

static SPANISH_LEX: LazyLock<Lexicon> =
    LazyLock::new(|| build_lexicon(Alphabet::spanish(), &SPANISH_TEXT).expect("spanish sample"));

static SPANISH_PREPARED_LEX: LazyLock<Lexicon> = LazyLock::new(|| {
    let lex = build_lexicon(Alphabet::spanish(), &SPANISH_TEXT).expect("spanish sample");
    lex.prepare_walks();
    lex
});

static SPANISH: LazyLock<Oracle> =
    LazyLock::new(|| Oracle::new(TileAlphabet::spanish(), &SPANISH_TEXT));

// ---------------------------------------------------------------------------
// Random choices

/// A stream of choices drawn from proptest's numbers. Past the end every
/// choice is 0, and 0 is always the plainest choice, so shrinking the
/// numbers towards 0 shrinks the generated query towards a plain one.
struct Rnd<'a> {
    v: &'a [u32],
    i: usize,
}

impl<'a> Rnd<'a> {
    fn new(v: &'a [u32]) -> Rnd<'a> {
        Rnd { v, i: 0 }
    }

    /// A number below `n` (0 if `n` is 0).
    fn next(&mut self, n: usize) -> usize {
        let x = self.v.get(self.i).copied().unwrap_or(0) as usize;
        self.i += 1;
        if n == 0 { 0 } else { x % n }
    }

    /// True one time in `n`.
    fn chance(&mut self, n: usize) -> bool {
        self.next(n) == 1
    }

    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.next(i + 1);
            v.swap(i, j);
        }
    }
}

/// What kind of query to make.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Affix,
    Pattern,
    RegexFromWord,
    RegexRandom,
    Anagram,
    Subanagram,
    Hooks,
    /// A regex built as a tree (see `common::RNode`): classes, groups,
    /// flags and literals over every tile, multi-letter ones included.
    RegexTree,
}

const KINDS: [Kind; 8] = [
    Kind::Affix,
    Kind::Pattern,
    Kind::RegexFromWord,
    Kind::RegexRandom,
    Kind::Anagram,
    Kind::Subanagram,
    Kind::Hooks,
    Kind::RegexTree,
];

/// Builds queries from a word of the lexicon plus noise, spelled the way a
/// user might type them (any case, accents on Spanish vowels).
struct Gen<'a> {
    alpha: &'a TileAlphabet,
    /// Tiles to draw noise from.
    pool: Vec<u8>,
    /// Single-letter tiles that may stand as regex literals and in negated
    /// regex classes: letters that are no part of a multi-letter tile (so
    /// that the oracle's one-char-per-tile regex text agrees with lexq's
    /// reading of literals as tiles).
    regex_safe: Vec<bool>,
    /// Whether to put accents on vowels now and then.
    accents: bool,
}

impl<'a> Gen<'a> {
    fn new(alpha: &'a TileAlphabet, pool: Vec<u8>, accents: bool) -> Gen<'a> {
        let n = alpha.len() as u8;
        let multi: Vec<&str> = (1..=n)
            .map(|c| alpha.label(c))
            .filter(|l| l.chars().count() > 1)
            .collect();
        let mut regex_safe = vec![false; 64];
        for c in 1..=n {
            let l = alpha.label(c);
            regex_safe[c as usize] = l.chars().count() == 1 && !multi.iter().any(|m| m.contains(l));
        }
        Gen {
            alpha,
            pool,
            regex_safe,
            accents,
        }
    }

    fn noise(&self, rnd: &mut Rnd) -> u8 {
        self.pool[rnd.next(self.pool.len())]
    }

    /// One tile as a user might type it: any case, now and then another
    /// of its spellings (an accented vowel, Catalan `l.l`) or accents
    /// decomposed (`e` + U+0301).
    fn spell(&self, code: u8, rnd: &mut Rnd) -> String {
        let spellings = self.alpha.spellings(code);
        let chosen = if self.accents && rnd.chance(4) {
            &spellings[rnd.next(spellings.len())]
        } else {
            &spellings[0]
        };
        let mut s = String::new();
        for &ch in chosen {
            if rnd.next(3) == 0 {
                s.extend(ch.to_lowercase());
            } else {
                s.push(ch);
            }
        }
        if self.accents && rnd.chance(6) {
            s = s.nfd().collect();
        }
        s
    }

    /// Tiles as a user might type them; now and then with a character
    /// whose uppercase is several letters (`ß` for SS, `ﬁ` for FI).
    fn spell_all(&self, codes: &[u8], rnd: &mut Rnd) -> String {
        let mut s: String = codes.iter().map(|&c| self.spell(c, rnd)).collect();
        if rnd.chance(4) {
            for (from, to) in [
                ("SS", "ß"),
                ("ss", "ß"),
                ("FI", "ﬁ"),
                ("fi", "ﬁ"),
                ("fl", "ﬂ"),
                ("ST", "ﬆ"),
            ] {
                s = s.replacen(from, to, 1);
            }
        }
        s
    }

    /// A tile for a regex: no accents, any case.
    fn regex_letter(&self, code: u8, rnd: &mut Rnd) -> String {
        let l = self.alpha.label(code);
        if rnd.chance(2) {
            l.to_uppercase()
        } else {
            l.to_lowercase()
        }
    }

    fn lens(&self, n: usize, rnd: &mut Rnd) -> Option<(usize, usize)> {
        match rnd.next(5) {
            0..=2 => None,
            3 => {
                let min = n.saturating_sub(rnd.next(3));
                Some((min, min + rnd.next(4)))
            }
            _ => {
                let a = rnd.next(n + 3);
                let b = if rnd.chance(4) { 1000 } else { rnd.next(n + 4) };
                Some((a, b))
            }
        }
    }

    fn make(&self, kind: Kind, word: &[u8], rnd: &mut Rnd) -> Case {
        let query = match kind {
            Kind::Affix => self.affix(word, rnd),
            Kind::Pattern => Query::Pattern(self.pattern(word, rnd)),
            Kind::RegexFromWord => Query::Regex(self.regex_from(word, rnd)),
            Kind::RegexRandom => Query::Regex(self.random_regex(rnd, 3)),
            Kind::Anagram => self.rack(word, rnd, false),
            Kind::Subanagram => self.rack(word, rnd, true),
            Kind::Hooks => self.hooks(word, rnd),
            Kind::RegexTree => Query::RegexTree(self.tree_regex(word, rnd)),
        };
        let lens = match query {
            Query::Hooks(_) | Query::IsWord(_) => None,
            _ => self.lens(word.len(), rnd),
        };
        Case { query, lens }
    }

    fn affix(&self, word: &[u8], rnd: &mut Rnd) -> Query {
        let n = word.len();
        let kind = rnd.next(3);
        let t: Vec<u8> = if rnd.chance(5) {
            (0..1 + rnd.next(4)).map(|_| self.noise(rnd)).collect()
        } else {
            match kind {
                0 => {
                    let k = 1 + rnd.next(n.min(5));
                    let s = rnd.next(n - k + 1);
                    word[s..s + k].to_vec()
                }
                1 => word[..1 + rnd.next(n)].to_vec(),
                _ => word[n - 1 - rnd.next(n)..].to_vec(),
            }
        };
        let s = self.spell_all(&t, rnd);
        match kind {
            0 => Query::Contains(s),
            1 => Query::Starts(s),
            _ => Query::Ends(s),
        }
    }

    /// `[...]` holding `code` and maybe others.
    fn bracket_with(&self, code: u8, rnd: &mut Rnd) -> String {
        let mut codes = vec![code];
        for _ in 0..rnd.next(3) {
            codes.push(self.noise(rnd));
        }
        rnd.shuffle(&mut codes);
        format!("[{}]", self.spell_all(&codes, rnd))
    }

    /// `[^...]` leaving `code` out.
    fn bracket_without(&self, code: u8, rnd: &mut Rnd) -> String {
        let others: Vec<u8> = (0..1 + rnd.next(3))
            .map(|_| self.noise(rnd))
            .filter(|&c| c != code)
            .collect();
        if others.is_empty() {
            return "?".into();
        }
        format!("[^{}]", self.spell_all(&others, rnd))
    }

    /// `[X-Y]` (alphabet order) holding `code`.
    fn range_with(&self, code: u8, rnd: &mut Rnd) -> String {
        let from = code.saturating_sub(rnd.next(4) as u8).max(1);
        let to = (code + rnd.next(4) as u8).min(self.alpha.len() as u8);
        format!("[{}-{}]", self.spell(from, rnd), self.spell(to, rnd))
    }

    /// A pattern the word matches, mostly: letters kept or replaced by
    /// `?`, brackets, or `*` runs; now and then a letter that does not fit.
    fn pattern(&self, word: &[u8], rnd: &mut Rnd) -> String {
        let mut out = String::new();
        let mut i = 0;
        while i < word.len() {
            let c = word[i];
            if rnd.chance(12) {
                out.push('*');
            }
            match rnd.next(16) {
                0..=6 => out += &self.spell(c, rnd),
                7..=9 => out.push('?'),
                10 => out += &self.bracket_with(c, rnd),
                11 => out += &self.bracket_without(c, rnd),
                12 => out += &self.range_with(c, rnd),
                13 => {
                    out.push('*');
                    i += rnd.next(3);
                }
                14 => {
                    let codes: Vec<u8> = (0..1 + rnd.next(3)).map(|_| self.noise(rnd)).collect();
                    let neg = if rnd.chance(2) { "^" } else { "" };
                    out += &format!("[{neg}{}]", self.spell_all(&codes, rnd));
                }
                _ => out += &self.spell(self.noise(rnd), rnd),
            }
            i += 1;
        }
        if rnd.chance(12) {
            out.push('*');
        }
        out
    }

    /// A regex literal for `code`, or `.` if the tile cannot be one.
    fn literal_or_dot(&self, code: u8, rnd: &mut Rnd) -> String {
        if self.regex_safe[code as usize] {
            self.regex_letter(code, rnd)
        } else {
            ".".into()
        }
    }

    /// A positive regex class holding `code` (safe letters only).
    fn rclass_with(&self, code: u8, rnd: &mut Rnd) -> String {
        // Letters of multi-letter tiles are left to the tile-regex
        // generator: a class holding L also matches the Spanish tile LL.
        if !self.regex_safe[code as usize] {
            return ".".into();
        }
        let mut codes = vec![code];
        for _ in 0..rnd.next(3) {
            let x = self.noise(rnd);
            if self.regex_safe[x as usize] {
                codes.push(x);
            }
        }
        rnd.shuffle(&mut codes);
        let body: String = codes.iter().map(|&c| self.regex_letter(c, rnd)).collect();
        format!("[{body}]")
    }

    /// A negated regex class of safe letters, leaving `code` out.
    fn rclass_without(&self, code: u8, rnd: &mut Rnd) -> String {
        let others: Vec<u8> = (0..1 + rnd.next(3))
            .map(|_| self.noise(rnd))
            .filter(|&c| c != code && self.regex_safe[c as usize])
            .collect();
        if others.is_empty() {
            return ".".into();
        }
        let body: String = others.iter().map(|&c| self.regex_letter(c, rnd)).collect();
        format!("[^{body}]")
    }

    /// A regex range `[x-y]` (character order) holding `code`, every
    /// character of which is a tile of its own.
    fn rrange_with(&self, code: u8, rnd: &mut Rnd) -> String {
        let l: Vec<char> = self.alpha.label(code).chars().collect();
        if l.len() != 1 || !l[0].is_ascii_uppercase() {
            return self.rclass_with(code, rnd);
        }
        let c = l[0] as u8;
        let lo = c.saturating_sub(rnd.next(4) as u8).max(b'A');
        let hi = (c + rnd.next(4) as u8).min(b'Z');
        let tile = |b: u8| {
            self.alpha
                .tokenize(&(b as char).to_string())
                .is_some_and(|t| t.len() == 1 && self.regex_safe[t[0] as usize])
        };
        if lo == hi || !(lo..=hi).all(tile) {
            return self.rclass_with(code, rnd);
        }
        let (lo, hi) = (lo as char, hi as char);
        if rnd.chance(2) {
            format!("[{}-{}]", lo.to_ascii_lowercase(), hi.to_ascii_lowercase())
        } else {
            format!("[{lo}-{hi}]")
        }
    }

    fn safe_noise(&self, rnd: &mut Rnd) -> Option<u8> {
        let safe: Vec<u8> = self
            .pool
            .iter()
            .copied()
            .filter(|&c| self.regex_safe[c as usize])
            .collect();
        (!safe.is_empty()).then(|| safe[rnd.next(safe.len())])
    }

    fn quantifier(&self, rnd: &mut Rnd) -> String {
        let q = match rnd.next(7) {
            0 => "*".to_string(),
            1 => "+".to_string(),
            2 => "?".to_string(),
            3 => format!("{{{}}}", rnd.next(3)),
            4 => format!("{{{},}}", rnd.next(3)),
            _ => {
                let m = rnd.next(3);
                format!("{{{m},{}}}", m + rnd.next(3))
            }
        };
        if rnd.chance(6) { q + "?" } else { q }
    }

    /// A regex the word matches, mostly.
    fn regex_from(&self, word: &[u8], rnd: &mut Rnd) -> String {
        let mut out = String::new();
        let mut i = 0;
        while i < word.len() {
            let c = word[i];
            if rnd.chance(10) {
                // Something that may match nothing at all.
                match self.safe_noise(rnd) {
                    Some(x) if rnd.chance(2) => out += &format!("({})?", self.regex_letter(x, rnd)),
                    Some(x) => out += &format!("[{}]*", self.regex_letter(x, rnd)),
                    None => out += ".?",
                }
            }
            // A run of safe letters starting here, for groups.
            let run = word[i..]
                .iter()
                .take_while(|&&x| self.regex_safe[x as usize])
                .count()
                .min(3);
            match rnd.next(15) {
                0..=4 => out += &self.literal_or_dot(c, rnd),
                5 => out.push('.'),
                6 => out += &self.rclass_with(c, rnd),
                7 => out += &self.rclass_without(c, rnd),
                8 => out += &self.rrange_with(c, rnd),
                9 if run > 0 => {
                    let k = 1 + rnd.next(run);
                    let chunk: String = word[i..i + k]
                        .iter()
                        .map(|&x| self.regex_letter(x, rnd))
                        .collect();
                    let mut other = String::new();
                    for _ in 0..1 + rnd.next(3) {
                        if let Some(x) = self.safe_noise(rnd) {
                            other += &self.regex_letter(x, rnd);
                        }
                    }
                    if rnd.chance(2) {
                        out += &format!("({other}|{chunk})");
                    } else {
                        out += &format!("({chunk}|{other})");
                    }
                    i += k - 1;
                }
                10 if run > 0 => {
                    let k = 1 + rnd.next(run);
                    let chunk: String = word[i..i + k]
                        .iter()
                        .map(|&x| self.regex_letter(x, rnd))
                        .collect();
                    let q = ["+", "*", "?", "{1}", "{1,2}", "{0,3}", "{1,}", "+?"][rnd.next(8)];
                    out += &format!("({chunk}){q}");
                    i += k - 1;
                }
                11 => {
                    let k = 1 + rnd.next(3).min(word.len() - i - 1);
                    match rnd.next(4) {
                        0 => out += ".*",
                        1 => out += ".+",
                        2 => out += &format!(".{{{k}}}"),
                        _ => {
                            let m = k - rnd.next(k + 1);
                            out += &format!(".{{{m},{}}}", k + rnd.next(3));
                        }
                    }
                    i += k - 1;
                }
                12 => match self.safe_noise(rnd) {
                    Some(x) => out += &self.regex_letter(x, rnd),
                    None => out.push('.'),
                },
                _ => out += &self.literal_or_dot(c, rnd),
            }
            i += 1;
        }
        out
    }

    /// A regex from a small grammar: letters, `.`, classes, ranges,
    /// concatenation, alternation, repetition.
    fn random_regex(&self, rnd: &mut Rnd, depth: usize) -> String {
        let k = rnd.next(if depth == 0 { 4 } else { 8 });
        match k {
            0 => match self.safe_noise(rnd) {
                Some(x) => self.regex_letter(x, rnd),
                None => ".".into(),
            },
            1 => ".".into(),
            2 => {
                let x = self.noise(rnd);
                if rnd.chance(2) {
                    self.rclass_without(x, rnd)
                } else {
                    self.rclass_with(x, rnd)
                }
            }
            3 => {
                let x = self.noise(rnd);
                self.rrange_with(x, rnd)
            }
            4 | 5 => (0..2 + rnd.next(2))
                .map(|_| self.random_regex(rnd, depth - 1))
                .collect(),
            6 => {
                let alts: Vec<String> = (0..2 + rnd.next(2))
                    .map(|_| self.random_regex(rnd, depth - 1))
                    .collect();
                format!("({})", alts.join("|"))
            }
            _ => {
                let sub = self.random_regex(rnd, depth - 1);
                format!("({sub}){}", self.quantifier(rnd))
            }
        }
    }

    /// A regex tree the word matches, mostly: literals in any spelling,
    /// classes of every kind holding (or, negated, leaving out) the tile,
    /// groups of every kind, alternatives, repetitions and flags.
    fn tree_regex(&self, word: &[u8], rnd: &mut Rnd) -> RNode {
        let mut names = 0;
        let mut items = Vec::new();
        match rnd.next(8) {
            1 => items.push(RNode::Flags("i".into())),
            2 => items.push(RNode::Flags("-i".into())),
            _ => {}
        }
        let mut i = 0;
        while i < word.len() {
            let k = (1 + rnd.next(3)).min(word.len() - i);
            let chunk = &word[i..i + k];
            match rnd.next(12) {
                4 => {
                    let kind = self.group_kind(&mut names, rnd);
                    items.push(RNode::Group(kind, Box::new(self.tree_chunk(chunk, rnd))));
                }
                5 => {
                    let noise: Vec<u8> = (0..1 + rnd.next(2)).map(|_| self.noise(rnd)).collect();
                    let mut alts = vec![
                        self.tree_chunk(chunk, rnd),
                        RNode::Lit(self.spell_all(&noise, rnd)),
                    ];
                    rnd.shuffle(&mut alts);
                    let kind = self.group_kind(&mut names, rnd);
                    items.push(RNode::Group(kind, Box::new(RNode::Alt(alts))));
                }
                6 => {
                    let q = ["{1}", "?", "+", "*", "{0,2}", "{1,3}", "+?"][rnd.next(7)];
                    items.push(RNode::Rep(Box::new(self.tree_chunk(chunk, rnd)), q.into()));
                }
                7 => {
                    // Flags in the middle of a run of literals.
                    let flags = ["i", "-i", "s"][rnd.next(3)];
                    items.push(RNode::Flags(flags.into()));
                    continue;
                }
                8 => {
                    items.push(self.tree_item(self.noise(rnd), rnd));
                    i += 1;
                    continue;
                }
                _ => {
                    items.push(self.tree_item(word[i], rnd));
                    i += 1;
                    continue;
                }
            }
            i += k;
        }
        let root = RNode::Concat(items);
        if rnd.chance(8) {
            RNode::Spaced(Box::new(root))
        } else {
            root
        }
    }

    fn group_kind(&self, names: &mut usize, rnd: &mut Rnd) -> Group {
        *names += 1;
        match rnd.next(8) {
            1 => Group::NamedP(format!("g{names}")),
            2 => Group::Named(format!("n{names}")),
            3 => Group::NonCapturing,
            4 => Group::Flagged("i".into()),
            5 => Group::Flagged("-i".into()),
            6 => Group::Flagged("s".into()),
            _ => Group::Capture,
        }
    }

    fn tree_chunk(&self, chunk: &[u8], rnd: &mut Rnd) -> RNode {
        RNode::Concat(chunk.iter().map(|&c| self.tree_item(c, rnd)).collect())
    }

    /// One item matching tile `code`, mostly.
    fn tree_item(&self, code: u8, rnd: &mut Rnd) -> RNode {
        match rnd.next(9) {
            3 | 4 => RNode::Class {
                negated: false,
                atoms: self.atoms_with(code, rnd),
            },
            5 => RNode::Class {
                negated: true,
                atoms: self.atoms_without(code, rnd),
            },
            6 => {
                let atoms = [
                    Atom::Perl('w'),
                    Atom::Unicode("L"),
                    Atom::Unicode("Lu"),
                    Atom::Unicode("Ll"),
                    Atom::Perl('d'),
                ];
                RNode::Perl {
                    atom: atoms[rnd.next(atoms.len())].clone(),
                    negated: rnd.chance(4),
                }
            }
            7 => RNode::Dot,
            _ => RNode::Lit(self.spell(code, rnd)),
        }
    }

    /// Class members holding the letters of one of the tile's spellings,
    /// and some noise; now and then a leading `:` (`[:bc]` is a class).
    fn atoms_with(&self, code: u8, rnd: &mut Rnd) -> Vec<Atom> {
        let spellings = self.alpha.spellings(code);
        let chosen = if self.accents && rnd.chance(3) {
            &spellings[rnd.next(spellings.len())]
        } else {
            &spellings[0]
        };
        let mut atoms: Vec<Atom> = chosen
            .iter()
            .filter(|c| c.is_alphabetic())
            .map(|&c| self.atom_with(c, rnd))
            .collect();
        for _ in 0..rnd.next(3) {
            atoms.push(self.noise_atom(rnd));
        }
        rnd.shuffle(&mut atoms);
        if rnd.chance(6) {
            atoms.insert(0, Atom::Chars(":".into()));
        }
        atoms
    }

    /// Class members for other tiles than `code` (for a negated class).
    fn atoms_without(&self, code: u8, rnd: &mut Rnd) -> Vec<Atom> {
        let mut atoms = Vec::new();
        for _ in 0..1 + rnd.next(3) {
            let x = self.noise(rnd);
            if x == code {
                continue;
            }
            for &c in self.alpha.spellings(x)[0]
                .iter()
                .filter(|c| c.is_alphabetic())
            {
                atoms.push(Atom::Chars(self.any_case(c, rnd)));
            }
        }
        if atoms.is_empty() || rnd.chance(4) {
            atoms.push(self.noise_atom(rnd));
        }
        atoms
    }

    fn any_case(&self, c: char, rnd: &mut Rnd) -> String {
        if rnd.chance(2) {
            c.to_lowercase().collect()
        } else {
            c.to_string()
        }
    }

    /// A class member holding the letter `c` (uppercase), one way or
    /// another (the oracle judges what each way holds).
    fn atom_with(&self, c: char, rnd: &mut Rnd) -> Atom {
        match rnd.next(9) {
            2 if c.is_ascii_uppercase() => {
                let lo = (c as u8).saturating_sub(rnd.next(3) as u8).max(b'A') as char;
                let hi = ((c as u8) + rnd.next(3) as u8).min(b'Z') as char;
                // Either case, or each end in its own (`a-E`, `A-e`).
                let (lo_lower, hi_lower) = (rnd.chance(2), rnd.chance(2));
                let case = |c: char, lower: bool| {
                    if lower { c.to_ascii_lowercase() } else { c }
                };
                Atom::Range(case(lo, lo_lower), case(hi, hi_lower))
            }
            3 => Atom::Posix(["alpha", "upper", "lower", "alnum", "word"][rnd.next(5)]),
            4 => Atom::Perl('w'),
            5 => Atom::Unicode(["L", "Ll", "Lu"][rnd.next(3)]),
            _ => Atom::Chars(self.any_case(c, rnd)),
        }
    }

    /// A class member that holds no tile's letters, mostly: digits, `_`,
    /// punctuation, or the letters of a noise tile.
    fn noise_atom(&self, rnd: &mut Rnd) -> Atom {
        match rnd.next(6) {
            0 => Atom::Range('0', '9'),
            1 => Atom::Chars("_".into()),
            2 => Atom::Perl('d'),
            3 => Atom::Chars(["-", "·", "'", "ß", "^", "]"][rnd.next(6)].into()),
            _ => {
                let x = self.noise(rnd);
                let letters: String = self.alpha.spellings(x)[0]
                    .iter()
                    .filter(|c| c.is_alphabetic())
                    .map(|&c| self.any_case(c, rnd))
                    .collect();
                Atom::Chars(letters)
            }
        }
    }

    /// A rack made of the word's tiles (or those outside a block played
    /// through), with blanks and noise.
    fn rack(&self, word: &[u8], rnd: &mut Rnd, sub: bool) -> Query {
        let n = word.len();
        let (through, mut rest) = if n >= 2 && rnd.chance(3) {
            let k = 1 + rnd.next((n - 1).min(3));
            let s = rnd.next(n - k + 1);
            let mut rest = word[..s].to_vec();
            rest.extend_from_slice(&word[s + k..]);
            (Some(word[s..s + k].to_vec()), rest)
        } else {
            (None, word.to_vec())
        };
        rnd.shuffle(&mut rest);
        rest.truncate(8);
        if sub {
            for _ in 0..rnd.next(3) {
                rest.push(self.noise(rnd));
            }
            rest.truncate(8);
            rnd.shuffle(&mut rest);
        } else if rnd.chance(6) && !rest.is_empty() {
            let j = rnd.next(rest.len());
            rest[j] = self.noise(rnd);
        }
        if rest.is_empty() {
            rest.push(self.noise(rnd));
        }
        let blanks = rnd.next(3).min(rest.len());
        // Now and then a tile in brackets, as CGP racks write them
        // (`[R][R]` is two R tiles where `RR` is the Spanish tile RR).
        let mut spelled: Vec<String> = rest
            .iter()
            .map(|&c| {
                let t = self.spell(c, rnd);
                if rnd.chance(4) { format!("[{t}]") } else { t }
            })
            .collect();
        for _ in 0..blanks {
            let j = rnd.next(spelled.len());
            spelled[j] = if rnd.chance(2) { "_" } else { "?" }.into();
        }
        let rack: String = spelled.concat();
        let through = through.map(|t| self.spell_all(&t, rnd));
        if sub {
            Query::Subanagram(rack, through)
        } else {
            Query::Anagram(rack, through)
        }
    }

    fn hooks(&self, word: &[u8], rnd: &mut Rnd) -> Query {
        let n = word.len();
        let t: Vec<u8> = match rnd.next(5) {
            0 | 1 => word.to_vec(),
            2 => {
                let k = 1 + rnd.next(n);
                let s = rnd.next(n - k + 1);
                word[s..s + k].to_vec()
            }
            3 => {
                let mut w = word.to_vec();
                let j = rnd.next(n);
                w[j] = self.noise(rnd);
                w
            }
            _ => (0..1 + rnd.next(4)).map(|_| self.noise(rnd)).collect(),
        };
        let s = self.spell_all(&t, rnd);
        if rnd.chance(3) {
            Query::IsWord(s)
        } else {
            Query::Hooks(s)
        }
    }
}

// ---------------------------------------------------------------------------
// Running cases

fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

/// Checks `cases` random cases of `strategy` on `lex` against `oracle`, and
/// that at least `min_pct` percent of them had a non-trivial answer (so the
/// generator does not test empty results only).
fn run_cases(
    name: &str,
    cases: u32,
    strategy: impl Strategy<Value = Case>,
    lex: &Lexicon,
    oracle: &Oracle,
    min_pct: usize,
) {
    let tally = Tally::default();
    let result =
        TestRunner::new(config(cases)).run(&strategy, |case| tally.check(lex, oracle, &case));
    if let Err(e) = result {
        panic!("{name}: {e}");
    }
    tally.assert_interesting(name, min_pct);
}

/// Counts checked cases and those with a non-trivial answer.
#[derive(Default)]
struct Tally {
    total: Cell<usize>,
    hits: Cell<usize>,
}

impl Tally {
    /// Checks one case against the oracle and counts it.
    fn check(&self, lex: &Lexicon, oracle: &Oracle, case: &Case) -> Result<(), TestCaseError> {
        let outcome = check(lex, oracle, case).map_err(TestCaseError::fail)?;
        self.total.set(self.total.get() + 1);
        self.hits
            .set(self.hits.get() + outcome.is_interesting() as usize);
        Ok(())
    }

    /// Asserts that at least `min_pct` percent of the cases were non-trivial
    /// (so the generator does not test empty results only).
    fn assert_interesting(&self, name: &str, min_pct: usize) {
        let (total, hits) = (self.total.get(), self.hits.get());
        assert!(
            hits * 100 >= total * min_pct,
            "{name}: only {hits} of {total} cases had a non-empty answer (want {min_pct}%)"
        );
    }
}

/// Cases of `kind` made from words of `oracle` (of at most `max_len` tiles).
fn word_cases(
    oracle: &'static Oracle,
    kind: Kind,
    max_len: usize,
    accents: bool,
) -> impl Strategy<Value = Case> {
    let words: Vec<Vec<u8>> = oracle
        .words
        .iter()
        .filter(|w| w.len() <= max_len)
        .cloned()
        .collect();
    let pool: Vec<u8> = (1..=oracle.alpha.len() as u8).collect();
    (select(words), vec(any::<u32>(), 80)).prop_map(move |(w, r)| {
        let g = Gen::new(&oracle.alpha, pool.clone(), accents);
        g.make(kind, &w, &mut Rnd::new(&r))
    })
}

fn check_one(lex: &Lexicon, oracle: &Oracle, case: Case) -> Outcome {
    check(lex, oracle, &case).unwrap_or_else(|e| panic!("{e}"))
}

fn words(v: &[&str]) -> Outcome {
    Outcome::Words(v.iter().map(|s| s.to_string()).collect())
}

fn q(query: Query) -> Case {
    Case { query, lens: None }
}

fn s(x: &str) -> String {
    x.to_string()
}

// ---------------------------------------------------------------------------
// ENABLE

#[test]
fn enable_whole_lexicon() {
    let (lex, o) = (&*ENABLE_LEX, &*ENABLE);
    assert_eq!(o.words.len(), 172_820);
    assert_eq!(lex.word_count(), o.words.len() as u64);
    // Every word is a word, and `*` lists exactly the word list.
    for w in &o.words {
        let text = o.alpha.spell(w);
        assert!(lex.is_word(&text).unwrap(), "is_word({text:?}) is false");
    }
    let all = check_one(lex, o, q(Query::Pattern(s("*"))));
    assert!(matches!(all, Outcome::Words(ref w) if w.len() == 172_820));
    check_one(lex, o, q(Query::Regex(s(".*"))));
    for (min, max) in [
        (0, 1),
        (2, 2),
        (15, 15),
        (16, 100),
        (28, 28),
        (29, 63),
        (5, 4),
    ] {
        let got = check_one(
            lex,
            o,
            Case {
                query: Query::Pattern(s("*")),
                lens: Some((min, max)),
            },
        );
        if (min, max) == (2, 2) {
            assert!(matches!(got, Outcome::Words(ref w) if w.len() == 96));
        }
    }
}

/// Racks with one and two blanks (issue 23's AEINRST? and ??AEINR among
/// them), whole and in part, with lengths and through letters, on ENABLE
/// as the CLI opens it and as a server prepares it (where the anagrams of
/// a rack with blanks are looked up by alphagram): the words against the
/// oracle's scan, and the letters marked as blanks against the rule
/// worked out here: a blank stands for what the rack lacks, at the last
/// places of that letter.
#[test]
fn enable_blank_racks() {
    let o = &*ENABLE;
    let anagrams = [
        "AEINRST?", "??AEINR", "RETAINS?", "?", "??", "A?", "AA?", "QI??", "??QZ", "EEEE??",
        "JKQXZ??", "_ETAIN_",
    ];
    let subanagrams = ["AEINRST?", "??AEINR", "Q?", "??"];
    let mut cases = Vec::new();
    for r in anagrams {
        cases.push(q(Query::Anagram(s(r), None)));
        cases.push(Case {
            query: Query::Anagram(s(r), None),
            lens: Some((3, 7)),
        });
        cases.push(q(Query::Anagram(s(r), Some(s("ed")))));
    }
    for r in subanagrams {
        cases.push(q(Query::Subanagram(s(r), None)));
        cases.push(Case {
            query: Query::Subanagram(s(r), None),
            lens: Some((7, 8)),
        });
        cases.push(q(Query::Subanagram(s(r), Some(s("x")))));
    }
    let mut found = 0;
    for lex in [&*ENABLE_LEX, &*ENABLE_PREPARED_LEX] {
        for case in &cases {
            if let Outcome::Words(w) = check_one(lex, o, case.clone()) {
                found += w.len();
            }
        }
        for r in anagrams {
            let rack = r.replace('_', "?");
            let words = lex.anagram(r).unwrap();
            for w in words.iter() {
                let spelled = w.to_string();
                // What the rack lacks, marked from the word's end.
                let mut lacking: Vec<char> = spelled.chars().collect();
                for t in rack.chars().filter(|&c| c != '?') {
                    let i = lacking.iter().position(|&c| c == t).unwrap();
                    lacking.remove(i);
                }
                let mut want = 0u64;
                let letters: Vec<char> = spelled.chars().collect();
                for c in lacking {
                    let i = (0..letters.len())
                        .rev()
                        .find(|&i| letters[i] == c && want & 1 << i == 0)
                        .unwrap();
                    want |= 1 << i;
                }
                assert_eq!(w.blanks(), want, "{r}: {spelled} marked {}", w.marked());
            }
        }
    }
    assert!(found > 2000, "only {found} words in all");
}

/// The rack walk's bounds on ENABLE as the CLI opens it: racks with no,
/// one and two blanks, repeated letters, whole and in part, under every
/// kind of length bound (one length, a range inside the rack's size, a
/// shortest length past it, past any word, past 256, a longest length
/// only, one-letter words),
/// against the oracle's scan; and a limit, against the whole answer.
#[test]
fn enable_rack_walk_bounds() {
    let (lex, o) = (&*ENABLE_LEX, &*ENABLE);
    let racks = [
        "AEINRST?", "??AEINR", "RETAINS", "EEEE??", "SS?", "QI??", "A", "?", "AEIOU", "RRRR?",
    ];
    let lens = [
        None,
        Some((1, 1)),
        Some((2, 2)),
        Some((3, 5)),
        Some((7, 7)),
        Some((8, 8)),
        Some((9, 12)),
        Some((0, 3)),
        Some((5, 63)),
        Some((257, 300)),
    ];
    let mut found = 0;
    for r in racks {
        for l in lens {
            for sub in [false, true] {
                let query = if sub {
                    Query::Subanagram(s(r), None)
                } else {
                    Query::Anagram(s(r), None)
                };
                if let Outcome::Words(w) = check_one(lex, o, Case { query, lens: l }) {
                    found += w.len();
                }
            }
        }
    }
    assert!(found > 3000, "only {found} words in all");
    for r in ["AEINRST?", "??AEINR"] {
        let all = lex.search().subanagram(r).unwrap().to_strings();
        let some = lex.search().limit(5).subanagram(r).unwrap();
        assert_eq!(some.to_strings(), all[..5], "{r}");
        assert_eq!(some.found(), all.len(), "{r}");
    }
}

#[test]
fn enable_spot_checks() {
    // A few answers worked out by hand, to make sure the oracle itself
    // means what it should.
    let (lex, o) = (&*ENABLE_LEX, &*ENABLE);
    let got = check_one(
        lex,
        o,
        Case {
            query: Query::Ends(s("zz")),
            lens: Some((4, 4)),
        },
    );
    assert!(matches!(got, Outcome::Words(ref w) if w == &["BUZZ", "FIZZ", "FUZZ", "JAZZ", "RAZZ"]));
    let got = check_one(lex, o, q(Query::Anagram(s("ret"), Some(s("ain")))));
    assert!(matches!(got, Outcome::Words(ref w) if w == &["RETAIN"]));
    let got = check_one(lex, o, q(Query::Hooks(s("care"))));
    assert!(
        matches!(got, Outcome::Hooks { ref front, ref back, is_word: true, .. } if front == "S" && back == "DRSTX")
    );
    let got = check_one(lex, o, q(Query::Regex(s("(qu|x)iz+"))));
    assert!(matches!(got, Outcome::Words(ref w) if w == &["QUIZ"]));
    let got = check_one(lex, o, q(Query::IsWord(s("za"))));
    assert!(matches!(got, Outcome::Bool(false)));
}

#[test]
fn enable_affixes() {
    run_cases(
        "enable_affixes",
        256,
        word_cases(&ENABLE, Kind::Affix, 63, false),
        &ENABLE_LEX,
        &ENABLE,
        60,
    );
}

/// Common substrings, which `contains` finds by the forward walk of every
/// word (rare ones from their places in the GADDAG), and every single
/// letter as each affix query, with length bounds that cut the walk at
/// both ends: against the oracle's scan.
#[test]
fn enable_common_affixes() {
    let (lex, o) = (&*ENABLE_LEX, &*ENABLE);
    let mut subs: Vec<String> = ('a'..='z').map(String::from).collect();
    subs.extend(["er", "es", "in", "ing", "qu", "sss", "ee"].map(String::from));
    for sub in &subs {
        for lens in [None, Some((1, 3)), Some((7, 7)), Some((12, 28))] {
            for query in [
                Query::Contains(sub.clone()),
                Query::Starts(sub.clone()),
                Query::Ends(sub.clone()),
            ] {
                check_one(lex, o, Case { query, lens });
            }
        }
    }
}

#[test]
fn enable_random_affixes() {
    let strategy = ("[a-zA-Z]{1,4}", 0..3usize).prop_map(|(t, k)| {
        q(match k {
            0 => Query::Contains(t),
            1 => Query::Starts(t),
            _ => Query::Ends(t),
        })
    });
    run_cases(
        "enable_random_affixes",
        128,
        strategy,
        &ENABLE_LEX,
        &ENABLE,
        30,
    );
}

#[test]
fn enable_patterns() {
    run_cases(
        "enable_patterns",
        128,
        word_cases(&ENABLE, Kind::Pattern, 63, false),
        &ENABLE_LEX,
        &ENABLE,
        25,
    );
}

#[test]
fn enable_regex_from_words() {
    run_cases(
        "enable_regex_from_words",
        96,
        word_cases(&ENABLE, Kind::RegexFromWord, 63, false),
        &ENABLE_LEX,
        &ENABLE,
        30,
    );
}

#[test]
fn enable_random_regex() {
    run_cases(
        "enable_random_regex",
        96,
        word_cases(&ENABLE, Kind::RegexRandom, 63, false),
        &ENABLE_LEX,
        &ENABLE,
        8,
    );
}

#[test]
fn enable_tree_regex() {
    run_cases(
        "enable_tree_regex",
        96,
        word_cases(&ENABLE, Kind::RegexTree, 63, false),
        &ENABLE_LEX,
        &ENABLE,
        30,
    );
}

/// Regexes whose literals sit inside alternations, which the planner
/// factors (`(qu|q[^u])` is `q(u|[^u])`) or splits into one walk a branch
/// (`(qu|x)i[sz]+` walks from QUI and from XI).
#[test]
fn enable_alternation_regexes() {
    let regexes = [
        ".*(qu|q[^u]).*",
        ".*(qu|qa).*",
        ".*q(u|[^u]).*",
        "(qu|x)i[sz]+",
        "(re|un).*(ing|ed)",
        ".*(ing|ed|er)",
        "(a|ab)(c|bcd)d*",
        "(q|qq)",
        ".*(x|xy|xyz).*",
        "(cat|cot|cut)s?",
        "(ab|)c.*",
        ".*(zz|zy|z).*",
        "(quiz|quip|qu)[aeiou]*",
        ".*(ss|s)(es|e).*",
        "(over|under)(.*)",
        ".*(jo|ja)(b|g)s?",
        "((ab|ac)|(ad|ae)).*",
        "(xy|yx)+",
        "(a|b|c|d|e|f|g|h|i|j|k|l|m|n|o|p|q|r)zz.*",
        ".*(ex|ax)(a|e|i|o|u)(m|n).*",
    ];
    let mut cases = Vec::new();
    for r in regexes {
        cases.push(q(Query::Regex(r.to_string())));
        cases.push(Case {
            query: Query::Regex(r.to_string()),
            lens: Some((3, 6)),
        });
    }
    check_all(&ENABLE_LEX, &ENABLE, cases);
}

/// Regexes for each plan the regex planner chooses between (checked in
/// `plan.rs`'s unit tests): a literal too common to anchor on (`.*e.*`
/// reads every word forwards, once, in order), no literal (forwards, or
/// backwards from the last letter), a class of a few rare letters split
/// into one walk a letter (`.*[xz].*`), alternations, and anchors at the
/// start, inside and at the end of the word.
const PLAN_REGEXES: [&str; 44] = [
    // A run of classes as the anchor: inside, at either end, with a
    // literal in it, with a repetition's rest beside it.
    ".*[aeiou]{4}.*",
    ".*[aeiou]{5,}",
    "[aeiou]{3}.*",
    ".*[xz][^aeiou]{2}.*",
    ".*[aeiou]{2}s[aeiou]{2}.*",
    ".*[aeiou]{3}[^aeiou]{4}.*s",
    "(un|re).*[aeiou]{3}.*",
    // Forward, every word below a universal state reported without the
    // DFA: from the first letter, after a few letters, after a run.
    ".*",
    ".+",
    "[^aeiou]{3}.*",
    "[a-m].{3}.*",
    ".*[aeiou]{3}.*",
    ".*(e|a).*",
    "(.*e.*|q.*)",
    // Forward: every literal common.
    ".*e.*",
    ".*a.*e.*",
    ".*s",
    ".*er.*",
    ".*(ing|ed|er)",
    ".*(ing|ed)",
    "[bcd].*e.*",
    ".*e.*e.*e.*e.*",
    "(.*a)?.*s.*",
    // No literal.
    "[^aeiou]*",
    ".{7}",
    ".*[aeiou]{4}.*",
    ".*[^aeiou]{5}",
    "[aeiou].*[aeiou]",
    // A class of a few letters, split.
    ".*[xz].*",
    ".*[jq].*[xz].*",
    "[xz].*",
    ".*[kv]",
    ".*[xz]{2}.*",
    // Alternations and selective literals.
    ".*q[^u].*",
    "(qu|x)iz+",
    ".*(zz|zy|z).*",
    ".*(ab|cd|ef).*",
    ".*k.*",
    ".*j.*e.*",
    // Anchors at the start, inside, at the end.
    "qu.*",
    "e.*",
    "re.*ing",
    ".*ique",
    ".*x.*e",
];

#[test]
fn enable_regexes_by_plan() {
    let mut cases = Vec::new();
    for r in PLAN_REGEXES {
        cases.push(q(Query::Regex(r.to_string())));
        cases.push(Case {
            query: Query::Regex(r.to_string()),
            lens: Some((3, 6)),
        });
        cases.push(Case {
            query: Query::Regex(r.to_string()),
            lens: Some((1, 1)),
        });
    }
    check_all(&ENABLE_LEX, &ENABLE, cases);
}

/// A limit keeps the first words in alphabet order and counts them all,
/// whichever plan runs (a forward walk keeps words as they come).
#[test]
fn enable_regexes_by_plan_with_limit() {
    for r in PLAN_REGEXES {
        let Outcome::Words(all) = ENABLE.eval(&q(Query::Regex(r.to_string()))) else {
            panic!("{r}: the oracle answers words");
        };
        for n in [0, 1, 7] {
            let some = ENABLE_LEX.search().limit(n).regex(r).unwrap();
            assert_eq!(some.found(), all.len(), "{r} limit {n}: found");
            let got = some.to_strings();
            assert_eq!(got, all[..n.min(all.len())], "{r} limit {n}");
        }
    }
}

#[test]
fn enable_anagrams() {
    run_cases(
        "enable_anagrams",
        96,
        word_cases(&ENABLE, Kind::Anagram, 9, false),
        &ENABLE_LEX,
        &ENABLE,
        40,
    );
}

#[test]
fn enable_subanagrams() {
    run_cases(
        "enable_subanagrams",
        64,
        word_cases(&ENABLE, Kind::Subanagram, 9, false),
        &ENABLE_LEX,
        &ENABLE,
        40,
    );
}

#[test]
fn enable_anchored_queries_on_the_arc_table() {
    run_cases(
        "enable_affixes_arcs",
        128,
        word_cases(&ENABLE, Kind::Affix, 63, false),
        &ENABLE_PREPARED_LEX,
        &ENABLE,
        60,
    );
    run_cases(
        "enable_patterns_arcs",
        96,
        word_cases(&ENABLE, Kind::Pattern, 63, false),
        &ENABLE_PREPARED_LEX,
        &ENABLE,
        25,
    );
    run_cases(
        "enable_regex_arcs",
        64,
        word_cases(&ENABLE, Kind::RegexFromWord, 63, false),
        &ENABLE_PREPARED_LEX,
        &ENABLE,
        30,
    );
}

#[test]
fn enable_rack_queries_on_the_arc_table() {
    run_cases(
        "enable_anagrams_arcs",
        64,
        word_cases(&ENABLE, Kind::Anagram, 9, false),
        &ENABLE_PREPARED_LEX,
        &ENABLE,
        40,
    );
    run_cases(
        "enable_anagrams_prepared",
        64,
        word_cases(&ENABLE, Kind::Anagram, 9, false),
        &ENABLE_PREPARED_LEX,
        &ENABLE,
        40,
    );
    run_cases(
        "enable_subanagrams_arcs",
        48,
        word_cases(&ENABLE, Kind::Subanagram, 9, false),
        &ENABLE_PREPARED_LEX,
        &ENABLE,
        40,
    );
}

#[test]
fn enable_hooks_and_is_word() {
    run_cases(
        "enable_hooks_and_is_word",
        256,
        word_cases(&ENABLE, Kind::Hooks, 63, false),
        &ENABLE_LEX,
        &ENABLE,
        35,
    );
}

// ---------------------------------------------------------------------------
// Small hand-made lexicon, exhaustively

const TRICKY: &str = "\
a\naa\naaa\nb\ns\n\
cat\ncats\ncatsup\ncatsups\nact\nacts\ntact\nscat\nat\nta\ntat\ntats\nstat\nsat\nas\n\
abba\naba\nbab\nnoon\nnon\non\nno\nracecar\nrace\ncare\ncar\narc\nacre\nscare\nsass\n\
nation\nstation\nration\ncation\nonion\nanion\nion\nsis\nsss\n";

static TRICKY_LEX: LazyLock<Lexicon> =
    LazyLock::new(|| build_lexicon(Alphabet::english(), TRICKY).expect("tricky words"));
static TRICKY_ORACLE: LazyLock<Oracle> =
    LazyLock::new(|| Oracle::new(TileAlphabet::english(), TRICKY));

/// Every string of 1 to `max` of `tokens`, concatenated.
fn strings(tokens: &[&str], max: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut layer = vec![String::new()];
    for _ in 0..max {
        let mut next = Vec::new();
        for p in &layer {
            for t in tokens {
                next.push(format!("{p}{t}"));
            }
        }
        out.extend(next.iter().cloned());
        layer = next;
    }
    out
}

fn check_all(lex: &Lexicon, o: &Oracle, cases: impl IntoIterator<Item = Case>) -> usize {
    let mut failures = Vec::new();
    let mut n = 0;
    for case in cases {
        n += 1;
        if let Err(e) = check(lex, o, &case) {
            failures.push(e);
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {n} cases failed:\n{}",
        failures.len(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    n
}

#[test]
fn tricky_spot_checks() {
    let (lex, o) = (&*TRICKY_LEX, &*TRICKY_ORACLE);
    let expect = |case: Case, want: Outcome| {
        let got = check_one(lex, o, case.clone());
        assert_eq!(format!("{got:?}"), format!("{want:?}"), "{case:?}");
    };
    expect(q(Query::Contains(s("aa"))), words(&["AA", "AAA"]));
    expect(
        q(Query::Starts(s("cat"))),
        words(&["CAT", "CATION", "CATS", "CATSUP", "CATSUPS"]),
    );
    expect(
        q(Query::Ends(s("a"))),
        words(&["A", "AA", "AAA", "ABA", "ABBA", "TA"]),
    );
    expect(
        q(Query::Anagram(s("a?"), None)),
        words(&["AA", "AS", "AT", "TA"]),
    );
    expect(q(Query::Subanagram(s("aaa"), None)), words(&["AA", "AAA"]));
    expect(q(Query::Subanagram(s("a"), Some(s("a")))), words(&["AA"]));
    expect(q(Query::Anagram(s("a"), Some(s("aa")))), words(&["AAA"]));
    expect(q(Query::Anagram(s("ss"), Some(s("s")))), words(&["SSS"]));
    expect(
        q(Query::Pattern(s("*a*a*"))),
        words(&["AA", "AAA", "ABA", "ABBA", "RACECAR"]),
    );
    expect(
        q(Query::Regex(s("(a|b)+"))),
        words(&["A", "AA", "AAA", "ABA", "ABBA", "B", "BAB"]),
    );
    expect(
        q(Query::Hooks(s("aa"))),
        Outcome::Hooks {
            word: s("AA"),
            front: s("A"),
            back: s("A"),
            is_word: true,
        },
    );
    expect(
        q(Query::Hooks(s("at"))),
        Outcome::Hooks {
            word: s("AT"),
            front: s("CST"),
            back: s(""),
            is_word: true,
        },
    );
    expect(
        Case {
            query: Query::Contains(s("s")),
            lens: Some((1, 2)),
        },
        words(&["AS", "S"]),
    );
}

#[test]
fn tricky_exhaustive_affixes_hooks_words() {
    let (lex, o) = (&*TRICKY_LEX, &*TRICKY_ORACLE);
    let letters = [
        "a", "b", "c", "e", "i", "n", "o", "p", "r", "s", "t", "u", "x",
    ];
    let mut args = strings(&letters, 2);
    args.extend(strings(&["a", "c", "t", "s", "o", "n"], 3));
    args.extend(o.words.iter().map(|w| o.alpha.spell(w)));
    let mut cases = Vec::new();
    for a in &args {
        for query in [
            Query::Contains(a.clone()),
            Query::Starts(a.clone()),
            Query::Ends(a.clone()),
            Query::Hooks(a.clone()),
            Query::IsWord(a.clone()),
        ] {
            cases.push(q(query.clone()));
            if !matches!(query, Query::Hooks(_) | Query::IsWord(_)) {
                for lens in [(1, 1), (2, 3), (3, 7), (0, 0), (4, 2)] {
                    cases.push(Case {
                        query: query.clone(),
                        lens: Some(lens),
                    });
                }
            }
        }
    }
    check_all(lex, o, cases);
}

#[test]
fn tricky_exhaustive_patterns() {
    let (lex, o) = (&*TRICKY_LEX, &*TRICKY_ORACLE);
    let tokens = [
        "a", "s", "c", "t", "?", "*", "[ac]", "[^a]", "[a-c]", "[r-t]",
    ];
    let mut cases = Vec::new();
    for p in strings(&tokens, 3) {
        cases.push(q(Query::Pattern(p.clone())));
        cases.push(Case {
            query: Query::Pattern(p),
            lens: Some((2, 3)),
        });
    }
    for w in &o.words {
        let spelled = o.alpha.spell(w);
        cases.push(q(Query::Pattern(spelled.clone())));
        cases.push(q(Query::Pattern(format!("*{spelled}"))));
        cases.push(q(Query::Pattern(format!("{spelled}*"))));
        cases.push(q(Query::Pattern(format!("?{spelled}*"))));
    }
    check_all(lex, o, cases);
}

#[test]
fn tricky_exhaustive_racks() {
    let (lex, o) = (&*TRICKY_LEX, &*TRICKY_ORACLE);
    let mut cases = Vec::new();
    for rack in strings(&["a", "c", "t", "s", "?"], 4) {
        for through in [
            None,
            Some("a"),
            Some("at"),
            Some("s"),
            Some("aa"),
            Some("cat"),
        ] {
            let t = through.map(String::from);
            cases.push(q(Query::Anagram(rack.clone(), t.clone())));
            cases.push(q(Query::Subanagram(rack.clone(), t.clone())));
        }
        cases.push(Case {
            query: Query::Subanagram(rack.clone(), None),
            lens: Some((3, 3)),
        });
    }
    for rack in [
        "racecar", "nation?", "st_tion", "ssss", "??????", "????????", "abba", "noon",
    ] {
        for through in [None, Some("a"), Some("c"), Some("on"), Some("ati")] {
            let t = through.map(String::from);
            cases.push(q(Query::Anagram(rack.to_string(), t.clone())));
            cases.push(q(Query::Subanagram(rack.to_string(), t)));
        }
    }
    check_all(lex, o, cases);
}

#[test]
fn tricky_regexes() {
    let (lex, o) = (&*TRICKY_LEX, &*TRICKY_ORACLE);
    let regexes = [
        "a",
        "a+",
        "a*",
        "a{2}",
        "a{2,}",
        "a{1,2}",
        "(aa)+",
        ".",
        "..",
        "...",
        ".*",
        ".+s",
        "cats?",
        "cat(s|sup)?s?",
        "[a-c]+",
        "[^a]+",
        "(ab|ba)+a?",
        "(.)(.)",
        "s.*s",
        ".*(on|up)",
        "^cat$",
        "(?:ca|ta)t",
        "[abc][abc][abc]?",
        "(a|b|n|o){3,4}",
        "r.c.c.r",
        "(sta|ra|ca)?tion",
        "x*",
        "t.*t",
        "a?a?a?",
        ".{0,2}",
        "(s|)at",
    ];
    let mut cases = Vec::new();
    for r in regexes {
        cases.push(q(Query::Regex(r.to_string())));
        cases.push(Case {
            query: Query::Regex(r.to_string()),
            lens: Some((2, 4)),
        });
        cases.push(q(Query::Regex(r.to_uppercase())));
    }
    check_all(lex, o, cases);
}

#[test]
fn refused_queries() {
    // Malformed arguments are refused by lexq for the reason the oracle
    // gives (compared by error kind, not message).
    use Refusal::*;
    let (lex, o) = (&*TRICKY_LEX, &*TRICKY_ORACLE);
    let letter = |c: &str| NotALetter(c.to_string());
    let bad = [
        (Query::Contains(s("")), Empty),
        (Query::Contains(s("a1")), letter("1")),
        (Query::Starts(s(" ")), Empty),
        (Query::Ends(s(&"ab".repeat(600))), TooLong),
        (Query::Ends(s(&"ab".repeat(40))), TooManyTiles),
        (Query::Pattern(s("")), Empty),
        (Query::Pattern(s("[")), UnclosedBracket),
        (Query::Pattern(s("[ab")), UnclosedBracket),
        (Query::Pattern(s("a]")), UnopenedBracket),
        (Query::Pattern(s("[z-a]")), BackwardsRange),
        (Query::Pattern(s("[^a-z]")), EmptyClass),
        (Query::Pattern(s("[a-]")), BadRange),
        (Query::Pattern(s("[-a]")), letter("-")),
        (Query::Pattern(s("a.b")), letter(".")),
        (Query::Pattern(s(&"?".repeat(1025))), TooLong),
        (Query::Anagram(s(""), None), Empty),
        (Query::Anagram(s("a!"), None), letter("!")),
        (Query::Subanagram(s("ab"), Some(s(""))), Empty),
        (Query::Anagram("?".repeat(64), None), TooManyTiles),
        (Query::Anagram(s("a[b"), None), BadBracket),
        (Query::Anagram(s("a[]"), None), BadBracket),
        (Query::Anagram(s("[ab]"), None), BadBracket),
        (Query::Anagram(s("[?]"), None), BadBracket),
        (Query::Subanagram(s("[a]]"), None), letter("]")),
        (Query::Hooks(s("é")), letter("É")),
        (Query::IsWord(s("")), Empty),
        (Query::Regex(s("(a")), RegexSyntax),
        (Query::Regex(s("a{2,1}")), RegexSyntax),
        (Query::Regex(s(&"a".repeat(1025))), TooLong),
    ];
    for (query, want) in bad {
        let got = check_one(lex, o, q(query.clone()));
        assert_eq!(got, Outcome::Error(want), "{query:?}");
    }
}

// ---------------------------------------------------------------------------
// Random small lexicons

/// A random small lexicon and random queries on it.
#[derive(Clone, Debug)]
struct SmallCase {
    words: Vec<String>,
    cases: Vec<Case>,
}

/// Queries made from the words of a small lexicon (one kind per query,
/// any kind).
fn small_queries(
    alpha: &TileAlphabet,
    words: &[String],
    pool: Vec<u8>,
    accents: bool,
    queries: Vec<(usize, Index, Vec<u32>)>,
) -> Vec<Case> {
    let g = Gen::new(alpha, pool, accents);
    let coded: Vec<Vec<u8>> = words
        .iter()
        .filter_map(|w| alpha.tokenize(w))
        .filter(|w| !w.is_empty())
        .collect();
    if coded.is_empty() {
        return Vec::new();
    }
    queries
        .into_iter()
        .map(|(k, i, r)| g.make(KINDS[k], &coded[i.index(coded.len())], &mut Rnd::new(&r)))
        .collect()
}

fn query_specs() -> impl Strategy<Value = Vec<(usize, Index, Vec<u32>)>> {
    vec(
        (0..KINDS.len(), any::<Index>(), vec(any::<u32>(), 48)),
        1..=24,
    )
}

fn small_english() -> impl Strategy<Value = SmallCase> {
    let letters: Vec<char> = ('A'..='Z').collect();
    (subsequence(letters, 3..=5), any::<u32>())
        .prop_flat_map(|(letters, extra)| {
            let word = vec(select(letters.clone()), 1..=7);
            let words = vec(
                word.prop_map(|cs| cs.into_iter().collect::<String>()),
                1..=24,
            );
            (Just(letters), Just(extra), words, query_specs())
        })
        .prop_map(|(letters, extra, words, queries)| {
            let alpha = TileAlphabet::english();
            let mut pool: Vec<u8> = letters.iter().map(|c| *c as u8 - b'A' + 1).collect();
            pool.push((extra % 26) as u8 + 1); // now and then a letter in no word
            let words: Vec<String> = words
                .into_iter()
                .enumerate()
                .map(|(i, w)| if i % 2 == 0 { w.to_lowercase() } else { w })
                .collect();
            let cases = small_queries(&alpha, &words, pool, false, queries);
            SmallCase { words, cases }
        })
}

/// Spellings for Spanish words: the multi-letter tiles, their letters on
/// their own, accents, and a K (words with one are skipped).
const SPANISH_BITS: &[&str] = &[
    "a", "á", "c", "h", "ch", "l", "ll", "r", "rr", "ñ", "e", "u", "ü", "k",
];

fn small_spanish() -> impl Strategy<Value = SmallCase> {
    let word = vec(select(SPANISH_BITS), 1..=6).prop_map(|bits| bits.concat());
    (vec(word, 1..=20), query_specs()).prop_map(|(words, queries)| {
        let alpha = TileAlphabet::spanish();
        let pool: Vec<u8> = ["A", "C", "CH", "E", "H", "L", "LL", "Ñ", "R", "RR", "U"]
            .iter()
            .map(|l| alpha.code(l))
            .collect();
        let cases = small_queries(&alpha, &words, pool, true, queries);
        SmallCase { words, cases }
    })
}

/// Spellings for Catalan words: the multi-letter tiles in their several
/// spellings, their letters on their own (a Q alone is no tile), accents.
const CATALAN_BITS: &[&str] = &[
    "a", "à", "c", "ç", "l", "l·l", "l.l", "ŀl", "n", "ny", "y", "qu", "qü", "q", "u", "e", "é",
    "o", "s",
];

fn small_catalan() -> impl Strategy<Value = SmallCase> {
    let word = vec(select(CATALAN_BITS), 1..=6).prop_map(|bits| bits.concat());
    (vec(word, 1..=20), query_specs()).prop_map(|(words, queries)| {
        let alpha = TileAlphabet::catalan();
        let pool: Vec<u8> = [
            "A", "C", "Ç", "E", "L", "L·L", "N", "NY", "O", "QU", "S", "U",
        ]
        .iter()
        .map(|l| alpha.code(l))
        .collect();
        let cases = small_queries(&alpha, &words, pool, true, queries);
        SmallCase { words, cases }
    })
}

/// An alphabet file with tiles longer than eight letters, one of which
/// holds another.
const LONG_TILES: &str = "A\nB\nABRACADABRA\nC\nCADABRA\nD\nR\nSUPERCALIFRAGILISTIC\n";

fn long_tiles() -> TileAlphabet {
    TileAlphabet::custom(&[
        &["A"],
        &["B"],
        &["ABRACADABRA"],
        &["C"],
        &["CADABRA"],
        &["D"],
        &["R"],
        &["SUPERCALIFRAGILISTIC"],
    ])
}

fn small_long_tiles() -> impl Strategy<Value = SmallCase> {
    let bits: &[&str] = &[
        "a",
        "b",
        "r",
        "c",
        "d",
        "abracadabra",
        "cadabra",
        "supercalifragilistic",
        "Abra",
    ];
    let word = vec(select(bits), 1..=4).prop_map(|bits| bits.concat());
    (vec(word, 1..=16), query_specs()).prop_map(|(words, queries)| {
        let alpha = long_tiles();
        let pool: Vec<u8> = (1..=alpha.len() as u8).collect();
        let cases = small_queries(&alpha, &words, pool, false, queries);
        SmallCase { words, cases }
    })
}

fn run_small(
    name: &str,
    cases: u32,
    strategy: impl Strategy<Value = SmallCase>,
    alpha: fn() -> (Alphabet, TileAlphabet),
) {
    let tally = Tally::default();
    let result = TestRunner::new(config(cases)).run(&strategy, |small| {
        let (alphabet, tiles) = alpha();
        let text = small.words.join("\n");
        let oracle = Oracle::new(tiles, &text);
        let lex = match build_lexicon(alphabet, &text) {
            Ok(lex) => lex,
            Err(e) => {
                prop_assert!(oracle.words.is_empty(), "build failed: {e}");
                return Ok(());
            }
        };
        prop_assert!(!oracle.words.is_empty(), "built a lexicon of no words");
        prop_assert_eq!(lex.word_count(), oracle.words.len() as u64);
        for case in &small.cases {
            tally.check(&lex, &oracle, case)?;
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{name}: {e}");
    }
    tally.assert_interesting(name, 40);
}

#[test]
fn random_small_english_lexicons() {
    run_small(
        "random_small_english_lexicons",
        400,
        small_english(),
        || (Alphabet::english(), TileAlphabet::english()),
    );
}

#[test]
fn random_small_spanish_lexicons() {
    run_small(
        "random_small_spanish_lexicons",
        300,
        small_spanish(),
        || (Alphabet::spanish(), TileAlphabet::spanish()),
    );
}

#[test]
fn random_small_catalan_lexicons() {
    run_small(
        "random_small_catalan_lexicons",
        300,
        small_catalan(),
        || (Alphabet::catalan(), TileAlphabet::catalan()),
    );
}

#[test]
fn random_small_lexicons_with_long_tiles() {
    run_small(
        "random_small_lexicons_with_long_tiles",
        200,
        small_long_tiles(),
        || {
            let alphabet = Alphabet::from_text("long", LONG_TILES).expect("a valid alphabet");
            (alphabet, long_tiles())
        },
    );
}

// ---------------------------------------------------------------------------
// Spanish

#[test]
fn spanish_whole_lexicon() {
    let (lex, o) = (&*SPANISH_LEX, &*SPANISH);
    // 5,103 lines, 3 with K or W, and accents merging a few words.
    assert!(
        o.words.len() > 5_000 && o.words.len() <= 5_100,
        "{}",
        o.words.len()
    );
    assert_eq!(lex.word_count(), o.words.len() as u64);
    for line in SPANISH_TEXT.lines() {
        let want = o.alpha.tokenize(line).is_some();
        assert_eq!(
            lex.is_word(line).is_ok_and(|b| b),
            want,
            "is_word({line:?})"
        );
    }
    check_one(lex, o, q(Query::Pattern(s("*"))));
    for lens in [(1, 3), (4, 4), (9, 9), (12, 63)] {
        check_one(
            lex,
            o,
            Case {
                query: Query::Pattern(s("*")),
                lens: Some(lens),
            },
        );
        check_one(
            lex,
            o,
            Case {
                query: Query::Regex(s(".*")),
                lens: Some(lens),
            },
        );
    }
}

#[test]
fn spanish_spot_checks() {
    let (lex, o) = (&*SPANISH_LEX, &*SPANISH);
    // CH, LL and RR are one tile: `?` stands for them, and a C or an L
    // alone does not match inside them.
    let got = check_one(lex, o, q(Query::Pattern(s("abarraz"))));
    assert!(matches!(got, Outcome::Words(ref w) if w == &["ABARRAZ"]));
    let got = check_one(lex, o, q(Query::Pattern(s("aba?az"))));
    assert!(matches!(got, Outcome::Words(ref w) if w.contains(&s("ABARRAZ"))));
    let got = check_one(lex, o, q(Query::Contains(s("abarr"))));
    assert!(matches!(got, Outcome::Words(ref w) if w.contains(&s("ABARRAZ"))));
    let got = check_one(lex, o, q(Query::Contains(s("abar"))));
    assert!(matches!(got, Outcome::Words(ref w) if !w.contains(&s("ABARRAZ"))));
    let got = check_one(
        lex,
        o,
        Case {
            query: Query::Starts(s("abarr")),
            lens: Some((6, 6)),
        },
    );
    assert!(matches!(got, Outcome::Words(ref w) if w.contains(&s("ABARRAZ"))));
    let got = check_one(lex, o, q(Query::IsWord(s("ABAZÓN"))));
    assert!(matches!(got, Outcome::Bool(true)));
    let got = check_one(lex, o, q(Query::Contains(s("k"))));
    assert!(matches!(got, Outcome::Error(_)));
    let got = check_one(lex, o, q(Query::IsWord(s("vodka"))));
    assert!(matches!(got, Outcome::Error(_)));
    // Words come in tile order: C < CH < D, and N < Ñ < O.
    for (pattern, tiles) in [("[c-d]*", ["C", "CH", "D"]), ("[n-o]*", ["N", "Ñ", "O"])] {
        let Outcome::Words(w) = check_one(lex, o, q(Query::Pattern(s(pattern)))) else {
            panic!("{pattern} is a valid pattern");
        };
        let ranks: Vec<usize> = w
            .iter()
            .map(|x| {
                let first = o.alpha.tokenize(x).expect("a word")[0];
                tiles
                    .iter()
                    .position(|&t| o.alpha.code(t) == first)
                    .expect("a first tile")
            })
            .collect();
        assert!(ranks.is_sorted(), "{pattern}: words out of tile order");
        assert!(
            (0..3).all(|r| ranks.contains(&r)),
            "{pattern}: some first tile missing"
        );
    }
}

#[test]
fn spanish_affixes() {
    run_cases(
        "spanish_affixes",
        256,
        word_cases(&SPANISH, Kind::Affix, 63, true),
        &SPANISH_LEX,
        &SPANISH,
        50,
    );
}

#[test]
fn spanish_raw_affixes() {
    // Substrings of the lines as written (accents and all), by characters.
    let lines: Vec<String> = SPANISH_TEXT.lines().map(String::from).collect();
    let strategy =
        (select(lines), any::<Index>(), 1..5usize, 0..3usize).prop_map(|(w, i, k, kind)| {
            let chars: Vec<char> = w.chars().collect();
            let k = k.min(chars.len());
            let start = i.index(chars.len() - k + 1);
            let (a, b) = match kind {
                0 => (start, start + k),
                1 => (0, k),
                _ => (chars.len() - k, chars.len()),
            };
            let t: String = chars[a..b].iter().collect();
            q(match kind {
                0 => Query::Contains(t),
                1 => Query::Starts(t),
                _ => Query::Ends(t),
            })
        });
    run_cases(
        "spanish_raw_affixes",
        256,
        strategy,
        &SPANISH_LEX,
        &SPANISH,
        50,
    );
}

#[test]
fn spanish_patterns() {
    run_cases(
        "spanish_patterns",
        256,
        word_cases(&SPANISH, Kind::Pattern, 63, true),
        &SPANISH_LEX,
        &SPANISH,
        25,
    );
}

#[test]
fn spanish_regexes() {
    run_cases(
        "spanish_regex_from_words",
        128,
        word_cases(&SPANISH, Kind::RegexFromWord, 63, true),
        &SPANISH_LEX,
        &SPANISH,
        30,
    );
    run_cases(
        "spanish_random_regex",
        64,
        word_cases(&SPANISH, Kind::RegexRandom, 63, true),
        &SPANISH_LEX,
        &SPANISH,
        5,
    );
}

#[test]
fn spanish_tree_regexes() {
    run_cases(
        "spanish_tree_regexes",
        192,
        word_cases(&SPANISH, Kind::RegexTree, 63, true),
        &SPANISH_LEX,
        &SPANISH,
        30,
    );
}

#[test]
fn spanish_anagrams() {
    run_cases(
        "spanish_anagrams",
        192,
        word_cases(&SPANISH, Kind::Anagram, 9, true),
        &SPANISH_LEX,
        &SPANISH,
        40,
    );
    run_cases(
        "spanish_subanagrams",
        128,
        word_cases(&SPANISH, Kind::Subanagram, 9, true),
        &SPANISH_LEX,
        &SPANISH,
        30,
    );
    run_cases(
        "spanish_patterns_arcs",
        96,
        word_cases(&SPANISH, Kind::Pattern, 63, true),
        &SPANISH_PREPARED_LEX,
        &SPANISH,
        25,
    );
    run_cases(
        "spanish_anagrams_arcs",
        96,
        word_cases(&SPANISH, Kind::Anagram, 9, true),
        &SPANISH_PREPARED_LEX,
        &SPANISH,
        40,
    );
    run_cases(
        "spanish_anagrams_prepared",
        96,
        word_cases(&SPANISH, Kind::Anagram, 9, true),
        &SPANISH_PREPARED_LEX,
        &SPANISH,
        40,
    );
}

#[test]
fn spanish_hooks_and_is_word() {
    run_cases(
        "spanish_hooks_and_is_word",
        256,
        word_cases(&SPANISH, Kind::Hooks, 63, true),
        &SPANISH_LEX,
        &SPANISH,
        30,
    );
}

// ---------------------------------------------------------------------------
// Bugs the oracle found (now fixed), kept as minimal regression tests

#[test]
fn bug_spanish_negated_regex_class_matches_accented_variant() {
    let lex = build_lexicon(Alphabet::spanish(), "a\ne\n").unwrap();
    let got = lex.regex("[^e]").unwrap().to_strings();
    assert_eq!(got, ["A"], "regex [^e] over the words A, E");
    let got = lex.regex("[^aeiou]").unwrap().to_strings();
    assert!(
        got.is_empty(),
        "regex [^aeiou] over the words A, E gave {got:?}"
    );
}

#[test]
fn bug_spanish_one_letter_classes_merge_into_a_tile() {
    let lex = build_lexicon(Alphabet::spanish(), "ch\nc\nll\nl\n").unwrap();
    // `[c]` is the class of the tile C and `[h]` that of H; no word has the
    // tile C followed by the tile H, as `c(h)` rightly finds.
    assert!(lex.regex("c(h)").unwrap().is_empty());
    let got = lex.regex("[c][h]").unwrap().to_strings();
    assert!(
        got.is_empty(),
        "regex [c][h] over CH, C, LL, L gave {got:?}"
    );
    let got = lex.regex("[l]{1}[l]").unwrap().to_strings();
    assert!(
        got.is_empty(),
        "regex [l]{{1}}[l] over CH, C, LL, L gave {got:?}"
    );
}

#[test]
fn bug_regex_case_folding_skipped_some_constructs() {
    // Case folding edited the regex's text, so named groups, a class
    // starting with ':', POSIX and Unicode classes escaped it.
    let (lex, o) = (&*ENABLE_LEX, &*ENABLE);
    for r in [
        "(?P<n>[bc]at)",
        "(?<n>[bc]at)s",
        "[:bc]at",
        "[[:lower:]]at",
        r"\p{Ll}a\p{Lu}",
        "(?i:B)AT",
        r"(?x) b a t",
    ] {
        let got = check_one(lex, o, q(Query::Regex(s(r))));
        assert!(got.is_interesting(), "{r} found nothing");
    }
}

#[test]
fn bug_letters_dropped_from_several_letter_uppercases() {
    // `maß` was read as MAS, `ﬁx` as FX, and `build` stored STRASE.
    let lex = &*ENABLE_LEX;
    assert!(lex.is_word("maß").unwrap() && lex.is_word("MASS").unwrap());
    assert!(lex.is_word("ﬁx").unwrap());
    assert_eq!(lex.hooks("ﬁx").unwrap().word(), "FIX");
    let built = build_lexicon(Alphabet::english(), "straße\n").unwrap();
    assert_eq!(built.pattern("*").unwrap().to_strings(), ["STRASSE"]);
    assert_eq!(built.anagram("ßtrase").unwrap().to_strings(), ["STRASSE"]);
    // Decomposed accents read like composed ones where the alphabet folds
    // accents, in words and in the word list.
    let (es, o) = (&*SPANISH_LEX, &*SPANISH);
    assert!(es.is_word("abazo\u{301}n").unwrap());
    check_one(es, o, q(Query::Pattern(s("abazo\u{301}?"))));
    let built = build_lexicon(Alphabet::spanish(), "cafe\u{301}\n").unwrap();
    assert_eq!(built.pattern("*").unwrap().to_strings(), ["CAFE"]);
}

#[test]
fn bug_spanish_class_members_matching_no_tile_changed_results() {
    // `[a-z]{4}` gave 76 words and `[0-9a-z]{4}` 119; `\w{4}` differed
    // from `[[:alpha:]]{4}` by more than the ASCII-only POSIX class.
    let (lex, o) = (&*SPANISH_LEX, &*SPANISH);
    let count = |r: &str| lex.regex(r).unwrap().len();
    assert_eq!(count("[a-z]{4}"), count("[0-9a-z_]{4}"));
    assert_eq!(count(r"\w{4}"), count(".{4}"));
    assert_eq!(count(r"\w{4}"), count(r"\pL{4}"));
    assert_eq!(count("[a-z]{4}"), count("[[:alpha:]]{4}"));
    let all4 = check_one(
        lex,
        o,
        Case {
            query: Query::Pattern(s("*")),
            lens: Some((4, 4)),
        },
    );
    let Outcome::Words(all4) = all4 else { panic!() };
    assert_eq!(count(".{4}"), all4.len());
}

/// `Search::limit`, `min_len`, `max_len` and `through` against the plain
/// answer, itself checked against the scan above: a limit keeps the first
/// words in alphabet order and `found` counts them all; one end of the
/// lengths at a time is the same as both; `through` is the letters on the
/// board, checked here against a scan of the word list.
#[test]
fn search_limits_and_ends() {
    let lex = Lexicon::embedded();
    let list: Vec<String> =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/indexes/enable1.txt"))
            .unwrap()
            .lines()
            .map(|w| w.trim().to_ascii_uppercase())
            .collect();
    for (min, max) in [(0, 15), (2, 2), (5, 7), (9, 3)] {
        let s = lex.search().min_len(min).max_len(max);
        let both = lex.search().lengths(min, max);
        for sub in ["qu", "x", "ing"] {
            let all = both.contains(sub).unwrap().to_strings();
            assert_eq!(s.contains(sub).unwrap().to_strings(), all);
            let scan: Vec<&String> = list
                .iter()
                .filter(|w| (min..=max).contains(&w.len()) && w.contains(&sub.to_uppercase()))
                .collect();
            assert_eq!(all.len(), scan.len(), "{sub} {min}-{max}");
            for n in [0, 1, 5, 100_000] {
                let some = both.limit(n).contains(sub).unwrap();
                assert_eq!(some.to_strings(), all[..n.min(all.len())], "{sub} {n}");
                assert_eq!(some.found(), all.len());
            }
        }
    }
    // Through: words holding AIN with R, E, T around it (anagram) or
    // some of them (subanagram), from a scan.
    let holds = |w: &str, rack: &str, all: bool| {
        w.match_indices("AIN").any(|(i, _)| {
            let mut rest: Vec<char> = format!("{}{}", &w[..i], &w[i + 3..]).chars().collect();
            let mut left: Vec<char> = rack.chars().collect();
            rest.retain(|c| match left.iter().position(|l| l == c) {
                Some(k) => {
                    left.remove(k);
                    false
                }
                None => true,
            });
            rest.is_empty() && (!all || left.is_empty()) && left.len() < rack.len()
        })
    };
    let scan = |all: bool| -> Vec<String> {
        list.iter()
            .filter(|w| holds(w, "RET", all))
            .cloned()
            .collect()
    };
    assert_eq!(
        lex.search()
            .through("ain")
            .anagram("ret")
            .unwrap()
            .to_strings(),
        scan(true)
    );
    assert_eq!(
        lex.search()
            .through("ain")
            .subanagram("ret")
            .unwrap()
            .to_strings(),
        scan(false)
    );
}
