//! `lexq hooks`: the front and back hooks of words.

use crate::exit::Failure;
use crate::exit::status;
use crate::lexicon::Choice;
use crate::print::Printer;

/// Arguments of `lexq hooks`.
#[derive(clap::Args, Debug)]
pub struct HooksArgs {
    /// Words (or any runs of letters) to hook; - reads more from standard input, one a line.
    #[arg(required = true)]
    pub words: Vec<String>,
    /// Print one JSON array of {"word", "front", "back", "valid"} objects.
    #[arg(long)]
    pub json: bool,
}

/// `lexq hooks`: exit 0 if some word takes a hook.
pub fn run(lexicon: Option<&Choice>, args: &HooksArgs) -> Result<u8, Failure> {
    let lex = crate::lexicon::open(lexicon)?;
    let words = super::check::with_stdin_words(&args.words)?;
    let hooks = words
        .iter()
        .map(|w| lex.hooks(w))
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = Printer::stdout();
    out.hooks(&hooks, args.json)?;
    out.flush()?;
    Ok(status(
        hooks
            .iter()
            .any(|h| !h.front.is_empty() || !h.back.is_empty()),
    ))
}
