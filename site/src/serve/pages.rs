//! The HTML pages' routes (rendered by [`crate::html`]): `/word/{word}`,
//! `/search?q=`, `/browse...`, `/sitemap.xml`, `/sitemaps/{n}.xml`,
//! `/robots.txt`, and the completions the pages ask for as a visitor
//! types (`/api/v1/complete?q=`). Each runs in the server's pools under
//! its time limit, as the API's queries do; bad input is a page that
//! says so (an unknown word: 404 with the words nearest it), never a
//! 500.

use axum::Json;
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use lexq::Lexicon;
use serde::{Deserialize, Serialize};

use super::{ApiError, AppState, arg, lexicon_entry, run};
use crate::cost::Stop;
use crate::html::results::Results;
use crate::html::{browse, escape, plain, results, sitemap, word};
use crate::search::Site;

/// Results on one page of `/search`.
const RESULTS_PER_PAGE: usize = 20;

/// Words offered as "did you mean".
const NEAR: usize = 5;

/// An HTML answer.
fn html(status: StatusCode, body: String) -> Response {
    (
        status,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        )],
        body,
    )
        .into_response()
}

/// A text answer of `kind`.
fn text(kind: &'static str, body: String) -> Response {
    (
        [(header::CONTENT_TYPE, HeaderValue::from_static(kind))],
        body,
    )
        .into_response()
}

/// A redirect to `to` (a path of this site): 308 keeps the method, for a
/// page's one address; 303 sends a search to its answer's page.
fn redirect(status: StatusCode, to: &str) -> Response {
    match HeaderValue::from_str(to) {
        Ok(v) => (status, [(header::LOCATION, v)]).into_response(),
        Err(_) => ApiError::bad("a bad address").into_response(),
    }
}

/// The words of the lexicon nearest `word` (1 or 2 edits, by its
/// length), ranked as `/api/v1/suggest` ranks them ([`super::find::suggest`]:
/// nearest, then most common when a site is served, then most probable);
/// none for what is not spelled in the alphabet or is too long.
pub(crate) fn near_words(
    lex: &Lexicon,
    site: Option<&Site>,
    word: &str,
    limit: usize,
) -> Vec<String> {
    let Ok(codes) = lex.alphabet().encode(word) else {
        return Vec::new();
    };
    if codes.is_empty() {
        return Vec::new();
    }
    let distance = if codes.len() > 8 { 1 } else { 2 };
    let frequencies = site.and_then(|s| s.frequencies().ok());
    super::find::suggest(lex, frequencies, word, distance, limit)
        .map(super::find::SuggestResult::into_words)
        .unwrap_or_default()
}

/// The words of the lexicon whose base forms include `word` (from the
/// site's `base_form` field), in alphabet order.
fn inflections(site: &Site, word: &str) -> Vec<String> {
    let lower = word.to_lowercase();
    if lower.is_empty() || !lower.chars().all(char::is_alphabetic) {
        return Vec::new();
    }
    let mut out: Vec<String> = site
        .search(&format!("base_form:{lower}"), 100, 0)
        .map(|h| h.hits.into_iter().map(|h| h.word).collect())
        .unwrap_or_default();
    out.retain(|w| !w.eq_ignore_ascii_case(word));
    out.sort();
    out
}

