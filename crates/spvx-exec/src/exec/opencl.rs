//! OpenCL.std functions that have no GLSL.std.450 counterpart (the compiler maps the others to
//! the engine's GLSL.std.450 instructions, which use the same definitions).
//!
//! Float functions follow the engine's accuracy policy (docs/semantics/arithmetic.md, "Arithmetic"):
//! operands widened exactly to f64, the function evaluated there and rounded once to the
//! operand format; exact functions (copysign, fdim, ldexp, nextafter, remainder, ilogb, logb,
//! maxmag, minmag, remquo's quotient, lgamma_r's sign, nan) are exact; transcendental ones go
//! through CORE-MATH (correctly rounded) or the host's f64 libm. Integer functions are exact,
//! computed with wider integers.

use crate::bits::{low_bits, sext};
use crate::exec::ctx::Ctx;
use crate::exec::float_bits::{canonical_nan, from_f64, to_f64};
use crate::exec::mask::lanes;
use crate::program::opencl::{OclOp, OclType};
use crate::program::{FloatFmt, Slot};

/// Runs an OpenCL.std function on the active lanes.
pub fn ocl(cx: &mut Ctx, op: OclOp, ty: OclType, dst: Slot, args: [Slot; 3]) {
    for l in lanes(cx.mask) {
        let v = [0, 1, 2].map(|i| cx.get(args[i], l));
        let r = match ty {
            OclType::Float(fmt) => float_op(op, fmt, v),
            OclType::Int { bits, signed } => int_op(op, bits as u32, signed, v),
        };
        cx.set(dst, l, r);
    }
}

/// The integer value of a 32-bit operand (exponents, `n` of pown/rootn).
fn int32(bits: u64) -> i64 {
    sext(bits, 32)
}

/// One float OpenCL.std operation on operand bits (for tests and tools): what [`ocl`] computes
/// per lane for a float result type.
pub fn ocl_float_bits(op: OclOp, fmt: FloatFmt, args: [u64; 3]) -> u64 {
    float_op(op, fmt, args)
}

fn float_op(op: OclOp, fmt: FloatFmt, v: [u64; 3]) -> u64 {
    let [x, y, z] = v.map(|b| to_f64(fmt, b));
    if let Some(r) = correctly_rounded(op, fmt, x, y) {
        return r;
    }
    let sign_bit = 1u64 << (fmt.bits() - 1);
    use OclOp::*;
    let r = match op {
        Mad => {
            let p = to_f64(fmt, from_f64(fmt, x * y));
            p + z
        }
        Sign => {
            if x.is_nan() {
                0.0
            } else if x > 0.0 {
                1.0
            } else if x < 0.0 {
                -1.0
            } else {
                x
            }
        }
        FrexpMant => {
            if x == 0.0 || !x.is_finite() {
                x
            } else {
                scale(x, -(exponent(x) as i32) - 1)
            }
        }
        FrexpExp => {
            return if x == 0.0 || !x.is_finite() {
                0
            } else {
                (exponent(x) + 1) as u64 & 0xffff_ffff
            };
        }
        RemquoQuo => return remquo_quotient(x, y) as u32 as u64,
        LgammaSign => return lgamma_sign(x) as u32 as u64,
        Nan => return nan_with_code(fmt, v[0]),
        Copysign => return (v[0] & !sign_bit) | (v[1] & sign_bit),
        Fdim => {
            if x.is_nan() || y.is_nan() {
                f64::NAN
            } else if x > y {
                x - y
            } else {
                0.0
            }
        }
        Ldexp => return ldexp(fmt, x, int32(v[1])),
        Nextafter => return nextafter(fmt, v[0], v[1]),
        Remainder => remainder(x, y),
        Ilogb => {
            return (if x.is_nan() || x.is_infinite() {
                i32::MAX as i64
            } else if x == 0.0 {
                i32::MIN as i64
            } else {
                exponent(x)
            }) as u64
                & 0xffff_ffff;
        }
        Logb => {
            if x.is_nan() {
                x
            } else if x.is_infinite() {
                f64::INFINITY
            } else if x == 0.0 {
                f64::NEG_INFINITY
            } else {
                exponent(x) as f64
            }
        }
        Maxmag => pick_mag(x, y, true),
        Minmag => pick_mag(x, y, false),
        Pown => x.powi(int32(v[1]).clamp(i32::MIN as i64, i32::MAX as i64) as i32),
        Rootn => {
            let n = int32(v[1]);
            if n == 0 {
                f64::NAN
            } else if x < 0.0 && n % 2 != 0 {
                -(-x).powf(1.0 / n as f64)
            } else {
                x.powf(1.0 / n as f64)
            }
        }
        Powr => {
            if x < 0.0 {
                f64::NAN
            } else {
                x.powf(y)
            }
        }
        Recip => 1.0 / x,
        Divide => x / y,
        Bitselect => return (v[0] & !v[2]) | (v[1] & v[2]),
        _ => f64::NAN,
    };
    let _ = z;
    from_f64(fmt, r)
}

