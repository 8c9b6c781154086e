//! The static export (`lexq site export`) served by a plain static file
//! server, `python3 -m http.server`, with no lexq process: a crawler
//! from `/` reaches every word, meets no 404 and reads only well-formed
//! pages with titles; the pages are the server's own; and the export's
//! script (`lexq.js`, run by node over HTTP as a browser runs it) answers
//! look-ups, completions, anagrams, hooks and patterns from the index
//! shards as a plain scan of the word list does.
//!
//! Needs python3 and node; without them the tests say "skipped: ..." and
//! pass, unless `LEXQ_REQUIRE_ALL=1` makes that a failure.

mod common;

use std::collections::{BTreeSet, HashSet, VecDeque};
use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::html::{distance, links, unescape, well_formed};
use common::*;
use lexq_site::Site;
use lexq_site::export::links::static_page;
use lexq_site::export::{ExportOptions, ExportSummary, export};
use lexq_site::serve::{AppState, Limits, Server};
use serde_json::{Value, json};

const BASE: &str = "https://example.org";

/// The fixture site exported at [`BASE`] into `dir/export`.
/// The fixture site, with a frequency list that ranks CATS, CARE and
/// RACE before the other words (as the server's completions rank them),
/// exported.
fn fixture_export(dir: &Path) -> (Site, PathBuf, ExportSummary) {
    let (lex, path) = fixture_lexicon(dir);
    let frequencies = dir.join("frequencies.txt");
    std::fs::write(&frequencies, "cats 100\ncare 50\nrace 7\n").unwrap();
    let site_dir = dir.join("site");
    let options = lexq_site::build::BuildOptions {
        frequencies: Some(frequencies),
        ..fixture_options()
    };
    lexq_site::build::build(&lex, Some(&path), &options, &site_dir, &mut ()).unwrap();
    let site = Site::open(&site_dir).unwrap();
    let out = dir.join("export");
    let options = ExportOptions {
        base_url: BASE.into(),
    };
    let summary = export(&site, &out, &options, &mut ()).unwrap();
    (site, out, summary)
}

/// What a crawl found.
#[derive(Default)]
struct Crawl {
    /// The words whose pages were linked, uppercase.
    words: BTreeSet<String>,
    /// The addresses fetched.
    fetched: usize,
}

/// Crawls the static server at `a` from `/`: every link (but to word
/// pages, of which one in `sample` is fetched) fetched and answered 200
/// with no redirect; HTML pages well formed and titled, their canonical
/// link their own address at [`BASE`]; the stylesheet and the script
/// each page loads there.
fn crawl(a: SocketAddr, sample: usize) -> Crawl {
    let mut seen: HashSet<String> = HashSet::from(["/".to_string()]);
    let mut queue: VecDeque<String> = VecDeque::from(["/".to_string()]);
    let mut out = Crawl::default();
    while let Some(path) = queue.pop_front() {
        let (status, ctype, body) = request(a, "GET", &path);
        out.fetched += 1;
        let body = String::from_utf8(body).unwrap();
        assert_eq!(status, 200, "{path}: {}", &body[..body.len().min(300)]);
        if !ctype.starts_with("text/html") {
            continue;
        }
        well_formed(&path, &body);
        if let Some((_, rest)) = body.split_once("<link rel=\"canonical\" href=\"") {
            let canonical = unescape(&rest[..rest.find('"').unwrap()]);
            assert_eq!(canonical, format!("{BASE}{path}"), "{path}");
        }
        assert!(
            body.contains("<script src=\"/lexq.js\" defer></script>"),
            "{path}"
        );
        let mut targets = links(&body);
        targets.push("/lexq.js".into());
        for l in targets {
            if l.starts_with('#') || l.starts_with("https://wordnet.princeton.edu") {
                continue;
            }
            if l.starts_with("http") {
                assert!(l.starts_with(BASE), "{path}: links {l}");
                continue;
            }
            assert!(l.starts_with('/'), "{path}: a relative link {l}");
            if !seen.insert(l.clone()) {
                continue;
            }
            if let Some(w) = l.strip_prefix("/word/") {
                let w = w.strip_suffix('/').unwrap_or_else(|| panic!("{path}: {l}"));
                assert!(!w.contains('/'), "{path}: {l}");
                out.words.insert(w.to_uppercase());
                if out.words.len() % sample != 0 {
                    continue;
                }
            }
            queue.push_back(l);
        }
    }
    out
}

