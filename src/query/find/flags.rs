//! The conditions of `find` as flags: one table ([`FLAGS`]) of their
//! names, what each takes, its help and an example, and one reading of
//! them ([`condition`], [`terms`]), alternatives (`--any 'A --or B'`)
//! included. The command line derives its flags and `--help` from the
//! table, the server its query parameters; both read a condition's value,
//! and the words of an `--any`, here.
//!
//! A condition is written `--NAME VALUE` (or `--NAME=VALUE`); `--not-NAME`
//! negates it; `--len`, `--min-len` and `--max-len` are lengths; inside an
//! alternative, `--through LETTERS` is the board letters of its racks.

use std::path::PathBuf;

use super::conditions::{Condition, MAX_NESTING, Range, Term};
use super::words::split_alternatives;
use crate::error::SplitError;

/// What a condition's flag takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Takes {
    /// Nothing: `--inner-hooks`.
    Nothing,
    /// A value, named for help: `--ends ING`.
    Value(&'static str),
    /// A value or nothing: `--front-hook` or `--front-hook S`.
    Maybe(&'static str),
}

/// One condition of `find` as a flag.
#[derive(Clone, Copy, Debug)]
pub struct Flag {
    /// Its name, without `--` (`ends`, `front-hook`).
    pub name: &'static str,
    /// What it takes.
    pub takes: Takes,
    /// One line of help.
    pub help: &'static str,
    /// An example of its use.
    pub example: &'static str,
    /// The condition of a value (`None`: no value given).
    make: fn(&str, Option<&str>) -> Result<Condition, String>,
}

impl Flag {
    /// Whether its value names a file (`in`): a reader that takes flags
    /// from strangers refuses it.
    pub fn names_file(&self) -> bool {
        self.name == "in"
    }

    /// Whether its value may start with `-` (a range `-4`, alternatives
    /// `--ends S --or ...`).
    pub fn takes_hyphen_values(&self) -> bool {
        self.name == "any" || self.takes == Takes::Value("RANGE")
    }
}

fn range(v: &str) -> Result<Range, String> {
    v.parse::<Range>()
}

fn letters(v: Option<&str>) -> Option<String> {
    v.filter(|v| !v.trim().is_empty()).map(str::to_string)
}

fn consists(v: &str) -> Result<Condition, String> {
    let (letters, percent) = match v.rsplit_once(':') {
        Some((l, p)) => (
            l,
            p.trim()
                .trim_end_matches('%')
                .parse::<u8>()
                .ok()
                .filter(|&p| p <= 100)
                .ok_or_else(|| format!("{p:?} is not a percentage from 0 to 100"))?,
        ),
        None => (v, 100),
    };
    Ok(Condition::ConsistsOf {
        letters: letters.to_string(),
        percent,
    })
}

/// Every condition, in the order `lexq find --help` lists them.
pub const FLAGS: &[Flag] = &[
    Flag {
        name: "pattern",
        takes: Takes::Value("PATTERN"),
        help: "Matches a pattern: ? one letter, * any run, [ABC], [^ABC], [A-E]",
        example: "--pattern 'c?t*'",
        make: |v, _| Ok(Condition::Pattern(v.into())),
    },
    Flag {
        name: "regex",
        takes: Takes::Value("REGEX"),
        help: "Matches a regular expression (whole word, any case)",
        example: "--regex '.*q[^u].*'",
        make: |v, _| Ok(Condition::Regex(v.into())),
    },
    Flag {
        name: "contains",
        takes: Takes::Value("LETTERS"),
        help: "Holds these letters together",
        example: "--contains QU",
        make: |v, _| Ok(Condition::Contains(v.into())),
    },
    Flag {
        name: "starts",
        takes: Takes::Value("LETTERS"),
        help: "Starts with these letters",
        example: "--starts UN",
        make: |v, _| Ok(Condition::Starts(v.into())),
    },
    Flag {
        name: "ends",
        takes: Takes::Value("LETTERS"),
        help: "Ends with these letters",
        example: "--ends ING",
        make: |v, _| Ok(Condition::Ends(v.into())),
    },
    Flag {
        name: "anagram",
        takes: Takes::Value("RACK"),
        help: "Uses exactly the rack's tiles: ? or _ a blank, * any run of letters, \
               {AEIOU} one tile of a set, [CH] one named tile",
        example: "--anagram 'aeinst?'",
        make: |v, through| {
            Ok(Condition::Anagram {
                rack: v.into(),
                through: through.map(str::to_string),
            })
        },
    },
    Flag {
        name: "subanagram",
        takes: Takes::Value("RACK"),
        help: "Uses some of the rack's tiles (at least 2, or 1 with --through); rack as --anagram",
        example: "--subanagram 'lx{au}'",
        make: |v, through| {
            Ok(Condition::Subanagram {
                rack: v.into(),
                through: through.map(str::to_string),
            })
        },
    },
    Flag {
        name: "length",
        takes: Takes::Value("RANGE"),
        help: "Has a number of tiles in RANGE (N, N-M, N-, N+, -M); --len, --min-len and --max-len also work",
        example: "--not-length 2-3",
        make: |v, _| Ok(Condition::Length(range(v)?)),
    },
    Flag {
        name: "includes",
        takes: Takes::Value("LETTERS"),
        help: "Holds each letter, a letter given twice at least twice",
        example: "--includes Q --not-includes U",
        make: |v, _| Ok(Condition::Includes(v.into())),
    },
    Flag {
        name: "consists",
        takes: Takes::Value("LETTERS[:PERCENT]"),
        help: "At least PERCENT% (default 100) of its tiles are among LETTERS",
        example: "--consists AEIOU:60",
        make: |v, _| consists(v),
    },
    Flag {
        name: "vowels",
        takes: Takes::Value("RANGE"),
        help: "Has a number of vowels (A E I O U) in RANGE",
        example: "--vowels 0",
        make: |v, _| Ok(Condition::Vowels(range(v)?)),
    },
    Flag {
        name: "distinct",
        takes: Takes::Value("RANGE"),
        help: "Has a number of different letters in RANGE",
        example: "--distinct 7 --len 7",
        make: |v, _| Ok(Condition::Distinct(range(v)?)),
    },
    Flag {
        name: "points",
        takes: Takes::Value("RANGE"),
        help: "Is worth points in RANGE (tile values of --tiles; a letter counts even if a blank plays it)",
        example: "--points 20-",
        make: |v, _| Ok(Condition::Points(range(v)?)),
    },
    Flag {
        name: "anagrams",
        takes: Takes::Value("RANGE"),
        help: "Has a number of anagrams in RANGE, itself included",
        example: "--anagrams 5- --len 6",
        make: |v, _| Ok(Condition::Anagrams(range(v)?)),
    },
    Flag {
        name: "front-hook",
        takes: Takes::Maybe("LETTERS"),
        help: "Takes a front hook (or each letter given)",
        example: "--front-hook S",
        make: |v, _| Ok(Condition::FrontHook(letters(Some(v)))),
    },
    Flag {
        name: "back-hook",
        takes: Takes::Maybe("LETTERS"),
        help: "Takes a back hook (or each letter given)",
        example: "--not-back-hook",
        make: |v, _| Ok(Condition::BackHook(letters(Some(v)))),
    },
    Flag {
        name: "is-front-hook",
        takes: Takes::Nothing,
        help: "Is a front hook of another word: a word without its first letter (AGAZE)",
        example: "--is-front-hook",
        make: |_, _| Ok(Condition::IsFrontHook),
    },
    Flag {
        name: "is-back-hook",
        takes: Takes::Nothing,
        help: "Is a back hook of another word: a word without its last letter (VIGA)",
        example: "--is-back-hook",
        make: |_, _| Ok(Condition::IsBackHook),
    },
    Flag {
        name: "inner-hooks",
        takes: Takes::Nothing,
        help: "Is a word without its first or its last letter (Zyzzyva's hook words)",
        example: "--inner-hooks",
        make: |_, _| Ok(Condition::InnerHooks),
    },
    Flag {
        name: "takes-prefix",
        takes: Takes::Value("LETTERS"),
        help: "Is still a word with these letters in front",
        example: "--takes-prefix RE",
        make: |v, _| Ok(Condition::TakesPrefix(v.into())),
    },
    Flag {
        name: "takes-suffix",
        takes: Takes::Value("LETTERS"),
        help: "Is still a word with these letters after it",
        example: "--takes-suffix S",
        make: |v, _| Ok(Condition::TakesSuffix(v.into())),
    },
    Flag {
        name: "in",
        takes: Takes::Value("FILE"),
        help: "Is in a word list (one word a line) or in another lexicon file",
        example: "--not-in old.txt",
        make: |v, _| Ok(Condition::InFile(PathBuf::from(v))),
    },
    Flag {
        name: "probability",
        takes: Takes::Value("RANGE"),
        help: "Has a probability rank in RANGE among the words of its length (ties share a rank)",
        example: "--probability 1-100 --len 7",
        make: |v, _| Ok(Condition::Probability(range(v)?)),
    },
    Flag {
        name: "any",
        takes: Takes::Value("CONDITIONS"),
        help: "Meets one of the alternatives, separated by --or, each conditions written as here",
        example: "--any '--ends ING --or --ends ED'",
        // Read by `condition`, which knows how deep it is.
        make: |_, _| Err("alternatives are read with find::flags::condition".into()),
    },
];

/// A range made of one number.
pub type MakeRange = fn(u32) -> Range;

/// The length flags, each a number of tiles: `len` (exactly), `min-len`
/// (at least), `max-len` (at most), with the range each makes.
pub const LENGTHS: [(&str, MakeRange); 3] = [
    ("len", Range::exactly),
    ("min-len", Range::at_least),
    ("max-len", Range::at_most),
];

/// The range a length flag (`len`, `min-len`, `max-len`) makes of N.
pub fn length_flag(name: &str) -> Option<MakeRange> {
    LENGTHS.iter().find(|(n, _)| *n == name).map(|&(_, f)| f)
}

/// The condition's flag of `name` (without `--`), and whether it is
/// negated (`not-NAME`); `None` for a name that is no condition.
///
/// ```
/// use lexq::find::flags::flag;
/// let (f, negated) = flag("not-includes").unwrap();
/// assert_eq!((f.name, negated), ("includes", true));
/// assert!(flag("bogus").is_none());
/// ```
pub fn flag(name: &str) -> Option<(&'static Flag, bool)> {
    let (bare, negated) = match name.strip_prefix("not-") {
        Some(b) => (b, true),
        None => (name, false),
    };
    FLAGS.iter().find(|f| f.name == bare).map(|f| (f, negated))
}

/// How a reader takes flags: whether a condition may name a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Files {
    /// `--in FILE` is read (the command line).
    Allowed,
    /// `--in` is refused (the server: its requests come from strangers).
    Refused,
}

