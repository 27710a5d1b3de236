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
        self.encode(&Format::F64.decode(x.to_bits()), mode, saturate)
    }
}

/// Converts the pattern `bits` of format `from` to format `to` under `mode`, saturating
/// out-of-range values and infinities to ±max finite when `saturate` is set.
pub fn convert(from: Format, bits: u64, to: Format, mode: RoundingMode, saturate: bool) -> u64 {
    to.encode(&from.decode(bits), mode, saturate)
}
