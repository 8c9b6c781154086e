//! An independent replay and check of GCG games, on the brute force's own
//! board (`brute.rs`): the oracle for `lexq gcg --turn` and `--check`.
//!
//! Only the parsing of the file is lexq's (`lexq::gcg::Game`); placing
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
//!   once.

use lexq::gcg::{Event, EventKind, Game};

use super::brute::{BruteMove, Position, Rules, Tile, brute_moves_at, parse_cgp};

/// A problem found on a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub line: usize,
    /// `placement`, `phony`, `score` or `cumulative`.
    pub kind: &'static str,
    pub detail: String,
}

/// The state of a replayed game.
pub struct Replay {
    pub pos: Position,
    /// Written cumulative totals so far.
    pub scores: [i32; 2],
    pub problems: Vec<Problem>,
}

/// A play's tiles as written: (row, col, tile, placed).
type Laid = Vec<(usize, usize, Tile, bool)>;

fn empty_position(rules: &Rules, size: usize) -> Position {
    let board = vec![size.to_string(); size].join("/");
    parse_cgp(rules, &format!("{board} / 0/0 0")).expect("an empty board")
}

/// Reads a GCG word (`CA(R)E`, `CA.E`, blanks lowercase) at `coord` on
/// `pos` into squares and tiles; `None` if it does not fit the board or
/// its play-through letters are not those on the board.
fn lay(rules: &Rules, pos: &Position, e: &Event) -> Result<Laid, String> {
    let EventKind::Play { coord, word } = &e.kind else {
        unreachable!("only plays are laid")
    };
    let n = pos.size();
    let chars: Vec<char> = word.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut through = false;
    let mut k = 0;
    while i < chars.len() {
        let c = chars[i];
        let (r, col) = if coord.across {
            (coord.row, coord.col + k)
        } else {
            (coord.row + k, coord.col)
        };
        match c {
            '(' => {
                through = true;
                i += 1;
                continue;
            }
            ')' => {
                through = false;
                i += 1;
                continue;
            }
            _ => {}
        }
        if r >= n || col >= n {
            return Err(format!("{} runs off the board", e.notation()));
        }
        let on_board = pos.at(r, col);
        if c == '.' {
            let t = on_board.ok_or_else(|| format!("no tile under the . at {}", k + 1))?;
            out.push((r, col, t, false));
            i += 1;
            k += 1;
            continue;
        }
        // A tile: [XY] or the longest label, same case.
        let (text, used): (Vec<char>, usize) = if c == '[' {
            let end = chars[i..]
                .iter()
                .position(|&x| x == ']')
                .ok_or("unclosed [")?;
            (chars[i + 1..i + end].to_vec(), end + 1)
        } else {
            let blank = c.is_lowercase();
            let run: Vec<char> = chars[i..]
                .iter()
                .take_while(|x| x.is_alphabetic() && x.is_lowercase() == blank)
                .copied()
                .collect();
            let upper: Vec<char> = run.iter().flat_map(|x| x.to_uppercase()).collect();
            let (_, len) = rules
                .alpha
                .tile_at(&upper)
                .ok_or_else(|| format!("{c:?} is not a tile"))?;
            (run[..len].to_vec(), len)
        };
        let blank = text[0].is_lowercase();
        let upper: Vec<char> = text.iter().flat_map(|x| x.to_uppercase()).collect();
        let (code, len) = rules
            .alpha
            .tile_at(&upper)
            .ok_or_else(|| format!("{:?} is not a tile", String::from_iter(&text)))?;
        if len != upper.len() {
            return Err(format!("{:?} is not a tile", String::from_iter(&text)));
        }
        let tile = Tile { code, blank };
        if through {
            match on_board {
                Some(t) if t.code == code => out.push((r, col, t, false)),
                _ => return Err(format!("({}) is not on the board", rules.tile_text(tile))),
            }
        } else {
            if on_board.is_some() {
                return Err(format!("square {} is taken", k + 1));
            }
            out.push((r, col, tile, true));
        }
        i += used;
        k += 1;
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

/// Checks the geometry of a play; the words it forms on success.
fn check_placement(
    rules: &Rules,
    pos: &Position,
    e: &Event,
    laid: &Laid,
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
    if !e.rack.is_empty() {
        let rack = parse_cgp(
            rules,
            &format!("{} {}/ 0/0 0", vec!["15"; 15].join("/"), e.rack),
        )
        .map_err(|x| format!("rack {:?}: {x}", e.rack))?
        .rack;
        let mut need = [0u8; 64];
        for (_, _, t, _) in &placed {
            need[if t.blank { 0 } else { t.code as usize }] += 1;
        }
        if (0..64).any(|k| need[k] > rack[k]) {
            return Err(format!("tiles not on the rack {}", e.rack));
        }
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

fn value(rules: &Rules, tiles: &str) -> i32 {
    let board = vec!["15"; 15].join("/");
    let pos = parse_cgp(rules, &format!("{board} {tiles}/ 0/0 0")).expect("tiles");
    (1..64)
        .map(|k| pos.rack[k] as i32 * rules.values.get(k).copied().unwrap_or(0))
        .sum()
}

/// Replays the first `turns` events of `game` (all if `None`) on a
/// `size` board, checking each as described in the module comment.
pub fn replay(rules: &Rules, game: &Game, size: usize, turns: Option<usize>) -> Replay {
    let mut st = Replay {
        pos: empty_position(rules, size),
        scores: [0, 0],
        problems: Vec::new(),
    };
    let wespa = game
        .events
        .iter()
        .any(|e| matches!(e.kind, EventKind::EndRackPenalty { .. }));
    // The tiles laid by each event (to lift them on `--`).
    let mut laid_by: Vec<Option<Laid>> = Vec::new();
    let events = &game.events[..turns.unwrap_or(game.events.len()).min(game.events.len())];
    for (i, e) in events.iter().enumerate() {
        let mut problem = |kind, detail: String| {
            st.problems.push(Problem {
                line: e.line,
                kind,
                detail,
            })
        };
        let mut laid_now = None;
        match &e.kind {
            EventKind::Play { .. } => match lay(rules, &st.pos, e)
                .and_then(|laid| check_placement(rules, &st.pos, e, &laid).map(|w| (laid, w)))
            {
                Err(why) => problem("placement", why),
                Ok((laid, words)) => {
                    let withdrawn = game.events.get(i + 1).is_some_and(|x| {
                        x.player == e.player && x.kind == EventKind::PhonyWithdrawn
                    });
                    let bad: Vec<String> = words
                        .iter()
                        .filter(|w| !rules.is_word(&w.iter().map(|t| t.code).collect::<Vec<_>>()))
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
                    for (r, c, t, placed) in &laid {
                        if *placed {
                            st.pos.squares[r * n + c] = Some(*t);
                        }
                    }
                    laid_now = Some(laid);
                }
            },
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
                }
            }
            EventKind::EndRackPoints { tiles } => {
                let v = value(rules, tiles);
                let want = if wespa { v } else { 2 * v };
                if e.score != want {
                    problem("score", format!("({tiles}) is worth {want}"));
                }
            }
            EventKind::EndRackPenalty { tiles } => {
                let v = value(rules, tiles);
                if e.score != -v {
                    problem("score", format!("({tiles}) costs {v}"));
                }
            }
            _ => {}
        }
        laid_by.push(laid_now);
        let want = st.scores[e.player] + e.score;
        if e.cumulative != want {
            st.problems.push(Problem {
                line: e.line,
                kind: "cumulative",
                detail: format!(
                    "{} + {} is {want}, written {}",
                    st.scores[e.player], e.score, e.cumulative
                ),
            });
        }
        st.scores[e.player] = e.cumulative;
    }
    st
}
