//! The index shards under `idx/` that the export's script (`lexq.js`)
//! fetches as a visitor asks, so that a static server answers look-ups,
//! completions and the word-game lists:
//!
//! - `idx/meta.json`: `{"format", "words", "max_length", "lengths":
//!   {"n": count}, "first": {"c": [completions of c]}}`;
//! - `idx/p/{xy}.json`: the words beginning with the letters `xy` (a
//!   word of one letter: `x`), in the word list's order, the base
//!   forms (words of the list) of those that are inflections, and those
//!   of them the site knows a frequency of, most common first:
//!   `{"words": [...], "bases": {"RAN": ["RUN"]}, "common": [...]}`;
//! - `idx/len/{n}.json`: the words of `n` letters, in order.
//!
//! Words are uppercase, as the lexicon spells them; lengths count
//! letters (Unicode scalar values), as the script does.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

/// The most completions of a first letter kept (the server's most).
pub const FIRST_COMPLETIONS: usize = 50;

/// The files of the index: each path under `idx/` and its JSON.
pub struct Shards {
    /// `(path under idx/, bytes)`, in order.
    pub files: Vec<(String, Vec<u8>)>,
}

#[derive(Serialize)]
struct Meta<'a> {
    format: u32,
    words: usize,
    max_length: usize,
    lengths: BTreeMap<usize, usize>,
    first: &'a BTreeMap<String, Vec<String>>,
}

#[derive(Serialize, Default)]
struct Prefix<'a> {
    words: Vec<&'a str>,
    bases: BTreeMap<&'a str, &'a [String]>,
    /// The words with a frequency, most common first (alphabet order
    /// among equals), as the server's completions rank them.
    common: Vec<&'a str>,
}

/// Sorts `words` most common first by `frequency` (alphabet order among
/// equals) and keeps those with one.
fn by_frequency<'a>(words: &mut Vec<&'a str>, frequency: &dyn Fn(&str) -> u64) {
    words.retain(|w| frequency(w) > 0);
    words.sort_by(|a, b| frequency(b).cmp(&frequency(a)).then(a.cmp(b)));
}

/// The name of the shard a word or typed prefix is in: its first two
/// letters, lowercase (one for a word of one letter).
///
/// ```
/// assert_eq!(lexq_site::export::shards::shard_name("CARE"), "ca");
/// assert_eq!(lexq_site::export::shards::shard_name("ÑU"), "ñu");
/// ```
pub fn shard_name(word: &str) -> String {
    word.chars().take(2).collect::<String>().to_lowercase()
}

/// The completions of a one-letter prefix, as the server's
/// `/api/v1/complete` orders them: the letter if it is a word, the base
/// forms it is an inflection of, the words it begins that have a
/// frequency, most common first, then the others, shortest first (the
/// list's order within a length).
fn first_completions(
    letter: &str,
    words: &[&str],
    bases: &HashMap<String, Vec<String>>,
    frequency: &dyn Fn(&str) -> u64,
) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    if words.contains(&letter) {
        out.push(letter.to_string());
        for b in bases.get(letter).into_iter().flatten() {
            if !out.contains(b) {
                out.push(b.clone());
            }
        }
    }
    let mut common: Vec<&str> = words.iter().copied().filter(|w| *w != letter).collect();
    by_frequency(&mut common, frequency);
    let mut rest: Vec<&str> = words.iter().copied().filter(|w| *w != letter).collect();
    rest.sort_by_key(|w| w.chars().count());
    for w in common.into_iter().chain(rest) {
        if out.len() >= FIRST_COMPLETIONS {
            break;
        }
        if !out.iter().any(|o| o == w) {
            out.push(w.to_string());
        }
    }
    out.truncate(FIRST_COMPLETIONS);
    out
}

fn json<T: Serialize>(value: &T) -> Vec<u8> {
    // Strings and maps of strings: serialising cannot fail.
    serde_json::to_vec(value).unwrap_or_default()
}

/// The shards of `words` (the lexicon's, in its order), with `bases`:
/// each inflection's base forms that are words of the list, and
/// `frequency`: how common each word is (0: unknown).
pub fn shards(
    words: &[String],
    bases: &HashMap<String, Vec<String>>,
    frequency: &dyn Fn(&str) -> u64,
) -> Shards {
    let mut by_prefix: BTreeMap<String, Prefix<'_>> = BTreeMap::new();
    let mut by_length: BTreeMap<usize, Vec<&str>> = BTreeMap::new();
    let mut by_first: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for w in words {
        let p = by_prefix.entry(shard_name(w)).or_default();
        p.words.push(w);
        if let Some(b) = bases.get(w) {
            p.bases.insert(w, b);
        }
        by_length.entry(w.chars().count()).or_default().push(w);
        let first: String = w.chars().take(1).collect();
        by_first.entry(first).or_default().push(w);
    }
    let first: BTreeMap<String, Vec<String>> = by_first
        .iter()
        .map(|(l, ws)| (l.to_lowercase(), first_completions(l, ws, bases, frequency)))
        .collect();
    for p in by_prefix.values_mut() {
        p.common = p.words.clone();
        by_frequency(&mut p.common, frequency);
    }
    let meta = Meta {
        format: 1,
        words: words.len(),
        max_length: by_length.keys().next_back().copied().unwrap_or(0),
        lengths: by_length.iter().map(|(n, w)| (*n, w.len())).collect(),
        first: &first,
    };
    let mut files = vec![("meta.json".to_string(), json(&meta))];
    for (name, p) in &by_prefix {
        files.push((format!("p/{name}.json"), json(p)));
    }
    for (n, ws) in &by_length {
        files.push((format!("len/{n}.json"), json(ws)));
    }
    Shards { files }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_hold_each_word_once_by_prefix_and_by_length() {
        let words: Vec<String> = ["A", "AB", "ABA", "ABS", "B", "RAN", "RUN"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let bases = HashMap::from([("RAN".to_string(), vec!["RUN".to_string()])]);
        let frequency = |w: &str| match w {
            "ABS" => 9,
            "ABA" | "B" => 2,
            _ => 0,
        };
        let s = shards(&words, &bases, &frequency);
        let get = |name: &str| -> serde_json::Value {
            let (_, b) = s.files.iter().find(|(n, _)| n == name).unwrap();
            serde_json::from_slice(b).unwrap()
        };
        assert_eq!(
            get("p/ab.json")["words"],
            serde_json::json!(["AB", "ABA", "ABS"])
        );
        assert_eq!(
            get("p/ab.json")["common"],
            serde_json::json!(["ABS", "ABA"])
        );
        assert_eq!(get("p/a.json")["words"], serde_json::json!(["A"]));
        assert_eq!(get("p/ra.json")["bases"]["RAN"], serde_json::json!(["RUN"]));
        assert_eq!(
            get("len/3.json"),
            serde_json::json!(["ABA", "ABS", "RAN", "RUN"])
        );
        let meta = get("meta.json");
        assert_eq!(
            meta["first"]["a"],
            serde_json::json!(["A", "ABS", "ABA", "AB"])
        );
        assert_eq!(meta["lengths"]["1"], 2);
        assert_eq!(meta["max_length"], 3);
    }
}
