//! Planning a `find` query: which condition the walk starts from (the
//! anchor), what bounds the walk at each step, what is left for the
//! leaves.
//!
//! The anchor is the walking condition whose words should be fewest, by a
//! rough count: a run of letters `L` is expected in `N * P(L) * k` words
//! (`N` the lexicon's words, `P(L)` the product of its letters' shares in
//! the tile set's bag, `k` 1 for a prefix or suffix and 6 for a run
//! anywhere), a rack in a few hundred words times 26 per blank or set tile
//! (subanagrams 2 per tile), a list in as many words as it holds, and a
//! walk of everything in `N`. For `--ends ING --len 7 --front-hook`, the
//! suffix ING is the anchor (a small share of the words), the length bounds
//! the walk at 7 letters, and the hook is looked up at each 7-letter word
//! ending in ING.

use std::fmt::Write;

use super::conditions::{Affix, CTerm, Check, RackSpec, WordSet};
use crate::lexicon::Lexicon;
use crate::lexicon::gaddag::MAX_WORD_LEN;
use crate::query::Lengths;
use crate::query::plan::{Plan, Shares, affix_items, choose};
use crate::query::walk::Side;

/// How the walk goes.
pub(crate) enum Walk {
    /// The walk of a query command's plan ([`Plan`], run by
    /// [`crate::query::plan::run_on`], the commands' own traversal), never
    /// placing one of `barred_left` left of a [`Plan::Anchored`]'s anchor:
    /// a prefix, a suffix or a run of letters is [`Plan::Anchored`] on it,
    /// a pattern or regex the plan its command takes (a union of
    /// branches, a run of classes, forwards with universal states...),
    /// no anchor [`Plan::Forward`] over any letters.
    Plan { plan: Plan, barred_left: u64 },
    /// The words of exactly these tiles (`real[c]` of code `c`, and
    /// `blanks` blanks), as [`crate::Lexicon::anagram`] finds them: every
    /// word from its first letter spending a tile a letter, or, once
    /// [`crate::Lexicon::prepare_walks`] has filed the words by alphagram,
    /// a look-up for each choice of letters for the blanks. The other
    /// conditions are tested at the leaves: counting them at each step
    /// cost more than the few words they refuse. Without `use_all`, the
    /// words of at least two of the tiles, as
    /// [`crate::Lexicon::subanagram`] walks them (no look-up).
    Rack {
        real: [u8; 64],
        blanks: u8,
        use_all: bool,
    },
    /// The words of an `--in` list, looked up one by one.
    List(usize),
    /// No word can meet the conditions (lengths that exclude each other).
    Empty,
}

impl Walk {
    /// Whether the walk may reach a word more than once: from a run of
    /// letters with letters allowed on both sides, once per place the run
    /// occurs in the word (EERIE from E: three times). A prefix or a
    /// suffix has one place; the first place of a letter (the letter
    /// barred left of it) one.
    pub(crate) fn may_repeat(&self) -> bool {
        match self {
            Walk::Plan { plan, barred_left } => match plan {
                Plan::Anchored {
                    anchor,
                    left,
                    right,
                } => {
                    let first_place = anchor.len() == 1 && barred_left & (1u64 << anchor[0]) != 0;
                    !(matches!(left, Side::Nothing)
                        || matches!(right, Side::Nothing)
                        || first_place)
                }
                // Branches may share words; a run of classes may stand
                // twice in a word.
                Plan::Union(_) | Plan::Run { .. } => true,
                Plan::Forward(_) | Plan::Backward(_) => false,
            },
            // The anagram walk spells each word once (a real tile where
            // one is left, else a blank: AA from A? only as A then a
            // blank), and the look-up gives each word once.
            Walk::Rack { .. } | Walk::List(_) | Walk::Empty => false,
        }
    }

    /// Whether the walk reaches each word once, in alphabet order (no
    /// sort needed): see [`Plan::in_order`].
    pub(crate) fn in_order(&self) -> bool {
        matches!(self, Walk::Plan { plan, .. } if plan.in_order())
    }
}

