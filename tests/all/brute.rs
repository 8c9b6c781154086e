//! Tests of the brute-force reference itself (`common/brute.rs`), so that
//! it can be trusted as an oracle: tiny hand-made word lists whose complete
//! move lists are worked out by hand, the listing conventions one by one,
//! naive cross-sets, CGP reading, the position sampler, and the
//! hand-checked ENABLE positions of `tests/data/positions/handchecked.txt`.

use crate::common::brute::{
    BruteMove, ENABLE_RULES, Layout, Rules, SPANISH_RULES, brute_moves, naive_cross_sets, parse_cgp,
};
use crate::common::positions::{game_positions, varied_positions};

const EMPTY: &str = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15";

/// A CGP line with the given tiles on an empty 15x15 board:
/// `(row, col, across, text)`, text one char per tile.
fn board(tiles: &[(usize, usize, bool, &str)], rack: &str) -> String {
    let mut grid = vec![vec![None::<char>; 15]; 15];
    for &(r, c, across, text) in tiles {
        for (k, ch) in text.chars().enumerate() {
            let (rr, cc) = if across { (r, c + k) } else { (r + k, c) };
            grid[rr][cc] = Some(ch);
        }
    }
    let rows: Vec<String> = grid
        .iter()
        .map(|row| {
            let mut s = String::new();
            let mut gap = 0;
            for sq in row {
                match sq {
                    None => gap += 1,
                    Some(ch) => {
                        if gap > 0 {
                            s += &gap.to_string();
                            gap = 0;
                        }
                        s.push(*ch);
                    }
                }
            }
            if gap > 0 {
                s += &gap.to_string();
            }
            s
        })
        .collect();
    format!("{} {rack}/ 0/0 0", rows.join("/"))
}

fn mv(row: usize, col: usize, across: bool, word: &str, placed: &str, score: i32) -> BruteMove {
    BruteMove {
        row,
        col,
        across,
        word: word.into(),
        placed: placed.into(),
        score,
    }
}

fn sorted(mut v: Vec<BruteMove>) -> Vec<BruteMove> {
    v.sort();
    v
}

#[test]
fn empty_board_two_letters() {
    let rules = Rules::english("AB\nBA\n");
    let got = brute_moves(&rules, &format!("{EMPTY} AB/ 0/0 0"));
    // Across only, covering (7,7): columns 6-7 or 7-8. Row 8 has the
    // double word at H: (1 + 3) x 2 = 8 each.
    let want = sorted(vec![
        mv(7, 6, true, "AB", "AB", 8),
        mv(7, 7, true, "AB", "AB", 8),
        mv(7, 6, true, "BA", "BA", 8),
        mv(7, 7, true, "BA", "BA", 8),
    ]);
    assert_eq!(got, want);
}

#[test]
fn empty_board_bingo_on_every_start() {
    let rules = Rules::english("ABCDEFG\n");
    let got = brute_moves(&rules, &format!("{EMPTY} GFEDCBA/ 0/0 0"));
    // A1 B3 C3 D2 E1 F4 G2 = 16; row 8: DL at D and L, DW at H, bingo 50.
    let want = sorted(vec![
        mv(7, 1, true, "ABCDEFG", "ABCDEFG", (16 + 3) * 2 + 50), // C on D8
        mv(7, 2, true, "ABCDEFG", "ABCDEFG", (16 + 3) * 2 + 50), // B on D8
        mv(7, 3, true, "ABCDEFG", "ABCDEFG", (16 + 1) * 2 + 50), // A on D8
        mv(7, 4, true, "ABCDEFG", "ABCDEFG", 16 * 2 + 50),
        mv(7, 5, true, "ABCDEFG", "ABCDEFG", (16 + 2) * 2 + 50), // G on L8
        mv(7, 6, true, "ABCDEFG", "ABCDEFG", (16 + 4) * 2 + 50), // F on L8
        mv(7, 7, true, "ABCDEFG", "ABCDEFG", (16 + 1) * 2 + 50), // E on L8
    ]);
    assert_eq!(got, want);
}

#[test]
fn bb_opcode_sets_the_bingo_bonus() {
    let rules = Rules::english("ABCDEFG\n");
    let got = brute_moves(&rules, &format!("{EMPTY} GFEDCBA/ 0/0 0 bb 35;"));
    assert_eq!(
        got[0],
        mv(7, 1, true, "ABCDEFG", "ABCDEFG", (16 + 3) * 2 + 35)
    );
}

