//! The word commands through the binary, against plain scans of
//! `indexes/enable1.txt`: `find` and its neighbours (`find`), word study
//! (`study`).

mod common;

mod find {
    //! `lexq find`, `suggest`, `check --suggest`, `extensions` and `diff`
    //! through the binary, against a plain scan of `indexes/enable1.txt`: the
    //! flags (negation, repeats, --any), the output options, --explain, and
    //! what a hostile user types.

    use std::collections::HashSet;

    use std::sync::LazyLock;

    use crate::common::*;

    use crate::common::ENABLE_WORDS as WORDS;

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

    /// `word` with the letters `rack` (`?` a blank) cannot pay for in
    /// lowercase, or `None` if the rack cannot play it: through the block
    /// `through` (on the board: paid by no tile) if given; every tile of
    /// the rack used if `all`, else at least two (one with a block). A
    /// letter the rack lacks is marked at its last unmarked place; of
    /// several places of the block, the marking least to the left (the
    /// smallest string: uppercase sorts first).
    fn unpaid(word: &str, rack: &str, through: &str, all: bool) -> Option<String> {
        let w: Vec<char> = word.chars().collect();
        let blanks = rack.chars().filter(|&c| c == '?').count();
        let tiles = rack.chars().count();
        let blocks: Vec<Option<usize>> = if through.is_empty() {
            vec![None]
        } else {
            (0..w.len())
                .filter(|&i| word[i..].starts_with(through))
                .map(Some)
                .collect()
        };
        let mut best: Option<String> = None;
        for block in blocks {
            let on_board = |i: usize| block.is_some_and(|b| i >= b && i < b + through.len());
            // The rack's letters, crossed off as the word's letters use them.
            let mut left: Vec<char> = rack.chars().filter(|&c| c != '?').collect();
            let mut lacking = Vec::new();
            for (i, &c) in w.iter().enumerate().filter(|&(i, _)| !on_board(i)) {
                match left.iter().position(|&t| t == c) {
                    Some(k) => {
                        left.remove(k);
                    }
                    None => lacking.push(i),
                }
            }
            let used = w.len() - if block.is_some() { through.len() } else { 0 };
            let fewest = if all {
                tiles
            } else if block.is_some() {
                1
            } else {
                2
            };
            let fits = lacking.len() <= blanks && used >= fewest && (!all || used == tiles);
            if !fits {
                continue;
            }
            // Each lacking letter marked at its last unmarked place.
            let mut marked = w.clone();
            for &i in &lacking {
                let c = w[i];
                let at = (0..w.len())
                    .rev()
                    .find(|&j| !on_board(j) && marked[j] == c)
                    .unwrap();
                marked[at] = c.to_ascii_lowercase();
            }
            let marked: String = marked.into_iter().collect();
            if best.as_ref().is_none_or(|b| marked < *b) {
                best = Some(marked);
            }
        }
        best
    }