/// Every file under `dir`, relative, with its bytes.
fn files(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(root, &path, out);
        } else {
            let rel = path.strip_prefix(root).unwrap().to_path_buf();
            out.push((rel, std::fs::read(&path).unwrap()));
        }
    }
}

#[test]
fn a_crawler_of_the_static_export_reaches_every_word_and_no_404() {
    let dir = tempfile::tempdir().unwrap();
    let (_site, out, summary) = fixture_export(dir.path());
    let (_server, a) = needs!(serve_static(&out));
    let found = crawl(a, 1);
    let expected: BTreeSet<String> = fixture_words().into_iter().collect();
    assert_eq!(found.words, expected);
    // Every word's page, at its address; the server's address without
    // the final `/` redirects there.
    for w in &expected {
        let path = format!("/word/{}", w.to_lowercase());
        let (status, ctype, body) = request(a, "GET", &format!("{path}/"));
        assert_eq!(status, 200, "{path}/");
        assert!(ctype.starts_with("text/html"));
        let body = String::from_utf8(body).unwrap();
        assert!(body.contains(&format!("<title>{w} ")), "{path}");
        assert_eq!(request(a, "GET", &path).0, 301, "{path}");
    }
    // robots.txt names the sitemap index; each sitemap holds at most
    // 50,000 addresses, every one a page; together every word.
    let (status, _, robots) = request(a, "GET", "/robots.txt");
    assert_eq!(status, 200);
    let robots = String::from_utf8(robots).unwrap();
    assert!(robots.contains(&format!("Sitemap: {BASE}/sitemap.xml")));
    let locs = |xml: &str| -> Vec<String> {
        xml.split("<loc>")
            .skip(1)
            .map(|r| unescape(&r[..r.find("</loc>").unwrap()]))
            .collect()
    };
    let (status, _, index) = request(a, "GET", "/sitemap.xml");
    assert_eq!(status, 200);
    let mut words = BTreeSet::new();
    for sm in locs(&String::from_utf8(index).unwrap()) {
        let path = sm.strip_prefix(BASE).unwrap();
        let (status, _, xml) = request(a, "GET", path);
        assert_eq!(status, 200, "{path}");
        let urls = locs(&String::from_utf8(xml).unwrap());
        assert!(urls.len() <= 50_000);
        for u in urls {
            let p = u.strip_prefix(BASE).unwrap();
            let (status, ctype, _) = request(a, "GET", p);
            assert_eq!((status, ctype.starts_with("text/html")), (200, true), "{p}");
            if let Some(w) = p.strip_prefix("/word/") {
                assert!(words.insert(w.trim_end_matches('/').to_uppercase()));
            }
        }
    }
    assert_eq!(words, expected);
    // The search page and the 404 page are well formed too; neither is
    // to be indexed.
    for path in ["/search/?q=ran", "/404.html"] {
        let (status, _, body) = request(a, "GET", path);
        assert_eq!(status, 200, "{path}");
        let body = String::from_utf8(body).unwrap();
        well_formed(path, &body);
        assert!(body.contains("noindex"), "{path}");
    }
    // The file count: a page per word, the browse pages, a few others,
    // and the shards; nothing per anything else.
    let mut all = Vec::new();
    files(&out, &out, &mut all);
    assert_eq!(all.len() as u64, summary.files);
    let words_files = all.iter().filter(|(p, _)| p.starts_with("word")).count();
    assert_eq!(words_files, expected.len());
    assert_eq!(summary.words, expected.len() as u64);
    let bytes: u64 = all.iter().map(|(_, b)| b.len() as u64).sum();
    assert_eq!(bytes, summary.bytes);
    // Every file is reached: a page by the crawl, or a shard, the
    // sitemaps, robots.txt, the licence, the manifest, the 404 page.
    assert!(
        found.fetched as u64 + summary.shards + 8 >= summary.files,
        "{} fetched, {} files",
        found.fetched,
        summary.files
    );
}

