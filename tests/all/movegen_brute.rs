//! The GADDAG move generator against the independent brute force
//! (`common/brute.rs`): full move-list equality (coordinates, direction,
//! word, placed tiles, score) on seeded positions from the reference's own
//! sampler (`common/positions.rs`, which never uses the library): ENABLE
//! with 0, 1 and 2 blanks, the empty board, nearly full boards and empty
//! bags; the 21x21 board; a Spanish lexicon with multi-letter tiles. Both
//! lexicon compiled in and one built here from the word list are checked,
//! and every cross set against the naive computation.

use crate::common;

use std::collections::HashMap;
use std::sync::{Arc, LazyLock};

use crate::common::brute::{
    BruteMove, ENABLE_RULES, Layout as BruteLayout, Rules, SPANISH_RULES, brute_moves,
    naive_cross_sets, parse_cgp,
};
use crate::common::positions::varied_positions;
use lexq::game::leaves::Leaves;
use lexq::{
    Alphabet, Lexicon, WordList, build, game::Best, game::Generator, game::Move, game::Position,
    game::Rack, game::TopN,
};

static SPANISH: LazyLock<Lexicon> = LazyLock::new(|| {
    let mut list = WordList::new(Alphabet::spanish());
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/spanish-sample.txt");
    list.read_path(path.as_ref()).unwrap();
    Lexicon::from_bytes(build(&list, &mut ()).unwrap().bytes).unwrap()
});

/// lexq's moves in the brute force's terms, sorted.
fn lexq_moves(lex: &Lexicon, cgp: &str) -> Vec<BruteMove> {
    let pos = Position::from_cgp(lex, cgp).unwrap_or_else(|e| panic!("{cgp}: {e}"));
    let rack = pos.rack();
    let mut moves = Vec::new();
    // Every move comes with the rack less the tiles it spends.
    let mut all = |m: &Move, leave: &Rack| {
        assert_eq!(*leave, m.leave(&rack), "{cgp}: the leave of {m:?}");
        moves.push(*m);
    };
    let mut generator = Generator::new();
    generator.generate(&pos.board, &rack, &mut all);
    let a = lex.alphabet();
    let mut v: Vec<BruteMove> = moves.iter().map(|m| BruteMove::of(m, a)).collect();
    v.sort();
    v
}

/// Compares the two lists, reporting the first few differences.
fn same(lex: &Lexicon, rules: &Rules, cgp: &str) -> usize {
    let mine = lexq_moves(lex, cgp);
    let mut reference = brute_moves(rules, cgp);
    reference.sort();
    if mine != reference {
        let only_mine: Vec<_> = mine
            .iter()
            .filter(|m| !reference.contains(m))
            .take(5)
            .collect();
        let only_ref: Vec<_> = reference
            .iter()
            .filter(|m| !mine.contains(m))
            .take(5)
            .collect();
        panic!(
            "{cgp}\nlexq {} moves, brute force {}\nonly lexq: {only_mine:?}\nonly brute: {only_ref:?}",
            mine.len(),
            reference.len()
        );
    }
    mine.len()
}

/// Cross sets and scores of every empty square, both directions.
fn cross_sets_agree(lex: &Lexicon, rules: &Rules, cgp: &str) {
    let pos = Position::from_cgp(lex, cgp).unwrap();
    let naive = naive_cross_sets(rules, &parse_cgp(rules, cgp).unwrap());
    for x in naive {
        let set = pos.board.cross_set(x.row, x.col, x.across);
        assert_eq!(set.0, x.mask, "{cgp} {x:?}");
        let score = pos.board.cross_score(x.row, x.col, x.across);
        assert_eq!(score, x.constrained.then_some(x.score), "{cgp} {x:?}");
    }
}

fn check_set(lex: &Lexicon, rules: &Rules, layout: &BruteLayout, seed: u64, n: usize) {
    let samples = varied_positions(rules, layout, seed, n, "");
    let mut blanks = [0usize; 3];
    let mut moves = 0;
    for s in &samples {
        moves += same(lex, rules, &s.cgp);
        cross_sets_agree(lex, rules, &s.cgp);
        blanks[s.blanks.min(2)] += 1;
    }
    assert!(
        blanks.iter().all(|&b| b > 0),
        "racks with 0, 1 and 2 blanks: {blanks:?}"
    );
    assert!(moves > 1000, "{moves} moves compared");
}

#[test]
fn enable_positions_equal_the_brute_force() {
    let lex = Lexicon::embedded();
    check_set(&lex, &ENABLE_RULES, &BruteLayout::standard(), 11, 45);
}

