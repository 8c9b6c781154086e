//! The generator on hand-checked positions (`tests/data/positions/
//! handchecked.txt`, worked out by hand by the reference's author), the
//! recorders against each other, exchanges, generator reuse, and the
//! incremental cross-set updates of `Board::play` against boards built
//! fresh from the same CGP.

use crate::common::brute::{BruteMove, ENABLE_RULES, brute_moves};
use lexq::{
    Lexicon, game::All, game::Best, game::Count, game::Generator, game::Move, game::MoveKind,
    game::Position, game::Rack, game::TopN, game::leaves::Leaves, game::rank, game::selfplay,
};

fn handchecked() -> Vec<(String, String, i32)> {
    let text = include_str!("../data/positions/handchecked.txt");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            (f[0].to_string(), f[1].to_string(), f[2].parse().unwrap())
        })
        .collect()
}

fn all_moves(pos: &Position<'_>) -> Vec<Move> {
    let mut all = All::default();
    Generator::new().generate(&pos.board, &pos.rack(), &mut all);
    all.into_sorted()
}

#[test]
fn hand_checked_scores() {
    let lex = Lexicon::embedded();
    let cases = handchecked();
    assert!(cases.len() >= 9);
    for (cgp, notation, score) in cases {
        let pos = Position::from_cgp(&lex, &cgp).unwrap();
        let mv = pos.board.parse_move(&notation).unwrap();
        let scored = pos.board.check_move(&mv, &pos.rack()).unwrap();
        assert_eq!(scored.score(), score, "{cgp} {notation}");
        let found = all_moves(&pos)
            .into_iter()
            .find(|m| m.notation(lex.alphabet()) == notation)
            .unwrap_or_else(|| panic!("{cgp}: {notation} not generated"));
        assert_eq!(found.score(), score, "{cgp} {notation}");
    }
}

#[test]
fn recorders_agree() {
    let lex = Lexicon::embedded();
    let tiles = lexq::TileSet::named("english", lex.alphabet()).unwrap();
    let game = selfplay::play(&lex, &lexq::game::Layout::standard(), &tiles, 3, "").unwrap();
    let mut generator = Generator::new();
    for cgp in game.positions.iter().step_by(3) {
        let pos = Position::from_cgp(&lex, cgp).unwrap();
        let rack = pos.rack();
        let all = all_moves(&pos);
        let mut count = Count(0);
        generator.generate(&pos.board, &rack, &mut count);
        assert_eq!(count.0, all.len());
        let mut top = TopN::new(7);
        generator.generate(&pos.board, &rack, &mut top);
        assert_eq!(top.into_sorted(), all[..all.len().min(7)].to_vec());
        let mut best = Best::default();
        generator.generate(&pos.board, &rack, &mut best);
        assert_eq!(best.best.map(|b| b.0), all.first().copied());
        if let Some((m, leave)) = best.best {
            assert_eq!(leave, m.leave(&rack));
        }
        let mut seen = Vec::new();
        let mut closure = |m: &Move, leave: &Rack| seen.push((*m, *leave));
        generator.generate(&pos.board, &rack, &mut closure);
        seen.sort_by(|a, b| rank(&a.0, &b.0));
        assert_eq!(seen.iter().map(|s| s.0).collect::<Vec<_>>(), all);
        for (m, leave) in &seen {
            assert_eq!(*leave, m.leave(&rack));
            // Every generated move checks and scores the same on its own.
            let checked = pos.board.check_move(m, &rack).unwrap();
            assert_eq!(checked.score(), m.score());
        }
        // No duplicates.
        let mut keys: Vec<String> = all.iter().map(|m| m.notation(lex.alphabet())).collect();
        keys.sort();
        let n = keys.len();
        keys.dedup();
        assert_eq!(keys.len(), n);
    }
}

