//! The GLSL.std.450 transcendental functions (`exec::math::math_bits`: CORE-MATH for fp32 and
//! fp64, the fp64 result rounded to fp16 for fp16) against MPFR at 256 bits rounded once:
//! every fp16 input, random fp32 and fp64 inputs (SplitMix64 over all bit patterns and over
//! moderate exponents) and hard inputs (exact cases, huge trigonometric arguments, near
//! overflow/underflow, subnormals).

mod float_bits;
mod glsl_corpus;
mod mpfr_ref;

use float_bits::{assert_all, from_f64, ieee, to_f64};
use glsl_corpus::Rng;
use mpfr_ref::PREC;
use rug::Float;
use rug::ops::Pow;
use spvx_exec::exec::math::math_bits;
use spvx_exec::program::FloatFmt;
use spvx_exec::program::math::MathFn::{self, *};

const UNARY: [MathFn; 19] = [
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Asinh,
    Acosh,
    Atanh,
    Exp,
    Exp2,
    Log,
    Log2,
    InverseSqrt,
    Radians,
    Degrees,
];

/// MPFR's value of `f` at (x, y).
fn reference(f: MathFn, x: f64, y: f64) -> Float {
    let a = Float::with_val(PREC, x);
    let b = Float::with_val(PREC, y);
    match f {
        Sin => a.sin(),
        Cos => a.cos(),
        Tan => a.tan(),
        Asin => a.asin(),
        Acos => a.acos(),
        Atan => a.atan(),
        Sinh => a.sinh(),
        Cosh => a.cosh(),
        Tanh => a.tanh(),
        Asinh => a.asinh(),
        Acosh => a.acosh(),
        Atanh => a.atanh(),
        Exp => a.exp(),
        Exp2 => a.exp2(),
        Log => a.ln(),
        Log2 => a.log2(),
        // IEEE 754 rSqrt(−0) = −∞ (MPFR's rec_sqrt gives +∞ for both zeros).
        InverseSqrt if x == 0.0 => Float::with_val(PREC, 1.0 / x),
        InverseSqrt => a.recip_sqrt(),
        Radians => a * Float::with_val(PREC, rug::float::Constant::Pi) / 180,
        Degrees => a * 180 / Float::with_val(PREC, rug::float::Constant::Pi),
        Pow => a.pow(&b),
        Atan2 => a.atan2(&b),
        _ => Float::with_val(PREC, f64::NAN),
    }
}

/// Compares the engine with MPFR on one input; returns a description of a mismatch.
fn check(f: MathFn, fmt: FloatFmt, a: u64, b: u64) -> Option<String> {
    let (x, y) = (to_f64(fmt, a), to_f64(fmt, b));
    if x.is_nan() || y.is_nan() {
        return None;
    }
    let got = math_bits(f, fmt, [a, b, 0]);
    let want = from_f64(fmt, mpfr_ref::round(&reference(f, x, y), ieee(fmt)));
    (got != want).then(|| format!("{f:?} {fmt:?} ({x:e}, {y:e}): got {got:#x}, want {want:#x}"))
}

/// Every fp16 input of every unary function.
#[test]
fn fp16_exhaustive() {
    let mut failures = Vec::new();
    for f in UNARY {
        for h in 0..=0xffffu64 {
            failures.extend(check(f, FloatFmt::F16, h, 0));
        }
    }
    assert_all(failures);
}

/// Random fp16 pairs for Pow and Atan2.
#[test]
fn fp16_binary_random() {
    let mut rng = Rng(21);
    let mut failures = Vec::new();
    for f in [Pow, Atan2] {
        for _ in 0..20000 {
            let (a, b) = (rng.next() & 0xffff, rng.next() & 0xffff);
            failures.extend(check(f, FloatFmt::F16, a, b));
        }
    }
    assert_all(failures);
}