/// An anchored plan.
fn anchored(anchor: Vec<u8>, left: Side, right: Side, barred_left: u64) -> Walk {
    Walk::Plan {
        plan: Plan::Anchored {
            anchor,
            left,
            right,
        },
        barred_left,
    }
}

/// Every word from its first letter.
fn every_word() -> Walk {
    Walk::Plan {
        plan: Plan::Forward(Side::Anything),
        barred_left: 0,
    }
}

/// A rack's tiles as the walk spends them (the real tiles left are known
/// from the letters counted: the first `real[c]` of code `c` are real
/// tiles, the rest blanks, set tiles or the star's).
#[derive(Clone, Copy, Default)]
pub(crate) struct Budget {
    /// Blanks and set tiles left.
    pub wild: u8,
    /// Codes with a real tile left.
    pub held: u64,
    /// Tiles still to spend (a rack that must use every tile).
    pub to_spend: u8,
}

/// What a rack lets the walk do, beside its [`Budget`].
#[derive(Clone, Copy)]
pub(crate) struct RackRule {
    /// Real tiles of each code (plus, for a rack playing through the
    /// anchor, the anchor's letters, counted first).
    pub real: [u8; 64],
    /// Letters a blank or set tile may stand for.
    pub wild_mask: u64,
    pub star: bool,
    /// Whether the rack plays through the anchor (whose letters then
    /// spend no tile of it).
    pub through: bool,
}

/// The bounds checked at each step of the walk, from the conditions that
/// must hold (never from negated ones or alternatives).
pub(crate) struct Prune {
    pub letters: u64,
    /// Most tiles of each code.
    pub limit: [u8; 64],
    pub vowels: u64,
    pub vowel_min: u32,
    pub vowel_max: u32,
    pub distinct_min: u32,
    pub distinct_max: u32,
    pub values: [i32; 64],
    /// The most points, if bounded and every value is 0 or more.
    pub points_max: Option<i64>,
    /// (value, codes of that value), for the letters a point budget allows.
    pub by_value: Vec<(i64, u64)>,
    /// `consists` under 100%: the set and how many other tiles a word may
    /// hold at most.
    pub consists: Vec<(u64, u32)>,
    /// At least `need[c]` of each code (`includes`).
    pub need: [u8; 64],
    pub need_total: u32,
    pub racks: Vec<(RackRule, Budget)>,
}

impl Prune {
    /// Whether no bound can refuse a letter of the walk's letters other
    /// than by the length (every letter's limit 0 or past any word's
    /// length, no vowel, distinct-letter, point, `consists`, `includes`
    /// or rack bound): the walk then needs no counts until a word is
    /// found. `--ends ING --len 7 --front-hook` walks so.
    pub fn bounds_nothing(&self) -> bool {
        self.bounds_nothing_but_racks() && self.racks.is_empty()
    }

    /// [`Prune::bounds_nothing`], its racks aside.
    pub fn bounds_nothing_but_racks(&self) -> bool {
        let most = MAX_WORD_LEN as u32;
        (1..64).all(|c| {
            self.letters & (1u64 << c) == 0 || self.limit[c] == 0 || self.limit[c] as u32 >= most
        }) && self.vowel_min == 0
            && self.vowel_max >= most
            && self.distinct_min == 0
            && self.distinct_max >= most
            && self.points_max.is_none()
            && self.consists.is_empty()
            && self.need_total == 0
    }
}

/// The most `consists` conditions and racks that bound the walk (the rest
/// are tested at the leaves).
pub(crate) const MAX_CONSISTS: usize = 4;
pub(crate) const MAX_RACKS: usize = 2;

/// A planned query.
pub(crate) struct Planned {
    pub walk: Walk,
    /// The term the walk meets exactly (not tested again at the leaves).
    pub exact: Option<usize>,
    pub lens: Lengths,
    pub prune: Prune,
    /// Words the walk is expected to visit.
    pub estimate: u64,
    /// The anchor term's index, if a term anchors.
    pub anchor: Option<usize>,
    /// Each walking term: its index and its estimate.
    pub candidates: Vec<(usize, u64)>,
    /// Whether the estimates were measured by random dives (else they are
    /// the rough counts of the module documentation).
    pub dived: bool,
}

