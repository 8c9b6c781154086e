//! Printing results: plain lines for pipes, or one JSON document.

use std::io::{self, BufWriter, Stdout, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use lexq::{Alphabet, BuildReport, Hooks, Info, WordList, Words};

use crate::flags::WordOutput;
use serde::Serialize;
use serde_json::json;

/// One word of a word table, as printed and as JSON (keys in this order).
#[derive(Serialize, Debug)]
pub struct Row {
    /// The word (letters played with blanks in lowercase with `--blanks`).
    pub word: String,
    /// Letters that make a word in front of it, in alphabet order.
    pub front: String,
    /// Letters that make a word after it.
    pub back: String,
    /// Whether the word without its first tile is a word (Zyzzyva's dot
    /// before the word).
    pub inner_front: bool,
    /// Whether the word without its last tile is a word (the dot after).
    pub inner_back: bool,
    /// Probability rank among the lexicon's words of its length.
    pub rank: u32,
    /// Draws of the full bag that spell it.
    pub combinations: u128,
    /// Its chance from a full bag.
    pub probability: f64,
    /// Its point value.
    pub points: i32,
}

/// The words to print: all found, in the order asked, capped.
pub struct Listing<'w> {
    /// How many words the search found (before `--limit`).
    pub found: usize,
    /// The words to print, in order (the search's own list, cut to
    /// `--limit`: a copy of every word's handle was 32 bytes a word of
    /// fresh memory).
    pub words: &'w Words<'w>,
    /// Their table rows, with `--table`.
    pub rows: Option<Vec<Row>>,
    /// Whether words show the letters blanks stand for (`--blanks`).
    pub blanks: bool,
}

/// Standard output that turns a closed pipe (`lexq ... | head`) into a
/// quiet end of output: once the reader is gone, writes are dropped, so the
/// command still exits with the status its answer deserves. Other write
/// errors (a full disk) are errors.
struct Sink {
    out: Stdout,
    closed: bool,
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.closed {
            return Ok(buf.len());
        }
        match self.out.write(buf) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                CLOSED.store(true, Ordering::Relaxed);
                Ok(buf.len())
            }
            Err(e) => Err(named(e)),
            ok => ok,
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        match self.out.flush() {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                CLOSED.store(true, Ordering::Relaxed);
                Ok(())
            }
            Err(e) => Err(named(e)),
            ok => ok,
        }
    }
}

/// A failed write to standard output, saying so (`lexq: standard output:
/// No space left on device (os error 28)`, where the bare error would not
/// tell a full disk under `> FILE` from one the command wrote to).
fn named(e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("standard output: {e}"))
}

/// Buffered standard output.
pub struct Printer {
    out: BufWriter<Sink>,
}

/// Prints `lexq: MESSAGE` on stderr as one line, very long words in it cut
/// (a huge argument or path stays readable); a failed write to stderr is
/// ignored, as there is nowhere left to report it.
pub fn error(message: &str) {
    let _ = writeln!(
        io::stderr(),
        "lexq: {}",
        one_line(&message.replace('\n', " "))
    );
}

/// `text` made fit for a message line: control characters escaped (a NUL
/// shows as `\0`, a newline as `\n`) and each word of more than 80
/// characters cut to its first 60 and `…`.
pub fn one_line(text: &str) -> String {
    text.split(' ').map(shown).collect::<Vec<_>>().join(" ")
}

