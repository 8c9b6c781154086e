//! `lexq words`: every word of the lexicon in the lengths asked, streamed
//! until the reader of stdout goes away.

use std::ops::ControlFlow;

use crate::exit::Failure;
use crate::exit::status;
use crate::lexicon::Choice;
use crate::print::{self, Printer};

/// Arguments of `lexq words`.
#[derive(clap::Args, Debug)]
pub struct WordsArgs {
    #[command(flatten)]
    pub lens: crate::flags::Lengths,
}

/// `lexq words`.
pub fn run(lexicon: Option<&Choice>, args: &WordsArgs) -> Result<u8, Failure> {
    let lex = crate::lexicon::open(lexicon)?;
    let (min, max) = args.lens.range()?;
    let mut out = Printer::stdout();
    let mut failed = None;
    let mut any = false;
    let mut text = String::with_capacity(64);
    lex.for_each_word(min, max, |codes| {
        any = true;
        text.clear();
        lex.alphabet().decode_into(codes, &mut text);
        text.push('\n');
        if let Err(e) = out.raw(text.as_bytes()) {
            failed = Some(e);
            return ControlFlow::Break(());
        }
        if print::closed() {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    });
    if let Some(e) = failed {
        return Err(e.into());
    }
    out.flush()?;
    Ok(status(any))
}
