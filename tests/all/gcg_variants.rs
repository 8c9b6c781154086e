//! GCG files as players and other programs write them: multi-letter
//! tiles plain or bracketed (Spanish and Catalan games round-trip),
//! every end-of-game form, comments after the total, players without
//! `#player` lines, three players, encodings other than UTF-8, racks
//! written `UNKNOWN`, and `--check`'s whole-game checks.
//!
//! The files in `tests/data/gcg/variants/` were written by lexq's own game
//! state (`write_fixtures`, run by hand with `--ignored`), then copied and
//! edited by hand where their `#note` lines say so; every one is replayed
//! here by the library and, for the English and Spanish ones, by the
//! independent replay of `common/replay.rs`.

use crate::common;

use std::path::PathBuf;

use crate::common::brute::{ENABLE_RULES, SPANISH_RULES};
use lexq::game::gcg::{Game as Record, GcgErrorKind};
use lexq::game::{OutRule, Rules, TurnKind};
use lexq::{
    Alphabet, Lexicon, TileSet, WordList, build, game::Game, game::Generator, game::Layout,
    game::Move, game::Position,
};

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn variant(name: &str) -> PathBuf {
    data("gcg/variants").join(name)
}

fn lexicon_of(alphabet: Alphabet, words: &str) -> Lexicon {
    let mut list = WordList::new(alphabet);
    list.read_path(&data(words)).unwrap();
    Lexicon::from_bytes(build(&list, &mut ()).unwrap().bytes).unwrap()
}

fn spanish() -> Lexicon {
    lexicon_of(Alphabet::spanish(), "spanish-sample.txt")
}

fn catalan() -> Lexicon {
    lexicon_of(Alphabet::catalan(), "catalan/words.txt")
}

fn catalan_tiles(lex: &Lexicon) -> TileSet {
    TileSet::named(data("catalan/tiles.txt").to_str().unwrap(), lex.alphabet()).unwrap()
}

/// A greedy game on `lex`: the best play, else an exchange of the whole
/// rack while the bag allows, else a pass.
fn greedy<'a>(game: &mut Game<'a>) {
    let mut generator = Generator::new();
    let size = game.board().tile_set().rack_size();
    while !game.is_over() {
        let rack = *game.rack(game.to_move());
        let mut best = lexq::game::Best::default();
        generator.generate(game.board(), &rack, &mut best);
        let mv = match best.best {
            Some((m, _)) => m,
            None if game.bag_len() >= size => Move::exchange(&rack.codes()),
            None => Move::pass(),
        };
        game.apply(&mv).unwrap();
    }
}

/// Replays a record with the library: the problems (as `line kind`), the
/// final board rows and the totals.
fn lib_check(text: &str, lex: &Lexicon, tiles: TileSet) -> (Vec<String>, String, Vec<i32>) {
    let g = Record::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let r = lexq::game::replay::replay(&g, lex, Layout::standard(), tiles, None).unwrap();
    let problems = r
        .problems
        .iter()
        .map(|p| format!("{} {}", p.line, p.kind.name()))
        .collect();
    (problems, r.board.to_cgp_rows(), r.scores)
}

fn oracle_check(text: &str, rules: &common::brute::Rules) -> (Vec<String>, Vec<i32>) {
    let g = Record::parse(text).unwrap();
    let r = common::replay::replay(rules, &g, 15, None);
    let problems = r
        .problems
        .iter()
        .map(|p| format!("{} {}", p.line, p.kind))
        .collect();
    (problems, r.scores)
}

/// Every bracket taken out: how a player would write the same game.
fn plain(text: &str) -> String {
    text.replace(['[', ']'], "")
}

#[test]
fn spanish_self_play_round_trips() {
    let lex = spanish();
    let mut multi = 0;
    for seed in 1..=6 {
        let tiles = TileSet::named("spanish", lex.alphabet()).unwrap();
        let mut game = Game::new(&lex, Layout::standard(), tiles.clone(), 2, seed).unwrap();
        greedy(&mut game);
        let text = game.to_gcg(&["ana", "bea"]);
        multi += text.matches("[CH]").count()
            + text.matches("[LL]").count()
            + text.matches("[RR]").count();
        // As lexq writes it, and with every bracket taken out.
        for written in [text.clone(), plain(&text)] {
            let (problems, board, scores) = lib_check(&written, &lex, tiles.clone());
            assert_eq!(problems, Vec::<String>::new(), "seed {seed}\n{written}");
            assert_eq!(board, game.board().to_cgp_rows(), "seed {seed}");
            assert_eq!(scores, game.scores(), "seed {seed}");
            let (problems, scores) = oracle_check(&written, &SPANISH_RULES);
            assert_eq!(problems, Vec::<String>::new(), "seed {seed}\n{written}");
            assert_eq!(scores, game.scores(), "seed {seed}");
        }
    }
    assert!(multi > 10, "{multi} multi-letter tiles written");
}

