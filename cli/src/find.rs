//! `lexq find`: the conditions as command-line flags, read into a
//! [`lexq::find::Query`].
//!
//! Every condition is a flag named after it (`--ends ING`); `--not-`
//! before the name negates it (`--not-includes U`); a flag given twice is
//! two conditions that must both hold; `--any 'A --or B'` holds when one of
//! its alternatives does (each alternative is conditions written the same
//! way, all of which must hold). The flags are built from the library's
//! one table, [`lexq::find::flags::FLAGS`], so that each condition has one
//! name, one example and its negation, here and in the server; the
//! library reads each value, and the alternatives of `--any`.

use clap::builder::ValueParser;
use clap::error::ErrorKind;
use clap::{Arg, ArgAction, ArgMatches, Command};
use lexq::find::flags::{FLAGS, Files, Takes};
use lexq::find::{Condition, Query, Range, Term};

use crate::flags::WordOutput;

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

/// The flag of each condition and of its negation (`not-NAME`), made once.
fn names() -> &'static [[&'static str; 2]] {
    static NAMES: std::sync::OnceLock<Vec<[&'static str; 2]>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        FLAGS
            .iter()
            .map(|f| [f.name, &*format!("not-{}", f.name).leak()])
            .collect()
    })
}

/// Adds every condition flag and its negation to `cmd`.
fn with_conditions(mut cmd: Command) -> Command {
    for (spec, names) in FLAGS.iter().zip(names()) {
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
            if spec.takes_hyphen_values() {
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

/// The terms of `m`, in command-line order.
fn terms_of(m: &ArgMatches) -> Result<Vec<Term>, clap::Error> {
    let fail = |msg: String| clap::Error::raw(ErrorKind::ValueValidation, msg);
    let through = m.get_one::<String>("through").cloned();
    let mut found: Vec<(usize, Term)> = Vec::new();
    let mut racks = 0;
    for (spec, names) in FLAGS.iter().zip(names()) {
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
                    let c = condition(spec.name, "", &through)
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
                let c = condition(spec.name, value, &through)
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
    found.sort_by_key(|&(at, _)| at);
    Ok(found.into_iter().map(|(_, t)| t).collect())
}

/// The condition of flag `name` with `value`, as the library reads it
/// (`--any`'s alternatives too).
fn condition(name: &str, value: &str, through: &Option<String>) -> Result<Condition, String> {
    lexq::find::flags::condition(name, value, through.as_deref(), 0, Files::Allowed)
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
        let terms = terms_of(m)?;
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
