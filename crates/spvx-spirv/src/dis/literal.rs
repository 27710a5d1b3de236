//! Number formatting exactly as spirv-dis 2025.5 prints literals.
//!
//! Rules (observed on spirv-dis 2025.5, matching SPIRV-Tools' `EmitNumericLiteral` and
//! `FloatProxy`/`HexFloat` printing; see docs/semantics/disassembler.md):
//! - integers of one word print as `int32`/`uint32` of the word by signedness, of two words as
//!   `int64`/`uint64` (the word bits, not the type width, decide the sign); wider integers
//!   (which spirv-dis leaves blank) print here as the two's complement value of all words;
//! - 32- and 64-bit floats print in C++ `%g` style with 9 and 17 significant digits when zero
//!   or normal, and as hex floats otherwise (subnormal, infinity, NaN);
//! - 16-bit floats, bfloat16 and the 8-bit floats always print as hex floats.

use crate::context::NumericType;
use std::fmt::Write;

/// `FPEncoding` values that change how a float literal is read.
const ENC_BFLOAT16: u32 = 0;
const ENC_FLOAT8_E4M3: u32 = 4214;
const ENC_FLOAT8_E5M2: u32 = 4215;

/// Appends the literal `words` of a value of type `ty`.
pub fn write_number(out: &mut String, ty: NumericType, words: &[u32]) {
    match ty {
        NumericType::Int { signed, .. } => write_integer(out, words, signed),
        NumericType::Float { width, encoding } => write_float(out, width, encoding, words),
    }
}

/// Appends an integer literal: one word as a 32-bit, two words as a 64-bit, more words as a
/// `32 * n`-bit two's complement (signed) or plain (unsigned) integer, low word first.
pub fn write_integer(out: &mut String, words: &[u32], signed: bool) {
    match *words {
        [] => {}
        [w] => {
            if signed {
                let _ = write!(out, "{}", w as i32);
            } else {
                let _ = write!(out, "{w}");
            }
        }
        [lo, hi] => {
            let bits = u64::from(lo) | (u64::from(hi) << 32);
            if signed {
                let _ = write!(out, "{}", bits as i64);
            } else {
                let _ = write!(out, "{bits}");
            }
        }
        _ => write_wide_integer(out, words, signed),
    }
}

/// Appends a multi-word integer in decimal.
fn write_wide_integer(out: &mut String, words: &[u32], signed: bool) {
    let negative = signed && words.last().is_some_and(|w| w & 0x8000_0000 != 0);
    let mut limbs: Vec<u32> = words.to_vec();
    if negative {
        // Two's complement negation: invert and add one.
        let mut carry = 1u64;
        for l in &mut limbs {
            let v = u64::from(!*l) + carry;
            *l = v as u32;
            carry = v >> 32;
        }
        out.push('-');
    }
    // Repeated division by 10^9, most significant limb first.
    let mut chunks = Vec::new();
    while limbs.iter().any(|&l| l != 0) {
        let mut rem = 0u64;
        for l in limbs.iter_mut().rev() {
            let cur = (rem << 32) | u64::from(*l);
            *l = (cur / 1_000_000_000) as u32;
            rem = cur % 1_000_000_000;
        }
        chunks.push(rem as u32);
    }
    match chunks.split_last() {
        None => out.push('0'),
        Some((top, rest)) => {
            let _ = write!(out, "{top}");
            for c in rest.iter().rev() {
                let _ = write!(out, "{c:09}");
            }
        }
    }
}

/// The layout of a binary floating-point format.
#[derive(Clone, Copy)]
struct FloatLayout {
    exponent_bits: u32,
    fraction_bits: u32,
    bias: i32,
}

const HALF: FloatLayout = FloatLayout {
    exponent_bits: 5,
    fraction_bits: 10,
    bias: 15,
};
const BFLOAT16: FloatLayout = FloatLayout {
    exponent_bits: 8,
    fraction_bits: 7,
    bias: 127,
};
const E4M3: FloatLayout = FloatLayout {
    exponent_bits: 4,
    fraction_bits: 3,
    bias: 7,
};
const E5M2: FloatLayout = FloatLayout {
    exponent_bits: 5,
    fraction_bits: 2,
    bias: 15,
};
const SINGLE: FloatLayout = FloatLayout {
    exponent_bits: 8,
    fraction_bits: 23,
    bias: 127,
};
const DOUBLE: FloatLayout = FloatLayout {
    exponent_bits: 11,
    fraction_bits: 52,
    bias: 1023,
};

