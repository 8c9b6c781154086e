//! An independent replay and check of GCG games, on the brute force's own
//! board (`brute.rs`): the oracle for `lexq gcg --turn` and `--check`.
//!
//! Only the parsing of the file is lexq's (`lexq::game::gcg::Game`); placing
//! tiles, judging words and scoring are done here. The rules the check
//! applies, event by event (the same the library documents):
//!
//! - a play whose tiles do not fit (off the board, on an occupied square,
//!   a play-through letter that is not there, tiles beside its ends, not
//!   touching any tile, missing the start square on the first move, tiles
//!   not on the written rack) is an illegal `placement`; it is not laid and
//!   its score is not checked;
//! - a play forming a word not in the word list is a `phony`, unless the
//!   same player's next event withdraws it (`--`); its tiles are laid
//!   either way (`--` lifts them);
//! - a play's written score must be its score (`score`); `--` must take
//!   back exactly the withdrawn play's written score; end-of-game rack
//!   points must be twice the tiles' value, or once when the game also
//!   subtracts them from the opponent (`RACK (RACK) -N`), which must be
//!   their value; challenge bonuses and time penalties are taken as written;
//! - every cumulative total must be the player's previous written total
//!   plus the event's written score (`cumulative`), so one slip is reported
//!   once;
//! - the whole game: an exchange only of tiles on the rack (`exchange`);
//!   no rack bigger than the rack size (`rack`); never more tiles of a kind
//!   on the board and a move's rack than the set holds (`tiles`; a play
//!   that would put more on the board is a `placement`); no move after
//!   the end (`after-end`: a player out with the bag empty, or six
//!   scoreless turns); end-of-game points only for the player out,
//!   counting exactly the tiles not on the board, and penalty lines whose
//!   two racks agree and are among those tiles (`end`).
//!
//! Racks and words may spell multi-letter tiles plainly: each is read
//! every way its letters allow (a run's longest tile, or its first letter
//! alone), and the way taken is the one the module `lexq::game::replay`
//! documents: the first word reading (longest first) that is legal and
//! valid, else legal; the rack reading holding the tiles played, within
//! the set, within the rack size, full while the bag holds tiles.

use lexq::game::gcg::{Event, EventKind, Game};

use super::brute::{BruteMove, Position, Rules, Tile, brute_moves_at};

/// A problem found on a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub line: usize,
    /// `placement`, `phony`, `score`, `cumulative`, `exchange`, `rack`,
    /// `tiles`, `after-end` or `end`.
    pub kind: &'static str,
    pub detail: String,
}

/// The state of a replayed game.
pub struct Replay {
    pub pos: Position,
    /// Written cumulative totals so far.
    pub scores: Vec<i32>,
    pub problems: Vec<Problem>,
}

/// A play's tiles as written: (row, col, tile, placed).
type Laid = Vec<(usize, usize, Tile, bool)>;

/// Tile counts by code, index 0 for blanks.
type Counts = [u32; 64];

fn empty_position(rules: &Rules, size: usize) -> Position {
    let board = vec![size.to_string(); size].join("/");
    super::brute::parse_cgp(rules, &format!("{board} / 0/0 0")).expect("an empty board")
}

