//! The attacks of issue 30, one at a time, each measured against the same
//! normal client with no attack just before (same run, alternated):
//!
//! - slow bodies: 17 addresses x 63 connections posting to `moves` with
//!   `Content-Length: 4000` and sending a byte a second (reconnecting
//!   when cut off): over the server's cap of 1,024 connections;
//! - heavy searches from 1, 4, 16 and 60 addresses, each keeping 2 in
//!   flight (its share: within its limits);
//! - a log pipe nobody reads (`2>` a pipe; its reader stops reading
//!   during the attack while 4 clients from other addresses ask for word
//!   pages as fast as they are answered, so the pipe and the queue fill);
//! - a deploy by `cp` over the live files (every index file and the
//!   lexicon copied over their live selves, truncated then written as
//!   `cp` does, every 200 ms).
//!
//! The normal client (127.0.0.1) alternates a light search
//! (`definition:tool AND length:4`) and a word page every 10 ms, each on
//! a new connection. Goal: its p99 under the attack within 5x its p99
//! with none, or 20 ms, whichever is larger, for both, and nothing
//! refused to it.

use super::*;

const LIGHT_SEARCH: &str = "/api/v1/search?q=definition%3Atool%20AND%20length%3A4&limit=10";

/// What the normal client saw in one phase.
#[derive(Default)]
struct Sample {
    search: Vec<Duration>,
    page: Vec<Duration>,
    refused: usize,
}

fn pct(v: &[Duration], p: f64) -> f64 {
    let mut v = v.to_vec();
    v.sort();
    if v.is_empty() {
        return f64::NAN;
    }
    let i = ((v.len() as f64 * p).ceil() as usize).clamp(1, v.len()) - 1;
    v[i].as_secs_f64() * 1000.0
}

