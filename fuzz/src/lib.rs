//! lexq's fuzz targets as plain functions of the fuzzer's bytes.
//!
//! Each `fuzz_targets/NAME.rs` calls the function `NAME` here, and
//! `tests/all/fuzz_replay.rs` (in the lexq package, run by `cargo test`)
//! includes this file and replays every input under `fuzz/corpus/` and
//! `fuzz/regressions/` through the same functions. A target fails by
//! panicking: on its own (no input may panic lexq) or on a broken property
//! asserted here.

use std::sync::OnceLock;

use lexq::{Alphabet, Lexicon, WordList, build};

/// Lexicons with more GADDAG keys than this are opened but not enumerated
/// (a crafted file may honestly state billions of keys).
const MAX_ENUMERATED_KEYS: u64 = 2_000_000;

/// Query arguments run against every lexicon the `lexicon` target opens.
const ARGS: &[&str] = &["a", "ab", "ba", "z", "ch", "ll", "ñ", "qu"];

/// Two small lexicons to run patterns and regexes against: every 16th word
/// of ENABLE, and the Spanish sample (multi-letter tiles).
fn lexicons() -> &'static [Lexicon; 2] {
    static LEX: OnceLock<[Lexicon; 2]> = OnceLock::new();
    LEX.get_or_init(|| {
        let english: String = include_str!("../../indexes/enable1.txt")
            .lines()
            .step_by(16)
            .flat_map(|w| [w, "\n"])
            .collect();
        let spanish = include_str!("../../tests/data/spanish-sample.txt");
        let make = |alphabet: Alphabet, text: &str| {
            let mut list = WordList::new(alphabet);
            list.read_bytes("seed".as_ref(), text.as_bytes())
                .expect("seed list");
            Lexicon::from_bytes(build(&list, &mut ()).expect("seed build").bytes)
                .expect("seed lexicon")
        };
        [
            make(Alphabet::english(), &english),
            make(Alphabet::spanish(), spanish),
        ]
    })
}

/// Builds the lexicons the `pattern` and `regex` targets query, before
/// fuzzing starts (so the first input is not charged for it).
pub fn init() {
    lexicons();
}

/// The first byte picks a lexicon, the rest is the text (if UTF-8).
fn split(data: &[u8]) -> Option<(&'static Lexicon, &str)> {
    let (&pick, rest) = data.split_first()?;
    let lex = &lexicons()[pick as usize % 2];
    Some((lex, std::str::from_utf8(rest).ok()?))
}

/// Every word in `words` is a word of `lex` and has the length asked for.
fn all_words(lex: &Lexicon, words: &lexq::Words<'_>, max: usize) {
    for w in words.iter() {
        assert!(w.len() <= max, "{w} longer than {max}");
        assert!(
            lex.is_word(&w.to_string()).unwrap_or(false),
            "{w} reported but not a word"
        );
    }
}

/// Runs the cheap lookups (bounded work on any file): word judge, hooks,
/// steps through the arc table's nodes.
fn lookups(lex: &Lexicon) {
    for a in ARGS {
        let _ = lex.is_word(a);
        let _ = lex.hooks(a);
    }
    let root = lex.arcs().root();
    let _ = (root.letters(), root.ending_letters(), root.separator());
    for e in root.edges() {
        let next = e.target();
        let _ = (e.accepts(), next.letters(), next.separator(), next.edge(1));
        for f in next.within(!0) {
            let _ = (f.accepts(), f.target().codes());
        }
    }
}

/// Runs every query kind with every argument of [`ARGS`], lengths up to
/// `max`.
fn queries(lex: &Lexicon, max: usize) {
    let s = lex.search().lengths(0, max);
    for a in ARGS {
        let _ = s.contains(a);
        let _ = s.starts(a);
        let _ = s.ends(a);
        let _ = s.anagram(&format!("{a}??"));
        let _ = s.through(a).subanagram(&format!("{a}?e"));
    }
    let _ = s.pattern("*a?");
    let _ = s.regex("[a-d]+.");
}

/// Target `lexicon`: the bytes as a lexicon file, its checksums re-sealed
/// so that damage gets past them to the automaton. Neither open may panic;
/// what the checked open accepts must answer every query without panic and
/// within its stated size. (Its answers may disagree between query kinds:
/// the check proves the automaton well formed, not that its keys are the
/// GADDAG of some word list.)
pub fn lexicon(data: &[u8]) {
    let mut bytes = data.to_vec();
    lexq::raw::format::reseal(&mut bytes);
    if let Ok(lex) = Lexicon::from_bytes(bytes.clone()) {
        // Unchecked: lookups, and walks short enough to be bounded however
        // the automaton branches.
        lookups(&lex);
        queries(&lex, 2);
        // The fst view, handed out only once its section is checked: the
        // `fst` crate must not panic on it.
        if let Ok(set) = lex.fst_set() {
            use fst::Streamer;
            let mut keys = set.stream();
            let mut n = 0;
            while keys.next().is_some() && n < MAX_ENUMERATED_KEYS {
                n += 1;
            }
            let _ = set.contains(b"e");
        }
        let _ = lex.verify();
    }
    if let Ok(lex) = Lexicon::from_bytes_checked(bytes) {
        lookups(&lex);
        if lex.info().entries <= MAX_ENUMERATED_KEYS {
            queries(&lex, usize::MAX);
            let every = lex.pattern("*").expect("* is a pattern");
            assert!(every.len() as u64 <= lex.info().entries);
            assert!(every.iter().all(|w| w.len() <= lex.max_word_len()));
        }
    }
}

