//! Search queries on the fixture site against a scan of the built entries:
//! field wildcards for every field of the schema, phrases with and
//! without a slop against every way of placing their words, queries over
//! their bounds refused with the reason, and searches that reach their
//! stop.

mod common;

use common::*;
use lexq_site::build::{Sources, entries};
use lexq_site::schema::Fields;
use lexq_site::{Entry, QueryBounds, Site, SiteError, Stop};

/// The fixture site, its entries built without the index, and whether a
/// word is in its lexicon.
struct Fixture {
    _dir: tempfile::TempDir,
    site: Site,
    all: Vec<Entry>,
    words: Vec<String>,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let (out, _) = fixture_site(dir.path());
    let site = Site::open(&out).unwrap();
    let (lex, _) = fixture_lexicon(dir.path());
    let sources = Sources::read(&fixture_options(), lex.alphabet()).unwrap();
    let mut all = Vec::new();
    entries(&lex, &sources, &mut (), |e, _| {
        all.push(e);
        Ok(())
    })
    .unwrap();
    Fixture {
        _dir: dir,
        site,
        all,
        words: fixture_words(),
    }
}

impl Fixture {
    fn is_word(&self) -> impl Fn(&str) -> bool + '_ {
        |w| self.words.iter().any(|x| x == w)
    }

    /// The words whose entries satisfy `pred`, sorted.
    fn scan(&self, pred: impl Fn(&Entry) -> bool) -> Vec<String> {
        let mut v: Vec<String> = self
            .all
            .iter()
            .filter(|e| pred(e))
            .map(|e| e.word.clone())
            .collect();
        v.sort();
        v
    }

    fn found(&self, q: &str) -> Vec<String> {
        let hits = self
            .site
            .search(q, 1000, 0)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(hits.total, hits.hits.len(), "{q}");
        let mut v: Vec<String> = hits.hits.into_iter().map(|h| h.word).collect();
        v.sort();
        v
    }

    fn refused(&self, q: &str) -> String {
        match self.site.search(q, 10, 0) {
            Err(SiteError::BadQuery { reason, .. }) => reason,
            other => panic!("{q}: {other:?}"),
        }
    }

    /// The lowercase tokens of the definitions `e` is indexed with, at
    /// their positions: each sense's words one after another, one
    /// position left empty between senses.
    fn positions(&self, e: &Entry) -> Vec<(i64, String)> {
        let mut out = Vec::new();
        let mut pos = 0;
        for s in indexed_senses(e, self.is_word()) {
            for w in s
                .definition
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
            {
                out.push((pos, w.to_lowercase()));
                pos += 1;
            }
            pos += 1;
        }
        out
    }
}

#[test]
fn field_wildcards_are_the_words_with_a_value_in_the_field() {
    let f = fixture();
    let tokens = |e: &Entry| !f.positions(e).is_empty();
    let (schema, _) = Fields::schema();
    for (_, field) in schema.fields() {
        let name = field.name();
        let expected = match name {
            "word" | "length" | "alphagram" | "points" | "senses" | "frequency" => f.scan(|_| true),
            "definition" => f.scan(tokens),
            "pos" => f.scan(|e| e.senses.iter().any(|s| s.pos.is_some())),
            "base_form" => f.scan(|e| !e.base_forms.is_empty()),
            "front_hooks" => f.scan(|e| !e.front_hooks.is_empty()),
            "back_hooks" => f.scan(|e| !e.back_hooks.is_empty()),
            "anagrams" => f.scan(|e| !e.anagrams.is_empty()),
            // The relations of the senses a page holds in full (the
            // fixture's WordNet has synonyms and no pointers).
            "synonym" => f.scan(|e| {
                indexed_senses(e, f.is_word())
                    .into_iter()
                    .any(|s| !s.synonyms.is_empty())
            }),
            "antonym" => f.scan(|e| {
                indexed_senses(e, f.is_word())
                    .into_iter()
                    .any(|s| !s.relations.antonyms.is_empty())
            }),
            "kind_of" => f.scan(|e| {
                indexed_senses(e, f.is_word())
                    .into_iter()
                    .any(|s| !s.relations.kind_of.is_empty())
            }),
            "page" => {
                for q in ["page:*", "page:[* TO *]"] {
                    assert!(f.refused(q).contains("not searchable"), "{q}");
                }
                continue;
            }
            other => panic!("a field this test does not know: {other}"),
        };
        assert!(
            !expected.is_empty() && expected.len() < f.all.len() || name != "definition",
            "{name}: {expected:?}"
        );
        assert_eq!(f.found(&format!("{name}:*")), expected, "{name}:*");
        assert_eq!(f.found(&format!("{name}:[* TO *]")), expected, "{name}");
        let rest = f.scan(|e| !expected.contains(&e.word));
        assert_eq!(f.found(&format!("-{name}:*")), rest, "-{name}:*");
    }
    // Not every word has hooks, base forms, anagrams or senses: the
    // fixture tells those fields apart from "every document".
    for name in ["pos", "base_form", "front_hooks", "back_hooks", "anagrams"] {
        let n = f.found(&format!("{name}:*")).len();
        assert!(0 < n && n < f.all.len(), "{name}: {n}");
    }
}