/// Each letter's share of the bag of the alphabet's standard tile set (a
/// stand-in for its frequency in words), or an even share.
fn shares(lex: &Lexicon) -> [f64; 64] {
    let alphabet = lex.alphabet();
    let n = alphabet.len().max(1);
    let mut out = [1.0 / n as f64; 64];
    if let Ok(t) = crate::TileSet::default_for(alphabet, 15) {
        let total: usize = (1..=n as u8).map(|c| t.count(c)).sum();
        if total > 0 {
            for c in 1..=n as u8 {
                // A letter with no tile still occurs in words.
                out[c as usize] = (t.count(c) as f64).max(0.5) / total as f64;
            }
        }
    }
    out
}

/// How many words a walk from `anchor` should visit.
fn affix_estimate(words: u64, shares: &[f64; 64], anchor: &[u8], fixed_end: bool) -> u64 {
    let p: f64 = anchor.iter().map(|&c| shares[c as usize & 63]).product();
    let k = if fixed_end { 1.0 } else { 6.0 };
    ((words as f64 * p * k).ceil() as u64).clamp(1, words.max(1))
}

fn rack_estimate(words: u64, rack: &RackSpec) -> u64 {
    let wild = rack.blanks as u32 + rack.sets.len() as u32;
    let e = if rack.star {
        words as f64 / 4.0
    } else if rack.exact {
        300.0 * 26f64.powi(wild as i32)
    } else {
        30.0 * 2f64.powi(rack.tiles() as i32) * 26f64.powi(wild as i32)
    };
    (e as u64).clamp(1, words.max(1))
}

