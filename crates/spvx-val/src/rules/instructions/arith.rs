//! Arithmetic (`OpIAdd`…`OpFMod`, `OpSNegate`, `OpFNegate`, `OpDot`, `OpVectorTimesScalar`),
//! bitwise (`OpShift*`, `OpBitwise*`, `OpNot`, `OpBitCount`), relational and logical
//! (`OpIEqual`…`OpFUnordGreaterThanEqual`, `OpLogical*`, `OpAny`, `OpAll`, `OpIsNan`, `OpIsInf`)
//! instructions and `OpSelect` (SPIR-V §3.52.13, §3.52.14, §3.52.15).

use super::{Check, Cx, Kind, Shape, ensure};
use spvx_spirv::grammar::Version;
use spvx_spirv::index::Type;
use spvx_spirv::op::Op;

const INT_SV: &str = "an int scalar or vector type";
const FLOAT_SV: &str = "a float scalar or vector type";
const BOOL_SV: &str = "a bool scalar or vector type";

pub(super) fn check(cx: &Cx) -> Check {
    let op = cx.inst.opcode;
    match op {
        // OpFNegate, OpFAdd, OpFSub, OpFMul, OpFDiv, OpFRem, OpFMod.
        Op::FNegate | Op::FAdd | Op::FSub | Op::FMul | Op::FDiv | Op::FRem | Op::FMod => {
            same_as_result(cx, Kind::Float, FLOAT_SV)
        }
        // OpUDiv, OpUMod: unsigned result, operands of the Result Type.
        Op::UDiv | Op::UMod => {
            if cx.any_opaque() {
                return Ok(());
            }
            let r = cx.result_shape();
            ensure(r.is_some_and(|s| s.kind == Kind::Int && !s.signed), || {
                cx.result_type_err("an unsigned int scalar or vector type")
            })?;
            operands_equal_result(cx)
        }
        // OpSNegate, OpIAdd, OpISub, OpIMul, OpSDiv, OpSRem, OpSMod.
        Op::SNegate | Op::IAdd | Op::ISub | Op::IMul | Op::SDiv | Op::SRem | Op::SMod => {
            int_like_result(cx, "arithmetic operand")
        }
        // OpShiftRightLogical, OpShiftRightArithmetic, OpShiftLeftLogical.
        Op::ShiftRightLogical | Op::ShiftRightArithmetic | Op::ShiftLeftLogical => shift(cx),
        // OpBitwiseOr, OpBitwiseXor, OpBitwiseAnd, OpNot.
        Op::BitwiseOr | Op::BitwiseXor | Op::BitwiseAnd | Op::Not => {
            int_like_result(cx, "bitwise operand")
        }
        // OpBitCount: same component count, any width.
        Op::BitCount => {
            if cx.any_opaque() {
                return Ok(());
            }
            let r = int_result(cx)?;
            let b = int_operand(cx, 0, "Base")?;
            ensure(b.same_count(&r), || {
                cx.rule("expected Base to have the same component count as Result Type")
            })
        }
        Op::Dot => dot(cx),
        Op::VectorTimesScalar => vector_times_scalar(cx),
        Op::Any | Op::All => any_all(cx),
        // OpIsNan, OpIsInf, OpIsFinite, OpIsNormal.
        Op::IsNan | Op::IsInf | Op::IsFinite | Op::IsNormal => {
            if cx.any_opaque() {
                return Ok(());
            }
            let r = bool_result(cx)?;
            let x = float_operand(cx, 0, "x")?;
            ensure(x.same_count(&r), || {
                cx.rule("expected the operand to have the same component count as Result Type")
            })
        }
        // OpLogicalEqual, OpLogicalNotEqual, OpLogicalOr, OpLogicalAnd, OpLogicalNot.
        Op::LogicalEqual
        | Op::LogicalNotEqual
        | Op::LogicalOr
        | Op::LogicalAnd
        | Op::LogicalNot => same_as_result(cx, Kind::Bool, BOOL_SV),
        Op::Select => select(cx),
        // OpIEqual … OpSLessThanEqual.
        Op::IEqual
        | Op::INotEqual
        | Op::UGreaterThan
        | Op::SGreaterThan
        | Op::UGreaterThanEqual
        | Op::SGreaterThanEqual
        | Op::ULessThan
        | Op::SLessThan
        | Op::ULessThanEqual
        | Op::SLessThanEqual => int_compare(cx),
        // OpFOrdEqual … OpFUnordGreaterThanEqual.
        Op::FOrdEqual
        | Op::FUnordEqual
        | Op::FOrdNotEqual
        | Op::FUnordNotEqual
        | Op::FOrdLessThan
        | Op::FUnordLessThan
        | Op::FOrdGreaterThan
        | Op::FUnordGreaterThan
        | Op::FOrdLessThanEqual
        | Op::FUnordLessThanEqual
        | Op::FOrdGreaterThanEqual
        | Op::FUnordGreaterThanEqual => float_compare(cx),
        _ => Ok(()),
    }
}

