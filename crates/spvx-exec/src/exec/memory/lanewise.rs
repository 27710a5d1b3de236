//! Loads, stores, access chains and variable initialisation applied to a whole subgroup at
//! once. Each function either does the instruction's whole work and returns true, or changes
//! nothing and returns false, and the caller then takes the per-lane path, which handles
//! everything unusual: lanes pointing into different spaces, any access possibly out of
//! bounds, stores into read-only buffers or with writer tracking on, out-of-range indices (all
//! of which produce events). The results are the same bytes and registers as the per-lane path
//! in every case the fast path takes: same addresses, same lane-then-leaf write order.

use crate::bits::sext;
use crate::exec::ctx::Ctx;
use crate::exec::mask::lanes;
use crate::memory::{LaneBytes, LaneSpan, LaneView, Ptr};
use crate::program::{ChainStep, Leaf, Scalar, Slot};

/// The most lanes a subgroup has (lane masks are 64 bits).
const MAX_LANES: usize = 64;

/// All `width` lanes.
#[inline(always)]
fn all_lanes(width: usize) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// One past the furthest byte any leaf touches, or `None` when a leaf's size is not 1, 2, 4
/// or 8 bytes.
fn extent(leaves: &[Leaf]) -> Option<u64> {
    leaves.iter().try_fold(0u64, |end, leaf| {
        let bytes = leaf.scalar.mem_bytes();
        matches!(bytes, 1 | 2 | 4 | 8).then(|| end.max(leaf.offset as u64 + bytes as u64))
    })
}

/// The active lanes' pointer offsets (in `offsets`) and their common space, or `None`.
#[inline(always)]
fn span(cx: &Ctx, ptr: Slot, offsets: &mut [u64; MAX_LANES]) -> Option<LaneSpan> {
    let w = cx.width;
    if w > MAX_LANES {
        return None;
    }
    let p = ptr as usize * w;
    LaneSpan::of(cx.regs.get(p..p + w)?, cx.mask, &mut offsets[..w])
}

/// OpLoad for the whole subgroup.
pub(super) fn load(cx: &mut Ctx, dst: Slot, ptr: Slot, leaves: &[Leaf]) -> bool {
    let Some(end) = extent(leaves) else {
        return false;
    };
    let mut offsets = [0u64; MAX_LANES];
    let Some(span) = span(cx, ptr, &mut offsets) else {
        return false;
    };
    let (w, mask) = (cx.width, cx.mask);
    let Some(view) = cx.mem.lane_view(span, end, false) else {
        return false;
    };
    let regs = &mut *cx.regs;
    match &view {
        LaneView::Private(m) => load_leaves(m, regs, w, mask, dst, &offsets, leaves),
        LaneView::Workgroup(m) => load_leaves(m, regs, w, mask, dst, &offsets, leaves),
        LaneView::Buffer(m) => load_leaves(m, regs, w, mask, dst, &offsets, leaves),
    }
    true
}

fn load_leaves<M: LaneBytes>(
    m: &M,
    regs: &mut [u64],
    w: usize,
    mask: u64,
    dst: Slot,
    offsets: &[u64; MAX_LANES],
    leaves: &[Leaf],
) {
    for leaf in leaves {
        let d = (dst + leaf.slot) as usize * w;
        let out = &mut regs[d..d + w];
        let at = leaf.offset as usize;
        match leaf.scalar.mem_bytes() {
            1 => gather::<M, 1>(m, out, mask, offsets, at),
            2 => gather::<M, 2>(m, out, mask, offsets, at),
            4 => gather::<M, 4>(m, out, mask, offsets, at),
            _ => gather::<M, 8>(m, out, mask, offsets, at),
        }
        if leaf.scalar == Scalar::Bool {
            for l in lanes(mask) {
                out[l] = (out[l] != 0) as u64;
            }
        }
    }
}

#[inline(always)]
fn gather<M: LaneBytes, const N: usize>(
    m: &M,
    out: &mut [u64],
    mask: u64,
    offsets: &[u64; MAX_LANES],
    at: usize,
) {
    if mask == all_lanes(out.len()) {
        for (l, (o, &off)) in out.iter_mut().zip(offsets.iter()).enumerate() {
            *o = m.get::<N>(l, off as usize + at);
        }
    } else {
        for l in lanes(mask) {
            out[l] = m.get::<N>(l, offsets[l] as usize + at);
        }
    }
}

