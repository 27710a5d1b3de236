//! Native lowering of the arithmetic, comparison, logic, conversion and packed integer-dot
//! instructions: the same results as their `exec` implementations, bit for bit, for every
//! input that reports nothing there (where `exec` reports an event, the native code bails).
//!
//! Registers hold zero-extended bit patterns of their width (booleans 0 or 1, floats their
//! bits); every result here is normalised the same way.

use super::lower::FnLower;
use crate::bits::low_bits;
use crate::program::{
    ConvOp, FBinOp, FCmpOp, FloatFmt, IBinOp, ICmpOp, IUnOp, Inst, LogicOp, Slot,
};
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{InstBuilder, MemFlagsData, Value, types};
use spvx_num::intdot::DotSpec;

const I64: types::Type = types::I64;

impl FnLower<'_, '_, '_> {
    /// Lowers an instruction `analysis::native` accepts.
    pub fn lower_native(&mut self, inst: &Inst) {
        match inst {
            Inst::Copy { dst, src } => self.copy_regs(&[(*dst, *src)]),
            Inst::Const { dst, value } => {
                let v = self.b.ins().iconst(I64, *value as i64);
                self.set(*dst, v);
            }
            Inst::IBin {
                op,
                bits,
                dst,
                a,
                b,
            } => self.ibin(*op, *bits as u32, *dst, *a, *b),
            Inst::IUn { op, bits, dst, a } => self.iun(*op, *bits as u32, *dst, *a),
            Inst::IMath {
                func,
                bits,
                dst,
                args,
            } => self.imath(*func, *bits as u32, *dst, *args),
            Inst::ICmp {
                op,
                bits,
                dst,
                a,
                b,
            } => self.icmp(*op, *bits as u32, *dst, *a, *b),
            Inst::Logic { op, dst, a, b } => {
                let (x, y) = (self.val(*a), self.val(*b));
                let r = match op {
                    LogicOp::And => self.b.ins().band(x, y),
                    LogicOp::Or => self.b.ins().bor(x, y),
                    LogicOp::Equal => self.flag(IntCC::Equal, x, y),
                    LogicOp::NotEqual => self.flag(IntCC::NotEqual, x, y),
                };
                self.set(*dst, r);
            }
            Inst::LNot { dst, a } => {
                let x = self.val(*a);
                let zero = self.b.ins().iconst(I64, 0);
                let r = self.flag(IntCC::Equal, x, zero);
                self.set(*dst, r);
            }
            Inst::Select { dst, cond, a, b } => {
                let (c, x, y) = (self.val(*cond), self.val(*a), self.val(*b));
                let r = self.b.ins().select(c, x, y);
                self.set(*dst, r);
            }
            Inst::Convert { op, dst, a } => {
                let x = self.val(*a);
                let r = match *op {
                    ConvOp::UConvert { to, .. } => self.mask(x, to as u32),
                    ConvOp::SConvert { from, to } => {
                        let s = self.sext(x, from as u32);
                        self.mask(s, to as u32)
                    }
                    // Round toward zero only (`analysis::native`).
                    ConvOp::FToI {
                        from, to, signed, ..
                    } => self.float_to_int(from, to, signed, x),
                    ConvOp::IToF {
                        from, to, signed, ..
                    } => {
                        // Exact in a signed 64-bit integer (`analysis::native`), then one
                        // correctly rounded conversion.
                        let v = if signed {
                            self.sext(x, from as u32)
                        } else {
                            self.mask(x, from as u32)
                        };
                        let ty = if to == FloatFmt::F32 {
                            types::F32
                        } else {
                            types::F64
                        };
                        let f = self.b.ins().fcvt_from_sint(ty, v);
                        self.float_bits(to, f)
                    }
                    _ => unreachable!("analysis::native accepts no other conversion"),
                };
                self.set(*dst, r);
            }
            Inst::FBin { op, fmt, dst, a, b } => self.fbin(*op, *fmt, *dst, *a, *b),
            Inst::FNeg { fmt, dst, a } => {
                let x = self.val(*a);
                let r = self
                    .b
                    .ins()
                    .bxor_imm_s(x, (1u64 << (fmt.bits() - 1)) as i64);
                self.set(*dst, r);
            }
            Inst::FCmp {
                op,
                ordered,
                fmt,
                dst,
                a,
                b,
            } => self.fcmp(*op, *ordered, *fmt, *dst, *a, *b),
            Inst::IntDot {
                spec,
                dst,
                a,
                b,
                acc,
                ..
            } if super::analysis::packed_inline(inst) => self.packed_dot(spec, *dst, *a, *b, *acc),
            Inst::AccessChain {
                dst,
                base,
                offset,
                steps,
            } => self.access_chain(*dst, *base, *offset, steps),
            Inst::Load { dst, ptr, leaves } => self.load(*dst, *ptr, leaves),
            Inst::Store { ptr, src, leaves } => self.store(*ptr, *src, leaves),
            other if super::ext::is_ext(other) => self.lower_ext(other),
            other => unreachable!("not lowered natively: {other:?}"),
        }
    }

    /// The low `bits` bits of `x`.
    pub fn mask(&mut self, x: Value, bits: u32) -> Value {
        // 8, 16 and 32 bits as a narrowing and a zero extension (one `movzx`/`mov`, where an
        // `and` with 0xffff_ffff needs its constant from memory).
        let narrow = match bits {
            8 => Some(types::I8),
            16 => Some(types::I16),
            32 => Some(types::I32),
            _ => None,
        };
        if bits >= 64 {
            x
        } else if let Some(t) = narrow {
            let n = self.b.ins().ireduce(t, x);
            self.b.ins().uextend(I64, n)
        } else {
            self.b.ins().band_imm_s(x, low_bits(bits) as i64)
        }
    }

    /// The `bits`-bit pattern `x` sign-extended to 64 bits.
    pub fn sext(&mut self, x: Value, bits: u32) -> Value {
        if bits >= 64 {
            x
        } else {
            let s = 64 - bits as i64;
            let up = self.b.ins().ishl_imm_s(x, s);
            self.b.ins().sshr_imm_s(up, s)
        }
    }

    /// `x cc y` as 0 or 1.
    pub(super) fn flag(&mut self, cc: IntCC, x: Value, y: Value) -> Value {
        let c = self.b.ins().icmp(cc, x, y);
        self.b.ins().uextend(I64, c)
    }

    fn ibin(&mut self, op: IBinOp, bits: u32, dst: Slot, a: Slot, b: Slot) {
        let (x, y) = (self.val(a), self.val(b));
        let r = match op {
            IBinOp::Add => {
                let r = self.b.ins().iadd(x, y);
                self.mask(r, bits)
            }
            IBinOp::Sub => {
                let r = self.b.ins().isub(x, y);
                self.mask(r, bits)
            }
            IBinOp::Mul => {
                let r = match (self.constant(a), self.constant(b)) {
                    (_, Some(c)) => self.mul_by(x, c),
                    (Some(c), _) => self.mul_by(y, c),
                    _ => self.b.ins().imul(x, y),
                };
                self.mask(r, bits)
            }
            IBinOp::And => self.b.ins().band(x, y),
            IBinOp::Or => self.b.ins().bor(x, y),
            IBinOp::Xor => self.b.ins().bxor(x, y),
            IBinOp::Shl | IBinOp::ShrLogical | IBinOp::ShrArith => {
                // An amount of the width or more is reported by the interpreter.
                let far =
                    self.b
                        .ins()
                        .icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, y, bits as i64);
                self.bail_if(far);
                match op {
                    IBinOp::Shl => {
                        let r = self.b.ins().ishl(x, y);
                        self.mask(r, bits)
                    }
                    IBinOp::ShrLogical => self.b.ins().ushr(x, y),
                    _ => {
                        let s = self.sext(x, bits);
                        let r = self.b.ins().sshr(s, y);
                        self.mask(r, bits)
                    }
                }
            }
            IBinOp::UDiv | IBinOp::UMod => {
                let zero = self.b.ins().icmp_imm_s(IntCC::Equal, y, 0);
                self.bail_if(zero);
                let r = if op == IBinOp::UDiv {
                    self.b.ins().udiv(x, y)
                } else {
                    self.b.ins().urem(x, y)
                };
                self.mask(r, bits)
            }
            IBinOp::SDiv | IBinOp::SRem | IBinOp::SMod => {
                let (sx, sy) = (self.sext(x, bits), self.sext(y, bits));
                let zero = self.b.ins().icmp_imm_s(IntCC::Equal, sy, 0);
                self.bail_if(zero);
                let minus_one = self.b.ins().icmp_imm_s(IntCC::Equal, sy, -1);
                let r = if op == IBinOp::SDiv {
                    // MIN / −1 is reported by the interpreter.
                    let min = self.b.ins().icmp_imm_s(
                        IntCC::Equal,
                        sx,
                        (1i64 << (bits - 1)).wrapping_neg(),
                    );
                    let overflow = self.b.ins().band(min, minus_one);
                    self.bail_if(overflow);
                    self.b.ins().sdiv(sx, sy)
                } else {
                    // x rem −1 is 0; divide by 1 instead so that MIN rem −1 cannot trap.
                    let one = self.b.ins().iconst(I64, 1);
                    let d = self.b.ins().select(minus_one, one, sy);
                    let r = self.b.ins().srem(sx, d);
                    if op == IBinOp::SMod {
                        // The sign of the divisor: r + y when r ≠ 0 and the signs differ.
                        let nonzero = self.b.ins().icmp_imm_s(IntCC::NotEqual, r, 0);
                        let rx = self.b.ins().bxor(r, sy);
                        let differ = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, rx, 0);
                        let fix = self.b.ins().band(nonzero, differ);
                        let adjusted = self.b.ins().iadd(r, sy);
                        self.b.ins().select(fix, adjusted, r)
                    } else {
                        r
                    }
                };
                self.mask(r, bits)
            }
        };
        self.set(dst, r);
    }

    /// `x × c` modulo 2^64 for a constant `c` (`MulShape`).
    fn mul_by(&mut self, x: Value, c: u64) -> Value {
        MulShape::of(c).shift_add(self.b, x).unwrap_or_else(|| {
            let k = self.b.ins().iconst(I64, c as i64);
            self.b.ins().imul(x, k)
        })
    }

    fn iun(&mut self, op: IUnOp, bits: u32, dst: Slot, a: Slot) {
        let x = self.val(a);
        let r = match op {
            IUnOp::Negate => {
                let r = self.b.ins().ineg(x);
                self.mask(r, bits)
            }
            IUnOp::Not => {
                let r = self.b.ins().bnot(x);
                self.mask(r, bits)
            }
            IUnOp::BitReverse => {
                let r = self.b.ins().bitrev(x);
                if bits >= 64 {
                    r
                } else {
                    self.b.ins().ushr_imm_s(r, 64 - bits as i64)
                }
            }
            IUnOp::BitCount => {
                let m = self.mask(x, bits);
                self.b.ins().popcnt(m)
            }
        };
        self.set(dst, r);
    }

    fn icmp(&mut self, op: ICmpOp, bits: u32, dst: Slot, a: Slot, b: Slot) {
        let (x, y) = (self.val(a), self.val(b));
        let (cc, signed) = int_cc(op);
        let (x, y) = if signed {
            (self.sext(x, bits), self.sext(y, bits))
        } else {
            (x, y)
        };
        let r = self.flag(cc, x, y);
        self.set(dst, r);
    }

    fn fbin(&mut self, op: FBinOp, fmt: FloatFmt, dst: Slot, a: Slot, b: Slot) {
        let (fx, fy) = (self.fval(fmt, a), self.fval(fmt, b));
        let r = match op {
            FBinOp::Add => self.b.ins().fadd(fx, fy),
            FBinOp::Sub => self.b.ins().fsub(fx, fy),
            FBinOp::Mul => self.b.ins().fmul(fx, fy),
            FBinOp::Div => self.b.ins().fdiv(fx, fy),
            _ => unreachable!("analysis::native accepts only + − × ÷"),
        };
        self.set_float(fmt, dst, r);
    }

    fn fcmp(&mut self, op: FCmpOp, ordered: bool, fmt: FloatFmt, dst: Slot, a: Slot, b: Slot) {
        let (fx, fy) = (self.fval(fmt, a), self.fval(fmt, b));
        // Ordered: false when either is NaN; unordered: true.
        let cc = match (op, ordered) {
            (FCmpOp::Eq, true) => FloatCC::Equal,
            (FCmpOp::Ne, true) => FloatCC::OrderedNotEqual,
            (FCmpOp::Lt, true) => FloatCC::LessThan,
            (FCmpOp::Gt, true) => FloatCC::GreaterThan,
            (FCmpOp::Le, true) => FloatCC::LessThanOrEqual,
            (FCmpOp::Ge, true) => FloatCC::GreaterThanOrEqual,
            (FCmpOp::Eq, false) => FloatCC::UnorderedOrEqual,
            (FCmpOp::Ne, false) => FloatCC::NotEqual,
            (FCmpOp::Lt, false) => FloatCC::UnorderedOrLessThan,
            (FCmpOp::Gt, false) => FloatCC::UnorderedOrGreaterThan,
            (FCmpOp::Le, false) => FloatCC::UnorderedOrLessThanOrEqual,
            (FCmpOp::Ge, false) => FloatCC::UnorderedOrGreaterThanOrEqual,
            (FCmpOp::Ord, _) => FloatCC::Ordered,
            (FCmpOp::Uno, _) => FloatCC::Unordered,
        };
        let c = self.b.ins().fcmp(cc, fx, fy);
        let r = self.b.ins().uextend(I64, c);
        self.set(dst, r);
    }

    /// A float (fp32/fp64) truncated toward zero into a `to`-bit integer, saturating at the
    /// type's range, NaN giving 0 (`exec::convert::float_to_int`): the hardware's saturating
    /// conversion into 32 or 64 bits, clamped further for 8 and 16 bits.
    fn float_to_int(&mut self, from: FloatFmt, to: u8, signed: bool, x: Value) -> Value {
        let f = self.host_float(from, x);
        if to == 64 {
            return if signed {
                self.b.ins().fcvt_to_sint_sat(I64, f)
            } else {
                self.b.ins().fcvt_to_uint_sat(I64, f)
            };
        }
        let r = if signed {
            self.b.ins().fcvt_to_sint_sat(types::I32, f)
        } else {
            self.b.ins().fcvt_to_uint_sat(types::I32, f)
        };
        let r = match (to, signed) {
            (32, _) => r,
            (_, true) => {
                let lo = self.b.ins().iconst(types::I32, -(1i64 << (to - 1)));
                let hi = self.b.ins().iconst(types::I32, (1i64 << (to - 1)) - 1);
                let r = self.b.ins().smax(r, lo);
                self.b.ins().smin(r, hi)
            }
            (_, false) => {
                let hi = self.b.ins().iconst(types::I32, (1i64 << to) - 1);
                self.b.ins().umin(r, hi)
            }
        };
        let r = self.b.ins().uextend(I64, r);
        self.mask(r, to as u32)
    }

    /// A packed 4×8-bit dot product (`analysis::native` says which): the exact sum of the four
    /// products; plain: its low result bits; AccSat: sum + accumulator saturated to the result
    /// range (no undefined case is possible at these widths).
    fn packed_dot(&mut self, spec: &DotSpec, dst: Slot, a: Slot, b: Slot, acc: Option<Slot>) {
        let (x, y) = (self.val(a), self.val(b));
        let kind = spec.kind();
        let n = spec.result_bits();
        // The four bytes of each word widened to 16-bit lanes (exact, signed or not), their
        // products as 32-bit lanes summed pairwise (the pattern Cranelift emits as one
        // `pmaddwd`: each product fits 17 bits, each pair sum 18), then the two pair sums
        // added: the exact dot product.
        let xv = self.widen_bytes(x, kind.vector1_signed());
        let yv = self.widen_bytes(y, kind.vector2_signed());
        let h = multiply_add_pairs(self.b, xv, yv);
        let h = self.b.ins().iadd_pairwise(h, h);
        let s32 = self.b.ins().extractlane(h, 0);
        let sum = self.b.ins().sextend(I64, s32);
        let r = match acc {
            None => self.mask(sum, n),
            Some(c) => {
                let c = self.val(c);
                let (c, lo, hi) = if kind.result_signed() {
                    (self.sext(c, n), -(1i64 << (n - 1)), (1i64 << (n - 1)) - 1)
                } else {
                    (self.mask(c, n), 0, (1i64 << n) - 1)
                };
                let total = self.b.ins().iadd(sum, c);
                let lo = self.b.ins().iconst(I64, lo);
                let hi = self.b.ins().iconst(I64, hi);
                let t = self.b.ins().smax(total, lo);
                let t = self.b.ins().smin(t, hi);
                self.mask(t, n)
            }
        };
        self.set(dst, r);
    }

    /// The bytes of `word` as an I16X8 (the four low bytes in lanes 0–3), each sign- or
    /// zero-extended.
    fn widen_bytes(&mut self, word: Value, signed: bool) -> Value {
        let w = self.b.ins().ireduce(types::I32, word);
        let v = self.b.ins().scalar_to_vector(types::I32X4, w);
        let flags = MemFlagsData::new().with_endianness(cranelift_codegen::ir::Endianness::Little);
        let bytes = self.b.ins().bitcast(types::I8X16, flags, v);
        if signed {
            self.b.ins().swiden_low(bytes)
        } else {
            self.b.ins().uwiden_low(bytes)
        }
    }
}

