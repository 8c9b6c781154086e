//! Leave tables (`src/game/leaves.rs`): KLV2 and CSV read to the same values.
//!
//! Oracles: a `HashMap` from each leave (tile codes sorted) to its value,
//! and a KLV2 writer of this test's own (a plain trie, written from the
//! map, sharing nothing with the library's reader or its CSV builder).
//! `tests/data/leaves/small.klv2` was made by wolges's `buildlex
//! english-klv2` from `small.csv` (a table of our own: every leave of one
//! or two tiles), so the reader is checked against a file wolges wrote.
//! Damaged files (every truncation, bit flips, random bytes) are one
//! error or a table that still answers, never a panic.

use std::collections::{BTreeMap, HashMap};

use crate::common::positions::Rng;
use lexq::game::leaves::{Leaves, LeavesErrorKind, equity, rank_by_equity};
use lexq::{Alphabet, game::Rack};

fn data(name: &str) -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/leaves")
        .join(name)
}

/// The millipoints of a value in points, rounded once from `f32`.
fn milli(points: f32) -> i32 {
    (points * 1000.0).round() as i32
}

/// A KLV2 file of `table` (leaves as sorted codes, values in points): a
/// trie, children of each node contiguous and in code order, the leaves
/// numbered in the order a depth-first walk meets them.
fn write_klv2(table: &BTreeMap<Vec<u8>, f32>) -> Vec<u8> {
    #[derive(Default)]
    struct Trie {
        accepts: bool,
        kids: BTreeMap<u8, Trie>,
    }
    let mut root = Trie::default();
    for key in table.keys() {
        let mut t = &mut root;
        for &c in key {
            t = t.kids.entry(c).or_default();
        }
        t.accepts = true;
    }
    // Breadth first: each node's children get the next free block.
    let mut nodes: Vec<u32> = vec![0];
    let mut queue: Vec<(&Trie, usize)> = vec![(&root, 0)];
    let mut head = 0;
    while head < queue.len() {
        let (t, at) = queue[head];
        head += 1;
        if t.kids.is_empty() {
            continue;
        }
        let first = nodes.len();
        nodes[at] |= first as u32;
        for (k, (&c, kid)) in t.kids.iter().enumerate() {
            let mut n = (c as u32) << 24;
            if kid.accepts {
                n |= 0x80_0000;
            }
            if k + 1 == t.kids.len() {
                n |= 0x40_0000;
            }
            nodes.push(n);
            queue.push((kid, first + k));
        }
    }
    nodes[0] |= 0x40_0000;
    let mut out = Vec::new();
    out.extend((nodes.len() as u32).to_le_bytes());
    for n in &nodes {
        out.extend(n.to_le_bytes());
    }
    // BTreeMap order on sorted codes is the depth-first order.
    out.extend((table.len() as u32).to_le_bytes());
    for v in table.values() {
        out.extend(v.to_bits().to_le_bytes());
    }
    out
}

fn csv_of(table: &BTreeMap<Vec<u8>, f32>, a: &Alphabet) -> String {
    let mut s = String::new();
    for (k, v) in table {
        s += &format!("{},{v}\n", Rack::from_codes(k).to_string(a));
    }
    s
}

fn random_table(rng: &mut Rng, size: usize, letters: u8) -> BTreeMap<Vec<u8>, f32> {
    let mut table = BTreeMap::new();
    while table.len() < size {
        let len = rng.below(6) + 1;
        let mut key: Vec<u8> = (0..len)
            .map(|_| rng.below(letters as usize + 1) as u8)
            .collect();
        key.sort_unstable();
        let v = (rng.below(80_000) as f32 - 40_000.0) / 997.0;
        table.insert(key, v);
    }
    table
}

fn random_rack(rng: &mut Rng, letters: u8) -> Vec<u8> {
    (0..rng.below(7) + 1)
        .map(|_| rng.below(letters as usize + 1) as u8)
        .collect()
}

