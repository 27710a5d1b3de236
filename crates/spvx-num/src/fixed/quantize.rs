//! Quantization (rounding an exact value t, measured in result quanta, to an integer m) and
//! overflow handling of m, as defined in reference/acfixed.md §1.2–1.3.

use super::{FixedFormat, Overflow, Quantization};
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, Zero};
use std::cmp::Ordering;

/// Where the fractional part `t − ⌊t⌋` lies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Frac {
    /// t is an integer.
    Zero,
    /// 0 < frac < ½.
    BelowHalf,
    /// frac = ½ (an exact tie).
    Half,
    /// ½ < frac < 1.
    AboveHalf,
}

/// Rounds t, given as `floor = ⌊t⌋` and the class of its fractional part, under mode `q`.
/// The sign of t (for TRN_ZERO, RND_ZERO, RND_INF) is that of `floor` when t is not an
/// integer: t < 0 exactly when ⌊t⌋ < 0.
pub(crate) fn round_parts(floor: BigInt, frac: Frac, q: Quantization) -> BigInt {
    use Quantization::*;
    if frac == Frac::Zero {
        return floor;
    }
    let negative = floor.is_negative();
    let up = match frac {
        Frac::Zero => false,
        Frac::BelowHalf => matches!(q, TrnZero if negative),
        Frac::AboveHalf => match q {
            Trn => false,
            TrnZero => negative,
            _ => true,
        },
        Frac::Half => match q {
            Trn => false,
            TrnZero => negative,
            Rnd => true,
            RndZero => negative,
            RndInf => !negative,
            RndMinInf => false,
            RndConv => floor.is_odd(),
            RndConvOdd => floor.is_even(),
        },
    };
    if up { floor + 1 } else { floor }
}

/// Quantizes the rational `num / den` (den ≠ 0) under `q`. Returns None when `den` is 0.
pub fn quantize_rational(num: &BigInt, den: &BigInt, q: Quantization) -> Option<BigInt> {
    if den.is_zero() {
        return None;
    }
    let (num, den) = if den.is_negative() {
        (-num, -den)
    } else {
        (num.clone(), den.clone())
    };
    let (floor, rem) = num.div_mod_floor(&den);
    let frac = if rem.is_zero() {
        Frac::Zero
    } else {
        match (&rem << 1u32).cmp(&den) {
            Ordering::Less => Frac::BelowHalf,
            Ordering::Equal => Frac::Half,
            Ordering::Greater => Frac::AboveHalf,
        }
    };
    Some(round_parts(floor, frac, q))
}

/// ⌊m · 2^−s⌋ and the class of the dropped fraction, for s ≥ 0, without materializing 2^s
/// when s is far beyond the size of m.
pub(crate) fn floor_shift(m: &BigInt, s: u64) -> (BigInt, Frac) {
    if s == 0 {
        return (m.clone(), Frac::Zero);
    }
    if m.is_zero() {
        return (BigInt::zero(), Frac::Zero);
    }
    if s > m.bits() + 1 {
        // |m| < 2^(s−2): t is a tiny positive or negative fraction.
        return if m.is_negative() {
            (-BigInt::one(), Frac::AboveHalf)
        } else {
            (BigInt::zero(), Frac::BelowHalf)
        };
    }
    let floor = m >> s; // num-bigint shifts negative values toward −∞
    let rem = m - (&floor << s);
    let frac = if rem.is_zero() {
        Frac::Zero
    } else {
        let half = BigInt::one() << (s - 1);
        match rem.cmp(&half) {
            Ordering::Less => Frac::BelowHalf,
            Ordering::Equal => Frac::Half,
            Ordering::Greater => Frac::AboveHalf,
        }
    };
    (floor, frac)
}

/// Quantizes the dyadic `m · 2^k` under `q`. The caller must keep `m.bits() + k` reasonable when
/// k > 0 (the integer `m · 2^k` is materialized).
pub fn quantize_dyadic(m: &BigInt, k: i64, q: Quantization) -> BigInt {
    if k >= 0 {
        return m << (k as u64);
    }
    let (floor, frac) = floor_shift(m, k.unsigned_abs());
    round_parts(floor, frac, q)
}

/// Applies overflow mode `o` of format `fmt` to the quantized raw integer `m`
/// (reference/acfixed.md §1.3). SAT_SYM on a signed format sends every m ≤ MIN to −MAX, including
/// MIN itself (ac_types); for W = 1 signed that is 0 (decision, docs/semantics/fixed-point.md).
pub fn apply_overflow(m: &BigInt, fmt: &FixedFormat, o: Overflow) -> BigInt {
    let lo = fmt.raw_min();
    let hi = fmt.raw_max();
    match o {
        Overflow::Wrap => {
            let bits = fmt.encode(m);
            fmt.decode(&bits).unwrap_or_default()
        }
        Overflow::Sat => m.clamp(&lo, &hi).clone(),
        Overflow::SatZero => {
            if *m < lo || *m > hi {
                BigInt::zero()
            } else {
                m.clone()
            }
        }
        Overflow::SatSym => {
            if *m > hi {
                hi
            } else if fmt.signed() && *m <= lo {
                -hi
            } else if *m < lo {
                lo
            } else {
                m.clone()
            }
        }
    }
}
