//! `lexq play`: the position (CGP) after a move, challenged if asked.

use std::io::Write;

use clap::Args;
use lexq::game::{Challenge, ChallengeRule, Game, Rules};

use crate::exit::{FOUND, Failure};
use crate::game::{Lexicons, position};
use crate::lexicon::Choice;

/// Arguments of `lexq play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The position as a CGP line.
    #[arg(long, value_name = "CGP")]
    pub cgp: String,
    /// The move in GCG notation: `8D CA(R)E`, `D8 WORD`, `-ABC` (exchange), `-` (pass).
    #[arg(value_name = "MOVE", allow_hyphen_values = true, num_args = 1..)]
    pub mv: Vec<String>,
    /// Seed of the bag the new tiles are drawn from (the tiles the
    /// position does not show, shuffled).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// The next player challenges the play: a phony is withdrawn (the
    /// tiles back on the rack, the draw back in the bag, a scoreless
    /// turn); a valid play stands, and under the CGP's `cr` rule the
    /// challenger may lose the turn or the player gain a bonus. The
    /// verdict goes to stderr. A CGP without `cr` is played under
    /// `cr single` here, so that a phony can go down to be challenged;
    /// under `cr void` a phony is refused as without `--challenge`.
    #[arg(long)]
    pub challenge: bool,
}

/// `lexq play`.
pub fn run(lexicon: Option<&Choice>, args: &PlayArgs) -> Result<u8, Failure> {
    let mut lexicons = Lexicons::new(lexicon)?;
    let lex = lexicons.for_cgp(&args.cgp)?;
    let pos = position(lex, &args.cgp)?;
    let mut game = Game::from_position(&pos, args.seed)?;
    // Only a CGP without `cr` is played under single challenge; an
    // explicit `cr void` refuses a phony as without --challenge.
    if args.challenge && pos.opcode("cr").is_none() {
        let rules = Rules {
            challenge: ChallengeRule::Single,
            ..game.rules().clone()
        };
        game = game.with_rules(rules);
    }
    let text = args.mv.join(" ");
    let mv = pos.board.parse_move(&text)?;
    let played = game.play(&mv)?;
    if args.challenge {
        let what = played.mv.notation(pos.board.alphabet());
        let outcome = game.challenge()?;
        eprintln!("{}", verdict(&what, &outcome, &played.phonies));
    }
    let mut out = crate::print::stdout();
    writeln!(out, "{}", game.to_cgp())?;
    Ok(FOUND)
}

/// The challenge's verdict for the move `what` (in GCG notation), as a
/// line: `8D CAT: valid, the play stands`.
fn verdict(what: &str, outcome: &Challenge, phonies: &[String]) -> String {
    match outcome {
        Challenge::Withdrawn => format!("{what}: not a word: {}: withdrawn", phonies.join(", ")),
        Challenge::Valid => format!("{what}: valid, the play stands"),
        Challenge::TurnLost => format!("{what}: valid, the challenger loses the turn"),
        Challenge::Bonus(p) => format!("{what}: valid, {p} points to the player"),
        Challenge::ChallengerWins => format!(
            "{what}: not a word: {}: withdrawn, and the challenger wins (triple challenge)",
            phonies.join(", ")
        ),
        Challenge::ChallengerLoses => {
            format!("{what}: valid, the player wins (triple challenge)")
        }
    }
}
