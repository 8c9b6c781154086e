//! What a command returns: its exit status, or a [`Failure`] to report.
//! A leaf: it imports nothing of the crate.

/// Exit status: something found.
pub const FOUND: u8 = 0;
/// Exit status: nothing found.
pub const NOT_FOUND: u8 = 1;
/// Exit status: an error.
pub const ERROR: u8 = 2;

/// An error for the user: a library error or a failed write to stdout.
pub type Failure = Box<dyn std::error::Error>;

/// The exit status of an answer: found something or not.
pub fn status(found: bool) -> u8 {
    if found { FOUND } else { NOT_FOUND }
}