/// `word` as text for a person: control characters escaped, and cut to its
/// first 60 characters and `…` if it has more than 80.
pub fn shown(word: &str) -> String {
    let long = word.chars().count() > 80;
    let mut out = String::with_capacity(word.len().min(256));
    for c in word.chars().take(if long { 60 } else { usize::MAX }) {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    if long {
        out.push('…');
    }
    out
}

/// A line on stderr, ignoring a failed write.
macro_rules! warn {
    ($($arg:tt)*) => {{
        let _ = writeln!(io::stderr(), $($arg)*);
    }};
}

/// One `check` result as JSON, keys in this order.
#[derive(Serialize)]
pub struct CheckJson {
    word: String,
    valid: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    /// With `--suggest`: the nearest words (empty for a valid word).
    #[serde(skip_serializing_if = "Option::is_none")]
    suggestions: Option<Vec<String>>,
}

/// One `hooks` result as JSON, keys in this order.
#[derive(Serialize)]
pub struct HooksJson {
    word: String,
    front: String,
    back: String,
    valid: bool,
}

/// A word as the judge read it: trimmed, folded, in tiles (uppercase if
/// it cannot be read as tiles).
fn spelled(alphabet: &Alphabet, w: &str) -> String {
    let w = w.trim();
    alphabet
        .encode(w)
        .map(|c| alphabet.decode(&c))
        .unwrap_or_else(|_| w.to_uppercase())
}

/// `check --json`'s objects: each word as read, whether valid, why not
/// readable, and with `near` its nearest words.
pub fn check_objects(
    alphabet: &Alphabet,
    results: &[(&str, Result<bool, String>)],
    near: Option<&[Vec<String>]>,
) -> Vec<CheckJson> {
    results
        .iter()
        .enumerate()
        .map(|(i, (w, r))| CheckJson {
            word: spelled(alphabet, w),
            valid: r == &Ok(true),
            error: r.as_ref().err().map(|why| one_line(why)),
            suggestions: near.map(|n| n[i].clone()),
        })
        .collect()
}

/// `hooks --json`'s objects.
pub fn hooks_objects(hooks: &[Hooks<'_>]) -> Vec<HooksJson> {
    hooks
        .iter()
        .map(|h| HooksJson {
            word: h.word(),
            front: h.front_letters(),
            back: h.back_letters(),
            valid: h.is_word,
        })
        .collect()
}

/// Set once a write found standard output's reader gone.
static CLOSED: AtomicBool = AtomicBool::new(false);

/// Whether standard output's reader is gone (`lexq selfplay | head`): a
/// command producing more and more output can stop.
pub fn closed() -> bool {
    CLOSED.load(Ordering::Relaxed)
}

/// Standard output, unbuffered, a closed pipe its quiet end (see [`Sink`]):
/// what every command writes its answer to.
pub fn stdout() -> impl Write {
    sink()
}

fn sink() -> Sink {
    Sink {
        out: io::stdout(),
        closed: false,
    }
}

impl Printer {
    /// A printer to standard output.
    pub fn stdout() -> Printer {
        Printer {
            out: BufWriter::with_capacity(64 * 1024, sink()),
        }
    }

    /// Bytes as they are.
    pub fn raw(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.out.write_all(bytes)
    }

    /// One line of text.
    pub fn line(&mut self, text: &str) -> io::Result<()> {
        writeln!(self.out, "{text}")
    }

    /// A word list as `o` asks: the number found (`-c`), the words one a
    /// line or as a JSON array of strings, or the word table as aligned
    /// columns or as a JSON array of objects.
    pub fn listing(&mut self, listing: &Listing<'_>, o: &WordOutput) -> io::Result<()> {
        if o.count {
            return self.count(listing.found, o.json);
        }
        if let Some(rows) = &listing.rows {
            return if o.json {
                self.json(rows)
            } else {
                self.table(rows)
            };
        }
        let blanks = listing.blanks;
        if o.json {
            let list: Vec<String> = listing
                .words
                .iter()
                .map(|w| if blanks { w.marked() } else { w.spelling() })
                .collect();
            return self.json(&list);
        }
        // A block of lines at a time through the buffered writer: a
        // listing of every word is megabytes, and a text of it all would
        // be as much again of fresh pages to fault in; a write a word
        // cost more than spelling it.
        const BLOCK: usize = 32 * 1024;
        let mut text = String::with_capacity(BLOCK + 256);
        for w in listing.words.iter() {
            if blanks {
                text.push_str(&w.marked());
            } else {
                w.push_to(&mut text);
            }
            text.push('\n');
            if text.len() >= BLOCK {
                self.out.write_all(text.as_bytes())?;
                text.clear();
            }
        }
        self.out.write_all(text.as_bytes())
    }

    /// The word table: front hooks (right-aligned), the word between its
    /// inner-hook marks (`·` where the word less its first or last tile is
    /// a word), back hooks, probability rank, points; `-` for no hooks.
    /// Columns are padded with spaces, so each line has five fields.
    fn table(&mut self, rows: &[Row]) -> io::Result<()> {
        let or_dash = |s: &str| {
            if s.is_empty() {
                "-".to_string()
            } else {
                s.to_string()
            }
        };
        let width = |f: &dyn Fn(&Row) -> usize| rows.iter().map(f).max().unwrap_or(0);
        let front_w = width(&|r| r.front.chars().count().max(1));
        let word_w = width(&|r| r.word.chars().count());
        let back_w = width(&|r| r.back.chars().count().max(1));
        let rank_w = width(&|r| r.rank.to_string().len());
        let points_w = width(&|r| r.points.to_string().len());
        for r in rows {
            // The word with its marks: a space where there is no dot
            // before it, so that the words line up.
            let marked = format!(
                "{}{}{}",
                if r.inner_front { "·" } else { " " },
                r.word,
                if r.inner_back { "·" } else { "" }
            );
            writeln!(
                self.out,
                "{:>front_w$} {:<marked_w$} {:<back_w$} {:>rank_w$} {:>points_w$}",
                or_dash(&r.front),
                marked,
                or_dash(&r.back),
                r.rank,
                r.points,
                marked_w = word_w + 2,
            )?;
        }
        Ok(())
    }

    /// A count, as a line or a JSON number.
    pub fn count(&mut self, n: usize, as_json: bool) -> io::Result<()> {
        if as_json {
            return self.json(&json!(n));
        }
        writeln!(self.out, "{n}")
    }

    /// Word judge results: `WORD valid`, `WORD invalid`, or for a word
    /// that cannot be read, `WORD invalid (why)`.
    pub fn checks(
        &mut self,
        alphabet: &Alphabet,
        results: &[(&str, Result<bool, String>)],
        as_json: bool,
        near: Option<&[Vec<String>]>,
    ) -> io::Result<()> {
        if as_json {
            return self.json(&check_objects(alphabet, results, near));
        }
        let spelled = |w: &str| spelled(alphabet, w);
        // A word as text: control characters escaped, a long one cut.
        for (i, (w, r)) in results.iter().enumerate() {
            let mut shown = shown(&spelled(w));
            if shown.is_empty() {
                // An empty argument, shown as one: no line starts blank.
                shown.push_str("\"\"");
            }
            match r {
                Ok(true) => writeln!(self.out, "{shown} valid")?,
                Ok(false) => match near.map(|n| &n[i]) {
                    Some(list) if !list.is_empty() => writeln!(
                        self.out,
                        "{shown} invalid (did you mean {}?)",
                        list.join(", ")
                    )?,
                    _ => writeln!(self.out, "{shown} invalid")?,
                },
                Err(why) => writeln!(self.out, "{shown} invalid ({})", one_line(why))?,
            }
        }
        Ok(())
    }

    /// Hooks: `FRONT WORD BACK` lines (`WORD*` when the letters are not a
    /// word themselves), or JSON objects.
    pub fn hooks(&mut self, hooks: &[Hooks<'_>], as_json: bool) -> io::Result<()> {
        if as_json {
            return self.json(&hooks_objects(hooks));
        }
        let or_dash = |s: String| if s.is_empty() { "-".to_string() } else { s };
        for h in hooks {
            writeln!(
                self.out,
                "{} {}{} {}",
                or_dash(h.front_letters()),
                h.word(),
                if h.is_word { "" } else { "*" },
                or_dash(h.back_letters())
            )?;
        }
        Ok(())
    }

    /// `lexq info`.
    pub fn info(&mut self, info: &Info, as_json: bool) -> io::Result<()> {
        if as_json {
            return self.json(info);
        }
        writeln!(self.out, "source:         {}", info.source)?;
        writeln!(self.out, "words:          {}", info.words)?;
        writeln!(self.out, "gaddag entries: {}", info.entries)?;
        writeln!(
            self.out,
            "bytes:          {} ({:.2} per word)",
            info.bytes, info.bytes_per_word
        )?;
        writeln!(
            self.out,
            "sections:       fst {} bytes, arc table {} bytes ({} arcs of {} bits)",
            info.fst_bytes, info.arcs_bytes, info.arcs, info.arc_bits
        )?;
        writeln!(self.out, "longest word:   {}", info.max_word_len)?;
        writeln!(
            self.out,
            "alphabet:       {} ({})",
            info.alphabet,
            info.tiles.join(" ")
        )?;
        match info.upgraded_from {
            None => writeln!(self.out, "format version: {}", info.format_version),
            Some(old) => writeln!(
                self.out,
                "format version: {} (read from a version {old} file: `lexq upgrade` rewrites it)",
                info.format_version
            ),
        }
    }

    /// One JSON document on a line of its own.
    pub fn json_line(&mut self, value: &impl Serialize) -> io::Result<()> {
        self.json(value)
    }

    /// One JSON document and a newline (keys in the order of the
    /// serialized struct's fields).
    fn json(&mut self, value: &impl Serialize) -> io::Result<()> {
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
    skipped_lines(list.rejected(), list.alphabet().name(), list.examples());
}

/// Warns on stderr about the lines of a `find --in` list that were
/// skipped, as [`rejected`] does for `lexq build`.
pub fn skipped(s: &lexq::find::Skipped) {
    skipped_lines(s.lines, &s.alphabet, &s.examples);
}

/// Warns that `count` lines were not words of `alphabet`, `examples` the
/// first few.
fn skipped_lines(count: usize, alphabet: &str, examples: &[lexq::Rejected]) {
    if count == 0 {
        return;
    }
    let lines = match count {
        1 => "line that is not a word",
        _ => "lines that are not words",
    };
    warn!("lexq: skipped {count} {lines} of the {alphabet} alphabet:");
    for r in examples {
        warn!(
            "  {}:{}: {:?}: {}",
            r.source.display(),
            r.line,
            r.text,
            r.kind
        );
    }
    if count > examples.len() {
        warn!("  ... and {} more", count - examples.len());
    }
}

/// The one-line build summary on stderr.
pub fn build_summary(output: &Path, list: &WordList, built: &BuildReport) {
    let filtered = if list.filtered() > 0 {
        format!(", {} left out for length", list.filtered())
    } else {
        String::new()
    };
    let plural = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    warn!(
        "{}: {}, {}, {} bytes ({:.2} per word), {:.2} s{filtered}",
        output.display(),
        plural(built.words, "word", "words"),
        plural(built.keys, "GADDAG entry", "GADDAG entries"),
        built.file_len,
        built.bytes_per_word(),
        built.elapsed.as_secs_f64()
    );
}