/// The condition of flag `name` (without `--` or `not-`) with `value` as
/// written (empty: none given); `through` is the board letters of the
/// rack conditions; `depth` how many `--any` it is inside. `any` reads
/// its alternatives ([`alternatives`]).
///
/// ```
/// use lexq::find::Condition;
/// use lexq::find::flags::{Files, condition};
/// assert_eq!(condition("vowels", "2-3", None, 0, Files::Allowed)?, Condition::Vowels("2-3".parse()?));
/// let any = condition("any", "--ends S --or --len 2", None, 0, Files::Allowed)?;
/// assert!(matches!(any, Condition::Any(alts) if alts.len() == 2));
/// assert!(condition("in", "/etc/passwd", None, 0, Files::Refused).is_err());
/// # Ok::<(), String>(())
/// ```
pub fn condition(
    name: &str,
    value: &str,
    through: Option<&str>,
    depth: usize,
    files: Files,
) -> Result<Condition, String> {
    let Some((f, _)) = flag(name) else {
        return Err(format!("no condition {name:?}"));
    };
    if f.names_file() && files == Files::Refused {
        return Err(refused(name));
    }
    match f.name {
        "any" => Ok(Condition::Any(alternatives(value, through, depth, files)?)),
        _ => (f.make)(value, through),
    }
}

