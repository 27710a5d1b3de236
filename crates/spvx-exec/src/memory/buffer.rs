//! A buffer shared by the workgroups of a dispatch that run in parallel: bytes kept in relaxed
//! atomic 32-bit words, so that race-free programs give the same bytes whatever the thread
//! interleaving.
//!
//! Why this is sound: a store that covers a whole word is one relaxed store of that word; a
//! store that covers only some bytes of a word updates just those bytes with one atomic
//! read-modify-write (compare-exchange), so a concurrent store by another workgroup to the
//! *other* bytes of the same word (which is race-free at the byte level) is never lost. A
//! subgroup's contiguous run of sub-word stores ([`SharedBuffer::write_bytes`]) stores the words
//! it covers entirely with plain relaxed stores: any other invocation touching those bytes at
//! the same time would race with this store on those very bytes, which a race-free program does
//! not do.

use super::storage::Storage;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// The size from which a run's buffers are copied in and out on several threads (when the run
/// may use several): below it the threads' start-up costs more than the copy.
pub const PARALLEL_COPY_BYTES: usize = 4 << 20;

/// Words per piece of a parallel copy (1 MiB).
const COPY_CHUNK_WORDS: usize = 1 << 18;

/// One bound buffer during a run.
pub struct SharedBuffer {
    words: Storage,
    len: usize,
    /// Uniform buffers and push constants: writes are dropped and reported.
    pub read_only: bool,
    /// Serialises 64-bit atomics (the words are 32-bit atomics).
    wide_atomics: Mutex<()>,
    /// With `RunConfig::track_writers`: for each byte, 1 + the global linear index of the
    /// invocation that stored it last (0: not written in this run).
    writers: Option<Box<[AtomicU32]>>,
}

impl SharedBuffer {
    /// A buffer holding a copy of `bytes`.
    pub fn new(bytes: &[u8], read_only: bool) -> SharedBuffer {
        Self::new_in(None, bytes, read_only, false)
    }

    /// A buffer holding a copy of `bytes`, in storage from `pool` when it has storage of the
    /// right size; copied on rayon's threads when `parallel` and the buffer is large
    /// ([`PARALLEL_COPY_BYTES`]).
    pub fn new_in(
        pool: Option<&super::BufferPool>,
        bytes: &[u8],
        read_only: bool,
        parallel: bool,
    ) -> SharedBuffer {
        let n = bytes.len().div_ceil(4);
        let mut words = match pool.and_then(|p| p.take(n)) {
            Some(w) => w,
            None => (0..n).map(|_| AtomicU32::new(0)).collect(),
        };
        let full = bytes.len() / 4;
        let fill = |words: &mut [AtomicU32], bytes: &[u8]| {
            for (c, w) in bytes.chunks_exact(4).zip(words.iter_mut()) {
                *w.get_mut() = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            }
        };
        if parallel && bytes.len() >= PARALLEL_COPY_BYTES {
            use rayon::prelude::*;
            words[..full]
                .par_chunks_mut(COPY_CHUNK_WORDS)
                .zip(bytes[..4 * full].par_chunks(4 * COPY_CHUNK_WORDS))
                .for_each(|(w, b)| fill(w, b));
        } else {
            fill(&mut words[..full], &bytes[..4 * full]);
        }
        let tail = &bytes[4 * full..];
        if let Some(w) = words.get_mut(full) {
            let mut last = [0u8; 4];
            last[..tail.len()].copy_from_slice(tail);
            *w.get_mut() = u32::from_le_bytes(last);
        }
        SharedBuffer {
            words: Storage::Owned(words),
            len: bytes.len(),
            read_only,
            wide_atomics: Mutex::new(()),
            writers: None,
        }
    }

    /// A buffer over the caller's `bytes` in place, without a copy, when they are whole
    /// 32-bit words at a word-aligned address (else `None`). For a binding the module never
    /// writes: the run neither copies it in nor back.
    ///
    /// # Safety
    /// The bytes must outlive the buffer, stay where they are, and be neither read nor
    /// written other than through this buffer (or others made in place over them) until it
    /// is dropped.
    pub(crate) unsafe fn in_place(bytes: &mut [u8], read_only: bool) -> Option<SharedBuffer> {
        let len = bytes.len();
        // SAFETY: the caller's contract is `Storage::in_place`'s.
        let words = unsafe { Storage::in_place(bytes) }?;
        Some(SharedBuffer {
            words,
            len,
            read_only,
            wide_atomics: Mutex::new(()),
            writers: None,
        })
    }

