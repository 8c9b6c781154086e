//! The HTML pages for people and search engines, against a loopback
//! server: word pages checked against the fixture's WordNet files and
//! word list read directly, the search box's look-up and plain-text
//! reading, completions against a scan of the word list, and a crawler
//! that follows every link from `/` and must reach every word, with no
//! link a 404 and every page a well-formed HTML document with a title.

mod common;

use std::collections::{BTreeSet, HashSet, VecDeque};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};

use common::html::{distance, links, unescape, well_formed};
use common::*;
use lexq::Lexicon;
use lexq_site::Site;
use lexq_site::serve::{AppState, Limits, Server};

struct Fixture {
    _dir: tempfile::TempDir,
    server: Server,
}

fn start(with_site: bool) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let (out, _) = fixture_site(dir.path());
    let site = Site::open(&out).unwrap();
    let lex = site.lexicon().unwrap();
    let state = AppState::new(lex, with_site.then_some(site), Limits::default(), false);
    let server = Server::start("127.0.0.1:0", state).unwrap();
    Fixture { _dir: dir, server }
}

/// An answer: the status, the head's lines, the body.
struct Answer {
    status: u16,
    head: String,
    body: String,
}

impl Answer {
    fn header(&self, name: &str) -> String {
        self.head
            .lines()
            .find_map(|l| {
                let (k, v) = l.split_once(':')?;
                k.eq_ignore_ascii_case(name).then(|| v.trim().to_string())
            })
            .unwrap_or_default()
    }
}

/// GET `path` (no redirect followed).
fn fetch(addr: SocketAddr, path: &str) -> Answer {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let mut body = raw[split + 4..].to_vec();
    if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        body = dechunk(&body);
    }
    Answer {
        status: head.split(' ').nth(1).unwrap().parse().unwrap(),
        head,
        body: String::from_utf8(body).unwrap(),
    }
}

fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let end = b.windows(2).position(|w| w == b"\r\n").unwrap();
        let size =
            usize::from_str_radix(std::str::from_utf8(&b[..end]).unwrap().trim(), 16).unwrap();
        b = &b[end + 2..];
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&b[..size]);
        b = &b[size + 2..];
    }
}

/// The HTML page at `path`: 200, HTML, well formed, titled.
fn page(addr: SocketAddr, path: &str) -> String {
    let a = fetch(addr, path);
    assert_eq!(a.status, 200, "{path}: {}", a.body);
    assert!(a.header("content-type").starts_with("text/html"), "{path}");
    well_formed(path, &a.body);
    a.body
}

/// The WordNet definitions of `lemma` in the fixture's data files, read
/// directly (the gloss before the first `;`).
fn wordnet_definitions(lemma: &str) -> Vec<String> {
    let mut out = Vec::new();
    for pos in ["noun", "verb", "adj", "adv"] {
        let text = std::fs::read_to_string(data().join(format!("wordnet/data.{pos}"))).unwrap();
        for line in text.lines().filter(|l| !l.starts_with("  ")) {
            let (head, gloss) = line.split_once(" | ").unwrap();
            let f: Vec<&str> = head.split(' ').collect();
            let n = usize::from_str_radix(f[3], 16).unwrap();
            let lemmas: Vec<String> = (0..n)
                .map(|i| f[4 + 2 * i].split('(').next().unwrap().to_lowercase())
                .collect();
            if lemmas.iter().any(|l| l == lemma) {
                out.push(gloss.split(';').next().unwrap().trim().to_string());
            }
        }
    }
    out
}

