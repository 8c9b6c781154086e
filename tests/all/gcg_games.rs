//! GCG game files: parsing every event line of the format, the games in
//! `tests/data/gcg/` replayed and checked by an independent replay on the
//! brute force's board (`common/replay.rs`), and every kind of bad input
//! with its line and column.
//!
//! The games were played by the brute force's own greedy self-play
//! (`common/positions.rs`, `gcg_game`) with scripted exchanges, passes,
//! phonies, challenges and penalties, and written out by
//! `cargo test -p lexq --test all -- --ignored gcg_games::regenerate`; their
//! notes and headers were then edited by hand.

use crate::common;

use std::path::PathBuf;

use crate::common::brute::ENABLE_RULES;
use crate::common::positions::{Script, gcg_game, phony_rules};
use crate::common::replay::replay;
use lexq::game::gcg::{Coord, EventKind, Game, GcgError, GcgErrorKind};

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/gcg")
        .join(name)
}

fn header(title: &str, description: &str) -> String {
    format!(
        "#character-encoding UTF-8\n\
         #player1 ann Ann Example\n\
         #player2 bob Bob Example\n\
         #title {title}\n\
         #description {description}\n\
         #lexicon ENABLE\n\
         #id lexq {title}\n"
    )
}

/// Writes the games of `tests/data/gcg/` again (run by hand).
#[test]
#[ignore]
fn regenerate() {
    let rules = &*ENABLE_RULES;
    let fake = phony_rules(rules);
    let games = [
        (
            "exchange-pass-challenge.gcg",
            11,
            Script {
                exchange: Some(2),
                pass: Some(5),
                challenge: Some(7),
                ..Script::default()
            },
            "A game with an exchange, a pass and a challenge bonus",
        ),
        (
            "phony-withdrawn.gcg",
            12,
            Script {
                phony_withdrawn: Some(4),
                exchange: Some(9),
                time_penalty: Some(1),
                ..Script::default()
            },
            "A phony withdrawn, an exchange and a time penalty",
        ),
        (
            "wespa-end.gcg",
            13,
            Script {
                wespa_end: true,
                pass: Some(3),
                challenge: Some(10),
                ..Script::default()
            },
            "Ends with rack points and the loser's rack penalty",
        ),
        (
            "mistakes.gcg",
            14,
            Script {
                phony_kept: Some(5),
                wrong_score: Some(8),
                wrong_cumulative: Some(11),
                illegal: Some(14),
                ..Script::default()
            },
            "Deliberate mistakes: see mistakes.expected",
        ),
    ];
    for (name, seed, script, description) in games {
        let title = name.trim_end_matches(".gcg");
        let g = gcg_game(rules, &fake, seed, &script, &header(title, description));
        std::fs::write(data(name), &g.text).unwrap();
        if !g.mistakes.is_empty() {
            let mut s = String::from("# line kind: the mistakes of mistakes.gcg\n");
            for (line, kind) in &g.mistakes {
                s += &format!("{line} {kind}\n");
            }
            std::fs::write(data("mistakes.expected"), s).unwrap();
        }
    }
}

