//! Arbitrary-precision fixed point with ac_fixed semantics
//! (SPV_INTEL_arbitrary_precision_fixed_point).
//!
//! A fixed-point format has `W` bits, `I` integer bits (any `i32`) and a signedness; the value of
//! the raw integer `N` held in the bits is `N · 2^(I − W)` ([`FixedFormat`]). Exact values are
//! converted to such a format by quantization ([`Quantization`], SPIR-V numbering) followed by
//! overflow handling ([`Overflow`]), exactly as ac_types does ([`convert`]).
//!
//! The eleven math instructions ([`FixedFunction`]) are evaluated by [`evaluate`]: the
//! mathematically exact value of the function at the exact input is quantized under Q and O into
//! the result format. Algebraic functions use exact integer arithmetic; transcendental ones use
//! rigorous interval (ball) arithmetic on big integers inside an adaptive-precision (Ziv) loop,
//! bounded by [`EvalLimits`]. Formats of at most 64 bits first take a fast path (native
//! integers; double precision with a proven error bound, rounded directly when the bound decides
//! the result) and fall back to that exact path for the rest ([`evaluate_exact`] is the exact
//! path alone); [`evaluate_batch`] runs one operation over a slice of bit patterns.
//!
//! Every semantic decision is in `docs/semantics/fixed-point.md`.

pub mod abi;
mod ball;
mod batch;
mod consts;
mod convert;
mod error;
mod eval;
mod fast;
mod format;
mod funcs;
mod modes;
mod quantize;
mod ziv;

pub use batch::{BatchStats, evaluate_batch, evaluate_batch_parallel};
pub use convert::{Dyadic, MAX_DECIMAL_BITS, convert_dyadic, convert_rational};
pub use error::{BatchError, FixedError};
pub use eval::{
    Approximation, EvalLimits, Exception, FixedFunction, FixedOp, FixedOutcome, FixedValue,
    approximate, evaluate, evaluate_exact, evaluate_with_limits,
};
pub use fast::native::MAX_FAST_WIDTH;
pub use format::{FixedFormat, MAX_WIDTH};
pub use modes::{Overflow, Quantization, signedness_from_spirv};
pub use quantize::{apply_overflow, quantize_dyadic, quantize_rational};
