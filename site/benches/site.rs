//! Site benchmarks on ENABLE + WordNet 3.1 (fetched by
//! site/fetch-wordnet.sh): the whole site build, and in-process latency
//! of each query kind the issue measured for SQLite FTS5 (word lookup,
//! phrase, top 20 by relevance, anagrams, prefix), the prefix and
//! anagram kinds answered by the GADDAG as the server does, and a prefix
//! of definition words (`stimul*`) on both sides.
//!
//! The baseline, measured in the same run: what a site owner would pick
//! instead, SQLite with an FTS5 table over the same data (one row per
//! word: word, alphagram, length, definitions, base forms; an index on
//! alphagram; FTS5 over the definitions), queried through rusqlite's
//! cached statements. Its rows hold the definitions lexq indexes (a
//! word's own senses: an inflection's page shows its base forms' senses,
//! read from their rows as lexq reads their pages). Its build is timed
//! twice: from rows already assembled in memory (lexq's build time
//! includes reading WordNet and computing inflections, hooks and
//! anagrams), and with the rows made from WordNet by lexq's own reader
//! (`entries`), as a site owner using lexq's reader would.
//!
//! `cargo bench -p lexq-site` (the build samples take about a second each).

use std::path::PathBuf;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use lexq::Lexicon;
use lexq_site::Site;
use lexq_site::build::{BuildOptions, build};

/// Racks for the anagram benchmarks beyond AEINRST (a dense rack): the
/// letters of every 800th 5-letter, 400th 7-letter and 800th 9-letter
/// ENABLE word, 101 racks, with the alphagrams the baseline looks up.
fn racks() -> Vec<(String, String)> {
    let text = include_str!("../../indexes/enable1.txt");
    let pick = |len: usize, step: usize| {
        text.lines()
            .filter(move |w| w.len() == len)
            .step_by(step)
            .map(str::to_string)
    };
    pick(5, 800)
        .chain(pick(7, 400))
        .chain(pick(9, 800))
        .map(|w| {
            let mut letters: Vec<char> = w.to_uppercase().chars().collect();
            letters.sort_unstable();
            (w, letters.into_iter().collect())
        })
        .collect()
}

fn target() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target"),
    }
}

fn options() -> BuildOptions {
    let wordnet = target().join("wordnet");
    assert!(
        wordnet.join("data.noun").is_file(),
        "run site/fetch-wordnet.sh first"
    );
    BuildOptions {
        wordnet: Some(wordnet),
        ..Default::default()
    }
}

fn bench_build(c: &mut Criterion) {
    let lex = Lexicon::embedded();
    let out = target().join("site-bench/build");
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    let opts = options();
    let mut g = c.benchmark_group("site");
    g.sample_size(10).measurement_time(Duration::from_secs(15));
    g.bench_function("build ENABLE+WordNet", |b| {
        b.iter(|| build(&lex, None, &opts, &out, &mut ()).unwrap())
    });
    g.finish();
    let summary = build(&lex, None, &opts, &out, &mut ()).unwrap();
    eprintln!("{}", summary.line(&out));
}