fn read(name: &str) -> Game {
    Game::read(&data(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

const GAMES: [&str; 3] = [
    "exchange-pass-challenge.gcg",
    "phony-withdrawn.gcg",
    "wespa-end.gcg",
];

#[test]
fn games_parse_with_every_event_kind() {
    let mut seen = std::collections::HashSet::new();
    for name in GAMES.iter().chain(&["mistakes.gcg"]) {
        let g = read(name);
        assert_eq!(g.players[0].as_ref().unwrap().nick, "ann");
        assert_eq!(g.players[1].as_ref().unwrap().name, "Bob Example");
        assert_eq!(g.lexicon.as_deref(), Some("ENABLE"));
        assert_eq!(g.encoding.as_deref(), Some("UTF-8"));
        assert!(g.events.len() > 15, "{name}: a whole game");
        for e in &g.events {
            seen.insert(std::mem::discriminant(&e.kind));
        }
    }
    let kinds = [
        EventKind::Play {
            coord: Coord {
                row: 0,
                col: 0,
                across: true,
            },
            word: String::new(),
        },
        EventKind::Pass,
        EventKind::Exchange {
            tiles: String::new(),
        },
        EventKind::PhonyWithdrawn,
        EventKind::ChallengeBonus,
        EventKind::EndRackPoints {
            tiles: String::new(),
        },
        EventKind::EndRackPenalty {
            tiles: String::new(),
        },
        EventKind::TimePenalty,
    ];
    for k in &kinds {
        assert!(
            seen.contains(&std::mem::discriminant(k)),
            "{k:?} in some game"
        );
    }
}

#[test]
fn games_replay_cleanly_and_final_scores_match() {
    for name in GAMES {
        let g = read(name);
        let r = replay(&ENABLE_RULES, &g, 15, None);
        assert_eq!(r.problems, vec![], "{name}");
        assert_eq!(r.scores, g.final_scores(), "{name}");
        // The written totals add up: the sum of the scores of each player.
        let mut sums = vec![0, 0];
        for e in &g.events {
            sums[e.player] += e.score;
        }
        assert_eq!(sums, g.final_scores(), "{name}");
    }
    let g = read("exchange-pass-challenge.gcg");
    let bingo = g.events.iter().find(|e| e.score == 83).unwrap();
    assert_eq!(
        bingo.notes,
        ["NEGLIGE: all seven tiles,\nfor the 50-point bonus."]
    );
}

#[test]
fn mistakes_are_found_on_their_lines() {
    let g = read("mistakes.gcg");
    let expected = std::fs::read_to_string(data("mistakes.expected")).unwrap();
    let want: Vec<(usize, String)> = expected
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (line, kind) = l.split_once(' ').unwrap();
            (line.parse().unwrap(), kind.to_string())
        })
        .collect();
    assert_eq!(want.len(), 4);
    let r = replay(&ENABLE_RULES, &g, 15, None);
    let got: Vec<(usize, String)> = r
        .problems
        .iter()
        .map(|p| (p.line, p.kind.to_string()))
        .collect();
    assert_eq!(got, want, "{:#?}", r.problems);
}

// ---------------------------------------------------------------------------
// Every event line, by hand

const PLAYERS: &str = "#player1 ann Ann Example\n#player2 bob Bob\n";

fn parse(events: &str) -> Result<Game, GcgError> {
    Game::parse(&format!("{PLAYERS}{events}"))
}

#[test]
fn every_event_line() {
    let g = parse(
        ">ann: AEINRST 8D STAINER +66 66\n\
         #note a fine opening\n\
         and a second line of the note\n\
         >bob: EIOQUXZ -QXZ +0 0\n\
         >ann: ?ABCDEF E5 BA(S)e +6 72\n\
         >bob: EIOPRTU -- -0 0\n",
    );
    // `--` must follow a play by the same player.
    assert_eq!(
        g.unwrap_err(),
        GcgError {
            line: 8,
            column: 15,
            kind: GcgErrorKind::PhonyWithoutPlay
        }
    );
    let g = parse(
        ">ann: AEINRST 8D STAINER +66 66\n\
         #note a fine opening\n\
         and a second line\n\
         >bob: EIOQUXZ -QXZ +0 0\n\
         >ann: ?ABCDEF E5 BA(S)e +6 72\n\
         >ann: ?ACDEF -- -6 66\n\
         >bob: EEIOUXX - +0 0\n\
         >bob: EEIOUXX -7 +0 0\n\
         >ann: ACDEF? 9C CA.E +7 73\n\
         >ann: DF? (challenge) +5 78\n\
         >ann: (challenge) +5 83\n\
         >bob: EEIOUXX (time) -10 -10\n\
         >bob: (time) -10 -20\n\
         >ann: (EEIOUXX) +34 117\n\
         >bob: EEIOUXX (EEIOUXX) -17 -37\n",
    )
    .unwrap();
    let kinds: Vec<String> = g.events.iter().map(|e| e.notation()).collect();
    assert_eq!(
        kinds,
        [
            "8D STAINER",
            "-QXZ",
            "E5 BA(S)e",
            "--",
            "-",
            "-7",
            "9C CA.E",
            "(challenge)",
            "(challenge)",
            "(time)",
            "(time)",
            "(EEIOUXX)",
            "(EEIOUXX)",
        ]
    );
    assert_eq!(g.events[0].notes, ["a fine opening\nand a second line"]);
    assert_eq!(g.events[2].rack, "?ABCDEF");
    assert_eq!(g.events[3].score, -6);
    assert_eq!(g.events[5].kind, EventKind::ExchangeCount(7));
    assert_eq!(g.events[8].rack, "");
    assert_eq!(g.events[9].cumulative, -10);
    assert!(matches!(
        g.events[12].kind,
        EventKind::EndRackPenalty { .. }
    ));
    assert_eq!(
        g.events[2].kind,
        EventKind::Play {
            coord: Coord {
                row: 4,
                col: 4,
                across: false
            },
            word: "BA(S)e".into()
        }
    );
    assert_eq!(g.final_scores(), [117, -37]);
    assert_eq!(
        g.events.iter().map(|e| e.line).collect::<Vec<_>>(),
        [3, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]
    );
}

#[test]
fn every_pragma() {
    let g = Game::parse(
        "#character-encoding UTF-8\n\
         #player1 ann Ann Example\n\
         #player2 bob\n\
         #title Round 3\n\
         #description Final of the club championship\n\
         #id io.woogles abc123\n\
         #lexicon NWL2023\n\
         #note before the game\n\
         #game-type classic\n\
         #tile-set english\n\
         #tile-distribution english\n\
         #board-layout CrosswordGame\n\
         #rack1 AEINRST\n\
         #rack2 ?\n\
         #incomplete\n\
         #tile [CH] 5\n\
         #some-future-pragma with words\n",
    )
    .unwrap();
    assert_eq!(g.players[1].as_ref().unwrap().name, "bob");
    assert_eq!(g.title.as_deref(), Some("Round 3"));
    assert_eq!(
        g.description.as_deref(),
        Some("Final of the club championship")
    );
    assert_eq!(g.id, Some(("io.woogles".into(), "abc123".into())));
    assert_eq!(g.lexicon.as_deref(), Some("NWL2023"));
    assert_eq!(g.notes, ["before the game"]);
    assert_eq!(g.game_type.as_deref(), Some("classic"));
    assert_eq!(g.tile_set.as_deref(), Some("english"));
    assert_eq!(g.tile_distribution.as_deref(), Some("english"));
    assert_eq!(g.board_layout.as_deref(), Some("CrosswordGame"));
    assert_eq!(g.racks, [Some("AEINRST".into()), Some("?".into())]);
    assert!(g.incomplete);
    assert_eq!(g.pragmas.len(), 17);
    assert_eq!(g.pragmas[16].name, "some-future-pragma");
    assert_eq!(g.pragmas[16].value, "with words");
    assert!(g.events.is_empty());
}

#[test]
fn latin1_and_bom() {
    let mut bytes =
        b"#character-encoding ISO-8859-1\n#player1 jos\xE9 Jos\xE9\n#player2 b B\n".to_vec();
    bytes.extend_from_slice(b">jos\xE9: A?BC 8H AB +4 4\n");
    let g = Game::from_bytes(&bytes).unwrap();
    assert_eq!(g.players[0].as_ref().unwrap().nick, "josé");
    assert_eq!(g.events[0].player, 0);
    let g = Game::from_bytes(b"\xEF\xBB\xBF#player1 a A\n").unwrap();
    assert_eq!(g.players[0].as_ref().unwrap().nick, "a");
    // Latin-1 without an encoding header is read, with a warning (issue
    // 32; this was refused).
    let g = Game::from_bytes(b"#player1 a A\n#title caf\xE9\n").unwrap();
    assert_eq!(g.title.as_deref(), Some("caf\u{e9}"));
    assert_eq!(g.warnings.len(), 1, "{:?}", g.warnings);
}

// ---------------------------------------------------------------------------
// Bad input: every case names its line and column.

fn err(text: &str) -> (usize, usize, GcgErrorKind) {
    let e = Game::parse(text).expect_err(text);
    (e.line, e.column, e.kind)
}

fn bad_event(event: &str) -> (usize, usize, GcgErrorKind) {
    err(&format!("{PLAYERS}{event}\n"))
}

#[test]
fn bad_files() {
    assert_eq!(err(""), (1, 1, GcgErrorKind::Empty));
    assert_eq!(err("\n  \n"), (1, 1, GcgErrorKind::Empty));
    assert_eq!(
        err("#player1 a A\n#character-encoding UTF-8\n"),
        (2, 1, GcgErrorKind::EncodingNotFirst)
    );
    assert_eq!(
        err("#character-encoding EBCDIC\n"),
        (1, 21, GcgErrorKind::UnknownEncoding("EBCDIC".into()))
    );
    assert_eq!(
        err("#player1 a A\n#player1 b B\n"),
        (2, 1, GcgErrorKind::DuplicatePlayer(1))
    );
    // Two players of one nickname (Quackle's "NoName") are told apart
    // by turn order, with a warning (issue 32; this was an error).
    let g = Game::parse("#player1 a A\n#player2 a B\n").unwrap();
    assert_eq!(g.warnings.len(), 1);
    assert!(
        g.warnings[0].message.contains("turn order"),
        "{:?}",
        g.warnings
    );
    assert!(matches!(
        err("#player1\n"),
        (1, 9, GcgErrorKind::BadPragma { .. })
    ));
    assert!(matches!(
        err("#id onlyone\n"),
        (1, 5, GcgErrorKind::BadPragma { .. })
    ));
    assert!(matches!(
        err("#rack1 AB1\n"),
        (1, 8, GcgErrorKind::BadTiles { .. })
    ));
    assert!(matches!(
        err("#lexicon\n"),
        (1, 9, GcgErrorKind::BadPragma { .. })
    ));
    assert_eq!(
        err(&format!("{PLAYERS}>ann: A 8H AB +4 4\n#player2 c C\n")),
        (4, 1, GcgErrorKind::PlayerAfterEvents)
    );
    assert_eq!(
        err(&format!("{PLAYERS}hello\n")),
        (3, 1, GcgErrorKind::StrayLine)
    );
    assert_eq!(
        err(&format!("{PLAYERS}  >ann: A 8H AB +4 4\n  junk\n")),
        (4, 3, GcgErrorKind::StrayLine)
    );
}

#[test]
fn bad_events() {
    use GcgErrorKind::*;
    assert_eq!(
        bad_event(">carl: AB 8H AB +4 4"),
        (3, 2, UnknownPlayer("carl".into()))
    );
    assert_eq!(
        bad_event(">ann AB 8H AB +4 4"),
        (3, 2, Missing("nick: after >"))
    );
    assert_eq!(
        bad_event(">: AB 8H AB +4 4"),
        (3, 2, Missing("nick: after >"))
    );
    assert_eq!(bad_event(">ann:"), (3, 6, Missing("a rack")));
    assert_eq!(
        bad_event(">ann: AB"),
        (
            3,
            9,
            Missing("a move, -, -TILES, --, (challenge), (time) or (TILES)")
        )
    );
    assert_eq!(
        bad_event(">ann: AB 8Z9 AB +4 4"),
        (3, 10, BadCoordinate("8Z9".into()))
    );
    assert_eq!(
        bad_event(">ann: AB 0A AB +4 4"),
        (3, 10, BadCoordinate("0A".into()))
    );
    assert_eq!(
        bad_event(">ann: AB 8H"),
        (3, 12, Missing("the word played"))
    );
    assert!(matches!(
        bad_event(">ann: AB 8H A1 +4 4"),
        (3, 13, BadTiles { .. })
    ));
    assert!(matches!(
        bad_event(">ann: AB 8H (AB) +4 4"),
        (3, 13, BadTiles { .. })
    ));
    assert!(matches!(
        bad_event(">ann: AB 8H A(B +4 4"),
        (3, 13, BadTiles { .. })
    ));
    assert!(matches!(
        bad_event(">ann: A$B 8H AB +4 4"),
        (3, 7, BadTiles { .. })
    ));
    assert_eq!(bad_event(">ann: AB 8H AB"), (3, 15, Missing("the score")));
    assert!(matches!(
        bad_event(">ann: AB 8H AB 4 4"),
        (3, 16, BadScore { .. })
    ));
    assert!(matches!(
        bad_event(">ann: AB 8H AB -4 4"),
        (3, 16, BadScore { .. })
    ));
    assert!(matches!(
        bad_event(">ann: AB 8H AB +4x 4"),
        (3, 16, BadScore { .. })
    ));
    assert!(matches!(
        bad_event(">ann: AB 8H AB +99999999999 4"),
        (3, 16, BadScore { .. })
    ));
    assert_eq!(
        bad_event(">ann: AB 8H AB +4"),
        (3, 18, Missing("the cumulative score"))
    );
    assert_eq!(
        bad_event(">ann: AB 8H AB +4 four"),
        (3, 19, BadCumulative("four".into()))
    );

    assert!(matches!(
        bad_event(">ann: AB - +5 5"),
        (3, 12, BadScore { .. })
    ));
    assert!(matches!(
        bad_event(">ann: AB -AB +1 1"),
        (3, 14, BadScore { .. })
    ));
    assert!(matches!(
        bad_event(">ann: AB -A1 +0 0"),
        (3, 10, BadTiles { .. })
    ));
    assert!(matches!(
        bad_event(">ann: AB -0 +0 0"),
        (3, 10, BadTiles { .. })
    ));
    assert!(matches!(
        bad_event(">ann: AB (challenge) -5 0"),
        (3, 22, BadScore { .. })
    ));
    assert!(matches!(
        bad_event(">ann: AB (time) +5 0"),
        (3, 17, BadScore { .. })
    ));
    assert!(matches!(
        bad_event(">ann: (AB +5 0"),
        (3, 7, BadTiles { .. })
    ));
    assert!(matches!(
        bad_event(">ann: (A1) +5 0"),
        (3, 7, BadTiles { .. })
    ));
    assert!(matches!(
        bad_event(">ann: (AB) -5 0"),
        (3, 12, BadScore { .. })
    ));
    assert!(matches!(
        bad_event(">ann: AB (AB) +5 0"),
        (3, 15, BadScore { .. })
    ));
    assert_eq!(bad_event(">ann: AB -- -4 0"), (3, 10, PhonyWithoutPlay));
}

#[test]
fn errors_display_line_and_column() {
    let e = bad_event(">carl: AB 8H AB +4 4");
    let e = GcgError {
        line: e.0,
        column: e.1,
        kind: e.2,
    };
    assert_eq!(e.to_string(), "line 3, column 2: unknown player \"carl\"");
    let lib: lexq::game::Error = e.into();
    assert_eq!(
        lib.to_string(),
        "GCG line 3, column 2: unknown player \"carl\""
    );
    let missing = Game::read(&data("no-such-file.gcg")).unwrap_err();
    assert!(matches!(
        missing,
        lexq::game::Error::Core(lexq::Error::Io { .. })
    ));
    let dir = Game::read(&data("")).unwrap_err();
    assert!(dir.to_string().contains("not a regular file"), "{dir}");
}

#[test]
fn no_panic_on_junk() {
    // Lines made of the format's own pieces, shuffled: always Ok or Err.
    let pieces = [
        ">",
        "ann:",
        "bob:",
        "#",
        "note",
        "8D",
        "D8",
        "(",
        ")",
        "AB",
        "?",
        "+",
        "-",
        "--",
        "(challenge)",
        "(time)",
        "[",
        "]",
        "0",
        "99999999999",
        ".",
        " ",
        "é",
        "\t",
        "#player1",
        "#character-encoding",
    ];
    let mut rng = common::positions::Rng::new(5);
    for _ in 0..3000 {
        let mut text = String::from(PLAYERS);
        for _ in 0..rng.below(4) + 1 {
            for _ in 0..rng.below(8) {
                text += pieces[rng.below(pieces.len())];
                if rng.below(2) == 0 {
                    text.push(' ');
                }
            }
            text.push('\n');
        }
        let _ = Game::parse(&text);
    }
}

// ---------------------------------------------------------------------------
// lexq's replay (src/game/replay.rs) against the independent one.

static LEX: std::sync::LazyLock<lexq::Lexicon> = std::sync::LazyLock::new(lexq::Lexicon::embedded);

fn lib_replay(g: &Game, turns: Option<usize>) -> lexq::game::replay::Replay<'static> {
    let (layout, tiles) = lexq::game::replay::game_setup(g, &LEX).unwrap();
    lexq::game::replay::replay(g, &LEX, layout, tiles, turns).unwrap()
}

