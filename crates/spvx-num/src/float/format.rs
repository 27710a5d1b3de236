//! The [`Format`] description: field widths, bias, special-value rules, and bit-field access.

use super::error::FloatError;
use std::fmt;
use std::str::FromStr;

/// How a format encodes infinities and NaNs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Specials {
    /// IEEE 754: exponent field all ones with fraction 0 is ±infinity, any other fraction is NaN.
    Ieee,
    /// OCP "FN" (finite + NaN, used by fp8 E4M3): no infinities; only the pattern with exponent
    /// and fraction all ones (S.1111.111) is NaN; the rest of the all-ones exponent holds normal
    /// numbers.
    FiniteNanAllOnes,
}

/// A binary floating-point format: 1 sign bit, `exponent_bits`, `mantissa_bits` fraction bits,
/// stored in `storage_bits` bits with `padding_bits` zero bits below the fraction (tf32: 13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Format {
    name: &'static str,
    exponent_bits: u32,
    mantissa_bits: u32,
    bias: i32,
    specials: Specials,
    storage_bits: u32,
    padding_bits: u32,
}

impl Format {
    /// IEEE 754 binary16.
    pub const F16: Format = Format::ieee("f16", 5, 10, 16, 0);
    /// bfloat16 (SPV_KHR_bfloat16): the high half of binary32.
    pub const BF16: Format = Format::ieee("bf16", 8, 7, 16, 0);
    /// OCP fp8 E4M3 (SPV_EXT_float8 Float8E4M3EXT, "E4M3FN"): bias 7, no infinities, NaN is
    /// S.1111.111, max finite 448.
    pub const E4M3: Format = Format {
        name: "e4m3",
        exponent_bits: 4,
        mantissa_bits: 3,
        bias: 7,
        specials: Specials::FiniteNanAllOnes,
        storage_bits: 8,
        padding_bits: 0,
    };
    /// OCP fp8 E5M2 (SPV_EXT_float8 Float8E5M2EXT): binary16 with 2 fraction bits.
    pub const E5M2: Format = Format::ieee("e5m2", 5, 2, 8, 0);
    /// TensorFloat-32: 1-8-10 in the high 19 bits of a 32-bit word; the low 13 bits are zero.
    pub const TF32: Format = Format::ieee("tf32", 8, 10, 32, 13);
    /// IEEE 754 binary32.
    pub const F32: Format = Format::ieee("f32", 8, 23, 32, 0);
    /// IEEE 754 binary64.
    pub const F64: Format = Format::ieee("f64", 11, 52, 64, 0);

    /// All formats known by name, narrowest first.
    pub const ALL: [Format; 7] = [
        Format::E4M3,
        Format::E5M2,
        Format::F16,
        Format::BF16,
        Format::TF32,
        Format::F32,
        Format::F64,
    ];

    const fn ieee(name: &'static str, e: u32, m: u32, storage: u32, pad: u32) -> Format {
        Format {
            name,
            exponent_bits: e,
            mantissa_bits: m,
            bias: (1 << (e - 1)) - 1,
            specials: Specials::Ieee,
            storage_bits: storage,
            padding_bits: pad,
        }
    }