fn int_result(cx: &Cx) -> Result<Shape, super::InstructionError> {
    cx.result_shape()
        .filter(|s| s.kind == Kind::Int)
        .ok_or_else(|| cx.result_type_err(INT_SV))
}

fn bool_result(cx: &Cx) -> Result<Shape, super::InstructionError> {
    cx.result_shape()
        .filter(|s| s.kind == Kind::Bool)
        .ok_or_else(|| cx.result_type_err(BOOL_SV))
}

fn int_operand(cx: &Cx, i: usize, what: &str) -> Result<Shape, super::InstructionError> {
    cx.type_of(i)
        .and_then(|t| cx.shape(t))
        .filter(|s| s.kind == Kind::Int)
        .ok_or_else(|| cx.operand_err(i, what, INT_SV))
}

fn float_operand(cx: &Cx, i: usize, what: &str) -> Result<Shape, super::InstructionError> {
    cx.type_of(i)
        .and_then(|t| cx.shape(t))
        .filter(|s| s.kind == Kind::Float)
        .ok_or_else(|| cx.operand_err(i, what, FLOAT_SV))
}

/// Result of `kind` scalar/vector type; every operand of exactly the Result Type.
fn same_as_result(cx: &Cx, kind: Kind, expected: &str) -> Check {
    if cx.any_opaque() {
        return Ok(());
    }
    ensure(cx.result_shape().is_some_and(|s| s.kind == kind), || {
        cx.result_type_err(expected)
    })?;
    operands_equal_result(cx)
}

fn operands_equal_result(cx: &Cx) -> Check {
    for i in 0..cx.inst.operands.len() {
        ensure(cx.type_of(i) == cx.inst.result_type, || {
            cx.operand_err(
                i,
                &format!("operand {}", i + 1),
                &format!("of the Result Type {}", cx.tname(cx.inst.result_type)),
            )
        })?;
    }
    Ok(())
}

/// Int result; int operands with the Result Type's component count and width (signedness may
/// differ: SPIR-V §2.16.1 lets integer arithmetic mix signedness).
fn int_like_result(cx: &Cx, what: &str) -> Check {
    if cx.any_opaque() {
        return Ok(());
    }
    let r = int_result(cx)?;
    for i in 0..cx.inst.operands.len() {
        let s = int_operand(cx, i, &format!("{what} {}", i + 1))?;
        ensure(s.same_count(&r), || {
            cx.rule(format!(
                "expected {what} {} to have the same dimension as Result Type",
                i + 1
            ))
        })?;
        ensure(s.width == r.width, || {
            cx.rule(format!(
                "expected {what} {} to have the same bit width as Result Type",
                i + 1
            ))
        })?;
    }
    Ok(())
}

fn shift(cx: &Cx) -> Check {
    if cx.any_opaque() {
        return Ok(());
    }
    let r = int_result(cx)?;
    let base = int_operand(cx, 0, "Base")?;
    ensure(base.same_count(&r), || {
        cx.rule("expected Base to have the same dimension as Result Type")
    })?;
    ensure(base.width == r.width, || {
        cx.rule("expected Base to have the same bit width as Result Type")
    })?;
    let shift = int_operand(cx, 1, "Shift")?;
    ensure(shift.same_count(&r), || {
        cx.rule("expected Shift to have the same dimension as Result Type")
    })
}

