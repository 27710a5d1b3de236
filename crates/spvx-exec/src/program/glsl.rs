//! GLSL.std.450 functions whose operands or results are not one scalar per component of the
//! same float type (packing, frexp/modf/ldexp, matrix and geometric functions), as operation
//! kinds decided at compile time. Executed by `exec::glsl`.

/// A GLSL.std.450 function on whole vectors or matrices. Operands are the first slots of
/// consecutive slot ranges (a value's scalar leaves); `n` is the component count of the float
/// vector operand (or the matrix order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GlslOp {
    /// Modf / ModfStruct: `dst[k]` the fraction, `dst[n + k]` the whole number of `a[k]`.
    Modf,
    /// Frexp / FrexpStruct: `dst[k]` the significand in ±[0.5, 1), `dst[n + k]` the exponent
    /// (an integer of `bits` bits).
    Frexp,
    /// Ldexp: `a[k] · 2^b[k]` (`b` integers of `bits` bits, signed), rounded once.
    Ldexp,
    /// PackSnorm4x8, PackUnorm4x8, PackSnorm2x16, PackUnorm2x16: fp32 vector → uint.
    PackSnorm4x8,
    PackUnorm4x8,
    PackSnorm2x16,
    PackUnorm2x16,
    /// PackHalf2x16: vec2 → uint (component 0 in the low half).
    PackHalf2x16,
    /// PackDouble2x32: uvec2 → double (component 0 the low word).
    PackDouble2x32,
    UnpackSnorm4x8,
    UnpackUnorm4x8,
    UnpackSnorm2x16,
    UnpackUnorm2x16,
    UnpackHalf2x16,
    UnpackDouble2x32,
    /// Determinant of an n×n matrix (`a` its n² leaves, column by column), exact then rounded
    /// once.
    Determinant,
    /// MatrixInverse: exact adjugate / determinant, each entry rounded once.
    MatrixInverse,
    /// Normalize: x / sqrt(dot(x, x)) with each step rounded in the format.
    Normalize,
    /// FaceForward(N = a, I = b, Nref = c): N if dot(Nref, I) < 0, else −N.
    FaceForward,
    /// Refract(I = a, N = b, eta = c (a scalar)), each step rounded in the format.
    Refract,
}