/// `GET /word/{w}`: the word's page, at its one address (lowercase: any
/// other spelling is redirected there); an unknown word's page is a 404
/// with the words nearest it.
pub(super) async fn word_page(
    State(state): State<AppState>,
    path: Result<Path<String>, PathRejection>,
) -> Response {
    let raw = match path {
        Ok(Path(raw)) => raw,
        Err(e) => return ApiError::from(e).into_response(),
    };
    let w = match arg(&state.limits, "word", &raw) {
        Ok(w) => w,
        Err(e) => return e.into_response(),
    };
    let frame = state.frame.clone();
    let ran = run(&state, move |lex, site| {
        let entry = match lexicon_entry(lex, &w) {
            Ok(e) if e.valid => e,
            // An accented spelling of a word (café): the word's page.
            Err(_) if plain::fold(&w).is_some_and(|f| lex.is_word(&f).unwrap_or(false)) => {
                let to = escape::word_path(&plain::fold(&w).unwrap_or_default());
                return Ok(redirect(StatusCode::PERMANENT_REDIRECT, &to));
            }
            _ => {
                let near = near_words(lex, site, &w, NEAR);
                return Ok(html(
                    StatusCode::NOT_FOUND,
                    word::not_found(&frame, &w, &near),
                ));
            }
        };
        let path = escape::word_path(&entry.word);
        if format!("/word/{}", escape::Url(&raw)) != path {
            return Ok(redirect(StatusCode::PERMANENT_REDIRECT, &path));
        }
        let page = match site {
            Some(site) => site.page(&entry.word)?,
            None => None,
        };
        let inflected = site
            .map(|s| inflections(s, &entry.word))
            .unwrap_or_default();
        let is_word = |w: &str| lex.is_word(w).unwrap_or(false);
        let view = word::WordView {
            entry: &entry,
            page: page.as_ref(),
            definitions_loaded: site.is_some(),
            inflections: &inflected,
            is_word: &is_word,
        };
        Ok(html(StatusCode::OK, word::render(&frame, &view)))
    })
    .await;
    ran.unwrap_or_else(IntoResponse::into_response)
}

/// The parameters of `/search`.
#[derive(Deserialize, Debug, Default)]
pub(super) struct SearchPageParams {
    q: Option<String>,
    /// `lookup` (the default), `search` (definitions only), or a word
    /// list's mode (`contains`, `anagram`...: the search page's).
    mode: Option<String>,
    /// `full`: the query language; else plain text.
    syntax: Option<String>,
    offset: Option<usize>,
}

/// The modes of the search page that list words (answered there).
const LIST_MODES: [&str; 7] = [
    "contains",
    "starts",
    "ends",
    "pattern",
    "regex",
    "anagram",
    "subanagram",
];

