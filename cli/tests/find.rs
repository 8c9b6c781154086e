//! `lexq find`, `suggest`, `check --suggest`, `extensions` and `diff`
//! through the binary, against a plain scan of `indexes/enable1.txt`: the
//! flags (negation, repeats, --any), the output options, --explain, and
//! what a hostile user types.

use std::collections::HashSet;
use std::process::{Command, Output};
use std::sync::LazyLock;

fn lexq() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_lexq"));
    c.env_remove("LEXQ_LEXICON");
    c
}

fn run(args: &[&str]) -> Output {
    lexq().args(args).output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn lines(o: &Output) -> Vec<String> {
    stdout(o).lines().map(String::from).collect()
}

static WORDS: LazyLock<Vec<String>> = LazyLock::new(|| {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../indexes/enable1.txt"
    ))
    .unwrap();
    let mut w: Vec<String> = text
        .lines()
        .map(|l| l.trim().to_uppercase())
        .filter(|l| !l.is_empty())
        .collect();
    w.sort();
    w.dedup();
    w
});

static SET: LazyLock<HashSet<String>> = LazyLock::new(|| WORDS.iter().cloned().collect());

fn scan(keep: impl Fn(&str) -> bool) -> Vec<String> {
    WORDS.iter().filter(|w| keep(w)).cloned().collect()
}

fn hooked_front(w: &str) -> bool {
    ('A'..='Z').any(|c| SET.contains(&format!("{c}{w}")))
}

