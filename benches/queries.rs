//! Query benchmarks on the embedded ENABLE lexicon.
//!
//! The workload is the `$` lines of the query suites under `queries/*.txt`
//! (or of the files or folders listed in `LEXQ_BENCH_QUERIES`, separated by
//! `:`). Each line is read as the arguments given to the `lexq` binary; the
//! subcommand and its positional arguments (plus `--through`/`-t`) are mapped
//! to the library call, and every other flag (`--len`, `--limit`, `--json`,
//! ...) is ignored, so every query runs over all word lengths.
//!
//! One benchmark per query type; one iteration runs every query of that type
//! in the workload, in order. With `LEXQ_BENCH_EACH=1`, each query is also
//! timed on its own (group `each`). Group `scan` is the baseline measured
//! in the same run: a plain scan of the word list in memory for the same
//! contains/starts/ends/regex queries. Run with `cargo bench --bench
//! queries` (add `-- --quick` for a fast pass).

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use lexq::Lexicon;

/// Flags of `lexq` that take a value (the value is skipped along with them).
const VALUE_FLAGS: &[&str] = &[
    "-L",
    "--lexicon",
    "--len",
    "--min-len",
    "--max-len",
    "--limit",
    "--sort",
    "-o",
    "--output",
    "--alphabet",
];

/// A query type: a benchmark of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Check,
    Contains,
    Starts,
    Ends,
    Hooks,
    Pattern,
    Regex,
    Anagram,
    Subanagram,
    AnagramThrough,
    SubanagramThrough,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Check => "check",
            Kind::Contains => "contains",
            Kind::Starts => "starts",
            Kind::Ends => "ends",
            Kind::Hooks => "hooks",
            Kind::Pattern => "pattern",
            Kind::Regex => "regex",
            Kind::Anagram => "anagram",
            Kind::Subanagram => "subanagram",
            Kind::AnagramThrough => "anagram_through",
            Kind::SubanagramThrough => "subanagram_through",
        }
    }
}

/// One library call of the workload.
#[derive(Clone, Debug)]
struct Query {
    kind: Kind,
    /// The positional arguments (several words for check and hooks).
    args: Vec<String>,
    through: Option<String>,
    /// Where it came from, for messages.
    origin: String,
}

impl Query {
    /// Runs the query; returns how many results it gave.
    fn run(&self, lex: &Lexicon) -> lexq::Result<usize> {
        let search = lex.search();
        let first = self.args[0].as_str();
        let through = self.through.as_deref();
        Ok(match self.kind {
            Kind::Check => {
                let mut n = 0;
                for w in &self.args {
                    n += usize::from(lex.is_word(w)?);
                }
                n
            }
            Kind::Hooks => {
                let mut n = 0;
                for w in &self.args {
                    let h = lex.hooks(w)?;
                    n += h.front.len() + h.back.len();
                }
                n
            }
            Kind::Contains => search.contains(first)?.len(),
            Kind::Starts => search.starts(first)?.len(),
            Kind::Ends => search.ends(first)?.len(),
            Kind::Pattern => search.pattern(first)?.len(),
            Kind::Regex => search.regex(first)?.len(),
            Kind::Anagram | Kind::AnagramThrough => through
                .map_or(search, |t| search.through(t))
                .anagram(first)?
                .len(),
            Kind::Subanagram | Kind::SubanagramThrough => through
                .map_or(search, |t| search.through(t))
                .subanagram(first)?
                .len(),
        })
    }
}

