//! C printf formatting of one scalar for DebugPrintf (C11 §7.21.6.1 as glibc prints it).
//!
//! The directive decides how the operand's bits are read: d/i as a signed integer of the
//! operand's width, u/x/X/o/c as unsigned, floating conversions as a float of the operand's
//! width (16, 32 or 64 bits), widened exactly to double as C's default promotion does.
//! Decimal output is the exact binary value rounded to the requested digits, ties to even
//! (glibc's behaviour in the default rounding mode; Rust's formatter is exact too).

use crate::program::print::Conv;

fn sext(v: u64, bits: u32) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        ((v << (64 - bits)) as i64) >> (64 - bits)
    }
}

fn float_value(bits: u64, width: u32) -> f64 {
    match width {
        16 => {
            let s = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
            let e = ((bits >> 10) & 0x1f) as i32;
            let m = (bits & 0x3ff) as f64;
            s * match e {
                0 => m * 2f64.powi(-24),
                31 if m == 0.0 => f64::INFINITY,
                31 => f64::NAN,
                _ => (1024.0 + m) * 2f64.powi(e - 25),
            }
        }
        32 => f64::from(f32::from_bits(bits as u32)),
        _ => f64::from_bits(bits),
    }
}

/// The formatted scalar with flags, width and precision applied.
pub fn format(c: &Conv, bits: u64) -> String {
    let upper = c.conversion.is_ascii_uppercase();
    let (negative, body, numeric) = match c.conversion {
        'd' | 'i' => {
            let v = sext(bits, c.bits);
            (
                v < 0,
                int_digits(v.unsigned_abs().to_string(), c.precision),
                true,
            )
        }
        'u' => (
            false,
            int_digits(mask(bits, c.bits).to_string(), c.precision),
            true,
        ),
        'x' | 'X' => {
            let v = mask(bits, c.bits);
            let mut d = int_digits(format!("{v:x}"), c.precision);
            if c.alt && v != 0 {
                d.insert_str(0, "0x");
            }
            (false, if upper { d.to_uppercase() } else { d }, true)
        }
        'o' => {
            let v = mask(bits, c.bits);
            let mut d = int_digits(format!("{v:o}"), c.precision);
            if c.alt && !d.starts_with('0') {
                d.insert(0, '0');
            }
            (false, d, true)
        }
        'c' => (false, char::from(bits as u8).to_string(), false),
        _ => {
            let x = float_value(bits, c.bits);
            let body = if x.is_nan() {
                "nan".to_string()
            } else if x.is_infinite() {
                "inf".to_string()
            } else {
                float_body(c, x.abs())
            };
            let body = if upper { body.to_uppercase() } else { body };
            (x.is_sign_negative(), body, x.is_finite())
        }
    };
    let signed = matches!(
        c.conversion,
        'd' | 'i' | 'f' | 'F' | 'e' | 'E' | 'g' | 'G' | 'a' | 'A'
    );
    let sign = if negative {
        "-"
    } else if signed && c.plus {
        "+"
    } else if signed && c.space {
        " "
    } else {
        ""
    };
    let len = sign.len() + body.chars().count();
    let width = c.width.unwrap_or(0);
    if len >= width {
        return format!("{sign}{body}");
    }
    let pad = width - len;
    // The 0 flag is ignored with '-', and for integers when a precision is given.
    let int_conv = matches!(c.conversion, 'd' | 'i' | 'u' | 'x' | 'X' | 'o');
    if c.left {
        format!("{sign}{body}{}", " ".repeat(pad))
    } else if c.zero && numeric && !(int_conv && c.precision.is_some()) {
        // Zeros go after a sign and a 0x prefix.
        let (prefix, rest) = if body.starts_with("0x") || body.starts_with("0X") {
            body.split_at(2)
        } else {
            ("", body.as_str())
        };
        format!("{sign}{prefix}{}{rest}", "0".repeat(pad))
    } else {
        format!("{}{sign}{body}", " ".repeat(pad))
    }
}

fn mask(v: u64, bits: u32) -> u64 {
    if bits >= 64 { v } else { v & ((1 << bits) - 1) }
}

/// Digits padded with zeros to the precision (minimum digit count); precision 0 and value 0
/// print nothing (C).
fn int_digits(d: String, precision: Option<usize>) -> String {
    match precision {
        Some(0) if d == "0" => String::new(),
        Some(p) if d.len() < p => format!("{}{d}", "0".repeat(p - d.len())),
        _ => d,
    }
}

/// `%e` body of a non-negative finite x: d.ddde±XX.
fn exp_form(x: f64, precision: usize, alt: bool) -> String {
    let s = format!("{x:.precision$e}");
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let e: i32 = exp.parse().unwrap_or(0);
    let mut mant = mant.to_string();
    if alt && precision == 0 {
        mant.push('.');
    }
    format!("{mant}e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs())
}

fn float_body(c: &Conv, x: f64) -> String {
    let p = c.precision;
    match c.conversion.to_ascii_lowercase() {
        'f' => {
            let p = p.unwrap_or(6);
            let mut s = format!("{x:.p$}");
            if c.alt && p == 0 {
                s.push('.');
            }
            s
        }
        'e' => exp_form(x, p.unwrap_or(6), c.alt),
        'g' => {
            let p = match p {
                Some(0) => 1,
                Some(p) => p,
                None => 6,
            };
            // The exponent X of the %e form with precision P − 1.
            let e_form = exp_form(x, p - 1, false);
            let x_exp: i32 = e_form
                .split_once('e')
                .and_then(|(_, e)| e.parse().ok())
                .unwrap_or(0);
            let mut s = if (p as i32) > x_exp && x_exp >= -4 {
                let digits = (p as i32 - 1 - x_exp) as usize;
                format!("{x:.digits$}")
            } else {
                exp_form(x, p - 1, false)
            };
            if !c.alt {
                s = strip_zeros(&s);
            } else if !s.contains('.') {
                // '#' keeps the decimal point.
                let at = s.find('e').unwrap_or(s.len());
                s.insert(at, '.');
            }
            s
        }
        _ => hex_float(x),
    }
}

/// Removes trailing fraction zeros (and a trailing point) of a %g result, keeping an exponent.
fn strip_zeros(s: &str) -> String {
    let (m, e) = match s.find('e') {
        Some(i) => s.split_at(i),
        None => (s, ""),
    };
    let m = if m.contains('.') {
        m.trim_end_matches('0').trim_end_matches('.')
    } else {
        m
    };
    format!("{m}{e}")
}

/// `%a` of a non-negative finite double, exact (no precision): 0x1.hhhp±d, subnormals as
/// 0x0.hhhp-1022, zero as 0x0p+0 (glibc).
fn hex_float(x: f64) -> String {
    if x == 0.0 {
        return "0x0p+0".to_string();
    }
    let b = x.to_bits();
    let e = ((b >> 52) & 0x7ff) as i64;
    let f = b & ((1 << 52) - 1);
    let (lead, exp) = if e == 0 { (0, -1022) } else { (1, e - 1023) };
    let digits = format!("{f:013x}");
    let digits = digits.trim_end_matches('0');
    let point = if digits.is_empty() { "" } else { "." };
    format!(
        "0x{lead}{point}{digits}p{}{}",
        if exp < 0 { '-' } else { '+' },
        exp.abs()
    )
}
