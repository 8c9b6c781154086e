//! Load and abuse: `lexq serve` (the release binary, ENABLE + WordNet)
//! against hostile clients while one normal client reads word pages.
//!
//! ```text
//! bash site/fetch-wordnet.sh
//! cargo build --release -p lexq-cli
//! cargo bench -p lexq-site --bench abuse            # LEXQ_ABUSE_SECS=15 per phase
//! ```
//!
//! The normal client (127.0.0.1) asks for a word page every 10 ms, each
//! on a new connection, before, during and after the abuse; the abusers
//! come from other loopback addresses, so that per-address limits can
//! tell them apart:
//! - 1,100 slow-header connections (127.0.0.2-23, 50 each: under the
//!   per-address cap of 64, and together over the server's cap of 1,024
//!   connections), each sending one header byte a second and reconnecting
//!   when cut off;
//! - 16 clients (127.0.1.1-16) repeating `pattern/*` (a page of 1000 of
//!   all 172,820 words);
//! - 4 clients (127.0.2.1-4) repeating the heaviest searches the server
//!   accepts, and 16 more doing the same from one address (127.0.4.1);
//! - 4 clients (127.0.3.1-4) posting two-blank positions to `moves`
//!   (benches/two-blanks.cgp).
//!
//! It prints the normal client's p50/p99/max and refusals and the
//! server's RSS for each phase, what the abusers got, and whether the
//! goal holds: p99 during the abuse within 5x its p99 before, or within
//! 10 ms, whichever is larger, and nothing refused to the normal client.
//! Not a timed test: the machine's load moves the figures.
//!
//! Then the attacks of issue 30, one at a time, each against a normal
//! client alternating a light search and a word page, with no attack
//! and under the attack, in turn (see `attacks.rs`).
//! `LEXQ_ABUSE_PART=mixed` or `attacks` runs one part only.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

#[path = "abuse/attacks.rs"]
mod attacks;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn target() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(d) => PathBuf::from(d),
        None => root().join("target"),
    }
}

/// A connection to `to` from the loopback address `from`.
fn connect_from(from: [u8; 4], to: SocketAddr) -> std::io::Result<TcpStream> {
    use socket2::{Domain, Socket, Type};
    let s = Socket::new(Domain::IPV4, Type::STREAM, None)?;
    s.bind(&SocketAddr::from((from, 0)).into())?;
    s.connect_timeout(&to.into(), Duration::from_secs(10))?;
    let s: TcpStream = s.into();
    s.set_read_timeout(Some(Duration::from_secs(30)))?;
    Ok(s)
}

