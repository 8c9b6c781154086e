//! `GET /api/v1/find?...` and `GET /api/v1/suggest/{w}`: `lexq find`'s
//! conditions as query parameters, and "did you mean", under the server's
//! bounds.
//!
//! Each parameter is a condition named as `lexq find`'s flag
//! (`ends=ING&len=7&front-hook=`), `not-` before a name negates it, a name
//! given twice is two conditions, and `any` holds alternatives written as
//! on the command line (`any=--starts RE --or --starts UN`): the names
//! are those of the library's one table, [`lexq::find::flags::FLAGS`],
//! and the library reads each value and the alternatives. No condition
//! may name a file (`in`, `not-in` are refused), and tile sets are the
//! built-in ones only.
//!
//! A find is priced by the planner's own estimate of its walk (the walk
//! planned on the estimate threads), runs under a step budget and the
//! request's deadline (both checked inside the walk), and lists at most
//! `limit` words of those it finds. Probability ranks are counted once per
//! tile set for the whole server. A suggestion is sought within at most two
//! edits of a word of at most [`MAX_SUGGEST_TILES`] tiles.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, OnceLock};

use lexq::find::flags::{FLAGS, Files, Takes, length_flag};
use lexq::find::{Budget, Condition, Halt, Query, Term};
use lexq::probability::{Bag, Ranks, order};
use lexq::{Lexicon, TileSet};
use serde::Serialize;

use super::{ApiError, Limits};
use crate::cost::Stop;

/// The most edits `suggest` searches.
pub const MAX_SUGGEST_DISTANCE: u8 = 2;

/// The longest word `suggest` takes, in tiles.
pub const MAX_SUGGEST_TILES: usize = 32;

/// The parameters that are not conditions.
const OUTPUT: &[&str] = &[
    "len", "min-len", "max-len", "through", "limit", "offset", "sort", "tiles", "table", "explain",
];

/// The order of the words listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sort {
    Alpha,
    Length,
    Probability,
    Points,
}

/// A find request read from its parameters: the query (no tile set or
/// ranks yet) and how to list its words.
#[derive(Clone, Debug)]
pub(crate) struct FindRequest {
    pub terms: Vec<Term>,
    pub tiles: Option<String>,
    pub limit: usize,
    pub offset: usize,
    pub sort: Sort,
    pub table: bool,
    pub explain: bool,
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError::bad(message)
}

/// A parameter's value checked for length (it may be empty).
fn value<'v>(limits: &Limits, name: &str, v: &'v str) -> Result<&'v str, ApiError> {
    if v.len() > limits.max_input {
        return Err(bad(format!(
            "{name} is {} bytes, at most {} are allowed",
            v.len(),
            limits.max_input
        )));
    }
    Ok(v)
}

fn number(name: &str, v: &str) -> Result<usize, ApiError> {
    v.trim()
        .parse::<usize>()
        .map_err(|_| bad(format!("{name} is {v:?}, not a number")))
}

fn flag(name: &str, v: &str) -> Result<bool, ApiError> {
    match v.trim() {
        "" | "true" | "1" | "yes" => Ok(true),
        "false" | "0" | "no" => Ok(false),
        _ => Err(bad(format!(
            "{name} is {v:?}: give it no value, true or false"
        ))),
    }
}

/// The condition `name` (not negated) with `value` (`None`: no value),
/// as the library reads it (`any`'s alternatives too), refusing any that
/// names a file.
fn condition(
    name: &str,
    value: Option<&str>,
    through: &Option<String>,
) -> Result<Condition, String> {
    lexq::find::flags::condition(
        name,
        value.unwrap_or(""),
        through.as_deref(),
        0,
        Files::Refused,
    )
}

fn refused_file(name: &str) -> String {
    format!("{name} is refused here: a request may not name a file on the server")
}

