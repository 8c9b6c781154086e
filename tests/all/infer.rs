//! Inference (`lexq::game::infer`) against a brute force written here:
//! every rack the opponent could have held, as every set of the physical
//! tiles it cannot be told apart from (the bag and its rack, one entry a
//! tile), so that a rack's weight is the number of such sets, counted,
//! not computed; every move of each rack listed by a plain generator
//! (`All`, no best-first search) and valued by hand from the test's own
//! leave table; a rack consistent when no move's equity beats the play's
//! by more than the margin. Positions are late in self-played games, where
//! the unseen tiles are few enough to list every set.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use lexq::game::leaves::Leaves;
use lexq::game::{All, Game, Generator, Layout, Move, MoveKind, Position, Rack, TopN, infer};
use lexq::{Lexicon, TileSet};

/// A leave table of the test's own: every sub-rack of up to 3 tiles of
/// `pool`, worth a random whole or half point from -15 to +15 (exact in
/// `f32`), as CSV and as a map from sorted codes to millipoints.
fn random_table(pool: &[u8], seed: &mut u64, lex: &Lexicon) -> (String, HashMap<Vec<u8>, i32>) {
    let mut subs: Vec<Vec<u8>> = vec![Vec::new()];
    let mut sorted = pool.to_vec();
    sorted.sort_unstable();
    for &t in &sorted {
        let more: Vec<Vec<u8>> = subs
            .iter()
            .filter(|s| s.len() < 3)
            .map(|s| {
                let mut s = s.clone();
                s.push(t);
                s
            })
            .collect();
        subs.extend(more);
    }
    subs.sort();
    subs.dedup();
    let mut csv = String::new();
    let mut map = HashMap::new();
    for s in subs.into_iter().filter(|s| !s.is_empty()) {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let halves = ((*seed >> 33) % 61) as i32 - 30;
        let text = Rack::from_codes(&s).to_string(lex.alphabet());
        csv.push_str(&format!("{text},{}\n", halves as f64 / 2.0));
        map.insert(s, halves * 500);
    }
    (csv, map)
}

fn sorted_codes(r: &Rack) -> Vec<u8> {
    let mut v = r.codes();
    v.sort_unstable();
    v
}

/// The best equity of any move of `rack` on the game's board, by the
/// plain generator and the hand valuation: 1000 x score plus the table's
/// value of the tiles kept (0 for a leave it lacks); with a table,
/// every exchange (when the bag holds a rack's worth) and the pass too.
fn best_by_hand(
    game: &Game<'_>,
    rack: &Rack,
    bag: usize,
    table: Option<&HashMap<Vec<u8>, i32>>,
) -> i32 {
    let mut all = All::default();
    Generator::new().generate(game.board(), rack, &mut all);
    let value = |kept: &Rack| table.map_or(0, |t| *t.get(&sorted_codes(kept)).unwrap_or(&0));
    let mut best = i32::MIN;
    for mv in &all.moves {
        best = best.max(mv.score() * 1000 + value(&mv.leave(rack)));
    }
    if table.is_some() {
        best = best.max(value(rack)); // the pass
        if bag >= 7 {
            // Every kept sub-rack but the whole rack.
            let codes = rack.codes();
            for mask in 1u32..(1 << codes.len()) {
                let kept: Vec<u8> = (0..codes.len())
                    .filter(|i| mask & (1 << i) == 0)
                    .map(|i| codes[i])
                    .collect();
                best = best.max(value(&Rack::from_codes(&kept)));
            }
        }
    }
    best
}

/// What the brute force finds: the consistent leaves by weight, the
/// leaves tried, the weight of every rack holding the play's tiles.
struct Brute {
    consistent: BTreeMap<Vec<u8>, u64>,
    tried: usize,
    total: u128,
}

fn brute(
    game: &Game<'_>,
    pool: &[u8],
    play: &Move,
    margin: i32,
    table: Option<&HashMap<Vec<u8>, i32>>,
) -> Brute {
    let n = pool.len().min(7);
    let bag = pool.len() - n;
    // Every set of n of the pool's tiles, counted by the rack it makes.
    let mut racks: BTreeMap<Vec<u8>, u64> = BTreeMap::new();
    let m = pool.len();
    let mut idx: Vec<usize> = (0..n).collect();
    loop {
        let mut r: Vec<u8> = idx.iter().map(|&i| pool[i]).collect();
        r.sort_unstable();
        *racks.entry(r).or_default() += 1;
        // The next combination of n indices out of m.
        let Some(i) = (0..n).rev().find(|&i| idx[i] < m - n + i) else {
            break;
        };
        idx[i] += 1;
        for j in i + 1..n {
            idx[j] = idx[j - 1] + 1;
        }
    }
    let spent: Vec<u8> = play.spent().collect();
    let mut out = Brute {
        consistent: BTreeMap::new(),
        tried: 0,
        total: 0,
    };
    for (codes, count) in racks {
        let rack = Rack::from_codes(&codes);
        let mut leave = rack;
        if !spent.iter().all(|&t| leave.remove(t)) {
            continue; // the rack could not make the play
        }
        out.tried += 1;
        out.total += count as u128;
        let value = table.map_or(0, |t| *t.get(&sorted_codes(&leave)).unwrap_or(&0));
        let equity = play.score() * 1000 + value;
        if best_by_hand(game, &rack, bag, table) <= equity + margin {
            out.consistent.insert(sorted_codes(&leave), count);
        }
    }
    out
}

