//! The eleven math instructions of SPV_INTEL_arbitrary_precision_fixed_point: operation
//! description, outcome, and dispatch to the function implementations in `funcs`.

use super::convert::Dyadic;
use super::fast::FastPlan;
use super::funcs;
use super::ziv::Target;
use super::{FixedError, FixedFormat, Overflow, Quantization};
use num_bigint::{BigInt, BigUint};
use num_traits::ToPrimitive;
use std::fmt;
use std::str::FromStr;

/// One of the eleven instructions (opcodes 5923–5933).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FixedFunction {
    /// OpFixedSqrtINTEL: √x (undefined for x < 0).
    Sqrt,
    /// OpFixedRecipINTEL: 1/x.
    Recip,
    /// OpFixedRsqrtINTEL: 1/√x (undefined for x < 0).
    Rsqrt,
    /// OpFixedSinINTEL: sin x, x in radians.
    Sin,
    /// OpFixedCosINTEL: cos x, x in radians.
    Cos,
    /// OpFixedSinCosINTEL: (sin x, cos x).
    SinCos,
    /// OpFixedSinPiINTEL: sin πx.
    SinPi,
    /// OpFixedCosPiINTEL: cos πx.
    CosPi,
    /// OpFixedSinCosPiINTEL: (sin πx, cos πx).
    SinCosPi,
    /// OpFixedLogINTEL: natural logarithm.
    Log,
    /// OpFixedExpINTEL: e^x.
    Exp,
}

impl FixedFunction {
    /// All eleven, in opcode order.
    pub const ALL: [FixedFunction; 11] = [
        FixedFunction::Sqrt,
        FixedFunction::Recip,
        FixedFunction::Rsqrt,
        FixedFunction::Sin,
        FixedFunction::Cos,
        FixedFunction::SinCos,
        FixedFunction::SinPi,
        FixedFunction::CosPi,
        FixedFunction::SinCosPi,
        FixedFunction::Log,
        FixedFunction::Exp,
    ];

    /// The short name used by `spvx calc fixed` (`sqrt`, `recip`, …, `exp`).
    pub fn name(self) -> &'static str {
        match self {
            FixedFunction::Sqrt => "sqrt",
            FixedFunction::Recip => "recip",
            FixedFunction::Rsqrt => "rsqrt",
            FixedFunction::Sin => "sin",
            FixedFunction::Cos => "cos",
            FixedFunction::SinCos => "sincos",
            FixedFunction::SinPi => "sinpi",
            FixedFunction::CosPi => "cospi",
            FixedFunction::SinCosPi => "sincospi",
            FixedFunction::Log => "log",
            FixedFunction::Exp => "exp",
        }
    }

    /// The SPIR-V opcode (5923 for Sqrt … 5933 for Exp).
    pub fn opcode(self) -> u32 {
        5923 + self as u32
    }

    /// The function with SPIR-V opcode `op`, if any.
    pub fn from_opcode(op: u32) -> Option<Self> {
        op.checked_sub(5923)
            .and_then(|i| Self::ALL.get(i as usize).copied())
    }

    /// Whether the result is a (sin, cos) pair.
    pub fn is_pair(self) -> bool {
        matches!(self, FixedFunction::SinCos | FixedFunction::SinCosPi)
    }

    /// The number of result values: 2 for the pairs, else 1.
    pub fn components(self) -> usize {
        if self.is_pair() { 2 } else { 1 }
    }
}

impl FromStr for FixedFunction {
    type Err = FixedError;
    fn from_str(s: &str) -> Result<Self, FixedError> {
        Self::ALL
            .iter()
            .copied()
            .find(|f| f.name() == s)
            .ok_or_else(|| FixedError::UnknownFunction(s.to_string()))
    }
}

impl fmt::Display for FixedFunction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One instruction instance: function, the shared signedness S, input (W, I), result (rW, rI),
/// and the Q and O modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FixedOp {
    /// Which function.
    pub function: FixedFunction,
    /// S: applies to input and result alike (SPIR-V table 3.16d).
    pub signed: bool,
    /// W.
    pub input_width: u32,
    /// I.
    pub input_int_bits: i32,
    /// rW (of each component for SinCos / SinCosPi).
    pub result_width: u32,
    /// rI.
    pub result_int_bits: i32,
    /// Q.
    pub quantization: Quantization,
    /// O.
    pub overflow: Overflow,
}

impl FixedOp {
    /// The input format `<W, I, S>`.
    pub fn input_format(&self) -> Result<FixedFormat, FixedError> {
        FixedFormat::new(self.input_width, self.input_int_bits, self.signed).map_err(|e| match e {
            FixedError::InvalidWidth { width, max, .. } => FixedError::InvalidWidth {
                what: "input",
                width,
                max,
            },
            other => other,
        })
    }