#[test]
fn random_tables_read_from_klv2_and_csv_alike() {
    let en = Alphabet::english();
    let mut rng = Rng::new(41);
    for round in 0..12 {
        let table = random_table(&mut rng, 1 + round * 150, 26);
        let oracle: HashMap<Vec<u8>, i32> =
            table.iter().map(|(k, &v)| (k.clone(), milli(v))).collect();
        let klv = Leaves::from_klv2(&write_klv2(&table)).unwrap();
        let csv = Leaves::from_csv(&csv_of(&table, &en), &en).unwrap();
        assert_eq!((klv.len(), csv.len()), (table.len(), table.len()));
        for key in table.keys() {
            // In any order on the rack.
            let mut shuffled = key.clone();
            shuffled.reverse();
            let r = Rack::from_codes(&shuffled);
            assert_eq!(klv.value(&r), oracle[key], "{key:?}");
            assert_eq!(csv.value(&r), oracle[key], "{key:?}");
        }
        for _ in 0..2000 {
            let mut key = random_rack(&mut rng, 26);
            key.sort_unstable();
            let want = oracle.get(&key).copied().unwrap_or(0);
            let r = Rack::from_codes(&key);
            assert_eq!(klv.value(&r), want, "{key:?}");
            assert_eq!(csv.value(&r), want, "{key:?}");
        }
        assert_eq!(klv.value(&Rack::new()), 0);
        let entries: Vec<(Vec<u8>, i32)> = klv
            .entries()
            .into_iter()
            .map(|(r, v)| (r.codes().iter().map(|&c| c & 63).collect::<Vec<u8>>(), v))
            .map(|(mut k, v)| {
                k.sort_unstable();
                (k, v)
            })
            .collect();
        let want: Vec<(Vec<u8>, i32)> = table.iter().map(|(k, &v)| (k.clone(), milli(v))).collect();
        assert_eq!(entries, want);
    }
}

#[test]
fn a_table_written_by_wolges_reads_as_its_csv() {
    let en = Alphabet::english();
    let csv_text = std::fs::read_to_string(data("small.csv")).unwrap();
    let klv = Leaves::open(&data("small.klv2"), &en).unwrap();
    let csv = Leaves::open(&data("small.csv"), &en).unwrap();
    assert_eq!((klv.len(), csv.len(), klv.max_len()), (405, 405, 2));
    let mut n = 0;
    for line in csv_text.lines() {
        let (leave, value) = line.split_once(',').unwrap();
        let r = Rack::parse(leave, &en).unwrap();
        let want = milli(value.parse().unwrap());
        assert_eq!(klv.value(&r), want, "{leave}");
        assert_eq!(csv.value(&r), want, "{leave}");
        n += 1;
    }
    assert_eq!(n, 405);
    let v = |s: &str| klv.value(&Rack::parse(s, &en).unwrap());
    assert_eq!(
        (v("?"), v("QU"), v("UQ"), v("EE")),
        (24500, -4500, -4500, 1750)
    );
    assert_eq!(v("AEI"), 0, "three tiles: not in the table");
    assert_eq!(klv.entries(), csv.entries());
}

#[test]
fn equity_is_score_and_leave() {
    let en = Alphabet::english();
    let table = Leaves::open(&data("small.csv"), &en).unwrap();
    let lex = lexq::Lexicon::embedded();
    let pos = lexq::game::Position::from_cgp(
        &lex,
        "15/15/15/15/15/15/15/4CARE7/15/15/15/15/15/15/15 QUSTEEZ/ 12/0 0",
    )
    .unwrap();
    let rack = pos.rack();
    let mut all = lexq::game::All::default();
    lexq::game::Generator::new()
        .exchanges(true)
        .generate(&pos.board, &rack, &mut all);
    let mut moves = all.moves;
    rank_by_equity(&mut moves, &rack, &table);
    // By hand: each move's score in millipoints plus its leave's value,
    // the leave looked up in the CSV text itself.
    let csv_text = std::fs::read_to_string(data("small.csv")).unwrap();
    let by_text: HashMap<String, i32> = csv_text
        .lines()
        .map(|l| l.split_once(',').unwrap())
        .map(|(k, v)| {
            let mut t: Vec<char> = k.chars().collect();
            t.sort_unstable();
            (t.into_iter().collect(), milli(v.parse().unwrap()))
        })
        .collect();
    let hand = |m: &lexq::game::Move| {
        let mut left: Vec<char> = "QUSTEEZ".chars().collect();
        let spent: Vec<u8> = match m.kind() {
            lexq::game::MoveKind::Exchange => m.squares().to_vec(),
            _ => m.spent().collect(),
        };
        for t in spent {
            let ch = if t == 0 {
                '?'
            } else {
                en.label(t).unwrap().chars().next().unwrap()
            };
            let i = left.iter().position(|&c| c == ch).unwrap();
            left.remove(i);
        }
        left.sort_unstable();
        let key: String = left.into_iter().collect();
        m.score() * 1000 + by_text.get(&key).copied().unwrap_or(0)
    };
    for m in &moves {
        assert_eq!(equity(m, &rack, &table), hand(m), "{}", m.notation(&en));
    }
    for w in moves.windows(2) {
        assert!(hand(&w[0]) >= hand(&w[1]));
    }
    // The best keeps something: the Q-U pair's penalty and the S are worth
    // points beside raw score.
    let best_score = moves.iter().map(|m| m.score()).max().unwrap();
    assert!(hand(&moves[0]) >= best_score * 1000);
}