#[test]
fn the_static_pages_are_the_servers_pages() {
    let dir = tempfile::tempdir().unwrap();
    let (site, out, _) = fixture_export(dir.path());
    let lex = site.lexicon().unwrap();
    let state = AppState::new(lex, Some(site), Limits::default(), false).with_base_url(BASE);
    let server = Server::start("127.0.0.1:0", state).unwrap();
    let a = server.addr();
    let mut paths: Vec<(String, PathBuf)> = fixture_words()
        .iter()
        .map(|w| {
            let w = w.to_lowercase();
            (format!("/word/{w}"), Path::new("word").join(&w))
        })
        .collect();
    paths.push(("/browse".into(), "browse".into()));
    paths.push(("/browse/c".into(), "browse/c".into()));
    paths.push(("/browse/length/4".into(), "browse/length/4".into()));
    for (path, file) in paths {
        let (status, _, body) = request(a, "GET", &path);
        assert_eq!(status, 200, "{path}");
        let want = static_page(&String::from_utf8(body).unwrap(), BASE);
        let got = std::fs::read_to_string(out.join(file).join("index.html")).unwrap();
        assert_eq!(got, want, "{path}");
    }
    // The link rewriting keeps what a page shows: CARES names its base
    // form, and links it at its static address.
    let cares = std::fs::read_to_string(out.join("word/cares/index.html")).unwrap();
    assert!(cares.contains("inflection of <a href=\"/word/care/\">CARE</a>"));
    assert!(cares.contains(&format!(
        "<link rel=\"canonical\" href=\"{BASE}/word/cares/\">"
    )));
    assert!(!cares.contains("/api/"));
    server.stop().unwrap();
}

/// Runs the export's own script under node against the static server
/// at `a`, as the page does (fetching the shards over HTTP): each query
/// `[op, args...]` answered `{"ok": ...}` or `{"err": ...}`. `None`
/// (the test skipped) without node.
fn node_answers(export: &Path, a: SocketAddr, queries: &[Value]) -> Option<Vec<Value>> {
    let dir = tempfile::tempdir().unwrap();
    let harness = dir.path().join("harness.js");
    std::fs::write(
        &harness,
        r#"const L = require(process.argv[2]);
const idx = L.Index(L.httpLoader(process.argv[3]));
let input = "";
process.stdin.on("data", (d) => { input += d; });
process.stdin.on("end", async () => {
  const out = [];
  for (const [op, ...args] of JSON.parse(input)) {
    try { out.push({ ok: await idx[op](...args) }); }
    catch (e) { out.push({ err: String((e && e.message) || e) }); }
  }
  process.stdout.write(JSON.stringify(out));
});
"#,
    )
    .unwrap();
    let child = Command::new("node")
        .arg(&harness)
        .arg(export.join("lexq.js"))
        .arg(format!("http://{a}"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => {
            skip(&format!("node to run the export's script ({e})"));
            return None;
        }
    };
    let input = serde_json::to_vec(queries).unwrap();
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(
        o.status.success(),
        "node: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let answers: Vec<Value> = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(answers.len(), queries.len());
    Some(answers)
}

/// The oracle: plain scans of a word list (uppercase, in order).
struct Scan<'a>(&'a [String]);

fn letters(w: &str) -> Vec<char> {
    w.chars().collect()
}

/// One element of a pattern.
enum Tok {
    Letter(char),
    Any,
    Star,
    Set(bool, Vec<char>),
}

fn parse(p: &str) -> Vec<Tok> {
    let c = letters(&p.to_uppercase());
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        match c[i] {
            '?' => out.push(Tok::Any),
            '*' => out.push(Tok::Star),
            '[' => {
                let negate = c[i + 1] == '^';
                let from = i + 1 + usize::from(negate);
                let end = from + c[from..].iter().position(|&x| x == ']').unwrap();
                out.push(Tok::Set(negate, c[from..end].to_vec()));
                i = end;
            }
            l => out.push(Tok::Letter(l)),
        }
        i += 1;
    }
    out
}

