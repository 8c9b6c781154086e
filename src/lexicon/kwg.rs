//! Reading wolges's `.kwg` files as a word source ([`WordList::read_kwg`]),
//! so that a bot author with only a `.kwg` can build a lexq lexicon.
//!
//! The format, as wolges's `kwg.rs` and `build.rs` describe it: a `.kwg` is
//! an array of 32-bit little-endian nodes. A node's bits 0-21 are the index
//! of its first child (0: no children), bit 22 marks the last node of a
//! list of siblings, bit 23 that the path to it spells a word, bits 24-31
//! are its tile (1 for the alphabet's first letter; 0 is the GADDAG's
//! separator). Node 0 points to the list of the DAWG's first letters (node
//! 1 to the GADDAG's, which this reader does not need). The tiles carry no
//! letters: they are read in the order of the alphabet given, which must
//! be the one the file was built with (wolges's alphabets and lexq's
//! built-in ones list their letters in the same order). wolges's other
//! layout, `Node24` (the tile in the low bits), is not read.
//!
//! A damaged or crafted file is an error, never a hang or a panic: every
//! index is checked, a sibling list must end before the file does, a word
//! may not be longer than [`MAX_WORD_LEN`], a tile must be a letter of the
//! alphabet, and the tiles read are capped at [`MAX_INPUT_BYTES`].

use std::path::Path;

use crate::error::{Error, Result};
use crate::files::capped::{MAX_INPUT_BYTES, read_file};
use crate::lexicon::gaddag::MAX_WORD_LEN;
use crate::lexicon::wordlist::WordList;

/// A node's first child.
fn arc(node: u32) -> usize {
    (node & 0x3f_ffff) as usize
}

fn is_end(node: u32) -> bool {
    node & 0x40_0000 != 0
}

fn accepts(node: u32) -> bool {
    node & 0x80_0000 != 0
}

fn tile(node: u32) -> u8 {
    (node >> 24) as u8
}

/// Calls `f` with every word of the DAWG of `bytes`, as tile numbers, in
/// the file's order.
fn each_word(
    bytes: &[u8],
    letters: usize,
    mut f: impl FnMut(&[u8]) -> std::result::Result<(), String>,
) -> std::result::Result<(), String> {
    if bytes.len() % 4 != 0 {
        return Err(format!(
            "{} bytes, not a whole number of 4-byte nodes",
            bytes.len()
        ));
    }
    let n = bytes.len() / 4;
    let get = |p: usize| -> std::result::Result<u32, String> {
        match bytes.get(4 * p..4 * p + 4) {
            Some(b) => Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            None => Err(format!("node {p} is past the end of the file ({n} nodes)")),
        }
    };
    let root = arc(get(0)?);
    if root == 0 {
        return Ok(()); // no words
    }
    // The node at each depth of the walk; the word spelled down to it.
    let mut stack = vec![root];
    let mut word: Vec<u8> = Vec::with_capacity(MAX_WORD_LEN);
    while let Some(&p) = stack.last() {
        let node = get(p)?;
        let t = tile(node);
        if t == 0 || t as usize > letters {
            return Err(format!(
                "node {p}: tile {t} is not a letter of the alphabet (1 to {letters})"
            ));
        }
        word.truncate(stack.len() - 1);
        word.push(t);
        if accepts(node) {
            f(&word)?;
        }
        let child = arc(node);
        if child != 0 {
            if stack.len() >= MAX_WORD_LEN {
                return Err(format!(
                    "node {p}: a word longer than {MAX_WORD_LEN} tiles (or a cycle)"
                ));
            }
            stack.push(child);
            continue;
        }
        // Next sibling, else back up to the parent's next sibling.
        while let Some(p) = stack.pop() {
            if !is_end(get(p)?) {
                stack.push(p + 1);
                break;
            }
        }
    }
    Ok(())
}

impl WordList {
    /// Reads the words of a wolges `.kwg` file (see the module
    /// documentation), its tile numbers read as this list's alphabet's
    /// codes; `source` names it in messages. The length range applies as
    /// for a text word list.
    ///
    /// ```
    /// use lexq::{Alphabet, WordList};
    /// // A DAWG of AB and B: node 0 points to node 2; 2 is A (with
    /// // child 4), 3 is B (a word, last sibling), 4 is B (a word, last).
    /// let node = |tile: u32, word: bool, end: bool, child: u32| {
    ///     (tile << 24) | (u32::from(word) << 23) | (u32::from(end) << 22) | child
    /// };
    /// let nodes = [node(0, false, true, 2), node(0, false, true, 0),
    ///              node(1, false, false, 4), node(2, true, true, 0), node(2, true, true, 0)];
    /// let bytes: Vec<u8> = nodes.iter().flat_map(|n| n.to_le_bytes()).collect();
    /// let mut list = WordList::new(Alphabet::english());
    /// list.read_kwg("tiny.kwg".as_ref(), &bytes)?;
    /// assert_eq!(list.len(), 2);
    /// # Ok::<(), lexq::Error>(())
    /// ```
    pub fn read_kwg(&mut self, source: &Path, bytes: &[u8]) -> Result<()> {
        let letters = self.alphabet().len();
        let mut tiles = 0u64;
        each_word(bytes, letters, |w| {
            tiles += w.len() as u64;
            if tiles > MAX_INPUT_BYTES {
                return Err(format!(
                    "more than {MAX_INPUT_BYTES} tiles of words (a crafted file?)"
                ));
            }
            self.push_codes(w);
            Ok(())
        })
        .map_err(|message| Error::Kwg {
            path: source.to_path_buf(),
            message,
        })
    }

    /// [`WordList::read_kwg`] of the file at `path` (a regular file of
    /// at most 256 MiB).
    pub fn read_kwg_path(&mut self, path: &Path) -> Result<()> {
        let bytes = read_file(path, MAX_INPUT_BYTES, "a .kwg file")?;
        self.note_source(path);
        self.read_kwg(path, &bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alphabet::Alphabet;

    fn node(tile: u32, word: bool, end: bool, child: u32) -> [u8; 4] {
        ((tile << 24) | (u32::from(word) << 23) | (u32::from(end) << 22) | child).to_le_bytes()
    }

    #[test]
    fn damaged_files_are_errors() {
        let en = || WordList::new(Alphabet::english());
        let read = |bytes: &[u8]| en().read_kwg(Path::new("t.kwg"), bytes);
        // Not whole nodes; a root past the end; a list without an end;
        // a tile past Z; a cycle.
        assert!(read(&[0, 0, 0]).is_err());
        assert!(read(&node(0, false, true, 9)).is_err());
        let open: Vec<u8> = [node(0, false, true, 1), node(1, true, false, 0)].concat();
        assert!(
            read(&open)
                .unwrap_err()
                .to_string()
                .contains("past the end")
        );
        let wide: Vec<u8> = [node(0, false, true, 1), node(27, true, true, 0)].concat();
        assert!(read(&wide).unwrap_err().to_string().contains("tile 27"));
        let cycle: Vec<u8> = [node(0, false, true, 1), node(1, true, true, 1)].concat();
        assert!(
            read(&cycle)
                .unwrap_err()
                .to_string()
                .contains("longer than")
        );
        // An empty DAWG holds no words.
        let mut l = en();
        l.read_kwg(Path::new("t"), &node(0, false, true, 0))
            .unwrap();
        assert!(l.is_empty());
    }
}