    #[test]
    fn blanks_against_the_scan() {
        // (flag, rack, board block, more conditions and what they keep)
        type Keep = fn(&str) -> bool;
        let any: Keep = |_| true;
        let cases: [(&str, &str, &str, &[&str], Keep); 9] = [
            ("--anagram", "ca?", "", &[], any),
            ("--anagram", "a?", "", &[], any),
            ("--anagram", "aa?", "", &[], any),
            ("--anagram", "qi??", "", &[], any),
            ("--anagram", "eeee??", "", &[], any),
            ("--anagram", "retains", "", &[], any),
            (
                "--subanagram",
                "ae??",
                "",
                &["--len", "4", "--not-includes", "S"],
                |w| w.len() == 4 && !w.contains('S'),
            ),
            ("--subanagram", "ers?", "TING", &[], any),
            ("--anagram", "s?", "ES", &[], any),
        ];
        for (flag, rack, through, more, keep) in cases {
            let mut args = vec!["find", flag, rack, "-b"];
            if !through.is_empty() {
                args.extend(["--through", through]);
            }
            args.extend(more);
            let o = run(&args);
            let all = flag == "--anagram";
            let want: Vec<String> = WORDS
                .iter()
                .filter(|w| keep(w))
                .filter_map(|w| unpaid(w, &rack.to_uppercase(), through, all))
                .collect();
            assert!(!want.is_empty(), "{args:?}");
            assert_eq!(lines(&o), want, "{args:?}: {}", stderr(&o));
            // The anagram commands' -b means the same, through a block
            // too (`subanagram ers? -t ting -b`: REeSTING, the last E).
            if more.is_empty() {
                let mut args = vec![&flag[2..], rack, "-b"];
                if !through.is_empty() {
                    args.extend(["-t", through]);
                }
                assert_eq!(lines(&run(&args)), want, "{args:?}");
            }
        }
        // In the table and in JSON, and in a batch line.
        let o = run(&["find", "--anagram", "ca?", "-b", "--json"]);
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v[0], "ACe");
        let o = run(&["find", "--anagram", "ca?", "-b", "--table", "--json"]);
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v[0]["word"], "ACe");
        let o = run_stdin(&["query", "-"], "find --anagram ca? --includes T -b\n");
        assert_eq!(stdout(&o), "{\"index\":1,\"words\":[\"ACt\",\"CAt\"]}\n");
        // Without -b, uppercase.
        let o = run(&["find", "--anagram", "ca?", "--includes", "T"]);
        assert_eq!(lines(&o), ["ACT", "CAT"]);
        // No rack, a negated one, one inside --any, two: an error.
        for (args, needle) in [
            (
                &["find", "--len", "3", "-b"][..],
                "needs --anagram or --subanagram",
            ),
            (&["find", "--not-anagram", "ca?", "-b"], "needs --anagram"),
            (
                &["find", "--any", "--anagram ca? --or --len 2", "-b"],
                "needs --anagram",
            ),
            (
                &["find", "--anagram", "ca?", "--subanagram", "cat?", "-b"],
                "has 2 racks",
            ),
        ] {
            assert_one_line_error(&run(args), needle);
        }
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
        // A file none of whose lines is a word (binary, a lexicon with a
        // damaged header) is an error, not an empty list that --not-in
        // would let every word through; an empty file is an empty list.
        let binary = dir.path().join("binary");
        std::fs::write(&binary, b"\x7fELF\x02\x01\0\0\n\0\x03\0>\n").unwrap();
        let o = run(&["find", "--not-in", path_str(&binary), "--len", "2"]);
        assert_one_line_error(&o, "no usable words");
        let empty = dir.path().join("empty.txt");
        std::fs::write(&empty, "").unwrap();
        let o = run(&["find", "--not-in", path_str(&empty), "--starts", "zebr"]);
        assert_eq!(lines(&o), scan(|w| w.starts_with("ZEBR")));
    }

    #[test]
    fn unreadable_lines_of_an_in_list_are_reported() {
        // Not UTF-8, a NUL byte, a character outside the alphabet: skipped
        // and reported on stderr as `lexq build` reports them (they were
        // skipped silently); the words read still count.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("list.txt");
        std::fs::write(&path, b"cat\nd\xffog\nze\0bra\ndon't\nzebra\n").unwrap();
        let o = run(&["find", "--in", path_str(&path)]);
        assert_eq!(lines(&o), ["CAT", "ZEBRA"]);
        assert_eq!(o.status.code(), Some(0));
        let err = stderr(&o);
        assert!(
            err.starts_with("lexq: skipped 3 lines that are not words"),
            "{err}"
        );
        for line in [":2: ", ":3: ", ":4: "] {
            assert!(err.contains(&format!("list.txt{line}")), "{line} {err}");
        }
        assert!(err.contains("UTF-8") && err.contains("NUL"), "{err}");
        // A clean list: nothing on stderr.
        std::fs::write(&path, "cat\nzebra\n").unwrap();
        let o = run(&["find", "--in", path_str(&path)]);
        assert_eq!((lines(&o).len(), stderr(&o)), (2, String::new()));
    }

    #[test]
    fn zyzzyvas_one_of_brackets_point_to_braces() {
        // Zyzzyva's [AEIOU] is one of the letters; here [..] names one tile
        // (Spanish [CH]), and a set is {AEIOU}: the message says so.
        let o = run(&["anagram", "[aeiou]st"]);
        assert_one_line_error(&o, "{AEIOU}");
        let o = run(&["find", "--anagram", "[aeiou]st"]);
        assert_one_line_error(&o, "{aeiou}");
        let o = run(&["find", "--anagram", "{aeiou}st"]);
        let want = scan(|w| {
            let mut letters: Vec<char> = w.chars().collect();
            letters.sort_unstable();
            w.len() == 3
                && letters.contains(&'S')
                && letters.contains(&'T')
                && letters.iter().any(|c| "AEIOU".contains(*c))
                && {
                    let rest: String = w.replacen('S', "", 1).replacen('T', "", 1);
                    rest.len() == 1 && "AEIOU".contains(&rest)
                }
        });
        assert_eq!(lines(&o), want);
    }

    #[test]
    fn the_builtin_lexicon_is_a_list_for_in() {
        // `--in enable` is the built-in ENABLE (it was a missing file).
        let o = run(&["find", "--in", "enable", "--len", "2"]);
        assert_eq!(lines(&o), scan(|w| w.len() == 2), "{}", stderr(&o));
        let o = run(&["find", "--not-in", "ENABLE1", "--len", "2"]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert!(o.stdout.is_empty());
        // Another lexicon's words not in ENABLE.
        let dir = tempfile::tempdir().unwrap();
        let list = dir.path().join("list.txt");
        std::fs::write(&list, "cat\nzzyzx\nqwxz\n").unwrap();
        let lexicon = dir.path().join("mine.lexq");
        let b = run(&["build", path_str(&list), "-o", path_str(&lexicon)]);
        assert_eq!(b.status.code(), Some(0), "{}", stderr(&b));
        let o = run(&["-L", path_str(&lexicon), "find", "--not-in", "enable"]);
        assert_eq!(lines(&o), ["QWXZ", "ZZYZX"], "{}", stderr(&o));
        let o = run(&["diff", path_str(&lexicon), "enable", "--removed"]);
        assert_eq!(lines(&o), ["QWXZ", "ZZYZX"], "{}", stderr(&o));
        let o = run(&["diff", "enable", path_str(&lexicon), "-c", "--added"]);
        assert_eq!(stdout(&o), "2\n", "{}", stderr(&o));
        // A file of that name wins.
        std::fs::copy(&lexicon, dir.path().join("enable")).unwrap();
        let o = lexq()
            .current_dir(dir.path())
            .args(["find", "--in", "enable"])
            .output()
            .unwrap();
        assert_eq!(lines(&o), ["CAT"], "{}", stderr(&o));
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
            // A space is no letter, as `lexq contains 'q u'` says (it
            // was skipped: every word holding QU).
            vec!["find", "--contains", "q u"],
            vec!["find", "--includes", "q\tu"],
            vec!["find", "--anagram", "ca ?"],
            vec!["find", "--anagram", "{a e}x"],
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
        // An alphabet without a standard tile set: the probability is not
        // known (null), not 0, which would say the bag cannot supply it.
        let dir = tempfile::tempdir().unwrap();
        let ca = dir.path().join("ca.lexq");
        let words = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/data/catalan/words.txt"
        );
        let o = run(&["build", "--alphabet", "catalan", words, "-o", path_str(&ca)]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let o = run(&[
            "-L",
            path_str(&ca),
            "suggest",
            "aiguas",
            "--json",
            "-d",
            "1",
        ]);
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v[0]["word"], "AIGUA", "{v}");
        assert!(v[0]["probability"].is_null(), "{v}");
        // An empty word is shown as "", not as a line starting blank.
        let o = run(&["check", "--suggest", "", "qiuck"]);
        assert_eq!(
            lines(&o),
            [
                "\"\" invalid (the word is empty)",
                "QIUCK invalid (did you mean QUICK, ICK, NICK, RICK, TICK?)"
            ]
        );
        assert_eq!(o.status.code(), Some(1));
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
}

