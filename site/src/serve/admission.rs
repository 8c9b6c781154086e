//! Letting a request in: its cost is estimated before it runs (from its
//! route's [`Pricing`] and the request); a heavy one must fit in its
//! client's heavy budget or is answered 429 with `Retry-After`, and then
//! runs in the heavy pool. The handler's query finds its admission (cost,
//! the client's slot, a search's prepared query) in a task-local, so that
//! [`super::run`] sends it to the right pool and holds the slot until the
//! query really ends.
//!
//! A search is estimated by the site itself ([`Site::estimate`]'s work:
//! its query built against the index's term dictionaries and costed
//! under the server's bounds), first on the light pool for at most
//! [`QUICK_ESTIMATE`] (most take under a millisecond): a light search's
//! cost is then known without waiting behind anyone's heavy estimates,
//! and without a cap per address beyond light work's. A search whose
//! estimate takes longer is heavy to estimate: it is estimated anew on
//! the estimate threads (low priority, a cap of their own, and as many
//! estimates per client address as heavy requests, 429 beyond). A query
//! over the bounds is answered 400 by either, before it takes a heavy
//! turn or any of its client's heavy budget; one within them keeps the
//! query built, which the handler then runs in the pool its estimate
//! picks.
//!
//! [`Site::estimate`]: crate::Site::estimate

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::extract::{Query, RawPathParams, Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;

use super::client::{Key, Slot};
use super::cost::{self, Cost};
use super::pool::{Class, Failed};
use super::{ApiError, AppState, Kind, MAX_CGP_BYTES, Refused};
use crate::Stop;
use crate::error::SiteError;
use crate::search::Prepared;

/// How a route's requests are priced.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Pricing {
    /// A few lookups whatever the input (word pages, hooks, check).
    Light,
    /// A word list of this kind, by its query's shape.
    List(Kind),
    /// A site search, by the reads the site estimates it will make.
    Search,
    /// The search page (`/search?q=`), by the definition search it would
    /// run (a lookup that finds its word costs less, never more).
    PageSearch,
    /// Moves of the CGP in the body, by the rack's blanks.
    Moves,
    /// A `find`, by the steps its planner expects its walk to take.
    Find,
    /// A `suggest`, by its word's length and the distance.
    Suggest,
}

/// A request let in: its cost, and its client's heavy slot (heavy
/// requests only) until the query takes it.
pub(crate) struct Admission {
    pub(crate) cost: Cost,
    slot: Mutex<Option<Slot>>,
    /// A search's query, built and costed, for the handler to run.
    search: Mutex<Option<Prepared>>,
}

impl Admission {
    /// The client's slot, for the query to hold until it ends.
    pub(crate) fn take_slot(&self) -> Option<Slot> {
        self.slot.lock().ok().and_then(|mut s| s.take())
    }

    /// The search's prepared query, for the handler to run.
    pub(crate) fn take_search(&self) -> Option<Prepared> {
        self.search.lock().ok().and_then(|mut s| s.take())
    }
}

/// Cancels a search's [`Stop`] when dropped: when its request ends,
/// answered, timed out or dropped because the client went away.
pub(crate) struct CancelOnDrop(pub(crate) Stop);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// What pricing a request gives: its cost, the request (a body read to
/// price it is put back), and a search's prepared query with its stop.
struct Priced {
    cost: Cost,
    req: Request,
    search: Option<(Prepared, Stop)>,
}

tokio::task_local! {
    static ADMISSION: Arc<Admission>;
}

/// The admission of the request being handled, if it went through
/// [`admit`].
pub(crate) fn current() -> Option<Arc<Admission>> {
    ADMISSION.try_with(Arc::clone).ok()
}

/// How long a search's estimate may take on the light pool: most are
/// done in under a millisecond; one not done by then is estimated anew on
/// the estimate threads, as heavy work.
pub(crate) const QUICK_ESTIMATE: std::time::Duration = std::time::Duration::from_millis(25);

/// Whether a timeout this short leaves no time for an estimate after the
/// quick one.
fn stop_is_late(limits: &super::Limits) -> bool {
    limits.timeout <= QUICK_ESTIMATE
}

/// The middleware of a priced route.
pub(crate) async fn admit(
    State((state, pricing)): State<(AppState, Pricing)>,
    params: Result<RawPathParams, axum::extract::rejection::RawPathParamsRejection>,
    req: Request,
    next: Next,
) -> Response {
    let Priced { cost, req, search } = match price(&state, pricing, params.ok(), req).await {
        Ok(x) => x,
        Err(e) => return e.into_response(),
    };
    // The search stops as soon as its request ends.
    let (search, _cancel) = match search {
        Some((prepared, stop)) => (Some(prepared), Some(CancelOnDrop(stop))),
        None => (None, None),
    };
    let mut slot = None;
    if cost.is_heavy() {
        let max = state.limits.max_client_heavy;
        match state
            .serving
            .clients
            .heavy(client_key(&req), cost.weight(), max)
        {
            Some(s) => slot = Some(s),
            None => return too_many(Refused::Heavy, max).into_response(),
        }
    }
    let admission = Arc::new(Admission {
        cost,
        slot: Mutex::new(slot),
        search: Mutex::new(search),
    });
    ADMISSION.scope(admission, next.run(req)).await
}

