//! Every file the `lexq` command opens by name, given a FIFO or a device:
//! lexicons (`-L`, a CGP's `lex`, a GCG's `#lexicon`), word lists,
//! alphabets, layouts and tile sets (options and CGP `bdn`/`ld`), GCG
//! files, definitions and WordNet files, site directories. Each is refused
//! with "not a regular file" and exit 2, never a hang: every run is a child
//! killed after a time limit. Also `lexq serve --allow-file`.

#![cfg(unix)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use tempfile::TempDir;

thread_local! {
    /// The test's folder: lexq runs in it, and paths in it are given
    /// relative to it (the command cuts words over 80 characters in its
    /// messages, and a long temporary folder would be cut).
    static DIR: std::cell::RefCell<Option<PathBuf>> = const { std::cell::RefCell::new(None) };
}

fn lexq() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_lexq"));
    c.env_remove("LEXQ_LEXICON");
    if let Some(dir) = DIR.with(|d| d.borrow().clone()) {
        c.current_dir(dir);
    }
    c
}

/// `p`, relative to the test's folder if it is inside.
fn s(p: &Path) -> &str {
    let dir = DIR.with(|d| d.borrow().clone());
    let rel = match &dir {
        Some(d) => p.strip_prefix(d).unwrap_or(p),
        None => p,
    };
    rel.to_str().unwrap()
}

fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(ok.success());
}

/// The output of `child`, which must end within 20 s (it is killed, and
/// the test fails, if it does not).
#[track_caller]
fn finish(mut child: Child, what: &str) -> Output {
    let deadline = Instant::now() + Duration::from_secs(20);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: lexq hung for 20 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.wait_with_output().unwrap()
}

/// Runs lexq with `args` (and `stdin` as its input), within the limit.
#[track_caller]
fn run_in(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = lexq()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A child that exits first closes the pipe: ignore that.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    finish(child, &args.join(" "))
}

#[track_caller]
fn run(args: &[&str]) -> Output {
    run_in(args, b"")
}

/// Exit 2 and one `lexq: ...` line holding `needle`.
#[track_caller]
fn assert_error(o: &Output, needle: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "stderr: {err}");
    assert!(err.starts_with("lexq: "), "{err}");
    assert_eq!(err.lines().count(), 1, "not one line: {err}");
    assert!(err.contains(needle), "{needle:?} not in: {err}");
}

const EMPTY: &str = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 CAT/ 0/0 0";

struct Setup {
    dir: TempDir,
    fifo: PathBuf,
    words: PathBuf,
}

fn setup() -> Setup {
    let dir = TempDir::new().unwrap();
    DIR.with(|d| *d.borrow_mut() = Some(dir.path().to_path_buf()));
    let fifo = dir.path().join("fifo");
    mkfifo(&fifo);
    let words = dir.path().join("words.txt");
    std::fs::write(&words, "cat\nact\n").unwrap();
    Setup { dir, fifo, words }
}

#[test]
fn no_file_named_on_the_command_line_can_be_a_fifo_or_a_device() {
    let t = setup();
    let out = t.dir.path().join("out.lexq");
    let site_out = t.dir.path().join("site");
    let (fifo, words) = (s(&t.fifo), s(&t.words));
    for special in [fifo, "/dev/zero"] {
        let what = if special == fifo {
            "is a FIFO (named pipe), not a regular file"
        } else {
            "is a device, not a regular file"
        };
        let cases: Vec<Vec<&str>> = vec![
            vec!["-L", special, "check", "cat"],
            vec!["build", special, "-o", s(&out)],
            vec!["build", words, "--alphabet", special, "-o", s(&out)],
            vec!["selfplay", "--games", "1", "--layout", special],
            vec!["selfplay", "--games", "1", "--tiles", special],
            vec!["gcg", special],
            vec!["moves", "--gcg", special],
            vec![
                "site",
                "build",
                "--definitions",
                special,
                "-o",
                s(&site_out),
            ],
        ];
        for args in cases {
            let o = run(&args);
            assert_error(&o, &format!("{special}: "));
            assert_error(&o, what);
        }
        // A CGP line's layout, tile set and lexicon, in every command that
        // reads one.
        for op in ["bdn", "ld", "lex"] {
            let line = format!("{EMPTY} {op} {special};");
            for args in [
                vec!["moves", "--cgp", &line],
                vec!["board", "--cgp", &line],
                vec!["play", "--cgp", &line, "-"],
            ] {
                assert_error(&run(&args), what);
            }
            // In a batch: the line is an error, the next is answered.
            let o = run_in(
                &["moves", "--count"],
                format!("{line}\n{EMPTY}\n").as_bytes(),
            );
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{err}");
            assert!(
                err.starts_with("lexq: line 1: ") && err.contains(what),
                "{err}"
            );
            // One output line per input line: the bad line's is empty.
            assert_eq!(String::from_utf8_lossy(&o.stdout), "\n10\n");
        }
    }
    // The example of the issue: not "no such file".
    let o = run(&["moves", "--cgp", &format!("{EMPTY} lex /dev/zero;")]);
    assert_error(&o, "CGP lex: /dev/zero: is a device, not a regular file");
    let o = run(&["moves", "--cgp", &format!("{EMPTY} lex nowhere.lexq;")]);
    assert_error(
        &o,
        "CGP lex: nowhere.lexq: no such lexicon file, nor a built-in lexicon (ENABLE) (or give one with --lexicon)",
    );
    assert!(!out.exists() && !site_out.exists());
}

