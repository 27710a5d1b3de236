//! Conversion of exact values (dyadic or rational) to a fixed-point format: quantize first, then
//! apply overflow (reference/acfixed.md §1.4).

use super::eval::EvalLimits;
use super::quantize::{Frac, apply_overflow, floor_shift, round_parts};
use super::{FixedError, FixedFormat, Overflow, Quantization, quantize_rational};
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};

/// An exact dyadic value `mantissa · 2^exponent`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dyadic {
    /// The integer mantissa.
    pub mantissa: BigInt,
    /// The power of two it is scaled by.
    pub exponent: i64,
}

impl Dyadic {
    /// `mantissa · 2^exponent`.
    pub fn new(mantissa: BigInt, exponent: i64) -> Self {
        Dyadic { mantissa, exponent }
    }

    /// The value held by the raw integer `n` of format `fmt`.
    pub fn from_raw(n: BigInt, fmt: &FixedFormat) -> Self {
        Dyadic::new(n, fmt.lsb_exponent())
    }
}

/// Rounds and range-handles the dyadic `m · 2^k` (k in result quanta) into `fmt`: the result
/// raw integer. Values far outside the range are decided without being materialized, except
/// under WRAP, where the low bits are computed exactly.
pub(crate) fn settle_dyadic(
    m: &BigInt,
    k: i64,
    fmt: &FixedFormat,
    q: Quantization,
    o: Overflow,
) -> BigInt {
    if k >= 0 {
        let k = k as u64;
        if m.is_zero() {
            return BigInt::zero();
        }
        if k >= fmt.width() as u64 {
            // |t| ≥ 2^W: out of range for any format; WRAP keeps low W bits, all zero.
            return match o {
                Overflow::Wrap => BigInt::zero(),
                _ => apply_overflow(&far_out_of_range(m.is_negative(), fmt), fmt, o),
            };
        }
        return apply_overflow(&(m << k), fmt, o);
    }
    let (floor, frac) = floor_shift(m, k.unsigned_abs());
    apply_overflow(&round_parts(floor, frac, q), fmt, o)
}

/// A raw integer certainly beyond the range of `fmt` on the given side.
pub(crate) fn far_out_of_range(negative: bool, fmt: &FixedFormat) -> BigInt {
    let big = BigInt::one() << (fmt.width() + 1);
    if negative { -big } else { big }
}

/// Converts the exact dyadic `value` into `fmt` under `q` and `o`: the raw integer of the result.
pub fn convert_dyadic(value: &Dyadic, fmt: &FixedFormat, q: Quantization, o: Overflow) -> BigInt {
    let k = value.exponent.saturating_sub(fmt.lsb_exponent());
    settle_dyadic(&value.mantissa, k, fmt, q, o)
}

/// Converts the exact rational `num / den` into `fmt` under `q` and `o`: the raw integer of the
/// result. Fails on a zero denominator, or when the exact quotient would need more than the
/// default [`EvalLimits`] bits to form.
pub fn convert_rational(
    num: &BigInt,
    den: &BigInt,
    fmt: &FixedFormat,
    q: Quantization,
    o: Overflow,
) -> Result<BigInt, FixedError> {
    settle_rational(
        num,
        den,
        -fmt.lsb_exponent(),
        fmt,
        q,
        o,
        EvalLimits::default().max_precision_bits,
    )
}

/// Rounds and range-handles t = (num / den) · 2^s into `fmt`. Values with |t| < 1/4 or far out
/// of range (non-WRAP) are decided from sizes alone; otherwise the exact quotient is formed,
/// which fails when it needs more than `limit` bits.
pub(crate) fn settle_rational(
    num: &BigInt,
    den: &BigInt,
    s: i64,
    fmt: &FixedFormat,
    q: Quantization,
    o: Overflow,
    limit: u64,
) -> Result<BigInt, FixedError> {
    if den.is_zero() {
        return Err(FixedError::ZeroDenominator);
    }
    if num.is_zero() {
        return Ok(BigInt::zero());
    }
    let negative = num.is_negative() != den.is_negative();
    // 2^(log2_t − 1) < |t| < 2^(log2_t + 1)
    let log2_t = (num.bits() as i64 - den.bits() as i64).saturating_add(s);
    if log2_t <= -3 {
        return Ok(apply_overflow(
            &round_parts(tiny_floor(negative), tiny_frac(negative), q),
            fmt,
            o,
        ));
    }
    if log2_t >= fmt.width() as i64 + 3 && o != Overflow::Wrap {
        return Ok(apply_overflow(&far_out_of_range(negative, fmt), fmt, o));
    }
    let needed = num.bits().max(den.bits()) + s.unsigned_abs();
    if needed > limit {
        return Err(FixedError::ResourceLimit {
            function: "convert",
            needed_bits: needed,
            limit_bits: limit,
        });
    }
    let (n, d) = if s >= 0 {
        (num << (s as u64), den.clone())
    } else {
        (num.clone(), den << s.unsigned_abs())
    };
    let m = quantize_rational(&n, &d, q).ok_or(FixedError::ZeroDenominator)?;
    Ok(apply_overflow(&m, fmt, o))
}

