//! Translation of the atomic instructions (OpAtomic*: integer read-modify-write, load, store,
//! exchange, compare-exchange, and the float add/min/max of SPV_EXT_shader_atomic_float*).

use super::Compiler;
use super::func::Code;
use crate::error::ExecError;
use crate::program::*;
use spvx_spirv::instruction::Instruction;
use spvx_spirv::op::Op;

impl Compiler<'_> {
    /// An atomic instruction: one [`Inst::Atomic`].
    pub(crate) fn atomic_op(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        opcode: Op,
    ) -> Result<(), ExecError> {
        let op = match opcode {
            Op::AtomicLoad => AtomicOp::Load,
            Op::AtomicStore => AtomicOp::Store,
            Op::AtomicExchange => AtomicOp::Exchange,
            Op::AtomicCompareExchange => AtomicOp::CompareExchange,
            Op::AtomicIIncrement => AtomicOp::IIncrement,
            Op::AtomicIDecrement => AtomicOp::IDecrement,
            Op::AtomicIAdd => AtomicOp::IAdd,
            Op::AtomicISub => AtomicOp::ISub,
            Op::AtomicSMin => AtomicOp::SMin,
            Op::AtomicUMin => AtomicOp::UMin,
            Op::AtomicSMax => AtomicOp::SMax,
            Op::AtomicUMax => AtomicOp::UMax,
            Op::AtomicAnd => AtomicOp::And,
            Op::AtomicOr => AtomicOp::Or,
            Op::AtomicXor => AtomicOp::Xor,
            Op::AtomicFAddEXT => AtomicOp::FAdd,
            Op::AtomicFMinEXT => AtomicOp::FMin,
            Op::AtomicFMaxEXT => AtomicOp::FMax,
            other => return Err(self.unsupported(index, other.name())),
        };
        let ptr = self.operand(index, inst, 0)?;
        let pointee = self.pointee(index, ptr)?;
        let float_op = matches!(op, AtomicOp::FAdd | AtomicOp::FMin | AtomicOp::FMax);
        let bits_only = matches!(op, AtomicOp::Load | AtomicOp::Store | AtomicOp::Exchange);
        let bits = match self.scalar(index, pointee)? {
            Scalar::Int(b @ (32 | 64)) if !float_op => b,
            // SPV_EXT_shader_atomic_float_add / _float16_add / _float_min_max; load, store and
            // exchange of floats move bits.
            Scalar::Float(f @ (FloatFmt::F16 | FloatFmt::F32 | FloatFmt::F64))
                if float_op || bits_only =>
            {
                f.bits() as u8
            }
            _ => {
                return Err(self.unsupported(
                    index,
                    "atomics on types other than 32- and 64-bit integers and 16-, 32- and 64-bit floats",
                ));
            }
        };
        let (value, comparator) = match op {
            AtomicOp::Load | AtomicOp::IIncrement | AtomicOp::IDecrement => (None, None),
            AtomicOp::CompareExchange => (
                Some(self.operand(index, inst, 4)?.slot),
                Some(self.operand(index, inst, 5)?.slot),
            ),
            _ => (Some(self.operand(index, inst, 3)?.slot), None),
        };
        let dst = match inst.result {
            Some(_) => Some(self.result(index, inst)?.slot),
            None => None,
        };
        code.push(
            index,
            Inst::Atomic {
                op,
                bits,
                dst,
                ptr: ptr.slot,
                value,
                comparator,
            },
        );
        Ok(())
    }
}
