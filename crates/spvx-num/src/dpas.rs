//! DPAS element arithmetic (Intel vISA `dpas`, D = C + A × B): operand precisions, extraction of
//! elements from packed 32-bit channels, the integer dot4/dot8 steps with wrapping 32-bit
//! accumulation, and the float dot steps (bf16/fp16 dot2, tf32 dot1, fp8 dot4) under named
//! accumulation models, and the df (fp64) dot products. It knows nothing of register files,
//! repeat counts or systolic depth: the DPAS simulator (crate `spvx-dpas`) calls these
//! functions per channel and per depth.
//!
//! - [`Precision`]: the operand precisions with their vISA codes and text names, and
//!   [`ops_per_chan`].
//! - [`extract_int`], [`extract_float`]: element `k` of a 32-bit channel (element 0 in the least
//!   significant bits).
//! - [`int_dot`], [`int_dot_step`]: integer dot products, accumulated modulo 2^32.
//! - [`FloatModel`], [`float_dot`], [`float_dot_step`]: float dot products accumulated into an
//!   fp32 value; the default model is the sequential fp32 round-to-nearest-even chain of Intel's
//!   reference emulators. Float results are "emulator-compatible", not silicon-verified.
//! - [`df_dot`]: df (fp64) dot products with an fp64 accumulator (Xe3P), under the same
//!   models' df switches ([`DfProduct`]).
//! - [`acc_to_bf16`], [`acc_to_fp16`], [`bf16_to_acc`], [`fp16_to_acc`]: Src0/Dst conversions
//!   for BF/HF accumulators.
//!
//! Sources and decisions: `docs/semantics/dpas.md`, section "DPAS element arithmetic".

mod convert;
mod df_step;
mod error;
mod extract;
mod float_model;
mod float_step;
mod int_step;
mod precision;
mod widen;

pub use convert::{BfOutputRounding, acc_to_bf16, acc_to_fp16, bf16_to_acc, fp16_to_acc};
pub use df_step::df_dot;
pub use error::DpasError;
pub use extract::{FloatElement, PackedRun, extract_float, extract_int};
pub use float_model::{
    Accumulation, DenormalMode, DfProduct, FloatModel, Order, ProductRounding, Tf32Inputs,
};
pub use float_step::{float_dot, float_dot_step};
pub use int_step::{int_dot, int_dot_step};
pub use precision::{Precision, ops_per_chan};