#[test]
fn csv_errors_name_their_line() {
    let en = Alphabet::english();
    let e = |text: &str| Leaves::from_csv(text, &en).unwrap_err();
    let err = e("A,1\n\nB 2\n");
    assert_eq!(err.line, Some(3));
    assert!(matches!(err.kind, LeavesErrorKind::Syntax(_)), "{err}");
    let err = e("A,1\nAB,2\nBA,3\n");
    assert_eq!(
        (err.line, err.kind.clone()),
        (Some(3), LeavesErrorKind::Duplicate("AB".into()))
    );
    assert_eq!(
        err.to_string(),
        "<memory>: line 3: the leave AB is listed twice"
    );
    assert!(matches!(
        e("A,NaN\n").kind,
        LeavesErrorKind::BadValue { .. }
    ));
    assert!(matches!(
        e("A,inf\n").kind,
        LeavesErrorKind::BadValue { .. }
    ));
    assert!(matches!(
        e("A,1e9\n").kind,
        LeavesErrorKind::BadValue { .. }
    ));
    assert!(matches!(e("A,x\n").kind, LeavesErrorKind::Syntax(_)));
    assert!(matches!(e("A1,2\n").kind, LeavesErrorKind::Syntax(_)));
    assert!(matches!(e("a,2\n").kind, LeavesErrorKind::Syntax(_)));
    assert!(matches!(e(",2\n").kind, LeavesErrorKind::Syntax(_)));
    assert!(matches!(
        e("AAAAAAAAAAAAAAAA,2\n").kind,
        LeavesErrorKind::TooLong(16)
    ));
    // Comments, blank lines, a byte-order mark, spaces and CRLF are fine.
    let t = Leaves::from_csv("\u{feff}# leaves\r\n\r\n A , 1.5 \r\n?,2\n", &en).unwrap();
    assert_eq!(t.value(&Rack::parse("A", &en).unwrap()), 1500);
    assert!(Leaves::from_csv("", &en).unwrap().is_empty());
}

#[test]
fn spanish_leaves_use_brackets() {
    let es = Alphabet::spanish();
    let t = Leaves::from_csv("[CH],-2.5\nCH,1\n[RR]?,4\n", &es).unwrap();
    let v = |s: &str| t.value(&Rack::parse(s, &es).unwrap());
    assert_eq!(v("[CH]"), -2500);
    assert_eq!(v("HC"), 1000);
    assert_eq!(v("?[RR]"), 4000);
    // A Spanish table (28 tiles) does not fit the English alphabet.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("es.klv2");
    let mut table = BTreeMap::new();
    table.insert(vec![28u8], 1.0f32);
    std::fs::write(&path, write_klv2(&table)).unwrap();
    assert!(Leaves::open(&path, &es).is_ok());
    let err = Leaves::open(&path, &Alphabet::english()).unwrap_err();
    assert!(
        err.to_string()
            .contains("tile code 28, the english alphabet only 26"),
        "{err}"
    );
}