#[test]
fn exchanges_and_pass_only_when_asked() {
    let lex = Lexicon::embedded();
    let empty = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15";
    let pos = Position::from_cgp(&lex, &format!("{empty} AAB?/ 0/0 0")).unwrap();
    let plain = all_moves(&pos);
    assert!(plain.iter().all(|m| m.kind() == MoveKind::Place));
    let mut all = All::default();
    Generator::new()
        .exchanges(true)
        .generate(&pos.board, &pos.rack(), &mut all);
    let ex = all
        .moves
        .iter()
        .filter(|m| m.kind() == MoveKind::Exchange)
        .count();
    // A in 0..=2, B in 0..=1, ? in 0..=1, minus the empty set.
    assert_eq!(ex, 3 * 2 * 2 - 1);
    assert_eq!(
        all.moves
            .iter()
            .filter(|m| m.kind() == MoveKind::Pass)
            .count(),
        1
    );
    assert_eq!(all.moves.len(), plain.len() + ex + 1);

    // With the bag known: a rack's worth (7) allows exchanges, 6 does not
    // (the pass is still listed).
    let kinds = |bag: usize| {
        let mut all = All::default();
        let mut g = Generator::new().exchanges(true);
        g.set_bag(Some(bag));
        g.generate(&pos.board, &pos.rack(), &mut all);
        let n = |k: MoveKind| all.moves.iter().filter(|m| m.kind() == k).count();
        (n(MoveKind::Exchange), n(MoveKind::Pass))
    };
    assert_eq!(kinds(7), (ex, 1));
    assert_eq!(kinds(6), (0, 1));
}

#[test]
fn bag_counts_what_is_not_on_the_board_or_a_rack() {
    let lex = Lexicon::embedded();
    let care = "15/15/15/15/15/15/15/4CARE7/15/15/15/15/15/15/15";
    let bag = |racks: &str| {
        Position::from_cgp(&lex, &format!("{care} {racks} 0/0 0"))
            .unwrap()
            .bag_len()
    };
    // 100 tiles, 4 on the board, 7 on the rack, the other rack unknown
    // (taken as 7), then known.
    assert_eq!(bag("AEINRST/"), 100 - 4 - 7 - 7);
    assert_eq!(bag("AEINRST/QZ"), 100 - 4 - 7 - 2);
    assert_eq!(bag("A/BC"), 100 - 4 - 1 - 2);
}

/// Every square's cross set and cross score, both directions, are the
/// same on `board` as on `fresh`.
fn assert_same_cross(board: &lexq::game::Board, fresh: &lexq::game::Board, context: &str) {
    for r in 0..15 {
        for c in 0..15 {
            for across in [true, false] {
                let at = format!("{context}: square {r},{c} across {across}");
                assert_eq!(
                    board.cross_set(r, c, across),
                    fresh.cross_set(r, c, across),
                    "{at}"
                );
                assert_eq!(
                    board.cross_score(r, c, across),
                    fresh.cross_score(r, c, across),
                    "{at}"
                );
            }
        }
    }
}

#[test]
fn incremental_cross_sets_equal_fresh_ones() {
    let lex = Lexicon::embedded();
    let tiles = lexq::TileSet::named("english", lex.alphabet()).unwrap();
    for seed in [21, 22] {
        let game = selfplay::play(&lex, &lexq::game::Layout::standard(), &tiles, seed, "").unwrap();
        let first = Position::from_cgp(&lex, &game.positions[0]).unwrap();
        let mut board = first.board.clone();
        for (k, cgp) in game.positions.iter().enumerate() {
            let pos = Position::from_cgp(&lex, cgp).unwrap();
            assert_eq!(board.to_cgp_rows(), pos.board.to_cgp_rows());
            assert_same_cross(&board, &pos.board, &format!("turn {k}"));
            let mut best = Best::default();
            Generator::new().generate(&pos.board, &pos.rack(), &mut best);
            if let Some((m, _)) = best.best {
                board.play(&m).unwrap();
            }
        }
    }
}

