//! Search queries: tantivy's query syntax, parsed by tantivy's grammar,
//! built here into queries that are costed before they run and metered
//! while they run (see `cost.rs`). Each part of a query is built from the
//! term dictionaries of the index searched, which tell what it will read:
//! a term's document frequency, the terms a prefix or a range stands for,
//! the documents a column or `*` scans. A query that would read more
//! than its [`QueryBounds`] allow, or that holds more terms, clauses,
//! nesting or slop than they allow, is refused before it runs, with the
//! reason.
//!
//! What tantivy's own query parser would build differently from what is
//! meant is built as meant, or refused with a reason:
//!
//! - A group of exclusions alone means everything but them (`tool AND
//!   NOT adze`: tantivy reads `+tool +(-adze)`, and a group that only
//!   excludes matches nothing).
//! - Numbers kept only as fast columns (`length`, `points`, `senses`: a
//!   build indexes half a million fewer terms) are matched in one scan of
//!   their column, a single value (`length:5`) and a set (`length: IN [3
//!   4]`) as well as a range (tantivy's parser refuses the first two).
//! - A word ending in `*` is a prefix (`stimul*`, `word:car*`, `"car"*`):
//!   the field's terms that begin with it, lowercased as the fields'
//!   tokenizers lowercase, read from the term dictionaries one at a time
//!   (tantivy searched `stimul*` as the word `stimul`). A quoted phrase's
//!   last word may be one (`"edge to"*`): every word it begins counts
//!   against the bound on terms, where tantivy silently kept the first 50.
//! - A field wildcard (`definition:*`, `word:[* TO *]`) is every document
//!   that has a value in the field (tantivy found nothing for `[* TO *]`
//!   and refused `*` on a field without a column). A range of words
//!   (`word:[ca TO cb]`) and a set of words (`alphagram: IN [aex]`) are
//!   lowercased as the field is (tantivy compared them as written).
//! - A quoted phrase with a slop is matched as tantivy documents it, by
//!   this crate's own scorer (`phrase.rs`); one that repeats a word
//!   (`"a a"~1`) is refused, as one position could stand for both.
//! - A `*` inside a word (`a*b`: tantivy searches the phrase "a b"), a
//!   fuzzy term (`tool~1`: the phrase "tool 1"), the user's own regular
//!   expressions (`/.../`) and a range of parts of speech are refused.

use std::collections::BTreeMap;
use std::ops::Bound;
use std::sync::Arc;

use tantivy::query::{
    AllQuery, BooleanQuery, BoostQuery, ConstScoreQuery, EmptyQuery, Occur, Query,
    QueryParserError, TermQuery,
};
use tantivy::query_grammar::{
    Delimiter, UserInputAst, UserInputBound, UserInputLeaf, UserInputLiteral,
};
use tantivy::schema::{Facet, Field, FieldType, IndexRecordOption, Schema, Type};
use tantivy::tokenizer::TokenizerManager;
use tantivy::{Index, Searcher, TantivyError, Term};

use crate::column::ColumnMatch;
use crate::cost::{Meter, QueryBounds, TERM_READS};
use crate::metered::MeteredQuery;
use crate::phrase::{Phrase, Word};
use crate::schema::Fields;
use crate::terms::{HasTokens, TermUnion, Terms};

/// How much more a match in `word` counts than one in `definition` for a
/// query without a field.
const WORD_BOOST: f32 = 4.0;

/// How much more a definition word counts than another form of it
/// (`tool` than `tools`, see [`Builder::word`]).
const EXACT_BOOST: f32 = 2.0;

/// The endings a word's other forms may have, after its stem (or the
/// stem with its last letter doubled, dropped, or `i` back to `y`):
/// English inflections and the common derivations that Snowball's English
/// stemmer takes off. A form is looked up in the term dictionary and kept
/// if its stem is the word's: a few hundred look-ups a word, however many
/// terms begin as it does.
const ENDINGS: [&str; 44] = [
    "", "s", "es", "ed", "d", "ing", "ings", "er", "ers", "est", "ly", "ness", "ful", "ment",
    "ments", "ion", "ions", "ation", "ations", "al", "ally", "ity", "ities", "ive", "ous", "able",
    "ism", "ist", "ists", "ize", "ized", "izes", "izing", "ies", "ied", "ier", "iest", "ily",
    "iness", "edly", "ingly", "e", "ance", "ence",
];

/// The spellings that may be other forms of `word`, whose stem is
/// `stem` (see [`ENDINGS`]), without `word` itself.
fn candidate_forms(word: &str, stem: &str) -> Vec<String> {
    let mut bases: Vec<String> = vec![stem.to_string(), word.to_string()];
    if let Some(last) = stem.chars().last() {
        let cut = &stem[..stem.len() - last.len_utf8()];
        match last {
            // happi: happy, happiness.
            'i' => bases.push(format!("{cut}y")),
            // hope: hoping.
            'e' => bases.push(cut.to_string()),
            // hop: hopping.
            c if c.is_ascii_alphabetic() && !"aeiouwxy".contains(c) => {
                bases.push(format!("{stem}{c}"))
            }
            _ => {}
        }
    }
    let mut out: Vec<String> = Vec::new();
    for base in &bases {
        for ending in ENDINGS {
            let form = format!("{base}{ending}");
            if form != word && !out.contains(&form) {
                out.push(form);
            }
        }
    }
    out.sort();
    out
}

/// The most other forms a word stands for, the most common kept.
const MOST_FORMS: usize = 16;

/// Why a query is not run: it is refused (with the reason), its stop
/// came while it was being built, or the index failed.
#[derive(Debug)]
pub(crate) enum Refused {
    Bad(String),
    Stopped,
    Index(TantivyError),
}

impl From<String> for Refused {
    fn from(reason: String) -> Refused {
        Refused::Bad(reason)
    }
}

impl From<&str> for Refused {
    fn from(reason: &str) -> Refused {
        Refused::Bad(reason.to_string())
    }
}

impl From<std::io::Error> for Refused {
    fn from(e: std::io::Error) -> Refused {
        Refused::Index(e.into())
    }
}

impl From<TantivyError> for Refused {
    fn from(e: TantivyError) -> Refused {
        Refused::Index(e)
    }
}

/// What a field of the schema is to a query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Indexed text: whether it keeps positions (phrases) and norms.
    Text { positions: bool, norms: bool },
    /// A facet (`pos`).
    Facet,
    /// A number in a fast column only.
    Number,
    /// Stored only (`page`): not searchable.
    Stored,
}

