//! The vector-lanes lowering of the arithmetic, comparison, logic, select and conversion
//! instructions on 32-bit (or narrower) values: the results of `jit::lower_ops` lane by lane,
//! bit for bit. Registers hold zero-extended bit patterns of their width (booleans 0 or 1);
//! every result is normalised the same way. Divisions run lane by lane in scalar code (no
//! vector instruction), with the divisor of an inactive lane replaced by 1 so that it cannot
//! trap; a case the interpreter reports in an active lane bails.

use super::lower::{Cond, H, HALVES, I32, I32X4, V, VLower};
use crate::program::{ConvOp, FBinOp, FCmpOp, IBinOp, ICmpOp, IUnOp, Inst, LogicOp, Slot};
use cranelift_codegen::ir::condcodes::{CondCode, FloatCC, IntCC};
use cranelift_codegen::ir::{Endianness, InstBuilder, MemFlagsData, Value, types};

const F32X4: types::Type = types::F32X4;

impl VLower<'_, '_, '_> {
    /// Lowers an instruction `analysis::plan` admits.
    pub fn lower_inst(&mut self, inst: &Inst) {
        match inst {
            // A 32-bit value split into two 16-bit components (a word as an f16 or bf16
            // pair).
            Inst::Bitcast {
                dst,
                src,
                dst_count: 2,
                ..
            } => {
                let x = self.get(*src);
                let lo = self.vmask(x, 16);
                let hi = x.map(|x| self.b.ins().ushr_imm_s(x, 16));
                for h in HALVES {
                    self.split_words.insert((lo[h], hi[h]), x[h]);
                }
                self.put(*dst, lo);
                self.put(*dst + 1, hi);
            }
            Inst::MixDot {
                half,
                fp8,
                dst,
                a,
                b,
                acc,
                ..
            } => self.mix_dot2(*half, *fp8, (*dst, *a, *b, *acc)),
            Inst::IntDot {
                spec,
                dst,
                a,
                b,
                acc,
                ..
            } => self.packed_dot(spec, *dst, *a, *b, *acc),
            Inst::Copy { dst, src } | Inst::Bitcast { dst, src, .. } => {
                let v = self.get(*src);
                self.put(*dst, v);
            }
            Inst::Const { dst, value } => {
                let v = self.splat_i32(*value as u32 as i64);
                self.put(*dst, [v; H]);
            }
            Inst::IBin {
                op,
                bits,
                dst,
                a,
                b,
            } => self.ibin(*op, *bits as u32, *dst, *a, *b),
            Inst::IUn { op, bits, dst, a } => {
                let x = self.get(*a);
                let r = x.map(|x| match op {
                    IUnOp::Negate => self.b.ins().ineg(x),
                    _ => self.b.ins().bnot(x),
                });
                let r = self.vmask(r, *bits as u32);
                self.put(*dst, r);
            }
            Inst::ICmp {
                op,
                bits,
                dst,
                a,
                b,
            } => self.icmp(*op, *bits as u32, *dst, *a, *b),
            Inst::Logic { op, dst, a, b } => {
                let (x, y) = (self.get(*a), self.get(*b));
                let r = match op {
                    LogicOp::And => HALVES.map(|h| self.b.ins().band(x[h], y[h])),
                    LogicOp::Or => HALVES.map(|h| self.b.ins().bor(x[h], y[h])),
                    LogicOp::Equal => self.flags(IntCC::Equal, x, y),
                    LogicOp::NotEqual => self.flags(IntCC::NotEqual, x, y),
                };
                // And and Or of booleans made from masks: the masks' (for `cond_of`).
                if matches!(op, LogicOp::And | LogicOp::Or) {
                    for h in HALVES {
                        if let (Some(p), Some(q)) = (self.masks.get(&x[h]), self.masks.get(&y[h])) {
                            let m = self.combine(*op == LogicOp::And, *p, *q);
                            self.masks.insert(r[h], m);
                        }
                    }
                }
                self.put(*dst, r);
            }
            Inst::LNot { dst, a } => {
                let x = self.get(*a);
                let zero = self.splat_i32(0);
                let r = self.flags(IntCC::Equal, x, [zero; H]);
                self.put(*dst, r);
            }
            Inst::Select { dst, cond, a, b } => {
                let c = self.cond_of(*cond);
                let (x, y) = (self.get(*a), self.get(*b));
                let (x, y) = if c.negated { (y, x) } else { (x, y) };
                let r = HALVES.map(|h| self.b.ins().bitselect(c.m[h], x[h], y[h]));
                self.put(*dst, r);
            }
            Inst::Convert { op, dst, a } => {
                let x = self.get(*a);
                let r = match *op {
                    ConvOp::UConvert { to, .. } => self.vmask(x, to as u32),
                    ConvOp::SConvert { from, to } => {
                        let s = self.vsext(x, from as u32);
                        self.vmask(s, to as u32)
                    }
                    _ => unreachable!("analysis::plan admits no other conversion"),
                };
                self.put(*dst, r);
            }
            Inst::FBin { op, dst, a, b, .. } => {
                let (x, y) = (self.get(*a), self.get(*b));
                let r = HALVES.map(|h| {
                    let (fx, fy) = (self.as_f32(x[h]), self.as_f32(y[h]));
                    let r = match op {
                        FBinOp::Add => self.b.ins().fadd(fx, fy),
                        FBinOp::Sub => self.b.ins().fsub(fx, fy),
                        FBinOp::Mul => self.b.ins().fmul(fx, fy),
                        _ => self.b.ins().fdiv(fx, fy),
                    };
                    self.f32_bits(r)
                });
                self.put(*dst, r);
            }
            Inst::FNeg { dst, a, .. } => {
                let x = self.get(*a);
                let sign = self.splat_i32(i32::MIN as i64);
                let r = x.map(|x| self.b.ins().bxor(x, sign));
                self.put(*dst, r);
            }
            Inst::FCmp {
                op,
                ordered,
                dst,
                a,
                b,
                ..
            } => {
                let (x, y) = (self.get(*a), self.get(*b));
                let r = HALVES.map(|h| {
                    let (fx, fy) = (self.as_f32(x[h]), self.as_f32(y[h]));
                    self.fcmp(*op, *ordered, fx, fy)
                });
                let r = self.bools(r);
                self.put(*dst, r);
            }
            Inst::AccessChain {
                dst,
                base,
                offset,
                steps,
            } => self.access_chain(*dst, *base, *offset, steps),
            Inst::Load { dst, ptr, leaves } => self.load(*dst, *ptr, leaves),
            Inst::Store { ptr, src, leaves } => self.store(*ptr, *src, leaves),
            other => unreachable!("analysis::plan admits no {other:?}"),
        }
    }

    /// The low `bits` bits of each lane.
    pub fn vmask(&mut self, x: V, bits: u32) -> V {
        if bits >= 32 {
            return x;
        }
        let m = self.splat_i32(crate::bits::low_bits(bits) as i64);
        x.map(|x| self.b.ins().band(x, m))
    }

    /// Each lane's `bits`-bit pattern sign-extended to 32 bits.
    pub fn vsext(&mut self, x: V, bits: u32) -> V {
        if bits >= 32 {
            return x;
        }
        let s = self.b.ins().iconst(I32, 32 - bits as i64);
        x.map(|x| {
            let up = self.b.ins().ishl(x, s);
            self.b.ins().sshr(up, s)
        })
    }

    /// `x cc y` per lane as 0 or 1; where x86 has no compare for `cc`, made from the
    /// negation's masks (one instruction fewer, and none when a branch or a select uses them).
    fn flags(&mut self, cc: IntCC, x: V, y: V) -> V {
        let negated = matches!(
            cc,
            IntCC::NotEqual
                | IntCC::UnsignedLessThan
                | IntCC::UnsignedGreaterThan
                | IntCC::SignedGreaterThanOrEqual
                | IntCC::SignedLessThanOrEqual
        );
        let cc = if negated { cc.complement() } else { cc };
        let m = HALVES.map(|h| self.b.ins().icmp(cc, x[h], y[h]));
        self.bools_of(Cond { m, negated })
    }

    /// The masks (and whether negated) of `p` and `q`, or of `p` or `q`, each given as masks
    /// and whether negated: De Morgan's laws, so that no negation is computed.
    fn combine(&mut self, and: bool, p: (Value, bool), q: (Value, bool)) -> (Value, bool) {
        let b = &mut self.b;
        match (and, p.1, q.1) {
            (true, false, false) => (b.ins().band(p.0, q.0), false),
            (true, true, true) => (b.ins().bor(p.0, q.0), true),
            (true, false, true) => (b.ins().band_not(p.0, q.0), false),
            (true, true, false) => (b.ins().band_not(q.0, p.0), false),
            (false, false, false) => (b.ins().bor(p.0, q.0), false),
            (false, true, true) => (b.ins().band(p.0, q.0), true),
            (false, false, true) => (b.ins().band_not(q.0, p.0), true),
            (false, true, false) => (b.ins().band_not(p.0, q.0), true),
        }
    }

    fn icmp(&mut self, op: ICmpOp, bits: u32, dst: Slot, a: Slot, b: Slot) {
        let (x, y) = (self.get(a), self.get(b));
        let (cc, signed) = crate::jit::lower_ops::int_cc(op);
        let (x, y) = if signed {
            (self.vsext(x, bits), self.vsext(y, bits))
        } else {
            (x, y)
        };
        let r = self.flags(cc, x, y);
        self.put(dst, r);
    }

    fn ibin(&mut self, op: IBinOp, bits: u32, dst: Slot, a: Slot, b: Slot) {
        // (Operands are read where used: a constant's read is a load from the pool, which
        // stays in the code even when its value is not used.)
        let r = match op {
            IBinOp::Mul => {
                let r = match self.constant_factor(a, b) {
                    Some((x, c)) => x.map(|x| self.mul_by(x, c)),
                    None => {
                        let (x, y) = (self.get(a), self.get(b));
                        HALVES.map(|h| self.b.ins().imul(x[h], y[h]))
                    }
                };
                self.vmask(r, bits)
            }
            IBinOp::Add | IBinOp::Sub => {
                let (x, y) = (self.get(a), self.get(b));
                let r = HALVES.map(|h| match op {
                    IBinOp::Add => self.b.ins().iadd(x[h], y[h]),
                    _ => self.b.ins().isub(x[h], y[h]),
                });
                self.vmask(r, bits)
            }
            IBinOp::And | IBinOp::Or | IBinOp::Xor => {
                let (x, y) = (self.get(a), self.get(b));
                HALVES.map(|h| match op {
                    IBinOp::And => self.b.ins().band(x[h], y[h]),
                    IBinOp::Or => self.b.ins().bor(x[h], y[h]),
                    _ => self.b.ins().bxor(x[h], y[h]),
                })
            }
            IBinOp::Shl | IBinOp::ShrLogical | IBinOp::ShrArith => {
                let x = self.get(a);
                self.shift(op, bits, x, b)
            }
            IBinOp::UDiv | IBinOp::UMod => match self.plan.kind(b) {
                super::analysis::Kind::Const(c) if c as u32 & width_mask(bits) != 0 => {
                    let x = self.get(a);
                    self.divide_by(op, x, c as u32 & width_mask(bits))
                }
                _ => {
                    let (x, y) = (self.get(a), self.get(b));
                    self.divide(op, bits, x, y)
                }
            },
            _ => {
                let (x, y) = (self.get(a), self.get(b));
                self.divide(op, bits, x, y)
            }
        };
        self.put(dst, r);
    }

    /// For a product with a constant factor: the other factor's value and the constant.
    fn constant_factor(&mut self, a: Slot, b: Slot) -> Option<(V, u64)> {
        use super::analysis::Kind::Const;
        match (self.plan.kind(a), self.plan.kind(b)) {
            (_, Const(c)) => Some((self.get(a), c as u32 as u64)),
            (Const(c), _) => Some((self.get(b), c as u32 as u64)),
            _ => None,
        }
    }

    /// `x × c` per lane modulo 2^32 for a constant `c` below 2^32 (`lower_ops::MulShape`;
    /// 2^32 − 1 multiplies, as a 32-bit lane cannot shift by 32).
    fn mul_by(&mut self, x: Value, c: u64) -> Value {
        use crate::jit::lower_ops::MulShape;
        let shape = match MulShape::of(c) {
            MulShape::ShlSub(k) if k >= 32 => MulShape::Mul,
            s => s,
        };
        shape.shift_add(self.b, x).unwrap_or_else(|| {
            let k = self.splat_i32(c as i64);
            self.b.ins().imul(x, k)
        })
    }

    /// A shift: by a constant amount on whole vectors, else lane by lane; an amount of the
    /// width or more in an active lane bails (the interpreter reports it).
    fn shift(&mut self, op: IBinOp, bits: u32, x: V, amount: Slot) -> V {
        let x = if op == IBinOp::ShrArith {
            self.vsext(x, bits)
        } else {
            x
        };
        let by = |l: &mut Self, x: Value, n: Value| match op {
            IBinOp::Shl => l.b.ins().ishl(x, n),
            IBinOp::ShrLogical => l.b.ins().ushr(x, n),
            _ => l.b.ins().sshr(x, n),
        };
        let r = match self.plan.kind(amount) {
            super::analysis::Kind::Const(c) => {
                if c >= bits as u64 {
                    let all = self.splat_i32(-1);
                    self.bail_any([all; H]);
                }
                let n = self.b.ins().iconst(I32, (c as u32 % 32) as i64);
                x.map(|x| by(self, x, n))
            }
            _ => {
                let y = self.get(amount);
                let w = self.splat_i32(bits as i64);
                let far = y.map(|y| self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, y, w));
                self.bail_any(far);
                self.per_lane(x, y, |l, a, n| by(l, a, n))
            }
        };
        self.vmask(r, bits)
    }

    /// `f(x, y)` computed lane by lane on the scalar lanes of `x` and `y`.
    fn per_lane(&mut self, x: V, y: V, f: impl Fn(&mut Self, Value, Value) -> Value) -> V {
        HALVES.map(|h| {
            let mut r = x[h];
            for i in 0..4u8 {
                let a = self.b.ins().extractlane(x[h], i);
                let b = self.b.ins().extractlane(y[h], i);
                let v = f(self, a, b);
                r = self.b.ins().insertlane(r, v, i);
            }
            r
        })
    }

    /// An unsigned division or remainder by the constant `d` (not 0) on whole vectors, by a
    /// multiplication (`magic_quotient`): no case to check.
    fn divide_by(&mut self, op: IBinOp, x: V, d: u32) -> V {
        HALVES.map(|h| {
            let q = self.magic_quotient(x[h], d);
            match op {
                IBinOp::UDiv => q,
                _ => {
                    let k = self.splat_i32(d as i64);
                    let qd = self.b.ins().imul(q, k);
                    self.b.ins().isub(x[h], qd)
                }
            }
        })
    }

    /// `x / d` per 32-bit lane (unsigned, `d` ≥ 1): a shift for a power of two, else Granlund
    /// and Montgomery's multiplication for 32-bit divisors ("Division by invariant integers
    /// using multiplication", 1994, figure 4.1): with `2^(l−1) < d < 2^l` and
    /// `m = ⌊2^32 (2^l − d) / d⌋ + 1` (below 2^32), `t = ⌊m x / 2^32⌋` and
    /// `q = (t + ((x − t) >> 1)) >> (l − 1)`, exact for every 32-bit `x`. The high halves of
    /// the products come from 64-bit lanes (two per vector): each a product of two widened
    /// 32-bit vectors, which Cranelift lowers to one `pmuludq` (a product of 64-bit lanes
    /// would take three, their high halves being unknown to it).
    fn magic_quotient(&mut self, x: Value, d: u32) -> Value {
        if d.is_power_of_two() {
            return self.b.ins().ushr_imm_s(x, d.trailing_zeros() as i64);
        }
        let l = 32 - (d - 1).leading_zeros();
        let m = (((1u64 << 32) * ((1u64 << l) - u64::from(d))) / u64::from(d) + 1) as u32;
        let wide = |l: &mut Self, high: bool| {
            let mv = l.splat_bits32(I32X4, m);
            let (xw, mw) = if high {
                (l.b.ins().uwiden_high(x), l.b.ins().uwiden_high(mv))
            } else {
                (l.b.ins().uwiden_low(x), l.b.ins().uwiden_low(mv))
            };
            let p = l.b.ins().imul(xw, mw);
            l.b.ins().ushr_imm_s(p, 32)
        };
        let (lo, hi) = (wide(self, false), wide(self, true));
        // The low 32 bits of each 64-bit lane, back in order: lanes 0 and 2 of each.
        let t = crate::jit::shuffles::even_words(self.b, lo, hi);
        let diff = self.b.ins().isub(x, t);
        let half = self.b.ins().ushr_imm_s(diff, 1);
        let sum = self.b.ins().iadd(t, half);
        self.b.ins().ushr_imm_s(sum, i64::from(l - 1))
    }

    /// Integer division and remainders, lane by lane (`lower_ops::ibin`'s cases).
    fn divide(&mut self, op: IBinOp, bits: u32, x: V, y: V) -> V {
        let zero = self.splat_i32(0);
        let one = self.splat_i32(1);
        let signed = !matches!(op, IBinOp::UDiv | IBinOp::UMod);
        let (x, y) = if signed {
            (self.vsext(x, bits), self.vsext(y, bits))
        } else {
            (x, y)
        };
        let z = y.map(|y| self.b.ins().icmp(IntCC::Equal, y, zero));
        self.bail_any(z);
        let minus_one = self.splat_i32(-1);
        let m1 = y.map(|y| self.b.ins().icmp(IntCC::Equal, y, minus_one));
        if op == IBinOp::SDiv {
            // MIN / −1 is reported by the interpreter.
            let min = self.splat_i32((1i64 << (bits - 1)).wrapping_neg());
            let over = HALVES.map(|h| {
                let is_min = self.b.ins().icmp(IntCC::Equal, x[h], min);
                self.b.ins().band(is_min, m1[h])
            });
            self.bail_any(over);
        }
        // Inactive lanes divide by 1 (their values are not used and must not trap); x rem −1
        // is 0, so divide by 1 there too (MIN rem −1 would trap).
        let mut safe = y;
        if let Some(a) = self.act() {
            safe = HALVES.map(|h| self.b.ins().bitselect(a[h], safe[h], one));
        }
        if matches!(op, IBinOp::SRem | IBinOp::SMod) {
            safe = HALVES.map(|h| self.b.ins().bitselect(m1[h], one, safe[h]));
        }
        let r = self.per_lane(x, safe, |l, a, b| match op {
            IBinOp::UDiv => l.b.ins().udiv(a, b),
            IBinOp::UMod => l.b.ins().urem(a, b),
            IBinOp::SDiv => l.b.ins().sdiv(a, b),
            _ => l.b.ins().srem(a, b),
        });
        let r = if op == IBinOp::SMod {
            // The sign of the divisor: r + y where r ≠ 0 and the signs differ.
            HALVES.map(|h| {
                let nonzero = self.b.ins().icmp(IntCC::NotEqual, r[h], zero);
                let rx = self.b.ins().bxor(r[h], y[h]);
                let differ = self.b.ins().icmp(IntCC::SignedLessThan, rx, zero);
                let fix = self.b.ins().band(nonzero, differ);
                let adjusted = self.b.ins().iadd(r[h], y[h]);
                self.b.ins().bitselect(fix, adjusted, r[h])
            })
        } else {
            r
        };
        self.vmask(r, bits)
    }

    fn as_f32(&mut self, x: Value) -> Value {
        let flags = MemFlagsData::new().with_endianness(Endianness::Little);
        self.b.ins().bitcast(F32X4, flags, x)
    }

    /// Float results as register patterns, NaN canonical (as `exec::float_bits` gives it).
    fn f32_bits(&mut self, r: Value) -> Value {
        let flags = MemFlagsData::new().with_endianness(Endianness::Little);
        let nan = self.b.ins().fcmp(FloatCC::Unordered, r, r);
        let w = self.b.ins().bitcast(I32X4, flags, r);
        let q = self.splat_i32(0x7fc0_0000);
        self.b.ins().bitselect(nan, q, w)
    }

    /// A float comparison as masks: ordered (false when either is NaN) or unordered (true).
    fn fcmp(&mut self, op: FCmpOp, ordered: bool, x: Value, y: Value) -> Value {
        let base = match op {
            FCmpOp::Ord => return self.b.ins().fcmp(FloatCC::Ordered, x, y),
            FCmpOp::Uno => return self.b.ins().fcmp(FloatCC::Unordered, x, y),
            FCmpOp::Eq => self.b.ins().fcmp(FloatCC::Equal, x, y),
            FCmpOp::Ne => {
                // Ordered and not equal.
                let ne = self.b.ins().fcmp(FloatCC::NotEqual, x, y);
                let ord = self.b.ins().fcmp(FloatCC::Ordered, x, y);
                self.b.ins().band(ne, ord)
            }
            FCmpOp::Lt => self.b.ins().fcmp(FloatCC::LessThan, x, y),
            FCmpOp::Gt => self.b.ins().fcmp(FloatCC::LessThan, y, x),
            FCmpOp::Le => self.b.ins().fcmp(FloatCC::LessThanOrEqual, x, y),
            _ => self.b.ins().fcmp(FloatCC::LessThanOrEqual, y, x),
        };
        if ordered {
            base
        } else {
            let uno = self.b.ins().fcmp(FloatCC::Unordered, x, y);
            self.b.ins().bor(base, uno)
        }
    }
}

/// The bits of a value of width `bits` (at most 32).
fn width_mask(bits: u32) -> u32 {
    if bits >= 32 {
        u32::MAX
    } else {
        (1 << bits) - 1
    }
}
