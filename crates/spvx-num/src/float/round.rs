//! Rounding of exact values to a [`Format`] under the four IEEE 754 directions, with optional
//! saturation (SPV_EXT_float8 `SaturatedToLargestFloat8NormalConversionEXT`).
//!
//! Overflow rule (IEEE 754-2019 §7.4): whether a result that is too large becomes infinite or
//! the largest finite value depends on the rounding direction: RNE gives ±inf, RTZ gives ±max,
//! RTP gives +inf / −max, RTN gives +max / −inf. In a format without infinities (E4M3) a result
//! that would be infinite is NaN (SPV_EXT_float8: out-of-range values become NaN for E4M3), with
//! the sign of the value. With saturation every overflow gives ±max finite.

use super::error::FloatError;
use super::format::Format;
use num_bigint::BigUint;
use num_traits::Zero;
use std::fmt;
use std::str::FromStr;

/// The four rounding directions (SPIR-V FPRoundingMode RTE=0, RTZ=1, RTP=2, RTN=3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum RoundingMode {
    /// Round to nearest, ties to even (RTE/RNE).
    #[default]
    NearestEven,
    /// Round toward zero (truncate).
    TowardZero,
    /// Round toward +infinity.
    TowardPositive,
    /// Round toward −infinity.
    TowardNegative,
}

impl RoundingMode {
    /// All four modes.
    pub const ALL: [RoundingMode; 4] = [
        RoundingMode::NearestEven,
        RoundingMode::TowardZero,
        RoundingMode::TowardPositive,
        RoundingMode::TowardNegative,
    ];
    /// Short name: `rne`, `rtz`, `rtp`, `rtn`.
    pub const fn name(&self) -> &'static str {
        match self {
            RoundingMode::NearestEven => "rne",
            RoundingMode::TowardZero => "rtz",
            RoundingMode::TowardPositive => "rtp",
            RoundingMode::TowardNegative => "rtn",
        }
    }
    /// Whether a result that overflows, with the given sign, becomes infinite (true) or the
    /// largest finite value (false), per IEEE 754-2019 §7.4.
    pub const fn overflows_to_infinity(&self, negative: bool) -> bool {
        match self {
            RoundingMode::NearestEven => true,
            RoundingMode::TowardZero => false,
            RoundingMode::TowardPositive => !negative,
            RoundingMode::TowardNegative => negative,
        }
    }
}

impl fmt::Display for RoundingMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for RoundingMode {
    type Err = FloatError;
    /// `rne`/`rte`/`nearest`, `rtz`/`zero`, `rtp`/`up`, `rtn`/`down` (case-insensitive).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s.to_ascii_lowercase().as_str() {
            "rne" | "rte" | "nearest" | "nearest-even" => RoundingMode::NearestEven,
            "rtz" | "zero" | "toward-zero" => RoundingMode::TowardZero,
            "rtp" | "up" | "toward-positive" => RoundingMode::TowardPositive,
            "rtn" | "down" | "toward-negative" => RoundingMode::TowardNegative,
            _ => return Err(FloatError::UnknownRoundingMode(s.to_string())),
        })
    }
}

/// Where the discarded part lies relative to half an ulp of the kept part.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Remainder {
    Zero,
    BelowHalf,
    Half,
    AboveHalf,
}

/// Splits `m` (plus an optional sticky "something nonzero below m's last bit") shifted right by
/// `shift` into the kept integer and the class of the discarded part.
fn shift_right_classify(m: u128, shift: u32, sticky: bool) -> (u128, Remainder) {
    if shift == 0 {
        let r = if sticky {
            Remainder::BelowHalf
        } else {
            Remainder::Zero
        };
        return (m, r);
    }
    if shift > 128 {
        let r = if m != 0 || sticky {
            Remainder::BelowHalf
        } else {
            Remainder::Zero
        };
        return (0, r);
    }
    let (kept, rest, half) = if shift == 128 {
        (0u128, m, 1u128 << 127)
    } else {
        (m >> shift, m & ((1u128 << shift) - 1), 1u128 << (shift - 1))
    };
    let r = if rest == 0 && !sticky {
        Remainder::Zero
    } else if rest < half {
        Remainder::BelowHalf
    } else if rest == half {
        if sticky {
            Remainder::AboveHalf
        } else {
            Remainder::Half
        }
    } else {
        Remainder::AboveHalf
    };
    (kept, r)
}

fn round_up(mode: RoundingMode, negative: bool, kept_is_odd: bool, r: Remainder) -> bool {
    match (mode, r) {
        (_, Remainder::Zero) => false,
        (RoundingMode::NearestEven, Remainder::AboveHalf) => true,
        (RoundingMode::NearestEven, Remainder::Half) => kept_is_odd,
        (RoundingMode::NearestEven, Remainder::BelowHalf) => false,
        (RoundingMode::TowardZero, _) => false,
        (RoundingMode::TowardPositive, _) => !negative,
        (RoundingMode::TowardNegative, _) => negative,
    }
}

impl Format {
    /// The storage pattern for a result that overflowed (see the module comment).
    pub const fn overflow_result(&self, negative: bool, mode: RoundingMode, saturate: bool) -> u64 {
        if saturate || !mode.overflows_to_infinity(negative) {
            return self.max_finite(negative);
        }
        match self.infinity(negative) {
            Some(inf) => inf,
            None => self.quiet_nan(negative),
        }
    }