/// One request on a new connection; the status (0: no answer).
fn exchange(from: [u8; 4], to: SocketAddr, request: &[u8]) -> u16 {
    let Ok(mut s) = connect_from(from, to) else {
        return 0;
    };
    if s.write_all(request).is_err() {
        return 0;
    }
    let mut raw = Vec::with_capacity(4096);
    if s.read_to_end(&mut raw).is_err() && raw.is_empty() {
        return 0;
    }
    std::str::from_utf8(&raw[..raw.len().min(16)])
        .ok()
        .and_then(|h| h.split(' ').nth(1))
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

fn get(path: &str) -> Vec<u8> {
    format!("GET {path} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n").into_bytes()
}

fn post(path: &str, body: &str) -> Vec<u8> {
    format!(
        "POST {path} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// The server's resident set, in MB.
fn rss_mb(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

struct Phase {
    name: &'static str,
    latencies: Vec<Duration>,
    refused: usize,
    rss_max: f64,
}

impl Phase {
    fn pct(&self, p: f64) -> f64 {
        let mut v = self.latencies.clone();
        v.sort();
        if v.is_empty() {
            return f64::NAN;
        }
        let i = ((v.len() as f64 * p).ceil() as usize).clamp(1, v.len()) - 1;
        v[i].as_secs_f64() * 1000.0
    }
}

/// The normal client for `secs`, with the server's RSS sampled.
fn normal(name: &'static str, to: SocketAddr, pid: u32, words: &[String], secs: u64) -> Phase {
    let mut phase = Phase {
        name,
        latencies: Vec::new(),
        refused: 0,
        rss_max: rss_mb(pid),
    };
    let end = Instant::now() + Duration::from_secs(secs);
    let mut i = 0;
    while Instant::now() < end {
        let w = &words[i % words.len()];
        i += 1;
        let start = Instant::now();
        let status = exchange([127, 0, 0, 1], to, &get(&format!("/api/v1/word/{w}")));
        phase.latencies.push(start.elapsed());
        if status != 200 {
            phase.refused += 1;
        }
        if i % 25 == 0 {
            phase.rss_max = phase.rss_max.max(rss_mb(pid));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    phase
}

/// What one kind of abuser got.
#[derive(Default)]
struct Tally {
    ok: AtomicU64,
    too_many: AtomicU64,
    busy: AtomicU64,
    other: AtomicU64,
}

impl Tally {
    fn count(&self, status: u16) {
        match status {
            200 => &self.ok,
            429 => &self.too_many,
            503 => &self.busy,
            _ => &self.other,
        }
        .fetch_add(1, Ordering::Relaxed);
    }

    fn line(&self, what: &str) -> String {
        format!(
            "{what}: {} answered, {} refused (429), {} busy (503), {} other",
            self.ok.load(Ordering::Relaxed),
            self.too_many.load(Ordering::Relaxed),
            self.busy.load(Ordering::Relaxed),
            self.other.load(Ordering::Relaxed)
        )
    }
}

/// The heaviest searches the server's default bounds accept on ENABLE +
/// WordNet (those of `site/tests/cost.rs` that fit in the default
/// `--max-input` of 100 bytes): ranges over most of a field's words, a
/// one-letter prefix, sloppy phrases of common words, everything but the
/// commonest words.
const SEARCHES: &[&str] = &[
    "base_form:[a TO w]",
    "word:[a TO e]",
    "definition:[a TO o]",
    "s*",
    "definition:\"a the\"~32 OR definition:\"the of\"~32 OR definition:\"of or\"~32",
    "* -a -the -of -or -to -and -in -is -for -with -that -by -as -an -from -on",
];

/// Slow-header connections: more than the server's default cap (1,024).
const SLOW: usize = 1100;

/// The abusers' threads, what each kind got, and how many slow-header
/// connections the server cut off.
struct Abusers {
    threads: Vec<std::thread::JoinHandle<()>>,
    tallies: Vec<(&'static str, Arc<Tally>)>,
    cut: Arc<AtomicU64>,
}

fn start_abusers(to: SocketAddr, stop: &Arc<AtomicBool>) -> Abusers {
    let mut threads = Vec::new();
    let mut tallies = Vec::new();
    // SLOW slow-header connections.
    let cut = Arc::new(AtomicU64::new(0));
    {
        let (stop, cut) = (stop.clone(), cut.clone());
        threads.push(std::thread::spawn(move || {
            let head = b"GET /api/v1/word/care HTTP/1.1\r\nHost: bench\r\nX-Slow: ";
            let open = |k: usize| -> Option<(TcpStream, usize)> {
                let s = connect_from([127, 0, 0, 2 + (k / 50) as u8], to).ok()?;
                s.set_nonblocking(true).ok()?;
                Some((s, 0))
            };
            let mut conns: Vec<Option<(TcpStream, usize)>> = (0..SLOW).map(open).collect();
            while !stop.load(Ordering::Relaxed) {
                let tick = Instant::now();
                for (k, c) in conns.iter_mut().enumerate() {
                    let alive = match c {
                        Some((s, n)) => {
                            let b = if *n < head.len() { head[*n] } else { b'a' };
                            *n += 1;
                            // A closed connection: the write fails, or the
                            // read sees its end.
                            let mut probe = [0u8; 64];
                            let eof = matches!(s.read(&mut probe), Ok(0));
                            !eof && s.write_all(&[b]).is_ok()
                        }
                        None => false,
                    };
                    if !alive {
                        if c.is_some() {
                            cut.fetch_add(1, Ordering::Relaxed);
                        }
                        *c = open(k);
                    }
                }
                std::thread::sleep(Duration::from_secs(1).saturating_sub(tick.elapsed()));
            }
        }));
    }
    // `n` clients repeating `requests`, client k from `from(k)`.
    let mut looped =
        |what: &'static str, n: usize, from: &dyn Fn(usize) -> [u8; 4], requests: Vec<Vec<u8>>| {
            let tally = Arc::new(Tally::default());
            tallies.push((what, tally.clone()));
            let requests = Arc::new(requests);
            for k in 0..n {
                let (stop, tally, requests) = (stop.clone(), tally.clone(), requests.clone());
                let from = from(k);
                threads.push(std::thread::spawn(move || {
                    let mut i = k;
                    while !stop.load(Ordering::Relaxed) {
                        tally.count(exchange(from, to, &requests[i % requests.len()]));
                        i += 1;
                    }
                }));
            }
        };
    looped(
        "pattern/* x16",
        16,
        &|k| [127, 0, 1, 1 + k as u8],
        vec![get("/api/v1/pattern/*?limit=1000")],
    );
    let searches: Vec<Vec<u8>> = SEARCHES
        .iter()
        .map(|q| {
            let q: String = q
                .bytes()
                .map(|b| match b {
                    b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'*' | b'-' | b':' => {
                        (b as char).to_string()
                    }
                    _ => format!("%{b:02X}"),
                })
                .collect();
            get(&format!("/api/v1/search?q={q}&limit=100"))
        })
        .collect();
    looped(
        "heavy searches x4",
        4,
        &|k| [127, 0, 2, 1 + k as u8],
        searches.clone(),
    );
    // One greedy address: most of its searches are refused (429), each
    // once its cost is worked out or its address holds its share.
    looped(
        "heavy searches x16 from one address",
        16,
        &|_| [127, 0, 4, 1],
        searches,
    );
    let cgps = std::fs::read_to_string(root().join("benches/two-blanks.cgp")).unwrap();
    let moves = cgps
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| post("/api/v1/moves?limit=100", l.trim()))
        .collect();
    looped(
        "two-blank moves x4",
        4,
        &|k| [127, 0, 3, 1 + k as u8],
        moves,
    );
    Abusers {
        threads,
        tallies,
        cut,
    }
}

fn lexq_bin() -> PathBuf {
    let bin = std::env::var_os("LEXQ_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| target().join("release/lexq"));
    if !bin.is_file() {
        eprintln!(
            "abuse: no {} (build it first: cargo build --release -p lexq-cli, or set LEXQ_BIN)",
            bin.display()
        );
        std::process::exit(2);
    }
    bin
}

fn site(bin: &Path) -> PathBuf {
    let dir = target().join("site-bench/abuse-site");
    std::fs::create_dir_all(dir.parent().unwrap()).unwrap();
    // Built again when missing, or of another site format than this
    // version reads.
    if lexq_site::Site::open(&dir).is_err() {
        let _ = std::fs::remove_dir_all(&dir);
        let wordnet = target().join("wordnet");
        assert!(
            wordnet.join("data.noun").is_file(),
            "run site/fetch-wordnet.sh first"
        );
        let ok = Command::new(bin)
            .args(["site", "build", "--wordnet"])
            .arg(&wordnet)
            .arg("-o")
            .arg(&dir)
            .status()
            .unwrap();
        assert!(ok.success());
    }
    dir
}

fn main() {
    let secs: u64 = std::env::var("LEXQ_ABUSE_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(15);
    let bin = lexq_bin();
    let site = site(&bin);
    let part = std::env::var("LEXQ_ABUSE_PART").unwrap_or_default();
    if part != "attacks" {
        mixed(&bin, &site, secs);
    }
    if part != "mixed" {
        attacks::run(&bin, &site, secs);
    }
}

/// The mixed abuse: every abuser at once, the normal client before,
/// during and after.
fn mixed(bin: &Path, site: &Path, secs: u64) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let to: SocketAddr = ([127, 0, 0, 1], port).into();
    let log = std::fs::File::create(target().join("site-bench/abuse-serve.log")).unwrap();
    let mut server: Child = Command::new(bin)
        .args(["serve", "--site"])
        .arg(site)
        .args(["--addr", &to.to_string()])
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .unwrap();
    let pid = server.id();
    let start = Instant::now();
    while TcpStream::connect(to).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the server did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let words: Vec<String> = include_str!("../../indexes/enable1.txt")
        .lines()
        .step_by(50)
        .map(str::to_string)
        .collect();
    // Warm up: the page's data in memory.
    for w in words.iter().take(200) {
        exchange([127, 0, 0, 1], to, &get(&format!("/api/v1/word/{w}")));
    }
    let rss_start = rss_mb(pid);
    let before = normal("before", to, pid, &words, secs);

    let stop = Arc::new(AtomicBool::new(false));
    let Abusers {
        threads,
        tallies,
        cut,
    } = start_abusers(to, &stop);
    std::thread::sleep(Duration::from_secs(3));
    let during = normal("during", to, pid, &words, secs);
    stop.store(true, Ordering::Relaxed);
    for t in threads {
        let _ = t.join();
    }
    std::thread::sleep(Duration::from_secs(2));
    let after = normal("after", to, pid, &words, secs);

    let _ = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status();
    let _ = server.wait();

    let logical = std::thread::available_parallelism().map_or(0, |n| n.get());
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "abuse bench: {secs} s a phase, {logical} cores, load average {}",
        load.split(' ').take(3).collect::<Vec<_>>().join(" ")
    );
    println!("server RSS at start {rss_start:.1} MB");
    println!("phase   requests  p50 ms  p99 ms  max ms  refused  server RSS max MB");
    for p in [&before, &during, &after] {
        println!(
            "{:<7} {:>8} {:>7.2} {:>7.2} {:>7.2} {:>8} {:>10.1}",
            p.name,
            p.latencies.len(),
            p.pct(0.5),
            p.pct(0.99),
            p.pct(1.0),
            p.refused,
            p.rss_max
        );
    }
    println!(
        "slow-header connections: {SLOW} held open, {} cut off by the server",
        cut.load(Ordering::Relaxed)
    );
    for (what, t) in &tallies {
        println!("{}", t.line(what));
    }
    let bound = (before.pct(0.99) * 5.0).max(10.0);
    let met = during.pct(0.99) <= bound && during.refused == 0;
    println!(
        "goal: p99 during {:.2} ms <= max(5 x {:.2}, 10) = {:.2} ms and nothing refused: {}",
        during.pct(0.99),
        before.pct(0.99),
        bound,
        if met { "met" } else { "NOT met" }
    );
}
