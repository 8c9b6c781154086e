//! `Lexicon::find` against a plain scan of `indexes/enable1.txt`: hundreds
//! of random queries of one to five conditions (each kind, negated or not,
//! alternatives among them) must find exactly the words the scan finds.
//!
//! The scan is written here from the conditions' definitions, with none of
//! the library's code: words are uppercase ASCII strings; patterns become
//! `regex` crate expressions; racks are fitted by backtracking over their
//! tiles; hooks, anagram counts and probability ranks are looked up in
//! tables built from the list (combinations counted by trying every way the
//! two blanks can stand for the word's letters).

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use lexq::Lexicon;
use lexq::find::{Budget, Condition as C, FindErrorKind, Query, Range, Term};

/// English tile values and counts (A to Z), and two blanks.
const VALUES: [i64; 26] = [
    1, 3, 3, 2, 1, 4, 2, 4, 1, 8, 5, 1, 3, 1, 1, 3, 10, 1, 1, 1, 1, 4, 4, 8, 4, 10,
];
const COUNTS: [u64; 26] = [
    9, 2, 2, 4, 12, 2, 3, 2, 9, 1, 1, 4, 2, 6, 8, 2, 1, 6, 4, 6, 4, 2, 2, 1, 2, 1,
];

/// Every word and what the scan knows of it.
struct Scan {
    words: Vec<String>,
    set: HashSet<String>,
    /// Words by alphagram, for anagram counts.
    alphagrams: HashMap<Vec<u8>, u32>,
    /// Probability rank of each word among its length.
    ranks: HashMap<String, u32>,
}

fn alphagram(w: &str) -> Vec<u8> {
    let mut a = w.as_bytes().to_vec();
    a.sort_unstable();
    a
}

fn binom(n: u64, k: u64) -> u128 {
    if k > n {
        return 0;
    }
    let mut r: u128 = 1;
    for i in 0..k {
        r = r * (n - i) as u128 / (i + 1) as u128;
    }
    r
}

/// The draws of the word's length that spell it: every way to choose, for
/// 0, 1 or 2 blanks, which of its letters the blanks stand for.
fn combinations(w: &str) -> u128 {
    let mut need = [0u64; 26];
    for b in w.bytes() {
        need[(b - b'A') as usize] += 1;
    }
    let letters: Vec<usize> = (0..26).filter(|&i| need[i] > 0).collect();
    let mut total = 0u128;
    // d[i]: letters of letters[i] played by blanks.
    fn go(
        i: usize,
        left: u64,
        letters: &[usize],
        need: &[u64; 26],
        d: &mut Vec<u64>,
        acc: &mut u128,
        blanks: u64,
    ) {
        if i == letters.len() {
            if left == 0 {
                let mut ways = binom(2, blanks);
                for (k, &l) in letters.iter().enumerate() {
                    ways *= binom(COUNTS[l], need[l] - d[k]);
                }
                *acc += ways;
            }
            return;
        }
        for take in 0..=left.min(need[letters[i]]) {
            d.push(take);
            go(i + 1, left - take, letters, need, d, acc, blanks);
            d.pop();
        }
    }
    for blanks in 0..=2u64.min(w.len() as u64) {
        let mut d = Vec::new();
        go(0, blanks, &letters, &need, &mut d, &mut total, blanks);
    }
    total
}

static SCAN: LazyLock<Scan> = LazyLock::new(|| {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/indexes/enable1.txt"))
        .unwrap();
    let mut words: Vec<String> = text
        .lines()
        .map(|l| l.trim().to_uppercase())
        .filter(|l| !l.is_empty())
        .collect();
    words.sort();
    words.dedup();
    let set: HashSet<String> = words.iter().cloned().collect();
    let mut alphagrams = HashMap::new();
    for w in &words {
        *alphagrams.entry(alphagram(w)).or_insert(0) += 1;
    }
    let mut by_len: HashMap<usize, Vec<u128>> = HashMap::new();
    let combos: Vec<u128> = words.iter().map(|w| combinations(w)).collect();
    for (w, &c) in words.iter().zip(&combos) {
        by_len.entry(w.len()).or_default().push(c);
    }
    let ranks = words
        .iter()
        .zip(&combos)
        .map(|(w, &c)| {
            let more = by_len[&w.len()].iter().filter(|&&x| x > c).count();
            (w.clone(), more as u32 + 1)
        })
        .collect();
    Scan {
        words,
        set,
        alphagrams,
        ranks,
    }
});

static LEX: LazyLock<Lexicon> = LazyLock::new(Lexicon::embedded);

/// A rack as the scan reads it.
struct ScanRack {
    real: [u32; 26],
    blanks: u32,
    sets: Vec<Vec<u8>>,
    star: bool,
}

