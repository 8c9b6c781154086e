//! Crafted lexicons: damage behind re-sealed checksums, as someone making a
//! hostile file would. No open, no query and no use of the fst view may
//! panic or hang; the checked open refuses what is malformed, and what it
//! accepts answers as the good file does. fst's own reader is run on the
//! same bytes to show the damage is real (it panics on many of them).

use crate::targets;

use std::ops::Range;
use std::panic;

use lexq::{Alphabet, Lexicon, WordList, build, raw::format};

use proptest::prelude::*;

fn built(words: &str) -> Vec<u8> {
    let mut list = WordList::new(Alphabet::english());
    list.read_bytes("t".as_ref(), words.as_bytes()).unwrap();
    build(&list, &mut ()).unwrap().bytes
}

fn small() -> Vec<u8> {
    built("aa\naah\nab\nabs\ncat\ncats\nqi\nzzz\n")
}

fn u64_at(file: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(file[at..at + 8].try_into().unwrap())
}

/// Where a lexicon file's fst section is (header fields at 56 and 64, see
/// `lexq::raw::format`).
fn fst_section(file: &[u8]) -> Range<usize> {
    let at = u64_at(file, 56) as usize;
    at..at + u64_at(file, 64) as usize
}

/// Where a lexicon file's arc table is (header fields at 80 and 88).
fn arcs_section(file: &[u8]) -> Range<usize> {
    let at = u64_at(file, 80) as usize;
    at..at + u64_at(file, 88) as usize
}

/// The fst byte of tile code `c` (as `lexq::raw::gaddag` documents it).
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

/// Everything a user may do with the fst view of `lex`, if it is handed
/// out: streams, lookups, automata, set operations.
fn use_the_fst_view(lex: &Lexicon) {
    use fst::automaton::{Automaton, Str, Subsequence};
    use fst::{IntoStreamer, Streamer};
    let Ok(set) = lex.fst_set() else { return };
    let mut n = 0;
    let mut s = set.stream();
    while s.next().is_some() && n < 100_000 {
        n += 1;
    }
    for key in [&b"e"[..], b"ee", b"eet", b"/"] {
        let _ = set.contains(key);
        let mut s = set.search(Str::new("e").starts_with()).into_stream();
        while s.next().is_some() {}
        let mut s = set.range().ge(key).into_stream();
        while s.next().is_some() {}
    }
    let mut s = set.search(Subsequence::new("ee")).into_stream();
    while s.next().is_some() {}
    static OTHER: std::sync::LazyLock<Lexicon> =
        std::sync::LazyLock::new(|| Lexicon::from_bytes(built("ab\nabs\nzoo\n")).unwrap());
    let other = OTHER.fst_set().unwrap();
    let mut s = set.op().add(&other).difference();
    let mut k = 0;
    while s.next().is_some() && k < 1000 {
        k += 1;
    }
}

