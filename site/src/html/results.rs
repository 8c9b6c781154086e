//! The results page for people (`/search?q=`): what a look-up that found
//! no word of the lexicon turned to, a definition search, with
//! did-you-mean above it, readable without JavaScript.

use std::fmt::Write;

use super::escape::{Html, Url, word_path};
use super::layout::{self, Frame, Head};
use crate::search::Hit;

/// How a definition search went.
#[derive(Debug, Default)]
pub struct Results {
    /// The text as typed.
    pub query: String,
    /// Whether it was read with the full query language (`syntax=full`).
    pub full_syntax: bool,
    /// The hits shown, best first.
    pub hits: Vec<Hit>,
    /// How many words match in all.
    pub total: usize,
    /// The first hit's rank (paging).
    pub offset: usize,
    /// Hits a page.
    pub limit: usize,
    /// No word matched every term: these match some of them, most first.
    pub relaxed: bool,
    /// Words of the lexicon near the query (did-you-mean), nearest first.
    pub near: Vec<String>,
    /// Why the search was not run (no site served, a query the full
    /// language refuses), said on the page.
    pub problem: Option<String>,
}

/// "Did you mean" and links to `near`'s pages; nothing if `near` is
/// empty.
pub fn did_you_mean(out: &mut String, near: &[String]) {
    if near.is_empty() {
        return;
    }
    out.push_str("<p class=\"status\" id=\"did-you-mean\">Did you mean ");
    for (i, w) in near.iter().enumerate() {
        if i > 0 {
            out.push_str(if i + 1 == near.len() { " or " } else { ", " });
        }
        let _ = write!(
            out,
            "<a href=\"{}\"><strong>{}</strong></a>",
            Html(&word_path(w)),
            Html(&w.to_uppercase())
        );
    }
    out.push_str("?</p>");
}

/// The link to another page of the same search.
fn page_link(r: &Results, offset: usize) -> String {
    let mut href = format!("/search?q={}&amp;offset={offset}", Url(&r.query));
    if r.full_syntax {
        href.push_str("&amp;syntax=full");
    }
    href
}

/// The results page.
pub fn render(frame: &Frame, r: &Results) -> String {
    let mut body = String::with_capacity(4096 + r.hits.len() * 256);
    did_you_mean(&mut body, &r.near);
    if let Some(p) = &r.problem {
        let _ = write!(body, "<p class=\"error\" role=\"alert\">{}</p>", Html(p));
    } else {
        body.push_str("<p class=\"status\" id=\"summary\">");
        if r.relaxed {
            let _ = write!(
                body,
                "No definition holds every word of <strong>{}</strong>; \
                 <strong>{}</strong> word{} match some of them, those matching most first.",
                Html(&r.query),
                r.total,
                if r.total == 1 { "" } else { "s" }
            );
        } else {
            let _ = write!(
                body,
                "<strong>{}</strong> word{} whose definitions match <strong>{}</strong>",
                r.total,
                if r.total == 1 { "" } else { "s" },
                Html(&r.query)
            );
        }
        body.push_str("</p>");
        if r.hits.is_empty() {
            body.push_str("<p class=\"none\">Nothing found.</p>");
        } else {
            let _ = write!(
                body,
                "<ol class=\"hits\" id=\"hits\" start=\"{}\">",
                r.offset + 1
            );
            for h in &r.hits {
                let _ = write!(
                    body,
                    "<li><a class=\"w\" href=\"{}\">{}</a> <small class=\"facts\">{} letters · {} pts</small>\
                     <div class=\"def\">{}</div></li>",
                    Html(&word_path(&h.word)),
                    Html(&h.word),
                    h.length,
                    h.points,
                    Marked(h.definition.as_deref().unwrap_or(""), &h.highlights)
                );
            }
            body.push_str("</ol>");
        }
        let shown = r.offset + r.hits.len();
        if r.offset > 0 || r.total > shown {
            body.push_str("<p class=\"status\" id=\"pages\">");
            if r.offset > 0 {
                let _ = write!(
                    body,
                    "<a rel=\"prev\" href=\"{}\">← Previous</a> ",
                    page_link(r, r.offset.saturating_sub(r.limit))
                );
            }
            if r.total > shown {
                let _ = write!(
                    body,
                    "<a rel=\"next\" href=\"{}\">Next →</a>",
                    page_link(r, shown)
                );
            }
            body.push_str("</p>");
        }
    }
    let title = format!("{} · search · lexq", r.query);
    let head = Head {
        title: &title,
        description: &title,
        canonical: None,
    };
    layout::page(frame, &head, &r.query, &body)
}

/// A definition as HTML with the query's words in `<mark>`: byte ranges
/// of it, in order (see `Hit::highlights`); a range that is not one is
/// left unmarked.
struct Marked<'a>(&'a str, &'a [(usize, usize)]);

impl std::fmt::Display for Marked<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Marked(text, ranges) = *self;
        let mut last = 0;
        for &(a, b) in ranges {
            let (Some(before), Some(word)) = (text.get(last..a), text.get(a..b)) else {
                continue;
            };
            write!(f, "{}<mark>{}</mark>", Html(before), Html(word))?;
            last = b;
        }
        write!(f, "{}", Html(text.get(last..).unwrap_or("")))
    }
}
