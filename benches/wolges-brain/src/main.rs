// wolges-brain: wolges's endgame solver and Monte Carlo simmer
// (github.com/andy-k/wolges, Andy Kurnia, MIT) run on a file of CGP
// positions, so that lexq's `game::endgame` and `game::sim` can be timed
// against them in the same run (benches/brain.sh). A measuring instrument:
// nothing of it goes into lexq.
//
//   wolges-brain endgame --kwg K [--no-prune] [--start N] [--cap SECONDS] FILE.cgp
//   wolges-brain sim --kwg K --klv L [--candidates N] [--plies P]
//                    [--iterations I] [--seed S] FILE.cgp
//
// English 15x15 only (wolges's make_english_game_config).

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use wolges::{
    alphabet, bites, build, display, endgame, equity, fash, game_config, game_state, klv, kwg,
    movegen, simmer,
};

const USAGE: &str = "\
usage:
  wolges-brain endgame --kwg FILE.kwg [--no-prune] [--start N] [--cap SECONDS] POSITIONS.cgp
      each position (bag empty) solved by wolges's EndgameSolver::solve (to
      the end: its iterative deepening stops when a depth adds no state and
      cuts no line). By default the lexicon is first pruned to the words
      still playable on the board and rebuilt (gen_remaining_words +
      build::build), as wolges's own endgame CLI and batch mode do; that
      time is counted (prune_us) apart from the search (solve_us).
      Prints `idx=I tiles=M/O value=V prune_us=P solve_us=S` a position
      (V: the future spread, the mover's points from here on less the
      opponent's). --cap: a position that takes longer prints
      `idx=I capped` and the program exits with status 3 (rerun with
      --start I+1).
  wolges-brain sim --kwg FILE.kwg --klv FILE.klv2 [--candidates N] [--plies P]
                   [--iterations I] [--seed S] POSITIONS.cgp
      each position: the best N moves by equity (gen_moves_unfiltered,
      max_gen N), then I iterations of wolges's simmer::Simmer: an iteration
      redraws the opponent's rack (prepare_iteration) and plays every
      candidate followed by P plies of the top equity move (simulate),
      scoring each (final_equity_spread, compute_win_prob). No pruning: I*N
      rollouts a position. Prints `idx=I rollouts=R us=T` and the
      candidates' mean spreads.";

fn die(msg: &str) -> ! {
    eprintln!("wolges-brain: {msg}\n{USAGE}");
    std::process::exit(2);
}

struct Position {
    board: Vec<u8>,
    /// The player to move's rack, the opponent's (as named; may be empty).
    racks: [Vec<u8>; 2],
    /// Whether the opponent's rack was named.
    named: bool,
    /// Scores in points, the mover's first.
    scores: [i32; 2],
    /// Tiles neither on the board nor on the mover's rack.
    unseen: Vec<u8>,
}

fn parse_positions(path: &str, game_config: &game_config::GameConfig) -> Vec<Position> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| die(&format!("{path}: {e}")));
    let alphabet = game_config.alphabet();
    let mut fen_parser = display::BoardFenParser::new(alphabet, game_config.board_layout());
    let rack_reader = alphabet::AlphabetReader::new_for_racks(alphabet);
    let mut out = Vec::new();
    for (lineno, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fail = |what: &str| -> ! { die(&format!("{path}:{}: {what}", lineno + 1)) };
        let mut fields = line.split_ascii_whitespace();
        let board_str = fields.next().unwrap_or_else(|| fail("no board"));
        let racks_str = fields.next().unwrap_or_else(|| fail("no racks"));
        let scores_str = fields.next().unwrap_or("0/0");
        let board = fen_parser
            .parse(board_str)
            .unwrap_or_else(|e| fail(&format!("board: {e:?}")))
            .to_vec();
        let (mine, theirs) = racks_str.split_once('/').unwrap_or((racks_str, ""));
        let mut racks = [Vec::new(), Vec::new()];
        for (r, s) in racks.iter_mut().zip([mine, theirs]) {
            rack_reader
                .set_word(s, r)
                .unwrap_or_else(|e| fail(&format!("rack {s:?}: {e:?}")));
        }
        let (a, b) = scores_str.split_once('/').unwrap_or_else(|| fail("scores"));
        let scores = [
            a.parse().unwrap_or_else(|_| fail("score")),
            b.parse().unwrap_or_else(|_| fail("score")),
        ];
        let mut tally: Vec<i32> = (0..alphabet.len())
            .map(|t| alphabet.freq(t) as i32)
            .collect();
        for &t in board.iter().filter(|&&t| t != 0) {
            tally[if t & 0x80 != 0 { 0 } else { t as usize }] -= 1;
        }
        for &t in &racks[0] {
            tally[t as usize] -= 1;
        }
        if tally.iter().any(|&k| k < 0) {
            fail("more tiles than the set has");
        }
        let unseen = (0u8..)
            .zip(&tally)
            .flat_map(|(t, &k)| std::iter::repeat_n(t, k as usize))
            .collect();
        let named = !racks[1].is_empty();
        out.push(Position {
            board,
            racks,
            named,
            scores,
            unseen,
        });
    }
    out
}

