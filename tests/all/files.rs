//! Which files a position may open (`FilePolicy`), and that only regular
//! files are read by name: a CGP line's `bdn`, `ld` and `lex` under each
//! policy (built-in only, allowed files and folders, any file), symlinks
//! and `..` out of an allowed folder, FIFOs and devices, and errors that
//! tell nothing of a file's contents or existence. A FIFO that something
//! opens blocks it: every call that could is run on a thread with a time
//! limit, and the FIFO's other end is opened to free it on a failure.

#![cfg(unix)]

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use lexq::error::{Named, NamedErrorKind};
use lexq::{
    Alphabet, Error, Lexicon, TileSet, WordList, files::FilePolicy, game::Layout, game::Position,
};

/// A 5x5 board: its CGP board field, and a layout file of it.
const EMPTY5: &str = "5/5/5/5/5";
const TINY: &str = "; a toy board\n#...#\n.-.-.\n..*..\n.-.-.\n#...#\n";

/// The first line of a common /etc/passwd: 31 characters, which a layout
/// error used to count back ("31 squares in a row").
const PASSWD: &str =
    "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n";

/// `open(2)`'s O_NONBLOCK here (tests run on Linux and macOS).
#[cfg(target_os = "linux")]
const O_NONBLOCK: i32 = 0o4000;
#[cfg(not(target_os = "linux"))]
const O_NONBLOCK: i32 = 0x4;

fn mkfifo(path: &Path) {
    let ok = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(ok.success());
}

/// Whether some reader has `fifo` open: a non-blocking open for writing
/// succeeds only then. Opening it also frees a reader blocked in `open`.
fn reader_waits(fifo: &Path) -> bool {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new()
        .write(true)
        .custom_flags(O_NONBLOCK)
        .open(fifo)
        .is_ok()
}

/// `f` run on a thread; fails if it takes 10 s (blocked opening `fifo`,
/// which is then freed) or leaves `fifo` open.
#[track_caller]
fn within<T: Send + 'static>(fifo: &Path, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(Duration::from_secs(10)) {
        Ok(v) => {
            assert!(!reader_waits(fifo), "{} was left open", fifo.display());
            v
        }
        Err(_) => {
            reader_waits(fifo);
            panic!("blocked for 10 s on the FIFO {}", fifo.display());
        }
    }
}

fn text(p: &Path) -> String {
    p.to_str().unwrap().to_string()
}

/// A CGP line of the empty 15x15 board with `ops`.
fn line15(ops: &str) -> String {
    format!("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 CAT/ 0/0 0 {ops}")
}

/// The English tile set as a file.
fn english_tiles() -> String {
    let mut s = String::from("; English\nbingo 40\n");
    for (i, c) in ('A'..='Z').enumerate() {
        s.push_str(&format!("{c} {} {}\n", 2 + i % 3, 1 + i % 5));
    }
    s.push_str("? 2 0\n");
    s
}

struct Dirs {
    _tmp: tempfile::TempDir,
    /// The allowed folder: tiny.txt, tiles.txt, words.lexq, bad.txt (the
    /// passwd lines), fifo, a symlink out, a folder.
    allowed: PathBuf,
    /// Outside it: ok.txt (a good layout), secret.txt (the passwd lines),
    /// words.lexq.
    outside: PathBuf,
}

fn dirs() -> Dirs {
    let tmp = tempfile::tempdir().unwrap();
    let allowed = tmp.path().join("allowed");
    let outside = tmp.path().join("outside");
    fs::create_dir(&allowed).unwrap();
    fs::create_dir(&outside).unwrap();
    fs::create_dir(allowed.join("sub")).unwrap();
    fs::write(allowed.join("tiny.txt"), TINY).unwrap();
    fs::write(allowed.join("sub/tiny.txt"), TINY).unwrap();
    fs::write(allowed.join("tiles.txt"), english_tiles()).unwrap();
    fs::write(allowed.join("bad.txt"), PASSWD).unwrap();
    fs::write(outside.join("ok.txt"), TINY).unwrap();
    fs::write(outside.join("tiles.txt"), english_tiles()).unwrap();
    fs::write(outside.join("secret.txt"), PASSWD).unwrap();
    mkfifo(&allowed.join("fifo"));
    mkfifo(&outside.join("fifo"));
    std::os::unix::fs::symlink(outside.join("ok.txt"), allowed.join("link.txt")).unwrap();
    std::os::unix::fs::symlink(&outside, allowed.join("out")).unwrap();
    let mut list = WordList::new(Alphabet::english());
    list.read_bytes("w".as_ref(), b"cat\nact\ntac\n").unwrap();
    let built = lexq::build(&list, &mut ()).unwrap();
    built.write_atomic(&allowed.join("words.lexq")).unwrap();
    built.write_atomic(&outside.join("words.lexq")).unwrap();
    Dirs {
        _tmp: tmp,
        allowed,
        outside,
    }
}