fn scan_rack(text: &str) -> ScanRack {
    let mut r = ScanRack {
        real: [0; 26],
        blanks: 0,
        sets: Vec::new(),
        star: false,
    };
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c.to_ascii_uppercase() {
            '?' | '_' => r.blanks += 1,
            '*' => r.star = true,
            '{' => {
                let set: Vec<u8> = chars
                    .by_ref()
                    .take_while(|&c| c != '}')
                    .map(|c| c.to_ascii_uppercase() as u8)
                    .collect();
                r.sets.push(set);
            }
            c => r.real[(c as u8 - b'A') as usize] += 1,
        }
    }
    r
}

/// Whether `letters` can be played from the rack: all the rack's tiles if
/// `exact`. Real tiles first (a letter's own tile is never worse), then
/// every choice of set tile or blank, by backtracking.
fn rack_fits(letters: &[u8], r: &ScanRack, exact: bool) -> bool {
    let mut real = r.real;
    let mut rest = Vec::new();
    for &b in letters {
        let i = (b - b'A') as usize;
        if real[i] > 0 {
            real[i] -= 1;
        } else {
            rest.push(b);
        }
    }
    if exact && real.iter().any(|&k| k > 0) {
        return false;
    }
    fn place(rest: &[u8], used: &mut Vec<bool>, r: &ScanRack, blanks: u32, exact: bool) -> bool {
        let Some((&b, tail)) = rest.split_first() else {
            return !exact || (used.iter().all(|&u| u) && blanks == 0);
        };
        for j in 0..r.sets.len() {
            if !used[j] && r.sets[j].contains(&b) {
                used[j] = true;
                if place(tail, used, r, blanks, exact) {
                    used[j] = false;
                    return true;
                }
                used[j] = false;
            }
        }
        if blanks > 0 && place(tail, used, r, blanks - 1, exact) {
            return true;
        }
        r.star && place(tail, used, r, blanks, exact)
    }
    place(&rest, &mut vec![false; r.sets.len()], r, r.blanks, exact)
}

/// A term made ready for the scan: patterns and regexes compiled, racks
/// read, `--in` files read, once per query.
struct Ready<'t> {
    term: &'t Term,
    regex: Option<regex::Regex>,
    rack: Option<ScanRack>,
    list: Option<HashSet<String>>,
    alts: Vec<Vec<Ready<'t>>>,
}

fn ready(t: &Term) -> Ready<'_> {
    let mut r = Ready {
        term: t,
        regex: None,
        rack: None,
        list: None,
        alts: Vec::new(),
    };
    match &t.condition {
        C::Pattern(p) => {
            let mut re = String::from("^(?:");
            let mut in_class = false;
            for c in p.to_uppercase().chars() {
                match c {
                    '?' if !in_class => re.push_str("[A-Z]"),
                    '*' if !in_class => re.push_str("[A-Z]*"),
                    '[' => {
                        in_class = true;
                        re.push('[');
                    }
                    ']' => {
                        in_class = false;
                        re.push(']');
                    }
                    c => re.push(c),
                }
            }
            re.push_str(")$");
            r.regex = Some(regex::Regex::new(&re).unwrap());
        }
        C::Regex(x) => r.regex = Some(regex::Regex::new(&format!("(?i)^(?:{x})$")).unwrap()),
        C::Anagram { rack, .. } | C::Subanagram { rack, .. } => r.rack = Some(scan_rack(rack)),
        C::InFile(path) => {
            r.list = Some(
                std::fs::read_to_string(path)
                    .unwrap()
                    .lines()
                    .map(|l| l.trim().to_uppercase())
                    .collect(),
            )
        }
        C::Any(alts) => r.alts = alts.iter().map(|a| a.iter().map(ready).collect()).collect(),
        _ => {}
    }
    r
}

