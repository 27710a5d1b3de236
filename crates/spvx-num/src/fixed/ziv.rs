//! The adaptive-precision (Ziv) loop: evaluate an enclosure of f(x), and raise the working
//! precision until every point of the enclosure quantizes and overflows to the same raw result.
//!
//! All quantization modes are monotone non-decreasing in t, and so are SAT and SAT_SYM; so the
//! result is determined when it agrees at both ends of the enclosure. Since f(x) is never on a
//! quantization boundary except at the exact points each function handles itself
//! (reference/acfixed.md §5.11), the loop ends; the precision limit bounds it regardless.

use super::convert::{Dyadic, far_out_of_range, settle_dyadic, tiny_floor, tiny_frac};
use super::quantize::{apply_overflow, quantize_dyadic, round_parts};
use super::{EvalLimits, FixedError, FixedFormat, Overflow, Quantization};
use num_bigint::BigInt;
use num_traits::{Signed, Zero};

/// What an evaluation at some precision produced.
#[derive(Debug, Clone)]
pub(crate) enum Approx {
    /// The exact value.
    Exact(Dyadic),
    /// The exact value lies in `[lo · 2^exp, hi · 2^exp]`; `sign` is +1 or −1 when the value
    /// is known to be non-zero with that sign, 0 when unknown.
    Enclosure {
        lo: BigInt,
        hi: BigInt,
        exp: i64,
        sign: i8,
    },
}

/// The result format and modes an evaluation is resolved into.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Target<'a> {
    pub fmt: &'a FixedFormat,
    pub q: Quantization,
    pub o: Overflow,
    pub limits: &'a EvalLimits,
    pub function: &'static str,
}

impl Target<'_> {
    /// The error for a needed precision above the limit.
    pub fn too_precise(&self, needed_bits: u64) -> FixedError {
        FixedError::ResourceLimit {
            function: self.function,
            needed_bits,
            limit_bits: self.limits.max_precision_bits,
        }
    }

    /// Fails when `bits` is above the precision limit.
    pub fn check(&self, bits: u64) -> Result<(), FixedError> {
        if bits > self.limits.max_precision_bits {
            Err(self.too_precise(bits))
        } else {
            Ok(())
        }
    }

    /// The fractional bits of the result, `rW − rI` (t = f · 2^frac_bits).
    pub fn frac_bits(&self) -> i64 {
        -self.fmt.lsb_exponent()
    }
}

/// The quantized (not yet overflow-handled) integer of the end `v · 2^k`, or a stand-in
/// certainly beyond the range on the same side when it is too large to form (non-WRAP only;
/// None under WRAP).
fn quantized_end(v: &BigInt, k: i64, t: &Target) -> Option<BigInt> {
    let w = t.fmt.width() as i64;
    if k >= 0 && (v.bits() as i64).saturating_add(k) > w + 2 {
        return (t.o != Overflow::Wrap).then(|| far_out_of_range(v.is_negative(), t.fmt));
    }
    Some(quantize_dyadic(v, k, t.q))
}

/// Tries to settle an enclosure `[lo, hi] · 2^exp` of a value whose sign is `sign` (+1, −1, or
/// 0 for unknown); None when more precision is needed. An end on the wrong side of 0 for a
/// value of known sign is replaced by "just beyond 0", which every mode quantizes like a tiny t.
fn try_settle(lo: &BigInt, hi: &BigInt, exp: i64, sign: i8, t: &Target) -> Option<BigInt> {
    let fmt = t.fmt;
    let k = exp.saturating_sub(fmt.lsb_exponent());
    if lo == hi {
        return Some(settle_dyadic(lo, k, fmt, t.q, t.o));
    }
    let m_lo = if sign > 0 && !lo.is_positive() {
        round_parts(tiny_floor(false), tiny_frac(false), t.q)
    } else {
        quantized_end(lo, k, t)?
    };
    let m_hi = if sign < 0 && !hi.is_negative() {
        round_parts(tiny_floor(true), tiny_frac(true), t.q)
    } else {
        quantized_end(hi, k, t)?
    };
    if m_lo == m_hi {
        return Some(apply_overflow(&m_lo, fmt, t.o));
    }
    match t.o {
        Overflow::Wrap => None,
        Overflow::Sat | Overflow::SatSym => {
            let a = apply_overflow(&m_lo, fmt, t.o);
            let b = apply_overflow(&m_hi, fmt, t.o);
            (a == b).then_some(a)
        }
        Overflow::SatZero => {
            let (min, max) = (fmt.raw_min(), fmt.raw_max());
            let both_above = m_lo > max && m_hi > max;
            let both_below = m_lo < min && m_hi < min;
            (both_above || both_below).then(BigInt::zero)
        }
    }
}

/// Runs the Ziv loop from working precision `start`; `eval(p)` must return an enclosure whose
/// width shrinks as p grows.
pub(crate) fn resolve(
    target: &Target,
    start: u64,
    mut eval: impl FnMut(u64) -> Result<Approx, FixedError>,
) -> Result<BigInt, FixedError> {
    let mut p = start.max(64);
    loop {
        target.check(p)?;
        match eval(p)? {
            Approx::Exact(d) => {
                let k = d.exponent.saturating_sub(target.fmt.lsb_exponent());
                return Ok(settle_dyadic(
                    &d.mantissa,
                    k,
                    target.fmt,
                    target.q,
                    target.o,
                ));
            }
            Approx::Enclosure { lo, hi, exp, sign } => {
                if let Some(m) = try_settle(&lo, &hi, exp, sign, target) {
                    return Ok(m);
                }
            }
        }
        p = p + p / 2 + 32;
    }
}