fn kind_name(k: &lexq::game::replay::ProblemKind) -> &'static str {
    use lexq::game::replay::ProblemKind::*;
    match k {
        Phony(_) => "phony",
        IllegalPlacement(_) => "placement",
        WrongScore { .. } => "score",
        WrongCumulative { .. } => "cumulative",
        _ => "other",
    }
}

#[test]
fn lexq_replays_every_turn_like_the_brute_force() {
    for name in GAMES.iter().chain(&["mistakes.gcg"]) {
        let g = read(name);
        for k in 0..=g.events.len() {
            let ours = replay(&ENABLE_RULES, &g, 15, Some(k));
            let theirs = lib_replay(&g, Some(k));
            assert_eq!(
                theirs.board.to_cgp_rows(),
                common::positions::board_text(&ENABLE_RULES, &ours.pos),
                "{name} turn {k}"
            );
            assert_eq!(theirs.scores, ours.scores, "{name} turn {k}");
            let got: Vec<(usize, &str)> = theirs
                .problems
                .iter()
                .map(|p| (p.line, kind_name(&p.kind)))
                .collect();
            let want: Vec<(usize, &str)> = ours.problems.iter().map(|p| (p.line, p.kind)).collect();
            assert_eq!(got, want, "{name} turn {k}");
        }
    }
}

