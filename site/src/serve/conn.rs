//! Connections: the accept loop, its caps (all connections, and each
//! client address's), the time a client has to send and to read, and the
//! drain at shutdown.
//!
//! - At [`ServeOptions::max_connections`] the next connection accepted
//!   closes the one that has waited longest for a request (an idle
//!   keep-alive connection, a client that connected and sent nothing or
//!   sends its head or its body a byte at a time) to take its place; when
//!   every connection is being answered, it waits for one to close, and the
//!   loop accepts nothing more meanwhile (the kernel's backlog holds the
//!   rest), so the process never runs out of file descriptors; the cap
//!   is checked against the open-file limit at start. So idle
//!   connections from many addresses cannot keep a new client out.
//! - A request head is read into at most [`MAX_HEAD_BYTES`] (431
//!   beyond), so a thousand connections sending heads hold megabytes,
//!   not the hundreds hyper's default buffer would let them.
//! - An address holding [`ServeOptions::max_client_connections`] has its
//!   next connection answered 429 and closed.
//! - A request head must arrive within [`ServeOptions::client_timeout`]
//!   of the connection's opening or its previous answer (hyper's header
//!   timeout), a body within it (tower-http's body deadline) and at a
//!   least rate ([`MIN_BODY_RATE`], 408 if slower), and a
//!   connection with nothing to answer on which no byte moved for that
//!   long (a client that stopped reading its answer) is closed.
//! - At shutdown the loop stops accepting, idle connections close, open
//!   requests have [`ServeOptions::drain`] to finish, then the rest are
//!   dropped; a query still running on a pool thread does not hold the
//!   process (the runtime is not waited for).

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Body;
use axum::http::Request;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, Semaphore};
use tokio::time::Instant;
use tower::ServiceExt;

use super::AppState;
use super::client::{Client, Key, canonical};
use super::log;
use super::reload::Current;

/// Descriptors kept for everything but connections (standard streams,
/// the lexicon and index files, the runtime's own).
const RESERVED_FDS: usize = 64;

/// The most bytes of a request head (request line and header fields)
/// read on one connection: a longer head is answered 431. Every query
/// argument is at most `--max-input` bytes (100 by default) and a find
/// holds at most 32 of them, so a head of the API is a few KiB with a
/// browser's headers; hyper's default would let each connection hold
/// about 400 KiB.
const MAX_HEAD_BYTES: usize = 32 * 1024;

/// The bytes of `req`'s head as sent: the request line and each header
/// line with its colon, space and line end.
fn head_bytes<B>(req: &Request<B>) -> usize {
    let line =
        req.method().as_str().len() + req.uri().to_string().len() + " HTTP/1.1\r\n".len() + 1;
    let fields: usize = req
        .headers()
        .iter()
        .map(|(k, v)| k.as_str().len() + v.len() + 4)
        .sum();
    line + fields + 2
}

/// The connection cap: `requested`, or 1024 if the open-file limit allows.
/// The soft open-file limit is first raised to the hard one. An explicit
/// cap the limit cannot hold is an error naming both.
fn connection_cap(requested: Option<usize>) -> io::Result<usize> {
    if requested == Some(0) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "--max-connections 0: at least one connection is needed",
        ));
    }
    let Some(limit) = open_file_limit() else {
        return Ok(requested.unwrap_or(1024));
    };
    let open = std::fs::read_dir("/proc/self/fd").map_or(32, |d| d.count());
    let room = limit.saturating_sub(open + RESERVED_FDS);
    match requested {
        Some(n) if n > room => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "--max-connections {n}: the open-file limit ({limit}) leaves room for {room} \
                 connections (raise it with ulimit -n)"
            ),
        )),
        Some(n) => Ok(n),
        None if room == 0 => Err(io::Error::other(format!(
            "the open-file limit ({limit}) leaves no room for connections (raise it with ulimit -n)"
        ))),
        None => Ok(room.min(1024)),
    }
}

/// The soft open-file limit, raised to the hard one first if it can be.
fn open_file_limit() -> Option<usize> {
    #[cfg(unix)]
    {
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit read and write the struct we own.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) != 0 {
                return None;
            }
            if lim.rlim_cur < lim.rlim_max {
                let raised = libc::rlimit {
                    rlim_cur: lim.rlim_max,
                    rlim_max: lim.rlim_max,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                    lim = raised;
                }
            }
        }
        Some(usize::try_from(lim.rlim_cur).unwrap_or(usize::MAX))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// What the accept loop and a connection's watchdog know of it: when