#[test]
fn illegal_moves_are_refused() {
    let lex = Lexicon::embedded();
    let line = "15/15/15/15/15/15/15/4CARE7/15/15/15/15/15/15/15 AEINRST/ 12/0 0";
    let pos = Position::from_cgp(&lex, line).unwrap();
    let b = &pos.board;
    let rack = pos.rack();
    let legal = |text: &str| -> Result<Move, String> {
        let m = b.parse_move(text).map_err(|e| e.to_string())?;
        b.check_move(&m, &rack).map_err(|e| e.to_string())
    };
    assert!(legal("E8 (C)AT").is_ok());
    for bad in [
        "8A TRAIN", // runs into CARE: the word continues
        "1A TRAIN", // touches nothing
        "8E CARE",  // places no tile
        "8E TINE",  // the squares hold other tiles
        "15O AB",   // off the board
        "9E ZZ",    // not on the rack
        "E7 Q(C)",  // not on the rack
        "9E AT",    // forms the phony CA
    ] {
        assert!(legal(bad).is_err(), "{bad} accepted");
    }
    // A phony is reported by score_play, not refused.
    let mv = b.parse_move("9E AT").unwrap();
    let (scored, phonies) = b.score_play(&mv, &rack).unwrap();
    assert_eq!(phonies, vec!["CA".to_string()]);
    assert!(scored.score() > 0);
    // One-tile plays are listed in the conventional direction.
    let mv = b.parse_move("9H S").unwrap();
    assert_eq!(mv.notation(lex.alphabet()), "H8 (E)S");
}

#[test]
fn best_first_search_finds_the_best_moves() {
    // The bounded best-first search (Best, TopN) against the full list, on
    // the benchmark positions (all phases, racks with 0, 1 and 2 blanks).
    let lex = Lexicon::embedded();
    let text = include_str!("../../benches/positions.cgp");
    let heavy = include_str!("../../benches/heavy.cgp");
    let mut generator = Generator::new();
    for line in text.lines().step_by(3).chain(heavy.lines().step_by(2)) {
        let pos = Position::from_cgp(&lex, line).unwrap();
        let rack = pos.rack();
        let all = all_moves(&pos);
        let mut best = Best::default();
        generator.generate(&pos.board, &rack, &mut best);
        assert_eq!(best.best.map(|b| b.0), all.first().copied(), "{line}");
        let mut top = TopN::new(5);
        generator.generate(&pos.board, &rack, &mut top);
        assert_eq!(
            top.into_sorted(),
            all[..all.len().min(5)].to_vec(),
            "{line}"
        );
    }
}

/// Where wolges-bench was set up (`../shared/tools/wolges-bench`): the
/// folder `WOLGES_WORK` names, else `target/wolges-bench`; `None` if its
/// binary, KWG or word list is missing.
fn wolges_bench() -> Option<(std::path::PathBuf, std::path::PathBuf, std::path::PathBuf)> {
    let work = std::env::var_os("WOLGES_WORK")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/target/wolges-bench").into());
    let bin = work.join("target/release/wolges-bench");
    let kwg = work.join("lexicon.kwg");
    let words = work.join("words.txt");
    (bin.is_file() && kwg.is_file() && words.is_file()).then_some((bin, kwg, words))
}

/// lexq's moves of every position of `text` in wolges-bench's `moves`
/// format (its README): a header line per position, then the moves sorted
/// by row, column, H before V, then the placed tiles in byte order.
fn wolges_format(lex: &Lexicon, text: &str) -> String {
    let a = lex.alphabet();
    let mut out = String::new();
    let mut generator = Generator::new();
    for (idx, line) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        let pos = Position::from_cgp(lex, line).unwrap_or_else(|e| panic!("{line}: {e}"));
        let mut all = All::default();
        generator.generate(&pos.board, &pos.rack(), &mut all);
        let mut rows: Vec<(usize, usize, char, String, String, i32)> = all
            .moves
            .iter()
            .map(|m| {
                let dir = if m.across() { 'H' } else { 'V' };
                (m.row(), m.col(), dir, m.placed(a), m.word(a), m.score())
            })
            .collect();
        rows.sort_unstable_by(|x, y| (x.0, x.1, x.2, &x.3).cmp(&(y.0, y.1, y.2, &y.3)));
        let mut f = line.split_whitespace();
        let board = f.next().unwrap();
        let rack = f.next().unwrap().split('/').next().unwrap();
        out += &format!("# {idx} {} {board} {rack}\n", rows.len());
        for (r, c, dir, placed, word, score) in rows {
            out += &format!("{r} {c} {dir} {word} {placed} {score}\n");
        }
    }
    out
}

