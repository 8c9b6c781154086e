//! `lexq find`: the conditions as command-line flags, read into a
//! [`lexq::find::Query`].
//!
//! Every condition is a flag named after it (`--ends ING`); `--not-`
//! before the name negates it (`--not-includes U`); a flag given twice is
//! two conditions that must both hold; `--any 'A --or B'` holds when one of
//! its alternatives does (each alternative is conditions written the same
//! way, all of which must hold). The flags are built from one table,
//! [`SPECS`], so that each condition has one name, one example and its
//! negation.

use clap::builder::ValueParser;
use clap::error::ErrorKind;
use clap::{Arg, ArgAction, ArgMatches, Command};
use lexq::find::{Condition, Query, Range, Term};

use crate::flags::WordOutput;

/// What a condition's flag takes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Takes {
    /// Nothing: `--inner-hooks`.
    Nothing,
    /// A value: `--ends ING`.
    Value(&'static str),
    /// A value or nothing: `--front-hook` or `--front-hook S`.
    Maybe(&'static str),
}

/// One condition of `lexq find`: its flag, what it takes, its help and an
/// example.
struct Spec {
    name: &'static str,
    takes: Takes,
    help: &'static str,
    example: &'static str,
}

/// Every condition, in the order `--help` lists them.
const SPECS: &[Spec] = &[
    Spec {
        name: "pattern",
        takes: Takes::Value("PATTERN"),
        help: "Matches a pattern: ? one letter, * any run, [ABC], [^ABC], [A-E]",
        example: "--pattern 'c?t*'",
    },
    Spec {
        name: "regex",
        takes: Takes::Value("REGEX"),
        help: "Matches a regular expression (whole word, any case)",
        example: "--regex '.*q[^u].*'",
    },
    Spec {
        name: "contains",
        takes: Takes::Value("LETTERS"),
        help: "Holds these letters together",
        example: "--contains QU",
    },
    Spec {
        name: "starts",
        takes: Takes::Value("LETTERS"),
        help: "Starts with these letters",
        example: "--starts UN",
    },
    Spec {
        name: "ends",
        takes: Takes::Value("LETTERS"),
        help: "Ends with these letters",
        example: "--ends ING",
    },
    Spec {
        name: "anagram",
        takes: Takes::Value("RACK"),
        help: "Uses exactly the rack's tiles: ? or _ a blank, * any run of letters, \
               {AEIOU} one tile of a set, [CH] one named tile",
        example: "--anagram 'aeinst?'",
    },
    Spec {
        name: "subanagram",
        takes: Takes::Value("RACK"),
        help: "Uses some of the rack's tiles (at least 2, or 1 with --through); rack as --anagram",
        example: "--subanagram 'lx{au}'",
    },
    Spec {
        name: "length",
        takes: Takes::Value("RANGE"),
        help: "Has a number of tiles in RANGE (N, N-M, N-, N+, -M); --len, --min-len and --max-len also work",
        example: "--not-length 2-3",
    },
    Spec {
        name: "includes",
        takes: Takes::Value("LETTERS"),
        help: "Holds each letter, a letter given twice at least twice",
        example: "--includes Q --not-includes U",
    },
    Spec {
        name: "consists",
        takes: Takes::Value("LETTERS[:PERCENT]"),
        help: "At least PERCENT% (default 100) of its tiles are among LETTERS",
        example: "--consists AEIOU:60",
    },
    Spec {
        name: "vowels",
        takes: Takes::Value("RANGE"),
        help: "Has a number of vowels (A E I O U) in RANGE",
        example: "--vowels 0",
    },
    Spec {
        name: "distinct",
        takes: Takes::Value("RANGE"),
        help: "Has a number of different letters in RANGE",
        example: "--distinct 7 --len 7",
    },
    Spec {
        name: "points",
        takes: Takes::Value("RANGE"),
        help: "Is worth points in RANGE (tile values of --tiles; a letter counts even if a blank plays it)",
        example: "--points 20-",
    },
    Spec {
        name: "anagrams",
        takes: Takes::Value("RANGE"),
        help: "Has a number of anagrams in RANGE, itself included",
        example: "--anagrams 5- --len 6",
    },
    Spec {
        name: "front-hook",
        takes: Takes::Maybe("LETTERS"),
        help: "Takes a front hook (or each letter given)",
        example: "--front-hook S",
    },
    Spec {
        name: "back-hook",
        takes: Takes::Maybe("LETTERS"),
        help: "Takes a back hook (or each letter given)",
        example: "--not-back-hook",
    },
    Spec {
        name: "is-front-hook",
        takes: Takes::Nothing,
        help: "Is a front hook of another word: a word without its first letter (AGAZE)",
        example: "--is-front-hook",
    },
    Spec {
        name: "is-back-hook",
        takes: Takes::Nothing,
        help: "Is a back hook of another word: a word without its last letter (VIGA)",
        example: "--is-back-hook",
    },
    Spec {
        name: "inner-hooks",
        takes: Takes::Nothing,
        help: "Is a word without its first or its last letter (Zyzzyva's hook words)",
        example: "--inner-hooks",
    },
    Spec {
        name: "takes-prefix",
        takes: Takes::Value("LETTERS"),
        help: "Is still a word with these letters in front",
        example: "--takes-prefix RE",
    },
    Spec {
        name: "takes-suffix",
        takes: Takes::Value("LETTERS"),
        help: "Is still a word with these letters after it",
        example: "--takes-suffix S",
    },
    Spec {
        name: "in",
        takes: Takes::Value("FILE"),
        help: "Is in a word list (one word a line) or in another lexicon file",
        example: "--not-in old.txt",
    },
    Spec {
        name: "probability",
        takes: Takes::Value("RANGE"),
        help: "Has a probability rank in RANGE among the words of its length (ties share a rank)",
        example: "--probability 1-100 --len 7",
    },
    Spec {
        name: "any",
        takes: Takes::Value("CONDITIONS"),
        help: "Meets one of the alternatives, separated by --or, each conditions written as here",
        example: "--any '--ends ING --or --ends ED'",
    },
];

/// The arguments of `lexq find`.
#[derive(Clone, Debug)]
pub struct FindArgs {
    /// The conditions, in command-line order.
    pub terms: Vec<Term>,
    /// Print the plan instead of the words.
    pub explain: bool,
    /// Show the letters the rack's blanks stand for in lowercase.
    pub blanks: bool,
    /// The output options (their lengths are a condition too).
    pub out: WordOutput,
    /// The `--length` flags (not negated, not inside `--any`) as typed,
    /// with the shortest and longest length each keeps: with the output
    /// options' lengths, they must meet.
    pub lengths: Vec<(String, usize, usize)>,
}

/// The flag of each spec and of its negation (`not-NAME`), made once.
fn names() -> &'static [[&'static str; 2]] {
    static NAMES: std::sync::OnceLock<Vec<[&'static str; 2]>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        SPECS
            .iter()
            .map(|s| [s.name, &*format!("not-{}", s.name).leak()])
            .collect()
    })
}

