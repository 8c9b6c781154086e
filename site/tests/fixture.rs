//! The site layer on the hand-made fixtures (tests/data): WordNet parsing,
//! inflections, definition files, hooks and anagrams against brute force,
//! searches against a scan of the built entries, replacing and refusing
//! output directories, and the static export.

mod common;

use std::collections::BTreeSet;

use common::*;
use lexq_site::build::{BuildOptions, BuildSummary, Sources, build, entries};
use lexq_site::morphy::{Morphy, Via};
use lexq_site::wordnet::{Pos, WordNet};
use lexq_site::{Entry, Site, SiteError};

fn sorted(s: &str) -> String {
    let mut c: Vec<char> = s.chars().collect();
    c.sort();
    c.into_iter().collect()
}

#[test]
fn wordnet_reads_senses_examples_and_leaves_out_capitalised_only_senses() {
    let wn = WordNet::open(&data().join("wordnet")).unwrap();
    let care = wn.senses("care", None).unwrap();
    let defs: Vec<(Pos, &str)> = care
        .iter()
        .map(|s| (s.pos, s.definition.as_str()))
        .collect();
    assert_eq!(
        defs,
        [
            (
                Pos::Noun,
                "the work of providing treatment for or attending to someone or something"
            ),
            (Pos::Noun, "judiciousness in avoiding harm or danger"),
            (Pos::Verb, "feel concern or interest"),
            (Pos::Verb, "provide care for"),
        ]
    );
    assert_eq!(
        care[2].examples,
        ["I really care about my work", "I don't care"]
    );
    assert_eq!(care[0].synonyms, ["attention", "aid"]);
    assert_eq!(care[3].synonyms, ["give care"]);
    // "aa": the AA (Alcoholics Anonymous) synset is left out, the lava kept.
    let (aa, proper) = wn.lookup("aa", None).unwrap();
    assert_eq!(aa.len(), 1);
    assert_eq!(aa[0].definition, "a dark rough lava");
    assert_eq!(proper, 1);
    // Adjective markers are stripped: quick(a).
    assert!(wn.has("quick", Pos::Adjective));
    assert_eq!(
        wn.senses("quick", Some(Pos::Adjective)).unwrap()[0].synonyms,
        ["speedy"]
    );
    // No LICENSE file beside the fixture: the data files' header is kept.
    assert!(
        wn.licence().contains("Princeton University"),
        "{}",
        wn.licence()
    );
}

#[test]
fn wordnet_refuses_missing_and_corrupt_databases() {
    let dir = tempfile::tempdir().unwrap();
    assert!(matches!(
        WordNet::open(&dir.path().join("nope")),
        Err(SiteError::BadWordNet { .. })
    ));
    // A copy whose index points past the data file's end.
    let copy = dir.path().join("wn");
    std::fs::create_dir(&copy).unwrap();
    for f in std::fs::read_dir(data().join("wordnet")).unwrap() {
        let f = f.unwrap();
        std::fs::copy(f.path(), copy.join(f.file_name())).unwrap();
    }
    std::fs::write(copy.join("index.adv"), "quick r 1 1 @ 1 0 99999999  \n").unwrap();
    let wn = WordNet::open(&copy).unwrap();
    let err = wn.senses("quick", Some(Pos::Adverb)).unwrap_err();
    assert!(err.to_string().contains("offset past the end"), "{err}");
    std::fs::write(copy.join("index.adv"), "quick r x\n").unwrap();
    assert!(matches!(
        WordNet::open(&copy),
        Err(SiteError::BadWordNet { .. })
    ));
}

#[test]
fn morphy_uses_exception_lists_then_rules() {
    let dir = data().join("wordnet");
    let (wn, m) = (WordNet::open(&dir).unwrap(), Morphy::open(&dir).unwrap());
    assert_eq!(m.files(), 4);
    let base = |w: &str, p| m.base_forms(&wn, w, p);
    assert_eq!(base("cares", Pos::Noun), [("care".to_string(), Via::Rule)]);
    assert_eq!(base("cares", Pos::Verb), [("care".to_string(), Via::Rule)]);
    assert_eq!(base("cared", Pos::Verb), [("care".to_string(), Via::Rule)]);
    assert_eq!(base("caring", Pos::Verb), [("care".to_string(), Via::Rule)]);
    assert_eq!(
        base("geese", Pos::Noun),
        [("goose".to_string(), Via::Exception)]
    );
    assert_eq!(
        base("ran", Pos::Verb),
        [("run".to_string(), Via::Exception)]
    );
    assert_eq!(
        base("retains", Pos::Verb),
        [("retain".to_string(), Via::Rule)]
    );
    assert_eq!(base("boxes", Pos::Noun), [("box".to_string(), Via::Rule)]);
    assert_eq!(
        base("quicker", Pos::Adjective),
        [("quick".to_string(), Via::Rule)]
    );
    // best -> good (adj.exc); best -> well (adv.exc) but WordNet has no adverb "well" here.
    assert_eq!(
        base("best", Pos::Adjective),
        [("good".to_string(), Via::Exception)]
    );
    assert!(base("best", Pos::Adverb).is_empty());
    // A word is not its own base form; unknown stems give nothing.
    assert!(base("care", Pos::Noun).is_empty());
    assert!(base("zzzs", Pos::Noun).is_empty());
}

