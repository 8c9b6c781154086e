//! The HTTP server against a loopback port: every endpoint with good and
//! bad input, paging, limits, and concurrent requests; answers checked
//! against the library (lexicon queries) and the fixture's inputs.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::*;
use lexq::Lexicon;
use lexq_site::Site;
use lexq_site::serve::{AppState, Limits, Server};
use serde_json::Value;

struct Fixture {
    _dir: tempfile::TempDir,
    server: Server,
}

fn start(with_site: bool, limits: Limits) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let (out, _) = fixture_site(dir.path());
    let site = Site::open(&out).unwrap();
    let lex = site.lexicon().unwrap();
    let state = AppState::new(lex, with_site.then_some(site), limits, false);
    let server = Server::start("127.0.0.1:0", state).unwrap();
    Fixture { _dir: dir, server }
}

fn addr(f: &Fixture) -> SocketAddr {
    f.server.addr()
}

fn words_of(v: &Value) -> Vec<String> {
    v["words"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["word"].as_str().unwrap().to_string())
        .collect()
}

fn assert_bad(a: SocketAddr, path: &str, status: u16) {
    let (s, body) = get(a, path);
    assert_eq!(s, status, "{path}: {body}");
    assert_eq!(body["status"], status, "{path}");
    assert!(!body["error"].as_str().unwrap().is_empty(), "{path}");
}

#[test]
fn word_lists_match_the_library_with_paging() {
    let f = start(true, Limits::default());
    let a = addr(&f);
    let dir = tempfile::tempdir().unwrap();
    let (lex, _) = fixture_lexicon(dir.path());
    let cases: Vec<(&str, &str, Vec<String>)> = vec![
        ("contains", "ar", lex.contains("ar").unwrap().to_strings()),
        ("starts", "car", lex.starts("car").unwrap().to_strings()),
        ("ends", "es", lex.ends("es").unwrap().to_strings()),
        (
            "pattern",
            "c%3Fr*",
            lex.pattern("c?r*").unwrap().to_strings(),
        ),
        ("regex", "ca.%2B", lex.regex("ca.+").unwrap().to_strings()),
        ("anagram", "acre", lex.anagram("acre").unwrap().to_strings()),
        (
            "anagram",
            "acr%3F",
            lex.anagram("acr?").unwrap().to_strings(),
        ),
        (
            "subanagram",
            "scare",
            lex.subanagram("scare").unwrap().to_strings(),
        ),
    ];
    for (kind, arg, expected) in cases {
        assert!(!expected.is_empty(), "{kind} {arg}");
        let (s, v) = get(a, &format!("/api/v1/{kind}/{arg}"));
        assert_eq!(s, 200, "{kind} {arg}: {v}");
        assert_eq!(v["kind"], kind);
        assert_eq!(v["total"], expected.len());
        assert_eq!(words_of(&v), expected, "{kind} {arg}");
        let lengths: usize = v["lengths"]
            .as_object()
            .unwrap()
            .values()
            .map(|n| n.as_u64().unwrap() as usize)
            .sum();
        assert_eq!(lengths, expected.len());
        // Pages of 2 put back together give the whole list.
        let mut paged = Vec::new();
        for off in (0..expected.len()).step_by(2) {
            let (_, p) = get(a, &format!("/api/v1/{kind}/{arg}?limit=2&offset={off}"));
            assert_eq!(p["total"], expected.len());
            paged.extend(words_of(&p));
        }
        assert_eq!(paged, expected, "{kind} {arg} paged");
    }
    // Points and lengths of each word.
    let (_, v) = get(a, "/api/v1/starts/quick");
    assert_eq!(
        v["words"][0],
        serde_json::json!({"word": "QUICK", "length": 5, "points": 20})
    );
    // Length filters and sorting.
    let (_, v) = get(a, "/api/v1/contains/a?min_len=5&max_len=5");
    assert!(words_of(&v).iter().all(|w| w.len() == 5));
    let (_, v) = get(a, "/api/v1/contains/a?sort=length");
    let lens: Vec<usize> = words_of(&v).iter().map(String::len).collect();
    assert!(lens.windows(2).all(|w| w[0] >= w[1]));
    // Past the end: an empty page, the total still right.
    let (s, v) = get(a, "/api/v1/contains/a?offset=1000");
    assert_eq!(s, 200);
    assert!(words_of(&v).is_empty());
    assert!(v["total"].as_u64().unwrap() > 0);
    let (_, v) = get(a, "/api/v1/contains/qqq");
    assert_eq!(v["total"], 0);
}