mod study {
    //! Word study through the `lexq` binary, against a plain scan of
    //! `indexes/enable1.txt`: `--sort probability|points`, the word table
    //! (`--table`, text and JSON), `-c` with `--limit`, `lexq words` and
    //! batch queries (`lexq query`).
    //!
    //! The scan's probability is its own: the draws that spell a word counted
    //! by trying every number of blanks for every letter, binomials by their
    //! multiplicative formula; ranks by counting the words of the same length
    //! with more draws; hooks and inner hooks by looking words up in a set.

    use std::collections::{HashMap, HashSet};
    use std::io::{BufRead, BufReader, Read, Write};

    use std::process::{Output, Stdio};
    use std::sync::LazyLock;

    use serde_json::{Value, json};

    use crate::common::*;

    /// The word list, uppercase, sorted, and as a set.
    struct Scan {
        words: Vec<String>,
        set: HashSet<String>,
    }

    static ENABLE: LazyLock<Scan> = LazyLock::new(|| {
        let words = ENABLE_WORDS.clone();
        let set = words.iter().cloned().collect();
        Scan { words, set }
    });

    /// English tiles: count and value; two blanks.
    const TILES: &str = "A9/1 B2/3 C2/3 D4/2 E12/1 F2/4 G3/2 H2/4 I9/1 J1/8 K1/5 L4/1 M2/3 N6/1 \
                     O8/1 P2/3 Q1/10 R6/1 S4/1 T6/1 U4/1 V2/4 W2/4 X1/8 Y2/4 Z1/10";
    const BLANKS: u32 = 2;

    static BAG: LazyLock<HashMap<char, (u32, i32)>> = LazyLock::new(|| {
        TILES
            .split_whitespace()
            .map(|t| {
                let (count, value) = t[1..].split_once('/').unwrap();
                let c = t.chars().next().unwrap();
                (c, (count.parse().unwrap(), value.parse().unwrap()))
            })
            .collect()
    });

