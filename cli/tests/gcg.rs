//! `lexq gcg` and `lexq moves --gcg` end to end, on the games of the core's
//! `tests/data/gcg/` (checked there against an independent replay): the
//! mistakes game reports exactly its known lines, clean games pass, every
//! turn's CGP equals the previous turn's CGP with the event's move played
//! by `lexq play`, and bad input fails cleanly.

use std::path::PathBuf;
use std::process::{Command, Output};

use tempfile::TempDir;

fn lexq() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_lexq"));
    c.env_remove("LEXQ_LEXICON");
    c
}

fn run(args: &[&str]) -> Output {
    lexq().args(args).output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[track_caller]
fn assert_error(o: &Output, needle: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "stderr: {err}");
    assert!(err.contains(needle), "{needle:?} not in stderr: {err}");
    assert!(
        err.starts_with("lexq: ") || err.starts_with("error:"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "panic: {err}");
    assert!(o.stdout.is_empty(), "stdout: {}", stdout(o));
}

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

fn run_stdin(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = lexq()
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
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
    assert_error(
        &run(&["gcg", p]),
        "line 1, column 13: not UTF-8: it looks like ISO-8859-1 (Latin-1); say so on the first line (#character-encoding ISO-8859-1)",
    );
    let mut declared = b"#character-encoding ISO-8859-1\n".to_vec();
    declared.append(&mut bytes);
    std::fs::write(&path, &declared).unwrap();
    let o = run(&["gcg", p, "--check"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("josé 0, b 0"), "{}", stdout(&o));
}