#[test]
fn bad_input_is_a_400_with_a_json_body() {
    let f = start(true, Limits::default());
    let a = addr(&f);
    for path in [
        "/api/v1/contains/%20",
        "/api/v1/contains/a1",
        "/api/v1/contains/%FF",
        "/api/v1/pattern/%5B",
        "/api/v1/regex/(",
        "/api/v1/regex/a%5C1",
        "/api/v1/anagram/ab!",
        "/api/v1/contains/a?limit=100000",
        "/api/v1/contains/a?limit=-1",
        "/api/v1/contains/a?limit=x",
        "/api/v1/contains/a?bogus=1",
        "/api/v1/contains/a?sort=random",
        "/api/v1/word/c4t",
        "/api/v1/hooks/%00",
        "/api/v1/check",
        "/api/v1/check?words=",
        "/api/v1/check?words=cat,d0g",
        "/api/v1/search",
        "/api/v1/search?q=definition:(",
        "/api/v1/search?q=nofield:x",
        "/api/v1/search?q=length:x",
        "/api/v1/search?q=nofield:*",
        "/api/v1/search?q=x&limit=5000",
    ] {
        assert_bad(a, path, 400);
    }
    // Escapes that are not UTF-8 in a query string, as in a path: 400,
    // saying so (they had been read as U+FFFD: a search for it answered
    // 200, a check named a letter the client never sent).
    for path in [
        "/api/v1/check?words=%ff",
        "/api/v1/search?q=%ff",
        "/api/v1/search?q=d%C3",
        "/api/v1/find?contains=%ff",
        "/api/v1/contains/a?sort=%ff",
    ] {
        let (s, body) = get(a, path);
        assert_eq!(s, 400, "{path}: {body}");
        assert!(
            body["error"].as_str().unwrap().contains("not UTF-8"),
            "{path}: {body}"
        );
    }
    let long = "a".repeat(101);
    assert_bad(a, &format!("/api/v1/contains/{long}"), 400);
    assert_bad(a, &format!("/api/v1/search?q={long}"), 400);
    let many: Vec<String> = (0..101).map(|_| "cat".to_string()).collect();
    assert_bad(a, &format!("/api/v1/check?words={}", many.join(",")), 400);
    assert_bad(a, "/api/v1/nope", 404);
    assert_bad(a, "/api/v1/contains/", 404);
    // A 100-tile rack passes the length check but not the core's.
    assert_bad(a, &format!("/api/v1/anagram/{}", "%3F".repeat(100)), 400);
}

#[test]
fn word_pages_serve_what_the_entries_hold() {
    // The server writes the stored page's senses in place; they must read
    // as the library's owned entry serialises, for every word.
    let f = start(true, Limits::default());
    let a = addr(&f);
    let dir = tempfile::tempdir().unwrap();
    let (out, _) = fixture_site(dir.path());
    let site = Site::open(&out).unwrap();
    let mut n = 0;
    let mut senses = 0;
    site.for_each_entry(|e| {
        let (s, v) = get(a, &format!("/api/v1/word/{}", e.word.to_lowercase()));
        assert_eq!(s, 200, "{}", e.word);
        // Every field of the entry, as the entry has them (a field added to
        // `Entry` but not served fails here), plus the server's own.
        let mut want = serde_json::to_value(&e).unwrap();
        want["definitions_loaded"] = true.into();
        assert_eq!(v, want, "{}", e.word);
        n += 1;
        senses += e.senses.len();
        Ok(())
    })
    .unwrap();
    assert!(n >= 20 && senses >= 20, "{n} words, {senses} senses");
}

