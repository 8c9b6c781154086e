//! Regular expressions over words, run as DFAs over the GADDAG.
//!
//! The expression is parsed with `regex-syntax` (so the syntax is the
//! `regex` crate's) and rewritten from characters to tile codes: literal
//! runs are read as tiles (multi-letter tiles greedily; letters are
//! uppercased first, outside escapes, so matching ignores case),
//! and a character class matches the tiles it contains. `.` and negated
//! classes also match multi-letter tiles all of whose letters they contain.
//! Every expression matches whole words; `^` and `$` may stand at the ends
//! and change nothing. Look-around (`\b`, `(?m)^`...) is not supported.

use regex_syntax::ast::{self, Ast};
use regex_syntax::hir::translate::TranslatorBuilder;
use regex_syntax::hir::{Class, Hir, HirKind, Look, Repetition};

use super::plan::{Fault, class_of};
use super::{Search, Words};
use crate::alphabet::Alphabet;
use crate::error::{QueryErrorKind as Kind, Result, Syntax, WordErrorKind};
use crate::letterset::LetterSet;

/// How deeply groups and repetitions may nest.
const NEST_LIMIT: u32 = 50;

/// Uppercases the letters of a regex, leaving escapes (`\\d` is not `\\D`),
/// flag groups (`(?i)`) and POSIX class names (`[[:alpha:]]`) as they are,
/// so that it can be parsed case-sensitively against uppercase tiles.
fn upcase(regex: &str) -> String {
    let mut out = String::with_capacity(regex.len());
    let mut chars = regex.chars().peekable();
    let mut verbatim_until: Option<char> = None;
    while let Some(c) = chars.next() {
        if let Some(end) = verbatim_until {
            out.push(c);
            if c == end {
                verbatim_until = None;
            }
            continue;
        }
        match c {
            '\\' => {
                out.push(c);
                if let Some(next) = chars.next() {
                    out.push(next);
                    if chars.peek() == Some(&'{') {
                        verbatim_until = Some('}');
                    }
                }
            }
            '(' if chars.peek() == Some(&'?') => {
                out.push(c);
                verbatim_until = Some(')');
                // `(?i:...)` ends its flags at ':'; both end the flag run.
                while let Some(&n) = chars.peek() {
                    out.push(n);
                    chars.next();
                    if n == ')' || n == ':' {
                        verbatim_until = None;
                        break;
                    }
                }
            }
            '[' if chars.peek() == Some(&':') => {
                out.push(c);
                verbatim_until = Some(']');
            }
            _ => out.extend(c.to_uppercase()),
        }
    }
    out
}

/// Rewrites a parsed expression from characters to tile codes.
fn to_tiles(alphabet: &Alphabet, hir: &Hir) -> std::result::Result<Hir, Kind> {
    Ok(match hir.kind() {
        HirKind::Empty => Hir::empty(),
        HirKind::Literal(lit) => {
            let text =
                std::str::from_utf8(&lit.0).map_err(|_| Kind::Unsupported("byte literals"))?;
            let mut codes = Vec::new();
            alphabet
                .encode_into(text, &mut codes)
                .map_err(|e| match e {
                    WordErrorKind::NotInAlphabet { found, alphabet } => {
                        Kind::NotALetter { found, alphabet }
                    }
                    other => Kind::Syntax(other.to_string()),
                })?;
            Hir::literal(codes)
        }
        HirKind::Class(Class::Unicode(class)) => {
            let has = |c: char| {
                class
                    .ranges()
                    .iter()
                    .any(|r| r.start() <= c && c <= r.end())
            };
            // A class holding a character that reads as no tile was written
            // as `.`, a negation or a Perl class: it is "broad".
            let broad = class.ranges().iter().any(|r| {
                let c = r.start();
                alphabet.tile_at(c.encode_utf8(&mut [0; 4])).is_none()
            });
            let hit = |s: &str| {
                let mut chars = s.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => has(c),
                    _ => broad && s.chars().all(has),
                }
            };
            let mut set = LetterSet::EMPTY;
            for code in alphabet.letters().iter() {
                // A broad class speaks of the tile's own spelling (`[^E]`
                // excludes E although it holds É); a narrow one may name
                // any spelling (`[É]` is E).
                let label = alphabet.label(code).unwrap_or_default();
                if hit(label) || (!broad && alphabet.spellings(code).any(hit)) {
                    set.insert(code);
                }
            }
            if set.is_empty() {
                Hir::fail()
            } else {
                class_of(set)
            }
        }
        HirKind::Class(Class::Bytes(_)) => return Err(Kind::Unsupported("byte classes")),
        HirKind::Look(look) => return Err(Kind::LookAround(look_name(*look))),
        HirKind::Repetition(rep) => Hir::repetition(Repetition {
            min: rep.min,
            max: rep.max,
            greedy: rep.greedy,
            sub: Box::new(to_tiles(alphabet, &rep.sub)?),
        }),
        HirKind::Capture(cap) => to_tiles(alphabet, &cap.sub)?,
        HirKind::Concat(subs) => Hir::concat(
            subs.iter()
                .map(|h| to_tiles(alphabet, h))
                .collect::<std::result::Result<_, _>>()?,
        ),
        HirKind::Alternation(subs) => Hir::alternation(
            subs.iter()
                .map(|h| to_tiles(alphabet, h))
                .collect::<std::result::Result<_, _>>()?,
        ),
    })
}