/// Target `pattern`: the text as a wildcard pattern over a small lexicon.
pub fn pattern(data: &[u8]) {
    let Some((lex, text)) = split(data) else {
        return;
    };
    if let Ok(words) = lex.search().lengths(0, 15).pattern(text) {
        all_words(lex, &words, 15);
    }
}

/// Target `regex`: the text as a regular expression over a small lexicon.
pub fn regex(data: &[u8]) {
    let Some((lex, text)) = split(data) else {
        return;
    };
    if let Ok(words) = lex.search().lengths(0, 15).regex(text) {
        all_words(lex, &words, 15);
    }
}

/// Target `alphabet`: the text as an alphabet file. An accepted alphabet
/// survives its own text form, spells every code string back the same way,
/// and builds a lexicon (of words made from the input's bytes as tile
/// indexes) that finds each of them.
pub fn alphabet(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(alphabet) = Alphabet::from_text("fuzz", text) else {
        return;
    };
    let again = Alphabet::from_text("fuzz", &alphabet.to_text()).expect("own text reads back");
    assert_eq!(again, alphabet);
    let n = alphabet.len();
    if n == 0 {
        return;
    }
    // Words of codes taken from the input, 1 to 7 tiles.
    let mut list_text = String::new();
    let mut spelled = Vec::new();
    for chunk in data.chunks(7).take(50) {
        let codes: Vec<u8> = chunk.iter().map(|&b| (b as usize % n) as u8 + 1).collect();
        let word = alphabet.decode(&codes);
        // Reading the spelling may group letters into other tiles (A B
        // read as AB), but must spell the same letters.
        if let Ok(read) = alphabet.encode(&word) {
            assert_eq!(alphabet.decode(&read), word, "codes {codes:?}");
            list_text.push_str(&word);
            list_text.push('\n');
            spelled.push(word);
        }
    }
    let mut list = WordList::new(alphabet);
    list.read_bytes("fuzz".as_ref(), list_text.as_bytes())
        .expect("lenient read");
    let Ok(built) = build(&list, &mut ()) else {
        assert!(spelled.is_empty() || list.is_empty());
        return;
    };
    let lex = Lexicon::from_bytes_checked(built.bytes).expect("own build passes the check");
    for w in &spelled {
        assert!(lex.is_word(w).expect("a word of the alphabet"), "{w:?}");
    }
}

/// Target `wordlist`: the bytes as a word list (English or Spanish by the
/// first byte). Reading never fails in lenient mode; what it took builds a
/// lexicon that passes the structural check and holds exactly the words
/// built.
pub fn wordlist(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let alphabet = if pick % 2 == 0 {
        Alphabet::english()
    } else {
        Alphabet::spanish()
    };
    let mut list = WordList::new(alphabet);
    list.read_bytes("fuzz".as_ref(), rest)
        .expect("lenient reads never fail");
    let mut strict = WordList::new(list.alphabet().clone()).strict(true);
    let strict_ok = strict.read_bytes("fuzz".as_ref(), rest).is_ok();
    assert_eq!(strict_ok, list.rejected() == 0);
    match build(&list, &mut ()) {
        Err(_) => assert!(list.is_empty()),
        Ok(built) => {
            let lex = Lexicon::from_bytes_checked(built.bytes.clone())
                .expect("own build passes the check");
            let every = lex.pattern("*").expect("* is a pattern");
            assert_eq!(every.len() as u64, built.words);
            assert_eq!(lex.word_count(), built.words);
        }
    }
}

/// Target `position`: the bytes as a CGP line (English or Spanish by the
/// first byte, built-in layouts and tile sets only). No input panics or
/// overflows: a position read writes back to a line that reads the same;
/// every move generated for the mover, exchanges included, scores what
/// `Board::score` gives it, within `move_score_bound`, and passes
/// `check_move`; a game from the position plays a few best moves and
/// undoes them back to the same line.
pub fn position(data: &[u8]) {
    use lexq::game::{All, Best, Game, Generator, MoveKind, Position, move_score_bound};
    let Some((lex, text)) = split(data) else {
        return;
    };
    let Ok(pos) = Position::from_cgp(lex, text) else {
        return;
    };
    let line = pos.to_cgp();
    let again = Position::from_cgp(lex, &line).expect("a written position reads back");
    assert_eq!(again.to_cgp(), line);
    let board = &pos.board;
    let bound = move_score_bound(board.layout(), board.tile_set());
    let rack = pos.rack();
    let mut generator = Generator::new().exchanges(true);
    generator.set_bag(Some(pos.bag_len()));
    let mut all = All::default();
    generator.generate(board, &rack, &mut all);
    for mv in all.moves.iter().take(5000) {
        if mv.kind() == MoveKind::Place {
            assert_eq!(mv.score(), board.score(mv));
            assert!(board.check_move(mv, &rack).is_ok());
        }
        assert!((0..=bound).contains(&i128::from(mv.score())));
    }
    let Ok(mut game) = Game::from_position(&pos, 1) else {
        return;
    };
    let start = game.to_cgp();
    let mut played = 0;
    while !game.is_over() && played < 4 {
        let mut best = Best::default();
        generator.set_bag(Some(game.bag_len()));
        generator.generate(game.board(), game.rack(game.to_move()), &mut best);
        let mv = best.best.map_or(lexq::game::Move::pass(), |(m, _)| m);
        if game.apply(&mv).is_err() {
            break;
        }
        played += 1;
    }
    while game.undo() {}
    assert_eq!(game.to_cgp(), start);
}
