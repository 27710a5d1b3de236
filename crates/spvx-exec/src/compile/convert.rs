//! Translation of the conversion instructions (integer widths, float formats, float ↔
//! integer, the saturating forms) and of OpBitcast between non-pointer values; pointer
//! conversions go to `kernel` (physical addressing).

use super::Compiler;
use super::func::Code;
use crate::error::ExecError;
use crate::program::*;
use spvx_spirv::instruction::Instruction;
use spvx_spirv::op::Op;

impl Compiler<'_> {
    /// A conversion or OpBitcast.
    pub(crate) fn convert_op(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        op: Op,
    ) -> Result<(), ExecError> {
        match op {
            Op::UConvert
            | Op::SConvert
            | Op::FConvert
            | Op::ConvertFToU
            | Op::ConvertFToS
            | Op::ConvertSToF
            | Op::ConvertUToF
            | Op::SatConvertSToU
            | Op::SatConvertUToS => self.conversion(index, inst, code, op),
            Op::Bitcast
                if self.pointer_bits.is_some() && self.bitcast_has_pointer(index, inst)? =>
            {
                self.pointer_op(index, inst, code, op)
            }
            Op::Bitcast => self.bitcast(index, inst, code),
            other => Err(self.unsupported(index, other.name())),
        }
    }

    /// OpBitcast between values without pointers: the source leaves concatenated and split
    /// into the result's.
    fn bitcast(&self, index: usize, inst: &Instruction, code: &mut Code) -> Result<(), ExecError> {
        let dst = self.result(index, inst)?;
        let v = self.operand(index, inst, 0)?;
        let (ds, dn) = self.scalar_components(index, dst.ty)?;
        let (ss, sn) = self.scalar_components(index, v.ty)?;
        if ds == Scalar::Ptr || ss == Scalar::Ptr {
            return Err(self.unsupported(index, "bitcasts of pointers"));
        }
        if ds.bits() != ss.bits() && (ds.bits() * dn > 128 || ss.bits() * sn > 128) {
            return Err(self.unsupported(index, "bitcasts regrouping more than 128 bits"));
        }
        code.push(
            index,
            Inst::Bitcast {
                dst: dst.slot,
                dst_bits: ds.bits() as u8,
                dst_count: dn as u8,
                src: v.slot,
                src_bits: ss.bits() as u8,
                src_count: sn as u8,
            },
        );
        Ok(())
    }

    /// OpUConvert, OpSConvert, OpFConvert, OpConvertFToU/S, OpConvertU/SToF and
    /// OpSatConvertSToU/UToS: one conversion per component.
    fn conversion(
        &self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        opcode: Op,
    ) -> Result<(), ExecError> {
        let dst = self.result(index, inst)?;
        let (to, _) = self.scalar_components(index, dst.ty)?;
        let v = self.operand(index, inst, 0)?;
        let (from, n) = self.scalar_components(index, v.ty)?;
        let mode = self.rounding(inst.result);
        let saturated = self.saturated(inst.result);
        let sat = |f, t, from_signed, to_signed| ConvOp::SatConvert {
            from: f,
            to: t,
            from_signed,
            to_signed,
        };
        let op = match (opcode, from, to) {
            (Op::UConvert, Scalar::Int(f), Scalar::Int(t)) if saturated => sat(f, t, false, false),
            (Op::SConvert, Scalar::Int(f), Scalar::Int(t)) if saturated => sat(f, t, true, true),
            (Op::SatConvertSToU, Scalar::Int(f), Scalar::Int(t)) => sat(f, t, true, false),
            (Op::SatConvertUToS, Scalar::Int(f), Scalar::Int(t)) => sat(f, t, false, true),
            (Op::UConvert, Scalar::Int(f), Scalar::Int(t)) => ConvOp::UConvert { from: f, to: t },
            (Op::SConvert, Scalar::Int(f), Scalar::Int(t)) => ConvOp::SConvert { from: f, to: t },
            (Op::FConvert, Scalar::Float(f), Scalar::Float(t)) => ConvOp::FConvert {
                from: f,
                to: t,
                mode,
            },
            // With or without SaturatedConversion the result saturates.
            (Op::ConvertFToU | Op::ConvertFToS, Scalar::Float(f), Scalar::Int(t)) => ConvOp::FToI {
                from: f,
                to: t,
                signed: opcode == Op::ConvertFToS,
                mode: self.to_int_rounding(inst.result),
            },
            (Op::ConvertUToF | Op::ConvertSToF, Scalar::Int(f), Scalar::Float(t)) => ConvOp::IToF {
                from: f,
                to: t,
                signed: opcode == Op::ConvertSToF,
                mode,
            },
            _ => return Err(self.err(index, "conversion between these types")),
        };
        for k in 0..n {
            code.push(
                index,
                Inst::Convert {
                    op,
                    dst: dst.slot + k,
                    a: v.slot + k,
                },
            );
        }
        Ok(())
    }
}
