//! [`FilePolicy`]: which files a position may name.

use std::path::{Path, PathBuf};

use crate::error::{Error, Named, NamedErrorKind, Result};

/// Which files a position (a CGP line) may name.
///
/// A CGP line names its board layout (`bdn`), tile set (`ld`) and lexicon
/// (`lex`), each by a built-in name or else by a path. When the line comes
/// from someone else (a request to a server, a file from the web), a path
/// is a way into the reader's file system: a FIFO blocks the reader for
/// ever, `/dev/zero` never ends, and an error about `/etc/passwd` read as a
/// layout ("31 squares in a row") tells what the file holds. So the caller
/// says what a position may open:
///
/// - [`FilePolicy::builtin_only`] (the default, and what
///   [`Position::from_cgp`](crate::game::Position::from_cgp) uses): built-in
///   names only, nothing is opened;
/// - [`FilePolicy::allow`]: built-in names, and regular files that are one
///   of the given files or inside one of the given folders; a name is
///   resolved (symlinks, `..`, relative to the working directory) before
///   it is compared, so no link or `..` leads out;
/// - [`FilePolicy::any_file`]: built-in names and any regular file (for a
///   program whose own user writes the names, as the `lexq` command does).
///
/// Whatever the policy, only regular files are read
/// ([`open_regular`](crate::files::open_regular)), within a size cap.
///
/// Under `builtin_only` and `allow`, no error tells anything about the
/// file system: a name that is missing, unreadable, not a regular file or
/// outside the allowed paths gets one message
/// ([`NamedErrorKind::NotAvailable`]), and an allowed file that does not
/// parse is "not a valid board layout file" ([`NamedErrorKind::Invalid`]),
/// with no line, column or content. Under `any_file` errors say what is
/// wrong where (the path, the line, what was found): whoever names the
/// file there can read it anyway.
///
/// ```
/// use lexq::{files::FilePolicy, game::Layout, Lexicon, game::Position};
/// let lex = Lexicon::embedded();
/// let empty = "5/5/5/5/5";
/// # let dir = tempfile::tempdir()?;
/// # let layouts = dir.path();
/// std::fs::write(layouts.join("tiny.txt"), "#...#\n.-.-.\n..*..\n.-.-.\n#...#\n")?;
/// let name = layouts.join("tiny.txt").display().to_string();
/// let line = format!("{empty} CAT/ 0/0 0 bdn {name};");
/// // By default a line names built-in layouts only.
/// let err = Position::from_cgp(&lex, &line).unwrap_err();
/// assert!(err.to_string().contains("files are not allowed here"), "{err}");
/// // A caller may allow a folder of layouts.
/// let policy = FilePolicy::allow([layouts])?;
/// let pos = Position::from_cgp_with(&lex, &line, &policy)?;
/// assert_eq!(pos.board.size(), 5);
/// // Nothing outside it: not /etc/passwd, not a way out by `..`.
/// let out = format!("{empty} CAT/ 0/0 0 bdn {name}/../../../../etc/passwd;");
/// let err = Position::from_cgp_with(&lex, &out, &policy).unwrap_err();
/// assert!(err.to_string().ends_with("nor a file allowed here"), "{err}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FilePolicy {
    rule: Rule,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
enum Rule {
    #[default]
    BuiltinOnly,
    /// Canonical paths of the allowed files and folders.
    Allow(Vec<PathBuf>),
    AnyFile,
}

/// The names of the built-in lexicon (the embedded ENABLE), lowercase.
const ENABLE_NAMES: &[&str] = &["enable", "enable1", "enable2k", "enable1.txt"];

impl FilePolicy {
    /// Built-in names only: a position opens no file (the default).
    pub fn builtin_only() -> FilePolicy {
        FilePolicy::default()
    }

    /// Built-in names and any regular file the process can read, with
    /// detailed errors: for programs whose own user writes the names.
    pub fn any_file() -> FilePolicy {
        FilePolicy {
            rule: Rule::AnyFile,
        }
    }