/// The products of the 16-bit lanes of `x` and `y` (two `i16x8`) as 32-bit lanes, summed
/// pairwise (an `i32x4`): the pattern Cranelift emits as one `pmaddwd`. Exact for products of
/// 8-bit values (17 bits, pair sums 18).
pub(super) fn multiply_add_pairs(
    b: &mut cranelift_frontend::FunctionBuilder,
    x: Value,
    y: Value,
) -> Value {
    let lo = {
        let (p, q) = (b.ins().swiden_low(x), b.ins().swiden_low(y));
        b.ins().imul(p, q)
    };
    let hi = {
        let (p, q) = (b.ins().swiden_high(x), b.ins().swiden_high(y));
        b.ins().imul(p, q)
    };
    b.ins().iadd_pairwise(lo, hi)
}

/// Cranelift's condition code of an integer comparison, and whether its operands compare as
/// signed (sign-extended from their width first).
pub(super) fn int_cc(op: ICmpOp) -> (IntCC, bool) {
    match op {
        ICmpOp::Eq => (IntCC::Equal, false),
        ICmpOp::Ne => (IntCC::NotEqual, false),
        ICmpOp::UGt => (IntCC::UnsignedGreaterThan, false),
        ICmpOp::UGe => (IntCC::UnsignedGreaterThanOrEqual, false),
        ICmpOp::ULt => (IntCC::UnsignedLessThan, false),
        ICmpOp::ULe => (IntCC::UnsignedLessThanOrEqual, false),
        ICmpOp::SGt => (IntCC::SignedGreaterThan, true),
        ICmpOp::SGe => (IntCC::SignedGreaterThanOrEqual, true),
        ICmpOp::SLt => (IntCC::SignedLessThan, true),
        ICmpOp::SLe => (IntCC::SignedLessThanOrEqual, true),
    }
}

