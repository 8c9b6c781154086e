//! `lexq serve`: a JSON API under `/api/v1/` and a search page at `/`, on
//! axum and tokio, read-only over the memory-mapped lexicon and (with a
//! site directory) the tantivy index.
//!
//! Every request's cost is estimated before it runs ([`cost`]; a search's
//! by the site, on threads of its own): light queries run on tokio's
//! blocking pool, heavy ones on a pool of their own at a lower priority,
//! each behind its own cap and under a time limit, and one client address
//! may have only a few heavy requests in flight (429 beyond). Inputs are length-checked; bad input is a 400 with a JSON
//! body `{"error": ..., "status": 400}`, a failure a 503, never a 500.
//! Connections are capped and timed (`serve::conn`); answers carry security
//! and caching headers (`serve::headers`), compressed when asked; one access
//! log line per request goes to stderr ([`log`]).

mod admission;
pub mod client;
mod conn;
pub mod cost;
pub mod find;
mod headers;
pub mod log;
mod ops;
mod options;
mod pages;
mod pool;
mod reload;
mod replica;

pub use conn::{Server, serve};
pub use headers::page_csp;
pub use ops::CountSource;
pub use options::{Cors, ServeOptions};

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get};
use axum::{Json, Router};
use lexq::{Lexicon, Words};
use serde::{Deserialize, Serialize};
use tower_http::compression::CompressionLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};

use crate::cost::{QueryBounds, Stop};
use crate::entry::{Entry, word_points};
use crate::error::SiteError;
use crate::page::Page;
use crate::search::{Hit, Site};

/// The search page, served at `/`.
pub const PAGE: &str = include_str!("page.html");

/// Limits on what a request may ask for.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The longest query argument (word, pattern, rack, search), in bytes.
    pub max_input: usize,
    /// The most words or results one response holds (`limit`).
    pub max_limit: usize,
    /// The `limit` when none is given.
    pub default_limit: usize,
    /// The most words one `check` takes.
    pub max_check: usize,
    /// How long a query may wait for its turn and run.
    pub timeout: Duration,
    /// How many light queries run at once.
    pub concurrency: usize,
    /// How many heavy queries (see [`cost::Cost`]) run at once, on threads
    /// of their own at a lower priority; as many searches are estimated at
    /// once, on threads of their own too.
    pub heavy_concurrency: usize,
    /// How much heavy work one client address may have in flight (a heavy
    /// request weighs 1, a heavier one 2), and how many of its searches
    /// may be estimated at once; beyond it, 429.
    pub max_client_heavy: usize,
    /// The bounds on a search query's cost.
    pub query: QueryBounds,
    /// The most steps of the lexicon one `find` may walk (an edge
    /// followed, a word read); beyond, 400 with the reason.
    pub max_find_steps: u64,
    /// The most parameters one `find` takes (conditions and options).
    pub max_conditions: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_input: 100,
            max_limit: 1000,
            default_limit: 100,
            max_check: 100,
            timeout: Duration::from_secs(5),
            concurrency: std::thread::available_parallelism().map_or(2, |n| n.get() * 2),
            heavy_concurrency: std::thread::available_parallelism()
                .map_or(1, |n| n.get().div_ceil(2)),
            max_client_heavy: 2,
            query: QueryBounds::default(),
            max_find_steps: 4_000_000,
            max_conditions: 32,
        }
    }
}

/// What the server serves.
#[derive(Clone)]
pub struct AppState {
    lex: Arc<Lexicon>,
    site: Option<Arc<Site>>,
    limits: Arc<Limits>,
    serving: Arc<Serving>,
    options: Arc<ServeOptions>,
    log: bool,
    /// What a CGP line of `moves` may name (`bdn`, `ld`).
    files: Arc<lexq::files::FilePolicy>,
    /// What the HTML pages share (base URL, credits).
    frame: Arc<crate::html::Frame>,
    /// Health and metrics, shared by every generation ([`ops`]).
    ops: Arc<ops::Ops>,
}

/// What the server keeps beside the data: the pools, what each client
/// holds, the lexicon's counts for cost estimates, the `ETag` seed, the
/// licence notice.
pub(crate) struct Serving {
    pools: Arc<pool::Pools>,
    clients: Arc<client::Clients>,
    stats: cost::Stats,
    etag_seed: u64,
    /// WordNet's licence notice, read once at start (a site built with
    /// WordNet holds it).
    licence: Option<axum::body::Bytes>,
    /// Probability ranks for `find`, counted once per tile set.
    ranks: find::RankCache,
    /// The sitemaps made so far (`None`: the index; `Some(n)`:
    /// `/sitemaps/{n}.xml`): up to 50,000 words each, made once a
    /// generation rather than a walk of the lexicon a request.
    sitemaps: std::sync::Mutex<std::collections::HashMap<Option<usize>, axum::body::Bytes>>,
}