#[test]
fn files_that_are_not_tables() {
    let en = Alphabet::english();
    let err = Leaves::open(std::path::Path::new("/dev/null"), &en).unwrap_err();
    assert!(err.to_string().contains("not a regular file"), "{err}");
    let err = Leaves::open(&data("no-such.klv2"), &en).unwrap_err();
    assert!(
        matches!(
            err.kind,
            LeavesErrorKind::Io {
                kind: std::io::ErrorKind::NotFound,
                ..
            }
        ),
        "{err}"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.klv");
    // Two nodes, one leave, a 16-bit value: wolges's older KLV.
    // Read: 1/256 points each, as the KLV2 of the same values in f32.
    for (raw, millipoints) in [(256i16, 1000), (-384, -1500), (i16::MIN, -128_000), (1, 4)] {
        let mut old = Vec::new();
        old.extend(2u32.to_le_bytes());
        old.extend((0x40_0001u32).to_le_bytes());
        old.extend((0x01c0_0000u32).to_le_bytes());
        old.extend(1u32.to_le_bytes());
        let mut klv2 = old.clone();
        old.extend(raw.to_le_bytes());
        klv2.extend((f32::from(raw) / 256.0).to_le_bytes());
        std::fs::write(&path, &old).unwrap();
        let table = Leaves::open(&path, &en).unwrap();
        let a = Rack::parse("A", &en).unwrap();
        assert_eq!(table.value(&a), millipoints, "{raw}");
        assert_eq!(Leaves::from_klv2(&klv2).unwrap().value(&a), millipoints);
    }
    // A CSV with a byte that is not UTF-8 (Latin-1, say) is a CSV with a
    // bad line, not a KLV2 file too short for its header.
    let latin = dir.path().join("latin1.csv");
    std::fs::write(&latin, b"AE,1\nQ,-7\nA\xc9,2\n").unwrap();
    let err = Leaves::open(&latin, &en).unwrap_err();
    assert_eq!(err.line, Some(3), "{err}");
    assert!(
        err.to_string().contains("byte 0xc9 is not UTF-8 text"),
        "{err}"
    );
    assert!(!err.to_string().contains("KLV2 file:"), "{err}");
    // A header announcing 2^32 - 1 nodes: refused before any allocation.
    let err = Leaves::from_klv2(&[0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]).unwrap_err();
    assert!(
        matches!(err.kind, LeavesErrorKind::Truncated { need, .. } if need > 1 << 34),
        "{err}"
    );
}

/// Reads `bytes` as KLV2 and, if they read, looks up every leave of up
/// to three tiles: nothing may panic.
fn survives(bytes: &[u8]) -> bool {
    match Leaves::from_klv2(bytes) {
        Err(e) => {
            assert!(!e.to_string().is_empty());
            false
        }
        Ok(t) => {
            let mut r = Rack::new();
            for a in 0..28u8 {
                r.add(a);
                let _ = t.value(&r);
                for b in a..28u8 {
                    r.add(b);
                    let _ = t.value(&r);
                    r.add(b);
                    let _ = t.value(&r);
                    r.remove(b);
                    r.remove(b);
                }
                r.remove(a);
            }
            let _ = t.entries();
            true
        }
    }
}

#[test]
fn damaged_klv2_files_are_errors_never_panics() {
    let good = std::fs::read(data("small.klv2")).unwrap();
    assert!(survives(&good));
    // Every truncation is an error (the header fixes the length), but
    // one: cut to two bytes a value, the file is what wolges's older KLV
    // would be, and reads as one (the format says no more).
    let values_at = 4 + 4 * u32::from_le_bytes(good[..4].try_into().unwrap()) as usize + 4;
    let leaves = u32::from_le_bytes(good[values_at - 4..values_at].try_into().unwrap()) as usize;
    for len in 0..good.len() {
        let read = Leaves::from_klv2(&good[..len]);
        if len == values_at + 2 * leaves {
            assert!(read.is_ok(), "{len} bytes: the older format");
        } else {
            assert!(read.is_err(), "truncated to {len} bytes");
        }
    }
    let mut longer = good.clone();
    longer.push(0);
    assert!(matches!(
        Leaves::from_klv2(&longer).unwrap_err().kind,
        LeavesErrorKind::Trailing(1)
    ));
    // Every single-bit flip in the header and nodes, a sample in values.
    let (mut refused, mut read) = (0, 0);
    for at in 0..good.len() {
        let bits: &[u8] = if at < values_at {
            &[0, 1, 2, 3, 4, 5, 6, 7]
        } else {
            &[6, 7]
        };
        for &bit in bits {
            let mut bad = good.clone();
            bad[at] ^= 1 << bit;
            if survives(&bad) {
                read += 1;
            } else {
                refused += 1;
            }
        }
    }
    // Many flips are caught (counts, ranges, cycles, values); a flipped
    // tile or value can still read as another table.
    assert!(refused > 200 && read > 0, "{refused} refused, {read} read");
    // Random bytes, and random nodes under a well-formed header.
    let mut rng = Rng::new(7);
    for _ in 0..3000 {
        let len = rng.below(120);
        let mut bytes: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).collect();
        survives(&bytes);
        let n = rng.below(24) + 1;
        let l = rng.below(24);
        bytes.clear();
        bytes.extend((n as u32).to_le_bytes());
        for _ in 0..n {
            let tile = rng.below(30) as u32;
            let flags = (rng.below(4) as u32) << 22;
            let arc = rng.below(n + 1) as u32;
            bytes.extend(((tile << 24) | flags | arc).to_le_bytes());
        }
        bytes.extend((l as u32).to_le_bytes());
        for _ in 0..l {
            bytes.extend((rng.below(200) as f32 - 100.0).to_bits().to_le_bytes());
        }
        survives(&bytes);
    }
}

