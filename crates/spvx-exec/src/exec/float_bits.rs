//! Register patterns ↔ host floats, shared by every family that computes on floats: the
//! exact f64 value of a pattern, the rounding of an f64 to a format (NaN canonical), the
//! canonical NaNs, and rounding an f64 to an integral value under a rounding mode.

use crate::program::FloatFmt;
use spvx_num::float::{Format, RoundingMode, convert};

/// The canonical quiet NaN of a format.
pub fn canonical_nan(fmt: FloatFmt) -> u64 {
    match fmt {
        FloatFmt::F16 => 0x7e00,
        FloatFmt::F32 => 0x7fc0_0000,
        FloatFmt::F64 => 0x7ff8_0000_0000_0000,
        other => other.format().quiet_nan(false),
    }
}

/// The exact value of a pattern as f64 (every format spvx computes in is exact in f64).
#[inline]
pub fn to_f64(fmt: FloatFmt, bits: u64) -> f64 {
    match fmt {
        FloatFmt::F32 => f32::from_bits(bits as u32) as f64,
        FloatFmt::F64 => f64::from_bits(bits),
        other => f64::from_bits(convert(
            other.format(),
            bits,
            Format::F64,
            RoundingMode::NearestEven,
            false,
        )),
    }
}

/// `x` rounded to `fmt` (round to nearest even), NaN canonical.
#[inline]
pub fn from_f64(fmt: FloatFmt, x: f64) -> u64 {
    if x.is_nan() {
        return canonical_nan(fmt);
    }
    match fmt {
        FloatFmt::F32 => (x as f32).to_bits() as u64,
        FloatFmt::F64 => x.to_bits(),
        other => other.format().from_f64(x, RoundingMode::NearestEven, false),
    }
}

/// `v` rounded to an integral value under `mode` (exact: every format here is exact in f64).
#[inline]
pub fn round_integral(v: f64, mode: spvx_num::float::RoundingMode) -> f64 {
    use spvx_num::float::RoundingMode as M;
    match mode {
        M::TowardZero => v.trunc(),
        M::NearestEven => v.round_ties_even(),
        M::TowardPositive => v.ceil(),
        M::TowardNegative => v.floor(),
    }
}
