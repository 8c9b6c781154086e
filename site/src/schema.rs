//! The site index's schema: one tantivy document per lexicon word.
//!
//! | field | kind | |
//! |---|---|---|
//! | `word` | raw text, stored | the word, uppercase (searched case-insensitively) |
//! | `length` | u64, stored, fast, indexed | tiles |
//! | `alphagram` | raw text | the letters sorted |
//! | `points` | u64, stored, fast | tile points |
//! | `definition` | text with positions | one value per sense |
//! | `page` | stored text | the rest of the word page: senses (part of speech, definition, examples, synonyms, base form, source), alphagram, hooks, anagrams, base forms (see `stored.rs`) |
//! | `pos` | facet | `/noun`, `/verb`, `/adjective`, `/adverb`, once per part of speech the word has |
//! | `senses` | u64, stored, fast | the number of senses |
//! | `base_form` | raw text | base forms of an inflection |
//! | `front_hooks`, `back_hooks` | raw text | one value per hook letter |
//! | `anagrams` | raw text | the word's anagrams |
//! | `frequency` | u64, stored, fast | how common the word is (see `frequency.rs`; 0: unknown) |
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
use tantivy::tokenizer::{LowerCaser, RawTokenizer, TextAnalyzer};

use crate::wordnet::Pos;

/// The tokenizer of the raw fields: the whole value, lowercased.
pub const WORD_TOKENIZER: &str = "lexq_word";

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
                .set_tokenizer("default")
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

/// Registers the tokenizer of the raw fields on `index` (needed by every
/// index opened or created).
pub fn register_tokenizers(index: &Index) {
    index.tokenizers().register(
        WORD_TOKENIZER,
        TextAnalyzer::builder(RawTokenizer::default())
            .filter(LowerCaser)
            .build(),
    );
}

/// The facet of a part of speech: `/noun`, ...
pub fn pos_facet(pos: Pos) -> Facet {
    Facet::from_path([pos.name()])
}
