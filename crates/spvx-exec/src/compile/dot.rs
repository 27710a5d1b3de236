//! Translation of the dot products: the integer dot products of SPV_KHR_integer_dot_product
//! (OpSDot, OpUDot, OpSUDot and their AccSat forms) and the mixed float dot products of
//! SPV_VALVE_mixed_float_dot_product.

use super::func::Code;
use super::{Compiler, Value};
use crate::error::ExecError;
use crate::program::wide::{WideInst, WideOp};
use crate::program::*;
use spvx_num::intdot::{DotKind, DotSpec};
use spvx_num::mixdot::{Fp8Encoding, Half16Encoding, MixOp};
use spvx_spirv::instruction::Instruction;
use spvx_spirv::op::Op;

impl Compiler<'_> {
    /// An integer dot product (vectors, or packed 4×8 words): one [`Inst::IntDot`].
    pub(crate) fn int_dot(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        opcode: Op,
    ) -> Result<(), ExecError> {
        let kind = match opcode {
            Op::SDot | Op::SDotAccSat => DotKind::Signed,
            Op::UDot | Op::UDotAccSat => DotKind::Unsigned,
            _ => DotKind::Mixed,
        };
        let dst = self.result(index, inst)?;
        let (a, b) = (self.operand(index, inst, 0)?, self.operand(index, inst, 1)?);
        let acc = if matches!(opcode, Op::SDotAccSat | Op::UDotAccSat | Op::SUDotAccSat) {
            Some(self.operand(index, inst, 2)?.slot)
        } else {
            None
        };
        if self.is_wide_type(Some(dst.ty)) {
            return self.wide_int_dot(index, kind, (dst, a, b, acc), code);
        }
        let result_bits = self.scalar(index, dst.ty)?.bits();
        let (comp, n) = self.scalar_components(index, a.ty)?;
        let (comp_bits, count) = match (comp, n) {
            (Scalar::Int(32), 1) => (8, 0u8),
            (Scalar::Int(w), n) if n > 1 => (w as u32, n as u8),
            _ => {
                return Err(self.err(
                    index,
                    "dot product operands must be integer vectors or packed 32-bit words",
                ));
            }
        };
        let spec = DotSpec::new(kind, comp_bits, result_bits)
            .map_err(|e| self.err(index, e.to_string()))?;
        code.push(
            index,
            Inst::IntDot {
                spec,
                dst: dst.slot,
                a: a.slot,
                b: b.slot,
                count,
                acc,
            },
        );
        Ok(())
    }

    /// An integer dot product whose result is wider than 64 bits (one [`WideOp::IntDot`]):
    /// components of at most 64 bits, vectors or packed 4×8 words.
    fn wide_int_dot(
        &mut self,
        index: usize,
        kind: DotKind,
        (dst, a, b, acc): (Value, Value, Value, Option<Slot>),
        code: &mut Code,
    ) -> Result<(), ExecError> {
        let width = match self.ty(index, dst.ty)? {
            spvx_spirv::index::Type::Int { width, .. } => *width,
            _ => return Err(self.err(index, "expected an integer result")),
        };
        let bits = self.wide_bits(index, width)?;
        let component = self
            .ix
            .scalar_or_component(a.ty)
            .filter(|t| !self.is_wide_type(Some(*t)));
        if component.is_none() {
            return Err(self.unsupported(
                index,
                "integer dot products of components wider than 64 bits",
            ));
        }
        let (comp, n) = self.scalar_components(index, a.ty)?;
        let (comp_bits, count) = match (comp, n) {
            (Scalar::Int(32), 1) => (8, 0u8),
            (Scalar::Int(w), n) if n > 1 => (w as u32, n as u8),
            _ => {
                return Err(self.err(
                    index,
                    "dot product operands must be integer vectors or packed 32-bit words",
                ));
            }
        };
        let spec =
            DotSpec::new(kind, comp_bits, bits).map_err(|e| self.err(index, e.to_string()))?;
        code.push(
            index,
            Inst::Wide(Box::new(WideInst {
                op: WideOp::IntDot {
                    spec,
                    count,
                    acc: acc.is_some(),
                },
                dst: dst.slot,
                a: a.slot,
                b: b.slot,
                c: acc.unwrap_or(0),
                d: 0,
            })),
        );
        Ok(())
    }

    /// A VALVE mixed float dot product: one [`Inst::MixDot`].
    pub(crate) fn mix_dot(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        opcode: Op,
    ) -> Result<(), ExecError> {
        let op = match opcode {
            Op::FDot2MixAcc32VALVE => MixOp::Dot2Acc32,
            Op::FDot2MixAcc16VALVE => MixOp::Dot2Acc16,
            _ => MixOp::Dot4Acc32,
        };
        let dst = self.result(index, inst)?;
        let (a, b, acc) = (
            self.operand(index, inst, 0)?,
            self.operand(index, inst, 1)?,
            self.operand(index, inst, 2)?,
        );
        let (sa, _) = self.scalar_components(index, a.ty)?;
        let (sb, _) = self.scalar_components(index, b.ty)?;
        let half = match sa {
            Scalar::Float(FloatFmt::BF16) => Half16Encoding::Bf16,
            _ => Half16Encoding::F16,
        };
        let enc8 = |s: Scalar| match s {
            Scalar::Float(FloatFmt::E5M2) => Fp8Encoding::E5m2,
            _ => Fp8Encoding::E4m3,
        };
        code.push(
            index,
            Inst::MixDot {
                op,
                half,
                fp8: [enc8(sa), enc8(sb)],
                dst: dst.slot,
                a: a.slot,
                b: b.slot,
                acc: acc.slot,
            },
        );
        Ok(())
    }
}