/// The OpenCL.std functions CORE-MATH evaluates correctly rounded (the `core-math` crate, as
/// GLSL.std.450's transcendentals in `exec::math`): fp32 and fp64 directly, fp16 through the
/// correctly rounded fp64 value rounded once more to fp16 (checked against MPFR on every fp16
/// input in tests/opencl_math_ref.rs). `None` for the other operations.
fn correctly_rounded(op: OclOp, fmt: FloatFmt, x: f64, y: f64) -> Option<u64> {
    use OclOp::*;
    use core_math as cm;
    type Fns = (fn(f32) -> f32, fn(f64) -> f64);
    type Fns2 = (fn(f32, f32) -> f32, fn(f64, f64) -> f64);
    let unary: Fns = match op {
        Cbrt => (cm::cbrtf, cm::cbrt),
        Expm1 => (cm::expm1f, cm::expm1),
        Log1p => (cm::log1pf, cm::log1p),
        Log10 => (cm::log10f, cm::log10),
        Exp10 => (cm::exp10f, cm::exp10),
        Asinh => (cm::asinhf, cm::asinh),
        Acosh => (cm::acoshf, cm::acosh),
        Atanh => (cm::atanhf, cm::atanh),
        SinPi => (cm::sinpif, cm::sinpi),
        CosPi => (cm::cospif, cm::cospi),
        TanPi => (cm::tanpif, cm::tanpi),
        AsinPi => (cm::asinpif, cm::asinpi),
        AcosPi => (cm::acospif, cm::acospi),
        AtanPi => (cm::atanpif, cm::atanpi),
        Erf => (cm::erff, cm::erf),
        Erfc => (cm::erfcf, cm::erfc),
        Tgamma => (cm::tgammaf, cm::tgamma),
        Lgamma => (cm::lgammaf, cm::lgamma),
        Hypot | Atan2Pi => {
            // hypot(x, y); atan2pi(y, x) with y the first operand, as CORE-MATH's atan2pi(y, x).
            let (f32fn, f64fn): Fns2 = if op == Hypot {
                (cm::hypotf, cm::hypot)
            } else {
                (cm::atan2pif, cm::atan2pi)
            };
            return Some(match fmt {
                FloatFmt::F32 => from_f64(fmt, f32fn(x as f32, y as f32) as f64),
                _ => from_f64(fmt, f64fn(x, y)),
            });
        }
        _ => return None,
    };
    Some(match fmt {
        FloatFmt::F32 => from_f64(fmt, unary.0(x as f32) as f64),
        _ => from_f64(fmt, unary.1(x)),
    })
}

/// The unbiased exponent of a finite nonzero f64 (subnormals included).
fn exponent(x: f64) -> i64 {
    let b = x.abs().to_bits();
    let e = (b >> 52) as i64;
    if e == 0 {
        // Subnormal: the position of the top bit.
        -1074 + 63 - b.leading_zeros() as i64
    } else {
        e - 1023
    }
}

/// `x · 2^n` rounded once to `fmt` (f64 values are exact after scaling in steps).
fn ldexp(fmt: FloatFmt, x: f64, n: i64) -> u64 {
    if fmt != FloatFmt::F64 {
        // x has at most 24 significant bits; x·2^n is exact in f64 for n within ±1000 and
        // beyond that over/underflows the format anyway.
        let n = n.clamp(-1100, 1100) as i32;
        return from_f64(fmt, scale(x, n));
    }
    from_f64(fmt, scale(x, n.clamp(-2200, 2200) as i32))
}

/// x · 2^n, one rounding (scaling by powers of two in steps that stay exact until the last).
fn scale(mut x: f64, mut n: i32) -> f64 {
    while n > 1000 {
        x *= 2f64.powi(1000);
        n -= 1000;
    }
    while n < -1000 {
        // Keep the intermediate normal: scale down in steps that do not underflow until last.
        if n >= -1000 - 52 {
            break;
        }
        x *= 2f64.powi(-1000);
        n += 1000;
    }
    if n < -1000 {
        // Two steps: the first exact, the second rounds once.
        let a = n / 2;
        return x * 2f64.powi(a) * 2f64.powi(n - a);
    }
    x * 2f64.powi(n)
}

