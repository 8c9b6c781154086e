//! `/api/v1/find` and `/api/v1/suggest` over ENABLE: answers checked
//! against a plain scan of the word list (this file's own reading of
//! `indexes/enable1.txt`, apart from the library), and hostile requests
//! (files named, huge values, many conditions, every condition at once,
//! walks that would run long) answered 400, 429 or 503, never 500.

mod common;
#[path = "../../tests/common/osa.rs"]
mod osa;

use std::collections::{BTreeMap, HashSet};
use std::io::{Read, Write};
use std::net::SocketAddr;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use common::*;
use lexq::Lexicon;
use lexq_site::serve::{AppState, Limits, Server};
use serde_json::Value;

/// ENABLE, uppercase, as the file lists it.
fn enable() -> &'static Vec<String> {
    static W: OnceLock<Vec<String>> = OnceLock::new();
    W.get_or_init(|| {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../indexes/enable1.txt");
        let mut w: Vec<String> = std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .map(|l| l.trim().to_uppercase())
            .filter(|l| !l.is_empty())
            .collect();
        w.sort();
        w
    })
}

fn set() -> &'static HashSet<String> {
    static S: OnceLock<HashSet<String>> = OnceLock::new();
    S.get_or_init(|| enable().iter().cloned().collect())
}

fn is_word(w: &str) -> bool {
    set().contains(w)
}

fn server(limits: Limits) -> Server {
    let state = AppState::new(Lexicon::embedded(), None, limits, false);
    Server::start("127.0.0.1:0", state).unwrap()
}

/// One server with the default limits for the tests that only read.
fn shared() -> SocketAddr {
    static S: OnceLock<Server> = OnceLock::new();
    S.get_or_init(|| {
        server(Limits {
            max_client_heavy: 64,
            ..Limits::default()
        })
    })
    .addr()
}

