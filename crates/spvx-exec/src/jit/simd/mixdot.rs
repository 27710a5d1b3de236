//! The vector lanes' `OpFDot2MixAcc32VALVE` (f16 or bf16 pairs, f32 accumulator): the dots of
//! four lanes at once. Each operand is taken as the lanes' packed words (component 0 in the
//! low half: the word a bitcast split, `VLower::split_words`, else the two components
//! packed), and both components are decoded from the word (`decode_pair`, exactly; f16
//! infinities and NaNs flagged on the words, `f16_specials`). The products and sums are
//! formed in two `f64x2` halves under the default model (`mixdot_models::model_sum`, the
//! scalar JIT's arithmetic for two dots at a time; `INLINE_WORD`), their vector constants
//! loaded from the frame's pool (`frame::vconst`). Where the configuration word is another
//! one (the driver then runs the scalar JIT instead, so the code does not test for it), or
//! some lane's sum is not decided there (an addition that rounded, an infinity or a NaN),
//! every lane's dot is spvx-num's C-ABI function, as the scalar JIT calls it, through
//! one call of a trampoline that preserves every register (`dot_lanes`); inactive lanes
//! compute too (a pure function) and their results are dropped by the masked write. The bits
//! are the scalar JIT's and the interpreter's.

use super::dot_lanes;
use super::lower::{HALVES, I32X4, I64, I64X2, V, VLower};
use crate::jit::mixdot_models::{Form, model_sum, widen_halves};
use crate::jit::runtime::CTX_MIXDOT_CONFIG;
use crate::jit::runtime::StaticTables;
use crate::program::Slot;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    Endianness, FuncRef, InstBuilder, MemFlagsData, StackSlot, StackSlotData, StackSlotKind, Value,
    types,
};
use spvx_num::mixdot::{Fp8Encoding, Half16Encoding, MixOp};

/// The configuration word whose model the vector lanes compute inline: spvx-num's default
/// (the `exact` model, round to nearest even, no flushing). For any other word every lane's
/// dot calls spvx-num; the driver runs such dispatches on the scalar JIT instead
/// (`SimdCode::runs`), which computes all five models inline. (Each inline model is code in
/// every version of every segment with a dot: five made the vector-lanes function about four
/// times slower to compile than the scalar JIT.)
pub const INLINE_WORD: u64 = 0;