#[test]
fn blanks_score_zero_and_are_lowercase() {
    let rules = Rules::english("AB\n");
    let got = brute_moves(&rules, &format!("{EMPTY} A?/ 0/0 0"));
    // The blank can only be B; A (1) on or beside the star, x2.
    let want = sorted(vec![
        mv(7, 6, true, "Ab", "Ab", 2),
        mv(7, 7, true, "Ab", "Ab", 2),
    ]);
    assert_eq!(got, want);
    let got = brute_moves(&rules, &format!("{EMPTY} ??/ 0/0 0"));
    let want = sorted(vec![
        mv(7, 6, true, "ab", "ab", 0),
        mv(7, 7, true, "ab", "ab", 0),
    ]);
    assert_eq!(got, want);
}

#[test]
fn one_tile_plays_listed_once() {
    let rules = Rules::english("AB\nBA\n");
    // B on H8 and I7.
    let cgp = board(&[(7, 7, true, "B"), (6, 8, true, "B")], "A");
    let got = brute_moves(&rules, &cgp);
    let want = sorted(vec![
        // A on G8: AB across, nothing above or below.
        mv(7, 6, true, "AB", "A.", 4),
        // A on I8: BA across, and BA down with the B on I7: 4 + 4.
        mv(7, 7, true, "BA", ".A", 8),
        // A on H7: AB across (with I7) and AB down (with H8): 4 + 4.
        mv(6, 7, true, "AB", "A.", 8),
        // A on H9: only down, BA; listed down.
        mv(7, 7, false, "BA", ".A", 4),
        // A on J7: BA across.
        mv(6, 8, true, "BA", ".A", 4),
        // A on I6: AB down, no horizontal neighbour: listed down.
        mv(5, 8, false, "AB", "A.", 4),
    ]);
    assert_eq!(got, want);
}

#[test]
fn play_through_and_between_words() {
    // CAT on row 8 from H8. Words: AT, CAT, CATS, SCAT.
    let rules = Rules::english("AT\nCAT\nCATS\nSCAT\n");
    let cgp = board(&[(7, 7, true, "CAT")], "S");
    let got = brute_moves(&rules, &cgp);
    // S before CAT on G8 (plain): SCAT = 1+3+1+1 = 6. S after on K8
    // (plain): CATS = 6. No down word contains S alone with C, A or T.
    let want = sorted(vec![
        mv(7, 6, true, "SCAT", "S...", 6),
        mv(7, 7, true, "CATS", "...S", 6),
    ]);
    assert_eq!(got, want);

    // A gap between two words: C at H8, T at J8, rack AS.
    let cgp = board(&[(7, 7, true, "C"), (7, 9, true, "T")], "AS");
    let got = brute_moves(&rules, &cgp);
    let want = sorted(vec![
        // A on I8 (plain): CAT = 3 + 1 + 1 = 5.
        mv(7, 7, true, "CAT", ".A.", 5),
        // A on I8 and S on K8 (plain): CATS = 6.
        mv(7, 7, true, "CATS", ".A.S", 6),
        // S on G8 and A on I8: SCAT = 1 + 3 + 1 + 1 = 6.
        mv(7, 6, true, "SCAT", "S.A.", 6),
        // A on J7 above the T: AT down, 1 + 1 = 2 (its horizontal
        // neighbours are empty, so it is listed down).
        mv(6, 9, false, "AT", "A.", 2),
    ]);
    assert_eq!(got, want);
}

#[test]
fn parallel_play_scores_every_cross_word() {
    // AT across on H8-I8; rack TA plays AT on H9-I9 forming AA? Use words
    // AT, TA, AA, TT? Keep to: AT, TA.
    let rules = Rules::english("AT\nTA\n");
    let cgp = board(&[(7, 7, true, "AT")], "TA");
    let got = brute_moves(&rules, &cgp);
    // TA across on row 9 at H9: T under A makes AT down, A under T makes
    // TA down. H9 and I9: row 9 is "..-...-.-...-..": G9 and I9 are double
    // letters, H9 plain. TA: T(1) + A(1)x2 = 3; cross AT: 1 + 1 = 2; cross
    // TA: 1 + 1x2 = 3; total 8.
    assert!(got.contains(&mv(8, 7, true, "TA", "TA", 8)), "{got:#?}");
    // And everything it lists is made only of words.
    for m in &got {
        assert!(["AT", "TA"].contains(&m.word.as_str()), "{m:?}");
    }
}

