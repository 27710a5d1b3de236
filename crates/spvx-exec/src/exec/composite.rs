//! Composite instructions with run-time indices (OpVectorExtractDynamic,
//! OpVectorInsertDynamic). Constant-index composite instructions (construct, extract, insert,
//! shuffle) are compiled to register copies.
//!
//! An index outside the vector is undefined in SPIR-V: extraction gives 0, insertion leaves the
//! vector unchanged.

use crate::bits::sext;
use crate::exec::ctx::Ctx;
use crate::exec::mask::lanes;
use crate::program::Slot;

/// `dst = base[index]`.
pub fn extract_dyn(cx: &mut Ctx, dst: Slot, base: Slot, count: u32, index: Slot, index_bits: u8) {
    for l in lanes(cx.mask) {
        let i = sext(cx.get(index, l), index_bits as u32);
        let v = if (0..count as i64).contains(&i) {
            cx.get(base + i as u32, l)
        } else {
            0
        };
        cx.set(dst, l, v);
    }
}

/// `dst = src; dst[index] = value`.
pub fn insert_dyn(
    cx: &mut Ctx,
    dst: Slot,
    src: Slot,
    count: u32,
    value: Slot,
    index: Slot,
    index_bits: u8,
) {
    for l in lanes(cx.mask) {
        let i = sext(cx.get(index, l), index_bits as u32);
        let v = cx.get(value, l);
        for c in 0..count {
            let x = if i == c as i64 { v } else { cx.get(src + c, l) };
            cx.set(dst + c, l, x);
        }
    }
}
