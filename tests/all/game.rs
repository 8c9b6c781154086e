//! The public game state (`src/game/state.rs`): draws, exchanges, challenges,
//! the end of the game and undo, checked by hand-worked positions, by
//! tile conservation at every step, and by undo against a game that never
//! took the detour. Its GCG record is read back by the library's replay
//! and by the brute force's independent one (`common/replay.rs`).

use crate::common;

use lexq::game::{Challenge, ChallengeRule, OutRule, Rules, TurnKind};
use lexq::{
    Lexicon, TileSet, files::FilePolicy, game::All, game::Game, game::Generator, game::Layout,
    game::Move, game::Position, game::Rack,
};

const EMPTY: &str = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15";

/// Every tile is somewhere: the bag and the other racks (unseen by
/// player 0), player 0's rack, the board (a blank as `?`).
#[track_caller]
fn conserved(game: &Game<'_>) {
    let b = game.board();
    let tiles = b.tile_set();
    let mut counts = *game.unseen(0).counts();
    for (c, &k) in game.rack(0).counts().iter().enumerate() {
        counts[c] += k;
    }
    for r in 0..b.size() {
        for c in 0..b.size() {
            let t = b.tile(r, c);
            if t != 0 {
                let code = if t & lexq::game::BLANK != 0 {
                    0
                } else {
                    t & 63
                };
                counts[code as usize] += 1;
            }
        }
    }
    for code in 0..64u8 {
        assert_eq!(
            counts[code as usize] as usize,
            tiles.count(code),
            "tile {code}"
        );
    }
    let others: usize = (1..game.players()).map(|p| game.rack(p).len()).sum();
    assert_eq!(game.unseen(0).len(), game.bag_len() + others);
}

/// Every square's cross sets and cross scores, both ways.
fn crosses(game: &Game<'_>) -> Vec<(u64, Option<i32>)> {
    let b = game.board();
    let n = b.size();
    let mut v = Vec::new();
    for r in 0..n {
        for c in 0..n {
            for across in [true, false] {
                v.push((b.cross_set(r, c, across).0, b.cross_score(r, c, across)));
            }
        }
    }
    v
}

type State = (
    String,
    Vec<(u64, Option<i32>)>,
    usize,
    Vec<u8>,
    Vec<i32>,
    u32,
    bool,
    bool,
    usize,
);

/// What a game state looks like from outside.
fn state(game: &Game<'_>) -> State {
    (
        game.to_cgp(),
        crosses(game),
        game.bag_len(),
        game.unseen(game.to_move()).codes(),
        game.scores().to_vec(),
        game.zeros(),
        game.is_over(),
        game.can_challenge(),
        game.turns().len(),
    )
}

fn greedy(generator: &mut Generator, game: &Game<'_>) -> Move {
    let mut all = All::default();
    generator.set_bag(Some(game.bag_len()));
    generator.generate(game.board(), game.rack(game.to_move()), &mut all);
    let moves = all.into_sorted();
    match moves.first() {
        Some(m) => *m,
        None if game.bag_len() >= 7 => Move::exchange(&game.rack(game.to_move()).codes()),
        None => Move::pass(),
    }
}

#[test]
fn play_and_undo_leave_no_trace() {
    let lex = Lexicon::embedded();
    let tiles = TileSet::named("english", lex.alphabet()).unwrap();
    let mut generator = Generator::new().exchanges(true);
    for seed in 1..=3 {
        // The same game twice: the second tries moves and takes them back
        // before each turn.
        let mut plain = Game::new(&lex, Layout::standard(), tiles.clone(), 2, seed).unwrap();
        let mut detour = plain.clone();
        let start = state(&plain);
        let mut tried = 0;
        while !plain.is_over() {
            let mv = greedy(&mut generator, &plain);
            let before = state(&detour);
            let mut all = All::default();
            generator.set_bag(Some(detour.bag_len()));
            generator.generate(detour.board(), detour.rack(detour.to_move()), &mut all);
            for m in all.moves.iter().step_by(11).chain([&Move::pass()]) {
                detour.apply(m).unwrap();
                conserved(&detour);
                assert!(detour.undo());
                assert_eq!(state(&detour), before, "{}", m.notation(lex.alphabet()));
                tried += 1;
            }
            plain.apply(&mv).unwrap();
            detour.apply(&mv).unwrap();
            conserved(&plain);
        }
        assert!(tried > 100);
        // The bag's order came back too: the games drew alike.
        assert_eq!(detour.to_gcg(&[]), plain.to_gcg(&[]));
        assert_eq!(state(&detour), state(&plain));
        // And all the way back to the deal.
        while plain.undo() {}
        assert_eq!(state(&plain), start);
        assert!(!plain.undo());
    }
}