#[test]
fn a_plain_spanish_rack_plays_a_word_with_rr() {
    let lex = spanish();
    let tiles = || TileSet::named("spanish", lex.alphabet()).unwrap();
    // BORROSE: B O R R O S E one letter a tile, or B O RR O S E. BORRO on
    // 8E takes the RR tile: B 3, O 1, RR 8, O 1 on the star: 26.
    let text = "#player1 ana Ana\n#player2 bea Bea\n>ana: BORROSE 8E BORRO +26 26\n";
    let (problems, board, _) = lib_check(text, &lex, tiles());
    assert_eq!(problems, Vec::<String>::new());
    assert_eq!(board, "15/15/15/15/15/15/15/4BO[RR]O7/15/15/15/15/15/15/15");
    let (problems, _) = oracle_check(text, &SPANISH_RULES);
    assert_eq!(problems, Vec::<String>::new());
    // The position before it: the rack that plays it, bracketed.
    let g = Record::parse(text).unwrap();
    let r = lexq::game::replay::replay(&g, &lex, Layout::standard(), tiles(), Some(0)).unwrap();
    assert!(
        r.position(&g).to_cgp().contains(" BEOO[RR]S/ "),
        "{}",
        r.position(&g).to_cgp()
    );
    // A rack without RR: the message brackets it.
    let text = "#player1 ana Ana\n#player2 bea Bea\n>ana: BOLOSEA 8E BORRO +26 26\n";
    let g = Record::parse(text).unwrap();
    let r = lexq::game::replay::replay(&g, &lex, Layout::standard(), tiles(), None).unwrap();
    assert_eq!(
        r.problems[0].to_string(),
        "line 3: illegal placement: [RR] is not on the rack ABELOOS"
    );
}

#[test]
fn catalan_self_play_round_trips() {
    let lex = catalan();
    let tiles = catalan_tiles(&lex);
    let mut multi = 0;
    for seed in 1..=4 {
        let mut game = Game::new(&lex, Layout::standard(), tiles.clone(), 2, seed).unwrap();
        greedy(&mut game);
        let text = game.to_gcg(&["ada", "biel"]);
        multi += ["[L·L]", "[NY]", "[QU]"]
            .iter()
            .map(|t| text.matches(t).count())
            .sum::<usize>();
        for written in [text.clone(), plain(&text)] {
            let (problems, board, scores) = lib_check(&written, &lex, tiles.clone());
            assert_eq!(problems, Vec::<String>::new(), "seed {seed}\n{written}");
            assert_eq!(board, game.board().to_cgp_rows(), "seed {seed}");
            assert_eq!(scores, game.scores(), "seed {seed}");
        }
    }
    assert!(multi > 5, "{multi} multi-letter tiles written");
}

#[test]
fn the_committed_spanish_and_catalan_games() {
    let lex = spanish();
    let tiles = TileSet::named("spanish", lex.alphabet()).unwrap();
    let text = std::fs::read_to_string(variant("spanish-plain.gcg")).unwrap();
    assert!(!text.contains('['), "written without brackets");
    let (problems, _, scores) = lib_check(&text, &lex, tiles);
    assert_eq!(problems, Vec::<String>::new());
    let (problems, oracle) = oracle_check(&text, &SPANISH_RULES);
    assert_eq!(problems, Vec::<String>::new());
    assert_eq!(scores, oracle);
    assert_eq!(Record::parse(&text).unwrap().final_scores(), scores);
    let lex = catalan();
    let text = std::fs::read_to_string(variant("catalan.gcg")).unwrap();
    let (problems, _, scores) = lib_check(&text, &lex, catalan_tiles(&lex));
    assert_eq!(problems, Vec::<String>::new());
    assert_eq!(Record::parse(&text).unwrap().final_scores(), scores);
}

