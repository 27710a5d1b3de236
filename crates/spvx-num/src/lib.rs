//! `spvx-num`: the exact arithmetic that the rest of spvx is built on.
//!
//! Pure arithmetic on bit patterns and exact values; it knows nothing of SPIR-V modules,
//! instructions or execution. The engine, the DPAS simulator and the validator's constant folding
//! all call these functions, so that every numeric result in spvx has one definition.
//!
//! - [`intdot`]: integer dot products (SPV_KHR_integer_dot_product), including packed 4×8.
//! - [`float`]: low-precision float formats (fp16, bf16, fp8 E4M3/E5M2, tf32, fp32, fp64) and
//!   conversions between them under every rounding mode.
//! - [`mixdot`]: mixed-precision float dot products (SPV_VALVE_mixed_float_dot_product) under
//!   named accumulation models.
//! - [`fixed`]: arbitrary-precision fixed point (ac_fixed semantics,
//!   SPV_INTEL_arbitrary_precision_fixed_point) and its eleven math functions.
//! - [`dpas`]: DPAS element arithmetic (operand precisions, packed extraction, dot steps).
//! - [`element`]: the element types of buffer data (`u8` … `f64`, `bf16`, `e4m3`, `e5m2`):
//!   names, sizes, written values as bits, printing, NaNs and ULP distances.
//!
//! Every semantic decision is recorded in `docs/semantics/README.md`.

pub mod dpas;
pub mod element;
pub mod fixed;
pub mod float;
pub mod intdot;
pub mod mixdot;
#[cfg(test)]
mod test_rng;
