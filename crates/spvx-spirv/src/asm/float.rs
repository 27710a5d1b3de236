//! Floating-point literals, encoded exactly as spirv-as (SPIRV-Tools 2025.5) encodes them.
//!
//! Two spellings, observed from the tool and from its `util/hex_float.h`:
//!
//! - **Hex floats** `[-]0x<hex>[.<hex>]p[+|-]<decimal>` (`0X` allowed, `P` not; `+` before
//!   `0x` not): the exact value is *truncated toward zero* into the target format. If the
//!   biased exponent exceeds the all-ones field, the result is the all-ones exponent with a zero
//!   fraction (infinity for IEEE formats; 256.0 for E4M3, which has no infinity), with no
//!   error. An all-ones exponent with a non-zero fraction gives that NaN pattern.
//! - **Decimal** `[+|-]digits[.digits][(e|E)[+|-]digits]`: 64-bit types round the decimal to
//!   nearest-even `f64`; every other format first rounds to nearest-even `f32`, and then
//!   (for 16-bit, bfloat16 and the two fp8 formats) truncates that `f32` toward zero. Errors:
//!   the `f32`/`f64` rounding overflows; for IEEE half and E5M2, |v| ≥ 2^16 after the `f32`
//!   step; for E4M3, |v| > 448, and 256 ≤ |v| ≤ 448 gives ±448 (0x7e/0xfe: spirv-as's cast
//!   turns the exponent overflow into the format's largest value). Underflow is not an error
//!   (the value becomes a subnormal or ±0).
//!
//! Known divergence: for the two fp8 formats, spirv-as 2025.5 mis-converts decimal literals
//! whose `f32` value is below 2^-127 (an 8-bit exponent overflow in its cast; e.g. `1e-40` gives
//! E4M3 0x10). spvx gives the truncated value there (±0).
//!
//! `inf`, `nan` and C suffixes (`1.0f`) are not accepted.

/// A binary floating-point format: exponent and fraction widths, and its decimal range rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FloatFormat {
    pub exponent_bits: u32,
    pub fraction_bits: u32,
    /// How a decimal literal that does not fit is detected.
    pub decimal_limit: DecimalLimit,
    /// The name used in messages.
    pub name: &'static str,
}

/// The decimal range rule of a format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecimalLimit {
    /// `f32` and `f64`: only overflow of the correctly rounded value.
    Native,
    /// After rounding to `f32`, an unbiased exponent above the format's bias is an error.
    ExponentAboveBias,
    /// After rounding to `f32`, a magnitude above this value is an error.
    MaxMagnitude(u32),
}

pub const F16: FloatFormat = FloatFormat {
    exponent_bits: 5,
    fraction_bits: 10,
    decimal_limit: DecimalLimit::ExponentAboveBias,
    name: "16-bit float",
};
pub const BF16: FloatFormat = FloatFormat {
    exponent_bits: 8,
    fraction_bits: 7,
    decimal_limit: DecimalLimit::ExponentAboveBias,
    name: "bfloat16",
};
pub const E4M3: FloatFormat = FloatFormat {
    exponent_bits: 4,
    fraction_bits: 3,
    decimal_limit: DecimalLimit::MaxMagnitude(448),
    name: "E4M3 float",
};
pub const E5M2: FloatFormat = FloatFormat {
    exponent_bits: 5,
    fraction_bits: 2,
    decimal_limit: DecimalLimit::ExponentAboveBias,
    name: "E5M2 float",
};
pub const F32: FloatFormat = FloatFormat {
    exponent_bits: 8,
    fraction_bits: 23,
    decimal_limit: DecimalLimit::Native,
    name: "32-bit float",
};
pub const F64: FloatFormat = FloatFormat {
    exponent_bits: 11,
    fraction_bits: 52,
    decimal_limit: DecimalLimit::Native,
    name: "64-bit float",
};

/// `FPEncoding` values of SPV_KHR_bfloat16 and SPV_EXT_float8.
const BFLOAT16_KHR: u32 = 0;
const FLOAT8_E4M3_EXT: u32 = 4214;
const FLOAT8_E5M2_EXT: u32 = 4215;

/// The format of `OpTypeFloat width [encoding]`, if spvx (and spirv-as) can write its literals.
pub fn format_of(width: u32, encoding: Option<u32>) -> Option<FloatFormat> {
    match (width, encoding) {
        (16, None) => Some(F16),
        (32, None) => Some(F32),
        (64, None) => Some(F64),
        (16, Some(BFLOAT16_KHR)) => Some(BF16),
        (8, Some(FLOAT8_E4M3_EXT)) => Some(E4M3),
        (8, Some(FLOAT8_E5M2_EXT)) => Some(E5M2),
        _ => None,
    }
}

/// Why a float literal was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatError {
    Syntax,
    OutOfRange,
}

impl FloatFormat {
    fn total_bits(&self) -> u32 {
        1 + self.exponent_bits + self.fraction_bits
    }

    fn bias(&self) -> i64 {
        (1i64 << (self.exponent_bits - 1)) - 1
    }

    /// The literal's words (two for 64-bit formats, low word first; one otherwise).
    pub fn encode(&self, text: &str) -> Result<Vec<u32>, FloatError> {
        let bits = self.encode_bits(text)?;
        Ok(if self.total_bits() > 32 {
            vec![bits as u32, (bits >> 32) as u32]
        } else {
            vec![bits as u32]
        })
    }

