//! A seeded sampler of varied positions, written as CGP lines.
//!
//! It plays its own games with the brute-force generator (`brute.rs`):
//! tiles drawn from a shuffled bag, each turn one of the best few moves
//! (chosen by the seed), an exchange or a pass when nothing is playable,
//! until a player goes out or six scoreless turns. Every position of the
//! game is kept: the empty board, the middle game, the nearly full board,
//! the end with the bag empty. [`varied_positions`] then also redraws the
//! mover's rack from the unseen tiles to hold exactly 0, 1 or 2 blanks.
//! Everything is deterministic per seed; nothing here uses the library.

use super::brute::{BruteMove, Layout, Position, Rules, Tile, brute_moves_at};

/// A small deterministic generator (SplitMix64).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

/// One sampled position.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The position as a CGP line (the mover's rack, the opponent's
    /// unknown), followed by the caller's opcodes.
    pub cgp: String,
    /// Blanks on the mover's rack.
    pub blanks: usize,
    /// Tiles on the board.
    pub on_board: usize,
    /// Whether the bag was empty (unseen tiles all on the two racks).
    pub bag_empty: bool,
}

/// A game in progress.
struct Game<'a> {
    rules: &'a Rules,
    pos: Position,
    bag: Vec<u8>,
    racks: [Vec<u8>; 2],
    scores: [i32; 2],
    zeros: u32,
    turn: usize,
}

/// Tile codes of a full set (0 = blank).
fn full_set(rules: &Rules) -> Vec<u8> {
    let mut v = Vec::new();
    for (code, &n) in rules.counts.iter().enumerate() {
        v.extend(std::iter::repeat_n(code as u8, n as usize));
    }
    v
}

/// Writes tiles as CGP rack text, in an order whose greedy reading gives
/// back the same tiles (so `C`,`H` is never written as `CH`). `None` if no
/// order found.
fn rack_text(rules: &Rules, tiles: &[u8], rng: &mut Rng) -> Option<String> {
    let spell = |order: &[u8]| -> String {
        order
            .iter()
            .map(|&c| {
                if c == 0 {
                    "?".to_string()
                } else {
                    rules.cgp_text(Tile {
                        code: c,
                        blank: false,
                    })
                }
            })
            .collect()
    };
    let mut order = tiles.to_vec();
    order.sort();
    for _ in 0..50 {
        let text = spell(&order);
        if reads_back(rules, &text, &order) {
            return Some(text);
        }
        rng.shuffle(&mut order);
    }
    None
}

/// Whether greedy reading of rack `text` gives the tiles `order`.
fn reads_back(rules: &Rules, text: &str, order: &[u8]) -> bool {
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut got = Vec::new();
    while i < chars.len() {
        if chars[i] == '?' {
            got.push(0);
            i += 1;
        } else if chars[i] == '[' {
            let end = i + chars[i..].iter().position(|&c| c == ']').unwrap_or(0);
            let label: String = chars[i + 1..end].iter().collect();
            got.push(rules.alpha.code(&label));
            i = end + 1;
        } else {
            let run: Vec<char> = chars[i..]
                .iter()
                .take_while(|c| c.is_alphabetic())
                .copied()
                .collect();
            match rules.alpha.tile_at(&run) {
                Some((code, n)) => {
                    got.push(code);
                    i += n;
                }
                None => return false,
            }
        }
    }
    got == order
}

/// The board part of a CGP line.
pub fn board_text(rules: &Rules, pos: &Position) -> String {
    let n = pos.size();
    let mut rows = Vec::new();
    for r in 0..n {
        let mut s = String::new();
        let mut gap = 0;
        for c in 0..n {
            match pos.at(r, c) {
                None => gap += 1,
                Some(t) => {
                    if gap > 0 {
                        s += &gap.to_string();
                        gap = 0;
                    }
                    s += &rules.cgp_text(t);
                }
            }
        }
        if gap > 0 {
            s += &gap.to_string();
        }
        rows.push(s);
    }
    rows.join("/")
}