impl AppState {
    /// A server over `lex` and, optionally, a site index; `log` turns the
    /// access log on. The letters below each node of the lexicon's arc
    /// table are prepared here, once ([`Lexicon::prepare_walks`]), for the
    /// anagram kinds; the lexicon's counts for cost estimates are read (one
    /// pass over the words), and the site's licence notice, which
    /// `/licence` then serves without reading a file. The connection
    /// policy is the default until [`AppState::with_options`].
    pub fn new(lex: Lexicon, site: Option<Site>, limits: Limits, log: bool) -> AppState {
        lex.prepare_walks();
        // Read now rather than by the first completion or suggestion; a
        // failure is met again (and answered 503) where it is used.
        if let Some(site) = &site {
            let _ = site.frequencies();
        }
        let stats = cost::Stats::of(&lex);
        let licence = site.as_ref().and_then(Site::licence).map(Into::into);
        let licence_known = site.as_ref().is_some_and(|s| s.licence().is_some());
        let mut state = AppState {
            lex: Arc::new(lex),
            site: site.map(Arc::new),
            serving: Arc::new(Serving {
                pools: Arc::new(pool::Pools::new(
                    limits.concurrency,
                    limits.heavy_concurrency,
                )),
                clients: Default::default(),
                stats,
                etag_seed: 0,
                licence,
                ranks: Default::default(),
                sitemaps: Default::default(),
            }),
            limits: Arc::new(limits),
            options: Default::default(),
            log,
            files: Arc::new(lexq::files::FilePolicy::builtin_only()),
            frame: Arc::new(crate::html::Frame {
                base_url: String::new(),
                wordnet: licence_known,
            }),
            ops: Default::default(),
        };
        let seed = headers::seed(&state);
        Arc::get_mut(&mut state.serving)
            .expect("not shared yet")
            .etag_seed = seed;
        // The access log is the process's own: its dropped lines are
        // counted for every server's metrics.
        state
            .ops
            .metrics
            .count_log_drops_from(Arc::new(log::dropped_lines));
        state
    }

    /// The same server under the connection policy `options`.
    pub fn with_options(mut self, options: ServeOptions) -> AppState {
        self.options = Arc::new(options);
        self
    }

    /// The same server with `url` (`https://example.org`, no trailing
    /// `/`) before the paths of the pages' canonical links and the
    /// sitemap's addresses; without it they are paths of the host asked.
    pub fn with_base_url(mut self, url: &str) -> AppState {
        let mut frame = (*self.frame).clone();
        frame.base_url = url.trim_end_matches('/').to_string();
        self.frame = Arc::new(frame);
        self
    }

    /// The files a CGP line posted to `moves` may name as its board layout
    /// (`bdn`) or tile set (`ld`): by default none, only built-in names. A
    /// request's name is resolved and compared with `files`'s (see
    /// [`lexq::files::FilePolicy`]); a name refused for whatever reason (missing,
    /// not allowed, not a regular file) gets one message, a 400.
    pub fn with_files(mut self, files: lexq::files::FilePolicy) -> AppState {
        self.files = Arc::new(files);
        self
    }
}

/// An error answer: a status and a JSON body `{"error", "status"}`.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
    /// Seconds for `Retry-After` (429 and 503).
    retry_after: Option<u32>,
    /// Why a 429 was given, for `/metrics` (see [`Refused`]).
    refused: Option<Refused>,
}

/// Why a request was refused with 429, carried in the answer's
/// extensions for `/metrics` to count (`lexq_refused_total{reason}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refused {
    /// The client's share of heavy work is in flight.
    Heavy,
    /// The client's share of costly estimates is at work.
    Estimate,
}

impl Refused {
    /// The metric's label.
    pub(crate) fn reason(self) -> &'static str {
        match self {
            Refused::Heavy => "heavy",
            Refused::Estimate => "estimate",
        }
    }
}

impl ApiError {
    fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            retry_after: None,
            refused: None,
        }
    }

    /// 503: no turn, or no answer, in time.
    fn busy() -> ApiError {
        ApiError {
            retry_after: Some(1),
            ..ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server is busy or the query took too long; try again",
            )
        }
    }

    /// 429: the client already has its share in flight.
    fn too_many(why: Refused, message: impl Into<String>) -> ApiError {
        ApiError {
            retry_after: Some(1),
            refused: Some(why),
            ..ApiError::new(StatusCode::TOO_MANY_REQUESTS, message)
        }
    }

    /// 503 for what went wrong on the server's side (a file it cannot
    /// read, a panic): logged in full, answered without the details (they
    /// may name files of the server's).
    fn failed(what: &str, detail: &str) -> ApiError {
        log::line(&format!("lexq: {what}: {detail}"));
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("the server failed to answer ({what}); this was logged"),
        )
    }
}

