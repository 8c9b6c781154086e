//! The word page as HTML (`/word/{word}`): everything the search page's
//! word view shows, readable with no JavaScript: the word's facts, its
//! senses grouped by base form and part of speech with their examples,
//! and links to its hooks, anagrams, base and inflected forms and
//! synonyms (only to words of the lexicon: every link is a page). The
//! page of a word that is not in the lexicon says so, with the words
//! nearest it.

use std::fmt::Write;

use super::escape::{Html, clip, word_path};
use super::layout::{self, Frame, Head};
use crate::entry::Entry;
use crate::page::{Page, PageSense};

/// The most bytes of the meta description.
const DESCRIPTION_BYTES: usize = 155;

/// What a word page is made from.
pub struct WordView<'a> {
    /// The lexicon's facts of the word (hooks, anagrams, points).
    pub entry: &'a Entry,
    /// The site's page of the word, if a site is served and has it.
    pub page: Option<&'a Page>,
    /// Whether a site (definitions) is served at all.
    pub definitions_loaded: bool,
    /// The words of the lexicon whose base forms include this word.
    pub inflections: &'a [String],
    /// Whether a word is in the lexicon (a link is made only to one).
    pub is_word: &'a dyn Fn(&str) -> bool,
}

/// A link to `word`'s page, its text the word uppercase.
fn link(out: &mut String, word: &str) {
    let upper = word.to_uppercase();
    let _ = write!(
        out,
        "<a href=\"{}\">{}</a>",
        Html(&word_path(word)),
        Html(&upper)
    );
}

/// A list of links to words' pages (`ul.words`), or "None".
fn word_list<'w>(out: &mut String, id: &str, words: impl Iterator<Item = &'w str>) {
    let mut any = false;
    for w in words {
        if !any {
            let _ = write!(out, "<ul class=\"words\" id=\"{id}\">");
            any = true;
        }
        out.push_str("<li>");
        link(out, w);
        out.push_str("</li>");
    }
    if any {
        out.push_str("</ul>");
    } else {
        let _ = write!(out, "<p class=\"none\" id=\"{id}\">None</p>");
    }
}

/// The part of speech's name, as the API spells it.
fn pos_name(s: &PageSense<'_>) -> String {
    s.pos
        .and_then(|p| serde_json::to_value(p).ok())
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| "definition".to_string())
}

/// The order of parts of speech on a page.
fn pos_rank(name: &str) -> usize {
    ["noun", "verb", "adjective", "adverb"]
        .iter()
        .position(|p| *p == name)
        .unwrap_or(4)
}

/// The senses, grouped by base form (the word's own first), then by
/// whether WordNet has the word only capitalised in them (those after the
/// others: `Allium`, a genus), then by part of speech, in the order the
/// page holds them within a group.
fn senses(out: &mut String, view: &WordView<'_>, page: &Page) {
    type Group<'p> = (Option<&'p str>, Option<&'p str>, String, Vec<PageSense<'p>>);
    let mut groups: Vec<Group<'_>> = Vec::new();
    for s in page.senses() {
        let pos = pos_name(&s);
        match groups
            .iter_mut()
            .find(|(b, c, p, _)| *b == s.base_form && *c == s.capitalised && *p == pos)
        {
            Some(g) => g.3.push(s),
            None => groups.push((s.base_form, s.capitalised, pos, vec![s])),
        }
    }
    groups.sort_by_key(|(base, cap, pos, _)| (base.is_some(), cap.is_some(), pos_rank(pos)));
    for (base, cap, pos, list) in &groups {
        out.push_str("<div class=\"pos\"><h4>");
        if let Some(b) = base {
            out.push_str("<span class=\"infl\">inflection of ");
            if (view.is_word)(b) {
                link(out, b);
            } else {
                let _ = write!(out, "{}", Html(b));
            }
            out.push_str("</span>");
        }
        let _ = write!(out, "{}", Html(pos));
        if let Some(c) = cap {
            let _ = write!(
                out,
                " <span class=\"cap\">as <i>{}</i>, capitalised</span>",
                Html(c)
            );
        }
        out.push_str("</h4><ol class=\"senses\">");
        for s in list {
            let _ = write!(out, "<li>{}", Html(s.definition));
            for u in s.relations.usage {
                let _ = write!(out, " <span class=\"usage\">({})</span>", Html(u));
            }
            if s.relations.offensive {
                out.push_str(" <span class=\"offensive\">offensive</span>");
            }
            let mut examples = s.examples.peekable();
            if examples.peek().is_some() {
                out.push_str("<div class=\"ex\">");
                for (i, e) in examples.enumerate() {
                    if i > 0 {
                        out.push_str(" · ");
                    }
                    let _ = write!(out, "“{}”", Html(e));
                }
                out.push_str("</div>");
            }
            let r = &s.relations;
            related(out, view, "syn", "also", s.synonyms);
            related(out, view, "ant", "opposite", r.antonyms);
            related(out, view, "hyper", "a kind of", r.kind_of);
            related(out, view, "hypo", "kinds", r.kinds);
            related(out, view, "der", "related forms", r.derived);
            out.push_str("</li>");
        }
        out.push_str("</ol></div>");
    }
}

