//! Translation of the float arithmetic instructions (OpFAdd, OpFSub, OpFMul, OpFDiv, OpFRem,
//! OpFMod, OpVectorTimesScalar, OpFNegate): one register instruction per component.

use super::Compiler;
use super::func::Code;
use crate::error::ExecError;
use crate::program::*;
use spvx_spirv::instruction::Instruction;
use spvx_spirv::op::Op;

impl Compiler<'_> {
    /// A float arithmetic instruction.
    pub(crate) fn float_op(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        op: Op,
    ) -> Result<(), ExecError> {
        let bop = match op {
            Op::FAdd => FBinOp::Add,
            Op::FSub => FBinOp::Sub,
            Op::FMul | Op::VectorTimesScalar => FBinOp::Mul,
            Op::FDiv => FBinOp::Div,
            Op::FRem => FBinOp::Rem,
            Op::FMod => FBinOp::Mod,
            Op::FNegate => {
                return self.each(index, inst, code, 1, |s, d, x| {
                    Ok(Inst::FNeg {
                        fmt: self.float_fmt(index, s, false)?,
                        dst: d,
                        a: x[0],
                    })
                });
            }
            other => return Err(self.unsupported(index, other.name())),
        };
        self.each(index, inst, code, 2, |s, d, x| {
            Ok(Inst::FBin {
                op: bop,
                fmt: self.float_fmt(index, s, true)?,
                dst: d,
                a: x[0],
                b: x[1],
            })
        })
    }
}