#[test]
fn no_move_without_contact() {
    let rules = Rules::english("AB\nBA\n");
    // Rack tiles that fit nowhere: board B at A1, rack C.
    let cgp = board(&[(0, 0, true, "B")], "C");
    assert!(brute_moves(&rules, &cgp).is_empty());
    // Empty rack: nothing.
    assert!(brute_moves(&rules, &board(&[(7, 7, true, "B")], "")).is_empty());
    // Empty board, one tile: nothing (two tiles needed).
    assert!(brute_moves(&rules, &format!("{EMPTY} A/ 0/0 0")).is_empty());
}

#[test]
fn down_plays_and_edges() {
    let rules = Rules::english("AB\nBA\nABA\n");
    // B at A15 (bottom-left corner), rack AA.
    let cgp = board(&[(14, 0, true, "B")], "AA");
    let got = brute_moves(&rules, &cgp);
    // A15 is a triple word. Across: BA on A15 with A on B15 (plain): 4;
    // ABA impossible (no room left). Down: AB with A on A14 (plain): 4;
    // ABA down from A13 would end past the board: no. A14 + B15? not a line.
    let want = sorted(vec![
        mv(14, 0, true, "BA", ".A", 4),
        mv(13, 0, false, "AB", "A.", 4),
    ]);
    assert_eq!(got, want);
}

#[test]
fn spanish_multi_letter_tiles() {
    let rules = Rules::spanish("che\nchal\n");
    let got = brute_moves(&rules, &format!("{EMPTY} E[CH]/ 0/0 0"));
    // CH 5, E 1, on or beside the star: 6 x 2 = 12.
    let want = sorted(vec![
        mv(7, 6, true, "CHE", "CHE", 12),
        mv(7, 7, true, "CHE", "CHE", 12),
    ]);
    assert_eq!(got, want);
    assert_eq!(want[0].notation_in(&rules), "8G CHE");
    // A blank CH on the board ([ch]) scores 0 and reads lowercase.
    let mut rows = vec!["15"; 15];
    rows[7] = "7[ch]A6";
    let cgp = format!("{} L/ 0/0 0", rows.join("/"));
    let got = brute_moves(&rules, &cgp);
    // CHAL: ch 0 + A 1 + L 1 (K8 plain) = 2.
    assert_eq!(got, vec![mv(7, 7, true, "chAL", "..L", 2)]);
    assert_eq!(got[0].notation_in(&rules), "8H (chA)L");
}

#[test]
fn cgp_reading() {
    let rules = &*SPANISH_RULES;
    let pos = parse_cgp(rules, &format!("{EMPTY} [CH]?LLA/ 0/0 0 lex X;")).unwrap();
    // LL read greedily as one tile.
    assert_eq!(pos.rack_len(), 4);
    assert_eq!(pos.rack[0], 1);
    assert!(parse_cgp(rules, "15/15 A/ 0/0 0").is_err());
    assert!(parse_cgp(rules, &format!("{EMPTY} [XY]/ 0/0 0")).is_err());
    let super_board = vec!["21"; 21].join("/");
    let pos = parse_cgp(&ENABLE_RULES, &format!("{super_board} A/ 0/0 0")).unwrap();
    assert_eq!(pos.layout.start, (10, 10));
    assert_eq!(pos.layout.word[0], 4);
}

#[test]
fn notation() {
    assert_eq!(mv(7, 3, true, "CARE", "CA.E", 0).notation(), "8D CA(R)E");
    assert_eq!(mv(3, 7, false, "CARE", "..RE", 0).notation(), "H4 (CA)RE");
    assert_eq!(mv(0, 0, true, "CAre", "..re", 0).notation(), "1A (CA)re");
}

#[test]
fn naive_cross_sets_by_hand() {
    let rules = Rules::english("AB\nBA\nABA\n");
    let cgp = board(&[(7, 7, true, "AB")], "");
    let pos = parse_cgp(&rules, &cgp).unwrap();
    let sets = naive_cross_sets(&rules, &pos);
    let at = |r, c, across| {
        sets.iter()
            .find(|x| x.row == r && x.col == c && x.across == across)
            .unwrap()
            .clone()
    };
    // Above the A (H7), for across plays: ?A down -> BA: {B}; A is worth 1.
    let x = at(6, 7, true);
    assert!(x.constrained);
    assert_eq!(x.letters, ["B"]);
    assert_eq!(x.mask, 1 << 2);
    assert_eq!(x.score, 1);
    // Left of the A (G8), for down plays: ?AB -> ABA? no, ?AB: none.
    let x = at(7, 6, false);
    assert!(x.constrained && x.letters.is_empty());
    assert_eq!(x.score, 4);
    // Right of the B (J8), for down plays: AB? -> ABA: {A}.
    assert_eq!(at(7, 9, false).letters, ["A"]);
    // Far away: unconstrained, every letter.
    let x = at(0, 0, true);
    assert!(!x.constrained);
    assert_eq!(x.letters.len(), 26);
    // Occupied squares have no entry.
    assert!(sets.iter().all(|x| !(x.row == 7 && x.col == 7)));
}

