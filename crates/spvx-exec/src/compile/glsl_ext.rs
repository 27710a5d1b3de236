//! Translation of the GLSL.std.450 functions that work on whole vectors or matrices (Modf,
//! ModfStruct, Frexp, FrexpStruct, Ldexp, packing, Determinant, MatrixInverse, Normalize,
//! FaceForward, Refract) into [`Inst::Glsl`]; the pointer forms of Modf and Frexp store their
//! second result through the pointer.

use super::Compiler;
use super::func::Code;
use super::types::MatrixDeco;
use crate::error::ExecError;
use crate::program::glsl::GlslOp;
use crate::program::{FloatFmt, Inst, Scalar, Slot};
use spvx_spirv::index::Type;
use spvx_spirv::instruction::{Id, Instruction};
use spvx_spirv::op::GlslStd450;

/// The GlslOp of a GLSL.std.450 instruction handled here.
fn op_of(func: GlslStd450) -> Option<GlslOp> {
    use GlslOp::*;
    use GlslStd450 as G;
    Some(match func {
        G::Determinant => Determinant,
        G::MatrixInverse => MatrixInverse,
        G::Modf | G::ModfStruct => Modf,
        G::Frexp | G::FrexpStruct => Frexp,
        G::Ldexp => Ldexp,
        G::PackSnorm4x8 => PackSnorm4x8,
        G::PackUnorm4x8 => PackUnorm4x8,
        G::PackSnorm2x16 => PackSnorm2x16,
        G::PackUnorm2x16 => PackUnorm2x16,
        G::PackHalf2x16 => PackHalf2x16,
        G::PackDouble2x32 => PackDouble2x32,
        G::UnpackSnorm2x16 => UnpackSnorm2x16,
        G::UnpackUnorm2x16 => UnpackUnorm2x16,
        G::UnpackHalf2x16 => UnpackHalf2x16,
        G::UnpackSnorm4x8 => UnpackSnorm4x8,
        G::UnpackUnorm4x8 => UnpackUnorm4x8,
        G::UnpackDouble2x32 => UnpackDouble2x32,
        G::Normalize => Normalize,
        G::FaceForward => FaceForward,
        G::Refract => Refract,
        _ => return None,
    })
}

impl Compiler<'_> {
    /// Compiles GLSL.std.450 instruction `func` if it is one of this file's; `Ok(false)` if
    /// not.
    pub(crate) fn glsl_whole(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        func: GlslStd450,
    ) -> Result<bool, ExecError> {
        let Some(op) = op_of(func) else {
            return Ok(false);
        };
        let dst = self.result(index, inst)?;
        let x = self.operand(index, inst, 2)?;
        let arg = |c: &Self, i: usize| -> Result<Slot, ExecError> {
            if inst.operands.len() > i {
                Ok(c.operand(index, inst, i)?.slot)
            } else {
                Ok(0)
            }
        };
        let (a1, a2) = (arg(self, 3)?, arg(self, 4)?);
        // The float operand's format and component count (matrix: order).
        let (fmt, n) = match self.ty(index, x.ty)?.clone() {
            Type::Matrix { column, count } => {
                let (s, rows) = self.scalar_components(index, column)?;
                if rows != count {
                    return Err(self.err(index, "the matrix is not square"));
                }
                (float_of(s), count)
            }
            _ => {
                let (s, n) = self.scalar_components(index, x.ty)?;
                (float_of(s), n)
            }
        };
        let fmt = fmt.unwrap_or(FloatFmt::F32);
        let mut bits = 0u8;
        let glsl = |c: &Self, code: &mut Code, dst: Slot, bits: u8| {
            let _ = c;
            code.push(
                index,
                Inst::Glsl {
                    op,
                    fmt,
                    bits,
                    n: n as u8,
                    dst,
                    args: [x.slot, a1, a2],
                },
            );
        };
        match func {
            GlslStd450::Modf | GlslStd450::Frexp => {
                // Modf / Frexp with a pointer: compute both results into temporaries, copy the
                // first to the result, store the second through the pointer.
                let ptr = self.operand(index, inst, 3)?;
                let pointee = self.glsl_pointee(index, ptr.ty)?;
                if func == GlslStd450::Frexp {
                    bits = self.glsl_int_bits(index, pointee)?;
                }
                let tmp = self.alloc(index, 2 * n)?;
                glsl(self, code, tmp, bits);
                for k in 0..n {
                    code.push(
                        index,
                        Inst::Copy {
                            dst: dst.slot + k,
                            src: tmp + k,
                        },
                    );
                }
                let mut leaves = Vec::new();
                self.mem_leaves(
                    index,
                    pointee,
                    0,
                    MatrixDeco::default(),
                    &mut 0,
                    &mut leaves,
                )?;
                code.push(
                    index,
                    Inst::Store {
                        ptr: ptr.slot,
                        src: tmp + n,
                        leaves: leaves.into(),
                    },
                );
            }
            GlslStd450::FrexpStruct => {
                let Type::Struct { members } = self.ty(index, dst.ty)?.clone() else {
                    return Err(self.err(index, "FrexpStruct's result is not a struct"));
                };
                let exp_ty = members.get(1).copied().unwrap_or(0);
                bits = self.glsl_int_bits(index, exp_ty)?;
                glsl(self, code, dst.slot, bits);
            }
            GlslStd450::Ldexp => {
                let e = self.operand(index, inst, 3)?;
                bits = self.glsl_int_bits(index, e.ty)?;
                glsl(self, code, dst.slot, bits);
            }
            GlslStd450::Refract => {
                let eta = self.operand(index, inst, 4)?;
                let (s, _) = self.scalar_components(index, eta.ty)?;
                if float_of(s) != Some(fmt) {
                    return Err(
                        self.unsupported(index, "Refract with eta of another float width than I")
                    );
                }
                glsl(self, code, dst.slot, bits);
            }
            _ => glsl(self, code, dst.slot, bits),
        }
        Ok(true)
    }

    /// The pointee type of a pointer type.
    fn glsl_pointee(&self, index: usize, ptr_ty: Id) -> Result<Id, ExecError> {
        match self.ty(index, ptr_ty)? {
            Type::Pointer { pointee, .. } => Ok(*pointee),
            _ => Err(self.err(index, "the operand is not a pointer")),
        }
    }

    /// The width of an integer scalar or vector type.
    fn glsl_int_bits(&self, index: usize, ty: Id) -> Result<u8, ExecError> {
        match self.scalar_components(index, ty)?.0 {
            Scalar::Int(b) => Ok(b),
            _ => Err(self.err(index, "the exponent is not an integer")),
        }
    }
}

fn float_of(s: Scalar) -> Option<FloatFmt> {
    match s {
        Scalar::Float(f) => Some(f),
        _ => None,
    }
}
