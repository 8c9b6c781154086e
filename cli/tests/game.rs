//! The game commands through the binary: `moves`, `board`, `play`,
//! `selfplay`, `leaves` (`moves`), `gcg` and `moves --gcg` (`gcg`).

mod common;

mod moves {
    //! `lexq moves`, `board`, `play` and `selfplay` end to end: output formats
    //! (checked against the hand-checked scores and the library's own move
    //! list), batch mode with bad lines, exit codes, determinism.

    use std::process::Stdio;

    use serde_json::Value;

    use crate::common::*;

    const EMPTY: &str = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15";
    const CARE: &str = "15/15/15/15/15/15/15/4CARE7/15/15/15/15/15/15/15 AEINRS?/ 12/0 0";

    #[test]
    fn first_move_text_and_json() {
        let cgp = format!("{EMPTY} QUIXOTE/ 0/0 0");
        let o = run(&["moves", "--cgp", &cgp, "--top", "1"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        // Hand-checked: Q on D8 (double letter), star doubles: 116.
        assert_eq!(stdout(&o), "8D QUIXOTE 116 -\n");
        let o = run(&["moves", "--cgp", &cgp, "--top", "3", "--json"]);
        let v: Value = serde_json::from_slice(&o.stdout).unwrap();
        let first = &v[0];
        assert_eq!(first["row"], 7);
        assert_eq!(first["col"], 3);
        assert_eq!(first["dir"], "across");
        assert_eq!(first["word"], "QUIXOTE");
        assert_eq!(first["placed"], "QUIXOTE");
        assert_eq!(first["score"], 116);
        assert_eq!(first["leave"], "");
        assert_eq!(first["gcg"], "8D QUIXOTE");
        assert_eq!(v.as_array().unwrap().len(), 3);
    }

    #[test]
    fn play_through_blanks_and_counts() {
        let o = run(&["moves", "--cgp", CARE, "--all", "--json"]);
        let v: Value = serde_json::from_slice(&o.stdout).unwrap();
        let list = v.as_array().unwrap();
        let o = run(&["moves", "--cgp", CARE, "--count"]);
        assert_eq!(stdout(&o).trim().parse::<usize>().unwrap(), list.len());
        // Sorted by score, best first.
        assert!(
            list.windows(2)
                .all(|w| w[0]["score"].as_i64() >= w[1]["score"].as_i64())
        );
        // A play through the C: placed has a dot there; blanks lowercase.
        let m = list.iter().find(|m| m["gcg"] == "E4 INAR(C)hES").unwrap();
        assert_eq!(m["placed"], "INAR.hES");
        assert_eq!(m["word"], "INARChES");
        assert_eq!(m["dir"], "down");
        assert_eq!(m["score"], 86);
        // Default: the top 20 as text, with the leave.
        let o = run(&["moves", "--cgp", CARE]);
        let text = stdout(&o);
        assert_eq!(text.lines().count(), 20);
        assert!(text.starts_with("E4 INAR(C)hES 86 -\n"), "{text}");
        // Exchanges and the pass only when asked.
        let o = run(&["moves", "--cgp", CARE, "--all", "--count", "--exchanges"]);
        let with = stdout(&o).trim().parse::<usize>().unwrap();
        // AEINRS? has 7 distinct tiles: 2^7 - 1 exchanges, plus the pass.
        assert_eq!(with, list.len() + 127 + 1);
        // Late in a game the bag holds fewer than 7 tiles: no exchange is
        // legal, only the pass is added.
        let late = "3J1O1P6L/3A1X1I1QAT1BI/2STROUD2DAZE1/2HOE2DECOR1G1/1SI1V2l5U1/OHM1OW1E5NO/4KAE7C/D2FENNY6R/E2L1E8E/WINIEST6PA/Y2N3GROG2RE/3T5BAM1U1/6VALeRIAN1/13U1/7FATTIES1 L/II 378/375 0";
        let on_board = late
            .split(' ')
            .next()
            .unwrap()
            .chars()
            .filter(char::is_ascii_alphabetic)
            .count();
        assert!(100 - on_board - 3 < 7, "{on_board} tiles on the board");
        let count = |extra: &[&str]| {
            let mut args = vec!["moves", "--cgp", late, "--all", "--count"];
            args.extend_from_slice(extra);
            stdout(&run(&args)).trim().parse::<usize>().unwrap()
        };
        assert_eq!(count(&["--exchanges"]), count(&[]) + 1);
    }

    #[test]
    fn batch_mode_reports_bad_lines_and_goes_on() {
        let good = format!("{EMPTY} QUIXOTE/ 0/0 0");
        let input = format!("{good}\nnot a position\n\n{CARE}\n15/15 A/ 0/0 0\n");
        let o = run_stdin(&["moves", "--count"], &input);
        assert_eq!(o.status.code(), Some(2));
        // A line out per line in: the bad and blank ones empty.
        let counts: Vec<String> = stdout(&o).lines().map(String::from).collect();
        assert_eq!(counts.len(), 5);
        assert_eq!(counts.iter().filter(|c| c.is_empty()).count(), 3);
        let err = stderr(&o);
        assert!(err.contains("lexq: line 2: "), "{err}");
        assert!(err.contains("lexq: line 5: "), "{err}");
        assert!(!err.contains("panicked"));
        let o = run_stdin(&["moves", "--top", "1", "--json"], &input);
        let lines: Vec<Value> = stdout(&o)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0]["index"], 1);
        assert_eq!(lines[0]["moves"][0]["score"], 116);
        assert_eq!(lines[1]["index"], 4);
        // Text mode: a header line per position.
        let o = run_stdin(&["moves", "--top", "2"], format!("{good}\n{CARE}\n"));
        assert_eq!(o.status.code(), Some(0));
        let text = stdout(&o);
        assert_eq!(text.lines().filter(|l| l.starts_with('#')).count(), 2);
    }

