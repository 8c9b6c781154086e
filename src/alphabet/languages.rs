//! Built-in alphabets and tile sets of more languages: Polish, German,
//! French, Dutch, Norwegian, Swedish, Slovene, Italian and Portuguese.
//!
//! Each tile set is a fact with a source: the letter counts, values and
//! blanks of the language's Scrabble edition as the public record gives
//! them (en.wikipedia.org/wiki/Scrabble_letter_distributions, the section
//! named at each set), checked against a second source: wolges's alphabet data
//! (github.com/andy-k/wolges, src/alphabets/*.txt: every count and value
//! and the zero-count letters equal, checked when these were written),
//! or where wolges has none, the one named. `tests/all/languages.rs` checks
//! each set's total tiles and points against the figures summed from the
//! source by hand.
//!
//! Alphabets list the tiles in the language's order, with accented forms
//! the game ignores as other spellings of the plain letter.

/// A language lexq knows: its alphabet file text and tile-set file text.
pub(crate) struct Language {
    /// The name (`polish`), for the alphabet and the tile set.
    pub name: &'static str,
    /// The alphabet, in the alphabet file format.
    pub alphabet: &'static str,
    /// The tile set, in the tile-set file format.
    pub tiles: &'static str,
}

/// The language named `name` (any case), if built in.
pub(crate) fn language(name: &str) -> Option<&'static Language> {
    LANGUAGES.iter().find(|l| l.name.eq_ignore_ascii_case(name))
}