fn refused(name: &str) -> String {
    format!("--{name} is refused here: a condition may not name a file")
}

/// The alternatives of `--any` (`depth` levels of `--any` down): the
/// words of `text` cut at each `--or`, each part read by [`terms`].
pub fn alternatives(
    text: &str,
    through: Option<&str>,
    depth: usize,
    files: Files,
) -> Result<Vec<Vec<Term>>, String> {
    if depth >= MAX_NESTING {
        return Err(format!("alternatives nest more than {MAX_NESTING} deep"));
    }
    let parts = split_alternatives(text).map_err(|e| match e {
        SplitError::EmptyAlternative => format!("{e} (write --any 'A --or B')"),
        e => e.to_string(),
    })?;
    parts
        .iter()
        .map(|part| terms(part, through, depth + 1, files))
        .collect()
}

/// The terms of words written as flags (`--ends ING --not-includes U
/// --len 7`), in order: each condition `--NAME VALUE` or `--NAME=VALUE`,
/// `--not-NAME` its negation, `--len`, `--min-len`, `--max-len` lengths,
/// and `--through LETTERS` the board letters of their racks (else
/// `through`, the letters of the text around them). `depth` is how many
/// `--any` they are inside.
///
/// ```
/// use lexq::find::flags::{Files, terms};
/// let words = ["--ends", "ing", "--not-includes=u", "--len", "7"].map(String::from);
/// let t = terms(&words, None, 0, Files::Allowed)?;
/// let shown: Vec<String> = t.iter().map(|t| t.to_string()).collect();
/// assert_eq!(shown, ["--ends ing", "--not-includes u", "--len 7"]);
/// # Ok::<(), String>(())
/// ```
pub fn terms(
    words: &[String],
    through: Option<&str>,
    depth: usize,
    files: Files,
) -> Result<Vec<Term>, String> {
    // `--through` first: it applies to every rack of these words.
    let mut own_through = None;
    let mut read: Vec<(&str, Option<&str>)> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let word = &words[i];
        i += 1;
        let Some(flag_text) = word.strip_prefix("--") else {
            return Err(format!(
                "unexpected argument '{word}' found (write --NAME VALUE)"
            ));
        };
        let (name, inline) = match flag_text.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (flag_text, None),
        };
        let takes = if name == "through" || length_flag(name).is_some() {
            Takes::Value("")
        } else {
            match flag(name) {
                Some((f, _)) => f.takes,
                None => return Err(unknown(name)),
            }
        };
        let value = match (takes, inline) {
            (Takes::Nothing, Some(_)) => {
                return Err(format!("--{name} takes no value"));
            }
            (Takes::Nothing, None) => None,
            (_, Some(v)) => Some(v),
            (Takes::Value(_), None) => {
                let v = words
                    .get(i)
                    .ok_or_else(|| format!("--{name} needs a value"))?;
                i += 1;
                Some(v.as_str())
            }
            (Takes::Maybe(_), None) => match words.get(i) {
                Some(v) if !v.starts_with('-') => {
                    i += 1;
                    Some(v.as_str())
                }
                _ => None,
            },
        };
        if name == "through" {
            own_through = value;
        } else {
            read.push((name, value));
        }
    }
    let through = own_through.or(through);
    let mut out = Vec::with_capacity(read.len());
    let mut racks = 0;
    for (name, value) in read {
        let v = value.unwrap_or("");
        if let Some(make) = length_flag(name) {
            let n = v
                .trim()
                .parse::<u32>()
                .map_err(|_| format!("--{name} {v:?} is not a number"))?;
            out.push(Term::is(Condition::Length(make(n))));
            continue;
        }
        let (f, negated) = flag(name).expect("a condition's name, checked above");
        let c = condition(f.name, v, through, depth, files).map_err(|e| match value {
            Some(v) => format!("--{name} {v:?}: {e}"),
            None => format!("--{name}: {e}"),
        })?;
        if matches!(c, Condition::Anagram { .. } | Condition::Subanagram { .. }) {
            racks += 1;
        }
        out.push(Term {
            negated,
            condition: c,
        });
    }
    if own_through.is_some() && racks == 0 {
        return Err(
            "--through goes with --anagram or --subanagram (the rack played through the letters)"
                .into(),
        );
    }
    Ok(out)
}

