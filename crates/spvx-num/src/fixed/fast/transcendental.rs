//! sin, cos, sinpi, cospi, exp and log in double precision with a proven error bound, rounded
//! directly when the bound decides the result (Ziv's first step, as CORE-MATH does); None when
//! it does not, and the caller tries the 116-bit step (`wide`), then the exact path.
//!
//! Error bound of ỹ for f(x), x = n · 2^a (n of at most 64 bits):
//! - the input: x̃ = fl(n) · 2^a is x rounded to double, and |x − x̃| = |n − fl(n)| · 2^a = ex is
//!   known exactly (the integer n − fl(n) is formed in `i128`); 2^a is a normal double, so the
//!   scaling is exact. sinpi/cospi first reduce x modulo 2 exactly in integers.
//! - the function: ỹ = F(x̃) with F a CORE-MATH function (crate `core-math`), correctly rounded
//!   to nearest, so |ỹ − f(x̃)| ≤ ½ ulp(ỹ) ≤ 2^−53·|ỹ| (+ 2^−1075 in the subnormal range). We
//!   use twice that, 2^−52·|ỹ| + 2^−1074, as a margin against a defect of the library.
//! - the propagation: |f(x̃) − f(x)| ≤ L · ex with L a bound of |f′| between x and x̃: 1 for sin
//!   and cos, π for sinpi and cospi, e^(x̃ + ex) ≤ (ỹ + 2^−1074)·(1 + 2^−52)·(1 + 2·ex) for exp
//!   (ex ≤ ½), 1/(x̃ − ex) ≤ (1 + 2^−51)/x̃ for log (ex ≤ 2^−53·x̃), and for rsqrt (used only when
//!   the exact integers of `algebraic` do not fit) ½·(x̃ − ex)^(−3/2) ≤ ½·(ỹ + 2^−1074)/x̃ ·
//!   (1 + 2^−50).
//!
//! The sum ε, enlarged by (1 + 2^−49) for the roundings of its own evaluation, bounds |ỹ − f(x)|.
//! With t̃ = ỹ · 2^fb (exact: a power-of-two scaling of a normal result), the ends t̃ ∓ ε · 2^fb
//! are computed and moved outward by one ulp (each operation rounds by at most half an ulp), so
//! the true t lies in [lo, hi]. Every quantization mode is monotone, so when lo and hi quantize
//! and overflow to the same raw result ([`NativeTarget::settle`]), that is the correctly rounded
//! result; else the input is a hard case.

use super::native::{NativeTarget, quantize_f64};

/// Which function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Trans {
    Sin,
    Cos,
    SinPi,
    CosPi,
    Exp,
    Log,
    /// 1/√x, for the formats whose exact integers do not fit in 128 bits.
    Rsqrt,
}

/// 2^e as a double, for −1022 ≤ e ≤ 1023.
fn pow2(e: i64) -> Option<f64> {
    (-1022..=1023)
        .contains(&e)
        .then(|| f64::from_bits(((e + 1023) as u64) << 52))
}

const TWO_M52: f64 = 1.0 / 4_503_599_627_370_496.0; // 2^−52
const TWO_M49: f64 = 1.0 / 562_949_953_421_312.0; // 2^−49
const TWO_M1074: f64 = f64::from_bits(1); // 2^−1074, the least subnormal
/// An upper bound of |π − fl(π)| (1.2246…·10^−16).
const PI_ERR: f64 = 1.3e-16;
/// An upper bound of π (the double above π).
const PI_UP: f64 = f64::from_bits(std::f64::consts::PI.to_bits() + 1);

/// x̃ = fl(n) · 2^a and the exact |x − x̃|; None when 2^a or the scaled values leave the normal
/// range (|n| < 2^65 keeps them normal for −1000 ≤ a ≤ 900).
fn input(n: i128, a: i64) -> Option<(f64, f64)> {
    if n == 0 {
        return Some((0.0, 0.0));
    }
    if !(-1000..=900).contains(&a) || n.unsigned_abs() >= 1 << 65 {
        return None;
    }
    let s = pow2(a)?;
    let (xn, d) = if let Ok(small) = i64::try_from(n) {
        // i64 conversions are single instructions; |n| < 2^53 converts exactly.
        let xn = small as f64;
        let d = if small.unsigned_abs() < 1 << 53 {
            0.0
        } else {
            (n - xn as i128).unsigned_abs() as f64
        };
        (xn, d)
    } else {
        let xn = n as f64;
        (xn, (n - xn as i128).unsigned_abs() as f64)
    };
    Some((xn * s, d * s))
}

