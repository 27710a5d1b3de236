//! Bit instructions: shifts, OpNot, OpBitReverse, OpBitCount, OpSNegate (two's complement),
//! and the bit-field instructions.
//!
//! A shift amount at or above the width, and a bit field reaching past the width, are
//! undefined in SPIR-V: spvx shifts as if one bit at a time (0 for logical and left shifts,
//! copies of the sign bit for the arithmetic one) and clamps bit fields to the width, and
//! reports the shift (bit fields are not reported).

use crate::bits::{low_bits, sext};
use crate::exec::ctx::{Ctx, Stop};
use crate::exec::mask::lanes;
use crate::program::{IBinOp, IUnOp, Slot};
use crate::report::UbKind;

/// OpShiftLeftLogical, OpShiftRightLogical, OpShiftRightArithmetic.
pub fn shift(cx: &mut Ctx, op: IBinOp, bits: u32, dst: Slot, a: Slot, b: Slot) -> Result<(), Stop> {
    let m = low_bits(bits);
    let limit = bits as u64;
    let w = cx.width;
    let amounts = &cx.regs[b as usize * w..(b as usize + 1) * w];
    // Every lane's amount below the width (the usual case, checked with one OR over the lanes
    // when the width is a power of two), else the exact test on the active lanes.
    let all_below = if bits.is_power_of_two() {
        amounts.iter().fold(0, |o, s| o | s) < limit
    } else {
        amounts.iter().all(|s| *s < limit)
    };
    if !all_below && lanes(cx.mask).any(|l| amounts[l] >= limit) {
        return shift_reporting(cx, op, bits, dst, a, b);
    }
    // No active lane shifts by the width or more.
    match op {
        IBinOp::Shl => cx.pure2(dst, a, b, |x, s| (x << (s & 63)) & m),
        IBinOp::ShrLogical => cx.pure2(dst, a, b, |x, s| x >> (s & 63)),
        _ => cx.pure2(dst, a, b, |x, s| (sext(x, bits) >> (s & 63)) as u64 & m),
    }
    Ok(())
}

/// [`shift`] lane by lane, reporting the lanes whose amount is the width or more.
fn shift_reporting(
    cx: &mut Ctx,
    op: IBinOp,
    bits: u32,
    dst: Slot,
    a: Slot,
    b: Slot,
) -> Result<(), Stop> {
    let m = low_bits(bits);
    for l in lanes(cx.mask) {
        let (x, s) = (cx.get(a, l), cx.get(b, l));
        let too_far = s >= bits as u64;
        let r = match op {
            IBinOp::Shl if too_far => 0,
            IBinOp::Shl => (x << s) & m,
            IBinOp::ShrLogical if too_far => 0,
            IBinOp::ShrLogical => x >> s,
            _ => {
                let v = sext(x, bits);
                (v >> s.min(63)) as u64 & m
            }
        };
        cx.set(dst, l, r);
        if too_far {
            cx.report(UbKind::ShiftOutOfRange { shift: s, bits }, l)?;
        }
    }
    Ok(())
}

/// One-operand bit operations and OpSNegate.
pub fn iun(cx: &mut Ctx, op: IUnOp, bits: u32, dst: Slot, a: Slot) {
    let m = low_bits(bits);
    match op {
        IUnOp::Negate => cx.pure1(dst, a, |x| x.wrapping_neg() & m),
        IUnOp::Not => cx.pure1(dst, a, |x| !x & m),
        IUnOp::BitReverse => cx.map1(dst, a, |x| x.reverse_bits() >> (64 - bits)),
        IUnOp::BitCount => cx.map1(dst, a, |x| (x & m).count_ones() as u64),
    }
}

/// OpBitFieldInsert.
pub fn field_insert(
    cx: &mut Ctx,
    bits: u32,
    dst: Slot,
    base: Slot,
    insert: Slot,
    offset: Slot,
    count: Slot,
) {
    for l in lanes(cx.mask) {
        let off = cx.get(offset, l).min(bits as u64) as u32;
        let n = cx.get(count, l).min((bits - off) as u64) as u32;
        let field = low_bits(n).checked_shl(off).unwrap_or(0);
        let moved = cx.get(insert, l).checked_shl(off).unwrap_or(0);
        let v = (cx.get(base, l) & !field) | (moved & field);
        cx.set(dst, l, v & low_bits(bits));
    }
}

/// OpBitFieldSExtract / OpBitFieldUExtract.
pub fn field_extract(
    cx: &mut Ctx,
    bits: u32,
    signed: bool,
    dst: Slot,
    base: Slot,
    offset: Slot,
    count: Slot,
) {
    for l in lanes(cx.mask) {
        let off = cx.get(offset, l).min(bits as u64) as u32;
        let n = cx.get(count, l).min((bits - off) as u64) as u32;
        let v = if n == 0 {
            0
        } else {
            let f = cx.get(base, l).checked_shr(off).unwrap_or(0) & low_bits(n);
            if signed {
                sext(f, n) as u64 & low_bits(bits)
            } else {
                f
            }
        };
        cx.set(dst, l, v);
    }
}
