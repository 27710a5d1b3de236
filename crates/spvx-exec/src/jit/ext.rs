//! The extension instructions in the JIT: integer dot products of every width, the VALVE mixed
//! dots, tensor reads, writes and size queries, the fixed-point functions, and the bit casts
//! between vectors and scalars the extension kernels are full of, and the atomics whose order
//! does not matter (`atomics`).
//!
//! Each is compiled into the native code (`analysis::native` accepts it, so its operands live
//! in Cranelift variables like any native instruction's). The common cases are computed inline
//! (`lower_mixdot`, `lower_tensor`, the vector dot and the bit cast below); the VALVE dots'
//! other cases and the fixed-point functions up to 64 bits call spvx-num directly
//! (`lower_mixdot`, `lower_fixed`); every other case — a special value, a tensor the table
//! does not describe, a fixed-point input spvx-num's fast path leaves unsettled or a wider
//! fixed-point function, an AccSat dot that could hit its undefined case — calls the
//! interpreter's own implementation of that one instruction for the one invocation, with
//! exactly its operands written to the register file before and its results read back after
//! ([`FnLower::call_host`]), instead of every variable as a general call-out does. A call that
//! reports an event bails, as every call-out does.

use super::lower::FnLower;
use crate::program::{FixedResult, Inst, Slot};
use cranelift_codegen::ir::InstBuilder;
use cranelift_codegen::ir::condcodes::IntCC;
use spvx_num::mixdot::MixOp;

/// Whether `inst` is an extension instruction the JIT compiles (inline or through
/// [`FnLower::call_host`]).
pub fn is_ext(inst: &Inst) -> bool {
    match inst {
        Inst::IntDot { .. }
        | Inst::MixDot { .. }
        | Inst::Fixed { .. }
        | Inst::TensorRead { .. }
        | Inst::TensorWrite { .. }
        | Inst::TensorSize { .. }
        | Inst::Atomic { .. } => true,
        Inst::Bitcast {
            dst_bits,
            dst_count,
            src_bits,
            src_count,
            ..
        } => {
            (*dst_bits as u32) * (*dst_count as u32) <= 64
                && (*src_bits as u32) * (*src_count as u32) <= 64
        }
        _ => false,
    }
}

/// Whether the lowering of `inst` may call into the interpreter or touch memory (such
/// instructions must not run for an inactive lane of the lanes function, nor speculatively).
pub fn calls_host(inst: &Inst) -> bool {
    is_ext(inst) && !matches!(inst, Inst::Bitcast { .. })
}

/// Registers of a fixed-point value of `bits` bits (64-bit limbs).
fn limbs(bits: u32) -> u32 {
    bits.div_ceil(64).max(1)
}

/// The registers an extension instruction reads and those it writes (`None`: not one).
pub fn operands(inst: &Inst) -> Option<(Vec<Slot>, Vec<Slot>)> {
    let range = |first: Slot, n: u32| (first..first + n).collect::<Vec<_>>();
    Some(match inst {
        Inst::IntDot {
            dst,
            a,
            b,
            count,
            acc,
            ..
        } => {
            let n = (*count as u32).max(1);
            let mut r = range(*a, n);
            r.extend(range(*b, n));
            r.extend(acc.iter().copied());
            (r, vec![*dst])
        }
        Inst::MixDot {
            op, dst, a, b, acc, ..
        } => {
            let n = if *op == MixOp::Dot4Acc32 { 4 } else { 2 };
            let mut r = range(*a, n);
            r.extend(range(*b, n));
            r.push(*acc);
            (r, vec![*dst])
        }
        Inst::Fixed {
            op,
            result,
            dst,
            src,
        } => {
            let rl = limbs(op.result_width);
            let out = match result {
                FixedResult::Single => rl,
                FixedResult::Vector => 2 * rl,
                FixedResult::Packed => limbs(2 * op.result_width),
            };
            (range(*src, limbs(op.input_width)), range(*dst, out))
        }
        Inst::TensorRead {
            dst,
            tensor,
            coords,
            rank,
            count,
            oob,
            ..
        } => {
            let mut r = vec![*tensor];
            r.extend(range(*coords, *rank as u32));
            match oob {
                Some((s, true)) => r.extend(range(*s, *count)),
                Some((s, false)) => r.push(*s),
                None => {}
            }
            (r, range(*dst, *count))
        }
        Inst::TensorWrite {
            tensor,
            coords,
            rank,
            count,
            src,
            ..
        } => {
            let mut r = vec![*tensor];
            r.extend(range(*coords, *rank as u32));
            r.extend(range(*src, *count));
            (r, Vec::new())
        }
        Inst::TensorSize { dst, tensor, .. } => (vec![*tensor], vec![*dst]),
        Inst::Atomic {
            dst,
            ptr,
            value,
            comparator,
            ..
        } => {
            let mut r = vec![*ptr];
            r.extend(value.iter().chain(comparator.iter()).copied());
            (r, dst.iter().copied().collect())
        }
        Inst::Bitcast {
            dst,
            dst_count,
            src,
            src_count,
            ..
        } => (
            range(*src, *src_count as u32),
            range(*dst, *dst_count as u32),
        ),
        _ => return None,
    })
}