impl VLower<'_, '_, '_> {
    /// `dst = acc + a · b` for 2-component f16 or bf16 vectors `a`, `b` (registers `a`,
    /// `a + 1`, `b`, `b + 1`) and an f32 `acc`, in every lane.
    pub fn mix_dot2(
        &mut self,
        half: Half16Encoding,
        fp8: [Fp8Encoding; 2],
        (dst, a, b, acc): (Slot, Slot, Slot, Slot),
    ) {
        let words = [a, b].map(|s| self.pair_words(s));
        let c = self.get(acc);
        let (call_blk, join) = (self.b.create_block(), self.b.create_block());
        for _ in HALVES {
            self.b.append_block_param(join, I32X4);
        }
        self.b.set_cold_block(call_blk);
        // (The run's configuration word is `INLINE_WORD`: the driver runs the vector lanes
        // only then, `SimdCode::runs`.)
        let mut slow = None;
        let r = HALVES.map(|h| {
            // (The word's low three bits are the model's index; the others are zero.)
            let (r, s) = self.dot2_vector(half, INLINE_WORD as u8, words.map(|w| w[h]), c[h]);
            slow = Some(match slow {
                None => s,
                Some(t) => self.b.ins().bor(t, s),
            });
            r
        });
        let any = match slow {
            Some(s) => self.b.ins().vany_true(s),
            None => self.b.ins().iconst(types::I8, 0),
        };
        let args: Vec<_> = r.iter().map(|v| (*v).into()).collect();
        self.b.ins().brif(any, call_blk, &[], join, &args);
        self.b.switch_to_block(call_blk);
        let offset = StaticTables::mixdot_offset(MixOp::Dot2Acc32, half, fp8);
        let flags = crate::jit::runtime::invariant();
        let word = self.b.ins().load(I64, flags, self.ctx, CTX_MIXDOT_CONFIG);
        let f = self.b.ins().load(I64, flags, self.ctx, offset);
        let (tramp, slot) = self.dot_trampoline();
        let block = self.b.ins().stack_addr(I64, slot, 0);
        let t = MemFlagsData::trusted();
        let r = HALVES.map(|h| {
            // Each lane's words as the scalar JIT passes them: component 0 low, 1 high.
            for (v, at) in [
                (words[0][h], dot_lanes::A_AT),
                (words[1][h], dot_lanes::B_AT),
                (c[h], dot_lanes::ACC_AT),
            ] {
                self.b.ins().store(t, v, block, at);
            }
            self.b.ins().call(tramp, &[block, word, f]);
            self.b.ins().load(I32X4, t, block, dot_lanes::ACC_AT)
        });
        let args: Vec<_> = r.iter().map(|v| (*v).into()).collect();
        self.b.ins().jump(join, &args);
        self.b.switch_to_block(join);
        let params = self.b.block_params(join).to_vec();
        let r: V = HALVES.map(|h| params[h]);
        self.put(dst, r);
    }

    /// The trampoline and its argument block's stack slot (made here at the first use).
    fn dot_trampoline(&mut self) -> (FuncRef, StackSlot) {
        let tramp = self
            .dot_lanes
            .expect("`compile` declares the trampoline for every program with mixed dots");
        let slot = *self.dot_block.get_or_insert_with(|| {
            let data = StackSlotData::new(StackSlotKind::ExplicitSlot, dot_lanes::BLOCK_BYTES, 4);
            self.b.create_sized_stack_slot(data)
        });
        (tramp, slot)
    }

    /// Each lane's word of the 16-bit components in registers `pair` (low half) and
    /// `pair + 1` (high half): the word a bitcast split into them, else the two packed.
    fn pair_words(&mut self, pair: Slot) -> V {
        let (lo, hi) = (self.get(pair), self.get(pair + 1));
        HALVES.map(|h| match self.split_words.get(&(lo[h], hi[h])) {
            Some(&w) => w,
            None => {
                let hi = self.b.ins().ishl_imm_s(hi[h], 16);
                self.b.ins().bor(lo[h], hi)
            }
        })
    }

    /// Four lanes' dots under inline model `model`: the result bits (`i32x4`) and a vector
    /// (`i64x2`) nonzero exactly when the model leaves some lane undecided. `w`: the lanes'
    /// words of a and of b; `c`: the accumulators' bits.
    fn dot2_vector(
        &mut self,
        half: Half16Encoding,
        model: u8,
        w: [Value; 2],
        c: Value,
    ) -> (Value, Value) {
        let little = MemFlagsData::new().with_endianness(Endianness::Little);
        let [[a0, a1], [b0, b1]] = w.map(|w| self.decode_pair(half, w));
        // The products in f64 halves (exact). f16 products are exact in f32 already (22
        // significant bits at most, magnitudes from 2^-48 to below 2^32: normal f32 values),
        // so they are formed four at a time and widened; bf16 products can leave f32's
        // range, so their factors are widened first.
        let products: [[Value; 2]; 2] = match half {
            Half16Encoding::F16 => [(a0, b0), (a1, b1)].map(|(a, b)| {
                let p = self.b.ins().fmul(a, b);
                widen_halves(self.b, p)
            }),
            Half16Encoding::Bf16 => [(a0, b0), (a1, b1)].map(|(a, b)| {
                let (a, b) = (widen_halves(self.b, a), widen_halves(self.b, b));
                [0, 1].map(|i| self.b.ins().fmul(a[i], b[i]))
            }),
        };
        let acc = self.b.ins().bitcast(types::F32X4, little, c);
        let acc = widen_halves(self.b, acc);
        let mut sums = [acc[0]; 2];
        let mut slow = match half {
            Half16Encoding::F16 => Some(self.f16_specials(w)),
            Half16Encoding::Bf16 => None,
        };
        for (i, sum) in sums.iter_mut().enumerate() {
            let (p0, p1) = (products[0][i], products[1][i]);
            let (s, flag) = model_sum(self.b, Form::Pairs, model, &[p0, p1], acc[i]);
            *sum = s;
            slow = Some(match slow {
                None => flag,
                Some(t) => self.b.ins().bor(t, flag),
            });
        }
        // Each half rounded to f32 (lanes 0–1 of the demotion), then the two halves as one
        // vector.
        let [lo, hi] = sums.map(|s| self.b.ins().fvdemote(s));
        let r = crate::jit::shuffles::low_halves(self.b, I32X4, lo, hi);
        (r, slow.expect("two halves"))
    }

    /// The two 16-bit floats of each lane's word `w` (`i32x4`) as `f32x4` values, exactly:
    /// component 0 (the low half), component 1. bf16: the half moved to the high 16 bits of
    /// an f32 (infinities and NaNs too). f16: the half in the high 16 bits, shifted right
    /// arithmetically by 3 and masked with 0x8fffe000, puts the sign at bit 31, the 5-bit
    /// exponent field at bits 23–27 and the fraction at bits 13–22: the f32 of value 2^-112 ·
    /// the f16 (subnormals included), which one exact multiplication by 2^112 rebiases.
    /// Infinities and NaNs decode as finite values; `f16_specials` flags them.
    fn decode_pair(&mut self, half: Half16Encoding, w: Value) -> [Value; 2] {
        let little = MemFlagsData::new().with_endianness(Endianness::Little);
        let low_up = self.b.ins().ishl_imm_s(w, 16);
        let bits = match half {
            Half16Encoding::Bf16 => {
                let high = self.splat_i32(0xffff_0000);
                [low_up, self.b.ins().band(w, high)]
            }
            Half16Encoding::F16 => {
                let fields = self.splat_i32(0x8fff_e000);
                [low_up, w].map(|x| {
                    let x = self.b.ins().sshr_imm_s(x, 3);
                    self.b.ins().band(x, fields)
                })
            }
        };
        let f = bits.map(|x| self.b.ins().bitcast(types::F32X4, little, x));
        match half {
            Half16Encoding::Bf16 => f,
            Half16Encoding::F16 => {
                let scale = self.splat_bits32(types::F32X4, 2f32.powi(112).to_bits());
                f.map(|x| self.b.ins().fmul(x, scale))
            }
        }
    }

    /// An `i64x2` nonzero exactly when some 16-bit half of the words `w` (`i32x4` each) is
    /// an f16 infinity or NaN (exponent field all ones): each half's field compared with
    /// 0x7c00 as eight 16-bit lanes.
    fn f16_specials(&mut self, w: [Value; 2]) -> Value {
        let little = MemFlagsData::new().with_endianness(Endianness::Little);
        let field = self.splat_bits32(types::I16X8, 0x7c00_7c00);
        let [a, b] = w.map(|w| {
            let w = self.b.ins().bitcast(types::I16X8, little, w);
            let e = self.b.ins().band(w, field);
            self.b.ins().icmp(IntCC::Equal, e, field)
        });
        let any = self.b.ins().bor(a, b);
        self.b.ins().bitcast(I64X2, little, any)
    }
}