#[test]
fn word_pages_carry_the_senses_and_link_only_to_pages() {
    let f = start(true);
    let a = f.server.addr();
    let words = fixture_words();
    let is_word = |w: &str| words.iter().any(|x| x.eq_ignore_ascii_case(w));
    // CARE: its WordNet definitions read from the files, examples, the
    // canonical link, a description from its first sense.
    let care = page(a, "/word/care");
    let defs = wordnet_definitions("care");
    assert!(defs.len() >= 3, "{defs:?}");
    for d in &defs {
        assert!(unescape(&care).contains(d.as_str()), "CARE lacks {d:?}");
    }
    assert!(care.contains("<link rel=\"canonical\" href=\"/word/care\">"));
    assert!(care.contains("<title>CARE "), "a title with the word");
    let desc = care
        .split_once("<meta name=\"description\" content=\"")
        .map(|(_, r)| unescape(&r[..r.find('"').unwrap()]))
        .unwrap();
    let (_, api) = get(a, "/api/v1/word/care");
    let first = api["senses"][0]["definition"].as_str().unwrap();
    assert!(
        desc.starts_with("CARE") && desc.contains(&first[..20]),
        "{desc}"
    );
    assert!(unescape(&care).contains("“no medical care was required”"));
    assert!(!care.contains("<script"), "readable without JavaScript");
    // Anagrams: a scan of the word list for the same letters.
    let sorted = |w: &str| {
        let mut c: Vec<char> = w.chars().collect();
        c.sort();
        c
    };
    let anagrams: Vec<&String> = words
        .iter()
        .filter(|w| w.as_str() != "CARE" && sorted(w) == sorted("CARE"))
        .collect();
    assert!(!anagrams.is_empty());
    for w in &anagrams {
        assert!(
            care.contains(&format!("href=\"/word/{}\"", w.to_lowercase())),
            "{w}"
        );
    }
    // Hooks: the words of the list one letter longer.
    for w in &words {
        let hook = w.len() == 5 && (w.ends_with("CARE") || w.starts_with("CARE"));
        let linked = care.contains(&format!("title=\"{w}\""));
        assert_eq!(hook, linked, "hook {w}");
    }
    // Every fixture word's page: links only to pages of the list; an
    // inflection links its base form, and the base form lists it.
    for w in &words {
        let html = page(a, &format!("/word/{}", w.to_lowercase()));
        for l in links(&html) {
            if let Some(target) = l.strip_prefix("/word/") {
                assert!(is_word(target), "{w} links {l}, not a word");
            }
        }
        let (_, api) = get(a, &format!("/api/v1/word/{w}"));
        for b in api["base_forms"].as_array().into_iter().flatten() {
            let b = b.as_str().unwrap();
            if is_word(b) && b != w {
                assert!(html.contains(&format!("href=\"/word/{}\"", b.to_lowercase())));
                let base = page(a, &format!("/word/{}", b.to_lowercase()));
                let inflected = base.split_once("id=\"inflections\"").map(|(_, r)| r);
                assert!(
                    inflected.is_some_and(|r| r.contains(&format!(">{w}<"))),
                    "{b}'s page does not list {w}"
                );
            }
        }
    }
    // RAN: an inflection of RUN, whose sense it shows.
    let ran = page(a, "/word/ran");
    assert!(ran.contains("inflection of <a href=\"/word/run\">RUN</a>"));
    let feet = wordnet_definitions("run")
        .into_iter()
        .find(|d| d.contains("one's feet"))
        .unwrap();
    assert!(unescape(&ran).contains(&feet), "{ran}");
    // One address per word.
    let upper = fetch(a, "/word/CARE");
    assert_eq!(upper.status, 308);
    assert_eq!(upper.header("location"), "/word/care");
    // Not a word: a 404 page, the nearest words of the list offered.
    let miss = fetch(a, "/word/carx");
    assert_eq!(miss.status, 404);
    assert!(miss.header("content-type").starts_with("text/html"));
    well_formed("/word/carx", &miss.body);
    let offered: Vec<String> = links(miss.body.split_once("did-you-mean").unwrap().1)
        .into_iter()
        .filter_map(|l| l.strip_prefix("/word/").map(str::to_uppercase))
        .collect();
    let nearest: BTreeSet<&String> = words.iter().filter(|w| distance(w, "CARX") == 1).collect();
    assert!(!nearest.is_empty());
    for w in &nearest {
        assert!(offered.contains(w), "{w} not offered: {offered:?}");
    }
    // Markup in the address is text.
    let xss = fetch(a, "/word/%3Cscript%3Ealert(1)%3C%2Fscript%3E");
    assert_eq!(xss.status, 404);
    assert!(!xss.body.contains("<script>"), "{}", xss.body);
    assert!(xss.body.contains("&lt;SCRIPT&gt;"));
    // The page's security headers: the policy allows its style block.
    let h = fetch(a, "/word/care");
    assert_eq!(
        h.header("content-security-policy"),
        lexq_site::serve::page_csp()
    );
    assert_eq!(h.header("x-content-type-options"), "nosniff");
    // The JSON API is as it was.
    let (s, v) = get(a, "/api/v1/word/care");
    assert_eq!((s, v["word"].as_str()), (200, Some("CARE")));
    // Without a site: the lexicon's facts, and a word that says so.
    let bare = start(false);
    let html = page(bare.server.addr(), "/word/care");
    assert!(html.contains("Definitions are not loaded"));
}

