//! Runs one rack query many times on a lexicon only opened, for profiling
//! the rack walk: `cargo run --release --example rack_loop -- RACK [N]
//! [sub|all] [THROUGH]` (then `valgrind --tool=callgrind` on the binary;
//! divide by N). Prints the number of words found.

use std::hint::black_box;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rack = args.get(1).map_or("AEINRST?", String::as_str);
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(100);
    let sub = args.get(3).is_some_and(|s| s == "sub");
    let through = args.get(4);
    let lex = lexq::Lexicon::embedded();
    let mut found = 0;
    for _ in 0..n {
        let mut search = lex.search();
        if let Some(t) = through {
            search = search.through(t);
        }
        let words = if sub {
            search.subanagram(black_box(rack))
        } else {
            search.anagram(black_box(rack))
        };
        found = words.map_or(0, |w| w.len());
    }
    println!("{found}");
}