fn load_kwg(path: &str) -> kwg::Kwg<kwg::Node22> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| die(&format!("{path}: {e}")));
    kwg::Kwg::<kwg::Node22>::from_bytes_alloc(&bytes)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(cmd) = args.first() else {
        die("no command")
    };
    let mut kwg_path = None;
    let mut klv_path = None;
    let mut prune = true;
    let mut start = 0usize;
    let mut cap: Option<f64> = None;
    let mut candidates = 10usize;
    let mut plies = 2usize;
    let mut iterations = 100u64;
    let mut seed = 1u64;
    let mut file = None;
    let mut it = args[1..].iter();
    while let Some(a) = it.next() {
        let mut val = || {
            it.next()
                .cloned()
                .unwrap_or_else(|| die(&format!("{a} needs a value")))
        };
        let num = |s: String| -> u64 {
            s.parse()
                .unwrap_or_else(|_| die(&format!("bad number {s}")))
        };
        match a.as_str() {
            "--kwg" => kwg_path = Some(val()),
            "--klv" => klv_path = Some(val()),
            "--no-prune" => prune = false,
            "--start" => start = num(val()) as usize,
            "--cap" => cap = Some(val().parse().unwrap_or_else(|_| die("bad --cap"))),
            "--candidates" => candidates = num(val()) as usize,
            "--plies" => plies = num(val()) as usize,
            "--iterations" => iterations = num(val()),
            "--seed" => seed = num(val()),
            s if !s.starts_with("--") => file = Some(s.to_string()),
            s => die(&format!("unknown option {s}")),
        }
    }
    let kwg_path = kwg_path.unwrap_or_else(|| die("--kwg is required"));
    let file = file.unwrap_or_else(|| die("no positions file"));
    match cmd.as_str() {
        "endgame" => cmd_endgame(&kwg_path, &file, prune, start, cap),
        "sim" => {
            let klv_path = klv_path.unwrap_or_else(|| die("--klv is required"));
            cmd_sim(
                &kwg_path, &klv_path, &file, candidates, plies, iterations, seed,
            )
        }
        _ => die(&format!("unknown command {cmd}")),
    }
}

fn cmd_endgame(kwg_path: &str, file: &str, prune: bool, start: usize, cap: Option<f64>) {
    let game_config = game_config::make_english_game_config();
    let kwg = load_kwg(kwg_path);
    let empty_klv = klv::Klv::<kwg::Node22>::from_bytes_alloc(klv::EMPTY_KLV_BYTES);
    let positions = parse_positions(file, &game_config);
    let mut move_generator = movegen::KurniaMoveGenerator::new(&game_config);
    // A watchdog: the start of the position being solved (ms since t0, +1;
    // 0 when none), checked every 20 ms against the cap.
    let t0 = Instant::now();
    let current = Arc::new(AtomicU64::new(0));
    let current_idx = Arc::new(AtomicU64::new(0));
    if let Some(cap) = cap {
        let (current, current_idx) = (current.clone(), current_idx.clone());
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(Duration::from_millis(20));
                let s = current.load(Ordering::SeqCst);
                if s != 0 {
                    let now = t0.elapsed().as_millis() as u64 + 1;
                    if (now - s) as f64 > cap * 1000.0 {
                        println!("idx={} capped", current_idx.load(Ordering::SeqCst));
                        std::io::stdout().flush().ok();
                        std::process::exit(3);
                    }
                }
            }
        });
    }
    let stdout = std::io::stdout();
    for (idx, pos) in positions.iter().enumerate().skip(start) {
        // With the bag empty the opponent holds every unseen tile.
        let theirs = &pos.unseen;
        if pos.named {
            let mut a = pos.racks[1].clone();
            let mut b = theirs.clone();
            a.sort_unstable();
            b.sort_unstable();
            if a != b {
                die(&format!("position {idx}: the bag is not empty"));
            }
        }
        current_idx.store(idx as u64, Ordering::SeqCst);
        current.store(t0.elapsed().as_millis() as u64 + 1, Ordering::SeqCst);
        let t = Instant::now();
        let pruned;
        let kwg_used = if prune {
            let mut set_of_words = fash::MyHashSet::<bites::Bites>::default();
            move_generator.gen_remaining_words(
                &movegen::BoardSnapshot {
                    board_tiles: &pos.board,
                    game_config: &game_config,
                    kwg: &kwg,
                    klv: &empty_klv,
                },
                |word: &[u8]| {
                    set_of_words.insert(word.into());
                },
            );
            let mut words = set_of_words.into_iter().collect::<Vec<_>>();
            words.sort_unstable();
            let bytes = build::build(
                build::BuildContent::Gaddawg,
                build::BuildLayout::Wolges,
                &words,
            )
            .unwrap_or_else(|e| die(&format!("build: {e}")));
            pruned = kwg::Kwg::<kwg::Node22>::from_bytes_alloc(&bytes);
            &pruned
        } else {
            &kwg
        };
        let prune_us = t.elapsed().as_secs_f64() * 1e6;
        let t = Instant::now();
        let mut egs =
            endgame::EndgameSolver::<kwg::Node22, kwg::Node22>::new(&game_config, kwg_used);
        egs.init(&pos.board, [&pos.racks[0], theirs]);
        let v = egs.solve(0);
        let solve_us = t.elapsed().as_secs_f64() * 1e6;
        current.store(0, Ordering::SeqCst);
        let mut line = Vec::new();
        egs.collect_pv(0, &mut line);
        let mut out = stdout.lock();
        writeln!(
            out,
            "idx={idx} tiles={}/{} value={} prune_us={prune_us:.0} solve_us={solve_us:.0} pv_len={}",
            pos.racks[0].len(),
            theirs.len(),
            v / equity::SCALE as f32,
            line.len()
        )
        .unwrap();
        out.flush().unwrap();
    }
}