/// Reads a find request from its query parameters, in order.
pub(crate) fn parse(limits: &Limits, pairs: &[(String, String)]) -> Result<FindRequest, ApiError> {
    if pairs.len() > limits.max_conditions {
        return Err(bad(format!(
            "{} parameters, at most {} are allowed",
            pairs.len(),
            limits.max_conditions
        )));
    }
    let mut req = FindRequest {
        terms: Vec::new(),
        tiles: None,
        limit: limits.default_limit,
        offset: 0,
        sort: Sort::Alpha,
        table: false,
        explain: false,
    };
    let mut through = None;
    for (name, v) in pairs {
        if name == "through" {
            through = Some(value(limits, name, v)?.to_string());
        }
    }
    let mut racks = 0;
    for (name, v) in pairs {
        let name = name.as_str();
        let v = value(limits, name, v)?;
        if lexq::find::flags::flag(name).is_some_and(|(f, _)| f.names_file()) {
            return Err(bad(refused_file(name)));
        }
        if let Some(make) = length_flag(name) {
            // Lengths that exclude each other are the library's error
            // (see `lengths_message`).
            let n = number(name, v)?.min(u32::MAX as usize) as u32;
            req.terms.push(Term::is(Condition::Length(make(n))));
            continue;
        }
        match name {
            "through" => continue,
            "limit" => {
                req.limit = number(name, v)?;
                if req.limit > limits.max_limit {
                    return Err(bad(format!(
                        "limit is {}, at most {} is allowed",
                        req.limit, limits.max_limit
                    )));
                }
                continue;
            }
            "offset" => {
                req.offset = number(name, v)?;
                continue;
            }
            "sort" => {
                req.sort = match v.trim() {
                    "alpha" => Sort::Alpha,
                    "length" => Sort::Length,
                    "probability" => Sort::Probability,
                    "points" => Sort::Points,
                    other => {
                        return Err(bad(format!(
                            "sort is {other:?}, expected alpha, length, probability or points"
                        )));
                    }
                };
                continue;
            }
            "tiles" => {
                req.tiles = Some(v.trim().to_string());
                continue;
            }
            "table" => {
                req.table = flag(name, v)?;
                continue;
            }
            "explain" => {
                req.explain = flag(name, v)?;
                continue;
            }
            _ => {}
        }
        let Some((f, negated)) = lexq::find::flags::flag(name) else {
            return Err(bad(format!(
                "{name:?} is not a condition nor an option of find (conditions: {}; each also as not-NAME; options: {})",
                FLAGS
                    .iter()
                    .filter(|f| !f.names_file())
                    .map(|f| f.name)
                    .collect::<Vec<_>>()
                    .join(", "),
                OUTPUT.join(", ")
            )));
        };
        let given = match f.takes {
            Takes::Nothing => {
                if !flag(name, v)? {
                    continue;
                }
                None
            }
            Takes::Maybe(_) => Some(v),
            Takes::Value(_) => {
                if v.trim().is_empty() {
                    return Err(bad(format!("{name} needs a value")));
                }
                Some(v)
            }
        };
        let c =
            condition(f.name, given, &through).map_err(|e| bad(format!("{name}={v:?}: {e}")))?;
        if matches!(c, Condition::Anagram { .. } | Condition::Subanagram { .. }) {
            racks += 1;
        }
        req.terms.push(Term {
            negated,
            condition: c,
        });
    }
    if through.is_some() && racks == 0 {
        return Err(bad(
            "through goes with anagram or subanagram (the rack played through the letters)",
        ));
    }
    let n = matchers(&req.terms);
    if n > MAX_MATCHERS {
        return Err(bad(format!(
            "{n} patterns and regexes, at most {MAX_MATCHERS} are allowed in one find"
        )));
    }
    if req.terms.is_empty() {
        return Err(bad(
            "no condition given (find?ends=ING&len=7, find?includes=Q&not-includes=U...)",
        ));
    }
    Ok(req)
}

/// The most patterns and regexes one find may hold (alternatives
/// included): each is compiled to automata of up to a few megabytes.
pub const MAX_MATCHERS: usize = 4;