#[test]
fn the_issue_examples() {
    let o = run(&[
        "find",
        "--len",
        "7",
        "--includes",
        "Q",
        "--not-includes",
        "U",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let want = scan(|w| w.len() == 7 && w.contains('Q') && !w.contains('U'));
    assert_eq!(lines(&o), want);
    // The pipeline `lexq ends ing --len 7 | xargs lexq hooks | awk '$1!="-"'`.
    let o = run(&["find", "--ends", "ing", "--len", "7", "--front-hook"]);
    let want = scan(|w| w.len() == 7 && w.ends_with("ING") && hooked_front(w));
    assert!(want.len() > 100);
    assert_eq!(lines(&o), want);
}

#[test]
fn negation_repeats_and_alternatives() {
    // Two --contains: both hold.
    let o = run(&["find", "--contains", "QU", "--contains", "ZZ"]);
    assert_eq!(lines(&o), scan(|w| w.contains("QU") && w.contains("ZZ")));
    // --any: one of the alternatives, each several conditions.
    let o = run(&[
        "find",
        "--any",
        "--starts RE --ends ING --or --starts UN --len 4",
        "--not-contains",
        "E",
        "--max-len",
        "8",
    ]);
    let want = scan(|w| {
        ((w.starts_with("RE") && w.ends_with("ING")) || (w.starts_with("UN") && w.len() == 4))
            && !w.contains('E')
            && w.len() <= 8
    });
    assert!(!want.is_empty());
    assert_eq!(lines(&o), want);
    // --not-any: none of them.
    let o = run(&["find", "--not-any", "--ends S --or --ends D", "--starts ZO"]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "--starts ZO is one value of --not-any"
    );
    let o = run(&[
        "find",
        "--not-any",
        "--ends S --or --ends D",
        "--starts",
        "ZO",
    ]);
    let want = scan(|w| w.starts_with("ZO") && !w.ends_with('S') && !w.ends_with('D'));
    assert_eq!(lines(&o), want);
    // Each flag with --not-.
    let o = run(&[
        "find",
        "--starts",
        "ZY",
        "--not-front-hook",
        "--not-vowels",
        "2",
    ]);
    let want = scan(|w| {
        w.starts_with("ZY")
            && !hooked_front(w)
            && w.chars().filter(|c| "AEIOU".contains(*c)).count() != 2
    });
    assert_eq!(lines(&o), want);
}

#[test]
fn output_options_and_explain() {
    let o = run(&["find", "--starts", "qu", "--len", "5", "-c", "--limit", "3"]);
    let n = scan(|w| w.starts_with("QU") && w.len() == 5).len();
    assert_eq!(stdout(&o).trim(), n.to_string());
    let o = run(&[
        "find", "--starts", "qu", "--len", "5", "--json", "--limit", "2",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v, serde_json::json!(["QUACK", "QUADS"]));
    let o = run(&[
        "find", "--ends", "zzy", "--table", "--json", "--sort", "points",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v[0]["word"], "PIZAZZY");
    let o = run(&[
        "find",
        "--ends",
        "ing",
        "--len",
        "7",
        "--front-hook",
        "--explain",
    ]);
    let plan = stdout(&o);
    assert!(plan.contains("walk: from ING"), "{plan}");
    assert!(plan.contains("--front-hook"), "{plan}");
    // Nothing found: exit 1.
    let o = run(&["find", "--starts", "zz", "--ends", "qq"]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(1), ""));
}

#[test]
fn in_a_list_and_not_in_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("list.txt");
    std::fs::write(&path, "cat\nDOG\nnotaword\ncats\nzebra\n").unwrap();
    let p = path.to_str().unwrap();
    let o = run(&["find", "--in", p, "--not-ends", "S"]);
    assert_eq!(lines(&o), ["CAT", "DOG", "ZEBRA"]);
    let o = run(&["find", "--not-in", p, "--starts", "zebr"]);
    assert_eq!(lines(&o), scan(|w| w.starts_with("ZEBR") && w != "ZEBRA"));
    let o = run(&[
        "find",
        "--in",
        dir.path().join("none.txt").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("lexq: --in "), "{}", stderr(&o));
}

#[test]
fn hostile_input_is_a_message_and_status_2() {
    for args in [
        vec!["find", "--contains", "Q1"],
        vec!["find", "--anagram", "ab{cd"],
        vec!["find", "--anagram", "ab{}"],
        vec!["find", "--anagram", "a[xy]"],
        vec!["find", "--vowels", "3-1"],
        vec!["find", "--vowels", "lots"],
        vec!["find", "--consists", "AEIOU:140"],
        vec!["find", "--pattern", "c[a"],
        vec!["find", "--regex", "(a"],
        vec!["find", "--any", "--or"],
        vec!["find", "--any", "--ends 'ING"],
        vec!["find", "--any", "--bogus X"],
        vec!["find", "--through", "AB"],
        vec!["find", "--in", "/dev/zero"],
        vec!["find", "--min-len", "9", "--max-len", "3"],
    ] {
        let o = run(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.starts_with("lexq: ") && err.lines().count() == 1,
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    // Nesting is bounded: ten --any inside each other (the value of each
    // the next one, quoted with "..." as a shell would).
    let mut value = "--ends S".to_string();
    for _ in 0..9 {
        value = format!(
            "--any \"{}\"",
            value.replace('\\', r"\\").replace('"', "\\\"")
        );
    }
    let o = run(&["find", "--any", &value]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("nest"), "{}", stderr(&o));
    // A typo inside alternatives inside alternatives: clap's tip once,
    // after one "; " (each level of --any added a ';' before).
    let o = run(&["find", "--any", "--any '--contain x'"]);
    assert_eq!(
        stderr(&o),
        "lexq: --any \"--any '--contain x'\": --any \"--contain x\": unexpected argument \
         '--contain' found; tip: a similar argument exists: '--contains' (try 'lexq --help')\n"
    );
    let long = "A".repeat(5000);
    let o = run(&["find", "--includes", &long]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).len() < 300, "{}", stderr(&o));
}

#[test]
fn suggest_and_check_suggest() {
    let o = run(&["suggest", "qiuck", "--limit", "3"]);
    assert_eq!(lines(&o)[0], "QUICK");
    let o = run(&["suggest", "qiuck", "--json", "--distance", "1"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(v.as_array().unwrap().iter().all(|x| x["distance"] == 1));
    let o = run(&["check", "qiuck", "quick", "--suggest"]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.starts_with("QIUCK invalid (did you mean QUICK"),
        "{out}"
    );
    assert!(out.contains("QUICK valid"), "{out}");
    let o = run(&["suggest", "q?ick"]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&["suggest", "qiuck", "--distance", "9"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn extensions_and_diff() {
    let o = run(&["extensions", "zax", "--back", "2"]);
    assert_eq!(lines(&o), ["ZAXES"]);
    let o = run(&["extensions", "care", "--front", "1", "--back", "0"]);
    assert_eq!(lines(&o), scan(|w| w.len() == 5 && w.ends_with("CARE")));
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.txt"), dir.path().join("b.txt"));
    std::fs::write(&a, "cat\ncats\ndog\n").unwrap();
    std::fs::write(&b, "cat\ndog\ndogs\nemu\n").unwrap();
    for f in [&a, &b] {
        let o = run(&[
            "build",
            f.to_str().unwrap(),
            "-o",
            f.with_extension("lexq").to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let (la, lb) = (a.with_extension("lexq"), b.with_extension("lexq"));
    let (la, lb) = (la.to_str().unwrap(), lb.to_str().unwrap());
    let o = run(&["diff", la, lb]);
    assert_eq!(
        (o.status.code(), lines(&o)),
        (Some(0), vec!["-CATS".into(), "+DOGS".into(), "+EMU".into()])
    );
    let o = run(&["diff", la, lb, "--added"]);
    assert_eq!(lines(&o), ["DOGS", "EMU"]);
    let o = run(&["diff", la, lb, "-c"]);
    assert_eq!(stdout(&o).trim(), "2 added, 1 removed");
    let o = run(&["diff", la, lb, "--json"]);
    assert_eq!(
        lines(&o),
        [
            r#"{"removed":"CATS"}"#,
            r#"{"added":"DOGS"}"#,
            r#"{"added":"EMU"}"#
        ]
    );
    let o = run(&["diff", la, la]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(1), ""));
    let o = run(&["diff", la, a.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
}
