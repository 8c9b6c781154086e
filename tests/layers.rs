//! The source trees' layers, checked: in each crate of the workspace,
//! each file imports only from its own layer or the ones below, and no two
//! modules import each other, directly or round a cycle.
//!
//! Each crate is a [`Tree`]: its source folder, its root file, and its
//! layers bottom up, each a list of top-level modules. A file's imports are
//! the `crate::` and `super::` paths in its code (comments and a trailing
//! `#[cfg(test)]` module left out), each resolved to the module file that
//! defines it; a name the crate root re-exports is followed to where it is
//! defined. A top-level module in no layer is an error: a new module takes
//! its place in [`TREES`]. This test reads the source: it needs no part of
//! the library.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A crate's source tree and its layers.
struct Tree {
    /// The source folder, from the workspace's root.
    src: &'static str,
    /// The root file: `lib.rs` or `main.rs`.
    root: &'static str,
    /// The layers, bottom up; each the top-level modules in it.
    layers: &'static [&'static [&'static str]],
}

/// Every crate checked.
const TREES: &[Tree] = &[
    // The library: the core error and file plumbing, then the alphabet,
    // the lexicon, queries over it, and the game.
    Tree {
        src: "src",
        root: "lib.rs",
        layers: &[
            &["error", "files"],
            &["alphabet"],
            &["lexicon"],
            &["query"],
            &["game"],
        ],
    },
    // The command line: leaves that import nothing of the crate; the
    // lexicon's choice, printing, find's flags and game set-up; the
    // commands, each owning its arguments; the command line that names
    // them (main.rs, the root, only dispatches).
    Tree {
        src: "cli/src",
        root: "main.rs",
        layers: &[
            &["exit", "flags", "interrupt", "progress", "verified"],
            &["lexicon", "print", "find", "game"],
            &["cmd"],
            &["args"],
        ],
    },
    // The site: the leaves (errors, file plumbing, the word list's
    // fingerprint); where definitions come from; building the index;
    // reading and searching it; pages and exports; serving.
    Tree {
        src: "site/src",
        root: "lib.rs",
        layers: &[
            &["error", "fsutil", "fingerprint"],
            &["source"],
            &["index"],
            &["read"],
            &["html", "export"],
            &["serve"],
        ],
    },
];

impl Tree {
    /// The rank of a module's layer (0 the bottom); the root is above all.
    fn rank(&self, module: &[String]) -> usize {
        let Some(first) = module.first() else {
            return usize::MAX;
        };
        self.layers
            .iter()
            .position(|l| l.contains(&first.as_str()))
            .unwrap_or_else(|| panic!("{}/{first}: in no layer of tests/layers.rs", self.src))
    }

    fn dir(&self) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join(self.src)
    }
}

/// Every .rs file under `dir`, with its module path (`src/lexicon/raw/mod.rs`
/// is `lexicon::raw`; the root file `root`, at the top, is the empty path).
fn modules(dir: &Path, root: &str, prefix: &[String], out: &mut BTreeMap<Vec<String>, PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        if path.is_dir() {
            let mut p = prefix.to_vec();
            p.push(name);
            modules(&path, root, &p, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let mut p = prefix.to_vec();
            let is_root = prefix.is_empty() && path.file_name().is_some_and(|f| f == root);
            if name != "mod" && !is_root {
                p.push(name);
            }
            out.insert(p, path);
        }
    }
}

/// The code of a file: no comment lines, no trailing test module.
fn code(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let t = line.trim_start();
        if line.starts_with("#[cfg(test)]") {
            break;
        }
        if t.starts_with("//") {
            continue;
        }
        out.push_str(line.split(" // ").next().unwrap());
        out.push('\n');
    }
    out
}

/// The items of a `{a::b, c::{d, e}}` group, each a path of segments.
fn group(text: &str, prefix: &[String], out: &mut Vec<Vec<String>>) {
    let mut depth = 0;
    let mut item = String::new();
    let mut items = Vec::new();
    for ch in text.chars() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(std::mem::take(&mut item));
                continue;
            }
            _ => {}
        }
        item.push(ch);
    }
    items.push(item);
    for item in items {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        path_at(item, prefix, out);
    }
}

/// The path at the start of `text` (after `crate::` or `super::`),
/// groups expanded.
fn path_at(text: &str, prefix: &[String], out: &mut Vec<Vec<String>>) {
    let mut segs = prefix.to_vec();
    let mut rest = text;
    loop {
        if let Some(inner) = rest.strip_prefix('{') {
            let mut depth = 1;
            let end = inner
                .char_indices()
                .find(|&(_, c)| {
                    depth += (c == '{') as i32 - (c == '}') as i32;
                    depth == 0
                })
                .map_or(inner.len(), |(i, _)| i);
            group(&inner[..end], &segs, out);
            return;
        }
        let len = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if len == 0 {
            break;
        }
        segs.push(rest[..len].to_string());
        rest = &rest[len..];
        match rest.strip_prefix("::") {
            Some(r) => rest = r,
            None => break,
        }
    }
    out.push(segs);
}