/// Adds every condition flag and its negation to `cmd`.
fn with_conditions(mut cmd: Command) -> Command {
    for (spec, names) in SPECS.iter().zip(names()) {
        for negated in [false, true] {
            let id = names[negated as usize];
            let help = format!("{}. Example: {}", spec.help, spec.example);
            let mut arg = Arg::new(id)
                .long(id)
                .help_heading("Conditions (each also as --not-NAME)")
                .hide(negated);
            arg = match spec.takes {
                Takes::Nothing => arg.action(ArgAction::Count),
                Takes::Value(v) => arg
                    .action(ArgAction::Append)
                    .value_name(v)
                    .num_args(1)
                    .value_parser(ValueParser::string()),
                Takes::Maybe(v) => arg
                    .action(ArgAction::Append)
                    .value_name(v)
                    .num_args(0..=1)
                    .default_missing_value("")
                    .value_parser(ValueParser::string()),
            };
            if spec.name == "any" || spec.takes == Takes::Value("RANGE") {
                // Alternatives start with `--`; a range may be `-4`.
                arg = arg.allow_hyphen_values(true);
            }
            if !negated {
                arg = arg.help(help);
            }
            cmd = cmd.arg(arg);
        }
    }
    cmd.arg(
        Arg::new("through")
            .long("through")
            .short('t')
            .value_name("LETTERS")
            .help_heading("Conditions (each also as --not-NAME)")
            .help("Letters on the board that --anagram and --subanagram play through, as one block. Example: --anagram ret --through ain"),
    )
}