/// Percent-encodes a query value.
fn enc(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `name=value` pairs as a query string.
fn qs(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", enc(k), enc(v)))
        .collect::<Vec<_>>()
        .join("&")
}

fn words_of(v: &Value) -> Vec<String> {
    v["words"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["word"].as_str().unwrap().to_string())
        .collect()
}

/// Every word `find` lists for `pairs` (pages of 1000).
fn find_all(a: SocketAddr, pairs: &[(&str, &str)]) -> (Value, Vec<String>) {
    let mut all = Vec::new();
    let mut first = None;
    loop {
        let path = format!("/api/v1/find?{}&limit=1000&offset={}", qs(pairs), all.len());
        let (s, v) = get(a, &path);
        assert_eq!(s, 200, "{path}: {v}");
        let page = words_of(&v);
        let total = v["total"].as_u64().unwrap() as usize;
        all.extend(page.iter().cloned());
        first.get_or_insert(v);
        if page.is_empty() || all.len() >= total {
            break;
        }
    }
    (first.unwrap(), all)
}

fn value(c: char) -> u32 {
    match c {
        'A' | 'E' | 'I' | 'O' | 'U' | 'L' | 'N' | 'S' | 'T' | 'R' => 1,
        'D' | 'G' => 2,
        'B' | 'C' | 'M' | 'P' => 3,
        'F' | 'H' | 'V' | 'W' | 'Y' => 4,
        'K' => 5,
        'J' | 'X' => 8,
        _ => 10,
    }
}

fn vowels(w: &str) -> usize {
    w.chars().filter(|c| "AEIOU".contains(*c)).count()
}

fn sorted(w: &str) -> String {
    let mut c: Vec<char> = w.chars().collect();
    c.sort_unstable();
    c.into_iter().collect()
}

/// Whether `w` uses exactly the tiles of `rack` (`?` a blank).
fn anagram_of(w: &str, rack: &str) -> bool {
    if w.len() != rack.len() {
        return false;
    }
    let mut left: Vec<char> = rack.chars().filter(|&c| c != '?').collect();
    let mut blanks = rack.chars().filter(|&c| c == '?').count();
    for c in w.chars() {
        if let Some(i) = left.iter().position(|&x| x == c) {
            left.swap_remove(i);
        } else if blanks > 0 {
            blanks -= 1;
        } else {
            return false;
        }
    }
    true
}

fn front_hooked(w: &str) -> bool {
    ('A'..='Z').any(|c| is_word(&format!("{c}{w}")))
}

fn back_hooked(w: &str) -> bool {
    ('A'..='Z').any(|c| is_word(&format!("{w}{c}")))
}

type Oracle = Box<dyn Fn(&str) -> bool>;

#[test]
fn find_answers_are_a_plain_scan() {
    let a = shared();
    let anagram_counts: BTreeMap<String, usize> =
        enable().iter().fold(BTreeMap::new(), |mut m, w| {
            *m.entry(sorted(w)).or_insert(0) += 1;
            m
        });
    let cases: Vec<(Vec<(&str, &str)>, Oracle)> = vec![
        (
            vec![("len", "7"), ("includes", "q"), ("not-includes", "u")],
            Box::new(|w| w.len() == 7 && w.contains('Q') && !w.contains('U')),
        ),
        (
            vec![("ends", "ing"), ("len", "7"), ("front-hook", "")],
            Box::new(|w| w.len() == 7 && w.ends_with("ING") && front_hooked(w)),
        ),
        (
            vec![
                ("any", "--starts RE --or --starts UN"),
                ("ends", "ing"),
                ("len", "8"),
            ],
            Box::new(|w| {
                w.len() == 8 && w.ends_with("ING") && (w.starts_with("RE") || w.starts_with("UN"))
            }),
        ),
        (
            vec![("pattern", "c?t*"), ("vowels", "2")],
            Box::new(|w| w.len() >= 3 && w.starts_with('C') && &w[2..3] == "T" && vowels(w) == 2),
        ),
        (
            vec![("anagram", "aeinrst?")],
            Box::new(|w| anagram_of(w, "AEINRST?")),
        ),
        (
            vec![("contains", "qu"), ("not-back-hook", ""), ("max-len", "6")],
            Box::new(|w| w.len() <= 6 && w.contains("QU") && !back_hooked(w)),
        ),
        (
            vec![("regex", ".*(qu|qa).*"), ("len", "5")],
            Box::new(|w| w.len() == 5 && (w.contains("QU") || w.contains("QA"))),
        ),
        (
            vec![("inner-hooks", ""), ("len", "4"), ("consists", "AEIOUS:75")],
            Box::new(|w| {
                w.len() == 4
                    && (is_word(&w[1..]) || is_word(&w[..3]))
                    && w.chars().filter(|c| "AEIOUS".contains(*c)).count() * 100 >= 75 * 4
            }),
        ),
        (
            vec![("is-front-hook", "true"), ("starts", "a"), ("len", "5")],
            Box::new(|w| w.len() == 5 && w.starts_with('A') && is_word(&w[1..])),
        ),
        (
            vec![("is-back-hook", ""), ("takes-prefix", "re"), ("len", "5")],
            Box::new(|w| w.len() == 5 && is_word(&w[..4]) && is_word(&format!("RE{w}"))),
        ),
        (
            vec![("takes-suffix", "er"), ("starts", "sl"), ("len", "4")],
            Box::new(|w| w.len() == 4 && w.starts_with("SL") && is_word(&format!("{w}ER"))),
        ),
        (
            vec![("distinct", "7"), ("len", "7"), ("includes", "z")],
            Box::new(|w| {
                w.len() == 7 && w.contains('Z') && w.chars().collect::<HashSet<_>>().len() == 7
            }),
        ),
        (
            vec![("points", "25-"), ("len", "5"), ("not-length", "6")],
            Box::new(|w| w.len() == 5 && w.chars().map(value).sum::<u32>() >= 25),
        ),
        (
            vec![("anagrams", "5-"), ("len", "5"), ("starts", "s")],
            Box::new(move |w| {
                w.len() == 5 && w.starts_with('S') && anagram_counts[&sorted(w)] >= 5
            }),
        ),
        (
            vec![("subanagram", "xyz?"), ("min-len", "3")],
            Box::new(|w| {
                w.len() >= 3 && {
                    let mut left: Vec<char> = "XYZ".chars().collect();
                    let mut blanks = 1;
                    w.len() <= 4
                        && w.chars().all(|c| {
                            if let Some(i) = left.iter().position(|&x| x == c) {
                                left.swap_remove(i);
                                true
                            } else if blanks > 0 {
                                blanks -= 1;
                                true
                            } else {
                                false
                            }
                        })
                }
            }),
        ),
        (
            vec![("anagram", "ret"), ("through", "ain")],
            Box::new(|w| {
                w.len() == 6 && w.contains("AIN") && anagram_of(&w.replacen("AIN", "", 1), "RET")
                    || w.len() == 6
                        && w.match_indices("AIN")
                            .any(|(i, _)| anagram_of(&format!("{}{}", &w[..i], &w[i + 3..]), "RET"))
            }),
        ),
    ];
    for (pairs, oracle) in cases {
        let expected: Vec<String> = enable().iter().filter(|w| oracle(w)).cloned().collect();
        assert!(!expected.is_empty(), "{pairs:?}: the oracle lists nothing");
        let (first, got) = find_all(a, &pairs);
        assert_eq!(got, expected, "{pairs:?}");
        assert_eq!(first["total"], expected.len(), "{pairs:?}");
        let mut lengths: BTreeMap<String, usize> = BTreeMap::new();
        for w in &expected {
            *lengths.entry(w.len().to_string()).or_insert(0) += 1;
        }
        assert_eq!(
            first["lengths"],
            serde_json::to_value(&lengths).unwrap(),
            "{pairs:?}"
        );
        // Points as the English tiles count them.
        for w in first["words"].as_array().unwrap() {
            let word = w["word"].as_str().unwrap();
            assert_eq!(w["points"], word.chars().map(value).sum::<u32>(), "{word}");
        }
    }
}

#[test]
fn pages_sorts_tables_and_plans() {
    let a = shared();
    let q = qs(&[("ends", "ing"), ("len", "6")]);
    let all: Vec<String> = enable()
        .iter()
        .filter(|w| w.len() == 6 && w.ends_with("ING"))
        .cloned()
        .collect();
    let (s, v) = get(a, &format!("/api/v1/find?{q}&offset=5&limit=3"));
    assert_eq!(s, 200, "{v}");
    assert_eq!(words_of(&v), all[5..8].to_vec());
    assert_eq!(v["total"], all.len());
    // Most points first, then in alphabet order.
    let (_, v) = get(a, &format!("/api/v1/find?{q}&sort=points&limit=1000"));
    let mut by_points = all.clone();
    by_points.sort_by(|x, y| {
        let p = |w: &str| w.chars().map(value).sum::<u32>();
        p(y).cmp(&p(x)).then_with(|| x.cmp(y))
    });
    assert_eq!(words_of(&v), by_points);
    // Probability order: ranks never decrease; the table's fields.
    let (s, v) = get(
        a,
        &format!("/api/v1/find?{q}&sort=probability&table=true&limit=1000"),
    );
    assert_eq!(s, 200, "{v}");
    let rows = v["words"].as_array().unwrap();
    assert_eq!(rows.len(), all.len());
    let ranks: Vec<u64> = rows.iter().map(|r| r["rank"].as_u64().unwrap()).collect();
    assert!(ranks.windows(2).all(|p| p[0] <= p[1]), "{ranks:?}");
    for r in rows {
        let w = r["word"].as_str().unwrap();
        let front: String = ('A'..='Z')
            .filter(|c| is_word(&format!("{c}{w}")))
            .collect();
        let back: String = ('A'..='Z')
            .filter(|c| is_word(&format!("{w}{c}")))
            .collect();
        assert_eq!(r["front_hooks"], front, "{w}");
        assert_eq!(r["back_hooks"], back, "{w}");
        assert_eq!(r["inner_front"], is_word(&w[1..]), "{w}");
        assert_eq!(r["inner_back"], is_word(&w[..5]), "{w}");
        assert!(r["probability"].as_f64().unwrap() > 0.0, "{w}");
    }
    // The probability condition agrees with the ranks the table shows.
    let top: Vec<&str> = rows
        .iter()
        .filter(|r| r["rank"].as_u64().unwrap() <= 300)
        .map(|r| r["word"].as_str().unwrap())
        .collect();
    let (_, v) = get(a, &format!("/api/v1/find?{q}&probability=1-300&limit=1000"));
    let mut top_sorted = top.clone();
    top_sorted.sort_unstable();
    assert_eq!(words_of(&v), top_sorted);
    // The plan, as `lexq find --explain` prints it.
    let (_, v) = get(a, &format!("/api/v1/find?{q}&explain="));
    let plan = v["plan"].as_str().unwrap();
    assert!(plan.contains("ING") || plan.contains("ing"), "{plan}");
    assert_eq!(v["conditions"][0], "--ends ing");
}

#[test]
fn suggest_answers_are_a_plain_scan() {
    let a = shared();
    for (word, distance) in [("qiuck", 2), ("helo", 1), ("xylophne", 2), ("zzzzzz", 2)] {
        let q = word.to_uppercase();
        let mut expected: Vec<(usize, String)> = enable()
            .iter()
            .filter(|w| w.len().abs_diff(q.len()) <= distance)
            .map(|w| (osa::distance(q.as_bytes(), w.as_bytes()), w.clone()))
            .filter(|(d, _)| *d >= 1 && *d <= distance)
            .collect();
        expected.sort();
        let (s, v) = get(
            a,
            &format!("/api/v1/suggest/{word}?distance={distance}&limit=1000"),
        );
        assert_eq!(s, 200, "{word}: {v}");
        assert_eq!(v["total"], expected.len(), "{word}");
        let got: Vec<(u64, String)> = v["suggestions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| {
                (
                    n["distance"].as_u64().unwrap(),
                    n["word"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        // Nearest first.
        assert!(got.windows(2).all(|p| p[0].0 <= p[1].0), "{word}: {got:?}");
        let mut got_sorted: Vec<(usize, String)> =
            got.into_iter().map(|(d, w)| (d as usize, w)).collect();
        got_sorted.sort();
        assert_eq!(got_sorted, expected, "{word}");
    }
    // The limit caps the list, not the total.
    let (_, v) = get(a, "/api/v1/suggest/qiuck?limit=2");
    assert_eq!(v["suggestions"].as_array().unwrap().len(), 2);
    assert!(v["total"].as_u64().unwrap() > 2);
    assert_eq!(v["suggestions"][0]["word"], "QUICK");
}

fn assert_refused(a: SocketAddr, path: &str, status: u16, says: &str) {
    let (s, v) = get(a, path);
    assert_eq!(s, status, "{path}: {v}");
    let msg = v["error"].as_str().unwrap();
    assert!(msg.contains(says), "{path}: {msg:?} does not say {says:?}");
}

#[test]
fn hostile_finds_are_refused_with_the_reason() {
    let a = shared();
    let long = "e".repeat(101);
    let passwd = enc("/etc/passwd");
    for (path, says) in [
        (format!("/api/v1/find?in={passwd}"), "may not name a file"),
        (format!("/api/v1/find?len=3&not-in={passwd}"), "may not name a file"),
        (
            format!("/api/v1/find?any={}", enc(&format!("--in {} --or --len 3", "/etc/passwd"))),
            "may not name a file",
        ),
        (format!("/api/v1/find?len=3&tiles={passwd}"), "may not name a file"),
        ("/api/v1/find".into(), "no condition"),
        ("/api/v1/find?limit=10".into(), "no condition"),
        (format!("/api/v1/find?contains={long}"), "at most 100"),
        ("/api/v1/find?bogus=1".into(), "not a condition"),
        ("/api/v1/find?len=abc".into(), "not a number"),
        ("/api/v1/find?length=9-3".into(), "empty range"),
        // Lengths that exclude each other, as `lexq find --min-len 9
        // --max-len 3` says (they were an empty answer, 200).
        ("/api/v1/find?min-len=9&max-len=3".into(), "min-len=9 and max-len=3 exclude"),
        ("/api/v1/find?len=3&len=4".into(), "len=4 and len=3 exclude"),
        ("/api/v1/find?max-len=3&ends=s&len=7".into(), "len=7 and max-len=3 exclude"),
        ("/api/v1/find?len=3&limit=100000".into(), "limit"),
        ("/api/v1/find?len=3&sort=random".into(), "sort"),
        ("/api/v1/find?len=3&through=ain".into(), "through"),
        ("/api/v1/find?regex=%28".into(), "regex"),
        ("/api/v1/find?contains=".into(), "needs a value"),
        ("/api/v1/find?contains=%00".into(), "not a letter"),
        ("/api/v1/find?inner-hooks=maybe".into(), "true or false"),
        (format!("/api/v1/find?any={}", enc("--ends ING --or")), "no condition"),
        (format!("/api/v1/find?any={}", enc("--ends 'ING")), "not closed"),
        ("/api/v1/find?anagram=%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F%3F".into(), "tiles"),
    ] {
        assert_refused(a, &path, 400, says);
    }
    // Nested alternatives, deeper than allowed.
    let mut any = "--len 3".to_string();
    for _ in 0..10 {
        any = format!("--any {}", shell_quote(&any));
    }
    let (s, v) = get(a, &format!("/api/v1/find?any={}", enc(&any)));
    assert_eq!(s, 400, "{v}");
    // Many automata to compile.
    let regexes: Vec<(&str, &str)> = (0..5).map(|_| ("regex", "(a|b|c)*.*")).collect();
    assert_refused(
        a,
        &format!("/api/v1/find?{}", qs(&regexes)),
        400,
        "at most 4",
    );
    let any = "--regex a.* --or --regex b.* --or --pattern c* --or --pattern d* --or --regex e.*";
    assert_refused(
        a,
        &format!("/api/v1/find?any={}", enc(any)),
        400,
        "at most 4",
    );
    // Many conditions.
    let many: Vec<(&str, &str)> = (0..40).map(|_| ("not-includes", "q")).collect();
    assert_refused(a, &format!("/api/v1/find?{}", qs(&many)), 400, "parameters");
    // A huge query string (120 KB, over the 32 KiB a request head may
    // take) is refused before any handler: a 4xx, or the connection
    // closed (the server stops reading at its cap, and the reset of the
    // unread rest may beat the answer to the client).
    let huge = format!("/api/v1/find?{}", "len=3&".repeat(20_000));
    let mut c = std::net::TcpStream::connect(a).unwrap();
    let _ = write!(
        c,
        "GET {huge} HTTP/1.1\r\nHost: {a}\r\nConnection: close\r\n\r\n"
    );
    let mut raw = Vec::new();
    let _ = c.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw);
    let status: Option<u16> = text.split(' ').nth(1).and_then(|s| s.parse().ok());
    assert!(
        raw.is_empty() || status.is_some_and(|s| (400..500).contains(&s)),
        "{}",
        &text[..text.len().min(200)]
    );
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', ""))
}

#[test]
fn every_condition_at_once_is_answered() {
    let a = shared();
    let pairs = [
        ("pattern", "*e*"),
        ("regex", ".*[aeiou].*"),
        ("contains", "e"),
        ("starts", "r"),
        ("ends", "s"),
        ("subanagram", "rest??*"),
        ("length", "4-6"),
        ("includes", "es"),
        ("consists", "aerst:60"),
        ("vowels", "1-3"),
        ("distinct", "3-"),
        ("points", "-12"),
        ("anagrams", "1-"),
        ("front-hook", ""),
        ("not-back-hook", ""),
        ("not-is-front-hook", ""),
        ("is-back-hook", ""),
        ("inner-hooks", ""),
        ("not-takes-prefix", "un"),
        ("not-takes-suffix", "es"),
        ("probability", "1-100000"),
        ("any", "--len 5 --or --len 6 --or --ends ES"),
    ];
    let (s, v) = get(a, &format!("/api/v1/find?{}&limit=1000", qs(&pairs)));
    assert_eq!(s, 200, "{v}");
    let got = words_of(&v);
    // The same by the plain scan (probability ranks and points aside:
    // the rank range holds every word).
    let expected: Vec<String> = enable()
        .iter()
        .filter(|w| {
            let n = w.len();
            (4..=6).contains(&n)
                && w.starts_with('R')
                && w.ends_with('S')
                && w.contains('E')
                && w.chars().filter(|c| "AERST".contains(*c)).count() * 100 >= 60 * n
                && (1..=3).contains(&vowels(w))
                && w.chars().collect::<HashSet<_>>().len() >= 3
                && w.chars().map(value).sum::<u32>() <= 12
                && front_hooked(w)
                && !back_hooked(w)
                && !is_word(&w[1..])
                && is_word(&w[..n - 1])
                && !is_word(&format!("UN{w}"))
                && !is_word(&format!("{w}ES"))
                && (n == 5 || n == 6 || w.ends_with("ES"))
        })
        .cloned()
        .collect();
    assert_eq!(expected.len(), 40);
    assert_eq!(got, expected);
}

#[test]
fn long_walks_stop_at_the_budget_or_the_deadline() {
    // A budget of 10,000 steps: a walk of every word is refused with the
    // reason; a narrow one still answers.
    let s = server(Limits {
        max_find_steps: 10_000,
        ..Limits::default()
    });
    let a = s.addr();
    assert_refused(a, "/api/v1/find?vowels=3", 400, "steps");
    assert_refused(a, "/api/v1/find?anagrams=3-&len=5", 400, "steps");
    let (st, v) = get(a, "/api/v1/find?anagram=aeinrst");
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["total"], 9);
    // A deadline of 30 ms: a walk of every word counting every anagram
    // group is 503 (the server is busy or the query took too long), and the
    // walk ends soon after: the one heavy thread is free again at once.
    let s = server(Limits {
        timeout: Duration::from_millis(30),
        heavy_concurrency: 1,
        max_client_heavy: 8,
        ..Limits::default()
    });
    let a = s.addr();
    let (st, v) = get(
        a,
        &format!(
            "/api/v1/find?{}",
            qs(&[("anagrams", "4-"), ("regex", ".*(a|e|i).*(o|u).*")])
        ),
    );
    assert_eq!(st, 503, "{v}");
    let t = Instant::now();
    let (st, v) = get(a, "/api/v1/find?anagram=aeinrst&min-len=2");
    assert_eq!(st, 200, "{v}");
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
}

#[test]
fn suggest_without_a_tile_set_gives_no_probability() {
    // Catalan has no standard tile set: a suggestion's probability is not
    // known (null), not 0, which would say the bag cannot supply it.
    let dir = tempfile::tempdir().unwrap();
    let mut list = lexq::WordList::new(lexq::Alphabet::catalan());
    let words = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/catalan/words.txt"
    );
    list.read_path(std::path::Path::new(words)).unwrap();
    let path = dir.path().join("ca.lexq");
    lexq::build(&list, &mut ())
        .unwrap()
        .write_atomic(&path)
        .unwrap();
    let state = AppState::new(
        Lexicon::open(&path).unwrap(),
        None,
        Limits::default(),
        false,
    );
    let server = Server::start("127.0.0.1:0", state).unwrap();
    let (s, v) = get(server.addr(), "/api/v1/suggest/aiguas?distance=1");
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["suggestions"][0]["word"], "AIGUA", "{v}");
    assert!(v["suggestions"][0]["probability"].is_null(), "{v}");
}

