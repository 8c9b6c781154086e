//! End to end in a real browser: Debian's chromium, headless, driven
//! through chromedriver (WebDriver) by fantoccini. The test serves ENABLE
//! with WordNet definitions on a loopback port, loads the page, types
//! queries, picks modes, follows a word link, checks what is rendered
//! against the library, and saves screenshots (desktop and phone sizes)
//! into target/site-e2e/.
//!
//! Needs `chromium`, `chromedriver` and WordNet: `site/fetch-wordnet.sh
//! --browser` installs them (CI runs it). Where it cannot (no root, no
//! network), the test says "skipped: ... needs ..." and passes, unless
//! `LEXQ_REQUIRE_ALL=1` (set in `.ci/run`) makes that a failure.

mod common;

use std::collections::BTreeMap;
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::*;
use fantoccini::{Client, ClientBuilder, Locator};
use lexq::Lexicon;
use lexq_site::Site;
use lexq_site::serve::{AppState, Limits, Server};

/// chromedriver, killed when dropped.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// chromedriver on a free port; `None` (the test skipped) when Chromium
/// and chromedriver cannot be installed.
fn start_driver() -> Option<(Driver, u16)> {
    if let Err(why) = common::fetch(true) {
        skip(&format!(
            "Chromium and chromedriver (root and the network for apt-get): {why}"
        ));
        return None;
    }
    let port = free_port();
    let child = Command::new("chromedriver")
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver is not installed: run site/fetch-wordnet.sh --browser");
    let driver = Driver(child);
    let start = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "chromedriver did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    Some((driver, port))
}