/// The normal client for `secs`.
fn client(to: SocketAddr, words: &[String], secs: u64) -> Sample {
    let mut s = Sample::default();
    let end = Instant::now() + Duration::from_secs(secs);
    let mut i = 0;
    while Instant::now() < end {
        let search = i % 2 == 0;
        let request = if search {
            get(LIGHT_SEARCH)
        } else {
            get(&format!("/api/v1/word/{}", words[(i / 2) % words.len()]))
        };
        i += 1;
        let start = Instant::now();
        let status = exchange([127, 0, 0, 1], to, &request);
        let took = start.elapsed();
        if search {
            s.search.push(took);
        } else {
            s.page.push(took);
        }
        if status != 200 {
            s.refused += 1;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    s
}

/// A row of the table: the attack, the client with none and under it.
struct Row {
    attack: String,
    idle: Sample,
    attacked: Sample,
    note: String,
}

impl Row {
    fn met(&self) -> bool {
        let ok = |idle: &[Duration], att: &[Duration]| {
            !att.is_empty() && pct(att, 0.99) <= (pct(idle, 0.99) * 5.0).max(20.0)
        };
        ok(&self.idle.search, &self.attacked.search)
            && ok(&self.idle.page, &self.attacked.page)
            && self.attacked.refused == 0
    }

    fn print(&self) {
        println!(
            "| {} | {:.2} / {:.2} | {:.2} / {:.2} | {:.2} / {:.2} | {:.2} / {:.2} | {} | {} | {} |",
            self.attack,
            pct(&self.idle.search, 0.5),
            pct(&self.idle.search, 0.99),
            pct(&self.attacked.search, 0.5),
            pct(&self.attacked.search, 0.99),
            pct(&self.idle.page, 0.5),
            pct(&self.idle.page, 0.99),
            pct(&self.attacked.page, 0.5),
            pct(&self.attacked.page, 0.99),
            self.attacked.search.len() + self.attacked.page.len(),
            self.attacked.refused,
            if self.met() { "met" } else { "NOT met" },
        );
        if !self.note.is_empty() {
            println!("  {}: {}", self.attack, self.note);
        }
    }
}

/// A running server and its address.
struct Served {
    child: Child,
    to: SocketAddr,
}

impl Served {
    fn start(bin: &Path, site: &Path, stderr: Stdio) -> Served {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let to: SocketAddr = ([127, 0, 0, 1], port).into();
        let child = Command::new(bin)
            .args(["serve", "--site"])
            .arg(site)
            .args(["--addr", &to.to_string()])
            .stdout(Stdio::null())
            .stderr(stderr)
            .spawn()
            .unwrap();
        let start = Instant::now();
        while TcpStream::connect(to).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "the server did not start"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Served { child, to }
    }

    /// Stops it; whether it was still running (not killed by a signal).
    fn stop(mut self) -> String {
        let alive = self.child.try_wait().ok().flatten();
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let status = self.child.wait();
        match alive {
            None => String::new(),
            Some(st) => format!("the server had exited during the run ({st}); {status:?}"),
        }
    }
}

/// Runs `attack` (which starts abusers and gives back their threads,
/// ended when `stop` is set) between two phases of the normal client.
fn measure(
    name: String,
    to: SocketAddr,
    words: &[String],
    secs: u64,
    attack: impl FnOnce(&Arc<AtomicBool>) -> Vec<std::thread::JoinHandle<()>>,
) -> Row {
    let idle = client(to, words, secs);
    let stop = Arc::new(AtomicBool::new(false));
    let threads = attack(&stop);
    std::thread::sleep(Duration::from_secs(3));
    let attacked = client(to, words, secs);
    stop.store(true, Ordering::Relaxed);
    for t in threads {
        let _ = t.join();
    }
    std::thread::sleep(Duration::from_secs(2));
    let row = Row {
        attack: name,
        idle,
        attacked,
        note: String::new(),
    };
    row.print();
    row
}

/// 17 x 63 connections sending a 4000-byte body a byte a second.
fn slow_bodies(to: SocketAddr, stop: &Arc<AtomicBool>) -> Vec<std::thread::JoinHandle<()>> {
    const ADDRS: usize = 17;
    const EACH: usize = 63;
    let stop = stop.clone();
    vec![std::thread::spawn(move || {
        let head = b"POST /api/v1/moves HTTP/1.1\r\nHost: bench\r\nContent-Length: 4000\r\n\r\n";
        let open = |k: usize| -> Option<TcpStream> {
            let mut s = connect_from([127, 0, 6, 1 + (k / EACH) as u8], to).ok()?;
            s.write_all(head).ok()?;
            s.set_nonblocking(true).ok()?;
            Some(s)
        };
        let mut conns: Vec<Option<TcpStream>> = Vec::new();
        for k in 0..ADDRS * EACH {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            conns.push(open(k));
        }
        while !stop.load(Ordering::Relaxed) {
            let tick = Instant::now();
            for (k, c) in conns.iter_mut().enumerate() {
                let alive = match c {
                    Some(s) => {
                        let mut probe = [0u8; 64];
                        let ended = !matches!(s.read(&mut probe), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock);
                        !ended && s.write_all(b"1").is_ok()
                    }
                    None => false,
                };
                if !alive {
                    *c = open(k);
                }
                if stop.load(Ordering::Relaxed) {
                    return;
                }
            }
            std::thread::sleep(Duration::from_secs(1).saturating_sub(tick.elapsed()));
        }
    })]
}

/// The heavy searches, as requests.
fn heavy_searches() -> Vec<Vec<u8>> {
    SEARCHES
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
        .collect()
}

/// `addrs` addresses, each keeping 2 heavy searches in flight.
fn heavy(
    to: SocketAddr,
    addrs: usize,
    stop: &Arc<AtomicBool>,
    tally: &Arc<Tally>,
) -> Vec<std::thread::JoinHandle<()>> {
    let requests = Arc::new(heavy_searches());
    (0..addrs * 2)
        .map(|k| {
            let (stop, tally, requests) = (stop.clone(), tally.clone(), requests.clone());
            let from = [127, 0, 7, 1 + (k / 2) as u8];
            std::thread::spawn(move || {
                let mut i = k;
                while !stop.load(Ordering::Relaxed) {
                    tally.count(exchange(from, to, &requests[i % requests.len()]));
                    i += 1;
                }
            })
        })
        .collect()
}

/// 4 clients asking for word pages as fast as they are answered.
fn flood(to: SocketAddr, stop: &Arc<AtomicBool>) -> Vec<std::thread::JoinHandle<()>> {
    (0..4)
        .map(|k| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    exchange([127, 0, 5, 1 + k as u8], to, &get("/api/v1/word/care"));
                }
            })
        })
        .collect()
}