#[test]
fn lexq_check_finds_exactly_the_mistakes() {
    let g = read("mistakes.gcg");
    let r = lib_replay(&g, None);
    let got: Vec<String> = r
        .problems
        .iter()
        .map(|p| format!("{} {}", p.line, kind_name(&p.kind)))
        .collect();
    let expected = std::fs::read_to_string(data("mistakes.expected")).unwrap();
    let want: Vec<&str> = expected.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(got, want);
    for name in GAMES {
        let g = read(name);
        let r = lib_replay(&g, None);
        assert_eq!(r.problems, vec![], "{name}");
        assert_eq!(r.scores, g.final_scores(), "{name}");
    }
}

#[test]
fn turn_positions_as_cgp() {
    let g = read("phony-withdrawn.gcg");
    let lex = lexq::Lexicon::embedded();
    // Every position reads back as CGP with the same board and mover.
    for k in 0..=g.events.len() {
        let r = lib_replay(&g, Some(k));
        let cgp = r.position(&g).to_cgp();
        let back =
            lexq::game::Position::from_cgp(&lex, &cgp).unwrap_or_else(|e| panic!("{cgp}: {e}"));
        assert_eq!(back.to_cgp(), cgp);
        let me = r.to_move(&g);
        let fields: Vec<&str> = cgp.split(' ').collect();
        assert_eq!(
            fields[2],
            format!("{}/{}", r.scores[me], r.scores[1 - me]),
            "{cgp}"
        );
        assert!(cgp.ends_with(" lex ENABLE;"), "{cgp}");
        if let Some(e) = g.events.get(k) {
            assert_eq!(me, e.player);
            if e.kind == EventKind::PhonyWithdrawn {
                // The rack shown is the leave while the phony is down.
                assert_eq!(fields[1], "EIIO/", "{cgp}");
                continue;
            }
            let rack = lexq::game::Rack::parse(&e.rack, lex.alphabet()).unwrap();
            assert_eq!(
                fields[1],
                format!("{}/", rack.to_string(lex.alphabet())),
                "{cgp}"
            );
        }
    }
    // The phony is on the board after its line and lifted by `--`.
    let phony = g
        .events
        .iter()
        .position(|e| e.kind == EventKind::PhonyWithdrawn)
        .unwrap();
    let before = lib_replay(&g, Some(phony - 1)).board.to_cgp_rows();
    let during = lib_replay(&g, Some(phony)).board.to_cgp_rows();
    let after = lib_replay(&g, Some(phony + 1));
    assert_ne!(before, during);
    assert_eq!(before, after.board.to_cgp_rows());
    assert_eq!(after.zeros, 1);
    // Past the end: an error naming the turn.
    let (layout, tiles) = lexq::game::replay::game_setup(&g, &lex).unwrap();
    let err =
        lexq::game::replay::replay(&g, &lex, layout, tiles, Some(g.events.len() + 1)).unwrap_err();
    assert!(
        matches!(
            err,
            lexq::game::Error::Gcg(GcgError {
                kind: GcgErrorKind::NoSuchTurn { .. },
                ..
            })
        ),
        "{err}"
    );
}

