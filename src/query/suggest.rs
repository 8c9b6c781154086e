//! "Did you mean": the words nearest a string by edit distance.
//!
//! One walk of every word from its first letter (the GADDAG key
//! `w1 SEP w2 ... wn`), keeping the row of the edit-distance table for the
//! prefix read so far against the query; a prefix whose row holds nothing
//! within the distance asked is left, with everything below it. For QUIKC
//! at distance 2, the prefix QU keeps going (row 1 0 1 2 3 4 ...), XY stops
//! at once. Distances count tiles: the fewest insertions, deletions,
//! substitutions of one tile and swaps of two neighbours that make one
//! word of the other, each 1 (the Damerau-Levenshtein distance: QIUCK is 1
//! from QUICK, as a typist would count it, and LEU 2 from LUGE, G deleted
//! then U and E swapped; the optimal-string-alignment distance, which
//! edits no letter twice, says 3).

use crate::error::{Arg, Result};
use crate::lexicon::Lexicon;
use crate::lexicon::gaddag::MAX_WORD_LEN;
use crate::lexicon::raw::Node;
use crate::query::probability::Bag;
use crate::query::tiles_of;

/// The largest edit distance [`Lexicon::suggest`] searches.
pub const MAX_DISTANCE: u8 = 3;

/// A word near the query.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Suggestion {
    /// The word's tiles.
    pub codes: Vec<u8>,
    /// Its edit distance to the query, in tiles (1 or more).
    pub distance: u8,
}

/// Orders suggestions as `lexq suggest` lists them: nearest first, then
/// most probable (the chance of drawing the word's tiles from `bag`'s full
/// bag; 0 without a bag, or for a word it cannot supply), then alphabet
/// order. Each comes with that probability.
///
/// ```
/// use lexq::probability::Bag;
/// let lex = lexq::Lexicon::embedded();
/// let bag = Bag::new(&lexq::TileSet::named("english", lex.alphabet())?);
/// let ranked = lexq::suggest::rank(lex.suggest("qat", 1)?, Some(&bag));
/// let words: Vec<String> = ranked.iter().map(|(s, _)| lex.alphabet().decode(&s.codes)).collect();
/// assert_eq!(words[..3], ["AT", "EAT", "OAT"]); // one edit, most probable first
/// # Ok::<(), lexq::Error>(())
/// ```
pub fn rank(found: Vec<Suggestion>, bag: Option<&Bag>) -> Vec<(Suggestion, f64)> {
    let mut ranked: Vec<(Suggestion, f64)> = found
        .into_iter()
        .map(|s| {
            let p = bag.and_then(|b| b.probability(&s.codes)).unwrap_or(0.0);
            (s, p)
        })
        .collect();
    ranked.sort_by(|(a, pa), (b, pb)| {
        a.distance
            .cmp(&b.distance)
            .then_with(|| pb.total_cmp(pa))
            .then_with(|| a.codes.cmp(&b.codes))
    });
    ranked
}

impl Lexicon {
    /// Every word within `max_distance` edits of `word` (insertions,
    /// deletions, substitutions of a tile, swaps of two neighbouring
    /// tiles; at most [`MAX_DISTANCE`]), the
    /// word itself left out, in alphabet order. Rank them as you like:
    /// `lexq suggest` puts the nearest first, then the most probable.
    ///
    /// ```
    /// let lex = lexq::Lexicon::embedded();
    /// let near = lex.suggest("qiuck", 2)?;
    /// let words: Vec<String> = near.iter().map(|s| lex.alphabet().decode(&s.codes)).collect();
    /// assert!(words.contains(&"QUICK".to_string()));
    /// assert!(near.iter().all(|s| s.distance <= 2));
    /// # Ok::<(), lexq::Error>(())
    /// ```
    pub fn suggest(&self, word: &str, max_distance: u8) -> Result<Vec<Suggestion>> {
        let query = tiles_of(self, Arg::Word, word)?;
        let max = max_distance.min(MAX_DISTANCE);
        let mut out = Vec::new();
        let mut found = |codes: &[u8], d: u8| {
            if d > 0 {
                out.push(Suggestion {
                    codes: codes.to_vec(),
                    distance: d,
                });
            }
        };
        walk(self.arcs().root(), &query, max, &mut found);
        Ok(out)
    }
}