/// `GET /search?q=`: a look-up first (a word of the lexicon goes to its
/// page), else a definition search of the text as words (or, with
/// `syntax=full`, in the query language), with did-you-mean above it;
/// when requiring every word finds nothing, the words matching most of
/// them, said so.
pub(super) async fn search_page(
    State(state): State<AppState>,
    q: Result<Query<SearchPageParams>, QueryRejection>,
) -> Response {
    let p = match q {
        Ok(Query(p)) => p,
        Err(e) => return ApiError::from(e).into_response(),
    };
    let raw = p.q.as_deref().unwrap_or("").trim().to_string();
    if raw.is_empty() {
        return redirect(StatusCode::SEE_OTHER, "/");
    }
    let query = match arg(&state.limits, "query", &raw) {
        Ok(q) => q,
        Err(e) => return e.into_response(),
    };
    let mode = p.mode.as_deref().unwrap_or("lookup");
    if LIST_MODES.contains(&mode) {
        let to = format!("/?mode={mode}&q={}", escape::Url(&query));
        return redirect(StatusCode::SEE_OTHER, &to);
    }
    if mode != "lookup" && mode != "search" {
        return ApiError::bad(format!(
            "mode is {mode:?}: lookup, search, or one of {}",
            LIST_MODES.join(", ")
        ))
        .into_response();
    }
    let full = match p.syntax.as_deref() {
        None | Some("plain") => false,
        Some("full") => true,
        Some(other) => {
            return ApiError::bad(format!("syntax is {other:?}: plain or full")).into_response();
        }
    };
    let lookup = mode == "lookup" && !full;
    let offset = p.offset.unwrap_or(0).min(state.limits.max_limit * 10);
    let (frame, bounds, timeout) = (
        state.frame.clone(),
        state.limits.query,
        state.limits.timeout,
    );
    let ran = run(&state, move |lex, site| {
        let words = plain::words(&query);
        // The one word typed, if it is one.
        let single = match words.as_slice() {
            [w] if w.chars().all(char::is_alphabetic) => Some(w.clone()),
            _ => None,
        };
        if lookup && let Some(w) = &single {
            // The word, or (not spelled in the alphabet) it unaccented.
            let unaccented = lex
                .alphabet()
                .encode(w)
                .is_err()
                .then(|| plain::fold(w))
                .flatten();
            for w in std::iter::once(w).chain(unaccented.as_ref()) {
                if lex.is_word(w).unwrap_or(false) {
                    return Ok(redirect(StatusCode::SEE_OTHER, &escape::word_path(w)));
                }
            }
        }
        let mut r = Results {
            query: query.clone(),
            full_syntax: full,
            offset,
            limit: RESULTS_PER_PAGE,
            near: single
                .as_deref()
                .map(|w| near_words(lex, site, w, NEAR))
                .unwrap_or_default(),
            ..Results::default()
        };
        let Some(site) = site else {
            r.problem = Some(
                "Definition search needs the server's site index, which is not loaded here: \
                 look a word up instead."
                    .into(),
            );
            return Ok(html(StatusCode::OK, results::render(&frame, &r)));
        };
        let stop = Stop::after(timeout);
        let every = if full {
            Some(query.clone())
        } else {
            plain::every_word(&query)
        };
        let Some(every) = every else {
            r.problem = Some("Type a word, or words to find in definitions.".into());
            return Ok(html(StatusCode::OK, results::render(&frame, &r)));
        };
        match site.search_with(&every, RESULTS_PER_PAGE, offset, &bounds, &stop) {
            Ok(hits) => {
                r.total = hits.total;
                r.hits = hits.hits;
            }
            Err(crate::SiteError::BadQuery { reason, .. }) => {
                r.problem = Some(format!("This search cannot be run: {reason}."));
                let status = if full {
                    StatusCode::BAD_REQUEST
                } else {
                    StatusCode::OK
                };
                return Ok(html(status, results::render(&frame, &r)));
            }
            Err(e) => return Err(e.into()),
        }
        if r.total == 0
            && !full
            && let Some(any) = plain::any_word(&query)
        {
            match site.search_with(&any, RESULTS_PER_PAGE, offset, &bounds, &stop) {
                Ok(hits) => {
                    r.relaxed = hits.total > 0;
                    r.total = hits.total;
                    r.hits = hits.hits;
                }
                // Too costly to ask for any word: what was found stands.
                Err(crate::SiteError::BadQuery { .. }) => {}
                Err(e) => return Err(e.into()),
            }
        }
        Ok(html(StatusCode::OK, results::render(&frame, &r)))
    })
    .await;
    ran.unwrap_or_else(IntoResponse::into_response)
}

/// The 404 page of a browse or sitemap address that does not exist.
fn no_page(frame: &crate::html::Frame) -> Response {
    let body = crate::html::layout::page(
        frame,
        &crate::html::layout::Head {
            title: "No such page · lexq",
            description: "No such page",
            canonical: None,
        },
        "",
        "<p class=\"error\">No such page. <a href=\"/browse\">Browse the words</a>.</p>",
    );
    html(StatusCode::NOT_FOUND, body)
}

/// Whether `path` is one of the HTML pages' (not the API's, nor the
/// JavaScript page's at `/`).
fn is_page_path(path: &str) -> bool {
    ["/word/", "/search", "/browse", "/sitemap"]
        .iter()
        .any(|p| path.starts_with(p))
}

/// The middleware giving the HTML pages' refusals (429, 503, 400 from
/// admission or the pools, made as the API's JSON) as a page of the
/// site with the same status and headers (`Retry-After` kept), so that
/// a person sees a page and not JSON.
pub(super) async fn html_errors(
    State(state): State<AppState>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let page = is_page_path(req.uri().path());
    let res = next.run(req).await;
    let json = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|c| c.as_bytes().starts_with(b"application/json"));
    if !page || !json || res.status().as_u16() < 400 {
        return res;
    }
    let (mut parts, body) = res.into_parts();
    let message = axum::body::to_bytes(body, 64 * 1024)
        .await
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
        .and_then(|v| v["error"].as_str().map(str::to_string))
        .unwrap_or_else(|| {
            parts
                .status
                .canonical_reason()
                .unwrap_or("error")
                .to_string()
        });
    let title = format!(
        "{} · lexq",
        parts.status.canonical_reason().unwrap_or("Error")
    );
    let body = crate::html::layout::page(
        &state.frame,
        &crate::html::layout::Head {
            title: &title,
            description: &message,
            canonical: None,
        },
        "",
        &format!(
            "<p class=\"error\">{}</p>",
            crate::html::escape::Html(&message)
        ),
    );
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, axum::body::Body::from(body))
}

