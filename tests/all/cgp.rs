//! CGP reading and writing: round trips (parse then write gives the same
//! line), opcodes honoured or kept, and every kind of bad input refused
//! with its kind and column.

use lexq::{
    Alphabet, Lexicon, WordList, build, game::Position, game::notation::PositionError,
    game::notation::PositionErrorKind,
};

const EMPTY: &str = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15";

fn pos_err(lex: &Lexicon, line: &str) -> PositionError {
    match Position::from_cgp(lex, line) {
        Err(lexq::game::Error::Position(e)) => e,
        Err(e) => panic!("{line}: not a position error: {e}"),
        Ok(p) => panic!("{line}: accepted as {p:?}"),
    }
}

#[test]
fn round_trips() {
    let lex = Lexicon::embedded();
    let lines = [
        format!("{EMPTY} AELNOQT/ 0/0 0 lex NWL18;"),
        format!("{EMPTY} / 0/0 0"),
        format!("{EMPTY} ??/ABC 0/0 3"),
        "15/15/15/15/15/15/15/4CARe7/15/15/15/15/15/15/15 AEINRST/ 12/0 0 lex ENABLE; bb 35; gid x y z; zz;".to_string(),
        "15/15/15/15/15/15/6H8/4CARE7/6T8/15/15/15/15/15/15 QTONEAL/DE -5/100 2 mcnz 6; cr VOID; lm 8E CARE;".to_string(),
    ];
    for line in &lines {
        let p = Position::from_cgp(&lex, line).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(&p.to_cgp(), line);
    }
    // Opcodes without a final ; and extra spaces are read, written canonically.
    let p = Position::from_cgp(&lex, &format!("{EMPTY}  A/B  1/2 0  bb 10 ;  x")).unwrap();
    assert_eq!(p.to_cgp(), format!("{EMPTY} A/B 1/2 0 bb 10; x;"));
    assert_eq!(p.opcode("bb"), Some("10"));
    assert_eq!(p.board.tile_set().bingo(), 10);
}

#[test]
fn super_board_and_spanish() {
    let lex = Lexicon::embedded();
    let rows = vec!["21"; 21].join("/");
    let line = format!("{rows} ABCDEFG/ 0/0 0");
    let p = Position::from_cgp(&lex, &line).unwrap();
    assert_eq!(p.board.size(), 21);
    assert_eq!(p.board.tile_set().total(), 200);
    assert_eq!(p.to_cgp(), line);

    let mut list = WordList::new(Alphabet::spanish());
    list.read_bytes("es".as_ref(), b"chico\nchillar\nperro\n")
        .unwrap();
    let es = Lexicon::from_bytes(build(&list, &mut ()).unwrap().bytes).unwrap();
    let line = "15/15/15/15/15/15/15/5[CH]ICO6/15/15/15/15/15/15/15 [LL]A[RR]?[ch]Ñ/ 0/0 0";
    // Racks are uppercase: a lowercase [ch] on a rack is refused.
    let e = pos_err(&es, line);
    assert!(matches!(e.kind, PositionErrorKind::Syntax(_)), "{e}");
    let line = "15/15/15/15/15/15/15/5[CH]ICO6/15/15/15/15/15/15/15 [LL]A[RR]?Ñ/ 0/0 0";
    let p = Position::from_cgp(&es, line).unwrap();
    assert_eq!(p.to_cgp(), line);
    assert_eq!(p.board.tile(7, 5), es.alphabet().encode("CH").unwrap()[0]);
    assert_eq!(p.rack().len(), 5);
    // A blank CH on the board.
    let line = "15/15/15/15/15/15/15/5[ch]ICO6/15/15/15/15/15/15/15 A/ 0/0 0";
    assert_eq!(Position::from_cgp(&es, line).unwrap().to_cgp(), line);
}