/// Copies every file of `from`'s index and its lexicon over `live`'s,
/// in place (truncated, then written), every 200 ms.
fn deploy_by_cp(
    from: PathBuf,
    live: PathBuf,
    stop: &Arc<AtomicBool>,
) -> Vec<std::thread::JoinHandle<()>> {
    let stop = stop.clone();
    vec![std::thread::spawn(move || {
        while !stop.load(Ordering::Relaxed) {
            let mut files = vec![PathBuf::from("lexicon.lexq")];
            if let Ok(entries) = std::fs::read_dir(from.join("index")) {
                files.extend(
                    entries
                        .flatten()
                        .map(|e| Path::new("index").join(e.file_name())),
                );
            }
            for f in files {
                let (src, dst) = (from.join(&f), live.join(&f));
                if src.is_file() {
                    // std::fs::copy opens the target with O_TRUNC, as cp.
                    let _ = std::fs::copy(&src, &dst);
                }
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    })]
}

/// Copies the folder `from` to `to` (files and one level of folders).
fn copy_site(from: &Path, to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to.join("index")).unwrap();
    for sub in [Path::new(""), Path::new("index")] {
        for e in std::fs::read_dir(from.join(sub)).unwrap().flatten() {
            if e.path().is_file() {
                std::fs::copy(e.path(), to.join(sub).join(e.file_name())).unwrap();
            }
        }
    }
}

pub(crate) fn run(bin: &Path, site: &Path, secs: u64) {
    let words: Vec<String> = include_str!("../../../indexes/enable1.txt")
        .lines()
        .step_by(50)
        .map(str::to_string)
        .collect();
    let logical = std::thread::available_parallelism().map_or(0, |n| n.get());
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "\nattacks of issue 30: {secs} s a phase, {logical} cores, load average {}",
        load.split(' ').take(3).collect::<Vec<_>>().join(" ")
    );
    println!(
        "| attack | search p50 / p99 ms, none | under attack | word page p50 / p99 ms, none | under attack | requests | refused | goal |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut rows = Vec::new();

    let log = std::fs::File::create(target().join("site-bench/abuse-attacks.log")).unwrap();
    let served = Served::start(bin, site, Stdio::from(log));
    let to = served.to;
    rows.push(measure(
        "slow bodies, 17 addresses x 63".into(),
        to,
        &words,
        secs,
        |stop| slow_bodies(to, stop),
    ));
    for addrs in [1, 4, 16, 60] {
        let tally = Arc::new(Tally::default());
        let mut row = measure(
            format!(
                "heavy searches, {addrs} address{}",
                if addrs == 1 { "" } else { "es" }
            ),
            to,
            &words,
            secs,
            |stop| heavy(to, addrs, stop, &tally),
        );
        row.note = tally.line("the attackers");
        println!("  {}", row.note);
        rows.push(row);
    }
    let died = served.stop();
    if !died.is_empty() {
        println!("  {died}");
    }

    // The log a pipe: read while idle, not read under the attack.
    let (mut reader, writer) = std::io::pipe().unwrap();
    let served = Served::start(bin, site, Stdio::from(writer));
    let to = served.to;
    let reading = Arc::new(AtomicBool::new(true));
    let drained = {
        let reading = reading.clone();
        std::thread::spawn(move || {
            let mut buf = vec![0u8; 65536];
            let mut dropped_note = String::new();
            loop {
                if !reading.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(20));
                    continue;
                }
                match reader.read(&mut buf) {
                    Ok(0) | Err(_) => return dropped_note,
                    Ok(n) => {
                        let text = String::from_utf8_lossy(&buf[..n]);
                        if let Some(l) =
                            text.lines().rev().find(|l| l.contains("log lines dropped"))
                        {
                            dropped_note = l.to_string();
                        }
                    }
                }
            }
        })
    };
    rows.push(measure(
        "a log pipe nobody reads".into(),
        to,
        &words,
        secs,
        |stop| {
            reading.store(false, Ordering::Relaxed);
            flood(to, stop)
        },
    ));
    reading.store(true, Ordering::Relaxed);
    let died = served.stop();
    if let Ok(note) = drained.join()
        && !note.is_empty()
    {
        println!("  the log said: {note}");
    }
    if !died.is_empty() {
        println!("  {died}");
    }

    // A deploy by cp over the live folder.
    let live = target().join("site-bench/abuse-live");
    copy_site(site, &live);
    let log = std::fs::File::create(target().join("site-bench/abuse-deploy.log")).unwrap();
    let served = Served::start(bin, &live, Stdio::from(log));
    let to = served.to;
    let mut row = measure(
        "a deploy by cp over the live files".into(),
        to,
        &words,
        secs,
        |stop| deploy_by_cp(site.to_path_buf(), live.clone(), stop),
    );
    row.note = served.stop();
    if !row.note.is_empty() {
        println!("  {}", row.note);
    }
    rows.push(row);
    let met = rows.iter().filter(|r| r.met()).count();
    println!("goal met in {met} of {} attacks", rows.len());
}
