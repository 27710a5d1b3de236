//! Comparisons and logic: integer and float comparisons (ordered and unordered), the float
//! classification tests, and the boolean operations. Results are 0 or 1.

use super::{Ctx, float::to_f64, sext};
use crate::program::{FClassOp, FCmpOp, FloatFmt, ICmpOp, LogicOp, Slot};

/// Integer comparisons.
pub fn icmp(cx: &mut Ctx, op: ICmpOp, bits: u32, dst: Slot, a: Slot, b: Slot) {
    let s = move |x: u64| sext(x, bits);
    match op {
        ICmpOp::Eq => cx.map2(dst, a, b, |x, y| (x == y) as u64),
        ICmpOp::Ne => cx.map2(dst, a, b, |x, y| (x != y) as u64),
        ICmpOp::UGt => cx.map2(dst, a, b, |x, y| (x > y) as u64),
        ICmpOp::UGe => cx.map2(dst, a, b, |x, y| (x >= y) as u64),
        ICmpOp::ULt => cx.map2(dst, a, b, |x, y| (x < y) as u64),
        ICmpOp::ULe => cx.map2(dst, a, b, |x, y| (x <= y) as u64),
        ICmpOp::SGt => cx.map2(dst, a, b, |x, y| (s(x) > s(y)) as u64),
        ICmpOp::SGe => cx.map2(dst, a, b, |x, y| (s(x) >= s(y)) as u64),
        ICmpOp::SLt => cx.map2(dst, a, b, |x, y| (s(x) < s(y)) as u64),
        ICmpOp::SLe => cx.map2(dst, a, b, |x, y| (s(x) <= s(y)) as u64),
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
        LogicOp::And => cx.map2(dst, a, b, |x, y| x & y),
        LogicOp::Or => cx.map2(dst, a, b, |x, y| x | y),
        LogicOp::Equal => cx.map2(dst, a, b, |x, y| (x == y) as u64),
        LogicOp::NotEqual => cx.map2(dst, a, b, |x, y| (x != y) as u64),
    }
}
