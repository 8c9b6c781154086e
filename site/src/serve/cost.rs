//! What a request will cost, estimated before it runs, from its shape and
//! the lexicon's own counts: a word page is light whatever its word, a
//! pattern with no selective letters lists the whole lexicon, a rack's
//! blanks multiply the walk, a search costs what the site estimates it
//! will read.
//!
//! The unit is microseconds of one core for an optimised build, the
//! constants fitted to ENABLE (`pattern/*` lists 172,820 words, `s*` the
//! 18,988 starting with S). A request of [`Cost::HEAVY`] or more runs in
//! the heavy pool and counts against its client's heavy budget.

use lexq::{Alphabet, Lexicon};

use super::Kind;
use regex_syntax::hir::literal::{ExtractKind, Extractor};

/// A request's estimated cost (microseconds of one core).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Cost(pub u64);

impl Cost {
    /// A word page, hooks, a check: a few lookups.
    pub const LIGHT: Cost = Cost(50);
    /// From here on a request is heavy.
    pub const HEAVY: Cost = Cost(500);
    /// From here on a heavy request weighs two in its client's budget.
    pub const HEAVIER: Cost = Cost(10_000);

    /// Whether it runs in the heavy pool, under the client's heavy cap.
    pub fn is_heavy(self) -> bool {
        self >= Cost::HEAVY
    }

    /// What it weighs in its client's heavy budget: 0 (light), 1 or 2.
    pub fn weight(self) -> usize {
        match self {
            c if c >= Cost::HEAVIER => 2,
            c if c >= Cost::HEAVY => 1,
            _ => 0,
        }
    }

    fn of(us: f64) -> Cost {
        Cost(if us.is_finite() {
            us.max(0.0) as u64
        } else {
            u64::MAX
        })
    }
}

/// The tile codes run from 1 to 63: tables of 64 (and 64 x 64) entries.
const T: usize = 64;

/// Counts of the lexicon's words that bound what a query can list: words
/// by length, by first and last tile (and first and last two), and
/// holding each tile (and each pair of tiles side by side). Read once, in
/// one pass over the words, when the server starts.
pub(crate) struct Stats {
    words: u64,
    /// `upto[n]`: words of at most n tiles.
    upto: Vec<u64>,
    /// Words of exactly n tiles.
    exactly: Vec<u64>,
    first: Vec<u64>,
    last: Vec<u64>,
    has: Vec<u64>,
    first2: Vec<u64>,
    last2: Vec<u64>,
    has2: Vec<u64>,
}

fn pair(a: u8, b: u8) -> usize {
    (a as usize & (T - 1)) * T + (b as usize & (T - 1))
}

impl Stats {
    pub(crate) fn of(lex: &Lexicon) -> Stats {
        let mut s = Stats {
            words: 0,
            upto: Vec::new(),
            exactly: Vec::new(),
            first: vec![0; T],
            last: vec![0; T],
            has: vec![0; T],
            first2: vec![0; T * T],
            last2: vec![0; T * T],
            has2: vec![0; T * T],
        };
        let Ok(all) = lex.pattern("*") else {
            // No words to count: every estimate falls back to the whole
            // (empty) lexicon.
            return s;
        };
        let mut pairs = Vec::new();
        for w in all.iter() {
            let c = w.codes();
            let n = c.len();
            if n == 0 {
                continue;
            }
            s.words += 1;
            if s.exactly.len() <= n {
                s.exactly.resize(n + 1, 0);
            }
            s.exactly[n] += 1;
            s.first[c[0] as usize & (T - 1)] += 1;
            s.last[c[n - 1] as usize & (T - 1)] += 1;
            let mut seen = 0u64;
            for &t in c {
                seen |= 1 << (t as usize & (T - 1));
            }
            for (t, h) in s.has.iter_mut().enumerate() {
                *h += (seen >> t) & 1;
            }
            if n >= 2 {
                s.first2[pair(c[0], c[1])] += 1;
                s.last2[pair(c[n - 2], c[n - 1])] += 1;
                pairs.clear();
                pairs.extend(c.windows(2).map(|p| pair(p[0], p[1])));
                pairs.sort_unstable();
                pairs.dedup();
                for &p in &pairs {
                    s.has2[p] += 1;
                }
            }
        }
        let mut total = 0;
        s.upto = s
            .exactly
            .iter()
            .map(|&k| {
                total += k;
                total
            })
            .collect();
        s
    }