/// Late positions of self-played games: the bag holding at most `bag`
/// tiles (and at least 3), the game not over.
fn late_games(lex: &Lexicon, seeds: std::ops::Range<u64>, bag: usize) -> Vec<Game<'_>> {
    let set = TileSet::named("english", lex.alphabet()).unwrap();
    let mut generator = Generator::new();
    let mut out = Vec::new();
    for seed in seeds {
        let mut game = Game::new(lex, Layout::standard(), set.clone(), 2, seed).unwrap();
        while !game.is_over() && game.bag_len() > bag {
            let mv = game.best_move(&mut generator).mv;
            game.apply(&mv).unwrap();
        }
        if !game.is_over() && game.bag_len() >= 3 {
            out.push(game);
        }
    }
    out
}

#[test]
fn inference_equals_a_brute_force_over_every_rack() {
    let lex = Lexicon::embedded();
    let mut seed = 17u64;
    let (mut checked, mut partial, mut with_table) = (0, 0, 0);
    for (k, game) in late_games(&lex, 1..13, 8).into_iter().enumerate() {
        let mover = game.to_move();
        let other = 1 - mover;
        // The pool: the bag and the mover's rack, from the game itself.
        let mut pool: Vec<u8> = game.bag().to_vec();
        pool.extend(game.rack(mover).codes());
        // The position the inferring player sees: the mover's rack not
        // shown in every other game (shown, it must be ignored).
        let cgp = game.to_cgp();
        let shown = if k % 2 == 0 {
            cgp.clone()
        } else {
            let f: Vec<&str> = cgp.split(' ').collect();
            let racks = f[1].split('/').nth(1).unwrap();
            format!("{} /{racks} {}", f[0], f[2..].join(" "))
        };
        let pos = Position::from_cgp(&lex, &shown).unwrap();
        let mut seen = Game::from_position(&pos, 99).unwrap();
        // The position numbers its players from the one to move.
        let seen_mover = seen.to_move();
        assert_eq!(seen.rack(1 - seen_mover), game.rack(other));
        // The mover's rack given back to the bag: what infer starts from.
        seen.set_rack(seen_mover, &Rack::new()).unwrap();
        let use_table = k % 3 != 2;
        let (csv, map) = random_table(&pool, &mut seed, &lex);
        let mut generator = Generator::new();
        if use_table {
            let t = Leaves::from_csv(&csv, lex.alphabet()).unwrap();
            generator = generator.exchanges(true).leaves(Some(Arc::new(t)));
            with_table += 1;
        }
        // Plays: the mover's moves ranked 1st, 3rd and 6th by the model.
        let mut top = TopN::new(6);
        game.generate(&mut generator.clone(), &mut top);
        let list = top.into_valued();
        for (i, v) in list.iter().enumerate() {
            if ![0, 2, 5].contains(&i) || v.mv.kind() != MoveKind::Place {
                continue;
            }
            for margin in [0, 7000] {
                let settings = infer::Settings {
                    margin,
                    ..Default::default()
                };
                let got = infer::infer(&seen, &generator, &v.mv, &settings).unwrap();
                let want = brute(&seen, &pool, &v.mv, margin, use_table.then_some(&map));
                let got_map: BTreeMap<Vec<u8>, u64> = got
                    .leaves
                    .iter()
                    .map(|l| (sorted_codes(&l.leave), l.weight))
                    .collect();
                assert_eq!(
                    got_map, want.consistent,
                    "{shown} {:?} margin {margin}",
                    v.mv
                );
                assert_eq!(got.tried as usize, want.tried, "{shown}");
                assert_eq!(got.total_weight, want.total, "{shown}");
                assert_eq!(
                    got.consistent_weight,
                    want.consistent.values().map(|&w| w as u128).sum::<u128>()
                );
                // The mover's own leave is consistent with its best move.
                if i == 0 {
                    let own = sorted_codes(&v.mv.leave(game.rack(mover)));
                    assert!(want.consistent.contains_key(&own), "{shown}");
                }
                if !want.consistent.is_empty() && want.consistent.len() < want.tried {
                    partial += 1;
                }
                checked += 1;
            }
        }
    }
    eprintln!(
        "{checked} inferences equal the brute force ({partial} keeping some racks and not others; {with_table} positions with a leave table)"
    );
    // Enough cases, and ones where inference tells racks apart.
    assert!(checked >= 40, "{checked}");
    assert!(partial >= 10, "{partial}");
    assert!(with_table >= 4, "{with_table}");
}

