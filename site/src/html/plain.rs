//! The search box's text read as words, never as a syntax error: what
//! people type (`don't`, `one's feet`, `"small dog`, `dog)`, `AND`,
//! `salt AND pepper`, `care && race`, `what is a noun?`) becomes a query
//! of the full language ([`crate::Site::search`]) that means "these
//! words". Quotes, brackets, operators and punctuation are dropped; a
//! word holding an apostrophe or a hyphen is a phrase of its parts, as
//! the definitions' tokenizer splits it; `AND`, `OR` and `NOT` are
//! dropped beside other words, and a word of their own alone. A word
//! that asks for a relation (`synonym:happy`, `antonym:good`,
//! `kind_of:dog`) searches its field. The full
//! language stays on the API's `q=` and on `/search?syntax=full`.

/// The most words of the text that are searched.
pub const MAX_WORDS: usize = 12;

/// Words too common to narrow a search that asks for any of the words.
const COMMON: [&str; 34] = [
    "a", "an", "and", "are", "as", "at", "be", "by", "do", "for", "from", "how", "i", "in", "is",
    "it", "its", "me", "my", "not", "of", "on", "or", "that", "the", "this", "to", "was", "what",
    "when", "where", "which", "who", "why",
];

/// The words of `text`, lowercased, each a term (`feet`) or a quoted
/// phrase (`"one's"`), at most [`MAX_WORDS`].
pub fn words(text: &str) -> Vec<String> {
    let mut raw: Vec<String> = Vec::new();
    for chunk in text.split_whitespace() {
        if let Some(asked) = relation(chunk) {
            raw.push(asked);
            continue;
        }
        // Letters and digits, and an apostrophe or hyphen between them.
        let chars: Vec<char> = chunk.chars().collect();
        let mut word = String::new();
        for (i, &c) in chars.iter().enumerate() {
            let joins = matches!(c, '\'' | '’' | '-')
                && i > 0
                && chars[i - 1].is_alphanumeric()
                && chars.get(i + 1).is_some_and(|n| n.is_alphanumeric());
            if c.is_alphanumeric() || joins {
                word.push(if c == '’' { '\'' } else { c });
            } else if !word.is_empty() {
                raw.push(std::mem::take(&mut word));
            }
        }
        if !word.is_empty() {
            raw.push(word);
        }
    }
    let operator = |w: &str| matches!(w, "AND" | "OR" | "NOT");
    let keep_operators = raw.iter().all(|w| operator(w));
    raw.into_iter()
        .filter(|w| keep_operators || !operator(w))
        .take(MAX_WORDS)
        .map(|w| {
            let w = w.to_lowercase();
            if w.contains(':') {
                w // a relation, already a query
            } else if w.contains(['\'', '-']) {
                format!("\"{w}\"")
            } else {
                w
            }
        })
        .collect()
}

/// What a word of the box may begin with to ask for a relation, and the
/// field that holds it.
const RELATIONS: [(&str, &str); 8] = [
    ("synonym", "synonym"),
    ("synonyms", "synonym"),
    ("antonym", "antonym"),
    ("antonyms", "antonym"),
    ("opposite", "antonym"),
    ("kind_of", "kind_of"),
    ("kind-of", "kind_of"),
    ("kindof", "kind_of"),
];

/// A word of the box that asks for a relation (`synonym:happy`,
/// `Antonym:Good`, `kind-of:dog`) as the query of its field, the word
/// quoted (`synonym:"happy"`); `None` for any other word.
fn relation(chunk: &str) -> Option<String> {
    let (name, word) = chunk.split_once(':')?;
    let field = RELATIONS
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))?
        .1;
    let word: String = word
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '\'' | '-'))
        .collect();
    let word = word.trim_matches(['\'', '-']);
    (!word.is_empty()).then(|| format!("{field}:\"{}\"", word.to_lowercase()))
}

/// The query that requires every word of `text`; `None` if it has none.
pub fn every_word(text: &str) -> Option<String> {
    let w = words(text);
    (!w.is_empty()).then(|| w.join(" "))
}

/// The query that asks for any word of `text` (its common words left
/// out when others remain), ranked by how many match and how rare they
/// are; `None` if it has fewer than two words (no other query than
/// [`every_word`]'s).
pub fn any_word(text: &str) -> Option<String> {
    let w = words(text);
    if w.len() < 2 {
        return None;
    }
    let rare: Vec<&String> = w.iter().filter(|w| !COMMON.contains(&w.as_str())).collect();
    let list: Vec<&String> = if rare.is_empty() {
        w.iter().collect()
    } else {
        rare
    };
    if list.len() < 2 {
        // One rare word: every_word's query without the common ones.
        return list.first().map(|w| w.to_string());
    }
    Some(
        list.iter()
            .map(|w| w.as_str())
            .collect::<Vec<_>>()
            .join(" OR "),
    )
}

/// `word` with the accents of Latin letters taken off by tantivy's
/// ASCII folding, the definitions' own (`café` is `cafe`, `naïve`
/// `naive`, `Œuvre` `OEuvre`), for a look-up in a lexicon whose alphabet
/// has no such letters; `None` if nothing changed.
pub fn fold(word: &str) -> Option<String> {
    use tantivy::tokenizer::{AsciiFoldingFilter, RawTokenizer, TextAnalyzer};
    let mut folded = String::new();
    TextAnalyzer::builder(RawTokenizer::default())
        .filter(AsciiFoldingFilter)
        .build()
        .token_stream(word)
        .process(&mut |t| folded.clone_from(&t.text));
    (!folded.is_empty() && folded != word).then_some(folded)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_people_type_is_words() {
        let cases: [(&str, &str); 13] = [
            ("synonym:happy", "synonym:\"happy\""),
            ("Antonym:Good!", "antonym:\"good\""),
            ("small kind-of:dog", "small kind_of:\"dog\""),
            ("don't", "\"don't\""),
            ("one's feet", "\"one's\" feet"),
            ("\"small dog", "small dog"),
            ("dog)", "dog"),
            ("AND", "and"),
            ("salt AND pepper", "salt pepper"),
            ("care && race", "care race"),
            ("what is a noun?", "what is a noun"),
            ("Café naïve", "café naïve"),
            ("x:y -z* (w) [1 TO 2] /re/ ~2 ^3", "x y z w 1 to 2 re 2 3"),
        ];
        for (typed, query) in cases {
            assert_eq!(every_word(typed).as_deref(), Some(query), "{typed}");
        }
        assert_eq!(every_word("?! && ||"), None);
        assert_eq!(
            any_word("what is a noun?").as_deref(),
            Some("noun"),
            "one rare word"
        );
        assert_eq!(
            any_word("tool for cutting wood").as_deref(),
            Some("tool OR cutting OR wood")
        );
        assert_eq!(any_word("is a").as_deref(), Some("is OR a"));
        assert_eq!(any_word("dog"), None);
        assert_eq!(words(&"w ".repeat(100)).len(), MAX_WORDS);
        assert_eq!(fold("café").as_deref(), Some("cafe"));
        assert_eq!(fold("NAÏVE").as_deref(), Some("NAIVE"));
        assert_eq!(fold("Œuvre").as_deref(), Some("OEuvre"));
        assert_eq!(fold("résumé").as_deref(), Some("resume"));
        assert_eq!(fold("care"), None);
    }
}
