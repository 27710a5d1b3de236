//! The less common instructions on integers wider than 64 bits: the two-result arithmetic
//! (OpIAddCarry, OpISubBorrow, OpU/SMulExtended), the bit instructions (OpBitCount,
//! OpBitReverse, OpBitField*) and the conversions to and from floats. One `WideInst` per
//! component (`exec::wide`); registers as `compile::wide` describes.

use super::Compiler;
use super::func::Code;
use crate::error::ExecError;
use crate::exec::limbs::limbs;
use crate::program::wide::{WideInst, WideOp};
use crate::program::*;
use spvx_spirv::instruction::Instruction;
use spvx_spirv::op::Op;

impl Compiler<'_> {
    /// The integer component width and count of operand `i`.
    fn int_operand(
        &self,
        index: usize,
        inst: &Instruction,
        i: usize,
    ) -> Result<(Slot, u32, u32), ExecError> {
        let v = self.operand(index, inst, i)?;
        let (bits, n) = self
            .int_shape(v.ty)
            .ok_or_else(|| self.err(index, format!("operand {i} is not an integer")))?;
        Ok((v.slot, self.wide_bits(index, bits)?, n))
    }

    fn push_wide(&self, index: usize, code: &mut Code, op: WideOp, regs: [Slot; 5]) {
        let [dst, a, b, c, d] = regs;
        code.push(
            index,
            Inst::Wide(Box::new(WideInst {
                op,
                dst,
                a,
                b,
                c,
                d,
            })),
        );
    }

    /// OpIAddCarry, OpISubBorrow, OpUMulExtended, OpSMulExtended: the result struct holds the
    /// low parts (member 0, `n` components) then the high parts (member 1).
    pub(crate) fn wide_extended(
        &self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        op: IWideOp,
    ) -> Result<(), ExecError> {
        let dst = self.result(index, inst)?;
        let (a, bits, n) = self.int_operand(index, inst, 0)?;
        let (b, _, _) = self.int_operand(index, inst, 1)?;
        let k = limbs(bits) as u32;
        for i in 0..n {
            let lo = dst.slot + i * k;
            let hi = dst.slot + (n + i) * k;
            self.push_wide(
                index,
                code,
                WideOp::Extended { op, bits },
                [lo, a + i * k, b + i * k, hi, 0],
            );
        }
        Ok(())
    }

    /// OpBitCount, OpBitReverse, OpBitFieldInsert, OpBitFieldSExtract, OpBitFieldUExtract.
    pub(crate) fn wide_bit_op(
        &self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        opcode: Op,
    ) -> Result<(), ExecError> {
        let dst = self.result(index, inst)?;
        let (a, bits, n) = self.int_operand(index, inst, 0)?;
        let k = limbs(bits) as u32;
        let (rbits, _) = self
            .int_shape(dst.ty)
            .ok_or_else(|| self.err(index, "the result is not an integer"))?;
        let rk = limbs(self.wide_bits(index, rbits)?) as u32;
        for i in 0..n {
            let (d, x) = (dst.slot + i * rk, a + i * k);
            let (op, regs) = match opcode {
                Op::BitCount => (
                    WideOp::BitCount {
                        bits,
                        result_bits: rbits,
                    },
                    [d, x, 0, 0, 0],
                ),
                Op::BitReverse => (WideOp::BitReverse { bits }, [d, x, 0, 0, 0]),
                Op::BitFieldInsert => {
                    let (ins, _, _) = self.int_operand(index, inst, 1)?;
                    let (off, offset_bits, _) = self.int_operand(index, inst, 2)?;
                    let (cnt, count_bits, _) = self.int_operand(index, inst, 3)?;
                    let op = WideOp::FieldInsert {
                        bits,
                        offset_bits,
                        count_bits,
                    };
                    (op, [d, x, ins + i * k, off, cnt])
                }
                _ => {
                    let (off, offset_bits, _) = self.int_operand(index, inst, 1)?;
                    let (cnt, count_bits, _) = self.int_operand(index, inst, 2)?;
                    let signed = opcode == Op::BitFieldSExtract;
                    let op = WideOp::FieldExtract {
                        bits,
                        signed,
                        offset_bits,
                        count_bits,
                    };
                    (op, [d, x, off, cnt, 0])
                }
            };
            self.push_wide(index, code, op, regs);
        }
        Ok(())
    }

    /// OpConvertUToF / OpConvertSToF from, and OpConvertFToU / OpConvertFToS to, integers
    /// wider than 64 bits.
    pub(crate) fn wide_float_conversion(
        &self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        opcode: Op,
    ) -> Result<(), ExecError> {
        let dst = self.result(index, inst)?;
        let v = self.operand(index, inst, 0)?;
        let to_float = matches!(opcode, Op::ConvertUToF | Op::ConvertSToF);
        let signed = matches!(opcode, Op::ConvertSToF | Op::ConvertFToS);
        let (float_ty, int_ty) = if to_float {
            (dst.ty, v.ty)
        } else {
            (v.ty, dst.ty)
        };
        let (fs, n) = self.scalar_components(index, float_ty)?;
        let fmt = self.float_fmt(index, fs, false)?;
        let (bits, _) = self
            .int_shape(int_ty)
            .ok_or_else(|| self.err(index, "conversion between these types"))?;
        let k = limbs(self.wide_bits(index, bits)?) as u32;
        let mode = self.rounding(inst.result);
        let to_int_mode = self.to_int_rounding(inst.result);
        for i in 0..n {
            let (op, regs) = if to_float {
                let op = WideOp::IntToFloat {
                    bits,
                    to: fmt,
                    signed,
                    mode,
                };
                (op, [dst.slot + i, v.slot + i * k, 0, 0, 0])
            } else {
                let op = WideOp::FloatToInt {
                    from: fmt,
                    bits,
                    signed,
                    mode: to_int_mode,
                };
                (op, [dst.slot + i * k, v.slot + i, 0, 0, 0])
            };
            self.push_wide(index, code, op, regs);
        }
        Ok(())
    }
}
