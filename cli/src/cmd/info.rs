//! `lexq info`: facts about the lexicon.

use crate::args::InfoArgs;
use crate::lexicon::Choice;
use crate::print::Printer;
use crate::{FOUND, Failure};

/// `lexq info`.
pub fn run(lexicon: Option<&Choice>, args: &InfoArgs) -> Result<u8, Failure> {
    let lex = crate::lexicon::open(lexicon)?;
    let mut out = Printer::stdout();
    out.info(&lex.info(), args.json)?;
    out.flush()?;
    Ok(FOUND)
}