#[test]
fn move_lists_equal_wolges_bench() {
    // Only where wolges-bench is set up (it is fetched and built by hand):
    // every move list of the benchmark positions against wolges's, both
    // lexicons built from wolges-bench's own filtered word list.
    let Some((bin, kwg, words)) = wolges_bench() else {
        // Straight to stderr, past the test harness's capture, as the
        // other optional tests say it (wolges-bench is built by hand, so
        // LEXQ_REQUIRE_ALL does not make this a failure).
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr().lock(),
            "skipped: move_lists_equal_wolges_bench: needs wolges-bench \
             (../shared/tools/wolges-bench/README.md; set WOLGES_WORK to where setup.sh put it)"
        );
        return;
    };
    let mut list = lexq::WordList::new(lexq::Alphabet::english());
    list.read_path(&words).unwrap();
    let lex = Lexicon::from_bytes(lexq::build(&list, &mut ()).unwrap().bytes).unwrap();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/");
    let mut checked = 0;
    for file in ["heavy.cgp", "positions.cgp", "two-blanks.cgp"] {
        let path = format!("{dir}{file}");
        let text = std::fs::read_to_string(&path).unwrap();
        let theirs = std::process::Command::new(&bin)
            .args(["moves", "--kwg"])
            .arg(&kwg)
            .arg(&path)
            .output()
            .unwrap();
        assert!(theirs.status.success(), "wolges-bench moves {file} failed");
        let theirs = String::from_utf8(theirs.stdout).unwrap();
        let ours = wolges_format(&lex, &text);
        // The first differing line, not a 1 GB diff.
        if let Some((k, (a, b))) = ours
            .lines()
            .zip(theirs.lines())
            .enumerate()
            .find(|(_, (a, b))| a != b)
        {
            panic!("{file}, line {}: lexq {a:?}, wolges {b:?}", k + 1);
        }
        assert_eq!(ours.lines().count(), theirs.lines().count(), "{file}");
        checked += text.lines().filter(|l| !l.trim().is_empty()).count();
    }
    println!("{checked} positions: the same move lists as wolges-bench");
}

#[test]
fn racks_of_three_and_four_blanks_equal_the_brute_force() {
    // Tile sets of one's own may hold more than two blanks: the general
    // enumeration of what the blanks stand for, against the brute force,
    // with a leave checked for every move. (An English position holds at
    // most two: the rack is given to the generator directly.)
    let lex = Lexicon::embedded();
    let a = lex.alphabet();
    let boards = [
        "15/15/15/15/15/15/15/4CARE7/15/15/15/15/15/15/15",
        "15/15/15/3Q6C4/3AG5H4/3TO4WILT2/4A1HIKER4/4TWINE1MM3/2V1E3R2A3/1JOLE3R2N3/2L1D3I2I3/2T4PA2A3/2S4L7/7O7/7T7",
    ];
    let mut compared = 0;
    for board in boards {
        for rack_text in ["???", "E???", "SE???", "????", "Q????"] {
            let pos = Position::from_cgp(&lex, &format!("{board} / 0/0 0")).unwrap();
            let rack = Rack::parse(rack_text, a).unwrap();
            let mut mine = Vec::new();
            let mut rec = |m: &Move, leave: &Rack| {
                assert_eq!(*leave, m.leave(&rack), "{board} {rack_text}: {m:?}");
                mine.push(BruteMove::of(m, a));
            };
            Generator::new().generate(&pos.board, &rack, &mut rec);
            mine.sort();
            let mut reference = brute_moves(&ENABLE_RULES, &format!("{board} {rack_text}/ 0/0 0"));
            reference.sort();
            assert_eq!(mine.len(), reference.len(), "{board} {rack_text}");
            assert!(mine == reference, "{board} {rack_text}: the lists differ");
            compared += mine.len();
        }
    }
    assert!(compared > 100_000, "{compared} moves");
}