#[test]
fn word_check_hooks_and_search_endpoints() {
    let f = start(true, Limits::default());
    let a = addr(&f);
    let (s, v) = get(a, "/api/v1/word/cares");
    assert_eq!(s, 200);
    assert_eq!(v["word"], "CARES");
    assert_eq!(v["valid"], true);
    assert_eq!(v["points"], 7);
    assert_eq!(v["front_hooks"], ""); // no SCARES in the fixture
    assert_eq!(v["base_forms"], serde_json::json!(["CARE"]));
    assert_eq!(v["senses"].as_array().unwrap().len(), 4);
    assert_eq!(v["senses"][0]["base_form"], "CARE");
    assert_eq!(v["definitions_loaded"], true);
    let (_, v) = get(a, "/api/v1/word/care");
    assert_eq!(v["anagrams"], serde_json::json!(["ACRE", "RACE"]));
    assert_eq!(v["back_hooks"], "DS");
    // Not a word: still answered, marked invalid, with its hooks.
    let (s, v) = get(a, "/api/v1/word/ca");
    assert_eq!(s, 200);
    assert_eq!(v["valid"], false);
    assert_eq!(v["back_hooks"], "T");
    assert!(v["senses"].as_array().unwrap().is_empty());

    let (_, v) = get(a, "/api/v1/check?words=cat,%20dog%20,geese");
    assert_eq!(v["total"], 3);
    assert_eq!(v["all_valid"], false);
    assert_eq!(
        v["results"][1],
        serde_json::json!({"word": "DOG", "valid": false})
    );
    assert_eq!(v["results"][2]["valid"], true);

    let (_, v) = get(a, "/api/v1/hooks/care");
    assert_eq!(v["front"], "S");
    assert_eq!(v["back"], "DS");
    assert_eq!(v["front_words"], serde_json::json!(["SCARE"]));
    assert_eq!(v["back_words"], serde_json::json!(["CARED", "CARES"]));

    // A definition is found on the word whose sense it is; its
    // inflections by their base form.
    let (s, v) = get(a, "/api/v1/search?q=definition:%22feel%20concern%22");
    assert_eq!(s, 200);
    assert_eq!(v["total"], 1);
    assert_eq!(v["hits"][0]["word"], "CARE");
    let (s, v) = get(a, "/api/v1/search?q=base_form:care&limit=2");
    assert_eq!(s, 200);
    assert_eq!(v["total"], 3); // CARED, CARES, CARING
    assert_eq!(v["hits"].as_array().unwrap().len(), 2);
    let (_, v2) = get(a, "/api/v1/search?q=base_form:care&limit=2&offset=2");
    assert_eq!(v2["hits"].as_array().unwrap().len(), 1);
    let mut all: Vec<String> = v["hits"]
        .as_array()
        .unwrap()
        .iter()
        .chain(v2["hits"].as_array().unwrap())
        .map(|h| h["word"].as_str().unwrap().to_string())
        .collect();
    all.sort();
    assert_eq!(all, ["CARED", "CARES", "CARING"]);
    // Each shows its first sense, CARE's.
    assert!(v["hits"][0]["definition"].as_str().is_some(), "{v}");

    // A word ending in `*` is a prefix; a `*` inside a word is refused.
    let (s, v) = get(a, "/api/v1/search?q=word:car*");
    assert_eq!(s, 200);
    let mut car: Vec<&str> = v["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["word"].as_str().unwrap())
        .collect();
    car.sort();
    let mut want: Vec<String> = fixture_words()
        .into_iter()
        .filter(|w| w.starts_with("CAR"))
        .collect();
    want.sort();
    assert!(want.len() > 1);
    assert_eq!(car, want);
    assert_eq!(v["total"], want.len());
    assert_bad(a, "/api/v1/search?q=a*b", 400);
    // An offset far past the end is an empty page (it was an abort that
    // took the server down), and the server still answers.
    let (s, v) = get(a, "/api/v1/search?q=word:car*&offset=99999999999");
    assert_eq!(s, 200);
    assert_eq!(v["total"], want.len());
    assert!(v["hits"].as_array().unwrap().is_empty());
    let (s, _) = get(a, "/api/v1/search?q=word:car*");
    assert_eq!(s, 200);

    let (s, v) = get(a, "/api/v1/info");
    assert_eq!(s, 200);
    assert_eq!(v["lexicon"]["words"], fixture_words().len());
    assert!(v["site"]["summary"]["direct"].as_u64().unwrap() > 0);

    let (s, ctype, body) = request(a, "GET", "/");
    assert_eq!(s, 200);
    assert!(ctype.starts_with("text/html"));
    assert!(
        String::from_utf8(body)
            .unwrap()
            .contains("<form class=\"search\"")
    );
    let (s, ctype, body) = request(a, "GET", "/licence");
    assert_eq!(s, 200);
    assert!(ctype.starts_with("text/plain"));
    let file = f
        ._dir
        .path()
        .join("site")
        .join(lexq_site::build::WORDNET_LICENCE_FILE);
    let body = String::from_utf8(body).unwrap();
    assert_eq!(body, std::fs::read_to_string(&file).unwrap());
    assert!(body.contains("Princeton"));
    // Read once at start: no request reads the file (gone now, it was
    // a 404).
    std::fs::remove_file(&file).unwrap();
    let (s, _, again) = request(a, "GET", "/licence");
    assert_eq!((s, String::from_utf8_lossy(&again)), (200, body.into()));
    let (s, _, _) = request(a, "POST", "/api/v1/word/cat");
    assert_eq!(s, 405);
}

#[test]
fn without_a_site_lexicon_queries_still_work() {
    let dir = tempfile::tempdir().unwrap();
    let state = AppState::new(Lexicon::embedded(), None, Limits::default(), false);
    let server = Server::start("127.0.0.1:0", state).unwrap();
    let a = server.addr();
    let (s, v) = get(a, "/api/v1/anagram/retains");
    assert_eq!(s, 200);
    assert_eq!(
        words_of(&v),
        Lexicon::embedded().anagram("retains").unwrap().to_strings()
    );
    let (_, v) = get(a, "/api/v1/word/quixotic");
    assert_eq!(v["valid"], true);
    assert_eq!(v["definitions_loaded"], false);
    assert_bad(a, "/api/v1/search?q=tool", 404);
    assert_bad(a, "/licence", 404);
    drop(dir);
    server.stop().unwrap();
}

#[test]
fn concurrent_requests_get_the_same_answers_as_sequential_ones() {
    // Sixteen threads of one address: the per-address heavy cap (tested
    // in clients.rs) raised out of the way.
    let limits = Limits {
        concurrency: 2,
        max_client_heavy: 64,
        ..Limits::default()
    };
    let f = start(true, limits);
    let a = addr(&f);
    let paths: Vec<String> = [
        "contains/a",
        "starts/ca",
        "ends/s",
        "pattern/*e*",
        "anagram/acre",
        "subanagram/retains",
        "word/cares",
        "hooks/care",
        "check?words=cat,dog",
        "search?q=pos:/noun",
    ]
    .iter()
    .map(|p| format!("/api/v1/{p}"))
    .collect();
    let expected: Vec<(u16, Value)> = paths.iter().map(|p| get(a, p)).collect();
    std::thread::scope(|s| {
        for t in 0..16 {
            let (paths, expected) = (&paths, &expected);
            s.spawn(move || {
                for i in 0..30 {
                    let k = (t * 7 + i) % paths.len();
                    assert_eq!(get(a, &paths[k]), expected[k], "{}", paths[k]);
                }
            });
        }
    });
}

#[test]
fn a_query_over_its_time_limit_is_a_503_with_a_json_body() {
    let limits = Limits {
        timeout: Duration::ZERO,
        ..Limits::default()
    };
    let f = start(false, limits);
    assert_bad(addr(&f), "/api/v1/contains/a", 503);
    // The page itself is not a query and is served.
    assert_eq!(request(addr(&f), "GET", "/").0, 200);
}

#[test]
fn moves_are_the_generators_paged() {
    let state = AppState::new(Lexicon::embedded(), None, Limits::default(), false);
    let server = Server::start("127.0.0.1:0", state).unwrap();
    let a = server.addr();
    let empty = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15";
    let care = "15/15/15/15/15/15/15/4CARE7/15/15/15/15/15/15/15 AEINRS?/ 12/0 0";
    for cgp in [format!("{empty} AEINRST/ 0/0 0"), care.to_string()] {
        let lex = Lexicon::embedded();
        let pos = lexq::game::Position::from_cgp(&lex, &cgp).unwrap();
        let mut all = lexq::game::All::default();
        lexq::game::Generator::new().generate(&pos.board, &pos.rack(), &mut all);
        let mut expected = all.moves;
        expected.sort_unstable_by(lexq::game::rank);
        let (s, v) = post(a, "/api/v1/moves?limit=1000", &cgp);
        assert_eq!(s, 200, "{v}");
        assert_eq!(v["total"], expected.len());
        let got: Vec<(String, i64)> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["gcg"].as_str().unwrap().to_string(),
                    m["score"].as_i64().unwrap(),
                )
            })
            .collect();
        let want: Vec<(String, i64)> = expected
            .iter()
            .take(1000)
            .map(|m| (m.notation(lex.alphabet()), m.score() as i64))
            .collect();
        assert_eq!(got, want);
        let (_, p) = post(a, "/api/v1/moves?limit=3&offset=2", &cgp);
        assert_eq!(p["moves"].as_array().unwrap().len(), 3);
        assert_eq!(p["moves"][0]["gcg"].as_str().unwrap(), want[2].0);
    }
    // Exchanges and the pass on request.
    let (_, v) = post(
        a,
        "/api/v1/moves?exchanges=true&limit=1000",
        &format!("{empty} VVU/ 0/0 0"),
    );
    assert!(
        v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["kind"] == "pass"),
        "{v}"
    );
    // Bad positions and bodies.
    for body in [
        "",
        "not a cgp",
        &format!("{empty} AEINRST1/ 0/0 0"),
        "15/15 A/ 0/0 0",
        &format!("{empty} A/ 0/0 0\n{empty} B/ 0/0 0"),
    ] {
        let (s, v) = post(a, "/api/v1/moves", body);
        assert_eq!(s, 400, "{body:?}: {v}");
        assert_eq!(v["status"], 400);
    }
    let (s, v) = post(a, "/api/v1/moves", &"x".repeat(10_000));
    assert_eq!(s, 413, "{v}");
    let (s, _) = post(a, "/api/v1/moves?limit=5000", care);
    assert_eq!(s, 400);
    assert_eq!(get(a, "/api/v1/moves").0, 405);
}