/// Whether `words` can be placed at positions of `doc` (one position
/// each, none twice) so that the moves of each word from its place after
/// the one before add up to at most `slop`, tried every way.
fn can_place(doc: &[(i64, String)], words: &[&str], slop: i64) -> bool {
    fn go(
        doc: &[(i64, String)],
        words: &[&str],
        used: &mut Vec<i64>,
        cost: i64,
        slop: i64,
    ) -> bool {
        let i = used.len();
        if cost > slop {
            return false;
        }
        if i == words.len() {
            return true;
        }
        for (p, w) in doc {
            if w != words[i] || used.contains(p) {
                continue;
            }
            let step = used
                .last()
                .map_or(0, |q| ((p - i as i64) - (q - i as i64 + 1)).abs());
            used.push(*p);
            let ok = go(doc, words, used, cost + step, slop);
            used.pop();
            if ok {
                return true;
            }
        }
        false
    }
    go(doc, words, &mut Vec::new(), 0, slop)
}

#[test]
fn phrases_match_as_the_positions_of_their_words_allow() {
    let f = fixture();
    let phrases = [
        "feel concern",
        "concern feel",
        "a small",
        "small a",
        "the of",
        "of the",
        "lava dry form",
        "form of lava",
        "a of the",
        "for or of",
        "care of",
        "a a",
        "of of",
    ];
    let mut found_some = 0;
    for phrase in phrases {
        let words: Vec<&str> = phrase.split(' ').collect();
        let repeats = (1..words.len()).any(|i| words[..i].contains(&words[i]));
        for slop in [0, 1, 2, 3, 5, 8] {
            let q = format!("definition:\"{phrase}\"~{slop}");
            if repeats && slop > 0 {
                assert!(f.refused(&q).contains("twice"), "{q}");
                continue;
            }
            let expected = f.scan(|e| can_place(&f.positions(e), &words, slop));
            found_some += usize::from(!expected.is_empty());
            assert_eq!(f.found(&q), expected, "{q}");
        }
    }
    assert!(found_some > 20, "{found_some}");
    // The wrong answer: one word twice with a slop of 1 found
    // every definition holding it once. Now refused; without the slop,
    // right.
    assert!(f.refused("definition:\"a a\"~1").contains("twice"));
    assert!(f.refused("\"a a a a a a a a a a\"~1000").contains("slop"));
}

#[test]
fn queries_over_their_bounds_are_refused_with_the_reason() {
    let f = fixture();
    let tight = QueryBounds {
        max_reads: 1000,
        max_terms: 4,
        max_clauses: 8,
        max_depth: 2,
        max_slop: 3,
    };
    let search = |q: &str| f.site.search_with(q, 10, 0, &tight, &Stop::never());
    assert!(search("definition:lava").is_ok());
    for (q, why) in [
        ("a b c", "terms"),
        ("(((care)))", "nest"),
        ("definition:\"feel concern\"~4", "slop"),
        (
            "-points:1 -points:2 -points:3 -points:4 -points:5 -points:6 -points:7 -points:8",
            "clauses",
        ),
    ] {
        match search(q) {
            Err(SiteError::BadQuery { reason, .. }) => {
                assert!(reason.contains(why), "{q}: {reason}")
            }
            other => panic!("{q}: {other:?}"),
        }
    }
    // What a query read, against its estimate and the bound: a bound
    // one read under its estimate refuses it.
    for q in [
        "definition:lava OR word:car*",
        "* -word:care -word:race",
        "definition:\"feel concern\"~2 AND length:4",
        "pos:* AND NOT anagrams:*",
    ] {
        let hits = search(q).unwrap();
        assert!(
            hits.reads > 0 && hits.reads <= hits.estimated_reads,
            "{q}: {hits:?}"
        );
        let under = QueryBounds {
            max_reads: hits.estimated_reads - 1,
            ..tight
        };
        match f.site.search_with(q, 10, 0, &under, &Stop::never()) {
            Err(SiteError::BadQuery { reason, .. }) => assert!(reason.contains("read"), "{reason}"),
            other => panic!("{q}: {other:?}"),
        }
    }
}

#[test]
fn a_search_that_reaches_its_stop_ends_there() {
    let f = fixture();
    let b = QueryBounds::default();
    let cancelled = Stop::never();
    cancelled.cancel();
    let past = Stop::at(std::time::Instant::now());
    for stop in [cancelled, past] {
        for q in ["*", "definition:\"feel concern\"~2", "car*", "length:4"] {
            // Counted only, and with results to read.
            for limit in [0, 10] {
                assert!(
                    matches!(
                        f.site.search_with(q, limit, 0, &b, &stop),
                        Err(SiteError::Stopped { .. })
                    ),
                    "{q}"
                );
            }
        }
    }
    let later = Stop::after(std::time::Duration::from_secs(600));
    assert!(f.site.search_with("*", 10, 0, &b, &later).is_ok());
}