#[test]
fn the_search_box_looks_up_first_and_reads_plain_text() {
    let f = start(true);
    let a = f.server.addr();
    // A word of the lexicon, any case, an inflection too: its page.
    for (q, to) in [
        ("RAN", "/word/ran"),
        ("geese", "/word/geese"),
        ("Care.", "/word/care"),
    ] {
        let r = fetch(a, &format!("/search?q={q}"));
        assert_eq!((r.status, r.header("location").as_str()), (303, to), "{q}");
    }
    // Other text: a definition search, the definitions read from the
    // fixture's files.
    assert!(
        wordnet_definitions("run")
            .iter()
            .any(|d| d.contains("one's feet"))
    );
    let html = page(a, "/search?q=one%27s+feet");
    assert!(html.contains("href=\"/word/run\""), "{html}");
    // What people type is never a syntax error.
    for typed in [
        "don%27t",
        "one%27s+feet",
        "%22small+dog",
        "dog%29",
        "AND",
        "salt+AND+pepper",
        "care+%26%26+race",
        "what+is+a+noun%3F",
        "caf%C3%A9",
        "%3Ctag%3E",
    ] {
        let html = page(a, &format!("/search?q={typed}"));
        assert!(!html.contains("class=\"error\""), "{typed}: {html}");
    }
    // Operators between words are dropped: RACE's own definition (the
    // JSON Lines file) has both words.
    for q in [
        "contest+AND+speed",
        "contest+%26%26+speed",
        "%22contest+speed",
    ] {
        let html = page(a, &format!("/search?q={q}"));
        assert!(html.contains("href=\"/word/race\""), "{q}");
        assert!(!html.contains("No definition holds every word"), "{q}");
    }
    // The result shows the sense that matched, its words marked.
    let html = page(a, "/search?q=contest+speed");
    let race = html.split_once("href=\"/word/race\"").unwrap().1;
    let def = race.split_once("class=\"def\">").unwrap().1;
    let def = def.split_once("</div>").unwrap().0;
    assert!(
        def.contains("<mark>contest</mark>") && def.contains("<mark>speed</mark>"),
        "{def}"
    );
    // An accented word is the word without its accents, in the API too.
    let (status, care) = get(a, "/api/v1/word/c%C3%A1r%C3%A9");
    assert_eq!(
        (status, care["word"].as_str()),
        (200, Some("CARE")),
        "{care}"
    );
    // No definition holds every word: those matching some, said so.
    let html = page(a, "/search?q=what+is+a+contest%3F");
    assert!(html.contains("No definition holds every word"), "{html}");
    assert!(html.contains("href=\"/word/race\""));
    // Did you mean: a word not in the list, the nearest offered.
    let html = page(a, "/search?q=carx");
    let dym = html.split_once("id=\"did-you-mean\"").unwrap().1;
    assert!(dym.contains("href=\"/word/care\""), "{dym}");
    // The query language, asked for: its errors are said.
    let html = page(a, "/search?q=definition%3Acontest&syntax=full");
    assert!(html.contains("href=\"/word/race\""));
    let bad = fetch(a, "/search?q=dog%29&syntax=full");
    assert_eq!(bad.status, 400);
    assert!(bad.body.contains("class=\"error\""));
    // The word-list modes stay on the search page.
    let r = fetch(a, "/search?q=ax&mode=contains");
    assert_eq!(
        (r.status, r.header("location").as_str()),
        (303, "/?mode=contains&q=ax")
    );
    // The search page's default mode is the look-up, and its form works
    // without JavaScript.
    let home = page(a, "/");
    assert!(home.contains("value=\"lookup\" checked"));
    assert!(home.contains("action=\"/search\""));
    // Without a site: a look-up still works; a search says why not.
    let bare = start(false);
    let b = bare.server.addr();
    assert_eq!(fetch(b, "/search?q=ran").status, 303);
    let html = page(b, "/search?q=feel+concern");
    assert!(html.contains("needs the server"), "{html}");
}