/// `GET /browse`.
pub(super) async fn browse_index(State(state): State<AppState>) -> Response {
    let frame = state.frame.clone();
    run(&state, move |lex, _| {
        Ok(html(StatusCode::OK, browse::index(&frame, lex)))
    })
    .await
    .unwrap_or_else(IntoResponse::into_response)
}

/// `GET /browse/{prefix}`.
pub(super) async fn browse_prefix(
    State(state): State<AppState>,
    path: Result<Path<String>, PathRejection>,
) -> Response {
    let raw = match path {
        Ok(Path(raw)) => raw,
        Err(e) => return ApiError::from(e).into_response(),
    };
    if raw.len() > state.limits.max_input {
        return no_page(&state.frame);
    }
    let frame = state.frame.clone();
    run(&state, move |lex, _| {
        Ok(match browse::prefix(&frame, lex, &raw) {
            Some(page) => html(StatusCode::OK, page),
            None => no_page(&frame),
        })
    })
    .await
    .unwrap_or_else(IntoResponse::into_response)
}

/// The page of `/browse/length/{n}`.
#[derive(Deserialize, Debug, Default)]
pub(super) struct PageParam {
    page: Option<usize>,
}

/// `GET /browse/length/{n}?page=P`.
pub(super) async fn browse_length(
    State(state): State<AppState>,
    path: Result<Path<String>, PathRejection>,
    q: Result<Query<PageParam>, QueryRejection>,
) -> Response {
    let (Ok(Path(raw)), Ok(Query(p))) = (path, q) else {
        return no_page(&state.frame);
    };
    let Ok(len) = raw.parse::<usize>() else {
        return no_page(&state.frame);
    };
    let page = p.page.unwrap_or(1);
    let frame = state.frame.clone();
    run(&state, move |lex, _| {
        Ok(match browse::length(&frame, lex, len, page) {
            Some(page) => html(StatusCode::OK, page),
            None => no_page(&frame),
        })
    })
    .await
    .unwrap_or_else(IntoResponse::into_response)
}

/// A sitemap as `make` makes it (`None`: no such sitemap), from the
/// generation's cache when it was made before.
async fn sitemap_cached(
    state: &AppState,
    key: Option<usize>,
    make: impl FnOnce(&crate::html::Frame, &Lexicon) -> Option<String> + Send + 'static,
) -> Response {
    // A clone of the cached bytes is a reference count, not a copy of
    // the sitemap's megabytes.
    let xml = |body: axum::body::Bytes| {
        (
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/xml; charset=utf-8"),
            )],
            body,
        )
            .into_response()
    };
    let cache = &state.serving.sitemaps;
    if let Some(made) = cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
        return xml(made);
    }
    let frame = state.frame.clone();
    let ran = run(state, move |lex, _| Ok(make(&frame, lex))).await;
    match ran {
        Ok(Some(body)) => {
            let body = axum::body::Bytes::from(body);
            if let Ok(mut c) = cache.lock() {
                c.insert(key, body.clone());
            }
            xml(body)
        }
        Ok(None) => no_page(&state.frame),
        Err(e) => e.into_response(),
    }
}

/// `GET /sitemap.xml`.
pub(super) async fn sitemap_index(State(state): State<AppState>) -> Response {
    sitemap_cached(&state, None, |frame, lex| Some(sitemap::index(frame, lex))).await
}

