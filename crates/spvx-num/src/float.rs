//! Low-precision floating-point formats and exact conversions between them.
//!
//! Formats: fp16 (IEEE binary16), bf16, fp8 E4M3 (OCP "E4M3FN": no infinities, NaN is
//! S.1111.111 only, max 448), fp8 E5M2 (IEEE-like), tf32 (1-8-10 held in the high 19 bits of a
//! 32-bit word), fp32 and fp64. A value is handled as its bit pattern (`u64`, low bits) together
//! with a [`Format`].
//!
//! - [`format`]: the [`Format`] description, its constants and bit-field access.
//! - [`class`]: classification ([`FloatClass`]).
//! - [`value`]: exact decoding of any bit pattern to a [`Decoded`] value (a [`Dyadic`] rational
//!   for finite values).
//! - [`round`]: rounding of any exact value (integer mantissa of any size, power-of-two exponent,
//!   or a ratio of integers) to any format under [`RoundingMode`], with or without saturation.
//! - [`convert`]: conversions between formats, including NaN and infinity rules.
//! - [`parse`]: decimal text to a format, correctly rounded.
//! - [`exact_sum`]: the exactly computed sum of products, rounded once (the basis of the
//!   mixed float dot product models).
//!
//! Every decision (NaN patterns, overflow without infinities, signed zeros) is documented on the
//! function that makes it and in `docs/semantics/mixed-dot.md` ("Float formats").

pub mod class;
pub mod convert;
pub mod error;
pub mod exact_sum;
pub mod format;
pub mod parse;
pub mod round;
pub mod value;

pub use class::FloatClass;
pub use convert::{F64Rounder, convert};
pub use error::FloatError;
pub use exact_sum::{ExactSum, Term, round_sum};
pub use format::{Format, Specials};
pub use round::RoundingMode;
pub use value::{Decoded, Dyadic};