    #[test]
    fn errors_are_one_line_and_exit_2() {
        for args in [
            vec!["moves", "--cgp", "15/15 A/ 0/0 0"],
            vec!["moves", "--cgp", &format!("{EMPTY} A/ 0/0 0 lex NOSUCH;")],
            vec!["play", "--cgp", CARE, "H1 ANSERIZ(E)"],
            vec!["play", "--cgp", CARE, "8A ZZZ"],
            vec!["board", "--cgp", "x"],
        ] {
            let o = run(&args);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(err.starts_with("lexq: "), "{err}");
            assert!(o.stdout.is_empty());
        }
    }

    #[test]
    fn play_and_board() {
        let o = run(&["play", "--cgp", CARE, "H1", "ANSERIn(E)"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        // The opponent (not shown) moves next; the mover drew seven tiles
        // from the bag of seed 1.
        assert_eq!(
            stdout(&o),
            "7A7/7N7/7S7/7E7/7R7/7I7/7n7/4CARE7/15/15/15/15/15/15/15 /EHIJLMQ 0/86 0\n"
        );
        let o = run(&["board", "--cgp", CARE]);
        let text = stdout(&o);
        assert!(text.contains(" 8 3W  .  . 2L  C  A  R  E "), "{text}");
        assert!(text.contains("rack AEINRS?"), "{text}");
        assert!(!text.contains('\x1b'), "no colours off a terminal");
        let o = run(&["board", "--cgp", CARE, "--color", "always"]);
        assert!(stdout(&o).contains('\x1b'));
    }

    #[test]
    fn selfplay_is_deterministic() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("p.cgp");
        let gcg = dir.path().join("g");
        let args = [
            "selfplay",
            "--games",
            "2",
            "--seed",
            "5",
            "--output",
            out.to_str().unwrap(),
            "--gcg-dir",
            gcg.to_str().unwrap(),
        ];
        let o = run(&args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let a = std::fs::read_to_string(&out).unwrap();
        run(&args);
        let b = std::fs::read_to_string(&out).unwrap();
        assert_eq!(a, b);
        assert!(a.lines().count() > 20);
        assert!(a.lines().all(|l| l.ends_with("lex ENABLE;")));
        let game = std::fs::read_to_string(gcg.join("game-5.gcg")).unwrap();
        assert!(game.starts_with("#character-encoding UTF-8\n"));
        // Every position answers in batch mode.
        let o = run_stdin(&["moves", "--count"], &a);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(stdout(&o).lines().count(), a.lines().count());
        let o = run(&["selfplay", "--games", "1", "--seed", "6"]);
        assert_ne!(stdout(&o), a);
    }

    #[test]
    fn play_exchanges_with_the_bag() {
        let start = format!("{EMPTY} AEINRST/ 0/0 0");
        let mut racks = std::collections::HashSet::new();
        for seed in 1..=6 {
            let o = run(&["play", "--cgp", &start, "--seed", &seed.to_string(), "-AEI"]);
            assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
            let out = stdout(&o);
            let f: Vec<&str> = out.trim().split(' ').collect();
            assert_eq!((f[0], f[2], f[3]), (EMPTY, "0/0", "1"), "{out}");
            // The mover's rack, now second: N R S T kept, three tiles drawn.
            let rack = f[1].strip_prefix('/').unwrap();
            assert_eq!(rack.chars().count(), 7, "{out}");
            let mut left: Vec<char> = rack.chars().collect();
            for c in "NRST".chars() {
                let i = left
                    .iter()
                    .position(|&x| x == c)
                    .unwrap_or_else(|| panic!("{c} kept: {out}"));
                left.remove(i);
            }
            racks.insert(rack.to_string());
            // The line reads back, and moves answer it: the player to move
            // now is the other, whose rack the CGP leaves empty, so no
            // move (exit 1).
            let o = run(&["moves", "--cgp", out.trim(), "--count"]);
            assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
            assert_eq!(stdout(&o), "0\n");
        }
        // The tiles exchanged left the rack: the draws differ by seed.
        assert!(racks.len() > 1 && !racks.contains("AEINRST"), "{racks:?}");
        // Late in a game the bag is too small to exchange.
        let late = "3J1O1P6L/3A1X1I1QAT1BI/2STROUD2DAZE1/2HOE2DECOR1G1/1SI1V2l5U1/OHM1OW1E5NO/4KAE7C/D2FENNY6R/E2L1E8E/WINIEST6PA/Y2N3GROG2RE/3T5BAM1U1/6VALeRIAN1/13U1/7FATTIES1 L/II 378/375 0";
        // (`-L` alone would be the --lexicon option: `--` ends the options.)
        let o = run(&["play", "--cgp", late, "--", "-L"]);
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).contains("an exchange needs at least 7"),
            "{}",
            stderr(&o)
        );
    }