fn matches(t: &[Tok], w: &[char]) -> bool {
    match t.first() {
        None => w.is_empty(),
        Some(Tok::Star) => (0..=w.len()).any(|i| matches(&t[1..], &w[i..])),
        Some(tok) => {
            let Some(&c) = w.first() else {
                return false;
            };
            let ok = match tok {
                Tok::Letter(l) => *l == c,
                Tok::Any => true,
                Tok::Set(negate, set) => set.contains(&c) != *negate,
                Tok::Star => unreachable!(),
            };
            ok && matches(&t[1..], &w[1..])
        }
    }
}

impl Scan<'_> {
    fn is_word(&self, w: &str) -> bool {
        self.0.iter().any(|x| x == w)
    }

    fn anagrams(&self, rack: &str) -> Vec<String> {
        let rack = letters(&rack.to_uppercase());
        let blanks = rack.iter().filter(|&&c| c == '?').count();
        self.0
            .iter()
            .filter(|w| {
                let w = letters(w);
                if w.len() != rack.len() {
                    return false;
                }
                let mut left: Vec<char> = rack.iter().copied().filter(|&c| c != '?').collect();
                let mut misses = 0;
                for c in w {
                    match left.iter().position(|&l| l == c) {
                        Some(i) => {
                            left.swap_remove(i);
                        }
                        None => misses += 1,
                    }
                }
                misses <= blanks
            })
            .cloned()
            .collect()
    }

    fn hooks(&self, w: &str) -> Value {
        let w = w.to_uppercase();
        let mut front = Vec::new();
        let mut back = Vec::new();
        for x in self.0 {
            let c = letters(x);
            if c.len() != letters(&w).len() + 1 {
                continue;
            }
            if c[1..].iter().collect::<String>() == w {
                front.push(c[0].to_string());
            }
            if x.starts_with(&w) {
                back.push(c[c.len() - 1].to_string());
            }
        }
        json!({"word": w, "is_word": self.is_word(&w), "front": front, "back": back})
    }

    fn pattern(&self, p: &str, min: Option<usize>, max: Option<usize>) -> Vec<String> {
        let t = parse(p);
        let mut out: Vec<String> = self
            .0
            .iter()
            .filter(|w| {
                let n = letters(w).len();
                min.is_none_or(|m| n >= m) && max.is_none_or(|m| n <= m) && matches(&t, &letters(w))
            })
            .cloned()
            .collect();
        out.sort_by_key(|w| letters(w).len());
        out
    }

    /// The nearest words: within 2 edits (1 past 8 letters), nearest
    /// first, then shortest, then in order; at most 5.
    fn near(&self, w: &str) -> Vec<String> {
        let w = w.to_uppercase();
        let max = if letters(&w).len() > 8 { 1 } else { 2 };
        let mut found: Vec<(usize, usize, &String)> = self
            .0
            .iter()
            .map(|x| (distance(&w, x), letters(x).len(), x))
            .filter(|&(d, _, x)| d <= max && *x != w)
            .collect();
        found.sort();
        found
            .into_iter()
            .take(5)
            .map(|(_, _, x)| x.clone())
            .collect()
    }
}

