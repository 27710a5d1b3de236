//! Translation of the comparison, float classification and logical instructions (integer and
//! float comparisons, OpOrdered/OpUnordered, OpIsNan … OpSignBitSet, OpLogical*, OpAny, OpAll):
//! one register instruction per component (OpAny/OpAll: a chain over the components).

use super::Compiler;
use super::func::Code;
use crate::error::ExecError;
use crate::program::*;
use spvx_spirv::instruction::Instruction;
use spvx_spirv::op::Op;

/// The integer comparison of an opcode.
fn int_compare(op: Op) -> Option<ICmpOp> {
    Some(match op {
        Op::IEqual => ICmpOp::Eq,
        Op::INotEqual => ICmpOp::Ne,
        Op::UGreaterThan => ICmpOp::UGt,
        Op::UGreaterThanEqual => ICmpOp::UGe,
        Op::ULessThan => ICmpOp::ULt,
        Op::ULessThanEqual => ICmpOp::ULe,
        Op::SGreaterThan => ICmpOp::SGt,
        Op::SGreaterThanEqual => ICmpOp::SGe,
        Op::SLessThan => ICmpOp::SLt,
        Op::SLessThanEqual => ICmpOp::SLe,
        _ => return None,
    })
}

/// The float comparison of an opcode and whether it is the ordered form.
fn float_compare(op: Op) -> Option<(FCmpOp, bool)> {
    Some(match op {
        Op::FOrdEqual => (FCmpOp::Eq, true),
        Op::FUnordEqual => (FCmpOp::Eq, false),
        Op::FOrdNotEqual => (FCmpOp::Ne, true),
        Op::FUnordNotEqual => (FCmpOp::Ne, false),
        Op::FOrdLessThan => (FCmpOp::Lt, true),
        Op::FUnordLessThan => (FCmpOp::Lt, false),
        Op::FOrdGreaterThan => (FCmpOp::Gt, true),
        Op::FUnordGreaterThan => (FCmpOp::Gt, false),
        Op::FOrdLessThanEqual => (FCmpOp::Le, true),
        Op::FUnordLessThanEqual => (FCmpOp::Le, false),
        Op::FOrdGreaterThanEqual => (FCmpOp::Ge, true),
        Op::FUnordGreaterThanEqual => (FCmpOp::Ge, false),
        Op::Ordered => (FCmpOp::Ord, true),
        Op::Unordered => (FCmpOp::Uno, false),
        // Deprecated; the ordered not-equal.
        Op::LessOrGreater => (FCmpOp::Ne, true),
        _ => return None,
    })
}

impl Compiler<'_> {
    /// A comparison, classification or logical instruction.
    pub(crate) fn compare_op(
        &mut self,
        index: usize,
        inst: &Instruction,
        code: &mut Code,
        op: Op,
    ) -> Result<(), ExecError> {
        if let Some(cop) = int_compare(op) {
            return self.each(index, inst, code, 2, |s, d, x| {
                Ok(Inst::ICmp {
                    op: cop,
                    bits: self.int_bits(index, s)?,
                    dst: d,
                    a: x[0],
                    b: x[1],
                })
            });
        }
        if let Some((cop, ordered)) = float_compare(op) {
            return self.each(index, inst, code, 2, |s, d, x| {
                Ok(Inst::FCmp {
                    op: cop,
                    ordered,
                    fmt: self.float_fmt(index, s, false)?,
                    dst: d,
                    a: x[0],
                    b: x[1],
                })
            });
        }
        match op {
            Op::IsNan | Op::IsInf | Op::IsFinite | Op::IsNormal | Op::SignBitSet => {
                let class = match op {
                    Op::IsNan => FClassOp::IsNan,
                    Op::IsInf => FClassOp::IsInf,
                    Op::IsFinite => FClassOp::IsFinite,
                    Op::IsNormal => FClassOp::IsNormal,
                    _ => FClassOp::SignBitSet,
                };
                self.each(index, inst, code, 1, |s, d, x| {
                    Ok(Inst::FClass {
                        op: class,
                        fmt: self.float_fmt(index, s, false)?,
                        dst: d,
                        a: x[0],
                    })
                })
            }
            Op::LogicalAnd | Op::LogicalOr | Op::LogicalEqual | Op::LogicalNotEqual => {
                let lop = match op {
                    Op::LogicalAnd => LogicOp::And,
                    Op::LogicalOr => LogicOp::Or,
                    Op::LogicalEqual => LogicOp::Equal,
                    _ => LogicOp::NotEqual,
                };
                self.each(index, inst, code, 2, |_s, d, x| {
                    Ok(Inst::Logic {
                        op: lop,
                        dst: d,
                        a: x[0],
                        b: x[1],
                    })
                })
            }
            Op::LogicalNot => self.each(index, inst, code, 1, |_s, d, x| {
                Ok(Inst::LNot { dst: d, a: x[0] })
            }),
            Op::Any | Op::All => {
                let lop = if op == Op::Any {
                    LogicOp::Or
                } else {
                    LogicOp::And
                };
                let dst = self.result(index, inst)?;
                let v = self.operand(index, inst, 0)?;
                let (_, n) = self.components(index, v.ty)?;
                code.push(
                    index,
                    Inst::Copy {
                        dst: dst.slot,
                        src: v.slot,
                    },
                );
                for k in 1..n {
                    code.push(
                        index,
                        Inst::Logic {
                            op: lop,
                            dst: dst.slot,
                            a: dst.slot,
                            b: v.slot + k,
                        },
                    );
                }
                Ok(())
            }
            other => Err(self.unsupported(index, other.name())),
        }
    }
}