    /// The result format `<rW, rI, S>`.
    pub fn result_format(&self) -> Result<FixedFormat, FixedError> {
        FixedFormat::new(self.result_width, self.result_int_bits, self.signed).map_err(
            |e| match e {
                FixedError::InvalidWidth { width, max, .. } => FixedError::InvalidWidth {
                    what: "result",
                    width,
                    max,
                },
                other => other,
            },
        )
    }
}

/// Resource bounds of an evaluation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EvalLimits {
    /// The largest working precision (bits) any step may use; beyond it evaluation fails with
    /// [`FixedError::ResourceLimit`] instead of running for a long time.
    pub max_precision_bits: u64,
}

impl Default for EvalLimits {
    /// 2^17 bits of working precision.
    fn default() -> Self {
        EvalLimits {
            max_precision_bits: 1 << 17,
        }
    }
}

/// A special input met during evaluation: the value returned is the documented deterministic
/// one (docs/semantics/fixed-point.md), and the engine may report the event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Exception {
    /// Sqrt of x < 0: undefined per the spec; result bits 0.
    SqrtOfNegative,
    /// Rsqrt of x < 0: undefined per the spec; result bits 0.
    RsqrtOfNegative,
    /// Rsqrt of 0 (+∞): positive overflow (WRAP gives MAX).
    RsqrtOfZero,
    /// Recip of 0 (+∞): positive overflow (WRAP gives MAX).
    RecipOfZero,
    /// Log of 0 (−∞): negative overflow (WRAP gives MIN).
    LogOfZero,
    /// Log of x < 0 (no real value): result bits 0.
    LogOfNegative,
}

impl Exception {
    /// Whether the SPIR-V spec itself calls this case undefined behaviour (sqrt and rsqrt of
    /// negative inputs); the other cases are mathematically undefined and the spec is silent.
    pub fn spec_undefined(self) -> bool {
        matches!(self, Exception::SqrtOfNegative | Exception::RsqrtOfNegative)
    }

    /// A one-line description.
    pub fn description(self) -> &'static str {
        match self {
            Exception::SqrtOfNegative => "sqrt of a negative value (undefined behaviour)",
            Exception::RsqrtOfNegative => "rsqrt of a negative value (undefined behaviour)",
            Exception::RsqrtOfZero => "rsqrt of zero (+infinity)",
            Exception::RecipOfZero => "reciprocal of zero (+infinity)",
            Exception::LogOfZero => "log of zero (-infinity)",
            Exception::LogOfNegative => "log of a negative value (no real result)",
        }
    }
}

/// The result bits of one instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FixedValue {
    /// An rW-bit pattern.
    Single(BigUint),
    /// SinCos / SinCosPi: two rW-bit patterns.
    Pair {
        /// The sine (vector component 0).
        sin: BigUint,
        /// The cosine (vector component 1).
        cos: BigUint,
    },
}

impl FixedValue {
    /// The bits as one integer: a single value as is; a pair packed as the producers' 2·rW-bit
    /// scalar with the sine in the high half and the cosine in the low half.
    pub fn packed(&self, result_width: u32) -> BigUint {
        match self {
            FixedValue::Single(b) => b.clone(),
            FixedValue::Pair { sin, cos } => (sin << result_width) | cos,
        }
    }

    /// The components in vector order (one, or sine then cosine).
    pub fn components(&self) -> Vec<&BigUint> {
        match self {
            FixedValue::Single(b) => vec![b],
            FixedValue::Pair { sin, cos } => vec![sin, cos],
        }
    }
}

/// What an instruction produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixedOutcome {
    /// The result bits.
    pub value: FixedValue,
    /// A special input that was met, if any.
    pub exception: Option<Exception>,
}

/// Evaluates `op` on the W-bit input pattern `input`: the exact f(x) quantized under Q, then
/// overflow-handled under O, into `<rW, rI, S>`. Widths up to 64 bits take the fast path
/// (native integers, or double precision with a proven error bound) when it settles the input,
/// else the exact path [`evaluate_exact`]; the result is the same either way.
pub fn evaluate(op: &FixedOp, input: &BigUint) -> Result<FixedOutcome, FixedError> {
    if let (Some(plan), Some(bits)) = (FastPlan::new(op), input.to_u64())
        && let Ok(n) = plan.decode(bits)
        && let Some((v, c, exception)) = plan.eval(n)
    {
        let value = if op.function.is_pair() {
            FixedValue::Pair {
                sin: BigUint::from(v),
                cos: BigUint::from(c),
            }
        } else {
            FixedValue::Single(BigUint::from(v))
        };
        return Ok(FixedOutcome { value, exception });
    }
    evaluate_exact(op, input)
}

