//! The second fast step, for the inputs the double step leaves undecided (chiefly results with
//! 53 or more fraction bits, the 48- and 64-bit formats): exp, log, rsqrt, sin, cos, sinpi, cospi
//! and the pairs (and sqrt, recip) in 116-bit fixed point ([`super::q116`]) with a proven bound of a few ulps
//! (2^−116 each), rounded directly when the bound decides the result; None when it does not
//! (or the argument is outside the reduced ranges below), and the caller takes the exact path.
//!
//! Each function gives V and a bound B (in ulps) with |V − f(x)·2^116·2^−k| ≤ B, k the scaling
//! exponent (non-zero only for exp and the functions computed through it). With fb = rW − rI, t = f(x)·2^fb lies in
//! [V − B, V + B] · 2^(k + fb − 116), and every quantization mode is monotone, so when both ends
//! quantize and overflow to one raw result it is the correctly rounded one.
//!
//! Bounds (ulps; each derivation in the function's comment, summed conservatively and rounded
//! up): exp 16, log 12, rsqrt 32, sqrt 32, recip 48, sin/cos kernel 16. The argument
//! reductions:
//! - exp: |x| < 2^9, x = (64q + j)·ln2/64 + r, |r| ≤ ln2/128, e^x = 2^q · 2^(j/64) · e^r with
//!   the table of 2^(j/64) (`exp2_table`) and e^r by its Taylor polynomial of degree 12.
//! - log: x = y·2^e2 with y in [3/4, 3/2] (exact in integers), |e2| < 2^10,
//!   ln x = e2·ln2 + 2·atanh(z), z = (y−1)/(y+1), |z| ≤ 1/5, atanh by 26 terms.
//! - sinpi, cospi: x reduced modulo 2 exactly in integers (as the exact path does) to
//!   j/2 + F/2^d, |F/2^d| ≤ ¼, θ = π·F/2^d from one 256-bit product.
//! - sin, cos: |x| < 2^9 (larger arguments take the exact path, whose reduction stays exact),
//!   x = k·π/2 + r with π/2 to 2^−125, |r| ≤ 0.79.
//! - rsqrt, sqrt, recip (for the formats whose exact integers do not fit in 128 bits):
//!   e^(−½·ln x), e^(½·ln x), ±e^(−ln |x|), the two steps above chained.
//! - exp of |x| ≥ 2^9: beyond every range or below every lsb, as the exact path decides it.

use super::super::quantize::Frac;
use super::exp2_table::EXP2_64THS;
use super::native::{FAR, NativeTarget, round_native};
use super::q116::{
    LN2_Q124, ONE, P, PI_Q124, PIO2_Q124, from_scaled, horner, inv, mul, mul_int, mul_shift,
    mul_wide, shr_wide,
};
use super::transcendental::Trans;

/// 1/j!, j = 0…12, in Q116 (each < 1 ulp below the true value).
const EXP_COEFFS: [i128; 13] = {
    let mut c = [0i128; 13];
    let mut f: i128 = 1;
    let mut j = 0;
    while j < 13 {
        if j > 0 {
            f *= j as i128;
        }
        c[j] = inv(f, false);
        j += 1;
    }
    c
};

/// 1/(2j+1), j = 0…25: atanh z = z · Σ (z²)^j/(2j+1).
const ATANH_COEFFS: [i128; 26] = {
    let mut c = [0i128; 26];
    let mut j = 0;
    while j < 26 {
        c[j] = inv(2 * j as i128 + 1, false);
        j += 1;
    }
    c
};

/// (−1)^j/(2j+1)! (sin θ = θ · Σ c_j θ^(2j)) and (−1)^j/(2j)! (cos θ = Σ c_j θ^(2j)), j = 0…15.
const SIN_COS_COEFFS: ([i128; 16], [i128; 16]) = {
    let (mut s, mut c) = ([0i128; 16], [0i128; 16]);
    let mut f: i128 = 1; // (2j)!
    let mut j = 0;
    while j < 16 {
        if j > 0 {
            f *= (2 * j as i128 - 1) * (2 * j as i128);
        }
        c[j] = inv(f, j % 2 == 1);
        s[j] = inv(f * (2 * j as i128 + 1), j % 2 == 1);
        j += 1;
    }
    (s, c)
};