/// x reduced exactly modulo 2 into [−1, 1] (sinpi and cospi have period 2), as (n', a);
/// None when x is an integer (an exact point, left to the exact path).
fn reduce_half_turns(n: i128, a: i64) -> Option<(i128, i64)> {
    if a >= 0 {
        return None;
    }
    let k = a.unsigned_abs() + 1; // 2 = 2^k units of 2^a
    if k >= 66 {
        return Some((n, a)); // |x| < 2^65 · 2^a ≤ 1 already
    }
    let p = 1i128 << k;
    let mut r = n & (p - 1); // n mod 2^k in [0, 2^k), for either sign (two's complement)
    if r > p / 2 {
        r -= p;
    }
    Some((r, a))
}

/// ỹ and the bound ε of |ỹ − f(x)|, or None.
fn approx(f: Trans, n: i128, a: i64) -> Option<(f64, f64)> {
    let (n, a) = match f {
        Trans::SinPi | Trans::CosPi => reduce_half_turns(n, a)?,
        _ => (n, a),
    };
    let (x, ex) = input(n, a)?;
    let (y, lip) = match f {
        Trans::Sin => (core_math::sin(x), 1.0),
        Trans::Cos => (core_math::cos(x), 1.0),
        Trans::SinPi => (core_math::sinpi(x), PI_UP),
        Trans::CosPi => (core_math::cospi(x), PI_UP),
        Trans::Exp => {
            if ex > 0.5 {
                return None;
            }
            let y = core_math::exp(x);
            (y, (y + TWO_M1074) * (1.0 + 2.0 * ex) * (1.0 + TWO_M49))
        }
        Trans::Log => {
            if x <= 0.0 {
                return None;
            }
            (core_math::log(x), (1.0 + TWO_M49) / x)
        }
        Trans::Rsqrt => {
            if x <= 0.0 {
                return None;
            }
            let y = core_math::rsqrt(x);
            (y, 0.5 * (y + TWO_M1074) / x * (1.0 + TWO_M49))
        }
    };
    if !y.is_finite() || !lip.is_finite() {
        return None;
    }
    let eps = (y.abs() * TWO_M52 + TWO_M1074 + lip * ex) * (1.0 + TWO_M49);
    Some((y, eps))
}

/// The raw result of ỹ ± ε in `t` when the bound decides it.
fn settle(y: f64, eps: f64, positive: bool, t: &NativeTarget) -> Option<i128> {
    let scale = pow2(t.frac_bits)?;
    let tv = y * scale;
    if !tv.is_finite() || (tv != 0.0 && tv.abs() < f64::MIN_POSITIVE) {
        return None;
    }
    let e = (eps * scale).next_up();
    let mut lo = (tv - e).next_down();
    let hi = (tv + e).next_up();
    if !lo.is_finite() || !hi.is_finite() {
        return None;
    }
    if positive {
        // f(x) > 0, and every mode quantizes 0 like values just above it.
        lo = lo.max(0.0);
    }
    t.settle(quantize_f64(lo, t.q), quantize_f64(hi, t.q))
}

/// Whether f(x) is known to be positive.
fn positive(f: Trans, n: i128, a: i64) -> bool {
    match f {
        Trans::Exp | Trans::Rsqrt => true,
        // log x > 0 for x > 1, i.e. n > 2^−a.
        Trans::Log => (a >= 0 && n > 0) || (a < 0 && a > -127 && n > 1i128 << a.unsigned_abs()),
        _ => false,
    }
}

/// f(x) quantized into `t` for x = n · 2^a, when the double evaluation decides it.
pub(crate) fn eval(f: Trans, n: i128, a: i64, t: &NativeTarget) -> Option<i128> {
    let (y, eps) = approx(f, n, a)?;
    settle(y, eps, positive(f, n, a), t)
}

/// (sin, cos) of x, or of πx when `pi`, quantized into `t`, when both are decided. One
/// CORE-MATH sincos call serves both; for πx, on θ̃ = fl(π̃ · x̃) with x reduced modulo 2 first,
/// and |πx − θ̃| ≤ |π − π̃|·|x̃| + 2^−53·|θ̃| + π·ex (π̃ the double nearest π,
/// |π − π̃| < 1.3·10^−16) is added to the bound (sin and cos are 1-Lipschitz).
pub(crate) fn eval_pair(pi: bool, n: i128, a: i64, t: &NativeTarget) -> Option<(i128, i128)> {
    let (n, a) = if pi { reduce_half_turns(n, a)? } else { (n, a) };
    let (x, ex) = input(n, a)?;
    let (theta, e_theta) = if pi {
        let theta = std::f64::consts::PI * x;
        let e = PI_ERR * x.abs() + theta.abs() * TWO_M52 + PI_UP * ex;
        (theta, e)
    } else {
        (x, ex)
    };
    let (ys, yc) = core_math::sincos(theta);
    if !ys.is_finite() || !yc.is_finite() {
        return None;
    }
    let bound = |y: f64| (y.abs() * TWO_M52 + TWO_M1074 + e_theta) * (1.0 + TWO_M49);
    let s = settle(ys, bound(ys), false, t)?;
    Some((s, settle(yc, bound(yc), false, t)?))
}
