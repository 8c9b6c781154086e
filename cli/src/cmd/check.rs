//! `lexq check`: the word judge, with the nearest words of an invalid one
//! (`--suggest`).

use std::io;

use lexq::Lexicon;

use crate::cmd::suggest;
use crate::exit::Failure;
use crate::exit::status;
use crate::lexicon::Choice;
use crate::print::Printer;

/// Arguments of `lexq check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Words to check; - reads more from standard input, one a line.
    #[arg(required = true)]
    pub words: Vec<String>,
    /// Print one JSON array of {"word", "valid"} objects.
    #[arg(long)]
    pub json: bool,
    /// After an invalid word, the nearest words (edit distance 1 or 2, up to 5).
    #[arg(long)]
    pub suggest: bool,
}

/// `lexq check`: exit 0 only if every word is valid.
pub fn run(lexicon: Option<&Choice>, args: &CheckArgs) -> Result<u8, Failure> {
    let lex = crate::lexicon::open(lexicon)?;
    let words = with_stdin_words(&args.words)?;
    // Each word is judged on its own: one that cannot be read as tiles is
    // invalid, with the reason, and the batch goes on.
    let results: Vec<_> = words
        .iter()
        .map(|w| (w.as_str(), lex.is_word(w).map_err(|e| e.to_string())))
        .collect();
    let near = match args.suggest {
        true => Some(nearest(&lex, &results)?),
        false => None,
    };
    let mut out = Printer::stdout();
    out.checks(lex.alphabet(), &results, args.json, near.as_deref())?;
    out.flush()?;
    Ok(status(results.iter().all(|r| r.1 == Ok(true))))
}

/// `--suggest`: the nearest words (edit distance 1 or 2, up to 5) of
/// each invalid word of `results`, nothing for the others.
pub fn nearest(
    lex: &Lexicon,
    results: &[(&str, Result<bool, String>)],
) -> Result<Vec<Vec<String>>, Failure> {
    results
        .iter()
        .map(|(w, r)| match r {
            Ok(false) => suggest::ranked(lex, w, 2, None)
                .map(|n| n.into_iter().take(5).map(|n| n.word).collect::<Vec<_>>()),
            _ => Ok(Vec::new()),
        })
        .collect()
}

/// The words to check (or hook), with each `-` replaced by the lines of
/// standard input (one word a line; blank lines skipped).
pub fn with_stdin_words(words: &[String]) -> Result<Vec<String>, Failure> {
    let mut all = Vec::with_capacity(words.len());
    for w in words {
        if w != "-" {
            all.push(w.clone());
            continue;
        }
        // As much as a word list may hold: an endless input is an error.
        let stdin = io::stdin().lock();
        let bytes = lexq::files::read_capped(
            stdin,
            "<stdin>".as_ref(),
            lexq::files::MAX_INPUT_BYTES,
            "a word list",
        )?;
        for line in bytes.split(|&b| b == b'\n') {
            let text = String::from_utf8_lossy(line);
            let text = text.trim();
            if !text.is_empty() {
                all.push(text.to_string());
            }
        }
    }
    Ok(all)
}
