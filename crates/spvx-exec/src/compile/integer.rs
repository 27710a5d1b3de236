//! Translation of the integer arithmetic and bit instructions (OpIAdd … OpBitwiseXor, the
//! shifts, OpSNegate, OpNot, OpBitReverse, OpBitCount, the bit-field instructions and the
//! two-result OpIAddCarry, OpISubBorrow, OpUMulExtended, OpSMulExtended): one register
//! instruction per component.

use super::Compiler;
use super::func::Code;
use crate::error::ExecError;
use crate::program::*;
use spvx_spirv::instruction::Instruction;
use spvx_spirv::op::Op;

impl Compiler<'_> {
    /// An integer arithmetic or bit instruction.
    pub(crate) fn integer_op(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        op: Op,
    ) -> Result<(), ExecError> {
        let bin = match op {
            Op::IAdd => Some(IBinOp::Add),
            Op::ISub => Some(IBinOp::Sub),
            Op::IMul => Some(IBinOp::Mul),
            Op::UDiv => Some(IBinOp::UDiv),
            Op::SDiv => Some(IBinOp::SDiv),
            Op::UMod => Some(IBinOp::UMod),
            Op::SRem => Some(IBinOp::SRem),
            Op::SMod => Some(IBinOp::SMod),
            Op::ShiftLeftLogical => Some(IBinOp::Shl),
            Op::ShiftRightLogical => Some(IBinOp::ShrLogical),
            Op::ShiftRightArithmetic => Some(IBinOp::ShrArith),
            Op::BitwiseAnd => Some(IBinOp::And),
            Op::BitwiseOr => Some(IBinOp::Or),
            Op::BitwiseXor => Some(IBinOp::Xor),
            _ => None,
        };
        if let Some(bop) = bin {
            return self.each(index, inst, code, 2, |s, d, x| {
                Ok(Inst::IBin {
                    op: bop,
                    bits: self.int_bits(index, s)?,
                    dst: d,
                    a: x[0],
                    b: x[1],
                })
            });
        }
        match op {
            Op::SNegate | Op::Not | Op::BitReverse => {
                let uop = match op {
                    Op::SNegate => IUnOp::Negate,
                    Op::Not => IUnOp::Not,
                    _ => IUnOp::BitReverse,
                };
                self.each(index, inst, code, 1, |s, d, x| {
                    Ok(Inst::IUn {
                        op: uop,
                        bits: self.int_bits(index, s)?,
                        dst: d,
                        a: x[0],
                    })
                })
            }
            Op::BitCount => {
                let dst = self.result(index, inst)?;
                let (rs, _) = self.scalar_components(index, dst.ty)?;
                let rbits = self.int_bits(index, rs)?;
                self.each(index, inst, code, 1, |_s, d, x| {
                    Ok(Inst::IUn {
                        op: IUnOp::BitCount,
                        bits: rbits,
                        dst: d,
                        a: x[0],
                    })
                })
            }
            Op::BitFieldInsert => self.each(index, inst, code, 4, |s, d, x| {
                Ok(Inst::BitFieldInsert {
                    bits: self.int_bits(index, s)?,
                    dst: d,
                    base: x[0],
                    insert: x[1],
                    offset: x[2],
                    count: x[3],
                })
            }),
            Op::BitFieldSExtract | Op::BitFieldUExtract => {
                let signed = op == Op::BitFieldSExtract;
                self.each(index, inst, code, 3, |s, d, x| {
                    Ok(Inst::BitFieldExtract {
                        bits: self.int_bits(index, s)?,
                        signed,
                        dst: d,
                        base: x[0],
                        offset: x[1],
                        count: x[2],
                    })
                })
            }
            Op::IAddCarry | Op::ISubBorrow | Op::UMulExtended | Op::SMulExtended => {
                let wop = match op {
                    Op::IAddCarry => IWideOp::AddCarry,
                    Op::ISubBorrow => IWideOp::SubBorrow,
                    Op::UMulExtended => IWideOp::UMulExtended,
                    _ => IWideOp::SMulExtended,
                };
                let dst = self.result(index, inst)?;
                let (a, b) = (self.operand(index, inst, 0)?, self.operand(index, inst, 1)?);
                let (s, n) = self.scalar_components(index, a.ty)?;
                let bits = self.int_bits(index, s)?;
                for k in 0..n {
                    code.push(
                        index,
                        Inst::IWide {
                            op: wop,
                            bits,
                            lo: dst.slot + k,
                            hi: dst.slot + n + k,
                            a: a.slot + k,
                            b: b.slot + k,
                        },
                    );
                }
                Ok(())
            }
            other => Err(self.unsupported(index, other.name())),
        }
    }
}