/// The English variants, each replayed clean by both replays.
#[test]
fn end_forms_comments_and_players() {
    let lex = Lexicon::embedded();
    for name in [
        "end-doubled-blank.gcg",
        "end-once-each.gcg",
        "six-zeros.gcg",
        "quackle-comments.gcg",
        "no-player-lines.gcg",
        "three-players.gcg",
        "unknown-racks.gcg",
    ] {
        let text = std::fs::read_to_string(variant(name)).unwrap();
        let tiles = TileSet::named("english", lex.alphabet()).unwrap();
        let (problems, _, scores) = lib_check(&text, &lex, tiles);
        assert_eq!(problems, Vec::<String>::new(), "{name}");
        let g = Record::parse(&text).unwrap();
        assert_eq!(scores, g.final_scores(), "{name}");
        let (problems, oracle) = oracle_check(&text, &ENABLE_RULES);
        assert_eq!(problems, Vec::<String>::new(), "{name}");
        assert_eq!(oracle, scores, "{name}");
    }
    let read = |name: &str| Record::read(&variant(name)).unwrap();
    // A blank among the tiles counted at the end.
    let g = read("end-doubled-blank.gcg");
    let last = g.events.last().unwrap();
    assert!(
        matches!(&last.kind, lexq::game::gcg::EventKind::EndRackPoints { tiles } if tiles.contains('?')),
        "{last:?}"
    );
    // Comments after the total.
    let g = read("quackle-comments.gcg");
    assert_eq!(g.events[0].comment, "LANUGO");
    assert_eq!(g.events[4].comment, "TAKA, AT");
    assert_eq!(g.events[1].comment, "");
    // Players from their events, in order.
    let g = read("no-player-lines.gcg");
    let nicks: Vec<&str> = g
        .players
        .iter()
        .map(|p| p.as_ref().unwrap().nick.as_str())
        .collect();
    assert_eq!(nicks, ["Ann", "Bob"]);
    let g = read("three-players.gcg");
    assert_eq!(g.player_count(), 3);
    assert_eq!(g.final_scores().len(), 3);
    // Undeclared players past the eighth: refused.
    let many: String = (1..=9).map(|k| format!(">p{k}: A - +0 0\n")).collect();
    let e = Record::parse(&many).unwrap_err();
    assert_eq!(
        (e.line, e.kind.clone()),
        (9, GcgErrorKind::TooManyPlayers(9))
    );
    assert_eq!(
        e.to_string(),
        "line 9, column 2: player 9: a game has at most 8 players"
    );
    // UNKNOWN racks are not known.
    let g = read("unknown-racks.gcg");
    assert!(g.events.iter().any(|e| e.rack.is_empty()));
}

/// Every turn of every committed game is a position that reads back.
#[test]
fn every_turn_is_a_position_that_reads_back() {
    let en = Lexicon::embedded();
    let es = spanish();
    let ca = catalan();
    let dir = data("gcg/variants");
    let mut turns = 0;
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .chain(
            std::fs::read_dir(data("gcg"))
                .unwrap()
                .map(|e| e.unwrap().path()),
        )
        .filter(|p| p.extension().is_some_and(|x| x == "gcg"))
        .collect();
    names.sort();
    for path in names {
        let Ok(g) = Record::read(&path) else { continue };
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let (lex, tiles) = if name.starts_with("spanish") {
            (&es, TileSet::named("spanish", es.alphabet()).unwrap())
        } else if name.starts_with("catalan") {
            (&ca, catalan_tiles(&ca))
        } else {
            (&en, TileSet::named("english", en.alphabet()).unwrap())
        };
        for k in 0..=g.events.len() {
            let r = lexq::game::replay::replay(&g, lex, Layout::standard(), tiles.clone(), Some(k))
                .unwrap();
            let mut pos = r.position(&g);
            // A Catalan tile set is a file: the CGP names it.
            if name.starts_with("catalan") {
                pos.ops.retain(|o| o.name != "ld");
                pos.ops.push(lexq::game::Opcode {
                    name: "ld".into(),
                    args: data("catalan/tiles.txt").to_str().unwrap().into(),
                });
            }
            let cgp = pos.to_cgp();
            // The test's own tile file: any file is allowed here.
            let back = Position::from_cgp_with(lex, &cgp, &lexq::files::FilePolicy::any_file())
                .unwrap_or_else(|e| panic!("{name} turn {k}: {cgp}: {e}"));
            assert_eq!(back.to_cgp(), cgp);
            turns += 1;
        }
    }
    assert!(turns > 400, "{turns}");
}

