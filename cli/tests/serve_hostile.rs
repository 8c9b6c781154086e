//! `lexq serve` as a site owner runs it, against what its surroundings do
//! to it (issue 30): its files truncated under it by a deploy, and its
//! log a pipe that nobody reads.

mod common;

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::Duration;

use tempfile::TempDir;

use common::*;

/// Builds the fixture lexicon and site in `dir`: their paths.
fn fixture_site(dir: &TempDir) -> (PathBuf, PathBuf) {
    let lexicon = dir.path().join("words.lexq");
    let o = run(&[
        "build",
        fixture_data().join("words.txt").to_str().unwrap(),
        "-o",
        lexicon.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let site = dir.path().join("site");
    let o = run(&[
        "site",
        "build",
        "-L",
        lexicon.to_str().unwrap(),
        "--wordnet",
        fixture_data().join("wordnet").to_str().unwrap(),
        "--definitions",
        fixture_data().join("defs.tsv").to_str().unwrap(),
        "-o",
        site.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    (lexicon, site)
}

/// The address in the "serving" line.
fn address_of(line: &str) -> String {
    line.split("http://")
        .nth(1)
        .unwrap_or_else(|| panic!("{line}"))
        .split('/')
        .next()
        .unwrap()
        .to_string()
}

/// `lexq serve ARGS` on a free loopback port, its stderr read by a thread
/// of its own: the child, its address, and the log's lines so far.
fn serve(args: &[&str]) -> (Child, String, std::sync::Arc<std::sync::Mutex<String>>) {
    let mut child = lexq()
        .args(["serve", "--addr", "127.0.0.1:0"])
        .args(args)
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    err.read_line(&mut line).unwrap();
    let addr = address_of(&line);
    let log = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let kept = log.clone();
    std::thread::spawn(move || {
        let mut l = String::new();
        while err.read_line(&mut l).is_ok_and(|n| n > 0) {
            kept.lock().unwrap().push_str(&l);
            l.clear();
        }
    });
    (child, addr, log)
}

/// Truncates `path` to nothing in place, as `: > path` or `cp` over it
/// does first.
fn truncate(path: &Path) {
    std::fs::File::create(path).unwrap();
}

/// What a deploy by `cp` over the live folder does: every served file
/// truncated in place. A server mapping them died of SIGBUS at the next
/// request (exit 135, nothing logged); it now answers from the copies it
/// read at start. Checked to fail with the site opened by `Site::open`
/// (mapped) and the lexicon by `Lexicon::open_checked`.
#[test]
fn serve_survives_its_files_truncated_under_it() {
    let dir = TempDir::new().unwrap();
    let (lexicon, site) = fixture_site(&dir);
    let (mut with_site, site_addr, site_log) = serve(&["--site", site.to_str().unwrap()]);
    let (mut with_lexicon, lex_addr, _) = serve(&["-L", lexicon.to_str().unwrap()]);
    let ask = |addr: &str, with_site: bool| {
        let (status, body) = http_get(addr, "/api/v1/word/geese");
        assert_eq!(status, 200, "{body}");
        if with_site {
            assert!(body.contains("\"base_forms\":[\"GOOSE\"]"), "{body}");
            let (status, body) = http_get(addr, "/api/v1/search?q=word:geese");
            assert_eq!(status, 200, "{body}");
            assert!(body.contains("\"word\":\"GEESE\""), "{body}");
        }
        let (status, body) = http_get(addr, "/api/v1/anagram/eseeg");
        assert_eq!(status, 200, "{body}");
        assert!(body.contains("\"word\":\"GEESE\""), "{body}");
    };
    ask(&site_addr, true);
    ask(&lex_addr, false);
    for entry in std::fs::read_dir(site.join("index")).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            truncate(&path);
        }
    }
    truncate(&site.join("lexicon.lexq"));
    truncate(&lexicon);
    for _ in 0..3 {
        ask(&site_addr, true);
        ask(&lex_addr, false);
    }
    for child in [&mut with_site, &mut with_lexicon] {
        assert!(child.try_wait().unwrap().is_none(), "the server died");
        signal(child, "TERM");
        let status = wait_or_kill(child, 10);
        assert!(status.success(), "{status}");
    }
    let log = site_log.lock().unwrap().clone();
    assert!(!log.contains("panicked"), "{log}");
}

/// Whether `line` begins with an RFC 3339 time in UTC and a space.
fn stamped(line: &str) -> bool {
    let b = line.as_bytes();
    b.len() > 25
        && b[4] == b'-'
        && b[7] == b'-'
        && b[10] == b'T'
        && b[13] == b':'
        && b[16] == b':'
        && b[23] == b'Z'
        && b[24] == b' '
        && line[..4].bytes().all(|c| c.is_ascii_digit())
}

/// The log a pipe nobody reads (`lexq serve 2> fifo`, the reader gone):
/// every request used to wait on its log line once the pipe was full
/// (about 1,400 requests), and a long path was logged whole. Now lines
/// are queued and dropped, counted, when the queue is full; fields are
/// cut; every line is stamped. Checked to fail with the log written on
/// the request's own task (requests time out once the pipe is full).
#[test]
fn serve_never_waits_on_its_log() {
    let (reader, writer) = std::io::pipe().unwrap();
    let mut child = {
        let mut cmd = lexq();
        cmd.args(["serve", "--addr", "127.0.0.1:0"])
            .stderr(Stdio::from(writer))
            .stdout(Stdio::null());
        cmd.spawn().unwrap()
        // The command, and this process's copy of the pipe's writing end,
        // are dropped here.
    };
    let mut log = BufReader::new(reader);
    let mut line = String::new();
    log.read_line(&mut line).unwrap();
    let addr = address_of(&line);
    // A 30,000-byte path (under the 32 KiB head): logged cut, stamped.
    let long = format!("/api/v1/word/{}", "a".repeat(30_000));
    assert_eq!(http_get(&addr, &long).0, 400);
    line.clear();
    log.read_line(&mut line).unwrap();
    assert!(line.len() < 1000, "{} bytes: {}", line.len(), &line[..200]);
    assert!(stamped(&line), "{line}");
    assert!(line.contains("...[30013 bytes]\" 400 "), "{line}");
    // Nobody reads the log now: 64 KiB of pipe, then the queue, fill.
    let path = format!("/api/v1/word/care?pad={}", "b".repeat(90));
    for i in 0..8000 {
        let (status, _) = http_get(&addr, &path);
        assert_eq!(status, 200, "request {i}");
    }
    // Read again: the queued lines come, and how many were dropped.
    let rest = std::thread::spawn(move || {
        let mut rest = String::new();
        let _ = log.read_to_string(&mut rest);
        rest
    });
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(http_get(&addr, "/api/v1/word/care").0, 200);
    signal(&child, "TERM");
    let status = wait_or_kill(&mut child, 10);
    assert!(status.success(), "{status}");
    let rest = rest.join().unwrap();
    let lines: Vec<&str> = rest.lines().collect();
    assert!(lines.len() < 8000, "{} lines", lines.len());
    let dropped = lines
        .iter()
        .find(|l| l.contains(" log lines dropped so far"))
        .unwrap_or_else(|| panic!("no count of dropped lines in {} lines", lines.len()));
    assert!(stamped(dropped), "{dropped}");
    assert!(
        rest.contains("\"GET /api/v1/word/care\" 200"),
        "the log lost lines once read again"
    );
}
