//! Tiles and their byte codes.
//!
//! An [`Alphabet`] maps each tile (a letter such as `A`, or a multi-letter
//! tile such as Spanish `CH` or Catalan `L·L`) to a one-byte code from 1 to
//! 63, so that one tile is always one transition in the lexicon. Code 0 is
//! the GADDAG separator. Codes follow the alphabet's order, so sorting code
//! strings sorts words in that alphabet's order.
//!
//! Text is read into codes greedily, longest spelling first and without
//! regard to case: with the Spanish alphabet `CHILLAR` is `CH I LL A R`.
//! Before reading, text is *folded*: every character is lowercased, then
//! uppercased, with full mappings (`ß` and `ẞ` read as `SS`, the ligature
//! `ﬁ` as `FI`; no letter is ever dropped), and a letter followed by a combining accent (`e` +
//! U+0301) is read as the accented letter (`é`), so it reads as that
//! letter's tile wherever the alphabet lists the accented form (Spanish and
//! Catalan list their accented vowels as spellings of the plain vowel).
//! Tile spellings are folded the same way, and may be of any length.
//!
//! # Alphabet files
//!
//! `--alphabet FILE` reads a UTF-8 text file with one tile a line, in
//! sorting order: the tile's spelling, then optionally other spellings that
//! read as the same tile (accented forms, say), all separated by spaces.
//! Blank lines and lines starting with `#` are ignored; case does not
//! matter. At most 63 tiles; spellings may not contain spaces or the
//! characters `? _ * [ ] ^ #`.
//!
//! ```text
//! # Spanish without accents
//! A Á
//! B
//! C
//! CH
//! ```

use std::collections::HashMap;
use std::path::Path;

use crate::alphabet::compose;
use crate::alphabet::letterset::LetterSet;
use crate::error::{AlphabetErrorKind, Arg, Error, Result, WordErrorKind};

/// The built-in alphabets' names, for messages.
const BUILTINS: &str = "english, spanish, catalan, polish, german, french, dutch, norwegian, swedish, slovene, italian, portuguese";

/// The most tiles an alphabet may have (codes 1..=63).
pub const MAX_TILES: usize = 63;

/// The largest alphabet file read, in bytes (63 tiles with their
/// spellings take well under 4 KiB).
const MAX_FILE_BYTES: u64 = 1 << 20;

/// Characters that may not appear in a tile spelling: they mean something
/// in racks and patterns.
const RESERVED: &[char] = &['?', '_', '*', '[', ']', '^', '#'];

const ENGLISH: &str =
    "A\nB\nC\nD\nE\nF\nG\nH\nI\nJ\nK\nL\nM\nN\nO\nP\nQ\nR\nS\nT\nU\nV\nW\nX\nY\nZ\n";

const SPANISH: &str = "\
# Spanish tiles (FISE): CH, LL and RR are single tiles; accents are ignored.
A Á À Â Ä
B
C
CH
D
E É È Ê Ë
F
G
H
I Í Ì Î Ï
J
L
LL
M
N
Ñ
O Ó Ò Ô Ö
P
Q
R
RR
S
T
U Ú Ù Û Ü
V
X
Y
Z
";

const CATALAN: &str = "\
# Catalan tiles: Ç, L·L, NY and QU are tiles of their own; accents are ignored.
A À Á
B
C
Ç
D
E É È
F
G
H
I Í Ï Ì
J
L
L·L L.L ĿL L•L
M
N
NY
O Ó Ò
P
QU QÜ
R
S
T
U Ú Ü Ù
V
X
Z
";

