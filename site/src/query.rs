//! Search queries: tantivy's query syntax, with changes made to the
//! parsed query before tantivy builds it.
//!
//! - A group of exclusions alone means everything but them: tantivy reads
//!   `tool AND NOT adze` as `+tool +(-adze)`, and a group that only
//!   excludes matches nothing, so the query found nothing at all.
//! - Number fields kept only as fast columns (`length`, `points`, `senses`
//!   in the site schema: a build indexes half a million fewer terms) are
//!   matched through their columns. tantivy's parser answers a range on
//!   them (`length:[3 TO 4]`) from the column but refuses a single value
//!   (`length:5`) or a set (`length: IN [3 4]`), so those are rewritten
//!   into ranges: `length:5` is `length:[5 TO 5]`.
//! - A word ending in `*` is a prefix: `stimul*`, `word:car*`. tantivy
//!   searches `stimul*` as the word `stimul` and `word:car*` as the word
//!   `car*` (both find nothing), and refuses `"car"*` (its prefixes are of
//!   phrases of two words or more, as `"edge to"*` still is). The prefix,
//!   lowercased as the fields' tokenizers lowercase, becomes the set of the
//!   field's terms that begin with it, read from the searched index's term
//!   dictionaries; a short prefix of many terms (`s*`), a regular
//!   expression over the terms instead. (The expression costs about 250
//!   µs to compile, a term of the set about half a microsecond.)
//! - What tantivy would silently search as something else is refused with
//!   a reason: a `*` inside a word (`a*b`: the phrase "a b"), a fuzzy term
//!   (`tool~1`: the phrase "tool 1"), and regular expressions (`/.../`)
//!   written by the user.

use tantivy::query::{Occur, Query, QueryParser, QueryParserError};
use tantivy::query_grammar::{
    Delimiter, UserInputAst, UserInputBound, UserInputLeaf, UserInputLiteral,
};
use tantivy::schema::{Schema, Type};
use tantivy::{Index, Searcher};

use crate::schema::Fields;

/// How much more a match in `word` counts than one in `definition` for a
/// query without a field.
const WORD_BOOST: f32 = 4.0;

/// The most terms a prefix is searched as a set of (see the module
/// comment).
const MAX_PREFIX_SET: usize = 500;

/// The fields of `schema` that hold numbers in a fast column only (not
/// in the inverted index): those [`Parser`] rewrites.
fn column_numbers(schema: &Schema) -> Vec<String> {
    schema
        .fields()
        .filter(|(_, e)| {
            let t = e.field_type();
            matches!(t.value_type(), Type::U64 | Type::I64 | Type::F64)
                && t.is_fast()
                && !t.is_indexed()
        })
        .map(|(_, e)| e.name().to_string())
        .collect()
}

/// The query parser of a site: tantivy's, with this module's rewrites.
pub(crate) struct Parser {
    parser: QueryParser,
    /// The fields [`column_numbers`] gives.
    numbers: Vec<String>,
    /// The fields a word without a field searches, with their boosts.
    defaults: Vec<(String, f32)>,
    /// The indexed text fields: those a prefix searches.
    texts: Vec<String>,
}

impl Parser {
    /// The parser of `index`, whose schema has `fields`: a word without a
    /// field searches `word` and `definition`, all words are required.
    pub(crate) fn new(index: &Index, fields: &Fields) -> Parser {
        let schema = index.schema();
        let defaults = [(fields.word, WORD_BOOST), (fields.definition, 1.0)];
        let mut parser = QueryParser::for_index(index, defaults.iter().map(|d| d.0).collect());
        parser.set_conjunction_by_default();
        for (field, boost) in defaults {
            parser.set_field_boost(field, boost);
        }
        // The only regular expressions are the prefixes `rewrite` makes:
        // it refuses the user's own.
        parser.allow_regexes();
        Parser {
            parser,
            numbers: column_numbers(&schema),
            texts: schema
                .fields()
                .filter(|(_, e)| e.field_type().value_type() == Type::Str && e.is_indexed())
                .map(|(_, e)| e.name().to_string())
                .collect(),
            defaults: defaults
                .iter()
                .map(|&(f, b)| (schema.get_field_name(f).to_string(), b))
                .collect(),
        }
    }