/// A line of related words (`div.{class}`: "{label}: ..."), each a link
/// if it is a word of the lexicon; nothing if there are none.
fn related<'w>(
    out: &mut String,
    view: &WordView<'_>,
    class: &str,
    label: &str,
    words: impl Iterator<Item = &'w str>,
) {
    let mut any = false;
    for w in words {
        if any {
            out.push_str(", ");
        } else {
            let _ = write!(out, "<div class=\"{class}\">{label}: ");
            any = true;
        }
        if (view.is_word)(w) {
            link(out, w);
        } else {
            let _ = write!(out, "{}", Html(w));
        }
    }
    if any {
        out.push_str("</div>");
    }
}

/// The hook line: front hooks, the word, back hooks, each hook a link.
fn hooks(out: &mut String, e: &Entry) {
    out.push_str("<div class=\"hooks\" id=\"hooks\"><span>");
    let letters = |s: &str| s.chars().map(|c| c.to_string()).collect::<Vec<_>>();
    let front = letters(&e.front_hooks);
    for l in &front {
        let w = format!("{l}{}", e.word);
        let _ = write!(
            out,
            "<a href=\"{}\" title=\"{}\">{}</a>",
            Html(&word_path(&w)),
            Html(&w),
            Html(l)
        );
    }
    if front.is_empty() {
        out.push('·');
    }
    let _ = write!(
        out,
        "</span><span class=\"base\">{}</span><span>",
        Html(&e.word)
    );
    let back = letters(&e.back_hooks);
    for l in &back {
        let w = format!("{}{l}", e.word);
        let _ = write!(
            out,
            "<a href=\"{}\" title=\"{}\">{}</a>",
            Html(&word_path(&w)),
            Html(&w),
            Html(l)
        );
    }
    if back.is_empty() {
        out.push('·');
    }
    out.push_str("</span></div>");
}

/// The meta description: the word and its first sense.
fn description(e: &Entry, page: Option<&Page>) -> String {
    let first = page.and_then(|p| p.senses().next());
    let text = match first {
        Some(s) => match s.pos {
            Some(_) => format!("{} ({}): {}", e.word, pos_name(&s), s.definition),
            None => format!("{}: {}", e.word, s.definition),
        },
        None => format!(
            "{}: a valid word of {} letters, {} points. Hooks, anagrams and more.",
            e.word, e.length, e.points
        ),
    };
    clip(&text, DESCRIPTION_BYTES)
}

/// The page of a word of the lexicon.
pub fn render(frame: &Frame, view: &WordView<'_>) -> String {
    let e = view.entry;
    let path = word_path(&e.word);
    let title = format!("{} · meaning, anagrams and hooks · lexq", e.word);
    let desc = description(e, view.page);
    let mut body = String::with_capacity(8192);
    body.push_str("<article class=\"card\" id=\"word-page\" aria-labelledby=\"word-title\">");
    let _ = write!(
        body,
        "<div class=\"wordhead\"><h1 id=\"word-title\">{}</h1>\
         <span class=\"badge ok\" id=\"validity\">Valid word</span></div>",
        Html(&e.word)
    );
    let _ = write!(
        body,
        "<p class=\"facts\"><b>{}</b> letters · <b>{}</b> points · alphagram <b>{}</b></p>",
        e.length,
        e.points,
        Html(&e.alphagram)
    );
    if let Some(page) = view.page {
        let bases: Vec<&str> = page.base_forms().collect();
        if !bases.is_empty() {
            body.push_str("<p class=\"facts\" id=\"base-forms\">Inflection of ");
            for (i, b) in bases.iter().enumerate() {
                if i > 0 {
                    body.push_str(", ");
                }
                if (view.is_word)(b) {
                    link(&mut body, b);
                } else {
                    let _ = write!(body, "{}", Html(b));
                }
            }
            body.push_str("</p>");
        }
    }
    body.push_str("<h3>Definitions</h3><div id=\"senses\">");
    match view.page {
        Some(page) if page.sense_count() > 0 => senses(&mut body, view, page),
        _ if view.definitions_loaded => {
            body.push_str("<p class=\"none\">No definition on file.</p>")
        }
        _ => body.push_str("<p class=\"none\">Definitions are not loaded on this server.</p>"),
    }
    body.push_str("</div><div class=\"cols\"><div><h3>Hooks</h3>");
    hooks(&mut body, e);
    body.push_str("</div><div><h3>Anagrams</h3>");
    word_list(&mut body, "anagrams", e.anagrams.iter().map(String::as_str));
    body.push_str("</div></div>");
    if !view.inflections.is_empty() {
        body.push_str("<h3>Inflected forms</h3>");
        word_list(
            &mut body,
            "inflections",
            view.inflections.iter().map(String::as_str),
        );
    }
    body.push_str("</article>");
    let head = Head {
        title: &title,
        description: &desc,
        canonical: Some(&path),
    };
    layout::page(frame, &head, "", &body)
}

/// The page of a word that is not in the lexicon: says so, and offers
/// `near` (words of the lexicon), nearest first.
pub fn not_found(frame: &Frame, word: &str, near: &[String]) -> String {
    let upper = word.to_uppercase();
    let title = format!("{upper} is not in the word list · lexq");
    let mut body = String::new();
    let _ = write!(
        body,
        "<article class=\"card\" id=\"word-page\"><div class=\"wordhead\"><h1 id=\"word-title\">{}</h1>\
         <span class=\"badge no\" id=\"validity\">Not in the word list</span></div>",
        Html(&upper)
    );
    super::results::did_you_mean(&mut body, near);
    body.push_str("</article>");
    let head = Head {
        title: &title,
        description: &title,
        canonical: None,
    };
    layout::page(frame, &head, word, &body)
}