/// A set of tiles, each with its code, spelling and accepted variant
/// spellings.
///
/// ```
/// use lexq::Alphabet;
/// let spanish = Alphabet::spanish();
/// let codes = spanish.encode("chillar").unwrap();
/// assert_eq!(codes.len(), 5); // CH I LL A R
/// assert_eq!(spanish.decode(&codes), "CHILLAR");
/// ```
#[derive(Clone, Debug)]
pub struct Alphabet {
    name: String,
    /// Spelling of code `i + 1`, uppercase.
    labels: Vec<String>,
    /// Alternative spellings of code `i + 1`, uppercase.
    aliases: Vec<Vec<String>>,
    /// For ASCII bytes that always read as one tile: that tile's code.
    ascii: [u8; 128],
    /// Spellings starting with a character, longest first.
    by_first: HashMap<char, Vec<(String, u8)>>,
    /// When every tile is spelled with one ASCII letter: the letter of
    /// each code (`?` for codes outside the alphabet), for fast printing.
    ascii_labels: Option<[u8; 64]>,
    /// The most characters a spelling has.
    longest: usize,
}

impl Alphabet {
    /// English, `A` to `Z`.
    pub fn english() -> Alphabet {
        Alphabet::from_text("english", ENGLISH).expect("built-in alphabet")
    }

    /// Spanish (28 tiles, `CH`, `LL`, `RR` and `Ñ` among them; accents read as
    /// the plain vowel).
    pub fn spanish() -> Alphabet {
        Alphabet::from_text("spanish", SPANISH).expect("built-in alphabet")
    }

    /// Catalan (`Ç`, `L·L`, `NY`, `QU` among them; accents read as the plain
    /// vowel).
    pub fn catalan() -> Alphabet {
        Alphabet::from_text("catalan", CATALAN).expect("built-in alphabet")
    }

    /// A built-in alphabet by name, any case: `english`, `spanish`,
    /// `catalan`, and the alphabets of the built-in tile sets of `polish`
    /// (`Ą Ć Ę Ł Ń Ó Ś Ź Ż` tiles of their own), `german` (`Ä Ö Ü`; `ß`
    /// reads as `SS`), `french`, `dutch`, `italian` (21 letters) and
    /// `portuguese` (`Ç`) (accents read as the plain letter), `norwegian`
    /// (`Æ Ø Å`), `swedish` (`Å Ä Ö`) and `slovene` (`Č Š Ž`). `None` for
    /// any other name.
    ///
    /// ```
    /// use lexq::Alphabet;
    /// let pl = Alphabet::builtin("polish").unwrap();
    /// assert_eq!(pl.len(), 32);
    /// assert_eq!(pl.decode(&pl.encode("żółw").unwrap()), "ŻÓŁW");
    /// let fr = Alphabet::builtin("French").unwrap();
    /// assert_eq!(fr.decode(&fr.encode("élève").unwrap()), "ELEVE");
    /// ```
    pub fn builtin(name: &str) -> Option<Alphabet> {
        match name.to_ascii_lowercase().as_str() {
            "english" => Some(Alphabet::english()),
            "spanish" => Some(Alphabet::spanish()),
            "catalan" => Some(Alphabet::catalan()),
            other => crate::alphabet::languages::language(other)
                .map(|l| Alphabet::from_text(l.name, l.alphabet).expect("built-in alphabet")),
        }
    }

    /// A built-in alphabet by name (`english`, `spanish`, `catalan`,
    /// `polish`, `german`, `french`, `dutch`, `norwegian`, `swedish`,
    /// `slovene`, `italian`, `portuguese`: see [`Alphabet::builtin`]), or
    /// else an alphabet file at that path ([`Alphabet::from_file`]).
    pub fn named(name_or_path: &str) -> Result<Alphabet> {
        match Alphabet::builtin(name_or_path) {
            Some(a) => Ok(a),
            None => {
                let path = Path::new(name_or_path);
                if !path.exists() {
                    return Err(Error::Alphabet {
                        name: crate::error::shorten(name_or_path),
                        line: None,
                        kind: AlphabetErrorKind::Unknown { builtins: BUILTINS },
                    });
                }
                Alphabet::from_file(path)
            }
        }
    }

