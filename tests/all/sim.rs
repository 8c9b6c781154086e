//! The game API a search drives (racks set and dealt, the bag shuffled,
//! the generator told the bag, the equity bot's move, leave values) and
//! the simulation (`lexq::game::sim`) built on it: tiles conserved and
//! errors changing nothing; a simulation to the end of an endgame equal
//! to playing each candidate out by hand; the same answer for any number
//! of threads.

use std::sync::Arc;

use lexq::game::leaves::Leaves;
use lexq::game::{Game, Generator, Layout, MoveKind, Position, Rack, TopN, sim};
use lexq::{Lexicon, TileSet};

const EMPTY: &str = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15";

/// Every tile of the set, counted on the racks, in the bag and on the
/// board.
#[track_caller]
fn conserved(game: &Game<'_>) {
    let b = game.board();
    let mut counts = [0usize; 64];
    for &t in game.bag() {
        counts[t as usize] += 1;
    }
    for p in 0..game.players() {
        for (c, &k) in game.rack(p).counts().iter().enumerate() {
            counts[c] += k as usize;
        }
    }
    for &t in b.tiles() {
        if t != 0 {
            let code = if t & lexq::game::BLANK != 0 {
                0
            } else {
                t & 63
            };
            counts[code as usize] += 1;
        }
    }
    for (code, &k) in counts.iter().enumerate() {
        assert_eq!(k, b.tile_set().count(code as u8), "code {code}");
    }
}

#[test]
fn racks_are_set_and_dealt_from_the_bag() {
    let lex = Lexicon::embedded();
    let a = lex.alphabet();
    let tiles = TileSet::named("english", a).unwrap();
    let mut game = Game::new(&lex, Layout::standard(), tiles, 2, 5).unwrap();
    let mut generator = Generator::new();
    let mv = game.best_move(&mut generator).mv;
    game.apply(&mv).unwrap();
    // Player 0 gets AEE: the bag (with player 0's old rack) has them.
    game.set_rack(0, &Rack::parse("AEE", a).unwrap()).unwrap();
    assert_eq!(game.rack(0).to_string(a), "AEE");
    conserved(&game);
    // Then is dealt E E from the bag.
    game.deal(0, &[5, 5]).unwrap();
    assert_eq!(game.rack(0).to_string(a), "AEEEE");
    conserved(&game);
    // Errors change nothing: a tile not left (one Z in the set), a rack
    // over the size either way.
    let before = game.to_cgp();
    assert!(game.set_rack(1, &Rack::parse("ZZ", a).unwrap()).is_err());
    assert!(game.deal(0, &[1, 1, 1]).is_err());
    assert!(
        game.set_rack(1, &Rack::parse("AAAAAAAA", a).unwrap())
            .is_err()
    );
    assert_eq!(game.to_cgp(), before);
    // The play before the new rack cannot be undone; one after can.
    assert!(!game.undo());
    let mv = game.best_move(&mut generator).mv;
    game.apply(&mv).unwrap();
    assert!(game.undo());
    assert_eq!(game.to_cgp(), before);
    assert!(!game.undo());
    conserved(&game);
}

#[test]
fn a_shuffle_depends_on_the_tiles_and_seed_only() {
    let lex = Lexicon::embedded();
    let tiles = TileSet::named("english", lex.alphabet()).unwrap();
    let mut a = Game::new(&lex, Layout::standard(), tiles.clone(), 2, 1).unwrap();
    let mut b = Game::new(&lex, Layout::standard(), tiles, 2, 2).unwrap();
    // The same tiles on the racks, different bag orders.
    let r0 = *a.rack(0);
    let r1 = *a.rack(1);
    b.set_rack(0, &Rack::new()).unwrap();
    b.set_rack(1, &Rack::new()).unwrap();
    b.set_rack(0, &r0).unwrap();
    b.set_rack(1, &r1).unwrap();
    assert_ne!(a.bag(), b.bag());
    a.shuffle_bag(77);
    b.shuffle_bag(77);
    assert_eq!(a.bag(), b.bag());
    b.shuffle_bag(78);
    assert_ne!(a.bag(), b.bag());
}

/// The game tells the generator the bag's size: no exchange with fewer
/// than seven tiles in the bag, whatever the generator was told before;
/// the leave value is the table's value of the tiles kept.
#[test]
fn the_game_tells_the_generator_the_bag() {
    let lex = Lexicon::embedded();
    let a = lex.alphabet();
    let table = Leaves::from_csv("S,8\n?,25\nQ,-7\nEQ,-3\n", a).unwrap();
    let mut generator = Generator::new()
        .exchanges(true)
        .leaves(Some(Arc::new(table.clone())));
    generator.set_bag(Some(86));
    let pos = Position::from_cgp(&lex, &format!("{EMPTY} QEUIOAS/ 0/0 0")).unwrap();
    let game = Game::from_position(&pos, 1).unwrap();
    let mut top = TopN::new(10_000);
    game.generate(&mut generator, &mut top);
    let valued = top.into_valued();
    assert!(valued.iter().any(|v| v.mv.kind() == MoveKind::Exchange));
    for v in &valued {
        let kept = v.mv.leave(game.rack(0));
        assert_eq!(v.leave_value(), table.value(&kept), "{v:?}");
    }
    // Fewer than seven tiles in the bag, the generator told 86 before.
    generator.set_bag(Some(86));
    let tiles = TileSet::named("english", a).unwrap();
    let mut g = Game::new(&lex, Layout::standard(), tiles, 2, 3).unwrap();
    let mut by_score = Generator::new();
    while g.bag_len() >= 7 {
        let mv = g.best_move(&mut by_score).mv;
        g.apply(&mv).unwrap();
    }
    let mut top = TopN::new(10_000);
    g.generate(&mut generator, &mut top);
    assert!(
        top.into_valued()
            .iter()
            .all(|v| v.mv.kind() != MoveKind::Exchange),
        "an exchange with {} tiles in the bag",
        g.bag_len()
    );
}