    #[test]
    fn selfplay_on_the_friends_board_uses_its_tiles() {
        let o = run(&["selfplay", "--layout", "friends", "--games", "1"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let text = stdout(&o);
        assert!(
            text.lines()
                .all(|l| l.ends_with("bdn friends; ld friends;")),
            "{text}"
        );
        let o = run(&[
            "selfplay", "--layout", "friends", "--tiles", "english", "--games", "1",
        ]);
        assert!(
            stdout(&o)
                .lines()
                .all(|l| l.ends_with("bdn friends; ld english;"))
        );
    }

    #[test]
    fn batch_count_keeps_line_numbers() {
        let good = format!("{EMPTY} QUIXOTE/ 0/0 0");
        // A byte-order mark, a blank line, a comment, a bad line.
        let input = format!("\u{feff}{good}\n\n# the opening\n{CARE}\nnot a position\n{good}\n");
        let o = run_stdin(&["moves", "--count"], &input);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        let out = stdout(&o);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 6, "{out}");
        assert_eq!((lines[1], lines[2], lines[4]), ("", "", ""), "{out}");
        assert_eq!(lines[0], lines[5]);
        assert!(lines[3].parse::<usize>().unwrap() > 1000);
        let err = stderr(&o);
        assert_eq!(
            err.lines().collect::<Vec<_>>(),
            ["lexq: line 5: CGP column 14: expected <board> <racks> <scores> <zeros> [opcodes]"],
            "{err}"
        );
        // JSON keeps the input line as the index.
        let o = run_stdin(&["moves", "--json", "--top", "1"], &input);
        let index: Vec<u64> = stdout(&o)
            .lines()
            .map(|l| {
                serde_json::from_str::<Value>(l).unwrap()["index"]
                    .as_u64()
                    .unwrap()
            })
            .collect();
        assert_eq!(index, [1, 4, 6]);
    }

    /// Exit status 1 when there is no move, as the README says of every
    /// command ("1 when its answer is empty (no word, no move, ...)"):
    /// a lone Q on the empty board has none (no one-letter word, and on
    /// the empty board a play needs two tiles); an empty rack has none,
    /// and says why.
    #[test]
    fn no_move_is_exit_status_1() {
        let q = format!("{EMPTY} Q/ 0/0 0");
        for extra in [&[][..], &["-c"], &["--json"], &["--all", "-c", "--json"]] {
            let mut args = vec!["moves", "--cgp", &q];
            args.extend_from_slice(extra);
            let o = run(&args);
            assert_eq!(o.status.code(), Some(1), "{extra:?}: {}", stderr(&o));
            assert!(o.stderr.is_empty(), "{}", stderr(&o));
        }
        assert_eq!(stdout(&run(&["moves", "--cgp", &q, "-c"])), "0\n");
        // With --exchanges the pass is a move.
        let o = run(&["moves", "--cgp", &q, "--exchanges"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        // An empty rack (what a GCG file's last position has for the
        // player to move): no move, and a note why.
        let o = run(&["moves", "--cgp", &format!("{EMPTY} / 0/0 0")]);
        assert_eq!(o.status.code(), Some(1));
        assert!(o.stdout.is_empty());
        assert!(
            stderr(&o).contains("the player to move has no tiles"),
            "{}",
            stderr(&o)
        );
        // A batch: 1 when no position has a move, 0 when one has.
        let o = run_stdin(&["moves", "-c"], format!("{q}\n{q}\n"));
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert_eq!(stdout(&o), "0\n0\n");
        let o = run_stdin(&["moves", "-c"], format!("{q}\n{CARE}\n"));
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }

    #[test]
    fn options_that_cannot_work_are_errors() {
        // --top is --limit's other spelling.
        let o = run(&["moves", "--cgp", CARE, "--top", "0"]);
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains("--limit"), "{}", stderr(&o));
        let o = run(&["moves", "--cgp", CARE, "--turn", "3"]);
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).contains("--turn K picks a turn of a game file"),
            "{}",
            stderr(&o)
        );
        assert!(o.stdout.is_empty());
        // A word too long for the squares left: the word runs off.
        let o = run(&["play", "--cgp", CARE, "8M SEAR"]);
        assert_eq!(
            stderr(&o),
            "lexq: move: 8M SEAR: 4 tiles from 8M run off the 15x15 board (3 squares to its edge)\n"
        );
        let o = run(&[
            "play",
            "--cgp",
            &format!("{EMPTY} AEINRST/ 0/0 0"),
            "8A RETAINSRETAINSXY",
        ]);
        assert!(
            stderr(&o).contains("8A RETAINSRETAINSXY: 16 tiles from 8A run off the 15x15 board"),
            "{}",
            stderr(&o)
        );
    }