    /// Reads an alphabet file (format in the module documentation; a
    /// regular file of at most 1 MiB: a FIFO or a device is refused
    /// unopened). Its name is the file's stem.
    pub fn from_file(path: &Path) -> Result<Alphabet> {
        let text = crate::files::capped::read_text(path, MAX_FILE_BYTES, "an alphabet file")?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string());
        Alphabet::from_text(&name, &text)
    }

    /// Parses an alphabet from the text of an alphabet file.
    pub fn from_text(name: &str, text: &str) -> Result<Alphabet> {
        let bad = |line: Option<usize>, kind| Error::Alphabet {
            name: name.to_string(),
            line,
            kind,
        };
        if name.is_empty() || name.len() > 255 || name.chars().any(char::is_control) {
            return Err(bad(None, AlphabetErrorKind::BadName));
        }
        let mut labels = Vec::new();
        let mut aliases = Vec::new();
        let mut seen: HashMap<String, usize> = HashMap::new();
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut spellings = Vec::new();
            for tok in line.split_whitespace() {
                // Invisible format characters (a byte-order mark, zero-width
                // spaces) would make tiles that look alike read differently.
                let invisible =
                    |c: &char| matches!(c, '\u{200b}'..='\u{200f}' | '\u{2060}' | '\u{feff}');
                if let Some(c) = tok
                    .chars()
                    .find(|c| RESERVED.contains(c) || c.is_control() || invisible(c))
                {
                    return Err(bad(Some(i + 1), AlphabetErrorKind::ReservedChar(c)));
                }
                let up = fold(tok).text;
                if let Some(previous) = seen.insert(up.clone(), i + 1) {
                    return Err(bad(
                        Some(i + 1),
                        AlphabetErrorKind::Duplicate {
                            spelling: up,
                            previous,
                        },
                    ));
                }
                spellings.push(up);
            }
            let label = spellings.remove(0);
            labels.push(label);
            aliases.push(spellings);
        }
        if labels.is_empty() {
            return Err(bad(None, AlphabetErrorKind::NoTiles));
        }
        if labels.len() > MAX_TILES {
            return Err(bad(
                None,
                AlphabetErrorKind::TooManyTiles {
                    count: labels.len(),
                    max: MAX_TILES,
                },
            ));
        }
        let mut by_first: HashMap<char, Vec<(String, u8)>> = HashMap::new();
        for (i, (label, alts)) in labels.iter().zip(&aliases).enumerate() {
            let code = (i + 1) as u8;
            for s in std::iter::once(label).chain(alts) {
                let first = s.chars().next().expect("non-empty token");
                by_first.entry(first).or_default().push((s.clone(), code));
            }
        }
        for list in by_first.values_mut() {
            list.sort_by_key(|s| std::cmp::Reverse(s.0.len()));
        }
        let mut ascii = [0u8; 128];
        for (&c, list) in &by_first {
            if c.is_ascii() && list.len() == 1 && list[0].0.len() == 1 {
                let code = list[0].1;
                ascii[c as usize] = code;
                // Lowercase input reads the same, unless lowercase is a
                // spelling of its own (it cannot be: spellings are uppercase).
                ascii[c.to_ascii_lowercase() as usize] = code;
            }
        }
        let mut ascii_labels = Some([b'?'; 64]);
        for (i, label) in labels.iter().enumerate() {
            match (label.as_bytes(), &mut ascii_labels) {
                ([b], Some(table)) if b.is_ascii() => table[i + 1] = *b,
                _ => ascii_labels = None,
            }
        }
        let longest = labels
            .iter()
            .chain(aliases.iter().flatten())
            .map(|s| s.chars().count())
            .max()
            .unwrap_or(1);
        Ok(Alphabet {
            name: name.to_string(),
            labels,
            aliases,
            ascii,
            by_first,
            ascii_labels,
            longest,
        })
    }

    /// The text of an alphabet file describing this alphabet.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for (label, alts) in self.labels.iter().zip(&self.aliases) {
            s.push_str(label);
            for a in alts {
                s.push(' ');
                s.push_str(a);
            }
            s.push('\n');
        }
        s
    }

    /// The alphabet's name (`english`, or an alphabet file's stem).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The number of tiles (codes run from 1 to this).
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// Always false: an alphabet has at least one tile.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// The set of every tile code.
    pub fn letters(&self) -> LetterSet {
        LetterSet::first(self.labels.len())
    }

    /// The spelling of tile `code` (uppercase), or `None` for a code outside
    /// the alphabet.
    pub fn label(&self, code: u8) -> Option<&str> {
        let i = (code as usize).checked_sub(1)?;
        self.labels.get(i).map(String::as_str)
    }

    /// Every spelling (main and variants) that reads as `code`.
    pub fn spellings(&self, code: u8) -> impl Iterator<Item = &str> {
        let i = (code as usize).wrapping_sub(1);
        self.labels
            .get(i)
            .into_iter()
            .chain(self.aliases.get(i).into_iter().flatten())
            .map(String::as_str)
    }

    /// Reads the tile at the start of `s` (any case, as [`Alphabet::encode`]
    /// does): its code and the number of bytes of `s` it spans, or `None` if
    /// no tile starts there. A character standing for several letters
    /// (`ß` for `SS`) is read here only if those letters make one tile; use
    /// [`Alphabet::encode`] for whole words.
    ///
    /// ```
    /// let es = lexq::Alphabet::spanish();
    /// assert_eq!(es.tile_at("chillar"), Some((4, 2))); // CH is tile 4
    /// assert_eq!(es.tile_at("Él"), Some((6, 2))); // É reads as E
    /// assert_eq!(es.tile_at("kilo"), None);
    /// ```
    pub fn tile_at(&self, s: &str) -> Option<(u8, usize)> {
        let first = s.chars().next()?;
        let marked = s[first.len_utf8()..].starts_with(compose::is_mark);
        if first.is_ascii() && !marked {
            let code = self.ascii[first as usize];
            if code != 0 {
                return Some((code, 1));
            }
        }
        // Fold enough of `s` to hold the longest spelling, then map the
        // tile's end back to `s`.
        let mut end = 0;
        let mut letters = 0;
        for (i, c) in s.char_indices() {
            if !compose::is_mark(c) {
                if letters > self.longest {
                    break;
                }
                letters += 1;
            }
            end = i + c.len_utf8();
        }
        let folded = fold(&s[..end]);
        let (code, n) = self.tile_at_folded(&folded.text)?;
        folded.source_boundary(n).map(|b| (code, b))
    }

    /// Reads the tile at the start of folded text (see [`fold`]).
    pub(crate) fn tile_at_folded(&self, s: &str) -> Option<(u8, usize)> {
        let first = s.chars().next()?;
        if first.is_ascii() {
            let code = self.ascii[first as usize];
            if code != 0 {
                return Some((code, 1));
            }
        }
        let list = self.by_first.get(&first)?;
        list.iter()
            .find(|(spelling, _)| s.starts_with(spelling.as_str()))
            .map(|(spelling, code)| (*code, spelling.len()))
    }

    /// Reads folded text as tiles, appending their codes to `out`; on
    /// error, the byte offset in `text` where no tile starts.
    pub(crate) fn read_folded(
        &self,
        text: &str,
        out: &mut Vec<u8>,
    ) -> std::result::Result<(), usize> {
        let mut at = 0;
        while at < text.len() {
            let (code, n) = self.tile_at_folded(&text[at..]).ok_or(at)?;
            out.push(code);
            at += n;
        }
        Ok(())
    }

    /// Reads `text` as tiles, appending their codes to `out`; on error,
    /// what stopped the reading (codes before it stay in `out`).
    pub(crate) fn encode_into(
        &self,
        text: &str,
        out: &mut Vec<u8>,
    ) -> std::result::Result<(), WordErrorKind> {
        if text
            .bytes()
            .all(|b| b.is_ascii() && !b.is_ascii_lowercase())
        {
            // Already folded.
            return self
                .read_folded(text, out)
                .map_err(|at| self.not_a_letter(&text[at..]));
        }
        let folded = fold(text);
        self.read_folded(&folded.text, out)
            .map_err(|at| self.not_a_letter(folded.source_char(text, at)))
    }

    /// The error for the character at the start of `rest`, which starts no
    /// tile (with its combining marks, if any).
    pub(crate) fn not_a_letter(&self, rest: &str) -> WordErrorKind {
        WordErrorKind::NotInAlphabet {
            found: first_char(rest).to_string(),
            alphabet: self.name.clone(),
        }
    }

    /// Reads `text` as tiles (any case; variant spellings read as their
    /// tile). An error names the first character that starts no tile.
    ///
    /// ```
    /// use lexq::{Alphabet, Error, error::WordErrorKind};
    /// let en = Alphabet::english();
    /// assert_eq!(en.encode("Cab")?, [3, 1, 2]);
    /// let Err(Error::Word { kind: WordErrorKind::NotInAlphabet { found, .. }, .. }) =
    ///     en.encode("café")
    /// else {
    ///     panic!()
    /// };
    /// assert_eq!(found, "é");
    /// # Ok::<(), lexq::Error>(())
    /// ```
    pub fn encode(&self, text: &str) -> Result<Vec<u8>> {
        let mut out = Vec::with_capacity(text.len());
        self.encode_into(text, &mut out)
            .map_err(|kind| Error::Word {
                arg: Arg::Word,
                input: text.to_string(),
                kind,
            })?;
        Ok(out)
    }

    /// Appends the spelling of `codes` to `out` (uppercase).
    pub fn decode_into(&self, codes: &[u8], out: &mut String) {
        if let Some(table) = &self.ascii_labels {
            // A byte a tile, copied: a tenth of the instructions of pushing
            // each as a char.
            // SAFETY: every byte of the table is ASCII (only one-byte ASCII
            // labels enter it, the rest is `?`), so
            // `out` stays UTF-8.
            let bytes = unsafe { out.as_mut_vec() };
            bytes.extend(codes.iter().map(|&c| table[c as usize & 63]));
            return;
        }
        for &c in codes {
            out.push_str(self.label(c).unwrap_or("\u{fffd}"));
        }
    }

    /// The spelling of `codes` (uppercase).
    pub fn decode(&self, codes: &[u8]) -> String {
        let mut s = String::with_capacity(codes.len());
        self.decode_into(codes, &mut s);
        s
    }
}