    /// Whether the buffer is the caller's bytes in place ([`Self::in_place`]): they hold
    /// the buffer's contents already, so there is nothing to copy back.
    pub fn is_in_place(&self) -> bool {
        self.words.is_in_place()
    }

    /// Gives the buffer's storage back to `pool` (storage of its own: the caller's bytes in
    /// place are not the pool's to keep).
    pub fn recycle(self, pool: &super::BufferPool) {
        if let Storage::Owned(words) = self.words {
            pool.give(words);
        }
    }

    /// The same buffer, recording which invocation wrote each byte (see [`Self::writers`]).
    pub fn with_writer_tracking(mut self) -> SharedBuffer {
        self.writers = Some((0..self.len).map(|_| AtomicU32::new(0)).collect());
        self
    }

    /// Records that invocation `who` (global linear index) wrote `bytes` bytes at `offset`
    /// (already bounds-checked by the write). Nothing when tracking is off.
    #[inline]
    pub fn record_writer(&self, offset: u64, bytes: u32, who: u32) {
        if let Some(w) = &self.writers {
            let start = offset as usize;
            for cell in w.iter().skip(start).take(bytes as usize) {
                cell.store(who.saturating_add(1), Relaxed);
            }
        }
    }

    /// For each byte, 1 + the global linear index of the invocation that wrote it last, or 0
    /// when no invocation wrote it; `None` without tracking.
    pub fn writers(&self) -> Option<Vec<u32>> {
        self.writers
            .as_ref()
            .map(|w| w.iter().map(|c| c.load(Relaxed)).collect())
    }

    /// The first byte of the buffer's storage and its size, for the JIT's generated code
    /// (which bounds-checks every access against that size itself). Writing through the
    /// pointer is allowed: the bytes are atomics (interior mutability).
    pub(crate) fn raw_parts(&self) -> (*mut u8, usize) {
        (self.words.as_ptr() as *mut u8, self.len)
    }