fn look_name(look: Look) -> &'static str {
    match look {
        Look::Start | Look::End => "^ or $ inside the expression",
        Look::StartLF | Look::EndLF | Look::StartCRLF | Look::EndCRLF => "multi-line ^ or $",
        _ => "a word boundary assertion",
    }
}

/// Parses a regex into byte-level `Hir` items over tile codes (the items of
/// its top-level concatenation).
pub(crate) fn parse(alphabet: &Alphabet, regex: &str) -> std::result::Result<Vec<Hir>, Fault> {
    let upper = upcase(regex);
    let mut ast = ast::parse::ParserBuilder::new()
        .nest_limit(NEST_LIMIT)
        .build()
        .parse(&upper)
        .map_err(|e| {
            (
                Kind::Syntax(e.kind().to_string()),
                Some(e.span().start.offset),
            )
        })?;
    let mut groups = 0;
    isolate(&mut ast, &mut groups);
    let hir = TranslatorBuilder::new()
        .build()
        .translate(&upper, &ast)
        .map_err(|e| {
            (
                Kind::Syntax(e.kind().to_string()),
                Some(e.span().start.offset),
            )
        })?;
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
    let items = items
        .iter()
        .map(|h| to_tiles(alphabet, h))
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(|kind| (kind, None))?;
    // Items may have become one concatenation with its neighbours'
    // literals; flatten once more so literal runs can anchor the walk.
    Ok(concat_items(Hir::concat(items)))
}

/// Wraps every bracketed class and repetition in a group of its own, so
/// that translating to `Hir` does not fold `[c][h]` or `c{1}h` into the
/// literal `CH` (which would read as the Spanish tile CH). Groups are
/// dropped again by [`to_tiles`].
fn isolate(node: &mut Ast, groups: &mut u32) {
    match node {
        Ast::Repetition(r) => isolate(&mut r.ast, groups),
        Ast::Group(g) => isolate(&mut g.ast, groups),
        Ast::Concat(c) => c.asts.iter_mut().for_each(|a| isolate(a, groups)),
        Ast::Alternation(a) => a.asts.iter_mut().for_each(|a| isolate(a, groups)),
        _ => {}
    }
    if matches!(node, Ast::ClassBracketed(_) | Ast::Repetition(_)) {
        *groups += 1;
        let span = *node.span();
        let inner = std::mem::replace(node, Ast::empty(span));
        *node = Ast::group(ast::Group {
            span,
            kind: ast::GroupKind::CaptureIndex(*groups),
            ast: Box::new(inner),
        });
    }
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
    /// `regex` crate syntax). The DFA is capped in size; a larger one is an
    /// error.
    ///
    /// ```
    /// let lex = lexq::Lexicon::embedded();
    /// let words = lex.regex("[aeiou]{6}").unwrap();
    /// assert!(words.is_empty());
    /// let words = lex.regex("(qu|x)iz+").unwrap();
    /// assert_eq!(words.to_strings(), ["QUIZ"]);
    /// ```
    pub fn regex(&self, regex: &str) -> Result<Words<'a>> {
        self.parse_and_run(Syntax::Regex, regex, parse)
    }
}

#[cfg(test)]
mod tests {
    use super::upcase;

    #[test]
    fn upcase_keeps_escapes_and_flags() {
        assert_eq!(upcase(r"a\d[^u](?i)x{2}"), r"A\d[^U](?i)X{2}");
        assert_eq!(
            upcase(r"(?i:ab)\p{greek}[[:alpha:]b]"),
            r"(?i:AB)\p{greek}[[:alpha:]B]"
        );
    }
}
