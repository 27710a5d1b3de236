//! GLSL.std.450 functions on floats and integers.
//!
//! Operands are widened exactly to f64. The functions IEEE 754 defines exactly (abs, sign,
//! floor, ceil, trunc, round, fract, min, max, clamp, fma, sqrt) give the exact or correctly
//! rounded result. The transcendental functions (sin … atanh, exp, exp2, log, log2, pow,
//! inversesqrt) are CORE-MATH's correctly rounded functions (the `core-math` crate): the fp32
//! ones for fp32, the fp64 ones for fp64, and for fp16 the fp64 result rounded to fp16 (checked
//! against MPFR for every fp16 input: tests/glsl_math_ref.rs) — see docs/semantics/arithmetic.md.

use crate::bits::{low_bits, sext};
use crate::exec::ctx::Ctx;
use crate::exec::float_bits::{from_f64, to_f64};
use crate::exec::mask::lanes;
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
        InverseSqrt | Exp | Exp2 | Log | Log2 | Pow | Sin | Cos | Tan | Asin | Acos | Atan
        | Atan2 | Sinh | Cosh | Tanh | Asinh | Acosh | Atanh => {
            if fmt == FloatFmt::F32 {
                f64::from(transcendental_f32(f, x as f32, y as f32))
            } else {
                transcendental_f64(f, x, y)
            }
        }
        Radians => times_constant(x, RADIANS_PER_DEGREE),
        Degrees => times_constant(x, DEGREES_PER_RADIAN),
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

/// π/180 as an unevaluated sum of two f64 (high part the f64 nearest π/180; checked against
/// MPFR in tests/glsl_math_ref.rs).
const RADIANS_PER_DEGREE: (f64, f64) = (0.017453292519943295, 2.9486522708701687e-19);
/// 180/π likewise.
const DEGREES_PER_RADIAN: (f64, f64) = (57.29577951308232, -1.9878495670576283e-15);

/// x·c for a constant c = hi + lo, with the product's rounding error recovered by fma: the
/// result is within a tiny fraction of an f64 ulp of the exact x·c, so it rounds correctly
/// except for inputs whose product lies extremely close to a rounding boundary.
fn times_constant(x: f64, (hi, lo): (f64, f64)) -> f64 {
    let p = x * hi;
    if !p.is_finite() || p == 0.0 {
        return p;
    }
    let e = x.mul_add(hi, -p);
    p + (e + x * lo)
}

/// A correctly rounded fp64 transcendental function (CORE-MATH); `y` is the second operand
/// of Pow and Atan2 (GLSL's Atan2(y, x) passes y first).
pub fn transcendental_f64(f: MathFn, x: f64, y: f64) -> f64 {
    use MathFn::*;
    use core_math as cm;
    match f {
        InverseSqrt => cm::rsqrt(x),
        Exp => cm::exp(x),
        Exp2 => cm::exp2(x),
        Log => cm::log(x),
        Log2 => cm::log2(x),
        Pow => cm::pow(x, y),
        Sin => cm::sin(x),
        Cos => cm::cos(x),
        Tan => cm::tan(x),
        Asin => cm::asin(x),
        Acos => cm::acos(x),
        Atan => cm::atan(x),
        Atan2 => cm::atan2(x, y),
        Sinh => cm::sinh(x),
        Cosh => cm::cosh(x),
        Tanh => cm::tanh(x),
        Asinh => cm::asinh(x),
        Acosh => cm::acosh(x),
        Atanh => cm::atanh(x),
        _ => f64::NAN,
    }
}

/// A correctly rounded fp32 transcendental function (CORE-MATH).
pub fn transcendental_f32(f: MathFn, x: f32, y: f32) -> f32 {
    use MathFn::*;
    use core_math as cm;
    match f {
        InverseSqrt => cm::rsqrtf(x),
        Exp => cm::expf(x),
        Exp2 => cm::exp2f(x),
        Log => cm::logf(x),
        Log2 => cm::log2f(x),
        Pow => cm::powf(x, y),
        Sin => cm::sinf(x),
        Cos => cm::cosf(x),
        Tan => cm::tanf(x),
        Asin => cm::asinf(x),
        Acos => cm::acosf(x),
        Atan => cm::atanf(x),
        Atan2 => cm::atan2f(x, y),
        Sinh => cm::sinhf(x),
        Cosh => cm::coshf(x),
        Tanh => cm::tanhf(x),
        Asinh => cm::asinhf(x),
        Acosh => cm::acoshf(x),
        Atanh => cm::atanhf(x),
        _ => f32::NAN,
    }
}

/// A float function on the active lanes.
pub fn math(cx: &mut Ctx, f: MathFn, fmt: FloatFmt, dst: Slot, args: [Slot; 3]) {
    let n = f.arity();
    for l in lanes(cx.mask) {
        let mut a = [0u64; 3];
        for (k, v) in a.iter_mut().enumerate().take(n) {
            *v = cx.get(args[k], l);
        }
        cx.set(dst, l, math_bits(f, fmt, a));
    }
}

/// The result bits of float function `f` on operand bits `args` (unused operands ignored):
/// what one lane of [`math`] computes.
pub fn math_bits(f: MathFn, fmt: FloatFmt, args: [u64; 3]) -> u64 {
    let n = f.arity();
    let get = |k: usize| if k < n { to_f64(fmt, args[k]) } else { 0.0 };
    let (x, y, z) = (get(0), get(1), get(2));
    let r = if fmt == FloatFmt::F64 && f == MathFn::Fma {
        x.mul_add(y, z)
    } else if f == MathFn::Fma {
        // Exact fused multiply-add in the operand format (one rounding).
        let ff = fmt.format();
        let d = |v: f64| spvx_num::float::Format::F64.decode(v.to_bits());
        return ff.fma(d(x), d(y), d(z), spvx_num::float::RoundingMode::NearestEven);
    } else {
        eval(f, fmt, x, y, z)
    };
    from_f64(fmt, r)
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