#[derive(Serialize)]
pub(crate) struct ErrorBody<'a> {
    pub(crate) error: &'a str,
    pub(crate) status: u16,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: &self.message,
            status: self.status.as_u16(),
        };
        let mut res = (self.status, Json(body)).into_response();
        if let Some(s) = self.retry_after {
            res.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(s));
        }
        if let Some(why) = self.refused {
            res.extensions_mut().insert(why);
        }
        res
    }
}

impl From<lexq::Error> for ApiError {
    fn from(e: lexq::Error) -> ApiError {
        match e {
            lexq::Error::Io { .. }
            | lexq::Error::Lexicon { .. }
            | lexq::Error::NotRegularFile { .. } => {
                ApiError::failed("the lexicon could not be read", &e.to_string())
            }
            _ => ApiError::bad(e.to_string()),
        }
    }
}

impl From<lexq::game::Error> for ApiError {
    fn from(e: lexq::game::Error) -> ApiError {
        match e {
            lexq::game::Error::Core(e) => e.into(),
            other => ApiError::bad(other.to_string()),
        }
    }
}

impl From<SiteError> for ApiError {
    fn from(e: SiteError) -> ApiError {
        match e {
            SiteError::BadQuery { .. } => ApiError::bad(e.to_string()),
            SiteError::Lexq(e) => e.into(),
            // Past its deadline, or cancelled: no answer in time.
            SiteError::Stopped { .. } => ApiError::busy(),
            _ => ApiError::failed("the site index could not be read", &e.to_string()),
        }
    }
}

impl From<PathRejection> for ApiError {
    fn from(e: PathRejection) -> ApiError {
        ApiError::bad(e.body_text())
    }
}

impl From<QueryRejection> for ApiError {
    fn from(e: QueryRejection) -> ApiError {
        ApiError::bad(e.body_text())
    }
}

type ApiResult<T> = Result<Json<T>, ApiError>;

/// Paging and length filters of list endpoints.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct Paging {
    limit: Option<usize>,
    offset: Option<usize>,
    min_len: Option<usize>,
    max_len: Option<usize>,
    /// `alpha` (default) or `length` (longest first).
    sort: Option<String>,
}

impl Paging {
    fn window(&self, limits: &Limits) -> Result<(usize, usize), ApiError> {
        let limit = self.limit.unwrap_or(limits.default_limit);
        if limit > limits.max_limit {
            return Err(ApiError::bad(format!(
                "limit is {limit}, at most {} is allowed",
                limits.max_limit
            )));
        }
        Ok((limit, self.offset.unwrap_or(0)))
    }
}

/// Checks an argument's length.
fn arg(limits: &Limits, what: &str, text: &str) -> Result<String, ApiError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ApiError::bad(format!("the {what} is empty")));
    }
    if text.len() > limits.max_input {
        return Err(ApiError::bad(format!(
            "the {what} is {} bytes, at most {} are allowed",
            text.len(),
            limits.max_input
        )));
    }
    Ok(text.to_string())
}

/// Runs `f` off the async workers, in the pool its request's estimated
/// cost picks (the heavy pool for a request that was not priced), behind
/// that pool's cap and the time limit. The client's heavy slot is held
/// until `f` ends, even past the time limit.
async fn run<T, F>(state: &AppState, f: F) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce(&Lexicon, Option<&Site>) -> Result<T, ApiError> + Send + 'static,
{
    let deadline = tokio::time::Instant::now() + state.limits.timeout;
    let admission = admission::current();
    let class = if admission.as_ref().is_none_or(|a| a.cost.is_heavy()) {
        pool::Class::Heavy
    } else {
        pool::Class::Light
    };
    let slot = admission.as_ref().and_then(|a| a.take_slot());
    let lex = state.lex.clone();
    let site = state.site.clone();
    let ran = state
        .serving
        .pools
        .run(class, deadline, slot, move || f(&lex, site.as_deref()))
        .await;
    match ran {
        Ok(r) => r,
        Err(pool::Failed::Busy) => Err(ApiError::busy()),
        Err(pool::Failed::Panicked(msg)) => Err(ApiError::failed("a query panicked", &msg)),
    }
}

/// One word of a list.
#[derive(Serialize, Debug, Clone)]
pub struct Listed {
    word: String,
    length: usize,
    points: u32,
}