/// How many pattern and regex terms `terms` hold, alternatives included.
fn matchers(terms: &[Term]) -> usize {
    terms
        .iter()
        .map(|t| match &t.condition {
            Condition::Pattern(_) | Condition::Regex(_) => 1,
            Condition::Any(alts) => alts.iter().map(|a| matchers(a)).sum(),
            _ => 0,
        })
        .sum()
}

/// Whether any term (alternatives included) asks for probability ranks.
fn needs_ranks(terms: &[Term]) -> bool {
    terms.iter().any(|t| match &t.condition {
        Condition::Probability(_) => true,
        Condition::Any(alts) => alts.iter().any(|a| needs_ranks(a)),
        _ => false,
    })
}

/// Probability ranks of every word, counted once per tile set for the
/// whole server (on first use, by the request that needs them).
#[derive(Default)]
pub(crate) struct RankCache {
    sets: Mutex<HashMap<String, Arc<RanksOnce>>>,
}

/// One tile set's ranks, counted once (or why they cannot be).
type RanksOnce = OnceLock<Result<Arc<Ranks>, String>>;

impl RankCache {
    /// The ranks of every length with `tiles`, counted now if they were
    /// not yet.
    fn get(&self, lex: &Lexicon, tiles: &TileSet) -> Result<Arc<Ranks>, ApiError> {
        let cell = {
            let mut sets = self
                .sets
                .lock()
                .map_err(|_| ApiError::failed("the ranks' lock", "poisoned"))?;
            sets.entry(tiles.name().to_string()).or_default().clone()
        };
        cell.get_or_init(|| {
            Ranks::new(lex, &Bag::new(tiles), 1..=lex.max_word_len())
                .map(Arc::new)
                .map_err(|e| e.to_string())
        })
        .clone()
        .map_err(ApiError::bad)
    }
}

/// The tile set a request names (a built-in one), or the alphabet's
/// standard set; `None` if the alphabet has none and none was named.
fn tile_set(lex: &Lexicon, name: Option<&str>) -> Result<Option<TileSet>, ApiError> {
    match name {
        Some(n) => match TileSet::builtin(n, lex.alphabet()) {
            Some(Ok(t)) => Ok(Some(t)),
            Some(Err(e)) => Err(bad(format!("tiles={n:?}: {e}"))),
            None => Err(bad(format!(
                "tiles is {n:?}: a built-in set is expected (english, super, friends, spanish); \
                 a request may not name a file"
            ))),
        },
        None => Ok(TileSet::default_for(lex.alphabet(), 15).ok()),
    }
}

/// The query of a request: its terms, its tile set, and the server's
/// ranks when a term needs them.
pub(crate) fn query(
    lex: &Lexicon,
    ranks: &RankCache,
    req: &FindRequest,
) -> Result<(Query, Option<TileSet>), ApiError> {
    let mut q = Query::new();
    for t in &req.terms {
        q.push(t.clone());
    }
    let tiles = tile_set(lex, req.tiles.as_deref())?;
    if let Some(t) = &tiles {
        q = q.tiles(t.clone());
        if needs_ranks(&req.terms) {
            q = q.ranks(ranks.get(lex, t)?);
        }
    }
    Ok((q, tiles))
}

/// The planner's estimate of the request's walk, in steps (the query
/// compiled and planned; a query that does not compile is estimated at
/// 0: the handler answers its error).
pub(crate) fn estimate(lex: &Lexicon, ranks: &RankCache, req: &FindRequest) -> u64 {
    let Ok((q, _)) = query(lex, ranks, req) else {
        return 0;
    };
    lex.prepare_find(&q).map_or(0, |p| p.estimated_steps())
}

/// One word of a find's answer; the table's fields with `table`.
#[derive(Serialize, Debug)]
pub struct FoundWord {
    word: String,
    length: usize,
    points: i32,
    #[serde(skip_serializing_if = "Option::is_none")]
    front_hooks: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    back_hooks: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    inner_front: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    inner_back: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rank: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    probability: Option<f64>,
}

