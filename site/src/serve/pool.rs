//! Where queries run: light ones on tokio's blocking pool, heavy ones on
//! a few threads of their own at a lower priority, each behind its own
//! cap. A queue of heavy requests then never holds up a word page, and
//! while heavy work runs the scheduler gives the cores to light work
//! first.

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

type Job = Box<dyn FnOnce() + Send + 'static>;

/// The two pools.
pub(crate) struct Pools {
    light: Arc<Semaphore>,
    heavy: Arc<Semaphore>,
    jobs: Mutex<mpsc::Sender<Job>>,
}

/// How much nicer heavy threads are than the process: one step of nice is
/// about 10% less CPU share; 10 steps lower, a heavy thread gets about a
/// tenth of what a light one gets when both want a core.
const HEAVY_NICE: i32 = 10;

impl Pools {
    /// `light` queries at once on the blocking pool; `heavy` threads.
    pub(crate) fn new(light: usize, heavy: usize) -> Pools {
        let heavy = heavy.max(1);
        let (tx, rx) = mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..heavy {
            let rx = rx.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("lexq-heavy-{i}"))
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
            // Without a thread of its own, heavy work still runs (below).
            drop(spawned);
        }
        Pools {
            light: Arc::new(Semaphore::new(light.max(1))),
            heavy: Arc::new(Semaphore::new(heavy)),
            jobs: Mutex::new(tx),
        }
    }

    /// Runs `f` in the heavy or light pool once it has a turn, by
    /// `deadline`. `hold` is kept until `f` has finished (even past the
    /// deadline), as is the pool's turn: a query that overruns keeps its
    /// place taken, so overruns cannot pile up.
    pub(crate) async fn run<T, H>(
        &self,
        heavy: bool,
        deadline: Instant,
        hold: H,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Failed>
    where
        T: Send + 'static,
        H: Send + 'static,
    {
        let sem = if heavy { &self.heavy } else { &self.light };
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
        if heavy {
            let sent = match self.jobs.lock() {
                Ok(jobs) => jobs.send(Box::new(job)).map_err(|e| e.0),
                Err(_) => Err(Box::new(job) as Job),
            };
            if let Err(job) = sent {
                // No heavy thread could be started: the blocking pool.
                tokio::task::spawn_blocking(job);
            }
        } else {
            tokio::task::spawn_blocking(job);
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
        for heavy in [false, true] {
            assert_eq!(pools.run(heavy, soon(), (), || 7).await.unwrap(), 7);
            match pools
                .run(heavy, soon(), (), move || -> u8 { panic!("boom {heavy}") })
                .await
            {
                Err(Failed::Panicked(m)) => assert_eq!(m, format!("boom {heavy}")),
                other => panic!("{other:?}"),
            }
            // The pool still answers after a panic.
            assert_eq!(pools.run(heavy, soon(), (), || 8).await.unwrap(), 8);
            // Past its deadline: busy; its turn stays taken until it ends.
            let slow = pools.run(
                heavy,
                Instant::now() + Duration::from_millis(50),
                (),
                || std::thread::sleep(Duration::from_millis(400)),
            );
            assert!(matches!(slow.await, Err(Failed::Busy)));
            let queued = pools.run(heavy, Instant::now() + Duration::from_millis(100), (), || 9);
            assert!(
                matches!(queued.await, Err(Failed::Busy)),
                "the overrun holds the turn"
            );
            tokio::time::sleep(Duration::from_millis(400)).await;
            assert_eq!(pools.run(heavy, soon(), (), || 10).await.unwrap(), 10);
        }
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn heavy_threads_run_at_a_lower_priority() {
        let pools = Pools::new(1, 1);
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        // SAFETY: getpriority reads the calling thread's nice value.
        let nice = || unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
        let soon = Instant::now() + Duration::from_secs(5);
        let (heavy, light) = rt.block_on(async {
            (
                pools.run(true, soon, (), nice).await.unwrap(),
                pools.run(false, soon, (), nice).await.unwrap(),
            )
        });
        assert_eq!(heavy, (light + HEAVY_NICE).min(19), "light {light}");
    }
}