    /// Short name: `f16`, `bf16`, `e4m3`, `e5m2`, `tf32`, `f32`, `f64`.
    pub const fn name(&self) -> &'static str {
        self.name
    }
    /// Width of the exponent field.
    pub const fn exponent_bits(&self) -> u32 {
        self.exponent_bits
    }
    /// Width of the (explicit) fraction field.
    pub const fn mantissa_bits(&self) -> u32 {
        self.mantissa_bits
    }
    /// Precision in bits, counting the implicit leading bit.
    pub const fn precision(&self) -> u32 {
        self.mantissa_bits + 1
    }
    /// Exponent bias.
    pub const fn bias(&self) -> i32 {
        self.bias
    }
    /// Infinity/NaN encoding rule.
    pub const fn specials(&self) -> Specials {
        self.specials
    }
    /// Whether the format has infinities.
    pub const fn has_infinity(&self) -> bool {
        matches!(self.specials, Specials::Ieee)
    }
    /// Width of the bit pattern in storage (8, 16, 32 or 64).
    pub const fn storage_bits(&self) -> u32 {
        self.storage_bits
    }
    /// Number of always-zero bits below the fraction in storage (13 for tf32, else 0).
    pub const fn padding_bits(&self) -> u32 {
        self.padding_bits
    }
    /// Unbiased exponent of the smallest normal number (1 − bias).
    pub const fn min_normal_exponent(&self) -> i32 {
        1 - self.bias
    }
    /// Unbiased exponent of the largest finite number.
    pub const fn max_exponent(&self) -> i32 {
        self.max_biased_exponent() as i32 - self.bias
    }
    /// Largest biased exponent field value of a finite number.
    pub(crate) const fn max_biased_exponent(&self) -> u64 {
        let all_ones = (1u64 << self.exponent_bits) - 1;
        match self.specials {
            Specials::Ieee => all_ones - 1,
            Specials::FiniteNanAllOnes => all_ones,
        }
    }
    /// Largest fraction field allowed with the largest finite biased exponent.
    pub(crate) const fn max_fraction_at_top(&self) -> u64 {
        let all_ones = (1u64 << self.mantissa_bits) - 1;
        match self.specials {
            Specials::Ieee => all_ones,
            Specials::FiniteNanAllOnes => all_ones - 1,
        }
    }
    /// Mask of all storage bits.
    pub const fn storage_mask(&self) -> u64 {
        if self.storage_bits == 64 {
            u64::MAX
        } else {
            (1u64 << self.storage_bits) - 1
        }
    }
    /// The sign bit in storage.
    pub const fn sign_mask(&self) -> u64 {
        1u64 << (self.storage_bits - 1)
    }

    /// Checks that `bits` has no bits set above the storage width. (Padding bits of tf32 are
    /// allowed; they are ignored on decoding.)
    pub fn check_bits(&self, bits: u64) -> Result<u64, FloatError> {
        if bits & !self.storage_mask() != 0 {
            return Err(FloatError::BitsOutOfRange {
                format: self.name,
                bits_width: self.storage_bits,
                bits,
            });
        }
        Ok(bits)
    }

    /// Splits a storage pattern into (sign, biased exponent field, fraction field). Bits above the
    /// storage width and tf32 padding bits are ignored.
    pub const fn fields(&self, bits: u64) -> (bool, u64, u64) {
        let b = (bits & self.storage_mask()) >> self.padding_bits;
        let frac = b & ((1u64 << self.mantissa_bits) - 1);
        let exp = (b >> self.mantissa_bits) & ((1u64 << self.exponent_bits) - 1);
        let sign = (b >> (self.mantissa_bits + self.exponent_bits)) & 1 == 1;
        (sign, exp, frac)
    }

    /// Builds a storage pattern from (sign, biased exponent field, fraction field); excess bits of
    /// the fields are masked off.
    pub const fn from_fields(&self, negative: bool, exponent: u64, fraction: u64) -> u64 {
        let frac = fraction & ((1u64 << self.mantissa_bits) - 1);
        let exp = exponent & ((1u64 << self.exponent_bits) - 1);
        let sign = negative as u64;
        ((sign << (self.exponent_bits + self.mantissa_bits)) | (exp << self.mantissa_bits) | frac)
            << self.padding_bits
    }

    /// Whether the sign bit is set (also for zeros and NaNs).
    pub const fn is_negative(&self, bits: u64) -> bool {
        self.fields(bits).0
    }

    /// ±0.
    pub const fn zero(&self, negative: bool) -> u64 {
        self.from_fields(negative, 0, 0)
    }
    /// ±largest finite value (f16 65504, bf16 ≈3.39e38, e4m3 448, e5m2 57344).
    pub const fn max_finite(&self, negative: bool) -> u64 {
        self.from_fields(
            negative,
            self.max_biased_exponent(),
            self.max_fraction_at_top(),
        )
    }
    /// ±smallest positive normal value (2^(1−bias)).
    pub const fn min_normal(&self, negative: bool) -> u64 {
        self.from_fields(negative, 1, 0)
    }
    /// ±smallest positive subnormal value.
    pub const fn min_subnormal(&self, negative: bool) -> u64 {
        self.from_fields(negative, 0, 1)
    }
    /// ±infinity, or `None` for formats without infinities (E4M3).
    pub const fn infinity(&self, negative: bool) -> Option<u64> {
        match self.specials {
            Specials::Ieee => Some(self.from_fields(negative, (1u64 << self.exponent_bits) - 1, 0)),
            Specials::FiniteNanAllOnes => None,
        }
    }
    /// The quiet NaN with the given sign and no payload: exponent all ones and only the top
    /// fraction bit set (f32 0x7fc00000, f16 0x7e00, bf16 0x7fc0, e5m2 0x7e); for E4M3 the
    /// only NaN, S.1111.111 (0x7f / 0xff).
    pub const fn quiet_nan(&self, negative: bool) -> u64 {
        let all_exp = (1u64 << self.exponent_bits) - 1;
        match self.specials {
            Specials::Ieee => self.from_fields(negative, all_exp, 1u64 << (self.mantissa_bits - 1)),
            Specials::FiniteNanAllOnes => {
                self.from_fields(negative, all_exp, (1u64 << self.mantissa_bits) - 1)
            }
        }
    }
    /// The canonical NaN spvx produces where an operation creates a NaN: [`Format::quiet_nan`]
    /// with the sign bit clear.
    pub const fn canonical_nan(&self) -> u64 {
        self.quiet_nan(false)
    }

    /// Number of hex digits needed to print a storage pattern (2, 4, 8 or 16).
    pub const fn hex_digits(&self) -> usize {
        (self.storage_bits / 4) as usize
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

impl FromStr for Format {
    type Err = FloatError;
    /// Accepts the short names (`f16`, `bf16`, `e4m3`, `e5m2`, `tf32`, `f32`, `f64`) and a few
    /// aliases (`fp16`, `half`, `fp8e4m3`, `e4m3fn`, `hf8`, `fp8e5m2`, `bf8`, `fp32`, `float`,
    /// `fp64`, `double`), case-insensitively.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let f = match s.to_ascii_lowercase().as_str() {
            "f16" | "fp16" | "half" | "float16" => Format::F16,
            "bf16" | "bfloat16" => Format::BF16,
            "e4m3" | "e4m3fn" | "fp8e4m3" | "hf8" | "float8e4m3" => Format::E4M3,
            "e5m2" | "fp8e5m2" | "bf8" | "float8e5m2" => Format::E5M2,
            "tf32" => Format::TF32,
            "f32" | "fp32" | "float" | "float32" => Format::F32,
            "f64" | "fp64" | "double" | "float64" => Format::F64,
            _ => return Err(FloatError::UnknownFormat(s.to_string())),
        };
        Ok(f)
    }
}
