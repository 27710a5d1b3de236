//! Conversions between formats, and encoding of decoded values (including infinities and NaNs).
//!
//! Rules:
//! - Finite values are rounded exactly once ([`Format::round_u128`]), so every conversion is
//!   correctly rounded; widening conversions are exact.
//! - Infinity: to a format with infinities, the same infinity; with saturation, ±max finite;
//!   to E4M3 without saturation, NaN with the sign of the infinity (SPV_EXT_float8: "infinity
//!   ... become[s] NaN" for E4M3).
//! - NaN stays NaN (also under saturation). The result keeps the sign bit and the most
//!   significant payload bits that fit, and is quiet (top fraction bit set) — IEEE 754-2019
//!   §6.2.3's recommendation and what x86 F16C/SSE and the `half` crate do. E4M3 has one NaN
//!   per sign: S.1111.111.

use super::format::Format;
use super::round::RoundingMode;
use super::value::Decoded;
use crate::float::Specials;

impl Format {
    /// The NaN of this format for a NaN with the given sign and left-aligned payload (see the
    /// module comment).
    pub const fn nan_with_payload(&self, negative: bool, payload: u64) -> u64 {
        match self.specials() {
            Specials::FiniteNanAllOnes => self.quiet_nan(negative),
            Specials::Ieee => {
                let mb = self.mantissa_bits();
                let quiet = 1u64 << (mb - 1);
                let frac = (payload >> (64 - mb)) | quiet;
                self.from_fields(negative, (1u64 << self.exponent_bits()) - 1, frac)
            }
        }
    }

    /// Encodes a decoded value into this format: finite values are rounded under `mode`
    /// (and clamped to ±max finite when `saturate`); infinities and NaNs follow the module rules.
    pub fn encode(&self, value: &Decoded, mode: RoundingMode, saturate: bool) -> u64 {
        match *value {
            Decoded::Finite(d) => self.round_u128(
                d.negative,
                d.mantissa as u128,
                d.exponent as i64,
                mode,
                saturate,
            ),
            Decoded::Infinite { negative } => {
                if saturate {
                    self.max_finite(negative)
                } else {
                    match self.infinity(negative) {
                        Some(inf) => inf,
                        None => self.quiet_nan(negative),
                    }
                }
            }
            Decoded::Nan { negative, payload } => self.nan_with_payload(negative, payload),
        }
    }

    /// Rounds an f64 to this format (exact decoding of the f64, then one rounding).
    pub fn from_f64(&self, x: f64, mode: RoundingMode, saturate: bool) -> u64 {
        if mode == RoundingMode::NearestEven && !saturate && x.is_finite() && self.f64_fast() {
            return self.finite_f64_nearest_even(x);
        }
        self.encode(&Format::F64.decode(x.to_bits()), mode, saturate)
    }

    /// Whether [`finite_f64_nearest_even`](Self::finite_f64_nearest_even) serves this format:
    /// IEEE specials, no padding, and a narrower exponent and fraction than f64's (f16, bf16,
    /// f32, E5M2), so that each of its normal values is a normal f64.
    fn f64_fast(&self) -> bool {
        self.specials() == Specials::Ieee
            && self.padding_bits() == 0
            && self.exponent_bits() < 11
            && self.mantissa_bits() < 52
    }

    /// A finite f64 rounded to nearest, ties to even, without saturation: the same bits as the
    /// exact path (`encode`), in a few integer operations (input data of millions of values
    /// is made through here). `|x|` at or above the smallest normal of the format: its f64
    /// significand cut to the format's fraction, rounded up when the cut-off bits are above
    /// half, or exactly half with an odd last kept bit; a carry out of the fraction moves into
    /// the exponent field, and out of the largest exponent into the infinity pattern, which is
    /// the rounding's overflow. Below it: `|x|` scaled exactly by a power of two into units of
    /// the smallest subnormal and rounded to an integer by f64's own ties-to-even rounding
    /// (exact: the value is below 2^mantissa_bits); that integer is the pattern (the one past
    /// the largest subnormal is the smallest normal's).
    fn finite_f64_nearest_even(&self, x: f64) -> u64 {
        let (m_bits, e_bits) = (self.mantissa_bits(), self.exponent_bits());
        let bits = x.to_bits();
        let sign = (bits >> 63) << (e_bits + m_bits);
        let magnitude = bits & !(1 << 63);
        let exponent = (magnitude >> 52) as i32 - 1023;
        let field = exponent + self.bias();
        let all_ones = (1i32 << e_bits) - 1;
        if field >= all_ones {
            return sign | (all_ones as u64) << m_bits;
        }
        if field >= 1 {
            let significand = (magnitude & ((1 << 52) - 1)) | 1 << 52;
            let cut = 52 - m_bits;
            let kept = significand >> cut;
            let rest = significand & ((1 << cut) - 1);
            let half = 1 << (cut - 1);
            let up = rest > half || (rest == half && kept & 1 == 1);
            let pattern = ((field as u64) << m_bits | (kept & ((1 << m_bits) - 1))) + up as u64;
            return sign | pattern;
        }
        let units = self.bias() - 1 + m_bits as i32;
        let scale = f64::from_bits(((1023 + units) as u64) << 52);
        let n = (f64::from_bits(magnitude) * scale).round_ties_even() as u64;
        sign | n
    }
}

/// Converts the pattern `bits` of format `from` to format `to` under `mode`, saturating
/// out-of-range values and infinities to ±max finite when `saturate` is set.
pub fn convert(from: Format, bits: u64, to: Format, mode: RoundingMode, saturate: bool) -> u64 {
    to.encode(&from.decode(bits), mode, saturate)
}
