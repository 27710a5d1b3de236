//! GLSL.std.450 functions on whole vectors and matrices (`program::glsl::GlslOp`): Modf, Frexp,
//! Ldexp and the geometric functions Normalize, FaceForward and Refract here; packing in
//! `pack`, Determinant and MatrixInverse in `matrix`. Results as docs/semantics/arithmetic.md
//! "Arithmetic" (GLSL.std.450) defines them.

mod matrix;
mod pack;

use crate::bits::{low_bits, sext};
use crate::exec::ctx::Ctx;
use crate::exec::float_bits::{from_f64, to_f64};
use crate::exec::mask::lanes;
use crate::program::glsl::GlslOp;
use crate::program::{FloatFmt, Slot};

/// Runs `op` on the active lanes.
pub fn glsl(cx: &mut Ctx, op: GlslOp, fmt: FloatFmt, bits: u32, n: u32, dst: Slot, a: [Slot; 3]) {
    use GlslOp::*;
    match op {
        Determinant | MatrixInverse => matrix::matrix(cx, op, fmt, n, dst, a[0]),
        PackSnorm4x8 | PackUnorm4x8 | PackSnorm2x16 | PackUnorm2x16 | PackHalf2x16
        | PackDouble2x32 | UnpackSnorm4x8 | UnpackUnorm4x8 | UnpackSnorm2x16 | UnpackUnorm2x16
        | UnpackHalf2x16 | UnpackDouble2x32 => {
            pack::pack(cx, op, dst, a[0]);
        }
        _ => {
            for l in lanes(cx.mask) {
                let x = |cx: &Ctx, s: Slot, k: u32| to_f64(fmt, cx.get(s + k, l));
                match op {
                    Modf => {
                        for k in 0..n {
                            let (frac, whole) = modf(x(cx, a[0], k));
                            cx.set(dst + k, l, from_f64(fmt, frac));
                            cx.set(dst + n + k, l, from_f64(fmt, whole));
                        }
                    }
                    Frexp => {
                        for k in 0..n {
                            let (m, e) = frexp(x(cx, a[0], k));
                            cx.set(dst + k, l, from_f64(fmt, m));
                            cx.set(dst + n + k, l, (e as u64) & low_bits(bits));
                        }
                    }
                    Ldexp => {
                        for k in 0..n {
                            let e = sext(cx.get(a[1] + k, l), bits);
                            let v = scalbn(x(cx, a[0], k), e);
                            cx.set(dst + k, l, from_f64(fmt, v));
                        }
                    }
                    Normalize => {
                        let v: Vec<f64> = (0..n).map(|k| x(cx, a[0], k)).collect();
                        let r = |y: f64| to_f64(fmt, from_f64(fmt, y));
                        let s = r(dot(fmt, &v, &v).sqrt());
                        for (k, c) in v.iter().enumerate() {
                            cx.set(dst + k as u32, l, from_f64(fmt, c / s));
                        }
                    }
                    FaceForward => {
                        let i: Vec<f64> = (0..n).map(|k| x(cx, a[1], k)).collect();
                        let nref: Vec<f64> = (0..n).map(|k| x(cx, a[2], k)).collect();
                        // N when dot(Nref, I) < 0; a NaN dot gives −N.
                        let keep = dot(fmt, &nref, &i) < 0.0;
                        let flip = !keep;
                        let sign = 1u64 << (fmt.bits() - 1);
                        for k in 0..n {
                            let b = cx.get(a[0] + k, l);
                            cx.set(dst + k, l, if flip { b ^ sign } else { b });
                        }
                    }
                    _ => {
                        let i: Vec<f64> = (0..n).map(|k| x(cx, a[0], k)).collect();
                        let nv: Vec<f64> = (0..n).map(|k| x(cx, a[1], k)).collect();
                        let eta = x(cx, a[2], 0);
                        for (k, v) in refract(fmt, &i, &nv, eta).into_iter().enumerate() {
                            cx.set(dst + k as u32, l, from_f64(fmt, v));
                        }
                    }
                }
            }
        }
    }
}

/// `y` rounded to `fmt` (every step of the geometric functions is rounded once).
fn round(fmt: FloatFmt, y: f64) -> f64 {
    to_f64(fmt, from_f64(fmt, y))
}

/// Σ a[k]·b[k] in index order, each product and sum rounded in `fmt` (as OpDot).
/// For fp16 and fp32 the f64 operation rounded again is correctly rounded (53 ≥ 2p + 2).
fn dot(fmt: FloatFmt, a: &[f64], b: &[f64]) -> f64 {
    let mut d = round(fmt, a[0] * b[0]);
    for k in 1..a.len() {
        d = round(fmt, d + round(fmt, a[k] * b[k]));
    }
    d
}

/// GLSL.std.450 Refract, each step rounded in `fmt`, in the order the specification writes:
/// k = 1 − η·η·(1 − dot(N, I)·dot(N, I)); 0 if k < 0, else η·I − (η·dot(N, I) + √k)·N.
fn refract(fmt: FloatFmt, i: &[f64], n: &[f64], eta: f64) -> Vec<f64> {
    let r = |y: f64| round(fmt, y);
    let d = dot(fmt, n, i);
    let k = r(1.0 - r(r(eta * eta) * r(1.0 - r(d * d))));
    if k < 0.0 {
        return vec![0.0; i.len()];
    }
    let m = r(r(eta * d) + r(k.sqrt()));
    i.iter()
        .zip(n)
        .map(|(&ik, &nk)| r(r(eta * ik) - r(m * nk)))
        .collect()
}

/// Fraction and whole number, both with the sign of `x` (GLSL modf); ±∞ gives (±0, ±∞).
pub fn modf(x: f64) -> (f64, f64) {
    let whole = x.trunc();
    let frac = if x.is_infinite() { 0.0 } else { x - whole };
    (frac.copysign(x), whole)
}

/// Significand in ±[0.5, 1) and exponent with x = m·2^e (exact); zero, infinities and NaN
/// give (x, 0), as C's frexp.
pub fn frexp(x: f64) -> (f64, i64) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let (y, adjust) = if x.abs() < f64::MIN_POSITIVE {
        (x * 2f64.powi(64), -64)
    } else {
        (x, 0)
    };
    let bits = y.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i64 - 1022;
    let m = f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52));
    (m, e + adjust)
}

/// x·2^n rounded once (musl's scalbn: intermediate scalings are exact; only the last
/// multiplication rounds).
pub fn scalbn(x: f64, n: i64) -> f64 {
    let (mut y, mut n) = (x, n.clamp(-5000, 5000));
    let p = |e: i64| f64::from_bits(((0x3ff + e) as u64) << 52);
    for _ in 0..2 {
        if n > 1023 {
            y *= p(1023);
            n -= 1023;
        } else if n < -1022 {
            y *= p(-1022) * p(53);
            n += 1022 - 53;
        }
    }
    n = n.clamp(-1022, 1023);
    y * p(n)
}