    fn binom(n: u32, k: u32) -> u128 {
        if k > n {
            return 0;
        }
        (0..k).fold(1u128, |r, i| r * (n - i) as u128 / (i + 1) as u128)
    }

    /// Draws of a full English bag that spell `word`.
    fn draws(word: &str) -> u128 {
        let mut need: Vec<(char, u32)> = Vec::new();
        for c in word.chars() {
            match need.iter_mut().find(|(x, _)| *x == c) {
                Some((_, n)) => *n += 1,
                None => need.push((c, 1)),
            }
        }
        fn go(need: &[(char, u32)], blanks: u32, used: u32) -> u128 {
            let Some(&(c, n)) = need.first() else {
                return binom(BLANKS, used);
            };
            (0..=n.min(blanks))
                .map(|b| binom(BAG[&c].0, n - b) * go(&need[1..], blanks - b, used + b))
                .sum()
        }
        go(&need, BLANKS, 0)
    }

    fn points(word: &str) -> i32 {
        word.chars().map(|c| BAG[&c].1).sum()
    }

    /// For each length, the draws of every word of that length, most first.
    static DRAWS_BY_LEN: LazyLock<HashMap<usize, Vec<u128>>> = LazyLock::new(|| {
        let mut m: HashMap<usize, Vec<u128>> = HashMap::new();
        for w in &ENABLE.words {
            m.entry(w.len()).or_default().push(draws(w));
        }
        for v in m.values_mut() {
            v.sort_unstable_by(|a, b| b.cmp(a));
        }
        m
    });

    fn rank(word: &str) -> u32 {
        let d = draws(word);
        1 + DRAWS_BY_LEN[&word.len()].iter().filter(|&&x| x > d).count() as u32
    }

    fn alphagram(w: &str) -> String {
        let mut c: Vec<char> = w.chars().collect();
        c.sort_unstable();
        c.into_iter().collect()
    }

    fn hooks(word: &str, front: bool) -> String {
        ('A'..='Z')
            .filter(|c| {
                let w = if front {
                    format!("{c}{word}")
                } else {
                    format!("{word}{c}")
                };
                ENABLE.set.contains(&w)
            })
            .collect()
    }

    /// The scan's table row for `word`.
    fn row(word: &str) -> Value {
        json!({
            "word": word,
            "front": hooks(word, true),
            "back": hooks(word, false),
            "inner_front": ENABLE.set.contains(&word[1..]),
            "inner_back": ENABLE.set.contains(&word[..word.len() - 1]),
            "rank": rank(word),
            "combinations": draws(word),
            "points": points(word),
        })
    }

    /// Queries with the scan's answer to each.
    fn queries() -> Vec<(Vec<&'static str>, Vec<String>)> {
        let pick = |f: &dyn Fn(&str) -> bool| -> Vec<String> {
            ENABLE.words.iter().filter(|w| f(w)).cloned().collect()
        };
        let letters = |w: &str| {
            let mut c: Vec<char> = w.chars().collect();
            c.sort_unstable();
            c
        };
        vec![
            (
                vec!["contains", "qu", "--len", "5"],
                pick(&|w| w.contains("QU") && w.len() == 5),
            ),
            (
                vec!["ends", "ing", "--max-len", "6"],
                pick(&|w| w.ends_with("ING") && w.len() <= 6),
            ),
            (
                vec!["pattern", "?a?e"],
                pick(&|w| w.len() == 4 && &w[1..2] == "A" && &w[3..] == "E"),
            ),
            (
                vec!["anagram", "aeinrst"],
                pick(&|w| letters(w) == letters("AEINRST")),
            ),
        ]
    }

    #[test]
    fn table_json_against_the_scan() {
        for (args, want) in queries() {
            assert!(want.len() > 5, "{args:?}: {want:?}");
            let mut a = args.clone();
            a.extend(["--table", "--json"]);
            let o = run(&a);
            assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
            let got: Vec<Value> = serde_json::from_slice(&o.stdout).unwrap();
            assert_eq!(got.len(), want.len(), "{args:?}");
            for (g, w) in got.iter().zip(&want) {
                let mut g = g.clone();
                let p = g
                    .as_object_mut()
                    .unwrap()
                    .remove("probability")
                    .unwrap()
                    .as_f64()
                    .unwrap();
                assert_eq!(g, row(w), "{args:?}");
                let n = w.len() as u32;
                let exact = draws(w) as f64 / binom(100, n) as f64;
                assert!((p - exact).abs() <= exact * 1e-12, "{w}: {p} vs {exact}");
            }
        }
    }