/// The kind of a `Named` error, checking that its message is the name's
/// and a fixed text (nothing taken from the file system).
#[track_caller]
fn named<E: AsCore>(r: Result<impl std::fmt::Debug, E>, what: Named, name: &str) -> NamedErrorKind {
    match r.as_ref().map_err(AsCore::core) {
        Err(Some(Error::Named {
            what: w,
            name: n,
            kind,
        })) => {
            assert_eq!((*w, n.as_str()), (what, name));
            *kind
        }
        _ => panic!("{name}: not refused by name: {r:?}"),
    }
}

/// The core error of a result of the core or of the game layer (whose
/// error wraps the core's).
trait AsCore: std::fmt::Debug + std::fmt::Display {
    fn core(&self) -> Option<&Error>;
}

impl AsCore for Error {
    fn core(&self) -> Option<&Error> {
        Some(self)
    }
}

impl AsCore for lexq::game::Error {
    fn core(&self) -> Option<&Error> {
        match self {
            lexq::game::Error::Core(e) => Some(e),
            _ => None,
        }
    }
}

/// The message of an error with the name taken out.
fn without(e: &impl AsCore) -> String {
    unnamed(&e.to_string())
}

/// `what "name": reason` as `what NAME: reason` (a long name is cut in
/// messages: the reason is what is compared).
fn unnamed(message: &str) -> String {
    let (what, _) = message.split_once(" \"").unwrap();
    let (_, reason) = message.rsplit_once("\": ").unwrap();
    format!("{what} NAME: {reason}")
}

#[test]
fn by_default_a_line_names_built_in_layouts_and_tile_sets_only() {
    let d = dirs();
    let lex = Lexicon::embedded();
    let fifo = d.outside.join("fifo");
    let mut messages = Vec::new();
    for (op, what) in [("bdn", Named::Layout), ("ld", Named::TileSet)] {
        for name in [
            text(&d.outside.join("ok.txt")),
            text(&d.outside.join("secret.txt")),
            text(&d.outside.join("missing.txt")),
            text(&fifo),
            "/dev/zero".to_string(),
            "/etc/passwd".to_string(),
            "../../../../../../etc/passwd".to_string(),
            text(&d.outside),
        ] {
            let line = line15(&format!("{op} {name};"));
            let r = within(&fifo, move || {
                Position::from_cgp(&Lexicon::embedded(), &line).map(|_| ())
            });
            // No byte of the file in the message (the name itself aside:
            // a temporary folder's name may hold "31").
            let e = r.as_ref().unwrap_err().to_string().replace(&name, "NAME");
            assert!(!e.contains("31") && !e.contains("root:"), "{e}");
            messages.push((op, without(r.as_ref().unwrap_err())));
            let kind = named(r, what, &name);
            assert_eq!(
                kind,
                NamedErrorKind::NotAvailable {
                    files_allowed: false
                }
            );
        }
    }
    // One message a kind, whatever the file is or is not.
    messages.dedup();
    assert_eq!(
        messages,
        [
            (
                "bdn",
                "board layout NAME: not a built-in board layout (standard, super, friends); \
                 files are not allowed here"
                    .to_string()
            ),
            (
                "ld",
                "tile set NAME: not a built-in tile set (english, english_super, friends, \
                 spanish, polish, german, french, dutch, norwegian, swedish, slovene, italian, \
                 portuguese); files are not allowed here"
                    .to_string()
            ),
        ]
    );
    // Built-in names still work, in any case.
    let pos = Position::from_cgp(&lex, &line15("bdn CrosswordGame; ld ENGLISH;")).unwrap();
    assert_eq!(pos.board.size(), 15);
    let pos = Position::from_cgp(
        &lex,
        &format!("{} CAT/ 0/0 0 bdn super;", ["21"; 21].join("/")),
    )
    .unwrap();
    assert_eq!(pos.board.size(), 21);
}

