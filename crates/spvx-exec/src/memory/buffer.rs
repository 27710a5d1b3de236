//! A buffer shared by the workgroups of a dispatch that run in parallel: bytes kept in relaxed
//! atomic 32-bit words, so that race-free programs give the same bytes whatever the thread
//! interleaving (a sub-word store only touches its own bytes, with atomic AND/OR).

use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// One bound buffer during a run.
pub struct SharedBuffer {
    words: Box<[AtomicU32]>,
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
        let words = bytes
            .chunks(4)
            .map(|c| {
                let mut w = [0u8; 4];
                w[..c.len()].copy_from_slice(c);
                AtomicU32::new(u32::from_le_bytes(w))
            })
            .collect();
        SharedBuffer {
            words,
            len: bytes.len(),
            read_only,
            wide_atomics: Mutex::new(()),
            writers: None,
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
        let mut out: Vec<u8> = self
            .words
            .iter()
            .flat_map(|w| w.load(Relaxed).to_le_bytes())
            .collect();
        out.truncate(self.len);
        out
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
        if o % 4 == 0 {
            let lo = self.words[o / 4].load(Relaxed) as u64;
            return Some(match bytes {
                4 => lo,
                8 => lo | ((self.words[o / 4 + 1].load(Relaxed) as u64) << 32),
                _ => lo & ((1u64 << (8 * bytes)) - 1),
            });
        }
        let mut v = 0u64;
        for i in 0..bytes as usize {
            let p = o + i;
            let byte = (self.words[p / 4].load(Relaxed) >> (8 * (p % 4))) & 0xff;
            v |= (byte as u64) << (8 * i);
        }
        Some(v)
    }

    /// Writes the low `bytes` (1..=8) bytes of `value` at `offset`; false when out of bounds.
    #[inline]
    pub fn write(&self, offset: u64, bytes: u32, value: u64) -> bool {
        let Some(o) = self.check(offset, bytes) else {
            return false;
        };
        if o % 4 == 0 && (bytes == 4 || bytes == 8) {
            self.words[o / 4].store(value as u32, Relaxed);
            if bytes == 8 {
                self.words[o / 4 + 1].store((value >> 32) as u32, Relaxed);
            }
            return true;
        }
        let mut i = 0usize;
        while i < bytes as usize {
            let p = o + i;
            let (w, shift) = (p / 4, 8 * (p % 4));
            let n = (4 - p % 4).min(bytes as usize - i);
            let field = if n == 4 {
                u32::MAX
            } else {
                ((1u32 << (8 * n)) - 1) << shift
            };
            let bits = (((value >> (8 * i)) as u32) << shift) & field;
            if n == 4 {
                self.words[w].store(bits, Relaxed);
            } else {
                self.words[w].fetch_and(!field, Relaxed);
                self.words[w].fetch_or(bits, Relaxed);
            }
            i += n;
        }
        true
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
