//! What a search needs of a [`Game`] beyond playing it: the bag, the
//! generator told the bag's size, the equity bot's move, and chosen racks
//! and draws (a simulation's random opponent rack, an inference's
//! candidate). [`crate::game::sim`] and [`crate::game::endgame`] use
//! only these and the public methods of [`Game`].
//!
//! ```
//! use lexq::game::{Game, Generator, Layout, Rack, TopN};
//! use lexq::{Lexicon, TileSet};
//! # fn lexicon() -> Lexicon { Lexicon::embedded() }
//! // Any lexicon: `Lexicon::open(path)` without the embedded feature.
//! let lex = lexicon();
//! let tiles = TileSet::named("english", lex.alphabet())?;
//! let mut game = Game::new(&lex, Layout::standard(), tiles, 2, 7)?;
//! // Player 1 holds AEINRST; the rest is in the bag, shuffled again.
//! game.set_rack(1, &Rack::parse("AEINRST", lex.alphabet())?)?;
//! game.shuffle_bag(42);
//! assert_eq!(game.rack(1).to_string(lex.alphabet()), "AEINRST");
//! let mut generator = Generator::new().exchanges(true);
//! // The generator is told the bag's size by the game.
//! let mut top = TopN::new(3);
//! game.generate(&mut generator, &mut top);
//! let best = game.best_move(&mut generator);
//! assert_eq!(Some(best.mv), top.into_sorted().first().copied());
//! // Play a line and take it back.
//! game.apply(&best.mv)?;
//! let reply = game.best_move(&mut generator);
//! game.apply(&reply.mv)?;
//! assert!(game.undo() && game.undo() && !game.undo());
//! # Ok::<(), lexq::game::Error>(())
//! ```

use super::{Game, illegal};
use crate::game::error::Result;
use crate::game::movegen::{Best, Generator, Recorder, Valued};
use crate::game::moves::Move;
use crate::game::rack::Rack;
use crate::game::rng::SplitMix;

impl Game<'_> {
    /// The tiles in the bag (codes, 0 for a blank), drawn from the end.
    pub fn bag(&self) -> &[u8] {
        &self.bag
    }

    /// Every move of the player to move, to `rec`, from `generator` told
    /// the bag's size first (so that exchanges are listed only when the
    /// bag allows them, and equity takes its end-game form when the bag
    /// is empty).
    pub fn generate(&self, generator: &mut Generator, rec: &mut impl Recorder) {
        generator.set_bag(Some(self.bag.len()));
        generator.generate(&self.board, &self.racks[self.to_move], rec);
    }

    /// The equity bot's move for the player to move: `generator`'s best
    /// (see [`Game::generate`]); with no move listed, the whole rack
    /// exchanged when the rules allow it, else a pass.
    pub fn best_move(&self, generator: &mut Generator) -> Valued {
        let mut best = Best::default();
        self.generate(generator, &mut best);
        if let Some(v) = best.valued() {
            return v;
        }
        let rack = self.racks[self.to_move];
        let mv = if self.bag.len() >= self.rules.exchange_limit.max(1) && !rack.is_empty() {
            Move::exchange(&rack.codes())
        } else {
            Move::pass()
        };
        Valued {
            mv,
            equity: generator.equity(&self.board, &rack, &mv),
        }
    }

    /// Shuffles the bag again from `seed` (a simulation's fresh draw):
    /// the same tiles and seed give the same order, whatever the order
    /// before. Not an action: [`Game::undo`] does not take it back, and
    /// moves undone after it draw from the new order.
    pub fn shuffle_bag(&mut self, seed: u64) {
        self.bag.sort_unstable();
        let mut rng = SplitMix::new(seed);
        for i in (1..self.bag.len()).rev() {
            let j = rng.below(i + 1);
            self.bag.swap(i, j);
        }
    }

    /// Gives `player` exactly `rack`: their tiles go back into the bag,
    /// then `rack`'s are taken out of it (the bag's order otherwise
    /// kept). An error, with nothing changed, if the bag and the rack
    /// together lack a tile, the rack is over the rack size, or the game
    /// is over. Not an action: turns played before it can no longer be
    /// undone (their draws are gone), so [`Game::undo`] stops there.
    pub fn set_rack(&mut self, player: usize, rack: &Rack) -> Result<()> {
        self.check_dealable(player)?;
        let mut pool = Rack::from_codes(&self.bag);
        for code in self.racks[player].codes() {
            pool.add(code);
        }
        if rack.len() > self.board.tile_set().rack_size() {
            return Err(illegal(format!(
                "a rack of {} tiles is over the rack size",
                rack.len()
            ))
            .into());
        }
        for (code, &k) in rack.counts().iter().enumerate() {
            if pool.count(code as u8) < k as usize {
                return Err(self.missing(code as u8).into());
            }
        }
        let old = std::mem::take(&mut self.racks[player]);
        self.bag.extend(old.codes());
        self.take_from_bag(player, rack);
        Ok(())
    }

    /// Deals `tiles` (codes, 0 for a blank) from the bag onto `player`'s
    /// rack: a chosen draw. An error, with nothing changed, if the bag
    /// lacks one, the rack would be over the rack size, or the game is
    /// over. Like [`Game::set_rack`], not an action.
    pub fn deal(&mut self, player: usize, tiles: &[u8]) -> Result<()> {
        self.check_dealable(player)?;
        let want = Rack::from_codes(tiles);
        if self.racks[player].len() + want.len() > self.board.tile_set().rack_size() {
            return Err(illegal("the rack would be over the rack size").into());
        }
        let pool = Rack::from_codes(&self.bag);
        for (code, &k) in want.counts().iter().enumerate() {
            if pool.count(code as u8) < k as usize {
                return Err(self.missing(code as u8).into());
            }
        }
        self.take_from_bag(player, &want);
        Ok(())
    }

    fn check_dealable(&self, player: usize) -> Result<()> {
        if self.over {
            return Err(illegal("the game is over").into());
        }
        if player >= self.racks.len() {
            return Err(illegal(format!("no player {player}")).into());
        }
        Ok(())
    }

    fn missing(&self, code: u8) -> crate::game::position_error::PositionError {
        let mut s = String::new();
        crate::game::rack::push_tile(&mut s, self.board.alphabet(), code, true);
        illegal(format!("no {s} left to deal"))
    }

    /// Moves `want` (all in the bag) from the bag to `player`'s rack,
    /// keeping the order of the rest, and sets the undo floor.
    fn take_from_bag(&mut self, player: usize, want: &Rack) {
        let mut left = *want;
        self.bag.retain(|&t| !left.remove(t));
        for code in want.codes() {
            self.racks[player].add(code);
        }
        self.hidden[player] = false;
        self.floor = self.turns.len();
        // Nor may a challenge before it be taken back.
        self.valid_challenges.clear();
        self.challengeable = false;
    }
}
