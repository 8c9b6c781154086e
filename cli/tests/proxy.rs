//! Two `lexq serve` replicas behind a real nginx (Debian's package,
//! installed by `site/fetch-wordnet.sh --nginx`), configured with
//! docs/deploy/nginx.conf as DEPLOY.md gives it: clients are limited
//! apart (keyed by `X-Forwarded-For`), a replica killed mid-run costs no
//! request, and the replicas send the same `ETag`s.
//!
//! Without nginx (no network, no root for apt-get) the test says it is
//! skipped; under `LEXQ_REQUIRE_ALL=1` (`.ci/run`) it fails instead.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use common::*;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// nginx's binary, installed first if it is missing; `None` (the test
/// skipped, or failed under `LEXQ_REQUIRE_ALL=1`) if it cannot be had.
fn nginx() -> Option<PathBuf> {
    let find = || {
        ["/usr/sbin/nginx", "/usr/bin/nginx"]
            .iter()
            .map(PathBuf::from)
            .find(|p| p.is_file())
    };
    if let Some(p) = find() {
        return Some(p);
    }
    let out = Command::new("bash")
        .arg(root().join("site/fetch-wordnet.sh"))
        .arg("--nginx")
        .stdin(Stdio::null())
        .output();
    if let Some(p) = find() {
        return Some(p);
    }
    let why = match out {
        Ok(o) => String::from_utf8_lossy(&o.stderr).trim().to_string(),
        Err(e) => e.to_string(),
    };
    let what = format!("nginx (the network, and root for apt-get): {why}");
    if std::env::var_os("LEXQ_REQUIRE_ALL").is_some_and(|v| v == "1") {
        panic!("needs {what} (LEXQ_REQUIRE_ALL=1: required)");
    }
    let _ = writeln!(
        std::io::stderr().lock(),
        "skipped: replicas_behind_nginx: needs {what} (set LEXQ_REQUIRE_ALL=1 to make this a failure)"
    );
    None
}

/// Children killed when the test ends, however it ends.
struct Reaper(Vec<Child>);

impl Drop for Reaper {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// A replica: `lexq serve` on a free loopback port, trusting nginx on
/// 127.0.0.1; its address.
fn replica(args: &[&str]) -> (Child, String) {
    let mut child = lexq()
        .args(["serve", "--quiet", "--addr", "127.0.0.1:0"])
        .args(["--trust-proxy", "127.0.0.1"])
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
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
    // Its stderr drained, so that it never blocks on it.
    std::thread::spawn(move || std::io::copy(&mut err, &mut std::io::sink()));
    (child, addr)
}

/// One GET from the loopback address `from` (a client of its own to
/// nginx and the replicas) to `addr`: the status, the `ETag`, the body
/// (status 0 when the connection ended without an answer).
fn get_from(from: &str, addr: &str, path: &str) -> (u16, String, String) {
    use socket2::{Domain, Socket, Type};
    let local: SocketAddr = format!("{from}:0").parse().unwrap();
    let addr: SocketAddr = addr.parse().unwrap();
    let s = Socket::new(Domain::IPV4, Type::STREAM, None).unwrap();
    s.bind(&local.into()).unwrap();
    if s.connect(&addr.into()).is_err() {
        return (0, String::new(), String::new());
    }
    let mut s: TcpStream = s.into();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: lexq.test\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let raw = String::from_utf8_lossy(&raw).into_owned();
    let Some((head, body)) = raw.split_once("\r\n\r\n") else {
        return (0, String::new(), raw);
    };
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let etag = head
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("etag").then(|| v.trim().to_string())
        })
        .unwrap_or_default();
    (status, etag, body.to_string())
}

/// A free loopback port (bound, then let go).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// docs/deploy/nginx.conf with the test's addresses, inside a main
/// configuration whose every path is under `dir`.
fn nginx_conf(dir: &Path, listen: u16, a: &str, b: &str) -> PathBuf {
    let shared = std::fs::read_to_string(root().join("docs/deploy/nginx.conf")).unwrap();
    for needle in ["127.0.0.1:8080;", "127.0.0.1:8081 ", "127.0.0.1:8082 "] {
        assert!(shared.contains(needle), "docs/deploy/nginx.conf: {needle}");
    }
    let site = shared
        .replace("127.0.0.1:8080;", &format!("127.0.0.1:{listen};"))
        .replace("127.0.0.1:8081 ", &format!("{a} "))
        .replace("127.0.0.1:8082 ", &format!("{b} "));
    std::fs::write(dir.join("lexq.conf"), site).unwrap();
    let d = dir.display();
    let main = format!(
        "daemon off;\nworker_processes 1;\npid {d}/nginx.pid;\nerror_log {d}/error.log info;\n\
         events {{ worker_connections 512; }}\n\
         http {{\n  access_log {d}/access.log;\n\
         \x20 client_body_temp_path {d}/body;\n  proxy_temp_path {d}/proxy;\n\
         \x20 fastcgi_temp_path {d}/fastcgi;\n  uwsgi_temp_path {d}/uwsgi;\n  scgi_temp_path {d}/scgi;\n\
         \x20 include {d}/lexq.conf;\n}}\n"
    );
    let path = dir.join("nginx.conf");
    std::fs::write(&path, main).unwrap();
    path
}

