//! sqrt, recip and rsqrt on native integers: exact, like the big-integer path
//! (`funcs::algebraic`), whenever the integers involved fit in 128 bits; None otherwise (the
//! caller then takes the exact big-integer path).

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

/// ⌊n/d⌋ and the class of the fraction of n/d, for d > 0.
fn ratio(n: u128, d: u128) -> (u128, Frac) {
    let (f, r) = (n / d, n % d);
    let frac = if r == 0 {
        Frac::Zero
    } else {
        // 2r vs d without overflow: r < d.
        match r.cmp(&(d - r)) {
            Ordering::Less => Frac::BelowHalf,
            Ordering::Equal => Frac::Half,
            Ordering::Greater => Frac::AboveHalf,
        }
    };
    (f, frac)
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

/// 1/x for x = n · 2^a with n ≠ 0: t = 2^(fb − a) / n.
pub(crate) fn recip(n: i128, a: i64, t: &NativeTarget) -> Option<i128> {
    let s = t.frac_bits.checked_sub(a)?;
    let (num, den) = scaled(1, s)?;
    let den = den.checked_mul(n.unsigned_abs())?;
    let (f, frac) = ratio(num, den);
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
