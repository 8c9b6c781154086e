//! The endgame solver (`lexq::game::endgame`) against a plain exhaustive
//! minimax written here: every move of both players (and the pass) tried
//! on a clone of the game, to the end of the game, no pruning, no table,
//! no undo. Positions are the ends of self-played games, the bag empty and
//! a few tiles left on each rack, under two scoreless turns ending the
//! game (`mcnz 2`) and, on the smallest, the default six.

use std::time::Duration;

use lexq::game::{All, Game, Generator, Layout, Move, Position, endgame};
use lexq::{Lexicon, TileSet};

/// The final spread for the player to move with best play by both: every
/// line tried.
fn exhaustive(game: &Game<'_>, generator: &mut Generator) -> i32 {
    let me = game.to_move();
    if game.is_over() {
        return game.score(me) - game.score(1 - me);
    }
    let mut all = All::default();
    generator.generate(game.board(), game.rack(me), &mut all);
    all.moves.push(Move::pass());
    let mut best = i32::MIN;
    for mv in &all.moves {
        let mut next = game.clone();
        next.apply(mv).unwrap();
        // The other player's best, from their side.
        best = best.max(-exhaustive(&next, generator));
    }
    best
}

/// Endgames from self-play: each game played by score until the bag is
/// empty and at most `tiles` tiles are left on both racks together (and
/// the game not over), written as CGP with `extra` opcodes.
fn endgames(lex: &Lexicon, seeds: std::ops::Range<u64>, tiles: usize, extra: &str) -> Vec<String> {
    let set = TileSet::named("english", lex.alphabet()).unwrap();
    let mut generator = Generator::new();
    let mut out = Vec::new();
    for seed in seeds {
        let mut game = Game::new(lex, Layout::standard(), set.clone(), 2, seed).unwrap();
        while !game.is_over()
            && (game.bag_len() > 0 || game.rack(0).len() + game.rack(1).len() > tiles)
        {
            let mv = game.best_move(&mut generator).mv;
            game.apply(&mv).unwrap();
        }
        if game.is_over() || game.rack(game.to_move()).is_empty() {
            continue;
        }
        // Scoreless turns so far: none (a fresh count for the rule).
        let cgp = game.to_cgp();
        let mut fields: Vec<&str> = cgp.split(' ').collect();
        fields[3] = "0";
        out.push(
            format!("{} {extra}", fields.join(" "))
                .trim_end()
                .to_string(),
        );
    }
    out
}

#[test]
fn the_solver_equals_an_exhaustive_minimax_on_small_endgames() {
    let lex = Lexicon::embedded();
    let mut generator = Generator::new();
    let mut checked = 0;
    let mut nonzero = 0;
    for (cgp, _) in endgames(&lex, 1..100, 4, "mcnz 2;")
        .into_iter()
        .map(|c| (c, 2))
        .chain(endgames(&lex, 500..515, 2, "").into_iter().map(|c| (c, 6)))
    {
        let pos = Position::from_cgp(&lex, &cgp).unwrap();
        let game = Game::from_position(&pos, 1).unwrap();
        let want = exhaustive(&game, &mut generator);
        let mut solving = game.clone();
        let got = endgame::solve(&mut solving, None).unwrap();
        assert!(got.exact, "{cgp}");
        assert_eq!(got.spread, want, "{cgp}");
        // The game is given back as it was.
        assert_eq!(solving.to_cgp(), game.to_cgp());
        // The line is legal and ends the game with that spread.
        let me = game.to_move();
        let mut line = game.clone();
        for mv in &got.moves {
            line.play(mv).unwrap_or_else(|e| panic!("{cgp}: {e}"));
        }
        assert!(line.is_over(), "{cgp}: the line stops short");
        assert_eq!(line.score(me) - line.score(1 - me), want, "{cgp}");
        if want != game.score(me) - game.score(1 - me) {
            nonzero += 1;
        }
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} endgames");
    assert!(nonzero >= 20, "{nonzero}");
}

/// The opponent's rack is the unseen tiles, whether the CGP names it or
/// not; a bag with tiles in it is refused.
#[test]
fn the_opponents_rack_is_the_unseen_tiles() {
    let lex = Lexicon::embedded();
    for cgp in endgames(&lex, 1..30, 6, "mcnz 2;") {
        let pos = Position::from_cgp(&lex, &cgp).unwrap();
        let named = endgame::solve(&mut Game::from_position(&pos, 1).unwrap(), None).unwrap();
        // The same line without the opponent's rack.
        let fields: Vec<&str> = cgp.split(' ').collect();
        let mover = fields[1].split('/').next().unwrap();
        let mut hidden = fields.clone();
        let rack = format!("{mover}/");
        hidden[1] = &rack;
        let hidden = hidden.join(" ");
        let pos = Position::from_cgp(&lex, &hidden).unwrap();
        let unnamed = endgame::solve(&mut Game::from_position(&pos, 9).unwrap(), None).unwrap();
        assert_eq!(named.spread, unnamed.spread, "{cgp}");
    }
    let empty = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15";
    let pos = Position::from_cgp(&lex, &format!("{empty} AEINRST/ 0/0 0")).unwrap();
    let err = endgame::solve(&mut Game::from_position(&pos, 1).unwrap(), None).unwrap_err();
    assert!(err.to_string().contains("the bag holds 86 tiles"), "{err}");
}

/// A full endgame (seven tiles a side) under a time limit: an answer in
/// time, its line legal move by move.
#[test]
fn a_time_limit_gives_the_deepest_line_finished() {
    let lex = Lexicon::embedded();
    let cgp = endgames(&lex, 1..2, 14, "").pop().unwrap();
    let pos = Position::from_cgp(&lex, &cgp).unwrap();
    let mut game = Game::from_position(&pos, 1).unwrap();
    let got = endgame::solve(&mut game, Some(Duration::from_millis(200))).unwrap();
    assert!(got.depth >= 1 && !got.moves.is_empty(), "{got:?}");
    for mv in &got.moves {
        game.play(mv).unwrap();
    }
}
