//! The access log: one line per request on stderr,
//!
//! ```text
//! 2026-11-28T03:10:00.412Z 203.0.113.7 "GET /api/v1/word/care" 200 0.412ms
//! 2026-11-28T03:10:00.413Z 198.51.100.2 "GET /api/v1/pattern/*" 429 0.031ms via 10.0.0.1
//! 2026-11-28T03:10:00.414Z 127.0.0.1 "GET /x\"y" 404 0.020ms xff="1.2.3.4\x01"
//! ```
//!
//! the time (RFC 3339, UTC), the client (behind a trusted proxy: the one
//! it names, then `via` the proxy), the request, its status and time, and
//! an `X-Forwarded-For` the server did not use. Whatever came from the
//! client is escaped: `"` and `\` with a backslash, control characters
//! and other bytes outside printable ASCII as `\xHH`, so a line is always
//! one line and its quoted fields always end at their closing quote; and
//! cut to [`MAX_FIELD_BYTES`] (`...[45056 bytes]` says how long it was).
//!
//! Logging never holds up a request: a line goes into a queue of
//! [`QUEUE_LINES`] that one thread writes out; when the queue is full (the
//! log is not read, as a pipe nobody drains, or not fast enough) the line
//! is dropped and counted ([`dropped_lines`]), and the writer says how
//! many were dropped once it can write again. Refusals (429) from one
//! address are summarised: the first in [`SUMMARY_SECS`] seconds is
//! logged, the rest counted in one line at the end of that time.

use std::collections::HashMap;
use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant, SystemTime};

use axum::extract::{ConnectInfo, Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::Response;

use super::AppState;
use super::client::Client;

/// Lines waiting to be written, at most; more are dropped and counted.
pub const QUEUE_LINES: usize = 4096;

/// The most bytes of one field from the client (the request's path and
/// query, `X-Forwarded-For`) written to the log, before escaping.
pub const MAX_FIELD_BYTES: usize = 256;

/// Refusals (429) from one address are summarised over this many seconds.
pub const SUMMARY_SECS: u64 = 10;

/// Addresses whose refusals are counted one by one; past this many in one
/// period, the rest are counted together.
const MAX_SUMMARISED: usize = 4096;

/// Appends `bytes` to `out`, escaped as the log needs.
pub fn escape_into(bytes: &[u8], out: &mut String) {
    for &b in bytes {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(b as char),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.push_str("\\x");
                out.push(HEX[(b >> 4) as usize] as char);
                out.push(HEX[(b & 15) as usize] as char);
            }
        }
    }
}

/// [`escape_into`] of at most [`MAX_FIELD_BYTES`] of `bytes`, followed by
/// `...[N bytes]` when they were cut.
pub fn escape_cut_into(bytes: &[u8], out: &mut String) {
    if bytes.len() <= MAX_FIELD_BYTES {
        escape_into(bytes, out);
    } else {
        escape_into(&bytes[..MAX_FIELD_BYTES], out);
        out.push_str(&format!("...[{} bytes]", bytes.len()));
    }
}

/// `t` as RFC 3339 in UTC with milliseconds: `2026-11-28T03:10:00.412Z`.
pub fn rfc3339(t: SystemTime) -> String {
    let d = t.duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default();
    let secs = d.as_secs();
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Days since 1970-01-01 to a civil date (the proleptic Gregorian
    // calendar, in eras of 400 years from 0000-03-01).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60,
        d.subsec_millis()
    )
}

/// A queue of lines and the thread writing them to `out`.
pub(crate) struct Sink {
    tx: SyncSender<String>,
    dropped: AtomicU64,
    queued: AtomicU64,
    written: AtomicU64,
    refusals: Mutex<Refusals>,
}

/// The refusals counted in the current period.
#[derive(Default)]
struct Refusals {
    /// By address: when its period began, and the refusals since its
    /// first (which was logged).
    by_addr: HashMap<IpAddr, (Instant, u64)>,
    /// Refusals from addresses past [`MAX_SUMMARISED`].
    others: u64,
    others_since: Option<Instant>,
}

impl Sink {
    /// A sink of `capacity` lines writing to `out` on a thread of its own;
    /// the thread ends when the sink is dropped (a static one never is).
    pub(crate) fn start(out: Box<dyn Write + Send>, capacity: usize) -> std::sync::Arc<Sink> {
        let (tx, rx) = std::sync::mpsc::sync_channel(capacity.max(1));
        let sink = std::sync::Arc::new(Sink {
            tx,
            dropped: AtomicU64::new(0),
            queued: AtomicU64::new(0),
            written: AtomicU64::new(0),
            refusals: Mutex::default(),
        });
        let weak = std::sync::Arc::downgrade(&sink);
        let spawned = std::thread::Builder::new()
            .name("lexq-log".into())
            .spawn(move || write_lines(rx, out, weak));
        drop(spawned);
        sink
    }

