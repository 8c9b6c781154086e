//! The time an open of a lexicon file takes, in one process, as a library
//! caller sees it (`docs/BENCHMARKS.md`, "Opening a file"):
//!
//! ```text
//! cargo run --release --example open_timing -- [--mode M] [--reps N] FILE
//!     N opens of FILE (default 21), each dropped before the next; prints
//!     the median and the fastest in microseconds. M is open (the default,
//!     `Lexicon::open`), header (read, `Checks::Header`), map (the
//!     `unsafe` map, `Checks::Crc`) or map-header (the map,
//!     `Checks::Header`)
//! cargo run --release --example open_timing -- --build LIST OUT
//!     builds the lexicon of the word list LIST into OUT (`build_file`)
//! ```
//!
//! `--mode open` and `--build` use only names that every lexq of format 4
//! has: with the other arms of `open` deleted, the same source times an
//! older checkout.

use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--build") {
        let [_, list, out] = &args[..] else {
            return Err("usage: open_timing --build LIST OUT".into());
        };
        let mut words = lexq::WordList::new(lexq::Alphabet::english());
        words.read_path(list.as_ref())?;
        lexq::build_file(&words, out.as_ref(), &mut ())?;
        return Ok(());
    }
    let (mut mode, mut reps, mut file) = ("open".to_string(), 21usize, None);
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--mode" => mode = it.next().ok_or("--mode takes a value")?,
            "--reps" => reps = it.next().ok_or("--reps takes a value")?.parse()?,
            _ => file = Some(a),
        }
    }
    let file = file.ok_or("usage: open_timing [--mode M] [--reps N] FILE")?;
    let mut times = Vec::with_capacity(reps);
    let mut words = 0;
    for _ in 0..reps {
        let start = Instant::now();
        let lex = open(&mode, &file)?;
        times.push(start.elapsed().as_secs_f64() * 1e6);
        words = lex.word_count();
    }
    times.sort_by(f64::total_cmp);
    println!(
        "mode={mode} words={words} reps={reps} median_us={:.0} min_us={:.0}",
        times[times.len() / 2],
        times[0]
    );
    Ok(())
}

fn open(mode: &str, file: &str) -> Result<lexq::Lexicon, Box<dyn std::error::Error>> {
    use lexq::{Checks, OpenOptions};
    let header = OpenOptions::new().checks(Checks::Header);
    Ok(match mode {
        "open" => lexq::Lexicon::open(file)?,
        "header" => header.read(file)?,
        // SAFETY: nothing writes into the file while this program runs.
        "map" => unsafe { OpenOptions::new().map(file)? },
        // SAFETY: as above.
        "map-header" => unsafe { header.map(file)? },
        _ => return Err(format!("unknown mode {mode}").into()),
    })
}
