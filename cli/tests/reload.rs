//! `lexq serve` reloading on SIGHUP: a site rebuilt in place is served
//! from the next request on, no request failing meanwhile; a site that
//! fails its checks is refused and the old one goes on; no file of a
//! replaced site stays open.

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, ChildStderr, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use common::*;

/// `lexq site build` of the fixture into `out` from `lexicon`, with the
/// definitions file `defs` too.
fn build_site(lexicon: &Path, defs: &Path, out: &Path) {
    let o = run(&[
        "site",
        "build",
        "-L",
        path_str(lexicon),
        "--wordnet",
        path_str(&fixture_data().join("wordnet")),
        "--definitions",
        path_str(defs),
        "-o",
        path_str(out),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// `lexq serve --quiet --site site` on a free port: the child, its
/// address and its stderr.
fn serve(site: &Path) -> (Child, String, BufReader<ChildStderr>) {
    let mut child = lexq()
        .args(["serve", "--quiet", "--addr", "127.0.0.1:0", "--site"])
        .arg(site)
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
    (child, addr, err)
}

/// The files under `dir` that the process `pid` maps or holds open
/// after they were deleted (or replaced by a rename).
fn deleted_held(pid: u32, dir: &Path) -> Vec<String> {
    let dir = dir.to_string_lossy().into_owned();
    let mut held = Vec::new();
    let maps = std::fs::read_to_string(format!("/proc/{pid}/maps")).unwrap_or_default();
    for l in maps.lines() {
        if l.contains(&dir) && l.ends_with("(deleted)") {
            held.push(l.to_string());
        }
    }
    if let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) {
        for fd in fds.flatten() {
            if let Ok(target) = std::fs::read_link(fd.path()) {
                let t = target.to_string_lossy().into_owned();
                if t.contains(&dir) && t.ends_with("(deleted)") {
                    held.push(t);
                }
            }
        }
    }
    held
}

/// Reads `err` until a line holding `needle`; the lines read.
fn read_until(err: &mut BufReader<ChildStderr>, needle: &str) -> String {
    let mut all = String::new();
    loop {
        let mut line = String::new();
        if err.read_line(&mut line).unwrap() == 0 {
            panic!("stderr ended before {needle:?}: {all}");
        }
        all.push_str(&line);
        if line.contains(needle) {
            return all;
        }
    }
}

#[test]
fn sighup_serves_a_site_rebuilt_in_place_and_refuses_a_damaged_one() {
    let dir = tempfile::tempdir().unwrap();
    let lexicon = dir.path().join("words.lexq");
    let o = run(&[
        "build",
        path_str(&fixture_data().join("words.txt")),
        "-o",
        path_str(&lexicon),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let defs = dir.path().join("defs.tsv");
    std::fs::write(&defs, "care\tn\tthe first build's sense\n").unwrap();
    let site = dir.path().join("site");
    build_site(&lexicon, &defs, &site);
    let (mut child, addr, mut err) = serve(&site);
    let (status, body) = http_get(&addr, "/api/v1/word/care");
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("the first build's sense"), "{body}");

    // Clients asking all along, on connections of their own and on one
    // kept alive: not one answer may be other than 200.
    let stop = Arc::new(AtomicBool::new(false));
    let asked = Arc::new(AtomicUsize::new(0));
    let clients: Vec<_> = (0..3)
        .map(|_| {
            let (stop, asked, addr) = (stop.clone(), asked.clone(), addr.clone());
            std::thread::spawn(move || {
                let mut failed = Vec::new();
                while !stop.load(Ordering::Relaxed) {
                    for path in [
                        "/api/v1/word/care",
                        "/api/v1/search?q=care",
                        "/api/v1/anagram/acre",
                    ] {
                        let (status, body) = http_get(&addr, path);
                        if status != 200 {
                            failed.push(format!("{path}: {status} {body}"));
                        }
                        asked.fetch_add(1, Ordering::Relaxed);
                    }
                }
                failed
            })
        })
        .collect();

    // Rebuilt in place (the build renames the new site over the old).
    std::fs::write(&defs, "care\tn\tthe second build's sense\n").unwrap();
    build_site(&lexicon, &defs, &site);
    let before = asked.load(Ordering::Relaxed);
    signal(&child, "HUP");
    let log = read_until(&mut err, "lexq: SIGHUP:");
    assert!(
        log.contains("lexq: SIGHUP: reloaded: serving 25 words"),
        "{log}"
    );
    let (status, body) = http_get(&addr, "/api/v1/word/care");
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("the second build's sense"), "{body}");
    assert!(!body.contains("the first build's sense"), "{body}");
    // Asked through the switch.
    let start = Instant::now();
    while asked.load(Ordering::Relaxed) < before + 30 && start.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(20));
    }
    stop.store(true, Ordering::Relaxed);
    let failed: Vec<String> = clients
        .into_iter()
        .flat_map(|c| c.join().unwrap())
        .collect();
    assert!(failed.is_empty(), "{} failed: {failed:?}", failed.len());
    assert!(asked.load(Ordering::Relaxed) >= before + 30);

    // The first build's files, deleted by the rebuild, are let go once
    // no request uses them.
    let start = Instant::now();
    let mut held = deleted_held(child.id(), dir.path());
    while !held.is_empty() && start.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(50));
        held = deleted_held(child.id(), dir.path());
    }
    assert!(held.is_empty(), "still held: {held:#?}");

    // A third build, damaged (one byte of its stored pages changed, the
    // size kept), renamed into place: refused; the second goes on.
    let third = dir.path().join("third");
    std::fs::write(&defs, "care\tn\tthe third build's sense\n").unwrap();
    build_site(&lexicon, &defs, &third);
    let store = std::fs::read_dir(third.join("index"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "store"))
        .expect("a .store file");
    let mut bytes = std::fs::read(&store).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x55;
    std::fs::write(&store, &bytes).unwrap();
    std::fs::rename(&site, dir.path().join("second")).unwrap();
    std::fs::rename(&third, &site).unwrap();
    signal(&child, "HUP");
    let log = read_until(&mut err, "lexq: SIGHUP:");
    assert!(log.contains("lexq: SIGHUP: reload refused: "), "{log}");
    assert!(log.contains("damaged"), "{log}");
    assert!(log.contains("still serving the previous files"), "{log}");
    let (status, body) = http_get(&addr, "/api/v1/word/care");
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("the second build's sense"), "{body}");

    // SIGTERM still stops it.
    signal(&child, "TERM");
    let (status, _) = exit_within(&mut child, Duration::from_secs(10)).expect("still running");
    assert!(status.success(), "{status}");
}
