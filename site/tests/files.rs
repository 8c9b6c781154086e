//! A request never names a file: every route of the server (read from its
//! source, so a route added later is crawled too) is sent path-like
//! inputs, in its path, its query string and its body, and CGP lines
//! whose `bdn`, `ld` and `lex` name them: `/etc/passwd`, `..` climbs, a
//! file outside the allowed folder, a symlink out of it, FIFOs, devices.
//! No answer may be a 500 or a 503, hold a path of the server's machine
//! or a byte of those files, or tell a missing file from a forbidden one;
//! no FIFO may be opened (a thread watches for a reader on each, and
//! frees one that blocks). `/api/v1/info` holds no path at all.

#![cfg(unix)]

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use common::*;
use lexq::files::FilePolicy;
use lexq_site::Site;
use lexq_site::serve::{AppState, Limits, Server};
use serde_json::Value;

/// A marker in the secret file, which no answer may hold.
const SECRET: &str = "root:x:0:0:lexq-secret-4417:/root:/bin/bash";

const EMPTY15: &str = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 CAT/ 0/0 0";
const EMPTY5: &str = "5/5/5/5/5 CAT/ 0/0 0";
const TINY: &str = "#...#\n.-.-.\n..*..\n.-.-.\n#...#\n";

/// `open(2)`'s O_NONBLOCK here (tests run on Linux and macOS).
#[cfg(target_os = "linux")]
const O_NONBLOCK: i32 = 0o4000;
#[cfg(not(target_os = "linux"))]
const O_NONBLOCK: i32 = 0x4;

fn mkfifo(path: &Path) {
    let ok = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(ok.success());
}

/// Whether some reader has `fifo` open (a non-blocking open for writing
/// succeeds only then); the open also frees a reader blocked in `open`.
fn reader_waits(fifo: &Path) -> bool {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new()
        .write(true)
        .custom_flags(O_NONBLOCK)
        .open(fifo)
        .is_ok()
}