/// Hard inputs for fp32/fp64: exact results, huge trigonometric arguments, the neighbours of
/// π/2 and π, near overflow and underflow, subnormals.
fn hard_inputs() -> Vec<f64> {
    let mut v = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        2.0,
        10.0,
        1e-300,
        4.9e-324,
        2.2250738585072014e-308,
        1e-8,
        1e300,
        1.7976931348623157e308,
        std::f64::consts::PI,
        std::f64::consts::FRAC_PI_2,
        std::f64::consts::FRAC_PI_4,
        709.782712893384,
        -745.1332191019411,
        88.72283935546875,
        -103.97208404541016,
        1024.0,
        -1075.0,
        0.9999999999999999,
        1.0000000000000002,
        22.0,
        355.0,
        6381956970095103.0 * 2f64.powi(797),
        5.319372648326541e255,
        1.0e22,
        f32::MAX as f64,
        f32::MIN_POSITIVE as f64,
        1.401298464324817e-45,
        16777216.0,
    ];
    let extra: Vec<f64> = v.iter().map(|x| -x).collect();
    v.extend(extra);
    v
}

fn random_bits(rng: &mut Rng, fmt: FloatFmt) -> u64 {
    let r = rng.next();
    match (fmt, r % 3) {
        // Any pattern.
        (FloatFmt::F32, 0) => r >> 32,
        (_, 0) => r,
        // Moderate exponents (|x| in [2^-8, 2^8)).
        (FloatFmt::F32, _) => {
            let e = 119 + (r >> 40) % 16;
            (r & 0x807f_ffff) | e << 23
        }
        _ => {
            let e = 1015 + (r >> 40) % 16;
            (r & 0x800f_ffff_ffff_ffff) | e << 52
        }
    }
}

fn random_and_hard(fmt: FloatFmt, count: usize, seed: u64) {
    let mut rng = Rng(seed);
    let hard: Vec<u64> = hard_inputs()
        .into_iter()
        .map(|x| match fmt {
            FloatFmt::F32 => (x as f32).to_bits() as u64,
            _ => x.to_bits(),
        })
        .collect();
    let mut failures = Vec::new();
    for f in UNARY.into_iter().chain([Pow, Atan2]) {
        for &a in &hard {
            for &b in if f.arity() == 2 {
                &hard[..]
            } else {
                &hard[..1]
            } {
                failures.extend(check(f, fmt, a, b));
            }
        }
        for _ in 0..count {
            let (a, b) = (random_bits(&mut rng, fmt), random_bits(&mut rng, fmt));
            failures.extend(check(f, fmt, a, b));
        }
    }
    assert_all(failures);
}

#[test]
fn fp32_random_and_hard() {
    random_and_hard(FloatFmt::F32, 3000, 31);
}

#[test]
fn fp64_random_and_hard() {
    random_and_hard(FloatFmt::F64, 3000, 41);
}

/// Pow with exactly representable results (rounding boundaries): x^2, x^0.5 of squares,
/// 2^k.
#[test]
fn pow_exact_cases() {
    let mut failures = Vec::new();
    for fmt in [FloatFmt::F32, FloatFmt::F64] {
        let enc = |x: f64| from_f64(fmt, x);
        for k in 1..3000u64 {
            let x = k as f64;
            failures.extend(check(Pow, fmt, enc(x), enc(2.0)));
            failures.extend(check(Pow, fmt, enc(x * x), enc(0.5)));
            failures.extend(check(Pow, fmt, enc(2.0), enc(x / 16.0)));
            failures.extend(check(Exp2, fmt, enc(-(x / 8.0)), 0));
        }
    }
    assert_all(failures);
}

/// The two-part constants of Radians/Degrees are π/180 and 180/π to 106+ bits.
#[test]
fn radians_constants() {
    let pi = Float::with_val(PREC, rug::float::Constant::Pi);
    let r = Float::with_val(PREC, &pi / 180);
    let d = Float::with_val(PREC, 180 / &pi);
    for (c, hi, lo) in [
        (r, 0.017453292519943295, 2.9486522708701687e-19),
        (d, 57.29577951308232, -1.9878495670576283e-15),
    ] {
        assert_eq!(c.to_f64(), hi);
        assert_eq!(Float::with_val(PREC, &c - hi).to_f64(), lo);
    }
}
