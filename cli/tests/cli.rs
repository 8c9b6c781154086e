//! The `lexq` binary end to end: building from messy word lists, bad
//! arguments and bad files, output formats, exit codes, other alphabets.

mod common;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use tempfile::TempDir;

use common::*;

/// Builds a lexicon from `text` in `dir`, returning its path and the output.
fn build(dir: &TempDir, text: &str, extra: &[&str]) -> (PathBuf, Output) {
    let list = dir.path().join("words.txt");
    std::fs::write(&list, text).unwrap();
    let out = dir.path().join("words.lexq");
    let mut args = vec!["build", list.to_str().unwrap(), "-o", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    let o = run(&args);
    (out, o)
}

/// Every word of a lexicon file, via `pattern *`.
fn all_words(lexicon: &Path) -> Vec<String> {
    let o = run(&["-L", lexicon.to_str().unwrap(), "pattern", "*"]);
    stdout(&o).lines().map(String::from).collect()
}

#[test]
fn build_tolerates_messy_lists_and_reports_bad_lines() {
    let dir = TempDir::new().unwrap();
    let text =
        "\u{feff}# a comment\r\ncat\r\n\r\n  Dog  \nCAT\ncats\nrock'n'roll\nx\n\t\nfoo bar\n";
    let (out, o) = build(&dir, text, &["-v"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("skipped 2 lines"), "{err}");
    assert!(err.contains("words.txt:7: \"rock'n'roll\""), "{err}");
    assert!(err.contains("words.txt:10: \"foo bar\""), "{err}");
    // The summary line: words, entries, bytes, bytes per word, seconds.
    assert!(err.contains("4 words, 11 GADDAG entries"), "{err}");
    assert_eq!(all_words(&out), ["CAT", "CATS", "DOG", "X"]);
}

#[test]
fn build_is_quiet_when_stderr_is_piped() {
    let dir = TempDir::new().unwrap();
    let (_, o) = build(&dir, "cat\ndog\n", &[]);
    assert_eq!(o.status.code(), Some(0));
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
}

#[test]
fn build_strict_fails_and_leaves_the_old_file() {
    let dir = TempDir::new().unwrap();
    let (out, o) = build(&dir, "cat\ndog\n", &[]);
    assert_eq!(o.status.code(), Some(0));
    let before = std::fs::read(&out).unwrap();
    let (_, o) = build(&dir, "cat\nd0g\nemu\n", &["--strict"]);
    assert_error(&o, "words.txt:2");
    assert!(stderr(&o).contains("\"0\""));
    assert_eq!(std::fs::read(&out).unwrap(), before, "old lexicon replaced");
    // No temporary files left behind.
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn build_length_limits_and_overlong_words() {
    let dir = TempDir::new().unwrap();
    let long = "a".repeat(64);
    let text = format!("a\nab\nabc\nabcd\n{long}\n");
    let (out, o) = build(&dir, &text, &["--min-len", "2", "--max-len", "3"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stderr(&o).contains("longer than the maximum of 63"),
        "{}",
        stderr(&o)
    );
    assert_eq!(all_words(&out), ["AB", "ABC"]);
    let (_, o) = build(&dir, &long, &["--strict"]);
    assert_error(&o, "64 tiles");
}

#[test]
fn build_errors() {
    let dir = TempDir::new().unwrap();
    let (_, o) = build(&dir, "# nothing\n\n", &[]);
    assert_error(&o, "no usable words");
    let o = run(&["build", "/nonexistent/words.txt", "-o", "/tmp/x.lexq"]);
    assert_error(&o, "/nonexistent/words.txt");
    let list = dir.path().join("w.txt");
    std::fs::write(&list, "cat\n").unwrap();
    let o = run(&[
        "build",
        list.to_str().unwrap(),
        "-o",
        "/nonexistent/dir/x.lexq",
    ]);
    assert_error(&o, "/nonexistent/dir");
    let o = run(&[
        "build",
        list.to_str().unwrap(),
        "-o",
        "x",
        "--alphabet",
        "klingon",
    ]);
    assert_error(&o, "klingon");
}

#[test]
fn build_reads_stdin() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("in.lexq");
    let o = run_stdin(
        &["build", "-", "-o", out.to_str().unwrap()],
        b"zebra\nyak\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(all_words(&out), ["YAK", "ZEBRA"]);
}

#[test]
fn lexicon_selection_and_bad_files() {
    let dir = TempDir::new().unwrap();
    let (good, _) = build(&dir, "cat\ncats\n", &[]);
    // LEXQ_LEXICON selects the file; --lexicon wins over it.
    let o = lexq()
        .env("LEXQ_LEXICON", &good)
        .args(["starts", "ca"])
        .output()
        .unwrap();
    assert_eq!(stdout(&o), "CAT\nCATS\n");
    let o = run(&["-L", "/nonexistent.lexq", "check", "cat"]);
    assert_error(&o, "/nonexistent.lexq");
    let o = run(&["-L", dir.path().to_str().unwrap(), "check", "cat"]);
    assert_error(&o, "directory");
    let empty = dir.path().join("empty.lexq");
    std::fs::write(&empty, b"").unwrap();
    assert_error(
        &run(&["-L", empty.to_str().unwrap(), "check", "cat"]),
        "empty file",
    );
    let text = dir.path().join("words.txt");
    let o = run(&["-L", text.to_str().unwrap(), "check", "cat"]);
    assert_error(&o, "not a lexq lexicon");

    let bytes = std::fs::read(&good).unwrap();
    let bad = dir.path().join("bad.lexq");
    std::fs::write(&bad, &bytes[..bytes.len() - 10]).unwrap();
    assert_error(
        &run(&["-L", bad.to_str().unwrap(), "check", "cat"]),
        "truncated",
    );
    let mut flipped = bytes.clone();
    let at = flipped.len() - 30;
    flipped[at] ^= 0x40;
    std::fs::write(&bad, &flipped).unwrap();
    assert_error(&run(&["-L", bad.to_str().unwrap(), "verify"]), "checksum");
    let mut v9 = bytes.clone();
    v9[8] = 9;
    std::fs::write(&bad, &v9).unwrap();
    assert_error(
        &run(&["-L", bad.to_str().unwrap(), "info"]),
        "format version 9",
    );

    let o = run(&["-L", good.to_str().unwrap(), "verify"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("ok (2 words"), "{}", stdout(&o));
}

#[test]
fn bad_query_arguments() {
    assert_error(
        &run(&["contains", "a1"]),
        "\"1\" is not a letter of the english alphabet",
    );
    assert_error(&run(&["starts", ""]), "empty");
    // A word check reports an unreadable word as invalid, with the reason.
    let o = run(&["check", "caté"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("invalid (") && stdout(&o).contains("\"é\""),
        "{}",
        stdout(&o)
    );
    assert_error(&run(&["pattern", "[ab"]), "without a matching ']'");
    assert_error(&run(&["pattern", "a]"]), "without a matching '['");
    assert_error(&run(&["pattern", "[^a-z]"]), "matches no letter");
    assert_error(&run(&["pattern", "[z-a]"]), "backwards");
    assert_error(&run(&["pattern", "c#t"]), "\"#\"");
    assert_error(&run(&["regex", "(ab"]), "regex \"(ab\"");
    assert_error(&run(&["regex", r"\bcat"]), "word boundary");
    assert_error(&run(&["regex", "(?:[a-z]{1000}){50}"]), "exceeded limit");
    // An exponential DFA is refused by the size cap (no selective literal
    // nor run of classes to anchor on: `(?:[ab]*a[ab]{20})|c` is split
    // into its branches and anchored on the A, and `[ab]*[ac][ab]{20}`
    // on the run of classes from [ac], with small automata either side:
    // both answer, with no word).
    assert_error(&run(&["regex", ".*a.{20}"]), "exceeded");
    let o = run(&["regex", "[ab]*[ac][ab]{20}"]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(1), ""));
    let long = "a".repeat(2000);
    assert_error(&run(&["regex", &long]), "longer than 1024 bytes");
    assert_error(&run(&["anagram", "ab1"]), "\"1\"");
    assert_error(&run(&["anagram", &"a".repeat(70)]), "more than 63 tiles");
    assert_error(&run(&["subanagram", "ab", "--through", "c-d"]), "\"-\"");
    // Usage errors are exit 2 too.
    assert_eq!(run(&["contains"]).status.code(), Some(2));
    assert_eq!(run(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(
        run(&["contains", "a", "--len", "3", "--min-len", "4"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn exit_codes_like_grep() {
    assert_eq!(run(&["contains", "quix"]).status.code(), Some(0));
    assert_eq!(run(&["contains", "qxz"]).status.code(), Some(1));
    assert_eq!(run(&["check", "cat", "dog"]).status.code(), Some(0));
    assert_eq!(run(&["check", "cat", "dgo"]).status.code(), Some(1));
    let o = run(&["contains", "qxz", "--count"]);
    assert_eq!((stdout(&o).as_str(), o.status.code()), ("0\n", Some(1)));
}

#[test]
fn json_output_parses() {
    let o = run(&["anagram", "ster", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v, serde_json::json!(["ERST", "REST", "RETS"]));
    let o = run(&["check", "cat", "xyzzy", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        v,
        serde_json::json!([{"word": "CAT", "valid": true}, {"word": "XYZZY", "valid": false}])
    );
    let o = run(&["info", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["words"], 172_820);
    assert_eq!(v["entries"], 1_570_508);
    assert_eq!(v["alphabet"], "english");
    assert_eq!(v["format_version"], 4);
    assert_eq!(v["arcs_bytes"], 2_828_866);
    let o = run(&["contains", "qxz", "--json"]);
    assert_eq!(stdout(&o), "[]\n");
}

#[test]
fn sort_limit_and_lengths() {
    let o = run(&["anagram", "??q", "--sort", "length"]);
    assert_eq!(stdout(&o), "QAT\nQUA\nSUQ\n");
    let o = run(&["starts", "quiz", "--sort", "length", "--limit", "2"]);
    assert_eq!(stdout(&o), "QUIZZICALITIES\nQUIZZICALITY\n");
    let o = run(&["ends", "ity", "--min-len", "4", "--max-len", "5"]);
    let list = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../indexes/enable1.txt"
    ))
    .unwrap();
    let mut expected: Vec<String> = list
        .lines()
        .filter(|w| w.ends_with("ity") && (4..=5).contains(&w.len()))
        .map(str::to_uppercase)
        .collect();
    expected.sort();
    assert!(expected.len() > 3);
    assert_eq!(stdout(&o), expected.join("\n") + "\n");
}

#[test]
fn closed_pipe_is_not_an_error() {
    let mut child = lexq()
        .args(["pattern", "*"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    drop(child.stdout.take());
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(err.is_empty(), "stderr: {err}");
    assert_eq!(status.code(), Some(0));
}

#[test]
fn embedded_lexicon_is_enable_built_by_build() {
    // `lexq build indexes/enable1.txt` gives the same file as the one
    // compiled in: same bytes, and the same counts and size reported.
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("enable.lexq");
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/../indexes/enable1.txt");
    assert!(
        run(&["build", src, "-o", out.to_str().unwrap()])
            .status
            .success()
    );
    let embedded = lexq::Lexicon::embedded();
    assert!(
        std::fs::read(&out).unwrap() == embedded.file_bytes(),
        "the embedded lexicon (indexes/enable1.lexq) differs from `lexq build indexes/enable1.txt`: \
         regenerate it with `cargo run -p lexq-cli -- build indexes/enable1.txt -o indexes/enable1.lexq`"
    );
    let built: serde_json::Value =
        serde_json::from_slice(&run(&["-L", out.to_str().unwrap(), "info", "--json"]).stdout)
            .unwrap();
    let embedded: serde_json::Value =
        serde_json::from_slice(&run(&["info", "--json"]).stdout).unwrap();
    for key in [
        "words",
        "entries",
        "bytes",
        "fst_bytes",
        "max_word_len",
        "tiles",
    ] {
        assert_eq!(built[key], embedded[key], "{key}");
    }
}

#[test]
fn spanish_multi_letter_tiles() {
    let dir = TempDir::new().unwrap();
    let sample = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/spanish-sample.txt"
    );
    let out = dir.path().join("es.lexq");
    let o = run(&[
        "build",
        sample,
        "-o",
        out.to_str().unwrap(),
        "--alphabet",
        "spanish",
        "-v",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("not in the spanish alphabet"),
        "K and W are not Spanish tiles"
    );
    let l = out.to_str().unwrap();
    let o = run(&["-L", l, "info", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["alphabet"], "spanish");
    assert_eq!(v["tiles"].as_array().unwrap().len(), 28);
    // Accents read as the plain letter.
    let o = run(&["-L", l, "check", "Aclaración", "ACLARACION", "aclaracionn"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o),
        "ACLARACION valid\nACLARACION valid\nACLARACIONN invalid\n"
    );
    // ALLA and LLAR are 3 tiles: A LL A, LL A R.
    let o = run(&["-L", l, "contains", "ll", "--len", "3"]);
    let words = stdout(&o);
    assert!(
        words.lines().any(|w| w == "ALLA") && words.lines().any(|w| w == "LLAR"),
        "{words}"
    );
    for w in words.lines() {
        assert_eq!(w.chars().count(), 4, "{w}");
    }
    // `?` matches one tile, LL included; `[^L]` does not match LL's letters.
    let o = run(&["-L", l, "pattern", "?A?", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(
        v.as_array().unwrap().contains(&serde_json::json!("LLAR")),
        "{v}"
    );
    // ABURRICION: RR is one tile, so the word is 9 tiles long.
    let o = run(&["-L", l, "starts", "aburr", "--len", "9"]);
    assert!(
        stdout(&o).lines().any(|w| w == "ABURRICION"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn catalan_and_custom_alphabets() {
    let dir = TempDir::new().unwrap();
    let (out, o) = build(
        &dir,
        "col·lecció\nCOL.LEGI\nany\nquè\n",
        &["--alphabet", "catalan", "--strict"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let l = out.to_str().unwrap();
    assert_eq!(all_words(&out), ["ANY", "COL·LECCIO", "COL·LEGI", "QUE"]);
    // L·L, NY and QU are one tile each.
    let o = run(&["-L", l, "pattern", "CO??GI"]);
    assert_eq!(stdout(&o), "COL·LEGI\n");
    let o = run(&["-L", l, "pattern", "??", "--json"]);
    assert_eq!(stdout(&o), "[\"ANY\",\"QUE\"]\n");

    let alpha = dir.path().join("tiny.txt");
    std::fs::write(&alpha, "# a tiny alphabet\nA Á\nB\nCH\nC\n").unwrap();
    let (out, o) = build(
        &dir,
        "ach\nbách\ncab\nbad\n",
        &["--alphabet", alpha.to_str().unwrap()],
    );
    assert!(o.status.success());
    assert_eq!(all_words(&out), ["ACH", "BACH", "CAB"]);
    let info = run(&["-L", out.to_str().unwrap(), "info"]);
    assert!(
        stdout(&info).contains("alphabet:       tiny (A B CH C)"),
        "{}",
        stdout(&info)
    );
    std::fs::write(&alpha, "A\nB ?\n").unwrap();
    let (_, o) = build(&dir, "ab\n", &["--alphabet", alpha.to_str().unwrap()]);
    assert_error(&o, "'?' may not appear in a tile");
}

#[test]
fn check_prints_the_word_as_read() {
    // Spaces around a word are not echoed; ß reads as SS.
    let o = run(&["check", " cat ", "maß"]);
    assert_eq!(stdout(&o), "CAT valid\nMASS valid\n");
    let o = run(&["check", "--json", " cat "]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v[0]["word"], "CAT");
}

#[test]
fn check_cuts_long_words_and_escapes_control_characters() {
    // A 100 KB argument is cut to its first 60 letters in the answer (and
    // in the reason, when the reason quotes it).
    let long = "q".repeat(100_000);
    let o = run(&["check", &long]);
    let out = stdout(&o);
    assert!(out.len() < 300, "{} bytes: {}…", out.len(), &out[..100]);
    assert!(
        out.starts_with(&format!("{}… invalid (", "Q".repeat(60))),
        "{out}"
    );
    let with_bad = format!("{}1", "q".repeat(500));
    let out = stdout(&run(&["check", &with_bad]));
    assert!(out.len() < 400 && out.contains("\"1\""), "{out}");
    // A NUL or escape byte from standard input is shown escaped, never raw.
    let o = run_stdin(&["check", "-"], b"ab\0cd\ncat\x1b[31m\n");
    let out = stdout(&o);
    assert!(!out.contains('\0') && !out.contains('\x1b'), "{out:?}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("AB\\0CD invalid ("), "{out}");
    assert!(lines[1].starts_with("CAT\\u{1b}[31M invalid ("), "{out}");
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn an_argument_that_is_not_utf8_is_named() {
    use std::os::unix::ffi::OsStrExt;
    let bad = std::ffi::OsStr::from_bytes(b"qu\xffiz");
    let o = lexq()
        .args(["check".as_ref(), "cat".as_ref(), bad])
        .output()
        .unwrap();
    assert_error(&o, "argument 3 (\"qu\\xffiz\") is not valid UTF-8");
    let o = lexq()
        .args(["contains".as_ref(), bad, "--len".as_ref(), "3".as_ref()])
        .output()
        .unwrap();
    assert_error(&o, "argument 2 (");
}

#[test]
fn build_summary_counts_in_the_singular() {
    let dir = TempDir::new().unwrap();
    let (_, o) = build(&dir, "a\n", &["-v"]);
    assert!(
        stderr(&o).contains(": 1 word, 1 GADDAG entry, "),
        "{}",
        stderr(&o)
    );
    let (_, o) = build(&dir, "cat\n", &["-v"]);
    assert!(
        stderr(&o).contains(": 1 word, 3 GADDAG entries, "),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_word_list_given_as_lexicon_suggests_building_one() {
    let dir = TempDir::new().unwrap();
    let list = dir.path().join("words.txt");
    std::fs::write(&list, "cat\ncats\n").unwrap();
    let o = run(&["-L", list.to_str().unwrap(), "contains", "at"]);
    let want = format!("lexq build {} -o ", list.display());
    assert_error(&o, &want);
    assert!(stderr(&o).contains("words.lexq'"), "{}", stderr(&o));
    // A word list named .lexq: the suggested build does not overwrite it.
    let named = dir.path().join("words.lexq");
    std::fs::write(&named, "cat\ncats\n").unwrap();
    let o = run(&["-L", named.to_str().unwrap(), "contains", "at"]);
    let built = dir.path().join("words.built.lexq");
    let want = format!("'lexq build {} -o {}'", named.display(), built.display());
    assert_error(&o, &want);
    // And the build it suggests works.
    let o = run(&[
        "build",
        named.to_str().unwrap(),
        "-o",
        built.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(all_words(&built), ["CAT", "CATS"]);
    // Not for a file that is no text.
    std::fs::write(&list, b"\x00\x01\x02\x03binary junk here\n").unwrap();
    let o = run(&["-L", list.to_str().unwrap(), "contains", "at"]);
    assert_error(&o, "not a lexq lexicon");
    assert!(!stderr(&o).contains("lexq build"), "{}", stderr(&o));
}

#[test]
fn older_files_are_read_and_upgraded() {
    // A version 3 file (written by an older lexq) answers queries as it is,
    // says so in `info`, and `upgrade` rewrites it as version 4, in place.
    let dir = TempDir::new().unwrap();
    let old = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/old/english-v3.lexq"
    );
    let o = run(&["-L", old, "check", "quixotic", "cats"]);
    assert_eq!(stdout(&o), "QUIXOTIC valid\nCATS valid\n");
    assert!(
        stderr(&o)
            .contains("is a format version 3 file, rebuilt in memory at each use; `lexq upgrade"),
        "{}",
        stderr(&o)
    );
    let o = run(&["-L", old, "info"]);
    assert!(
        stdout(&o)
            .contains("format version: 4 (read from a version 3 file: `lexq upgrade` rewrites it)"),
        "{}",
        stdout(&o)
    );
    let copy = dir.path().join("words.lexq");
    std::fs::copy(old, &copy).unwrap();
    let path = copy.to_str().unwrap();
    let o = run(&["upgrade", path, "-o", path]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        format!(
            "{path}: version 3 -> {path}: version 4, 15 words, {} bytes\n",
            std::fs::metadata(&copy).unwrap().len()
        )
    );
    let o = run(&["-L", path, "info", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (v["format_version"].as_u64(), v["upgraded_from"].is_null()),
        (Some(4), true)
    );
    assert_eq!(
        stdout(&run(&["-L", path, "verify"])),
        format!(
            "{path}: ok (15 words, {} bytes)\n",
            std::fs::metadata(&copy).unwrap().len()
        )
    );
    // Something that is no lexicon is refused, and nothing is written.
    let junk = dir.path().join("junk.lexq");
    std::fs::write(&junk, b"not a lexicon").unwrap();
    let out = dir.path().join("out.lexq");
    let o = run(&[
        "upgrade",
        junk.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("lexq: "), "{}", stderr(&o));
    assert!(!out.exists());
}

/// The lines of `lexq --help` under each heading (a line ending in ':'
/// that does not start with a space).
fn help_sections(text: &str) -> Vec<(String, Vec<String>)> {
    let mut sections: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines() {
        if !line.starts_with(' ') && line.ends_with(':') {
            sections.push((line.to_string(), Vec::new()));
        } else if let Some((_, lines)) = sections.last_mut()
            && let Some(name) = line.strip_prefix("  ").and_then(|l| l.split(' ').next())
            && !name.is_empty()
        {
            lines.push(name.to_string());
        }
    }
    sections
}

#[test]
fn help_groups_the_commands() {
    for flag in ["--help", "-h"] {
        let o = run(&[flag]);
        assert_eq!(o.status.code(), Some(0));
        let sections = help_sections(&stdout(&o));
        let names: Vec<&str> = sections.iter().map(|(h, _)| h.as_str()).collect();
        assert_eq!(
            names,
            ["Words:", "Lexicon files:", "Game:", "Site:", "Options:"],
            "{flag}"
        );
        let under = |h: &str| &sections.iter().find(|(n, _)| n == h).unwrap().1;
        assert_eq!(
            under("Words:")[..4],
            ["check", "hooks", "contains", "starts"]
        );
        assert!(under("Words:").contains(&"find".to_string()));
        assert_eq!(
            under("Lexicon files:"),
            &["build", "info", "verify", "upgrade", "diff"]
        );
        assert_eq!(
            under("Game:"),
            &[
                "moves", "board", "play", "gcg", "selfplay", "leaves", "endgame", "sim", "infer"
            ]
        );
        assert_eq!(under("Site:"), &["site", "serve"]);
        // Each command once, with its description.
        let text = stdout(&o);
        assert!(
            text.contains("  moves       Every legal move in a position (CGP)"),
            "{text}"
        );
        assert_eq!(text.matches("\n  check ").count(), 1);
    }
}

#[test]
fn one_flag_for_the_number_of_results() {
    // --limit and --top are one flag wherever results are capped.
    let care = "15/15/15/15/15/15/15/4CARE7/15/15/15/15/15/15/15 AEINRS?/ 12/0 0";
    for args in [
        vec!["contains", "ax"],
        vec!["find", "--contains", "ax"],
        vec!["suggest", "qiuck"],
        vec!["moves", "--cgp", care],
    ] {
        let with = |flag: &str, n: &str| {
            let mut a = args.clone();
            a.extend([flag, n]);
            run(&a)
        };
        let (limit, top) = (with("--limit", "3"), with("--top", "3"));
        assert_eq!(limit.status.code(), Some(0), "{args:?}: {}", stderr(&limit));
        assert_eq!(stdout(&limit), stdout(&top), "{args:?}");
        assert_eq!(stdout(&limit).lines().count(), 3, "{args:?}");
        // 0 is an error in every command, in both spellings.
        for flag in ["--limit", "--top"] {
            let o = with(flag, "0");
            assert_error(&o, "--limit");
            assert!(stderr(&o).contains("at least 1"), "{}", stderr(&o));
        }
    }
    // And in a line of lexq query.
    let o = run_stdin(
        &["query", "-"],
        b"contains ax --top 2\ncontains ax --limit 0\n",
    );
    assert_eq!(o.status.code(), Some(2));
    let lines: Vec<&str> = std::str::from_utf8(&o.stdout).unwrap().lines().collect();
    assert_eq!(lines[0], r#"{"index":1,"words":["ABAXIAL","ABAXILE"]}"#);
    assert!(lines[1].contains("at least 1"), "{}", lines[1]);
}

#[test]
fn count_and_json_work_together_everywhere() {
    let care = "15/15/15/15/15/15/15/4CARE7/15/15/15/15/15/15/15 AEINRS?/ 12/0 0";
    // moves -c is moves --count; with --json, a JSON number.
    let all = run(&["moves", "--cgp", care, "--all", "--json"]);
    let n = serde_json::from_slice::<serde_json::Value>(&all.stdout)
        .unwrap()
        .as_array()
        .unwrap()
        .len();
    assert!(n > 1000, "{n}");
    let o = run(&["moves", "--cgp", care, "-c"]);
    assert_eq!(stdout(&o), format!("{n}\n"));
    let o = run(&["moves", "--cgp", care, "--count", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), format!("{n}\n"));
    // Batch: one {"index", "count"} line a position (blank and comment
    // lines get none, as with --json alone).
    let o = run_stdin(
        &["moves", "-c", "--json"],
        format!("{care}\n\n# a comment\n{care}\n"),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        format!("{{\"count\":{n},\"index\":1}}\n{{\"count\":{n},\"index\":4}}\n")
    );
    // The word lists, suggest and diff: a JSON number (or object).
    let o = run(&["contains", "ax", "-c", "--json"]);
    let words = run(&["contains", "ax"]);
    assert_eq!(stdout(&o), format!("{}\n", stdout(&words).lines().count()));
    let o = run(&["suggest", "qiuck", "-c", "--json"]);
    let words = run(&["suggest", "qiuck", "--limit", "1000"]);
    assert_eq!(stdout(&o), format!("{}\n", stdout(&words).lines().count()));
}

#[test]
fn color_is_a_choice() {
    let care = "15/15/15/15/15/15/15/4CARE7/15/15/15/15/15/15/15 AEINRS?/ 12/0 0";
    let always = run(&["board", "--cgp", care, "--color", "always"]);
    assert!(stdout(&always).contains("\x1b["));
    let never = run(&["board", "--cgp", care, "--color", "never"]);
    assert!(!stdout(&never).contains('\x1b'));
    // auto: not a terminal here.
    assert_eq!(stdout(&run(&["board", "--cgp", care])), stdout(&never));
    let o = run(&["board", "--cgp", care, "--color", "sometimes"]);
    assert_error(&o, "[possible values: auto, always, never]");
}

#[test]
fn enable_names_the_builtin_lexicon() {
    let plain = run(&["contains", "qu", "--len", "4"]);
    assert_eq!(plain.status.code(), Some(0));
    for name in ["enable", "ENABLE", "enable1"] {
        let o = run(&["-L", name, "contains", "qu", "--len", "4"]);
        assert_eq!(stdout(&o), stdout(&plain), "{name}: {}", stderr(&o));
        let o = lexq()
            .env("LEXQ_LEXICON", name)
            .args(["contains", "qu", "--len", "4"])
            .output()
            .unwrap();
        assert_eq!(stdout(&o), stdout(&plain), "LEXQ_LEXICON={name}");
    }
    // Every command: the game's CGP says ENABLE.
    let o = run(&["-L", "enable", "selfplay", "--games", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).lines().all(|l| l.ends_with("lex ENABLE;")));
    let o = run(&["-L", "enable", "info"]);
    assert!(
        stdout(&o).contains("words:          172820"),
        "{}",
        stdout(&o)
    );
    // A file of that name is named with its folder.
    let dir = TempDir::new().unwrap();
    let (good, _) = build(&dir, "cat\n", &[]);
    std::fs::rename(&good, dir.path().join("enable")).unwrap();
    let o = lexq()
        .current_dir(dir.path())
        .args(["-L", "./enable", "pattern", "*"])
        .output()
        .unwrap();
    assert_eq!(stdout(&o), "CAT\n");
    assert_error(&run(&["-L", "", "check", "cat"]), "empty name");
}

#[test]
fn a_file_named_like_the_builtin_lexicon_wins() {
    // `lexq build edited.txt -o enable1.txt; lexq -L enable1.txt check
    // zzyzx` said invalid: the name meant the built-in ENABLE.
    let dir = TempDir::new().unwrap();
    let (mine, _) = build(&dir, "cat\nzzyzx\n", &[]);
    for name in ["enable1.txt", "ENABLE2K", "enable"] {
        std::fs::copy(&mine, dir.path().join(name)).unwrap();
        let o = lexq()
            .current_dir(dir.path())
            .args(["-L", name, "check", "zzyzx", "dog"])
            .output()
            .unwrap();
        assert_eq!(
            stdout(&o),
            "ZZYZX valid\nDOG invalid\n",
            "{name}: {}",
            stderr(&o)
        );
        let o = lexq()
            .current_dir(dir.path())
            .env("LEXQ_LEXICON", name)
            .args(["check", "zzyzx"])
            .output()
            .unwrap();
        assert_eq!(stdout(&o), "ZZYZX valid\n", "LEXQ_LEXICON={name}");
    }
    // So does a CGP's `lex` (the command line's user writes the line):
    // the rack ACT makes only CAT of the file's words, ACT too of ENABLE.
    let empty_board = ["15"; 15].join("/");
    let cgp = format!("{empty_board} ACT/ 0/0 0 lex enable1.txt;");
    let moves = |dir: &std::path::Path| {
        let o = lexq()
            .current_dir(dir)
            .args(["moves", "--cgp", &cgp])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stdout(&o)
    };
    let file = moves(dir.path());
    assert!(file.contains(" CAT ") && !file.contains(" ACT "), "{file}");
    // Without such a file, every alias names the built-in ENABLE.
    let empty = TempDir::new().unwrap();
    assert!(moves(empty.path()).contains(" ACT "));
    for name in ["enable", "Enable1", "enable2k", "ENABLE1.TXT"] {
        let o = lexq()
            .current_dir(empty.path())
            .args(["-L", name, "check", "zzyzx", "dog"])
            .output()
            .unwrap();
        assert_eq!(
            stdout(&o),
            "ZZYZX invalid\nDOG valid\n",
            "{name}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn output_is_one_flag() {
    // selfplay writes its positions with -o/--output (--out still reads).
    let dir = TempDir::new().unwrap();
    let mut texts = Vec::new();
    for flag in ["-o", "--output", "--out"] {
        let out = dir.path().join(format!("p{flag}.cgp"));
        let o = run(&["selfplay", "--games", "1", flag, out.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{flag}: {}", stderr(&o));
        assert!(o.stdout.is_empty());
        texts.push(std::fs::read_to_string(&out).unwrap());
    }
    assert!(texts[0].lines().count() > 10);
    assert!(texts.iter().all(|t| t == &texts[0]));
    // The game files go to --gcg-dir; --gcg is a file (of lexq moves).
    let games = dir.path().join("games");
    let o = run(&[
        "selfplay",
        "--games",
        "1",
        "--seed",
        "3",
        "--gcg-dir",
        games.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(games.join("game-3.gcg").is_file());
    assert_error(
        &run(&["selfplay", "--games", "1", "--gcg", games.to_str().unwrap()]),
        "--gcg-dir",
    );
}

/// `lexq build --from-kwg`: a `.kwg` written here by hand from wolges's
/// documented layout (node 0 points to the DAWG's first letters; each
/// node its first child in bits 0-21, the last sibling in bit 22, a word
/// in bit 23, its tile in bits 24-31) holding AB, AT and B.
#[test]
fn build_reads_the_words_of_a_kwg() {
    let node = |tile: u32, word: bool, end: bool, child: u32| {
        ((tile << 24) | (u32::from(word) << 23) | (u32::from(end) << 22) | child).to_le_bytes()
    };
    let nodes = [
        node(0, false, true, 2),  // DAWG root: the list at 2
        node(0, false, true, 0),  // GADDAG root: empty
        node(1, false, false, 4), // A, children at 4
        node(2, true, true, 0),   // B, a word, last
        node(2, true, false, 0),  // AB
        node(20, true, true, 0),  // AT, last
    ];
    let dir = TempDir::new().unwrap();
    let kwg = dir.path().join("tiny.kwg");
    std::fs::write(&kwg, nodes.concat()).unwrap();
    let out = dir.path().join("tiny.lexq");
    let o = run(&["build", "--from-kwg", path_str(&kwg), "-o", path_str(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let words = run(&["-L", path_str(&out), "words"]);
    assert_eq!(stdout(&words), "AB\nAT\nB\n");
    // A damaged file: one line naming what is wrong, exit 2, no output.
    std::fs::write(&kwg, &nodes[..4].concat()[..15]).unwrap();
    let bad = dir.path().join("bad.lexq");
    let o = run(&["build", "--from-kwg", path_str(&kwg), "-o", path_str(&bad)]);
    assert_one_line_error(&o, "not a usable .kwg file: 15 bytes");
    assert!(!bad.exists());
}