/// A find's answer.
#[derive(Serialize, Debug)]
pub struct FindResult {
    kind: &'static str,
    /// The conditions as the library reads them.
    conditions: Vec<String>,
    total: usize,
    offset: usize,
    limit: usize,
    /// Words per length over every word found (not only this page).
    lengths: BTreeMap<usize, usize>,
    words: Vec<FoundWord>,
    #[serde(skip_serializing_if = "Option::is_none")]
    plan: Option<String>,
}

/// The library's error for lengths that exclude each other
/// ([`lexq::find::FindErrorKind::Lengths`]) named as the request asked
/// for them: `min-len=9 and max-len=3 exclude each other`. Any other
/// error as it is.
fn lengths_message(q: &Query, e: lexq::Error) -> ApiError {
    if let lexq::Error::Find(f) = &e
        && let lexq::find::FindErrorKind::Lengths {
            longest_min: (a, _),
            shortest_max: (b, _),
        } = f.kind
    {
        // The request's lengths: len=N, min-len=N, max-len=N, length=N-M.
        let name = |i: usize| match q.terms().get(i).map(|t| &t.condition) {
            Some(Condition::Length(r)) if r.min == r.max => format!("len={}", r.min),
            Some(Condition::Length(r)) if r.max == u32::MAX => format!("min-len={}", r.min),
            Some(Condition::Length(r)) if r.min == 0 => format!("max-len={}", r.max),
            Some(Condition::Length(r)) => format!("length={r}"),
            _ => "a length".to_string(),
        };
        return bad(format!(
            "{} and {} exclude each other: no word has both lengths",
            name(a),
            name(b)
        ));
    }
    e.into()
}

/// Runs a find request within the server's step budget and `stop`.
pub(crate) fn run(
    lex: &Lexicon,
    cache: &RankCache,
    limits: &Limits,
    req: &FindRequest,
    stop: &Stop,
) -> Result<FindResult, ApiError> {
    let (q, tiles) = query(lex, cache, req)?;
    let prepared = lex.prepare_find(&q).map_err(|e| lengths_message(&q, e))?;
    let check = || stop.is_stopped();
    let found = prepared
        .run_within(&Budget::steps(limits.max_find_steps).stop(&check))
        .map_err(|h| match h {
            Halt::Steps { .. } => bad(h.to_string()),
            // Past its deadline, or the client went away.
            Halt::Stopped => ApiError::busy(),
        })?;
    let mut words: Vec<lexq::Word<'_>> = found.iter().collect();
    let mut lengths = BTreeMap::new();
    for w in &words {
        *lengths.entry(w.len()).or_insert(0) += 1;
    }
    let bag = tiles.as_ref().map(Bag::new);
    let wants_ranks = req.sort == Sort::Probability || req.table;
    let ranks = match (&tiles, wants_ranks) {
        (Some(t), true) => Some(cache.get(lex, t)?),
        (None, true) => {
            return Err(bad(format!(
                "the {} alphabet has no standard tile set: probability needs tiles=NAME",
                lex.alphabet().name()
            )));
        }
        _ => None,
    };
    let points = |codes: &[u8]| bag.as_ref().map_or(0, |b| b.points(codes));
    match req.sort {
        Sort::Alpha => {}
        Sort::Length => {
            words.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.codes().cmp(b.codes())))
        }
        Sort::Points => words.sort_by(|a, b| {
            points(b.codes())
                .cmp(&points(a.codes()))
                .then_with(|| a.codes().cmp(b.codes()))
        }),
        Sort::Probability => {
            let ranks = ranks.as_ref().expect("ranks for probability");
            let mut keyed: Vec<(u32, lexq::Word<'_>)> = words
                .iter()
                .map(|w| (ranks.rank(w.codes()).unwrap_or(u32::MAX), *w))
                .collect();
            keyed.sort_by(|(ra, a), (rb, b)| {
                ra.cmp(rb)
                    .then_with(|| a.len().cmp(&b.len()))
                    .then_with(|| order(a.codes(), b.codes()))
            });
            words = keyed.into_iter().map(|(_, w)| w).collect();
        }
    }
    let root = lex.arcs().root();
    let page = words
        .iter()
        .skip(req.offset)
        .take(req.limit)
        .map(|w| {
            let codes = w.codes();
            let mut out = FoundWord {
                word: w.to_string(),
                length: codes.len(),
                points: points(codes),
                front_hooks: None,
                back_hooks: None,
                inner_front: None,
                inner_back: None,
                rank: None,
                probability: None,
            };
            if req.table {
                let hooks = lex.hooks(&out.word)?;
                out.front_hooks = Some(hooks.front_letters());
                out.back_hooks = Some(hooks.back_letters());
                out.inner_front = Some(root.is_word(&codes[1..]));
                out.inner_back = Some(root.is_word(&codes[..codes.len() - 1]));
                out.rank = ranks.as_ref().and_then(|r| r.rank(codes));
                out.probability = bag.as_ref().and_then(|b| b.probability(codes));
            }
            Ok(out)
        })
        .collect::<Result<Vec<_>, ApiError>>()?;
    Ok(FindResult {
        kind: "find",
        conditions: req.terms.iter().map(ToString::to_string).collect(),
        total: words.len(),
        offset: req.offset,
        limit: req.limit,
        lengths,
        words: page,
        plan: req.explain.then(|| prepared.explain()),
    })
}

