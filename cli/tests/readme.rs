//! The examples of the README (and of docs/*.md, the command reference
//! docs/CLI.md among them) are real: every fenced
//! block marked ```` ```console ```` is run, command by command, and what it
//! prints must be what the block shows.
//!
//! A block is a series of commands, each a line starting `$ ` (a line
//! ending in `\` goes on), each followed by its output (stdout and stderr
//! as one stream, as a terminal shows them). Commands run with `bash`, the
//! test's `lexq` first on `PATH`, no `LEXQ_LEXICON`, in a fresh folder per
//! file where `tests` and `benches` lead to the repository's own (so
//! `tests/data/...` paths work). The commands of a file share that folder,
//! in order: a file one example writes, the next may read. Two things are
//! not compared: durations (`0.01 s` reads as `N s`) and the exit status.
//! `$ cat FILE` of a file that is not there yet writes the block's shown
//! text to it first (the README shows an input file that way).
//!
//! Blocks fenced plainly (a synopsis, an example that needs WordNet, a
//! server or the network) are not run.

use std::path::{Path, PathBuf};
use std::process::Command;

/// One command and the output the document shows for it.
struct Example {
    /// The document and line, for messages.
    at: String,
    command: String,
    expected: String,
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The documents whose examples are checked.
fn documents() -> Vec<PathBuf> {
    let mut docs = vec![repo().join("README.md")];
    if let Ok(dir) = std::fs::read_dir(repo().join("docs")) {
        let mut more: Vec<PathBuf> = dir
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "md"))
            .collect();
        more.sort();
        docs.extend(more);
    }
    docs
}

/// The examples of the ```` ```console ```` blocks of `text`.
fn examples(name: &str, text: &str) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    let mut in_console = false;
    let mut in_other = false;
    let mut continued = false;
    for (i, line) in text.lines().enumerate() {
        let fence = line.trim_start().starts_with("```");
        if fence {
            if in_console || in_other {
                in_console = false;
                in_other = false;
            } else if line.trim() == "```console" {
                in_console = true;
            } else {
                in_other = true;
            }
            continue;
        }
        if !in_console {
            continue;
        }
        if continued {
            let last = out.last_mut().expect("a command before");
            last.command.push('\n');
            last.command.push_str(line);
            continued = line.ends_with('\\');
        } else if let Some(command) = line.strip_prefix("$ ") {
            out.push(Example {
                at: format!("{name}:{}", i + 1),
                command: command.to_string(),
                expected: String::new(),
            });
            continued = command.ends_with('\\');
        } else {
            let last = out
                .last_mut()
                .unwrap_or_else(|| panic!("{name}:{}: output before any `$ ` command", i + 1));
            last.expected.push_str(line);
            last.expected.push('\n');
        }
    }
    out
}

/// `text` with every duration (`0.01 s`, `7.14 s`) read as `N s`.
fn normalise(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        // digits '.' digits ' s' followed by a non-letter
        let start = i;
        let mut j = i;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        let int = j > start && (start == 0 || !b[start - 1].is_ascii_alphanumeric());
        if int && j < b.len() && b[j] == b'.' {
            let mut k = j + 1;
            while k < b.len() && b[k].is_ascii_digit() {
                k += 1;
            }
            let ends = k + 2 <= b.len()
                && &b[k..k + 2] == b" s"
                && (k + 2 == b.len() || !b[k + 2].is_ascii_alphanumeric());
            if k > j + 1 && ends {
                out.push_str("N s");
                i = k + 2;
                continue;
            }
        }
        let c = text[i..].chars().next().unwrap();
        out.push(c);
        i += c.len_utf8();
    }
    out
}

fn run(dir: &Path, command: &str) -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_lexq")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    Command::new("bash")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("PATH", path)
        .env_remove("LEXQ_LEXICON")
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::null())
        .output_merged()
        .unwrap()
}

/// `Command::output` with stderr and stdout as one stream.
trait Merged {
    fn output_merged(&mut self) -> std::io::Result<String>;
}

impl Merged for Command {
    fn output_merged(&mut self) -> std::io::Result<String> {
        let (mut reader, writer) = std::io::pipe()?;
        self.stdout(writer.try_clone()?).stderr(writer);
        let mut child = self.spawn()?;
        // The parent's copies of the writer go with `self`'s: drop them so
        // the read ends when the child exits.
        drop(std::mem::replace(self, Command::new("true")));
        let mut text = String::new();
        std::io::Read::read_to_string(&mut reader, &mut text)?;
        child.wait()?;
        Ok(text)
    }
}

#[test]
fn every_console_example_prints_what_it_shows() {
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut per_doc = std::collections::BTreeMap::new();
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        let name = doc.file_name().unwrap().to_string_lossy().into_owned();
        per_doc.insert(name.clone(), examples(&name, &text).len());
        let dir = tempfile::tempdir().unwrap();
        for link in ["tests", "benches"] {
            std::os::unix::fs::symlink(repo().join(link), dir.path().join(link)).unwrap();
        }
        for ex in examples(&name, &text) {
            if let Some(file) = ex.command.strip_prefix("cat ") {
                let file = dir.path().join(file.trim());
                if !file.exists() {
                    std::fs::write(&file, &ex.expected).unwrap();
                }
            }
            let got = run(dir.path(), &ex.command);
            checked += 1;
            if normalise(&got) != normalise(&ex.expected) {
                failures.push(format!(
                    "{}: $ {}\n--- the document shows:\n{}--- lexq printed:\n{}",
                    ex.at, ex.command, ex.expected, got
                ));
            }
        }
    }
    assert!(checked >= 20, "only {checked} examples found");
    // The README's tour and the command reference are both checked.
    for (doc, at_least) in [("README.md", 10), ("CLI.md", 40)] {
        let n = per_doc.get(doc).copied().unwrap_or(0);
        assert!(n >= at_least, "{doc}: only {n} examples found");
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} examples differ:\n\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_parser_reads_blocks_as_written() {
    let doc = "```console\n$ lexq a \\\n  b\nout 1\nout 2\n$ lexq c\n```\n\
               ```\n$ lexq not-run\n```\n";
    let ex = examples("d", doc);
    assert_eq!(ex.len(), 2);
    assert_eq!(ex[0].command, "lexq a \\\n  b");
    assert_eq!(ex[0].expected, "out 1\nout 2\n");
    assert_eq!(ex[1].expected, "");
    assert_eq!(
        normalise("x: 3 words, 0.01 s\n7.5 s.\nv1.2 s 1.5 sec"),
        "x: 3 words, N s\nN s.\nv1.2 s 1.5 sec"
    );
}