    /// The query `query` means over the index `searcher` reads, or why it
    /// is refused.
    pub(crate) fn parse(&self, query: &str, searcher: &Searcher) -> Result<Box<dyn Query>, String> {
        // tantivy's parser has panicked on malformed queries (0.25 on `- *`):
        // a panic there is a bad query, not a crash.
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let ast = tantivy::query_grammar::parse_query(query)
                .map_err(|_| QueryParserError::SyntaxError(query.to_string()).to_string())?;
            self.parser
                .build_query_from_user_input_ast(self.rewrite(ast, searcher)?)
                .map_err(|e| e.to_string())
        }))
        .map_err(|_| "the query parser failed on it".to_string())?
    }

    /// `ast` with every group of exclusions alone made "all but them",
    /// every single value or set of a number field made ranges, every
    /// word ending in `*` made the terms of `searcher`'s index it begins;
    /// or why it is refused.
    fn rewrite(&self, ast: UserInputAst, searcher: &Searcher) -> Result<UserInputAst, String> {
        Ok(match ast {
            UserInputAst::Clause(clauses) => {
                let mut clauses = clauses
                    .into_iter()
                    .map(|(occur, ast)| Ok((occur, self.rewrite(ast, searcher)?)))
                    .collect::<Result<Vec<_>, String>>()?;
                if !clauses.is_empty() && clauses.iter().all(|(o, _)| *o == Some(Occur::MustNot)) {
                    let all = UserInputAst::Leaf(Box::new(UserInputLeaf::All));
                    clauses.insert(0, (Some(Occur::Must), all));
                }
                UserInputAst::Clause(clauses)
            }
            UserInputAst::Boost(ast, boost) => {
                UserInputAst::Boost(Box::new(self.rewrite(*ast, searcher)?), boost)
            }
            UserInputAst::Leaf(leaf) => self.leaf(*leaf, searcher)?,
        })
    }

    fn leaf(&self, leaf: UserInputLeaf, searcher: &Searcher) -> Result<UserInputAst, String> {
        let is_number =
            |field: Option<&str>| field.is_some_and(|f| self.numbers.iter().any(|n| n == f));
        Ok(match leaf {
            UserInputLeaf::Literal(lit) if is_number(lit.field_name.as_deref()) => {
                if lit.prefix {
                    UserInputAst::Leaf(Box::new(UserInputLeaf::Literal(lit)))
                } else {
                    exactly(lit.field_name, lit.phrase)
                }
            }
            UserInputLeaf::Literal(lit) => match prefix_of(&lit)? {
                // A field that is no indexed text (missing, stored only,
                // a facet) is left to tantivy to refuse.
                Some(stem)
                    if lit
                        .field_name
                        .as_ref()
                        .is_none_or(|f| self.texts.contains(f)) =>
                {
                    self.prefix(lit.field_name, &stem, searcher)?
                }
                _ => UserInputAst::Leaf(Box::new(UserInputLeaf::Literal(lit))),
            },
            UserInputLeaf::Set { field, elements } if is_number(field.as_deref()) => {
                UserInputAst::Clause(
                    elements
                        .into_iter()
                        .map(|e| (Some(Occur::Should), exactly(field.clone(), e)))
                        .collect(),
                )
            }
            UserInputLeaf::Regex { .. } => {
                return Err("regular expressions are not supported in a search".into());
            }
            leaf => UserInputAst::Leaf(Box::new(leaf)),
        })
    }

    /// The words of `field` (of the default fields if `None`) that begin
    /// with `stem` (lowercase letters and digits): the set of those terms
    /// in `searcher`'s index, or a regular expression if they are more
    /// than [`MAX_PREFIX_SET`].
    fn prefix(
        &self,
        field: Option<String>,
        stem: &str,
        searcher: &Searcher,
    ) -> Result<UserInputAst, String> {
        let set = |field: &str| -> Result<UserInputAst, String> {
            let f = searcher
                .schema()
                .get_field(field)
                .map_err(|e| e.to_string())?;
            let mut elements = Vec::new();
            for segment in searcher.segment_readers() {
                let index = segment.inverted_index(f).map_err(|e| e.to_string())?;
                let mut terms = index
                    .terms()
                    .range()
                    .ge(stem.as_bytes())
                    .into_stream()
                    .map_err(|e| e.to_string())?;
                while terms.advance() && terms.key().starts_with(stem.as_bytes()) {
                    if elements.len() == MAX_PREFIX_SET {
                        return Ok(UserInputAst::Leaf(Box::new(UserInputLeaf::Regex {
                            field: Some(field.to_string()),
                            pattern: format!("{stem}.*"),
                        })));
                    }
                    if let Ok(term) = std::str::from_utf8(terms.key()) {
                        elements.push(term.to_string());
                    }
                }
            }
            elements.sort_unstable();
            elements.dedup();
            Ok(UserInputAst::Leaf(Box::new(UserInputLeaf::Set {
                field: Some(field.to_string()),
                elements,
            })))
        };
        Ok(match field {
            Some(field) => set(&field)?,
            None => UserInputAst::Clause(
                self.defaults
                    .iter()
                    .map(|(field, boost)| {
                        let leaf = set(field)?;
                        let leaf = match *boost {
                            1.0 => leaf,
                            b => UserInputAst::Boost(Box::new(leaf), f64::from(b).into()),
                        };
                        Ok((Some(Occur::Should), leaf))
                    })
                    .collect::<Result<_, String>>()?,
            ),
        })
    }
}