#[test]
fn hostile_suggests_are_refused_with_the_reason() {
    let a = shared();
    for (path, says) in [
        ("/api/v1/suggest/quick?distance=3", "distance"),
        ("/api/v1/suggest/quick?distance=0", "distance"),
        ("/api/v1/suggest/quick?distance=999", "distance"),
        ("/api/v1/suggest/quick?limit=100000", "limit"),
        ("/api/v1/suggest/quick?tiles=english", "tiles"),
        ("/api/v1/suggest/%00", "letter"),
        ("/api/v1/suggest/a1", "letter"),
    ] {
        assert_refused(a, path, 400, says);
    }
    let long = "a".repeat(40);
    assert_refused(a, &format!("/api/v1/suggest/{long}"), 400, "tiles");
    let longer = "a".repeat(101);
    assert_refused(a, &format!("/api/v1/suggest/{longer}"), 400, "at most 100");
}

#[test]
fn find_and_suggest_are_priced_by_their_work() {
    use lexq::find::{Condition, Query, Range};
    use lexq_site::serve::cost;
    let lex = Lexicon::embedded();
    let steps = |q: &Query| lex.prepare_find(q).unwrap().estimated_steps();
    let len = |r: Range| Query::new().with(Condition::Length(r));
    let vowels3 = Query::new().with(Condition::Vowels(Range::exactly(3)));
    let cases = [
        ("vowels 3", vowels3.clone()),
        ("len -3", len(Range::at_most(3))),
        ("len 4", len(Range::exactly(4))),
        (
            "starts s len 4",
            len(Range::exactly(4)).with(Condition::Starts("s".into())),
        ),
        (
            "aeinrst",
            Query::new().with(Condition::Anagram {
                rack: "aeinrst".into(),
                through: None,
            }),
        ),
        (
            "starts qu len 5",
            len(Range::exactly(5)).with(Condition::Starts("qu".into())),
        ),
    ];
    for (name, q) in &cases {
        eprintln!("{name}: {} steps, {:?}", steps(q), cost::find(steps(q)));
    }
    // Every word walked: heavy.
    let all = cost::find(steps(&vowels3));
    assert!(all.is_heavy(), "{all:?}");
    // Every word walked, but only to three letters: lighter by far.
    let short = cost::find(steps(&len(Range::at_most(3))));
    assert!(short.0 * 20 < all.0, "{short:?} {all:?}");
    // A rack without blanks, a rare prefix: light.
    for (name, q) in &cases[4..] {
        let c = cost::find(steps(q));
        assert!(!c.is_heavy(), "{name}: {c:?}");
    }
}

