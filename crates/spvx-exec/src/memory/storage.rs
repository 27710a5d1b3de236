//! Where a bound buffer's words live: storage of its own (a copy of the caller's bytes), or
//! the caller's bytes themselves, used in place for a binding the module never writes (no
//! copy in and none out: a dispatch that only reads a large input does not pay for moving it).

use std::ops::Deref;
use std::ptr::NonNull;
use std::sync::atomic::AtomicU32;

/// A buffer's words.
pub(super) enum Storage {
    /// Words of its own.
    Owned(Box<[AtomicU32]>),
    /// The caller's words, in place (see [`Storage::in_place`]).
    InPlace {
        first: NonNull<AtomicU32>,
        words: usize,
    },
}

// SAFETY: the in-place words are only ever accessed as atomics (shared access to atomics is
// thread-safe), and `in_place`'s contract keeps them alive and unaliased while the storage
// lives; owned words are a `Box<[AtomicU32]>`, which is Send and Sync.
unsafe impl Send for Storage {}
unsafe impl Sync for Storage {}

impl Storage {
    /// The caller's `bytes` as words in place, when they are whole words at a word-aligned
    /// address (else `None`: the caller copies them).
    ///
    /// # Safety
    /// The bytes must outlive the storage, stay where they are, and be neither read nor
    /// written other than through this storage (or other storage made in place over them)
    /// until it is dropped.
    pub(super) unsafe fn in_place(bytes: &mut [u8]) -> Option<Storage> {
        // (An empty slice's pointer need not be aligned.)
        if bytes.is_empty() {
            return None;
        }
        // (`align_to_mut` may leave every byte in the prefix; then the bytes are copied.)
        // SAFETY: every bit pattern is a valid u32.
        let (head, words, tail) = unsafe { bytes.align_to_mut::<u32>() };
        if !head.is_empty() || !tail.is_empty() {
            return None;
        }
        // (`AtomicU32` has the size and alignment of `u32`; the pointer comes from a unique
        // borrow, so atomic writes through it would be allowed too.)
        let first = NonNull::new(words.as_mut_ptr().cast::<AtomicU32>())?;
        Some(Storage::InPlace {
            first,
            words: words.len(),
        })
    }

    /// Whether the words are the caller's bytes in place.
    pub(super) fn is_in_place(&self) -> bool {
        matches!(self, Storage::InPlace { .. })
    }

    /// The owned words, for exclusive access (`None` in place: the caller's bytes are only
    /// ever accessed as atomics through shared references).
    pub(super) fn owned_mut(&mut self) -> Option<&mut [AtomicU32]> {
        match self {
            Storage::Owned(w) => Some(w),
            Storage::InPlace { .. } => None,
        }
    }
}

impl Deref for Storage {
    type Target = [AtomicU32];

    fn deref(&self) -> &[AtomicU32] {
        match self {
            Storage::Owned(w) => w,
            // SAFETY: `in_place`'s contract: `words` aligned atomics at `first`, alive and
            // accessed only through this storage while it lives.
            Storage::InPlace { first, words } => unsafe {
                std::slice::from_raw_parts(first.as_ptr(), *words)
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Storage;
    use std::sync::atomic::Ordering::Relaxed;

    /// Aligned whole words are used in place: loads read the caller's bytes and stores land in
    /// them; a length that is not whole words, or a misaligned start, is refused.
    #[test]
    fn aligned_whole_words_are_used_in_place() {
        let mut v: Vec<u32> = vec![0x0403_0201, 0x0807_0605, 0];
        // (The bytes of a Vec<u32>: word-aligned whatever the allocator does with Vec<u8>.)
        let bytes: &mut [u8] =
            unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr().cast::<u8>(), 12) };
        let s = unsafe { Storage::in_place(&mut bytes[..8]) }.expect("aligned whole words");
        assert!(s.is_in_place());
        assert_eq!(s.len(), 2);
        assert_eq!(s[1].load(Relaxed).to_le_bytes(), [5, 6, 7, 8]);
        s[0].store(0xdead_beef, Relaxed);
        drop(s);
        assert_eq!(v[0], 0xdead_beef, "the store landed in the caller's bytes");
        let bytes: &mut [u8] =
            unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr().cast::<u8>(), 12) };
        assert!(
            unsafe { Storage::in_place(&mut bytes[..7]) }.is_none(),
            "a partial word"
        );
        assert!(
            unsafe { Storage::in_place(&mut bytes[1..9]) }.is_none(),
            "misaligned"
        );
    }
}
