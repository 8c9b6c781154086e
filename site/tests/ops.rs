//! What a site owner runs a server with: `ETag`s that replicas built
//! apart agree on, `/healthz`, `/metrics` counting what was served, and
//! reloads (refused when the new files do not hold together).

mod common;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;

use common::*;
use lexq_site::Site;
use lexq_site::build::build;
use lexq_site::serve::{AppState, Limits, ServeOptions, Server};

/// One GET on a connection of its own: the status, the head, the body.
fn fetch_raw(addr: SocketAddr, path: &str) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let raw = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = raw.split_once("\r\n\r\n").expect("a head");
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, head.to_string(), body.to_string())
}

fn header(head: &str, name: &str) -> Option<String> {
    head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.eq_ignore_ascii_case(name).then(|| v.trim().to_string())
    })
}

/// The fixture site built in `dir` (its lexicon beside it), with one
/// more definitions file holding `extra` if given.
fn site_in(dir: &Path, extra: Option<&str>) -> Site {
    let (lex, path) = fixture_lexicon(dir);
    let mut opts = fixture_options();
    if let Some(text) = extra {
        let file = dir.join("more.tsv");
        std::fs::write(&file, text).unwrap();
        opts.definitions.push(file);
    }
    let out = dir.join("site");
    build(&lex, Some(&path), &opts, &out, &mut ()).unwrap();
    Site::open(&out).unwrap()
}

fn serve(site: Site, options: ServeOptions) -> Server {
    let lex = site.lexicon().unwrap();
    let state = AppState::new(lex, Some(site), Limits::default(), false).with_options(options);
    Server::start("127.0.0.1:0", state).unwrap()
}

#[test]
fn sites_built_apart_from_the_same_inputs_send_the_same_etags() {
    let (a, b, c) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let one = serve(site_in(a.path(), None), ServeOptions::default());
    let two = serve(site_in(b.path(), None), ServeOptions::default());
    // Another definition of CARE: another site.
    let other = serve(
        site_in(c.path(), Some("care\tn\ta sense only the third site has\n")),
        ServeOptions::default(),
    );
    for path in [
        "/api/v1/word/care",
        "/api/v1/search?q=cat",
        "/api/v1/anagram/acre",
        "/api/v1/hooks/care",
        "/",
    ] {
        let (s1, h1, b1) = fetch_raw(one.addr(), path);
        let (s2, h2, b2) = fetch_raw(two.addr(), path);
        assert_eq!((s1, s2), (200, 200), "{path}");
        // The same answer ...
        assert_eq!(b1, b2, "{path}");
        // ... with the same tag.
        let (t1, t2) = (header(&h1, "etag"), header(&h2, "etag"));
        assert!(t1.is_some(), "{path}: {h1}");
        assert_eq!(t1, t2, "{path}");
    }
    let (_, h1, b1) = fetch_raw(one.addr(), "/api/v1/word/care");
    let (_, h3, b3) = fetch_raw(other.addr(), "/api/v1/word/care");
    assert!(b3.contains("a sense only the third site has"), "{b3}");
    assert_ne!(b1, b3);
    assert_ne!(header(&h1, "etag"), header(&h3, "etag"));
}

/// The value of the sample `name` (with its labels, as the text format
/// writes them) in `text`; 0 when absent.
fn sample(text: &str, name: &str) -> f64 {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
        .map_or(0.0, |v| v.trim().parse().unwrap())
}

fn metrics(addr: SocketAddr) -> String {
    let (status, head, body) = fetch_raw(addr, "/metrics");
    assert_eq!(status, 200, "{head}");
    assert!(
        header(&head, "content-type")
            .unwrap()
            .starts_with("application/openmetrics-text"),
        "{head}"
    );
    assert_eq!(header(&head, "cache-control").as_deref(), Some("no-store"));
    assert!(body.ends_with("# EOF\n"), "{body}");
    body
}

