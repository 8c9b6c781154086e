//! The Damerau-Levenshtein distance, written for the tests' oracles
//! (`lexq suggest` in tests/all/lexicon_ops.rs and the server's suggest in
//! site/tests/find.rs, which include this file by path; its name is from
//! when the distance was the optimal string alignment): the fewest
//! insertions, deletions, substitutions and swaps of two neighbours, each
//! 1, by a full table with a border row and column (Lowrance and Wagner).
//! tests/all/lexicon_ops.rs checks it against a breadth-first search of the
//! edits themselves.

/// The distance between `a` and `b`.
pub fn distance(a: &[u8], b: &[u8]) -> usize {
    let (n, m) = (a.len(), b.len());
    let far = n + m;
    // d[i + 1][j + 1] is the distance of a[..i] and b[..j]; row and
    // column 0 are the border, `far`.
    let mut d = vec![vec![far; m + 2]; n + 2];
    for i in 0..=n {
        d[i + 1][1] = i;
    }
    for j in 0..=m {
        d[1][j + 1] = j;
    }
    // The last row (1-based) of a that held each letter.
    let mut last_row = [0usize; 256];
    for i in 1..=n {
        let mut last_col = 0;
        for j in 1..=m {
            let k = last_row[b[j - 1] as usize];
            let l = last_col;
            let cost = if a[i - 1] == b[j - 1] {
                last_col = j;
                0
            } else {
                1
            };
            d[i + 1][j + 1] = (d[i][j] + cost)
                .min(d[i + 1][j] + 1)
                .min(d[i][j + 1] + 1)
                .min(d[k][l] + (i - k - 1) + 1 + (j - l - 1));
        }
        last_row[a[i - 1] as usize] = i;
    }
    d[n + 1][m + 1]
}