/// Plans the walk for `terms` (those at the top: all must hold).
pub(crate) fn plan(
    lex: &Lexicon,
    terms: &[CTerm],
    lists: &[WordSet],
    values: &[i32; 64],
    vowels: u64,
    pick: Option<usize>,
) -> Planned {
    let words = lex.word_count().max(1);
    let shares = shares(lex);
    let longest = lex.max_word_len().min(MAX_WORD_LEN);
    let mut lens = Lengths {
        min: 1,
        max: longest,
    };
    let letters = lex.alphabet().letters().0;
    let mut prune = Prune {
        letters,
        limit: [u8::MAX; 64],
        vowels,
        vowel_min: 0,
        vowel_max: u32::MAX,
        distinct_min: 0,
        distinct_max: u32::MAX,
        values: *values,
        points_max: None,
        by_value: Vec::new(),
        consists: Vec::new(),
        need: [0; 64],
        need_total: 0,
        racks: Vec::new(),
    };
    let mut points_max = u32::MAX;
    let narrow = |lens: &mut Lengths, min: usize, max: usize| {
        lens.min = lens.min.max(min);
        lens.max = lens.max.min(max);
    };
    let mut candidates: Vec<(usize, u64)> = Vec::new();
    let mut racks: Vec<(usize, &RackSpec)> = Vec::new();
    for (i, t) in terms.iter().enumerate() {
        if t.negated {
            // `--not-includes U`: at most no U; `--not-includes SS`: one S.
            if let Check::Includes(need) = &t.check {
                let mut one = need.iter().enumerate().filter(|&(_, &k)| k > 0);
                if let (Some((c, &k)), None) = (one.next(), one.next()) {
                    prune.limit[c] = prune.limit[c].min(k - 1);
                }
            }
            continue;
        }
        match &t.check {
            Check::Length(r) => narrow(&mut lens, r.min as usize, r.max as usize),
            Check::Match(plan, min, max, _) => {
                narrow(&mut lens, *min as usize, *max as usize);
                let e = match &**plan {
                    Plan::Anchored {
                        anchor,
                        left,
                        right,
                    } => {
                        let fixed = matches!(left, Side::Nothing) || matches!(right, Side::Nothing);
                        affix_estimate(words, &shares, anchor, fixed)
                    }
                    // A DFA from either end: it prunes, but how much is
                    // not known.
                    _ => words / 2,
                };
                candidates.push((i, e));
            }
            Check::Affix(kind, codes) => {
                narrow(&mut lens, codes.len(), MAX_WORD_LEN);
                let fixed = *kind != Affix::Contains;
                candidates.push((i, affix_estimate(words, &shares, codes, fixed)));
            }
            Check::Rack(rack) => {
                let t = rack.tiles() + rack.through.len();
                if rack.exact {
                    narrow(&mut lens, t, if rack.star { MAX_WORD_LEN } else { t });
                } else {
                    let max = if rack.star { MAX_WORD_LEN } else { t };
                    narrow(&mut lens, rack.min_used() + rack.through.len(), max);
                }
                let mut e = rack_estimate(words, rack);
                if !rack.through.is_empty() {
                    e = e.min(affix_estimate(words, &shares, &rack.through, false));
                }
                candidates.push((i, e));
                racks.push((i, &**rack));
            }
            Check::Includes(need) => {
                for c in 1..64 {
                    prune.need[c] = prune.need[c].max(need[c]);
                }
                // The rarest letter to include can drive the walk.
                if let Some(c) = rarest(need, &shares) {
                    candidates.push((i, affix_estimate(words, &shares, &[c], false)));
                }
            }
            Check::Consists { set, percent } => {
                if *percent == 100 {
                    for c in 1..64 {
                        if set & (1u64 << c) == 0 {
                            prune.limit[c] = 0;
                        }
                    }
                } else if prune.consists.len() < MAX_CONSISTS {
                    // Filled in below, once the longest length is known.
                    prune.consists.push((*set, *percent as u32));
                }
            }
            Check::Vowels(r) => {
                prune.vowel_min = prune.vowel_min.max(r.min);
                prune.vowel_max = prune.vowel_max.min(r.max);
            }
            Check::Distinct(r) => {
                prune.distinct_min = prune.distinct_min.max(r.min);
                prune.distinct_max = prune.distinct_max.min(r.max);
            }
            Check::Points(r) => points_max = points_max.min(r.max),
            Check::In(k) => {
                let n = match &lists[*k] {
                    WordSet::List { words, .. } => words.len() as u64,
                    WordSet::Lexicon(l) => l.word_count(),
                };
                candidates.push((i, n.max(1)));
            }
            _ => {}
        }
    }
    prune.need_total = prune.need.iter().map(|&k| k as u32).sum();
    narrow(&mut lens, prune.need_total as usize, MAX_WORD_LEN);
    for (_, share) in prune.consists.iter_mut() {
        // outside * 100 <= (100 - percent) * length <= ... * longest.
        *share = (100 - *share) * lens.max as u32 / 100;
    }
    if points_max != u32::MAX && values.iter().all(|&v| v >= 0) {
        prune.points_max = Some(points_max as i64);
        let mut by: Vec<(i64, u64)> = Vec::new();
        for c in 1..64u8 {
            if letters & (1u64 << c) == 0 {
                continue;
            }
            let v = values[c as usize] as i64;
            match by.iter_mut().find(|(x, _)| *x == v) {
                Some((_, m)) => *m |= 1u64 << c,
                None => by.push((v, 1u64 << c)),
            }
        }
        prune.by_value = by;
    }
    // The cheapest walking term anchors (ties go to the first given),
    // unless the caller picks one.
    let best = match pick {
        Some(i) => candidates.iter().find(|&&(k, _)| k == i).copied(),
        None => candidates.iter().min_by_key(|&&(_, e)| e).copied(),
    };
    let mut exact = None;
    let (walk, estimate, anchor) = match best {
        _ if lens.min > lens.max => (Walk::Empty, 0, None),
        None => (every_word(), words, None),
        Some((i, e)) => {
            let walk = match &terms[i].check {
                Check::Affix(kind, codes) => {
                    exact = Some(i);
                    let open = |end: bool| if end { Side::Nothing } else { Side::Anything };
                    match common_substring(lex, *kind, codes) {
                        Some(plan) => Walk::Plan {
                            plan,
                            barred_left: 0,
                        },
                        None => anchored(
                            codes.clone(),
                            open(*kind == Affix::Starts),
                            open(*kind == Affix::Ends),
                            0,
                        ),
                    }
                }
                Check::Match(plan, ..) => {
                    exact = Some(i);
                    Walk::Plan {
                        plan: (**plan).clone(),
                        barred_left: 0,
                    }
                }
                Check::Rack(rack) => {
                    let walk = rack_walk(rack, &shares);
                    if matches!(walk, Walk::Rack { .. }) {
                        // The rack walk spells exactly the rack's words.
                        exact = Some(i);
                    }
                    walk
                }
                Check::Includes(need) => {
                    // From the letter's first place: never left of it.
                    let c = rarest(need, &shares).expect("a letter to include");
                    anchored(vec![c], Side::Anything, Side::Anything, 1u64 << c)
                }
                Check::In(k) => Walk::List(*k),
                _ => unreachable!("only walking terms are candidates"),
            };
            (walk, e, Some(i))
        }
    };
    // The racks that bound the walk: the anchor's first; one played
    // through a block only if the walk starts from that block (elsewhere
    // the walk cannot tell the block's letters from the rack's).
    racks.sort_by_key(|&(i, _)| Some(i) != anchor);
    for (i, rack) in racks {
        let through = !rack.through.is_empty();
        if prune.racks.len() < MAX_RACKS && (!through || Some(i) == anchor) {
            let (mut rule, budget) = budget(rack);
            rule.through = through;
            for &c in &rack.through {
                rule.real[c as usize & 63] += 1;
            }
            prune.racks.push((rule, budget));
        }
    }
    // A subanagram of letters and blanks that nothing else bounds walks
    // as `lexq subanagram` does: its own rack walk, which asks only for
    // the edges of letters it still holds, and spells exactly the rack's
    // words.
    let walk = match (walk, anchor.map(|i| &terms[i].check)) {
        (
            Walk::Plan {
                plan: Plan::Forward(Side::Anything),
                ..
            },
            Some(Check::Rack(r)),
        ) if !r.exact
            && !r.star
            && r.sets.is_empty()
            && r.through.is_empty()
            && prune.racks.len() == 1
            && prune.bounds_nothing_but_racks() =>
        {
            exact = anchor;
            Walk::Rack {
                real: r.real,
                blanks: r.blanks,
                use_all: false,
            }
        }
        (walk, _) => walk,
    };
    Planned {
        walk,
        exact,
        lens,
        prune,
        estimate,
        anchor,
        candidates,
        dived: false,
    }
}