/// OpStore for the whole subgroup.
pub(super) fn store(cx: &mut Ctx, ptr: Slot, src: Slot, leaves: &[Leaf]) -> bool {
    let Some(end) = extent(leaves) else {
        return false;
    };
    let mut offsets = [0u64; MAX_LANES];
    let Some(span) = span(cx, ptr, &mut offsets) else {
        return false;
    };
    let (w, mask) = (cx.width, cx.mask);
    let regs = &*cx.regs;
    if regs.len()
        < (src as usize
            + leaves
                .iter()
                .map(|l| l.slot as usize + 1)
                .max()
                .unwrap_or(0))
            * w
    {
        return false;
    }
    let Some(view) = cx.mem.lane_view(span, end, true) else {
        return false;
    };
    match view {
        LaneView::Private(mut m) => store_leaves(&mut m, regs, w, mask, src, &offsets, leaves),
        LaneView::Workgroup(mut m) => store_leaves(&mut m, regs, w, mask, src, &offsets, leaves),
        LaneView::Buffer(mut m) => store_leaves(&mut m, regs, w, mask, src, &offsets, leaves),
    }
    true
}

fn store_leaves<M: LaneBytes>(
    m: &mut M,
    regs: &[u64],
    w: usize,
    mask: u64,
    src: Slot,
    offsets: &[u64; MAX_LANES],
    leaves: &[Leaf],
) {
    if let [leaf] = leaves {
        let s = (src + leaf.slot) as usize * w;
        let values = &regs[s..s + w];
        let at = leaf.offset as usize;
        match leaf.scalar.mem_bytes() {
            1 => scatter::<M, 1>(m, values, mask, offsets, at),
            2 => scatter::<M, 2>(m, values, mask, offsets, at),
            4 => scatter::<M, 4>(m, values, mask, offsets, at),
            _ => scatter::<M, 8>(m, values, mask, offsets, at),
        }
        return;
    }
    // Several leaves: lane by lane, each lane's leaves in order (as the per-lane path, so
    // that overlapping lanes leave the same bytes).
    for l in lanes(mask) {
        let base = offsets[l] as usize;
        for leaf in leaves {
            let v = regs[(src + leaf.slot) as usize * w + l];
            let o = base + leaf.offset as usize;
            match leaf.scalar.mem_bytes() {
                1 => m.put::<1>(l, o, v),
                2 => m.put::<2>(l, o, v),
                4 => m.put::<4>(l, o, v),
                _ => m.put::<8>(l, o, v),
            }
        }
    }
}

#[inline(always)]
fn scatter<M: LaneBytes, const N: usize>(
    m: &mut M,
    values: &[u64],
    mask: u64,
    offsets: &[u64; MAX_LANES],
    at: usize,
) {
    let w = values.len();
    if mask == all_lanes(w) {
        let start = offsets[0] as usize + at;
        let contiguous = offsets[..w]
            .iter()
            .enumerate()
            .all(|(l, &o)| o as usize == offsets[0] as usize + l * N);
        if contiguous {
            m.put_run::<N>(start, values);
        } else {
            for (l, (&v, &off)) in values.iter().zip(offsets.iter()).enumerate() {
                m.put::<N>(l, off as usize + at, v);
            }
        }
    } else {
        for l in lanes(mask) {
            m.put::<N>(l, offsets[l] as usize + at, values[l]);
        }
    }
}

