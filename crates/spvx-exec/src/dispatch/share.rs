//! Jobs shared between the calling thread and a pool's threads. The calling thread starts on
//! the jobs at once and the pool's threads join as they wake: each thread takes the next jobs
//! from a counter (`claim`), with a worker state of its own made at its first job. Once the
//! jobs are all taken, the calling thread waits only for the pool threads that joined (a
//! `Gate`); one that wakes later finds the gate shut and returns.
//!
//! Why: handing the whole loop to the pool instead — a rayon parallel iterator called from
//! outside it — left the calling thread waiting while the pool's threads woke (30–100 µs each
//! on the 2-vCPU VM of docs/benchmarks.md, a sixth of a half-millisecond dispatch), and a
//! scope would wait for a pool thread that its virtual CPU's host had not yet run.

use rayon::ThreadPool;
use std::any::Any;
use std::cell::UnsafeCell;
use std::mem::MaybeUninit;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::AtomicU64;
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::{Arc, Mutex, MutexGuard};

/// Runs `job` for `0..total` on the calling thread and on up to `threads − 1` threads of
/// `pool` (rayon's global pool when `None`), one `worker()` state per thread that takes a job.
/// Results in job order. A panic in a job is raised again here, after every thread that
/// joined has left.
pub(super) fn share<W, T: Send>(
    pool: Option<&ThreadPool>,
    threads: usize,
    total: u64,
    worker: impl Fn() -> W + Sync,
    job: impl Fn(&mut W, u64) -> T + Sync,
) -> Vec<T> {
    let next = AtomicU64::new(0);
    let slots = Slots::new(total as usize);
    let drain = || {
        let mut state = None;
        while let Some(range) = claim(&next, total, threads) {
            let w = state.get_or_insert_with(&worker);
            for i in range {
                // SAFETY: `claim` hands out each index once, so no other thread writes it.
                unsafe { slots.put(i as usize, job(w, i)) };
            }
        }
    };
    let helpers = threads
        .saturating_sub(1)
        .min(total.saturating_sub(1) as usize);
    let gate = Arc::new(Gate::default());
    let shared: &(dyn Fn() + Sync) = &drain;
    // SAFETY: only the lifetime is erased. A pool thread calls the closure only after the
    // gate admitted it, and this function returns (or unwinds) only after closing the gate
    // and waiting until every admitted thread has left, so `drain` and what it borrows
    // outlive every call.
    let erased = Erased(unsafe {
        std::mem::transmute::<*const (dyn Fn() + Sync + '_), *const (dyn Fn() + Sync + 'static)>(
            shared,
        )
    });
    for _ in 0..helpers {
        let gate = Arc::clone(&gate);
        let run = move || {
            if gate.enter() {
                // SAFETY: admitted while the gate was open (see above).
                let r = catch_unwind(AssertUnwindSafe(|| unsafe { erased.call() }));
                gate.leave(r.err());
            }
        };
        match pool {
            Some(p) => p.spawn(run),
            None => rayon::spawn(run),
        }
    }
    let mine = catch_unwind(AssertUnwindSafe(drain));
    let theirs = gate.close();
    if let Some(p) = mine.err().or(theirs) {
        resume_unwind(p);
    }
    // SAFETY: no job panicked, so every index was claimed and its result written, and every
    // thread that wrote one has left the gate.
    unsafe { slots.into_results() }
}

/// Each job's result, written in place by the thread that ran the job (as a collecting
/// parallel iterator does: no result is moved or copied between threads' lists).
struct Slots<T>(Vec<UnsafeCell<MaybeUninit<T>>>);

// SAFETY: each slot is written by one thread (`put`'s contract) and read only after every
// writer is done (`into_results`), so sharing the slots moves each `T` to one other thread.
unsafe impl<T: Send> Sync for Slots<T> {}

impl<T> Slots<T> {
    fn new(n: usize) -> Slots<T> {
        Slots(
            std::iter::repeat_with(|| UnsafeCell::new(MaybeUninit::uninit()))
                .take(n)
                .collect(),
        )
    }

    /// # Safety
    /// No other thread writes or reads slot `i` meanwhile, and it is written once.
    unsafe fn put(&self, i: usize, t: T) {
        unsafe { (*self.0[i].get()).write(t) };
    }

    /// The results in order. (After a panic the slots are dropped without their results,
    /// which are leaked.)
    ///
    /// # Safety
    /// Every slot has been written, by threads that have all finished (synchronised with
    /// this one).
    unsafe fn into_results(self) -> Vec<T> {
        self.0
            .into_iter()
            .map(|c| unsafe { c.into_inner().assume_init() })
            .collect()
    }
}