fn kind(schema: &Schema, field: Field) -> Kind {
    let entry = schema.get_field_entry(field);
    match entry.field_type() {
        FieldType::Str(o) => match o.get_indexing_options() {
            Some(i) => Kind::Text {
                positions: i.index_option().has_positions(),
                norms: i.fieldnorms(),
            },
            None => Kind::Stored,
        },
        FieldType::Facet(_) => Kind::Facet,
        t if t.value_type() == Type::U64 && t.is_fast() => Kind::Number,
        _ => Kind::Stored,
    }
}

/// A query built, and the reads it was estimated to make.
pub(crate) struct Plan {
    pub(crate) query: Box<dyn Query>,
    pub(crate) reads: u64,
    /// The definition terms the query looks for (not counting prefixes),
    /// each weighed as tantivy's snippets weigh them (rarer terms more:
    /// `1 / (1 + documents)`), for showing the sense that matched.
    pub(crate) marks: BTreeMap<String, f32>,
    /// The relations the query asks for (`synonym:happy`): which (an
    /// index of [`Parser`]'s `related`: synonym, antonym, kind of) and
    /// the term, for showing the sense that has it.
    pub(crate) related: Vec<(usize, String)>,
}

/// The query builder of a site.
pub(crate) struct Parser {
    schema: Schema,
    tokenizers: TokenizerManager,
    /// The fields a word without a field searches, with their boosts.
    defaults: [(Field, f32); 2],
    /// The text fields every document has a value of: their wildcard is
    /// every document.
    everywhere: [Field; 2],
    /// The field whose unquoted words stand for their other forms too
    /// (`definition`).
    stemmed: Field,
    /// The analyzer making a word's stem.
    stems: tantivy::tokenizer::TextAnalyzer,
    /// The fields of relations: synonym, antonym, kind_of.
    related: [Field; 3],
}

impl Parser {
    /// The builder for `index` (its tokenizers registered), whose schema
    /// has `fields`: a word without a field searches `word` and
    /// `definition`, all words are required.
    pub(crate) fn new(index: &Index, fields: &Fields) -> Parser {
        Parser {
            schema: index.schema(),
            tokenizers: index.tokenizers().clone(),
            defaults: [(fields.word, WORD_BOOST), (fields.definition, 1.0)],
            everywhere: [fields.word, fields.alphagram],
            stemmed: fields.definition,
            stems: crate::schema::stem_analyzer(),
            related: [fields.synonym, fields.antonym, fields.kind_of],
        }
    }

    /// The query `query` means over the index `searcher` reads, metered
    /// by `meter`, or why it is refused.
    pub(crate) fn plan(
        &self,
        query: &str,
        searcher: &Searcher,
        bounds: &QueryBounds,
        meter: &Arc<Meter>,
    ) -> Result<Plan, Refused> {
        // tantivy's grammar is recursive: a deep nest is refused before
        // it reads it.
        let nest = nesting(query);
        if nest > bounds.max_depth {
            return Err(too_deep(nest, bounds).into());
        }
        // tantivy's parser has panicked on malformed queries (0.25 on `- *`):
        // a panic there is a bad query, not a crash.
        let ast = std::panic::catch_unwind(|| tantivy::query_grammar::parse_query(query))
            .map_err(|_| "the query parser failed on it")?
            .map_err(|_| QueryParserError::SyntaxError(query.to_string()).to_string())?;
        let mut b = Builder {
            p: self,
            searcher,
            bounds,
            meter,
            docs: searcher
                .segment_readers()
                .iter()
                .map(|s| u64::from(s.max_doc()))
                .sum(),
            segments: searcher.segment_readers().len() as u64,
            reads: 0,
            terms: 0,
            clauses: 0,
            marks: BTreeMap::new(),
            related: Vec::new(),
        };
        let (query, matches) = match b.ast(ast, 0)? {
            Some(part) => (part.query, part.matches),
            None => (Box::new(EmptyQuery) as Box<dyn Query>, 0),
        };
        // The collector reads each document found.
        b.charge(matches + b.segments)?;
        Ok(Plan {
            query,
            reads: b.reads,
            marks: b.marks,
            related: b.related,
        })
    }

    /// The tokens of `text` in `field` (indexed text): (position, token).
    fn tokens(&self, field: Field, text: &str) -> Result<Vec<(u32, String)>, Refused> {
        let name = match self.schema.get_field_entry(field).field_type() {
            FieldType::Str(o) => o.get_indexing_options().map(|i| i.tokenizer().to_string()),
            _ => None,
        };
        let mut analyzer = name
            .and_then(|n| self.tokenizers.get(&n))
            .ok_or_else(|| format!("{}: no tokenizer", self.schema.get_field_name(field)))?;
        let mut out = Vec::new();
        // The raw tokenizer makes a token of an empty text: none is meant
        // (`"" care` is `care`).
        analyzer.token_stream(text).process(&mut |t| {
            if !t.text.is_empty() {
                out.push((t.position as u32, t.text.clone()))
            }
        });
        // Offsets from the first word (the definitions' tokenizer starts
        // a value's positions at `SENSE_GAP`).
        if let Some(first) = out.iter().map(|&(p, _)| p).min() {
            for (p, _) in &mut out {
                *p -= first;
            }
        }
        Ok(out)
    }

    /// The field named `name`, or why there is none.
    fn field(&self, name: &str) -> Result<(Field, Kind), Refused> {
        match self.schema.get_field(name) {
            Ok(f) => match kind(&self.schema, f) {
                Kind::Stored => Err(format!("{name} is stored, not searchable").into()),
                k => Ok((f, k)),
            },
            Err(_) => {
                let names: Vec<&str> = self
                    .schema
                    .fields()
                    .filter(|(f, _)| kind(&self.schema, *f) != Kind::Stored)
                    .map(|(_, e)| e.name())
                    .collect();
                Err(format!("no field {name:?} (the fields: {})", names.join(", ")).into())
            }
        }
    }
}