    #[test]
    fn table_text_against_the_scan() {
        for (args, want) in queries() {
            let mut a = args.clone();
            a.push("--table");
            let o = run(&a);
            let text = stdout(&o);
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(lines.len(), want.len(), "{args:?}");
            let or_dash = |s: String| if s.is_empty() { "-".to_string() } else { s };
            for (line, w) in lines.iter().zip(&want) {
                let fields: Vec<&str> = line.split_whitespace().collect();
                let dot = |yes: bool| if yes { "·" } else { "" };
                let marked = format!(
                    "{}{w}{}",
                    dot(ENABLE.set.contains(&w[1..])),
                    dot(ENABLE.set.contains(&w[..w.len() - 1]))
                );
                let expected = [
                    or_dash(hooks(w, true)),
                    marked,
                    or_dash(hooks(w, false)),
                    rank(w).to_string(),
                    points(w).to_string(),
                ];
                assert_eq!(fields, expected, "{args:?}: {line:?}");
            }
            // Columns line up: every word starts at the same character.
            let word_col: HashSet<usize> = lines
                .iter()
                .zip(&want)
                .map(|(l, w)| {
                    let chars: Vec<char> = l.chars().collect();
                    let wc: Vec<char> = w.chars().collect();
                    chars
                        .windows(wc.len())
                        .position(|x| x == wc.as_slice())
                        .unwrap()
                })
                .collect();
            assert_eq!(word_col.len(), 1, "{args:?}:\n{text}");
        }
    }

    #[test]
    fn sort_by_probability_and_points_against_the_scan() {
        for (args, want) in queries() {
            let mut a = args.clone();
            a.extend(["--sort", "probability"]);
            let mut expected = want.clone();
            expected.sort_by(|x, y| {
                rank(x)
                    .cmp(&rank(y))
                    .then(x.len().cmp(&y.len()))
                    .then(alphagram(x).cmp(&alphagram(y)))
                    .then(x.cmp(y))
            });
            assert_eq!(stdout(&run(&a)), expected.join("\n") + "\n", "{a:?}");
            // The first three only, in the same order.
            a.extend(["--limit", "3"]);
            assert_eq!(stdout(&run(&a)), expected[..3].join("\n") + "\n", "{a:?}");

            let mut a = args.clone();
            a.extend(["--sort", "points"]);
            let mut expected = want.clone();
            expected.sort_by(|x, y| points(y).cmp(&points(x)).then(x.cmp(y)));
            assert_eq!(stdout(&run(&a)), expected.join("\n") + "\n", "{a:?}");
        }
        // Mixed lengths: rank first, then the shorter word.
        let o = run(&["subanagram", "qatzi", "--sort", "probability"]);
        let mut expected: Vec<String> = ENABLE
            .words
            .iter()
            .filter(|w| {
                w.len() >= 2 && {
                    let mut rack: Vec<char> = "QATZI".chars().collect();
                    w.chars().all(|c| match rack.iter().position(|&r| r == c) {
                        Some(i) => {
                            rack.remove(i);
                            true
                        }
                        None => false,
                    })
                }
            })
            .cloned()
            .collect();
        expected.sort_by(|x, y| {
            rank(x)
                .cmp(&rank(y))
                .then(x.len().cmp(&y.len()))
                .then(alphagram(x).cmp(&alphagram(y)))
                .then(x.cmp(y))
        });
        assert!(expected.len() > 3);
        assert_eq!(stdout(&o), expected.join("\n") + "\n");
    }

    #[test]
    fn count_is_the_number_found_whatever_the_limit() {
        for (args, want) in queries() {
            let mut a = args.clone();
            a.extend(["-c", "--limit", "3"]);
            assert_eq!(stdout(&run(&a)), format!("{}\n", want.len()), "{a:?}");
            a.push("--json");
            assert_eq!(stdout(&run(&a)), format!("{}\n", want.len()), "{a:?}");
        }
    }

    #[test]
    fn lengths_that_exclude_each_other_are_an_error() {
        for args in [
            &["contains", "ax", "--min-len", "9", "--max-len", "3"][..],
            &["words", "--min-len", "5", "--max-len", "4"],
            &["anagram", "ab", "--min-len", "3", "--max-len", "2", "-c"],
        ] {
            let o = run(args);
            assert_eq!(o.status.code(), Some(2), "{args:?}");
            assert!(stderr(&o).contains("--min-len"), "{}", stderr(&o));
            assert!(o.stdout.is_empty());
        }
        // find's --length conditions too, with each other or the output
        // options' lengths (they were an empty answer, exit 1).
        for args in [
            &["find", "--length", "3", "--len", "4"][..],
            &["find", "--length", "3-4", "--min-len", "5", "-c"],
            &["find", "--length", "-4", "--length", "5-", "--starts", "qu"],
        ] {
            assert_one_line_error(&run(args), "exclude each other");
        }
        // A negated one, or one inside --any, is a condition like another.
        let o = run(&[
            "find",
            "--length",
            "3-4",
            "--not-length",
            "4-",
            "--starts",
            "qu",
        ]);
        let want: Vec<&String> = ENABLE
            .words
            .iter()
            .filter(|w| w.len() == 3 && w.starts_with("QU"))
            .collect();
        assert_eq!(lines(&o).iter().collect::<Vec<_>>(), want);
        // --explain prints a plan: the words' options are refused with it.
        for flag in ["-c", "--json", "--table", "--limit=3"] {
            let o = run(&["find", "--starts", "qu", "--explain", flag]);
            assert_one_line_error(&o, "cannot be used with");
        }
    }