/// The forward walk of every word, if that is how `lexq contains` walks
/// `codes` (a substring in most words, `contains e`: every word below
/// its first E matches, and nothing is looked up twice), as the planner
/// chooses for the pattern `*SUB*`.
fn common_substring(lex: &Lexicon, kind: Affix, codes: &[u8]) -> Option<Plan> {
    if kind != Affix::Contains {
        return None;
    }
    let letters = lex.alphabet().letters();
    let items = affix_items(letters, codes, true, true);
    match choose(items, letters, &Shares::of(lex)) {
        Ok((plan @ Plan::Forward(_), _)) => Some(plan),
        _ => None,
    }
}

/// Of the codes with a count, the one with the smallest share of the bag.
fn rarest(counts: &[u8; 64], shares: &[f64; 64]) -> Option<u8> {
    (1..64u8)
        .filter(|&c| counts[c as usize] > 0)
        .min_by(|&a, &b| shares[a as usize].total_cmp(&shares[b as usize]))
}

/// The walk a rack drives: from the block it plays through; or, when every
/// tile is spent and every tile is a letter, from its rarest tile (its
/// first place in the word, so never left of it); when every tile is
/// spent and one or two are blanks, the anagram walk or look-up
/// ([`Walk::Rack`]); else every word from its first letter, spending a
/// tile a letter (with a blank or a set tile, a walk from one letter
/// visits every left part they can spell before it, and each again across
/// the separator, as the rack walk of [`crate::Lexicon::anagram`] avoids
/// too).
fn rack_walk(rack: &RackSpec, shares: &[f64; 64]) -> Walk {
    if !rack.through.is_empty() {
        return anchored(rack.through.clone(), Side::Anything, Side::Anything, 0);
    }
    match rarest(&rack.real, shares) {
        Some(c) if rack.exact && rack.blanks == 0 && rack.sets.is_empty() => {
            anchored(vec![c], Side::Anything, Side::Anything, 1u64 << c)
        }
        _ if rack.exact
            && !rack.star
            && rack.sets.is_empty()
            && (1..=MAX_RACK_BLANKS).contains(&rack.blanks) =>
        {
            Walk::Rack {
                real: rack.real,
                blanks: rack.blanks,
                use_all: true,
            }
        }
        _ => every_word(),
    }
}

