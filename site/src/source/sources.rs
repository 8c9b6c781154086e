//! Definitions from files of one's own: TSV (`WORD<TAB>definition` or
//! `WORD<TAB>pos<TAB>definition`, pos one of n, v, a, s, r) or JSON Lines
//! (`{"word": ..., "definition": ..., "pos": ...}`, pos optional). A word
//! may have several lines; a line that repeats one read before (the same
//! word, part of speech and definition) is shown once. Words are read as
//! the lexicon's alphabet reads a word list's lines (`lexq build`): `care`,
//! `Care` and `CARE` are one word, a Spanish `árbol` is `ARBOL`, a Catalan
//! `col.lecció` is `COL·LECCIO`; a word the alphabet cannot read is a bad
//! line naming the character. Bad lines are reported with their line
//! numbers and skipped, or fatal when `strict`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use lexq::Alphabet;
use serde::Deserialize;

use crate::error::{Result, SiteError};
use crate::wordnet::Pos;

/// One definition read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Definition {
    /// The part of speech, if the line gave one.
    pub pos: Option<Pos>,
    /// The definition text.
    pub text: String,
    /// The file's name (without its folder), to credit the source.
    pub source: String,
}

/// A line that was skipped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLine {
    /// The file.
    pub path: PathBuf,
    /// The 1-based line number.
    pub line: usize,
    /// What is wrong with it.
    pub reason: String,
}

/// Definitions read from files, by word.
#[derive(Debug)]
pub struct Definitions {
    /// Definitions per word, in file order; each word spelled as the
    /// alphabet spells it (its tiles' labels: `CARE`), as the lexicon's
    /// words are.
    pub words: HashMap<String, Vec<Definition>>,
    /// The lines skipped as unusable.
    pub bad: Vec<BadLine>,
    /// Definitions kept.
    pub count: usize,
    /// Lines left out as repeating one read before (the same word, part
    /// of speech and definition, in any file).
    pub duplicates: usize,
    alphabet: Alphabet,
}

#[derive(Deserialize)]
struct JsonLine {
    word: String,
    definition: String,
    #[serde(default)]
    pos: Option<String>,
}

/// The file's format: JSON Lines if its name ends in `.jsonl`/`.json` or
/// its first non-blank line starts with `{`, TSV otherwise.
fn is_json_lines(path: &Path, text: &str) -> bool {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    if ext.eq_ignore_ascii_case("jsonl") || ext.eq_ignore_ascii_case("json") {
        return true;
    }
    text.lines()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| l.trim_start().starts_with('{'))
}

fn read_pos(code: &str) -> std::result::Result<Pos, String> {
    Pos::from_code(code.trim()).ok_or_else(|| {
        format!(
            "part of speech {:?} is not one of n, v, a, s, r",
            code.trim()
        )
    })
}

/// The longest definition taken, in bytes (WordNet's longest gloss is
/// under a tenth of it).
pub const MAX_DEFINITION_BYTES: usize = 16 * 1024;

/// Reads one line into (word, definition), or says what is wrong with it.
fn parse_line(
    line: &str,
    json: bool,
    source: &str,
    alphabet: &Alphabet,
) -> std::result::Result<(String, Definition), String> {
    let (word, pos, text) = if json {
        let l: JsonLine = serde_json::from_str(line).map_err(|e| format!("bad JSON: {e}"))?;
        let pos = match l.pos.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(p) => Some(read_pos(p)?),
        };
        (l.word, pos, l.definition)
    } else {
        let fields: Vec<&str> = line.split('\t').collect();
        match fields[..] {
            [w, d] => (w.to_string(), None, d.to_string()),
            [w, p, d] => (w.to_string(), Some(read_pos(p)?), d.to_string()),
            [_] => return Err("no tab between the word and its definition".into()),
            _ => {
                return Err(format!(
                    "{} tab-separated fields, expected 2 or 3",
                    fields.len()
                ));
            }
        }
    };
    let word = word.trim();
    let text = text.trim();
    if word.is_empty() {
        return Err("empty word".into());
    }
    if word.chars().any(char::is_whitespace) {
        return Err(format!("word {word:?} has spaces"));
    }
    if text.is_empty() {
        return Err("empty definition".into());
    }
    if text.len() > MAX_DEFINITION_BYTES {
        return Err(format!(
            "a definition of {} bytes, longer than {MAX_DEFINITION_BYTES}",
            text.len()
        ));
    }
    if let Some(c) = word.chars().chain(text.chars()).find(|c| c.is_control()) {
        return Err(format!("a control character ({c:?})"));
    }
    // The word as a word list line reads: the alphabet's tiles, spelled
    // by their labels (`ﬁre` and `FIRE` alike are FIRE, as `lexq build`
    // folds them; `cafe` + U+0301 in English names the é it cannot read).
    let codes = alphabet.encode(word).map_err(|e| match e {
        lexq::Error::Word {
            kind: lexq::error::WordErrorKind::NotInAlphabet { .. },
            ..
        } => format!("word {e}"),
        e => e.to_string(),
    })?;
    Ok((
        alphabet.decode(&codes),
        Definition {
            pos,
            text: text.to_string(),
            source: source.to_string(),
        },
    ))
}

impl Definitions {
    /// No definitions yet, for words of `alphabet`.
    pub fn new(alphabet: &Alphabet) -> Definitions {
        Definitions {
            words: HashMap::new(),
            bad: Vec::new(),
            count: 0,
            duplicates: 0,
            alphabet: alphabet.clone(),
        }
    }