    /// Rounds `(−1)^negative · (mantissa + δ) · 2^exponent` to this format, where δ ∈ [0, 1) is
    /// nonzero exactly when `sticky` is set (a marker for discarded nonzero low bits). A zero
    /// value gives a zero of the given sign; a nonzero value that rounds to zero keeps its sign.
    /// A zero mantissa with `sticky` set stands for a tiny nonzero value below every subnormal.
    pub fn round_u128_sticky(
        &self,
        negative: bool,
        mantissa: u128,
        exponent: i64,
        sticky: bool,
        mode: RoundingMode,
        saturate: bool,
    ) -> u64 {
        let mb = self.mantissa_bits() as i64;
        let q_min = self.min_normal_exponent() as i64 - mb;
        // Far outside every format's range: settle without risking exponent overflow. A zero
        // mantissa with `sticky` is taken as a tiny nonzero value (below every subnormal).
        const LIMIT: i64 = 1 << 40;
        if mantissa == 0 {
            if !sticky {
                return self.zero(negative);
            }
            if exponent != -LIMIT {
                return self.round_u128_sticky(negative, 0, -LIMIT, true, mode, saturate);
            }
        } else if exponent > LIMIT {
            return self.overflow_result(negative, mode, saturate);
        } else if exponent < -LIMIT {
            return self.round_u128_sticky(negative, 0, -LIMIT, true, mode, saturate);
        }
        let lead = if mantissa == 0 {
            exponent - 1
        } else {
            exponent + (127 - mantissa.leading_zeros() as i64)
        };
        let mut q = (lead - mb).max(q_min);
        let (mut kept, rem) = if q <= exponent {
            // Exact: shift left. The kept value has at most mb+1 bits so this cannot overflow.
            let up = (exponent - q) as u32;
            let r = if sticky {
                Remainder::BelowHalf
            } else {
                Remainder::Zero
            };
            (mantissa << up.min(127), r)
        } else {
            let shift = (q - exponent).min(u32::MAX as i64) as u32;
            shift_right_classify(mantissa, shift, sticky)
        };
        if round_up(mode, negative, kept & 1 == 1, rem) {
            kept += 1;
            if kept == 1u128 << (mb + 1) {
                kept >>= 1;
                q += 1;
            }
        }
        if kept == 0 {
            return self.zero(negative);
        }
        if kept < 1u128 << mb {
            // Subnormal: q == q_min.
            return self.from_fields(negative, 0, kept as u64);
        }
        let biased = q + mb + self.bias() as i64;
        let frac = (kept - (1u128 << mb)) as u64;
        let max_biased = self.max_biased_exponent() as i64;
        if biased > max_biased || (biased == max_biased && frac > self.max_fraction_at_top()) {
            return self.overflow_result(negative, mode, saturate);
        }
        self.from_fields(negative, biased as u64, frac)
    }

    /// Rounds `(−1)^negative · mantissa · 2^exponent` (exact) to this format.
    pub fn round_u128(
        &self,
        negative: bool,
        mantissa: u128,
        exponent: i64,
        mode: RoundingMode,
        saturate: bool,
    ) -> u64 {
        self.round_u128_sticky(negative, mantissa, exponent, false, mode, saturate)
    }

    /// Rounds `(−1)^negative · (mantissa + δ) · 2^exponent` with an arbitrary-precision mantissa;
    /// δ ∈ [0, 1) is nonzero exactly when `sticky` is set.
    pub fn round_biguint_sticky(
        &self,
        negative: bool,
        mantissa: &BigUint,
        exponent: i64,
        sticky: bool,
        mode: RoundingMode,
        saturate: bool,
    ) -> u64 {
        let bits = mantissa.bits();
        if bits <= 120 {
            let m = u128::try_from(mantissa).unwrap_or(0);
            return self.round_u128_sticky(negative, m, exponent, sticky, mode, saturate);
        }
        // Keep the top 120 bits (far more than the 53 + 2 any format needs); fold the rest into
        // the sticky bit.
        let drop = bits - 120;
        let dropped_nonzero = mantissa.trailing_zeros().is_some_and(|tz| tz < drop);
        let top = mantissa >> drop;
        let m = u128::try_from(&top).unwrap_or(0);
        self.round_u128_sticky(
            negative,
            m,
            exponent.saturating_add(drop as i64),
            sticky || dropped_nonzero,
            mode,
            saturate,
        )
    }

    /// Rounds `(−1)^negative · mantissa · 2^exponent` (exact, any size) to this format.
    pub fn round_biguint(
        &self,
        negative: bool,
        mantissa: &BigUint,
        exponent: i64,
        mode: RoundingMode,
        saturate: bool,
    ) -> u64 {
        self.round_biguint_sticky(negative, mantissa, exponent, false, mode, saturate)
    }

    /// Rounds the exact rational `(−1)^negative · numerator / denominator` to this format.
    pub fn round_ratio(
        &self,
        negative: bool,
        numerator: &BigUint,
        denominator: &BigUint,
        mode: RoundingMode,
        saturate: bool,
    ) -> Result<u64, FloatError> {
        if denominator.is_zero() {
            return Err(FloatError::ZeroDenominator);
        }
        if numerator.is_zero() {
            return Ok(self.zero(negative));
        }
        // Scale by 2^k so that the integer quotient has at least 121 bits.
        let k = 122 + denominator.bits() as i64 - numerator.bits() as i64;
        let (n, d) = if k >= 0 {
            (numerator << (k as u64), denominator.clone())
        } else {
            (numerator.clone(), denominator << ((-k) as u64))
        };
        let quotient = &n / &d;
        let sticky = !(&n % &d).is_zero();
        Ok(self.round_biguint_sticky(negative, &quotient, -k, sticky, mode, saturate))
    }
}