/// The most blanks a rack driving a [`Walk::Rack`] holds: with more, the
/// walk may be long, and the general walk's bounds pay for themselves.
const MAX_RACK_BLANKS: u8 = 2;

/// A rack's rule and its full budget.
pub(crate) fn budget(rack: &RackSpec) -> (RackRule, Budget) {
    let wild_mask = if rack.blanks > 0 {
        !1u64
    } else {
        rack.sets.iter().fold(0, |m, s| m | s)
    };
    let mut held = 0u64;
    for c in 1..64 {
        if rack.real[c] > 0 {
            held |= 1u64 << c;
        }
    }
    let wild = rack.blanks as usize + rack.sets.len();
    (
        RackRule {
            real: rack.real,
            wild_mask,
            star: rack.star,
            through: false,
        },
        Budget {
            wild: wild as u8,
            held,
            to_spend: if rack.exact { rack.tiles() as u8 } else { 0 },
        },
    )
}

/// A plan's walk in words (`barred_left` as [`Walk::Plan`] has it).
fn describe(plan: &Plan, barred_left: u64, spell: &dyn Fn(&[u8]) -> String) -> String {
    let side = |x: &Side| match x {
        Side::Nothing => "nothing",
        Side::Anything => "any letters",
        Side::Dfa(_) => "letters the automaton allows",
    };
    match plan {
        Plan::Forward(Side::Dfa(d)) if d.has_universal() => {
            "every word from its first letter while the automaton allows (every word below a universal state without stepping it)".to_string()
        }
        Plan::Forward(_) => "every word from its first letter while the automaton allows".to_string(),
        Plan::Backward(_) => {
            "every word from its last letter, right to left, while the automaton allows".to_string()
        }
        Plan::Anchored {
            anchor,
            left,
            right,
        } => format!(
            "from {} read right to left from the GADDAG root; {} before it{}; {} after it",
            spell(anchor),
            side(left),
            if barred_left != 0 && !anchor.is_empty() {
                format!(" (no {})", spell(&anchor[..1]))
            } else {
                String::new()
            },
            side(right),
        ),
        Plan::Run { run, left, right } => {
            let classes: Vec<String> = run
                .iter()
                .map(|set| {
                    let codes: Vec<u8> = set.iter().collect();
                    match codes.as_slice() {
                        [one] => spell(&[*one]),
                        _ => format!("[{}]", spell(&codes)),
                    }
                })
                .collect();
            format!(
                "from each run of letters {} that stands in some word, read right to left from the GADDAG root; {} before it; {} after it",
                classes.concat(),
                side(left),
                side(right),
            )
        }
        Plan::Union(plans) => {
            let each: Vec<String> = plans
                .iter()
                .enumerate()
                .map(|(k, p)| format!("({}) {}", k + 1, describe(p, 0, spell)))
                .collect();
            format!("{} walks in turn: {}", plans.len(), each.join("; "))
        }
    }
}

