//! Classification of bit patterns: zero, subnormal, normal, infinite, NaN.

use super::format::{Format, Specials};

/// The class of a floating-point bit pattern (the sign is separate: [`Format::is_negative`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FloatClass {
    /// ±0.
    Zero,
    /// Nonzero with biased exponent 0.
    Subnormal,
    /// Finite with the implicit leading 1.
    Normal,
    /// ±infinity (never for E4M3).
    Infinite,
    /// Not a number.
    Nan,
}

impl Format {
    /// Classifies a storage pattern. Bits above the storage width and tf32 padding are ignored.
    pub const fn classify(&self, bits: u64) -> FloatClass {
        let (_, exp, frac) = self.fields(bits);
        let all_exp = (1u64 << self.exponent_bits()) - 1;
        let all_frac = (1u64 << self.mantissa_bits()) - 1;
        if exp == 0 {
            return if frac == 0 {
                FloatClass::Zero
            } else {
                FloatClass::Subnormal
            };
        }
        if exp == all_exp {
            match self.specials() {
                Specials::Ieee => {
                    return if frac == 0 {
                        FloatClass::Infinite
                    } else {
                        FloatClass::Nan
                    };
                }
                Specials::FiniteNanAllOnes => {
                    if frac == all_frac {
                        return FloatClass::Nan;
                    }
                }
            }
        }
        FloatClass::Normal
    }

    /// Whether the pattern is a NaN.
    pub const fn is_nan(&self, bits: u64) -> bool {
        matches!(self.classify(bits), FloatClass::Nan)
    }
    /// Whether the pattern is ±infinity.
    pub const fn is_infinite(&self, bits: u64) -> bool {
        matches!(self.classify(bits), FloatClass::Infinite)
    }
    /// Whether the pattern is finite (zero, subnormal or normal).
    pub const fn is_finite(&self, bits: u64) -> bool {
        matches!(
            self.classify(bits),
            FloatClass::Zero | FloatClass::Subnormal | FloatClass::Normal
        )
    }
    /// Whether the pattern is ±0.
    pub const fn is_zero(&self, bits: u64) -> bool {
        matches!(self.classify(bits), FloatClass::Zero)
    }
    /// Whether the pattern is a subnormal (nonzero, biased exponent 0).
    pub const fn is_subnormal(&self, bits: u64) -> bool {
        matches!(self.classify(bits), FloatClass::Subnormal)
    }
    /// Whether the IEEE quiet bit (top fraction bit) of a NaN is set; E4M3's only NaN counts
    /// as quiet. Returns false for non-NaN patterns.
    pub const fn is_quiet_nan(&self, bits: u64) -> bool {
        if !self.is_nan(bits) {
            return false;
        }
        let (_, _, frac) = self.fields(bits);
        frac >> (self.mantissa_bits() - 1) & 1 == 1
    }
}
