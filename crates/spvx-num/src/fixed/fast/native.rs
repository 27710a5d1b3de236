//! Quantization and overflow on native integers, for result formats of at most 64 bits: the
//! same rules as [`crate::fixed::quantize`] (reference/acfixed.md §1.2–1.3) on `i128` instead
//! of big integers. Raw values far beyond any 64-bit range are represented by [`FAR`].

use super::super::quantize::Frac;
use super::super::{Overflow, Quantization};

/// The widest input or result format the native path takes.
pub const MAX_FAST_WIDTH: u32 = 64;

/// A stand-in magnitude beyond the range of every format of at most 64 bits (2^100): clamping
/// a quantized value to ±FAR keeps every non-WRAP overflow result unchanged.
pub(crate) const FAR: i128 = 1 << 100;

/// A result format `<rW, rI, S>` with rW ≤ 64, and its modes, in native form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NativeTarget {
    /// rW.
    pub width: u32,
    /// S.
    pub signed: bool,
    /// The smallest raw integer.
    pub min: i128,
    /// The largest raw integer.
    pub max: i128,
    /// Fractional bits rW − rI: t = f(x) · 2^frac_bits.
    pub frac_bits: i64,
    /// Q.
    pub q: Quantization,
    /// O.
    pub o: Overflow,
}

impl NativeTarget {
    /// The native form of `<width, int_bits, signed>`; None when width is 0 or above 64.
    pub fn new(
        width: u32,
        int_bits: i32,
        signed: bool,
        q: Quantization,
        o: Overflow,
    ) -> Option<Self> {
        if width == 0 || width > MAX_FAST_WIDTH {
            return None;
        }
        let (min, max) = if signed {
            (-(1i128 << (width - 1)), (1i128 << (width - 1)) - 1)
        } else {
            (0, (1i128 << width) - 1)
        };
        Some(NativeTarget {
            width,
            signed,
            min,
            max,
            frac_bits: width as i64 - int_bits as i64,
            q,
            o,
        })
    }

    /// The W-bit pattern of raw integer `m` (m modulo 2^W).
    pub fn bits(&self, m: i128) -> u64 {
        let mask = if self.width == 64 {
            u64::MAX
        } else {
            (1u64 << self.width) - 1
        };
        (m as u64) & mask
    }

    /// The raw integer held in the W-bit pattern `bits`.
    pub fn decode(&self, bits: u64) -> i128 {
        if self.signed && self.width < 128 && (bits >> (self.width - 1)) & 1 == 1 {
            bits as i128 - (1i128 << self.width)
        } else {
            bits as i128
        }
    }

    /// The raw result for an infinite f(x) (`funcs::infinity`): overflow on that side; under
    /// WRAP, MAX for +∞ and MIN for −∞.
    pub fn infinity(&self, negative: bool) -> i128 {
        match (self.o, negative) {
            (Overflow::Wrap, false) => self.max,
            (Overflow::Wrap, true) => self.min,
            (_, false) => self.overflow(FAR),
            (_, true) => self.overflow(-FAR),
        }
    }

    /// Applies the overflow mode to the quantized integer `m` (|m| ≤ FAR): the raw result.
    /// SAT_SYM on a signed format sends every m ≤ MIN to −MAX, as
    /// [`crate::fixed::apply_overflow`] does.
    pub fn overflow(&self, m: i128) -> i128 {
        match self.o {
            Overflow::Wrap => self.decode(self.bits(m)),
            Overflow::Sat => m.clamp(self.min, self.max),
            Overflow::SatZero => {
                if m < self.min || m > self.max {
                    0
                } else {
                    m
                }
            }
            Overflow::SatSym => {
                if m > self.max {
                    self.max
                } else if self.signed && m <= self.min {
                    -self.max
                } else if m < self.min {
                    self.min
                } else {
                    m
                }
            }
        }
    }

    /// The raw result when the quantized value is known to lie between `m_lo` and `m_hi`
    /// (inclusive, m_lo ≤ m_hi, either possibly ±FAR standing for "beyond the range"): the
    /// common value when every integer in between gives the same result, else None. Overflow
    /// modes other than WRAP are monotone or constant outside the range, so the ends decide.
    pub fn settle(&self, m_lo: i128, m_hi: i128) -> Option<i128> {
        let far = |m: i128| m.abs() >= FAR;
        if m_lo == m_hi && !(self.o == Overflow::Wrap && far(m_lo)) {
            return Some(self.overflow(m_lo));
        }
        match self.o {
            Overflow::Wrap => None,
            Overflow::Sat | Overflow::SatSym => {
                let a = self.overflow(m_lo);
                (a == self.overflow(m_hi)).then_some(a)
            }
            Overflow::SatZero => {
                let above = m_lo > self.max && m_hi > self.max;
                let below = m_lo < self.min && m_hi < self.min;
                (above || below).then_some(0)
            }
        }
    }
}

