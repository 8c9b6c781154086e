//! How the server treats connections and clients: timeouts, connection
//! caps, the proxy it trusts, CORS, caching and the drain at shutdown.

use std::net::IpAddr;
use std::time::Duration;

use axum::http::HeaderValue;

/// The connection policy of a server (what [`super::Limits`] is to a
/// request's query, this is to the connection and the client behind it).
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// How long a client may take to send a request's head (counted from
    /// the connection's opening or its previous answer, so also how long
    /// an idle keep-alive connection stays open), to send its body, and to
    /// take the bytes of an answer. A client slower than this is cut off.
    pub client_timeout: Duration,
    /// Connections open at once. At the cap a new connection takes the
    /// place of the one waiting longest for a request; with every one
    /// being answered, the server stops accepting until one closes.
    /// `None`: 1024, or fewer if the open-file limit leaves less room.
    pub max_connections: Option<usize>,
    /// Connections one client address may hold open; more are refused
    /// (429). A trusted proxy's own connections are not capped.
    pub max_client_connections: usize,
    /// Peers whose `X-Forwarded-For` header names the client (a reverse
    /// proxy in front of the server). From any other peer the header is
    /// ignored.
    pub trust_proxy: Vec<IpAddr>,
    /// Which other sites' pages may read the API from a browser.
    pub cors: Cors,
    /// How long caches may keep an answer (`Cache-Control: max-age`);
    /// they revalidate it with its `ETag` afterwards.
    pub max_age: Duration,
    /// At shutdown, how long open requests may take to finish.
    pub drain: Duration,
}

impl Default for ServeOptions {
    fn default() -> ServeOptions {
        ServeOptions {
            client_timeout: Duration::from_secs(10),
            max_connections: None,
            max_client_connections: 64,
            trust_proxy: Vec::new(),
            cors: Cors::Off,
            max_age: Duration::from_secs(600),
            drain: Duration::from_secs(5),
        }
    }
}

/// Cross-origin reads of the API from browsers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Cors {
    /// No CORS headers: browsers keep other sites' pages from reading
    /// answers.
    #[default]
    Off,
    /// Any site (`--cors '*'`).
    Any,
    /// These origins (`https://example.org`, scheme, host and port only).
    Origins(Vec<HeaderValue>),
}

impl Cors {
    /// The policy of the origins given (`*` for any); an error names a
    /// value that is not an origin.
    pub fn parse<S: AsRef<str>>(origins: &[S]) -> Result<Cors, String> {
        let mut list = Vec::new();
        for o in origins {
            let o = o.as_ref();
            if o == "*" {
                return Ok(Cors::Any);
            }
            list.push(origin(o).map_err(|why| format!("CORS origin {o:?}: {why}"))?);
        }
        Ok(if list.is_empty() {
            Cors::Off
        } else {
            Cors::Origins(list)
        })
    }
}

/// `scheme://host[:port]` as browsers send it in `Origin`: no path, no
/// trailing slash, no user, lowercase scheme.
fn origin(o: &str) -> Result<HeaderValue, &'static str> {
    let Some((scheme, rest)) = o.split_once("://") else {
        return Err("expected scheme://host[:port], as https://example.org");
    };
    if scheme != "http" && scheme != "https" {
        return Err("the scheme is http or https, in lowercase");
    }
    if rest.is_empty() {
        return Err("no host");
    }
    if rest.contains(['/', '?', '#', '@']) {
        return Err("an origin has no path, query or user (as https://example.org, no trailing /)");
    }
    let ok = rest
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']'));
    if !ok {
        return Err("the host holds a character browsers do not send");
    }
    HeaderValue::from_str(o).map_err(|_| "not a header value")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_checked() {
        assert_eq!(Cors::parse::<&str>(&[]), Ok(Cors::Off));
        assert_eq!(Cors::parse(&["*"]), Ok(Cors::Any));
        assert_eq!(
            Cors::parse(&["https://a.example", "http://localhost:3000"]),
            Ok(Cors::Origins(vec![
                HeaderValue::from_static("https://a.example"),
                HeaderValue::from_static("http://localhost:3000"),
            ]))
        );
        for bad in [
            "a.example",
            "https://a.example/",
            "https://a.example/x",
            "ftp://a.example",
            "HTTPS://a.example",
            "https://",
            "https://u@a.example",
            "https://a example",
            "https://a.example\n",
        ] {
            assert!(Cors::parse(&[bad]).is_err(), "{bad:?}");
        }
    }
}
