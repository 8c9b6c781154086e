//! What a site owner's machinery asks of a server: `/healthz` for a load
//! balancer and `/metrics` for Prometheus.
//!
//! - `GET /healthz`: `200 ok` while serving, `503 draining` once the
//!   server was asked to stop (a request still answered during the drain
//!   tells the balancer to send no more).
//! - `GET /metrics`: the Prometheus text format (written by the
//!   `prometheus-client` crate), every name prefixed `lexq_`:
//!
//! ```text
//! lexq_requests_total{route="/api/v1/word/{w}",status="200"} 3
//! lexq_request_seconds_bucket{route="/api/v1/word/{w}",le="0.001"} 3
//! lexq_refused_total{reason="heavy"} 1
//! lexq_connections_open 2
//! lexq_heavy_in_flight 0
//! lexq_reloads_total{outcome="done"} 1
//! lexq_log_lines_dropped_total 0
//! ```
//!
//! A route is the pattern it matched (`/api/v1/word/{w}`, never the
//! word), or `unmatched`: the label sets are few and bounded, whatever
//! strangers ask. Both answers are made without admission, cost estimate
//! or pool (a lock and a few counters), and outside the access log.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

use super::AppState;

/// The operational state every generation of a server shares.
#[derive(Default)]
pub(crate) struct Ops {
    /// Set when the server starts draining.
    pub(crate) draining: AtomicBool,
    pub(crate) metrics: Arc<Metrics>,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteStatus {
    route: String,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Route {
    route: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Reason {
    reason: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Outcome {
    outcome: &'static str,
}

type Latency = Family<Route, Histogram, fn() -> Histogram>;

/// The latency buckets: 0.25 ms to about 8 s, doubling.
fn latency_histogram() -> Histogram {
    Histogram::new(exponential_buckets(0.000_25, 2.0, 16))
}

/// A source of a count kept elsewhere (the access log's dropped lines),
/// read when `/metrics` is asked for.
pub type CountSource = Arc<dyn Fn() -> u64 + Send + Sync>;

/// The server's metrics (see the module's notes).
pub(crate) struct Metrics {
    registry: Mutex<Registry>,
    requests: Family<RouteStatus, Counter>,
    latency: Latency,
    refused: Family<Reason, Counter>,
    connections: Gauge,
    heavy: Gauge,
    reloads: Family<Outcome, Counter>,
    log_dropped: Counter,
    log_dropped_source: Mutex<Option<CountSource>>,
    log_dropped_seen: AtomicU64,
}

impl Default for Metrics {
    fn default() -> Metrics {
        let m = Metrics {
            registry: Mutex::new(Registry::with_prefix("lexq")),
            requests: Family::default(),
            latency: Family::new_with_constructor(latency_histogram),
            refused: Family::default(),
            connections: Gauge::default(),
            heavy: Gauge::default(),
            reloads: Family::default(),
            log_dropped: Counter::default(),
            log_dropped_source: Mutex::new(None),
            log_dropped_seen: AtomicU64::new(0),
        };
        {
            let mut r = m.registry.lock().expect("new");
            r.register(
                "requests",
                "Requests answered, by route pattern and status",
                m.requests.clone(),
            );
            r.register(
                "request_seconds",
                "Time to answer a request (to its head), by route pattern",
                m.latency.clone(),
            );
            r.register(
                "refused",
                "Requests and connections refused with 429, by reason",
                m.refused.clone(),
            );
            r.register(
                "connections_open",
                "Connections open",
                m.connections.clone(),
            );
            r.register(
                "heavy_in_flight",
                "Heavy queries holding a turn of the heavy pool",
                m.heavy.clone(),
            );
            r.register(
                "reloads",
                "Reloads asked for (SIGHUP), by outcome",
                m.reloads.clone(),
            );
            r.register(
                "log_lines_dropped",
                "Access log lines dropped because the log could not take them",
                m.log_dropped.clone(),
            );
        }
        m
    }
}

impl Metrics {
    /// Counts one answer of `route` with `status` that took `secs`.
    fn answered(&self, route: &str, status: u16, secs: f64) {
        let route = route.to_string();
        self.requests
            .get_or_create(&RouteStatus {
                route: route.clone(),
                status,
            })
            .inc();
        self.latency.get_or_create(&Route { route }).observe(secs);
    }

    /// Counts a 429 for `reason`: `heavy` (the client's share of heavy
    /// work is in flight), `estimate` (its share of costly estimates),
    /// `connections` (its connections), `other` (a 429 made elsewhere).
    pub(crate) fn refused(&self, reason: &'static str) {
        self.refused.get_or_create(&Reason { reason }).inc();
    }

    /// Counts a reload, `done` or `refused`.
    pub(crate) fn reloaded(&self, done: bool) {
        let outcome = if done { "done" } else { "refused" };
        self.reloads.get_or_create(&Outcome { outcome }).inc();
    }

    /// Counts a connection open until the guard is dropped.
    pub(crate) fn connection(self: &Arc<Self>) -> OpenConnection {
        self.connections.inc();
        OpenConnection(self.clone())
    }

    /// Reads the access log's count of dropped lines from `source` each
    /// time the metrics are asked for (the log's own counter: this module
    /// keeps no queue of its own).
    pub(crate) fn count_log_drops_from(&self, source: CountSource) {
        *self
            .log_dropped_source
            .lock()
            .unwrap_or_else(|p| p.into_inner()) = Some(source);
    }

    /// The text format, the gauges read now.
    fn encode(&self, heavy_in_flight: usize) -> String {
        self.heavy.set(heavy_in_flight as i64);
        let source = self
            .log_dropped_source
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        if let Some(source) = source {
            let now = source();
            let seen = self.log_dropped_seen.swap(now, Ordering::Relaxed);
            self.log_dropped.inc_by(now.saturating_sub(seen));
        }
        let mut out = String::new();
        let registry = self.registry.lock().unwrap_or_else(|p| p.into_inner());
        // Writing into a String does not fail.
        let _ = prometheus_client::encoding::text::encode(&mut out, &registry);
        out
    }
}

/// A connection counted open (see [`Metrics::connection`]).
pub(crate) struct OpenConnection(Arc<Metrics>);

impl Drop for OpenConnection {
    fn drop(&mut self) {
        self.0.connections.dec();
    }
}

/// The middleware counting every request routed by the application.
pub(crate) async fn count(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let start = Instant::now();
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or("unmatched", |p| p.as_str())
        .to_string();
    let res = next.run(req).await;
    let status = res.status().as_u16();
    let m = &state.ops.metrics;
    m.answered(&route, status, start.elapsed().as_secs_f64());
    if status == 429 {
        let why = res.extensions().get::<super::Refused>();
        m.refused(why.map_or("other", |w| w.reason()));
    }
    res
}

fn plain(status: StatusCode, content_type: &'static str, body: String) -> Response {
    let mut res = (status, body).into_response();
    let h = res.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    res
}

/// `GET /healthz`.
pub(crate) async fn health(State(state): State<AppState>) -> Response {
    if state.ops.draining.load(Ordering::Relaxed) {
        plain(
            StatusCode::SERVICE_UNAVAILABLE,
            "text/plain; charset=utf-8",
            "draining\n".into(),
        )
    } else {
        plain(StatusCode::OK, "text/plain; charset=utf-8", "ok\n".into())
    }
}

/// `GET /metrics`.
pub(crate) async fn metrics(State(state): State<AppState>) -> Response {
    let heavy =
        (state.limits.heavy_concurrency.max(1)).saturating_sub(state.serving.pools.heavy_free());
    plain(
        StatusCode::OK,
        "application/openmetrics-text; version=1.0.0; charset=utf-8",
        state.ops.metrics.encode(heavy),
    )
}

impl AppState {
    /// The same server with `/metrics`' `lexq_log_lines_dropped_total`
    /// read from `dropped` (the access log's count of the lines it could
    /// not write), each time the metrics are asked for.
    pub fn with_log_drops(self, dropped: CountSource) -> AppState {
        self.ops.metrics.count_log_drops_from(dropped);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tower::ServiceExt;

    fn get_health() -> axum::http::Request<axum::body::Body> {
        axum::http::Request::get("/healthz")
            .body(axum::body::Body::empty())
            .expect("a request")
    }

    #[tokio::test]
    async fn health_is_503_once_draining() {
        let state = AppState::new(lexq::Lexicon::embedded(), None, Default::default(), false);
        let app = super::super::router(state.clone());
        let ok = app.clone().oneshot(get_health()).await.unwrap();
        assert_eq!(ok.status(), StatusCode::OK);
        state.ops.draining.store(true, Ordering::Relaxed);
        let draining = app.oneshot(get_health()).await.unwrap();
        assert_eq!(draining.status(), StatusCode::SERVICE_UNAVAILABLE);
    }

    #[test]
    fn a_stopping_server_is_draining() {
        let state = AppState::new(lexq::Lexicon::embedded(), None, Default::default(), false);
        let server = super::super::Server::start("127.0.0.1:0", state.clone()).unwrap();
        assert!(!state.ops.draining.load(Ordering::Relaxed));
        server.stop().unwrap();
        assert!(state.ops.draining.load(Ordering::Relaxed));
    }
}
