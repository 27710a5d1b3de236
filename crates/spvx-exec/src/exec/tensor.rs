//! Tensor access (SPV_ARM_tensors, with the VK_ARM_tensors semantics of reference/tensors.md
//! §2a): reads and writes of one element or of consecutive elements along the innermost
//! dimension, element by element bounds-checked (coordinates of a signed type sign-extended, so
//! negative ones are outside; of an unsigned type zero-extended, so a uint8 200 is element
//! 200); an element outside the tensor reads as the OutOfBoundsValueARM operand or zero, and is
//! not written. Both are defined behaviour, so nothing is reported.

use crate::bits::{low_bits, sext};
use crate::exec::ctx::Ctx;
use crate::exec::mask::lanes;
use crate::memory::{Ptr, SPACE_BUFFER0, SPACE_PRIVATE, TensorView};
use crate::program::{Scalar, Slot};

/// Bytes of one tensor element: booleans are one byte (`VK_FORMAT_R8_BOOL_ARM`), other scalars
/// their own size.
pub fn element_bytes(s: Scalar) -> u32 {
    match s {
        Scalar::Bool => 1,
        other => other.mem_bytes(),
    }
}

/// Where a tensor operand's elements are: a bound storage tensor (its buffer index and view),
/// or a tensor value (a composite or constant: packed row-major in private memory at the
/// pointer, of the type's Shape).
enum Place<'v> {
    Bound(usize, &'v TensorView),
    Value(Ptr),
}

fn place<'v>(cx: &'v Ctx, tensor: Slot, lane: usize) -> Option<Place<'v>> {
    let p = Ptr(cx.get(tensor, lane));
    if p.space() == SPACE_PRIVATE {
        return Some(Place::Value(p));
    }
    view(cx, tensor, lane).map(|(b, v)| Place::Bound(b, v))
}

/// Packed row-major byte strides of `shape` with elements of `bytes` bytes.
fn packed(shape: &[u64], bytes: u32) -> Vec<u64> {
    let mut strides = vec![bytes as u64; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        strides[d] = strides[d + 1].saturating_mul(shape[d + 1]);
    }
    strides
}

/// The byte address of the element at `coord(d)` (d < rank) plus `k` along the innermost
/// dimension, or `None` outside.
fn address(
    shape: &[u64],
    strides: &[u64],
    rank: usize,
    coord: impl Fn(usize) -> u64,
    k: u32,
) -> Option<u64> {
    let mut addr = 0u64;
    for d in 0..rank {
        let mut c = coord(d);
        if d + 1 == rank {
            c = c.checked_add(k as u64)?;
        }
        if c >= *shape.get(d)? {
            return None;
        }
        addr = addr.checked_add(c.checked_mul(*strides.get(d)?)?)?;
    }
    Some(addr)
}

/// Element (`coord`, + `k` innermost) of the tensor in `tensor`'s slot on `lane`, as stored
/// (`None` outside). `shape` is the type's Shape (needed for a tensor value).
fn element_at(
    cx: &Ctx,
    tensor: Slot,
    lane: usize,
    shape: Option<&[u64]>,
    (rank, coord): (usize, &dyn Fn(usize) -> u64),
    k: u32,
    bytes: u32,
) -> Option<u64> {
    match place(cx, tensor, lane)? {
        Place::Bound(b, v) => {
            let at = address(&v.shape, &v.strides, rank, coord, k)?;
            cx.mem.buffers.get(b)?.read(at, bytes)
        }
        Place::Value(p) => {
            let shape = shape?;
            let at = address(shape, &packed(shape, bytes), rank, coord, k)?;
            cx.mem.read(lane, Ptr(p.0.wrapping_add(at)), bytes).ok()
        }
    }
}

fn view<'v>(cx: &'v Ctx, tensor: Slot, lane: usize) -> Option<(usize, &'v TensorView)> {
    let b = Ptr(cx.get(tensor, lane))
        .space()
        .checked_sub(SPACE_BUFFER0)? as usize;
    Some((b, cx.mem.tensors.get(b)?.as_ref()?))
}

/// OpTensorReadARM (`coords`: the first coordinate's slot, the rank, the coordinates' width).
#[allow(clippy::too_many_arguments)]
pub fn read(
    cx: &mut Ctx,
    dst: Slot,
    tensor: Slot,
    (coords, rank, coord_bits): (Slot, u8, u8),
    count: u32,
    element: Scalar,
    oob: Option<(Slot, bool)>,
    shape: Option<&[u64]>,
) {
    let bytes = element_bytes(element);
    for l in lanes(cx.mask) {
        for k in 0..count {
            let coord = |d: usize| sext(cx.get(coords + d as u32, l), coord_bits as u32) as u64;
            let value = element_at(cx, tensor, l, shape, (rank as usize, &coord), k, bytes);
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

/// A shaped tensor value from its constituents (`Inst::TensorPack`).
pub fn pack(cx: &mut Ctx, dst: Slot, at: u64, parts: &[Slot], element: Scalar, inner: &[u64]) {
    let bytes = element_bytes(element);
    let n: u64 = inner.iter().product();
    let inner_strides = packed(inner, 1);
    for l in lanes(cx.mask) {
        cx.set(dst, l, at);
        for (i, &part) in parts.iter().enumerate() {
            for j in 0..n {
                let v = if inner.is_empty() {
                    cx.get(part, l)
                } else {
                    // Element j (row-major) of the constituent tensor.
                    let coord = |d: usize| (j / inner_strides[d]) % inner[d];
                    element_at(cx, part, l, Some(inner), (inner.len(), &coord), 0, bytes)
                        .unwrap_or(0)
                };
                let v = if element == Scalar::Bool {
                    (v != 0) as u64
                } else {
                    v
                };
                let off = (i as u64 * n + j) * bytes as u64;
                let _ = cx
                    .mem
                    .write(l, Ptr(at.wrapping_add(off)), bytes, v & low_bits(bytes * 8));
            }
        }
    }
}

/// OpCompositeExtract from a shaped tensor (`Inst::TensorExtract`): elements `first` ..
/// `first + count` (row-major) of the tensor in `src`, of Shape `shape`.
pub fn extract(
    cx: &mut Ctx,
    dst: Slot,
    src: Slot,
    shape: &[u64],
    (first, count): (u64, u64),
    element: Scalar,
    at: Option<u64>,
) {
    let bytes = element_bytes(element);
    let strides = packed(shape, 1);
    for l in lanes(cx.mask) {
        for j in 0..count {
            let linear = first + j;
            let coord = |d: usize| (linear / strides[d]) % shape[d];
            let v =
                element_at(cx, src, l, Some(shape), (shape.len(), &coord), 0, bytes).unwrap_or(0);
            let v = if element == Scalar::Bool {
                (v != 0) as u64
            } else {
                v
            };
            match at {
                None => cx.set(dst, l, v),
                Some(at) => {
                    let _ = cx.mem.write(
                        l,
                        Ptr(at.wrapping_add(j * bytes as u64)),
                        bytes,
                        v & low_bits(bytes * 8),
                    );
                }
            }
        }
        if let Some(at) = at {
            cx.set(dst, l, at);
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
            let coord = |d: usize| sext(cx.get(coords + d as u32, l), coord_bits as u32) as u64;
            if let Some((b, view)) = view(cx, tensor, l)
                && let Some(at) = address(&view.shape, &view.strides, rank as usize, coord, k)
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