    fn upto(&self, n: usize) -> u64 {
        match self.upto.last() {
            None => 0,
            Some(&all) => self.upto.get(n).copied().unwrap_or(all),
        }
    }

    fn exactly(&self, n: usize) -> u64 {
        self.exactly.get(n).copied().unwrap_or(0)
    }

    /// Words that start with `run` (at least its first two tiles).
    fn starting(&self, run: &[u8]) -> u64 {
        match run {
            [] => self.words,
            [a] => self.first[*a as usize & (T - 1)],
            [a, b, ..] => self.first2[pair(*a, *b)],
        }
    }

    /// Words that end with `run`.
    fn ending(&self, run: &[u8]) -> u64 {
        match run {
            [] => self.words,
            [a] => self.last[*a as usize & (T - 1)],
            [.., a, b] => self.last2[pair(*a, *b)],
        }
    }

    /// Words that hold `run` somewhere: the fewest of its pairs'.
    fn holding(&self, run: &[u8]) -> u64 {
        match run {
            [] => self.words,
            [a] => self.has[*a as usize & (T - 1)],
            _ => run
                .windows(2)
                .map(|p| self.has2[pair(p[0], p[1])])
                .min()
                .unwrap_or(self.words),
        }
    }
}

/// One item of a wildcard pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Item {
    Tile(u8),
    /// `?`, or a class `[...]`: one tile.
    One,
    /// `*`: any run.
    Run,
}

/// A pattern's items, or `None` if it does not read as one (the query
/// will say why; estimated as the worst).
fn items(alphabet: &Alphabet, pattern: &str) -> Option<Vec<Item>> {
    let mut out = Vec::new();
    let mut rest = pattern;
    while let Some(ch) = rest.chars().next() {
        let len = match ch {
            '?' | '_' => {
                out.push(Item::One);
                1
            }
            '*' => {
                out.push(Item::Run);
                1
            }
            '[' => {
                out.push(Item::One);
                rest.find(']')? + 1
            }
            _ => {
                let (code, len) = alphabet.tile_at(rest)?;
                out.push(Item::Tile(code));
                len
            }
        };
        rest = &rest[len..];
    }
    Some(out)
}

/// Microseconds per word listed, by what bounds the list: words walked
/// from their first tiles are cheapest, words found by a run inside them
/// (one tile: found once for each place it stands) dearest.
const PER_PREFIX: f64 = 0.1;
const PER_LENGTH: f64 = 0.15;
const PER_PAIR: f64 = 0.15;
const PER_SUFFIX: f64 = 0.3;
const PER_ANY: f64 = 0.5;

/// The bound of a list and the price of each word in it.
struct Bound {
    words: u64,
    per_word: f64,
}

impl Bound {
    fn all(stats: &Stats) -> Bound {
        Bound {
            words: stats.words,
            per_word: PER_ANY,
        }
    }

    /// The tighter of the two.
    fn min(self, other: Bound) -> Bound {
        if other.words < self.words {
            other
        } else {
            self
        }
    }

    fn cost(&self) -> Cost {
        Cost::of(self.words as f64 * self.per_word)
    }
}

/// The fewest words a pattern of `items` can list, and their price.
fn pattern_bound(stats: &Stats, items: &[Item]) -> Bound {
    let mut b = Bound::all(stats);
    if !items.contains(&Item::Run) {
        b = b.min(Bound {
            words: stats.exactly(items.len()),
            per_word: PER_LENGTH,
        });
    }
    // The runs of tiles, and whether each starts or ends the pattern.
    let mut i = 0;
    while i < items.len() {
        if !matches!(items[i], Item::Tile(_)) {
            i += 1;
            continue;
        }
        let start = i;
        let mut run = Vec::new();
        while let Some(Item::Tile(c)) = items.get(i) {
            run.push(*c);
            i += 1;
        }
        if start == 0 {
            b = b.min(Bound {
                words: stats.starting(&run),
                per_word: PER_PREFIX,
            });
        }
        if i == items.len() {
            b = b.min(Bound {
                words: stats.ending(&run),
                per_word: PER_SUFFIX,
            });
        }
        b = b.min(Bound {
            words: stats.holding(&run),
            per_word: if run.len() >= 2 { PER_PAIR } else { PER_ANY },
        });
    }
    b
}

