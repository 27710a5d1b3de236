//! The precision table of the Vulkan specification (appendix "Vulkan Environment for SPIR-V",
//! section "Precision and Operation of SPIR-V Instructions"): how far an implementation's
//! result of one float operation may be from the infinitely precise one, per operation and
//! per width (fp16, fp32), and the check of one element against it.
//!
//! The reference side of a comparison is spvx's engine, whose results are correctly rounded
//! (docs/semantics/arithmetic.md). A bound of B ULPs from the exact value is checked against
//! the correctly rounded value: accepted when the distance in representable values is at most
//! B + ½ (the correctly rounded value is itself within ½ ULP of the exact one), so the check is
//! at most half an ULP lenient, never strict. Absolute bounds likewise: accepted when the exact
//! difference is below the bound. The table and its sources: docs/semantics/comparison.md.

use crate::ElemType;
use spvx_num::float::{ExactSum, RoundingMode, Term};
use spvx_spirv::op::{GlslStd450, Op};

/// What the Vulkan specification requires of one operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    /// An exact result (comparisons, integer operations, moves, min/max, floor ...).
    Exact,
    /// Correctly rounded (OpFAdd, OpFSub, OpFMul, conversions): the exact result rounded, in a
    /// rounding mode Vulkan leaves unspecified unless the entry point declares
    /// RoundingModeRTE or RoundingModeRTZ for the width.
    CorrectlyRounded,
    /// At most this many half-ULPs from the exact result (2 ULP: 4).
    HalfUlps(u32),
    /// At most this many half-ULPs when an operand lies in a range; outside it the precision
    /// is undefined (OpFDiv: the divisor's magnitude in [2^-126, 2^126] for fp32).
    HalfUlpsInRange { half_ulps: u32, range: &'static str },
    /// `(base + 2·|x|)` ULPs (exp, exp2): at least `base`, more for larger |x|.
    ExpLike { base: u32 },
    /// 3 ULPs outside x in [0.5, 2.0]; absolute error below 2^`abs_log2` inside (log, log2).
    LogLike { abs_log2: i32 },
    /// Absolute error at most 2^`abs_log2` for x in [-π, π] (sin, cos); undefined outside.
    AbsInRange { abs_log2: i32 },
    /// Defined by composition of other operations ("inherited from ..."): no per-element bound
    /// is derived.
    Inherited(&'static str),
    /// Order and precision implementation-defined (the VALVE mixed float dot products).
    ImplementationDefined,
}

impl Precision {
    /// The bound as the specification words it, for messages.
    pub fn describe(&self) -> String {
        match self {
            Precision::Exact => "exact".into(),
            Precision::CorrectlyRounded => "correctly rounded".into(),
            Precision::HalfUlps(h) => format!("{} ULP", half(*h)),
            Precision::HalfUlpsInRange { half_ulps, range } => {
                format!("{} ULP for {range}", half(*half_ulps))
            }
            Precision::ExpLike { base } => format!("{base} + 2·|x| ULP"),
            Precision::LogLike { abs_log2 } => {
                format!("3 ULP outside [0.5, 2.0], absolute error < 2^{abs_log2} inside")
            }
            Precision::AbsInRange { abs_log2 } => {
                format!("absolute error ≤ 2^{abs_log2} in [-π, π]")
            }
            Precision::Inherited(from) => format!("inherited from {from}"),
            Precision::ImplementationDefined => "implementation-defined".into(),
        }
    }
}

fn half(h: u32) -> String {
    if h.is_multiple_of(2) {
        (h / 2).to_string()
    } else {
        format!("{}.5", h / 2)
    }
}

/// The precision of core instruction `op` on floats of `width` bits (16, 32 or 64). fp64:
/// the specification asks "at least that of single precision", which spvx does not turn into
/// fp64 ULPs: every inexact fp64 operation is [`Precision::Inherited`].
pub fn of_op(op: Op, width: u32) -> Precision {
    use Op as O;
    match op {
        O::FAdd
        | O::FSub
        | O::FMul
        | O::FConvert
        | O::ConvertSToF
        | O::ConvertUToF
        | O::QuantizeToF16 => Precision::CorrectlyRounded,
        O::FDiv => match width {
            16 => Precision::HalfUlpsInRange {
                half_ulps: 5,
                range: "|divisor| in [2^-14, 2^14]",
            },
            32 => Precision::HalfUlpsInRange {
                half_ulps: 5,
                range: "|divisor| in [2^-126, 2^126]",
            },
            _ => Precision::Inherited("at least the precision of fp32"),
        },
        O::FRem | O::FMod => Precision::Inherited("x - y·trunc(x/y) / x - y·floor(x/y)"),
        O::Dot | O::VectorTimesScalar | O::MatrixTimesScalar => {
            Precision::Inherited("OpFMul and OpFAdd, in no fixed order")
        }
        O::VectorTimesMatrix | O::MatrixTimesVector | O::MatrixTimesMatrix | O::OuterProduct => {
            Precision::Inherited("OpFMul and OpFAdd, in no fixed order")
        }
        O::FDot2MixAcc32VALVE | O::FDot2MixAcc16VALVE | O::FDot4MixAcc32VALVE => {
            Precision::ImplementationDefined
        }
        _ => Precision::Exact,
    }
}

/// The precision of GLSL.std.450 instruction `f` on floats of `width` bits.
pub fn of_glsl(f: GlslStd450, width: u32) -> Precision {
    use GlslStd450 as G;
    let fp16 = width == 16;
    if width == 64 && !is_exact_glsl(f) {
        return Precision::Inherited("at least the precision of fp32");
    }
    match f {
        G::Exp | G::Exp2 => Precision::ExpLike {
            base: if fp16 { 1 } else { 3 },
        },
        G::Log | G::Log2 => Precision::LogLike {
            abs_log2: if fp16 { -7 } else { -21 },
        },
        G::InverseSqrt => Precision::HalfUlps(4),
        G::Sqrt => Precision::Inherited("1.0 / inversesqrt()"),
        G::Pow => Precision::Inherited("exp2(y · log2(x))"),
        G::Fma => Precision::Inherited("OpFMul followed by OpFAdd"),
        G::Sin | G::Cos => Precision::AbsInRange {
            abs_log2: if fp16 { -7 } else { -11 },
        },
        G::Tan => Precision::Inherited("sin() / cos()"),
        G::Asin | G::Acos | G::Atan | G::Atan2 => Precision::Inherited("atan2()"),
        G::Sinh | G::Cosh | G::Tanh | G::Asinh | G::Acosh | G::Atanh => {
            Precision::Inherited("exp() and log()")
        }
        _ if is_exact_glsl(f) => Precision::Exact,
        _ => Precision::Inherited("the function's definition in GLSL.std.450"),
    }
}

/// GLSL.std.450 functions whose result is exact (or correctly rounded) by definition.
fn is_exact_glsl(f: GlslStd450) -> bool {
    use GlslStd450 as G;
    matches!(
        f,
        G::Round
            | G::RoundEven
            | G::Trunc
            | G::FAbs
            | G::SAbs
            | G::FSign
            | G::SSign
            | G::Floor
            | G::Ceil
            | G::Fract
            | G::Modf
            | G::ModfStruct
            | G::FMin
            | G::UMin
            | G::SMin
            | G::FMax
            | G::UMax
            | G::SMax
            | G::FClamp
            | G::UClamp
            | G::SClamp
            | G::IMix
            | G::Step
            | G::Frexp
            | G::FrexpStruct
            | G::Ldexp
            | G::FindILsb
            | G::FindSMsb
            | G::FindUMsb
            | G::NMin
            | G::NMax
            | G::NClamp
            | G::PackDouble2x32
            | G::UnpackDouble2x32
            | G::UnpackHalf2x16
    )
}

/// The outcome of checking one element against a precision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// Within the bound (the distance in ULPs).
    Within(u64),
    /// Beyond the part of the bound spvx can check: the bound depends on what it does not
    /// know here (an operand), or is not derived at all.
    Open(String),
    /// Beyond the bound, whatever the operands.
    Beyond(u64),
}

