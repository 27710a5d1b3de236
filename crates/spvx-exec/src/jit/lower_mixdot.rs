//! The VALVE mixed float dot products, all three, under every model: spvx-num's arithmetic,
//! inline for the common cases and called for the rest.
//!
//! Inline (the f32-result dots under any model with round to nearest even and no flushing):
//! every f16, bf16, E4M3 and E5M2 value is exact in f32, so each product of two of them is
//! exact in f64 (at most 24 × 24 significant bits, exponents far inside f64's range). Sums are
//! formed in f64, each checked exact (`mixdot_models::exact_add`): when every addition is
//! exact, each f64 sum *is* the exact sum, and its conversion to f32 is the
//! correct rounding the model's step asks for (gradual underflow and overflow to ±inf as IEEE
//! 754 rounds, which is the models' rule); [`FnLower::model_sum`] has each model's steps.
//! Zero signs: f64 addition under round to nearest gives −0 only when both addends are −0 and
//! +0 for an exact cancellation, which is the models' rule at every step.
//!
//! Called: an addition that rounded, an infinity or a NaN anywhere (their checks fail), a
//! run with flushing or another rounding, and `OpFDot2MixAcc16VALVE` always call spvx-num's
//! C-ABI function of the operation and encodings (`spvx_num::mixdot::abi::entry`) with the
//! packed vectors, the accumulator and the run's configuration word (`JitCtx::mixdot_config`):
//! the native kernels there, the exact path where they do not decide. No call into the
//! interpreter; the results are the interpreter's bits, which calls the same functions.
//! docs/semantics/mixed-dot.md gives the measurements behind this split.

use super::lower::{FnLower, I64};
use super::mixdot_models::{Form, call_entry, decode_f16s, model_blocks, model_sum, widen_halves};
use super::runtime::CTX_MIXDOT_CONFIG;
use crate::program::{FloatFmt, Inst, Slot};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{Endianness, InstBuilder, MemFlagsData, Value, types};
use spvx_num::mixdot::abi::config_word;
use spvx_num::mixdot::{Fp8Encoding, Half16Encoding, MixOp, ModelConfig};

/// The configuration word of `model` for [`super::runtime::JitCtx::mixdot_config`]; the inline
/// paths apply where it is below 5 (a model, nearest even, no flushing).
pub fn config(model: &ModelConfig) -> u64 {
    config_word(model)
}