/// The first character of `s` with the combining marks that follow it.
pub(crate) fn first_char(s: &str) -> &str {
    let mut chars = s.char_indices();
    chars.next();
    let end = chars
        .find(|&(_, c)| !compose::is_mark(c))
        .map_or(s.len(), |(i, _)| i);
    &s[..end]
}

/// Text folded for reading as tiles: uppercased with full mappings and
/// combining marks composed onto their letter, with a map back to the
/// source text.
pub(crate) struct Folded {
    /// The folded text.
    pub text: String,
    /// For each character of `text`: its byte offset there and the byte
    /// offset in the source of the character it came from.
    map: Vec<(usize, usize)>,
    /// The source's length.
    source_len: usize,
}

impl Folded {
    /// The index in `map` of the character at byte `at` of the text.
    fn index(&self, at: usize) -> usize {
        self.map.partition_point(|&(t, _)| t < at)
    }

    /// The byte offset in the source of the character at byte `at` of the
    /// folded text (the source's length at the end).
    pub fn source_offset(&self, at: usize) -> usize {
        self.map
            .get(self.index(at))
            .map_or(self.source_len, |&(_, s)| s)
    }

    /// The source offset matching the folded offset `at` if `at` falls on a
    /// boundary between source characters (not inside the letters `ß`
    /// folds to, say).
    fn source_boundary(&self, at: usize) -> Option<usize> {
        let i = self.index(at);
        match (i.checked_sub(1).map(|p| self.map[p].1), self.map.get(i)) {
            (_, None) => Some(self.source_len),
            (Some(prev), Some(&(_, here))) if prev == here => None,
            (_, Some(&(_, here))) => Some(here),
        }
    }

