//! What search queries cost on a site: for each query, the reads it was
//! estimated to make before it ran and the reads it made (see
//! `lexq_site::cost`), its best time over some runs, the best time of its
//! estimate alone (`Site::estimate`, which `lexq serve` works out to price
//! a search before running it), nanoseconds per estimated read, and the
//! most heap it held at once (a counting allocator). With no query given, a search for
//! the heaviest query the bounds accept on ENABLE + WordNet: every kind of
//! part at its dearest, and families of queries grown until refused
//! (ranges of words, prefixes, phrases of common words, disjunctions and
//! exclusions of them); the 25 slowest that ran are printed last.
//!
//! ```text
//! cargo run --release -p lexq-site --example query_cost -- SITE ['QUERY'...]
//! ```
//!
//! Runs each query under the default bounds unless `LEXQ_MAX_READS` says
//! otherwise (`LEXQ_MAX_READS=1000000000` shows what refused queries would
//! cost). Time is the best of `LEXQ_RUNS` runs (default 20), on one
//! thread; pin it (`taskset -c 1`) on a loaded machine.

#[path = "../tests/common/held.rs"]
mod held;

use std::time::Instant;

use lexq_site::{QueryBounds, Site, SiteError, Stop};

#[global_allocator]
static ALLOC: held::Counting = held::Counting;

/// Heavy queries of every kind on ENABLE + WordNet.
const HEAVY: &[&str] = &[
    "*",
    "-a",
    "word:*",
    "definition:*",
    "-definition:*",
    "pos:*",
    "base_form:*",
    "front_hooks:*",
    "back_hooks:*",
    "anagrams:*",
    "length:[0 TO 100]",
    "length: IN [2 3 4 5 6 7 8 9 10 11 12 13 14 15]",
    "a",
    "definition:a",
    "a OR the OR of OR or OR to OR and OR in OR is",
    "definition:a OR definition:the OR definition:of OR definition:or OR definition:to OR definition:and OR definition:in OR definition:is OR definition:for OR definition:with OR definition:that OR definition:by OR definition:as OR definition:an OR definition:from OR definition:on",
    "definition:a AND definition:the AND definition:of AND definition:or",
    "definition:\"of the\"",
    "definition:\"a the of or to and in\"~32",
    "definition:\"a of\"~32",
    "definition:\"a of the or to and in is for with that by as an from on\"~32",
    "definition:\"of a\" definition:\"in the\" definition:\"to a\" definition:\"or the\"",
    "s*",
    "definition:s*",
    "word:s*",
    "definition:c* OR definition:p*",
    "definition:[a TO z]",
    "word:[a TO z]",
    "definition:\"of th\"*",
];

/// The commonest words of ENABLE's definitions.
const COMMON: &[&str] = &[
    "a",
    "the",
    "of",
    "or",
    "to",
    "and",
    "in",
    "is",
    "for",
    "with",
    "that",
    "by",
    "as",
    "an",
    "from",
    "on",
    "used",
    "having",
    "be",
    "not",
    "it",
    "make",
    "one",
    "who",
    "at",
    "being",
    "some",
    "something",
    "into",
    "out",
    "become",
    "has",
];

/// Families of heavy queries.
fn families() -> Vec<String> {
    let mut out = Vec::new();
    let letters: Vec<char> = ('a'..='z').collect();
    for field in [
        "word",
        "definition",
        "base_form",
        "anagrams",
        "alphagram",
        "back_hooks",
    ] {
        for &end in &letters {
            out.push(format!("{field}:[a TO {end}]"));
        }
    }
    for &c in &letters {
        out.push(format!("{c}*"));
        for field in ["word", "definition", "base_form", "anagrams"] {
            out.push(format!("{field}:{c}*"));
        }
        for &d in &letters[..6] {
            out.push(format!("{c}{d}*"));
        }
    }
    for k in 1..=COMMON.len() {
        let words = &COMMON[..k];
        out.push(
            words
                .iter()
                .map(|w| format!("definition:{w}"))
                .collect::<Vec<_>>()
                .join(" OR "),
        );
        out.push(words.join(" OR "));
        out.push(format!("* -{}", words.join(" -")));
        out.push(format!("definition:\"{}\"~32", words.join(" ")));
        out.push(format!("definition:\"{}\"", words.join(" ")));
        let pairs: Vec<String> = words
            .windows(2)
            .map(|w| format!("definition:\"{} {}\"~32", w[0], w[1]))
            .collect();
        if !pairs.is_empty() {
            out.push(pairs.join(" OR "));
            out.push(pairs.join(" AND "));
        }
    }
    for n in 1..=12 {
        out.push(format!("definition:\"{}\"", vec!["a"; n].join(" ")));
        out.push(format!("definition:\"{}\"", vec!["of the"; n].join(" ")));
    }
    out
}

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args.next().expect("usage: query_cost SITE ['QUERY'...]");
    let queries: Vec<String> = args.collect();
    let search = queries.is_empty();
    let queries: Vec<String> = if search {
        HEAVY
            .iter()
            .map(|q| q.to_string())
            .chain(families())
            .collect()
    } else {
        queries
    };
    let mut ran: Vec<(f64, u64, usize, String)> = Vec::new();
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse().ok());
    let bounds = QueryBounds {
        max_reads: env("LEXQ_MAX_READS").unwrap_or(QueryBounds::default().max_reads),
        ..QueryBounds::default()
    };
    let runs: u32 = env("LEXQ_RUNS").map_or(20, |n: u64| n as u32);
    let site = Site::open(dir.as_ref()).expect("a site directory");
    println!("estimate\treads\tbest ms\testimate ms\tns/read\tpeak KiB\ttotal\tquery");
    for q in &queries {
        let (first, peak) = held::peak_of(|| site.search_with(q, 20, 0, &bounds, &Stop::never()));
        let peak = peak / 1024;
        let hits = match first {
            Ok(h) => h,
            Err(SiteError::BadQuery { reason, .. }) => {
                println!("-\t-\t-\t-\t-\t{peak}\t-\t{q}\trefused: {reason}");
                continue;
            }
            Err(e) => panic!("{q}: {e}"),
        };
        // The search and its estimate alone, alternating.
        let (mut best, mut estimate) = (f64::INFINITY, f64::INFINITY);
        for _ in 0..runs {
            let t = Instant::now();
            let h = site.search_with(q, 20, 0, &bounds, &Stop::never()).unwrap();
            best = best.min(t.elapsed().as_secs_f64() * 1000.0);
            std::hint::black_box(h);
            let t = Instant::now();
            let e = site.estimate(q, &bounds, &Stop::never()).unwrap();
            estimate = estimate.min(t.elapsed().as_secs_f64() * 1000.0);
            std::hint::black_box(e);
        }
        let per_read = best * 1e6 / hits.estimated_reads.max(1) as f64;
        println!(
            "{}\t{}\t{best:.2}\t{estimate:.3}\t{per_read:.1}\t{peak}\t{}\t{q}",
            hits.estimated_reads, hits.reads, hits.total
        );
        ran.push((best, hits.reads, peak, q.clone()));
    }
    if search {
        ran.sort_by(|a, b| b.0.total_cmp(&a.0));
        println!(
            "\nslowest of {} queries that ran (ms, reads, peak KiB):",
            ran.len()
        );
        for (ms, reads, peak, q) in ran.iter().take(25) {
            println!("{ms:.2}\t{reads}\t{peak}\t{q}");
        }
    }
}