/// Every fixture entry, built without the index (the oracle for searches).
fn oracle_entries() -> Vec<Entry> {
    let dir = tempfile::tempdir().unwrap();
    let (lex, _) = fixture_lexicon(dir.path());
    let sources = Sources::read(&fixture_options(), lex.alphabet()).unwrap();
    let mut out = Vec::new();
    entries(&lex, &sources, &mut (), |e, _| {
        out.push(e);
        Ok(())
    })
    .unwrap();
    out
}

#[test]
fn site_entries_match_the_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let (out, summary) = fixture_site(dir.path());
    let site = Site::open(&out).unwrap();
    let words = fixture_words();
    assert_eq!(summary.documents, words.len() as u64);
    assert_eq!(site.word_count(), words.len() as u64);

    // Hooks, anagrams, points and alphagrams against brute force.
    let set: BTreeSet<&str> = words.iter().map(String::as_str).collect();
    for w in &words {
        let e = site
            .entry(w)
            .unwrap()
            .unwrap_or_else(|| panic!("{w} missing"));
        let front: String = ('A'..='Z')
            .filter(|l| set.contains(format!("{l}{w}").as_str()))
            .collect();
        let back: String = ('A'..='Z')
            .filter(|l| set.contains(format!("{w}{l}").as_str()))
            .collect();
        let anagrams: Vec<&str> = words
            .iter()
            .filter(|o| *o != w && sorted(o) == sorted(w))
            .map(String::as_str)
            .collect();
        assert_eq!(
            (e.front_hooks.as_str(), e.back_hooks.as_str()),
            (front.as_str(), back.as_str()),
            "{w}"
        );
        assert_eq!(e.anagrams, anagrams, "{w}");
        assert_eq!(e.alphagram, sorted(w), "{w}");
        assert_eq!(e.length, w.len());
        let pts: u32 = w
            .chars()
            .map(|c| match c {
                'A' | 'E' | 'I' | 'O' | 'U' | 'L' | 'N' | 'S' | 'T' | 'R' => 1,
                'D' | 'G' => 2,
                'B' | 'C' | 'M' | 'P' => 3,
                'F' | 'H' | 'V' | 'W' | 'Y' => 4,
                'K' => 5,
                'J' | 'X' => 8,
                _ => 10,
            })
            .sum();
        assert_eq!(e.points, pts, "{w}");
    }
    assert!(site.entry("nope").unwrap().is_none());
    assert_eq!(site.entry("Care").unwrap().unwrap().word, "CARE");

    // Inflections: CARES gets CARE's noun and verb senses, marked.
    let cares = site.entry("cares").unwrap().unwrap();
    assert_eq!(cares.base_forms, ["CARE"]);
    type Row<'a> = (Option<Pos>, &'a str, Option<&'a str>, Option<Via>);
    let got: Vec<Row> = cares
        .senses
        .iter()
        .map(|s| (s.pos, s.definition.as_str(), s.base_form.as_deref(), s.via))
        .collect();
    assert_eq!(got.len(), 4);
    assert!(
        got.iter()
            .all(|g| g.2 == Some("CARE") && g.3 == Some(Via::Rule))
    );
    assert_eq!(got.iter().filter(|g| g.0 == Some(Pos::Noun)).count(), 2);
    assert_eq!(got.iter().filter(|g| g.0 == Some(Pos::Verb)).count(), 2);
    let geese = site.entry("geese").unwrap().unwrap();
    assert_eq!(geese.base_forms, ["GOOSE"]);
    assert_eq!(geese.senses[0].via, Some(Via::Exception));
    assert_eq!(
        site.entry("retains").unwrap().unwrap().base_forms,
        ["RETAIN"]
    );
    assert_eq!(site.entry("boxes").unwrap().unwrap().senses.len(), 2); // noun + verb of BOX
    let best = site.entry("best").unwrap().unwrap();
    assert_eq!(
        best.senses[0].definition,
        "having the most positive qualities"
    );
    assert_eq!(best.senses[0].base_form, None);
    assert_eq!(best.senses[1].base_form.as_deref(), Some("GOOD"));
    // Own definitions come first, credited to their file; WordNet after.
    let cat = site.entry("cat").unwrap().unwrap();
    let srcs: Vec<&str> = cat.senses.iter().map(|s| s.source.as_str()).collect();
    assert_eq!(srcs, ["defs.tsv", "defs.tsv", "wordnet"]);
    assert_eq!(cat.senses[0].pos, Some(Pos::Noun));
    assert_eq!(cat.senses[1].pos, None);
    assert_eq!(cat.senses[2].examples, ["the cat sat"]);
    assert_eq!(
        site.entry("acre").unwrap().unwrap().senses[0].source,
        "defs.jsonl"
    );
    assert!(
        site.entry("zzz").unwrap().unwrap().senses[0]
            .definition
            .contains("snoring")
    );
    // AA: the lava first; Alcoholics Anonymous, which WordNet has only
    // capitalised, after it, marked so.
    let aa = site.entry("aa").unwrap().unwrap();
    let senses: Vec<(&str, Option<&str>)> = aa
        .senses
        .iter()
        .map(|s| (s.definition.as_str(), s.capitalised.as_deref()))
        .collect();
    assert_eq!(
        senses,
        [
            ("a dark rough lava", None),
            ("an organization of alcoholics", Some("AA"))
        ]
    );

    // The summary: figures recounted from the entries.
    let all = oracle_entries();
    let own = all
        .iter()
        .filter(|e| e.senses.iter().any(|s| s.base_form.is_none()))
        .count();
    let via = all
        .iter()
        .filter(|e| !e.senses.is_empty() && e.senses.iter().all(|s| s.base_form.is_some()))
        .count();
    assert_eq!(summary.direct, own as u64);
    assert_eq!(summary.via_base, via as u64);
    assert_eq!(
        summary.senses,
        all.iter().map(|e| e.senses.len() as u64).sum::<u64>()
    );
    // Names are shown unless the build hides them (AA is a kind: kept
    // either way).
    assert_eq!(summary.proper_left_out, 0);
    assert_eq!(summary.unused_definitions, 1);
    assert_eq!(summary.unused_words, ["XYLYL"]);
    let bad: Vec<(String, usize)> = summary
        .bad_lines
        .iter()
        .map(|b| {
            (
                b.path.file_name().unwrap().to_string_lossy().into_owned(),
                b.line,
            )
        })
        .collect();
    assert_eq!(
        bad,
        [
            ("defs.tsv".into(), 6),
            ("defs.tsv".into(), 7),
            ("defs.jsonl".into(), 3),
            ("defs.jsonl".into(), 4)
        ]
    );
    // Each stored entry is the entry the build computed.
    for e in &all {
        assert_eq!(&site.entry(&e.word).unwrap().unwrap(), e);
    }
    assert!(out.join("WORDNET-LICENSE.txt").is_file());
    assert!(out.join("lexicon.lexq").is_file());
    assert_eq!(site.lexicon().unwrap().word_count(), words.len() as u64);
}

