//! Regular expressions over words, run as DFAs over the GADDAG.
//!
//! The expression is parsed with `regex-syntax` (so the syntax is the
//! `regex` crate's) and rewritten from characters to tile codes. Matching
//! ignores case for every construct: the expression is translated
//! case-insensitively (any `(?-i)` is dropped from the parsed expression),
//! so literals, classes, named groups, POSIX and Unicode classes all fold.
//!
//! - A run of literal characters is read as tiles the way words are
//!   (folded, multi-letter tiles greedily): Spanish `ch` is the tile CH.
//!   A group (capturing or not), class or repetition ends a run: `c(h)`
//!   and `c(?:h)` are C then H.
//! - A class (`[...]`, `.`, `\w`, `[[:alpha:]]`, `\pL`...) matches one
//!   tile: every tile one of whose spellings has all its letters in the
//!   class (punctuation inside a spelling, like the dot of Catalan `L·L`,
//!   is not looked at). So in Spanish `[a-z]`, `\w` and `.` match CH, LL and
//!   RR, `[l]` matches L and LL, `[é]` matches E, and characters that are in
//!   no tile (digits, `_`) change nothing.
//! - A negated class (`[^...]`, `\W`, `\P{..}`) matches the tiles the class
//!   without the negation does not: `[^e]` is every tile but E, although
//!   the class holds `É`, a spelling of E.
//!
//! Every expression matches whole words; `^` and `$` may stand at the ends
//! and change nothing. Look-around (`\b`, `(?m)^`...) is not supported.

use regex_syntax::ast::{self, Ast};
use regex_syntax::hir::translate::TranslatorBuilder;
use regex_syntax::hir::{Class, ClassUnicode, ClassUnicodeRange, Hir, HirKind, Look, Repetition};

use super::plan::{Fault, class_of};
use super::{Search, Words};
use crate::alphabet::letterset::LetterSet;
use crate::alphabet::{Alphabet, fold};
use crate::error::{QueryErrorKind as Kind, Result, Syntax};

/// How deeply groups and repetitions may nest.
const NEST_LIMIT: u32 = 50;

/// What a group added by [`isolate`] wraps.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Wrap {
    /// A class, negated if `true` (the negation is applied to tiles).
    Class(bool),
    /// A repetition or an alternative: kept apart from its neighbours.
    Apart,
}

/// The alphabet and the groups [`isolate`] added.
struct Ctx<'a> {
    alphabet: &'a Alphabet,
    /// Capture indices above this were added by [`isolate`].
    base: u32,
    /// What each added group wraps (index `base + 1 + i`).
    wraps: Vec<Wrap>,
}