/// 429: the client's share of costly work is in flight.
fn too_many(why: Refused, max: usize) -> ApiError {
    ApiError::too_many(
        why,
        format!(
            "too many costly requests from your address at once (at most {max}); \
         wait for their answers, then try again"
        ),
    )
}

/// The key of the address a request comes from.
fn client_key(req: &Request) -> Key {
    Key::of(super::log::client_of(req).addr)
}

/// Runs `work`, the estimate of what a request will cost, on the
/// estimate threads before the deadline, holding one of `client`'s
/// estimate slots: at most as many estimates at once per address as heavy
/// requests (429 past that), since anyone may ask for them.
async fn estimate<T: Send + 'static>(
    state: &AppState,
    client: Key,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    let max = state.limits.max_client_heavy;
    let Some(estimating) = state.serving.clients.estimate(client, max) else {
        return Err(too_many(Refused::Estimate, max));
    };
    let deadline = tokio::time::Instant::now() + state.limits.timeout;
    match state
        .serving
        .pools
        .run(Class::Estimate, deadline, estimating, work)
        .await
    {
        Ok(t) => Ok(t),
        Err(Failed::Busy) => Err(ApiError::busy()),
        Err(Failed::Panicked(m)) => Err(ApiError::failed("a query panicked", &m)),
    }
}

/// The request's cost; a moves request's body is read here (and put back)
/// to find the rack, a search's query built and costed.
async fn price(
    state: &AppState,
    pricing: Pricing,
    params: Option<RawPathParams>,
    req: Request,
) -> Result<Priced, ApiError> {
    let cost = match pricing {
        Pricing::Light => Cost::LIGHT,
        Pricing::List(kind) => {
            let query = params
                .as_ref()
                .and_then(|p| p.iter().next().map(|(_, v)| v.to_string()))
                .unwrap_or_default();
            let args = Query::<HashMap<String, String>>::try_from_uri(req.uri())
                .map(|q| q.0)
                .unwrap_or_default();
            let sorted = args.get("sort").is_some_and(|s| s == "length");
            cost::list(
                &state.serving.stats,
                state.lex.alphabet(),
                kind,
                &query,
                sorted,
            )
        }
        Pricing::Search => {
            let q = Query::<HashMap<String, String>>::try_from_uri(req.uri())
                .ok()
                .and_then(|q| q.0.get("q").cloned())
                .and_then(|q| super::arg(&state.limits, "query", &q).ok());
            let (Some(site), Some(q)) = (state.site.clone(), q) else {
                // No site (404), or no query, an empty or a long one
                // (400): the handler refuses it without running it.
                return Ok(Priced {
                    cost: Cost::LIGHT,
                    req,
                    search: None,
                });
            };
            let (cost, prepared, stop) = estimate_search(state, site, q, client_key(&req)).await?;
            return Ok(Priced {
                cost,
                req,
                search: Some((prepared, stop)),
            });
        }
        Pricing::PageSearch => {
            let args = Query::<HashMap<String, String>>::try_from_uri(req.uri())
                .map(|q| q.0)
                .unwrap_or_default();
            let full = args.get("syntax").is_some_and(|s| s == "full");
            // The definition search the page would run (see
            // `pages::search_page`): its cost, as the API's.
            let text = args
                .get("q")
                .and_then(|q| super::arg(&state.limits, "query", q.trim()).ok())
                .and_then(|q| {
                    if full {
                        Some(q)
                    } else {
                        crate::html::plain::every_word(&q)
                    }
                });
            let (Some(site), Some(text)) = (state.site.clone(), text) else {
                return Ok(Priced {
                    cost: Cost::LIGHT,
                    req,
                    search: None,
                });
            };
            match estimate_search(state, site, text, client_key(&req)).await {
                // A plain search that finds nothing asks again for any of
                // its words: up to twice the work.
                Ok((cost, _, _)) => Cost(cost.0.saturating_mul(2)),
                // Over the bounds: the page says so, after building the
                // query again, as heavy work.
                Err(e) if e.status == StatusCode::BAD_REQUEST => Cost::HEAVY,
                Err(e) => return Err(e),
            }
        }
        Pricing::Find => {
            let parsed = Query::<Vec<(String, String)>>::try_from_uri(req.uri())
                .ok()
                .and_then(|q| super::find::parse(&state.limits, &q.0).ok());
            let Some(find) = parsed else {
                // Refused by the handler without running.
                return Ok(Priced {
                    cost: Cost::LIGHT,
                    req,
                    search: None,
                });
            };
            // Planning compiles the conditions and dives down the walk:
            // work done before anything says whether the find is light.
            let (lex, serving) = (state.lex.clone(), state.serving.clone());
            let steps = estimate(state, client_key(&req), move || {
                super::find::estimate(&lex, &serving.ranks, &find)
            })
            .await?;
            cost::find(steps)
        }
        Pricing::Suggest => {
            let word = params
                .as_ref()
                .and_then(|p| p.iter().next().map(|(_, v)| v.to_string()))
                .unwrap_or_default();
            let args = Query::<HashMap<String, String>>::try_from_uri(req.uri())
                .map(|q| q.0)
                .unwrap_or_default();
            let distance = args
                .get("distance")
                .and_then(|d| d.parse::<u8>().ok())
                .unwrap_or(super::find::MAX_SUGGEST_DISTANCE);
            cost::suggest(state.lex.alphabet(), &word, distance)
        }
        Pricing::Moves => {
            let (parts, body) = req.into_parts();
            let bytes = read_body(body).await?;
            return Ok(Priced {
                cost: cost::moves(&String::from_utf8_lossy(&bytes)),
                req: Request::from_parts(parts, Body::from(bytes)),
                search: None,
            });
        }
    };
    Ok(Priced {
        cost,
        req,
        search: None,
    })
}