    /// The source character (with its marks) that the folded character at
    /// byte `at` came from.
    pub fn source_char<'s>(&self, source: &'s str, at: usize) -> &'s str {
        first_char(&source[self.source_offset(at).min(source.len())..])
    }
}

/// Folds `text` for reading as tiles (see the module documentation).
pub(crate) fn fold(text: &str) -> Folded {
    let mut out = String::with_capacity(text.len() + 4);
    let mut map: Vec<(usize, usize)> = Vec::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        // By way of lowercase, so that `ẞ` folds like `ß`, to `SS`.
        for u in c.to_lowercase().flat_map(char::to_uppercase) {
            if let (true, Some(&(last_at, _))) = (compose::is_mark(u), map.last()) {
                let last = out[last_at..].chars().next().expect("a char");
                if let Some(composed) = compose::compose(last, u) {
                    out.truncate(last_at);
                    out.push(composed);
                    continue;
                }
            }
            map.push((out.len(), i));
            out.push(u);
        }
    }
    Folded {
        text: out,
        map,
        source_len: text.len(),
    }
}

impl PartialEq for Alphabet {
    fn eq(&self, other: &Alphabet) -> bool {
        self.name == other.name && self.labels == other.labels && self.aliases == other.aliases
    }
}

impl Eq for Alphabet {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_reads_both_cases() {
        let en = Alphabet::english();
        assert_eq!(en.encode("Az").unwrap(), vec![1, 26]);
        assert_eq!(en.decode(&[3, 1, 18, 5]), "CARE");
        let err = en.encode("don't").unwrap_err().to_string();
        assert!(err.contains("\"'\""), "{err}");
    }

