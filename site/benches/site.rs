//! Site benchmarks on ENABLE + WordNet 3.1 (fetched by
//! site/fetch-wordnet.sh): the whole site build, and in-process latency
//! of each query kind the issue measured for SQLite FTS5 (word lookup,
//! phrase, top 20 by relevance, anagrams, prefix), the prefix and
//! anagram kinds answered by the GADDAG as the server does.
//!
//! `cargo bench -p lexq-site` (the build samples take about a second each).

use std::path::PathBuf;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use lexq::Lexicon;
use lexq_site::Site;
use lexq_site::build::{BuildOptions, build};

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
    lex.arcs().unwrap();
    let out = target().join("site-bench/queries");
    if lexq_site::Site::open(&out).is_err() {
        build(&lex, None, &options(), &out, &mut ()).unwrap();
    }
    let site = Site::open(&out).unwrap();
    let mut g = c.benchmark_group("query");
    g.bench_function("word page CARES (index)", |b| {
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
    g.bench_function("anagram AEINRST (GADDAG)", |b| {
        b.iter(|| lex.anagram("aeinrst").unwrap().to_strings())
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

criterion_group!(benches, bench_build, bench_queries);
criterion_main!(benches);
