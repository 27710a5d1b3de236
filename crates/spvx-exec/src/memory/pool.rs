//! Storage for buffers kept between the runs of one compiled module: a dispatch over large
//! buffers reuses the previous dispatch's memory instead of faulting fresh pages in every time
//! (what a Vulkan driver's buffers, created once, also avoid). Only storage is kept, never
//! contents: every run copies its inputs in.

use std::sync::Mutex;
use std::sync::atomic::AtomicU32;

/// The most bytes a pool keeps.
const MAX_POOLED_BYTES: usize = 1 << 30;
/// The most pieces of storage a pool keeps.
const MAX_POOLED: usize = 64;

/// Free buffer storage, by exact length.
#[derive(Debug, Default)]
pub struct BufferPool {
    free: Mutex<Vec<Box<[AtomicU32]>>>,
}

impl BufferPool {
    /// Storage of exactly `words` words, if the pool has one.
    pub fn take(&self, words: usize) -> Option<Box<[AtomicU32]>> {
        let mut free = self.free.lock().ok()?;
        let i = free.iter().position(|b| b.len() == words)?;
        Some(free.swap_remove(i))
    }

    /// Keeps `storage` for a later run (the oldest pieces are dropped beyond the pool's size).
    pub fn give(&self, storage: Box<[AtomicU32]>) {
        if storage.is_empty() || storage.len() * 4 > MAX_POOLED_BYTES {
            return;
        }
        let Ok(mut free) = self.free.lock() else {
            return;
        };
        free.push(storage);
        let mut total: usize = free.iter().map(|b| b.len() * 4).sum();
        while free.len() > MAX_POOLED || total > MAX_POOLED_BYTES {
            let old = free.remove(0);
            total -= old.len() * 4;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storage_comes_back_by_length_and_the_pool_stays_bounded() {
        let pool = BufferPool::default();
        assert!(pool.take(4).is_none());
        pool.give((0..4).map(AtomicU32::new).collect());
        assert!(pool.take(5).is_none());
        let b = pool.take(4).expect("kept");
        assert_eq!(b.len(), 4);
        assert!(pool.take(4).is_none(), "taken once");
        for _ in 0..100 {
            pool.give((0..2).map(AtomicU32::new).collect());
        }
        assert_eq!(pool.free.lock().map(|f| f.len()).unwrap_or(0), MAX_POOLED);
    }
}