/// Error bounds in ulps.
const EXP_ERR: i128 = 16;
const LOG_ERR: i128 = 12;
const RSQRT_ERR: i128 = 32;
const SQRT_ERR: i128 = 32;
const RECIP_ERR: i128 = 48;
const SIN_COS_ERR: i128 = 16;

/// Values of magnitude at or above this are not decided (keeps every end and shift in range).
const LIMIT: i128 = 1 << 125;

/// The quantized integer of t = v · 2^e under `q`, clamped to ±FAR (|v| < 2^125).
fn quantize_scaled(v: i128, e: i64, q: crate::fixed::Quantization) -> i128 {
    if v == 0 {
        return 0;
    }
    if e >= 0 {
        let bits = 128 - v.unsigned_abs().leading_zeros() as i64;
        if bits + e >= 100 {
            return if v < 0 { -FAR } else { FAR };
        }
        return v << e;
    }
    let sh = e.unsigned_abs();
    if sh >= 126 {
        // 0 < |v| < 2^125 ≤ 2^(sh−1): t in (−½, ½) but not 0.
        return if v > 0 {
            round_native(0, Frac::BelowHalf, q)
        } else {
            round_native(-1, Frac::AboveHalf, q)
        };
    }
    let floor = v >> sh;
    let rem = v - (floor << sh); // in [0, 2^sh)
    let half = 1i128 << (sh - 1);
    let frac = if rem == 0 {
        Frac::Zero
    } else if rem < half {
        Frac::BelowHalf
    } else if rem == half {
        Frac::Half
    } else {
        Frac::AboveHalf
    };
    round_native(floor, frac, q)
}

/// The raw result when t ∈ [v − b, v + b] · 2^e decides it; `positive` when f(x) > 0 is known
/// (every mode quantizes 0 like values just above it, so the lower end is raised to 0).
fn settle(v: i128, b: i128, e: i64, positive: bool, t: &NativeTarget) -> Option<i128> {
    let (lo, hi) = (v.checked_sub(b)?, v.checked_add(b)?);
    if lo <= -LIMIT || hi >= LIMIT {
        return None;
    }
    let lo = if positive { lo.max(0) } else { lo };
    t.settle(quantize_scaled(lo, e, t.q), quantize_scaled(hi, e, t.q))
}

/// x = n·2^a in Q116 when |x| < 2^9 (error < 1 ulp; none when a ≥ −116).
fn argument(n: i128, a: i64) -> Option<i128> {
    from_scaled(n, a).filter(|x| x.unsigned_abs() < 1 << 125)
}

/// The nearest integer to v/c for v in Q116 and c > 0 a double (any near integer will do: the
/// reduced argument is checked afterwards).
fn nearest_multiple(v: i128, c: f64) -> i64 {
    let x = v as f64 * (1.0 / ONE as f64);
    (x / c).round() as i64
}

/// e^x as (V, k) with |V − e^x·2^(116−k)| ≤ 16 ulps.
fn exp(n: i128, a: i64) -> Option<(i128, i64)> {
    if n == 0 {
        return None; // e^0 = 1: an exact point
    }
    exp_q116(argument(n, a)?)
}

/// e^x quantized into `t` for |x| ≥ 2^9, where e^x is beyond 2^738 or below 2^−738: t is
/// beyond 2^100 (decided under every mode but WRAP) when fb ≥ −600, and in (0, 2^−138) when
/// fb ≤ 600 (quantized like any tiny positive value); None otherwise.
fn exp_far(n: i128, a: i64, t: &NativeTarget) -> Option<i128> {
    let l = (128 - n.unsigned_abs().leading_zeros() as i64).checked_add(a)?; // |x| ≥ 2^(l−1)
    if n == 0 || l < 10 {
        return None;
    }
    if n > 0 && t.frac_bits >= -600 {
        t.settle(FAR, FAR)
    } else if n < 0 && t.frac_bits <= 600 {
        let m = round_native(0, Frac::BelowHalf, t.q);
        t.settle(m, m)
    } else {
        None
    }
}

