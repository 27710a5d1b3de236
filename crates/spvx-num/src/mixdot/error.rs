//! Errors of the mixed dot product module (bad operation, encoding or operand combinations).

use thiserror::Error;

/// An invalid mixed dot product request.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MixdotError {
    /// Unknown operation name.
    #[error("unknown mixed dot operation `{0}` (expected dot2acc32, dot2acc16 or dot4acc32)")]
    UnknownOp(String),
    /// Unknown encoding name.
    #[error("unknown input encoding `{0}` (expected f16, bf16, e4m3 or e5m2)")]
    UnknownEncoding(String),
    /// Unknown model name.
    #[error(
        "unknown accumulation model `{0}` (expected exact, sequential, sequential-acc-first, fused-products or fma-chain)"
    )]
    UnknownModel(String),
    /// The encoding does not fit the operation.
    #[error("{op} takes {expected} inputs, not {got}")]
    WrongEncoding {
        /// Operation name.
        op: &'static str,
        /// What the operation accepts.
        expected: &'static str,
        /// The encoding given.
        got: &'static str,
    },
    /// The two vectors of a Dot2 operation have different encodings.
    #[error("{op} needs both vectors in the same encoding (got {enc1} and {enc2})")]
    MixedEncodings {
        /// Operation name.
        op: &'static str,
        /// Encoding of vector 1.
        enc1: &'static str,
        /// Encoding of vector 2.
        enc2: &'static str,
    },
    /// The accumulator does not fit the result width.
    #[error("accumulator {acc:#x} does not fit the {width}-bit result type of {op}")]
    AccumulatorTooWide {
        /// Operation name.
        op: &'static str,
        /// Result width in bits.
        width: u32,
        /// The accumulator given.
        acc: u32,
    },
}