/// The calling thread's closure with its lifetime erased, for the pool's `'static` jobs.
#[derive(Clone, Copy)]
struct Erased(*const (dyn Fn() + Sync + 'static));

// SAFETY: the closure is Sync, so calling it from another thread is sound; when it may be
// called is the gate's business (`share`).
unsafe impl Send for Erased {}

impl Erased {
    /// # Safety
    /// The closure must still be alive (the gate admitted the caller).
    unsafe fn call(self) {
        unsafe { (*self.0)() }
    }
}

/// Admission of pool threads to the calling thread's jobs: open until the calling thread
/// runs out of jobs, which then shuts it and waits for the threads inside to leave. The
/// waiting spins (yielding the processor): the threads inside are running their last jobs,
/// and a sleeping caller took 50 µs to wake on the VM of docs/benchmarks.md.
#[derive(Default)]
struct Gate {
    /// [`SHUT`] and the number of threads inside.
    state: AtomicUsize,
    /// The first panic of a thread inside.
    panic: Mutex<Option<Box<dyn Any + Send>>>,
}

/// The gate's shut bit.
const SHUT: usize = 1 << (usize::BITS - 1);

impl Gate {
    /// Lets a thread in unless the gate is shut.
    fn enter(&self) -> bool {
        self.state
            .fetch_update(Acquire, Relaxed, |s| (s & SHUT == 0).then_some(s + 1))
            .is_ok()
    }

    /// A thread leaves (with its panic, if it panicked).
    fn leave(&self, panic: Option<Box<dyn Any + Send>>) {
        if let Some(p) = panic {
            locked(&self.panic).get_or_insert(p);
        }
        self.state.fetch_sub(1, Release);
    }

    /// Shuts the gate and waits until no thread is inside; the first panic of one.
    fn close(&self) -> Option<Box<dyn Any + Send>> {
        let mut s = self.state.fetch_or(SHUT, Acquire);
        let mut spins = 0u32;
        while s & !SHUT != 0 {
            if spins < 64 {
                std::hint::spin_loop();
                spins += 1;
            } else {
                std::thread::yield_now();
            }
            s = self.state.load(Acquire);
        }
        locked(&self.panic).take()
    }
}

/// The lock (a panic elsewhere cannot leave the guarded values half-changed: take it anyway).
fn locked<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The next jobs for one thread: a share of those left that shrinks as they run out (a
/// `2 · threads`-th, at least one), so that the threads meet at the counter rarely and run
/// neighbouring jobs (neighbouring memory) together, and finish close together.
fn claim(next: &AtomicU64, total: u64, threads: usize) -> Option<std::ops::Range<u64>> {
    let mut at = next.load(Relaxed);
    loop {
        if at >= total {
            return None;
        }
        let size = (total - at).div_ceil(2 * threads.max(1) as u64);
        match next.compare_exchange_weak(at, at + size, Relaxed, Relaxed) {
            Ok(_) => return Some(at..at + size),
            Err(now) => at = now,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::share;
    use std::collections::HashSet;
    use std::sync::Mutex;

    /// Every job runs once, results come in job order, and each thread that took a job made
    /// one worker state, whatever the thread count.
    #[test]
    fn every_job_runs_once_in_order() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .expect("a pool");
        for (threads, total) in [(1, 5), (2, 1), (4, 0), (4, 100), (8, 3)] {
            let workers = Mutex::new(0usize);
            let threads_seen = Mutex::new(HashSet::new());
            let out = share(
                Some(&pool),
                threads,
                total,
                || {
                    *workers.lock().expect("lock") += 1;
                    std::thread::current().id()
                },
                |w, i| {
                    assert_eq!(*w, std::thread::current().id(), "the thread's own state");
                    threads_seen.lock().expect("lock").insert(*w);
                    i * i
                },
            );
            let expect: Vec<u64> = (0..total).map(|i| i * i).collect();
            assert_eq!(out, expect, "{threads} threads, {total} jobs");
            let seen = threads_seen.lock().expect("lock").len();
            assert_eq!(*workers.lock().expect("lock"), seen);
        }
    }

    /// With the pool's only thread busy, the calling thread runs every job and returns
    /// without waiting for the helper it asked for (which then finds the gate shut).
    #[test]
    fn the_caller_does_not_wait_for_a_thread_that_never_came() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("a pool");
        let (release, wait) = std::sync::mpsc::channel::<()>();
        let (report, outcome) = std::sync::mpsc::channel::<bool>();
        pool.spawn(move || {
            let released = wait
                .recv_timeout(std::time::Duration::from_secs(20))
                .is_ok();
            let _ = report.send(released);
        });
        let out = share(Some(&pool), 2, 10, || (), |_, i| i + 1);
        assert_eq!(out, (1..=10).collect::<Vec<u64>>());
        release.send(()).expect("the blocker waits");
        assert_eq!(outcome.recv().ok(), Some(true), "share returned first");
    }

    /// A job's panic reaches the caller (from the pool's thread or the calling one), after
    /// which the pool still works.
    #[test]
    fn a_panic_in_a_job_is_raised_in_the_caller() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .expect("a pool");
        for bad in [0, 99] {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                share(
                    Some(&pool),
                    3,
                    100,
                    || (),
                    |_, i| {
                        assert_ne!(i, bad, "job {bad} fails");
                        i
                    },
                )
            }));
            assert!(r.is_err(), "job {bad}");
        }
        assert_eq!(share(Some(&pool), 3, 4, || (), |_, i| i), [0, 1, 2, 3]);
    }
}
