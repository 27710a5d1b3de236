//! sqrt, recip and rsqrt on native integers: exact, like the big-integer path
//! (`funcs::algebraic`), whenever the integers involved fit in 128 bits (for recip and rsqrt,
//! also when only the quotient ⌊2^s/n⌋ does, by long division); None otherwise (the caller then
//! tries the 116-bit step, then the exact big-integer path).

use super::super::quantize::Frac;
use super::native::{NativeTarget, round_native};
use std::cmp::Ordering;

/// Quotients at or above this are left to the exact path (keeps ±1 adjustments in range).
const LIMIT: i128 = 1 << 120;

/// p · 2^s as the pair (numerator, denominator) of non-negative integers, when both fit.
fn scaled(p: u128, s: i64) -> Option<(u128, u128)> {
    let shift = |v: u128, k: u64| -> Option<u128> {
        if v == 0 {
            return Some(0);
        }
        (k < 128 && (v.leading_zeros() as u64) >= k).then(|| v << k)
    };
    if s >= 0 {
        Some((shift(p, s as u64)?, 1))
    } else {
        Some((p, shift(1, s.unsigned_abs())?))
    }
}

/// ⌊√(n/d)⌋ and the class of the fraction of √(n/d), for n, d > 0, decided by exact integer
/// comparisons (√(n/d) vs F + ½ ⟺ 4n vs (2F+1)²·d); None when a product does not fit.
fn sqrt_ratio(n: u128, d: u128) -> Option<(u128, Frac)> {
    if d == 1 {
        // √n vs F + ½ ⟺ n − F² vs F + ¼ ⟺ n − F² ≤ F (integers; never a tie): no product
        // beyond F² ≤ n, so every n fits.
        let f = n.isqrt();
        let r = n - f * f;
        let frac = if r == 0 {
            Frac::Zero
        } else if r <= f {
            Frac::BelowHalf
        } else {
            Frac::AboveHalf
        };
        return Some((f, frac));
    }
    let f = (n / d).isqrt();
    let exact = f.checked_mul(f)?.checked_mul(d)? == n;
    if exact {
        return Some((f, Frac::Zero));
    }
    let two_f1 = f.checked_mul(2)?.checked_add(1)?;
    let rhs = two_f1.checked_mul(two_f1)?.checked_mul(d)?;
    let lhs = n.checked_mul(4)?;
    let frac = match lhs.cmp(&rhs) {
        Ordering::Less => Frac::BelowHalf,
        Ordering::Equal => Frac::Half,
        Ordering::Greater => Frac::AboveHalf,
    };
    Some((f, frac))
}

/// ⌊2^s / d⌋ and 2^s mod d, for 0 < d < 2^66, when the quotient fits in 128 bits: long
/// division in steps of at most 60 bits (the remainder stays below d, so rem·2^60 < 2^126).
fn pow2_div(s: u64, d: u128) -> Option<(u128, u128)> {
    if d == 0 || d >> 66 != 0 {
        return None;
    }
    let (mut q, mut rem) = (1 / d, 1 % d);
    let mut left = s;
    while left > 0 {
        let c = left.min(60) as u32;
        if q.leading_zeros() < c {
            return None;
        }
        rem <<= c;
        q = (q << c) | (rem / d);
        rem %= d;
        left -= c as u64;
    }
    Some((q, rem))
}

/// 1/√x for x = n·2^a (n > 0) when 2^(2·fb − a) does not fit in 128 bits but ⌊2^(s+2)/n⌋
/// does (s = 2·fb − a ≥ 0; results below 2^63): F = ⌊√⌊2^s/n⌋⌋ = ⌊√(2^s/n)⌋, and t vs F + ½
/// ⟺ 2^(s+2)/n = Q + R/n vs (2F+1)², decided on the integers Q, R — exact, like [`rsqrt`].
pub(crate) fn rsqrt_wide(n: u128, a: i64, t: &NativeTarget) -> Option<i128> {
    let s = u64::try_from(t.frac_bits.checked_mul(2)?.checked_sub(a)?).ok()?;
    let (q, r) = pow2_div(s.checked_add(2)?, n)?;
    let m = q >> 2; // ⌊2^s/n⌋
    let f = m.isqrt();
    let frac = if f * f == m && q & 3 == 0 && r == 0 {
        Frac::Zero
    } else {
        let g = f.checked_mul(2)?.checked_add(1)?;
        let g2 = g.checked_mul(g)?;
        match g2.cmp(&q) {
            Ordering::Less => Frac::AboveHalf,
            Ordering::Equal if r > 0 => Frac::AboveHalf,
            Ordering::Equal => Frac::Half,
            Ordering::Greater => Frac::BelowHalf,
        }
    };
    settle_positive(f, frac, t)
}

/// ⌊n/d⌋ and the class of the fraction of n/d, for d > 0.
fn ratio(n: u128, d: u128) -> (u128, Frac) {
    (n / d, remainder_class(n % d, d))
}

/// The class of the fraction r/d, for 0 ≤ r < d.
fn remainder_class(r: u128, d: u128) -> Frac {
    if r == 0 {
        Frac::Zero
    } else {
        // 2r vs d without overflow: r < d.
        match r.cmp(&(d - r)) {
            Ordering::Less => Frac::BelowHalf,
            Ordering::Equal => Frac::Half,
            Ordering::Greater => Frac::AboveHalf,
        }
    }
}

