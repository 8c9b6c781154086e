//! The pages only a static export has, in the server's frame
//! ([`crate::html::layout`]): the home page with the word-game lists,
//! the search box's page (`/search/`), the 404 page a CDN shows, the
//! stylesheet, and the script that answers from the index shards.

use crate::html::layout::{self, Frame, Head};

/// The export's script (`/lexq.js`).
pub const SCRIPT: &str = include_str!("lexq.js");

/// Rules of the export's own pages, after the server's style block.
const EXTRA_CSS: &str = "
select { font: inherit; padding: .55rem .6rem; border: 2px solid var(--line); border-radius: 8px;
  background: var(--bg); color: var(--ink); }
#list-form .row { margin-top: .7rem; }
#list-form .row input[type=search] { text-transform: uppercase; }
#list-results { margin-top: 1rem; }
code { background: var(--bg); border: 1px solid var(--line); border-radius: 4px; padding: 0 .25rem; }
";

/// The stylesheet (`/lexq.css`): the server's style block, and the rules
/// of the home page's lists.
pub fn stylesheet() -> String {
    let block = layout::style();
    let css = block
        .strip_prefix("<style>")
        .and_then(|s| s.strip_suffix("</style>"))
        .unwrap_or(block);
    format!("{}\n{EXTRA_CSS}", css.trim())
}

/// The home page (`/`): the search box (the frame's), the word-game
/// lists, and the way to the browse pages, which need no script.
pub fn home(frame: &Frame, words: u64, max_length: usize) -> String {
    let mut lengths = String::new();
    for n in 2..=max_length.max(2) {
        lengths.push_str(&format!("<option value=\"{n}\">{n} letters</option>"));
    }
    let body = format!(
        "<h1>Word finder and dictionary</h1>\
         <p class=\"status\">Type a word in the box above to go to its page (an inflection too: \
         <code>RAN</code>); completions show as you type. \
         <a href=\"/browse\">Browse all {words} words</a> by first letters or by length.</p>\
         <section class=\"card\" id=\"lists\" aria-labelledby=\"lists-title\">\
         <h2 id=\"lists-title\">Word lists</h2>\
         <form id=\"list-form\" action=\"/\" method=\"get\" autocomplete=\"off\">\
         <fieldset class=\"modes\" id=\"modes\"><legend>List</legend>\
         <label><input type=\"radio\" name=\"mode\" value=\"anagram\" checked><span>Anagrams of a rack</span></label>\
         <label><input type=\"radio\" name=\"mode\" value=\"hooks\"><span>Hooks</span></label>\
         <label><input type=\"radio\" name=\"mode\" value=\"pattern\"><span>Pattern</span></label>\
         </fieldset>\
         <div class=\"row\"><label for=\"letters\" class=\"skip\">Letters or a pattern</label>\
         <input type=\"search\" id=\"letters\" name=\"q\" maxlength=\"40\" placeholder=\"Letters: RETAINS, QUIZ??, C?R[AEI]*\">\
         <label for=\"length\" class=\"skip\">Length</label>\
         <select id=\"length\" name=\"length\"><option value=\"\">any length</option>{lengths}</select>\
         <button class=\"go\" type=\"submit\">List</button></div>\
         <p class=\"hint\" id=\"list-hint\"></p>\
         </form>\
         <div id=\"list-results\" aria-live=\"polite\"></div>\
         <noscript><p class=\"none\">The word lists need JavaScript. Word pages and \
         <a href=\"/browse\">the browse pages</a> need none.</p></noscript>\
         </section>\
         <p class=\"status\" id=\"static-note\">This is a static copy of the site: it looks words \
         up by their spelling and lists them from index files. Searching the definitions needs \
         the lexq server (<code>lexq serve</code>).</p>"
    );
    let head = Head {
        title: "lexq · word finder and dictionary",
        description: "Look words up with their definitions, hooks and anagrams; list anagrams of a rack, hooks and words by pattern.",
        canonical: Some("/"),
    };
    layout::page(frame, &head, "", &body)
}

/// The search box's page (`/search/?q=`): the script looks the text up
/// and goes to the word's page, or says why not. Not indexed.
pub fn search(frame: &Frame) -> String {
    let body = "<div id=\"lookup\"><noscript><p class=\"error\">Looking a word up on this \
         static copy needs JavaScript. Word pages need none: \
         <a href=\"/browse\">browse the words</a>.</p></noscript></div>";
    let head = Head {
        title: "Look up · lexq",
        description: "Look a word up.",
        canonical: None,
    };
    layout::page(frame, &head, "", body)
}

/// The page a CDN shows for an address that is no file (`/404.html`).
pub fn not_found(frame: &Frame) -> String {
    let head = Head {
        title: "No such page · lexq",
        description: "No such page",
        canonical: None,
    };
    layout::page(
        frame,
        &head,
        "",
        "<p class=\"error\">No such page. <a href=\"/browse\">Browse the words</a>.</p>",
    )
}