#[test]
fn an_exchange_puts_the_tiles_back_after_drawing() {
    let lex = Lexicon::embedded();
    let tiles = TileSet::named("english", lex.alphabet()).unwrap();
    let a = lex.alphabet();
    let mut game = Game::new(&lex, Layout::standard(), tiles, 2, 3).unwrap();
    let rack = *game.rack(0);
    let codes = rack.codes();
    let out = &codes[..3];
    let bag = game.bag_len();
    let unseen = game.unseen(0);
    game.play(&Move::exchange(out)).unwrap();
    let after = *game.rack(1 - game.to_move());
    assert_eq!((after.len(), game.bag_len(), game.zeros()), (7, bag, 1));
    // The kept tiles stay; three new ones came from what was unseen.
    let mut kept = rack;
    for &t in out {
        kept.remove(t);
    }
    let mut drawn = after;
    for t in kept.codes() {
        assert!(drawn.remove(t));
    }
    assert_eq!(drawn.len(), 3);
    for t in drawn.codes() {
        assert!(
            unseen.count(t) > 0,
            "{}",
            Rack::from_codes(&[t]).to_string(a)
        );
    }
    // The exchanged tiles are in the bag now, unseen by the player.
    let now = game.unseen(0);
    for &t in out {
        assert!(now.count(t) >= Rack::from_codes(out).count(t));
    }
    conserved(&game);
    assert_eq!(
        game.turns()[0].kind,
        TurnKind::Exchange(Move::exchange(out))
    );
    // Tiles not on the rack, or a bag too small: refused.
    let mut g = game.clone();
    let e = g.play(&Move::exchange(&[26, 26, 26])).unwrap_err();
    assert!(e.to_string().contains("not on the rack"), "{e}");
    let lex2 = Lexicon::embedded();
    let pos = Position::from_cgp(&lex2, &format!("{EMPTY} AEINRST/ 0/0 0")).unwrap();
    let mut g = Game::from_position(&pos, 1).unwrap();
    assert_eq!(g.bag_len(), 86);
    g.play(&Move::exchange(&[1])).unwrap();
}

/// The game at a CGP line; its `ld` may name a tile-set file the test
/// wrote.
fn game_at<'a>(lex: &'a Lexicon, cgp: &str) -> Game<'a> {
    // Some positions name a tile-set file of the test's own.
    let pos = Position::from_cgp_with(lex, cgp, &FilePolicy::any_file()).unwrap();
    Game::from_position(&pos, 5).unwrap()
}

fn parse(game: &Game<'_>, text: &str) -> Move {
    game.board().parse_move(text).unwrap()
}