#[test]
fn an_allowed_folder_lets_its_files_in_and_nothing_else() {
    let d = dirs();
    let lex = Lexicon::embedded();
    let policy = FilePolicy::allow([&d.allowed]).unwrap();
    assert!(policy.allows_files());
    let line5 = |ops: &str| format!("{EMPTY5} CAT/ 0/0 0 {ops}");
    // Inside: by absolute path, through a subfolder, and with a `..` that
    // stays inside.
    for name in [
        d.allowed.join("tiny.txt"),
        d.allowed.join("sub/tiny.txt"),
        d.allowed.join("sub/../tiny.txt"),
    ] {
        let line = line5(&format!("bdn {};", text(&name)));
        let pos = Position::from_cgp_with(&lex, &line, &policy).unwrap();
        assert_eq!((pos.board.size(), pos.to_cgp()), (5, line));
    }
    let tiles = text(&d.allowed.join("tiles.txt"));
    let pos = Position::from_cgp_with(&lex, &line15(&format!("ld {tiles};")), &policy).unwrap();
    let total = (0..26).map(|i| 2 + i % 3).sum::<usize>() + 2;
    assert_eq!(
        (pos.board.tile_set().bingo(), pos.board.tile_set().total()),
        (40, total)
    );
    // Outside, or led outside by a symlink or `..`; missing; a FIFO, a
    // device, a folder: all refused with the one message.
    let fifo = d.allowed.join("fifo");
    let outside = [
        d.outside.join("ok.txt"),
        d.allowed.join("link.txt"),
        d.allowed.join("out/ok.txt"),
        d.allowed.join("../outside/ok.txt"),
        d.allowed.join("sub/../../outside/ok.txt"),
        d.allowed.join("missing.txt"),
        d.outside.join("missing.txt"),
        d.allowed.join("fifo"),
        d.outside.join("fifo"),
        d.allowed.join("sub"),
        d.allowed.clone(),
        PathBuf::from("/dev/zero"),
        PathBuf::from("/etc/passwd"),
        PathBuf::from(""),
    ];
    let mut messages = Vec::new();
    for name in &outside {
        let name = text(name);
        let line = line5(&format!("bdn {name};"));
        let policy = policy.clone();
        let r = within(&fifo, move || {
            Position::from_cgp_with(&Lexicon::embedded(), &line, &policy).map(|_| ())
        });
        messages.push(without(r.as_ref().unwrap_err()));
        let kind = named(r, Named::Layout, &name);
        assert_eq!(
            kind,
            NamedErrorKind::NotAvailable {
                files_allowed: true
            }
        );
    }
    messages.dedup();
    assert_eq!(
        messages,
        [
            "board layout NAME: not a built-in board layout (standard, super, friends) \
          nor a file allowed here"
        ]
    );
    // An allowed file that is not a layout: no line, no count, no content.
    let bad = text(&d.allowed.join("bad.txt"));
    let r = Position::from_cgp_with(&lex, &line5(&format!("bdn {bad};")), &policy);
    assert_eq!(named(r, Named::Layout, &bad), NamedErrorKind::Invalid);
    let r = Position::from_cgp_with(&lex, &line15(&format!("ld {bad};")), &policy);
    let e = r.as_ref().unwrap_err().to_string();
    assert_eq!(named(r, Named::TileSet, &bad), NamedErrorKind::Invalid);
    assert_eq!(unnamed(&e), "tile set NAME: not a valid tile set file");
    // A layout that is one, but not of this board's size, is an error of
    // the position as before (the row count is the line's own).
    let r = Position::from_cgp_with(
        &lex,
        &line15(&format!("bdn {};", text(&d.allowed.join("tiny.txt")))),
        &policy,
    );
    assert!(matches!(r, Err(lexq::game::Error::Position(_))), "{r:?}");
}