/// Crawls from `/`: every page reached by a link is fetched (HTML pages
/// checked well formed), every link answered 200; the words whose pages
/// were linked, uppercase. Word pages are fetched one in `sample`
/// (all with 1).
fn crawl(a: SocketAddr, sample: usize) -> BTreeSet<String> {
    let mut seen: HashSet<String> = HashSet::new();
    let mut queue: VecDeque<String> = VecDeque::from(["/".to_string()]);
    let mut words = BTreeSet::new();
    seen.insert("/".into());
    while let Some(path) = queue.pop_front() {
        let r = fetch(a, &path);
        assert_eq!(
            r.status,
            200,
            "{path}: {}",
            &r.body[..r.body.len().min(300)]
        );
        if !r.header("content-type").starts_with("text/html") {
            continue;
        }
        well_formed(&path, &r.body);
        for l in links(&r.body) {
            if l.starts_with("http") || l.starts_with('#') {
                continue;
            }
            assert!(l.starts_with('/'), "{path}: a relative link {l}");
            let l = l.split('#').next().unwrap().to_string();
            if !seen.insert(l.clone()) {
                continue;
            }
            if let Some(w) = l.strip_prefix("/word/") {
                words.insert(w.to_uppercase());
                if words.len() % sample != 0 {
                    continue;
                }
            }
            queue.push_back(l);
        }
    }
    words
}

#[test]
fn a_crawler_from_the_home_page_reaches_every_word() {
    let f = start(true);
    let words = crawl(f.server.addr(), 1);
    let expected: BTreeSet<String> = fixture_words().into_iter().collect();
    assert_eq!(words, expected);
}

#[test]
fn a_crawler_reaches_every_word_of_enable_through_the_browse_pages() {
    let state = AppState::new(Lexicon::embedded(), None, Limits::default(), false);
    let server = Server::start("127.0.0.1:0", state).unwrap();
    let words = crawl(server.addr(), 997);
    let lex = Lexicon::embedded();
    let mut all = BTreeSet::new();
    lex.for_each_word(1, usize::MAX, |w| {
        all.insert(lex.alphabet().decode(w));
        std::ops::ControlFlow::Continue(())
    });
    assert_eq!(words.len(), all.len());
    assert!(words == all);
    // Each way of browsing alone reaches every word: the prefixes from
    // /browse/{letter}, and the lengths.
    for (kind, want) in [("prefix", true), ("length", false)] {
        let mut seen: HashSet<String> = HashSet::new();
        let mut queue: VecDeque<String> = VecDeque::from(["/browse".to_string()]);
        let mut found = BTreeSet::new();
        while let Some(path) = queue.pop_front() {
            let html = page(server.addr(), &path);
            for l in links(&html) {
                if let Some(w) = l.strip_prefix("/word/") {
                    found.insert(w.to_uppercase());
                } else if l.starts_with("/browse/")
                    && l.starts_with("/browse/length/") != want
                    && seen.insert(l.clone())
                {
                    queue.push_back(l);
                }
            }
        }
        assert_eq!(found.len(), all.len(), "by {kind}");
        assert!(found == all, "by {kind}");
    }
    server.stop().unwrap();
}