#[test]
fn challenges_under_each_rule() {
    let lex = Lexicon::embedded();
    let cgp = |rule: &str| format!("{EMPTY} AEINRST/DEILORT 0/0 0 cr {rule};");
    // Void: a phony is refused outright.
    let mut g = game_at(&lex, &cgp("void"));
    let e = g.play(&parse(&g, "8G RT")).unwrap_err();
    assert!(e.to_string().contains("not words: RT"), "{e}");
    assert_eq!(g.turns().len(), 0);

    // Single: the phony goes down; challenged, it comes off.
    let mut g = game_at(&lex, &cgp("single"));
    let start = state(&g);
    let played = g.play(&parse(&g, "8G RT")).unwrap();
    assert_eq!(
        (played.mv.score(), played.phonies.clone()),
        (4, vec!["RT".to_string()])
    );
    assert_eq!((g.to_move(), g.score(0), g.board().tile_count()), (1, 4, 2));
    assert_eq!(g.rack(0).len(), 7, "drew two");
    assert_eq!(g.challenge().unwrap(), Challenge::Withdrawn);
    assert_eq!(g.board().tile_count(), 0);
    assert_eq!(g.rack(0).to_string(lex.alphabet()), "AEINRST");
    assert_eq!(
        (g.to_move(), g.score(0), g.zeros(), g.bag_len()),
        (1, 0, 1, 86)
    );
    assert!(g.challenge().is_err(), "challenged already");
    let gcg = g.to_gcg(&["ann", "bob"]);
    assert!(
        gcg.contains(">ann: AEINRST 8G RT +4 4\n>ann: AEINRST -- -4 0\n"),
        "{gcg}"
    );
    // Undo the withdrawal: the phony is back, and may be challenged.
    assert!(g.undo());
    assert_eq!(
        (g.board().tile_count(), g.score(0), g.rack(0).len()),
        (2, 4, 7)
    );
    assert!(g.can_challenge());
    assert!(g.undo());
    assert_eq!(state(&g), start);

    // A valid play challenged: nothing (single), the turn (double), five
    // points (five_point).
    for (rule, outcome, mover, score) in [
        ("single", Challenge::Valid, 1, 0),
        ("double", Challenge::TurnLost, 0, 0),
        ("five_point", Challenge::Bonus(5), 1, 5),
    ] {
        let mut g = game_at(&lex, &cgp(rule));
        // RETAINS on 8E (no letter premium; the H8 star doubles): 7 x 2
        // + 50.
        g.play(&parse(&g, "8E RETAINS")).unwrap();
        assert_eq!(g.score(0), 64);
        let played = state(&g);
        assert_eq!(g.challenge().unwrap(), outcome, "{rule}");
        assert_eq!((g.to_move(), g.score(0) - 64), (mover, score), "{rule}");
        let lost = g.zeros();
        assert_eq!(lost, u32::from(rule == "double"), "{rule}");
        let gcg = g.to_gcg(&["ann", "bob"]);
        if rule == "five_point" {
            assert!(gcg.contains("(challenge) +5 69"), "{gcg}");
        }
        if rule == "double" {
            assert!(gcg.contains(">bob: DEILORT - +0 0\n#note"), "{gcg}");
        }
        // Undo takes back what the challenge did, and only that: the
        // position right after the play, which may be challenged again
        // (under single the challenge wrote no turn, but it is still the
        // last action).
        assert!(g.undo(), "{rule}");
        assert_eq!((g.score(0), g.to_move()), (64, 1), "{rule}");
        assert!(g.can_challenge(), "{rule}");
        assert_eq!(state(&g), played, "{rule}");
        // A second undo takes back the play.
        assert!(g.undo(), "{rule}");
        assert_eq!((g.score(0), g.to_move(), g.turns().len()), (0, 0, 0));
    }
}