/// bytes last moved on it and since when it has had nothing to answer
/// (milliseconds since the server started), how many of its requests are
/// being answered, and whether the loop is closing it to make room.
struct Activity {
    epoch: Instant,
    last_ms: AtomicU64,
    idle_since_ms: AtomicU64,
    answering: AtomicUsize,
    /// Of the requests being answered, those whose body is still coming:
    /// nothing is being worked out for them yet, so the connection may be
    /// shed as an idle one may.
    receiving: AtomicUsize,
    shedding: AtomicBool,
    shed: Notify,
}

impl Activity {
    fn new(epoch: Instant) -> Activity {
        let now = epoch.elapsed().as_millis() as u64;
        Activity {
            epoch,
            last_ms: AtomicU64::new(now),
            idle_since_ms: AtomicU64::new(now),
            answering: AtomicUsize::new(0),
            receiving: AtomicUsize::new(0),
            shedding: AtomicBool::new(false),
            shed: Notify::new(),
        }
    }

    fn touch(&self, epoch: Instant) {
        self.last_ms
            .store(epoch.elapsed().as_millis() as u64, Ordering::Relaxed);
    }

    /// Whether nothing is being worked out on the connection: no request,
    /// or only requests whose bodies are still coming.
    fn sheddable(&self) -> bool {
        self.answering.load(Ordering::Relaxed) <= self.receiving.load(Ordering::Relaxed)
    }
}

/// The connections open, for the accept loop to choose one to close when
/// it is at the cap.
#[derive(Default)]
struct Open {
    next: u64,
    conns: HashMap<u64, Arc<Activity>>,
}

type OpenConns = Arc<Mutex<Open>>;

fn open_conns(open: &OpenConns) -> std::sync::MutexGuard<'_, Open> {
    open.lock().unwrap_or_else(|p| p.into_inner())
}

/// Keeps a connection in [`Open`] until dropped.
struct Registered(OpenConns, u64);

impl Registered {
    fn new(open: &OpenConns, a: &Arc<Activity>) -> Registered {
        let mut o = open_conns(open);
        let id = o.next;
        o.next += 1;
        o.conns.insert(id, a.clone());
        Registered(open.clone(), id)
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        open_conns(&self.0).conns.remove(&self.1);
    }
}

/// Asks the connection that has waited longest for a request (nothing
/// being worked out on it: idle, sending its head, or sending a body) to
/// close, to make room for a new one; whether there was one. Say
/// connections A (idle since 2 s), B (answering) and C (idle since 5 s,
/// or sending its head or its body a byte a second since then): C closes.
fn shed_longest_idle(open: &OpenConns) -> bool {
    let o = open_conns(open);
    let longest = o
        .conns
        .values()
        .filter(|a| a.sheddable())
        .filter(|a| !a.shedding.load(Ordering::Relaxed))
        .min_by_key(|a| a.idle_since_ms.load(Ordering::Relaxed));
    match longest {
        Some(a) => {
            a.shedding.store(true, Ordering::Relaxed);
            a.shed.notify_one();
            true
        }
        None => false,
    }
}

/// A TCP stream that records when bytes move on it, and gives hyper's own
/// refusals (a request head it cannot parse: 400, 414, 431) the API's
/// shape ([`super::headers::refusal_bytes`]).
struct Watched {
    stream: TcpStream,
    activity: Arc<Activity>,
    epoch: Instant,
    /// A refusal written in place of hyper's, and how much of it is out.
    refusal: Option<(Vec<u8>, usize)>,
}

impl Watched {
    fn new(stream: TcpStream, activity: Arc<Activity>, epoch: Instant) -> Watched {
        Watched {
            stream,
            activity,
            epoch,
            refusal: None,
        }
    }