/// e^x̃ for x̃ in Q116 with |x̃| < 2^9, as (V, q): |V − e^x·2^(116−q)| ≤ 5.1 + 2.02·(ex + 2.5)
/// ulps when |x̃ − x| ≤ ex ulps (16 for ex = 1, 32 for ex = 6.5, 48 for ex = 12).
///
/// x = k·ln2/64 + r, k = 64q + j: e^x = 2^q · 2^(j/64) · e^r. k·ln2/64 = k·(ln2·2^124)/2^14 is
/// within 1 + |k|·2^−15 < 2.5 ulps (|k| ≤ 2^9·64/ln2 < 47,300), so r̃ is within ex + 2.5 of r.
/// Horner on r̃ (|r̃| ≤ 0.0055 ≥ ln2/128): 2/(1 − 0.0055) < 2.02; the tail Σ_{j≥13} is below
/// 2^−127; e^r moves by at most e^0.0056 < 1.006 times the error of r̃: P̃ is within
/// 2.03 + 1.006·(ex + 2.5) of e^r·2^116 (P̃ ≤ 1.006·2^116). The product with the table entry
/// T_j ≤ 2^125 (`exp2_table`, within ½ of 2^(j/64)·2^124) truncated: 1 + 2·|P̃ − P| + 2^−9.
fn exp_q116(x: i128) -> Option<(i128, i64)> {
    if x.unsigned_abs() >= 1 << 125 {
        return None;
    }
    let k = nearest_multiple(x, std::f64::consts::LN_2 / 64.0);
    let r = x.checked_sub(mul_shift(k as i128, LN2_Q124 as i128, 14)?)?;
    if r.unsigned_abs() > (ONE as u128 / 10_000) * 55 {
        return None;
    }
    let p = horner(r, &EXP_COEFFS)?;
    let j = k.rem_euclid(64) as usize;
    let v = mul_shift(EXP2_64THS[j] as i128, p, 124)?;
    Some((v, k.div_euclid(64)))
}

/// 1/√x = e^(−½·ln x) as (V, k) with |V − x^(−½)·2^(116−k)| ≤ 32 ulps, for x = n·2^a > 0:
/// ũ = ⌊−L̃/2⌋ is within 12/2 + ½ = 6.5 ulps of −½·ln x, and |ũ| ≤ 2^10·ln2/2 + 1 < 2^9.
fn rsqrt(n: i128, a: i64) -> Option<(i128, i64)> {
    let (l, _) = log(n, a)?;
    exp_q116((-l) >> 1)
}

/// ln x in Q116 (|V − ln x · 2^116| ≤ 12 ulps) for x = n·2^a > 0, and whether x > 1.
///
/// z̃ = ⌊|n − c|·2^116/(n + c)⌋ (< 1 ulp); w̃ = mul(z̃, z̃) is within 1 + 2·0.2 = 1.4 of z²;
/// Horner on w̃ (≤ 0.05): 2/0.95 < 2.2, the tail Σ_{j≥26} w^j/(2j+1) < 1, and d/dw of the sum
/// ≤ 0.36 turns w's error into < 0.6: the sum S̃ (≤ 1.02) is within 3.8. mul(z̃, S̃) adds
/// 1 + 0.2·3.8 + 1.02·1 < 2.8; doubled, 5.6; e2·ln2 from [`mul_int`] < 1 + 2^10·2^−9 = 3:
/// in all < 8.6.
fn log(n: i128, a: i64) -> Option<(i128, bool)> {
    let n = u128::try_from(n).ok().filter(|n| *n > 0 && *n < 1 << 64)?;
    let lb = 128 - n.leading_zeros();
    // c = 2^(lb−1), or 2^lb when n > 1.5·2^(lb−1): y = n/c in [3/4, 3/2].
    let c_exp = if 2 * n > 3u128 << (lb - 1) {
        lb
    } else {
        lb - 1
    };
    let c = 1u128 << c_exp;
    let e2 = a.checked_add(c_exp as i64)?;
    if (n == c && e2 == 0) || e2.unsigned_abs() >= 1 << 10 {
        return None; // ln 1 = 0 is an exact point
    }
    let (num, den) = (n.abs_diff(c), n + c); // num ≤ c/2 < 2^64, den < 2^66
    // ⌊num·2^116/den⌋ in two 58-bit steps (num·2^58 < 2^122, rem·2^58 < 2^124).
    let q1 = (num << 58) / den;
    let q2 = (((num << 58) % den) << 58) / den;
    let z = ((q1 << 58) | q2) as i128;
    let z = if n < c { -z } else { z };
    let s = horner(mul(z, z)?, &ATANH_COEFFS)?;
    let v = mul(z, s)?
        .checked_mul(2)?
        .checked_add(mul_int(e2, LN2_Q124)?)?;
    Some((v, e2 > 0 || (e2 == 0 && n > c)))
}

