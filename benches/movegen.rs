//! Move-generation benchmarks over `benches/positions.cgp` (greedy
//! self-play with ENABLE, about a third of racks holding a blank, every
//! game phase; regenerate with `bash benches/positions.sh`).
//!
//! Groups: `all` (every move of every position, counted), `best` (the best
//! move only), `class` (every move, positions split by blanks on the rack:
//! none, one, two); in `class`, `two_blanks_sample` runs
//! `benches/two-blanks.cgp`, the 24 positions of 1000 more games whose
//! rack holds both blanks (the main set has only 3). One iteration runs
//! every position of the set once; divide by the position count for
//! µs/position. Run with
//! `cargo bench --bench movegen` (add `-- --quick` for a fast pass).

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use lexq::{Lexicon, game::Best, game::Count, game::Generator, game::Position};

fn positions<'l>(lex: &'l Lexicon, text: &str) -> Vec<Position<'l>> {
    text.lines()
        .map(|l| Position::from_cgp(lex, l).expect("a valid position"))
        .collect()
}

fn count_all(generator: &mut Generator, set: &[&Position<'_>]) -> usize {
    let mut total = 0;
    for p in set {
        let mut c = Count(0);
        generator.generate(&p.board, &p.rack(), &mut c);
        total += c.0;
    }
    total
}

fn bench(c: &mut Criterion) {
    let lex = Box::leak(Box::new(Lexicon::embedded()));
    let all = positions(lex, include_str!("positions.cgp"));
    let refs: Vec<&Position<'_>> = all.iter().collect();
    let mut generator = Generator::new();
    let moves = count_all(&mut generator, &refs);
    eprintln!("{} positions, {moves} moves", refs.len());

    let mut g = c.benchmark_group("all");
    g.sample_size(10).measurement_time(Duration::from_secs(8));
    g.throughput(Throughput::Elements(moves as u64));
    g.bench_function("count", |b| {
        b.iter(|| black_box(count_all(&mut generator, &refs)))
    });
    g.finish();

    let mut g = c.benchmark_group("best");
    g.sample_size(10).measurement_time(Duration::from_secs(8));
    g.throughput(Throughput::Elements(refs.len() as u64));
    g.bench_function("top1", |b| {
        b.iter(|| {
            for p in &refs {
                let mut best = Best::default();
                generator.generate(&p.board, &p.rack(), &mut best);
                black_box(best.best);
            }
        })
    });
    g.finish();

    let mut g = c.benchmark_group("class");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    for (blanks, name) in [(0, "no_blank"), (1, "one_blank"), (2, "two_blanks")] {
        let set: Vec<&Position<'_>> = all.iter().filter(|p| p.rack().count(0) == blanks).collect();
        if set.is_empty() {
            continue;
        }
        let n = count_all(&mut generator, &set);
        eprintln!("{name}: {} positions, {n} moves", set.len());
        g.throughput(Throughput::Elements(n as u64));
        g.bench_function(name, |b| {
            b.iter(|| black_box(count_all(&mut generator, &set)))
        });
    }
    let two = positions(lex, include_str!("two-blanks.cgp"));
    let set: Vec<&Position<'_>> = two.iter().collect();
    let n = count_all(&mut generator, &set);
    eprintln!("two_blanks_sample: {} positions, {n} moves", set.len());
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function("two_blanks_sample", |b| {
        b.iter(|| black_box(count_all(&mut generator, &set)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
