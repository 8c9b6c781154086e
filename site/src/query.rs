//! Search queries: tantivy's query syntax, with two changes made to the
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

use tantivy::query::{Occur, Query, QueryParser, QueryParserError};
use tantivy::query_grammar::{UserInputAst, UserInputBound, UserInputLeaf};
use tantivy::schema::{Schema, Type};

/// The fields of `schema` that hold numbers in a fast column only (not
/// in the inverted index): those [`parse`] rewrites.
pub(crate) fn column_numbers(schema: &Schema) -> Vec<String> {
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

/// Parses `query` with `parser`, `numbers` being the fields
/// [`column_numbers`] gives: an error message for a bad query.
pub(crate) fn parse(
    parser: &QueryParser,
    numbers: &[String],
    query: &str,
) -> Result<Box<dyn Query>, String> {
    // tantivy's parser has panicked on malformed queries (0.25 on `- *`):
    // a panic there is a bad query, not a crash.
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let ast = tantivy::query_grammar::parse_query(query)
            .map_err(|_| QueryParserError::SyntaxError(query.to_string()))?;
        parser.build_query_from_user_input_ast(rewrite(ast, numbers))
    }))
    .map_err(|_| "the query parser failed on it".to_string())?
    .map_err(|e| e.to_string())
}

/// `ast` with every group of exclusions alone made "all but them", and
/// every single value or set of a number field made ranges.
fn rewrite(ast: UserInputAst, numbers: &[String]) -> UserInputAst {
    let is_number = |field: Option<&str>| field.is_some_and(|f| numbers.iter().any(|n| n == f));
    match ast {
        UserInputAst::Clause(clauses) => {
            let mut clauses: Vec<_> = clauses
                .into_iter()
                .map(|(occur, ast)| (occur, rewrite(ast, numbers)))
                .collect();
            if !clauses.is_empty() && clauses.iter().all(|(o, _)| *o == Some(Occur::MustNot)) {
                let all = UserInputAst::Leaf(Box::new(UserInputLeaf::All));
                clauses.insert(0, (Some(Occur::Must), all));
            }
            UserInputAst::Clause(clauses)
        }
        UserInputAst::Boost(ast, boost) => {
            UserInputAst::Boost(Box::new(rewrite(*ast, numbers)), boost)
        }
        UserInputAst::Leaf(leaf) => match *leaf {
            UserInputLeaf::Literal(lit) if is_number(lit.field_name.as_deref()) && !lit.prefix => {
                exactly(lit.field_name, lit.phrase)
            }
            UserInputLeaf::Set { field, elements } if is_number(field.as_deref()) => {
                UserInputAst::Clause(
                    elements
                        .into_iter()
                        .map(|e| (Some(Occur::Should), exactly(field.clone(), e)))
                        .collect(),
                )
            }
            leaf => UserInputAst::Leaf(Box::new(leaf)),
        },
    }
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

    fn numbers() -> Vec<String> {
        column_numbers(&crate::schema::Fields::schema().0)
    }

    fn rewritten(q: &str) -> String {
        let ast = tantivy::query_grammar::parse_query(q).unwrap();
        format!("{:?}", rewrite(ast, &numbers()))
    }

    #[test]
    fn the_site_numbers_are_column_only() {
        assert_eq!(numbers(), ["length", "points", "senses"]);
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
            assert_eq!(
                format!("{:?}", rewrite(ast.clone(), &numbers())),
                format!("{ast:?}"),
                "{q}"
            );
        }
    }

    #[test]
    fn exclusions_alone_exclude_from_everything() {
        assert_eq!(rewritten("tool AND NOT adze"), "(+tool +(+* -adze))");
        assert_eq!(rewritten("-adze"), "(+* -adze)");
        // A group with something to match is left as it is.
        assert_eq!(rewritten("tool -adze"), "(*tool -adze)");
    }
}
