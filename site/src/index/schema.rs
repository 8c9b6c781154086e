//! The site index's schema: one tantivy document per lexicon word.
//!
//! | field | kind | |
//! |---|---|---|
//! | `word` | raw text, stored | the word, uppercase (searched case-insensitively) |
//! | `length` | u64, stored, fast, indexed | tiles |
//! | `alphagram` | raw text | the letters sorted |
//! | `points` | u64, stored, fast | tile points |
//! | `definition` | text with positions | one value per sense, folded to ASCII (see [`TEXT_TOKENIZER`]) |
//! | `page` | stored text | the rest of the word page: senses (part of speech, definition, examples, synonyms, base form, source), alphagram, hooks, anagrams, base forms (see `stored.rs`) |
//! | `pos` | facet | `/noun`, `/verb`, `/adjective`, `/adverb`, once per part of speech the word has |
//! | `senses` | u64, stored, fast | the number of senses |
//! | `base_form` | raw text | base forms of an inflection |
//! | `front_hooks`, `back_hooks` | raw text | one value per hook letter |
//! | `anagrams` | raw text | the word's anagrams |
//! | `frequency` | u64, stored, fast | how common the word is (see `frequency.rs`; 0: unknown) |
//! | `synonym` | raw text | one value per synonym of the word's own senses, whole (`synonym:happy`, `synonym:"ice cream"`) |
//! | `antonym` | raw text | one value per antonym of its own senses |
//! | `kind_of` | raw text | one value per word of what its own senses are a kind of (`kind_of:dog`: the kinds of dog) |
//!
//! Only what search results show and the page are stored: a word page is
//! read from its document in one value. The numbers are searched through
//! their fast columns (see `query.rs`); `length` is indexed too, so that
//! `length:4` reads the postings of one term (3,903 on ENABLE) rather
//! than scanning its column (every document), and a search such as
//! `definition:tool AND length:4` is light.

use tantivy::Index;
use tantivy::schema::{
    Facet, FacetOptions, Field, IndexRecordOption, NumericOptions, STORED, Schema,
    TextFieldIndexing, TextOptions,
};
use tantivy::tokenizer::{
    AsciiFoldingFilter, Language, LowerCaser, RawTokenizer, RemoveLongFilter, SimpleTokenizer,
    Stemmer, TextAnalyzer, Token, TokenFilter, TokenStream, Tokenizer,
};

use crate::wordnet::Pos;

/// The tokenizer of the raw fields: the whole value, lowercased and
/// folded to ASCII (`Café` is the term `cafe`).
pub const WORD_TOKENIZER: &str = "lexq_word";

/// The tokenizer of `definition`: words (runs of letters and digits),
/// lowercased and folded to ASCII (`café` and `cafe` are one term); a
/// value that begins with [`NEXT_SENSE`] (every sense after a word's
/// first) starts [`SENSE_GAP`] positions after the last one ended, so
/// that no phrase within the bounds on slop matches across two senses.
pub const TEXT_TOKENIZER: &str = "lexq_text";

/// What the build puts before each sense of a word but the first, in
/// `definition` (not a word: the tokenizer skips it, after noting it).
pub const NEXT_SENSE: char = '\u{1f}';

/// How many positions lie between two senses of a word in `definition`
/// (tantivy leaves one between two values; this adds the rest). A phrase
/// would need a slop of more than this to match across senses: slops
/// are bounded below it ([`MAX_SLOP`]). Small, since positions are
/// stored in as many bits as their largest gap needs.
pub const SENSE_GAP: usize = 64;

/// The largest slop any bounds allow (see [`SENSE_GAP`]).
pub const MAX_SLOP: u32 = 48;

/// The longest word indexed, in bytes (tantivy's default).
const LONGEST_WORD: usize = 40;

/// The fields of the site index.
#[derive(Clone, Copy, Debug)]
pub struct Fields {
    /// The word, uppercase.
    pub word: Field,
    /// Its length in tiles.
    pub length: Field,
    /// Its letters sorted.
    pub alphagram: Field,
    /// Its tile points.
    pub points: Field,
    /// One definition per sense.
    pub definition: Field,
    /// The word page, stored.
    pub page: Field,
    /// Parts of speech, as facets.
    pub pos: Field,
    /// The number of senses.
    pub senses: Field,
    /// Base forms of an inflection.
    pub base_form: Field,
    /// Front hook letters.
    pub front_hooks: Field,
    /// Back hook letters.
    pub back_hooks: Field,
    /// Anagrams.
    pub anagrams: Field,
    /// How common the word is ([`crate::frequency::pack`]; 0: unknown).
    pub frequency: Field,
    /// The synonyms of its own senses.
    pub synonym: Field,
    /// The antonyms of its own senses.
    pub antonym: Field,
    /// What its own senses are a kind of.
    pub kind_of: Field,
}

/// A number field: stored and fast (searched through its column).
fn number() -> NumericOptions {
    NumericOptions::default().set_stored().set_fast()
}

fn raw(stored: bool) -> TextOptions {
    let mut o = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(WORD_TOKENIZER)
            .set_index_option(IndexRecordOption::Basic)
            .set_fieldnorms(false),
    );
    if stored {
        o = o.set_stored();
    }
    o
}

