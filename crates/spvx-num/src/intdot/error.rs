//! The error type of the integer dot product module.

use super::slice::Backend;

/// Why an integer dot product could not be computed. Every variant names the offending
/// parameter; none depends on the component values themselves (every value has a defined result).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IntDotError {
    /// The component width is outside 1..=64.
    #[error("integer dot product: component width {0} is not supported (must be 1..=64 bits)")]
    ComponentWidth(u32),
    /// The result width is smaller than the component width (the spec requires Width ≥ component Width).
    #[error(
        "integer dot product: result width {result_bits} is smaller than the component width {component_bits}"
    )]
    ResultNarrowerThanComponents {
        /// Width of the result type in bits.
        result_bits: u32,
        /// Width of the vector components in bits.
        component_bits: u32,
    },
    /// The result width exceeds [`super::MAX_RESULT_BITS`].
    #[error(
        "integer dot product: result width {0} exceeds the supported maximum of {max} bits",
        max = super::MAX_RESULT_BITS
    )]
    ResultTooWide(u32),
    /// A `u64` entry point was called with a result wider than 64 bits.
    #[error("integer dot product: result width {0} does not fit in u64; use the *_wide functions")]
    ResultNeedsWide(u32),
    /// The two vectors have different numbers of components.
    #[error("integer dot product: Vector 1 has {vector1} components but Vector 2 has {vector2}")]
    LengthMismatch {
        /// Components of Vector 1.
        vector1: usize,
        /// Components of Vector 2.
        vector2: usize,
    },
    /// A wide accumulator has bits set above the result width.
    #[error(
        "integer dot product: accumulator has {bits} significant bits, more than the result width {result_bits}"
    )]
    AccumulatorTooWide {
        /// Significant bits of the accumulator pattern.
        bits: u64,
        /// Width of the result type.
        result_bits: u32,
    },
    /// A slice argument of a packed slice function has the wrong length.
    #[error("packed 4x8 dot product: slice `{name}` has {len} elements, expected {expected}")]
    SliceLength {
        /// Parameter name of the slice.
        name: &'static str,
        /// Its length.
        len: usize,
        /// The length of `out`, which every input must match.
        expected: usize,
    },
    /// The requested SIMD backend is not supported by this CPU (or this build's architecture).
    #[error("packed 4x8 dot product: backend {0} is not available on this CPU")]
    BackendUnavailable(Backend),
}
