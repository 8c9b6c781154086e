//! A word's tantivy document as the build hands it over: its values are
//! slices of a few buffers that are reused from one word to the next, so
//! no document tree is built and no value is copied before tantivy reads
//! it.
//!
//! tantivy takes documents by value and drops them once they are indexed
//! and stored. A [`WordDoc`] shares its buffers ([`DocValues`]) with the
//! [`DocBuffer`] that filled them; when tantivy has dropped the document,
//! the buffer is the only owner again and is cleared for the next word.

use std::sync::Arc;

use tantivy::schema::document::{Document, ReferenceValue, ReferenceValueLeaf, Value};
use tantivy::schema::{Facet, Field};

/// One value of a document, where it is in [`DocValues`].
#[derive(Clone, Copy, Debug)]
enum Slot {
    /// Text at `start..end` of `DocValues::text`.
    Text(u32, u32),
    /// A facet, its encoded form at `start..end` of `DocValues::text`.
    Facet(u32, u32),
    /// The whole of `DocValues::page`.
    Page,
    /// A number.
    U64(u64),
}

/// The values of one document.
#[derive(Debug, Default)]
pub(crate) struct DocValues {
    /// Every text and facet value, one after another.
    text: String,
    /// The stored page (a buffer of its own, swapped in whole).
    page: String,
    values: Vec<(Field, Slot)>,
}

impl DocValues {
    fn clear(&mut self) {
        self.text.clear();
        self.page.clear();
        self.values.clear();
    }

    fn push_text(&mut self, s: &str) -> (u32, u32) {
        let start = self.text.len() as u32;
        self.text.push_str(s);
        (start, self.text.len() as u32)
    }

    /// Adds text value `s` of `field`.
    pub(crate) fn text(&mut self, field: Field, s: &str) {
        let (start, end) = self.push_text(s);
        self.values.push((field, Slot::Text(start, end)));
    }

    /// Adds facet `facet` of `field`.
    pub(crate) fn facet(&mut self, field: Field, facet: &Facet) {
        let (start, end) = self.push_text(facet.encoded_str());
        self.values.push((field, Slot::Facet(start, end)));
    }

    /// Adds number `n` of `field`.
    pub(crate) fn u64(&mut self, field: Field, n: u64) {
        self.values.push((field, Slot::U64(n)));
    }

    /// Makes `page` (swapped with this document's page buffer, which
    /// `page` then holds) the value of `field`.
    pub(crate) fn page(&mut self, field: Field, page: &mut String) {
        std::mem::swap(&mut self.page, page);
        self.values.push((field, Slot::Page));
    }

    fn value(&self, slot: Slot) -> DocValue<'_> {
        let text = |start: u32, end: u32| self.text.get(start as usize..end as usize);
        match slot {
            Slot::Text(start, end) => DocValue::Str(text(start, end).unwrap_or_default()),
            Slot::Facet(start, end) => DocValue::Facet(text(start, end).unwrap_or_default()),
            Slot::Page => DocValue::Str(&self.page),
            Slot::U64(n) => DocValue::U64(n),
        }
    }
}

/// The buffers of the documents one build thread makes.
#[derive(Debug, Default)]
pub(crate) struct DocBuffer(Arc<DocValues>);

impl DocBuffer {
    /// The values of the next document, cleared. Fresh buffers if
    /// tantivy still holds the last document (it never has).
    pub(crate) fn next(&mut self) -> &mut DocValues {
        if Arc::get_mut(&mut self.0).is_none() {
            self.0 = Arc::default();
        }
        let values = Arc::get_mut(&mut self.0).expect("the only owner");
        values.clear();
        values
    }

    /// The document of the values filled since [`DocBuffer::next`].
    pub(crate) fn doc(&self) -> WordDoc {
        WordDoc(Arc::clone(&self.0))
    }
}

/// A word's document, for tantivy.
#[derive(Debug)]
pub(crate) struct WordDoc(Arc<DocValues>);

/// A value of a [`WordDoc`].
#[derive(Clone, Copy, Debug)]
pub(crate) enum DocValue<'a> {
    Str(&'a str),
    Facet(&'a str),
    U64(u64),
}

impl<'a> Value<'a> for DocValue<'a> {
    type ArrayIter = std::iter::Empty<Self>;
    type ObjectIter = std::iter::Empty<(&'a str, Self)>;

    #[inline]
    fn as_value(&self) -> ReferenceValue<'a, Self> {
        ReferenceValue::Leaf(match *self {
            DocValue::Str(s) => ReferenceValueLeaf::Str(s),
            DocValue::Facet(f) => ReferenceValueLeaf::Facet(f),
            DocValue::U64(n) => ReferenceValueLeaf::U64(n),
        })
    }
}

/// The fields and values of a [`WordDoc`], in the order they were added.
pub(crate) struct Values<'a> {
    doc: &'a DocValues,
    slots: std::slice::Iter<'a, (Field, Slot)>,
}

impl<'a> Iterator for Values<'a> {
    type Item = (Field, DocValue<'a>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let &(field, slot) = self.slots.next()?;
        Some((field, self.doc.value(slot)))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.slots.size_hint()
    }
}

impl Document for WordDoc {
    type Value<'a> = DocValue<'a>;
    type FieldsValuesIter<'a> = Values<'a>;

    fn iter_fields_and_values(&self) -> Values<'_> {
        Values {
            doc: &self.0,
            slots: self.0.values.iter(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::schema::{STORED, STRING, Schema};

    /// A document reads back as the values added, and its buffers are
    /// reused once it is dropped.
    #[test]
    fn values_read_back_and_buffers_are_reused() {
        let mut b = Schema::builder();
        let (w, n, f, p) = (
            b.add_text_field("w", STRING),
            b.add_u64_field("n", STORED),
            b.add_facet_field("f", tantivy::schema::FacetOptions::default()),
            b.add_text_field("p", STORED),
        );
        let mut buf = DocBuffer::default();
        let mut page = String::from("the page");
        for round in 0..2 {
            let v = buf.next();
            v.text(w, "CARE");
            v.u64(n, 6);
            v.facet(f, &Facet::from("/noun"));
            v.text(w, "CARES");
            v.page(p, &mut page);
            let doc = buf.doc();
            let got: Vec<String> = doc
                .iter_fields_and_values()
                .map(|(field, v)| format!("{}={:?}", field.field_id(), v))
                .collect();
            assert_eq!(
                got,
                [
                    "0=Str(\"CARE\")",
                    "1=U64(6)",
                    "2=Facet(\"noun\")",
                    "0=Str(\"CARES\")",
                    if round == 0 {
                        "3=Str(\"the page\")"
                    } else {
                        "3=Str(\"\")"
                    },
                ]
            );
            let text = doc.0.text.as_ptr();
            drop(doc);
            buf.next();
            // The same buffer, no new one.
            assert_eq!(buf.0.text.as_ptr(), text);
        }
    }
}
