//! Errors of the float module (parsing names and values given by users).

use thiserror::Error;

/// An error from parsing a format, rounding-mode or value given by a user.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FloatError {
    /// The name is not one of the known float formats.
    #[error("unknown float format `{0}` (expected one of f16, bf16, e4m3, e5m2, tf32, f32, f64)")]
    UnknownFormat(String),
    /// The name is not one of the rounding modes.
    #[error("unknown rounding mode `{0}` (expected one of rne, rtz, rtp, rtn)")]
    UnknownRoundingMode(String),
    /// The bit pattern has bits set above the format's storage width.
    #[error("bit pattern {bits:#x} does not fit the {bits_width}-bit format {format}")]
    BitsOutOfRange {
        /// Format name.
        format: &'static str,
        /// Storage width of the format in bits.
        bits_width: u32,
        /// The offending pattern.
        bits: u64,
    },
    /// A ratio with a zero denominator was given.
    #[error("division by zero in an exact value")]
    ZeroDenominator,
    /// A decimal number could not be parsed.
    #[error("cannot parse `{0}` as a decimal number (examples: 1.5, -0.25e3, inf, nan)")]
    BadDecimal(String),
}