/// OpVariable with Private or Workgroup storage for the whole subgroup: every active lane's
/// `dst` is `ptr`, the `size` bytes are zeroed, then the initialiser's leaves written.
pub(super) fn var_init(
    cx: &mut Ctx,
    dst: Slot,
    ptr: u64,
    size: u32,
    init: Option<&(Slot, Box<[Leaf]>)>,
) -> bool {
    let (w, mask) = (cx.width, cx.mask);
    if w > MAX_LANES || mask == 0 || (w < 64 && mask >> w != 0) {
        return false;
    }
    let leaves: &[Leaf] = init.map_or(&[], |(_, leaves)| leaves);
    let Some(end) = extent(leaves) else {
        return false;
    };
    let src = init.map_or(0, |(src, _)| *src);
    let needed = (src as usize
        + leaves
            .iter()
            .map(|l| l.slot as usize + 1)
            .max()
            .unwrap_or(0))
    .max(dst as usize + 1)
        * w;
    if cx.regs.len() < needed {
        return false;
    }
    let p = Ptr(ptr);
    let (off, size) = (p.offset() as usize, size as usize);
    let span = LaneSpan {
        space: p.space(),
        high: p.offset(),
    };
    let regs = &mut *cx.regs;
    match cx.mem.lane_view(span, end.max(size as u64), true) {
        Some(LaneView::Private(mut m)) => {
            for l in lanes(mask) {
                let start = l * m.per_lane + off;
                m.bytes[start..start + size].fill(0);
                write_leaves(&mut m, regs, w, l, off, src, leaves);
            }
        }
        Some(LaneView::Workgroup(mut m)) => {
            // Every lane zeroes the same bytes and writes the same leaves: what stays is the
            // zeros and the last active lane's values.
            m.0[off..off + size].fill(0);
            let last = 63 - mask.leading_zeros() as usize;
            write_leaves(&mut m, regs, w, last, off, src, leaves);
        }
        _ => return false,
    }
    let d = dst as usize * w;
    for l in lanes(mask) {
        regs[d + l] = ptr;
    }
    true
}

/// Lane `l` writes its leaves `regs[src + leaf.slot]` at `base + leaf.offset`.
fn write_leaves<M: LaneBytes>(
    m: &mut M,
    regs: &[u64],
    w: usize,
    l: usize,
    base: usize,
    src: Slot,
    leaves: &[Leaf],
) {
    for leaf in leaves {
        let v = regs[(src + leaf.slot) as usize * w + l];
        let o = base + leaf.offset as usize;
        match leaf.scalar.mem_bytes() {
            1 => m.put::<1>(l, o, v),
            2 => m.put::<2>(l, o, v),
            4 => m.put::<4>(l, o, v),
            _ => m.put::<8>(l, o, v),
        }
    }
}

/// OpAccessChain for the whole subgroup: `dst = base + offset + Σ index × stride`, computed
/// step by step over all lanes. Returns false (nothing written) when an active lane's index
/// is outside its array, which the per-lane path reports.
pub(super) fn access_chain(
    cx: &mut Ctx,
    dst: Slot,
    base: Slot,
    offset: u32,
    steps: &[ChainStep],
) -> bool {
    let (w, mask) = (cx.width, cx.mask);
    if w > MAX_LANES {
        return false;
    }
    let mut delta = [offset as i64; MAX_LANES];
    let delta = &mut delta[..w];
    let mut outside = 0u64;
    for s in steps {
        let i = s.index as usize * w;
        let Some(index) = cx.regs.get(i..i + w) else {
            return false;
        };
        let (bits, stride) = (s.index_bits as u32, s.stride as i64);
        match s.length {
            None => {
                for (d, &x) in delta.iter_mut().zip(index) {
                    *d = d.wrapping_add(sext(x, bits).wrapping_mul(stride));
                }
            }
            Some(len) => {
                for (l, (d, &x)) in delta.iter_mut().zip(index).enumerate() {
                    let i = sext(x, bits);
                    outside |= (!(0..len as i64).contains(&i) as u64) << l;
                    *d = d.wrapping_add(i.wrapping_mul(stride));
                }
            }
        }
    }
    if outside & mask != 0 {
        return false;
    }
    let (d, b) = (dst as usize * w, base as usize * w);
    if cx.regs.len() < d.max(b) + w {
        return false;
    }
    // Ptr::offset_by wraps within the offset field, so one sum of the steps' deltas gives the
    // same pointer as applying them one by one.
    if mask == all_lanes(w) {
        for (l, &dl) in delta.iter().enumerate() {
            cx.regs[d + l] = Ptr(cx.regs[b + l]).offset_by(dl).0;
        }
    } else {
        for l in lanes(mask) {
            cx.regs[d + l] = Ptr(cx.regs[b + l]).offset_by(delta[l]).0;
        }
    }
    true
}