/// A page of a word list.
#[derive(Serialize, Debug)]
pub struct WordList {
    kind: &'static str,
    query: String,
    total: usize,
    offset: usize,
    limit: usize,
    /// Words per length over the whole list (not only this page).
    lengths: BTreeMap<usize, usize>,
    words: Vec<Listed>,
}

fn page_of(
    kind: &'static str,
    query: String,
    words: &Words<'_>,
    lex: &Lexicon,
    limit: usize,
    offset: usize,
) -> WordList {
    let mut lengths = BTreeMap::new();
    for w in words.iter() {
        *lengths.entry(w.len()).or_insert(0) += 1;
    }
    let words_out = words
        .iter()
        .skip(offset)
        .take(limit)
        .map(|w| Listed {
            word: w.to_string(),
            length: w.len(),
            points: word_points(lex.alphabet(), w.codes()),
        })
        .collect();
    WordList {
        kind,
        query,
        total: words.len(),
        offset,
        limit,
        lengths,
        words: words_out,
    }
}

/// The word-list queries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Contains,
    Starts,
    Ends,
    Pattern,
    Regex,
    Anagram,
    Subanagram,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Contains => "contains",
            Kind::Starts => "starts",
            Kind::Ends => "ends",
            Kind::Pattern => "pattern",
            Kind::Regex => "regex",
            Kind::Anagram => "anagram",
            Kind::Subanagram => "subanagram",
        }
    }
}

async fn list(
    kind: Kind,
    state: AppState,
    path: Result<Path<String>, PathRejection>,
    paging: Result<Query<Paging>, QueryRejection>,
) -> ApiResult<WordList> {
    let Path(raw) = path?;
    let Query(paging) = paging?;
    let query = arg(&state.limits, kind.name(), &raw)?;
    let (limit, offset) = paging.window(&state.limits)?;
    let by_length = match paging.sort.as_deref() {
        None | Some("alpha") => false,
        Some("length") => true,
        Some(other) => {
            return Err(ApiError::bad(format!(
                "sort is {other:?}, expected alpha or length"
            )));
        }
    };
    let (min, max) = (
        paging.min_len.unwrap_or(0),
        paging.max_len.unwrap_or(usize::MAX),
    );
    run(&state, move |lex, _| {
        let s = lex.search().lengths(min, max);
        let mut words = match kind {
            Kind::Contains => s.contains(&query),
            Kind::Starts => s.starts(&query),
            Kind::Ends => s.ends(&query),
            Kind::Pattern => s.pattern(&query),
            Kind::Regex => s.regex(&query),
            Kind::Anagram => s.anagram(&query),
            Kind::Subanagram => s.subanagram(&query),
        }?;
        if by_length {
            words.sort_by_length();
        }
        Ok(page_of(kind.name(), query, &words, lex, limit, offset))
    })
    .await
    .map(Json)
}

/// The word page as the server gives it: the fields of an [`Entry`] (the
/// lexicon's facts, then the base forms and senses of the site's stored
/// page, serialised from it in place) and whether definitions are served
/// at all (a site index is loaded).
#[derive(Debug)]
pub struct WordPage {
    /// The lexicon's entry (no senses or base forms).
    entry: Entry,
    /// The site's page of the word, if it has one.
    page: Option<Page>,
    definitions_loaded: bool,
}

impl Serialize for WordPage {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let e = &self.entry;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("word", &e.word)?;
        m.serialize_entry("valid", &e.valid)?;
        m.serialize_entry("length", &e.length)?;
        m.serialize_entry("points", &e.points)?;
        m.serialize_entry("alphagram", &e.alphagram)?;
        m.serialize_entry("front_hooks", &e.front_hooks)?;
        m.serialize_entry("back_hooks", &e.back_hooks)?;
        m.serialize_entry("anagrams", &e.anagrams)?;
        match &self.page {
            Some(p) => {
                if p.base_forms().next().is_some() {
                    m.serialize_entry("base_forms", &p.base_forms())?;
                }
                m.serialize_entry("senses", &p.senses_json())?;
            }
            None => m.serialize_entry("senses", &[] as &[()])?,
        }
        m.serialize_entry("definitions_loaded", &self.definitions_loaded)?;
        m.end()
    }
}

/// The entry of `word` from the lexicon alone (no definitions).
fn lexicon_entry(lex: &Lexicon, word: &str) -> Result<Entry, lexq::Error> {
    let alphabet = lex.alphabet();
    let codes = alphabet.encode(word)?;
    let spelled = alphabet.decode(&codes);
    let hooks = lex.hooks(word)?;
    let anagrams = lex
        .anagram(word)?
        .to_strings()
        .into_iter()
        .filter(|a| *a != spelled)
        .collect();
    let mut sorted = codes.clone();
    sorted.sort_unstable();
    Ok(Entry {
        valid: hooks.is_word,
        length: codes.len(),
        points: word_points(alphabet, &codes),
        alphagram: alphabet.decode(&sorted),
        front_hooks: hooks.front_letters(),
        back_hooks: hooks.back_letters(),
        anagrams,
        base_forms: Vec::new(),
        senses: Vec::new(),
        word: spelled,
    })
}