/// The words whose entries satisfy `pred`, sorted.
fn scan(all: &[Entry], pred: impl Fn(&Entry) -> bool) -> Vec<String> {
    let mut v: Vec<String> = all
        .iter()
        .filter(|e| pred(e))
        .map(|e| e.word.clone())
        .collect();
    v.sort();
    v
}

fn search_words(site: &Site, q: &str) -> Vec<String> {
    let hits = site.search(q, 1000, 0).unwrap();
    assert_eq!(hits.total, hits.hits.len(), "{q}");
    let mut v: Vec<String> = hits.hits.into_iter().map(|h| h.word).collect();
    v.sort();
    v
}

#[test]
fn searches_match_a_scan_of_the_entries() {
    let dir = tempfile::tempdir().unwrap();
    let (out, _) = fixture_site(dir.path());
    let site = Site::open(&out).unwrap();
    let all = oracle_entries();
    let words = fixture_words();
    let is_word = |w: &str| words.iter().any(|x| x == w);
    // Definition search finds the words whose own senses match, not the
    // inflections that show them too.
    let has_def = |e: &Entry, needle: &str| {
        indexed_senses(e, is_word).any(|s| s.definition.to_lowercase().contains(needle))
    };
    assert_eq!(
        search_words(&site, "definition:\"feel concern\""),
        scan(&all, |e| has_def(e, "feel concern"))
    );
    assert!(search_words(&site, "definition:\"feel concern\"").contains(&"CARE".to_string()));
    assert!(!search_words(&site, "definition:\"feel concern\"").contains(&"CARES".to_string()));
    assert!(
        scan(&all, |e| e
            .senses
            .iter()
            .any(|s| s.definition == "feel concern or interest"))
        .contains(&"CARES".to_string())
    );
    assert_eq!(
        search_words(&site, "definition:lava"),
        scan(&all, |e| has_def(e, "lava"))
    );
    assert_eq!(
        search_words(&site, "alphagram:ACER"),
        ["ACRE", "CARE", "RACE"]
    );
    assert_eq!(
        search_words(&site, "alphagram:acer"),
        ["ACRE", "CARE", "RACE"]
    );
    assert_eq!(
        search_words(&site, "length:[3 TO 3]"),
        scan(&all, |e| e.length == 3)
    );
    // Whether one of the senses `e` indexes has the token `word`.
    let has_token = |e: &Entry, word: &str| {
        indexed_senses(e, is_word).any(|s| {
            s.definition
                .split(|c: char| !c.is_alphanumeric())
                .any(|w| w.eq_ignore_ascii_case(word))
        })
    };
    assert_eq!(
        search_words(&site, "definition:care AND length:[4 TO 5]"),
        scan(&all, |e| (4..=5).contains(&e.length)
            && has_token(e, "care"))
    );
    assert!(
        !scan(&all, |e| (4..=5).contains(&e.length)
            && has_token(e, "care"))
        .is_empty()
    );
    assert_eq!(
        search_words(&site, "pos:/verb"),
        scan(&all, |e| e.senses.iter().any(|s| s.pos == Some(Pos::Verb)))
    );
    assert_eq!(
        search_words(&site, "base_form:care"),
        ["CARED", "CARES", "CARING"]
    );
    assert_eq!(
        search_words(&site, "back_hooks:s"),
        scan(&all, |e| e.back_hooks.contains('S'))
    );
    assert_eq!(
        search_words(&site, "senses:0"),
        scan(&all, |e| e.senses.is_empty())
    );
    // Numbers are searched through their columns: single values, sets,
    // ranges, boosts, and combined with other fields.
    assert_eq!(
        search_words(&site, "length:4"),
        scan(&all, |e| e.length == 4)
    );
    assert_eq!(
        search_words(&site, "points: IN [6 7] AND NOT length:5^2"),
        scan(&all, |e| (e.points == 6 || e.points == 7) && e.length != 5)
    );
    assert_eq!(
        search_words(&site, "points:{5 TO 7] OR senses:1"),
        scan(&all, |e| e.points == 6
            || e.points == 7
            || e.senses.len() == 1)
    );
    assert!(!scan(&all, |e| e.length == 4).is_empty());
    // Exclusions: after AND NOT, alone, and in a group of their own.
    assert_eq!(
        search_words(&site, "definition:the AND NOT length:4"),
        scan(&all, |e| e.length != 4 && has_token(e, "the"))
    );
    assert!(!scan(&all, |e| e.length != 4 && has_token(e, "the")).is_empty());
    assert!(!scan(&all, |e| e.length == 4 && has_token(e, "the")).is_empty());
    assert_eq!(
        search_words(&site, "-length:4"),
        scan(&all, |e| e.length != 4)
    );
    assert_eq!(
        search_words(&site, "points:6 AND (NOT word:care AND NOT word:race)"),
        scan(&all, |e| e.points == 6
            && e.word != "CARE"
            && e.word != "RACE")
    );
    // A word ending in `*` is a prefix, in any field and without one.
    let has_prefix = |e: &Entry, stem: &str| {
        indexed_senses(e, is_word).any(|s| {
            s.definition
                .split(|c: char| !c.is_alphanumeric())
                .any(|w| w.to_lowercase().starts_with(stem))
        })
    };
    let car = scan(&all, |e| e.word.starts_with("CAR"));
    assert!(car.len() > 1);
    assert_eq!(search_words(&site, "word:car*"), car);
    assert_eq!(search_words(&site, "word:\"CAR\"*"), car);
    let conc = scan(&all, |e| has_prefix(e, "conc"));
    assert!(!conc.is_empty() && !conc.iter().any(|w| w.starts_with("CONC")));
    assert_eq!(search_words(&site, "definition:conc*"), conc);
    assert_eq!(
        search_words(&site, "car*"),
        scan(&all, |e| e.word.starts_with("CAR") || has_prefix(e, "car"))
    );
    assert_eq!(
        search_words(&site, "definition:conc* AND NOT word:care"),
        scan(&all, |e| has_prefix(e, "conc") && e.word != "CARE")
    );
    // A bare word searches words and definitions; the word itself ranks first.
    let hits = site.search("goose", 10, 0).unwrap();
    assert_eq!(hits.hits[0].word, "GOOSE");
    assert_eq!(hits.hits[0].points, 6);
    assert!(
        hits.hits[0]
            .definition
            .as_deref()
            .unwrap()
            .starts_with("web-footed")
    );

    // Paging: the windows of a result partition it.
    let full = site.search("pos:/noun", 1000, 0).unwrap();
    let mut paged = Vec::new();
    for off in (0..full.total).step_by(3) {
        let page = site.search("pos:/noun", 3, off).unwrap();
        assert_eq!(page.total, full.total);
        paged.extend(page.hits.into_iter().map(|h| h.word));
    }
    let full_words: Vec<String> = full.hits.into_iter().map(|h| h.word).collect();
    assert_eq!(paged, full_words);
    assert!(site.search("pos:/noun", 3, 10_000).unwrap().hits.is_empty());
    // Windows far past the end, or of more than there is: no allocation
    // of their size (those were aborts).
    for (limit, offset) in [
        (3, usize::MAX),
        (usize::MAX, 0),
        (usize::MAX, usize::MAX),
        (1 << 40, 1 << 40),
    ] {
        let page = site.search("pos:/noun", limit, offset).unwrap();
        assert_eq!(page.total, full.total);
        assert_eq!(page.hits.len(), if offset == 0 { full.total } else { 0 });
    }
    assert_eq!(
        site.search("pos:/noun", 0, 0).unwrap().total,
        full_words.len()
    );

    for bad in [
        "definition:(",
        "nofield:x",
        "",
        "   ",
        "length:[a TO b]",
        "length:x",
        "points:5*",
        "nofield:*",
        // tantivy 0.25's parser panicked on `- *`, or never returned.
        "a:(^",
        "word: IN [\u{1} a",
        // What tantivy would search as something else than meant.
        "a*b",
        "definition:tool~1",
        "word:/c.r/",
        // A prefix of a field that is not indexed text.
        "page:car*",
        "pos:noun*",
    ] {
        assert!(
            matches!(site.search(bad, 10, 0), Err(SiteError::BadQuery { .. })),
            "{bad:?}"
        );
    }
    // Everything but everything (tantivy 0.25's parser panicked on it).
    assert_eq!(site.search("- *", 10, 0).unwrap().total, 0);
    assert!(matches!(
        site.search(&"a".repeat(5000), 10, 0),
        Err(SiteError::BadQuery { .. })
    ));
}