#[test]
fn replay_by_hand() {
    use lexq::game::replay::ProblemKind;
    let g = parse(
        ">ann: ACERTUV 8E CARE +12 12\n\
         >bob: AEIOSX? H8 (E)X +9 9\n\
         >ann: TUV?LMN E8 (C)uT +4 16\n\
         >bob: AEIOS? 5A ZZZ +30 39\n\
         >ann: TVLMNAB 12A BAM +10 26\n\
         >bob: AEIOSQ? 10A QI +11 49\n\
         >ann: TVLMNAS I8 S +7 33\n",
    )
    .unwrap();
    let r = lib_replay(&g, None);
    let got: Vec<(usize, &str)> = r
        .problems
        .iter()
        .map(|p| (p.line, kind_name(&p.kind)))
        .collect();
    // Line 4: EX, the X on H9 (plain) written down: 1 + 8 = 9. Line 5:
    // CuT down from the C of CARE: 3 + 0 + 1 = 4. Line 6: ZZZ is not on
    // the rack. Lines 7 and 8 touch no tile, and 39 + 11 is not 49. Line
    // 9: the S of CARES written as a one-tile down play: 3+1+1+1+1 = 7.
    assert_eq!(
        got,
        [
            (6, "placement"),
            (7, "placement"),
            (8, "placement"),
            (8, "cumulative")
        ],
        "{:#?}",
        r.problems
    );
    assert_eq!(
        r.problems[3].kind,
        ProblemKind::WrongCumulative {
            written: 49,
            expected: 50
        }
    );
    assert_eq!(
        r.board.to_cgp_rows(),
        "15/15/15/15/15/15/15/4CARES6/4u2X7/4T10/15/15/15/15/15"
    );
    let ours = replay(&ENABLE_RULES, &g, 15, None);
    let want: Vec<(usize, &str)> = ours.problems.iter().map(|p| (p.line, p.kind)).collect();
    assert_eq!(got, want);
}