/// The scan's answer to one term for one word.
fn holds(r: &Ready<'_>, w: &str) -> bool {
    let t = r.term;
    let s = &*SCAN;
    let n = w.len() as u32;
    let count = |set: &str| w.chars().filter(|c| set.contains(*c)).count() as u32;
    let is = |x: &str| s.set.contains(x);
    let met = match &t.condition {
        C::Contains(x) => w.contains(&x.to_uppercase()),
        C::Starts(x) => w.starts_with(&x.to_uppercase()),
        C::Ends(x) => w.ends_with(&x.to_uppercase()),
        C::Pattern(_) | C::Regex(_) => r.regex.as_ref().unwrap().is_match(w),
        C::Anagram { through, .. } | C::Subanagram { through, .. } => {
            let exact = matches!(t.condition, C::Anagram { .. });
            let rack = r.rack.as_ref().unwrap();
            let t = through.as_deref().unwrap_or("").to_uppercase();
            // A quick look at the length first: a word longer than the
            // rack and the block (or of another length, for an anagram)
            // cannot fit.
            let tiles = rack.real.iter().sum::<u32>() + rack.blanks + rack.sets.len() as u32;
            let room = tiles as usize + t.len();
            if !rack.star && (w.len() > room || (exact && w.len() != room)) {
                return r.term.negated;
            }
            let min = if exact {
                0
            } else if t.is_empty() {
                2
            } else {
                1
            };
            (0..=w.len().saturating_sub(t.len()))
                .filter(|&i| w[i..].starts_with(&t))
                .any(|i| {
                    let rest: Vec<u8> = w
                        .bytes()
                        .take(i)
                        .chain(w.bytes().skip(i + t.len()))
                        .collect();
                    rest.len() >= min && rack_fits(&rest, rack, exact)
                })
        }
        C::Length(r) => r.holds(n),
        C::Includes(x) => {
            let x = x.to_uppercase();
            x.chars()
                .all(|c| count(&c.to_string()) >= x.matches(c).count() as u32)
        }
        C::ConsistsOf { letters, percent } => {
            count(&letters.to_uppercase()) * 100 >= *percent as u32 * n
        }
        C::Vowels(r) => r.holds(count("AEIOU")),
        C::Distinct(r) => r.holds(w.bytes().collect::<HashSet<_>>().len() as u32),
        C::Points(r) => {
            let p: i64 = w.bytes().map(|b| VALUES[(b - b'A') as usize]).sum();
            r.holds(p as u32)
        }
        C::Anagrams(r) => r.holds(s.alphagrams[&alphagram(w)]),
        C::FrontHook(l) => match l {
            None => ('A'..='Z').any(|c| is(&format!("{c}{w}"))),
            Some(l) => l.to_uppercase().chars().all(|c| is(&format!("{c}{w}"))),
        },
        C::BackHook(l) => match l {
            None => ('A'..='Z').any(|c| is(&format!("{w}{c}"))),
            Some(l) => l.to_uppercase().chars().all(|c| is(&format!("{w}{c}"))),
        },
        C::IsFrontHook => is(&w[1..]),
        C::IsBackHook => is(&w[..w.len() - 1]),
        C::InnerHooks => is(&w[1..]) || is(&w[..w.len() - 1]),
        C::TakesPrefix(p) => is(&format!("{}{w}", p.to_uppercase())),
        C::TakesSuffix(x) => is(&format!("{w}{}", x.to_uppercase())),
        C::InFile(_) => r.list.as_ref().unwrap().contains(w),
        C::Probability(r) => r.holds(s.ranks[w]),
        C::Any(_) => r.alts.iter().any(|alt| alt.iter().all(|t| holds(t, w))),
        other => panic!("no scan for {other:?}"),
    };
    met != t.negated
}

/// The words of the list meeting every term.
fn scan(terms: &[Term]) -> Vec<String> {
    let ready: Vec<Ready<'_>> = terms.iter().map(ready).collect();
    SCAN.words
        .iter()
        .filter(|w| ready.iter().all(|t| holds(t, w)))
        .cloned()
        .collect()
}

/// A small seeded generator (xorshift), so failures replay.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn word(&mut self) -> &'static str {
        let words = &SCAN.words;
        &words[self.below(words.len())]
    }
    fn word_of(&mut self, min: usize, max: usize) -> &'static str {
        loop {
            let w = self.word();
            if (min..=max).contains(&w.len()) {
                return w;
            }
        }
    }
    fn range(&mut self, lo: u32, hi: u32) -> Range {
        let a = lo + self.below((hi - lo + 1) as usize) as u32;
        match self.below(4) {
            0 => Range::exactly(a),
            1 => Range::at_least(a),
            2 => Range::at_most(a),
            _ => Range::between(a, a + self.below(4) as u32),
        }
    }
    fn letters(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| (b'A' + self.below(26) as u8) as char)
            .collect()
    }
}

/// A random rack from a random word: some letters turned into blanks,
/// sets holding them, or a star.
fn random_rack(rng: &mut Rng, exact: bool) -> String {
    let w = if exact {
        rng.word_of(3, 8)
    } else {
        rng.word_of(4, 9)
    };
    let mut rack = String::new();
    let mut wild = 0;
    for c in w.chars() {
        if wild < 2 && rng.chance(12) {
            rack.push('?');
            wild += 1;
        } else if wild < 2 && rng.chance(10) {
            let mut set = vec![c];
            for _ in 0..1 + rng.below(3) {
                set.push((b'A' + rng.below(26) as u8) as char);
            }
            rack.push('{');
            rack.extend(set);
            rack.push('}');
            wild += 1;
        } else {
            rack.push(c);
        }
    }
    if rng.chance(8) {
        rack.push('*');
    }
    if rng.chance(50) {
        rack = rack.to_lowercase();
    }
    rack
}