/// Every query of up to three characters of the query syntax either runs
/// or is a bad query: none panics or fails otherwise.
#[test]
fn every_short_query_runs_or_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (out, _) = fixture_site(dir.path());
    let site = Site::open(&out).unwrap();
    let chars = [
        "-", "+", "*", " ", "(", ")", ":", "\"", "[", "]", "{", "}", "^", "~", "/", "a", "IN",
        "\u{b}", "word", "length", "1",
    ];
    let mut q = String::new();
    let (mut ran, mut refused) = (0, 0);
    for a in chars {
        for b in chars {
            for c in chars {
                q.clear();
                q.push_str(a);
                q.push_str(b);
                q.push_str(c);
                match site.search(&q, 3, 0) {
                    Ok(_) => ran += 1,
                    Err(SiteError::BadQuery { .. }) => refused += 1,
                    Err(e) => panic!("{q:?}: {e}"),
                }
            }
        }
    }
    assert!(ran > 100 && refused > 100, "{ran} ran, {refused} refused");
}

#[test]
fn builds_replace_their_own_output_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let (out, _) = fixture_site(dir.path());
    let (lex, path) = fixture_lexicon(dir.path());
    // Rebuild without WordNet: replaces the old site.
    let opts = BuildOptions::default();
    build(&lex, Some(&path), &opts, &out, &mut ()).unwrap();
    let site = Site::open(&out).unwrap();
    assert!(site.entry("care").unwrap().unwrap().senses.is_empty());
    assert!(!out.join("WORDNET-LICENSE.txt").exists());
    // A failed build (no such WordNet) leaves the site as it was.
    let bad = BuildOptions {
        wordnet: Some(dir.path().join("missing")),
        ..Default::default()
    };
    assert!(build(&lex, Some(&path), &bad, &out, &mut ()).is_err());
    assert_eq!(
        Site::open(&out).unwrap().word_count(),
        fixture_words().len() as u64
    );
    // Strict: a bad definition line is fatal, with its line number.
    let strict = BuildOptions {
        strict: true,
        ..fixture_options()
    };
    let err = build(&lex, Some(&path), &strict, &out, &mut ()).unwrap_err();
    assert!(
        err.to_string()
            .ends_with("defs.tsv:6: no tab between the word and its definition"),
        "{err}"
    );
    // A folder that is not a lexq site is never replaced.
    let other = dir.path().join("photos");
    std::fs::create_dir(&other).unwrap();
    std::fs::write(other.join("cat.jpg"), b"meow").unwrap();
    assert!(build(&lex, Some(&path), &opts, &other, &mut ()).is_err());
    assert_eq!(std::fs::read(other.join("cat.jpg")).unwrap(), b"meow");
    // No temporary folders are left behind.
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    // Not a site.
    assert!(matches!(Site::open(&other), Err(SiteError::BadSite { .. })));
}

