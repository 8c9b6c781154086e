//! The frame every server-rendered page shares: the head (title, meta
//! description, canonical link), the page's own style block (the same
//! bytes as the search page's, so that the server's one
//! Content-Security-Policy allows it), a search form that works without
//! JavaScript, and the footer's links (browse, licence).

use std::fmt::Write;

use super::escape::Html;

/// What every page of one site shares.
#[derive(Clone, Debug, Default)]
pub struct Frame {
    /// The site's address without a trailing `/` (`https://example.org`),
    /// put before a path in canonical links and the sitemap; empty, links
    /// are relative to the host.
    pub base_url: String,
    /// Whether the definitions come from WordNet (the footer credits it
    /// and links its licence).
    pub wordnet: bool,
}

impl Frame {
    /// `path` (starting with `/`) as an absolute address when the base
    /// URL is known, else as it is.
    pub fn absolute(&self, path: &str) -> String {
        format!("{}{path}", self.base_url)
    }
}

/// A page's head.
#[derive(Clone, Debug, Default)]
pub struct Head<'a> {
    /// The `<title>`.
    pub title: &'a str,
    /// The meta description (plain text; escaped here).
    pub description: &'a str,
    /// The page's own path, for its canonical link; `None` for a page
    /// that search engines should not index (results, errors).
    pub canonical: Option<&'a str>,
}

/// The search page's `<style>` block, whose hash the server's policy
/// allows.
pub(crate) fn style() -> &'static str {
    const PAGE: &str = include_str!("../page.html");
    let page = PAGE;
    let start = page.find("<style>").expect("the page has a style block");
    let end = page[start..].find("</style>").expect("closed") + start + "</style>".len();
    &page[start..end]
}

/// A whole page: `head`, then `body` (HTML, already escaped), in the
/// site's frame; `query` fills the search box.
pub fn page(frame: &Frame, head: &Head<'_>, query: &str, body: &str) -> String {
    let mut out = String::with_capacity(body.len() + 8192);
    let _ = write!(
        out,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<meta name=\"description\" content=\"{}\">\n",
        Html(head.title),
        Html(head.description)
    );
    match head.canonical {
        Some(path) => {
            let _ = writeln!(
                out,
                "<link rel=\"canonical\" href=\"{}\">",
                Html(&frame.absolute(path))
            );
        }
        None => out.push_str("<meta name=\"robots\" content=\"noindex, follow\">\n"),
    }
    out.push_str(style());
    let _ = write!(
        out,
        "\n</head>\n<body>\n<a class=\"skip\" href=\"#results\">Skip to content</a>\n\
         <header class=\"top\"><div class=\"wrap\">\n  <a class=\"brand\" href=\"/\">lexq</a>\
         <span class=\"tag\">word finder &amp; dictionary</span>\n</div></header>\n\
         <div class=\"wrap\">\n<form class=\"search\" role=\"search\" action=\"/search\" method=\"get\">\n\
         <div class=\"row\">\n<label for=\"q\" class=\"skip\">A word, or words to look for in definitions</label>\n\
         <input type=\"search\" id=\"q\" name=\"q\" class=\"plain\" value=\"{}\" placeholder=\"A word, or words of a definition…\" maxlength=\"100\">\n\
         <button class=\"go\" type=\"submit\">Look up</button>\n</div>\n</form>\n\
         <main id=\"results\">\n{body}\n</main>\n<footer><div>\
         <a href=\"/browse\">Browse words</a> · <a href=\"/\">Word finder</a> · <a href=\"/api/v1/info\">JSON API</a>",
        Html(query)
    );
    if frame.wordnet {
        out.push_str(
            " · Definitions from <a href=\"https://wordnet.princeton.edu/\">WordNet</a>, \
             © Princeton University (<a href=\"/licence\">licence</a>)",
        );
    }
    out.push_str("</div></footer>\n</div>\n</body>\n</html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_frame_escapes_and_links() {
        let frame = Frame {
            base_url: "https://example.org".into(),
            wordnet: true,
        };
        let head = Head {
            title: "A <b> & \"c\"",
            description: "d'e",
            canonical: Some("/word/care"),
        };
        let html = page(&frame, &head, "\"><script>", "<p>body</p>");
        assert!(html.contains("<title>A &lt;b&gt; &amp; &quot;c&quot;</title>"));
        assert!(html.contains("content=\"d&#39;e\""));
        assert!(html.contains("<link rel=\"canonical\" href=\"https://example.org/word/care\">"));
        assert!(html.contains("value=\"&quot;&gt;&lt;script&gt;\""));
        assert!(!html.contains("<script"));
        assert!(html.contains("href=\"/licence\""));
        assert_eq!(html.matches("<style>").count(), 1);
        let plain = page(&Frame::default(), &Head::default(), "", "");
        assert!(plain.contains("noindex"));
        assert!(!plain.contains("/licence"));
    }
}
