//! `lexq site build/search/export` and `lexq serve` end to end, on the site
//! layer's hand-made fixtures (site/tests/data).

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::Stdio;

use tempfile::TempDir;

use common::*;

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Builds the fixture lexicon and site in `dir`; the site's path.
fn fixture_site(dir: &TempDir) -> (PathBuf, PathBuf) {
    let lexicon = dir.path().join("words.lexq");
    let o = run(&[
        "build",
        fixture_data().join("words.txt").to_str().unwrap(),
        "-o",
        lexicon.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
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
        "-v",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(err.contains("skipped 2 unusable definition lines"), "{err}");
    assert!(err.contains("defs.tsv:6: no tab"), "{err}");
    assert!(
        err.contains("1 definition of 1 word not in the lexicon went unused: XYLYL"),
        "{err}"
    );
    assert!(err.contains("25 documents"), "{err}");
    (lexicon, site)
}

#[test]
fn site_build_search_and_export() {
    let dir = TempDir::new().unwrap();
    let (_, site) = fixture_site(&dir);
    let s = site.to_str().unwrap();

    // A closed pipe is a quiet end of output (it was "Broken pipe", 2).
    for json in [false, true] {
        let mut args = vec!["site", "search", "--site", s, "*"];
        if json {
            args.push("--json");
        }
        let mut child = lexq()
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        assert_eq!(text(&o.stderr), "");
    }

    // A definition is found on the word whose sense it is (shown with the
    // sense that matched), its inflections by their base form (each shown
    // with its first sense).
    let o = run(&["site", "search", "--site", s, "definition:\"feel concern\""]);
    assert_eq!(o.status.code(), Some(0));
    let out = text(&o.stdout);
    let words: Vec<&str> = out.lines().map(|l| l.split('\t').next().unwrap()).collect();
    assert_eq!(words, ["CARE"]);
    assert!(
        out.lines()
            .any(|l| l.starts_with("CARE\t6\tfeel concern or interest")),
        "{out}"
    );
    let o = run(&["site", "search", "--site", s, "base_form:care"]);
    assert_eq!(o.status.code(), Some(0));
    let out = text(&o.stdout);
    let mut words: Vec<&str> = out.lines().map(|l| l.split('\t').next().unwrap()).collect();
    words.sort();
    assert_eq!(words, ["CARED", "CARES", "CARING"]);
    assert!(
        out.lines()
            .any(|l| l.starts_with("CARES\t7\tthe work of providing")),
        "{out}"
    );

    let o = run(&[
        "site",
        "search",
        "--site",
        s,
        "alphagram:ACER",
        "--json",
        "--limit",
        "2",
        "--offset",
        "1",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["total"], 3);
    assert_eq!(v["hits"].as_array().unwrap().len(), 2);

    let o = run(&["site", "search", "--site", s, "definition:nothinglikethis"]);
    assert_eq!(o.status.code(), Some(1));
    assert_error(
        &run(&["site", "search", "--site", s, "definition:("]),
        "query",
    );
    // A query over its bounds is refused before it runs, with the reason;
    // the bounds are options.
    for (args, why) in [
        (&["--max-terms", "1", "care race"][..], "terms"),
        (&["definition:\"feel concern\"~40"][..], "slop"),
        (
            &["--max-slop", "1", "definition:\"feel concern\"~2"][..],
            "slop",
        ),
        (&["--max-reads", "10", "*"][..], "read"),
        (&["--max-depth", "1", "((care))"][..], "nest"),
        (&["--max-clauses", "2", "care race acre"][..], "clauses"),
        (&["definition:\"a a\"~1"][..], "twice"),
    ] {
        let mut a = vec!["site", "search", "--site", s];
        a.extend_from_slice(args);
        assert_error(&run(&a), why);
    }
    let o = run(&[
        "site",
        "search",
        "--site",
        s,
        "--max-slop",
        "2",
        "definition:\"feel concern\"~2",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_error(
        &run(&[
            "site",
            "search",
            "--site",
            dir.path().to_str().unwrap(),
            "x",
        ]),
        "not a usable site index",
    );

    let export = dir.path().join("export");
    let o = run(&[
        "site",
        "export",
        "--site",
        s,
        "-o",
        export.to_str().unwrap(),
        "--base-url",
        "https://example.org/",
        "-v",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("25 of them words"),
        "{}",
        text(&o.stderr)
    );
    let cares = std::fs::read_to_string(export.join("word/cares/index.html")).unwrap();
    assert!(cares.contains("inflection of <a href=\"/word/care/\">CARE</a>"));
    assert!(cares.contains("href=\"https://example.org/word/cares/\""));
    // A base URL is needed, and must be one.
    for bad in [vec![], vec!["--base-url", "example.org"]] {
        let mut args = vec![
            "site",
            "export",
            "--site",
            s,
            "-o",
            export.to_str().unwrap(),
        ];
        args.extend(bad.iter().copied());
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains("--base-url"),
            "{}",
            text(&o.stderr)
        );
    }
    // Not over a folder lexq did not write.
    let photos = dir.path().join("photos");
    std::fs::create_dir(&photos).unwrap();
    std::fs::write(photos.join("a.jpg"), b"x").unwrap();
    assert_error(
        &run(&[
            "site",
            "export",
            "--site",
            s,
            "-o",
            photos.to_str().unwrap(),
            "--base-url",
            "https://example.org",
        ]),
        "not written by lexq",
    );
    assert_error(
        &run(&["site", "build", "-o", photos.to_str().unwrap()]),
        "not written by lexq",
    );
}

#[test]
fn site_build_errors() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("site");
    let o = out.to_str().unwrap();
    assert_error(
        &run(&["site", "build", "--wordnet", "/nonexistent", "-o", o]),
        "WordNet",
    );
    assert_error(
        &run(&[
            "site",
            "build",
            "--definitions",
            fixture_data().join("defs.tsv").to_str().unwrap(),
            "--strict",
            "-o",
            o,
        ]),
        "defs.tsv:6",
    );
    assert_error(
        &run(&[
            "site",
            "build",
            "--definitions",
            "/nonexistent.tsv",
            "-o",
            o,
        ]),
        "nonexistent",
    );
    assert!(!out.exists());
}

#[test]
fn serve_answers_on_loopback_and_logs_requests() {
    let dir = TempDir::new().unwrap();
    let (_, site) = fixture_site(&dir);
    let mut child = lexq()
        .args([
            "serve",
            "--site",
            site.to_str().unwrap(),
            "--addr",
            "127.0.0.1:0",
        ])
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    err.read_line(&mut line).unwrap();
    assert!(line.contains("serving 25 words with definitions"), "{line}");
    let addr = line
        .split("http://")
        .nth(1)
        .unwrap()
        .split('/')
        .next()
        .unwrap()
        .to_string();
    let mut s = std::net::TcpStream::connect(&addr).unwrap();
    write!(
        s,
        "GET /api/v1/word/geese HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut resp = String::new();
    s.read_to_string(&mut resp).unwrap();
    assert!(resp.starts_with("HTTP/1.1 200"), "{resp}");
    assert!(resp.contains("\"base_forms\":[\"GOOSE\"]"), "{resp}");
    let mut log = String::new();
    err.read_line(&mut log).unwrap();
    assert!(log.contains("\"GET /api/v1/word/geese\" 200"), "{log}");
    child.kill().unwrap();
    child.wait().unwrap();
    // A bad or taken address is a clean error naming it.
    assert_error(
        &run(&["serve", "--addr", "not-an-address"]),
        "not-an-address: invalid socket address",
    );
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let taken = taken.local_addr().unwrap().to_string();
    assert_error(&run(&["serve", "--addr", &taken]), &format!("{taken}: "));
    assert_error(
        &run(&["serve", "--site", "/nonexistent"]),
        "/nonexistent: not a usable site index: no such directory",
    );
}

/// The entries of `dir` a build or export leaves only while it runs.
fn scratch_dirs(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect()
}

/// Runs `args` (which write into `dir`) and sends a signal as soon as
/// their temporary directory appears, until three runs were interrupted
/// (by SIGINT, SIGTERM and SIGHUP in turn): each time nothing is left
/// behind, the exit status and line tell the signal, and `check` holds
/// (what was there before is whole). Retried when a run finished before
/// it was seen.
fn interrupt_while_writing(dir: &Path, args: &[&str], check: impl Fn()) {
    let signals = [
        ("INT", 130, "lexq: interrupted"),
        ("TERM", 143, "lexq: terminated"),
        ("HUP", 129, "lexq: hung up"),
    ];
    let mut caught = 0;
    for _ in 0..30 {
        let (signal, status, line) = signals[caught];
        let mut child = lexq().args(args).stderr(Stdio::piped()).spawn().unwrap();
        let mut seen = false;
        while child.try_wait().unwrap().is_none() {
            if !scratch_dirs(dir).is_empty() {
                crate::common::signal(&child, signal);
                seen = true;
                break;
            }
        }
        let o = child.wait_with_output().unwrap();
        assert_eq!(
            scratch_dirs(dir),
            Vec::<String>::new(),
            "left behind ({signal})"
        );
        check();
        if seen && o.status.code() == Some(status) {
            assert_eq!(text(&o.stderr).trim(), line);
            caught += 1;
            if caught == signals.len() {
                return;
            }
        } else {
            assert_eq!(o.status.code(), Some(0), "SIG{signal}: {}", text(&o.stderr));
        }
    }
    panic!("never interrupted while writing ({caught} times)");
}

#[test]
fn a_signal_during_a_build_or_export_leaves_the_old_one_and_no_temporary_directory() {
    let dir = TempDir::new().unwrap();
    let (_, site) = fixture_site(&dir);
    let work = dir.path().join("work");
    std::fs::create_dir(&work).unwrap();
    let (s, e) = (work.join("site"), work.join("export"));
    std::fs::rename(&site, &s).unwrap();
    let (s, e) = (s.to_str().unwrap(), e.to_str().unwrap());
    assert_eq!(
        run(&[
            "site",
            "export",
            "--site",
            s,
            "-o",
            e,
            "--base-url",
            "http://x.org"
        ])
        .status
        .code(),
        Some(0)
    );
    let whole = || {
        let o = run(&["site", "search", "--site", s, "word:care"]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        assert!(Path::new(e).join("lexq-export.json").is_file());
    };
    // The embedded ENABLE: a build long enough to be caught in.
    interrupt_while_writing(&work, &["site", "build", "-o", s], whole);
    interrupt_while_writing(
        &work,
        &[
            "site",
            "export",
            "--site",
            s,
            "-o",
            e,
            "--base-url",
            "http://x.org",
        ],
        whole,
    );
}

#[test]
fn concurrent_builds_into_one_site_leave_one_whole_site() {
    let dir = TempDir::new().unwrap();
    let (lexicon, _) = fixture_site(&dir);
    let work = dir.path().join("work");
    std::fs::create_dir(&work).unwrap();
    let site = work.join("site");
    let (l, s) = (lexicon.to_str().unwrap(), site.to_str().unwrap());
    let wordnet = fixture_data().join("wordnet");
    let args = [
        "site",
        "build",
        "-L",
        l,
        "--wordnet",
        wordnet.to_str().unwrap(),
        "-o",
        s,
    ];
    for round in 0..5 {
        let racers: Vec<_> = (0..3)
            .map(|_| lexq().args(args).stderr(Stdio::piped()).spawn().unwrap())
            .collect();
        for r in racers {
            let o = r.wait_with_output().unwrap();
            assert_eq!(
                o.status.code(),
                Some(0),
                "round {round}: {}",
                text(&o.stderr)
            );
        }
        assert_eq!(scratch_dirs(&work), Vec::<String>::new(), "round {round}");
        let o = run(&[
            "site",
            "search",
            "--site",
            s,
            "-L",
            l,
            "word:care",
            "--json",
        ]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "round {round}: {}",
            text(&o.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["total"], 1);
        let o = run(&["site", "search", "--site", s, "*", "--json", "--limit", "1"]);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["total"], 25, "round {round}");
    }
}

/// Runs `lexq serve` with `args` and expects it to refuse to start: its
/// stderr (a server that starts anyway is stopped and the test fails).
fn serve_refuses(args: &[&str]) -> String {
    let mut child = lexq()
        .arg("serve")
        .args(args)
        .args(["--addr", "127.0.0.1:0"])
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed().as_secs() > 30 {
            child.kill().unwrap();
            let o = child.wait_with_output().unwrap();
            panic!("lexq serve {args:?} started: {}", text(&o.stderr));
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    text(&o.stderr)
}

#[test]
fn a_site_is_refused_beside_a_lexicon_of_another_word_list() {
    let dir = TempDir::new().unwrap();
    let (lexicon, site) = fixture_site(&dir);
    let s = site.to_str().unwrap();
    // Another list: the fixture's words and one more.
    let words = dir.path().join("more.txt");
    let mut text_of = std::fs::read_to_string(fixture_data().join("words.txt")).unwrap();
    text_of.push_str("carer\n");
    std::fs::write(&words, text_of).unwrap();
    let other = dir.path().join("more.lexq");
    let o = run(&[
        "build",
        words.to_str().unwrap(),
        "-o",
        other.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let other = other.to_str().unwrap();
    let why = "built from another word list (25 words, CRC-32C ";
    let err = serve_refuses(&["--site", s, "-L", other]);
    assert!(
        err.contains(why) && err.contains("more.lexq (26 words)"),
        "{err}"
    );
    // Without -L the site's own copy is served, unless it was swapped.
    let copy = site.join("lexicon.lexq");
    let own = std::fs::read(&copy).unwrap();
    std::fs::copy(other, &copy).unwrap();
    let err = serve_refuses(&["--site", s]);
    assert!(err.contains(why), "{err}");
    std::fs::write(&copy, own).unwrap();
    // A search without a lexicon named reads the site alone; with one,
    // it must be the site's.
    let o = lexq()
        .args(["site", "search", "--site", s, "word:care"])
        .env("LEXQ_LEXICON", "")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_error(
        &run(&["-L", other, "site", "search", "--site", s, "word:care"]),
        why,
    );
    let export = dir.path().join("export");
    assert_error(
        &run(&[
            "-L",
            other,
            "site",
            "export",
            "--site",
            s,
            "--base-url",
            "https://example.org",
            "-o",
            export.to_str().unwrap(),
        ]),
        why,
    );
    assert!(!export.exists());
    // The lexicon it was built from, named: searched as before.
    let l = lexicon.to_str().unwrap();
    let o = run(&["-L", l, "site", "search", "--site", s, "word:care"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
}

/// `lexq serve` with `args` on a free loopback port: the child, its
/// address, and its stderr after the "serving" line.
fn spawn_serve(
    args: &[&str],
) -> (
    std::process::Child,
    String,
    BufReader<std::process::ChildStderr>,
) {
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
    let addr = line
        .split("http://")
        .nth(1)
        .unwrap_or_else(|| panic!("{line}"))
        .split('/')
        .next()
        .unwrap()
        .to_string();
    (child, addr, err)
}

#[test]
fn serve_drains_open_requests_on_sigterm_then_exits() {
    use std::time::{Duration, Instant};
    let drain = Duration::from_millis(1500);
    let (mut child, addr, mut err) = spawn_serve(&["--drain-ms", "1500"]);
    let cgp = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0";
    let head = format!(
        "POST /api/v1/moves?limit=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
        cgp.len()
    );
    // Two requests in flight: their bodies not sent yet.
    let mut finishing = std::net::TcpStream::connect(&addr).unwrap();
    finishing.write_all(head.as_bytes()).unwrap();
    // Its body announced long enough (4000 bytes: 5.9 s at the least
    // rate) not to be cut off before the drain ends.
    let mut stuck = std::net::TcpStream::connect(&addr).unwrap();
    stuck
        .write_all(
            head.replace(&format!(": {}\r", cgp.len()), ": 4000\r")
                .as_bytes(),
        )
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let signalled = Instant::now();
    signal(&child, "TERM");
    std::thread::sleep(Duration::from_millis(300));
    // No new connections ...
    assert!(
        std::net::TcpStream::connect(&addr).is_err(),
        "accepting after SIGTERM"
    );
    // ... but the open request is answered.
    finishing.write_all(cgp.as_bytes()).unwrap();
    let mut answer = String::new();
    finishing.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("\"total\":1089"), "{answer}");
    // The other never ends: the process exits once the drain time is up.
    let (status, at) = exit_within(&mut child, drain + Duration::from_secs(5))
        .expect("still running after the drain time");
    assert!(status.success(), "{status}");
    let took = at - signalled;
    assert!(
        took >= drain - Duration::from_millis(100),
        "exited after {took:?}"
    );
    assert!(
        took < drain + Duration::from_secs(2),
        "exited after {took:?}"
    );
    let mut rest = String::new();
    err.read_to_string(&mut rest).unwrap();
    assert!(
        rest.contains("lexq: SIGTERM: finishing open requests (at most 1500 ms)"),
        "{rest}"
    );
    assert!(
        rest.contains("\"POST /api/v1/moves?limit=1\" 200"),
        "{rest}"
    );
    assert!(!rest.contains("panicked"), "{rest}");
    let mut nothing = Vec::new();
    let _ = stuck.read_to_end(&mut nothing);
    assert!(nothing.is_empty(), "{}", text(&nothing));

    // Ctrl-C (SIGINT) with nothing open: out at once.
    let (mut child, _, _err) = spawn_serve(&[]);
    let signalled = Instant::now();
    signal(&child, "INT");
    let (status, at) = exit_within(&mut child, Duration::from_secs(5)).expect("still running");
    assert!(status.success(), "{status}");
    assert!(
        at - signalled < Duration::from_secs(2),
        "{:?}",
        at - signalled
    );
}

#[test]
fn serve_stops_at_once_on_a_second_signal() {
    use std::time::{Duration, Instant};
    // A request that never ends, and a drain far longer than the test:
    // the second SIGTERM ends the process at once, as a shell reports a
    // process SIGTERM killed.
    let (mut child, addr, mut err) =
        spawn_serve(&["--drain-ms", "60000", "--client-timeout-ms", "60000"]);
    let mut stuck = std::net::TcpStream::connect(&addr).unwrap();
    stuck
        .write_all(b"POST /api/v1/moves HTTP/1.1\r\nHost: x\r\nContent-Length: 9\r\n\r\n")
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    signal(&child, "TERM");
    std::thread::sleep(Duration::from_millis(300));
    let signalled = Instant::now();
    signal(&child, "TERM");
    let (status, at) = exit_within(&mut child, Duration::from_secs(10)).expect("still running");
    assert_eq!(status.code(), Some(143), "{status}");
    assert!(
        at - signalled < Duration::from_secs(2),
        "{:?}",
        at - signalled
    );
    let mut rest = String::new();
    err.read_to_string(&mut rest).unwrap();
    assert!(
        rest.contains("lexq: SIGTERM: finishing open requests (at most 60000 ms)\n")
            && rest.ends_with("lexq: stopped without waiting\n"),
        "{rest}"
    );
    drop(stuck);
    // SIGHUP reloads instead (tests/reload.rs).
}

#[test]
fn serve_log_lines_are_escaped() {
    let (mut child, addr, mut err) = spawn_serve(&[]);
    let mut s = std::net::TcpStream::connect(&addr).unwrap();
    // A quote and raw UTF-8 in the path (both reach the log), a tab, a
    // quote and a backslash in X-Forwarded-For.
    s.write_all(
        b"GET /api/v1/word/\"care\xc3\xa9 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\
          X-Forwarded-For: 1.2.3.4\t\"\\ 5\r\n\r\n",
    )
    .unwrap();
    let mut answer = Vec::new();
    s.read_to_end(&mut answer).unwrap();
    assert!(
        text(&answer).starts_with("HTTP/1.1 400"),
        "{}",
        text(&answer)
    );
    let mut log = String::new();
    err.read_line(&mut log).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    // The time first (RFC 3339), then the request.
    let (time, log) = log.split_once(' ').unwrap();
    assert!(
        time.len() == 24 && time.ends_with('Z') && time.as_bytes()[10] == b'T',
        "{time}"
    );
    assert_eq!(
        log.trim_end(),
        format!(
            "127.0.0.1 \"GET /api/v1/word/\\\"care\\xc3\\xa9\" 400 {} xff=\"1.2.3.4\\x09\\\"\\\\ 5\"",
            log.split(' ').nth(4).unwrap()
        ),
        "{log:?}"
    );
}

#[test]
fn serve_options_are_checked() {
    assert_error(
        &run(&["serve", "--cors", "example.org"]),
        "CORS origin \"example.org\"",
    );
    assert_error(
        &run(&["serve", "--cors", "https://example.org/"]),
        "no path",
    );
    assert_error(
        &run(&["serve", "--max-connections", "100000000"]),
        "--max-connections 100000000: the open-file limit",
    );
    assert_error(
        &run(&["serve", "--max-client-heavy", "0"]),
        "--max-client-heavy 0",
    );
    assert_error(
        &run(&["serve", "--trust-proxy", "proxy.example"]),
        "proxy.example",
    );
}