/// Every value of every byte of the fst section, re-sealed: lexq never
/// panics (the fuzz target's checks run on each), and neither does the
/// `fst` crate on any fst view lexq hands out, while fst's reader panics
/// on many of the same sections read directly.
#[test]
fn every_byte_of_the_fst_every_value() {
    let good = small();
    let fst = fst_section(&good);
    let hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    let (mut fst_panicked, mut refused, mut accepted) = (0, 0, 0);
    let mut variants = Vec::new();
    for at in fst.start..fst.end - 4 {
        for v in 0..=255u8 {
            if v == good[at] {
                continue;
            }
            let mut bad = good.clone();
            bad[at] = v;
            assert!(format::reseal(&mut bad));
            if fst_panics(&bad[fst.clone()]) {
                fst_panicked += 1;
            }
            variants.push(bad);
        }
    }
    panic::set_hook(hook);
    for bad in &variants {
        targets::lexicon(bad);
        // Opened unchecked: the fst is checked when its view is asked for.
        let lex = Lexicon::from_bytes(bad.clone()).expect("the arc table is intact");
        use_the_fst_view(&lex);
        match Lexicon::from_bytes_checked(bad.clone()) {
            Ok(_) => accepted += 1,
            Err(e) => {
                // The fst's own check, or the arc table no longer matching
                // it.
                let e = e.to_string();
                assert!(
                    e.contains("corrupt fst section") || e.contains("corrupt arcs section"),
                    "{e}"
                );
                assert!(lex.verify().is_err());
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

/// An automaton of `levels` nodes, each with transitions on A and B to the
/// one below, both ending a key (the last to the empty final node): it
/// holds 2^(levels + 1) - 2 keys, none empty, in a few hundred bytes. As
/// an fst section whose footer states `stated_keys` keys, and as an arc
/// table (width 16).
fn exponential(levels: usize, stated_keys: u64) -> (Vec<u8>, Vec<u64>) {
    // Key bytes of codes 1 and 2 (A and B), in increasing byte order.
    let (a, b) = (key_byte(1), key_byte(2));
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    let mut out = Vec::new();
    out.extend_from_slice(&3u64.to_le_bytes());
    out.extend_from_slice(&0u64.to_le_bytes());
    let mut below = 0u64; // the empty final node
    for level in 0..levels {
        let start = out.len() as u64;
        let delta = if below == 0 { 0 } else { start - below };
        let tsize = if delta < 256 { 1 } else { 2 };
        for _ in 0..2 {
            out.extend_from_slice(&delta.to_le_bytes()[..tsize]);
        }
        out.extend_from_slice(&[hi, lo]);
        out.push((tsize as u8) << 4);
        // Final (every node but the root), two transitions.
        let last = level + 1 == levels;
        out.push(if last { 0 } else { 0b0100_0000 } | 2);
        below = out.len() as u64 - 1;
    }
    out.extend_from_slice(&stated_keys.to_le_bytes());
    out.extend_from_slice(&below.to_le_bytes());
    let sum = crc32c::crc32c(&out)
        .rotate_right(15)
        .wrapping_add(0xa282_ead8);
    out.extend_from_slice(&sum.to_le_bytes());
    // The table: arc 0 points at the root (index 1); level k's node is
    // arcs 1 + 2k (A) and 2 + 2k (B, the end), both accepting, leading to
    // the next level (0 below the last).
    let mut arcs = vec![1 << 8 | 0x80];
    for k in 0..levels {
        let next = if k + 1 == levels {
            0
        } else {
            1 + 2 * (k as u64 + 1)
        };
        arcs.push(next << 8 | 0x40 | 1);
        arcs.push(next << 8 | 0x80 | 0x40 | 2);
    }
    (out, arcs)
}

/// A version 4 file with `fst` as its fst section and `arcs` (packed at
/// `width` bits) as its arc table, the header's figures set and the whole
/// re-sealed, made by hand from the documented layout (`lexq::raw::format`).
fn v4_file(fst: &[u8], arcs: &[u64], width: u32, words: u64, keys: u64, max_len: u32) -> Vec<u8> {
    let mut file = small();
    let fst_at = fst_section(&file).start;
    file.truncate(fst_at);
    file.extend_from_slice(fst);
    file.resize(file.len().next_multiple_of(8), 0);
    let arcs_at = file.len();
    let (mut acc, mut n) = (0u128, 0u32);
    let mut counts = [0u32; 64];
    for &a in arcs {
        acc |= (a as u128) << n;
        n += width;
        while n >= 8 {
            file.push(acc as u8);
            acc >>= 8;
            n -= 8;
        }
    }
    for &a in &arcs[1..] {
        counts[(a & 63) as usize] += 1;
    }
    if n > 0 {
        file.push(acc as u8);
    }
    file.extend_from_slice(&[0; 8]);
    let put =
        |file: &mut Vec<u8>, at: usize, v: u64| file[at..at + 8].copy_from_slice(&v.to_le_bytes());
    put(&mut file, 16, words);
    put(&mut file, 24, keys);
    file[32..36].copy_from_slice(&max_len.to_le_bytes());
    put(&mut file, 64, fst.len() as u64);
    put(&mut file, 80, arcs_at as u64);
    let arcs_len = (file.len() - arcs_at) as u64;
    put(&mut file, 88, arcs_len);
    put(&mut file, 96, arcs.len() as u64);
    file[104] = width as u8;
    for (c, n) in counts.iter().enumerate() {
        file[128 + 4 * c..132 + 4 * c].copy_from_slice(&n.to_le_bytes());
    }
    assert!(format::reseal(&mut file));
    file
}

/// Whole keys at most `depth` letters down from `node`.
fn finals(node: lexq::raw::Node<'_>, depth: usize) -> u64 {
    if depth == 0 {
        return 0;
    }
    node.edges()
        .map(|e| u64::from(e.accepts()) + finals(e.target(), depth - 1))
        .sum()
}

#[test]
fn more_keys_than_stated_is_refused_by_the_check() {
    // 2^61 - 2 keys stated as 10 (in the fst and the header): the
    // unchecked open answers lookups, the checked open refuses it (a full
    // walk would never end), and so does the fst view.
    let (fst, arcs) = exponential(60, 10);
    let file = v4_file(&fst, &arcs, 16, 10, 10, 60);
    let lex = Lexicon::from_bytes(file.clone()).unwrap();
    assert!(lex.is_word("abba").unwrap());
    assert_eq!(finals(lex.arcs().root(), 3), 14);
    let err = lex.fst_set().unwrap_err().to_string();
    assert!(
        err.contains("holds 2305843009213693950 keys, the header says 10"),
        "{err}"
    );
    let err = Lexicon::from_bytes_checked(file).unwrap_err().to_string();
    assert!(
        err.contains("holds 2305843009213693950 keys, the header says 10"),
        "{err}"
    );
    // Stated honestly, a small one is accepted, by both.
    let (fst, arcs) = exponential(4, 30);
    let honest = v4_file(&fst, &arcs, 16, 30, 30, 4);
    let lex = Lexicon::from_bytes_checked(honest.clone()).unwrap();
    assert_eq!(finals(lex.arcs().root(), 10), 30);
    assert_eq!(lex.fst_set().unwrap().len(), 30);
    // Every width the format allows reads the same table: 12 bits hold
    // these 9 arcs, and 33 to 40 are what tables of more than 2^24 arcs
    // (lists of millions of words) take. Narrower than the arc count
    // needs, or wider than 40, is refused.
    for width in 12..=40 {
        let file = v4_file(&fst, &arcs, width, 30, 30, 4);
        let lex = Lexicon::from_bytes_checked(file).unwrap();
        assert_eq!(finals(lex.arcs().root(), 10), 30, "width {width}");
        assert_eq!(lex.arcs().width(), width);
    }
    for width in [11, 41] {
        let file = v4_file(&fst, &arcs, width, 30, 30, 4);
        assert!(Lexicon::from_bytes(file).is_err(), "width {width}");
    }
    // A wrong word count, longest word or key count is refused.
    let (fst, arcs) = exponential(4, 30);
    for (words, keys, max) in [(29, 30, 4), (30, 30, 5), (30, 31, 4)] {
        let bad = v4_file(&fst, &arcs, 16, words, keys, max);
        assert!(
            Lexicon::from_bytes_checked(bad).is_err(),
            "{words} {keys} {max}"
        );
    }
    // A table that reads otherwise than the fst is refused: B's arc at the
    // last level not accepting.
    let mut other = arcs.clone();
    *other.last_mut().unwrap() &= !0x40;
    let bad = v4_file(&fst, &other, 16, 30, 30, 4);
    let err = Lexicon::from_bytes_checked(bad).unwrap_err().to_string();
    assert!(err.contains("corrupt arcs section"), "{err}");
    // A table with a cycle (the last level back to the root) answers
    // lookups unchecked, bounded by the longest word, and is refused.
    let mut cycle = arcs;
    let n = cycle.len();
    cycle[n - 2] |= 1 << 8;
    cycle[n - 1] |= 1 << 8;
    let bad = v4_file(&fst, &cycle, 16, 30, 30, 4);
    let lex = Lexicon::from_bytes(bad.clone()).unwrap();
    assert!(lex.is_word("abab").unwrap());
    let _ = lex.pattern("*");
    let _ = lex.anagram("abababab??");
    assert!(Lexicon::from_bytes_checked(bad).is_err());
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
fn footer_damage_is_refused_when_the_fst_is_asked_for() {
    let good = small();
    let n = fst_section(&good).end;
    // Root address, key count and fst version, each re-sealed.
    for (at, v) in [(n - 12, 0xffu8), (n - 5, 0x7f), (n - 20, 0x01), (n - 30, 0)] {
        let mut bad = good.clone();
        bad[at] ^= v;
        format::reseal(&mut bad);
        let lex = Lexicon::from_bytes(bad.clone()).expect("the arc table is intact");
        assert!(lex.is_word("cats").unwrap());
        if lex.fst_set().is_ok() {
            // The damage missed the footer: the check must still hold.
            lex.verify().unwrap();
        } else {
            assert!(lex.verify().is_err());
        }
    }
    let fst_at = fst_section(&good).start;
    let mut v2 = good.clone();
    v2[fst_at] = 2;
    format::reseal(&mut v2);
    let lex = Lexicon::from_bytes(v2).unwrap();
    let err = lex.fst_set().unwrap_err().to_string();
    assert!(err.contains("fst format version 2"), "{err}");
    // Damage not re-sealed is the fst section's checksum.
    let mut flipped = good.clone();
    flipped[fst_at + 20] ^= 1;
    let lex = Lexicon::from_bytes(flipped).unwrap();
    let err = lex.fst_set().unwrap_err().to_string();
    assert!(
        err.contains("corrupt fst section (checksum mismatch)"),
        "{err}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// A few random edits anywhere in the fst section or the arc table,
    /// re-sealed.
    #[test]
    fn random_edits_never_panic(
        edits in proptest::collection::vec((any::<bool>(), any::<prop::sample::Index>(), any::<u8>()), 1..6),
    ) {
        let mut bad = small();
        let (fst, arcs) = (fst_section(&bad), arcs_section(&bad));
        for (in_fst, at, v) in edits {
            let range = if in_fst { fst.clone() } else { arcs.clone() };
            bad[range.start + at.index(range.len())] = v;
        }
        format::reseal(&mut bad);
        targets::lexicon(&bad);
    }
}

/// Move generation and the word queries that walk the arc table, on a
/// lexicon whose table may be damaged: they may find less, never panic.
fn walk_the_table(lex: &Lexicon) {
    let empty = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15";
    for cgp in [
        format!("{empty} ACST?/ 0/0 0"),
        "15/15/15/15/15/15/15/6CAT6/15/15/15/15/15/15/15 AHS??Q/ 0/0 0".to_string(),
    ] {
        if let Ok(pos) = lexq::game::Position::from_cgp(lex, &cgp) {
            let mut all = lexq::game::All::default();
            lexq::game::Generator::new().generate(&pos.board, &pos.rack(), &mut all);
            let mut best = lexq::game::Best::default();
            lexq::game::Generator::new().generate(&pos.board, &pos.rack(), &mut best);
        }
    }
    let _ = lex.anagram("cats");
    let _ = lex.hooks("at");
    // With the letters below each node too (the server's set-up).
    lex.prepare_walks();
    let _ = lex.anagram("cats");
    let _ = lex.anagram("cat?");
    let _ = lex.subanagram("ahz??");
    let _ = lex.contains("a");
    let _ = lex.pattern("?a*");
    let _ = lex.regex("[a-c]+s?");
}

/// `lexq find`, `suggest`, `extensions` and `diff` on a lexicon whose table
/// may be damaged: no panic, and diff's words (against the good lexicon
/// and itself) come out strictly increasing, as a merge of two sorted
/// streams must, even where a damaged list's arcs are out of code order.
/// Returns every word diff reports (good against damaged, both ways).
fn study_the_table(good: &Lexicon, lex: &Lexicon) -> Vec<Vec<u8>> {
    use lexq::find::{Condition, Query, Range};
    let query = Query::new()
        .with(Condition::Length(Range::between(2, 4)))
        .with(Condition::Anagrams(Range::at_least(1)))
        .with(Condition::BackHook(None))
        .without(Condition::Includes("q".into()))
        .with(Condition::Any(vec![
            vec![lexq::find::Term::is(Condition::Contains("a".into()))],
            vec![lexq::find::Term::is(Condition::IsBackHook)],
        ]));
    let _ = lex.find(&query);
    let _ = lex.find(&Query::new().with(Condition::Subanagram {
        rack: "ac?s".into(),
        through: None,
    }));
    let _ = lex.suggest("cta", 2);
    let _ = lex.extensions("a", Some(2), None);
    let mut changed = Vec::new();
    for (old, new) in [(good, lex), (lex, good), (lex, lex)] {
        let mut last: Option<Vec<u8>> = None;
        lexq::diff::diff(old, new, |_, w| {
            if let Some(l) = &last {
                assert!(
                    l.as_slice() < w,
                    "diff's words out of order: {l:?} then {w:?}"
                );
            }
            last = Some(w.to_vec());
            changed.push(w.to_vec());
            std::ops::ControlFlow::Continue(())
        })
        .unwrap();
    }
    changed
}

/// Every value of every byte of the arc table, re-sealed: no panic and no
/// endless walk on open, move generation or queries; the checked open
/// refuses the table unless it still holds exactly the fst's keys (an arc
/// led to another copy of the same list, say), and then every word is
/// the same.
#[test]
fn every_byte_of_the_arc_table_every_value() {
    let good = small();
    let section = arcs_section(&good);
    let good_lex = Lexicon::from_bytes(good.clone()).unwrap();
    let words = Lexicon::from_bytes(good.clone())
        .unwrap()
        .pattern("*")
        .unwrap()
        .to_strings();
    let (mut refused, mut same) = (0, 0);
    for at in section.clone() {
        for v in 0..=255u8 {
            if v == good[at] {
                continue;
            }
            let mut bad = good.clone();
            bad[at] = v;
            assert!(format::reseal(&mut bad));
            let lex = match Lexicon::from_bytes(bad.clone()) {
                Ok(lex) => lex,
                Err(e) => panic!("byte {at} = {v:#x}: the checksums hold: {e}"),
            };
            walk_the_table(&lex);
            let changed = study_the_table(&good_lex, &lex);
            match Lexicon::from_bytes_checked(bad) {
                Err(_) => refused += 1,
                Ok(checked) => {
                    assert!(changed.is_empty(), "byte {at} = {v:#x}: diff {changed:?}");
                    assert_eq!(
                        checked.pattern("*").unwrap().to_strings(),
                        words,
                        "byte {at} = {v:#x}"
                    );
                    same += 1;
                }
            }
        }
    }
    eprintln!(
        "{} bytes of arcs: {refused} variants refused, {same} the same words",
        section.len()
    );
    assert!(refused > 1000, "{refused} refused");
}