#[test]
fn a_damaged_index_file_is_refused_not_searched() {
    let dir = tempfile::tempdir().unwrap();
    let (out, _) = fixture_site(dir.path());
    let index = out.join("index");
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(&index)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            !name.starts_with('.') && name != "meta.json"
        })
        .collect();
    files.sort();
    assert!(files.len() >= 6, "{files:?}");
    for file in &files {
        let good = std::fs::read(file).unwrap();
        // One byte of the data, not of tantivy's footer (a JSON text,
        // its length and a magic number end the file).
        let n = good.len();
        let footer = u32::from_le_bytes(good[n - 8..n - 4].try_into().unwrap()) as usize;
        let data = n - 8 - footer;
        assert!(data > 0, "{file:?}");
        let mut bad = good.clone();
        bad[data / 2] ^= 0x20;
        std::fs::write(file, &bad).unwrap();
        match Site::open(&out) {
            Err(SiteError::BadSite { reason, .. }) => {
                assert!(reason.contains("damaged"), "{file:?}: {reason}")
            }
            other => panic!("{file:?}: {other:?}"),
        }
        std::fs::write(file, &good).unwrap();
        assert!(Site::open(&out).is_ok());
    }
    // A segment file gone.
    std::fs::remove_file(&files[0]).unwrap();
    assert!(matches!(Site::open(&out), Err(SiteError::BadSite { .. })));
}