/// Reads the query of one `$` line, or `None` for subcommands that are not
/// queries (build, info, verify), lines without an argument and lines for
/// another lexicon (`-L`).
fn parse_line(line: &str, origin: String) -> Option<Query> {
    let mut tokens = line.split_whitespace();
    let mut sub = None;
    let mut args = Vec::new();
    let mut through = None;
    while let Some(t) = tokens.next() {
        if t == "-L" || t == "--lexicon" || t.starts_with("--lexicon=") {
            // Another lexicon than the embedded one: not this workload.
            return None;
        } else if t == "-t" || t == "--through" {
            through = tokens.next().map(String::from);
        } else if let Some(v) = t.strip_prefix("--through=") {
            through = Some(v.to_string());
        } else if VALUE_FLAGS.contains(&t) {
            tokens.next();
        } else if t.starts_with('-') && t.len() > 1 {
            // A boolean flag or `--flag=value`: ignored.
        } else if sub.is_none() {
            sub = Some(t);
        } else {
            args.push(t.to_string());
        }
    }
    let kind = match (sub?, through.is_some()) {
        ("check", _) => Kind::Check,
        ("contains", _) => Kind::Contains,
        ("starts", _) => Kind::Starts,
        ("ends", _) => Kind::Ends,
        ("hooks", _) => Kind::Hooks,
        ("pattern", _) => Kind::Pattern,
        ("regex", _) => Kind::Regex,
        ("anagram", false) => Kind::Anagram,
        ("anagram", true) => Kind::AnagramThrough,
        ("subanagram", false) => Kind::Subanagram,
        ("subanagram", true) => Kind::SubanagramThrough,
        _ => return None,
    };
    if args.is_empty() {
        return None;
    }
    if !matches!(kind, Kind::Check | Kind::Hooks) {
        args.truncate(1);
    }
    Some(Query {
        kind,
        args,
        through,
        origin,
    })
}

/// The suite files: `LEXQ_BENCH_QUERIES` (files or folders, `:`-separated)
/// or `queries/*.txt`.
fn suite_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let sources: Vec<PathBuf> = match std::env::var_os("LEXQ_BENCH_QUERIES") {
        Some(v) => std::env::split_paths(&v).collect(),
        None => vec![root.join("queries")],
    };
    let mut files = Vec::new();
    for src in sources {
        if src.is_dir() {
            let mut in_dir: Vec<PathBuf> = std::fs::read_dir(&src)
                .unwrap_or_else(|e| panic!("reading {}: {e}", src.display()))
                .map(|e| e.expect("reading a folder entry").path())
                .filter(|p| p.extension().is_some_and(|e| e == "txt"))
                .collect();
            in_dir.sort();
            files.extend(in_dir);
        } else {
            files.push(src);
        }
    }
    files
}

/// Every query of the workload, grouped by type. Queries that fail on `lex`
/// (the suites' error cases, `? 2`) are left out with a note.
fn workload(lex: &Lexicon) -> BTreeMap<Kind, Vec<Query>> {
    let mut by_kind: BTreeMap<Kind, Vec<Query>> = BTreeMap::new();
    for file in suite_files() {
        let text = std::fs::read_to_string(&file)
            .unwrap_or_else(|e| panic!("reading {}: {e}", file.display()));
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        for (i, line) in text.lines().enumerate() {
            let Some(rest) = line.strip_prefix('$') else {
                continue;
            };
            let Some(q) = parse_line(rest, format!("{name}:{}", i + 1)) else {
                continue;
            };
            match q.run(lex) {
                Ok(_) => by_kind.entry(q.kind).or_default().push(q),
                Err(e) => eprintln!("workload: leaving out {}: {}: {e}", q.origin, rest.trim()),
            }
        }
    }
    by_kind
}