impl<'a> Game<'a> {
    fn new(rules: &'a Rules, layout: &Layout, rng: &mut Rng) -> Game<'a> {
        let mut bag = full_set(rules);
        rng.shuffle(&mut bag);
        let mut g = Game {
            rules,
            pos: Position {
                layout: layout.clone(),
                squares: vec![None; layout.size * layout.size],
                rack: [0; 64],
                bingo: rules.bingo,
            },
            bag,
            racks: [Vec::new(), Vec::new()],
            scores: [0, 0],
            zeros: 0,
            turn: 0,
        };
        g.draw(0);
        g.draw(1);
        g
    }

    fn draw(&mut self, p: usize) {
        while self.racks[p].len() < self.rules.rack_size {
            match self.bag.pop() {
                Some(t) => self.racks[p].push(t),
                None => break,
            }
        }
    }

    fn set_rack(&mut self, tiles: &[u8]) {
        self.pos.rack = [0; 64];
        for &t in tiles {
            self.pos.rack[t as usize] += 1;
        }
    }

    /// The unseen tiles from the mover's point of view: the set minus the
    /// board.
    fn unseen(&self) -> Vec<u8> {
        let mut counts = self.rules.counts.clone();
        for t in self.pos.squares.iter().flatten() {
            let code = if t.blank { 0 } else { t.code as usize };
            counts[code] -= 1;
        }
        let mut v = Vec::new();
        for (code, &n) in counts.iter().enumerate() {
            v.extend(std::iter::repeat_n(code as u8, n as usize));
        }
        v
    }

    fn cgp(&self, rack: &[u8], rng: &mut Rng, opcodes: &str) -> Option<String> {
        let me = self.turn % 2;
        let rack = rack_text(self.rules, rack, rng)?;
        let mut s = format!(
            "{} {rack}/ {}/{} {}",
            board_text(self.rules, &self.pos),
            self.scores[me],
            self.scores[1 - me],
            self.zeros
        );
        if !opcodes.is_empty() {
            s.push(' ');
            s += opcodes;
        }
        Some(s)
    }

    /// Plays one turn (one of the best few moves, else exchange or pass).
    /// Returns false when the game is over.
    fn step(&mut self, rng: &mut Rng) -> bool {
        let me = self.turn % 2;
        let rack = self.racks[me].clone();
        self.set_rack(&rack);
        let mut moves = brute_moves_at(self.rules, &self.pos);
        if moves.is_empty() {
            if self.bag.len() >= self.rules.rack_size {
                // Exchange everything.
                let old = std::mem::take(&mut self.racks[me]);
                self.draw(me);
                self.bag.extend(old);
                rng.shuffle(&mut self.bag);
            }
            self.zeros += 1;
            self.turn += 1;
            return self.zeros < 6;
        }
        moves.sort_by(|a, b| b.score.cmp(&a.score).then(a.cmp(b)));
        let pick = moves[rng.below(moves.len().min(3))].clone();
        self.apply(me, &pick);
        self.scores[me] += pick.score;
        self.zeros = 0;
        self.draw(me);
        self.turn += 1;
        !self.racks[me].is_empty()
    }

    /// Lays the tiles of `m` and takes them off player `me`'s rack.
    fn apply(&mut self, me: usize, m: &BruteMove) {
        let n = self.pos.size();
        let word = self.tiles_of(&m.word);
        let placed = self.placed_of(&m.placed, &word);
        for (k, (w, p)) in word.iter().zip(&placed).enumerate() {
            let (r, c) = if m.across {
                (m.row, m.col + k)
            } else {
                (m.row + k, m.col)
            };
            if *p {
                self.pos.squares[r * n + c] = Some(*w);
                let code = if w.blank { 0 } else { w.code };
                let i = self.racks[me]
                    .iter()
                    .position(|&t| t == code)
                    .expect("tile on rack");
                self.racks[me].swap_remove(i);
            }
        }
    }

    /// Reads a brute word back into tiles.
    fn tiles_of(&self, word: &str) -> Vec<Tile> {
        let chars: Vec<char> = word.chars().collect();
        let mut out = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            let blank = chars[i].is_lowercase();
            let run: Vec<char> = chars[i..]
                .iter()
                .take_while(|c| c.is_lowercase() == blank)
                .flat_map(|c| c.to_uppercase())
                .collect();
            let (code, k) = self.rules.alpha.tile_at(&run).expect("a tile");
            out.push(Tile { code, blank });
            i += k;
        }
        out
    }

    fn placed_of(&self, placed: &str, word: &[Tile]) -> Vec<bool> {
        let chars: Vec<char> = placed.chars().collect();
        let mut i = 0;
        let mut out = Vec::new();
        for t in word {
            if chars[i] == '.' {
                out.push(false);
                i += 1;
            } else {
                out.push(true);
                i += self.rules.alpha.label(t.code).chars().count();
            }
        }
        out
    }
}