#[test]
fn export_writes_a_page_per_word_and_the_shards() {
    let dir = tempfile::tempdir().unwrap();
    let (out, _) = fixture_site(dir.path());
    let site = Site::open(&out).unwrap();
    let export = dir.path().join("export");
    let options = lexq_site::export::ExportOptions::default();
    let summary = lexq_site::export::export(&site, &export, &options, &mut ()).unwrap();
    let words = fixture_words();
    assert_eq!(summary.words, words.len() as u64);
    for w in &words {
        let path = export.join(lexq_site::export::word_path(w));
        let html = std::fs::read_to_string(&path).unwrap();
        assert!(
            html.contains(&format!("<h1 id=\"word-title\">{w}</h1>")),
            "{w}"
        );
        // Without a base URL, canonical links are paths.
        let canonical = format!(
            "<link rel=\"canonical\" href=\"/word/{}/\">",
            w.to_lowercase()
        );
        assert!(html.contains(&canonical), "{w}");
    }
    // The words of each shard: those beginning with its letters, and
    // of each length: those of the length, in order.
    let shard = |name: &str| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(export.join("idx").join(name)).unwrap()).unwrap()
    };
    let filter = |f: &dyn Fn(&str) -> bool| -> Vec<String> {
        words.iter().filter(|w| f(w)).cloned().collect()
    };
    assert_eq!(
        shard("p/ca.json")["words"],
        serde_json::json!(filter(&|w| w.starts_with("CA")))
    );
    assert_eq!(
        shard("p/ca.json")["bases"]["CARES"],
        serde_json::json!(["CARE"])
    );
    assert_eq!(
        shard("len/5.json"),
        serde_json::json!(filter(&|w| w.len() == 5))
    );
    assert_eq!(shard("meta.json")["words"], words.len());
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(export.join("lexq-export.json")).unwrap()).unwrap();
    assert_eq!(manifest["words"], words.len());
    assert!(export.join("WORDNET-LICENSE.txt").is_file());
    // Exporting again replaces the export; an unrelated folder is refused.
    lexq_site::export::export(&site, &export, &options, &mut ()).unwrap();
    assert!(lexq_site::export::export(&site, &out, &options, &mut ()).is_err());
    assert!(Site::open(&out).is_ok());
}

#[test]
fn a_changed_site_json_or_index_meta_json_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (out, _) = fixture_site(dir.path());
    let total = |site: &Site| site.search("*", 1, 0).unwrap().total;
    assert_eq!(total(&Site::open(&out).unwrap()), 25);
    // One digit of a figure each: the site's document count, a segment's
    // size in tantivy's meta.json (which made `*` find 20 words of 25).
    let format = format!("\"format\": {}", lexq_site::build::FORMAT);
    let spaced = format.replace(": ", ":  ");
    for (file, from, to) in [
        ("site.json", "\"documents\": 25", "\"documents\": 24"),
        ("index/meta.json", "\"max_doc\": 25", "\"max_doc\": 20"),
        ("site.json", format.as_str(), spaced.as_str()),
    ] {
        let path = out.join(file);
        let good = std::fs::read_to_string(&path).unwrap();
        assert!(good.contains(from), "{file}: {good}");
        std::fs::write(&path, good.replacen(from, to, 1)).unwrap();
        match Site::open(&out) {
            Err(SiteError::BadSite { reason, .. }) => {
                assert!(
                    reason.contains("changed after the build"),
                    "{file}: {reason}"
                )
            }
            Err(e) => panic!("{file}: {e}"),
            Ok(site) => panic!("{file}: opened, `*` finds {}", total(&site)),
        }
        std::fs::write(&path, &good).unwrap();
        assert_eq!(total(&Site::open(&out).unwrap()), 25);
    }
    // An older site is told to rebuild; a site.json cut short, refused.
    let path = out.join("site.json");
    let good = std::fs::read_to_string(&path).unwrap();
    for (bad, why) in [
        (good.replacen(&format, "\"format\": 5", 1), "site format 5"),
        (good[..good.len() - 3].to_string(), "site.json"),
        (
            good.replace("\"checksum\"", "\"checksun\""),
            "end with its checksum",
        ),
    ] {
        std::fs::write(&path, bad).unwrap();
        let err = Site::open(&out).unwrap_err().to_string();
        assert!(err.contains(why), "{err}");
    }
    std::fs::write(&path, &good).unwrap();
    // Named pipes in their place are refused, not waited on.
    #[cfg(unix)]
    for file in ["site.json", "index/meta.json"] {
        let path = out.join(file);
        let good = std::fs::read(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        assert!(made.unwrap().success());
        let (tx, rx) = std::sync::mpsc::channel();
        let dir = out.clone();
        std::thread::spawn(move || tx.send(Site::open(&dir).map(|_| ())));
        let opened = rx.recv_timeout(std::time::Duration::from_secs(20));
        let err = opened
            .expect("blocked on the pipe")
            .unwrap_err()
            .to_string();
        assert!(err.contains("not a regular file"), "{err}");
        std::fs::remove_file(&path).unwrap();
        std::fs::write(&path, good).unwrap();
    }
    std::fs::remove_file(out.join("index/meta.json")).unwrap();
    let err = Site::open(&out).unwrap_err().to_string();
    assert!(err.contains("no index/meta.json"), "{err}");
}

