//! Helpers shared by the site layer's tests: the fixture lexicon and site,
//! where the fetched WordNet lives, and a small HTTP client.

#![allow(dead_code)]

pub mod html;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use lexq::{Alphabet, Lexicon, WordList};
use lexq_site::build::{BuildOptions, BuildSummary, build};

/// The senses of `e` that definition search finds it by: its own, and
/// those of base forms outside the lexicon (`is_word` tells); the senses
/// of a base form in the lexicon are found on the base form's page.
pub fn indexed_senses<'e>(
    e: &'e lexq_site::Entry,
    is_word: impl Fn(&str) -> bool + 'e,
) -> impl Iterator<Item = &'e lexq_site::entry::SenseEntry> + 'e {
    e.senses
        .iter()
        .filter(move |s| s.base_form.as_deref().is_none_or(|b| !is_word(b)))
}

/// `site/tests/data`.
pub fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// The words of the fixture lexicon, uppercase, sorted.
pub fn fixture_words() -> Vec<String> {
    let text = std::fs::read_to_string(data().join("words.txt")).unwrap();
    let mut w: Vec<String> = text.lines().map(|l| l.trim().to_uppercase()).collect();
    w.sort();
    w
}

/// Builds the fixture lexicon into `dir/words.lexq` and opens it.
pub fn fixture_lexicon(dir: &Path) -> (Lexicon, PathBuf) {
    let mut list = WordList::new(Alphabet::english());
    list.read_path(&data().join("words.txt")).unwrap();
    let built = lexq::build(&list, &mut ()).unwrap();
    let path = dir.join("words.lexq");
    built.write_atomic(&path).unwrap();
    (Lexicon::open(&path).unwrap(), path)
}

/// The options of the fixture site: the hand-made WordNet and both
/// definition files.
pub fn fixture_options() -> BuildOptions {
    BuildOptions {
        wordnet: Some(data().join("wordnet")),
        definitions: vec![data().join("defs.tsv"), data().join("defs.jsonl")],
        strict: false,
        frequencies: None,
        hide_names: false,
        hide_offensive: false,
    }
}

/// Builds the fixture site into `dir/site`.
pub fn fixture_site(dir: &Path) -> (PathBuf, BuildSummary) {
    let (lex, path) = fixture_lexicon(dir);
    let out = dir.join("site");
    let summary = build(&lex, Some(&path), &fixture_options(), &out, &mut ()).unwrap();
    (out, summary)
}

/// The workspace's target directory (or `CARGO_TARGET_DIR`).
pub fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"),
    }
}

/// The switch that makes the tests needing the network, root or Chromium
/// fail when what they need cannot be had, instead of skipping them
/// (`.ci/run` sets it): `LEXQ_REQUIRE_ALL=1`.
pub const REQUIRE_ALL: &str = "LEXQ_REQUIRE_ALL";

/// The value of an `Option` a test needs, or the end of the test: `None`
/// means [`skip`] has said why (or failed the test under
/// [`REQUIRE_ALL`]).
#[macro_export]
macro_rules! needs {
    ($e:expr) => {
        match $e {
            Some(v) => v,
            None => return,
        }
    };
}

/// Says on stderr that the running test is skipped for want of `what`
/// (a line of its own, not captured by the test harness); under
/// `LEXQ_REQUIRE_ALL=1`, fails the test instead.
pub fn skip(what: &str) {
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    if std::env::var_os(REQUIRE_ALL).is_some_and(|v| v == "1") {
        panic!("{test} needs {what} ({REQUIRE_ALL}=1: required)");
    }
    let _ = writeln!(
        std::io::stderr().lock(),
        "skipped: {test}: needs {what} (set {REQUIRE_ALL}=1 to make this a failure)"
    );
}

/// Runs `site/fetch-wordnet.sh` (with `--browser` when asked) once per
/// test binary, so that `cargo test --workspace` needs no set-up step: the
/// script fetches only what is missing. `Err` holds why it failed (no
/// network, no root for apt-get...).
pub fn fetch(browser: bool) -> Result<(), String> {
    static PLAIN: OnceLock<Result<(), String>> = OnceLock::new();
    static BROWSER: OnceLock<Result<(), String>> = OnceLock::new();
    let once = if browser { &BROWSER } else { &PLAIN };
    once.get_or_init(|| {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("fetch-wordnet.sh");
        let mut cmd = std::process::Command::new("bash");
        cmd.arg(&script);
        if browser {
            cmd.arg("--browser");
        }
        let out = cmd
            .stdin(std::process::Stdio::null())
            .output()
            .map_err(|e| format!("cannot run bash: {e}"))?;
        if out.status.success() {
            return Ok(());
        }
        let err = String::from_utf8_lossy(&out.stderr);
        let last = err
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        Err(format!(
            "site/fetch-wordnet.sh failed ({}): {last}",
            out.status
        ))
    })
    .clone()
}

/// WordNet 3.1 as `site/fetch-wordnet.sh` fetches it (fetched on first
/// use); `None`, the test skipped, when it cannot be fetched.
pub fn wordnet_dir() -> Option<PathBuf> {
    let dir = target_dir().join("wordnet");
    let here = || {
        dir.join("data.noun").is_file()
            && dir.join("noun.exc").is_file()
            && dir.join("index.sense").is_file()
    };
    if !here()
        && let Err(why) = fetch(false)
    {
        skip(&format!(
            "WordNet (the network, and root for apt-get): {why}"
        ));
        return None;
    }
    assert!(
        here(),
        "WordNet is not in {} after site/fetch-wordnet.sh",
        dir.display()
    );
    Some(dir)
}