/// The estimated cost of a word list of `kind` for `query`; `sorted`
/// when the list is sorted by length as well.
pub(crate) fn list(
    stats: &Stats,
    alphabet: &Alphabet,
    kind: Kind,
    query: &str,
    sorted: bool,
) -> Cost {
    let query = query.trim();
    let bound = match kind {
        Kind::Contains | Kind::Starts | Kind::Ends => match alphabet.encode(query) {
            // Not letters: refused before any walk.
            Err(_) => return Cost::LIGHT,
            Ok(codes) => {
                let tiles = codes.into_iter().map(Item::Tile);
                let items: Vec<Item> = match kind {
                    Kind::Contains => [Item::Run]
                        .into_iter()
                        .chain(tiles)
                        .chain([Item::Run])
                        .collect(),
                    Kind::Starts => tiles.chain([Item::Run]).collect(),
                    _ => [Item::Run].into_iter().chain(tiles).collect(),
                };
                pattern_bound(stats, &items)
            }
        },
        Kind::Pattern => match items(alphabet, query) {
            Some(items) => pattern_bound(stats, &items),
            None => Bound::all(stats),
        },
        Kind::Regex => regex_bound(stats, alphabet, query),
        Kind::Anagram | Kind::Subanagram => {
            return rack(stats, alphabet, query, kind == Kind::Subanagram);
        }
    };
    let cost = bound.cost();
    if sorted {
        Cost::of(cost.0 as f64 * 1.5)
    } else {
        cost
    }
}

/// A rack's walk: each blank multiplies it (about eightfold for a seven-
/// tile rack on ENABLE), and it can never list more than the words of at
/// most the rack's size.
fn rack(stats: &Stats, alphabet: &Alphabet, rack: &str, sub: bool) -> Cost {
    let (mut tiles, mut blanks) = (0usize, 0i32);
    let mut rest = rack;
    while let Some(ch) = rest.chars().next() {
        if ch == '?' || ch == '_' {
            blanks += 1;
            rest = &rest[1..];
        } else if let Some((_, len)) = alphabet.tile_at(rest) {
            tiles += 1;
            rest = &rest[len..];
        } else {
            // Not a rack: refused before any walk.
            return Cost::LIGHT;
        }
    }
    let n = tiles + blanks as usize;
    let (base, per_word) = if sub { (10.0, 0.2) } else { (4.0, 0.08) };
    let walk = base * 8f64.powi(blanks);
    let cap = stats.upto(n) as f64 * per_word;
    Cost::of(walk.min(cap.max(base)))
}

/// A regex's words start with one of its literal prefixes and end with
/// one of its literal suffixes, when it has them (`.*ING` ends in ING,
/// `(RE|UN).*` starts with RE or UN); and they are no longer than its
/// longest match. A regex this cannot read is priced as the whole
/// lexicon.
fn regex_bound(stats: &Stats, alphabet: &Alphabet, regex: &str) -> Bound {
    let mut b = Bound::all(stats);
    let Ok(hir) = regex_syntax::ParserBuilder::new()
        .case_insensitive(true)
        .build()
        .parse(regex)
    else {
        return b;
    };
    if let Some(max) = hir.properties().maximum_len() {
        // A tile is spelled with one byte or more.
        b = b.min(Bound {
            words: stats.upto(max),
            per_word: PER_LENGTH,
        });
    }
    for (prefix, per_word) in [(true, PER_PREFIX), (false, PER_SUFFIX)] {
        let kind = if prefix {
            ExtractKind::Prefix
        } else {
            ExtractKind::Suffix
        };
        let seq = Extractor::new().kind(kind).extract(&hir);
        let Some(lits) = seq.literals() else { continue };
        let mut runs: Vec<Vec<u8>> = Vec::new();
        let mut usable = !lits.is_empty();
        for lit in lits {
            let codes = std::str::from_utf8(lit.as_bytes())
                .ok()
                .and_then(|s| alphabet.encode(s).ok());
            match codes {
                Some(c) if !c.is_empty() => runs.push(c),
                _ => usable = false,
            }
        }
        if !usable {
            continue;
        }
        // Case variants of one literal read as the same tiles.
        let keep = |c: &[u8]| -> Vec<u8> {
            if prefix {
                c[..c.len().min(2)].to_vec()
            } else {
                c[c.len().saturating_sub(2)..].to_vec()
            }
        };
        let mut keys: Vec<Vec<u8>> = runs.iter().map(|c| keep(c)).collect();
        keys.sort_unstable();
        keys.dedup();
        // Summed: an upper bound even where one key begins another.
        let words = keys
            .iter()
            .map(|k| {
                if prefix {
                    stats.starting(k)
                } else {
                    stats.ending(k)
                }
            })
            .sum();
        b = b.min(Bound { words, per_word });
    }
    b
}

