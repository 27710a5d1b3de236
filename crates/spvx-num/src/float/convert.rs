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
        self.f64_rounder(mode, saturate).round(x)
    }

    /// [`from_f64`](Self::from_f64) for many values: the rounding's constants for this format
    /// and mode worked out once (input data of millions of values is made through here).
    pub fn f64_rounder(&self, mode: RoundingMode, saturate: bool) -> F64Rounder {
        let fast = (mode == RoundingMode::NearestEven
            && !saturate
            && self.specials() == Specials::Ieee
            && self.padding_bits() == 0
            && self.exponent_bits() < 11
            && self.mantissa_bits() < 52)
            .then(|| NearestEven::new(self));
        F64Rounder {
            format: *self,
            mode,
            saturate,
            fast,
        }
    }
}

/// Rounds f64 values to one format under one mode ([`Format::f64_rounder`]).
#[derive(Clone, Copy, Debug)]
pub struct F64Rounder {
    format: Format,
    mode: RoundingMode,
    saturate: bool,
    /// For round to nearest even without saturation to an IEEE format narrower than f64 in
    /// both fields (f16, bf16, f32, E5M2), so that each of its normal values is a normal f64.
    fast: Option<NearestEven>,
}

impl F64Rounder {
    /// The bits of `x` rounded: the exact path (`Format::encode` of the decoded f64), or for a
    /// finite `x` the same bits by [`NearestEven`].
    #[inline]
    pub fn round(&self, x: f64) -> u64 {
        match &self.fast {
            Some(f) if x.is_finite() => f.round(x),
            _ => self
                .format
                .encode(&Format::F64.decode(x.to_bits()), self.mode, self.saturate),
        }
    }
}

/// A finite f64 rounded to nearest, ties to even, without saturation: the same bits as the
/// exact path (`encode`), in a few integer operations. `|x|` at or above the smallest normal
/// of the format: its f64 significand cut to the format's fraction, rounded up when the
/// cut-off bits are above half, or exactly half with an odd last kept bit; a carry out of the
/// fraction moves into the exponent field, and out of the largest exponent into the infinity
/// pattern, which is the rounding's overflow. Below it: `|x|` scaled exactly by a power of two
/// into units of the smallest subnormal and rounded to an integer by f64's own ties-to-even
/// rounding (exact: the value is below 2^mantissa_bits); that integer is the pattern (the one
/// past the largest subnormal is the smallest normal's).
#[derive(Clone, Copy, Debug)]
struct NearestEven {
    m_bits: u32,
    /// The sign bit's position in the format.
    sign_at: u32,
    bias: i32,
    /// The all-ones exponent field.
    all_ones: i32,
    /// f64 fraction bits cut off, and half of their range.
    cut: u32,
    half: u64,
    /// 2^(bias − 1 + m_bits): the smallest subnormal's reciprocal.
    subnormal_scale: f64,
}

impl NearestEven {
    fn new(f: &Format) -> NearestEven {
        let (m_bits, e_bits) = (f.mantissa_bits(), f.exponent_bits());
        let units = f.bias() - 1 + m_bits as i32;
        NearestEven {
            m_bits,
            sign_at: e_bits + m_bits,
            bias: f.bias(),
            all_ones: (1i32 << e_bits) - 1,
            cut: 52 - m_bits,
            half: 1 << (52 - m_bits - 1),
            subnormal_scale: f64::from_bits(((1023 + units) as u64) << 52),
        }
    }

    #[inline]
    fn round(&self, x: f64) -> u64 {
        let bits = x.to_bits();
        let sign = (bits >> 63) << self.sign_at;
        let magnitude = bits & !(1 << 63);
        let exponent = (magnitude >> 52) as i32 - 1023;
        let field = exponent + self.bias;
        if field >= self.all_ones {
            return sign | (self.all_ones as u64) << self.m_bits;
        }
        if field >= 1 {
            let significand = (magnitude & ((1 << 52) - 1)) | 1 << 52;
            let kept = significand >> self.cut;
            let rest = significand & ((1 << self.cut) - 1);
            let up = rest > self.half || (rest == self.half && kept & 1 == 1);
            let pattern =
                ((field as u64) << self.m_bits | (kept & ((1 << self.m_bits) - 1))) + up as u64;
            return sign | pattern;
        }
        let n = (f64::from_bits(magnitude) * self.subnormal_scale).round_ties_even() as u64;
        sign | n
    }
}

/// Converts the pattern `bits` of format `from` to format `to` under `mode`, saturating
/// out-of-range values and infinities to ±max finite when `saturate` is set.
pub fn convert(from: Format, bits: u64, to: Format, mode: RoundingMode, saturate: bool) -> u64 {
    to.encode(&from.decode(bits), mode, saturate)
}