/// The terms of `m`, in command-line order (`depth` levels of `--any`
/// down).
fn terms_of(m: &ArgMatches, depth: usize) -> Result<Vec<Term>, clap::Error> {
    let fail = |msg: String| clap::Error::raw(ErrorKind::ValueValidation, msg);
    let through = m.get_one::<String>("through").cloned();
    let mut found: Vec<(usize, Term)> = Vec::new();
    let mut racks = 0;
    for (spec, names) in SPECS.iter().zip(names()) {
        for negated in [false, true] {
            let id = names[negated as usize];
            let flag = format!("--{id}");
            let Some(indices) = m.indices_of(id) else {
                continue;
            };
            let indices: Vec<usize> = indices.collect();
            let values: Vec<String> = match spec.takes {
                Takes::Nothing if m.get_count(id) == 0 => continue,
                Takes::Nothing => {
                    // A flag given several times is one condition.
                    let at = indices.first().copied().unwrap_or(0);
                    let c = condition(spec.name, "", &through, depth)
                        .map_err(|e| fail(format!("{flag}: {e}")))?;
                    found.push((
                        at,
                        Term {
                            negated,
                            condition: c,
                        },
                    ));
                    continue;
                }
                _ => m
                    .get_many::<String>(id)
                    .map(|v| v.cloned().collect())
                    .unwrap_or_default(),
            };
            for (k, value) in values.iter().enumerate() {
                let at = indices.get(k).copied().unwrap_or(usize::MAX);
                let c = condition(spec.name, value, &through, depth)
                    .map_err(|e| fail(format!("{flag} {value:?}: {e}")))?;
                if matches!(c, Condition::Anagram { .. } | Condition::Subanagram { .. }) {
                    racks += 1;
                }
                found.push((
                    at,
                    Term {
                        negated,
                        condition: c,
                    },
                ));
            }
        }
    }
    if through.is_some() && racks == 0 {
        return Err(fail(
            "--through goes with --anagram or --subanagram (the rack played through the letters)"
                .into(),
        ));
    }
    // Inside --any: --len, --min-len and --max-len.
    for (name, make) in [
        ("len", Range::exactly as fn(u32) -> Range),
        ("min-len", Range::at_least),
        ("max-len", Range::at_most),
    ] {
        let Ok(Some(values)) = m.try_get_many::<u32>(name) else {
            continue;
        };
        let at = m.index_of(name).unwrap_or(usize::MAX);
        for &n in values {
            found.push((at, Term::is(Condition::Length(make(n)))));
        }
    }
    found.sort_by_key(|&(at, _)| at);
    Ok(found.into_iter().map(|(_, t)| t).collect())
}

/// The condition of flag `name` with `value` (`any` read here, the rest
/// by the library's one reading).
fn condition(
    name: &str,
    value: &str,
    through: &Option<String>,
    depth: usize,
) -> Result<Condition, String> {
    match name {
        "any" => Ok(Condition::Any(alternatives(value, depth)?)),
        _ => Condition::from_flag(name, value, through.as_deref()),
    }
}

