//! The VALVE mixed dots' rounding models as f64 arithmetic on exact products, for the JIT's
//! two lowerings: one dot at a time in `f64` values (`lower_mixdot`) and two at a time in
//! `f64x2` vectors (the vector lanes, `simd::mixdot`). Every f16, bf16, E4M3 and E5M2 value is
//! exact in f32, so each product of two of them is exact in f64; each addition is checked
//! exact ([`exact_add`]: both differences give back the other addend), and each rounding step
//! of a model is f32's rounding of such an exact value (a demotion, widened back exactly). A
//! case in which an addition rounded or met an infinity or NaN is flagged and left to
//! spvx-num.

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{
    AbiParam, Block, Endianness, InstBuilder, MemFlagsData, Signature, Value, types,
};
use cranelift_frontend::FunctionBuilder;

/// What the values are: one `f64`, or two dots' in an `f64x2` (flags then lane masks).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Form {
    Scalar,
    Pairs,
}

/// The configuration words the lowerings compute inline: `Model::ALL`'s indices under round to
/// nearest even without flushing (`mixdot::abi::config_word`); any other word calls spvx-num.
pub(super) const INLINE_MODELS: usize = 5;

/// Branches on the run's configuration word `word`: returns one new block per inline model
/// (index = the model's word), for the caller to fill, and leaves the builder in the block any
/// other word reaches.
pub(super) fn model_blocks(b: &mut FunctionBuilder, word: Value) -> [Block; INLINE_MODELS] {
    let blocks = [(); INLINE_MODELS].map(|_| b.create_block());
    for (model, blk) in blocks.iter().enumerate() {
        let next = b.create_block();
        let is = b.ins().icmp_imm_s(IntCC::Equal, word, model as i64);
        b.ins().brif(is, *blk, &[], next, &[]);
        b.switch_to_block(next);
    }
    blocks
}

/// Model `model` (index in `Model::ALL`) of `acc + Σ products` (exact f64 values) for an
/// f32 result, as an f64 whose demotion to f32 is the result, and a flag (per lane for
/// [`Form::Pairs`]: a lane mask) set when an addition rounded or met a NaN or infinity (the
/// case is then spvx-num's).
/// - 0 `exact`: ((p₀ + p₁) [+ (p₂ + p₃)]) + acc, rounded once (by the final demotion).
/// - 1 `sequential`: each product rounded, ((q₀ + q₁) + q₂) + q₃ each add rounded, + acc.
/// - 2 `sequential-acc-first`: s = acc, then s = round(s + round(pᵢ)) in lane order.
/// - 3 `fused-products`: round(round(Σ pᵢ) + acc).
/// - 4 `fma-chain`: s = acc, then s = round(s + pᵢ) in lane order.
pub(super) fn model_sum(
    b: &mut FunctionBuilder,
    form: Form,
    model: u8,
    products: &[Value],
    c: Value,
) -> (Value, Value) {
    let mut inexact = Vec::new();
    let exact_sum = |b: &mut FunctionBuilder, inexact: &mut Vec<Value>| {
        let mut sum = exact_add(b, products[0], products[1], inexact);
        if products.len() == 4 {
            let hi = exact_add(b, products[2], products[3], inexact);
            sum = exact_add(b, sum, hi, inexact);
        }
        sum
    };
    let sum = match model {
        0 => {
            let s = exact_sum(b, &mut inexact);
            exact_add(b, s, c, &mut inexact)
        }
        1 => {
            let q: Vec<Value> = products.iter().map(|&p| round32(b, form, p)).collect();
            let mut s = q[0];
            for &x in &q[1..] {
                let t = exact_add(b, s, x, &mut inexact);
                s = round32(b, form, t);
            }
            exact_add(b, s, c, &mut inexact)
        }
        2 => {
            let mut s = c;
            for &p in products {
                let q = round32(b, form, p);
                let t = exact_add(b, s, q, &mut inexact);
                s = round32(b, form, t);
            }
            s
        }
        3 => {
            let s = exact_sum(b, &mut inexact);
            let s = round32(b, form, s);
            exact_add(b, s, c, &mut inexact)
        }
        _ => {
            let mut s = c;
            for &p in products {
                let t = exact_add(b, s, p, &mut inexact);
                s = round32(b, form, t);
            }
            s
        }
    };
    let mut slow = inexact[0];
    for e in &inexact[1..] {
        slow = b.ins().bor(slow, *e);
    }
    (sum, slow)
}

/// An f64 (each lane of an `f64x2`) rounded to f32 (nearest even, gradual underflow, overflow
/// to ±inf) and widened back, exactly.
pub(super) fn round32(b: &mut FunctionBuilder, form: Form, x: Value) -> Value {
    match form {
        Form::Scalar => {
            let f = b.ins().fdemote(types::F32, x);
            b.ins().fpromote(types::F64, f)
        }
        Form::Pairs => {
            let f = b.ins().fvdemote(x);
            b.ins().fvpromote_low(f)
        }
    }
}

