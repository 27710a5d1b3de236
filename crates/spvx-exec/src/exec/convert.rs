//! Conversions: OpUConvert, OpSConvert, OpFConvert, OpConvertFToU/S, OpConvertUToF/S,
//! OpSatConvertSToU/UToS and the SaturatedConversion decoration, and OpBitcast (also between
//! values with different component counts).
//!
//! Float results are rounded by spvx-num under the instruction's rounding mode (default round
//! to nearest even). Float-to-integer conversions round toward zero; values outside the
//! result type (undefined in SPIR-V) saturate to its range and NaN converts to 0.

use crate::bits::{low_bits, sext};
use crate::exec::ctx::Ctx;
use crate::exec::float_bits::{round_integral, to_f64};
use crate::exec::mask::lanes;
use crate::program::{ConvOp, Slot};

/// Runs a conversion.
pub fn convert(cx: &mut Ctx, op: ConvOp, dst: Slot, a: Slot) {
    match op {
        ConvOp::UConvert { to, .. } => {
            let m = low_bits(to as u32);
            cx.map1(dst, a, |x| x & m);
        }
        ConvOp::SConvert { from, to } => {
            let m = low_bits(to as u32);
            cx.map1(dst, a, |x| sext(x, from as u32) as u64 & m);
        }
        ConvOp::SatConvert {
            from,
            to,
            from_signed,
            to_signed,
        } => {
            cx.map1(dst, a, |x| {
                sat_convert(x, from as u32, to as u32, from_signed, to_signed)
            });
        }
        ConvOp::FConvert { from, to, mode } => {
            let (f, t) = (from.format(), to.format());
            cx.map1(dst, a, |x| spvx_num::float::convert(f, x, t, mode, false));
        }
        ConvOp::FToI {
            from,
            to,
            signed,
            mode,
        } => {
            let bits = to as u32;
            cx.map1(dst, a, |x| {
                float_to_int(round_integral(to_f64(from, x), mode), bits, signed)
            });
        }
        ConvOp::IToF {
            from,
            to,
            signed,
            mode,
        } => {
            let f = to.format();
            cx.map1(dst, a, |x| {
                let (negative, magnitude) = if signed {
                    let v = sext(x, from as u32);
                    (v < 0, v.unsigned_abs())
                } else {
                    (false, x)
                };
                if magnitude == 0 {
                    return if negative { f.sign_mask() } else { 0 };
                }
                f.round_u128(negative, magnitude as u128, 0, mode, false)
            });
        }
    }
}

/// The `from`-bit integer `x` (signed or not) clamped to the range of a `to`-bit integer
/// (signed or not), in the result's bits.
pub(crate) fn sat_convert(x: u64, from: u32, to: u32, from_signed: bool, to_signed: bool) -> u64 {
    let v = if from_signed {
        sext(x, from) as i128
    } else {
        (x & low_bits(from)) as i128
    };
    let (min, max) = if to_signed {
        (-(1i128 << (to - 1)), (1i128 << (to - 1)) - 1)
    } else {
        (0, (1i128 << to) - 1)
    };
    v.clamp(min, max) as u64 & low_bits(to)
}

/// Truncates toward zero and saturates to the `bits`-bit range; NaN gives 0.
fn float_to_int(v: f64, bits: u32, signed: bool) -> u64 {
    if v.is_nan() {
        return 0;
    }
    let t = v.trunc();
    if signed {
        let max = (1i128 << (bits - 1)) - 1;
        let min = -(1i128 << (bits - 1));
        let r = if t >= max as f64 {
            max
        } else if t <= min as f64 {
            min
        } else {
            t as i128
        };
        r as u64 & low_bits(bits)
    } else {
        let max = low_bits(bits);
        if t <= 0.0 {
            0
        } else if t >= max as f64 {
            max
        } else {
            t as u64
        }
    }
}

/// OpBitcast: concatenates `src_count` leaves of `src_bits` (component 0 lowest) and splits
/// them into `dst_count` leaves of `dst_bits`.
pub fn bitcast(
    cx: &mut Ctx,
    dst: Slot,
    dst_bits: u8,
    dst_count: u8,
    src: Slot,
    src_bits: u8,
    src_count: u8,
) {
    if dst_bits == src_bits {
        for k in 0..dst_count.min(src_count) as u32 {
            cx.map1(dst + k, src + k, |x| x);
        }
        return;
    }
    for l in lanes(cx.mask) {
        let mut all = 0u128;
        for i in 0..src_count as u32 {
            all |= (cx.get(src + i, l) as u128) << (i * src_bits as u32);
        }
        for i in 0..dst_count as u32 {
            let v = (all >> (i * dst_bits as u32)) as u64 & low_bits(dst_bits as u32);
            cx.set(dst + i, l, v);
        }
    }
}
