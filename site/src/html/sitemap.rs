//! `/sitemap.xml` and `/robots.txt`. The sitemap is an index (as the
//! sitemaps protocol has it) of `/sitemaps/{n}.xml`: the first holds the
//! home and browse pages, each after it at most [`PER_SITEMAP`] word
//! pages, in alphabet order. A sitemap's addresses are absolute: the
//! site's base URL before each path.

use std::fmt::Write;
use std::ops::ControlFlow;

use lexq::Lexicon;

use super::browse;
use super::escape::{Html, word_path};
use super::layout::Frame;

/// The most addresses one sitemap holds (the protocol's limit).
pub const PER_SITEMAP: usize = 50_000;

const HEAD: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
const NS: &str = "http://www.sitemaps.org/schemas/sitemap/0.9";

/// How many sitemaps of words `lex` needs.
fn word_sitemaps(lex: &Lexicon) -> usize {
    (lex.word_count() as usize).div_ceil(PER_SITEMAP)
}

/// `/sitemap.xml`: the index of the sitemaps.
pub fn index(frame: &Frame, lex: &Lexicon) -> String {
    let mut out = format!("{HEAD}<sitemapindex xmlns=\"{NS}\">\n");
    for n in 0..=word_sitemaps(lex) {
        let _ = writeln!(
            out,
            "<sitemap><loc>{}</loc></sitemap>",
            Html(&frame.absolute(&format!("/sitemaps/{n}.xml")))
        );
    }
    out.push_str("</sitemapindex>\n");
    out
}

fn url(out: &mut String, frame: &Frame, path: &str) {
    let _ = writeln!(out, "<url><loc>{}</loc></url>", Html(&frame.absolute(path)));
}

/// `/sitemaps/{n}.xml`: 0 the home and browse pages, 1 and on the words;
/// `None` past the last.
pub fn sitemap(frame: &Frame, lex: &Lexicon, n: usize) -> Option<String> {
    if n > word_sitemaps(lex) {
        return None;
    }
    let mut out = format!("{HEAD}<urlset xmlns=\"{NS}\">\n");
    if n == 0 {
        url(&mut out, frame, "/");
        url(&mut out, frame, "/browse");
        let mut pages: Vec<String> = Vec::new();
        let mut prefixes: Vec<String> = Vec::new();
        let mut counts = vec![0usize; lex.max_word_len() + 1];
        lex.for_each_word(1, usize::MAX, |w| {
            counts[w.len()] += 1;
            ControlFlow::Continue(())
        });
        for (len, &c) in counts.iter().enumerate() {
            for p in 1..=c.div_ceil(browse::PER_PAGE) {
                pages.push(browse::length_path(len, p));
            }
        }
        browse::prefixes(lex, &mut |p| prefixes.push(p));
        for p in prefixes.iter().chain(&pages) {
            url(&mut out, frame, p);
        }
    } else {
        let skip = (n - 1) * PER_SITEMAP;
        let mut i = 0usize;
        lex.for_each_word(1, usize::MAX, |w| {
            if i >= skip + PER_SITEMAP {
                return ControlFlow::Break(());
            }
            if i >= skip {
                url(&mut out, frame, &word_path(&lex.alphabet().decode(w)));
            }
            i += 1;
            ControlFlow::Continue(())
        });
    }
    out.push_str("</urlset>\n");
    Some(out)
}

/// `/robots.txt`: everything may be crawled but the API and the search
/// results; the sitemap's address.
pub fn robots(frame: &Frame) -> String {
    format!(
        "User-agent: *\nDisallow: /api/\nDisallow: /search\nAllow: /\n\nSitemap: {}\n",
        frame.absolute("/sitemap.xml")
    )
}