#[test]
fn allowing_a_file_allows_that_file() {
    let d = dirs();
    let lex = Lexicon::embedded();
    let ok = d.outside.join("ok.txt");
    let policy = FilePolicy::allow([&ok]).unwrap();
    let line = format!("{EMPTY5} CAT/ 0/0 0 bdn {};", text(&ok));
    assert_eq!(
        Position::from_cgp_with(&lex, &line, &policy)
            .unwrap()
            .board
            .size(),
        5
    );
    // Through a symlink to it too: the name is resolved first.
    let line = format!(
        "{EMPTY5} CAT/ 0/0 0 bdn {};",
        text(&d.allowed.join("link.txt"))
    );
    assert_eq!(
        Position::from_cgp_with(&lex, &line, &policy)
            .unwrap()
            .board
            .size(),
        5
    );
    for other in ["secret.txt", "tiles.txt", "ok.txt/..", "."] {
        let name = text(&d.outside.join(other));
        let line = format!("{EMPTY5} CAT/ 0/0 0 bdn {name};");
        let r = Position::from_cgp_with(&lex, &line, &policy);
        assert_eq!(
            named(r, Named::Layout, &name),
            NamedErrorKind::NotAvailable {
                files_allowed: true
            }
        );
    }
    // A path to allow must exist; an empty list allows no file.
    let e = FilePolicy::allow([d.outside.join("none")]).unwrap_err();
    assert!(matches!(e, Error::Io { .. }), "{e}");
    let none = FilePolicy::allow(Vec::<PathBuf>::new()).unwrap();
    assert!(!none.allows_files());
    assert!(!FilePolicy::builtin_only().allows_files());
    assert!(FilePolicy::any_file().allows_files());
}

#[test]
fn lexicons_by_name_under_each_policy() {
    let d = dirs();
    let policy = FilePolicy::allow([&d.allowed]).unwrap();
    for p in [
        FilePolicy::builtin_only(),
        policy.clone(),
        FilePolicy::any_file(),
    ] {
        for name in ["ENABLE", "enable1", "Enable2K"] {
            assert_eq!(p.lexicon(name).unwrap().word_count(), 172_820);
        }
    }
    let inside = text(&d.allowed.join("words.lexq"));
    assert_eq!(policy.lexicon(&inside).unwrap().word_count(), 3);
    assert_eq!(
        FilePolicy::any_file()
            .lexicon(&inside)
            .unwrap()
            .word_count(),
        3
    );
    let r = FilePolicy::builtin_only().lexicon(&inside);
    assert_eq!(
        named(r, Named::Lexicon, &inside),
        NamedErrorKind::NotAvailable {
            files_allowed: false
        }
    );
    let fifo = d.allowed.join("fifo");
    for name in [
        d.outside.join("words.lexq"),
        d.allowed.join("out/words.lexq"),
        d.allowed.join("missing.lexq"),
        d.allowed.join("fifo"),
        d.allowed.clone(),
        PathBuf::from("/dev/zero"),
    ] {
        let name = text(&name);
        let p = policy.clone();
        let n = name.clone();
        let r = within(&fifo, move || p.lexicon(&n).map(|_| ()));
        assert_eq!(
            named(r, Named::Lexicon, &name),
            NamedErrorKind::NotAvailable {
                files_allowed: true
            }
        );
    }
    // An allowed file that is no lexicon: not valid, and no more said.
    let tiny = text(&d.allowed.join("tiny.txt"));
    let r = policy.lexicon(&tiny);
    let e = r.as_ref().unwrap_err().to_string();
    assert_eq!(named(r, Named::Lexicon, &tiny), NamedErrorKind::Invalid);
    assert_eq!(unnamed(&e), "lexicon NAME: not a valid lexicon file");
    // Any file: the lexicon's own errors, and special files refused.
    let any = FilePolicy::any_file();
    let e = any.lexicon("/dev/zero").unwrap_err().to_string();
    assert!(e.contains("is a device, not a regular file"), "{e}");
    let f = text(&fifo);
    let e = within(&fifo, move || any.lexicon(&f).map(|_| ()))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("is a FIFO (named pipe), not a regular file"),
        "{e}"
    );
    let e = FilePolicy::any_file()
        .lexicon("nope.lexq")
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "nope.lexq: no such lexicon file, nor a built-in lexicon (ENABLE)"
    );
}

