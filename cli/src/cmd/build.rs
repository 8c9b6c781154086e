//! `lexq build`: a lexicon file from word lists.

use std::io::{self, IsTerminal};

use crate::args::BuildArgs;
use crate::{FOUND, Failure, interrupt, print, progress};

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