/// sin θ (`sine`) or cos θ in Q116 for |θ̃| ≤ 0.79 with |θ̃ − θ| ≤ 3 ulps: within 16 ulps.
///
/// w̃ = mul(θ̃, θ̃) is within 1 + 2·0.79·3 < 5.8 of θ²; Horner on w̃ (≤ 0.625): 2/0.375 < 5.4;
/// the tails (alternating, decreasing) are below the first omitted term w^16/32! < 1; d/dw of
/// the sums ≤ 0.56 (cos) and 0.19 (sin) add < 3.3 and < 1.1. cos: < 9.7. The sine sum S̃ (≤ 1)
/// is within 7.5, and mul(θ̃, S̃) adds 1 + 0.79·7.5 + 1·3 < 10: both below 16.
fn kernel(theta: i128, sine: bool) -> Option<i128> {
    if theta.unsigned_abs() > (ONE as u128 / 100) * 79 {
        return None;
    }
    let w = mul(theta, theta)?;
    if sine {
        mul(theta, horner(w, &SIN_COS_COEFFS.0)?)
    } else {
        horner(w, &SIN_COS_COEFFS.1)
    }
}

/// √x = e^(½·ln x) as (V, k), |V − √x·2^(116−k)| ≤ 32 ulps, for x = n·2^a > 0: ũ = ⌊L̃/2⌋
/// is within 6.5 ulps of ½·ln x, as for [`rsqrt`].
fn sqrt(n: i128, a: i64) -> Option<(i128, i64)> {
    let (l, _) = log(n, a)?;
    exp_q116(l >> 1)
}

/// 1/x = ±e^(−ln |x|) as (V, k), |V − 2^(116−k)/x| ≤ 48 ulps, for x = n·2^a ≠ 0: −L̃ is within
/// 12 ulps of −ln |x|, so the bound of [`exp_q116`] is 5.1 + 2.02·14.5 < 34.5.
fn recip(n: i128, a: i64) -> Option<(i128, i64)> {
    let (l, _) = log(n.checked_abs()?, a)?;
    let (v, k) = exp_q116(l.checked_neg()?)?;
    Some((if n < 0 { -v } else { v }, k))
}

/// √x quantized into `t` for x = n·2^a > 0, when the 116-bit evaluation decides it (for the
/// formats whose exact integers do not fit in 128 bits).
pub(crate) fn eval_sqrt(n: i128, a: i64, t: &NativeTarget) -> Option<i128> {
    let (v, k) = sqrt(n, a)?;
    settle(
        v,
        SQRT_ERR,
        t.frac_bits.checked_sub(P as i64)?.checked_add(k)?,
        true,
        t,
    )
}

/// 1/x quantized into `t` for x = n·2^a ≠ 0, when the 116-bit evaluation decides it.
pub(crate) fn eval_recip(n: i128, a: i64, t: &NativeTarget) -> Option<i128> {
    let (v, k) = recip(n, a)?;
    let e = t.frac_bits.checked_sub(P as i64)?.checked_add(k)?;
    settle(v, RECIP_ERR, e, n > 0, t)
}

/// sin x (`sine`) or cos x for x = j·π/2 + θ, from the kernel: sin x is sin θ, cos θ, −sin θ,
/// −cos θ for j = 0, 1, 2, 3 (mod 4), and cos x = sin(x + π/2).
fn at_quadrant(j: u64, theta: i128, sine: bool) -> Option<i128> {
    let j = if sine { j % 4 } else { (j + 1) % 4 };
    let v = kernel(theta, j % 2 == 0)?;
    Some(if j >= 2 { -v } else { v })
}

