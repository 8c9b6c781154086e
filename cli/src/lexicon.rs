//! The lexicon a command line chooses, resolved here for every command:
//! `-L PATH` (or `LEXQ_LEXICON=PATH`) a lexicon file, `-L enable` (or
//! any other name of it, any case: `enable`, `enable1`, `enable2k`,
//! `enable1.txt`) the built-in ENABLE, nothing the built-in ENABLE too.
//! An existing file always wins over a name of the built-in lexicon:
//! `-L enable1.txt` opens the file `enable1.txt` if there is one.

use std::path::{Path, PathBuf};

use lexq::Lexicon;
use lexq::files::FilePolicy;

use crate::exit::Failure;

/// What `-L` names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// The built-in ENABLE.
    Builtin,
    /// A lexicon file.
    File(PathBuf),
}

/// Whether `name` stands for the built-in ENABLE wherever the command
/// line takes a lexicon (`-L`, a CGP `lex`, a GCG `#lexicon`): one of its
/// names (`enable`, `enable1`, `enable1.txt`, `enable2k`, any case) and no
/// file of that name, which would win.
pub fn names_builtin(name: &str) -> bool {
    FilePolicy::is_builtin_lexicon(name) && Path::new(name).symlink_metadata().is_err()
}

impl Choice {
    /// Reads `-L`'s value (clap's value parser), or any other place a
    /// lexicon file is named (`lexq diff OLD NEW`): a path that exists,
    /// else a name of the built-in lexicon, else a path (to fail opening).
    pub fn parse(text: &str) -> Result<Choice, String> {
        if text.is_empty() {
            return Err("an empty name: give a lexicon file or 'enable'".into());
        }
        Ok(if names_builtin(text) {
            Choice::Builtin
        } else {
            Choice::File(PathBuf::from(text))
        })
    }

    /// The file chosen, if any.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Choice::Builtin => None,
            Choice::File(p) => Some(p),
        }
    }

    /// The name a CGP `lex` opcode or a GCG `#lexicon` gives it:
    /// `ENABLE` or the file's path.
    pub fn cgp_name(&self) -> String {
        match self {
            Choice::Builtin => "ENABLE".to_string(),
            Choice::File(p) => p.display().to_string(),
        }
    }
}

/// The file `choice` names, if any (`None` for the built-in lexicon and
/// for no `-L`).
pub fn path(choice: Option<&Choice>) -> Option<&Path> {
    choice.and_then(Choice::path)
}

/// The lexicon chosen. A file is opened with its checksums checked, not
/// its structure (that costs far more than a query: `lexq verify` runs
/// it); no file can make a query panic. A file of an older format gets a
/// note on stderr: it is rebuilt in memory at each use.
pub fn open(choice: Option<&Choice>) -> Result<Lexicon, Failure> {
    let Some(path) = path(choice) else {
        return Ok(Lexicon::embedded());
    };
    let lex = crate::verified::open(path)?;
    if let Some(old) = lex.upgraded_from() {
        eprintln!(
            "lexq: note: {} is a format version {old} file, rebuilt in memory at each use; \
             `lexq upgrade {0} -o {0}` rewrites it",
            path.display()
        );
    }
    Ok(lex)
}

/// The lexicon chosen, a file read into memory and checked whole
/// ([`Lexicon::open_checked`]), so that nothing done to the file later
/// reaches it:
/// for what serves it or builds from it for a long time (`lexq serve`,
/// `lexq site build`).
pub fn open_checked(choice: Option<&Choice>) -> Result<Lexicon, Failure> {
    Ok(match path(choice) {
        Some(p) => Lexicon::open_checked(p)?,
        None => Lexicon::embedded(),
    })
}

#[cfg(test)]
mod tests {
    use super::Choice;

    #[test]
    fn names_of_the_builtin_and_paths() {
        for name in ["enable", "ENABLE", "Enable1", "enable2k"] {
            assert_eq!(Choice::parse(name), Ok(Choice::Builtin), "{name}");
        }
        for path in ["./enable", "enable.lexq", "dir/enable", "words.lexq"] {
            assert_eq!(Choice::parse(path), Ok(Choice::File(path.into())), "{path}");
        }
        assert!(Choice::parse("").is_err());
        assert_eq!(Choice::Builtin.cgp_name(), "ENABLE");
        assert_eq!(Choice::File("a/b.lexq".into()).cgp_name(), "a/b.lexq");
    }
}