    /// Writes what is left of the refusal; ready when all of it is out.
    fn poll_refusal(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while let Some((bytes, at)) = &mut self.refusal {
            if *at >= bytes.len() {
                break;
            }
            match Pin::new(&mut self.stream).poll_write(cx, &bytes[*at..]) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => {
                    *at += n;
                    self.activity.touch(self.epoch);
                }
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        Poll::Ready(Ok(()))
    }

    /// Takes `data` in place of hyper's refusal, if it is one: `true`
    /// when the refusal of the API's shape replaces it.
    fn replace_refusal(&mut self, data: &[u8]) -> bool {
        if self.refusal.is_some() {
            // Nothing follows a refusal on its connection.
            return true;
        }
        match super::headers::refusal_bytes(data) {
            Some(bytes) => {
                self.refusal = Some((bytes, 0));
                true
            }
            None => false,
        }
    }
}

impl AsyncRead for Watched {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let r = Pin::new(&mut this.stream).poll_read(cx, buf);
        if buf.filled().len() > before {
            this.activity.touch(this.epoch);
        }
        r
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.replace_refusal(data) {
            return this.poll_refusal(cx).map_ok(|()| data.len());
        }
        let r = Pin::new(&mut this.stream).poll_write(cx, data);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            this.activity.touch(this.epoch);
        }
        r
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if let Some(first) = bufs.iter().find(|b| !b.is_empty())
            && this.replace_refusal(first)
        {
            let all = bufs.iter().map(|b| b.len()).sum();
            return this.poll_refusal(cx).map_ok(|()| all);
        }
        let r = Pin::new(&mut this.stream).poll_write_vectored(cx, bufs);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            this.activity.touch(this.epoch);
        }
        r
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        std::task::ready!(this.poll_refusal(cx))?;
        Pin::new(&mut this.stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        std::task::ready!(this.poll_refusal(cx))?;
        Pin::new(&mut this.stream).poll_shutdown(cx)
    }
}

/// Counts a request as being answered until dropped.
struct Answering(Arc<Activity>);

impl Answering {
    fn new(a: &Arc<Activity>) -> Answering {
        a.answering.fetch_add(1, Ordering::Relaxed);
        Answering(a.clone())
    }
}

impl Drop for Answering {
    fn drop(&mut self) {
        let a = &self.0;
        a.idle_since_ms
            .store(a.epoch.elapsed().as_millis() as u64, Ordering::Relaxed);
        a.answering.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The least rate at which a request body must come, after
/// [`BODY_GRACE`]: a body of `n` bytes has `BODY_GRACE + n / MIN_BODY_RATE`
/// seconds (and never more than the client timeout). The longest body
/// taken (4 KiB) then has 6 s; a client sending one byte a second is cut
/// off after 2 s plus a second per KiB it announced, not at the client
/// timeout.
pub(crate) const MIN_BODY_RATE: u64 = 1024;

/// The time every body has, whatever its length.
pub(crate) const BODY_GRACE: Duration = Duration::from_secs(2);

/// The time a body of `len` bytes (unknown: the largest taken) has to
/// come, under a client timeout of `timeout`.
fn body_time(len: Option<u64>, timeout: Duration) -> Duration {
    let len = len.unwrap_or(super::MAX_CGP_BYTES as u64);
    let rated = BODY_GRACE + Duration::from_millis(len.saturating_mul(1000) / MIN_BODY_RATE);
    rated.min(timeout)
}

/// The error of a body that did not come in its time ([`body_time`]):
/// answered 408.
#[derive(Debug)]
pub(crate) struct BodyTooSlow;

impl std::fmt::Display for BodyTooSlow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the body came too slowly")
    }
}

impl std::error::Error for BodyTooSlow {}

/// A request's body while it comes: counted in its connection's
/// [`Activity::receiving`] until its end (or until dropped), so that the
/// connection may be shed meanwhile, and cut off at its deadline.
struct Receiving {
    body: Incoming,
    activity: Option<Arc<Activity>>,
    deadline: Pin<Box<tokio::time::Sleep>>,
}

impl Receiving {
    fn new(body: Incoming, activity: &Arc<Activity>, within: Duration) -> Receiving {
        activity.receiving.fetch_add(1, Ordering::Relaxed);
        Receiving {
            body,
            activity: Some(activity.clone()),
            deadline: Box::pin(tokio::time::sleep(within)),
        }
    }

