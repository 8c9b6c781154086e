//! Crafted lexicons: damage behind re-sealed checksums, as someone making a
//! hostile file would. No open and no query may panic; the checked open
//! refuses what is malformed, and what it accepts answers consistently.
//! fst's own reader is run on the same bytes to show the damage is real
//! (it panics on many of them).

#[path = "../fuzz/src/lib.rs"]
#[allow(dead_code)]
mod targets;

use std::panic;

use lexq::{Alphabet, Lexicon, WordList, build, format};

use proptest::prelude::*;

fn built(words: &str) -> Vec<u8> {
    let mut list = WordList::new(Alphabet::english());
    list.read_bytes("t".as_ref(), words.as_bytes()).unwrap();
    build(&list, &mut ()).unwrap().bytes
}

fn small() -> Vec<u8> {
    built("aa\naah\nab\nabs\ncat\ncats\nqi\nzzz\n")
}

/// Where a lexicon file's fst section starts (header field at 56, see
/// `lexq::format`).
fn fst_start(file: &[u8]) -> usize {
    u64::from_le_bytes(file[56..64].try_into().unwrap()) as usize
}

/// The fst byte of tile code `c` (as `lexq::gaddag` documents it).
fn key_byte(c: usize) -> u8 {
    b"te/oasripcnw.hlm-du012g=:bf3y5&_4v9678k%?xCDASFIBEjPTzRNM+LOqHGW"[c]
}

/// Whether fst's own reader panics streaming every key of `section`.
fn fst_panics(section: &[u8]) -> bool {
    use fst::Streamer;
    panic::catch_unwind(|| {
        if let Ok(set) = fst::Set::new(section) {
            let mut s = set.stream();
            let mut n = 0u32;
            while s.next().is_some() && n < 100_000 {
                n += 1;
            }
        }
    })
    .is_err()
}

/// Every value of every byte of the fst section, re-sealed: lexq never
/// panics (the fuzz target's checks run on each), while fst's reader
/// panics on some of the same files.
#[test]
fn every_byte_of_the_fst_every_value() {
    let good = small();
    let fst_at = fst_start(&good);
    let hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    let (mut fst_panicked, mut refused, mut accepted) = (0, 0, 0);
    let mut variants = Vec::new();
    for at in fst_at..good.len() - 4 {
        for v in 0..=255u8 {
            if v == good[at] {
                continue;
            }
            let mut bad = good.clone();
            bad[at] = v;
            assert!(format::reseal(&mut bad));
            if fst_panics(&bad[fst_at..]) {
                fst_panicked += 1;
            }
            variants.push(bad);
        }
    }
    panic::set_hook(hook);
    for bad in &variants {
        targets::lexicon(bad);
        match Lexicon::from_bytes_checked(bad.clone()) {
            Ok(_) => accepted += 1,
            Err(e) => {
                // The fst's own check, or the stored arc table no longer
                // matching it.
                let e = e.to_string();
                assert!(
                    e.contains("corrupt fst section") || e.contains("corrupt arcs section"),
                    "{e}"
                );
                refused += 1;
            }
        }
    }
    eprintln!(
        "{} variants: fst panics on {fst_panicked}, lexq's check refuses {refused}, accepts {accepted}",
        variants.len()
    );
    assert!(fst_panicked > 100, "the damage should be real");
    assert!(refused > fst_panicked);
}

/// A hand-made automaton: `levels` nodes, each final with transitions on
/// two letters to the one below (the last to the empty final node), so it
/// holds 2^(levels + 1) - 1 keys in a few hundred bytes. Its header may
/// state any key count.
fn exponential(levels: usize, stated_keys: u64) -> Vec<u8> {
    // Key bytes of codes 1 and 2 (A and B), in increasing byte order.
    let (a, b) = (key_byte(1), key_byte(2));
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    let mut out = Vec::new();
    out.extend_from_slice(&3u64.to_le_bytes());
    out.extend_from_slice(&0u64.to_le_bytes());
    let mut below = 0u64; // the empty final node
    for _ in 0..levels {
        let start = out.len() as u64;
        let delta = if below == 0 { 0 } else { start - below };
        let tsize = if delta < 256 { 1 } else { 2 };
        for _ in 0..2 {
            out.extend_from_slice(&delta.to_le_bytes()[..tsize]);
        }
        out.extend_from_slice(&[hi, lo]);
        out.push((tsize as u8) << 4);
        out.push(0b0100_0000 | 2); // final, two transitions
        below = out.len() as u64 - 1;
    }
    out.extend_from_slice(&stated_keys.to_le_bytes());
    out.extend_from_slice(&below.to_le_bytes());
    let sum = crc32c::crc32c(&out)
        .rotate_right(15)
        .wrapping_add(0xa282_ead8);
    out.extend_from_slice(&sum.to_le_bytes());
    // A small lexicon's header around it, its sizes and key count set,
    // without its arcs section (which is the old fst's).
    let mut file = small();
    let arcs_at = u64::from_le_bytes(file[80..88].try_into().unwrap()) as usize;
    file.truncate(arcs_at);
    file[76..96].fill(0);
    file[56..64].copy_from_slice(&(arcs_at as u64).to_le_bytes());
    file[24..32].copy_from_slice(&stated_keys.to_le_bytes());
    file[64..72].copy_from_slice(&(out.len() as u64).to_le_bytes());
    file.extend_from_slice(&out);
    assert!(format::reseal(&mut file));
    file
}

/// Whole keys (final nodes) at most `depth` letters down from `c`.
fn finals(c: lexq::Cursor<'_>, depth: usize) -> u64 {
    let below: u64 = if depth == 0 {
        0
    } else {
        c.letter_edges()
            .map(|e| finals(e.follow(), depth - 1))
            .sum()
    };
    u64::from(c.is_word()) + below
}