/// ⌊t⌋ for 0 < |t| < 1/4 with the given sign.
pub(crate) fn tiny_floor(negative: bool) -> BigInt {
    if negative {
        -BigInt::one()
    } else {
        BigInt::zero()
    }
}

/// The fractional class of t for 0 < |t| < 1/4 with the given sign.
pub(crate) fn tiny_frac(negative: bool) -> Frac {
    if negative {
        Frac::AboveHalf
    } else {
        Frac::BelowHalf
    }
}

/// Integers of more bits than this are written `m·2^e` by [`Dyadic::to_decimal_string`]
/// (2^1024 has 309 decimal digits; a format's integer bits may be any `i32`, and writing
/// 2^(2^31) in decimal would take minutes).
pub const MAX_DECIMAL_BITS: u64 = 1024;

impl Dyadic {
    /// The value in decimal, truncated toward zero after `frac_digits` digits, with a trailing
    /// `…` when digits were dropped (exact dyadics end after at most −exponent digits). An
    /// integer of more than [`MAX_DECIMAL_BITS`] bits is written exactly as `m·2^e` instead.
    pub fn to_decimal_string(&self, frac_digits: usize) -> String {
        let negative = self.mantissa.is_negative();
        let a = self.mantissa.abs();
        if self.exponent > 0
            && !a.is_zero()
            && a.bits().saturating_add(self.exponent as u64) > MAX_DECIMAL_BITS
        {
            return format!("{}{a}·2^{}", if negative { "-" } else { "" }, self.exponent);
        }
        if self.exponent >= 0 {
            let v: BigInt = a << (self.exponent as u64);
            return format!("{}{}", if negative { "-" } else { "" }, v);
        }
        let s = self.exponent.unsigned_abs();
        let int_part: BigInt = &a >> s;
        let frac: BigInt = &a - (&int_part << s);
        let scaled: BigInt = frac * BigInt::from(10u32).pow(frac_digits as u32);
        let digits: BigInt = &scaled >> s;
        let inexact = (&digits << s) != scaled;
        let mut text = format!("{:0>width$}", digits.to_string(), width = frac_digits);
        while !inexact && text.ends_with('0') {
            text.pop();
        }
        let sign = if negative && (!int_part.is_zero() || !text.is_empty() || inexact) {
            "-"
        } else {
            ""
        };
        let mut out = format!("{sign}{int_part}");
        if !text.is_empty() {
            out.push('.');
            out.push_str(&text);
        }
        if inexact {
            out.push('…');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_integers_are_written_as_a_power_of_two_multiple() {
        let d = |m: i64, e: i64| Dyadic {
            mantissa: BigInt::from(m),
            exponent: e,
        };
        // 3·2^4 = 48; 2^1023 still in decimal (308 digits, starting 8988465674…).
        assert_eq!(d(3, 4).to_decimal_string(5), "48");
        let big = d(1, 1023).to_decimal_string(5);
        assert_eq!(big.len(), 308);
        assert!(big.starts_with("8988465674"), "{big}");
        // 2·2^1023 = 2^1024 has 1025 bits: written as a multiple, exactly, and at once even
        // for exponents near 2^31.
        assert_eq!(d(2, 1023).to_decimal_string(5), "2·2^1023");
        assert_eq!(
            d(-5, 2_000_000_000).to_decimal_string(40),
            "-5·2^2000000000"
        );
        // Tiny values stay decimals: 5·2^-2000000000 truncates to 0 after 3 digits.
        assert_eq!(d(5, -2_000_000_000).to_decimal_string(3), "0.000…");
    }
}