async fn word(
    State(state): State<AppState>,
    path: Result<Path<String>, PathRejection>,
) -> ApiResult<WordPage> {
    let Path(raw) = path?;
    let w = arg(&state.limits, "word", &raw)?;
    run(&state, move |lex, site| {
        // The lexicon is the judge; the site adds definitions. An
        // accented spelling the lexicon's alphabet lacks is the word
        // without its accents (café is CAFE).
        let entry = match lexicon_entry(lex, &w) {
            Err(e) => match crate::html::plain::fold(&w) {
                Some(folded) => lexicon_entry(lex, &folded).map_err(|_| e)?,
                None => return Err(e.into()),
            },
            entry => entry?,
        };
        let page = match (entry.valid, site) {
            (true, Some(site)) => site.page(&entry.word)?,
            _ => None,
        };
        Ok(WordPage {
            entry,
            page,
            definitions_loaded: site.is_some(),
        })
    })
    .await
    .map(Json)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckParams {
    words: String,
}

#[derive(Serialize)]
struct Checked {
    word: String,
    valid: bool,
}

#[derive(Serialize)]
struct CheckResult {
    all_valid: bool,
    total: usize,
    results: Vec<Checked>,
}

async fn check(
    State(state): State<AppState>,
    q: Result<Query<CheckParams>, QueryRejection>,
) -> ApiResult<CheckResult> {
    let Query(q) = q?;
    let words: Vec<String> = q
        .words
        .split(',')
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .map(|w| arg(&state.limits, "word", w))
        .collect::<Result<_, _>>()?;
    if words.is_empty() {
        return Err(ApiError::bad("no words to check (words=A,B,...)"));
    }
    if words.len() > state.limits.max_check {
        return Err(ApiError::bad(format!(
            "{} words, at most {} are checked at once",
            words.len(),
            state.limits.max_check
        )));
    }
    run(&state, move |lex, _| {
        let mut results = Vec::with_capacity(words.len());
        for w in &words {
            let codes = lex.alphabet().encode(w)?;
            results.push(Checked {
                word: lex.alphabet().decode(&codes),
                valid: lex.is_word(w)?,
            });
        }
        Ok(CheckResult {
            all_valid: results.iter().all(|r| r.valid),
            total: results.len(),
            results,
        })
    })
    .await
    .map(Json)
}

#[derive(Serialize)]
struct HooksResult {
    word: String,
    valid: bool,
    front: String,
    back: String,
    front_words: Vec<String>,
    back_words: Vec<String>,
}

async fn hooks(
    State(state): State<AppState>,
    path: Result<Path<String>, PathRejection>,
) -> ApiResult<HooksResult> {
    let Path(raw) = path?;
    let w = arg(&state.limits, "word", &raw)?;
    run(&state, move |lex, _| {
        let h = lex.hooks(&w)?;
        let word = h.word();
        let front = h.front_letters();
        let back = h.back_letters();
        let split = |s: &str| -> Vec<String> {
            let mut out = Vec::new();
            let mut rest = s;
            while let Some((_, len)) = lex.alphabet().tile_at(rest) {
                out.push(rest[..len].to_string());
                rest = &rest[len..];
            }
            out
        };
        Ok(HooksResult {
            front_words: split(&front).iter().map(|l| format!("{l}{word}")).collect(),
            back_words: split(&back).iter().map(|l| format!("{word}{l}")).collect(),
            valid: h.is_word,
            word,
            front,
            back,
        })
    })
    .await
    .map(Json)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SearchParams {
    q: String,
    limit: Option<usize>,
    offset: Option<usize>,
}

#[derive(Serialize)]
struct SearchResult {
    query: String,
    total: usize,
    offset: usize,
    limit: usize,
    hits: Vec<Hit>,
}

async fn search(
    State(state): State<AppState>,
    q: Result<Query<SearchParams>, QueryRejection>,
) -> ApiResult<SearchResult> {
    let Query(p) = q?;
    let query = arg(&state.limits, "query", &p.q)?;
    let (limit, offset) = Paging {
        limit: p.limit,
        offset: p.offset,
        ..Paging::default()
    }
    .window(&state.limits)?;
    if state.site.is_none() {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "no site index is loaded (start the server with --site DIR)",
        ));
    }
    // Built and costed when the request was let in (admission), or (a
    // router without it) here. The query stops at the request's
    // deadline, or as soon as the request is dropped (timed out, or the
    // client went away).
    let prepared = admission::current()
        .and_then(|a| a.take_search())
        .filter(|p| p.query() == query);
    let stop = Stop::after(state.limits.timeout);
    let _cancel = admission::CancelOnDrop(stop.clone());
    let bounds = state.limits.query;
    run(&state, move |_, site| {
        let site = site.expect("checked above");
        // Stopped at the deadline: 503, as a query that found no turn.
        let hits = match prepared {
            Some(p) => site.run_prepared(p, limit, offset)?,
            None => site.search_with(&query, limit, offset, &bounds, &stop)?,
        };
        Ok(SearchResult {
            query,
            total: hits.total,
            offset,
            limit,
            hits: hits.hits,
        })
    })
    .await
    .map(Json)
}