#[test]
fn encodings() {
    // Latin-1 and Windows-1252 when the first line says so; UTF-16 with
    // or without its byte-order mark; a file that says nothing and is not
    // UTF-8 is refused with the encoding it looks like.
    let utf8 = std::fs::read_to_string(variant("no-player-lines.gcg")).unwrap();
    let body = utf8
        .replace("#character-encoding UTF-8\n", "")
        .replace("Ann", "José")
        .replace("Bob", "Zoë");
    let latin1 = |s: &str| -> Vec<u8> { s.chars().map(|c| c as u32 as u8).collect() };
    let want = Record::parse(&body).unwrap();
    for (bytes, what) in [
        (
            latin1(&format!("#character-encoding ISO-8859-1\n{body}")),
            "latin-1",
        ),
        (
            latin1(&format!("#character-encoding windows-1252\n{body}")),
            "cp1252",
        ),
        (
            std::iter::once(0xFEFFu16)
                .chain(body.encode_utf16())
                .flat_map(u16::to_le_bytes)
                .collect(),
            "utf-16le",
        ),
        (
            body.encode_utf16().flat_map(u16::to_be_bytes).collect(),
            "utf-16be",
        ),
    ] {
        let g = Record::from_bytes(&bytes).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(g.players, want.players, "{what}");
        assert_eq!(g.events.len(), want.events.len(), "{what}");
    }
    // Windows-1252's curly quotes in a note.
    let mut bytes = latin1("#character-encoding Windows-1252\n#note ");
    bytes.extend([0x93, b'h', b'i', 0x94, b'\n']);
    let g = Record::from_bytes(&bytes).unwrap();
    assert_eq!(g.notes, ["\u{201C}hi\u{201D}"]);
    // Undeclared: read as the encoding the bytes look like, with a
    // warning naming it (line 1: José is on the first line).
    let g = Record::from_bytes(&latin1(&body)).unwrap();
    assert_eq!(g.players, want.players);
    assert_eq!(g.events, want.events);
    assert_eq!(g.warnings.len(), 1, "{:?}", g.warnings);
    assert!(
        g.warnings[0]
            .message
            .contains("#character-encoding ISO-8859-1"),
        "{}",
        g.warnings[0]
    );
    let mut cp = latin1(&body);
    cp.extend([b'#', b'n', b'o', b't', b'e', b' ', 0x93, b'\n']);
    let g = Record::from_bytes(&cp).unwrap();
    assert_eq!(g.players, want.players);
    assert!(
        g.warnings[0].message.contains("Windows-1252"),
        "{:?}",
        g.warnings
    );
    assert_eq!(g.events.last().unwrap().notes, ["\u{201C}"]);
    // UTF-8 says nothing.
    assert_eq!(Record::from_bytes(body.as_bytes()).unwrap().warnings, []);
    // Line ends of CR alone (old Mac files), with or without a declared
    // encoding: the same game.
    let cr = body.replace('\n', "\r");
    let g = Record::from_bytes(cr.as_bytes()).unwrap();
    assert_eq!((&g.players, &g.events), (&want.players, &want.events));
    let declared = latin1(&format!("#character-encoding ISO-8859-1\r{cr}"));
    let g = Record::from_bytes(&declared).unwrap();
    assert_eq!(g.events.len(), want.events.len());
    assert_eq!(g.players, want.players);
}

/// A file's text with one line put in after the line starting with
/// `after`.
fn insert_after(text: &str, after: &str, line: &str) -> String {
    let at = text.find(after).unwrap_or_else(|| panic!("{after}"));
    let end = at + text[at..].find('\n').unwrap() + 1;
    format!("{}{line}\n{}", &text[..end], &text[end..])
}

#[test]
fn final_pass_after_going_out() {
    // Woogles and macondo write the other player's pass (a challenge
    // declined) after a play that goes out: accepted, once, right after
    // the play.
    let lex = Lexicon::embedded();
    let tiles = || TileSet::named("english", lex.alphabet()).unwrap();
    let text = std::fs::read_to_string(variant("end-doubled-blank.gcg")).unwrap();
    let (clean, _, scores) = lib_check(&text, &lex, tiles());
    assert_eq!(clean, Vec::<String>::new());
    let with_pass = insert_after(&text, ">ann: EF K3 F(O)E", ">bob: T? - +0 521");
    let (problems, _, after) = lib_check(&with_pass, &lex, tiles());
    assert_eq!(problems, Vec::<String>::new(), "{with_pass}");
    assert_eq!(after, scores);
    // A pass by the player who went out, or a second pass, is still a
    // move after the end.
    let by_ann = insert_after(&text, ">ann: EF K3 F(O)E", ">ann: - +0 363");
    let (problems, _, _) = lib_check(&by_ann, &lex, tiles());
    assert_eq!(problems, ["26 after-end"]);
    let twice = insert_after(&with_pass, ">bob: T? - +0 521", ">bob: T? - +0 521");
    let (problems, _, _) = lib_check(&twice, &lex, tiles());
    assert_eq!(problems, ["27 after-end"]);
}

