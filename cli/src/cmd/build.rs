//! `lexq build`: a lexicon file from word lists.

use std::io::{self, IsTerminal};

use crate::exit::{FOUND, Failure};
use crate::{interrupt, print, progress};

/// Arguments of `lexq build`.
#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    /// Word list files.
    #[arg(required_unless_present = "from_kwg", value_name = "WORDLIST")]
    pub inputs: Vec<std::path::PathBuf>,
    /// Also read the words of a wolges .kwg file (its tiles numbered in
    /// --alphabet's order, as wolges numbers them).
    #[arg(long, value_name = "FILE")]
    pub from_kwg: Option<std::path::PathBuf>,
    /// The lexicon file to write (replaced atomically).
    #[arg(long, short = 'o', value_name = "OUT")]
    pub output: std::path::PathBuf,
    /// english, spanish, catalan, polish, german, french, dutch, norwegian,
    /// swedish, slovene, italian, portuguese, or an alphabet file.
    #[arg(long, default_value = "english")]
    pub alphabet: String,
    /// Leave out words shorter than N tiles.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub min_len: usize,
    /// Leave out words longer than N tiles.
    #[arg(long, value_name = "N", default_value_t = lexq::raw::gaddag::MAX_WORD_LEN)]
    pub max_len: usize,
    /// Fail on any line that is not a word of the alphabet.
    #[arg(long)]
    pub strict: bool,
    /// Print the summary even when stderr is not a terminal.
    #[arg(long, short = 'v')]
    pub verbose: bool,
}

/// `lexq build`: the word lists read, the lexicon written atomically; the
/// lines skipped and (on a terminal, or with `-v`) a summary on stderr.
pub fn run(args: &BuildArgs) -> Result<u8, Failure> {
    interrupt::on_interrupt(lexq::files::remove_temp_files);
    let alphabet = lexq::Alphabet::named(&args.alphabet)?;
    let mut all_inputs = args.inputs.clone();
    all_inputs.extend(args.from_kwg.clone());
    lexq::files::check_output(&args.output, &all_inputs)?;
    let mut list = lexq::WordList::new(alphabet)
        .min_len(args.min_len)
        .max_len(args.max_len)
        .strict(args.strict);
    let terminal = io::stderr().is_terminal();
    let mut bar = progress::Bar::new(terminal);
    for input in &args.inputs {
        bar.reading(input);
        list.read_path(input)?;
    }
    if let Some(kwg) = &args.from_kwg {
        bar.reading(kwg);
        list.read_kwg_path(kwg)?;
    }
    if list.is_empty() {
        // Say why before failing: the rejected lines' reasons, and whether
        // the length limits left everything out.
        bar.finish();
        print::rejected(&list);
        if list.filtered() > 0 {
            return Err(format!(
                "no words left: --min-len {} / --max-len {} left out all {} words read",
                args.min_len,
                args.max_len,
                list.filtered()
            )
            .into());
        }
    }
    let built = lexq::build_file(&list, &args.output, &mut bar)?;
    bar.finish();
    print::rejected(&list);
    if terminal || args.verbose {
        print::build_summary(&args.output, &list, &built);
    }
    Ok(FOUND)
}