#[test]
fn setup_from_pragmas() {
    let lex = lexq::Lexicon::embedded();
    let g = Game::parse("#player1 a A\n#board-layout SuperCrosswordGame\n").unwrap();
    let (layout, tiles) = lexq::game::replay::game_setup(&g, &lex).unwrap();
    assert_eq!(layout.size(), 21);
    assert_eq!(tiles.total(), 200);
    let g = Game::parse("#player1 a A\n#tile-distribution friends\n").unwrap();
    let (_, tiles) = lexq::game::replay::game_setup(&g, &lex).unwrap();
    assert_eq!(tiles.bingo(), 35);
    for bad in [
        "#board-layout /dev/null",
        "#board-layout nowhere",
        "#tile-set klingon",
    ] {
        let g = Game::parse(&format!("#player1 a A\n{bad}\n")).unwrap();
        let e = lexq::game::replay::game_setup(&g, &lex).unwrap_err();
        assert!(e.to_string().contains("neither built in nor a file"), "{e}");
    }
}

#[test]
fn replay_never_panics_on_random_plays() {
    // Well-formed lines with random coordinates, words, racks and scores.
    let mut rng = common::positions::Rng::new(9);
    let letters: Vec<char> = "AEIOURSTLNQZXaes.".chars().collect();
    let (mut parsed, mut laid) = (0, 0);
    for _ in 0..300 {
        let mut text = String::from(PLAYERS);
        let mut cum = [0i64, 0];
        let mut last = (0, false);
        for k in 0..rng.below(12) + 1 {
            let kind = rng.below(8);
            // A withdrawal only right after a play, by the same player.
            let p = if kind == 1 && last.1 { last.0 } else { k % 2 };
            let nick = ["ann", "bob"][p];
            let rack: String = (0..rng.below(8) + 1)
                .map(|_| "AEIOURST?"[rng.below(9)..].chars().next().unwrap())
                .collect();
            let score = rng.below(120) as i64;
            cum[p] += score;
            let row = rng.below(17) + 1;
            let col = (b'A' + rng.below(17) as u8) as char;
            let (row, col) = if rng.below(2) == 0 {
                (rng.below(3) + 7, (b'F' + rng.below(3) as u8) as char)
            } else {
                (row, col)
            };
            let coord = if rng.below(2) == 0 {
                format!("{row}{col}")
            } else {
                format!("{col}{row}")
            };
            let mut word: String = (0..rng.below(9) + 1)
                .map(|_| letters[rng.below(letters.len())])
                .collect();
            if rng.below(3) == 0 && word.len() > 2 {
                word.insert(1, '(');
                word.insert(3, ')');
            }
            // Usually the rack holds the tiles the word places.
            let rack = if rng.below(4) == 0 {
                rack
            } else {
                let mut r: String = word
                    .chars()
                    .filter(|c| c.is_alphabetic())
                    .map(|c| if c.is_lowercase() { '?' } else { c })
                    .collect();
                r.push('E');
                r
            };
            let line = match kind {
                0 => format!(">{nick}: {rack} - +0 {}\n", cum[p] - score),
                1 if last.1 => format!(">{nick}: {rack} -- -{score} {}\n", cum[p] - 2 * score),
                2 => format!(">{nick}: ({rack}) +{score} {}\n", cum[p]),
                _ => format!(">{nick}: {rack} {coord} {word} +{score} {}\n", cum[p]),
            };
            last = (p, kind > 2);
            text += &line;
        }
        let Ok(g) = Game::parse(&text) else { continue };
        parsed += 1;
        for k in 0..=g.events.len() {
            let r = lib_replay(&g, Some(k));
            // Every position reads back (`lexq moves` takes it).
            let cgp = r.position(&g).to_cgp();
            lexq::game::Position::from_cgp(&LEX, &cgp)
                .unwrap_or_else(|e| panic!("{cgp}: {e}\n{text}"));
            if k == g.events.len() && !r.board.is_empty() {
                laid += 1;
            }
        }
    }
    // The lines are not all refused: most parse, and some tiles get laid.
    assert!(parsed > 100, "{parsed} games parsed");
    assert!(laid > 5, "{laid} games laid tiles");
}