/// A hand-worked case of the weights, on a tiny tile set (racks of 3;
/// two E, an X, a T unseen by the player holding AAD): the opponent opens
/// 8G EX. The racks that hold E and X are EEX (one draw: both E) and EXT
/// (two draws: either E), so the kept E is worth 1 and the kept T 2, a
/// third and two thirds. (Drawing the leave from the tiles left, E T,
/// would say a half each.)
#[test]
fn weights_count_the_draws_of_the_whole_rack() {
    let lex = Lexicon::embedded();
    let mut text = String::from("rack 3\n? 0 0\n");
    for c in 'A'..='Z' {
        let n = match c {
            'A' => 2,
            'E' => 2,
            'D' | 'X' | 'T' => 1,
            _ => 0,
        };
        text.push_str(&format!("{c} {n} 1\n"));
    }
    let set = TileSet::from_text("tiny", &text, lex.alphabet()).unwrap();
    assert_eq!(set.total(), 7);
    let mut game = Game::new(&lex, Layout::standard(), set, 2, 3).unwrap();
    let a = lex.alphabet();
    game.set_rack(1, &Rack::new()).unwrap();
    game.set_rack(0, &Rack::new()).unwrap();
    game.set_rack(1, &Rack::parse("AAD", a).unwrap()).unwrap();
    assert_eq!(game.bag_len(), 4);
    let play = game.board().parse_move("8G EX").unwrap();
    let settings = infer::Settings {
        margin: 1_000_000,
        ..Default::default()
    };
    let got = infer::infer(&game, &Generator::new(), &play, &settings).unwrap();
    let leaves: Vec<(String, u64)> = got
        .leaves
        .iter()
        .map(|l| (l.leave.to_string(a), l.weight))
        .collect();
    assert_eq!(leaves, [("T".to_string(), 2), ("E".to_string(), 1)]);
    assert_eq!(
        (got.tried, got.total_weight, got.consistent_weight),
        (2, 3, 3)
    );
    assert!((got.probability(&got.leaves[0]) - 2.0 / 3.0).abs() < 1e-12);
    // By score alone with no margin: EX scores (1 + 1) x 2 = 4 on the tiny
    // set, and neither rack makes a longer word, so both stay.
    let exact = infer::infer(&game, &Generator::new(), &play, &infer::Settings::default()).unwrap();
    assert_eq!(exact.play.score(), 4);
}

/// The simulation deals the opponent an inferred leave: holding both
/// blanks it replies better than holding V V W, and a leave of weight 0
/// is never dealt (the answer is the same as without it).
#[test]
fn a_simulation_deals_the_opponent_an_inferred_leave() {
    use lexq::game::sim;
    let lex = Lexicon::embedded();
    let a = lex.alphabet();
    let set = TileSet::named("english", a).unwrap();
    let mut generator = Generator::new();
    // A game after one play, where the player to move holds no blank, V
    // or W (so the opponent may).
    let game = (1..100)
        .map(|seed| {
            let mut g = Game::new(&lex, Layout::standard(), set.clone(), 2, seed).unwrap();
            let mv = g.best_move(&mut generator).mv;
            g.apply(&mv).unwrap();
            g
        })
        .find(|g| {
            [0u8, 22, 23]
                .iter()
                .all(|&c| g.rack(g.to_move()).count(c) == 0)
        })
        .unwrap();
    let leave = |s: &str, weight| infer::Leave {
        leave: Rack::parse(s, a).unwrap(),
        weight,
    };
    let run = |leaves: Vec<infer::Leave>| {
        let settings = sim::Settings {
            candidates: 1,
            iterations: 96,
            plies: 1,
            cutoff: f64::INFINITY,
            opponent_leaves: leaves,
            ..Default::default()
        };
        sim::simulate(&game, &Generator::new(), &settings, &|_, _| {}).unwrap()[0].clone()
    };
    let blanks = run(vec![leave("??", 1)]);
    let junk = run(vec![leave("VVW", 1)]);
    assert!(
        blanks.spread + 10.0 < junk.spread,
        "{} against {}",
        blanks.spread,
        junk.spread
    );
    assert_eq!(run(vec![leave("??", 0), leave("VVW", 3)]), junk);
    // A leave the opponent cannot hold is refused.
    let settings = sim::Settings {
        opponent_leaves: vec![leave("ZZ", 1)],
        ..Default::default()
    };
    assert!(sim::simulate(&game, &Generator::new(), &settings, &|_, _| {}).is_err());
}
