//! Translation of the instructions that move register leaves: OpSelect, OpCopyObject,
//! OpCopyLogical, the composite instructions (construct, replicated construct, extract, insert:
//! register copies at constant leaf offsets), OpVectorShuffle and the dynamic vector extract and insert.

use super::Compiler;
use super::func::Code;
use super::operands::literals;
use crate::error::ExecError;
use crate::program::*;
use spvx_spirv::instruction::Instruction;
use spvx_spirv::op::Op;

impl Compiler<'_> {
    /// A select, copy, composite or vector-component instruction.
    pub(crate) fn composite_op(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        op: Op,
    ) -> Result<(), ExecError> {
        match op {
            Op::Select => {
                let dst = self.result(index, inst)?;
                let cond = self.operand(index, inst, 0)?;
                let (a, b) = (self.operand(index, inst, 1)?, self.operand(index, inst, 2)?);
                let n = self.slot_count(index, dst.ty)?;
                let (_, cn) = self.components(index, cond.ty)?;
                for k in 0..n {
                    let c = if cn == 1 { cond.slot } else { cond.slot + k };
                    code.push(
                        index,
                        Inst::Select {
                            dst: dst.slot + k,
                            cond: c,
                            a: a.slot + k,
                            b: b.slot + k,
                        },
                    );
                }
                Ok(())
            }
            Op::CopyObject | Op::CopyLogical => {
                let dst = self.result(index, inst)?;
                let v = self.operand(index, inst, 0)?;
                self.copy(
                    index,
                    code,
                    dst.slot,
                    v.slot,
                    self.slot_count(index, dst.ty)?,
                );
                Ok(())
            }
            Op::CompositeConstruct => {
                let dst = self.result(index, inst)?;
                if matches!(
                    self.ty(index, dst.ty)?,
                    spvx_spirv::index::Type::Tensor { .. }
                ) {
                    return self.tensor_construct(index, inst, code);
                }
                let mut at = dst.slot;
                for i in 0..inst.operands.len() {
                    let v = self.operand(index, inst, i)?;
                    let n = self.slot_count(index, v.ty)?;
                    self.copy(index, code, at, v.slot, n);
                    at += n;
                }
                Ok(())
            }
            Op::CompositeConstructReplicateEXT => {
                // SPV_EXT_replicated_composites: every constituent is the one operand.
                let dst = self.result(index, inst)?;
                if matches!(
                    self.ty(index, dst.ty)?,
                    spvx_spirv::index::Type::Tensor { .. }
                ) {
                    return Err(self.unsupported(index, "replicated composites of a tensor type"));
                }
                let v = self.operand(index, inst, 0)?;
                let (n, m) = (
                    self.slot_count(index, dst.ty)?,
                    self.slot_count(index, v.ty)?,
                );
                if m == 0 || !n.is_multiple_of(m) {
                    return Err(self.err(index, "a value that does not divide the type"));
                }
                for at in (0..n).step_by(m as usize) {
                    self.copy(index, code, dst.slot + at, v.slot, m);
                }
                Ok(())
            }
            Op::CompositeExtract => {
                let dst = self.result(index, inst)?;
                let v = self.operand(index, inst, 0)?;
                if matches!(
                    self.ty(index, v.ty)?,
                    spvx_spirv::index::Type::Tensor { .. }
                ) {
                    return self.tensor_extract(index, inst, code);
                }
                let (off, _) = self.leaf_offset(index, v.ty, &literals(inst, 1))?;
                self.copy(
                    index,
                    code,
                    dst.slot,
                    v.slot + off,
                    self.slot_count(index, dst.ty)?,
                );
                Ok(())
            }
            Op::CompositeInsert => {
                let dst = self.result(index, inst)?;
                let obj = self.operand(index, inst, 0)?;
                let comp = self.operand(index, inst, 1)?;
                if matches!(
                    self.ty(index, comp.ty)?,
                    spvx_spirv::index::Type::Tensor { .. }
                ) {
                    return self.tensor_insert(index, inst, code);
                }
                let (off, n) = self.leaf_offset(index, comp.ty, &literals(inst, 2))?;
                self.copy(
                    index,
                    code,
                    dst.slot,
                    comp.slot,
                    self.slot_count(index, dst.ty)?,
                );
                self.copy(index, code, dst.slot + off, obj.slot, n);
                Ok(())
            }
            Op::VectorShuffle => {
                let dst = self.result(index, inst)?;
                let (a, b) = (self.operand(index, inst, 0)?, self.operand(index, inst, 1)?);
                let (_, na) = self.components(index, a.ty)?;
                for (k, c) in literals(inst, 2).into_iter().enumerate() {
                    let d = dst.slot + k as u32;
                    let i = if c == u32::MAX {
                        Inst::Const { dst: d, value: 0 }
                    } else if c < na {
                        Inst::Copy {
                            dst: d,
                            src: a.slot + c,
                        }
                    } else {
                        Inst::Copy {
                            dst: d,
                            src: b.slot + c - na,
                        }
                    };
                    code.push(index, i);
                }
                Ok(())
            }
            Op::VectorExtractDynamic => {
                let dst = self.result(index, inst)?;
                let (v, i) = (self.operand(index, inst, 0)?, self.operand(index, inst, 1)?);
                let (_, n) = self.components(index, v.ty)?;
                let ib = self.scalar(index, i.ty)?.bits() as u8;
                code.push(
                    index,
                    Inst::ExtractDyn {
                        dst: dst.slot,
                        base: v.slot,
                        count: n,
                        index: i.slot,
                        index_bits: ib,
                    },
                );
                Ok(())
            }
            Op::VectorInsertDynamic => {
                let dst = self.result(index, inst)?;
                let (v, x, i) = (
                    self.operand(index, inst, 0)?,
                    self.operand(index, inst, 1)?,
                    self.operand(index, inst, 2)?,
                );
                let (_, n) = self.components(index, v.ty)?;
                let ib = self.scalar(index, i.ty)?.bits() as u8;
                code.push(
                    index,
                    Inst::InsertDyn {
                        dst: dst.slot,
                        src: v.slot,
                        count: n,
                        value: x.slot,
                        index: i.slot,
                        index_bits: ib,
                    },
                );
                Ok(())
            }
            other => Err(self.unsupported(index, other.name())),
        }
    }
}
