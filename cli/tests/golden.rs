//! Runs every case of the query suites under `queries/` through the `lexq`
//! binary and compares standard output and exit status exactly.

use std::path::Path;
use std::process::Command;

struct Case {
    file: String,
    line: usize,
    args: Vec<String>,
    stdout: String,
    status: i32,
}

fn parse(file: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(file).unwrap();
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    let mut cases: Vec<Case> = Vec::new();
    let mut open = false;
    for (i, line) in text.lines().enumerate() {
        if let Some(args) = line.strip_prefix("$ ") {
            cases.push(Case {
                file: name.clone(),
                line: i + 1,
                args: args.split_whitespace().map(String::from).collect(),
                stdout: String::new(),
                status: 0,
            });
            open = true;
        } else if line.is_empty() {
            open = false;
        } else if line.starts_with('#') && !open {
            continue;
        } else if let (true, Some(case)) = (open, cases.last_mut()) {
            match line.strip_prefix("? ") {
                Some(n) => case.status = n.parse().expect("? N takes a number"),
                None => {
                    case.stdout.push_str(line);
                    case.stdout.push('\n');
                }
            }
        } else {
            panic!("{name}:{}: text outside a case: {line:?}", i + 1);
        }
    }
    cases
}

#[test]
fn query_suites() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../queries");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let mut ran = 0;
    let mut failures = Vec::new();
    for file in &files {
        for case in parse(file) {
            let out = Command::new(env!("CARGO_BIN_EXE_lexq"))
                .args(&case.args)
                .env_remove("LEXQ_LEXICON")
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            let status = out.status.code().unwrap_or(-1);
            if stdout != case.stdout || status != case.status {
                failures.push(format!(
                    "{}:{}: lexq {}\n  expected status {}, got {status}\n  expected:\n{}  got:\n{stdout}  stderr: {}",
                    case.file,
                    case.line,
                    case.args.join(" "),
                    case.status,
                    case.stdout,
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
            ran += 1;
        }
    }
    assert!(
        ran >= 30,
        "only {ran} golden cases found under {}",
        dir.display()
    );
    assert!(
        failures.is_empty(),
        "{} of {ran} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
