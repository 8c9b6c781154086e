//! `lexq endgame` and `lexq sim` end to end: their JSON contracts, each
//! line or move played with `lexq play`, the same answer for the same
//! seed, clean refusals.

mod common;

use serde_json::Value;

use crate::common::*;

const EMPTY: &str = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15";

/// Positions of a self-played game whose bag is empty (racks of the
/// mover first, both shown): the CGP lines after the bag ran out.
fn endgames(seed: &str) -> Vec<String> {
    let o = run(&["selfplay", "--seed", seed]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The bag is empty once both racks and the board hold every tile:
    // 100 tiles in the English set.
    lines(&o)
        .into_iter()
        .filter(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            let on_board = f[0]
                .chars()
                .filter(|c| c.is_alphabetic() || *c == '?')
                .count();
            let racks = f[1].chars().filter(|&c| c != '/').count();
            on_board + racks == 100 && !f[1].starts_with('/')
        })
        .collect()
}

/// Plays `moves` from `cgp` with `lexq play`, one after another: the
/// last position.
fn play_line(cgp: &str, moves: &[String]) -> String {
    let mut cgp = cgp.to_string();
    for mv in moves {
        let o = run(&["play", "--cgp", &cgp, "--", mv]);
        assert_eq!(o.status.code(), Some(0), "{cgp} {mv}: {}", stderr(&o));
        cgp = stdout(&o).trim().to_string();
    }
    cgp
}

fn scores(cgp: &str) -> (i64, i64) {
    let f: Vec<&str> = cgp.split(' ').collect();
    let (a, b) = f[2].split_once('/').unwrap();
    (a.parse().unwrap(), b.parse().unwrap())
}