#[test]
fn bad_inputs_name_the_problem_and_column() {
    let lex = Lexicon::embedded();
    let cases: Vec<(String, &str, Option<usize>)> = vec![
        ("".into(), "syntax", None),
        (format!("{EMPTY} A/ 0/0"), "syntax", None),
        ("15/15 A/ 0/0 0".into(), "size", Some(1)),
        (format!("{EMPTY}/15 A/ 0/0 0"), "size", Some(1)),
        (
            "15/15/15/15/15/15/15/16/15/15/15/15/15/15/15 A/ 0/0 0".into(),
            "syntax",
            Some(22),
        ),
        (
            "15/15/15/15/15/15/15/14A1/15/15/15/15/15/15/15 A/ 0/0 0".into(),
            "size",
            None,
        ),
        (
            "15/15/15/15/15/15/15/CAT/15/15/15/15/15/15/15 A/ 0/0 0".into(),
            "size",
            Some(22),
        ),
        (
            "15/15/15/15/15/15/15/6C!T6/15/15/15/15/15/15/15 A/ 0/0 0".into(),
            "alphabet",
            Some(24),
        ),
        (
            "15/15/15/15/15/15/15/6ÑAT6/15/15/15/15/15/15/15 A/ 0/0 0".into(),
            "alphabet",
            Some(23),
        ),
        (
            "15/15/15/15/15/15/15/6[CA6/15/15/15/15/15/15/15 A/ 0/0 0".into(),
            "syntax",
            Some(23),
        ),
        (
            "15/15/15/15/15/15/15/6ZZ7/15/15/15/15/15/15/15 A/ 0/0 0".into(),
            "too many",
            Some(1),
        ),
        (format!("{EMPTY} ???/ 0/0 0"), "too many", Some(1)),
        (
            "15/15/15/15/15/15/15/6EE7/15/15/15/15/15/15/15 EEEEEEE/EEEE 0/0 0".into(),
            "too many",
            Some(1),
        ),
        (
            "15/15/15/15/15/15/15/6AT7/15/15/3A11/15/15/15/15 A/ 0/0 0".into(),
            "floating",
            Some(1),
        ),
        (
            "15/15/15/15/15/15/15/AT13/15/15/15/15/15/15/15 A/ 0/0 0".into(),
            "floating",
            Some(1),
        ),
        (
            "15/15/15/15/15/15/15/7A7/15/15/15/15/15/15/15 A/ 0/0 0".into(),
            "syntax",
            Some(1),
        ),
        (format!("{EMPTY} ABCDEFGH/ 0/0 0"), "rack", Some(46)),
        (format!("{EMPTY} A/ABCDEFGH 0/0 0"), "rack", Some(48)),
        (format!("{EMPTY} A1/ 0/0 0"), "alphabet", Some(47)),
        (format!("{EMPTY} A/ 0 0"), "syntax", Some(49)),
        (format!("{EMPTY} A/ 0/x 0"), "syntax", Some(49)),
        // Scores within ±100,000: i32::MIN's absolute value overflows.
        (format!("{EMPTY} A/ -2147483648/0 0"), "syntax", Some(49)),
        (format!("{EMPTY} A/ 0/-2147483648 0"), "syntax", Some(49)),
        (format!("{EMPTY} A/ 100001/0 0"), "syntax", Some(49)),
        (format!("{EMPTY} A/ 0/-100001 0"), "syntax", Some(49)),
        (format!("{EMPTY} A/ 0/0 -1"), "syntax", Some(53)),
        (format!("{EMPTY} A/ 0/0 0 bb x;"), "syntax", None),
        (
            format!("{EMPTY} A/ 0/0 0 var wordsmog;"),
            "unsupported",
            None,
        ),
    ];
    for (line, kind, col) in &cases {
        let e = pos_err(&lex, line);
        let ok = match *kind {
            "syntax" => matches!(e.kind, PositionErrorKind::Syntax(_)),
            "size" => matches!(e.kind, PositionErrorKind::BoardSize(_)),
            "alphabet" => matches!(e.kind, PositionErrorKind::NotInAlphabet(_)),
            "too many" => matches!(e.kind, PositionErrorKind::TooManyTiles { .. }),
            "floating" => matches!(e.kind, PositionErrorKind::Floating { .. }),
            "rack" => matches!(e.kind, PositionErrorKind::RackTooBig { .. }),
            "unsupported" => matches!(e.kind, PositionErrorKind::Unsupported(_)),
            _ => unreachable!(),
        };
        assert!(ok, "{line}: expected {kind}, got {e}");
        if let Some(c) = col {
            assert_eq!(e.column, Some(*c), "{line}: {e}");
        }
        assert!(e.to_string().starts_with("CGP"), "{e}");
    }
    // Unknown tile set and board names are errors (not silently ignored).
    for op in ["ld klingon;", "bdn nowhere;"] {
        let line = format!("{EMPTY} A/ 0/0 0 {op}");
        assert!(Position::from_cgp(&lex, &line).is_err(), "{line}");
    }
}

#[test]
fn lexicon_name_and_opcodes() {
    let line = format!("{EMPTY} A/ 0/0 0 lex CSW21; ld english;");
    assert_eq!(lexq::game::lexicon_name(&line).as_deref(), Some("CSW21"));
    assert_eq!(lexq::game::opcodes(&line).len(), 2);
    assert_eq!(lexq::game::lexicon_name(&format!("{EMPTY} A/ 0/0 0")), None);
}

#[test]
fn playing_updates_the_position() {
    let lex = Lexicon::embedded();
    let mut p = Position::from_cgp(&lex, &format!("{EMPTY} CAREXYZ/DEF 0/5 0")).unwrap();
    let mv = p.board.parse_move("8E CARE").unwrap();
    let mv = p.play(&mv).unwrap();
    assert_eq!(mv.score(), 12);
    assert_eq!(
        p.to_cgp(),
        "15/15/15/15/15/15/15/4CARE7/15/15/15/15/15/15/15 DEF/XYZ 5/12 0"
    );
    // A phony is refused, and the position is unchanged.
    let before = p.to_cgp();
    let e = p.play(&p.board.parse_move("9E DEF").unwrap()).unwrap_err();
    assert!(e.to_string().contains("not words"), "{e}");
    assert_eq!(p.to_cgp(), before);
    // A pass counts a scoreless turn.
    p.play(&p.board.parse_move("-").unwrap()).unwrap();
    assert_eq!(p.zeros, 1);
}
