//! Lane shuffles of 128-bit vectors that Cranelift's x64 backend emits as one instruction,
//! shared by the mixed-dot models and the vector lanes.

use cranelift_codegen::ir::{ConstantData, Endianness, InstBuilder, MemFlagsData, Value, types};
use cranelift_frontend::FunctionBuilder;

/// Two vectors' low 64-bit halves side by side (`punpcklqdq`), as a `ty`.
pub(super) fn low_halves(b: &mut FunctionBuilder, ty: types::Type, x: Value, y: Value) -> Value {
    shuffle(b, ty, x, y, LOW_QUADS)
}

/// Two vectors' high 64-bit halves side by side (`punpckhqdq`), as a `ty`.
pub(super) fn high_halves(b: &mut FunctionBuilder, ty: types::Type, x: Value, y: Value) -> Value {
    shuffle(b, ty, x, y, HIGH_QUADS)
}

/// The even 32-bit words of `x` and then of `y` (two `i64x2` vectors: each lane's low half),
/// as one `i32x4` (`shufps`).
pub(super) fn even_words(b: &mut FunctionBuilder, x: Value, y: Value) -> Value {
    shuffle(b, types::I32X4, x, y, EVEN_WORDS)
}

const LOW_QUADS: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23];
const HIGH_QUADS: [u8; 16] = [8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31];
/// Bytes of words 0 and 2 of the first vector, then of the second.
const EVEN_WORDS: [u8; 16] = [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27];

/// The shuffle `mask` of `x` and `y` (bytes; 16–31 are `y`'s), as a `ty`.
fn shuffle(b: &mut FunctionBuilder, ty: types::Type, x: Value, y: Value, mask: [u8; 16]) -> Value {
    let little = MemFlagsData::new().with_endianness(Endianness::Little);
    let x = b.ins().bitcast(types::I8X16, little, x);
    let y = b.ins().bitcast(types::I8X16, little, y);
    let mask = b.func.dfg.immediates.push(ConstantData::from(&mask[..]));
    let r = b.ins().shuffle(x, y, mask);
    b.ins().bitcast(ty, little, r)
}
