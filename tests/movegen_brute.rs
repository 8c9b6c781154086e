//! The GADDAG move generator against the independent brute force
//! (`common/brute.rs`): full move-list equality (coordinates, direction,
//! word, placed tiles, score) on seeded positions from the reference's own
//! sampler (`common/positions.rs`, which never uses the library): ENABLE
//! with 0, 1 and 2 blanks, the empty board, nearly full boards and empty
//! bags; the 21x21 board; a Spanish lexicon with multi-letter tiles. Both
//! lexicon compiled in and one built here from the word list are checked,
//! and every cross set against the naive computation.

mod common;

use std::sync::LazyLock;

use common::brute::{
    BruteMove, ENABLE_RULES, Layout as BruteLayout, Rules, SPANISH_RULES, brute_moves,
    naive_cross_sets, parse_cgp,
};
use common::positions::varied_positions;
use lexq::{Alphabet, Generator, Lexicon, Move, Position, Rack, WordList, build};

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
    let mut v: Vec<BruteMove> = moves
        .iter()
        .map(|m| BruteMove {
            row: m.row(),
            col: m.col(),
            across: m.across(),
            word: m.word(a),
            placed: m.placed(a),
            score: m.score(),
        })
        .collect();
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
