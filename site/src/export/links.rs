//! The server's addresses as a plain static file server serves them.
//!
//! The pages of a static export are the server's own pages
//! ([`crate::html`]), with their links rewritten here: a page the server
//! answers at `/word/care` is the file `word/care/index.html`, linked as
//! `/word/care/`. Every static server and CDN serves a folder's
//! `index.html` at the folder's address with its trailing `/`, and
//! answers the address without it (the server's `/word/care`) with a
//! redirect there: `python3 -m http.server`, nginx, Apache, S3 websites,
//! GitHub Pages, Netlify, Cloudflare Pages. A query string selects
//! nothing on a static server, so the server's `/browse/length/8?page=2`
//! is `/browse/length/8/2/`.

use std::path::PathBuf;

use crate::build::WORDNET_LICENCE_FILE;
use crate::html::escape::Html;

/// The static address of what the server answers at `path` (a path from
/// `/`, with its query and fragment if any), or `None` for what has no
/// static equivalent (the JSON API).
///
/// ```
/// use lexq_site::export::links::static_path;
/// assert_eq!(static_path("/word/care").as_deref(), Some("/word/care/"));
/// assert_eq!(static_path("/browse/length/8?page=2").as_deref(), Some("/browse/length/8/2/"));
/// assert_eq!(static_path("/browse/length/8?page=1").as_deref(), Some("/browse/length/8/"));
/// assert_eq!(static_path("/search?q=ran").as_deref(), Some("/search/?q=ran"));
/// assert_eq!(static_path("/sitemaps/1.xml").as_deref(), Some("/sitemaps/1.xml"));
/// assert_eq!(static_path("/lexq.css").as_deref(), Some("/lexq.css"));
/// assert_eq!(static_path("/").as_deref(), Some("/"));
/// assert_eq!(static_path("/api/v1/info"), None);
/// ```
pub fn static_path(path: &str) -> Option<String> {
    if !path.starts_with('/') {
        return None;
    }
    let (path, fragment) = match path.split_once('#') {
        Some((p, f)) => (p, Some(f)),
        None => (path, None),
    };
    let (path, query) = match path.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (path, None),
    };
    let mut out = if path == "/" {
        "/".to_string()
    } else if path == "/api" || path.starts_with("/api/") {
        return None;
    } else if path == "/licence" {
        format!("/{WORDNET_LICENCE_FILE}")
    } else if (path.rfind('/') == Some(0) && path.contains('.'))
        || path.starts_with("/sitemaps/")
        || path.starts_with("/idx/")
    {
        // A file: robots.txt, sitemap.xml, lexq.css, a sitemap, a shard.
        path.to_string()
    } else if let Some(len) = path.strip_prefix("/browse/length/") {
        let page = query
            .into_iter()
            .flat_map(|q| q.split('&'))
            .find_map(|kv| kv.strip_prefix("page="))
            .and_then(|p| p.parse::<usize>().ok())
            .unwrap_or(1);
        let p = if page > 1 {
            format!("/browse/length/{len}/{page}/")
        } else {
            format!("/browse/length/{len}/")
        };
        return Some(with_fragment(p, fragment));
    } else {
        format!("{}/", path.trim_end_matches('/'))
    };
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    Some(with_fragment(out, fragment))
}

fn with_fragment(mut path: String, fragment: Option<&str>) -> String {
    if let Some(f) = fragment {
        path.push('#');
        path.push_str(f);
    }
    path
}

/// The file, relative to the export's root, that a static server serves
/// at the static address `path` (its query and fragment ignored): the
/// percent-encoding decoded, `index.html` for a folder's address. `None`
/// for an address that is no file of the export (`..`, an empty or
/// undecodable segment).
///
/// ```
/// use std::path::PathBuf;
/// use lexq_site::export::links::file_of;
/// assert_eq!(file_of("/word/care/"), Some(PathBuf::from("word/care/index.html")));
/// assert_eq!(file_of("/word/%C3%B1andu/"), Some(PathBuf::from("word/ñandu/index.html")));
/// assert_eq!(file_of("/"), Some(PathBuf::from("index.html")));
/// assert_eq!(file_of("/robots.txt"), Some(PathBuf::from("robots.txt")));
/// assert_eq!(file_of("/word/../x/"), None);
/// ```
pub fn file_of(path: &str) -> Option<PathBuf> {
    let path = path.split(['?', '#']).next()?;
    let rest = path.strip_prefix('/')?;
    let mut out = PathBuf::new();
    let (dirs, file) = match rest.rsplit_once('/') {
        Some((d, f)) => (Some(d), f),
        None => (None, rest),
    };
    for seg in dirs.into_iter().flat_map(|d| d.split('/')) {
        out.push(decode(seg)?);
    }
    if file.is_empty() {
        out.push("index.html");
    } else {
        out.push(decode(file)?);
    }
    Some(out)
}

/// One segment of a path, percent-decoded; `None` for `.`, `..`, an
/// empty one, or one that does not decode to UTF-8 without `/` or NUL.
pub(crate) fn decode(raw: &str) -> Option<String> {
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    let s = String::from_utf8(out).ok()?;
    if s.is_empty() || s == "." || s == ".." || s.contains(['/', '\\', '\0']) {
        return None;
    }
    Some(s)
}