#[test]
fn replicas_behind_nginx() {
    let Some(nginx) = nginx() else { return };
    let dir = tempfile::tempdir().unwrap();
    // nginx's workers may run as another user: they must reach the folder.
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    // ENABLE (embedded): heavy queries take long enough to overlap.
    let (a, addr_a) = replica(&["--max-client-heavy", "1"]);
    let (b, addr_b) = replica(&["--max-client-heavy", "1"]);
    let mut children = Reaper(vec![a, b]);
    let port = free_port();
    let conf = nginx_conf(dir.path(), port, &addr_a, &addr_b);
    let nginx = Command::new(&nginx)
        .args(["-p", &dir.path().display().to_string(), "-e"])
        .arg(dir.path().join("error.log"))
        .arg("-c")
        .arg(&conf)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    children.0.push(nginx);
    let proxy = format!("127.0.0.1:{port}");
    let start = Instant::now();
    while TcpStream::connect(&proxy).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "nginx did not listen: {}",
            std::fs::read_to_string(dir.path().join("error.log")).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(50));
    }

    // The same answer, with the same ETag, from either replica and
    // through the proxy.
    for path in ["/api/v1/anagram/acre", "/api/v1/hooks/care", "/"] {
        let (s1, t1, b1) = get_from("127.0.0.1", &addr_a, path);
        let (s2, t2, b2) = get_from("127.0.0.1", &addr_b, path);
        assert_eq!((s1, s2), (200, 200), "{path}");
        assert_eq!(b1, b2, "{path}");
        assert!(!t1.is_empty(), "{path}");
        assert_eq!(t1, t2, "{path}");
        for _ in 0..4 {
            let (s, t, _) = get_from("127.0.0.2", &proxy, path);
            assert_eq!((s, &t), (200, &t1), "{path} through nginx");
        }
    }
    // Metrics are not served through the balancer.
    assert_eq!(get_from("127.0.0.2", &proxy, "/metrics").0, 404);

    // Two clients limited apart: the first sends heavy queries many at a
    // time, over its share of one in flight per replica, and is refused
    // some; the second, one at a time, never is.
    let heavy = "/api/v1/regex/.*a.*e.*i.*?limit=1";
    let barrier = Arc::new(Barrier::new(9));
    let greedy: Vec<_> = (0..8)
        .map(|_| {
            let (barrier, proxy) = (barrier.clone(), proxy.clone());
            std::thread::spawn(move || {
                barrier.wait();
                (0..4)
                    .map(|_| get_from("127.0.0.3", &proxy, heavy).0)
                    .collect::<Vec<u16>>()
            })
        })
        .collect();
    barrier.wait();
    let mut modest = Vec::new();
    for _ in 0..8 {
        modest.push(get_from("127.0.0.4", &proxy, heavy).0);
    }
    let greedy: Vec<u16> = greedy.into_iter().flat_map(|t| t.join().unwrap()).collect();
    assert!(greedy.contains(&429), "{greedy:?}");
    assert!(greedy.iter().all(|&s| s == 200 || s == 429), "{greedy:?}");
    assert!(modest.iter().all(|&s| s == 200), "{modest:?}");

    // One replica killed mid-run, with requests in flight: every
    // request still answered 200.
    let asked = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let clients: Vec<_> = (0..3)
        .map(|c| {
            let (asked, proxy) = (asked.clone(), proxy.clone());
            std::thread::spawn(move || {
                let from = format!("127.0.0.{}", 10 + c);
                (0..150)
                    .map(|i| {
                        let path = if i % 2 == 0 {
                            "/api/v1/anagram/acre"
                        } else {
                            "/api/v1/hooks/care"
                        };
                        let got = get_from(&from, &proxy, path);
                        asked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        (path, got.0, got.2)
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let start = Instant::now();
    while asked.load(std::sync::atomic::Ordering::Relaxed) < 100 {
        assert!(start.elapsed() < Duration::from_secs(60));
        std::thread::sleep(Duration::from_millis(1));
    }
    let a = &mut children.0[0];
    a.kill().unwrap();
    a.wait().unwrap();
    let answers: Vec<_> = clients
        .into_iter()
        .flat_map(|t| t.join().unwrap())
        .collect();
    assert_eq!(answers.len(), 450);
    let failed: Vec<_> = answers.iter().filter(|a| a.1 != 200).collect();
    assert!(failed.is_empty(), "{} failed: {failed:?}", failed.len());
    // And it was really gone.
    assert!(TcpStream::connect(&addr_a).is_err());
}
