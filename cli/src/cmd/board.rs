//! `lexq board`: a position (CGP) drawn as text, in colour on a terminal.

use std::io::{self, IsTerminal, Write};

use clap::Args;
use lexq::game::{Position, Rack};

use crate::exit::{FOUND, Failure};
use crate::game::{Lexicons, position};
use crate::lexicon::Choice;

/// Arguments of `lexq board`.
#[derive(Args, Debug)]
pub struct BoardArgs {
    /// The position as a CGP line.
    #[arg(long, value_name = "CGP")]
    pub cgp: String,
    /// Colours: auto (on a terminal, unless NO_COLOR is set), always, never.
    #[arg(long, value_name = "WHEN", value_enum, default_value_t = Color::Auto)]
    pub color: Color,
}

/// When `lexq board` paints in colour.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Color {
    /// On a terminal, unless NO_COLOR is set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// `lexq board`.
pub fn run(lexicon: Option<&Choice>, args: &BoardArgs) -> Result<u8, Failure> {
    let mut lexicons = Lexicons::new(lexicon)?;
    let lex = lexicons.for_cgp(&args.cgp)?;
    let pos = position(lex, &args.cgp)?;
    let colour = match args.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    let mut out = crate::print::stdout();
    write!(out, "{}", draw(&pos, colour))?;
    Ok(FOUND)
}

/// The board as text: column letters, row numbers, premium squares as
/// `3W 2W 3L 2L` (and `4W 4L`), `*` the start square, tiles as letters
/// (blanks lowercase); rack and scores below.
pub fn draw(pos: &Position<'_>, colour: bool) -> String {
    let b = &pos.board;
    let a = b.alphabet();
    let l = b.layout();
    let n = b.size();
    let paint = |s: &str, code: &str| {
        if colour {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    };
    let mut s = String::from("   ");
    for c in 0..n {
        s.push_str(&format!(" {} ", lexq::game::notation::column_name(c)));
    }
    s.push('\n');
    for r in 0..n {
        s.push_str(&format!("{:>2} ", r + 1));
        for c in 0..n {
            let t = b.tile(r, c);
            if t != 0 {
                let mut label = String::new();
                let txt = a.label(t & 63).unwrap_or("?");
                if t & lexq::game::BLANK != 0 {
                    label.push_str(&txt.to_lowercase());
                } else {
                    label.push_str(txt);
                }
                let cell = format!("{label:^3}");
                s.push_str(&paint(&cell, "1;30;43"));
                continue;
            }
            let (lm, wm) = (l.letter_mult(r, c), l.word_mult(r, c));
            let cell = if (r, c) == l.start() {
                paint(" * ", "35")
            } else if wm > 1 {
                paint(&format!("{wm}W "), if wm >= 3 { "31" } else { "35" })
            } else if lm > 1 {
                paint(&format!("{lm}L "), if lm >= 3 { "34" } else { "36" })
            } else {
                " . ".to_string()
            };
            s.push_str(&cell);
        }
        s.push('\n');
    }
    s.push('\n');
    for (i, (rack, score)) in pos.racks.iter().zip(&pos.scores).enumerate() {
        let who = if i == 0 { "to move" } else { "next" };
        let r = Rack::from_codes(rack).to_string(a);
        s.push_str(&format!(
            "player {} ({who}): {:>4}  rack {}\n",
            i + 1,
            score,
            if r.is_empty() { "-".to_string() } else { r }
        ));
    }
    if pos.zeros > 0 {
        s.push_str(&format!("scoreless turns: {}\n", pos.zeros));
    }
    s
}
