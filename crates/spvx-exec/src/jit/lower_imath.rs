//! Native lowering of the integer functions of GLSL.std.450 and OpenCL.std (`IMathFn`: SAbs,
//! SSign, the minima, maxima and clamps, FindILsb, FindSMsb, FindUMsb), bit for bit as
//! `exec::math::imath` computes them: signed operands sign-extended from the width, unsigned
//! ones as the register holds them, the Find functions' "no bit" as all ones, and every result
//! cut to the width.

use super::lower::FnLower;
use crate::program::Slot;
use crate::program::math::IMathFn;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{InstBuilder, Value, types};

const I64: types::Type = types::I64;

impl FnLower<'_, '_, '_> {
    /// An integer function of `bits`-bit operands (`args`, as many as its arity).
    pub fn imath(&mut self, f: IMathFn, bits: u32, dst: Slot, args: [Slot; 3]) {
        use IMathFn::*;
        let n = f.arity();
        let v: Vec<Value> = args[..n].iter().map(|&a| self.val(a)).collect();
        let s: Vec<Value> = v.iter().map(|&x| self.sext(x, bits)).collect();
        let zero = self.b.ins().iconst(I64, 0);
        let r = match f {
            SAbs => {
                let neg = self.b.ins().ineg(s[0]);
                let below = self.b.ins().icmp(IntCC::SignedLessThan, s[0], zero);
                self.b.ins().select(below, neg, s[0])
            }
            SSign => {
                let above = self.flag(IntCC::SignedGreaterThan, s[0], zero);
                let below = self.flag(IntCC::SignedLessThan, s[0], zero);
                self.b.ins().isub(above, below)
            }
            UMin => self.b.ins().umin(v[0], v[1]),
            UMax => self.b.ins().umax(v[0], v[1]),
            SMin => self.b.ins().smin(s[0], s[1]),
            SMax => self.b.ins().smax(s[0], s[1]),
            UClamp => {
                let low = self.b.ins().umax(v[0], v[1]);
                self.b.ins().umin(low, v[2])
            }
            SClamp => {
                let low = self.b.ins().smax(s[0], s[1]);
                self.b.ins().smin(low, s[2])
            }
            FindILsb => {
                let t = self.b.ins().ctz(v[0]);
                self.none_if_zero(v[0], t)
            }
            FindUMsb => self.msb(v[0]),
            FindSMsb => {
                // A negative value's most significant 0 bit: that of its complement.
                let flipped = self.b.ins().bnot(v[0]);
                let flipped = self.mask(flipped, bits);
                let below = self.b.ins().icmp(IntCC::SignedLessThan, s[0], zero);
                let x = self.b.ins().select(below, flipped, v[0]);
                self.msb(x)
            }
        };
        let r = self.mask(r, bits);
        self.set(dst, r);
    }

    /// The index of the most significant 1 bit of `x`, all ones when `x` is 0.
    fn msb(&mut self, x: Value) -> Value {
        let lz = self.b.ins().clz(x);
        let top = self.b.ins().iconst(I64, 63);
        let i = self.b.ins().isub(top, lz);
        self.none_if_zero(x, i)
    }

    /// `r`, or all ones when `x` is 0.
    fn none_if_zero(&mut self, x: Value, r: Value) -> Value {
        let none = self.b.ins().iconst(I64, -1);
        let zero = self.b.ins().icmp_imm_s(IntCC::Equal, x, 0);
        self.b.ins().select(zero, none, r)
    }
}
