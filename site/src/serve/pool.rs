//! Where queries run: light ones on tokio's blocking pool; heavy ones,
//! the estimates of searches, and the quick estimates of clients that
//! already have work under way (triage), on a few threads of their own at
//! a lower priority, each class behind its own cap. A queue of heavy
//! requests then never holds up a word page, a flood of searches to
//! estimate holds up neither, and while heavy work runs the scheduler
//! gives the cores to light work first.

use std::panic::AssertUnwindSafe;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use tokio::sync::{Semaphore, oneshot};
use tokio::time::Instant;

/// Why a query gave no answer.
#[derive(Debug)]
pub(crate) enum Failed {
    /// No turn before the deadline, or not done by it.
    Busy,
    /// It panicked (the message).
    Panicked(String),
}

/// Which pool a job runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    /// A light query: tokio's blocking pool.
    Light,
    /// A heavy query: the heavy threads.
    Heavy,
    /// Working out what a search will cost before it is let in: threads
    /// of their own, as low in priority as the heavy ones (the work is
    /// short, but anyone can ask for it, as often as they like).
    Estimate,
    /// The quick first estimate of a search from a client that already
    /// has heavy work or an estimate under way: one thread of its own,
    /// as low in priority, so that such clients, retrying as fast as they
    /// are refused, never take the light pool's turns or its cores.
    Triage,
}

type Job = Box<dyn FnOnce() + Send + 'static>;

/// A few threads at a lower priority, taking jobs from one queue, behind
/// a cap.
struct Niced {
    cap: Arc<Semaphore>,
    jobs: Mutex<mpsc::Sender<Job>>,
}

impl Niced {
    /// `n` threads (at least one) named `name-0`, `name-1`...
    fn new(name: &str, n: usize) -> Niced {
        let n = n.max(1);
        let (tx, rx) = mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..n {
            let rx = rx.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("{name}-{i}"))
                .spawn(move || {
                    lower_priority();
                    loop {
                        // The lock is held only while waiting for a job.
                        let job = match rx.lock() {
                            Ok(rx) => rx.recv(),
                            Err(_) => return,
                        };
                        match job {
                            Ok(job) => job(),
                            // The pools are gone.
                            Err(_) => return,
                        }
                    }
                });
            // Without a thread of its own, the work still runs (below).
            drop(spawned);
        }
        Niced {
            cap: Arc::new(Semaphore::new(n)),
            jobs: Mutex::new(tx),
        }
    }

    /// Queues `job` for the threads; on the blocking pool if none could be
    /// started.
    fn send(&self, job: Job) {
        let sent = match self.jobs.lock() {
            Ok(jobs) => jobs.send(job).map_err(|e| e.0),
            Err(_) => Err(job),
        };
        if let Err(job) = sent {
            tokio::task::spawn_blocking(job);
        }
    }
}

/// The four pools.
pub(crate) struct Pools {
    light: Arc<Semaphore>,
    heavy: Niced,
    estimate: Niced,
    triage: Niced,
}

/// How much nicer heavy threads are than the process: one step of nice is
/// about 10% less CPU share; 10 steps lower, a heavy thread gets about a
/// tenth of what a light one gets when both want a core.
const HEAVY_NICE: i32 = 10;

impl Pools {
    /// `light` queries at once on the blocking pool; `heavy` threads for
    /// heavy queries, as many for estimates, and one for triage.
    pub(crate) fn new(light: usize, heavy: usize) -> Pools {
        Pools {
            light: Arc::new(Semaphore::new(light.max(1))),
            heavy: Niced::new("lexq-heavy", heavy),
            estimate: Niced::new("lexq-estimate", heavy),
            triage: Niced::new("lexq-triage", 1),
        }
    }

    /// The turns of the heavy pool not taken now (for the metrics).
    pub(crate) fn heavy_free(&self) -> usize {
        self.heavy.cap.available_permits()
    }

