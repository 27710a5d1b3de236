//! GLSL.std.450 functions on floats and integers.
//!
//! Operands are widened exactly to f64 and the function is evaluated there, then rounded once
//! to the operand format. For the functions IEEE 754 defines exactly (abs, sign, floor, ceil,
//! trunc, round, fract, min, max, clamp, fma, sqrt for fp16/fp32) the result is the exact or
//! correctly rounded one. The transcendental functions use the host's f64 libm, whose result
//! rounded to fp16/fp32 is correctly rounded except in rare hard-to-round cases, and is within
//! libm's accuracy (not correctly rounded) for fp64 — see docs/semantics.md.

use super::float::{from_f64, to_f64};
use super::{Ctx, lanes, low_bits, sext};
use crate::program::math::{IMathFn, MathFn};
use crate::program::{FloatFmt, Slot};

fn eval(f: MathFn, fmt: FloatFmt, x: f64, y: f64, z: f64) -> f64 {
    use MathFn::*;
    match f {
        FAbs => x.abs(),
        FSign => {
            if x.is_nan() {
                x
            } else if x > 0.0 {
                1.0
            } else if x < 0.0 {
                -1.0
            } else {
                x
            }
        }
        Floor => x.floor(),
        Ceil => x.ceil(),
        Trunc => x.trunc(),
        Round => x.round(),
        RoundEven => x.round_ties_even(),
        Fract => {
            // x − floor(x), rounded once to the format (and kept below 1).
            let r = x - x.floor();
            let one_below = to_f64(fmt, from_f64(fmt, 1.0) - 1);
            if r > one_below && r < 1.0 {
                one_below
            } else {
                r
            }
        }
        Sqrt => x.sqrt(),
        InverseSqrt => 1.0 / x.sqrt(),
        Exp => x.exp(),
        Exp2 => x.exp2(),
        Log => x.ln(),
        Log2 => x.log2(),
        Pow => x.powf(y),
        Sin => x.sin(),
        Cos => x.cos(),
        Tan => x.tan(),
        Asin => x.asin(),
        Acos => x.acos(),
        Atan => x.atan(),
        Atan2 => x.atan2(y),
        Sinh => x.sinh(),
        Cosh => x.cosh(),
        Tanh => x.tanh(),
        Radians => x * (std::f64::consts::PI / 180.0),
        Degrees => x * (180.0 / std::f64::consts::PI),
        FMin => x.min(y),
        FMax => x.max(y),
        FClamp => x.max(y).min(z),
        NMin => x.min(y),
        NMax => x.max(y),
        NClamp => x.max(y).min(z),
        FMix => x * (1.0 - z) + y * z,
        Step => {
            if y < x {
                0.0
            } else {
                1.0
            }
        }
        SmoothStep => {
            let t = ((z - x) / (y - x)).clamp(0.0, 1.0);
            t * t * (3.0 - 2.0 * t)
        }
        Fma => x.mul_add(y, z),
    }
}

/// A float function on the active lanes.
pub fn math(cx: &mut Ctx, f: MathFn, fmt: FloatFmt, dst: Slot, args: [Slot; 3]) {
    let n = f.arity();
    for l in lanes(cx.mask) {
        let x = to_f64(fmt, cx.get(args[0], l));
        let y = if n > 1 {
            to_f64(fmt, cx.get(args[1], l))
        } else {
            0.0
        };
        let z = if n > 2 {
            to_f64(fmt, cx.get(args[2], l))
        } else {
            0.0
        };
        let r = if fmt == FloatFmt::F64 && f == MathFn::Fma {
            x.mul_add(y, z)
        } else if f == MathFn::Fma {
            // Exact fused multiply-add in the operand format (one rounding).
            let ff = fmt.format();
            let d = |v: f64| spvx_num::float::Format::F64.decode(v.to_bits());
            let bits = ff.fma(d(x), d(y), d(z), spvx_num::float::RoundingMode::NearestEven);
            cx.set(dst, l, bits);
            continue;
        } else {
            eval(f, fmt, x, y, z)
        };
        cx.set(dst, l, from_f64(fmt, r));
    }
}

/// An integer function on the active lanes.
pub fn imath(cx: &mut Ctx, f: IMathFn, bits: u32, dst: Slot, args: [Slot; 3]) {
    use IMathFn::*;
    let m = low_bits(bits);
    let n = f.arity();
    for l in lanes(cx.mask) {
        let x = cx.get(args[0], l);
        let y = if n > 1 { cx.get(args[1], l) } else { 0 };
        let z = if n > 2 { cx.get(args[2], l) } else { 0 };
        let (sx, sy, sz) = (sext(x, bits), sext(y, bits), sext(z, bits));
        let r = match f {
            SAbs => sx.wrapping_abs() as u64,
            SSign => sx.signum() as u64,
            UMin => x.min(y),
            UMax => x.max(y),
            SMin => sx.min(sy) as u64,
            SMax => sx.max(sy) as u64,
            UClamp => x.max(y).min(z),
            SClamp => sx.max(sy).min(sz) as u64,
            FindILsb => {
                if x == 0 {
                    u64::MAX
                } else {
                    x.trailing_zeros() as u64
                }
            }
            FindUMsb => {
                if x == 0 {
                    u64::MAX
                } else {
                    63 - x.leading_zeros() as u64
                }
            }
            FindSMsb => {
                let v = if sx < 0 { !x & m } else { x };
                if v == 0 {
                    u64::MAX
                } else {
                    63 - v.leading_zeros() as u64
                }
            }
        };
        cx.set(dst, l, r & m);
    }
}
