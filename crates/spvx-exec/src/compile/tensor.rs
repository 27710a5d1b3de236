//! Translation of the SPV_ARM_tensors instructions (OpTensorReadARM, OpTensorWriteARM,
//! OpTensorQuerySizeARM).

use super::Compiler;
use super::func::Code;
use crate::error::ExecError;
use crate::program::*;
use spvx_spirv::index::Type;
use spvx_spirv::instruction::Instruction;
use spvx_spirv::op::Op;

impl Compiler<'_> {
    /// OpTensorReadARM, OpTensorWriteARM, OpTensorQuerySizeARM.
    pub(crate) fn tensor_op(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
    ) -> Result<(), ExecError> {
        let tensor = self.operand(index, inst, 0)?;
        let Type::Tensor { element, .. } = self.ty(index, tensor.ty)?.clone() else {
            return Err(self.err(index, "expected a tensor operand"));
        };
        let element = self.scalar(index, element)?;
        if inst.opcode == Op::TensorQuerySizeARM {
            let dst = self.result(index, inst)?;
            let d = self.operand(index, inst, 1)?;
            let dim = u32::try_from(self.eval[d.slot as usize])
                .map_err(|_| self.err(index, "dimension out of range"))?;
            let bits = self.scalar(index, dst.ty)?.bits() as u8;
            code.push(
                index,
                Inst::TensorSize {
                    dst: dst.slot,
                    tensor: tensor.slot,
                    dim,
                    bits,
                },
            );
            return Ok(());
        }
        let coords = self.operand(index, inst, 1)?;
        // Signed coordinates are sign-extended from their width (a negative one is outside);
        // unsigned ones are read as the register holds them, zero-extended (width 64).
        let (rank, coord_bits) = match self.ty(index, coords.ty)?.clone() {
            Type::Array { element, length } => (
                self.array_length(index, length)?,
                match self.ty(index, element)? {
                    Type::Int { signed: false, .. } => 64,
                    _ => self.scalar(index, element)?.bits(),
                },
            ),
            _ => return Err(self.err(index, "coordinates must be an integer array")),
        };
        let rank = u8::try_from(rank).map_err(|_| self.err(index, "tensor rank too large"))?;
        let count_of = |c: &Self, ty| -> Result<u32, ExecError> { c.slot_count(index, ty) };
        if inst.opcode == Op::TensorReadARM {
            let dst = self.result(index, inst)?;
            let count = count_of(self, dst.ty)?;
            let mask = inst.operands.get(2).and_then(|o| o.word()).unwrap_or(0);
            let oob = if mask & 0x2 != 0 {
                let v = self.operand(index, inst, 3)?;
                Some((v.slot, self.slot_count(index, v.ty)? > 1))
            } else {
                None
            };
            code.push(
                index,
                Inst::TensorRead {
                    dst: dst.slot,
                    tensor: tensor.slot,
                    coords: coords.slot,
                    rank,
                    coord_bits: coord_bits as u8,
                    count,
                    element,
                    oob,
                },
            );
        } else {
            let src = self.operand(index, inst, 2)?;
            let count = count_of(self, src.ty)?;
            code.push(
                index,
                Inst::TensorWrite {
                    tensor: tensor.slot,
                    coords: coords.slot,
                    rank,
                    coord_bits: coord_bits as u8,
                    count,
                    element,
                    src: src.slot,
                },
            );
        }
        Ok(())
    }
}