#[test]
fn spanish_game_with_multi_letter_tiles() {
    use crate::common::brute::SPANISH_RULES;
    use lexq::{Alphabet, Lexicon, TileSet, WordList, build, game::Layout};
    let mut list = WordList::new(Alphabet::spanish());
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/spanish-sample.txt");
    list.read_path(path.as_ref()).unwrap();
    let lex = Lexicon::from_bytes(build(&list, &mut ()).unwrap().bytes).unwrap();
    // CHATA on 8G: CH 5 + A 1 (the star, double word) + T 1 + A 1 = 8, x2.
    // LLAGA down from H7 through that A: LL 8 + A 1 + G 2 + A 1 = 12.
    let text = |second: i32| {
        format!(
            "{PLAYERS}>ann: [CH]AATEIO 8G CHATA +16 16\n\
             >bob: [LL]GAEIOU H7 LL(A)GA +{second} {second}\n"
        )
    };
    let check = |second: i32| {
        let g = Game::parse(&text(second)).unwrap();
        let tiles = TileSet::named("spanish", lex.alphabet()).unwrap();
        let r = lexq::game::replay::replay(&g, &lex, Layout::standard(), tiles, None).unwrap();
        let ours = replay(&SPANISH_RULES, &g, 15, None);
        let got: Vec<(usize, &str)> = r
            .problems
            .iter()
            .map(|p| (p.line, kind_name(&p.kind)))
            .collect();
        let want: Vec<(usize, &str)> = ours.problems.iter().map(|p| (p.line, p.kind)).collect();
        assert_eq!(got, want);
        assert_eq!(
            r.board.to_cgp_rows(),
            common::positions::board_text(&SPANISH_RULES, &ours.pos)
        );
        (got, r.position(&g).to_cgp())
    };
    let (problems, cgp) = check(12);
    assert_eq!(problems, []);
    assert_eq!(
        cgp.split(' ').next().unwrap(),
        "15/15/15/15/15/15/7[LL]7/6[CH]ATA5/7G7/7A7/15/15/15/15/15"
    );
    let (problems, _) = check(13);
    assert_eq!(problems, [(4, "score")]);
}
