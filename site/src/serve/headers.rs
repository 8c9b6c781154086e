//! What every answer carries: `X-Content-Type-Options`, a Content-Security-
//! Policy (the page's allows its own inline script and style, by hash, and
//! nothing else), and for what cannot change while the server runs (every
//! `GET`: word pages, lists, searches, the page) `Cache-Control` and an
//! `ETag`, with `304 Not Modified` for an `If-None-Match` that holds it.
//! Error answers are never cached, and always JSON.

use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use base64::Engine;
use sha2::{Digest, Sha256};

use super::{ApiError, AppState, PAGE};

/// The API's policy: nothing may load from an answer, nor frame it.
const API_CSP: &str = "default-src 'none'; frame-ancestors 'none'";

/// The page's policy: its one inline `<script>` and `<style>`, by their
/// SHA-256, fetches to its own origin, links and form posts nowhere else.
pub fn page_csp() -> &'static str {
    static CSP: OnceLock<String> = OnceLock::new();
    CSP.get_or_init(|| {
        let hash = |tag: &str| {
            let open = format!("<{tag}>");
            let close = format!("</{tag}>");
            let start = PAGE.find(&open).expect("the page has the element") + open.len();
            let end = start + PAGE[start..].find(&close).expect("closed");
            let digest = Sha256::digest(&PAGE.as_bytes()[start..end]);
            format!(
                "'sha256-{}'",
                base64::engine::general_purpose::STANDARD.encode(digest)
            )
        };
        format!(
            "default-src 'none'; script-src {}; style-src {}; connect-src 'self'; \
             img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
            hash("script"),
            hash("style")
        )
    })
}

/// A fingerprint of what the server answers from: this version's code
/// and page, the lexicon's bytes, the site's build and index segments,
/// and the limits that shape answers. Two servers over the same data
/// give the same `ETag`s, even from sites built apart (see
/// `serve::replica`); a site rebuilt from other inputs or another
/// lexicon changes them all.
pub(crate) fn seed(state: &AppState) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    env!("CARGO_PKG_VERSION").hash(&mut h);
    PAGE.hash(&mut h);
    state.lex.file_bytes().hash(&mut h);
    if let Some(site) = &state.site {
        super::replica::hash_site(site, &mut h);
    }
    (state.limits.default_limit, state.limits.max_limit).hash(&mut h);
    h.finish()
}

/// The `ETag` of `GET uri`: weak, as the bytes differ when compressed.
fn etag(seed: u64, uri: &axum::http::Uri) -> HeaderValue {
    let mut h = std::hash::DefaultHasher::new();
    seed.hash(&mut h);
    uri.path().hash(&mut h);
    uri.query().unwrap_or("").hash(&mut h);
    HeaderValue::from_str(&format!("W/\"{:016x}\"", h.finish())).expect("hex digits")
}

/// Whether `If-None-Match` holds `tag` (a weak comparison), or `*` when
/// `star` counts.
fn none_match(headers: &HeaderMap, tag: &HeaderValue, star: bool) -> bool {
    let opaque = |t: &[u8]| t.strip_prefix(b"W/").unwrap_or(t).to_vec();
    let want = opaque(tag.as_bytes());
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .flat_map(|v| v.as_bytes().split(|&b| b == b','))
        .map(|t| t.trim_ascii())
        .any(|t| (star && t == b"*") || opaque(t) == want)
}

/// The middleware: conditional answers, caching and security headers.
pub(crate) async fn respond(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let cacheable = req.method() == Method::GET || req.method() == Method::HEAD;
    let tag = cacheable.then(|| etag(state.serving.etag_seed, req.uri()));
    let max_age = state.options.max_age.as_secs();
    let cache = || HeaderValue::from_str(&format!("public, max-age={max_age}")).expect("digits");
    let mut res = match &tag {
        // Answered without running the query at all.
        Some(t) if none_match(req.headers(), t, false) => not_modified(),
        _ => {
            let star = tag.is_some() && req.headers().contains_key(header::IF_NONE_MATCH);
            let headers = star.then(|| req.headers().clone());
            let res = next.run(req).await;
            match (&tag, headers) {
                (Some(t), Some(h)) if res.status() == StatusCode::OK && none_match(&h, t, true) => {
                    not_modified()
                }
                _ => res,
            }
        }
    };
    let fresh = matches!(res.status(), StatusCode::OK | StatusCode::NOT_MODIFIED);
    let h = res.headers_mut();
    match tag {
        Some(t) if fresh => {
            h.insert(header::ETAG, t);
            h.insert(header::CACHE_CONTROL, cache());
        }
        _ => {
            h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        }
    }
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    let html = h
        .get(header::CONTENT_TYPE)
        .is_some_and(|c| c.as_bytes().starts_with(b"text/html"));
    let csp = if html {
        HeaderValue::from_static(page_csp())
    } else {
        HeaderValue::from_static(API_CSP)
    };
    h.insert(header::CONTENT_SECURITY_POLICY, csp);
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("strict-origin-when-cross-origin"),
    );
    res
}

