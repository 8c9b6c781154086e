//! Browse pages: the lexicon's words by first letters and by length,
//! every page linked from `/browse` (and `/browse` from every page), so
//! that a crawler following links from `/` reaches every word.
//!
//! - `/browse`: the first letters, and the lengths.
//! - `/browse/{prefix}`: the words beginning with the prefix when they
//!   are at most [`MAX_LISTED`]; else the word that is the prefix itself,
//!   if any, and links to the next letter's prefixes, with their counts.
//! - `/browse/length/{n}?page=P`: the words of `n` tiles, [`PER_PAGE`] a
//!   page, with links to the other pages.

use std::fmt::Write;
use std::ops::ControlFlow;

use lexq::Lexicon;

use super::escape::{Html, Url, word_path};
use super::layout::{self, Frame, Head};

/// The most words a prefix's page lists; a prefix with more is split by
/// its next letter.
pub const MAX_LISTED: usize = 500;

/// The words a page of one length lists.
pub const PER_PAGE: usize = 1000;

/// A link to `/browse/{prefix}`.
fn prefix_link(out: &mut String, prefix: &str, count: usize) {
    let _ = write!(
        out,
        "<li><a href=\"/browse/{}\">{}<small>{count}</small></a></li>",
        Url(&prefix.to_lowercase()),
        Html(prefix)
    );
}

/// The words of each length, from 1 tile up.
fn lengths(lex: &Lexicon) -> Vec<(usize, usize)> {
    let mut counts = vec![0usize; lex.max_word_len() + 1];
    lex.for_each_word(1, usize::MAX, |w| {
        counts[w.len()] += 1;
        ControlFlow::Continue(())
    });
    counts
        .into_iter()
        .enumerate()
        .filter(|&(_, n)| n > 0)
        .collect()
}

/// The words that begin with `prefix` (tile codes), grouped by their
/// first `depth` tiles: each group's prefix and count, in order, and the
/// word that is `prefix` itself (a group of its own).
fn groups(lex: &Lexicon, prefix: &[u8]) -> (bool, Vec<(Vec<u8>, usize)>) {
    let depth = prefix.len() + 1;
    let mut itself = false;
    let mut out: Vec<(Vec<u8>, usize)> = Vec::new();
    if prefix.is_empty() {
        lex.for_each_word(1, usize::MAX, |w| {
            match out.last_mut() {
                Some((p, n)) if p[..] == w[..1] => *n += 1,
                _ => out.push((w[..1].to_vec(), 1)),
            }
            ControlFlow::Continue(())
        });
        return (false, out);
    }
    let text = lex.alphabet().decode(prefix);
    if let Ok(words) = lex.starts(&text) {
        for w in words.iter() {
            let codes = w.codes();
            if codes.len() < depth {
                itself = true;
                continue;
            }
            match out.last_mut() {
                Some((p, n)) if p[..] == codes[..depth] => *n += 1,
                _ => out.push((codes[..depth].to_vec(), 1)),
            }
        }
    }
    (itself, out)
}

/// `/browse`: first letters and lengths.
pub fn index(frame: &Frame, lex: &Lexicon) -> String {
    let mut body = String::from(
        "<h1>Browse the words</h1><h3>By first letter</h3><ul class=\"words\" id=\"letters\">",
    );
    let (_, firsts) = groups(lex, &[]);
    for (p, n) in &firsts {
        prefix_link(&mut body, &lex.alphabet().decode(p), *n);
    }
    body.push_str("</ul><h3>By length</h3><ul class=\"words\" id=\"lengths\">");
    for (len, n) in lengths(lex) {
        let _ = write!(
            body,
            "<li><a href=\"/browse/length/{len}\">{len} letters<small>{n}</small></a></li>"
        );
    }
    body.push_str("</ul>");
    let head = Head {
        title: "Browse the words · lexq",
        description: "Every word of the word list, by first letters and by length.",
        canonical: Some("/browse"),
    };
    layout::page(frame, &head, "", &body)
}

