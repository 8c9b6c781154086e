//! The built-in alphabets and tile sets of more languages against the
//! figures of their source (en.wikipedia.org/wiki/Scrabble_letter_distributions,
//! summed here by hand from its per-value groups), and a Polish game
//! record, written by hand with its scores worked out by hand, read and
//! replayed without a problem.

use std::path::PathBuf;

use lexq::game::gcg::Game as Record;
use lexq::game::{Game, Generator, Layout};
use lexq::{Alphabet, Lexicon, TileSet, WordList, build};

/// (name, tiles in the alphabet, tiles in the bag, blanks, total points).
/// The points are the source's groups summed: e.g. Polish 1 x 52 (A9 E7
/// I8 N5 O6 R4 S4 W4 Z5) + 2 x 25 + 3 x 12 + 5 x 6 + 6 + 7 + 9 = 190.
const FIGURES: &[(&str, usize, usize, usize, i32)] = &[
    (
        "polish",
        32,
        100,
        2,
        52 + 2 * 25 + 3 * 12 + 5 * 6 + 6 + 7 + 9,
    ),
    (
        "german",
        29,
        102,
        2,
        64 + 2 * 13 + 3 * 8 + 4 * 7 + 6 * 4 + 8 * 2 + 10 * 2,
    ),
    (
        "french",
        26,
        102,
        2,
        73 + 2 * 8 + 3 * 6 + 4 * 6 + 8 * 2 + 10 * 5,
    ),
    (
        "dutch",
        26,
        102,
        2,
        44 + 2 * 20 + 3 * 16 + 4 * 13 + 5 * 4 + 8 * 2 + 10,
    ),
    (
        "norwegian",
        32,
        100,
        2,
        55 + 2 * 19 + 3 * 3 + 4 * 15 + 5 * 2 + 6 * 2 + 8 + 10,
    ),
    (
        "swedish",
        31,
        100,
        2,
        60 + 2 * 16 + 3 * 6 + 4 * 11 + 7 * 2 + 8 * 2 + 10,
    ),
    (
        "slovene",
        29,
        100,
        2,
        69 + 2 * 8 + 3 * 9 + 4 * 6 + 5 * 2 + 6 + 8 + 10 * 2,
    ),
    (
        "italian",
        21,
        120,
        2,
        52 + 2 * 24 + 3 * 20 + 5 * 15 + 8 * 6 + 10,
    ),
    (
        "portuguese",
        24,
        120,
        3,
        77 + 2 * 18 + 3 * 9 + 4 * 8 + 5 * 2 + 6 + 8 * 2,
    ),
];

#[test]
fn each_tile_set_has_the_sources_tiles_and_points() {
    for &(name, letters, tiles, blanks, points) in FIGURES {
        let a = Alphabet::named(name).unwrap();
        assert_eq!(a.name(), name);
        assert_eq!(a.len(), letters, "{name}");
        // Any case names the set; the alphabet's set is its default.
        let set = TileSet::named(&name.to_uppercase(), &a).unwrap();
        assert_eq!(TileSet::default_for(&a, 15).unwrap(), set, "{name}");
        assert_eq!(set.total(), tiles, "{name}");
        assert_eq!(set.count(0), blanks, "{name}");
        let sum: i32 = (0..=letters as u8)
            .map(|c| set.count(c) as i32 * set.value(c))
            .sum();
        assert_eq!(sum, points, "{name}");
        assert_eq!((set.rack_size(), set.bingo()), (7, 50), "{name}");
    }
    // The rarest tiles of a few sets, as the source prints them.
    let value = |lang: &str, tile: &str| {
        let a = Alphabet::named(lang).unwrap();
        let set = TileSet::named(lang, &a).unwrap();
        let code = a.encode(tile).unwrap()[0];
        (set.count(code), set.value(code))
    };
    assert_eq!(value("polish", "Ź"), (1, 9));
    assert_eq!(value("polish", "Ń"), (1, 7));
    assert_eq!(value("german", "Y"), (1, 10));
    assert_eq!(value("french", "M"), (3, 2));
    assert_eq!(value("dutch", "E"), (18, 1));
    assert_eq!(value("norwegian", "Q"), (0, 0)); // a blank plays it
    assert_eq!(value("swedish", "Z"), (1, 10));
    assert_eq!(value("slovene", "Ž"), (1, 10));
    assert_eq!(value("italian", "O"), (15, 1));
    assert_eq!(value("portuguese", "Ç"), (2, 3));
}

