//! Parsing decimal text (`1.5`, `-0.25e3`, `inf`, `nan`) into a format, correctly rounded.

use super::error::FloatError;
use super::format::Format;
use super::round::RoundingMode;
use super::value::Decoded;
use num_bigint::BigUint;
use num_traits::Zero;

/// Largest decimal exponent accepted (keeps the exact arithmetic bounded).
const MAX_DECIMAL_EXPONENT: i64 = 5000;
/// Largest number of digits accepted.
const MAX_DIGITS: usize = 2000;

impl Format {
    /// Parses decimal text and rounds it to this format under `mode` (no saturation). Returns the
    /// bits and whether the conversion was exact. Accepts an optional sign, digits with an
    /// optional `.`, an optional `e`/`E` exponent, and `inf`/`infinity`/`nan` (NaN gives the
    /// quiet NaN with the given sign).
    pub fn parse_decimal(&self, text: &str, mode: RoundingMode) -> Result<(u64, bool), FloatError> {
        let bad = || FloatError::BadDecimal(text.to_string());
        let t = text.trim();
        let (negative, body) = match t.as_bytes().first() {
            Some(b'-') => (true, &t[1..]),
            Some(b'+') => (false, &t[1..]),
            _ => (false, t),
        };
        match body.to_ascii_lowercase().as_str() {
            "inf" | "infinity" => {
                return Ok((
                    self.encode(&Decoded::Infinite { negative }, mode, false),
                    self.has_infinity(),
                ));
            }
            "nan" => return Ok((self.quiet_nan(negative), true)),
            _ => {}
        }
        let (mant, exp) = match body.find(['e', 'E']) {
            Some(i) => (&body[..i], body[i + 1..].parse::<i64>().map_err(|_| bad())?),
            None => (body, 0),
        };
        let (int_part, frac_part) = match mant.find('.') {
            Some(i) => (&mant[..i], &mant[i + 1..]),
            None => (mant, ""),
        };
        let digits: String = format!("{int_part}{frac_part}");
        if digits.is_empty()
            || digits.len() > MAX_DIGITS
            || !digits.bytes().all(|c| c.is_ascii_digit())
            || exp.unsigned_abs() > MAX_DECIMAL_EXPONENT as u64
        {
            return Err(bad());
        }
        let m = BigUint::parse_bytes(digits.as_bytes(), 10).ok_or_else(bad)?;
        let e10 = exp - frac_part.len() as i64;
        let ten = BigUint::from(10u32);
        let (num, den) = if e10 >= 0 {
            (m * ten.pow(e10 as u32), BigUint::from(1u32))
        } else {
            (m, ten.pow((-e10) as u32))
        };
        let bits = self.round_ratio(negative, &num, &den, mode, false)?;
        let exact = match self.decode(bits) {
            Decoded::Finite(d) => {
                // d = mantissa · 2^exponent must equal num / den exactly.
                let dm = BigUint::from(d.mantissa);
                if num.is_zero() || d.mantissa == 0 {
                    num.is_zero() && d.mantissa == 0
                } else if d.exponent >= 0 {
                    (dm << d.exponent as u64) * &den == num
                } else {
                    dm * &den == num << (-(d.exponent as i64)) as u64
                }
            }
            _ => false,
        };
        Ok((bits, exact))
    }
}