/// Every path a file's code names through `crate::` or `super::`.
fn imports(code: &str, module: &[String], is_mod_file: bool) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        if code[..at].ends_with('$') {
            continue;
        }
        path_at(&code[at + 7..], &[], &mut out);
    }
    // `super` of a/b.rs is `a`; of a/b/mod.rs it is also `a`.
    let parent = if is_mod_file || module.is_empty() {
        module.len().saturating_sub(1)
    } else {
        module.len() - 1
    };
    let parent = &module[..parent];
    for (at, _) in code.match_indices("super::") {
        let before = &code[..at];
        if before.ends_with("super::")
            || before.ends_with(|c: char| c.is_alphanumeric() || c == '_')
        {
            continue;
        }
        let mut text = &code[at + 7..];
        let mut base = parent.to_vec();
        while let Some(r) = text.strip_prefix("super::") {
            base.pop();
            text = r;
        }
        path_at(text, &base, &mut out);
    }
    out
}

/// The names the crate root re-exports (`Lexicon` -> `lexicon::Lexicon`).
fn root_names(lib: &str) -> BTreeMap<String, Vec<String>> {
    let mut names = BTreeMap::new();
    for stmt in code(lib).split(';') {
        let Some(at) = stmt.find("pub use ") else {
            continue;
        };
        let mut paths = Vec::new();
        path_at(stmt[at + 8..].trim(), &[], &mut paths);
        for p in paths {
            names.insert(p.last().unwrap().clone(), p);
        }
    }
    names
}

/// The module file a path lands in: its longest prefix that is a module.
fn resolve<'m>(
    path: &[String],
    mods: &'m BTreeMap<Vec<String>, PathBuf>,
    roots: &BTreeMap<String, Vec<String>>,
) -> Option<&'m Vec<String>> {
    let mut path = path.to_vec();
    if let Some(target) = path.first().and_then(|f| roots.get(f)) {
        if !mods.contains_key(&path[..1]) {
            path.splice(..1, target.iter().cloned());
        }
    }
    (1..=path.len())
        .rev()
        .find_map(|n| mods.get_key_value(&path[..n]).map(|(k, _)| k))
}

/// Which modules each module of `tree` imports.
fn graph(tree: &Tree) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let src = tree.dir();
    let mut mods = BTreeMap::new();
    modules(&src, tree.root, &[], &mut mods);
    let roots = root_names(&std::fs::read_to_string(src.join(tree.root)).unwrap());
    let mut edges = BTreeMap::new();
    for (module, path) in &mods {
        if module.is_empty() {
            continue; // the root declares and re-exports, or dispatches
        }
        let text = std::fs::read_to_string(path).unwrap();
        let is_mod = path.file_name().unwrap() == "mod.rs";
        let mut to = BTreeSet::new();
        for p in imports(&code(&text), module, is_mod) {
            if let Some(target) = resolve(&p, &mods, &roots) {
                // A module's own children are its parts, not imports.
                if target != module && !target.starts_with(module) {
                    to.insert(target.clone());
                }
            }
        }
        edges.insert(module.clone(), to);
    }
    edges
}

fn name(m: &[String]) -> String {
    if m.is_empty() {
        "the root".into()
    } else {
        m.join("::")
    }
}

/// What is wrong with `tree`'s layers: each import of a layer above, or of
/// a name of the crate root.
fn upward_imports(
    tree: &Tree,
    edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
) -> Vec<String> {
    let mut wrong = Vec::new();
    for (from, tos) in edges {
        for to in tos {
            if to.is_empty() {
                wrong.push(format!(
                    "{}: {} uses a name of the crate root",
                    tree.src,
                    name(from)
                ));
            } else if tree.rank(to) > tree.rank(from) {
                wrong.push(format!(
                    "{}: {} imports {}, a layer above it",
                    tree.src,
                    name(from),
                    name(to)
                ));
            }
        }
    }
    wrong
}

