//! Subgroup instructions in the lanes function: run in place on the lanes the dispatcher made
//! active (the interpreter's), the integer reductions and scans natively, the others once for
//! the subgroup through the interpreter's implementation (`runtime::group_callout`).

use super::LANES;
use crate::jit::group;
use crate::jit::lower::FnLower;
use crate::jit::status;
use crate::program::{GroupMode, GroupOp, Inst, ReduceOp, Slot};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{InstBuilder, Value, types};

const I64: types::Type = types::I64;

impl FnLower<'_, '_, '_> {
    /// A subgroup instruction on the active lanes: natively for the integer reductions and
    /// scans, else through the interpreter.
    pub(super) fn lanes_group(&mut self, k: u32) {
        let inst = &self.f.code[k as usize];
        if let Inst::Group {
            op: GroupOp::Arith(rop, mode),
            scalar,
            dst,
            a,
            ..
        } = *inst
            && let Some(combine) = IntCombine::of(rop, scalar.bits())
            && matches!(
                mode,
                GroupMode::Reduce | GroupMode::InclusiveScan | GroupMode::ExclusiveScan
            )
        {
            self.native_scan(combine, mode, dst, a);
            self.shared.native += 1;
            return;
        }
        let Some(sh) = group::shape(inst) else {
            return;
        };
        let id = self.new_callout(k);
        let full = self.lane_state().full;
        let mut bits = self
            .b
            .ins()
            .iconst(I64, if full { (1 << LANES) - 1 } else { 0 });
        for l in 0..LANES {
            if !full {
                let a = self.active(l);
                let a = self.b.ins().uextend(I64, a);
                let a = self.b.ins().ishl_imm_s(a, l as i64);
                bits = self.b.ins().bor(bits, a);
            }
            // The operands into the lane's register file (every lane: an inactive lane's
            // copy is not read).
            self.enter_lane(l, None);
            for slot in (sh.a..sh.a + sh.a_len).chain(sh.b..sh.b + sh.b_len) {
                if let Some(v) = self.var(slot) {
                    let v = self.b.use_var(v);
                    self.store_word(slot as i64, v);
                }
            }
        }
        self.enter_lane(0, None);
        let word = self.b.ins().ishl_imm_s(bits, 32);
        let word = self.b.ins().bor_imm_s(word, id as i64);
        let f = self.lane_state().group_callout;
        let call = self.b.ins().call(f, &[self.ctx, self.regs, word]);
        let r = self.b.inst_results(call)[0];
        let bad = self
            .b
            .ins()
            .icmp_imm_s(IntCC::NotEqual, r, status::DONE as i64);
        self.bail_if(bad);
        // Results the instruction wrote into registers that live in variables.
        for l in 0..LANES {
            let g = self.guard_of(l);
            self.enter_lane(l, g);
            for slot in sh.dst..sh.dst + sh.dst_len {
                if self.var(slot).is_some() {
                    let v = self.load_word(slot as i64);
                    self.set(slot, v);
                }
            }
        }
        self.enter_lane(0, None);
    }

    /// An integer reduction or scan over the active lanes in lane order, as
    /// `exec::subgroup::reduce_or_scan` computes it: each inactive lane contributes the
    /// operation's identity.
    fn native_scan(&mut self, op: IntCombine, mode: GroupMode, dst: Slot, a: Slot) {
        let mut acc = self.b.ins().iconst(I64, op.identity() as i64);
        let mut results = Vec::new();
        for l in 0..LANES {
            let g = self.guard_of(l);
            self.enter_lane(l, None);
            let mut v = self.val(a);
            if let Some(g) = g {
                let id = self.b.ins().iconst(I64, op.identity() as i64);
                v = self.b.ins().select(g, v, id);
            }
            let after = op.emit(self, acc, v);
            results.push(match mode {
                GroupMode::InclusiveScan => after,
                _ => acc,
            });
            acc = after;
        }
        for (l, r) in (0..LANES).zip(results) {
            let r = if mode == GroupMode::Reduce { acc } else { r };
            let g = self.guard_of(l);
            self.enter_lane(l, g);
            self.set(dst, r);
        }
        self.enter_lane(0, None);
    }
}

/// The integer operations of a reduction or scan the lanes lowering runs natively, on
/// `bits`-bit values.
#[derive(Clone, Copy)]
struct IntCombine {
    op: ReduceOp,
    bits: u32,
}

impl IntCombine {
    fn of(op: ReduceOp, bits: u32) -> Option<IntCombine> {
        let int = matches!(
            op,
            ReduceOp::IAdd
                | ReduceOp::IMul
                | ReduceOp::SMin
                | ReduceOp::SMax
                | ReduceOp::UMin
                | ReduceOp::UMax
                | ReduceOp::And
                | ReduceOp::Or
                | ReduceOp::Xor
        );
        (int && (1..=64).contains(&bits)).then_some(IntCombine { op, bits })
    }

    /// `x ∘ i = x` for every `bits`-bit `x` (`exec::subgroup`'s identities).
    fn identity(self) -> u64 {
        let m = crate::bits::low_bits(self.bits);
        match self.op {
            ReduceOp::IMul => 1,
            ReduceOp::And | ReduceOp::UMin => m,
            // The largest and the smallest signed values.
            ReduceOp::SMin => m >> 1,
            ReduceOp::SMax => (m >> 1) ^ m,
            _ => 0,
        }
    }

    /// `x ∘ y` on registers of `bits`-bit values (zero-extended), as `exec::subgroup`'s
    /// `combine`.
    fn emit(self, l: &mut FnLower, x: Value, y: Value) -> Value {
        let bits = self.bits;
        match self.op {
            ReduceOp::IAdd => {
                let r = l.b.ins().iadd(x, y);
                l.mask(r, bits)
            }
            ReduceOp::IMul => {
                let r = l.b.ins().imul(x, y);
                l.mask(r, bits)
            }
            ReduceOp::SMin | ReduceOp::SMax => {
                let (sx, sy) = (l.sext(x, bits), l.sext(y, bits));
                let r = if self.op == ReduceOp::SMin {
                    l.b.ins().smin(sx, sy)
                } else {
                    l.b.ins().smax(sx, sy)
                };
                l.mask(r, bits)
            }
            ReduceOp::UMin => l.b.ins().umin(x, y),
            ReduceOp::UMax => l.b.ins().umax(x, y),
            ReduceOp::And => l.b.ins().band(x, y),
            ReduceOp::Or => l.b.ins().bor(x, y),
            _ => l.b.ins().bxor(x, y),
        }
    }
}
