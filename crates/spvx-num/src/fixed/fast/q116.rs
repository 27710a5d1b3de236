//! 116-bit fixed-point arithmetic on `i128` for the second fast step ([`super::wide`]): a value
//! v is held as the integer V = v · 2^116 (one unit, an "ulp", is 2^−116), with the error of
//! every operation stated in ulps, so that the functions built on it carry a proven bound.
//!
//! - [`mul`]: trunc(A·B / 2^116) through the exact 256-bit product; error < 1 ulp.
//! - [`mul_int`]: k · C / 2^8 for an integer k and a constant C in Q124; error
//!   < 1 + |k|·2^−9 ulps when |C − c·2^124| ≤ ½.
//! - [`horner`]: Σ c_j w^j with coefficients given in Q116; error analysis in its comment.
//! - The constants π, π/2 and ln 2 in Q124, rounded to nearest (|C − c·2^124| ≤ ½), checked in
//!   the tests against the exact path's own rigorous values (`consts`).

/// Fractional bits of the working format.
pub(crate) const P: u32 = 116;
/// 1 in Q116.
pub(crate) const ONE: i128 = 1 << P;

/// π · 2^124, rounded to nearest.
pub(crate) const PI_Q124: u128 = 0x3243_f6a8_885a_308d_3131_98a2_e037_0734;
/// π/2 · 2^124, rounded to nearest.
pub(crate) const PIO2_Q124: u128 = 0x1921_fb54_442d_1846_9898_cc51_701b_839a;
/// ln 2 · 2^124, rounded to nearest.
pub(crate) const LN2_Q124: u128 = 0x0b17_217f_7d1c_f79a_bc9e_3b39_803f_2f6b;

/// The exact 256-bit product a·b as (high 128 bits, low 128 bits).
pub(crate) fn mul_wide(a: u128, b: u128) -> (u128, u128) {
    const M: u128 = u64::MAX as u128;
    let (a0, a1) = (a & M, a >> 64);
    let (b0, b1) = (b & M, b >> 64);
    let (p00, p01, p10, p11) = (a0 * b0, a0 * b1, a1 * b0, a1 * b1);
    // < 3 · 2^64: no overflow.
    let mid = (p00 >> 64) + (p01 & M) + (p10 & M);
    let lo = (p00 & M) | (mid << 64);
    let hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
    (hi, lo)
}

/// ⌊(hi·2^128 + lo) / 2^s⌋ for 0 < s, when it fits in 127 bits; None otherwise.
pub(crate) fn shr_wide(hi: u128, lo: u128, s: u32) -> Option<u128> {
    let v = match s {
        0 => return (hi == 0 && lo >> 127 == 0).then_some(lo),
        1..=127 => {
            if hi >> s != 0 {
                return None;
            }
            (hi << (128 - s)) | (lo >> s)
        }
        128..=255 => hi >> (s - 128),
        _ => 0,
    };
    (v >> 127 == 0).then_some(v)
}

/// The magnitude |a·b| / 2^s truncated, with the sign of a·b; None when it does not fit.
pub(crate) fn mul_shift(a: i128, b: i128, s: u32) -> Option<i128> {
    let (hi, lo) = mul_wide(a.unsigned_abs(), b.unsigned_abs());
    let m = shr_wide(hi, lo, s)? as i128;
    Some(if (a < 0) != (b < 0) { -m } else { m })
}

/// A·B in Q116 (truncated toward zero: error < 1 ulp); None when it does not fit.
pub(crate) fn mul(a: i128, b: i128) -> Option<i128> {
    mul_shift(a, b, P)
}

/// k · C / 2^(124−116) for a constant C in Q124: k·c in Q116, error < 1 + |k|·2^−9 ulps.
pub(crate) fn mul_int(k: i64, c_q124: u128) -> Option<i128> {
    mul_shift(k as i128, c_q124 as i128, 124 - P)
}

/// Σ c_j · w^j (j = 0…N) by Horner's rule: s_N = c_N, s_j = c_j + mul(w, s_(j+1)).
///
/// Error: with the c_j given to < 1 ulp and |w| ≤ ρ < 1 exact, each step adds < 1 ulp (the
/// coefficient) + 1 ulp (the product) to ρ times the error of the step before, so the result is
/// within 2/(1 − ρ) ulps of Σ c_j w^j for the true coefficients (the truncation of the series
/// and the error of w are the caller's).
pub(crate) fn horner(w: i128, coeffs: &[i128]) -> Option<i128> {
    let (last, rest) = coeffs.split_last()?;
    let mut s = *last;
    for c in rest.iter().rev() {
        s = c.checked_add(mul(w, s)?)?;
    }
    Some(s)
}

/// `ONE / d` truncated toward zero, with the sign `negative`: a coefficient ±1/d, error < 1 ulp.
pub(crate) const fn inv(d: i128, negative: bool) -> i128 {
    let v = ONE / d;
    if negative { -v } else { v }
}

/// x = n · 2^a in Q116: ⌊n · 2^(a+116)⌋ (error < 1 ulp, none when a ≥ −116); None when
/// |x| ≥ 2^10.
pub(crate) fn from_scaled(n: i128, a: i64) -> Option<i128> {
    let s = a.checked_add(P as i64)?;
    if n == 0 {
        return Some(0);
    }
    // |x| < 2^10 ⟺ |n| · 2^s < 2^126.
    let bits = 128 - n.unsigned_abs().leading_zeros() as i64;
    if bits + s > 126 {
        return None;
    }
    Some(if s >= 0 {
        n << s
    } else if s > -127 {
        n >> (-s)
    } else if n < 0 {
        -1
    } else {
        0
    })
}

#[cfg(test)]
mod tests {
    use super::super::super::consts::{ln2, pi};
    use super::*;
    use num_bigint::BigInt;

    /// The Q124 constants are within ½ ulp of the exact path's rigorous π and ln 2.
    #[test]
    fn constants_agree_with_the_rigorous_values() {
        let check = |c: u128, ball: super::super::super::ball::Ball, name: &str| {
            // ball at precision 200: value in [mid − rad, mid + rad] · 2^−200.
            let scaled = BigInt::from(c) << 76u32; // c · 2^(200 − 124)
            let half = BigInt::from(1) << 75u32;
            let d = &scaled - &ball.mid;
            let d = if d < BigInt::from(0) { -d } else { d };
            assert!(d <= half + &ball.rad, "{name}");
        };
        check(PI_Q124, pi(200), "pi");
        check(LN2_Q124, ln2(200), "ln2");
        // π · 2^−199 read at 2^−200 is π/2.
        let mut pio2 = pi(199);
        pio2.prec = 200;
        check(PIO2_Q124, pio2, "pi/2");
    }

    /// mul against exact big-integer products.
    #[test]
    fn mul_truncates_the_exact_product() {
        let vals: [i128; 7] = [
            0,
            1,
            -1,
            ONE,
            -(ONE / 3),
            (ONE / 7) * 5 + 12345,
            (1i128 << 126) - 1,
        ];
        for &a in &vals {
            for &b in &vals[..6] {
                let exact = BigInt::from(a) * BigInt::from(b);
                let mag = (if exact < BigInt::from(0) {
                    -&exact
                } else {
                    exact.clone()
                }) >> P;
                let want = if exact < BigInt::from(0) { -mag } else { mag };
                assert_eq!(mul(a, b).map(BigInt::from), Some(want), "{a} {b}");
            }
        }
    }
}