/// One tile of text: its tile and length in chars, for each way to read
/// it (the longest tile first, then the first letter alone). Brackets
/// give one tile; `?` a blank (code 0, not blank-designated).
fn tile_options(rules: &Rules, chars: &[char]) -> Vec<(Tile, usize)> {
    if chars[0] == '[' {
        let Some(end) = chars.iter().position(|&c| c == ']') else {
            return Vec::new();
        };
        let inner = &chars[1..end];
        let blank = inner.first().is_some_and(|c| c.is_lowercase());
        if inner.iter().any(|c| c.is_lowercase() != blank) {
            return Vec::new();
        }
        let upper: Vec<char> = inner.iter().flat_map(|c| c.to_uppercase()).collect();
        return match rules.alpha.tile_at(&upper) {
            Some((code, n)) if n == upper.len() => vec![(Tile { code, blank }, end + 1)],
            _ => Vec::new(),
        };
    }
    let blank = chars[0].is_lowercase();
    let run: Vec<char> = chars
        .iter()
        .take_while(|c| c.is_alphabetic() && c.is_lowercase() == blank || **c == '·')
        .flat_map(|c| c.to_uppercase())
        .collect();
    let mut out = Vec::new();
    if let Some((code, n)) = rules.alpha.tile_at(&run) {
        out.push((Tile { code, blank }, n));
    }
    if let Some((code, 1)) = rules.alpha.tile_at(&run[..1.min(run.len())]) {
        if !out.iter().any(|o| o.1 == 1) {
            out.push((Tile { code, blank }, 1));
        }
    }
    out
}