fn dot(cx: &Cx) -> Check {
    if cx.any_opaque() {
        return Ok(());
    }
    let r = cx
        .result_shape()
        .filter(|s| s.kind == Kind::Float && !s.vector)
        .ok_or_else(|| cx.result_type_err("a float scalar type"))?;
    for i in 0..2 {
        let v = float_operand(cx, i, &format!("Vector {}", i + 1))?;
        ensure(v.vector && v.component == r.component, || {
            cx.operand_err(
                i,
                &format!("Vector {}", i + 1),
                &format!("a vector of {}", cx.tname(cx.inst.result_type)),
            )
        })?;
    }
    ensure(cx.type_of(0) == cx.type_of(1), || {
        cx.rule("expected Vector 1 and Vector 2 to have the same type")
    })
}

fn vector_times_scalar(cx: &Cx) -> Check {
    if cx.any_opaque() {
        return Ok(());
    }
    let r = cx
        .result_shape()
        .filter(|s| s.kind == Kind::Float && s.vector)
        .ok_or_else(|| cx.result_type_err("a float vector type"))?;
    ensure(cx.type_of(0) == cx.inst.result_type, || {
        cx.operand_err(0, "Vector", "of the Result Type")
    })?;
    ensure(cx.type_of(1) == Some(r.component), || {
        cx.operand_err(1, "Scalar", "the Result Type's component type")
    })
}

fn any_all(cx: &Cx) -> Check {
    if cx.any_opaque() {
        return Ok(());
    }
    ensure(
        cx.result_shape()
            .is_some_and(|s| s.kind == Kind::Bool && !s.vector),
        || cx.result_type_err("a bool scalar type"),
    )?;
    ensure(
        cx.type_of(0)
            .and_then(|t| cx.shape(t))
            .is_some_and(|s| s.kind == Kind::Bool && s.vector),
        || cx.operand_err(0, "Vector", "a bool vector type"),
    )
}

fn select(cx: &Cx) -> Check {
    if cx.any_opaque() {
        return Ok(());
    }
    let Some(rt) = cx.inst.result_type else {
        return Ok(());
    };
    let allowed = match cx.ix.ty(rt) {
        Some(t) if t.is_scalar() => true,
        Some(Type::Vector { .. } | Type::Pointer { .. } | Type::Other(Op::TypeVectorIdEXT)) => true,
        Some(Type::Struct { .. } | Type::Array { .. } | Type::Matrix { .. }) => {
            cx.ix.header.version() >= Version::new(1, 4)
        }
        _ => false,
    };
    ensure(allowed, || {
        cx.result_type_err(
            "a scalar, vector or pointer type (or, from SPIR-V 1.4, a composite type)",
        )
    })?;
    let cond = cx
        .type_of(0)
        .and_then(|t| cx.shape(t))
        .filter(|s| s.kind == Kind::Bool)
        .ok_or_else(|| cx.operand_err(0, "Condition", "a bool scalar or vector type"))?;
    if cond.vector {
        let r = cx.shape(rt);
        ensure(r.is_some_and(|r| r.vector && r.same_count(&cond)), || {
            cx.rule("a vector Condition requires a vector Result Type with as many components")
        })?;
    }
    for (i, what) in [(1, "Object 1"), (2, "Object 2")] {
        ensure(cx.type_of(i) == Some(rt), || {
            cx.operand_err(i, what, "of the Result Type")
        })?;
    }
    Ok(())
}

fn int_compare(cx: &Cx) -> Check {
    if cx.any_opaque() {
        return Ok(());
    }
    let r = bool_result(cx)?;
    let a = int_operand(cx, 0, "Operand 1")?;
    let b = int_operand(cx, 1, "Operand 2")?;
    ensure(a.same_count(&r) && b.same_count(&r), || {
        cx.rule("expected the operands to have as many components as Result Type")
    })?;
    ensure(a.width == b.width, || {
        cx.rule("expected both operands to have the same component bit width")
    })
}

fn float_compare(cx: &Cx) -> Check {
    if cx.any_opaque() {
        return Ok(());
    }
    let r = bool_result(cx)?;
    let a = float_operand(cx, 0, "Operand 1")?;
    ensure(a.same_count(&r), || {
        cx.rule("expected the operands to have as many components as Result Type")
    })?;
    ensure(cx.type_of(1) == cx.type_of(0), || {
        cx.rule("expected both operands to have the same type")
    })
}