    /// Queues `text` as one line with the time in front; dropped and
    /// counted when the queue is full. Never waits.
    pub(crate) fn line(&self, text: &str) {
        let mut l = String::with_capacity(text.len() + 26);
        l.push_str(&rfc3339(SystemTime::now()));
        l.push(' ');
        l.push_str(text);
        l.push('\n');
        match self.tx.try_send(l) {
            Ok(()) => {
                self.queued.fetch_add(1, Ordering::Relaxed);
            }
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {
                self.dropped.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    /// A refusal (429) from `addr`: `text` is logged if it is the
    /// address's first in its period, else counted for the summary.
    pub(crate) fn refused(&self, addr: IpAddr, text: &str) {
        let first = {
            let mut r = self.refusals.lock().unwrap_or_else(|p| p.into_inner());
            let full = r.by_addr.len() >= MAX_SUMMARISED;
            match r.by_addr.get_mut(&addr) {
                Some((_, more)) => {
                    *more += 1;
                    false
                }
                None if full => {
                    r.others += 1;
                    r.others_since.get_or_insert_with(Instant::now);
                    false
                }
                None => {
                    r.by_addr.insert(addr, (Instant::now(), 0));
                    true
                }
            }
        };
        if first {
            self.line(text);
        }
    }

    /// Writes the summaries of the periods that have ended (all of them
    /// with `all`).
    fn summarise(&self, all: bool) {
        let period = Duration::from_secs(SUMMARY_SECS);
        let mut lines = Vec::new();
        {
            let mut r = self.refusals.lock().unwrap_or_else(|p| p.into_inner());
            let now = Instant::now();
            r.by_addr.retain(|addr, (since, more)| {
                let over = all || now.duration_since(*since) >= period;
                if over && *more > 0 {
                    lines.push(format!(
                        "{addr} \"-\" 429 x{more} more refused in {} ms (summarised)",
                        now.duration_since(*since).as_millis()
                    ));
                }
                !over
            });
            if let Some(since) = r.others_since
                && (all || now.duration_since(since) >= period)
            {
                lines.push(format!(
                    "- \"-\" 429 x{} refused from other addresses (summarised)",
                    r.others
                ));
                r.others = 0;
                r.others_since = None;
            }
        }
        for l in lines {
            self.line(&l);
        }
    }

    /// Waits until the lines queued so far are written, at most `within`.
    pub(crate) fn flush(&self, within: Duration) {
        self.summarise(true);
        let target = self.queued.load(Ordering::Relaxed);
        let start = Instant::now();
        while self.written.load(Ordering::Relaxed) < target && start.elapsed() < within {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

/// The writer thread: writes each line, says how many were dropped once
/// it can write again, and writes the refusal summaries every second.
fn write_lines(rx: Receiver<String>, mut out: Box<dyn Write + Send>, sink: std::sync::Weak<Sink>) {
    let mut reported = 0;
    loop {
        let got = rx.recv_timeout(Duration::from_secs(1));
        let Some(sink) = sink.upgrade() else { return };
        match got {
            Ok(l) => {
                let _ = out.write_all(l.as_bytes());
                let _ = out.flush();
                sink.written.fetch_add(1, Ordering::Relaxed);
                let dropped = sink.dropped.load(Ordering::Relaxed);
                if dropped > reported {
                    let note = format!(
                        "{} lexq: {} log lines dropped so far (the log is not read fast enough)\n",
                        rfc3339(SystemTime::now()),
                        dropped
                    );
                    let _ = out.write_all(note.as_bytes());
                    let _ = out.flush();
                    reported = dropped;
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return,
        }
        sink.summarise(false);
    }
}

/// The process's log, on stderr.
fn sink() -> &'static Sink {
    static SINK: OnceLock<std::sync::Arc<Sink>> = OnceLock::new();
    SINK.get_or_init(|| Sink::start(Box::new(std::io::stderr()), QUEUE_LINES))
}

/// Queues one line for stderr with the time in front; never waits (a
/// line that finds the queue full is dropped and counted).
pub(crate) fn line(text: &str) {
    sink().line(text);
}

/// A refusal (429) from `addr`, logged as `text` or summarised.
pub(crate) fn refused(addr: IpAddr, text: &str) {
    sink().refused(addr, text);
}

/// How many log lines have been dropped since the process started,
/// because the queue was full (the log was not read fast enough).
pub fn dropped_lines() -> u64 {
    sink().dropped.load(Ordering::Relaxed)
}

/// Writes out what is queued (refusal summaries too), waiting at most
/// `within`: for a server stopping.
pub fn flush(within: Duration) {
    sink().flush(within);
}

/// The client of a request: as the server's connections record it, or
/// from axum's connection info when the router is served otherwise.
pub(crate) fn client_of(req: &Request) -> Client {
    if let Some(c) = req.extensions().get::<Client>() {
        return *c;
    }
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(SocketAddr::from(([0, 0, 0, 0], 0)), |c| c.0);
    Client {
        addr: peer.ip(),
        peer,
    }
}

/// The middleware writing one access-log line per request.
pub(crate) async fn access(State(state): State<AppState>, req: Request, next: Next) -> Response {
    if !state.log {
        return next.run(req).await;
    }
    let start = Instant::now();
    let client = client_of(&req);
    let mut text = format!("{} \"", client.addr);
    escape_into(req.method().as_str().as_bytes(), &mut text);
    text.push(' ');
    let uri = req.uri();
    escape_cut_into(
        uri.path_and_query()
            .map_or(uri.path(), |p| p.as_str())
            .as_bytes(),
        &mut text,
    );
    text.push('"');
    let xff: Option<Vec<u8>> = (!client.via_proxy())
        .then(|| {
            let all: Vec<&[u8]> = req
                .headers()
                .get_all("x-forwarded-for")
                .iter()
                .map(|v| v.as_bytes())
                .collect();
            (!all.is_empty()).then(|| all.join(&b", "[..]))
        })
        .flatten();
    let response = next.run(req).await;
    text.push_str(&format!(
        " {} {:.3}ms",
        response.status().as_u16(),
        start.elapsed().as_secs_f64() * 1000.0
    ));
    if client.via_proxy() {
        text.push_str(&format!(" via {}", client.peer.ip()));
    }
    if let Some(x) = xff {
        text.push_str(" xff=\"");
        escape_cut_into(&x, &mut text);
        text.push('"');
    }
    if response.status() == StatusCode::TOO_MANY_REQUESTS {
        refused(client.addr, &text);
    } else {
        line(&text);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn escaping_keeps_a_line_one_line() {
        let mut s = String::new();
        escape_into(b"/a\"b\\c\n\r\t\x1b[31m\x7f\xc3\xa9 ok", &mut s);
        assert_eq!(s, "/a\\\"b\\\\c\\x0a\\x0d\\x09\\x1b[31m\\x7f\\xc3\\xa9 ok");
        assert!(s.bytes().all(|b| (0x20..0x7f).contains(&b)));
        // Every quote in the output is escaped.
        assert!(!s.replace("\\\"", "").contains('"'));
        // Long fields are cut.
        let mut s = String::new();
        escape_cut_into(&[b'\n'; 45_000], &mut s);
        assert_eq!(s.len(), 4 * MAX_FIELD_BYTES + "...[45000 bytes]".len());
        assert!(s.ends_with("\\x0a...[45000 bytes]"), "{s}");
    }

    #[test]
    fn timestamps_are_rfc3339() {
        let at = |s: u64, ms: u64| {
            rfc3339(SystemTime::UNIX_EPOCH + Duration::from_millis(s * 1000 + ms))
        };
        assert_eq!(at(0, 0), "1970-01-01T00:00:00.000Z");
        // Checked with `date -u -d @951782400`: a leap day.
        assert_eq!(at(951_782_400, 7), "2000-02-29T00:00:00.007Z");
        assert_eq!(at(1_795_835_045, 999), "2026-11-28T03:04:05.999Z");
        assert_eq!(at(4_107_542_399, 0), "2100-02-28T23:59:59.000Z");
    }

    /// A writer that takes nothing until told to.
    struct Blocked(Arc<(Mutex<bool>, std::sync::Condvar)>, Arc<Mutex<Vec<u8>>>);

    impl Write for Blocked {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            let (open, cv) = &*self.0;
            let mut o = open.lock().unwrap();
            while !*o {
                o = cv.wait(o).unwrap();
            }
            self.1.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_log_nobody_reads_drops_lines_and_never_waits() {
        let gate = Arc::new((Mutex::new(false), std::sync::Condvar::new()));
        let out = Arc::new(Mutex::new(Vec::new()));
        let sink = Sink::start(Box::new(Blocked(gate.clone(), out.clone())), 8);
        let start = Instant::now();
        for i in 0..1000 {
            sink.line(&format!("line {i}"));
        }
        assert!(start.elapsed() < Duration::from_secs(2));
        let dropped = sink.dropped.load(Ordering::Relaxed);
        // The queue's 8, and the one the writer holds.
        assert!((1000 - 9..=1000 - 8).contains(&dropped), "{dropped}");
        *gate.0.lock().unwrap() = true;
        gate.1.notify_all();
        sink.flush(Duration::from_secs(5));
        let text = String::from_utf8(out.lock().unwrap().clone()).unwrap();
        assert!(text.contains(" line 0\n"), "{text}");
        assert!(
            text.contains(&format!("lexq: {dropped} log lines dropped so far")),
            "{text}"
        );
        assert!(text.lines().count() <= 11, "{text}");
    }

    #[test]
    fn refusals_from_one_address_are_summarised() {
        let out = Arc::new(Mutex::new(Vec::new()));
        let gate = Arc::new((Mutex::new(true), std::sync::Condvar::new()));
        let sink = Sink::start(Box::new(Blocked(gate, out.clone())), 64);
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        for _ in 0..500 {
            sink.refused(a, "10.0.0.1 \"GET /x\" 429");
        }
        sink.refused(b, "10.0.0.2 \"GET /y\" 429");
        sink.flush(Duration::from_secs(5));
        let text = String::from_utf8(out.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert!(lines[0].ends_with(" 10.0.0.1 \"GET /x\" 429"), "{text}");
        assert!(lines[1].ends_with(" 10.0.0.2 \"GET /y\" 429"), "{text}");
        assert!(
            lines[2].contains(" 10.0.0.1 \"-\" 429 x499 more refused in "),
            "{text}"
        );
    }
}