#[test]
fn quackle_withdrawal_line() {
    // Quackle writes a phony withdrawn as `-- +0 TOTAL`, the total
    // without the phony's points: accepted when the total is so.
    let lex = Lexicon::embedded();
    let tiles = || TileSet::named("english", lex.alphabet()).unwrap();
    let text = std::fs::read_to_string(data("gcg/phony-withdrawn.gcg")).unwrap();
    let (want, board, scores) = lib_check(&text, &lex, tiles());
    let quackle = text.replace(">ann: DEIIJOQ -- -86 93", ">ann: DEIIJOQ -- +0 93");
    assert_ne!(quackle, text);
    assert_eq!(
        lib_check(&quackle, &lex, tiles()),
        (want.clone(), board, scores)
    );
    // A total that does not take the points off is still wrong.
    let wrong = text.replace(">ann: DEIIJOQ -- -86 93", ">ann: DEIIJOQ -- +0 179");
    let (problems, _, _) = lib_check(&wrong, &lex, tiles());
    assert!(
        problems.iter().any(|p| p.ends_with("score")),
        "{problems:?}"
    );
}

#[test]
fn players_with_the_same_nickname() {
    // Quackle calls both players NoName when nobody named them: the
    // events go to the players by turn order, with a warning.
    let lex = Lexicon::embedded();
    for (name, path) in [
        ("end-doubled-blank.gcg", variant("end-doubled-blank.gcg")),
        ("end-once-each.gcg", variant("end-once-each.gcg")),
        ("six-zeros.gcg", variant("six-zeros.gcg")),
        ("wespa-end.gcg", data("gcg/wespa-end.gcg")),
        (
            "exchange-pass-challenge.gcg",
            data("gcg/exchange-pass-challenge.gcg"),
        ),
    ] {
        let text = std::fs::read_to_string(path).unwrap();
        let want = Record::parse(&text).unwrap();
        let nick = |p: usize| want.players[p].as_ref().unwrap().nick.clone();
        let (a, b) = (nick(0), nick(1));
        let same = text
            .replace(&format!("#player1 {a} "), "#player1 NoName ")
            .replace(&format!("#player2 {b} "), "#player2 NoName ")
            .replace(&format!(">{a}:"), ">NoName:")
            .replace(&format!(">{b}:"), ">NoName:");
        let g = Record::parse(&same).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(g.warnings.len(), 1, "{name}");
        assert!(g.warnings[0].message.contains("turn order"), "{name}");
        let players = |r: &Record| r.events.iter().map(|e| e.player).collect::<Vec<_>>();
        assert_eq!(players(&g), players(&want), "{name}");
        let tiles = TileSet::named("english", lex.alphabet()).unwrap();
        let (problems, _, scores) = lib_check(&same, &lex, tiles);
        assert_eq!(problems, Vec::<String>::new(), "{name}");
        assert_eq!(scores, want.final_scores(), "{name}");
    }
}

#[test]
fn a_huge_rack_is_reported_with_its_size() {
    let lex = Lexicon::embedded();
    let text = std::fs::read_to_string(variant("end-doubled-blank.gcg")).unwrap();
    let rack = "E".repeat(5000);
    let huge = text.replace(">bob: AGHIMNS I6", &format!(">bob: {rack} I6"));
    let g = Record::parse(&huge).unwrap();
    let tiles = TileSet::named("english", lex.alphabet()).unwrap();
    let r = lexq::game::replay::replay(&g, &lex, Layout::standard(), tiles, None).unwrap();
    let messages: Vec<String> = r.problems.iter().map(|p| p.kind.to_string()).collect();
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with("a rack of 5000 tiles")),
        "{messages:?}"
    );
    assert!(!messages.iter().any(|m| m.contains("255")), "{messages:?}");
}