/// A random pattern from a random word.
fn random_pattern(rng: &mut Rng) -> String {
    let w = rng.word_of(3, 9);
    let mut p = String::new();
    for c in w.chars() {
        match rng.below(10) {
            0 | 1 => p.push('?'),
            2 => p.push('*'),
            3 => p.push_str(&format!("[{c}{}]", rng.letters(2))),
            _ => p.push(c),
        }
    }
    p
}

const REGEXES: &[&str] = &[
    ".*q[^u].*",
    "[aeiou]{3}.*",
    ".*(ing|ed)",
    "(re|un).*s",
    ".*[jxz].*[jxz].*",
    "c.t",
    ".*(qu|qa).*",
    "[^aeiou]*",
];

/// One random condition (negated sometimes); `lists` holds temp files
/// for `--in`.
fn random_term(rng: &mut Rng, depth: usize, lists: &[std::path::PathBuf]) -> Term {
    let w = rng.word_of(3, 10);
    let cut = |rng: &mut Rng, n: usize| 1 + rng.below(n.min(w.len()));
    let condition = match rng.below(25) {
        0 => C::Contains(w[rng.below(w.len() - 1)..][..2].to_string()),
        1 => C::Starts(w[..cut(rng, 3)].to_string()),
        2 => C::Ends(w[w.len() - cut(rng, 3)..].to_string()),
        3 => C::Pattern(random_pattern(rng)),
        4 => C::Regex(REGEXES[rng.below(REGEXES.len())].to_string()),
        5 => C::Anagram {
            rack: random_rack(rng, true),
            through: None,
        },
        6 => C::Subanagram {
            rack: random_rack(rng, false),
            through: None,
        },
        7 => {
            let through = w[rng.below(w.len() - 1)..][..2].to_string();
            let rack = rng.word_of(2, 6).to_string();
            if rng.chance(50) {
                C::Anagram {
                    rack,
                    through: Some(through),
                }
            } else {
                C::Subanagram {
                    rack: rack + "?",
                    through: Some(through),
                }
            }
        }
        8 | 9 => C::Length(rng.range(2, 10)),
        10 => {
            let k = 1 + rng.below(2);
            let mut l = rng.letters(k);
            if rng.chance(30) {
                l = format!("{l}{l}");
            }
            C::Includes(l)
        }
        11 => C::ConsistsOf {
            letters: ["AEIOU", "AEINRST", "ETAOINSHRDLU", "RSTLNE"][rng.below(4)].to_string(),
            percent: [100, 80, 60, 50, 30][rng.below(5)],
        },
        12 => C::Vowels(rng.range(0, 4)),
        13 => C::Distinct(rng.range(2, 8)),
        14 => C::Points(rng.range(3, 25)),
        15 => C::Anagrams(rng.range(1, 5)),
        16 => C::FrontHook(rng.chance(50).then(|| rng.letters(1))),
        17 => C::BackHook(
            rng.chance(50)
                .then(|| ["S", "D", "Y", "ER", "E"][rng.below(5)].to_string()),
        ),
        18 => [C::IsFrontHook, C::IsBackHook, C::InnerHooks][rng.below(3)].clone(),
        19 => C::TakesPrefix(["RE", "UN", "S", "A", "DE"][rng.below(5)].to_string()),
        20 => C::TakesSuffix(["S", "ED", "ING", "ER", "LY"][rng.below(5)].to_string()),
        21 => C::InFile(lists[rng.below(lists.len())].clone()),
        22 => C::Probability(Range::between(1, 1 + rng.below(3000) as u32)),
        23 if depth == 0 => {
            let alts = (0..2 + rng.below(2))
                .map(|_| {
                    (0..1 + rng.below(2))
                        .map(|_| random_term(rng, depth + 1, lists))
                        .collect()
                })
                .collect();
            C::Any(alts)
        }
        _ => C::Length(rng.range(4, 8)),
    };
    if rng.chance(25) {
        Term::not(condition)
    } else {
        Term::is(condition)
    }
}