    /// The literal's bit pattern.
    pub fn encode_bits(&self, text: &str) -> Result<u64, FloatError> {
        let (negative, body) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
            return self.hex(negative, hex);
        }
        if negative && body.starts_with(['+', '-']) {
            return Err(FloatError::Syntax);
        }
        if !is_decimal_syntax(text) {
            return Err(FloatError::Syntax);
        }
        if self.decimal_limit == DecimalLimit::Native && self.total_bits() == 64 {
            let v: f64 = text.parse().map_err(|_| FloatError::Syntax)?;
            if v.is_infinite() {
                return Err(FloatError::OutOfRange);
            }
            return Ok(v.to_bits());
        }
        let v: f32 = text.parse().map_err(|_| FloatError::Syntax)?;
        if v.is_infinite() {
            return Err(FloatError::OutOfRange);
        }
        match self.decimal_limit {
            DecimalLimit::Native => return Ok(v.to_bits() as u64),
            DecimalLimit::ExponentAboveBias => {
                if v.abs() >= 2f32.powi(self.bias() as i32 + 1) {
                    return Err(FloatError::OutOfRange);
                }
            }
            DecimalLimit::MaxMagnitude(max) => {
                if v.abs() > max as f32 {
                    return Err(FloatError::OutOfRange);
                }
                // spirv-as's cast sees an exponent above the bias as "infinity", which for a
                // format without infinity becomes the largest finite value.
                if v.abs() >= 2f32.powi(self.bias() as i32 + 1) {
                    let max_bits = (1u64 << (self.exponent_bits + self.fraction_bits)) - 2;
                    return Ok(self.sign_bit(v.is_sign_negative()) | max_bits);
                }
            }
        }
        let bits = v.to_bits();
        let sign = bits >> 31 != 0;
        let exp = ((bits >> 23) & 0xff) as i64;
        let frac = (bits & 0x7f_ffff) as u128;
        if exp == 0 && frac == 0 {
            return Ok(self.sign_bit(sign));
        }
        let (m, e2) = if exp == 0 {
            (frac, -149)
        } else {
            (frac | 1 << 23, exp - 150)
        };
        Ok(self.truncate(sign, m, e2))
    }

    fn sign_bit(&self, negative: bool) -> u64 {
        (negative as u64) << (self.total_bits() - 1)
    }

    /// The hex-float body after `0x`.
    fn hex(&self, negative: bool, body: &str) -> Result<u64, FloatError> {
        let (mantissa, exponent) = body.split_once('p').ok_or(FloatError::Syntax)?;
        let (int_part, frac_part) = match mantissa.split_once('.') {
            Some((i, f)) => (i, f),
            None => (mantissa, ""),
        };
        let hexdigits = |s: &str| s.bytes().all(|c| c.is_ascii_hexdigit());
        if !hexdigits(int_part) || !hexdigits(frac_part) {
            return Err(FloatError::Syntax);
        }
        let exp_digits = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
        if exp_digits.is_empty() || !exp_digits.bytes().all(|c| c.is_ascii_digit()) {
            return Err(FloatError::Syntax);
        }
        // The written exponent, saturated far beyond any format's range.
        const CLAMP: i64 = 1 << 40;
        let mut written: i64 = 0;
        for c in exp_digits.bytes() {
            written = (written * 10 + (c - b'0') as i64).min(CLAMP);
        }
        if exponent.starts_with('-') {
            written = -written;
        }
        let digits = int_part.bytes().chain(frac_part.bytes());
        let all: Vec<u8> = digits
            .map(|c| (c as char).to_digit(16).unwrap_or(0) as u8)
            .collect();
        let Some(first) = all.iter().position(|&d| d != 0) else {
            return Ok(self.sign_bit(negative));
        };
        // Up to 30 significant hex digits (120 bits): truncation never needs more.
        let take = (all.len() - first).min(30);
        let mut m: u128 = 0;
        for &d in &all[first..first + take] {
            m = m << 4 | d as u128;
        }
        let dropped = (all.len() - first - take) as i64;
        let e2 = 4 * (dropped - frac_part.len() as i64) + written;
        Ok(self.truncate(negative, m, e2.clamp(-CLAMP, CLAMP)))
    }

    /// The bits of ±m·2^e2 (m > 0) truncated toward zero; an exponent above the all-ones field
    /// gives the all-ones exponent with a zero fraction.
    fn truncate(&self, negative: bool, m: u128, e2: i64) -> u64 {
        let fb = self.fraction_bits as i64;
        let max_field = (1i64 << self.exponent_bits) - 1;
        let top = 127 - m.leading_zeros() as i64; // position of the leading one
        let biased = top + e2 + self.bias();
        let (field, fraction) = if biased > max_field {
            (max_field as u64, 0u64)
        } else if biased >= 1 {
            let shift = top - fb;
            let f = if shift >= 0 { m >> shift } else { m << -shift };
            (biased as u64, (f as u64) & ((1u64 << fb) - 1))
        } else {
            // Subnormal: floor(value / 2^(1 - bias - fb)).
            let shift = e2 - (1 - self.bias() - fb);
            let f = if shift >= 0 {
                m << shift
            } else if -shift >= 128 {
                0
            } else {
                m >> -shift
            };
            (0, f as u64)
        };
        self.sign_bit(negative) | field << fb | fraction
    }
}

/// `[+|-] (digits [. digits*] | . digits) [(e|E) [+|-] digits]`, the decimal floats a C++
/// stream accepts in full.
fn is_decimal_syntax(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    let int_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let mut digits = i - int_start;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let frac_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        digits += i - frac_start;
    }
    if digits == 0 {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let exp_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == exp_start {
            return false;
        }
    }
    i == b.len()
}
