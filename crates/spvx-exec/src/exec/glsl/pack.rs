//! GLSL.std.450 packing and unpacking (Pack/Unpack Snorm4x8, Unorm4x8, Snorm2x16, Unorm2x16,
//! Half2x16, Double2x32). Component 0 goes to the least significant bits (GLSL.std.450).
//!
//! Packing follows the specification's formulas literally, in fp32: `round(clamp(c, −1, 1) ·
//! 127.0)` (the product rounded to fp32, then rounded to an integer with ties to even — GLSL
//! leaves the direction of ties to the implementation; Mesa's NIR lowering uses round-even).
//! `clamp` of NaN gives the lower bound (the engine's FClamp: min/max ignore a NaN operand).
//! Unpacking divides in fp32 (correctly rounded) and clamps Snorm results to −1.

use crate::exec::ctx::Ctx;
use crate::exec::float_bits::{from_f64, to_f64};
use crate::exec::mask::lanes;
use crate::program::glsl::GlslOp;
use crate::program::{FloatFmt, Slot};

/// `round(clamp(c, lo, 1) · scale)` as an integer (fp32 product, ties to even).
fn quantise(c: f32, lo: f32, scale: f32) -> i64 {
    let v = if c.is_nan() { lo } else { c.clamp(lo, 1.0) };
    (v * scale).round_ties_even() as i64
}

/// One packing or unpacking function on the active lanes: `src` the first slot of the
/// operand, `dst` the first slot of the result.
pub fn pack(cx: &mut Ctx, op: GlslOp, dst: Slot, src: Slot) {
    use GlslOp::*;
    for l in lanes(cx.mask) {
        let f = |cx: &Ctx, k: u32| f32::from_bits(cx.get(src + k, l) as u32);
        let word = cx.get(src, l);
        let put32 = |cx: &mut Ctx, k: u32, v: f32| {
            cx.set(dst + k, l, from_f64(FloatFmt::F32, f64::from(v)))
        };
        match op {
            PackSnorm4x8 | PackUnorm4x8 => {
                let (lo, scale) = if op == PackSnorm4x8 {
                    (-1.0, 127.0)
                } else {
                    (0.0, 255.0)
                };
                let w = (0..4).fold(0u64, |w, k| {
                    w | ((quantise(f(cx, k), lo, scale) as u64 & 0xff) << (8 * k))
                });
                cx.set(dst, l, w);
            }
            PackSnorm2x16 | PackUnorm2x16 => {
                let (lo, scale) = if op == PackSnorm2x16 {
                    (-1.0, 32767.0)
                } else {
                    (0.0, 65535.0)
                };
                let w = (0..2).fold(0u64, |w, k| {
                    w | ((quantise(f(cx, k), lo, scale) as u64 & 0xffff) << (16 * k))
                });
                cx.set(dst, l, w);
            }
            PackHalf2x16 => {
                let h = |k| from_f64(FloatFmt::F16, f64::from(f(cx, k)));
                cx.set(dst, l, h(0) | (h(1) << 16));
            }
            PackDouble2x32 => {
                let hi = cx.get(src + 1, l);
                cx.set(dst, l, (word & 0xffff_ffff) | (hi << 32));
            }
            UnpackSnorm4x8 | UnpackUnorm4x8 => {
                for k in 0..4 {
                    let b = (word >> (8 * k)) as u8;
                    let v = if op == UnpackSnorm4x8 {
                        (f32::from(b as i8) / 127.0).max(-1.0)
                    } else {
                        f32::from(b) / 255.0
                    };
                    put32(cx, k, v);
                }
            }
            UnpackSnorm2x16 | UnpackUnorm2x16 => {
                for k in 0..2 {
                    let h = (word >> (16 * k)) as u16;
                    let v = if op == UnpackSnorm2x16 {
                        (f32::from(h as i16) / 32767.0).max(-1.0)
                    } else {
                        f32::from(h) / 65535.0
                    };
                    put32(cx, k, v);
                }
            }
            UnpackHalf2x16 => {
                for k in 0..2 {
                    let h = (word >> (16 * k)) & 0xffff;
                    let v = to_f64(FloatFmt::F16, h);
                    cx.set(dst + k, l, from_f64(FloatFmt::F32, v));
                }
            }
            UnpackDouble2x32 => {
                cx.set(dst, l, word & 0xffff_ffff);
                cx.set(dst + 1, l, word >> 32);
            }
            _ => {}
        }
    }
}
