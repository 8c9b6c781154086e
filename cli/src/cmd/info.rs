//! `lexq info`: facts about the lexicon.

use crate::exit::{FOUND, Failure};
use crate::lexicon::Choice;
use crate::print::Printer;

/// Arguments of `lexq info`.
#[derive(clap::Args, Debug)]
pub struct InfoArgs {
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// `lexq info`.
pub fn run(lexicon: Option<&Choice>, args: &InfoArgs) -> Result<u8, Failure> {
    let lex = crate::lexicon::open(lexicon)?;
    let mut out = Printer::stdout();
    out.info(&lex.info(), args.json)?;
    out.flush()?;
    Ok(FOUND)
}