fn queries(c: &mut Criterion) {
    let lex = Lexicon::embedded();
    let work = workload(&lex);
    assert!(!work.is_empty(), "no queries found under queries/*.txt");
    // What each iteration does.
    for (kind, qs) in &work {
        let results: usize = qs.iter().map(|q| q.run(&lex).expect("ran before")).sum();
        eprintln!(
            "workload {:<18} {:>3} queries, {:>6} results per iteration",
            kind.name(),
            qs.len(),
            results
        );
    }
    let mut group = c.benchmark_group("queries");
    group
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for (kind, qs) in &work {
        group.bench_function(kind.name(), |b| {
            b.iter(|| {
                let mut n = 0;
                for q in qs {
                    n += q.run(black_box(&lex)).expect("ran before");
                }
                black_box(n)
            })
        });
    }
    group.finish();

    // With LEXQ_BENCH_EACH set, every query on its own too, to find the
    // slow ones of a type.
    if std::env::var_os("LEXQ_BENCH_EACH").is_some() {
        let mut each = c.benchmark_group("each");
        each.warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(1));
        for q in work.values().flatten() {
            let mut id = format!("{} {}", q.kind.name(), q.args.join(" "));
            if let Some(t) = &q.through {
                id.push_str(&format!(" -t {t}"));
            }
            each.bench_function(id, |b| {
                b.iter(|| q.run(black_box(&lex)).expect("ran before"))
            });
        }
        each.finish();
    }

    // The baseline, measured in the same run: a plain scan of the word list
    // in memory (what a grep does, minus reading the file) for the same
    // contains/starts/ends/regex queries.
    let list =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("indexes/enable1.txt"))
            .expect("reading indexes/enable1.txt");
    let words: Vec<String> = list.lines().map(str::to_uppercase).collect();
    let mut scan = c.benchmark_group("scan");
    scan.warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for kind in [Kind::Contains, Kind::Starts, Kind::Ends, Kind::Regex] {
        let Some(qs) = work.get(&kind) else { continue };
        let needles: Vec<String> = qs.iter().map(|q| q.args[0].to_uppercase()).collect();
        let regexes: Vec<regex::Regex> = needles
            .iter()
            .filter(|_| kind == Kind::Regex)
            .map(|r| regex::Regex::new(&format!("(?i)^(?:{r})$")).expect("valid regex"))
            .collect();
        scan.bench_function(kind.name(), |b| {
            b.iter(|| {
                let mut n = 0;
                for (i, needle) in needles.iter().enumerate() {
                    n += words
                        .iter()
                        .filter(|w| match kind {
                            Kind::Contains => w.contains(needle.as_str()),
                            Kind::Starts => w.starts_with(needle.as_str()),
                            Kind::Ends => w.ends_with(needle.as_str()),
                            _ => regexes[i].is_match(w),
                        })
                        .count();
                }
                black_box(n)
            })
        });
    }
    scan.finish();

    // Racks with blanks, in process (issue 23's goal: at most 100 µs each).
    let mut blanks = c.benchmark_group("blanks");
    blanks
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    // `prepared`: after Lexicon::prepare_walks (the letters below each
    // node and the words by alphagram, which `lexq serve` builds at
    // start): these racks are then looked up, not walked.
    let prepared = Lexicon::embedded();
    prepared.prepare_walks();
    for rack in ["AEINRST?", "??AEINR"] {
        blanks.bench_function(format!("anagram {rack}"), |b| {
            b.iter(|| black_box(lex.search().anagram(black_box(rack)).unwrap().len()))
        });
        blanks.bench_function(format!("anagram {rack} prepared"), |b| {
            b.iter(|| black_box(prepared.search().anagram(black_box(rack)).unwrap().len()))
        });
    }
    // What preparing costs, once per process (opening included).
    blanks.bench_function("open + prepare_walks", |b| {
        b.iter(|| {
            let l = Lexicon::embedded();
            l.prepare_walks();
            black_box(l)
        })
    });
    blanks.finish();

    // Opening the embedded lexicon: what every CLI query pays before it runs.
    c.bench_function("open/embedded", |b| {
        b.iter(|| black_box(Lexicon::embedded()))
    });
    // Opening ENABLE as a file: `open` maps it and checks the header's and
    // the arc table's CRCs; `open_checked` also checks everything `verify`
    // does.
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("indexes/enable1.lexq");
    c.bench_function("open/file", |b| {
        b.iter(|| black_box(Lexicon::open(&file).unwrap()))
    });
    c.bench_function("open/checked", |b| {
        b.iter(|| black_box(Lexicon::open_checked(&file).unwrap()))
    });
}

criterion_group!(benches, queries);
criterion_main!(benches);