#[test]
fn the_sitemap_lists_every_word_in_sitemaps_of_at_most_50000() {
    let lex = Lexicon::embedded();
    let state = AppState::new(Lexicon::embedded(), None, Limits::default(), false)
        .with_base_url("https://example.org/");
    let server = Server::start("127.0.0.1:0", state).unwrap();
    let a = server.addr();
    let index = fetch(a, "/sitemap.xml");
    assert_eq!(index.status, 200);
    assert!(index.header("content-type").starts_with("application/xml"));
    assert!(
        index
            .body
            .contains("<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">")
    );
    let locs = |xml: &str| -> Vec<String> {
        xml.split("<loc>")
            .skip(1)
            .map(|r| unescape(&r[..r.find("</loc>").unwrap()]))
            .collect()
    };
    let mut words = BTreeSet::new();
    let mut others = Vec::new();
    for sm in locs(&index.body) {
        let path = sm.strip_prefix("https://example.org").unwrap();
        let r = fetch(a, path);
        assert_eq!(r.status, 200, "{path}");
        let urls = locs(&r.body);
        assert!(urls.len() <= 50_000, "{path}: {}", urls.len());
        for u in urls {
            let p = u.strip_prefix("https://example.org/").unwrap().to_string();
            match p.strip_prefix("word/") {
                Some(w) => assert!(words.insert(w.to_uppercase()), "{w} twice"),
                None => others.push(p),
            }
        }
    }
    assert_eq!(words.len() as u64, lex.word_count());
    assert!(words.iter().all(|w| lex.is_word(w).unwrap()));
    // The browse pages are listed, and each is a page.
    assert!(others.iter().any(|p| p == "browse"));
    for p in others.iter().step_by(50) {
        assert_eq!(fetch(a, &format!("/{p}")).status, 200, "{p}");
    }
    let robots = fetch(a, "/robots.txt");
    assert_eq!(robots.status, 200);
    assert!(
        robots
            .body
            .contains("Sitemap: https://example.org/sitemap.xml")
    );
    assert!(robots.body.contains("Disallow: /api/"));
    // The canonical links carry the base URL.
    let care = fetch(a, "/word/care");
    assert!(
        care.body
            .contains("<link rel=\"canonical\" href=\"https://example.org/word/care\">")
    );
    server.stop().unwrap();
}

#[test]
fn completions_are_the_words_a_prefix_begins_with_a_scan() {
    let f = start(true);
    let a = f.server.addr();
    let words = fixture_words();
    // A scan of the word list: the word itself, then by length and
    // alphabet.
    let scan = |p: &str, limit: usize| -> Vec<String> {
        let p = p.to_uppercase();
        let mut out: Vec<String> = words.iter().filter(|w| **w == p).cloned().collect();
        let mut rest: Vec<&String> = words
            .iter()
            .filter(|w| w.starts_with(&p) && **w != p)
            .collect();
        rest.sort_by_key(|w| (w.len(), w.as_str()));
        out.extend(rest.into_iter().cloned());
        out.truncate(limit);
        out
    };
    for (p, limit) in [
        ("c", 10),
        ("car", 3),
        ("ca", 50),
        ("q", 10),
        ("zzz", 5),
        ("x", 5),
    ] {
        let (s, v) = get(a, &format!("/api/v1/complete?q={p}&limit={limit}"));
        assert_eq!(s, 200, "{v}");
        let got: Vec<String> = v["words"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_str().unwrap().to_string())
            .collect();
        assert_eq!(got, scan(p, limit), "{p}");
    }
    // An inflection typed: its base forms next.
    let (_, v) = get(a, "/api/v1/complete?q=geese");
    assert_eq!(v["words"], serde_json::json!(["GEESE", "GOOSE"]));
    let (_, v) = get(a, "/api/v1/complete?q=ran");
    assert_eq!(v["words"], serde_json::json!(["RAN", "RUN"]));
    // Bad input: 400 with the reason.
    for bad in ["", "q=", "q=c&limit=0", "q=c&limit=1000", "q=c1", "q=c&x=1"] {
        let (s, v) = get(a, &format!("/api/v1/complete?{bad}"));
        assert_eq!(s, 400, "{bad}: {v}");
    }
}

/// WordNet's sense tag counts summed by lemma, read from `index.sense`
/// directly (the oracle of the site's frequencies).
fn wordnet_tag_counts(dir: &std::path::Path) -> std::collections::HashMap<String, u64> {
    let mut out = std::collections::HashMap::new();
    let text = std::fs::read_to_string(dir.join("index.sense")).unwrap();
    for line in text.lines() {
        let f: Vec<&str> = line.split(' ').collect();
        let lemma = f[0].split('%').next().unwrap();
        let count: u64 = f[3].parse().unwrap();
        if lemma.chars().all(|c| c.is_ascii_alphabetic()) {
            *out.entry(lemma.to_uppercase()).or_insert(0) += count;
        }
    }
    out.retain(|_, c| *c > 0);
    out
}

/// Suggestions and completions on the ENABLE site rank by how common a
/// word is, from WordNet's tag counts read directly: RECIEVE suggests
/// RECEIVE before RELIEVE (by tile probability it came after), and
/// completions begin with the most common words a prefix begins.
#[test]
fn suggestions_and_completions_rank_by_wordnet_tag_counts() {
    let (_, out, _) = needs!(enable_site());
    let counts = wordnet_tag_counts(&wordnet_dir().unwrap());
    let site = Site::open(out).unwrap();
    for w in ["RECEIVE", "RELIEVE", "RUN", "CAT", "TOOL", "GOOD"] {
        assert_eq!(site.frequency(w).unwrap(), counts[w], "{w}");
    }
    // An inflection without a count of its own takes its base form's.
    assert!(!counts.contains_key("RAN"));
    assert_eq!(site.frequency("ran").unwrap(), counts["RUN"]);
    // A word WordNet never tagged: unknown.
    assert_eq!(site.frequency("zzz").unwrap(), 0);

    let lex = site.lexicon().unwrap();
    let state = AppState::new(lex, Some(site), Limits::default(), false);
    let server = Server::start("127.0.0.1:0", state).unwrap();
    let a = server.addr();
    let (s, v) = get(a, "/api/v1/suggest/recieve");
    assert_eq!(s, 200, "{v}");
    let got: Vec<(String, u64, u64)> = v["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n["word"].as_str().unwrap().to_string(),
                n["distance"].as_u64().unwrap(),
                n["frequency"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(got[0].0, "RECEIVE", "{got:?}");
    let relieve = got.iter().position(|g| g.0 == "RELIEVE").unwrap();
    assert!(relieve > 0);
    // Nearest first, then most common.
    for pair in got.windows(2) {
        let (x, y) = (&pair[0], &pair[1]);
        assert!(x.1 < y.1 || (x.1 == y.1 && x.2 >= y.2), "{got:?}");
    }
    // Completions: the most common word the prefix begins first (a
    // lemma; its inflections share its count and follow it).
    for prefix in ["recei", "happ", "beau", "tool"] {
        let upper = prefix.to_uppercase();
        let (s, v) = get(a, &format!("/api/v1/complete?q={prefix}&limit=20"));
        assert_eq!(s, 200, "{v}");
        let words: Vec<String> = v["words"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_str().unwrap().to_string())
            .collect();
        let top = counts
            .iter()
            .filter(|(w, _)| {
                w.starts_with(&upper)
                    && **w != upper
                    && lexq::Lexicon::embedded().is_word(w).unwrap()
            })
            .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)));
        // TOOL: no other word it begins has a count of its own, only
        // inflections taking TOOL's.
        let Some(top) = top else {
            assert_eq!(words[0], upper);
            continue;
        };
        let first_known = words.iter().find(|w| **w != upper).unwrap();
        assert_eq!(first_known, top.0, "{prefix}: {words:?}");
    }
}

