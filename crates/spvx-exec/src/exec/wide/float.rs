//! Conversions between integers wider than 64 bits and floats (OpConvertUToF/SToF,
//! OpConvertFToU/FToS), with the narrow conversions' rules (`exec::convert`): integer to float
//! rounds once under the rounding mode (default nearest even), through spvx-num; float to
//! integer rounds under its rounding mode (default toward zero) and saturates to the result's
//! range, NaN giving 0.

use super::regs::{read, write};
use crate::exec::ctx::Ctx;
use crate::exec::float_bits::{round_integral, to_f64};
use crate::exec::limbs;
use crate::exec::mask::lanes;
use crate::program::FloatFmt;
use crate::program::wide::WideInst;
use num_bigint::BigUint;
use spvx_num::float::RoundingMode;

/// `dst` (float `to`) = the `bits`-bit integer `a`, rounded once.
pub fn int_to_float(
    cx: &mut Ctx,
    w: &WideInst,
    bits: u32,
    to: FloatFmt,
    signed: bool,
    mode: RoundingMode,
) {
    let f = to.format();
    let k = limbs::limbs(bits);
    let (mut x, mut m) = (vec![0; k], vec![0; k]);
    for l in lanes(cx.mask) {
        read(cx, w.a, l, bits, &mut x);
        let negative = signed && limbs::is_negative(&x, bits);
        if negative {
            // |MIN| = 2^(bits−1): its unsigned reading is the magnitude (one more bit needed).
            limbs::neg(&mut m, &x, bits);
        } else {
            m.copy_from_slice(&x);
        }
        let top = m.iter().rposition(|&v| v != 0);
        let r = match top {
            None => 0,
            Some(t) => {
                // The highest set bit h; keep bits h−127..=h, the rest as a sticky bit.
                let h = 64 * t as u32 + 63 - m[t].leading_zeros();
                let shift = h.saturating_sub(127);
                let mantissa = window(&m, shift);
                let sticky = (0..shift).any(|i| m[(i / 64) as usize] >> (i % 64) & 1 != 0);
                f.round_u128_sticky(negative, mantissa, shift as i64, sticky, mode, false)
            }
        };
        cx.set(w.dst, l, r);
    }
}

/// The 128 bits of `m` from bit `shift` up.
fn window(m: &[u64], shift: u32) -> u128 {
    let mut v = 0u128;
    for i in 0..128u32 {
        let p = shift + i;
        let word = (p / 64) as usize;
        if word < m.len() && m[word] >> (p % 64) & 1 != 0 {
            v |= 1 << i;
        }
    }
    v
}

/// `dst` (`bits`-bit integer) = the float `a` rounded to an integer under `mode`, saturated;
/// NaN gives 0.
pub fn float_to_int(
    cx: &mut Ctx,
    w: &WideInst,
    from: FloatFmt,
    bits: u32,
    signed: bool,
    mode: RoundingMode,
) {
    let mut d = vec![0; limbs::limbs(bits)];
    for l in lanes(cx.mask) {
        let v = round_integral(to_f64(from, cx.get(w.a, l)), mode);
        convert(v, bits, signed, &mut d);
        write(cx, w.dst, l, &d);
    }
}

/// The truncated (for a `v` already integral: exact), saturated value of `v` as a `bits`-bit
/// pattern into `d`.
fn convert(v: f64, bits: u32, signed: bool, d: &mut [u64]) {
    d.fill(0);
    if v.is_nan() {
        return;
    }
    let t = v.trunc();
    let negative = t < 0.0;
    // |t| as an exact big integer (every finite f64 is m·2^e).
    let magnitude = if t.is_infinite() {
        None
    } else {
        let b = t.abs().to_bits();
        let exp = ((b >> 52) & 0x7ff) as i64;
        let frac = b & ((1 << 52) - 1);
        if exp == 0 {
            Some(BigUint::ZERO) // |t| < 1 after truncation, or zero
        } else {
            let m = BigUint::from(frac | 1 << 52);
            let e = exp - 1075;
            Some(if e >= 0 {
                m << e as u64
            } else {
                m >> (-e) as u64
            })
        }
    };
    let one = BigUint::from(1u8);
    // The largest magnitude in range on this side.
    let limit = match (signed, negative) {
        (false, true) => BigUint::ZERO,
        (false, false) => (&one << bits) - 1u8,
        (true, false) => (&one << (bits - 1)) - 1u8,
        (true, true) => &one << (bits - 1),
    };
    let mag = match magnitude {
        Some(m) if m <= limit => m,
        _ => limit,
    };
    limbs::from_big(d, &mag, bits);
    if negative && signed {
        let p = d.to_vec();
        limbs::neg(d, &p, bits);
    }
}
