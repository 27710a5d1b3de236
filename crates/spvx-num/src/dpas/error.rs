//! The error type of the DPAS element arithmetic.

use super::Precision;

/// Why a DPAS element operation could not be performed. Every variant names the offending
/// parameter.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DpasError {
    /// A vISA precision code that names no precision (0 = unused, 13 = unassigned, 15 = e2m1,
    /// not supported here, or > 15).
    #[error("dpas: unknown operand precision code {0}")]
    UnknownPrecisionCode(u8),
    /// A precision text name that is not one of u1 s1 u2 s2 u4 s4 u8 s8 bf hf tf32 bf8 hf8.
    #[error("dpas: unknown operand precision name `{0}`")]
    UnknownPrecisionName(String),
    /// Element `index` does not exist in a 32-bit channel of this precision.
    #[error(
        "dpas: element {index} is outside a 32-bit channel of {precision} ({per_channel} elements per channel)"
    )]
    ElementOutOfRange {
        /// The precision.
        precision: Precision,
        /// The requested element index (first element + count − 1 for runs).
        index: u32,
        /// Elements per 32-bit channel.
        per_channel: u32,
    },
    /// An integer operation got a float precision or the other way round.
    #[error("dpas: {op} needs {expected} precisions, got {precision}")]
    WrongPrecisionKind {
        /// The operation.
        op: &'static str,
        /// "integer" or "float".
        expected: &'static str,
        /// The precision given.
        precision: Precision,
    },
    /// The two sources' precisions cannot be combined in one DPAS (DPAS.md legal combinations:
    /// integer with integer, bf with bf, hf with hf, tf32 with tf32, fp8 with fp8).
    #[error("dpas: Src1 precision {src1} cannot be combined with Src2 precision {src2}")]
    IllegalCombination {
        /// Precision of Src1 (B, W).
        src1: Precision,
        /// Precision of Src2 (A, A).
        src2: Precision,
    },
    /// The elements of one source do not all have the same precision (a DPAS source has one
    /// precision, the W or A field).
    #[error("dpas: {operand} mixes precisions {first} and {other}")]
    InconsistentPrecision {
        /// "Src1" or "Src2".
        operand: &'static str,
        /// Precision of its first element.
        first: Precision,
        /// A different precision found later.
        other: Precision,
    },
    /// The two element lists of a dot product have different lengths.
    #[error("dpas: Src1 has {src1} elements but Src2 has {src2}")]
    LengthMismatch {
        /// Elements of Src1.
        src1: usize,
        /// Elements of Src2.
        src2: usize,
    },
    /// A 32-bit-channel operation got df elements (64-bit channels; see `df_dot`).
    #[error("dpas: {op} works on 32-bit channels; df elements occupy 64-bit channels (use df_dot)")]
    WideElement {
        /// The operation.
        op: &'static str,
    },
    /// The element count is not a multiple of OPS_PER_CHAN, as the subword-major order needs.
    #[error("dpas: {len} elements is not a multiple of OPS_PER_CHAN = {ops}")]
    NotWholeChannels {
        /// Number of elements.
        len: usize,
        /// OPS_PER_CHAN of the precisions.
        ops: u32,
    },
}