/// Every position of one self-played game (racks as drawn), in order.
/// `opcodes` is appended to each CGP line (for example `lex NWL;`).
pub fn game_positions(rules: &Rules, layout: &Layout, seed: u64, opcodes: &str) -> Vec<Sample> {
    let mut rng = Rng::new(seed);
    let mut game = Game::new(rules, layout, &mut rng);
    let mut out = Vec::new();
    loop {
        let me = game.turn % 2;
        let rack = game.racks[me].clone();
        if let Some(cgp) = game.cgp(&rack, &mut rng, opcodes) {
            out.push(Sample {
                cgp,
                blanks: rack.iter().filter(|&&t| t == 0).count(),
                on_board: game.pos.squares.iter().flatten().count(),
                bag_empty: game.bag.is_empty(),
            });
        }
        if !game.step(&mut rng) {
            break;
        }
    }
    out
}

/// `n` varied positions: whole games (seeded from `seed`), each
/// position once as drawn and once with the mover's rack redrawn from the
/// unseen tiles to hold exactly 0, 1 or 2 blanks (in turn, when the unseen
/// tiles allow). Covers the empty board, mid-game, nearly full boards and
/// empty bags.
pub fn varied_positions(
    rules: &Rules,
    layout: &Layout,
    seed: u64,
    n: usize,
    opcodes: &str,
) -> Vec<Sample> {
    let mut rng = Rng::new(seed.wrapping_mul(31).wrapping_add(7));
    let mut out = Vec::new();
    let mut game_no = 0u64;
    while out.len() < n {
        let mut g = Game::new(rules, layout, &mut rng);
        let mut k = 0usize;
        loop {
            let me = g.turn % 2;
            let rack = g.racks[me].clone();
            let bag_empty = g.bag.is_empty();
            if let Some(cgp) = g.cgp(&rack, &mut rng, opcodes) {
                out.push(Sample {
                    cgp,
                    blanks: rack.iter().filter(|&&t| t == 0).count(),
                    on_board: g.pos.squares.iter().flatten().count(),
                    bag_empty,
                });
            }
            // A variant with exactly `want` blanks, drawn from the unseen.
            let want = k % 3;
            k += 1;
            let unseen = g.unseen();
            let blanks = unseen.iter().filter(|&&t| t == 0).count();
            if blanks >= want && !bag_empty {
                let mut others: Vec<u8> = unseen.iter().copied().filter(|&t| t != 0).collect();
                rng.shuffle(&mut others);
                let mut rack = vec![0u8; want];
                rack.extend(others.iter().take(rules.rack_size - want));
                if let Some(cgp) = g.cgp(&rack, &mut rng, opcodes) {
                    out.push(Sample {
                        cgp,
                        blanks: want,
                        on_board: g.pos.squares.iter().flatten().count(),
                        bag_empty: false,
                    });
                }
            }
            if !g.step(&mut rng) {
                break;
            }
        }
        game_no += 1;
        assert!(game_no < 1000, "the sampler makes progress");
    }
    // Evenly spread over what was collected, so that a small `n` still
    // reaches the end of a game; the empty board always comes first.
    let total = out.len();
    (0..n).map(|i| out[i * total / n].clone()).collect()
}

// ---------------------------------------------------------------------------
// GCG games

/// Special events to put into a generated GCG game, by turn number (0 =
/// the first turn), and deliberate mistakes.
#[derive(Clone, Debug, Default)]
pub struct Script {
    /// Exchange three tiles on this turn (if the bag allows).
    pub exchange: Option<usize>,
    /// Pass on this turn.
    pub pass: Option<usize>,
    /// Play a phony on this turn, then withdraw it (`--`).
    pub phony_withdrawn: Option<usize>,
    /// The play of this turn is challenged in vain: `(challenge) +5`.
    pub challenge: Option<usize>,
    /// A 10-point time penalty for the player of this turn, at the end.
    pub time_penalty: Option<usize>,
    /// End the game WESPA-style: the player out gets the opponent's tiles
    /// once, the opponent loses them (`RACK (RACK) -N`).
    pub wespa_end: bool,
    /// Mistake: a phony left on the board.
    pub phony_kept: Option<usize>,
    /// Mistake: the score written 3 too high (the cumulative follows it).
    pub wrong_score: Option<usize>,
    /// Mistake: the cumulative written 10 too high.
    pub wrong_cumulative: Option<usize>,
    /// Mistake: the play's tiles placed away from every tile (not laid).
    pub illegal: Option<usize>,
}