/// Checks `actual` against the correctly rounded `reference` (two non-NaN floats of `elem`)
/// under precision `p`.
pub fn check(p: Precision, elem: ElemType, reference: u64, actual: u64) -> Check {
    let Some(d) = elem.ulp_distance(reference, actual) else {
        return Check::Beyond(0);
    };
    // Accepted: distance ≤ bound + ½, i.e. 2d ≤ half_ulps + 1.
    let within_half = |h: u32| d.saturating_mul(2) <= u64::from(h) + 1;
    match p {
        Precision::Exact | Precision::CorrectlyRounded => Check::Beyond(d),
        Precision::HalfUlps(h) if within_half(h) => Check::Within(d),
        Precision::HalfUlps(_) => Check::Beyond(d),
        Precision::HalfUlpsInRange { half_ulps, range } => {
            if within_half(half_ulps) {
                Check::Within(d)
            } else {
                Check::Open(format!(
                    "{d} ULPs apart: beyond {} ULP, which holds only for {range} (outside it the precision is undefined; spvx does not see the operand here)",
                    half(half_ulps)
                ))
            }
        }
        Precision::ExpLike { base } => {
            if within_half(2 * base) {
                Check::Within(d)
            } else {
                Check::Open(format!(
                    "{d} ULPs apart: the bound {base} + 2·|x| ULP grows with the operand, which spvx does not see here"
                ))
            }
        }
        Precision::LogLike { abs_log2 } => {
            if within_half(6) {
                Check::Within(d)
            } else if abs_below(elem, reference, actual, abs_log2) {
                Check::Open(format!(
                    "{d} ULPs apart: beyond 3 ULP but within the absolute error 2^{abs_log2}, which holds only for x in [0.5, 2.0]"
                ))
            } else {
                Check::Beyond(d)
            }
        }
        Precision::AbsInRange { abs_log2 } => {
            if abs_below(elem, reference, actual, abs_log2) {
                Check::Within(d)
            } else {
                Check::Open(format!(
                    "{d} ULPs apart: beyond the absolute error 2^{abs_log2}, which holds only for x in [-π, π]"
                ))
            }
        }
        Precision::Inherited(from) => Check::Open(format!(
            "{d} ULPs apart: the precision is inherited from {from}; spvx derives no bound for it"
        )),
        Precision::ImplementationDefined => Check::Open(format!(
            "{d} ULPs apart: order and precision are implementation-defined and no accumulation model gives this value"
        )),
    }
}

