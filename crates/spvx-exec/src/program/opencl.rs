//! The OpenCL.std functions the engine implements with their own instruction
//! ([`crate::program::Inst::Ocl`]); the others compile to existing instructions (GLSL.std.450
//! math functions with the same definition, loads, stores, conversions, selects).

/// The operand type of an OpenCL.std function: a float format, or an integer width with the
/// function's signedness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OclType {
    Float(crate::program::FloatFmt),
    Int { bits: u8, signed: bool },
}

/// An OpenCL.std function on one component (one to three operands of the result type, except
/// where noted).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OclOp {
    // Float functions (evaluated in f64, rounded once to the format).
    /// sign: ±1.0, ±0.0 kept, NaN gives +0.0 (OpenCL C 6.15.4).
    Sign,
    /// frexp's mantissa (in [0.5, 1), or x itself for 0, ±∞, NaN).
    FrexpMant,
    /// frexp's exponent (32-bit integer; 0 for 0, ±∞, NaN).
    FrexpExp,
    /// remquo's quotient (32-bit integer) of `x / y`: the low 7 bits of the integer nearest
    /// `x / y` (ties to even), with the sign of `x / y`; 0 where the remainder is NaN, for
    /// `x = ±0` and for `y = ±∞`.
    RemquoQuo,
    /// lgamma_r's sign of Γ(x) (32-bit integer, ±1): −1 for −0 and for negative non-integers
    /// whose floor is odd, +1 otherwise (NaN, ±∞, poles included).
    LgammaSign,
    /// nan(nancode): the quiet NaN of the format with the low bits of the integer operand in
    /// the trailing significand below the quiet bit, sign positive.
    Nan,
    /// `a·b` rounded, then `+ c` rounded (OpenCL lets mad be either; spvx does not fuse).
    Mad,
    Copysign,
    Fdim,
    /// `x · 2^n`: `n` is a 32-bit integer operand (correctly rounded).
    Ldexp,
    Nextafter,
    /// IEEE remainder (exact).
    Remainder,
    /// ilogb: integer result (32-bit) of a float operand.
    Ilogb,
    Logb,
    Maxmag,
    Minmag,
    Cbrt,
    Expm1,
    Log1p,
    Log10,
    Exp10,
    Hypot,
    Asinh,
    Acosh,
    Atanh,
    SinPi,
    CosPi,
    TanPi,
    AsinPi,
    AcosPi,
    AtanPi,
    Atan2Pi,
    Erf,
    Erfc,
    Tgamma,
    Lgamma,
    /// `x^n` with a 32-bit integer `n`.
    Pown,
    /// `x^(1/n)` with a 32-bit integer `n`.
    Rootn,
    Powr,
    Recip,
    Divide,
    // Integer functions (modulo 2^bits unless saturating).
    AbsDiff,
    AddSat,
    SubSat,
    Hadd,
    Rhadd,
    MulHi,
    MadHi,
    MadSat,
    Rotate,
    Clz,
    Ctz,
    Mul24,
    Mad24,
    /// upsample(hi, lo): the result has twice the operand width (`bits` is the operand's).
    Upsample,
    /// bitselect(a, b, c) = (a & !c) | (b & c), on the bits of ints or floats.
    Bitselect,
}