/// The reason given for a refusal made below the router.
fn refusal_reason(status: StatusCode) -> &'static str {
    match status.as_u16() {
        431 => "the request head (request line and header fields) is larger than 32 KiB",
        414 => "the request target is too long",
        _ => "the request could not be read (a malformed request line or header)",
    }
}

/// The answer to a request refused below the router (a head over the
/// cap): the API's JSON error body and the headers of every other error.
pub(crate) fn refusal(status: StatusCode) -> Response {
    let mut res = ApiError::new(status, refusal_reason(status)).into_response();
    let h = res.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(API_CSP),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("strict-origin-when-cross-origin"),
    );
    res
}

/// If `data` is a response head hyper wrote itself for a request it could
/// not parse (400, 414 or 431, none of the router's headers), the bytes
/// of the same refusal in the API's shape ([`refusal`]), closing the
/// connection as hyper does.
pub(crate) fn refusal_bytes(data: &[u8]) -> Option<Vec<u8>> {
    let code = data.strip_prefix(b"HTTP/1.1 ")?.get(..4)?;
    let status = match code {
        b"400 " => StatusCode::BAD_REQUEST,
        b"414 " => StatusCode::URI_TOO_LONG,
        b"431 " => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
        _ => return None,
    };
    let head_end = data.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = data[..head_end].to_ascii_lowercase();
    if head.windows(23).any(|w| w == b"x-content-type-options:") {
        return None;
    }
    let body = serde_json::to_string(&super::ErrorBody {
        error: refusal_reason(status),
        status: status.as_u16(),
    })
    .ok()?;
    Some(
        format!(
            "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
             connection: close\r\ncache-control: no-store\r\nx-content-type-options: nosniff\r\n\
             content-security-policy: {API_CSP}\r\nreferrer-policy: strict-origin-when-cross-origin\r\n\r\n{body}",
            status.as_u16(),
            status.canonical_reason().unwrap_or(""),
            body.len()
        )
        .into_bytes(),
    )
}

fn not_modified() -> Response {
    StatusCode::NOT_MODIFIED.into_response()
}

/// The middleware that turns an error answer made by a layer (a body over
/// the cap, say) into the API's JSON error body; the handlers' own are
/// JSON already. A 500 from anywhere (none is made on purpose: a failure
/// is a 503) becomes a logged 503.
pub(crate) async fn json_errors(req: Request, next: Next) -> Response {
    let res = next.run(req).await;
    let status = res.status();
    let json = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|c| c.as_bytes().starts_with(b"application/json"));
    // The HTML pages' own error pages (an unknown word's) stay pages.
    let page = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|c| c.as_bytes().starts_with(b"text/html"));
    let internal = status == StatusCode::INTERNAL_SERVER_ERROR;
    if status.as_u16() < 400 || ((json || page) && !internal) {
        return res;
    }
    let (parts, body) = res.into_parts();
    let text = axum::body::to_bytes(body, 1024)
        .await
        .ok()
        .and_then(|b| String::from_utf8(b.to_vec()).ok())
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| status.canonical_reason().unwrap_or("error").to_string());
    let error = if internal {
        ApiError::failed("an internal error", &text)
    } else {
        ApiError::new(status, text)
    };
    let mut out = error.into_response();
    for (k, v) in parts.headers.iter() {
        if k != header::CONTENT_TYPE && k != header::CONTENT_LENGTH {
            out.headers_mut().insert(k, v.clone());
        }
    }
    out
}