/// True when |a − b| < 2^k exactly (a, b finite floats of `elem`).
fn abs_below(elem: ElemType, a: u64, b: u64, k: i32) -> bool {
    let Some(f) = elem.float_format() else {
        return false;
    };
    if !f.is_finite(a) || !f.is_finite(b) {
        return false;
    }
    let (x, neg) = (f.decode(a), f.decode(b ^ f.sign_mask()));
    let sum = ExactSum::of(&[Term::Value(x), Term::Value(neg)]);
    match sum.finite_parts(RoundingMode::NearestEven) {
        Some((_, m, e)) => m.bits() == 0 || (m.bits() as i64) + e <= i64::from(k),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ulp_bounds_accept_half_an_ulp_beyond_the_bound_and_no_more() {
        // f32 1.0 = 0x3f800000. InverseSqrt: 2 ULP → distance 2 accepted, 3 refused.
        let p = of_glsl(GlslStd450::InverseSqrt, 32);
        assert_eq!(
            check(p, ElemType::F32, 0x3f800000, 0x3f800002),
            Check::Within(2)
        );
        assert_eq!(
            check(p, ElemType::F32, 0x3f800000, 0x3f800003),
            Check::Beyond(3)
        );
        // OpFDiv: 2.5 ULP → distance 3 accepted; 4 open (the divisor may be out of range).
        let p = of_op(Op::FDiv, 32);
        assert_eq!(
            check(p, ElemType::F32, 0x3f800000, 0x3f7ffffd),
            Check::Within(3)
        );
        assert!(matches!(
            check(p, ElemType::F32, 0x3f800000, 0x3f800004),
            Check::Open(_)
        ));
        // Exact operations accept nothing.
        let p = of_op(Op::FAdd, 32);
        assert_eq!(
            check(p, ElemType::F32, 0x3f800000, 0x3f800001),
            Check::Beyond(1)
        );
    }

    #[test]
    fn absolute_bounds_are_decided_exactly() {
        // sin, fp32: |d| ≤ 2^-11. 0.5 = 0x3f000000; 0.5 + 2^-12 = 0x3f000800 (ulp of 0.5 is
        // 2^-24, 2^-12 = 4096 ulps = 0x1000... 2^-12 / 2^-24 = 2^12 = 0x1000).
        let p = of_glsl(GlslStd450::Sin, 32);
        assert_eq!(
            check(p, ElemType::F32, 0x3f000000, 0x3f001000),
            Check::Within(0x1000)
        );
        // 2^-11 exactly apart (0x2000 ulps) is not below 2^-11: open (x may be outside [-π, π]).
        assert!(matches!(
            check(p, ElemType::F32, 0x3f000000, 0x3f002000),
            Check::Open(_)
        ));
        assert!(abs_below(ElemType::F32, 0x3f000000, 0x3f001fff, -11));
        assert!(!abs_below(ElemType::F32, 0x3f000000, 0x3f002000, -11));
    }
}
