//! The fast path for inputs and results of at most 64 bits: native integers for sqrt, recip
//! and rsqrt (exact), double precision with a proven error bound for the transcendental
//! functions (decided when the bound allows), then 116-bit fixed point with a proven bound for
//! what the double step leaves undecided (`wide`). A [`FastPlan`] answers None for any input it does
//! not settle (special inputs, exact points, hard cases, sizes beyond 128-bit integers); the
//! caller then takes the exact path, which stays the reference.

mod algebraic;
mod exp2_table;
pub(crate) mod native;
mod q116;
mod transcendental;
mod wide;

use super::{Exception, FixedError, FixedFunction, FixedOp};
use native::NativeTarget;
use transcendental::Trans;

/// An operation prepared for the fast path.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FastPlan {
    function: FixedFunction,
    in_width: u32,
    signed: bool,
    /// I − W: x = n · 2^a.
    a: i64,
    target: NativeTarget,
}

impl FastPlan {
    /// The plan of `op`; None when a width is above 64 (or 0).
    pub fn new(op: &FixedOp) -> Option<Self> {
        if op.input_width == 0 || op.input_width > native::MAX_FAST_WIDTH {
            return None;
        }
        let target = NativeTarget::new(
            op.result_width,
            op.result_int_bits,
            op.signed,
            op.quantization,
            op.overflow,
        )?;
        Some(FastPlan {
            function: op.function,
            in_width: op.input_width,
            signed: op.signed,
            a: op.input_int_bits as i64 - op.input_width as i64,
            target,
        })
    }

    /// The raw input integer n of the W-bit pattern `bits` (x = n · 2^(I−W)).
    pub fn decode(&self, bits: u64) -> Result<i128, FixedError> {
        let used = 64 - bits.leading_zeros();
        if used > self.in_width {
            return Err(FixedError::InputTooWide {
                bits: used as u64,
                width: self.in_width,
            });
        }
        if self.signed && (bits >> (self.in_width - 1)) & 1 == 1 {
            Ok(bits as i128 - (1i128 << self.in_width))
        } else {
            Ok(bits as i128)
        }
    }

    /// The result bits for raw input n: (value, 0), or (sin, cos) for the pair functions, and
    /// the special input met, if any; None when the fast path does not settle this input.
    pub fn eval(&self, n: i128) -> Option<(u64, u64, Option<Exception>)> {
        let (a, t) = (self.a, &self.target);
        let one = |m: Option<i128>| m.map(|m| (t.bits(m), 0, None));
        let special = |m: i128, e: Exception| Some((t.bits(m), 0, Some(e)));
        match self.function {
            FixedFunction::Sqrt if n > 0 => {
                one(algebraic::sqrt(n as u128, a, t).or_else(|| wide::eval_sqrt(n, a, t)))
            }
            FixedFunction::Sqrt if n == 0 => Some((0, 0, None)),
            FixedFunction::Sqrt => special(0, Exception::SqrtOfNegative),
            FixedFunction::Rsqrt if n > 0 => {
                let m = n as u128;
                one(algebraic::rsqrt(m, a, t)
                    .or_else(|| algebraic::rsqrt_wide(m, a, t))
                    .or_else(|| trans(Trans::Rsqrt, n, a, t)))
            }
            FixedFunction::Rsqrt if n == 0 => special(t.infinity(false), Exception::RsqrtOfZero),
            FixedFunction::Rsqrt => special(0, Exception::RsqrtOfNegative),
            FixedFunction::Recip if n != 0 => {
                one(algebraic::recip(n, a, t).or_else(|| wide::eval_recip(n, a, t)))
            }
            FixedFunction::Recip => special(t.infinity(false), Exception::RecipOfZero),
            FixedFunction::Log if n > 0 => one(trans(Trans::Log, n, a, t)),
            FixedFunction::Log if n == 0 => special(t.infinity(true), Exception::LogOfZero),
            FixedFunction::Log => special(0, Exception::LogOfNegative),
            FixedFunction::Exp => one(trans(Trans::Exp, n, a, t)),
            FixedFunction::Sin => one(trans(Trans::Sin, n, a, t)),
            FixedFunction::Cos => one(trans(Trans::Cos, n, a, t)),
            FixedFunction::SinPi => one(trans(Trans::SinPi, n, a, t)),
            FixedFunction::CosPi => one(trans(Trans::CosPi, n, a, t)),
            FixedFunction::SinCos | FixedFunction::SinCosPi => {
                let pi = self.function == FixedFunction::SinCosPi;
                transcendental::eval_pair(pi, n, a, t)
                    .or_else(|| wide::eval_pair(pi, n, a, t))
                    .map(|(s, c)| (t.bits(s), t.bits(c), None))
            }
        }
    }
}

/// f(x) by the double step, else by the 116-bit step; None when neither decides.
fn trans(f: Trans, n: i128, a: i64, t: &native::NativeTarget) -> Option<i128> {
    transcendental::eval(f, n, a, t).or_else(|| wide::eval(f, n, a, t))
}