impl Fields {
    /// The schema and its fields.
    pub fn schema() -> (Schema, Fields) {
        let mut b = Schema::builder();
        let text = TextOptions::default().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer(TEXT_TOKENIZER)
                .set_index_option(IndexRecordOption::WithFreqsAndPositions),
        );
        let fields = Fields {
            word: b.add_text_field("word", raw(true)),
            length: b.add_u64_field("length", number().set_indexed()),
            alphagram: b.add_text_field("alphagram", raw(false)),
            points: b.add_u64_field("points", number()),
            definition: b.add_text_field("definition", text),
            page: b.add_text_field("page", STORED),
            pos: b.add_facet_field("pos", FacetOptions::default()),
            senses: b.add_u64_field("senses", number()),
            base_form: b.add_text_field("base_form", raw(false)),
            front_hooks: b.add_text_field("front_hooks", raw(false)),
            back_hooks: b.add_text_field("back_hooks", raw(false)),
            anagrams: b.add_text_field("anagrams", raw(false)),
            frequency: b.add_u64_field("frequency", number()),
            synonym: b.add_text_field("synonym", raw(false)),
            antonym: b.add_text_field("antonym", raw(false)),
            kind_of: b.add_text_field("kind_of", raw(false)),
        };
        (b.build(), fields)
    }

    /// The fields of an opened index's schema, checked by name and kind.
    pub fn of(schema: &Schema) -> Result<Fields, String> {
        let (expected, fields) = Fields::schema();
        for (field, entry) in expected.fields() {
            let found = schema
                .get_field(entry.name())
                .map_err(|_| format!("no field {:?}", entry.name()))?;
            if found != field
                || schema.get_field_entry(found).field_type().value_type()
                    != entry.field_type().value_type()
            {
                return Err(format!("field {:?} is of another kind", entry.name()));
            }
        }
        if schema.num_fields() != expected.num_fields() {
            return Err("other fields than this version writes".into());
        }
        Ok(fields)
    }
}

/// Registers the site's tokenizers on `index` (needed by every index
/// opened or created).
pub fn register_tokenizers(index: &Index) {
    index.tokenizers().register(WORD_TOKENIZER, word_analyzer());
    index.tokenizers().register(TEXT_TOKENIZER, text_analyzer());
}

/// The analyzer of [`WORD_TOKENIZER`].
pub fn word_analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(RawTokenizer::default())
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .build()
}

/// The analyzer of [`TEXT_TOKENIZER`].
pub fn text_analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(LONGEST_WORD))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .filter(SenseGap)
        .build()
}

/// The analyzer that makes a definition term's stem: a term of
/// `definition` (already lowercased and folded) to its English stem by
/// tantivy's stemmer (Snowball's English, "Porter 2": `tools`, `tooling`
/// -> `tool`; `happy`, `happiness` -> `happi`).
pub fn stem_analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(RawTokenizer::default())
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .filter(Stemmer::new(Language::English))
        .build()
}

/// Starts each value's positions [`SENSE_GAP`] on (see
/// [`TEXT_TOKENIZER`]).
#[derive(Clone, Copy)]
struct SenseGap;

impl TokenFilter for SenseGap {
    type Tokenizer<T: Tokenizer> = SenseGapTokenizer<T>;

    fn transform<T: Tokenizer>(self, tokenizer: T) -> SenseGapTokenizer<T> {
        SenseGapTokenizer(tokenizer)
    }
}

#[derive(Clone)]
struct SenseGapTokenizer<T>(T);

impl<T: Tokenizer> Tokenizer for SenseGapTokenizer<T> {
    type TokenStream<'a> = SenseGapStream<T::TokenStream<'a>>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> Self::TokenStream<'a> {
        SenseGapStream {
            gap: if text.starts_with(NEXT_SENSE) {
                SENSE_GAP
            } else {
                0
            },
            inner: self.0.token_stream(text),
            shifted: false,
        }
    }
}

/// The stream of [`SenseGap`]: the token is the inner stream's own,
/// whose position the inner tokenizer counts on from (the gap is taken
/// off again before it advances: "a b" is at 1024, 1025, not 1024, 2049).
struct SenseGapStream<S> {
    inner: S,
    gap: usize,
    shifted: bool,
}

impl<S: TokenStream> TokenStream for SenseGapStream<S> {
    fn advance(&mut self) -> bool {
        if self.shifted {
            self.inner.token_mut().position -= self.gap;
            self.shifted = false;
        }
        if !self.inner.advance() {
            return false;
        }
        self.inner.token_mut().position += self.gap;
        self.shifted = true;
        true
    }

    fn token(&self) -> &Token {
        self.inner.token()
    }

    fn token_mut(&mut self) -> &mut Token {
        self.inner.token_mut()
    }
}

/// The facet of a part of speech: `/noun`, ...
pub fn pos_facet(pos: Pos) -> Facet {
    Facet::from_path([pos.name()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_follow_each_other_after_the_gap() {
        let words = ["an", "edge", "tool", "for", "cutting"];
        for (text, first) in [
            ("An édge-tool, for CUTTING", 0),
            ("\u{1f}An édge-tool, for CUTTING", SENSE_GAP),
        ] {
            let mut positions = Vec::new();
            text_analyzer()
                .token_stream(text)
                .process(&mut |t| positions.push((t.position, t.text.clone())));
            let expected: Vec<(usize, String)> =
                (first..).zip(words.iter().map(|w| w.to_string())).collect();
            assert_eq!(positions, expected);
        }
    }
}