/// `&amp;` and the other entities [`Html`] writes, read back.
fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The static address of a link's target as a page writes it (escaped
/// for HTML): a path from `/`, or `base_url` and a path; anything else
/// (another site, `#skip`) as it is.
fn rewrite_target(escaped: &str, base_url: &str) -> String {
    let raw = unescape(escaped);
    let (prefix, path) = match raw.strip_prefix(base_url) {
        Some(rest) if !base_url.is_empty() && rest.starts_with('/') => (base_url, rest),
        _ if raw.starts_with('/') => ("", raw.as_str()),
        _ => return escaped.to_string(),
    };
    match static_path(path) {
        Some(p) => Html(&format!("{prefix}{p}")).to_string(),
        None => escaped.to_string(),
    }
}

/// Rewrites every `attr="…"` of `html` by [`rewrite_target`].
fn rewrite_attr(html: &str, attr: &str, base_url: &str) -> String {
    let open = format!("{attr}=\"");
    let mut out = String::with_capacity(html.len() + 1024);
    let mut rest = html;
    while let Some(i) = rest.find(&open) {
        let start = i + open.len();
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let Some(end) = rest.find('"') else {
            break;
        };
        out.push_str(&rewrite_target(&rest[..end], base_url));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The link to the JSON API in every page's footer, which a static copy
/// has not.
const API_LINK: &str = " · <a href=\"/api/v1/info\">JSON API</a>";

/// A page the server renders, as the export writes it: its links and
/// its search form's action static addresses ([`static_path`]), the
/// footer's link to the JSON API gone, the style block a link to the
/// export's stylesheet `/lexq.css`, and the export's script `/lexq.js`
/// (completions as a visitor types; the look-up) loaded, deferred.
pub fn static_page(html: &str, base_url: &str) -> String {
    let mut page = html.replacen(API_LINK, "", 1);
    if let Some(start) = page.find("<style>")
        && let Some(len) = page[start..].find("</style>")
    {
        page.replace_range(
            start..start + len + "</style>".len(),
            "<link rel=\"stylesheet\" href=\"/lexq.css\">\n<script src=\"/lexq.js\" defer></script>",
        );
    }
    let page = rewrite_attr(&page, "href", base_url);
    rewrite_attr(&page, "action", base_url)
}

/// A sitemap or sitemap index the server renders, its addresses static
/// ones.
pub fn static_sitemap(xml: &str, base_url: &str) -> String {
    let mut out = String::with_capacity(xml.len() + 4096);
    let mut rest = xml;
    while let Some(i) = rest.find("<loc>") {
        let start = i + "<loc>".len();
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let Some(end) = rest.find("</loc>") else {
            break;
        };
        out.push_str(&rewrite_target(&rest[..end], base_url));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_become_folders_and_the_api_goes() {
        let html = "<head><style>a{}</style></head><body>\
            <a href=\"/word/care\">C</a><a href=\"/browse/length/8?page=3\">3</a>\
            <a href=\"#results\">skip</a><a href=\"https://wordnet.princeton.edu/\">W</a>\
            <link rel=\"canonical\" href=\"https://example.org/word/care\">\
            <form action=\"/search\"></form><a href=\"/licence\">l</a>\
            <a href=\"/search?q=x&amp;offset=20\">n</a>\
            <a href=\"/browse\">Browse words</a> · <a href=\"/api/v1/info\">JSON API</a></body>";
        let out = static_page(html, "https://example.org");
        assert!(out.contains("href=\"/word/care/\""), "{out}");
        assert!(out.contains("href=\"/browse/length/8/3/\""));
        assert!(out.contains("href=\"#results\""));
        assert!(out.contains("href=\"https://wordnet.princeton.edu/\""));
        assert!(out.contains("href=\"https://example.org/word/care/\""));
        assert!(out.contains("action=\"/search/\""));
        assert!(out.contains("href=\"/WORDNET-LICENSE.txt\""));
        assert!(out.contains("href=\"/search/?q=x&amp;offset=20\""));
        assert!(!out.contains("/api/"));
        assert!(!out.contains("<style>"));
        assert!(out.contains("<link rel=\"stylesheet\" href=\"/lexq.css\">"));
        let xml = "<url><loc>https://example.org/word/care</loc></url>\
                   <url><loc>https://example.org/sitemaps/1.xml</loc></url>";
        assert_eq!(
            static_sitemap(xml, "https://example.org"),
            "<url><loc>https://example.org/word/care/</loc></url>\
             <url><loc>https://example.org/sitemaps/1.xml</loc></url>"
        );
    }

    #[test]
    fn only_files_of_the_export_are_named() {
        for bad in [
            "word/x/",
            "/word/%2F/",
            "/word/%ZZ/",
            "/a//b/",
            "/%FF/",
            "/./",
        ] {
            assert_eq!(file_of(bad), None, "{bad}");
        }
    }
}
