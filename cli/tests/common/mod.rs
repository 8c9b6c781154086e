//! What the CLI's test binaries share: the binary under test, its output
//! as text, the checks of a clean failure, children that must not hang,
//! FIFOs and signals, and the ENABLE word list the scans read.
//!
//! The scans (`scan`, the probability counts of `words.rs`) stay
//! independent of the library: they read `indexes/enable1.txt` as text.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::LazyLock;
use std::time::{Duration, Instant};

/// The binary under test: this build's, or `LEXQ_TEST_BIN` (to run these
/// tests against another build, an older one for instance), with
/// `LEXQ_LEXICON` unset.
pub fn lexq() -> Command {
    let bin = std::env::var_os("LEXQ_TEST_BIN");
    let mut c = Command::new(
        bin.as_deref()
            .unwrap_or(env!("CARGO_BIN_EXE_lexq").as_ref()),
    );
    c.env_remove("LEXQ_LEXICON");
    c
}

/// Runs `lexq ARGS` with no input.
pub fn run(args: &[&str]) -> Output {
    lexq().args(args).output().unwrap()
}

/// Runs `lexq ARGS` with `input` on its standard input (a child that
/// exits before reading it all is no error).
pub fn run_stdin(args: &[&str], input: impl AsRef<[u8]>) -> Output {
    let mut child = lexq()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(input.as_ref());
    child.wait_with_output().unwrap()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Standard output's lines.
pub fn lines(o: &Output) -> Vec<String> {
    stdout(o).lines().map(String::from).collect()
}

pub fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Asserts a clean failure: exit 2, a `lexq: ...` message containing
/// `needle` on stderr, no panic, nothing on stdout.
#[track_caller]
pub fn assert_error(o: &Output, needle: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "stderr: {err}");
    assert!(err.contains(needle), "{needle:?} not in stderr: {err}");
    assert!(err.contains("lexq: "), "{err}");
    assert!(!err.contains("panicked"), "panic: {err}");
    assert!(o.stdout.is_empty(), "stdout: {}", stdout(o));
}

/// [`assert_error`], the message exactly one `lexq: ...` line.
#[track_caller]
pub fn assert_one_line_error(o: &Output, needle: &str) {
    assert_error(o, needle);
    let err = stderr(o);
    assert!(err.starts_with("lexq: "), "{err}");
    assert_eq!(err.lines().count(), 1, "not one line: {err}");
}

/// Waits at most `limit` for `child` to exit: its status and when.
pub fn exit_within(child: &mut Child, limit: Duration) -> Option<(ExitStatus, Instant)> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Some(s) = child.try_wait().unwrap() {
            return Some((s, Instant::now()));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    None
}

/// Waits for `child` at most `secs` seconds; kills it and fails if it hangs.
#[track_caller]
pub fn wait_or_kill(child: &mut Child, secs: u64) -> ExitStatus {
    match exit_within(child, Duration::from_secs(secs)) {
        Some((status, _)) => status,
        None => {
            let _ = child.kill();
            let _ = child.wait();
            panic!("lexq hung for {secs} s");
        }
    }
}

/// The output of `child`, which must end within 20 s (it is killed, and
/// the test fails, if it does not).
#[track_caller]
pub fn finish(mut child: Child, what: &str) -> Output {
    if exit_within(&mut child, Duration::from_secs(20)).is_none() {
        let _ = child.kill();
        let _ = child.wait();
        panic!("{what}: lexq hung for 20 s");
    }
    child.wait_with_output().unwrap()
}

/// Makes a FIFO at `path`.
pub fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(ok.success());
}

/// Sends signal `name` (`INT`, `TERM`, `HUP`) to `child`.
pub fn signal(child: &Child, name: &str) {
    let ok = Command::new("kill")
        .args([&format!("-{name}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
}

/// Ctrl-C: SIGINT to `child`.
pub fn sigint(child: &Child) {
    signal(child, "INT");
}

/// The words of `indexes/enable1.txt`, read as text: trimmed, uppercase,
/// sorted, without duplicates.
pub static ENABLE_WORDS: LazyLock<Vec<String>> = LazyLock::new(|| {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../indexes/enable1.txt"
    ))
    .unwrap();
    let mut w: Vec<String> = text
        .lines()
        .map(|l| l.trim().to_uppercase())
        .filter(|l| !l.is_empty())
        .collect();
    w.sort();
    w.dedup();
    w
});

/// The site layer's test data (the fixture word list, WordNet and
/// definitions), which the site and serve tests build from.
pub fn fixture_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../site/tests/data")
}

/// `GET path` from a server at `addr`, on a connection of its own: the
/// status (0 if no status line came) and the body.
pub fn http_get(addr: &str, path: &str) -> (u16, String) {
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw)
        .unwrap_or_else(|e| panic!("GET {}: {e}", &path[..path.len().min(80)]));
    let raw = String::from_utf8_lossy(&raw).into_owned();
    let status = raw
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = raw.split_once("\r\n\r\n").map_or("", |x| x.1).to_string();
    (status, body)
}
