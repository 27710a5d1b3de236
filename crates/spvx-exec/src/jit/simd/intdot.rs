//! The vector lanes' packed 4×8-bit integer dot products (`jit::analysis::packed_inline`
//! forms with 32-bit results): the four lanes' words are the sixteen bytes of one
//! vector, widened to 16 bits (signed or not, per operand) in two halves, multiplied and
//! summed pairwise (`pmaddwd`), and the pair sums of each lane added (`phaddd`): each lane's
//! exact dot product (at most 19 bits with its sign), in lane order. The accumulating form
//! then saturates as `lower_ops::packed_dot` does (the same bits).

use super::lower::{HALVES, V, VLower};
use crate::jit::lower_ops::multiply_add_pairs;
use crate::program::Slot;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{Endianness, InstBuilder, MemFlagsData, Value, types};
use spvx_num::intdot::DotSpec;

impl VLower<'_, '_, '_> {
    /// `dst = a · b` (+ `acc`, saturating) of packed 4×8-bit vectors in every lane, 32-bit
    /// results.
    pub fn packed_dot(&mut self, spec: &DotSpec, dst: Slot, a: Slot, b: Slot, acc: Option<Slot>) {
        let kind = spec.kind();
        let (x, y) = (self.get(a), self.get(b));
        let d: V = HALVES.map(|h| {
            let xs = self.widened_bytes(x[h], kind.vector1_signed());
            let ys = self.widened_bytes(y[h], kind.vector2_signed());
            let pairs = [0, 1].map(|i| multiply_add_pairs(self.b, xs[i], ys[i]));
            self.b.ins().iadd_pairwise(pairs[0], pairs[1])
        });
        let r = match acc {
            None => d,
            Some(c) => {
                let c = self.get(c);
                if kind.result_signed() {
                    self.saturate_signed(d, c)
                } else {
                    self.saturate_unsigned(d, c)
                }
            }
        };
        self.put(dst, r);
    }

    /// The bytes of four words as two `i16x8` (lanes 0–1's bytes, then lanes 2–3's), each
    /// sign- or zero-extended.
    fn widened_bytes(&mut self, words: Value, signed: bool) -> [Value; 2] {
        let little = MemFlagsData::new().with_endianness(Endianness::Little);
        let bytes = self.b.ins().bitcast(types::I8X16, little, words);
        if signed {
            [
                self.b.ins().swiden_low(bytes),
                self.b.ins().swiden_high(bytes),
            ]
        } else {
            [
                self.b.ins().uwiden_low(bytes),
                self.b.ins().uwiden_high(bytes),
            ]
        }
    }

    /// `c + d` clamped to the 32-bit signed range (`d`: the exact dot product): the sum
    /// wrapped where its sign differs from both operands'; it then saturates towards the
    /// accumulator's sign.
    fn saturate_signed(&mut self, d: V, c: V) -> V {
        let max = self.splat_i32(i32::MAX as i64);
        HALVES.map(|h| {
            let t = self.b.ins().iadd(c[h], d[h]);
            let (tc, td) = (self.b.ins().bxor(t, c[h]), self.b.ins().bxor(t, d[h]));
            let wrapped = self.b.ins().band(tc, td);
            let wrapped = self.b.ins().sshr_imm_s(wrapped, 31);
            let sign = self.b.ins().sshr_imm_s(c[h], 31);
            let sat = self.b.ins().bxor(sign, max);
            self.b.ins().bitselect(wrapped, sat, t)
        })
    }

    /// `c + d` clamped to `2^32 − 1` (`d ≥ 0`: both operands unsigned): where the sum
    /// carried out, every bit set.
    fn saturate_unsigned(&mut self, d: V, c: V) -> V {
        HALVES.map(|h| {
            let t = self.b.ins().iadd(c[h], d[h]);
            let carry = self.b.ins().icmp(IntCC::UnsignedLessThan, t, c[h]);
            self.b.ins().bor(t, carry)
        })
    }
}
