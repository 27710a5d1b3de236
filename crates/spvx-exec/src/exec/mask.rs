//! Active-lane masks: bit `l` for lane `l` of a subgroup (at most 64 lanes).

/// The lanes set in `mask`, in increasing order.
#[inline]
pub fn lanes(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let l = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            Some(l)
        }
    })
}

/// The mask of all `width` lanes.
#[inline]
pub fn full_mask(width: usize) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}
