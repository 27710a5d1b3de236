//! The fixed-point functions (SPV_INTEL_arbitrary_precision_fixed_point) in native code: for
//! input and result widths up to 64 bits, a call of spvx-num's C-ABI function
//! (`fixed::abi::eval`) on the operation prepared once per compiled program ([`fixed_ops`],
//! read through the context: the code holds no address of the process). What that function
//! leaves unsettled — a special input, whose result comes with a report, or an input its fast
//! path does not decide — and every wider operation go to the interpreter's implementation for
//! the one invocation (`FnLower::call_host`), which evaluates it in full.

use super::lower::{FnLower, I64};
use super::runtime::{CTX_FIXED_ENTRY, CTX_FIXED_OPS, invariant};
use crate::program::{FixedResult, Inst, Program, Slot};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    AbiParam, InstBuilder, MemFlagsData, Signature, StackSlotData, StackSlotKind,
};
use spvx_num::fixed::FixedOp;
use spvx_num::fixed::abi::{Prepared, SETTLED};

/// The distinct fixed-point operations of `prog` that native code evaluates through spvx-num,
/// in the order of their first instruction, prepared: the table [`fixed_index`] numbers.
pub fn fixed_ops(prog: &Program) -> Vec<Prepared> {
    distinct(prog).into_iter().map(|(_, p)| p).collect()
}

/// The index of `op` in [`fixed_ops`] of `prog`; `None` when native code does not evaluate it
/// (wider than 64 bits, or formats spvx-num refuses).
pub fn fixed_index(prog: &Program, op: &FixedOp) -> Option<usize> {
    distinct(prog).iter().position(|(o, _)| o == op)
}

/// The distinct fixed-point operations of `prog` that spvx-num prepares, in order, each with
/// its preparation.
fn distinct(prog: &Program) -> Vec<(FixedOp, Prepared)> {
    let mut ops: Vec<(FixedOp, Prepared)> = Vec::new();
    for inst in prog.functions.iter().flat_map(|f| f.code.iter()) {
        if let Inst::Fixed { op, .. } = inst
            && !ops.iter().any(|(o, _)| o == op)
            && let Some(p) = Prepared::new(op)
        {
            ops.push((*op, p));
        }
    }
    ops
}

impl FnLower<'_, '_, '_> {
    /// A fixed-point function whose operation is entry `index` of the program's table:
    /// spvx-num's result when it settles the input, else the interpreter's.
    pub fn fixed(
        &mut self,
        index: usize,
        (result, rw): (FixedResult, u32),
        (dst, src): (Slot, Slot),
        (reads, writes): (&[Slot], &[Slot]),
    ) {
        let flags = invariant();
        let table = self.b.ins().load(I64, flags, self.ctx, CTX_FIXED_OPS);
        let size = std::mem::size_of::<Prepared>() as i64;
        let op = self.b.ins().iadd_imm_s(table, index as i64 * size);
        let callee = self.b.ins().load(I64, flags, self.ctx, CTX_FIXED_ENTRY);
        let slot =
            self.b
                .create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 16, 3));
        let out = self.b.ins().stack_addr(I64, slot, 0);
        let mut sig = Signature::new(self.b.func.signature.call_conv);
        sig.params.extend([AbiParam::new(I64); 3]);
        sig.returns.push(AbiParam::new(I64));
        let sig = self.b.import_signature(sig);
        let x = self.val(src);
        let call = self.b.ins().call_indirect(sig, callee, &[op, x, out]);
        let status = self.b.inst_results(call)[0];
        let settled = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, status, SETTLED as i64);
        let (fast, slow, join) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.set_cold_block(slow);
        self.b.ins().brif(settled, fast, &[], slow, &[]);

        self.b.switch_to_block(fast);
        let t = MemFlagsData::trusted();
        let value = self.b.ins().load(I64, t, out, 0);
        match result {
            FixedResult::Single => self.set(dst, value),
            FixedResult::Vector => {
                let cos = self.b.ins().load(I64, t, out, 8);
                self.set(dst, value);
                self.set(dst + 1, cos);
            }
            FixedResult::Packed => {
                // 2·rW bits, sine high: one register, or two 64-bit limbs.
                let cos = self.b.ins().load(I64, t, out, 8);
                if 2 * rw <= 64 {
                    let high = self.b.ins().ishl_imm_s(value, rw as i64);
                    let packed = self.b.ins().bor(high, cos);
                    self.set(dst, packed);
                } else {
                    let (low, high) = if rw == 64 {
                        (cos, value)
                    } else {
                        let up = self.b.ins().ishl_imm_s(value, rw as i64);
                        let low = self.b.ins().bor(up, cos);
                        let high = self.b.ins().ushr_imm_s(value, 64 - rw as i64);
                        (low, high)
                    };
                    self.set(dst, low);
                    self.set(dst + 1, high);
                }
            }
        }
        self.b.ins().jump(join, &[]);

        self.b.switch_to_block(slow);
        self.call_host(reads, writes);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
    }
}
