//! Translation of OpDot and the matrix instructions (OpTranspose, OpMatrixTimesScalar,
//! OpVectorTimesMatrix, OpMatrixTimesVector, OpMatrixTimesMatrix, OpOuterProduct) into ordered
//! dot products of register leaves.

use super::Compiler;
use super::func::Code;
use crate::error::ExecError;
use crate::program::*;
use spvx_spirv::index::Type;
use spvx_spirv::instruction::{Id, Instruction};
use spvx_spirv::op::Op;

impl Compiler<'_> {
    /// Emits `dst = Σ_k a[k]·b[k]` (products and sums in order, each rounded once), reading
    /// `a[k]` at `a0 + k·sa` and `b[k]` at `b0 + k·sb`.
    #[allow(clippy::too_many_arguments)]
    fn dot_into(
        &mut self,
        index: usize,
        code: &mut Code,
        fmt: FloatFmt,
        dst: Slot,
        a0: Slot,
        sa: u32,
        b0: Slot,
        sb: u32,
        n: u32,
    ) -> Result<(), ExecError> {
        let tmp = self.alloc(index, 1)?;
        code.push(
            index,
            Inst::FBin {
                op: FBinOp::Mul,
                fmt,
                dst,
                a: a0,
                b: b0,
            },
        );
        for k in 1..n {
            code.push(
                index,
                Inst::FBin {
                    op: FBinOp::Mul,
                    fmt,
                    dst: tmp,
                    a: a0 + k * sa,
                    b: b0 + k * sb,
                },
            );
            code.push(
                index,
                Inst::FBin {
                    op: FBinOp::Add,
                    fmt,
                    dst,
                    a: dst,
                    b: tmp,
                },
            );
        }
        Ok(())
    }

    /// OpDot and the matrix instructions on column-major register layouts (column `j`, row
    /// `i` at slot `j·rows + i`).
    pub(crate) fn matrix_op(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        opcode: Op,
    ) -> Result<(), ExecError> {
        let dst = self.result(index, inst)?;
        let a = self.operand(index, inst, 0)?;
        // (columns, rows, float format) of a matrix type, or (1, n, fmt) of a vector.
        let shape = |c: &Self, ty: Id| -> Result<(u32, u32, FloatFmt), ExecError> {
            let (cols, col_ty) = match c.ty(index, ty)?.clone() {
                Type::Matrix { column, count } => (count, column),
                _ => (1, ty),
            };
            let (s, rows) = c.scalar_components(index, col_ty)?;
            Ok((cols, rows, c.float_fmt(index, s, true)?))
        };
        match opcode {
            Op::Dot => {
                let b = self.operand(index, inst, 1)?;
                let (s, n) = self.scalar_components(index, a.ty)?;
                let fmt = self.float_fmt(index, s, true)?;
                self.dot_into(index, code, fmt, dst.slot, a.slot, 1, b.slot, 1, n)?;
            }
            Op::Transpose => {
                let (cols, rows, _) = shape(self, a.ty)?;
                for j in 0..cols {
                    for i in 0..rows {
                        code.push(
                            index,
                            Inst::Copy {
                                dst: dst.slot + i * cols + j,
                                src: a.slot + j * rows + i,
                            },
                        );
                    }
                }
            }
            Op::MatrixTimesScalar => {
                let b = self.operand(index, inst, 1)?;
                let (cols, rows, fmt) = shape(self, a.ty)?;
                for k in 0..cols * rows {
                    code.push(
                        index,
                        Inst::FBin {
                            op: FBinOp::Mul,
                            fmt,
                            dst: dst.slot + k,
                            a: a.slot + k,
                            b: b.slot,
                        },
                    );
                }
            }
            Op::OuterProduct => {
                let b = self.operand(index, inst, 1)?;
                let (_, rows, fmt) = shape(self, a.ty)?;
                let (_, cols, _) = shape(self, b.ty)?;
                for j in 0..cols {
                    for i in 0..rows {
                        code.push(
                            index,
                            Inst::FBin {
                                op: FBinOp::Mul,
                                fmt,
                                dst: dst.slot + j * rows + i,
                                a: a.slot + i,
                                b: b.slot + j,
                            },
                        );
                    }
                }
            }
            Op::VectorTimesMatrix => {
                // result[j] = v · column j.
                let m = self.operand(index, inst, 1)?;
                let (cols, rows, fmt) = shape(self, m.ty)?;
                for j in 0..cols {
                    self.dot_into(
                        index,
                        code,
                        fmt,
                        dst.slot + j,
                        a.slot,
                        1,
                        m.slot + j * rows,
                        1,
                        rows,
                    )?;
                }
            }
            Op::MatrixTimesVector => {
                // result[i] = Σ_j M[j][i] · v[j].
                let v = self.operand(index, inst, 1)?;
                let (cols, rows, fmt) = shape(self, a.ty)?;
                for i in 0..rows {
                    self.dot_into(
                        index,
                        code,
                        fmt,
                        dst.slot + i,
                        a.slot + i,
                        rows,
                        v.slot,
                        1,
                        cols,
                    )?;
                }
            }
            Op::MatrixTimesMatrix => {
                // Column j of the result = A × column j of B.
                let b = self.operand(index, inst, 1)?;
                let (acols, arows, fmt) = shape(self, a.ty)?;
                let (bcols, brows, _) = shape(self, b.ty)?;
                for j in 0..bcols {
                    for i in 0..arows {
                        self.dot_into(
                            index,
                            code,
                            fmt,
                            dst.slot + j * arows + i,
                            a.slot + i,
                            arows,
                            b.slot + j * brows,
                            1,
                            acols,
                        )?;
                    }
                }
            }
            other => return Err(self.unsupported(index, other.name())),
        }
        Ok(())
    }
}