    /// Size in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True for a buffer of no bytes.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.copy_to(&mut out);
        out
    }

    /// Replaces the contents of `out` by the buffer's bytes, reusing its allocation (an output
    /// buffer of the right size is overwritten in place: no new memory to fault in).
    pub fn copy_to(&self, out: &mut Vec<u8>) {
        out.resize(self.len, 0);
        let mut chunks = out.chunks_exact_mut(4);
        for (c, w) in (&mut chunks).zip(self.words.iter()) {
            c.copy_from_slice(&w.load(Relaxed).to_le_bytes());
        }
        let tail = chunks.into_remainder();
        if !tail.is_empty()
            && let Some(w) = self.words.last()
        {
            let n = tail.len();
            tail.copy_from_slice(&w.load(Relaxed).to_le_bytes()[..n]);
        }
    }

    /// [`Self::copy_to`] for a buffer no other thread can reach (the run is over): plain
    /// loads, which the compiler turns into a vector copy (the relaxed atomic loads of
    /// `copy_to` go one word at a time, a quarter of the time of a 512 × 512 tensor kernel on
    /// the JIT; docs/benchmarks.md, 2026-11-28). A buffer in place copies with `copy_to` (its
    /// words are the caller's: only ever accessed as atomics; never call it with those very
    /// bytes as `out`, which hold the contents already).
    pub fn copy_out(&mut self, out: &mut Vec<u8>, parallel: bool) {
        let len = self.len;
        let Some(words) = self.words.owned_mut() else {
            self.copy_to(out);
            return;
        };
        out.resize(len, 0);
        let full = len / 4;
        let copy = |out: &mut [u8], words: &mut [AtomicU32]| {
            for (c, w) in out.chunks_exact_mut(4).zip(words.iter_mut()) {
                c.copy_from_slice(&w.get_mut().to_le_bytes());
            }
        };
        if parallel && len >= PARALLEL_COPY_BYTES {
            use rayon::prelude::*;
            out[..4 * full]
                .par_chunks_mut(4 * COPY_CHUNK_WORDS)
                .zip(words[..full].par_chunks_mut(COPY_CHUNK_WORDS))
                .for_each(|(o, w)| copy(o, w));
        } else {
            copy(&mut out[..4 * full], &mut words[..full]);
        }
        let tail = &mut out[4 * full..];
        if !tail.is_empty()
            && let Some(w) = words.last_mut()
        {
            let n = tail.len();
            tail.copy_from_slice(&w.get_mut().to_le_bytes()[..n]);
        }
    }

    #[inline(always)]
    fn check(&self, offset: u64, bytes: u32) -> Option<usize> {
        let end = offset.checked_add(bytes as u64)?;
        (end <= self.len as u64).then_some(offset as usize)
    }

    /// Reads `bytes` (1..=8) little-endian bytes at `offset`; `None` when out of bounds.
    #[inline(always)]
    pub fn read(&self, offset: u64, bytes: u32) -> Option<u64> {
        let o = self.check(offset, bytes)?;
        Some(match bytes {
            1 => self.get::<1>(o),
            2 => self.get::<2>(o),
            4 => self.get::<4>(o),
            8 => self.get::<8>(o),
            _ => self.get_bytes(o, bytes as usize),
        })
    }

    /// Writes the low `bytes` (1..=8) bytes of `value` at `offset`; false when out of bounds.
    #[inline]
    pub fn write(&self, offset: u64, bytes: u32, value: u64) -> bool {
        let Some(o) = self.check(offset, bytes) else {
            return false;
        };
        match bytes {
            1 => self.put::<1>(o, value),
            2 => self.put::<2>(o, value),
            4 => self.put::<4>(o, value),
            8 => self.put::<8>(o, value),
            _ => self.put_bytes(o, bytes as usize, value),
        }
        true
    }

    /// Reads `N` (1..=8) little-endian bytes at byte `o`. The caller has checked
    /// `o + N <= self.len()` (a violation panics on a slice index, it never reads other memory).
    #[inline(always)]
    pub fn get<const N: usize>(&self, o: usize) -> u64 {
        let (w, at) = (o / 4, o % 4);
        if at == 0 && N == 4 {
            return self.words[w].load(Relaxed) as u64;
        }
        if at == 0 && N == 8 {
            let lo = self.words[w].load(Relaxed) as u64;
            return lo | ((self.words[w + 1].load(Relaxed) as u64) << 32);
        }
        if at + N <= 4 {
            let word = self.words[w].load(Relaxed) as u64;
            return (word >> (8 * at)) & byte_mask(N);
        }
        self.get_bytes(o, N)
    }

    /// Writes the low `N` (1..=8) bytes of `value` at byte `o`; the caller has checked
    /// `o + N <= self.len()`.
    #[inline(always)]
    pub fn put<const N: usize>(&self, o: usize, value: u64) {
        let (w, at) = (o / 4, o % 4);
        if at == 0 && N == 4 {
            self.words[w].store(value as u32, Relaxed);
        } else if at == 0 && N == 8 {
            self.words[w].store(value as u32, Relaxed);
            self.words[w + 1].store((value >> 32) as u32, Relaxed);
        } else if at + N <= 4 {
            let field = (byte_mask(N) as u32) << (8 * at);
            self.put_field(w, field, (value as u32) << (8 * at));
        } else {
            self.put_bytes(o, N, value);
        }
    }

    /// Sets the bits `field` of word `w` to those of `bits` (one atomic read-modify-write, so
    /// the word's other bytes are never lost to a concurrent store).
    #[inline(always)]
    fn put_field(&self, w: usize, field: u32, bits: u32) {
        let bits = bits & field;
        // The closure always gives Some: fetch_update cannot fail.
        let _ = self.words[w].fetch_update(Relaxed, Relaxed, |old| Some((old & !field) | bits));
    }

    /// `n` (1..=8) bytes at `o` that may straddle words, byte by byte.
    fn get_bytes(&self, o: usize, n: usize) -> u64 {
        let mut v = 0u64;
        for i in 0..n.min(8) {
            let p = o + i;
            let byte = (self.words[p / 4].load(Relaxed) >> (8 * (p % 4))) & 0xff;
            v |= (byte as u64) << (8 * i);
        }
        v
    }

    /// Writes the low `n` (1..=8) bytes of `value` at `o`, word by word.
    fn put_bytes(&self, o: usize, n: usize, value: u64) {
        let bytes = value.to_le_bytes();
        self.write_bytes(o, &bytes[..n.min(8)]);
    }

    /// Writes `bytes` at byte `o` (the caller has checked `o + bytes.len() <= self.len()`):
    /// words covered entirely are stored whole, the partly covered first and last words get
    /// an atomic update of their covered bytes only (see the module comment for why this is
    /// sound).
    pub fn write_bytes(&self, o: usize, bytes: &[u8]) {
        let mut i = 0usize;
        while i < bytes.len() {
            let p = o + i;
            let (w, at) = (p / 4, p % 4);
            let n = (4 - at).min(bytes.len() - i);
            let mut word = [0u8; 4];
            word[at..at + n].copy_from_slice(&bytes[i..i + n]);
            let bits = u32::from_le_bytes(word);
            if n == 4 {
                self.words[w].store(bits, Relaxed);
            } else {
                self.put_field(w, (byte_mask(n) as u32) << (8 * at), bits);
            }
            i += n;
        }
    }

    /// Writes the low `N` bytes of each of `values` at `o`, `o + N`, `o + 2N`, … (a subgroup's
    /// contiguous store, lane `l` at `o + l·N`; the caller has checked
    /// `o + N·values.len() <= self.len()`). At most 64 values.
    pub fn write_run<const N: usize>(&self, o: usize, values: &[u64]) {
        let mut buf = [0u8; 64 * 8];
        let n = values.len().min(64);
        for (chunk, v) in buf.chunks_exact_mut(N).zip(&values[..n]) {
            chunk.copy_from_slice(&v.to_le_bytes()[..N]);
        }
        self.write_bytes(o, &buf[..n * N]);
    }

    /// Applies `f` atomically to the 32-bit word at `offset` (4-aligned); returns the old value,
    /// `None` when out of bounds or misaligned.
    pub fn atomic32(&self, offset: u64, f: impl Fn(u32) -> u32) -> Option<u32> {
        let o = self.check(offset, 4)?;
        if o % 4 != 0 {
            return None;
        }
        self.words[o / 4]
            .fetch_update(Relaxed, Relaxed, |v| Some(f(v)))
            .ok()
    }

    /// Applies `f` atomically to the 16-bit value at `offset` (2-aligned) with one
    /// compare-exchange of the 32-bit word holding it (its other half unchanged); returns the
    /// old value, `None` when out of bounds or misaligned.
    pub fn atomic16(&self, offset: u64, f: impl Fn(u16) -> u16) -> Option<u16> {
        let o = self.check(offset, 2)?;
        if o % 2 != 0 {
            return None;
        }
        let shift = 8 * (o % 4);
        self.words[o / 4]
            .fetch_update(Relaxed, Relaxed, |w| {
                let new = f((w >> shift) as u16) as u32;
                Some((w & !(0xffff << shift)) | new << shift)
            })
            .ok()
            .map(|w| (w >> shift) as u16)
    }

    /// Applies `f` atomically to the 64-bit value at `offset` (4-aligned); returns the old
    /// value, `None` when out of bounds or misaligned.
    pub fn atomic64(&self, offset: u64, f: impl Fn(u64) -> u64) -> Option<u64> {
        let o = self.check(offset, 8)?;
        if o % 4 != 0 {
            return None;
        }
        let _guard = self.wide_atomics.lock().unwrap_or_else(|e| e.into_inner());
        let old = self.read(offset, 8)?;
        let new = f(old);
        self.words[o / 4].store(new as u32, Relaxed);
        self.words[o / 4 + 1].store((new >> 32) as u32, Relaxed);
        Some(old)
    }
}

