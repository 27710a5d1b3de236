//! Translation of the eleven fixed-point instructions (SPV_INTEL_arbitrary_precision_fixed_point,
//! `OpFixedSqrtINTEL` … `OpFixedExpINTEL`, named `…ALTERA` in the current grammar).

use super::Compiler;
use super::func::Code;
use super::operands::literals;
use crate::error::ExecError;
use crate::program::*;
use spvx_num::fixed::FixedFunction;
use spvx_spirv::instruction::Instruction;
use spvx_spirv::op::Op;

/// The function a fixed-point instruction computes.
pub(crate) fn fixed_function(op: Op) -> Option<FixedFunction> {
    Some(match op {
        Op::FixedSqrtALTERA => FixedFunction::Sqrt,
        Op::FixedRecipALTERA => FixedFunction::Recip,
        Op::FixedRsqrtALTERA => FixedFunction::Rsqrt,
        Op::FixedSinALTERA => FixedFunction::Sin,
        Op::FixedCosALTERA => FixedFunction::Cos,
        Op::FixedSinCosALTERA => FixedFunction::SinCos,
        Op::FixedSinPiALTERA => FixedFunction::SinPi,
        Op::FixedCosPiALTERA => FixedFunction::CosPi,
        Op::FixedSinCosPiALTERA => FixedFunction::SinCosPi,
        Op::FixedLogALTERA => FixedFunction::Log,
        Op::FixedExpALTERA => FixedFunction::Exp,
        _ => return None,
    })
}

impl Compiler<'_> {
    /// The fixed-point functions: Input, then literals S, I, rI, Q, O.
    pub(crate) fn fixed_op(
        &self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
    ) -> Result<(), ExecError> {
        use spvx_num::fixed::{FixedOp, Overflow, Quantization, signedness_from_spirv};
        let function = fixed_function(inst.opcode)
            .ok_or_else(|| self.err(index, "unknown fixed-point opcode"))?;
        let dst = self.result(index, inst)?;
        let src = self.operand(index, inst, 0)?;
        let lit = literals(inst, 1);
        let [s, i, ri, q, o] = lit[..] else {
            return Err(self.err(index, "expected the literals S, I, rI, Q, O"));
        };
        let bad = |e: spvx_num::fixed::FixedError| self.err(index, e.to_string());
        // Integer widths of any size (wider than 64 bits: several registers, `compile::wide`).
        let (Some((w, _)), Some((rw, n))) = (self.int_shape(src.ty), self.int_shape(dst.ty)) else {
            return Err(self.err(index, "fixed-point operands must be integers"));
        };
        self.wide_bits(index, w.max(rw))?;
        let (result, result_width) = match (function.is_pair(), n) {
            (false, 1) => (FixedResult::Single, rw),
            (true, 2) => (FixedResult::Vector, rw),
            (true, 1) if rw % 2 == 0 => (FixedResult::Packed, rw / 2),
            _ => return Err(self.err(index, "result type does not fit the function")),
        };
        let op = FixedOp {
            function,
            signed: signedness_from_spirv(s).map_err(bad)?,
            input_width: w,
            input_int_bits: i as i32,
            result_width,
            result_int_bits: ri as i32,
            quantization: Quantization::from_spirv(q).map_err(bad)?,
            overflow: Overflow::from_spirv(o).map_err(bad)?,
        };
        op.input_format().map_err(bad)?;
        op.result_format().map_err(bad)?;
        code.push(
            index,
            Inst::Fixed {
                op,
                result,
                dst: dst.slot,
                src: src.slot,
            },
        );
        Ok(())
    }
}