/// Watches `fifos` until dropped; `opened` tells whether any was opened.
struct Tripwire {
    stop: Arc<AtomicBool>,
    opened: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Tripwire {
    fn new(fifos: Vec<PathBuf>) -> Tripwire {
        let stop = Arc::new(AtomicBool::new(false));
        let opened = Arc::new(AtomicBool::new(false));
        let (s, o) = (stop.clone(), opened.clone());
        let thread = std::thread::spawn(move || {
            while !s.load(Ordering::SeqCst) {
                for f in &fifos {
                    if reader_waits(f) {
                        o.store(true, Ordering::SeqCst);
                    }
                }
                std::thread::sleep(Duration::from_millis(2));
            }
        });
        Tripwire {
            stop,
            opened,
            thread: Some(thread),
        }
    }

    fn opened(&self) -> bool {
        self.opened.load(Ordering::SeqCst)
    }
}

impl Drop for Tripwire {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Percent-encodes everything but unreserved characters.
fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The routes of the server: every `.route("...")` in site/src.
fn routes() -> Vec<String> {
    fn walk(dir: &Path, out: &mut Vec<String>) {
        for e in fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let text = fs::read_to_string(&p).unwrap();
                let mut rest = text.as_str();
                while let Some(at) = rest.find(".route(") {
                    rest = rest[at + 7..].trim_start();
                    if let Some(r) = rest.strip_prefix('"') {
                        let end = r.find('"').unwrap();
                        out.push(r[..end].to_string());
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut out);
    out.sort();
    out.dedup();
    out
}

/// `route` with each `{param}` replaced by `value` (encoded).
fn fill(route: &str, value: &str) -> String {
    let mut out = String::new();
    let mut rest = route;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let close = rest[open..].find('}').unwrap() + open;
        out.push_str(&enc(value));
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

struct Setup {
    dir: tempfile::TempDir,
    allowed: PathBuf,
    outside: PathBuf,
    /// The paths that the answers must not hold: the temporary folder
    /// (as given and resolved), the workspace, the home folder.
    private: Vec<String>,
}

fn setup() -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let allowed = dir.path().join("allowed");
    let outside = dir.path().join("outside");
    fs::create_dir(&allowed).unwrap();
    fs::create_dir(&outside).unwrap();
    fs::write(allowed.join("tiny.txt"), TINY).unwrap();
    fs::write(allowed.join("bad.txt"), format!("{SECRET}\n..\n")).unwrap();
    fs::write(outside.join("tiny.txt"), TINY).unwrap();
    fs::write(outside.join("secret.txt"), format!("{SECRET}\n..\n")).unwrap();
    mkfifo(&allowed.join("fifo"));
    mkfifo(&outside.join("fifo"));
    std::os::unix::fs::symlink(outside.join("secret.txt"), allowed.join("link.txt")).unwrap();
    let mut private = vec![
        dir.path().display().to_string(),
        fs::canonicalize(dir.path()).unwrap().display().to_string(),
        fs::canonicalize(env!("CARGO_MANIFEST_DIR"))
            .unwrap()
            .display()
            .to_string(),
        std::env::current_dir().unwrap().display().to_string(),
    ];
    if let Some(home) = std::env::var_os("HOME").filter(|h| h.len() > 1) {
        private.push(PathBuf::from(home).display().to_string());
    }
    Setup {
        dir,
        allowed,
        outside,
        private,
    }
}

fn start(t: &Setup, files: Option<FilePolicy>) -> Server {
    let (out, _) = fixture_site(t.dir.path());
    let site = Site::open(&out).unwrap();
    let lex = site.lexicon().unwrap();
    let limits = Limits {
        timeout: Duration::from_secs(3),
        ..Limits::default()
    };
    let mut state = AppState::new(lex, Some(site), limits, false);
    if let Some(files) = files {
        state = state.with_files(files);
    }
    Server::start("127.0.0.1:0", state).unwrap()
}

fn p(path: &Path) -> String {
    path.display().to_string()
}

/// The path-like inputs: none of them may be opened.
fn hostile_inputs(t: &Setup) -> Vec<String> {
    vec![
        "/etc/passwd".into(),
        "../../../../../../../../etc/passwd".into(),
        "..".into(),
        "/".into(),
        "/dev/zero".into(),
        "/proc/self/environ".into(),
        "~/.bashrc".into(),
        "file:///etc/passwd".into(),
        "C:\\Windows\\win.ini".into(),
        p(&t.outside.join("secret.txt")),
        p(&t.outside.join("tiny.txt")),
        p(&t.outside.join("missing.txt")),
        p(&t.outside.join("fifo")),
        p(&t.allowed.join("fifo")),
        p(&t.allowed.join("link.txt")),
        p(&t.allowed.join("../outside/secret.txt")),
        p(&t.allowed.join("missing.txt")),
        p(&t.outside),
    ]
}

/// Checks one answer to a request that carried `input`: no 500 or 503,
/// and, with the echoed input taken out, no private path, no secret and
/// no word about the file system.
#[track_caller]
fn check(t: &Setup, what: &str, input: &str, status: u16, body: &[u8]) {
    let body = String::from_utf8_lossy(body);
    assert!(status != 500 && status != 503, "{what}: {status} {body}");
    let mut rest = body.replace(input, "INPUT");
    // Long names are cut to 60 characters and an ellipsis in messages.
    let cut = format!("{}…", input.chars().take(60).collect::<String>());
    for echo in [
        format!("{input:?}"),
        enc(input),
        input.replace('\\', "\\\\"),
        cut,
        // A word page names the word asked for in capitals.
        input.to_uppercase(),
    ] {
        rest = rest.replace(&echo, "INPUT");
    }
    for private in &t.private {
        assert!(
            !rest.contains(private.as_str()),
            "{what}: {private} in {body}"
        );
    }
    for word in [
        "lexq-secret",
        "root:",
        "No such file",
        "os error",
        "ermission denied",
        "FIFO",
        "regular file",
        "squares in a row",
        "is a directory",
    ] {
        assert!(!rest.contains(word), "{what}: {word:?} in {body}");
    }
}

/// `what "name": reason` as `what NAME: reason` (a long name is cut in
/// messages: the reason is what is compared).
fn unnamed(message: &str) -> String {
    let (what, _) = message.split_once(" \"").unwrap();
    let (_, reason) = message.rsplit_once("\": ").unwrap();
    format!("{what} NAME: {reason}")
}

#[test]
fn no_request_opens_or_reveals_a_file() {
    let t = setup();
    let server = start(&t, Some(FilePolicy::allow([&t.allowed]).unwrap()));
    let a = server.addr();
    let wire = Tripwire::new(vec![t.allowed.join("fifo"), t.outside.join("fifo")]);
    // Every route today (a route written otherwise than `.route("...")`
    // would be missed: this count says so).
    let routes = routes();
    assert!(routes.len() >= 15, "{routes:?}");
    for expected in [
        "/api/v1/info",
        "/api/v1/moves",
        "/api/v1/word/{w}",
        "/licence",
    ] {
        assert!(
            routes.iter().any(|r| r == expected),
            "{expected} not in {routes:?}"
        );
    }
    let inputs = hostile_inputs(&t);
    let names = [
        "q", "words", "file", "path", "lexicon", "layout", "cgp", "site",
    ];
    let mut posts = Vec::new();
    for route in &routes {
        for input in &inputs {
            let path = fill(route, input);
            let (s, _, body) = request(a, "GET", &path);
            check(&t, &format!("GET {path}"), input, s, &body);
            let (s, _, body) = request_with(a, "POST", &path, Some(input.as_bytes()));
            check(&t, &format!("POST {path}"), input, s, &body);
            if s != 405 && s != 404 && !posts.contains(route) {
                posts.push(route.clone());
            }
            for name in names {
                let path = format!("{}?{name}={}", fill(route, "cat"), enc(input));
                let (s, _, body) = request(a, "GET", &path);
                check(&t, &format!("GET {path}"), input, s, &body);
            }
        }
    }
    // Paths that climb out of the routes, unencoded.
    for raw in [
        "/../../../../etc/passwd",
        "/api/v1/../../../etc/passwd",
        "/licence/../../etc/passwd",
        "/api/v1/word/..%2F..%2F..%2Fetc%2Fpasswd",
        "/%2e%2e/%2e%2e/etc/passwd",
    ] {
        let (s, _, body) = request(a, "GET", raw);
        check(&t, raw, "", s, &body);
        assert!(s == 404 || s == 400, "{raw}: {s}");
    }
    // CGP lines naming each input as the layout, the tile set and the
    // lexicon, to every route that takes a body: one message a kind for
    // every refused name, missing or there, in or out.
    assert!(posts.contains(&"/api/v1/moves".to_string()), "{posts:?}");
    let mut messages: BTreeMap<(&str, String), BTreeSet<String>> = BTreeMap::new();
    for route in &posts {
        for input in &inputs {
            for op in ["bdn", "ld", "lex"] {
                // A 5x5 board needs its bdn: the tile set is read after.
                let boards: &[&str] = if op == "ld" {
                    &[EMPTY15]
                } else {
                    &[EMPTY15, EMPTY5]
                };
                for board in boards {
                    let line = format!("{board} {op} {input};");
                    let (s, _, body) = request_with(a, "POST", route, Some(line.as_bytes()));
                    check(&t, &format!("POST {route} {line}"), input, s, &body);
                    if op == "lex" {
                        // The server's lexicon judges: `lex` is not followed.
                        assert!(s == 200 || s == 400, "{line}: {s}");
                        continue;
                    }
                    assert_eq!(s, 400, "{line}");
                    let v: Value = serde_json::from_slice(&body).unwrap();
                    let e = v["error"].as_str().unwrap();
                    messages
                        .entry((op, route.clone()))
                        .or_default()
                        .insert(unnamed(e));
                }
            }
        }
    }
    for ((op, route), m) in &messages {
        assert_eq!(m.len(), 1, "{op} to {route}: several messages {m:#?}");
    }
    assert!(!wire.opened(), "a FIFO was opened");
    // No path in the info at all: every string is a plain name.
    let (s, v) = get(a, "/api/v1/info");
    assert_eq!(s, 200);
    fn strings<'v>(v: &'v Value, out: &mut Vec<&'v str>) {
        match v {
            Value::String(s) => out.push(s),
            Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
            Value::Object(o) => o.values().for_each(|x| strings(x, out)),
            _ => {}
        }
    }
    let mut all = Vec::new();
    strings(&v, &mut all);
    assert!(all.contains(&"lexicon.lexq"), "{v}");
    assert!(all.contains(&"words.lexq"), "{v}");
    for s in all {
        assert!(
            !s.contains('/') && !s.contains('\\'),
            "a path in the info: {s:?} in {v}"
        );
    }
    let (_, _, body) = request(a, "GET", "/api/v1/info");
    check(&t, "info", "\u{0}", 200, &body);
}

#[test]
fn allowed_files_are_served_and_nothing_else() {
    let t = setup();
    let server = start(&t, Some(FilePolicy::allow([&t.allowed]).unwrap()));
    let a = server.addr();
    let tiny = p(&t.allowed.join("tiny.txt"));
    let (s, v) = post(a, "/api/v1/moves", &format!("{EMPTY5} bdn {tiny};"));
    // The fixture lexicon holds ACT and CAT, no two-letter word: across
    // only on an empty board, through the centre of 5 squares, 3 places
    // each.
    assert_eq!((s, v["total"].as_u64()), (200, Some(6)), "{v}");
    // An allowed file that is no layout: no line, no count, no content.
    let bad = p(&t.allowed.join("bad.txt"));
    let (s, v) = post(a, "/api/v1/moves", &format!("{EMPTY5} bdn {bad};"));
    assert_eq!(s, 400);
    assert_eq!(
        unnamed(v["error"].as_str().unwrap()),
        "board layout NAME: not a valid board layout file"
    );
    // The same file outside the folder: the message of a missing one.
    let missing = p(&t.allowed.join("missing.txt"));
    let outside = p(&t.outside.join("tiny.txt"));
    let (_, m) = post(a, "/api/v1/moves", &format!("{EMPTY5} bdn {missing};"));
    let (_, o) = post(a, "/api/v1/moves", &format!("{EMPTY5} bdn {outside};"));
    let m = unnamed(m["error"].as_str().unwrap());
    let o = unnamed(o["error"].as_str().unwrap());
    assert_eq!(m, o);
    assert_eq!(
        m,
        "board layout NAME: not a built-in board layout (standard, super, friends) \
         nor a file allowed here"
    );
}

#[test]
fn by_default_the_server_opens_no_file() {
    let t = setup();
    let server = start(&t, None);
    let a = server.addr();
    let wire = Tripwire::new(vec![t.allowed.join("fifo")]);
    for name in [
        p(&t.allowed.join("tiny.txt")),
        p(&t.allowed.join("fifo")),
        p(&t.allowed.join("missing")),
        "/etc/passwd".to_string(),
    ] {
        let (s, v) = post(a, "/api/v1/moves", &format!("{EMPTY5} bdn {name};"));
        assert_eq!(s, 400, "{v}");
        assert_eq!(
            unnamed(v["error"].as_str().unwrap()),
            "board layout NAME: not a built-in board layout (standard, super, friends); \
             files are not allowed here"
        );
    }
    // Built-in names are served.
    let (s, v) = post(
        a,
        "/api/v1/moves",
        &format!("{EMPTY15} bdn standard; ld english;"),
    );
    assert_eq!((s, v["total"].as_u64()), (200, Some(6)), "{v}");
    assert!(!wire.opened());
}