/// Whether a query string's percent-decoded bytes are UTF-8 (`+` and
/// unescaped bytes stand for themselves; a `%` not followed by two hex
/// digits stands for itself, as form decoding takes it).
fn query_is_utf8(query: &str) -> bool {
    let b = query.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let hex = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let (Some(h), Some(l)) = (
                b.get(i + 1).copied().and_then(hex),
                b.get(i + 2).copied().and_then(hex),
            )
        {
            out.push(h << 4 | l);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    std::str::from_utf8(&out).is_ok()
}

/// The middleware that answers 400 to a query string whose escapes are
/// not UTF-8 (`check?words=%ff`), as a path's are: form decoding would
/// otherwise turn the bytes into U+FFFD and answer for that.
pub(crate) async fn utf8_query(req: Request, next: Next) -> Response {
    if let Some(q) = req.uri().query()
        && !query_is_utf8(q)
    {
        return ApiError::bad("the query string is not UTF-8 once its %-escapes are decoded")
            .into_response();
    }
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_strings_decode_to_utf8_or_not() {
        for ok in [
            "",
            "words=care",
            "q=%C3%A9t%C3%A9",
            "a=%",
            "a=%zz",
            "a=%4",
            "w=a+b",
        ] {
            assert!(query_is_utf8(ok), "{ok}");
        }
        for bad in ["words=%ff", "q=%C3", "q=%c3%28", "a=1&b=%80"] {
            assert!(!query_is_utf8(bad), "{bad}");
        }
    }

    #[test]
    fn the_page_policy_holds_its_blocks_hashes() {
        let csp = page_csp();
        let script = {
            let s = PAGE.find("<script>").unwrap() + "<script>".len();
            &PAGE[s..s + PAGE[s..].find("</script>").unwrap()]
        };
        let digest = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(script));
        assert!(
            csp.contains(&format!("script-src 'sha256-{digest}'")),
            "{csp}"
        );
        assert!(!csp.contains("unsafe"), "{csp}");
        // One script and one style block, no inline handlers or style
        // attributes, no javascript: links: all would be blocked.
        assert_eq!(PAGE.matches("<script").count(), 1);
        assert_eq!(PAGE.matches("<style").count(), 1);
        for bad in [
            " style=\"",
            "javascript:",
            " onclick=",
            " onload=",
            " oninput=",
        ] {
            assert!(!PAGE.contains(bad), "{bad}");
        }
    }

    #[tokio::test]
    async fn a_500_from_anywhere_is_a_503() {
        use tower::ServiceExt;
        let app = axum::Router::new()
            .route(
                "/plain",
                axum::routing::get(|| async {
                    (StatusCode::INTERNAL_SERVER_ERROR, "secret detail")
                }),
            )
            .route(
                "/json",
                axum::routing::get(|| async {
                    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "secret detail")
                }),
            )
            .route(
                "/teapot",
                axum::routing::get(|| async { (StatusCode::IM_A_TEAPOT, "short and stout") }),
            )
            .layer(axum::middleware::from_fn(json_errors));
        for path in ["/plain", "/json"] {
            let req = Request::get(path).body(axum::body::Body::empty()).unwrap();
            let res = app.clone().oneshot(req).await.unwrap();
            assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE, "{path}");
            let body = axum::body::to_bytes(res.into_body(), 4096).await.unwrap();
            let body = String::from_utf8(body.to_vec()).unwrap();
            assert!(!body.contains("secret"), "{body}");
        }
        // Other errors keep their status, in the JSON body.
        let req = Request::get("/teapot")
            .body(axum::body::Body::empty())
            .unwrap();
        let res = app.oneshot(req).await.unwrap();
        assert_eq!(res.status(), StatusCode::IM_A_TEAPOT);
        let body = axum::body::to_bytes(res.into_body(), 4096).await.unwrap();
        assert_eq!(&body[..], br#"{"error":"short and stout","status":418}"#);
    }

    #[test]
    fn if_none_match_is_compared_weakly() {
        let tag = HeaderValue::from_static("W/\"00ff\"");
        let h = |v: &str| {
            let mut m = HeaderMap::new();
            m.insert(header::IF_NONE_MATCH, HeaderValue::from_str(v).unwrap());
            m
        };
        assert!(none_match(&h("W/\"00ff\""), &tag, false));
        assert!(none_match(&h("\"00ff\""), &tag, false));
        assert!(none_match(&h("\"1\", W/\"00ff\""), &tag, false));
        assert!(!none_match(&h("\"00fe\""), &tag, false));
        assert!(!none_match(&h("*"), &tag, false));
        assert!(none_match(&h("*"), &tag, true));
        assert!(!none_match(&HeaderMap::new(), &tag, true));
    }
}
