//! The access log: one line per request on stderr,
//!
//! ```text
//! 203.0.113.7 "GET /api/v1/word/care" 200 0.412ms
//! 198.51.100.2 "GET /api/v1/pattern/*" 429 0.031ms via 10.0.0.1
//! 127.0.0.1 "GET /x\"y" 404 0.020ms xff="1.2.3.4\x01"
//! ```
//!
//! the client (behind a trusted proxy: the one it names, then `via` the
//! proxy), the request, its status and time, and an `X-Forwarded-For` the
//! server did not use. Whatever came from the client is escaped: `"` and
//! `\` with a backslash, control characters and other bytes outside
//! printable ASCII as `\xHH`, so a line is always one line and its quoted
//! fields always end at their closing quote.

use std::io::Write;
use std::net::SocketAddr;
use std::time::Instant;

use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::Response;

use super::AppState;
use super::client::Client;

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

/// Writes one line to stderr in one piece; a failed write is dropped
/// (there is nowhere left to report it).
pub(crate) fn line(text: &str) {
    let mut l = String::with_capacity(text.len() + 1);
    l.push_str(text);
    l.push('\n');
    let _ = std::io::stderr().lock().write_all(l.as_bytes());
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
    escape_into(
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
        escape_into(&x, &mut text);
        text.push('"');
    }
    line(&text);
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_keeps_a_line_one_line() {
        let mut s = String::new();
        escape_into(b"/a\"b\\c\n\r\t\x1b[31m\x7f\xc3\xa9 ok", &mut s);
        assert_eq!(s, "/a\\\"b\\\\c\\x0a\\x0d\\x09\\x1b[31m\\x7f\\xc3\\xa9 ok");
        assert!(s.bytes().all(|b| (0x20..0x7f).contains(&b)));
        // Every quote in the output is escaped.
        assert!(!s.replace("\\\"", "").contains('"'));
    }
}