/// `/browse/{prefix}`; `None` when no word begins with `prefix` (or it
/// is not spelled in the lexicon's alphabet).
pub fn prefix(frame: &Frame, lex: &Lexicon, prefix: &str) -> Option<String> {
    let codes = lex.alphabet().encode(prefix).ok()?;
    if codes.is_empty() {
        return None;
    }
    let upper = lex.alphabet().decode(&codes);
    let words = lex.starts(&upper).ok()?;
    if words.is_empty() {
        return None;
    }
    let mut body = format!(
        "<p class=\"back\"><a href=\"/browse\">← All letters</a></p><h1>Words beginning with {}</h1>\
         <p class=\"status\" id=\"summary\"><strong>{}</strong> word{}</p>",
        Html(&upper),
        words.len(),
        if words.len() == 1 { "" } else { "s" }
    );
    if words.len() <= MAX_LISTED {
        body.push_str("<ul class=\"words\" id=\"words\">");
        for w in words.iter() {
            let w = w.to_string();
            let _ = write!(
                body,
                "<li><a href=\"{}\">{}</a></li>",
                Html(&word_path(&w)),
                Html(&w)
            );
        }
        body.push_str("</ul>");
    } else {
        let (itself, next) = groups(lex, &codes);
        if itself {
            let _ = write!(
                body,
                "<p id=\"itself\">The word <a href=\"{}\">{}</a></p>",
                Html(&word_path(&upper)),
                Html(&upper)
            );
        }
        body.push_str("<ul class=\"words\" id=\"prefixes\">");
        for (p, n) in &next {
            prefix_link(&mut body, &lex.alphabet().decode(p), *n);
        }
        body.push_str("</ul>");
    }
    let title = format!("Words beginning with {upper} · lexq");
    let path = format!("/browse/{}", Url(&upper.to_lowercase()));
    let head = Head {
        title: &title,
        description: &title,
        canonical: Some(&path),
    };
    Some(layout::page(frame, &head, "", &body))
}

/// `/browse/length/{len}`, page `page` (from 1); `None` when there is no
/// such page.
pub fn length(frame: &Frame, lex: &Lexicon, len: usize, page: usize) -> Option<String> {
    if len == 0 || page == 0 || len > lex.max_word_len() {
        return None;
    }
    let skip = (page - 1).checked_mul(PER_PAGE)?;
    let mut total = 0usize;
    let mut list = String::new();
    lex.for_each_word(len, len, |w| {
        if total >= skip && total < skip + PER_PAGE {
            let w = lex.alphabet().decode(w);
            let _ = write!(
                list,
                "<li><a href=\"{}\">{}</a></li>",
                Html(&word_path(&w)),
                Html(&w)
            );
        }
        total += 1;
        ControlFlow::Continue(())
    });
    if total == 0 || skip >= total {
        return None;
    }
    let pages = total.div_ceil(PER_PAGE);
    let mut body = format!(
        "<p class=\"back\"><a href=\"/browse\">← All lengths</a></p><h1>Words of {len} letters</h1>\
         <p class=\"status\" id=\"summary\"><strong>{total}</strong> words · page {page} of {pages}</p>\
         <ul class=\"words\" id=\"words\">{list}</ul>"
    );
    if pages > 1 {
        body.push_str("<p class=\"status\" id=\"pages\">Pages: ");
        for p in 1..=pages {
            if p == page {
                let _ = write!(body, "<strong>{p}</strong> ");
            } else {
                let _ = write!(body, "<a href=\"{}\">{p}</a> ", length_path(len, p));
            }
        }
        body.push_str("</p>");
    }
    let title = if pages > 1 {
        format!("Words of {len} letters, page {page} · lexq")
    } else {
        format!("Words of {len} letters · lexq")
    };
    let path = length_path(len, page);
    let head = Head {
        title: &title,
        description: &title,
        canonical: Some(&path),
    };
    Some(layout::page(frame, &head, "", &body))
}

/// The path of page `page` of the words of `len` tiles.
pub fn length_path(len: usize, page: usize) -> String {
    if page == 1 {
        format!("/browse/length/{len}")
    } else {
        format!("/browse/length/{len}?page={page}")
    }
}

/// Calls `f` with the path of every prefix page, in the order a crawler
/// from `/browse` comes to them.
pub fn prefixes(lex: &Lexicon, f: &mut dyn FnMut(String)) {
    let (_, firsts) = groups(lex, &[]);
    for (p, n) in firsts {
        walk(lex, &p, n, f);
    }
}

fn walk(lex: &Lexicon, prefix: &[u8], count: usize, f: &mut dyn FnMut(String)) {
    let text = lex.alphabet().decode(prefix).to_lowercase();
    f(format!("/browse/{}", Url(&text)));
    if count > MAX_LISTED {
        let (_, next) = groups(lex, prefix);
        for (p, n) in next {
            walk(lex, &p, n, f);
        }
    }
}
