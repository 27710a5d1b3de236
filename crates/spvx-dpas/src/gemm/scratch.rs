//! Packing buffers of the fast GEMMs, kept between calls on each thread (fresh pages are
//! expensive): B's on the calling thread, A's row blocks on the pool's threads. Two buffers,
//! so that a calling thread that is itself a pool thread and runs an A task while it waits
//! does not need a fresh one. The integer and the float GEMM share them (a GEMM never runs
//! inside the other's packing): their elements are 4-byte words, u32 or f32.

use std::cell::RefCell;

thread_local! {
    static SCRATCH: [RefCell<Vec<u32>>; 2] = const { [RefCell::new(Vec::new()), RefCell::new(Vec::new())] };
}

/// Which packing buffer.
#[derive(Clone, Copy)]
pub(super) enum Buffer {
    A = 0,
    B = 1,
}

/// An element type a scratch buffer can be viewed as.
///
/// # Safety
/// The type has the size and alignment of u32, and every bit pattern is a valid value.
pub(super) unsafe trait Word: Copy {}
// SAFETY: u32 itself.
unsafe impl Word for u32 {}
// SAFETY: f32 has the size and alignment of u32, and every bit pattern is an f32.
unsafe impl Word for f32 {}

/// Buffers above this many words (64 MiB) are not kept between calls.
const KEEP: usize = 16 << 20;

/// Runs `f` with `len` words of this thread's packing buffer `which`, starting on a 64-byte
/// boundary where it is kept (rows and panels then start on cache lines, and the kernels'
/// 64-byte vectors never straddle two; such splits measured up to twice slower). The contents
/// are stale: the packers rewrite every word that is read. A re-entered buffer is replaced by
/// a fresh one.
pub(super) fn with_scratch<T: Word, R>(
    which: Buffer,
    len: usize,
    f: impl FnOnce(&mut [T]) -> R,
) -> R {
    let view = |words: &mut [u32]| {
        // SAFETY: `Word` guarantees T has u32's size and alignment and that every bit pattern
        // is a T; the slice is borrowed mutably for the duration of `f` only.
        f(unsafe { std::slice::from_raw_parts_mut(words.as_mut_ptr().cast::<T>(), words.len()) })
    };
    SCRATCH.with(|s| match s[which as usize].try_borrow_mut() {
        Ok(mut buf) => {
            if buf.len() < len + 16 {
                buf.resize(len + 16, 0);
            }
            let at = buf.as_ptr().align_offset(64).min(16);
            let r = view(&mut buf[at..at + len]);
            if buf.len() > KEEP {
                *buf = Vec::new();
            }
            r
        }
        Err(_) => view(&mut vec![0; len]),
    })
}
