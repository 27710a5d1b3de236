//! Exact decoding of bit patterns: finite values become [`Dyadic`] rationals
//! `(−1)^sign · mantissa · 2^exponent`.

use super::class::FloatClass;
use super::format::Format;
use num_bigint::BigUint;
use std::fmt;

/// An exact finite value `(−1)^negative · mantissa · 2^exponent`. Zero keeps its sign.
/// Every finite value of every supported format is a `Dyadic` (mantissa < 2^53).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dyadic {
    /// Sign (true: negative). Meaningful for zero too (−0).
    pub negative: bool,
    /// Integer significand (not normalised).
    pub mantissa: u64,
    /// Power-of-two exponent.
    pub exponent: i32,
}

/// The value a bit pattern stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Decoded {
    /// A finite value (including ±0 and subnormals), exactly.
    Finite(Dyadic),
    /// ±infinity.
    Infinite {
        /// Sign of the infinity.
        negative: bool,
    },
    /// A NaN.
    Nan {
        /// Sign bit of the NaN.
        negative: bool,
        /// The fraction field, left-aligned in 64 bits (its top bit is the IEEE quiet bit).
        payload: u64,
    },
}

impl Dyadic {
    /// Signed zero.
    pub const fn zero(negative: bool) -> Dyadic {
        Dyadic {
            negative,
            mantissa: 0,
            exponent: 0,
        }
    }
    /// Whether the value is ±0.
    pub const fn is_zero(&self) -> bool {
        self.mantissa == 0
    }
    /// The value as an f64. Exact whenever the value is an f64 value, which holds for every
    /// value decoded from a supported format.
    pub fn to_f64(&self) -> f64 {
        let m = self.mantissa as f64; // exact: mantissas of decoded values are < 2^53
        let v = scale_by_power_of_two(m, self.exponent);
        if self.negative { -v } else { v }
    }
    /// The exact value in decimal notation without exponent, e.g. `-0.00006103515625`, `448`,
    /// `-0`. Dyadic rationals always have a finite decimal expansion.
    pub fn to_decimal_string(&self) -> String {
        exact_decimal(
            self.negative,
            &BigUint::from(self.mantissa),
            self.exponent as i64,
        )
    }
}

/// `m · 2^e` computed in f64 in two exact steps (so intermediate overflow/underflow of the power
/// alone does not spoil it).
fn scale_by_power_of_two(m: f64, e: i32) -> f64 {
    let mut v = m;
    let mut e = e;
    while e > 0 {
        let step = e.min(1000);
        v *= f64::powi(2.0, step);
        e -= step;
    }
    while e < 0 {
        let step = (-e).min(1000);
        v *= f64::powi(2.0, -step);
        e += step;
    }
    v
}

/// Exact decimal text of `(−1)^negative · mantissa · 2^exponent` (no exponent notation).
pub fn exact_decimal(negative: bool, mantissa: &BigUint, exponent: i64) -> String {
    let sign = if negative { "-" } else { "" };
    if exponent >= 0 {
        let v = mantissa << (exponent as u64);
        return format!("{sign}{v}");
    }
    // m · 2^−k = m · 5^k / 10^k
    let k = exponent.unsigned_abs();
    let scaled = mantissa * BigUint::from(5u32).pow(k as u32);
    let digits = scaled.to_string();
    let k = k as usize;
    let (int_part, frac_part) = if digits.len() > k {
        let (a, b) = digits.split_at(digits.len() - k);
        (a.to_string(), b.to_string())
    } else {
        (
            "0".to_string(),
            format!("{}{}", "0".repeat(k - digits.len()), digits),
        )
    };
    let frac_part = frac_part.trim_end_matches('0');
    if frac_part.is_empty() {
        format!("{sign}{int_part}")
    } else {
        format!("{sign}{int_part}.{frac_part}")
    }
}

impl fmt::Display for Dyadic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_decimal_string())
    }
}

impl fmt::Display for Decoded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Decoded::Finite(d) => d.fmt(f),
            Decoded::Infinite { negative: true } => f.write_str("-inf"),
            Decoded::Infinite { negative: false } => f.write_str("inf"),
            Decoded::Nan { negative: true, .. } => f.write_str("-nan"),
            Decoded::Nan {
                negative: false, ..
            } => f.write_str("nan"),
        }
    }
}

impl Decoded {
    /// The sign bit.
    pub const fn is_negative(&self) -> bool {
        match self {
            Decoded::Finite(d) => d.negative,
            Decoded::Infinite { negative } | Decoded::Nan { negative, .. } => *negative,
        }
    }
    /// The value as f64 (exact for finite values of supported formats; NaN keeps its sign).
    pub fn to_f64(&self) -> f64 {
        match self {
            Decoded::Finite(d) => d.to_f64(),
            Decoded::Infinite { negative: true } => f64::NEG_INFINITY,
            Decoded::Infinite { negative: false } => f64::INFINITY,
            Decoded::Nan { negative: true, .. } => -f64::NAN,
            Decoded::Nan {
                negative: false, ..
            } => f64::NAN,
        }
    }
}

impl Format {
    /// Decodes a storage pattern exactly. Bits above the storage width and tf32 padding bits are
    /// ignored. Subnormals decode as `fraction · 2^(1 − bias − mantissa_bits)`, normals as
    /// `(2^mantissa_bits + fraction) · 2^(exp − bias − mantissa_bits)`.
    pub const fn decode(&self, bits: u64) -> Decoded {
        let (negative, exp, frac) = self.fields(bits);
        let mb = self.mantissa_bits();
        match self.classify(bits) {
            FloatClass::Nan => Decoded::Nan {
                negative,
                payload: frac << (64 - mb),
            },
            FloatClass::Infinite => Decoded::Infinite { negative },
            FloatClass::Zero => Decoded::Finite(Dyadic::zero(negative)),
            FloatClass::Subnormal => Decoded::Finite(Dyadic {
                negative,
                mantissa: frac,
                exponent: self.min_normal_exponent() - mb as i32,
            }),
            FloatClass::Normal => Decoded::Finite(Dyadic {
                negative,
                mantissa: (1u64 << mb) | frac,
                exponent: exp as i32 - self.bias() - mb as i32,
            }),
        }
    }

    /// Decodes to f64 (exact for every finite value of every supported format).
    pub fn to_f64(&self, bits: u64) -> f64 {
        self.decode(bits).to_f64()
    }
}
