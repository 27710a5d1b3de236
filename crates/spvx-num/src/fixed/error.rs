//! Typed errors of the fixed-point module.

use thiserror::Error;

/// Everything that can go wrong when describing or evaluating a fixed-point operation.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FixedError {
    /// A width of 0 or above [`crate::fixed::MAX_WIDTH`].
    #[error("invalid {what} width {width}: must be between 1 and {max}")]
    InvalidWidth {
        /// Which width ("input", "result", ...).
        what: &'static str,
        /// The rejected width.
        width: u64,
        /// The largest width accepted.
        max: u32,
    },
    /// A quantization mode operand outside 0..=7.
    #[error("invalid quantization mode {0}: the SPIR-V table 3.16b defines 0..=7")]
    InvalidQuantization(u32),
    /// An overflow mode operand outside 0..=3.
    #[error("invalid overflow mode {0}: the SPIR-V table 3.16c defines 0..=3")]
    InvalidOverflow(u32),
    /// A signedness operand other than 0 or 1.
    #[error("unknown {what} mode `{name}` (a SPIR-V number, or a name such as {example})")]
    UnknownModeName {
        what: &'static str,
        name: String,
        example: &'static str,
    },
    #[error("invalid signedness mode {0}: the SPIR-V table 3.16d defines 0 and 1")]
    InvalidSignedness(u32),
    /// Input bits that do not fit in the input width.
    #[error("input bits need {bits} bits but the input width is {width}")]
    InputTooWide {
        /// Significant bits of the given pattern.
        bits: u64,
        /// The input width W.
        width: u32,
    },
    /// An unknown function name.
    #[error("unknown fixed-point function `{0}`")]
    UnknownFunction(String),
    /// A denominator of zero given to an exact conversion.
    #[error("division by zero in an exact value")]
    ZeroDenominator,
    /// The exact result needs more working precision than the limit allows.
    #[error(
        "{function}: the exact result needs about {needed_bits} bits of working precision, \
         above the limit of {limit_bits} (see EvalLimits)"
    )]
    ResourceLimit {
        /// The function being evaluated.
        function: &'static str,
        /// Estimated precision needed.
        needed_bits: u64,
        /// The limit in force.
        limit_bits: u64,
    },
}

/// What can go wrong in a batch evaluation ([`crate::fixed::evaluate_batch`]).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BatchError {
    /// The batch API takes raw bit patterns as `u64`: widths above 64 are refused.
    #[error(
        "batch evaluation takes input and result widths up to 64 bits; the {what} width is \
         {width} (use evaluate for wider formats)"
    )]
    TooWide {
        /// "input" or "result".
        what: &'static str,
        /// The width given.
        width: u32,
    },
    /// The output slice does not have one value per input and component.
    #[error(
        "the output slice holds {got} values; {inputs} inputs × {per_input} components need {want}"
    )]
    OutputLength {
        /// Number of inputs.
        inputs: usize,
        /// Values per input (2 for sincos and sincospi, else 1).
        per_input: usize,
        /// inputs × per_input.
        want: usize,
        /// The length given.
        got: usize,
    },
    /// The operation itself is invalid (a format error).
    #[error("{0}")]
    Op(FixedError),
    /// One input failed; inputs before it have been evaluated.
    #[error("input {index}: {source}")]
    Input {
        /// Index of the input in the slice.
        index: usize,
        /// What went wrong.
        source: FixedError,
    },
}