/// Appends a float literal of the given width and encoding.
pub fn write_float(out: &mut String, width: u32, encoding: Option<u32>, words: &[u32]) {
    let w0 = words.first().copied().unwrap_or(0);
    match (words.len(), width, encoding) {
        (1, _, Some(ENC_BFLOAT16)) => write_hex_float(out, BFLOAT16, u64::from(w0 & 0xffff)),
        (1, _, Some(ENC_FLOAT8_E4M3)) => write_hex_float(out, E4M3, u64::from(w0 & 0xff)),
        (1, _, Some(ENC_FLOAT8_E5M2)) => write_hex_float(out, E5M2, u64::from(w0 & 0xff)),
        (1, 16, _) => write_hex_float(out, HALF, u64::from(w0 & 0xffff)),
        (1, _, _) => write_f32_bits(out, w0),
        (2, _, _) => {
            let bits = u64::from(w0) | (u64::from(words[1]) << 32);
            write_f64_bits(out, bits)
        }
        // No float format is wider than 64 bits; show the words as an unsigned integer.
        _ => write_integer(out, words, false),
    }
}

/// Appends a 32-bit float: `%.9g` when zero or normal, else a hex float.
pub fn write_f32_bits(out: &mut String, bits: u32) {
    let x = f32::from_bits(bits);
    if x == 0.0 || x.is_normal() {
        write_general(out, f64::from(x), 9);
    } else {
        write_hex_float(out, SINGLE, u64::from(bits));
    }
}

/// Appends a 64-bit float: `%.17g` when zero or normal, else a hex float.
pub fn write_f64_bits(out: &mut String, bits: u64) {
    let x = f64::from_bits(bits);
    if x == 0.0 || x.is_normal() {
        write_general(out, x, 17);
    } else {
        write_hex_float(out, DOUBLE, bits);
    }
}

/// Appends `x` as C's `%.<precision>g`: the shortest of fixed and scientific notation chosen by
/// the decimal exponent, trailing zeros removed, at least two exponent digits.
fn write_general(out: &mut String, x: f64, precision: usize) {
    // Correctly rounded (ties to even on the exact value, as glibc's printf) scientific form.
    let sci = format!("{:.*e}", precision - 1, x);
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    out.push_str(sign);
    if exp < -4 || exp >= precision as i32 {
        let (first, rest) = digits.split_at(1);
        let rest = rest.trim_end_matches('0');
        out.push_str(first);
        if !rest.is_empty() {
            out.push('.');
            out.push_str(rest);
        }
        let _ = write!(
            out,
            "e{}{:02}",
            if exp < 0 { '-' } else { '+' },
            exp.unsigned_abs()
        );
    } else if exp >= 0 {
        let split = exp as usize + 1;
        let (int_part, frac) = digits.split_at(split.min(digits.len()));
        out.push_str(int_part);
        let frac = frac.trim_end_matches('0');
        if !frac.is_empty() {
            out.push('.');
            out.push_str(frac);
        }
    } else {
        let frac = digits.trim_end_matches('0');
        out.push_str("0.");
        for _ in 0..(-exp - 1) {
            out.push('0');
        }
        out.push_str(frac);
    }
}