#[test]
fn enable_positions_other_seed() {
    let lex = Lexicon::embedded();
    check_set(&lex, &ENABLE_RULES, &BruteLayout::standard(), 12, 45);
}

#[test]
fn super_board_equals_the_brute_force() {
    let lex = Lexicon::embedded();
    check_set(&lex, &ENABLE_RULES, &BruteLayout::super_board(), 13, 20);
}

#[test]
fn spanish_multi_letter_tiles_equal_the_brute_force() {
    check_set(&SPANISH, &SPANISH_RULES, &BruteLayout::standard(), 14, 60);
}

#[test]
fn a_lexicon_built_here_equals_the_brute_force() {
    // Built from the word list by this checkout's builder, not the
    // committed embedded file.
    let mut list = WordList::new(Alphabet::english());
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/indexes/enable1.txt");
    list.read_path(path.as_ref()).unwrap();
    let lex = Lexicon::from_bytes(build(&list, &mut ()).unwrap().bytes).unwrap();
    let samples = varied_positions(&ENABLE_RULES, &BruteLayout::standard(), 15, 12, "");
    for s in &samples {
        same(&lex, &ENABLE_RULES, &s.cgp);
    }
}

#[test]
fn empty_board_with_blanks() {
    let lex = Lexicon::embedded();
    let empty = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15";
    for rack in ["AEINRST", "QUIXOTE", "AEIN?RS", "EE??TTU", "A", "Q", ""] {
        same(&lex, &ENABLE_RULES, &format!("{empty} {rack}/ 0/0 0"));
    }
}

// ---------------------------------------------------------------------------
// Equity: the generator's best moves by score + leave value against every
// brute-force move valued by hand.

/// A leave table for one rack, written as CSV text, and the same table as
/// this test reads it: leaves as sorted tile codes (0 the blank), values
/// in millipoints. Most sub-racks of the rack get a value (in eighths of a
/// point, exact in `f32`, from -30 to +30 points), and a few leaves the
/// rack cannot keep are added as noise.
fn random_leaves(
    rng: &mut common::positions::Rng,
    rack: &[u8; 64],
) -> (String, HashMap<Vec<u8>, i32>) {
    let tiles: Vec<u8> = (0..64u8)
        .flat_map(|c| std::iter::repeat_n(c, rack[c as usize] as usize))
        .collect();
    let mut table: HashMap<Vec<u8>, i32> = HashMap::new();
    let mut keys: Vec<Vec<u8>> = Vec::new();
    for mask in 1u32..(1 << tiles.len()) {
        let key: Vec<u8> = (0..tiles.len())
            .filter(|&i| mask & (1 << i) != 0)
            .map(|i| tiles[i])
            .collect();
        keys.push(key);
    }
    for _ in 0..20 {
        let len = rng.below(6) + 1;
        let mut key: Vec<u8> = (0..len).map(|_| rng.below(27) as u8).collect();
        key.sort_unstable();
        keys.push(key);
    }
    let mut csv = String::new();
    for key in keys {
        if table.contains_key(&key) || rng.below(10) < 2 {
            continue;
        }
        let eighths = rng.below(481) as i32 - 240;
        table.insert(key.clone(), eighths * 125);
        let text: String = key
            .iter()
            .map(|&c| if c == 0 { '?' } else { (b'A' + c - 1) as char })
            .collect();
        csv += &format!("{text},{}\n", eighths as f64 / 8.0);
    }
    (csv, table)
}

/// How the test values a move, by hand: the bag holding tiles, or empty
/// with `unseen` points of tiles on the opponent's rack.
#[derive(Clone, Copy, Debug)]
enum HandStage {
    Bag,
    Empty { unseen: i32 },
}

/// The equity of keeping `kept` (sorted codes) after a move scoring
/// `score`: with tiles in the bag, score + the table's value (0 if
/// missing); with the bag empty, going out gains twice the unseen tiles'
/// points, and keeping tiles costs 10 points and twice their points.
fn hand_equity(
    rules: &Rules,
    table: &HashMap<Vec<u8>, i32>,
    stage: HandStage,
    score: i32,
    kept: &[u8],
) -> i32 {
    let leave = match stage {
        HandStage::Bag => table.get(kept).copied().unwrap_or(0),
        HandStage::Empty { unseen } if kept.is_empty() => 2 * unseen * 1000,
        HandStage::Empty { .. } => {
            let points: i32 = kept.iter().map(|&c| rules.values[c as usize]).sum();
            -10_000 - 2 * points * 1000
        }
    };
    score * 1000 + leave
}