impl Ctx<'_> {
    fn wrap(&self, index: u32) -> Option<Wrap> {
        let i = index.checked_sub(self.base + 1)?;
        self.wraps.get(i as usize).copied()
    }

    /// Rewrites a parsed expression from characters to tile codes.
    fn to_tiles(&self, hir: &Hir) -> std::result::Result<Hir, Kind> {
        Ok(match hir.kind() {
            HirKind::Empty => Hir::empty(),
            HirKind::Literal(_) => self.literal_run(std::slice::from_ref(hir))?,
            HirKind::Class(Class::Unicode(class)) => match literal_char(class) {
                Some(_) => self.literal_run(std::slice::from_ref(hir))?,
                None => tile_class(self.tiles_in(hir)?),
            },
            HirKind::Class(Class::Bytes(_)) => return Err(Kind::Unsupported("byte classes")),
            HirKind::Look(look) => return Err(Kind::LookAround(look_name(*look))),
            HirKind::Repetition(rep) => Hir::repetition(Repetition {
                min: rep.min,
                max: rep.max,
                greedy: rep.greedy,
                sub: Box::new(self.to_tiles(&rep.sub)?),
            }),
            HirKind::Capture(cap) => match self.wrap(cap.index) {
                Some(Wrap::Class(negated)) => {
                    let set = self.tiles_in(&cap.sub)?;
                    tile_class(match negated {
                        true => LetterSet(self.alphabet.letters().0 & !set.0),
                        false => set,
                    })
                }
                _ => self.to_tiles(&cap.sub)?,
            },
            HirKind::Concat(subs) => {
                let mut out = Vec::with_capacity(subs.len());
                let mut i = 0;
                while i < subs.len() {
                    let run = subs[i..].iter().take_while(|h| is_literal(h)).count();
                    if run > 0 {
                        out.push(self.literal_run(&subs[i..i + run])?);
                        i += run;
                    } else {
                        out.push(self.to_tiles(&subs[i])?);
                        i += 1;
                    }
                }
                Hir::concat(out)
            }
            HirKind::Alternation(subs) => Hir::alternation(
                subs.iter()
                    .map(|h| self.to_tiles(h))
                    .collect::<std::result::Result<_, _>>()?,
            ),
        })
    }

    /// A run of literal characters (literals and one-character case-folded
    /// classes), read as tiles the way words are.
    fn literal_run(&self, items: &[Hir]) -> std::result::Result<Hir, Kind> {
        let mut text = String::new();
        for h in items {
            match h.kind() {
                HirKind::Literal(lit) => text.push_str(
                    std::str::from_utf8(&lit.0).map_err(|_| Kind::Unsupported("byte literals"))?,
                ),
                HirKind::Class(Class::Unicode(c)) => {
                    text.extend(literal_char(c));
                }
                _ => {}
            }
        }
        let folded = fold(&text);
        let mut codes = Vec::with_capacity(folded.text.len());
        self.alphabet
            .read_folded(&folded.text, &mut codes)
            .map_err(|at| Kind::NotALetter {
                found: folded.source_char(&text, at).to_string(),
                alphabet: self.alphabet.name().to_string(),
            })?;
        Ok(Hir::literal(codes))
    }

    /// The tiles a class (or a one-character literal) matches: those one of
    /// whose spellings has all its letters in the class.
    fn tiles_in(&self, hir: &Hir) -> std::result::Result<LetterSet, Kind> {
        let class = match hir.kind() {
            HirKind::Class(Class::Unicode(c)) => c.clone(),
            HirKind::Literal(lit) => {
                let text =
                    std::str::from_utf8(&lit.0).map_err(|_| Kind::Unsupported("byte literals"))?;
                ClassUnicode::new(text.chars().map(|c| ClassUnicodeRange::new(c, c)))
            }
            HirKind::Class(Class::Bytes(_)) => return Err(Kind::Unsupported("byte classes")),
            _ => return Ok(LetterSet::EMPTY),
        };
        let has = |c: char| {
            let ranges = class.ranges();
            let i = ranges.partition_point(|r| r.end() < c);
            ranges.get(i).is_some_and(|r| r.start() <= c)
        };
        let fits = |spelling: &str| {
            let mut letters = spelling.chars().filter(|c| c.is_alphabetic()).peekable();
            if letters.peek().is_none() {
                spelling.chars().all(has)
            } else {
                letters.all(has)
            }
        };
        Ok(self
            .alphabet
            .letters()
            .iter()
            .filter(|&code| self.alphabet.spellings(code).any(fits))
            .collect())
    }
}

/// The class of a tile set, or a class that never matches.
fn tile_class(set: LetterSet) -> Hir {
    if set.is_empty() {
        Hir::fail()
    } else {
        class_of(set)
    }
}

/// The character a class stands for when it is exactly the case-folded set
/// of one character (what a literal letter translates to).
fn literal_char(class: &ClassUnicode) -> Option<char> {
    let first = class.ranges().first()?.start();
    let mut orbit = ClassUnicode::new([ClassUnicodeRange::new(first, first)]);
    orbit.case_fold_simple();
    (orbit == *class).then_some(first)
}