    /// Reads a definitions file, adding to what was read before.
    ///
    /// ```
    /// let mut defs = lexq_site::sources::Definitions::new(&lexq::Alphabet::english());
    /// let text = "cat\tn\ta small furry animal\nbad line\nCat\tn\ta small furry animal\n";
    /// defs.read_bytes("d.tsv".as_ref(), text.as_bytes(), false)?;
    /// assert_eq!(defs.words["CAT"].len(), 1); // the third line repeats the first
    /// assert_eq!(defs.words["CAT"][0].text, "a small furry animal");
    /// assert_eq!(defs.bad[0].line, 2);
    /// # Ok::<(), lexq_site::SiteError>(())
    /// ```
    pub fn read_path(&mut self, path: &Path, strict: bool) -> Result<()> {
        let bytes = crate::fsutil::read_capped(path, "a definitions file")?;
        self.read_bytes(path, &bytes, strict)
    }

    /// Reads a definitions file's content; `path` names it in reports.
    pub fn read_bytes(&mut self, path: &Path, bytes: &[u8], strict: bool) -> Result<()> {
        // A byte-order mark is no part of the first word.
        let bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
        let text = String::from_utf8_lossy(bytes);
        let json = is_json_lines(path, &text);
        let source = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        for (n, raw) in bytes.split(|&b| b == b'\n').enumerate() {
            let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
            let outcome = match std::str::from_utf8(raw) {
                Err(_) => Err("not UTF-8".to_string()),
                Ok(line) if line.trim().is_empty() => continue,
                Ok(line) if !json && line.starts_with('#') => continue,
                Ok(line) => parse_line(line, json, &source, &self.alphabet),
            };
            match outcome {
                Ok((word, def)) => {
                    let defs = self.words.entry(word).or_default();
                    if defs.iter().any(|d| d.pos == def.pos && d.text == def.text) {
                        self.duplicates += 1;
                    } else {
                        self.count += 1;
                        defs.push(def);
                    }
                }
                Err(reason) if strict => {
                    return Err(SiteError::BadDefinition {
                        path: path.to_path_buf(),
                        line: n + 1,
                        reason,
                    });
                }
                Err(reason) => self.bad.push(BadLine {
                    path: path.to_path_buf(),
                    line: n + 1,
                    reason,
                }),
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(name: &str, text: &str, strict: bool) -> Result<Definitions> {
        let mut d = Definitions::new(&Alphabet::english());
        d.read_bytes(name.as_ref(), text.as_bytes(), strict)?;
        Ok(d)
    }

    #[test]
    fn tsv_two_and_three_fields_and_bad_lines() {
        let d = read(
            "x.tsv",
            "# comment\ncat\ta pet\ncat\tv\tto vomit\n\ndog\tq\tbad pos\nnotab\n\tempty word\nemu\t\t\n",
            false,
        )
        .unwrap();
        assert_eq!(d.count, 2);
        assert_eq!(d.words["CAT"].len(), 2);
        assert_eq!(d.words["CAT"][1].pos, Some(Pos::Verb));
        let lines: Vec<usize> = d.bad.iter().map(|b| b.line).collect();
        assert_eq!(lines, [5, 6, 7, 8]);
        let err = read("x.tsv", "cat\ta pet\nnotab\n", true).unwrap_err();
        assert!(err.to_string().starts_with("x.tsv:2: no tab"), "{err}");
    }

    #[test]
    fn json_lines() {
        let d = read(
            "x.jsonl",
            "{\"word\":\"cat\",\"definition\":\"a pet\",\"pos\":\"n\"}\n{\"word\":\"dog\"}\n{nope\n",
            false,
        )
        .unwrap();
        assert_eq!(d.words["CAT"][0].pos, Some(Pos::Noun));
        assert_eq!(d.bad.len(), 2);
        assert_eq!(d.bad[0].line, 2);
        assert_eq!(d.bad[1].line, 3);
    }

    #[test]
    fn over_long_definitions_and_control_characters_are_bad_lines() {
        let long = "x".repeat(MAX_DEFINITION_BYTES + 1);
        let text = format!(
            "cat\t{long}\ncat\tfeel\u{0}concern\nc\u{7}t\ta pet\ncat\t{}\n",
            &long[1..]
        );
        let d = read("x.tsv", &text, false).unwrap();
        let lines: Vec<usize> = d.bad.iter().map(|b| b.line).collect();
        assert_eq!(lines, [1, 2, 3]);
        assert!(
            d.bad[0].reason.contains("longer than 16384"),
            "{}",
            d.bad[0].reason
        );
        assert!(d.bad[1].reason.contains("control character"));
        assert_eq!(d.words["CAT"].len(), 1);
    }

    #[test]
    fn a_byte_order_mark_and_crlf_are_no_part_of_a_line() {
        for name in ["x.tsv", "x.jsonl"] {
            let line = match name {
                "x.tsv" => "cat\tn\ta pet",
                _ => "{\"word\":\"cat\",\"definition\":\"a pet\",\"pos\":\"n\"}",
            };
            let d = read(name, &format!("\u{feff}{line}\r\n{line}\r\n"), true).unwrap();
            assert_eq!(d.words.keys().collect::<Vec<_>>(), ["CAT"], "{name}");
            // The second line is the first again, read the same way.
            assert_eq!((d.words["CAT"].len(), d.duplicates), (1, 1));
            assert_eq!(d.words["CAT"][0].text, "a pet");
        }
    }
}