/// The rack less the tiles a brute-force move places, sorted.
fn kept_by(rules: &Rules, rack: &[u8; 64], m: &BruteMove) -> Vec<u8> {
    let mut left = *rack;
    for ch in m.placed.chars().filter(|&c| c != '.') {
        let code = if ch.is_lowercase() {
            0
        } else {
            rules.alpha.tile_at(&[ch]).unwrap().0 as usize
        };
        assert!(left[code] > 0, "{m:?} places a tile the rack lacks");
        left[code] -= 1;
    }
    (0..64u8)
        .flat_map(|c| std::iter::repeat_n(c, left[c as usize] as usize))
        .collect()
}

/// Every distinct sub-rack of `rack`, as sorted codes.
fn sub_racks(rack: &[u8; 64]) -> Vec<Vec<u8>> {
    let mut out = vec![Vec::new()];
    for c in 0..64u8 {
        let n = rack[c as usize] as usize;
        if n == 0 {
            continue;
        }
        let mut next = Vec::new();
        for s in &out {
            for k in 0..=n {
                let mut t = s.clone();
                t.extend(std::iter::repeat_n(c, k));
                next.push(t);
            }
        }
        out = next;
    }
    out
}

#[test]
fn top_moves_by_equity_equal_every_move_valued_by_hand() {
    let lex = Lexicon::embedded();
    let rules = &*ENABLE_RULES;
    let samples = varied_positions(rules, &BruteLayout::standard(), 21, 40, "");
    let mut rng = common::positions::Rng::new(2207);
    let (mut leave_won, mut checked) = (0, 0);
    for s in &samples {
        let pos = Position::from_cgp(&lex, &s.cgp).unwrap();
        let rack = pos.rack();
        let brute_pos = parse_cgp(rules, &s.cgp).unwrap();
        let brute = brute_moves(rules, &s.cgp);
        let (csv, table) = random_leaves(&mut rng, &brute_pos.rack);
        let leaves = Arc::new(Leaves::from_csv(&csv, lex.alphabet()).unwrap());
        // The unseen tiles' points: the whole set less the board and the
        // rack (blanks on the board count 0).
        let mut unseen: i32 = (0..rules.counts.len())
            .map(|c| rules.counts[c] as i32 * rules.values[c])
            .sum();
        unseen -= brute_pos
            .squares
            .iter()
            .flatten()
            .filter(|t| !t.blank)
            .map(|t| rules.values[t.code as usize])
            .sum::<i32>();
        unseen -= (0..64)
            .map(|c| brute_pos.rack[c] as i32 * rules.values.get(c).copied().unwrap_or(0))
            .sum::<i32>();
        let stages = [
            (Some(40), HandStage::Bag, true),
            (None, HandStage::Bag, false),
            (Some(0), HandStage::Empty { unseen }, false),
        ];
        for (bag, stage, exchanges) in stages {
            let mut hand: Vec<i32> = brute
                .iter()
                .map(|m| {
                    hand_equity(
                        rules,
                        &table,
                        stage,
                        m.score,
                        &kept_by(rules, &brute_pos.rack, m),
                    )
                })
                .collect();
            if exchanges {
                // Exchanges keep every sub-rack but the whole rack; the
                // pass keeps the whole rack.
                for kept in sub_racks(&brute_pos.rack) {
                    hand.push(hand_equity(rules, &table, stage, 0, &kept));
                }
            }
            hand.sort_unstable_by(|a, b| b.cmp(a));
            let mut generator = Generator::new()
                .exchanges(exchanges)
                .leaves(Some(leaves.clone()));
            generator.set_bag(bag);
            let mut top = TopN::new(10);
            generator.generate(&pos.board, &rack, &mut top);
            let got = top.into_valued();
            let want: Vec<i32> = hand.iter().copied().take(10).collect();
            let equities: Vec<i32> = got.iter().map(|v| v.equity).collect();
            assert_eq!(
                equities, want,
                "{} ({stage:?}, exchanges {exchanges})",
                s.cgp
            );
            // Each move's equity is the generator's own value of it.
            for v in &got {
                assert_eq!(
                    generator.equity(&pos.board, &rack, &v.mv),
                    v.equity,
                    "{}",
                    s.cgp
                );
            }
            // Best agrees with the first of the ten.
            let mut best = Best::default();
            generator.generate(&pos.board, &rack, &mut best);
            assert_eq!(best.valued(), got.first().copied(), "{}", s.cgp);
            if let (Some(first), Some(by_score)) =
                (got.first(), brute.iter().map(|m| m.score).max())
            {
                checked += 1;
                if first.mv.score() < by_score {
                    leave_won += 1;
                }
            }
        }
    }
    // The tables matter: the best move by equity often scores less than
    // the best by score.
    assert!(
        checked > 80 && leave_won > checked / 4,
        "{leave_won} of {checked}"
    );
}