#[test]
fn healthz_and_metrics_count_what_is_served() {
    let dir = tempfile::tempdir().unwrap();
    let server = serve(
        site_in(dir.path(), None),
        ServeOptions {
            max_client_connections: 2,
            ..Default::default()
        },
    );
    let a = server.addr();
    let (status, head, body) = fetch_raw(a, "/healthz");
    assert_eq!((status, body.as_str()), (200, "ok\n"), "{head}");
    assert_eq!(header(&head, "cache-control").as_deref(), Some("no-store"));
    assert!(header(&head, "etag").is_none(), "{head}");

    let word = r#"lexq_requests_total{route="/api/v1/word/{w}",status="200"}"#;
    let lost = r#"lexq_requests_total{route="unmatched",status="404"}"#;
    let timed = r#"lexq_request_seconds_count{route="/api/v1/word/{w}"}"#;
    let before = metrics(a);
    assert_eq!(sample(&before, word), 0.0, "{before}");
    for _ in 0..3 {
        assert_eq!(fetch_raw(a, "/api/v1/word/care").0, 200);
    }
    for _ in 0..2 {
        assert_eq!(fetch_raw(a, "/no/such/page").0, 404);
    }
    let after = metrics(a);
    assert_eq!(sample(&after, word), 3.0, "{after}");
    assert_eq!(sample(&after, lost), 2.0, "{after}");
    assert_eq!(sample(&after, timed), 3.0, "{after}");
    // Neither /healthz nor /metrics counts as a request of the API.
    assert!(!after.contains("route=\"/metrics\""), "{after}");
    // This request's own connection.
    assert!(sample(&after, "lexq_connections_open") >= 1.0, "{after}");
    assert_eq!(sample(&after, "lexq_heavy_in_flight"), 0.0, "{after}");

    // A third connection from the address over its cap of two: 429,
    // counted by its reason.
    let held = [
        TcpStream::connect(a).unwrap(),
        TcpStream::connect(a).unwrap(),
    ];
    std::thread::sleep(std::time::Duration::from_millis(100));
    let mut refused = TcpStream::connect(a).unwrap();
    let mut answer = String::new();
    let _ = refused.read_to_string(&mut answer);
    // The 429 is written as the socket closes: the client may see only
    // the close; the count below is the check.
    assert!(
        answer.is_empty() || answer.starts_with("HTTP/1.1 429"),
        "{answer}"
    );
    drop(held);
    std::thread::sleep(std::time::Duration::from_millis(100));
    let text = metrics(a);
    assert_eq!(
        sample(&text, r#"lexq_refused_total{reason="connections"}"#),
        1.0,
        "{text}"
    );

    // Reloads, done and refused, counted.
    let site = Site::open(&dir.path().join("site")).unwrap();
    server.reload(site.lexicon().unwrap(), Some(site)).unwrap();
    let site = Site::open(&dir.path().join("site")).unwrap();
    let e = server
        .reload(lexq::Lexicon::embedded(), Some(site))
        .unwrap_err();
    assert!(e.to_string().contains("word list"), "{e}");
    assert_eq!(fetch_raw(a, "/api/v1/word/care").0, 200);
    let text = metrics(a);
    assert_eq!(
        sample(&text, r#"lexq_reloads_total{outcome="done"}"#),
        1.0,
        "{text}"
    );
    assert_eq!(
        sample(&text, r#"lexq_reloads_total{outcome="refused"}"#),
        1.0,
        "{text}"
    );
    // The counts went on across the reload.
    assert_eq!(sample(&text, word), 4.0, "{text}");
}

/// A site opened in place (as `lexq site search` opens it) leaves
/// tantivy's lock file in its index folder; a server loading the site
/// into memory afterwards must still open it (it copied the lock file,
/// which then read as held: "Failed to acquire Lockfile: LockBusy").
#[test]
fn a_site_searched_in_place_can_still_be_served() {
    let dir = tempfile::tempdir().unwrap();
    let site = site_in(dir.path(), None);
    let found = site.search("definition:feline", 10, 0).unwrap().total;
    assert!(found > 0);
    drop(site);
    let index = dir.path().join("site/index");
    let locks: Vec<String> = std::fs::read_dir(&index)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".lock"))
        .collect();
    assert!(!locks.is_empty(), "no lock file left: the test is moot");
    let loaded = Site::load(&dir.path().join("site")).unwrap();
    assert_eq!(
        loaded.search("definition:feline", 10, 0).unwrap().total,
        found
    );
}
