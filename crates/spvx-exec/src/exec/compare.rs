//! Comparisons and logic: integer and float comparisons (ordered and unordered), the float
//! classification tests, and the boolean operations. Results are 0 or 1.

use crate::bits::sext;
use crate::exec::ctx::Ctx;
use crate::exec::float_bits::to_f64;
use crate::program::{FClassOp, FCmpOp, FloatFmt, ICmpOp, LogicOp, Slot};

/// Integer comparisons.
pub fn icmp(cx: &mut Ctx, op: ICmpOp, bits: u32, dst: Slot, a: Slot, b: Slot) {
    match op {
        ICmpOp::Eq => cx.pure2(dst, a, b, |x, y| (x == y) as u64),
        ICmpOp::Ne => cx.pure2(dst, a, b, |x, y| (x != y) as u64),
        ICmpOp::UGt => cx.pure2(dst, a, b, |x, y| (x > y) as u64),
        ICmpOp::UGe => cx.pure2(dst, a, b, |x, y| (x >= y) as u64),
        ICmpOp::ULt => cx.pure2(dst, a, b, |x, y| (x < y) as u64),
        ICmpOp::ULe => cx.pure2(dst, a, b, |x, y| (x <= y) as u64),
        _ if bits == 32 => signed_cmp(cx, op, dst, a, b, |x| x as u32 as i32 as i64),
        _ => signed_cmp(cx, op, dst, a, b, move |x| sext(x, bits)),
    }
}

/// The signed comparisons, with `s` reading a register as a signed value.
#[inline(always)]
fn signed_cmp(cx: &mut Ctx, op: ICmpOp, dst: Slot, a: Slot, b: Slot, s: impl Fn(u64) -> i64) {
    match op {
        ICmpOp::SGt => cx.pure2(dst, a, b, |x, y| (s(x) > s(y)) as u64),
        ICmpOp::SGe => cx.pure2(dst, a, b, |x, y| (s(x) >= s(y)) as u64),
        ICmpOp::SLt => cx.pure2(dst, a, b, |x, y| (s(x) < s(y)) as u64),
        _ => cx.pure2(dst, a, b, |x, y| (s(x) <= s(y)) as u64),
    }
}

/// Float comparisons: ordered forms are false when either operand is NaN, unordered forms
/// true.
pub fn fcmp(cx: &mut Ctx, op: FCmpOp, ordered: bool, fmt: FloatFmt, dst: Slot, a: Slot, b: Slot) {
    cx.map2(dst, a, b, |x, y| {
        let (x, y) = (to_f64(fmt, x), to_f64(fmt, y));
        if x.is_nan() || y.is_nan() {
            return (!ordered) as u64;
        }
        (match op {
            FCmpOp::Eq => x == y,
            FCmpOp::Ne => x != y,
            FCmpOp::Lt => x < y,
            FCmpOp::Gt => x > y,
            FCmpOp::Le => x <= y,
            FCmpOp::Ge => x >= y,
            FCmpOp::Ord => true,
            FCmpOp::Uno => false,
        }) as u64
    });
}

/// OpIsNan, OpIsInf, OpIsFinite, OpIsNormal, OpSignBitSet.
pub fn fclass(cx: &mut Ctx, op: FClassOp, fmt: FloatFmt, dst: Slot, a: Slot) {
    let sign = 1u64 << (fmt.bits() - 1);
    cx.map1(dst, a, |x| {
        let v = to_f64(fmt, x);
        (match op {
            FClassOp::IsNan => v.is_nan(),
            FClassOp::IsInf => v.is_infinite(),
            FClassOp::IsFinite => v.is_finite(),
            FClassOp::IsNormal => {
                // Normal in the operand's own format: finite, non-zero, at least the smallest
                // normal of the format.
                let min_normal = 2f64.powi(fmt.format().min_normal_exponent());
                v.is_finite() && v.abs() >= min_normal
            }
            FClassOp::SignBitSet => x & sign != 0,
        }) as u64
    });
}

/// OpLogicalAnd, OpLogicalOr, OpLogicalEqual, OpLogicalNotEqual.
pub fn logic(cx: &mut Ctx, op: LogicOp, dst: Slot, a: Slot, b: Slot) {
    match op {
        LogicOp::And => cx.pure2(dst, a, b, |x, y| x & y),
        LogicOp::Or => cx.pure2(dst, a, b, |x, y| x | y),
        LogicOp::Equal => cx.pure2(dst, a, b, |x, y| (x == y) as u64),
        LogicOp::NotEqual => cx.pure2(dst, a, b, |x, y| (x != y) as u64),
    }
}