/// A search's query `q` built and costed: first for at most
/// [`QUICK_ESTIMATE`] on the light pool, behind nobody's heavy estimates
/// and with no cap per address but light work's own (most estimates take
/// under a millisecond); then, for a query whose estimate is itself heavy,
/// on the estimate threads, within the client's share of them. A client
/// that already has heavy work in flight, or an estimate at work, has its
/// quick estimate made on the triage thread instead of the light pool:
/// its light searches are still answered, but an address at its share,
/// retrying as fast as it is refused, never takes the light pool's turns
/// (60 such addresses held a light search 5 s when each retry was first
/// estimated there). Over the bounds: 400; stopped at the deadline: 503.
async fn estimate_search(
    state: &AppState,
    site: Arc<crate::Site>,
    q: String,
    client: Key,
) -> Result<(Cost, Prepared, Stop), ApiError> {
    let bounds = state.limits.query;
    let quick_class = if state.serving.clients.holds_work(client) {
        Class::Triage
    } else {
        Class::Light
    };
    let stop = Stop::after(state.limits.timeout);
    stop.set_early(std::time::Instant::now() + QUICK_ESTIMATE);
    let (s, q2, site2) = (stop.clone(), q.clone(), site.clone());
    let deadline = tokio::time::Instant::now() + state.limits.timeout;
    let quick = state
        .serving
        .pools
        .run(quick_class, deadline, (), move || {
            site2.prepare(&q2, &bounds, &s)
        })
        .await;
    match quick {
        Ok(Ok(p)) => {
            stop.lift_early();
            Ok((cost::search(p.reads()), p, stop))
        }
        Ok(Err(SiteError::Stopped { .. })) if !stop_is_late(&state.limits) => {
            let stop = Stop::after(state.limits.timeout);
            let s = stop.clone();
            let p = estimate(state, client, move || site.prepare(&q, &bounds, &s)).await??;
            Ok((cost::search(p.reads()), p, stop))
        }
        Ok(Err(e)) => Err(e.into()),
        Err(Failed::Busy) => Err(ApiError::busy()),
        Err(Failed::Panicked(m)) => Err(ApiError::failed("a query panicked", &m)),
    }
}

/// The body, up to [`MAX_CGP_BYTES`].
async fn read_body(body: Body) -> Result<axum::body::Bytes, ApiError> {
    match http_body_util::Limited::new(body, MAX_CGP_BYTES)
        .collect()
        .await
    {
        Ok(c) => Ok(c.to_bytes()),
        Err(e) => {
            let mut source: Option<&(dyn std::error::Error + 'static)> = Some(&*e);
            while let Some(s) = source {
                if s.is::<http_body_util::LengthLimitError>() {
                    return Err(ApiError::new(
                        StatusCode::PAYLOAD_TOO_LARGE,
                        format!("the body is larger than {MAX_CGP_BYTES} bytes: POST one CGP line"),
                    ));
                }
                if s.is::<tower_http::timeout::TimeoutError>() || s.is::<super::conn::BodyTooSlow>()
                {
                    return Err(ApiError::new(
                        StatusCode::REQUEST_TIMEOUT,
                        "the body came too slowly",
                    ));
                }
                source = s.source();
            }
            Err(ApiError::bad(format!("the body could not be read: {e}")))
        }
    }
}
