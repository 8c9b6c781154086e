//! `find` against its most selective condition alone, in process, on the
//! embedded ENABLE lexicon (its arc table read in place, as the CLI reads it).
//!
//! Each pair is a combined query and the one query of today's commands it
//! starts from (the goal: the combined query within 1.5x). The
//! combined time includes compiling and planning the query (random dives
//! when several conditions could drive the walk); `walk` is the combined
//! query's walk alone, planned once beforehand. Run with
//! `taskset -c 1 cargo bench --bench find` (add `-- --quick` for a fast
//! pass); `benches/find.sh` compares the CLI with the shell pipelines and
//! rg over the word list.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use lexq::Lexicon;
use lexq::find::{Condition as C, Query, Range};

fn pairs(c: &mut Criterion) {
    let lex = Lexicon::embedded();
    let rack = |r: &str| C::Anagram {
        rack: r.into(),
        through: None,
    };
    // (name, combined query, the condition alone)
    type Alone = Box<dyn Fn(&Lexicon) -> usize>;
    let cases: Vec<(&str, Query, Alone)> = vec![
        (
            "ends_ing_len7_front_hook",
            Query::new()
                .with(C::Ends("ing".into()))
                .with(C::Length(Range::exactly(7)))
                .with(C::FrontHook(None)),
            Box::new(|l| l.search().lengths(7, 7).ends("ing").unwrap().len()),
        ),
        (
            "len7_q_not_u",
            Query::new()
                .with(C::Length(Range::exactly(7)))
                .with(C::Includes("q".into()))
                .without(C::Includes("u".into())),
            Box::new(|l| l.search().lengths(7, 7).regex("[^u]*q[^u]*").unwrap().len()),
        ),
        (
            "contains_qu_ends_ing",
            Query::new()
                .with(C::Contains("qu".into()))
                .with(C::Ends("ing".into())),
            Box::new(|l| l.contains("qu").unwrap().len()),
        ),
        (
            "starts_un_ends_able_vowels",
            Query::new()
                .with(C::Starts("un".into()))
                .with(C::Ends("able".into()))
                .with(C::Vowels(Range::at_most(4))),
            Box::new(|l| l.ends("able").unwrap().len()),
        ),
        (
            "anagram_blank_vowels3",
            Query::new()
                .with(rack("aeinrst?"))
                .with(C::Vowels(Range::exactly(3))),
            Box::new(|l| l.anagram("aeinrst?").unwrap().len()),
        ),
        (
            "pattern_points",
            Query::new()
                .with(C::Pattern("?a?e?".into()))
                .with(C::Points(Range::at_least(10))),
            Box::new(|l| l.pattern("?a?e?").unwrap().len()),
        ),
    ];
    let mut g = c.benchmark_group("find");
    g.warm_up_time(Duration::from_millis(500));
    g.measurement_time(Duration::from_secs(3));
    for (name, query, alone) in &cases {
        g.bench_function(format!("{name}/combined"), |b| {
            b.iter(|| black_box(lex.find(black_box(query)).unwrap().len()))
        });
        // The walk alone: the query compiled and planned once.
        let prepared = lex.prepare_find(query).unwrap();
        g.bench_function(format!("{name}/walk"), |b| {
            b.iter(|| black_box(prepared.run().len()))
        });
        g.bench_function(format!("{name}/alone"), |b| {
            b.iter(|| black_box(alone(&lex)))
        });
    }
    g.finish();
}

criterion_group!(benches, pairs);
criterion_main!(benches);
