//! Exact widening of DPAS float elements to fp32 bit patterns, by bit manipulation (every
//! bf16, fp16, tf32, E5M2 and E4M3 value is an fp32 value). These are the same values as
//! [`crate::float::convert`] to fp32 gives, computed without its general machinery because the
//! DPAS simulator widens every element of every step; the tests compare them with an
//! independent rational decoder over all fp8 and fp16 patterns. NaN payloads are not kept:
//! every NaN input makes the DPAS result the canonical NaN.

use super::{DpasError, FloatElement, Precision, Tf32Inputs};

/// fp32 quiet NaN used for NaN elements (its payload never reaches a result).
const NAN32: u32 = 0x7fc0_0000;

/// The fp32 pattern of an element and whether the element is subnormal in its own format.
#[inline]
pub(super) fn widen(e: FloatElement, tf32: Tf32Inputs) -> Result<(u32, bool), DpasError> {
    let bits = e.bits;
    Ok(match e.precision {
        Precision::Bf16 => {
            let b = bits & 0xffff;
            (b << 16, b & 0x7f80 == 0 && b & 0x007f != 0)
        }
        Precision::Tf32 => {
            let b = match tf32 {
                Tf32Inputs::Truncate => bits & 0xffff_e000,
                Tf32Inputs::Full => bits,
            };
            (b, b & 0x7f80_0000 == 0 && b & 0x007f_ffff != 0)
        }
        Precision::Fp16 => half(bits & 0xffff),
        // E5M2 is the high byte of an fp16 pattern.
        Precision::Bf8 => half((bits & 0xff) << 8),
        Precision::Hf8 => e4m3(bits & 0xff),
        Precision::Df => return Err(DpasError::WideElement { op: "float_dot" }),
        p => {
            return Err(DpasError::WrongPrecisionKind {
                op: "float_dot",
                expected: "float",
                precision: p,
            });
        }
    })
}

/// fp16 → fp32: normal values rebias the exponent (15 → 127); subnormals m·2^-24 are computed
/// as an exact f32 product (m < 2^10); all-ones exponent gives inf or NaN.
#[inline]
fn half(h: u32) -> (u32, bool) {
    let sign = (h & 0x8000) << 16;
    let e = (h >> 10) & 0x1f;
    let m = h & 0x3ff;
    match (e, m) {
        (0, 0) => (sign, false),
        (0, _) => (
            sign | (m as f32 * f32::from_bits(0x3380_0000)).to_bits(),
            true,
        ),
        (0x1f, 0) => (sign | 0x7f80_0000, false),
        (0x1f, _) => (sign | NAN32, false),
        _ => (sign | ((e + 112) << 23) | (m << 13), false),
    }
}

/// E4M3 (bias 7, no infinities, NaN = S.1111.111) → fp32; subnormals m·2^-9 exactly.
#[inline]
fn e4m3(b: u32) -> (u32, bool) {
    let sign = (b & 0x80) << 24;
    let e = (b >> 3) & 0xf;
    let m = b & 7;
    match (e, m) {
        (0xf, 7) => (sign | NAN32, false),
        (0, 0) => (sign, false),
        (0, _) => (
            sign | (m as f32 * f32::from_bits(0x3b00_0000)).to_bits(),
            true,
        ),
        _ => (sign | ((e + 120) << 23) | (m << 20), false),
    }
}