#[test]
fn set_tiles_gives_the_cross_sets_of_a_board_read_fresh() {
    // One board given the positions of a game in order (most rows and
    // columns unchanged from one to the next), then positions of other
    // games (most changed), against each position read fresh from its CGP:
    // every square's cross set and cross score, both directions, and the
    // moves.
    let lex = Lexicon::embedded();
    let tiles = lexq::TileSet::named("english", lex.alphabet()).unwrap();
    let game = selfplay::play(&lex, &lexq::game::Layout::standard(), &tiles, 31, "").unwrap();
    let heavy = include_str!("../../benches/heavy.cgp");
    let lines: Vec<&str> = game
        .positions
        .iter()
        .map(String::as_str)
        .chain(heavy.lines().step_by(7))
        .collect();
    let mut board = lexq::game::Board::new(&lex, lexq::game::Layout::standard(), tiles).unwrap();
    let mut generator = Generator::new();
    for (k, cgp) in lines.iter().enumerate() {
        let pos = Position::from_cgp(&lex, cgp).unwrap();
        board.set_tiles(pos.board.tiles()).unwrap();
        assert_eq!(board.to_cgp_rows(), pos.board.to_cgp_rows(), "{k}");
        assert_eq!(board.tile_count(), pos.board.tile_count(), "{k}");
        assert_same_cross(&board, &pos.board, &format!("{k}: {cgp}"));
        let mut here = Count(0);
        generator.generate(&board, &pos.rack(), &mut here);
        let mut fresh = Count(0);
        generator.generate(&pos.board, &pos.rack(), &mut fresh);
        assert_eq!(here.0, fresh.0, "{k}: {cgp}");
    }
    assert!(lines.len() > 60);
    // Refused, the board left as it was: the wrong number of squares, a
    // code outside the alphabet, a flag that is not the blank's.
    let before = board.to_cgp_rows();
    let mut bad = board.tiles().to_vec();
    assert!(board.set_tiles(&bad[1..]).is_err());
    bad[0] = 27;
    assert!(board.set_tiles(&bad).is_err());
    bad[0] = 1 | 0x40;
    assert!(board.set_tiles(&bad).is_err());
    assert_eq!(board.to_cgp_rows(), before);
    // A blank (flagged) is a tile like any other.
    bad[0] = 1 | 0x80;
    assert!(board.set_tiles(&bad).is_ok());
    assert_eq!(board.tile(0, 0), 1 | 0x80);
}

#[test]
fn heavy_bench_positions_equal_the_brute_force() {
    // Half of benches/heavy.cgp (every game phase, racks with 0, 1 and
    // 2 blanks) against the independent brute force, move for move.
    let lex = Lexicon::embedded();
    let a = lex.alphabet();
    let mut compared = 0;
    let mut generator = Generator::new();
    for cgp in include_str!("../../benches/heavy.cgp").lines().step_by(2) {
        let pos = Position::from_cgp(&lex, cgp).unwrap();
        let mut all = All::default();
        generator.generate(&pos.board, &pos.rack(), &mut all);
        let mut mine: Vec<BruteMove> = all.moves.iter().map(|m| BruteMove::of(m, a)).collect();
        mine.sort();
        let mut reference = brute_moves(&ENABLE_RULES, cgp);
        reference.sort();
        assert_eq!(mine.len(), reference.len(), "{cgp}");
        assert!(mine == reference, "{cgp}: the lists differ");
        compared += mine.len();
    }
    assert!(compared > 400_000, "{compared} moves");
}

