//! One memory object resolved for a whole subgroup: when every active lane of a load or store
//! points into the same memory space and the furthest byte any lane touches is inside the
//! object, the instruction needs neither a per-lane space lookup nor per-lane bounds checks.
//! [`LaneSpan`] summarises the lanes' pointers, [`Memory::lane_view`] checks the bounds once and
//! gives a [`LaneView`], whose [`LaneBytes`] accessors read and write without further checks
//! (beyond Rust's own slice indexing, which cannot fail once the view was granted).

use super::{
    Memory, OFFSET_BITS, OFFSET_MASK, SPACE_BUFFER0, SPACE_PRIVATE, SPACE_WORKGROUP, SharedBuffer,
};

/// Where the active lanes' pointers of one instruction point: a single memory space, and the
/// highest byte offset among them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneSpan {
    pub space: u32,
    pub high: u64,
}

impl LaneSpan {
    /// The span of the pointers `ptrs[l]` (raw [`super::Ptr`] bits) over the lanes set in
    /// `mask`, writing each such lane's byte offset to `offsets[l]`. `None` when no lane is
    /// set, a set lane has no pointer or offset entry, or two lanes point into different spaces.
    #[inline]
    pub fn of(ptrs: &[u64], mask: u64, offsets: &mut [u64]) -> Option<LaneSpan> {
        let n = ptrs.len().min(offsets.len());
        if mask == 0 || (n < 64 && mask >> n != 0) {
            return None;
        }
        let space_bits = ptrs[mask.trailing_zeros() as usize] >> OFFSET_BITS;
        let (mut high, mut differ) = (0u64, 0u64);
        if n < 64 && mask == (1u64 << n) - 1 || n == 64 && mask == u64::MAX {
            for (o, &p) in offsets[..n].iter_mut().zip(&ptrs[..n]) {
                differ |= (p >> OFFSET_BITS) ^ space_bits;
                *o = p & OFFSET_MASK;
                high = high.max(*o);
            }
        } else {
            let mut m = mask;
            while m != 0 {
                let l = m.trailing_zeros() as usize;
                m &= m - 1;
                let p = ptrs[l];
                differ |= (p >> OFFSET_BITS) ^ space_bits;
                offsets[l] = p & OFFSET_MASK;
                high = high.max(offsets[l]);
            }
        }
        (differ == 0).then_some(LaneSpan {
            space: space_bits as u32,
            high,
        })
    }
}

/// Reads and writes of `N` (1, 2, 4 or 8) little-endian bytes by lane at a byte offset into
/// a memory object whose bounds were checked for the whole subgroup.
pub trait LaneBytes {
    /// The `N` bytes lane `lane` sees at `offset`.
    fn get<const N: usize>(&self, lane: usize, offset: usize) -> u64;
    /// Writes the low `N` bytes of `value` where lane `lane` sees `offset`.
    fn put<const N: usize>(&mut self, lane: usize, offset: usize, value: u64);
    /// Lane `l` (for `l` in `0..values.len()`) writes `values[l]` at `start + l·N`: a
    /// subgroup's contiguous store.
    fn put_run<const N: usize>(&mut self, start: usize, values: &[u64]) {
        for (l, &v) in values.iter().enumerate() {
            self.put::<N>(l, start + l * N, v);
        }
    }
}

/// The lanes' private memories: lane `l` owns `bytes[l·per_lane..(l+1)·per_lane]`.
pub struct PrivateLanes<'v> {
    pub bytes: &'v mut [u8],
    pub per_lane: usize,
}

/// Memory all lanes see alike (the workgroup's shared memory).
pub struct CommonBytes<'v>(pub &'v mut [u8]);

/// A bound buffer.
pub struct BufferLanes<'v>(pub &'v SharedBuffer);