/// The deepest the parentheses of `query` nest (counting those inside
/// quotes too: an estimate from above).
fn nesting(query: &str) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    for b in query.bytes() {
        match b {
            b'(' => {
                depth += 1;
                max = max.max(depth);
            }
            b')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

fn too_deep(depth: usize, bounds: &QueryBounds) -> String {
    format!(
        "its groups nest {depth} deep, more than the {} allowed",
        bounds.max_depth
    )
}

/// A part of a query built: the query and the most documents it can
/// match.
struct Part {
    query: Box<dyn Query>,
    matches: u64,
}

impl Part {
    fn new(query: Box<dyn Query>, matches: u64) -> Part {
        Part { query, matches }
    }
}

/// Builds one query, adding up what it will read.
struct Builder<'a> {
    p: &'a Parser,
    searcher: &'a Searcher,
    bounds: &'a QueryBounds,
    meter: &'a Arc<Meter>,
    /// The documents of the index (deleted ones included).
    docs: u64,
    segments: u64,
    reads: u64,
    terms: usize,
    clauses: usize,
    marks: BTreeMap<String, f32>,
    related: Vec<(usize, String)>,
}

impl Builder<'_> {
    /// Adds `reads` to the estimate; refused once it is over the bound,
    /// stopped once its stop has come (building a query under a large
    /// bound can take long too).
    fn charge(&mut self, reads: u64) -> Result<(), Refused> {
        if self.meter.stopped() {
            return Err(Refused::Stopped);
        }
        self.reads = self.reads.saturating_add(reads);
        if self.reads > self.bounds.max_reads {
            return Err(format!(
                "it would read more than the {} postings and documents allowed (a narrower query reads less)",
                self.bounds.max_reads
            )
            .into());
        }
        Ok(())
    }

    /// What is left of the bound on reads.
    fn left(&self) -> u64 {
        self.bounds.max_reads.saturating_sub(self.reads)
    }

    /// Counts `n` terms looked up; refused once over the bound.
    fn count_terms(&mut self, n: usize) -> Result<(), Refused> {
        self.terms += n;
        if self.terms > self.bounds.max_terms {
            return Err(format!(
                "it looks up more than the {} terms allowed (a word without a field is looked up in word and definition; a phrase's prefix counts every word it begins)",
                self.bounds.max_terms
            )
            .into());
        }
        Ok(())
    }

    /// Notes that the query looks for `term` (see [`Plan::marks`]).
    fn mark(&mut self, term: &Term, df: u64) {
        if term.field() == self.p.stemmed
            && let Some(text) = term.value().as_str()
            && df > 0
        {
            self.marks.insert(text.to_string(), 1.0 / (1.0 + df as f32));
        } else if let Some(which) = self.p.related.iter().position(|f| *f == term.field())
            && let Some(text) = term.value().as_str()
        {
            self.related.push((which, text.to_string()));
        }
    }

    fn metered(&self, query: impl Query) -> Box<dyn Query> {
        Box::new(MeteredQuery::new(Box::new(query), self.meter))
    }

    fn ast(&mut self, ast: UserInputAst, depth: usize) -> Result<Option<Part>, Refused> {
        self.clauses += 1;
        if self.clauses > self.bounds.max_clauses {
            return Err(format!(
                "it holds more than the {} clauses allowed",
                self.bounds.max_clauses
            )
            .into());
        }
        match ast {
            UserInputAst::Clause(children) => {
                if depth > self.bounds.max_depth {
                    return Err(too_deep(depth, self.bounds).into());
                }
                let mut parts = Vec::with_capacity(children.len());
                for (occur, child) in children {
                    if let Some(part) = self.ast(child, depth + 1)? {
                        parts.push((occur.unwrap_or(Occur::Must), part));
                    }
                }
                self.group(parts)
            }
            UserInputAst::Boost(ast, boost) => {
                let boost = boost.into_inner() as f32;
                if !boost.is_finite() {
                    return Err("a boost must be a finite number".into());
                }
                Ok(self.ast(*ast, depth)?.map(|p| Part {
                    query: Box::new(BoostQuery::new(p.query, boost)),
                    ..p
                }))
            }
            UserInputAst::Leaf(leaf) => self.leaf(*leaf),
        }
    }

    /// The group of `parts`; a group of exclusions alone excludes from
    /// every document.
    fn group(&mut self, mut parts: Vec<(Occur, Part)>) -> Result<Option<Part>, Refused> {
        if parts.is_empty() {
            return Ok(None);
        }
        if parts.iter().all(|(o, _)| *o == Occur::MustNot) {
            parts.insert(0, (Occur::Must, self.all()?));
        }
        if parts.len() == 1 {
            return Ok(parts.pop().map(|(_, p)| p));
        }
        let musts = parts.iter().filter(|(o, _)| *o == Occur::Must);
        let matches = match musts.map(|(_, p)| p.matches).min() {
            Some(m) => m,
            None => parts
                .iter()
                .filter(|(o, _)| *o == Occur::Should)
                .map(|(_, p)| p.matches)
                .fold(0, u64::saturating_add)
                .min(self.docs),
        };
        let clauses = parts.into_iter().map(|(o, p)| (o, p.query)).collect();
        Ok(Some(Part::new(
            Box::new(BooleanQuery::new(clauses)),
            matches,
        )))
    }

    /// Every document (`*`).
    fn all(&mut self) -> Result<Part, Refused> {
        self.charge(self.docs + self.segments)?;
        Ok(Part::new(self.metered(AllQuery), self.docs))
    }

    fn leaf(&mut self, leaf: UserInputLeaf) -> Result<Option<Part>, Refused> {
        match leaf {
            UserInputLeaf::All => self.all().map(Some),
            UserInputLeaf::Literal(lit) => self.literal(lit),
            UserInputLeaf::Exists { field } => self.everything_in(&field).map(Some),
            UserInputLeaf::Range {
                field,
                lower,
                upper,
            } => {
                let field = field.ok_or("a range needs a field (length:[3 TO 4])")?;
                self.range(&field, lower, upper).map(Some)
            }
            UserInputLeaf::Set { field, elements } => {
                let field = field.ok_or("a set needs a field (length: IN [2 3])")?;
                self.set(&field, elements).map(Some)
            }
            UserInputLeaf::Regex { .. } => Err(
                "regular expressions are not supported in a search (lexq regex searches the lexicon)"
                    .into(),
            ),
        }
    }

    /// Every document with a value in field `name` (`name:*`, `name:[*
    /// TO *]`).
    fn everything_in(&mut self, name: &str) -> Result<Part, Refused> {
        let (field, kind) = self.p.field(name)?;
        match kind {
            _ if self.p.everywhere.contains(&field) => self.all(),
            Kind::Number => self.column(name, None),
            Kind::Text { norms: true, .. } => {
                self.charge(2 * self.docs + self.segments)?;
                Ok(Part::new(
                    Box::new(HasTokens::new(field, self.meter)),
                    self.docs,
                ))
            }
            _ => {
                let mut reads = self.docs + self.segments;
                for seg in self.searcher.segment_readers() {
                    let index = seg.inverted_index(field)?;
                    reads = reads.saturating_add(
                        (index.terms().num_terms() as u64).saturating_mul(TERM_READS),
                    );
                    reads = reads.saturating_add(index.total_num_tokens());
                }
                self.charge(reads)?;
                Ok(Part::new(
                    Box::new(TermUnion::new(field, Terms::All, self.meter)),
                    self.docs,
                ))
            }
        }
    }

    /// The documents whose number `name` is `n`: the postings of its term
    /// where the field is indexed (`length`), else a scan of its column.
    /// Scored alike either way (a constant, as a column's match is).
    fn value(&mut self, field: Field, name: &str, n: u64) -> Result<Part, Refused> {
        if !self.p.schema.get_field_entry(field).is_indexed() {
            return self.column(name, Some(vec![(Bound::Included(n), Bound::Included(n))]));
        }
        let term = Term::from_field_u64(field, n);
        self.count_terms(1)?;
        let df = self.doc_freq(&term)?;
        self.charge(TERM_READS * self.segments + df)?;
        let query = TermQuery::new(term, IndexRecordOption::Basic);
        Ok(Part::new(
            self.metered(ConstScoreQuery::new(Box::new(query), 1.0)),
            df,
        ))
    }

    /// The documents whose column `name` has a value in one of `ranges`,
    /// or any value.
    fn column(
        &mut self,
        name: &str,
        ranges: Option<Vec<(Bound<u64>, Bound<u64>)>>,
    ) -> Result<Part, Refused> {
        let ranges = match ranges {
            Some(r) if r.is_empty() => return self.nothing(),
            Some(r) => r,
            None => Vec::new(),
        };
        // One scan of the column, then the documents found.
        self.charge(2 * self.docs + self.segments)?;
        Ok(Part::new(
            Box::new(ColumnMatch::new(name, ranges, self.meter)),
            self.docs,
        ))
    }

    fn nothing(&mut self) -> Result<Part, Refused> {
        Ok(Part::new(Box::new(EmptyQuery), 0))
    }

    /// The documents of some of `field`'s terms, charged as it reads them
    /// (a list looked up one by one, a prefix or range streamed).
    fn union(&mut self, field: Field, terms: Terms) -> Result<Part, Refused> {
        if let Terms::List(list) = &terms {
            self.count_terms(list.len())?;
        }
        let mut postings = 0u64;
        for seg in self.searcher.segment_readers() {
            let index = seg.inverted_index(field)?;
            let (left, meter) = (self.left(), self.meter);
            let (mut reads, mut n) = (0u64, 0u32);
            terms.each_doc_freq(index.terms(), |df| {
                postings += u64::from(df);
                reads = reads.saturating_add(TERM_READS + u64::from(df));
                n = n.wrapping_add(1);
                reads <= left && (n % 1024 != 0 || !meter.stopped())
            })?;
            self.charge(reads)?;
        }
        let matches = postings.min(self.docs);
        self.charge(matches + self.segments)?;
        Ok(Part::new(
            Box::new(TermUnion::new(field, terms, self.meter)),
            matches,
        ))
    }

    /// The document frequency of `term` over every segment.
    fn doc_freq(&self, term: &Term) -> Result<u64, Refused> {
        let mut df = 0;
        for seg in self.searcher.segment_readers() {
            df += u64::from(seg.inverted_index(term.field())?.doc_freq(term)?);
        }
        Ok(df)
    }

    /// The documents of one term.
    fn term(&mut self, term: Term) -> Result<Part, Refused> {
        self.count_terms(1)?;
        let df = self.doc_freq(&term)?;
        self.charge(TERM_READS * self.segments + df)?;
        self.mark(&term, df);
        Ok(Part::new(
            self.metered(TermQuery::new(term, IndexRecordOption::WithFreqs)),
            df,
        ))
    }

    /// A word of the definitions, unquoted: the word itself, and the
    /// definition terms of the same English stem (`tool`: `tools`,
    /// `tooling`; `concern`: `concerned`, `concerns`). A definition
    /// holding the word itself ranks above every one holding only its
    /// other forms, and among those the word counts [`EXACT_BOOST`]
    /// times as much as another form. The forms are the spellings
    /// [`candidate_forms`] makes that the term dictionary holds and whose
    /// stem is the word's. They count against the bound on reads, not on
    /// terms.
    fn word(&mut self, field: Field, word: &str) -> Result<Part, Refused> {
        let forms = self.forms(field, word)?;
        let exact = self.term(Term::from_field_text(field, word))?;
        if forms.is_empty() {
            return Ok(exact);
        }
        let mut parts = Vec::with_capacity(forms.len() + 2);
        // The most the other forms can score: BM25 scores a term at most
        // its idf times (k1 + 1) = 2.2, however often it occurs.
        let mut most = 0.0f32;
        for form in forms {
            let term = Term::from_field_text(field, &form);
            let df = self.doc_freq(&term)?;
            self.charge(TERM_READS * self.segments + df)?;
            self.mark(&term, df);
            let idf = (1.0 + (self.docs as f32 - df as f32 + 0.5) / (df as f32 + 0.5)).ln();
            most += 2.2 * idf.max(0.0);
            parts.push((
                Occur::Should,
                Part::new(
                    self.metered(TermQuery::new(term, IndexRecordOption::WithFreqs)),
                    df,
                ),
            ));
        }
        // A document holding the word itself scores more than any holding
        // only other forms: a constant above their most, then the word's
        // own score (read twice: charged twice).
        self.charge(TERM_READS * self.segments + exact.matches)?;
        let again = TermQuery::new(Term::from_field_text(field, word), IndexRecordOption::Basic);
        parts.push((
            Occur::Should,
            Part::new(
                Box::new(ConstScoreQuery::new(self.metered(again), most + 1.0)),
                exact.matches,
            ),
        ));
        parts.push((
            Occur::Should,
            Part::new(
                Box::new(BoostQuery::new(exact.query, EXACT_BOOST)),
                exact.matches,
            ),
        ));
        Ok(self.group(parts)?.expect("the word's own term is a part"))
    }

    /// The other terms of `field` with `word`'s stem (see [`Builder::word`]),
    /// the most common first, at most [`MOST_FORMS`].
    fn forms(&mut self, field: Field, word: &str) -> Result<Vec<String>, Refused> {
        let mut stems = self.p.stems.clone();
        let mut stem = String::new();
        stems
            .token_stream(word)
            .process(&mut |t| stem.clone_from(&t.text));
        let candidates = candidate_forms(word, &stem);
        let mut forms: Vec<(u64, String)> = Vec::new();
        for seg in self.searcher.segment_readers() {
            let index = seg.inverted_index(field)?;
            let dict = index.terms();
            self.charge(candidates.len() as u64)?;
            for text in &candidates {
                let Some(info) = dict.get(text.as_bytes())? else {
                    continue;
                };
                let mut same = false;
                stems
                    .token_stream(text)
                    .process(&mut |t| same = t.text == stem);
                if same {
                    let df = u64::from(info.doc_freq);
                    match forms.iter_mut().find(|(_, f)| f == text) {
                        Some((n, _)) => *n += df,
                        None => forms.push((df, text.clone())),
                    }
                }
            }
        }
        forms.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        forms.truncate(MOST_FORMS);
        Ok(forms.into_iter().map(|(_, f)| f).collect())
    }

    fn literal(&mut self, lit: UserInputLiteral) -> Result<Option<Part>, Refused> {
        let stem = prefix_of(&lit)?;
        let max_slop = self.bounds.max_slop.min(crate::schema::MAX_SLOP);
        if lit.slop > max_slop {
            return Err(format!("a slop of {}, more than the {max_slop} allowed", lit.slop).into());
        }
        let fields: Vec<(Field, Kind, f32)> = match &lit.field_name {
            Some(name) => {
                let (f, k) = self.p.field(name)?;
                vec![(f, k, 1.0)]
            }
            None => self
                .p
                .defaults
                .iter()
                .map(|&(f, b)| (f, kind(&self.p.schema, f), b))
                .collect(),
        };
        let mut parts = Vec::with_capacity(fields.len());
        for (field, kind, boost) in fields {
            let name = self.p.schema.get_field_name(field);
            let part = match kind {
                Kind::Number if stem.is_some() || lit.prefix => {
                    return Err(format!("{name} takes a number, not a prefix").into());
                }
                Kind::Number => {
                    let n = number(name, &lit.phrase)?;
                    Some(self.value(field, name, n)?)
                }
                Kind::Facet if stem.is_some() || lit.prefix => {
                    return Err(
                        format!("{name} takes a part of speech (/noun), not a prefix").into(),
                    );
                }
                Kind::Facet => Some(self.term(facet_term(field, name, &lit.phrase)?)?),
                Kind::Text { .. } => match &stem {
                    Some(stem) => Some(self.union(field, Terms::Prefix(stem.as_bytes().to_vec()))?),
                    None => self.text(field, kind, &lit)?,
                },
                Kind::Stored => unreachable!("Parser::field refuses stored fields"),
            };
            if let Some(mut part) = part {
                if boost != 1.0 {
                    part.query = Box::new(BoostQuery::new(part.query, boost));
                }
                parts.push((Occur::Should, part));
            }
        }
        self.group(parts)
    }

    /// A literal of indexed text that is not a single-word prefix: a
    /// term, a phrase, or a phrase whose last word is a prefix.
    fn text(
        &mut self,
        field: Field,
        kind: Kind,
        lit: &UserInputLiteral,
    ) -> Result<Option<Part>, Refused> {
        let name = self.p.schema.get_field_name(field);
        let mut tokens = self.p.tokens(field, &lit.phrase)?;
        match tokens.len() {
            0 => Ok(None),
            1 if lit.prefix => {
                let stem = tokens.remove(0).1.into_bytes();
                self.union(field, Terms::Prefix(stem)).map(Some)
            }
            1 if field == self.p.stemmed && lit.delimiter == Delimiter::None => {
                self.word(field, &tokens[0].1).map(Some)
            }
            1 => self
                .term(Term::from_field_text(field, &tokens[0].1))
                .map(Some),
            _ if matches!(
                kind,
                Kind::Text {
                    positions: false,
                    ..
                }
            ) =>
            {
                Err(format!("{name} keeps no positions: it takes no phrase").into())
            }
            _ => self.phrase(field, tokens, lit.slop, lit.prefix).map(Some),
        }
    }

    /// A phrase of `tokens` of `field`, its last word a prefix if
    /// `prefix`.
    fn phrase(
        &mut self,
        field: Field,
        tokens: Vec<(u32, String)>,
        slop: u32,
        prefix: bool,
    ) -> Result<Part, Refused> {
        if slop > 0 {
            if prefix {
                return Err("a quoted phrase takes a slop or a *, not both".into());
            }
            for (i, (_, t)) in tokens.iter().enumerate() {
                if tokens[..i].iter().any(|(_, u)| u == t) {
                    return Err(format!(
                        "{t:?} is twice in a phrase with a slop: one {t:?} in a text could stand for both, so such phrases are not supported (without a slop they are)"
                    )
                    .into());
                }
            }
        }
        let last = tokens.len() - 1;
        let mut words = Vec::with_capacity(tokens.len());
        let mut matches = u64::MAX;
        for (i, (offset, text)) in tokens.into_iter().enumerate() {
            let word = if prefix && i == last {
                Word::Prefix(text.into_bytes())
            } else {
                self.count_terms(1)?;
                Word::Term(Term::from_field_text(field, &text))
            };
            let (mut most, mut postings) = (0usize, 0u64);
            for seg in self.searcher.segment_readers() {
                let index = seg.inverted_index(field)?;
                // The terms the word stands for (a prefix's, up to the
                // bound on terms).
                let mut infos = Vec::new();
                match &word {
                    Word::Term(term) => {
                        self.charge(TERM_READS)?;
                        infos.extend(index.get_term_info(term)?);
                    }
                    Word::Prefix(stem) => {
                        let mut stream = Terms::Prefix(stem.clone()).stream(index.terms())?;
                        while self.terms + infos.len() <= self.bounds.max_terms && stream.advance()
                        {
                            self.charge(TERM_READS)?;
                            infos.push(stream.value().clone());
                        }
                    }
                }
                most = most.max(infos.len());
                for info in &infos {
                    // The phrase reads each posting once and its
                    // positions; counting those positions here reads the
                    // postings once more.
                    let df = u64::from(info.doc_freq);
                    postings += df;
                    self.charge(2 * df + 1)?;
                    let n = positions(&index, info, self.meter)?;
                    self.charge(n)?;
                }
            }
            match &word {
                Word::Prefix(_) => self.count_terms(most)?,
                Word::Term(term) => self.mark(term, postings),
            }
            matches = matches.min(postings);
            words.push((offset, word));
        }
        Ok(Part::new(
            Box::new(Phrase::new(field, words, slop, self.meter)),
            matches,
        ))
    }

    fn range(
        &mut self,
        name: &str,
        lower: UserInputBound,
        upper: UserInputBound,
    ) -> Result<Part, Refused> {
        let (field, kind) = self.p.field(name)?;
        if lower == UserInputBound::Unbounded && upper == UserInputBound::Unbounded {
            return self.everything_in(name);
        }
        match kind {
            Kind::Number => {
                let bound = |b: UserInputBound| -> Result<Bound<u64>, Refused> {
                    Ok(match b {
                        UserInputBound::Inclusive(v) => Bound::Included(number(name, &v)?),
                        UserInputBound::Exclusive(v) => Bound::Excluded(number(name, &v)?),
                        UserInputBound::Unbounded => Bound::Unbounded,
                    })
                };
                let range = (bound(lower)?, bound(upper)?);
                self.column(name, Some(vec![range]))
            }
            Kind::Text { .. } => {
                let bound = |b: UserInputBound| match b {
                    UserInputBound::Inclusive(v) => Bound::Included(v.to_lowercase().into_bytes()),
                    UserInputBound::Exclusive(v) => Bound::Excluded(v.to_lowercase().into_bytes()),
                    UserInputBound::Unbounded => Bound::Unbounded,
                };
                self.union(field, Terms::Range(bound(lower), bound(upper)))
            }
            _ => Err(format!("{name} takes no range").into()),
        }
    }

    fn set(&mut self, name: &str, elements: Vec<String>) -> Result<Part, Refused> {
        let (field, kind) = self.p.field(name)?;
        match kind {
            Kind::Number => {
                let ranges = elements
                    .iter()
                    .map(|e| number(name, e).map(|n| (Bound::Included(n), Bound::Included(n))))
                    .collect::<Result<Vec<_>, _>>()?;
                self.column(name, Some(ranges))
            }
            Kind::Facet => {
                let mut terms = elements
                    .iter()
                    .map(|e| {
                        facet_term(field, name, e).map(|t| t.serialized_value_bytes().to_vec())
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                terms.sort_unstable();
                terms.dedup();
                self.union(field, Terms::List(terms))
            }
            Kind::Text { .. } => {
                let mut terms = Vec::with_capacity(elements.len());
                for e in &elements {
                    let mut tokens = self.p.tokens(field, e)?;
                    if tokens.len() > 1 {
                        return Err(format!(
                            "{name}: {e:?} is more than one word (a set holds words)"
                        )
                        .into());
                    }
                    if let Some((_, t)) = tokens.pop() {
                        terms.push(t.into_bytes());
                    }
                }
                terms.sort_unstable();
                terms.dedup();
                self.union(field, Terms::List(terms))
            }
            Kind::Stored => unreachable!("Parser::field refuses stored fields"),
        }
    }
}

/// How many positions the postings of `info` hold (the sum of its
/// frequencies): what a phrase reads of its positions at most.
fn positions(
    index: &tantivy::InvertedIndexReader,
    info: &tantivy::postings::TermInfo,
    meter: &Meter,
) -> Result<u64, Refused> {
    let mut block = index.read_block_postings_from_terminfo(info, IndexRecordOption::WithFreqs)?;
    let (mut n, mut blocks) = (0u64, 0u32);
    while !block.docs().is_empty() {
        n += block.freqs().iter().map(|&f| u64::from(f)).sum::<u64>();
        block.advance();
        blocks = blocks.wrapping_add(1);
        if blocks % 64 == 0 && meter.stopped() {
            return Err(Refused::Stopped);
        }
    }
    Ok(n)
}

/// `text` as a value of number field `name`.
fn number(name: &str, text: &str) -> Result<u64, Refused> {
    text.trim()
        .parse()
        .map_err(|_| format!("{name} takes a whole number, not {text:?}").into())
}

/// The term of part of speech `text` of facet field `name`.
fn facet_term(field: Field, name: &str, text: &str) -> Result<Term, Refused> {
    let facet = Facet::from_text(text).map_err(|_| {
        format!("{name} takes a part of speech (/noun, /verb, /adjective, /adverb), not {text:?}")
    })?;
    Ok(Term::from_facet(field, &facet))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cost::Stop;
    use tantivy::TantivyDocument;
    use tantivy::collector::{Count, DocSetCollector};

    /// A parser and a searcher over an index in memory: each document a
    /// word and its definitions (several values of `definition`).
    fn index_of<'a>(
        docs: impl IntoIterator<Item = (&'a str, Vec<&'a str>)>,
    ) -> (Parser, Searcher, Fields) {
        let (schema, fields) = Fields::schema();
        let index = Index::create_in_ram(schema);
        crate::schema::register_tokenizers(&index);
        let mut w = index.writer_with_num_threads(1, 15_000_000).unwrap();
        for (word, defs) in docs {
            let mut d = TantivyDocument::new();
            d.add_text(fields.word, word);
            d.add_text(fields.alphagram, word);
            d.add_u64(fields.length, word.len() as u64);
            // As the build writes them: each sense after the first marked.
            for (i, def) in defs.into_iter().enumerate() {
                match i {
                    0 => d.add_text(fields.definition, def),
                    _ => d.add_text(
                        fields.definition,
                        format!("{}{def}", crate::schema::NEXT_SENSE),
                    ),
                }
            }
            w.add_document(d).unwrap();
        }
        w.commit().unwrap();
        let searcher = index.reader().unwrap().searcher();
        (Parser::new(&index, &fields), searcher, fields)
    }

    fn index() -> (Parser, Searcher, Fields) {
        index_of([
            ("CAR", vec!["a motor vehicle"]),
            ("CARE", vec!["feel concern"]),
            (
                "SCAR",
                vec!["a mark left by a healed wound", "a stimulus to carry on"],
            ),
            ("STIMULI", vec!["things that stimulate"]),
        ])
    }

    fn plan(p: &Parser, s: &Searcher, q: &str, bounds: &QueryBounds) -> Result<Plan, String> {
        let meter = Meter::new(bounds.max_reads, Stop::never());
        p.plan(q, s, bounds, &meter).map_err(|r| match r {
            Refused::Bad(why) => why,
            Refused::Stopped => panic!("{q}: stopped"),
            Refused::Index(e) => panic!("{q}: {e}"),
        })
    }

    /// The words `q` finds, sorted, or why it is refused.
    fn words(p: &Parser, s: &Searcher, q: &str) -> Result<Vec<String>, String> {
        let plan = plan(p, s, q, &QueryBounds::default())?;
        let mut found: Vec<String> = s
            .search(&plan.query, &DocSetCollector)
            .unwrap()
            .into_iter()
            .map(|a| {
                let d: TantivyDocument = s.doc(a).unwrap();
                let f = Fields::schema().1;
                d.get_first(f.word)
                    .and_then(|v| tantivy::schema::Value::as_str(&v))
                    .unwrap()
                    .to_string()
            })
            .collect();
        found.sort();
        Ok(found)
    }

    fn found(q: &str) -> Vec<String> {
        let (p, s, _) = index();
        words(&p, &s, q).unwrap_or_else(|e| panic!("{q}: {e}"))
    }

    #[test]
    fn the_site_numbers_are_column_only() {
        let (p, _, f) = index();
        for field in [f.length, f.points, f.senses] {
            assert_eq!(kind(&p.schema, field), Kind::Number);
        }
        assert_eq!(kind(&p.schema, f.page), Kind::Stored);
        assert_eq!(kind(&p.schema, f.pos), Kind::Facet);
    }

    #[test]
    fn numbers_are_values_sets_and_ranges_of_their_column() {
        assert_eq!(found("length:4"), ["CARE", "SCAR"]);
        assert_eq!(found("length:[3 TO 4]"), ["CAR", "CARE", "SCAR"]);
        assert_eq!(found("length:{3 TO 7]"), ["CARE", "SCAR", "STIMULI"]);
        assert_eq!(found("length: IN [3 7]"), ["CAR", "STIMULI"]);
        assert_eq!(found("length: IN []"), Vec::<String>::new());
        assert_eq!(found("length:[5 TO *]"), ["STIMULI"]);
        assert_eq!(found("definition:a AND length:4^2"), ["SCAR"]);
        let (p, s, _) = index();
        for bad in ["length:x", "length:[a TO 5]", "length:5*", "points:\"5\"*"] {
            assert!(words(&p, &s, bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn exclusions_alone_exclude_from_everything() {
        assert_eq!(found("definition:a AND NOT car"), ["SCAR"]);
        assert_eq!(found("-definition:a"), ["CARE", "STIMULI"]);
        assert_eq!(found("-definition:a -word:care"), ["STIMULI"]);
        assert_eq!(found("definition:a -word:car"), ["SCAR"]);
        // A group whose other words have no tokens is a group of exclusions.
        assert_eq!(
            found("definition:\"!!\" -definition:a"),
            ["CARE", "STIMULI"]
        );
        assert_eq!(found("- *"), Vec::<String>::new());
        // A literal of no token is none, in any field.
        assert_eq!(found("\"\" care"), found("care"));
        assert_eq!(found("word:\"\" -definition:a"), ["CARE", "STIMULI"]);
    }

    #[test]
    fn words_ending_in_a_star_are_the_terms_they_begin() {
        assert_eq!(found("word:CAR*"), ["CAR", "CARE"]);
        assert_eq!(found("word:\"car\"*"), ["CAR", "CARE"]);
        assert_eq!(found("word:x*"), Vec::<String>::new());
        // Without a field: words and definitions.
        assert_eq!(found("Stimul*"), ["SCAR", "STIMULI"]);
        assert_eq!(found("car*"), ["CAR", "CARE", "SCAR"]);
        assert_eq!(found("l\u{e9}*"), Vec::<String>::new());
        // A phrase's last word.
        assert_eq!(found("definition:\"a mo\"*"), ["CAR"]);
        assert_eq!(found("definition:\"a m\"*"), ["CAR", "SCAR"]);
        assert_eq!(found("definition:\"to c\"* AND word:s*"), ["SCAR"]);
    }

    #[test]
    fn a_prefix_of_many_terms_finds_them_all() {
        let defs: Vec<String> = (0..2000).map(|i| format!("zz{i}")).collect();
        let words_: Vec<String> = (0..2000).map(|i| format!("W{i}")).collect();
        let (p, s, _) = index_of(
            words_
                .iter()
                .zip(&defs)
                .map(|(w, d)| (w.as_str(), vec![d.as_str()])),
        );
        assert_eq!(words(&p, &s, "zz*").unwrap().len(), 2000);
        assert_eq!(words(&p, &s, "definition:zz1*").unwrap().len(), 1111);
        // A phrase's prefix counts every word it begins against the bound
        // on terms.
        let bounds = QueryBounds::default();
        let err = plan(&p, &s, "definition:\"zz1 zz1\"*", &bounds)
            .err()
            .unwrap();
        assert!(err.contains("terms"), "{err}");
        assert!(plan(&p, &s, "definition:\"zz1 zz199\"*", &bounds).is_ok());
    }

    #[test]
    fn field_wildcards_are_the_documents_with_a_value() {
        assert_eq!(found("word:*"), ["CAR", "CARE", "SCAR", "STIMULI"]);
        assert_eq!(found("word:[* TO *]"), found("word:*"));
        assert_eq!(found("length:*"), found("word:*"));
        assert_eq!(found("length:[* TO *]"), found("word:*"));
        // No document has a part of speech or a base form here.
        assert_eq!(found("pos:*"), Vec::<String>::new());
        assert_eq!(found("base_form:[* TO *]"), Vec::<String>::new());
        let (p, s, _) = index_of([("A", vec!["x"]), ("B", vec!["!!"]), ("C", vec![])]);
        assert_eq!(words(&p, &s, "definition:*").unwrap(), ["A"]);
        assert_eq!(words(&p, &s, "-definition:*").unwrap(), ["B", "C"]);
        assert_eq!(words(&p, &s, "definition:[* TO *]").unwrap(), ["A"]);
        assert!(
            words(&p, &s, "page:*")
                .unwrap_err()
                .contains("not searchable")
        );
        assert!(words(&p, &s, "nofield:*").unwrap_err().contains("no field"));
    }

    #[test]
    fn ranges_and_sets_of_words_are_lowercased_as_the_fields_are() {
        assert_eq!(found("word:[CA TO CB]"), ["CAR", "CARE"]);
        assert_eq!(found("word:{car TO *]"), ["CARE", "SCAR", "STIMULI"]);
        assert_eq!(found("alphagram: IN [CARE scar x]"), ["CARE", "SCAR"]);
        assert_eq!(found("definition: IN [Motor feel]"), ["CAR", "CARE"]);
        let (p, s, _) = index();
        assert!(words(&p, &s, "definition: IN [\"a b\"]").is_err());
        assert!(words(&p, &s, "pos:[/a TO /b]").is_err());
    }

    #[test]
    fn what_tantivy_would_misread_is_refused() {
        let (p, s, _) = index();
        for q in [
            "a*b",
            "word:*car",
            "car**",
            "definition:tool~1",
            "tool~12",
            "word:care~",
            "word:/c.r/",
            "pos:/nou*",
            "pos:noun*",
            "definition:\"a a\"~1",
            "\"care care feel\"~3",
            "word:\"a b\"~1 AND definition:\"x y x\"~2",
        ] {
            assert!(words(&p, &s, q).is_err(), "{q}");
        }
        // A slop on a quoted phrase, a ~ that is no fuzzy term: as they are.
        assert_eq!(words(&p, &s, "\"feel concern\"~1").unwrap(), ["CARE"]);
        assert!(words(&p, &s, "a~b").is_ok());
        // A repeated word without a slop is right.
        let (p, s, _) = index_of([("A", vec!["a b a"]), ("B", vec!["a a b"])]);
        assert_eq!(words(&p, &s, "definition:\"a a\"").unwrap(), ["B"]);
        assert_eq!(words(&p, &s, "definition:\"a b a\"").unwrap(), ["A"]);
    }

    #[test]
    fn bounds_refuse_before_running() {
        let (p, s, _) = index();
        let tight = QueryBounds {
            max_reads: 10_000,
            max_terms: 3,
            max_clauses: 6,
            max_depth: 2,
            max_slop: 2,
        };
        assert!(plan(&p, &s, "definition:a", &tight).is_ok());
        for (q, why) in [
            ("a b", "terms"),
            ("word:a word:b word:c word:d", "terms"),
            ("((((a))))", "nest"),
            ("definition:\"a b\"~3", "slop"),
            (
                "-points:1 -points:2 -points:3 -points:4 -points:5 -points:6",
                "clauses",
            ),
        ] {
            let err = plan(&p, &s, q, &tight).err().unwrap_or_default();
            assert!(err.contains(why), "{q}: {err:?}");
        }
        // Reads: a term costs TERM_READS and its postings (`length:4` is
        // one: the field is indexed), `*` and a column every document
        // (twice), the collector what is found; each part
        // and the collector one more per segment, the step that finds the
        // end.
        let few = QueryBounds {
            max_reads: 50,
            ..QueryBounds::default()
        };
        let reads = |q| plan(&p, &s, q, &few).unwrap().reads;
        assert_eq!(reads("definition:\"a\""), TERM_READS + 2 + 2 + 1);
        // An unquoted word looks up the spellings of its other forms too,
        // one read each (`a`'s are in none of these definitions).
        let lookups = candidate_forms("a", "a").len() as u64;
        let unquoted = plan(&p, &s, "definition:a", &QueryBounds::default())
            .unwrap()
            .reads;
        assert_eq!(unquoted, TERM_READS + 2 + 2 + 1 + lookups);
        assert_eq!(reads("*"), 4 + 1 + 4 + 1);
        assert_eq!(reads("length:4"), TERM_READS + 2 + 2 + 1);
        assert_eq!(reads("length:[4 TO 4]"), 2 * 4 + 1 + 4 + 1);
        for q in [
            "definition:a definition:mark definition:left",
            "* word:* alphagram:* definition:* length:* points:* senses:* pos:*",
            "length:[1 TO 2] OR length:3 OR length:4 OR length:5 OR length:6 OR length:7",
        ] {
            let err = plan(&p, &s, q, &few).err().unwrap_or_default();
            assert!(err.contains("read"), "{q}: {err:?}");
        }
        // The estimate counts every read the query makes.
        let q = "definition:\"a stimulus\" OR word:car* OR length:4";
        let plan = plan(&p, &s, q, &QueryBounds::default()).unwrap();
        assert!(plan.reads > 0);
        assert_eq!(s.search(&plan.query, &Count).unwrap(), 3);
    }

    /// A pseudo-random number generator for the tests (xorshift).
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    /// Whether the positions of `words` in one value of `doc` (a sense:
    /// no phrase matches across two) can be chosen so that the sum of the
    /// moves of each word from its place after the one before is at most
    /// `slop`: tried every way.
    fn brute_match(doc: &[Vec<&str>], words: &[&str], slop: i64) -> bool {
        doc.iter().any(|value| {
            let at: Vec<(i64, &str)> = value
                .iter()
                .enumerate()
                .map(|(i, w)| (i as i64, *w))
                .collect();
            brute_match_in(&at, words, slop)
        })
    }

    fn brute_match_in(at: &[(i64, &str)], words: &[&str], slop: i64) -> bool {
        fn go(
            at: &[(i64, &str)],
            words: &[&str],
            i: usize,
            prev: Option<i64>,
            cost: i64,
            slop: i64,
        ) -> bool {
            if cost > slop {
                return false;
            }
            if i == words.len() {
                return true;
            }
            at.iter().filter(|(_, w)| *w == words[i]).any(|&(p, _)| {
                let aligned = p - i as i64;
                let step = prev.map_or(0, |q| (aligned - q).abs());
                go(at, words, i + 1, Some(aligned), cost + step, slop)
            })
        }
        go(at, words, 0, None, 0, slop)
    }

    #[test]
    fn phrases_with_a_slop_match_every_way_of_moving_their_words() {
        let vocab = ["a", "b", "c", "d", "e"];
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let docs: Vec<Vec<Vec<&str>>> = (0..300)
            .map(|_| {
                (0..1 + rng.below(3))
                    .map(|_| (0..1 + rng.below(6)).map(|_| vocab[rng.below(5)]).collect())
                    .collect()
            })
            .collect();
        let texts: Vec<Vec<String>> = docs
            .iter()
            .map(|d| d.iter().map(|v| v.join(" ")).collect())
            .collect();
        let names: Vec<String> = (0..docs.len()).map(|i| format!("W{i:03}")).collect();
        let (p, s, _) = index_of(
            names
                .iter()
                .zip(&texts)
                .map(|(n, t)| (n.as_str(), t.iter().map(String::as_str).collect())),
        );
        let mut tried = 0;
        for _ in 0..400 {
            let n = 2 + rng.below(3);
            let mut words: Vec<&str> = Vec::new();
            while words.len() < n {
                let w = vocab[rng.below(5)];
                if !words.contains(&w) {
                    words.push(w);
                }
            }
            let slop = rng.below(7);
            let q = format!("definition:\"{}\"~{slop}", words.join(" "));
            let expected: Vec<String> = names
                .iter()
                .zip(&docs)
                .filter(|(_, d)| brute_match(d, &words, slop as i64))
                .map(|(n, _)| n.to_lowercase().to_uppercase())
                .collect();
            assert_eq!(words_of(&p, &s, &q), expected, "{q}");
            tried += usize::from(!expected.is_empty());
        }
        assert!(tried > 100, "{tried}");
        // Without a slop, a repeated word too.
        for q in ["a a", "a b a", "b b b"] {
            let words: Vec<&str> = q.split(' ').collect();
            let expected: Vec<String> = names
                .iter()
                .zip(&docs)
                .filter(|(_, d)| brute_match(d, &words, 0))
                .map(|(n, _)| n.clone())
                .collect();
            assert_eq!(
                words_of(&p, &s, &format!("definition:\"{q}\"")),
                expected,
                "{q}"
            );
        }
    }

    fn words_of(p: &Parser, s: &Searcher, q: &str) -> Vec<String> {
        words(p, s, q).unwrap_or_else(|e| panic!("{q}: {e}"))
    }
}