/// The quantized, overflow-handled raw result for a non-negative t = floor + frac.
fn settle_positive(floor: u128, frac: Frac, t: &NativeTarget) -> Option<i128> {
    let floor = i128::try_from(floor).ok().filter(|f| *f < LIMIT)?;
    Some(t.overflow(round_native(floor, frac, t.q)))
}

/// √x for x = n · 2^a with n > 0: t = √(n · 2^(a + 2·fb)).
pub(crate) fn sqrt(n: u128, a: i64, t: &NativeTarget) -> Option<i128> {
    let s = a.checked_add(t.frac_bits.checked_mul(2)?)?;
    let (num, den) = scaled(n, s)?;
    let (f, frac) = sqrt_ratio(num, den)?;
    settle_positive(f, frac, t)
}

/// 1/√x for x = n · 2^a with n > 0: t = √(2^(2·fb − a) / n).
pub(crate) fn rsqrt(n: u128, a: i64, t: &NativeTarget) -> Option<i128> {
    let s = t.frac_bits.checked_mul(2)?.checked_sub(a)?;
    let (num, den) = scaled(1, s)?;
    let (f, frac) = sqrt_ratio(num, den.checked_mul(n)?)?;
    settle_positive(f, frac, t)
}

/// 1/x for x = n · 2^a with n ≠ 0: t = 2^(fb − a) / n (by [`pow2_div`] when 2^(fb − a) does
/// not fit in 128 bits).
pub(crate) fn recip(n: i128, a: i64, t: &NativeTarget) -> Option<i128> {
    let s = t.frac_bits.checked_sub(a)?;
    let (f, frac) = match scaled(1, s) {
        Some((num, den)) => ratio(num, den.checked_mul(n.unsigned_abs())?),
        None => {
            let d = n.unsigned_abs();
            let (f, rem) = pow2_div(u64::try_from(s).ok()?, d)?;
            (f, remainder_class(rem, d))
        }
    };
    if n > 0 {
        return settle_positive(f, frac, t);
    }
    // t = −(f + r/den): floor −f when exact, else −f − 1 with the mirrored fraction.
    let f = i128::try_from(f).ok().filter(|f| *f < LIMIT)?;
    let (floor, frac) = match frac {
        Frac::Zero => (-f, Frac::Zero),
        Frac::BelowHalf => (-f - 1, Frac::AboveHalf),
        Frac::Half => (-f - 1, Frac::Half),
        Frac::AboveHalf => (-f - 1, Frac::BelowHalf),
    };
    Some(t.overflow(round_native(floor, frac, t.q)))
}

#[cfg(test)]
mod tests {
    use super::super::super::{
        FixedFunction, FixedOp, FixedValue, Overflow, Quantization, evaluate_exact,
    };
    use super::*;
    use num_bigint::{BigInt, BigUint};

    /// pow2_div against big-integer division.
    #[test]
    fn pow2_div_is_exact() {
        for d in [
            1u128,
            2,
            3,
            7,
            1000,
            (1 << 64) - 1,
            (1 << 64) + 13,
            (1 << 66) - 1,
        ] {
            for s in [0u64, 1, 59, 60, 61, 119, 128, 150, 190] {
                let want_q = (BigInt::from(1) << s) / BigInt::from(d);
                let want_r = (BigInt::from(1) << s) % BigInt::from(d);
                match pow2_div(s, d) {
                    Some((q, r)) => {
                        assert_eq!((BigInt::from(q), BigInt::from(r)), (want_q, want_r));
                    }
                    None => assert!(want_q.bits() > 120, "{s} {d}"),
                }
            }
        }
    }

    /// rsqrt_wide and the long-division branch of recip against the exact path, on 64-bit
    /// formats whose 2^s is beyond 128 bits, for every Q.
    #[test]
    fn wide_rsqrt_and_recip_agree_with_the_exact_path() {
        let mut state = 0x1234_5678_u64;
        let mut taken = 0;
        for (f, i, ri) in [
            (FixedFunction::Rsqrt, 4, 8),
            (FixedFunction::Rsqrt, -3, 2),
            (FixedFunction::Recip, -3, 1),
            (FixedFunction::Recip, 1, -2),
        ] {
            for q in Quantization::ALL {
                let op = FixedOp {
                    function: f,
                    signed: false,
                    input_width: 64,
                    input_int_bits: i,
                    result_width: 64,
                    result_int_bits: ri,
                    quantization: q,
                    overflow: Overflow::Sat,
                };
                let t = NativeTarget::new(64, ri, false, q, Overflow::Sat).unwrap();
                let a = i as i64 - 64;
                for k in 0..200u64 {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let n = if k < 8 {
                        1u64 << (60 + k % 4)
                    } else {
                        state >> (k % 40)
                    };
                    let n = n.max(1);
                    let got = if f == FixedFunction::Rsqrt {
                        rsqrt_wide(n as u128, a, &t)
                    } else {
                        recip(n as i128, a, &t)
                    };
                    let Some(m) = got else { continue };
                    taken += 1;
                    let want = evaluate_exact(&op, &BigUint::from(n)).unwrap().value;
                    assert_eq!(
                        want,
                        FixedValue::Single(BigUint::from(t.bits(m))),
                        "{f} {n} {q:?}"
                    );
                }
            }
        }
        assert!(taken > 3000, "{taken} of 6400 taken");
    }
}