/// The next representable value after `x` toward `y`, on the format's bits.
fn nextafter(fmt: FloatFmt, x: u64, y: u64) -> u64 {
    let (fx, fy) = (to_f64(fmt, x), to_f64(fmt, y));
    if fx.is_nan() || fy.is_nan() {
        return canonical_nan(fmt);
    }
    if fx == fy {
        return y;
    }
    let sign = 1u64 << (fmt.bits() - 1);
    if fx == 0.0 {
        // The smallest subnormal with the sign of the direction.
        return if fy > 0.0 { 1 } else { sign | 1 };
    }
    let away = (fy > fx) == (x & sign == 0);
    if away { x + 1 } else { x - 1 }
}

/// IEEE 754 remainder: x − n·y with n the integer nearest x/y (ties to even); exact.
fn remainder(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() || x.is_infinite() || y == 0.0 {
        return f64::NAN;
    }
    if y.is_infinite() {
        return x;
    }
    let ay = y.abs();
    let two = 2.0 * ay;
    let mut r = if two.is_finite() {
        (x % two).abs()
    } else {
        x.abs()
    };
    let mut odd = false;
    if r >= ay {
        r -= ay;
        odd = true;
    }
    let half_cmp = if ay < f64::MIN_POSITIVE * 2.0 {
        (2.0 * r).partial_cmp(&ay)
    } else {
        r.partial_cmp(&(ay * 0.5))
    };
    match half_cmp {
        Some(std::cmp::Ordering::Greater) => r -= ay,
        Some(std::cmp::Ordering::Equal) if odd => r -= ay,
        _ => {}
    }
    if x.is_sign_negative() { -r } else { r }
}

/// remquo's quotient: the integer `n` nearest `x / y` (ties to even; the `n` of
/// [`remainder`]), reduced to its low 7 bits, `|n| mod 128`, with the sign of `x / y` (OpenCL
/// C 6.15.2: "the lower seven bits of the integral quotient x/y … the same sign as x/y").
/// Computed exactly on the integer significands by long division, one quotient bit per
/// exponent step. 0 where the remainder is NaN (x NaN or ±∞, y NaN or ±0), for x = ±0 and
/// for y = ±∞ (n = 0).
fn remquo_quotient(x: f64, y: f64) -> i32 {
    if x.is_nan() || y.is_nan() || x.is_infinite() || y == 0.0 || y.is_infinite() || x == 0.0 {
        return 0;
    }
    let (mx, ex) = significand(x);
    let (my, ey) = significand(y);
    // |x| / |y| = mx / my · 2^(ex − ey), with mx, my in [2^52, 2^53).
    let d = ex - ey;
    let (q, r, den) = if d >= 0 {
        let (mut q, mut r) = ((mx / my) as u64, mx % my);
        for _ in 0..d {
            r <<= 1;
            q <<= 1;
            if r >= my {
                r -= my;
                q |= 1;
            }
        }
        (q, r, my)
    } else if d == -1 {
        // |x| / |y| = mx / (2·my) < 1.
        (0, mx, 2 * my)
    } else {
        // |x| / |y| < 2^(d + 1) ≤ 1/2: the nearest integer is 0.
        return 0;
    };
    // Round to nearest, ties to even: compare the remainder with half the divisor.
    let q = match (2 * r).cmp(&den) {
        std::cmp::Ordering::Greater => q.wrapping_add(1),
        std::cmp::Ordering::Equal => q.wrapping_add(q & 1),
        std::cmp::Ordering::Less => q,
    };
    let low = (q & 0x7f) as i32;
    if x.is_sign_negative() != y.is_sign_negative() {
        -low
    } else {
        low
    }
}

/// A finite nonzero f64 as `m · 2^e` with `m` in [2^52, 2^53) (subnormals normalised).
fn significand(x: f64) -> (u128, i64) {
    let b = x.abs().to_bits();
    let (biased, frac) = ((b >> 52) as i64, b & ((1 << 52) - 1));
    if biased == 0 {
        let shift = frac.leading_zeros() as i64 - 11;
        ((frac << shift) as u128, -1074 - shift)
    } else {
        ((frac | 1 << 52) as u128, biased - 1075)
    }
}

/// lgamma_r's sign of Γ(x): Γ is negative on (−1, 0), (−3, −2), … — where floor(x) is odd —
/// and Γ(−0) = −∞; everything else gives +1, including the poles (0 and the negative
/// integers, where Γ has no sign), ±∞ and NaN, as glibc's and libclc's lgamma_r do.
fn lgamma_sign(x: f64) -> i32 {
    if x == 0.0 {
        return if x.is_sign_negative() { -1 } else { 1 };
    }
    if x < 0.0 && x.is_finite() {
        let f = x.floor();
        if f != x && f % 2.0 != 0.0 {
            return -1;
        }
    }
    1
}