/// Every reading of a rack (or tile list): tile counts, blanks at 0.
fn rack_options(rules: &Rules, text: &str) -> Vec<Counts> {
    fn go(rules: &Rules, chars: &[char], acc: &mut Counts, out: &mut Vec<Counts>) {
        if out.len() >= 64 {
            return;
        }
        if chars.is_empty() {
            out.push(*acc);
            return;
        }
        if chars[0] == '?' {
            acc[0] += 1;
            go(rules, &chars[1..], acc, out);
            acc[0] -= 1;
            return;
        }
        for (t, n) in tile_options(rules, chars) {
            if t.blank {
                continue;
            }
            acc[t.code as usize] += 1;
            go(rules, &chars[n..], acc, out);
            acc[t.code as usize] -= 1;
        }
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    go(rules, &chars, &mut [0; 64], &mut out);
    out
}

/// Every reading of a played word: its tiles, each marked as on the
/// board (in parentheses or `.`) or not. `.` is `None`.
fn word_options(rules: &Rules, word: &str) -> Vec<Vec<(Option<Tile>, bool)>> {
    fn go(
        rules: &Rules,
        chars: &[char],
        through: bool,
        acc: &mut Vec<(Option<Tile>, bool)>,
        out: &mut Vec<Vec<(Option<Tile>, bool)>>,
    ) {
        if out.len() >= 64 {
            return;
        }
        let Some(&c) = chars.first() else {
            out.push(acc.clone());
            return;
        };
        match c {
            '(' => return go(rules, &chars[1..], true, acc, out),
            ')' => return go(rules, &chars[1..], false, acc, out),
            '.' => {
                acc.push((None, true));
                go(rules, &chars[1..], through, acc, out);
                acc.pop();
                return;
            }
            _ => {}
        }
        for (t, n) in tile_options(rules, chars) {
            acc.push((Some(t), through));
            go(rules, &chars[n..], through, acc, out);
            acc.pop();
        }
    }
    let chars: Vec<char> = word.chars().collect();
    let mut out = Vec::new();
    go(rules, &chars, false, &mut Vec::new(), &mut out);
    out
}

/// Lays a word reading at the event's coordinate on `pos`: its squares
/// and tiles; an error if it does not fit the board or its play-through
/// letters are not those on the board.
fn lay(
    pos: &Position,
    e: &Event,
    word: &[(Option<Tile>, bool)],
    rules: &Rules,
) -> Result<Laid, String> {
    let EventKind::Play { coord, .. } = &e.kind else {
        unreachable!("only plays are laid")
    };
    let n = pos.size();
    let mut out = Vec::new();
    for (k, &(tile, through)) in word.iter().enumerate() {
        let (r, col) = if coord.across {
            (coord.row, coord.col + k)
        } else {
            (coord.row + k, coord.col)
        };
        if r >= n || col >= n {
            return Err(format!("{} runs off the board", e.notation()));
        }
        let on_board = pos.at(r, col);
        match (tile, through) {
            (None, _) => {
                let t = on_board.ok_or_else(|| format!("no tile under the . at {}", k + 1))?;
                out.push((r, col, t, false));
            }
            (Some(t), true) => match on_board {
                Some(b) if b.code == t.code => out.push((r, col, b, false)),
                _ => return Err(format!("({}) is not on the board", rules.tile_text(t))),
            },
            (Some(t), false) => match on_board {
                // A plain letter over a tile is a play-through letter.
                Some(b) if b.code == t.code => out.push((r, col, b, false)),
                Some(_) => return Err(format!("square {} is taken", k + 1)),
                None => out.push((r, col, t, true)),
            },
        }
    }
    Ok(out)
}

/// The perpendicular word through a newly placed tile (with it), if
/// longer than one tile.
fn cross_word(pos: &Position, r: usize, c: usize, t: Tile, across: bool) -> Option<Vec<Tile>> {
    let n = pos.size() as isize;
    let (dr, dc) = if across { (1isize, 0isize) } else { (0, 1) };
    let at = |k: isize| {
        let (rr, cc) = (r as isize + dr * k, c as isize + dc * k);
        (rr >= 0 && cc >= 0 && rr < n && cc < n)
            .then(|| pos.at(rr as usize, cc as usize))
            .flatten()
    };
    let mut a = 0;
    while at(a - 1).is_some() {
        a -= 1;
    }
    let mut b = 0;
    while at(b + 1).is_some() {
        b += 1;
    }
    if a == b {
        return None;
    }
    Some(
        (a..=b)
            .map(|k| if k == 0 { t } else { at(k).expect("a tile") })
            .collect(),
    )
}

/// Tiles on the board by code (blanks at 0).
fn board_counts(pos: &Position) -> Counts {
    let mut c = [0u32; 64];
    for t in pos.squares.iter().flatten() {
        c[if t.blank { 0 } else { t.code as usize }] += 1;
    }
    c
}

/// The set's tiles not on the board.
fn left_over(rules: &Rules, pos: &Position) -> Counts {
    let on = board_counts(pos);
    let mut left = [0u32; 64];
    for (k, &n) in rules.counts.iter().enumerate() {
        left[k] = n.saturating_sub(on[k]);
    }
    left
}

fn total(c: &Counts) -> u32 {
    c.iter().sum()
}

fn holds(rack: &Counts, need: &Counts) -> bool {
    (0..64).all(|k| rack[k] >= need[k])
}

/// The first tile of which the board and `rack` hold more than the set.
fn over_set(rules: &Rules, pos: &Position, rack: &Counts) -> Option<String> {
    let on = board_counts(pos);
    (0..rules.counts.len()).find_map(|k| {
        let n = on[k] + rack[k];
        (n > rules.counts[k]).then(|| {
            let t = if k == 0 {
                "?".to_string()
            } else {
                rules.alpha.label(k as u8).to_string()
            };
            format!("{n} {t}, the set has {}", rules.counts[k])
        })
    })
}

/// The reading of a rack the rules prefer (see the module comment).
fn pick_rack(
    rules: &Rules,
    pos: &Position,
    text: &str,
    need: &Counts,
    full: bool,
) -> Option<Counts> {
    let options = rack_options(rules, text);
    let key = |r: &Counts| {
        (
            holds(r, need),
            over_set(rules, pos, r).is_none(),
            total(r) as usize <= rules.rack_size,
            !full || total(r) as usize == rules.rack_size,
        )
    };
    let best = options.iter().map(key).max()?;
    options.into_iter().find(|r| key(r) == best)
}

/// Checks the geometry of a play; the words it forms on success.
fn check_placement(
    rules: &Rules,
    pos: &Position,
    e: &Event,
    laid: &Laid,
    rack: Option<&Counts>,
) -> Result<Vec<Vec<Tile>>, String> {
    let EventKind::Play { coord, .. } = &e.kind else {
        unreachable!()
    };
    let n = pos.size();
    let placed: Vec<_> = laid.iter().filter(|x| x.3).collect();
    if placed.is_empty() {
        return Err("no tile placed".into());
    }
    // Nothing right before or after the word.
    let (r0, c0, ..) = laid[0];
    let (r1, c1, ..) = laid[laid.len() - 1];
    let before = if coord.across {
        (c0 > 0).then(|| pos.at(r0, c0 - 1)).flatten()
    } else {
        (r0 > 0).then(|| pos.at(r0 - 1, c0)).flatten()
    };
    let after = if coord.across {
        (c1 + 1 < n).then(|| pos.at(r1, c1 + 1)).flatten()
    } else {
        (r1 + 1 < n).then(|| pos.at(r1 + 1, c1)).flatten()
    };
    if before.is_some() || after.is_some() {
        return Err("the word does not include the tiles beside it".into());
    }
    // The tiles must be on the rack (when the rack is written).
    let mut need = [0u32; 64];
    for (_, _, t, _) in &placed {
        need[if t.blank { 0 } else { t.code as usize }] += 1;
    }
    if let Some(rack) = rack {
        if !holds(rack, &need) {
            return Err(format!("tiles not on the rack {}", e.rack));
        }
    }
    if let Some(why) = over_set(rules, pos, &need) {
        return Err(format!("more tiles than the set: {why}"));
    }
    let through = laid.iter().any(|x| !x.3);
    let mut words = Vec::new();
    if laid.len() > 1 {
        words.push(laid.iter().map(|x| x.2).collect());
    }
    for (r, c, t, _) in &placed {
        if let Some(w) = cross_word(pos, *r, *c, *t, coord.across) {
            words.push(w);
        }
    }
    if pos.is_empty_board() {
        let s = pos.layout.start;
        if !laid.iter().any(|x| (x.0, x.1) == s) {
            return Err("the first play must cover the start square".into());
        }
        if placed.len() < 2 {
            return Err("the first play must place two tiles".into());
        }
    } else if !through && words.len() <= usize::from(laid.len() > 1) {
        return Err("the play touches no tile".into());
    }
    if words.is_empty() {
        return Err("the play forms no word".into());
    }
    Ok(words)
}

/// The score of a legal-looking play: the brute force run on a word list
/// of exactly the words it forms, with its tiles as the rack.
fn score_of(rules: &Rules, pos: &Position, laid: &Laid, words: &[Vec<Tile>]) -> i32 {
    let text: String = words
        .iter()
        .map(|w| {
            let mut s: String = w.iter().map(|t| rules.alpha.label(t.code)).collect();
            s.push('\n');
            s
        })
        .collect();
    let tiny = Rules::with_alphabet_of(rules, &text);
    let mut p = pos.clone();
    p.rack = [0; 64];
    for (_, _, t, placed) in laid {
        if *placed {
            p.rack[if t.blank { 0 } else { t.code as usize }] += 1;
        }
    }
    // On the empty board the brute force lists across plays only; a down
    // first play scores as its transpose (both layouts are symmetric).
    let transpose = pos.is_empty_board() && laid.len() > 1 && laid[0].1 == laid[1].1;
    let want: Vec<(usize, usize, Tile)> = laid
        .iter()
        .filter(|x| x.3)
        .map(|x| {
            if transpose {
                (x.1, x.0, x.2)
            } else {
                (x.0, x.1, x.2)
            }
        })
        .collect();
    let moves = brute_moves_at(&tiny, &p);
    let m = moves
        .iter()
        .find(|m| placements(rules, m) == want)
        .expect("the brute force lists every legal play");
    m.score
}

/// The tiles a brute move places: (row, col, tile), in word order.
pub fn placements(rules: &Rules, m: &BruteMove) -> Vec<(usize, usize, Tile)> {
    let mut out = Vec::new();
    let mut w = m.word.chars().peekable();
    let mut p = m.placed.chars().peekable();
    let mut k = 0;
    while w.peek().is_some() {
        // One tile of the word: the longest label at this point.
        let rest: Vec<char> = w.clone().collect();
        let blank = rest[0].is_lowercase();
        let run: Vec<char> = rest
            .iter()
            .take_while(|c| c.is_lowercase() == blank)
            .flat_map(|c| c.to_uppercase())
            .collect();
        let (code, len) = rules.alpha.tile_at(&run).expect("a tile");
        for _ in 0..len {
            w.next();
        }
        let (r, c) = if m.across {
            (m.row, m.col + k)
        } else {
            (m.row + k, m.col)
        };
        if p.peek() == Some(&'.') {
            p.next();
        } else {
            for _ in 0..len {
                p.next();
            }
            out.push((r, c, Tile { code, blank }));
        }
        k += 1;
    }
    out
}

fn value_of(rules: &Rules, c: &Counts) -> i32 {
    (1..rules.values.len())
        .map(|k| c[k] as i32 * rules.values[k])
        .sum()
}

fn counts_text(rules: &Rules, c: &Counts) -> String {
    let mut s = String::new();
    for (k, &n) in c.iter().enumerate().take(rules.counts.len()).skip(1) {
        for _ in 0..n {
            s += rules.alpha.label(k as u8);
        }
    }
    for _ in 0..c[0] {
        s.push('?');
    }
    s
}

/// A play fitted to the board: the tiles laid and the words formed, or
/// why not; the rack read.
type Fit = (Result<(Laid, Vec<Vec<Tile>>), String>, Option<Counts>);

fn fit_play(rules: &Rules, pos: &Position, e: &Event, full: bool) -> Fit {
    let EventKind::Play { word, .. } = &e.kind else {
        unreachable!()
    };
    let mut best: Option<(u8, Fit)> = None;
    let options = word_options(rules, word);
    if options.is_empty() {
        return (Err(format!("{word:?} is not tiles")), None);
    }
    for w in options {
        let fit: Fit = match lay(pos, e, &w, rules) {
            Err(why) => (Err(why), None),
            Ok(laid) => {
                let mut need = [0u32; 64];
                for (_, _, t, placed) in &laid {
                    if *placed {
                        need[if t.blank { 0 } else { t.code as usize }] += 1;
                    }
                }
                let rack = (!e.rack.is_empty())
                    .then(|| pick_rack(rules, pos, &e.rack, &need, full))
                    .flatten();
                if !e.rack.is_empty() && rack.is_none() {
                    (Err(format!("rack {:?} is not tiles", e.rack)), None)
                } else {
                    let words = check_placement(rules, pos, e, &laid, rack.as_ref());
                    (words.map(|w| (laid, w)), rack)
                }
            }
        };
        let rank = match &fit.0 {
            Ok((_, words)) => {
                if words
                    .iter()
                    .all(|w| rules.is_word(&w.iter().map(|t| t.code).collect::<Vec<_>>()))
                {
                    2
                } else {
                    1
                }
            }
            Err(_) => 0,
        };
        if best.as_ref().is_none_or(|(r, _)| rank > *r) {
            best = Some((rank, fit));
        }
        if rank == 2 {
            break;
        }
    }
    best.expect("a reading").1
}

/// Replays the first `turns` events of `game` (all if `None`) on a
/// `size` board, checking each as described in the module comment.
pub fn replay(rules: &Rules, game: &Game, size: usize, turns: Option<usize>) -> Replay {
    let players = game.player_count();
    let mut st = Replay {
        pos: empty_position(rules, size),
        scores: vec![0; players],
        problems: Vec::new(),
    };
    let wespa = game
        .events
        .iter()
        .any(|e| matches!(e.kind, EventKind::EndRackPenalty { .. }));
    let size_of_rack = rules.rack_size as u32;
    // The tiles laid by each event (to lift them on `--`).
    let mut laid_by: Vec<Option<Laid>> = Vec::new();
    let mut zeros = 0u32;
    let mut zeros_before: Vec<u32> = Vec::new();
    let mut ended: Option<usize> = None;
    let mut out: Option<usize> = None;
    let events = &game.events[..turns.unwrap_or(game.events.len()).min(game.events.len())];
    for (i, e) in events.iter().enumerate() {
        let mut found: Vec<(&'static str, String)> = Vec::new();
        let mut problem = |kind, detail: String| found.push((kind, detail));
        let is_move = matches!(
            e.kind,
            EventKind::Play { .. }
                | EventKind::Pass
                | EventKind::Exchange { .. }
                | EventKind::ExchangeCount(_)
        );
        if let (true, Some(l)) = (is_move, ended) {
            problem("after-end", format!("the game ended on line {l}"));
        }
        let left = left_over(rules, &st.pos);
        let full = total(&left) > players as u32 * size_of_rack;
        let rack_checks = |rack: &Counts, problem: &mut dyn FnMut(&'static str, String)| {
            if total(rack) > size_of_rack {
                problem("rack", format!("{} tiles", total(rack)));
            }
            if let Some(why) = over_set(rules, &st.pos, rack) {
                problem("tiles", why);
            }
        };
        let mut laid_now = None;
        zeros_before.push(zeros);
        match &e.kind {
            EventKind::Play { .. } => {
                let (fit, rack) = fit_play(rules, &st.pos, e, full);
                if let Some(r) = &rack {
                    rack_checks(r, &mut problem);
                }
                match fit {
                    Err(why) => problem("placement", why),
                    Ok((laid, words)) => {
                        let withdrawn = game.events.get(i + 1).is_some_and(|x| {
                            x.player == e.player && x.kind == EventKind::PhonyWithdrawn
                        });
                        let bad: Vec<String> = words
                            .iter()
                            .filter(|w| {
                                !rules.is_word(&w.iter().map(|t| t.code).collect::<Vec<_>>())
                            })
                            .map(|w| w.iter().map(|&t| rules.tile_text(t)).collect())
                            .collect();
                        if !bad.is_empty() && !withdrawn {
                            problem("phony", bad.join(", "));
                        }
                        let score = score_of(rules, &st.pos, &laid, &words);
                        if score != e.score {
                            problem("score", format!("scores {score}, written {}", e.score));
                        }
                        let n = st.pos.size();
                        let mut placed = [0u32; 64];
                        for (r, c, t, p) in &laid {
                            if *p {
                                st.pos.squares[r * n + c] = Some(*t);
                                placed[if t.blank { 0 } else { t.code as usize }] += 1;
                            }
                        }
                        zeros = if e.score == 0 { zeros + 1 } else { 0 };
                        let after = left_over(rules, &st.pos);
                        let emptied = rack.is_some_and(|r| r == placed);
                        if emptied
                            && !withdrawn
                            && total(&after) <= (players as u32 - 1) * size_of_rack
                        {
                            ended.get_or_insert(e.line);
                            out = Some(e.player);
                        }
                        laid_now = Some(laid);
                    }
                }
            }
            EventKind::PhonyWithdrawn => {
                let prev = &game.events[i - 1];
                if e.score != -prev.score {
                    problem(
                        "score",
                        format!("withdraws {}, written {}", prev.score, e.score),
                    );
                }
                if let Some(Some(laid)) = laid_by.get(i - 1) {
                    let n = st.pos.size();
                    for (r, c, _, placed) in laid {
                        if *placed {
                            st.pos.squares[r * n + c] = None;
                        }
                    }
                    zeros = zeros_before[i - 1] + 1;
                } else {
                    zeros += 1;
                }
            }
            EventKind::Pass | EventKind::ExchangeCount(_) => {
                zeros += 1;
                if let Some(r) = pick_rack(rules, &st.pos, &e.rack, &[0; 64], full) {
                    rack_checks(&r, &mut problem);
                    if let EventKind::ExchangeCount(k) = e.kind {
                        if k as u32 > total(&r) {
                            problem("exchange", format!("{k} tiles from {}", e.rack));
                        }
                    }
                }
            }
            EventKind::Exchange { tiles } => {
                zeros += 1;
                if !e.rack.is_empty() {
                    let pick = |need: &Counts| pick_rack(rules, &st.pos, &e.rack, need, full);
                    // Both readings: the rack holding the tiles within the
                    // set first, then holding them, then within the set.
                    let pairs: Vec<(Counts, Counts)> = rack_options(rules, tiles)
                        .into_iter()
                        .filter_map(|t| pick(&t).map(|r| (t, r)))
                        .collect();
                    let key = |(t, r): &(Counts, Counts)| {
                        let fits = over_set(rules, &st.pos, r).is_none();
                        (holds(r, t) && fits, holds(r, t), fits)
                    };
                    let best = pairs.iter().map(key).max();
                    if let Some((t, r)) = pairs.iter().find(|p| Some(key(p)) == best) {
                        rack_checks(r, &mut problem);
                        if !holds(r, t) {
                            problem("exchange", format!("{tiles} from {}", e.rack));
                        }
                    }
                }
            }
            EventKind::EndRackPoints { tiles } => {
                ended.get_or_insert(e.line);
                let empty_bag = total(&left) <= (players as u32 - 1) * size_of_rack;
                let options = rack_options(rules, tiles);
                let counted = options
                    .iter()
                    .find(|o| empty_bag && **o == left)
                    .or(options.iter().find(|o| holds(&left, o)))
                    .or(options.first())
                    .copied();
                if let Some(c) = counted {
                    let v = value_of(rules, &c);
                    let want = if wespa { v } else { 2 * v };
                    if e.score != want {
                        problem("score", format!("({tiles}) is worth {want}"));
                    }
                    if empty_bag && c != left {
                        problem(
                            "end",
                            format!(
                                "({tiles}), the tiles left are {}",
                                counts_text(rules, &left)
                            ),
                        );
                    }
                }
                match out {
                    Some(q) if q != e.player => problem("end", format!("player {q} went out")),
                    None if !empty_bag => problem("end", "nobody went out".into()),
                    _ => {}
                }
            }
            EventKind::EndRackPenalty { tiles } => {
                ended.get_or_insert(e.line);
                // Readings among the tiles left first.
                let mut own = rack_options(rules, &e.rack);
                own.sort_by_key(|o| !holds(&left, o));
                let mut options = rack_options(rules, tiles);
                options.sort_by_key(|o| !holds(&left, o));
                let counted = options
                    .iter()
                    .find(|o| own.first() == Some(*o))
                    .or(options.first())
                    .copied();
                if let Some(c) = counted {
                    let v = value_of(rules, &c);
                    if e.score != -v {
                        problem("score", format!("({tiles}) costs {v}"));
                    }
                    if !e.rack.is_empty() && own.first() != Some(&c) {
                        problem("end", format!("{} is not ({tiles})", e.rack));
                    }
                    if !holds(&left, &c) {
                        problem("end", format!("({tiles}) are not all left"));
                    }
                }
            }
            _ => {}
        }
        if zeros >= 6 && (is_move || e.kind == EventKind::PhonyWithdrawn) {
            ended.get_or_insert(e.line);
        }
        laid_by.push(laid_now);
        let want = st.scores[e.player] + e.score;
        if e.cumulative != want {
            problem(
                "cumulative",
                format!(
                    "{} + {} is {want}, written {}",
                    st.scores[e.player], e.score, e.cumulative
                ),
            );
        }
        st.scores[e.player] = e.cumulative;
        st.problems
            .extend(found.into_iter().map(|(kind, detail)| Problem {
                line: e.line,
                kind,
                detail,
            }));
    }
    st
}