impl Planned {
    /// The plan in words.
    pub fn explain(&self, terms: &[CTerm], lex: &Lexicon) -> String {
        let mut s = String::new();
        let alphabet = lex.alphabet();
        let spell = |codes: &[u8]| alphabet.decode(codes);
        let lens = if self.lens.min == self.lens.max {
            format!("{} letters", self.lens.min)
        } else {
            format!("{} to {} letters", self.lens.min, self.lens.max)
        };
        let _ = match &self.walk {
            Walk::Empty => writeln!(s, "walk: none (no length meets every condition)"),
            Walk::Plan {
                plan: Plan::Forward(Side::Anything),
                ..
            } if self.anchor.is_none() => writeln!(
                s,
                "walk: every word from its first letter, {lens} ({} words in the lexicon)",
                lex.word_count()
            ),
            Walk::Plan { plan, barred_left } => {
                writeln!(s, "walk: {}; {lens}", describe(plan, *barred_left, &spell))
            }
            Walk::Rack { use_all: true, .. } => writeln!(
                s,
                "walk: every word of exactly the rack's tiles from its first letter, a tile a letter (looked up by alphagram once the lexicon is prepared), {lens}"
            ),
            Walk::Rack { .. } => writeln!(
                s,
                "walk: every word of the rack's tiles (not all spent) from its first letter, a tile a letter, {lens}"
            ),
            Walk::List(_) => writeln!(s, "walk: the words of the list, each looked up, {lens}"),
        };
        if let Some(i) = self.anchor {
            let unit = if self.dived {
                "steps, by random dives"
            } else {
                "words"
            };
            let _ = writeln!(
                s,
                "anchor: {} (about {} {unit})",
                terms[i].text, self.estimate
            );
        }
        let others: Vec<String> = self
            .candidates
            .iter()
            .filter(|&&(i, _)| Some(i) != self.anchor)
            .map(|&(i, e)| format!("{} (about {e})", terms[i].text))
            .collect();
        if !others.is_empty() {
            let _ = writeln!(
                s,
                "other walking conditions, tested at each word: {}",
                others.join("; ")
            );
        }
        let mut bounds = Vec::new();
        bounds.push(format!("length {lens}"));
        let p = &self.prune;
        let limits: Vec<String> = (1..64u8)
            .filter(|&c| p.letters & (1u64 << c) != 0 && p.limit[c as usize] != u8::MAX)
            .map(|c| format!("{} at most {}", spell(&[c]), p.limit[c as usize]))
            .collect();
        if !limits.is_empty() {
            bounds.push(limits.join(", "));
        }
        let needs: Vec<String> = (1..64u8)
            .filter(|&c| p.need[c as usize] > 0)
            .map(|c| format!("{} at least {}", spell(&[c]), p.need[c as usize]))
            .collect();
        if !needs.is_empty() {
            bounds.push(format!("{} (against the letters left)", needs.join(", ")));
        }
        if p.vowel_min > 0 || p.vowel_max != u32::MAX {
            bounds.push(format!(
                "vowels {}",
                super::Range::between(p.vowel_min, p.vowel_max)
            ));
        }
        if p.distinct_min > 0 || p.distinct_max != u32::MAX {
            bounds.push(format!(
                "distinct letters {}",
                super::Range::between(p.distinct_min, p.distinct_max)
            ));
        }
        if let Some(m) = p.points_max {
            bounds.push(format!("points at most {m}"));
        }
        for (set, out) in &p.consists {
            let codes: Vec<u8> = (1..64u8).filter(|&c| set & (1u64 << c) != 0).collect();
            bounds.push(format!("at most {out} letters outside {}", spell(&codes)));
        }
        if !p.racks.is_empty() {
            bounds.push(format!("tiles of {} rack(s) spent", p.racks.len()));
        }
        if let Walk::Rack { .. } = self.walk {
            // The rack's walk counts its tiles only.
            bounds = vec![format!("length {lens}"), "the rack's tiles".to_string()];
        }
        let _ = writeln!(s, "bounds at each step: {}", bounds.join("; "));
        for t in terms {
            if let Check::Match(_, _, _, why) = &t.check {
                let _ = writeln!(s, "plan of {}: {why}", t.text);
            }
        }
        let leaves: Vec<&str> = terms
            .iter()
            .enumerate()
            .filter(|&(i, _)| Some(i) != self.exact)
            .map(|(_, t)| t.text.as_str())
            .collect();
        let _ = if leaves.is_empty() {
            writeln!(s, "tested at each word: nothing more")
        } else {
            writeln!(s, "tested at each word: {}", leaves.join("; "))
        };
        s
    }
}
