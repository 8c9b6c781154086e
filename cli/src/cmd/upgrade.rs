//! `lexq upgrade OLD -o OUT`: the version 4 file of OLD's words.

use std::io::{self, IsTerminal};

use crate::exit::{FOUND, Failure};
use crate::print::Printer;
use crate::{interrupt, progress};

/// Arguments of `lexq upgrade`.
#[derive(clap::Args, Debug)]
pub struct UpgradeArgs {
    /// The lexicon file to read.
    #[arg(value_name = "OLD")]
    pub input: std::path::PathBuf,
    /// The version 4 file to write (replaced atomically).
    #[arg(long, short = 'o', value_name = "OUT")]
    pub output: std::path::PathBuf,
}

/// `lexq upgrade`.
pub fn run(args: &UpgradeArgs) -> Result<u8, Failure> {
    interrupt::on_interrupt(lexq::files::remove_temp_files);
    let terminal = io::stderr().is_terminal();
    let mut bar = progress::Bar::new(terminal);
    let (built, old) = lexq::upgrade(&args.input, &mut bar)?;
    built.write_atomic(&args.output)?;
    bar.finish();
    let mut out = Printer::stdout();
    out.line(&format!(
        "{}: version {old} -> {}: version {}, {} words, {} bytes",
        args.input.display(),
        args.output.display(),
        lexq::raw::format::VERSION,
        built.words,
        built.bytes.len()
    ))?;
    out.flush()?;
    Ok(FOUND)
}