/// The low `n` bytes set (n ≤ 8).
#[inline(always)]
fn byte_mask(n: usize) -> u64 {
    if n >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * n)) - 1
    }
}

#[cfg(test)]
mod tests {
    //! Every offset, size and buffer length up to 13 bytes against a plain byte array (the
    //! independent model: little-endian bytes written and read one by one).
    use super::{COPY_CHUNK_WORDS, PARALLEL_COPY_BYTES, SharedBuffer};

    fn model_read(m: &[u8], o: usize, n: usize) -> u64 {
        (0..n).map(|i| (m[o + i] as u64) << (8 * i)).sum()
    }

    /// Large buffers are copied in and out in pieces on several threads: every byte arrives
    /// and comes back, at lengths around the threshold, the pieces' size and a word's tail,
    /// through fresh and pooled storage.
    #[test]
    fn parallel_copies_keep_every_byte() {
        let pool = crate::memory::BufferPool::default();
        for len in [
            PARALLEL_COPY_BYTES - 1,
            PARALLEL_COPY_BYTES,
            PARALLEL_COPY_BYTES + 3,
            PARALLEL_COPY_BYTES + 4 * COPY_CHUNK_WORDS + 2,
        ] {
            let mut x = len as u64;
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (x >> 56) as u8
                })
                .collect();
            for round in 0..2 {
                for parallel in [true, false] {
                    let mut b = SharedBuffer::new_in(Some(&pool), &bytes, false, parallel);
                    assert_eq!(b.read(len as u64 - 1, 1), Some(bytes[len - 1] as u64));
                    let mut out = vec![0xa5; round * 7];
                    b.copy_out(&mut out, !parallel);
                    assert!(out == bytes, "length {len}, round {round}");
                    b.recycle(&pool);
                }
            }
        }
    }

    #[test]
    fn typed_reads_and_writes_match_a_byte_array() {
        for len in 0..=13usize {
            let init: Vec<u8> = (0..len).map(|i| 0xa0 ^ i as u8).collect();
            for n in [1usize, 2, 4, 8] {
                for o in 0..len + 2 {
                    let b = SharedBuffer::new(&init, false);
                    let mut m = init.clone();
                    let value = 0x1122_3344_5566_7788u64;
                    let fits = o + n <= len;
                    assert_eq!(
                        b.write(o as u64, n as u32, value),
                        fits,
                        "len {len} o {o} n {n}"
                    );
                    if fits {
                        for i in 0..n {
                            m[o + i] = (value >> (8 * i)) as u8;
                        }
                    }
                    assert_eq!(b.to_bytes(), m, "len {len} o {o} n {n}");
                    for ro in 0..len + 2 {
                        let want = (ro + n <= len).then(|| model_read(&m, ro, n));
                        assert_eq!(b.read(ro as u64, n as u32), want, "len {len} ro {ro} n {n}");
                    }
                }
            }
        }
    }

    #[test]
    fn runs_of_lanes_match_a_byte_array() {
        for n in [1usize, 2, 4, 8] {
            for lanes in 1..=9usize {
                for o in 0..6usize {
                    let len = o + n * lanes + 3;
                    let init: Vec<u8> = (0..len).map(|i| 0x5a ^ (i as u8)).collect();
                    let values: Vec<u64> = (0..lanes as u64)
                        .map(|l| 0x0102_0304_0506_0708 * (l + 1))
                        .collect();
                    let b = SharedBuffer::new(&init, false);
                    match n {
                        1 => b.write_run::<1>(o, &values),
                        2 => b.write_run::<2>(o, &values),
                        4 => b.write_run::<4>(o, &values),
                        _ => b.write_run::<8>(o, &values),
                    }
                    let mut m = init.clone();
                    for (l, v) in values.iter().enumerate() {
                        for i in 0..n {
                            m[o + l * n + i] = (v >> (8 * i)) as u8;
                        }
                    }
                    assert_eq!(b.to_bytes(), m, "n {n} lanes {lanes} o {o}");
                }
            }
        }
    }

    #[test]
    fn sub_word_stores_from_threads_keep_each_others_bytes() {
        // Four threads each store their own byte of the same words, many times: no byte is
        // lost (the partial-word update is one atomic read-modify-write).
        let b = SharedBuffer::new(&[0u8; 64], false);
        std::thread::scope(|s| {
            for t in 0..4usize {
                let b = &b;
                s.spawn(move || {
                    for round in 0..2000u64 {
                        for w in 0..16usize {
                            b.write((w * 4 + t) as u64, 1, (t as u64 + 1) * 16 + (round & 1));
                        }
                    }
                });
            }
        });
        let want: Vec<u8> = (0..64).map(|i| ((i % 4) as u8 + 1) * 16 + 1).collect();
        assert_eq!(b.to_bytes(), want);
    }

    #[test]
    fn atomic16_from_threads_loses_no_update() {
        // A 6-byte buffer: halves at 0, 2 (one word) and 4 (the last, whose word is partly
        // outside the bytes). Four threads add 1 to every half 1000 times each: each ends at
        // 4000 (no update lost, no neighbour changed); odd offsets and offsets past the end
        // are refused.
        let b = SharedBuffer::new(&[0u8; 6], false);
        std::thread::scope(|s| {
            for _ in 0..4 {
                let b = &b;
                s.spawn(move || {
                    for _ in 0..1000 {
                        for at in [0u64, 2, 4] {
                            assert!(b.atomic16(at, |v| v.wrapping_add(1)).is_some());
                        }
                    }
                });
            }
        });
        let n = 4000u16.to_le_bytes();
        assert_eq!(b.to_bytes(), [n, n, n].concat());
        assert_eq!(b.atomic16(1, |v| v), None);
        assert_eq!(b.atomic16(6, |v| v), None);
        assert_eq!(b.atomic16(5, |v| v), None);
        assert_eq!(b.atomic16(2, |_| 7), Some(4000));
        assert_eq!(b.read(2, 2), Some(7));
    }
}