/// Evaluates `op` on `input` by the exact path alone (big-integer and ball arithmetic in a
/// Ziv loop) with the default [`EvalLimits`]: the reference the fast path is tested against.
pub fn evaluate_exact(op: &FixedOp, input: &BigUint) -> Result<FixedOutcome, FixedError> {
    evaluate_with_limits(op, input, &EvalLimits::default())
}

/// Evaluates `op` on the W-bit input pattern `input` by the exact path, within `limits`: the
/// exact f(x) quantized under Q, then overflow-handled under O, into `<rW, rI, S>`.
pub fn evaluate_with_limits(
    op: &FixedOp,
    input: &BigUint,
    limits: &EvalLimits,
) -> Result<FixedOutcome, FixedError> {
    let in_fmt = op.input_format()?;
    let out_fmt = op.result_format()?;
    let (raws, exception) = evaluate_raw(
        op.function,
        &in_fmt,
        input,
        &out_fmt,
        op.quantization,
        op.overflow,
        limits,
    )?;
    let value = match raws.as_slice() {
        [s, c] => FixedValue::Pair {
            sin: out_fmt.encode(s),
            cos: out_fmt.encode(c),
        },
        [m] => FixedValue::Single(out_fmt.encode(m)),
        _ => FixedValue::Single(BigUint::default()),
    };
    Ok(FixedOutcome { value, exception })
}

/// A decimal-printable approximation of the exact f(x), for display.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Approximation {
    /// f(x) truncated toward zero to `frac_bits` fractional bits (sine then cosine for pairs).
    pub values: Vec<Dyadic>,
    /// Whether some component is beyond ±2^200 (the value shown is then clamped).
    pub beyond_range: bool,
    /// A special input, if met (the values are then meaningless).
    pub exception: Option<Exception>,
}

/// f(x) for the W-bit input `input` of `in_fmt`, truncated toward zero to `frac_bits` bits.
pub fn approximate(
    function: FixedFunction,
    in_fmt: &FixedFormat,
    input: &BigUint,
    frac_bits: u32,
) -> Result<Approximation, FixedError> {
    const INT_BITS: u32 = 201;
    let out_fmt = FixedFormat::new(INT_BITS + frac_bits, INT_BITS as i32, true)?;
    let (raws, exception) = evaluate_raw(
        function,
        in_fmt,
        input,
        &out_fmt,
        Quantization::TrnZero,
        Overflow::Sat,
        &EvalLimits::default(),
    )?;
    let beyond_range = raws
        .iter()
        .any(|m| *m == out_fmt.raw_max() || *m == out_fmt.raw_min());
    Ok(Approximation {
        values: raws
            .into_iter()
            .map(|m| Dyadic::from_raw(m, &out_fmt))
            .collect(),
        beyond_range,
        exception,
    })
}

/// The raw result integers (one, or sine and cosine) and any exception.
fn evaluate_raw(
    function: FixedFunction,
    in_fmt: &FixedFormat,
    input: &BigUint,
    out_fmt: &FixedFormat,
    q: Quantization,
    o: Overflow,
    limits: &EvalLimits,
) -> Result<(Vec<BigInt>, Option<Exception>), FixedError> {
    let n = in_fmt.decode(input)?;
    let x = Dyadic::from_raw(n, in_fmt);
    let target = Target {
        fmt: out_fmt,
        q,
        o,
        limits,
        function: function.name(),
    };
    let one = |(m, e): (BigInt, Option<Exception>)| (vec![m], e);
    use funcs::trig::{Which, trig};
    Ok(match function {
        FixedFunction::Sqrt => one(funcs::algebraic::sqrt(&x, &target)?),
        FixedFunction::Recip => one(funcs::algebraic::recip(&x, &target)?),
        FixedFunction::Rsqrt => one(funcs::algebraic::rsqrt(&x, &target)?),
        FixedFunction::Exp => (vec![funcs::exp::exp(&x, &target)?], None),
        FixedFunction::Log => one(funcs::log::log(&x, &target)?),
        FixedFunction::Sin => (vec![trig(&x, false, Which::Sin, &target)?], None),
        FixedFunction::Cos => (vec![trig(&x, false, Which::Cos, &target)?], None),
        FixedFunction::SinPi => (vec![trig(&x, true, Which::Sin, &target)?], None),
        FixedFunction::CosPi => (vec![trig(&x, true, Which::Cos, &target)?], None),
        FixedFunction::SinCos | FixedFunction::SinCosPi => {
            let pi_scaled = function == FixedFunction::SinCosPi;
            let s = trig(&x, pi_scaled, Which::Sin, &target)?;
            let c = trig(&x, pi_scaled, Which::Cos, &target)?;
            (vec![s, c], None)
        }
    })
}
