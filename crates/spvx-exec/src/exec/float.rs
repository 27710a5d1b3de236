//! Float arithmetic: OpFAdd, OpFSub, OpFMul, OpFDiv, OpFRem, OpFMod, OpFNegate (the
//! conversions between register patterns and host floats are in `float_bits`).
//!
//! fp32 and fp64 use the host's IEEE 754 operations (correctly rounded, round to nearest
//! even). fp16 operands are widened exactly to f64, the operation is done once in f64 and the
//! result rounded to fp16 by spvx-num: for +, −, ×, ÷ and √ this double rounding is innocuous
//! because 53 ≥ 2·11 + 2 (Figueroa, "When is double rounding innocuous?", 1995), so the result
//! is the correctly rounded fp16 one. Every NaN result is the canonical quiet NaN (positive,
//! payload 0: 0x7e00, 0x7fc00000, 0x7ff8000000000000) so that results do not depend on the
//! host's NaN propagation.

use crate::exec::ctx::Ctx;
use crate::exec::float_bits::{from_f64, to_f64};
use crate::program::{FBinOp, FloatFmt, Slot};

#[inline]
fn f32_bits(x: f32) -> u64 {
    if x.is_nan() {
        0x7fc0_0000
    } else {
        x.to_bits() as u64
    }
}

#[inline]
fn f64_bits(x: f64) -> u64 {
    if x.is_nan() {
        0x7ff8_0000_0000_0000
    } else {
        x.to_bits()
    }
}

/// OpFMod on exact values: the remainder with the sign of the divisor, one rounding.
#[inline]
fn fmod_sign_of_divisor(x: f64, y: f64) -> f64 {
    let r = x % y;
    if r != 0.0 && (r < 0.0) != (y < 0.0) {
        r + y
    } else {
        r
    }
}

#[inline]
fn fmod32(x: f32, y: f32) -> f32 {
    let r = x % y;
    if r != 0.0 && (r < 0.0) != (y < 0.0) {
        r + y
    } else {
        r
    }
}

/// Runs a two-operand float operation.
pub fn fbin(cx: &mut Ctx, op: FBinOp, fmt: FloatFmt, dst: Slot, a: Slot, b: Slot) {
    match fmt {
        FloatFmt::F32 => {
            let f = |x: u64, y: u64| (f32::from_bits(x as u32), f32::from_bits(y as u32));
            match op {
                FBinOp::Add => cx.map2(dst, a, b, |x, y| {
                    let (x, y) = f(x, y);
                    f32_bits(x + y)
                }),
                FBinOp::Sub => cx.map2(dst, a, b, |x, y| {
                    let (x, y) = f(x, y);
                    f32_bits(x - y)
                }),
                FBinOp::Mul => cx.map2(dst, a, b, |x, y| {
                    let (x, y) = f(x, y);
                    f32_bits(x * y)
                }),
                FBinOp::Div => cx.map2(dst, a, b, |x, y| {
                    let (x, y) = f(x, y);
                    f32_bits(x / y)
                }),
                FBinOp::Rem => cx.map2(dst, a, b, |x, y| {
                    let (x, y) = f(x, y);
                    f32_bits(x % y)
                }),
                FBinOp::Mod => cx.map2(dst, a, b, |x, y| {
                    let (x, y) = f(x, y);
                    f32_bits(fmod32(x, y))
                }),
            }
        }
        FloatFmt::F64 => {
            let f = |x: u64, y: u64| (f64::from_bits(x), f64::from_bits(y));
            match op {
                FBinOp::Add => cx.map2(dst, a, b, |x, y| {
                    let (x, y) = f(x, y);
                    f64_bits(x + y)
                }),
                FBinOp::Sub => cx.map2(dst, a, b, |x, y| {
                    let (x, y) = f(x, y);
                    f64_bits(x - y)
                }),
                FBinOp::Mul => cx.map2(dst, a, b, |x, y| {
                    let (x, y) = f(x, y);
                    f64_bits(x * y)
                }),
                FBinOp::Div => cx.map2(dst, a, b, |x, y| {
                    let (x, y) = f(x, y);
                    f64_bits(x / y)
                }),
                FBinOp::Rem => cx.map2(dst, a, b, |x, y| {
                    let (x, y) = f(x, y);
                    f64_bits(x % y)
                }),
                FBinOp::Mod => cx.map2(dst, a, b, |x, y| {
                    let (x, y) = f(x, y);
                    f64_bits(fmod_sign_of_divisor(x, y))
                }),
            }
        }
        _ => {
            let g: fn(f64, f64) -> f64 = match op {
                FBinOp::Add => |x, y| x + y,
                FBinOp::Sub => |x, y| x - y,
                FBinOp::Mul => |x, y| x * y,
                FBinOp::Div => |x, y| x / y,
                FBinOp::Rem => |x, y| x % y,
                FBinOp::Mod => fmod_sign_of_divisor,
            };
            cx.map2(dst, a, b, |x, y| {
                from_f64(fmt, g(to_f64(fmt, x), to_f64(fmt, y)))
            });
        }
    }
}

/// OpFNegate: flips the sign bit (also of NaNs: negation is a bit operation in IEEE 754).
pub fn fneg(cx: &mut Ctx, fmt: FloatFmt, dst: Slot, a: Slot) {
    let sign = 1u64 << (fmt.bits() - 1);
    cx.map1(dst, a, |x| x ^ sign);
}