#[test]
fn any_file_reads_regular_files_only_and_says_what_is_wrong() {
    let d = dirs();
    let lex = Lexicon::embedded();
    let any = FilePolicy::any_file();
    let fifo = d.outside.join("fifo");
    let f = text(&fifo);
    // Layout::named and TileSet::named are any_file: a FIFO is refused
    // unopened, a device too.
    let e = within(&fifo, move || Layout::named(&f).map(|_| ()))
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        format!(
            "{}: is a FIFO (named pipe), not a regular file",
            text(&fifo)
        )
    );
    let f = text(&fifo);
    let e = within(&fifo, move || {
        TileSet::named(&f, &Alphabet::english()).map(|_| ())
    })
    .unwrap_err()
    .to_string();
    assert!(
        e.ends_with("is a FIFO (named pipe), not a regular file"),
        "{e}"
    );
    for name in ["/dev/zero", "/dev/null"] {
        let e = Layout::named(name).unwrap_err().to_string();
        assert_eq!(e, format!("{name}: is a device, not a regular file"));
    }
    let e = Layout::named(&text(&d.outside)).unwrap_err().to_string();
    assert!(e.ends_with("is a directory, not a regular file"), "{e}");
    // The CGP line under any_file: the detail of a bad file is given (its
    // reader could read it anyway).
    let secret = text(&d.outside.join("secret.txt"));
    let line = line15(&format!("bdn {secret};"));
    let e = Position::from_cgp_with(&lex, &line, &any)
        .unwrap_err()
        .to_string();
    assert!(e.contains("31 squares in a row"), "{e}");
    let e = Position::from_cgp_with(&lex, &line15("bdn nope;"), &any).unwrap_err();
    assert_eq!(
        e.to_string(),
        "nope: no such layout file, nor a built-in layout (standard, super, friends)"
    );
    // Alphabet files and word lists: regular files only.
    let f = text(&fifo);
    let e = within(&fifo, move || Alphabet::named(&f).map(|_| ()))
        .unwrap_err()
        .to_string();
    assert!(
        e.ends_with("is a FIFO (named pipe), not a regular file"),
        "{e}"
    );
    let e = Alphabet::named("/dev/zero").unwrap_err().to_string();
    assert_eq!(e, "/dev/zero: is a device, not a regular file");
    let f = fifo.clone();
    let e = within(&fifo, move || {
        WordList::new(Alphabet::english()).read_path(&f)
    })
    .unwrap_err();
    assert!(matches!(e, Error::NotRegularFile { .. }), "{e}");
    let f = fifo.clone();
    let e = within(&fifo, move || lexq::game::gcg::Game::read(&f).map(|_| ())).unwrap_err();
    let e = match e {
        lexq::game::Error::Core(e) => e,
        other => panic!("{other}"),
    };
    assert!(matches!(e, Error::NotRegularFile { .. }), "{e}");
}

#[test]
fn open_regular_and_read_file() {
    let d = dirs();
    let fifo = d.outside.join("fifo");
    let f = fifo.clone();
    let e = within(&fifo, move || lexq::files::open_regular(&f).map(|_| ())).unwrap_err();
    assert!(
        matches!(
            e,
            Error::NotRegularFile {
                what: "a FIFO (named pipe)",
                ..
            }
        ),
        "{e}"
    );
    let e = lexq::files::open_regular(&d.outside).unwrap_err();
    assert!(
        matches!(
            e,
            Error::NotRegularFile {
                what: "a directory",
                ..
            }
        ),
        "{e}"
    );
    let e = lexq::files::read_file("/dev/zero".as_ref(), 16, "a test file").unwrap_err();
    assert!(
        matches!(
            e,
            Error::NotRegularFile {
                what: "a device",
                ..
            }
        ),
        "{e}"
    );
    // Through a symlink to a regular file: read.
    let bytes = lexq::files::read_file(&d.allowed.join("link.txt"), 1 << 10, "a layout").unwrap();
    assert_eq!(bytes, TINY.as_bytes());
    // A sparse file larger than the cap is refused without being read.
    let big = d.outside.join("big");
    fs::File::create(&big).unwrap().set_len(1 << 40).unwrap();
    let e = lexq::files::read_file(&big, 1 << 20, "a layout file").unwrap_err();
    assert!(
        e.to_string()
            .ends_with("larger than 1 MiB, the most a layout file may be"),
        "{e}"
    );
}