fn bench_queries(c: &mut Criterion) {
    let lex = Lexicon::embedded();
    // As the server does (`AppState::new`): the anagram kinds then walk the
    // arc table.
    lex.prepare_walks();
    let out = target().join("site-bench/queries");
    if lexq_site::Site::open(&out).is_err() {
        build(&lex, None, &options(), &out, &mut ()).unwrap();
    }
    let site = Site::open(&out).unwrap();
    let mut g = c.benchmark_group("query");
    // What the server's word page reads: the stored page, every field of
    // every sense visited (the baseline reads its row's four columns).
    g.bench_function("word page CARES (index)", |b| {
        b.iter(|| {
            let page = site.page("cares").unwrap().unwrap();
            let mut bytes = page.alphagram().len() + page.anagrams().count();
            for s in page.senses() {
                bytes += s.definition.len() + s.source.len();
                bytes += s.examples.chain(s.synonyms).map(str::len).sum::<usize>();
            }
            bytes
        })
    });
    g.bench_function("word page CARES as an owned Entry", |b| {
        b.iter(|| site.entry("cares").unwrap().unwrap())
    });
    g.bench_function("phrase \"chewed like tobacco\" top 20", |b| {
        b.iter(|| {
            site.search("definition:\"chewed like tobacco\"", 20, 0)
                .unwrap()
        })
    });
    g.bench_function("tool top 20", |b| {
        b.iter(|| site.search("definition:tool", 20, 0).unwrap())
    });
    g.bench_function("prefix stimul* top 20", |b| {
        b.iter(|| site.search("definition:stimul*", 20, 0).unwrap())
    });
    // The heaviest queries the default bounds accept (see
    // examples/query_cost.rs): 14 phrases of two common words with a slop
    // of 32, and every word but those with 16 common words.
    let near = near_pairs();
    let lexq_near: Vec<String> = near
        .iter()
        .map(|(a, b)| format!("definition:\"{a} {b}\"~32"))
        .collect();
    let lexq_near = lexq_near.join(" OR ");
    g.bench_function("14 phrases of common words ~32 top 20", |b| {
        b.iter(|| site.search(&lexq_near, 20, 0).unwrap())
    });
    let but = format!("* -{}", COMMON.join(" -"));
    g.bench_function("all but 16 common words top 20", |b| {
        b.iter(|| site.search(&but, 20, 0).unwrap())
    });
    g.bench_function("anagram AEINRST (GADDAG)", |b| {
        b.iter(|| lex.anagram("aeinrst").unwrap().to_strings())
    });
    let racks = racks();
    g.bench_function(format!("anagram {} racks (GADDAG)", racks.len()), |b| {
        b.iter(|| {
            racks
                .iter()
                .map(|(r, _)| lex.anagram(r).unwrap().to_strings().len())
                .sum::<usize>()
        })
    });
    g.bench_function("anagram AEINRST (index alphagram)", |b| {
        b.iter(|| site.search("alphagram:AEINRST", 20, 0).unwrap())
    });
    g.bench_function("starts QU, 805 words (GADDAG)", |b| {
        b.iter(|| lex.starts("qu").unwrap().to_strings())
    });
    g.bench_function("pattern C?R*S (GADDAG)", |b| {
        b.iter(|| lex.pattern("c?r*s").unwrap().to_strings())
    });
    g.finish();
}

/// Common words of ENABLE's definitions: the heaviest queries the default
/// bounds accept are made of them.
const COMMON: [&str; 16] = [
    "a", "the", "of", "or", "to", "and", "in", "is", "for", "with", "that", "by", "as", "an",
    "from", "on",
];

/// The first 15 common words, each with the next.
fn near_pairs() -> Vec<(&'static str, &'static str)> {
    COMMON[..15].windows(2).map(|w| (w[0], w[1])).collect()
}

/// One row of the FTS5 baseline.
struct Row {
    word: String,
    alphagram: String,
    length: i64,
    definitions: String,
    bases: String,
}

fn fts5_rows(lex: &Lexicon) -> Vec<Row> {
    let sources = lexq_site::build::Sources::read(&options(), lex.alphabet()).unwrap();
    let mut rows = Vec::new();
    lexq_site::build::entries(lex, &sources, &mut (), |e, _| {
        // Senses of base forms in the lexicon are on their rows.
        let linked = |b: &str| lex.is_word(b).unwrap_or(false);
        let definitions = e
            .senses
            .iter()
            .filter(|s| s.base_form.as_deref().is_none_or(|b| !linked(b)))
            .map(|s| match s.pos {
                Some(p) => format!("{}. {}", p.name(), s.definition),
                None => s.definition.clone(),
            })
            .collect::<Vec<_>>()
            .join("; ");
        let bases: Vec<&str> = e
            .base_forms
            .iter()
            .map(String::as_str)
            .filter(|b| linked(b))
            .collect();
        rows.push(Row {
            bases: bases.join(" "),
            word: e.word,
            alphagram: e.alphagram,
            length: e.length as i64,
            definitions,
        });
        Ok(())
    })
    .unwrap();
    rows
}