/// The memory object of one subgroup access, its bounds checked.
pub enum LaneView<'v> {
    Private(PrivateLanes<'v>),
    Workgroup(CommonBytes<'v>),
    Buffer(BufferLanes<'v>),
}

#[inline(always)]
fn le_get<const N: usize>(s: &[u8], o: usize) -> u64 {
    let mut a = [0u8; 8];
    a[..N].copy_from_slice(&s[o..o + N]);
    u64::from_le_bytes(a)
}

#[inline(always)]
fn le_put<const N: usize>(s: &mut [u8], o: usize, value: u64) {
    s[o..o + N].copy_from_slice(&value.to_le_bytes()[..N]);
}

impl LaneBytes for PrivateLanes<'_> {
    #[inline(always)]
    fn get<const N: usize>(&self, lane: usize, offset: usize) -> u64 {
        le_get::<N>(self.bytes, lane * self.per_lane + offset)
    }
    #[inline(always)]
    fn put<const N: usize>(&mut self, lane: usize, offset: usize, value: u64) {
        le_put::<N>(self.bytes, lane * self.per_lane + offset, value)
    }
}

impl LaneBytes for CommonBytes<'_> {
    #[inline(always)]
    fn get<const N: usize>(&self, _lane: usize, offset: usize) -> u64 {
        le_get::<N>(self.0, offset)
    }
    #[inline(always)]
    fn put<const N: usize>(&mut self, _lane: usize, offset: usize, value: u64) {
        le_put::<N>(self.0, offset, value)
    }
}

impl LaneBytes for BufferLanes<'_> {
    #[inline(always)]
    fn get<const N: usize>(&self, _lane: usize, offset: usize) -> u64 {
        self.0.get::<N>(offset)
    }
    #[inline(always)]
    fn put<const N: usize>(&mut self, _lane: usize, offset: usize, value: u64) {
        self.0.put::<N>(offset, value)
    }
    fn put_run<const N: usize>(&mut self, start: usize, values: &[u64]) {
        if N >= 4 && start.is_multiple_of(4) {
            for (l, &v) in values.iter().enumerate() {
                self.0.put::<N>(start + l * N, v);
            }
        } else {
            self.0.write_run::<N>(start, values);
        }
    }
}

impl Memory<'_> {
    /// The memory object in `span.space` when every lane's access `[offset, offset + extent)`
    /// (offset ≤ `span.high`) lies inside it. `None` (use the per-lane path) for any other
    /// space, when some access may be out of bounds, and for a `write` into a read-only buffer
    /// or while writer tracking is on (both need per-lane handling).
    pub fn lane_view(&mut self, span: LaneSpan, extent: u64, write: bool) -> Option<LaneView<'_>> {
        let fits = |len: usize| {
            span.high
                .checked_add(extent)
                .is_some_and(|end| end <= len as u64)
        };
        match span.space {
            SPACE_PRIVATE => {
                let per_lane = self.private_bytes;
                fits(per_lane).then_some(LaneView::Private(PrivateLanes {
                    bytes: &mut *self.private,
                    per_lane,
                }))
            }
            SPACE_WORKGROUP => fits(self.workgroup.len())
                .then_some(LaneView::Workgroup(CommonBytes(&mut *self.workgroup))),
            s => {
                let b = self.buffers.get(s.checked_sub(SPACE_BUFFER0)? as usize)?;
                if write && (b.read_only || self.writer_base.is_some()) {
                    return None;
                }
                fits(b.len()).then_some(LaneView::Buffer(BufferLanes(b)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::LaneSpan;
    use crate::memory::Ptr;

    #[test]
    fn span_of_full_and_partial_masks() {
        let ptrs: Vec<u64> = (0..8).map(|l| Ptr::new(5, 100 + 4 * l).0).collect();
        let mut offs = [0u64; 8];
        assert_eq!(
            LaneSpan::of(&ptrs, 0xff, &mut offs),
            Some(LaneSpan {
                space: 5,
                high: 128
            })
        );
        assert_eq!(offs, [100, 104, 108, 112, 116, 120, 124, 128]);
        let mut mixed = ptrs.clone();
        mixed[6] = Ptr::new(6, 0).0;
        assert_eq!(LaneSpan::of(&mixed, 0xff, &mut offs), None);
        // Lane 6 inactive: its other space does not matter.
        assert_eq!(
            LaneSpan::of(&mixed, 0b1011_1110, &mut offs),
            Some(LaneSpan {
                space: 5,
                high: 128
            })
        );
        assert_eq!(LaneSpan::of(&ptrs, 0, &mut offs), None);
        assert_eq!(LaneSpan::of(&ptrs, 1 << 9, &mut offs), None);
    }
}