/// The lexicon of the word list `text`, in `alphabet`.
fn lexicon_of(alphabet: lexq::Alphabet, text: &str) -> lexq::Lexicon {
    let mut list = lexq::WordList::new(alphabet);
    list.read_bytes("words".as_ref(), text.as_bytes()).unwrap();
    lexq::Lexicon::from_bytes(lexq::build(&list, &mut ()).unwrap().bytes).unwrap()
}

#[test]
fn a_site_is_checked_against_the_word_list_of_the_lexicon_it_is_opened_with() {
    let dir = tempfile::tempdir().unwrap();
    let (out, _) = fixture_site(dir.path());
    let site = Site::open(&out).unwrap();
    let words = std::fs::read_to_string(data().join("words.txt")).unwrap();
    // The site's own copy, and the same words in another file: another
    // order and case, and an alphabet of another name (the file's bytes
    // differ, the words do not).
    site.check_lexicon(&site.lexicon().unwrap()).unwrap();
    let mut shuffled: Vec<&str> = words.lines().rev().collect();
    shuffled.push("CARE");
    let letters: String = ('A'..='Z').map(|c| format!("{c}\n")).collect();
    let renamed = lexq::Alphabet::from_text("letters", &letters).unwrap();
    let same = lexicon_of(renamed, &shuffled.join("\n").to_uppercase());
    assert_ne!(same.file_bytes(), site.lexicon().unwrap().file_bytes());
    site.check_lexicon(&same).unwrap();
    // One word more; one word other (as many words); ENABLE.
    for (lex, needle) in [
        (
            lexicon_of(lexq::Alphabet::english(), &format!("{words}\ncarer\n")),
            "(26 words)",
        ),
        (
            lexicon_of(lexq::Alphabet::english(), &words.replace("zzz", "zzzs")),
            "(25 words, CRC-32C ",
        ),
        (lexq::Lexicon::embedded(), "<embedded> (172820 words)"),
    ] {
        match site.check_lexicon(&lex) {
            Err(e @ SiteError::OtherWordList { .. }) => {
                let msg = e.to_string();
                assert!(
                    msg.contains("built from another word list (25 words, CRC-32C ")
                        && msg.contains(needle),
                    "{msg}"
                );
            }
            other => panic!("{needle}: {other:?}"),
        }
    }
    // The fingerprint is of the words as spelled, in order.
    let id = lexq_site::fingerprint::WordListId::of(&site.lexicon().unwrap()).unwrap();
    let mut spelled: Vec<String> = fixture_words().iter().map(|w| format!("{w}\n")).collect();
    spelled.sort();
    assert_eq!(id.words, 25);
    assert_eq!(id.crc32c, crc32c::crc32c(spelled.concat().as_bytes()));
    assert_eq!(site.meta().word_list, id);
}

#[test]
fn a_replacement_waits_for_another_writer_of_the_same_folder() {
    use fs4::fs_std::FileExt;
    let dir = tempfile::tempdir().unwrap();
    let (lex, path) = fixture_lexicon(dir.path());
    let out = dir.path().join("site");
    let scratch = || -> Vec<std::path::PathBuf> {
        std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with('.'))
            .collect()
    };
    // Another process renaming into this folder holds its lock.
    let folder = std::fs::File::open(dir.path()).unwrap();
    folder.lock_exclusive().unwrap();
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| {
        let build = s.spawn(|| {
            let r = build(&lex, Some(&path), &fixture_options(), &out, &mut ());
            done.store(true, std::sync::atomic::Ordering::SeqCst);
            r
        });
        // The site is whole in its temporary directory...
        let start = std::time::Instant::now();
        while !scratch().iter().any(|p| p.join("site.json").is_file()) {
            assert!(start.elapsed().as_secs() < 60, "no temporary site");
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        // ... and waits there while the lock is held.
        std::thread::sleep(std::time::Duration::from_millis(500));
        assert!(!done.load(std::sync::atomic::Ordering::SeqCst));
        assert!(!out.exists());
        drop(folder);
        build.join().unwrap().unwrap();
    });
    assert_eq!(Site::open(&out).unwrap().word_count(), 25);
    assert!(scratch().is_empty(), "{:?}", scratch());
}