/// The error for `--name`, which is no flag here, with the nearest name
/// that is (one or two edits away), as clap says it.
fn unknown(name: &str) -> String {
    let mut names: Vec<String> = Vec::new();
    for f in FLAGS {
        names.push(f.name.to_string());
        names.push(format!("not-{}", f.name));
    }
    names.extend(LENGTHS.iter().map(|(n, _)| n.to_string()));
    names.push("through".into());
    let near = names
        .iter()
        .map(|n| (edits(name, n), n))
        .filter(|&(d, _)| d <= 2)
        .min();
    match near {
        Some((_, n)) => {
            format!("unexpected argument '--{name}' found; tip: a similar argument exists: '--{n}'")
        }
        None => format!("unexpected argument '--{name}' found"),
    }
}

/// The edit distance between `a` and `b` (insertions, deletions and
/// changes of a character, each 1).
fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = (prev + (ca != cb) as usize).min(row[j] + 1).min(here + 1);
            prev = here;
        }
    }
    row[b.len()]
}

impl Condition {
    /// The condition a flag of `lexq find` names, without its `--` or
    /// `not-` (`contains`, `vowels`, `front-hook`...), with its value as
    /// written (empty for a flag that takes none, or an optional value not
    /// given); `through` is the board letters of the rack conditions. The
    /// one reading of a condition's text, shared by the command line and
    /// the server (its names are [`FLAGS`]'s). `any`
    /// (alternatives: [`condition`] reads them) and names
    /// that are no condition are errors; `in` names a file, which
    /// callers that take names from strangers refuse before asking.
    ///
    /// ```
    /// use lexq::find::{Condition, Range};
    /// assert_eq!(Condition::from_flag("vowels", "2-3", None)?, Condition::Vowels("2-3".parse()?));
    /// assert_eq!(
    ///     Condition::from_flag("consists", "aeiou:60%", None)?,
    ///     Condition::ConsistsOf { letters: "aeiou".into(), percent: 60 }
    /// );
    /// assert_eq!(Condition::from_flag("front-hook", "", None)?, Condition::FrontHook(None));
    /// assert!(Condition::from_flag("consists", "ab:101", None).is_err());
    /// assert!(Condition::from_flag("nonsense", "x", None).is_err());
    /// # Ok::<(), String>(())
    /// ```
    pub fn from_flag(name: &str, value: &str, through: Option<&str>) -> Result<Condition, String> {
        match flag(name) {
            Some((f, false)) if f.name != "any" => {
                condition(name, value, through, 0, Files::Allowed)
            }
            _ => Err(format!("no condition {name:?}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_condition_but_any_reads_a_value() {
        for f in FLAGS {
            let c = condition(f.name, "3", None, 0, Files::Allowed);
            assert!(f.name == "any" || c.is_ok(), "{}: {c:?}", f.name);
        }
    }

    #[test]
    fn typos_get_the_nearest_name() {
        let words = ["--contain", "x"].map(String::from);
        assert_eq!(
            terms(&words, None, 0, Files::Allowed).unwrap_err(),
            "unexpected argument '--contain' found; tip: a similar argument exists: '--contains'"
        );
        assert_eq!(edits("kitten", "sitting"), 3);
    }

    #[test]
    fn files_are_refused_at_any_depth() {
        let err = condition("any", "--len 3 --or --not-in x", None, 0, Files::Refused).unwrap_err();
        assert!(err.contains("may not name a file"), "{err}");
    }

    #[test]
    fn through_inside_an_alternative() {
        let t = condition(
            "any",
            "--anagram ret --through ain --or --len 2",
            None,
            0,
            Files::Allowed,
        )
        .unwrap();
        assert_eq!(
            t,
            Condition::Any(vec![
                vec![Term::is(Condition::Anagram {
                    rack: "ret".into(),
                    through: Some("ain".into())
                })],
                vec![Term::is(Condition::Length(Range::exactly(2)))],
            ])
        );
        assert!(condition("any", "--len 2 --through ain", None, 0, Files::Allowed).is_err());
    }
}