/// Endgame positions from self-play (the bag empty, both racks known).
fn endgames(lex: &Lexicon, seeds: std::ops::Range<u64>) -> Vec<String> {
    let set = TileSet::named("english", lex.alphabet()).unwrap();
    let mut generator = Generator::new();
    let mut out = Vec::new();
    for seed in seeds {
        let mut game = Game::new(lex, Layout::standard(), set.clone(), 2, seed).unwrap();
        while !game.is_over() && game.bag_len() > 0 {
            let mv = game.best_move(&mut generator).mv;
            game.apply(&mv).unwrap();
        }
        if !game.is_over() {
            out.push(game.to_cgp());
        }
    }
    out
}

/// With the bag empty every draw is the same: a simulation long enough
/// to reach the end of the game gives each candidate the spread of
/// playing it, then the bot's replies, to the end; no error; win 1, 1/2
/// or 0.
#[test]
fn a_simulation_to_the_end_of_an_endgame_is_the_game_played_out() {
    let lex = Lexicon::embedded();
    let mut checked = 0;
    for cgp in endgames(&lex, 1..12) {
        let pos = Position::from_cgp(&lex, &cgp).unwrap();
        let game = Game::from_position(&pos, 1).unwrap();
        let settings = sim::Settings {
            candidates: 5,
            iterations: 3,
            plies: 40,
            ..Default::default()
        };
        let ranked = sim::simulate(&game, &Generator::new(), &settings, &|_, _| {}).unwrap();
        assert!(!ranked.is_empty());
        for c in &ranked {
            let mut g = game.clone();
            let me = g.to_move();
            g.apply(&c.mv).unwrap();
            let mut generator = Generator::new();
            while !g.is_over() {
                let mv = g.best_move(&mut generator).mv;
                g.apply(&mv).unwrap();
            }
            let spread = (g.score(me) - g.score(1 - me)) as f64;
            assert_eq!(c.spread, spread, "{cgp} {c:?}");
            assert_eq!(c.stderr, 0.0);
            let win = if spread > 0.0 {
                1.0
            } else if spread < 0.0 {
                0.0
            } else {
                0.5
            };
            assert_eq!(c.win, win, "{cgp}");
            assert_eq!(c.iterations, 3);
            checked += 1;
        }
        // Best first.
        for w in ranked.windows(2) {
            assert!(w[0].win >= w[1].win);
        }
    }
    assert!(checked >= 20, "{checked}");
}

#[test]
fn the_same_seed_gives_the_same_answer_for_any_number_of_threads() {
    let lex = Lexicon::embedded();
    let pos = Position::from_cgp(
        &lex,
        "15/15/15/15/15/15/15/4CARE7/15/15/15/15/15/15/15 AEINRSQ/ 12/0 0",
    )
    .unwrap();
    let game = Game::from_position(&pos, 1).unwrap();
    let run = |jobs, seed| {
        let settings = sim::Settings {
            candidates: 4,
            iterations: 70,
            plies: 2,
            seed,
            jobs,
            ..Default::default()
        };
        sim::simulate(&game, &Generator::new(), &settings, &|_, _| {}).unwrap()
    };
    let one = run(1, 5);
    assert_eq!(one, run(3, 5));
    assert_ne!(one, run(1, 6));
    assert!(one.iter().all(|c| c.stderr > 0.0 && c.iterations > 0));
}

/// A candidate far behind stops early; the leader plays every iteration.
#[test]
fn a_candidate_out_of_the_running_stops() {
    let lex = Lexicon::embedded();
    let pos = Position::from_cgp(
        &lex,
        "15/15/15/15/15/15/15/4CARE7/15/15/15/15/15/15/15 AEINRST/ 0/0 0",
    )
    .unwrap();
    let game = Game::from_position(&pos, 1).unwrap();
    let settings = sim::Settings {
        candidates: 30,
        iterations: 160,
        plies: 1,
        cutoff: 2.0,
        ..Default::default()
    };
    let ranked = sim::simulate(&game, &Generator::new(), &settings, &|_, _| {}).unwrap();
    assert_eq!(ranked[0].iterations, 160);
    assert!(!ranked[0].stopped);
    let stopped: Vec<_> = ranked.iter().filter(|c| c.stopped).collect();
    assert!(!stopped.is_empty());
    assert!(stopped.iter().all(|c| c.iterations < 160));
}