/// A tile-set file: every letter `count` tiles worth `value`, blanks
/// worth 0, a bingo of 50.
fn flat_tiles(dir: &std::path::Path, name: &str, count: usize, value: i32, rack: usize) -> String {
    let mut s = format!("rack {rack}\nbingo 50\n? 4 0\n");
    for c in 'A'..='Z' {
        s += &format!("{c} {count} {value}\n");
    }
    let path = dir.join(name);
    std::fs::write(&path, s).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn boards_whose_scores_could_overflow_are_refused() {
    use lexq::files::FilePolicy;
    use lexq::game::notation::PositionErrorKind;
    let lex = Lexicon::embedded();
    let dir = tempfile::tempdir().unwrap();
    // 25x25 squares of quadruple word, tiles worth 1000, racks of 15: a
    // move on 15 of them multiplies by 4^15; 7 of them already overflow
    // a score in millipoints.
    let layout = dir.path().join("quad.txt");
    std::fs::write(&layout, format!("{}\n", "$".repeat(25)).repeat(25)).unwrap();
    let tiles = flat_tiles(dir.path(), "heavy.txt", 20, 1000, 15);
    let rows = vec!["25"; 25].join("/");
    let cgp = format!(
        "{rows} ABCDEFG/ 0/0 0 bdn {}; ld {tiles};",
        layout.display()
    );
    match Position::from_cgp_with(&lex, &cgp, &FilePolicy::any_file()) {
        Err(lexq::game::Error::Position(e)) => {
            assert!(
                matches!(&e.kind, PositionErrorKind::Unsupported(m) if m.contains("could score")),
                "{e}"
            );
        }
        other => panic!("accepted: {other:?}"),
    }
    // The same tiles on a standard board are played: every move scores
    // exactly 1000 times what it scores with tiles worth 1 (less the
    // bingo, the same 50), on positions of every phase, as the
    // generator's best-first search ranks them too.
    let heavy = flat_tiles(dir.path(), "thousand.txt", 20, 1000, 7);
    let light = flat_tiles(dir.path(), "one.txt", 20, 1, 7);
    let bound = lexq::game::move_score_bound(
        &lexq::game::Layout::standard(),
        &lexq::TileSet::named(&heavy, lex.alphabet()).unwrap(),
    );
    // By hand: row 1 (#..-...#...-..#) holds the most. Its letter
    // premiums sum to 15 + 2 = 17 and its three triple words multiply by
    // 27: 1000 x 17 x 27 = 459,000; the seven best cross words of a full
    // column, (14 + l) x 1000 x w: 45,000 three times (triple words),
    // 16,000 twice (double letters), 15,000 twice: 197,000; the bingo
    // 1000 at most.
    assert_eq!(bound, 459_000 + 197_000 + 1000);
    assert!(bound <= i128::from(lexq::game::MAX_MOVE_SCORE), "{bound}");
    let mut generator = Generator::new();
    let mut compared = 0;
    for cgp in include_str!("../../benches/heavy.cgp").lines().step_by(10) {
        let mut moves = |file: &str| {
            let line = format!("{cgp} ld {file};");
            let pos = Position::from_cgp_with(&lex, &line, &FilePolicy::any_file()).unwrap();
            let mut all = All::default();
            generator.generate(&pos.board, &pos.rack(), &mut all);
            let mut top = TopN::new(3);
            generator.generate(&pos.board, &pos.rack(), &mut top);
            (all.into_sorted(), top.into_sorted())
        };
        let (big, big_top) = moves(&heavy);
        let (small, _) = moves(&light);
        assert_eq!(big.len(), small.len(), "{cgp}");
        let scaled = |m: &Move| {
            let bingo = if m.tiles_used() == 7 { 50 } else { 0 };
            (m.score() - bingo) * 1000 + bingo
        };
        let mut expected: Vec<(String, i32)> = small
            .iter()
            .map(|m| (m.notation(lex.alphabet()), scaled(m)))
            .collect();
        let mut got: Vec<(String, i32)> = big
            .iter()
            .map(|m| (m.notation(lex.alphabet()), m.score()))
            .collect();
        expected.sort();
        got.sort();
        assert!(expected == got, "{cgp}");
        let best = got.iter().map(|g| g.1).max();
        assert_eq!(big_top.first().map(Move::score), best, "{cgp}");
        assert!(best.is_none_or(|b| i128::from(b) <= bound), "{cgp}");
        compared += got.len();
    }
    assert!(compared > 10_000, "{compared}");
}

/// Keeps every move with its equity and never prunes: the full search,
/// the oracle of the pruned one.
#[derive(Default)]
struct Every(Vec<lexq::game::Valued>);

impl lexq::game::Recorder for Every {
    fn record(&mut self, mv: &Move, _: &Rack, equity: i32) {
        self.0.push(lexq::game::Valued { mv: *mv, equity });
    }
}

#[test]
fn pruned_best_by_equity_is_the_best_of_the_full_list() {
    // Best (best-first over anchor bounds, exchanges first, pruned walk)
    // against the maximum by rank_valued of every move the unpruned
    // search lists, each equity checked against Generator::equity of the
    // move: with a leave table, exchanges on and off, the bag's real size
    // (the bag-empty end-game form included), on self-played positions of
    // every phase and on the benchmark files (racks of 0, 1 and 2 blanks).
    use std::sync::Arc;
    let lex = Lexicon::embedded();
    let table = Leaves::from_csv(include_str!("../data/leaves/small.csv"), lex.alphabet()).unwrap();
    let leaves = Some(Arc::new(table));
    let tiles = lexq::TileSet::named("english", lex.alphabet()).unwrap();
    let mut lines: Vec<String> = Vec::new();
    for seed in 40..46 {
        let game = selfplay::play(&lex, &lexq::game::Layout::standard(), &tiles, seed, "").unwrap();
        lines.extend(game.positions.iter().step_by(2).cloned());
    }
    let bench = include_str!("../../benches/positions.cgp");
    let heavy = include_str!("../../benches/heavy.cgp");
    lines.extend(bench.lines().step_by(4).map(String::from));
    lines.extend(heavy.lines().step_by(3).map(String::from));
    let (mut checked, mut exchanged) = (0, 0);
    for line in &lines {
        let pos = Position::from_cgp(&lex, line).unwrap();
        let rack = pos.rack();
        for exchanges in [true, false] {
            let mut generator = Generator::new().exchanges(exchanges).leaves(leaves.clone());
            generator.set_bag(Some(pos.bag_len()));
            let mut every = Every::default();
            generator.generate(&pos.board, &rack, &mut every);
            for v in &every.0 {
                assert_eq!(
                    generator.equity(&pos.board, &rack, &v.mv),
                    v.equity,
                    "{line}"
                );
            }
            let want = every.0.iter().copied().min_by(lexq::game::rank_valued);
            let mut best = Best::default();
            generator.generate(&pos.board, &rack, &mut best);
            assert_eq!(best.valued(), want, "{line} (exchanges {exchanges})");
            let mut top = TopN::new(3);
            generator.generate(&pos.board, &rack, &mut top);
            let mut sorted = every.0.clone();
            sorted.sort_unstable_by(lexq::game::rank_valued);
            sorted.truncate(3);
            assert_eq!(top.into_valued(), sorted, "{line} (exchanges {exchanges})");
            checked += 1;
            if want.is_some_and(|v| v.mv.kind() != MoveKind::Place) {
                exchanged += 1;
            }
        }
    }
    // Enough positions, some of them best answered by an exchange or pass.
    assert!(checked > 300 && exchanged > 0, "{checked} {exchanged}");
}