/// Appends the bits of a float of `layout` as a hex float, the way SPIRV-Tools' `HexFloat`
/// prints it: `[-]0x1.<fraction>p<exp>` with the fraction left-aligned to whole nibbles and
/// trailing zero nibbles dropped; subnormals normalised; zero as `0x0p+0`; an all-ones exponent
/// (infinity, NaN) printed as exponent `bias + 1` like any other.
fn write_hex_float(out: &mut String, layout: FloatLayout, bits: u64) {
    let fb = layout.fraction_bits;
    let nibbles = fb.div_ceil(4);
    let overflow = nibbles * 4 - fb;
    let sign = (bits >> (fb + layout.exponent_bits)) & 1 == 1;
    let exponent = ((bits >> fb) & ((1 << layout.exponent_bits) - 1)) as i32;
    let represent_mask: u64 = (1u64 << (nibbles * 4)) - 1;
    let mut fraction = (bits & ((1u64 << fb) - 1)) << overflow;
    let is_zero = exponent == 0 && fraction == 0;
    let mut int_exponent = if is_zero { 0 } else { exponent - layout.bias };
    if exponent == 0 && !is_zero {
        let top_bit = 1u64 << (nibbles * 4 - 1);
        while fraction & top_bit == 0 {
            fraction <<= 1;
            int_exponent -= 1;
        }
        fraction = (fraction << 1) & represent_mask;
    }
    let mut shown = nibbles;
    while shown > 0 && fraction & 0xf == 0 {
        fraction >>= 4;
        shown -= 1;
    }
    if sign {
        out.push('-');
    }
    out.push_str(if is_zero { "0x0" } else { "0x1" });
    if shown > 0 {
        let _ = write!(out, ".{:0width$x}", fraction, width = shown as usize);
    }
    let _ = write!(
        out,
        "p{}{}",
        if int_exponent >= 0 { "+" } else { "" },
        int_exponent
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32s(bits: u32) -> String {
        let mut s = String::new();
        write_f32_bits(&mut s, bits);
        s
    }

    fn f64s(x: f64) -> String {
        let mut s = String::new();
        write_f64_bits(&mut s, x.to_bits());
        s
    }

    fn hex(layout: FloatLayout, bits: u64) -> String {
        let mut s = String::new();
        write_hex_float(&mut s, layout, bits);
        s
    }

    fn int(words: &[u32], signed: bool) -> String {
        let mut s = String::new();
        write_integer(&mut s, words, signed);
        s
    }

    // Expected strings are C's printf("%.9g") / printf("%.17g") of the same values, and hex
    // forms worked out by hand from the bit patterns.
    #[test]
    fn general_format_matches_printf_g() {
        assert_eq!(f32s(1.5f32.to_bits()), "1.5");
        assert_eq!(f32s((-0.1f32).to_bits()), "-0.100000001");
        assert_eq!(f32s(1e10f32.to_bits()), "1e+10");
        assert_eq!(f32s(123456789f32.to_bits()), "123456792");
        assert_eq!(f32s(1e-7f32.to_bits()), "1.00000001e-07");
        assert_eq!(f32s(0.0001f32.to_bits()), "9.99999975e-05");
        assert_eq!(f32s(0.001f32.to_bits()), "0.00100000005");
        assert_eq!(f32s(0.0f32.to_bits()), "0");
        assert_eq!(f32s((-0.0f32).to_bits()), "-0");
        assert_eq!(f32s(100.0f32.to_bits()), "100");
        assert_eq!(f64s(1e300), "1.0000000000000001e+300");
        assert_eq!(f64s(0.1), "0.10000000000000001");
        assert_eq!(f64s(1.0), "1");
    }

    #[test]
    fn hex_floats() {
        assert_eq!(f32s(0x7f80_0000), "0x1p+128");
        assert_eq!(f32s(0xffc0_0000), "-0x1.8p+128");
        assert_eq!(f32s(0x7f80_0001), "0x1.000002p+128");
        assert_eq!(f32s(1), "0x1p-149");
        assert_eq!(f32s(3), "0x1.8p-148");
        assert_eq!(hex(HALF, 0x3e00), "0x1.8p+0");
        assert_eq!(hex(HALF, 0x7bff), "0x1.ffcp+15");
        assert_eq!(hex(HALF, 0x0001), "0x1p-24");
        assert_eq!(hex(HALF, 0x8000), "-0x0p+0");
        assert_eq!(hex(HALF, 0x7c01), "0x1.004p+16");
        assert_eq!(hex(BFLOAT16, 0x0001), "0x1p-133");
        assert_eq!(hex(BFLOAT16, 0x7fc0), "0x1.8p+128");
        assert_eq!(hex(E4M3, 0x7e), "0x1.cp+8");
        assert_eq!(hex(E4M3, 0x01), "0x1p-9");
        assert_eq!(hex(E5M2, 0x7c), "0x1p+16");
        assert_eq!(hex(E5M2, 0x7e), "0x1.8p+16");
    }

    #[test]
    fn integers() {
        assert_eq!(int(&[0xffff_fffd], true), "-3");
        assert_eq!(int(&[0x7d], true), "125");
        assert_eq!(int(&[0xffff_ffff], false), "4294967295");
        assert_eq!(int(&[0, 0x8000_0000], true), "-9223372036854775808");
        assert_eq!(int(&[u32::MAX, u32::MAX], false), "18446744073709551615");
        // 2^64 = 18446744073709551616; 2^95 - 1 and -(2^95).
        assert_eq!(int(&[0, 0, 1], false), "18446744073709551616");
        assert_eq!(
            int(&[u32::MAX, u32::MAX, 0x7fff_ffff], true),
            "39614081257132168796771975167"
        );
        assert_eq!(
            int(&[0, 0, 0x8000_0000], true),
            "-39614081257132168796771975168"
        );
        assert_eq!(int(&[u32::MAX; 3], true), "-1");
        assert_eq!(int(&[0; 4], true), "0");
        assert_eq!(
            int(&[u32::MAX; 4], false),
            "340282366920938463463374607431768211455"
        );
    }
}