/// Whether `hir` is a literal character or run of them.
fn is_literal(hir: &Hir) -> bool {
    match hir.kind() {
        HirKind::Literal(_) => true,
        HirKind::Class(Class::Unicode(c)) => literal_char(c).is_some(),
        _ => false,
    }
}

fn look_name(look: Look) -> &'static str {
    match look {
        Look::Start | Look::End => "^ or $ inside the expression",
        Look::StartLF | Look::EndLF | Look::StartCRLF | Look::EndCRLF => "multi-line ^ or $",
        _ => "a word boundary assertion",
    }
}

/// A syntax fault of `regex-syntax`, with its position.
fn syntax_fault(kind: &dyn std::fmt::Display, span: &ast::Span) -> Fault {
    (Kind::Syntax(kind.to_string()), Some(span.start.offset))
}

/// The lower case of `c` when it is a letter whose lower case is one
/// character of the same length in UTF-8 (`E` is `e`, `Ñ` is `ñ`; `İ`,
/// whose lower case is two characters, has none).
fn lower_letter(c: char) -> Option<char> {
    if !c.is_alphabetic() {
        return None;
    }
    let mut lower = c.to_lowercase();
    match (lower.next(), lower.next()) {
        (Some(l), None) if l.len_utf8() == c.len_utf8() => Some(l),
        _ => None,
    }
}

/// Parses `regex` with every range between two letters read in one case,
/// as case never matters: `[A-e]` is `[a-e]` (not `A` to `e` in code
/// points, which holds every letter), and `[a-E]`, an error in code
/// points, is `[a-e]` too. A range whose folded start is after its folded
/// end (`[Z-a]`) is an error. Returns the text the tree was parsed from
/// (with such reversed-case ranges written in lower case: each is
/// rewritten in place, same length, and parsed again).
fn parse_folding_ranges(regex: &str) -> std::result::Result<(String, Ast), Fault> {
    let mut text = regex.to_string();
    let parser = || {
        ast::parse::ParserBuilder::new()
            .nest_limit(NEST_LIMIT)
            .build()
    };
    // Each pass rewrites one range or ends: at most one pass a character.
    for _ in 0..=regex.len() {
        let err = match parser().parse(&text) {
            Ok(mut ast) => {
                fold_ranges(&mut ast)?;
                return Ok((text, ast));
            }
            Err(e) => e,
        };
        let span = err.span();
        let range = text.get(span.start.offset..span.end.offset).unwrap_or("");
        let mut chars = range.chars();
        let fixed = match (chars.next(), chars.next(), chars.next(), chars.next()) {
            (Some(a), Some('-'), Some(b), None)
                if *err.kind() == ast::ErrorKind::ClassRangeInvalid =>
            {
                lower_letter(a).zip(lower_letter(b)).filter(|(a, b)| a <= b)
            }
            _ => None,
        };
        let Some((a, b)) = fixed else {
            return Err(syntax_fault(err.kind(), span));
        };
        text.replace_range(span.start.offset..span.end.offset, &format!("{a}-{b}"));
    }
    Err((Kind::Syntax("too many class ranges to fold".into()), None))
}

/// Folds the case of every range between two letters in `node` (see
/// [`parse_folding_ranges`]).
fn fold_ranges(node: &mut Ast) -> std::result::Result<(), Fault> {
    match node {
        Ast::Repetition(r) => fold_ranges(&mut r.ast),
        Ast::Group(g) => fold_ranges(&mut g.ast),
        Ast::Concat(c) => c.asts.iter_mut().try_for_each(fold_ranges),
        Ast::Alternation(a) => a.asts.iter_mut().try_for_each(fold_ranges),
        Ast::ClassBracketed(c) => fold_set(&mut c.kind),
        _ => Ok(()),
    }
}