    #[test]
    fn spanish_multi_letter_tiles_and_accents() {
        let es = Alphabet::spanish();
        let codes = es.encode("Acción").unwrap();
        assert_eq!(es.decode(&codes), "ACCION");
        let codes = es.encode("perro").unwrap();
        assert_eq!(codes.len(), 4);
        assert_eq!(es.decode(&codes), "PERRO");
        assert_eq!(es.encode("ñu").unwrap().len(), 2);
        assert!(es.encode("kiwi").is_err());
    }

    #[test]
    fn catalan_ela_geminada() {
        let ca = Alphabet::catalan();
        let a = ca.encode("col·lecció").unwrap();
        let b = ca.encode("COL.LECCIÓ").unwrap();
        assert_eq!(a, b);
        assert_eq!(ca.decode(&a), "COL·LECCIO");
        assert_eq!(a.len(), 8);
    }

    #[test]
    fn folding_never_drops_a_letter() {
        let en = Alphabet::english();
        assert_eq!(en.decode(&en.encode("maß").unwrap()), "MASS");
        assert_eq!(en.decode(&en.encode("STRAẞE").unwrap()), "STRASSE");
        assert_eq!(en.decode(&en.encode("ﬁx").unwrap()), "FIX");
        // `tile_at` cannot stop inside `ß`: it reads nothing there.
        assert_eq!(en.tile_at("ßa"), None);
        assert_eq!(en.tile_at("Ka"), Some((11, 1)));
        let es = Alphabet::spanish();
        assert_eq!(
            es.encode("cafe\u{301}").unwrap(),
            es.encode("CAFÉ").unwrap()
        );
        assert_eq!(es.tile_at("e\u{301}l"), Some((6, 3)));
        let err = en.encode("cafe\u{301}").unwrap_err();
        assert!(
            matches!(err, Error::Word { kind: WordErrorKind::NotInAlphabet { ref found, .. }, .. } if found == "e\u{301}"),
            "{err:?}"
        );
    }

    #[test]
    fn spellings_longer_than_eight_letters() {
        let a = Alphabet::from_text("long", "A\nB\nABRACADABRA\nC\nD\nR\n").unwrap();
        let codes = a.encode("abracadabrA").unwrap();
        assert_eq!(codes, [3]);
        assert_eq!(a.encode("abracadab").unwrap().len(), 9);
        assert_eq!(a.tile_at("Abracadabra!"), Some((3, 11)));
    }

    #[test]
    fn text_round_trip_and_errors() {
        let es = Alphabet::spanish();
        let again = Alphabet::from_text("spanish", &es.to_text()).unwrap();
        assert_eq!(es, again);
        assert!(Alphabet::from_text("x", "").is_err());
        assert!(Alphabet::from_text("x", "A\na\n").is_err());
        assert!(Alphabet::from_text("x", "A?\n").is_err());
        let many: String = (0..64).map(|i| format!("T{i}\n")).collect();
        assert!(Alphabet::from_text("x", &many).is_err());
    }
}