/// What one read of a search's estimate costs (see
/// [`QueryBounds::max_reads`](crate::QueryBounds::max_reads)), in reads
/// per microsecond: fitted to the heaviest searches the default bounds
/// accept on ENABLE + WordNet (the README's benchmark section).
const SEARCH_READS_PER_US: u64 = 100;

/// What any search costs besides its reads.
const SEARCH_BASE: Cost = Cost::LIGHT;

/// The estimated cost of a site search from the reads it is estimated
/// to make ([`Site::estimate`](crate::Site::estimate), worked out before
/// it runs): `SEARCH_BASE` and a microsecond per
/// `SEARCH_READS_PER_US` reads. It is heavy from [`Cost::HEAVY`] (see
/// [`search_reads`] for the reads that makes) and weighs two from
/// [`Cost::HEAVIER`].
pub fn search(reads: u64) -> Cost {
    Cost(SEARCH_BASE.0.saturating_add(reads / SEARCH_READS_PER_US))
}

/// The fewest estimated reads that make a search cost `cost` (the
/// inverse of [`search`]): `search_reads(Cost::HEAVY)` is where searches
/// become heavy.
pub fn search_reads(cost: Cost) -> u64 {
    cost.0
        .saturating_sub(SEARCH_BASE.0)
        .saturating_mul(SEARCH_READS_PER_US)
}

/// Steps of a `find` walk per microsecond of one core (an edge followed
/// and its counts, the words found tested), as the planner's dives
/// estimate them: fitted to `lexq find` on ENABLE, one core (the
/// measurements are in docs/BENCHMARKS.md).
const FIND_STEPS_PER_US: u64 = 16;

/// The estimated cost of a `find` from the steps its planner expects its
/// walk to take ([`lexq::find::Prepared::estimated_steps`]): a light
/// request's base and a microsecond per `FIND_STEPS_PER_US` steps.
pub fn find(steps: u64) -> Cost {
    Cost(Cost::LIGHT.0.saturating_add(steps / FIND_STEPS_PER_US))
}

/// The estimated cost of `suggest` for `word` within `distance` edits:
/// the walk keeps every prefix within the distance of some prefix of the
/// word, so it grows with the distance and the word's length; at
/// distance 1 a short word is light, anything at distance 2 heavy.
pub(crate) fn suggest(alphabet: &Alphabet, word: &str, distance: u8) -> Cost {
    let Ok(codes) = alphabet.encode(word.trim()) else {
        // Not a word: refused before any walk.
        return Cost::LIGHT;
    };
    let n = codes.len() as f64;
    let us = match distance {
        0 | 1 => 20.0 * (n + 1.0),
        _ => 300.0 * (n + 1.0),
    };
    Cost::of(us)
}