/// The entries of a site built from the word list `words` and the
/// definitions file `defs` (TSV), in `alphabet`; the build's summary.
fn site_of(alphabet: lexq::Alphabet, words: &str, defs: &str) -> (Vec<Entry>, BuildSummary) {
    let dir = tempfile::tempdir().unwrap();
    let lex = lexicon_of(alphabet, words);
    let file = dir.path().join("defs.tsv");
    std::fs::write(&file, defs).unwrap();
    let opts = BuildOptions {
        definitions: vec![file],
        ..Default::default()
    };
    let out = dir.path().join("site");
    let summary = build(&lex, None, &opts, &out, &mut ()).unwrap();
    let mut all = Vec::new();
    Site::open(&out)
        .unwrap()
        .for_each_entry(|e| {
            all.push(e);
            Ok(())
        })
        .unwrap();
    (all, summary)
}

#[test]
fn definition_headwords_are_read_as_the_word_list_reads_its_lines() {
    // Each headword is also a line of the word list: whatever word
    // `lexq build` reads it as, the definition is that word's.
    for (alphabet, lines) in [
        (
            lexq::Alphabet::spanish(),
            &["árbol", "CAFE\u{301}", "pingüino", "Chillar", "ñu"][..],
        ),
        (
            lexq::Alphabet::catalan(),
            &["col.lecció", "QÜESTIÓ", "ŀlusió"][..],
        ),
        (lexq::Alphabet::english(), &["Straße", "ﬁre", "care"][..]),
    ] {
        let defs: String = lines
            .iter()
            .map(|l| format!("{l}\tn\tdefinition of {l}\n"))
            .collect();
        let (entries, summary) = site_of(alphabet.clone(), &lines.join("\n"), &defs);
        assert_eq!(entries.len(), lines.len(), "{}", alphabet.name());
        assert_eq!(summary.unused_definitions, 0, "{:?}", summary.unused_words);
        assert!(summary.bad_lines.is_empty(), "{:?}", summary.bad_lines);
        for l in lines.iter() {
            let word = alphabet.decode(&alphabet.encode(l).unwrap());
            let e = entries.iter().find(|e| e.word == word).unwrap();
            let defs: Vec<&str> = e.senses.iter().map(|s| s.definition.as_str()).collect();
            assert_eq!(defs, [format!("definition of {l}")], "{l} is {word}");
        }
    }
    // A headword the alphabet cannot read is a bad line naming why.
    let (entries, summary) = site_of(
        lexq::Alphabet::english(),
        "cafe\ncare",
        "cafe\u{301}\tn\ta drink\nCAFÉ\tn\ta drink\ncare\tn\tconcern\n",
    );
    let reasons: Vec<(usize, &str)> = summary
        .bad_lines
        .iter()
        .map(|b| (b.line, b.reason.as_str()))
        .collect();
    assert_eq!(reasons.len(), 2, "{reasons:?}");
    assert!(
        reasons[0]
            .1
            .contains("is not a letter of the english alphabet"),
        "{reasons:?}"
    );
    assert!(
        entries
            .iter()
            .find(|e| e.word == "CAFE")
            .unwrap()
            .senses
            .is_empty()
    );
}

#[test]
fn a_repeated_definition_line_shows_once() {
    let defs = "care\tv\tfeel concern\ncare\tv\tfeel concern\nCARE\tv\t feel concern\nCare\tn\tfeel concern\ncare\tfeel concern\n";
    let (entries, summary) = site_of(lexq::Alphabet::english(), "care\ncat", defs);
    let care = entries.iter().find(|e| e.word == "CARE").unwrap();
    let got: Vec<(Option<Pos>, &str)> = care
        .senses
        .iter()
        .map(|s| (s.pos, s.definition.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (Some(Pos::Verb), "feel concern"),
            (Some(Pos::Noun), "feel concern"),
            (None, "feel concern")
        ]
    );
    assert_eq!(summary.senses, 3);
    // Across files too, and in JSON Lines.
    let mut d = lexq_site::sources::Definitions::new(&lexq::Alphabet::english());
    d.read_bytes("a.tsv".as_ref(), b"cat\tn\ta pet\n", true)
        .unwrap();
    d.read_bytes(
        "b.jsonl".as_ref(),
        br#"{"word": "Cat", "definition": "a pet", "pos": "n"}"#,
        true,
    )
    .unwrap();
    assert_eq!((d.words["CAT"].len(), d.duplicates, d.count), (1, 1, 1));
    assert_eq!(d.words["CAT"][0].source, "a.tsv");
}