fn check(terms: &[Term]) -> Result<usize, String> {
    let mut q = Query::new();
    for t in terms {
        q.push(t.clone());
    }
    let want = scan(terms);
    let got = match LEX.find(&q) {
        Ok(words) => words.to_strings(),
        // Lengths that exclude each other are an error: the scan must
        // find nothing, and the lengths (read here) must not meet.
        Err(lexq::Error::Find(f)) if matches!(f.kind, FindErrorKind::Lengths { .. }) => {
            let (lo, hi) = terms
                .iter()
                .filter(|t| !t.negated)
                .filter_map(|t| match t.condition {
                    C::Length(r) => Some(r),
                    _ => None,
                })
                .fold((0, u32::MAX), |(lo, hi), r| (lo.max(r.min), hi.min(r.max)));
            if lo <= hi || !want.is_empty() {
                return Err(format!(
                    "{}: {f}, but lengths {lo}-{hi} meet",
                    describe(terms)
                ));
            }
            return Ok(0);
        }
        Err(e) => return Err(format!("{}: {e}", describe(terms))),
    };
    // The stream gives the same words, each once, in the walk's order.
    let mut streamed = Vec::new();
    let prepared = LEX.prepare_find(&q).map_err(|e| e.to_string())?;
    let flow = prepared.for_each(|w| {
        streamed.push(w.to_string());
        std::ops::ControlFlow::Continue(())
    });
    assert!(flow.is_continue());
    let given = streamed.len();
    streamed.sort();
    streamed.dedup();
    if given != streamed.len() {
        return Err(format!(
            "{}: the stream gave {given} words, {} distinct",
            describe(terms),
            streamed.len()
        ));
    }
    if streamed != want {
        return Err(format!(
            "{}: the stream gave {} words, the scan {}",
            describe(terms),
            streamed.len(),
            want.len()
        ));
    }
    if got != want {
        let g: HashSet<_> = got.iter().collect();
        let w: HashSet<_> = want.iter().collect();
        let extra: Vec<_> = g.difference(&w).take(5).collect();
        let missing: Vec<_> = w.difference(&g).take(5).collect();
        return Err(format!(
            "{}: lexq {} words, scan {}; lexq only {extra:?}; scan only {missing:?}\n{}",
            describe(terms),
            got.len(),
            want.len(),
            LEX.prepare_find(&q).unwrap().explain()
        ));
    }
    Ok(want.len())
}

fn describe(terms: &[Term]) -> String {
    let parts: Vec<String> = terms.iter().map(|t| t.to_string()).collect();
    format!("lexq find {}", parts.join(" "))
}

/// Temporary word lists for `--in`: a sample of ENABLE words and some
/// that are not words.
fn lists(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut rng = Rng(0x5eed_1157);
    (0..3)
        .map(|k| {
            let mut text = String::new();
            for _ in 0..(200 << (3 * k)) {
                text.push_str(&rng.word().to_lowercase());
                text.push('\n');
            }
            text.push_str("notaword\nqqq\n");
            let path = dir.join(format!("list{k}.txt"));
            std::fs::write(&path, text).unwrap();
            path
        })
        .collect()
}

