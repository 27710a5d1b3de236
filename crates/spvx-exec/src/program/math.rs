//! The extended-instruction math functions the engine implements (GLSL.std.450 subset), as
//! operation kinds decided at compile time.

/// Float functions of GLSL.std.450 (one to three operands of the same float type).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MathFn {
    FAbs,
    FSign,
    Floor,
    Ceil,
    Trunc,
    Round,
    RoundEven,
    Fract,
    Sqrt,
    InverseSqrt,
    Exp,
    Exp2,
    Log,
    Log2,
    Pow,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Atan2,
    Sinh,
    Cosh,
    Tanh,
    Asinh,
    Acosh,
    Atanh,
    Radians,
    Degrees,
    FMin,
    FMax,
    FClamp,
    NMin,
    NMax,
    NClamp,
    FMix,
    Step,
    SmoothStep,
    Fma,
}

impl MathFn {
    /// Number of operands.
    pub fn arity(self) -> usize {
        use MathFn::*;
        match self {
            Pow | Atan2 | FMin | FMax | NMin | NMax | Step => 2,
            FClamp | NClamp | FMix | SmoothStep | Fma => 3,
            _ => 1,
        }
    }
}

/// Integer functions of GLSL.std.450.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IMathFn {
    SAbs,
    SSign,
    UMin,
    UMax,
    SMin,
    SMax,
    UClamp,
    SClamp,
    FindILsb,
    FindSMsb,
    FindUMsb,
}

impl IMathFn {
    /// Number of operands.
    pub fn arity(self) -> usize {
        use IMathFn::*;
        match self {
            UMin | UMax | SMin | SMax => 2,
            UClamp | SClamp => 3,
            _ => 1,
        }
    }
}