#[test]
fn between_two_tiles_cross_set() {
    // A at H7 and B at H9: H8 for across plays needs A?B down.
    let rules = Rules::english("AAB\nABB\nACB\nAB\n");
    let cgp = board(&[(6, 7, true, "A"), (8, 7, true, "B")], "");
    let pos = parse_cgp(&rules, &cgp).unwrap();
    let x = naive_cross_sets(&rules, &pos)
        .into_iter()
        .find(|x| x.row == 7 && x.col == 7 && x.across)
        .unwrap();
    assert_eq!(x.letters, ["A", "B", "C"]);
    assert_eq!(x.score, 1 + 3);
}

// ---------------------------------------------------------------------------
// ENABLE: the hand-checked positions.

/// One hand-checked case: a CGP line, a move in GCG notation, its score.
struct Checked {
    line: usize,
    cgp: String,
    notation: String,
    score: i32,
}

fn handchecked() -> Vec<Checked> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/positions/handchecked.txt"
    );
    let text = std::fs::read_to_string(path).expect("handchecked.txt");
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let parts: Vec<&str> = line.split(" | ").collect();
        assert_eq!(parts.len(), 3, "line {line_no}: CGP | move | score");
        out.push(Checked {
            line: line_no,
            cgp: parts[0].trim().to_string(),
            notation: parts[1].trim().to_string(),
            score: parts[2].trim().parse().expect("a score"),
        });
    }
    out
}

#[test]
fn handchecked_positions_score_as_worked_out() {
    let cases = handchecked();
    assert!(cases.len() >= 8, "at least 8 hand-checked positions");
    for case in &cases {
        let moves = brute_moves(&ENABLE_RULES, &case.cgp);
        let found: Vec<&BruteMove> = moves
            .iter()
            .filter(|m| m.notation() == case.notation)
            .collect();
        assert_eq!(
            found.len(),
            1,
            "line {}: {} listed {} times",
            case.line,
            case.notation,
            found.len()
        );
        assert_eq!(
            found[0].score, case.score,
            "line {}: {}",
            case.line, case.notation
        );
    }
}

// ---------------------------------------------------------------------------
// The sampler.

#[test]
fn sampler_is_deterministic_and_varied() {
    let rules = &*ENABLE_RULES;
    let layout = Layout::standard();
    let a = varied_positions(rules, &layout, 1, 60, "");
    let b = varied_positions(rules, &layout, 1, 60, "");
    assert_eq!(
        a.iter().map(|s| &s.cgp).collect::<Vec<_>>(),
        b.iter().map(|s| &s.cgp).collect::<Vec<_>>()
    );
    let c = varied_positions(rules, &layout, 2, 60, "");
    assert_ne!(a[5].cgp, c[5].cgp);
    assert_eq!(a[0].on_board, 0, "starts with the empty board");
    for k in 0..=2 {
        assert!(a.iter().any(|s| s.blanks == k), "a rack with {k} blanks");
    }
    assert!(a.iter().any(|s| s.bag_empty), "an empty bag");
    assert!(a.iter().any(|s| s.on_board > 60), "a nearly full board");
    // Every position reads back, and never holds more of a tile than the
    // set has.
    for s in &a {
        let pos = parse_cgp(rules, &s.cgp).unwrap();
        let mut counts = [0u32; 27];
        for t in pos.squares.iter().flatten() {
            counts[if t.blank { 0 } else { t.code as usize }] += 1;
        }
        for (code, &n) in pos.rack.iter().enumerate().take(27) {
            counts[code] += n as u32;
        }
        for (n, max) in counts.iter().zip(&rules.counts) {
            assert!(n <= max, "{}", s.cgp);
        }
        assert!(pos.rack_len() <= 7);
    }
}

#[test]
fn sampler_game_spanish_and_super() {
    let rules = &*SPANISH_RULES;
    let games = game_positions(rules, &Layout::standard(), 3, "");
    assert!(games.len() > 5);
    for s in &games {
        parse_cgp(rules, &s.cgp).unwrap();
    }
    let games = game_positions(&ENABLE_RULES, &Layout::super_board(), 4, "");
    assert!(games.len() > 5);
    assert!(games[0].cgp.starts_with("21/21/"));
}