/// nan(nancode): the format's quiet NaN (exponent all ones, quiet bit set, sign 0) with the
/// low bits of `code` below the quiet bit (9, 22 or 51 bits for half, float, double).
fn nan_with_code(fmt: FloatFmt, code: u64) -> u64 {
    let quiet: u64 = match fmt {
        FloatFmt::F16 => 1 << 9,
        FloatFmt::F32 => 1 << 22,
        FloatFmt::F64 => 1 << 51,
        _ => return canonical_nan(fmt),
    };
    canonical_nan(fmt) | (code & (quiet - 1))
}

fn pick_mag(x: f64, y: f64, max: bool) -> f64 {
    let (ax, ay) = (x.abs(), y.abs());
    let first = if max { ax > ay } else { ax < ay };
    let second = if max { ay > ax } else { ay < ax };
    if first {
        x
    } else if second {
        y
    } else if max {
        x.max(y)
    } else {
        x.min(y)
    }
}

fn int_op(op: OclOp, bits: u32, signed: bool, v: [u64; 3]) -> u64 {
    let m = low_bits(bits);
    let val = |x: u64| -> i128 {
        if signed {
            sext(x, bits) as i128
        } else {
            (x & m) as i128
        }
    };
    let [a, b, c] = v.map(val);
    let (lo, hi) = if signed {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, m as i128)
    };
    let sat = |r: i128| r.clamp(lo, hi) as u64 & m;
    let wrap = |r: i128| r as u64 & m;
    use OclOp::*;
    match op {
        AbsDiff => wrap((a - b).abs()),
        AddSat => sat(a + b),
        SubSat => sat(a - b),
        Hadd => wrap((a + b) >> 1),
        Rhadd => wrap((a + b + 1) >> 1),
        MulHi => wrap(mul_hi(a, b, bits)),
        MadHi => wrap(mul_hi(a, b, bits) + c),
        MadSat => {
            // |a·b| < 2^126 and |c| < 2^64: exact in i128.
            sat(a * b + c)
        }
        Rotate => {
            let x = v[0] & m;
            let k = (v[1] & m) % bits as u64;
            if k == 0 {
                x
            } else {
                ((x << k) | (x >> (bits as u64 - k))) & m
            }
        }
        Clz => {
            let x = v[0] & m;
            (x.leading_zeros() - (64 - bits)) as u64
        }
        Ctz => {
            let x = v[0] & m;
            if x == 0 {
                bits as u64
            } else {
                x.trailing_zeros() as u64
            }
        }
        Mul24 | Mad24 => {
            let t = |x: u64| -> i128 {
                if signed {
                    sext(x & 0xff_ffff, 24) as i128
                } else {
                    (x & 0xff_ffff) as i128
                }
            };
            let p = t(v[0]) * t(v[1]);
            wrap(if op == Mad24 { p + c } else { p })
        }
        Upsample => ((v[0] & m) << bits) | (v[1] & m),
        Bitselect => (v[0] & !v[2]) | (v[1] & v[2]),
        _ => 0,
    }
}

/// The high half of the 2·bits-bit product (operands already extended; floor division by
/// 2^bits, so signed results are the high word of the two's-complement product).
fn mul_hi(a: i128, b: i128, bits: u32) -> i128 {
    if bits == 64 {
        // The product may need 128 bits: split the signed/unsigned product.
        let p = a.wrapping_mul(b);
        let neg = (a < 0) != (b < 0) && a != 0 && b != 0;
        let (ua, ub) = (a.unsigned_abs(), b.unsigned_abs());
        // Full 128 × 128 is not needed: |a|, |b| < 2^64.
        let (a_hi, a_lo) = (ua >> 32, ua & 0xffff_ffff);
        let (b_hi, b_lo) = (ub >> 32, ub & 0xffff_ffff);
        let ll = a_lo * b_lo;
        let lh = a_lo * b_hi;
        let hl = a_hi * b_lo;
        let hh = a_hi * b_hi;
        let mid = (ll >> 32) + (lh & 0xffff_ffff) + (hl & 0xffff_ffff);
        let high = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
        let low = (mid << 32) | (ll & 0xffff_ffff);
        let _ = p;
        if neg {
            // −(high·2^64 + low) = (!high)·2^64 + (2^64 − low), borrowing when low is 0.
            let low64 = low & 0xffff_ffff_ffff_ffff;
            let nh = !(high as u64) as i128 + if low64 == 0 { 1 } else { 0 };
            return nh;
        }
        return high as i128;
    }
    (a * b) >> bits
}