/// Writes the FTS5 database of `rows` to `path` (replacing it).
fn fts5_build(rows: &[Row], path: &std::path::Path) -> rusqlite::Connection {
    let _ = std::fs::remove_file(path);
    let mut db = rusqlite::Connection::open(path).unwrap();
    db.execute_batch(
        "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
         CREATE TABLE words(id INTEGER PRIMARY KEY, word TEXT NOT NULL UNIQUE,
             alphagram TEXT NOT NULL, length INTEGER NOT NULL, definitions TEXT NOT NULL,
             bases TEXT NOT NULL);
         CREATE VIRTUAL TABLE defs USING fts5(definitions, content='words', content_rowid='id',
             tokenize = 'porter unicode61 remove_diacritics 2');",
    )
    .unwrap();
    let tx = db.transaction().unwrap();
    {
        let mut insert = tx
            .prepare(
                "INSERT INTO words(word, alphagram, length, definitions, bases) \
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )
            .unwrap();
        for r in rows {
            insert
                .execute((&r.word, &r.alphagram, r.length, &r.definitions, &r.bases))
                .unwrap();
        }
    }
    tx.execute_batch(
        "CREATE INDEX words_alphagram ON words(alphagram);
         INSERT INTO defs(defs) VALUES ('rebuild');",
    )
    .unwrap();
    tx.commit().unwrap();
    db
}

fn bench_fts5(c: &mut Criterion) {
    let lex = Lexicon::embedded();
    let rows = fts5_rows(&lex);
    let path = target().join("site-bench/fts5.sqlite");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut g = c.benchmark_group("fts5");
    g.sample_size(10).measurement_time(Duration::from_secs(15));
    g.bench_function("build ENABLE+WordNet", |b| {
        b.iter(|| fts5_build(&rows, &path))
    });
    g.bench_function("build ENABLE+WordNet with its rows made", |b| {
        b.iter(|| fts5_build(&fts5_rows(&lex), &path))
    });
    g.finish();
    drop(fts5_build(&rows, &path));
    eprintln!(
        "fts5 baseline: {} rows, {} bytes",
        rows.len(),
        std::fs::metadata(&path).unwrap().len()
    );
    let db = rusqlite::Connection::open(&path).unwrap();
    let words = |sql: &str, arg: &str| -> Vec<String> {
        let mut st = db.prepare_cached(sql).unwrap();
        st.query_map([arg], |r| r.get::<_, String>(0))
            .unwrap()
            .map(|w| w.unwrap())
            .collect()
    };
    // The baseline answers what lexq answers.
    assert_eq!(
        words(
            "SELECT word FROM words WHERE alphagram = ?1 ORDER BY word",
            "AEINRST"
        )
        .len(),
        9
    );
    assert_eq!(
        words(
            "SELECT word FROM words WHERE word >= ?1 AND word < 'QV'",
            "QU"
        )
        .len(),
        805
    );
    let mut g = c.benchmark_group("fts5 query");
    // The row of CARES, then those of its base forms (CARE), as lexq reads
    // the page of CARES and the page of CARE.
    g.bench_function("word page CARES", |b| {
        b.iter(|| {
            let mut st = db
                .prepare_cached(
                    "SELECT word, alphagram, length, definitions, bases FROM words WHERE word = ?1",
                )
                .unwrap();
            let mut row = |w: &str| {
                st.query_row([w], |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, i64>(2)?,
                        r.get::<_, String>(3)?,
                        r.get::<_, String>(4)?,
                    ))
                })
                .unwrap()
            };
            let cares = row("CARES");
            let bases: Vec<_> = cares.4.split_ascii_whitespace().map(row).collect();
            assert_eq!(bases.len(), 1);
            (cares, bases)
        })
    });
    let top = "SELECT w.word, w.definitions FROM defs JOIN words w ON w.id = defs.rowid \
               WHERE defs MATCH ?1 ORDER BY rank LIMIT 20";
    let matching = |q: &str| -> Vec<(String, String)> {
        let mut st = db.prepare_cached(top).unwrap();
        st.query_map([q], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(|w| w.unwrap())
            .collect()
    };
    g.bench_function("phrase \"chewed like tobacco\" top 20", |b| {
        b.iter(|| matching("\"chewed like tobacco\""))
    });
    g.bench_function("tool top 20", |b| b.iter(|| matching("tool")));
    g.bench_function("prefix stimul* top 20", |b| b.iter(|| matching("stimul*")));
    // The heaviest queries lexq's bounds accept: FTS5's NEAR of two words
    // within 32 tokens, and every row but those matching any of the words.
    let near = near_pairs()
        .iter()
        .map(|(a, b)| format!("NEAR({a} {b}, 32)"))
        .collect::<Vec<_>>()
        .join(" OR ");
    assert!(!matching(&near).is_empty());
    g.bench_function("14 phrases of common words ~32 top 20", |b| {
        b.iter(|| matching(&near))
    });
    let but = "SELECT word, definitions FROM words WHERE id NOT IN \
               (SELECT rowid FROM defs WHERE defs MATCH ?1) LIMIT 20";
    let any = COMMON.join(" OR ");
    g.bench_function("all but 16 common words top 20", |b| {
        b.iter(|| {
            let mut st = db.prepare_cached(but).unwrap();
            st.query_map([&any], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
            })
            .unwrap()
            .map(|w| w.unwrap())
            .collect::<Vec<_>>()
        })
    });
    g.bench_function("anagram AEINRST (alphagram index)", |b| {
        b.iter(|| words("SELECT word FROM words WHERE alphagram = ?1", "AEINRST"))
    });
    let racks = racks();
    let found = |(r, _): &(String, String)| lex.anagram(r).unwrap().to_strings().len();
    let total: usize = racks.iter().map(found).sum();
    let baseline: usize = racks
        .iter()
        .map(|(_, a)| words("SELECT word FROM words WHERE alphagram = ?1", a).len())
        .sum();
    assert_eq!(total, baseline, "the baseline finds the same anagrams");
    g.bench_function(
        format!("anagram {} racks (alphagram index)", racks.len()),
        |b| {
            b.iter(|| {
                racks
                    .iter()
                    .map(|(_, a)| words("SELECT word FROM words WHERE alphagram = ?1", a).len())
                    .sum::<usize>()
            })
        },
    );
    g.bench_function("starts QU, 805 words (range)", |b| {
        b.iter(|| {
            words(
                "SELECT word FROM words WHERE word >= ?1 AND word < 'QV'",
                "QU",
            )
        })
    });
    g.finish();
}