/// Rounds t = floor + (fraction of class `frac`) under `q`: [`crate::fixed::quantize`]'s
/// `round_parts` on `i128`.
pub(crate) fn round_native(floor: i128, frac: Frac, q: Quantization) -> i128 {
    use Quantization::*;
    let negative = floor < 0;
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
            RndConv => floor & 1 == 1,
            RndConvOdd => floor & 1 == 0,
        },
    };
    floor + up as i128
}

/// Quantizes the finite double `v` (an exact value of t) under `q`, clamped to ±FAR.
pub(crate) fn quantize_f64(v: f64, q: Quantization) -> i128 {
    const LIMIT: f64 = FAR as f64;
    /// 2^62: below it the truncation to i64 is exact and one instruction.
    const SMALL: f64 = 4_611_686_018_427_387_904.0;
    if v.abs() < SMALL {
        let tr = v as i64; // toward zero, exact
        let floor = if (tr as f64) > v { tr - 1 } else { tr };
        let fl = floor as f64; // exact: |floor| < 2^62 and v's integer part is a double
        let frac = if v == fl {
            Frac::Zero
        } else {
            // v is not an integer, so |v| < 2^52 and fl + 0.5 is exact.
            let half = fl + 0.5;
            if v < half {
                Frac::BelowHalf
            } else if v == half {
                Frac::Half
            } else {
                Frac::AboveHalf
            }
        };
        return round_native(floor as i128, frac, q);
    }
    if v >= LIMIT {
        return FAR;
    }
    if v <= -LIMIT {
        return -FAR;
    }
    // 2^62 ≤ |v| < 2^100: an integer.
    v as i128
}

#[cfg(test)]
mod tests {
    use super::super::super::FixedFormat;
    use super::super::super::quantize::{apply_overflow, quantize_rational, round_parts};
    use super::*;
    use num_bigint::BigInt;

    /// The native rounding and overflow agree with the big-integer ones on every mode, for
    /// values around zero, ties, and the range ends of small formats.
    #[test]
    fn native_rules_agree_with_the_big_integer_rules() {
        for q in Quantization::ALL {
            for floor in -9i128..9 {
                for frac in [Frac::Zero, Frac::BelowHalf, Frac::Half, Frac::AboveHalf] {
                    let big = round_parts(BigInt::from(floor), frac, q);
                    assert_eq!(BigInt::from(round_native(floor, frac, q)), big);
                }
            }
            // quantize_f64 against exact rationals: v = k/8, and near 2^62 and 2^100
            for k in (-80i64..80).chain([1 << 62, -(1 << 62), 3 << 61, (1 << 55) + 8]) {
                let want = quantize_rational(&BigInt::from(k), &BigInt::from(8), q);
                assert_eq!(
                    Some(BigInt::from(quantize_f64(k as f64 / 8.0, q))),
                    want,
                    "{k}/8 {q:?}"
                );
            }
            assert_eq!(quantize_f64(2f64.powi(99), q), 1i128 << 99);
            assert_eq!(quantize_f64(-(2f64.powi(100)), q), -FAR);
        }
        for o in Overflow::ALL {
            for (w, s) in [(1u32, true), (1, false), (3, true), (4, false), (64, true)] {
                let t = NativeTarget::new(w, 0, s, Quantization::Trn, o).unwrap();
                let fmt = FixedFormat::new(w, 0, s).unwrap();
                let edges = [t.min, t.max, 0];
                for e in edges {
                    for d in -3i128..=3 {
                        let m = e + d;
                        let want = apply_overflow(&BigInt::from(m), &fmt, o);
                        assert_eq!(BigInt::from(t.overflow(m)), want, "{m} <{w},{s}> {o:?}");
                    }
                }
                for m in [FAR, -FAR] {
                    if o != Overflow::Wrap {
                        let want = apply_overflow(&BigInt::from(m), &fmt, o);
                        assert_eq!(BigInt::from(t.overflow(m)), want);
                    }
                }
            }
        }
    }
}