/// `x + y` in f64 (each lane of an `f64x2`), pushing onto `inexact` a flag that is set when
/// the addition rounded or met a NaN or infinity: when `s - x` is not `y` or `s - y` is not
/// `x` (each difference rounded, NaN compares unequal). An exact sum gives both addends back
/// exactly. A rounded one cannot: where |x| ≥ |y|, `s - x` is exact (Dekker's Fast2Sum
/// lemma: binary, round to nearest, no overflow; these values stay below 2^260, far inside
/// f64), so it equals the true `s - x`, which is not `y`; where |y| > |x|, the same holds for
/// `s - y` and `x`. Six operations, two of them deep, where Knuth's TwoSum error needs seven,
/// six deep.
fn exact_add(b: &mut FunctionBuilder, x: Value, y: Value, inexact: &mut Vec<Value>) -> Value {
    let s = b.ins().fadd(x, y);
    let dx = b.ins().fsub(s, x);
    let dy = b.ins().fsub(s, y);
    let fx = b.ins().fcmp(FloatCC::NotEqual, dx, y);
    let fy = b.ins().fcmp(FloatCC::NotEqual, dy, x);
    inexact.push(b.ins().bor(fx, fy));
    s
}

/// The vector constants of [`decode_f16s`], each in every lane.
struct F16Consts {
    /// 0x7fff: the exponent and fraction fields.
    mag: Value,
    /// 0x8000: the sign.
    sign: Value,
    /// 0x7bff: the largest finite magnitude.
    limit: Value,
    /// f32's quiet NaN.
    nan: Value,
    /// 2^112 (`f32x4`).
    scale: Value,
}

impl F16Consts {
    /// The constants, splatted where they are built.
    fn splatted(b: &mut FunctionBuilder) -> F16Consts {
        let mut splat = |bits: u32| {
            let c = b.ins().iconst(types::I32, i64::from(bits));
            b.ins().splat(types::I32X4, c)
        };
        let (mag, sign, limit, nan) = (
            splat(0x7fff),
            splat(0x8000),
            splat(0x7bff),
            splat(0x7fc0_0000),
        );
        let scale = b.ins().f32const(2f32.powi(112));
        let scale = b.ins().splat(types::F32X4, scale);
        F16Consts {
            mag,
            sign,
            limit,
            nan,
            scale,
        }
    }
}

/// Four f16 values (`x`: an `i32x4`, each lane's low 16 bits, zero-extended) as the `f32x4`
/// of the same values, exactly: the sign, exponent and fraction fields moved to f32's
/// positions make the f32 of value 2^-112 · x (subnormals included), one exact multiplication
/// by 2^112 rebiases it; an exponent field of 31 (infinities, NaNs) becomes a NaN, so that a
/// dot product with it takes the slow path. (The scalar JIT's four factors of an f16 pair
/// dot; the vector lanes decode from packed words, `simd::mixdot`.)
pub(super) fn decode_f16s(b: &mut FunctionBuilder, x: Value) -> Value {
    let little = MemFlagsData::new().with_endianness(Endianness::Little);
    let k = F16Consts::splatted(b);
    let mag = b.ins().band(x, k.mag);
    let sign = b.ins().band(x, k.sign);
    let sign = b.ins().ishl_imm_s(sign, 16);
    let field = b.ins().ishl_imm_s(mag, 13);
    let bits = b.ins().bor(field, sign);
    let special = b.ins().icmp(IntCC::SignedGreaterThan, mag, k.limit);
    let bits = b.ins().bitselect(special, k.nan, bits);
    let f = b.ins().bitcast(types::F32X4, little, bits);
    b.ins().fmul(f, k.scale)
}

/// The two halves of an `f32x4` as `f64x2` pairs, exactly: lanes 0–1 and lanes 2–3 (the
/// high half moved down by one `punpckhqdq`).
pub(super) fn widen_halves(b: &mut FunctionBuilder, f: Value) -> [Value; 2] {
    let lo = b.ins().fvpromote_low(f);
    let hi = super::shuffles::high_halves(b, types::F32X4, f, f);
    [lo, b.ins().fvpromote_low(hi)]
}

/// A call of spvx-num's C-ABI function of a mixed dot (`mixdot::abi::entry`) whose address
/// is at `offset` in the context `ctx` (`runtime::StaticTables::mixdot_offset`), on `args`
/// (packed vector a, packed vector b, accumulator bits, configuration word): the result bits.
pub(super) fn call_entry(
    b: &mut FunctionBuilder,
    ctx: Value,
    offset: i32,
    args: [Value; 4],
) -> Value {
    let mut sig = Signature::new(b.func.signature.call_conv);
    sig.params.extend([AbiParam::new(types::I64); 4]);
    sig.returns.push(AbiParam::new(types::I64));
    let sig = b.import_signature(sig);
    let flags = crate::jit::runtime::invariant();
    let callee = b.ins().load(types::I64, flags, ctx, offset);
    let call = b.ins().call_indirect(sig, callee, &args);
    b.inst_results(call)[0]
}