impl FnLower<'_, '_, '_> {
    /// OpFDot2MixAcc32VALVE / OpFDot2MixAcc16VALVE / OpFDot4MixAcc32VALVE (`dst`, `a`, `b`,
    /// `acc`).
    pub fn mix_dot(
        &mut self,
        op: MixOp,
        half: Half16Encoding,
        fp8: [Fp8Encoding; 2],
        (dst, a, b, acc): (Slot, Slot, Slot, Slot),
    ) {
        let word = self.b.ins().load(
            I64,
            crate::jit::runtime::invariant(),
            self.ctx,
            CTX_MIXDOT_CONFIG,
        );
        if op == MixOp::Dot2Acc16 {
            let r = self.mix_dot_call(op, half, fp8, (a, b, acc), word);
            self.set(dst, r);
            return;
        }
        let n = if op == MixOp::Dot4Acc32 { 4 } else { 2 };
        let mut products = Vec::with_capacity(n as usize);
        if op == MixOp::Dot2Acc32 && half == Half16Encoding::F16 {
            products.extend(self.f16_products(a, b));
        }
        for i in products.len() as u32..n {
            let (x, y) = (self.val(a + i), self.val(b + i));
            let (x, y) = if op == MixOp::Dot4Acc32 {
                (self.fp8_value(fp8[0], x), self.fp8_value(fp8[1], y))
            } else {
                (self.half_value(half, x), self.half_value(half, y))
            };
            products.push(self.b.ins().fmul(x, y));
        }
        // (A NaN accumulator, whatever its payload, takes the slow path, which reads the
        // register's bits.)
        let c = self.fval(FloatFmt::F32, acc);
        let c = self.b.ins().fpromote(types::F64, c);
        // One block per model under round to nearest even without flushing (configuration
        // words 0–4, the model's index in `Model::ALL`); any other word, and a case a block
        // leaves undecided, calls spvx-num.
        let (call_blk, join) = (self.b.create_block(), self.b.create_block());
        self.b.set_cold_block(call_blk);
        let models = model_blocks(self.b, word);
        self.b.ins().jump(call_blk, &[]);
        for (model, this) in models.into_iter().enumerate() {
            self.b.switch_to_block(this);
            let (sum, slow) = model_sum(self.b, Form::Scalar, model as u8, &products, c);
            let r = self.b.ins().fdemote(types::F32, sum);
            let fast = self.b.create_block();
            self.b.ins().brif(slow, call_blk, &[], fast, &[]);
            self.b.switch_to_block(fast);
            self.set_float(FloatFmt::F32, dst, r);
            self.b.ins().jump(join, &[]);
        }
        self.b.switch_to_block(call_blk);
        let r = self.mix_dot_call(op, half, fp8, (a, b, acc), word);
        self.set(dst, r);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
    }

    /// The result bits of spvx-num's entry point for `op` on the operands, under the
    /// configuration `word`.
    fn mix_dot_call(
        &mut self,
        op: MixOp,
        half: Half16Encoding,
        fp8: [Fp8Encoding; 2],
        (a, b, acc): (Slot, Slot, Slot),
        word: Value,
    ) -> Value {
        let (n, width) = if op == MixOp::Dot4Acc32 {
            (4, 8)
        } else {
            (2, 16)
        };
        let pack = |this: &mut Self, first: Slot| {
            let mut w = this.b.ins().iconst(I64, 0);
            for i in 0..n {
                let v = this.val(first + i);
                let v = this.b.ins().band_imm_s(v, (1i64 << width) - 1);
                let v = this.b.ins().ishl_imm_s(v, i64::from(width * i));
                w = this.b.ins().bor(w, v);
            }
            w
        };
        let (xa, xb) = (pack(self, a), pack(self, b));
        let c = self.val(acc);
        let offset = super::runtime::StaticTables::mixdot_offset(op, half, fp8);
        call_entry(self.b, self.ctx, offset, [xa, xb, c, word])
    }

    /// The products a₀·b₀ and a₁·b₁ of two f16 pairs (registers `a`, `a + 1`, `b`, `b + 1`),
    /// exact in f64, the four values decoded together in one SSE vector
    /// ([`decode_f16s`], one lane each), each pair widened to f64 and multiplied: about 20
    /// instructions where four scalar decodings took about 50.
    fn f16_products(&mut self, a: Slot, b: Slot) -> [Value; 2] {
        // [a₀ a₁ b₀ b₁] as four u16: the two 32-bit words the pairs were split from, when the
        // split is known (`pair_word`), else the four registers (their 16 bits zero-extended).
        let w = match (self.pair_word(a), self.pair_word(b)) {
            (Some(wa), Some(wb)) => {
                let (wa, wb) = (self.val(wa), self.val(wb));
                let wb = self.b.ins().ishl_imm_s(wb, 32);
                self.b.ins().bor(wa, wb)
            }
            _ => {
                let mut w = self.val(a);
                for (i, s) in [a + 1, b, b + 1].into_iter().enumerate() {
                    let v = self.val(s);
                    let v = self.b.ins().ishl_imm_s(v, 16 * (i as i64 + 1));
                    w = self.b.ins().bor(w, v);
                }
                w
            }
        };
        let v = self.b.ins().scalar_to_vector(types::I64X2, w);
        let little = MemFlagsData::new().with_endianness(Endianness::Little);
        let v = self.b.ins().bitcast(types::I16X8, little, v);
        let x = self.b.ins().uwiden_low(v);
        let f = decode_f16s(self.b, x);
        let [a_pair, b_pair] = widen_halves(self.b, f);
        let p = self.b.ins().fmul(a_pair, b_pair);
        [0, 1].map(|i| self.b.ins().extractlane(p, i))
    }

    /// The register of the 32-bit word whose halves registers `pair` and `pair + 1` hold, when
    /// the instruction that last wrote them in this segment, before the one being lowered, is
    /// the bitcast that split that word, and nothing wrote the word since (so it still holds
    /// what was split: `pair` = its low half, `pair + 1` its high half).
    fn pair_word(&self, pair: Slot) -> Option<Slot> {
        let at = self.at as usize;
        let seg = self
            .f
            .segments
            .iter()
            .find(|s| (s.start as usize..s.end as usize).contains(&at))?;
        let before = &self.f.code[seg.start as usize..at];
        // (An instruction whose registers written are not known here counts as writing all.)
        let writes = |inst: &Inst, slot: Slot| {
            if !super::analysis::native(inst) && super::ext::operands(inst).is_none() {
                return true;
            }
            let mut hit = false;
            super::analysis::native_dsts(inst, |d| hit |= d == slot);
            hit
        };
        let k = before
            .iter()
            .rposition(|i| writes(i, pair) || writes(i, pair + 1))?;
        let Inst::Bitcast {
            dst,
            src,
            dst_bits: 16,
            dst_count: 2,
            src_bits: 32,
            src_count: 1,
        } = before[k]
        else {
            return None;
        };
        (dst == pair && !before[k + 1..].iter().any(|i| writes(i, src))).then_some(src)
    }

    /// A 16-bit float component (the low 16 bits of `x`) as an exact f64; f16 infinities and
    /// NaNs become NaN (the dot product then takes the slow path).
    fn half_value(&mut self, enc: Half16Encoding, x: Value) -> Value {
        let flags = MemFlagsData::new();
        match enc {
            Half16Encoding::Bf16 => {
                // A bf16 is the high half of the f32 with the same value (inf and NaN too).
                let w = self.b.ins().ireduce(types::I32, x);
                let w = self.b.ins().ishl_imm_s(w, 16);
                let f = self.b.ins().bitcast(types::F32, flags, w);
                self.b.ins().fpromote(types::F64, f)
            }
            Half16Encoding::F16 => {
                // The sign, exponent and fraction fields moved to f64's positions make the f64
                // of value 2^-1008 · x (exponent field e ≤ 31 of 11 bits, subnormals included,
                // as in the f32 form of the classic conversion); one exact multiplication by
                // 2^1008 rebiases it. Exponent 31 (infinities, NaNs) becomes NaN.
                let mag = self.b.ins().band_imm_s(x, 0x7fff);
                let field = self.b.ins().ishl_imm_s(mag, 42);
                let sign = self.b.ins().band_imm_s(x, 0x8000);
                let sign = self.b.ins().ishl_imm_s(sign, 48);
                let bits = self.b.ins().bor(field, sign);
                let f = self.b.ins().bitcast(types::F64, flags, bits);
                let scale = self.b.ins().f64const(2f64.powi(1008));
                let v = self.b.ins().fmul(f, scale);
                let special =
                    self.b
                        .ins()
                        .icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, mag, 0x7c00);
                let nan = self.b.ins().f64const(f64::NAN);
                self.b.ins().select(special, nan, v)
            }
        }
    }

    /// An fp8 component (the low 8 bits of `x`) as an exact f64, from spvx-num's table of the
    /// 256 values (its address in the context: `runtime::StaticTables`).
    fn fp8_value(&mut self, enc: Fp8Encoding, x: Value) -> Value {
        let flags = crate::jit::runtime::invariant();
        let offset = super::runtime::StaticTables::fp8_offset(enc);
        let base = self.b.ins().load(I64, flags, self.ctx, offset);
        let i = self.b.ins().band_imm_s(x, 0xff);
        let off = self.b.ins().ishl_imm_s(i, 3);
        let at = self.b.ins().iadd(base, off);
        self.b
            .ins()
            .load(types::F64, crate::jit::runtime::invariant(), at, 0)
    }
}