    fn received(&mut self) {
        if let Some(a) = self.activity.take() {
            a.receiving.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

impl Drop for Receiving {
    fn drop(&mut self) {
        self.received();
    }
}

impl hyper::body::Body for Receiving {
    type Data = axum::body::Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<Self::Data>, Self::Error>>> {
        let this = &mut *self;
        let r = Pin::new(&mut this.body).poll_frame(cx);
        match &r {
            Poll::Ready(None | Some(Err(_))) => this.received(),
            Poll::Ready(Some(Ok(_))) if this.body.is_end_stream() => this.received(),
            Poll::Ready(Some(Ok(_))) => {}
            Poll::Pending => {
                if this.activity.is_some() && this.deadline.as_mut().poll(cx).is_ready() {
                    this.received();
                    return Poll::Ready(Some(Err(Box::new(BodyTooSlow))));
                }
            }
        }
        r.map(|o| o.map(|f| f.map_err(Into::into)))
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.body.size_hint()
    }
}

/// How a connection's watchdog ended.
enum Ended<T> {
    /// The connection ended of itself.
    Done(T),
    /// No byte moved for the client timeout with nothing to answer.
    Stalled,
    /// Closed to make room for a new connection at the cap.
    Shed,
}

/// Drives `conn` until it ends, until no byte has moved for `timeout`
/// while nothing was being answered, or until the accept loop asks it to
/// make room while nothing is being answered (in both cases it is
/// dropped, closing the socket).
async fn watchdog<F: Future>(
    conn: F,
    activity: &Activity,
    epoch: Instant,
    timeout: Duration,
) -> Ended<F::Output> {
    tokio::pin!(conn);
    let mut due = Instant::now() + timeout;
    loop {
        tokio::select! {
            out = &mut conn => return Ended::Done(out),
            _ = activity.shed.notified() => {
                if activity.sheddable() {
                    return Ended::Shed;
                }
                // A request came in meanwhile: it is answered.
                activity.shedding.store(false, Ordering::Relaxed);
            }
            _ = tokio::time::sleep_until(due) => {
                let last = epoch + Duration::from_millis(activity.last_ms.load(Ordering::Relaxed));
                if activity.answering.load(Ordering::Relaxed) > 0 {
                    // A query's own deadline bounds it.
                    due = Instant::now() + timeout;
                } else if last + timeout <= Instant::now() {
                    return Ended::Stalled;
                } else {
                    due = last + timeout;
                }
            }
        }
    }
}

/// Answers a connection over its address's cap with 429 and closes it.
fn refuse(stream: TcpStream, max: usize) {
    let body = format!(
        "{{\"error\":\"too many connections from your address (at most {max})\",\"status\":429}}"
    );
    let text = format!(
        "HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n\
         retry-after: 1\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    // A fresh socket's send buffer takes this at once; if not, the client
    // just sees the close.
    let _ = stream.try_write(text.as_bytes());
}

/// Whether an accept error means the process or system is out of
/// descriptors or memory (wait before accepting again) rather than one
/// connection failing.
fn is_resource_error(e: &io::Error) -> bool {
    #[cfg(unix)]
    {
        matches!(
            e.raw_os_error(),
            Some(libc::EMFILE | libc::ENFILE | libc::ENOBUFS | libc::ENOMEM)
        )
    }
    #[cfg(not(unix))]
    {
        let _ = e;
        true
    }
}

/// Serves on `listener` until `shutdown` completes, then drains (see the
/// module's notes). An error only if the connection cap cannot be held.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    serve_current(listener, Arc::new(Current::new(state)), shutdown).await
}

/// [`serve`] of what `current` holds: each request is answered by the
/// generation current when it starts.
pub(crate) async fn serve_current(
    listener: TcpListener,
    current: Arc<Current>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    // What does not change between generations; the first generation
    // itself is not kept here (it would hold its files for ever).
    let (opts, clients, log_on, ops) = {
        let state = current.state();
        (
            state.options.clone(),
            state.serving.clients.clone(),
            state.log,
            state.ops.clone(),
        )
    };
    let max = connection_cap(opts.max_connections)?;
    let trusted: Arc<[IpAddr]> = opts.trust_proxy.iter().map(|&ip| canonical(ip)).collect();
    let permits = Arc::new(Semaphore::new(max));
    let open: OpenConns = Arc::default();
    let graceful = GracefulShutdown::new();
    let epoch = Instant::now();
    let timeout = opts.client_timeout.max(Duration::from_millis(1));
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            biased;
            _ = &mut shutdown => break,
            r = listener.accept() => match r {
                Ok(x) => x,
                Err(e) => {
                    if is_resource_error(&e) {
                        if log_on {
                            log::line(&format!("lexq: accepting: {e}; waiting"));
                        }
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                    continue;
                }
            },
        };
        let addr = canonical(peer.ip());
        let slot = if trusted.contains(&addr) {
            None
        } else {
            match clients.connect(Key::of(addr), opts.max_client_connections) {
                Some(s) => Some(s),
                None => {
                    if log_on {
                        log::refused(
                            addr,
                            &format!(
                                "{addr} \"-\" 429 connection refused: {} open from this address",
                                opts.max_client_connections
                            ),
                        );
                    }
                    ops.metrics.refused("connections");
                    refuse(stream, opts.max_client_connections);
                    continue;
                }
            }
        };
        // At the cap, the connection idle longest makes room; with none
        // idle, this one waits for a connection to close (asking again
        // now and then: the one asked may have had a request come in).
        let permit = loop {
            if let Ok(p) = permits.clone().try_acquire_owned() {
                break Some(p);
            }
            shed_longest_idle(&open);
            tokio::select! {
                biased;
                _ = &mut shutdown => break None,
                p = permits.clone().acquire_owned() => {
                    break Some(p.expect("the semaphore is never closed"))
                }
                _ = tokio::time::sleep(Duration::from_millis(100)) => {}
            }
        };
        let Some(permit) = permit else { break };
        let _ = stream.set_nodelay(true);
        let activity = Arc::new(Activity::new(epoch));
        let registered = Registered::new(&open, &activity);
        let io = TokioIo::new(Watched::new(stream, activity.clone(), epoch));
        let service = {
            let (current, trusted, activity) = (current.clone(), trusted.clone(), activity.clone());
            hyper::service::service_fn(move |mut req: Request<Incoming>| {
                let client = Client::resolve(peer, req.headers(), &trusted);
                req.extensions_mut().insert(client);
                let answering = Answering::new(&activity);
                let app = current.app();
                let too_large = head_bytes(&req) > MAX_HEAD_BYTES;
                let req = req.map(|body| {
                    if hyper::body::Body::is_end_stream(&body) {
                        Body::new(body)
                    } else {
                        let len = hyper::body::Body::size_hint(&body).exact();
                        Body::new(Receiving::new(body, &activity, body_time(len, timeout)))
                    }
                });
                async move {
                    let _answering = answering;
                    if too_large {
                        // hyper's buffer took it whole (it reads past its
                        // cap in one go); the cap is the document's.
                        return Ok(super::headers::refusal(
                            axum::http::StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
                        ));
                    }
                    app.oneshot(req).await
                }
            })
        };
        let conn = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(timeout)
            .max_buf_size(MAX_HEAD_BYTES)
            .serve_connection(io, service);
        let conn = graceful.watch(conn);
        let log_errors = log_on;
        let counted = ops.metrics.connection();
        tokio::spawn(async move {
            let _held = (permit, slot, registered, counted);
            match watchdog(conn, &activity, epoch, timeout).await {
                Ended::Stalled if log_errors => log::line(&format!(
                    "{} \"-\" - closed: no byte moved for {} ms",
                    peer.ip(),
                    timeout.as_millis()
                )),
                Ended::Shed if log_errors => log::line(&format!(
                    "{} \"-\" - closed: the longest waiting for a request, at the cap of {max} connections",
                    peer.ip(),
                )),
                Ended::Done(Err(e)) if log_errors && (e.is_timeout() || e.is_parse()) => {
                    let why = if e.is_timeout() {
                        format!("no whole request head within {} ms", timeout.as_millis())
                    } else {
                        e.to_string()
                    };
                    log::line(&format!("{} \"-\" - closed: {why}", peer.ip()));
                }
                _ => {}
            }
        });
    }
    drop(listener);
    ops.draining.store(true, Ordering::Relaxed);
    let open = max - permits.available_permits();
    if tokio::time::timeout(opts.drain, graceful.shutdown())
        .await
        .is_err()
    {
        let left = max - permits.available_permits();
        log::line(&format!(
            "lexq: {left} of {open} connections still open after {} ms; closing them",
            opts.drain.as_millis()
        ));
    }
    Ok(())
}

/// A server running on its own thread and runtime (`lexq serve`, tests,
/// benches, embedding); stopped when dropped.
pub struct Server {
    addr: SocketAddr,
    current: Arc<Current>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<io::Result<()>>>,
}

impl Server {
    /// Binds `addr` (port 0 for any free port) and starts serving. An
    /// error if the address cannot be bound (the message names it) or
    /// the connection cap cannot be held.
    pub fn start(addr: &str, state: AppState) -> io::Result<Server> {
        connection_cap(state.options.max_connections)?;
        let runtime = runtime()?;
        let listener = runtime
            .block_on(TcpListener::bind(addr))
            .map_err(|e| io::Error::new(e.kind(), format!("{addr}: {e}")))?;
        let addr = listener.local_addr()?;
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let current = Arc::new(Current::new(state));
        let serving = current.clone();
        let thread = std::thread::spawn(move || {
            let r = runtime.block_on(serve_current(listener, serving, async {
                let _ = rx.await;
            }));
            runtime.shutdown_background();
            r
        });
        Ok(Server {
            addr,
            current,
            stop: Some(tx),
            thread: Some(thread),
        })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Serves `lex` and `site` from the next request on, without
    /// stopping: the requests being answered finish with what they
    /// started with, and the old lexicon and site are closed once the last
    /// of them ends (see `serve::reload`). `site` must be built from
    /// `lex`'s word list ([`Site::check_lexicon`]); if not, the error, and
    /// the server goes on serving what it served.
    ///
    /// [`Site::check_lexicon`]: crate::Site::check_lexicon
    pub fn reload(
        &self,
        lex: lexq::Lexicon,
        site: Option<crate::Site>,
    ) -> Result<(), crate::SiteError> {
        self.current.replace(lex, site)
    }

    /// Stops accepting, lets open requests finish (for the drain time)
    /// and waits for the thread; a query still running on a pool thread
    /// is not waited for.
    pub fn stop(mut self) -> io::Result<()> {
        self.shutdown()
    }

    fn shutdown(&mut self) -> io::Result<()> {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        let ended = match self.thread.take() {
            Some(t) => t
                .join()
                .unwrap_or_else(|_| Err(io::Error::other("server thread panicked"))),
            None => Ok(()),
        };
        // The access log's last lines, if the log is being read.
        log::flush(Duration::from_secs(1));
        ended
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.shutdown();
    }
}

fn runtime() -> io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("lexq-serve")
        .build()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    #[test]
    fn the_cap_fits_the_open_file_limit() {
        assert_eq!(connection_cap(Some(10)).unwrap(), 10);
        let auto = connection_cap(None).unwrap();
        assert!((1..=1024).contains(&auto), "{auto}");
        let e = connection_cap(Some(usize::MAX / 2)).unwrap_err();
        assert!(e.to_string().contains("open-file limit"), "{e}");
        assert!(connection_cap(Some(0)).is_err());
    }

    /// A stuck query (a handler whose blocking task never ends) neither
    /// outlives the drain nor keeps the server's thread from ending.
    #[test]
    fn a_stuck_query_does_not_hold_the_shutdown() {
        let state = AppState::new(lexq::Lexicon::embedded(), None, Default::default(), false)
            .with_options(super::super::ServeOptions {
                drain: Duration::from_millis(300),
                ..Default::default()
            });
        let runtime = runtime().unwrap();
        let listener = runtime.block_on(TcpListener::bind("127.0.0.1:0")).unwrap();
        let addr = listener.local_addr().unwrap();
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        // The real router's layers, with one route that never ends.
        let stuck = axum::Router::new().route(
            "/stuck",
            axum::routing::get(|| async {
                let _ =
                    tokio::task::spawn_blocking(|| std::thread::sleep(Duration::from_secs(3600)))
                        .await;
                "never"
            }),
        );
        let current = Arc::new(Current::with_app(state, stuck));
        let thread = std::thread::spawn(move || {
            let r = runtime.block_on(serve_current(listener, current, async {
                let _ = rx.await;
            }));
            runtime.shutdown_background();
            r
        });
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        s.write_all(b"GET /stuck HTTP/1.1\r\nHost: x\r\n\r\n")
            .unwrap();
        std::thread::sleep(Duration::from_millis(100));
        let start = std::time::Instant::now();
        tx.send(()).unwrap();
        thread.join().unwrap().unwrap();
        let took = start.elapsed();
        assert!(took < Duration::from_secs(3), "{took:?}");
        assert!(took >= Duration::from_millis(250), "drained for {took:?}");
        // The connection was closed without an answer.
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
        assert!(out.is_empty(), "{}", String::from_utf8_lossy(&out));
    }
}
