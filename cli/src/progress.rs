//! The build progress bar: drawn on a terminal, silent otherwise.

use std::path::Path;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress bar on stderr, or nothing when stderr is not a terminal.
pub struct Bar {
    bar: Option<ProgressBar>,
}

impl Bar {
    /// A bar that draws only if `visible`.
    pub fn new(visible: bool) -> Bar {
        let bar = visible.then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template("{spinner} {msg:>12} [{bar:40}] {percent:>3}%")
                    .expect("valid template")
                    .progress_chars("=> "),
            );
            bar.enable_steady_tick(Duration::from_millis(100));
            bar
        });
        Bar { bar }
    }

    /// Shows that `path` is being read.
    pub fn reading(&mut self, path: &Path) {
        if let Some(bar) = &self.bar {
            bar.set_message(format!("reading {}", path.display()));
        }
    }

    /// Clears the bar.
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

impl lexq::Progress for Bar {
    fn stage(&mut self, name: &'static str, total: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(0);
            bar.set_length(total);
            bar.set_message(name);
        }
    }

    fn advance(&mut self, n: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(n);
        }
    }
}