    /// Built-in names, and the regular files that are one of `paths` or
    /// inside one of them (files or folders). Each path must exist: it is
    /// resolved now (symlinks, `..`), and names are resolved the same way
    /// before they are compared, so a symlink inside an allowed folder
    /// that leads out of it is refused. Allow only folders that no one you
    /// do not trust can write to: a link put in place between the check
    /// and the open would be followed.
    pub fn allow<P: AsRef<Path>>(paths: impl IntoIterator<Item = P>) -> Result<FilePolicy> {
        let roots = paths
            .into_iter()
            .map(|p| {
                let p = p.as_ref();
                std::fs::canonicalize(p).map_err(|e| Error::io(p, e))
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(FilePolicy {
            rule: Rule::Allow(roots),
        })
    }

    /// Whether a position may name files at all.
    pub fn allows_files(&self) -> bool {
        !matches!(&self.rule, Rule::BuiltinOnly) && self.allowed().is_none_or(|r| !r.is_empty())
    }

    /// The allowed files and folders, resolved, under [`FilePolicy::allow`]
    /// (`None` for the other two policies).
    pub fn allowed(&self) -> Option<&[PathBuf]> {
        match &self.rule {
            Rule::Allow(roots) => Some(roots),
            _ => None,
        }
    }

    /// Whether errors may tell about files (under [`FilePolicy::any_file`]).
    pub(crate) fn detailed(&self) -> bool {
        matches!(self.rule, Rule::AnyFile)
    }

    /// The path to open for `name`, if the policy lets a position open it.
    pub(crate) fn permit(&self, name: &str) -> Option<PathBuf> {
        match &self.rule {
            Rule::BuiltinOnly => None,
            Rule::AnyFile => Some(PathBuf::from(name)),
            Rule::Allow(roots) => {
                if name.is_empty() {
                    return None;
                }
                let path = std::fs::canonicalize(name).ok()?;
                roots
                    .iter()
                    .any(|root| path.starts_with(root))
                    .then_some(path)
            }
        }
    }

    pub(crate) fn refused(&self, what: Named, name: &str) -> Error {
        Error::Named {
            what,
            name: name.to_string(),
            kind: NamedErrorKind::NotAvailable {
                files_allowed: self.allows_files(),
            },
        }
    }

    /// Reads and parses the file `name` (not a built-in name) for `what`,
    /// if the policy lets a position open it: `parse` gets the text. Files
    /// over `max` bytes are refused.
    pub(crate) fn load<T, E: From<Error>>(
        &self,
        what: Named,
        name: &str,
        max: u64,
        parse: impl FnOnce(&str) -> std::result::Result<T, E>,
    ) -> std::result::Result<T, E> {
        let file_kind = match what {
            Named::Layout => "a layout file",
            Named::TileSet => "a tile file",
            Named::Lexicon => "a lexicon file",
        };
        if self.detailed() {
            let path = Path::new(name);
            if !path.exists() {
                return Err(not_found(what, name).into());
            }
            let text = crate::files::capped::read_text(path, max, file_kind)?;
            return parse(&text);
        }
        let path = self.permit(name).ok_or_else(|| self.refused(what, name))?;
        let text = crate::files::capped::read_text(&path, max, file_kind)
            .map_err(|_| self.refused(what, name))?;
        parse(&text).map_err(|_| {
            Error::Named {
                what,
                name: name.to_string(),
                kind: NamedErrorKind::Invalid,
            }
            .into()
        })
    }

    /// Whether `name` names the built-in lexicon (`ENABLE`, `enable1`...).
    pub fn is_builtin_lexicon(name: &str) -> bool {
        ENABLE_NAMES.contains(&name.to_ascii_lowercase().as_str())
    }
}

/// The error of a name that is neither built in nor an existing path
/// (under [`FilePolicy::any_file`]).
pub(crate) fn not_found(what: Named, name: &str) -> Error {
    let (file, builtin) = match what {
        Named::Layout => ("layout", "layout"),
        Named::TileSet => ("tile", "tile set"),
        Named::Lexicon => ("lexicon", "lexicon"),
    };
    Error::io(
        name,
        std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!(
                "no such {file} file, nor a built-in {builtin} ({})",
                what.builtins()
            ),
        ),
    )
}