/// A frequency list passed at build time ranks before WordNet's counts
/// (the fixture's WordNet has none): CARE 500, CAT 10, ACT 3.
#[test]
fn a_frequency_list_ranks_completions() {
    let dir = tempfile::tempdir().unwrap();
    let (lex, path) = fixture_lexicon(dir.path());
    let list = dir.path().join("freq.csv");
    std::fs::write(&list, "Word,Count\ncat,10\ncare,500\nact,3\nnot-a-word,9\n").unwrap();
    let opts = lexq_site::build::BuildOptions {
        frequencies: Some(list),
        ..fixture_options()
    };
    let out = dir.path().join("site");
    lexq_site::build::build(&lex, Some(&path), &opts, &out, &mut ()).unwrap();
    let site = Site::open(&out).unwrap();
    assert_eq!(
        site.frequency("care").unwrap(),
        lexq_site::frequency::pack(500, 0)
    );
    assert_eq!(site.frequency("race").unwrap(), 0);
    let lex = site.lexicon().unwrap();
    let state = AppState::new(lex, Some(site), Limits::default(), false);
    let server = Server::start("127.0.0.1:0", state).unwrap();
    let (_, v) = get(server.addr(), "/api/v1/complete?q=ca&limit=4");
    // The counted words first, most common first; then the shortest.
    assert_eq!(
        v["words"],
        serde_json::json!(["CARE", "CAT", "CATS", "CARED"])
    );
}