/// Every import cycle of `edges`, each as `a -> b -> a`.
fn cycles(edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<String> {
    // Depth-first search with colours; a grey target closes a cycle.
    fn visit(
        m: &Vec<String>,
        edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        colour: &mut BTreeMap<Vec<String>, u8>,
        stack: &mut Vec<Vec<String>>,
        cycles: &mut Vec<String>,
    ) {
        colour.insert(m.clone(), 1);
        stack.push(m.clone());
        for to in edges.get(m).into_iter().flatten() {
            match colour.get(to).copied().unwrap_or(0) {
                0 => visit(to, edges, colour, stack, cycles),
                1 => {
                    let at = stack.iter().position(|s| s == to).unwrap();
                    let mut ring: Vec<String> = stack[at..].iter().map(|s| name(s)).collect();
                    ring.push(name(to));
                    cycles.push(ring.join(" -> "));
                }
                _ => {}
            }
        }
        stack.pop();
        colour.insert(m.clone(), 2);
    }
    let (mut colour, mut cycles) = (BTreeMap::new(), Vec::new());
    for m in edges.keys() {
        if !colour.contains_key(m) {
            visit(m, edges, &mut colour, &mut Vec::new(), &mut cycles);
        }
    }
    cycles
}

#[test]
fn each_layer_imports_only_from_below() {
    let mut wrong = Vec::new();
    for tree in TREES {
        wrong.extend(upward_imports(tree, &graph(tree)));
    }
    assert!(wrong.is_empty(), "layering broken:\n{}", wrong.join("\n"));
}

#[test]
fn no_import_cycles() {
    let mut found = Vec::new();
    for tree in TREES {
        for ring in cycles(&graph(tree)) {
            found.push(format!("{}: {ring}", tree.src));
        }
    }
    assert!(found.is_empty(), "import cycles:\n{}", found.join("\n"));
}

#[test]
fn the_checker_sees_imports() {
    // The parser itself, on the shapes the tree uses.
    let mut out = Vec::new();
    path_at(
        "{alphabet::Alphabet, game::{board::Board, rack}};",
        &[],
        &mut out,
    );
    let names: Vec<String> = out.iter().map(|p| p.join("::")).collect();
    assert_eq!(
        names,
        ["alphabet::Alphabet", "game::board::Board", "game::rack"]
    );
    let module: Vec<String> = vec!["query".into(), "find".into(), "eval".into()];
    let got = imports(
        "use super::plan::Plan;\nuse crate::lexicon::raw::Node;",
        &module,
        false,
    );
    let got: Vec<String> = got.iter().map(|p| p.join("::")).collect();
    assert_eq!(got, ["lexicon::raw::Node", "query::find::plan::Plan"]);
    let edges = graph(&TREES[0]);
    let board = vec!["game".to_string(), "board".to_string()];
    assert!(
        edges[&board].contains(&vec!["alphabet".to_string()]),
        "{:?}",
        edges[&board]
    );
    // The command line's tree, rooted at main.rs.
    let edges = graph(&TREES[1]);
    let search = vec!["cmd".to_string(), "search".to_string()];
    for to in ["print", "flags", "find"] {
        assert!(
            edges[&search].contains(&vec![to.to_string()]),
            "{:?}",
            edges[&search]
        );
    }
    assert!(!edges.contains_key(&vec!["main".to_string()]));
}

/// Every text file of the workspace that a person reads (sources, tests,
/// benches, docs, scripts), walked from `dir`, leaving out build output
/// and data.
fn text_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap();
        if path.is_dir() {
            if !name.starts_with('.') && !["target", "data", "corpus", "artifacts"].contains(&name)
            {
                text_files(&path, out);
            }
        } else if ["rs", "md", "sh", "py", "toml"]
            .iter()
            .any(|e| path.extension().is_some_and(|x| x == *e))
        {
            out.push(path);
        }
    }
}

/// A path named in a comment or a document (`src/game/state.rs`,
/// `docs/GAME.md`) names a file that exists: from the workspace's root,
/// or, in cli/, site/ and fuzz/, from that package's folder. (Seven such
/// names had gone stale when their files moved.)
#[test]
fn paths_named_in_the_tree_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let named = regex::Regex::new(
        r"(?:^|[^\w./-])((?:src|tests|benches|docs|cli|site|examples|fuzz|indexes|queries)/[\w./-]*\.(?:rs|md|sh|py|toml|html|cgp|txt|lexq))",
    )
    .unwrap();
    let mut files = Vec::new();
    text_files(root, &mut files);
    files.sort();
    assert!(files.len() > 100, "found only {} files", files.len());
    let mut stale = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let rel = file.strip_prefix(root).unwrap();
        let package = rel
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .filter(|top| ["cli", "site", "fuzz"].contains(top));
        for (n, line) in text.lines().enumerate() {
            for m in named.captures_iter(line) {
                let path = &m[1];
                let exists = root.join(path).exists()
                    || package.is_some_and(|p| root.join(p).join(path).exists());
                if !exists {
                    stale.push(format!("{}:{}: {path}", rel.display(), n + 1));
                }
            }
        }
    }
    assert!(
        stale.is_empty(),
        "names of files that do not exist:\n{}",
        stale.join("\n")
    );
}