fn fold_set(set: &mut ast::ClassSet) -> std::result::Result<(), Fault> {
    match set {
        ast::ClassSet::BinaryOp(op) => {
            fold_set(&mut op.lhs)?;
            fold_set(&mut op.rhs)
        }
        ast::ClassSet::Item(item) => fold_item(item),
    }
}

fn fold_item(item: &mut ast::ClassSetItem) -> std::result::Result<(), Fault> {
    match item {
        ast::ClassSetItem::Range(r) => {
            if let (Some(a), Some(b)) = (lower_letter(r.start.c), lower_letter(r.end.c)) {
                if a > b {
                    let message = format!(
                        "class range {}-{}: case never matters, and {a} comes after {b}",
                        r.start.c, r.end.c
                    );
                    return Err((Kind::Syntax(message), Some(r.span.start.offset)));
                }
                r.start.c = a;
                r.end.c = b;
            }
            Ok(())
        }
        ast::ClassSetItem::Bracketed(b) => fold_set(&mut b.kind),
        ast::ClassSetItem::Union(u) => u.items.iter_mut().try_for_each(fold_item),
        _ => Ok(()),
    }
}

/// Parses a regex into byte-level `Hir` items over tile codes (the items of
/// its top-level concatenation).
pub(crate) fn parse(alphabet: &Alphabet, regex: &str) -> std::result::Result<Vec<Hir>, Fault> {
    // No word is empty: an empty regex is a mistake (an unset shell
    // variable), as an empty pattern is.
    if regex.trim().is_empty() {
        return Err((Kind::Empty, None));
    }
    let (regex, mut ast) = parse_folding_ranges(regex)?;
    let regex = regex.as_str();
    let mut ctx = Ctx {
        alphabet,
        base: max_capture(&ast),
        wraps: Vec::new(),
    };
    isolate(&mut ast, ctx.base, &mut ctx.wraps);
    let hir = TranslatorBuilder::new()
        .case_insensitive(true)
        .build()
        .translate(regex, &ast)
        .map_err(|e| syntax_fault(e.kind(), e.span()))?;
    let mut items = concat_items(hir);
    // Whole-word matching makes ^ and $ at the ends redundant.
    if items
        .first()
        .is_some_and(|h| matches!(h.kind(), HirKind::Look(Look::Start)))
    {
        items.remove(0);
    }
    if items
        .last()
        .is_some_and(|h| matches!(h.kind(), HirKind::Look(Look::End)))
    {
        items.pop();
    }
    let whole = ctx
        .to_tiles(&Hir::concat(items))
        .map_err(|kind| (kind, None))?;
    Ok(concat_items(whole))
}

/// The highest capture index of the user's groups.
fn max_capture(node: &Ast) -> u32 {
    match node {
        Ast::Repetition(r) => max_capture(&r.ast),
        Ast::Group(g) => {
            let own = match &g.kind {
                ast::GroupKind::CaptureIndex(i) => *i,
                ast::GroupKind::CaptureName { name, .. } => name.index,
                ast::GroupKind::NonCapturing(_) => 0,
            };
            own.max(max_capture(&g.ast))
        }
        Ast::Concat(c) => c.asts.iter().map(max_capture).max().unwrap_or(0),
        Ast::Alternation(a) => a.asts.iter().map(max_capture).max().unwrap_or(0),
        _ => 0,
    }
}

