//! Stopping a command that writes (`lexq build`, `site build`, `site
//! export`) when asked to: on SIGINT (Ctrl-C), SIGTERM (`kill`, a service
//! manager stopping it) or SIGHUP (its terminal closed), what was being
//! written is removed, one line says why on stderr, and the process exits
//! with 128 + the signal's number (130, 143, 129), as a shell reports a
//! process the signal killed. What was there before stays as it was.
//!
//! `lexq serve` stops on SIGINT and SIGTERM, but drains instead of
//! cleaning up ([`stops`]): the first signal starts the drain, a second
//! one exits at once. SIGHUP asks it to reload what it serves.
//!
//! The signal handler only writes the signal's number into a pipe; a
//! thread waiting on the pipe does the rest, outside the handler.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set by the interrupt thread before it cleans up: from then on the main
/// thread must not report an error of its own (it would be the one the
/// cleanup caused) nor exit with another status.
static INTERRUPTING: AtomicBool = AtomicBool::new(false);

/// Whether an interrupt is being handled (its thread exits the process).
pub fn interrupting() -> bool {
    INTERRUPTING.load(Ordering::SeqCst)
}

/// The name of signal number `signal`, as a log line gives it.
fn name(signal: i32) -> &'static str {
    #[cfg(unix)]
    {
        match signal {
            nix::libc::SIGTERM => "SIGTERM",
            nix::libc::SIGHUP => "SIGHUP",
            _ => "SIGINT",
        }
    }
    #[cfg(not(unix))]
    {
        let _ = signal;
        "Ctrl-C"
    }
}

/// The line printed and the exit status for signal number `signal`.
fn outcome(signal: i32) -> (&'static str, i32) {
    #[cfg(unix)]
    let what = match signal {
        nix::libc::SIGTERM => "terminated",
        nix::libc::SIGHUP => "hung up",
        _ => "interrupted",
    };
    #[cfg(not(unix))]
    let what = "interrupted";
    (what, 128 + signal)
}

/// Runs `cleanup` (which removes what is being written), then exits,
/// when the process is interrupted (see the module documentation).
pub fn on_interrupt(cleanup: fn()) {
    let Some(mut signals) = platform::install() else {
        return;
    };
    std::thread::spawn(move || {
        let Some(signal) = signals.wait() else {
            return;
        };
        INTERRUPTING.store(true, Ordering::SeqCst);
        cleanup();
        let (what, code) = outcome(signal);
        // Not eprintln!: a closed stderr would end this thread, not the
        // process, and the main thread waits for it.
        say(&format!("lexq: {what}"));
        std::process::exit(code);
    });
}

/// Writes `line` to stderr; a failed write is dropped.
fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// The signals that stop a command that runs until asked to (`lexq
/// serve`), caught from the moment [`stops`] returns.
pub struct Stops(platform::Signals);

/// Catches SIGINT, SIGTERM and SIGHUP for a command that stops by itself
/// when asked (see [`Stops::first`]); `None` if they cannot be caught
/// (the process then ends as the signal's default action ends it).
pub fn stops() -> Option<Stops> {
    platform::install().map(Stops)
}

impl Stops {
    /// Waits for the first SIGINT or SIGTERM and names it (`SIGTERM`),
    /// calling `on_hangup` for each SIGHUP before it; from then on a
    /// second SIGINT or SIGTERM ends the process at once, with 128 + its
    /// number and `lexq: stopped without waiting` (a SIGHUP is ignored).
    pub fn first(mut self, mut on_hangup: impl FnMut()) -> &'static str {
        let first = loop {
            match self.0.wait() {
                Some(s) if is_hangup(s) => on_hangup(),
                Some(s) => break s,
                // The pipe failed: no signal can arrive any more.
                None => loop {
                    std::thread::park();
                },
            }
        };
        std::thread::spawn(move || {
            while let Some(second) = self.0.wait() {
                if !is_hangup(second) {
                    say("lexq: stopped without waiting");
                    std::process::exit(128 + second);
                }
            }
        });
        name(first)
    }
}

/// Whether signal number `signal` is SIGHUP.
fn is_hangup(signal: i32) -> bool {
    #[cfg(unix)]
    {
        signal == nix::libc::SIGHUP
    }
    #[cfg(not(unix))]
    {
        let _ = signal;
        false
    }
}

#[cfg(unix)]
mod platform {
    use std::io::Read;
    use std::os::fd::AsRawFd;
    use std::sync::atomic::{AtomicI32, Ordering};

    use nix::libc;
    use nix::sys::signal::{SaFlags, SigAction, SigHandler, SigSet, Signal, sigaction};

    /// The pipe's write end, for the handler (-1 until installed).
    static PIPE: AtomicI32 = AtomicI32::new(-1);

    extern "C" fn on_signal(signal: libc::c_int) {
        // Only async-signal-safe calls here: write(2), and errno kept for
        // the code the signal interrupted.
        let errno = nix::errno::Errno::last_raw();
        let byte = signal as u8;
        // SAFETY: one byte from a live local into a descriptor that stays
        // open for the life of the process; a full pipe (non-blocking)
        // drops the byte, and one is enough.
        unsafe { libc::write(PIPE.load(Ordering::SeqCst), (&raw const byte).cast(), 1) };
        nix::errno::Errno::set_raw(errno);
    }

    /// Where the signals arrive.
    pub struct Signals(std::io::PipeReader);

    impl Signals {
        /// The next signal's number, once one arrives.
        pub fn wait(&mut self) -> Option<i32> {
            let mut byte = [0u8];
            self.0.read_exact(&mut byte).ok()?;
            Some(i32::from(byte[0]))
        }
    }

    /// Installs the handler for SIGINT, SIGTERM and SIGHUP, once.
    pub fn install() -> Option<Signals> {
        let (reader, writer) = std::io::pipe().ok()?;
        let fd = writer.as_raw_fd();
        // SAFETY: fcntl on a descriptor this function owns.
        unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFL);
            libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
        }
        if PIPE
            .compare_exchange(-1, fd, Ordering::SeqCst, Ordering::SeqCst)
            .is_err()
        {
            return None; // installed before
        }
        // The write end lives as long as the process.
        std::mem::forget(writer);
        let action = SigAction::new(
            SigHandler::Handler(on_signal),
            SaFlags::SA_RESTART,
            SigSet::empty(),
        );
        for signal in [Signal::SIGINT, Signal::SIGTERM, Signal::SIGHUP] {
            // SAFETY: the handler above is async-signal-safe.
            unsafe { sigaction(signal, &action) }.ok()?;
        }
        Some(Signals(reader))
    }
}

#[cfg(not(unix))]
mod platform {
    /// Where Ctrl-C arrives.
    pub struct Signals(std::sync::mpsc::Receiver<()>);

    impl Signals {
        /// SIGINT's number once Ctrl-C is pressed.
        pub fn wait(&mut self) -> Option<i32> {
            self.0.recv().ok().map(|()| 2)
        }
    }

    /// Installs the Ctrl-C handler, once.
    pub fn install() -> Option<Signals> {
        let (tx, rx) = std::sync::mpsc::channel();
        ctrlc::set_handler(move || {
            let _ = tx.send(());
        })
        .ok()?;
        Some(Signals(rx))
    }
}
