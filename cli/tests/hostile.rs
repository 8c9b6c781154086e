//! The `lexq` binary against a hostile or careless user: special files as
//! lexicons and outputs, full and closed output streams, interrupts, crafted
//! lexicons, odd input, huge arguments. Every failure must be one
//! `lexq: ...` line and exit 2, never a panic (exit 101) or a hang.
//!
//! `files`: every file the command opens by name, given a FIFO or a device.

#![cfg(unix)]

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use tempfile::TempDir;

use common::*;

/// A small lexicon built by the binary, and its word list.
fn small(dir: &TempDir) -> (PathBuf, PathBuf) {
    let list = dir.path().join("words.txt");
    std::fs::write(&list, "cat\ncats\nact\ndog\n").unwrap();
    let lex = dir.path().join("words.lexq");
    let o = run(&["build", path_str(&list), "-o", path_str(&lex)]);
    assert!(o.status.success(), "{}", stderr(&o));
    (lex, list)
}

#[test]
fn special_files_as_lexicon_are_refused_without_hanging() {
    let dir = TempDir::new().unwrap();
    let fifo = dir.path().join("fifo.lexq");
    mkfifo(&fifo);
    let mut child = lexq()
        .args(["-L", path_str(&fifo), "check", "cat"])
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let status = wait_or_kill(&mut child, 20);
    assert_eq!(status.code(), Some(2));
    let o = child.wait_with_output().unwrap();
    assert!(stderr(&o).contains("is a FIFO"), "{}", stderr(&o));

    assert_one_line_error(&run(&["-L", "/dev/null", "check", "cat"]), "is a device");
    assert_one_line_error(
        &run(&["-L", path_str(dir.path()), "check", "cat"]),
        "is a directory",
    );
    assert_one_line_error(
        &run(&["-L", path_str(&dir.path().join("none")), "check", "cat"]),
        "No such file",
    );
}