/// Prepares the parsed expression for translation:
///
/// - drops the case-insensitivity flag wherever it is set or cleared, so
///   that the translation (case-insensitive throughout) folds everything;
/// - wraps every class, repetition, alternative and non-capturing group in
///   a capture group of its own (indices above `base`, recorded in
///   `wraps`), so that the translation neither folds `[c][h]` or `c{1}h`
///   into the literal `CH` (the Spanish tile) nor merges `c|h` into one
///   class; a negated class is un-negated and recorded, to be negated over
///   tiles. The groups are dropped again by [`Ctx::to_tiles`].
fn isolate(node: &mut Ast, base: u32, wraps: &mut Vec<Wrap>) {
    let mut wrap = None;
    match node {
        Ast::Repetition(r) => {
            isolate(&mut r.ast, base, wraps);
            wrap = Some(Wrap::Apart);
        }
        Ast::Group(g) => {
            if let ast::GroupKind::NonCapturing(flags) = &mut g.kind {
                drop_case_flag(flags);
                // Any group ends a literal run, not only a capturing one.
                wrap = Some(Wrap::Apart);
            }
            isolate(&mut g.ast, base, wraps);
        }
        Ast::Flags(f) => drop_case_flag(&mut f.flags),
        Ast::Concat(c) => c.asts.iter_mut().for_each(|a| isolate(a, base, wraps)),
        Ast::Alternation(a) => {
            for alt in &mut a.asts {
                isolate(alt, base, wraps);
                if !matches!(alt, Ast::Group(_)) {
                    wrap_in_group(alt, base, wraps, Wrap::Apart);
                }
            }
        }
        Ast::ClassBracketed(c) => {
            wrap = Some(Wrap::Class(std::mem::take(&mut c.negated)));
        }
        Ast::ClassPerl(c) => wrap = Some(Wrap::Class(std::mem::take(&mut c.negated))),
        Ast::ClassUnicode(c) => {
            // `\P{..}` and `\p{^..}` are both negations.
            let negated = c.is_negated();
            c.negated = false;
            if let ast::ClassUnicodeKind::NamedValue { op, .. } = &mut c.kind {
                if *op == ast::ClassUnicodeOpKind::NotEqual {
                    *op = ast::ClassUnicodeOpKind::Equal;
                }
            }
            wrap = Some(Wrap::Class(negated));
        }
        _ => {}
    }
    if let Some(w) = wrap {
        wrap_in_group(node, base, wraps, w);
    }
}

/// Replaces `node` by a capture group holding it, recorded as `what`.
fn wrap_in_group(node: &mut Ast, base: u32, wraps: &mut Vec<Wrap>, what: Wrap) {
    wraps.push(what);
    let span = *node.span();
    let inner = std::mem::replace(node, Ast::empty(span));
    *node = Ast::group(ast::Group {
        span,
        kind: ast::GroupKind::CaptureIndex(base + wraps.len() as u32),
        ast: Box::new(inner),
    });
}

/// Removes `i` and `-i` from a flag set.
fn drop_case_flag(flags: &mut ast::Flags) {
    flags
        .items
        .retain(|i| i.kind != ast::FlagsItemKind::Flag(ast::Flag::CaseInsensitive));
}

/// The items of a concatenation, or the expression as the only item.
fn concat_items(hir: Hir) -> Vec<Hir> {
    match hir.kind() {
        HirKind::Concat(subs) => subs.clone(),
        _ => vec![hir],
    }
}

