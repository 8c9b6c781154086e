//! Escaping for HTML text and attributes, and for a URL's path segment or
//! query value: every string a page shows or links to passes through
//! here.

use std::fmt::{self, Display, Write};

/// `text` escaped for HTML text and quoted attribute values (`&`, `<`,
/// `>`, `"` and `'` as entities).
///
/// ```
/// use lexq_site::html::escape::Html;
/// assert_eq!(Html("<a href=\"x\">&'").to_string(), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Html<'a>(pub &'a str);

impl Display for Html<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0;
        while let Some(i) = rest.find(['&', '<', '>', '"', '\'']) {
            f.write_str(&rest[..i])?;
            f.write_str(match rest.as_bytes()[i] {
                b'&' => "&amp;",
                b'<' => "&lt;",
                b'>' => "&gt;",
                b'"' => "&quot;",
                _ => "&#39;",
            })?;
            rest = &rest[i + 1..];
        }
        f.write_str(rest)
    }
}

/// `text` percent-encoded for a URL's path segment or query value: every
/// byte but ASCII letters, digits and `-._~` as `%XX` (so `/`, `?`, `#`,
/// `&`, `+` and spaces never end or split what they are in).
///
/// ```
/// use lexq_site::html::escape::Url;
/// assert_eq!(Url("café &x/").to_string(), "caf%C3%A9%20%26x%2F");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Url<'a>(pub &'a str);

impl Display for Url<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0.bytes() {
            if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
                f.write_char(b as char)?;
            } else {
                write!(f, "%{b:02X}")?;
            }
        }
        Ok(())
    }
}

/// The path of `word`'s page: `/word/` and the word lowercased, encoded.
pub fn word_path(word: &str) -> String {
    format!("/word/{}", Url(&word.to_lowercase()))
}

/// `text` cut to at most `max` bytes at a character boundary, with `…`
/// when it was cut.
pub fn clip(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", text[..end].trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_and_urls_are_escaped() {
        assert_eq!(Html("plain").to_string(), "plain");
        assert_eq!(
            Html("<script>alert('x')</script>").to_string(),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"
        );
        assert_eq!(Url("a b?c#d").to_string(), "a%20b%3Fc%23d");
        assert_eq!(word_path("ÑANDU"), "/word/%C3%B1andu");
        assert_eq!(clip("abcdef", 3), "abc…");
        assert_eq!(clip("ééé", 3), "é…");
        assert_eq!(clip("ab", 3), "ab");
    }
}