#[test]
fn random_combined_queries_match_the_scan() {
    let dir = tempfile::tempdir().unwrap();
    let lists = lists(dir.path());
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let (mut found, mut empty) = (0, 0);
    let mut failures = Vec::new();
    for _ in 0..300 {
        let n = 1 + rng.below(4);
        let mut terms: Vec<Term> = (0..n).map(|_| random_term(&mut rng, 0, &lists)).collect();
        // Most queries keep a walking condition, so the answers stay short.
        if rng.chance(70) {
            let w = rng.word_of(3, 9);
            terms.push(Term::is(match rng.below(3) {
                0 => C::Starts(w[..2].to_string()),
                1 => C::Ends(w[w.len() - 2..].to_string()),
                _ => C::Contains(w[1..3].to_string()),
            }));
        }
        match check(&terms) {
            Ok(0) => empty += 1,
            Ok(_) => found += 1,
            Err(e) => failures.push(e),
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n\n")
    );
    // The generator must make queries that find something.
    assert!(
        found > 100,
        "only {found} of 300 queries found words ({empty} none)"
    );
}

/// Racks with one or two blanks that drive the query: the anagram walk on
/// the lexicon as the CLI opens it, the look-up by alphagram on one a
/// server prepares; the other conditions tested at each word.
#[test]
fn blank_racks_walked_and_looked_up() {
    let prepared = Lexicon::embedded();
    prepared.prepare_walks();
    let is = Term::is;
    let rack = |r: &str| C::Anagram {
        rack: r.into(),
        through: None,
    };
    let queries: Vec<Vec<Term>> = vec![
        vec![is(rack("aeinrst?")), is(C::Vowels(Range::exactly(3)))],
        vec![is(rack("??aeinr")), Term::not(C::Contains("s".into()))],
        vec![is(rack("??aeinr")), is(C::Points(Range::at_least(12)))],
        vec![is(rack("qi??")), is(C::Length(Range::exactly(4)))],
        vec![is(rack("?")), is(C::Length(Range::exactly(1)))],
        vec![
            is(rack("e??")),
            is(C::Points(Range::at_most(4))),
            Term::not(C::Anagram {
                rack: "e?e".into(),
                through: None,
            }),
        ],
    ];
    let mut found = 0;
    for terms in &queries {
        let mut q = Query::new();
        for t in terms {
            q.push(t.clone());
        }
        let want = scan(terms);
        for lex in [&*LEX, &prepared] {
            let plan = lex.prepare_find(&q).unwrap().explain();
            assert!(plan.contains("exactly the rack's tiles"), "{plan}");
            let got = lex.find(&q).unwrap().to_strings();
            assert_eq!(got, want, "{}\n{plan}", describe(terms));
        }
        found += want.len();
    }
    assert!(found > 150, "only {found} words in all");
}

#[test]
fn zyzzyva_examples() {
    let f = |terms: Vec<Term>| {
        let mut q = Query::new();
        for t in terms {
            q.push(t);
        }
        LEX.find(&q).unwrap().to_strings()
    };
    let is = Term::is;
    let rack = |r: &str| C::Anagram {
        rack: r.into(),
        through: None,
    };
    assert_eq!(
        f(vec![is(rack("ate"))]),
        ["ATE", "EAT", "ETA", "TAE", "TEA"]
    );
    assert_eq!(
        f(vec![is(rack("Z{AEIOU}{AEIOU}"))]),
        ["AZO", "ZEE", "ZOA", "ZOO"]
    );
    let sub = |r: &str| C::Subanagram {
        rack: r.into(),
        through: None,
    };
    assert_eq!(
        f(vec![is(sub("LX{AU}"))]),
        ["AL", "AX", "LA", "LAX", "LUX", "XU"]
    );
    assert_eq!(
        f(vec![
            is(C::Pattern("over*".into())),
            is(C::Length(Range::between(7, 8))),
            is(C::Includes("ALT".into())),
        ]),
        ["OVERLATE", "OVERSALT", "OVERTALK"]
    );
    // The two examples.
    assert_eq!(
        f(vec![
            is(C::Length(Range::exactly(7))),
            is(C::Includes("Q".into())),
            Term::not(C::Includes("U".into())),
        ]),
        scan(&[
            is(C::Length(Range::exactly(7))),
            is(C::Regex(".*q.*".into())),
            Term::not(C::Regex(".*u.*".into())),
        ])
    );
}

#[test]
fn every_condition_alone_and_negated() {
    let dir = tempfile::tempdir().unwrap();
    let lists = lists(dir.path());
    let conditions = vec![
        C::Pattern("*q?".into()),
        C::Regex("[jxz].{2}".into()),
        C::Contains("zz".into()),
        C::Starts("xy".into()),
        C::Ends("ique".into()),
        C::Anagram {
            rack: "s?{ae}t".into(),
            through: None,
        },
        C::Subanagram {
            rack: "qi{nr}s".into(),
            through: Some("at".into()),
        },
        C::Length(Range::exactly(2)),
        C::Includes("jj".into()),
        C::ConsistsOf {
            letters: "aeiou".into(),
            percent: 75,
        },
        C::Vowels(Range::at_least(8)),
        C::Distinct(Range::exactly(1)),
        C::Points(Range::at_least(36)),
        C::Anagrams(Range::at_least(10)),
        C::FrontHook(Some("Z".into())),
        C::BackHook(Some("XY".into())),
        C::TakesPrefix("zo".into()),
        C::TakesSuffix("ical".into()),
        C::InFile(lists[0].clone()),
        C::Probability(Range::exactly(1)),
    ];
    for c in conditions {
        let n = check(&[Term::is(c.clone())]).unwrap();
        assert!(n > 0 && n < 3000, "{c:?} found {n} words");
        // Negated, with a walking condition to keep the answer small.
        let anchor = Term::is(C::Starts("zo".into()));
        check(&[anchor, Term::not(c)]).unwrap();
    }
    for c in [
        C::IsFrontHook,
        C::IsBackHook,
        C::InnerHooks,
        C::FrontHook(None),
        C::BackHook(None),
    ] {
        for negated in [false, true] {
            let t = Term {
                negated,
                condition: c.clone(),
            };
            check(&[t, Term::is(C::Ends("yx".into()))]).unwrap();
            let t = Term {
                negated,
                condition: c.clone(),
            };
            check(&[t, Term::is(C::Length(Range::exactly(3)))]).unwrap();
        }
    }
}

/// A substring in most words (`--contains e`) is walked forwards, every
/// word from its first letter, as `lexq contains` walks it; with a second
/// condition that prunes the walk, a length, and negated: against the
/// scan, and the walk read from `--explain`.
#[test]
fn common_substrings_walked_forwards() {
    let explain = |sub: &str| {
        let mut q = Query::new();
        q.push(Term::is(C::Contains(sub.into())));
        LEX.prepare_find(&q).unwrap().explain()
    };
    for sub in ["e", "s", "a"] {
        let explained = explain(sub);
        assert!(
            explained.contains("every word from its first letter"),
            "{sub}: {explained}"
        );
        for second in [
            Term::is(C::Vowels(Range::at_most(2))),
            Term::is(C::Length(Range::exactly(7))),
            Term::not(C::Contains("a".into())),
            Term::is(C::Ends("ing".into())),
        ] {
            check(&[Term::is(C::Contains(sub.into())), second]).unwrap();
        }
    }
    // A rare one is looked up.
    let explained = explain("qu");
    assert!(
        explained.contains("from QU read right to left"),
        "{explained}"
    );
}

/// A stream stopped by its callback gives no word after it and ends the
/// walk; the words it gave are words of the scan, each once.
#[test]
fn a_stream_stops_when_told() {
    let cases = [
        vec![Term::is(C::Contains("e".into()))],
        vec![Term::is(C::Starts("re".into()))],
        vec![Term::is(C::Length(Range::exactly(5)))],
        vec![Term::is(C::Pattern("*e*e*".into()))],
    ];
    for terms in cases {
        let mut q = Query::new();
        for t in &terms {
            q.push(t.clone());
        }
        let want: HashSet<String> = scan(&terms).into_iter().collect();
        assert!(want.len() > 100, "{}", describe(&terms));
        let prepared = LEX.prepare_find(&q).unwrap();
        let mut got = Vec::new();
        let mut after = 0;
        let flow = prepared.for_each(|w| {
            if got.len() == 40 {
                after += 1;
            }
            got.push(w.to_string());
            if got.len() >= 40 {
                std::ops::ControlFlow::Break(())
            } else {
                std::ops::ControlFlow::Continue(())
            }
        });
        assert!(flow.is_break(), "{}", describe(&terms));
        assert_eq!((got.len(), after), (40, 0), "{}", describe(&terms));
        let distinct: HashSet<&String> = got.iter().collect();
        assert_eq!(distinct.len(), 40, "{}: {got:?}", describe(&terms));
        assert!(got.iter().all(|w| want.contains(w)), "{}", describe(&terms));
    }
}

/// A stream within a budget ends with the budget's reason, the words it
/// gave being words of the scan.
#[test]
fn a_stream_within_a_budget_halts() {
    use lexq::find::Halt;
    let terms = vec![Term::is(C::Vowels(Range::exactly(3)))];
    let mut q = Query::new();
    q.push(terms[0].clone());
    let want: HashSet<String> = scan(&terms).into_iter().collect();
    let prepared = LEX.prepare_find(&q).unwrap();
    let mut got = Vec::new();
    let r = prepared.for_each_within(&Budget::steps(20_000), |w| {
        got.push(w.to_string());
        std::ops::ControlFlow::Continue(())
    });
    assert_eq!(r, Err(Halt::Steps { max: 20_000 }));
    assert!(!got.is_empty() && got.len() < want.len(), "{}", got.len());
    assert!(got.iter().all(|w| want.contains(w)));
    let all = prepared.for_each_within(&Budget::steps(u64::MAX), |_| {
        std::ops::ControlFlow::Continue(())
    });
    assert_eq!(all, Ok(std::ops::ControlFlow::Continue(())));
}

/// A regex condition is planned by cost as `lexq regex` plans it, and
/// walked so (a union of branches, a run of classes too), and `--explain`
/// says which plan and why; the words are the scan's whichever plan runs.
#[test]
fn regexes_planned_by_cost() {
    for (re, walk, why) in [
        // Every literal common: every word from its first letter.
        (
            ".*e.*",
            "every word from its first letter while the automaton allows",
            "every literal common",
        ),
        // A selective literal: anchored on it.
        (
            ".*q[^u].*",
            "from Q read right to left",
            "a selective literal",
        ),
        // A class split into branches: a walk from each.
        (
            ".*[xz].*",
            "2 walks in turn: (1) from X read right to left",
            "a selective literal",
        ),
        (
            ".*[aeiou]{4}.*",
            "from each run of letters [AEIOU][AEIOU][AEIOU][AEIOU]",
            "a rare run of classes",
        ),
    ] {
        let mut q = Query::new();
        q.push(Term::is(C::Regex(re.into())));
        q.push(Term::is(C::Length(Range::between(2, 9))));
        let prepared = LEX.prepare_find(&q).unwrap();
        let plan = prepared.explain();
        assert!(plan.contains(walk), "{re}: {plan}");
        assert!(plan.contains(why), "{re}: {plan}");
        let terms = [
            Term::is(C::Regex(re.into())),
            Term::is(C::Length(Range::between(2, 9))),
        ];
        assert_eq!(LEX.find(&q).unwrap().to_strings(), scan(&terms), "{re}");
    }
}

/// Every kind of plan a regex command walks, walked by find with a second
/// condition: one that bounds the walk at each step (vowels, points,
/// distinct letters at most: letters counted), one that bars letters
/// outright (`--not-includes A`), the length alone (the commands' walk
/// itself), a hook tested at each word. Each against the scan, through
/// `find` and through the stream.
#[test]
fn every_plan_kind_walked_with_a_second_condition() {
    let seconds = [
        Term::is(C::Vowels(Range::at_most(3))),
        Term::is(C::Points(Range::at_most(14))),
        Term::is(C::Distinct(Range::at_most(6))),
        Term::not(C::Includes("a".into())),
        Term::is(C::Length(Range::exactly(8))),
        Term::is(C::FrontHook(None)),
    ];
    let mut found = 0;
    let mut failed = Vec::new();
    for (re, walk) in [
        // A union of branches.
        (".*[xz].*", "2 walks in turn"),
        ("(qu|x)iz+", "2 walks in turn"),
        (".*(ing|ed|er)", "walks in turn"),
        // A run of classes.
        (".*[aeiou]{4}.*", "from each run of letters"),
        (".*[^aeiouy]{5}.*", "from each run of letters"),
        // Forwards, every word below a universal state.
        (".*e.*", "below a universal state"),
        (".*a.*e.*", "below a universal state"),
        // Forwards, backwards, anchored.
        ("[^aeiou]*", "every word from its first letter while"),
        (".*[aeiou]", "from its last letter"),
        (".*q[^u].*", "from Q read right to left"),
        ("re.*ing", "from RE read right to left"),
    ] {
        for second in &seconds {
            let terms = [Term::is(C::Regex(re.into())), second.clone()];
            let mut q = Query::new();
            for t in &terms {
                q.push(t.clone());
            }
            let plan = LEX.prepare_find(&q).unwrap().explain();
            if !plan.contains(walk) {
                failed.push(format!("{re} {second}: not walked so: {plan}"));
            }
            match check(&terms) {
                Ok(n) => found += (n > 0) as usize,
                Err(e) => failed.push(e),
            }
        }
    }
    // Every failure at once: each way the walk can go wrong shows.
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    // Most pairs find words: the test compares real answers.
    assert!(found >= 55, "{found}");
}

/// Length conditions that exclude each other are a typed error naming
/// them (the front ends word it their way), not an empty answer; negated
/// ones and ones inside an alternative are conditions like others.
#[test]
fn lengths_that_exclude_each_other_are_an_error() {
    let q = Query::new()
        .with(C::Length(Range::at_most(3)))
        .with(C::Ends("s".into()))
        .with(C::Length(Range::exactly(7)))
        .with(C::Length(Range::at_least(5)));
    let Err(lexq::Error::Find(f)) = LEX.prepare_find(&q) else {
        panic!("not a find error");
    };
    match f.kind {
        FindErrorKind::Lengths {
            longest_min,
            shortest_max,
        } => assert_eq!((longest_min, shortest_max), ((2, 7), (0, 3))),
        ref k => panic!("{k:?}"),
    }
    assert_eq!(
        f.to_string(),
        "--len -3, --len 7, --len 5- exclude each other: no word has all these lengths"
    );
    // Lengths that meet, or one negated: words.
    for q in [
        Query::new()
            .with(C::Length(Range::at_most(7)))
            .with(C::Length(Range::at_least(7)))
            .with(C::Starts("qu".into())),
        Query::new()
            .with(C::Length(Range::at_most(3)))
            .without(C::Length(Range::at_least(5)))
            .with(C::Starts("qu".into())),
    ] {
        assert!(!LEX.find(&q).unwrap().is_empty());
    }
}

/// The least step budget within which `q` runs to its end (the steps
/// its walk takes), found by halving.
fn steps(q: &Query) -> u64 {
    let p = LEX.prepare_find(q).unwrap();
    let (mut lo, mut hi) = (0u64, 1u64 << 26);
    assert!(p.run_within(&Budget::steps(hi)).is_ok());
    while lo + 1 < hi {
        let mid = lo + (hi - lo) / 2;
        if p.run_within(&Budget::steps(mid)).is_ok() {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// A condition that counts letters prunes inside the walk of each plan
/// kind (not only at its words): the walk below a universal state, from
/// each run of classes, of each branch of a union takes far fewer steps
/// with `--vowels` bounding it than the plan alone.
#[test]
fn counted_conditions_prune_inside_every_plan_kind() {
    for (re, vowels) in [
        (".*e.*", 1),
        (".*a.*e.*", 2),
        (".*[aeiou]{4}.*", 3),
        (".*[xz].*", 1),
        (".*(ing|ed|er)", 1),
    ] {
        let alone = Query::new().with(C::Regex(re.into()));
        let bounded = Query::new()
            .with(C::Regex(re.into()))
            .with(C::Vowels(Range::at_most(vowels)));
        let (a, b) = (steps(&alone), steps(&bounded));
        assert!(b * 3 < a, "{re} --vowels -{vowels}: {b} steps, alone {a}");
    }
}