#[test]
fn garbage_is_never_500() {
    // Every condition name, negated or not, with values of every shape.
    let a = shared();
    let names = [
        "pattern",
        "regex",
        "contains",
        "starts",
        "ends",
        "anagram",
        "subanagram",
        "length",
        "includes",
        "consists",
        "vowels",
        "distinct",
        "points",
        "anagrams",
        "front-hook",
        "back-hook",
        "is-front-hook",
        "is-back-hook",
        "inner-hooks",
        "takes-prefix",
        "takes-suffix",
        "probability",
        "any",
        "len",
        "min-len",
        "max-len",
        "through",
        "tiles",
        "sort",
        "table",
        "explain",
        "limit",
        "offset",
    ];
    let values = [
        "",
        "q",
        "-4",
        "99999999999999999999",
        "[ch]",
        "{ae}",
        "*",
        "??",
        "(a|",
        ":101",
        "--or",
        "\u{1F600}",
        "a b",
        "%",
        "7-",
        "-",
        "[",
        "}",
        "--len --or",
    ];
    let mut seen = BTreeMap::new();
    for (i, name) in names.iter().enumerate() {
        for (j, v) in values.iter().enumerate() {
            let n = if (i + j) % 2 == 0 {
                name.to_string()
            } else {
                format!("not-{name}")
            };
            let path = format!("/api/v1/find?{}&len=4&limit=5", qs(&[(&n, v)]));
            let (s, body) = get(a, &path);
            assert!([200, 400, 429, 503].contains(&s), "{path}: {s} {body}");
            *seen.entry(s).or_insert(0) += 1;
        }
    }
    assert!(
        seen.contains_key(&200) && seen.contains_key(&400),
        "{seen:?}"
    );
}