#[test]
fn alphabets_read_their_letters_and_ignore_accents() {
    let read = |lang: &str, word: &str| {
        let a = Alphabet::named(lang).unwrap();
        let codes = a.encode(word).unwrap();
        (codes.len(), a.decode(&codes))
    };
    assert_eq!(read("polish", "źdźbło"), (6, "ŹDŹBŁO".to_string()));
    assert_eq!(read("german", "Straße"), (7, "STRASSE".to_string()));
    assert_eq!(read("german", "Öl"), (2, "ÖL".to_string()));
    assert_eq!(read("french", "garçon"), (6, "GARCON".to_string()));
    assert_eq!(read("portuguese", "coração"), (7, "CORAÇAO".to_string()));
    assert_eq!(read("italian", "città"), (5, "CITTA".to_string()));
    assert_eq!(read("norwegian", "blåbær"), (6, "BLÅBÆR".to_string()));
    assert_eq!(read("swedish", "smörgås"), (7, "SMÖRGÅS".to_string()));
    assert_eq!(read("slovene", "žaba"), (4, "ŽABA".to_string()));
    // Letters the language's game has no tile for are not in it.
    assert!(Alphabet::named("polish").unwrap().encode("xero").is_err());
    assert!(Alphabet::named("italian").unwrap().encode("jeans").is_err());
}

fn polish() -> Lexicon {
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/polish");
    let mut list = WordList::new(Alphabet::named("polish").unwrap());
    list.read_path(&data.join("words.txt")).unwrap();
    Lexicon::from_bytes(build(&list, &mut ()).unwrap().bytes).unwrap()
}

#[test]
fn a_polish_game_record_reads_and_replays() {
    let lex = polish();
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/polish/game.gcg");
    let text = std::fs::read_to_string(&path).unwrap();
    let record = Record::parse(&text).unwrap();
    let tiles = TileSet::named("polish", lex.alphabet()).unwrap();
    let r = lexq::game::replay::replay(&record, &lex, Layout::standard(), tiles, None).unwrap();
    let problems: Vec<String> = r.problems.iter().map(|p| p.to_string()).collect();
    assert!(problems.is_empty(), "{problems:?}");
    // Ania: ŻÓŁW (5 + 5 + 3 + 1) x 2 = 28, (M)AK 2 + 1 + 2 = 5; Ola: MI(Ó)D
    // with M on a triple letter, 6 + 1 + 5 + 2 = 14, then an exchange.
    assert_eq!(r.scores, [33, 14]);
    let cgp = r.position(&record).to_cgp();
    assert!(cgp.contains("ŻÓŁW"), "{cgp}");
}

#[test]
fn polish_self_play_writes_records_that_read_back() {
    let lex = polish();
    let tiles = TileSet::named("polish", lex.alphabet()).unwrap();
    let mut game = Game::new(&lex, Layout::standard(), tiles.clone(), 2, 3).unwrap();
    let mut generator = Generator::new();
    for _ in 0..10 {
        if game.is_over() {
            break;
        }
        let mv = game.best_move(&mut generator).mv;
        game.apply(&mv).unwrap();
    }
    let text = game.to_gcg(&["ania", "ola"]);
    let record = Record::parse(&text).unwrap();
    let r = lexq::game::replay::replay(&record, &lex, Layout::standard(), tiles, None).unwrap();
    assert!(r.problems.is_empty(), "{:?}\n{text}", r.problems);
    assert_eq!(r.scores, game.scores());
}