#[derive(Serialize)]
struct InfoResult {
    lexicon: lexq::Info,
    site: Option<crate::build::SiteMeta>,
    limits: LimitsOut,
}

#[derive(Serialize)]
struct LimitsOut {
    max_input: usize,
    max_limit: usize,
    default_limit: usize,
    max_check: usize,
    timeout_ms: u128,
    concurrency: usize,
    heavy_concurrency: usize,
    max_client_heavy: usize,
    query: QueryBounds,
    max_find_steps: u64,
    max_conditions: usize,
}

/// The last part of a path (a file's name), so that no answer tells where
/// the server's files are.
fn file_name(path: &str) -> String {
    let path = std::path::Path::new(path);
    path.file_name()
        .map_or_else(|| "-".to_string(), |n| n.to_string_lossy().into_owned())
}

async fn info(State(state): State<AppState>) -> Json<InfoResult> {
    let l = &state.limits;
    let mut lexicon = state.lex.info();
    lexicon.source = file_name(&lexicon.source);
    let site = state.site.as_ref().map(|s| {
        let mut meta = s.meta().clone();
        meta.lexicon = file_name(&meta.lexicon);
        meta.wordnet = meta.wordnet.as_deref().map(file_name);
        meta.definitions = meta.definitions.iter().map(|d| file_name(d)).collect();
        meta
    });
    Json(InfoResult {
        lexicon,
        site,
        limits: LimitsOut {
            max_input: l.max_input,
            max_limit: l.max_limit,
            default_limit: l.default_limit,
            max_check: l.max_check,
            timeout_ms: l.timeout.as_millis(),
            concurrency: l.concurrency,
            heavy_concurrency: l.heavy_concurrency,
            max_client_heavy: l.max_client_heavy,
            query: l.query,
            max_find_steps: l.max_find_steps,
            max_conditions: l.max_conditions,
        },
    })
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct MovesParams {
    limit: Option<usize>,
    offset: Option<usize>,
    /// List exchanges and the pass too.
    exchanges: Option<bool>,
}

#[derive(Serialize)]
struct MovesResult {
    cgp: String,
    total: usize,
    offset: usize,
    limit: usize,
    moves: Vec<serde_json::Value>,
}

/// The longest CGP body `moves` takes, in bytes.
pub const MAX_CGP_BYTES: usize = 4096;

fn move_json(m: &lexq::game::Move, pos: &lexq::game::Position<'_>) -> serde_json::Value {
    // The core's serializer, the same the CLI's --json uses.
    let view = lexq::game::MoveView::new(m, &pos.rack(), pos.board.alphabet());
    serde_json::to_value(view).unwrap_or(serde_json::Value::Null)
}

/// `POST /api/v1/moves`: the body is one CGP line; the moves of the
/// player to move, best first, paged. The server's lexicon judges words
/// (the CGP's `lex` opcode is not followed); `bdn` and `ld` may name
/// built-in layouts and tile sets, and the files the operator allows
/// ([`AppState::with_files`]).
async fn moves(
    State(state): State<AppState>,
    q: Result<Query<MovesParams>, QueryRejection>,
    body: Result<String, axum::extract::rejection::StringRejection>,
) -> ApiResult<MovesResult> {
    let Query(p) = q?;
    let body = body.map_err(|e| ApiError::new(e.status(), e.body_text()))?;
    let cgp = body.trim().to_string();
    if cgp.is_empty() {
        return Err(ApiError::bad("the body is empty: POST one CGP line"));
    }
    if cgp.contains('\n') {
        return Err(ApiError::bad(
            "the body holds more than one line: POST one CGP line",
        ));
    }
    let (limit, offset) = Paging {
        limit: p.limit,
        offset: p.offset,
        ..Paging::default()
    }
    .window(&state.limits)?;
    let exchanges = p.exchanges.unwrap_or(false);
    let files = state.files.clone();
    run(&state, move |lex, _| {
        let pos = lexq::game::Position::from_cgp_with(lex, &cgp, &files)?;
        let mut all = lexq::game::All::default();
        let mut generator = lexq::game::Generator::new().exchanges(exchanges);
        generator.set_bag(Some(pos.bag_len()));
        generator.generate(&pos.board, &pos.rack(), &mut all);
        let mut list = all.moves;
        list.sort_unstable_by(lexq::game::rank);
        let page = list
            .iter()
            .skip(offset)
            .take(limit)
            .map(|m| move_json(m, &pos))
            .collect();
        Ok(MovesResult {
            total: list.len(),
            offset,
            limit,
            moves: page,
            cgp,
        })
    })
    .await
    .map(Json)
}

/// `GET /api/v1/find?CONDITION=VALUE&...`: the words that meet every
/// condition ([`find`]), paged, within the step budget and the deadline.
async fn find_words(
    State(state): State<AppState>,
    q: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> ApiResult<find::FindResult> {
    let Query(pairs) = q?;
    let req = find::parse(&state.limits, &pairs)?;
    // The walk stops at the deadline, or as soon as the request is
    // dropped (timed out, or the client went away).
    let stop = Stop::after(state.limits.timeout);
    let _cancel = admission::CancelOnDrop(stop.clone());
    let (serving, limits) = (state.serving.clone(), state.limits.clone());
    run(&state, move |lex, _| {
        find::run(lex, &serving.ranks, &limits, &req, &stop)
    })
    .await
    .map(Json)
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct SuggestParams {
    distance: Option<u8>,
    limit: Option<usize>,
}

/// `GET /api/v1/suggest/{w}`: the words within `distance` (1 or 2,
/// default 2) edits of `w`, nearest and most probable first.
async fn suggest(
    State(state): State<AppState>,
    path: Result<Path<String>, PathRejection>,
    q: Result<Query<SuggestParams>, QueryRejection>,
) -> ApiResult<find::SuggestResult> {
    let Path(raw) = path?;
    let Query(p) = q?;
    let w = arg(&state.limits, "word", &raw)?;
    let distance = p.distance.unwrap_or(find::MAX_SUGGEST_DISTANCE);
    if !(1..=find::MAX_SUGGEST_DISTANCE).contains(&distance) {
        return Err(ApiError::bad(format!(
            "distance is {distance}: 1 or {} is served",
            find::MAX_SUGGEST_DISTANCE
        )));
    }
    let (limit, _) = Paging {
        limit: p.limit.or(Some(10)),
        ..Paging::default()
    }
    .window(&state.limits)?;
    run(&state, move |lex, site| {
        let frequencies = match site {
            Some(site) => Some(site.frequencies()?),
            None => None,
        };
        find::suggest(lex, frequencies, &w, distance, limit)
    })
    .await
    .map(Json)
}

async fn page() -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        )],
        PAGE,
    )
        .into_response()
}