/// The estimated cost of the moves of a CGP line: by the blanks on the
/// rack to move (each about tenfold), twice on a 21x21 board. The line is
/// read only as far as that; a line that does not read is light (the
/// handler refuses it).
pub(crate) fn moves(cgp: &str) -> Cost {
    let mut fields = cgp.split_whitespace();
    let (Some(board), Some(racks)) = (fields.next(), fields.next()) else {
        return Cost::LIGHT;
    };
    let rack = racks.split('/').next().unwrap_or("");
    let blanks = rack.chars().filter(|&c| c == '?' || c == '_').count() as i32;
    let big = if board.split('/').count() > 15 {
        2.0
    } else {
        1.0
    };
    let us = match blanks {
        0 => 200.0,
        1 => 3_000.0,
        b => 25_000.0 * 10f64.powi(b - 2),
    };
    Cost::of(us * big)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::OnceLock;

    /// ENABLE as a plain list, read from the file the embedded lexicon is
    /// built from: the oracle's own reading, apart from the lexicon.
    fn enable() -> &'static Vec<String> {
        static W: OnceLock<Vec<String>> = OnceLock::new();
        W.get_or_init(|| {
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../indexes/enable1.txt");
            std::fs::read_to_string(path)
                .unwrap()
                .lines()
                .map(|l| l.trim().to_uppercase())
                .filter(|l| !l.is_empty())
                .collect()
        })
    }

    fn stats() -> &'static Stats {
        static S: OnceLock<Stats> = OnceLock::new();
        S.get_or_init(|| Stats::of(&Lexicon::embedded()))
    }

    /// A plain matcher for `?` and `*` over letters.
    fn matches(p: &[u8], w: &[u8]) -> bool {
        match (p.first(), w.first()) {
            (None, None) => true,
            (Some(b'*'), _) => matches(&p[1..], w) || (!w.is_empty() && matches(p, &w[1..])),
            (Some(b'?'), Some(_)) => matches(&p[1..], &w[1..]),
            (Some(a), Some(b)) if a == b => matches(&p[1..], &w[1..]),
            _ => false,
        }
    }

    #[test]
    fn the_counts_are_the_word_lists() {
        let s = stats();
        let words = enable();
        assert_eq!(s.words, words.len() as u64);
        let a = Alphabet::english();
        let code = |t: &str| a.encode(t).unwrap();
        let count = |f: &dyn Fn(&str) -> bool| words.iter().filter(|w| f(w)).count() as u64;
        for run in ["S", "QU", "E", "ING", "ZZ", "XYZ"] {
            let c = code(run);
            let two = &run[..run.len().min(2)];
            let last_two = &run[run.len().saturating_sub(2)..];
            assert_eq!(s.starting(&c), count(&|w| w.starts_with(two)), "{run}");
            assert_eq!(s.ending(&c), count(&|w| w.ends_with(last_two)), "{run}");
            if run.len() <= 2 {
                assert_eq!(s.holding(&c), count(&|w| w.contains(run)), "{run}");
            }
        }
        for n in [1, 2, 5, 15, 40] {
            assert_eq!(s.exactly(n), count(&|w| w.len() == n), "{n}");
            assert_eq!(s.upto(n), count(&|w| w.len() <= n), "{n}");
        }
    }

    #[test]
    fn bounds_hold_every_word_a_pattern_lists() {
        // Every pattern over a few letters, ? and * up to four items, and
        // some longer ones: the bound is never below the plain scan's
        // count.
        let a = Alphabet::english();
        let mut patterns: Vec<String> = Vec::new();
        let alphabet = ["E", "S", "Q", "U", "?", "*"];
        let mut frontier = vec![String::new()];
        for _ in 0..4 {
            let mut next = Vec::new();
            for p in &frontier {
                for x in alphabet {
                    next.push(format!("{p}{x}"));
                }
            }
            patterns.extend(next.iter().cloned());
            frontier = next;
        }
        patterns.extend(
            ["*ING", "RE*", "*QU*", "?????", "C?R*S", "*ATION*", "UN*ED"].map(String::from),
        );
        let words = enable();
        for p in &patterns {
            let items = items(&a, p).unwrap();
            let bound = pattern_bound(stats(), &items).words;
            let n = words
                .iter()
                .filter(|w| matches(p.as_bytes(), w.as_bytes()))
                .count() as u64;
            assert!(bound >= n, "{p}: bound {bound} < {n} words");
        }
    }

    #[test]
    fn regex_bounds_hold_their_words() {
        let a = Alphabet::english();
        let words = enable();
        type Oracle = fn(&str) -> bool;
        let cases: [(&str, Oracle); 6] = [
            (".*ing", |w| w.ends_with("ING")),
            ("(re|un).*", |w| w.starts_with("RE") || w.starts_with("UN")),
            ("q.*", |w| w.starts_with('Q')),
            (".{3}", |w| w.len() == 3),
            ("c[aeiou]r.*s", |w| {
                w.len() >= 4
                    && w.starts_with('C')
                    && "AEIOU".contains(&w[1..2])
                    && w[2..].starts_with('R')
                    && w.ends_with('S')
            }),
            ("(ab|cd)+", |w| {
                w.len() % 2 == 0 && w.as_bytes().chunks(2).all(|c| c == b"AB" || c == b"CD")
            }),
        ];
        for (re, f) in cases {
            let bound = regex_bound(stats(), &a, re).words;
            let n = words.iter().filter(|w| f(w)).count() as u64;
            assert!(n > 0 || re == "(ab|cd)+", "{re}: the oracle lists nothing");
            assert!(bound >= n, "{re}: bound {bound} < {n} words");
        }
        // What it cannot read is the whole lexicon.
        assert_eq!(regex_bound(stats(), &a, "(").words, stats().words);
    }

    #[test]
    fn shapes_are_priced_as_they_run() {
        // As measured on ENABLE (benches and README): the whole lexicon,
        // one common letter anywhere or at the end, and racks with many
        // blanks are heavy; selective runs, word-length patterns with a
        // fixed start, and racks with a blank or two are not.
        let s = stats();
        let a = Alphabet::english();
        let cost = |k, q: &str| list(s, &a, k, q, false);
        use super::super::Kind::*;
        for (k, q) in [
            (Pattern, "*"),
            (Pattern, "*e*"),
            (Regex, ".*"),
            (Regex, ".*e.*"),
            (Contains, "e"),
            (Contains, "es"),
            (Ends, "s"),
            (Ends, "ing"),
            (Anagram, "???????"),
            (Subanagram, "???????"),
            (Subanagram, "??????????"),
        ] {
            assert!(cost(k, q).is_heavy(), "{k:?} {q}: {:?}", cost(k, q));
        }
        for (k, q) in [
            (Pattern, "*qu*"),
            (Pattern, "ca?e"),
            (Contains, "qu"),
            (Starts, "ca"),
            (Starts, "qu"),
            (Regex, "qu.*"),
            (Anagram, "aeinrst"),
            (Anagram, "aeinrs?"),
            (Anagram, "aeinr??"),
            (Subanagram, "aeinrst"),
            (Subanagram, "aeinrs?"),
            (Contains, "a1"),
        ] {
            assert!(!cost(k, q).is_heavy(), "{k:?} {q}: {:?}", cost(k, q));
        }
        assert_eq!(cost(Pattern, "*").weight(), 2);
        assert_eq!(cost(Subanagram, "??????????").weight(), 2);
        assert!(cost(Anagram, "???") < cost(Anagram, "?????"));
        assert!(list(s, &a, Pattern, "*s", true) > cost(Pattern, "*s"));
    }

    #[test]
    fn searches_are_priced_by_their_estimated_reads() {
        for cost in [Cost::HEAVY, Cost::HEAVIER] {
            let reads = search_reads(cost);
            assert_eq!(search(reads), cost);
            assert!(search(reads - 1) < cost);
        }
        assert!(!search(0).is_heavy());
        assert_eq!(search(search_reads(Cost::HEAVY)).weight(), 1);
        assert_eq!(search(u64::MAX).weight(), 2);
    }

    #[test]
    fn moves_are_priced_by_blanks() {
        let empty = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15";
        let m = |rack: &str| moves(&format!("{empty} {rack}/ 0/0 0"));
        assert!(!m("AEINRST").is_heavy());
        assert_eq!(m("AEINRS?").weight(), 1);
        assert_eq!(m("AEINR??").weight(), 2);
        assert_eq!(m("AEIN_??").weight(), 2);
        assert!(
            moves("21/21/21/21/21/21/21/21/21/21/21/21/21/21/21/21/21/21/21/21/21 AEINRS?/ 0/0 0")
                > m("AEINRS?")
        );
        assert_eq!(moves(""), Cost::LIGHT);
        assert_eq!(moves("junk"), Cost::LIGHT);
    }
}
