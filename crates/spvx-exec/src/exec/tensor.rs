//! Tensor access (SPV_ARM_tensors, with the VK_ARM_tensors semantics of reference/tensors.md
//! §2a): reads and writes of one element or of consecutive elements along the innermost
//! dimension, element by element bounds-checked (coordinates of a signed type sign-extended, so
//! negative ones are outside; of an unsigned type zero-extended, so a uint8 200 is element
//! 200); an element outside the tensor reads as the OutOfBoundsValueARM operand or zero, and is
//! not written. Both are defined behaviour, so nothing is reported.

use crate::bits::{low_bits, sext};
use crate::exec::ctx::Ctx;
use crate::exec::mask::lanes;
use crate::memory::{Ptr, SPACE_BUFFER0, TensorView};
use crate::program::{Scalar, Slot};

/// Bytes of one tensor element: booleans are one byte (`VK_FORMAT_R8_BOOL_ARM`), other scalars
/// their own size.
pub fn element_bytes(s: Scalar) -> u32 {
    match s {
        Scalar::Bool => 1,
        other => other.mem_bytes(),
    }
}

/// The byte address of element `k` along the innermost dimension, or `None` outside.
fn address(
    cx: &Ctx,
    view: &TensorView,
    coords: Slot,
    rank: u8,
    coord_bits: u8,
    lane: usize,
    k: u32,
) -> Option<u64> {
    let mut addr = 0u64;
    for d in 0..rank as usize {
        let mut c = sext(cx.get(coords + d as u32, lane), coord_bits as u32) as u64;
        if d + 1 == rank as usize {
            c = c.checked_add(k as u64)?;
        }
        if c >= *view.shape.get(d)? {
            return None;
        }
        addr = addr.checked_add(c.checked_mul(*view.strides.get(d)?)?)?;
    }
    Some(addr)
}

fn view<'v>(cx: &'v Ctx, tensor: Slot, lane: usize) -> Option<(usize, &'v TensorView)> {
    let b = Ptr(cx.get(tensor, lane))
        .space()
        .checked_sub(SPACE_BUFFER0)? as usize;
    Some((b, cx.mem.tensors.get(b)?.as_ref()?))
}

/// OpTensorReadARM.
#[allow(clippy::too_many_arguments)]
pub fn read(
    cx: &mut Ctx,
    dst: Slot,
    tensor: Slot,
    coords: Slot,
    rank: u8,
    coord_bits: u8,
    count: u32,
    element: Scalar,
    oob: Option<(Slot, bool)>,
) {
    let bytes = element_bytes(element);
    for l in lanes(cx.mask) {
        for k in 0..count {
            let value = view(cx, tensor, l).and_then(|(b, v)| {
                let at = address(cx, v, coords, rank, coord_bits, l, k)?;
                cx.mem.buffers.get(b)?.read(at, bytes)
            });
            let v = match (value, oob) {
                (Some(v), _) if element == Scalar::Bool => (v != 0) as u64,
                (Some(v), _) => v,
                (None, Some((s, true))) => cx.get(s + k, l),
                (None, Some((s, false))) => cx.get(s, l),
                (None, None) => 0,
            };
            cx.set(dst + k, l, v);
        }
    }
}

/// OpTensorWriteARM.
#[allow(clippy::too_many_arguments)]
pub fn write(
    cx: &mut Ctx,
    tensor: Slot,
    coords: Slot,
    rank: u8,
    coord_bits: u8,
    count: u32,
    element: Scalar,
    src: Slot,
) {
    let bytes = element_bytes(element);
    for l in lanes(cx.mask) {
        for k in 0..count {
            let v = cx.get(src + k, l) & low_bits(bytes * 8);
            if let Some((b, view)) = view(cx, tensor, l)
                && let Some(at) = address(cx, view, coords, rank, coord_bits, l, k)
                && let Some(buf) = cx.mem.buffers.get(b)
            {
                buf.write(at, bytes, v);
            }
        }
    }
}

/// OpTensorQuerySizeARM.
pub fn size(cx: &mut Ctx, dst: Slot, tensor: Slot, dim: u32, bits: u8) {
    for l in lanes(cx.mask) {
        let n = view(cx, tensor, l)
            .and_then(|(_, v)| v.shape.get(dim as usize).copied())
            .unwrap_or(0);
        cx.set(dst, l, n & low_bits(bits as u32));
    }
}