/// x = n·2^a reduced exactly modulo 2 as |x| ≡ j/2 + F/2^d with |F/2^d| ≤ ¼, F ≠ 0, and
/// θ = π·F/2^d in Q116 (one truncated 256-bit product: error < 1.01 ulps); None at the exact
/// points (multiples of ½).
fn reduce_half_turns(n: i128, a: i64) -> Option<(u64, i128)> {
    if a >= 0 {
        return None;
    }
    let m = n.unsigned_abs();
    let d = a.unsigned_abs();
    if d < 2 || m >> 64 != 0 {
        return None;
    }
    let (j, f) = if d >= 66 {
        // |x| < 2^64·2^−d ≤ ¼
        (0u64, m as i128)
    } else {
        let x = m & ((1u128 << (d + 1)) - 1); // |x| mod 2 = x/2^d
        let j = x >> (d - 1);
        let f = (x - (j << (d - 1))) as i128;
        if f > 1i128 << (d - 2) {
            (j as u64 + 1, f - (1i128 << (d - 1)))
        } else {
            (j as u64, f)
        }
    };
    if f == 0 {
        return None;
    }
    // θ·2^116 = |F|·(π·2^124) / 2^(d+8)
    let (hi, lo) = mul_wide(f.unsigned_abs(), PI_Q124);
    let s = u32::try_from(d + 8).unwrap_or(u32::MAX);
    let theta = shr_wide(hi, lo, s)? as i128;
    Some((j % 4, if f < 0 { -theta } else { theta }))
}

/// x = k·π/2 + r̃ for |x| < 2^9, as (k mod 4, r̃): r̃ = x̃ − k·π/2 is within 1 + (1 + 326·2^−9)
/// < 2.7 ulps of r (|k| ≤ 2^9·2/π); None at x = 0 (an exact point).
fn reduce_radians(n: i128, a: i64) -> Option<(u64, i128)> {
    if n == 0 {
        return None;
    }
    let x = argument(n, a)?;
    let k = nearest_multiple(x, std::f64::consts::FRAC_PI_2);
    let r = x.checked_sub(mul_int(k, PIO2_Q124)?)?;
    Some((k.rem_euclid(4) as u64, r))
}

/// sin (`sine`) or cos of x, or of πx when `pi`, in Q116 within 16 ulps.
fn trig(n: i128, a: i64, pi: bool, sine: bool) -> Option<i128> {
    let (j, theta) = if pi {
        reduce_half_turns(n, a)?
    } else {
        reduce_radians(n, a)?
    };
    let v = at_quadrant(j, theta, sine)?;
    // sinpi was reduced on |x|: sin is odd, cos even.
    Some(if pi && sine && n < 0 { -v } else { v })
}

/// f(x) quantized into `t` for x = n · 2^a, when the 116-bit evaluation decides it.
pub(crate) fn eval(f: Trans, n: i128, a: i64, t: &NativeTarget) -> Option<i128> {
    let e = t.frac_bits.checked_sub(P as i64)?;
    match f {
        Trans::Exp => match exp(n, a) {
            Some((v, k)) => settle(v, EXP_ERR, e.checked_add(k)?, true, t),
            None => exp_far(n, a, t),
        },
        Trans::Log => {
            let (v, positive) = log(n, a)?;
            settle(v, LOG_ERR, e, positive, t)
        }
        Trans::Sin => settle(trig(n, a, false, true)?, SIN_COS_ERR, e, false, t),
        Trans::Cos => settle(trig(n, a, false, false)?, SIN_COS_ERR, e, false, t),
        Trans::SinPi => settle(trig(n, a, true, true)?, SIN_COS_ERR, e, false, t),
        Trans::CosPi => settle(trig(n, a, true, false)?, SIN_COS_ERR, e, false, t),
        Trans::Rsqrt => {
            let (v, k) = rsqrt(n, a)?;
            settle(v, RSQRT_ERR, e.checked_add(k)?, true, t)
        }
    }
}

/// (sin, cos) of x, or of πx when `pi`, quantized into `t`, when both are decided.
pub(crate) fn eval_pair(pi: bool, n: i128, a: i64, t: &NativeTarget) -> Option<(i128, i128)> {
    let e = t.frac_bits.checked_sub(P as i64)?;
    let s = trig(n, a, pi, true)?;
    let c = trig(n, a, pi, false)?;
    Some((
        settle(s, SIN_COS_ERR, e, false, t)?,
        settle(c, SIN_COS_ERR, e, false, t)?,
    ))
}

#[cfg(test)]
mod tests;