impl FnLower<'_, '_, '_> {
    /// Runs the instruction being lowered through the interpreter for this invocation: its
    /// operands (`reads`) written to the register file, the call, a bail when it reported,
    /// its results (`writes`) read back.
    pub fn call_host(&mut self, reads: &[Slot], writes: &[Slot]) {
        let id = self.new_callout(self.at);
        for &s in reads {
            if let Some(v) = self.var(s) {
                let x = self.b.use_var(v);
                self.store_word(s as i64, x);
            }
        }
        let r = self.callout.call(self.b, (self.ctx, self.regs), id);
        let bad = self
            .b
            .ins()
            .icmp_imm_s(IntCC::NotEqual, r, super::status::DONE as i64);
        self.bail_if(bad);
        for &s in writes {
            if let Some(v) = self.var(s) {
                let x = self.load_word(s as i64);
                self.def_reg(s, v, x);
            }
        }
    }

    /// An extension instruction ([`is_ext`]).
    pub fn lower_ext(&mut self, inst: &Inst) {
        let Some((reads, writes)) = operands(inst) else {
            unreachable!("analysis::native accepts only extension instructions here")
        };
        match inst {
            Inst::IntDot {
                spec,
                dst,
                a,
                b,
                count,
                acc: None,
            } if *count > 0 && spec.result_bits() <= 64 && spec.component_bits() <= 64 => {
                self.vector_dot(spec, *dst, *a, *b, *count)
            }
            Inst::MixDot {
                op,
                half,
                fp8,
                dst,
                a,
                b,
                acc,
            } => self.mix_dot(*op, *half, *fp8, (*dst, *a, *b, *acc)),
            Inst::TensorRead {
                dst,
                tensor,
                coords,
                rank,
                coord_bits,
                count,
                element,
                oob,
                ..
            } => self.tensor_read(
                (*dst, *tensor, *coords),
                (*rank, *coord_bits, *count),
                *element,
                *oob,
                (&reads, &writes),
            ),
            Inst::TensorWrite {
                tensor,
                coords,
                rank,
                coord_bits,
                count,
                element,
                src,
            } => self.tensor_write(
                (*tensor, *coords, *src),
                (*rank, *coord_bits, *count),
                *element,
                (&reads, &writes),
            ),
            Inst::TensorSize {
                dst,
                tensor,
                dim,
                bits,
            } => self.tensor_size(*dst, *tensor, *dim, *bits, (&reads, &writes)),
            Inst::Bitcast {
                dst,
                dst_bits,
                dst_count,
                src,
                src_bits,
                src_count,
            } => self.bitcast(
                (*dst, *dst_bits as u32, *dst_count as u32),
                (*src, *src_bits as u32, *src_count as u32),
            ),
            Inst::Atomic { .. } => self.atomic(inst, &reads, &writes),
            Inst::Fixed {
                op,
                result,
                dst,
                src,
            } => match super::lower_fixed::fixed_index(self.shared.prog, op) {
                Some(index) => self.fixed(
                    index,
                    (*result, op.result_width),
                    (*dst, *src),
                    (&reads, &writes),
                ),
                None => self.call_host(&reads, &writes),
            },
            _ => self.call_host(&reads, &writes),
        }
    }

    /// A vector integer dot product without accumulator: the low result bits of the sum of the
    /// products modulo 2^64 (`DotSpec::dot`: the components sign- or zero-extended from their
    /// width).
    fn vector_dot(
        &mut self,
        spec: &spvx_num::intdot::DotSpec,
        dst: Slot,
        a: Slot,
        b: Slot,
        count: u8,
    ) {
        let kind = spec.kind();
        let cb = spec.component_bits();
        let mut sum = self.b.ins().iconst(super::lower::I64, 0);
        for i in 0..count as u32 {
            let (x, y) = (self.val(a + i), self.val(b + i));
            let x = if kind.vector1_signed() {
                self.sext(x, cb)
            } else {
                self.mask(x, cb)
            };
            let y = if kind.vector2_signed() {
                self.sext(y, cb)
            } else {
                self.mask(y, cb)
            };
            let p = self.b.ins().imul(x, y);
            sum = self.b.ins().iadd(sum, p);
        }
        let r = self.mask(sum, spec.result_bits());
        self.set(dst, r);
    }

    /// A bit cast between values of at most 64 bits (`exec::convert::bitcast`): the source
    /// leaves concatenated, component 0 lowest, split into the destination leaves.
    fn bitcast(&mut self, (dst, db, dn): (Slot, u32, u32), (src, sb, sn): (Slot, u32, u32)) {
        if db == sb {
            for k in 0..dn.min(sn) {
                let v = self.val(src + k);
                self.set(dst + k, v);
            }
            return;
        }
        let mut all = self.val(src);
        for i in 1..sn {
            let v = self.val(src + i);
            let v = self.b.ins().ishl_imm_s(v, (i * sb) as i64);
            all = self.b.ins().bor(all, v);
        }
        for i in 0..dn {
            let v = if i == 0 {
                all
            } else {
                self.b.ins().ushr_imm_s(all, (i * db) as i64)
            };
            let v = self.mask(v, db);
            self.set(dst + i, v);
        }
    }
}