#[test]
fn triple_challenge_ends_the_game() {
    let lex = Lexicon::embedded();
    let cgp = format!("{EMPTY} AEINRST/DEILORT 0/0 0 cr triple;");
    // A phony: withdrawn, and the challenger (bob) wins.
    let mut g = game_at(&lex, &cgp);
    assert_eq!(g.rules().challenge, ChallengeRule::Triple);
    g.play(&parse(&g, "8G RT")).unwrap();
    let played = state(&g);
    assert_eq!(g.challenge().unwrap(), Challenge::ChallengerWins);
    assert!(g.is_over());
    assert_eq!(g.winner(), Some(1));
    assert_eq!((g.board().tile_count(), g.score(0)), (0, 0));
    assert!(g.play(&Move::pass()).is_err(), "over");
    assert!(
        g.to_gcg(&["ann", "bob"])
            .ends_with("#note bob wins by a triple challenge\n")
    );
    assert!(g.undo());
    assert_eq!(state(&g), played);
    assert_eq!(g.winner(), None);
    // A valid play: it stands, and its player (ann) wins.
    let mut g = game_at(&lex, &cgp);
    g.play(&parse(&g, "8E RETAINS")).unwrap();
    let played = state(&g);
    assert_eq!(g.challenge().unwrap(), Challenge::ChallengerLoses);
    assert!(g.is_over());
    assert_eq!((g.winner(), g.score(0)), (Some(0), 64));
    assert!(g.undo());
    assert_eq!(state(&g), played);
    assert_eq!(g.winner(), None);
    // Unchallenged, the game goes on.
    let mut g = game_at(&lex, &cgp);
    g.play(&parse(&g, "8E RETAINS")).unwrap();
    g.play(&Move::pass()).unwrap();
    assert!(!g.is_over() && g.winner().is_none());
}