fn shots_dir() -> PathBuf {
    let dir = target_dir().join("site-e2e");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Waits until the element at `css` exists and its text contains `want`.
async fn wait_text(c: &Client, css: &str, want: &str) -> String {
    let start = Instant::now();
    loop {
        if let Ok(el) = c.find(Locator::Css(css)).await
            && let Ok(text) = el.text().await
            && text.contains(want)
        {
            return text;
        }
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "{css} never showed {want:?}; page: {}",
            c.source()
                .await
                .unwrap_or_default()
                .chars()
                .take(2000)
                .collect::<String>()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn shot(c: &Client, name: &str) {
    let png = c.screenshot().await.unwrap();
    std::fs::write(shots_dir().join(name), png).unwrap();
}

async fn texts(c: &Client, css: &str) -> Vec<String> {
    let mut out = Vec::new();
    for el in c.find_all(Locator::Css(css)).await.unwrap() {
        out.push(el.text().await.unwrap());
    }
    out
}

async fn search(c: &Client, mode: &str, query: &str) {
    c.find(Locator::Css(&format!("input[name=mode][value={mode}]")))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let input = c.find(Locator::Css("#q")).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys(query).await.unwrap();
    input.send_keys("\u{E007}").await.unwrap(); // Enter
}

#[test]
fn the_page_works_in_a_real_browser() {
    let (_, site_dir, _) = needs!(enable_site());
    let site = Site::open(site_dir).unwrap();
    let state = AppState::new(Lexicon::embedded(), Some(site), Limits::default(), false);
    let server = Server::start("127.0.0.1:0", state).unwrap();
    let base = format!("http://{}/", server.addr());
    let (_driver, port) = needs!(start_driver());
    let profile = tempfile::tempdir().unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let mut caps = serde_json::Map::new();
        caps.insert("browserName".into(), "chrome".into());
        caps.insert(
            "goog:chromeOptions".into(),
            serde_json::json!({
                "binary": "/usr/bin/chromium",
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--disable-quic", "--no-first-run", "--disable-background-networking",
                         "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                         format!("--user-data-dir={}", profile.path().display())]
            }),
        );
        let c = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .expect("chromedriver session");
        c.set_window_size(1200, 1000).await.unwrap();
        let lex = Lexicon::embedded();

        // The empty page, with the footer filled from /api/v1/info.
        c.goto(&base).await.unwrap();
        wait_text(&c, "#results", "Type some letters").await;
        wait_text(&c, "#lexinfo", "172,820 words").await;

        // Contains: groups by length with full counts.
        search(&c, "contains", "ax").await;
        let all = lex.contains("ax").unwrap();
        let summary = wait_text(&c, "#summary", "containing").await;
        assert!(summary.contains(&format!("{} words", all.len())) || summary.contains(&format!("{} words", fmt_thousands(all.len()))), "{summary}");
        let mut per_len: BTreeMap<usize, usize> = BTreeMap::new();
        for w in all.iter() {
            *per_len.entry(w.len()).or_default() += 1;
        }
        let heads = texts(&c, ".group h2").await;
        assert!(!heads.is_empty());
        let longest = *per_len.keys().last().unwrap();
        assert!(heads[0].starts_with(&format!("{longest} letters")), "{heads:?}");
        for h in &heads {
            let mut parts = h.split_whitespace();
            let len: usize = parts.next().unwrap().parse().unwrap();
            let count: usize = parts.nth(1).unwrap().replace(',', "").parse().unwrap();
            assert_eq!(count, per_len[&len], "group {h}");
        }
        let shown: Vec<String> = texts(&c, ".group a").await;
        let expected: std::collections::HashSet<String> = all.to_strings().into_iter().collect();
        for s in &shown {
            let word: String = s.chars().take_while(|c| c.is_ascii_uppercase()).collect();
            assert!(expected.contains(&word), "{word} does not contain AX");
        }
        assert!(c.current_url().await.unwrap().as_str().contains("mode=contains&q=ax"));
        shot(&c, "desktop-contains-ax.png").await;

        // Pick the anagram mode, search, and check the words.
        search(&c, "anagram", "retains").await;
        wait_text(&c, "#summary", "anagrams of RETAINS").await;
        let mut words: Vec<String> = texts(&c, ".group a").await.iter()
            .map(|s| s.chars().take_while(|c| c.is_ascii_uppercase()).collect()).collect();
        words.sort();
        assert_eq!(words, lex.anagram("retains").unwrap().to_strings());
        shot(&c, "desktop-anagram-retains.png").await;

        // Follow a word link to its page: validity, inflection, hooks, anagrams.
        c.find(Locator::Css("a[data-word=RETAINS]")).await.unwrap().click().await.unwrap();
        wait_text(&c, "#validity", "Valid word").await;
        let senses = wait_text(&c, "#senses", "inflection of RETAIN").await;
        assert!(senses.to_lowercase().contains("hold back within"), "{senses}");
        let anagrams = texts(&c, "#anagrams a").await;
        assert_eq!(anagrams.len(), 8);
        let hooks = wait_text(&c, "#hooks", "RETAINS").await;
        let h = lex.hooks("retains").unwrap();
        assert!(hooks.replace(['\n', ' '], "").contains(&format!("{}RETAINS{}", h.front_letters(), h.back_letters())), "{hooks}");
        shot(&c, "desktop-word-retains.png").await;

        // Links between words: the base form's page.
        c.find(Locator::Css("#senses a[data-word=RETAIN]")).await.unwrap().click().await.unwrap();
        wait_text(&c, "#word-title", "").await;
        wait_text(&c, "#senses", "hold back within").await;
        assert!(c.current_url().await.unwrap().as_str().ends_with("?word=retain"));
        // Back in history returns to the previous word.
        c.back().await.unwrap();
        wait_text(&c, "#senses", "inflection of RETAIN").await;

        // Keyboard: "/" goes back to the search box.
        c.find(Locator::Css("body")).await.unwrap().send_keys("/").await.unwrap();
        let active = c.active_element().await.unwrap();
        assert_eq!(active.attr("id").await.unwrap().as_deref(), Some("q"));

        // Definition search.
        search(&c, "search", "chewed").await;
        let summary = wait_text(&c, "#summary", "whose definitions match").await;
        let hits = texts(&c, "ol.hits li").await;
        assert!(!hits.is_empty(), "{summary}");
        shot(&c, "desktop-search-chewed.png").await;

        // A bad pattern shows the server's error, not a broken page.
        search(&c, "pattern", "[").await;
        wait_text(&c, ".error", "pattern").await;

        // Phone size.
        c.set_window_size(390, 844).await.unwrap();
        c.goto(&format!("{base}?word=cares")).await.unwrap();
        wait_text(&c, "#senses", "inflection of CARE").await;
        shot(&c, "phone-word-cares.png").await;
        c.goto(&format!("{base}?mode=starts&q=qu")).await.unwrap();
        wait_text(&c, "#summary", "starting with QU").await;
        shot(&c, "phone-starts-qu.png").await;
        let width: serde_json::Value = c
            .execute("return document.documentElement.scrollWidth;", vec![])
            .await
            .unwrap();
        assert!(width.as_u64().unwrap() <= 390, "the page scrolls sideways on a phone: {width}");
        c.close().await.unwrap();
    });
    server.stop().unwrap();
}

fn fmt_thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// A chromedriver session of headless Chromium (JavaScript off when
/// `script` is false).
async fn session(port: u16, profile: &std::path::Path, script: bool) -> Client {
    let mut args = vec![
        "--headless=new".to_string(),
        "--no-sandbox".into(),
        "--disable-gpu".into(),
        "--disable-dev-shm-usage".into(),
        "--no-first-run".into(),
        "--disable-background-networking".into(),
        "--disable-component-update".into(),
        "--disable-sync".into(),
        format!("--user-data-dir={}", profile.display()),
    ];
    if !script {
        args.push("--blink-settings=scriptEnabled=false".into());
    }
    let mut caps = serde_json::Map::new();
    caps.insert("browserName".into(), "chrome".into());
    caps.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({"binary": "/usr/bin/chromium", "args": args}),
    );
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("chromedriver session")
}

