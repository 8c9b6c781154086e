//! Extensions of a word: the words that hold it with letters added in
//! front, behind, or both, as Zyzzyva's word table lists them.
//!
//! One anchored walk: the word read right to left from the GADDAG root,
//! at most `front` letters before it, the separator, at most `back` after
//! it (an automaton on each side when the count is bounded). CARE with
//! `front 1, back 2`: SCARE, CARED, CARES, CARER, SCARED, SCARES...

use regex_syntax::hir::{Hir, Repetition};

use crate::error::{Arg, Result};
use crate::lexicon::Lexicon;
use crate::query::plan::{class_of, plan};
use crate::query::{Search, Words, tiles_of};

impl Lexicon {
    /// Extensions of `word` of every length (see [`Search::extensions`]).
    pub fn extensions(
        &self,
        word: &str,
        front: Option<usize>,
        back: Option<usize>,
    ) -> Result<Words<'_>> {
        self.search().extensions(word, front, back)
    }
}

impl<'a> Search<'a> {
    /// The words holding `word` as a block with at most `front` letters
    /// before it and at most `back` after it (`None`: any number), the
    /// word itself left out; sorted, each once. A word holding it in
    /// several places is found if one place fits.
    ///
    /// ```
    /// let lex = lexq::Lexicon::embedded();
    /// let ext = lex.extensions("zax", Some(1), Some(2))?;
    /// assert_eq!(ext.to_strings(), ["ZAXES"]);
    /// # Ok::<(), lexq::Error>(())
    /// ```
    pub fn extensions(
        &self,
        word: &str,
        front: Option<usize>,
        back: Option<usize>,
    ) -> Result<Words<'a>> {
        let lex = self.lex;
        let codes = tiles_of(lex, Arg::Word, word)?;
        let letters = lex.alphabet().letters();
        let side = |most: Option<usize>| {
            Hir::repetition(Repetition {
                min: 0,
                max: most.map(|m| m.min(crate::lexicon::gaddag::MAX_WORD_LEN) as u32),
                greedy: true,
                sub: Box::new(class_of(letters)),
            })
        };
        let mut items = Vec::with_capacity(3);
        if front != Some(0) {
            items.push(side(front));
        }
        items.push(Hir::literal(codes.clone()));
        if back != Some(0) {
            items.push(side(back));
        }
        let longest =
            codes.len() + front.unwrap_or(usize::MAX / 4) + back.unwrap_or(usize::MAX / 4);
        // Sides of at most 63 letters make small automata: no size cap is
        // reached.
        let plan = plan(items, letters).map_err(|e| {
            crate::error::Error::Query(crate::error::QueryError {
                syntax: crate::error::Syntax::Regex,
                query: word.to_string(),
                position: None,
                kind: crate::error::QueryErrorKind::TooLarge(e),
            })
        })?;
        let lens = self.lens();
        let narrowed = lex
            .search()
            .lengths(lens.min.max(codes.len() + 1), lens.max.min(longest));
        Ok(narrowed.run(&plan))
    }
}