#[test]
fn whole_game_check() {
    let lex = Lexicon::embedded();
    let text = std::fs::read_to_string(variant("whole-game-mistakes.gcg")).unwrap();
    let tiles = TileSet::named("english", lex.alphabet()).unwrap();
    let (problems, _, _) = lib_check(&text, &lex, tiles);
    let expected = std::fs::read_to_string(variant("whole-game-mistakes.expected")).unwrap();
    let want: Vec<&str> = expected.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(problems, want);
    // The independent replay finds the same.
    let (problems, _) = oracle_check(&text, &ENABLE_RULES);
    assert_eq!(problems, want);
}

/// Writes the generated games of `tests/data/gcg/variants/` again (run by
/// hand; the files derived from them by hand are not rewritten).
#[test]
#[ignore]
fn write_fixtures() {
    let lex = Lexicon::embedded();
    let en = || TileSet::named("english", lex.alphabet()).unwrap();
    let lex_op = |name: &str| {
        vec![lexq::game::Opcode {
            name: "lex".into(),
            args: name.into(),
        }]
    };
    // Doubled, with a blank left on the loser's rack.
    let game = (1..500)
        .find_map(|seed| {
            let mut g = Game::new(&lex, Layout::standard(), en(), 2, seed).unwrap();
            greedy(&mut g);
            let blank_left = g
                .turns()
                .last()
                .is_some_and(|t| matches!(t.kind, TurnKind::OutPoints(r) if r.count(0) > 0));
            blank_left.then_some(g.with_opcodes(lex_op("ENABLE")))
        })
        .unwrap();
    std::fs::write(
        variant("end-doubled-blank.gcg"),
        game.to_gcg(&["ann", "bob"]),
    )
    .unwrap();
    // Out, counted once each.
    let mut g = Game::new(&lex, Layout::standard(), en(), 2, 3)
        .unwrap()
        .with_rules(Rules {
            out: OutRule::Once,
            ..Rules::default()
        })
        .with_opcodes(lex_op("ENABLE"));
    greedy(&mut g);
    std::fs::write(variant("end-once-each.gcg"), g.to_gcg(&["ann", "bob"])).unwrap();
    // Six scoreless turns.
    let game = (1..2000)
        .find_map(|seed| {
            let mut g = Game::new(&lex, Layout::standard(), en(), 2, seed).unwrap();
            greedy(&mut g);
            let zeros = g
                .turns()
                .last()
                .is_some_and(|t| matches!(t.kind, TurnKind::RackPenalty(_)));
            zeros.then_some(g.with_opcodes(lex_op("ENABLE")))
        })
        .unwrap();
    std::fs::write(variant("six-zeros.gcg"), game.to_gcg(&["ann", "bob"])).unwrap();
    // Three players.
    let mut g = Game::new(&lex, Layout::standard(), en(), 3, 5)
        .unwrap()
        .with_opcodes(lex_op("ENABLE"));
    greedy(&mut g);
    std::fs::write(
        variant("three-players.gcg"),
        g.to_gcg(&["ann", "bob", "cy"]),
    )
    .unwrap();
    // The base of the hand-edited files: greedy, but for an exchange of
    // three tiles on the fourth turn.
    let mut g = Game::new(&lex, Layout::standard(), en(), 2, 8)
        .unwrap()
        .with_opcodes(lex_op("ENABLE"));
    for _ in 0..3 {
        let mut best = lexq::game::Best::default();
        Generator::new().generate(g.board(), g.rack(g.to_move()), &mut best);
        g.apply(&best.best.unwrap().0).unwrap();
    }
    let three: Vec<u8> = g.rack(g.to_move()).codes()[..3].to_vec();
    g.apply(&Move::exchange(&three)).unwrap();
    greedy(&mut g);
    std::fs::write(variant("base-english.gcg"), g.to_gcg(&["Ann", "Bob"])).unwrap();
    let es = spanish();
    let mut g = Game::new(
        &es,
        Layout::standard(),
        TileSet::named("spanish", es.alphabet()).unwrap(),
        2,
        11,
    )
    .unwrap();
    greedy(&mut g);
    std::fs::write(
        variant("spanish-plain.gcg"),
        plain(&g.to_gcg(&["ana", "bea"])),
    )
    .unwrap();
    let ca = catalan();
    let mut g = Game::new(&ca, Layout::standard(), catalan_tiles(&ca), 2, 12).unwrap();
    greedy(&mut g);
    std::fs::write(variant("catalan.gcg"), g.to_gcg(&["ada", "biel"])).unwrap();
}
