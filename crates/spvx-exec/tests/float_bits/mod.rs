//! Float formats as bits for the MPFR comparison tests (`glsl_math_ref`, `opencl_math_ref`):
//! the IEEE parameters of a format, bits ↔ f64 (fp16 through the test's own decoder and
//! rounding in `glsl_corpus`, independent of the engine), and the failure report.
#![allow(dead_code)]

use crate::glsl_corpus;
use crate::mpfr_ref::{BINARY16, BINARY32, BINARY64, Ieee};
use spvx_exec::program::FloatFmt;

/// The IEEE 754 parameters of `fmt` (fp16, fp32, else fp64).
pub fn ieee(fmt: FloatFmt) -> Ieee {
    match fmt {
        FloatFmt::F16 => BINARY16,
        FloatFmt::F32 => BINARY32,
        _ => BINARY64,
    }
}

/// The value of `bits` in `fmt`.
pub fn to_f64(fmt: FloatFmt, bits: u64) -> f64 {
    match fmt {
        FloatFmt::F16 => glsl_corpus::f16_value(bits as u16),
        FloatFmt::F32 => f32::from_bits(bits as u32) as f64,
        _ => f64::from_bits(bits),
    }
}

/// The bits of `v` (a value of `fmt`, or NaN: the default quiet NaN) in `fmt`.
pub fn from_f64(fmt: FloatFmt, v: f64) -> u64 {
    match fmt {
        FloatFmt::F16 => glsl_corpus::f16_round(v) as u64,
        FloatFmt::F32 if v.is_nan() => 0x7fc0_0000,
        FloatFmt::F32 => (v as f32).to_bits() as u64, // exact: v is an fp32 value
        _ if v.is_nan() => 0x7ff8_0000_0000_0000,
        _ => v.to_bits(),
    }
}

/// Fails with the count and the first ten mismatches, if any.
pub fn assert_all(failures: Vec<String>) {
    assert!(
        failures.is_empty(),
        "{} mismatches, first: {:?}",
        failures.len(),
        &failures[..failures.len().min(10)]
    );
}