/// The edit-distance rows of a walk: row `i` is the distance from the
/// first `i` letters read to each prefix of the query (Lowrance and
/// Wagner's table for the Damerau-Levenshtein distance: a swap reaches
/// back to the last row holding the query's letter and the last column
/// holding the word's).
struct Rows<'q> {
    query: &'q [u8],
    rows: [[u8; MAX_WORD_LEN + 1]; MAX_WORD_LEN + 1],
    /// The least value of each row filled.
    least: [u8; MAX_WORD_LEN + 1],
    word: [u8; MAX_WORD_LEN],
    max: u8,
}

impl Rows<'_> {
    /// Fills row `i` (`i` letters read, the last `c`); returns whether
    /// this word or a longer one may still come within the distance: a
    /// value of a later row is at least some row `r`'s least value plus
    /// `i - r` (a swap from row `r` deletes the word's letters between).
    fn push(&mut self, i: usize, c: u8) -> bool {
        let m = self.query.len();
        self.word[i - 1] = c;
        // The last row (1-based, 0 for none) before `i` of each letter.
        let mut last_row = [0u8; 64];
        for (k, &w) in self.word[..i - 1].iter().enumerate() {
            last_row[w as usize & 63] = k as u8 + 1;
        }
        let (done, rest) = self.rows.split_at_mut(i);
        let prev = &done[i - 1];
        let row = &mut rest[0];
        row[0] = i as u8;
        let mut least = row[0];
        // The last column before `j` whose query letter is `c`.
        let mut last_col = 0usize;
        for j in 1..=m {
            let q = self.query[j - 1];
            let mut v = (prev[j - 1] + u8::from(q != c))
                .min(prev[j] + 1)
                .min(row[j - 1] + 1);
            // A swap: the query's letter `q` last read in row `k`, the
            // word's letter `c` last in the query's column `l`; the letters
            // between deleted (rows) and inserted (columns).
            let k = last_row[q as usize & 63] as usize;
            let l = last_col;
            if k > 0 && l > 0 {
                let between = (i - k - 1) + (j - l - 1);
                v = v.min(done[k - 1][l - 1].saturating_add(1 + between as u8));
            }
            if q == c {
                last_col = j;
            }
            row[j] = v;
            least = least.min(v);
        }
        self.least[i] = least;
        (0..=i).any(|r| self.least[r] as usize + (i - r) <= self.max as usize)
    }

    fn distance(&self, i: usize) -> u8 {
        self.rows[i][self.query.len()]
    }
}

fn walk(root: Node<'_>, query: &[u8], max: u8, found: &mut dyn FnMut(&[u8], u8)) {
    let m = query.len();
    let mut rows = Rows {
        query,
        rows: [[0; MAX_WORD_LEN + 1]; MAX_WORD_LEN + 1],
        least: [0; MAX_WORD_LEN + 1],
        word: [0; MAX_WORD_LEN],
        max,
    };
    for j in 0..=m {
        rows.rows[0][j] = j as u8;
    }
    let longest = (m + max as usize).min(MAX_WORD_LEN);
    for edge in root.within(!1) {
        let c = edge.code();
        if !rows.push(1, c) {
            continue;
        }
        let (at, word) = (edge.target(), edge.accepts());
        if word && rows.distance(1) <= max {
            found(&rows.word[..1], rows.distance(1));
        }
        if longest > 1 {
            if let Some(sep) = at.separator() {
                rest(sep, 1, longest, &mut rows, found);
            }
        }
    }
}

/// The letters after the first `i`, left to right.
fn rest(
    at: Node<'_>,
    i: usize,
    longest: usize,
    rows: &mut Rows<'_>,
    found: &mut dyn FnMut(&[u8], u8),
) {
    for edge in at.within(!1) {
        let c = edge.code();
        if !rows.push(i + 1, c) {
            continue;
        }
        let (child, word) = (edge.target(), edge.accepts());
        let d = rows.distance(i + 1);
        if word && d <= rows.max {
            found(&rows.word[..i + 1], d);
        }
        if i + 1 < longest {
            rest(child, i + 1, longest, rows, found);
        }
    }
}