/// A word near the one asked about.
#[derive(Serialize, Debug)]
pub struct Near {
    word: String,
    distance: u8,
    /// None (null) for an alphabet without a standard tile set: not known,
    /// where 0 would say the bag cannot supply the word.
    probability: Option<f64>,
    /// How common the word is, when a site is served (see
    /// [`crate::frequency`]; 0: unknown); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    frequency: Option<u64>,
}

/// A suggest's answer.
#[derive(Serialize, Debug)]
pub struct SuggestResult {
    word: String,
    valid: bool,
    distance: u8,
    total: usize,
    limit: usize,
    suggestions: Vec<Near>,
}

/// The words within `distance` edits of `word` (itself left out), nearest
/// first, then most probable (the alphabet's standard bag), then in
/// alphabet order; at most `limit`.
impl SuggestResult {
    /// The words suggested, in their order.
    pub(crate) fn into_words(self) -> Vec<String> {
        self.suggestions.into_iter().map(|n| n.word).collect()
    }
}

/// The words within `distance` edits of `word`, nearest first; then, with
/// a site's `frequencies`, the most common first (a word of unknown
/// frequency after those known), else the most probable first.
pub(crate) fn suggest(
    lex: &Lexicon,
    frequencies: Option<&crate::frequency::FrequencyTable>,
    word: &str,
    distance: u8,
    limit: usize,
) -> Result<SuggestResult, ApiError> {
    let codes = lex.alphabet().encode(word)?;
    if codes.len() > MAX_SUGGEST_TILES {
        return Err(bad(format!(
            "the word has {} tiles, at most {MAX_SUGGEST_TILES} are taken",
            codes.len()
        )));
    }
    let found = lex.suggest(word, distance)?;
    let bag = TileSet::default_for(lex.alphabet(), 15)
        .ok()
        .map(|t| Bag::new(&t));
    let mut near: Vec<Near> = lexq::suggest::rank(found, bag.as_ref())
        .into_iter()
        .map(|(s, probability)| Near {
            word: lex.alphabet().decode(&s.codes),
            distance: s.distance,
            probability: bag.as_ref().map(|_| probability),
            frequency: None,
        })
        .collect();
    if let Some(table) = frequencies {
        for n in &mut near {
            n.frequency = Some(table.get(&n.word));
        }
        // Stable: among words of one distance and frequency (unknown,
        // most often), the most probable stay first.
        near.sort_by(|a, b| {
            a.distance
                .cmp(&b.distance)
                .then_with(|| b.frequency.cmp(&a.frequency))
        });
    }
    let total = near.len();
    near.truncate(limit);
    Ok(SuggestResult {
        word: lex.alphabet().decode(&codes),
        valid: lex.arcs().root().is_word(&codes),
        distance,
        total,
        limit,
        suggestions: near,
    })
}
