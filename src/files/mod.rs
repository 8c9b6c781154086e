//! Process plumbing shared by lexq's own programs (the `lexq` command and
//! the site): reading with a size cap, refusing FIFOs and devices where a
//! file is expected, replacing files atomically, and the [`FilePolicy`]
//! that decides which files a position or a request may name.
//!
//! Nothing here is about words; it sits below every layer.
//!
//! ```
//! let bytes = lexq::files::read_capped(&b"cat\n"[..], "stdin".as_ref(), 16, "word list")?;
//! assert_eq!(bytes, b"cat\n");
//! # Ok::<(), lexq::Error>(())
//! ```

pub(crate) mod capped;
pub(crate) mod policy;
pub(crate) mod replace;

pub use capped::{MAX_INPUT_BYTES, open_regular, read_capped, read_file};
pub use policy::FilePolicy;
pub use replace::{check_output, remove_temp_files, replace_with};