/// The alternatives of `--any`: shell words split at each `--or`, each
/// part read as conditions.
fn alternatives(text: &str, depth: usize) -> Result<Vec<Vec<Term>>, String> {
    if depth >= lexq::find::MAX_NESTING {
        return Err(format!(
            "alternatives nest more than {} deep",
            lexq::find::MAX_NESTING
        ));
    }
    let parts = lexq::find::split_alternatives(text).map_err(|e| match e {
        lexq::find::SplitError::EmptyAlternative => format!("{e} (write --any 'A --or B')"),
        e => e.to_string(),
    })?;
    let mut out = Vec::with_capacity(parts.len());
    for part in parts {
        let mut cmd = with_conditions(
            Command::new("--any")
                .no_binary_name(true)
                .disable_help_flag(true)
                .disable_version_flag(true),
        );
        // The length flags of the output options, as conditions here.
        for name in ["len", "min-len", "max-len"] {
            cmd = cmd.arg(
                Arg::new(name)
                    .long(name)
                    .value_name("N")
                    .action(ArgAction::Append)
                    .value_parser(clap::value_parser!(u32)),
            );
        }
        let m = cmd
            .try_get_matches_from(&part)
            .map_err(|e| crate::flags::clap_message(&e))?;
        out.push(terms_of(&m, depth + 1).map_err(|e| crate::flags::clap_message(&e))?);
    }
    Ok(out)
}

impl FindArgs {
    /// The query: the conditions, the lengths of the output options, the
    /// tile set of `--tiles`.
    pub fn query(&self, lex: &lexq::Lexicon) -> Result<Query, crate::exit::Failure> {
        let mut q = Query::new();
        let mut typed = self.out.lens.typed();
        typed.extend(self.lengths.iter().cloned());
        crate::flags::meet(&typed)?;
        let (min, max) = self.out.lens.range()?;
        if min > 0 || max < usize::MAX {
            let clamp = |n: usize| n.min(u32::MAX as usize) as u32;
            q.push(Term::is(Condition::Length(Range::between(
                clamp(min),
                clamp(max),
            ))));
        }
        for t in &self.terms {
            q.push(t.clone());
        }
        if let Some(name) = &self.out.tiles {
            q = q.tiles(lexq::TileSet::named(name, lex.alphabet())?);
        }
        if self.blanks {
            q = q.mark_blanks();
        }
        Ok(q)
    }
}

impl clap::FromArgMatches for FindArgs {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let terms = terms_of(m, 0)?;
        let blanks = m.get_flag("blanks");
        if blanks {
            let racks = terms
                .iter()
                .filter(|t| {
                    !t.negated
                        && matches!(
                            t.condition,
                            Condition::Anagram { .. } | Condition::Subanagram { .. }
                        )
                })
                .count();
            let why = match racks {
                1 => None,
                0 => Some(
                    "--blanks shows what a rack's blanks stand for: it needs --anagram or \
                     --subanagram (not negated, not inside --any)"
                        .to_string(),
                ),
                n => Some(format!(
                    "--blanks shows what one rack's blanks stand for, and this find has {n} \
                     racks (--anagram, --subanagram): keep one"
                )),
            };
            if let Some(why) = why {
                return Err(clap::Error::raw(ErrorKind::ArgumentConflict, why));
            }
        }
        let widen = |n: u32| {
            if n == u32::MAX {
                usize::MAX
            } else {
                n as usize
            }
        };
        let lengths = m
            .get_many::<String>("length")
            .into_iter()
            .flatten()
            .filter_map(|v| {
                let r = v.parse::<Range>().ok()?;
                Some((format!("--length {v}"), widen(r.min), widen(r.max)))
            })
            .collect();
        Ok(FindArgs {
            terms,
            lengths,
            explain: m.get_flag("explain"),
            blanks,
            out: WordOutput::from_arg_matches(m)?,
        })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = FindArgs::from_arg_matches(m)?;
        Ok(())
    }
}

impl clap::Args for FindArgs {
    fn augment_args(cmd: Command) -> Command {
        let cmd = with_conditions(cmd).arg(
            Arg::new("explain")
                .long("explain")
                .action(ArgAction::SetTrue)
                // It prints a plan, not words: the words' options would
                // be dropped without a word.
                .conflicts_with_all(["count", "json", "table", "limit", "blanks"])
                .help("Print the plan (what the walk starts from, bounds, tests) instead of the words"),
        )
        .arg(
            Arg::new("blanks")
                .long("blanks")
                .short('b')
                .action(ArgAction::SetTrue)
                .help("Show in lowercase the letters the rack's blanks stand for (the last places of a \
                       letter the rack lacks; set tiles and * too): needs one --anagram or --subanagram"),
        );
        <WordOutput as clap::Args>::augment_args(cmd)
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}