#[test]
fn word_pages_show_relations_and_the_box_searches_them() {
    let (_, out, _) = needs!(enable_site());
    let site = Site::open(out).unwrap();
    let lex = site.lexicon().unwrap();
    let state = AppState::new(lex, Some(site), Limits::default(), false);
    let server = Server::start("127.0.0.1:0", state).unwrap();
    let a = server.addr();
    // WordNet: happy (adjective) has the antonym unhappy and the derived
    // form happiness; dog (noun) is a kind of canine, and puppy a kind of
    // dog. Each a link, as each is a word of ENABLE.
    let happy = page(a, "/word/happy");
    assert!(
        happy.contains(r#"<div class="ant">opposite: <a href="/word/unhappy">UNHAPPY</a></div>"#),
        "{happy}"
    );
    assert!(happy.contains(r#"<a href="/word/happiness">HAPPINESS</a>"#));
    let dog = page(a, "/word/dog");
    assert!(dog.contains(r#"<div class="hyper">a kind of: <a href="/word/canine">CANINE</a>"#));
    assert!(dog.contains(r#"<a href="/word/puppy">PUPPY</a>"#));
    // A phrase is text, not a link: no page has its spelling.
    assert!(dog.contains("domestic animal"));
    assert!(!dog.contains("/word/domestic%20animal"));
    // The JSON has them too.
    let (s, v) = get(a, "/api/v1/word/happy");
    assert_eq!(s, 200);
    assert_eq!(v["senses"][0]["antonyms"], serde_json::json!(["unhappy"]));
    // The box reads a relation as its search: GLAD, with its sense that
    // has happy as a synonym.
    let results = page(a, "/search?q=synonym%3Ahappy");
    assert!(
        results.contains(r#"<a class="w" href="/word/glad">GLAD</a>"#),
        "{results}"
    );
    assert!(results.contains("eagerly disposed to act"), "{results}");
    let results = page(a, "/search?q=Opposite%3Agood");
    assert!(
        results.contains(r#"<a class="w" href="/word/evil">EVIL</a>"#),
        "{results}"
    );
    server.stop().unwrap();
}