    #[test]
    fn words_dumps_the_word_list() {
        let o = run(&["words"]);
        assert_eq!(o.status.code(), Some(0));
        assert!(
            stdout(&o) == ENABLE.words.join("\n") + "\n",
            "lexq words differs"
        );
        let o = run(&["words", "--len", "3"]);
        let threes: Vec<&str> = ENABLE
            .words
            .iter()
            .filter(|w| w.len() == 3)
            .map(String::as_str)
            .collect();
        assert_eq!(stdout(&o), threes.join("\n") + "\n");
        let o = run(&["words", "--min-len", "29"]);
        assert_eq!((o.status.code(), o.stdout.len()), (Some(1), 0));
        // Streamed: a reader that goes away after one line ends it quietly.
        let mut child = lexq()
            .args(["words"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.as_mut().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert_eq!(first, "AA\n");
        drop(child.stdout.take());
        let status = child.wait().unwrap();
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        assert_eq!((status.code(), err.as_str()), (Some(0), ""));
    }

    fn query(input: &str, extra: &[&str]) -> Output {
        let args: Vec<&str> = ["query", "-"].iter().chain(extra).copied().collect();
        run_stdin(&args, input)
    }

    #[test]
    fn batch_queries_against_the_scan() {
        let mut input = String::from("# answers by line number\n\n");
        let mut expected: Vec<Value> = Vec::new();
        for (i, (args, want)) in queries().iter().enumerate() {
            // Quoted as a shell would take them.
            let line: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
            input.push_str(&line.join(" "));
            input.push('\n');
            expected.push(json!({"index": i + 3, "words": want}));
        }
        input.push_str("contains \"q u\"\n");
        input.push_str("regex '(' \n");
        input.push_str("   \n");
        input.push_str("contains AX --len 3 -c --limit 1\n");
        input.push_str("contains zzzzz\n");
        let o = query(&input, &[]);
        let lines: Vec<Value> = stdout(&o)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(&lines[..expected.len()], &expected[..]);
        let n = expected.len() + 3;
        let rest = &lines[expected.len()..];
        assert_eq!(rest[0]["index"], n);
        assert!(
            rest[0]["error"].as_str().unwrap().contains("\" \""),
            "{rest:?}"
        );
        assert_eq!(rest[1]["index"], n + 1);
        assert!(rest[1]["error"].as_str().unwrap().contains("unclosed"));
        let ax = ENABLE
            .words
            .iter()
            .filter(|w| w.len() == 3 && w.contains("AX"))
            .count();
        assert_eq!(rest[2], json!({"index": n + 3, "count": ax}));
        assert_eq!(rest[3], json!({"index": n + 4, "words": []}));
        assert_eq!(rest.len(), 4);
        // Bad lines on stderr too, and exit status 2 at the end.
        let err = stderr(&o);
        assert!(err.contains(&format!("lexq: line {n}: ")), "{err}");
        assert!(err.contains(&format!("lexq: line {}: ", n + 1)), "{err}");
        assert_eq!(o.status.code(), Some(2));

        // --count for every line; all good: status 0, or 1 when nothing found.
        let o = query("contains qu --len 5\nends ing --max-len 6\n", &["-c"]);
        let (a, b) = (queries()[0].1.len(), queries()[1].1.len());
        assert_eq!(
            stdout(&o),
            format!("{{\"index\":1,\"count\":{a}}}\n{{\"index\":2,\"count\":{b}}}\n")
        );
        assert_eq!(o.status.code(), Some(0));
        let o = query("contains qzx\n", &[]);
        assert_eq!(
            (stdout(&o).as_str(), o.status.code()),
            ("{\"index\":1,\"words\":[]}\n", Some(1))
        );
        // A table in a line: the same objects as --table --json.
        let o = query("anagram aeinrst --table\n", &[]);
        let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        let words = v["words"].as_array().unwrap();
        assert_eq!(words.len(), queries()[3].1.len());
        assert_eq!(words[0]["rank"], rank(&queries()[3].1[0]));
        // Not UTF-8, a command that is no word query, another lexicon: errors
        // on their lines only.
        let o = query(
            "info\n-L x contains a\ncontains a\u{0}b\nstarts zyzz\n",
            &[],
        );
        let lines: Vec<Value> = stdout(&o)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 4, "{}", stdout(&o));
        assert!(
            lines[..3].iter().all(|l| l["error"].is_string()),
            "{lines:?}"
        );
        let other = lines[1]["error"].as_str().unwrap();
        assert!(other.contains("cannot choose the lexicon"), "{other}");
        assert_eq!(
            lines[3],
            json!({"index": 4, "words": ["ZYZZYVA", "ZYZZYVAS"]})
        );
        let bad = b"contains a\xffb\nstarts zyzz\n";
        let mut child = lexq()
            .args(["query", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(bad).unwrap();
        let o = child.wait_with_output().unwrap();
        assert!(stdout(&o).starts_with("{\"index\":1,\"error\":\"not UTF-8\"}\n{\"index\":2,"));
        assert_eq!(o.status.code(), Some(2));
    }

    /// The JSON lines of `lexq query -` given `input`, which must end
    /// within 20 s.
    fn query_lines(input: &str) -> (Vec<Value>, Output) {
        let mut child = lexq()
            .args(["query", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(input.as_bytes()).unwrap();
        drop(stdin);
        let o = finish(child, input);
        let lines = stdout(&o)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        (lines, o)
    }

    #[test]
    fn a_batch_line_cannot_read_the_batch_stream() {
        // `--in -` read standard input, the queries' stream, locked by
        // the batch: the process waited for itself, forever.
        let (lines, o) = query_lines(
            "find --in - --len 2\n\
             find --any '--not-in - --or --len 3' --starts qu\n\
             check -\n\
             hooks -\n\
             contains qu --len 3\n",
        );
        assert_eq!(lines.len(), 5, "{}", stdout(&o));
        for l in &lines[..4] {
            let why = l["error"].as_str().unwrap_or_default();
            assert!(why.contains("standard input"), "{l}");
        }
        let qu: Vec<&String> = ENABLE
            .words
            .iter()
            .filter(|w| w.len() == 3 && w.contains("QU"))
            .collect();
        assert_eq!(lines[4], json!({"index": 5, "words": qu}));
        assert_eq!(o.status.code(), Some(2));
    }

    #[test]
    fn a_batch_takes_every_word_command() {
        let (lines, o) = query_lines(
            "check cat zzz\n\
             hooks at zzz\n\
             suggest qiuck --limit 3\n\
             words --len 2\n\
             words --len 2 --min-len 3\n",
        );
        assert_eq!(lines.len(), 5, "{}", stdout(&o));
        let valid = |w: &str| ENABLE.set.contains(w);
        assert_eq!(
            lines[0],
            json!({"index": 1, "words": [
                {"word": "CAT", "valid": valid("CAT")},
                {"word": "ZZZ", "valid": valid("ZZZ")},
            ]})
        );
        assert_eq!(
            lines[1],
            json!({"index": 2, "words": [
                {"word": "AT", "front": hooks("AT", true), "back": hooks("AT", false), "valid": true},
                {"word": "ZZZ", "front": "", "back": "", "valid": false},
            ]})
        );
        // suggest: the objects of `lexq suggest --json`.
        let alone = run(&["suggest", "qiuck", "--limit", "3", "--json"]);
        let want: Value = serde_json::from_str(stdout(&alone).trim()).unwrap();
        assert_eq!(lines[2], json!({"index": 3, "words": want}));
        assert_eq!(lines[2]["words"][0]["word"], "QUICK");
        let twos: Vec<&String> = ENABLE.words.iter().filter(|w| w.len() == 2).collect();
        assert_eq!(lines[3], json!({"index": 4, "words": twos}));
        let why = lines[4]["error"].as_str().unwrap();
        assert!(
            why.contains("--len 2, --min-len 3 exclude each other"),
            "{why}"
        );
        // With -c: the valid words, the words hooked, the words near.
        let o = query("check cat zzz dog\nhooks at zzz\nwords --len 2\n", &["-c"]);
        let counts: Vec<Value> = stdout(&o)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(counts[0]["count"], 2);
        assert_eq!(counts[1]["count"], 1);
        assert_eq!(counts[2]["count"], twos.len());
        // `hooks -` reads the words from standard input, as `check -`.
        let o = run_stdin(&["hooks", "-", "--json"], "at\nzzz\n");
        let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        assert_eq!(v, lines[1]["words"], "{}", stderr(&o));
    }

    #[test]
    fn length_flags_are_conditions_that_all_hold() {
        let fives: Vec<String> = ENABLE
            .words
            .iter()
            .filter(|w| w.len() == 5 && w.contains("QU"))
            .cloned()
            .collect();
        // Refused at the top level, accepted inside --any: now both.
        for args in [
            &["contains", "qu", "--len", "5", "--min-len", "3"][..],
            &["contains", "qu", "--len", "5", "--len", "5"],
            &[
                "contains",
                "qu",
                "--min-len",
                "5",
                "--max-len",
                "5",
                "--max-len",
                "6",
            ],
            &["find", "--contains", "qu", "--len", "5", "--min-len", "3"],
            &["find", "--contains", "qu", "--len", "5", "--len", "5"],
            &["find", "--contains", "qu", "--any", "--len 5 --min-len 3"],
        ] {
            let o = run(args);
            assert_eq!(lines(&o), fives, "{args:?}: {}", stderr(&o));
        }
        // Errors name the flags as the user typed them.
        for (args, said) in [
            (
                &["find", "--max-len", "3", "--length", "8-"][..],
                "--max-len 3, --length 8- exclude each other",
            ),
            (
                &["contains", "a", "--len", "3", "--len", "4"],
                "--len 3, --len 4 exclude each other",
            ),
            (
                &["find", "--length", "8+", "--len", "5", "--starts", "a"],
                "--len 5, --length 8+ exclude each other",
            ),
            (
                &["words", "--min-len", "5", "--max-len", "4"],
                "--min-len 5, --max-len 4",
            ),
        ] {
            let o = run(args);
            assert_one_line_error(&o, said);
            assert!(!stderr(&o).contains("--len -"), "{}", stderr(&o));
        }
    }

    #[test]
    fn a_long_batch_of_racks_answers_as_single_commands_do() {
        // The 64th rack line prepares the lexicon's walks (the words filed
        // by alphagram, the letters below each node): the racks asked
        // again after it must get the answers they got before it, and
        // that one command alone gets (a process that never prepares).
        let racks: &[&[&str]] = &[
            &["anagram", "aeinrst?"],
            &["anagram", "??aeinr"],
            &["anagram", "??aeinr", "-b"],
            &["anagram", "qi??", "-b"],
            &["anagram", "aa?", "-b"],
            &["anagram", "retains"],
            &["subanagram", "qi?z"],
            &["subanagram", "ers?", "-t", "ting", "-b"],
            &["anagram", "s?", "-t", "es", "-b"],
            &["find", "--anagram", "ca?", "--includes", "t", "-b"],
            &["find", "--subanagram", "aeinrst??", "--len", "9"],
            &["anagram", "eeee??", "-b"],
        ];
        let alone: Vec<Vec<String>> = racks.iter().map(|args| lines(&run(args))).collect();
        let mut input = String::new();
        let rounds = 64 / racks.len() + 2;
        for _ in 0..rounds {
            for args in racks {
                let line: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
                input.push_str(&line.join(" "));
                input.push('\n');
            }
        }
        let o = query(&input, &[]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let answers: Vec<Value> = stdout(&o)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(answers.len(), rounds * racks.len());
        for (i, answer) in answers.iter().enumerate() {
            let want = &alone[i % racks.len()];
            assert!(!want.is_empty(), "{:?}", racks[i % racks.len()]);
            assert_eq!(
                answer,
                &json!({"index": i + 1, "words": want}),
                "line {}: {:?}",
                i + 1,
                racks[i % racks.len()]
            );
        }
    }

    #[test]
    fn batch_bad_lines_of_any_size_are_errors_on_their_lines() {
        // A line over 64 KB (one of exactly 64 KB is a line like another),
        // and `find --explain`, which prints a plan and no answer: errors
        // on their lines, the next lines answered.
        let long = format!("contains {}\n", "A".repeat(100_000));
        let edge = format!("starts zyzz{}\n", " ".repeat(65536 - "starts zyzz".len()));
        let input = format!("{long}starts zyzz\nfind --ends ZZY --explain\n{edge}");
        let o = query(&input, &[]);
        let lines: Vec<Value> = stdout(&o)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let zyzz = json!(["ZYZZYVA", "ZYZZYVAS"]);
        assert_eq!(lines.len(), 4, "{}", stdout(&o));
        assert_eq!(lines[0]["index"], 1);
        assert!(
            lines[0]["error"]
                .as_str()
                .unwrap()
                .contains("longer than 65536 bytes")
        );
        assert_eq!(lines[1], json!({"index": 2, "words": zyzz}));
        assert!(
            lines[2]["error"].as_str().unwrap().contains("--explain"),
            "{lines:?}"
        );
        assert_eq!(lines[3], json!({"index": 4, "words": zyzz}));
        assert_eq!(o.status.code(), Some(2));
        // No line end at all: the input is no file of queries.
        let o = run(&["query", "/dev/zero"]);
        assert_one_line_error(&o, "no line end");
    }
}