/// Every distinct sub-multiset of `rack` (a string of one-char tiles) of
/// 1 to `max` tiles, as sorted strings: by choosing positions, then
/// dropping repeats.
fn sub_leaves(rack: &str, max: usize) -> Vec<String> {
    let chars: Vec<char> = rack.chars().collect();
    let mut out = std::collections::BTreeSet::new();
    for mask in 1u32..(1 << chars.len()) {
        if mask.count_ones() as usize > max {
            continue;
        }
        let mut s: Vec<char> = (0..chars.len())
            .filter(|&i| mask & (1 << i) != 0)
            .map(|i| chars[i])
            .collect();
        s.sort_unstable();
        out.insert(s.into_iter().collect::<String>());
    }
    out.into_iter().collect()
}

#[test]
fn leave_stats_equal_a_plain_count_of_self_play_turns() {
    use lexq::game::leavegen::LeaveStats;
    use lexq::{Lexicon, TileSet, game::Generator, game::Layout, game::selfplay};
    let lex = Lexicon::embedded();
    let en = lex.alphabet();
    let tiles = TileSet::named("english", en).unwrap();
    let table = std::sync::Arc::new(Leaves::open(&data("small.csv"), en).unwrap());
    // Turns of greedy games and of equity games with the small table.
    let mut turns: Vec<(String, i32)> = Vec::new();
    let mut stats = LeaveStats::new(7);
    for seed in 0..4 {
        let leaves = (seed % 2 == 1).then(|| table.clone());
        let mut a = Generator::new()
            .exchanges(leaves.is_some())
            .leaves(leaves.clone());
        let mut b = Generator::new().exchanges(leaves.is_some()).leaves(leaves);
        let mut one = LeaveStats::new(7);
        selfplay::play_with(
            &lex,
            &Layout::standard(),
            &tiles,
            seed,
            "",
            [&mut a, &mut b],
            |t| {
                if t.bag > 0 {
                    one.add_turn(t.rack, t.chosen.equity);
                    let text: String = t
                        .rack
                        .codes()
                        .iter()
                        .map(|&c| {
                            if c == 0 {
                                '?'
                            } else {
                                en.label(c).unwrap().chars().next().unwrap()
                            }
                        })
                        .collect();
                    turns.push((text, t.chosen.equity));
                }
            },
        )
        .unwrap();
        stats.merge(&one);
    }
    assert!(turns.len() > 60, "{} turns", turns.len());
    // By hand: sum and count of every leave of 1-6 tiles each rack holds.
    let mut seen: HashMap<String, (i64, u64)> = HashMap::new();
    for (rack, equity) in &turns {
        for leave in sub_leaves(rack, 6) {
            let e = seen.entry(leave).or_default();
            e.0 += i64::from(*equity);
            e.1 += 1;
        }
    }
    let mean = turns.iter().map(|t| f64::from(t.1)).sum::<f64>() / turns.len() as f64;
    for min in [1, 3] {
        let mut want: Vec<(String, i32)> = seen
            .iter()
            .filter(|(_, e)| e.1 >= min)
            .map(|(k, e)| (k.clone(), (e.0 as f64 / e.1 as f64 - mean).round() as i32))
            .collect();
        want.sort();
        let mut got: Vec<(String, i32)> = stats
            .table(min)
            .into_iter()
            .map(|(r, v)| {
                let mut s: Vec<char> = r.to_string(en).chars().collect();
                s.sort_unstable();
                (s.into_iter().collect(), v)
            })
            .collect();
        got.sort();
        assert_eq!(got.len(), want.len(), "min count {min}");
        assert_eq!(got, want, "min count {min}");
        // The CSV reads back as the same table.
        let back = Leaves::from_csv(&stats.to_csv(en, min), en).unwrap();
        for (leave, v) in &want {
            assert_eq!(back.value(&Rack::parse(leave, en).unwrap()), *v, "{leave}");
        }
    }
}