/// A generated GCG game.
pub struct GcgGame {
    pub text: String,
    /// The deliberate mistakes: (line, "phony" | "score" | "cumulative" |
    /// "placement").
    pub mistakes: Vec<(usize, &'static str)>,
    /// The written final totals.
    pub final_scores: [i32; 2],
}

/// Tiles as a GCG rack: sorted, blanks as `?` at the end.
fn gcg_rack(rules: &Rules, tiles: &[u8]) -> String {
    let mut v = tiles.to_vec();
    v.sort_by_key(|&t| if t == 0 { u8::MAX } else { t });
    v.iter()
        .map(|&t| {
            if t == 0 {
                "?".to_string()
            } else {
                rules.cgp_text(Tile {
                    code: t,
                    blank: false,
                })
            }
        })
        .collect()
}

/// A word list of two- and three-letter non-words (for phonies).
pub fn phony_rules(real: &Rules) -> Rules {
    let mut text = String::new();
    for a in 1..=26u8 {
        for b in 1..=26u8 {
            let w2 = [a, b];
            if !real.is_word(&w2) {
                text += &real.alpha.spell(&w2);
                text.push('\n');
            }
            for c in 1..=26u8 {
                let w3 = [a, b, c];
                if !real.is_word(&w3) {
                    text += &real.alpha.spell(&w3);
                    text.push('\n');
                }
            }
        }
    }
    Rules::english(&text)
}

/// Plays a greedy-ish game with the brute force (English tiles) and
/// writes it as GCG, with the scripted events and mistakes.
pub fn gcg_game(rules: &Rules, fake: &Rules, seed: u64, script: &Script, header: &str) -> GcgGame {
    let layout = Layout::standard();
    let mut rng = Rng::new(seed);
    let mut g = Game::new(rules, &layout, &mut rng);
    let nick = ["ann", "bob"];
    let mut lines: Vec<String> = header.lines().map(str::to_string).collect();
    let mut mistakes = Vec::new();
    let mut time_penalty_for = None;
    let mut out_player = None;
    loop {
        if g.zeros >= 6 {
            break;
        }
        let t = g.turn;
        let me = t % 2;
        let rack_text = gcg_rack(rules, &g.racks[me]);
        let rack = g.racks[me].clone();
        g.set_rack(&rack);
        if script.time_penalty == Some(t) {
            time_penalty_for = Some(me);
        }
        if script.pass == Some(t) {
            lines.push(format!(">{}: {rack_text} - +0 {}", nick[me], g.scores[me]));
            g.zeros += 1;
            g.turn += 1;
            continue;
        }
        if script.exchange == Some(t) && g.bag.len() >= rules.rack_size {
            let mut sorted = rack.clone();
            sorted.sort_by_key(|&x| if x == 0 { u8::MAX } else { x });
            let back: Vec<u8> = sorted[..3].to_vec();
            for b in &back {
                let i = g.racks[me].iter().position(|x| x == b).expect("on rack");
                g.racks[me].swap_remove(i);
            }
            g.draw(me);
            g.bag.extend(back.iter().copied());
            rng.shuffle(&mut g.bag);
            lines.push(format!(
                ">{}: {rack_text} -{} +0 {}",
                nick[me],
                gcg_rack(rules, &back),
                g.scores[me]
            ));
            g.zeros += 1;
            g.turn += 1;
            continue;
        }
        if script.phony_withdrawn == Some(t) || script.phony_kept == Some(t) {
            let mut fakes = brute_moves_at(fake, &g.pos);
            fakes.sort_by(|a, b| b.score.cmp(&a.score).then(a.cmp(b)));
            if let Some(m) = fakes.first().cloned() {
                let score = m.score;
                lines.push(format!(
                    ">{}: {rack_text} {} +{score} {}",
                    nick[me],
                    m.notation(),
                    g.scores[me] + score
                ));
                if script.phony_kept == Some(t) {
                    mistakes.push((lines.len(), "phony"));
                    g.apply(me, &m);
                    g.scores[me] += score;
                    g.zeros = 0;
                    g.draw(me);
                } else {
                    lines.push(format!(
                        ">{}: {rack_text} -- -{score} {}",
                        nick[me], g.scores[me]
                    ));
                    g.zeros += 1;
                }
                g.turn += 1;
                continue;
            }
        }
        let mut moves = brute_moves_at(rules, &g.pos);
        if moves.is_empty() {
            lines.push(format!(">{}: {rack_text} - +0 {}", nick[me], g.scores[me]));
            g.zeros += 1;
            g.turn += 1;
            continue;
        }
        moves.sort_by(|a, b| b.score.cmp(&a.score).then(a.cmp(b)));
        let m = moves[rng.below(moves.len().min(3))].clone();
        if script.illegal == Some(t) {
            if let Some(text) = floating(&g, &m) {
                lines.push(format!(
                    ">{}: {rack_text} {text} +{} {}",
                    nick[me],
                    m.score,
                    g.scores[me] + m.score
                ));
                mistakes.push((lines.len(), "placement"));
                g.scores[me] += m.score;
                g.turn += 1;
                continue;
            }
        }
        let mut written = m.score;
        if script.wrong_score == Some(t) {
            written += 3;
        }
        g.scores[me] += written;
        let mut cum = g.scores[me];
        if script.wrong_cumulative == Some(t) {
            cum += 10;
            g.scores[me] += 10;
        }
        lines.push(format!(
            ">{}: {rack_text} {} +{written} {cum}",
            nick[me],
            m.notation()
        ));
        if script.wrong_score == Some(t) {
            mistakes.push((lines.len(), "score"));
        }
        if script.wrong_cumulative == Some(t) {
            mistakes.push((lines.len(), "cumulative"));
        }
        g.apply(me, &m);
        g.zeros = 0;
        g.draw(me);
        if script.challenge == Some(t) {
            g.scores[me] += 5;
            lines.push(format!(
                ">{}: {} (challenge) +5 {}",
                nick[me],
                gcg_rack(rules, &g.racks[me]),
                g.scores[me]
            ));
        }
        g.turn += 1;
        if g.racks[me].is_empty() {
            out_player = Some(me);
            break;
        }
    }
    let value = |tiles: &[u8]| -> i32 { tiles.iter().map(|&t| rules.values[t as usize]).sum() };
    match out_player {
        Some(me) => {
            let opp = 1 - me;
            let left = g.racks[opp].clone();
            let v = value(&left);
            if script.wespa_end {
                g.scores[me] += v;
                lines.push(format!(
                    ">{}: ({}) +{v} {}",
                    nick[me],
                    gcg_rack(rules, &left),
                    g.scores[me]
                ));
                g.scores[opp] -= v;
                lines.push(format!(
                    ">{}: {} ({}) -{v} {}",
                    nick[opp],
                    gcg_rack(rules, &left),
                    gcg_rack(rules, &left),
                    g.scores[opp]
                ));
            } else {
                g.scores[me] += 2 * v;
                lines.push(format!(
                    ">{}: ({}) +{} {}",
                    nick[me],
                    gcg_rack(rules, &left),
                    2 * v,
                    g.scores[me]
                ));
            }
        }
        None => {
            // Six scoreless turns: each loses their own tiles.
            for (p, name) in nick.iter().enumerate() {
                let left = g.racks[p].clone();
                let v = value(&left);
                g.scores[p] -= v;
                lines.push(format!(
                    ">{name}: {} ({}) -{v} {}",
                    gcg_rack(rules, &left),
                    gcg_rack(rules, &left),
                    g.scores[p]
                ));
            }
        }
    }
    if let Some(p) = time_penalty_for {
        g.scores[p] -= 10;
        lines.push(format!(">{}: (time) -10 {}", nick[p], g.scores[p]));
    }
    let mut text = lines.join("\n");
    text.push('\n');
    GcgGame {
        text,
        mistakes,
        final_scores: g.scores,
    }
}

/// The placed tiles of `m` written as a play somewhere touching no tile
/// (an illegal placement), or `None` if there is no room.
fn floating(g: &Game<'_>, m: &BruteMove) -> Option<String> {
    let tiles: String = m.placed.chars().filter(|&c| c != '.').collect();
    let len = tiles.chars().count();
    let n = g.pos.size();
    let occupied = |r: isize, c: isize| {
        r >= 0
            && c >= 0
            && (r as usize) < n
            && (c as usize) < n
            && g.pos.at(r as usize, c as usize).is_some()
    };
    for r in 0..n {
        for c in 0..n.saturating_sub(len - 1) {
            let clear = (-1..=1).all(|dr| {
                (-1..=len as isize).all(|dc| !occupied(r as isize + dr, c as isize + dc))
            });
            let start = g.pos.layout.start;
            let covers_start = r == start.0 && (c..c + len).contains(&start.1);
            if clear && !covers_start {
                let col = (b'A' + c as u8) as char;
                return Some(format!("{}{col} {tiles}", r + 1));
            }
        }
    }
    None
}
