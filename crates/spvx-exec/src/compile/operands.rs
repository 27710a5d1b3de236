//! Operand access and emission helpers shared by the family translators: an instruction's
//! operand and result values, per-component emission of vector instructions, operand kinds
//! (integer width, float format), the rounding and saturation decorations of a result, and
//! register copies.

use super::func::Code;
use super::types::deco;
use super::{Compiler, Value};
use crate::error::ExecError;
use crate::program::*;
use spvx_num::float::RoundingMode;
use spvx_spirv::index::Type;
use spvx_spirv::instruction::{Id, Instruction};

impl Compiler<'_> {
    /// The value of id operand `i`.
    pub(crate) fn operand(
        &self,
        index: usize,
        inst: &Instruction,
        i: usize,
    ) -> Result<Value, ExecError> {
        let id = inst
            .operands
            .get(i)
            .and_then(|o| o.id())
            .ok_or_else(|| self.err(index, format!("operand {i} is not an id")))?;
        self.value(index, id)
    }

    /// The result value.
    pub(crate) fn result(&self, index: usize, inst: &Instruction) -> Result<Value, ExecError> {
        self.value(index, inst.result.unwrap_or(0))
    }

    /// Emits one instruction per component of the result: `mk(operand component kind, dst,
    /// sources)`, where a scalar operand of a vector instruction is used for every component.
    pub(crate) fn each(
        &self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        operands: usize,
        mk: impl Fn(Scalar, Slot, &[Slot]) -> Result<Inst, ExecError>,
    ) -> Result<(), ExecError> {
        let dst = self.result(index, inst)?;
        let (_, n) = self.components(index, dst.ty)?;
        let mut vals = Vec::with_capacity(operands);
        for i in 0..operands {
            let v = self.operand(index, inst, i)?;
            let (_, vn) = self.components(index, v.ty)?;
            vals.push((v.slot, vn));
        }
        let first = self.operand(index, inst, 0)?;
        let (kind, _) = self.scalar_components(index, first.ty)?;
        let mut srcs = vec![0; operands];
        for k in 0..n {
            for (s, (slot, vn)) in srcs.iter_mut().zip(&vals) {
                *s = if *vn == 1 { *slot } else { slot + k };
            }
            code.push(index, mk(kind, dst.slot + k, &srcs)?);
        }
        Ok(())
    }

    pub(crate) fn int_bits(&self, index: usize, s: Scalar) -> Result<u8, ExecError> {
        match s {
            Scalar::Int(w) => Ok(w),
            Scalar::Bool => Ok(1),
            _ => Err(self.err(index, "expected an integer operand")),
        }
    }

    pub(crate) fn float_fmt(
        &self,
        index: usize,
        s: Scalar,
        arithmetic: bool,
    ) -> Result<FloatFmt, ExecError> {
        match s {
            Scalar::Float(f)
                if !arithmetic || matches!(f, FloatFmt::F16 | FloatFmt::F32 | FloatFmt::F64) =>
            {
                Ok(f)
            }
            Scalar::Float(f) => Err(self.unsupported(index, format!("arithmetic on {f:?}"))),
            _ => Err(self.err(index, "expected a float operand")),
        }
    }

    /// The FPRoundingMode decoration of a result (default round to nearest even).
    pub(crate) fn rounding(&self, id: Option<Id>) -> RoundingMode {
        self.rounding_decoration(id)
            .unwrap_or(RoundingMode::NearestEven)
    }

    /// The rounding of a float-to-integer conversion's result: its FPRoundingMode decoration,
    /// by default toward zero (SPIR-V §3.16 FP Rounding Mode).
    pub(crate) fn to_int_rounding(&self, id: Option<Id>) -> RoundingMode {
        self.rounding_decoration(id)
            .unwrap_or(RoundingMode::TowardZero)
    }

    /// Whether a result is decorated SaturatedConversion.
    pub(crate) fn saturated(&self, id: Option<Id>) -> bool {
        id.and_then(|id| self.deco(id, deco::SATURATED_CONVERSION))
            .is_some()
    }

    /// The FPRoundingMode decoration of a result, if it has one.
    fn rounding_decoration(&self, id: Option<Id>) -> Option<RoundingMode> {
        match id
            .and_then(|id| self.deco(id, deco::FP_ROUNDING_MODE))
            .and_then(|w| w.first().copied())?
        {
            1 => Some(RoundingMode::TowardZero),
            2 => Some(RoundingMode::TowardPositive),
            3 => Some(RoundingMode::TowardNegative),
            _ => Some(RoundingMode::NearestEven),
        }
    }

    /// `n` register copies.
    pub(crate) fn copy(&self, index: usize, code: &mut Code, dst: Slot, src: Slot, n: u32) {
        for k in 0..n {
            code.push(
                index,
                Inst::Copy {
                    dst: dst + k,
                    src: src + k,
                },
            );
        }
    }

    /// The first leaf and leaf count of the part of a `ty` value that `indices` select.
    pub(crate) fn leaf_offset(
        &self,
        index: usize,
        ty: Id,
        indices: &[u32],
    ) -> Result<(u32, u32), ExecError> {
        let mut off = 0u32;
        let mut t = ty;
        for &i in indices {
            let (next, before) = match self.ty(index, t)?.clone() {
                Type::Vector { component, .. } => {
                    (component, i * self.slot_count(index, component)?)
                }
                Type::Matrix { column, .. } => (column, i * self.slot_count(index, column)?),
                Type::Array { element, .. } => (element, i * self.slot_count(index, element)?),
                Type::Struct { members } => {
                    let mut before = 0;
                    for m in members.iter().take(i as usize) {
                        before += self.slot_count(index, *m)?;
                    }
                    let m = *members
                        .get(i as usize)
                        .ok_or_else(|| self.err(index, "member index out of range"))?;
                    (m, before)
                }
                _ => return Err(self.err(index, "index into a non-composite")),
            };
            off += before;
            t = next;
        }
        Ok((off, self.slot_count(index, t)?))
    }
}

/// The literal words from operand `from` on.
pub(crate) fn literals(inst: &Instruction, from: usize) -> Vec<u32> {
    inst.operands
        .iter()
        .skip(from)
        .filter_map(|o| o.word())
        .collect()
}
