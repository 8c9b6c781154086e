//! `lexq verify`: everything in the lexicon file checked.

use crate::exit::{FOUND, Failure};
use crate::lexicon::Choice;
use crate::print::Printer;

/// `lexq verify`: `PATH: ok (N words, B bytes)`, or the error.
pub fn run(lexicon: Option<&Choice>) -> Result<u8, Failure> {
    let lex = crate::lexicon::open(lexicon)?;
    lex.verify()?;
    let mut out = Printer::stdout();
    out.line(&format!(
        "{}: ok ({} words, {} bytes)",
        lex.source().display(),
        lex.word_count(),
        lex.info().bytes
    ))?;
    out.flush()?;
    Ok(FOUND)
}