impl<'a> Search<'a> {
    /// Words matching a regular expression (whole word, case-insensitive,
    /// `regex` crate syntax; how classes match multi-letter tiles is told
    /// in the README). The DFA is capped in size; a larger one is an
    /// error.
    ///
    /// ```
    /// let lex = lexq::Lexicon::embedded();
    /// let words = lex.regex("[aeiou]{6}").unwrap();
    /// assert!(words.is_empty());
    /// let words = lex.regex("(qu|x)iz+").unwrap();
    /// assert_eq!(words.to_strings(), ["QUIZ"]);
    /// // Case never matters, whatever the construct.
    /// let words = lex.regex(r"(?P<start>[bc])at|[[:upper:]]ix").unwrap();
    /// assert_eq!(words.to_strings(), ["BAT", "CAT", "FIX", "MIX", "NIX", "PIX", "SIX"]);
    /// ```
    pub fn regex(&self, regex: &str) -> Result<Words<'a>> {
        self.parse_and_run(Syntax::Regex, regex, parse)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Alphabet, Lexicon, WordList, build};

    fn lexicon(alphabet: Alphabet, words: &str) -> Lexicon {
        let mut list = WordList::new(alphabet);
        list.read_bytes("t".as_ref(), words.as_bytes()).unwrap();
        Lexicon::from_bytes(build(&list, &mut ()).unwrap().bytes).unwrap()
    }

    #[test]
    fn every_construct_folds_case() {
        let lex = lexicon(Alphabet::english(), "bat\ncat\nrat\n");
        for re in [
            "(?P<n>[bc]at)",
            "(?<n>[bc]at)",
            "[:bc]at",
            "(?-i)[bc]at",
            "(?i:[BC])AT",
            "[[:lower:]&&[bc]]at",
            r"[\p{Ll}&&[^r]]at",
            r"(?x) [b c] a t ",
        ] {
            let got = lex.regex(re).unwrap().to_strings();
            assert_eq!(got, ["BAT", "CAT"], "{re}");
        }
        for re in [
            "[[:lower:]]at",
            r"\p{Ll}at",
            r"\p{Lu}at",
            "[[:upper:]]AT",
            r"\wat",
        ] {
            assert_eq!(lex.regex(re).unwrap().len(), 3, "{re}");
        }
        assert!(lex.regex(r"\Pl..").unwrap().is_empty());
    }

    #[test]
    fn ranges_between_letters_fold_case() {
        let lex = lexicon(Alphabet::english(), "cat\ncot\ncut\nczt\n");
        let run = |re: &str| lex.regex(re).unwrap().to_strings();
        for re in ["c[a-e]t", "c[A-e]t", "c[a-E]t", "c[A-E]t", "c[[a-E]]t"] {
            assert_eq!(run(re), ["CAT"], "{re}");
        }
        assert_eq!(run("c[^A-Y]t"), ["CZT"]);
        assert_eq!(run("c[A-Zx]t"), run("c[a-z]t"));
        assert_eq!(run("c[a-c&&A-B]t"), ["CAT"]);
        // A range with a non-letter end stays in code points: `_` to `b`
        // holds `a`, `b`, and with case folded `A`, `B`.
        assert_eq!(run("c[_-b]t"), ["CAT"]);
        for re in ["c[Z-a]t", "c[z-A]t", "c[b-A]t"] {
            let e = lex.regex(re).unwrap_err().to_string();
            assert!(
                e.contains("start must be <= the end") || e.contains("comes after"),
                "{re}: {e}"
            );
        }
    }

    #[test]
    fn classes_over_multi_letter_tiles() {
        let lex = lexicon(Alphabet::spanish(), "chal\ncal\nhal\nllan\nlan\ne\na\n");
        let run = |re: &str| lex.regex(re).unwrap().to_strings();
        assert_eq!(run("[a-z]al"), ["CAL", "CHAL", "HAL"]);
        assert_eq!(run("[0-9a-z_]al"), run("[a-z]al"));
        assert_eq!(run(r"\wal"), run("[a-z]al"));
        assert_eq!(run("[c]al"), ["CAL"]);
        assert_eq!(run("[ch]al"), ["CAL", "CHAL", "HAL"]);
        assert_eq!(run("c(h)al"), Vec::<String>::new());
        assert_eq!(run("c(?:h)al"), Vec::<String>::new());
        assert_eq!(run("c(?i)hal"), ["CHAL"]);
        assert_eq!(run("chal"), ["CHAL"]);
        assert_eq!(run("(c|h)al"), ["CAL", "HAL"]);
        assert_eq!(run("[l]an"), ["LAN", "LLAN"]);
        assert_eq!(run("[^l]an"), Vec::<String>::new());
        assert_eq!(run("[^e]"), ["A"]);
        assert_eq!(run("[é]"), ["E"]);
        assert_eq!(run("e\u{301}"), ["E"]);
    }
}