#[test]
fn the_scripts_answers_from_the_shards_are_a_scans() {
    let dir = tempfile::tempdir().unwrap();
    let (site, out, _) = fixture_export(dir.path());
    let (_static, a) = needs!(serve_static(&out));
    // The server, for its completions.
    let lex = site.lexicon().unwrap();
    let server = Server::start(
        "127.0.0.1:0",
        AppState::new(lex, Some(site), Limits::default(), false),
    )
    .unwrap();
    let words = fixture_words();
    let scan = Scan(&words);
    let mut queries: Vec<Value> = Vec::new();
    let mut want: Vec<Value> = Vec::new();
    let mut ask = |q: Value, w: Value| {
        queries.push(q);
        want.push(w);
    };
    // Look-ups: every word, in any case, with punctuation; an accented
    // spelling; what is no word, with the nearest words.
    for w in &words {
        for typed in [w.to_lowercase(), w.clone(), format!(" {w}. ")] {
            let read = typed.trim().trim_end_matches('.').to_string();
            ask(
                json!(["lookup", typed]),
                json!({"ok": {"words": [read], "found": w, "near": []}}),
            );
        }
    }
    ask(
        json!(["lookup", "cáre"]),
        json!({"ok": {"words": ["cáre"], "found": "CARE", "near": []}}),
    );
    for miss in ["carx", "caer", "zzzz", "qu", "geeses", "retainsx"] {
        ask(
            json!(["lookup", miss]),
            json!({"ok": {"words": [miss], "found": null, "near": scan.near(miss)}}),
        );
    }
    ask(
        json!(["lookup", "feel concern"]),
        json!({"ok": {"words": ["feel", "concern"], "found": null, "near": []}}),
    );
    // Completions: every prefix of every word, and others, as the
    // server's /api/v1/complete answers them.
    let mut prefixes: BTreeSet<String> = ["zzzz", "x", "b", "q", "ran", "geese", "c1", ""]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for w in &words {
        for n in 1..=w.len() {
            prefixes.insert(w[..n].to_lowercase());
        }
    }
    for p in &prefixes {
        let expected = if p.is_empty() || !p.chars().all(char::is_alphabetic) {
            json!([])
        } else {
            get(server.addr(), &format!("/api/v1/complete?q={p}&limit=8")).1["words"].clone()
        };
        ask(json!(["complete", p, 8]), json!({ "ok": expected }));
    }
    // The server's completions are a scan's, inflections aside.
    ask(json!(["complete", "ran", 8]), json!({"ok": ["RAN", "RUN"]}));
    ask(
        json!(["complete", "geese", 8]),
        json!({"ok": ["GEESE", "GOOSE"]}),
    );
    // The most common first (the frequency list's), then the shortest.
    ask(
        json!(["complete", "ca", 3]),
        json!({"ok": ["CATS", "CARE", "CAT"]}),
    );
    ask(
        json!(["complete", "c", 3]),
        json!({"ok": ["CATS", "CARE", "CAT"]}),
    );
    // Anagrams of racks: each word's letters reversed, with blanks.
    let mut racks: BTreeSet<String> = ["xyz", "??", "???", "a?e", "QUICK?R"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for w in &words {
        let rev: String = w.chars().rev().collect();
        racks.insert(rev.clone());
        racks.insert(format!("?{}", &rev[1..]));
        if rev.len() > 2 {
            racks.insert(format!("??{}", &rev[2..]).to_lowercase());
        }
    }
    for r in &racks {
        ask(json!(["anagrams", r]), json!({ "ok": scan.anagrams(r) }));
    }
    // Hooks: every word, and letters that are no word.
    for w in words
        .iter()
        .map(String::as_str)
        .chain(["ca", "are", "xq", "oose"])
    {
        ask(json!(["hooks", w]), json!({ "ok": scan.hooks(w) }));
    }
    // Patterns within a length.
    for (p, min, max) in [
        ("C?R*", None, None),
        ("C?R*", Some(5), Some(5)),
        ("?A?", None, None),
        ("?A?", Some(4), Some(4)),
        ("[^AEIOU]*", None, None),
        ("*S", Some(4), Some(4)),
        ("*S", None, None),
        ("CA*", None, None),
        ("CA*", Some(4), Some(4)),
        ("ca*e*", None, None),
        ("[AEI]*", Some(2), Some(3)),
        ("Q*K*", None, None),
        ("*", Some(3), Some(3)),
        ("*O*", Some(4), Some(5)),
        ("[RS]?[AEIOU]*", None, None),
    ] {
        ask(
            json!(["pattern", p, min, max]),
            json!({ "ok": scan.pattern(p, min, max) }),
        );
    }
    let answers = needs!(node_answers(&out, a, &queries));
    for ((q, got), want) in queries.iter().zip(&answers).zip(&want) {
        assert_eq!(got, want, "{q}");
    }
    // Bad input is an error the page shows, never a crash.
    let bad: Vec<Value> = vec![
        json!(["anagrams", "a1"]),
        json!(["anagrams", ""]),
        json!(["hooks", "c?"]),
        json!(["pattern", "C?R[", null, null]),
        json!(["pattern", "C1", null, null]),
        json!(["pattern", "", null, null]),
        json!(["pattern", "[]", null, null]),
    ];
    let answers = needs!(node_answers(&out, a, &bad));
    for (q, got) in bad.iter().zip(&answers) {
        let err = got["err"].as_str().unwrap_or_else(|| panic!("{q}: {got}"));
        assert!(!err.is_empty(), "{q}");
    }
    server.stop().unwrap();
}

/// ENABLE with WordNet, exported whole and crawled: every one of its
/// 172,820 words reached from `/` through the browse pages (one word
/// page in 97 fetched and checked, every other page fetched), and the
/// script's answers to a sample of questions a scan's. Minutes in a
/// debug build: `cargo test -p lexq-site --test export -- --ignored`.
#[test]
#[ignore = "exports all of ENABLE: minutes in a debug build"]
fn an_enable_export_is_whole_under_a_static_server() {
    let (_, site_dir, _) = needs!(enable_site());
    let site = Site::open(site_dir).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("export");
    let options = ExportOptions {
        base_url: BASE.into(),
    };
    let summary = export(&site, &out, &options, &mut ()).unwrap();
    let lex = site.lexicon().unwrap();
    let mut words = Vec::new();
    lex.for_each_word(1, usize::MAX, |w| {
        words.push(lex.alphabet().decode(w));
        std::ops::ControlFlow::Continue(())
    });
    assert_eq!(summary.words, words.len() as u64);
    let (_static, a) = needs!(serve_static(&out));
    let found = crawl(a, 97);
    assert_eq!(found.words.len(), words.len());
    assert!(found.words.iter().eq(words.iter()));
    // The script, on a sample.
    let scan = Scan(&words);
    let mut queries = Vec::new();
    let mut want = Vec::new();
    for (i, w) in words.iter().enumerate().step_by(4999) {
        queries.push(json!(["lookup", w.to_lowercase()]));
        want.push(json!({"ok": {"words": [w.to_lowercase()], "found": w, "near": []}}));
        let rev: String = w.chars().rev().collect();
        queries.push(json!(["anagrams", rev]));
        want.push(json!({ "ok": scan.anagrams(&rev) }));
        queries.push(json!(["hooks", w]));
        want.push(json!({ "ok": scan.hooks(w) }));
        if i % 3 == 0 {
            let blank = format!("?{}", &rev[1..]);
            queries.push(json!(["anagrams", blank]));
            want.push(json!({ "ok": scan.anagrams(&blank) }));
        }
    }
    for (p, min, max) in [
        ("C?R[^AEIOU]*", None, Some(7)),
        ("*ZZ", Some(5), Some(5)),
        ("QU?CK*", None, None),
        ("[JQXZ]?", None, None),
        ("*Q[^U]*", None, None),
    ] {
        queries.push(json!(["pattern", p, min, max]));
        want.push(json!({ "ok": scan.pattern(p, min, max) }));
    }
    for miss in ["teh", "recieve", "qiuck"] {
        queries.push(json!(["lookup", miss]));
        want.push(json!({"ok": {"words": [miss], "found": null, "near": scan.near(miss)}}));
    }
    let answers = needs!(node_answers(&out, a, &queries));
    for ((q, got), want) in queries.iter().zip(&answers).zip(&want) {
        assert_eq!(got, want, "{q}");
    }
}