/// A tile-set file with only these tiles (every other tile 0).
fn tile_file(dir: &std::path::Path, tiles: &[(&str, usize, i32)], rack: usize) -> String {
    let mut s = format!("rack {rack}\n? 0 0\n");
    for c in 'A'..='Z' {
        let (n, v) = tiles
            .iter()
            .find(|t| t.0 == c.to_string())
            .map_or((0, 1), |t| (t.1, t.2));
        s += &format!("{c} {n} {v}\n");
    }
    let path = dir.join("tiles.txt");
    std::fs::write(&path, s).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn the_end_of_the_game() {
    let lex = Lexicon::embedded();
    let dir = tempfile::tempdir().unwrap();
    // Five tiles in all, all on the racks: the bag is empty.
    let file = tile_file(
        dir.path(),
        &[
            ("C", 1, 3),
            ("A", 1, 1),
            ("T", 1, 1),
            ("O", 1, 1),
            ("X", 1, 8),
        ],
        7,
    );
    let cgp = |ops: &str| format!("{EMPTY} ACT/OX 10/20 0 ld {file};{ops}");
    // CAT on 8G: (3 + 1 + 1) x 2 = 10; OX left: 9 points, doubled.
    let mut g = game_at(&lex, &cgp(""));
    assert_eq!(g.bag_len(), 0);
    g.play(&parse(&g, "8G CAT")).unwrap();
    assert!(g.is_over());
    assert_eq!(g.scores(), [10 + 10 + 18, 20]);
    let gcg = g.to_gcg(&["ann", "bob"]);
    assert!(
        gcg.ends_with(">ann: ACT 8G CAT +10 20\n>ann: (OX) +18 38\n"),
        "{gcg}"
    );
    assert!(g.play(&Move::pass()).is_err(), "no move after the end");
    // Once each: +9 for the player out, -9 for the other.
    let mut g = game_at(&lex, &cgp("")).with_rules(Rules {
        out: OutRule::Once,
        ..Rules::default()
    });
    g.play(&parse(&g, "8G CAT")).unwrap();
    assert_eq!(g.scores(), [10 + 10 + 9, 20 - 9]);
    let gcg = g.to_gcg(&["ann", "bob"]);
    assert!(
        gcg.ends_with(">ann: (OX) +9 29\n>bob: OX (OX) -9 11\n"),
        "{gcg}"
    );
    // Undo takes back the end with the play.
    g.undo();
    assert_eq!((g.scores(), g.is_over()), (&[10, 20][..], false));

    // A phony going out, challenged: the end is taken back too.
    let mut g = game_at(&lex, &cgp(" cr single;"));
    g.play(&parse(&g, "8G CTA")).unwrap();
    assert!(g.is_over());
    assert_eq!(g.challenge().unwrap(), Challenge::Withdrawn);
    assert!(!g.is_over());
    assert_eq!(
        (g.scores(), g.to_move(), g.rack(0).len()),
        (&[10, 20][..], 1, 3)
    );

    // A valid play going out, challenged under double: the game is over,
    // so no turn is lost; undo gives back the position right after the
    // play, which may still be challenged.
    let mut g = game_at(&lex, &cgp(" cr double;"));
    g.play(&parse(&g, "8G CAT")).unwrap();
    let played = state(&g);
    assert_eq!(g.challenge().unwrap(), Challenge::Valid);
    assert!(!g.can_challenge());
    assert!(g.undo());
    assert_eq!(state(&g), played);
    assert!(g.can_challenge() && g.is_over());
    assert!(g.undo());
    assert_eq!((g.scores(), g.is_over()), (&[10, 20][..], false));

    // Three players: going out adds the other racks once, and each other
    // player loses their own (the boxed game's rule; the doubled rule
    // of the tournaments is for one-on-one games).
    let three = dir.path().join("three");
    std::fs::create_dir(&three).unwrap();
    let file3 = tile_file(
        &three,
        &[
            ("C", 1, 3),
            ("A", 1, 1),
            ("T", 1, 1),
            ("O", 1, 1),
            ("X", 1, 8),
            ("E", 1, 1),
        ],
        7,
    );
    let mut g = game_at(&lex, &format!("{EMPTY} ACT/OX/E 10/20/30 0 ld {file3};"));
    assert_eq!(g.rules().out, OutRule::Once);
    g.play(&parse(&g, "8G CAT")).unwrap();
    assert!(g.is_over());
    assert_eq!(g.scores(), [10 + 10 + 9 + 1, 20 - 9, 30 - 1]);
    let tiles = lexq::TileSet::named("english", lex.alphabet()).unwrap();
    for (players, out) in [
        (2, OutRule::Doubled),
        (3, OutRule::Once),
        (4, OutRule::Once),
    ] {
        let g = Game::new(&lex, Layout::standard(), tiles.clone(), players, 1).unwrap();
        assert_eq!(g.rules().out, out, "{players} players");
    }

    // Six scoreless turns: each player loses their own rack.
    let mut g = game_at(&lex, &format!("{EMPTY} ACT/OX 10/20 4 ld {file};"));
    g.play(&Move::pass()).unwrap();
    assert!(!g.is_over());
    g.play(&Move::pass()).unwrap();
    assert!(g.is_over());
    assert_eq!(g.scores(), [10 - 5, 20 - 9]);
    let gcg = g.to_gcg(&["ann", "bob"]);
    assert!(
        gcg.ends_with(">bob: OX - +0 20\n>bob: OX (OX) -9 11\n>ann: ACT (ACT) -5 5\n"),
        "{gcg}"
    );
}

#[test]
fn unseen_tiles_and_hidden_racks() {
    let lex = Lexicon::embedded();
    let g = game_at(
        &lex,
        "15/15/15/15/15/15/15/4CARE7/15/15/15/15/15/15/15 AEINRS?/ 12/0 0 lex ENABLE;",
    );
    // 100 tiles less CARE and the rack shown: the opponent's hidden rack
    // was dealt from them.
    assert_eq!(g.unseen(0).len(), 100 - 4 - 7);
    assert_eq!((g.bag_len(), g.rack(1).len()), (100 - 4 - 7 - 7, 7));
    // Written back, the hidden rack is empty again.
    assert_eq!(
        g.to_cgp(),
        "15/15/15/15/15/15/15/4CARE7/15/15/15/15/15/15/15 AEINRS?/ 12/0 0 lex ENABLE;"
    );
    conserved(&g);
    let mut g = g;
    let played = g.play(&parse(&g, "H1 ANSERIn(E)")).unwrap();
    assert_eq!(played.mv.score(), 74);
    let cgp = g.to_cgp();
    let fields: Vec<&str> = cgp.split(' ').collect();
    // The opponent (unknown) moves next; the mover drew seven.
    assert!(fields[1].starts_with('/') && fields[1].len() == 8, "{cgp}");
    assert_eq!(fields[2], "0/86");
}

#[test]
fn self_played_records_read_back_clean() {
    let lex = Lexicon::embedded();
    let tiles = TileSet::named("english", lex.alphabet()).unwrap();
    let mut generator = Generator::new();
    let rules = &*common::brute::ENABLE_RULES;
    for (seed, rule) in [
        (4, ChallengeRule::Single),
        (5, ChallengeRule::Bonus(5)),
        (6, ChallengeRule::Double),
    ] {
        let mut g = Game::new(&lex, Layout::standard(), tiles.clone(), 2, seed)
            .unwrap()
            .with_rules(Rules {
                challenge: rule,
                ..Rules::default()
            })
            .with_opcodes(vec![lexq::game::Opcode {
                name: "lex".into(),
                args: "ENABLE".into(),
            }]);
        let mut turn = 0;
        let mut phonies = 0;
        while !g.is_over() {
            let mv = greedy(&mut generator, &g);
            turn += 1;
            // Every third turn, a phony: the best play with its first new
            // tile changed for one it leaves, when that forms a non-word.
            if turn % 3 == 0 && mv.kind() == lexq::game::MoveKind::Place {
                let mut sq = mv.squares().to_vec();
                let i = sq
                    .iter()
                    .position(|&t| t & lexq::game::THROUGH == 0)
                    .unwrap();
                let rack = *g.rack(g.to_move());
                let alt = mv
                    .leave(&rack)
                    .codes()
                    .into_iter()
                    .find(|&t| t != 0 && t != sq[i] & 63);
                if let Some(t) = alt {
                    sq[i] = t;
                    let m = Move::place(mv.row(), mv.col(), mv.across(), &sq);
                    if let Ok(p) = g.play(&m) {
                        if !p.phonies.is_empty() {
                            phonies += 1;
                            assert_eq!(g.challenge().unwrap(), Challenge::Withdrawn);
                        } else {
                            let _ = g.challenge().unwrap();
                        }
                        continue;
                    }
                }
            }
            g.play(&mv).unwrap();
            if turn % 7 == 0 && g.can_challenge() {
                // A valid play challenged.
                g.challenge().unwrap();
            }
        }
        assert!(phonies > 0, "seed {seed}");
        let text = g.to_gcg(&["ann", "bob"]);
        let parsed = lexq::game::gcg::Game::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let (layout, tiles) = lexq::game::replay::game_setup(&parsed, &lex).unwrap();
        let r = lexq::game::replay::replay(&parsed, &lex, layout, tiles, None).unwrap();
        assert_eq!(r.problems, vec![], "{text}");
        assert_eq!(r.scores[..], g.scores()[..], "{text}");
        assert_eq!(r.board.to_cgp_rows(), g.board().to_cgp_rows());
        let ours = common::replay::replay(rules, &parsed, 15, None);
        assert_eq!(ours.problems, vec![], "{text}");
        assert_eq!(ours.scores[..], g.scores()[..]);
    }
}

#[test]
fn a_play_scoring_zero_is_not_a_scoreless_turn() {
    let lex = Lexicon::embedded();
    // Five scoreless turns, then AB of two blanks on the star: 0 points.
    let cgp = format!("{EMPTY} ??AEINR/DEILORT 0/0 5");
    let mut g = game_at(&lex, &cgp);
    let played = g.play(&parse(&g, "8G ab")).unwrap();
    assert_eq!(played.mv.score(), 0);
    assert!(
        !g.is_over(),
        "the tournament rule: tiles placed reset the count"
    );
    assert_eq!(g.zeros(), 0);
    // Undone, the count is back at five.
    assert!(g.undo());
    assert_eq!(g.zeros(), 5);
    // The literal reading, as a setting: the sixth scoreless turn ends
    // the game, each player losing their rack.
    let mut g = game_at(&lex, &cgp).with_rules(Rules {
        zero_play_scoreless: true,
        ..Rules::default()
    });
    g.play(&parse(&g, "8G ab")).unwrap();
    assert!(g.is_over());
    assert_eq!(g.zeros(), 6);
    // A pass still counts.
    let mut g = game_at(&lex, &cgp);
    g.play(&Move::pass()).unwrap();
    assert!(g.is_over());
}
