//! Mixed-precision float dot products of SPV_VALVE_mixed_float_dot_product:
//! `OpFDot2MixAcc32VALVE` (f16/bf16 pairs, f32 accumulator), `OpFDot2MixAcc16VALVE` (f16/bf16
//! pairs and accumulator) and `OpFDot4MixAcc32VALVE` (E4M3/E5M2 quads, mixed encodings allowed,
//! f32 accumulator).
//!
//! The extension leaves "exact order and precision" to the implementation, so the result depends
//! on a named accumulation [`Model`] (default [`Model::Exact`]: exact products and sum, one
//! rounding) and on switches in [`ModelConfig`] (flushing input/output denormals, the rounding
//! direction). See `docs/semantics/mixed-dot.md` ("Mixed float dot products") for every rule.
//!
//! - [`op`]: the three operations and the input encodings.
//! - [`model`]: the accumulation models and their configuration.
//! - [`eval`]: the evaluation of a model on decoded operands.
//! - [`fast`]: native arithmetic (nearest even, no flushing): the exact model case by case, and
//!   batches over slices under every model; `decode` (inputs to f64), `sum3` (the correct
//!   rounding of an exact three-term sum), `kernels` (one case per operation, encodings and
//!   model) and `drive` (chunked, vectorised loops over slices) are its parts.
//! - [`bulk`]: one form (operation and encodings) over slices under any configuration, on all
//!   cores: the dispatch to `fast`'s batch functions shared by `spvx calc mixdot` and the Python
//!   package.
//! - [`abi`]: the configuration as one word and C-ABI functions of one case, for generated
//!   code (the engine's JIT).
//! - [`api`]: typed entry points (`dot2_acc32`, `dot2_acc16`, `dot4_acc32`) and the word-level
//!   [`MixdotCase`] used by the CLI and the engine.

pub mod abi;
pub mod api;
pub mod bulk;
mod decode;
mod drive;
pub mod error;
pub mod eval;
pub mod fast;
mod kernels;
pub mod model;
pub mod op;
mod sum3;

pub use api::{
    Explanation, MixdotCase, dot2_acc16, dot2_acc32, dot4_acc32, exact_dot2_acc16,
    exact_dot2_acc32, exact_dot4_acc32,
};
pub use error::MixdotError;
pub use model::{Model, ModelConfig};
pub use op::{Encoding, Fp8Encoding, Half16Encoding, MixOp};