/// Every built-in language of this module.
pub(crate) const LANGUAGES: &[Language] = &[
    // Polish: 32 letters, Ą Ć Ę Ł Ń Ó Ś Ź Ż tiles of their own; no Q, V or X.
    // 100 tiles, 190 points. Source:
    // en.wikipedia.org/wiki/Scrabble_letter_distributions#Polish. Second
    // source: wolges's alphabets/polish.txt (equal).
    Language {
        name: "polish",
        alphabet: "A\nĄ\nB\nC\nĆ\nD\nE\nĘ\nF\nG\nH\nI\nJ\nK\nL\nŁ\nM\nN\nŃ\nO\nÓ\nP\nR\nS\nŚ\nT\nU\nW\nY\nZ\nŹ\nŻ\n",
        tiles: "A 9 1\nĄ 1 5\nB 2 3\nC 3 2\nĆ 1 6\nD 3 2\nE 7 1\nĘ 1 5\nF 1 5\nG 2 3\nH 2 3\nI 8 1\nJ 2 3\nK 3 2\nL 3 2\nŁ 2 3\nM 3 2\nN 5 1\nŃ 1 7\nO 6 1\nÓ 1 5\nP 3 2\nR 4 1\nS 4 1\nŚ 1 5\nT 3 2\nU 2 3\nW 4 1\nY 4 2\nZ 5 1\nŹ 1 9\nŻ 1 5\n? 2 0\n",
    },
    // German: Ä, Ö and Ü are tiles of their own (not AE, OE, UE); ß is read as
    // SS; other accents are ignored. 102 tiles, 202 points. Source:
    // en.wikipedia.org/wiki/Scrabble_letter_distributions#German. Second
    // source: wolges's alphabets/german.txt (equal).
    Language {
        name: "german",
        alphabet: "A À Á Â\nÄ\nB\nC Ç\nD\nE É È Ê Ë\nF\nG\nH\nI Í Ì Î Ï\nJ\nK\nL\nM\nN Ñ\nO Ó Ò Ô\nÖ\nP\nQ\nR\nS\nT\nU Ú Ù Û\nÜ\nV\nW\nX\nY\nZ\n",
        tiles: "A 5 1\nÄ 1 6\nB 2 3\nC 2 4\nD 4 1\nE 15 1\nF 2 4\nG 3 2\nH 4 2\nI 6 1\nJ 1 6\nK 2 4\nL 3 2\nM 4 3\nN 9 1\nO 3 2\nÖ 1 8\nP 1 4\nQ 1 10\nR 6 1\nS 7 1\nT 6 1\nU 6 1\nÜ 1 6\nV 1 6\nW 1 3\nX 1 8\nY 1 10\nZ 1 3\n? 2 0\n",
    },
    // French: accents and the cedilla are ignored (É is E, Ç is C). 102 tiles,
    // 197 points. Source:
    // en.wikipedia.org/wiki/Scrabble_letter_distributions#French. Second
    // source: wolges's alphabets/french.txt (equal).
    Language {
        name: "french",
        alphabet: "A À Â Ä\nB\nC Ç\nD\nE É È Ê Ë\nF\nG\nH\nI Î Ï\nJ\nK\nL\nM\nN\nO Ô Ö\nP\nQ\nR\nS\nT\nU Ù Û Ü\nV\nW\nX\nY Ÿ\nZ\n",
        tiles: "A 9 1\nB 2 3\nC 2 3\nD 3 2\nE 15 1\nF 2 4\nG 2 2\nH 2 4\nI 8 1\nJ 1 8\nK 1 10\nL 5 1\nM 3 2\nN 6 1\nO 6 1\nP 2 3\nQ 1 8\nR 6 1\nS 6 1\nT 6 1\nU 6 1\nV 2 4\nW 1 10\nX 1 10\nY 1 10\nZ 1 10\n? 2 0\n",
    },
    // Dutch: IJ is two tiles, I and J; accents are ignored. 102 tiles, 230
    // points. Source:
    // en.wikipedia.org/wiki/Scrabble_letter_distributions#Dutch. Second
    // source: wolges's alphabets/dutch.txt (equal).
    Language {
        name: "dutch",
        alphabet: "A Á À Ä\nB\nC\nD\nE É È Ê Ë\nF\nG\nH\nI Í Ï\nJ\nK\nL\nM\nN\nO Ó Ö\nP\nQ\nR\nS\nT\nU Ú Ü\nV\nW\nX\nY\nZ\n",
        tiles: "A 6 1\nB 2 3\nC 2 5\nD 5 2\nE 18 1\nF 2 4\nG 3 3\nH 2 4\nI 4 1\nJ 2 4\nK 3 3\nL 3 3\nM 3 3\nN 10 1\nO 6 1\nP 2 3\nQ 1 10\nR 5 2\nS 5 2\nT 5 2\nU 3 4\nV 2 4\nW 2 5\nX 1 8\nY 1 8\nZ 2 4\n? 2 0\n",
    },
    // Norwegian: Æ, Ø and Å after Z; Q, X, Z, Ü, Ä and Ö are in the alphabet
    // (loanwords) with no tiles: only a blank plays them. 100 tiles, 202
    // points. Source:
    // en.wikipedia.org/wiki/Scrabble_letter_distributions#Norwegian. Second
    // source: wolges's alphabets/norwegian.txt (equal).
    Language {
        name: "norwegian",
        alphabet: "A À\nB\nC\nD\nE É È Ê\nF\nG\nH\nI\nJ\nK\nL\nM\nN\nO Ó Ò Ô\nP\nQ\nR\nS\nT\nU\nV\nW\nX\nY\nÜ\nZ\nÆ\nÄ\nØ\nÖ\nÅ\n",
        tiles: "A 7 1\nB 3 4\nC 1 10\nD 5 1\nE 9 1\nF 4 2\nG 4 2\nH 3 3\nI 5 1\nJ 2 4\nK 4 2\nL 5 1\nM 3 2\nN 6 1\nO 4 2\nP 2 4\nQ 0 0\nR 6 1\nS 6 1\nT 6 1\nU 3 4\nV 3 4\nW 1 8\nX 0 0\nY 1 6\nÜ 0 0\nZ 0 0\nÆ 1 6\nÄ 0 0\nØ 2 5\nÖ 0 0\nÅ 2 4\n? 2 0\n",
    },
    // Swedish: Å, Ä and Ö after Z; Q, W, Ü and Æ are in the alphabet with no
    // tiles: only a blank plays them. 100 tiles, 194 points. Source:
    // en.wikipedia.org/wiki/Scrabble_letter_distributions#Swedish. Second
    // source: wolges's alphabets/swedish.txt (equal).
    Language {
        name: "swedish",
        alphabet: "A\nB\nC\nD\nE É È\nF\nG\nH\nI\nJ\nK\nL\nM\nN\nO\nP\nQ\nR\nS\nT\nU\nV\nW\nX\nY\nÜ\nZ\nÅ\nÄ\nÆ\nÖ\n",
        tiles: "A 8 1\nB 2 4\nC 1 8\nD 5 1\nE 7 1\nF 2 3\nG 3 2\nH 2 2\nI 5 1\nJ 1 7\nK 3 2\nL 5 1\nM 3 2\nN 6 1\nO 5 2\nP 2 4\nQ 0 0\nR 8 1\nS 8 1\nT 8 1\nU 3 4\nV 2 3\nW 0 0\nX 1 8\nY 1 7\nÜ 0 0\nZ 1 10\nÅ 2 4\nÄ 2 3\nÆ 0 0\nÖ 2 4\n? 2 0\n",
    },
    // Slovene: Č, Š and Ž tiles of their own; Q, W, X and Y are in the
    // alphabet with no tiles: only a blank plays them. 100 tiles, 180 points.
    // Source: en.wikipedia.org/wiki/Scrabble_letter_distributions#Slovenian.
    // Second source: wolges's alphabets/slovene.txt (equal).
    Language {
        name: "slovene",
        alphabet: "A\nB\nC\nČ\nD\nE\nF\nG\nH\nI\nJ\nK\nL\nM\nN\nO\nP\nQ\nR\nS\nŠ\nT\nU\nV\nW\nX\nY\nZ\nŽ\n",
        tiles: "A 10 1\nB 2 4\nC 1 8\nČ 1 5\nD 4 2\nE 11 1\nF 1 10\nG 2 4\nH 1 5\nI 9 1\nJ 4 1\nK 3 3\nL 4 1\nM 2 3\nN 7 1\nO 8 1\nP 2 3\nQ 0 0\nR 6 1\nS 6 1\nŠ 1 6\nT 4 1\nU 2 3\nV 4 2\nW 0 0\nX 0 0\nY 0 0\nZ 2 4\nŽ 1 10\n? 2 0\n",
    },
    // Italian (the Mattel/Spear's edition, 120 tiles): 21 letters, no J, K, W,
    // X or Y; accents are ignored. 120 tiles, 293 points. Source:
    // en.wikipedia.org/wiki/Scrabble_letter_distributions#Italian. wolges has
    // no Italian set; second source: the Spear's spreadsheet quoted at
    // gtoal.com/scrabble/details/italian (the same 120 tiles and values).
    Language {
        name: "italian",
        alphabet: "A À Á\nB\nC\nD\nE È É\nF\nG\nH\nI Ì Í Î\nL\nM\nN\nO Ò Ó\nP\nQ\nR\nS\nT\nU Ù Ú\nV\nZ\n",
        tiles: "A 14 1\nB 3 5\nC 6 2\nD 3 5\nE 11 1\nF 3 5\nG 2 8\nH 2 8\nI 12 1\nL 5 3\nM 5 3\nN 5 3\nO 15 1\nP 3 5\nQ 1 10\nR 6 2\nS 6 2\nT 6 2\nU 5 3\nV 3 5\nZ 2 8\n? 2 0\n",
    },
    // Portuguese (120 tiles, three blanks): Ç a tile of its own, no K, W or Y;
    // other accents are ignored. 120 tiles, 204 points. Source:
    // en.wikipedia.org/wiki/Scrabble_letter_distributions#Portuguese. wolges
    // has no Portuguese set; second source: the rules summary at
    // scrabble3d.info (120 tiles, no K, W or Y) and an independent
    // implementation's bag (github.com/guzzt/Scrabble, letterbag.py: the
    // same counts and values).
    Language {
        name: "portuguese",
        alphabet: "A Á À Â Ã\nB\nC\nÇ\nD\nE É Ê\nF\nG\nH\nI Í\nJ\nL\nM\nN\nO Ó Ô Õ\nP\nQ\nR\nS\nT\nU Ú Ü\nV\nX\nZ\n",
        tiles: "A 14 1\nB 3 3\nC 4 2\nÇ 2 3\nD 5 2\nE 11 1\nF 2 4\nG 2 4\nH 2 4\nI 10 1\nJ 2 5\nL 5 2\nM 6 1\nN 4 3\nO 10 1\nP 4 2\nQ 1 6\nR 6 1\nS 8 1\nT 5 1\nU 7 1\nV 2 4\nX 1 8\nZ 1 8\n? 3 0\n",
    },
];