    /// Runs `f` in the pool of `class` once it has a turn, by `deadline`.
    /// `hold` is kept until `f` has finished (even past the deadline), as
    /// is the pool's turn: a query that overruns keeps its place taken, so
    /// overruns cannot pile up.
    pub(crate) async fn run<T, H>(
        &self,
        class: Class,
        deadline: Instant,
        hold: H,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Failed>
    where
        T: Send + 'static,
        H: Send + 'static,
    {
        let sem = match class {
            Class::Light => &self.light,
            Class::Heavy => &self.heavy.cap,
            Class::Estimate => &self.estimate.cap,
            Class::Triage => &self.triage.cap,
        };
        let permit = tokio::time::timeout_at(deadline, sem.clone().acquire_owned())
            .await
            .map_err(|_| Failed::Busy)?
            .map_err(|_| Failed::Busy)?;
        if Instant::now() >= deadline {
            return Err(Failed::Busy);
        }
        let (tx, rx) = oneshot::channel();
        let job = move || {
            let out = std::panic::catch_unwind(AssertUnwindSafe(f));
            drop((permit, hold));
            let _ = tx.send(out.map_err(|p| panic_message(&*p)));
        };
        match class {
            Class::Light => drop(tokio::task::spawn_blocking(job)),
            Class::Heavy => self.heavy.send(Box::new(job)),
            Class::Estimate => self.estimate.send(Box::new(job)),
            Class::Triage => self.triage.send(Box::new(job)),
        }
        match tokio::time::timeout_at(deadline, rx).await {
            Err(_) => Err(Failed::Busy),
            Ok(Err(_)) => Err(Failed::Panicked("the query's thread ended".into())),
            Ok(Ok(Ok(t))) => Ok(t),
            Ok(Ok(Err(msg))) => Err(Failed::Panicked(msg)),
        }
    }
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into())
}

/// Lowers the calling thread's scheduling priority by [`HEAVY_NICE`]
/// (Linux: a thread's own nice value, at most 19); elsewhere, or refused,
/// nothing changes.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: getpriority and setpriority with PRIO_PROCESS and 0 read and
    // change only the calling thread's nice value on Linux; they touch no
    // memory of ours.
    unsafe {
        let now = libc::getpriority(libc::PRIO_PROCESS, 0);
        libc::setpriority(libc::PRIO_PROCESS, 0, (now + HEAVY_NICE).min(19));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn answers_panics_and_deadlines() {
        let pools = Pools::new(1, 1);
        let soon = || Instant::now() + Duration::from_secs(5);
        for class in [Class::Light, Class::Heavy, Class::Estimate, Class::Triage] {
            assert_eq!(pools.run(class, soon(), (), || 7).await.unwrap(), 7);
            match pools
                .run(class, soon(), (), move || -> u8 {
                    panic!("boom {class:?}")
                })
                .await
            {
                Err(Failed::Panicked(m)) => assert_eq!(m, format!("boom {class:?}")),
                other => panic!("{other:?}"),
            }
            // The pool still answers after a panic.
            assert_eq!(pools.run(class, soon(), (), || 8).await.unwrap(), 8);
            // Past its deadline: busy; its turn stays taken until it ends.
            let slow = pools.run(
                class,
                Instant::now() + Duration::from_millis(50),
                (),
                || std::thread::sleep(Duration::from_millis(400)),
            );
            assert!(matches!(slow.await, Err(Failed::Busy)));
            let queued = pools.run(class, Instant::now() + Duration::from_millis(100), (), || 9);
            assert!(
                matches!(queued.await, Err(Failed::Busy)),
                "the overrun holds the turn"
            );
            tokio::time::sleep(Duration::from_millis(400)).await;
            assert_eq!(pools.run(class, soon(), (), || 10).await.unwrap(), 10);
        }
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn heavy_estimate_and_triage_threads_run_at_a_lower_priority() {
        let pools = Pools::new(1, 1);
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        // SAFETY: getpriority reads the calling thread's nice value.
        let nice = || unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
        let soon = Instant::now() + Duration::from_secs(5);
        let (heavy, estimate, triage, light) = rt.block_on(async {
            (
                pools.run(Class::Heavy, soon, (), nice).await.unwrap(),
                pools.run(Class::Estimate, soon, (), nice).await.unwrap(),
                pools.run(Class::Triage, soon, (), nice).await.unwrap(),
                pools.run(Class::Light, soon, (), nice).await.unwrap(),
            )
        });
        assert_eq!(heavy, (light + HEAVY_NICE).min(19), "light {light}");
        assert_eq!(estimate, heavy);
        assert_eq!(triage, heavy);
    }
}