/// The values of the options of the search box's completions, once
/// there are some.
async fn completions(c: &Client) -> Vec<String> {
    let start = Instant::now();
    loop {
        let v = c
            .execute(
                "return [...document.querySelectorAll('#lexq-completions option')].map((o) => o.value);",
                vec![],
            )
            .await
            .unwrap();
        let list: Vec<String> = serde_json::from_value(v).unwrap();
        if !list.is_empty() {
            return list;
        }
        assert!(start.elapsed() < Duration::from_secs(15), "no completions");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[test]
fn the_static_export_works_in_a_real_browser_with_no_server() {
    let dir = tempfile::tempdir().unwrap();
    let (site_dir, _) = fixture_site(dir.path());
    let site = Site::open(&site_dir).unwrap();
    let out = dir.path().join("export");
    let options = lexq_site::export::ExportOptions {
        base_url: "https://example.org".into(),
    };
    lexq_site::export::export(&site, &out, &options, &mut ()).unwrap();
    let (_python, addr) = needs!(serve_static(&out));
    let base = format!("http://{addr}");
    let (_driver, port) = needs!(start_driver());
    let profile = tempfile::tempdir().unwrap();
    let plain = tempfile::tempdir().unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let c = session(port, profile.path(), true).await;
        c.set_window_size(1200, 1000).await.unwrap();
        // A look-up from the search box: an inflection goes to its page,
        // which names its base form.
        c.goto(&format!("{base}/")).await.unwrap();
        let input = c.find(Locator::Css("#q")).await.unwrap();
        input.send_keys("ran").await.unwrap();
        // Completions as the visitor types: the word, its base form.
        assert_eq!(completions(&c).await, ["ran", "run"]);
        input.send_keys("\u{E007}").await.unwrap();
        wait_text(&c, "#word-title", "RAN").await;
        wait_text(&c, "#senses", "inflection of RUN").await;
        assert!(
            c.current_url()
                .await
                .unwrap()
                .as_str()
                .ends_with("/word/ran/")
        );
        shot(&c, "static-word-ran.png").await;
        // Its link to the base form is a page.
        c.find(Locator::Css("#senses a[href='/word/run/']"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        wait_text(&c, "#word-title", "RUN").await;
        // Completions of a prefix, shortest first.
        let input = c.find(Locator::Css("#q")).await.unwrap();
        input.send_keys("ca").await.unwrap();
        assert_eq!(
            completions(&c).await,
            ["cat", "care", "cats", "cared", "cares", "caring"]
        );
        // No such word: the nearest, and the server named for searching
        // definitions.
        c.goto(&format!("{base}/search/?q=carx")).await.unwrap();
        wait_text(&c, "#needs-server", "needs the lexq server").await;
        wait_text(&c, "#did-you-mean", "CARE").await;
        // An accented spelling finds the word.
        c.goto(&format!("{base}/search/?q=c%C3%A1re"))
            .await
            .unwrap();
        wait_text(&c, "#word-title", "CARE").await;
        // The word-game lists.
        c.goto(&format!("{base}/?mode=anagram&q=acre"))
            .await
            .unwrap();
        wait_text(&c, "#list-summary", "3 words anagrams of ACRE").await;
        assert_eq!(texts(&c, "#list-words a").await, ["ACRE", "CARE", "RACE"]);
        shot(&c, "static-anagram-acre.png").await;
        c.goto(&format!("{base}/?mode=pattern&q=c%3Fr*&length=5"))
            .await
            .unwrap();
        wait_text(&c, "#list-summary", "of 5 letters").await;
        assert_eq!(texts(&c, "#list-words a").await, ["CARED", "CARES"]);
        c.find(Locator::Css("input[name=mode][value=hooks]"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        let letters = c.find(Locator::Css("#letters")).await.unwrap();
        letters.clear().await.unwrap();
        letters.send_keys("care\u{E007}").await.unwrap();
        wait_text(&c, "#list-summary", "3 hooks of CARE").await;
        let line = wait_text(&c, "#hook-line", "CARE").await;
        assert_eq!(line.replace(['\n', ' '], ""), "SCAREDS");
        assert!(
            c.current_url()
                .await
                .unwrap()
                .as_str()
                .contains("mode=hooks&q=care")
        );
        c.close().await.unwrap();

        // With JavaScript off, a word page is whole.
        let c = session(port, plain.path(), false).await;
        c.goto(&format!("{base}/word/care/")).await.unwrap();
        let senses = wait_text(&c, "#senses", "").await;
        assert!(!senses.trim().is_empty());
        wait_text(&c, "#anagrams", "RACE").await;
        // (The script did not run: it adds the completions' list.)
        assert!(c.find(Locator::Css("#lexq-completions")).await.is_err());
        c.close().await.unwrap();
    });
}

/// The server's pages as a visitor meets them in Chromium: completions as
/// they type, a look-up that lands on the word's page (an inflection and
/// an accented spelling too), did-you-mean for a misspelling, a search
/// in plain words with an apostrophe, and a word page read with
/// JavaScript off.
#[test]
fn the_server_pages_work_in_a_real_browser() {
    let (_, site_dir, _) = needs!(enable_site());
    let site = Site::open(site_dir).unwrap();
    let state = AppState::new(Lexicon::embedded(), Some(site), Limits::default(), false);
    let server = Server::start("127.0.0.1:0", state).unwrap();
    let base = format!("http://{}", server.addr());
    let (_driver, port) = needs!(start_driver());
    let profile = tempfile::tempdir().unwrap();
    let plain = tempfile::tempdir().unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let c = session(port, profile.path(), true).await;
        c.set_window_size(1200, 1000).await.unwrap();
        c.goto(&format!("{base}/")).await.unwrap();
        // Completions as the visitor types, the commonest first.
        let input = c.find(Locator::Css("#q")).await.unwrap();
        input.send_keys("bec").await.unwrap();
        let start = Instant::now();
        let list = loop {
            let v = c
                .execute(
                    "return [...document.querySelectorAll('#completions option')].map((o) => o.value);",
                    vec![],
                )
                .await
                .unwrap();
            let list: Vec<String> = serde_json::from_value(v).unwrap();
            if !list.is_empty() {
                break list;
            }
            assert!(start.elapsed() < Duration::from_secs(15), "no completions");
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        assert!(
            list.iter().all(|w| w.to_lowercase().starts_with("bec")),
            "{list:?}"
        );
        // WordNet's tag counts: BECOME (and its forms, which take its
        // count) before BECKON.
        let at = |w: &str| list.iter().position(|x| x.eq_ignore_ascii_case(w));
        assert!(at("become").unwrap() < at("beckon").unwrap(), "{list:?}");
        // A look-up: an inflection goes to its page, which names its base.
        input.send_keys("\u{E003}\u{E003}\u{E003}ran\u{E007}").await.unwrap();
        wait_text(&c, "body", "RUN").await;
        assert!(c.current_url().await.unwrap().path().ends_with("/word/ran"));
        // An accented spelling: the word's page.
        c.goto(&format!("{base}/")).await.unwrap();
        search(&c, "lookup", "café").await;
        wait_text(&c, "h1", "CAFE").await;
        // A misspelling: did you mean, the nearest words.
        c.goto(&format!("{base}/")).await.unwrap();
        search(&c, "lookup", "recieve").await;
        wait_text(&c, "#did-you-mean", "RECEIVE").await;
        // Plain words with an apostrophe: a definition search, not an
        // error, its words marked in the sense shown.
        c.goto(&format!("{base}/")).await.unwrap();
        search(&c, "lookup", "one's feet").await;
        let hits = wait_text(&c, "ol.hits", "").await;
        assert!(!hits.is_empty());
        let marked = texts(&c, "ol.hits mark").await;
        assert!(marked.iter().any(|m| m.eq_ignore_ascii_case("feet")), "{marked:?}");
        // WordNet's relations in the script's word view: an opposite, a
        // usage label and the offensive flag (PAPIST: disparagement).
        c.goto(&format!("{base}/?word=happy")).await.unwrap();
        wait_text(&c, "#senses", "opposite: UNHAPPY").await;
        c.goto(&format!("{base}/?word=papist")).await.unwrap();
        let papist = wait_text(&c, "#senses", "(disparagement)").await;
        assert!(papist.to_lowercase().contains("offensive"), "{papist}");
        c.close().await.unwrap();
        // With JavaScript off, a word page is whole: its senses and links.
        let c = session(port, plain.path(), false).await;
        c.goto(&format!("{base}/word/care")).await.unwrap();
        wait_text(&c, "body", "feel concern or interest").await;
        let links = c.find_all(Locator::Css("a[href='/word/cares']")).await.unwrap();
        assert!(!links.is_empty());
        // And its relations, linked.
        c.goto(&format!("{base}/word/dog")).await.unwrap();
        wait_text(&c, "body", "a kind of: CANINE").await;
        let links = c.find_all(Locator::Css("div.hypo a[href='/word/puppy']")).await.unwrap();
        assert!(!links.is_empty());
        c.close().await.unwrap();
    });
    server.stop().unwrap();
}