#[test]
fn more_keys_than_stated_is_refused_by_the_check() {
    // 2^61 - 1 keys stated as 10: the unchecked open answers lookups, the
    // checked open refuses it (a full walk would never end).
    let file = exponential(60, 10);
    let lex = Lexicon::from_bytes(file.clone()).unwrap();
    assert!(lex.is_word("abba").unwrap());
    assert_eq!(finals(lex.cursor(), 3), 15);
    let err = Lexicon::from_bytes_checked(file).unwrap_err().to_string();
    assert!(
        err.contains("holds 2305843009213693951 keys, the header says 10"),
        "{err}"
    );
    // Stated honestly, a small one is accepted.
    let honest = exponential(4, 31);
    let lex = Lexicon::from_bytes_checked(honest).unwrap();
    assert_eq!(finals(lex.cursor(), 10), 31);
    assert!(Lexicon::from_bytes_checked(exponential(4, 30)).is_err());
}

#[test]
fn own_builds_pass_the_check() {
    Lexicon::from_bytes_checked(small()).unwrap();
    Lexicon::embedded().verify().unwrap();
    let spanish = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/spanish-sample.txt"
    ))
    .unwrap();
    let mut list = WordList::new(Alphabet::spanish());
    list.read_bytes("es".as_ref(), &spanish).unwrap();
    Lexicon::from_bytes_checked(build(&list, &mut ()).unwrap().bytes).unwrap();
}

#[test]
fn footer_damage_is_refused_on_every_open() {
    let good = small();
    let n = good.len();
    // Root address, key count and fst version, each re-sealed.
    for (at, v) in [
        (n - 12, 0xffu8),
        (n - 5, 0x7f),
        (n - 20, 0x01),
        (good.len() - 30, 0),
    ] {
        let mut bad = good.clone();
        bad[at] ^= v;
        format::reseal(&mut bad);
        if let Ok(lex) = Lexicon::from_bytes(bad.clone()) {
            // The damage missed the footer: the check must still hold.
            let _ = lex.verify();
        }
    }
    let fst_at = fst_start(&good);
    let mut v2 = good.clone();
    v2[fst_at] = 2;
    format::reseal(&mut v2);
    let err = Lexicon::from_bytes(v2).unwrap_err().to_string();
    assert!(err.contains("fst format version 2"), "{err}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// A few random edits anywhere in the fst section, re-sealed.
    #[test]
    fn random_edits_never_panic(edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6)) {
        let mut bad = small();
        let fst_at = fst_start(&bad);
        let n = bad.len() - fst_at;
        for (at, v) in edits {
            bad[fst_at + at.index(n)] = v;
        }
        format::reseal(&mut bad);
        targets::lexicon(&bad);
    }
}

/// Where a lexicon file's arcs section is (header fields at 80 and 88).
fn arcs_section(file: &[u8]) -> std::ops::Range<usize> {
    let at = u64::from_le_bytes(file[80..88].try_into().unwrap()) as usize;
    let len = u64::from_le_bytes(file[88..96].try_into().unwrap()) as usize;
    at..at + len
}

/// Move generation and the word queries that walk the arc table, on a
/// lexicon whose table may be damaged: they may find less, never panic.
fn walk_the_table(lex: &Lexicon) {
    let Ok(arcs) = lex.arcs() else { return };
    let _ = arcs.len();
    let empty = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15";
    for cgp in [
        format!("{empty} ACST?/ 0/0 0"),
        "15/15/15/15/15/15/15/6CAT6/15/15/15/15/15/15/15 AHS??Q/ 0/0 0".to_string(),
    ] {
        if let Ok(pos) = lexq::Position::from_cgp(lex, &cgp) {
            let mut all = lexq::All::default();
            lexq::Generator::new().generate(&pos.board, &pos.rack(), &mut all);
            let mut best = lexq::Best::default();
            lexq::Generator::new().generate(&pos.board, &pos.rack(), &mut best);
        }
    }
    let _ = lex.anagram("cats");
    // With the letters below each node too (the server's set-up).
    let _ = lex.prepare_walks();
    let _ = lex.anagram("cats");
    let _ = lex.anagram("cat?");
    let _ = lex.subanagram("ahz??");
    let _ = lex.contains("a");
    let _ = lex.pattern("?a*");
}

/// Every word of the stored arc table (read in place, unchecked) set to
/// values that break it, re-sealed: no panic on open, move generation or
/// queries; the checked open refuses every one (the table no longer
/// matches the fst).
#[test]
fn every_word_of_the_arc_table_damaged() {
    let good = small();
    let section = arcs_section(&good);
    assert!(section.len() >= 8 && section.len() % 4 == 0);
    assert!(Lexicon::from_bytes(good.clone()).unwrap().arcs().is_ok());
    let mut n = 0;
    for at in section.clone().step_by(4) {
        let old = u32::from_le_bytes(good[at..at + 4].try_into().unwrap());
        for v in [
            old ^ 0x3f,
            old ^ 0x40,
            old ^ 0x80,
            old ^ 0x100,
            old.wrapping_add(1 << 8),
            0xffff_ffff,
            0,
            old | 0xff00_0000,
            old & 0xff,
        ] {
            if v == old {
                continue;
            }
            let mut bad = good.clone();
            bad[at..at + 4].copy_from_slice(&v.to_le_bytes());
            assert!(format::reseal(&mut bad));
            let lex = Lexicon::from_bytes(bad.clone()).expect("the checksums hold");
            walk_the_table(&lex);
            assert!(
                Lexicon::from_bytes_checked(bad).is_err(),
                "word at {at} set to {v:#x}"
            );
            n += 1;
        }
    }
    assert!(n > 100, "{n} variants");
}
