//! sqrt, recip and rsqrt, exactly with integer arithmetic: ties and boundaries are decided by
//! exact comparisons, never by approximation.

use super::super::convert::{Dyadic, far_out_of_range, settle_rational, tiny_floor, tiny_frac};
use super::super::quantize::{Frac, apply_overflow, round_parts};
use super::super::ziv::Target;
use super::super::{Exception, FixedError, Overflow};
use super::infinity;
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};
use std::cmp::Ordering;

/// Rounds and range-handles t = √((num / den) · 2^s) · 2^0, for num, den > 0.
fn settle_sqrt(num: &BigInt, den: &BigInt, s: i64, t: &Target) -> Result<BigInt, FixedError> {
    let fmt = t.fmt;
    // 2^(l − 1) < num/den·2^s < 2^(l + 1), so 2^((l−1)/2) < t < 2^((l+1)/2).
    let l = (num.bits() as i64 - den.bits() as i64).saturating_add(s);
    if l <= -6 {
        return Ok(apply_overflow(
            &round_parts(tiny_floor(false), tiny_frac(false), t.q),
            fmt,
            t.o,
        ));
    }
    if l >= 2 * fmt.width() as i64 + 6 && t.o != Overflow::Wrap {
        return Ok(apply_overflow(&far_out_of_range(false, fmt), fmt, t.o));
    }
    let needed = num.bits().max(den.bits()) + s.unsigned_abs();
    t.check(needed)?;
    let (n, d) = if s >= 0 {
        (num << (s as u64), den.clone())
    } else {
        (num.clone(), den << s.unsigned_abs())
    };
    // ⌊√(n/d)⌋ = ⌊√⌊n/d⌋⌋.
    let floor = (&n / &d).sqrt();
    let frac = if &floor * &floor * &d == n {
        Frac::Zero
    } else {
        let two_f1 = (&floor << 1u32) + 1;
        match (&n << 2u32).cmp(&(&two_f1 * &two_f1 * &d)) {
            Ordering::Less => Frac::BelowHalf,
            Ordering::Equal => Frac::Half,
            Ordering::Greater => Frac::AboveHalf,
        }
    };
    Ok(apply_overflow(&round_parts(floor, frac, t.q), fmt, t.o))
}

/// √x. Negative x: undefined per the spec; result 0 with [`Exception::SqrtOfNegative`].
pub(crate) fn sqrt(x: &Dyadic, t: &Target) -> Result<(BigInt, Option<Exception>), FixedError> {
    let n = &x.mantissa;
    if n.is_negative() {
        return Ok((BigInt::zero(), Some(Exception::SqrtOfNegative)));
    }
    if n.is_zero() {
        return Ok((BigInt::zero(), None));
    }
    // t = √(n · 2^a) · 2^f = √(n · 2^(a + 2f))
    let s = x.exponent.saturating_add(2 * t.frac_bits());
    Ok((settle_sqrt(n, &BigInt::one(), s, t)?, None))
}

/// 1/√x. Zero: +∞ with [`Exception::RsqrtOfZero`]; negative x: undefined per the spec, result 0
/// with [`Exception::RsqrtOfNegative`].
pub(crate) fn rsqrt(x: &Dyadic, t: &Target) -> Result<(BigInt, Option<Exception>), FixedError> {
    let n = &x.mantissa;
    if n.is_negative() {
        return Ok((BigInt::zero(), Some(Exception::RsqrtOfNegative)));
    }
    if n.is_zero() {
        return Ok((infinity(false, t), Some(Exception::RsqrtOfZero)));
    }
    // t = 2^f / √(n · 2^a) = √(2^(2f − a) / n)
    let s = (2 * t.frac_bits()).saturating_sub(x.exponent);
    Ok((settle_sqrt(&BigInt::one(), n, s, t)?, None))
}

/// 1/x. Zero: +∞ with [`Exception::RecipOfZero`] (fixed point has no −0).
pub(crate) fn recip(x: &Dyadic, t: &Target) -> Result<(BigInt, Option<Exception>), FixedError> {
    let n = &x.mantissa;
    if n.is_zero() {
        return Ok((infinity(false, t), Some(Exception::RecipOfZero)));
    }
    // t = 2^f / (n · 2^a) = (1 / n) · 2^(f − a)
    let s = t.frac_bits().saturating_sub(x.exponent);
    let m = settle_rational(
        &BigInt::one(),
        n,
        s,
        t.fmt,
        t.q,
        t.o,
        t.limits.max_precision_bits,
    )
    .map_err(|e| match e {
        FixedError::ResourceLimit {
            needed_bits,
            limit_bits,
            ..
        } => FixedError::ResourceLimit {
            function: "recip",
            needed_bits,
            limit_bits,
        },
        other => other,
    })?;
    Ok((m, None))
}
