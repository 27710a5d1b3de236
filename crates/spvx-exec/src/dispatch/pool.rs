//! The thread pools of dispatches that ask for a thread count (`RunConfig::threads`): one
//! rayon pool per count, built by the first dispatch that asks for it and kept for the
//! process, so that a dispatch does not pay for starting (and stopping) its threads. A
//! dispatch that leaves the count to the engine runs on rayon's global pool.

use rayon::ThreadPool;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The pool of `n` threads (built on first use). The lock is taken once per dispatch, never
/// by the workers.
pub(crate) fn with_threads(n: usize) -> Result<Arc<ThreadPool>, String> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<ThreadPool>>>> = OnceLock::new();
    let pools = POOLS.get_or_init(Mutex::default);
    // (A panic while the lock was held cannot leave the map half-changed: take it anyway.)
    let mut pools = pools.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(p) = pools.get(&n) {
        return Ok(Arc::clone(p));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .thread_name(move |i| format!("spvx-{n}-{i}"))
        .build()
        .map_err(|e| format!("cannot start {n} threads: {e}"))?;
    let pool = Arc::new(pool);
    pools.insert(n, Arc::clone(&pool));
    Ok(pool)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_gets_one_pool_of_that_many_threads() {
        let a = with_threads(3).expect("three threads");
        let b = with_threads(3).expect("three threads again");
        assert!(Arc::ptr_eq(&a, &b), "the second dispatch reuses the pool");
        assert_eq!(a.current_num_threads(), 3);
        let c = with_threads(2).expect("two threads");
        assert!(!Arc::ptr_eq(&a, &c));
        assert_eq!(c.current_num_threads(), 2);
        // The pool's threads run the work.
        let names = c.install(|| std::thread::current().name().map(String::from));
        assert_eq!(
            names.as_deref().map(|n| n.starts_with("spvx-2-")),
            Some(true)
        );
    }
}
