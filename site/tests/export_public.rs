//! A static export is published as it is: nothing in it may name a
//! folder of the machine that built it.

mod common;

use std::path::Path;

use common::*;
use lexq_site::Site;
use lexq_site::export::{ExportOptions, export};

/// Every file under `dir`, read whole.
fn files(dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push((path.display().to_string(), std::fs::read(&path).unwrap()));
        }
    }
}

#[test]
fn an_export_names_no_folder_of_the_build_machine() {
    let dir = tempfile::tempdir().unwrap();
    let (site_dir, _) = fixture_site(dir.path());
    let site = Site::open(&site_dir).unwrap();
    // The site itself records where its lexicon came from.
    assert!(
        site.meta()
            .lexicon
            .contains(&dir.path().display().to_string())
    );
    let out = dir.path().join("export");
    export(&site, &out, &ExportOptions::default(), &mut ()).unwrap();
    let mut all = Vec::new();
    files(&out, &mut all);
    assert!(all.len() > 10, "{}", all.len());
    let private = [
        dir.path().display().to_string(),
        std::fs::canonicalize(dir.path())
            .unwrap()
            .display()
            .to_string(),
        env!("CARGO_MANIFEST_DIR").to_string(),
    ];
    for (name, bytes) in &all {
        let text = String::from_utf8_lossy(bytes);
        for p in &private {
            assert!(!text.contains(p.as_str()), "{name} holds {p}");
        }
    }
    let manifest = std::fs::read_to_string(out.join("lexq-export.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    assert_eq!(v["lexicon"], "words.lexq");
}