/// People's definition searches, of this project's own making: what one
/// types into a dictionary's box (every word required).
const PEOPLE: [&str; 54] = [
    "small dog",
    "feel concern",
    "water bird",
    "tool for cutting",
    "cutting tool",
    "sharp knife",
    "musical instrument",
    "string instrument",
    "large cat",
    "wild animal",
    "red wine",
    "sweet food",
    "cooking pot",
    "sailing boat",
    "fast runner",
    "feeling of fear",
    "loud noise",
    "bright light",
    "cold weather",
    "heavy rain",
    "small house",
    "religious leader",
    "military officer",
    "sea creature",
    "flying insect",
    "poisonous snake",
    "medical doctor",
    "legal document",
    "money paid",
    "walking slowly",
    "talk quietly",
    "happy person",
    "angry man",
    "old woman",
    "young child",
    "wooden box",
    "metal container",
    "kitchen utensil",
    "farm animal",
    "climbing plant",
    "flowering shrub",
    "edible fruit",
    "green vegetable",
    "hot drink",
    "alcoholic beverage",
    "ice cream",
    "game played",
    "card game",
    "dance music",
    "ancient greek",
    "chemical element",
    "unit of measurement",
    "part of the body",
    "disease of the skin",
];

/// Recall and time of people's searches against FTS5 with the Porter
/// stemmer, same run: for each query, the words lexq finds (its
/// definitions only: `definition:a AND definition:b`), those FTS5 finds,
/// and those FTS5 finds that lexq misses (each one a finding); then the
/// top-20 time of each, alternating, the median of 15 rounds.
fn report_recall(_: &mut Criterion) {
    let lex = Lexicon::embedded();
    let out = target().join("site-bench/queries");
    if Site::open(&out).is_err() {
        build(&lex, None, &options(), &out, &mut ()).unwrap();
    }
    let site = Site::open(&out).unwrap();
    let path = target().join("site-bench/fts5-recall.sqlite");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let db = fts5_build(&fts5_rows(&lex), &path);
    let lexq_query = |q: &str| {
        q.split_whitespace()
            .map(|w| format!("definition:{w}"))
            .collect::<Vec<_>>()
            .join(" AND ")
    };
    let fts5_all = |q: &str| -> std::collections::BTreeSet<String> {
        let mut st = db
            .prepare_cached(
                "SELECT w.word FROM defs JOIN words w ON w.id = defs.rowid WHERE defs MATCH ?1",
            )
            .unwrap();
        st.query_map([q], |r| r.get::<_, String>(0))
            .unwrap()
            .map(|w| w.unwrap())
            .collect()
    };
    let fts5_top = |q: &str| -> Vec<String> {
        let mut st = db
            .prepare_cached(
                "SELECT w.word FROM defs JOIN words w ON w.id = defs.rowid \
                 WHERE defs MATCH ?1 ORDER BY rank LIMIT 20",
            )
            .unwrap();
        st.query_map([q], |r| r.get::<_, String>(0))
            .unwrap()
            .map(|w| w.unwrap())
            .collect()
    };
    println!(
        "| query | lexq | FTS5 + porter | FTS5's that lexq misses | lexq top 20 | FTS5 top 20 |"
    );
    println!("|---|---|---|---|---|---|");
    let (mut missed_all, mut lexq_all, mut fts5_n) = (0, 0, 0);
    let (mut lexq_time, mut fts5_time) = (Duration::ZERO, Duration::ZERO);
    for q in PEOPLE {
        let lq = lexq_query(q);
        let found: std::collections::BTreeSet<String> = site
            .search(&lq, 200_000, 0)
            .unwrap()
            .hits
            .into_iter()
            .map(|h| h.word)
            .collect();
        let theirs = fts5_all(q);
        let missed: Vec<&String> = theirs.difference(&found).collect();
        let (mut mine, mut other) = (Vec::new(), Vec::new());
        for _ in 0..15 {
            let t = std::time::Instant::now();
            std::hint::black_box(site.search(&lq, 20, 0).unwrap());
            mine.push(t.elapsed());
            let t = std::time::Instant::now();
            std::hint::black_box(fts5_top(q));
            other.push(t.elapsed());
        }
        mine.sort();
        other.sort();
        lexq_time += mine[7];
        fts5_time += other[7];
        println!(
            "| {q} | {} | {} | {} | {:.0} µs | {:.0} µs |",
            found.len(),
            theirs.len(),
            if missed.is_empty() {
                "none".to_string()
            } else {
                format!(
                    "{} ({})",
                    missed.len(),
                    missed
                        .iter()
                        .take(5)
                        .map(|w| w.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            },
            mine[7].as_secs_f64() * 1e6,
            other[7].as_secs_f64() * 1e6,
        );
        missed_all += missed.len();
        lexq_all += found.len();
        fts5_n += theirs.len();
    }
    println!(
        "| all {} | {lexq_all} | {fts5_n} | {missed_all} | {:.1} ms | {:.1} ms |",
        PEOPLE.len(),
        lexq_time.as_secs_f64() * 1e3,
        fts5_time.as_secs_f64() * 1e3
    );
}

/// GET `path` from the server at `a` on a connection of its own: the
/// status line's code and the body's length.
fn http_get(a: std::net::SocketAddr, path: &str) -> (u16, usize) {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(a).unwrap();
    s.set_nodelay(true).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = Vec::new();
    s.read_to_end(&mut answer).unwrap();
    let status = std::str::from_utf8(&answer[9..12])
        .unwrap()
        .parse()
        .unwrap();
    (status, answer.len())
}

/// The percentile `p` (0 to 100) of sorted `times`, in milliseconds.
fn percentile(times: &[Duration], p: f64) -> f64 {
    let i = ((times.len() - 1) as f64 * p / 100.0).round() as usize;
    times[i].as_secs_f64() * 1e3
}

/// Completions as a visitor's browser asks for them, through the server
/// (`/api/v1/complete?q=&limit=10`, a connection each, as a page's
/// script makes them without keep-alive): every prefix of one, two and
/// three letters that begins a word, and the first 4 to 8 letters of
/// every 211th word, 3 times over; p50, p99 and the slowest. The
/// reference in the same run: the same prefixes through SQLite (the
/// baseline's table, its index on `word`), in-process, the first 10
/// words in order.
fn report_completions(_: &mut Criterion) {
    let lex = Lexicon::embedded();
    let out = target().join("site-bench/queries");
    if Site::open(&out).is_err() {
        build(&lex, None, &options(), &out, &mut ()).unwrap();
    }
    let site = Site::open(&out).unwrap();
    let mut prefixes: std::collections::BTreeSet<String> = Default::default();
    let mut n = 0usize;
    lex.for_each_word(1, usize::MAX, |w| {
        let w = lex.alphabet().decode(w).to_lowercase();
        for k in 1..=3.min(w.len()) {
            prefixes.insert(w[..k].to_string());
        }
        if n.is_multiple_of(211) {
            for k in 4..=8.min(w.len()) {
                prefixes.insert(w[..k].to_string());
            }
        }
        n += 1;
        std::ops::ControlFlow::Continue(())
    });
    let prefixes: Vec<String> = prefixes.into_iter().collect();
    let state = lexq_site::serve::AppState::new(
        site.lexicon().unwrap(),
        Some(site),
        lexq_site::serve::Limits::default(),
        false,
    );
    let server = lexq_site::serve::Server::start("127.0.0.1:0", state).unwrap();
    let a = server.addr();
    let path = target().join("site-bench/fts5-complete.sqlite");
    let db = fts5_build(&fts5_rows(&lex), &path);
    let mut st = db
        .prepare_cached(
            "SELECT word FROM words WHERE word >= ?1 AND word < ?2 ORDER BY word LIMIT 10",
        )
        .unwrap();
    let (mut lexq_times, mut sqlite_times) = (Vec::new(), Vec::new());
    for round in 0..3 {
        for p in &prefixes {
            let upper = p.to_uppercase();
            let next = format!("{upper}\u{10ffff}");
            // Alternating which goes first.
            for side in [round % 2, 1 - round % 2] {
                let t = std::time::Instant::now();
                if side == 0 {
                    let (status, len) = http_get(a, &format!("/api/v1/complete?q={p}&limit=10"));
                    assert_eq!(status, 200, "{p}");
                    assert!(len > 0);
                    lexq_times.push(t.elapsed());
                } else {
                    let words: Vec<String> = st
                        .query_map([&upper, &next], |r| r.get::<_, String>(0))
                        .unwrap()
                        .map(|w| w.unwrap())
                        .collect();
                    assert!(!words.is_empty(), "{p}");
                    sqlite_times.push(t.elapsed());
                }
            }
        }
    }
    server.stop().unwrap();
    lexq_times.sort();
    sqlite_times.sort();
    println!(
        "completions: {} prefixes x 3; lexq server (HTTP, a connection each) p50 {:.3} ms, p99 {:.3} ms, slowest {:.3} ms; SQLite in-process p50 {:.3} ms, p99 {:.3} ms, slowest {:.3} ms",
        prefixes.len(),
        percentile(&lexq_times, 50.0),
        percentile(&lexq_times, 99.0),
        percentile(&lexq_times, 100.0),
        percentile(&sqlite_times, 50.0),
        percentile(&sqlite_times, 99.0),
        percentile(&sqlite_times, 100.0),
    );
}

criterion_group!(
    benches,
    bench_build,
    bench_queries,
    bench_fts5,
    report_recall,
    report_completions
);
criterion_main!(benches);