#[allow(clippy::too_many_arguments)]
fn cmd_sim(
    kwg_path: &str,
    klv_path: &str,
    file: &str,
    candidates: usize,
    plies: usize,
    iterations: u64,
    seed: u64,
) {
    let game_config = game_config::make_english_game_config();
    let kwg = load_kwg(kwg_path);
    let klv_bytes = std::fs::read(klv_path).unwrap_or_else(|e| die(&format!("{klv_path}: {e}")));
    let klv = klv::Klv::<kwg::Node22>::from_bytes_alloc(&klv_bytes);
    let positions = parse_positions(file, &game_config);
    let mut move_generator = movegen::KurniaMoveGenerator::new(&game_config);
    let mut sim = simmer::Simmer::new(&game_config);
    let mut game_state = game_state::GameState::new(&game_config);
    let rack_size = game_config.rack_size() as usize;
    let mut total_rollouts = 0u64;
    let mut total = Duration::ZERO;
    let stdout = std::io::stdout();
    for (idx, pos) in positions.iter().enumerate() {
        let t = Instant::now();
        // The position: the mover (turn 0) with its rack, the opponent with
        // a rack of its size (the named one, else dealt from the unseen
        // tiles: the simmer redraws it every iteration anyway), the rest in
        // the bag.
        game_state.reset();
        game_state.board_tiles.copy_from_slice(&pos.board);
        for (i, p) in game_state.players.iter_mut().enumerate() {
            p.score = equity::scale_score(pos.scores[i]);
            p.rack.clear();
            p.num_exchanges = 0;
        }
        game_state.players[0].rack.extend_from_slice(&pos.racks[0]);
        let mut bag = pos.unseen.clone();
        if pos.named {
            for &t in &pos.racks[1] {
                let k = bag
                    .iter()
                    .position(|&b| b == t)
                    .unwrap_or_else(|| die("opponent rack"));
                bag.swap_remove(k);
            }
            game_state.players[1].rack.extend_from_slice(&pos.racks[1]);
        } else {
            let k = rack_size.min(bag.len());
            game_state.players[1]
                .rack
                .extend(bag.drain(bag.len() - k..));
        }
        game_state.bag.set_from_iter(bag);
        let snapshot = movegen::BoardSnapshot {
            board_tiles: &game_state.board_tiles,
            game_config: &game_config,
            kwg: &kwg,
            klv: &klv,
        };
        move_generator.gen_moves_unfiltered(&movegen::GenMovesParams {
            board_snapshot: &snapshot,
            rack: &game_state.players[0].rack,
            max_gen: candidates,
            num_exchanges_by_this_player: 0,
            always_include_pass: false,
            dynamic_leaves: None,
        });
        let plays: Vec<movegen::Play> = move_generator
            .plays
            .iter()
            .map(|p| p.play.clone())
            .collect();
        sim.reseed(seed ^ idx as u64);
        sim.prepare(&game_config, &game_state, plies);
        let mut sums = vec![0f64; plays.len()];
        let mut wins = vec![0f64; plays.len()];
        for _ in 0..iterations {
            sim.prepare_iteration();
            for (c, play) in plays.iter().enumerate() {
                let ended = sim.simulate(&game_config, &kwg, &klv, play);
                let final_spread = sim.final_equity_spread();
                let win = sim.compute_win_prob(ended, final_spread, None);
                sums[c] += (final_spread - sim.initial_score_spread) as f64;
                wins[c] += win;
            }
        }
        let us = t.elapsed();
        total += us;
        let rollouts = iterations * plays.len() as u64;
        total_rollouts += rollouts;
        let mut out = stdout.lock();
        write!(
            out,
            "idx={idx} candidates={} rollouts={rollouts} us={:.0}",
            plays.len(),
            us.as_secs_f64() * 1e6
        )
        .unwrap();
        for (c, play) in plays.iter().enumerate() {
            write!(
                out,
                " [{} {:.1} {:.3}]",
                play.fmt(&snapshot),
                sums[c] / iterations as f64 / equity::SCALE as f64,
                wins[c] / iterations as f64
            )
            .unwrap();
        }
        writeln!(out).unwrap();
    }
    println!(
        "total rollouts={total_rollouts} us={:.0} rollouts_per_s={:.1}",
        total.as_secs_f64() * 1e6,
        total_rollouts as f64 / total.as_secs_f64()
    );
}