    #[test]
    fn move_json_is_the_servers() {
        // One serializer (lexq::game::MoveView), keys sorted as the
        // server's: a placement has a kind too.
        let o = run(&[
            "moves",
            "--cgp",
            &format!("{EMPTY} QUIXOTE/ 0/0 0"),
            "--top",
            "1",
            "--json",
        ]);
        assert_eq!(
            stdout(&o),
            "[{\"col\":3,\"dir\":\"across\",\"gcg\":\"8D QUIXOTE\",\"kind\":\"place\",\"leave\":\"\",\"placed\":\"QUIXOTE\",\"row\":7,\"score\":116,\"word\":\"QUIXOTE\"}]\n"
        );
        let late = "3J1O1P6L/3A1X1I1QAT1BI/2STROUD2DAZE1/2HOE2DECOR1G1/1SI1V2l5U1/OHM1OW1E5NO/4KAE7C/D2FENNY6R/E2L1E8E/WINIEST6PA/Y2N3GROG2RE/3T5BAM1U1/6VALeRIAN1/13U1/7FATTIES1 L/II 378/375 0";
        let o = run(&["moves", "--cgp", late, "--all", "--json", "--exchanges"]);
        let v: Value = serde_json::from_slice(&o.stdout).unwrap();
        let pass = v.as_array().unwrap().last().unwrap().to_string();
        assert_eq!(
            pass,
            "{\"gcg\":\"-\",\"kind\":\"pass\",\"leave\":\"L\",\"score\":0}"
        );
        let o = run(&["moves", "--cgp", CARE, "--all", "--json", "--exchanges"]);
        let v: Value = serde_json::from_slice(&o.stdout).unwrap();
        let ex = v
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["gcg"] == "-AEI")
            .unwrap()
            .to_string();
        assert_eq!(
            ex,
            "{\"gcg\":\"-AEI\",\"kind\":\"exchange\",\"leave\":\"NRS?\",\"score\":0,\"tiles\":\"AEI\"}"
        );
    }

    #[test]
    fn moves_rank_by_equity_with_a_leave_table() {
        let dir = tempfile::tempdir().unwrap();
        let csv = dir.path().join("leaves.csv");
        // Keeping the blank or S is worth a lot; AEI little; a lone Z costs.
        let table = [
            ("?", 25.5),
            ("S", 8.25),
            ("?S", 30.0),
            ("AEI", -4.0),
            ("Z", -6.125),
        ];
        let text: String = table.iter().map(|(k, v)| format!("{k},{v}\n")).collect();
        std::fs::write(&csv, text).unwrap();
        let value = |leave: &str| -> f64 {
            let mut l: Vec<char> = leave.chars().collect();
            l.sort_unstable();
            let l: String = l.into_iter().collect();
            table
                .iter()
                .find(|(k, _)| {
                    let mut k: Vec<char> = k.chars().collect();
                    k.sort_unstable();
                    k.into_iter().collect::<String>() == l
                })
                .map_or(0.0, |(_, v)| *v)
        };
        let csv = csv.to_str().unwrap();
        for cgp in [
            CARE,
            "15/15/15/15/15/15/15/4CARE7/15/15/15/15/15/15/15 ZSAEI?T/ 12/0 0",
        ] {
            // By hand: the move list by score, each valued at its score plus
            // its leave's value, sorted by that (stable: ties stay in the
            // order by score).
            let o = run(&["moves", "--cgp", cgp, "--all", "--json", "--exchanges"]);
            let by_score: Value = serde_json::from_slice(&o.stdout).unwrap();
            let mut hand: Vec<(String, f64, f64)> = by_score
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    let leave = value(m["leave"].as_str().unwrap());
                    let score = m["score"].as_f64().unwrap();
                    (m["gcg"].as_str().unwrap().to_string(), score + leave, leave)
                })
                .collect();
            hand.sort_by(|a, b| b.1.total_cmp(&a.1));
            let args = [
                "moves",
                "--cgp",
                cgp,
                "--all",
                "--json",
                "--exchanges",
                "--leaves",
                csv,
            ];
            let o = run(&args);
            assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
            let ranked: Value = serde_json::from_slice(&o.stdout).unwrap();
            let got: Vec<(String, f64, f64)> = ranked
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    (
                        m["gcg"].as_str().unwrap().to_string(),
                        m["equity"].as_f64().unwrap(),
                        m["leave_value"].as_f64().unwrap(),
                    )
                })
                .collect();
            assert_eq!(got.len(), hand.len(), "{cgp}");
            if let Some(i) = (0..got.len()).find(|&i| got[i] != hand[i]) {
                panic!("{cgp}: move {i}: {:?}, by hand {:?}", got[i], hand[i]);
            }
            // The leaves change the order.
            let score_order: Vec<&str> = by_score
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["gcg"].as_str().unwrap())
                .collect();
            let equity_order: Vec<&str> = got.iter().map(|g| g.0.as_str()).collect();
            assert_ne!(equity_order, score_order, "{cgp}");
            // --top N is the first N; the text form ends with the equity.
            let o = run(&[
                "moves",
                "--cgp",
                cgp,
                "--top",
                "3",
                "--exchanges",
                "--leaves",
                csv,
            ]);
            let lines: Vec<String> = stdout(&o).lines().map(String::from).collect();
            assert_eq!(lines.len(), 3);
            for (line, (gcg, equity, _)) in lines.iter().zip(&hand) {
                assert!(line.starts_with(&format!("{gcg} ")), "{line}");
                assert!(line.ends_with(&format!(" {equity:.3}")), "{line} {equity}");
            }
        }
        // A bad table is one error line, exit 2, in batch mode too.
        let bad = dir.path().join("bad.csv");
        std::fs::write(&bad, "AE,1\nQ;3\n").unwrap();
        let bad = bad.to_str().unwrap();
        let o = run(&["moves", "--cgp", CARE, "--leaves", bad]);
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).starts_with("lexq: ") && stderr(&o).contains("line 2"),
            "{}",
            stderr(&o)
        );
        let o = run_stdin(&["moves", "--leaves", bad], format!("{CARE}\n{CARE}\n"));
        assert_eq!(o.status.code(), Some(2));
        assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    }

    /// The final score of each player of a GCG file: the cumulative score on
    /// the last line of `>p1:` and of `>p2:`.
    fn final_scores(gcg: &str) -> [i32; 2] {
        let last = |who: &str| {
            gcg.lines()
                .rev()
                .find(|l| l.starts_with(who))
                .and_then(|l| l.split_whitespace().last())
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("no score for {who} in\n{gcg}"))
        };
        [last(">p1:"), last(">p2:")]
    }

    #[test]
    fn selfplay_match_counts_every_game_and_alternates_the_start() {
        let dir = tempfile::tempdir().unwrap();
        let table = dir.path().join("leaves.csv");
        std::fs::write(
            &table,
            "?,25\nS,8\nQ,-7\nV,-4\nU,-3\nZ,2\nX,3\nEE,-3\nII,-5\n",
        )
        .unwrap();
        let games = dir.path().join("games");
        let args = [
            "selfplay",
            "--games",
            "6",
            "--seed",
            "40",
            "--leaves",
            table.to_str().unwrap(),
            "--gcg-dir",
            games.to_str().unwrap(),
        ];
        let o = run(&args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        // By hand from the game files: the equity bot is p1 in the games of
        // even index (seeds 40, 42, 44), p2 in the others.
        let (mut won, mut drawn, mut lost, mut spread) = (0, 0, 0, 0);
        for k in 0..6u64 {
            let text = std::fs::read_to_string(games.join(format!("game-{}.gcg", 40 + k))).unwrap();
            let s = final_scores(&text);
            let me = (k % 2) as usize;
            let d = s[me] - s[1 - me];
            spread += d;
            match d.signum() {
                1 => won += 1,
                0 => drawn += 1,
                _ => lost += 1,
            }
        }
        let out = stdout(&o);
        let first = out.lines().next().unwrap();
        assert!(
            first.ends_with(&format!(
                "against greedy: 6 games, {won} won, {drawn} drawn, {lost} lost"
            )),
            "{out}"
        );
        let rate = (won as f64 + drawn as f64 / 2.0) / 6.0;
        assert!(
            out.contains(&format!("win rate {rate:.3} (95% Wilson interval ")),
            "{out}"
        );
        assert!(
            out.contains(&format!("mean spread {:+.1}", spread as f64 / 6.0)),
            "{out}"
        );
        // The same seeds, the same games.
        assert_eq!(stdout(&run(&args)), out);
        // A table that cannot be read: one error line, exit 2.
        let o = run(&["selfplay", "--games", "2", "--leaves", "/nonexistent.csv"]);
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).starts_with("lexq: /nonexistent.csv"),
            "{}",
            stderr(&o)
        );
    }

    #[test]
    fn leaves_writes_a_table_that_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("leaves.csv");
        let o = run(&[
            "leaves",
            "--games",
            "6",
            "--min-count",
            "2",
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        // Quiet when stderr is not a terminal.
        assert_eq!(stderr(&o), "");
        let text = std::fs::read_to_string(&out).unwrap();
        let value = |leave: &str| -> f64 {
            text.lines()
                .find_map(|l| l.strip_prefix(&format!("{leave},")))
                .unwrap_or_else(|| panic!("no {leave} in the table"))
                .parse()
                .unwrap()
        };
        // Six greedy games: a blank and an S on the rack make better turns
        // than a Q.
        assert!(
            value("?") > 0.0 && value("S") > 0.0 && value("?") > value("Q"),
            "{text}"
        );
        // Two jobs: the same table; a second pass from the first table reads.
        let out2 = dir.path().join("two.csv");
        let args = [
            "leaves",
            "--games",
            "6",
            "--min-count",
            "2",
            "--jobs",
            "2",
            "-o",
        ];
        let o = run(&[&args[..], &[out2.to_str().unwrap()]].concat());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(std::fs::read_to_string(&out2).unwrap(), text);
        let o = run(&[
            "leaves",
            "--games",
            "2",
            "--from",
            out.to_str().unwrap(),
            "-o",
            out2.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let o = run(&[
            "moves",
            "--cgp",
            CARE,
            "--top",
            "1",
            "--leaves",
            out2.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        // Refused before any game: the output a directory, or the input.
        let o = run(&["leaves", "-o", dir.path().to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains("directory"), "{}", stderr(&o));
        let nowhere = dir.path().join("no/such/leaves.csv");
        let o = run(&[
            "leaves",
            "--games",
            "100000",
            "-o",
            nowhere.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains("no such folder"), "{}", stderr(&o));
        let o = run(&[
            "leaves",
            "--from",
            out.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2));
        assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    }

    #[test]
    fn leaves_interrupted_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("leaves.csv");
        std::fs::write(&out, "S,1\n").unwrap();
        let child = lexq()
            .args(["leaves", "--games", "1000000", "-o", out.to_str().unwrap()])
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(300));
        sigint(&child);
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
        assert!(stderr(&o).contains("interrupted"), "{}", stderr(&o));
        // The old table is untouched, no temporary file is left.
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "S,1\n");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
    }

    #[test]
    fn selfplay_interrupted_writes_nothing() {
        // Positions and game files: the old positions file untouched, no
        // temporary file left, and every game file written is whole.
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("positions.cgp");
        let games = dir.path().join("games");
        std::fs::write(&out, "old\n").unwrap();
        let child = lexq()
            .args([
                "selfplay",
                "--games",
                "1000000",
                "-o",
                out.to_str().unwrap(),
            ])
            .args(["--gcg-dir", games.to_str().unwrap()])
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(600));
        sigint(&child);
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(text == "old\n", "replaced: {} bytes", text.len());
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
        let written: Vec<_> = std::fs::read_dir(&games)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert!(!written.is_empty());
        for g in written {
            let name = g.file_name().unwrap().to_string_lossy().into_owned();
            assert!(
                name.starts_with("game-") && name.ends_with(".gcg"),
                "{name}"
            );
            let text = std::fs::read_to_string(&g).unwrap();
            assert!(
                text.starts_with("#character-encoding") || text.starts_with("#player1"),
                "{name}: {text}"
            );
            assert!(text.ends_with('\n'), "{name}");
        }
    }

    #[test]
    fn play_with_a_challenge() {
        let at = |ops: &str| format!("{EMPTY} AEINRST/DEILORT 0/0 0{ops}");
        // A phony challenged off: the rack as it was, the turn passed, one
        // scoreless turn.
        let o = run(&["play", "--cgp", &at(""), "--challenge", "8G", "RT"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(stdout(&o), format!("{EMPTY} DEILORT/AEINRST 0/0 1\n"));
        assert_eq!(stderr(&o), "8G RT: not a word: RT: withdrawn\n");
        // Without --challenge the phony is refused.
        let o = run(&["play", "--cgp", &at(""), "8G", "RT"]);
        assert_eq!(o.status.code(), Some(2));
        // Under an explicit `cr void` too, with --challenge: nothing goes
        // down, nothing is written.
        for challenge in [&["--challenge"][..], &[]] {
            let cgp = at(" cr void;");
            let mut args = vec!["play", "--cgp", &cgp];
            args.extend_from_slice(challenge);
            args.extend_from_slice(&["8G", "RT"]);
            let o = run(&args);
            assert_eq!(o.status.code(), Some(2), "{challenge:?}");
            assert_eq!(stdout(&o), "", "{challenge:?}");
            assert!(
                stderr(&o).starts_with("lexq: ") && stderr(&o).contains("not words: RT"),
                "{challenge:?}: {}",
                stderr(&o)
            );
        }
        // A valid play stands (AT on the star: 2 x 2 = 4), under the CGP's
        // rule: a lost turn, or a bonus.
        let o = run(&["play", "--cgp", &at(""), "--challenge", "8G", "AT"]);
        assert!(
            stdout(&o).ends_with(" DEILORT/EINNRRS 0/4 0\n"),
            "{}",
            stdout(&o)
        );
        assert_eq!(stderr(&o), "8G AT: valid, the play stands\n");
        let o = run(&[
            "play",
            "--cgp",
            &at(" cr double;"),
            "--challenge",
            "8G",
            "AT",
        ]);
        assert!(
            stdout(&o).ends_with(" EINNRRS/DEILORT 4/0 1 cr double;\n"),
            "{}",
            stdout(&o)
        );
        let o = run(&["play", "--cgp", &at(" cr 5;"), "--challenge", "8G", "AT"]);
        assert!(
            stdout(&o).ends_with(" DEILORT/EINNRRS 0/9 0 cr 5;\n"),
            "{}",
            stdout(&o)
        );
        assert_eq!(stderr(&o), "8G AT: valid, 5 points to the player\n");
        // A pass cannot be challenged.
        let o = run(&["play", "--cgp", &at(""), "--challenge", "-"]);
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).contains("nothing to challenge"),
            "{}",
            stderr(&o)
        );
    }
}

mod gcg {
    //! `lexq gcg` and `lexq moves --gcg` end to end, on the games of the core's
    //! `tests/data/gcg/` (checked there against an independent replay): the
    //! mistakes game reports exactly its known lines, clean games pass, every
    //! turn's CGP equals the previous turn's CGP with the event's move played
    //! by `lexq play`, and bad input fails cleanly.

    use std::path::PathBuf;

    use tempfile::TempDir;

    use crate::common::*;

    fn game(name: &str) -> String {
        let p: PathBuf = [
            env!("CARGO_MANIFEST_DIR"),
            "..",
            "tests",
            "data",
            "gcg",
            name,
        ]
        .iter()
        .collect();
        p.to_str().unwrap().to_string()
    }

    const CLEAN: [&str; 3] = [
        "exchange-pass-challenge.gcg",
        "phony-withdrawn.gcg",
        "wespa-end.gcg",
    ];

    #[test]
    fn check_reports_exactly_the_mistakes() {
        let file = game("mistakes.gcg");
        let o = run(&["gcg", &file, "--check"]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let expected = std::fs::read_to_string(game("mistakes.expected")).unwrap();
        let want: Vec<String> = expected
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| l.split(' ').next().unwrap().to_string())
            .collect();
        let out = stdout(&o);
        let lines: Vec<String> = out
            .lines()
            .map(|l| {
                let rest = l.strip_prefix(&format!("{file}:")).expect(l);
                rest.split(':').next().unwrap().to_string()
            })
            .collect();
        assert_eq!(lines, want, "{out}");
        assert!(out.contains(": phony HV"), "{out}");
        assert!(
            out.contains(": wrong score: written 51, scores 48"),
            "{out}"
        );
        assert!(
            out.contains(": wrong total: written 294, should be 284"),
            "{out}"
        );
        assert!(out.contains(": illegal placement: "), "{out}");

        let o = run(&["gcg", &file, "--check", "--json"]);
        assert_eq!(o.status.code(), Some(1));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let kinds: Vec<(u64, &str)> = v
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p["line"].as_u64().unwrap(), p["kind"].as_str().unwrap()))
            .collect();
        assert_eq!(
            kinds,
            [
                (13, "phony"),
                (16, "score"),
                (19, "cumulative"),
                (22, "placement")
            ]
        );
    }

    #[test]
    fn clean_games_pass_the_check() {
        for name in CLEAN {
            let o = run(&["gcg", &game(name), "--check"]);
            assert_eq!(o.status.code(), Some(0), "{name}: {}", stdout(&o));
            assert!(stdout(&o).contains(": ok, "), "{}", stdout(&o));
            let o = run(&["gcg", &game(name), "--check", "--json"]);
            assert_eq!(stdout(&o).trim(), "[]");
        }
    }

    /// The board and scores fields of a CGP line.
    fn fields(cgp: &str) -> Vec<String> {
        cgp.split(' ').map(String::from).collect()
    }

    #[test]
    fn turns_follow_from_each_other_by_lexq_play() {
        // Every fourth event of two games, and the phony and its withdrawal
        // (each `lexq gcg` replays the game, so not all of them).
        for name in ["phony-withdrawn.gcg", "wespa-end.gcg"] {
            let file = game(name);
            let text = std::fs::read_to_string(&file).unwrap();
            let events: Vec<&str> = text.lines().filter(|l| l.starts_with('>')).collect();
            let turn = |k: usize| {
                let o = run(&["gcg", &file, "--turn", &k.to_string()]);
                assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
                stdout(&o).trim().to_string()
            };
            assert!(turn(0).starts_with("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 "));
            for (k, line) in events.iter().enumerate() {
                let withdrawn = events.get(k + 1).is_some_and(|l| l.contains(" -- "));
                if k % 4 != 1 && !withdrawn && !line.contains(" -- ") {
                    continue;
                }
                let (prev, next) = (turn(k), turn(k + 1));
                let parts: Vec<&str> = line.split_whitespace().collect();
                // A play by the player to move, not withdrawn next: `lexq play`
                // on the previous position gives this board.
                let is_play = parts.len() == 6 && !parts[2].starts_with('-');
                if is_play && !withdrawn {
                    let mv = format!("{} {}", parts[2], parts[3]);
                    let o = run(&["play", "--cgp", &prev, &mv]);
                    assert_eq!(o.status.code(), Some(0), "{prev} {mv}: {}", stderr(&o));
                    let played = stdout(&o);
                    assert_eq!(fields(&played)[0], fields(&next)[0], "{name} {line}");
                } else if line.contains(" -- ") {
                    // The withdrawn play's tiles are lifted.
                    assert_ne!(fields(&prev)[0], fields(&next)[0], "{name} {line}");
                    assert_eq!(fields(&turn(k - 1))[0], fields(&next)[0], "{name} {line}");
                } else if !is_play {
                    assert_eq!(fields(&prev)[0], fields(&next)[0], "{name} {line}");
                }
            }
            // The last position's scores are the written totals.
            let last: Vec<&str> = events.last().unwrap().split_whitespace().collect();
            let total = last.last().unwrap();
            let end = turn(events.len());
            assert!(
                fields(&end)[2].split('/').any(|s| s == *total),
                "{end} {total}"
            );
        }
    }

    #[test]
    fn moves_from_a_gcg_turn() {
        let file = game("wespa-end.gcg");
        let cgp = stdout(&run(&["gcg", &file, "--turn", "3"]));
        let a = run(&["moves", "--gcg", &file, "--turn", "3", "--top", "5"]);
        let b = run(&["moves", "--cgp", cgp.trim(), "--top", "5"]);
        assert_eq!(a.status.code(), Some(0), "{}", stderr(&a));
        assert_eq!(stdout(&a), stdout(&b));
        assert_eq!(stdout(&a).lines().count(), 5);
        // Without --turn: the final position.
        let end = stdout(&run(&["gcg", &file]));
        let a = run(&["moves", "--gcg", &file, "--count"]);
        let b = run(&["moves", "--cgp", end.trim(), "--count"]);
        assert_eq!(stdout(&a), stdout(&b));
    }

    #[test]
    fn bad_input_fails_cleanly() {
        let dir = TempDir::new().unwrap();
        let bad = dir.path().join("bad.gcg");
        std::fs::write(&bad, "#player1 a A\n#player2 b B\n>c: AB 8H AB +4 4\n").unwrap();
        let bad = bad.to_str().unwrap();
        let o = run(&["gcg", bad, "--check"]);
        assert_error(&o, "bad.gcg: line 3, column 2: unknown player \"c\"");
        let o = run(&["moves", "--gcg", bad]);
        assert_error(&o, "line 3, column 2");
        assert_error(&run(&["gcg", "/no/such/file.gcg"]), "/no/such/file.gcg");
        assert_error(
            &run(&["gcg", &game("wespa-end.gcg"), "--turn", "999"]),
            "turn 999 is past the end of the game",
        );
        // A lexicon named that lexq has no file for: ENABLE, with a warning.
        let named = dir.path().join("named.gcg");
        std::fs::write(&named, "#player1 a A\n#player2 b B\n#lexicon NWL2099\n").unwrap();
        let o = run(&["gcg", named.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(
            stderr(&o).starts_with("lexq: warning: the game names lexicon \"NWL2099\""),
            "{}",
            stderr(&o)
        );
        assert!(
            stdout(&o).ends_with(" 0/0 0 lex ENABLE;\n"),
            "{}",
            stdout(&o)
        );
        // Argument combinations clap refuses.
        assert_eq!(
            run(&["gcg", &game("wespa-end.gcg"), "--json"])
                .status
                .code(),
            Some(2)
        );
        assert_eq!(run(&["moves", "--turn", "3"]).status.code(), Some(2));
        let binary = dir.path().join("binary.gcg");
        std::fs::write(&binary, [0x80u8, 0x81, 0x00, 0x41]).unwrap();
        assert_error(
            &run(&["gcg", binary.to_str().unwrap()]),
            "not UTF-8: it looks like UTF-16",
        );
        // A UTF-16 byte-order mark, then no text: read as UTF-16, refused.
        std::fs::write(&binary, [0xffu8, 0xfe, 0x00, 0x41]).unwrap();
        assert_error(
            &run(&["gcg", binary.to_str().unwrap()]),
            "a line must start with #",
        );
    }

    fn variant(name: &str) -> String {
        game(&format!("variants/{name}"))
    }

    #[test]
    fn every_turn_is_a_position_moves_takes() {
        // Three players, racks written UNKNOWN, a blank left at the end, and
        // a lexicon lexq has no file for.
        let dir = TempDir::new().unwrap();
        let nwl = dir.path().join("nwl.gcg");
        let text = std::fs::read_to_string(variant("quackle-comments.gcg")).unwrap();
        std::fs::write(&nwl, text.replace("#lexicon ENABLE", "#lexicon NWL2023")).unwrap();
        let nwl = nwl.to_str().unwrap().to_string();
        for file in [
            variant("three-players.gcg"),
            variant("unknown-racks.gcg"),
            variant("end-doubled-blank.gcg"),
            nwl,
        ] {
            let events = std::fs::read_to_string(&file)
                .unwrap()
                .lines()
                .filter(|l| l.starts_with('>'))
                .count();
            let mut cgps = String::new();
            let mut n = 0;
            for k in (0..=events).step_by(4).chain([events]) {
                let o = run(&["gcg", &file, "--turn", &k.to_string()]);
                assert_eq!(o.status.code(), Some(0), "{file} {k}: {}", stderr(&o));
                cgps += &stdout(&o);
                n += 1;
            }
            let o = run_stdin(&["moves", "--count"], &cgps);
            assert_eq!(o.status.code(), Some(0), "{file}: {}\n{cgps}", stderr(&o));
            assert_eq!(stdout(&o).lines().count(), n, "{file}");
        }
        // Three players: three racks and scores, the mover first.
        let o = run(&["gcg", &variant("three-players.gcg"), "--turn", "2"]);
        let cgp = stdout(&o);
        let f: Vec<&str> = cgp.split(' ').collect();
        assert_eq!(
            (f[1], f[2]),
            ("CPSTUWXZ//".get(1..).unwrap(), "0/32/23"),
            "{cgp}"
        );
    }

    #[test]
    fn a_long_run_of_passes_is_a_position_moves_takes() {
        // 1,001 passes: the game is over after six (--check says so), but
        // the position lexq gcg prints must be a CGP lexq reads back (its
        // scoreless-turn count had been refused past 1,000).
        let dir = TempDir::new().unwrap();
        let file = dir.path().join("passes.gcg");
        let mut text = String::from("#player1 a A\n#player2 b B\n");
        for i in 0..1001 {
            let who = if i % 2 == 0 { "a" } else { "b" };
            text += &format!(">{who}: AEINRST - +0 0\n");
        }
        std::fs::write(&file, text).unwrap();
        let file = file.to_str().unwrap();
        let o = run(&["gcg", file]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let cgp = stdout(&o);
        assert!(cgp.trim_end().ends_with(" 1001"), "{cgp}");
        let o = run_stdin(&["moves", "--count"], &cgp);
        assert_ne!(o.status.code(), Some(2), "{}", stderr(&o));
        let o = run(&["gcg", file, "--check"]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert!(stdout(&o).contains("a move after the end of the game (line 8)"));
    }

    #[test]
    fn check_covers_the_whole_game() {
        let file = variant("whole-game-mistakes.gcg");
        let o = run(&["gcg", &file, "--check", "--json"]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let kinds: Vec<(u64, &str)> = v
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p["line"].as_u64().unwrap(), p["kind"].as_str().unwrap()))
            .collect();
        assert_eq!(
            kinds,
            [
                (9, "exchange"),
                (10, "rack"),
                (20, "tiles"),
                (32, "end"),
                (33, "after-end")
            ]
        );
        let o = run(&["gcg", &file, "--check"]);
        let out = stdout(&o);
        assert!(
            out.contains(":9: exchange of AEEZ: not on the rack AEEERTY"),
            "{out}"
        );
        assert!(
            out.contains(":10: a rack of 8 tiles; racks hold 7"),
            "{out}"
        );
        assert!(
            out.contains(":20: 2 Q tiles on the board and the rack; the set has 1"),
            "{out}"
        );
        assert!(
            out.contains(":32: end of game: (OR) are not the tiles left, OO"),
            "{out}"
        );
        // Line 31 went out with the bag empty.
        assert!(
            out.contains(":33: a move after the end of the game (line 31)"),
            "{out}"
        );
        // The clean variants pass; three players are all named.
        let o = run(&["gcg", &variant("three-players.gcg"), "--check"]);
        assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
        assert!(
            stdout(&o).contains("ann 304, bob 285, cy 262"),
            "{}",
            stdout(&o)
        );
    }

    #[test]
    fn files_in_other_encodings() {
        let dir = TempDir::new().unwrap();
        let path = dir.path().join("latin1.gcg");
        let mut bytes = b"#player1 jos\xE9 Jos\xE9\n#player2 b B\n".to_vec();
        std::fs::write(&path, &bytes).unwrap();
        let p = path.to_str().unwrap();
        // Undeclared: read as Latin-1, with a warning.
        let o = run(&["gcg", p, "--check"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(stdout(&o).contains("josé 0, b 0"), "{}", stdout(&o));
        assert_eq!(
            stderr(&o),
            format!(
                "lexq: warning: {p}: line 1: not UTF-8 and no #character-encoding line: read as ISO-8859-1 (say so on the first line: #character-encoding ISO-8859-1)\n"
            )
        );
        let mut declared = b"#character-encoding ISO-8859-1\n".to_vec();
        declared.append(&mut bytes);
        std::fs::write(&path, &declared).unwrap();
        let o = run(&["gcg", p, "--check"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(stdout(&o).contains("josé 0, b 0"), "{}", stdout(&o));
        assert_eq!(stderr(&o), "");
    }

    /// A tile-set file: every letter four tiles worth 1, two blanks.
    fn flat_tiles(path: &std::path::Path) {
        let mut s = String::from("? 2 0\n");
        for c in 'A'..='Z' {
            s += &format!("{c} 4 1\n");
        }
        std::fs::write(path, s).unwrap();
    }

    #[test]
    fn files_a_game_names_resolve_from_its_folder() {
        let dir = TempDir::new().unwrap();
        flat_tiles(&dir.path().join("t.txt"));
        // Self-play run in `dir` with a relative tile-set name writes
        // games that read from anywhere.
        let o = lexq()
            .current_dir(dir.path())
            .args([
                "selfplay", "--games", "1", "--seed", "3", "--tiles", "t.txt",
            ])
            .args(["--gcg-dir", "games", "-o", "positions.cgp"])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let written = dir.path().join("games/game-3.gcg");
        let text = std::fs::read_to_string(&written).unwrap();
        let line = text
            .lines()
            .find(|l| l.starts_with("#tile-distribution "))
            .unwrap();
        let named = line.trim_start_matches("#tile-distribution ");
        assert!(std::path::Path::new(named).is_absolute(), "{line}");
        let o = run(&["gcg", written.to_str().unwrap(), "--check"]);
        assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
        // A relative name is found from the game file's folder.
        let moved = dir.path().join("moved.gcg");
        std::fs::write(&moved, text.replace(line, "#tile-distribution t.txt")).unwrap();
        let o = run(&["gcg", moved.to_str().unwrap(), "--check"]);
        assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
        // --tiles and --layout override what the file names.
        let lost = dir.path().join("lost.gcg");
        std::fs::write(
            &lost,
            text.replace(
                line,
                "#tile-distribution nowhere.txt\n#board-layout nowhere.txt",
            ),
        )
        .unwrap();
        let lost = lost.to_str().unwrap();
        let o = run(&["gcg", lost, "--check"]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        let t = dir.path().join("t.txt");
        let o = run(&[
            "gcg",
            lost,
            "--check",
            "--tiles",
            t.to_str().unwrap(),
            "--layout",
            "standard",
        ]);
        assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
        // The CGP names the tiles given.
        let o = run(&[
            "gcg",
            lost,
            "--tiles",
            t.to_str().unwrap(),
            "--layout",
            "standard",
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(
            stdout(&o).contains(&format!("ld {};", t.display())),
            "{}",
            stdout(&o)
        );
    }
}