/// A site built once per test binary from ENABLE (embedded) and WordNet
/// (its folder, the site in it, the build's summary); `None`, the test
/// skipped, without WordNet.
///
/// A static is never dropped, so a `TempDir` held here was never removed:
/// each run left 24 MB in /tmp. The site is built in a folder named after
/// the process, under cargo's temporary folder for tests, and the folders
/// of processes that have ended are removed first.
pub fn enable_site() -> Option<&'static (PathBuf, PathBuf, BuildSummary)> {
    static SITE: OnceLock<(PathBuf, PathBuf, BuildSummary)> = OnceLock::new();
    if let Some(site) = SITE.get() {
        return Some(site);
    }
    let wordnet = wordnet_dir()?;
    Some(SITE.get_or_init(|| {
        let dir = process_dir("enable-sites");
        let out = dir.join("enable-site");
        let opts = BuildOptions {
            wordnet: Some(wordnet),
            ..Default::default()
        };
        let summary = build(&Lexicon::embedded(), None, &opts, &out, &mut ()).unwrap();
        (dir, out, summary)
    }))
}

/// An empty folder for this process under `CARGO_TARGET_TMPDIR/kind`,
/// after removing the folders there of processes that have ended (on
/// systems with /proc; elsewhere they stay until `cargo clean`).
fn process_dir(kind: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join(kind);
    std::fs::create_dir_all(&root).unwrap();
    if Path::new("/proc/self").exists() {
        for entry in std::fs::read_dir(&root).unwrap().flatten() {
            let name = entry.file_name();
            let pid = name.to_str().and_then(|n| n.strip_prefix("pid-"));
            if pid.is_some_and(|p| !Path::new("/proc").join(p).exists()) {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
    let dir = root.join(format!("pid-{}", std::process::id()));
    // A folder of an earlier process with this number.
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// One HTTP/1.1 request; the status, the content type and the body.
pub fn request(addr: SocketAddr, method: &str, path: &str) -> (u16, String, Vec<u8>) {
    request_with(addr, method, path, None)
}

/// One HTTP/1.1 request with an optional body.
pub fn request_with(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&[u8]>,
) -> (u16, String, Vec<u8>) {
    request_from(None, addr, method, path, body)
}

/// [`request_with`] from the loopback address `from` (`127.0.0.2`...,
/// which the server counts as another client than `127.0.0.1`).
pub fn request_from(
    from: Option<&str>,
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&[u8]>,
) -> (u16, String, Vec<u8>) {
    let mut s = match from {
        None => TcpStream::connect(addr).unwrap(),
        Some(from) => {
            use socket2::{Domain, Socket, Type};
            let s = Socket::new(Domain::IPV4, Type::STREAM, None).unwrap();
            let local: SocketAddr = format!("{from}:0").parse().unwrap();
            s.bind(&local.into()).unwrap();
            s.connect(&addr.into()).unwrap();
            s.into()
        }
    };
    s.set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n"
    )
    .unwrap();
    match body {
        Some(b) => {
            write!(
                s,
                "Content-Type: text/plain\r\nContent-Length: {}\r\n\r\n",
                b.len()
            )
            .unwrap();
            // The server may answer (413) before reading all of it.
            let _ = s.write_all(b);
        }
        None => write!(s, "\r\n").unwrap(),
    }
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a header end");
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let mut body = raw[split + 4..].to_vec();
    let status: u16 = head.split(' ').nth(1).unwrap().parse().unwrap();
    let header = |name: &str| {
        head.lines()
            .find_map(|l| {
                let (k, v) = l.split_once(':')?;
                k.eq_ignore_ascii_case(name).then(|| v.trim().to_string())
            })
            .unwrap_or_default()
    };
    if header("transfer-encoding").eq_ignore_ascii_case("chunked") {
        body = dechunk(&body);
    }
    (status, header("content-type"), body)
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

/// POST `body` to `path`; the status and the JSON body.
pub fn post(addr: SocketAddr, path: &str, body: &str) -> (u16, serde_json::Value) {
    let (status, ctype, body) = request_with(addr, "POST", path, Some(body.as_bytes()));
    assert!(ctype.starts_with("application/json"), "{path}: {ctype:?}");
    (status, serde_json::from_slice(&body).unwrap())
}

/// GET `path`; the status and the JSON body.
pub fn get(addr: SocketAddr, path: &str) -> (u16, serde_json::Value) {
    let (status, ctype, body) = request(addr, "GET", path);
    assert!(
        ctype.starts_with("application/json"),
        "{path}: content type {ctype:?}, body {:?}",
        String::from_utf8_lossy(&body)
    );
    (status, serde_json::from_slice(&body).unwrap())
}

/// A process killed when dropped.
pub struct Killed(pub std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `python3 -m http.server` serving `dir` on a loopback port; `None`
/// (the test skipped) without python3.
pub fn serve_static(dir: &Path) -> Option<(Killed, SocketAddr)> {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = std::process::Command::new("python3")
        .args(["-m", "http.server", "--bind", "127.0.0.1", "--directory"])
        .arg(dir)
        .arg(port.to_string())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    let child = match child {
        Ok(c) => Killed(c),
        Err(e) => {
            skip(&format!("python3 for its http.server ({e})"));
            return None;
        }
    };
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let start = std::time::Instant::now();
    while TcpStream::connect(addr).is_err() {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(20),
            "python3 -m http.server did not start"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    Some((child, addr))
}