/// `GET /sitemaps/{n}.xml`.
pub(super) async fn sitemap_part(
    State(state): State<AppState>,
    path: Result<Path<String>, PathRejection>,
) -> Response {
    let n = match path {
        Ok(Path(raw)) => raw
            .strip_suffix(".xml")
            .and_then(|n| n.parse::<usize>().ok()),
        Err(_) => None,
    };
    let Some(n) = n else {
        return no_page(&state.frame);
    };
    sitemap_cached(&state, Some(n), move |frame, lex| {
        sitemap::sitemap(frame, lex, n)
    })
    .await
}

/// `GET /robots.txt`.
pub(super) async fn robots(State(state): State<AppState>) -> Response {
    text("text/plain; charset=utf-8", sitemap::robots(&state.frame))
}

/// The parameters of `/api/v1/complete`.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct CompleteParams {
    q: String,
    limit: Option<usize>,
}

/// The answer of `/api/v1/complete`.
#[derive(Serialize, Debug)]
pub(crate) struct Completions {
    query: String,
    words: Vec<String>,
}

/// The most completions one answer holds.
pub const MAX_COMPLETIONS: usize = 50;

/// The completions of `prefix`: the word itself if it is one, then the
/// base forms it is an inflection of (from the site), then the words it
/// begins that the site knows a frequency of, most common first, then
/// the others, shortest first and in alphabet order within a length; at
/// most `limit`.
pub(crate) fn complete(
    lex: &Lexicon,
    site: Option<&Site>,
    prefix: &str,
    limit: usize,
) -> Result<Vec<String>, ApiError> {
    let codes = lex.alphabet().encode(prefix)?;
    let mut out: Vec<String> = Vec::new();
    let word = lex.alphabet().decode(&codes);
    if lex.is_word(&word)? {
        out.push(word.clone());
        if let Some(site) = site
            && let Some(page) = site.page(&word)?
        {
            for b in page.base_forms() {
                if lex.is_word(b)? && !out.iter().any(|o| o == b) {
                    out.push(b.to_string());
                }
            }
        }
    }
    // The most common words that begin so, by the site's frequencies ...
    if let Some(table) = site.map(Site::frequencies).transpose()? {
        let mut common: Vec<&(String, u64)> = table.starting(&word).iter().collect();
        let order = |a: &&(String, u64), b: &&(String, u64)| b.1.cmp(&a.1).then(a.0.cmp(&b.0));
        // The `limit` most common (`s` begins 5,000 words with one).
        if common.len() > limit && limit > 0 {
            common.select_nth_unstable_by(limit - 1, order);
            common.truncate(limit);
        }
        common.sort_by(order);
        for (w, _) in common {
            if out.len() >= limit {
                break;
            }
            if !out.contains(w) {
                out.push(w.clone());
            }
        }
    }
    // ... then the shortest, in alphabet order.
    for len in codes.len() + 1..=lex.max_word_len() {
        if out.len() >= limit {
            break;
        }
        let words = lex.search().lengths(len, len).starts(&word)?;
        for w in words.iter() {
            if out.len() >= limit {
                break;
            }
            let w = w.to_string();
            if !out.contains(&w) {
                out.push(w);
            }
        }
    }
    out.truncate(limit);
    Ok(out)
}

/// `GET /api/v1/complete?q=&limit=`: [`complete`] (10 by default, at
/// most [`MAX_COMPLETIONS`]).
pub(super) async fn complete_api(
    State(state): State<AppState>,
    q: Result<Query<CompleteParams>, QueryRejection>,
) -> Result<Json<Completions>, ApiError> {
    let Query(p) = q?;
    let query = arg(&state.limits, "query", &p.q)?;
    let limit = p.limit.unwrap_or(10);
    if limit == 0 || limit > MAX_COMPLETIONS {
        return Err(ApiError::bad(format!(
            "limit is {limit}: 1 to {MAX_COMPLETIONS}"
        )));
    }
    run(&state, move |lex, site| {
        let words = complete(lex, site, &query, limit)?;
        Ok(Completions { query, words })
    })
    .await
    .map(Json)
}