#[test]
fn a_game_file_names_no_special_file() {
    let t = setup();
    let fifo = s(&t.fifo);
    let game = t.dir.path().join("game.gcg");
    std::fs::write(
        &game,
        format!("#player1 a A\n#player2 b B\n#lexicon {fifo}\n"),
    )
    .unwrap();
    assert_error(
        &run(&["gcg", s(&game)]),
        "is a FIFO (named pipe), not a regular file",
    );
    for pragma in ["#board-layout", "#tile-distribution"] {
        std::fs::write(
            &game,
            format!("#player1 a A\n#player2 b B\n{pragma} {fifo}\n"),
        )
        .unwrap();
        // Refused (as neither built in nor a regular file), not opened.
        assert_error(&run(&["gcg", s(&game)]), fifo);
    }
}

#[test]
fn site_inputs_and_directories_are_regular_files_only() {
    let t = setup();
    let fifo = s(&t.fifo);
    // A WordNet folder whose index is a FIFO.
    let wordnet = t.dir.path().join("wordnet");
    std::fs::create_dir(&wordnet).unwrap();
    mkfifo(&wordnet.join("index.noun"));
    let out = t.dir.path().join("site");
    let o = run(&["site", "build", "--wordnet", s(&wordnet), "-o", s(&out)]);
    assert_error(&o, "index.noun: is a FIFO (named pipe), not a regular file");
    // A site directory whose site.json is a FIFO.
    let site = t.dir.path().join("fake-site");
    std::fs::create_dir(&site).unwrap();
    mkfifo(&site.join("site.json"));
    for args in [
        vec!["site", "search", "--site", s(&site), "cat"],
        vec!["site", "export", "--site", s(&site), "-o", s(&out)],
        vec!["serve", "--site", s(&site), "--addr", "127.0.0.1:0"],
    ] {
        assert_error(
            &run(&args),
            "site.json: is a FIFO (named pipe), not a regular file",
        );
    }
    // A real site whose index holds a FIFO: tantivy opens its files by
    // name (meta.json first, then each segment's).
    let lexicon = t.dir.path().join("words.lexq");
    let real = t.dir.path().join("real-site");
    assert_eq!(
        run(&["build", s(&t.words), "-o", s(&lexicon)])
            .status
            .code(),
        Some(0)
    );
    let o = run(&["site", "build", "-L", s(&lexicon), "-o", s(&real)]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let index = real.join("index");
    let segment = std::fs::read_dir(&index)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "idx"))
        .unwrap();
    for file in [index.join("meta.json"), segment] {
        let kept = t.dir.path().join("kept");
        std::fs::rename(&file, &kept).unwrap();
        mkfifo(&file);
        let name = file.file_name().unwrap().to_str().unwrap();
        // meta.json is read (and checked against site.json) before the
        // index is opened; a segment file is refused as tantivy opens it.
        let want = if name == "meta.json" {
            "index/meta.json: is a FIFO (named pipe), not a regular file".to_string()
        } else {
            format!("not a usable site index: index file {name} is not a regular file")
        };
        assert_error(&run(&["site", "search", "--site", s(&real), "cat"]), &want);
        std::fs::remove_file(&file).unwrap();
        std::fs::rename(&kept, &file).unwrap();
    }
    let o = run(&["site", "search", "--site", s(&real), "word:cat"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // --allow-file: each path must exist, and is checked at start.
    let missing = t.dir.path().join("missing");
    assert_error(
        &run(&[
            "serve",
            "--allow-file",
            s(&missing),
            "--addr",
            "127.0.0.1:0",
        ]),
        &format!("--allow-file {}: No such file", s(&missing)),
    );
    let _ = fifo;
}

#[test]
fn the_command_line_keeps_detailed_messages_for_its_own_files() {
    // The user of the command names the file and can read it anyway: the
    // error says what is wrong where (a server says only "not a valid
    // board layout file": site/tests/files.rs).
    let t = setup();
    let bad = t.dir.path().join("bad.txt");
    std::fs::write(&bad, "root:x:0:0:root:/root:/bin/bash\n..\n").unwrap();
    let line = format!("{EMPTY} bdn {};", s(&bad));
    assert_error(
        &run(&["moves", "--cgp", &line]),
        "line 1: 31 squares in a row of a 2-row board",
    );
    let layout = t.dir.path().join("tiny.txt");
    std::fs::write(&layout, "#...#\n.-.-.\n..*..\n.-.-.\n#...#\n").unwrap();
    let o = run(&[
        "moves",
        "--count",
        "--cgp",
        &format!("5/5/5/5/5 CAT/ 0/0 0 bdn {};", s(&layout)),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // Across only on an empty board, through the centre of 5 squares: AT
    // and TA at 2 places each, ACT and CAT at 3.
    assert_eq!(String::from_utf8_lossy(&o.stdout), "10\n");
}
