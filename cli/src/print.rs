//! Printing results: plain lines for pipes, or one JSON document.

use std::io::{self, BufWriter, Stdout, Write};
use std::path::Path;

use lexq::{Alphabet, Built, Hooks, Info, WordList, Words};
use serde_json::json;

/// Buffered standard output.
pub struct Printer {
    out: BufWriter<Stdout>,
}

/// Whether a failure is a write to a closed pipe (`lexq ... | head`).
pub fn is_broken_pipe(e: &(dyn std::error::Error + 'static)) -> bool {
    e.downcast_ref::<io::Error>()
        .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
}

impl Printer {
    /// A printer to standard output.
    pub fn stdout() -> Printer {
        Printer {
            out: BufWriter::with_capacity(64 * 1024, io::stdout()),
        }
    }

    /// One line of text.
    pub fn line(&mut self, text: &str) -> io::Result<()> {
        writeln!(self.out, "{text}")
    }

    /// Words one a line, or a JSON array of strings.
    pub fn words(&mut self, words: &Words<'_>, as_json: bool) -> io::Result<()> {
        if as_json {
            let list: Vec<String> = words.to_strings();
            return self.json(&json!(list));
        }
        let mut text = String::with_capacity(words.len() * 10);
        for w in words.iter() {
            w.push_to(&mut text);
            text.push('\n');
        }
        self.out.write_all(text.as_bytes())
    }

    /// A count, as a line or a JSON number.
    pub fn count(&mut self, n: usize, as_json: bool) -> io::Result<()> {
        if as_json {
            return self.json(&json!(n));
        }
        writeln!(self.out, "{n}")
    }

    /// Word judge results: `WORD valid` / `WORD invalid`.
    pub fn checks(
        &mut self,
        alphabet: &Alphabet,
        results: &[(&str, bool)],
        as_json: bool,
    ) -> io::Result<()> {
        // The word as read (trimmed, folded, in tiles), as the judge saw it.
        let spelled = |w: &str| {
            let w = w.trim();
            alphabet
                .encode(w)
                .map(|c| alphabet.decode(&c))
                .unwrap_or_else(|_| w.to_uppercase())
        };
        if as_json {
            let list: Vec<_> = results
                .iter()
                .map(|(w, ok)| json!({"word": spelled(w), "valid": ok}))
                .collect();
            return self.json(&json!(list));
        }
        for (w, ok) in results {
            writeln!(
                self.out,
                "{} {}",
                spelled(w),
                if *ok { "valid" } else { "invalid" }
            )?;
        }
        Ok(())
    }

    /// Hooks: `FRONT WORD BACK` lines, or JSON objects.
    pub fn hooks(&mut self, hooks: &[Hooks<'_>], as_json: bool) -> io::Result<()> {
        if as_json {
            let list: Vec<_> = hooks
                .iter()
                .map(|h| {
                    json!({
                        "word": h.word(),
                        "front": h.front_letters(),
                        "back": h.back_letters(),
                        "valid": h.is_word,
                    })
                })
                .collect();
            return self.json(&json!(list));
        }
        for h in hooks {
            writeln!(self.out, "{h}")?;
        }
        Ok(())
    }

    /// `lexq info`.
    pub fn info(&mut self, info: &Info, as_json: bool) -> io::Result<()> {
        if as_json {
            return self.json(&serde_json::to_value(info).map_err(io::Error::other)?);
        }
        writeln!(self.out, "source:         {}", info.source)?;
        writeln!(self.out, "words:          {}", info.words)?;
        writeln!(self.out, "gaddag entries: {}", info.entries)?;
        writeln!(
            self.out,
            "bytes:          {} ({:.2} per word)",
            info.bytes, info.bytes_per_word
        )?;
        writeln!(self.out, "longest word:   {}", info.max_word_len)?;
        writeln!(
            self.out,
            "alphabet:       {} ({})",
            info.alphabet,
            info.tiles.join(" ")
        )?;
        writeln!(self.out, "format version: {}", info.format_version)
    }

    fn json(&mut self, value: &serde_json::Value) -> io::Result<()> {
        serde_json::to_writer(&mut self.out, value).map_err(io::Error::other)?;
        writeln!(self.out)
    }

    /// Flushes what is buffered.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Warns on stderr about word-list lines that were skipped.
pub fn rejected(list: &WordList) {
    if list.rejected() == 0 {
        return;
    }
    let lines = match list.rejected() {
        1 => "line that is not a word",
        _ => "lines that are not words",
    };
    eprintln!(
        "lexq: skipped {} {lines} of the {} alphabet:",
        list.rejected(),
        list.alphabet().name()
    );
    for r in list.examples() {
        eprintln!(
            "  {}:{}: {:?}: {}",
            r.source.display(),
            r.line,
            r.text,
            r.kind
        );
    }
    if list.rejected() > list.examples().len() {
        eprintln!("  ... and {} more", list.rejected() - list.examples().len());
    }
}

/// The one-line build summary on stderr.
pub fn build_summary(output: &Path, list: &WordList, built: &Built) {
    let filtered = if list.filtered() > 0 {
        format!(", {} left out for length", list.filtered())
    } else {
        String::new()
    };
    eprintln!(
        "{}: {} words, {} GADDAG entries, {} bytes ({:.2} per word), {:.2} s{filtered}",
        output.display(),
        built.words,
        built.keys,
        built.bytes.len(),
        built.bytes_per_word(),
        built.elapsed.as_secs_f64()
    );
}