async fn licence(State(state): State<AppState>) -> Response {
    match state.serving.licence.clone() {
        Some(text) => (
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/plain; charset=utf-8"),
            )],
            text,
        )
            .into_response(),
        None => ApiError::new(StatusCode::NOT_FOUND, "no WordNet data is served").into_response(),
    }
}

async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "no such page or endpoint")
}

async fn not_allowed() -> ApiError {
    ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "method not allowed here")
}

/// Panics in a handler (outside a query, which [`run`] catches) are
/// answered 503 and logged.
fn panicked(p: Box<dyn std::any::Any + Send + 'static>) -> Response {
    let msg = p
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into());
    ApiError::failed("a handler panicked", &msg).into_response()
}

/// The application: every route, each priced for admission, the fallback,
/// and the layers every answer passes through (outermost first): the
/// access log, panics to 503, CORS (with [`ServeOptions::cors`]),
/// compression, security and caching headers, JSON error bodies, the
/// body deadline and size cap.
pub fn router(state: AppState) -> Router {
    use admission::Pricing;
    let priced = |r: MethodRouter<AppState>, p: Pricing| {
        r.route_layer(middleware::from_fn_with_state(
            (state.clone(), p),
            admission::admit,
        ))
    };
    macro_rules! list_route {
        ($kind:expr) => {
            priced(
                get(|State(s): State<AppState>, p, q| list($kind, s, p, q)),
                Pricing::List($kind),
            )
        };
    }
    let opts = &state.options;
    let cors = match &opts.cors {
        Cors::Off => None,
        c => Some(
            CorsLayer::new()
                .allow_origin(match c {
                    Cors::Origins(list) => AllowOrigin::list(list.iter().cloned()),
                    _ => AllowOrigin::any(),
                })
                .allow_methods([
                    axum::http::Method::GET,
                    axum::http::Method::HEAD,
                    axum::http::Method::POST,
                ])
                .allow_headers([header::CONTENT_TYPE, header::IF_NONE_MATCH])
                .expose_headers([header::ETAG, header::RETRY_AFTER])
                .max_age(Duration::from_secs(3600)),
        ),
    };
    Router::new()
        .route("/", get(page))
        .route("/licence", get(licence))
        .route("/api/v1/info", get(info))
        .route("/api/v1/word/{w}", priced(get(word), Pricing::Light))
        .route("/api/v1/check", priced(get(check), Pricing::Light))
        .route("/api/v1/hooks/{w}", priced(get(hooks), Pricing::Light))
        .route("/api/v1/search", priced(get(search), Pricing::Search))
        .route(
            "/api/v1/moves",
            priced(
                axum::routing::post(moves)
                    .layer(axum::extract::DefaultBodyLimit::max(MAX_CGP_BYTES)),
                Pricing::Moves,
            ),
        )
        .route("/api/v1/contains/{s}", list_route!(Kind::Contains))
        .route("/api/v1/starts/{s}", list_route!(Kind::Starts))
        .route("/api/v1/ends/{s}", list_route!(Kind::Ends))
        .route("/api/v1/pattern/{p}", list_route!(Kind::Pattern))
        .route("/api/v1/regex/{r}", list_route!(Kind::Regex))
        .route("/api/v1/anagram/{r}", list_route!(Kind::Anagram))
        .route("/api/v1/subanagram/{r}", list_route!(Kind::Subanagram))
        .route("/api/v1/find", priced(get(find_words), Pricing::Find))
        .route(
            "/api/v1/suggest/{w}",
            priced(get(suggest), Pricing::Suggest),
        )
        // The HTML pages (`pages.rs`).
        .route("/word/{w}", priced(get(pages::word_page), Pricing::Light))
        .route(
            "/search",
            priced(get(pages::search_page), Pricing::PageSearch),
        )
        .route("/browse", priced(get(pages::browse_index), Pricing::Light))
        .route(
            "/browse/{prefix}",
            priced(get(pages::browse_prefix), Pricing::Light),
        )
        .route(
            "/browse/length/{n}",
            priced(get(pages::browse_length), Pricing::Light),
        )
        .route(
            "/sitemap.xml",
            priced(get(pages::sitemap_index), Pricing::Light),
        )
        .route(
            "/sitemaps/{file}",
            priced(get(pages::sitemap_part), Pricing::Light),
        )
        .route("/robots.txt", get(pages::robots))
        .route(
            "/api/v1/complete",
            priced(get(pages::complete_api), Pricing::Light),
        )
        .fallback(not_found)
        .method_not_allowed_fallback(not_allowed)
        .layer(tower_http::limit::RequestBodyLimitLayer::new(MAX_CGP_BYTES))
        .layer(tower_http::timeout::RequestBodyDeadlineLayer::new(
            opts.client_timeout,
        ))
        .layer(middleware::from_fn(headers::utf8_query))
        .layer(middleware::from_fn(headers::json_errors))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            pages::html_errors,
        ))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            headers::respond,
        ))
        .layer(CompressionLayer::new())
        .layer(tower::util::option_layer(cors))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(panicked))
        .layer(middleware::from_fn_with_state(state.clone(), ops::count))
        .layer(middleware::from_fn_with_state(state.clone(), log::access))
        // After the layers: unpriced, unlogged, uncached.
        .route("/healthz", get(ops::health))
        .route("/metrics", get(ops::metrics))
        .with_state(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn failures_are_503_never_500() {
        let state = AppState::new(Lexicon::embedded(), None, Limits::default(), false);
        // A query that panics.
        let e = run(&state, |_, _| -> Result<(), ApiError> { panic!("a bug") })
            .await
            .unwrap_err();
        assert_eq!(e.status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(!e.message.contains("a bug"), "{}", e.message);
        // A handler that panics outside a query.
        let r = panicked(Box::new("a bug"));
        assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
        // A file the server cannot read: 503, its path not told.
        let io = lexq::Error::Io {
            path: "/secret/place.lexq".into(),
            source: std::io::Error::other("gone"),
        };
        let e = ApiError::from(io);
        assert_eq!(e.status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(!e.message.contains("secret"), "{}", e.message);
        // Busy: 503 with Retry-After.
        let r = ApiError::busy().into_response();
        assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(r.headers()[header::RETRY_AFTER], "1");
    }
}