/// The stem of a literal that is a prefix (`stimul*`, `"stimul"*`: letters
/// and digits, lowercased), `None` for any other literal; an error for
/// what tantivy would search as something else than was meant.
fn prefix_of(lit: &UserInputLiteral) -> Result<Option<String>, String> {
    let word = |s: &str| !s.is_empty() && s.chars().all(char::is_alphanumeric);
    let stem = match lit.delimiter {
        Delimiter::None => {
            let p = &lit.phrase;
            if let Some((stem, slop)) = p.split_once('~')
                && word(stem)
                && slop.bytes().all(|b| b.is_ascii_digit())
            {
                return Err(format!(
                    "{p:?}: fuzzy words are not supported (~N is the slop of a quoted phrase: \"edge tool\"~1)"
                ));
            }
            if !p.contains('*') {
                return Ok(None);
            }
            match p.strip_suffix('*') {
                Some(stem) if word(stem) => stem,
                _ => {
                    return Err(format!(
                        "{p:?}: a * can only end a word (stimul* finds the words beginning with stimul)"
                    ));
                }
            }
        }
        _ if lit.prefix && word(&lit.phrase) => &lit.phrase,
        _ => return Ok(None),
    };
    Ok(Some(stem.to_lowercase()))
}

/// The range of one value of `field`.
fn exactly(field: Option<String>, value: String) -> UserInputAst {
    UserInputAst::Leaf(Box::new(UserInputLeaf::Range {
        field,
        lower: UserInputBound::Inclusive(value.clone()),
        upper: UserInputBound::Inclusive(value),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::TantivyDocument;

    /// A parser and a searcher over an index of a few words, in memory.
    fn index() -> (Parser, Searcher) {
        index_of(
            [
                ("CAR", "a motor vehicle"),
                ("CARE", "feel concern"),
                (
                    "SCAR",
                    "a mark left by a healed wound; a stimulus to carry on",
                ),
                ("STIMULI", "things that stimulate"),
            ]
            .map(|(w, d)| (w.to_string(), d.to_string())),
        )
    }

    fn index_of(docs: impl IntoIterator<Item = (String, String)>) -> (Parser, Searcher) {
        let (schema, fields) = Fields::schema();
        let index = Index::create_in_ram(schema);
        crate::schema::register_tokenizers(&index);
        let mut w = index.writer_with_num_threads(1, 15_000_000).unwrap();
        for (word, def) in docs {
            let mut d = TantivyDocument::new();
            d.add_text(fields.word, &word);
            d.add_text(fields.definition, &def);
            w.add_document(d).unwrap();
        }
        w.commit().unwrap();
        let searcher = index.reader().unwrap().searcher();
        (Parser::new(&index, &fields), searcher)
    }

    #[test]
    fn a_prefix_of_many_terms_is_a_regular_expression() {
        let n = MAX_PREFIX_SET + 1;
        let (p, s) = index_of((0..n).map(|i| (format!("ZZ{i}"), format!("zz{i}"))));
        let rewrite = |q: &str| {
            let ast = tantivy::query_grammar::parse_query(q).unwrap();
            format!("{:?}", p.rewrite(ast, &s).unwrap())
        };
        assert_eq!(rewrite("word:zz*"), "\"word\":/zz.*/");
        assert!(rewrite("word:zz1*").contains(" IN ["));
        assert_eq!(p.parse("zz*", &s).unwrap().count(&s).unwrap(), n);
        assert_eq!(p.parse("word:zz1*", &s).unwrap().count(&s).unwrap(), 111);
    }

    fn try_rewritten(q: &str) -> Result<String, String> {
        let ast = tantivy::query_grammar::parse_query(q).unwrap();
        let (p, s) = index();
        p.rewrite(ast, &s).map(|a| format!("{a:?}"))
    }

    fn rewritten(q: &str) -> String {
        try_rewritten(q).unwrap()
    }

    #[test]
    fn the_site_numbers_are_column_only() {
        assert_eq!(index().0.numbers, ["length", "points", "senses"]);
    }

    #[test]
    fn number_values_and_sets_become_ranges() {
        assert_eq!(rewritten("length:5"), rewritten("length:[5 TO 5]"));
        assert_eq!(
            rewritten("definition:tool AND points:12^2"),
            rewritten("definition:tool AND points:[12 TO 12]^2")
        );
        assert_eq!(
            rewritten("senses: IN [0 1]"),
            rewritten("(senses:[0 TO 0] OR senses:[1 TO 1])")
        );
        // Other fields and ranges are left as they are.
        for q in [
            "word:length",
            "length:[3 TO 4]",
            "lengthy:5",
            "5",
            "definition:\"5\"",
        ] {
            let ast = tantivy::query_grammar::parse_query(q).unwrap();
            assert_eq!(rewritten(q), format!("{ast:?}"), "{q}");
        }
    }

    #[test]
    fn exclusions_alone_exclude_from_everything() {
        assert_eq!(rewritten("tool AND NOT adze"), "(+tool +(+* -adze))");
        assert_eq!(rewritten("-adze"), "(+* -adze)");
        // A group with something to match is left as it is.
        assert_eq!(rewritten("tool -adze"), "(*tool -adze)");
    }

    #[test]
    fn words_ending_in_a_star_are_the_terms_they_begin() {
        assert_eq!(rewritten("word:CAR*"), rewritten("word: IN [car care]"));
        assert_eq!(rewritten("word:CAR*"), rewritten("word:\"car\"*"));
        assert_eq!(rewritten("word:x*"), rewritten("word: IN []"));
        // Without a field: the default fields, the word boosted.
        assert_eq!(
            rewritten("Stimul*"),
            rewritten("(word: IN [stimuli])^4 OR definition: IN [stimulate stimulus]")
        );
        // Phrase prefixes are tantivy's own.
        assert_eq!(
            rewritten("definition:\"edge to\"*"),
            format!(
                "{:?}",
                tantivy::query_grammar::parse_query("definition:\"edge to\"*").unwrap()
            )
        );
        // The queries tantivy builds from them, and what they find.
        let (p, s) = index();
        for (q, n) in [
            ("word:car*", 2),
            ("stimul*", 2),
            ("car*", 3), // CAR, CARE and SCAR (carry)
            ("definition:\"a mo\"* AND word:car*", 1),
            ("word:x*", 0),
            ("l\u{e9}*", 0),
        ] {
            let query = p.parse(q, &s).unwrap();
            assert_eq!(query.count(&s).unwrap(), n, "{q}");
        }
    }

    #[test]
    fn what_tantivy_would_misread_is_refused() {
        for q in [
            "a*b",
            "word:*car",
            "car**",
            "definition:tool~1",
            "tool~12",
            "word:care~",
            "word:/c.r/",
            "pos:/nou*",
        ] {
            assert!(try_rewritten(q).is_err(), "{q}");
        }
        // A slop on a quoted phrase, a ~ that is no fuzzy term: as they are.
        for q in ["\"edge tool\"~1", "a~b"] {
            let ast = tantivy::query_grammar::parse_query(q).unwrap();
            assert_eq!(rewritten(q), format!("{ast:?}"), "{q}");
        }
    }
}
