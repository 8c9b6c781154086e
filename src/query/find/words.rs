//! The words of a query written as text: a `lexq query` line, and the
//! alternatives of an `--any` condition, read the same way by the CLI and
//! the server.

use crate::error::SplitError;

/// Splits `line` into words as a POSIX shell does, with no expansion:
/// blanks separate words; inside '...' every character is itself; inside
/// "..." a backslash keeps a following `"`, `\`, `$` or `` ` `` and is
/// itself before anything else; outside quotes a backslash keeps the next
/// character. `''` is an empty word.
///
/// ```
/// use lexq::find::split_words;
/// assert_eq!(split_words("contains AX --len 5")?, ["contains", "AX", "--len", "5"]);
/// assert_eq!(split_words(r#"pattern 'c?t' "a b" c\ d"#)?, ["pattern", "c?t", "a b", "c d"]);
/// assert!(split_words("regex 'abc").is_err());
/// # Ok::<(), lexq::find::SplitError>(())
/// ```
pub fn split_words(line: &str) -> Result<Vec<String>, SplitError> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut started = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\r' | '\n' => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            '\'' => {
                started = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(SplitError::Unclosed('\'')),
                    }
                }
            }
            '"' => {
                started = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.peek() {
                            Some(&n @ ('"' | '\\' | '$' | '`')) => {
                                word.push(n);
                                chars.next();
                            }
                            _ => word.push('\\'),
                        },
                        Some(c) => word.push(c),
                        None => return Err(SplitError::Unclosed('"')),
                    }
                }
            }
            '\\' => {
                started = true;
                match chars.next() {
                    Some(n) => word.push(n),
                    None => return Err(SplitError::TrailingBackslash),
                }
            }
            c => {
                started = true;
                word.push(c);
            }
        }
    }
    if started {
        words.push(word);
    }
    Ok(words)
}

/// The alternatives of an `--any` text: its words ([`split_words`]) cut at
/// each `--or`, each part the words of one alternative (none empty).
///
/// ```
/// use lexq::find::split_alternatives;
/// let parts = split_alternatives("--starts qu --len 5 --or --ends 'ing'")?;
/// assert_eq!(parts, [vec!["--starts", "qu", "--len", "5"], vec!["--ends", "ing"]]);
/// assert!(split_alternatives("--starts qu --or").is_err());
/// # Ok::<(), lexq::find::SplitError>(())
/// ```
pub fn split_alternatives(text: &str) -> Result<Vec<Vec<String>>, SplitError> {
    let mut parts: Vec<Vec<String>> = vec![Vec::new()];
    for w in split_words(text)? {
        if w == "--or" {
            parts.push(Vec::new());
        } else if let Some(part) = parts.last_mut() {
            part.push(w);
        }
    }
    if parts.iter().any(Vec::is_empty) {
        return Err(SplitError::EmptyAlternative);
    }
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_words() {
        let w = |s: &str| split_words(s).unwrap();
        assert_eq!(w("contains AX --len 5"), ["contains", "AX", "--len", "5"]);
        assert_eq!(
            w(r#"pattern 'c?t'  "a b" c\ d ''"#),
            ["pattern", "c?t", "a b", "c d", ""]
        );
        assert_eq!(w(r#""x\"y\\z\n" a'b'"c""#), [r#"x"y\z\n"#, "abc"]);
        assert_eq!(split_words("regex 'abc"), Err(SplitError::Unclosed('\'')));
        assert_eq!(split_words("regex \"abc"), Err(SplitError::Unclosed('"')));
        assert_eq!(
            split_words("regex abc\\"),
            Err(SplitError::TrailingBackslash)
        );
        assert!(w("   ").is_empty());
    }

    #[test]
    fn alternatives() {
        let parts = split_alternatives("--contains 'q u' --or --len 3").unwrap();
        assert_eq!(parts, [vec!["--contains", "q u"], vec!["--len", "3"]]);
        assert_eq!(split_alternatives(""), Err(SplitError::EmptyAlternative));
        assert_eq!(
            split_alternatives("--or --len 3"),
            Err(SplitError::EmptyAlternative)
        );
        assert_eq!(
            split_alternatives("a --or --or b"),
            Err(SplitError::EmptyAlternative)
        );
    }
}
