//! Matrix instructions (SPIR-V §3.52.13): `OpTranspose`, `OpMatrixTimesScalar`,
//! `OpVectorTimesMatrix`, `OpMatrixTimesVector`, `OpMatrixTimesMatrix`, `OpOuterProduct`.
//! A matrix is seen as (columns, rows, component type); the rules are the dimension and
//! component-type agreements the specification states for each instruction (spirv-val:
//! source/val/validate_arithmetics.cpp and validate_composites.cpp).

use super::{Check, Cx, Kind, ensure};
use spvx_spirv::index::Type;
use spvx_spirv::instruction::Id;
use spvx_spirv::op::Op;

/// A float matrix type: its column count, row count and component type.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Mat {
    columns: u32,
    rows: u32,
    component: Id,
}

pub(super) fn check(cx: &Cx) -> Check {
    match cx.inst.opcode {
        Op::Transpose => transpose(cx),
        Op::MatrixTimesScalar => matrix_times_scalar(cx),
        Op::VectorTimesMatrix => vector_times_matrix(cx),
        Op::MatrixTimesVector => matrix_times_vector(cx),
        Op::MatrixTimesMatrix => matrix_times_matrix(cx),
        Op::OuterProduct => outer_product(cx),
        _ => Ok(()),
    }
}

fn mat(cx: &Cx, t: Option<Id>) -> Option<Mat> {
    let Type::Matrix { column, count } = t.and_then(|t| cx.ix.ty(t))? else {
        return None;
    };
    let s = cx.shape(*column).filter(|s| s.vector)?;
    Some(Mat {
        columns: *count,
        rows: s.count,
        component: s.component,
    })
}

const FLOAT_MATRIX: &str = "a float matrix type";

fn result_mat(cx: &Cx) -> Result<Mat, super::InstructionError> {
    mat(cx, cx.inst.result_type)
        .filter(|m| cx.shape(m.component).is_some_and(|s| s.kind == Kind::Float))
        .ok_or_else(|| cx.result_type_err(FLOAT_MATRIX))
}

fn operand_mat(cx: &Cx, i: usize, what: &str) -> Result<Mat, super::InstructionError> {
    mat(cx, cx.type_of(i))
        .filter(|m| cx.shape(m.component).is_some_and(|s| s.kind == Kind::Float))
        .ok_or_else(|| cx.operand_err(i, what, FLOAT_MATRIX))
}

/// The (count, component) of a float vector operand or result.
fn float_vector(cx: &Cx, t: Option<Id>) -> Option<(u32, Id)> {
    t.and_then(|t| cx.shape(t))
        .filter(|s| s.kind == Kind::Float && s.vector)
        .map(|s| (s.count, s.component))
}

fn transpose(cx: &Cx) -> Check {
    if cx.any_opaque() {
        return Ok(());
    }
    let r = mat(cx, cx.inst.result_type).ok_or_else(|| cx.result_type_err("a matrix type"))?;
    let m = mat(cx, cx.type_of(0)).ok_or_else(|| cx.operand_err(0, "Matrix", "a matrix type"))?;
    ensure(r.component == m.component, || {
        cx.rule("expected the component types of Matrix and Result Type to be the same")
    })?;
    ensure(r.columns == m.rows && r.rows == m.columns, || {
        cx.rule("expected the number of columns and the column size of Matrix to be the reverse of those of Result Type")
    })
}

fn matrix_times_scalar(cx: &Cx) -> Check {
    if cx.any_opaque() {
        return Ok(());
    }
    let r = result_mat(cx)?;
    ensure(cx.type_of(0) == cx.inst.result_type, || {
        cx.operand_err(0, "Matrix", "of the Result Type")
    })?;
    ensure(cx.type_of(1) == Some(r.component), || {
        cx.operand_err(1, "Scalar", "the Result Type's component type")
    })
}

fn vector_times_matrix(cx: &Cx) -> Check {
    if cx.any_opaque() {
        return Ok(());
    }
    let (rn, rc) = float_vector(cx, cx.inst.result_type)
        .ok_or_else(|| cx.result_type_err("a float vector type"))?;
    let (vn, vc) = float_vector(cx, cx.type_of(0))
        .ok_or_else(|| cx.operand_err(0, "Vector", "a float vector type"))?;
    let m = operand_mat(cx, 1, "Matrix")?;
    ensure(vc == rc && m.component == rc, || {
        cx.rule("expected the component types of Vector, Matrix and Result Type to be the same")
    })?;
    ensure(m.columns == rn, || {
        cx.rule(
            "expected the number of columns of Matrix to equal the component count of Result Type",
        )
    })?;
    ensure(m.rows == vn, || {
        cx.rule("expected the column size of Matrix to equal the component count of Vector")
    })
}

fn matrix_times_vector(cx: &Cx) -> Check {
    if cx.any_opaque() {
        return Ok(());
    }
    let (rn, rc) = float_vector(cx, cx.inst.result_type)
        .ok_or_else(|| cx.result_type_err("a float vector type"))?;
    let m = operand_mat(cx, 0, "Matrix")?;
    let (vn, vc) = float_vector(cx, cx.type_of(1))
        .ok_or_else(|| cx.operand_err(1, "Vector", "a float vector type"))?;
    ensure(vc == rc && m.component == rc, || {
        cx.rule("expected the component types of Vector, Matrix and Result Type to be the same")
    })?;
    ensure(m.rows == rn, || {
        cx.rule("expected the column size of Matrix to equal the component count of Result Type")
    })?;
    ensure(m.columns == vn, || {
        cx.rule("expected the number of columns of Matrix to equal the component count of Vector")
    })
}

fn matrix_times_matrix(cx: &Cx) -> Check {
    if cx.any_opaque() {
        return Ok(());
    }
    let r = result_mat(cx)?;
    let a = operand_mat(cx, 0, "LeftMatrix")?;
    let b = operand_mat(cx, 1, "RightMatrix")?;
    ensure(
        a.component == r.component && b.component == r.component,
        || {
            cx.rule("expected the component types of LeftMatrix, RightMatrix and Result Type to be the same")
        },
    )?;
    ensure(a.columns == b.rows, || {
        cx.rule(
            "expected the number of columns of LeftMatrix to equal the column size of RightMatrix",
        )
    })?;
    ensure(r.columns == b.columns && r.rows == a.rows, || {
        cx.rule("expected Result Type to have the columns of RightMatrix and the column size of LeftMatrix")
    })
}

fn outer_product(cx: &Cx) -> Check {
    if cx.any_opaque() {
        return Ok(());
    }
    let r = result_mat(cx)?;
    let (n1, c1) = float_vector(cx, cx.type_of(0))
        .ok_or_else(|| cx.operand_err(0, "Vector 1", "a float vector type"))?;
    let (n2, c2) = float_vector(cx, cx.type_of(1))
        .ok_or_else(|| cx.operand_err(1, "Vector 2", "a float vector type"))?;
    ensure(c1 == r.component && c2 == r.component, || {
        cx.rule("expected the component types of Vector 1, Vector 2 and Result Type to be the same")
    })?;
    ensure(n1 == r.rows, || {
        cx.rule("expected the component count of Vector 1 to equal the column size of Result Type")
    })?;
    ensure(n2 == r.columns, || {
        cx.rule("expected the component count of Vector 2 to equal the number of columns of Result Type")
    })
}
