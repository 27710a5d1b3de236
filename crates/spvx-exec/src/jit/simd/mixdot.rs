//! The vector lanes' `OpFDot2MixAcc32VALVE` (f16 or bf16 pairs, f32 accumulator): the dots of
//! four lanes at once. The components are decoded in `i32x4` vectors (`decode_halves`, the
//! scalar JIT's exact decoding lane for lane), the products and sums formed in two `f64x2`
//! halves under the default model (`mixdot_models::model_sum`, the scalar JIT's arithmetic for
//! two dots at a time; `INLINE_WORD`), their vector constants loaded from the frame's pool
//! (`frame::vconst`: splatted in place, Cranelift hoists them out of the loop and then spills
//! and reloads each one at every use). Where the configuration word is another one, or some
//! lane's sum is not decided there (an addition that rounded, an infinity or a NaN), every
//! lane's dot is spvx-num's C-ABI function, as the scalar JIT calls it, through one call of a
//! trampoline that preserves every register (`dot_lanes`); inactive lanes compute too (a pure
//! function) and their results are dropped by the masked write. The bits are the
//! scalar JIT's and the interpreter's.

use super::dot_lanes;
use super::lower::{HALVES, I32X4, I64, V, VLower};
use crate::jit::mixdot_models::{F16Consts, Form, decode_halves, model_sum, widen_halves};
use crate::jit::runtime::CTX_MIXDOT_CONFIG;
use crate::program::Slot;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    Endianness, FuncRef, InstBuilder, MemFlagsData, StackSlot, StackSlotData, StackSlotKind, Value,
    types,
};
use spvx_num::mixdot::abi::entry;
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
        let flags = MemFlagsData::trusted().with_readonly().with_can_move();
        let word = self.b.ins().load(I64, flags, self.ctx, CTX_MIXDOT_CONFIG);
        let xs = [a, a + 1, b, b + 1].map(|s| self.get(s));
        let c = self.get(acc);
        let (call_blk, join) = (self.b.create_block(), self.b.create_block());
        for _ in HALVES {
            self.b.append_block_param(join, I32X4);
        }
        self.b.set_cold_block(call_blk);
        let inline = self.b.create_block();
        let is = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, word, INLINE_WORD as i64);
        self.b.ins().brif(is, inline, &[], call_blk, &[]);
        self.b.switch_to_block(inline);
        let mut slow = None;
        let r = HALVES.map(|h| {
            // (The word's low three bits are the model's index; the others are zero.)
            let (r, s) = self.dot2_vector(half, INLINE_WORD as u8, xs.map(|x| x[h]), c[h]);
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
        let f = entry(MixOp::Dot2Acc32, half, fp8);
        let f = self.b.ins().iconst(I64, f as usize as i64);
        let (tramp, slot) = self.dot_trampoline();
        let block = self.b.ins().stack_addr(I64, slot, 0);
        let t = MemFlagsData::trusted();
        let r = HALVES.map(|h| {
            // Each lane's word as the scalar JIT passes it: component 0 low, 1 high.
            let pack = |this: &mut Self, lo: Value, hi: Value| {
                let hi = this.b.ins().ishl_imm_s(hi, 16);
                this.b.ins().bor(lo, hi)
            };
            let xa = pack(self, xs[0][h], xs[1][h]);
            let xb = pack(self, xs[2][h], xs[3][h]);
            for (v, at) in [
                (xa, dot_lanes::A_AT),
                (xb, dot_lanes::B_AT),
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

    /// Four lanes' dots under inline model `model`: the result bits (`i32x4`) and a lane mask
    /// (`i64x2`, both halves or'ed) of the lanes the model leaves undecided. `x`: a₀, a₁, b₀,
    /// b₁ of the lanes; `c`: the accumulators' bits.
    fn dot2_vector(
        &mut self,
        half: Half16Encoding,
        model: u8,
        x: [Value; 4],
        c: Value,
    ) -> (Value, Value) {
        let little = MemFlagsData::new().with_endianness(Endianness::Little);
        let k = (half == Half16Encoding::F16)
            .then(|| F16Consts::new(|ty, bits| self.splat_bits32(ty, bits)));
        let f = x.map(|v| decode_halves(self.b, half, v, k.as_ref()));
        // The products in f64 halves (exact). f16 products are exact in f32 already (22
        // significant bits at most, magnitudes from 2^-48 to below 2^32: normal f32 values),
        // so they are formed four at a time and widened; bf16 products can leave f32's
        // range, so their factors are widened first.
        let products: [[Value; 2]; 2] = match half {
            Half16Encoding::F16 => [(0, 2), (1, 3)].map(|(a, b)| {
                let p = self.b.ins().fmul(f[a], f[b]);
                widen_halves(self.b, p)
            }),
            Half16Encoding::Bf16 => {
                let w = f.map(|v| widen_halves(self.b, v));
                [(0, 2), (1, 3)].map(|(a, b)| [0, 1].map(|i| self.b.ins().fmul(w[a][i], w[b][i])))
            }
        };
        let acc = self.b.ins().bitcast(types::F32X4, little, c);
        let acc = widen_halves(self.b, acc);
        let zero = self.vconst(types::F64X2, [0; 16]);
        let mut sums = [acc[0]; 2];
        let mut slow = None;
        for (i, sum) in sums.iter_mut().enumerate() {
            let (p0, p1) = (products[0][i], products[1][i]);
            let (s, flag) = model_sum(self.b, Form::Pairs, model, &[p0, p1], acc[i], zero);
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
}