#[test]
fn endgame_json_is_a_line_play_can_play_to_its_spread() {
    let mut checked = 0;
    for seed in ["1", "2", "3"] {
        for cgp in endgames(seed).into_iter().rev().take(2) {
            let o = run(&["endgame", "--cgp", &cgp, "--json"]);
            assert_eq!(o.status.code(), Some(0), "{cgp}: {}", stderr(&o));
            let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
            let spread = v["spread"].as_i64().unwrap();
            let moves: Vec<String> = v["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap().to_string())
                .collect();
            assert!(v["exact"].as_bool().unwrap(), "{cgp}");
            let end = play_line(&cgp, &moves);
            // The player to move at the start: first in `cgp`; after an
            // odd number of moves, second in `end`.
            let (a, b) = scores(&end);
            let mine = if moves.len().is_multiple_of(2) {
                a - b
            } else {
                b - a
            };
            assert_eq!(mine, spread, "{cgp} -> {end}");
            checked += 1;
        }
    }
    assert!(checked >= 4, "{checked}");
}

#[test]
fn endgame_and_sim_refuse_cleanly() {
    let open = format!("{EMPTY} AEINRST/ 0/0 0");
    assert_one_line_error(&run(&["endgame", "--cgp", &open]), "the bag holds 86 tiles");
    assert_one_line_error(
        &run(&["endgame", "--cgp", &format!("{EMPTY} /AB 0/0 0")]),
        "no rack for the player to move",
    );
    assert_error(&run(&["endgame", "--cgp", &open, "--time", "0"]), "time");
    assert_one_line_error(
        &run(&["sim", "--cgp", &open, "--iterations", "0"]),
        "--iterations",
    );
    assert_one_line_error(&run(&["sim", "--cgp", &open, "--jobs", "0"]), "--jobs");
}

#[test]
fn sim_json_is_best_first_and_the_same_for_the_same_seed() {
    let cgp = "15/15/15/15/15/15/15/4CARE7/15/15/15/15/15/15/15 AEINRSQ/ 12/0 0";
    let args = |jobs: &'static str, seed: &'static str| {
        run(&[
            "sim",
            "--cgp",
            cgp,
            "--iterations",
            "40",
            "--candidates",
            "4",
            "--seed",
            seed,
            "--jobs",
            jobs,
            "--json",
        ])
    };
    let one = args("1", "3");
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    assert_eq!(stdout(&one), stdout(&args("2", "3")));
    assert_eq!(stdout(&one), stdout(&args("1", "3")));
    let v: Value = serde_json::from_str(stdout(&one).trim()).unwrap();
    let list = v["candidates"].as_array().unwrap();
    assert_eq!(list.len(), 4);
    let wins: Vec<f64> = list.iter().map(|c| c["win"].as_f64().unwrap()).collect();
    assert!(wins.windows(2).all(|w| w[0] >= w[1]), "{wins:?}");
    for c in list {
        assert!(c["spread"].is_number() && c["stderr"].is_number());
        assert!(c["iterations"].as_u64().unwrap() >= 1);
        play_line(cgp, &[c["move"].as_str().unwrap().to_string()]);
    }
}

#[test]
fn infer_json_lists_the_leaves_by_weight() {
    // Player 0 (rack not shown) opens 8D QUARTZ; player 1 holds AEINRST.
    let cgp = format!("{EMPTY} /AEINRST 0/0 0");
    let o = run(&["infer", "--cgp", &cgp, "--play", "8D QUARTZ", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["play"], "8D QUARTZ");
    assert_eq!(v["score"], 68);
    let leaves = v["leaves"].as_array().unwrap();
    assert_eq!(leaves.len() as u64, v["consistent"].as_u64().unwrap());
    // One tile kept, of the 26 kinds left unseen (the one Q and Z played).
    assert!(v["tried"].as_u64().unwrap() <= 26);
    let p: f64 = leaves
        .iter()
        .map(|l| l["probability"].as_f64().unwrap())
        .sum();
    assert!((p - 1.0).abs() < 1e-4, "{p}");
    let weights: Vec<u64> = leaves
        .iter()
        .map(|l| l["weight"].as_u64().unwrap())
        .collect();
    assert!(weights.windows(2).all(|w| w[0] >= w[1]), "{weights:?}");
    for l in leaves {
        assert_eq!(l["leave"].as_str().unwrap().chars().count(), 1, "{l}");
    }
    // The draws of QUARTZ from the tiles player 1 cannot see: Q 1, U 4,
    // A 8 (9 less its own), R 5, T 5, Z 1: 800 ways; then E 11 (12 less
    // its own), I 8, a second A C(8, 2) / 8 = 3.5 times as many.
    let w = |t: &str| {
        leaves
            .iter()
            .find(|l| l["leave"] == t)
            .map(|l| l["weight"].as_u64().unwrap())
    };
    for (t, want) in [("E", 800 * 11), ("I", 800 * 8), ("A", 4 * 28 * 5 * 5)] {
        if let Some(got) = w(t) {
            assert_eq!(got, want, "{t}");
        }
    }
    let text = run(&["infer", "--cgp", &cgp, "--play", "8D QUARTZ"]);
    assert!(
        stdout(&text).starts_with("8D QUARTZ 68: "),
        "{}",
        stdout(&text)
    );
}

#[test]
fn infer_refuses_cleanly() {
    let cgp = format!("{EMPTY} /AEINRST 0/0 0");
    assert_one_line_error(
        &run(&["infer", "--cgp", &cgp, "--play", "8G ZZ"]),
        "not among the tiles",
    );
    assert_one_line_error(&run(&["infer", "--cgp", &cgp, "--play", "-"]), "placement");
    assert_one_line_error(
        &run(&[
            "infer",
            "--cgp",
            &cgp,
            "--play",
            "8D QUARTZ",
            "--margin",
            "-1",
        ]),
        "--margin",
    );
    assert_one_line_error(
        &run(&[
            "infer",
            "--cgp",
            &cgp,
            "--play",
            "8G AT",
            "--max-leaves",
            "10",
        ]),
        "over the limit of 10",
    );
    assert_one_line_error(&run(&["infer", "--cgp", &cgp, "--play", "8G QZ"]), "QZ");
}

#[test]
fn sim_with_inference_is_the_same_for_the_same_seed() {
    let cgp = format!("{EMPTY} /AEINRST 0/0 0");
    let args = |jobs: &'static str| {
        run(&[
            "sim",
            "--cgp",
            &cgp,
            "--infer",
            "8D QUARTZ",
            "--iterations",
            "40",
            "--candidates",
            "3",
            "--seed",
            "5",
            "--jobs",
            jobs,
            "--json",
        ])
    };
    let one = args("1");
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    assert_eq!(stdout(&one), stdout(&args("2")));
    let v: Value = serde_json::from_str(stdout(&one).trim()).unwrap();
    let list = v["candidates"].as_array().unwrap();
    assert_eq!(list.len(), 3);
    // Each candidate is playable after QUARTZ.
    let after = play_line(
        &format!("{EMPTY} QUARTZ?/AEINRST 0/0 0"),
        &["8D QUARTZ".to_string()],
    );
    for c in list {
        play_line(&after, &[c["move"].as_str().unwrap().to_string()]);
    }
    assert_one_line_error(
        &run(&[
            "sim",
            "--cgp",
            &format!("{EMPTY} / 0/0 0"),
            "--infer",
            "8D QUARTZ",
        ]),
        "rack second",
    );
}

#[test]
fn infer_reads_a_game_file() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/gcg/exchange-pass-challenge.gcg"
    );
    // Event 2 is bob's J8 SH; ann's next line shows her rack, GNOUUWY.
    let from_file = run(&["infer", "--gcg", file, "--turn", "2", "--json"]);
    assert_eq!(from_file.status.code(), Some(0), "{}", stderr(&from_file));
    let before = run(&["gcg", file, "--turn", "1"]);
    let cgp = stdout(&before).trim().to_string();
    let mut f: Vec<String> = cgp.split(' ').map(String::from).collect();
    assert_eq!(f[1], "BCGHMRS/");
    f[1] = "BCGHMRS/GNOUUWY".into();
    let by_hand = run(&["infer", "--cgp", &f.join(" "), "--play", "J8 SH", "--json"]);
    assert_eq!(stdout(&from_file), stdout(&by_hand));
    let v: Value = serde_json::from_str(stdout(&by_hand).trim()).unwrap();
    assert_eq!(v["play"], "J8 SH");
    // Event 3 is an exchange; event 0 does not exist.
    assert_one_line_error(&run(&["infer", "--gcg", file, "--turn", "3"]), "not a play");
    assert_one_line_error(&run(&["infer", "--gcg", file, "--turn", "0"]), "1 or more");
    // The default is the file's last play.
    let last = run(&["infer", "--gcg", file]);
    assert!(
        matches!(last.status.code(), Some(0 | 1)),
        "{}",
        stderr(&last)
    );
}