/// How the JIT multiplies by a constant `c`: where `c` is 2^k + 1 or 2^k − 1 (k ≥ 1), a
/// shift and an add or a subtract, which x86-64 runs in one or two cycles (an `lea` for 3, 5
/// and 9; in vector lanes, two one-cycle instructions) where a multiplication takes three;
/// else a multiplication (Cranelift makes shifts of powers of two itself). The loop-carried
/// chains of branch-heavy kernels (`3x + 1`, `31h + x`) are where this counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MulShape {
    /// `x + (x << k)`.
    ShlAdd(u32),
    /// `(x << k) − x`.
    ShlSub(u32),
    Mul,
}

impl MulShape {
    /// `x × c` as a shift and an add or a subtract (`None`: a multiplication), for `x` an
    /// integer or a vector of integer lanes wider than the shift.
    pub(crate) fn shift_add(
        self,
        b: &mut cranelift_frontend::FunctionBuilder,
        x: Value,
    ) -> Option<Value> {
        match self {
            MulShape::ShlAdd(k) => {
                let s = b.ins().ishl_imm_s(x, k as i64);
                Some(b.ins().iadd(x, s))
            }
            MulShape::ShlSub(k) => {
                let s = b.ins().ishl_imm_s(x, k as i64);
                Some(b.ins().isub(s, x))
            }
            MulShape::Mul => None,
        }
    }

    pub(crate) fn of(c: u64) -> MulShape {
        if c >= 3 && (c - 1).is_power_of_two() {
            return MulShape::ShlAdd((c - 1).trailing_zeros());
        }
        match c.checked_add(1) {
            Some(p) if c >= 3 && p.is_power_of_two() => MulShape::ShlSub(p.trailing_zeros()),
            _ => MulShape::Mul,
        }
    }
}