#[test]
fn full_stderr_and_stdout_do_not_panic() {
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    // An error whose message cannot be written: still exit 2.
    for args in [
        &["contains", ""][..],
        &["-L", "/nonexistent", "check", "a"],
        &["--bogus"],
    ] {
        let o = lexq().args(args).stderr(full()).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
    }
    // A check whose word cannot be read writes to stdout only.
    let o = lexq().args(["check", ""]).stderr(full()).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    // Results that cannot be written: an error (on stderr), exit 2.
    for args in [
        &["check", "cat"][..],
        &["pattern", "*"],
        &["info", "--json"],
    ] {
        let o = lexq().args(args).stdout(full()).output().unwrap();
        assert_one_line_error(&o, "standard output: No space left on device");
    }
    // The move generator's output too; and a batch whose standard input
    // is a folder says which input it could not read.
    let cgp = "15/15/15/15/15/15/15/4CARE7/15/15/15/15/15/15/15 AEINRS?/ 12/0 0";
    let o = lexq()
        .args(["moves", "--all", "--cgp", cgp])
        .stdout(full())
        .output()
        .unwrap();
    assert_one_line_error(&o, "standard output: No space left on device");
    let o = lexq()
        .args(["moves", "-c"])
        .stdin(std::fs::File::open("/").unwrap())
        .output()
        .unwrap();
    assert_one_line_error(&o, "<stdin>: ");
    // Both full: exit 2, no panic.
    let o = lexq()
        .args(["pattern", "*"])
        .stdout(full())
        .stderr(full())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

/// The exit status of `args` with stdout a pipe nobody reads.
fn status_with_closed_stdout(args: &[&str]) -> (Option<i32>, String) {
    let mut child = lexq()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let status = wait_or_kill(&mut child, 60);
    let o = child.wait_with_output().unwrap();
    (status.code(), stderr(&o))
}

#[test]
fn a_closed_pipe_does_not_change_the_exit_status() {
    assert_eq!(
        status_with_closed_stdout(&["check", "zzz", "cat"]),
        (Some(1), String::new())
    );
    assert_eq!(
        status_with_closed_stdout(&["check", "cat"]),
        (Some(0), String::new())
    );
    assert_eq!(
        status_with_closed_stdout(&["contains", "qzx"]),
        (Some(1), String::new())
    );
    assert_eq!(
        status_with_closed_stdout(&["pattern", "*"]),
        (Some(0), String::new())
    );
    // The board commands too (they reported "Broken pipe" with status 2).
    let empty = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0";
    for args in [
        &["moves", "--cgp", empty, "--all"][..],
        &["moves", "--cgp", empty, "--json"],
        &["board", "--cgp", empty],
        &["play", "--cgp", empty, "8H", "RETAINS"],
    ] {
        assert_eq!(
            status_with_closed_stdout(args),
            (Some(0), String::new()),
            "{args:?}"
        );
    }
    // Self-play stops once nobody reads (100,000 games would take hours).
    assert_eq!(
        status_with_closed_stdout(&["selfplay", "--games", "100000"]),
        (Some(0), String::new())
    );
}

#[test]
fn output_that_is_an_input_or_not_a_regular_file_is_refused() {
    let dir = TempDir::new().unwrap();
    let (_, list) = small(&dir);
    let before = std::fs::read(&list).unwrap();
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink(&list, &link).unwrap();
    let hard = dir.path().join("hard.txt");
    std::fs::hard_link(&list, &hard).unwrap();
    for out in [&list, &link, &hard] {
        let o = run(&["build", path_str(&list), "-o", path_str(out)]);
        assert_one_line_error(&o, "is the input");
    }
    // Through the other input of two.
    let other = dir.path().join("other.txt");
    std::fs::write(&other, "zebra\n").unwrap();
    let o = run(&[
        "build",
        path_str(&other),
        path_str(&link),
        "-o",
        path_str(&hard),
    ]);
    assert_one_line_error(&o, "is the input");
    assert_eq!(
        std::fs::read(&list).unwrap(),
        before,
        "the word list changed"
    );
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );

    let fifo = dir.path().join("out.fifo");
    mkfifo(&fifo);
    // A FIFO or a device as the output: the build, and self-play's
    // positions file too (it waited for a reader of the FIFO for ever, and
    // wrote into /dev/full).
    let selfplay = ["selfplay", "--games", "1"];
    for (command, device) in [
        (&["build", path_str(&list)][..], "/dev/null"),
        (&selfplay[..], "/dev/full"),
    ] {
        let mut child = lexq()
            .args(command)
            .args(["-o", path_str(&fifo)])
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        assert_eq!(wait_or_kill(&mut child, 20).code(), Some(2), "{command:?}");
        let o = child.wait_with_output().unwrap();
        assert!(stderr(&o).contains("is a FIFO"), "{}", stderr(&o));
        let mut args = command.to_vec();
        args.extend(["-o", device]);
        assert_one_line_error(&run(&args), "is a device");
    }
    assert_one_line_error(
        &run(&["selfplay", "--games", "1", "--gcg-dir", path_str(&list)]),
        "not a folder",
    );
    assert!(Path::new("/dev/null").exists());
    assert_one_line_error(
        &run(&["build", path_str(&list), "-o", path_str(dir.path())]),
        "is a directory",
    );
    // A symlink to a new file is written through, the link kept.
    let target = dir.path().join("target.lexq");
    let out_link = dir.path().join("out-link.lexq");
    std::os::unix::fs::symlink(&target, &out_link).unwrap();
    let o = run(&["build", path_str(&list), "-o", path_str(&out_link)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(target.is_file());
    assert!(
        std::fs::symlink_metadata(&out_link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

fn temp_files(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

#[test]
fn ctrl_c_during_the_final_write_leaves_no_temporary_file() {
    let dir = TempDir::new().unwrap();
    let enable = Path::new(env!("CARGO_MANIFEST_DIR")).join("../indexes/enable1.txt");
    let out = dir.path().join("enable.lexq");
    // Interrupt as soon as the temporary file appears; retry if the build
    // finished before it was seen.
    let mut caught = 0;
    for _ in 0..20 {
        let mut child = lexq()
            .args(["build", path_str(&enable), "-o", path_str(&out)])
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut seen = false;
        while child.try_wait().unwrap().is_none() {
            if !temp_files(dir.path()).is_empty() {
                sigint(&child);
                seen = true;
                break;
            }
        }
        let status = wait_or_kill(&mut child, 60);
        assert!(temp_files(dir.path()).is_empty(), "a .tmp file was left");
        if seen && status.code() == Some(130) {
            caught += 1;
            let o = child.wait_with_output().unwrap();
            assert!(stderr(&o).contains("interrupted"), "{}", stderr(&o));
            if caught == 3 {
                break;
            }
        }
        let _ = std::fs::remove_file(&out);
    }
    assert!(caught > 0, "never interrupted during the write");
    // An interrupt that lands just after the rename leaves the finished
    // file in place (exit 130 all the same): start the next case clean.
    let _ = std::fs::remove_file(&out);
    // Interrupted at once, during the build: nothing written, exit 130.
    let mut child = lexq()
        .args(["build", path_str(&enable), "-o", path_str(&out)])
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(50));
    sigint(&child);
    let status = wait_or_kill(&mut child, 60);
    assert!(temp_files(dir.path()).is_empty());
    if status.code() == Some(130) {
        assert!(!out.exists());
    }
}

#[test]
fn check_reads_stdin_and_goes_on_past_bad_words() {
    let mut child = lexq()
        .args(["check", "-", "zebra"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let long = "q".repeat(64);
    write!(
        child.stdin.take().unwrap(),
        "cat\r\n\n don't \n{long}\nquixotic\n"
    )
    .unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    let lines: Vec<String> = stdout(&o).lines().map(String::from).collect();
    assert_eq!(lines.len(), 5, "{lines:?}");
    assert_eq!(lines[0], "CAT valid");
    assert!(lines[1].starts_with("DON'T invalid (") && lines[1].contains("\"'\""));
    assert!(lines[2].contains("invalid (") && lines[2].contains("64 tiles"));
    assert_eq!(lines[3], "QUIXOTIC valid");
    assert_eq!(lines[4], "ZEBRA valid");
    // In JSON, the reason is the "error" key.
    let o = run(&["check", "--json", "cat", "c4t"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v[1]["valid"], false);
    assert!(v[1]["error"].as_str().unwrap().contains("\"4\""));
    assert!(v[0].get("error").is_none());
    // Keys in the documented order.
    assert!(stdout(&o).starts_with("[{\"word\":\"CAT\",\"valid\":true}"));
}

#[test]
fn endless_inputs_are_refused_not_read_until_memory_runs_out() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("z.lexq");
    // A device is no file (tests/all/files.rs has every kind of input);
    // a (sparse) file larger than a word list can be is refused unread.
    let o = run(&["build", "/dev/zero", "-o", path_str(&out)]);
    assert_one_line_error(&o, "/dev/zero: is a device, not a regular file");
    let huge = dir.path().join("huge.txt");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(257 << 20)
        .unwrap();
    let o = run(&["build", path_str(&huge), "-o", path_str(&out)]);
    assert_one_line_error(&o, "larger than 256 MiB, the most a word list may be");
    let site = dir.path().join("site");
    let o = run(&[
        "site",
        "build",
        "--definitions",
        path_str(&huge),
        "-o",
        path_str(&site),
    ]);
    assert_one_line_error(&o, "huge.txt: larger than 256 MiB");
    assert!(!out.exists() && !site.exists());
    // Standard input: words to check, positions to answer.
    let from_zero = |args: &[&str]| {
        lexq()
            .args(args)
            .stdin(std::fs::File::open("/dev/zero").unwrap())
            .output()
            .unwrap()
    };
    assert_one_line_error(&from_zero(&["check", "-"]), "<stdin>: larger than 256 MiB");
    assert_one_line_error(
        &from_zero(&["moves"]),
        "<stdin>: line 1: longer than 65536 bytes",
    );
    // A game file far larger than a game.
    let gcg = dir.path().join("big.gcg");
    std::fs::File::create(&gcg)
        .unwrap()
        .set_len(17 << 20)
        .unwrap();
    assert_one_line_error(
        &run(&["gcg", path_str(&gcg)]),
        "larger than 16 MiB, the most a game file may be",
    );
    // Board layouts and tile sets: a name that is neither built in nor a
    // file, and a file far larger than one.
    let big = dir.path().join("big.txt");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(2 << 20)
        .unwrap();
    for (opt, what) in [("--layout", "layout"), ("--tiles", "tile")] {
        assert_one_line_error(
            &run(&["selfplay", "--games", "1", opt, "nope"]),
            &format!("nope: no such {what} file, nor a built-in"),
        );
        assert_one_line_error(
            &run(&["selfplay", "--games", "1", opt, path_str(&big)]),
            &format!("big.txt: larger than 1 MiB, the most a {what} file may be"),
        );
    }
}

#[test]
fn huge_arguments_are_cut_in_messages() {
    let huge = "x".repeat(100_000);
    let o = run(&["pattern", &format!("[{huge}")]);
    assert_one_line_error(&o, "…");
    assert!(stderr(&o).len() < 400, "{} bytes", stderr(&o).len());
    let o = run(&["-L", &huge, "check", "a"]);
    assert_one_line_error(&o, "…");
    assert!(stderr(&o).len() < 400);
    let o = run(&["build", "--alphabet", &huge, "-o", "x.lexq", "words.txt"]);
    assert_one_line_error(&o, "…");
    assert!(stderr(&o).len() < 400);
}

#[test]
fn unknown_alphabet_lists_the_built_in_ones() {
    let o = run(&[
        "build",
        "--alphabet",
        "klingon",
        "-o",
        "x.lexq",
        "words.txt",
    ]);
    assert_one_line_error(&o, "english, spanish, catalan");
}

#[test]
fn parse_errors_are_one_line() {
    for (args, needle) in [
        (&["--bogus"][..], "--bogus"),
        (&["check"], "<WORDS>"),
        (&[], "no command"),
        (&["frobnicate"], "frobnicate"),
        (&["contains", "a", "--len", "x"], "--len"),
        (
            &["contains", "a", "--len", "3", "--min-len", "4"],
            "--len 3, --min-len 4 exclude each other",
        ),
        (&["-L"], "--lexicon"),
    ] {
        let o = run(args);
        assert_one_line_error(&o, needle);
        assert!(o.stdout.is_empty());
    }
    // --help and --version still print normally.
    let o = run(&["--help"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("Usage"));
    assert_eq!(run(&["--version"]).status.code(), Some(0));
}

#[test]
fn empty_search_arguments_are_errors() {
    // An unset shell variable: no word is empty, so each is a mistake, not
    // an empty answer (regexes matched only the empty word and exited 1).
    for args in [
        &["pattern", ""][..],
        &["contains", ""],
        &["regex", ""],
        &["regex", " "],
        &["find", "--regex", ""],
        &["find", "--not-regex", ""],
    ] {
        let o = run(args);
        assert_one_line_error(&o, "is empty");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn empty_lexq_lexicon_is_unset() {
    let o = lexq()
        .env("LEXQ_LEXICON", "")
        .args(["check", "quixotic"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "QUIXOTIC valid\n");
}

#[test]
fn crafted_lexicon_is_refused_not_a_panic() {
    let dir = TempDir::new().unwrap();
    let (lex, _) = small(&dir);
    let good = std::fs::read(&lex).unwrap();
    let field = |at: usize| u64::from_le_bytes(good[at..at + 8].try_into().unwrap()) as usize;
    let (fst_at, fst_len, arcs_at) = (field(56), field(64), field(80));
    let mut refused = 0;
    // Damage each byte of the fst's nodes and of the arc table in turn,
    // checksums re-sealed: queries never panic; `verify` refuses the
    // malformed automata.
    for at in (fst_at + 16..fst_at + fst_len - 24).chain(arcs_at..good.len() - 8) {
        let mut bad = good.clone();
        bad[at] ^= 0xa5;
        assert!(lexq::raw::format::reseal(&mut bad));
        let path = dir.path().join("crafted.lexq");
        std::fs::write(&path, &bad).unwrap();
        for args in [
            &["pattern", "*"][..],
            &["check", "cat"],
            &["anagram", "tac?"],
        ] {
            let mut all = vec!["-L", path_str(&path)];
            all.extend_from_slice(args);
            let o = run(&all);
            let err = stderr(&o);
            assert!(!err.contains("panicked"), "{err}");
            assert!(matches!(o.status.code(), Some(0..=2)), "{all:?}: {err}");
        }
        let o = run(&["-L", path_str(&path), "verify"]);
        match o.status.code() {
            Some(0) => {}
            Some(2) => {
                let err = stderr(&o);
                assert!(
                    err.contains("corrupt fst section") || err.contains("corrupt arcs section"),
                    "{err}"
                );
                refused += 1;
            }
            other => panic!("verify exit {other:?}: {}", stderr(&o)),
        }
    }
    assert!(refused > 0);
}

#[test]
fn build_says_why_nothing_was_taken() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("out.lexq");
    let case = |name: &str, bytes: &[u8], extra: &[&str], needle: &str| {
        let list = dir.path().join(name);
        std::fs::write(&list, bytes).unwrap();
        let mut args = vec!["build", path_str(&list), "-o", path_str(&out)];
        args.extend_from_slice(extra);
        let o = run(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(needle), "{needle:?} not in: {err}");
        assert!(!out.exists());
    };
    case("cr.txt", b"cat\rdog\rbird\r", &[], "end in CR alone");
    let utf16: Vec<u8> = "\u{feff}cat\ndog\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    case("utf16.txt", &utf16, &[], "UTF-16");
    case("nul.txt", b"cat\0dog\n", &[], "NUL byte");
    case(
        "short.txt",
        b"cat\ndog\n",
        &["--min-len", "5"],
        "--min-len 5",
    );
    case(
        "long.txt",
        b"cat\ndog\n",
        &["--max-len", "2"],
        "left out all 2 words",
    );
}

#[test]
fn blanks_in_lowercase_and_hooks_of_non_words() {
    let o = run(&["anagram", "ca?", "--blanks"]);
    let words: Vec<&str> = std::str::from_utf8(&o.stdout).unwrap().lines().collect();
    assert!(words.contains(&"CAt"), "{words:?}");
    // Each word has exactly one lowercase letter: the blank.
    for w in &words {
        assert_eq!(w.chars().filter(|c| c.is_lowercase()).count(), 1, "{w}");
    }
    let o = run(&["subanagram", "ax?", "--blanks", "--json"]);
    let v: Vec<String> = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v.contains(&"AX".to_string()), "{v:?}");
    assert!(v.iter().any(|w| w.chars().any(char::is_lowercase)));
    // Without --blanks, all uppercase.
    let o = run(&["anagram", "ca?"]);
    assert!(!stdout(&o).chars().any(char::is_lowercase));
    let o = run(&["hooks", "care", "zzz"]);
    assert_eq!(stdout(&o), "S CARE DRSTX\n- ZZZ* -\n");
}

mod files {
    //! Every file the `lexq` command opens by name, given a FIFO or a device:
    //! lexicons (`-L`, a CGP's `lex`, a GCG's `#lexicon`), word lists,
    //! alphabets, layouts and tile sets (options and CGP `bdn`/`ld`), GCG
    //! files, definitions and WordNet files, site directories. Each is refused
    //! with "not a regular file" and exit 2, never a hang: every run is a child
    //! killed after a time limit. Also `lexq serve --allow-file`.
    #![cfg(unix)]

    use std::io::Write;
    use std::path::{Path, PathBuf};
    use std::process::{Command, Output, Stdio};

    use tempfile::TempDir;

    use crate::common::*;

    thread_local! {
        /// The test's folder: lexq runs in it, and paths in it are given
        /// relative to it (the command cuts words over 80 characters in its
        /// messages, and a long temporary folder would be cut).
        static DIR: std::cell::RefCell<Option<PathBuf>> = const { std::cell::RefCell::new(None) };
    }

    fn lexq() -> Command {
        let mut c = crate::common::lexq();
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
                assert_one_line_error(&o, &format!("{special}: "));
                assert_one_line_error(&o, what);
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
                    assert_one_line_error(&run(&args), what);
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
        assert_one_line_error(&o, "CGP lex: /dev/zero: is a device, not a regular file");
        let o = run(&["moves", "--cgp", &format!("{EMPTY} lex nowhere.lexq;")]);
        assert_one_line_error(
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
        assert_one_line_error(
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
            assert_one_line_error(&run(&["gcg", s(&game)]), fifo);
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
        assert_one_line_error(&o, "index.noun: is a FIFO (named pipe), not a regular file");
        // A site directory whose site.json is a FIFO.
        let site = t.dir.path().join("fake-site");
        std::fs::create_dir(&site).unwrap();
        mkfifo(&site.join("site.json"));
        for args in [
            vec!["site", "search", "--site", s(&site), "cat"],
            vec![
                "site",
                "export",
                "--site",
                s(&site),
                "--base-url",
                "https://example.org",
                "-o",
                s(&out),
            ],
            vec!["serve", "--site", s(&site), "--addr", "127.0.0.1:0"],
        ] {
            assert_one_line_error(
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
            assert_one_line_error(&run(&["site", "search", "--site", s(&real), "cat"]), &want);
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
        assert_one_line_error(
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
        assert_one_line_error(
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
}
